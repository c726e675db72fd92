#!/usr/bin/env bash
# scripts/test.sh — the whole test suite: install what it needs (apt packages only when one
# is missing; the pinned Python environment .venv from requirements-test.txt), build into
# build/, run the C unit tests (meson test), the daemon's integration tests once under
# AddressSanitizer (build-asan/), the fuzz targets for 15 s each (scripts/fuzz.sh, with
# the regression inputs of fuzz/regressions/), the layering check of engine/src
# (scripts/check_layers.py), then the whole pytest suite (differential tests against
# MuJoCo through torsion-sim, integration tests against the real daemon). The output ends
# with pytest's summary line; the exit status is non-zero when the build, any unit test,
# the layering check or any pytest test failed.
#   extra arguments go to pytest, e.g.  bash scripts/test.sh -k humanoid -x
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$TORSION_ROOT"

# set-up failures stop here: without packages or the venv nothing can run
ensure_apt_packages || exit 1
ensure_venv || exit 1

# build; a failure is remembered (pytest then reports every check that needs the binary)
status=0
if ! build_engine; then
  echo "BUILD FAILED (see above); the tests below run against whatever exists" >&2
  status=1
fi

# C unit tests; the results are kept in build/meson-logs/testlog.json for pytest to report
step "meson test -C build --print-errorlogs"
if [ -f build/build.ninja ]; then
  if ! "$MESON" test -C build --print-errorlogs; then
    echo "C UNIT TESTS FAILED (see above)" >&2
    status=1
  fi
  export TORSION_MESON_TESTLOG="$TORSION_ROOT/build/meson-logs/testlog.json"
else
  echo "no build/ to test" >&2
  status=1
fi

# the daemon's integration tests once more under AddressSanitizer (leaks included): a
# separate build-asan/ of everything, then tests/integration against it
step "AddressSanitizer pass: build-asan/ and tests/integration"
if [ ! -f build-asan/build.ninja ]; then
  "$MESON" setup build-asan -Db_sanitize=address -Db_lundef=false -Db_lto=false \
    -Dbuildtype=debugoptimized >/dev/null || status=1
fi
if [ -f build-asan/build.ninja ] && "$NINJA" -C build-asan >build-asan.log 2>&1; then
  if ! TORSION_BUILD="$TORSION_ROOT/build-asan" ASAN_OPTIONS=detect_leaks=1 \
      .venv/bin/python -m pytest -q -p no:cacheprovider tests/integration; then
    echo "ASAN INTEGRATION TESTS FAILED (see above)" >&2
    status=1
  fi
else
  tail -n 30 build-asan.log >&2
  echo "ASAN BUILD FAILED" >&2
  status=1
fi

# the fuzz targets (fuzz/, clang + libFuzzer in build-fuzz/): the committed regression
# inputs once, then 15 s of fuzzing per target; any crash, leak or UBSan report fails
step "libFuzzer: scripts/fuzz.sh 15"
if ! TORSION_FUZZ_FRESH=1 bash scripts/fuzz.sh 15; then
  echo "FUZZING FAILED (see above; inputs under fuzz/crashes/)" >&2
  status=1
fi

# the layering of engine/src: stage folders include one another one way only (a cycle or
# an upward include fails the run)
step "python3 scripts/check_layers.py"
if ! .venv/bin/python scripts/check_layers.py; then
  echo "LAYERING CHECK FAILED (see above)" >&2
  status=1
fi

# the pytest suite; its summary line is the last line of output
step "pytest"
export TORSION_SIM="$TORSION_ROOT/build/engine/tools/torsion-sim"
.venv/bin/python -m pytest "$@"
rc=$?
if [ "$rc" -ne 0 ]; then
  status=$rc
fi
exit "$status"
