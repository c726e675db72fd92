/* spec/spec_copyback.c — mj_copyBack: the real-valued fields of a compiled model written
 * back into the spec it came from (MuJoCo's decompiler), so that saving the spec as MJCF
 * keeps edits made to mjModel arrays (mj_saveLastXML).
 *
 * Elements are matched to the model by their compiled ids (tn__specAssignIds); the spec
 * must hold as many elements of each kind as the model. What is copied follows MuJoCo:
 * options; body, joint, geom, site, camera and light poses and parameters; materials,
 * pairs, equalities, tendons, actuators, sensors (cutoff, noise), numeric and tuple data,
 * keyframes, user data. Poses from the model replace the spec's alternative orientations
 * and geom/site fromto; inertials are copied only for bodies with an explicit inertial
 * (the others keep taking theirs from geoms). Angles come back in radians, so the spec's
 * compiler switches to radians and the orientations that are not copied (frames, elements
 * inside frames, whose model poses are relative to the body) are converted. */
#include <math.h>
#include <string.h>

#include "spec/spec_tree.h"

/* copy n doubles */
static void copy_d(double* dst, const mjtNum* src, int n) {
  for (int i = 0; i < n; i++) {
    dst[i] = src[i];
  }
}

/* copy n floats */
static void copy_f(float* dst, const float* src, int n) {
  memcpy(dst, src, sizeof(float) * (size_t)n);
}

/* an orientation given in degrees, expressed in radians */
static void alt_to_radian(mjsOrientation* alt) {
  const double k = mjPI / 180;
  alt->axisangle[3] *= k;
  for (int i = 0; i < 3; i++) {
    alt->euler[i] *= k;
  }
}

/* a pose from the model: pos and quat, alternatives dropped */
static void set_pose(double pos[3], double quat[4], mjsOrientation* alt, const mjtNum* mpos,
                     const mjtNum* mquat) {
  copy_d(pos, mpos, 3);
  copy_d(quat, mquat, 4);
  alt->type = mjORIENTATION_QUAT;
}

/* user data of one element (n values), when the model has any */
static void set_user(void* h, const mjtNum* src, int n) {
  if (n > 0) {
    tn__specSetArray(h, src, n);
  }
}

/* the number of elements of each kind in the spec (ids assigned) matches the model */
static int same_sizes(const tnsSpec* s, const mjModel* m) {
  int count[mjNOBJECT] = {0};
  for (const tnsNode* n = s->head; n; n = n->next) {
    if (!n->deleted && !n->hidden && n->type < mjNOBJECT && n->id >= 0) {
      count[n->type]++;
    }
  }
  const struct {
    int type;
    mjtSize n;
  } sizes[] = {{mjOBJ_BODY, m->nbody},       {mjOBJ_JOINT, m->njnt},   {mjOBJ_GEOM, m->ngeom},
               {mjOBJ_SITE, m->nsite},       {mjOBJ_CAMERA, m->ncam},  {mjOBJ_LIGHT, m->nlight},
               {mjOBJ_MATERIAL, m->nmat},    {mjOBJ_PAIR, m->npair},   {mjOBJ_EQUALITY, m->neq},
               {mjOBJ_TENDON, m->ntendon},   {mjOBJ_ACTUATOR, m->nu},  {mjOBJ_SENSOR, m->nsensor},
               {mjOBJ_NUMERIC, m->nnumeric}, {mjOBJ_TUPLE, m->ntuple}, {mjOBJ_KEY, m->nkey}};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
    if (count[sizes[i].type] != sizes[i].n) {
      return 0;
    }
  }
  return 1;
}

