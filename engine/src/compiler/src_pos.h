/* compiler/src_pos.h — internal: where an element of the model was written.
 *
 * The spec keeps, for every object, a pointer to the source position of the element it was
 * read from (the MJCF reader embeds one in each node of its tree), so the compiler can name
 * FILE:LINE and the element in its errors and tell two elements apart, without knowing the
 * reader's types. */
#ifndef TORSION_SRC_POS_H
#define TORSION_SRC_POS_H

#include <stdarg.h>

/* the element's name, file and line */
typedef struct tnSrcPos_ {
  const char* element; /* element name, e.g. "geom" */
  const char* file;    /* path of the file holding the element */
  int line;            /* 1-based line of its start tag, 0 if unknown */
} tnSrcPos;

/* Write "FILE:LINE: element 'NAME': [attribute 'ATTR': ]MESSAGE" into err (printf-style
 * message). pos may be NULL (no position), attr may be NULL. */
void tn__srcError(char* err, int errsz, const tnSrcPos* pos, const char* attr, const char* fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The same with the message's arguments in a va_list. */
void tn__srcErrorV(char* err, int errsz, const tnSrcPos* pos, const char* attr, const char* fmt,
                   va_list ap) __attribute__((format(printf, 5, 0)));

#endif /* TORSION_SRC_POS_H */
