"""Inverse, TransitionFD and InverseFD served by torsiond: bitwise equal to the in-process
engine (torsion-sim inverse/transitionfd/inversefd --threads 1), streamed in env-range
chunks, within 1e-6 of MuJoCo's mjd_transitionFD, clear errors for bad input (the daemon
survives them), limits, cancellation and deadlines mid-request, the C client through the
`torsion` CLI, and the bench mix."""
import json
import os
import subprocess
import time

import numpy as np
import pytest

import torsion_client as tdclient
from daemon_util import (PENDULUM, TORSION_CLI, Daemon, bitwise_equal, engine_loads, gym_model,
                         random_states, run_sim, sim_info)
from torsion_client import PB, ServerError, code

# a model without actuators, one with a sensor, one integrated with RK4 (written here)
NO_ACTUATORS = """<mujoco model="free_swing">
  <worldbody><body pos="0 0 1"><joint name="h" type="hinge" axis="0 1 0" damping="0.1"/>
    <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" contype="0" conaffinity="0"/>
  </body></worldbody>
</mujoco>"""
WITH_SENSOR = NO_ACTUATORS.replace('model="free_swing"', 'model="sensed"').replace(
    "</mujoco>", '<actuator><motor joint="h"/></actuator>'
    '<sensor><jointpos joint="h"/><jointvel joint="h"/></sensor></mujoco>')
RK4 = NO_ACTUATORS.replace("<worldbody>", '<option integrator="RK4"/><worldbody>')


def model_cases():
    """Models the engine loads now: Torsion's own and a gymnasium one with contacts (Euler:
    finite differences refuse RK4, as MuJoCo's do)."""
    cases = [PENDULUM]
    path = gym_model("half_cheetah.xml")
    if engine_loads(path):
        cases.append(path)
    return cases


MODEL_CASES = model_cases()


def load(client, path):
    with open(path) as f:
        return client.load(xml=f.read()).model


def inputs(path, B, seed, scale=0.1):
    """(info, states [B, nstate], controls [B, nu], accelerations [B, nv])."""
    info = sim_info(path)
    rng = np.random.default_rng(seed)
    state = random_states(info, B, rng, scale=scale)
    ctrl = 0.7 * rng.standard_normal((B, info["nu"]))
    qacc = rng.standard_normal((B, info["nv"]))
    return info, state, ctrl, qacc


def sim(tmp_path, cmd, path, state, extra=(), ctrl=None, qacc=None):
    """torsion-sim CMD with one thread on .npy files in tmp_path."""
    np.save(tmp_path / "s.npy", state)
    args = [cmd, path, "--state", "s.npy", "--threads", 1] + list(extra)
    if ctrl is not None:
        np.save(tmp_path / "c.npy", ctrl)
        args += ["--ctrl", "c.npy"]
    if qacc is not None:
        np.save(tmp_path / "q.npy", qacc)
        args += ["--qacc", "q.npy"]
    run_sim(args, str(tmp_path))


def frames_of(client, field, msg):
    """Every frame of one request (the last final)."""
    frames = client.call(client.request(**{field: msg}))
    assert frames[-1].final and not any(f.final for f in frames[:-1])
    return [getattr(f, field) for f in frames]


# ---------------------------------------------------------------------------------------
# bitwise equality with the in-process engine
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", MODEL_CASES, ids=os.path.basename)
def test_inverse_bitwise_equal_to_torsion_sim(client, path, tmp_path):
    info, state, _, qacc = inputs(path, 7, 11)
    h = load(client, path)
    sim(tmp_path, "inverse", path, state, ["--out", "o.npy"], qacc=qacc)
    got = client.inverse(h, state, qacc, chunk_envs=3)
    assert got.shape == (7, info["nv"])
    assert bitwise_equal(got, np.load(tmp_path / "o.npy"))


