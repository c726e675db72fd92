/* server/pathguard.h — keeping model loading inside its allowed files.
 *
 * A client's MJCF may reference only the asset blobs of its own request: its file
 * attributes (include, mesh, texture, ... and the compiler's *dir attributes) must be
 * relative paths without '..' components or entities, and the blobs are staged in a fresh
 * private directory that is the only place the compiler looks. A server-side model path
 * must resolve (symlinks followed) to a file under the configured model root, and so must
 * every file it references that exists. */
#ifndef TORSIOND_PATHGUARD_H
#define TORSIOND_PATHGUARD_H

#include <stddef.h>

/* a named blob (points into a decoded request) */
typedef struct tdBlob_ {
  const char* name;
  const void* data;
  size_t len;
} tdBlob;

/* called for each file-like attribute; return 0 to go on, -1 to stop with an error */
typedef int (*tdRefVisitor)(void* user, const char* attr, const char* value);

/* check every file-like attribute of MJCF text; `visit` (may be NULL) sees each accepted
 * one. Returns the number of file-like attributes, or -1 with a reason in `why`. */
int td_scan_file_refs(const char* text, size_t len, tdRefVisitor visit, void* user, char* why,
                      size_t whysz);

/* check an asset name (relative, no '..', no empty component, safe characters) */
int td_check_asset_name(const char* name, char* why, size_t whysz);

/* resolve `rel` under `root`: out receives the real path of an existing regular file under
 * the real root. Returns 0, or -1 with a reason in `why`. */
int td_resolve_under_root(const char* root, const char* rel, char* out, size_t outsz, char* why,
                          size_t whysz);

/* check a server-side model file and the files it references (recursively for includes):
 * every reference must be relative, without '..', and stay under root. */
int td_check_model_file(const char* root, const char* path, char* why, size_t whysz);

/* write the blobs into a new private directory under tmpdir (its path into dir_out) */
int td_stage_blobs(const char* tmpdir, const tdBlob* blobs, int nblob, char* dir_out, size_t dirsz,
                   char* why, size_t whysz);

/* remove a staged directory and everything in it */
void td_unstage_blobs(const char* dir);

#endif /* TORSIOND_PATHGUARD_H */
