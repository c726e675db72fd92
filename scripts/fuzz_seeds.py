#!/usr/bin/env python3
"""scripts/fuzz_seeds.py — seed corpora for the libFuzzer targets (scripts/fuzz.sh runs it).

    fuzz_seeds.py OUTDIR

writes OUTDIR/{mjcf,mesh,npy,frame,http}/ (never committed): the MJCF files of tests/models and
of gymnasium's MuJoCo assets; the small mesh files found beside them (one selector byte
first, as fuzz_mesh.c reads it); a few .npy files; and one frame stream per request kind
for fuzz/frame_model.xml (built with the protocol's descriptor set and mujoco's state
sizes, when the test environment has them); a few HTTP requests for fuzz_http."""
import glob
import hashlib
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANDLE = "f00d" * 16  # fuzz_frame.c's FUZZ_HANDLE
MAX_SEED = 64 * 1024


def model_dirs():
    """tests/models, and gymnasium's MuJoCo assets when gymnasium is installed."""
    dirs = [os.path.join(ROOT, "tests", "models")]
    try:
        import gymnasium
        dirs.append(os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets"))
    except ImportError:
        pass
    return dirs


def put(outdir, data):
    """write one seed named by its hash"""
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(data)


def files(ext):
    """files with this extension under the model directories, at most MAX_SEED bytes"""
    for d in model_dirs():
        for p in sorted(glob.glob(os.path.join(d, "**", "*" + ext), recursive=True)):
            if os.path.getsize(p) <= MAX_SEED:
                yield p


def mjcf_seeds(outdir):
    for p in files(".xml"):
        with open(p, "rb") as f:
            put(outdir, f.read())


def mesh_seeds(outdir):
    # selector byte: 0 STL, 1 OBJ, 2 MSH; +3 also runs the processing (hull, inertia)
    for ext, sel in ((".stl", 0), (".obj", 1), (".msh", 2)):
        for p in files(ext):
            with open(p, "rb") as f:
                data = f.read()
            put(outdir, bytes([sel]) + data)
            put(outdir, bytes([sel + 3]) + data)
    tetra = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
    put(outdir, b"\x04" + tetra)
    put(outdir, b"\x03solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
        b"vertex 0 1 0\nendloop\nendfacet\nendsolid t\n")
    tri = struct.pack("<12f", 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0) + b"\0\0"
    put(outdir, b"\x00" + b"\0" * 80 + struct.pack("<I", 1) + tri)
    put(outdir, b"\x05" + struct.pack("<4i", 4, 0, 0, 4) + struct.pack(
        "<12f", 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1) + struct.pack("<12i", 0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3))


def npy_seeds(outdir):
    def npy(shape, version=1, descr="'<f8'", fortran="False"):
        hdr = "{'descr': %s, 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)
        lenfmt = "<H" if version == 1 else "<I"
        pad = 64 - (10 + len(hdr) + 1) % 64
        hdr = hdr + " " * pad + "\n"
        n = 1
        for e in eval(shape):
            n *= e
        return (b"\x93NUMPY" + bytes([version, 0]) + struct.pack(lenfmt, len(hdr)) +
                hdr.encode() + struct.pack("<%dd" % n, *range(n)))
    for shape in ("(3,)", "(2, 3)", "(1, 2, 2)", "()", "(0, 4)"):
        put(outdir, npy(shape))
    put(outdir, npy("(2, 2)", version=2))
    put(outdir, npy("(2,)", descr="'float64'"))


def frame_seeds(outdir):
    """one connection's frames per request kind, sized for fuzz/frame_model.xml"""
    try:
        import mujoco
        import numpy as np
        sys.path.insert(0, os.path.join(ROOT, "clients", "python"))
        import torsion_client as tc
    except Exception as e:  # the seeds are a help, not a requirement
        print("fuzz_seeds.py: no frame seeds (%s)" % e, file=sys.stderr)
        return
    m = mujoco.MjModel.from_xml_path(os.path.join(ROOT, "fuzz", "frame_model.xml"))
    ns = mujoco.mj_stateSize(m, mujoco.mjtState.mjSTATE_FULLPHYSICS)
    B = 2
    state = np.zeros((B, ns))
    ctrl = np.zeros((B, m.nu))
    qacc = np.zeros((B, m.nv))

    def frames(*bodies):
        out = b""
        for i, (field, fill) in enumerate(bodies):
            req = tc.Request(id=i + 1)
            fill(getattr(req, field))
            data = req.SerializeToString()
            out += struct.pack(">I", len(data)) + data
        return out

    def arr(msg, a):
        tc.to_array(a, msg)

    def hello(r):
        r.protocol_version = 1
        r.client_name = "fuzz"

    def rollout(r):
        r.model = HANDLE
        arr(r.initial_state, state)
        arr(r.ctrl, np.zeros((B, 3, m.nu)))
        r.nstep = 3
        r.record_every = 2
        r.sensordata = True

    def forward(r):
        r.model = HANDLE
        arr(r.state, state)
        arr(r.ctrl, ctrl)
        r.output_dtype = 1

    def inverse(r):
        r.model = HANDLE
        arr(r.state, state)
        arr(r.qacc, qacc)

    def tfd(r):
        r.model = HANDLE
        arr(r.state, state)
        arr(r.ctrl, ctrl)
        r.eps = 1e-6
        r.centered = True

    def ifd(r):
        r.model = HANDLE
        arr(r.state, state)
        arr(r.qacc, qacc)
        r.eps = 1e-6
        r.outputs = 7

    def load(r):
        r.xml = "<mujoco><asset><mesh file='a.stl'/></asset></mujoco>"
        a = r.assets.add()
        a.name = "a.stl"
        a.data = b"solid"

    def session(r):
        r.model = HANDLE
        r.nenv = 2

    def step(r):
        r.session = 1
        arr(r.ctrl, ctrl)

    def info(r):
        r.model = HANDLE

    def noop(r):
        r.SetInParent()

    def cancel(r):
        r.target_id = 1

    seeds = [
        [("hello", hello), ("model_info", info), ("stats", noop), ("health", noop)],
        [("rollout", rollout)], [("forward", forward)], [("inverse", inverse)],
        [("transition_fd", tfd)], [("inverse_fd", ifd)], [("load_model", load)],
        [("create_session", session)], [("session_step", step)], [("cancel", cancel)],
        [("model_info", info), ("unload_model", info), ("model_info", info)],
    ]
    for s in seeds:
        put(outdir, frames(*s))


def http_seeds(outdir):
    # byte 0: piece size - 1; byte 1: odd = a token is configured (fuzz_http.c)
    heads = [
        b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9464\r\nAccept: text/plain\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nAuthorization: Bearer fuzz-token-0123456789\r\n\r\n",
        b"POST /metrics HTTP/1.1\r\nContent-Length: 4\r\n\r\nabcd",
        b"GET /metrics?name[]=x HTTP/1.0\r\n\r\n",
        b"GET /other HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nX-A: 1\r\n folded\r\n\r\nGET / HTTP/1.1\r\n\r\n",
    ]
    for i, head in enumerate(heads):
        put(outdir, bytes([255 if i % 2 else 0, i % 2]) + head)
        put(outdir, bytes([2, 1]) + head)


def main():
    out = sys.argv[1]
    for target, fn in (("mjcf", mjcf_seeds), ("mesh", mesh_seeds), ("npy", npy_seeds),
                       ("frame", frame_seeds), ("http", http_seeds)):
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        fn(d)
        print("fuzz_seeds.py: %s: %d seeds" % (target, len(os.listdir(d))))


if __name__ == "__main__":
    main()
