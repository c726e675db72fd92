"""torsion_client — a small Python client of torsiond (numpy + protobuf), used by the
integration tests. Its successor for trainers and scripts is the package's
`torsion.client` (python/torsion/client.py; docs/python-daemon.md): mujoco.rollout-compatible
rollouts, sessions with readouts and in-step resets, SessionBatch and an async API.

Message classes are built at run time from the descriptor set that the build writes
(build/proto/torsion.desc, or $TORSION_PROTO_DESC; failing that, protoc-c is run on
proto/torsion.proto), so no generated Python code is needed. Arrays move as numpy arrays;
frames are a 4-byte big-endian length and one serialized message (docs/protocol.md).

    c = Client("/tmp/torsiond.sock"); c.hello()
    h = c.load(xml=open("model.xml").read()).model
    states, sensordata, warnings, frames = c.rollout(h, state0, nstep=100, ctrl=ctrl)
    sid, obs = c.session(h, nenv=16, reset_noise=0.01, seed=1)
    obs, _, _ = c.step(sid, actions)
    qfrc = c.inverse(h, states, qacc)                    # mj_inverse per item
    m = c.transition_fd(h, states, ctrl, eps=1e-6)       # {"A": [B,nx,nx], "B": [B,nx,nu]}
    j = c.inverse_fd(h, states, qacc)                    # {"DfDq": ..., "DmDq": ...}
"""
import os
import socket
import struct
import subprocess

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # clients/python/..
BUILD = os.environ.get("TORSION_BUILD", os.path.join(REPO_ROOT, "build"))

FULLPHYSICS = 0x201F
INTEGRATION = 0x3FFF

# InverseFDRequest.outputs bits, in mjd_inverseFD's argument order
INVERSE_FD_OUTPUTS = ("DfDq", "DfDv", "DfDa", "DsDq", "DsDv", "DsDa", "DmDq")


def build_path(*parts):
    """A path in the build directory."""
    return os.path.join(BUILD, *parts)


def _descriptor_set():
    """Bytes of the FileDescriptorSet: the built one, else made with protoc-c now."""
    built = os.environ.get("TORSION_PROTO_DESC", build_path("proto", "torsion.desc"))
    if os.path.exists(built):
        with open(built, "rb") as f:
            return f.read()
    out = subprocess.run(["protoc-c", "--proto_path=" + os.path.join(REPO_ROOT, "proto"),
                          "--descriptor_set_out=/dev/stdout", "torsion.proto"],
                         capture_output=True, check=True)
    return out.stdout


def _classes():
    """name -> message class for every message of torsion.v1."""
    fds = descriptor_pb2.FileDescriptorSet()
    fds.ParseFromString(_descriptor_set())
    pool = descriptor_pool.DescriptorPool()
    for f in fds.file:
        pool.Add(f)
    fd = pool.FindFileByName("torsion.proto")
    out = {name: message_factory.GetMessageClass(d) for name, d in fd.message_types_by_name.items()}
    out["ErrorCode"] = fd.enum_types_by_name["ErrorCode"]
    return out


PB = _classes()
Request = PB["Request"]
Response = PB["Response"]


def code(name):
    """Numeric value of an ErrorCode name such as 'ERROR_BAD_SHAPE'."""
    return PB["ErrorCode"].values_by_name[name].number


def to_array(a, msg=None):
    """numpy float64 array -> Array message (filled into msg when given)."""
    a = np.ascontiguousarray(a, dtype="<f8")
    m = msg if msg is not None else PB["Array"]()
    m.shape.extend(a.shape)
    m.dtype = 0
    m.data = a.tobytes()
    return m


def from_array(m):
    """Array message -> numpy array."""
    dt = "<f4" if m.dtype == 1 else "<f8"
    return np.frombuffer(m.data, dtype=dt).reshape(tuple(m.shape))


class ServerError(Exception):
    """An Error frame: .code and .message."""

    def __init__(self, code, message):
        super().__init__("%d: %s" % (code, message))
        self.code = code
        self.message = message


