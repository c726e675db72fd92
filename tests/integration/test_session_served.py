"""Served stepping in one round trip: SessionStep readouts (any registered mjData field),
env_ids (a subset of the environments) and resets inside the step, compared with running
the same calls through MuJoCo in Python; invalid steps are refused and change nothing."""
import mujoco
import numpy as np
import pytest

from daemon_util import PENDULUM, bitwise_equal, gym_model
from torsion_client import PB, ServerError, code, from_array, to_array

FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS.value
INTEGRATION = mujoco.mjtState.mjSTATE_INTEGRATION.value
READ = ["qpos", "qvel", "xpos", "cinert", "cvel", "qfrc_actuator", "cfrc_ext", "act"]


def step_req(client, sid, ctrl=None, frame_skip=1, env_ids=(), readout=(), reset_ids=(),
             reset_qpos=None, reset_qvel=None):
    sr = PB["SessionStepRequest"](session=sid, frame_skip=frame_skip)
    if ctrl is not None:
        to_array(ctrl, sr.ctrl)
    sr.env_ids.extend(env_ids)
    sr.readout.extend(readout)
    sr.reset_env_ids.extend(reset_ids)
    if reset_qpos is not None:
        to_array(reset_qpos, sr.reset_qpos)
    if reset_qvel is not None:
        to_array(reset_qvel, sr.reset_qvel)
    return client.request(session_step=sr)


def step(client, sid, **kw):
    r = client.call(step_req(client, sid, **kw))[-1].session_step
    return r, {x.name: from_array(x.value) for x in r.readouts}


class Mirror:
    """The same environments stepped with MuJoCo in Python."""

    def __init__(self, path, nenv, states):
        self.m = mujoco.MjModel.from_xml_path(path)
        self.d = [mujoco.MjData(self.m) for _ in range(nenv)]
        for d, s in zip(self.d, states):
            mujoco.mj_setState(self.m, d, s, INTEGRATION)

    def step(self, e, ctrl, n):
        d = self.d[e]
        if ctrl is not None:
            d.ctrl[:] = ctrl
        for _ in range(n):
            mujoco.mj_step(self.m, d)

    def reset(self, e, qpos, qvel):
        d = self.d[e]
        mujoco.mj_resetData(self.m, d)
        d.qpos[:] = qpos
        d.qvel[:] = qvel
        mujoco.mj_forward(self.m, d)

    def field(self, e, name):
        return np.array(getattr(self.d[e], name))


def humanoid():
    path = gym_model("humanoid.xml")
    assert path, "gymnasium's humanoid.xml is needed"
    return path


@pytest.mark.parametrize("path_fn,tol", [(lambda: PENDULUM, 0.0), (humanoid, 1e-9)])
def test_step_readouts_subsets_and_resets_equal_mujoco(client, path_fn, tol):
    path = path_fn()
    with open(path) as f:
        handle = client.load(xml=f.read()).model
    nenv = 6
    sid, _ = client.session(handle, nenv, keyframe=-1)
    g = PB["SessionGetStateRequest"](session=sid, state_spec=INTEGRATION)
    s0 = from_array(client.call(client.request(session_get_state=g))[-1].session_get_state.states)
    mir = Mirror(path, nenv, s0)
    m = mir.m
    rng = np.random.default_rng(21)

    def check(res, vals, ids):
        assert list(res.env_ids) == list(ids)
        for name in READ:
            assert vals[name].shape == (len(ids),) + mir.field(0, name).shape
            for i, e in enumerate(ids):
                ref = mir.field(e, name)
                if tol == 0.0:
                    assert bitwise_equal(vals[name][i], ref), (name, e)
                else:
                    assert np.abs(vals[name][i] - ref).max(initial=0) <= tol * max(
                        1.0, np.abs(ref).max(initial=0)), (name, e)

    # all environments, then subsets in an arbitrary order, with resets inside steps
    plan = [(list(range(nenv)), []), ([4, 1, 2], []), ([0, 5, 3, 1], [5]),
            ([2, 3], [2, 3]), (list(range(nenv)), [0])]
    for ids, resets in plan:
        ctrl = 0.3 * rng.standard_normal((len(ids), m.nu))
        rq = m.qpos0 + 0.02 * rng.standard_normal((len(resets), m.nq))
        rv = 0.02 * rng.standard_normal((len(resets), m.nv))
        res, vals = step(client, sid, ctrl=ctrl, frame_skip=3,
                         env_ids=ids if len(ids) < nenv else [], readout=READ,
                         reset_ids=resets, reset_qpos=rq if resets else None,
                         reset_qvel=rv if resets else None)
        for i, e in enumerate(ids):
            if e in resets:
                j = resets.index(e)
                mir.reset(e, rq[j], rv[j])
            else:
                mir.step(e, ctrl[i], 3)
        check(res, vals, ids)
        assert from_array(res.states).shape == (len(ids), mujoco.mj_stateSize(m, FULL))
    client.close_session(sid)


