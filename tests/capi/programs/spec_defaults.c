/* spec_defaults.c — the default values of MuJoCo's model-editing structs: every mjs_default*
 * initializer, the elements mjs_add* creates in a fresh spec, and the spec's own settings.
 * Written against MuJoCo's C API only; MJ_INCLUDE names the header. No arguments. */
#include <stdio.h>
#include <string.h>
#include MJ_INCLUDE

/* print n numbers of any arithmetic type after a label */
#define PV(label, arr, n)                                   \
  do {                                                      \
    printf("%s", label);                                    \
    for (int i_ = 0; i_ < (n); i_++) printf(" %.12g", (double)(arr)[i_]); \
    printf("\n");                                           \
  } while (0)
#define PS(label, x) printf("%s %.12g\n", label, (double)(x))

static void print_orient(const char* who, const mjsOrientation* o) {
  printf("%s alt type %d\n", who, (int)o->type);
  PV(" axisangle", o->axisangle, 4);
  PV(" xyaxes", o->xyaxes, 6);
  PV(" zaxis", o->zaxis, 3);
  PV(" euler", o->euler, 3);
}

static void print_body(const mjsBody* b) {
  PV("body pos", b->pos, 3);
  PV("body quat", b->quat, 4);
  print_orient("body", &b->alt);
  PS("body mass", b->mass);
  PV("body ipos", b->ipos, 3);
  PV("body iquat", b->iquat, 4);
  PV("body inertia", b->inertia, 3);
  print_orient("body i", &b->ialt);
  PV("body fullinertia", b->fullinertia, 6);
  PS("body mocap", b->mocap);
  PS("body gravcomp", b->gravcomp);
  PS("body explicitinertial", b->explicitinertial);
}

static void print_joint(const mjsJoint* j) {
  PS("joint type", j->type);
  PV("joint pos", j->pos, 3);
  PV("joint axis", j->axis, 3);
  PS("joint ref", j->ref);
  PS("joint align", j->align);
  PV("joint stiffness", j->stiffness, mjNPOLY + 1);
  PS("joint springref", j->springref);
  PV("joint springdamper", j->springdamper, 2);
  PS("joint limited", j->limited);
  PV("joint range", j->range, 2);
  PS("joint margin", j->margin);
  PV("joint solref_limit", j->solref_limit, mjNREF);
  PV("joint solimp_limit", j->solimp_limit, mjNIMP);
  PS("joint actfrclimited", j->actfrclimited);
  PV("joint actfrcrange", j->actfrcrange, 2);
  PS("joint armature", j->armature);
  PV("joint damping", j->damping, mjNPOLY + 1);
  PS("joint frictionloss", j->frictionloss);
  PV("joint solref_friction", j->solref_friction, mjNREF);
  PV("joint solimp_friction", j->solimp_friction, mjNIMP);
  PS("joint group", j->group);
  PS("joint actgravcomp", j->actgravcomp);
}

static void print_geom(const mjsGeom* g) {
  PS("geom type", g->type);
  PV("geom pos", g->pos, 3);
  PV("geom quat", g->quat, 4);
  print_orient("geom", &g->alt);
  PV("geom fromto", g->fromto, 6);
  PV("geom size", g->size, 3);
  PS("geom contype", g->contype);
  PS("geom conaffinity", g->conaffinity);
  PS("geom condim", g->condim);
  PS("geom priority", g->priority);
  PV("geom friction", g->friction, 3);
  PS("geom solmix", g->solmix);
  PV("geom solref", g->solref, mjNREF);
  PV("geom solimp", g->solimp, mjNIMP);
  PS("geom margin", g->margin);
  PS("geom gap", g->gap);
  PV("geom surfacevel", g->surfacevel, 6);
  PS("geom adhesion", g->adhesion);
  PS("geom mass", g->mass);
  PS("geom density", g->density);
  PS("geom typeinertia", g->typeinertia);
  PS("geom fluid_ellipsoid", g->fluid_ellipsoid);
  PV("geom fluid_coefs", g->fluid_coefs, 5);
  PV("geom rgba", g->rgba, 4);
  PS("geom group", g->group);
  PS("geom fitscale", g->fitscale);
}

