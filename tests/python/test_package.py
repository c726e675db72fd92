"""The installed package: `import torsion` loads the installed extension (not a source
tree), ships the protocol's descriptor set and the enumerations with MuJoCo's values, and
exposes MuJoCo's names."""
import os

import mujoco
import pytest

import torsion


def test_imports_the_installed_extension():
    """torsion._core is a compiled module inside the installed package directory."""
    pkg = os.path.dirname(os.path.abspath(torsion.__file__))
    assert os.path.dirname(os.path.abspath(torsion._core.__file__)) == pkg
    assert torsion._core.__file__.endswith(".so")
    assert torsion.__version__ == torsion._core.TORSION_VERSION


def test_descriptor_set_is_package_data():
    """torsion/torsion.desc parses as a FileDescriptorSet holding torsion.proto."""
    from google.protobuf import descriptor_pb2
    path = os.path.join(os.path.dirname(torsion.__file__), "torsion.desc")
    with open(path, "rb") as f:
        fds = descriptor_pb2.FileDescriptorSet.FromString(f.read())
    assert any(fd.name == "torsion.proto" for fd in fds.file)


@pytest.mark.parametrize("enum", ["mjtObj", "mjtState", "mjtWarning", "mjtJoint", "mjtGeom",
                                  "mjtIntegrator", "mjtCone", "mjtSolver", "mjtDisableBit",
                                  "mjtEnableBit", "mjtSensor", "mjtTrn"])
def test_enums_match_mujoco(enum):
    """Every member torsion has carries MuJoCo's value."""
    ours, theirs = getattr(torsion, enum), getattr(mujoco, enum)
    assert len(ours) > 0
    for member in ours:
        if hasattr(theirs, member.name):
            assert int(getattr(theirs, member.name)) == int(member), member.name


def test_mujoco_names_exist():
    """The names a MuJoCo script uses are there."""
    for name in ("MjModel", "MjData", "FatalError", "mj_step", "mj_forward", "mj_inverse",
                 "mj_resetData", "mj_resetDataKeyframe", "mj_stateSize", "mj_getState",
                 "mj_setState", "mjd_transitionFD", "mjd_inverseFD", "mj_name2id",
                 "mj_id2name", "mj_jacBody", "mj_fullM", "mj_kinematics", "mj_comPos",
                 "mj_rnePostConstraint", "mjNWARNING", "mjNREF"):
        assert hasattr(torsion, name), name
    m = mujoco.MjModel.from_xml_string("<mujoco/>")
    assert torsion.mjNWARNING == len(mujoco.MjData(m).warning)
