/* constraint/solver_linesearch.c — the exact line search of the primal solvers.
 *
 * Along x + alpha*search the cost is piecewise quadratic (Gauss term, equality, limits,
 * pyramidal contacts, friction loss) plus, for elliptic cones in their middle zone, a
 * smooth non-quadratic term. Each row's quadratic is precomputed once per search; an
 * evaluation sums the pieces active at alpha and returns cost, slope and curvature. The
 * search takes one Newton step from 0, then Newton steps in the descent direction until
 * the slope changes sign, then refines the bracket with the midpoint and Newton steps from
 * the ends, stopping at the first point with |slope| < tolerance * ls_tolerance *
 * |search| / scale or after ls_iterations evaluations. The search stops at once when the
 * quadratic model at 0 predicts an improvement below `tolerance`: unscaled on CG's first
 * search, scaled on Newton's searches after the first. */
#include <math.h>

#include "constraint/solver_primal.h"
#include "util/util_inline.h"

/* Gauss quadratic and per-row quadratics along the search direction */
static void prepareQuad(mjData* d, tnPrimal* ctx) {
  int nv = ctx->nv, nefc = ctx->nefc;

  // Gauss: gauss + alpha search'(Ma - f) + 0.5 alpha^2 search'M search
  ctx->quadGauss[0] = ctx->gauss;
  ctx->quadGauss[1] = tnu_dot(ctx->search, ctx->Ma, nv) - tnu_dot(d->qfrc_smooth, ctx->search, nv);
  ctx->quadGauss[2] = 0.5 * tnu_dot(ctx->search, ctx->Mv, nv);

  // rows: 0.5 D (Jaref + alpha Jv)^2
  for (int i = 0; i < nefc; i++) {
    mjtNum jaref = ctx->Jaref[i], jv = ctx->Jv[i], D = d->efc_D[i];
    ctx->quad[3 * i] = 0.5 * jaref * jaref * D;
    ctx->quad[3 * i + 1] = jv * jaref * D;
    ctx->quad[3 * i + 2] = 0.5 * jv * jv * D;
  }

  // elliptic cones: summed quadratic in the first row, cone terms in the next two
  if (!ctx->elliptic) {
    return;
  }
  for (int i = ctx->ne + ctx->nf; i < nefc; i++) {
    if (d->efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC) {
      continue;
    }
    const mjContact* con = d->contact + d->efc_id[i];
    int dim = con->dim;
    mjtNum mu = con->mu, *q = ctx->quad + 3 * i;

    // bottom zone: sum of the rows' quadratics
    for (int j = 1; j < dim; j++) {
      q[0] += q[3 * j];
      q[1] += q[3 * j + 1];
      q[2] += q[3 * j + 2];
    }

    // cone space: N = u0 + alpha v0, T^2 = uu + 2 alpha uv + alpha^2 vv
    mjtNum u0 = ctx->Jaref[i] * mu, v0 = ctx->Jv[i] * mu, uu = 0, uv = 0, vv = 0;
    for (int j = 1; j < dim; j++) {
      mjtNum fr = con->friction[j - 1];
      mjtNum uj = ctx->Jaref[i + j] * fr, vj = ctx->Jv[i + j] * fr;
      uu += uj * uj;
      uv += uj * vj;
      vv += vj * vj;
    }
    q[3] = u0, q[4] = v0, q[5] = uu;
    q[6] = uv, q[7] = vv, q[8] = d->efc_D[i] / (mu * mu * (1 + mu * mu));
    i += dim - 1;
  }
}

/* elliptic contact at alpha: adds quadratic pieces to qt, others to cost/deriv */
static void evalCone(const mjtNum* q, mjtNum mu, mjtNum alpha, mjtNum qt[3], mjtNum* cost,
                     mjtNum deriv[2]) {
  mjtNum u0 = q[3], v0 = q[4], uu = q[5], uv = q[6], vv = q[7], Dm = q[8];
  mjtNum N = u0 + alpha * v0;
  mjtNum Tsqr = uu + alpha * (2 * uv + alpha * vv);

  // no tangential component: bottom zone if N < 0, else top zone
  if (Tsqr <= 0) {
    if (N < 0) {
      qt[0] += q[0], qt[1] += q[1], qt[2] += q[2];
    }
    return;
  }

  // top zone: nothing; bottom zone: quadratic
  mjtNum T = sqrt(Tsqr);
  if (N >= mu * T) {
    return;
  }
  if (mu * N + T <= 0) {
    qt[0] += q[0], qt[1] += q[1], qt[2] += q[2];
    return;
  }

  // middle zone: 0.5 Dm (N - mu T)^2 with its first two derivatives
  mjtNum N1 = v0, T1 = (uv + alpha * vv) / T;
  mjtNum T2 = vv / T - (uv + alpha * vv) * (uv + alpha * vv) / (T * T * T);
  mjtNum NmT = N - mu * T, NmT1 = N1 - mu * T1;
  *cost += 0.5 * Dm * NmT * NmT;
  deriv[0] += Dm * NmT * NmT1;
  deriv[1] += Dm * (NmT1 * NmT1 + NmT * (-mu * T2));
}

