#!/usr/bin/env python3
"""bench/bench_contacts.py — Torsion's single-thread stepping speed against MuJoCo's with
contacts and constraints ON, in the same run, plus Torsion's time split by pipeline stage
(issue 3, item 8).

Models: gymnasium's humanoid, ant, half_cheetah, hopper and walker2d, dm_control's humanoid
and quadruped, and our 22-humanoid crowd (tests/models/scenes/humanoid_crowd.xml, written by
scripts/gen_scenes.py). For each, both engines step from the same initial state (keyframe 0
when the model has one, else the default state) with the same controls (the keyframe's, else
zero: the bodies fall and lie on the floor, so contacts are active) for the same number of
steps (about --seconds of MuJoCo time):
  Torsion: `torsion-sim speed MODEL --nstep N --threads 1 --disable sensor`
  MuJoCo:  mujoco.rollout.rollout on one mjData (its native C loop), timed around the call,
           with island and nativeccd disabled (Torsion has no islands and uses libccd) and
           sensors disabled (Torsion does not evaluate them yet); see docs/fidelity.md.
Measurements alternate between the engines, --repeats times; the table gives each engine's
median and the ratio Torsion / MuJoCo (the median of back-to-back ratios). Targets: >= 1.0
on gym/humanoid and gym/ant; below 0.5 anywhere is a defect.

After the timed runs, one more Torsion run with --profile gives the split by stage in
microseconds per step (collision, constraint assembly = make_constraint, solver, the rest),
and one untimed MuJoCo run of the same steps counts MuJoCo's contacts and constraint rows per
step to show both engines do comparable work.

  .venv/bin/python bench/bench_contacts.py [--models ant humanoid] [--repeats 5]
      [--seconds 1.0] [--json bench/results/contacts.json] [--update-docs]
  .venv/bin/python bench/bench_contacts.py --from-json bench/results/contacts.json --update-docs
"""
import argparse
import datetime
import json
import os
import sys

import mujoco

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "differential"))

import bench_engine  # noqa: E402  (initial state, MuJoCo timing, machine and commit)
from harness import corpus, oracle, torsion  # noqa: E402

MODELS = ["gym/humanoid", "gym/ant", "gym/half_cheetah", "gym/hopper", "gym/walker2d",
          "dmc/humanoid", "dmc/quadruped", "local/scenes/humanoid_crowd"]
TORSION_DISABLE = ("sensor",)                                  # both sides: no sensors yet
MUJOCO_DISABLE = TORSION_DISABLE + oracle.CONTACT_ORACLE       # + island, nativeccd
TARGETS = ("gym/ant", "gym/humanoid")  # ratio must reach 1.0
DEFECT = 0.5
STAGES = ["collision", "make_constraint", "solver", "rest"]
DOCS = os.path.join(HERE, "..", "docs", "benchmarks.md")
BEGIN, END = "<!-- bench_contacts:begin -->", "<!-- bench_contacts:end -->"


def find_models(patterns):
    """The benchmark models whose id contains one of the patterns (all when empty)."""
    known = {m.id: m for m in corpus.contact_models()}
    missing = [mid for mid in MODELS if mid not in known]
    if missing:
        raise SystemExit("models not found: %s" % ", ".join(missing))
    return corpus.select([known[mid] for mid in MODELS], patterns)


def mujoco_counts(m, state, ctrl, nstep):
    """MuJoCo's mean contacts and constraint rows per step over nstep steps (untimed)."""
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, state, oracle.FULLPHYSICS)
    if ctrl is not None:
        d.ctrl[:] = ctrl.reshape(-1)
    ncon = nefc = 0
    for _ in range(nstep):
        mujoco.mj_step(m, d)
        ncon += d.ncon
        nefc += d.nefc
    return ncon / nstep, nefc / nstep


def stage_split(res):
    """Microseconds per step of each stage from a --profile run (None without --profile):
    collision, make_constraint, solver, and the rest of the step."""
    prof = res.get("profile_us_per_step") or res.get("profile")
    if not prof or not res.get("steps_per_second"):
        return None
    total = 1e6 / float(res["steps_per_second"])
    split = {k: float(prof.get(k, 0.0)) for k in STAGES[:3]}
    split["rest"] = total - sum(split.values())
    split["total"] = total
    return split


