"""Stable-Baselines3's VecEnv interface over any Gymnasium vector environment.

Stable-Baselines3 trains on its own VecEnv API (reset returns only observations; step_async /
step_wait; a finished environment is reset in the same step and its last observation travels
in info["terminal_observation"]). Gymnasium's vector environments - gymnasium.make_vec with
MuJoCo, or torsion.gym.make_vec - do the same with autoreset_mode SAME_STEP and report the
last observation in info["final_obs"]. This adapter maps one onto the other so the same PPO
run can train on either.
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv


class GymnasiumVecEnv(VecEnv):
    """A SB3 VecEnv driving a gymnasium.vector.VectorEnv made with autoreset_mode SAME_STEP."""

    def __init__(self, venv: gym.vector.VectorEnv, seed: int = 0):
        mode = venv.metadata.get("autoreset_mode")
        if mode is not None and str(getattr(mode, "value", mode)) != "SameStep":
            raise ValueError("the vector environment must use autoreset_mode SAME_STEP, got %r"
                             % (mode,))
        self.venv = venv  # before VecEnv.__init__, which asks for render_mode
        super().__init__(venv.num_envs, venv.single_observation_space,
                         venv.single_action_space)
        self._seed = seed
        self._actions = None

    def reset(self) -> np.ndarray:
        obs, _ = self.venv.reset(seed=self._seed)
        self._seed = None  # later resets continue the environments' random streams
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self):
        obs, reward, terminated, truncated, info = self.venv.step(self._actions)
        done = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        final_obs = info.get("final_obs")
        final_mask = info.get("_final_obs", np.zeros(self.num_envs, dtype=bool))
        episode = info.get("episode")
        for i in np.flatnonzero(done):
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            if final_obs is not None and final_mask[i]:
                infos[i]["terminal_observation"] = final_obs[i]
            if episode is not None and info.get("_episode", final_mask)[i]:
                infos[i]["episode"] = {"r": float(episode["r"][i]), "l": int(episode["l"][i])}
        return obs, reward.astype(np.float32), done, infos

    def close(self) -> None:
        self.venv.close()

    # SB3 calls these for wrappers and rendering; a vector env answers them as a whole
    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self.venv, attr_name, None)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list[Any]:
        return [getattr(self.venv, method_name)(*args, **kwargs)] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def seed(self, seed: int | None = None) -> Sequence[None]:
        self._seed = seed
        return [None] * self.num_envs

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