/* tree elements: bodies, joints, geoms, sites, cameras, lights */
static void copy_tree_node(tnsNode* n, const mjModel* m) {
  int i = n->id;
  int framed = n->frame != NULL;
  switch (n->type) {
    case mjOBJ_BODY: {
      mjsBody* b = &n->u.body;
      if (framed) {
        alt_to_radian(&b->alt);
      } else {
        set_pose(b->pos, b->quat, &b->alt, m->body_pos + 3 * i, m->body_quat + 4 * i);
      }
      if (!isnan(b->ipos[0])) {
        set_pose(b->ipos, b->iquat, &b->ialt, m->body_ipos + 3 * i, m->body_iquat + 4 * i);
        b->mass = m->body_mass[i];
        copy_d(b->inertia, m->body_inertia + 3 * i, 3);
        b->fullinertia[0] = NAN;
      } else {
        alt_to_radian(&b->ialt);
      }
      set_user(b->userdata, m->body_user + m->nuser_body * i, (int)m->nuser_body);
      break;
    }
    case mjOBJ_JOINT: {
      mjsJoint* j = &n->u.joint;
      int dof = m->jnt_dofadr[i], adr = m->jnt_qposadr[i];
      if (j->type == mjJNT_SLIDE || j->type == mjJNT_HINGE) {
        j->ref = m->qpos0[adr];
        j->springref = m->qpos_spring[adr];
      }
      copy_d(j->pos, m->jnt_pos + 3 * i, 3);
      copy_d(j->axis, m->jnt_axis + 3 * i, 3);
      j->stiffness[0] = m->jnt_stiffness[i];
      copy_d(j->range, m->jnt_range + 2 * i, 2);
      copy_d(j->solref_limit, m->jnt_solref + mjNREF * i, mjNREF);
      copy_d(j->solimp_limit, m->jnt_solimp + mjNIMP * i, mjNIMP);
      j->margin = m->jnt_margin[i];
      copy_d(j->solref_friction, m->dof_solref + mjNREF * dof, mjNREF);
      copy_d(j->solimp_friction, m->dof_solimp + mjNIMP * dof, mjNIMP);
      j->armature = m->dof_armature[dof];
      j->damping[0] = m->dof_damping[dof];
      j->frictionloss = m->dof_frictionloss[dof];
      set_user(j->userdata, m->jnt_user + m->nuser_jnt * i, (int)m->nuser_jnt);
      break;
    }
    case mjOBJ_GEOM: {
      mjsGeom* g = &n->u.geom;
      copy_d(g->size, m->geom_size + 3 * i, 3);
      if (framed) {
        alt_to_radian(&g->alt);
      } else {
        set_pose(g->pos, g->quat, &g->alt, m->geom_pos + 3 * i, m->geom_quat + 4 * i);
        g->fromto[0] = NAN;
      }
      copy_d(g->friction, m->geom_friction + 3 * i, 3);
      copy_d(g->solref, m->geom_solref + mjNREF * i, mjNREF);
      copy_d(g->solimp, m->geom_solimp + mjNIMP * i, mjNIMP);
      copy_f(g->rgba, m->geom_rgba + 4 * i, 4);
      g->solmix = m->geom_solmix[i];
      g->margin = m->geom_margin[i];
      g->gap = m->geom_gap[i];
      set_user(g->userdata, m->geom_user + m->nuser_geom * i, (int)m->nuser_geom);
      break;
    }
    case mjOBJ_SITE: {
      mjsSite* st = &n->u.site;
      copy_d(st->size, m->site_size + 3 * i, 3);
      if (framed) {
        alt_to_radian(&st->alt);
      } else {
        set_pose(st->pos, st->quat, &st->alt, m->site_pos + 3 * i, m->site_quat + 4 * i);
        st->fromto[0] = NAN;
      }
      copy_f(st->rgba, m->site_rgba + 4 * i, 4);
      set_user(st->userdata, m->site_user + m->nuser_site * i, (int)m->nuser_site);
      break;
    }
    case mjOBJ_CAMERA: {
      mjsCamera* c = &n->u.camera;
      if (framed) {
        alt_to_radian(&c->alt);
      } else {
        set_pose(c->pos, c->quat, &c->alt, m->cam_pos + 3 * i, m->cam_quat + 4 * i);
      }
      c->fovy = m->cam_fovy[i];
      c->ipd = m->cam_ipd[i];
      set_user(c->userdata, m->cam_user + m->nuser_cam * i, (int)m->nuser_cam);
      break;
    }
    case mjOBJ_LIGHT: {
      mjsLight* l = &n->u.light;
      if (!framed) {
        copy_d(l->pos, m->light_pos + 3 * i, 3);
        copy_d(l->dir, m->light_dir + 3 * i, 3);
      }
      copy_f(l->attenuation, m->light_attenuation + 3 * i, 3);
      l->cutoff = m->light_cutoff[i];
      l->exponent = m->light_exponent[i];
      copy_f(l->ambient, m->light_ambient + 3 * i, 3);
      copy_f(l->diffuse, m->light_diffuse + 3 * i, 3);
      copy_f(l->specular, m->light_specular + 3 * i, 3);
      break;
    }
    default: break;
  }
}

