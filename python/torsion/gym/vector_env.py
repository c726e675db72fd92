"""TorsionVectorEnv: a gymnasium.vector.VectorEnv running one MuJoCo v5 task on a SimBatch.

Behaves like gymnasium.vector.SyncVectorEnv over gymnasium.make(env_id) environments: the
same seeding (reset(seed=s) seeds environment i with s + i), the same autoreset modes
(NEXT_STEP, SAME_STEP, DISABLED), TimeLimit truncation and info dicts with "_key" masks, but
observations and rewards are computed with numpy over all environments at once.

What the batch's ``model`` must provide beyond the SimBatch contract (all tasks together):
  nq, nv, nu            sizes
  qpos0                 initial qpos (Gymnasium's init_qpos); init_qvel is zero
  opt.timestep          dt = timestep * frame_skip
  actuator_ctrlrange    the action space bounds [nu, 2]
  body_mass             Humanoid's mass centre; Ant's and Humanoid's nbody
  body(name).id         Ant's main body, Reacher's and Pusher's bodies
Fields read with ``batch.get``: qpos, qvel, xpos, xipos, cinert, cvel, qfrc_actuator,
cfrc_ext, site_xpos, qfrc_constraint, ten_length, ten_velocity. After ``step`` they must be
what Gymnasium reads after mj_step followed by mj_rnePostConstraint (cfrc_ext).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .runner import EpisodeRunner
from .task import Task


def pack_infos(n: int, parts: list[tuple[np.ndarray, dict[str, np.ndarray]]]) -> dict[str, Any]:
    """Vector info dict from per-group infos, laid out as SyncVectorEnv lays them out.

    ``parts`` lists (env ids, info with arrays [k, ...]). Every key gets an array [n, ...]
    whose dtype is that of the lowest-indexed environment providing it, zeros elsewhere, and
    a boolean mask "_key" marking the environments that provided it.
    """
    infos: dict[str, Any] = {}
    first: dict[str, int] = {}

    # one group of every environment in order (a step without resets): each key's array is
    # a copy of the group's, every mask set
    if len(parts) == 1 and len(parts[0][0]) == n:
        # (ids are distinct and ascending, so n of them are 0..n-1)
        every = np.ones(n, dtype=np.bool_)
        for key, values in parts[0][1].items():
            infos[key] = np.array(values)
            infos["_" + key] = every.copy()
        return infos
    for ids, info in parts:
        if len(ids) == 0:
            continue
        for key, values in info.items():
            values = np.asarray(values)
            if key not in infos:
                infos[key] = np.zeros((n, *values.shape[1:]), dtype=values.dtype)
                infos["_" + key] = np.zeros(n, dtype=np.bool_)
                first[key] = int(ids[0])
            elif int(ids[0]) < first[key] and values.dtype != infos[key].dtype:
                infos[key] = infos[key].astype(values.dtype)
                first[key] = int(ids[0])
            infos[key][ids] = values
            infos["_" + key][ids] = True
    return infos


def merge_infos(reset: np.ndarray, info: dict[str, Any],
                reset_info: dict[str, Any]) -> dict[str, Any] | None:
    """pack_infos of the stepped rows of ``info`` and the reset rows of ``reset_info``
    (both [n, ...] over every environment, ``reset`` [n] marking the reset rows), built from
    the whole arrays. None when a key's arrays differ in dtype or are not [n, ...] arrays
    (pack_infos then decides)."""
    n = len(reset)
    stepped = ~reset
    groups = [(stepped, info, reset_info), (reset, reset_info, info)]
    if reset[0]:
        groups.reverse()  # keys in the order of the group holding the lowest environment
    infos: dict[str, Any] = {}
    every = np.ones(n, dtype=np.bool_)
    for rows, own, other in groups:
        for key, values in own.items():
            if key in infos:
                continue
            peer = other.get(key)
            if peer is values:
                # one array serves both (the task's step info reuses its reset entries)
                if not isinstance(values, np.ndarray) or values.shape[:1] != (n,):
                    return None
                infos[key] = values.copy()
                infos["_" + key] = every.copy()
                continue
            if (not isinstance(values, np.ndarray) or values.shape[:1] != (n,) or
                    (peer is not None and (not isinstance(peer, np.ndarray) or
                                           peer.dtype != values.dtype or
                                           peer.shape != values.shape))):
                return None
            if peer is None:
                # the group's rows, zeros (of the values' dtype) elsewhere
                rows_of = rows if values.ndim == 1 else \
                    rows.reshape((n,) + (1,) * (values.ndim - 1))
                merged = np.where(rows_of, values, np.zeros((), dtype=values.dtype))
                mask = rows.copy()
            else:
                # the key is in both: the reset rows from reset_info, the others from info
                rows_of = reset if values.ndim == 1 else \
                    reset.reshape((n,) + (1,) * (values.ndim - 1))
                merged = np.where(rows_of, reset_info[key], info[key])
                mask = every.copy()
            infos[key] = merged
            infos["_" + key] = mask
    return infos


def _take(stored: np.ndarray, new: Any) -> np.ndarray:
    """``new`` itself when it is an array like ``stored`` (shape and dtype), else ``stored``
    with ``new`` written into it (broadcast and cast)."""
    if isinstance(new, np.ndarray) and new.shape == stored.shape and new.dtype == stored.dtype:
        return new
    stored[...] = new
    return stored


class TorsionVectorEnv(VectorEnv):
    """Vector environment of ``num_envs`` copies of one task, stepped together on a SimBatch."""

    def __init__(self, task: Task, batch: Any, max_episode_steps: int | None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 env_id: str | None = None):
        super().__init__()
        self.task = task
        self.batch = batch
        self.runner = EpisodeRunner(task, batch, max_episode_steps)
        self.num_envs = self.runner.n
        self.autoreset_mode = (autoreset_mode if isinstance(autoreset_mode, AutoresetMode)
                               else AutoresetMode(autoreset_mode))
        self.env_id = env_id
        self.max_episode_steps = max_episode_steps
        self.render_mode = None
        self.metadata = {
            "render_modes": [],
            "render_fps": int(np.round(1.0 / task.dt)),
            "autoreset_mode": self.autoreset_mode,
        }
        self.single_action_space = task.action_space
        self.action_space = batch_space(task.action_space, self.num_envs)
        self.single_observation_space = task.observation_space
        self.observation_space = batch_space(task.observation_space, self.num_envs)
        n, d = self.num_envs, task.observation_space.shape[0]
        self._observations = np.zeros((n, d), dtype=np.float64)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminations = np.zeros(n, dtype=np.bool_)
        self._truncations = np.zeros(n, dtype=np.bool_)
        self._autoreset_envs = np.zeros(n, dtype=np.bool_)
        self._all = np.arange(n)

    @property
    def dt(self) -> float:
        """Simulated time of one environment step (timestep * frame_skip)."""
        return self.task.dt

    @property
    def np_random(self) -> tuple:
        """Each environment's generator (None before its first reset), like SyncVectorEnv."""
        return tuple(self.runner.np_random)

    @property
    def np_random_seed(self) -> tuple[int | None, ...]:
        """Seed of each environment's generator (None before its first reset)."""
        return tuple(self.runner.np_random_seed)

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset all environments, or those in options["reset_mask"]; seed i gets seed + i."""
        n = self.num_envs
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = list(seed)
        if len(seeds) != n:
            raise ValueError(f"If seeds are passed as a list the length must match "
                             f"num_envs={n} but got length={len(seeds)}.")
        mask = None if options is None else options.get("reset_mask")
        if mask is not None:
            if not isinstance(mask, np.ndarray):
                raise TypeError(f"`options['reset_mask']` must be a numpy array, got {type(mask)}")
            if mask.shape != (n,):
                raise ValueError(f"`options['reset_mask']` must have shape `({n},)`, "
                                 f"got {mask.shape}")
            if mask.dtype != np.bool_:
                raise TypeError(f"`options['reset_mask']` must have `dtype=np.bool_`, "
                                f"got {mask.dtype}")
            if not np.any(mask):
                raise ValueError("`options['reset_mask']` must contain at least one True value")
            ids = np.flatnonzero(mask)
        else:
            ids = self._all
        self._terminations[ids] = False
        self._truncations[ids] = False
        self._autoreset_envs[ids] = False
        obs, info = self.runner.reset(ids, [seeds[i] for i in ids])
        self._observations[ids] = obs
        return self._observations.copy(), pack_infos(n, [(ids, info)])

    def _check_actions(self, actions: Any) -> np.ndarray:
        """Actions as an array [num_envs, nu]; a wrong shape raises ValueError."""
        actions = np.asarray(actions)
        expected = (self.num_envs, self.task.nu)
        if actions.shape != expected:
            raise ValueError(f"{self.env_id}: actions must have shape {expected}, "
                             f"got {actions.shape}")
        if actions.dtype.kind != "f":
            if not np.issubdtype(actions.dtype, np.number):
                raise TypeError(f"{self.env_id}: actions must be numeric, got {actions.dtype}")
            actions = actions.astype(np.float64)
        return actions

    def step(self, actions: Any):
        """Step every environment (or reset those that ended, by the autoreset mode)."""
        actions = self._check_actions(actions)
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            infos = self._step_next(actions)
        elif self.autoreset_mode == AutoresetMode.SAME_STEP:
            infos = self._step_same(actions)
        elif self.autoreset_mode == AutoresetMode.DISABLED:
            infos = self._step_disabled(actions)
        else:
            raise ValueError(f"Unexpected autoreset mode, {self.autoreset_mode}")
        self._autoreset_envs = np.logical_or(self._terminations, self._truncations)
        return (self._observations.copy(), self._rewards.copy(), self._terminations.copy(),
                self._truncations.copy(), infos)

    def _step_next(self, actions: np.ndarray) -> dict[str, Any]:
        """NEXT_STEP: environments that ended last step are reset (reward 0), others step.
        The resets are staged first so that a served batch sends them with the step: one
        round trip per vector step."""
        if not self._autoreset_envs.any():
            obs, rew, term, trunc, info = self.runner.step(None, actions)
            self._store(None, obs, rew, term, trunc)
            return pack_infos(self.num_envs, [(self._all, info)])
        reset = self._autoreset_envs
        if not reset.all():
            obs, rew, term, trunc, info, reset_info = self.runner.step_resetting(actions, reset)
            rew[reset] = 0.0
            term[reset] = False
            trunc[reset] = False
            self._store(None, obs, rew, term, trunc)
            merged = merge_infos(reset, info, reset_info)
            if merged is not None:
                return merged
            step_ids, reset_ids = np.flatnonzero(~reset), np.flatnonzero(reset)
            parts = [(step_ids, {key: value[step_ids] for key, value in info.items()}),
                     (reset_ids, {key: value[reset_ids] for key, value in reset_info.items()})]
            return pack_infos(self.num_envs, sorted(parts, key=lambda part: part[0][0]))
        reset_ids = np.flatnonzero(self._autoreset_envs)
        step_ids = np.flatnonzero(~self._autoreset_envs)
        parts = []
        if len(reset_ids):
            self.runner.begin_reset(reset_ids, [None] * len(reset_ids))
        if len(step_ids):
            obs, rew, term, trunc, info = self.runner.step(step_ids, actions[step_ids])
            self._store(step_ids, obs, rew, term, trunc)
            parts.append((step_ids, info))
        if len(reset_ids):
            obs, info = self.runner.finish_reset(reset_ids)
            self._store(reset_ids, obs, 0.0, False, False)
            parts.append((reset_ids, info))
        return pack_infos(self.num_envs, sorted(parts, key=lambda part: part[0][0]))

    def _step_same(self, actions: np.ndarray) -> dict[str, Any]:
        """SAME_STEP: all step; those that end are reset at once, keeping final obs/info."""
        n = self.num_envs
        obs, rew, term, trunc, info = self.runner.step(None, actions)
        self._store(None, obs, rew, term, trunc)
        ended = term | trunc
        done, kept = np.flatnonzero(ended), np.flatnonzero(~ended)
        parts = [(kept, {key: value[kept] for key, value in info.items()})]
        if not len(done):
            return pack_infos(n, parts)
        final_obs = np.full(n, None, dtype=object)
        for i in done:
            final_obs[i] = obs[i].copy()
        final_info = pack_infos(n, [(done, {key: value[done] for key, value in info.items()})])
        new_obs, reset_info = self.runner.reset(done, [None] * len(done))
        self._observations[done] = new_obs
        parts.append((done, reset_info))
        parts = [part for part in parts if len(part[0])]
        infos = pack_infos(n, sorted(parts, key=lambda part: part[0][0]))
        infos.update({"final_obs": final_obs, "_final_obs": ended.copy(),
                      "final_info": final_info, "_final_info": ended.copy()})
        return infos

    def _step_disabled(self, actions: np.ndarray) -> dict[str, Any]:
        """DISABLED: all step; an ended environment must be reset by the caller first."""
        if np.any(self._autoreset_envs):
            ended = np.flatnonzero(self._autoreset_envs).tolist()
            raise RuntimeError(f"{self.env_id}: environments {ended} ended their episode; "
                               "with autoreset_mode=DISABLED reset them first with "
                               "reset(options={'reset_mask': mask})")
        obs, rew, term, trunc, info = self.runner.step(None, actions)
        self._store(None, obs, rew, term, trunc)
        return pack_infos(self.num_envs, [(self._all, info)])

    def _store(self, ids, obs, rew, term, trunc) -> None:
        """Record the latest results of the environments ``ids`` (None: all, in order). For
        all of them, arrays of the stored shape and dtype are kept as they are (the runner's
        results are fresh arrays nobody else holds; step() hands out copies)."""
        if ids is None:
            self._observations = _take(self._observations, obs)
            self._rewards = _take(self._rewards, rew)
            self._terminations = _take(self._terminations, term)
            self._truncations = _take(self._truncations, trunc)
            return
        self._observations[ids] = obs
        self._rewards[ids] = rew
        self._terminations[ids] = term
        self._truncations[ids] = trunc

    def close_extras(self, **kwargs: Any) -> None:
        """Release the batch (its close(), when it has one)."""
        close = getattr(self.batch, "close", None)
        if callable(close):
            close()
