#!/usr/bin/env python3
"""bench/bench_robots.py — single-thread mj_step speed of Torsion against MuJoCo on every
real-robot model of tests/differential/harness/robots.py (Menagerie, Gymnasium-Robotics,
Meta-World, myo-sim, dm_control's dog), measured as bench_interleaved.py measures: both
engines in one process (MuJoCo's library as its bindings loaded it, Torsion's
build/engine/libtorsion.so through ctypes, each chunk one call of bench/step_loop.c), from the same states of MuJoCo's own
trajectory from the initial state (keyframe 0 and its controls, else the default state;
mjSTATE_INTEGRATION with warmstart), alternating chunks of --chunk steps, both engines with
their default options (constraint islands and native convex collision on).

Fewer rounds than bench_interleaved.py (--rounds, default 200, at the states of steps
--at, default 200, 1000 and 3000) so that the whole corpus takes minutes, not an hour. Per
model the ratio is the median over all rounds of MuJoCo's time / Torsion's time (above 1:
Torsion is faster), and each engine's time the median of its rounds. Models run one at a
time in a child process, so that a crash or a hang in either engine costs one model; those
and the files Torsion (or MuJoCo) cannot load are listed as such.

  .venv/bin/python bench/bench_robots.py [--models PATTERN ...] [--rounds 200] [--chunk 20]
      [--at 200 1000 3000] [--json bench/results/robots.json] [--update-docs]

Menagerie comes from $TORSION_MENAGERIE (or --menagerie DIR), see harness/robots.py.
"""
import argparse
import os
import statistics
import sys

import benchlib
import mujoco
import ratio_stats

from harness import oracle, robots  # noqa: E402 (benchlib put it on the path)

JSON = os.path.join(benchlib.HERE, "results", "robots.json")
BEGIN, END = "<!-- bench_robots:begin -->", "<!-- bench_robots:end -->"
SLOW = 0.8   # ratios below this are counted in the summary


def bench_model(lib, model, opts):
    """One model's row: per-state and overall medians, or why it was not measured."""
    row = {"model": model.id}
    try:
        m = oracle.load(model.path, disable=oracle.BENCH_ORACLE)
    except ValueError as e:
        row["mujoco_error"] = benchlib.error_line(e, 200)
        return row
    try:
        tm, td = benchlib.torsion_model(lib, model.path)
    except RuntimeError as e:
        first = str(e).strip().splitlines()[0]
        row["torsion_error"] = first.split("torsion: ", 1)[-1][:300]
        return row
    d = mujoco.MjData(m)
    spec = mujoco.mjtState.mjSTATE_INTEGRATION
    row.update({"nv": int(m.nv), "states": []})
    parts = []
    try:
        for at, s, ncon in benchlib.trajectory_states(m, d, opts.at, spec):
            mj, tn, rt = benchlib.interleave(lib, tm, td, m, d, s, spec, opts.rounds,
                                             opts.chunk)
            row["states"].append({"step": at, "ncon": int(ncon),
                                  "mujoco_us": statistics.median(mj),
                                  "torsion_us": statistics.median(tn),
                                  "ratio": statistics.median(rt)})
            parts.append((mj, tn, rt))
    finally:
        lib.mj_deleteData(td)
        lib.mj_deleteModel(tm)
    row.update(ratio_stats.summary(parts), ncon=[st["ncon"] for st in row["states"]])
    return row


def _state_of(row):
    """What happened to a model without a ratio, for the table."""
    if row.get("mujoco_error"):
        return "MuJoCo cannot load it: " + row["mujoco_error"]
    if row.get("torsion_error"):
        return "Torsion cannot load it: " + row["torsion_error"]
    return "not measured: " + row.get("failure", "?")


def _short(text):
    """A message with the machine's directories left out, fit for a table cell."""
    for root in (robots.CACHE_DIR, os.environ.get(robots.MENAGERIE_ENV, ""),
                 os.path.dirname(os.path.dirname(mujoco.__file__))):
        if root:
            text = text.replace(root.rstrip("/") + "/", "")
    return text.replace("|", "/")[:200]


def summary(results):
    """One line: how many measured, median and minimum ratio, how many below SLOW, and how
    many could not be measured."""
    timed = [r for r in results if r.get("ratio") is not None]
    text = "%d models, %d timed" % (len(results), len(timed))
    if timed:
        ratios = [r["ratio"] for r in timed]
        worst = min(timed, key=lambda r: r["ratio"])
        text += ": ratio median %.2fx, min %.2fx (%s), %d below %.1fx" % (
            statistics.median(ratios), worst["ratio"], worst["model"],
            sum(1 for x in ratios if x < SLOW), SLOW)
    counts = [(sum(1 for r in results if r.get(k)), what) for k, what in
              (("torsion_error", "Torsion cannot load"), ("mujoco_error", "MuJoCo rejects"),
               ("failure", "crashed or timed out"))]
    text += "".join("; %d %s" % (n, what) for n, what in counts if n)
    return text


