"""Planar locomotion tasks: HalfCheetah-v5, Hopper-v5, Walker2d-v5 and Swimmer-v5, vectorized.

Each reads qpos and qvel only; forward velocity is the change of qpos[0] (Swimmer: qpos[0:2])
over one environment step divided by dt, exactly as Gymnasium's v5 classes compute it.
"""

from __future__ import annotations

import numpy as np

from .task import Task, ctrl_cost, row_norms


def _positions_and_velocities(task: Task, qpos: np.ndarray, qvel: np.ndarray, skip: int,
                              clip_qvel: bool) -> np.ndarray:
    """qpos without its first ``skip`` entries (when excluded) followed by qvel (clipped)."""
    position = qpos[:, skip:] if task.p["exclude_current_positions_from_observation"] else qpos
    velocity = np.clip(qvel, -10, 10) if clip_qvel else qvel
    return np.concatenate((position, velocity), axis=1)


class HalfCheetah(Task):
    """HalfCheetah-v5: forward reward minus control cost; never terminates."""

    DEFAULTS = dict(
        xml_file="half_cheetah.xml",
        frame_skip=5,
        forward_reward_weight=1.0,
        ctrl_cost_weight=0.1,
        reset_noise_scale=0.1,
        exclude_current_positions_from_observation=True,
    )

    def obs_size(self) -> int:
        return self.nq + self.nv - int(bool(self.p["exclude_current_positions_from_observation"]))

    def carry(self, f):
        return f["qpos"][:, 0:1].copy()

    def observe(self, f):
        return _positions_and_velocities(self, f["qpos"], f["qvel"], 1, False)

    def evaluate(self, before, f, actions):
        x_after = f["qpos"][:, 0]
        x_velocity = (x_after - before[:, 0]) / self.dt
        forward = self.p["forward_reward_weight"] * x_velocity
        ctrl = ctrl_cost(self.p["ctrl_cost_weight"], actions)
        reward = forward - ctrl
        info = {"x_position": x_after.copy(), "x_velocity": x_velocity,
                "reward_forward": forward, "reward_ctrl": -ctrl}
        return reward, np.zeros(len(reward), dtype=bool), info

    def reset_info(self, f):
        return {"x_position": f["qpos"][:, 0].copy()}

    def draw_reset(self, rng):
        return self.uniform_qpos_normal_qvel(rng)


class _Hopping(Task):
    """Shared part of Hopper and Walker2d: x velocity reward, health bonus, clipped qvel."""

    def obs_size(self) -> int:
        return self.nq + self.nv - int(bool(self.p["exclude_current_positions_from_observation"]))

    def carry(self, f):
        return f["qpos"][:, 0:1].copy()

    def observe(self, f):
        return _positions_and_velocities(self, f["qpos"], f["qvel"], 1, True)

    def healthy(self, qpos: np.ndarray, qvel: np.ndarray) -> np.ndarray:
        """Per-environment health flag [k]."""
        raise NotImplementedError

    def evaluate(self, before, f, actions):
        qpos, qvel = f["qpos"], f["qvel"]
        x_after = qpos[:, 0]
        x_velocity = (x_after - before[:, 0]) / self.dt
        healthy = self.healthy(qpos, qvel)
        forward = self.p["forward_reward_weight"] * x_velocity
        survive = healthy * float(self.p["healthy_reward"])
        ctrl = ctrl_cost(self.p["ctrl_cost_weight"], actions)
        reward = (forward + survive) - ctrl
        terminated = ~healthy & bool(self.p["terminate_when_unhealthy"])
        info = {"x_position": x_after.copy(),
                "z_distance_from_origin": qpos[:, 1] - self.init_qpos[1],
                "x_velocity": x_velocity, "reward_forward": forward, "reward_ctrl": -ctrl,
                "reward_survive": survive}
        return reward, terminated, info

    def reset_info(self, f):
        qpos = f["qpos"]
        return {"x_position": qpos[:, 0].copy(),
                "z_distance_from_origin": qpos[:, 1] - self.init_qpos[1]}

    def draw_reset(self, rng):
        return self.uniform_qpos_qvel(rng)


