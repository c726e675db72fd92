/* tests/unit/test_vfs.c — unit tests of the mjVFS API and of loading through it.
 *
 * The API keeps MuJoCo 3.14's return codes (0 success, 2 repeated name, -1 failed to load
 * or not found); a reference finds a file by its exact name, else by its base name ignoring
 * case; tn_loadXMLWith reads nothing outside the VFS when vfs_only is set, nothing outside
 * its root when one is given, and stops at its byte limit; FIFOs and devices are refused
 * without blocking. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <torsion/torsion.h>

/* a model with one mesh read from a file and one included file */
static const char* MODEL =
    "<mujoco>"
    "  <compiler meshdir='meshes'/>"
    "  <asset><mesh name='tet' file='tet.obj'/></asset>"
    "  <worldbody><body><freejoint/><geom type='mesh' mesh='tet'/></body></worldbody>"
    "  <include file='more.xml'/>"
    "</mujoco>";
static const char* MORE =
    "<mujoco><worldbody><body name='b'><joint/><geom size='.1'/></body></worldbody></mujoco>";
static const char* TET = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";

/* add a string as a file */
static int add(mjVFS* vfs, const char* name, const char* text) {
  return mj_addBufferVFS(vfs, name, text, (int)strlen(text));
}

/* return codes of add, delete and repeated names */
static void test_api_codes(void** state) {
  (void)state;
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  assert_int_equal(add(&vfs, "a.xml", "x"), 0);
  assert_int_equal(add(&vfs, "a.xml", "y"), 2);
  assert_int_equal(add(&vfs, "A.xml", "y"), 0);
  assert_int_equal(mj_addBufferVFS(&vfs, "empty", NULL, 0), 0);
  assert_int_equal(mj_addBufferVFS(&vfs, "neg", "x", -1), -1);
  assert_int_equal(mj_deleteFileVFS(&vfs, "a.xml"), 0);
  assert_int_equal(mj_deleteFileVFS(&vfs, "a.xml"), -1);
  assert_int_equal(mj_deleteFileVFS(&vfs, "missing"), -1);
  assert_int_equal(add(&vfs, "a.xml", "z"), 0);

  // files from disk are named by their lower-case base name
  char dir[] = "/tmp/tn-vfs-XXXXXX", path[600];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/Part.OBJ", dir);
  FILE* f = fopen(path, "w");
  fputs(TET, f);
  fclose(f);
  assert_int_equal(mj_addFileVFS(&vfs, dir, "Part.OBJ"), 0);
  assert_int_equal(mj_addFileVFS(&vfs, dir, "Part.OBJ"), 2);
  assert_int_equal(mj_addFileVFS(&vfs, dir, "none.obj"), -1);
  assert_int_equal(mj_addFileVFS(&vfs, "/dev", "zero"), -1);
  assert_int_equal(mj_deleteFileVFS(&vfs, "part.obj"), 0);
  unlink(path);
  rmdir(dir);
  mj_deleteVFS(&vfs);
  assert_null(vfs.impl_);
  mj_deleteVFS(&vfs);
}

/* load MODEL from the VFS only; returns the model or NULL with the message in err */
static mjModel* load_only(mjVFS* vfs, char* err, int errsz) {
  tnLoadOptions opt;
  tn_defaultLoadOptions(&opt);
  opt.vfs = vfs;
  opt.vfs_only = 1;
  return tn_loadXMLWith("model.xml", &opt, err, errsz);
}

/* a model, its include and its mesh all from memory; exact and base-name matches */
static void test_load_from_vfs(void** state) {
  (void)state;
  char err[1000] = "";
  const char* mesh_names[] = {"meshes/tet.obj", "TET.OBJ", "other/dir/tet.obj"};
  for (int k = 0; k < 3; k++) {
    mjVFS vfs;
    mj_defaultVFS(&vfs);
    add(&vfs, "model.xml", MODEL);
    add(&vfs, "more.xml", MORE);
    add(&vfs, mesh_names[k], TET);
    mjModel* m = load_only(&vfs, err, sizeof(err));
    assert_non_null(m);
    assert_int_equal(m->nmesh, 1);
    assert_int_equal(m->nbody, 3);
    mj_deleteModel(m);
    mj_deleteVFS(&vfs);
  }

  // the same through mj_loadXML
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  add(&vfs, "model.xml", MODEL);
  add(&vfs, "more.xml", MORE);
  add(&vfs, "tet.obj", TET);
  mjModel* m = mj_loadXML("model.xml", &vfs, err, sizeof(err));
  assert_non_null(m);
  mj_deleteModel(m);

  // a byte limit below the three files' size
  tnLoadOptions opt;
  tn_defaultLoadOptions(&opt);
  opt.vfs = &vfs;
  opt.vfs_only = 1;
  opt.max_bytes = (long long)(strlen(MODEL) + strlen(MORE));
  assert_null(tn_loadXMLWith("model.xml", &opt, err, sizeof(err)));
  assert_non_null(strstr(err, "byte limit"));
  mj_deleteVFS(&vfs);
}

/* a compiled-size limit refuses a model before its arrays exist; under it, the model loads */
static void test_model_size_limit(void** state) {
  (void)state;
  char err[1000] = "";
  const char* big =
      "<mujoco><asset><hfield name='h' nrow='16000' ncol='16000' size='1 1 1 1'/></asset>"
      "<worldbody><geom type='hfield' hfield='h'/></worldbody></mujoco>";
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  add(&vfs, "model.xml", big);
  tnLoadOptions opt;
  tn_defaultLoadOptions(&opt);
  opt.vfs = &vfs;
  opt.vfs_only = 1;
  opt.max_model_bytes = 64 << 20;
  assert_null(tn_loadXMLWith("model.xml", &opt, err, sizeof(err)));
  assert_non_null(strstr(err, "the model needs"));
  assert_non_null(strstr(err, "above this load's limit"));

  // the same limit admits a small model
  mj_deleteVFS(&vfs);
  mj_defaultVFS(&vfs);
  add(&vfs, "model.xml", "<mujoco><worldbody><geom size='1'/></worldbody></mujoco>");
  mjModel* m = tn_loadXMLWith("model.xml", &opt, err, sizeof(err));
  assert_non_null(m);
  assert_true(mj_sizeModel(m) < (mjtSize)opt.max_model_bytes);
  mj_deleteModel(m);
  mj_deleteVFS(&vfs);
}

