"""Real robots (harness/robots.py): every Menagerie, Gymnasium-Robotics, Meta-World and
MyoSuite model, and dm_control's dog, against MuJoCo 3.14.

Per model (test ids name it, e.g. test_robot_step[men/unitree_g1/scene]):
- test_robot_loads: Torsion loads what MuJoCo loads, with the same sizes; a file MuJoCo
  rejects (a fragment meant for inclusion) Torsion rejects too, with a message naming it;
- test_robot_model: body masses, inertias and inertial frames' positions, geom sizes and
  qpos0 within 1e-10;
- test_robot_qacc_smooth: qacc after mj_forward at NSMOOTH random states, constraints off
  on both sides, within 1e-8;
- test_robot_qacc: qacc with constraints on at the contact states (NCONTACT: along a
  trajectory from the first keyframe that settles, perturbed, random ones lowered onto the
  floor), within 1e-5;
- test_robot_contacts: the contact sets at those states (geom pairs and dims; dist 1e-9,
  pos and frame 1e-6);
- test_robot_step: one-step consistency along a NSTEP-step MuJoCo trajectory from the first
  keyframe (integration state in, warm start included; the model's own integrator), 1e-6.
With constraints on, MuJoCo runs with islands and native CCD disabled (docs/fidelity.md).
The numbers of states are chosen for the whole suite's time budget.
"""
import copy

import mujoco
import numpy as np
import pytest

from harness import compare, contacts, oracle, robots, torsion
from harness import constraint_cases as cc
from harness.cases import _frozen

MODELS = robots.all_models()
IDS = [m.id for m in MODELS]

NSMOOTH = 8
NTRAJ_STATES, NPERTURB, NRANDOM = 6, 3, 3
NSTEP = 200
SETTLE_STEPS = 500

SIZES = ["nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "nmesh", "ntendon",
         "neq", "nsensor", "nsensordata", "nkey", "nmocap", "nwrap"]
FIELDS = ["body_mass", "body_inertia", "body_ipos", "geom_size", "qpos0"]


class Robot:
    """One model's MuJoCo side, built when its first test runs and dropped after its last
    (the module-scoped fixture below groups the tests by model): compiled models are not
    cached for the whole session, which would hold every corpus model in memory."""

    def __init__(self, model):
        self.model = model
        self._models = {}
        self._states = None

    def mujoco(self, disable):
        """MuJoCo's model with these disable flags, or None (and the load error)."""
        if None not in self._models:
            try:
                self._models[None] = (mujoco.MjModel.from_xml_path(self.model.path), None)
            except ValueError as e:
                self._models[None] = (None, str(e).strip().splitlines()[0])
        base, why = self._models[None]
        if base is None:
            return None, why
        if disable not in self._models:
            # a copy of the one compiled model (compiling a mesh-heavy file takes seconds)
            m = copy.copy(base)
            m.opt.disableflags |= oracle.disable_bits(disable)
            self._models[disable] = (m, None)
        return self._models[disable]

    def pair(self, disable=oracle.SMOOTH_ONLY):
        """MuJoCo's model; None after checking that Torsion rejects a file MuJoCo rejects."""
        __tracebackhide__ = True
        m, why = self.mujoco(disable)
        if m is None:
            proc = torsion.run(["info", self.model.path], check=False)
            assert proc.returncode != 0, (
                "MuJoCo rejects %s (%s) but Torsion loads it" % (self.model.id, why))
            assert ".xml" in proc.stderr, proc.stderr
        return m

    def contact_states(self):
        """[NCONTACT, nstate] integration states where contacts occur (module docstring)."""
        if self._states is None:
            self._states = _contact_states(self.model, self.mujoco(oracle.CONTACT_ORACLE)[0])
        return self._states


@pytest.fixture(scope="module", params=MODELS, ids=IDS)
def robot(request):
    return Robot(request.param)


def _contact_states(model, m):
    """Integration states along a settling trajectory, perturbed, and random ones."""
    r = oracle.rng(model.id, "robot-contact-states")
    d = mujoco.MjData(m)
    nsettle = int(min(SETTLE_STEPS, max(50, round(1.0 / m.opt.timestep))))
    _, traj = cc.integration_trajectory(m, r, nsettle)
    picks = np.linspace(nsettle // 5, nsettle - 1, NTRAJ_STATES).astype(int)
    states = [traj[i] for i in picks]
    for k in range(NPERTURB):
        cc.set_state(m, d, traj[picks[k % NTRAJ_STATES]])
        d.qpos[:] = cc.perturb_qpos(m, d.qpos, r, 0.01)
        d.qvel[:] += r.normal(scale=0.5, size=m.nv)
        states.append(cc.get_state(m, d))
    full, ctrl = oracle.random_states(m, NRANDOM, r)
    for k in range(NRANDOM):
        mujoco.mj_resetData(m, d)
        mujoco.mj_setState(m, d, full[k], oracle.FULLPHYSICS)
        cc.lower_until_contact(m, d)
        if m.nu:
            d.ctrl[:] = ctrl[k]
        states.append(cc.get_state(m, d))
    return _frozen(np.array(states))


def test_robot_loads(robot):
    m = robot.pair()
    if m is None:
        return
    info = torsion.info(robot.model.path)
    bad = ["%s %s (MuJoCo %s)" % (k, info.get(k), getattr(m, k)) for k in SIZES
           if info.get(k) != getattr(m, k)]
    assert not bad, "sizes differ: " + ", ".join(bad)


def test_robot_model(robot):
    m = robot.pair()
    if m is None:
        return
    ours = torsion.dump(robot.model.path, FIELDS)
    for name in FIELDS:
        compare.check_rows(ours[name], oracle.model_field(m, name), 1e-10, name)


def test_robot_qacc_smooth(robot):
    m = robot.pair()
    if m is None:
        return
    states, ctrl = oracle.random_states(m, NSMOOTH, oracle.rng(robot.model.id, "robot-qacc"))
    theirs = oracle.forward_qacc(m, states, ctrl)
    ours = torsion.forward(robot.model.path, states, ctrl, disable=oracle.SMOOTH_ONLY)
    compare.check_rows(ours, theirs, 1e-8, "qacc (constraints off)", row_name="state")


def test_robot_qacc(robot):
    m = robot.pair(oracle.CONTACT_ORACLE)
    if m is None:
        return
    states = robot.contact_states()
    theirs = cc.forward_fields(m, states, ["qacc"])["qacc"]
    ours = torsion.forward(robot.model.path, states, spec=cc.SPEC_NAME)
    compare.check_rows(ours, theirs, 1e-5, "qacc (constraints on)", row_name="state")


def test_robot_contacts(robot):
    m = robot.pair(oracle.CONTACT_ORACLE)
    if m is None:
        return
    states = robot.contact_states()
    theirs = [cc.forward_contacts(m, s) for s in states]
    ours = torsion.contacts(robot.model.path, states, spec=cc.SPEC_NAME)
    contacts.check_sets(m, ours, theirs, "contact set after mj_forward")


def test_robot_step(robot):
    m = robot.pair(oracle.CONTACT_ORACLE)
    if m is None:
        return
    inputs, outputs = cc.integration_trajectory(m, oracle.rng(robot.model.id, "robot-step"),
                                                NSTEP)
    ours = torsion.rollout(robot.model.path, inputs, None, 1, threads=2, spec=cc.SPEC_NAME)
    compare.check_states(m, ours[:, 0, :], outputs, 1e-6, "state after one step",
                         spec=cc.SPEC)
