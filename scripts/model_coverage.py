#!/usr/bin/env python3
"""scripts/model_coverage.py — how far Torsion gets on every real-robot model of
tests/differential/harness/robots.py (Menagerie, Gymnasium-Robotics, Meta-World, myo-sim,
dm_control's dog), as a report: docs/model-coverage.md.

Per model it measures what tests/differential/test_robots.py checks, with that file's
states, seeds and measures (its helpers are imported, not copied): whether each engine
loads the file, the sizes, the worst compiled-field error, qacc without and with
constraints, the contact sets, the one-step error along MuJoCo's trajectory; and the speed
ratio of bench/bench_robots.py from bench/results/robots.json when that file exists.
Where the tests stop at the first failure, this goes on and records the numbers.

Each model runs in a child process (two at a time by default, --jobs), so that a crash or a
hang costs one model and not the report; a model taking longer than --timeout seconds is
recorded as timed out.

  .venv/bin/python scripts/model_coverage.py [--models PATTERN ...] [--jobs 2]
      [--json build/model-coverage.json] [--out docs/model-coverage.md]

The binary is $TORSION_SIM (default build/engine/tools/torsion-sim); Menagerie comes from
$TORSION_MENAGERIE (or --menagerie DIR), see harness/robots.py.
"""
import argparse
import collections
import copy
import datetime
import functools
import json
import os
import re
import statistics
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "tests", "differential"))

import benchlib  # noqa: E402 (the paths above first)
import mujoco  # noqa: E402
import numpy as np  # noqa: E402
from harness import compare, contacts, oracle, robots, torsion  # noqa: E402
from harness import constraint_cases as cc  # noqa: E402

OUT = os.path.join(ROOT, "docs", "model-coverage.md")
SPEED_JSON = os.path.join(ROOT, "bench", "results", "robots.json")

# the tolerances of test_robots.py (docs/testing.md)
TOL = {"fields": 1e-10, "qacc_off": 1e-8, "qacc_on": 1e-5, "step": 1e-6}

# the corpora in report order: (id prefix, title)
CORPORA = [("men", "MuJoCo Menagerie"), ("gr", "Gymnasium-Robotics"), ("mw", "Meta-World"),
           ("myo", "MyoSuite (myo-sim)"), ("dmc", "dm_control")]


# ---------------------------------------------------------------------------------------
# one model (in a child process)


def _first_line(text, limit=200):
    """The first non-empty line of a text, cut to limit characters."""
    for line in str(text).splitlines():
        if line.strip():
            return line.strip()[:limit]
    return ""


def _failure(e):
    """One line saying why a stage failed: torsion-sim's own message when it failed."""
    text = str(e)
    if isinstance(e, torsion.TorsionError) and "stderr:" in text:
        return "torsion-sim: " + _first_line(text.split("stderr:", 1)[1])
    return "%s: %s" % (type(e).__name__, _first_line(text))


def _stage(row, name, measure):
    """row[name] = measure(), or None and the reason in row["errors"][name]."""
    try:
        row[name] = measure()
    except Exception as e:  # noqa: BLE001 (one failing stage never stops the others)
        row[name] = None
        row["errors"][name] = _failure(e)


def _worst(ours, theirs):
    """compare's error measure, largest over rows; inf when the shapes differ."""
    if np.shape(ours) != np.shape(theirs):
        return float("inf")
    err = compare.row_errors(ours, theirs)
    return float(np.max(err)) if err.size else 0.0


def _fields(tr, model, m):
    """{"err", "field"}: the worst compiled-field error of test_robot_model and where."""
    ours = torsion.dump(model.path, tr.FIELDS)
    errs = {f: _worst(ours[f], oracle.model_field(m, f)) for f in tr.FIELDS}
    field = max(errs, key=errs.get)
    return {"err": errs[field], "field": field}


def _qacc_off(tr, model, m):
    """The qacc error of test_robot_qacc_smooth (constraints off on both sides)."""
    states, ctrl = oracle.random_states(m, tr.NSMOOTH, oracle.rng(model.id, "robot-qacc"))
    theirs = oracle.forward_qacc(m, states, ctrl)
    ours = torsion.forward(model.path, states, ctrl, disable=oracle.SMOOTH_ONLY)
    return _worst(ours, theirs)


