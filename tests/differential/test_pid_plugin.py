"""MuJoCo's first-party `mujoco.pid` actuator plugin against MuJoCo 3.14, on our models
(tests/models/pid: kp/kd only, an integral without and with imax, a slew limit alone, every
key with instances shared by several actuators, actuators with their own dynamics and
implicit instances, pid actuators in a disabled actuator group with clampctrl disabled) and
Menagerie's shadow_dexee (12 pid actuators on 4 shared instances):
- compiled fields (sizes, plugin_* arrays, actuator_plugin, activation layout, actuator
  parameters) within 1e-10, and the state size;
- at random states, constraints disabled (some states at time 0, where the slew limit has
  no previous control yet): actuator_force, act_dot and qfrc_actuator within 1e-9, qacc
  within 1e-8;
- one step along MuJoCo trajectories (from time 0) with each integrator within 1e-9, and
  200-step rollouts within 1e-8;
- mjd_transitionFD A and B (forward and centered) within 1e-6;
- MuJoCo's load errors (bad config keys and values, wrong actdim, unused instances,
  undeclared or unknown plugins) refused with a message naming file, element and cause."""
import os
import tempfile

import mujoco
import numpy as np
import pytest

from harness import cases, compare, corpus, deriv, oracle, robots, torsion

MENAGERIE = robots.menagerie_dir()
DEXEE = corpus.Model("menagerie/shadow_dexee", os.path.join(MENAGERIE, "shadow_dexee",
                                                             "scene.xml"))

MODELS = corpus.local_models(["tests/models/pid"]) + [DEXEE]
MODEL_IDS = [str(m) for m in MODELS]

COMPILED_TOL = 1e-10
FORCE_TOL = 1e-9
QACC_TOL = 1e-8
STEP_TOL = 1e-9
ROLLOUT_TOL = 1e-8
NSTATE = 50
NTIME0 = 10  # of the random states, how many sit at time 0
NROLL = 4
NROLL_STEP = 200

SIZES = ["nu", "na", "nplugin", "npluginattr", "npluginstate"]
COMPILED_FIELDS = [
    "plugin", "plugin_stateadr", "plugin_statenum", "plugin_attr", "plugin_attradr",
    "actuator_plugin", "actuator_actadr", "actuator_actnum", "actuator_trntype",
    "actuator_trnid", "actuator_dyntype", "actuator_gaintype", "actuator_biastype",
    "actuator_dynprm", "actuator_gainprm", "actuator_biasprm", "actuator_actearly",
    "actuator_ctrllimited", "actuator_forcelimited", "actuator_actlimited",
    "actuator_ctrlrange", "actuator_forcerange", "actuator_actrange", "actuator_gear",
]
DATA_TOLS = [("actuator_force", FORCE_TOL), ("act_dot", FORCE_TOL),
             ("qfrc_actuator", FORCE_TOL), ("qacc", QACC_TOL)]


def _uses_pid(m):
    return m.nplugin > 0 and np.any(m.actuator_plugin >= 0)


@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_compiled(model):
    m = oracle.load(model.path)
    assert _uses_pid(m)
    info = torsion.info(model.path)
    assert info["nstate"] == mujoco.mj_stateSize(m, oracle.FULLPHYSICS)
    ours = torsion.dump(model.path, COMPILED_FIELDS)
    sizes = {k: int(getattr(m, k)) for k in SIZES}
    for k in ("nu", "na"):
        assert info[k] == sizes[k], (k, info[k], sizes[k])
    assert ours["plugin"].size == sizes["nplugin"]
    assert ours["plugin_attr"].size == sizes["npluginattr"]
    assert sizes["npluginstate"] == 0
    for name in COMPILED_FIELDS:
        theirs = np.asarray(getattr(m, name), dtype=float).reshape(1, -1)
        compare.check_rows(ours[name].reshape(1, -1), theirs, COMPILED_TOL, name)


def _states(m, model_id):
    """Random states and controls; the first NTIME0 at time 0 (no previous control for the
    slew limit)."""
    states, ctrl = oracle.random_states(m, NSTATE, oracle.rng(model_id, "pid"))
    states[:NTIME0, 0] = 0.0
    return states, ctrl


