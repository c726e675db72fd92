#!/usr/bin/env python3
"""bench/bench_fd.py — transition Jacobians by finite differences (mjd_transitionFD): Torsion
against MuJoCo in the same run, Torsion's batch throughput against thread count, and the
daemon's TransitionFD against the in-process batch (issue 5, item 8).

Models: gymnasium's humanoid, ant and half_cheetah, dm_control's humanoid and cartpole.
mjd_transitionFD is not defined for RK4 (MuJoCo refuses it, and so does Torsion), so RK4
models (gym humanoid and ant, dm_control cartpole) are differenced with Euler on both sides.
States: a short MuJoCo rollout from the initial state (keyframe 0, else the default) with
small random controls; every --stride-th state and its controls, --states of them
(mjSTATE_FULLPHYSICS). Forward differences, eps 1e-6, A and B only (no sensor matrices).
Both engines run with their default options (constraint islands, native convex collision).

1. Per state, one thread: Torsion's bench/bench_fd --single (a C loop: mj_setState, the
   controls, mjd_transitionFD, for each state, for at least --min-time seconds) and
   MuJoCo's mujoco.mjd_transitionFD in the same loop from Python (its time includes about a
   microsecond of binding overhead per call, which shows only on cartpole), alternately,
   --repeats times. The ratio Torsion / MuJoCo is the median of back-to-back ratios of
   speeds (target >= 1.0).
2. Batch: tn_transitionFDBatch over all states with 1, 2 and 4 threads (states per second).
3. Daemon: one TransitionFD request of all states to a torsiond with --daemon-threads
   workers over its Unix socket, against tn_transitionFDBatch with as many threads
   (in-process time / daemon time, target >= 0.95; the matrices must be bitwise equal).

  .venv/bin/python bench/bench_fd.py [--models humanoid cartpole] [--repeats 5]
      [--json bench/results/fd.json] [--update-docs] [--build build]
  .venv/bin/python bench/bench_fd.py --from-json bench/results/fd.json --update-docs
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import mujoco
import numpy as np

import benchlib
from harness import corpus, oracle  # noqa: E402  (on the path through benchlib)

MODELS = ["gym/humanoid", "gym/ant", "gym/half_cheetah", "dmc/humanoid", "dmc/cartpole"]
DAEMON_MODEL = "gym/humanoid"
MUJOCO_DISABLE = oracle.BENCH_ORACLE  # () today: default options, as Torsion
EPS = 1e-6
THREADS = (1, 2, 4)
TARGET, DAEMON_TARGET = 1.0, 0.95
BEGIN, END = "<!-- bench_fd:begin -->", "<!-- bench_fd:end -->"


def find_models(patterns):
    """The benchmark models whose id contains one of the patterns (all when empty)."""
    return benchlib.find_models(MODELS, corpus.all_models(), patterns)


def is_rk4(path):
    """Whether the model integrates with RK4 (then both sides use Euler)."""
    return mujoco.MjModel.from_xml_path(path).opt.integrator == mujoco.mjtIntegrator.mjINT_RK4


def make_inputs(m, model_id, count, stride):
    """count FULLPHYSICS states of a MuJoCo rollout with small random controls, every
    stride-th step, and the controls applied at them: ([count, nstate], [count, nu])."""
    state0, ctrl0 = benchlib.initial_state(m)
    r = oracle.rng(model_id, "bench_fd")
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, state0, oracle.FULLPHYSICS)
    lo, hi = oracle.ctrl_bounds(m) if m.nu else (None, None)
    states, ctrls = [], []
    for t in range(count * stride):
        base = ctrl0 if ctrl0 is not None else np.zeros(m.nu)
        u = base + 0.2 * r.standard_normal(m.nu)
        d.ctrl[:] = np.clip(u, lo, hi) if m.nu else u
        if t % stride == 0:
            s = np.zeros(oracle.nstate(m))
            mujoco.mj_getState(m, d, s, oracle.FULLPHYSICS)
            states.append(s)
            ctrls.append(np.array(d.ctrl))
        mujoco.mj_step(m, d)
    return np.array(states), np.array(ctrls).reshape(count, m.nu)


def mujoco_us_per_state(m, states, ctrls, min_time):
    """MuJoCo's microseconds per state: the same loop as bench_fd --single, from Python."""
    d = mujoco.MjData(m)
    nx = 2 * m.nv + m.na
    A, B = np.zeros((nx, nx)), np.zeros((nx, m.nu))
    spec = oracle.FULLPHYSICS
    count, t0 = 0, time.perf_counter()
    while True:
        for s, u in zip(states, ctrls):
            mujoco.mj_setState(m, d, s, spec)
            d.ctrl[:] = u
            mujoco.mjd_transitionFD(m, d, EPS, 0, A, B if m.nu else None, None, None)
        count += len(states)
        elapsed = time.perf_counter() - t0
        if elapsed >= min_time:
            return 1e6 * elapsed / count


