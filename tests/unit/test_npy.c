/* tests/unit/test_npy.c — unit tests of the shared .npy reader/writer (common/npy.c).
 *
 * Every test works on real files in a temporary directory: round trips of float64 and
 * float32 arrays, headers written by hand (versions 2.0 and 3.0, keys in any order, odd
 * whitespace, trailing commas), and each kind of file the reader must refuse with a
 * one-line reason and no allocation: other dtypes, a misleading '<f8' outside 'descr',
 * Fortran order, too many / negative / huge dimensions, a shape whose element count
 * overflows or exceeds the file, truncated files and a bad magic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "npy.h"

/* the temporary directory of this run, and a path in it */
static char g_dir[256];
static char g_path[512];

/* path of a file named `name` in the temporary directory */
static const char* tmp_file(const char* name) {
  snprintf(g_path, sizeof(g_path), "%s/%s", g_dir, name);
  return g_path;
}

/* write a file: the magic, version major.0, the header (length field of `lenbytes` bytes,
 * no padding added), then `nbytes` bytes of data */
static const char* write_raw(const char* name, int major, size_t lenbytes, const char* header,
                             const void* data, size_t nbytes) {
  const char* path = tmp_file(name);
  FILE* f = fopen(path, "wb");
  assert_non_null(f);
  size_t hlen = strlen(header);
  unsigned char pre[12] = {0x93, 'N', 'U', 'M', 'P', 'Y', (unsigned char)major, 0};
  for (size_t i = 0; i < lenbytes; i++) {
    pre[8 + i] = (unsigned char)(hlen >> (8 * i));
  }
  assert_int_equal(fwrite(pre, 1, 8 + lenbytes, f), 8 + lenbytes);
  assert_int_equal(fwrite(header, 1, hlen, f), hlen);
  if (nbytes) {
    assert_int_equal(fwrite(data, 1, nbytes, f), nbytes);
  }
  assert_int_equal(fclose(f), 0);
  return path;
}

/* read path expecting a refusal whose one-line message names the file and holds `reason` */
static void expect_refused(const char* path, const char* reason) {
  npyArray a;
  char err[512] = "";
  assert_int_equal(npy_read(path, &a, err, sizeof(err)), -1);
  assert_null(a.data);
  assert_int_equal(a.ndim, 0);
  assert_non_null(strstr(err, path));
  if (!strstr(err, reason)) {
    fail_msg("message '%s' lacks '%s'", err, reason);
  }
  assert_null(strchr(err, '\n'));
}

/* six doubles, the data of the hand-written [2, 3] files */
static const double SIX[6] = {1.5, -2.0, 3.25, 0.0, 1e300, -7e-300};

/* float64 [2, 3] written then read back bit for bit, with NumPy's header layout */
static void test_roundtrip_f64(void** state) {
  (void)state;
  char err[256];
  size_t shape[2] = {2, 3};
  const char* path = tmp_file("f64.npy");
  assert_int_equal(npy_write(path, SIX, NPY_F64, 2, shape, err, sizeof(err)), 0);

  // header: version 1.0, data on a 64-byte boundary, NumPy's dict text
  FILE* f = fopen(path, "rb");
  assert_non_null(f);
  unsigned char buf[256];
  size_t got = fread(buf, 1, sizeof(buf), f);
  fclose(f);
  size_t hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
  assert_int_equal(buf[6], 1);
  assert_int_equal((10 + hlen) % 64, 0);
  assert_int_equal(got, 10 + hlen + sizeof(SIX));
  const char* dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
  assert_memory_equal(buf + 10, dict, strlen(dict));
  assert_int_equal(buf[10 + hlen - 1], '\n');

  npyArray a;
  assert_int_equal(npy_read(path, &a, err, sizeof(err)), 0);
  assert_int_equal(a.ndim, 2);
  assert_int_equal(a.shape[0], 2);
  assert_int_equal(a.shape[1], 3);
  assert_int_equal(a.n, 6);
  assert_int_equal(a.stored, NPY_F64);
  assert_memory_equal(a.data, SIX, sizeof(SIX));
  npy_free(&a);
  assert_null(a.data);
}

/* float32 written as '<f4' and read back widened; 1-D shapes get "(n,)" */
static void test_roundtrip_f32(void** state) {
  (void)state;
  char err[256];
  float v[5] = {0.5f, -1.25f, 3.0e38f, 1.0e-30f, 7.0f};
  size_t shape[1] = {5};
  const char* path = tmp_file("f32.npy");
  assert_int_equal(npy_write(path, v, NPY_F32, 1, shape, err, sizeof(err)), 0);
  npyArray a;
  assert_int_equal(npy_read(path, &a, err, sizeof(err)), 0);
  assert_int_equal(a.ndim, 1);
  assert_int_equal(a.shape[0], 5);
  assert_int_equal(a.stored, NPY_F32);
  for (int i = 0; i < 5; i++) {
    assert_true(a.data[i] == (double)v[i]);
  }
  npy_free(&a);
}

