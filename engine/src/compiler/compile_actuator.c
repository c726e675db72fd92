/* compiler/compile_actuator.c — actuators: transmission targets, muscle checks, activation
 * addresses, limit flags, inherited ranges, the size of the sparse moment rows (nJmom),
 * engine plugin instances (compile_plugin.c), and (after the constants pass) the damping ratio of
 * position servos converted to a damping gain with the reflected inertia at qpos0. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/compile_internal.h"
#include "smooth/smooth.h"

/* transmission target: a joint, tendon, site (with optional refsite), crank site with its
 * slider site, or body */
static int compile_target(tnCompiler* c, int i, const tnSpecActuator* a) {
  mjModel* m = c->m;
  int* trnid = m->actuator_trnid + 2 * i;
  m->actuator_trntype[i] = a->trntype;
  trnid[1] = -1;

  // the primary target
  const char* attr;
  int type;
  switch (a->trntype) {
    case mjTRN_TENDON: attr = "tendon", type = mjOBJ_TENDON; break;
    case mjTRN_JOINT: attr = "joint", type = mjOBJ_JOINT; break;
    case mjTRN_JOINTINPARENT: attr = "jointinparent", type = mjOBJ_JOINT; break;
    case mjTRN_SITE: attr = "site", type = mjOBJ_SITE; break;
    case mjTRN_SLIDERCRANK: attr = "cranksite", type = mjOBJ_SITE; break;
    case mjTRN_BODY: attr = "body", type = mjOBJ_BODY; break;
    default: return tn__compileFail(c, a->src, NULL, "actuator has no transmission target");
  }
  trnid[0] = tn__compileRequire(c, type, a->target, a->src, attr);
  if (trnid[0] < 0) {
    return 0;
  }

  // the second site: refsite or slidersite
  if (a->trntype == mjTRN_SITE && a->refsite) {
    trnid[1] = tn__compileRequire(c, mjOBJ_SITE, a->refsite, a->src, "refsite");
    return trnid[1] >= 0;
  }
  if (a->trntype == mjTRN_SLIDERCRANK) {
    trnid[1] = tn__compileRequire(c, mjOBJ_SITE, a->slidersite, a->src, "slidersite");
    if (trnid[1] < 0) {
      return 0;
    }
    if (a->cranklength <= 0) {
      return tn__compileFail(c, a->src, "cranklength",
                             "crank length must be positive in slider-crank actuator");
    }
  }
  return 1;
}

/* MuJoCo's checks of muscle gain and bias parameters */
static int check_muscle(tnCompiler* c, const tnSpecActuator* a) {
  for (int k = 0; k < 2; k++) {
    const mjtNum* prm = k == 0 ? a->gainprm : a->biasprm;
    if ((k == 0 && a->gaintype != mjGAIN_MUSCLE) || (k == 1 && a->biastype != mjBIAS_MUSCLE)) {
      continue;
    }
    if (prm[0] >= prm[1]) {
      return tn__compileFail(c, a->src, "range", "range[0]<range[1] required in muscle");
    }
    if (prm[4] >= 1) {
      return tn__compileFail(c, a->src, "lmin", "lmin<1 required in muscle");
    }
    if (prm[5] <= 1) {
      return tn__compileFail(c, a->src, "lmax", "lmax>1 required in muscle");
    }
    if (prm[3] <= 0 || prm[6] <= 0 || prm[7] <= 0 || prm[8] <= 0) {
      return tn__compileFail(c, a->src, NULL,
                             "positive scale, vmax, fpmax, fvmax required in muscle");
    }
  }
  return 1;
}

/* inheritrange: control (position) or activation (intvelocity) range from the joint */
static int inherit_range(tnCompiler* c, int i, const tnSpecActuator* a) {
  mjModel* m = c->m;
  if (a->inheritrange <= 0) {
    return 1;
  }
  const char* n = a->src->element;
  int intvel = strcmp(n, "intvelocity") == 0;
  const char* own = intvel ? "actrange" : "ctrlrange";
  const mjtNum* given = intvel ? a->actrange : a->ctrlrange;
  if (given[0] != 0 || given[1] != 0) {
    return tn__compileFail(c, a->src, "inheritrange", "%s and inheritrange cannot both be defined",
                           own);
  }

  // the target's range
  const mjtNum* range;
  int id = m->actuator_trnid[2 * i];
  if (m->actuator_trntype[i] == mjTRN_TENDON) {
    range = m->tendon_range + 2 * id;
  } else {
    int t = m->jnt_type[id];
    if (t != mjJNT_HINGE && t != mjJNT_SLIDE) {
      return tn__compileFail(c, a->src, "inheritrange", "needs a hinge or slide joint");
    }
    range = m->jnt_range + 2 * id;
  }
  if (range[0] >= range[1]) {
    return tn__compileFail(c, a->src, "inheritrange", "target has no range to inherit");
  }

  // centered, scaled
  mjtNum mid = 0.5 * (range[0] + range[1]);
  mjtNum half = 0.5 * a->inheritrange * (range[1] - range[0]);
  mjtNum* dst = intvel ? m->actuator_actrange + 2 * i : m->actuator_ctrlrange + 2 * i;
  dst[0] = mid - half;
  dst[1] = mid + half;
  if (intvel) {
    m->actuator_actlimited[i] = 1;
  } else {
    m->actuator_ctrllimited[i] = 1;
  }
  return 1;
}

