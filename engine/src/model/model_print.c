/* model/model_print.c — mj_printModel, mj_printData and their formatted variants: mjModel and
 * mjData as text in MuJoCo's layout.
 *
 * The layout is MuJoCo's (section titles, a name column 21 characters wide, one float format
 * for every real number, " %d" for integers), so a file printed by Torsion can be compared
 * line by line with one printed by MuJoCo. Only the fields Torsion has are printed: the
 * sections and lines of MuJoCo's fields that Torsion lacks (mjVisual, BVHs, plugins, the
 * signature, ...) are absent; docs/model-format.md lists them. Per-object sections are
 * generated from the MJMODEL_POINTERS table: every array whose rows are the object count
 * and whose name starts with the object's prefix. */
#include <stdio.h>
#include <string.h>

#include <torsion/torsion.h>

/* MuJoCo's default float format, and the longest float format accepted */
#define TN_FLOAT_FORMAT "% -9.2g"
#define TN_FLOAT_FORMAT_MAX 20

/* the name column */
#define TN_NAME "%-21s"

/* ---- helpers ------------------------------------------------------------------------- */

/* 1 when fmt is a printf conversion of one double: '%', flags (each at most once), width,
 * precision, one of f g G e E, nothing else; else 0 after a warning */
static int float_format_ok(const char* fmt) {
  if (!fmt) {
    return 0;
  }
  if (strnlen(fmt, TN_FLOAT_FORMAT_MAX + 1) > TN_FLOAT_FORMAT_MAX) {
    mju_warning("Format string longer than limit of %d.", TN_FLOAT_FORMAT_MAX);
    return 0;
  }
  const char* p = fmt;
  if (*p++ != '%') {
    mju_warning("Format string must start with '%%'.");
    return 0;
  }
  // flags, each once
  int seen[5] = {0};
  const char* flags = "-+ #0";
  for (const char* f; *p && (f = strchr(flags, *p)) != NULL; p++) {
    if (seen[f - flags]++) {
      mju_warning("Format string contains repeated flag.");
      return 0;
    }
  }
  // width and precision (no '*')
  while (*p >= '0' && *p <= '9') {
    p++;
  }
  if (*p == '.') {
    p++;
    while (*p >= '0' && *p <= '9') {
      p++;
    }
  }
  if (!*p || !strchr("fgGeE", *p)) {
    mju_warning("Format string specifier must be one of \"fgGeE\".");
    return 0;
  }
  if (p[1]) {
    mju_warning("Unable to match format string %s with expected pattern for a single float.", fmt);
    return 0;
  }
  return 1;
}

/* the file to print into (stdout when filename is NULL), NULL after a warning */
static FILE* open_output(const char* filename, const char* what) {
  if (!filename) {
    return stdout;
  }
  FILE* fp = fopen(filename, "wt");
  if (!fp) {
    mju_warning("Could not open file '%s' for writing %s", filename, what);
  }
  return fp;
}

/* a byte count as MuJoCo prints it ("  123 bytes", "     45 KB") */
static void print_memory(FILE* fp, const char* label, size_t nbytes, const char* tail) {
  if (nbytes < 1024) {
    fprintf(fp, "%s%5zu bytes%s\n", label, nbytes, tail);
  } else {
    fprintf(fp, "%s%7.0f KB%s\n", label, (double)nbytes / 1024, tail);
  }
}

/* a titled block of nr rows of nc numbers (nothing when empty) */
static void print_matrix(FILE* fp, const char* title, int nr, int nc, const mjtNum* data,
                         const char* ff) {
  if (!data || nr <= 0 || nc <= 0) {
    return;
  }
  fprintf(fp, "%s\n", title);
  for (int r = 0; r < nr; r++) {
    fprintf(fp, " ");
    for (int c = 0; c < nc; c++) {
      fprintf(fp, " ");
      fprintf(fp, ff, data[(size_t)r * nc + c]);
    }
    fprintf(fp, "\n");
  }
  fprintf(fp, "\n");
}

/* a titled block of nr rows of nc integers (nothing when empty) */
static void print_matrix_int(FILE* fp, const char* title, int nr, int nc, const int* data) {
  if (!data || nr <= 0 || nc <= 0) {
    return;
  }
  fprintf(fp, "%s\n", title);
  for (int r = 0; r < nr; r++) {
    fprintf(fp, " ");
    for (int c = 0; c < nc; c++) {
      fprintf(fp, " %d", data[(size_t)r * nc + c]);
    }
    fprintf(fp, "\n");
  }
  fprintf(fp, "\n");
}

/* a label followed by n numbers, each after a space */
static void print_vector(FILE* fp, const char* label, const mjtNum* v, int n, const char* ff) {
  if (!v || n <= 0) {
    return;
  }
  fprintf(fp, "%s", label);
  for (int i = 0; i < n; i++) {
    fprintf(fp, " ");
    fprintf(fp, ff, v[i]);
  }
  fprintf(fp, "\n");
}

/* the pattern of a CSR matrix: 'x' per non-zero ('D' on the diagonal entry when diag is
 * given), framed by dashes; skipped for more than 300 columns */
static void print_sparsity(FILE* fp, const char* title, int nr, int nc, const int* rowadr,
                           const int* diag, const int* rownnz, const int* colind) {
  if (nr <= 0 || nc <= 0 || nc > 300 || !rowadr || !rownnz || !colind) {
    return;
  }
  fprintf(fp, "%s\n", title);
  for (int c = 0; c < nc + 2; c++) {
    fputc('-', fp);
  }
  fprintf(fp, "\n ");
  for (int r = 0; r < nr; r++) {
    int k = 0;
    for (int c = 0; c < nc; c++) {
      if (k < rownnz[r] && colind[rowadr[r] + k] == c) {
        fputc(diag && diag[r] == k ? 'D' : 'x', fp);
        k++;
      } else {
        fputc(' ', fp);
      }
    }
    fprintf(fp, " |\n");
    if (r < nr - 1) {
      fputc(' ', fp);
    }
  }
  for (int c = 0; c < nc + 2; c++) {
    fputc('-', fp);
  }
  fprintf(fp, "\n\n");
}

