"""bench/benchlib.py — what the Python benchmarks (bench_engine.py, bench_contacts.py,
bench_fd.py, bench_interleaved.py, bench_robots.py, bench_vec_envs.py) and
scripts/model_coverage.py share: the initial state and MuJoCo's timed stepping,
measurements alternated between the engines and their medians and ratio, both engines
stepped in one process in interleaved chunks, models run one at a time in child processes
(so that a crash or a hang costs one model), table cells and notes, the machine and commit
a run was measured on, the command line, and the report's JSON and its section of
docs/benchmarks.md.

Importing it puts tests/differential on sys.path, so the benchmarks can import the test
harness (corpus, oracle, torsion) after it.
"""
import argparse
import ctypes
import datetime
import json
import os
import platform
import selectors
import signal
import statistics
import subprocess
import sys
import time

import mjcf_flags
import mujoco
import mujoco_clock
import step_loop
import numpy as np
from mujoco import rollout as mj_rollout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "differential"))

from harness import corpus, oracle  # noqa: E402

CHUNK = 50000          # MuJoCo steps per rollout call (bounds the output array)
DOCS = os.path.join(HERE, "..", "docs", "benchmarks.md")


# ---------------------------------------------------------------------------------------
# models and MuJoCo's side


def select_models(models, patterns):
    """The models whose id contains one of the patterns (all when empty); exits when none
    does."""
    chosen = corpus.select(models, patterns)
    if not chosen:
        raise SystemExit("no model matches %s" % patterns)
    return chosen


def find_models(ids, known, patterns):
    """The benchmark models `ids` (looked up among `known`) whose id contains one of the
    patterns (all when empty); exits when one of them is missing or none matches."""
    by_id = {m.id: m for m in known}
    missing = [mid for mid in ids if mid not in by_id]
    if missing:
        raise SystemExit("models not found: %s" % ", ".join(missing))
    return select_models([by_id[mid] for mid in ids], patterns)


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
    mujoco_clock.timers_off()
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


def mujoco_speed(row, m, state, ctrl, nstep):
    """MuJoCo's steps per second (mujoco_rate), noting in row["mujoco_diverged"] whether it
    diverged."""
    rate, diverged = mujoco_rate(m, state, ctrl, nstep)
    row["mujoco_diverged"] |= diverged
    return rate


# ---------------------------------------------------------------------------------------
# alternated measurements and their summary


def run_models(models, bench_one, progress):
    """bench_one(model) for each model, printing progress(row) as each row is done; the
    rows."""
    rows = []
    for model in models:
        row = bench_one(model)
        rows.append(row)
        print(progress(row), flush=True)
    return rows


def alternate(row, repeats, torsion_once, mujoco_once):
    """Measure Torsion, then MuJoCo right after it, `repeats` times, appending the speeds the
    two functions return to row["torsion"] and row["mujoco"]. An exception ends the run (the
    caller records it); the speeds measured so far stay."""
    for _ in range(repeats):
        row["torsion"].append(torsion_once())
        row["mujoco"].append(mujoco_once())
    return row


def error_line(e, limit=300):
    """The last line of an exception's message, cut to `limit` characters, for a row."""
    return str(e).strip().splitlines()[-1][:limit]


def summarize(row):
    """Medians of each engine's speeds, and the ratio: the median over repeats of Torsion's
    speed over MuJoCo's measured right after it (robust to load that drifts during a run)."""
    row["torsion_median"] = statistics.median(row["torsion"]) if row["torsion"] else None
    row["mujoco_median"] = statistics.median(row["mujoco"]) if row["mujoco"] else None
    pairs = [t / m for t, m in zip(row["torsion"], row["mujoco"]) if m > 0]
    row["ratio"] = statistics.median(pairs) if pairs else None
    return row


def speed_verdict(row, targets, defect):
    """'ok', 'below target', 'DEFECT' or 'error' for a speed row: its ratio must reach 1.0
    on the target models and `defect` everywhere."""
    if row["ratio"] is None:
        return "error"
    if row["ratio"] < defect:
        return "DEFECT (< %.1f)" % defect
    if row["model"] in targets and row["ratio"] < 1.0:
        return "below target 1.0"
    return "ok"


def note(verdict, row):
    """A table's last cell: the verdict, the row's error and whether MuJoCo diverged."""
    if row.get("error"):
        verdict += ": " + row["error"].replace("|", "/")[:120]
    if row.get("mujoco_diverged"):
        verdict += " (MuJoCo diverged and stopped stepping)"
    return verdict


def num(x, fmt="%.0f"):
    """A number for the table, or a dash."""
    return fmt % x if x is not None else "—"


# ---------------------------------------------------------------------------------------
# both engines in one process, stepped in interleaved chunks


