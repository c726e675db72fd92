"""torsion.client — a Python client of the torsiond daemon (pure Python + numpy + protobuf).

    import torsion.client as tc
    c = tc.Client()                                   # $TORSIOND_SOCKET or /tmp/torsiond.sock
    m = c.load(path="humanoid.xml")                   # a Model handle (loaded once per content)
    state, sensordata = c.rollout(m, initial_state, control)   # as mujoco.rollout.rollout
    A, B, C, D = c.transition_fd(m, states, ctrl)     # mjd_transitionFD per state
    qfrc = c.inverse(m, states, qacc)                 # mj_inverse per state
    s = c.session(m, nenv=64)                         # environments kept on the server
    r = s.step(ctrl, readout=["qpos", "cfrc_ext"])    # one round trip: r.readouts["qpos"]
    batch = tc.SessionBatch(c, m, 64, readout=[...])  # the SimBatch contract over a session
    pool = tc.AsyncSession(c, m, 64, readout=[...])   # EnvPool-style send()/recv()

TLS: Client(address="host:port", token=..., tls_ca="ca.pem") speaks TLS to a daemon whose TCP
listener has tls_cert/tls_key, verifying its certificate against ca.pem and host.

Errors: ServerError (the daemon's code, its name and message), ConnectionError when the
daemon is gone (or the connection broke), TLSError (a ConnectionError) when the TLS
handshake fails, with OpenSSL's reason (an untrusted certificate, a wrong host, no TLS),
TimeoutError when no answer came within `timeout`, ValueError for bad shapes detected before
anything is sent.

Thread safety: every Client holds one lock per connection. Any number of threads may use
one Client: a call holds the lock while it sends its request and reads the frames of the
answer; frames that belong to other requests in flight (pipelined calls, AsyncSession) are
kept aside for their owners. Calls from several threads are therefore serialized on the
connection; use one Client per thread for parallel round trips.
"""
from __future__ import annotations

import hashlib
import os
import re
import socket as _socket
import ssl as _ssl
import threading
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _proto
from ._proto import (INVERSE_FD_OUTPUTS, PB, STATE_CTRL, STATE_FULLPHYSICS, STATE_USER,
                     from_array, optional_f64, to_array)

DEFAULT_SOCKET = "/tmp/torsiond.sock"


class TLSError(ConnectionError):
    """The TLS handshake with torsiond failed: an untrusted or mismatched certificate, or a
    port that does not speak TLS. The message carries OpenSSL's reason; __cause__ is the
    ssl.SSLError."""


class ServerError(Exception):
    """An Error frame from the daemon: .code (int), .name ('ERROR_BAD_SHAPE'), .message."""

    def __init__(self, code: int, message: str):
        self.code = code
        self.name = _proto.error_name(code)
        self.message = message
        super().__init__("%s (%d): %s" % (self.name, code, message))


# ---------------------------------------------------------------------------------------
# model handles
# ---------------------------------------------------------------------------------------


class _Named:
    """What model.body(name) returns: .id and .name."""

    def __init__(self, index: int, name: str):
        self.id = index
        self.name = name


class _Opt:
    """model.opt: the options the client knows (timestep)."""

    def __init__(self, timestep: float):
        self.timestep = timestep


