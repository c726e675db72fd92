#!/usr/bin/env python3
"""bench/bench_stages.py — where the time of a step goes: each pipeline stage of Torsion and
of MuJoCo called alone, in one process, from the same state.

Both engines are called through ctypes on their shared libraries (MuJoCo's libmujoco from
its Python wheel, on the model and data the bindings made; Torsion's
build/engine/libtorsion.so), so that their call paths cost the same. For each state (MuJoCo's
trajectory from the initial state, at --at steps), every stage is timed for --reps calls in
a row, engine after engine, in --rounds rounds (the engine order alternating); a stage's time
is the lowest round's mean per call, less the mean of a call that does nothing (mju_zero of
no numbers) timed the same way, so that it estimates the work and not the Python loop. The lowest round is the
one the machine disturbed least: on a shared VM the medians of such short calls swing more
than the differences measured.

The stages, each after a full mj_forward at the state:
  kinematics, com (mj_comPos), inertia (mj_crb), factor (mj_factorM), collision,
  rows (mj_makeConstraint), islands (mj_island), projection (mj_projectConstraint: PGS
  models only), velocity (mj_fwdVelocity), actuation (mj_fwdActuation), acceleration
  (mj_fwdAcceleration), and, each timed as mj_setState + the call less mj_setState alone
  (so that the solver starts from the state's warmstart every time): solver
  (mj_fwdConstraint), forward (mj_forward) and step (mj_step).
Called alone, a stage finds its inputs warm in the cache; inside a step they may not be.

  .venv/bin/python bench/bench_stages.py [--models gym/humanoid ...] [--at 300 3000]
      [--rounds 40] [--reps 200] [--json bench/results/stages.json] [--update-docs]
"""
import ctypes
import os
import sys
import time

import benchlib
import mujoco

from harness import corpus, oracle  # noqa: E402 (benchlib put it on the path)

DEFAULT_MODELS = ["gym/humanoid", "gym/ant", "gym/half_cheetah", "dmc/humanoid",
                  "dmc/humanoid_CMU"]
LIB = benchlib.TORSION_LIB
BEGIN, END = "<!-- bench_stages:begin -->", "<!-- bench_stages:end -->"

# (name, function, timed from a restored state each call)
STAGES = [
    ("kinematics", "mj_kinematics", False),
    ("com", "mj_comPos", False),
    ("inertia", "mj_crb", False),
    ("factor", "mj_factorM", False),
    ("collision", "mj_collision", False),
    ("rows", "mj_makeConstraint", False),
    ("islands", "mj_island", False),
    ("projection", "mj_projectConstraint", False),
    ("velocity", "mj_fwdVelocity", False),
    ("actuation", "mj_fwdActuation", False),
    ("acceleration", "mj_fwdAcceleration", False),
    ("solver", "mj_fwdConstraint", True),
    ("forward", "mj_forward", True),
    ("step", "mj_step", True),
]


def mujoco_lib():
    """MuJoCo's shared library from its Python wheel (the one the bindings loaded)."""
    folder = os.path.dirname(mujoco.__file__)
    names = sorted(n for n in os.listdir(folder) if n.startswith("libmujoco.so"))
    if not names:
        raise SystemExit("no libmujoco.so in %s" % folder)
    return ctypes.CDLL(os.path.join(folder, names[-1]))


class Engine:
    """One engine's library, model and data pointers, and its stage functions."""

    def __init__(self, lib, m, d):
        self.m, self.d = ctypes.c_void_p(m), ctypes.c_void_p(d)
        self.set_state = lib.mj_setState
        self.set_state.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                   ctypes.POINTER(ctypes.c_double), ctypes.c_uint]
        self.empty = lib.mju_zero
        self.empty.argtypes = [ctypes.c_void_p, ctypes.c_int]
        self.empty.restype = None
        self.fn = {}
        for _, name, _ in STAGES:
            f = getattr(lib, name)
            f.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            f.restype = None
            self.fn[name] = f

    def restore(self, ptr, spec):
        """Set the state, then a full forward pass (every stage's inputs in place)."""
        self.set_state(self.m, self.d, ptr, spec)
        self.fn["mj_forward"](self.m, self.d)

    def time_calls(self, name, reps, ptr, spec, from_state):
        """Mean seconds per call of `reps` calls in a row (after mj_setState each time when
        from_state; name None: the empty call mju_zero(d, 0), or mj_setState alone)."""
        m, d = self.m, self.d
        if name is None:
            f, t0 = self.empty, time.perf_counter()
            for _ in range(reps):
                f(d, 0)
        elif name == "setState":
            f, t0 = self.set_state, time.perf_counter()
            for _ in range(reps):
                f(m, d, ptr, spec)
        elif from_state:
            f, s, t0 = self.fn[name], self.set_state, time.perf_counter()
            for _ in range(reps):
                s(m, d, ptr, spec)
                f(m, d)
        else:
            f, t0 = self.fn[name], time.perf_counter()
            for _ in range(reps):
                f(m, d)
        return (time.perf_counter() - t0) / reps


