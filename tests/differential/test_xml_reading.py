"""MJCF reading rules the real-robot corpora rely on, checked against MuJoCo 3.14.

Each case writes a small tree of MJCF files into a temporary directory and loads its main
file in both engines. Either both accept it, and then the compiled geoms (size, friction)
are equal, or both reject it, and Torsion's message names the file and the element:
- included files: their root element may be <mujocoinclude> (or any name); the file is
  looked up in the main model's directory, then beside the including file; a file may be
  included once;
- several top-level <default> blocks all reopen the "main" class; a top-level class with
  another name is an error;
- an unnamed texture loaded from a file is named after the file (a material can use it);
- an asset file named in an included file is opened against the model's directory (and
  meshdir) when it exists there, else beside the included file;
- a <body> directly under <mujoco> (robot fragments written for inclusion) is validated and
  not used.
"""
import os
import tempfile

import mujoco
import numpy as np
import pytest

from harness import torsion

GEOM = '<geom name="%s" size="%s"/>'
# two tetrahedra of different sizes: which file was opened shows in the mesh geom's size
OBJ_SMALL = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
OBJ_LARGE = OBJ_SMALL.replace("1 0 0", "2 0 0").replace("0 1 0", "0 2 0").replace(
    "0 0 1", "0 0 2")

# name -> ({relative path: text}, expected outcome "ok" or the words Torsion's error has)
CASES = {
    "mujocoinclude_root": ({
        "main.xml": '<mujoco><include file="parts/a.xml"/>'
                    '<worldbody>' + GEOM % ("g", "1") + '</worldbody></mujoco>',
        "parts/a.xml": '<mujocoinclude><worldbody>' + GEOM % ("a", "0.5") +
                       '</worldbody></mujocoinclude>',
    }, "ok"),
    "any_include_root": ({
        "main.xml": '<mujoco><include file="a.xml"/></mujoco>',
        "a.xml": '<fragment><worldbody>' + GEOM % ("a", "0.5") + '</worldbody></fragment>',
    }, "ok"),
    "nested_include_beside_includer": ({
        "main.xml": '<mujoco><include file="sub/a.xml"/></mujoco>',
        "sub/a.xml": '<mujocoinclude><include file="b.xml"/></mujocoinclude>',
        "sub/b.xml": '<mujocoinclude><worldbody>' + GEOM % ("b_sub", "0.25") +
                     '</worldbody></mujocoinclude>',
    }, "ok"),
    "nested_include_main_dir_first": ({
        "main.xml": '<mujoco><include file="sub/a.xml"/></mujoco>',
        "sub/a.xml": '<mujocoinclude><include file="b.xml"/></mujocoinclude>',
        "sub/b.xml": '<mujocoinclude><worldbody>' + GEOM % ("b_sub", "0.25") +
                     '</worldbody></mujocoinclude>',
        "b.xml": '<mujocoinclude><worldbody>' + GEOM % ("b_root", "0.75") +
                 '</worldbody></mujocoinclude>',
    }, "ok"),
    "nested_include_not_in_grandparent": ({
        "main.xml": '<mujoco><include file="sub/deeper/a.xml"/></mujoco>',
        "sub/deeper/a.xml": '<mujocoinclude><include file="c.xml"/></mujocoinclude>',
        "sub/c.xml": '<mujocoinclude><worldbody>' + GEOM % ("c", "1") +
                     '</worldbody></mujocoinclude>',
    }, "cannot open file"),
    "include_twice": ({
        "main.xml": '<mujoco><include file="a.xml"/><include file="a.xml"/></mujoco>',
        "a.xml": '<mujocoinclude><worldbody>' + GEOM % ("a", "0.5") +
                 '</worldbody></mujocoinclude>',
    }, "already included"),
    "main_root_must_be_mujoco": ({
        "main.xml": '<mujocoinclude><worldbody>' + GEOM % ("a", "0.5") +
                    '</worldbody></mujocoinclude>',
    }, "top-level element must be 'mujoco'"),
    "defaults_reopen_main": ({
        "main.xml": '<mujoco><default><default class="a"/></default>'
                    '<default><geom friction="0.5 0 0"/></default>'
                    '<worldbody><geom class="a" size="1"/><geom size="2"/></worldbody>'
                    '</mujoco>',
    }, "ok"),
    "defaults_classes_copy_main_then": ({
        "main.xml": '<mujoco><default><geom friction="0.5 0 0"/></default>'
                    '<default><default class="a"><geom size="0.3"/></default></default>'
                    '<worldbody><geom class="a"/><geom size="2"/></worldbody></mujoco>',
    }, "ok"),
    "defaults_main_named_twice": ({
        "main.xml": '<mujoco><default class="main"><geom friction="0.5 0 0"/></default>'
                    '<default class="main"><geom friction="0.7 0 0"/></default>'
                    '<worldbody><geom size="1"/></worldbody></mujoco>',
    }, "ok"),
    "defaults_top_level_renamed": ({
        "main.xml": '<mujoco><default class="x"><geom friction="0.5 0 0"/></default>'
                    '<worldbody><geom class="x" size="1"/></worldbody></mujoco>',
    }, "cannot be renamed"),
    "defaults_class_repeated": ({
        "main.xml": '<mujoco><default><default class="a"/></default>'
                    '<default><default class="a"/></default>'
                    '<worldbody><geom class="a" size="1"/></worldbody></mujoco>',
    }, "repeated default class"),
    "texture_named_after_file": ({
        "main.xml": '<mujoco><asset><texture type="2d" file="tex/wood_grain.png"/>'
                    '<material name="m" texture="wood_grain"/></asset>'
                    '<worldbody><geom material="m" size="1"/></worldbody></mujoco>',
        "tex/wood_grain.png": None,
    }, "ok"),
    "mesh_beside_included_file": ({
        "main.xml": '<mujoco><compiler meshdir="assets"/><include file="sub/a.xml"/>'
                    '<worldbody><geom type="mesh" mesh="m"/></worldbody></mujoco>',
        "sub/a.xml": '<mujocoinclude><asset><mesh name="m" file="m.obj"/></asset>'
                     '</mujocoinclude>',
        "sub/m.obj": OBJ_SMALL,
        "sub/assets/m.obj": OBJ_LARGE,
    }, "ok"),
    "mesh_model_dir_first": ({
        "main.xml": '<mujoco><include file="sub/a.xml"/>'
                    '<worldbody><geom type="mesh" mesh="m"/></worldbody></mujoco>',
        "sub/a.xml": '<mujocoinclude><asset><mesh name="m" file="m.obj"/></asset>'
                     '</mujocoinclude>',
        "sub/m.obj": OBJ_SMALL,
        "m.obj": OBJ_LARGE,
    }, "ok"),
    "body_under_mujoco_unused": ({
        "main.xml": '<mujoco><body name="frag"><joint type="free"/>' + GEOM % ("x", "1") +
                    '<body>' + GEOM % ("y", "2") + '</body></body>'
                    '<worldbody>' + GEOM % ("w", "0.5") + '</worldbody></mujoco>',
    }, "ok"),
    "body_under_mujoco_validated": ({
        "main.xml": '<mujoco><body><nonsense/></body></mujoco>',
    }, "unknown element"),
}