class Model:
    """A model loaded in the daemon: its handle, sizes and names (ModelInfo), and any mjModel
    array by its MuJoCo name as an attribute (fetched once on first use: model.qpos0,
    model.actuator_ctrlrange, model.key_qpos, ...)."""

    _SIZES = ("nq", "nv", "nu", "na", "nbody", "njnt", "ngeom", "nsite", "nsensor",
              "nsensordata", "nkey", "nmocap", "nuserdata")

    def __init__(self, client: "Client", info):
        self._client = client
        self._info = info
        self._fields: Dict[str, np.ndarray] = {}
        self.handle: str = info.model
        self.name: str = info.name
        for k in self._SIZES:
            setattr(self, k, int(getattr(info, k)))
        self.opt = _Opt(info.timestep)
        self.state_component_sizes = [int(x) for x in info.state_component_sizes]
        self.nstate_fullphysics = int(info.nstate_fullphysics)
        self.nstate_integration = int(info.nstate_integration)
        self._names = {"body": list(info.body_names), "joint": list(info.joint_names),
                       "actuator": list(info.actuator_names), "sensor": list(info.sensor_names),
                       "key": list(info.key_names)}

    def __repr__(self):
        return "<torsion.client.Model %s %s nq=%d nv=%d nu=%d>" % (
            self.name, self.handle[:12], self.nq, self.nv, self.nu)

    def state_size(self, spec: int) -> int:
        """mj_stateSize(m, spec)."""
        return _proto.state_size(self.state_component_sizes, spec)

    def _named(self, kind: str, key) -> _Named:
        names = self._names[kind]
        if isinstance(key, (int, np.integer)):
            if not 0 <= key < len(names):
                raise IndexError("%s id %d out of range [0, %d)" % (kind, key, len(names)))
            return _Named(int(key), names[key])
        if key not in names:
            raise KeyError("no %s named %r" % (kind, key))
        return _Named(names.index(key), key)

    def body(self, key) -> _Named:
        """The body by name or id (.id, .name)."""
        return self._named("body", key)

    def joint(self, key) -> _Named:
        """The joint by name or id."""
        return self._named("joint", key)

    def actuator(self, key) -> _Named:
        """The actuator by name or id."""
        return self._named("actuator", key)

    def sensor(self, key) -> _Named:
        """The sensor by name or id."""
        return self._named("sensor", key)

    def key(self, key) -> _Named:
        """The keyframe by name or id."""
        return self._named("key", key)

    def fields(self, names: Sequence[str]) -> Dict[str, np.ndarray]:
        """mjModel arrays by MuJoCo name (one round trip for the ones not fetched yet)."""
        missing = [n for n in names if n not in self._fields]
        if missing:
            got = self._client._model_fields(self.handle, missing)
            self._fields.update(got)
        return {n: self._fields[n] for n in names}

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self.fields([name])[name]
        except ServerError as e:
            raise AttributeError("%s: %s" % (name, e.message)) from None


ModelLike = Union[Model, str]


def _local_assets(path: str) -> Dict[str, bytes]:
    """Files under a local MJCF's directory that it may reference: every file whose name
    appears in the main text or, recursively, in an XML file already taken (includes)."""
    root = os.path.dirname(os.path.abspath(path))
    files = []
    for dirpath, _, names in os.walk(root):
        files.extend(os.path.join(dirpath, n) for n in names)
        if len(files) > 20000:
            raise ValueError("too many files under %s to ship as assets" % root)
    with open(path, "rb") as f:
        blob = f.read()
    out: Dict[str, bytes] = {}
    grew = True
    while grew:
        grew = False
        for full in files:
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            if rel in out or os.path.samefile(full, path):
                continue
            if os.path.basename(full).encode() not in blob:
                continue
            if not re.fullmatch(r"[A-Za-z0-9._/-]+", rel) or len(rel) > 255:
                continue
            with open(full, "rb") as f:
                out[rel] = f.read()
            if rel.endswith(".xml"):
                blob += b"\n" + out[rel]
                grew = True
    return out


# ---------------------------------------------------------------------------------------
# the client
# ---------------------------------------------------------------------------------------


def check_states(m: "Model", state, spec: int, name: str = "state") -> np.ndarray:
    """A batch of states, [B, nstate(spec)] float64, checked against the model."""
    s = optional_f64(name, state, 2)
    if s is None:
        raise ValueError("%s is required" % name)
    n = m.state_size(spec)
    if s.shape[1] != n or s.shape[0] < 1:
        raise ValueError("%s must be [B >= 1, %d] for state spec %#x, got %s"
                         % (name, n, spec, s.shape))
    return s


