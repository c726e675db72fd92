/* xml/xml_attr.c — parsing attribute values: numbers, integers, keywords, booleans,
 * orientations and user data, with errors that quote the offending text. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xml/xml_reader.h"

/* longest value quoted in a message */
#define TN_QUOTE_MAX 80

/* the raw value (marks it consumed) */
const char* tn__rdStr(tnXmlNode* node, const char* attr) {
  for (int i = 0; i < node->nattr; i++) {
    if (strcmp(node->attr[i].name, attr) == 0) {
      node->attr[i].used = 1;
      return node->attr[i].value;
    }
  }
  return NULL;
}

/* error at node/attr */
int tn__rdFail(tnReader* r, tnXmlNode* node, const char* attr, const char* msg) {
  tn__xmlError(r->err, r->errsz, node, attr, "%s", msg);
  return -1;
}

/* error quoting the value */
static int fail_value(tnReader* r, tnXmlNode* node, const char* attr, const char* expected,
                      const char* value) {
  int n = (int)strlen(value);
  tn__xmlError(r->err, r->errsz, node, attr, "expected %s, got \"%.*s%s\"", expected,
               n > TN_QUOTE_MAX ? TN_QUOTE_MAX : n, value, n > TN_QUOTE_MAX ? "..." : "");
  return -1;
}

/* a string copied into the spec's pool */
int tn__rdName(tnReader* r, tnXmlNode* node, const char* attr, const char** out) {
  const char* v = tn__rdStr(node, attr);
  if (!v) {
    return 0;
  }
  char* copy = tn__poolStrdup(&r->spec->pool, v);
  if (!copy) {
    return tn__rdFail(r, node, attr, "out of memory");
  }
  *out = copy;
  return 1;
}

/* true for XML whitespace */
static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* count whitespace-separated tokens */
static int count_tokens(const char* s) {
  int n = 0;
  while (*s) {
    while (is_space(*s)) {
      s++;
    }
    if (!*s) {
      break;
    }
    n++;
    while (*s && !is_space(*s)) {
      s++;
    }
  }
  return n;
}

/* parse the next token as a finite number; advances *s; 0 on failure */
static int next_number(const char** s, double* out) {
  while (is_space(**s)) {
    (*s)++;
  }
  char* end = NULL;
  errno = 0;
  double v = strtod(*s, &end);
  if (end == *s || (*end && !is_space(*end)) || !isfinite(v) || errno == ERANGE) {
    return 0;
  }
  *s = end;
  *out = v;
  return 1;
}

/* describe "N numbers" / "N to M numbers" */
static void expected_count(char* buf, size_t n, int nmin, int nmax, const char* what) {
  if (nmin == nmax) {
    snprintf(buf, n, "%d %s%s", nmin, what, nmin == 1 ? "" : "s");
  } else {
    snprintf(buf, n, "%d to %d %ss", nmin, nmax, what);
  }
}

/* nmin..nmax finite numbers as doubles */
static int read_doubles(tnReader* r, tnXmlNode* node, const char* attr, double* out, int nmin,
                        int nmax) {
  const char* v = tn__rdStr(node, attr);
  if (!v) {
    return 0;
  }
  char expected[64];
  expected_count(expected, sizeof(expected), nmin, nmax, "number");
  int n = count_tokens(v);
  if (n < nmin || n > nmax) {
    return fail_value(r, node, attr, expected, v);
  }
  const char* s = v;
  for (int i = 0; i < n; i++) {
    if (!next_number(&s, &out[i])) {
      return fail_value(r, node, attr, expected, v);
    }
  }
  return n;
}

/* nmin..nmax finite numbers */
int tn__rdNums(tnReader* r, tnXmlNode* node, const char* attr, mjtNum* out, int nmin, int nmax) {
  return read_doubles(r, node, attr, out, nmin, nmax);
}

/* the same into floats */
int tn__rdFloats(tnReader* r, tnXmlNode* node, const char* attr, float* out, int nmin, int nmax) {
  double tmp[16];
  if (nmax > 16) {
    return tn__rdFail(r, node, attr, "internal: too many values");
  }
  int n = read_doubles(r, node, attr, tmp, nmin, nmax);
  for (int i = 0; i < n; i++) {
    out[i] = (float)tmp[i];
  }
  return n;
}

