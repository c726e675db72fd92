"""torsion.cluster.dispatcher — one batch spread over many torsiond, results in batch order.

    d = Dispatcher()                        # local Ray (or address="ray://head:10001"):
                                            # one torsiond per Ray node, sized to its CPUs
    state, sens = d.rollout("humanoid.xml", initial_state, control)   # as Client.rollout
    A, B, C, D = d.transition_fd(model, states, ctrl)
    for lo, hi, (state, sens) in d.stream("rollout", model, initial_state, control): ...

A batch of B items is cut into subsets (split.plan: a share per daemon proportional to its
workers, cut into subsets that shrink towards the share's end);
each daemon is driven by `depth` connections, each one request at a time, so the daemon's
workers never wait for a round trip; a daemon out of work steals from the back of the
others' runs. Results come back in batch order (stream) or assembled (the calls).

Nothing lost: when a daemon's connection fails (the daemon, its actor or its node died),
the subset in flight and the daemon's untouched subsets go to the other daemons; the
daemon is dropped for the rest of the batch and revived in the background (Ray restarts a
dead actor; its new endpoint is fetched). Each subset is tried at most max_tries times,
then the call raises ClusterError. Every item is computed the same way by any daemon, so
the answer is bitwise equal to one daemon's. An error the daemon reports about the input
(ServerError: a bad shape, an unknown model) fails the call at once, without retries.

Models are loaded by content: the MJCF and its assets are hashed in the driver and sent
once to each daemon; its other connections attach the daemon's handle (LoadModel by handle,
allowed because they show the same token), and send the content again only when the attach
fails (every connection holding the model closed meanwhile, or an older daemon)."""
from __future__ import annotations

import hashlib
import os
import socket
import threading
import time
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from ..client import Client, Model, ServerError, _local_assets, check_rows, check_states
from .._proto import INVERSE_FD_OUTPUTS, STATE_CTRL, STATE_FULLPHYSICS, STATE_USER
from . import split

# daemon answers that say "try elsewhere" rather than "your input is wrong"
_RETRY_ERRORS = ("ERROR_SHUTTING_DOWN", "ERROR_DEADLINE_EXCEEDED", "ERROR_INTERNAL")

# answers to an attach by handle after which the content is sent instead: nobody holds the
# model any more, or a daemon older than attaching does not know the request
_ATTACH_FALLBACK = ("ERROR_MODEL_NOT_FOUND", "ERROR_INVALID_ARGUMENT")


def _keepalive(client: Client, idle: int = 5, interval: int = 2, count: int = 3) -> None:
    """TCP keepalive probes on a client's connection, so that a request to a machine that
    vanished (no reset ever comes) fails after about idle + interval * count seconds
    instead of the request timeout (Linux; elsewhere the system's defaults)."""
    sock = getattr(client, "_sock", None)
    if sock is None:
        return
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (("TCP_KEEPIDLE", idle), ("TCP_KEEPINTVL", interval),
                            ("TCP_KEEPCNT", count)):
            if hasattr(socket, name):
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, name), value)
    except OSError:
        pass


class ClusterError(ConnectionError):
    """The dispatcher could not complete a batch: a subset failed max_tries times, no
    daemon is reachable, or the dispatcher is closed. .subset names the items when known."""


class ClusterModel:
    """A model known to the dispatcher by content (MJCF text and assets); its sizes come
    from the first daemon that loaded it (nq, nv, nu, na, nsensordata, state_size())."""

    def __init__(self, xml: str, assets: Dict[str, bytes], name: str = ""):
        self.xml = xml
        self.assets = dict(assets)
        h = hashlib.sha256(xml.encode())
        for k in sorted(self.assets):
            h.update(b"\0" + k.encode() + b"\0" + hashlib.sha256(self.assets[k]).digest())
        self.key = h.hexdigest()
        self.name = name
        self.info: Optional[Model] = None  # a daemon's Model: sizes and names

    def __getattr__(self, name: str):
        if name.startswith("_") or self.__dict__.get("info") is None:
            raise AttributeError(name)
        return getattr(self.info, name)

    def __repr__(self):
        return "<torsion.cluster.ClusterModel %s %s>" % (self.name, self.key[:12])


