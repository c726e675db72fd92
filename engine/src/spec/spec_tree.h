/* spec/spec_tree.h — internal: the objects behind MuJoCo's model-editing API.
 *
 * Every element the mjs_* functions hand out (mjSpec, mjsBody, mjsGeom, ...) lives inside
 * a tnsNode: the public struct (in a union), its mjsElement, its name, its place in the
 * body tree and its default class. The string and array handles of the public structs
 * (mjString*, mjDoubleVec*, ...) point to tnsHandle objects owned by the spec. */
#ifndef TORSION_SPEC_TREE_H
#define TORSION_SPEC_TREE_H

#include <stddef.h>

#include <torsion/torsion.h>

/* kinds of handle */
enum {
  TNS_STR = 0,    /* text (data: char*, n: length) */
  TNS_INT,        /* int array */
  TNS_FLOAT,      /* float array */
  TNS_DOUBLE,     /* double array */
  TNS_BYTE,       /* byte array */
  TNS_STRVEC,     /* array of char* */
  TNS_INTVECVEC,  /* array of tnsHandle (TNS_INT) */
  TNS_FLOATVECVEC /* array of tnsHandle (TNS_FLOAT) */
};

/* the object type of tendon wraps (they have no mjtObj) */
#define TNS_WRAP 1000

/* one string or array behind an opaque handle */
typedef struct tnsHandle_ {
  int kind;
  int n;      /* number of elements (characters for text) */
  void* data; /* malloc'ed; text is NUL-terminated */
} tnsHandle;

/* a handle field of a public struct: where it is and what it holds */
typedef struct tnsField_ {
  size_t offset;
  int kind;
} tnsField;

typedef struct tnsSpec_ tnsSpec;
typedef struct tnsNode_ tnsNode;

/* one user value (mjs_setUserValue) */
typedef struct tnsUserValue_ {
  char* key;
  const void* data;
  void (*cleanup)(const void*);
  struct tnsUserValue_* next;
} tnsUserValue;

/* an element of a spec */
struct tnsNode_ {
  mjsElement element;
  int type;   /* mjtObj of the element, TNS_WRAP for tendon wraps */
  int hidden; /* part of a default class: not an element of the model */
  tnsSpec* owner;
  tnsNode *prev, *next;         /* every node of the spec, in creation order */
  tnsNode* parent;              /* body of a tree element, tendon of a wrap */
  tnsNode* frame;               /* enclosing frame (tree elements), NULL: none */
  tnsNode *first, *last;        /* children (bodies: tree elements; tendons: wraps) */
  tnsNode *sib_prev, *sib_next; /* siblings under the parent */
  tnsHandle* name;              /* TNS_STR */
  tnsNode* def;                 /* default class (mjsDefault node), NULL: none */
  int id;                       /* index in the last compiled model, -1: none */
  int deleted;                  /* removed from the spec (kept until the spec dies) */
  tnsHandle* wrap_target;       /* wraps: joint, site or geom name */
  tnsHandle* wrap_side;         /* wraps: side site name */
  double wrap_prm;              /* wraps: joint coefficient or pulley divisor */
  tnsUserValue* user;           /* user payloads */
  union {
    mjSpec spec;
    mjsBody body;
    mjsFrame frame;
    mjsJoint joint;
    mjsGeom geom;
    mjsSite site;
    mjsCamera camera;
    mjsLight light;
    mjsFlex flex;
    mjsMesh mesh;
    mjsHField hfield;
    mjsSkin skin;
    mjsTexture texture;
    mjsMaterial material;
    mjsPair pair;
    mjsExclude exclude;
    mjsEquality equality;
    mjsTendon tendon;
    mjsWrap wrap;
    mjsActuator actuator;
    mjsSensor sensor;
    mjsNumeric numeric;
    mjsText text;
    mjsTuple tuple;
    mjsKey key;
    mjsDefault def;
    mjsPlugin plugin;
  } u;
};

/* a spec: its root node (the mjSpec), the world body, the main class and what it owns */
struct tnsSpec_ {
  tnsNode* root;        /* u.spec */
  tnsNode* world;       /* u.body */
  tnsNode* main;        /* u.def, "main" */
  tnsNode *head, *tail; /* every node */
  tnsHandle** handles;  /* every handle (freed with the spec) */
  int nhandle, caphandle;
  char error[1024]; /* last error (compile, parse, add) */
  int warning;      /* the error is a warning */
};

/* the node holding a public struct, from its element pointer */
#define TNS_NODE(el) ((tnsNode*)((char*)(el)-offsetof(tnsNode, element)))

/* the handle fields of a public struct of object type `type` (count in *n) */
const tnsField* tn__specFields(int type, int* n);

/* a new handle owned by spec s; NULL on OOM */
tnsHandle* tn__specHandle(tnsSpec* s, int kind);
/* copy handle contents (same kind); 0 on OOM */
int tn__specHandleCopy(tnsHandle* dst, const tnsHandle* src);
/* set a text handle; 0 on OOM */
int tn__specSetText(tnsHandle* h, const char* text);
/* set an array handle (kind's element size) */
int tn__specSetArray(tnsHandle* h, const void* data, int n);
/* text of a handle ("" when empty or NULL) */
const char* tn__specText(const void* h);

/* a new node of object type `type` linked into s (public struct zeroed, handles fresh);
 * NULL on OOM */
tnsNode* tn__specNode(tnsSpec* s, int type);
/* append node c to the children of p */
void tn__specAdopt(tnsNode* p, tnsNode* c);
/* copy the public struct of src into dst (same type), deep-copying its handles */
int tn__specCopyObject(tnsNode* dst, const void* src, int type);
/* size of the public struct of an object type */
size_t tn__specObjectSize(int type);

/* a new empty spec (world body, main class); NULL on OOM */
tnsSpec* tn__specMake(void);
/* free a spec */
void tn__specDestroy(tnsSpec* s);

/* the spec of a public mjSpec */
#define TNS_SPEC(pub) (TNS_NODE((pub)->element)->owner)

/* record an error in s (printf-style); returns NULL for convenience */
void* tn__specError(tnsSpec* s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* the default class of a body's new children: its childclass, else its parent's */
tnsNode* tn__specBodyClass(tnsNode* body);

/* compile a spec into a model (spec_compile.c); NULL with the error in s->error */
mjModel* tn__specCompile(tnsSpec* s, const mjVFS* vfs);

/* number every element as the compiler orders them in the model (node id; bodies in tree
 * order, other tree elements by body, the rest in creation order); spec_compile.c */
void tn__specAssignIds(tnsSpec* s);

#endif /* TORSION_SPEC_TREE_H */
