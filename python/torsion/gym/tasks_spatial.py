"""Free-floating locomotion tasks: Ant-v5, Humanoid-v5 and HumanoidStandup-v5, vectorized.

Ant's forward velocity is the change of the main body's xpos; Humanoid's is the change of the
mass-weighted mean of xipos; both observe world-frame body quantities (cinert, cvel, cfrc_ext
without the world body) as Gymnasium's v5 classes do.
"""

from __future__ import annotations

import numpy as np

from .task import Task, clip, ctrl_cost, row_norms, sum_squares


class Ant(Task):
    """Ant-v5: xy velocity of the main body, health bonus, control and contact costs."""

    DEFAULTS = dict(
        xml_file="ant.xml",
        frame_skip=5,
        forward_reward_weight=1,
        ctrl_cost_weight=0.5,
        contact_cost_weight=5e-4,
        healthy_reward=1.0,
        main_body=1,
        terminate_when_unhealthy=True,
        healthy_z_range=(0.2, 1.0),
        contact_force_range=(-1.0, 1.0),
        reset_noise_scale=0.1,
        exclude_current_positions_from_observation=True,
        include_cfrc_ext_in_observation=True,
    )

    def __init__(self, model, params):
        self.nbody = int(np.asarray(model.body_mass).shape[0])
        super().__init__(model, params)
        self.main_body = self.body_id(params["main_body"])
        self.STEP_FIELDS = self.RESET_FIELDS = ("qpos", "qvel", "xpos", "cfrc_ext")

    def obs_size(self) -> int:
        excluded = 2 * int(bool(self.p["exclude_current_positions_from_observation"]))
        size = self.nq + self.nv - excluded
        size += 6 * (self.nbody - 1) * int(bool(self.p["include_cfrc_ext_in_observation"]))
        return size

    def carry(self, f):
        return f["xpos"][:, self.main_body, 0:2].copy()

    def contact_forces(self, f):
        """cfrc_ext clipped to contact_force_range, [k, nbody, 6]."""
        lo, hi = self.p["contact_force_range"]
        return np.clip(f["cfrc_ext"], lo, hi)

    def observe(self, f):
        qpos, qvel = f["qpos"], f["qvel"]
        position = qpos[:, 2:] if self.p["exclude_current_positions_from_observation"] else qpos
        parts = [position, qvel]
        if self.p["include_cfrc_ext_in_observation"]:
            parts.append(self.contact_forces(f)[:, 1:].reshape(len(qpos), -1))
        return np.concatenate(parts, axis=1)

    def evaluate(self, before, f, actions):
        qpos, qvel = f["qpos"], f["qvel"]
        xy_after = f["xpos"][:, self.main_body, 0:2]
        xy_velocity = (xy_after - before) / self.dt
        zlo, zhi = self.p["healthy_z_range"]
        finite = np.all(np.isfinite(qpos), axis=1) & np.all(np.isfinite(qvel), axis=1)
        healthy = finite & (zlo <= qpos[:, 2]) & (qpos[:, 2] <= zhi)
        forward = xy_velocity[:, 0] * self.p["forward_reward_weight"]
        survive = healthy * float(self.p["healthy_reward"])
        ctrl = ctrl_cost(self.p["ctrl_cost_weight"], actions)
        contact = self.p["contact_cost_weight"] * np.sum(
            np.square(self.contact_forces(f)), axis=(1, 2))
        reward = (forward + survive) - (ctrl + contact)
        terminated = ~healthy & bool(self.p["terminate_when_unhealthy"])
        info = {"x_position": qpos[:, 0].copy(), "y_position": qpos[:, 1].copy(),
                "distance_from_origin": row_norms(qpos[:, 0:2]),
                "x_velocity": xy_velocity[:, 0].copy(), "y_velocity": xy_velocity[:, 1].copy(),
                "reward_forward": forward, "reward_ctrl": -ctrl, "reward_contact": -contact,
                "reward_survive": survive}
        return reward, terminated, info

    def reset_info(self, f):
        qpos = f["qpos"]
        return {"x_position": qpos[:, 0].copy(), "y_position": qpos[:, 1].copy(),
                "distance_from_origin": row_norms(qpos[:, 0:2])}

    def draw_reset(self, rng):
        return self.uniform_qpos_normal_qvel(rng)


