/* xml/xml_replicate.c — <replicate>: a subtree repeated with accumulating offsets, expanded
 * in the document tree before the bodies are read.
 *
 * MuJoCo 3.14's semantics: replica i sits in a frame rotated by i times the euler angles
 * (converted with the compiler's angle unit and euler sequence) and placed at the previous
 * replica's position plus the offset rotated by the previous replica's rotation (replica 0
 * at the enclosing frame). Every name inside gets the suffix sep + i, i padded with zeros
 * to the number of digits of count; nested replicates add their suffixes inside out.
 * Elements of later sections that refer to a replicated name (sensors, actuators, tendons,
 * contact pairs and excludes, equalities) are moved to the end of their section, one copy
 * per replica in replica order, their references to replicated names and their own names
 * suffixed; an equality that also refers to a name outside the replicated subtree is
 * dropped, as MuJoCo drops it.
 *
 * Each replica becomes a <frame> element carrying its pose (written with 17 significant
 * digits, so the numbers are exact), so the body reader needs nothing new. Keyframes, which
 * MuJoCo also replicates (one copy per replica and key, mapped joint by joint), are not
 * implemented yet: a model with both is refused. */
#include <stdio.h>
#include <string.h>

#include "xml/xml_reader.h"

/* attributes that name other objects (references) */
static const char* const reference_attrs[] = {
    "joint",    "joint1",    "joint2",     "body",      "body1",    "body2",     "geom",
    "geom1",    "geom2",     "site",       "site1",     "site2",    "tendon",    "tendon1",
    "tendon2",  "actuator",  "objname",    "refname",   "sidesite", "refsite",   "cranksite",
    "slidersite", "jointinparent", "subtree1", "subtree2", "camera", "target", NULL};

/* sections whose elements may refer to replicated names, in MuJoCo's reading order (an
 * element moved with a replica makes its own name replicated for the sections after it) */
static const char* const referencing_sections[] = {"contact",  "equality", "tendon",
                                                   "actuator", "sensor",   NULL};

/* a set of names (pool memory, grown by doubling) */
typedef struct tnNameSet_ {
  const char** name;
  int n, cap;
} tnNameSet;

/* most elements the replicas of one document may create */
#define TN_REPLICATE_MAXNODES 2000000

/* state of one expansion */
typedef struct tnReplicate_ {
  tnReader* r;
  tnPool* pool;
  long long nodes; /* elements created so far */
} tnReplicate;

/* add a name to the set */
static int set_add(tnReplicate* x, tnNameSet* s, const char* name) {
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 16;
    const char** grown = tn__poolAlloc(x->pool, sizeof(char*) * (size_t)cap);
    if (!grown) {
      return 0;
    }
    if (s->n) {
      memcpy(grown, s->name, sizeof(char*) * (size_t)s->n);
    }
    s->name = grown;
    s->cap = cap;
  }
  s->name[s->n++] = name;
  return 1;
}

/* true when the set holds the name */
static int set_has(const tnNameSet* s, const char* name) {
  for (int i = 0; i < s->n; i++) {
    if (strcmp(s->name[i], name) == 0) {
      return 1;
    }
  }
  return 0;
}

/* every name defined in a subtree */
static int collect_names(tnReplicate* x, const tnXmlNode* node, tnNameSet* s) {
  const char* name = tn__xmlAttr(node, "name");
  if (name && name[0] && !set_add(x, s, name)) {
    return 0;
  }
  for (int i = 0; i < node->nchild; i++) {
    if (!collect_names(x, node->child[i], s)) {
      return 0;
    }
  }
  return 1;
}

/* true for an attribute holding a reference */
static int is_reference(const char* attr) {
  for (int i = 0; reference_attrs[i]; i++) {
    if (strcmp(reference_attrs[i], attr) == 0) {
      return 1;
    }
  }
  return 0;
}