/* references to anything outside the VFS fail with element, attribute and file */
static void test_vfs_only_refuses(void** state) {
  (void)state;
  char err[1000] = "";
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  add(&vfs, "model.xml", MODEL);
  add(&vfs, "tet.obj", TET);
  assert_null(load_only(&vfs, err, sizeof(err)));
  assert_non_null(strstr(err, "element 'include'"));
  assert_non_null(strstr(err, "attribute 'file'"));
  assert_non_null(strstr(err, "more.xml"));
  assert_non_null(strstr(err, "not in the VFS"));
  mj_deleteVFS(&vfs);

  mj_defaultVFS(&vfs);
  add(&vfs, "model.xml", "<mujoco><asset><mesh name=m file=\"/etc/passwd\"/></asset></mujoco>");
  assert_null(load_only(&vfs, err, sizeof(err)));
  assert_non_null(strstr(err, "not in the VFS"));
  mj_deleteVFS(&vfs);

  // the model file itself
  mj_defaultVFS(&vfs);
  tnLoadOptions opt;
  tn_defaultLoadOptions(&opt);
  opt.vfs = &vfs;
  opt.vfs_only = 1;
  assert_null(tn_loadXMLWith("/etc/hostname", &opt, err, sizeof(err)));
  assert_non_null(strstr(err, "not in the VFS"));
  mj_deleteVFS(&vfs);
}

/* write a file */
static void put(const char* dir, const char* name, const char* text) {
  char path[700];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE* f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* files under a root: symlinks and '..' may not leave it; one message for missing and
 * outside; FIFOs are refused without blocking */
static void test_root(void** state) {
  (void)state;
  char dir[] = "/tmp/tn-root-XXXXXX", path[700], err[1000] = "", err2[1000] = "";
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/meshes", dir);
  mkdir(path, 0700);
  put(dir, "model.xml", MODEL);
  put(dir, "more.xml", MORE);
  put(dir, "meshes/tet.obj", TET);
  tnLoadOptions opt;
  tn_defaultLoadOptions(&opt);
  opt.root = dir;
  snprintf(path, sizeof(path), "%s/model.xml", dir);
  mjModel* m = tn_loadXMLWith(path, &opt, err, sizeof(err));
  assert_non_null(m);
  mj_deleteModel(m);

  // an include through a symlink out of the root, of an existing and of a missing file
  snprintf(path, sizeof(path), "%s/out", dir);
  assert_int_equal(symlink("/etc", path), 0);
  put(dir, "a.xml", "<mujoco><include file='out/hostname'/></mujoco>");
  put(dir, "b.xml", "<mujoco><include file='out/no-such-file'/></mujoco>");
  snprintf(path, sizeof(path), "%s/a.xml", dir);
  assert_null(tn_loadXMLWith(path, &opt, err, sizeof(err)));
  snprintf(path, sizeof(path), "%s/b.xml", dir);
  assert_null(tn_loadXMLWith(path, &opt, err2, sizeof(err2)));
  assert_non_null(strstr(err, "under the load's root"));
  assert_non_null(strstr(err2, "under the load's root"));

  // the two messages differ only in the file name: nothing tells whether it exists
  *strstr(err, "out/hostname") = 0;
  *strstr(err2, "out/no-such-file") = 0;
  assert_string_equal(strchr(err, ':'), strchr(err2, ':'));

  // '..' and absolute paths
  put(dir, "c.xml",
      "<mujoco><asset><mesh name='m' file='../../etc/hostname.obj'/></asset></mujoco>");
  snprintf(path, sizeof(path), "%s/c.xml", dir);
  assert_null(tn_loadXMLWith(path, &opt, err, sizeof(err)));
  assert_non_null(strstr(err, "under the load's root"));

  // a FIFO include inside the root: refused at once
  snprintf(path, sizeof(path), "%s/fifo.xml", dir);
  assert_int_equal(mkfifo(path, 0600), 0);
  put(dir, "d.xml", "<mujoco><include file='fifo.xml'/></mujoco>");
  snprintf(path, sizeof(path), "%s/d.xml", dir);
  assert_null(tn_loadXMLWith(path, &opt, err, sizeof(err)));
  assert_non_null(strstr(err, "fifo.xml"));
  assert_null(mj_loadXML(path, NULL, err, sizeof(err)));
  assert_non_null(strstr(err, "not a regular file"));

  // a root that does not exist
  opt.root = "/no/such/root";
  assert_null(tn_loadXMLWith(path, &opt, err, sizeof(err)));
  assert_non_null(strstr(err, "root"));

  const char* names[] = {"model.xml", "more.xml", "meshes/tet.obj", "out",     "a.xml",
                         "b.xml",     "c.xml",    "d.xml",          "fifo.xml"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
    unlink(path);
  }
  snprintf(path, sizeof(path), "%s/meshes", dir);
  rmdir(path);
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_api_codes),
      cmocka_unit_test(test_load_from_vfs),
      cmocka_unit_test(test_model_size_limit),
      cmocka_unit_test(test_vfs_only_refuses),
      cmocka_unit_test(test_root),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