def run_bench_fd(args, binary):
    """Run bench/bench_fd with args; its JSON object."""
    proc = subprocess.run([binary] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=1800, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise RuntimeError("bench_fd failed (%d): %s" % (proc.returncode,
                                                           proc.stderr.strip()[-500:]))
    return json.loads(proc.stdout)


def bench_model(model, opts, tmp):
    """One model's row: per-state times of both engines, batch rates, maybe the daemon."""
    rk4 = is_rk4(model.path)
    m = oracle.load(model.path, disable=MUJOCO_DISABLE, integrator="euler" if rk4 else None)
    states, ctrls = make_inputs(m, model.id, opts.states, opts.stride)
    sp, cp = os.path.join(tmp, "s.npy"), os.path.join(tmp, "c.npy")
    np.save(sp, states)
    np.save(cp, ctrls)
    base = [model.path, "--states", sp, "--ctrl", cp, "--eps", EPS]
    if rk4:
        base += ["--integrator", "euler"]
    row = {"model": model.id, "nv": m.nv, "nu": m.nu, "states": len(states),
           "integrator": "euler (model: RK4)" if rk4 else "model's", "torsion": [],
           "mujoco": [], "batch": None, "daemon": None, "error": None}

    # 1. per state, alternating (speeds: states per second, for the ratio)
    try:
        mujoco_us_per_state(m, states, ctrls, 0.05)  # warm-up
        single = base + ["--single", "--min-time", opts.min_time]
        benchlib.alternate(
            row, opts.repeats,
            lambda: 1e6 / run_bench_fd(single, opts.bench_fd)["single_us_per_state"],
            lambda: 1e6 / mujoco_us_per_state(m, states, ctrls, opts.min_time))

        # 2. batch throughput, and 3. the daemon row on its model
        extra = ["--batch", "--threads", ",".join(str(t) for t in THREADS), "--reps",
                 opts.repeats]
        if model.id == opts.daemon_model and opts.torsiond:
            extra += ["--daemon", "--torsiond", opts.torsiond, "--daemon-threads",
                      opts.daemon_threads]
        res = run_bench_fd(base + extra, opts.bench_fd)
        row["batch"] = res["batch"]
        row["daemon"] = res.get("daemon")
    except (RuntimeError, ValueError, subprocess.SubprocessError) as e:
        row["error"] = benchlib.error_line(e)
    return summarize(row)


def summarize(row):
    """Medians (microseconds per state) and the ratio of speeds Torsion / MuJoCo."""
    row = benchlib.summarize(row)
    row["torsion_us"] = 1e6 / row["torsion_median"] if row["torsion_median"] else None
    row["mujoco_us"] = 1e6 / row["mujoco_median"] if row["mujoco_median"] else None
    return row


def verdict(ratio, target):
    """'ok', 'below target' or 'error'."""
    if ratio is None:
        return "error"
    return "ok" if ratio >= target else "below target %.2f" % target


def _num(x, fmt="%.1f"):
    """A number for the table (microseconds: one decimal by default), or a dash."""
    return benchlib.num(x, fmt)


def table(rows):
    """Markdown tables: per state, batch throughput, daemon."""
    lines = ["| model | nv | nu | integrator | states | Torsion µs/state | MuJoCo µs/state "
             "| ratio | verdict |", "|---|---:|---:|---|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append("| %s | %d | %d | %s | %d | %s | %s | %s | %s |" % (
            r["model"], r["nv"], r["nu"], r["integrator"], r["states"], _num(r["torsion_us"]),
            _num(r["mujoco_us"]), _num(r["ratio"], "%.2f"),
            benchlib.note(verdict(r["ratio"], TARGET), r)))
    lines += ["", "Torsion's batch throughput (`tn_transitionFDBatch`, states per second):", "",
              "| model | " + " | ".join("%d thread%s" % (t, "s" if t > 1 else "")
                                        for t in THREADS) + " | 2 threads / 1 |",
              "|---|" + "---:|" * (len(THREADS) + 1)]
    for r in rows:
        rates = {b["threads"]: b["states_per_s"] for b in (r.get("batch") or [])}
        cells = [_num(rates.get(t), "%.0f") for t in THREADS]
        scale = rates[2] / rates[1] if rates.get(1) and rates.get(2) else None
        lines.append("| %s | %s | %s |" % (r["model"], " | ".join(cells), _num(scale, "%.2f")))
    lines += ["", "TransitionFD through torsiond (Unix socket, one request of all states) "
              "against in-process `tn_transitionFDBatch` with as many threads:", "",
              "| model | states | threads | in-process | torsiond | ratio | bitwise equal "
              "| verdict |", "|---|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        dmn = r.get("daemon")
        if not dmn:
            continue
        lines.append("| %s | %d | %d | %.1f ms | %.1f ms | %.3f | %s | %s |" % (
            r["model"], r["states"], dmn["threads"], 1e3 * dmn["inprocess_s"],
            1e3 * dmn["daemon_s"], dmn["ratio"], "yes" if dmn["bitwise_equal"] else "NO",
            verdict(dmn["ratio"], DAEMON_TARGET)))
    return "\n".join(lines)


def update_docs(report):
    """Replace the section between the markers in docs/benchmarks.md."""
    mc = report["machine"]
    benchlib.replace_docs_section(
        BEGIN, END,
        "Measured %s at commit %s on %s (%d cores, load average %s at the start), MuJoCo %s; "
        "medians of %d repeats of at least %.2f s each; forward differences, eps %g; both "
        "engines with their default options (islands, native convex collision)." % (
            report["date"], report.get("commit") or "?", mc["cpu"], mc["cores"],
            report.get("load", "?"), mc["mujoco"], report["repeats"], report["min_time"],
            EPS),
        table(report["results"]))


def progress(row):
    """One model's line while the benchmark runs."""
    return "%-18s torsion %9s us  mujoco %9s us  ratio %5s  %s" % (
        row["model"], _num(row["torsion_us"]), _num(row["mujoco_us"]), _num(row["ratio"], "%.2f"),
        verdict(row["ratio"], TARGET))


def main():
    build = os.environ.get("TORSION_BUILD", os.path.join(corpus.REPO_ROOT, "build"))
    p = benchlib.arg_parser(__doc__)
    p.add_argument("--min-time", type=float, default=0.3,
                   help="seconds of one per-state measurement")
    p.add_argument("--states", type=int, default=64, help="states per model")
    p.add_argument("--stride", type=int, default=5, help="rollout steps between states")
    p.add_argument("--bench-fd", default=os.path.join(build, "bench", "bench_fd"))
    p.add_argument("--torsiond", default=os.path.join(build, "server", "torsiond"),
                   help="torsiond for the daemon row ('' to skip it)")
    p.add_argument("--daemon-model", default=DAEMON_MODEL)
    p.add_argument("--daemon-threads", type=int, default=2)
    benchlib.add_report_args(p, "rewrite the bench_fd section of docs/benchmarks.md")
    opts = p.parse_args()

    if opts.from_json:
        return benchlib.replay(opts.from_json, summarize, table,
                               update_docs if opts.update_docs else None)

    if not os.access(opts.bench_fd, os.X_OK):
        raise SystemExit("bench_fd not found at %s (build it, or pass --bench-fd)" %
                         opts.bench_fd)
    if opts.torsiond and not os.access(opts.torsiond, os.X_OK):
        raise SystemExit("torsiond not found at %s (or pass --torsiond '')" % opts.torsiond)
    models = find_models(opts.models)
    load = "%.1f" % os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="bench-fd-") as tmp:
        rows = benchlib.run_models(models, lambda model: bench_model(model, opts, tmp), progress)
    report = dict(benchlib.report_head(), load=load, repeats=opts.repeats,
                  min_time=opts.min_time, eps=EPS, mujoco_disable=list(MUJOCO_DISABLE),
                  results=rows)
    return benchlib.finish(report, table, update_docs, opts)


if __name__ == "__main__":
    sys.exit(main())
