"""torsion.client.Client against a real torsiond: rollout equals mujoco.rollout.rollout
(shapes, singleton expansion, warmstart, output arrays), transition_fd equals
mujoco.mjd_transitionFD, inverse equals mujoco.mj_inverse; errors are clear exceptions."""
import threading

import mujoco
import numpy as np
import pytest
from mujoco import rollout as mjrollout

from client_daemon import (FULL, PENDULUM, bitwise, client, daemon, gym_asset,  # noqa: F401
                           random_states)
from torsion.client import Client, ServerError


@pytest.fixture(scope="module")
def pendulum():
    mm = mujoco.MjModel.from_xml_path(PENDULUM)
    return mm, mujoco.MjData(mm)


def test_rollout_is_bitwise_mujoco_rollout(client, pendulum):
    mm, md = pendulum
    rng = np.random.default_rng(1)
    s0 = random_states(mm, 6, rng, 0.4)
    ctrl = rng.standard_normal((6, 40, mm.nu))
    ref_state, ref_sens = mjrollout.rollout(mm, md, s0, ctrl)
    state, sens = client.rollout(PENDULUM, s0, ctrl)
    assert state.shape == (6, 40, mujoco.mj_stateSize(mm, FULL)) and bitwise(state, ref_state)
    assert sens.shape == ref_sens.shape == (6, 40, mm.nsensordata)


def test_rollout_singleton_expansion_and_nstep(client, pendulum):
    mm, md = pendulum
    rng = np.random.default_rng(2)
    s0 = random_states(mm, 1, rng, 0.4)[0]          # [nstate]: one rollout
    ctrl = rng.standard_normal((4, 1, mm.nu))       # held controls, 4 rollouts
    ref = mjrollout.rollout(mm, md, s0, ctrl, nstep=25)[0]
    got = client.rollout(PENDULUM, s0, ctrl, nstep=25)[0]
    assert got.shape == (4, 25, s0.size) and bitwise(got, ref)
    # no control: zero controls, as mujoco.rollout on a fresh MjData (it keeps whatever
    # controls the MjData holds)
    ref = mjrollout.rollout(mm, mujoco.MjData(mm), s0, nstep=7)[0]
    assert bitwise(client.rollout(PENDULUM, s0, nstep=7)[0], ref)


def test_rollout_warmstart_and_output_arrays(client, pendulum):
    mm, md = pendulum
    rng = np.random.default_rng(3)
    s0 = random_states(mm, 3, rng, 0.4)
    ctrl = rng.standard_normal((3, 12, mm.nu))
    warm = rng.standard_normal((3, mm.nv))
    ref = mjrollout.rollout(mm, md, s0, ctrl, initial_warmstart=warm)[0]
    out = np.full((3, 12, s0.shape[1]), np.nan)
    state, _ = client.rollout(client.load(path=PENDULUM), s0, ctrl, initial_warmstart=warm,
                              state=out, chunk_size=1)
    assert state is out and bitwise(out, ref)


def test_rollout_humanoid_matches_mujoco(client):
    path = gym_asset("humanoid.xml")
    mm = mujoco.MjModel.from_xml_path(path)
    md = mujoco.MjData(mm)
    rng = np.random.default_rng(4)
    s0 = random_states(mm, 16, rng, 0.01)
    ctrl = 0.4 * rng.standard_normal((16, 10, mm.nu))
    ref = mjrollout.rollout(mm, md, s0, ctrl)[0]
    got = client.rollout(path, s0, ctrl)[0]
    assert got.shape == ref.shape
    assert np.abs(got - ref).max() < 1e-10


def test_rollout_bad_shapes_raise_before_sending(client):
    m = client.load(path=PENDULUM)
    with pytest.raises(ValueError, match="trailing dimension of initial_state"):
        client.rollout(m, np.zeros((2, 5)), nstep=3)
    with pytest.raises(ValueError, match="control"):
        client.rollout(m, np.zeros((2, m.nstate_fullphysics)), np.zeros((3, 4, m.nu)))
    with pytest.raises(ValueError, match="mjSTATE_USER"):
        client.rollout(m, np.zeros((1, m.nstate_fullphysics)), nstep=2,
                       control_spec=mujoco.mjtState.mjSTATE_QPOS.value)
    assert client.health().serving  # the connection is still fine


