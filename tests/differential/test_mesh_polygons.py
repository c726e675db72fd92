"""The compiled mesh polygons (mesh_poly*) equal MuJoCo 3.14's entry for entry.

MuJoCo merges each mesh's hull triangles into polygons by rounded normal angles and lists
the polygons in the iteration order of the hash table that groups them; the native convex
collision's multi-contact clipping takes the first of several polygons facing the other
shape by that index, so the order matters as much as the polygons. Compared exactly: the
polygon counts and addresses, every vertex loop (same order, same start vertex), the
vertex-to-polygon map; the normals to 1e-12 (they come out bitwise equal).

Models: the local mesh scenes (tests/models/meshes, tests/models/meshcollide), every
Menagerie entry point (the corpus manifest, $TORSION_MENAGERIE; entry points without
polygons must have none in Torsion either), every SAWYER_STRIDE-th Meta-World Sawyer task
(they share the arm's meshes; the tasks' objects differ), the MyoSuite leg models and the
Gymnasium-Robotics Fetch tasks.
"""
import os

import numpy as np
import pytest

from harness import corpus, oracle, robots, torsion

# the polygon fields compared as integers (exactly) and the normals (to NORMAL_TOL)
INT_FIELDS = ["mesh_polynum", "mesh_polyadr", "mesh_polyvertadr", "mesh_polyvertnum",
              "mesh_polyvert", "mesh_polymapadr", "mesh_polymapnum", "mesh_polymap"]
NORMAL_TOL = 1e-12

LOCAL = [os.path.join(corpus.REPO_ROOT, "tests", "models", sub, name) for sub, name in [
    ("meshes", "mesh_scene.xml"), ("meshes", "mesh_drop.xml"),
    ("meshes", "mesh_defaults.xml"), ("meshes", "mesh_obj_shapes.xml"),
    ("meshcollide", "plane_mesh.xml")]]
FETCH_TASKS = ["reach", "push", "slide", "pick_and_place"]
SAWYER_STRIDE = 4
MYO_LEGS = ["myo/composed/leg/myolegs", "myo/composed/leg/myolegs26",
            "myo/legacy/osl/myolegs_osl"]


def _models():
    """(id, path) of every model checked."""
    out = [("local/" + os.path.basename(p)[:-4], p) for p in LOCAL]
    out += [(m.id, m.path) for m in robots.menagerie_models()]
    packages = robots.package_models()
    sawyer = [m for m in packages if m.id.startswith("mw/sawyer_xyz/")]
    out += [(m.id, m.path) for m in sawyer[::SAWYER_STRIDE]]
    out += [(m.id, m.path) for m in packages if m.id in ["gr/fetch/" + t for t in FETCH_TASKS]]
    out += [(m.id, m.path) for m in packages + robots.myosuite_models() if m.id in MYO_LEGS]
    return out


MODELS = _models()


def test_corpus_is_complete():
    """Every family the check is meant to cover is there."""
    ids = [i for i, _ in MODELS]
    assert sum(i.startswith("men/") for i in ids) >= 50, "Menagerie entry points missing"
    assert sum(i.startswith("mw/sawyer_xyz/") for i in ids) >= 10, "Meta-World missing"
    assert sum(i.startswith("gr/fetch/") for i in ids) == len(FETCH_TASKS), "Fetch missing"
    assert sum(i in MYO_LEGS for i in ids) == len(MYO_LEGS), "MyoSuite legs missing"


def _loop(f, p):
    """The vertex loop of polygon p."""
    start = int(f["mesh_polyvertadr"][p])
    return [int(v) for v in f["mesh_polyvert"][start:start + int(f["mesh_polyvertnum"][p])]]


@pytest.mark.parametrize("path", [p for _, p in MODELS], ids=[i for i, _ in MODELS])
def test_mesh_polygons_equal(path):
    m = oracle.load(path)
    ours = torsion.dump(path, INT_FIELDS + ["mesh_polynormal"])
    ours = {k: np.asarray(v).reshape(-1) for k, v in ours.items()}
    theirs = {k: np.asarray(getattr(m, k)).reshape(-1) for k in INT_FIELDS + ["mesh_polynormal"]}
    bad = []
    for name in INT_FIELDS + ["mesh_polynormal"]:
        if ours[name].shape != theirs[name].shape:
            bad.append("%s: %d entries, MuJoCo %d" % (name, ours[name].size, theirs[name].size))
    if not bad:
        for name in INT_FIELDS:
            if not np.array_equal(ours[name].astype(np.int64), theirs[name].astype(np.int64)):
                bad.append(name)
        err = np.abs(ours["mesh_polynormal"] - theirs["mesh_polynormal"])
        if err.size and not err.max() <= NORMAL_TOL:
            bad.append("mesh_polynormal (max error %.3g)" % err.max())
    # the first polygon that differs, for the message
    for k in range(m.nmesh if bad and ours["mesh_polynum"].shape == (m.nmesh,) else 0):
        adr, n = int(m.mesh_polyadr[k]), int(m.mesh_polynum[k])
        if int(ours["mesh_polynum"][k]) != n:
            bad.append("mesh %d: %d polygons, MuJoCo %d" % (k, ours["mesh_polynum"][k], n))
            break
        diff = [p for p in range(adr, adr + n) if _loop(ours, p) != _loop(theirs, p)]
        if diff:
            bad.append("mesh %d polygon %d: loop %s, MuJoCo %s" % (
                k, diff[0] - adr, _loop(ours, diff[0]), _loop(theirs, diff[0])))
            break
    assert not bad, "mesh polygons of %s differ from MuJoCo's: %s" % (path, "; ".join(bad))
