"""TorsionEnv: one environment of a task as a gymnasium.Env, for Gymnasium's env checker.

torsion.gym.make(env_id) returns it wrapped in Gymnasium's OrderEnforcing and TimeLimit
wrappers, as gymnasium.make does for the MuJoCo tasks.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from .runner import EpisodeRunner
from .task import Task

_ONE = np.zeros(1, dtype=np.int64)


class TorsionEnv(gym.Env):
    """A single environment running a task on a batch of size one (no time limit here)."""

    def __init__(self, task: Task, batch: Any, env_id: str | None = None):
        if int(batch.n) != 1:
            raise ValueError(f"TorsionEnv needs a batch of one environment, got {batch.n}")
        self.task = task
        self.batch = batch
        self.env_id = env_id
        self.runner = EpisodeRunner(task, batch, None)
        self.action_space = task.action_space
        self.observation_space = task.observation_space
        self.render_mode = None
        self.metadata = {"render_modes": [], "render_fps": int(np.round(1.0 / task.dt))}

    @property
    def dt(self) -> float:
        """Simulated time of one environment step."""
        return self.task.dt

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Reset the environment; a seed reseeds its generator."""
        super().reset(seed=seed)
        obs, info = self.runner.reset(_ONE, [seed])
        self._np_random = self.runner.np_random[0]
        self._np_random_seed = self.runner.np_random_seed[0]
        return obs[0], {key: value[0] for key, value in info.items()}

    def step(self, action: Any):
        """Apply one action [nu] for frame_skip simulation steps."""
        action = np.asarray(action)
        if action.shape != (self.task.nu,):
            raise ValueError(f"Action dimension mismatch. Expected {(self.task.nu,)}, "
                             f"found {action.shape}")
        if not np.issubdtype(action.dtype, np.floating):
            action = action.astype(np.float64)
        obs, rew, term, _, info = self.runner.step(_ONE, action[None])
        return obs[0], self.task.REWARD_TYPE(rew[0]), bool(term[0]), False, \
            {key: value[0] for key, value in info.items()}

    def close(self) -> None:
        """Release the batch (its close(), when it has one)."""
        close = getattr(self.batch, "close", None)
        if callable(close):
            close()
