/* server/req_rollout.c — Rollout: B independent rollouts with mujoco.rollout semantics.
 *
 * Each item runs the engine's one rollout path, tn_rolloutItem, the same function behind
 * `torsion-sim rollout` and tn_rolloutBatch: mj_resetData, mj_setState with the request's
 * spec, then per step the control row and mj_step, the state (and sensordata) recorded after
 * the chosen steps; a warning stops the item and its remaining rows repeat the current
 * state, as in mujoco.rollout. Items are split into env-range chunks; each chunk's result
 * streams back as one RolloutResult frame as soon as it is done. A chunk runs in slices of
 * about slice_us of work (tn_rolloutItemSteps over a range of steps): at a slice boundary it
 * may go back to the queue, keeping its item's mjSTATE_INTEGRATION, and resume on any worker
 * with the same bits as an unsliced run. */
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "requests.h"

/* check the stop flags every this many steps */
#define TD_STOP_CHECK_EVERY 8

/* a started chunk between its slices: its outputs so far and where its items stand */
typedef struct tdRolloutChunk_ {
  void *states, *sens; /* the chunk's output buffers (allocated by its first slice) */
  uint32_t* warnings;  /* [items of the chunk] */
  double* tmp;         /* float64 rows of the item in progress (float32 outputs) */
  double* saved;       /* [nint]: its mjSTATE_INTEGRATION when its chunk went back to the queue */
  int item;            /* the item in progress (index within the chunk) */
  int t;               /* its next step (0: not started) */
  tnRolloutItem it;    /* its arguments and outputs, kept between slices */
} tdRolloutChunk;

/* what the workers need (inputs point into the request) */
typedef struct tdRollout_ {
  int spec, nstate, nstep, nu, nsens, B;
  int nrec;
  int record_every;    /* tn_rolloutItem's record_every (final_only: nstep) */
  uint32_t* rec_steps; /* [nrec]: the steps recorded after, as sent to the client */
  int f32, sensordata;
  const double* state0; /* [B, nstate] */
  const double* ctrl;   /* [cb, ct, ncontrol] or NULL */
  int ctrl_per_item, ctrl_per_step;
  int ctrl_spec, ncontrol; /* the rows' mjtState components (0: ctrl) and their width */
  const double* warmstart0; /* [B, nv] or NULL */
  uint64_t slice_ns;        /* work of one slice (0: chunks run unsliced) */
  int yield_always;         /* every slice boundary goes back to the queue */
  int nchunks;
  tdRolloutChunk* chunks; /* [nchunks] */
} tdRollout;

/* one range of one item's steps, for td_engine_run */
typedef struct rolloutRange_ {
  tdJob* job;
  tdRolloutChunk* k;
  mjData* d;
  int t1;      /* the range is [k->t, t1) */
  int restore; /* d does not hold the item's state: set it from k->saved first */
  tdCompletion* c;
  int rc; /* tn_rolloutItemSteps' result */
} rolloutRange;

/* after each step: count it, and every few steps look at the stop flags */
static int after_step(void* arg, int t) {
  rolloutRange* a = arg;
  a->c->steps++;
  return td_engine_failed() || (t % TD_STOP_CHECK_EVERY == 0 && td_job_should_stop(a->job, a->c));
}

/* the engine's rollout path on one range of an item's steps */
static void rollout_range(void* arg) {
  rolloutRange* a = arg;
  const mjModel* m = a->job->model->m;
  if (a->restore) {
    mj_setState(m, a->d, a->k->saved, mjSTATE_INTEGRATION);
    memset(a->d->warning, 0, sizeof(a->d->warning));
  }
  a->k->it.after_step_arg = a;
  a->rc = tn_rolloutItemSteps(m, a->d, &a->k->it, a->k->t, a->t1);
}

/* the item's arguments (row i of the chunk, item b of the request), before its first step */
static void item_setup(tdJob* job, tdRollout* p, tdRolloutChunk* k, int b, int i) {
  size_t nst = (size_t)p->nrec * p->nstate;
  double* states = p->f32 ? k->tmp : (double*)k->states + (size_t)i * p->nrec * p->nstate;
  double* sens = !p->sensordata ? NULL
                 : p->f32       ? k->tmp + nst
                                : (double*)k->sens + (size_t)i * p->nrec * p->nsens;
  const double* ctrl = p->ctrl ? p->ctrl + (size_t)(p->ctrl_per_item ? b : 0) *
                                               (p->ctrl_per_step ? p->nstep : 1) * p->ncontrol
                               : NULL;
  k->it = (tnRolloutItem){
      .spec = p->spec,
      .state0 = p->state0 + (size_t)b * p->nstate,
      .ctrl = ctrl,
      .ctrl_nt = p->ctrl_per_step ? p->nstep : 1,
      .ctrl_spec = p->ctrl_spec,
      .warmstart0 = p->warmstart0 ? p->warmstart0 + (size_t)b * job->model->m->nv : NULL,
      .nstep = p->nstep,
      .record_every = p->record_every,
      .states = states,
      .sensordata = sens,
      .after_step = after_step,
  };
}

