#!/usr/bin/env python3
"""bench/bench_crowd.py — Torsion against MuJoCo 3.14 and the newest MuJoCo (4.0.0), both
engines stepped in one process in interleaved chunks (bench_interleaved.py's method), on

  crowd     N Gymnasium humanoids on a grid (tests/models/scenes/gym_humanoid_crowd_N.xml,
            N = 1, 4, 16, 64; scripts/gen_scenes.py): steps/s of each engine against N,
            the Torsion/MuJoCo ratio, and a plot (docs/img/crowd.png);
  defaults  Gymnasium's humanoid, ant and half_cheetah, dm_control's humanoid and
            humanoid_CMU with their default options, sensors on and off (mjDSBL_SENSOR set
            in both engines);
  memory    bytes per mjData: what mj_makeData allocates (MuJoCo: sizeof(mjData) + nbuffer
            + narena; Torsion: tn_dataBytes, its struct, buffer, arena and contact array)
            and what is resident (RSS growth per mjData of 4 made and stepped 300 steps).

Method: MuJoCo 3.14 (this venv) steps the model from its initial state (keyframe 0, else
the default; zero controls) and records its state at each of --at steps. For each state,
--rounds rounds each set both engines to it and time --chunk steps of each, the engine going
first alternating by round; the ratio is the median over rounds (and states) of MuJoCo's
time over Torsion's (= Torsion's steps/s over MuJoCo's); steps/s are medians. Both engines
run their default pipeline (constraint islands, native convex collision), as in
bench_interleaved.py. Torsion is build/engine/libtorsion.so through ctypes; each chunk is
one call of a C loop (bench/step_loop.c) that calls the engine's mj_step --chunk times, the
same loop for both engines, so no per-step Python call is timed.

The MuJoCo 4.0 columns come from this script run again as a child under a second venv, with
the same states (set field by field, as 4.0's state layout differs) and the same Torsion
library. Set it up once:

  python3 -m venv .venv-mj4 && .venv-mj4/bin/pip install -r requirements-bench-mj4.txt

  .venv/bin/python bench/bench_crowd.py [--tables crowd defaults memory] [--rounds 40]
      [--json bench/results/crowd.json] [--update-docs] [--from-json FILE]
"""
import argparse
import ctypes
import json
import os
import resource
import subprocess
import sys
import time

import mjcf_flags
import mujoco
import mujoco_clock
import numpy as np
import ratio_stats
import step_loop

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIB = os.path.join(ROOT, "build", "engine", "libtorsion.so")
MJ4_PYTHON = os.path.join(ROOT, ".venv-mj4", "bin", "python")
SCENES = os.path.join(ROOT, "tests", "models", "scenes")
CROWD_SIZES = [1, 4, 16, 64]
SECTIONS = {t: ("<!-- bench_crowd:%s:begin -->" % t, "<!-- bench_crowd:%s:end -->" % t)
            for t in ("crowd", "defaults", "memory")}
PLOT = os.path.join(ROOT, "docs", "img", "crowd.png")


def package_dir(name):
    """Directory of an installed package, found without importing it."""
    import importlib.util
    spec = importlib.util.find_spec(name)
    return list(spec.submodule_search_locations)[0] if spec else None


def default_models():
    """[(id, path)] of the defaults table (needs gymnasium and dm_control installed)."""
    gym = os.path.join(package_dir("gymnasium"), "envs", "mujoco", "assets")
    dmc = os.path.join(package_dir("dm_control"), "suite")
    return [("gym/humanoid", os.path.join(gym, "humanoid.xml")),
            ("gym/ant", os.path.join(gym, "ant.xml")),
            ("gym/half_cheetah", os.path.join(gym, "half_cheetah.xml")),
            ("dmc/humanoid", os.path.join(dmc, "humanoid.xml")),
            ("dmc/humanoid_CMU", os.path.join(dmc, "humanoid_CMU.xml"))]


