"""torsion.gym reproduces gymnasium.make_vec(..., vectorization_mode="sync") step for step.

For every Gymnasium MuJoCo v5 task and every autoreset mode, both vector envs get the same
seed and the same random actions for 300 steps, with short episodes so that terminations,
truncations and resets happen; observations, rewards and infos must agree within 1e-6
relative, terminations and truncations exactly. Physics runs in MuJoCo on both sides (the
test batch), so this checks the task logic: observations, rewards, termination, reset noise,
seeding, autoreset and info layout.
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from gym_compare import mujoco_backend, run_pair, tgym

STEPS = 300
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]

# Short episodes force truncations (and the resets after them) within the 300 steps.
SHORT = {"max_episode_steps": 37}
# Tasks whose episodes can end by termination; random actions do end some of them.
TERMINATING = {"Ant-v5", "Hopper-v5", "Humanoid-v5", "InvertedDoublePendulum-v5",
               "InvertedPendulum-v5", "Walker2d-v5"}


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("env_id", tgym.ENV_IDS)
def test_matches_gymnasium(env_id, mode):
    """Default task parameters, float32 actions from the action space."""
    track, ends = run_pair(env_id, 3, mode, STEPS, seed=7, **SHORT)
    print(env_id, mode.value, track.worst, ends)
    assert ends["truncated"] + ends["terminated"] >= 3 * (STEPS // 37) - 3
    if env_id in TERMINATING:
        assert ends["terminated"] > 0


# Non-default keyword arguments for a few tasks, as gymnasium.make accepts them.
CUSTOM = [
    ("Ant-v5", dict(include_cfrc_ext_in_observation=False, healthy_z_range=(0.3, 0.9),
                    ctrl_cost_weight=0.3, main_body="torso", contact_force_range=(-0.5, 0.5),
                    exclude_current_positions_from_observation=False)),
    ("Ant-v5", dict(contact_cost_weight=1e-3, reset_noise_scale=0.2, frame_skip=3)),
    ("Hopper-v5", dict(frame_skip=2, healthy_angle_range=(-0.1, 0.1), reset_noise_scale=0.05,
                       exclude_current_positions_from_observation=False,
                       healthy_state_range=(-50.0, 50.0))),
    ("Walker2d-v5", dict(terminate_when_unhealthy=False, healthy_reward=2.0,
                         forward_reward_weight=0.5)),
    ("HalfCheetah-v5", dict(forward_reward_weight=2.0, ctrl_cost_weight=0.2,
                            xml_file="half_cheetah.xml")),
    ("Humanoid-v5", dict(include_cinert_in_observation=False, include_cvel_in_observation=False,
                         healthy_z_range=(1.1, 2.0), contact_cost_range=(-1.0, 1e-3))),
    ("HumanoidStandup-v5", dict(include_cfrc_ext_in_observation=False,
                                include_qfrc_actuator_in_observation=False,
                                impact_cost_weight=1e-6, reset_noise_scale=0.05)),
    ("Swimmer-v5", dict(exclude_current_positions_from_observation=False, ctrl_cost_weight=0.1)),
    ("InvertedPendulum-v5", dict(reset_noise_scale=0.1)),
    ("InvertedDoublePendulum-v5", dict(healthy_reward=5.0, reset_noise_scale=0.3)),
    ("Reacher-v5", dict(reward_dist_weight=2.0, reward_control_weight=0.5, frame_skip=3)),
    ("Pusher-v5", dict(reward_near_weight=1.0, reward_dist_weight=0.5,
                       reward_control_weight=0.2)),
]


@pytest.mark.parametrize("env_id,kwargs", CUSTOM, ids=[f"{e}-{i}" for i, (e, _) in
                                                       enumerate(CUSTOM)])
def test_matches_gymnasium_with_kwargs(env_id, kwargs):
    """Changed task parameters, float64 actions, default time limit."""
    track, _ = run_pair(env_id, 2, AutoresetMode.NEXT_STEP, 120, seed=11,
                        action_dtype=np.float64, **kwargs)
    print(env_id, kwargs, track.worst)


def test_seed_list_and_no_seed():
    """reset(seed=[...]) seeds each env with its own entry; reset() keeps the generators."""
    run = tgym.make_vec("Hopper-v5", 3, backend=mujoco_backend)
    first, _ = run.reset(seed=[5, 6, 7])
    again, _ = run.reset(seed=5)
    assert np.array_equal(first, again)
    assert run.np_random_seed == (5, 6, 7)
    other, _ = run.reset()
    assert not np.array_equal(first, other)