@pytest.mark.parametrize("centered", [False, True], ids=["forward", "centered"])
@pytest.mark.parametrize("path", MODEL_CASES, ids=os.path.basename)
def test_transition_fd_bitwise_equal_to_torsion_sim(client, path, centered, tmp_path):
    info, state, ctrl, _ = inputs(path, 5, 12)
    h = load(client, path)
    extra = ["--out", "P", "--eps", "1e-5"] + (["--centered"] if centered else [])
    sim(tmp_path, "transitionfd", path, state, extra, ctrl=ctrl)
    got = client.transition_fd(h, state, ctrl, eps=1e-5, centered=centered, chunk_envs=2)
    nx = 2 * info["nv"] + info["na"]
    assert got["A"].shape == (5, nx, nx) and got["B"].shape == (5, nx, info["nu"])
    assert bitwise_equal(got["A"], np.load(tmp_path / "P_A.npy"))
    assert bitwise_equal(got["B"], np.load(tmp_path / "P_B.npy"))
    assert "C" not in got


def test_transition_fd_broadcast_and_absent_controls(client, pendulum_xml, tmp_path):
    info, state, ctrl, _ = inputs(PENDULUM, 4, 13)
    h = client.load(xml=pendulum_xml).model
    held = ctrl[:1]
    sim(tmp_path, "transitionfd", PENDULUM, state, ["--out", "P"], ctrl=np.repeat(held, 4, 0))
    got = client.transition_fd(h, state, held)
    assert bitwise_equal(got["A"], np.load(tmp_path / "P_A.npy"))
    assert bitwise_equal(got["B"], np.load(tmp_path / "P_B.npy"))
    sim(tmp_path, "transitionfd", PENDULUM, state, ["--out", "Z"])
    got = client.transition_fd(h, state)
    assert bitwise_equal(got["A"], np.load(tmp_path / "Z_A.npy"))
    assert bitwise_equal(got["B"], np.load(tmp_path / "Z_B.npy"))


@pytest.mark.parametrize("actuation", [False, True], ids=["plain", "actuation"])
@pytest.mark.parametrize("path", MODEL_CASES, ids=os.path.basename)
def test_inverse_fd_bitwise_equal_to_torsion_sim(client, path, actuation, tmp_path):
    info, state, _, qacc = inputs(path, 5, 14)
    h = load(client, path)
    extra = ["--out", "P"] + (["--actuation"] if actuation else [])
    sim(tmp_path, "inversefd", path, state, extra, qacc=qacc)
    got = client.inverse_fd(h, state, qacc, actuation=actuation, chunk_envs=2)
    assert sorted(got) == ["DfDa", "DfDq", "DfDv", "DmDq"]
    for name, mat in got.items():
        assert bitwise_equal(mat, np.load(tmp_path / ("P_%s.npy" % name))), name
    # a subset of the outputs, same numbers
    some = client.inverse_fd(h, state, qacc, actuation=actuation, outputs=["DfDv"])
    assert list(some) == ["DfDv"] and bitwise_equal(some["DfDv"], got["DfDv"])


def test_other_state_spec_and_float32(client, pendulum_xml):
    _, state, ctrl, qacc = inputs(PENDULUM, 3, 15)
    h = client.load(xml=pendulum_xml).model
    # QPOS | QVEL equals FULLPHYSICS with time 0 (act and history are empty here)
    sub = state[:, 1:]
    ref = client.transition_fd(h, state, ctrl)
    assert bitwise_equal(client.transition_fd(h, sub, ctrl, spec=2 | 4)["A"], ref["A"])
    assert bitwise_equal(client.inverse(h, sub, qacc, spec=2 | 4), client.inverse(h, state, qacc))
    f32 = client.transition_fd(h, state, ctrl, output_dtype=1)
    assert f32["A"].dtype == np.float32 and np.array_equal(f32["A"], ref["A"].astype(np.float32))
    j32 = client.inverse_fd(h, state, qacc, output_dtype=1)
    j64 = client.inverse_fd(h, state, qacc)
    assert all(np.array_equal(j32[k], j64[k].astype(np.float32)) for k in j64)