/* the item is over: its warnings, and its float32 rows narrowed into the chunk's buffers */
static void item_finish(tdRollout* p, tdRolloutChunk* k) {
  size_t nst = (size_t)p->nrec * p->nstate, row = (size_t)k->item * p->nrec;
  k->warnings[k->item] = (uint32_t)k->it.warnings;
  if (p->f32) {
    td_store(k->states, row * p->nstate, k->tmp, nst, 1);
    if (p->sensordata) {
      td_store(k->sens, row * p->nsens, k->tmp + nst, (size_t)p->nrec * p->nsens, 1);
    }
  }
  k->item++;
  k->t = 0;
}

/* free a chunk's buffers */
static void chunk_free(tdRolloutChunk* k) {
  free(k->states);
  free(k->sens);
  free(k->warnings);
  free(k->tmp);
  free(k->saved);
  *k = (tdRolloutChunk){0};
}

/* steps of one slice: slice_ns of work by the model's step cost (a fixed count while it is
 * unknown); the whole item when unsliced */
static int slice_steps(const tdJob* job, const tdRollout* p) {
  if (!p->slice_ns) {
    return p->nstep > 0 ? p->nstep : 1;
  }
  uint64_t ns = atomic_load_explicit(&job->model->step_ns, memory_order_relaxed);
  uint64_t n = ns ? p->slice_ns / ns : 64;
  return n < 1 ? 1 : n > (uint64_t)INT32_MAX ? INT32_MAX : (int)n;
}

/* worker: one env range, slice by slice; it goes back to the queue at a slice boundary when
 * other work should run first, and resumes from the state kept in its tdRolloutChunk */
static void run_chunk(tdJob* job, tdWorker* w, int chunk, tdCompletion* c) {
  tdRollout* p = job->payload;
  tdRolloutChunk* k = &p->chunks[chunk];
  mjData* d = job->model->datas[w->index];
  int e0, ne;
  td_job_chunk_range(job, chunk, &e0, &ne);
  size_t es = p->f32 ? 4 : 8;
  size_t nst = (size_t)ne * p->nrec * p->nstate, nse = (size_t)ne * p->nrec * p->nsens;
  int nint = job->model->nstate_int;

  // output buffers for this chunk (its first slice)
  if (!k->warnings) {
    k->states = malloc(nst * es + 8);
    k->sens = p->sensordata ? malloc(nse * es + 8) : NULL;
    k->warnings = calloc((size_t)ne, sizeof(uint32_t));
    k->tmp = p->f32 ? malloc(sizeof(double) * (size_t)p->nrec * (p->nstate + p->nsens) + 8) : NULL;
    k->saved = malloc(sizeof(double) * (size_t)nint + 8);
    if (!k->states || (p->sensordata && !k->sens) || !k->warnings || (p->f32 && !k->tmp) ||
        !k->saved) {
      td_completion_error(c, TD_E_INTERNAL, "out of memory");
      goto done;
    }
  }

  // run ranges of steps, each under an unwinding point, until the chunk ends or yields (timed:
  // the model's step cost sizes later chunks and slices)
  uint64_t t0 = td_now_ns(), steps0 = c->steps;
  int per_slice = slice_steps(job, p), used = 0;
  int restore = k->t > 0;
  while (k->item < ne) {
    if (k->t == 0) {
      item_setup(job, p, k, e0 + k->item, k->item);
    }
    int left = p->nstep - k->t, room = p->slice_ns ? per_slice - used : left;
    rolloutRange a = {job, k, d, k->t + (left < room ? left : room), restore, c, 0};
    if (td_engine_run(job->model->m, d, rollout_range, &a) || a.rc == 1 || a.rc < 0) {
      goto done;
    }
    restore = 0;
    used += a.t1 - k->t;
    k->t = a.t1;
    if (a.rc == 2 || k->t >= p->nstep) {
      item_finish(p, k);
    }

    // a slice boundary: back to the queue when waiting work should go first
    if (p->slice_ns && used >= per_slice && k->item < ne) {
      used = 0;
      if (td_job_should_yield(job, p->yield_always)) {
        if (k->t > 0) {
          mj_getState(job->model->m, d, k->saved, mjSTATE_INTEGRATION);
        }
        td_model_note_cost(job->model, c->steps - steps0, td_now_ns() - t0);
        c->yielded = 1;
        return;
      }
    }
  }
  td_model_note_cost(job->model, c->steps - steps0, td_now_ns() - t0);

  // encode the frame (the last chunk to finish carries the final flag)
  {
    uint64_t sshape[3] = {(uint64_t)ne, (uint64_t)p->nrec, (uint64_t)p->nstate};
    uint64_t eshape[3] = {(uint64_t)ne, (uint64_t)p->nrec, (uint64_t)p->nsens};
    Torsion__V1__Array sa = TORSION__V1__ARRAY__INIT, ea = TORSION__V1__ARRAY__INIT;
    td_set_array(&sa, sshape, 3, p->f32, k->states, nst);
    td_set_array(&ea, eshape, 3, p->f32, k->sens, nse);
    Torsion__V1__RolloutResult res = TORSION__V1__ROLLOUT_RESULT__INIT;
    res.env_offset = (uint32_t)e0;
    res.env_count = (uint32_t)ne;
    res.states = &sa;
    res.sensordata = p->sensordata ? &ea : NULL;
    res.n_warnings = (size_t)ne;
    res.warnings = k->warnings;
    res.nrec = (uint32_t)p->nrec;
    res.batch = (uint32_t)p->B;
    if (e0 == 0) {
      res.n_steps = (size_t)p->nrec;
      res.steps = p->rec_steps;
    }
    tdResp r = TORSION__V1__RESPONSE__INIT;
    r.body_case = TORSION__V1__RESPONSE__BODY_ROLLOUT;
    r.rollout = &res;
    td_job_pack_chunk(job, &r, c);
  }

done:
  chunk_free(k);
}

