/* common/npy.c — the .npy reader and writer shared by Torsion's host programs.
 *
 * A file is: the magic "\x93NUMPY", a version byte pair, the header length (2 bytes in 1.0,
 * 4 bytes in 2.0 and 3.0, little-endian), the header — a Python dict literal with exactly the
 * keys 'descr', 'fortran_order' and 'shape', padded with spaces and a newline — then the data.
 * The header is read with a small tokenizer and a parser for that literal, so a dtype string
 * elsewhere in the header cannot be mistaken for the array's dtype. Sizes are checked against
 * the file before anything is allocated. */
#include "npy.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* the data is copied as stored: the host must be little-endian like the files */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "common/npy.c reads and writes little-endian data on a little-endian host only"
#endif

/* the file magic */
static const char npy_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* longest header accepted (a real one with 8 dimensions is a few hundred bytes) */
#define NPY_MAXHEADER (1u << 20)

/* data alignment of written files, as NumPy writes them */
#define NPY_ALIGN 64

/* ---------------------------------------------------------------------------------------- */
/* header tokenizer */

/* kinds of header tokens */
typedef enum tokKind_ {
  TOK_END,   /* end of the header */
  TOK_PUNCT, /* one of { } ( ) [ ] : , */
  TOK_STR,   /* a quoted string without escapes */
  TOK_INT,   /* a decimal integer, optionally negative */
  TOK_NAME,  /* an identifier: True, False, None, ... */
  TOK_BAD,   /* anything else */
} tokKind;

/* one token */
typedef struct npyToken_ {
  tokKind kind;
  char punct;       /* TOK_PUNCT */
  const char* text; /* TOK_STR (contents), TOK_NAME, TOK_BAD */
  size_t len;
  int negative;           /* TOK_INT */
  unsigned long long val; /* TOK_INT, saturated at ULLONG_MAX */
} npyToken;

/* the tokenizer's position in the header */
typedef struct npyLexer_ {
  const char* p;
  const char* end;
} npyLexer;

/* is c a letter or underscore */
static int is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* is c a decimal digit */
static int is_digit(char c) {
  return c >= '0' && c <= '9';
}

/* the next token */
static npyToken next_token(npyLexer* lx) {
  npyToken t = {0};
  // whitespace between tokens
  while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\n' || *lx->p == '\r')) {
    lx->p++;
  }
  if (lx->p >= lx->end) {
    t.kind = TOK_END;
    return t;
  }
  const char* s = lx->p;
  t.text = s;
  t.len = 1;

  // punctuation
  if (*s && strchr("{}()[]:,", *s)) {
    t.kind = TOK_PUNCT;
    t.punct = *s;
    lx->p++;
    return t;
  }

  // a string in single or double quotes (dtype strings never need escapes)
  if (*s == '\'' || *s == '"') {
    const char* q = s + 1;
    while (q < lx->end && *q != *s && *q != '\\' && *q != '\n') {
      q++;
    }
    if (q >= lx->end || *q != *s) {
      t.kind = TOK_BAD;
      lx->p = lx->end;
      return t;
    }
    t.kind = TOK_STR;
    t.text = s + 1;
    t.len = (size_t)(q - s - 1);
    lx->p = q + 1;
    return t;
  }

  // an integer (Python 2 wrote a trailing L on long dimensions)
  if (is_digit(*s) || (*s == '-' && s + 1 < lx->end && is_digit(s[1]))) {
    const char* q = s;
    if (*q == '-') {
      t.negative = 1;
      q++;
    }
    while (q < lx->end && is_digit(*q)) {
      unsigned d = (unsigned)(*q - '0');
      t.val = (t.val > (~0ULL - d) / 10) ? ~0ULL : t.val * 10 + d;
      q++;
    }
    if (q < lx->end && (*q == 'L' || *q == 'l')) {
      q++;
    }
    if (q < lx->end && (is_alpha(*q) || is_digit(*q) || *q == '.')) {
      t.kind = TOK_BAD;
      t.len = (size_t)(q - s);
      lx->p = lx->end;
      return t;
    }
    t.kind = TOK_INT;
    t.len = (size_t)(q - s);
    lx->p = q;
    return t;
  }

  // an identifier
  if (is_alpha(*s)) {
    const char* q = s;
    while (q < lx->end && (is_alpha(*q) || is_digit(*q))) {
      q++;
    }
    t.kind = TOK_NAME;
    t.len = (size_t)(q - s);
    lx->p = q;
    return t;
  }
  t.kind = TOK_BAD;
  lx->p = lx->end;
  return t;
}

/* is t the punctuation c */
static int is_punct(const npyToken* t, char c) {
  return t->kind == TOK_PUNCT && t->punct == c;
}