def test_results_stream_in_chunks(client, pendulum_xml):
    _, state, ctrl, qacc = inputs(PENDULUM, 10, 16)
    h = client.load(xml=pendulum_xml).model
    tr = PB["TransitionFDRequest"](model=h, eps=1e-6, chunk_envs=3)
    tdclient.to_array(state, tr.state)
    tdclient.to_array(ctrl, tr.ctrl)
    parts = frames_of(client, "transition_fd", tr)
    assert len(parts) == 4 and all(p.batch == 10 for p in parts)
    spans = sorted((p.env_offset, p.env_count) for p in parts)
    assert spans == [(0, 3), (3, 3), (6, 3), (9, 1)]
    assert all(len(p.warnings) == p.env_count for p in parts)
    ir = PB["InverseRequest"](model=h, chunk_envs=4)
    tdclient.to_array(state, ir.state)
    tdclient.to_array(qacc, ir.qacc)
    assert len(frames_of(client, "inverse", ir)) == 3


# ---------------------------------------------------------------------------------------
# against MuJoCo
# ---------------------------------------------------------------------------------------

def test_transition_fd_and_inverse_match_mujoco(client, pendulum_xml):
    mujoco = pytest.importorskip("mujoco")
    info, state, ctrl, qacc = inputs(PENDULUM, 4, 17, scale=0.3)
    h = client.load(xml=pendulum_xml).model
    m = mujoco.MjModel.from_xml_path(PENDULUM)
    d = mujoco.MjData(m)
    nx = 2 * m.nv + m.na
    for centered in (False, True):
        got = client.transition_fd(h, state, ctrl, eps=1e-6, centered=centered)
        for b in range(4):
            mujoco.mj_resetData(m, d)
            mujoco.mj_setState(m, d, state[b], mujoco.mjtState.mjSTATE_FULLPHYSICS)
            d.ctrl[:] = ctrl[b]
            A = np.zeros((nx, nx))
            Bm = np.zeros((nx, m.nu))
            mujoco.mjd_transitionFD(m, d, 1e-6, centered, A, Bm, None, None)
            assert np.max(np.abs(got["A"][b] - A)) < 1e-6
            assert np.max(np.abs(got["B"][b] - Bm)) < 1e-6
    qfrc = client.inverse(h, state, qacc)
    for b in range(4):
        mujoco.mj_resetData(m, d)
        mujoco.mj_setState(m, d, state[b], mujoco.mjtState.mjSTATE_FULLPHYSICS)
        d.qacc[:] = qacc[b]
        mujoco.mj_inverse(m, d)
        assert np.allclose(qfrc[b], d.qfrc_inverse, rtol=1e-8, atol=1e-10)


# ---------------------------------------------------------------------------------------
# bad input: a clear Error, and the daemon keeps serving
# ---------------------------------------------------------------------------------------

def expect_error(name, fn, *args, **kwargs):
    with pytest.raises(ServerError) as e:
        fn(*args, **kwargs)
    assert e.value.code == code(name), e.value
    assert e.value.message
    return e.value


def test_bad_shapes_and_arguments(client, pendulum_xml):
    h = client.load(xml=pendulum_xml).model
    s, q, u = np.zeros((2, 9)), np.zeros((2, 4)), np.zeros((2, 2))
    # wrong state size, qacc and ctrl shapes
    expect_error("ERROR_BAD_SHAPE", client.transition_fd, h, np.zeros((2, 8)), u)
    expect_error("ERROR_BAD_SHAPE", client.inverse, h, np.zeros((2, 10)), q)
    expect_error("ERROR_BAD_SHAPE", client.inverse_fd, h, s, np.zeros((2, 3)))
    expect_error("ERROR_BAD_SHAPE", client.inverse, h, s, np.zeros((3, 4)))
    expect_error("ERROR_BAD_SHAPE", client.transition_fd, h, s, np.zeros((3, 2)))
    expect_error("ERROR_BAD_SHAPE", client.transition_fd, h, s, np.zeros((2, 3)))
    # eps <= 0 or not finite
    for eps in (0.0, -1e-6, float("nan"), float("inf")):
        err = expect_error("ERROR_INVALID_ARGUMENT", client.transition_fd, h, s, u, eps=eps)
        assert "eps" in err.message
        expect_error("ERROR_INVALID_ARGUMENT", client.inverse_fd, h, s, q, eps=eps)
    # empty batch, bad spec, unknown outputs, unknown model
    expect_error("ERROR_INVALID_ARGUMENT", client.inverse, h, np.zeros((0, 9)), np.zeros((0, 4)))
    expect_error("ERROR_INVALID_ARGUMENT", client.transition_fd, h, s, u, spec=1 << 20)
    ir = PB["InverseFDRequest"](model=h, eps=1e-6, outputs=1 << 7)
    tdclient.to_array(s, ir.state)
    tdclient.to_array(q, ir.qacc)
    expect_error("ERROR_INVALID_ARGUMENT", client.call, client.request(inverse_fd=ir))
    expect_error("ERROR_MODEL_NOT_FOUND", client.inverse, "0" * 64, s, q)
    # sensors on a model without any
    err = expect_error("ERROR_INVALID_ARGUMENT", client.transition_fd, h, s, u, sensors=True)
    assert "no sensors" in err.message
    expect_error("ERROR_INVALID_ARGUMENT", client.inverse_fd, h, s, q, outputs=["DsDq"])
    assert client.health().serving


