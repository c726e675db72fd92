"""Height field files and skins through the MJCF reader and compiler.

Height fields: PNG images of every color type and bit depth (written by the test itself) and
MuJoCo's binary format must give exactly MuJoCo 3.14's hfield_data, hfield_size,
hfield_nrow, hfield_ncol and hfield_adr (red channel, bottom row first, normalized in
float); bad files are rejected by both engines; the Menagerie Barkour height field scene
compiles to the same fields and the same qacc (constraints off) at random states.

Skins (kept in the model, not rendered): inline skins in <asset> and <deformable>, .skn
files written by the test, and dm_control's dog skin must give exactly MuJoCo's skin_*
arrays (weights normalized in float, bind quaternions normalized in double); malformed
skins are rejected by both engines with the element's line.
"""
import os
import re
import struct
import tempfile
import zlib

import mujoco
import numpy as np
import pytest

from harness import compare, menagerie, oracle, torsion

HFIELD_FIELDS = ["hfield_size", "hfield_nrow", "hfield_ncol", "hfield_adr", "hfield_data"]
QACC_TOL = 1e-8


def write_png(path, samples, color_type, bitdepth=8, palette=None, interlace=False):
    """A PNG of samples [h, w, channels] (channels as the color type has them)."""
    h, w = samples.shape[:2]
    raw = bytearray()
    passes = [(0, 0, 1, 1)]
    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4),
                  (1, 0, 2, 2), (0, 1, 1, 2)]
    for x0, y0, dx, dy in passes:
        for r in range(y0, h, dy):
            row = samples[r, x0::dx].reshape(-1)
            if not row.size:
                continue
            if bitdepth == 16:
                data = b"".join(struct.pack(">H", int(v)) for v in row)
            elif bitdepth == 8:
                data = bytes(int(v) for v in row)
            else:
                bits = "".join(format(int(v), "0%db" % bitdepth) for v in row)
                bits += "0" * (-len(bits) % 8)
                data = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
            raw += b"\x00" + data

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))

    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bitdepth,
                                                              color_type, 0, 0, int(interlace)))
    if palette is not None:
        out += chunk(b"PLTE", bytes(int(v) for v in np.asarray(palette).reshape(-1)))
    out += chunk(b"IDAT", zlib.compress(bytes(raw))) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(out)


def _images(directory):
    """Height field files of every kind: {name: file name}."""
    r = np.random.default_rng(7)
    h, w = 5, 7
    files = {}

    def png(name, samples, color_type, bitdepth=8, palette=None, interlace=False):
        write_png(os.path.join(directory, name + ".png"), samples, color_type, bitdepth,
                  palette, interlace)
        files[name] = name + ".png"

    png("gray8", r.integers(0, 256, (h, w, 1)), 0)
    png("gray16", r.integers(0, 65536, (h, w, 1)), 0, 16)
    png("gray4", r.integers(0, 16, (h, w, 1)), 0, 4)
    png("gray1", r.integers(0, 2, (h, w, 1)), 0, 1)
    png("grayalpha", r.integers(0, 256, (h, w, 2)), 4)
    png("rgb8", r.integers(0, 256, (h, w, 3)), 2)
    png("rgb16", r.integers(0, 65536, (h, w, 3)), 2, 16)
    png("rgba8", r.integers(0, 256, (h, w, 4)), 6)
    png("palette", r.integers(0, 6, (h, w, 1)), 3, 8, r.integers(0, 256, (6, 3)))
    png("interlaced", r.integers(0, 256, (11, 13, 3)), 2, interlace=True)
    png("flat", np.full((h, w, 1), 9), 0)
    png("wide", r.integers(0, 256, (3, 40, 1)), 0)

    # MuJoCo's binary format: int32 nrow, ncol, then float32 values
    values = (r.standard_normal((h, w)) * 3).astype("<f4")
    with open(os.path.join(directory, "binary.bin"), "wb") as f:
        f.write(struct.pack("<ii", h, w) + values.tobytes())
    files["binary"] = "binary.bin"
    return files


