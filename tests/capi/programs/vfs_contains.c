/* vfs_contains.c — MuJoCo's VFS bookkeeping: files added from disk and from buffers, then
 * which names mj_containsBufferVFS and mj_containsFileVFS find, and deletion. Writes one
 * small file into the working directory. */
#include <stdio.h>
#include MJ_INCLUDE

int main(void) {
  // a file on disk with a mixed-case name
  FILE* f = fopen("Model.XML", "w");
  if (!f) {
    return 1;
  }
  fputs("<mujoco/>", f);
  fclose(f);

  mjVFS v;
  mj_defaultVFS(&v);
  printf("add file %d\n", mj_addFileVFS(&v, ".", "Model.XML"));
  printf("add buffer %d\n", mj_addBufferVFS(&v, "dir/Buf.xml", "<mujoco/>", 9));
  printf("add again %d\n", mj_addBufferVFS(&v, "dir/Buf.xml", "<mujoco/>", 9));

  // buffer lookups: exact stored names only
  const char* names[] = {"Model.XML", "model.xml", "./Model.XML", "dir/Buf.xml",
                         "buf.xml",   "Buf.xml",   "dir/buf.xml", "x/dir/Buf.xml"};
  for (int i = 0; i < 8; i++) {
    printf("buffer %s %d\n", names[i], mj_containsBufferVFS(&v, names[i]));
  }

  // file lookups: by lower-case base name, whatever the directory
  printf("file . Model.XML %d\n", mj_containsFileVFS(&v, ".", "Model.XML"));
  printf("file ./ model.xml %d\n", mj_containsFileVFS(&v, "./", "model.xml"));
  printf("file NULL Model.XML %d\n", mj_containsFileVFS(&v, NULL, "Model.XML"));
  printf("file empty ./Model.XML %d\n", mj_containsFileVFS(&v, "", "./Model.XML"));
  printf("file dir Buf.xml %d\n", mj_containsFileVFS(&v, "dir", "Buf.xml"));
  printf("file other Model.XML %d\n", mj_containsFileVFS(&v, "/other", "Model.XML"));

  // deletion by path
  printf("delete %d\n", mj_deleteFileVFS(&v, "./Model.XML"));
  printf("after delete %d\n", mj_containsFileVFS(&v, ".", "Model.XML"));
  printf("delete missing %d\n", mj_deleteFileVFS(&v, "nothing.xml"));
  mj_deleteVFS(&v);
  return 0;
}