def test_model_without_actuators_has_an_empty_B(client, tmp_path):
    h = client.load(xml=NO_ACTUATORS).model
    state = np.zeros((3, 3))
    state[:, 1] = [0.1, 0.5, -1.0]
    got = client.transition_fd(h, state, centered=True)
    assert got["A"].shape == (3, 2, 2) and got["B"].shape == (3, 2, 0)
    path = tmp_path / "free.xml"
    path.write_text(NO_ACTUATORS)
    sim(tmp_path, "transitionfd", str(path), state, ["--out", "P", "--centered"])
    assert bitwise_equal(got["A"], np.load(tmp_path / "P_A.npy"))
    # controls given for a model without actuators must be [B or 1, 0]
    got0 = client.transition_fd(h, state, np.zeros((1, 0)), centered=True)
    assert bitwise_equal(got0["A"], got["A"])


def test_sensors_unevaluated_or_served(client, tmp_path):
    """C, D and the sensor Jacobians on a model with sensors: ERROR_UNIMPLEMENTED with a
    message while the engine does not evaluate its sensors; once it does, the right shapes,
    C and D within 1e-6 of MuJoCo's, and bitwise torsion-sim's when it writes them."""
    h = client.load(xml=WITH_SENSOR).model
    s, u, q = np.zeros((2, 3)), np.array([[0.3], [-0.2]]), np.zeros((2, 1))
    s[:, 1:] = [[0.2, -0.5], [1.1, 0.4]]
    try:
        got = client.transition_fd(h, s, u, sensors=True)
    except ServerError as e:
        assert e.code == code("ERROR_UNIMPLEMENTED") and "sensors" in e.message, e
        got = None
    if got is not None:
        assert got["C"].shape == (2, 2, 2) and got["D"].shape == (2, 2, 1)
        path = tmp_path / "sensed.xml"
        path.write_text(WITH_SENSOR)
        sim(tmp_path, "transitionfd", str(path), s, ["--out", "P"], ctrl=u)
        for name in "ABCD":
            ref = tmp_path / ("P_%s.npy" % name)
            assert not ref.exists() or bitwise_equal(got[name], np.load(ref)), name
        mujoco = pytest.importorskip("mujoco")
        m = mujoco.MjModel.from_xml_string(WITH_SENSOR)
        d = mujoco.MjData(m)
        for b in range(2):
            mujoco.mj_resetData(m, d)
            mujoco.mj_setState(m, d, s[b], mujoco.mjtState.mjSTATE_FULLPHYSICS)
            d.ctrl[:] = u[b]
            A, Bm, C, D = np.zeros((2, 2)), np.zeros((2, 1)), np.zeros((2, 2)), np.zeros((2, 1))
            mujoco.mjd_transitionFD(m, d, 1e-6, False, A, Bm, C, D)
            for name, ref in zip("ABCD", (A, Bm, C, D)):
                assert np.max(np.abs(got[name][b] - ref)) < 1e-6, name
    try:
        got = client.inverse_fd(h, s, q, outputs=["DsDq", "DsDv", "DsDa"])
        assert sorted(got) == ["DsDa", "DsDq", "DsDv"] and got["DsDq"].shape == (2, 1, 2)
    except ServerError as e:
        assert e.code == code("ERROR_UNIMPLEMENTED"), e
    # without sensor outputs the model is served
    assert client.transition_fd(h, s, u)["B"].shape == (2, 2, 1)
    assert client.health().serving