/* does token text equal the C string s */
static int text_is(const npyToken* t, const char* s) {
  return strlen(s) == t->len && memcmp(t->text, s, t->len) == 0;
}

/* ---------------------------------------------------------------------------------------- */
/* header parser */

/* what the header says */
typedef struct npyHeader_ {
  const char* descr; /* not terminated */
  size_t descr_len;
  int fortran;
  int ndim;
  size_t shape[NPY_MAXDIM];
} npyHeader;

/* parse the shape tuple after its key; 0 or -1 with a reason */
static int parse_shape(npyLexer* lx, npyHeader* h, char* why, size_t whysz) {
  npyToken t = next_token(lx);
  if (!is_punct(&t, '(')) {
    snprintf(why, whysz, "'shape' is not a tuple");
    return -1;
  }
  int comma_after_last = 0;
  h->ndim = 0;
  for (;;) {
    t = next_token(lx);
    if (is_punct(&t, ')')) {
      break;
    }
    if (t.kind != TOK_INT) {
      snprintf(why, whysz, "'shape' holds something other than integers");
      return -1;
    }
    if (t.negative) {
      snprintf(why, whysz, "negative dimension -%llu in 'shape'", t.val);
      return -1;
    }
    if (t.val > NPY_MAXLEN) {
      snprintf(why, whysz, "dimension %.*s in 'shape' is larger than %d",
               (int)(t.len < 40 ? t.len : 40), t.text, NPY_MAXLEN);
      return -1;
    }
    if (h->ndim == NPY_MAXDIM) {
      snprintf(why, whysz, "more than %d dimensions", NPY_MAXDIM);
      return -1;
    }
    h->shape[h->ndim++] = (size_t)t.val;

    // a comma (possibly trailing) or the end of the tuple
    t = next_token(lx);
    comma_after_last = is_punct(&t, ',');
    if (is_punct(&t, ')')) {
      break;
    }
    if (!comma_after_last) {
      snprintf(why, whysz, "malformed 'shape' tuple");
      return -1;
    }
  }
  // in Python "(3)" is an integer, not a tuple
  if (h->ndim == 1 && !comma_after_last) {
    snprintf(why, whysz, "'shape' is not a tuple (a one-element tuple needs a comma)");
    return -1;
  }
  return 0;
}

/* parse the header dict; 0 or -1 with a reason */
static int parse_header(const char* text, size_t len, npyHeader* h, char* why, size_t whysz) {
  npyLexer lx = {text, text + len};
  int seen_descr = 0, seen_fortran = 0, seen_shape = 0;
  memset(h, 0, sizeof(*h));

  npyToken t = next_token(&lx);
  if (!is_punct(&t, '{')) {
    snprintf(why, whysz, "the header is not a dict");
    return -1;
  }
  for (;;) {
    // a key, or the end of the dict (after '{' or a trailing comma)
    t = next_token(&lx);
    if (is_punct(&t, '}')) {
      break;
    }
    if (t.kind != TOK_STR) {
      snprintf(why, whysz, "malformed header dict");
      return -1;
    }
    npyToken key = t;
    t = next_token(&lx);
    if (!is_punct(&t, ':')) {
      snprintf(why, whysz, "malformed header dict");
      return -1;
    }

    // the value of a known key, each exactly once
    int* seen = text_is(&key, "descr")           ? &seen_descr
                : text_is(&key, "fortran_order") ? &seen_fortran
                : text_is(&key, "shape")         ? &seen_shape
                                                 : NULL;
    if (!seen) {
      snprintf(why, whysz, "unexpected key '%.*s' in the header",
               (int)(key.len < 40 ? key.len : 40), key.text);
      return -1;
    }
    if (*seen) {
      snprintf(why, whysz, "key '%.*s' appears twice in the header", (int)key.len, key.text);
      return -1;
    }
    *seen = 1;
    if (seen == &seen_descr) {
      t = next_token(&lx);
      if (t.kind != TOK_STR) {
        snprintf(why, whysz, "'descr' is not a dtype string (structured dtypes are not supported)");
        return -1;
      }
      h->descr = t.text;
      h->descr_len = t.len;
    } else if (seen == &seen_fortran) {
      t = next_token(&lx);
      if (t.kind != TOK_NAME || !(text_is(&t, "True") || text_is(&t, "False"))) {
        snprintf(why, whysz, "'fortran_order' is not True or False");
        return -1;
      }
      h->fortran = text_is(&t, "True");
    } else if (parse_shape(&lx, h, why, whysz)) {
      return -1;
    }

    // a comma (possibly trailing) or the end of the dict
    t = next_token(&lx);
    if (is_punct(&t, '}')) {
      break;
    }
    if (!is_punct(&t, ',')) {
      snprintf(why, whysz, "malformed header dict");
      return -1;
    }
  }

  // nothing but padding after the dict, and all three keys
  t = next_token(&lx);
  if (t.kind != TOK_END) {
    snprintf(why, whysz, "unexpected text after the header dict");
    return -1;
  }
  if (!seen_descr || !seen_fortran || !seen_shape) {
    snprintf(why, whysz, "the header lacks '%s'",
             !seen_descr     ? "descr"
             : !seen_fortran ? "fortran_order"
                             : "shape");
    return -1;
  }
  return 0;
}

