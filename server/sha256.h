/* server/sha256.h — SHA-256 (FIPS 180-4), used to derive model handles from content so
 * the same MJCF and assets load once. */
#ifndef TORSIOND_SHA256_H
#define TORSIOND_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* streaming state */
typedef struct tdSha256_ {
  uint32_t h[8];
  uint64_t nbytes;
  uint8_t block[64];
  size_t nblock;
} tdSha256;

void td_sha256_init(tdSha256* s);
void td_sha256_update(tdSha256* s, const void* data, size_t n);

/* finish and write the digest as 64 lowercase hex characters plus NUL */
void td_sha256_hex(tdSha256* s, char out[65]);

#endif /* TORSIOND_SHA256_H */
