"""robots — the real-robot corpora: MuJoCo Menagerie, Gymnasium-Robotics, Meta-World,
MyoSuite (myo-sim: its static models and the composed ones it generates) and dm_control's
dog. Models nobody on this team wrote.

Menagerie comes from $TORSION_MENAGERIE, by default the repository's sibling
../shared/corpus/menagerie. That directory holds either one ROBOT.tar.xz per robot (the
shared corpus, with manifest.json): they are unpacked once into build/menagerie-cache/; or
ROBOT/ folders as in a Menagerie checkout: used in place. Entry points: the manifest's
"entry" list when there is one; else each robot's scene*.xml files, else its top-level XML
files whose root element is <mujoco>.

The PyPI packages (pinned in requirements-test.txt; gymnasium-robotics, metaworld and
myo-sim installed without their dependencies, only their XML files are used): every XML
file under their asset folders whose root element is <mujoco> (files with a <mujocoinclude>
root exist only to be included). Some of those are fragments that MuJoCo itself rejects;
the tests then require Torsion to reject them as well.

Model ids: "men/<robot>/<file>", "gr/<path>", "mw/<path>", "myo/<path>", "dmc/dog".
"""
import glob
import importlib.util
import json
import os
import re
import subprocess

from .corpus import REPO_ROOT, Model

MENAGERIE_ENV = "TORSION_MENAGERIE"
MENAGERIE_DEFAULT = os.path.join(os.path.dirname(REPO_ROOT), "shared", "corpus", "menagerie")
CACHE_DIR = os.path.join(REPO_ROOT, "build", "menagerie-cache")

# the PyPI packages: (id prefix, package, folder inside it)
PACKAGES = [("gr", "gymnasium_robotics", ("envs", "assets")),
            ("mw", "metaworld", ("assets",)),
            ("myo", "myo_sim", ("models",))]

_ROOT_RE = re.compile(r"<\s*([A-Za-z_][\w.:-]*)")


def root_element(path):
    """Name of the first element of an XML file (comments and declarations skipped)."""
    with open(path, errors="replace") as f:
        text = f.read(1 << 16)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"<\?.*?\?>", "", text, flags=re.S)
    found = _ROOT_RE.search(text)
    return found.group(1) if found else None


def menagerie_dir():
    """The Menagerie directory of ROBOT/ folders (unpacking the archives when needed)."""
    src = os.environ.get(MENAGERIE_ENV, MENAGERIE_DEFAULT)
    if not os.path.isdir(src):
        raise RuntimeError("Menagerie corpus not found at %s (set %s)" % (src, MENAGERIE_ENV))
    archives = sorted(glob.glob(os.path.join(src, "*.tar.xz")))
    if not archives:
        return src
    os.makedirs(CACHE_DIR, exist_ok=True)
    for a in archives:
        robot = os.path.basename(a)[:-len(".tar.xz")]
        stamp = os.path.join(CACHE_DIR, "." + robot + ".unpacked")
        if os.path.exists(stamp) and os.path.getmtime(stamp) >= os.path.getmtime(a):
            continue
        subprocess.run(["tar", "-xJf", a, "-C", CACHE_DIR], check=True)
        with open(stamp, "w"):
            pass
    return CACHE_DIR


def _manifest():
    """The corpus manifest (None for a plain checkout)."""
    src = os.environ.get(MENAGERIE_ENV, MENAGERIE_DEFAULT)
    path = os.path.join(src, "manifest.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def menagerie_models():
    """Every Menagerie entry point."""
    root = menagerie_dir()
    manifest = _manifest()
    rels = []
    if manifest is not None:
        for robot in sorted(manifest):
            rels += manifest[robot]["entry"]
    else:
        for robot in sorted(os.listdir(root)):
            folder = os.path.join(root, robot)
            if not os.path.isdir(folder):
                continue
            scenes = sorted(glob.glob(os.path.join(folder, "scene*.xml")))
            if not scenes:
                scenes = [p for p in sorted(glob.glob(os.path.join(folder, "*.xml")))
                          if root_element(p) == "mujoco"]
            rels += [os.path.relpath(p, root) for p in scenes]
    return [Model("men/" + rel[:-4], os.path.join(root, rel)) for rel in rels]


def _package_dir(package, sub):
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        raise RuntimeError("package '%s' is not installed (requirements-test.txt)" % package)
    return os.path.join(os.path.dirname(spec.origin), *sub)


def package_models():
    """The Gymnasium-Robotics, Meta-World and myo-sim models, and dm_control's dog."""
    models = []
    for prefix, package, sub in PACKAGES:
        root = _package_dir(package, sub)
        for path in sorted(glob.glob(os.path.join(root, "**", "*.xml"), recursive=True)):
            if root_element(path) == "mujoco":
                models.append(Model("%s/%s" % (prefix, os.path.relpath(path, root)[:-4]), path))
    models.append(Model("dmc/dog", os.path.join(_package_dir("dm_control", ("suite",)),
                                                "dog.xml")))
    return models


MYO_CACHE = os.path.join(REPO_ROOT, "build", "myo-cache")


def myosuite_models():
    """MyoSuite's composed models (arms, torso, legs, full body). myo-sim assembles them
    from its fragments with MuJoCo's model editing and writes them as MJCF files with its
    own generate_xml_files; that is done once per myo-sim version into build/myo-cache/."""
    import myo_sim
    from myo_sim.build import compose
    root = os.path.join(MYO_CACHE, myo_sim.__version__)
    stamp = os.path.join(root, ".generated")
    if not os.path.exists(stamp):
        from pathlib import Path
        compose.generate_xml_files(Path(root))
        with open(stamp, "w"):
            pass
    rels = sorted(str(rel) for rel in compose.GENERATE_XML_TARGETS.values())
    return [Model("myo/composed/" + rel[:-4], os.path.join(root, rel)) for rel in rels]


_ALL = None


def all_models():
    """Every real-robot model (Menagerie first), computed once."""
    global _ALL
    if _ALL is None:
        _ALL = menagerie_models() + package_models() + myosuite_models()
    return _ALL
