#!/usr/bin/env python3
"""bench/bench_interleaved.py — Torsion's and MuJoCo's mj_step interleaved in one process,
from the same states, so that the machine's drift cancels out of the ratio.

bench_contacts.py times each engine for about a second in turn, in separate processes; on
a shared VM whose speed drifts by 10-30% over seconds its single ratios swing by as much.
Here both engines live in this process (MuJoCo's library loaded by its Python bindings,
Torsion's build/engine/libtorsion.so through ctypes; Torsion's library does not load MuJoCo)
and alternate every --chunk steps (default 20): each round resets both to one state, times
chunk steps of one engine, then of the other (the order alternating by round). A chunk is
one call of the same C loop for both engines (bench/step_loop.c, given the engine's mj_step),
so no per-step Python call is timed. The ratio
is the median over --rounds rounds of MuJoCo's time / Torsion's time.

States: MuJoCo's own trajectory from the model's initial state (keyframe 0, else the
default; the keyframe's controls, else zero), taken at --at steps (default 300, 1500 and
3000: falling, landing, lying for the humanoids), mjSTATE_INTEGRATION with warmstart. Both
engines run with their default options (constraint islands and native convex collision on),
as in bench_contacts.py.

  .venv/bin/python bench/bench_interleaved.py [--models gym/humanoid] [--rounds 300]
      [--chunk 20] [--json bench/results/interleaved.json] [--update-docs]
"""
import os
import sys

import benchlib
import mujoco
import ratio_stats

from harness import corpus, oracle  # noqa: E402 (benchlib put it on the path)

DEFAULT_MODELS = ["gym/humanoid", "gym/ant", "dmc/humanoid", "dmc/quadruped"]
LIB = benchlib.TORSION_LIB
BEGIN, END = "<!-- bench_interleaved:begin -->", "<!-- bench_interleaved:end -->"


def bench_model(lib, model, opts):
    """Per-state medians for one model."""
    m = oracle.load(model.path, disable=oracle.BENCH_ORACLE)
    d = mujoco.MjData(m)
    tm, td = benchlib.torsion_model(lib, model.path)
    spec = mujoco.mjtState.mjSTATE_INTEGRATION

    # MuJoCo's trajectory, states at the requested steps; chunks of each engine alternate
    rows = []
    for at, s, ncon in benchlib.trajectory_states(m, d, opts.at, spec):
        part = benchlib.interleave(lib, tm, td, m, d, s, spec, opts.rounds, opts.chunk)
        rows.append(dict(ratio_stats.summary([part]), model=model.id, step=at, ncon=int(ncon)))
        r = rows[-1]
        print("  %s at step %d: MuJoCo %.1f us, Torsion %.1f us, ratio %.3f [%.3f, %.3f]" % (
            model.id, at, r["mujoco_us"], r["torsion_us"], r["ratio"], r["q25"], r["q75"]),
            file=sys.stderr)
    return rows


def table(results):
    """The Markdown table of a run."""
    lines = ["| model | state (step) | contacts | MuJoCo µs/step | Torsion µs/step | "
             "ratio (median) | quartiles |", "|---|---:|---:|---:|---:|---:|---|"]
    for r in results:
        lines.append("| %s | %d | %d | %.1f | %.1f | %.2f | %.2f-%.2f |" % (
            r["model"], r["step"], r["ncon"], r["mujoco_us"], r["torsion_us"], r["ratio"],
            r["q25"], r["q75"]))
    return "\n".join(lines)


def update_docs(report):
    """Rewrite the bench_interleaved section of docs/benchmarks.md."""
    mc = report["machine"]
    summary = ("Measured %s at commit %s on %s (%s cores, Python %s), MuJoCo %s; %d rounds of "
               "%d steps per engine and state, alternating; ratio = MuJoCo time / Torsion "
               "time." % (report["date"], report["commit"], mc["cpu"], mc["cores"],
                          mc["python"], mujoco.__version__, report["rounds"], report["chunk"]))
    benchlib.replace_docs_section(BEGIN, END, summary, table(report["results"]))


def main():
    p = benchlib.arg_parser(__doc__)
    p.add_argument("--rounds", type=int, default=300)
    p.add_argument("--chunk", type=int, default=20)
    p.add_argument("--at", type=int, nargs="*", default=[300, 1500, 3000])
    benchlib.add_report_args(p, "rewrite the interleaved section of docs/benchmarks.md")
    opts = p.parse_args()
    if opts.from_json:
        return benchlib.replay(opts.from_json, lambda r: r, table, update_docs if
                               opts.update_docs else None)
    if not os.path.exists(LIB):
        raise SystemExit("%s not built (ninja -C build)" % LIB)
    lib = benchlib.load_torsion(LIB)
    models = benchlib.find_models(opts.models or DEFAULT_MODELS, corpus.contact_models(), [])
    report = benchlib.report_head()
    report.update({"rounds": opts.rounds, "chunk": opts.chunk, "results": []})
    for model in models:
        report["results"] += bench_model(lib, model, opts)
    return benchlib.finish(report, table, update_docs, opts)


if __name__ == "__main__":
    sys.exit(main())
