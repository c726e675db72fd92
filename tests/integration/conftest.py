"""Fixtures of the daemon integration tests (helpers live in daemon_util.py)."""
import os
import sys

import pytest

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, _HERE)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(_HERE)), "clients", "python"))
from daemon_util import PENDULUM, Daemon  # noqa: E402


@pytest.fixture(scope="module")
def daemon():
    """One daemon shared by a test module; must still be alive and stop cleanly at the end."""
    d = Daemon()
    yield d
    assert d.alive(), "torsiond died:\n" + d.read_log()[-4000:]
    rc, log = d.stop()
    assert rc == 0, log[-4000:]


@pytest.fixture
def client(daemon):
    with daemon.client() as c:
        yield c


@pytest.fixture(scope="module")
def pendulum_xml():
    with open(PENDULUM) as f:
        return f.read()