def test_rollout_control_spec_equals_mujoco(client):
    """control_spec with applied forces, Cartesian forces and controls (each row applied
    with mj_setState before its step), and applied forces alone, as mujoco.rollout."""
    path = gym_asset("ant.xml")
    mm = mujoco.MjModel.from_xml_path(path)
    md = mujoco.MjData(mm)
    st = mujoco.mjtState
    rng = np.random.default_rng(6)
    s0 = random_states(mm, 4, rng, 0.01)
    for spec in (st.mjSTATE_CTRL | st.mjSTATE_QFRC_APPLIED | st.mjSTATE_XFRC_APPLIED,
                 st.mjSTATE_QFRC_APPLIED):
        spec = int(spec)
        ncontrol = mujoco.mj_stateSize(mm, spec)
        control = 0.3 * rng.standard_normal((4, 15, ncontrol))
        warm = rng.standard_normal((4, mm.nv))
        ref = mjrollout.rollout(mm, md, s0, control, control_spec=spec,
                                initial_warmstart=warm)[0]
        got = client.rollout(path, s0, control, control_spec=spec, initial_warmstart=warm)[0]
        assert got.shape == ref.shape and np.abs(got - ref).max() < 1e-10


def test_transition_fd_equals_mjd_transitionFD(client, pendulum):
    mm, md = pendulum
    rng = np.random.default_rng(5)
    states = random_states(mm, 5, rng, 0.4)
    ctrl = 0.5 * rng.standard_normal((5, mm.nu))
    for centered in (False, True):
        A, B, C, D = client.transition_fd(PENDULUM, states, ctrl, eps=1e-6, centered=centered)
        nx = 2 * mm.nv + mm.na
        assert A.shape == (5, nx, nx) and B.shape == (5, nx, mm.nu) and C is None
        for i in range(5):
            mujoco.mj_resetData(mm, md)
            mujoco.mj_setState(mm, md, states[i], FULL)
            md.ctrl[:] = ctrl[i]
            Ar, Br = np.zeros((nx, nx)), np.zeros((nx, mm.nu))
            mujoco.mjd_transitionFD(mm, md, 1e-6, centered, Ar, Br, None, None)
            assert np.abs(A[i] - Ar).max() < 1e-12 * max(1, np.abs(Ar).max())
            assert np.abs(B[i] - Br).max() < 1e-12 * max(1, np.abs(Br).max())


@pytest.mark.parametrize("path", [PENDULUM, gym_asset("humanoid.xml")])
def test_inverse_equals_mj_inverse(client, path):
    mm = mujoco.MjModel.from_xml_path(path)
    md = mujoco.MjData(mm)
    rng = np.random.default_rng(6)
    states = random_states(mm, 7, rng, 0.05)
    qacc = rng.standard_normal((7, mm.nv))
    got = client.inverse(path, states, qacc)
    assert got.shape == (7, mm.nv)
    for i in range(7):
        mujoco.mj_resetData(mm, md)
        mujoco.mj_setState(mm, md, states[i], FULL)
        md.qacc[:] = qacc[i]
        mujoco.mj_inverse(mm, md)
        assert np.abs(got[i] - md.qfrc_inverse).max() < 1e-10 * max(1, np.abs(md.qfrc_inverse).max())


def test_inverse_fd_outputs(client, pendulum):
    mm, md = pendulum
    rng = np.random.default_rng(7)
    states = random_states(mm, 2, rng, 0.3)
    qacc = rng.standard_normal((2, mm.nv))
    j = client.inverse_fd(PENDULUM, states, qacc, outputs=["DfDq", "DfDv"])
    assert set(j) == {"DfDq", "DfDv"} and j["DfDq"].shape == (2, mm.nv, mm.nv)
    mujoco.mj_resetData(mm, md)
    mujoco.mj_setState(mm, md, states[1], FULL)
    md.qacc[:] = qacc[1]
    dq, dv = np.zeros((mm.nv, mm.nv)), np.zeros((mm.nv, mm.nv))
    mujoco.mjd_inverseFD(mm, md, 1e-6, 0, dq, dv, None, None, None, None, None)
    assert np.abs(j["DfDq"][1] - dq).max() < 1e-6 and np.abs(j["DfDv"][1] - dv).max() < 1e-6


