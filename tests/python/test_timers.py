"""Stage timers (MjData.timer) as MuJoCo's Python package fills them: making a Data installs
a clock when none is, and every stage counts its calls as MuJoCo's does (mj_step, mj_step1
and mj_step2, mj_forward, the position/velocity/actuation/constraint stages, collision's
broad and narrow phases)."""
import mujoco
import numpy as np

import torsion


def _script(mj, path):
    """Timer calls and durations after 10 steps, a step split in two and a forward."""
    m = mj.MjModel.from_xml_path(path)
    d = mj.MjData(m)
    for _ in range(10):
        mj.mj_step(m, d)
    mj.mj_step1(m, d)
    mj.mj_step2(m, d)
    mj.mj_forward(m, d)
    number = np.array([d.timer[k].number for k in range(len(d.timer))])
    duration = np.array([d.timer[k].duration for k in range(len(d.timer))])
    return number, duration


def test_timers_count_as_mujoco(model_path):
    """Same number of calls per timer; time recorded wherever a call was counted, and on
    the same timers as MuJoCo (a reset inside mj_step2 leaves its time without a count)."""
    mj_number, mj_duration = _script(mujoco, model_path)
    tn_number, tn_duration = _script(torsion, model_path)
    np.testing.assert_array_equal(tn_number, mj_number)
    # 11 steps unless a divergence reset the data (and its timers) on the way, in both
    step, forward = int(torsion.mjtTimer.mjTIMER_STEP), int(torsion.mjtTimer.mjTIMER_FORWARD)
    assert tn_number[step] in (11, mj_number[step])
    assert tn_number[forward] > 0
    assert np.all(tn_duration[tn_number > 0] > 0)
    np.testing.assert_array_equal(tn_duration > 0, mj_duration > 0)