/* the values of a CSR matrix, one row per line as "col: value" pairs; skipped for more
 * than 300 rows */
static void print_sparse(FILE* fp, const char* title, const mjtNum* mat, int nr, const int* rownnz,
                         const int* rowadr, const int* colind, const char* ff) {
  if (!mat || nr <= 0 || nr > 300) {
    return;
  }
  fprintf(fp, "%s\n", title);
  for (int r = 0; r < nr; r++) {
    fprintf(fp, "  ");
    for (int a = rowadr[r]; a < rowadr[r] + rownnz[r]; a++) {
      fprintf(fp, "  %2d: ", colind[a]);
      fprintf(fp, ff, mat[a]);
    }
    fprintf(fp, "\n");
  }
  fprintf(fp, "\n");
}

/* ---- mjModel ------------------------------------------------------------------------- */

/* one value of a model array in MuJoCo's per-object layout (value, then a space) */
#define TN_PRINT_VALUE(fp, ff, v)                  \
  _Generic((v), mjtNum                             \
           : fprintf(fp, ff, (double)(v)), float   \
           : fprintf(fp, ff, (double)(v)), default \
           : fprintf(fp, " %d", (int)(v)));        \
  fputc(' ', fp)

/* every array of object i of a class: rows counted by *cls, name starting with prefix */
static void print_object(FILE* fp, const mjModel* m, const mjtSize* cls, const char* prefix, int i,
                         const char* ff) {
  size_t plen = strlen(prefix);
#define MJ_M(n) ((int)m->n)
#define X(type, name, rows, cols)                                       \
  if (&m->rows == cls && (cols) > 0 && !strncmp(#name, prefix, plen) && \
      strcmp(#type, "char") != 0) {                                     \
    fprintf(fp, "  " TN_NAME, #name);                                   \
    for (int j = 0; j < (cols); j++) {                                  \
      TN_PRINT_VALUE(fp, ff, m->name[(size_t)(cols)*i + j]);            \
    }                                                                   \
    fprintf(fp, "\n");                                                  \
  }
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
}

/* one class of objects: a titled section per object, with its name when it has one */
static void print_class(FILE* fp, const mjModel* m, const char* title, const mjtSize* cls,
                        const char* prefix, const int* nameadr, const char* ff) {
  for (int i = 0; i < (int)*cls; i++) {
    fprintf(fp, "\n%s %d:\n", title, i);
    if (nameadr) {
      fprintf(fp, "  " TN_NAME, "name");
      fprintf(fp, " %s\n", m->names + nameadr[i]);
    }
    print_object(fp, m, cls, prefix, i, ff);
  }
  if (*cls) {
    fprintf(fp, "\n");
  }
}

/* bytes of the mesh, texture and skin arrays, for the MEMORY section */
static size_t bytes_with_prefix(const mjModel* m, const char* prefix) {
  size_t total = 0, plen = strlen(prefix);
#define MJ_M(n) ((size_t)m->n)
#define X(type, name, rows, cols)                     \
  if (!strncmp(#name, prefix, plen)) {                \
    total += sizeof(type) * (size_t)m->rows * (cols); \
  }
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
  return total;
}

/* the header, sizes, options and statistics */
static void print_model_head(FILE* fp, const mjModel* m, const char* ff) {
  fprintf(fp, "MuJoCo version %s\n", mj_versionString());
  fprintf(fp, "model name     %s\n\n", m->nnames ? m->names : "");

  // memory: the binary model's size and its largest asset parts
  size_t total = (size_t)mj_sizeModel(m);
  size_t mesh = m->nmesh ? bytes_with_prefix(m, "mesh_") : 0;
  size_t tex = m->ntex ? (size_t)m->ntexdata : 0;
  size_t skin = m->nskin ? bytes_with_prefix(m, "skin_") : 0;
  size_t other = total > mesh + tex + skin ? total - mesh - tex - skin : 0;
  fprintf(fp, "MEMORY\n");
  print_memory(fp, "  total       ", total, "");
  if (mesh) {
    print_memory(fp, "  meshes      ", mesh, "");
  }
  if (tex) {
    print_memory(fp, "  textures    ", tex, "");
  }
  if (skin) {
    print_memory(fp, "  skins       ", skin, "");
  }
  if (other) {
    print_memory(fp, "  other       ", other, "");
  }
  fprintf(fp, "\n");

  // non-zero sizes
  fprintf(fp, "SIZES\n");
#define X(name)                                                     \
  if (m->name) {                                                    \
    fprintf(fp, TN_NAME " %lld\n", "  " #name, (long long)m->name); \
  }
  MJMODEL_INTS(X)
#undef X
  fprintf(fp, "\n");

  // options, in MuJoCo's order
  const mjOption* o = &m->opt;
  fprintf(fp, "OPTION\n");
#define TN_OPT_NUM(name, n)         \
  fprintf(fp, TN_NAME, "  " #name); \
  for (int k = 0; k < (n); k++) {   \
    fprintf(fp, ff, (&o->name)[k]); \
  }                                 \
  fprintf(fp, "\n");
#define TN_OPT_VEC(name, n)         \
  fprintf(fp, TN_NAME, "  " #name); \
  for (int k = 0; k < (n); k++) {   \
    fprintf(fp, ff, o->name[k]);    \
  }                                 \
  fprintf(fp, "\n");
#define TN_OPT_INT(name) fprintf(fp, TN_NAME " %d\n", "  " #name, o->name);
  TN_OPT_NUM(timestep, 1)
  TN_OPT_NUM(impratio, 1)
  TN_OPT_NUM(tolerance, 1)
  TN_OPT_NUM(ls_tolerance, 1)
  TN_OPT_NUM(noslip_tolerance, 1)
  TN_OPT_NUM(ccd_tolerance, 1)
  TN_OPT_NUM(sleep_tolerance, 1)
  TN_OPT_VEC(gravity, 3)
  TN_OPT_VEC(wind, 3)
  TN_OPT_VEC(magnetic, 3)
  TN_OPT_NUM(density, 1)
  TN_OPT_NUM(viscosity, 1)
  TN_OPT_NUM(o_margin, 1)
  TN_OPT_VEC(o_solref, mjNREF)
  TN_OPT_VEC(o_solimp, mjNIMP)
  TN_OPT_VEC(o_friction, 5)
  TN_OPT_INT(integrator)
  TN_OPT_INT(cone)
  TN_OPT_INT(jacobian)
  TN_OPT_INT(solver)
  TN_OPT_INT(iterations)
  TN_OPT_INT(ls_iterations)
  TN_OPT_INT(noslip_iterations)
  TN_OPT_INT(ccd_iterations)
  TN_OPT_INT(disableflags)
  TN_OPT_INT(enableflags)
  TN_OPT_INT(disableactuator)
  TN_OPT_INT(sdf_initpoints)
  TN_OPT_INT(sdf_iterations)
#undef TN_OPT_NUM
#undef TN_OPT_VEC
#undef TN_OPT_INT
  fprintf(fp, "\n");

  // total mass and statistics
  mjtNum totalmass = 0;
  for (int i = 0; i < m->nbody; i++) {
    totalmass += m->body_mass[i];
  }
  fprintf(fp, TN_NAME, "totalmass");
  fprintf(fp, ff, totalmass);
  fprintf(fp, "\n\nSTATISTIC\n");
  const mjtNum* stat[5] = {&m->stat.meaninertia, &m->stat.meanmass, &m->stat.meansize,
                           &m->stat.extent, m->stat.center};
  static const char* stat_name[5] = {"  meaninertia", "  meanmass", "  meansize", "  extent",
                                     "  center"};
  for (int s = 0; s < 5; s++) {
    fprintf(fp, TN_NAME, stat_name[s]);
    for (int k = 0; k < (s == 4 ? 3 : 1); k++) {
      fprintf(fp, ff, stat[s][k]);
    }
    fprintf(fp, "\n");
  }
  fprintf(fp, "\n");

  // default configurations
  const char* qname[2] = {"qpos0", "qpos_spring"};
  const mjtNum* qval[2] = {m->qpos0, m->qpos_spring};
  for (int s = 0; s < 2; s++) {
    fprintf(fp, TN_NAME, qname[s]);
    for (int i = 0; i < m->nq; i++) {
      fprintf(fp, ff, qval[s][i]);
      fputc(' ', fp);
    }
    fprintf(fp, "\n\n");
  }
}

/* MuJoCo's names of object types, for tuple elements */
static const char* type_name(int type) {
  static const char* names[] = {"unknown", "body",     "xbody",    "joint",   "dof",     "geom",
                                "site",    "camera",   "light",    "flex",    "mesh",    "skin",
                                "hfield",  "texture",  "material", "pair",    "exclude", "equality",
                                "tendon",  "actuator", "sensor",   "numeric", "text",    "tuple",
                                "key",     "plugin"};
  if (type >= 0 && type < (int)(sizeof(names) / sizeof(names[0]))) {
    return names[type];
  }
  return "unknown";
}

/* numeric, text and tuple custom data */
static void print_custom(FILE* fp, const mjModel* m, const char* ff) {
  for (int i = 0; i < m->nnumeric; i++) {
    fprintf(fp, "\nNUMERIC %d:\n", i);
    fprintf(fp, "  name         %s\n", m->names + m->name_numericadr[i]);
    fprintf(fp, "  size         %d\n", m->numeric_size[i]);
    fprintf(fp, "  value       ");
    for (int j = 0; j < m->numeric_size[i]; j++) {
      fprintf(fp, ff, m->numeric_data[m->numeric_adr[i] + j]);
    }
    fprintf(fp, "\n");
  }
  if (m->nnumeric) {
    fprintf(fp, "\n");
  }
  for (int i = 0; i < m->ntext; i++) {
    fprintf(fp, "\nTEXT %d:\n", i);
    fprintf(fp, "  name         %s\n", m->names + m->name_textadr[i]);
    fprintf(fp, "  size         %d\n", m->text_size[i]);
    fprintf(fp, "  value        %s\n", m->text_data + m->text_adr[i]);
  }
  if (m->ntext) {
    fprintf(fp, "\n");
  }
  for (int i = 0; i < m->ntuple; i++) {
    fprintf(fp, "\nTUPLE %d:\n", i);
    fprintf(fp, "  name         %s\n", m->names + m->name_tupleadr[i]);
    fprintf(fp, "  size         %d\n", m->tuple_size[i]);
    fprintf(fp, "  elements\n");
    for (int j = m->tuple_adr[i]; j < m->tuple_adr[i] + m->tuple_size[i]; j++) {
      fprintf(fp, "       %s %d, prm = ", type_name(m->tuple_objtype[j]), m->tuple_objid[j]);
      fprintf(fp, ff, m->tuple_objprm[j]);
      fprintf(fp, "\n");
    }
  }
  if (m->ntuple) {
    fprintf(fp, "\n");
  }
}

/* 1 when the n numbers of a and b differ anywhere */
static int differ(const mjtNum* a, const mjtNum* b, int n) {
  for (int i = 0; i < n; i++) {
    if (a[i] != b[i]) {
      return 1;
    }
  }
  return 0;
}

/* 1 when any of the n numbers is non-zero */
static int nonzero(const mjtNum* a, int n) {
  for (int i = 0; i < n; i++) {
    if (a[i] != 0) {
      return 1;
    }
  }
  return 0;
}

/* a keyframe row after its label */
static void print_key_row(FILE* fp, const char* label, int i, const mjtNum* v, int n,
                          const char* ff) {
  fprintf(fp, "%s%d   ", label, i);
  for (int j = 0; j < n; j++) {
    fprintf(fp, ff, v[j]);
  }
  fprintf(fp, "\n");
}

/* keyframes: name, time and the parts that differ from the defaults. As in MuJoCo, a later
 * part is printed when it or any earlier part differs (the parts share one level) */
static void print_keys(FILE* fp, const mjModel* m, const char* ff) {
  int nq = (int)m->nq, nv = (int)m->nv, na = (int)m->na, nu = (int)m->nu;
  int nmocap = (int)m->nmocap;
  for (int i = 0; i < m->nkey; i++) {
    if (m->names[m->name_keyadr[i]]) {
      fprintf(fp, "key_name%d    %s\n", i, m->names + m->name_keyadr[i]);
    }
    if (m->key_time[i] != 0) {
      fprintf(fp, "key_time%d    %.4f\n", i, m->key_time[i]);
    }
    int level = 0;
    if (differ(m->qpos0, m->key_qpos + (size_t)i * nq, nq)) {
      level = 1;
      print_key_row(fp, "key_qpos", i, m->key_qpos + (size_t)i * nq, nq, ff);
    }
    if (nonzero(m->key_qvel + (size_t)i * nv, nv)) {
      level = 2;
    }
    if (level == 2) {
      print_key_row(fp, "key_qvel", i, m->key_qvel + (size_t)i * nv, nv, ff);
    }
    if (nonzero(m->key_act + (size_t)i * na, na)) {
      level = 3;
    }
    if (level == 3) {
      print_key_row(fp, "key_act", i, m->key_act + (size_t)i * na, na, ff);
    }
    // mocap poses that differ from the bodies' poses
    for (int b = 0; b < m->nbody && nmocap; b++) {
      int id = m->body_mocapid[b];
      if (id >= 0 && differ(m->body_pos + 3 * b, m->key_mpos + ((size_t)i * nmocap + id) * 3, 3)) {
        level = 4;
        break;
      }
    }
    if (level == 4) {
      print_key_row(fp, "key_mpos", i, m->key_mpos + (size_t)i * 3 * nmocap, 3 * nmocap, ff);
    }
    for (int b = 0; b < m->nbody && nmocap; b++) {
      int id = m->body_mocapid[b];
      if (id >= 0 &&
          differ(m->body_quat + 4 * b, m->key_mquat + ((size_t)i * nmocap + id) * 4, 4)) {
        level = 5;
        break;
      }
    }
    if (level == 5) {
      print_key_row(fp, "key_mquat", i, m->key_mquat + (size_t)i * 4 * nmocap, 4 * nmocap, ff);
    }
    if (nonzero(m->key_ctrl + (size_t)i * nu, nu)) {
      level = 6;
    }
    if (level == 6) {
      print_key_row(fp, "key_ctrl", i, m->key_ctrl + (size_t)i * nu, nu, ff);
    }
    if (level) {
      fprintf(fp, "\n");
    }
  }
}

/* print the model with float format ff (MuJoCo's layout) */
void mj_printFormattedModel(const mjModel* m, const char* filename, const char* float_format) {
  FILE* fp = open_output(filename, "mjModel");
  if (!fp) {
    return;
  }
  const char* ff = float_format;
  if (!float_format_ok(ff)) {
    mju_warning("WARNING: Received invalid float_format. Using default instead.");
    ff = TN_FLOAT_FORMAT;
  }
  print_model_head(fp, m, ff);

  // objects
  print_class(fp, m, "BODY", &m->nbody, "body_", m->name_bodyadr, ff);
  print_class(fp, m, "JOINT", &m->njnt, "jnt_", m->name_jntadr, ff);
  print_class(fp, m, "DOF", &m->nv, "dof_", NULL, ff);
  print_class(fp, m, "TREE", &m->ntree, "tree_", NULL, ff);
  print_class(fp, m, "GEOM", &m->ngeom, "geom_", m->name_geomadr, ff);
  print_class(fp, m, "SITE", &m->nsite, "site_", m->name_siteadr, ff);
  print_class(fp, m, "CAMERA", &m->ncam, "cam_", m->name_camadr, ff);
  print_class(fp, m, "LIGHT", &m->nlight, "light_", m->name_lightadr, ff);

  // meshes, with the sizes of their convex hulls
  for (int i = 0; i < m->nmesh; i++) {
    fprintf(fp, "\nMESH %d:\n", i);
    fprintf(fp, "  " TN_NAME " %s\n", "name", m->names + m->name_meshadr[i]);
    print_object(fp, m, &m->nmesh, "mesh_", i, ff);
    if (m->mesh_graphadr[i] >= 0) {
      fprintf(fp, "  " TN_NAME " %d\n", "qhull face", m->mesh_graph[m->mesh_graphadr[i] + 1]);
      fprintf(fp, "  " TN_NAME " %d\n", "qhull vert", m->mesh_graph[m->mesh_graphadr[i]]);
    }
  }
  if (m->nmesh) {
    fprintf(fp, "\n");
  }
  print_class(fp, m, "SKIN", &m->nskin, "skin_", m->name_skinadr, ff);

  // height fields (MuJoCo prints their name after two spaces)
  for (int i = 0; i < m->nhfield; i++) {
    fprintf(fp, "\nHEIGHTFIELD %d:\n", i);
    fprintf(fp, "  " TN_NAME "  %s\n", "name", m->names + m->name_hfieldadr[i]);
    print_object(fp, m, &m->nhfield, "hfield_", i, ff);
  }
  if (m->nhfield) {
    fprintf(fp, "\n");
  }
  print_class(fp, m, "TEXTURE", &m->ntex, "tex_", m->name_texadr, ff);
  print_class(fp, m, "MATERIAL", &m->nmat, "mat_", m->name_matadr, ff);
  print_class(fp, m, "PAIR", &m->npair, "pair_", m->name_pairadr, ff);
  print_class(fp, m, "EXCLUDE", &m->nexclude, "exclude_", m->name_excludeadr, ff);
  print_class(fp, m, "EQUALITY", &m->neq, "eq_", m->name_eqadr, ff);

  // tendons, with their paths
  for (int i = 0; i < m->ntendon; i++) {
    fprintf(fp, "\nTENDON %d:\n", i);
    fprintf(fp, "  " TN_NAME " %s\n", "name", m->names + m->name_tendonadr[i]);
    print_object(fp, m, &m->ntendon, "tendon_", i, ff);
    print_object(fp, m, &m->ntendon, "ten_J_", i, ff);
    fprintf(fp, "  path\n    type  objid  prm\n");
    for (int j = 0; j < m->tendon_num[i]; j++) {
      int k = m->tendon_adr[i] + j;
      fprintf(fp, "    %d     %d     ", m->wrap_type[k], m->wrap_objid[k]);
      fprintf(fp, ff, m->wrap_prm[k]);
      fprintf(fp, "\n");
    }
    fprintf(fp, "\n");
  }
  if (m->ntendon) {
    fprintf(fp, "\n");
  }
  print_class(fp, m, "ACTUATOR", &m->nu, "actuator_", m->name_actuatoradr, ff);
  print_class(fp, m, "SENSOR", &m->nsensor, "sensor_", m->name_sensoradr, ff);
  print_custom(fp, m, ff);
  print_keys(fp, m, ff);

  // sparse structures of B, M and D
  int nv = (int)m->nv, nbody = (int)m->nbody;
  print_sparsity(fp, "B: body-dof matrix", nbody, nv, m->B_rowadr, NULL, m->B_rownnz, m->B_colind);
  print_matrix_int(fp, "B_ROWNNZ", 1, nbody, m->B_rownnz);
  print_matrix_int(fp, "B_ROWADR", 1, nbody, m->B_rowadr);
  print_matrix_int(fp, "B_COLIND", 1, (int)m->nB, m->B_colind);
  print_sparsity(fp, "M: reduced inertia matrix", nv, nv, m->M_rowadr, NULL, m->M_rownnz,
                 m->M_colind);
  print_matrix_int(fp, "M_ROWNNZ", 1, nv, m->M_rownnz);
  print_matrix_int(fp, "M_ROWADR", 1, nv, m->M_rowadr);
  print_matrix_int(fp, "M_COLIND", 1, (int)m->nC, m->M_colind);
  print_matrix_int(fp, "MAPM2M", 1, (int)m->nC, m->mapM2M);
  print_sparsity(fp, "D: dof-dof matrix", nv, nv, m->D_rowadr, m->D_diag, m->D_rownnz, m->D_colind);
  print_matrix_int(fp, "D_ROWNNZ", 1, nv, m->D_rownnz);
  print_matrix_int(fp, "D_ROWADR", 1, nv, m->D_rowadr);
  print_matrix_int(fp, "D_COLIND", 1, (int)m->nD, m->D_colind);
  print_matrix_int(fp, "MAPM2D", 1, (int)m->nD, m->mapM2D);
  print_matrix_int(fp, "MAPD2M", 1, (int)m->nM, m->mapD2M);
  if (filename) {
    fclose(fp);
  }
}

/* print the model with MuJoCo's default float format */
void mj_printModel(const mjModel* m, const char* filename) {
  mj_printFormattedModel(m, filename, TN_FLOAT_FORMAT);
}

/* ---- mjData -------------------------------------------------------------------------- */

/* memory, sizes, warnings, timers and solver statistics */
static void print_data_head(FILE* fp, const mjData* d, const char* ff) {
  fprintf(fp, "MEMORY\n");
  print_memory(fp, "  total         ", tn_dataBytes(d), "");
  print_memory(fp, "  struct        ", sizeof(mjData), "");
  print_memory(fp, "  buffer        ", d->nbuffer, "");
  char used[64];
  snprintf(used, sizeof(used), ", used %.1f%%\n",
           d->narena ? 100 * (double)d->maxuse_arena / (double)d->narena : 0.0);
  print_memory(fp, "  arena         ", d->narena, used);

  // the scalar sizes Torsion has, in MuJoCo's order
  fprintf(fp, "SIZES\n");
  fprintf(fp, "  " TN_NAME " %lld\n", "narena", (long long)d->narena);
  fprintf(fp, "  " TN_NAME " %lld\n", "nbuffer", (long long)d->nbuffer);
  fprintf(fp, "  " TN_NAME " %lld\n", "maxuse_stack", (long long)d->maxuse_stack);
  fprintf(fp, "  " TN_NAME " %lld\n", "maxuse_arena", (long long)d->maxuse_arena);
  fprintf(fp, "  " TN_NAME " %d\n", "maxuse_efc", d->maxuse_efc);
  const char* name[7] = {"ncon", "ne", "nf", "nl", "nefc", "nJ", "nA"};
  int value[7] = {d->ncon, d->ne, d->nf, d->nl, d->nefc, d->nJ, d->nA};
  for (int i = 0; i < 7; i++) {
    fprintf(fp, "  " TN_NAME " %d\n", name[i], value[i]);
  }
  fprintf(fp, "  " TN_NAME " %d\n", "nisland", d->nisland);
  fprintf(fp, "\n");

  // warnings and timers that are set
  int nwarn = 0;
  for (int i = 0; i < mjNWARNING; i++) {
    nwarn += d->warning[i].number;
  }
  if (nwarn) {
    fprintf(fp, "WARNING\n");
    for (int i = 0; i < mjNWARNING; i++) {
      if (d->warning[i].number) {
        fprintf(fp, "    %d:  lastinfo = %d   number = %d\n", i, d->warning[i].lastinfo,
                d->warning[i].number);
      }
    }
    fprintf(fp, "\n");
  }
  mjtNum timed = 0;
  for (int i = 0; i < mjNTIMER; i++) {
    timed += d->timer[i].duration;
  }
  if (timed) {
    fprintf(fp, "TIMER\n");
    for (int i = 0; i < mjNTIMER; i++) {
      fprintf(fp, "    %d:  duration = ", i);
      fprintf(fp, ff, d->timer[i].duration);
      fprintf(fp, "   number = %d\n", d->timer[i].number);
    }
    fprintf(fp, "\n");
  }

  // solver statistics per island (one island when islands are not used)
  if (d->nefc) {
    fprintf(fp, "SOLVER STAT\n");
    print_vector(fp, "  solver_fwdinv = ", d->solver_fwdinv, 2, ff);
    int nisland = d->nisland < 1 ? 1 : (d->nisland > mjNISLAND ? mjNISLAND : d->nisland);
    for (int s = 0; s < nisland; s++) {
      int niter = d->solver_niter[s] < mjNSOLVER ? d->solver_niter[s] : mjNSOLVER;
      if (!niter) {
        continue;
      }
      fprintf(fp, "  ISLAND %d\n", s);
      fprintf(fp, "    solver_niter = %d\n", d->solver_niter[s]);
      fprintf(fp, "    solver_nnz = %d\n", d->solver_nnz[s]);
      for (int i = 0; i < niter; i++) {
        const mjSolverStat* st = d->solver + s * mjNSOLVER + i;
        fprintf(fp, "      %d:  improvement = ", i);
        fprintf(fp, ff, st->improvement);
        fprintf(fp, "    gradient = ");
        fprintf(fp, ff, st->gradient);
        fprintf(fp, "    lineslope = ");
        fprintf(fp, ff, st->lineslope);
        fprintf(fp, "\n          nactive = %d   nchange = %d   neval = %d   nupdate = %d\n",
                st->nactive, st->nchange, st->neval, st->nupdate);
      }
      fprintf(fp, "\n");
    }
  }
  print_vector(fp, "ENERGY = ", d->energy, 2, ff);
  fprintf(fp, "\nTIME = ");
  fprintf(fp, ff, d->time);
  fprintf(fp, "\n\n");
}

/* the actuator moments as MuJoCo prints them: the pattern of each row's entries (explicit
 * zeros included), then the sparse rows */
static void print_moments(FILE* fp, const mjModel* m, const mjData* d, const char* ff) {
  int nu = (int)m->nu, nv = (int)m->nv;
  if (nu <= 0 || nv <= 0) {
    return;
  }
  // pattern: the row's columns
  if (nv <= 300) {
    fprintf(fp, "actuator_moment\n");
    for (int c = 0; c < nv + 2; c++) {
      fputc('-', fp);
    }
    fprintf(fp, "\n ");
    for (int r = 0; r < nu; r++) {
      int adr = d->moment_rowadr[r], end = adr + d->moment_rownnz[r];
      for (int c = 0; c < nv; c++) {
        int found = adr < end && d->moment_colind[adr] == c;
        adr += found;
        fputc(found ? 'x' : ' ', fp);
      }
      fprintf(fp, " |\n");
      if (r < nu - 1) {
        fputc(' ', fp);
      }
    }
    for (int c = 0; c < nv + 2; c++) {
      fputc('-', fp);
    }
    fprintf(fp, "\n\n");
  }
  print_sparse(fp, "ACTUATOR_MOMENT", d->actuator_moment, nu, d->moment_rownnz, d->moment_rowadr,
               d->moment_colind, ff);
}

/* contacts with their forces in the contact frame */
static void print_contacts(FILE* fp, const mjModel* m, const mjData* d, const char* ff) {
  if (d->ncon) {
    fprintf(fp, "CONTACT\n");
  }
  for (int i = 0; i < d->ncon; i++) {
    const mjContact* c = d->contact + i;
    fprintf(fp, "  %d:\n     dim           %d\n", i, c->dim);
    if (c->geom[0] >= 0 && c->geom[1] >= 0) {
      const char* n1 = mj_id2name(m, mjOBJ_GEOM, c->geom[0]);
      const char* n2 = mj_id2name(m, mjOBJ_GEOM, c->geom[1]);
      fprintf(fp, "     geoms         ");
      if (n1) {
        fprintf(fp, "%s : ", n1);
      } else {
        fprintf(fp, "%d : ", c->geom[0]);
      }
      if (n2) {
        fprintf(fp, "%s\n", n2);
      } else {
        fprintf(fp, "%d\n", c->geom[1]);
      }
    } else {
      fprintf(fp, "     gfev          %d %d %d %d : %d %d %d %d\n", c->geom[0], c->flex[0],
              c->elem[0], c->vert[0], c->geom[1], c->flex[1], c->elem[1], c->vert[1]);
    }
    fprintf(fp, "     exclude       %d\n     efc_address   %d\n", c->exclude, c->efc_address);
    print_vector(fp, "     solref       ", c->solref, mjNREF, ff);
    print_vector(fp, "     solimp       ", c->solimp, mjNIMP, ff);
    print_vector(fp, "     dist         ", &c->dist, 1, ff);
    print_vector(fp, "     includemargin", &c->includemargin, 1, ff);
    print_vector(fp, "     pos          ", c->pos, 3, ff);
    print_vector(fp, "     frame        ", c->frame, 9, ff);
    print_vector(fp, "     friction     ", c->friction, 5, ff);
    print_vector(fp, "     mu           ", &c->mu, 1, ff);
    mjtNum force[6] = {0};
    mj_contactForce(m, d, i, force);
    print_vector(fp, "     force        ", force, 6, ff);
  }
  if (d->ncon) {
    fprintf(fp, "\n");
  }
}

/* the constraint rows: types, ids, Jacobian (dense or sparse), AR and the row parameters */
static void print_efc(FILE* fp, const mjModel* m, const mjData* d, const char* ff) {
  int nefc = d->nefc, nv = (int)m->nv;
  print_matrix_int(fp, "EFC_TYPE", nefc, 1, d->efc_type);
  print_matrix_int(fp, "EFC_ID", nefc, 1, d->efc_id);
  if (!mj_isSparse(m)) {
    print_matrix(fp, "EFC_J", nefc, nv, d->efc_J, ff);
    if (d->nA) {
      print_matrix(fp, "EFC_AR", nefc, nefc, d->efc_AR, ff);
    }
  } else if (nefc) {
    print_matrix_int(fp, "EFC_J_ROWNNZ", nefc, 1, d->efc_J_rownnz);
    print_matrix_int(fp, "EFC_J_ROWADR", nefc, 1, d->efc_J_rowadr);
    print_sparse(fp, "EFC_J", d->efc_J, nefc, d->efc_J_rownnz, d->efc_J_rowadr, d->efc_J_colind,
                 ff);
    print_sparsity(fp, "J: constraint Jacobian", nefc, nv, d->efc_J_rowadr, NULL, d->efc_J_rownnz,
                   d->efc_J_colind);
    if (d->nA) {
      print_matrix_int(fp, "EFC_AR_ROWNNZ", nefc, 1, d->efc_AR_rownnz);
      print_matrix_int(fp, "EFC_AR_ROWADR", nefc, 1, d->efc_AR_rowadr);
      print_sparse(fp, "EFC_AR", d->efc_AR, nefc, d->efc_AR_rownnz, d->efc_AR_rowadr,
                   d->efc_AR_colind, ff);
      print_sparsity(fp, "EFC_AR: inverse constraint inertia", nefc, nefc, d->efc_AR_rowadr, NULL,
                     d->efc_AR_rownnz, d->efc_AR_colind);
    }
  }
  print_matrix(fp, "EFC_POS", nefc, 1, d->efc_pos, ff);
  print_matrix(fp, "EFC_MARGIN", nefc, 1, d->efc_margin, ff);
  print_matrix(fp, "EFC_FRICTIONLOSS", nefc, 1, d->efc_frictionloss, ff);
  print_matrix(fp, "EFC_DIAGA", nefc, 1, d->efc_diagA, ff);
  print_matrix(fp, "EFC_KBIP", nefc, 4, d->efc_KBIP, ff);
  print_matrix(fp, "EFC_D", nefc, 1, d->efc_D, ff);
  print_matrix(fp, "EFC_R", nefc, 1, d->efc_R, ff);
}

/* print the data of model m with float format ff (MuJoCo's layout) */
void mj_printFormattedData(const mjModel* m, const mjData* d, const char* filename,
                           const char* float_format) {
  const char* ff = float_format;
  if (!float_format_ok(ff)) {
    mju_warning("WARNING: Received invalid float_format. Using default instead.");
    ff = TN_FLOAT_FORMAT;
  }
  FILE* fp = open_output(filename, "mjData");
  if (!fp) {
    return;
  }
  int nq = (int)m->nq, nv = (int)m->nv, na = (int)m->na, nu = (int)m->nu;
  int nbody = (int)m->nbody, njnt = (int)m->njnt, ngeom = (int)m->ngeom;
  int nsite = (int)m->nsite, ncam = (int)m->ncam, nlight = (int)m->nlight;
  int ntendon = (int)m->ntendon;
  print_data_head(fp, d, ff);

  // state, controls and applied forces
  print_matrix(fp, "QPOS", nq, 1, d->qpos, ff);
  print_matrix(fp, "QVEL", nv, 1, d->qvel, ff);
  print_matrix(fp, "ACT", na, 1, d->act, ff);
  print_matrix(fp, "QACC_WARMSTART", nv, 1, d->qacc_warmstart, ff);
  print_matrix(fp, "CTRL", nu, 1, d->ctrl, ff);
  print_matrix(fp, "QFRC_APPLIED", nv, 1, d->qfrc_applied, ff);
  print_matrix(fp, "XFRC_APPLIED", nbody, 6, d->xfrc_applied, ff);
  if (m->neq) {
    fprintf(fp, TN_NAME, "EQ_ACTIVE");
    for (int i = 0; i < m->neq; i++) {
      fprintf(fp, " %d", d->eq_active[i]);
    }
    fprintf(fp, "\n\n");
  }
  print_matrix(fp, "MOCAP_POS", (int)m->nmocap, 3, d->mocap_pos, ff);
  print_matrix(fp, "MOCAP_QUAT", (int)m->nmocap, 4, d->mocap_quat, ff);
  print_matrix(fp, "QACC", nv, 1, d->qacc, ff);
  print_matrix(fp, "ACT_DOT", na, 1, d->act_dot, ff);
  print_matrix(fp, "USERDATA", (int)m->nuserdata, 1, d->userdata, ff);
  print_matrix(fp, "SENSOR", (int)m->nsensordata, 1, d->sensordata, ff);

  // kinematics
  print_matrix(fp, "XPOS", nbody, 3, d->xpos, ff);
  print_matrix(fp, "XQUAT", nbody, 4, d->xquat, ff);
  print_matrix(fp, "XMAT", nbody, 9, d->xmat, ff);
  print_matrix(fp, "XIPOS", nbody, 3, d->xipos, ff);
  print_matrix(fp, "XIMAT", nbody, 9, d->ximat, ff);
  print_matrix(fp, "XANCHOR", njnt, 3, d->xanchor, ff);
  print_matrix(fp, "XAXIS", njnt, 3, d->xaxis, ff);
  print_matrix(fp, "GEOM_XPOS", ngeom, 3, d->geom_xpos, ff);
  print_matrix(fp, "GEOM_XMAT", ngeom, 9, d->geom_xmat, ff);
  print_matrix(fp, "SITE_XPOS", nsite, 3, d->site_xpos, ff);
  print_matrix(fp, "SITE_XMAT", nsite, 9, d->site_xmat, ff);
  print_matrix(fp, "CAM_XPOS", ncam, 3, d->cam_xpos, ff);
  print_matrix(fp, "CAM_XMAT", ncam, 9, d->cam_xmat, ff);
  print_matrix(fp, "LIGHT_XPOS", nlight, 3, d->light_xpos, ff);
  print_matrix(fp, "LIGHT_XDIR", nlight, 3, d->light_xdir, ff);
  print_matrix(fp, "SUBTREE_COM", nbody, 3, d->subtree_com, ff);
  print_matrix(fp, "CDOF", nv, 6, d->cdof, ff);
  print_matrix(fp, "CINERT", nbody, 10, d->cinert, ff);

  // tendons: lengths, the Jacobian's pattern, row sizes and addresses, sparse rows; wrap
  // points
  print_matrix(fp, "TEN_LENGTH", ntendon, 1, d->ten_length, ff);
  print_sparsity(fp, "TEN_J: tendon moments", ntendon, nv, m->ten_J_rowadr, NULL,
                 m->ten_J_rownnz, m->ten_J_colind);
  print_matrix_int(fp, "TEN_J_ROWNNZ", ntendon, 1, m->ten_J_rownnz);
  print_matrix_int(fp, "TEN_J_ROWADR", ntendon, 1, m->ten_J_rowadr);
  print_sparse(fp, "TEN_J", d->ten_J, ntendon, m->ten_J_rownnz, m->ten_J_rowadr, m->ten_J_colind,
               ff);
  for (int i = 0; i < ntendon; i++) {
    fprintf(fp, "TENDON %d: %d wrap points\n", i, d->ten_wrapnum[i]);
    for (int j = 0; j < d->ten_wrapnum[i]; j++) {
      fprintf(fp, "    %d:  ", d->wrap_obj[d->ten_wrapadr[i] + j]);
      print_vector(fp, "", d->wrap_xpos + 3 * (d->ten_wrapadr[i] + j), 3, ff);
    }
    fprintf(fp, "\n");
  }

  // actuators, inertia and its factorization
  print_matrix(fp, "ACTUATOR_LENGTH", nu, 1, d->actuator_length, ff);
  print_moments(fp, m, d, ff);
  print_matrix(fp, "CRB", nbody, 10, d->crb, ff);
  print_sparse(fp, "M", d->M, nv, m->M_rownnz, m->M_rowadr, m->M_colind, ff);
  print_sparse(fp, "QLD", d->qLD, nv, m->M_rownnz, m->M_rowadr, m->M_colind, ff);
  print_matrix(fp, "QLDIAGINV", nv, 1, d->qLDiagInv, ff);
  if (nv && !mju_isZero(d->qHDiagInv, nv)) {
    print_sparse(fp, "QH", d->qH, nv, m->M_rownnz, m->M_rowadr, m->M_colind, ff);
    print_matrix(fp, "QHDIAGINV", nv, 1, d->qHDiagInv, ff);
  }
  if (m->nD && !mju_isZero(d->qDeriv, (int)m->nD)) {
    print_sparse(fp, "QDERIV", d->qDeriv, nv, m->D_rownnz, m->D_rowadr, m->D_colind, ff);
  }
  if (m->nD && !mju_isZero(d->qLU, (int)m->nD)) {
    print_sparse(fp, "QLU", d->qLU, nv, m->D_rownnz, m->D_rowadr, m->D_colind, ff);
  }

  // contacts and constraints
  print_contacts(fp, m, d, ff);
  print_efc(fp, m, d, ff);

  // velocities and forces
  print_matrix(fp, "TEN_VELOCITY", ntendon, 1, d->ten_velocity, ff);
  print_matrix(fp, "ACTUATOR_VELOCITY", nu, 1, d->actuator_velocity, ff);
  print_matrix(fp, "CVEL", nbody, 6, d->cvel, ff);
  print_matrix(fp, "CDOF_DOT", nv, 6, d->cdof_dot, ff);
  print_matrix(fp, "QFRC_BIAS", nv, 1, d->qfrc_bias, ff);
  print_matrix(fp, "QFRC_SPRING", nv, 1, d->qfrc_spring, ff);
  print_matrix(fp, "QFRC_DAMPER", nv, 1, d->qfrc_damper, ff);
  print_matrix(fp, "QFRC_GRAVCOMP", nv, 1, d->qfrc_gravcomp, ff);
  print_matrix(fp, "QFRC_FLUID", nv, 1, d->qfrc_fluid, ff);
  print_matrix(fp, "QFRC_PASSIVE", nv, 1, d->qfrc_passive, ff);
  print_matrix(fp, "EFC_VEL", d->nefc, 1, d->efc_vel, ff);
  print_matrix(fp, "EFC_AREF", d->nefc, 1, d->efc_aref, ff);
  print_matrix(fp, "SUBTREE_LINVEL", nbody, 3, d->subtree_linvel, ff);
  print_matrix(fp, "SUBTREE_ANGMOM", nbody, 3, d->subtree_angmom, ff);
  print_matrix(fp, "ACTUATOR_FORCE", nu, 1, d->actuator_force, ff);
  print_matrix(fp, "QFRC_ACTUATOR", nv, 1, d->qfrc_actuator, ff);
  print_matrix(fp, "QFRC_SMOOTH", nv, 1, d->qfrc_smooth, ff);
  print_matrix(fp, "QACC_SMOOTH", nv, 1, d->qacc_smooth, ff);
  print_matrix(fp, "EFC_B", d->nefc, 1, d->efc_b, ff);
  print_matrix(fp, "EFC_FORCE", d->nefc, 1, d->efc_force, ff);
  print_matrix_int(fp, "EFC_STATE", d->nefc, 1, d->efc_state);
  print_matrix(fp, "QFRC_CONSTRAINT", nv, 1, d->qfrc_constraint, ff);
  print_matrix(fp, "QFRC_INVERSE", nv, 1, d->qfrc_inverse, ff);
  print_matrix(fp, "CACC", nbody, 6, d->cacc, ff);
  print_matrix(fp, "CFRC_INT", nbody, 6, d->cfrc_int, ff);
  print_matrix(fp, "CFRC_EXT", nbody, 6, d->cfrc_ext, ff);
  if (filename) {
    fclose(fp);
  }
}

/* print the data with MuJoCo's default float format */
void mj_printData(const mjModel* m, const mjData* d, const char* filename) {
  mj_printFormattedData(m, d, filename, TN_FLOAT_FORMAT);
}
