/* constraint/constraint_impedance.c — soft-constraint parameters of every row: the diagonal
 * of A (efc_diagA), impedance and its derivative, stiffness and damping (efc_KBIP), the
 * regularizer R and its inverse D; and mj_referenceConstraint (efc_vel, efc_aref).
 *
 * diagA starts as an approximation of diag(J inv(M) J') from the compiled body/dof/tendon
 * invweight0 (exact with the diagexact flag); R = (1-imp)/imp * diagA with the impedance
 * from solimp at r = pos - margin, K and B from solref (timeconst/dampratio, or the direct
 * negative -stiffness/-damping form; timeconst at least 2 timesteps unless refsafe is off).
 * A frictional contact's friction rows then take their R from the normal row's (R_1 =
 * R_0/impratio; elliptic R_k = R_1 (mu_0/mu_k)^2; pyramidal edges all 2 mu^2 R_0 with the
 * regularized cone's mu), D = 1/R, and diagA is set back to R imp/(1-imp) — each step in
 * MuJoCo's order of operations, so that R and D come out bit for bit. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/constraint.h"
#include "util/util_inline.h"

/* ---------------------------------------------------------------------------------------
 * Diagonal of A
 * ------------------------------------------------------------------------------------- */

/* approximate diagA of an equality row; `sub` is the row's index within the constraint */
static mjtNum diag_equality(const mjModel* m, int eq, int sub) {
  int o1 = m->eq_obj1id[eq], o2 = m->eq_obj2id[eq];
  switch (m->eq_type[eq]) {
    case mjEQ_CONNECT:
      return m->body_invweight0[2 * tn__eqBody(m, eq, 0)] +
             m->body_invweight0[2 * tn__eqBody(m, eq, 1)];
    case mjEQ_WELD: {
      int rot = sub > 2;
      return m->body_invweight0[2 * tn__eqBody(m, eq, 0) + rot] +
             m->body_invweight0[2 * tn__eqBody(m, eq, 1) + rot];
    }
    case mjEQ_JOINT: {
      mjtNum v = m->dof_invweight0[m->jnt_dofadr[o1]];
      return o2 >= 0 ? v + m->dof_invweight0[m->jnt_dofadr[o2]] : v;
    }
    case mjEQ_TENDON: {
      mjtNum v = m->tendon_invweight0[o1];
      return o2 >= 0 ? v + m->tendon_invweight0[o2] : v;
    }
    default:
      return 0;
  }
}

/* translational (rot = 0) or rotational (rot = 1) invweight of a contact's two bodies,
 * summed from zero as MuJoCo sums it */
static mjtNum contact_weight(const mjModel* m, const mjContact* con, int rot) {
  int b1 = m->geom_bodyid[con->geom[0]], b2 = m->geom_bodyid[con->geom[1]];
  mjtNum w = 0;
  w += m->body_invweight0[2 * b1 + rot];
  w += m->body_invweight0[2 * b2 + rot];
  return w;
}

/* exact diag(J inv(M) J') of row i */
static mjtNum diag_exact(const mjModel* m, mjData* d, int i, mjtNum* row, mjtNum* sol) {
  tn__rowDense(m, d, i, row);
  mj_solveM(m, d, sol, row, 1);
  return mju_dot(row, sol, m->nv);
}

/* base diagA of one contact's rows, starting at row i (returns the row count): the
 * bodies' translational invweight, plus mu_k^2 times the translational (slip) or
 * rotational (spin, roll) one for pyramidal edges; translational or rotational for
 * elliptic components. Only the first row's value survives in R (make_friction) */