def _qacc_on(tr, robot, model, mc):
    """The qacc error of test_robot_qacc (constraints on, at the contact states)."""
    states = robot.contact_states()
    theirs = cc.forward_fields(mc, states, ["qacc"])["qacc"]
    ours = torsion.forward(model.path, states, spec=cc.SPEC_NAME)
    return _worst(ours, theirs)


def _contacts(tr, robot, model, mc):
    """{"differ", "states", "first"}: the states of test_robot_contacts whose contact sets
    differ, of how many, and the first problem."""
    states = robot.contact_states()
    theirs = [cc.forward_contacts(mc, s) for s in states]
    ours = torsion.contacts(model.path, states, spec=cc.SPEC_NAME)
    if len(ours) != len(theirs):
        raise RuntimeError("torsion returned %d contact sets for %d states" % (
            len(ours), len(theirs)))
    problems = [contacts.compare_sets(mc, o, t) for o, t in zip(ours, theirs)]
    bad = [p for p in problems if p]
    return {"differ": len(bad), "states": len(states),
            "first": bad[0][0][:200] if bad else None}


def _step(tr, model, mc):
    """{"err", "block"}: the one-step error of test_robot_step and the state block where it
    is largest."""
    inputs, outputs = cc.integration_trajectory(mc, oracle.rng(model.id, "robot-step"),
                                                tr.NSTEP)
    ours = torsion.rollout(model.path, inputs, None, 1, threads=1, spec=cc.SPEC_NAME)
    errs = {name: _worst(ours[:, 0, sl], outputs[:, sl])
            for name, sl in oracle.spec_blocks(mc, cc.SPEC)}
    block = max(errs, key=errs.get)
    return {"err": errs[block], "block": block}


def _passes(row):
    """Whether every check of test_robots.py passes on the row."""
    if not row["mujoco_loads"]:
        return row.get("torsion_rejects_too", False)
    if not row["torsion_loads"] or row["errors"] or row["size_diffs"]:
        return False
    return (row["fields"]["err"] <= TOL["fields"] and row["qacc_off"] <= TOL["qacc_off"]
            and row["qacc_on"] <= TOL["qacc_on"] and row["contacts"]["differ"] == 0
            and row["step"]["err"] <= TOL["step"])


# MuJoCo's compiled model of the current file, which every oracle.load in a worker copies
_PARSED = {}


def _load_parsed_once(path, disable=oracle.SMOOTH_ONLY, integrator=None, options=()):
    """oracle.load without compiling the file again for other flags: a copy of the one
    compiled model with the flags, integrator and options set as oracle.load sets them
    (compiling a mesh-heavy model takes a second or more, and the checks need it twice)."""
    if path not in _PARSED:
        _PARSED.clear()
        _PARSED[path] = mujoco.MjModel.from_xml_path(path)
    m = copy.copy(_PARSED[path])
    m.opt.disableflags |= oracle.disable_bits(disable)
    if integrator is not None:
        m.opt.integrator = oracle.INTEGRATORS[integrator]
    oracle.apply_options(m, options)
    return m


def _forget(tr):
    """Drop what the checks cached for the previous model (a worker serves many)."""
    oracle.load.cache_clear()


def cover(mid):
    """Every measure of one model (by id), as a JSON-able row."""
    import test_robots as tr  # the checks' constants and states
    _forget(tr)
    model = {mm.id: mm for mm in robots.all_models()}[mid]
    t0 = time.monotonic()
    row = {"id": mid, "errors": {}}
    robot = tr.Robot(model)
    m, why = robot.mujoco(oracle.SMOOTH_ONLY)
    row["mujoco_loads"] = m is not None
    proc = torsion.run(["info", model.path], check=False)
    row["torsion_loads"] = proc.returncode == 0
    if not row["torsion_loads"]:
        row["torsion_error"] = (_first_line(proc.stderr) or
                                "exit status %d" % proc.returncode)
    if m is None:
        row["mujoco_error"] = why
        row["torsion_rejects_too"] = not row["torsion_loads"] and ".xml" in proc.stderr
    elif row["torsion_loads"]:
        info = json.loads(proc.stdout)
        row["size_diffs"] = ["%s %s/%s" % (k, info.get(k), getattr(m, k)) for k in tr.SIZES
                             if info.get(k) != getattr(m, k)]
        _stage(row, "fields", lambda: _fields(tr, model, m))
        _stage(row, "qacc_off", lambda: _qacc_off(tr, model, m))
        mc = robot.mujoco(oracle.CONTACT_ORACLE)[0]
        _stage(row, "qacc_on", lambda: _qacc_on(tr, robot, model, mc))
        _stage(row, "contacts", lambda: _contacts(tr, robot, model, mc))
        _stage(row, "step", lambda: _step(tr, model, mc))
    row["match"] = _passes(row)
    row["seconds"] = time.monotonic() - t0
    return row


