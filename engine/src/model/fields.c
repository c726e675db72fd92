/* model/fields.c — the field registry: any mjModel/mjData array by its MuJoCo name.
 *
 * Generated from the X-macro tables, so every array is reachable by name for debugging
 * dumps (torsion-sim dump) and for the daemon's model info without hand-kept lists. */
#include <string.h>

#include <torsion/torsion.h>

/* the tnFieldType of a C element type, resolved at compile time */
#define TN_FIELD_TYPE(type)                                                   \
  _Generic((type){0}, mjtNum: tnFIELD_NUM, int: tnFIELD_INT,                   \
           mjtByte: tnFIELD_BYTE, mjtBool: tnFIELD_BOOL, mjtSize: tnFIELD_SIZE, \
           float: tnFIELD_FLOAT, char: tnFIELD_CHAR)

/* find a model array */
int tn_modelField(const mjModel* m, const char* name, tnField* f) {
#define MJ_M(n) (m->n)
#define X(T_, N_, R_, C_)                     \
  if (strcmp(name, #N_) == 0) {               \
    f->name = #N_;                            \
    f->type = TN_FIELD_TYPE(T_);              \
    f->rows = m->R_;                          \
    f->cols = (C_);                           \
    f->ptr = m->N_;                        \
    return 1;                                 \
  }
  MJMODEL_POINTERS(X)
#undef X
#undef MJ_M
  return 0;
}

/* find a data array */
int tn_dataField(const mjModel* m, const mjData* d, const char* name, tnField* f) {
#define MJ_M(n) (m->n)
#define X(T_, N_, R_, C_)                     \
  if (strcmp(name, #N_) == 0) {               \
    f->name = #N_;                            \
    f->type = TN_FIELD_TYPE(T_);              \
    f->rows = m->R_;                          \
    f->cols = (C_);                           \
    f->ptr = d->N_;                        \
    return 1;                                 \
  }
  MJDATA_POINTERS(X)
#undef X
#undef MJ_M
  return 0;
}

/* element i as mjtNum */
mjtNum tn_fieldValue(const tnField* f, int i) {
  switch (f->type) {
    case tnFIELD_NUM: return ((const mjtNum*)f->ptr)[i];
    case tnFIELD_INT: return ((const int*)f->ptr)[i];
    case tnFIELD_BYTE: return ((const mjtByte*)f->ptr)[i];
    case tnFIELD_BOOL: return ((const mjtBool*)f->ptr)[i];
    case tnFIELD_SIZE: return (mjtNum)((const mjtSize*)f->ptr)[i];
    case tnFIELD_FLOAT: return ((const float*)f->ptr)[i];
    case tnFIELD_CHAR: return ((const char*)f->ptr)[i];
  }
  return 0;
}
