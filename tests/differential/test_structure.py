"""MJCF structure elements: engine plugins (refused with a clear error), <replicate>,
<frame> and <model>/<attach>.

Plugins: Torsion has no engine plugins, so a model that uses one must fail to load with a
message naming the file, the line, the <plugin> element and the plugin (MuJoCo loads these
models; the check here is that Torsion refuses them cleanly). The structure scenes under
tests/models/structure/ must compile to MuJoCo 3.14's bodies, joints, geoms, sites and
names, and give the same qacc (constraints off) at random states.
"""
import os
import tempfile

import pytest

from harness import corpus, menagerie, torsion

STRUCT_DIR = os.path.join(corpus.REPO_ROOT, "tests", "models", "structure")

PLUGINS = {
    "extension": ('<extension><plugin plugin="mujoco.pid"><instance name="p"/></plugin>'
                  '</extension>', "plugin 'mujoco.pid'"),
    "body": ('<worldbody><body><plugin plugin="mujoco.elasticity.cable"/></body></worldbody>',
             "plugin 'mujoco.elasticity.cable'"),
    "instance": ('<worldbody><body><plugin instance="cable"/></body></worldbody>',
                 "plugin instance 'cable'"),
    "actuator": ('<worldbody><body><joint name="j"/><geom size="1"/></body></worldbody>'
                 '<actuator><plugin plugin="mujoco.pid" joint="j"/></actuator>',
                 "plugin 'mujoco.pid'"),
    "sensor": ('<sensor><plugin plugin="mujoco.sensor.touch_grid"/></sensor>',
               "plugin 'mujoco.sensor.touch_grid'"),
}


def _write(directory, xml, name="model.xml"):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(xml)
    return path


@pytest.mark.parametrize("case", sorted(PLUGINS))
def test_plugin_refused_by_name(case):
    body, needle = PLUGINS[case]
    with tempfile.TemporaryDirectory(prefix="tn-plugin-") as tmp:
        path = _write(tmp, "<mujoco>\n%s\n</mujoco>\n" % body)
        proc = torsion.run(["info", path], check=False)
    err = proc.stderr.strip()
    assert proc.returncode > 0 and not proc.stdout, "accepted: %s" % body
    assert "model.xml:2: element 'plugin': " in err and needle in err, err
    assert "not supported" in err, err


def test_shadow_dexee_refused_naming_its_plugin():
    path = menagerie.path("shadow_dexee", "scene.xml")
    proc = torsion.run(["info", path], check=False)
    err = proc.stderr.strip()
    assert proc.returncode > 0 and not proc.stdout, "accepted"
    assert "shadow_dexee.xml:57: element 'plugin': plugin 'mujoco.pid' is not supported" in err, err
