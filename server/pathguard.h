/* server/pathguard.h — the request-level path checks of LoadModel.
 *
 * The files a model reads are confined by the engine (tn_loadXMLWith): client text loads
 * from memory with its assets in a VFS and nothing else (vfs_only), a server-side path
 * loads with model_root as its root. What remains here: asset names must be plain relative
 * names, and a request's model path must resolve (symlinks followed) to a regular file
 * under model_root. */
#ifndef TORSIOND_PATHGUARD_H
#define TORSIOND_PATHGUARD_H

#include <stddef.h>

/* check an asset name (relative, no '..', no empty component, safe characters) */
int td_check_asset_name(const char* name, char* why, size_t whysz);

/* resolve `rel` under `root`: out receives the real path of an existing regular file under
 * the real root. Returns 0, or -1 with a reason in `why`. */
int td_resolve_under_root(const char* root, const char* rel, char* out, size_t outsz, char* why,
                          size_t whysz);

#endif /* TORSIOND_PATHGUARD_H */