def test_model_handle_attributes_and_load_once(client):
    path = gym_asset("humanoid.xml")
    mm = mujoco.MjModel.from_xml_path(path)
    m = client.load(path=path)
    assert client.load(path=path) is m and client.model(m.handle) is m
    assert (m.nq, m.nv, m.nu, m.nbody) == (mm.nq, mm.nv, mm.nu, mm.nbody)
    assert m.opt.timestep == mm.opt.timestep
    assert m.body("torso").id == mm.body("torso").id
    assert np.array_equal(m.qpos0, mm.qpos0)
    assert np.array_equal(m.actuator_ctrlrange, mm.actuator_ctrlrange)
    with pytest.raises(AttributeError, match="not an mjModel array"):
        m.no_such_array


def test_server_errors_carry_code_and_message(client):
    with pytest.raises(ServerError) as e:
        client.load(xml="<mujoco><worldbody><body><geom type='nosuch'/></body></worldbody></mujoco>")
    assert e.value.name == "ERROR_MODEL_LOAD_FAILED" and e.value.code == 8 and e.value.message


def test_connection_error_when_daemon_is_gone():
    from client_daemon import Daemon
    d = Daemon(workers=1)
    c = Client(socket=d.sock)
    assert c.health().serving
    d.stop()
    with pytest.raises(ConnectionError):
        c.health()
    with pytest.raises(ConnectionError):
        Client(socket=d.sock)


def test_one_client_from_several_threads(client, pendulum):
    mm, md = pendulum
    rng = np.random.default_rng(8)
    s0 = random_states(mm, 4, rng, 0.4)
    ctrl = rng.standard_normal((4, 30, mm.nu))
    ref = mjrollout.rollout(mm, md, s0, ctrl)[0]
    results, errors = [], []

    def work():
        try:
            for _ in range(5):
                results.append(client.rollout(PENDULUM, s0, ctrl)[0])
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 20
    assert all(bitwise(r, ref) for r in results)


def test_load_path_ships_referenced_files(client, tmp_path):
    # a model with meshes next to it: the client sends them as assets, and the daemon's
    # model is the one torsion-sim compiles from the file (same bits)
    import os
    from daemon_util import sim_rollout
    path = os.path.join(os.path.dirname(PENDULUM), "meshes", "mesh_drop.xml")
    mm = mujoco.MjModel.from_xml_path(path)
    rng = np.random.default_rng(9)
    s0 = random_states(mm, 3, rng, 0.01)
    got = client.rollout(path, s0, nstep=30)[0]
    assert bitwise(got, sim_rollout(path, s0, None, 30, str(tmp_path)))


def test_rollout_sensordata_equals_mujoco(client):
    import os
    path = os.path.join(os.path.dirname(PENDULUM), "itempath", "diverge_arm.xml")
    mm = mujoco.MjModel.from_xml_path(path)
    assert mm.nsensordata > 0
    rng = np.random.default_rng(10)
    s0 = random_states(mm, 4, rng, 0.1)
    ctrl = 0.1 * rng.standard_normal((4, 20, mm.nu))
    ref_state, ref_sens = mjrollout.rollout(mm, mujoco.MjData(mm), s0, ctrl)
    state, sens = client.rollout(path, s0, ctrl)
    assert sens.shape == (4, 20, mm.nsensordata)
    assert np.abs(state - ref_state).max() < 1e-12 and np.abs(sens - ref_sens).max() < 1e-12


def test_tcp_with_token(tmp_path):
    from client_daemon import Daemon
    from daemon_util import free_port
    token = tmp_path / "token"
    token.write_text("tok-0123456789abcdef\n")
    port = free_port()
    d = Daemon("--token-file", str(token), tcp_port=port, workers=1)
    try:
        with Client(address=("127.0.0.1", port), token="tok-0123456789abcdef") as c:
            assert c.health().serving and c.protocol_version == 1
            m = c.load(path=PENDULUM)
            assert c.rollout(m, np.zeros((1, m.nstate_fullphysics)), nstep=2)[0].shape[:2] == (1, 2)
        with pytest.raises(ServerError) as e:
            Client(address="127.0.0.1:%d" % port, token="wrong")
        assert e.value.name == "ERROR_UNAUTHENTICATED"
    finally:
        rc, log = d.stop()
    assert rc == 0
