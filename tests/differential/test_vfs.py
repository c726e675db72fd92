"""Loading through the VFS (mjVFS, tn_loadXMLWith) against MuJoCo 3.14's VFS.

MuJoCo side: MjModel.from_xml_string(text, assets). Torsion side: torsion-sim with the same
files as VFS entries (--vfs NAME=PATH, --vfs-dir DIR) and --vfs-only, so nothing is read from
disk. tests/models/vfs/main.xml (meshes and a height field under meshdir, an include with
its own mesh) must compile to exactly MuJoCo's mesh, height field and body fields with the
entries named by their exact paths, by base names only, and by other directories and cases
(MuJoCo's base-name rule); a missing entry fails in both; Menagerie robots given as a whole
directory compile to MuJoCo's fields (1e-10) and to the same bits as Torsion's disk load.
"""
import os
import struct
import tempfile

import mujoco
import numpy as np
import pytest

from harness import corpus, menagerie, oracle, torsion

VFS_DIR = os.path.join(corpus.REPO_ROOT, "tests", "models", "vfs")
MESH_DIR = os.path.join(corpus.REPO_ROOT, "tests", "models", "meshes")

# compared exactly (mesh processing and height fields are bit for bit)
FIELDS = ["mesh_vertadr", "mesh_vertnum", "mesh_vert", "mesh_face", "mesh_graph", "mesh_pos",
          "mesh_quat", "hfield_size", "hfield_nrow", "hfield_ncol", "hfield_data", "geom_type",
          "geom_dataid", "geom_size", "geom_rbound", "geom_aabb", "body_mass",
          "body_inertia", "body_ipos", "body_iquat", "jnt_type", "qpos0"]

# the same files under three naming schemes
NAMINGS = {
    "exact": {"parts/arm.xml": "arm", "assets/tetra.stl": "tetra",
              "assets/shapes/box.obj": "box", "assets/icosphere.obj": "ico",
              "assets/terrain.bin": "terrain"},
    "basename": {"arm.xml": "arm", "tetra.stl": "tetra", "box.obj": "box",
                 "icosphere.obj": "ico", "terrain.bin": "terrain"},
    "elsewhere": {"x/ARM.XML": "arm", "Meshes/Tetra.STL": "tetra", "y/z/BOX.obj": "box",
                  "ICOSPHERE.OBJ": "ico", "hf/Terrain.Bin": "terrain"},
}


def _terrain():
    """A 5 x 7 height field in MuJoCo's binary format."""
    nrow, ncol = 5, 7
    r = np.random.default_rng(11)
    values = r.uniform(0, 1, nrow * ncol).astype("<f4")
    return struct.pack("<ii", nrow, ncol) + values.tobytes()


def _contents():
    """The bytes of each file of the model, by role."""
    def read(*p):
        with open(os.path.join(*p), "rb") as f:
            return f.read()
    return {"arm": read(VFS_DIR, "parts", "arm.xml"), "tetra": read(MESH_DIR, "tetra.stl"),
            "box": read(MESH_DIR, "box.obj"), "ico": read(MESH_DIR, "icosphere.obj"),
            "terrain": _terrain()}


def _torsion_vfs(tmp, main_text, assets, fields, model_name="model.xml"):
    """torsion-sim dump with the text and assets as VFS entries only."""
    args = ["--vfs-only", "--vfs", "%s=%s" % (model_name, _write(tmp, "main", main_text))]
    for i, (name, data) in enumerate(sorted(assets.items())):
        args += ["--vfs", "%s=%s" % (name, _write(tmp, "a%d" % i, data))]
    prefix = os.path.join(tmp, "dump")
    torsion.run(["dump", model_name, "--fields", ",".join(fields), "--out", prefix] + args)
    return {f: np.load("%s_%s.npy" % (prefix, f)) for f in fields}


def _write(tmp, name, data):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def _differences(ours, m, fields, tol=0.0):
    bad = []
    for name in fields:
        theirs = oracle.model_field(m, name)
        if ours[name].shape != theirs.shape:
            bad.append("%s: shape %s, MuJoCo %s" % (name, ours[name].shape, theirs.shape))
        elif ours[name].size and np.max(np.abs(ours[name] - theirs)) > tol:
            bad.append("%s: max |diff| %.3g" % (name, np.max(np.abs(ours[name] - theirs))))
    return bad


@pytest.mark.parametrize("naming", sorted(NAMINGS))
def test_vfs_model_matches_mujoco(naming):
    with open(os.path.join(VFS_DIR, "main.xml")) as f:
        text = f.read()
    contents = _contents()
    assets = {name: contents[role] for name, role in NAMINGS[naming].items()}
    m = mujoco.MjModel.from_xml_string(text, assets)
    with tempfile.TemporaryDirectory(prefix="tn-vfs-") as tmp:
        ours = _torsion_vfs(tmp, text, assets, FIELDS)
    assert m.nmesh == 3 and m.nhfield == 1 and m.nbody == 4
    bad = _differences(ours, m, FIELDS)
    assert not bad, "%s naming differs from MuJoCo: %s" % (naming, "; ".join(bad))


@pytest.mark.parametrize("missing", ["arm", "ico", "terrain"])
def test_vfs_missing_entry_fails_in_both(missing):
    with open(os.path.join(VFS_DIR, "main.xml")) as f:
        text = f.read()
    contents = _contents()
    assets = {name: contents[role] for name, role in NAMINGS["exact"].items() if role != missing}
    with pytest.raises(Exception):
        mujoco.MjModel.from_xml_string(text, assets)
    with tempfile.TemporaryDirectory(prefix="tn-vfs-") as tmp:
        with pytest.raises(torsion.TorsionError) as e:
            _torsion_vfs(tmp, text, assets, ["body_mass"])
    assert "not in the VFS" in str(e.value)
    assert "attribute 'file'" in str(e.value)


ROBOTS = [("franka_emika_panda", "scene.xml"), ("shadow_hand", "scene_right.xml"),
          ("google_barkour_vb", "scene_hfield_mjx.xml")]
ROBOT_FIELDS = ["body_mass", "body_inertia", "body_ipos", "geom_size", "qpos0", "mesh_vert",
                "hfield_data"]


@pytest.mark.parametrize("robot,scene", ROBOTS, ids=[r for r, _ in ROBOTS])
def test_vfs_robot_matches_mujoco_and_disk(robot, scene):
    path = menagerie.path(robot, scene)
    folder = os.path.dirname(path)
    assets = {}
    for dirpath, _, files in os.walk(folder):
        for name in files:
            full = os.path.join(dirpath, name)
            with open(full, "rb") as f:
                assets[os.path.relpath(full, folder)] = f.read()
    m = mujoco.MjModel.from_xml_string(assets[scene].decode(), assets)
    prefix_args = ["--vfs-dir", folder, "--vfs-only"]
    with tempfile.TemporaryDirectory(prefix="tn-vfs-") as tmp:
        prefix = os.path.join(tmp, "dump")
        torsion.run(["dump", scene, "--fields", ",".join(ROBOT_FIELDS), "--out", prefix]
                    + prefix_args)
        ours = {f: np.load("%s_%s.npy" % (prefix, f)) for f in ROBOT_FIELDS}
    bad = _differences(ours, m, ROBOT_FIELDS, tol=1e-10)
    assert not bad, "%s through the VFS differs from MuJoCo: %s" % (robot, "; ".join(bad))
    disk = torsion.dump(path, ROBOT_FIELDS)
    for f in ROBOT_FIELDS:
        assert np.array_equal(ours[f], disk[f]), f
