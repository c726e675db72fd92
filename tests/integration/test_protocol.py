"""Requests of torsiond against the in-process engine: Hello, models, Rollout and Forward
bitwise equal to torsion-sim, recording options, cancellation, deadlines, ids."""
import os
import tempfile
import threading
import time

import numpy as np
import pytest

import torsion_client as tdclient
from daemon_util import (PENDULUM, bitwise_equal, engine_loads, gym_model, random_states, sim_forward,
                      sim_info, sim_rollout)
from torsion_client import PB, ServerError, code


def model_cases():
    """Models the engine loads now: Torsion's own and gymnasium's easy ones."""
    cases = [PENDULUM]
    for name in ("inverted_pendulum.xml", "hopper.xml", "half_cheetah.xml"):
        path = gym_model(name)
        if engine_loads(path):
            cases.append(path)
    return cases


MODEL_CASES = model_cases()


def test_hello_reports_version_workers_and_limits(client):
    h = client.hello()
    assert h.protocol_version == 1 and h.mujoco_version == 3014
    assert h.workers == 2
    assert h.limits.max_frame_bytes > 0 and h.limits.max_batch > 0


def test_load_is_content_addressed(client, pendulum_xml):
    a = client.load(xml=pendulum_xml)
    b = client.load(xml=pendulum_xml)
    assert a.model == b.model and len(a.model) == 64 and b.cached
    assert a.info.nq == 4 and a.info.nu == 2 and a.info.nstate_fullphysics == 9
    assert list(a.info.actuator_names)[:1] and len(a.info.state_component_sizes) == 14
    c = client.load(xml=pendulum_xml.replace('timestep="0.002"', 'timestep="0.001"'))
    assert c.model != a.model and c.info.timestep == 0.001


def test_bad_model_is_an_error_not_a_crash(client):
    with pytest.raises(ServerError) as e:
        client.load(xml="<mujoco><worldbody><body><joint type='nonsense'/></body></worldbody></mujoco>")
    assert e.value.code == code("ERROR_MODEL_LOAD_FAILED")
    with pytest.raises(ServerError) as e:
        client.info("0" * 64)
    assert e.value.code == code("ERROR_MODEL_NOT_FOUND")


@pytest.mark.parametrize("path", MODEL_CASES, ids=os.path.basename)
def test_rollout_bitwise_equal_to_torsion_sim(client, path, tmp_path):
    info = sim_info(path)
    rng = np.random.default_rng(7)
    B, N = 6, 150
    state = random_states(info, B, rng, scale=0.05)
    ctrl = 0.5 * rng.standard_normal((B, N, info["nu"]))
    with open(path) as f:
        handle = client.load(xml=f.read(), assets=_assets_of(path)).model
    ref = sim_rollout(path, state, ctrl, N, str(tmp_path), threads=2)
    got, _, warnings, frames = client.rollout(handle, state, N, ctrl, chunk_envs=2)
    assert bitwise_equal(got, ref)
    assert len(frames) == 3 and frames[-1].final and not any(f.final for f in frames[:-1])
    assert warnings.shape == (B,)


def _assets_of(path):
    """The files next to a gymnasium model that it may include (none for these models)."""
    return {}


def test_rollout_broadcast_controls_and_no_controls(client, pendulum_xml, tmp_path):
    info = sim_info(PENDULUM)
    rng = np.random.default_rng(1)
    B, N = 5, 40
    state = random_states(info, B, rng)
    handle = client.load(xml=pendulum_xml).model
    held = rng.standard_normal((1, 1, 2))
    ref = sim_rollout(PENDULUM, state, np.repeat(np.repeat(held, B, 0), 1, 1), N, str(tmp_path))
    got = client.rollout(handle, state, N, held)[0]
    assert bitwise_equal(got, ref)
    ref0 = sim_rollout(PENDULUM, state, None, N, str(tmp_path))
    assert bitwise_equal(client.rollout(handle, state, N)[0], ref0)


