/* server/req_model.c — LoadModel, ModelInfo and UnloadModel.
 *
 * Loading never runs on the loop: a first pass on libuv's thread pool hashes the content
 * into the handle (a model path is first resolved under model_root); if the registry already
 * has that handle the answer is immediate, otherwise a second pass compiles the MJCF and
 * allocates one mjData per worker. Client text compiles from memory: the text and its
 * assets go into an mjVFS and the engine reads nothing else (vfs_only); a model path
 * compiles with model_root as the root no file may leave. A client-text load reads at most
 * max_model_bytes in all (its request), a model_root load at most TD_MAX_PATH_LOAD_BYTES.
 * A load by handle sends no content: it is a registry lookup on the loop that gives the
 * connection a reference when a connection of the same client holds the model. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job.h"
#include "log.h"
#include "pathguard.h"
#include "quota.h"
#include "requests.h"
#include "sha256.h"

/* upper bound on the number of asset blobs of one request */
#define TD_MAX_ASSETS 4096

/* the VFS name of a request's MJCF text (asset names cannot contain '<', so it is never an
 * asset's; it labels the text's messages as tn_loadXMLString does) */
#define TD_TEXT_NAME "<string>"

/* bytes a model_root load may read over all its files (the operator's own models: Menagerie
 * robots read up to ~40 MB of meshes, far above max_model_bytes, which bounds client text) */
#define TD_MAX_PATH_LOAD_BYTES (1LL << 30)

/* how the engine words a refusal of tnLoadOptions.max_model_bytes */
#define TD_MODEL_SIZE_REFUSAL "above this load's limit"

/* the state of one load between the loop and the thread pool */
typedef struct tdLoad_ {
  uv_work_t work;
  tdJob* job;
  int phase; /* 1: check and hash, 2: compile */
  int code;  /* error code of the pass, 0 on success */
  char why[1024];
  char handle[65];
  char path[4096]; /* resolved server-side path */
  int nworkers;
  long long max_bytes; /* max_model_bytes: all files a client-text load reads */
  char model_root[512];
  int64_t max_model_memory; /* refuse before allocating the pool above this estimate */
  tdModel* mod;             /* the compiled model (phase 2) */
} tdLoad;

/* ---------------------------------------------------------------------------------------
 * thread pool passes
 * ------------------------------------------------------------------------------------- */

/* asset order for hashing: by name */
static int cmp_assets(const void* a, const void* b) {
  const Torsion__V1__Asset* x = *(Torsion__V1__Asset* const*)a;
  const Torsion__V1__Asset* y = *(Torsion__V1__Asset* const*)b;
  return strcmp(x->name, y->name);
}

/* hash a length-prefixed field */
static void hash_field(tdSha256* h, const void* data, size_t len) {
  uint64_t n = len;
  td_sha256_update(h, &n, sizeof(n));
  td_sha256_update(h, data, len);
}

/* pass 1 for client text: hash text and assets */
static void check_text(tdLoad* ld, Torsion__V1__LoadModelRequest* lm) {
  const char* xml = lm->xml;

  // handle: text, then the assets sorted by name
  Torsion__V1__Asset** sorted = malloc(sizeof(*sorted) * (lm->n_assets + 1));
  if (!sorted) {
    ld->code = TD_E_INTERNAL;
    snprintf(ld->why, sizeof(ld->why), "out of memory");
    return;
  }
  for (size_t i = 0; i < lm->n_assets; i++) {
    sorted[i] = lm->assets[i];
  }
  qsort(sorted, lm->n_assets, sizeof(*sorted), cmp_assets);
  tdSha256 h;
  td_sha256_init(&h);
  td_sha256_update(&h, "xml", 4);
  hash_field(&h, xml, strlen(xml));
  for (size_t i = 0; i < lm->n_assets; i++) {
    hash_field(&h, sorted[i]->name, strlen(sorted[i]->name));
    hash_field(&h, sorted[i]->data.data, sorted[i]->data.len);
  }
  free(sorted);
  td_sha256_hex(&h, ld->handle);
}

/* pass 1 for a server path: resolve under the root, hash path+content (the file files it
 * references are confined by the compile pass) */