/* cost and its first two derivatives at p->alpha */
static void evalPoint(mjData* d, tnPrimal* ctx, tnLinePoint* p) {
  mjtNum alpha = p->alpha, cost = 0, deriv[2] = {0, 0};
  mjtNum qt[3] = {ctx->quadGauss[0], ctx->quadGauss[1], ctx->quadGauss[2]};
  int ne = ctx->ne, nf = ctx->nf;

  for (int i = 0; i < ctx->nefc; i++) {
    const mjtNum* q = ctx->quad + 3 * i;

    // equality: always quadratic
    if (i < ne) {
      qt[0] += q[0], qt[1] += q[1], qt[2] += q[2];
      continue;
    }

    // friction loss: quadratic inside the bound, linear outside
    if (i < ne + nf) {
      mjtNum start = ctx->Jaref[i], dir = ctx->Jv[i], x = start + alpha * dir;
      mjtNum f = d->efc_frictionloss[i], rf = d->efc_R[i] * f;
      if (-rf < x && x < rf) {
        qt[0] += q[0], qt[1] += q[1], qt[2] += q[2];
      } else if (x <= -rf) {
        qt[0] += f * (-0.5 * rf - start);
        qt[1] += -f * dir;
      } else {
        qt[0] += f * (-0.5 * rf + start);
        qt[1] += f * dir;
      }
      continue;
    }

    // elliptic contact
    if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
      const mjContact* con = d->contact + d->efc_id[i];
      evalCone(q, con->mu, alpha, qt, &cost, deriv);
      i += con->dim - 1;
      continue;
    }

    // limit, frictionless, pyramidal: active when violated
    if (ctx->Jaref[i] + alpha * ctx->Jv[i] < 0) {
      qt[0] += q[0], qt[1] += q[1], qt[2] += q[2];
    }
  }

  // total
  p->cost = alpha * alpha * qt[2] + alpha * qt[1] + qt[0] + cost;
  p->deriv[0] = 2 * alpha * qt[2] + qt[1] + deriv[0];
  p->deriv[1] = 2 * qt[2] + deriv[1];
  ctx->LSiter++;
}

/* Newton step from a point */
static mjtNum newtonStep(const tnLinePoint* p) {
  return p->alpha - p->deriv[0] / p->deriv[1];
}

/* move bracket end p to a candidate with a slope of the same sign closer to zero */
static int updateBracket(tnLinePoint* p, const tnLinePoint* cand, int ncand,
                         tnLinePoint* pnext) {
  int flag = 0;
  for (int i = 0; i < ncand; i++) {
    if (p->deriv[0] < 0 && cand[i].deriv[0] < 0 && p->deriv[0] < cand[i].deriv[0]) {
      *p = cand[i];
      flag = 1;
    } else if (p->deriv[0] > 0 && cand[i].deriv[0] > 0 && p->deriv[0] > cand[i].deriv[0]) {
      *p = cand[i];
      flag = 2;
    }
  }
  if (flag) {
    pnext->alpha = newtonStep(p);
  }
  return flag;
}

/* evaluate a candidate; 1 if its slope is below the tolerance */
static int evalConverged(mjData* d, tnPrimal* ctx, tnLinePoint* p, mjtNum gtol) {
  evalPoint(d, ctx, p);
  return fabs(p->deriv[0]) < gtol;
}

/* refine a bracket [p1, p2] of the minimum: each round evaluates the midpoint, then the
 * Newton steps from the ends that moved, returning the first point within tolerance */
