/* compiler/compile_keymap.c — keyframes brought along by <attach>: the child model's arrays
 * placed object by object (see tnSpecKeyMap): each run of values goes to the joint's qpos or
 * dofs, the actuator's control or the mocap body's pose read from its target element. */
#include "compiler/compile_internal.h"

/* spec index of the element read from `src` in a spec array, -1 when none */
#define FIND_SRC(vec, type, node, out)                  \
  do {                                                  \
    (out) = -1;                                         \
    for (int i_ = 0; i_ < (vec).n; i_++) {              \
      if (TN_AT(vec, type, i_)->src == (node)) {        \
        (out) = i_;                                     \
        break;                                          \
      }                                                 \
    }                                                   \
  } while (0)

/* the attached-keyframe map of key k, NULL for keys of this model */
static const tnSpecKeyMap* find_map(const tnSpec* s, const tnSpecKey* k) {
  for (int i = 0; i < s->keymaps.n; i++) {
    const tnSpecKeyMap* map = TN_AT(s->keymaps, tnSpecKeyMap, i);
    if (map->key == k->src) {
      return map;
    }
  }
  return NULL;
}

/* copy values from..from+n-1 of a child array given with `given` values (absent: -1) */
static void copy_run(mjtNum* dst, const mjtNum* src, int given, int from, int n) {
  for (int j = 0; j < n && from + j < given; j++) {
    dst[j] = src[from + j];
  }
}

/* one run of values into key i */
static void place_run(tnCompiler* c, int i, const tnSpecKey* k, const tnSpecKeySeg* seg) {
  mjModel* m = c->m;
  const tnSpec* s = c->spec;
  int idx;
  switch (seg->field) {
    case TN_KEY_QPOS:
    case TN_KEY_QVEL:
      FIND_SRC(s->joints, tnSpecJoint, seg->target, idx);
      if (idx >= 0) {
        int id = c->jnt_id[idx];
        if (seg->field == TN_KEY_QPOS) {
          copy_run(m->key_qpos + m->nq * i + m->jnt_qposadr[id], k->qpos, k->nqpos, seg->from,
                   seg->n);
        } else {
          copy_run(m->key_qvel + m->nv * i + m->jnt_dofadr[id], k->qvel, k->nqvel, seg->from,
                   seg->n);
        }
      }
      break;
    case TN_KEY_CTRL:
      FIND_SRC(s->actuators, tnSpecActuator, seg->target, idx);
      if (idx >= 0) {
        copy_run(m->key_ctrl + m->nu * i + idx, k->ctrl, k->nctrl, seg->from, seg->n);
      }
      break;
    default:
      FIND_SRC(s->bodies, tnSpecBody, seg->target, idx);
      if (idx >= 0 && m->body_mocapid[idx] >= 0) {
        int id = m->body_mocapid[idx];
        if (seg->field == TN_KEY_MPOS && k->nmpos >= seg->from + 3) {
          copy_run(m->key_mpos + 3 * (m->nmocap * i + id), k->mpos, k->nmpos, seg->from, 3);
        } else if (seg->field == TN_KEY_MQUAT && k->nmquat >= seg->from + 4) {
          copy_run(m->key_mquat + 4 * (m->nmocap * i + id), k->mquat, k->nmquat, seg->from, 4);
        }
      }
      break;
  }
}

/* key i from an attached keyframe: 1 when placed, 0 when k is not one */
int tn__compileKeyMapped(tnCompiler* c, int i, const tnSpecKey* k) {
  const tnSpecKeyMap* map = find_map(c->spec, k);
  if (!map) {
    return 0;
  }
  for (int j = 0; j < map->nseg; j++) {
    place_run(c, i, k, TN_AT(c->spec->keysegs, tnSpecKeySeg, map->seg_adr + j));
  }
  return 1;
}