TORSION_LIB = os.path.join(HERE, "..", "build", "engine", "libtorsion.so")


def load_torsion(path=TORSION_LIB):
    """Torsion's shared library (ctypes handle) with the signatures the benchmarks call."""
    lib = ctypes.CDLL(os.path.abspath(path))
    lib.mj_loadXML.restype = ctypes.c_void_p
    lib.tn_loadXMLString.restype = ctypes.c_void_p
    lib.tn_loadXMLString.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                     ctypes.c_int]
    lib.mj_makeData.restype = ctypes.c_void_p
    lib.mj_setState.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                ctypes.POINTER(ctypes.c_double), ctypes.c_uint]
    lib.mj_step.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.mj_deleteData.argtypes = [ctypes.c_void_p]
    lib.mj_deleteModel.argtypes = [ctypes.c_void_p]
    return lib


def torsion_model(lib, path, flags=None):
    """(model, data) ctypes handles of Torsion for path, with the <option><flag> attributes
    `flags` set when given (mjcf_flags.with_flags); raises RuntimeError with Torsion's load
    error."""
    err = ctypes.create_string_buffer(1000)
    if flags:
        tm = ctypes.c_void_p(lib.tn_loadXMLString(mjcf_flags.with_flags(path, flags).encode(),
                                                  os.path.dirname(path).encode(), err, 1000))
    else:
        tm = ctypes.c_void_p(lib.mj_loadXML(path.encode(), None, err, 1000))
    if not tm.value:
        raise RuntimeError("torsion: %s" % err.value.decode(errors="replace"))
    td = ctypes.c_void_p(lib.mj_makeData(tm))
    return tm, td


def trajectory_states(m, d, at, spec):
    """MuJoCo's trajectory from the initial state (keyframe 0 and its controls, else the
    default state): [(step, state of `spec`, ncon)] at each step of `at`."""
    mujoco.mj_resetData(m, d)
    if m.nkey:
        mujoco.mj_resetDataKeyframe(m, d, 0)
    states, step = [], 0
    for target in sorted(at):
        while step < target:
            mujoco.mj_step(m, d)
            step += 1
        s = np.zeros(mujoco.mj_stateSize(m, spec))
        mujoco.mj_getState(m, d, s, spec)
        states.append((target, s, d.ncon))
    return states


def interleave(lib, tm, td, m, d, state, spec, rounds, chunk):
    """Time `chunk` steps of each engine from `state`, alternately, `rounds` times (the
    engine going first alternating by round): (MuJoCo us/step, Torsion us/step, ratio
    MuJoCo time / Torsion time), one entry per round. Neither engine runs stage timers."""
    mujoco_clock.timers_off()
    loop = step_loop.StepLoop()
    ptr = state.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    t_mj, t_tn, ratios = [], [], []
    for r in range(rounds):
        times = {}
        for engine in (("mj", "tn") if r % 2 == 0 else ("tn", "mj")):
            if engine == "mj":
                mujoco.mj_setState(m, d, state, spec)
                t0 = time.perf_counter()
                loop.mujoco(m, d, chunk)
            else:
                lib.mj_setState(tm, td, ptr, int(spec))
                t0 = time.perf_counter()
                loop.torsion(lib, tm, td, chunk)
            times[engine] = (time.perf_counter() - t0) / chunk * 1e6
        t_mj.append(times["mj"])
        t_tn.append(times["tn"])
        ratios.append(times["mj"] / times["tn"])
    return t_mj, t_tn, ratios


# ---------------------------------------------------------------------------------------
# one model at a time in child processes

RESULT_TAG = "@@result "   # prefix of a child's answer line on its stdout


def serve_models(work):
    """A child's loop: read model ids from stdin, one per line, and answer each with one
    line RESULT_TAG + JSON of work(id) on stdout."""
    for line in sys.stdin:
        mid = line.strip()
        if not mid:
            continue
        try:
            row = work(mid)
        except Exception as e:  # noqa: BLE001 (a row records any failure)
            row = {"id": mid, "failure": "%s: %s" % (type(e).__name__, error_line(e))}
        sys.stdout.write(RESULT_TAG + json.dumps(row) + "\n")
        sys.stdout.flush()


class _Child:
    """One child process running serve_models, the model it is working on and what it
    wrote that is not yet a whole line."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     start_new_session=True)
        self.mid, self.started, self.pending = None, None, b""

    def give(self, mid):
        self.mid, self.started = mid, time.monotonic()
        self.proc.stdin.write((mid + "\n").encode())
        self.proc.stdin.flush()

    def read_answer(self):
        """(alive, answer row or None) after reading what the child wrote."""
        chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
        self.pending += chunk
        answer = None
        while b"\n" in self.pending:
            line, self.pending = self.pending.split(b"\n", 1)
            text = line.decode(errors="replace")
            if text.startswith(RESULT_TAG):
                answer = json.loads(text[len(RESULT_TAG):])
        return bool(chunk), answer

    def stop(self):
        """Kill the child and what it started (its own process group)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()