def test_rk4_is_refused(client):
    h = client.load(xml=RK4).model
    err = expect_error("ERROR_INVALID_ARGUMENT", client.transition_fd, h, np.zeros((1, 3)))
    assert "RK4" in err.message
    expect_error("ERROR_INVALID_ARGUMENT", client.inverse_fd, h, np.zeros((1, 3)), np.zeros((1, 1)))
    assert client.inverse(h, np.zeros((1, 3)), np.zeros((1, 1))).shape == (1, 1)


def test_limits_are_respected(pendulum_xml):
    d = Daemon("--max-batch", "8", "--max-batch-steps", "2000", "--max-output-bytes", "4k")
    try:
        with d.client() as c:
            h = c.load(xml=pendulum_xml).model
            expect_error("ERROR_LIMIT_EXCEEDED", c.inverse, h, np.zeros((9, 9)), np.zeros((9, 4)))
            # 8 items x (1 + 2 * (8 + 2)) evaluations fit; 8 x 4k output bytes do not
            err = expect_error("ERROR_LIMIT_EXCEEDED", c.transition_fd, h, np.zeros((8, 9)),
                               centered=True)
            assert "max_output_bytes" in err.message
            assert c.transition_fd(h, np.zeros((4, 9)))["A"].shape == (4, 8, 8)
            # InverseFD: 2 x (1 + 3 * 4) evaluations and 2 x 704 output bytes fit
            assert c.inverse_fd(h, np.zeros((2, 9)), np.zeros((2, 4)))["DfDq"].shape == (2, 4, 4)
            assert c.health().serving
        d2 = Daemon("--max-batch-steps", "100")
        try:
            with d2.client() as c:
                h = c.load(xml=pendulum_xml).model
                # 10 items x (1 + 8 + 2) forward-difference evaluations > 100
                err = expect_error("ERROR_LIMIT_EXCEEDED", c.transition_fd, h, np.zeros((10, 9)))
                assert "max_batch_steps" in err.message
        finally:
            rc2, log2 = d2.stop()
        assert rc2 == 0, log2
    finally:
        rc, log = d.stop()
    assert rc == 0, log


# ---------------------------------------------------------------------------------------
# cancellation and deadlines mid-request
# ---------------------------------------------------------------------------------------

def big_fd_request(client, h, B=65536):
    tr = PB["TransitionFDRequest"](model=h, eps=1e-6, centered=True, chunk_envs=256)
    tdclient.to_array(np.zeros((B, 9)), tr.state)
    return client.request(transition_fd=tr)


def test_deadline_and_cancel_mid_request(client, pendulum_xml):
    h = client.load(xml=pendulum_xml).model
    req = big_fd_request(client, h)
    req.deadline_ms = 40
    t0 = time.time()
    expect_error("ERROR_DEADLINE_EXCEEDED", client.call, req)
    assert time.time() - t0 < 5

    # cancel: the target ends with CANCELLED (after some streamed frames, maybe)
    big = big_fd_request(client, h)
    client.send(big)
    time.sleep(0.1)
    cancel = client.request(cancel=PB["CancelRequest"](target_id=big.id))
    client.send(cancel)
    seen = {}
    while len(seen) < 2:
        r = client.recv()
        if r.final:
            seen[r.id] = r
    assert seen[big.id].error.code == code("ERROR_CANCELLED")
    assert seen[cancel.id].cancel.found

    # an InverseFD on a closed connection is cancelled too; the daemon stays healthy
    ir = PB["InverseFDRequest"](model=h, eps=1e-6)
    tdclient.to_array(np.zeros((65536, 9)), ir.state)
    tdclient.to_array(np.zeros((65536, 4)), ir.qacc)
    with tdclient.Client(client.sock.getpeername()) as other:
        other.send(other.request(inverse_fd=ir))
        time.sleep(0.05)
    deadline = time.time() + 10
    while client.stats().inflight_requests and time.time() < deadline:
        time.sleep(0.05)
    assert client.stats().inflight_requests == 0
    assert client.inverse(h, np.zeros((1, 9)), np.zeros((1, 4))).shape == (1, 4)


