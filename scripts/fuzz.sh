#!/usr/bin/env bash
# scripts/fuzz.sh — build the libFuzzer targets of fuzz/ into build-fuzz/ (clang,
# AddressSanitizer + UBSan) and run them: first every committed regression input of
# fuzz/regressions/TARGET/ once, then each target for SECONDS (default 60) from a corpus
# seeded by scripts/fuzz_seeds.py. Fails on any crash, leak, UBSan report, timeout or
# out-of-memory; the input that caused it is saved under fuzz/crashes/TARGET/ (gitignored).
#   scripts/fuzz.sh               60 s per target, all targets
#   scripts/fuzz.sh 20            20 s per target
#   scripts/fuzz.sh 600 mjcf      10 minutes of fuzz_mjcf only
#   scripts/fuzz.sh 0             build and replay the regression inputs only
# With TORSION_FUZZ_FRESH=1 (scripts/test.sh) each run starts from the seeds alone, not from
# the corpus earlier runs grew in build-fuzz/corpus/, so its length stays bounded.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$TORSION_ROOT"

seconds="${1:-60}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(frame mjcf mesh npy mjb http)

# clang, libFuzzer and OpenMP for clang come from the apt list of common.sh
ensure_apt_packages || exit 1
pick_build_tools

# configure (once) and build the targets
if [ ! -f build-fuzz/build.ninja ]; then
  step "meson setup build-fuzz -Dfuzz=true (clang, address + undefined sanitizers)"
  CC=clang "$MESON" setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined \
    -Db_lundef=false -Db_lto=false -Dbuildtype=debugoptimized -Dwerror=false >build-fuzz.log 2>&1 || {
    tail -n 30 build-fuzz.log >&2
    echo "FUZZ BUILD SETUP FAILED" >&2
    exit 1
  }
fi
step "ninja -C build-fuzz (${targets[*]})"
if ! "$NINJA" -C build-fuzz $(printf 'fuzz/fuzz_%s ' "${targets[@]}") proto/torsion.desc \
    >>build-fuzz.log 2>&1; then
  tail -n 30 build-fuzz.log >&2
  echo "FUZZ BUILD FAILED" >&2
  exit 1
fi

# seed corpora (regenerated each run; the corpus libFuzzer grows stays in build-fuzz/)
py="${TORSION_PYTHON:-python3}"
[ -z "${TORSION_PYTHON:-}" ] && [ -x .venv/bin/python ] && py=.venv/bin/python
rm -rf build-fuzz/seeds
TORSION_PROTO_DESC="$TORSION_ROOT/build-fuzz/proto/torsion.desc" \
  "$py" scripts/fuzz_seeds.py build-fuzz/seeds || echo "warning: seed generation failed" >&2

# sanitizers: stop at the first report of any kind, leaks included
export ASAN_OPTIONS="detect_leaks=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

# per-target options: the longest input, a time limit per input
declare -A max_len=([frame]=65536 [mjcf]=16384 [mesh]=65536 [npy]=4096 [mjb]=65536 [http]=16384)
status=0
for t in "${targets[@]}"; do
  exe="build-fuzz/fuzz/fuzz_$t"
  corpus="build-fuzz/corpus/$t"
  if [ "${TORSION_FUZZ_FRESH:-0}" = 1 ]; then
    corpus="build-fuzz/corpus-fresh/$t"
    rm -rf "$corpus"
  fi
  mkdir -p "fuzz/crashes/$t" "$corpus" "build-fuzz/logs"
  log="build-fuzz/logs/$t.log"

  # the committed regression inputs, each run once
  regs=(fuzz/regressions/"$t"/*)
  if [ -e "${regs[0]}" ]; then
    step "fuzz_$t: replay ${#regs[@]} regression inputs"
    if ! "$exe" -timeout=60 -rss_limit_mb=2048 "${regs[@]}" >"$log" 2>&1; then
      tail -n 40 "$log" >&2
      echo "FUZZ REGRESSION FAILED: fuzz_$t (log: $log)" >&2
      status=1
      continue
    fi
  fi
  [ "$seconds" -gt 0 ] || continue

  # the fuzzing run (fuzz_mjb writes its seeds itself: binaries of the current format)
  step "fuzz_$t: ${seconds} s"
  if [ "$t" = mjb ]; then
    mkdir -p build-fuzz/seeds/mjb
    export TORSION_FUZZ_MJB_SEEDS="$TORSION_ROOT/build-fuzz/seeds/mjb"
  fi
  dict=()
  [ -f "fuzz/$t.dict" ] && dict=("-dict=fuzz/$t.dict")
  if "$exe" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len="${max_len[$t]}" \
      "${dict[@]}" -artifact_prefix="fuzz/crashes/$t/" -print_final_stats=1 \
      "$corpus" "build-fuzz/seeds/$t" >"$log" 2>&1; then
    grep -E "^stat::number_of_executed_units|^Done" "$log" | tr '\n' ' '
    echo
  else
    tail -n 60 "$log" >&2
    echo "FUZZ FAILED: fuzz_$t (input saved under fuzz/crashes/$t/, log: $log)" >&2
    status=1
  fi
done
exit "$status"
