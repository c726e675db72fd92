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
  Torsion: `torsion-sim speed MODEL --nstep N --threads 1`
  MuJoCo:  mujoco.rollout.rollout on one mjData (its native C loop), timed around the call,
           with its default options, as Torsion (islands, native convex collision);
           sensors on for both (see docs/fidelity.md).
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
import sys

import mujoco

import benchlib
from harness import corpus, oracle, torsion  # noqa: E402  (on the path through benchlib)

MODELS = ["gym/humanoid", "gym/ant", "gym/half_cheetah", "gym/hopper", "gym/walker2d",
          "dmc/humanoid", "dmc/quadruped", "local/scenes/humanoid_crowd"]
TORSION_DISABLE = ()                                           # sensors on for both
MUJOCO_DISABLE = TORSION_DISABLE + oracle.BENCH_ORACLE         # () today: defaults
TARGETS = ("gym/ant", "gym/humanoid")  # ratio must reach 1.0
DEFECT = 0.5
STAGES = ["collision", "make_constraint", "solver", "rest"]
BEGIN, END = "<!-- bench_contacts:begin -->", "<!-- bench_contacts:end -->"


def find_models(patterns):
    """The benchmark models whose id contains one of the patterns (all when empty)."""
    return benchlib.find_models(MODELS, corpus.contact_models(), patterns)


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
    state, ctrl = benchlib.initial_state(m)
    benchlib.mujoco_rate(m, state, ctrl, 200)
    rate, _ = benchlib.mujoco_rate(m, state, ctrl, 2000)
    nstep = int(min(max(rate * seconds, 500), 5_000_000))
    row = {"model": model.id, "nv": m.nv, "nu": m.nu, "nstep": nstep, "torsion": [],
           "mujoco": [], "mujoco_diverged": False, "error": None, "split": None}

    # one Torsion run: its speed, and the work it did per step
    def torsion_once():
        res = torsion.speed(model.path, nstep, threads=1, disable=TORSION_DISABLE)
        speed = float(res["steps_per_second"])
        row["torsion_contacts"] = res.get("contacts_per_step")
        row["torsion_constraints"] = res.get("constraints_per_step")
        return speed

    try:
        benchlib.alternate(row, repeats, torsion_once,
                           lambda: benchlib.mujoco_speed(row, m, state, ctrl, nstep))
    except (AssertionError, KeyError, ValueError) as e:
        row["error"] = benchlib.error_line(e)
    if not row["error"]:
        try:
            row["split"] = stage_split(torsion.speed(model.path, nstep, threads=1,
                                                     disable=TORSION_DISABLE, profile=True))
        except (AssertionError, KeyError, ValueError) as e:
            row["split_error"] = benchlib.error_line(e, 200)
    row["mujoco_contacts"], row["mujoco_constraints"] = mujoco_counts(m, state, ctrl, nstep)
    return benchlib.summarize(row)


def verdict(row):
    """'ok', 'below target', 'DEFECT' or 'error' for one row."""
    return benchlib.speed_verdict(row, TARGETS, DEFECT)


def table(rows):
    """Markdown tables: speeds and ratios; Torsion's stage split."""
    num = benchlib.num
    lines = ["| model | nv | steps | contacts/step T / M | rows/step T / M | Torsion steps/s "
             "| MuJoCo steps/s | ratio | verdict |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append("| %s | %d | %d | %s / %s | %s / %s | %s | %s | %s | %s |" % (
            r["model"], r["nv"], r["nstep"], num(r.get("torsion_contacts"), "%.1f"),
            num(r.get("mujoco_contacts"), "%.1f"), num(r.get("torsion_constraints"), "%.1f"),
            num(r.get("mujoco_constraints"), "%.1f"), num(r["torsion_median"]),
            num(r["mujoco_median"]), num(r["ratio"], "%.2f"), benchlib.note(verdict(r), r)))
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
    mc = report["machine"]
    benchlib.replace_docs_section(
        BEGIN, END,
        "Measured %s at commit %s on %s (%d cores), MuJoCo %s; medians of %d repeats, about "
        "%.1f s of stepping each; single thread; contacts and constraints on; MuJoCo with "
        "default options (islands and native convex collision in both); sensors on for both. T = Torsion, "
        "M = MuJoCo (contacts and constraint rows averaged over the run)." % (
            report["date"], report.get("commit") or "?", mc["cpu"], mc["cores"],
            mc["mujoco"], report["repeats"], report["seconds"]),
        table(report["results"]))


def progress(row):
    """One model's line while the benchmark runs."""
    return "%-30s torsion %8s  mujoco %8s  ratio %5s  %s" % (
        row["model"], benchlib.num(row["torsion_median"]), benchlib.num(row["mujoco_median"]),
        benchlib.num(row["ratio"], "%.2f"), verdict(row))


def main():
    args = benchlib.speed_args(__doc__, "rewrite the section in docs/benchmarks.md")
    if args.from_json:
        return benchlib.replay(args.from_json, benchlib.summarize, table,
                               update_docs if args.update_docs else None)

    models = find_models(args.models)
    print("torsion-sim: %s" % torsion.sim_path())
    rows = benchlib.run_models(
        models, lambda model: bench_model(model, args.repeats, args.seconds), progress)
    report = dict(benchlib.report_head(), torsion_sim=torsion.sim_path(), repeats=args.repeats,
                  seconds=args.seconds, torsion_disable=list(TORSION_DISABLE),
                  mujoco_disable=list(MUJOCO_DISABLE), threads=1, results=rows)
    return benchlib.finish(report, table, update_docs, args)


if __name__ == "__main__":
    sys.exit(main())
