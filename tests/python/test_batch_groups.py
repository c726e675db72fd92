"""SimBatch steps its environments in groups of four (tn_stepGroup: some stages computed for
the whole group in SIMD lanes). Every environment must end with the bits it gets stepped
alone with torsion.mj_step: for each integrator (Euler with and without damping, RK4, and
the implicit ones, which step one by one), for counts that leave a partial group, for
subsets of environments, and when one environment of a group fails with an engine error
(it is reset; the other three end as if stepped alone)."""
import os
import re

import numpy as np
import pytest

import torsion
from torsion.batch import SimBatch
from pycore_models import GYM_ASSETS, REPO_ROOT, random_ctrl

FIELDS = ["qpos", "qvel", "act", "qacc", "qacc_warmstart", "qLD", "qLDiagInv", "qH",
          "qfrc_constraint", "sensordata", "time"]


def _with_option(path, tmp_path, option):
    """The model at path with its <option> integrator replaced by `option` (or a new
    <option> with it)."""
    text = re.sub(r'(<option[^>]*?)\s+integrator="[^"]*"', r"\1", open(path).read())
    if "<option" in text:
        at = text.index("<option") + len("<option")
        text = text[:at] + " " + option + text[at:]
    else:
        at = text.index(">", text.index("<mujoco")) + 1
        text = text[:at] + "\n  <option " + option + "/>" + text[at:]
    out = tmp_path / os.path.basename(path)
    out.write_text(text)
    return str(out)


def _alone(model, qpos, qvel, ctrls, nstep):
    """Each environment stepped alone: fields after the steps, one dict per environment."""
    out = []
    for e in range(qpos.shape[0]):
        d = torsion.MjData(model)
        d.qpos[:] = qpos[e]
        d.qvel[:] = qvel[e]
        torsion.mj_forward(model, d)
        for ctrl in ctrls:
            if e in ctrl:
                d.ctrl[:] = ctrl[e]
                for _ in range(nstep):
                    torsion.mj_step(model, d)
        out.append({f: np.copy(getattr(d, f)) for f in FIELDS})
    return out


MODELS = [("humanoid.xml", ""), ("half_cheetah.xml", ""), ("ant.xml", ""),
          ("hopper.xml", 'integrator="Euler"'), ("walker2d_v5.xml", 'integrator="implicitfast"'),
          ("humanoid.xml", 'integrator="Euler"')]


@pytest.mark.parametrize("name,option", MODELS)
@pytest.mark.parametrize("n,nthread", [(7, 2), (8, 1)])
def test_groups_match_stepping_alone(tmp_path, name, option, n, nthread):
    """All envs, then a subset of five (one group and one partial), bitwise as alone."""
    path = os.path.join(GYM_ASSETS, name)
    if option:
        path = _with_option(path, tmp_path, option)
    model = torsion.MjModel.from_xml_path(path)
    rng = np.random.default_rng(n)
    qpos = model.qpos0 + 0.05 * rng.standard_normal((n, model.nq))
    qvel = 0.5 * rng.standard_normal((n, model.nv))
    batch = SimBatch(model, n, nthread=nthread)
    batch.reset(None, qpos, qvel)
    subset = [6, 0, 3, 5, 2]
    ctrls = []
    for it in range(6):
        ids = list(range(n)) if it % 2 == 0 else subset
        ctrl = random_ctrl(model, len(ids), seed=it)
        batch.step(ctrl, 5, None if it % 2 == 0 else ids)
        ctrls.append({e: ctrl[j] for j, e in enumerate(ids)})
    got = batch.get(FIELDS)
    want = _alone(model, qpos, qvel, ctrls, 5)
    for e in range(n):
        for f in FIELDS:
            np.testing.assert_array_equal(got[f][e], want[e][f], err_msg=f"env {e} {f}")


def test_failure_in_a_group_keeps_the_others(tmp_path):
    """A capsule heap with a 40K arena: env 2 starts from the settled heap (its contacts
    exhaust the arena at once), the others from the initial pose (no contacts yet). Env 2
    raises FatalError and is reset; envs 0, 1, 3, 4 hold the bits of stepping alone."""
    src = os.path.join(REPO_ROOT, "tests", "models", "scenes", "capsule_heap.xml")
    settled_model = torsion.MjModel.from_xml_path(src)
    d = torsion.MjData(settled_model)
    for _ in range(400):
        torsion.mj_step(settled_model, d)
    text = open(src).read()
    start = text.index(">", text.index("<mujoco")) + 1
    small = tmp_path / "capsules_small.xml"
    small.write_text(text[:start] + '\n  <size memory="40K"/>' + text[start:])
    model = torsion.MjModel.from_xml_path(str(small))

    n = 5
    qpos = np.tile(model.qpos0, (n, 1))
    qvel = np.zeros((n, model.nv))
    batch = SimBatch(model, n)
    batch.reset(None, qpos, qvel)
    env2 = batch.data(2)  # the settled state, set without a forward pass (which would fail)
    env2.qpos[:], env2.qvel[:] = d.qpos, d.qvel
    with pytest.raises(torsion.FatalError, match="env 2"):
        batch.step(None, 3)
    got = batch.get(FIELDS)
    assert got["time"][2] == 0.0
    np.testing.assert_array_equal(got["qpos"][2], model.qpos0)
    keep = [0, 1, 3, 4]
    want = _alone(model, qpos[keep], qvel[keep], [{e: np.zeros(0) for e in range(4)}], 3)
    for j, e in enumerate(keep):
        assert got["time"][e] > 0
        for f in FIELDS:
            np.testing.assert_array_equal(got[f][e], want[j][f], err_msg=f"env {e} {f}")