class _HumanoidBase(Task):
    """Observation shared by Humanoid and HumanoidStandup: qpos, qvel and body quantities."""

    def __init__(self, model, params):
        self.body_mass = np.array(model.body_mass, dtype=np.float64).ravel()
        self.nbody = len(self.body_mass)
        super().__init__(model, params)
        fields = ["qpos", "qvel", "ten_length", "ten_velocity"]
        for name in ("cinert", "cvel", "qfrc_actuator", "cfrc_ext"):
            if self.p[f"include_{name}_in_observation"]:
                fields.append(name)
        self.RESET_FIELDS = tuple(fields)

    def obs_size(self) -> int:
        excluded = 2 * int(bool(self.p["exclude_current_positions_from_observation"]))
        size = self.nq + self.nv - excluded
        size += 10 * (self.nbody - 1) * int(bool(self.p["include_cinert_in_observation"]))
        size += 6 * (self.nbody - 1) * int(bool(self.p["include_cvel_in_observation"]))
        size += (self.nv - 6) * int(bool(self.p["include_qfrc_actuator_in_observation"]))
        size += 6 * (self.nbody - 1) * int(bool(self.p["include_cfrc_ext_in_observation"]))
        return size

    def observe(self, f):
        qpos = f["qpos"]
        k = len(qpos)
        position = qpos[:, 2:] if self.p["exclude_current_positions_from_observation"] else qpos
        parts = [position, f["qvel"]]
        if self.p["include_cinert_in_observation"]:
            parts.append(f["cinert"][:, 1:].reshape(k, -1))
        if self.p["include_cvel_in_observation"]:
            parts.append(f["cvel"][:, 1:].reshape(k, -1))
        if self.p["include_qfrc_actuator_in_observation"]:
            parts.append(f["qfrc_actuator"][:, 6:])
        if self.p["include_cfrc_ext_in_observation"]:
            parts.append(f["cfrc_ext"][:, 1:].reshape(k, -1))
        return np.concatenate(parts, axis=1)

    def draw_reset(self, rng):
        return self.uniform_qpos_qvel(rng)


_HUMANOID_OBS_DEFAULTS = dict(
    reset_noise_scale=1e-2,
    exclude_current_positions_from_observation=True,
    include_cinert_in_observation=True,
    include_cvel_in_observation=True,
    include_qfrc_actuator_in_observation=True,
    include_cfrc_ext_in_observation=True,
)


