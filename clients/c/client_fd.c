/* clients/c/client_fd.c — the client's inverse-dynamics and derivative calls: Inverse,
 * TransitionFD and InverseFD. Each sends one request and assembles the streamed env-range
 * frames (in whatever order they arrive) into arrays over the whole batch. */
#include <stdlib.h>
#include <string.h>

#include "client_internal.h"

/* copy a part's [cnt, rows, cols] matrix into the batch array *dst [B, rows, cols]; the first
 * part fixes rows and cols and allocates *dst */
static int take_matrix(tnClient* c, const Torsion__V1__Array* a, uint32_t off, uint32_t cnt, int B,
                       double** dst, int* rows, int* cols) {
  if (!a || a->n_shape != 3 || a->shape[0] != cnt) {
    return tnc__fail(c, TNC_E_PROTOCOL, "result matrix of unexpected shape");
  }
  if (!*dst) {
    *rows = (int)a->shape[1];
    *cols = (int)a->shape[2];
    *dst = malloc(sizeof(double) * ((size_t)B * *rows * *cols + 1));
    if (!*dst) {
      return tnc__fail(c, TNC_E_MEMORY, "out of memory");
    }
  }
  if (a->shape[1] != (uint64_t)*rows || a->shape[2] != (uint64_t)*cols) {
    return tnc__fail(c, TNC_E_PROTOCOL, "result matrices of different shapes");
  }
  size_t per = (size_t)*rows * *cols;
  return tnc__out_doubles(c, a, cnt * per, *dst + (size_t)off * per);
}

/* ---------------------------------------------------------------------------------------
 * Inverse
 * ------------------------------------------------------------------------------------- */

/* take an Inverse part into qfrc_inverse [B, nv] */
static int take_inverse(tnClient* c, const Torsion__V1__Response* r, void* ctx, int* items) {
  const Torsion__V1__InverseResult* p = r->inverse;
  return tnc__take_rows(c, p->qfrc_inverse, p->env_offset, p->env_count, ctx, items);
}

int tnc_inverse(tnClient* c, const char* model, int spec, int B, int nstate, const double* state,
                const double* qacc, int nv, double* qfrc_out) {
  if (B < 1 || nstate < 0 || nv < 0 || !state || !qacc || !qfrc_out) {
    return tnc__fail(c, TNC_E_ARGUMENT, "bad inverse arguments");
  }
  uint64_t sshape[2] = {(uint64_t)B, (uint64_t)nstate}, qshape[2] = {(uint64_t)B, (uint64_t)nv};
  Torsion__V1__Array sa, qa;
  tnc__in_array(&sa, sshape, 2, state, (size_t)B * nstate);
  tnc__in_array(&qa, qshape, 2, qacc, (size_t)B * nv);
  Torsion__V1__InverseRequest ir = TORSION__V1__INVERSE_REQUEST__INIT;
  ir.model = (char*)model;
  ir.state_spec = (uint32_t)spec;
  ir.state = &sa;
  ir.qacc = &qa;
  REQUEST(req, inverse, INVERSE, ir);
  tncRows x = {B, nv, qfrc_out};
  return tnc__collect(c, &req, TORSION__V1__RESPONSE__BODY_INVERSE, B, take_inverse, &x);
}

/* ---------------------------------------------------------------------------------------
 * TransitionFD
 * ------------------------------------------------------------------------------------- */

void tnc_transition_fd_free(tncTransitionFDResult* r) {
  free(r->A);
  free(r->Bm);
  free(r->C);
  free(r->D);
  memset(r, 0, sizeof(*r));
}

static int take_transition(tnClient* c, const Torsion__V1__Response* r, void* ctx, int* items) {
  tncTransitionFDResult* o = ctx;
  const Torsion__V1__TransitionFDResult* p = r->transition_fd;
  uint32_t off = p->env_offset, cnt = p->env_count;
  if (tnc__take_range(c, off, cnt, o->B, items) ||
      take_matrix(c, p->a, off, cnt, o->B, &o->A, &o->nx, &o->nx) ||
      take_matrix(c, p->b, off, cnt, o->B, &o->Bm, &o->nx, &o->nu)) {
    return -1;
  }
  if (p->c && (take_matrix(c, p->c, off, cnt, o->B, &o->C, &o->ns, &o->nx) ||
               take_matrix(c, p->d, off, cnt, o->B, &o->D, &o->ns, &o->nu))) {
    return -1;
  }
  return 0;
}