static int diag_contact(const mjModel* m, mjData* d, int i, int exact, mjtNum* row, mjtNum* sol) {
  const mjContact* con = d->contact + d->efc_id[i];
  int type = d->efc_type[i], dim = con->dim;
  mjtNum* dA = d->efc_diagA;
  mjtNum tran = contact_weight(m, con, 0), rot = contact_weight(m, con, 1);
  int nrow = type == mjCNSTR_CONTACT_FRICTIONLESS ? 1
             : type == mjCNSTR_CONTACT_PYRAMIDAL ? 2 * (dim - 1)
                                                   : dim;

  // exact: the first row's own diagonal (the only one R keeps), copied to the others
  if (exact) {
    dA[i] = diag_exact(m, d, i, row, sol);
    for (int k = 1; k < nrow; k++) {
      dA[i + k] = dA[i];
    }
    return nrow;
  }

  // pyramidal: the edge pairs of each friction direction
  if (type == mjCNSTR_CONTACT_PYRAMIDAL) {
    for (int k = 0; k < dim - 1; k++) {
      mjtNum fri = con->friction[k];
      dA[i + 2 * k] = dA[i + 2 * k + 1] = tran + fri * fri * (k < 2 ? tran : rot);
    }
    return nrow;
  }

  // frictionless and elliptic: translation for normal and slip, rotation for spin, roll
  for (int k = 0; k < nrow; k++) {
    dA[i + k] = k < 3 ? tran : rot;
  }
  return nrow;
}

/* efc_diagA for every row */
static void make_diag_a(const mjModel* m, mjData* d) {
  int exact = TN_CENABLED(m, mjENBL_DIAGEXACT);
  mj_markStack(d);
  mjtNum* row = mj_stackAllocNum(d, (size_t)m->nv);
  mjtNum* sol = mj_stackAllocNum(d, (size_t)m->nv);

  for (int i = 0; i < d->nefc;) {
    int id = d->efc_id[i], type = d->efc_type[i];

    // contacts: all rows of the contact at once
    if (type >= mjCNSTR_CONTACT_FRICTIONLESS) {
      i += diag_contact(m, d, i, exact, row, sol);
      continue;
    }

    // exact: J inv(M) J'
    if (exact) {
      d->efc_diagA[i] = diag_exact(m, d, i, row, sol);
      i++;
      continue;
    }

    // approximate, by type
    switch (type) {
      case mjCNSTR_EQUALITY: {
        int rows = m->eq_type[id] == mjEQ_CONNECT ? 3 : (m->eq_type[id] == mjEQ_WELD ? 6 : 1);
        for (int k = 0; k < rows; k++) {
          d->efc_diagA[i + k] = diag_equality(m, id, k);
        }
        i += rows;
        continue;
      }
      case mjCNSTR_FRICTION_DOF:
        d->efc_diagA[i] = m->dof_invweight0[id];
        break;
      case mjCNSTR_FRICTION_TENDON:
      case mjCNSTR_LIMIT_TENDON:
        d->efc_diagA[i] = m->tendon_invweight0[id];
        break;
      case mjCNSTR_LIMIT_JOINT:
        d->efc_diagA[i] = m->dof_invweight0[m->jnt_dofadr[id]];
        break;
      default:
        d->efc_diagA[i] = 0;
        break;
    }
    i++;
  }
  mj_freeStack(d);
}

/* ---------------------------------------------------------------------------------------
 * Impedance and reference parameters
 * ------------------------------------------------------------------------------------- */