def run_children(ids, cmd, workers, timeout, done):
    """Run each model id through child processes started with `cmd` (which call
    serve_models), `workers` at a time; done(row) for each answer. A child that dies
    answers {"id", "failure": "crashed ..."} for its model, one that works longer than
    `timeout` seconds on a model is killed and answers {"id", "failure": "timed out ..."};
    either is replaced by a new child."""
    todo = list(reversed(ids))
    sel = selectors.DefaultSelector()
    children = []

    def start():
        c = _Child(cmd)
        sel.register(c.proc.stdout, selectors.EVENT_READ, c)
        children.append(c)
        return c

    def retire(c):
        sel.unregister(c.proc.stdout)
        c.stop()
        children.remove(c)

    def next_or_retire(c):
        if todo:
            c.give(todo.pop())
        else:
            retire(c)

    for _ in range(min(workers, len(todo))):
        start().give(todo.pop())
    while children:
        for key, _ in sel.select(timeout=1.0):
            c = key.data
            alive, answer = c.read_answer()
            if answer is not None:
                done(answer)
                c.mid = None
                next_or_retire(c)
            elif not alive:
                status = c.proc.wait()
                if c.mid is not None:
                    done({"id": c.mid, "failure": "crashed (exit status %s)" % status})
                retire(c)
                if todo:
                    start().give(todo.pop())
        # a model that takes too long: kill its child
        for c in list(children):
            if c.mid is not None and time.monotonic() - c.started > timeout:
                done({"id": c.mid, "failure": "timed out after %d s" % timeout})
                retire(c)
                if todo:
                    start().give(todo.pop())
    sel.close()


# ---------------------------------------------------------------------------------------
# where a run was measured


def commit():
    """The repository's commit (with '+' when the work tree has changes), if known."""
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


def report_head():
    """The first fields of a report: date, machine and commit."""
    return {"date": datetime.date.today().isoformat(), "machine": machine(),
            "commit": commit()}


# ---------------------------------------------------------------------------------------
# command line, report and docs


def arg_parser(doc):
    """The benchmarks' parser with the options they all start with (--models, --repeats);
    add_report_args adds the ones they end with."""
    p = argparse.ArgumentParser(description=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--models", nargs="*", default=[],
                   help="only models whose id contains one of these (default: all)")
    p.add_argument("--repeats", type=int, default=5)
    return p


def add_report_args(p, docs_help):
    """--json, --update-docs (help: docs_help) and --from-json."""
    p.add_argument("--json", help="write the results here")
    p.add_argument("--update-docs", action="store_true", help=docs_help)
    p.add_argument("--from-json", metavar="FILE",
                   help="measure nothing: print (and with --update-docs write) a saved run")


def speed_args(doc, docs_help):
    """The parsed command line of a stepping-speed benchmark: --models, --repeats, --seconds
    and the report options."""
    p = arg_parser(doc)
    p.add_argument("--seconds", type=float, default=1.0,
                   help="approximate duration of one measurement")
    add_report_args(p, docs_help)
    return p.parse_args()


def replay(path, summarize_row, table, update_docs=None):
    """--from-json: summarize a saved run's rows again and print its table; then rewrite its
    docs section with update_docs when given (--update-docs)."""
    with open(path) as f:
        report = json.load(f)
    report["results"] = [summarize_row(r) for r in report["results"]]
    print(table(report["results"]))
    if update_docs:
        update_docs(report)
    return 0


def finish(report, table, update_docs, opts):
    """Print the run's table, then write the report to --json and the docs section with
    --update-docs."""
    print()
    print(table(report["results"]))
    if opts.json:
        os.makedirs(os.path.dirname(os.path.abspath(opts.json)), exist_ok=True)
        with open(opts.json, "w") as f:
            json.dump(report, f, indent=1)
    if opts.update_docs:
        update_docs(report)
    return 0


def replace_docs_section(begin, end, summary, table_text):
    """Replace the text between the markers begin and end of docs/benchmarks.md with the
    summary line and the table."""
    with open(DOCS) as f:
        text = f.read()
    if begin not in text or end not in text:
        raise SystemExit("%s has no %s ... %s markers" % (DOCS, begin, end))
    body = "\n".join([begin, summary, "", table_text, end])
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    with open(DOCS, "w") as f:
        f.write(head + body + tail)
