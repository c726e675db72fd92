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

/* an error frame, always final */
int td_pack_error(uint64_t id, int code, const char* msg, char** frame, size_t* len) {
  Torsion__V1__Error err = TORSION__V1__ERROR__INIT;
  err.code = (Torsion__V1__ErrorCode)code;
  err.message = (char*)(msg ? msg : "");
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
