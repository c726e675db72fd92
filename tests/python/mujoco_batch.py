"""A SimBatch over mujoco.MjData objects, for testing torsion.gym against Gymnasium.

Implements the SimBatch contract (model, n, reset, step, get) with MuJoCo's Python bindings,
doing per environment exactly what Gymnasium's MujocoEnv does: reset = mj_resetData, set
qpos/qvel, mj_forward; step = set ctrl, mj_step nstep times, mj_rnePostConstraint. Tests only:
the torsion package itself never imports mujoco.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import mujoco
import numpy as np


class MujocoSimBatch:
    """n environments of one model, each an mujoco.MjData."""

    def __init__(self, model: mujoco.MjModel, n: int):
        self.model = model
        self.n = int(n)
        self.datas = [mujoco.MjData(model) for _ in range(self.n)]
        self.calls = {"reset": 0, "step": 0, "get": 0}

    def _ids(self, env_ids: Iterable[int] | None) -> Sequence[int]:
        """The listed environments, or all of them."""
        return range(self.n) if env_ids is None else [int(i) for i in env_ids]

    def reset(self, env_ids, qpos: np.ndarray, qvel: np.ndarray) -> None:
        """Per listed env: mj_resetData, set qpos [k, nq] and qvel [k, nv], mj_forward."""
        self.calls["reset"] += 1
        ids = self._ids(env_ids)
        assert qpos.shape == (len(ids), self.model.nq) and qvel.shape == (len(ids), self.model.nv)
        for row, i in enumerate(ids):
            data = self.datas[i]
            mujoco.mj_resetData(self.model, data)
            data.qpos[:] = qpos[row]
            data.qvel[:] = qvel[row]
            mujoco.mj_forward(self.model, data)

    def step(self, ctrl: np.ndarray, nstep: int, env_ids=None,
             rne_post_constraint: bool = False) -> None:
        """Per listed env: set ctrl [k, nu], mj_step nstep times, mj_rnePostConstraint when
        asked."""
        self.calls["step"] += 1
        ids = self._ids(env_ids)
        assert ctrl.shape == (len(ids), self.model.nu) and ctrl.dtype == np.float64
        for row, i in enumerate(ids):
            data = self.datas[i]
            data.ctrl[:] = ctrl[row]
            mujoco.mj_step(self.model, data, nstep=nstep)
            if rne_post_constraint:
                mujoco.mj_rnePostConstraint(self.model, data)

    def get(self, names: Sequence[str], env_ids=None) -> dict[str, np.ndarray]:
        """name -> float64 array [k, *field shape], copies of the listed envs' mjData fields."""
        self.calls["get"] += 1
        ids = self._ids(env_ids)
        out = {}
        for name in names:
            out[name] = np.ascontiguousarray(
                np.stack([np.array(getattr(self.datas[i], name), dtype=np.float64)
                          for i in ids]))
        return out


def mujoco_backend(xml_path: str, num_envs: int) -> MujocoSimBatch:
    """Batch factory for torsion.gym.make_vec(..., backend=mujoco_backend)."""
    return MujocoSimBatch(mujoco.MjModel.from_xml_path(xml_path), num_envs)