/* solref, solreffriction and solimp of row i */
static int sol_params(const mjModel* m, const mjData* d, int i, mjtNum solref[2],
                      mjtNum solreffri[2], mjtNum solimp[5]) {
  int id = d->efc_id[i];
  const mjtNum *ref = NULL, *imp = NULL;
  solreffri[0] = solreffri[1] = 0;

  switch (d->efc_type[i]) {
    case mjCNSTR_EQUALITY:
      ref = m->eq_solref + mjNREF * id, imp = m->eq_solimp + mjNIMP * id;
      break;
    case mjCNSTR_FRICTION_DOF:
      ref = m->dof_solref + mjNREF * id, imp = m->dof_solimp + mjNIMP * id;
      break;
    case mjCNSTR_FRICTION_TENDON:
      ref = m->tendon_solref_fri + mjNREF * id, imp = m->tendon_solimp_fri + mjNIMP * id;
      break;
    case mjCNSTR_LIMIT_JOINT:
      ref = m->jnt_solref + mjNREF * id, imp = m->jnt_solimp + mjNIMP * id;
      break;
    case mjCNSTR_LIMIT_TENDON:
      ref = m->tendon_solref_lim + mjNREF * id, imp = m->tendon_solimp_lim + mjNIMP * id;
      break;
    default: {
      const mjContact* con = d->contact + id;
      ref = con->solref, imp = con->solimp;
      solreffri[0] = con->solreffriction[0], solreffri[1] = con->solreffriction[1];
      if (TN_CENABLED(m, mjENBL_OVERRIDE)) {
        ref = m->opt.o_solref, imp = m->opt.o_solimp;
      }
      break;
    }
  }
  solref[0] = ref[0], solref[1] = ref[1];
  for (int k = 0; k < mjNIMP; k++) {
    solimp[k] = imp[k];
  }

  // a solref mixing the standard and direct forms (one positive, one not): MuJoCo's
  // default, with its warning; solreffriction likewise falls back to its default (0, 0)
  int warned = 0;
  if ((solref[0] > 0) != (solref[1] > 0)) {
    mju_warning("mixed solref format, replacing with default");
    solref[0] = 0.02;
    solref[1] = 1;
    warned = 1;
  }
  if ((solreffri[0] > 0) != (solreffri[1] > 0)) {
    mju_warning("solreffriction values should have the same sign, replacing with default");
    solreffri[0] = solreffri[1] = 0;
    warned = 1;
  }

  // impedance limits, width, midpoint and power in range
  solimp[0] = mju_clip(solimp[0], mjMINIMP, mjMAXIMP);
  solimp[1] = mju_clip(solimp[1], mjMINIMP, mjMAXIMP);
  solimp[2] = mju_max(0, solimp[2]);
  solimp[3] = mju_clip(solimp[3], mjMINIMP, mjMAXIMP);
  solimp[4] = mju_max(1, solimp[4]);
  return warned;
}

/* a^b, with the common powers 1 and 2 (solimp's default) taken directly, as MuJoCo does */
static inline mjtNum power_of(mjtNum a, mjtNum b) {
  if (b == 1) {
    return a;
  }
  if (b == 2) {
    return a * a;
  }
  return pow(a, b);
}

/* impedance and its derivative with respect to r = pos - margin */
static void impedance(const mjtNum solimp[5], mjtNum r, mjtNum* imp, mjtNum* impP) {
  mjtNum dmin = solimp[0], dmax = solimp[1], width = solimp[2];
  mjtNum mid = solimp[3], power = solimp[4];

  // flat function
  if (dmin == dmax || width <= mjMINVAL) {
    *imp = 0.5 * (dmin + dmax);
    *impP = 0;
    return;
  }

  // normalized distance and its sign
  mjtNum x = r / width, sgn = 1;
  if (x < 0) {
    x = -x;
    sgn = -1;
  }

  // saturated at either end
  if (x >= 1 || x <= 0) {
    *imp = x >= 1 ? dmax : dmin;
    *impP = 0;
    return;
  }

  // sigmoid: a x^p below the midpoint, 1 - b (1-x)^p above it
  mjtNum y, yP;
  if (power == 1) {
    y = x;
    yP = 1;
  } else if (x <= mid) {
    mjtNum a = 1 / power_of(mid, power - 1);
    y = a * power_of(x, power);
    yP = power * a * power_of(x, power - 1);
  } else {
    mjtNum b = 1 / power_of(1 - mid, power - 1);
    y = 1 - b * power_of(1 - x, power);
    yP = power * b * power_of(1 - x, power - 1);
  }

  // scale to [dmin, dmax]
  *imp = dmin + y * (dmax - dmin);
  *impP = yP * sgn * (dmax - dmin) / width;
}

