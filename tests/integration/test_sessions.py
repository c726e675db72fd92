"""Environment sessions: stepping on the server equals stepping one mjData in-process
(torsion-sim rollout from the same state with the same controls), resets, state get/set,
ordering of pipelined calls, and ownership by the connection."""
import time

import numpy as np
import pytest

from daemon_util import PENDULUM, bitwise_equal, engine_loads, gym_model, sim_info, sim_rollout
from torsion_client import FULLPHYSICS, INTEGRATION, PB, ServerError, code


@pytest.fixture
def handle(client, pendulum_xml):
    return client.load(xml=pendulum_xml).model


def test_session_steps_equal_in_process_stepping(client, handle, tmp_path):
    rng = np.random.default_rng(11)
    nenv, T = 3, 60
    sid, s0 = client.session(handle, nenv, reset_noise=0.2, seed=5)
    assert s0.shape == (nenv, 9) and not np.allclose(s0[0], s0[1])
    ctrl = rng.standard_normal((nenv, T, 2))
    got = np.stack([client.step(sid, ctrl[:, t])[0] for t in range(T)], axis=1)
    ref = sim_rollout(PENDULUM, s0, ctrl, T, str(tmp_path))
    assert bitwise_equal(got, ref)
    client.close_session(sid)


def test_frame_skip_equals_held_controls(client, handle, tmp_path):
    rng = np.random.default_rng(12)
    sid, s0 = client.session(handle, 2)
    ctrl = rng.standard_normal((2, 2))
    got = client.step(sid, ctrl, frame_skip=7)[0]
    ref = sim_rollout(PENDULUM, s0, ctrl[:, None, :], 7, str(tmp_path))
    assert bitwise_equal(got, ref[:, -1])
    # without ctrl the previous controls are kept
    again = client.step(sid, None, frame_skip=3)[0]
    ref2 = sim_rollout(PENDULUM, s0, ctrl[:, None, :], 10, str(tmp_path))
    assert bitwise_equal(again, ref2[:, -1])


def test_reset_noise_is_deterministic_and_mask_selects(client, handle):
    a, sa = client.session(handle, 4, reset_noise=0.1, seed=42)
    b, sb = client.session(handle, 4, reset_noise=0.1, seed=42)
    assert bitwise_equal(sa, sb)
    client.step(a, np.ones((4, 2)), frame_skip=5)
    after = client.get_state(a)
    reset = client.reset(a, mask=[1, 0, 1, 0])
    assert bitwise_equal(reset[1], after[1]) and bitwise_equal(reset[3], after[3])
    assert not bitwise_equal(reset[0], sa[0])  # a second reset draws new noise
    assert reset[0][0] == 0.0  # time back to zero
    client.close_session(a)
    client.close_session(b)


def test_get_and_set_state(client, handle):
    sid, s0 = client.session(handle, 2)
    full = client.get_state(sid, spec=INTEGRATION)
    assert full.shape == (2, client.info(handle).nstate_integration)
    assert bitwise_equal(client.get_state(sid, spec=FULLPHYSICS), s0)
    qpos = np.array([[0.1, 0.2, 0.3, 0.4], [-0.1, -0.2, -0.3, -0.4]])
    out = client.set_state(sid, qpos, spec=2)
    assert np.array_equal(out[:, 1:5], qpos)
    assert np.array_equal(client.get_state(sid, spec=2), qpos)
    with pytest.raises(ServerError) as e:
        client.set_state(sid, np.zeros((3, 4)), spec=2)
    assert e.value.code == code("ERROR_BAD_SHAPE")
    client.close_session(sid)


def test_pipelined_session_calls_run_in_order(client, handle, tmp_path):
    rng = np.random.default_rng(13)
    sid, s0 = client.session(handle, 2)
    ctrl = rng.standard_normal((2, 10, 2))
    reqs = []
    for t in range(10):
        sr = PB["SessionStepRequest"](session=sid)
        sr.ctrl.shape.extend([2, 2])
        sr.ctrl.data = np.ascontiguousarray(ctrl[:, t]).tobytes()
        reqs.append(client.request(session_step=sr))
    for r in reqs:
        client.send(r)
    out = {}
    while len(out) < 10:
        r = client.recv()
        out[r.id] = np.frombuffer(r.session_step.states.data).reshape(2, 9)
    got = np.stack([out[r.id] for r in reqs], axis=1)
    assert bitwise_equal(got, sim_rollout(PENDULUM, s0, ctrl, 10, str(tmp_path)))


def test_sessions_belong_to_their_connection(daemon, handle):
    with daemon.client() as a, daemon.client() as b:
        sid, _ = a.session(handle, 1)
        with pytest.raises(ServerError) as e:
            b.step(sid)
        assert e.value.code == code("ERROR_SESSION_NOT_FOUND")
        before = b.stats().sessions
    # closing the connection closes its sessions
    with daemon.client() as c:
        for _ in range(500):
            if c.stats().sessions < before:
                break
            time.sleep(0.01)
        assert c.stats().sessions == before - 1


def test_session_limits_and_arguments(client, handle):
    for bad in (dict(nenv=0), dict(nenv=2, keyframe=3), dict(nenv=2, reset_noise=-1.0)):
        with pytest.raises(ServerError) as e:
            client.session(handle, **bad)
        assert e.value.code == code("ERROR_INVALID_ARGUMENT")
    with pytest.raises(ServerError) as e:
        client.step(987654)
    assert e.value.code == code("ERROR_SESSION_NOT_FOUND")


def test_sensordata_when_the_model_has_sensors(client):
    """Evaluated sensors are served: after a step, jointpos and jointvel hold the state the
    step started from (MuJoCo evaluates sensors in the step's forward pass, before
    integrating). A model with a sensor type Torsion does not evaluate (distance) is
    refused with ERROR_UNIMPLEMENTED instead of getting zeros; without sensordata it works."""
    xml = """<mujoco><worldbody><body><joint name="h" type="hinge"/><geom size=".1"/>
             <site name="s"/></body></worldbody><actuator><motor joint="h"/></actuator>
             <sensor><jointpos joint="h"/><jointvel joint="h"/></sensor></mujoco>"""
    h = client.load(xml=xml)
    assert h.info.nsensordata == 2
    sid, start = client.session(h.model, 2, reset_noise=0.1, seed=3, sensordata=True)
    states, sens, _ = client.step(sid, np.ones((2, 1)))
    # FULLPHYSICS layout: time, qpos (1), qvel (1), ...
    assert sens.shape == (2, 2)
    np.testing.assert_array_equal(sens[:, 0], start[:, 1])
    np.testing.assert_array_equal(sens[:, 1], start[:, 2])
    assert np.all(states[:, 2] != start[:, 2])

    xml_distance = """<mujoco><worldbody><body><joint name="h" type="hinge"/>
             <geom name="a" size=".1"/></body><geom name="b" pos="1 0 0" size=".1"/>
             </worldbody><sensor><distance geom1="a" geom2="b"/></sensor></mujoco>"""
    hd = client.load(xml=xml_distance)
    with pytest.raises(ServerError) as e:
        client.session(hd.model, 2, sensordata=True)
    assert e.value.code == code("ERROR_UNIMPLEMENTED")
    assert "sensor" in e.value.message
    sid, _ = client.session(hd.model, 2)
    states, sens, _ = client.step(sid)
    assert states.shape[0] == 2 and sens is None