# ---------------------------------------------------------------------------------------
# the report


def _sci(x, tol):
    """An error for the table: bold when it exceeds the tolerance."""
    if x is None:
        return "—"
    text = "inf" if x == float("inf") else "%.1e" % x
    return text if x <= tol else "**%s**" % text


def _short_paths(text):
    """A message with the machine's directories replaced by short names."""
    try:
        text = text.replace(robots.menagerie_dir().rstrip("/") + "/", "")
    except RuntimeError:
        pass
    try:
        site = os.path.dirname(robots._package_dir("dm_control", ()).rstrip("/"))
        text = text.replace(site + "/", "")
    except RuntimeError:
        pass
    return text.replace(ROOT + "/", "").replace("|", "/")


def _notes(row):
    """The last cell: load errors, failed stages, what differs first."""
    notes = []
    if row.get("failure"):
        notes.append(row["failure"])
    if not row.get("mujoco_loads", True):
        notes.append("MuJoCo: %s; Torsion %s" % (
            row.get("mujoco_error"), "rejects it too" if row.get("torsion_rejects_too")
            else "loads it" if row.get("torsion_loads") else "fails without naming the file"))
    elif row.get("torsion_error"):
        notes.append(("" if row["torsion_error"].startswith("torsion-sim") else "Torsion: ")
                     + row["torsion_error"])
    for stage, why in row.get("errors", {}).items():
        notes.append("%s: %s" % (stage, why))
    if row.get("size_diffs"):
        notes.append("sizes (Torsion/MuJoCo): " + ", ".join(row["size_diffs"]))
    fields, step = row.get("fields"), row.get("step")
    if fields and fields["err"] > TOL["fields"]:
        notes.append("worst field " + fields["field"])
    if step and step["err"] > TOL["step"]:
        notes.append("step worst in " + step["block"])
    if row.get("contacts") and row["contacts"]["first"]:
        notes.append("contacts: " + row["contacts"]["first"].split(" (mujoco dist")[0][:160])
    return _short_paths("; ".join(notes))[:400]


def _yes(flag):
    return "yes" if flag else "**no**"


def table_row(row, speed):
    """One model's line of the table."""
    name = row["id"].split("/", 1)[1]
    if row.get("failure"):
        return "| %s | — | — | — | — | — | — | — | — | — | **no** | %s |" % (
            name, _notes(row))
    loaded = row["mujoco_loads"] and row["torsion_loads"]
    con = row.get("contacts")
    # a file MuJoCo rejects, Torsion must reject too
    torsion_cell = (_yes(row["torsion_loads"]) if row["mujoco_loads"] else
                    "**yes**" if row["torsion_loads"] else "no")
    cells = [name, "yes" if row["mujoco_loads"] else "no", torsion_cell,
             ("yes" if not row["size_diffs"] else "**no**") if loaded else "—",
             _sci((row.get("fields") or {}).get("err"), TOL["fields"]),
             _sci(row.get("qacc_off"), TOL["qacc_off"]),
             _sci(row.get("qacc_on"), TOL["qacc_on"]),
             "—" if con is None else "yes" if not con["differ"] else "**no** (%d/%d)" % (
                 con["differ"], con["states"]),
             _sci((row.get("step") or {}).get("err"), TOL["step"]),
             "%.2fx" % speed if speed is not None else "—",
             "yes" if row["match"] else "**no**", _notes(row)]
    return "| " + " | ".join(cells) + " |"


def load_speeds(path):
    """({model id: speed ratio}, the run's head) from bench_robots.py's JSON, if present."""
    if not os.path.exists(path):
        return {}, None
    with open(path) as f:
        report = json.load(f)
    ratios = {r["model"]: r["ratio"] for r in report.get("results", [])
              if r.get("ratio") is not None}
    return ratios, report