class Hopper(_Hopping):
    """Hopper-v5: healthy while qpos[2:], qvel, height and angle stay in their open ranges."""

    DEFAULTS = dict(
        xml_file="hopper.xml",
        frame_skip=4,
        forward_reward_weight=1.0,
        ctrl_cost_weight=0.001,
        healthy_reward=1.0,
        terminate_when_unhealthy=True,
        healthy_state_range=(-100.0, 100.0),
        healthy_z_range=(0.7, float("inf")),
        healthy_angle_range=(-0.2, 0.2),
        reset_noise_scale=0.005,
        exclude_current_positions_from_observation=True,
    )

    def healthy(self, qpos, qvel):
        state = np.concatenate((qpos, qvel), axis=1)[:, 2:]
        lo, hi = self.p["healthy_state_range"]
        zlo, zhi = self.p["healthy_z_range"]
        alo, ahi = self.p["healthy_angle_range"]
        ok_state = np.all((lo < state) & (state < hi), axis=1)
        z, angle = qpos[:, 1], qpos[:, 2]
        return ok_state & (zlo < z) & (z < zhi) & (alo < angle) & (angle < ahi)


class Walker2d(_Hopping):
    """Walker2d-v5: healthy while torso height and angle stay in their open ranges."""

    DEFAULTS = dict(
        xml_file="walker2d_v5.xml",
        frame_skip=4,
        forward_reward_weight=1.0,
        ctrl_cost_weight=0.001,
        healthy_reward=1.0,
        terminate_when_unhealthy=True,
        healthy_z_range=(0.8, 2.0),
        healthy_angle_range=(-1.0, 1.0),
        reset_noise_scale=0.005,
        exclude_current_positions_from_observation=True,
    )

    def healthy(self, qpos, qvel):
        zlo, zhi = self.p["healthy_z_range"]
        alo, ahi = self.p["healthy_angle_range"]
        z, angle = qpos[:, 1], qpos[:, 2]
        return (zlo < z) & (z < zhi) & (alo < angle) & (angle < ahi)


class Swimmer(Task):
    """Swimmer-v5: x velocity of qpos[0] minus control cost; never terminates."""

    DEFAULTS = dict(
        xml_file="swimmer.xml",
        frame_skip=4,
        forward_reward_weight=1.0,
        ctrl_cost_weight=1e-4,
        reset_noise_scale=0.1,
        exclude_current_positions_from_observation=True,
    )

    def obs_size(self) -> int:
        excluded = 2 * int(bool(self.p["exclude_current_positions_from_observation"]))
        return self.nq + self.nv - excluded

    def carry(self, f):
        return f["qpos"][:, 0:2].copy()

    def observe(self, f):
        return _positions_and_velocities(self, f["qpos"], f["qvel"], 2, False)

    def evaluate(self, before, f, actions):
        xy_after = f["qpos"][:, 0:2]
        xy_velocity = (xy_after - before) / self.dt
        forward = self.p["forward_reward_weight"] * xy_velocity[:, 0]
        ctrl = ctrl_cost(self.p["ctrl_cost_weight"], actions)
        reward = forward - ctrl
        info = {"x_position": xy_after[:, 0].copy(), "y_position": xy_after[:, 1].copy(),
                "distance_from_origin": row_norms(xy_after),
                "x_velocity": xy_velocity[:, 0].copy(), "y_velocity": xy_velocity[:, 1].copy(),
                "reward_forward": forward, "reward_ctrl": -ctrl}
        return reward, np.zeros(len(reward), dtype=bool), info

    def reset_info(self, f):
        qpos = f["qpos"]
        return {"x_position": qpos[:, 0].copy(), "y_position": qpos[:, 1].copy(),
                "distance_from_origin": row_norms(qpos[:, 0:2])}

    def draw_reset(self, rng):
        return self.uniform_qpos_qvel(rng)