static mjtNum bracketSearch(const mjModel* m, mjData* d, tnPrimal* ctx, tnLinePoint p1,
                            tnLinePoint p2, mjtNum gtol, mjtNum slopescl) {
  tnLinePoint p1next, p2next, cand[3];
  int p1update = 1, p2update = 1;
  p1next.alpha = newtonStep(&p1);
  p2next.alpha = newtonStep(&p2);

  while (ctx->LSiter < m->opt.ls_iterations) {
    int ncand = 0;

    // midpoint, then the Newton steps from updated ends
    cand[ncand].alpha = 0.5 * (p1.alpha + p2.alpha);
    if (evalConverged(d, ctx, cand + ncand++, gtol)) {
      ctx->LSslope = fabs(cand[ncand - 1].deriv[0]) * slopescl;
      return cand[ncand - 1].alpha;
    }
    if (p1update) {
      cand[ncand] = p1next;
      if (evalConverged(d, ctx, cand + ncand++, gtol)) {
        ctx->LSslope = fabs(cand[ncand - 1].deriv[0]) * slopescl;
        return cand[ncand - 1].alpha;
      }
    }
    if (p2update) {
      cand[ncand] = p2next;
      if (evalConverged(d, ctx, cand + ncand++, gtol)) {
        ctx->LSslope = fabs(cand[ncand - 1].deriv[0]) * slopescl;
        return cand[ncand - 1].alpha;
      }
    }

    // shrink the bracket; no change: numerical limit reached, use the midpoint
    p1update = updateBracket(&p1, cand, ncand, &p1next);
    p2update = updateBracket(&p2, cand, ncand, &p2next);
    if (!p1update && !p2update) {
      ctx->LSresult = 5;
      ctx->LSslope = fabs(cand[0].deriv[0]) * slopescl;
      return cand[0].alpha;
    }
  }

  // out of evaluations: the better end
  ctx->LSresult = 4;
  tnLinePoint* best = p1.cost < p2.cost ? &p1 : &p2;
  ctx->LSslope = fabs(best->deriv[0]) * slopescl;
  return best->alpha;
}

/* exact line search along ctx->search */
mjtNum tn_lineSearch(const mjModel* m, mjData* d, tnPrimal* ctx) {
  int nv = ctx->nv;
  tnLinePoint p0, p1, p2;
  ctx->LSiter = 0;
  ctx->LSresult = 0;
  ctx->LSslope = 1;

  // search direction too small
  mjtNum snorm = mju_norm(ctx->search, nv);
  if (snorm < mjMINVAL) {
    ctx->LSresult = 1;
    return 0;
  }
  mjtNum gtol = m->opt.tolerance * m->opt.ls_tolerance * snorm / ctx->scale;
  mjtNum slopescl = ctx->scale / snorm;

  // M and J along the search direction, then the quadratics
  mj_mulM(m, d, ctx->Mv, ctx->search);
  mj_mulJacVec(m, d, ctx->Jv, ctx->search);
  prepareQuad(d, ctx);

  // start; stop at once when the quadratic model at 0 predicts a negligible improvement:
  // CG only on its first search, unscaled; Newton only after its first, scaled (MuJoCo
  // 3.14: CG may return the warmstart after 0 iterations, Newton always takes a step)
  p0.alpha = 0;
  evalPoint(d, ctx, &p0);
  mjtNum predicted = 0.5 * p0.deriv[0] * p0.deriv[0] / p0.deriv[1];
  int negligible = ctx->flg_Newton
                       ? !ctx->firstsearch && predicted * ctx->scale < m->opt.tolerance
                       : ctx->firstsearch && predicted < m->opt.tolerance;
  if (negligible) {
    ctx->LSresult = 2;
    return 0;
  }

  // one Newton step
  p1.alpha = newtonStep(&p0);
  evalPoint(d, ctx, &p1);
  if (fabs(p1.deriv[0]) < gtol) {
    ctx->LSslope = fabs(p1.deriv[0]) * slopescl;
    return p1.alpha;
  }

  // Newton steps in the descent direction until the slope changes sign
  int dir = p1.deriv[0] < 0 ? 1 : -1;
  p2 = p1;
  while (p1.deriv[0] * dir <= -gtol && ctx->LSiter < m->opt.ls_iterations) {
    p2 = p1;
    p1.alpha = newtonStep(&p1);
    evalPoint(d, ctx, &p1);
    if (fabs(p1.deriv[0]) < gtol) {
      ctx->LSslope = fabs(p1.deriv[0]) * slopescl;
      return p1.alpha;
    }
  }

  // could not bracket
  if (ctx->LSiter >= m->opt.ls_iterations) {
    ctx->LSresult = 3;
    ctx->LSslope = fabs(p1.deriv[0]) * slopescl;
    return p1.alpha;
  }

  // bracketed: refine
  return bracketSearch(m, d, ctx, p1, p2, gtol, slopescl);
}