class _Daemon:
    """One daemon as the dispatcher sees it: its endpoint, `depth` connections (made on
    first use), the handles of models loaded on it, and whether it is up."""

    def __init__(self, index: int, endpoint: dict, node, depth: int, timeout: float,
                 tls_ca: Optional[str]):
        self.index = index
        self.tls_ca = tls_ca
        self.node = node
        self.depth = depth
        self.timeout = timeout
        self.lock = threading.Lock()
        self.model_lock = threading.Lock()  # one connection at a time sets a model up
        self.reviver: Optional[threading.Thread] = None
        self.last_error = ""
        self._reset(endpoint)

    def _reset(self, endpoint: dict) -> None:
        self.endpoint = dict(endpoint)
        self.workers = max(1, int(endpoint.get("workers") or 1))
        self.clients: List[Optional[Client]] = [None] * self.depth
        self.handles: Dict[str, str] = {}  # content key -> the daemon's handle
        self.models: Dict[Tuple[int, str], Model] = {}  # (connection, content key) -> Model
        self.content_sent = 0  # LoadModel requests that carried content (for the tests)
        self.up = True
        self.generation = getattr(self, "generation", 0) + 1  # one per endpoint

    def label(self) -> str:
        return "daemon %d (%s:%s)" % (self.index, self.endpoint.get("host"),
                                      self.endpoint.get("port"))

    def client(self, k: int) -> Client:
        c = self.clients[k]
        if c is None:
            ep = self.endpoint
            c = Client(address=(ep["host"], int(ep["port"])), token=ep.get("token"),
                       timeout=self.timeout, client_name="torsion.cluster",
                       tls_ca=self.tls_ca)
            _keepalive(c)
            self.clients[k] = c
        return c

    def model(self, k: int, cm: ClusterModel) -> Tuple[Client, Model]:
        """Connection k and the model on it. The first connection that needs the model sends
        its content (the daemon compiles it once); the others attach the daemon's handle
        (a reference without the content: they show the same token). When the attach
        fails (the connections that held the model have closed, so it was unloaded) the
        content is sent again. Set-up is serialized per daemon, so concurrent connections
        at a batch's start send the content once between them."""
        c = self.client(k)
        m = self.models.get((k, cm.key))
        if m is not None:
            return c, m
        with self.model_lock:
            handle = self.handles.get(cm.key)
            if handle is not None:
                try:
                    m = c.attach(handle)
                except ServerError as e:
                    if e.name not in _ATTACH_FALLBACK:
                        raise
            if m is None:
                m = c.load(xml=cm.xml, assets=cm.assets or None)
                self.content_sent += 1
            with self.lock:
                self.handles[cm.key] = m.handle
                self.models[(k, cm.key)] = m
        return c, m

    def reconnect(self, k: int, gen: int) -> bool:
        """Replace connection k by a fresh one (the daemon may have closed an idle
        connection); False when the daemon does not answer or gen was replaced."""
        with self.lock:
            if gen != self.generation or not self.up:
                return False
            old, self.clients[k] = self.clients[k], None
            self.models = {key: m for key, m in self.models.items() if key[0] != k}
        if old is not None:
            old.close()
        try:
            self.client(k)
            return True
        except (ConnectionError, OSError):
            return False

    def close(self) -> None:
        for c in self.clients:
            if c is not None:
                c.close()
        self.clients = [None] * self.depth
        self.models = {}

    def mark_down(self, why: str) -> None:
        with self.lock:
            self.up = False
            self.last_error = why
        self.close()


class _Op:
    """One operation over a validated batch: n items, run() per subset, assemble()."""

    def __init__(self, model: ClusterModel, n: int, run: Callable, assemble: Callable):
        self.model = model
        self.n = n
        self.run = run
        self.assemble = assemble


