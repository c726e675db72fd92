"""MuJoCo's legacy constraint pipeline, islands off (mjDSBL_ISLAND): the differential suite
now compares with MuJoCo's default flags (per-island solves), so the whole-system solve
keeps its own check here. The island scenes, every solver and cone, at states along a
MuJoCo trajectory: Torsion with the island flag disabled against MuJoCo with it disabled,
every other flag at both engines' defaults (the native convex collision on)."""
import os

import mujoco
import numpy as np
import pytest

import torsion

ISLANDS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "models", "islands")
FULL = mujoco.mjtState.mjSTATE_INTEGRATION
OFF = int(mujoco.mjtDisableBit.mjDSBL_ISLAND)


@pytest.mark.parametrize("solver", ["Newton", "CG", "PGS"])
@pytest.mark.parametrize("cone", ["pyramidal", "elliptic"])
@pytest.mark.parametrize("scene", ["crowd.xml", "tethered.xml"])
def test_whole_system_solve_matches_mujoco(scene, cone, solver):
    """qacc and constraint forces within 1e-5 (docs/testing.md), no islands on either side."""
    mm = mujoco.MjModel.from_xml_path(os.path.join(ISLANDS, scene))
    tm = torsion.MjModel.from_xml_path(os.path.join(ISLANDS, scene))
    for m, lib in ((mm, mujoco), (tm, torsion)):
        m.opt.solver = getattr(lib.mjtSolver, "mjSOL_" + solver.upper())
        m.opt.cone = getattr(lib.mjtCone, "mjCONE_" + cone.upper())
    mm.opt.disableflags |= OFF
    tm.opt.disableflags |= OFF
    md, td = mujoco.MjData(mm), torsion.MjData(tm)
    s = np.empty(mujoco.mj_stateSize(mm, FULL))
    checked = 0
    for t in range(300):
        if t % 60 == 30:
            mujoco.mj_getState(mm, md, s, FULL)
            torsion.mj_setState(tm, td, s, FULL)
            mujoco.mj_forward(mm, md)
            torsion.mj_forward(tm, td)
            assert td.nisland == 0 and md.nefc == td.nefc
            scale = 1 + np.abs(md.qacc).max()
            assert np.abs(md.qacc - td.qacc).max() <= 1e-5 * scale, (t, solver, cone)
            f_scale = 1 + np.abs(md.efc_force[:md.nefc]).max(initial=0)
            assert np.abs(md.efc_force[:md.nefc] - td.efc_force[:td.nefc]).max(initial=0) \
                <= 1e-5 * f_scale
            checked += md.nefc > 0
        mujoco.mj_step(mm, md)
    assert checked >= 3
