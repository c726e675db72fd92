"""Mid-phase reach tests at their thresholds: contact sets equal MuJoCo 3.14's while bodies of
several geoms (tests/models/collision/midphase_reach.xml: primitives, a mesh, a visual-only
geom, per-geom margins and gaps) are swept through their detection distances from a tilted
plane (with its own margin and gap) and from each other.

Torsion skips a body pair's geoms that cannot reach the other body: a plane by
filter_sphere against each of the other body's geoms, other geoms by their world boxes
against the other body's sphere and box, a plane against a box above it. These tests only
skip pairs that no collider would report, so the contacts (those in the gap included) must
be MuJoCo's at every state. States: the first body at heights from well inside to well
beyond the detection distances, in random orientations, with the second body placed next
to it at offsets crossing their combined detection distances.
"""
import os

import mujoco
import numpy as np

from harness import contacts, corpus, oracle, torsion
from harness import constraint_cases as cc

MODEL = os.path.join(corpus.REPO_ROOT, "tests", "models", "collision", "midphase_reach.xml")
NSTATE = 240


def _states(m):
    """SPEC states: the cluster body swept in height over the plane, the partner body swept
    in distance from the cluster, random orientations for both."""
    r = oracle.rng("midphase_reach", "states")
    d = mujoco.MjData(m)
    states = []
    for k in range(NSTATE):
        quat1 = r.standard_normal(4)
        quat2 = r.standard_normal(4)
        d.qpos[0:3] = [0.0, 0.0, 0.02 + 0.28 * k / NSTATE]
        d.qpos[3:7] = quat1 / np.linalg.norm(quat1)
        d.qpos[7:10] = [0.12 + 0.3 * ((k * 7) % NSTATE) / NSTATE, 0.05, 0.4]
        d.qpos[10:14] = quat2 / np.linalg.norm(quat2)
        d.qvel[:] = 0
        mujoco.mj_forward(m, d)
        states.append(cc.get_state(m, d))
    return np.array(states)


def test_midphase_reach_contact_sets():
    m = oracle.load(MODEL, disable=oracle.CONTACT_ORACLE)
    states = _states(m)
    theirs = [cc.forward_contacts(m, s) for s in states]
    ours = torsion.contacts(MODEL, states, spec=cc.SPEC_NAME)
    n = contacts.check_sets(m, ours, theirs, "midphase reach contacts")
    # the sweep does produce contacts, with the plane and between the bodies
    pairs = {tuple(int(x) for x in g) for t in theirs for g in t["geom"]}
    assert n > 0 and any(0 in p for p in pairs) and any(0 not in p for p in pairs), pairs
