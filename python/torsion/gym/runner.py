"""Episode bookkeeping over a SimBatch: seeded resets, stepping and time limits for env subsets.

The runner knows nothing about autoreset; it resets or steps the listed environments and
returns per-environment arrays. TorsionVectorEnv (vector_env.py) and TorsionEnv
(single_env.py) build Gymnasium's two APIs on it.

What the batch must provide (the SimBatch contract, see docs/python-gym.md):
  batch.model: nq, nv, nu, qpos0, opt.timestep, actuator_ctrlrange, body_mass, body(name).id
  batch.n
  batch.reset(env_ids, qpos [k, nq], qvel [k, nv])   mj_resetData, set state, mj_forward
  batch.step(ctrl [k, nu], nstep, env_ids,           set ctrl, mj_step nstep times, then
             rne_post_constraint=True,                mj_rnePostConstraint (cfrc_ext); the
             reset_ids=, reset_qpos=, reset_qvel=)   envs reset_ids reset in the same call
                                                      (optional: without these keywords,
                                                      batch.reset comes first)
  batch.get(names, env_ids) -> {name: [k, ...]}        float64 copies of mjData fields
"""

from __future__ import annotations

import inspect
from typing import Any, Sequence

import numpy as np
from gymnasium.utils import seeding

from .task import Task


