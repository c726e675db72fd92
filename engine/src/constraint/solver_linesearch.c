/* constraint/solver_linesearch.c — the exact line search of the primal solvers.
 *
 * Along x + alpha*search the cost is piecewise quadratic (Gauss term, equality, limits,
 * pyramidal contacts, friction loss) plus, for elliptic cones in their middle zone, a
 * smooth non-quadratic term. Each row's quadratic is precomputed once per search; an
 * evaluation sums the pieces active at alpha and returns the cost relative to alpha = 0
 * (constant terms enter only for rows whose piece differs from the one at 0; a cone in
 * its middle zone at both points adds its cost change, computed without cancellation),
 * its slope and curvature. The search takes one Newton step from 0, then Newton steps in
 * the descent direction until the slope changes sign, then refines the bracket: each
 * round evaluates the midpoint and accepts the cheapest of {Newton step from either end,
 * midpoint} with |slope| < tolerance * ls_tolerance * |search| / scale; otherwise each end
 * moves to a closer candidate and evaluates its own Newton step, until ls_iterations
 * evaluations. The accepted point's relative cost is the iteration's (negative)
 * improvement. */
#include <math.h>

#include "constraint/solver_primal.h"
#include "util/util_inline.h"

/* Gauss quadratic and per-row quadratics along the search direction */
static void prepare_quad(mjData* d, tnPrimal* ctx) {
  int nefc = ctx->nefc;

  // Gauss: gauss + alpha search'(Ma - f) + 0.5 alpha^2 search'M search
  ctx->quadGauss[0] = ctx->gauss;
  ctx->quadGauss[1] =
      tn__primalDot(ctx, ctx->search, ctx->Ma) - tn__primalDot(ctx, d->qfrc_smooth, ctx->search);
  ctx->quadGauss[2] = 0.5 * tn__primalDot(ctx, ctx->search, ctx->Mv);

  // rows: 0.5 D (Jaref + alpha Jv)^2 (the island's rows)
  for (int k = 0; k < ctx->niefc; k++) {
    int i = tn__primalRow(ctx, k);
    mjtNum jaref = ctx->Jaref[i], jv = ctx->Jv[i], D = d->efc_D[i];
    ctx->quad[3 * i] = 0.5 * D * jaref * jaref;
    ctx->quad[3 * i + 1] = D * jaref * jv;
    ctx->quad[3 * i + 2] = 0.5 * D * jv * jv;
  }
  // elliptic cones: summed quadratic in the first row, cone terms in the next two
  if (!ctx->elliptic) {
    return;
  }
  for (int i = ctx->ne + ctx->nf; i < nefc; i++) {
    if (d->efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC || tn__rowOut(ctx, d, i)) {
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

/* cost terms of one evaluation: the quadratic's linear and quadratic coefficients, the
 * constant terms gained and lost relative to alpha = 0 (costs are shifted by the cost at
 * 0), and the non-quadratic cone terms with their two derivatives */
typedef struct tnLineSum_ {
  mjtNum qt[3];
  mjtNum gain, loss;
  mjtNum cost, deriv[2];
} tnLineSum;

/* add a quadratic piece; its constant only when the row was not in the same piece at 0 */
static void add_piece(tnLineSum* sum, const mjtNum* q, int same) {
  sum->qt[1] += q[1];
  sum->qt[2] += q[2];
  if (!same) {
    sum->gain += q[0];
  }
}

/* elliptic middle zone at alpha: 0.5 Dm (N - mu T)^2, or NULL derivatives: cost only */
static mjtNum cone_middle(const mjtNum* q, mjtNum mu, mjtNum alpha, mjtNum deriv[2]) {
  mjtNum u0 = q[3], v0 = q[4], uu = q[5], uv = q[6], vv = q[7], Dm = q[8];
  mjtNum N = u0 + alpha * v0;
  mjtNum T = sqrt(uu + alpha * (2 * uv + alpha * vv));
  mjtNum NmT = N - mu * T;
  if (deriv) {
    mjtNum N1 = v0, T1 = (uv + alpha * vv) / T;
    mjtNum T2 = vv / T - (uv + alpha * vv) * (uv + alpha * vv) / (T * T * T);
    mjtNum NmT1 = N1 - mu * T1;
    deriv[0] += Dm * NmT * NmT1;
    deriv[1] += Dm * (NmT1 * NmT1 + NmT * (-mu * T2));
  }
  return 0.5 * Dm * NmT * NmT;
}

/* elliptic middle zone at 0 and alpha: the cost change 0.5 Dm (r^2 - r0^2), r = N - mu T,
 * without cancellation (T - T0 = (T^2 - T0^2) / (T + T0)); derivatives as cone_middle */
static mjtNum cone_middle_change(const mjtNum* q, mjtNum mu, mjtNum alpha, mjtNum deriv[2]) {
  mjtNum u0 = q[3], v0 = q[4], uu = q[5], uv = q[6], Dm = q[8];
  mjtNum T0 = sqrt(uu), r0 = u0 - mu * T0;
  mjtNum dTsqr = alpha * (2 * uv + alpha * q[7]);
  mjtNum T = sqrt(uu + dTsqr);
  mjtNum dr = alpha * v0 - mu * (dTsqr / (T + T0));
  cone_middle(q, mu, alpha, deriv);
  return 0.5 * Dm * dr * (2 * r0 + dr);
}

/* zone of an elliptic contact at alpha: top (satisfied), bottom (quadratic) or middle */
static int cone_zone(const mjtNum* q, mjtNum mu, mjtNum alpha) {
  mjtNum N = q[3] + alpha * q[4];
  mjtNum Tsqr = q[5] + alpha * (2 * q[6] + alpha * q[7]);

  // no tangential component: bottom zone if N < 0, else top zone
  if (Tsqr <= 0) {
    return N < 0 ? mjCNSTRSTATE_QUADRATIC : mjCNSTRSTATE_SATISFIED;
  }
  mjtNum T = sqrt(Tsqr);
  if (N >= mu * T) {
    return mjCNSTRSTATE_SATISFIED;
  }
  return mu * N + T <= 0 ? mjCNSTRSTATE_QUADRATIC : mjCNSTRSTATE_CONE;
}

/* elliptic contact at alpha (zone at 0: state0) */
static void eval_cone(const mjtNum* q, mjtNum mu, mjtNum alpha, int state0, tnLineSum* sum) {
  int zone = cone_zone(q, mu, alpha);

  // middle zone at 0 and at alpha: the change of the cone term, computed directly
  if (zone == mjCNSTRSTATE_CONE && state0 == mjCNSTRSTATE_CONE) {
    sum->cost += cone_middle_change(q, mu, alpha, sum->deriv);
    return;
  }

  // bottom zone: the summed quadratic; middle zone: the cone term
  if (zone == mjCNSTRSTATE_QUADRATIC) {
    add_piece(sum, q, state0 == mjCNSTRSTATE_QUADRATIC);
  } else if (zone == mjCNSTRSTATE_CONE) {
    sum->cost += cone_middle(q, mu, alpha, sum->deriv);
  }

  // the cost at 0 of its zone, when different (middle: always, its term is not split)
  if (state0 == mjCNSTRSTATE_CONE) {
    sum->loss += cone_middle(q, mu, 0, NULL);
  } else if (state0 == mjCNSTRSTATE_QUADRATIC && zone != state0) {
    sum->loss += q[0];
  }
}

/* friction loss row at alpha (zone at 0: state0): quadratic inside |x| < R f, linear
 * outside; each zone's constant term counted only when the zone differs from the one at 0 */
static void eval_friction(const mjData* d, const tnPrimal* ctx, int i, mjtNum alpha,
                          tnLineSum* sum) {
  const mjtNum* q = ctx->quad + 3 * i;
  mjtNum start = ctx->Jaref[i], dir = ctx->Jv[i], x = start + alpha * dir;
  mjtNum f = d->efc_frictionloss[i], rf = d->efc_R[i] * f;
  int state0 = d->efc_state[i], zone;
  mjtNum constant;

  // the zone at alpha
  if (-rf < x && x < rf) {
    zone = mjCNSTRSTATE_QUADRATIC;
    add_piece(sum, q, state0 == zone);
  } else {
    zone = x <= -rf ? mjCNSTRSTATE_LINEARNEG : mjCNSTRSTATE_LINEARPOS;
    mjtNum sgn = zone == mjCNSTRSTATE_LINEARNEG ? -1 : 1;
    constant = f * (-0.5 * rf + sgn * start);
    sum->qt[1] += sgn * f * dir;
    if (state0 != zone) {
      sum->gain += constant;
    }
  }

  // the zone at 0, when left
  if (state0 != zone) {
    if (state0 == mjCNSTRSTATE_QUADRATIC) {
      sum->loss += q[0];
    } else {
      sum->loss += f * (-0.5 * rf + (state0 == mjCNSTRSTATE_LINEARNEG ? -start : start));
    }
  }
}

/* cost (shifted: minus the cost at alpha = 0) and its first two derivatives at p->alpha */
static void eval_point(mjData* d, tnPrimal* ctx, tnLinePoint* p) {
  mjtNum alpha = p->alpha;
  tnLineSum sum = {{0, ctx->quadGauss[1], ctx->quadGauss[2]}, 0, 0, 0, {0, 0}};
  int ne = ctx->ne, nf = ctx->nf;

  // the island's rows (an elliptic contact's rows are consecutive in it too)
  for (int k = 0; k < ctx->niefc; k++) {
    int i = tn__primalRow(ctx, k);
    const mjtNum* q = ctx->quad + 3 * i;

    // equality: always quadratic
    if (i < ne) {
      add_piece(&sum, q, 1);
      continue;
    }

    // friction loss: Huber
    if (i < ne + nf) {
      eval_friction(d, ctx, i, alpha, &sum);
      continue;
    }

    // elliptic contact
    if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
      const mjContact* con = d->contact + d->efc_id[i];
      eval_cone(q, con->mu, alpha, d->efc_state[i], &sum);
      k += con->dim - 1;
      continue;
    }

    // limit, frictionless, pyramidal: active when violated
    int active0 = d->efc_state[i] == mjCNSTRSTATE_QUADRATIC;
    if (ctx->Jaref[i] + alpha * ctx->Jv[i] < 0) {
      add_piece(&sum, q, active0);
    } else if (active0) {
      sum.loss += q[0];
    }
  }

  // total
  sum.qt[0] = sum.gain - sum.loss;
  p->cost = alpha * alpha * sum.qt[2] + alpha * sum.qt[1] + sum.qt[0] + sum.cost;
  p->deriv[0] = 2 * alpha * sum.qt[2] + sum.qt[1] + sum.deriv[0];
  p->deriv[1] = 2 * sum.qt[2] + sum.deriv[1];
  ctx->LSiter++;
}

/* the search's result: point p (records its slope and its cost relative to alpha = 0) */
static mjtNum accept(tnPrimal* ctx, const tnLinePoint* p, mjtNum slopescl) {
  ctx->LSslope = fabs(p->deriv[0]) * slopescl;
  ctx->LScost = p->cost;
  return p->alpha;
}

/* Newton step from a point */
static mjtNum newton_step(const tnLinePoint* p) {
  return p->alpha - p->deriv[0] / p->deriv[1];
}

/* move bracket end p to the candidate whose slope has the same sign and is closest to
 * zero; when it moved, evaluate the Newton step from its new place as its next candidate */
static int update_bracket(mjData* d, tnPrimal* ctx, tnLinePoint* p, const tnLinePoint* cand,
                          tnLinePoint* pnext) {
  int flag = 0;
  for (int i = 0; i < 3; i++) {
    if (p->deriv[0] < 0 && cand[i].deriv[0] < 0 && p->deriv[0] < cand[i].deriv[0]) {
      *p = cand[i];
      flag = 1;
    } else if (p->deriv[0] > 0 && cand[i].deriv[0] > 0 && p->deriv[0] > cand[i].deriv[0]) {
      *p = cand[i];
      flag = 2;
    }
  }
  if (flag) {
    pnext->alpha = newton_step(p);
    eval_point(d, ctx, pnext);
  }
  return flag;
}

/* index of the cheapest candidate within the slope tolerance, -1 if none */
static int best_converged(const tnLinePoint* cand, mjtNum gtol) {
  int best = -1;
  for (int i = 0; i < 3; i++) {
    if (fabs(cand[i].deriv[0]) < gtol && (best < 0 || cand[i].cost < cand[best].cost)) {
      best = i;
    }
  }
  return best;
}

/* refine a bracket [p1, p2] of the minimum (p1 the Newton step from p2, so p2's next
 * candidate is p1 itself): each round evaluates the midpoint and takes the cheapest of
 * the candidates (Newton steps from both ends, midpoint) within tolerance; otherwise each
 * end moves to a better candidate and evaluates its own Newton step */
static mjtNum bracket_search(const mjModel* m, mjData* d, tnPrimal* ctx, tnLinePoint p1,
                             tnLinePoint p2, mjtNum gtol, mjtNum slopescl) {
  tnLinePoint p1next, p2next = p1, pmid;
  p1next.alpha = newton_step(&p1);
  eval_point(d, ctx, &p1next);

  while (ctx->LSiter < m->opt.ls_iterations) {
    // midpoint, then the candidates: converged ones end the search
    pmid.alpha = 0.5 * (p1.alpha + p2.alpha);
    eval_point(d, ctx, &pmid);
    tnLinePoint cand[3] = {p1next, p2next, pmid};
    int best = best_converged(cand, gtol);
    if (best >= 0) {
      return accept(ctx, cand + best, slopescl);
    }

    // shrink the bracket; no change: numerical limit reached, use the midpoint
    int p1update = update_bracket(d, ctx, &p1, cand, &p1next);
    int p2update = update_bracket(d, ctx, &p2, cand, &p2next);
    if (!p1update && !p2update) {
      ctx->LSresult = 5;
      return accept(ctx, &pmid, slopescl);
    }
  }

  // out of evaluations: the better end
  ctx->LSresult = 4;
  tnLinePoint* best = p1.cost < p2.cost ? &p1 : &p2;
  return accept(ctx, best, slopescl);
}

/* exact line search along ctx->search */
mjtNum tn__lineSearch(const mjModel* m, mjData* d, tnPrimal* ctx) {
  tnLinePoint p0, p1, p2;
  ctx->LSiter = 0;
  ctx->LSresult = 0;
  ctx->LSslope = 1;
  ctx->LScost = 0;

  // search direction too small
  mjtNum snorm = sqrt(tn__primalDot(ctx, ctx->search, ctx->search));
  if (snorm < mjMINVAL) {
    ctx->LSresult = 1;
    return 0;
  }
  mjtNum gtol = m->opt.tolerance * m->opt.ls_tolerance * snorm / ctx->scale;
  mjtNum slopescl = ctx->scale / snorm;

  // M and J along the search direction, then the quadratics
  tn__primalMulM(m, d, ctx, ctx->Mv, ctx->search);
  tn__primalMulJac(m, d, ctx, ctx->Jv, ctx->search);
  prepare_quad(d, ctx);

  // start
  p0.alpha = 0;
  eval_point(d, ctx, &p0);

  // one Newton step
  p1.alpha = newton_step(&p0);
  eval_point(d, ctx, &p1);
  if (fabs(p1.deriv[0]) < gtol) {
    return accept(ctx, &p1, slopescl);
  }

  // Newton steps in the descent direction until the slope changes sign
  int dir = p1.deriv[0] < 0 ? 1 : -1;
  p2 = p1;
  while (p1.deriv[0] * dir <= -gtol && ctx->LSiter < m->opt.ls_iterations) {
    p2 = p1;
    p1.alpha = newton_step(&p1);
    eval_point(d, ctx, &p1);
    if (fabs(p1.deriv[0]) < gtol) {
      return accept(ctx, &p1, slopescl);
    }
  }

  // could not bracket
  if (ctx->LSiter >= m->opt.ls_iterations) {
    ctx->LSresult = 3;
    return accept(ctx, &p1, slopescl);
  }

  // bracketed: refine
  return bracket_search(m, d, ctx, p1, p2, gtol, slopescl);
}
