"""Helpers of the torsion.client tests: a real torsiond started per test module (the
daemon integration suite's Daemon class), the installed client package, and MuJoCo
references computed with the mujoco package directly."""
import os
import sys

import numpy as np
import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
_REPO = os.path.dirname(os.path.dirname(_HERE))
sys.path.insert(0, os.path.join(_REPO, "tests", "integration"))
import torsion.client  # noqa: E402  (the installed package)
from daemon_util import Daemon  # noqa: E402

import mujoco  # noqa: E402

PENDULUM = os.path.join(_REPO, "tests", "models", "pendulum_chain.xml")
FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS.value


def gym_asset(name):
    """Path of a Gymnasium MuJoCo asset."""
    import gymnasium
    return os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets", name)


@pytest.fixture(scope="module")
def daemon():
    """One torsiond per test module; it must stop cleanly."""
    d = Daemon(workers=2)
    yield d
    assert d.alive(), "torsiond died:\n" + d.read_log()[-4000:]
    rc, log = d.stop()
    assert rc == 0, log[-4000:]


@pytest.fixture
def client(daemon):
    """A torsion.client.Client on the module's daemon."""
    c = torsion.client.Client(socket=daemon.sock, timeout=120)
    yield c
    c.close()


def random_states(mm, B, rng, scale=0.05):
    """FULLPHYSICS states [B, nstate] near qpos0 with random velocities."""
    s = np.zeros((B, mujoco.mj_stateSize(mm, FULL)))
    s[:, 1:1 + mm.nq] = mm.qpos0 + scale * rng.standard_normal((B, mm.nq))
    s[:, 1 + mm.nq:1 + mm.nq + mm.nv] = scale * rng.standard_normal((B, mm.nv))
    return s


def bitwise(a, b):
    """Same shape and the same bits."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    b = np.ascontiguousarray(b, dtype=np.float64)
    return a.shape == b.shape and np.array_equal(a.view(np.uint64), b.view(np.uint64))