class Client:
    """One connection (not thread-safe)."""

    def __init__(self, address, timeout=60):
        if isinstance(address, tuple):
            self.sock = socket.create_connection(address, timeout=timeout)
        else:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.sock.settimeout(timeout)
            self.sock.connect(address)
        self.next_id = 1

    def close(self):
        self.sock.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # frames ---------------------------------------------------------------------------
    def send_bytes(self, data):
        self.sock.sendall(data)

    def send(self, req):
        body = req.SerializeToString()
        self.sock.sendall(struct.pack(">I", len(body)) + body)

    def _read(self, n):
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("connection closed by the server")
            buf += chunk
        return bytes(buf)

    def recv(self):
        n = struct.unpack(">I", self._read(4))[0]
        r = Response()
        r.ParseFromString(self._read(n))
        return r

    def request(self, **body):
        """A Request with a fresh id and the given body field set."""
        req = Request(id=self.next_id)
        self.next_id += 1
        for k, v in body.items():
            if k == "deadline_ms":
                req.deadline_ms = v
            else:
                getattr(req, k).CopyFrom(v)
        return req

    def call(self, req, raise_error=True):
        """Send and collect every frame of the request: returns the list of frames."""
        self.send(req)
        frames = []
        while True:
            r = self.recv()
            if r.id == 0 and r.WhichOneof("body") == "error" and raise_error:
                raise ServerError(r.error.code, r.error.message)  # about the connection
            if r.id != req.id:
                continue
            frames.append(r)
            if r.WhichOneof("body") == "error" and raise_error:
                raise ServerError(r.error.code, r.error.message)
            if r.final:
                return frames

    # calls ----------------------------------------------------------------------------
    def hello(self, token=""):
        return self.call(self.request(hello=PB["HelloRequest"](protocol_version=1, token=token)))[-1].hello

    def load(self, xml=None, path=None, assets=None):
        lm = PB["LoadModelRequest"]()
        if path is not None:
            lm.path = path
        else:
            lm.xml = xml
        for name, data in (assets or {}).items():
            lm.assets.add(name=name, data=data)
        return self.call(self.request(load_model=lm))[-1].load_model

    def info(self, model):
        return self.call(self.request(model_info=PB["ModelInfoRequest"](model=model)))[-1].model_info

    def rollout(self, model, state0, nstep, ctrl=None, spec=0, **opts):
        """Returns (states [B, nrec, nstate], sensordata or None, warnings [B], frames)."""
        rr = PB["RolloutRequest"](model=model, nstep=nstep, state_spec=spec, **opts)
        to_array(state0, rr.initial_state)
        if ctrl is not None:
            to_array(ctrl, rr.ctrl)
        frames = self.call(self.request(rollout=rr))
        B = state0.shape[0]
        parts = sorted((f.rollout for f in frames), key=lambda p: p.env_offset)
        states = np.concatenate([from_array(p.states) for p in parts])
        sens = (np.concatenate([from_array(p.sensordata) for p in parts])
                if parts[0].HasField("sensordata") else None)
        warnings = np.concatenate([np.array(p.warnings, dtype=np.uint32) for p in parts])
        assert states.shape[0] == B
        return states, sens, warnings, frames

    def forward(self, model, state, ctrl=None, spec=0):
        fr = PB["ForwardRequest"](model=model, state_spec=spec)
        to_array(state, fr.state)
        if ctrl is not None:
            to_array(ctrl, fr.ctrl)
        parts = sorted((f.forward for f in self.call(self.request(forward=fr))),
                       key=lambda p: p.env_offset)
        return np.concatenate([from_array(p.qacc) for p in parts])

    def _parts(self, field, msg, deadline_ms=0):
        """Send a batched request; its result parts sorted by env_offset."""
        req = self.request(**{field: msg})
        req.deadline_ms = deadline_ms
        parts = sorted((getattr(f, field) for f in self.call(req)), key=lambda p: p.env_offset)
        assert sum(p.env_count for p in parts) == parts[0].batch
        return parts

    def inverse(self, model, state, qacc, spec=0, deadline_ms=0, **opts):
        """mj_inverse per item: qfrc_inverse [B, nv] for states [B, nstate] and qacc [B, nv]."""
        ir = PB["InverseRequest"](model=model, state_spec=spec, **opts)
        to_array(state, ir.state)
        to_array(qacc, ir.qacc)
        parts = self._parts("inverse", ir, deadline_ms)
        return np.concatenate([from_array(p.qfrc_inverse) for p in parts])

    def transition_fd(self, model, state, ctrl=None, eps=1e-6, centered=False, sensors=False,
                      spec=0, deadline_ms=0, **opts):
        """mjd_transitionFD per item: {"A": [B, nx, nx], "B": [B, nx, nu]} (+ "C", "D" with
        sensors=True), ctrl [B or 1, nu] or None."""
        tr = PB["TransitionFDRequest"](model=model, state_spec=spec, eps=eps, centered=centered,
                                       sensors=sensors, **opts)
        to_array(state, tr.state)
        if ctrl is not None:
            to_array(ctrl, tr.ctrl)
        parts = self._parts("transition_fd", tr, deadline_ms)
        out = {"A": np.concatenate([from_array(p.a) for p in parts]),
               "B": np.concatenate([from_array(p.b) for p in parts])}
        if parts[0].HasField("c"):
            out["C"] = np.concatenate([from_array(p.c) for p in parts])
            out["D"] = np.concatenate([from_array(p.d) for p in parts])
        return out

    def inverse_fd(self, model, state, qacc, eps=1e-6, actuation=False, outputs=None, spec=0,
                   deadline_ms=0, **opts):
        """mjd_inverseFD per item: a dict of the asked Jacobians (names of
        INVERSE_FD_OUTPUTS; None: DfDq, DfDv, DfDa, DmDq), each [B, nv, cols]."""
        mask = 0
        for name in outputs or ():
            mask |= 1 << INVERSE_FD_OUTPUTS.index(name)
        ir = PB["InverseFDRequest"](model=model, state_spec=spec, eps=eps, actuation=actuation,
                                    outputs=mask, **opts)
        to_array(state, ir.state)
        to_array(qacc, ir.qacc)
        parts = self._parts("inverse_fd", ir, deadline_ms)
        out = {}
        for name in INVERSE_FD_OUTPUTS:
            if parts[0].HasField(name.lower()):
                out[name] = np.concatenate([from_array(getattr(p, name.lower())) for p in parts])
        return out

    def session(self, model, nenv, **opts):
        r = self.call(self.request(create_session=PB["CreateSessionRequest"](
            model=model, nenv=nenv, **opts)))[-1].create_session
        return r.session, from_array(r.states)

    def step(self, sid, ctrl=None, frame_skip=0):
        sr = PB["SessionStepRequest"](session=sid, frame_skip=frame_skip)
        if ctrl is not None:
            to_array(ctrl, sr.ctrl)
        r = self.call(self.request(session_step=sr))[-1].session_step
        sens = from_array(r.sensordata) if r.HasField("sensordata") else None
        return from_array(r.states), sens, np.array(r.warnings, dtype=np.uint32)

    def reset(self, sid, mask=None):
        rr = PB["SessionResetRequest"](session=sid)
        if mask is not None:
            rr.mask.extend(bool(m) for m in mask)
        return from_array(self.call(self.request(session_reset=rr))[-1].session_reset.states)

    def get_state(self, sid, spec=0):
        g = PB["SessionGetStateRequest"](session=sid, state_spec=spec)
        return from_array(self.call(self.request(session_get_state=g))[-1].session_get_state.states)

    def set_state(self, sid, states, spec=0):
        s = PB["SessionSetStateRequest"](session=sid, state_spec=spec)
        to_array(states, s.states)
        return from_array(self.call(self.request(session_set_state=s))[-1].session_set_state.states)

    def close_session(self, sid):
        return self.call(self.request(close_session=PB["CloseSessionRequest"](session=sid)))[-1]

    def stats(self):
        return self.call(self.request(stats=PB["StatsRequest"]()))[-1].stats

    def health(self):
        return self.call(self.request(health=PB["HealthRequest"]()))[-1].health
