/* server/wire.c — frames, arrays, clocks and the token comparison (see wire.h). */
#include "wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* big-endian length at p */
uint32_t td_frame_len(const uint8_t* p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* the state of the frame at the start of a buffer */
int td_frame_split(const uint8_t* p, size_t avail, int64_t max_frame, uint32_t* flen) {
  if (avail < 4) {
    return TD_FRAME_MORE;
  }
  *flen = td_frame_len(p);
  if ((int64_t)*flen > max_frame) {
    return TD_FRAME_TOO_LONG;
  }
  return avail - 4 < (size_t)*flen ? TD_FRAME_MORE : TD_FRAME_READY;
}

/* pack with a 4-byte big-endian length prefix */
int td_pack_frame(const tdResp* r, char** frame, size_t* len) {
  size_t n = protobuf_c_message_get_packed_size(&r->base);
  if (n > 0xFFFFFFFFu) {
    return -1;
  }
  char* buf = malloc(n + 4);
  if (!buf) {
    return -1;
  }
  buf[0] = (char)(n >> 24);
  buf[1] = (char)(n >> 16);
  buf[2] = (char)(n >> 8);
  buf[3] = (char)n;
  protobuf_c_message_pack(&r->base, (uint8_t*)buf + 4);
  *frame = buf;
  *len = n + 4;
  return 0;
}

/* length of the valid UTF-8 sequence at p (at most n bytes), or 0 when it is not one */
static size_t utf8_seq(const unsigned char* p, size_t n) {
  unsigned char b = p[0];
  size_t len;
  uint32_t cp;
  if (b < 0x80) {
    return 1;
  } else if (b >= 0xC2 && b <= 0xDF) {
    len = 2, cp = b & 0x1F;
  } else if (b >= 0xE0 && b <= 0xEF) {
    len = 3, cp = b & 0x0F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    len = 4, cp = b & 0x07;
  } else {
    return 0;
  }
  if (len > n) {
    return 0;
  }
  for (size_t i = 1; i < len; i++) {
    if ((p[i] & 0xC0) != 0x80) {
      return 0;
    }
    cp = cp << 6 | (p[i] & 0x3F);
  }
  // no overlong forms, no surrogates, nothing above U+10FFFF
  if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF)) {
    return 0;
  }
  return len;
}

/* copy s into out (outsz bytes) as valid UTF-8: each invalid byte becomes U+FFFD */
char* td_utf8_sanitize(char* out, size_t outsz, const char* s) {
  const unsigned char* p = (const unsigned char*)s;
  size_t n = strlen(s), o = 0;
  for (size_t i = 0; i < n && outsz > 0;) {
    size_t k = utf8_seq(p + i, n - i);
    const char* src = k ? (const char*)p + i : "\xEF\xBF\xBD";
    size_t w = k ? k : 3;
    if (o + w >= outsz) {
      break;
    }
    memcpy(out + o, src, w);
    o += w;
    i += k ? k : 1;
  }
  if (outsz > 0) {
    out[o] = '\0';
  }
  return out;
}

/* an error frame, always final; the message is made valid UTF-8 (it may quote client input) */
int td_pack_error(uint64_t id, int code, const char* msg, char** frame, size_t* len) {
  char clean[2048];
  Torsion__V1__Error err = TORSION__V1__ERROR__INIT;
  err.code = (Torsion__V1__ErrorCode)code;
  err.message = td_utf8_sanitize(clean, sizeof(clean), msg ? msg : "");
  tdResp r = TORSION__V1__RESPONSE__INIT;
  r.id = id;
  r.final = 1;
  r.body_case = TORSION__V1__RESPONSE__BODY_ERROR;
  r.error = &err;
  return td_pack_frame(&r, frame, len);
}

