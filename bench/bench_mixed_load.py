#!/usr/bin/env python3
"""bench/bench_mixed_load.py — session-step latency under bulk rollout load, with `torsion bench`.

Starts torsiond (a temporary socket, `--workers 2` by default), then two `torsion bench`
processes against it: a bulk client sending 64x1000 rollouts back to back
(`--mix rollout=1 --batch 64 --nstep 1000`) and, a second later, a single-environment session
client (`--mix step=1 --envs 1`, back to back or at --session-rate Hz, a controller's clock) that stops a second before the bulk client's window ends, so
every session step it times runs while rollouts do. Repeats the pair (`--repeat`, 3 by
default) and prints, per run and as medians: SessionStep p50/p99/max, session steps/s, and
the bulk client's env-steps/s (all its steps over all its time: the bench waits for its last
rollout, so its window ends up to one rollout after the session client's).

  python3 bench/bench_mixed_load.py                       # this worktree's build/
  python3 bench/bench_mixed_load.py --build ../other-checkout/build --label before
  python3 bench/bench_mixed_load.py --daemon-arg=--latency-work-us=0 --label "no class"
  python3 bench/bench_mixed_load.py --markdown            # rows for docs/benchmarks.md

The machine's load matters (other processes compete for the same cores): compare variants
measured in the same session, interleaved with --variants.
"""
import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def gym_humanoid():
    """gymnasium's humanoid.xml (the default model)."""
    try:
        import gymnasium
    except ImportError:
        sys.exit("bench_mixed_load: gymnasium is not installed; pass --model")
    return os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets",
                        "humanoid.xml")


def start_daemon(build, sock, workers, extra):
    """torsiond on `sock`; returns the process once Health answers."""
    log = open(sock + ".log", "w")
    proc = subprocess.Popen([os.path.join(build, "server", "torsiond"), "--socket", sock,
                             "--workers", str(workers)] + list(extra),
                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    cli = os.path.join(build, "clients", "torsion")
    for _ in range(200):
        if proc.poll() is not None:
            sys.exit("torsiond exited: see " + sock + ".log")
        if subprocess.run([cli, "--socket", sock, "health"], capture_output=True).returncode == 0:
            return proc
        time.sleep(0.05)
    proc.kill()
    sys.exit("torsiond did not start")


def bench_cmd(build, sock, model, *args):
    return [os.path.join(build, "clients", "torsion"), "--socket", sock, "bench", "--model",
            model, "--no-progress", "--json"] + list(args)


def one_run(build, model, workers, duration, extra, session_rate=0.0):
    """One daemon, the bulk and the session client; returns a result dict."""
    tmp = tempfile.mkdtemp(prefix="tdmix-")
    sock = os.path.join(tmp, "s")
    daemon = start_daemon(build, sock, workers, extra)
    try:
        bulk = subprocess.Popen(bench_cmd(build, sock, model, "--mix", "rollout=1", "--batch",
                                          "64", "--nstep", "1000", "--warmup", "0",
                                          "--duration", str(duration)),
                                stdout=subprocess.PIPE, text=True)
        time.sleep(1.0)
        step = subprocess.run(bench_cmd(build, sock, model, "--mix", "step=1", "--envs", "1",
                                        "--duration", str(max(1.0, duration - 2.0)),
                                        "--rate", str(session_rate)),
                              capture_output=True, text=True)
        out, _ = bulk.communicate()
        if step.returncode or bulk.returncode:
            sys.exit("bench failed:\n" + step.stderr)
        s, b = json.loads(step.stdout), json.loads(out)
        lat = s["latency_us"]["session_step"]
        # the daemon's own view: arrival to the response handed to the socket (histogram
        # buckets), without the client's side of the round trip
        st = subprocess.run([os.path.join(build, "clients", "torsion"), "--socket", sock,
                             "stats"], capture_output=True, text=True)
        srv = json.loads(st.stdout)["latency_us"].get("session_step", {}) if not st.returncode \
            else {}
        return {"p50_ms": lat["p50"] / 1e3, "p99_ms": lat["p99"] / 1e3, "max_ms": lat["max"] / 1e3,
                "steps_per_s": s["steps_per_s"], "bulk_steps_per_s": b["steps_per_s"],
                "daemon_p99_ms": srv.get("p99", float("nan")) / 1e3}
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(timeout=60)
        except subprocess.TimeoutExpired:
            daemon.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def median_row(runs):
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def fmt(label, r):
    return "%-26s %8.3f %8.3f %9.1f %10.0f %12.0f %11.2f" % (
        label, r["p50_ms"], r["p99_ms"], r["max_ms"], r["steps_per_s"], r["bulk_steps_per_s"],
        r["daemon_p99_ms"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"),
                    help="build directory holding server/torsiond and clients/torsion")
    ap.add_argument("--model", default=None, help="MJCF (default: gymnasium's humanoid.xml)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--duration", type=float, default=30.0, help="bulk client's window (s)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--label", default="this build")
    ap.add_argument("--daemon-arg", action="append", default=[],
                    help="extra torsiond flag (repeatable)")
    ap.add_argument("--variants", default=None,
                    help="JSON list of [label, build, [daemon args]]: measured interleaved")
    ap.add_argument("--markdown", action="store_true", help="print markdown table rows too")
    ap.add_argument("--session-rate", type=float, default=0.0,
                    help="session steps per second (a controller's clock; 0: back to back)")
    a = ap.parse_args()
    model = a.model or gym_humanoid()
    variants = ([tuple(v) for v in json.loads(a.variants)] if a.variants
                else [(a.label, a.build, a.daemon_arg)])

    runs = {v[0]: [] for v in variants}
    print("%-26s %8s %8s %9s %10s %12s %11s" % ("run", "p50 ms", "p99 ms", "max ms", "steps/s",
                                                 "bulk st/s", "daemon p99"))
    for i in range(a.repeat):
        for label, build, extra in variants:
            r = one_run(build, model, a.workers, a.duration, extra, a.session_rate)
            runs[label].append(r)
            print(fmt("%s #%d" % (label, i + 1), r), flush=True)
    print("medians of %d runs (%d workers, %s, session %s):" % (
        a.repeat, a.workers, os.path.basename(model),
        "%g Hz" % a.session_rate if a.session_rate else "back to back"))
    for label, _, _ in variants:
        print(fmt(label, median_row(runs[label])))
    if a.markdown:
        print()
        print("| variant | SessionStep p50 (ms) | p99 (ms) | max (ms) | session steps/s "
              "| bulk env-steps/s | daemon-side p99 (ms) |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for label, _, _ in variants:
            r = median_row(runs[label])
            print("| %s | %.3f | %.2f | %.1f | %.0f | %.0f | %.2f |" % (
                label, r["p50_ms"], r["p99_ms"], r["max_ms"], r["steps_per_s"],
                r["bulk_steps_per_s"], r["daemon_p99_ms"]))


if __name__ == "__main__":
    main()