/* stiffness K and damping B from solref, dmax and the timestep */
static void ref_params(const mjModel* m, const mjtNum solref[2], mjtNum dmax, mjtNum* K,
                       mjtNum* B) {
  // direct form: -stiffness, -damping (the signs agree: sol_params replaced a mixed pair)
  if (solref[0] <= 0) {
    *K = -solref[0] / mju_max(mjMINVAL, dmax * dmax);
    *B = -solref[1] / mju_max(mjMINVAL, dmax);
    return;
  }

  // time constant (at least two timesteps unless refsafe is disabled) and damping ratio
  mjtNum timeconst = solref[0], dampratio = solref[1];
  if (!TN_CDISABLED(m, mjDSBL_REFSAFE)) {
    timeconst = mju_max(timeconst, 2 * m->opt.timestep);
  }
  *K = 1 / mju_max(mjMINVAL, dmax * dmax * timeconst * timeconst * dampratio * dampratio);
  *B = 2 / mju_max(mjMINVAL, dmax * timeconst);
}

/* 1 if row i is a friction direction of an elliptic contact */
static int is_elliptic_friction(const mjData* d, int i) {
  if (d->efc_type[i] != mjCNSTR_CONTACT_ELLIPTIC) {
    return 0;
  }
  return d->contact[d->efc_id[i]].efc_address != i;
}

/* violation that sets row i's impedance: the whole residual's norm for an equality
 * constraint (connect, weld), the normal's for an elliptic friction row, else the row's */
static mjtNum impedance_violation(const mjData* d, int i) {
  int type = d->efc_type[i], id = d->efc_id[i];

  // equality: norm of all rows of the same constraint
  if (type == mjCNSTR_EQUALITY) {
    int a = i, b = i;
    while (a > 0 && d->efc_type[a - 1] == mjCNSTR_EQUALITY && d->efc_id[a - 1] == id) {
      a--;
    }
    while (b + 1 < d->ne && d->efc_id[b + 1] == id) {
      b++;
    }
    if (a == b) {
      return d->efc_pos[i];
    }
    mjtNum s = 0;
    for (int k = a; k <= b; k++) {
      s += d->efc_pos[k] * d->efc_pos[k];
    }
    return sqrt(s);
  }

  // elliptic friction rows: the contact's normal row
  int r = is_elliptic_friction(d, i) ? d->contact[id].efc_address : i;
  return d->efc_pos[r] - d->efc_margin[r];
}

/* 1 if the five solimp numbers a and b are the same bit patterns (memcmp's equality, inline) */
static inline int same_solimp(const mjtNum a[5], const mjtNum b[5]) {
  for (int k = 0; k < 5; k++) {
    uint64_t x, y;
    memcpy(&x, a + k, sizeof(x));
    memcpy(&y, b + k, sizeof(y));
    if (x != y) {
      return 0;
    }
  }
  return 1;
}

/* efc_KBIP, efc_R, efc_D for every row. A contact's rows after its first reuse the first
 * row's solver parameters, and its elliptic friction rows after the first the first's K
 * and B (the same inputs give the same numbers; not when a parameter was replaced with
 * its warning, which then repeats per row as before) */
static void make_kbip(const mjModel* m, mjData* d) {
  // the previous row's impedance inputs and outputs (a contact's rows share them)
  mjtNum lastimp[5] = {0, 0, 0, 0, 0}, lastviol = 0, imp = 0, impP = 0;
  int havelast = 0;

  // the contact whose parameters are held (-1: none), and its K, B per row kind
  mjtNum solref[2] = {0, 0}, solreffri[2] = {0, 0}, solimp[5] = {0, 0, 0, 0, 0};
  int held = -1, havenormal = 0, havefri = 0;
  mjtNum normalK = 0, normalB = 0, friB = 0;
  for (int i = 0; i < d->nefc; i++) {
    mjtNum K, B;
    int type = d->efc_type[i], id = d->efc_id[i];
    int contact = type >= mjCNSTR_CONTACT_FRICTIONLESS;
    if (!contact || id != held) {
      int warned = sol_params(m, d, i, solref, solreffri, solimp);
      held = contact && !warned ? id : -1;
      havenormal = havefri = 0;
    }

    // impedance at the violation (reused when inputs equal the previous row's)
    mjtNum viol = impedance_violation(d, i);
    if (!havelast || viol != lastviol || !same_solimp(solimp, lastimp)) {
      impedance(solimp, viol, &imp, &impP);
      memcpy(lastimp, solimp, sizeof(lastimp));
      lastviol = viol;
      havelast = 1;
    }

    // elliptic friction rows: no stiffness, damping from solreffriction when given
    if (is_elliptic_friction(d, i)) {
      if (!havefri) {
        const mjtNum* ref = (solreffri[0] || solreffri[1]) ? solreffri : solref;
        ref_params(m, ref, solimp[1], &K, &friB);
        havefri = held >= 0;
      }
      K = 0;
      B = friB;
    } else {
      if (!havenormal) {
        ref_params(m, solref, solimp[1], &normalK, &normalB);
        havenormal = held >= 0;
      }
      K = normalK;
      B = normalB;
    }

    // friction loss: no position residual, no stiffness
    if (type == mjCNSTR_FRICTION_DOF || type == mjCNSTR_FRICTION_TENDON) {
      K = 0;
    }

    // save, then regularizer and constraint mass
    mjtNum* kbip = d->efc_KBIP + 4 * i;
    kbip[0] = K, kbip[1] = B, kbip[2] = imp, kbip[3] = impP;
    d->efc_R[i] = mju_max(mjMINVAL, (1 - imp) * d->efc_diagA[i] / imp);
  }
}