def test_rollout_record_every_final_only_and_float32(client, pendulum_xml):
    info = sim_info(PENDULUM)
    rng = np.random.default_rng(2)
    B, N = 4, 25
    state = random_states(info, B, rng)
    ctrl = rng.standard_normal((B, N, 2))
    h = client.load(xml=pendulum_xml).model
    full = client.rollout(h, state, N, ctrl)[0]
    every, _, _, frames = client.rollout(h, state, N, ctrl, record_every=10)
    first = [f for f in frames if f.rollout.env_offset == 0][0]
    assert list(first.rollout.steps) == [10, 20, 25]
    assert bitwise_equal(every, full[:, [9, 19, 24]])
    final = client.rollout(h, state, N, ctrl, final_only=True)[0]
    assert bitwise_equal(final, full[:, -1:])
    f32 = client.rollout(h, state, N, ctrl, output_dtype=1)[0]
    assert f32.dtype == np.float32 and np.array_equal(f32, full.astype(np.float32))


def test_rollout_other_state_spec(client, pendulum_xml):
    h = client.load(xml=pendulum_xml).model
    spec = 2 | 4  # QPOS | QVEL
    state = np.zeros((2, 8))
    state[:, 0] = 0.3
    got = client.rollout(h, state, 10, spec=spec)[0]
    assert got.shape == (2, 10, 8)
    full = np.zeros((2, 9))
    full[:, 1] = 0.3
    ref = client.rollout(h, full, 10)[0]
    assert bitwise_equal(got, ref[:, :, 1:])


def test_forward_bitwise_equal_to_torsion_sim(client, pendulum_xml, tmp_path):
    info = sim_info(PENDULUM)
    rng = np.random.default_rng(3)
    state = random_states(info, 9, rng)
    ctrl = rng.standard_normal((9, 2))
    h = client.load(xml=pendulum_xml).model
    assert bitwise_equal(client.forward(h, state, ctrl), sim_forward(PENDULUM, state, ctrl, str(tmp_path)))


def test_divergence_is_reported_per_environment(client, pendulum_xml):
    h = client.load(xml=pendulum_xml).model
    state = np.zeros((3, 9))
    state[1, 5] = 1e12  # an absurd velocity in item 1 only
    _, _, warnings, _ = client.rollout(h, state, 5)
    assert warnings[0] == 0 and warnings[2] == 0 and warnings[1] != 0


def test_wrong_shapes_are_rejected_and_connection_stays(client, pendulum_xml):
    h = client.load(xml=pendulum_xml).model
    cases = [
        (np.zeros((2, 8)), None),            # nstate wrong
        (np.zeros((2, 9)), np.zeros((3, 5, 2))),  # ctrl batch wrong
        (np.zeros((2, 9)), np.zeros((2, 5, 3))),  # ctrl nu wrong
    ]
    for state, ctrl in cases:
        with pytest.raises(ServerError) as e:
            client.rollout(h, state, 5, ctrl)
        assert e.value.code == code("ERROR_BAD_SHAPE")
    # a byte length that does not match the shape
    rr = PB["RolloutRequest"](model=h, nstep=3)
    rr.initial_state.shape.extend([2, 9])
    rr.initial_state.data = b"\0" * 100
    with pytest.raises(ServerError) as e:
        client.call(client.request(rollout=rr))
    assert e.value.code == code("ERROR_BAD_SHAPE")
    # float32 input
    rr.initial_state.data = b"\0" * (18 * 4)
    rr.initial_state.dtype = 1
    with pytest.raises(ServerError) as e:
        client.call(client.request(rollout=rr))
    assert e.value.code == code("ERROR_BAD_SHAPE")
    # limits and bad spec
    with pytest.raises(ServerError) as e:
        client.rollout(h, np.zeros((2, 9)), 10**7)
    assert e.value.code == code("ERROR_LIMIT_EXCEEDED")
    with pytest.raises(ServerError) as e:
        client.rollout(h, np.zeros((2, 9)), 3, spec=1 << 20)
    assert e.value.code == code("ERROR_INVALID_ARGUMENT")
    assert client.health().serving


