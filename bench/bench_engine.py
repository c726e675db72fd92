#!/usr/bin/env python3
"""bench/bench_engine.py — Torsion's single-thread stepping speed against MuJoCo's, in the same
run, on the differential-test corpus with constraints (and sensors) disabled (issue 2,
item 9).

For each model both engines step from the same initial state (keyframe 0 when the model has
one, else the default state) with the same controls (the keyframe's, else zero) for the same
number of steps (about --seconds of MuJoCo time):
  Torsion: `torsion-sim speed MODEL --nstep N --threads 1 --disable constraint,sensor`
  MuJoCo:  mujoco.rollout.rollout on one mjData (its native C loop, no Python per step),
           timed around the call, in chunks of at most CHUNK steps.
Measurements alternate between the engines, --repeats times; the medians are reported, and
the ratio Torsion / MuJoCo (above 1: Torsion is faster) is the median of the per-repeat
ratios of back-to-back measurements. Targets: >= 1.0 on humanoid and
ant; below 0.5 anywhere is a defect.

  .venv/bin/python bench/bench_engine.py [--models ant humanoid] [--repeats 5]
      [--seconds 1.0] [--json bench/results/engine.json] [--update-docs]
  .venv/bin/python bench/bench_engine.py --from-json bench/results/engine.json --update-docs
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import sys
import time

import mujoco
import numpy as np
from mujoco import rollout as mj_rollout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "differential"))

from harness import corpus, oracle, torsion  # noqa: E402

# constraints: issue 2 is smooth dynamics only; sensors: Torsion does not evaluate them yet,
# and MuJoCo's step would otherwise do work Torsion skips (docs/fidelity.md)
DISABLE = ("constraint", "sensor")
CHUNK = 50000          # MuJoCo steps per rollout call (bounds the output array)
TARGETS = ("gym/ant", "gym/humanoid", "dmc/humanoid")  # ratio must reach 1.0
DEFECT = 0.5           # a ratio below this is a defect
DOCS = os.path.join(HERE, "..", "docs", "benchmarks.md")
BEGIN, END = "<!-- bench_engine:begin -->", "<!-- bench_engine:end -->"


def initial_state(m):
    """(FULLPHYSICS state, ctrl or None) that torsion-sim speed starts from."""
    d = mujoco.MjData(m)
    if m.nkey > 0:
        mujoco.mj_resetDataKeyframe(m, d, 0)
    else:
        mujoco.mj_resetData(m, d)
    state = np.zeros(oracle.nstate(m))
    mujoco.mj_getState(m, d, state, oracle.FULLPHYSICS)
    ctrl = np.array(d.ctrl) if m.nu and np.any(d.ctrl) else None
    return state, ctrl


def mujoco_rate(m, state, ctrl, nstep):
    """MuJoCo steps per second over nstep steps on one thread; also whether it diverged
    (mujoco.rollout stops stepping after a warning)."""
    d = mujoco.MjData(m)
    s = state[None, :].copy()
    elapsed, done, diverged = 0.0, 0, False
    out = np.zeros((1, min(CHUNK, nstep), len(state)))
    while done < nstep:
        n = min(CHUNK, nstep - done)
        c = None if ctrl is None else np.tile(ctrl, (1, n, 1))
        buf = out[:, :n, :]
        t0 = time.perf_counter()
        mj_rollout.rollout(m, d, s, c, nstep=n, state=buf, skip_checks=False)
        elapsed += time.perf_counter() - t0
        times = np.concatenate([s[0, :1], buf[0, :, 0]])
        diverged |= bool(np.any(np.diff(times) <= 0))
        s = buf[:, -1, :].copy()
        done += n
    return nstep / elapsed, diverged


def bench_model(model, repeats, seconds):
    """Medians of both engines and their ratio for one model (a dict)."""
    m = oracle.load(model.path, disable=DISABLE)
    state, ctrl = initial_state(m)
    # calibrate (after a warm-up run): about `seconds` of MuJoCo stepping
    mujoco_rate(m, state, ctrl, 1000)
    rate, _ = mujoco_rate(m, state, ctrl, 10000)
    nstep = int(min(max(rate * seconds, 2000), 5_000_000))
    row = {"model": model.id, "nq": m.nq, "nv": m.nv, "nu": m.nu, "nstep": nstep,
           "torsion": [], "mujoco": [], "mujoco_diverged": False, "error": None}
    for _ in range(repeats):
        try:
            res = torsion.speed(model.path, nstep, threads=1, disable=DISABLE)
            row["torsion"].append(float(res["steps_per_second"]))
        except (AssertionError, KeyError, ValueError) as e:
            row["error"] = str(e).strip().splitlines()[-1][:300]
            break
        r, diverged = mujoco_rate(m, state, ctrl, nstep)
        row["mujoco"].append(r)
        row["mujoco_diverged"] |= diverged
    return summarize(row)


def summarize(row):
    """Medians of each engine's speeds, and the ratio: the median over repeats of Torsion's
    speed over MuJoCo's measured right after it (robust to load that drifts during a run)."""
    row["torsion_median"] = statistics.median(row["torsion"]) if row["torsion"] else None
    row["mujoco_median"] = statistics.median(row["mujoco"]) if row["mujoco"] else None
    pairs = [t / m for t, m in zip(row["torsion"], row["mujoco"]) if m > 0]
    row["ratio"] = statistics.median(pairs) if pairs else None
    return row


