/* server/quota.c — per-connection model references, memory estimates and environment
 * quotas (see quota.h). */
#include "quota.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "log.h"
#include "session.h"

/* the arena an mjData gets when the model names no <size memory>: a floor plus terms that
 * grow with the dense matrices and the object counts (a generous estimate) */
static size_t arena_estimate(const mjModel* m) {
  if (m->narena > 0) {
    return (size_t)m->narena;
  }
  size_t nv = (size_t)m->nv;
  return ((size_t)16 << 20) + 64 * nv * nv + 2048 * (size_t)m->ngeom +
         sizeof(mjtNum) * (64 * nv + 64 * (size_t)m->nbody + 16 * (size_t)m->ntendon * (nv + 8));
}

/* estimated bytes of the model and ndata mjData */
size_t td_model_memory_estimate(const mjModel* m, int ndata) {
  // the mjData arrays, sized from the model's counts as the data allocator lays them out
  double data = 0;
#define MJ_M(n) ((double)m->n)
#define X(type, name, rows, cols) data += (double)sizeof(type) * (double)m->rows * (cols) + 64;
  MJDATA_POINTERS(X)
#undef X
#undef MJ_M
  data += (double)arena_estimate(m) + sizeof(mjData);
  double total = (double)mj_sizeModel(m) + data * ((ndata > 0 ? ndata : 1) + TD_EXPRESS_WORKERS);
  return total > 1e18 ? (size_t)1e18 : (size_t)total;
}

/* the per-model memory limit */
int td_model_check_memory(const mjModel* m, int ndata, int64_t limit, char* why, size_t whysz) {
  size_t est = td_model_memory_estimate(m, ndata);
  if (limit > 0 && est > (size_t)limit) {
    snprintf(why, whysz,
             "the model needs about %zu bytes (model and %d mjData), above max_model_memory "
             "%lld",
             est, ndata, (long long)limit);
    return -1;
  }
  return 0;
}

/* c's entry for mod, or NULL */
static tdConnModel* find_held(const tdConn* c, const tdModel* mod) {
  for (tdConnModel* h = c->models; h; h = h->next) {
    if (h->mod == mod) {
      return h;
    }
  }
  return NULL;
}

/* does c hold mod */
int td_quota_holds(const tdConn* c, const tdModel* mod) {
  return find_held(c, mod) != NULL;
}

/* the user at the other end of a Unix-socket connection, or -1 (not a Unix socket, or the
 * kernel does not say) */
static long long peer_uid(const tdConn* c) {
  uv_os_fd_t fd;
  if (c->h.handle.type != UV_NAMED_PIPE || uv_fileno(&c->h.handle, &fd)) {
    return -1;
  }
  struct ucred cred;
  socklen_t len = sizeof(cred);
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || len != sizeof(cred)) {
    return -1;
  }
  return (long long)cred.uid;
}

/* one client: the same token, or the same user on the Unix socket */
int td_quota_same_client(const tdConn* a, const tdConn* b) {
  if (a == b) {
    return 1;
  }
  if (a->principal >= 0 || b->principal >= 0) {
    return a->principal == b->principal;
  }
  long long ua = peer_uid(a);
  return ua >= 0 && ua == peer_uid(b);
}

/* c, or an open connection of its client, holds mod */
int td_quota_client_holds(const tdConn* c, const tdModel* mod) {
  if (td_quota_holds(c, mod)) {
    return 1;
  }
  for (const tdConn* o = c->srv->conns; o; o = o->next) {
    if (o != c && !o->closing && td_quota_holds(o, mod) && td_quota_same_client(c, o)) {
      return 1;
    }
  }
  return 0;
}

/* the connection's token principal, or NULL */
static tdPrincipal* principal_of(const tdConn* c) {
  return c->principal >= 0 ? &c->srv->principals[c->principal] : NULL;
}

/* unfinished work of c and its token */
void td_quota_steps(tdConn* c, int64_t delta) {
  c->queued_steps += delta;
  tdPrincipal* p = principal_of(c);
  if (p) {
    p->queued_steps += delta;
  }
}

/* count quota for a new model */
int td_quota_model_admit(const tdConn* c, char* why, size_t whysz) {
  const tdConfig* cfg = &c->srv->cfg;
  const tdPrincipal* p = principal_of(c);
  if (c->nmodels >= cfg->max_models_per_connection) {
    snprintf(why, whysz, "this connection holds %d models (max_models_per_connection)", c->nmodels);
    return -1;
  }
  if (p && p->nmodels >= cfg->max_models_per_connection) {
    snprintf(why, whysz,
             "the connections of this token hold %d models (max_models_per_connection, per "
             "token)",
             p->nmodels);
    return -1;
  }
  return 0;
}