/* nmin..nmax integers */
int tn__rdInts(tnReader* r, tnXmlNode* node, const char* attr, int* out, int nmin, int nmax) {
  const char* v = tn__rdStr(node, attr);
  if (!v) {
    return 0;
  }
  char expected[64];
  expected_count(expected, sizeof(expected), nmin, nmax, "integer");
  int n = count_tokens(v);
  if (n < nmin || n > nmax) {
    return fail_value(r, node, attr, expected, v);
  }
  const char* s = v;
  for (int i = 0; i < n; i++) {
    while (is_space(*s)) {
      s++;
    }
    char* end = NULL;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || (*end && !is_space(*end)) || errno == ERANGE || x > INT_MAX || x < INT_MIN) {
      return fail_value(r, node, attr, expected, v);
    }
    out[i] = (int)x;
    s = end;
  }
  return n;
}

/* any number of numbers into pool memory */
int tn__rdNumArray(tnReader* r, tnXmlNode* node, const char* attr, mjtNum** out, int* n) {
  const char* v = tn__rdStr(node, attr);
  if (!v) {
    return 0;
  }
  int count = count_tokens(v);
  mjtNum* data = tn__poolAlloc(&r->spec->pool, sizeof(mjtNum) * (size_t)(count ? count : 1));
  if (!data) {
    return tn__rdFail(r, node, attr, "out of memory");
  }
  const char* s = v;
  for (int i = 0; i < count; i++) {
    if (!next_number(&s, &data[i])) {
      return fail_value(r, node, attr, "a list of finite numbers", v);
    }
  }
  *out = data;
  *n = count;
  return 1;
}

/* one keyword of a table */
int tn__rdKeyword(tnReader* r, tnXmlNode* node, const char* attr, const tnKeyword* table,
                  int* out) {
  const char* v = tn__rdStr(node, attr);
  if (!v) {
    return 0;
  }
  for (int i = 0; table[i].word; i++) {
    if (strcmp(table[i].word, v) == 0) {
      *out = table[i].value;
      return 1;
    }
  }

  // list the accepted words in the message
  char words[400] = "one of";
  for (int i = 0; table[i].word; i++) {
    size_t len = strlen(words);
    snprintf(words + len, sizeof(words) - len, "%s '%s'", i ? "," : "", table[i].word);
  }
  return fail_value(r, node, attr, words, v);
}

/* booleans */
static const tnKeyword bool_words[] = {{"false", 0}, {"true", 1}, {NULL, 0}};
static const tnKeyword tri_words[] = {
    {"false", TN_FALSE}, {"true", TN_TRUE}, {"auto", TN_AUTO}, {NULL, 0}};

int tn__rdBool(tnReader* r, tnXmlNode* node, const char* attr, int* out) {
  return tn__rdKeyword(r, node, attr, bool_words, out);
}

int tn__rdTri(tnReader* r, tnXmlNode* node, const char* attr, int* out) {
  return tn__rdKeyword(r, node, attr, tri_words, out);
}

/* quat/axisangle/euler/xyaxes/zaxis, at most one */
int tn__rdOrientation(tnReader* r, tnXmlNode* node, tnOrientation* o) {
  static const struct {
    const char* attr;
    tnOrientKind kind;
    int n;
  } forms[] = {{"quat", TN_ORIENT_QUAT, 4},
               {"axisangle", TN_ORIENT_AXISANGLE, 4},
               {"euler", TN_ORIENT_EULER, 3},
               {"xyaxes", TN_ORIENT_XYAXES, 6},
               {"zaxis", TN_ORIENT_ZAXIS, 3}};
  const char* first = NULL;
  for (int i = 0; i < 5; i++) {
    mjtNum v[6] = {0};
    int got = tn__rdNums(r, node, forms[i].attr, v, forms[i].n, forms[i].n);
    if (got < 0) {
      return -1;
    }
    if (got == 0) {
      continue;
    }
    if (first) {
      tn__xmlError(r->err, r->errsz, node, forms[i].attr,
                   "orientation already given by '%s' (use only one of quat, axisangle, "
                   "euler, xyaxes, zaxis)",
                   first);
      return -1;
    }
    first = forms[i].attr;
    o->kind = forms[i].kind;
    memcpy(o->v, v, sizeof(v));
  }
  return first ? 1 : 0;
}

/* user data */
int tn__rdUser(tnReader* r, tnXmlNode* node, tnUser* user) {
  mjtNum* v = NULL;
  int n = 0;
  int res = tn__rdNumArray(r, node, "user", &v, &n);
  if (res > 0) {
    user->v = v;
    user->n = n;
  }
  return res;
}