def test_deadline_and_cancel(client, pendulum_xml):
    h = client.load(xml=pendulum_xml).model
    state = np.zeros((64, 9))
    req = client.request(rollout=_rollout_msg(h, state, 200000))
    req.deadline_ms = 30
    t0 = time.time()
    with pytest.raises(ServerError) as e:
        client.call(req)
    assert e.value.code == code("ERROR_DEADLINE_EXCEEDED") and time.time() - t0 < 5

    # cancel: the target ends with CANCELLED, the cancel request says found
    big = client.request(rollout=_rollout_msg(h, state, 200000))
    client.send(big)
    time.sleep(0.05)
    cancel = client.request(cancel=PB["CancelRequest"](target_id=big.id))
    client.send(cancel)
    seen = {}
    while len(seen) < 2:
        r = client.recv()
        if r.final:
            seen[r.id] = r
    assert seen[big.id].error.code == code("ERROR_CANCELLED")
    assert seen[cancel.id].cancel.found
    assert client.stats().inflight_requests == 0


def _rollout_msg(h, state, nstep):
    rr = PB["RolloutRequest"](model=h, nstep=nstep, final_only=True)
    tdclient.to_array(state, rr.initial_state)
    return rr


def test_pipelined_requests_and_duplicate_ids(client, pendulum_xml):
    h = client.load(xml=pendulum_xml).model
    state = np.zeros((4, 9))
    reqs = [client.request(rollout=_rollout_msg(h, state, 50)) for _ in range(20)]
    dup = tdclient.Request()
    dup.CopyFrom(reqs[0])
    for r in reqs:
        client.send(r)
    client.send(dup)  # same id as a request that may still be in flight
    finals = {}
    dup_errors = 0
    while len(finals) < 20:
        r = client.recv()
        if r.WhichOneof("body") == "error" and r.error.code == code("ERROR_DUPLICATE_ID"):
            dup_errors += 1
            continue
        if r.final:
            finals[r.id] = r
    assert all(f.WhichOneof("body") == "rollout" for f in finals.values())


def test_unload_keeps_running_work(client):
    xml = open(PENDULUM).read().replace('timestep="0.002"', 'timestep="0.0025"')
    h = client.load(xml=xml).model
    sid, _ = client.session(h, 2)
    client.call(client.request(unload_model=PB["UnloadModelRequest"](model=h)))
    with pytest.raises(ServerError) as e:
        client.info(h)
    assert e.value.code == code("ERROR_MODEL_NOT_FOUND")
    client.step(sid)  # the session still holds the model
    client.close_session(sid)


def test_stats_counts_requests_and_latency(client, pendulum_xml):
    h = client.load(xml=pendulum_xml).model
    client.rollout(h, np.zeros((2, 9)), 10)
    s = client.stats()
    assert s.requests_total > 0 and s.steps_total >= 20 and s.workers == 2
    names = {hist.request for hist in s.latency}
    assert "rollout" in names and "load_model" in names
    assert any(m.model == h and m.steps_served >= 20 for m in s.models)


def test_cli_rollout_bitwise_equal_to_torsion_sim(daemon, tmp_path):
    import subprocess
    from daemon_util import TORSION_CLI
    info = sim_info(PENDULUM)
    rng = np.random.default_rng(9)
    state = random_states(info, 7, rng)
    ctrl = rng.standard_normal((7, 33, 2))
    ref = sim_rollout(PENDULUM, state, ctrl, 33, str(tmp_path))
    np.save(tmp_path / "s.npy", state)
    np.save(tmp_path / "c.npy", ctrl)
    out = subprocess.run([TORSION_CLI, "--socket", daemon.sock, "rollout", PENDULUM, "--state",
                          str(tmp_path / "s.npy"), "--ctrl", str(tmp_path / "c.npy"), "--nstep", "33",
                          "--out", str(tmp_path / "d.npy")], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert bitwise_equal(np.load(tmp_path / "d.npy"), ref)
    info_out = subprocess.run([TORSION_CLI, "--socket", daemon.sock, "info", PENDULUM],
                              capture_output=True, text=True, timeout=60)
    import json
    assert json.loads(info_out.stdout)["nq"] == 4


def test_cli_bench_json(daemon):
    import json
    import subprocess
    from daemon_util import TORSION_CLI
    out = subprocess.run([TORSION_CLI, "--socket", daemon.sock, "bench", "--model", PENDULUM,
                          "--batch", "8", "--nstep", "20", "--connections", "3", "--duration", "1",
                          "--mix", "rollout=1,step=2,forward=1", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert r["errors"] == 0 and r["requests"] > 0 and r["steps_per_s"] > 0
    for k in ("rollout", "session_step", "forward", "all"):
        lat = r["latency_us"][k]
        assert 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"]