/* take a reference for c */
int td_quota_model_acquire(tdConn* c, tdModel* mod, char* why, size_t whysz) {
  tdServer* srv = c->srv;
  const tdConfig* cfg = &srv->cfg;
  if (find_held(c, mod)) {
    return 0;
  }
  if (td_quota_model_admit(c, why, whysz)) {
    return -1;
  }
  if (c->model_mem + (int64_t)mod->mem > cfg->max_model_memory_per_connection) {
    snprintf(why, whysz,
             "the model needs about %zu bytes; this connection holds %lld "
             "(max_model_memory_per_connection %lld)",
             mod->mem, (long long)c->model_mem, (long long)cfg->max_model_memory_per_connection);
    return -1;
  }
  tdPrincipal* pr = principal_of(c);
  if (pr && pr->model_mem + (int64_t)mod->mem > cfg->max_model_memory_per_connection) {
    snprintf(why, whysz,
             "the model needs about %zu bytes; the connections of this token hold %lld "
             "(max_model_memory_per_connection, per token)",
             mod->mem, (long long)pr->model_mem);
    return -1;
  }
  if (!mod->registered && srv->reg.mem + (int64_t)mod->mem > cfg->max_model_memory_total) {
    snprintf(why, whysz,
             "the model needs about %zu bytes; loaded models hold %lld (max_model_memory_total "
             "%lld)",
             mod->mem, (long long)srv->reg.mem, (long long)cfg->max_model_memory_total);
    return -1;
  }
  tdConnModel* h = malloc(sizeof(tdConnModel));
  if (!h) {
    snprintf(why, whysz, "out of memory");
    return -1;
  }
  h->mod = mod;
  h->next = c->models;
  c->models = h;
  c->nmodels++;
  c->model_mem += (int64_t)mod->mem;
  if (pr) {
    pr->nmodels++;
    pr->model_mem += (int64_t)mod->mem;
  }
  mod->owners++;
  td_model_ref(mod);
  return 0;
}

/* drop c's reference; unload when nobody holds the model */
int td_quota_model_release(tdConn* c, tdModel* mod) {
  tdServer* srv = c->srv;
  for (tdConnModel** p = &c->models; *p; p = &(*p)->next) {
    if ((*p)->mod != mod) {
      continue;
    }
    tdConnModel* h = *p;
    *p = h->next;
    free(h);
    c->nmodels--;
    c->model_mem -= (int64_t)mod->mem;
    tdPrincipal* pr = principal_of(c);
    if (pr) {
      pr->nmodels--;
      pr->model_mem -= (int64_t)mod->mem;
    }
    if (--mod->owners == 0 && mod->registered && !srv->cfg.model_keep_warm) {
      td_log(TD_LOG_INFO, "model_unloaded", "model=%s why=unused", mod->handle);
      td_registry_remove(&srv->reg, mod);
    }
    td_model_unref(mod);
    return 1;
  }
  return 0;
}

/* release everything on close */
void td_quota_conn_closed(tdConn* c) {
  while (c->models) {
    td_quota_model_release(c, c->models->mod);
  }
}

/* environments of one connection's open sessions */
static int64_t envs_of(const tdConn* c) {
  int64_t held = 0;
  for (const tdSession* s = c->sessions; s; s = s->cnext) {
    held += s->nenv;
  }
  return held;
}

/* environments over the open sessions of the connection, and of its token */
int td_quota_envs_admit(const tdConn* c, int64_t nenv, char* why, size_t whysz) {
  int max = c->srv->cfg.max_envs_per_connection;
  int64_t held = envs_of(c), token_held = 0;
  for (const tdConn* o = c->srv->conns; c->principal >= 0 && o; o = o->next) {
    token_held += (o->principal == c->principal && !o->closing) ? envs_of(o) : 0;
  }
  if (held + nenv > max || token_held + nenv > max) {
    snprintf(why, whysz,
             "%lld environments requested; the sessions of this connection hold %lld, of its "
             "token %lld (max_envs_per_connection %d)",
             (long long)nenv, (long long)held, (long long)token_held, max);
    return -1;
  }
  return 0;
}