def check_rows(name: str, a, B: int, ncol: int, allow_one: bool) -> Optional[np.ndarray]:
    """An optional per-state input, [B, ncol] float64 ([1, ncol] too when allow_one)."""
    a = optional_f64(name, a, 2)
    if a is None:
        return None
    if a.shape[1] != ncol or not (a.shape[0] == B or (allow_one and a.shape[0] == 1)):
        raise ValueError("%s must be [%s, %d], got %s"
                         % (name, "%d or 1" % B if allow_one else B, ncol, a.shape))
    return a


class Client:
    """One connection to torsiond.

    socket: Unix socket path (default $TORSIOND_SOCKET, else /tmp/torsiond.sock);
    address: (host, port) or "host:port" for TCP instead ("tls:host:port" for TLS);
    token: the TCP token (sent in Hello); tls_ca: CA certificates (PEM file) the server's
    certificate must chain to — setting it makes the TCP connection TLS (a "tls:" address
    without it uses $TORSION_TLS_CA, else the system's CAs); the certificate must also name
    host. timeout: seconds to wait for any answer (None: forever)."""

    def __init__(self, socket: Optional[str] = None, address=None, token: Optional[str] = None,
                 timeout: Optional[float] = 600.0, client_name: str = "torsion.client",
                 tls_ca: Optional[str] = None):
        self._lock = threading.RLock()
        self._next_id = 1
        self._stash: Dict[int, list] = {}   # frames of other requests, by id
        self._broken: Optional[str] = None
        self._models: Dict[str, Model] = {}  # content digest -> Model
        try:
            if address is not None:
                tls = tls_ca is not None
                if isinstance(address, str):
                    if address.startswith(("tls:", "tcp:")):
                        tls = tls or address.startswith("tls:")
                        address = address[4:]
                    host, _, port = address.rpartition(":")
                    address = (host.strip("[]") or "127.0.0.1", int(port))
                self._sock = _socket.create_connection(address, timeout=timeout)
                self._sock.setsockopt(_socket.IPPROTO_TCP, _socket.TCP_NODELAY, 1)
                if tls:
                    self._sock = self._start_tls(self._sock, address[0], tls_ca)
            else:
                path = socket or os.environ.get("TORSIOND_SOCKET", DEFAULT_SOCKET)
                self._sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
                self._sock.settimeout(timeout)
                self._sock.connect(path)
        except TLSError:
            raise
        except OSError as e:
            raise ConnectionError("cannot connect to torsiond (%s): %s"
                                  % (address or socket or DEFAULT_SOCKET, e)) from e
        try:
            hello = self._call("hello", PB["HelloRequest"](
                protocol_version=1, token=token or "", client_name=client_name))[-1].hello
        except BaseException:
            self.close()
            raise
        self.server_version: str = hello.server_version
        self.protocol_version: int = hello.protocol_version
        self.workers: int = hello.workers
        self.limits = hello.limits

    # connection ------------------------------------------------------------------------
    @staticmethod
    def _start_tls(sock, host: str, tls_ca: Optional[str]):
        """Wrap a connected TCP socket in TLS (1.2 or newer), verifying the server's
        certificate against tls_ca (or $TORSION_TLS_CA, or the system's CAs) and host."""
        cafile = tls_ca or os.environ.get("TORSION_TLS_CA") or None
        try:
            ctx = _ssl.create_default_context(cafile=cafile)
            ctx.minimum_version = _ssl.TLSVersion.TLSv1_2
            return ctx.wrap_socket(sock, server_hostname=host)
        except (_ssl.SSLError, _ssl.CertificateError) as e:
            sock.close()
            why = getattr(e, "verify_message", None) or getattr(e, "reason", None) or str(e)
            raise TLSError("TLS handshake with torsiond at %s failed: %s" % (host, why)) from e
        except BaseException:
            sock.close()
            raise

    def close(self) -> None:
        """Close the connection (sessions on it are closed by the daemon)."""
        with self._lock:
            if self._broken is None:
                self._broken = "the client was closed"
            try:
                self._sock.close()
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _fail(self, why: str, exc: Optional[BaseException] = None):
        """Mark the connection unusable and raise ConnectionError."""
        self._broken = why
        try:
            self._sock.close()
        except OSError:
            pass
        raise ConnectionError("torsiond connection lost: " + why) from exc

    def _check_open(self):
        if self._broken is not None:
            raise ConnectionError("torsiond connection unusable: " + self._broken)

    def _read(self, n: int) -> bytes:
        buf = bytearray()
        while len(buf) < n:
            try:
                chunk = self._sock.recv(min(n - len(buf), 1 << 22))
            except _socket.timeout as e:
                self._broken = "timed out waiting for the daemon"
                raise TimeoutError("no answer from torsiond within the timeout") from e
            except OSError as e:
                self._fail(str(e), e)
            if not chunk:
                self._fail("closed by the daemon")
            buf += chunk
        return bytes(buf)

    def _recv_frame(self):
        n = int.from_bytes(self._read(4), "big")
        r = PB["Response"]()
        r.ParseFromString(self._read(n))
        return r

    def _new_request(self, field: str, msg, deadline_ms: int = 0):
        """A Request with a fresh id and `field` set to msg."""
        req = PB["Request"](id=self._next_id, deadline_ms=deadline_ms)
        self._next_id += 1
        getattr(req, field).CopyFrom(msg)
        return req

    def _send(self, req) -> int:
        """Send one request without waiting; returns its id."""
        with self._lock:
            self._check_open()
            self._stash[req.id] = []
            try:
                self._sock.sendall(_proto.pack(req))
            except OSError as e:
                self._fail(str(e), e)
            return req.id

    def _done(self, rid: int) -> bool:
        frames = self._stash.get(rid)
        return bool(frames) and frames[-1].final

    def _poll(self, rid: int) -> bool:
        """True when request rid's final frame has arrived, reading what is available."""
        with self._lock:
            return self._done(rid)

    def _wait(self, rid: int, raise_error: bool = True) -> list:
        """The frames of request rid (its final frame last), reading frames until it is
        complete; frames of other requests are kept for them."""
        with self._lock:
            while not self._done(rid):
                self._check_open()
                r = self._recv_frame()
                if r.id == 0 and r.WhichOneof("body") == "error":
                    self._fail("%s: %s" % (_proto.error_name(r.error.code), r.error.message))
                if r.id in self._stash:
                    self._stash[r.id].append(r)
            frames = self._stash.pop(rid)
        last = frames[-1]
        if raise_error and last.WhichOneof("body") == "error":
            raise ServerError(last.error.code, last.error.message)
        return frames

    def _call(self, field: str, msg, deadline_ms: int = 0) -> list:
        """Send one request and return all its frames."""
        with self._lock:
            req = self._new_request(field, msg, deadline_ms)
            self._send(req)
            return self._wait(req.id)

    # operations ------------------------------------------------------------------------
    def health(self):
        """HealthResult."""
        return self._call("health", PB["HealthRequest"]())[-1].health

    def stats(self):
        """StatsResult (latency histograms per request kind, counters)."""
        return self._call("stats", PB["StatsRequest"]())[-1].stats

    # models ----------------------------------------------------------------------------
    def load(self, xml: Optional[str] = None, path: Optional[str] = None,
             assets: Optional[Dict[str, bytes]] = None, server_path: bool = False) -> Model:
        """Load a model (MJCF text, or a local file whose referenced files next to it are sent
        as assets; server_path=True names a file under the daemon's model_root instead).
        The same content is sent once per Client: later loads return the same Model."""
        if (xml is None) == (path is None):
            raise ValueError("give exactly one of xml= and path=")
        req = PB["LoadModelRequest"]()
        if path is not None and server_path:
            req.path = path
            key = "path:" + path
        else:
            if path is not None:
                with open(path, "r") as f:
                    xml = f.read()
                assets = dict(_local_assets(path), **(assets or {}))
            req.xml = xml
            h = hashlib.sha256(xml.encode())
            for name in sorted(assets or {}):
                req.assets.add(name=name, data=assets[name])
                h.update(b"\0" + name.encode() + b"\0" + hashlib.sha256(assets[name]).digest())
            key = h.hexdigest()
        with self._lock:
            if key in self._models:
                return self._models[key]
            res = self._call("load_model", req)[-1].load_model
            model = Model(self, res.info)
            self._models[key] = model
            return model

    def attach(self, handle: str) -> Model:
        """Take a reference to a model already loaded by handle, without sending its content:
        the daemon grants it when another connection of the same client (the same token over
        TCP, the same user on the Unix socket) holds the model; otherwise ServerError
        ERROR_MODEL_NOT_FOUND, as for a handle never loaded. Quotas count it as a load."""
        if not isinstance(handle, str) or not re.fullmatch(r"[0-9a-f]{64}", handle):
            raise ValueError("a model handle is 64 lowercase hex digits")
        with self._lock:
            for m in self._models.values():
                if m.handle == handle:
                    return m
            res = self._call("load_model", PB["LoadModelRequest"](handle=handle))[-1].load_model
            model = Model(self, res.info)
            self._models["handle:" + handle] = model
            return model

    def model(self, model: ModelLike) -> Model:
        """A Model from a Model, a handle already loaded, MJCF text, or a local path."""
        if isinstance(model, Model):
            return model
        if not isinstance(model, str):
            raise TypeError("model must be a torsion.client.Model, a handle, MJCF text or a path")
        if model.lstrip().startswith("<"):
            return self.load(xml=model)
        if re.fullmatch(r"[0-9a-f]{64}", model) and not os.path.exists(model):
            with self._lock:
                for m in self._models.values():
                    if m.handle == model:
                        return m
                info = self._call("model_info", PB["ModelInfoRequest"](model=model))[-1]
                m = Model(self, info.model_info)
                self._models["handle:" + model] = m
                return m
        return self.load(path=model)

    def _model_fields(self, handle: str, names: Sequence[str]) -> Dict[str, np.ndarray]:
        req = PB["ModelInfoRequest"](model=handle)
        req.fields.extend(names)
        info = self._call("model_info", req)[-1].model_info
        return {f.name: from_array(f.value) for f in info.fields}

    def unload(self, model: ModelLike) -> bool:
        """Remove the model from the daemon's registry."""
        m = self.model(model)
        with self._lock:
            for k in [k for k, v in self._models.items() if v is m]:
                del self._models[k]
        return self._call("unload_model",
                          PB["UnloadModelRequest"](model=m.handle))[-1].unload_model.unloaded

    # batched requests ------------------------------------------------------------------
    def _batched(self, field: str, msgs: List) -> List[List]:
        """Send several batched requests pipelined; each one's result parts, sorted by
        env_offset."""
        with self._lock:
            ids = []
            for msg in msgs:
                req = self._new_request(field, msg)
                ids.append(self._send(req))
            out, err = [], None
            for rid in ids:
                try:
                    frames = self._wait(rid)
                except ServerError as e:
                    err = err or e
                    continue
                out.append(sorted((getattr(f, field) for f in frames),
                                  key=lambda p: p.env_offset))
            if err is not None:
                raise err
            return out

    def _split(self, B: int, per_item_bytes: int, per_item_steps: int) -> List[Tuple[int, int]]:
        """Item ranges so that each request stays within the daemon's limits."""
        lim = self.limits
        cap = B
        if lim.max_batch:
            cap = min(cap, int(lim.max_batch))
        if lim.max_output_bytes and per_item_bytes:
            cap = min(cap, max(1, int(lim.max_output_bytes) // 2 // per_item_bytes))
        if lim.max_batch_steps and per_item_steps:
            cap = min(cap, max(1, int(lim.max_batch_steps) // per_item_steps))
        if lim.max_frame_bytes and per_item_bytes:
            cap = min(cap, max(1, int(lim.max_frame_bytes) // 2 // per_item_bytes))
        return [(b, min(B, b + cap)) for b in range(0, B, cap)]

    def rollout(self, model: ModelLike, initial_state, control=None, *,
                control_spec: int = STATE_CTRL, skip_checks: bool = False,
                nstep: Optional[int] = None, initial_warmstart=None, state=None,
                sensordata=None, chunk_size: Optional[int] = None):
        """mujoco.rollout.rollout served by the daemon, with MuJoCo 3.14's arguments and
        shapes: initial_state [nroll or 1, nstate] (mjSTATE_FULLPHYSICS), control
        [nroll or 1, nstep or 1, ncontrol], initial_warmstart [nroll or 1, nv]; returns
        (state [nroll, nstep, nstate], sensordata [nroll, nstep, nsensordata]), written into
        `state` / `sensordata` when given. control_spec: any mjSTATE_USER components
        (controls, applied forces, mocap poses, eq_active, userdata), each control row
        applied with mj_setState before its step. chunk_size: items per streamed frame."""
        m = self.model(model)
        nfull = m.nstate_fullphysics
        control_spec = int(control_spec)
        if control_spec & ~STATE_USER:
            raise ValueError("control_spec can only contain bits in mjSTATE_USER")
        ncontrol = m.state_size(control_spec)
        if skip_checks:
            initial_state = np.asarray(initial_state, dtype=np.float64)
            control = None if control is None else np.asarray(control, dtype=np.float64)
            nroll = initial_state.shape[0]
            nstep = int(nstep)
        else:
            initial_state, control, initial_warmstart, state, sensordata, nroll, nstep = \
                self._rollout_shapes(m, initial_state, control, initial_warmstart, state,
                                     sensordata, nstep, ncontrol, nfull)
        if state is None:
            state = np.empty((nroll, nstep, nfull))
        if sensordata is None:
            sensordata = np.empty((nroll, nstep, m.nsensordata))
        if nstep == 0 or nroll == 0:
            return state, sensordata

        # the control rows' components and the initial warmstart travel with the request
        want_sens = m.nsensordata > 0
        per_item = nstep * (nfull + m.nsensordata) * 8
        msgs, ranges = [], self._split(nroll, per_item, nstep)
        for b0, b1 in ranges:
            rr = PB["RolloutRequest"](model=m.handle, state_spec=STATE_FULLPHYSICS, nstep=nstep,
                                      sensordata=want_sens, chunk_envs=chunk_size or 0,
                                      control_spec=control_spec)
            to_array(initial_state[b0:b1], rr.initial_state)
            if control is not None and ncontrol:
                to_array(control[b0:b1] if control.shape[0] > 1 else control, rr.ctrl)
            if initial_warmstart is not None:
                to_array(np.ascontiguousarray(initial_warmstart[b0:b1]), rr.initial_warmstart)
            msgs.append(rr)
        for (b0, b1), parts in zip(ranges, self._batched("rollout", msgs)):
            for p in parts:
                lo = b0 + p.env_offset
                state[lo:lo + p.env_count] = from_array(p.states)
                if want_sens:
                    sensordata[lo:lo + p.env_count] = from_array(p.sensordata)
        return state, sensordata

    @staticmethod
    def _rollout_shapes(m, initial_state, control, initial_warmstart, state, sensordata,
                        nstep, ncontrol, nfull):
        """mujoco.rollout's shape inference and checks: singleton expansion of nroll and
        nstep, trailing dimensions; ValueError on any mismatch."""
        def lift(name, a, ndim):
            if a is None:
                return None
            if not isinstance(a, (np.ndarray, float)):
                raise ValueError("%s must be a numpy array or float" % name)
            a = np.asarray(a, dtype=np.float64)
            if a.ndim > ndim:
                raise ValueError("%s can have at most %d dimensions" % (name, ndim))
            return a.reshape((1,) * (ndim - a.ndim) + a.shape)

        if nstep is not None and not isinstance(nstep, (int, np.integer)):
            raise ValueError("nstep must be an integer")
        initial_state = lift("initial_state", initial_state, 2)
        initial_warmstart = lift("initial_warmstart", initial_warmstart, 2)
        control = lift("control", control, 3)
        state_out = lift("state", state, 3) if state is not None else None
        sens_out = lift("sensordata", sensordata, 3) if sensordata is not None else None

        # nroll and nstep: the non-singleton extents must agree
        def infer(dim, guess, **arrays):
            val = None
            for name, a in arrays.items():
                if a is None or a.shape[dim] == 1:
                    continue
                if val is not None and a.shape[dim] != val:
                    raise ValueError("%s.shape[%d] = %d does not match the other inputs (%d)"
                                     % (name, dim, a.shape[dim], val))
                val = a.shape[dim]
            return guess if val is None else val

        nroll = infer(0, 1, initial_state=initial_state, initial_warmstart=initial_warmstart,
                      control=control, state=state_out, sensordata=sens_out)
        nstep = infer(1, nstep or 1, control=control, state=state_out, sensordata=sens_out)
        for name, a, dim in (("initial_state", initial_state, nfull),
                             ("state", state_out, nfull), ("control", control, ncontrol),
                             ("initial_warmstart", initial_warmstart, m.nv),
                             ("sensordata", sens_out, m.nsensordata)):
            if a is not None and a.shape[-1] != dim:
                raise ValueError("trailing dimension of %s must be %d, got %d"
                                 % (name, dim, a.shape[-1]))
        for name, a in (("state", state_out), ("sensordata", sens_out)):
            if a is not None and a.shape[:2] != (nroll, nstep):
                raise ValueError("%s must be [%d, %d, ...], got %s" % (name, nroll, nstep,
                                                                       a.shape))
        initial_state = np.ascontiguousarray(np.broadcast_to(initial_state, (nroll, nfull)))
        if initial_warmstart is not None:
            initial_warmstart = np.broadcast_to(initial_warmstart, (nroll, m.nv))
        if control is not None:
            control = np.ascontiguousarray(control)  # [nroll or 1, nstep or 1]: the daemon expands
        return initial_state, control, initial_warmstart, state, sensordata, nroll, nstep

    def forward(self, model: ModelLike, state, ctrl=None, *, state_spec: int = STATE_FULLPHYSICS,
                sensordata: bool = False):
        """mj_forward per state: qacc [B, nv] (and sensordata [B, nsensordata] when asked:
        then a tuple)."""
        m = self.model(model)
        s = check_states(m, state, state_spec)
        c = check_rows("ctrl", ctrl, s.shape[0], m.nu, True)
        fr = PB["ForwardRequest"](model=m.handle, state_spec=state_spec, sensordata=sensordata)
        to_array(s, fr.state)
        if c is not None:
            to_array(c, fr.ctrl)
        parts = self._batched("forward", [fr])[0]
        qacc = np.concatenate([from_array(p.qacc) for p in parts])
        if sensordata:
            return qacc, np.concatenate([from_array(p.sensordata) for p in parts])
        return qacc

    def inverse(self, model: ModelLike, state, qacc, *, state_spec: int = STATE_FULLPHYSICS):
        """mj_inverse per state: qfrc_inverse [B, nv] for state [B, nstate] and qacc [B, nv]
        (each item: mj_resetData, mj_setState, qacc set, mj_inverse)."""
        m = self.model(model)
        s = check_states(m, state, state_spec)
        a = check_rows("qacc", qacc, s.shape[0], m.nv, False)
        if a is None:
            raise ValueError("qacc is required")
        msgs, ranges = [], self._split(s.shape[0], (s.shape[1] + 2 * m.nv) * 8, 1)
        for b0, b1 in ranges:
            ir = PB["InverseRequest"](model=m.handle, state_spec=state_spec)
            to_array(s[b0:b1], ir.state)
            to_array(a[b0:b1], ir.qacc)
            msgs.append(ir)
        return np.concatenate([from_array(p.qfrc_inverse)
                               for parts in self._batched("inverse", msgs) for p in parts])

    def transition_fd(self, model: ModelLike, state, ctrl=None, *, eps: float = 1e-6,
                      centered: bool = False, sensors: bool = False,
                      state_spec: int = STATE_FULLPHYSICS):
        """mjd_transitionFD per state: (A [B, nx, nx], B [B, nx, nu], C, D), C [B,
        nsensordata, nx] and D [B, nsensordata, nu] only with sensors=True (else None);
        nx = 2 nv + na; ctrl [B or 1, nu] or None."""
        m = self.model(model)
        s = check_states(m, state, state_spec)
        c = check_rows("ctrl", ctrl, s.shape[0], m.nu, True)
        nx = 2 * m.nv + m.na
        per = (nx * (nx + m.nu) + (m.nsensordata * (nx + m.nu) if sensors else 0)) * 8
        msgs, ranges = [], self._split(s.shape[0], per, (2 if centered else 1) * (nx + m.nu) + 1)
        for b0, b1 in ranges:
            tr = PB["TransitionFDRequest"](model=m.handle, state_spec=state_spec, eps=eps,
                                           centered=centered, sensors=sensors)
            to_array(s[b0:b1], tr.state)
            if c is not None:
                to_array(c if c.shape[0] == 1 else c[b0:b1], tr.ctrl)
            msgs.append(tr)
        parts = [p for ps in self._batched("transition_fd", msgs) for p in ps]
        out = [np.concatenate([from_array(getattr(p, k)) for p in parts]) for k in "ab"]
        if sensors:
            out += [np.concatenate([from_array(getattr(p, k)) for p in parts]) for k in "cd"]
        else:
            out += [None, None]
        return tuple(out)

    def inverse_fd(self, model: ModelLike, state, qacc, *, eps: float = 1e-6,
                   actuation: bool = False, outputs: Optional[Sequence[str]] = None,
                   state_spec: int = STATE_FULLPHYSICS) -> Dict[str, np.ndarray]:
        """mjd_inverseFD per state: a dict of the asked Jacobians (names in
        INVERSE_FD_OUTPUTS; default DfDq, DfDv, DfDa, DmDq), each [B, nv, cols]."""
        m = self.model(model)
        s = check_states(m, state, state_spec)
        a = check_rows("qacc", qacc, s.shape[0], m.nv, False)
        if a is None:
            raise ValueError("qacc is required")
        mask = 0
        for name in outputs or ():
            if name not in INVERSE_FD_OUTPUTS:
                raise ValueError("unknown inverse_fd output %r (one of %s)"
                                 % (name, ", ".join(INVERSE_FD_OUTPUTS)))
            mask |= 1 << INVERSE_FD_OUTPUTS.index(name)
        ir = PB["InverseFDRequest"](model=m.handle, state_spec=state_spec, eps=eps,
                                    actuation=actuation, outputs=mask)
        to_array(s, ir.state)
        to_array(a, ir.qacc)
        parts = self._batched("inverse_fd", [ir])[0]
        return {name: np.concatenate([from_array(getattr(p, name.lower())) for p in parts])
                for name in INVERSE_FD_OUTPUTS if parts[0].HasField(name.lower())}

    # sessions --------------------------------------------------------------------------
    def session(self, model: ModelLike, nenv: int, *, keyframe: int = 0,
                reset_noise: float = 0.0, seed: int = 0, state_spec: int = STATE_FULLPHYSICS,
                sensordata: bool = False, float32: bool = False) -> "Session":
        """Create nenv environments of a model on the daemon (owned by this connection)."""
        from .session_batch import Session
        return Session(self, self.model(model), nenv, keyframe=keyframe,
                       reset_noise=reset_noise, seed=seed, state_spec=state_spec,
                       sensordata=sensordata, float32=float32)


from .session_batch import Session, SessionBatch, StepResult  # noqa: E402
from ._async import AsyncSession  # noqa: E402

__all__ = ["Client", "Model", "ServerError", "Session", "SessionBatch", "StepResult",
           "AsyncSession", "DEFAULT_SOCKET"]
