/* server/wire.h — the protocol as the server sees it: short names for the generated
 * protobuf-c types and codes, frame packing, and Array validation and filling.
 *
 * Arrays travel as raw little-endian floats; the server copies them with memcpy, so it
 * builds only on little-endian hosts (checked below). */
#ifndef TORSIOND_WIRE_H
#define TORSIOND_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "torsion.pb-c.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "torsiond moves arrays with memcpy: a little-endian host is required"
#endif

/* protocol version served */
#define TD_PROTOCOL_VERSION 1

/* generated type names, shortened */
typedef Torsion__V1__Request tdReq;
typedef Torsion__V1__Response tdResp;
typedef Torsion__V1__Array tdArray;

/* error codes, shortened */
#define TD_OK 0
#define TD_E_BAD_FRAME TORSION__V1__ERROR_CODE__ERROR_BAD_FRAME
#define TD_E_BAD_MESSAGE TORSION__V1__ERROR_CODE__ERROR_BAD_MESSAGE
#define TD_E_UNKNOWN_REQUEST TORSION__V1__ERROR_CODE__ERROR_UNKNOWN_REQUEST
#define TD_E_UNAUTHENTICATED TORSION__V1__ERROR_CODE__ERROR_UNAUTHENTICATED
#define TD_E_INVALID_ARGUMENT TORSION__V1__ERROR_CODE__ERROR_INVALID_ARGUMENT
#define TD_E_BAD_SHAPE TORSION__V1__ERROR_CODE__ERROR_BAD_SHAPE
#define TD_E_MODEL_NOT_FOUND TORSION__V1__ERROR_CODE__ERROR_MODEL_NOT_FOUND
#define TD_E_MODEL_LOAD_FAILED TORSION__V1__ERROR_CODE__ERROR_MODEL_LOAD_FAILED
#define TD_E_PATH_FORBIDDEN TORSION__V1__ERROR_CODE__ERROR_PATH_FORBIDDEN
#define TD_E_LIMIT_EXCEEDED TORSION__V1__ERROR_CODE__ERROR_LIMIT_EXCEEDED
#define TD_E_SESSION_NOT_FOUND TORSION__V1__ERROR_CODE__ERROR_SESSION_NOT_FOUND
#define TD_E_CANCELLED TORSION__V1__ERROR_CODE__ERROR_CANCELLED
#define TD_E_DEADLINE_EXCEEDED TORSION__V1__ERROR_CODE__ERROR_DEADLINE_EXCEEDED
#define TD_E_ENGINE TORSION__V1__ERROR_CODE__ERROR_ENGINE
#define TD_E_SHUTTING_DOWN TORSION__V1__ERROR_CODE__ERROR_SHUTTING_DOWN
#define TD_E_DUPLICATE_ID TORSION__V1__ERROR_CODE__ERROR_DUPLICATE_ID
#define TD_E_INTERNAL TORSION__V1__ERROR_CODE__ERROR_INTERNAL
#define TD_E_UNIMPLEMENTED TORSION__V1__ERROR_CODE__ERROR_UNIMPLEMENTED

/* dtypes, shortened */
#define TD_F64 TORSION__V1__DTYPE__DTYPE_FLOAT64
#define TD_F32 TORSION__V1__DTYPE__DTYPE_FLOAT32

/* the big-endian payload length at the start of a frame (4 bytes at p) */
uint32_t td_frame_len(const uint8_t* p);

/* where the frame at the start of `avail` buffered bytes stands, for a server taking frames
 * of at most max_frame payload bytes: TD_FRAME_READY (its *flen payload bytes follow the
 * 4-byte length), TD_FRAME_MORE (more bytes are needed) or TD_FRAME_TOO_LONG (the length
 * is over the limit: the framing is broken) */
#define TD_FRAME_MORE 0
#define TD_FRAME_READY 1
#define TD_FRAME_TOO_LONG (-1)
int td_frame_split(const uint8_t* p, size_t avail, int64_t max_frame, uint32_t* flen);

/* serialize a response into a new frame (4-byte big-endian length + message); returns 0,
 * or -1 when out of memory or too large for a frame */
int td_pack_frame(const tdResp* r, char** frame, size_t* len);

/* copy s into out as valid UTF-8, each invalid byte replaced by U+FFFD; returns out */
char* td_utf8_sanitize(char* out, size_t outsz, const char* s);

/* serialize an error response */
int td_pack_error(uint64_t id, int code, const char* msg, char** frame, size_t* len);

/* check an input array: float64, `ndim` dimensions; shape[i] >= 0 must match exactly, -1
 * accepts any extent, and the data length must equal the product. The actual extents go
 * to `got`. Returns 0, or -1 with a reason (naming `what`) in `why`. */
int td_check_array(const tdArray* a, const char* what, int ndim, const int64_t* shape, int64_t* got,
                   char* why, size_t whysz);

/* point an output Array at `data` (float64 or float32 elements) with this shape */
void td_set_array(tdArray* a, uint64_t* shape, int ndim, int f32, void* data, size_t nelem);

/* copy n doubles into an output buffer as float64 or float32 */
void td_store(void* out, size_t offset, const double* src, size_t n, int f32);

/* monotonic clock in nanoseconds and in seconds */
uint64_t td_now_ns(void);
double td_now_s(void);

/* constant-time comparison of two NUL-terminated secrets: 1 when equal */
int td_secret_equal(const char* a, const char* b);

/* constant-time comparison of n raw bytes with a NUL-terminated, non-empty secret over its
 * full length (lengths must match): 1 when equal */
int td_secret_equal_n(const uint8_t* given, size_t n, const char* secret);

/* the raw bytes of the token of a Request frame's Hello (NULL, 0 when absent); -1 when the
 * frame has no Hello or is malformed */
int td_hello_token_raw(const uint8_t* data, size_t len, const uint8_t** tok, size_t* n);

#endif /* TORSIOND_WIRE_H */
