"""Kernels whose order of floating-point operations follows MuJoCo's, so results are equal
to the bit: the compiler's frames (fromto, axes, orientations normalized as MuJoCo's compiler
does) on the Gymnasium and dm_control models, mj_mulM, and HalfCheetah's forward dynamics
with contacts (Newton's dense Hessian and its M*qacc products) along a MuJoCo trajectory."""
import glob
import os

import dm_control

import gymnasium
import mujoco
import numpy as np
import pytest

import torsion

ASSETS = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")
FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS
SUITE = os.path.join(os.path.dirname(dm_control.__file__), "suite")
FRAME_FIELDS = ["body_quat", "body_iquat", "geom_quat", "site_quat", "cam_quat", "jnt_axis",
                "body_inertia", "body_ipos", "geom_size", "geom_pos", "dof_invweight0",
                "body_invweight0"]


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ASSETS, "*.xml"))) +
                         sorted(glob.glob(os.path.join(SUITE, "*.xml"))),
                         ids=os.path.basename)
def test_compiled_frames_are_bitwise(path):
    """Frames and inertias the compiler derives equal MuJoCo's to the bit."""
    try:
        mm = mujoco.MjModel.from_xml_path(path)
    except ValueError:
        pytest.fail("MuJoCo cannot load a corpus file: %s" % path)
    tm = torsion.MjModel.from_xml_path(path)
    for f in FRAME_FIELDS:
        a, b = getattr(mm, f), getattr(tm, f)
        assert a.shape == b.shape and np.array_equal(a, b), (f, np.abs(a - b).max())


@pytest.mark.parametrize("name", ["half_cheetah.xml", "ant.xml", "humanoid.xml",
                                  "walker2d_v5.xml", "pusher_v5.xml"])
def test_mulM_is_bitwise(name):
    """mj_mulM(M, v) equals MuJoCo's to the bit for random configurations and vectors."""
    path = os.path.join(ASSETS, name)
    mm, tm = mujoco.MjModel.from_xml_path(path), torsion.MjModel.from_xml_path(path)
    md, td = mujoco.MjData(mm), torsion.MjData(tm)
    rng = np.random.default_rng(3)
    for _ in range(20):
        mujoco.mj_resetData(mm, md)
        md.qpos[:] += rng.uniform(-0.3, 0.3, mm.nq)
        s = np.empty(mujoco.mj_stateSize(mm, FULL))
        mujoco.mj_getState(mm, md, s, FULL)
        torsion.mj_setState(tm, td, s, FULL)
        mujoco.mj_forward(mm, md)
        torsion.mj_forward(tm, td)
        v = rng.standard_normal(mm.nv)
        a, b = np.zeros(mm.nv), np.zeros(mm.nv)
        mujoco.mj_mulM(mm, md, a, v)
        torsion.mj_mulM(tm, td, b, v)
        assert np.array_equal(a, b), np.abs(a - b).max()


def test_half_cheetah_forward_is_bitwise_with_contacts():
    """Along a 600-step MuJoCo trajectory with random controls, Torsion's mj_forward from
    MuJoCo's state and warmstart gives the same qacc to the bit at every step (most have
    foot contacts solved by Newton)."""
    path = os.path.join(ASSETS, "half_cheetah.xml")
    mm, tm = mujoco.MjModel.from_xml_path(path), torsion.MjModel.from_xml_path(path)
    mm.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_ISLAND)
    md, td = mujoco.MjData(mm), torsion.MjData(tm)
    rng = np.random.default_rng(0)
    md.qpos[:] += rng.uniform(-0.1, 0.1, mm.nq)
    md.qvel[:] += 0.1 * rng.standard_normal(mm.nv)
    s = np.empty(mujoco.mj_stateSize(mm, FULL))
    with_contacts = 0
    for _ in range(600):
        md.ctrl[:] = rng.uniform(-1, 1, mm.nu)
        mujoco.mj_getState(mm, md, s, FULL)
        torsion.mj_resetData(tm, td)
        torsion.mj_setState(tm, td, s, FULL)
        td.ctrl[:] = md.ctrl
        td.qacc_warmstart[:] = md.qacc_warmstart
        mujoco.mj_forward(mm, md)
        torsion.mj_forward(tm, td)
        assert np.array_equal(md.qacc, td.qacc), np.abs(md.qacc - td.qacc).max()
        with_contacts += md.ncon > 0
        mujoco.mj_step(mm, md)
    assert with_contacts > 300