static void check_path(tdLoad* ld, Torsion__V1__LoadModelRequest* lm) {
  if (td_resolve_under_root(ld->model_root, lm->path, ld->path, sizeof(ld->path), ld->why,
                            sizeof(ld->why))) {
    ld->code = TD_E_PATH_FORBIDDEN;
    return;
  }

  // a regular file, opened without blocking (never a FIFO swapped in meanwhile)
  struct stat st;
  int fd = open(ld->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
    close(fd);
    fd = -1;
  }
  if (fd < 0) {
    ld->code = TD_E_PATH_FORBIDDEN;
    snprintf(ld->why, sizeof(ld->why), "model path '%s' is not a regular file under model_root",
             lm->path);
    return;
  }
  tdSha256 h;
  td_sha256_init(&h);
  td_sha256_update(&h, "path", 5);
  hash_field(&h, ld->path, strlen(ld->path));
  char buf[65536];
  ssize_t k;
  while ((k = read(fd, buf, sizeof(buf))) > 0 || (k < 0 && errno == EINTR)) {
    if (k > 0) {
      td_sha256_update(&h, buf, (size_t)k);
    }
  }
  close(fd);
  td_sha256_hex(&h, ld->handle);
}

/* a VFS holding the request's text (as TD_TEXT_NAME) and assets; 0, or -1 with a reason */
static int request_vfs(mjVFS* vfs, Torsion__V1__LoadModelRequest* lm, char* why, size_t whysz) {
  mj_defaultVFS(vfs);
  size_t n = strlen(lm->xml);
  if (n > INT_MAX || mj_addBufferVFS(vfs, TD_TEXT_NAME, lm->xml, (int)n)) {
    snprintf(why, whysz, "the MJCF text is too large");
    return -1;
  }
  for (size_t i = 0; i < lm->n_assets; i++) {
    const Torsion__V1__Asset* a = lm->assets[i];
    int rc =
        a->data.len > INT_MAX ? -1 : mj_addBufferVFS(vfs, a->name, a->data.data, (int)a->data.len);
    if (rc) {
      snprintf(why, whysz, rc == 2 ? "asset '%s' is given twice" : "asset '%s' is too large",
               a->name);
      return -1;
    }
  }
  return 0;
}

/* pass 2: compile (client text from memory only, a path under the root) and build the pool */
static void compile(tdLoad* ld, Torsion__V1__LoadModelRequest* lm) {
  char err[1024] = "";
  mjModel* m = NULL;
  tnLoadOptions opt;
  tn_defaultLoadOptions(&opt);
  opt.max_bytes = ld->max_bytes;
  opt.max_model_bytes = ld->max_model_memory;  // refused before the model's arrays exist
  td_engine_errors_to(ld->why, sizeof(ld->why));
  if (lm->source_case == TORSION__V1__LOAD_MODEL_REQUEST__SOURCE_PATH) {
    opt.root = ld->model_root;
    opt.max_bytes = TD_MAX_PATH_LOAD_BYTES;
    m = tn_loadXMLWith(ld->path, &opt, err, sizeof(err));
  } else {
    mjVFS vfs;
    if (!request_vfs(&vfs, lm, err, sizeof(err))) {
      opt.vfs = &vfs;
      opt.vfs_only = 1;
      m = tn_loadXMLWith(TD_TEXT_NAME, &opt, err, sizeof(err));
    }
    mj_deleteVFS(&vfs);
  }
  td_engine_errors_to(NULL, 0);
  if (!m) {
    ld->code = TD_E_MODEL_LOAD_FAILED;
    if (strstr(err, TD_MODEL_SIZE_REFUSAL)) {
      // the engine refused the model's size before allocating it: a quota, not a bad model
      ld->code = TD_E_LIMIT_EXCEEDED;
      snprintf(ld->why, sizeof(ld->why), "%s (max_model_memory %lld)", err,
               (long long)ld->max_model_memory);
    } else if (err[0]) {
      snprintf(ld->why, sizeof(ld->why), "%s", err);
    } else if (!ld->why[0]) {
      snprintf(ld->why, sizeof(ld->why), "the model did not compile");
    }
    return;
  }
  if (td_model_check_memory(m, ld->nworkers, ld->max_model_memory, ld->why, sizeof(ld->why))) {
    mj_deleteModel(m);
    ld->code = TD_E_LIMIT_EXCEEDED;
    return;
  }
  ld->mod = td_model_create(m, ld->nworkers, ld->handle, ld->why, sizeof(ld->why));
  if (!ld->mod) {
    ld->code = TD_E_INTERNAL;
  }
}