static void print_site(const mjsSite* s) {
  PV("site pos", s->pos, 3);
  PV("site quat", s->quat, 4);
  print_orient("site", &s->alt);
  PV("site fromto", s->fromto, 6);
  PV("site size", s->size, 3);
  PS("site type", s->type);
  PS("site group", s->group);
  PV("site rgba", s->rgba, 4);
}

static void print_camera(const mjsCamera* c) {
  PV("camera pos", c->pos, 3);
  PV("camera quat", c->quat, 4);
  print_orient("camera", &c->alt);
  PS("camera mode", c->mode);
  PS("camera proj", c->proj);
  PV("camera resolution", c->resolution, 2);
  PS("camera output", c->output);
  PS("camera fovy", c->fovy);
  PS("camera ipd", c->ipd);
  PV("camera intrinsic", c->intrinsic, 4);
  PV("camera sensor_size", c->sensor_size, 2);
  PV("camera focal_length", c->focal_length, 2);
  PV("camera focal_pixel", c->focal_pixel, 2);
  PV("camera principal_length", c->principal_length, 2);
  PV("camera principal_pixel", c->principal_pixel, 2);
}

static void print_light(const mjsLight* l) {
  PV("light pos", l->pos, 3);
  PV("light dir", l->dir, 3);
  PS("light mode", l->mode);
  PS("light active", l->active);
  PS("light type", l->type);
  PS("light castshadow", l->castshadow);
  PS("light bulbradius", l->bulbradius);
  PS("light intensity", l->intensity);
  PS("light range", l->range);
  PV("light attenuation", l->attenuation, 3);
  PS("light cutoff", l->cutoff);
  PS("light softness", l->softness);
  PS("light exponent", l->exponent);
  PV("light ambient", l->ambient, 3);
  PV("light diffuse", l->diffuse, 3);
  PV("light specular", l->specular, 3);
}

static void print_frame(const mjsFrame* f) {
  PV("frame pos", f->pos, 3);
  PV("frame quat", f->quat, 4);
  print_orient("frame", &f->alt);
}

static void print_flex(const mjsFlex* f) {
  PS("flex contype", f->contype);
  PS("flex conaffinity", f->conaffinity);
  PS("flex condim", f->condim);
  PS("flex priority", f->priority);
  PV("flex friction", f->friction, 3);
  PS("flex solmix", f->solmix);
  PV("flex solref", f->solref, mjNREF);
  PV("flex solimp", f->solimp, mjNIMP);
  PS("flex margin", f->margin);
  PS("flex gap", f->gap);
  PS("flex dim", f->dim);
  PS("flex radius", f->radius);
  PV("flex size", f->size, 3);
  PS("flex internal", f->internal);
  PS("flex flatskin", f->flatskin);
  PS("flex selfcollide", f->selfcollide);
  PS("flex passive", f->passive);
  PS("flex activelayers", f->activelayers);
  PS("flex group", f->group);
  PS("flex edgestiffness", f->edgestiffness);
  PS("flex edgedamping", f->edgedamping);
  PV("flex rgba", f->rgba, 4);
  PS("flex young", f->young);
  PS("flex poisson", f->poisson);
  PS("flex damping", f->damping);
  PS("flex thickness", f->thickness);
  PS("flex elastic2d", f->elastic2d);
  PV("flex cellcount", f->cellcount, 3);
  PS("flex order", f->order);
}

static void print_mesh(const mjsMesh* m) {
  PV("mesh refpos", m->refpos, 3);
  PV("mesh refquat", m->refquat, 4);
  PV("mesh scale", m->scale, 3);
  PS("mesh inertia", m->inertia);
  PS("mesh smoothnormal", m->smoothnormal);
  PS("mesh needsdf", m->needsdf);
  PS("mesh maxhullvert", m->maxhullvert);
  PS("mesh octree_maxdepth", m->octree_maxdepth);
}

