"""Hostile clients against torsiond's sessions: a connection's environments are bounded over
all its sessions (16 sessions x 65,536 environments no longer fit), and one SessionStep
call is bounded by max_batch_steps (nenv x frame_skip), like a rollout."""
import numpy as np
import pytest

from daemon_util import PENDULUM, Daemon
from hostile_util import rss_mb, worst_small_rollout
from torsion_client import ServerError, code


def _limit(fn, what):
    with pytest.raises(ServerError) as e:
        fn()
    assert e.value.code == code("ERROR_LIMIT_EXCEEDED"), e.value
    assert what in e.value.message, e.value.message


def test_environments_are_bounded_per_connection():
    d = Daemon("--max-envs-per-connection", "1000", workers=2)
    try:
        with d.client() as a, d.client() as b:
            h = a.load(xml=open(PENDULUM).read()).model
            b.load(xml=open(PENDULUM).read())
            rss0 = rss_mb(d.proc.pid)
            sid, _ = a.session(h, 600)
            _limit(lambda: a.session(h, 600), "max_envs_per_connection")
            a.session(h, 400)
            # closing a session gives its environments back
            a.close_session(sid)
            a.session(h, 600)
            # another connection has its own quota
            b.session(h, 1000)
            assert worst_small_rollout(b, h) < 1.0
            assert rss_mb(d.proc.pid) - rss0 < 100
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_default_quota_refuses_a_second_full_size_session():
    d = Daemon(workers=2)
    try:
        with d.client() as a:
            h = a.load(xml=open(PENDULUM).read()).model
            a.session(h, 65536)
            _limit(lambda: a.session(h, 65536), "max_envs_per_connection")
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_session_step_is_bounded_by_max_batch_steps():
    d = Daemon("--max-batch-steps", "1000", workers=2)
    try:
        with d.client() as a:
            h = a.load(xml=open(PENDULUM).read()).model
            sid, _ = a.session(h, 100)
            states, _, _ = a.step(sid, np.zeros((100, 2)), frame_skip=10)
            assert states.shape[0] == 100
            _limit(lambda: a.step(sid, np.zeros((100, 2)), frame_skip=11), "max_batch_steps")
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]
