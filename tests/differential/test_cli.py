"""torsion-sim's handling of wrong input (issue 2, item 7): missing files, bad flags, wrong
shapes and wrong dtypes exit non-zero with a one-line reason on stderr, never a crash, and
write no output file."""
import json
import os

import numpy as np
import pytest

from harness import corpus, oracle, torsion

MODEL = os.path.join(corpus.REPO_ROOT, "tests", "models", "pendulum_chain.xml")


@pytest.fixture(scope="module")
def good():
    """A valid state [3, nstate] and controls [3, nu] for MODEL."""
    m = oracle.load(MODEL)
    states, ctrl = oracle.random_states(m, 3, oracle.rng("cli", "states"))
    return m, states, ctrl


def _expect_failure(args, tmp_path, needle=None):
    """Run torsion-sim expecting a clean failure; returns stderr."""
    proc = torsion.run(args, check=False)
    cmd = "torsion-sim " + " ".join(str(a) for a in args)
    assert proc.returncode > 0, "%s: exit status %d (expected a clean non-zero exit)%s" % (
        cmd, proc.returncode, " -- killed by a signal" if proc.returncode < 0 else "")
    err = proc.stderr.strip()
    assert err, "%s: failed without a reason on stderr" % cmd
    assert len(err.splitlines()) == 1, "%s: reason is not one line:\n%s" % (cmd, err)
    if needle is not None:
        assert needle.lower() in err.lower(), "%s: reason %r does not mention %r" % (
            cmd, err, needle)
    assert not os.path.exists(tmp_path / "out.npy"), "%s: wrote an output file" % cmd
    return err


def _npy(tmp_path, name, array, dtype="<f8"):
    """Save an array as tmp_path/name.npy with the given dtype."""
    path = tmp_path / (name + ".npy")
    np.save(path, np.asarray(array).astype(dtype))
    return path


def test_missing_model(tmp_path):
    _expect_failure(["info", tmp_path / "no_such_model.xml"], tmp_path, "no_such_model.xml")


def test_unknown_command(tmp_path):
    _expect_failure(["frobnicate", MODEL], tmp_path, "frobnicate")


def test_unknown_option(tmp_path):
    _expect_failure(["info", MODEL, "--frobnicate", "1"], tmp_path, "frobnicate")


def test_bad_disable_flag(tmp_path, good):
    _, states, ctrl = good
    _expect_failure(["forward", MODEL, "--state", _npy(tmp_path, "s", states), "--ctrl",
                     _npy(tmp_path, "c", ctrl), "--out", tmp_path / "out.npy",
                     "--disable", "constraint,nosuchflag"], tmp_path, "nosuchflag")


def test_bad_integrator(tmp_path, good):
    _, states, _ = good
    _expect_failure(["rollout", MODEL, "--state", _npy(tmp_path, "s", states), "--nstep", 1,
                     "--out", tmp_path / "out.npy", "--integrator", "leapfrog"], tmp_path,
                    "leapfrog")


def test_missing_state_file(tmp_path):
    _expect_failure(["forward", MODEL, "--state", tmp_path / "absent.npy", "--out",
                     tmp_path / "out.npy"], tmp_path, "absent.npy")


def test_state_not_npy(tmp_path):
    path = tmp_path / "s.npy"
    path.write_text("this is not a numpy file\n")
    _expect_failure(["forward", MODEL, "--state", path, "--out", tmp_path / "out.npy"],
                    tmp_path)


def test_state_wrong_width(tmp_path, good):
    _, states, _ = good
    _expect_failure(["forward", MODEL, "--state", _npy(tmp_path, "s", states[:, :-1]),
                     "--out", tmp_path / "out.npy"], tmp_path)


def test_state_wrong_dtype(tmp_path, good):
    # integers are refused; float32 is read and widened (tests/integration/test_npy_files.py)
    _, states, _ = good
    _expect_failure(["forward", MODEL, "--state", _npy(tmp_path, "s", states, "<i8"),
                     "--out", tmp_path / "out.npy"], tmp_path)


def test_ctrl_wrong_width(tmp_path, good):
    _, states, ctrl = good
    _expect_failure(["forward", MODEL, "--state", _npy(tmp_path, "s", states), "--ctrl",
                     _npy(tmp_path, "c", ctrl[:, :1]), "--out", tmp_path / "out.npy"],
                    tmp_path)


def test_ctrl_wrong_batch(tmp_path, good):
    _, states, ctrl = good
    _expect_failure(["rollout", MODEL, "--state", _npy(tmp_path, "s", states), "--ctrl",
                     _npy(tmp_path, "c", ctrl[:2, None, :]), "--nstep", 1,
                     "--out", tmp_path / "out.npy"], tmp_path)


def test_ctrl_wrong_nstep(tmp_path, good):
    _, states, ctrl = good
    c = np.repeat(ctrl[:, None, :], 7, axis=1)
    _expect_failure(["rollout", MODEL, "--state", _npy(tmp_path, "s", states), "--ctrl",
                     _npy(tmp_path, "c", c), "--nstep", 5, "--out", tmp_path / "out.npy"],
                    tmp_path)


def test_missing_out(tmp_path, good):
    _, states, _ = good
    _expect_failure(["forward", MODEL, "--state", _npy(tmp_path, "s", states)], tmp_path)


def test_bad_nstep(tmp_path, good):
    _, states, _ = good
    _expect_failure(["rollout", MODEL, "--state", _npy(tmp_path, "s", states), "--nstep",
                     "ten", "--out", tmp_path / "out.npy"], tmp_path, "nstep")


def test_dump_unknown_field(tmp_path):
    _expect_failure(["dump", MODEL, "--fields", "body_mass,no_such_field", "--out",
                     tmp_path / "out"], tmp_path, "no_such_field")


def test_speed_reports():
    proc = torsion.run(["speed", MODEL, "--nstep", 2000, "--threads", 2, "--ctrlnoise", 0.1,
                        "--disable", "constraint"])
    res = json.loads(proc.stdout)
    for key in ("steps_per_second", "contacts_per_step", "constraints_per_step", "nthread"):
        assert key in res, "speed JSON lacks %s: %s" % (key, proc.stdout)
    assert res["steps_per_second"] > 0 and res["nthread"] == 2, proc.stdout
    assert res["constraints_per_step"] == 0, proc.stdout
