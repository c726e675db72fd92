"""The iLQR example (clients/examples/ilqr) as a real user of the daemon (issue 5, item 6):
it swings the dm_control cartpole and acrobot up from hanging rest through a torsiond
started here, getting its Jacobians from TransitionFD, its line searches from a session and
its trajectories from Rollout. Each run must exit with status 0 and print a final state
that meets the goal, and the controls it writes are re-simulated with MuJoCo 3.14 (the
oracle) from the same MJCF text: MuJoCo's final state must match the printed one and meet
the goal on its own.

The example binary is $ILQR_EXAMPLE, or clients/examples/ilqr/ilqr under $TORSION_BUILD.
"""
import importlib.util
import os
import re
import subprocess

import numpy as np
import pytest

from daemon_util import Daemon, tdclient

ILQR = os.environ.get("ILQR_EXAMPLE", tdclient.build_path("clients", "examples", "ilqr", "ilqr"))

# task -> (initial qpos, indices of angle coordinates, extra arguments). The horizons are
# the presets' (2 s for the cartpole; 7 s for the acrobot, whose 2 N m need several swings)
# with coarse control holds to keep each run to a few seconds.
TASKS = {
    "cartpole": ([0.0, np.pi], [1], []),
    "acrobot": ([np.pi, 0.0], [0, 1], []),
}
# the goal, as the example tests it: angles within 0.2 rad of upright, the cart within
# 0.3 m of the centre, every speed below 1
TOL_ANGLE, TOL_POS, TOL_VEL = 0.2, 0.3, 1.0
# MuJoCo's re-simulation against the example's printed final state (printed with 6
# decimals; the engines agree to ~1e-13 along the trajectory)
TOL_MATCH = 2e-6


def suite_dir():
    """dm_control's suite directory, or None."""
    spec = importlib.util.find_spec("dm_control")
    if spec is None or spec.origin is None:
        return None
    return os.path.join(os.path.dirname(spec.origin), "suite")


def run_example(daemon, task, tmp_path):
    """Run the example; returns (stdout, controls [N, nu], the MJCF text it sent)."""
    model = os.path.join(suite_dir(), task + ".xml")
    ctrl, xml = tmp_path / "u.npy", tmp_path / "model.xml"
    cmd = [ILQR, "--socket", daemon.sock, "--task", task, "--model", model, "--out-ctrl",
           str(ctrl), "--save-xml", str(xml)] + TASKS[task][2]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, "exit %d\n%s\n%s" % (proc.returncode, proc.stdout[-3000:],
                                                       proc.stderr[-2000:])
    return proc.stdout, np.load(ctrl), xml.read_text()


def printed_final(stdout):
    """(qpos, qvel) of the 'final qpos ... qvel ...' line."""
    m = re.search(r"^final qpos ([-\d. e+]+) qvel ([-\d. e+]+)$", stdout, re.M)
    assert m, stdout[-2000:]
    return np.array(m.group(1).split(), float), np.array(m.group(2).split(), float)


def goal_errors(qpos, qvel, angles):
    """(largest wrapped angle error, largest position error, largest speed) against upright
    at rest."""
    ang = [abs((qpos[i] + np.pi) % (2 * np.pi) - np.pi) for i in angles]
    pos = [abs(qpos[i]) for i in range(len(qpos)) if i not in angles]
    return max(ang), max(pos, default=0.0), float(np.max(np.abs(qvel)))


def mujoco_final(xml, ctrl, qpos0):
    """MuJoCo's state after stepping the controls from qpos0 at rest, on the same text."""
    mujoco = pytest.importorskip("mujoco")
    common = os.path.join(suite_dir(), "common")
    assets = {"common/" + f: open(os.path.join(common, f), "rb").read()
              for f in os.listdir(common) if f.endswith(".xml")}
    m = mujoco.MjModel.from_xml_string(xml, assets)
    d = mujoco.MjData(m)
    d.qpos[:] = qpos0
    for u in ctrl:
        d.ctrl[:] = u
        mujoco.mj_step(m, d)
    return np.array(d.qpos), np.array(d.qvel)


@pytest.fixture(scope="module")
def daemon():
    if suite_dir() is None:
        pytest.skip("dm_control is not installed")
    if not os.access(ILQR, os.X_OK):
        pytest.fail("the iLQR example is not built at %s (or set ILQR_EXAMPLE)" % ILQR)
    d = Daemon(workers=2)
    yield d
    status, log = d.stop()
    assert status == 0, log[-3000:]


@pytest.mark.parametrize("task", sorted(TASKS))
def test_ilqr_swings_up(daemon, task, tmp_path):
    qpos0, angles, _ = TASKS[task]
    stdout, ctrl, xml = run_example(daemon, task, tmp_path)

    # the example's own verdict, and the printed final state
    assert "goal reached" in stdout, stdout[-2000:]
    assert re.search(r"^iter +\d+ +cost", stdout, re.M), "no per-iteration cost lines"
    qpos, qvel = printed_final(stdout)
    ea, ep, ev = goal_errors(qpos, qvel, angles)
    assert ea <= TOL_ANGLE and ep <= TOL_POS and ev <= TOL_VEL, (ea, ep, ev)

    # the oracle: MuJoCo steps the same controls on the same model text
    assert 'integrator="RK4"' not in xml
    mq, mv = mujoco_final(xml, ctrl, qpos0)
    np.testing.assert_allclose(mq, qpos, atol=TOL_MATCH, rtol=0)
    np.testing.assert_allclose(mv, qvel, atol=TOL_MATCH, rtol=0)
    ea, ep, ev = goal_errors(mq, mv, angles)
    assert ea <= TOL_ANGLE and ep <= TOL_POS and ev <= TOL_VEL, (ea, ep, ev)