class Humanoid(_HumanoidBase):
    """Humanoid-v5: mass-centre x velocity, health bonus, control and contact costs."""

    DEFAULTS = dict(
        xml_file="humanoid.xml",
        frame_skip=5,
        forward_reward_weight=1.25,
        ctrl_cost_weight=0.1,
        contact_cost_weight=5e-7,
        contact_cost_range=(-np.inf, 10.0),
        healthy_reward=5.0,
        terminate_when_unhealthy=True,
        healthy_z_range=(1.0, 2.0),
        **_HUMANOID_OBS_DEFAULTS,
    )

    def __init__(self, model, params):
        super().__init__(model, params)
        fields = set(self.RESET_FIELDS) | {"xipos", "cfrc_ext"}
        self.STEP_FIELDS = self.RESET_FIELDS = tuple(sorted(fields))

    def mass_center(self, f):
        """Mass-weighted mean of the bodies' xipos, x and y, [k, 2] (a fresh array; kept in
        ``f`` so that the step's reward and the next step's carry compute it once)."""
        center = f.get("_mass_center")
        if center is None:
            num = np.einsum("b,kbj->kj", self.body_mass, f["xipos"])
            center = f["_mass_center"] = (num / self.body_mass.sum())[:, 0:2]
        return center

    def carry(self, f):
        return self.mass_center(f).copy()

    def evaluate(self, before, f, actions):
        qpos = f["qpos"]
        xy_velocity = (self.mass_center(f) - before) / self.dt
        zlo, zhi = self.p["healthy_z_range"]
        healthy = (zlo < qpos[:, 2]) & (qpos[:, 2] < zhi)
        forward = self.p["forward_reward_weight"] * xy_velocity[:, 0]
        survive = healthy * float(self.p["healthy_reward"])
        # The control cost reads mjData.ctrl, i.e. the actions stored as float64.
        ctrl = ctrl_cost(self.p["ctrl_cost_weight"], np.asarray(actions, dtype=np.float64))
        clo, chi = self.p["contact_cost_range"]
        contact = clip(self.p["contact_cost_weight"] * sum_squares(f["cfrc_ext"]), clo, chi)
        reward = (forward + survive) - (ctrl + contact)
        terminated = ~healthy & bool(self.p["terminate_when_unhealthy"])
        # the reset entries are the very arrays reset_info gives for these fields (merging a
        # step's and a reset's infos then needs no choice between them)
        info = dict(self.reset_info(f))
        info.update({"x_velocity": xy_velocity[:, 0], "y_velocity": xy_velocity[:, 1],
                     "reward_survive": survive, "reward_forward": forward,
                     "reward_ctrl": -ctrl, "reward_contact": -contact})
        return reward, terminated, info

    def reset_info(self, f):
        """Info entries read from the fields (views of them; kept in ``f``, so a step's
        evaluate and a reset's info share them)."""
        info = f.get("_reset_info")
        if info is None:
            qpos = f["qpos"]
            info = f["_reset_info"] = {
                "x_position": qpos[:, 0], "y_position": qpos[:, 1],
                "tendon_length": f["ten_length"], "tendon_velocity": f["ten_velocity"],
                "distance_from_origin": row_norms(qpos[:, 0:2])}
        return info


class HumanoidStandup(_HumanoidBase):
    """HumanoidStandup-v5: torso height rate minus control and impact costs, plus one."""

    DEFAULTS = dict(
        xml_file="humanoidstandup.xml",
        frame_skip=5,
        uph_cost_weight=1,
        ctrl_cost_weight=0.1,
        impact_cost_weight=0.5e-6,
        impact_cost_range=(-np.inf, 10.0),
        **_HUMANOID_OBS_DEFAULTS,
    )

    def __init__(self, model, params):
        super().__init__(model, params)
        self.STEP_FIELDS = tuple(sorted(set(self.RESET_FIELDS) | {"cfrc_ext"}))

    def evaluate(self, before, f, actions):
        qpos = f["qpos"]
        uph = (qpos[:, 2] - 0) / self.timestep
        quad_ctrl = self.p["ctrl_cost_weight"] * np.sum(
            np.square(actions.astype(np.float64)), axis=1)
        ilo, ihi = self.p["impact_cost_range"]
        impact = np.clip(self.p["impact_cost_weight"]
                         * np.sum(np.square(f["cfrc_ext"]), axis=(1, 2)), ilo, ihi)
        reward = uph - quad_ctrl - impact + 1
        info = self.reset_info(f)
        info.update({"reward_linup": uph, "reward_quadctrl": -quad_ctrl,
                     "reward_impact": -impact})
        return reward, np.zeros(len(reward), dtype=bool), info

    def reset_info(self, f):
        qpos = f["qpos"]
        return {"x_position": qpos[:, 0].copy(), "y_position": qpos[:, 1].copy(),
                "z_distance_from_origin": qpos[:, 2] - self.init_qpos[2],
                "tendon_length": f["ten_length"].copy(),
                "tendon_velocity": f["ten_velocity"].copy()}