static void print_hfield(const mjsHField* h) {
  PV("hfield size", h->size, 4);
  PS("hfield nrow", h->nrow);
  PS("hfield ncol", h->ncol);
}

static void print_skin(const mjsSkin* s) {
  PV("skin rgba", s->rgba, 4);
  PS("skin inflate", s->inflate);
  PS("skin group", s->group);
}

static void print_texture(const mjsTexture* t) {
  PS("texture type", t->type);
  PS("texture colorspace", t->colorspace);
  PS("texture builtin", t->builtin);
  PS("texture mark", t->mark);
  PV("texture rgb1", t->rgb1, 3);
  PV("texture rgb2", t->rgb2, 3);
  PV("texture markrgb", t->markrgb, 3);
  PS("texture random", t->random);
  PS("texture height", t->height);
  PS("texture width", t->width);
  PS("texture nchannel", t->nchannel);
  PV("texture gridsize", t->gridsize, 2);
  printf("texture gridlayout '%.12s'\n", t->gridlayout);
  PS("texture hflip", t->hflip);
  PS("texture vflip", t->vflip);
}

static void print_material(const mjsMaterial* m) {
  PS("material texuniform", m->texuniform);
  PV("material texrepeat", m->texrepeat, 2);
  PS("material emission", m->emission);
  PS("material specular", m->specular);
  PS("material shininess", m->shininess);
  PS("material reflectance", m->reflectance);
  PS("material metallic", m->metallic);
  PS("material roughness", m->roughness);
  PV("material rgba", m->rgba, 4);
}

static void print_pair(const mjsPair* p) {
  PS("pair condim", p->condim);
  PV("pair solref", p->solref, mjNREF);
  PV("pair solreffriction", p->solreffriction, mjNREF);
  PV("pair solimp", p->solimp, mjNIMP);
  PS("pair margin", p->margin);
  PS("pair gap", p->gap);
  PS("pair adhesion", p->adhesion);
  PV("pair friction", p->friction, 5);
}

static void print_equality(const mjsEquality* e) {
  PS("equality type", e->type);
  PV("equality data", e->data, mjNEQDATA);
  PS("equality active", e->active);
  PS("equality objtype", e->objtype);
  PV("equality solref", e->solref, mjNREF);
  PV("equality solimp", e->solimp, mjNIMP);
}

static void print_tendon(const mjsTendon* t) {
  PV("tendon stiffness", t->stiffness, mjNPOLY + 1);
  PV("tendon springlength", t->springlength, 2);
  PV("tendon damping", t->damping, mjNPOLY + 1);
  PS("tendon frictionloss", t->frictionloss);
  PV("tendon solref_friction", t->solref_friction, mjNREF);
  PV("tendon solimp_friction", t->solimp_friction, mjNIMP);
  PS("tendon armature", t->armature);
  PS("tendon limited", t->limited);
  PS("tendon actfrclimited", t->actfrclimited);
  PV("tendon range", t->range, 2);
  PV("tendon actfrcrange", t->actfrcrange, 2);
  PS("tendon margin", t->margin);
  PV("tendon solref_limit", t->solref_limit, mjNREF);
  PV("tendon solimp_limit", t->solimp_limit, mjNIMP);
  PS("tendon width", t->width);
  PV("tendon rgba", t->rgba, 4);
  PS("tendon group", t->group);
}