def _scene(files, extra_asset=""):
    """A model with one height field geom per file (two with the same file, one inline)."""
    assets, geoms = [], []
    for k, (name, fname) in enumerate(sorted(files.items())):
        assets.append('<hfield name="%s" file="%s" size="%g 1 0.%d 0.1"/>' % (
            name, fname, 1 + 0.5 * k, k + 1))
        geoms.append('<geom type="hfield" hfield="%s" pos="%d 0 0"/>' % (name, 3 * k))
    assets.append('<hfield name="inline" nrow="2" ncol="3" size="1 1 1 1" '
                  'elevation="1 2 3 6 5 4"/>')
    geoms.append('<geom type="hfield" hfield="inline" pos="0 5 0"/>')
    return ('<mujoco><compiler meshdir="hf"/><asset>%s%s</asset><worldbody>%s'
            '<body pos="0 0 2"><freejoint/><geom size="0.1"/></body></worldbody></mujoco>' % (
                "".join(assets), extra_asset, "".join(geoms)))


def _write(directory, xml, name="model.xml"):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(xml)
    return path


def _check_fields(path, fields):
    m = oracle.load(path)
    ours = torsion.dump(path, fields)
    bad = []
    for name in fields:
        if name == "names":
            # the packed name buffer, as bytes
            if bytes(ours[name].ravel().astype("u1")) != bytes(m.names):
                bad.append("names: %r, MuJoCo %r" % (bytes(ours[name].ravel().astype("u1")),
                                                    bytes(m.names)))
            continue
        theirs = oracle.model_field(m, name)
        if ours[name].shape != theirs.shape:
            bad.append("%s: shape %s, MuJoCo %s" % (name, ours[name].shape, theirs.shape))
        elif not np.array_equal(ours[name], theirs):
            bad.append("%s: max |diff| %.3g" % (name, np.max(np.abs(ours[name] - theirs))))
    assert not bad, "differs from MuJoCo: %s" % "; ".join(bad)
    return m


def test_hfield_files_equal_mujoco():
    with tempfile.TemporaryDirectory(prefix="tn-hfield-") as tmp:
        os.mkdir(os.path.join(tmp, "hf"))
        files = _images(os.path.join(tmp, "hf"))
        m = _check_fields(_write(tmp, _scene(files)), HFIELD_FIELDS + ["geom_size", "geom_aabb",
                                                                       "geom_rbound"])
        assert m.nhfield == len(files) + 1


def test_hfield_unnamed_takes_file_name():
    with tempfile.TemporaryDirectory(prefix="tn-hfield-") as tmp:
        write_png(os.path.join(tmp, "terrain.png"), np.arange(12).reshape(3, 4, 1) * 20, 0)
        xml = ('<mujoco><asset><hfield file="terrain.png" size="1 1 1 1"/></asset>'
               '<worldbody><geom type="hfield" hfield="terrain"/></worldbody></mujoco>')
        _check_fields(_write(tmp, xml), HFIELD_FIELDS)