/* frictional contacts: R of the friction rows from the normal's (R_1 = R_0 / impratio,
 * elliptic R_k = R_1 mu_0^2 / mu_k^2, pyramidal edges all 2 mu^2 R_0 with the regularized
 * cone's mu = mu_0 sqrt(R_1 / R_0)), then D = 1/R and diagA = R imp / (1 - imp) for every
 * row, in MuJoCo's order of operations */
static void make_friction(const mjModel* m, mjData* d) {
  mjtNum* R = d->efc_R;
  for (int c = 0; c < d->ncon; c++) {
    mjContact* con = d->contact + c;
    int i = con->efc_address, dim = con->dim;
    if (i < 0 || dim == 1) {
      con->mu = 0;
      continue;
    }
    const mjtNum* fr = con->friction;
    R[i + 1] = R[i] / mju_max(mjMINVAL, m->opt.impratio);
    con->mu = fr[0] * sqrt(R[i + 1] / R[i]);
    if (d->efc_type[i] == mjCNSTR_CONTACT_ELLIPTIC) {
      for (int j = 1; j < dim - 1; j++) {
        R[i + j + 1] = R[i + 1] * fr[0] * fr[0] / (fr[j] * fr[j]);
      }
    } else {
      mjtNum rpy = 2 * con->mu * con->mu * R[i];
      for (int j = 0; j < 2 * (dim - 1); j++) {
        R[i + j] = rpy;
      }
    }
  }
  for (int i = 0; i < d->nefc; i++) {
    d->efc_D[i] = 1 / R[i];
  }
  for (int i = 0; i < d->nefc; i++) {
    mjtNum imp = d->efc_KBIP[4 * i + 2];
    d->efc_diagA[i] = R[i] * imp / (1 - imp);
  }
}

/* diagA, impedance, K, B, R, D and contact mu */
void tn__makeImpedance(const mjModel* m, mjData* d) {
  make_diag_a(m, d);
  make_kbip(m, d);
  make_friction(m, d);
}

/* ---------------------------------------------------------------------------------------
 * Reference acceleration
 * ------------------------------------------------------------------------------------- */

/* efc_vel = J qvel; efc_aref = -B vel - K I (pos - margin) (- Jdot qvel for connect, weld) */
void mj_referenceConstraint(const mjModel* m, mjData* d) {
  if (!d->nefc) {
    return;
  }
  mj_mulJacVec(m, d, d->efc_vel, d->qvel);
  for (int i = 0; i < d->nefc; i++) {
    const mjtNum* kbip = d->efc_KBIP + 4 * i;
    d->efc_aref[i] = -kbip[1] * d->efc_vel[i] -
                     kbip[0] * kbip[2] * (d->efc_pos[i] - d->efc_margin[i]);
  }

  // connect and weld: remove the velocity-product acceleration
  tn__equalityBias(m, d);
}