/* empty arrays and 0-d scalars round trip too */
static void test_roundtrip_empty_and_scalar(void** state) {
  (void)state;
  char err[256];
  size_t shape[2] = {0, 4};
  const char* path = tmp_file("empty.npy");
  assert_int_equal(npy_write(path, NULL, NPY_F64, 2, shape, err, sizeof(err)), 0);
  npyArray a;
  assert_int_equal(npy_read(path, &a, err, sizeof(err)), 0);
  assert_int_equal(a.ndim, 2);
  assert_int_equal(a.n, 0);
  assert_non_null(a.data);
  npy_free(&a);

  double x = 42.0;
  path = tmp_file("scalar.npy");
  assert_int_equal(npy_write(path, &x, NPY_F64, 0, NULL, err, sizeof(err)), 0);
  assert_int_equal(npy_read(path, &a, err, sizeof(err)), 0);
  assert_int_equal(a.ndim, 0);
  assert_int_equal(a.n, 1);
  assert_true(a.data[0] == 42.0);
  npy_free(&a);
}

/* version 2.0 and 3.0 headers (4-byte length), keys in another order, tabs, newlines,
 * double quotes, no trailing comma, a Python 2 long suffix */
static void test_other_versions_and_layouts(void** state) {
  (void)state;
  const char* headers[] = {
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }          \n",
      "{ 'shape' :(2,3,) ,'descr':'<f8','fortran_order':False}\n",
      "{\"fortran_order\": False,\n\t\"shape\": (2L, 3L), \"descr\": \"<f8\",}\n",
  };
  for (int major = 1; major <= 3; major++) {
    for (int k = 0; k < 3; k++) {
      char name[64], err[256];
      snprintf(name, sizeof(name), "v%d_%d.npy", major, k);
      const char* path = write_raw(name, major, major == 1 ? 2 : 4, headers[k], SIX, sizeof(SIX));
      npyArray a;
      if (npy_read(path, &a, err, sizeof(err))) {
        fail_msg("version %d header %d refused: %s", major, k, err);
      }
      assert_int_equal(a.ndim, 2);
      assert_int_equal(a.shape[0], 2);
      assert_int_equal(a.shape[1], 3);
      assert_memory_equal(a.data, SIX, sizeof(SIX));
      npy_free(&a);
    }
  }
}

/* dtypes other than '<f8' / '<f4', including a '<f8' in the wrong place */
static void test_refuses_other_dtypes(void** state) {
  (void)state;
  struct {
    const char* header;
    const char* reason;
  } cases[] = {
      {"{'descr': '>f8', 'fortran_order': False, 'shape': (2, 3), }\n", "dtype '>f8'"},
      {"{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }\n", "dtype '|u1'"},
      {"{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }\n", "dtype '<i8'"},
      {"{'descr': '<f8 ', 'fortran_order': False, 'shape': (2, 3), }\n", "dtype '<f8 '"},
      {"{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }\n", "dtype '<f2'"},
      // misleading: '<f8' as another key's value, as a key, or inside a structured dtype
      {"{'descr': '>f8', 'fortran_order': False, 'shape': (2, 3), 'x': '<f8'}\n",
       "unexpected key 'x'"},
      {"{'<f8': 1, 'descr': '>f8', 'fortran_order': False, 'shape': (2, 3), }\n",
       "unexpected key '<f8'"},
      {"{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2, 3), }\n",
       "structured dtypes are not supported"},
      {"{'descr': '>f8', 'fortran_order': False, 'shape': (2, 3), }  '<f8'\n",
       "unexpected text after the header dict"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char name[64];
    snprintf(name, sizeof(name), "dtype_%zu.npy", i);
    expect_refused(write_raw(name, 1, 2, cases[i].header, SIX, sizeof(SIX)), cases[i].reason);
  }
}

/* malformed or incomplete dicts */
static void test_refuses_bad_dicts(void** state) {
  (void)state;
  struct {
    const char* header;
    const char* reason;
  } cases[] = {
      {"{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }\n", "Fortran-order"},
      {"{'descr': '<f8', 'fortran_order': 0, 'shape': (2, 3), }\n", "not True or False"},
      {"{'descr': '<f8', 'shape': (2, 3), }\n", "lacks 'fortran_order'"},
      {"{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (6,), }\n",
       "appears twice"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (6), }\n", "not a tuple"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': [2, 3], }\n", "not a tuple"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2,, 3), }\n", "integers"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2 3), }\n", "malformed 'shape'"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2.0, 3), }\n", "integers"},
      {"{'descr': '<f8' 'fortran_order': False, 'shape': (2, 3), }\n", "malformed header"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), \n", "malformed header"},
      {"{'descr': '<f8, 'fortran_order': False, 'shape': (2, 3), }\n", "malformed header"},
      {"('descr', '<f8')\n", "not a dict"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char name[64];
    snprintf(name, sizeof(name), "dict_%zu.npy", i);
    expect_refused(write_raw(name, 1, 2, cases[i].header, SIX, sizeof(SIX)), cases[i].reason);
  }
}

