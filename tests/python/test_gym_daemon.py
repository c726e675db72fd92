"""torsion.gym served by torsiond (backend="daemon") against the same tasks in process.

Both backends run Torsion's engine, so observations, rewards, terminations and truncations
must be equal bit for bit, autoresets included; a vector step costs one round trip."""

from __future__ import annotations

import numpy as np
import pytest

import torsion.gym as tgym
from client_daemon import daemon  # noqa: F401  (the module's torsiond)


@pytest.mark.parametrize("env_id", tgym.ENV_IDS)
def test_daemon_equals_inprocess(daemon, env_id):  # noqa: F811
    """60 vector steps of 4 envs with 20-step episodes: identical outputs."""
    ours = tgym.make_vec(env_id, 4, backend="inprocess", max_episode_steps=20)
    served = tgym.make_vec(env_id, 4, backend="daemon", socket=daemon.sock,
                           max_episode_steps=20)
    obs_a, _ = ours.reset(seed=3)
    obs_b, _ = served.reset(seed=3)
    assert np.array_equal(obs_a, obs_b)
    served.action_space.seed(3)
    ends = 0
    trips = served.batch.round_trips
    for _ in range(60):
        action = served.action_space.sample()
        out_a, out_b = ours.step(action), served.step(action)
        for a, b in zip(out_a[:4], out_b[:4]):
            assert np.array_equal(a, b)
        ends += int(np.sum(out_a[2] | out_a[3]))
    assert ends >= 8  # autoresets happened on the server
    assert served.batch.round_trips - trips == 60  # one round trip per vector step
    ours.close()
    served.close()


def test_daemon_backend_needs_an_endpoint():
    """backend="daemon" without socket or address is a clear error."""
    with pytest.raises(ValueError, match="socket"):
        tgym.make_vec("Hopper-v5", 2, backend="daemon")
