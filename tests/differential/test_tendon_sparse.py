"""The tendon Jacobian in MuJoCo 3.14's sparse layout, against MuJoCo: the model's static
pattern (nJten, ten_J_rownnz, ten_J_rowadr, ten_J_colind) equal exactly - a fixed tendon's row
one entry per joint element, ascending by dof with a joint named twice kept twice, a spatial
tendon's row every dof moving a body on its path - and after mj_forward at random states
(constraints disabled) the mjData ten_J values on that pattern within 1e-10 (relative to the
largest entry), with MuJoCo's shape [nJten]. Models: the tendon, actuator and constraint test
models with tendons (tests/models/tendon_sparse/repeated_joint.xml repeats joints out of dof
order), Menagerie's Shadow hand, dm_control's dog, MyoSuite's legacy elbow and legs, and the
64-humanoid crowd."""
import os

import mujoco
import numpy as np
import pytest

from harness import corpus, oracle, robots, torsion

MENAGERIE = robots.menagerie_dir()
MYO = corpus._package_dir("myo_sim", "models", "legacy")
DOG = corpus._package_dir("dm_control", "suite")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

NSTATE = 10
VALUE_TOL = 1e-10
PATTERN = ["ten_J_rownnz", "ten_J_rowadr", "ten_J_colind"]


def _robots():
    """Robots with fixed and spatial (wrapping) tendons."""
    return [
        corpus.Model("menagerie/shadow_hand",
                     os.path.join(MENAGERIE, "shadow_hand", "scene_right.xml")),
        corpus.Model("dm_control/dog", os.path.join(DOG, "dog.xml")),
        corpus.Model("myo/elbow_2dof6muscles",
                     os.path.join(MYO, "elbow", "myoelbow_2dof6muscles.xml")),
        corpus.Model("myo/legs_osl", os.path.join(MYO, "osl", "myolegs_osl.xml")),
        corpus.Model("scenes/gym_humanoid_crowd_64",
                     os.path.join(REPO, "tests", "models", "scenes", "gym_humanoid_crowd_64.xml")),
    ]


LOCAL_DIRS = ["tests/models/tendons", "tests/models/tendon_sparse", "tests/models/actuators",
              "tests/models/constraint", "tests/models/moment"]
LOCAL = [m for m in corpus.local_models(LOCAL_DIRS) if oracle.load(m.path).ntendon > 0]
MODELS = LOCAL + _robots()
MODEL_IDS = [str(m) for m in MODELS]


@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_ten_j_sparse(model):
    m = oracle.load(model.path)
    assert m.ntendon > 0
    states, ctrl = oracle.random_states(m, NSTATE, oracle.rng(model.id, "ten_J"))
    ours = torsion.dump(model.path, PATTERN + ["ten_J"], states, ctrl,
                        disable=oracle.SMOOTH_ONLY, sparse_ten_j=True)

    # the static pattern, exactly
    assert ours["ten_J_colind"].size == m.nJten
    for name in PATTERN:
        np.testing.assert_array_equal(ours[name].reshape(-1), getattr(m, name), name)

    # mjData's ten_J has MuJoCo's nJten entries; the values on the pattern
    assert ours["ten_J"].reshape(len(states), -1).shape[1] == m.nJten
    d = mujoco.MjData(m)
    for k in range(len(states)):
        oracle._forward_at(m, d, states[k], ctrl[k])
        theirs = np.asarray(d.ten_J)
        assert theirs.shape == (m.nJten,)
        mine = ours["ten_J"][k].reshape(-1)
        scale = max(1.0, float(np.max(np.abs(theirs)))) if m.nJten else 1.0
        err = float(np.max(np.abs(mine - theirs))) / scale if m.nJten else 0.0
        assert err <= VALUE_TOL, "%s state %d: ten_J error %.3g" % (model.id, k, err)


def test_pattern_kinds():
    """The models above cover a fixed tendon with a repeated joint, fixed tendons, spatial
    tendons with and without wrapping geoms, and pulleys."""
    kinds = set()
    for model in MODELS:
        m = oracle.load(model.path)
        for t in range(m.ntendon):
            adr, num = m.tendon_adr[t], m.tendon_num[t]
            types = set(int(w) for w in m.wrap_type[adr:adr + num])
            if types == {int(mujoco.mjtWrap.mjWRAP_JOINT)}:
                dofs = [int(m.jnt_dofadr[j]) for j in m.wrap_objid[adr:adr + num]]
                kinds.add("fixed repeated" if len(set(dofs)) < len(dofs) else "fixed")
            else:
                for w in types:
                    kinds.add(str(mujoco.mjtWrap(w)))
    want = {"fixed", "fixed repeated", "mjtWrap.mjWRAP_SITE", "mjtWrap.mjWRAP_SPHERE",
            "mjtWrap.mjWRAP_CYLINDER", "mjtWrap.mjWRAP_PULLEY"}
    assert want <= kinds, sorted(want - kinds)