/* shapes: too many, negative or huge dimensions, overflowing or oversized element counts */
static void test_refuses_bad_shapes(void** state) {
  (void)state;
  struct {
    const char* header;
    const char* reason;
  } cases[] = {
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 6), }\n",
       "more than 8 dimensions"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (-2, -3), }\n", "negative dimension"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }\n",
       "dimension 1099511627776 in 'shape' is larger"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999, 0), }\n",
       "is larger"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2147483647, 2147483647, "
       "2147483647), }\n",
       "element count overflows"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2147483647, 1000), }\n",
       "truncated data: the shape needs"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 4), }\n", "truncated data"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 6), }\n", "truncated data"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    char name[64];
    snprintf(name, sizeof(name), "shape_%zu.npy", i);
    expect_refused(write_raw(name, 1, 2, cases[i].header, SIX, sizeof(SIX) - 8 * (i == 7)),
                   cases[i].reason);
  }
  // 8 dimensions are fine
  char err[256];
  npyArray a;
  const char* path = write_raw("shape_8d.npy", 1, 2,
                               "{'descr': '<f8', 'fortran_order': False, "
                               "'shape': (1, 1, 1, 2, 1, 1, 3, 1), }\n",
                               SIX, sizeof(SIX));
  assert_int_equal(npy_read(path, &a, err, sizeof(err)), 0);
  assert_int_equal(a.ndim, 8);
  assert_int_equal(a.n, 6);
  npy_free(&a);
}

/* bad magic, unknown versions, and files cut in the prefix, the header or the data */
static void test_refuses_broken_files(void** state) {
  (void)state;
  const char* good = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n";
  const char* path = write_raw("magic.npy", 1, 2, good, SIX, sizeof(SIX));
  FILE* f = fopen(path, "r+b");
  assert_non_null(f);
  fputc('X', f);
  fclose(f);
  expect_refused(path, "bad magic");
  expect_refused(write_raw("v4.npy", 4, 4, good, SIX, sizeof(SIX)), "format version 4.0");
  expect_refused(tmp_file("missing.npy"), "cannot open");

  // cut after 9 bytes, inside the header, inside the data
  char cut[512];
  size_t whole = 10 + strlen(good) + sizeof(SIX);
  size_t ends[3] = {9, 10 + strlen(good) / 2, whole - 3};
  const char* reasons[3] = {"truncated header", "truncated header", "truncated data"};
  path = write_raw("whole.npy", 1, 2, good, SIX, sizeof(SIX));
  f = fopen(path, "rb");
  assert_non_null(f);
  unsigned char bytes[512];
  assert_int_equal(fread(bytes, 1, sizeof(bytes), f), whole);
  fclose(f);
  for (int i = 0; i < 3; i++) {
    snprintf(cut, sizeof(cut), "%s/cut_%d.npy", g_dir, i);
    f = fopen(cut, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, ends[i], f), ends[i]);
    fclose(f);
    expect_refused(cut, reasons[i]);
  }
}

/* the writer refuses what it cannot describe */
static void test_write_refusals(void** state) {
  (void)state;
  char err[256];
  size_t shape[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  assert_int_equal(npy_write(tmp_file("w9.npy"), SIX, NPY_F64, 9, shape, err, sizeof(err)), -1);
  assert_non_null(strstr(err, "at most 8"));
  size_t big[3] = {(size_t)1 << 40, (size_t)1 << 40, 2};
  assert_int_equal(npy_write(tmp_file("wbig.npy"), SIX, NPY_F64, 3, big, err, sizeof(err)), -1);
  assert_non_null(strstr(err, "overflows"));
  assert_int_equal(npy_write("/nonexistent/dir/x.npy", SIX, NPY_F64, 1, shape, err, sizeof(err)),
                   -1);
  assert_non_null(strstr(err, "cannot create"));
}

/* make and remove the temporary directory */
static int setup(void** state) {
  (void)state;
  snprintf(g_dir, sizeof(g_dir), "/tmp/torsion_npy_XXXXXX");
  return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void** state) {
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", g_dir);
  return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roundtrip_f64),
      cmocka_unit_test(test_roundtrip_f32),
      cmocka_unit_test(test_roundtrip_empty_and_scalar),
      cmocka_unit_test(test_other_versions_and_layouts),
      cmocka_unit_test(test_refuses_other_dtypes),
      cmocka_unit_test(test_refuses_bad_dicts),
      cmocka_unit_test(test_refuses_bad_shapes),
      cmocka_unit_test(test_refuses_broken_files),
      cmocka_unit_test(test_write_refusals),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