def test_stats_name_the_new_kinds(client, pendulum_xml):
    h = client.load(xml=pendulum_xml).model
    client.inverse(h, np.zeros((1, 9)), np.zeros((1, 4)))
    client.transition_fd(h, np.zeros((1, 9)))
    client.inverse_fd(h, np.zeros((1, 9)), np.zeros((1, 4)))
    names = {hist.request for hist in client.stats().latency}
    assert {"inverse", "transition_fd", "inverse_fd"} <= names


# ---------------------------------------------------------------------------------------
# the C client through the CLI, and the bench mix
# ---------------------------------------------------------------------------------------

def cli(daemon, *args):
    out = subprocess.run([TORSION_CLI, "--socket", daemon.sock] + [str(a) for a in args],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out


def test_cli_outputs_equal_torsion_sim(daemon, tmp_path):
    _, state, ctrl, qacc = inputs(PENDULUM, 6, 18)
    sim(tmp_path, "inverse", PENDULUM, state, ["--out", "ref.npy"], qacc=qacc)
    sim(tmp_path, "transitionfd", PENDULUM, state, ["--out", "R", "--centered", "--eps", "2e-6"],
        ctrl=ctrl)
    sim(tmp_path, "inversefd", PENDULUM, state, ["--out", "RI", "--actuation"], qacc=qacc)
    s, c, q = tmp_path / "s.npy", tmp_path / "c.npy", tmp_path / "q.npy"
    cli(daemon, "inverse", PENDULUM, "--state", s, "--qacc", q, "--out", tmp_path / "got.npy")
    assert bitwise_equal(np.load(tmp_path / "got.npy"), np.load(tmp_path / "ref.npy"))
    cli(daemon, "transitionfd", PENDULUM, "--state", s, "--ctrl", c, "--centered", "--eps", "2e-6",
        "--chunk-envs", "4", "--out", tmp_path / "G")
    for m in "AB":
        assert bitwise_equal(np.load(tmp_path / ("G_%s.npy" % m)),
                             np.load(tmp_path / ("R_%s.npy" % m)))
    cli(daemon, "inversefd", PENDULUM, "--state", s, "--qacc", q, "--actuation", "--out",
        tmp_path / "GI")
    for m in ("DfDq", "DfDv", "DfDa", "DmDq"):
        assert bitwise_equal(np.load(tmp_path / ("GI_%s.npy" % m)),
                             np.load(tmp_path / ("RI_%s.npy" % m))), m


def test_cli_reports_errors(daemon, tmp_path):
    np.save(tmp_path / "s.npy", np.zeros((2, 9)))
    s = tmp_path / "s.npy"
    out = subprocess.run([TORSION_CLI, "--socket", daemon.sock, "inversefd", PENDULUM, "--state",
                          s, "--qacc", s, "--out", tmp_path / "X"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "accelerations must be" in out.stderr


def test_cli_bench_mix_with_fd_kinds(daemon):
    out = cli(daemon, "bench", "--model", PENDULUM, "--duration", "1", "--connections", "2",
              "--batch", "4", "--nstep", "10", "--fd-batch", "8",
              "--mix", "rollout=1,transitionfd=2,inverse=1,inversefd=1", "--json")
    r = json.loads(out.stdout)
    assert r["errors"] == 0 and r["fd_batch"] == 8 and r["mix"]["transitionfd"] == 2
    for k in ("transition_fd", "inverse", "inverse_fd", "all"):
        lat = r["latency_us"][k]
        assert lat["count"] > 0 and 0 < lat["p50"] <= lat["max"]
