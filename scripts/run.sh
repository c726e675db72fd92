#!/usr/bin/env bash
# scripts/run.sh — the main job: install what the build needs, build Torsion into build/,
# then measure a bundled model with `torsion-sim speed` and run a short batched
# `torsion-sim rollout` on it, then start torsiond on a temporary socket, run `torsion
# bench` against it and stop it cleanly, printing what they all measured.
#   MODEL=path/to/model.xml bash scripts/run.sh   measures another model instead
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$TORSION_ROOT"

# packages and build
ensure_apt_packages
build_engine

SIM="$TORSION_ROOT/build/engine/tools/torsion-sim"
MODEL="${MODEL:-tests/models/pendulum_chain.xml}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# the model's sizes
step "torsion-sim info $MODEL"
"$SIM" info "$MODEL" | tee "$WORK/info.json"
echo

# single-thread speed with noisy controls
step "torsion-sim speed $MODEL --nstep 200000 --threads 1 --ctrlnoise 0.1"
"$SIM" speed "$MODEL" --nstep 200000 --threads 1 --ctrlnoise 0.1 | tee "$WORK/speed.json"
python3 -c 'import json,sys; s = json.load(open(sys.argv[1])); print(
  "speed: %.0f steps/s on %d thread(s), %.2f contacts and %.2f constraints per step" % (
  s["steps_per_second"], s["nthread"], s["contacts_per_step"], s["constraints_per_step"]))' \
  "$WORK/speed.json"

# a short batched rollout: 16 initial states, constant controls, 1000 steps, 2 threads
NU="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nu"])' "$WORK/info.json")"
NQ="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nq"])' "$WORK/info.json")"
python3 scripts/npy_tool.py states "$WORK/info.json" "$WORK/state.npy" --batch 16
CTRL_ARGS=()
if [ "$NU" -gt 0 ]; then
  python3 scripts/npy_tool.py ctrl "$WORK/ctrl.npy" --batch 16 --nu "$NU"
  CTRL_ARGS=(--ctrl "$WORK/ctrl.npy")
fi
step "torsion-sim rollout $MODEL: 16 states x 1000 steps, 2 threads"
start=$(date +%s.%N)
"$SIM" rollout "$MODEL" --state "$WORK/state.npy" "${CTRL_ARGS[@]}" --nstep 1000 \
  --threads 2 --out "$WORK/out.npy"
end=$(date +%s.%N)
python3 scripts/npy_tool.py summary "$WORK/out.npy" --nq "$NQ"
python3 -c 'import sys; t = float(sys.argv[2]) - float(sys.argv[1]); print(
  "rollout wall time %.3f s (%.0f steps/s including loading and file I/O)" % (t, 16000 / t))' \
  "$start" "$end"

# the daemon: start torsiond on a temporary socket, run `torsion bench` against it, stop it
step "torsiond + torsion bench on $MODEL"
BUILD="$TORSION_ROOT/build" MODEL="$MODEL" bash clients/examples/serve_and_bench.sh
