"""torsiond keeps model loading inside its allowed files.

Client MJCF text loads from memory: the text and its assets go into the engine's VFS and the
load reads nothing else (vfs_only). A model_root path loads with model_root as the engine's
root. Every attack below fails with a clear error, the daemon keeps serving another client,
no file outside is opened (an outside FIFO would notice the open) and the reply is the same
whether the outside file exists or not.
"""
import os
import re
import struct
import threading
import time

import pytest

from daemon_util import PENDULUM, Daemon
from torsion_client import ServerError, code

LOAD_FAILED = code("ERROR_MODEL_LOAD_FAILED")


class OpenDetector:
    """A FIFO outside the allowed place: a writer thread blocks in open() until some process
    opens the FIFO for reading, so a finished thread means someone opened it."""

    def __init__(self, path):
        self.path = path
        os.mkfifo(path)
        self.result = None
        self.thread = threading.Thread(target=self._wait, daemon=True)
        self.thread.start()

    def _wait(self):
        os.close(os.open(self.path, os.O_WRONLY))

    def opened(self):
        """True when a reader opened the FIFO; releases the writer either way."""
        if self.result is None:
            time.sleep(0.2)
            self.result = not self.thread.is_alive()
            if not self.result:
                fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
                self.thread.join(5)
                os.close(fd)
        return self.result


def stl_tetra():
    """A binary STL tetrahedron."""
    v = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
    faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    out = b"\0" * 80 + struct.pack("<I", len(faces))
    for f in faces:
        out += struct.pack("<3f", 0, 0, 0)
        for i in f:
            out += struct.pack("<3f", *v[i])
        out += b"\0\0"
    return out


def still_serving(daemon):
    """Another client loads and steps a model."""
    with daemon.client() as c:
        with open(PENDULUM) as f:
            r = c.load(xml=f.read())
        assert r.info.nq > 0
        assert c.health().serving


def refused(c, **kw):
    """The load fails with ERROR_MODEL_LOAD_FAILED; returns the message."""
    with pytest.raises(ServerError) as e:
        c.load(**kw)
    assert e.value.code == LOAD_FAILED, e.value.message
    return e.value.message


@pytest.fixture
def outside(tmp_path):
    """A directory outside every allowed place, with a secret file and an open detector."""
    d = tmp_path / "outside"
    d.mkdir()
    (d / "secret.xml").write_text("<mujoco><worldbody/></mujoco>")
    (d / "secret.stl").write_bytes(stl_tetra())
    det = OpenDetector(str(d / "fifo.xml"))
    yield d, det
    det.opened()


def test_client_text_reads_only_its_assets(daemon, outside):
    out, det = outside
    attacks = [
        # an unquoted attribute before the file attribute
        '<mujoco><asset><mesh name=m file="%s/fifo.xml"/></asset></mujoco>' % out,
        '<mujoco><compiler angle=radian meshdir="%s"/><asset><mesh file="fifo.xml"/></asset>'
        '</mujoco>' % out,
        '<mujoco><compiler assetdir="%s"/><asset><mesh file="fifo.xml"/></asset></mujoco>' % out,
        # includes of any name, absolute or with '..'
        '<mujoco><include file="%s/fifo.xml"/></mujoco>' % out,
        '<mujoco><include file="/etc/hostname"/></mujoco>',
        '<mujoco><include file="a.txt"/></mujoco>',
        '<mujoco><include file="../../../../../../%s/fifo.xml"/></mujoco>' % out,
        # devices and FIFOs
        '<mujoco><asset><mesh name="z" file="/dev/zero"/></asset></mujoco>',
        '<mujoco><asset><hfield name="h" size="1 1 1 1" file="/dev/zero"/></asset></mujoco>',
        '<mujoco><asset><skin file="%s/fifo.xml"/></asset></mujoco>' % out,
    ]
    with daemon.client() as c:
        for xml in attacks:
            msg = refused(c, xml=xml)
            assert "not in the VFS" in msg, (xml, msg)
            assert re.search(r"element '\w+'", msg), msg
        for xml in attacks[3:5]:
            msg = refused(c, xml=xml, assets={"other.xml": b"<mujoco/>"})
            assert "not in the VFS" in msg, msg
    still_serving(daemon)
    assert not det.opened(), "a file outside the request was opened"


def test_client_text_finds_its_assets_by_name(client):
    """An absolute or '..' reference finds the request's asset of that base name (MuJoCo's
    VFS rule), never the file at that path."""
    xml = ('<mujoco><compiler meshdir="/etc"/><asset><mesh name="m" file="../x/Part.STL"/>'
           '</asset><worldbody><geom type="mesh" mesh="m"/></worldbody>'
           '<include file="/etc/inc.xml"/></mujoco>')
    inc = b'<mujoco><worldbody><body name="b"><joint/><geom size=".1"/></body></worldbody></mujoco>'
    r = client.load(xml=xml, assets={"meshes/part.stl": stl_tetra(), "inc.xml": inc})
    assert r.info.nbody == 2 and r.info.ngeom == 2