def crowd_models():
    return [("crowd_%d" % n, os.path.join(SCENES, "gym_humanoid_crowd_%d.xml" % n))
            for n in CROWD_SIZES]


# ---------------------------------------------------------------------------------------
# both engines (this part runs under either MuJoCo version)


def load_torsion(path=LIB):
    """Torsion's shared library with the signatures used here."""
    lib = ctypes.CDLL(os.path.abspath(path))
    lib.mj_loadXML.restype = ctypes.c_void_p
    lib.tn_loadXMLString.restype = ctypes.c_void_p
    lib.tn_loadXMLString.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                     ctypes.c_int]
    lib.mj_makeData.restype = ctypes.c_void_p
    lib.mj_makeData.argtypes = [ctypes.c_void_p]
    lib.mj_setState.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                ctypes.POINTER(ctypes.c_double), ctypes.c_uint]
    lib.mj_step.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.mj_deleteData.argtypes = [ctypes.c_void_p]
    lib.mj_deleteModel.argtypes = [ctypes.c_void_p]
    lib.tn_dataBytes.restype = ctypes.c_size_t
    lib.tn_dataBytes.argtypes = [ctypes.c_void_p]
    return lib


def torsion_model(lib, path, sensors):
    """Torsion's (model, data) for path, with sensors disabled unless `sensors`."""
    err = ctypes.create_string_buffer(1000)
    if sensors:
        tm = lib.mj_loadXML(path.encode(), None, err, 1000)
    else:
        tm = lib.tn_loadXMLString(mjcf_flags.with_flags(path, {"sensor": "disable"}).encode(),
                                  os.path.dirname(path).encode(), err, 1000)
    if not tm:
        raise RuntimeError("torsion: %s" % err.value.decode(errors="replace"))
    tm = ctypes.c_void_p(tm)
    return tm, ctypes.c_void_p(lib.mj_makeData(tm))


def mujoco_model(path, sensors):
    """MuJoCo's model with its default options, sensors off unless asked."""
    m = mujoco.MjModel.from_xml_path(path)
    if not sensors:
        m.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_SENSOR)
    return m


def set_mujoco(m, d, fields):
    """Set MuJoCo's data to a state given field by field (any MuJoCo version)."""
    mujoco.mj_resetData(m, d)
    d.time = fields["time"]
    for name in ("qpos", "qvel", "act", "qacc_warmstart", "ctrl"):
        getattr(d, name)[:] = fields[name]


def interleave(lib, tm, td, m, d, fields, state, rounds, chunk):
    """(MuJoCo us/step, Torsion us/step, ratio MuJoCo time / Torsion time) per round, from
    one state (fields for MuJoCo, the 3.14 INTEGRATION vector for Torsion). Neither engine
    runs stage timers."""
    mujoco_clock.timers_off()
    loop = step_loop.StepLoop()
    ptr = state.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    t_mj, t_tn = [], []
    for r in range(rounds):
        times = {}
        for engine in (("mj", "tn") if r % 2 == 0 else ("tn", "mj")):
            if engine == "mj":
                set_mujoco(m, d, fields)
                t0 = time.perf_counter()
                loop.mujoco(m, d, chunk)
            else:
                lib.mj_setState(tm, td, ptr, TORSION_SPEC)
                t0 = time.perf_counter()
                loop.torsion(lib, tm, td, chunk)
            times[engine] = (time.perf_counter() - t0) / chunk * 1e6
        t_mj.append(times["mj"])
        t_tn.append(times["tn"])
    return t_mj, t_tn, [a / b for a, b in zip(t_mj, t_tn)]


TORSION_SPEC = 0  # set by main: mjSTATE_INTEGRATION's bits in MuJoCo 3.14's numbering