/* value + suffix in the pool */
static const char* suffixed(tnReplicate* x, const char* value, const char* suffix) {
  size_t n = strlen(value) + strlen(suffix) + 1;
  char* out = tn__poolAlloc(x->pool, n);
  if (out) {
    snprintf(out, n, "%s%s", value, suffix);
  }
  return out;
}

/* Deep copy of a subtree: every name takes the suffix when `rename` is set, and every
 * reference to a member of `refs` (NULL: none) takes it too. */
static tnXmlNode* clone(tnReplicate* x, const tnXmlNode* src, tnXmlNode* parent, const char* suffix,
                        int rename, const tnNameSet* refs) {
  if (++x->nodes > TN_REPLICATE_MAXNODES) {
    return NULL;
  }
  tnXmlNode* node = tn__poolAlloc(x->pool, sizeof(tnXmlNode));
  if (!node) {
    return NULL;
  }
  *node = *src;
  node->parent = parent;
  node->attr = tn__poolAlloc(x->pool, sizeof(tnXmlAttr) * (size_t)(src->nattr ? src->nattr : 1));
  node->child =
      tn__poolAlloc(x->pool, sizeof(tnXmlNode*) * (size_t)(src->nchild ? src->nchild : 1));
  if (!node->attr || !node->child) {
    return NULL;
  }

  // attributes: own name and references to replicated names take the suffix
  for (int i = 0; i < src->nattr; i++) {
    tnXmlAttr a = src->attr[i];
    int is_name = strcmp(a.name, "name") == 0 && a.value[0];
    int is_ref = refs && is_reference(a.name) && set_has(refs, a.value);
    if ((is_name && rename) || is_ref) {
      a.value = suffixed(x, a.value, suffix);
      if (!a.value) {
        return NULL;
      }
    }
    node->attr[i] = a;
  }
  for (int i = 0; i < src->nchild; i++) {
    node->child[i] = clone(x, src->child[i], node, suffix, rename, refs);
    if (!node->child[i]) {
      return NULL;
    }
  }
  return node;
}

/* true when a subtree refers to a name of the set; *outside: it also refers to another */
static int refers_to(const tnXmlNode* node, const tnNameSet* s, int* outside) {
  int found = 0;
  for (int i = 0; i < node->nattr; i++) {
    if (is_reference(node->attr[i].name)) {
      if (set_has(s, node->attr[i].value)) {
        found = 1;
      } else {
        *outside = 1;
      }
    }
  }
  for (int i = 0; i < node->nchild; i++) {
    found |= refers_to(node->child[i], s, outside);
  }
  return found;
}

/* the suffix of replica i: sep, then i padded to the digits of count */
static void replica_suffix(char* out, size_t n, const char* sep, int i, int count) {
  int digits = snprintf(NULL, 0, "%d", count);
  snprintf(out, n, "%s%0*d", sep, digits, i);
}