class EpisodeRunner:
    """Resets and steps subsets of a batch's environments for one task."""

    def __init__(self, task: Task, batch: Any, max_episode_steps: int | None):
        self.task = task
        self.batch = batch
        self.n = int(batch.n)
        self.max_episode_steps = max_episode_steps
        self.np_random: list[np.random.Generator | None] = [None] * self.n
        self.np_random_seed: list[int | None] = [None] * self.n
        self.elapsed = np.zeros(self.n, dtype=np.int64)
        self.carry: np.ndarray | None = None
        # every field a step or a reset reads
        self.all_fields = tuple(dict.fromkeys(task.STEP_FIELDS + task.RESET_FIELDS))
        # whether batch.step takes resets along (reset_ids=...); a batch without it gets
        # batch.reset before the step
        try:
            params = inspect.signature(batch.step).parameters
        except (TypeError, ValueError):
            params = {}
        self.step_takes_resets = "reset_ids" in params

    def _ids_arg(self, ids: np.ndarray) -> np.ndarray | None:
        """The batch's env_ids argument: None when all environments are listed in order."""
        if len(ids) == self.n and np.array_equal(ids, np.arange(self.n)):
            return None
        return ids

    def reset(self, ids: np.ndarray, seeds: Sequence[int | None]) -> tuple[np.ndarray, dict]:
        """Reset the environments ``ids`` (seeding those given a seed); obs [k, d], info."""
        self.begin_reset(ids, seeds)
        return self.finish_reset(ids)

    def draw_resets(self, ids: np.ndarray, seeds: Sequence[int | None]
                    ) -> tuple[np.ndarray, np.ndarray]:
        """The reset states of ``ids``, qpos [k, nq] and qvel [k, nv], seeding the
        generators of those given a seed."""
        task = self.task
        qpos = np.empty((len(ids), task.nq))
        qvel = np.empty((len(ids), task.nv))
        # One draw per environment from its own generator, as Gymnasium's reset_model does.
        for row, (env, seed) in enumerate(zip(ids, seeds)):
            if seed is not None or self.np_random[env] is None:
                self.np_random[env], self.np_random_seed[env] = seeding.np_random(seed)
            qpos[row], qvel[row] = task.draw_reset(self.np_random[env])
        return qpos, qvel

    def begin_reset(self, ids: np.ndarray, seeds: Sequence[int | None]) -> None:
        """Draw the reset states of ``ids`` and hand them to the batch (a served batch sends
        them with its next request, so a step of other environments can carry them)."""
        qpos, qvel = self.draw_resets(ids, seeds)
        ids_arg = self._ids_arg(ids)
        self.batch.reset(ids_arg if ids_arg is not None else np.arange(self.n), qpos, qvel)

    def finish_reset(self, ids: np.ndarray) -> tuple[np.ndarray, dict]:
        """Observations [k, d] and info of the environments ``ids`` after begin_reset."""
        task = self.task
        ids_arg = self._ids_arg(ids)
        fields = self.batch.get(list(task.RESET_FIELDS), ids_arg)
        self._store_carry(ids, task.carry(fields))
        self.elapsed[ids] = 0
        return task.observe(fields), task.reset_info(fields)

    def step(self, ids: np.ndarray | None, actions: np.ndarray):
        """Step the environments ``ids`` (None: all, in order) with actions [k, nu].

        Returns obs [k, d], reward [k] float64, terminated [k], truncated [k], info.
        """
        task = self.task
        ids_arg = None if ids is None else self._ids_arg(ids)
        before = self.carry[ids] if ids_arg is not None else self.carry
        ctrl = np.ascontiguousarray(actions, dtype=np.float64)
        self.batch.step(ctrl, task.frame_skip, ids_arg, rne_post_constraint=True)
        fields = self.batch.get(task.STEP_FIELDS, ids_arg)
        reward, terminated, info = task.evaluate(before, fields, actions)
        obs = task.observe(fields)
        # every environment, in order: whole arrays instead of fancy indexing
        if ids_arg is None:
            self._store_carry(slice(None), task.carry(fields))
            self.elapsed += 1
            elapsed = self.elapsed
        else:
            self._store_carry(ids, task.carry(fields))
            self.elapsed[ids] += 1
            elapsed = self.elapsed[ids]
        if self.max_episode_steps is None:
            truncated = np.zeros(len(elapsed), dtype=bool)
        else:
            truncated = elapsed >= self.max_episode_steps
        return obs, np.asarray(reward, dtype=np.float64), np.asarray(terminated, dtype=bool), \
            truncated, info

    def step_resetting(self, actions: np.ndarray, reset: np.ndarray):
        """Reset the environments where ``reset`` [n] is set (drawing their states as
        begin_reset does) and step the others with their rows of actions [n, nu]; then read
        and evaluate every row at once instead of the two groups apart.

        Returns obs [n, d] (a reset row: its first observation), reward [n], terminated [n],
        truncated [n] and the step info [n] (reset rows meaningless there), and the reset
        info [n] (meaningful on reset rows only).
        """
        task = self.task
        reset_ids, step_ids = np.flatnonzero(reset), np.flatnonzero(~reset)
        before = self.carry
        ctrl = np.ascontiguousarray(actions[step_ids], dtype=np.float64)
        if self.step_takes_resets:
            # the resets in the same call: the batch shares them out beside the steps
            qpos, qvel = self.draw_resets(reset_ids, [None] * len(reset_ids))
            self.batch.step(ctrl, task.frame_skip, step_ids, rne_post_constraint=True,
                            reset_ids=reset_ids, reset_qpos=qpos, reset_qvel=qvel)
        else:
            self.begin_reset(reset_ids, [None] * len(reset_ids))
            self.batch.step(ctrl, task.frame_skip, step_ids, rne_post_constraint=True)
        fields = self.batch.get(self.all_fields, None)
        reward, terminated, info = task.evaluate(before, fields, actions)
        reset_info = task.reset_info(fields)
        obs = task.observe(fields)
        self._store_carry(slice(None), task.carry(fields))
        self.elapsed[step_ids] += 1
        self.elapsed[reset_ids] = 0
        if self.max_episode_steps is None:
            truncated = np.zeros(self.n, dtype=bool)
        else:
            truncated = self.elapsed >= self.max_episode_steps
        return obs, np.asarray(reward, dtype=np.float64), np.asarray(terminated, dtype=bool), \
            truncated, info, reset_info

    def _store_carry(self, ids: np.ndarray | slice, values: np.ndarray) -> None:
        """Remember the quantities the next step's reward needs (positions before the step)."""
        if self.carry is None or self.carry.shape[1] != values.shape[1]:
            self.carry = np.zeros((self.n, values.shape[1]))
        self.carry[ids] = values