/* ---------------------------------------------------------------------------------------- */
/* reading */

/* free an array */
void npy_free(npyArray* a) {
  free(a->data);
  memset(a, 0, sizeof(*a));
}

/* the file's size when it is a regular file, else -1 (a pipe: its size is unknown) */
static long long regular_size(FILE* f) {
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    return -1;
  }
  return (long long)st.st_size;
}

/* read nbytes into a new buffer; from a stream of unknown size the buffer grows with what
 * arrives, so a header that lies about the shape cannot make it allocate much more */
static unsigned char* read_bytes(FILE* f, size_t nbytes, int known_size) {
  size_t cap = known_size ? nbytes : (nbytes < (1u << 16) ? nbytes : (1u << 16));
  unsigned char* buf = malloc(cap ? cap : sizeof(double));
  size_t got = 0;
  while (buf && got < nbytes) {
    if (got == cap) {
      size_t grown = cap > nbytes / 2 ? nbytes : cap * 2;
      unsigned char* p = realloc(buf, grown);
      if (!p) {
        break;
      }
      buf = p;
      cap = grown;
    }
    size_t k = fread(buf + got, 1, cap - got, f);
    if (k == 0) {
      break;
    }
    got += k;
  }
  if (got < nbytes) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* read an array */
int npy_read(const char* path, npyArray* out, char* err, size_t errsz) {
  memset(out, 0, sizeof(*out));
  FILE* f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errsz, "%s: cannot open", path);
    return -1;
  }
  char why[160] = "";
  unsigned char* hdr = NULL;
  unsigned char* data = NULL;
  long long fsize = regular_size(f);

  // magic and version
  unsigned char pre[12];
  size_t lenbytes;
  if (fread(pre, 1, 8, f) != 8 || memcmp(pre, npy_magic, 6) != 0) {
    snprintf(why, sizeof(why), "not a .npy file (bad magic)");
    goto fail;
  }
  if (pre[7] != 0 || pre[6] < 1 || pre[6] > 3) {
    snprintf(why, sizeof(why), "unsupported .npy format version %d.%d", pre[6], pre[7]);
    goto fail;
  }
  lenbytes = pre[6] == 1 ? 2 : 4;

  // header length, checked against the file before it is read
  if (fread(pre + 8, 1, lenbytes, f) != lenbytes) {
    snprintf(why, sizeof(why), "truncated header");
    goto fail;
  }
  size_t hlen = (size_t)pre[8] | (size_t)pre[9] << 8;
  if (lenbytes == 4) {
    hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
  }
  size_t hend = 8 + lenbytes + hlen;
  if (hlen > NPY_MAXHEADER) {
    snprintf(why, sizeof(why), "header of %zu bytes is too long", hlen);
    goto fail;
  }
  if (fsize >= 0 && (unsigned long long)fsize < hend) {
    snprintf(why, sizeof(why), "truncated header");
    goto fail;
  }
  if (!(hdr = read_bytes(f, hlen, 1))) {
    snprintf(why, sizeof(why), "truncated header");
    goto fail;
  }

  // the header: dtype, order, shape
  npyHeader h;
  if (parse_header((const char*)hdr, hlen, &h, why, sizeof(why))) {
    goto fail;
  }
  size_t item;
  if (h.descr_len == 3 && memcmp(h.descr, "<f8", 3) == 0) {
    out->stored = NPY_F64;
    item = 8;
  } else if (h.descr_len == 3 && memcmp(h.descr, "<f4", 3) == 0) {
    out->stored = NPY_F32;
    item = 4;
  } else {
    snprintf(why, sizeof(why), "dtype '%.*s' is not supported (need '<f8' or '<f4')",
             (int)(h.descr_len < 40 ? h.descr_len : 40), h.descr);
    goto fail;
  }
  if (h.fortran) {
    snprintf(why, sizeof(why), "Fortran-order arrays are not supported (need C order)");
    goto fail;
  }

  // the element count, without overflow, and the data it needs against the file
  size_t n = 1;
  for (int i = 0; i < h.ndim; i++) {
    if (h.shape[i] == 0) {
      n = 0;
      break;
    }
  }
  for (int i = 0; n && i < h.ndim; i++) {
    if (n > SIZE_MAX / sizeof(double) / h.shape[i]) {
      snprintf(why, sizeof(why), "the shape's element count overflows");
      goto fail;
    }
    n *= h.shape[i];
  }
  size_t nbytes = n * item;
  if (fsize >= 0 && (unsigned long long)fsize - hend < nbytes) {
    snprintf(why, sizeof(why), "truncated data: the shape needs %zu bytes, the file holds %llu",
             nbytes, (unsigned long long)fsize - hend);
    goto fail;
  }

  // the data, in a buffer of n doubles; float32 is widened in place from the back
  if (!(data = read_bytes(f, nbytes, fsize >= 0))) {
    snprintf(why, sizeof(why), "truncated data");
    goto fail;
  }
  if (item == 4 && n) {
    unsigned char* wide = realloc(data, n * sizeof(double));
    if (!wide) {
      snprintf(why, sizeof(why), "out of memory");
      goto fail;
    }
    data = wide;
    for (size_t i = n; i-- > 0;) {
      float v;
      memcpy(&v, data + 4 * i, sizeof(v));
      double d = v;
      memcpy(data + 8 * i, &d, sizeof(d));
    }
  }
  free(hdr);
  fclose(f);
  out->ndim = h.ndim;
  memcpy(out->shape, h.shape, sizeof(h.shape));
  out->n = n;
  out->data = (double*)(void*)data;
  return 0;