/* move the elements of later sections that refer to replicated names, one copy per replica */
static int replicate_references(tnReplicate* x, tnXmlNode* root, tnNameSet* names, int count,
                                const char* sep) {
  for (int s = 0; referencing_sections[s]; s++) {
    for (int k = 0; k < root->nchild; k++) {
      tnXmlNode* sec = root->child[k];
      if (strcmp(sec->name, referencing_sections[s]) != 0) {
        continue;
      }

      // split the section: elements that stay, and those that follow the replicas
      int nkeep = 0, nmove = 0;
      tnXmlNode** keep = tn__poolAlloc(x->pool, sizeof(tnXmlNode*) * (size_t)(sec->nchild + 1));
      tnXmlNode** move = tn__poolAlloc(x->pool, sizeof(tnXmlNode*) * (size_t)(sec->nchild + 1));
      if (!keep || !move) {
        return 0;
      }
      for (int i = 0; i < sec->nchild; i++) {
        int outside = 0;
        tnXmlNode* e = sec->child[i];
        if (!refers_to(e, names, &outside)) {
          keep[nkeep++] = e;
        } else if (!(outside && strcmp(sec->name, "equality") == 0)) {
          move[nmove++] = e;
        }
      }
      if (nkeep == sec->nchild) {
        continue;
      }

      // the section's new children: kept ones, then each replica's copies
      tnXmlNode** child =
          tn__poolAlloc(x->pool, sizeof(tnXmlNode*) * (size_t)(nkeep + nmove * count + 1));
      if (!child) {
        return 0;
      }
      memcpy(child, keep, sizeof(tnXmlNode*) * (size_t)nkeep);
      int n = nkeep;
      for (int i = 0; i < count; i++) {
        char suffix[64];
        replica_suffix(suffix, sizeof(suffix), sep, i, count);
        for (int j = 0; j < nmove; j++) {
          child[n] = clone(x, move[j], sec, suffix, 1, names);
          if (!child[n++]) {
            return 0;
          }
        }
      }
      sec->child = child;
      sec->nchild = n;

      // their names are replicated names for the sections that follow
      for (int j = 0; j < nmove; j++) {
        const char* name = tn__xmlAttr(move[j], "name");
        if (name && name[0] && !set_add(x, names, name)) {
          return 0;
        }
      }
    }
  }
  return 1;
}

/* a <frame> holding replica i at pose (pos, quat) */
static tnXmlNode* replica_frame(tnReplicate* x, tnXmlNode* rep, const mjtNum pos[3],
                                const mjtNum quat[4], const char* suffix, const tnNameSet* names) {
  tnXmlNode* frame = tn__poolAlloc(x->pool, sizeof(tnXmlNode));
  tnXmlAttr* attr = tn__poolAlloc(x->pool, 2 * sizeof(tnXmlAttr));
  char* spos = tn__poolAlloc(x->pool, 80);
  char* squat = tn__poolAlloc(x->pool, 100);
  tnXmlNode** child =
      tn__poolAlloc(x->pool, sizeof(tnXmlNode*) * (size_t)(rep->nchild ? rep->nchild : 1));
  if (!frame || !attr || !spos || !squat || !child) {
    return NULL;
  }
  snprintf(spos, 80, "%.17g %.17g %.17g", pos[0], pos[1], pos[2]);
  snprintf(squat, 100, "%.17g %.17g %.17g %.17g", quat[0], quat[1], quat[2], quat[3]);
  attr[0] = (tnXmlAttr){"pos", spos, 0};
  attr[1] = (tnXmlAttr){"quat", squat, 0};
  *frame = (tnXmlNode){"frame", {"frame", rep->pos.file, rep->pos.line}, 2, attr, rep->nchild,
                       child, rep->parent};
  for (int i = 0; i < rep->nchild; i++) {
    child[i] = clone(x, rep->child[i], frame, suffix, 1, names);
    if (!child[i]) {
      return NULL;
    }
  }
  return frame;
}

/* the attributes of a <replicate>: count, offset, euler angles, separator */
static int replicate_attrs(tnReplicate* x, tnXmlNode* rep, int* count, mjtNum offset[3],
                           mjtNum euler[3], const char** sep) {
  tnReader* r = x->r;
  *sep = tn__rdStr(rep, "sep");
  if (!*sep) {
    *sep = "";
  }
  if (tn__rdInts(r, rep, "count", count, 1, 1) <= 0) {
    return tn__rdFail(r, rep, "count", "required attribute missing") + 1;
  }
  if (*count < 1 || *count > TN_REPLICATE_MAXNODES) {
    return tn__rdFail(r, rep, "count", "must be in 1..2000000") + 1;
  }
  TN_TRY(tn__rdNums(r, rep, "offset", offset, 3, 3));
  TN_TRY(tn__rdNums(r, rep, "euler", euler, 3, 3));
  return 1;
}