@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_forward(model):
    m = oracle.load(model.path)
    states, ctrl = _states(m, model.id)
    names = [n for n, _ in DATA_TOLS if n != "act_dot" or m.na]
    ours = torsion.dump(model.path, names, states, ctrl, disable=oracle.SMOOTH_ONLY)
    theirs = oracle.data_fields(m, states, ctrl, names)
    for name, tol in DATA_TOLS:
        if name not in names:
            continue
        b = theirs[name]
        a = ours[name].reshape(b.shape)
        compare.check_rows(a.reshape(len(a), -1), b.reshape(len(b), -1), tol,
                           "mj_forward %s" % name, row_name="state")


@pytest.mark.parametrize("integrator", ["euler", "rk4", "implicit", "implicitfast"])
@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_one_step(model, integrator):
    m = oracle.load(model.path, integrator=integrator)
    inputs, ctrl, outputs = cases.trajectory_case(model, integrator)
    ours = torsion.rollout(model.path, inputs, ctrl[:, None, :], 1,
                           disable=oracle.SMOOTH_ONLY, threads=2, integrator=integrator)
    compare.check_states(m, ours[:, 0, :], outputs, STEP_TOL,
                         "state after one %s step" % integrator)


@pytest.mark.parametrize("integrator", ["euler", "rk4", "implicit", "implicitfast"])
@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_rollout(model, integrator):
    """200-step rollouts from random states (the first one at time 0) under smooth
    controls that overshoot ctrlrange."""
    m = oracle.load(model.path, integrator=integrator)
    r = oracle.rng(model.id, "pid rollout " + integrator)
    s0, _ = oracle.random_states(m, NROLL, r, spread=0.3)
    s0[0, 0] = 0.0
    ctrl = np.stack([oracle.smooth_controls(m, NROLL_STEP, r) for _ in range(NROLL)])
    expected = oracle.rollout(m, s0, ctrl, NROLL_STEP)
    ours = torsion.rollout(model.path, s0, ctrl, NROLL_STEP, disable=oracle.SMOOTH_ONLY,
                           integrator=integrator)
    compare.check_states(m, ours, expected, ROLLOUT_TOL, "%d-step %s rollout" % (
        NROLL_STEP, integrator))


FD_TOL = 1e-6
NFD = 6


@pytest.mark.parametrize("centered", [False, True], ids=["forward", "centered"])
@pytest.mark.parametrize("model", MODELS, ids=MODEL_IDS)
def test_transition_fd(model, centered):
    """mjd_transitionFD through pid actuators (the integral and previous-control
    activations are state columns), constraints off, at random states (one at time 0)."""
    m = deriv.load(model.path, constraints=False)
    states, ctrl = oracle.random_states(m, NFD, oracle.rng(model.id, "pid fd"), spread=0.3)
    states[0, 0] = 0.0
    A, B = deriv.transition_fd(m, states, ctrl, 1e-6, centered)
    tA, tB = deriv.t_transition_fd(model.path, states, ctrl, 1e-6, centered, m.nv, m.na, m.nu,
                                   constraints=False)
    compare.check_rows(tA.reshape(NFD, -1), A.reshape(NFD, -1), FD_TOL, "A", row_name="state")
    compare.check_rows(tB.reshape(NFD, -1), B.reshape(NFD, -1), FD_TOL, "B", row_name="state")


# ---------------------------------------------------------------------------------------
# load errors
# ---------------------------------------------------------------------------------------

BODY = """<worldbody><body><joint name="j"/><geom size=".1"/>
  <body pos="0 0 1"><joint name="k" type="slide"/><geom size=".1"/></body></body></worldbody>"""


def _pid(configs, instance="p"):
    keys = "".join('<config key="%s" value="%s"/>' % kv for kv in configs)
    return ('<extension><plugin plugin="mujoco.pid"><instance name="%s">%s</instance>'
            '</plugin></extension>' % (instance, keys))