/* validate an input array */
int td_check_array(const tdArray* a, const char* what, int ndim, const int64_t* shape, int64_t* got,
                   char* why, size_t whysz) {
  if (!a) {
    snprintf(why, whysz, "%s: missing", what);
    return -1;
  }
  if (a->dtype != TD_F64) {
    snprintf(why, whysz, "%s: inputs must be float64 (dtype 0)", what);
    return -1;
  }
  if ((int)a->n_shape != ndim) {
    snprintf(why, whysz, "%s: expected %d dimensions, got %zu", what, ndim, a->n_shape);
    return -1;
  }

  // extents, their product (overflow-checked) and the byte length
  uint64_t total = 1;
  for (int i = 0; i < ndim; i++) {
    uint64_t e = a->shape[i];
    if (e > 0x7FFFFFFFu || (shape[i] >= 0 && (uint64_t)shape[i] != e)) {
      char want[32];
      snprintf(want, sizeof(want), shape[i] >= 0 ? "%lld" : "any", (long long)shape[i]);
      snprintf(why, whysz, "%s: dimension %d is %llu, expected %s", what, i, (unsigned long long)e,
               want);
      return -1;
    }
    got[i] = (int64_t)e;
    if (e && total > UINT64_MAX / 8 / e) {
      snprintf(why, whysz, "%s: shape too large", what);
      return -1;
    }
    total *= e;
  }
  if (a->data.len != total * 8) {
    snprintf(why, whysz, "%s: %zu data bytes for %llu float64 elements", what, a->data.len,
             (unsigned long long)total);
    return -1;
  }
  return 0;
}

/* fill an output array */
void td_set_array(tdArray* a, uint64_t* shape, int ndim, int f32, void* data, size_t nelem) {
  a->n_shape = (size_t)ndim;
  a->shape = shape;
  a->dtype = f32 ? TD_F32 : TD_F64;
  a->data.data = data;
  a->data.len = nelem * (f32 ? 4 : 8);
}

/* store doubles, narrowing when asked */
void td_store(void* out, size_t offset, const double* src, size_t n, int f32) {
  if (f32) {
    float* o = (float*)out + offset;
    for (size_t i = 0; i < n; i++) {
      o[i] = (float)src[i];
    }
  } else if (n) {
    memcpy((double*)out + offset, src, n * sizeof(double));
  }
}

/* clocks */
uint64_t td_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* the same clock in seconds */
double td_now_s(void) {
  return (double)td_now_ns() * 1e-9;
}

/* compare every byte of the longer string, so the time does not depend on where they differ */
int td_secret_equal(const char* a, const char* b) {
  size_t na = strlen(a), nb = strlen(b), n = na > nb ? na : nb;
  unsigned diff = (unsigned)(na ^ nb);
  for (size_t i = 0; i < n; i++) {
    unsigned char ca = i < na ? (unsigned char)a[i] : 0;
    unsigned char cb = i < nb ? (unsigned char)b[i] : 0;
    diff |= (unsigned)(ca ^ cb);
  }
  return diff == 0;
}

/* constant-time comparison of `n` given bytes with a NUL-terminated secret: every byte of
 * the secret is visited whatever the input, and a length difference (an embedded NUL and
 * junk, a prefix) is a mismatch */
int td_secret_equal_n(const uint8_t* given, size_t n, const char* secret) {
  size_t ns = strlen(secret);
  unsigned diff = (unsigned)(n != ns);
  for (size_t i = 0; i < ns; i++) {
    unsigned char g = i < n ? given[i] : 0;
    diff |= (unsigned)(g ^ (unsigned char)secret[i]);
  }
  return ns > 0 && diff == 0;
}

/* read a varint at *p (below end); -1 when malformed */
static int read_varint(const uint8_t** p, const uint8_t* end, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64 && *p < end; shift += 7) {
    uint8_t b = *(*p)++;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      return 0;
    }
  }
  return -1;
}

/* the last length-delimited field `field` in a message's bytes; 0 when found */
static int find_len_field(const uint8_t* p, const uint8_t* end, uint32_t field, const uint8_t** out,
                          size_t* n) {
  int found = -1;
  while (p < end) {
    uint64_t key, v;
    if (read_varint(&p, end, &key)) {
      return -1;
    }
    switch (key & 7) {
      case 0:
        if (read_varint(&p, end, &v))
          return -1;
        break;
      case 1: p += 8; break;
      case 5: p += 4; break;
      case 2:
        if (read_varint(&p, end, &v) || v > (uint64_t)(end - p))
          return -1;
        if ((key >> 3) == field) {
          *out = p;
          *n = (size_t)v;
          found = 0;
        }
        p += v;
        break;
      default: return -1;
    }
  }
  return p == end ? found : -1;
}

/* the raw bytes of Request.hello.token (field 10, then field 2) */
int td_hello_token_raw(const uint8_t* data, size_t len, const uint8_t** tok, size_t* n) {
  const uint8_t* hello;
  size_t nh;
  *tok = NULL;
  *n = 0;
  if (find_len_field(data, data + len, 10, &hello, &nh)) {
    return -1;
  }
  if (find_len_field(hello, hello + nh, 2, tok, n)) {
    *tok = NULL;
    *n = 0;
  }
  return 0;
}