/* the rotation of replica i: the euler angles times i, with the compiler's settings */
static int replica_quat(tnReplicate* x, tnXmlNode* rep, const mjtNum euler[3], int i,
                        mjtNum quat[4]) {
  const tnCompilerSettings* cs = &x->r->spec->compiler;
  tnOrientation o = {TN_ORIENT_EULER, {i * euler[0], i * euler[1], i * euler[2], 0, 0, 0}};
  char why[256] = "";
  if (!tn__orientationToQuat(quat, &o, cs->degree, cs->eulerseq, why, sizeof(why))) {
    return tn__rdFail(x->r, rep, "euler", why[0] ? why : "invalid rotation") + 1;
  }
  return 1;
}

/* replace the replicate child k of parent by its replica frames */
static int expand_one(tnReplicate* x, tnXmlNode* root, tnXmlNode* parent, int k) {
  tnXmlNode* rep = parent->child[k];
  int count = 0;
  mjtNum offset[3] = {0, 0, 0}, euler[3] = {0, 0, 0};
  const char* sep = NULL;
  TN_OK(replicate_attrs(x, rep, &count, offset, euler, &sep));
  for (int i = 0; i < root->nchild; i++) {
    if (strcmp(root->child[i]->name, "keyframe") == 0 && root->child[i]->nchild) {
      return tn__rdFail(x->r, rep, NULL,
                        "keyframes in a model with <replicate> are not implemented yet (MuJoCo "
                        "replicates them per replica)") +
             1;
    }
  }
  tnNameSet names = {NULL, 0, 0};
  tnXmlNode** child = tn__poolAlloc(x->pool, sizeof(tnXmlNode*) * (size_t)(parent->nchild + count));
  if (!child || !collect_names(x, rep, &names)) {
    return tn__rdFail(x->r, rep, NULL, "out of memory") + 1;
  }

  // replica i is rotated by i times the euler angles; its position is the previous one's
  // plus the offset in the previous one's rotation
  memcpy(child, parent->child, sizeof(tnXmlNode*) * (size_t)k);
  mjtNum pos[3] = {0, 0, 0};
  for (int i = 0; i < count; i++) {
    char suffix[64];
    mjtNum quat[4], step[3];
    replica_suffix(suffix, sizeof(suffix), sep, i, count);
    TN_OK(replica_quat(x, rep, euler, i, quat));
    child[k + i] = replica_frame(x, rep, pos, quat, suffix, &names);
    if (!child[k + i]) {
      return tn__rdFail(x->r, rep, NULL,
                        x->nodes > TN_REPLICATE_MAXNODES
                            ? "too many replicated elements (more than 2000000)"
                            : "out of memory") +
             1;
    }
    mju_rotVecQuat(step, offset, quat);
    mju_addTo3(pos, step);
  }
  memcpy(child + k + count, parent->child + k + 1,
         sizeof(tnXmlNode*) * (size_t)(parent->nchild - k - 1));
  parent->child = child;
  parent->nchild += count - 1;

  // elements elsewhere that refer to the replicated names
  if (!replicate_references(x, root, &names, count, sep)) {
    return tn__rdFail(x->r, rep, NULL, "out of memory") + 1;
  }
  return 1;
}

/* expand every replicate below node, innermost first */
static int expand(tnReplicate* x, tnXmlNode* root, tnXmlNode* node) {
  for (int k = 0; k < node->nchild; k++) {
    tnXmlNode* c = node->child[k];
    TN_OK(expand(x, root, c));
    if (strcmp(c->name, "replicate") == 0) {
      int count = node->nchild;
      TN_OK(expand_one(x, root, node, k));
      k += node->nchild - count; /* skip the replicas just made */
    }
  }
  return 1;
}

/* expand the replicates of <worldbody> (and the references to them elsewhere) */
int tn__xmlExpandReplicates(tnReader* r, tnXmlNode* worldbody) {
  tnReplicate x = {r, &r->doc->pool, 0};
  tnXmlNode* root = worldbody->parent ? worldbody->parent : worldbody;
  return expand(&x, root, worldbody);
}
