/* xml/xml_elements_option.c — global settings: <compiler>, <option> (with <flag>), <size>
 * and <statistic>. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xml/xml_reader.h"

/* ---------------------------------------------------------------------------------------
 * <compiler>
 * ------------------------------------------------------------------------------------- */

static const tnKeyword angle_words[] = {{"radian", 0}, {"degree", 1}, {NULL, 0}};
static const tnKeyword coordinate_words[] = {{"local", 0}, {"global", 1}, {NULL, 0}};

/* compiler attributes that only concern meshes, rendering or threading: accepted */
static const char* const compiler_ignored[] = {"usethread", "saveinertial", NULL};

/* eulerseq: three of xyzXYZ */
static int rd_eulerseq(tnReader* r, tnXmlNode* node, char seq[3]) {
  const char* v = tn__rdStr(node, "eulerseq");
  if (!v) {
    return 0;
  }
  if (strlen(v) != 3 || strspn(v, "xyzXYZ") != 3) {
    tn__xmlError(r->err, r->errsz, node, "eulerseq",
                 "expected 3 characters from 'xyzXYZ', got \"%.20s\"", v);
    return -1;
  }
  memcpy(seq, v, 3);
  return 1;
}

static const tnKeyword lrmode_words[] = {{"none", mjLRMODE_NONE},
                                         {"muscle", mjLRMODE_MUSCLE},
                                         {"muscleuser", mjLRMODE_MUSCLEUSER},
                                         {"all", mjLRMODE_ALL},
                                         {NULL, 0}};

/* <lengthrange>: options of the actuator length-range computation */
static int read_lengthrange(tnReader* r, tnXmlNode* node, mjLROpt* o) {
  TN_TRY(tn__rdKeyword(r, node, "mode", lrmode_words, &o->mode));
  TN_TRY(tn__rdBool(r, node, "useexisting", &o->useexisting));
  TN_TRY(tn__rdBool(r, node, "uselimit", &o->uselimit));
  TN_TRY(tn__rdNums(r, node, "accel", &o->accel, 1, 1));
  TN_TRY(tn__rdNums(r, node, "maxforce", &o->maxforce, 1, 1));
  TN_TRY(tn__rdNums(r, node, "timeconst", &o->timeconst, 1, 1));
  TN_TRY(tn__rdNums(r, node, "timestep", &o->timestep, 1, 1));
  TN_TRY(tn__rdNums(r, node, "inttotal", &o->inttotal, 1, 1));
  TN_TRY(tn__rdNums(r, node, "interval", &o->interval, 1, 1));
  TN_TRY(tn__rdNums(r, node, "tolrange", &o->tolrange, 1, 1));
  return 1;
}