def test_no_staging_directory(tmp_path):
    """Assets are never written to disk: the tmp_dir stays empty, even with zero assets."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    conf = tmp_path / "d.conf"
    conf.write_text("[engine]\ntmp_dir = %s\n" % tmp)
    d = Daemon(config=str(conf))
    try:
        with d.client() as c:
            c.load(xml='<mujoco><include file="p.xml"/></mujoco>',
                   assets={"p.xml": b'<mujoco><worldbody><geom size="1"/></worldbody></mujoco>'})
            c.load(xml='<mujoco><worldbody><geom size="2"/></worldbody></mujoco>')
            refused(c, xml='<mujoco><include file="q.xml"/></mujoco>', assets={})
        assert os.listdir(str(tmp)) == []
    finally:
        rc, log = d.stop()
    assert rc == 0, log


def test_model_root_confines_every_file(tmp_path, outside):
    out, det = outside
    root = tmp_path / "models"
    root.mkdir()
    os.mkfifo(str(root / "fifo.xml"))
    os.symlink(str(out), str(root / "link"))
    files = {
        "ok.xml": '<mujoco><include file="part.xml"/></mujoco>',
        "part.xml": '<mujoco><worldbody><geom size="1"/></worldbody></mujoco>',
        "fifo_inc.xml": '<mujoco><include file="fifo.xml"/></mujoco>',
        "zero.xml": '<mujoco><asset><mesh name="z" file="/dev/zero"/></asset></mujoco>',
        "link_inc.xml": '<mujoco><include file="link/fifo.xml"/></mujoco>',
        "link_mesh.xml": '<mujoco><compiler meshdir="link"/><asset><mesh file="fifo.xml"/>'
                         '</asset></mujoco>',
        "abs_dir.xml": '<mujoco><compiler meshdir=%s/><asset><mesh file="fifo.xml"/></asset>'
                       '</mujoco>' % out,
        "dotdot.xml": '<mujoco><include file="../outside/fifo.xml"/></mujoco>',
        "txt_inc.xml": '<mujoco><include file="%s/fifo.xml"/></mujoco>' % out,
        "exists.xml": '<mujoco><include file="../outside/secret.xml"/></mujoco>',
        "missing.xml": '<mujoco><include file="../outside/nothing.xml"/></mujoco>',
        "link_exists.xml": '<mujoco><asset><mesh file="link/secret.stl"/></asset></mujoco>',
        "link_missing.xml": '<mujoco><asset><mesh file="link/nothing.stl"/></asset></mujoco>',
    }
    for name, text in files.items():
        (root / name).write_text(text)
    d = Daemon("--model-root", str(root))
    try:
        with d.client() as c:
            assert c.load(path="ok.xml").info.ngeom == 1
            msgs = {}
            for name in files:
                if name in ("ok.xml", "part.xml"):
                    continue
                t0 = time.time()
                msgs[name] = refused(c, path=name)
                assert time.time() - t0 < 10, name
                assert "root" in msgs[name] or "regular file" in msgs[name], msgs[name]
            # the reply does not tell whether the outside file exists
            for a, b, fa, fb in (("exists.xml", "missing.xml", "secret.xml", "nothing.xml"),
                                 ("link_exists.xml", "link_missing.xml", "secret.stl",
                                  "nothing.stl")):
                norm_a = msgs[a].replace(a, "X").replace(fa.split(".")[0], "F")
                norm_b = msgs[b].replace(b, "X").replace(fb.split(".")[0], "F")
                assert norm_a == norm_b, (msgs[a], msgs[b])
            # request paths themselves
            for bad in ("link/secret.xml", "../outside/secret.xml", "link/nothing.xml"):
                with pytest.raises(ServerError) as e:
                    c.load(path=bad)
                assert e.value.code == code("ERROR_PATH_FORBIDDEN"), bad
                assert ("not a regular file under model_root" in e.value.message
                        or "without '..'" in e.value.message), e.value.message
            with pytest.raises(ServerError) as e:
                c.load(path="fifo.xml")
            assert e.value.code == code("ERROR_PATH_FORBIDDEN")
        still_serving(d)
    finally:
        rc, log = d.stop()
    assert rc == 0, log
    assert not det.opened(), "a file outside model_root was opened"


def test_model_root_models_may_exceed_max_model_bytes(tmp_path):
    """max_model_bytes bounds client requests; a model_root model reads its own files."""
    root = tmp_path / "models"
    root.mkdir()
    tet = stl_tetra()
    big = tet[:80] + struct.pack("<I", 4 * 100) + tet[84:] * 100  # the tetrahedron 100 times
    (root / "big.stl").write_bytes(big)
    (root / "m.xml").write_text('<mujoco><asset><mesh file="big.stl"/></asset><worldbody>'
                                '<geom type="mesh" mesh="big"/></worldbody></mujoco>')
    d = Daemon("--model-root", str(root), "--max-model-bytes", "4k")
    try:
        with d.client() as c:
            assert len(big) > 4096
            assert c.load(path="m.xml").info.ngeom == 1
            with pytest.raises(ServerError) as e:
                c.load(xml=(root / "m.xml").read_text(), assets={"big.stl": big})
            assert e.value.code == code("ERROR_LIMIT_EXCEEDED")
    finally:
        rc, log = d.stop()
    assert rc == 0, log
