"""Fixed-base tasks: InvertedPendulum-v5, InvertedDoublePendulum-v5, Reacher-v5 and Pusher-v5.

Vectorized over the batch; the reset draws (including Reacher's and Pusher's rejection loops
for the goal and the cylinder) use each environment's generator in Gymnasium's order.
"""

from __future__ import annotations

import numpy as np

from .task import Task, row_norms


def pow2(values: np.ndarray) -> np.ndarray:
    """values ** 2 rounded as C pow() rounds it, like ``**`` on one numpy float64 scalar.

    Gymnasium squares scalars with ``**``; numpy's array ``** 2`` multiplies instead and
    differs from pow() in the last bit for a few inputs.
    """
    return np.float_power(values, np.full(values.shape, 2.0))


class InvertedPendulum(Task):
    """InvertedPendulum-v5: reward 1 while the pole stays within 0.2 rad."""

    DEFAULTS = dict(xml_file="inverted_pendulum.xml", frame_skip=2, reset_noise_scale=0.01)
    REWARD_TYPE = int

    def obs_size(self) -> int:
        return self.nq + self.nv

    def observe(self, f):
        return np.concatenate((f["qpos"], f["qvel"]), axis=1)

    def evaluate(self, before, f, actions):
        obs = self.observe(f)
        terminated = ~np.all(np.isfinite(obs), axis=1) | (np.abs(obs[:, 1]) > 0.2)
        survive = (~terminated).astype(np.int_)
        return survive.astype(np.float64), terminated, {"reward_survive": survive}

    def draw_reset(self, rng):
        return self.uniform_qpos_qvel(rng)


class InvertedDoublePendulum(Task):
    """InvertedDoublePendulum-v5: alive bonus minus tip distance and velocity penalties."""

    DEFAULTS = dict(xml_file="inverted_double_pendulum.xml", frame_skip=5,
                    healthy_reward=10.0, reset_noise_scale=0.1)
    STEP_FIELDS = RESET_FIELDS = ("qpos", "qvel", "site_xpos", "qfrc_constraint")

    def obs_size(self) -> int:
        return 1 + 2 * (self.nq - 1) + self.nv + 1

    def observe(self, f):
        qpos = f["qpos"]
        return np.concatenate((qpos[:, :1], np.sin(qpos[:, 1:]), np.cos(qpos[:, 1:]),
                               np.clip(f["qvel"], -10, 10),
                               np.clip(f["qfrc_constraint"], -10, 10)[:, :1]), axis=1)

    def evaluate(self, before, f, actions):
        x, y = f["site_xpos"][:, 0, 0], f["site_xpos"][:, 0, 2]
        terminated = y <= 1
        v1, v2 = f["qvel"][:, 1], f["qvel"][:, 2]
        dist_penalty = 0.01 * pow2(x) + pow2(y - 2)
        vel_penalty = 1e-3 * pow2(v1) + 5e-3 * pow2(v2)
        alive = float(self.p["healthy_reward"]) * (~terminated).astype(np.float64)
        reward = alive - dist_penalty - vel_penalty
        info = {"reward_survive": alive, "distance_penalty": -dist_penalty,
                "velocity_penalty": -vel_penalty}
        return reward, terminated, info

    def draw_reset(self, rng):
        return self.uniform_qpos_normal_qvel(rng)


class Reacher(Task):
    """Reacher-v5: negative fingertip-to-target distance minus control cost."""

    DEFAULTS = dict(xml_file="reacher.xml", frame_skip=2, reward_dist_weight=1,
                    reward_control_weight=1)
    STEP_FIELDS = RESET_FIELDS = ("qpos", "qvel", "xpos")

    def __init__(self, model, params):
        super().__init__(model, params)
        self.fingertip = self.body_id("fingertip")
        self.target = self.body_id("target")

    def obs_size(self) -> int:
        return 2 + 2 + (self.nq - 2) + 2 + 2

    def observe(self, f):
        qpos, xpos = f["qpos"], f["xpos"]
        theta = qpos[:, :2]
        to_target = xpos[:, self.fingertip] - xpos[:, self.target]
        return np.concatenate((np.cos(theta), np.sin(theta), qpos[:, 2:], f["qvel"][:, :2],
                               to_target[:, :2]), axis=1)

    def evaluate(self, before, f, actions):
        xpos = f["xpos"]
        vec = xpos[:, self.fingertip] - xpos[:, self.target]
        reward_dist = -row_norms(vec) * self.p["reward_dist_weight"]
        reward_ctrl = -np.sum(np.square(actions), axis=1) * self.p["reward_control_weight"]
        reward = reward_dist + reward_ctrl
        return reward, np.zeros(len(reward), dtype=bool), {"reward_dist": reward_dist,
                                                            "reward_ctrl": reward_ctrl}

    def draw_reset(self, rng):
        qpos = rng.uniform(low=-0.1, high=0.1, size=self.nq) + self.init_qpos
        while True:
            goal = rng.uniform(low=-0.2, high=0.2, size=2)
            if np.linalg.norm(goal) < 0.2:
                break
        qpos[-2:] = goal
        qvel = self.init_qvel + rng.uniform(low=-0.005, high=0.005, size=self.nv)
        qvel[-2:] = 0
        return qpos, qvel


class Pusher(Task):
    """Pusher-v5: bring the arm's tip to the object and the object to the goal."""

    DEFAULTS = dict(xml_file="pusher_v5.xml", frame_skip=5, reward_near_weight=0.5,
                    reward_dist_weight=1, reward_control_weight=0.1)
    STEP_FIELDS = RESET_FIELDS = ("qpos", "qvel", "xpos")

    def __init__(self, model, params):
        super().__init__(model, params)
        self.tips_arm = self.body_id("tips_arm")
        self.object = self.body_id("object")
        self.goal = self.body_id("goal")

    def obs_size(self) -> int:
        return 7 + 7 + 3 * 3

    def observe(self, f):
        xpos = f["xpos"]
        return np.concatenate((f["qpos"][:, :7], f["qvel"][:, :7], xpos[:, self.tips_arm],
                               xpos[:, self.object], xpos[:, self.goal]), axis=1)

    def evaluate(self, before, f, actions):
        xpos = f["xpos"]
        vec_1 = xpos[:, self.object] - xpos[:, self.tips_arm]
        vec_2 = xpos[:, self.object] - xpos[:, self.goal]
        reward_near = -row_norms(vec_1) * self.p["reward_near_weight"]
        reward_dist = -row_norms(vec_2) * self.p["reward_dist_weight"]
        reward_ctrl = -np.sum(np.square(actions), axis=1) * self.p["reward_control_weight"]
        reward = reward_dist + reward_ctrl + reward_near
        info = {"reward_dist": reward_dist, "reward_ctrl": reward_ctrl,
                "reward_near": reward_near}
        return reward, np.zeros(len(reward), dtype=bool), info

    def draw_reset(self, rng):
        qpos = self.init_qpos.copy()
        goal_pos = np.asarray([0, 0])
        while True:
            cylinder_pos = np.concatenate([rng.uniform(low=-0.3, high=0, size=1),
                                           rng.uniform(low=-0.2, high=0.2, size=1)])
            if np.linalg.norm(cylinder_pos - goal_pos) > 0.17:
                break
        qpos[-4:-2] = cylinder_pos
        qpos[-2:] = goal_pos
        qvel = self.init_qvel + rng.uniform(low=-0.005, high=0.005, size=self.nv)
        qvel[-4:] = 0
        return qpos, qvel