static void print_actuator(const mjsActuator* a) {
  PS("actuator gaintype", a->gaintype);
  PV("actuator gainprm", a->gainprm, mjNGAIN);
  PS("actuator biastype", a->biastype);
  PV("actuator biasprm", a->biasprm, mjNBIAS);
  PS("actuator dyntype", a->dyntype);
  PV("actuator dynprm", a->dynprm, mjNDYN);
  PS("actuator actdim", a->actdim);
  PS("actuator ctrlspec", a->ctrlspec);
  PV("actuator velrange", a->velrange, 2);
  PV("actuator ffrange", a->ffrange, 2);
  PS("actuator actearly", a->actearly);
  PS("actuator trntype", a->trntype);
  PV("actuator gear", a->gear, 6);
  PS("actuator cranklength", a->cranklength);
  PV("actuator lengthrange", a->lengthrange, 2);
  PS("actuator inheritrange", a->inheritrange);
  PV("actuator damping", a->damping, mjNPOLY + 1);
  PS("actuator armature", a->armature);
  PS("actuator ctrllimited", a->ctrllimited);
  PV("actuator ctrlrange", a->ctrlrange, 2);
  PS("actuator forcelimited", a->forcelimited);
  PV("actuator forcerange", a->forcerange, 2);
  PS("actuator actlimited", a->actlimited);
  PV("actuator actrange", a->actrange, 2);
  PS("actuator group", a->group);
  PS("actuator nsample", a->nsample);
  PS("actuator interp", a->interp);
  PS("actuator delay", a->delay);
}

static void print_sensor(const mjsSensor* s) {
  PS("sensor type", s->type);
  PS("sensor objtype", s->objtype);
  PS("sensor reftype", s->reftype);
  PV("sensor intprm", s->intprm, mjNSENS);
  PS("sensor datatype", s->datatype);
  PS("sensor needstage", s->needstage);
  PS("sensor dim", s->dim);
  PS("sensor cutoff", s->cutoff);
  PS("sensor noise", s->noise);
  PS("sensor nsample", s->nsample);
  PS("sensor interp", s->interp);
  PS("sensor delay", s->delay);
  PV("sensor interval", s->interval, 2);
}

static void print_compiler(const mjsCompiler* c) {
  PS("compiler autolimits", c->autolimits);
  PS("compiler boundmass", c->boundmass);
  PS("compiler boundinertia", c->boundinertia);
  PS("compiler settotalmass", c->settotalmass);
  PS("compiler balanceinertia", c->balanceinertia);
  PS("compiler fitaabb", c->fitaabb);
  PS("compiler degree", c->degree);
  printf("compiler eulerseq %.3s\n", c->eulerseq);
  PS("compiler discardvisual", c->discardvisual);
  PS("compiler fusestatic", c->fusestatic);
  PS("compiler inertiafromgeom", c->inertiafromgeom);
  PV("compiler inertiagrouprange", c->inertiagrouprange, 2);
  PS("compiler saveinertial", c->saveinertial);
  PS("compiler alignfree", c->alignfree);
  PS("compiler LRopt.mode", c->LRopt.mode);
  PS("compiler LRopt.useexisting", c->LRopt.useexisting);
  PS("compiler LRopt.uselimit", c->LRopt.uselimit);
  PS("compiler LRopt.accel", c->LRopt.accel);
  PS("compiler LRopt.maxforce", c->LRopt.maxforce);
  PS("compiler LRopt.timeconst", c->LRopt.timeconst);
  PS("compiler LRopt.timestep", c->LRopt.timestep);
  PS("compiler LRopt.inttotal", c->LRopt.inttotal);
  PS("compiler LRopt.interval", c->LRopt.interval);
  PS("compiler LRopt.tolrange", c->LRopt.tolrange);
}

static void print_spec(const mjSpec* s) {
  printf("spec modelname '%s'\n", mjs_getString(s->modelname));
  print_compiler(&s->compiler);
  PS("spec strippath", s->strippath);
  PS("spec option timestep", s->option.timestep);
  PV("spec option gravity", s->option.gravity, 3);
  PS("spec option integrator", s->option.integrator);
  PS("spec option iterations", s->option.iterations);
  PS("spec option tolerance", s->option.tolerance);
  PS("spec memory", s->memory);
  PS("spec nemax", s->nemax);
  PS("spec nuserdata", s->nuserdata);
  PS("spec nuser_body", s->nuser_body);
  PS("spec nuser_jnt", s->nuser_jnt);
  PS("spec nuser_geom", s->nuser_geom);
  PS("spec nuser_site", s->nuser_site);
  PS("spec nuser_cam", s->nuser_cam);
  PS("spec nuser_tendon", s->nuser_tendon);
  PS("spec nuser_actuator", s->nuser_actuator);
  PS("spec nuser_sensor", s->nuser_sensor);
  PS("spec nkey", s->nkey);
  PS("spec njmax", s->njmax);
  PS("spec nconmax", s->nconmax);
  PS("spec nstack", s->nstack);
  PS("spec stat meaninertia", s->stat.meaninertia);
  PS("spec stat meanmass", s->stat.meanmass);
  PS("spec stat meansize", s->stat.meansize);
  PS("spec stat extent", s->stat.extent);
  PV("spec stat center", s->stat.center, 3);
}

