"""MuJoCo's callbacks, user memory, error handling and logging from C programs: each
program under tests/capi/programs/cb_*.c is compiled against MuJoCo 3.14's library and
against Torsion's, run with the same arguments, and compared:
- cb_pipeline.c: mjcb_control (PD controller), mjcb_passive, mjcb_act_dyn/gain/bias,
  mjcb_sensor and mjcb_contactfilter, one at a time and together, with mj_step, mj_step1/2
  and RK4, with actuation disabled, with an explicit pair the filter must not see: the
  state, forces, sensors, contacts and callback counts (numbers to 1e-9);
- error programs: the exit status, stdout and stderr are the same (mju_error without a
  handler ends the process with status 1 after "ERROR: <msg>"; a handler that returns
  makes mju_error return; a handler that longjmps leaves it);
- logging: the default handler's console text and the MUJOCO_LOG.TXT lines (time stamps
  masked), mju_setLogHandler, topics, mju_message, mju_writeLog;
- user memory: mju_malloc/mju_free alignment, mju_user_malloc/free called for mjModel and
  mjData and every block freed (the counts may differ from MuJoCo's)."""
import os
import re

import pytest

from capi_build import MODELS, compare_outputs, compile_program, run_program

HOOKS = os.path.join(MODELS, "callbacks", "hooks.xml")

HOOKS_PAIR = os.path.join(MODELS, "callbacks", "hooks_pair.xml")

# (arguments of cb_pipeline: NSTEP HOOKS [split] [rk4] [noact]; on hooks.xml)
PIPELINE = [
    ["300", "none"],
    ["300", "c"],
    ["300", "p"],
    ["300", "a"],
    ["300", "s"],
    ["300", "f"],
    ["300", "cpasf"],
    ["300", "cpasf", "split"],
    ["100", "cpasf", "rk4"],
    ["200", "none", "split"],
    ["200", "cpas", "noact"],
    ["200", "cpas", "noact", "split"],
]


def run_pair(source, tmp_path, args=(), cwd=None):
    """Compile and run one program on both libraries (no exit status expected); return
    {engine: (returncode, stdout, stderr)}."""
    out = {}
    for engine in ("mujoco", "torsion"):
        exe = compile_program(source, engine, str(tmp_path))
        workdir = os.path.join(str(cwd or tmp_path), engine)
        os.makedirs(workdir, exist_ok=True)
        out[engine] = run_program(exe, args, cwd=workdir, expect_rc=None)
    return out


@pytest.mark.parametrize("model,args", [(HOOKS, a) for a in PIPELINE] +
                         [(HOOKS_PAIR, ["300", "f"]), (HOOKS_PAIR, ["300", "cpasf"])],
                         ids=["-".join(a) for a in PIPELINE] + ["pair-f", "pair-cpasf"])
def test_pipeline_callbacks(model, args, tmp_path):
    """Same trajectories, forces, sensors, contacts and callback counts (the explicit pair
    of hooks_pair.xml collides whatever the contact filter says)."""
    out = run_pair("cb_pipeline.c", tmp_path, [model] + args)
    assert out["mujoco"][0] == 0, out["mujoco"][2]
    assert out["torsion"][0] == 0, out["torsion"][2]
    assert "calls control" in out["mujoco"][1]
    diffs = compare_outputs(out["mujoco"][1], out["torsion"][1], rtol=1e-9, atol=1e-12)
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)


# a date and time as MuJoCo's log writes it ("Thu Nov 26 03:03:18 2026")
STAMP = re.compile(r"\b[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\b")


def masked(text):
    """Text with its time stamps replaced by a marker."""
    return STAMP.sub("<time>", text)


def log_file(workdir, name="MUJOCO_LOG.TXT"):
    """Masked content of a log file in a program's working directory (None: absent)."""
    path = os.path.join(workdir, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return masked(f.read())


# (mode of cb_errors, needs the model, compare stderr exactly (else its first line up to
# the first "(" or newline: engine messages carry sizes that differ))
ERRORS = [
    ("error_default", False, True),
    ("error_return", False, True),
    ("error_longjmp", False, True),
    ("engine_handler", True, True),
    ("engine_default", True, False),
    ("warning", False, True),
    ("mj_warning", True, True),
    ("log_handler", False, True),
    ("log_default", False, True),
    ("log_config", False, True),
    ("write_log", False, True),
    ("clear", False, True),
]


def _head(stderr):
    """First line of stderr, cut at the first '(' (where sizes start)."""
    line = stderr.splitlines()[0] if stderr else ""
    return line.split("(")[0].strip()


@pytest.mark.parametrize("mode,model,exact", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_and_logging(mode, model, exact, tmp_path):
    """Same exit status, stdout, stderr and log files (time stamps masked)."""
    args = [mode] + ([HOOKS] if model else [])
    out = run_pair("cb_errors.c", tmp_path, args)
    (rc_mj, out_mj, err_mj), (rc_tn, out_tn, err_tn) = out["mujoco"], out["torsion"]
    assert rc_mj == rc_tn, (mode, rc_mj, rc_tn, err_mj, err_tn)
    assert masked(out_mj) == masked(out_tn), (out_mj, out_tn)
    if exact:
        assert masked(err_mj) == masked(err_tn), (err_mj, err_tn)
    else:
        assert _head(err_mj) == _head(err_tn), (err_mj, err_tn)
    for name in ("MUJOCO_LOG.TXT", "other.log"):
        logs = [log_file(os.path.join(str(tmp_path), e), name) for e in ("mujoco", "torsion")]
        if exact:
            assert logs[0] == logs[1], (name, logs)
        else:
            assert (logs[0] is None) == (logs[1] is None), (name, logs)


def test_user_memory(tmp_path):
    """mju_malloc is 64-byte aligned; the user handlers receive mjModel's and mjData's
    memory and get every block back (the program prints facts, not counts)."""
    out = run_pair("cb_memory.c", tmp_path, [HOOKS])
    assert out["mujoco"][0] == 0 and out["torsion"][0] == 0, (out["mujoco"][2],
                                                               out["torsion"][2])
    assert out["mujoco"][1].count(" 1\n") >= 7, out["mujoco"][1]
    diffs = compare_outputs(out["mujoco"][1], out["torsion"][1], rtol=1e-9, atol=1e-12)
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)
