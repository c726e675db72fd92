"""menagerie — paths of single MuJoCo Menagerie robots, for tests that use one robot's files.

The corpus is located (and unpacked once into build/menagerie-cache/ when it is a directory
of archives) by harness/robots.py: $TORSION_MENAGERIE, by default ../shared/corpus/menagerie.
"""
import os

from . import robots


def path(robot, scene):
    """Path of one of a robot's MJCF files."""
    full = os.path.join(robots.menagerie_dir(), robot, scene)
    assert os.path.exists(full), "Menagerie file %s/%s not found (set %s)" % (
        robot, scene, robots.MENAGERIE_ENV)
    return full
