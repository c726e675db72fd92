"""Long-horizon contact behaviour (issue 3, item 7): over 5 s a box stack stays standing and
nothing tunnels, for every solver and cone. The scenes are ours (tests/models/scenes):

- box_tower: a tower of eight slabs and a 3-2-1 pyramid of cubes resting on each other;
  every box must stay where it was (1 cm horizontally, 1 cm vertically, 2 degrees of tilt)
  at every step;
- drop_tray: every convex geom type (and two meshes) dropped, one thrown at 4 m/s, into a
  static tray with a 10 cm bottom and walls; no geom centre may ever leave the tray (below
  its top surface or beyond its walls).

Torsion's 5 s rollout (`torsion-sim rollout`, the scene's initial state: keyframe 0 when
present) is checked; MuJoCo's is checked with the same rules first, so that a failure on
MuJoCo's side says the scene is wrong, not the engine.
"""
import os

import mujoco
import numpy as np
import pytest

from harness import corpus, oracle, torsion
from harness import constraint_cases as cc

SCENES = os.path.join(corpus.REPO_ROOT, "tests", "models", "scenes")
DURATION = 5.0
SETTINGS = [(s, c) for s in ("newton", "cg", "pgs") for c in ("pyramidal", "elliptic")]

TOWER_SHIFT = 0.01               # m, horizontal and vertical
TOWER_TILT = np.radians(2.0)
TRAY_TOP = 0.35                  # z of the tray bottom's top surface
TRAY_INNER = 0.5                 # half-width inside the walls


def _quat_to_mat(q):
    """[..., 4] unit quaternions to [..., 3, 3] rotation matrices."""
    w, x, y, z = np.moveaxis(q, -1, 0)
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)],
        -2)


def free_bodies(m, states):
    """{body name: (positions [T, 3], rotations [T, 3, 3], geom ids)} of the free bodies
    along FULLPHYSICS states [T, nstate]."""
    out = {}
    for j in range(m.njnt):
        if m.jnt_type[j] != mujoco.mjtJoint.mjJNT_FREE:
            continue
        adr, b = 1 + m.jnt_qposadr[j], m.jnt_bodyid[j]
        pos = states[:, adr:adr + 3]
        rot = _quat_to_mat(states[:, adr + 3:adr + 7])
        geoms = [g for g in range(m.ngeom) if m.geom_bodyid[g] == b]
        out[mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b)] = (pos, rot, geoms)
    return out


def initial_state(m):
    """The scene's initial FULLPHYSICS state: keyframe 0 when present."""
    d = mujoco.MjData(m)
    if m.nkey:
        mujoco.mj_resetDataKeyframe(m, d, 0)
    s = np.zeros(oracle.nstate(m))
    mujoco.mj_getState(m, d, s, oracle.FULLPHYSICS)
    return s


def rollouts(name, solver, cone):
    """(model, initial state, MuJoCo states [T, nstate], Torsion states [T, nstate])."""
    path = os.path.join(SCENES, name + ".xml")
    options = (("solver", solver), ("cone", cone))
    m = oracle.load(path, disable=oracle.CONTACT_ORACLE, options=options)
    s0 = initial_state(m)
    nstep = int(round(DURATION / m.opt.timestep))
    theirs = oracle.rollout(m, s0[None], None, nstep)[0]
    ours = torsion.rollout(path, s0[None], None, nstep, options=options)[0]
    return m, s0, theirs, ours


def tower_problems(m, s0, states):
    """Boxes of box_tower that moved, sank or tipped, with the first time it happened."""
    problems = []
    start = free_bodies(m, s0[None])
    for body, (pos, rot, _) in free_bodies(m, states).items():
        p0 = start[body][0][0]
        checks = [("moved %.4f m sideways", np.linalg.norm(pos[:, :2] - p0[:2], axis=1),
                   TOWER_SHIFT),
                  ("moved %.4f m vertically", np.abs(pos[:, 2] - p0[2]), TOWER_SHIFT),
                  ("tilted %.4f rad", np.arccos(np.clip(rot[:, 2, 2], -1, 1)), TOWER_TILT)]
        for fmt, values, limit in checks:
            bad = np.flatnonzero(~(values <= limit))
            if bad.size:
                t = bad[0]
                problems.append("%s " % body + fmt % values[t] +
                                " at t = %.3f s (limit %g)" % ((t + 1) * m.opt.timestep, limit))
    return problems


def tray_problems(m, s0, states):
    """Geoms of drop_tray whose centre left the tray (tunnelled), with the first time (s0,
    the initial state, is not needed)."""
    problems = []
    for body, (pos, rot, geoms) in free_bodies(m, states).items():
        for g in geoms:
            centre = pos + np.einsum("tij,j->ti", rot, m.geom_pos[g])
            checks = [("below the tray top (z %.4f)", centre[:, 2], lambda v: v > TRAY_TOP),
                      ("beyond a wall (|x| or |y| %.4f)", np.max(np.abs(centre[:, :2]), axis=1),
                       lambda v: v < TRAY_INNER)]
            for fmt, values, ok in checks:
                bad = np.flatnonzero(~ok(values))
                if bad.size:
                    t = bad[0]
                    problems.append("geom %s of %s went " % (g, body) + fmt % values[t] +
                                    " at t = %.3f s" % ((t + 1) * m.opt.timestep))
    return problems


def _check(problems_of, name, solver, cone):
    """Run both rollouts and assert the scene's rules on each."""
    m, s0, theirs, ours = rollouts(name, solver, cone)
    mj = problems_of(m, s0, theirs)
    assert not mj, "scene %s is wrong: MuJoCo breaks its own rules:\n  %s" % (
        name, "\n  ".join(mj))
    tn = problems_of(m, s0, ours)
    assert not tn, "%s over %.0f s with %s/%s (MuJoCo keeps the rules):\n  %s" % (
        name, DURATION, solver, cone, "\n  ".join(tn[:10]))


@pytest.mark.parametrize("solver,cone", SETTINGS, ids=["%s-%s" % s for s in SETTINGS])
def test_box_tower_stands(solver, cone):
    _check(tower_problems, "box_tower", solver, cone)


@pytest.mark.parametrize("solver,cone", SETTINGS, ids=["%s-%s" % s for s in SETTINGS])
def test_drop_tray_no_tunnelling(solver, cone):
    _check(tray_problems, "drop_tray", solver, cone)


def test_scene_states_have_contacts():
    """The contact checks' states of our scenes do make contacts (else they test little)."""
    few = []
    for model in corpus.local_models(["tests/models/scenes"]):
        sets = cc.mujoco_contacts(model)
        with_contacts = sum(1 for s in sets if len(s["dist"]))
        if with_contacts < 0.8 * len(sets):
            few.append("%s: %d of %d states" % (model.id, with_contacts, len(sets)))
    assert not few, "scene states without contacts: " + "; ".join(few)