/* thread pool entry */
static void load_work(uv_work_t* w) {
  tdLoad* ld = w->data;
  Torsion__V1__LoadModelRequest* lm = ld->job->req->load_model;
  if (ld->phase == 1) {
    if (lm->source_case == TORSION__V1__LOAD_MODEL_REQUEST__SOURCE_PATH) {
      check_path(ld, lm);
    } else {
      check_text(ld, lm);
    }
  } else {
    compile(ld, lm);
  }
}

/* ---------------------------------------------------------------------------------------
 * loop side
 * ------------------------------------------------------------------------------------- */

/* names of objects of one type (pointers into the model; the array is malloc'ed) */
static char** names_of(const mjModel* m, int type, int n, size_t* count) {
  *count = 0;
  char** out = malloc(sizeof(char*) * (size_t)(n > 0 ? n : 1));
  if (!out) {
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    const char* s = mj_id2name(m, type, i);
    out[i] = (char*)(s ? s : "");
  }
  *count = (size_t)n;
  return out;
}

/* fill ModelInfo (free with td_free_model_info) */
void td_fill_model_info(Torsion__V1__ModelInfo* info, const tdModel* mod) {
  const mjModel* m = mod->m;
  info->model = (char*)mod->handle;
  info->name = (char*)mod->name;
  info->nq = (uint32_t)m->nq;
  info->nv = (uint32_t)m->nv;
  info->nu = (uint32_t)m->nu;
  info->na = (uint32_t)m->na;
  info->nbody = (uint32_t)m->nbody;
  info->njnt = (uint32_t)m->njnt;
  info->ngeom = (uint32_t)m->ngeom;
  info->nsite = (uint32_t)m->nsite;
  info->nsensor = (uint32_t)m->nsensor;
  info->nsensordata = (uint32_t)m->nsensordata;
  info->nkey = (uint32_t)m->nkey;
  info->nmocap = (uint32_t)m->nmocap;
  info->nuserdata = (uint32_t)m->nuserdata;
  info->timestep = m->opt.timestep;
  info->nstate_fullphysics = (uint32_t)mod->nstate_full;
  info->nstate_integration = (uint32_t)mod->nstate_int;
  info->model_bytes = mod->bytes;

  // the size of each state component
  info->state_component_sizes = malloc(sizeof(uint32_t) * mjNSTATE);
  if (info->state_component_sizes) {
    for (int i = 0; i < mjNSTATE; i++) {
      info->state_component_sizes[i] = (uint32_t)mj_stateSize(m, 1 << i);
    }
    info->n_state_component_sizes = mjNSTATE;
  }

  // names
  info->body_names = names_of(m, mjOBJ_BODY, m->nbody, &info->n_body_names);
  info->joint_names = names_of(m, mjOBJ_JOINT, m->njnt, &info->n_joint_names);
  info->actuator_names = names_of(m, mjOBJ_ACTUATOR, m->nu, &info->n_actuator_names);
  info->sensor_names = names_of(m, mjOBJ_SENSOR, m->nsensor, &info->n_sensor_names);
  info->key_names = names_of(m, mjOBJ_KEY, m->nkey, &info->n_key_names);
}

/* free what td_fill_model_info allocated */
void td_free_model_info(Torsion__V1__ModelInfo* info) {
  free(info->state_component_sizes);
  free(info->body_names);
  free(info->joint_names);
  free(info->actuator_names);
  free(info->sensor_names);
  free(info->key_names);
}

