/* tests/integration/test_server_parts.c — cmocka tests of torsiond's self-contained parts:
 * the content hash, file-reference and path confinement rules, asset staging, latency
 * histograms, Array validation, the token comparison and the option table. The daemon as a
 * whole is tested by the pytest files next to this one, which start the real binary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "metrics.h"
#include "pathguard.h"
#include "sha256.h"
#include "wire.h"

/* hex SHA-256 of a string */
static void sha(const char* s, char out[65]) {
  tdSha256 h;
  td_sha256_init(&h);
  td_sha256_update(&h, s, strlen(s));
  td_sha256_hex(&h, out);
}

/* FIPS 180-4 example vectors, and streaming in odd pieces */
static void test_sha256_vectors(void** state) {
  (void)state;
  char out[65];
  sha("", out);
  assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  sha("abc", out);
  assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char* two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  sha(two, out);
  assert_string_equal(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  tdSha256 h;
  td_sha256_init(&h);
  for (size_t i = 0; i < strlen(two); i += 5) {
    td_sha256_update(&h, two + i, strlen(two) - i < 5 ? strlen(two) - i : 5);
  }
  td_sha256_hex(&h, out);
  assert_string_equal(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* asset names */
static void test_asset_names(void** state) {
  (void)state;
  char why[256];
  assert_int_equal(td_check_asset_name("a.xml", why, sizeof(why)), 0);
  assert_int_equal(td_check_asset_name("meshes/part_1.stl", why, sizeof(why)), 0);
  const char* bad[] = {"", "/a", "../a", "a/../b", "a//b", "./a", "a/", "a b", "a:b", "a\\b"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    assert_int_equal(td_check_asset_name(bad[i], why, sizeof(why)), -1);
  }
}

/* model-root confinement, symlinks included */
static void test_model_root(void** state) {
  (void)state;
  char root[] = "/tmp/td-parts-XXXXXX", path[512], out[4096], why[512];
  assert_non_null(mkdtemp(root));
  snprintf(path, sizeof(path), "%s/in.xml", root);
  FILE* f = fopen(path, "w");
  fputs("<mujoco/>", f);
  fclose(f);
  snprintf(path, sizeof(path), "%s/link.xml", root);
  assert_int_equal(symlink("/etc/hostname", path), 0);
  assert_int_equal(td_resolve_under_root(root, "in.xml", out, sizeof(out), why, sizeof(why)), 0);
  assert_int_equal(td_resolve_under_root(root, "link.xml", out, sizeof(out), why, sizeof(why)), -1);
  assert_int_equal(
      td_resolve_under_root(root, "../etc/hostname", out, sizeof(out), why, sizeof(why)), -1);
  assert_int_equal(td_resolve_under_root(root, "/etc/hostname", out, sizeof(out), why, sizeof(why)),
                   -1);
  assert_int_equal(td_resolve_under_root("", "in.xml", out, sizeof(out), why, sizeof(why)), -1);
  unlink(path);
  snprintf(path, sizeof(path), "%s/in.xml", root);
  unlink(path);
  rmdir(root);
}

/* histogram quantiles are ordered and bounded by the maximum */
static void test_histogram(void** state) {
  (void)state;
  tdHist h;
  memset(&h, 0, sizeof(h));
  assert_true(td_hist_quantile(&h, 0.5) == 0.0);
  for (int i = 1; i <= 1000; i++) {
    td_hist_add(&h, (double)i);
  }
  double p50 = td_hist_quantile(&h, 0.5), p99 = td_hist_quantile(&h, 0.99);
  assert_true(p50 > 400 && p50 < 600);
  assert_true(p99 > p50 && p99 <= 1000.0);
  assert_true(td_hist_quantile(&h, 1.0) <= h.max_us);
  assert_int_equal(h.count, 1000);
}

/* input arrays: dtype, dimensions, extents and byte length */
static void test_check_array(void** state) {
  (void)state;
  double data[6] = {0};
  uint64_t shape[2] = {2, 3};
  Torsion__V1__Array a = TORSION__V1__ARRAY__INIT;
  a.n_shape = 2;
  a.shape = shape;
  a.data.data = (uint8_t*)data;
  a.data.len = sizeof(data);
  int64_t want[2] = {-1, 3}, got[2];
  char why[256];
  assert_int_equal(td_check_array(&a, "x", 2, want, got, why, sizeof(why)), 0);
  assert_int_equal(got[0], 2);
  want[1] = 4;
  assert_int_equal(td_check_array(&a, "x", 2, want, got, why, sizeof(why)), -1);
  want[1] = 3;
  a.data.len = 40;
  assert_int_equal(td_check_array(&a, "x", 2, want, got, why, sizeof(why)), -1);
  a.data.len = sizeof(data);
  a.dtype = TD_F32;
  assert_int_equal(td_check_array(&a, "x", 2, want, got, why, sizeof(why)), -1);
  a.dtype = TD_F64;
  uint64_t huge[2] = {1ull << 40, 3};
  a.shape = huge;
  assert_int_equal(td_check_array(&a, "x", 2, want, got, why, sizeof(why)), -1);
  assert_int_equal(td_check_array(NULL, "x", 2, want, got, why, sizeof(why)), -1);
}

/* the token comparison */
static void test_secret_equal(void** state) {
  (void)state;
  assert_true(td_secret_equal("abc", "abc"));
  assert_false(td_secret_equal("abc", "abd"));
  assert_false(td_secret_equal("abc", "abcd"));
  assert_false(td_secret_equal("", "a"));
  assert_true(td_secret_equal("", ""));
}

/* defaults, flags in both spellings, byte suffixes and errors */
/* raw tokens: full length, lengths must match, embedded NULs are wrong */
static void test_secret_equal_n(void** state) {
  (void)state;
  const char* secret = "0123456789abcdef";
  assert_true(td_secret_equal_n((const uint8_t*)"0123456789abcdef", 16, secret));
  assert_false(td_secret_equal_n((const uint8_t*)"0123456789abcdef\0junk", 21, secret));
  assert_false(td_secret_equal_n((const uint8_t*)"0123456789abcde", 15, secret));
  assert_false(td_secret_equal_n((const uint8_t*)"", 0, ""));
}

/* error messages become valid UTF-8 */
static void test_utf8_sanitize(void** state) {
  (void)state;
  char out[64];
  assert_string_equal(td_utf8_sanitize(out, sizeof(out), "plain \xc3\xa9"), "plain \xc3\xa9");
  assert_string_equal(td_utf8_sanitize(out, sizeof(out), "a\xff\xc3("),
                      "a\xef\xbf\xbd\xef\xbf\xbd(");
  assert_string_equal(td_utf8_sanitize(out, sizeof(out), "\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd");
  assert_string_equal(td_utf8_sanitize(out, sizeof(out), "\xed\xa0\x80"),
                      "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  assert_string_equal(td_utf8_sanitize(out, 4, "abcdef"), "abc");
}

static void test_config_flags(void** state) {
  (void)state;
  tdConfig cfg;
  char* argv[] = {"torsiond", "--workers=3", "--max-frame-bytes", "2M",
                  "--socket", "/tmp/x.sock", "--max_batch=10"};
  assert_int_equal(td_config_load(&cfg, 7, argv), 0);
  assert_int_equal(cfg.workers, 3);
  assert_int_equal(cfg.max_frame_bytes, 2 * 1024 * 1024);
  assert_int_equal(cfg.max_batch, 10);
  assert_string_equal(cfg.socket, "/tmp/x.sock");
  assert_int_equal(cfg.max_inflight_per_connection, 64);
  assert_int_equal(td_config_finish(&cfg), 0);
  char* bad[] = {"torsiond", "--max-batch", "lots"};
  assert_int_equal(td_config_load(&cfg, 3, bad), -1);
  char* unknown[] = {"torsiond", "--frobnicate=1"};
  assert_int_equal(td_config_load(&cfg, 2, unknown), -1);
  char* public_tcp[] = {"torsiond", "--tcp-port=5555", "--tcp-address=0.0.0.0"};
  assert_int_equal(td_config_load(&cfg, 3, public_tcp), 0);
  assert_int_equal(td_config_finish(&cfg), -1);
}

/* the test list */
int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sha256_vectors), cmocka_unit_test(test_asset_names),
      cmocka_unit_test(test_model_root),     cmocka_unit_test(test_histogram),
      cmocka_unit_test(test_check_array),    cmocka_unit_test(test_secret_equal),
      cmocka_unit_test(test_config_flags),   cmocka_unit_test(test_secret_equal_n),
      cmocka_unit_test(test_utf8_sanitize),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