/* one actuator */
static int compile_actuator(tnCompiler* c, int i, int* na) {
  mjModel* m = c->m;
  const tnSpecActuator* a = TN_AT(c->spec->actuators, tnSpecActuator, i);
  if (!compile_target(c, i, a) || !check_muscle(c, a)) {
    return 0;
  }
  m->actuator_dyntype[i] = a->dyntype;
  m->actuator_gaintype[i] = a->gaintype;
  m->actuator_biastype[i] = a->biastype;
  mju_copy(m->actuator_dynprm + mjNDYN * i, a->dynprm, mjNDYN);
  mju_copy(m->actuator_gainprm + mjNGAIN * i, a->gainprm, mjNGAIN);
  mju_copy(m->actuator_biasprm + mjNBIAS * i, a->biasprm, mjNBIAS);
  m->actuator_actearly[i] = (mjtByte)a->actearly;
  m->actuator_group[i] = a->group;
  mju_copy(m->actuator_gear + 6 * i, a->gear, 6);
  m->actuator_cranklength[i] = a->cranklength;
  mju_copy(m->actuator_lengthrange + 2 * i, a->lengthrange, 2);

  // activation states
  // (plugin actuators: any actdim; the plugin checks it, compile_plugin.c)
  int actnum = a->actdim >= 0 ? a->actdim : a->dyntype != mjDYN_NONE;
  m->actuator_plugin[i] = a->plugin;
  if (a->plugin < 0 && (a->actdim > 1 || (a->actdim == 0 && a->dyntype != mjDYN_NONE))) {
    return tn__compileFail(c, a->src, "actdim", "must be 1 with activation dynamics");
  }
  m->actuator_actnum[i] = actnum;
  m->actuator_actadr[i] = actnum ? *na : -1;
  *na += actnum;

  // ranges and their flags
  int cl = 0, fl = 0, al = 0;
  mju_copy(m->actuator_ctrlrange + 2 * i, a->ctrlrange, 2);
  mju_copy(m->actuator_forcerange + 2 * i, a->forcerange, 2);
  mju_copy(m->actuator_actrange + 2 * i, a->actrange, 2);
  if (!tn__compileLimited(c, a->ctrllimited, a->ctrlrange, a->src, "ctrllimited", "ctrlrange",
                          &cl) ||
      !tn__compileLimited(c, a->forcelimited, a->forcerange, a->src, "forcelimited", "forcerange",
                          &fl) ||
      !tn__compileLimited(c, a->actlimited, a->actrange, a->src, "actlimited", "actrange", &al)) {
    return 0;
  }
  m->actuator_ctrllimited[i] = (mjtByte)cl;
  m->actuator_forcelimited[i] = (mjtByte)fl;
  m->actuator_actlimited[i] = (mjtByte)al;
  if (!inherit_range(c, i, a)) {
    return 0;
  }
  return tn__compileUser(c, m->actuator_user + m->nuser_actuator * i, m->nuser_actuator, &a->user,
                         a->src);
}

/* nJmom: the sum of the rows' bounds of non-zeros in the sparse actuator_moment, as MuJoCo
 * sizes it (mjData's moment_colind and actuator_moment have that many entries) */
static int count_moments(tnCompiler* c) {
  mjModel* m = c->m;
  size_t n = (size_t)m->nv + 1;
  int* cols = malloc(sizeof(int) * n);
  int* mark = calloc(n, sizeof(int));
  if (!cols || !mark) {
    free(cols);
    free(mark);
    return tn__compileFail(c, NULL, NULL, "out of memory");
  }
  long long total = 0;
  for (int i = 0; i < m->nu; i++) {
    total += tn__momentBound(m, i, cols, mark);
  }
  free(cols);
  free(mark);
  if (total > INT_MAX) {
    return tn__compileFail(c, NULL, NULL, "too many actuator moment entries (%lld)", total);
  }
  m->nJmom = (int)total;
  return 1;
}

int tn__compileActuators(tnCompiler* c) {
  int na = 0;
  for (int i = 0; i < c->m->nu; i++) {
    if (!compile_actuator(c, i, &na)) {
      return 0;
    }
  }

  // the size of the sparse moment rows, then engine plugin instances, checked against the
  // actuators they drive
  return count_moments(c) && tn__compilePlugins(c);
}

