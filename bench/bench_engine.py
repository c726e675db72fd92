#!/usr/bin/env python3
"""bench/bench_engine.py — Torsion's single-thread stepping speed against MuJoCo's on the
differential-test corpus (Gymnasium's MuJoCo assets and the dm_control suite), smooth
dynamics only: constraints disabled on both sides, sensors on.

Both engines live in this process and are stepped in interleaved chunks, as
bench_interleaved.py does (benchlib.interleave): MuJoCo's library as its Python bindings
loaded it, with its stage clock removed, Torsion's build/engine/libtorsion.so through ctypes
(each chunk one call of the same C loop, bench/step_loop.c, for both), loaded from the
same MJCF with <flag constraint="disable"/> added (MuJoCo sets mjDSBL_CONSTRAINT on its
model). The states are MuJoCo's own trajectory from the initial state (keyframe 0 and its
controls, else the default state) at --at steps; for each, --rounds rounds set both engines
to it and time --chunk steps of each, the engine going first alternating by round. Per
model the ratio is the median over the rounds of all states of MuJoCo's time / Torsion's
time (above 1: Torsion is faster), each engine's speed the median of its rounds. Targets:
>= 1.0 on humanoid and ant; below 0.5 anywhere is a defect.

No per-step Python call is timed; on the smallest models, whose steps take a few
microseconds, the steps' fixed costs still weigh on the ratio.

  .venv/bin/python bench/bench_engine.py [--models ant humanoid] [--rounds 300]
      [--chunk 20] [--at 0 500] [--json bench/results/engine.json] [--update-docs]
  .venv/bin/python bench/bench_engine.py --from-json bench/results/engine.json --update-docs
"""
import statistics
import sys

import benchlib
import mujoco
import ratio_stats
from harness import corpus, oracle  # noqa: E402  (on the path through benchlib)

# smooth dynamics: constraints off on both sides; sensors on for both
DISABLE = ("constraint",)
TARGETS = ("gym/ant", "gym/humanoid", "dmc/humanoid")  # ratio must reach 1.0
DEFECT = 0.5           # a ratio below this is a defect
BEGIN, END = "<!-- bench_engine:begin -->", "<!-- bench_engine:end -->"
SPEC = mujoco.mjtState.mjSTATE_INTEGRATION


def bench_model(lib, model, opts):
    """One model's row: both engines' medians (steps/s), the ratio and its quartiles."""
    row = {"model": model.id, "error": None, "ratio": None}
    try:
        m = oracle.load(model.path, disable=DISABLE)
        d = mujoco.MjData(m)
        tm, td = benchlib.torsion_model(lib, model.path,
                                        {flag: "disable" for flag in DISABLE})
    except (RuntimeError, ValueError) as e:
        row["error"] = benchlib.error_line(e)
        return row
    row.update({"nv": m.nv, "nu": m.nu})
    parts = [benchlib.interleave(lib, tm, td, m, d, s, SPEC, opts.rounds, opts.chunk)
             for _, s, _ in benchlib.trajectory_states(m, d, opts.at, SPEC)]
    lib.mj_deleteData(td)
    lib.mj_deleteModel(tm)
    row.update(ratio_stats.summary(parts))
    return row


def verdict(row):
    """'ok', 'below target 1.0', 'DEFECT' or 'error' for one row."""
    return benchlib.speed_verdict(row, TARGETS, DEFECT)


def table(rows):
    """Markdown table of the results."""
    num = benchlib.num
    lines = ["| model | nv | nu | MuJoCo µs/step | Torsion µs/step | ratio | quartiles | "
             "verdict |", "|---|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        quart = "%.2f-%.2f" % (r["q25"], r["q75"]) if r.get("ratio") is not None else "—"
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["model"], r.get("nv", "—"), r.get("nu", "—"), num(r.get("mujoco_us"), "%.1f"),
            num(r.get("torsion_us"), "%.1f"), num(r["ratio"], "%.2f"), quart,
            benchlib.note(verdict(r), r)))
    return "\n".join(lines)


def update_docs(report):
    """Replace the table between the markers in docs/benchmarks.md."""
    mc = report["machine"]
    ratios = [r["ratio"] for r in report["results"] if r["ratio"] is not None]
    benchlib.replace_docs_section(
        BEGIN, END,
        "Measured %s at commit %s on %s (%d cores), MuJoCo %s; states at steps %s of "
        "MuJoCo's trajectory, %d rounds of %d steps per engine and state, alternating, in "
        "one process; single thread; disabled on both sides: %s. Ratio = MuJoCo time / "
        "Torsion time (median over rounds); median over models %.2f, lowest %.2f." % (
            report["date"], report.get("commit") or "?", mc["cpu"], mc["cores"],
            mc["mujoco"], ", ".join(str(a) for a in report["at"]), report["rounds"],
            report["chunk"], ", ".join(report.get("disable", DISABLE)),
            statistics.median(ratios), min(ratios)),
        table(report["results"]))


def progress(row):
    """One model's line while the benchmark runs."""
    return "%-28s mujoco %8s us  torsion %8s us  ratio %5s  %s" % (
        row["model"], benchlib.num(row.get("mujoco_us"), "%.1f"),
        benchlib.num(row.get("torsion_us"), "%.1f"), benchlib.num(row["ratio"], "%.2f"),
        verdict(row))


def main():
    p = benchlib.arg_parser(__doc__)
    p.add_argument("--rounds", type=int, default=300)
    p.add_argument("--chunk", type=int, default=20)
    p.add_argument("--at", type=int, nargs="*", default=[0, 500])
    benchlib.add_report_args(p, "rewrite the table in docs/benchmarks.md")
    opts = p.parse_args()
    if opts.from_json:
        return benchlib.replay(opts.from_json, lambda r: r, table,
                               update_docs if opts.update_docs else None)
    lib = benchlib.load_torsion()
    models = benchlib.select_models(corpus.package_models(), opts.models)
    rows = benchlib.run_models(models, lambda model: bench_model(lib, model, opts), progress)
    report = dict(benchlib.report_head(), rounds=opts.rounds, chunk=opts.chunk, at=opts.at,
                  disable=list(DISABLE), threads=1, results=rows)
    return benchlib.finish(report, table, update_docs, opts)


if __name__ == "__main__":
    sys.exit(main())
