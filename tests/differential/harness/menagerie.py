"""menagerie — paths of MuJoCo Menagerie robots for tests that use the Menagerie corpus.

A robot is taken from an unpacked corpus (build/menagerie/ROBOT/ under the repository), else
unpacked once per session from its archive in shared/corpus/menagerie/ beside the repository
into a temporary directory.
"""
import atexit
import functools
import os
import shutil
import tarfile
import tempfile

from . import corpus

UNPACKED = [os.path.join(corpus.REPO_ROOT, "build", "menagerie")]
# shared/ beside the repository (CI, the main checkout); the second entry serves checkouts
# kept elsewhere on the development machines
ARCHIVES = [os.path.join(corpus.REPO_ROOT, "..", "shared", "corpus", "menagerie"),
            "/work/shared/corpus/menagerie"]


@functools.lru_cache(maxsize=None)
def robot_root(robot):
    """Directory holding ROBOT/."""
    for root in UNPACKED:
        if os.path.isdir(os.path.join(root, robot)):
            return root
    for root in ARCHIVES:
        archive = os.path.join(root, robot + ".tar.xz")
        if os.path.exists(archive):
            out = tempfile.mkdtemp(prefix="tn-menagerie-")
            atexit.register(shutil.rmtree, out, True)
            with tarfile.open(archive) as tar:
                tar.extractall(out)
            return out
    raise AssertionError("Menagerie robot %s not found in %s" % (robot, UNPACKED + ARCHIVES))


def path(robot, scene):
    """Path of one of a robot's MJCF files."""
    return os.path.join(robot_root(robot), robot, scene)
