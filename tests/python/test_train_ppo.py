"""The PPO example (clients/examples/train_ppo) on Torsion: Stable-Baselines3 trains
InvertedPendulum-v5 on torsion.gym to the task's maximum return (1000: balanced for the
whole 1000-step episode), judged by a deterministic evaluation on fresh environments."""

from __future__ import annotations

import os
import sys

_EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients",
                        "examples", "train_ppo")
sys.path.insert(0, _EXAMPLE)

import train_ppo  # noqa: E402


def test_ppo_balances_the_pendulum():
    """40,000 environment steps of PPO on 8 Torsion environments reach the maximum return."""
    result = train_ppo.train("InvertedPendulum-v5", "torsion", timesteps=40_000, num_envs=8,
                             seed=0, eval_episodes=4)
    assert result["eval_return"] == 1000.0
    # the learning curve rose from short episodes to long ones
    first, last = result["curve"][0][1], result["curve"][-1][1]
    assert first < 100 < last
