/* compiler/compile_custom.c — <custom> data (numeric, text, tuple) and keyframes. Keyframe
 * arrays not given take the model defaults (qpos0, zero velocities, activations and
 * controls, mocap bodies at their body poses); given arrays must have the exact size. */
#include <string.h>

#include "compiler/compile_internal.h"

/* numeric, text and tuple elements */
int tn__compileCustom(tnCompiler* c) {
  mjModel* m = c->m;
  const tnSpec* s = c->spec;
  int adr = 0;
  for (int i = 0; i < m->nnumeric; i++) {
    const tnSpecNumeric* n = TN_AT(s->numerics, tnSpecNumeric, i);
    int size = n->size > n->ndata ? n->size : n->ndata;
    m->numeric_adr[i] = adr;
    m->numeric_size[i] = size;
    if (n->ndata) {
      mju_copy(m->numeric_data + adr, n->data, n->ndata);
    }
    adr += size;
  }
  adr = 0;
  for (int i = 0; i < m->ntext; i++) {
    const char* data = TN_AT(s->texts, tnSpecText, i)->data;
    int len = (int)strlen(data) + 1;
    m->text_adr[i] = adr;
    m->text_size[i] = len;
    memcpy(m->text_data + adr, data, (size_t)len);
    adr += len;
  }
  for (int i = 0; i < m->ntuple; i++) {
    const tnSpecTuple* t = TN_AT(s->tuples, tnSpecTuple, i);
    m->tuple_adr[i] = t->adr;
    m->tuple_size[i] = t->num;
    for (int k = t->adr; k < t->adr + t->num; k++) {
      const tnSpecTupleElem* e = TN_AT(s->tuple_elems, tnSpecTupleElem, k);
      m->tuple_objtype[k] = e->objtype;
      m->tuple_objprm[k] = e->prm;
      m->tuple_objid[k] = tn__compileRequire(c, e->objtype, e->objname, e->src, "objname");
      if (m->tuple_objid[k] < 0) {
        return 0;
      }
    }
  }
  return 1;
}

/* copy a keyframe array given with at most n values; the rest is zero-padded (MuJoCo's
 * rule). `exact`: a shorter array is ignored (mocap arrays). */
static int key_array(tnCompiler* c, const tnSpecKey* k, const char* attr, mjtNum* dst,
                     const mjtNum* src, int given, int n, int exact) {
  if (given < 0 || (exact && given < n)) {
    return 1;
  }
  if (given > n) {
    return tn__compileFail(c, k->src, attr, "expected at most %d values, got %d", n, given);
  }
  mju_zero(dst, n);
  if (given) {
    mju_copy(dst, src, given);
  }
  return 1;
}

/* unit quaternions in a keyframe (zero -> identity) */
static void key_normalize(mjModel* m, mjtNum* qpos, mjtNum* mquat) {
  for (int j = 0; j < m->njnt; j++) {
    int type = m->jnt_type[j];
    if (type == mjJNT_FREE || type == mjJNT_BALL) {
      mju_normalize4(qpos + m->jnt_qposadr[j] + (type == mjJNT_FREE ? 3 : 0));
    }
  }
  for (int i = 0; i < m->nmocap; i++) {
    mju_normalize4(mquat + 4 * i);
  }
}

/* keyframes (and the extra default keys requested by <size nkey>) */
int tn__compileKeys(tnCompiler* c) {
  mjModel* m = c->m;
  for (int i = 0; i < m->nkey; i++) {
    mjtNum* qpos = m->key_qpos + m->nq * i;
    mjtNum* mpos = m->key_mpos + 3 * m->nmocap * i;
    mjtNum* mquat = m->key_mquat + 4 * m->nmocap * i;

    // defaults
    mju_copy(qpos, m->qpos0, m->nq);
    for (int b = 0; b < m->nbody; b++) {
      int id = m->body_mocapid[b];
      if (id >= 0) {
        mju_copy3(mpos + 3 * id, m->body_pos + 3 * b);
        mju_copy4(mquat + 4 * id, m->body_quat + 4 * b);
      }
    }
    if (i >= c->spec->keys.n) {
      continue;
    }

    // given values
    const tnSpecKey* k = TN_AT(c->spec->keys, tnSpecKey, i);
    m->key_time[i] = k->time;
    if (tn__compileKeyMapped(c, i, k)) {
      key_normalize(m, qpos, mquat);
      continue;
    }
    if (!key_array(c, k, "qpos", qpos, k->qpos, k->nqpos, m->nq, 0) ||
        !key_array(c, k, "qvel", m->key_qvel + m->nv * i, k->qvel, k->nqvel, m->nv, 0) ||
        !key_array(c, k, "act", m->key_act + m->na * i, k->act, k->nact, m->na, 0) ||
        !key_array(c, k, "ctrl", m->key_ctrl + m->nu * i, k->ctrl, k->nctrl, m->nu, 0) ||
        !key_array(c, k, "mpos", mpos, k->mpos, k->nmpos, 3 * m->nmocap, 1) ||
        !key_array(c, k, "mquat", mquat, k->mquat, k->nmquat, 4 * m->nmocap, 1)) {
      return 0;
    }
    key_normalize(m, qpos, mquat);
  }
  return 1;
}
