"""corpus — the models the differential tests and the benchmark run on.

Real models nobody on this team wrote, found in the installed Python packages (so the list
follows the pinned versions): every MJCF file in gymnasium's MuJoCo assets and every model
in the dm_control suite except dog.xml (checked with the real robots, harness/robots.py). Our own
models under tests/models (the demo chain, the tendon models) are added as "local/...".
A model's id is "<source>/<file name without .xml>", e.g. "gym/ant", "dmc/humanoid_CMU".
"""
import importlib.util
import os
from dataclasses import dataclass

# models of the packages that stay out, with the reason
EXCLUDED = {"dmc/dog": "checked with the real robots (test_robots.py): its 1000-step "
                       "trajectories per integrator here would dominate the suite's time"}

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
LOCAL_DIRS = ["tests/models", "tests/models/tendons"]
# scenes written for issue 3 (contacts and constraints): the collision and constraint
# helpers' scenes and the test suite's own (box tower, drops, humanoid crowd)
CONTACT_DIRS = ["tests/models/collision", "tests/models/constraint", "tests/models/scenes"]
# scenes of CONTACT_DIRS that stay out of the contact corpus, with the reason
CONTACT_EXCLUDED = {"local/scenes/gym_humanoid_crowd_64": "checked by test_crowd.py: the "
                    "contact checks' 1000-step trajectories per integrator on 64 humanoids "
                    "would add minutes to the suite"}

# documented fidelity gaps (docs/fidelity.md): local scenes left out of the dynamics
# corpus, {id: reason}; test_known_gaps.py checks the list. Corpus models never appear
# here. None at present.
KNOWN_GAPS = {}


@dataclass(frozen=True)
class Model:
    id: str     # "gym/ant"
    path: str   # absolute path of the MJCF file

    def __str__(self):
        return self.id


def _package_dir(package, *sub):
    """Directory inside an installed package (None when the package is missing)."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return None
    return os.path.join(os.path.dirname(spec.origin), *sub)


def _xml_files(directory):
    """Sorted MJCF files directly inside directory."""
    if not directory or not os.path.isdir(directory):
        return []
    return sorted(os.path.join(directory, f) for f in os.listdir(directory)
                  if f.endswith(".xml"))


def package_models():
    """The gymnasium and dm_control suite models (the corpus of issue 2)."""
    sources = [("gym", _package_dir("gymnasium", "envs", "mujoco", "assets")),
               ("dmc", _package_dir("dm_control", "suite"))]
    models = []
    for prefix, directory in sources:
        if directory is None:
            raise RuntimeError("package for '%s' models is not installed" % prefix)
        for path in _xml_files(directory):
            mid = "%s/%s" % (prefix, os.path.basename(path)[:-4])
            if mid not in EXCLUDED:
                models.append(Model(mid, path))
    return models


def local_models(dirs=None):
    """Our own models (tests/models/*.xml, tests/models/tendons/*.xml, or the given
    directories under the repository root)."""
    models = []
    for rel in LOCAL_DIRS if dirs is None else dirs:
        sub = rel[len("tests/models"):].strip("/")
        for path in _xml_files(os.path.join(REPO_ROOT, rel)):
            name = os.path.basename(path)[:-4]
            models.append(Model("local/" + (sub + "/" if sub else "") + name, path))
    return models


def all_models():
    """Every model the dynamics tests cover (documented gap scenes excluded)."""
    return [m for m in package_models() + local_models() if m.id not in KNOWN_GAPS]


def contact_models():
    """Every model the contact and constraint tests cover (issue 3): the dynamics corpus
    plus the scenes of CONTACT_DIRS, ids "local/collision/box_stack" etc."""
    return all_models() + [m for m in local_models(CONTACT_DIRS)
                           if m.id not in CONTACT_EXCLUDED]


def gap_models():
    """The local scenes with a documented fidelity gap (KNOWN_GAPS)."""
    return [m for m in local_models() if m.id in KNOWN_GAPS]


def select(models, patterns):
    """Models whose id contains one of the patterns (all when patterns is empty)."""
    if not patterns:
        return list(models)
    return [m for m in models if any(p in m.id for p in patterns)]