def stages_of(m):
    """The stages that apply to model m (the projection only under a dual solver)."""
    dual = m.opt.solver == mujoco.mjtSolver.mjSOL_PGS
    return [s for s in STAGES if s[0] != "projection" or dual]


def bench_state(engines, m, state, spec, opts):
    """{stage: (MuJoCo ns, Torsion ns)} at one state: lowest round, calibrated."""
    ptr = state.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    plan = [("call", None, False), ("setState", "setState", False)] + [
        (label, name, fs) for label, name, fs in stages_of(m)]
    best = {label: [float("inf"), float("inf")] for label, _, _ in plan}
    for r in range(opts.rounds):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for label, name, from_state in plan:
            for e in order:
                engines[e].restore(ptr, spec)
                t = engines[e].time_calls(name, opts.reps, ptr, spec, from_state)
                best[label][e] = min(best[label][e], t)
    out = {}
    for label, _, from_state in plan[2:]:
        base = [best["setState"][e] if from_state else best["call"][e] for e in (0, 1)]
        out[label] = tuple(max(0.0, (best[label][e] - base[e]) * 1e9) for e in (0, 1))
    return out


def bench_model(tlib, mlib, model, opts):
    """Rows (one per state) of one model."""
    m = oracle.load(model.path, disable=oracle.BENCH_ORACLE)
    d = mujoco.MjData(m)
    tm, td = benchlib.torsion_model(tlib, model.path)
    engines = [Engine(mlib, m._address, d._address), Engine(tlib, tm.value, td.value)]
    spec = int(mujoco.mjtState.mjSTATE_INTEGRATION)
    rows = []
    for at, s, ncon in benchlib.trajectory_states(m, d, opts.at, spec):
        times = bench_state(engines, m, s, spec, opts)
        rows.append({"model": model.id, "step": at, "ncon": int(ncon),
                     "stages": {k: {"mujoco_ns": v[0], "torsion_ns": v[1]}
                                for k, v in times.items()}})
        print("  %s at step %d: step %.0f / %.0f ns" % (
            model.id, at, times["step"][0], times["step"][1]), file=sys.stderr)
    return rows


def table(results):
    """Markdown: one row per model state, per stage Torsion ns and MuJoCo/Torsion."""
    labels = [label for label, _, _ in STAGES]
    lines = ["| model | step | contacts | " + " | ".join(labels) + " |",
             "|---|---:|---:|" + "---:|" * len(labels)]
    for r in results:
        cells = []
        for label in labels:
            s = r["stages"].get(label)
            if not s:
                cells.append("—")
            elif s["torsion_ns"] <= 0 or s["mujoco_ns"] <= 0:
                cells.append("%.0f" % s["torsion_ns"])
            else:
                cells.append("%.0f (%.2f)" % (s["torsion_ns"], s["mujoco_ns"] / s["torsion_ns"]))
        lines.append("| %s | %d | %d | %s |" % (r["model"], r["step"], r["ncon"],
                                               " | ".join(cells)))
    return "\n".join(lines)


def update_docs(report):
    """Rewrite the bench_stages section of docs/benchmarks.md."""
    mc = report["machine"]
    summary = ("Measured %s at commit %s on %s (%s cores, Python %s), MuJoCo %s; lowest of %d "
               "rounds of %d calls per stage and engine, less the call's own cost; each cell: "
               "Torsion ns (MuJoCo time / Torsion time)." % (
                   report["date"], report["commit"], mc["cpu"], mc["cores"], mc["python"],
                   mujoco.__version__, report["rounds"], report["reps"]))
    benchlib.replace_docs_section(BEGIN, END, summary, table(report["results"]))


def main():
    p = benchlib.arg_parser(__doc__)
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--reps", type=int, default=200)
    p.add_argument("--at", type=int, nargs="*", default=[300, 3000])
    benchlib.add_report_args(p, "rewrite the stages section of docs/benchmarks.md")
    opts = p.parse_args()
    if opts.from_json:
        return benchlib.replay(opts.from_json, lambda r: r, table, update_docs if
                               opts.update_docs else None)
    if not os.path.exists(LIB):
        raise SystemExit("%s not built (ninja -C build)" % LIB)
    tlib, mlib = benchlib.load_torsion(LIB), mujoco_lib()
    models = benchlib.find_models(opts.models or DEFAULT_MODELS, corpus.contact_models(), [])
    report = benchlib.report_head()
    report.update({"rounds": opts.rounds, "reps": opts.reps, "results": []})
    for model in models:
        report["results"] += bench_model(tlib, mlib, model, opts)
    return benchlib.finish(report, table, update_docs, opts)


if __name__ == "__main__":
    sys.exit(main())