def table(results):
    """The Markdown table of a run, then the summary line."""
    lines = ["| model | nv | contacts (at the states) | MuJoCo µs/step | Torsion µs/step | "
             "ratio | quartiles |", "|---|---:|---|---:|---:|---:|---|"]
    for r in results:
        if r.get("ratio") is None:
            lines.append("| %s | | | | | — | %s |" % (r["model"], _short(_state_of(r))))
            continue
        lines.append("| %s | %d | %s | %.1f | %.1f | %s | %.2f-%.2f |" % (
            r["model"], r["nv"], ", ".join(str(n) for n in r["ncon"]), r["mujoco_us"],
            r["torsion_us"], ("**%.2f**" if r["ratio"] < SLOW else "%.2f") % r["ratio"],
            r["q25"], r["q75"]))
    return "\n".join(lines + ["", "Summary: " + summary(results)])


def update_docs(report):
    """Rewrite the bench_robots section of docs/benchmarks.md."""
    m = report["machine"]
    head = ("Measured %s at commit %s on %s (%s cores), MuJoCo %s; states at steps %s of "
            "MuJoCo's trajectory, %d rounds of %d steps per engine and state, alternating; "
            "ratio = MuJoCo time / Torsion time (median over rounds; bold: below %.1f)." % (
                report["date"], report["commit"], m["cpu"], m["cores"], m["mujoco"],
                ", ".join(str(a) for a in report["at"]), report["rounds"], report["chunk"],
                SLOW))
    benchlib.replace_docs_section(BEGIN, END, head, table(report["results"]))


def worker(opts):
    """The child's side: measure the models whose ids arrive on stdin."""
    lib = benchlib.load_torsion()
    by_id = {m.id: m for m in robots.all_models()}
    benchlib.serve_models(lambda mid: bench_model(lib, by_id[mid], opts))


def main():
    p = benchlib.arg_parser(__doc__)
    p.add_argument("--rounds", type=int, default=200)
    p.add_argument("--chunk", type=int, default=20)
    p.add_argument("--at", type=int, nargs="*", default=[200, 1000, 3000])
    p.add_argument("--timeout", type=float, default=120, help="seconds per model")
    p.add_argument("--menagerie", help="Menagerie directory (sets TORSION_MENAGERIE)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    benchlib.add_report_args(p, "rewrite the robots section of docs/benchmarks.md")
    opts = p.parse_args()
    if opts.menagerie:
        os.environ[robots.MENAGERIE_ENV] = os.path.abspath(opts.menagerie)
    if opts.from_json:
        return benchlib.replay(opts.from_json, lambda r: r, table, update_docs if
                               opts.update_docs else None)
    if opts.worker:
        worker(opts)
        return 0
    if not os.path.exists(benchlib.TORSION_LIB):
        raise SystemExit("%s not built (ninja -C build)" % benchlib.TORSION_LIB)
    models = benchlib.select_models(robots.all_models(), opts.models)
    order = {m.id: k for k, m in enumerate(models)}
    report = benchlib.report_head()
    report.update({"rounds": opts.rounds, "chunk": opts.chunk, "at": sorted(opts.at),
                   "results": []})

    def done(row):
        report["results"].append(row)
        print("[%d/%d] %s: %s" % (
            len(report["results"]), len(models), row["model"] if "model" in row else row["id"],
            "ratio %.2f (MuJoCo %.1f us, Torsion %.1f us)" % (
                row["ratio"], row["mujoco_us"], row["torsion_us"])
            if row.get("ratio") is not None else _state_of(row)), file=sys.stderr, flush=True)

    # the child's arguments: this file's measuring options, the model ids come on stdin
    child = [sys.executable, os.path.abspath(__file__), "--worker", "--rounds",
             str(opts.rounds), "--chunk", str(opts.chunk), "--at"] + [str(a) for a in opts.at]
    benchlib.run_children([m.id for m in models], child, 1, opts.timeout, done)
    for row in report["results"]:
        if "model" not in row:
            row["model"] = row.pop("id")
    report["results"].sort(key=lambda r: order.get(r["model"], len(order)))
    if opts.json is None:
        opts.json = JSON
    return benchlib.finish(report, table, update_docs, opts)


if __name__ == "__main__":
    sys.exit(main())