int tnc_transition_fd(tnClient* c, const tncTransitionFD* q, tncTransitionFDResult* out) {
  memset(out, 0, sizeof(*out));
  if (q->B < 1 || q->nstate < 0 || q->nu < 0 || !q->state ||
      (q->ctrl && q->ctrl_b != 1 && q->ctrl_b != q->B)) {
    return tnc__fail(c, TNC_E_ARGUMENT, "bad transitionFD arguments");
  }

  // the request over the caller's arrays
  uint64_t sshape[2] = {(uint64_t)q->B, (uint64_t)q->nstate};
  uint64_t cshape[2] = {(uint64_t)q->ctrl_b, (uint64_t)q->nu};
  Torsion__V1__Array sa, ca;
  tnc__in_array(&sa, sshape, 2, q->state, (size_t)q->B * q->nstate);
  tnc__in_array(&ca, cshape, 2, q->ctrl, (size_t)q->ctrl_b * q->nu);
  Torsion__V1__TransitionFDRequest tr = TORSION__V1__TRANSITION_FDREQUEST__INIT;
  tr.model = (char*)q->model;
  tr.state_spec = (uint32_t)q->spec;
  tr.state = &sa;
  tr.ctrl = q->ctrl ? &ca : NULL;
  tr.eps = q->eps;
  tr.centered = q->centered != 0;
  tr.sensors = q->sensors != 0;
  tr.chunk_envs = (uint32_t)(q->chunk_envs > 0 ? q->chunk_envs : 0);
  REQUEST(req, transition_fd, TRANSITION_FD, tr);
  req.deadline_ms = q->deadline_ms;

  // assemble; B is NULL when there are no controls
  out->B = q->B;
  if (tnc__collect(c, &req, TORSION__V1__RESPONSE__BODY_TRANSITION_FD, q->B, take_transition,
                   out)) {
    tnc_transition_fd_free(out);
    return -1;
  }
  if (out->nu == 0) {
    free(out->Bm);
    out->Bm = NULL;
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------
 * InverseFD
 * ------------------------------------------------------------------------------------- */

/* the seven outputs of a result in mjd_inverseFD's order */
static void inverse_fd_slots(tncInverseFDResult* r, double** slots[7]) {
  slots[0] = &r->DfDq;
  slots[1] = &r->DfDv;
  slots[2] = &r->DfDa;
  slots[3] = &r->DsDq;
  slots[4] = &r->DsDv;
  slots[5] = &r->DsDa;
  slots[6] = &r->DmDq;
}

void tnc_inverse_fd_free(tncInverseFDResult* r) {
  double** slots[7];
  inverse_fd_slots(r, slots);
  for (int k = 0; k < 7; k++) {
    free(*slots[k]);
  }
  memset(r, 0, sizeof(*r));
}

static int take_inverse_fd(tnClient* c, const Torsion__V1__Response* r, void* ctx, int* items) {
  tncInverseFDResult* o = ctx;
  const Torsion__V1__InverseFDResult* p = r->inverse_fd;
  const Torsion__V1__Array* arrs[7] = {p->dfdq, p->dfdv, p->dfda, p->dsdq,
                                       p->dsdv, p->dsda, p->dmdq};
  int* cols[7] = {&o->nv, &o->nv, &o->nv, &o->ns, &o->ns, &o->ns, &o->nC};
  double** slots[7];
  inverse_fd_slots(o, slots);
  if (tnc__take_range(c, p->env_offset, p->env_count, o->B, items)) {
    return -1;
  }
  for (int k = 0; k < 7; k++) {
    if (arrs[k] &&
        take_matrix(c, arrs[k], p->env_offset, p->env_count, o->B, slots[k], &o->nv, cols[k])) {
      return -1;
    }
  }
  return 0;
}

int tnc_inverse_fd(tnClient* c, const tncInverseFD* q, tncInverseFDResult* out) {
  memset(out, 0, sizeof(*out));
  if (q->B < 1 || q->nstate < 0 || q->nv < 0 || !q->state || !q->qacc) {
    return tnc__fail(c, TNC_E_ARGUMENT, "bad inverseFD arguments");
  }

  // the request over the caller's arrays
  uint64_t sshape[2] = {(uint64_t)q->B, (uint64_t)q->nstate};
  uint64_t qshape[2] = {(uint64_t)q->B, (uint64_t)q->nv};
  Torsion__V1__Array sa, qa;
  tnc__in_array(&sa, sshape, 2, q->state, (size_t)q->B * q->nstate);
  tnc__in_array(&qa, qshape, 2, q->qacc, (size_t)q->B * q->nv);
  Torsion__V1__InverseFDRequest ir = TORSION__V1__INVERSE_FDREQUEST__INIT;
  ir.model = (char*)q->model;
  ir.state_spec = (uint32_t)q->spec;
  ir.state = &sa;
  ir.qacc = &qa;
  ir.eps = q->eps;
  ir.actuation = q->actuation != 0;
  ir.outputs = (uint32_t)q->outputs;
  ir.chunk_envs = (uint32_t)(q->chunk_envs > 0 ? q->chunk_envs : 0);
  REQUEST(req, inverse_fd, INVERSE_FD, ir);
  req.deadline_ms = q->deadline_ms;

  // assemble
  out->B = q->B;
  if (tnc__collect(c, &req, TORSION__V1__RESPONSE__BODY_INVERSE_FD, q->B, take_inverse_fd, out)) {
    tnc_inverse_fd_free(out);
    return -1;
  }
  out->nv = q->nv;
  return 0;
}
