"""Mesh assets through the MJCF reader and compiler (tests/models/meshes/README.md).

The mesh scenes must compile to exactly MuJoCo 3.14's mesh, geom and body mass fields
(mesh processing is bit for bit; so are the geom frames, bounds and inertias derived from
it); the bad_mesh_*.xml scenes must be rejected, by MuJoCo and by Torsion, with a message
naming the asset and its file; mesh_drop.xml must step without errors with contacts on its
mesh geoms. Mesh-specific compile errors (shellinertia on a mesh geom, a missing mesh) are
checked against MuJoCo's rejection too.
"""
import os
import re
import tempfile

import mujoco
import numpy as np
import pytest

from harness import corpus, oracle, torsion

MESH_DIR = os.path.join(corpus.REPO_ROOT, "tests", "models", "meshes")
SCENES = ["mesh_scene.xml", "mesh_drop.xml", "mesh_defaults.xml", "mesh_obj_shapes.xml"]
BAD = sorted(f for f in os.listdir(MESH_DIR) if f.startswith("bad_mesh_") and f.endswith(".xml"))

# fields that must equal MuJoCo's exactly
EXACT_FIELDS = [
    "mesh_vertadr", "mesh_vertnum", "mesh_faceadr", "mesh_facenum", "mesh_graphadr",
    "mesh_vert", "mesh_face", "mesh_graph", "mesh_pos", "mesh_quat", "mesh_scale",
    "geom_type", "geom_dataid", "geom_pos", "geom_quat", "geom_size", "geom_rbound",
    "geom_aabb", "body_mass", "body_inertia", "body_ipos", "body_iquat", "body_subtreemass",
]

# sizes that must equal MuJoCo's (Torsion has no mesh normals, texture coordinates or
# polygons, so nmeshnormal, nmeshtexcoord and nmeshpoly* are not compared)
SIZES = ["nmesh", "nmeshvert", "nmeshface", "nmeshgraph", "ngeom", "nbody"]


def _path(name):
    return os.path.join(MESH_DIR, name)


@pytest.mark.parametrize("scene", SCENES)
def test_mesh_model_fields(scene):
    m = oracle.load(_path(scene))
    ours = torsion.dump(_path(scene), EXACT_FIELDS)
    bad = []
    for name in EXACT_FIELDS:
        theirs = oracle.model_field(m, name)
        if ours[name].shape != theirs.shape:
            bad.append("%s: shape %s, MuJoCo %s" % (name, ours[name].shape, theirs.shape))
        elif not np.array_equal(ours[name], theirs):
            bad.append("%s: max |diff| %.3g" % (name, np.max(np.abs(ours[name] - theirs))))
    assert not bad, "%s differs from MuJoCo: %s" % (scene, "; ".join(bad))


@pytest.mark.parametrize("scene", SCENES)
def test_mesh_sizes(scene):
    m = oracle.load(_path(scene))
    info = torsion.info(_path(scene))
    ours = torsion.dump(_path(scene), ["mesh_vert", "mesh_face", "mesh_graph"])
    got = {"nmesh": info["nmesh"], "ngeom": info["ngeom"], "nbody": info["nbody"],
           "nmeshvert": ours["mesh_vert"].shape[0], "nmeshface": ours["mesh_face"].shape[0],
           "nmeshgraph": ours["mesh_graph"].shape[0]}
    want = {s: int(getattr(m, s)) for s in SIZES}
    assert got == want


def _file_of(path):
    """The mesh file a bad scene names (None for inline data)."""
    with open(path) as f:
        found = re.search(r'file="([^"]+)"', f.read())
    return found.group(1) if found else None


@pytest.mark.parametrize("name", BAD)
def test_bad_mesh_rejected(name):
    path = _path(name)
    with pytest.raises(Exception):
        mujoco.MjModel.from_xml_path(path)
    proc = torsion.run(["info", path], check=False)
    err = proc.stderr.strip()
    assert proc.returncode > 0, "%s: exit status %d (stderr: %s)" % (name, proc.returncode, err)
    assert "'broken'" in err, "message does not name mesh 'broken': %r" % err
    mesh_file = _file_of(path)
    if mesh_file:
        assert mesh_file in err, "message does not name the file %s: %r" % (mesh_file, err)


def _initial_state(m):
    d = mujoco.MjData(m)
    state = np.zeros((1, oracle.nstate(m)))
    mujoco.mj_getState(m, d, state[0], oracle.FULLPHYSICS)
    return state


def test_mesh_drop_steps_with_mesh_contacts():
    path = _path("mesh_drop.xml")
    m = oracle.load(path)
    out = torsion.rollout(path, _initial_state(m), None, 300)
    assert np.all(np.isfinite(out)), "non-finite state in the mesh_drop rollout"
    z = out[0, -1, 1:1 + m.nq][2::7]
    assert np.all(z > -0.05), "a mesh body fell through the floor: z = %s" % z

    # contacts on mesh geoms (against the floor and between meshes) along the way
    mesh_geoms = set(np.flatnonzero(m.geom_type == mujoco.mjtGeom.mjGEOM_MESH).tolist())
    found = torsion.contacts(path, out[0, [150, 299]])
    pairs = {tuple(sorted(g)) for c in found for g in c["geom"].tolist()}
    with_mesh = {p for p in pairs if p[0] in mesh_geoms or p[1] in mesh_geoms}
    assert with_mesh, "no contacts on mesh geoms: %s" % pairs
    assert any(p[0] in mesh_geoms and p[1] in mesh_geoms for p in pairs), \
        "no mesh-mesh contact: %s" % pairs


GEOM_ERRORS = {
    # MuJoCo: "for mesh geoms, inertia should be specified in the mesh asset"
    "shellinertia": ('<geom type="mesh" mesh="t" shellinertia="true"/>', "mesh asset"),
    "unknown_mesh": ('<geom type="mesh" mesh="nope"/>', "nope"),
    "no_mesh": ('<geom type="mesh"/>', "mesh"),
}


@pytest.mark.parametrize("case", sorted(GEOM_ERRORS))
def test_mesh_geom_errors(case):
    geom, needle = GEOM_ERRORS[case]
    xml = ('<mujoco><compiler meshdir="%s"/><asset><mesh name="t" file="tetra.stl"/></asset>'
           '<worldbody><body><freejoint/>%s</body></worldbody></mujoco>' % (MESH_DIR, geom))
    with pytest.raises(Exception):
        mujoco.MjModel.from_xml_string(xml)
    with tempfile.TemporaryDirectory(prefix="tn-mesh-") as tmp:
        path = os.path.join(tmp, "model.xml")
        with open(path, "w") as f:
            f.write(xml)
        proc = torsion.run(["info", path], check=False)
    assert proc.returncode > 0, "accepted: %s" % geom
    assert needle in proc.stderr, proc.stderr
