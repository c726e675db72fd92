/* spec/spec_recompile.c — mj_recompile: compile an edited spec into an existing model and
 * carry the simulation state over. The model and data keep their addresses (their contents
 * are replaced); joints, actuators, mocap bodies and equalities that existed in the previous
 * compilation keep their positions, velocities, controls, activations, mocap poses and
 * active flags; new ones start from their reference values. Nothing is recomputed from the
 * state (as in MuJoCo, call mj_forward to refresh positions and forces). */
#include <stdlib.h>
#include <string.h>

#include "spec/spec_tree.h"

/* number of position coordinates of a joint type */
static int qpos_size(int type) {
  return type == mjJNT_FREE ? 7 : type == mjJNT_BALL ? 4 : 1;
}

static int dof_size(int type) {
  return type == mjJNT_FREE ? 6 : type == mjJNT_BALL ? 3 : 1;
}

/* copy the state of element types whose old (previous compile) and new ids are known */
static void carry_state(const tnsSpec* s, const int* old_ids, const mjModel* m0, const mjData* d0,
                        const mjModel* m, mjData* d) {
  d->time = d0->time;
  int k = 0;
  for (const tnsNode* n = s->head; n; n = n->next, k++) {
    int o = old_ids[k], i = n->id;
    if (o < 0 || i < 0 || n->deleted || n->hidden) {
      continue;
    }
    switch (n->type) {
      case mjOBJ_JOINT:
        if (o < m0->njnt && m0->jnt_type[o] == m->jnt_type[i]) {
          int t = m->jnt_type[i];
          memcpy(d->qpos + m->jnt_qposadr[i], d0->qpos + m0->jnt_qposadr[o],
                 sizeof(mjtNum) * (size_t)qpos_size(t));
          memcpy(d->qvel + m->jnt_dofadr[i], d0->qvel + m0->jnt_dofadr[o],
                 sizeof(mjtNum) * (size_t)dof_size(t));
        }
        break;
      case mjOBJ_ACTUATOR:
        if (o < m0->nu) {
          d->ctrl[i] = d0->ctrl[o];
          if (m->actuator_actnum[i] == m0->actuator_actnum[o] && m->actuator_actnum[i] > 0) {
            memcpy(d->act + m->actuator_actadr[i], d0->act + m0->actuator_actadr[o],
                   sizeof(mjtNum) * (size_t)m->actuator_actnum[i]);
          }
        }
        break;
      case mjOBJ_BODY:
        if (o < m0->nbody && m0->body_mocapid[o] >= 0 && m->body_mocapid[i] >= 0) {
          int a = m0->body_mocapid[o], b = m->body_mocapid[i];
          memcpy(d->mocap_pos + 3 * b, d0->mocap_pos + 3 * a, 3 * sizeof(mjtNum));
          memcpy(d->mocap_quat + 4 * b, d0->mocap_quat + 4 * a, 4 * sizeof(mjtNum));
        }
        break;
      case mjOBJ_EQUALITY:
        if (o < m0->neq) {
          d->eq_active[i] = d0->eq_active[o];
        }
        break;
      default: break;
    }
  }
  int nuser = m->nuserdata < m0->nuserdata ? (int)m->nuserdata : (int)m0->nuserdata;
  memcpy(d->userdata, d0->userdata, sizeof(mjtNum) * (size_t)nuser);
}

int mj_recompile(mjSpec* spec, const mjVFS* vfs, mjModel* m, mjData* d) {
  if (!spec || !m) {
    mju_error("mj_recompile: spec and model are required");
    return -1;
  }
  tnsSpec* s = TNS_SPEC(spec);
  int count = 0;
  for (tnsNode* n = s->head; n; n = n->next) {
    count++;
  }
  int* old_ids = malloc(sizeof(int) * (size_t)(count ? count : 1));
  if (!old_ids) {
    tn__specError(s, "mj_recompile: out of memory");
    return -1;
  }
  int k = 0;
  for (tnsNode* n = s->head; n; n = n->next) {
    old_ids[k++] = n->id;
  }
  mjModel* fresh = tn__specCompile(s, vfs);
  mjData* fresh_data = fresh && d ? mj_makeData(fresh) : NULL;
  if (!fresh || (d && !fresh_data)) {
    mj_deleteModel(fresh);
    free(old_ids);
    return -1;
  }
  if (d) {
    carry_state(s, old_ids, m, d, fresh, fresh_data);
    // the caller's data takes the new contents
    free(d->buffer);
    free(d->arena);
    free(d->contact);
    *d = *fresh_data;
    free(fresh_data);
  }
  free(old_ids);
  free(m->buffer);
  *m = *fresh;
  free(fresh);
  return 0;
}