int main(void) {
  // the initializers on zeroed-then-scribbled structs
  static mjsBody body;
  static mjsJoint joint;
  static mjsGeom geom;
  static mjsSite site;
  static mjsCamera camera;
  static mjsLight light;
  static mjsFrame frame;
  static mjsMesh mesh;
  static mjsHField hfield;
  static mjsSkin skin;
  static mjsTexture texture;
  static mjsMaterial material;
  static mjsPair pair;
  static mjsEquality equality;
  static mjsTendon tendon;
  static mjsActuator actuator;
  static mjsSensor sensor;
  mjs_defaultBody(&body);
  print_body(&body);
  mjs_defaultJoint(&joint);
  print_joint(&joint);
  mjs_defaultGeom(&geom);
  print_geom(&geom);
  mjs_defaultSite(&site);
  print_site(&site);
  mjs_defaultCamera(&camera);
  print_camera(&camera);
  mjs_defaultLight(&light);
  print_light(&light);
  mjs_defaultFrame(&frame);
  print_frame(&frame);
  mjs_defaultMesh(&mesh);
  print_mesh(&mesh);
  static mjsFlex flex;
  mjs_defaultFlex(&flex);
  print_flex(&flex);
  mjs_defaultHField(&hfield);
  print_hfield(&hfield);
  mjs_defaultSkin(&skin);
  print_skin(&skin);
  mjs_defaultTexture(&texture);
  print_texture(&texture);
  mjs_defaultMaterial(&material);
  print_material(&material);
  mjs_defaultPair(&pair);
  print_pair(&pair);
  mjs_defaultEquality(&equality);
  print_equality(&equality);
  mjs_defaultTendon(&tendon);
  print_tendon(&tendon);
  mjs_defaultActuator(&actuator);
  print_actuator(&actuator);
  mjs_defaultSensor(&sensor);
  print_sensor(&sensor);

  // a fresh spec and the elements added to it without a class
  printf("--- spec\n");
  mjSpec* s = mj_makeSpec();
  print_spec(s);
  mjsBody* world = mjs_findBody(s, "world");
  printf("world found %d elemtype %d\n", world != NULL, world ? (int)world->element->elemtype : -1);
  mjsBody* b = mjs_addBody(world, NULL);
  print_body(b);
  print_joint(mjs_addJoint(b, NULL));
  print_geom(mjs_addGeom(b, NULL));
  print_site(mjs_addSite(b, NULL));
  print_camera(mjs_addCamera(b, NULL));
  print_light(mjs_addLight(b, NULL));
  print_frame(mjs_addFrame(b, NULL));
  print_mesh(mjs_addMesh(s, NULL));
  print_material(mjs_addMaterial(s, NULL));
  print_pair(mjs_addPair(s, NULL));
  print_equality(mjs_addEquality(s, NULL));
  print_tendon(mjs_addTendon(s, NULL));
  print_actuator(mjs_addActuator(s, NULL));
  print_sensor(mjs_addSensor(s));
  print_flex(mjs_addFlex(s));
  mjsPlugin* plugin = mjs_addPlugin(s);
  printf("plugin active %d\n", (int)plugin->active);
  mjsJoint* fj = mjs_addFreeJoint(b);
  print_joint(fj);
  mj_deleteSpec(s);
  return 0;
}