/* elements outside the tree */
static void copy_global_node(tnsNode* n, const mjModel* m) {
  int i = n->id;
  switch (n->type) {
    case mjOBJ_MATERIAL: {
      mjsMaterial* t = &n->u.material;
      copy_f(t->texrepeat, m->mat_texrepeat + 2 * i, 2);
      t->emission = m->mat_emission[i];
      t->specular = m->mat_specular[i];
      t->shininess = m->mat_shininess[i];
      t->reflectance = m->mat_reflectance[i];
      copy_f(t->rgba, m->mat_rgba + 4 * i, 4);
      break;
    }
    case mjOBJ_PAIR: {
      mjsPair* p = &n->u.pair;
      copy_d(p->solref, m->pair_solref + mjNREF * i, mjNREF);
      copy_d(p->solimp, m->pair_solimp + mjNIMP * i, mjNIMP);
      p->margin = m->pair_margin[i];
      p->gap = m->pair_gap[i];
      copy_d(p->friction, m->pair_friction + 5 * i, 5);
      break;
    }
    case mjOBJ_EQUALITY: {
      mjsEquality* e = &n->u.equality;
      copy_d(e->data, m->eq_data + mjNEQDATA * i, mjNEQDATA);
      copy_d(e->solref, m->eq_solref + mjNREF * i, mjNREF);
      copy_d(e->solimp, m->eq_solimp + mjNIMP * i, mjNIMP);
      break;
    }
    case mjOBJ_TENDON: {
      mjsTendon* t = &n->u.tendon;
      copy_d(t->range, m->tendon_range + 2 * i, 2);
      copy_d(t->solref_limit, m->tendon_solref_lim + mjNREF * i, mjNREF);
      copy_d(t->solimp_limit, m->tendon_solimp_lim + mjNIMP * i, mjNIMP);
      copy_d(t->solref_friction, m->tendon_solref_fri + mjNREF * i, mjNREF);
      copy_d(t->solimp_friction, m->tendon_solimp_fri + mjNIMP * i, mjNIMP);
      copy_f(t->rgba, m->tendon_rgba + 4 * i, 4);
      t->width = m->tendon_width[i];
      t->margin = m->tendon_margin[i];
      t->stiffness[0] = m->tendon_stiffness[i];
      t->damping[0] = m->tendon_damping[i];
      t->frictionloss = m->tendon_frictionloss[i];
      set_user(t->userdata, m->tendon_user + m->nuser_tendon * i, (int)m->nuser_tendon);
      break;
    }
    case mjOBJ_ACTUATOR: {
      mjsActuator* a = &n->u.actuator;
      copy_d(a->dynprm, m->actuator_dynprm + mjNDYN * i, mjNDYN);
      copy_d(a->gainprm, m->actuator_gainprm + mjNGAIN * i, mjNGAIN);
      copy_d(a->biasprm, m->actuator_biasprm + mjNBIAS * i, mjNBIAS);
      copy_d(a->ctrlrange, m->actuator_ctrlrange + 2 * i, 2);
      copy_d(a->forcerange, m->actuator_forcerange + 2 * i, 2);
      copy_d(a->actrange, m->actuator_actrange + 2 * i, 2);
      copy_d(a->lengthrange, m->actuator_lengthrange + 2 * i, 2);
      copy_d(a->gear, m->actuator_gear + 6 * i, 6);
      a->cranklength = m->actuator_cranklength[i];
      set_user(a->userdata, m->actuator_user + m->nuser_actuator * i, (int)m->nuser_actuator);
      break;
    }
    case mjOBJ_SENSOR: {
      mjsSensor* t = &n->u.sensor;
      t->cutoff = m->sensor_cutoff[i];
      t->noise = m->sensor_noise[i];
      set_user(t->userdata, m->sensor_user + m->nuser_sensor * i, (int)m->nuser_sensor);
      break;
    }
    case mjOBJ_NUMERIC:
      tn__specSetArray(n->u.numeric.data, m->numeric_data + m->numeric_adr[i], m->numeric_size[i]);
      break;
    case mjOBJ_TUPLE:
      tn__specSetArray(n->u.tuple.objprm, m->tuple_objprm + m->tuple_adr[i], m->tuple_size[i]);
      break;
    case mjOBJ_KEY: {
      mjsKey* k = &n->u.key;
      k->time = m->key_time[i];
      tn__specSetArray(k->qpos, m->key_qpos + m->nq * i, (int)m->nq);
      tn__specSetArray(k->qvel, m->key_qvel + m->nv * i, (int)m->nv);
      tn__specSetArray(k->act, m->key_act + m->na * i, (int)m->na);
      tn__specSetArray(k->mpos, m->key_mpos + 3 * m->nmocap * i, 3 * (int)m->nmocap);
      tn__specSetArray(k->mquat, m->key_mquat + 4 * m->nmocap * i, 4 * (int)m->nmocap);
      tn__specSetArray(k->ctrl, m->key_ctrl + m->nu * i, (int)m->nu);
      break;
    }
    default: break;
  }
}

