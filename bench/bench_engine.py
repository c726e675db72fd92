#!/usr/bin/env python3
"""bench/bench_engine.py — Torsion's single-thread stepping speed against MuJoCo's, in the same
run, on the differential-test corpus with constraints disabled and sensors on (issue 2,
item 9).

For each model both engines step from the same initial state (keyframe 0 when the model has
one, else the default state) with the same controls (the keyframe's, else zero) for the same
number of steps (about --seconds of MuJoCo time):
  Torsion: `torsion-sim speed MODEL --nstep N --threads 1 --disable constraint`
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
import sys

import benchlib
from harness import corpus, oracle, torsion  # noqa: E402  (on the path through benchlib)

# constraints: issue 2 is smooth dynamics only (docs/fidelity.md); sensors on for both
DISABLE = ("constraint",)
TARGETS = ("gym/ant", "gym/humanoid", "dmc/humanoid")  # ratio must reach 1.0
DEFECT = 0.5           # a ratio below this is a defect
BEGIN, END = "<!-- bench_engine:begin -->", "<!-- bench_engine:end -->"


def bench_model(model, repeats, seconds):
    """Medians of both engines and their ratio for one model (a dict)."""
    m = oracle.load(model.path, disable=DISABLE)
    state, ctrl = benchlib.initial_state(m)
    # calibrate (after a warm-up run): about `seconds` of MuJoCo stepping
    benchlib.mujoco_rate(m, state, ctrl, 1000)
    rate, _ = benchlib.mujoco_rate(m, state, ctrl, 10000)
    nstep = int(min(max(rate * seconds, 2000), 5_000_000))
    row = {"model": model.id, "nq": m.nq, "nv": m.nv, "nu": m.nu, "nstep": nstep,
           "torsion": [], "mujoco": [], "mujoco_diverged": False, "error": None}
    try:
        benchlib.alternate(
            row, repeats,
            lambda: float(torsion.speed(model.path, nstep, threads=1,
                                        disable=DISABLE)["steps_per_second"]),
            lambda: benchlib.mujoco_speed(row, m, state, ctrl, nstep))
    except (AssertionError, KeyError, ValueError) as e:
        row["error"] = benchlib.error_line(e)
    return benchlib.summarize(row)


def verdict(row):
    """'defect', 'below target', 'ok' or 'error' for one row."""
    return benchlib.speed_verdict(row, TARGETS, DEFECT)


def table(rows):
    """Markdown table of the results."""
    num = benchlib.num
    lines = ["| model | nv | nu | steps | Torsion steps/s | MuJoCo steps/s | ratio | verdict |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append("| %s | %d | %d | %d | %s | %s | %s | %s |" % (
            r["model"], r["nv"], r["nu"], r["nstep"], num(r["torsion_median"]),
            num(r["mujoco_median"]), num(r["ratio"], "%.2f"), benchlib.note(verdict(r), r)))
    return "\n".join(lines)


def update_docs(report):
    """Replace the table between the markers in docs/benchmarks.md."""
    mc = report["machine"]
    benchlib.replace_docs_section(
        BEGIN, END,
        "Measured %s at commit %s on %s (%d cores), MuJoCo %s; medians of %d repeats, "
        "about %.1f s of stepping each; single thread; disabled on both sides: %s." % (
            report["date"], report.get("commit") or "?", mc["cpu"], mc["cores"],
            mc["mujoco"], report["repeats"], report["seconds"],
            ", ".join(report.get("disable", DISABLE))),
        table(report["results"]))


def progress(row):
    """One model's line while the benchmark runs."""
    return "%-28s torsion %10s  mujoco %10s  ratio %5s  %s" % (
        row["model"], benchlib.num(row["torsion_median"]), benchlib.num(row["mujoco_median"]),
        benchlib.num(row["ratio"], "%.2f"), verdict(row))


def main():
    args = benchlib.speed_args(__doc__, "rewrite the table in docs/benchmarks.md")
    if args.from_json:
        return benchlib.replay(args.from_json, benchlib.summarize, table,
                               update_docs if args.update_docs else None)

    models = benchlib.select_models(corpus.package_models(), args.models)
    print("torsion-sim: %s" % torsion.sim_path())
    rows = benchlib.run_models(
        models, lambda model: bench_model(model, args.repeats, args.seconds), progress)
    report = dict(benchlib.report_head(), torsion_sim=torsion.sim_path(), repeats=args.repeats,
                  seconds=args.seconds, disable=list(DISABLE), threads=1, results=rows)
    return benchlib.finish(report, table, update_docs, args)


if __name__ == "__main__":
    sys.exit(main())
