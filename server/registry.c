/* server/registry.c — loaded models and their mjData pools (see registry.h). */
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quota.h"

/* free a model and its pool */
void td_model_destroy(tdModel* mod) {
  if (!mod) {
    return;
  }
  for (int i = 0; mod->datas && i < mod->ndata; i++) {
    mj_deleteData(mod->datas[i]);
  }
  free(mod->datas);
  mj_deleteModel(mod->m);
  free(mod);
}

/* wrap a compiled model with one mjData per worker */
tdModel* td_model_create(mjModel* m, int ndata, const char* handle, char* why, size_t whysz) {
  tdModel* mod = calloc(1, sizeof(tdModel));
  if (!mod) {
    mj_deleteModel(m);
    snprintf(why, whysz, "out of memory");
    return NULL;
  }
  mod->m = m;
  atomic_init(&mod->step_ns, 0);
  snprintf(mod->handle, sizeof(mod->handle), "%s", handle);

  // the model's own name, when it has one
  const char* name = m->nnames > 0 ? m->names : "";
  snprintf(mod->name, sizeof(mod->name), "%s", name);

  // sizes used by every request
  mod->nstate_full = mj_stateSize(m, mjSTATE_FULLPHYSICS);
  mod->nstate_int = mj_stateSize(m, mjSTATE_INTEGRATION);
  mod->bytes = mj_sizeModel(m);
  mod->mem = td_model_memory_estimate(m, ndata);

  // one mjData per worker
  ndata += TD_EXPRESS_WORKERS;
  mod->datas = calloc((size_t)ndata, sizeof(mjData*));
  if (!mod->datas) {
    td_model_destroy(mod);
    snprintf(why, whysz, "out of memory");
    return NULL;
  }
  mod->ndata = ndata;
  for (int i = 0; i < ndata; i++) {
    mod->datas[i] = mj_makeData(m);
    if (!mod->datas[i]) {
      td_model_destroy(mod);
      snprintf(why, whysz, "mj_makeData failed (out of memory?)");
      return NULL;
    }
  }
  return mod;
}

/* lookup by handle */
tdModel* td_registry_find(tdRegistry* reg, const char* handle) {
  for (tdModel* mod = reg->head; mod; mod = mod->next) {
    if (!strcmp(mod->handle, handle)) {
      return mod;
    }
  }
  return NULL;
}

/* add with the registry's reference */
void td_registry_add(tdRegistry* reg, tdModel* mod) {
  mod->next = reg->head;
  reg->head = mod;
  reg->count++;
  reg->mem += (int64_t)mod->mem;
  mod->registered = 1;
  mod->refs++;
}

/* remove and drop the registry's reference */
int td_registry_remove(tdRegistry* reg, tdModel* mod) {
  for (tdModel** p = &reg->head; *p; p = &(*p)->next) {
    if (*p == mod) {
      *p = mod->next;
      reg->count--;
      reg->mem -= (int64_t)mod->mem;
      mod->registered = 0;
      mod->next = NULL;
      td_model_unref(mod);
      return 1;
    }
  }
  return 0;
}

/* references */
void td_model_ref(tdModel* mod) {
  mod->refs++;
}

/* drop a reference; the last one frees the model */
void td_model_unref(tdModel* mod) {
  if (--mod->refs == 0) {
    td_model_destroy(mod);
  }
}

/* drop everything */
void td_registry_clear(tdRegistry* reg) {
  while (reg->head) {
    td_registry_remove(reg, reg->head);
  }
}

/* exponential moving average of the cost of one step (races between workers are benign:
 * it only sizes chunks) */
void td_model_note_cost(tdModel* mod, uint64_t steps, uint64_t ns) {
  if (steps == 0) {
    return;
  }
  uint64_t sample = ns / steps, old = atomic_load_explicit(&mod->step_ns, memory_order_relaxed);
  uint64_t next = old ? (7 * old + sample) / 8 : sample;
  atomic_store_explicit(&mod->step_ns, next ? next : 1, memory_order_relaxed);
}