def measure_case(lib, case, opts):
    """Timings of one case {id, path, sensors, states: [{step, fields, state}]}: a row with
    the per-round lists pooled over states, and the medians."""
    m = mujoco_model(case["path"], case["sensors"])
    d = mujoco.MjData(m)
    tm, td = torsion_model(lib, case["path"], case["sensors"])
    parts = []
    for st in case["states"]:
        fields = {k: np.array(v, dtype=float) for k, v in st["fields"].items()}
        state = np.array(st["state"], dtype=float)
        # chunk of about 20 ms and rounds to fill --seconds per state, within bounds
        set_mujoco(m, d, fields)
        t0 = time.perf_counter()
        for _ in range(3):
            mujoco.mj_step(m, d)
        per = max((time.perf_counter() - t0) / 3, 1e-6)
        chunk = max(1, min(opts.chunk, int(0.02 / per)))
        rounds = int(max(10, min(opts.rounds, opts.seconds / (2 * chunk * per))))
        parts.append(interleave(lib, tm, td, m, d, fields, state, rounds, chunk))
    lib.mj_deleteData(td)
    lib.mj_deleteModel(tm)
    return dict(ratio_stats.summary(parts), id=case["id"], sensors=case["sensors"],
                mujoco=mujoco.__version__, rounds=sum(len(part[2]) for part in parts))


def child_main(path_in):
    """--child: measure the cases of a JSON file with this interpreter's MuJoCo; print the
    rows as JSON on stdout."""
    global TORSION_SPEC
    with open(path_in) as f:
        job = json.load(f)
    TORSION_SPEC = job["torsion_spec"]
    opts = argparse.Namespace(**job["opts"])
    lib = load_torsion(job["lib"])
    rows = []
    for case in job["cases"]:
        rows.append(measure_case(lib, case, opts))
        print("  [%s] %s sensors %s: ratio %.3f" % (mujoco.__version__, case["id"],
                                                   case["sensors"], rows[-1]["ratio"]),
              file=sys.stderr, flush=True)
    print(json.dumps(rows))
    return 0


# ---------------------------------------------------------------------------------------
# the parent: states, the two MuJoCo versions, memory, tables, plot and docs


def trajectory_cases(models, at, sensor_modes):
    """The cases: MuJoCo 3.14's states of each model at the steps `at`."""
    cases = []
    spec = mujoco.mjtState.mjSTATE_INTEGRATION
    for mid, path in models:
        m = mujoco_model(path, True)
        d = mujoco.MjData(m)
        if m.nkey:
            mujoco.mj_resetDataKeyframe(m, d, 0)
        d.ctrl[:] = 0
        states, step = [], 0
        for target in sorted(at):
            while step < target:
                mujoco.mj_step(m, d)
                step += 1
            s = np.zeros(mujoco.mj_stateSize(m, spec))
            mujoco.mj_getState(m, d, s, spec)
            fields = {"time": d.time}
            for name in ("qpos", "qvel", "act", "qacc_warmstart", "ctrl"):
                fields[name] = getattr(d, name).tolist()
            states.append({"step": target, "ncon": int(d.ncon), "fields": fields,
                           "state": s.tolist()})
        for sensors in sensor_modes:
            cases.append({"id": mid, "path": path, "sensors": sensors, "nv": int(m.nv),
                          "nsensor": int(m.nsensor), "states": states})
    return cases


