"""Bad input to the contact and constraint model (issue 3): degenerate geoms, absurd solref
and solimp values, and NaN or huge positions with contacts active.

- A geom with a zero or negative size is a compile error in both engines, and Torsion's
  message names the file, the line, the element and the attribute.
- solref/solimp values MuJoCo accepts (a time constant far below the timestep, mixed
  signs, a direct stiffness of 1e15, zeros, out-of-range solimp) compile in Torsion too, and
  a 300-step rollout of a ball dropped on a plane gives MuJoCo's states (1e-6) — whatever
  MuJoCo substitutes at run time (refsafe, its default for a mixed-sign solref, clamped
  solimp), Torsion substitutes the same. A NaN solref, which MuJoCo only warns about, is a
  compile error in Torsion.
- NaN, Inf or huge values in qpos/qvel of a contact scene trigger MuJoCo's warn-and-reset:
  Torsion's rollout equals MuJoCo's, also with constraints on."""
import os
import tempfile

import mujoco
import numpy as np
import pytest

from harness import compare, corpus, oracle, torsion

BALL = """<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="ball" pos="0.1 -0.05 0.25">
      <freejoint/>
      %s
    </body>
  </worldbody>
</mujoco>
"""

DEGENERATE = {
    "sphere_zero": ('<geom type="sphere" size="0"/>', "size"),
    "sphere_negative": ('<geom type="sphere" size="-0.1"/>', "size"),
    "box_zero": ('<geom type="box" size="0.1 0 0.1"/>', "size"),
    "box_negative": ('<geom type="box" size="0.1 -0.1 0.1"/>', "size"),
    "capsule_zero_radius": ('<geom type="capsule" size="0 0.1"/>', "size"),
    "capsule_zero_length": ('<geom type="capsule" size="0.1 0"/>', "size"),
    "cylinder_negative": ('<geom type="cylinder" size="0.1 -0.2"/>', "size"),
    "ellipsoid_zero": ('<geom type="ellipsoid" size="0.1 0.1 0"/>', "size"),
}

ABSURD = {
    "solref_tiny_timeconst": '<geom type="sphere" size="0.1" solref="1e-12 1"/>',
    "solref_mixed_signs": '<geom type="sphere" size="0.1" solref="0.02 -1"/>',
    "solref_direct_huge": '<geom type="sphere" size="0.1" solref="-1e15 -1e10"/>',
    "solref_zero": '<geom type="sphere" size="0.1" solref="0 0"/>',
    "solimp_out_of_range": '<geom type="box" size="0.1 0.08 0.06" solimp="2 -1 0 5 0"/>',
    "solref_huge_damping": '<geom type="capsule" size="0.05 0.1" solref="0.02 1e12"/>',
}

NSTEP = 300


def _write(tmp, name, xml):
    path = os.path.join(tmp, name + ".xml")
    with open(path, "w") as f:
        f.write(xml)
    return path


@pytest.mark.parametrize("case", sorted(DEGENERATE))
def test_degenerate_geom_rejected(case):
    geom, attribute = DEGENERATE[case]
    xml = BALL % geom
    with pytest.raises(Exception, match="positive"):
        mujoco.MjModel.from_xml_string(xml)
    with tempfile.TemporaryDirectory(prefix="tn-bad-") as tmp:
        path = _write(tmp, case, xml)
        proc = torsion.run(["info", path], check=False)
    err = proc.stderr
    assert proc.returncode > 0, "%s compiled: %s" % (case, geom)
    assert case + ".xml" in err and ":6:" in err, "no file and line in %r" % err
    assert "geom" in err and attribute in err, "element/attribute not named: %r" % err


@pytest.mark.parametrize("case", sorted(ABSURD))
def test_absurd_parameters_match_mujoco(case):
    xml = BALL % ABSURD[case]
    with tempfile.TemporaryDirectory(prefix="tn-bad-") as tmp:
        path = _write(tmp, case, xml)
        m = mujoco.MjModel.from_xml_path(path)
        m.opt.disableflags |= oracle.disable_bits(oracle.CONTACT_ORACLE)
        d = mujoco.MjData(m)
        mujoco.mj_resetData(m, d)
        d.qvel[:3] = [0.3, -0.2, -1.0]
        d.qvel[3:6] = [1.0, 2.0, -0.5]
        spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
        s0 = np.zeros(mujoco.mj_stateSize(m, spec))
        mujoco.mj_getState(m, d, s0, spec)
        expected = oracle.rollout(m, s0[None], None, NSTEP)
        ours = torsion.rollout(path, s0[None], None, NSTEP)
    assert np.all(np.isfinite(ours)), "non-finite state in Torsion's rollout"

    # the ball reaches the floor: contacts were active along the way
    z = expected[0, :, 3]
    assert z.min() < 0.11, "the ball never touched the floor (z min %.3f)" % z.min()
    compare.check_states(m, ours, expected, 1e-6, "rollout with %s" % case)


def test_nan_solref_rejected():
    with tempfile.TemporaryDirectory(prefix="tn-bad-") as tmp:
        path = _write(tmp, "solref_nan", BALL % '<geom type="sphere" size="0.1" solref="nan 1"/>')
        proc = torsion.run(["info", path], check=False)
    assert proc.returncode > 0 and "solref" in proc.stderr, proc.stderr


BAD_VALUES = {"qpos_nan": ("qpos", np.nan), "qpos_huge": ("qpos", 1e11),
              "qvel_inf": ("qvel", np.inf), "qvel_nan": ("qvel", np.nan)}


@pytest.mark.parametrize("bad", sorted(BAD_VALUES))
def test_warn_and_reset_with_contacts(bad):
    model = {mm.id: mm for mm in corpus.contact_models()}["local/scenes/box_tower"]
    m = oracle.load(model.path, disable=oracle.CONTACT_ORACLE)
    d = mujoco.MjData(m)
    mujoco.mj_resetData(m, d)
    for _ in range(20):
        mujoco.mj_step(m, d)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    s = np.zeros(mujoco.mj_stateSize(m, spec))
    mujoco.mj_getState(m, d, s, spec)
    states = np.repeat(s[None], 3, axis=0)
    block, value = BAD_VALUES[bad]
    sl = dict(oracle.state_blocks(m))[block]
    states[1, sl.start], states[2, sl.stop - 1] = value, value
    expected = oracle.rollout(m, states, None, 5)
    ours = torsion.rollout(model.path, states, None, 5)
    assert d.ncon > 0, "the box tower has no contacts at the start state"
    compare.check_states(m, ours, expected, 1e-9, "rollout from a contact state with %s" % bad)
