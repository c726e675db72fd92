"""Hostile clients against torsiond's model registry: a tiny MJCF whose height field
compiles to hundreds of megabytes, one client taking every model slot, models that outlive
their client, and clients listing, inspecting or unloading others' models. Models are
reference-counted by the connections holding them; each connection has its own count and
memory quota; a model's memory is estimated from its sizes before its pool is allocated."""
import time

import numpy as np
import pytest

from daemon_util import PENDULUM, Daemon
from hostile_util import rss_mb, worst_small_rollout
from torsion_client import PB, ServerError, code


def hfield_xml(n, tag=""):
    """About 150 bytes of MJCF whose n x n height field is 4 n^2 bytes once compiled."""
    return ('<mujoco model="hf%s"><asset><hfield name="h" nrow="%d" ncol="%d" size="1 1 1 1"/>'
            '</asset><worldbody><geom type="hfield" hfield="h"/></worldbody></mujoco>'
            % (tag, n, n))


def tiny_xml(i):
    return ('<mujoco model="m%d"><worldbody><body><joint/><geom size="0.%d"/></body>'
            '</worldbody></mujoco>' % (i, i + 1))


def _limit_error(fn, what):
    with pytest.raises(ServerError) as e:
        fn()
    assert e.value.code == code("ERROR_LIMIT_EXCEEDED"), e.value
    assert what in e.value.message, e.value.message
    return e.value.message


def _models_loaded(c, n, timeout=5):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if c.health().models == n:
            return True
        time.sleep(0.02)
    return c.health().models == n


def test_height_field_bomb_is_refused_before_its_pool():
    d = Daemon("--max-model-memory", "64M", workers=2)
    try:
        with d.client() as c:
            rss0 = rss_mb(d.proc.pid)
            xml = hfield_xml(3000)  # 36 MB of height data, plus three mjData
            assert len(xml) < 200
            msg = _limit_error(lambda: c.load(xml=xml), "max_model_memory")
            assert "bytes" in msg
            assert c.health().models == 0
            # a small height field still loads
            assert c.load(xml=hfield_xml(100)).info.ngeom == 1
            assert rss_mb(d.proc.pid) - rss0 < 100
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_gigabyte_height_field_is_refused_before_compiling():
    """A 200-byte MJCF asking for a 16000 x 16000 height field (1 GB of model arrays) is
    refused by the compiler's size check before anything that large is allocated."""
    d = Daemon("--max-model-memory", "64M", workers=2)
    try:
        with d.client() as c:
            rss0 = rss_mb(d.proc.pid)
            t0 = time.time()
            msg = _limit_error(lambda: c.load(xml=hfield_xml(16000)), "max_model_memory")
            assert "the model needs" in msg
            assert time.time() - t0 < 5
            assert rss_mb(d.proc.pid) - rss0 < 100
            assert c.health().models == 0
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_one_client_cannot_take_every_model_slot_or_all_memory():
    d = Daemon("--max-models-per-connection", "3", "--max-model-memory-per-connection", "200M",
               workers=2)
    try:
        with d.client() as attacker, d.client() as by:
            for i in range(3):
                attacker.load(xml=tiny_xml(i))
            _limit_error(lambda: attacker.load(xml=tiny_xml(3)), "max_models_per_connection")
            assert attacker.load(xml=tiny_xml(0)).cached  # what it holds still loads
            # everyone else keeps their own quota
            h = by.load(xml=open(PENDULUM).read()).model
            assert worst_small_rollout(by, h) < 1.0
            # memory: two 3000 x 3000 height fields fit 200 MB, a third does not
            with d.client() as big:
                big.load(xml=hfield_xml(3000, "a"))
                big.load(xml=hfield_xml(3000, "b"))
                _limit_error(lambda: big.load(xml=hfield_xml(3000, "c")),
                             "max_model_memory_per_connection")
            assert _models_loaded(by, 4)  # the big client's models left with it
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_models_leave_with_their_last_client():
    d = Daemon(workers=2)
    try:
        with d.client() as a:
            h = a.load(xml=open(PENDULUM).read()).model
        with d.client() as b:
            assert _models_loaded(b, 0)
            with pytest.raises(ServerError) as e:
                b.rollout(h, np.zeros((1, 9)), 2)
            assert e.value.code == code("ERROR_MODEL_NOT_FOUND")
            assert not b.load(xml=open(PENDULUM).read()).cached
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]
    assert "model_unloaded" in log


def test_others_models_cannot_be_listed_inspected_or_unloaded():
    d = Daemon(workers=2)
    try:
        with d.client() as a, d.client() as b:
            h = a.load(xml=open(PENDULUM).read()).model
            assert [m.model for m in a.stats().models] == [h]
            assert list(b.stats().models) == []
            unload = PB["UnloadModelRequest"](model=h)
            for call in (lambda: b.info(h), lambda: b.call(b.request(unload_model=unload))):
                with pytest.raises(ServerError) as e:
                    call()
                assert e.value.code == code("ERROR_MODEL_NOT_FOUND")
            assert a.info(h).nq == 4  # still there for its owner
            # loading the same content gives b a reference of its own
            assert b.load(xml=open(PENDULUM).read()).cached
            assert b.info(h).model == h
            a.call(a.request(unload_model=unload))
            assert b.info(h).model == h and worst_small_rollout(b, h) < 1.0
        with d.client() as c:
            assert _models_loaded(c, 0)
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_keep_warm_policy_keeps_unused_models():
    d = Daemon("--model-keep-warm", "true", workers=2)
    try:
        with d.client() as a:
            a.load(xml=open(PENDULUM).read())
        with d.client() as b:
            time.sleep(0.1)
            assert b.health().models == 1
            assert b.load(xml=open(PENDULUM).read()).cached
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]