/* finish the load job with a result frame */
static void complete_load(tdLoad* ld, tdModel* mod, int cached) {
  tdJob* job = ld->job;
  tdCompletion* c = &job->comps[0];
  c->job = job;
  c->final = 1;
  if (mod) {
    Torsion__V1__ModelInfo info = TORSION__V1__MODEL_INFO__INIT;
    td_fill_model_info(&info, mod);
    Torsion__V1__LoadModelResult res = TORSION__V1__LOAD_MODEL_RESULT__INIT;
    res.model = mod->handle;
    res.cached = cached;
    res.info = &info;
    tdResp r = TORSION__V1__RESPONSE__INIT;
    r.id = job->id;
    r.final = 1;
    r.body_case = TORSION__V1__RESPONSE__BODY_LOAD_MODEL;
    r.load_model = &res;
    if (td_pack_frame(&r, &c->frame, &c->len)) {
      td_completion_error(c, TD_E_INTERNAL, "out of memory");
    }
    td_free_model_info(&info);
  } else {
    td_completion_error(c, ld->code ? ld->code : TD_E_INTERNAL, "%s", ld->why);
  }
  free(ld);
  td_job_on_completion(job->srv, c);
}

static void load_done(uv_work_t* w, int status);

/* after a pass: answer, or start the compile pass */
static void load_done(uv_work_t* w, int status) {
  tdLoad* ld = w->data;
  tdJob* job = ld->job;
  tdServer* srv = job->srv;
  char q[1100];

  // cancelled, failed, or the connection went away
  if (status || job->finished || ld->code) {
    if (ld->mod)
      td_model_destroy(ld->mod);
    ld->mod = NULL;
    if (!ld->code)
      ld->code = TD_E_CANCELLED;
    if (ld->code == TD_E_MODEL_LOAD_FAILED || ld->code == TD_E_PATH_FORBIDDEN) {
      td_log(TD_LOG_INFO, "model_rejected", "code=%d why=%s", ld->code,
             td_log_quote(q, sizeof(q), ld->why));
    }
    complete_load(ld, NULL, 0);
    return;
  }

  // the same content is already loaded (perhaps by a concurrent request)
  tdModel* known = td_registry_find(&srv->reg, ld->handle);
  if (known) {
    if (ld->mod)
      td_model_destroy(ld->mod);
    ld->mod = NULL;
    if (td_quota_model_acquire(job->conn, known, ld->why, sizeof(ld->why))) {
      ld->code = TD_E_LIMIT_EXCEEDED;
      known = NULL;
    } else {
      known->content_loads++;
    }
    complete_load(ld, known, 1);
    return;
  }
  if (td_quota_model_admit(job->conn, ld->why, sizeof(ld->why))) {
    if (ld->mod)
      td_model_destroy(ld->mod);
    ld->mod = NULL;
    ld->code = TD_E_LIMIT_EXCEEDED;
    complete_load(ld, NULL, 0);
    return;
  }
  if (srv->reg.count >= srv->cfg.max_models) {
    if (ld->mod)
      td_model_destroy(ld->mod);
    ld->mod = NULL;
    ld->code = TD_E_LIMIT_EXCEEDED;
    snprintf(ld->why, sizeof(ld->why), "%d models are loaded (max_models)", srv->reg.count);
    complete_load(ld, NULL, 0);
    return;
  }

  // compiled: register; hashed: go compile
  if (ld->phase == 2) {
    if (td_quota_model_acquire(job->conn, ld->mod, ld->why, sizeof(ld->why))) {
      td_model_destroy(ld->mod);
      ld->mod = NULL;
      ld->code = TD_E_LIMIT_EXCEEDED;
      complete_load(ld, NULL, 0);
      return;
    }
    td_registry_add(&srv->reg, ld->mod);
    ld->mod->content_loads++;
    td_log(TD_LOG_INFO, "model_loaded", "model=%s name=%s nq=%d nv=%d nu=%d", ld->mod->handle,
           td_log_quote(q, sizeof(q), ld->mod->name), (int)ld->mod->m->nq,
           (int)ld->mod->m->nv, (int)ld->mod->m->nu);
    complete_load(ld, ld->mod, 0);
    return;
  }
  ld->phase = 2;
  if (uv_queue_work(srv->loop, &ld->work, load_work, load_done)) {
    ld->code = TD_E_INTERNAL;
    snprintf(ld->why, sizeof(ld->why), "cannot queue the compile");
    complete_load(ld, NULL, 0);
  }
}

/* LoadModel by handle: a reference to a model a connection of the same client holds (a
 * lookup, no compile); any other handle is unknown, with the same answer as a handle never
 * loaded, so a client learns nothing of others' models */