/* free the payload */
static void release(tdJob* job) {
  tdRollout* p = job->payload;
  if (p) {
    for (int k = 0; p->chunks && k < p->nchunks; k++) {
      chunk_free(&p->chunks[k]);  // chunks withdrawn between their slices
    }
    free(p->chunks);
    free(p->rec_steps);
    free(p);
  }
}

static const tdJobOps rollout_ops = {run_chunk, NULL, release};

/* the recorded steps: every k-th, the last always; or the last only */
static uint32_t* record_steps(int nstep, int every, int final_only, int* nrec) {
  int k = every < 1 ? 1 : every;
  int n = final_only ? (nstep > 0) : (nstep / k + (nstep % k != 0));
  uint32_t* rec = malloc(sizeof(uint32_t) * (size_t)(n + 1));
  if (!rec) {
    return NULL;
  }
  if (final_only) {
    if (n)
      rec[0] = (uint32_t)nstep;
  } else {
    for (int i = 0; i < n; i++) {
      rec[i] = (uint32_t)((i + 1) * k > nstep ? nstep : (i + 1) * k);
    }
  }
  *nrec = n;
  return rec;
}

/* Rollout: validate everything, then queue */
void td_req_rollout(tdConn* c, tdReq* req, double t0) {
  const tdConfig* cfg = &c->srv->cfg;
  int kind = TD_KIND_ROLLOUT;
  Torsion__V1__RolloutRequest* rr = req->rollout;
  char why[512];

  // model and spec
  tdModelSpec ms;
  if (td_request_model_spec(c, req, kind, t0, rr->model, rr->state_spec, &ms)) {
    return;
  }
  const mjModel* m = ms.m;
  int nstate = ms.nstate;

  // initial states [B, nstate]
  int64_t sshape[2] = {-1, nstate}, sgot[2];
  if (td_check_array(rr->initial_state, "initial_state", 2, sshape, sgot, why, sizeof(why))) {
    td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "%s", why);
    return;
  }
  int64_t B = sgot[0], N = rr->nstep;
  if (B < 1 || B > cfg->max_batch || N > cfg->max_nstep || B * N > cfg->max_batch_steps) {
    td_reject(c, req, kind, t0, B < 1 ? TD_E_INVALID_ARGUMENT : TD_E_LIMIT_EXCEEDED,
              "B=%lld nstep=%lld outside the limits (max_batch %lld, max_nstep %lld, "
              "max_batch_steps %lld)",
              (long long)B, (long long)N, (long long)cfg->max_batch, (long long)cfg->max_nstep,
              (long long)cfg->max_batch_steps);
    return;
  }

  // controls [B or 1, nstep or 1, ncontrol]: nu, or the size of the control_spec components
  if (rr->control_spec & ~(uint32_t)mjSTATE_USER) {
    td_reject(c, req, kind, t0, TD_E_INVALID_ARGUMENT,
              "control_spec %#x has bits outside mjSTATE_USER (%#x)", rr->control_spec,
              (unsigned)mjSTATE_USER);
    return;
  }
  int ncontrol = rr->control_spec ? mj_stateSize(m, (int)rr->control_spec) : (int)m->nu;
  int64_t cshape[3] = {-1, -1, ncontrol}, cgot[3] = {0, 0, 0};
  if (rr->ctrl) {
    if (td_check_array(rr->ctrl, "ctrl", 3, cshape, cgot, why, sizeof(why))) {
      td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "%s", why);
      return;
    }
    if ((cgot[0] != B && cgot[0] != 1) || (cgot[1] != N && cgot[1] != 1)) {
      td_reject(c, req, kind, t0, TD_E_BAD_SHAPE,
                "ctrl is [%lld, %lld, %d]: expected [%lld or 1, %lld or 1, %d]", (long long)cgot[0],
                (long long)cgot[1], ncontrol, (long long)B, (long long)N, ncontrol);
      return;
    }
  }

  // initial warmstarts [B, nv]
  int64_t wshape[2] = {B, m->nv}, wgot[2];
  if (rr->initial_warmstart &&
      td_check_array(rr->initial_warmstart, "initial_warmstart", 2, wshape, wgot, why,
                     sizeof(why))) {
    td_reject(c, req, kind, t0, TD_E_BAD_SHAPE, "%s", why);
    return;
  }

  // sensordata only where the engine evaluates sensors
  if (td_check_sensordata(c, req, kind, t0, m, rr->sensordata)) {
    return;
  }

  // what is recorded, and its size
  int nrec = 0;
  uint32_t* rec = record_steps((int)N, (int)rr->record_every, rr->final_only, &nrec);
  int f32 = rr->output_dtype == TD_F32, nsens = m->nsensordata;
  size_t per_item = (size_t)nrec * (nstate + (rr->sensordata ? nsens : 0)) * (f32 ? 4 : 8);
  if (!rec || (double)per_item * B > (double)cfg->max_output_bytes) {
    free(rec);
    td_reject(c, req, kind, t0, rec ? TD_E_LIMIT_EXCEEDED : TD_E_INTERNAL,
              "output of %.0f bytes exceeds max_output_bytes (use record_every or final_only)",
              (double)per_item * B);
    return;
  }

  // chunks: the client's choice, else spread over the workers; each keeps its place between
  // slices
  int per_chunk = td_request_chunk(c->srv, ms.mod, (int)B, rr->chunk_envs, per_item, N > 0 ? N : 1);
  int nchunks = (int)((B + per_chunk - 1) / per_chunk);
  tdRolloutChunk* chunks = calloc((size_t)nchunks, sizeof(tdRolloutChunk));
  if (!chunks) {
    free(rec);
    td_reject(c, req, kind, t0, TD_E_INTERNAL, "out of memory");
    return;
  }

  // the job
  tdJob* job = td_request_job(c, req, kind, t0, &rollout_ops, ms.mod, sizeof(tdRollout), B * N);
  if (!job) {
    free(chunks);
    free(rec);
    return;
  }
  tdRollout* p = job->payload;
  *p = (tdRollout){
      .spec = ms.spec,
      .nstate = nstate,
      .nstep = (int)N,
      .nu = (int)m->nu,
      .nsens = nsens,
      .B = (int)B,
      .nrec = nrec,
      .record_every = rr->final_only ? (int)N : (int)rr->record_every,
      .rec_steps = rec,
      .f32 = f32,
      .sensordata = rr->sensordata,
      .state0 = (const double*)rr->initial_state->data.data,
      .ctrl = rr->ctrl && ncontrol ? (const double*)rr->ctrl->data.data : NULL,
      .ctrl_per_item = rr->ctrl && cgot[0] == B,
      .ctrl_per_step = rr->ctrl && cgot[1] == N,
      .ctrl_spec = rr->control_spec == mjSTATE_CTRL ? 0 : (int)rr->control_spec,
      .ncontrol = ncontrol,
      .warmstart0 = rr->initial_warmstart ? (const double*)rr->initial_warmstart->data.data
                                          : NULL,
  };

  // the job's chunks keep their place here between slices
  p->slice_ns = (uint64_t)cfg->slice_us * 1000u;
  p->yield_always = cfg->slice_yield_always;
  p->nchunks = nchunks;
  p->chunks = chunks;
  td_job_submit(job, (int)B, per_chunk, 0);
}