def _png(path):
    """A valid 2x2 RGB PNG (MuJoCo decodes texture files at load time)."""
    import struct
    import zlib
    raw = b"".join(b"\x00" + b"\x80\x40\x20" * 2 for _ in range(2))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _write_tree(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if text is None:
            _png(path)
        else:
            with open(path, "w") as f:
                f.write(text)


@pytest.mark.parametrize("case", sorted(CASES))
def test_xml_reading(case):
    files, expected = CASES[case]
    with tempfile.TemporaryDirectory(prefix="tn-xml-") as tmp:
        _write_tree(tmp, files)
        main = os.path.join(tmp, "main.xml")
        try:
            m = mujoco.MjModel.from_xml_path(main)
            theirs = None
        except ValueError as e:
            m, theirs = None, str(e)
        proc = torsion.run(["info", main], check=False)
        if expected != "ok":
            assert m is None, "MuJoCo accepts what this case expects to be an error"
            assert proc.returncode != 0, "Torsion accepts %s; MuJoCo: %s" % (case, theirs)
            assert expected in proc.stderr, proc.stderr
            assert "main.xml" in proc.stderr or ".xml:" in proc.stderr, proc.stderr
            return
        assert m is not None, "MuJoCo rejects the case: %s" % theirs
        assert proc.returncode == 0, proc.stderr
        ours = torsion.dump(main, ["geom_size", "geom_friction"])
        assert ours["geom_size"].shape[0] == m.ngeom
        np.testing.assert_array_equal(ours["geom_size"], m.geom_size)
        np.testing.assert_array_equal(ours["geom_friction"], m.geom_friction)