static void attach_model(tdConn* c, tdReq* req, double t0) {
  int kind = TD_KIND_LOAD_MODEL;
  Torsion__V1__LoadModelRequest* lm = req->load_model;
  char why[600];
  if (lm->n_assets) {
    td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT, "LoadModel by handle takes no assets");
    return;
  }
  tdModel* mod = td_registry_find(&c->srv->reg, lm->handle);
  if (!mod || !td_quota_client_holds(c, mod)) {
    td_reject(c, req, kind, t0, TD_E_MODEL_NOT_FOUND, "no loaded model has handle '%.80s'",
              lm->handle);
    return;
  }
  if (td_quota_model_acquire(c, mod, why, sizeof(why))) {
    td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED, "%s", why);
    return;
  }
  mod->attaches++;

  // the answer of a load whose content was already loaded
  Torsion__V1__ModelInfo info = TORSION__V1__MODEL_INFO__INIT;
  td_fill_model_info(&info, mod);
  Torsion__V1__LoadModelResult res = TORSION__V1__LOAD_MODEL_RESULT__INIT;
  res.model = mod->handle;
  res.cached = 1;
  res.info = &info;
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.id = req->id;
  r.final = 1;
  r.body_case = TORSION__V1__RESPONSE__BODY_LOAD_MODEL;
  r.load_model = &res;
  td_reply(c, &r, kind, t0);
  td_free_model_info(&info);
  protobuf_c_message_free_unpacked(&req->base, NULL);
}

/* a load job runs on the thread pool, not on the workers: no per-chunk behaviour */
static const tdJobOps load_ops = {NULL, NULL, NULL};

/* LoadModel: validate sizes and names, then start pass 1 */
void td_req_load_model(tdConn* c, tdReq* req, double t0) {
  tdServer* srv = c->srv;
  int kind = TD_KIND_LOAD_MODEL;
  Torsion__V1__LoadModelRequest* lm = req->load_model;
  char why[600];

  // a source, within the size limit, with well-named assets
  if (lm->source_case == TORSION__V1__LOAD_MODEL_REQUEST__SOURCE__NOT_SET) {
    td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT, "LoadModel needs xml, path or handle");
    return;
  }
  if (lm->source_case == TORSION__V1__LOAD_MODEL_REQUEST__SOURCE_HANDLE) {
    attach_model(c, req, t0);
    return;
  }
  if (lm->source_case == TORSION__V1__LOAD_MODEL_REQUEST__SOURCE_PATH && !srv->cfg.model_root[0]) {
    td_reject(c, req, kind, t0, TD_E_PATH_FORBIDDEN,
              "this server has no model_root: send the MJCF text instead");
    return;
  }
  uint64_t total =
      lm->source_case == TORSION__V1__LOAD_MODEL_REQUEST__SOURCE_XML ? strlen(lm->xml) : 0;
  if (lm->n_assets > TD_MAX_ASSETS) {
    td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED, "more than %d assets", TD_MAX_ASSETS);
    return;
  }
  for (size_t i = 0; i < lm->n_assets; i++) {
    total += lm->assets[i]->data.len;
    if (td_check_asset_name(lm->assets[i]->name, why, sizeof(why))) {
      td_reject(c, req, kind, t0, TD_E_PATH_FORBIDDEN, "%s", why);
      return;
    }
  }
  if (total > (uint64_t)srv->cfg.max_model_bytes) {
    td_reject(c, req, kind, t0, TD_E_LIMIT_EXCEEDED, "model of %llu bytes exceeds max_model_bytes",
              (unsigned long long)total);
    return;
  }

  // a job with one chunk run on the thread pool
  tdLoad* ld = calloc(1, sizeof(tdLoad));
  tdJob* job = ld ? td_job_new(c, req, &load_ops, kind) : NULL;
  if (!job) {
    free(ld);
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
    return;
  }
  td_job_submit(job, 1, 1, 1);
  if (job->finished) {
    free(ld);
    return;
  }
  job->submitted = 1;
  ld->job = job;
  ld->phase = 1;
  ld->work.data = ld;
  ld->nworkers = srv->nworkers;
  ld->max_bytes = (long long)srv->cfg.max_model_bytes;
  snprintf(ld->model_root, sizeof(ld->model_root), "%s", srv->cfg.model_root);
  ld->max_model_memory = srv->cfg.max_model_memory;
  if (uv_queue_work(srv->loop, &ld->work, load_work, load_done)) {
    ld->code = TD_E_INTERNAL;
    snprintf(ld->why, sizeof(ld->why), "cannot queue the load");
    complete_load(ld, NULL, 0);
  }
}