class Dispatcher:
    """Batches over many torsiond daemons (see the module docstring).

    address: the Ray cluster (None: the one this process is connected to, else a new local
    one; "auto"; "ray://head:10001"); nodes: TorsiondNode actor handles to use (None:
    start_nodes(num_daemons, workers=workers) on the cluster; the dispatcher then stops
    them on close); endpoints: [{host, port, token, workers}] of daemons to use without Ray.
    depth: connections (requests in flight) per daemon; split_factor: each subset takes
    1/split_factor of what remains of its daemon's share (more: finer balance, more round
    trips); max_items: cap on a subset's items;
    max_tries: attempts per subset before ClusterError; timeout: seconds a request may
    take; revive_timeout: seconds to wait for a restarted actor's endpoint; tls_ca: CA
    certificates (PEM) for daemons serving TLS (their tls_cert must name the node's IP)."""

    def __init__(self, address: Optional[str] = None, *, nodes: Optional[Sequence] = None,
                 endpoints: Optional[Sequence[dict]] = None, num_daemons: Optional[int] = None,
                 workers: Optional[int] = None, depth: int = 2, split_factor: int = 4,
                 max_items: int = 0, max_tries: int = 3, timeout: float = 600.0,
                 revive_timeout: float = 120.0, tls_ca: Optional[str] = None):
        if depth < 1 or split_factor < 1 or max_tries < 1:
            raise ValueError("depth, split_factor and max_tries must be >= 1")
        self.depth, self.split_factor, self.max_items = depth, split_factor, max_items
        self.max_tries, self.timeout, self.revive_timeout = max_tries, timeout, revive_timeout
        self._owned_nodes: List = []
        self._closed = False
        self._batch_lock = threading.Lock()
        self._models: Dict[str, ClusterModel] = {}   # content key -> model
        self._paths: Dict[tuple, ClusterModel] = {}   # (path, mtime, size) -> model
        self.last_batch: dict = {}
        # tests' fault trigger: hook(event, daemon index, subset) with event "send" (the
        # subset is about to go to the daemon) or "result" (its result arrived)
        self._hook: Optional[Callable[[str, int, split.Subset], None]] = None
        if endpoints is not None:
            if nodes is not None:
                raise ValueError("give nodes= or endpoints=, not both")
            self._nodes = [None] * len(endpoints)
            eps = [dict(e) for e in endpoints]
        else:
            import ray
            from .node import start_nodes
            if not ray.is_initialized():
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            if nodes is None:
                nodes = start_nodes(num_daemons, workers=workers)
                self._owned_nodes = list(nodes)
            self._nodes = list(nodes)
            eps = ray.get([n.endpoint.remote() for n in self._nodes], timeout=revive_timeout)
        if not eps:
            raise ValueError("no daemons: give nodes, endpoints or a Ray cluster with nodes")
        self._daemons = [_Daemon(i, ep, node, depth, timeout, tls_ca)
                         for i, (ep, node) in enumerate(zip(eps, self._nodes))]

    # lifetime --------------------------------------------------------------------------
    def close(self) -> None:
        """Close the connections (and stop the node actors this dispatcher started)."""
        if self._closed:
            return
        self._closed = True
        for d in self._daemons:
            d.close()
        if self._owned_nodes:
            from .node import stop_nodes
            stop_nodes(self._owned_nodes)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise ClusterError("the dispatcher is closed")

    @property
    def daemons(self) -> List[dict]:
        """Each daemon's endpoint (without its token), workers and whether it is up."""
        return [{"host": d.endpoint.get("host"), "port": d.endpoint.get("port"),
                 "workers": d.workers, "up": d.up, "pid": d.endpoint.get("pid"),
                 "last_error": d.last_error} for d in self._daemons]

    @property
    def workers(self) -> int:
        """Worker threads over the daemons that are up."""
        return sum(d.workers for d in self._daemons if d.up)

    # models ----------------------------------------------------------------------------
    def load(self, xml: Optional[str] = None, path: Optional[str] = None,
             assets: Optional[Dict[str, bytes]] = None) -> ClusterModel:
        """A model by content: MJCF text, or a local file (with the files next to it that it
        references, as Client.load sends them). Loaded on each daemon on first use."""
        self._check_open()
        if (xml is None) == (path is None):
            raise ValueError("give exactly one of xml= and path=")
        name = ""
        if path is not None:
            with open(path, "r") as f:
                xml = f.read()
            assets = dict(_local_assets(path), **(assets or {}))
            name = os.path.basename(path)
        cm = ClusterModel(xml, assets or {}, name)
        cm = self._models.setdefault(cm.key, cm)
        if cm.info is None:
            self._describe(cm)
        return cm

    def model(self, model) -> ClusterModel:
        """A ClusterModel from a ClusterModel, MJCF text or a local path."""
        if isinstance(model, ClusterModel):
            return model
        if not isinstance(model, str):
            raise TypeError("model must be a torsion.cluster.ClusterModel, MJCF text or a path")
        if model.lstrip().startswith("<"):
            return self.load(xml=model)
        # a path: read again only when the file changed (its assets are not watched)
        try:
            st = os.stat(model)
            key = (os.path.abspath(model), st.st_mtime_ns, st.st_size)
        except OSError:
            key = None
        cm = self._paths.get(key) if key else None
        if cm is None:
            cm = self.load(path=model)
            if key:
                self._paths[key] = cm
        return cm

    def _describe(self, cm: ClusterModel) -> None:
        """Load cm on the first daemon that answers, for its sizes."""
        errors = []
        for d in self._live_daemons():
            try:
                cm.info = d.model(0, cm)[1]
                return
            except ServerError:
                raise
            except (ConnectionError, TimeoutError, OSError) as e:
                errors.append("%s: %s" % (d.label(), e))
                self._lose(d, e)
        raise ClusterError("no daemon could load the model: " + "; ".join(errors))

    # the operations --------------------------------------------------------------------
    def rollout(self, model, initial_state, control=None, *, control_spec: int = STATE_CTRL,
                nstep: Optional[int] = None, initial_warmstart=None, state=None,
                sensordata=None, chunk_size: Optional[int] = None):
        """torsion.Client.rollout (mujoco.rollout.rollout's arguments and shapes) over the
        daemons: (state [nroll, nstep, nstate], sensordata [nroll, nstep, nsensordata])."""
        op = self._rollout_op(model, initial_state, control, control_spec, nstep,
                              initial_warmstart, state, sensordata, chunk_size)
        return self._run(op)

    def transition_fd(self, model, state, ctrl=None, *, eps: float = 1e-6,
                      centered: bool = False, sensors: bool = False,
                      state_spec: int = STATE_FULLPHYSICS):
        """torsion.Client.transition_fd over the daemons: (A, B, C, D) per state."""
        return self._run(self._transition_fd_op(model, state, ctrl, eps, centered, sensors,
                                                state_spec))

    def inverse(self, model, state, qacc, *, state_spec: int = STATE_FULLPHYSICS):
        """torsion.Client.inverse over the daemons: qfrc_inverse [B, nv]."""
        return self._run(self._inverse_op(model, state, qacc, state_spec))

    def inverse_fd(self, model, state, qacc, *, eps: float = 1e-6, actuation: bool = False,
                   outputs: Optional[Sequence[str]] = None,
                   state_spec: int = STATE_FULLPHYSICS) -> Dict[str, np.ndarray]:
        """torsion.Client.inverse_fd over the daemons: {name: [B, nv, cols]}."""
        return self._run(self._inverse_fd_op(model, state, qacc, eps, actuation, outputs,
                                             state_spec))

    def stream(self, kind: str, model, *args, **kwargs) -> Iterator[Tuple[int, int, object]]:
        """Results subset by subset in batch order, as they complete: (lo, hi, result) where
        result is what the call `kind` ("rollout", "transition_fd", "inverse",
        "inverse_fd") returns for items [lo, hi)."""
        makers = {"rollout": self._rollout_op, "transition_fd": self._transition_fd_op,
                  "inverse": self._inverse_op, "inverse_fd": self._inverse_fd_op}
        if kind not in makers:
            raise ValueError("unknown operation %r (one of %s)" % (kind, ", ".join(makers)))
        import inspect
        sig = inspect.signature(getattr(self, kind))
        bound = sig.bind(model, *args, **kwargs)
        bound.apply_defaults()
        op = makers[kind](*bound.arguments.values())
        return self._iterate(op)

    # operation builders: check the inputs in the driver, then per-subset calls ----------
    def _rollout_op(self, model, initial_state, control, control_spec, nstep,
                    initial_warmstart, state, sensordata, chunk_size) -> _Op:
        cm = self._model_for_batch(model)
        m = cm.info
        control_spec = int(control_spec)
        if control_spec & ~STATE_USER:
            raise ValueError("control_spec can only contain bits in mjSTATE_USER")
        nfull = m.nstate_fullphysics
        init, ctrl, ws, state_user, sens_user, nroll, nstep = Client._rollout_shapes(
            m, initial_state, control, initial_warmstart, state, sensordata, nstep,
            m.state_size(control_spec), nfull)
        out_s = np.empty((nroll, nstep, nfull))
        out_d = np.empty((nroll, nstep, m.nsensordata))

        def run(client, hm, lo, hi):
            c = None if ctrl is None else (ctrl[lo:hi] if ctrl.shape[0] > 1 else ctrl)
            w = None if ws is None else ws[lo:hi]
            client.rollout(hm, init[lo:hi], c, control_spec=control_spec, nstep=nstep,
                           initial_warmstart=w, state=out_s[lo:hi], sensordata=out_d[lo:hi],
                           chunk_size=chunk_size)
            return out_s[lo:hi], out_d[lo:hi]

        def assemble(parts):
            s, d = out_s, out_d
            if state_user is not None:
                np.copyto(state_user, out_s.reshape(np.shape(state_user)))
                s = state_user
            if sens_user is not None:
                np.copyto(sens_user, out_d.reshape(np.shape(sens_user)))
                d = sens_user
            return s, d

        return _Op(cm, nroll if nstep else 0, run, assemble)

    def _transition_fd_op(self, model, state, ctrl, eps, centered, sensors, state_spec):
        cm = self._model_for_batch(model)
        m = cm.info
        s = check_states(m, state, state_spec)
        c = check_rows("ctrl", ctrl, s.shape[0], m.nu, True)

        def run(client, hm, lo, hi):
            cs = None if c is None else (c if c.shape[0] == 1 else c[lo:hi])
            return client.transition_fd(hm, s[lo:hi], cs, eps=eps, centered=centered,
                                        sensors=sensors, state_spec=state_spec)

        def assemble(parts):
            return tuple(None if parts[0][k] is None else
                         np.concatenate([p[k] for p in parts]) for k in range(4))

        return _Op(cm, s.shape[0], run, assemble)

    def _inverse_op(self, model, state, qacc, state_spec):
        cm = self._model_for_batch(model)
        m = cm.info
        s = check_states(m, state, state_spec)
        a = check_rows("qacc", qacc, s.shape[0], m.nv, False)
        if a is None:
            raise ValueError("qacc is required")

        def run(client, hm, lo, hi):
            return client.inverse(hm, s[lo:hi], a[lo:hi], state_spec=state_spec)

        return _Op(cm, s.shape[0], run, lambda parts: np.concatenate(parts))

    def _inverse_fd_op(self, model, state, qacc, eps, actuation, outputs, state_spec):
        cm = self._model_for_batch(model)
        m = cm.info
        s = check_states(m, state, state_spec)
        a = check_rows("qacc", qacc, s.shape[0], m.nv, False)
        if a is None:
            raise ValueError("qacc is required")
        for name in outputs or ():
            if name not in INVERSE_FD_OUTPUTS:
                raise ValueError("unknown inverse_fd output %r (one of %s)"
                                 % (name, ", ".join(INVERSE_FD_OUTPUTS)))
        outputs = list(outputs) if outputs else None

        def run(client, hm, lo, hi):
            return client.inverse_fd(hm, s[lo:hi], a[lo:hi], eps=eps, actuation=actuation,
                                     outputs=outputs, state_spec=state_spec)

        def assemble(parts):
            return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

        return _Op(cm, s.shape[0], run, assemble)

    # running a batch -------------------------------------------------------------------
    def _live_daemons(self) -> List[_Daemon]:
        live = [d for d in self._daemons if d.up]
        if not live:
            # every daemon is down: wait for the revivals under way
            for d in self._daemons:
                if d.reviver is not None:
                    d.reviver.join(self.revive_timeout)
            live = [d for d in self._daemons if d.up]
        if not live:
            raise ClusterError("no torsiond is reachable: " + "; ".join(
                "%s: %s" % (d.label(), d.last_error) for d in self._daemons))
        return live

    def _model_for_batch(self, model) -> ClusterModel:
        self._check_open()
        cm = self.model(model)
        if cm.info is None:
            self._describe(cm)
        return cm

    def _run(self, op: _Op):
        parts = [r for _, _, r in self._iterate(op, keep=True)]
        if op.n == 0:
            return op.assemble([])
        return op.assemble(parts)

    def _iterate(self, op: _Op, keep: bool = False) -> Iterator[Tuple[int, int, object]]:
        """Run op's batch on the live daemons; yield (lo, hi, result) in batch order."""
        self._check_open()
        if op.n == 0:
            return
        with self._batch_lock:
            live = self._live_daemons()
            runs = split.plan(op.n, [d.workers for d in live], self.split_factor,
                              self.max_items)
            subsets = sorted((s for r in runs for s in r), key=lambda s: s.index)
            q = split.WorkQueues(runs)
            cm = op.model
            t0 = time.perf_counter()
            threads = []
            per_daemon = {d.index: 0 for d in live}
            busy = {d.index: [0, 0.0, 0.0] for d in live}  # in flight, since, busy seconds

            def start(j, d):
                for k in range(self.depth):
                    t = threading.Thread(target=self._drive, args=(q, j, d, d.generation, k,
                                                                   op, cm, per_daemon, busy),
                                         name="torsion-cluster-%d-%d" % (d.index, k),
                                         daemon=True)
                    t.start()
                    threads.append(t)

            def poll():
                # a daemon revived during the batch takes work again; with every daemon
                # down and none being revived, the batch fails
                for j, d in enumerate(live):
                    if q.is_down(j) and d.up and not q.finished:
                        q.daemon_up(j)
                        start(j, d)
                if q.stuck() and not any(d.reviver is not None and d.reviver.is_alive()
                                         for d in live):
                    q.fail(ClusterError(
                        "every daemon failed during the batch, items are left undone: "
                        + "; ".join("%s: %s" % (d.label(), d.last_error) for d in live)))

            for j, d in enumerate(live):
                start(j, d)
            try:
                for s in subsets:
                    res = q.wait_for(s.index, poll)
                    yield s.lo, s.hi, res
                    if not keep:
                        q.done[s.index] = None
            finally:
                if not q.finished:
                    q.fail(ClusterError("the batch was abandoned"))
                for t in threads:
                    t.join()
                wall = time.perf_counter() - t0
                self.last_batch = {"items": op.n, "subsets": len(subsets), "seconds": wall,
                                   "steals": q.steals, "retries": q.retries,
                                   "items_per_daemon": per_daemon,
                                   "busy_seconds": {i: b[2] for i, b in busy.items()},
                                   "occupancy": sum(b[2] for b in busy.values())
                                   / max(1e-12, wall * len(live)),
                                   "daemons": [d.index for d in live]}

    def _drive(self, q: split.WorkQueues, j: int, d: _Daemon, gen: int, k: int, op: _Op,
               cm: ClusterModel, per_daemon: dict, busy: dict) -> None:
        """One connection's loop: take a subset, run it, hand in the result. gen: the
        daemon's endpoint generation this thread serves. busy[daemon] accumulates the
        seconds the daemon had at least one request in flight."""
        b = busy[d.index]

        def in_flight(delta):
            with d.lock:
                now = time.perf_counter()
                if b[0] > 0:
                    b[2] += now - b[1]
                b[0] += delta
                b[1] = now

        while True:
            s = q.take(j)
            if s is None:
                break
            hook = self._hook
            try:
                if hook is not None:
                    hook("send", d.index, s)
                for attempt in (0, 1):
                    try:
                        client, hm = d.model(k, cm)
                        in_flight(1)
                        try:
                            res = op.run(client, hm, s.lo, s.hi)
                        finally:
                            in_flight(-1)
                        break
                    except ConnectionError:
                        # a broken connection to a daemon that still accepts new ones
                        # (it closed this one as idle): once more on a fresh connection
                        if attempt == 0 and d.reconnect(k, gen):
                            continue
                        raise
            except ServerError as e:
                if e.name in _RETRY_ERRORS:
                    self._retry(q, j, d, gen, s, e)
                    break
                q.fail(e)
                break
            except (ConnectionError, TimeoutError, OSError) as e:
                self._retry(q, j, d, gen, s, e)
                break
            except BaseException as e:  # noqa: BLE001  (reported to the caller)
                q.fail(e)
                break
            with d.lock:
                per_daemon[d.index] = per_daemon.get(d.index, 0) + len(s)
            q.complete(s, res)
            if hook is not None:
                hook("result", d.index, s)
        q.wake()

    def _retry(self, q: split.WorkQueues, j: int, d: _Daemon, gen: int, s: split.Subset,
               e: BaseException) -> None:
        """s failed on d: d leaves the batch (its run goes to the others) and is revived in
        the background; s is retried elsewhere or, after max_tries, the batch fails. A
        thread of an endpoint already replaced only gives its subset back."""
        err = ClusterError("items [%d, %d) failed on %s (try %d of %d): %s"
                           % (s.lo, s.hi, d.label(), s.tries + 1, self.max_tries, e))
        err.subset = (s.lo, s.hi)
        current = self._lose(d, e, gen)
        q.give_back(s, j, self.max_tries, err)
        if current:
            q.daemon_down(j)

    def _lose(self, d: _Daemon, e: BaseException, gen: Optional[int] = None) -> bool:
        """Mark d down and, when it has a node actor, fetch its new endpoint in the
        background (Ray restarts a dead actor; a live actor restarts its daemon). False
        when gen is an endpoint generation already replaced (nothing done)."""
        with d.lock:
            if gen is not None and gen != d.generation:
                return False
            was_up = d.up
            d.up = False
        d.mark_down(str(e))
        if not was_up or d.node is None or self._closed:
            return True
        if d.reviver is not None and d.reviver.is_alive():
            return True

        def revive():
            import ray
            t_end = time.monotonic() + self.revive_timeout
            while True:
                # a call that reaches the dying actor fails: ask again until Ray has
                # restarted it or the time is up
                try:
                    ep = ray.get(d.node.endpoint.remote(),
                                 timeout=max(1.0, t_end - time.monotonic()))
                    break
                except Exception as why:  # noqa: BLE001  (the actor is gone for good)
                    if self._closed or time.monotonic() >= t_end:
                        d.last_error = "not revived: %s" % why
                        return
                    time.sleep(0.5)
            with d.lock:
                if not self._closed:
                    d._reset(ep)

        d.reviver = threading.Thread(target=revive, name="torsion-cluster-revive-%d" % d.index,
                                     daemon=True)
        d.reviver.start()
        return True