def _model(extension, actuators):
    return "<mujoco>%s%s<actuator>%s</actuator></mujoco>" % (extension, BODY, actuators)


BAD = {
    "negative_imax": (_model(_pid([("ki", "2"), ("imax", "-1")]),
                             '<plugin instance="p" joint="j" actdim="1"/>'), ["negative imax"]),
    "negative_ki_imax": (_model(_pid([("ki", "-2"), ("imax", "1")]),
                                '<plugin instance="p" joint="j" actdim="1"/>'),
                         ["negative imax"]),
    "negative_slewmax": (_model(_pid([("slewmax", "-1")]),
                                '<plugin instance="p" joint="j" actdim="1"/>'),
                         ["slewmax must be non-negative"]),
    "actdim_missing": (_model(_pid([("kp", "1"), ("ki", "1")]),
                              '<plugin instance="p" joint="j"/>'),
                       ["actdim", 'Add actdim="1"']),
    "actdim_extra": (_model(_pid([("kp", "1")]),
                            '<plugin instance="p" joint="j" actdim="2"/>'),
                     ["actdim", 'Add actdim="0"']),
    "actdim_filter": (_model(_pid([("ki", "1"), ("slewmax", "1")]),
                             '<plugin instance="p" joint="j" dyntype="filter" actdim="2"/>'),
                      ["actdim", 'Add actdim="3"']),
    "actdim_second_actuator": (_model(_pid([("ki", "1")]),
                                      '<plugin instance="p" joint="j" actdim="1"/>'
                                      '<plugin instance="p" joint="k"/>'),
                               ["actuator 1 has actdim 0"]),
    "unused_instance": (_model(_pid([("kp", "1")]), '<motor joint="j"/>'),
                        ["actuator not found for plugin instance"]),
    "unknown_key": (_model(_pid([("kp", "1"), ("kq", "2")]),
                           '<plugin instance="p" joint="j"/>'), ["plugin:kq", "mujoco.pid"]),
    "duplicate_key": (_model(_pid([("kp", "1"), ("kp", "2")]),
                             '<plugin instance="p" joint="j"/>'), ["duplicate config key"]),
    "unknown_plugin": (_model('<extension><plugin plugin="mujoco.nothing"><instance name="p"/>'
                              '</plugin></extension>', '<plugin instance="p" joint="j"/>'),
                       ["mujoco.nothing"]),
    "undeclared_plugin": (_model("", '<plugin plugin="mujoco.pid" joint="j"/>'),
                          ["unrecognized plugin", "mujoco.pid"]),
    "unknown_instance": (_model(_pid([("kp", "1")]), '<plugin instance="q" joint="j"/>'
                                '<plugin instance="p" joint="k"/>'),
                         ["instance", "'q'"]),
    "no_plugin_no_instance": (_model(_pid([("kp", "1")]), '<plugin joint="j"/>'),
                              ["neither 'plugin' nor 'instance'"]),
    "repeated_instance": (_model('<extension><plugin plugin="mujoco.pid"><instance name="p"/>'
                                 '<instance name="p"/></plugin></extension>',
                                 '<plugin instance="p" joint="j"/>'), ["repeated name 'p'"]),
    "instance_without_name": (_model('<extension><plugin plugin="mujoco.pid"><instance/>'
                                     '</plugin></extension>', '<motor joint="j"/>'),
                              ["name"]),
    "config_without_value": (_model(_pid([]).replace("</instance>",
                                                     '<config key="kp"/></instance>'),
                                    '<plugin instance="p" joint="j"/>'), ["value"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_errors(case):
    xml, words = BAD[case]
    with tempfile.TemporaryDirectory(prefix="tn-pid-") as tmp:
        path = os.path.join(tmp, case + ".xml")
        with open(path, "w") as f:
            f.write(xml)
        with pytest.raises(ValueError):
            mujoco.MjModel.from_xml_path(path)
        proc = torsion.run(["info", path], check=False)
    assert proc.returncode != 0, "torsion-sim accepted %s" % case
    message = proc.stderr.strip()
    assert path in message, message
    for word in words:
        assert word.lower() in message.lower(), "%r not in %r" % (word, message)