def bench_model(model, repeats, seconds):
    """Medians of both engines, their ratio, work per step and Torsion's stage split."""
    m = oracle.load(model.path, disable=MUJOCO_DISABLE)
    state, ctrl = bench_engine.initial_state(m)
    bench_engine.mujoco_rate(m, state, ctrl, 200)
    rate, _ = bench_engine.mujoco_rate(m, state, ctrl, 2000)
    nstep = int(min(max(rate * seconds, 500), 5_000_000))
    row = {"model": model.id, "nv": m.nv, "nu": m.nu, "nstep": nstep, "torsion": [],
           "mujoco": [], "mujoco_diverged": False, "error": None, "split": None}
    for _ in range(repeats):
        try:
            res = torsion.speed(model.path, nstep, threads=1, disable=TORSION_DISABLE)
            row["torsion"].append(float(res["steps_per_second"]))
            row["torsion_contacts"] = res.get("contacts_per_step")
            row["torsion_constraints"] = res.get("constraints_per_step")
        except (AssertionError, KeyError, ValueError) as e:
            row["error"] = str(e).strip().splitlines()[-1][:300]
            break
        r, diverged = bench_engine.mujoco_rate(m, state, ctrl, nstep)
        row["mujoco"].append(r)
        row["mujoco_diverged"] |= diverged
    if not row["error"]:
        try:
            row["split"] = stage_split(torsion.speed(model.path, nstep, threads=1,
                                                     disable=TORSION_DISABLE, profile=True))
        except (AssertionError, KeyError, ValueError) as e:
            row["split_error"] = str(e).strip().splitlines()[-1][:200]
    row["mujoco_contacts"], row["mujoco_constraints"] = mujoco_counts(m, state, ctrl, nstep)
    return bench_engine.summarize(row)


def verdict(row):
    """'ok', 'below target', 'DEFECT' or 'error' for one row."""
    if row["ratio"] is None:
        return "error"
    if row["ratio"] < DEFECT:
        return "DEFECT (< %.1f)" % DEFECT
    if row["model"] in TARGETS and row["ratio"] < 1.0:
        return "below target 1.0"
    return "ok"


def _num(x, fmt="%.0f"):
    """A number for the table, or a dash."""
    return fmt % x if x is not None else "—"


def table(rows):
    """Markdown tables: speeds and ratios; Torsion's stage split."""
    lines = ["| model | nv | steps | contacts/step T / M | rows/step T / M | Torsion steps/s "
             "| MuJoCo steps/s | ratio | verdict |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        note = verdict(r)
        if r["error"]:
            note += ": " + r["error"].replace("|", "/")[:120]
        if r["mujoco_diverged"]:
            note += " (MuJoCo diverged and stopped stepping)"
        lines.append("| %s | %d | %d | %s / %s | %s / %s | %s | %s | %s | %s |" % (
            r["model"], r["nv"], r["nstep"], _num(r.get("torsion_contacts"), "%.1f"),
            _num(r.get("mujoco_contacts"), "%.1f"), _num(r.get("torsion_constraints"), "%.1f"),
            _num(r.get("mujoco_constraints"), "%.1f"), _num(r["torsion_median"]),
            _num(r["mujoco_median"]), _num(r["ratio"], "%.2f"), note))
    lines += ["", "Torsion's time per step by stage (`--profile`, µs; share of the step):", "",
              "| model | step | collision | constraint assembly | solver | rest |",
              "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        s = r.get("split")
        if not s:
            lines.append("| %s | — | — | — | — | — |" % r["model"])
            continue
        cells = ["%.1f (%.0f%%)" % (s[k], 100 * s[k] / s["total"]) for k in STAGES]
        lines.append("| %s | %.1f | %s |" % (r["model"], s["total"], " | ".join(cells)))
    return "\n".join(lines)


def update_docs(report):
    """Replace the section between the markers in docs/benchmarks.md."""
    with open(DOCS) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise SystemExit("%s has no %s ... %s markers" % (DOCS, BEGIN, END))
    mc = report["machine"]
    body = "\n".join([
        BEGIN,
        "Measured %s at commit %s on %s (%d cores), MuJoCo %s; medians of %d repeats, about "
        "%.1f s of stepping each; single thread; contacts and constraints on; MuJoCo with "
        "island and nativeccd disabled; sensors disabled on both sides. T = Torsion, "
        "M = MuJoCo (contacts and constraint rows averaged over the run)." % (
            report["date"], report.get("commit") or "?", mc["cpu"], mc["cores"],
            mc["mujoco"], report["repeats"], report["seconds"]),
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
                   help="rewrite the section in docs/benchmarks.md")
    p.add_argument("--from-json", metavar="FILE",
                   help="measure nothing: print (and with --update-docs write) a saved run")
    args = p.parse_args()

    if args.from_json:
        with open(args.from_json) as f:
            report = json.load(f)
        report["results"] = [bench_engine.summarize(r) for r in report["results"]]
        print(table(report["results"]))
        if args.update_docs:
            update_docs(report)
        return 0

    models = find_models(args.models)
    if not models:
        raise SystemExit("no model matches %s" % args.models)
    print("torsion-sim: %s" % torsion.sim_path())
    rows = []
    for model in models:
        row = bench_model(model, args.repeats, args.seconds)
        rows.append(row)
        print("%-30s torsion %8s  mujoco %8s  ratio %5s  %s" % (
            model.id, _num(row["torsion_median"]), _num(row["mujoco_median"]),
            _num(row["ratio"], "%.2f"), verdict(row)), flush=True)
    report = {"date": datetime.date.today().isoformat(), "machine": bench_engine.machine(),
              "commit": bench_engine.commit(), "torsion_sim": torsion.sim_path(),
              "repeats": args.repeats, "seconds": args.seconds,
              "torsion_disable": list(TORSION_DISABLE), "mujoco_disable": list(MUJOCO_DISABLE),
              "threads": 1, "results": rows}
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