int tn__readCompiler(tnReader* r, tnXmlNode* node) {
  tnCompilerSettings* c = &r->spec->compiler;
  for (int i = 0; i < node->nchild; i++) {
    if (strcmp(node->child[i]->name, "lengthrange") == 0) {
      TN_OK(read_lengthrange(r, node->child[i], &c->LRopt));
    }
  }
  for (int i = 0; compiler_ignored[i]; i++) {
    tn__rdStr(node, compiler_ignored[i]);
  }
  TN_TRY(tn__rdBool(r, node, "autolimits", &c->autolimits));
  TN_TRY(tn__rdNums(r, node, "boundmass", &c->boundmass, 1, 1));
  TN_TRY(tn__rdNums(r, node, "boundinertia", &c->boundinertia, 1, 1));
  TN_TRY(tn__rdNums(r, node, "settotalmass", &c->settotalmass, 1, 1));
  TN_TRY(tn__rdBool(r, node, "balanceinertia", &c->balanceinertia));
  int coordinate = 0;
  TN_TRY(tn__rdKeyword(r, node, "coordinate", coordinate_words, &coordinate));
  if (coordinate) {
    return tn__rdFail(r, node, "coordinate", "global coordinates are not supported") + 1;
  }
  TN_TRY(tn__rdKeyword(r, node, "angle", angle_words, &c->degree));
  TN_TRY(rd_eulerseq(r, node, c->eulerseq));
  TN_TRY(tn__rdBool(r, node, "strippath", &c->strippath));
  TN_TRY(tn__rdBool(r, node, "fitaabb", &c->fitaabb));
  TN_TRY(tn__rdName(r, node, "meshdir", &c->meshdir));
  TN_TRY(tn__rdName(r, node, "texturedir", &c->texturedir));
  TN_TRY(tn__rdName(r, node, "assetdir", &c->assetdir));
  TN_TRY(tn__rdBool(r, node, "discardvisual", &c->discardvisual));
  TN_TRY(tn__rdBool(r, node, "fusestatic", &c->fusestatic));
  TN_TRY(tn__rdBool(r, node, "alignfree", &c->alignfree));
  TN_TRY(tn__rdTri(r, node, "inertiafromgeom", &c->inertiafromgeom));
  TN_TRY(tn__rdInts(r, node, "inertiagrouprange", c->inertiagrouprange, 2, 2));
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * <option> and <flag>
 * ------------------------------------------------------------------------------------- */

static const tnKeyword integrator_words[] = {{"Euler", mjINT_EULER},
                                             {"RK4", mjINT_RK4},
                                             {"implicit", mjINT_IMPLICIT},
                                             {"implicitfast", mjINT_IMPLICITFAST},
                                             {NULL, 0}};
static const tnKeyword cone_words[] = {
    {"pyramidal", mjCONE_PYRAMIDAL}, {"elliptic", mjCONE_ELLIPTIC}, {NULL, 0}};
static const tnKeyword jacobian_words[] = {
    {"dense", mjJAC_DENSE}, {"sparse", mjJAC_SPARSE}, {"auto", mjJAC_AUTO}, {NULL, 0}};
static const tnKeyword solver_words[] = {
    {"PGS", mjSOL_PGS}, {"CG", mjSOL_CG}, {"Newton", mjSOL_NEWTON}, {NULL, 0}};
static const tnKeyword flag_words[] = {{"disable", 0}, {"enable", 1}, {NULL, 0}};

/* names of the disable and enable bits, in bit order */
static const char* const disable_names[mjNDISABLE] = {
    "constraint", "equality",  "frictionloss", "limit",        "contact",   "spring",  "damper",
    "gravity",    "clampctrl", "warmstart",    "filterparent", "actuation", "refsafe", "sensor",
    "midphase",   "eulerdamp", "autoreset",    "nativeccd",    "island",    "multiccd"};
static const char* const enable_names[mjNENABLE] = {
    "override", "energy", "fwdinv", "invdiscrete", "sleep", "diagexact", "ipc"};

/* <flag> */
static int read_flag(tnReader* r, tnXmlNode* node) {
  mjOption* o = &r->spec->opt;
  for (int i = 0; i < mjNDISABLE; i++) {
    int v = 0;
    int got = tn__rdKeyword(r, node, disable_names[i], flag_words, &v);
    TN_TRY(got);
    if (got) {
      o->disableflags = v ? (o->disableflags & ~(1 << i)) : (o->disableflags | (1 << i));
    }
  }
  for (int i = 0; i < mjNENABLE; i++) {
    int v = 0;
    int got = tn__rdKeyword(r, node, enable_names[i], flag_words, &v);
    TN_TRY(got);
    if (got) {
      o->enableflags = v ? (o->enableflags | (1 << i)) : (o->enableflags & ~(1 << i));
    }
  }
  return 1;
}

/* actuatorgroupdisable: groups 0..30 */
static int rd_groupdisable(tnReader* r, tnXmlNode* node, mjOption* o) {
  int groups[31];
  int n = tn__rdInts(r, node, "actuatorgroupdisable", groups, 1, 31);
  if (n < 0) {
    return -1;
  }
  for (int i = 0; i < n; i++) {
    if (groups[i] < 0 || groups[i] > 30) {
      return tn__rdFail(r, node, "actuatorgroupdisable", "groups must be in 0..30");
    }
    o->disableactuator |= 1 << groups[i];
  }
  return n;
}

/* scalar tolerances and physical constants (1/0) */
static int read_option_reals(tnReader* r, tnXmlNode* node, mjOption* o) {
  TN_TRY(tn__rdNums(r, node, "timestep", &o->timestep, 1, 1));
  TN_TRY(tn__rdNums(r, node, "impratio", &o->impratio, 1, 1));
  TN_TRY(tn__rdNums(r, node, "tolerance", &o->tolerance, 1, 1));
  TN_TRY(tn__rdNums(r, node, "ls_tolerance", &o->ls_tolerance, 1, 1));
  TN_TRY(tn__rdNums(r, node, "noslip_tolerance", &o->noslip_tolerance, 1, 1));
  TN_TRY(tn__rdNums(r, node, "ccd_tolerance", &o->ccd_tolerance, 1, 1));
  TN_TRY(tn__rdNums(r, node, "sleep_tolerance", &o->sleep_tolerance, 1, 1));
  TN_TRY(tn__rdNums(r, node, "gravity", o->gravity, 3, 3));
  TN_TRY(tn__rdNums(r, node, "wind", o->wind, 3, 3));
  TN_TRY(tn__rdNums(r, node, "magnetic", o->magnetic, 3, 3));
  TN_TRY(tn__rdNums(r, node, "density", &o->density, 1, 1));
  TN_TRY(tn__rdNums(r, node, "viscosity", &o->viscosity, 1, 1));
  TN_TRY(tn__rdNums(r, node, "o_margin", &o->o_margin, 1, 1));
  TN_TRY(tn__rdNums(r, node, "o_solref", o->o_solref, 1, mjNREF));
  TN_TRY(tn__rdNums(r, node, "o_solimp", o->o_solimp, 1, mjNIMP));
  TN_TRY(tn__rdNums(r, node, "o_friction", o->o_friction, 1, 5));
  return 1;
}

int tn__readOption(tnReader* r, tnXmlNode* node) {
  mjOption* o = &r->spec->opt;
  TN_OK(read_option_reals(r, node, o));
  TN_TRY(tn__rdKeyword(r, node, "integrator", integrator_words, &o->integrator));
  TN_TRY(tn__rdKeyword(r, node, "cone", cone_words, &o->cone));
  TN_TRY(tn__rdKeyword(r, node, "jacobian", jacobian_words, &o->jacobian));
  TN_TRY(tn__rdKeyword(r, node, "solver", solver_words, &o->solver));
  TN_TRY(tn__rdInts(r, node, "iterations", &o->iterations, 1, 1));
  TN_TRY(tn__rdInts(r, node, "ls_iterations", &o->ls_iterations, 1, 1));
  TN_TRY(tn__rdInts(r, node, "noslip_iterations", &o->noslip_iterations, 1, 1));
  TN_TRY(tn__rdInts(r, node, "ccd_iterations", &o->ccd_iterations, 1, 1));
  TN_TRY(tn__rdInts(r, node, "sdf_iterations", &o->sdf_iterations, 1, 1));
  TN_TRY(tn__rdInts(r, node, "sdf_initpoints", &o->sdf_initpoints, 1, 1));
  TN_TRY(rd_groupdisable(r, node, o));
  for (int i = 0; i < node->nchild; i++) {
    if (!read_flag(r, node->child[i])) {
      return 0;
    }
  }
  return 1;
}

/* ---------------------------------------------------------------------------------------
 * <size> and <statistic>
 * ------------------------------------------------------------------------------------- */

/* memory="16M": bytes with an optional K/M/G/T suffix, or -1 */
static int rd_memory(tnReader* r, tnXmlNode* node, long long* out) {
  const char* v = tn__rdStr(node, "memory");
  if (!v) {
    return 0;
  }
  char* end = NULL;
  errno = 0;
  long long n = strtoll(v, &end, 10);
  long long scale = 1;
  if (end && *end) {
    const char* units = "KMGT";
    const char* u = strchr(units, *end);
    if (u && *u && end[1] == 0) {
      scale = 1LL << (10 * (int)(u - units + 1));
      end++;
    }
  }
  if (end == v || *end || errno == ERANGE || n < -1 || (n > 0 && n > (1LL << 50) / scale)) {
    tn__xmlError(r->err, r->errsz, node, "memory",
                 "expected a size in bytes with optional K/M/G/T suffix, got \"%.40s\"", v);
    return -1;
  }
  *out = n < 0 ? -1 : n * scale;
  return 1;
}

int tn__readSize(tnReader* r, tnXmlNode* node) {
  tnSpec* s = r->spec;
  TN_TRY(rd_memory(r, node, &s->memory));
  TN_TRY(tn__rdInts(r, node, "njmax", &s->njmax, 1, 1));
  TN_TRY(tn__rdInts(r, node, "nconmax", &s->nconmax, 1, 1));
  TN_TRY(tn__rdInts(r, node, "nstack", &s->nstack, 1, 1));
  TN_TRY(tn__rdInts(r, node, "nuserdata", &s->nuserdata, 1, 1));
  TN_TRY(tn__rdInts(r, node, "nkey", &s->nkey, 1, 1));
  struct {
    const char* attr;
    int* dst;
  } users[] = {{"nuser_body", &s->nuser_body},         {"nuser_jnt", &s->nuser_jnt},
               {"nuser_geom", &s->nuser_geom},         {"nuser_site", &s->nuser_site},
               {"nuser_cam", &s->nuser_cam},           {"nuser_tendon", &s->nuser_tendon},
               {"nuser_actuator", &s->nuser_actuator}, {"nuser_sensor", &s->nuser_sensor}};
  for (int i = 0; i < 8; i++) {
    TN_TRY(tn__rdInts(r, node, users[i].attr, users[i].dst, 1, 1));
    if (*users[i].dst < -1) {
      return tn__rdFail(r, node, users[i].attr, "must be -1 (automatic) or nonnegative") + 1;
    }
  }
  if (s->nuserdata < 0 || s->nkey < 0) {
    return tn__rdFail(r, node, s->nkey < 0 ? "nkey" : "nuserdata", "must be nonnegative") + 1;
  }
  if (s->nkey > 1000000) {
    return tn__rdFail(r, node, "nkey", "at most 1000000 keyframes") + 1;
  }
  return 1;
}

int tn__readStatistic(tnReader* r, tnXmlNode* node) {
  tnSpec* s = r->spec;
  TN_TRY(tn__rdNums(r, node, "meaninertia", &s->stat_meaninertia, 1, 1));
  TN_TRY(tn__rdNums(r, node, "meanmass", &s->stat_meanmass, 1, 1));
  TN_TRY(tn__rdNums(r, node, "meansize", &s->stat_meansize, 1, 1));
  TN_TRY(tn__rdNums(r, node, "extent", &s->stat_extent, 1, 1));
  TN_TRY(tn__rdNums(r, node, "center", s->stat_center, 3, 3));
  if (!isnan(s->stat_extent) && !(s->stat_extent > 0)) {
    return tn__rdFail(r, node, "extent", "extent must be strictly positive") + 1;
  }
  return 1;
}