/* ModelInfo */
void td_req_model_info(tdConn* c, tdReq* req, double t0) {
  int kind = TD_KIND_MODEL_INFO;
  tdModel* mod = td_lookup_held_model(c, req, kind, t0, req->model_info->model);
  if (!mod) {
    return;
  }
  // the asked mjModel arrays, converted to float64
  Torsion__V1__ModelInfoRequest* mr = req->model_info;
  size_t nf = mr->n_fields;
  Torsion__V1__Readout* fmsg = calloc(nf + 1, sizeof(Torsion__V1__Readout));
  Torsion__V1__Readout** fptr = calloc(nf + 1, sizeof(Torsion__V1__Readout*));
  Torsion__V1__Array* farr = calloc(nf + 1, sizeof(Torsion__V1__Array));
  uint64_t* fshape = calloc(2 * nf + 1, sizeof(uint64_t));
  double** fdata = calloc(nf + 1, sizeof(double*));
  int failed = !fmsg || !fptr || !farr || !fshape || !fdata;
  for (size_t i = 0; i < nf && !failed; i++) {
    tnField f;
    if (!tn_modelField(mod->m, mr->fields[i], &f)) {
      failed = 2;
      td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT,
                "fields[%zu] '%.64s' is not an mjModel array", i, mr->fields[i]);
      break;
    }
    size_t n = (size_t)f.rows * f.cols;
    fdata[i] = malloc(sizeof(double) * n + 8);
    if (!fdata[i]) {
      failed = 1;
      break;
    }
    for (size_t k = 0; k < n; k++) {
      fdata[i][k] = tn_fieldValue(&f, (int)k);
    }
    fshape[2 * i] = (uint64_t)f.rows;
    fshape[2 * i + 1] = (uint64_t)f.cols;
    farr[i] = (Torsion__V1__Array)TORSION__V1__ARRAY__INIT;
    td_set_array(&farr[i], fshape + 2 * i, f.cols == 1 ? 1 : 2, 0, fdata[i], n);
    fmsg[i] = (Torsion__V1__Readout)TORSION__V1__READOUT__INIT;
    fmsg[i].name = mr->fields[i];
    fmsg[i].value = &farr[i];
    fptr[i] = &fmsg[i];
  }
  if (failed == 1) {
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
  }
  if (!failed) {
    Torsion__V1__ModelInfo info = TORSION__V1__MODEL_INFO__INIT;
    td_fill_model_info(&info, mod);
    info.n_fields = nf;
    info.fields = fptr;
    tdResp r = TORSION__V1__RESPONSE__INIT;
    r.id = req->id;
    r.final = 1;
    r.body_case = TORSION__V1__RESPONSE__BODY_MODEL_INFO;
    r.model_info = &info;
    td_reply(c, &r, kind, t0);
    td_free_model_info(&info);
    protobuf_c_message_free_unpacked(&req->base, NULL);
  }
  for (size_t i = 0; fdata && i < nf; i++) {
    free(fdata[i]);
  }
  free(fdata);
  free(fshape);
  free(farr);
  free(fptr);
  free(fmsg);
}

/* UnloadModel: the model leaves the registry; users finish with it */
void td_req_unload_model(tdConn* c, tdReq* req, double t0) {
  int kind = TD_KIND_UNLOAD_MODEL;
  tdModel* mod = td_lookup_held_model(c, req, kind, t0, req->unload_model->model);
  if (!mod) {
    return;
  }
  td_quota_model_release(c, mod);  // the last holder's release unloads it
  Torsion__V1__UnloadModelResult res = TORSION__V1__UNLOAD_MODEL_RESULT__INIT;
  res.unloaded = 1;
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.id = req->id;
  r.final = 1;
  r.body_case = TORSION__V1__RESPONSE__BODY_UNLOAD_MODEL;
  r.unload_model = &res;
  td_reply(c, &r, kind, t0);
  protobuf_c_message_free_unpacked(&req->base, NULL);
}