def test_reset_without_rows_uses_model_defaults(client, pendulum_xml):
    handle = client.load(xml=pendulum_xml).model
    sid, _ = client.session(handle, 3, reset_noise=0.3, seed=4)
    client.step(sid, np.ones((3, 2)), frame_skip=4)
    res, vals = step(client, sid, env_ids=[2], reset_ids=[2], readout=["qpos", "qvel", "ctrl"])
    m = mujoco.MjModel.from_xml_string(pendulum_xml)
    assert np.array_equal(vals["qpos"][0], m.qpos0) and not vals["qvel"].any()
    assert not vals["ctrl"].any() and from_array(res.states)[0, 0] == 0.0  # time reset
    client.close_session(sid)


def test_invalid_steps_are_refused_and_change_nothing(client, pendulum_xml):
    handle = client.load(xml=pendulum_xml).model
    sid, _ = client.session(handle, 4, reset_noise=0.2, seed=9)
    before = client.get_state(sid, spec=INTEGRATION)
    bad = [
        (dict(readout=["qpos", "no_such_field"]), "ERROR_INVALID_ARGUMENT", "no_such_field"),
        (dict(env_ids=[1, 4]), "ERROR_INVALID_ARGUMENT", "out of range"),
        (dict(env_ids=[1, 1]), "ERROR_INVALID_ARGUMENT", "repeated"),
        (dict(env_ids=[0, 1], ctrl=np.zeros((4, 2))), "ERROR_BAD_SHAPE", "ctrl"),
        (dict(env_ids=[0, 1], reset_ids=[2]), "ERROR_INVALID_ARGUMENT", "not an addressed"),
        (dict(reset_ids=[1, 1]), "ERROR_INVALID_ARGUMENT", "repeated"),
        (dict(reset_ids=[1], reset_qpos=np.zeros((2, 4))), "ERROR_BAD_SHAPE", "reset_qpos"),
        (dict(reset_ids=[1], reset_qvel=np.zeros((1, 3))), "ERROR_BAD_SHAPE", "reset_qvel"),
        (dict(reset_qpos=np.zeros((1, 4))), "ERROR_INVALID_ARGUMENT", "reset_env_ids"),
    ]
    for kw, name, text in bad:
        with pytest.raises(ServerError) as e:
            step(client, sid, ctrl=kw.pop("ctrl", np.ones((len(kw.get("env_ids", [])) or 4, 2))),
                 **kw)
        assert e.value.code == code(name), (kw, e.value.message)
        assert text in e.value.message
    assert bitwise_equal(client.get_state(sid, spec=INTEGRATION), before)
    client.close_session(sid)


def test_pipelined_subset_steps_run_in_order(client, pendulum_xml):
    handle = client.load(xml=pendulum_xml).model
    sid, _ = client.session(handle, 4, keyframe=-1)
    s0 = client.get_state(sid, spec=INTEGRATION)
    mir = Mirror(PENDULUM, 4, s0)
    rng = np.random.default_rng(5)
    reqs, plan = [], []
    for t in range(12):
        ids = list(rng.permutation(4)[:2])
        ctrl = rng.standard_normal((2, 2))
        reqs.append(step_req(client, sid, ctrl=ctrl, env_ids=[int(i) for i in ids],
                             readout=["qpos"]))
        plan.append((ids, ctrl))
    for r in reqs:
        client.send(r)
    got = {}
    while len(got) < len(reqs):
        r = client.recv()
        assert r.final and r.WhichOneof("body") == "session_step"
        got[r.id] = r.session_step
    for req, (ids, ctrl) in zip(reqs, plan):
        for i, e in enumerate(ids):
            mir.step(e, ctrl[i], 1)
        res = got[req.id]
        q = from_array(res.readouts[0].value)
        for i, e in enumerate(ids):
            assert bitwise_equal(q[i], mir.field(e, "qpos"))
    client.close_session(sid)


def test_model_info_returns_model_arrays(client, pendulum_xml):
    handle = client.load(xml=pendulum_xml).model
    req = PB["ModelInfoRequest"](model=handle)
    req.fields.extend(["qpos0", "body_mass", "actuator_ctrlrange", "jnt_type"])
    info = client.call(client.request(model_info=req))[-1].model_info
    m = mujoco.MjModel.from_xml_string(pendulum_xml)
    vals = {f.name: from_array(f.value) for f in info.fields}
    assert bitwise_equal(vals["qpos0"], m.qpos0) and bitwise_equal(vals["body_mass"], m.body_mass)
    assert bitwise_equal(vals["actuator_ctrlrange"], m.actuator_ctrlrange)
    assert np.array_equal(vals["jnt_type"], m.jnt_type)
    req = PB["ModelInfoRequest"](model=handle)
    req.fields.append("nope")
    with pytest.raises(ServerError) as e:
        client.call(client.request(model_info=req))
    assert e.value.code == code("ERROR_INVALID_ARGUMENT")
