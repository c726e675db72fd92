"""Memory per mjData: what Torsion's mj_makeData allocates (tn_dataBytes: the struct, the
array buffer, the arena and the contact array) is no more than MuJoCo 3.14's (its buffer and
arena, nbuffer + narena; its struct not even counted) on Gymnasium's humanoid and the crowd
scenes of N Gymnasium humanoids, with MuJoCo's default sizing (no <size memory>); and the
capacity those scenes use stays: 600 steps of each crowd run without a warning, and the
arena a step uses is a small part of what it has.

Torsion is the shared library of the build (build/engine/libtorsion.so, or $TORSION_LIB)
through ctypes, as bench/bench_crowd.py loads it (the package does not export tn_dataBytes).
"""
import ctypes
import os

import gymnasium
import mujoco
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCENES = os.path.join(ROOT, "tests", "models", "scenes")
GYM_HUMANOID = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets",
                            "humanoid.xml")
MODELS = [GYM_HUMANOID] + [os.path.join(SCENES, "gym_humanoid_crowd_%d.xml" % n)
                           for n in (1, 4, 16, 64)]


@pytest.fixture(scope="module")
def lib():
    path = os.environ.get("TORSION_LIB", os.path.join(ROOT, "build", "engine", "libtorsion.so"))
    assert os.path.exists(path), "%s not built (ninja -C build) and no $TORSION_LIB" % path
    lib = ctypes.CDLL(path)
    lib.mj_loadXML.restype = ctypes.c_void_p
    lib.mj_makeData.restype = ctypes.c_void_p
    lib.mj_makeData.argtypes = [ctypes.c_void_p]
    lib.mj_step.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.mj_deleteData.argtypes = [ctypes.c_void_p]
    lib.mj_deleteModel.argtypes = [ctypes.c_void_p]
    lib.tn_dataBytes.restype = ctypes.c_size_t
    lib.tn_dataBytes.argtypes = [ctypes.c_void_p]
    lib.tn_warningMask.argtypes = [ctypes.c_void_p]
    return lib


def torsion_data(lib, path):
    err = ctypes.create_string_buffer(1000)
    tm = lib.mj_loadXML(path.encode(), None, err, 1000)
    assert tm, err.value.decode()
    tm = ctypes.c_void_p(tm)
    return tm, ctypes.c_void_p(lib.mj_makeData(tm))


@pytest.mark.parametrize("path", MODELS, ids=lambda p: os.path.basename(p)[:-4])
def test_bytes_per_data_within_mujoco(lib, path):
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    tm, td = torsion_data(lib, path)
    ours = lib.tn_dataBytes(td)
    theirs = d.nbuffer + d.narena
    lib.mj_deleteData(td)
    lib.mj_deleteModel(tm)
    assert ours <= theirs, "Torsion allocates %d bytes per mjData, MuJoCo %d (+ its struct)" % (
        ours, theirs)


@pytest.mark.parametrize("n", [4, 16, 64])
def test_crowd_steps_within_arena(lib, n):
    """600 steps of the crowd (the humanoids fall onto each other) raise no warning (no
    contact or constraint capacity reached) and use under half of the arena."""
    path = os.path.join(SCENES, "gym_humanoid_crowd_%d.xml" % n)
    tm, td = torsion_data(lib, path)
    for _ in range(600):
        lib.mj_step(tm, td)
    warnings = lib.tn_warningMask(td)
    # mjData starts with narena, nbuffer, pstack, pbase, maxuse_stack (torsion/mjdata.h)
    head = ctypes.cast(td, ctypes.POINTER(ctypes.c_int64))
    narena, maxuse_stack = head[0], head[4]
    lib.mj_deleteData(td)
    lib.mj_deleteModel(tm)
    assert warnings == 0, "warning mask %#x" % warnings
    assert 0 < maxuse_stack < narena / 2
