"""Helpers for the torsion.gym tests: step-by-step comparison with Gymnasium.

run_pair drives torsion.gym.make_vec (over the MuJoCo-backed test batch) and
gymnasium.make_vec(..., vectorization_mode="sync") with the same seeds and actions and checks
observations, rewards, terminations, truncations and infos at every step.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

import torsion.gym as tgym
from mujoco_batch import mujoco_backend


RTOL = 1e-6


def rel_diff(a: Any, b: Any) -> float:
    """Largest |a - b| / max(|a|, |b|) over the entries (0 where both are equal)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    scale = np.maximum(np.abs(a), np.abs(b))
    diff = np.where(same, 0.0, np.abs(a - b) / np.where(scale > 0, scale, 1.0))
    return float(diff.max()) if diff.size else 0.0


class Tracker:
    """Largest relative difference seen, by quantity."""

    def __init__(self):
        self.worst = {"obs": 0.0, "reward": 0.0, "info": 0.0}

    def close(self, kind: str, ours: Any, theirs: Any, where: str) -> None:
        """Check ours against theirs within RTOL and record the difference."""
        d = rel_diff(ours, theirs)
        self.worst[kind] = max(self.worst[kind], d)
        assert d <= RTOL, f"{where}: {kind} differs by {d:.3g} relative"


def compare_infos(track: Tracker, ours: dict, theirs: dict, where: str) -> None:
    """Same keys, masks, dtypes and (within RTOL) values, recursively."""
    assert set(ours) == set(theirs), f"{where}: info keys differ: {set(ours) ^ set(theirs)}"
    for key, value in theirs.items():
        mine = ours[key]
        if isinstance(value, dict):
            compare_infos(track, mine, value, f"{where}.{key}")
        elif key.startswith("_"):
            assert np.array_equal(mine, value), f"{where}: mask {key} differs"
        elif key == "final_obs":
            for i, obs in enumerate(value):
                assert (obs is None) == (mine[i] is None), f"{where}: final_obs[{i}]"
                if obs is not None:
                    track.close("obs", mine[i], obs, f"{where}.final_obs[{i}]")
        else:
            assert mine.dtype == value.dtype, f"{where}: {key} dtype {mine.dtype} != {value.dtype}"
            track.close("info", mine, value, f"{where}.{key}")


def run_pair(env_id: str, num_envs: int, mode: AutoresetMode, steps: int, seed: int = 0,
             action_dtype=np.float32, backend=mujoco_backend,
             **kwargs) -> tuple[Tracker, dict[str, int]]:
    """Run both vector envs side by side (ours on `backend`: the MuJoCo test batch, or
    "inprocess" for Torsion's engine); returns the differences and episode-end counts."""
    ours = tgym.make_vec(env_id, num_envs, backend=backend, autoreset_mode=mode, **kwargs)
    theirs = gym.make_vec(env_id, num_envs, vectorization_mode="sync",
                          vector_kwargs={"autoreset_mode": mode}, **kwargs)
    track = Tracker()
    try:
        assert ours.single_observation_space == theirs.single_observation_space
        assert ours.single_action_space == theirs.single_action_space
        assert ours.observation_space == theirs.observation_space
        assert ours.action_space == theirs.action_space
        assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"]
        assert ours.metadata["render_fps"] == theirs.metadata["render_fps"]
        obs_a, info_a = ours.reset(seed=seed)
        obs_b, info_b = theirs.reset(seed=seed)
        track.close("obs", obs_a, obs_b, f"{env_id} reset")
        compare_infos(track, info_a, info_b, f"{env_id} reset")
        space = theirs.action_space
        space.seed(seed)
        ends = {"terminated": 0, "truncated": 0}
        for t in range(steps):
            where = f"{env_id} {mode.value} step {t}"
            action = space.sample().astype(action_dtype)
            out_a = ours.step(action)
            out_b = theirs.step(action)
            track.close("obs", out_a[0], out_b[0], where)
            track.close("reward", out_a[1], out_b[1], where)
            assert np.array_equal(out_a[2], out_b[2]), f"{where}: terminated differs"
            assert np.array_equal(out_a[3], out_b[3]), f"{where}: truncated differs"
            compare_infos(track, out_a[4], out_b[4], where)
            done = out_b[2] | out_b[3]
            ends["terminated"] += int(out_b[2].sum())
            ends["truncated"] += int(out_b[3].sum())
            if mode == AutoresetMode.DISABLED and done.any():
                obs_a, info_a = ours.reset(options={"reset_mask": done.copy()})
                obs_b, info_b = theirs.reset(options={"reset_mask": done.copy()})
                track.close("obs", obs_a, obs_b, where + " masked reset")
                compare_infos(track, info_a, info_b, where + " masked reset")
        return track, ends
    finally:
        ours.close()
        theirs.close()
