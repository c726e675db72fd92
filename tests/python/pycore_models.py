"""Models and helpers shared by the Python-package suites (tests/python): the models both
engines load and reproducible controls. A module of its own (not conftest) so that test
files can import it while other suites' conftest modules are loaded in the same run."""
import os

import gymnasium
import numpy as np

import torsion

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GYM_ASSETS = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")

# Gymnasium's MuJoCo tasks and a few of Torsion's own test models
GYM_MODELS = ["ant.xml", "half_cheetah.xml", "hopper.xml", "humanoid.xml",
              "inverted_double_pendulum.xml", "inverted_pendulum.xml", "reacher.xml",
              "swimmer.xml", "walker2d_v5.xml", "pusher_v5.xml"]
OWN_MODELS = ["pendulum_chain.xml", "fluid_light.xml"]
MODEL_PATHS = ([os.path.join(GYM_ASSETS, f) for f in GYM_MODELS]
               + [os.path.join(REPO_ROOT, "tests", "models", f) for f in OWN_MODELS])


def model_id(path):
    """A short test id for a model path."""
    return os.path.splitext(os.path.basename(path))[0]


def random_ctrl(model, nstep, seed=0):
    """A reproducible control sequence [nstep, nu] inside the control ranges."""
    rng = np.random.default_rng(seed)
    lo = np.where(model.actuator_ctrllimited, model.actuator_ctrlrange[:, 0], -1.0)
    hi = np.where(model.actuator_ctrllimited, model.actuator_ctrlrange[:, 1], 1.0)
    return lo + (hi - lo) * rng.random((nstep, model.nu))


def small_arena_capsule_heap(tmp_path, memory="40K"):
    """The capsule heap scene with <size memory=...> (small enough that the landed heap's
    contacts exhaust it), and a torsion MjData of the heap settled by 400 steps of the
    unmodified scene (whose state makes the small-arena model's next step fail)."""
    src = os.path.join(REPO_ROOT, "tests", "models", "scenes", "capsule_heap.xml")
    settled_model = torsion.MjModel.from_xml_path(src)
    settled = torsion.MjData(settled_model)
    for _ in range(400):
        torsion.mj_step(settled_model, settled)
    with open(src) as f:
        text = f.read()
    start = text.index(">", text.index("<mujoco")) + 1
    small = tmp_path / "capsules_small.xml"
    small.write_text(text[:start] + '\n  <size memory="%s"/>' % memory + text[start:])
    return torsion.MjModel.from_xml_path(str(small)), settled