def run_mj4(cases, opts):
    """Rows measured by the child under .venv-mj4 (MuJoCo 4.x), or [] with a note."""
    if not os.path.exists(MJ4_PYTHON):
        print("no %s: skipping the MuJoCo 4 columns (see the set-up line)" % MJ4_PYTHON,
              file=sys.stderr)
        return []
    job = {"cases": cases, "lib": LIB, "torsion_spec": TORSION_SPEC,
           "opts": {"rounds": opts.rounds, "chunk": opts.chunk, "seconds": opts.seconds}}
    tmp = os.path.join(ROOT, "build", "bench_crowd_job.json")
    with open(tmp, "w") as f:
        json.dump(job, f)
    proc = subprocess.run([MJ4_PYTHON, os.path.abspath(__file__), "--child", tmp],
                          stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def rss():
    """Resident bytes of this process."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def rss_child(engine, path, copies=4, nstep=300):
    """--rss: in a fresh process, make `copies` mjData of one engine and step each `nstep`
    times; print JSON {alloc, make, step}: bytes allocated per mjData and the growth of the
    resident set per mjData after making and after stepping."""
    if engine == "mujoco":
        m = mujoco.MjModel.from_xml_path(path)
        r0 = rss()
        ds = [mujoco.MjData(m) for _ in range(copies)]
        r1 = rss()
        for d in ds:
            for _ in range(nstep):
                mujoco.mj_step(m, d)
        alloc = MJ_DATA_STRUCT + ds[0].nbuffer + ds[0].narena
    else:
        lib = load_torsion()
        err = ctypes.create_string_buffer(1000)
        tm = ctypes.c_void_p(lib.mj_loadXML(path.encode(), None, err, 1000))
        r0 = rss()
        ds = [ctypes.c_void_p(lib.mj_makeData(tm)) for _ in range(copies)]
        r1 = rss()
        for d in ds:
            for _ in range(nstep):
                lib.mj_step(tm, d)
        alloc = lib.tn_dataBytes(ds[0])
    r2 = rss()
    print(json.dumps({"alloc": int(alloc), "make": (r1 - r0) / copies,
                      "step": (r2 - r0) / copies}))
    return 0


def memory_rows(models):
    """Bytes per mjData of each model in both engines (rss_child in a fresh process each,
    so that memory freed by one measurement cannot hide the next one's)."""
    rows = []
    for mid, path in models:
        m = mujoco.MjModel.from_xml_path(path)
        row = {"id": mid, "nv": int(m.nv)}
        for engine in ("mujoco", "torsion"):
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--rss", engine,
                                  path], stdout=subprocess.PIPE, text=True, check=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            row.update({engine + "_alloc": r["alloc"], engine + "_rss_make": r["make"],
                        engine + "_rss_step": r["step"]})
        rows.append(row)
        print("  memory %s: allocated %.1f / %.1f MB" % (
            mid, row["torsion_alloc"] / 2**20, row["mujoco_alloc"] / 2**20),
            file=sys.stderr, flush=True)
    return rows


# sizeof(mjData) of MuJoCo 3.14 (its Python bindings do not expose it; from its mjdata.h,
# x86-64): the allocation counted beside nbuffer and narena
MJ_DATA_STRUCT = 162080


def memory_models():
    """Models of the memory table: the defaults' humanoids, the crowds, a few Menagerie
    robots (when unpacked, see tests/differential/harness/robots.py)."""
    gym = [m for m in default_models() if m[0] in ("gym/humanoid", "dmc/humanoid")]
    robots = []
    menagerie = os.environ.get("TORSION_MENAGERIE",
                               os.path.join(ROOT, "build", "menagerie"))
    for name, scene in [("unitree_g1", "scene.xml"), ("franka_emika_panda", "scene.xml"),
                        ("boston_dynamics_spot", "scene.xml"), ("shadow_hand", "scene_right.xml")]:
        path = os.path.join(menagerie, name, scene)
        if os.path.exists(path):
            robots.append(("menagerie/" + name, path))
    return gym + crowd_models() + robots


def mb(x):
    return "%.2f" % (x / 2**20)


def pair_rows(rows, version):
    """{(id, sensors): row} of one MuJoCo version."""
    return {(r["id"], r["sensors"]): r for r in rows if r["mujoco"].startswith(version)}


def speed_cells(r):
    if r is None:
        return ["—"] * 3
    return ["%.0f" % (1e6 / r["mujoco_us"]), "%.0f" % (1e6 / r["torsion_us"]),
            "%.2f (%.2f-%.2f)" % (r["ratio"], r["q25"], r["q75"])]


def crowd_table(report):
    v3, v4 = pair_rows(report["speed"], "3."), pair_rows(report["speed"], "4.")
    lines = ["| N | nv | contacts (by state) | MuJoCo 3.14 steps/s | Torsion steps/s | "
             "Torsion/MuJoCo 3.14 | MuJoCo 4.0 steps/s | Torsion steps/s | Torsion/MuJoCo 4.0 |",
             "|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
    for case in report["cases"]:
        if not case["id"].startswith("crowd_"):
            continue
        key = (case["id"], True)
        lines.append("| %s | %d | %s | %s |" % (
            case["id"][len("crowd_"):], case["nv"], ", ".join(str(s["ncon"]) for s in
                                                             case["states"]),
            " | ".join(speed_cells(v3.get(key)) + speed_cells(v4.get(key)))))
    return "\n".join(lines)


def defaults_table(report):
    v3, v4 = pair_rows(report["speed"], "3."), pair_rows(report["speed"], "4.")
    lines = ["| model | sensors | MuJoCo 3.14 steps/s | Torsion steps/s | Torsion/MuJoCo 3.14 "
             "| MuJoCo 4.0 steps/s | Torsion steps/s | Torsion/MuJoCo 4.0 |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for case in report["cases"]:
        if case["id"].startswith("crowd_"):
            continue
        key = (case["id"], case["sensors"])
        lines.append("| %s | %s | %s |" % (
            case["id"], ("on (%d)" % case["nsensor"]) if case["sensors"] else "off",
            " | ".join(speed_cells(v3.get(key)) + speed_cells(v4.get(key)))))
    return "\n".join(lines)


def memory_table(report):
    lines = ["| model | nv | MuJoCo allocated MB | Torsion allocated MB | Torsion/MuJoCo | "
             "MuJoCo resident MB (made; 300 steps) | Torsion resident MB (made; 300 steps) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in report["memory"]:
        lines.append("| %s | %d | %s | %s | %.2f | %s; %s | %s; %s |" % (
            r["id"], r["nv"], mb(r["mujoco_alloc"]), mb(r["torsion_alloc"]),
            r["torsion_alloc"] / r["mujoco_alloc"], mb(r["mujoco_rss_make"]),
            mb(r["mujoco_rss_step"]), mb(r["torsion_rss_make"]), mb(r["torsion_rss_step"])))
    return "\n".join(lines)


def plot(report):
    """docs/img/crowd.png: steps/s against N, both engines, both MuJoCo versions."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4), dpi=120)
    for version, style in (("3.", "-"), ("4.", "--")):
        rows = pair_rows(report["speed"], version)
        ns = [n for n in CROWD_SIZES if ("crowd_%d" % n, True) in rows]
        if not ns:
            continue
        name = "3.14" if version == "3." else "4.0"
        r = [rows[("crowd_%d" % n, True)] for n in ns]
        ax.plot(ns, [1e6 / x["mujoco_us"] for x in r], style + "o", color="tab:blue",
                label="MuJoCo %s" % name)
        ax.plot(ns, [1e6 / x["torsion_us"] for x in r], style + "s", color="tab:orange",
                label="Torsion (run beside MuJoCo %s)" % name)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(CROWD_SIZES)
    ax.set_xticklabels([str(n) for n in CROWD_SIZES])
    ax.set_xlabel("Gymnasium humanoids in the scene (N)")
    ax.set_ylabel("steps/s (one thread)")
    ax.set_title("Crowd scaling, interleaved in one process")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(PLOT), exist_ok=True)
    fig.savefig(PLOT)


def update_docs(report):
    """Rewrite the bench_crowd sections of docs/benchmarks.md that the report has."""
    sys.path.insert(0, HERE)
    import benchlib
    m = report["machine"]
    where = "Measured %s at commit %s on %s (%s cores; medians of one run), " % (
        report["date"], report["commit"], m["cpu"], m["cores"])
    versions = sorted({r["mujoco"] for r in report["speed"]})
    speed_note = (where + "MuJoCo %s and Torsion with default options; states at steps %s of "
                  "MuJoCo 3.14's trajectory; ratio = median over rounds of MuJoCo's time / "
                  "Torsion's (quartiles in brackets)." % (" and ".join(versions),
                                                          ", ".join(map(str, report["at"]))))
    if any(c["id"].startswith("crowd_") for c in report["cases"]):
        plot(report)
        benchlib.replace_docs_section(*SECTIONS["crowd"], speed_note,
                                      crowd_table(report) + "\n\n![steps/s against N]"
                                      "(img/crowd.png)")
    if any(not c["id"].startswith("crowd_") for c in report["cases"]):
        benchlib.replace_docs_section(*SECTIONS["defaults"], speed_note,
                                      defaults_table(report))
    if report.get("memory"):
        benchlib.replace_docs_section(*SECTIONS["memory"], where + "MuJoCo %s; resident: "
                                      "growth of the process's RSS per mjData, 4 made, then "
                                      "each stepped 300 times." % mujoco.__version__,
                                      memory_table(report))


def main():
    global TORSION_SPEC
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", nargs="*", default=["crowd", "defaults", "memory"],
                   choices=["crowd", "defaults", "memory"])
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--chunk", type=int, default=20)
    p.add_argument("--seconds", type=float, default=8.0,
                   help="about this long per state and engine version")
    p.add_argument("--at", type=int, nargs="*", default=[300, 1500])
    p.add_argument("--only", nargs="*", default=[],
                   help="only models whose id contains one of these")
    p.add_argument("--no-mj4", action="store_true", help="MuJoCo 3.14 only")
    p.add_argument("--json", help="write the results here")
    p.add_argument("--update-docs", action="store_true")
    p.add_argument("--from-json", metavar="FILE", help="measure nothing: use a saved run")
    p.add_argument("--child", metavar="JOB", help=argparse.SUPPRESS)
    p.add_argument("--rss", nargs=2, metavar=("ENGINE", "MODEL"), help=argparse.SUPPRESS)
    opts = p.parse_args()
    if opts.child:
        return child_main(opts.child)
    if opts.rss:
        return rss_child(*opts.rss)
    sys.path.insert(0, HERE)
    import benchlib
    if opts.from_json:
        with open(opts.from_json) as f:
            report = json.load(f)
    else:
        if not os.path.exists(LIB):
            raise SystemExit("%s not built (ninja -C build)" % LIB)
        TORSION_SPEC = int(mujoco.mjtState.mjSTATE_INTEGRATION)
        lib = load_torsion()
        report = benchlib.report_head()
        report.update({"at": opts.at, "rounds": opts.rounds, "chunk": opts.chunk,
                       "cases": [], "speed": [], "memory": []})
        def chosen(models):
            return [m for m in models if not opts.only or any(o in m[0] for o in opts.only)]
        if "crowd" in opts.tables:
            report["cases"] += trajectory_cases(chosen(crowd_models()), opts.at, [True])
        if "defaults" in opts.tables:
            report["cases"] += trajectory_cases(chosen(default_models()), opts.at,
                                                [True, False])
        for case in report["cases"]:
            report["speed"].append(measure_case(lib, case, opts))
            r = report["speed"][-1]
            print("  [%s] %s sensors %s: ratio %.3f" % (mujoco.__version__, case["id"],
                                                       case["sensors"], r["ratio"]),
                  file=sys.stderr, flush=True)
        if report["cases"] and not opts.no_mj4:
            report["speed"] += run_mj4(report["cases"], opts)
        if "memory" in opts.tables:
            report["memory"] = memory_rows(chosen(memory_models()))
        for case in report["cases"]:
            for st in case["states"]:
                st.pop("fields", None)
                st.pop("state", None)
    for make in (crowd_table, defaults_table, memory_table):
        print(make(report) + "\n")
    if opts.json:
        os.makedirs(os.path.dirname(os.path.abspath(opts.json)), exist_ok=True)
        with open(opts.json, "w") as f:
            json.dump(report, f, indent=1)
    if opts.update_docs:
        update_docs(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
