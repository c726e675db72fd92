"""Joint limit attributes as MuJoCo 3.14 compiles them: a free joint drops both limits
before they are checked (a default class may set limited="true" on every joint, free ones
included, as MyoSuite's generated legs do); an explicitly limited ball joint only needs
range[0] = 0; hinge and slide ranges must be increasing. Each case is loaded by both
engines: both accept it with equal jnt_limited, jnt_range and jnt_actfrclimited, or both
reject it."""
import os
import tempfile

import mujoco
import numpy as np
import pytest

from harness import torsion

JOINTS = [
    '<joint type="free" limited="true"/>',
    '<joint type="free" limited="true" range="0 1"/>',
    '<joint type="free" actuatorfrclimited="true" actuatorfrcrange="1 0"/>',
    '<joint type="ball" limited="true"/>',
    '<joint type="ball" limited="true" range="0 -1"/>',
    '<joint type="ball" limited="true" range="0 45"/>',
    '<joint type="ball" limited="true" range="1 2"/>',
    '<joint type="hinge" limited="true"/>',
    '<joint type="hinge" limited="true" range="-30 60"/>',
    '<joint type="slide" actuatorfrclimited="true" actuatorfrcrange="0 0"/>',
]
FIELDS = ["jnt_limited", "jnt_range", "jnt_actfrclimited"]


@pytest.mark.parametrize("joint", JOINTS)
def test_joint_limits(joint):
    xml = ('<mujoco><default><joint armature="0.01"/></default><worldbody><body>%s'
           '<geom size="0.1"/></body></worldbody></mujoco>' % joint)
    with tempfile.TemporaryDirectory(prefix="tn-jnt-") as tmp:
        path = os.path.join(tmp, "joint.xml")
        with open(path, "w") as f:
            f.write(xml)
        try:
            m = mujoco.MjModel.from_xml_path(path)
        except ValueError:
            m = None
        proc = torsion.run(["info", path], check=False)
        if m is None:
            assert proc.returncode != 0, "MuJoCo rejects %s, Torsion accepts it" % joint
            assert "joint.xml:1:" in proc.stderr and "joint" in proc.stderr, proc.stderr
            return
        assert proc.returncode == 0, proc.stderr
        ours = torsion.dump(path, FIELDS)
        for name in FIELDS:
            np.testing.assert_array_equal(ours[name].reshape(-1),
                                          np.asarray(getattr(m, name), float).reshape(-1))
