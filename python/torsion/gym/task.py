"""The task interface of torsion.gym: what one Gymnasium MuJoCo v5 task computes over a batch.

A task turns the arrays a SimBatch returns (``get``: name -> [k, *field shape]) into
observations, rewards, terminations and info entries for k environments at once, and draws
the initial state of one environment from its own random generator at reset, in the same
order and with the same distributions as Gymnasium's single-environment class, so that equal
seeds give equal episodes.

Model attributes a task may read (the whole list; the batch's ``model`` must provide them):
nq, nv, nu, qpos0, opt.timestep, actuator_ctrlrange, body_mass, body(name).id.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from gymnasium import spaces


def gymnasium_asset_dir() -> str:
    """Directory of the model files that ship with Gymnasium's MuJoCo environments."""
    import gymnasium

    return os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")


def resolve_xml_path(xml_file: str) -> str:
    """Full path of a task's model file, following Gymnasium's rules for ``xml_file``.

    A path starting with '.' or '/' is used as is, '~' is expanded, and a bare name is looked
    up among Gymnasium's MuJoCo assets.
    """
    if xml_file.startswith(".") or xml_file.startswith("/"):
        full = xml_file
    elif xml_file.startswith("~"):
        full = os.path.expanduser(xml_file)
    else:
        full = os.path.join(gymnasium_asset_dir(), xml_file)
    if not os.path.exists(full):
        raise OSError(f"model file {full} does not exist")
    return full


# Keyword arguments of Gymnasium's MujocoEnv that only concern rendering; accepted and unused.
RENDER_KWARGS = (
    "default_camera_config",
    "width",
    "height",
    "camera_id",
    "camera_name",
    "max_geom",
    "visual_options",
)


class Task:
    """Base of the vectorized tasks: parameters, spaces and the per-environment reset draw.

    Subclasses set ``DEFAULTS`` (keyword arguments with Gymnasium's defaults, including
    ``xml_file`` and ``frame_skip``), ``STEP_FIELDS``/``RESET_FIELDS`` (mjData fields read
    after a step and after a reset) and implement ``observe``, ``evaluate``, ``reset_info``
    and ``draw_reset``.
    """

    DEFAULTS: dict[str, Any] = {}
    STEP_FIELDS: tuple[str, ...] = ("qpos", "qvel")
    RESET_FIELDS: tuple[str, ...] = ("qpos", "qvel")
    # Type of the reward a single Gymnasium environment returns (InvertedPendulum: int).
    REWARD_TYPE: type = np.float64

    @classmethod
    def split_kwargs(cls, env_id: str, kwargs: dict[str, Any]) -> dict[str, Any]:
        """Task parameters: the defaults overridden by ``kwargs``; unknown names raise TypeError."""
        params = dict(cls.DEFAULTS)
        for key, value in kwargs.items():
            if key in params:
                params[key] = value
            elif key == "render_mode":
                if value is not None:
                    raise ValueError(
                        f"{env_id}: rendering is not supported (render_mode={value!r})")
            elif key not in RENDER_KWARGS:
                raise TypeError(f"{env_id}: unexpected keyword argument {key!r}")
        return params

    def __init__(self, model: Any, params: dict[str, Any]):
        self.model = model
        self.p = params
        self.nq = int(model.nq)
        self.nv = int(model.nv)
        self.nu = int(model.nu)
        self.frame_skip = int(params["frame_skip"])
        self.timestep = float(model.opt.timestep)
        self.dt = self.timestep * self.frame_skip
        # Initial state as Gymnasium records it: qpos of a fresh mjData (qpos0), zero qvel.
        self.init_qpos = np.array(model.qpos0, dtype=np.float64).ravel().copy()
        self.init_qvel = np.zeros(self.nv, dtype=np.float64)
        # Action bounds from the actuator control ranges, as float32 like Gymnasium.
        bounds = np.array(model.actuator_ctrlrange, dtype=np.float64).reshape(self.nu, 2)
        bounds = bounds.astype(np.float32)
        self.action_space = spaces.Box(low=bounds[:, 0], high=bounds[:, 1], dtype=np.float32)
        self.observation_space = spaces.Box(
            low=-np.inf, high=np.inf, shape=(self.obs_size(),), dtype=np.float64
        )

    def body_id(self, body: int | str) -> int:
        """Index of a body given by index or name."""
        if isinstance(body, (int, np.integer)):
            return int(body)
        return int(self.model.body(body).id)

    # Interface implemented by each task.
    def obs_size(self) -> int:
        """Length of one environment's observation."""
        raise NotImplementedError

    def carry(self, f: dict[str, np.ndarray]) -> np.ndarray:
        """Quantities [k, m] needed before the next step (e.g. x position); default none."""
        return np.zeros((next(iter(f.values())).shape[0], 0))

    def observe(self, f: dict[str, np.ndarray]) -> np.ndarray:
        """Observations [k, obs_size] from the fetched fields."""
        raise NotImplementedError

    def evaluate(
        self, before: np.ndarray, f: dict[str, np.ndarray], actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, dict[str, np.ndarray]]:
        """Reward [k] float64, terminated [k] bool and step info after a step."""
        raise NotImplementedError

    def reset_info(self, f: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Info entries after a reset; default none."""
        return {}

    def draw_reset(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """One environment's initial qpos [nq] and qvel [nv] drawn from ``rng``."""
        raise NotImplementedError

    # Draws shared by most tasks.
    def uniform_qpos_qvel(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """qpos and qvel both perturbed by uniform noise of half-width reset_noise_scale."""
        scale = self.p["reset_noise_scale"]
        qpos = self.init_qpos + rng.uniform(low=-scale, high=scale, size=self.nq)
        qvel = self.init_qvel + rng.uniform(low=-scale, high=scale, size=self.nv)
        return qpos, qvel

    def uniform_qpos_normal_qvel(self, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """qpos perturbed by uniform noise, qvel by scaled standard normal noise."""
        scale = self.p["reset_noise_scale"]
        qpos = self.init_qpos + rng.uniform(low=-scale, high=scale, size=self.nq)
        qvel = self.init_qvel + scale * rng.standard_normal(self.nv)
        return qpos, qvel


def ctrl_cost(weight: float, actions: np.ndarray) -> np.ndarray:
    """weight * sum of squared actions per environment, in the actions' own dtype."""
    return weight * np.square(actions).sum(axis=1)


def row_norms(vectors: np.ndarray) -> np.ndarray:
    """Euclidean norm of each row of [k, m], rounded like np.linalg.norm of one row.

    np.linalg.norm of a vector takes the square root of a dot product; a batched matmul uses
    the same dot kernel per row, so the results agree to the last bit with Gymnasium's.
    """
    return np.sqrt((vectors[:, None, :] @ vectors[:, :, None])[:, 0, 0])


def sum_squares(values: np.ndarray) -> np.ndarray:
    """Sum of the squares of each environment's entries: [k, ...] -> [k]."""
    flat = values.reshape(len(values), -1)
    return np.square(flat).sum(axis=1)


def clip(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """np.clip(values, lo, hi) as two ufunc calls (np.clip's dispatch costs more than both
    on arrays of a few environments); NaN stays NaN."""
    return np.minimum(np.maximum(values, lo), hi)
