#!/usr/bin/env bash
# clients/examples/serve_and_bench.sh — the daemon's main job: build, start torsiond with the
# default configuration on a temporary socket, run `torsion bench` against it with a bundled
# model, print the summary, and stop the daemon cleanly (SIGTERM, drain, exit status 0).
#   MODEL=path.xml DURATION=5 CONNECTIONS=2 bash clients/examples/serve_and_bench.sh
#   BUILD=dir   use an existing build directory instead of building build/
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

# build (the shared helper installs missing packages and compiles into build/)
if [ -z "${BUILD:-}" ]; then
  source scripts/common.sh
  ensure_apt_packages
  build_engine
  BUILD="$ROOT/build"
fi
MODEL="${MODEL:-tests/models/pendulum_chain.xml}"
DURATION="${DURATION:-5}"
CONNECTIONS="${CONNECTIONS:-2}"
WORK="$(mktemp -d /tmp/torsiond-XXXXXX)"
SOCK="$WORK/torsiond.sock"

# start the daemon with the shipped configuration, on a private socket
"$BUILD/server/torsiond" --config configs/torsiond.conf --socket "$SOCK" 2>"$WORK/torsiond.log" &
PID=$!
cleanup() {
  if kill -0 "$PID" 2>/dev/null; then kill -TERM "$PID"; wait "$PID" || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
for _ in $(seq 100); do
  "$BUILD/clients/torsion" --socket "$SOCK" health >/dev/null 2>&1 && break
  kill -0 "$PID" 2>/dev/null || { cat "$WORK/torsiond.log" >&2; exit 1; }
  sleep 0.1
done

# the workload: rollouts and single-environment session steps from several connections
echo "==> torsion bench --model $MODEL (${DURATION}s, $CONNECTIONS connections)"
"$BUILD/clients/torsion" --socket "$SOCK" bench --model "$MODEL" --batch 32 --nstep 200 \
  --connections "$CONNECTIONS" --mix rollout=1,step=8 --duration "$DURATION"
echo "==> server statistics"
"$BUILD/clients/torsion" --socket "$SOCK" stats

# a clean stop: SIGTERM drains in-flight work, then the daemon exits 0
kill -TERM "$PID"
status=0
wait "$PID" || status=$?
echo "==> torsiond stopped with status $status"
tail -n 3 "$WORK/torsiond.log"
trap - EXIT
rm -rf "$WORK"
exit "$status"