def summary(rows, speeds):
    """The report's last line."""
    n = len(rows)
    match = sum(1 for r in rows if r.get("match"))
    ratios = [speeds[r["id"]] for r in rows if r["id"] in speeds]
    text = "models: %d | MuJoCo loads %d | Torsion loads %d | match %d (%.0f%%)" % (
        n, sum(1 for r in rows if r.get("mujoco_loads")),
        sum(1 for r in rows if r.get("torsion_loads")), match, 100.0 * match / max(n, 1))
    if ratios:
        text += " | speed median %.2fx, min %.2fx" % (statistics.median(ratios), min(ratios))
    else:
        text += " | speed: no bench/results/robots.json"
    return text


INTRO = """# Real-robot model coverage

Generated by `scripts/model_coverage.py` (do not edit by hand) on {date} at commit
{commit}, MuJoCo {mujoco}; {seconds:.0f} s. It runs the checks of
`tests/differential/test_robots.py` on every model of `harness/robots.py` (the same states,
seeds and error measure, `harness/compare.py`) and, unlike the tests, goes on after the
first failure and records the numbers. Columns:

- **MuJoCo**, **Torsion**: the file loads. Some files are fragments MuJoCo rejects; Torsion
  must reject them too (with a message naming the file) for the row to match.
- **sizes**: nq, nv, nu, nbody, ngeom, ... (test_robots' SIZES) are equal.
- **fields**: worst error of body_mass, body_inertia, body_ipos, geom_size, qpos0
  (tolerance 1e-10).
- **qacc off**: qacc after mj_forward at {nsmooth} random states, constraints disabled on
  both sides (1e-8).
- **qacc on**: qacc with constraints at the {ncontact} contact states (trajectory,
  perturbed and random states lowered onto the floor; 1e-5).
- **contacts**: the contact sets at those states agree (geom pairs, dims; dist 1e-9, pos
  and frame 1e-6); otherwise how many states differ.
- **step**: one-step error along a {nstep}-step MuJoCo trajectory, integration state in,
  the model's own integrator (1e-6).
- **speed**: MuJoCo time / Torsion time per single-thread step, interleaved in one process
  (`bench/bench_robots.py`, {speed_from}); above 1 Torsion is faster.
- **match**: every check passes. Bold marks what fails.

Errors are compare's measure: the largest difference relative to 1 + the largest MuJoCo
value of the vector. With constraints on, MuJoCo runs with islands and native CCD
disabled (docs/fidelity.md).

Regenerate (2-3 minutes on the 2-core machine; `--models PATTERN` restricts the run;
`--from-json` rewrites the report from rows saved with `--json`, e.g. after a new
`bench_robots.py` run):

```
TORSION_MENAGERIE=/path/to/menagerie .venv/bin/python scripts/model_coverage.py
```

`TORSION_MENAGERIE` is either the shared corpus (one ROBOT.tar.xz per robot and
manifest.json, unpacked into build/menagerie-cache) or a full Menagerie checkout: a
directory of ROBOT/ folders, whose scene*.xml files are the entry points.
"""


def _load_reason(error):
    """A load error without its file and line, to group models by what stops them."""
    return re.sub(r"^torsion-sim: \S*?:\d+: ", "", error)


def failure_overview(rows):
    """Lines saying what keeps the models from matching: Torsion's load errors grouped by
    message, then how many loaded models fail each check."""
    reasons = collections.Counter(_load_reason(r["torsion_error"]) for r in rows
                                  if r.get("mujoco_loads") and r.get("torsion_error"))
    lines = ["Files MuJoCo loads and Torsion does not, by Torsion's message:", ""]
    lines += ["- %d: %s" % (n, why) for why, n in reasons.most_common()] or ["- none"]
    loaded = [r for r in rows if r.get("mujoco_loads") and r.get("torsion_loads")]
    checks = [("sizes", lambda r: bool(r["size_diffs"])),
              ("fields", lambda r: r["fields"] is None or r["fields"]["err"] > TOL["fields"]),
              ("qacc off", lambda r: r["qacc_off"] is None or r["qacc_off"] > TOL["qacc_off"]),
              ("qacc on", lambda r: r["qacc_on"] is None or r["qacc_on"] > TOL["qacc_on"]),
              ("contacts", lambda r: r["contacts"] is None or r["contacts"]["differ"] > 0),
              ("step", lambda r: r["step"] is None or r["step"]["err"] > TOL["step"])]
    counts = ", ".join("%s %d" % (name, sum(1 for r in loaded if fails(r)))
                       for name, fails in checks)
    lines += ["", "Of the %d models both engines load, failing each check: %s." % (
        len(loaded), counts)]
    return lines


