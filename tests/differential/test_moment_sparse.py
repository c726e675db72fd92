"""The actuator moment arms in MuJoCo 3.14's sparse layout, against MuJoCo: nJmom (the
compiler's bound of the rows' non-zeros: a joint's dofs, a tendon's Jacobian pattern, the dofs
moving a site (less those it shares with its refsite) or a slider-crank's two sites, nv for a
body) equal; after mj_forward at 20 random states (constraints disabled) moment_rownnz,
moment_rowadr and the used moment_colind entries equal (the same columns in the same order,
explicit zeros of joint and tendon rows included, the non-zeros of site and slider-crank rows)
and the actuator_moment values within 1e-10 (the first state at qpos0: exact zeros in site
rows, tests/models/moment/row_kinds.xml). Models: the actuator and tendon test models, every
row kind with zero entries (row_kinds.xml), and robots with fixed and spatial tendon, site and joint transmissions (Menagerie's Shadow
hand, Robotiq gripper, Panda, Skydio X2; dm_control's dog; MyoSuite's legacy elbow and the
leg model with its prosthesis)."""
import os

import mujoco
import numpy as np
import pytest

from harness import corpus, oracle, robots, torsion

MENAGERIE = robots.menagerie_dir()
MYO = corpus._package_dir("myo_sim", "models", "legacy")
DOG = corpus._package_dir("dm_control", "suite")

NSTATE = 20
VALUE_TOL = 1e-10
PARTS = ["moment_rownnz", "moment_rowadr", "moment_colind", "actuator_moment"]


def _robots():
    """Robots with tendon and site transmissions."""
    out = []
    for robot, scene in (("shadow_hand", "scene_right.xml"), ("robotiq_2f85", "scene.xml"),
                         ("franka_emika_panda", "scene.xml"), ("skydio_x2", "scene.xml")):
        out.append(corpus.Model("menagerie/" + robot, os.path.join(MENAGERIE, robot, scene)))
    out.append(corpus.Model("dm_control/dog", os.path.join(DOG, "dog.xml")))
    out.append(corpus.Model("myo/elbow_2dof6muscles",
                            os.path.join(MYO, "elbow", "myoelbow_2dof6muscles.xml")))
    out.append(corpus.Model("myo/legs_osl", os.path.join(MYO, "osl", "myolegs_osl.xml")))
    return out


LOCAL_DIRS = ["tests/models/actuators", "tests/models/tendons", "tests/models/moment",
              "tests/models/tendon_sparse"]
LOCAL = [m for m in corpus.local_models(LOCAL_DIRS) if oracle.load(m.path).nu > 0]
MODELS = LOCAL + _robots()
MODEL_IDS = [str(m) for m in MODELS]


def _mujoco_rows(m, states, ctrl):
    """MuJoCo's sparse rows after mj_forward at each state: [(rownnz, rowadr, colind,
    values)], colind and values cut to the used entries."""
    d = mujoco.MjData(m)
    out = []
    for k in range(len(states)):
        oracle._forward_at(m, d, states[k], ctrl[k])
        used = int(d.moment_rowadr[-1] + d.moment_rownnz[-1])
        out.append((d.moment_rownnz.copy(), d.moment_rowadr.copy(),
                    d.moment_colind[:used].copy(), d.actuator_moment[:used].copy()))
    return out


@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_sparse_rows(model):
    m = oracle.load(model.path)
    assert m.nu > 0
    states, ctrl = oracle.random_states(m, NSTATE, oracle.rng(model.id, "moment"))

    # the first state at qpos0, at rest: poses where site rows have exact zeros
    d = mujoco.MjData(m)
    mujoco.mj_getState(m, d, states[0], oracle.FULLPHYSICS)
    ours = torsion.dump(model.path, PARTS, states, ctrl, disable=oracle.SMOOTH_ONLY,
                        sparse_moment=True)
    theirs = _mujoco_rows(m, states, ctrl)

    # the same bound of non-zeros: mjData's moment_colind and actuator_moment have nJmom rows
    assert ours["moment_colind"].shape[1] == m.nJmom
    assert ours["actuator_moment"].shape[1] == m.nJmom

    for k, (rownnz, rowadr, colind, values) in enumerate(theirs):
        what = "%s state %d" % (model.id, k)
        np.testing.assert_array_equal(ours["moment_rownnz"][k].reshape(-1), rownnz, what)
        np.testing.assert_array_equal(ours["moment_rowadr"][k].reshape(-1), rowadr, what)
        used = len(colind)
        np.testing.assert_array_equal(ours["moment_colind"][k].reshape(-1)[:used], colind, what)
        mine = ours["actuator_moment"][k].reshape(-1)[:used]
        scale = max(1.0, float(np.max(np.abs(values)))) if used else 1.0
        err = float(np.max(np.abs(mine - values))) / scale if used else 0.0
        assert err <= VALUE_TOL, "%s: actuator_moment error %.3g" % (what, err)


def test_structure_kinds():
    """The models above cover every row kind: joint (hinge, ball, free), fixed and spatial
    tendon, site with and without refsite, slider-crank."""
    kinds = set()
    for model in MODELS:
        m = oracle.load(model.path)
        for i in range(m.nu):
            trn, ids = int(m.actuator_trntype[i]), m.actuator_trnid[i]
            if trn in (mujoco.mjtTrn.mjTRN_JOINT, mujoco.mjtTrn.mjTRN_JOINTINPARENT):
                kinds.add(("joint", int(m.jnt_type[ids[0]])))
            elif trn == mujoco.mjtTrn.mjTRN_TENDON:
                wrap = m.wrap_type[m.tendon_adr[ids[0]]]
                kinds.add(("tendon", "fixed" if wrap == mujoco.mjtWrap.mjWRAP_JOINT else "spatial"))
            elif trn == mujoco.mjtTrn.mjTRN_SITE:
                kinds.add(("site", "refsite" if ids[1] >= 0 else "wrench"))
            else:
                kinds.add((str(mujoco.mjtTrn(trn)), None))
    want = {("joint", 0), ("joint", 1), ("joint", 3), ("tendon", "fixed"), ("tendon", "spatial"),
            ("site", "refsite"), ("site", "wrench"), ("mjtTrn.mjTRN_SLIDERCRANK", None)}
    assert want <= kinds, sorted(want - kinds)