/* ---------------------------------------------------------------------------------------
 * damping ratio -> damping gain
 * ------------------------------------------------------------------------------------- */

/* sum over the transmission's dofs of dof_M0 / moment^2 (-1: spatial tendon, which needs
 * the pipeline) */
static mjtNum reflected_mass(const mjModel* m, int i) {
  int id = m->actuator_trnid[2 * i];
  const mjtNum* gear = m->actuator_gear + 6 * i;
  mjtNum mass = 0;
  if (m->actuator_trntype[i] == mjTRN_TENDON) {
    // fixed tendons: moment of dof = coef * gear (spatial tendons need kinematics)
    int adr = m->tendon_adr[id];
    for (int w = adr; w < adr + m->tendon_num[id]; w++) {
      if (m->wrap_type[w] != mjWRAP_JOINT) {
        return -1;
      }
    }
    for (int w = adr; w < adr + m->tendon_num[id]; w++) {
      int dof = m->jnt_dofadr[m->wrap_objid[w]];
      mjtNum moment = m->wrap_prm[w] * gear[0];
      if (moment != 0) {
        mass += m->dof_M0[dof] / (moment * moment);
      }
    }
    return mass;
  }

  // site, slider-crank and body transmissions need the pipeline
  if (m->actuator_trntype[i] != mjTRN_JOINT && m->actuator_trntype[i] != mjTRN_JOINTINPARENT) {
    return -1;
  }

  // joints: one moment per dof from the gear
  int adr = m->jnt_dofadr[id];
  int nv = m->jnt_type[id] == mjJNT_FREE ? 6 : m->jnt_type[id] == mjJNT_BALL ? 3 : 1;
  for (int k = 0; k < nv; k++) {
    mjtNum moment = gear[k];
    if (moment != 0) {
      mass += m->dof_M0[adr + k] / (moment * moment);
    }
  }
  return mass;
}

/* a model and its scratch data, for tn_run */
typedef struct pipelineRun_ {
  const mjModel* m;
  mjData* d;
} pipelineRun;

/* the pipeline up to the transmission (under an unwinding point: an arena too small for it
 * makes the mass unavailable instead of crashing the compiler) */
static void pipeline_transmission(void* arg) {
  pipelineRun* r = arg;
  mj_kinematics(r->m, r->d);
  mj_comPos(r->m, r->d);
  mj_tendon(r->m, r->d);
  mj_transmission(r->m, r->d);
}

/* reflected mass through the transmission computed at qpos0 with the pipeline (spatial
 * tendons): sum over dofs of dof_M0 / moment^2; -1 when the pipeline is unavailable */
static mjtNum pipeline_mass(const mjModel* m, mjData** d, int i) {
  if (!*d) {
    *d = mj_makeData(m);
    if (!*d) {
      return -1;
    }
    if (tn_run(*d, pipeline_transmission, (void*)&(pipelineRun){m, *d}, NULL, 0)) {
      return -1;
    }
  }
  mjtNum mass = 0;
  int adr = (*d)->moment_rowadr[i], nnz = (*d)->moment_rownnz[i];
  const mjtNum* moment = (*d)->actuator_moment + adr;
  const int* colind = (*d)->moment_colind + adr;
  for (int k = 0; k < nnz; k++) {
    if (moment[k] != 0) {
      mass += m->dof_M0[colind[k]] / (moment[k] * moment[k]);
    }
  }
  return mass;
}

int tn__compileDampratio(tnCompiler* c) {
  mjModel* m = c->m;
  mjData* d = NULL;
  int ok = 1;
  for (int i = 0; i < m->nu && ok; i++) {
    mjtNum* gain = m->actuator_gainprm + mjNGAIN * i;
    mjtNum* bias = m->actuator_biasprm + mjNBIAS * i;
    int servo = m->actuator_gaintype[i] == mjGAIN_FIXED &&
                m->actuator_biastype[i] == mjBIAS_AFFINE && gain[0] == -bias[1];
    if (!servo || bias[2] <= 0) {
      continue;
    }

    // reflected inertia at qpos0, directly for joints and fixed tendons (no moment: zero)
    mjtNum mass = reflected_mass(m, i);
    if (mass < 0) {
      mass = pipeline_mass(m, &d, i);
    }
    if (mass < 0) {
      const tnSpecActuator* a = TN_AT(c->spec->actuators, tnSpecActuator, i);
      ok = tn__compileFail(c, a->src, "dampratio", "out of memory computing the inertia");
      break;
    }
    bias[2] = -bias[2] * 2 * sqrt(gain[0] * mass);
  }
  mj_deleteData(d);
  return ok;
}