def verdict(row):
    """'defect', 'below target', 'ok' or 'error' for one row."""
    if row["ratio"] is None:
        return "error"
    if row["ratio"] < DEFECT:
        return "DEFECT (< %.1f)" % DEFECT
    if row["model"] in TARGETS and row["ratio"] < 1.0:
        return "below target 1.0"
    return "ok"


def table(rows):
    """Markdown table of the results."""
    lines = ["| model | nv | nu | steps | Torsion steps/s | MuJoCo steps/s | ratio | verdict |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        fmt = lambda x: "%.0f" % x if x else "—"  # noqa: E731
        note = verdict(r)
        if r["error"]:
            note += ": " + r["error"].replace("|", "/")[:120]
        if r["mujoco_diverged"]:
            note += " (MuJoCo diverged and stopped stepping)"
        lines.append("| %s | %d | %d | %d | %s | %s | %s | %s |" % (
            r["model"], r["nv"], r["nu"], r["nstep"], fmt(r["torsion_median"]),
            fmt(r["mujoco_median"]), "%.2f" % r["ratio"] if r["ratio"] else "—", note))
    return "\n".join(lines)


def commit():
    """The repository's commit (with '+' when the work tree has changes), if known."""
    import subprocess
    try:
        head = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", HERE, "status", "--porcelain", "--",
                                "../engine"], capture_output=True, text=True,
                               timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (head or "none") + ("+" if dirty else "")


def machine():
    """What the numbers were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "mujoco": mujoco.__version__}


def update_docs(report):
    """Replace the table between the markers in docs/benchmarks.md."""
    with open(DOCS) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise SystemExit("%s has no %s ... %s markers" % (DOCS, BEGIN, END))
    mc = report["machine"]
    body = "\n".join([
        BEGIN,
        "Measured %s at commit %s on %s (%d cores), MuJoCo %s; medians of %d repeats, "
        "about %.1f s of stepping each; single thread; disabled on both sides: %s." % (
            report["date"], report.get("commit") or "?", mc["cpu"], mc["cores"],
            mc["mujoco"], report["repeats"], report["seconds"],
            ", ".join(report.get("disable", DISABLE))),
        "",
        table(report["results"]),
        END])
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(DOCS, "w") as f:
        f.write(head + body + tail)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", nargs="*", default=[],
                   help="only models whose id contains one of these (default: all)")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--seconds", type=float, default=1.0,
                   help="approximate duration of one measurement")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--update-docs", action="store_true",
                   help="rewrite the table in docs/benchmarks.md")
    p.add_argument("--from-json", metavar="FILE",
                   help="measure nothing: print (and with --update-docs write) a saved run")
    args = p.parse_args()

    if args.from_json:
        with open(args.from_json) as f:
            report = json.load(f)
        report["results"] = [summarize(r) for r in report["results"]]
        print(table(report["results"]))
        if args.update_docs:
            update_docs(report)
        return 0

    models = corpus.select(corpus.package_models(), args.models)
    if not models:
        raise SystemExit("no model matches %s" % args.models)
    print("torsion-sim: %s" % torsion.sim_path())
    rows = []
    for model in models:
        row = bench_model(model, args.repeats, args.seconds)
        rows.append(row)
        print("%-28s torsion %10s  mujoco %10s  ratio %5s  %s" % (
            model.id, "%.0f" % row["torsion_median"] if row["torsion_median"] else "—",
            "%.0f" % row["mujoco_median"] if row["mujoco_median"] else "—",
            "%.2f" % row["ratio"] if row["ratio"] else "—", verdict(row)), flush=True)
    report = {"date": datetime.date.today().isoformat(), "machine": machine(),
              "commit": commit(),
              "torsion_sim": torsion.sim_path(), "repeats": args.repeats,
              "seconds": args.seconds, "disable": list(DISABLE), "threads": 1,
              "results": rows}
    print()
    print(table(rows))
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    if args.update_docs:
        update_docs(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