BAD_FILES = {
    "missing": ("nofile.png", None),
    "not_png": ("notpng.png", b"\x89PNG this is not an image"),
    "short_binary": ("short.bin", struct.pack("<ii", 3, 4) + b"\0" * 44),
    "bad_dims": ("dims.bin", struct.pack("<ii", 0, 4)),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_hfield_bad_file_rejected(case):
    fname, content = BAD_FILES[case]
    with tempfile.TemporaryDirectory(prefix="tn-hfield-") as tmp:
        if content is not None:
            with open(os.path.join(tmp, fname), "wb") as f:
                f.write(content)
        xml = ('<mujoco><asset><hfield name="terrain" file="%s" size="1 1 1 1"/></asset>'
               '<worldbody><geom type="hfield" hfield="terrain"/></worldbody></mujoco>' % fname)
        path = _write(tmp, xml)
        with pytest.raises(Exception):
            mujoco.MjModel.from_xml_path(path)
        proc = torsion.run(["info", path], check=False)
    err = proc.stderr.strip()
    assert proc.returncode > 0, "accepted (stderr: %s)" % err
    assert "'terrain'" in err and fname in err and "model.xml:1" in err, err


def test_barkour_hfield_scene_fields():
    _check_fields(menagerie.path("google_barkour_vb", "scene_hfield_mjx.xml"),
                  HFIELD_FIELDS + ["geom_size", "geom_aabb", "geom_rbound", "body_mass"])


def test_barkour_hfield_scene_qacc():
    path = menagerie.path("google_barkour_vb", "scene_hfield_mjx.xml")
    m = oracle.load(path)
    states, ctrl = oracle.random_states(m, 20, oracle.rng("barkour-hfield", "qacc"))
    expected = oracle.forward_qacc(m, states, ctrl)
    qacc = torsion.forward(path, states, ctrl if m.nu else None, disable=oracle.SMOOTH_ONLY)
    compare.check_rows(qacc, expected, QACC_TOL, "qacc", row_name="state")


# ---------------------------------------------------------------------------------------
# skins
# ---------------------------------------------------------------------------------------

SKIN_FIELDS = [
    "skin_matid", "skin_group", "skin_rgba", "skin_inflate", "skin_vertadr", "skin_vertnum",
    "skin_texcoordadr", "skin_faceadr", "skin_facenum", "skin_boneadr", "skin_bonenum",
    "skin_vert", "skin_texcoord", "skin_face", "skin_bonevertadr", "skin_bonevertnum",
    "skin_bonebindpos", "skin_bonebindquat", "skin_bonebodyid", "skin_bonevertid",
    "skin_bonevertweight", "name_skinadr",
]
SKIN_SIZES = ["nskin", "nskinvert", "nskintexvert", "nskinface", "nskinbone", "nskinbonevert"]
STRUCT_DIR = os.path.join(os.path.dirname(__file__), "..", "models", "structure")
DOG_DIR = os.path.join(os.path.dirname(mujoco.__file__), "..", "dm_control", "suite")


def _check_skin_sizes(path):
    """Array lengths of Torsion's skin fields are MuJoCo's sizes."""
    m = oracle.load(path)
    ours = torsion.dump(path, ["skin_vertadr", "skin_vert", "skin_texcoord", "skin_face",
                               "skin_bonebodyid", "skin_bonevertid"])
    got = [len(ours[k]) for k in ("skin_vertadr", "skin_vert", "skin_texcoord", "skin_face",
                                  "skin_bonebodyid", "skin_bonevertid")]
    assert got == [int(getattr(m, s)) for s in SKIN_SIZES]


def _qacc(path, name):
    m = oracle.load(path)
    states, ctrl = oracle.random_states(m, 20, oracle.rng(name, "qacc"))
    expected = oracle.forward_qacc(m, states, ctrl)
    qacc = torsion.forward(path, states, ctrl if m.nu else None, disable=oracle.SMOOTH_ONLY)
    compare.check_rows(qacc, expected, QACC_TOL, "qacc", row_name="state")


def test_skin_inline_fields():
    path = os.path.join(STRUCT_DIR, "skin_inline.xml")
    _check_fields(path, SKIN_FIELDS + ["names"])
    _check_skin_sizes(path)
    _qacc(path, "skin_inline")


def write_skn(path, vert, texcoord, face, bones):
    """A MuJoCo .skn file; bones: (body, bindpos, bindquat, vertid, vertweight)."""
    out = struct.pack("<4i", len(vert), len(texcoord), len(face), len(bones))
    out += np.asarray(vert, "<f4").tobytes() + np.asarray(texcoord, "<f4").tobytes()
    out += np.asarray(face, "<i4").tobytes()
    for body, pos, quat, ids, weights in bones:
        out += body.encode().ljust(40, b"\0") + np.asarray(pos, "<f4").tobytes()
        out += np.asarray(quat, "<f4").tobytes() + struct.pack("<i", len(ids))
        out += np.asarray(ids, "<i4").tobytes() + np.asarray(weights, "<f4").tobytes()
    with open(path, "wb") as f:
        f.write(out)


SKIN_BODIES = ('<worldbody><body name="a"><joint/><geom size="0.1"/>'
               '<body name="b" pos="0 0 -1"><joint axis="1 0 0"/><geom size="0.1"/></body>'
               '</body></worldbody>')


def _skn_files(directory):
    r = np.random.default_rng(11)
    vert = r.standard_normal((6, 3))
    face = [[0, 1, 2], [2, 3, 4], [3, 4, 5]]
    bones = [("a", r.standard_normal(3), r.standard_normal(4), [0, 1, 2, 3], r.uniform(0.1, 2, 4)),
             ("b", r.standard_normal(3), r.standard_normal(4), [2, 3, 4, 5], r.uniform(0.1, 2, 4))]
    write_skn(os.path.join(directory, "textured.skn"), vert, r.uniform(0, 1, (6, 2)), face, bones)
    write_skn(os.path.join(directory, "plain.skn"), vert, np.zeros((0, 2)), face, bones)


def test_skin_files_equal_mujoco():
    with tempfile.TemporaryDirectory(prefix="tn-skin-") as tmp:
        os.mkdir(os.path.join(tmp, "assets"))
        _skn_files(os.path.join(tmp, "assets"))
        xml = ('<mujoco><compiler meshdir="assets"/><asset><material name="m"/>'
               '<skin file="textured.skn" material="m" group="3"/>'
               '<skin name="second" file="plain.skn" rgba="0 1 0 1"/></asset>%s</mujoco>'
               % SKIN_BODIES)
        path = _write(tmp, xml)
        _check_fields(path, SKIN_FIELDS + ["names"])
        _check_skin_sizes(path)


def _dog_without_springdamper(directory):
    """dm_control's dog.xml with joint springdamper removed (a compiler feature outside
    skins) and its directories made absolute, so it loads from another directory."""
    dog = os.path.abspath(DOG_DIR)
    with open(os.path.join(dog, "dog.xml")) as f:
        xml = f.read()
    xml = xml.replace('meshdir="dog_assets/"', 'meshdir="%s/dog_assets/"' % dog)
    xml = xml.replace('texturedir="dog_assets/"', 'texturedir="%s/dog_assets/"' % dog)
    xml = xml.replace('file="./common/', 'file="%s/common/' % dog)
    xml = re.sub(r' springdamper="[^"]*"', "", xml)
    return _write(directory, xml, "dog.xml")


def test_dog_skin_equal_mujoco():
    with tempfile.TemporaryDirectory(prefix="tn-dog-") as tmp:
        path = _dog_without_springdamper(tmp)
        _check_fields(path, SKIN_FIELDS)
        _check_skin_sizes(path)
        _qacc(path, "dog")


BAD_SKINS = {
    "file_and_data": '<skin name="s" file="x.skn" vertex="0 0 0"/>',
    "missing_bones": '<skin name="s" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"/>',
    "missing_faces": ('<skin name="s" vertex="0 0 0 1 0 0 0 1 0"><bone body="a" bindpos="0 0 0" '
                      'bindquat="1 0 0 0" vertid="0 1 2" vertweight="1 1 1"/></skin>'),
    "vertex_count": ('<skin name="s" vertex="0 0 0 1 0 0 0 1" face="0 1 2"><bone body="a" '
                     'bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2" vertweight="1 1 1"/>'
                     '</skin>'),
    "texcoord_count": ('<skin name="s" vertex="0 0 0 1 0 0 0 1 0" texcoord="0 0 1 1" face="0 1 2">'
                       '<bone body="a" bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2" '
                       'vertweight="1 1 1"/></skin>'),
    "unweighted_vertex": ('<skin name="s" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"><bone body="a" '
                          'bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1" vertweight="1 1"/>'
                          '</skin>'),
    "vertid_range": ('<skin name="s" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"><bone body="a" '
                     'bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 3" vertweight="1 1 1"/>'
                     '</skin>'),
    "weight_count": ('<skin name="s" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"><bone body="a" '
                     'bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2" vertweight="1 1"/>'
                     '</skin>'),
    "unknown_body": ('<skin name="s" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"><bone body="zz" '
                     'bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2" vertweight="1 1 1"/>'
                     '</skin>'),
    "unknown_material": ('<skin name="s" material="nomat" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2">'
                         '<bone body="a" bindpos="0 0 0" bindquat="1 0 0 0" vertid="0 1 2" '
                         'vertweight="1 1 1"/></skin>'),
    "no_bindpos": ('<skin name="s" vertex="0 0 0 1 0 0 0 1 0" face="0 1 2"><bone body="a" '
                   'bindquat="1 0 0 0" vertid="0 1 2" vertweight="1 1 1"/></skin>'),
    "truncated_file": '<skin name="s" file="short.skn"/>',
    "bone_count": '<skin name="s" file="bones.skn"/>',
    "missing_file": '<skin name="s" file="none.skn"/>',
}


@pytest.mark.parametrize("case", sorted(BAD_SKINS))
def test_bad_skin_rejected(case):
    with tempfile.TemporaryDirectory(prefix="tn-skin-") as tmp:
        with open(os.path.join(tmp, "short.skn"), "wb") as f:
            f.write(struct.pack("<4i", 3, 0, 1, 1) + b"\0" * 40)
        with open(os.path.join(tmp, "bones.skn"), "wb") as f:
            f.write(struct.pack("<4i", 1, 0, 1, 2000000000) + b"\0" * 24)
        xml = ('<mujoco>\n<worldbody><body name="a"><geom size="1"/></body></worldbody>\n'
               '<asset>\n%s\n</asset></mujoco>' % BAD_SKINS[case])
        path = _write(tmp, xml)
        with pytest.raises(Exception):
            mujoco.MjModel.from_xml_path(path)
        proc = torsion.run(["info", path], check=False)
    err = proc.stderr.strip()
    assert proc.returncode > 0 and not proc.stdout, "accepted"
    assert "model.xml:4: element '" in err, err