fail:
  snprintf(err, errsz, "%s: %s", path, why);
  free(hdr);
  free(data);
  fclose(f);
  memset(out, 0, sizeof(*out));
  return -1;
}

/* ---------------------------------------------------------------------------------------- */
/* writing */

/* write an array */
int npy_write(const char* path, const void* data, npyType type, int ndim, const size_t* shape,
              char* err, size_t errsz) {
  size_t item = type == NPY_F32 ? 4 : 8;
  if (ndim < 0 || ndim > NPY_MAXDIM) {
    snprintf(err, errsz, "%s: cannot write %d dimensions (at most %d)", path, ndim, NPY_MAXDIM);
    return -1;
  }

  // the element count, without overflow
  size_t n = 1;
  for (int i = 0; i < ndim; i++) {
    if (shape[i] && n > SIZE_MAX / item / shape[i]) {
      snprintf(err, errsz, "%s: the shape's element count overflows", path);
      return -1;
    }
    n *= shape[i];
  }
  if (n && !data) {
    snprintf(err, errsz, "%s: no data to write", path);
    return -1;
  }

  // the dict as NumPy writes it: "(3,)" for one dimension, "(2, 3)" for more
  char dict[512];
  int len = snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     type == NPY_F32 ? "<f4" : "<f8");
  for (int i = 0; i < ndim; i++) {
    len += snprintf(dict + len, sizeof(dict) - (size_t)len, "%s%zu", i ? ", " : "", shape[i]);
  }
  len += snprintf(dict + len, sizeof(dict) - (size_t)len, "%s), }", ndim == 1 ? "," : "");

  // version 1.0 when the padded header fits its 16-bit length, else 2.0
  size_t lenbytes = 2;
  size_t hlen = (size_t)len + 1;
  hlen += (NPY_ALIGN - (8 + lenbytes + hlen) % NPY_ALIGN) % NPY_ALIGN;
  if (hlen > 65535) {
    lenbytes = 4;
    hlen = (size_t)len + 1;
    hlen += (NPY_ALIGN - (8 + lenbytes + hlen) % NPY_ALIGN) % NPY_ALIGN;
  }
  unsigned char pre[12];
  memcpy(pre, npy_magic, 6);
  pre[6] = lenbytes == 2 ? 1 : 2;
  pre[7] = 0;
  for (size_t i = 0; i < lenbytes; i++) {
    pre[8 + i] = (unsigned char)(hlen >> (8 * i));
  }

  // prefix, dict, padding and newline, data
  FILE* f = fopen(path, "wb");
  if (!f) {
    snprintf(err, errsz, "%s: cannot create", path);
    return -1;
  }
  int ok = fwrite(pre, 1, 8 + lenbytes, f) == 8 + lenbytes &&
           fwrite(dict, 1, (size_t)len, f) == (size_t)len;
  for (size_t i = (size_t)len; ok && i + 1 < hlen; i++) {
    ok = fputc(' ', f) != EOF;
  }
  ok = ok && fputc('\n', f) != EOF;
  ok = ok && (n == 0 || fwrite(data, item, n, f) == n);
  ok = (fclose(f) == 0) && ok;
  if (!ok) {
    snprintf(err, errsz, "%s: write failed", path);
    return -1;
  }
  return 0;
}