/* copy the model's real-valued arrays into the spec; 1 on success, 0 with the error in
 * mjs_getError(s) */
int mj_copyBack(mjSpec* spec, const mjModel* m) {
  if (!spec) {
    mju_error("mj_copyBack: spec is NULL");
    return 0;
  }
  tnsSpec* s = TNS_SPEC(spec);
  if (!m) {
    tn__specError(s, "mjModel pointer is null in CopyBack");
    return 0;
  }
  tn__specAssignIds(s);
  if (!same_sizes(s, m)) {
    tn__specError(s, "incompatible models in CopyBack");
    return 0;
  }

  // options; angles from here on are radians
  spec->option = m->opt;
  if (spec->compiler.degree) {
    spec->compiler.degree = 0;
    for (tnsNode* n = s->head; n; n = n->next) {
      if (n->type == mjOBJ_FRAME && !n->deleted) {
        alt_to_radian(&n->u.frame.alt);
      }
    }
  }

  // free joints place their bodies by qpos0 (body_pos, copied after, normally agrees)
  for (tnsNode* n = s->head; n; n = n->next) {
    if (n->type == mjOBJ_JOINT && n->id >= 0 && !n->deleted && !n->hidden &&
        n->u.joint.type == mjJNT_FREE && n->parent && !n->parent->frame) {
      mjsBody* b = &n->parent->u.body;
      const mjtNum* q = m->qpos0 + m->jnt_qposadr[n->id];
      set_pose(b->pos, b->quat, &b->alt, q, q + 3);
    }
  }

  // every compiled element
  for (tnsNode* n = s->head; n; n = n->next) {
    if (n->deleted || n->hidden || n->id < 0 || n->type >= mjNOBJECT) {
      continue;
    }
    copy_tree_node(n, m);
    copy_global_node(n, m);
  }
  return 1;
}