def measured():
    """When and on what the rows are measured: {"date", "commit"}."""
    return {"date": datetime.date.today().isoformat(), "commit": benchlib.commit()}


def write_report(path, rows, speeds, speed_head, seconds, when=None):
    """docs/model-coverage.md: intro, a table per corpus, what fails, the summary line
    (`when`: the rows' measured(), default now)."""
    when = when or measured()
    import test_robots as tr
    speed_from = ("measured %s at commit %s" % (speed_head["date"], speed_head["commit"])
                  if speed_head else "not measured: no bench/results/robots.json")
    lines = [INTRO.format(date=when["date"], commit=when["commit"],
                          mujoco=mujoco.__version__, seconds=seconds, nsmooth=tr.NSMOOTH,
                          ncontact=tr.NTRAJ_STATES + tr.NPERTURB + tr.NRANDOM,
                          nstep=tr.NSTEP, speed_from=speed_from)]
    for prefix, title in CORPORA:
        mine = [r for r in rows if r["id"].split("/", 1)[0] == prefix]
        if not mine:
            continue
        match = sum(1 for r in mine if r.get("match"))
        lines += ["## %s (%d models, %d match)" % (title, len(mine), match), "",
                  "| model | MuJoCo | Torsion | sizes | fields | qacc off | qacc on | "
                  "contacts | step | speed | match | notes |",
                  "|---|---|---|---|---:|---:|---:|---|---:|---:|---|---|"]
        lines += [table_row(r, speeds.get(r["id"])) for r in mine]
        lines.append("")
    lines += ["## What fails", ""] + failure_overview(rows) + [""]
    lines += ["## Summary", "", summary(rows, speeds), ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


# ---------------------------------------------------------------------------------------
# command line


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", nargs="*", default=[],
                   help="only models whose id contains one of these (default: all)")
    p.add_argument("--jobs", type=int, default=2, help="models measured at once")
    p.add_argument("--timeout", type=float, default=300, help="seconds per model")
    p.add_argument("--menagerie", help="Menagerie directory (sets TORSION_MENAGERIE)")
    p.add_argument("--speed-json", default=SPEED_JSON,
                   help="bench_robots.py's results (default bench/results/robots.json)")
    p.add_argument("--json", help="also write the rows here")
    p.add_argument("--out", default=OUT, help="the report (default docs/model-coverage.md)")
    p.add_argument("--from-json", metavar="FILE",
                   help="measure nothing: write the report from rows saved with --json "
                        "(e.g. after a new bench_robots.py run)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    opts = p.parse_args()
    if opts.menagerie:
        os.environ[robots.MENAGERIE_ENV] = os.path.abspath(opts.menagerie)
    if opts.worker:
        oracle.load = functools.lru_cache(maxsize=None)(_load_parsed_once)
        benchlib.serve_models(cover)
        return 0

    speeds, head = load_speeds(opts.speed_json)
    if opts.from_json:
        with open(opts.from_json) as f:
            saved = json.load(f)
        write_report(opts.out, saved["rows"], speeds, head, saved["seconds"],
                     saved.get("measured"))
        print(summary(saved["rows"], speeds))
        return 0

    models = benchlib.select_models(robots.all_models(), opts.models)
    order = {m.id: k for k, m in enumerate(models)}
    rows, t0 = [], time.monotonic()

    def done(row):
        rows.append(row)
        print("[%d/%d] %s: %s" % (len(rows), len(models), row["id"],
                                  "match" if row.get("match") else
                                  _notes(row)[:150] or "differs"), file=sys.stderr, flush=True)

    benchlib.run_children([m.id for m in models],
                          [sys.executable, os.path.abspath(__file__), "--worker"],
                          opts.jobs, opts.timeout, done)
    rows.sort(key=lambda r: order[r["id"]])
    seconds = time.monotonic() - t0
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"rows": rows, "seconds": seconds, "measured": measured()}, f,
                      indent=1)
    write_report(opts.out, rows, speeds, head, seconds, measured())
    print(summary(rows, speeds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
