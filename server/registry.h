/* server/registry.h — loaded models and their per-worker mjData pools.
 *
 * A model is identified by a handle derived from its content (hex SHA-256), so loading the
 * same MJCF and assets again returns the existing model. The registry holds one reference;
 * every job and session using a model holds another; UnloadModel removes the registry's
 * reference and the model is freed when the last user lets go. Connections hold references
 * too (quota.c): the last one to let go removes the model from the registry. Each model keeps one
 * mjData per worker thread: worker w only ever touches datas[w]. Loop thread only, except the
 * counters marked (sched) that the scheduler updates under its mutex. */
#ifndef TORSIOND_REGISTRY_H
#define TORSIOND_REGISTRY_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <torsion/torsion.h>

typedef struct tdModel_ tdModel;

/* workers beyond the configured count that take only light chunks (scheduler.h): every
 * model's pool has an mjData for each of them too */
#define TD_EXPRESS_WORKERS 1

/* one loaded model */
struct tdModel_ {
  tdModel* next; /* registry list */
  char handle[65];
  char name[128];
  mjModel* m;
  mjData** datas; /* [ndata], one per worker */
  int ndata;
  int refs;
  int registered;
  int nstate_full; /* mj_stateSize(FULLPHYSICS) */
  int nstate_int;  /* mj_stateSize(INTEGRATION) */
  size_t bytes;
  size_t mem; /* estimated bytes of the model and its pool (quota.c) */
  int owners; /* connections holding it (quota.c) */
  uint64_t steps_served;
  uint64_t requests_served;
  uint64_t content_loads; /* LoadModel requests that sent this content (req_model.c) */
  uint64_t attaches;      /* LoadModel requests that took a reference by handle */
  int nsessions;
  uint64_t queued_chunks;   /* (sched) */
  uint64_t running_chunks;  /* (sched) */
  _Atomic uint64_t step_ns; /* running estimate of one mj_step (workers update it) */
};

/* worker: fold a measured chunk (steps in ns nanoseconds) into the model's step cost */
void td_model_note_cost(tdModel* mod, uint64_t steps, uint64_t ns);

/* all models */
typedef struct tdRegistry_ {
  tdModel* head;
  int count;
  int64_t mem; /* estimated bytes of the registered models */
} tdRegistry;

/* wrap a compiled model: allocate ndata + TD_EXPRESS_WORKERS mjData (ndata: the workers); NULL
 * (with why) on failure. Any thread. */
tdModel* td_model_create(mjModel* m, int ndata, const char* handle, char* why, size_t whysz);

/* free a model that was never registered (any thread) */
void td_model_destroy(tdModel* mod);

/* find a registered model */
tdModel* td_registry_find(tdRegistry* reg, const char* handle);

/* register a new model (takes the registry's reference) */
void td_registry_add(tdRegistry* reg, tdModel* mod);

/* remove from the registry and drop its reference; 0 if not registered */
int td_registry_remove(tdRegistry* reg, tdModel* mod);

/* references held by jobs and sessions */
void td_model_ref(tdModel* mod);
void td_model_unref(tdModel* mod);

/* drop every model (shutdown) */
void td_registry_clear(tdRegistry* reg);

#endif /* TORSIOND_REGISTRY_H */
