"""torsion.session_batch — environments kept on torsiond: Session (the protocol's session
calls) and SessionBatch (the SimBatch contract of the Python package over a session, one
round trip per vector step).

A SessionStep carries everything one vector step of a trainer needs: the controls of the
addressed environments (env_ids), the environments to reset instead of stepping them
(reset_env_ids with client-drawn qpos/qvel: Gymnasium's next-step autoreset), and the
mjData fields to send back (readout). SessionBatch uses that to defer its resets into the
next step and to receive the fields of the next get() with the step itself.
"""
from __future__ import annotations

from typing import Dict, List, Sequence

import numpy as np

from . import _proto
from ._proto import PB, STATE_TIME, from_array, to_array


class StepResult:
    """What a session call returned: env_ids [k] (the addressed environments, in row
    order), states [k, nstate], sensordata [k, nsensordata] or None, warnings [k] (bitmask
    1 << mjtWarning, steps only) and readouts {name: [k, *field shape]}."""

    def __init__(self, res, env_ids, every: bool = False):
        self.states = from_array(res.states)
        self.sensordata = from_array(res.sensordata) if res.HasField("sensordata") else None
        self.warnings = np.array(res.warnings, dtype=np.uint32)
        # a call without env_ids is answered for every environment in order: the caller's
        # ids as they are
        self.env_ids = (np.array(res.env_ids, dtype=np.int64) if len(res.env_ids) and not every
                        else env_ids)
        self.readouts: Dict[str, np.ndarray] = {r.name: from_array(r.value)
                                                for r in res.readouts}

    def __repr__(self):
        return "<StepResult k=%d readouts=%s>" % (len(self.env_ids), list(self.readouts))


def _ids(name: str, ids, n: int) -> np.ndarray:
    """Environment ids as int64 [k], each in [0, n) and distinct (ValueError)."""
    a = np.asarray(ids)
    if a.dtype == bool:
        if a.shape != (n,):
            raise ValueError("%s as a mask must have %d entries" % (name, n))
        a = np.flatnonzero(a)
    a = a.astype(np.int64, copy=False).reshape(-1)
    if a.size and (a.min() < 0 or a.max() >= n):
        raise ValueError("%s must be in [0, %d), got %s" % (name, n, a))
    if len(np.unique(a)) != a.size:
        raise ValueError("%s has repeated ids: %s" % (name, a))
    return a


class Session:
    """nenv environments of one model on the daemon (client.session(...) creates it).

    Calls on a session run on the daemon in the order they were sent. The blocking methods
    below each make one round trip; send_step()/result() split a step into its request and
    its answer (pipelining; see AsyncSession)."""

    def __init__(self, client, model, nenv: int, *, keyframe: int = 0, reset_noise: float = 0.0,
                 seed: int = 0, state_spec: int = _proto.STATE_FULLPHYSICS,
                 sensordata: bool = False, float32: bool = False):
        if int(nenv) < 1:
            raise ValueError("nenv must be >= 1")
        self.client = client
        self.model = model
        self.nenv = int(nenv)
        self.state_spec = state_spec
        req = PB["CreateSessionRequest"](model=model.handle, nenv=self.nenv, keyframe=keyframe,
                                         reset_noise=reset_noise, seed=seed,
                                         state_spec=state_spec, sensordata=sensordata,
                                         output_dtype=1 if float32 else 0)
        res = client._call("create_session", req)[-1].create_session
        self.id = res.session
        self.initial_states = from_array(res.states)
        self.closed = False
        self._asked: Dict[int, tuple] = {}  # request id -> (readout names, addressed ids)
        self._all = np.arange(self.nenv, dtype=np.int64)  # the ids of an all-envs call
        self._all.flags.writeable = False

    def _step_request(self, ctrl=None, *, frame_skip: int = 1, env_ids=None,
                      readout: Sequence[str] = (), reset_env_ids=None, reset_qpos=None,
                      reset_qvel=None, rne_post_constraint: bool = False):
        """A checked SessionStepRequest and the addressed ids (ValueError before sending)."""
        m = self.model
        ids = self._all if env_ids is None else _ids("env_ids", env_ids, self.nenv)
        k = ids.size
        if k == 0:
            raise ValueError("env_ids is empty: address at least one environment")
        sr = PB["SessionStepRequest"](session=self.id, frame_skip=int(frame_skip))
        if env_ids is not None:
            sr.env_ids.extend(int(i) for i in ids)
        if ctrl is not None:
            c = np.ascontiguousarray(ctrl, dtype=np.float64)
            if c.shape != (k, m.nu):
                raise ValueError("ctrl must be [%d, %d] (one row per addressed env), got %s"
                                 % (k, m.nu, c.shape))
            to_array(c, sr.ctrl)
        if reset_env_ids is not None:
            r = _ids("reset_env_ids", reset_env_ids, self.nenv)
            if not np.isin(r, ids).all():
                raise ValueError("reset_env_ids must be among the addressed environments")
            sr.reset_env_ids.extend(int(i) for i in r)
            for name, a, ncol in (("reset_qpos", reset_qpos, m.nq),
                                  ("reset_qvel", reset_qvel, m.nv)):
                if a is None:
                    continue
                a = np.ascontiguousarray(a, dtype=np.float64)
                if a.shape != (r.size, ncol):
                    raise ValueError("%s must be [%d, %d], got %s" % (name, r.size, ncol, a.shape))
                to_array(a, getattr(sr, name))
        elif reset_qpos is not None or reset_qvel is not None:
            raise ValueError("reset_qpos/reset_qvel need reset_env_ids")
        sr.readout.extend(readout)
        sr.rne_post_constraint = bool(rne_post_constraint)
        return sr, ids

    def send_step(self, ctrl=None, **kw) -> int:
        """Send a SessionStep without waiting (arguments of step()); returns its request id
        for result()."""
        sr, ids = self._step_request(ctrl, **kw)
        with self.client._lock:
            req = self.client._new_request("session_step", sr)
            rid = self.client._send(req)
            self._asked[rid] = (list(sr.readout), ids)
            return rid

    def result(self, rid: int) -> StepResult:
        """The answer of a request sent with send_step (blocks until it arrived)."""
        names, ids = self._asked.pop(rid, ((), ()))
        res = StepResult(self.client._wait(rid)[-1].session_step, ids, ids is self._all)
        if list(res.readouts) != list(names) or len(res.env_ids) != len(ids):
            raise RuntimeError("the daemon answered without the asked readouts or environments: "
                               "it predates served stepping (readout, env_ids); upgrade torsiond")
        return res

    def step(self, ctrl=None, *, frame_skip: int = 1, env_ids=None,
             readout: Sequence[str] = (), reset_env_ids=None, reset_qpos=None,
             reset_qvel=None, rne_post_constraint: bool = False) -> StepResult:
        """Step the addressed environments (env_ids, default all) frame_skip times with
        their ctrl rows [k, nu] (None: keep their controls); the environments in
        reset_env_ids are instead reset (mj_resetData, qpos/qvel rows [r, nq]/[r, nv] when
        given, mj_forward). With rne_post_constraint, the stepped environments end with
        mj_rnePostConstraint (cacc, cfrc_int, cfrc_ext). Returns the states and the readout
        fields of the k environments."""
        return self.result(self.send_step(ctrl, frame_skip=frame_skip, env_ids=env_ids,
                                          readout=readout, reset_env_ids=reset_env_ids,
                                          reset_qpos=reset_qpos, reset_qvel=reset_qvel,
                                          rne_post_constraint=rne_post_constraint))

    def reset(self, mask=None) -> np.ndarray:
        """The daemon's own reset (keyframe + its noise) of the masked environments
        (None: all); returns every environment's state."""
        rr = PB["SessionResetRequest"](session=self.id)
        if mask is not None:
            rr.mask.extend(bool(x) for x in np.asarray(mask).reshape(-1))
        return from_array(self.client._call("session_reset", rr)[-1].session_reset.states)

    def get_state(self, spec: int = 0) -> np.ndarray:
        """Every environment's state [nenv, nstate(spec)] (0: the session's spec)."""
        g = PB["SessionGetStateRequest"](session=self.id, state_spec=spec)
        return from_array(self.client._call("session_get_state", g)[-1].session_get_state.states)

    def set_state(self, states, spec: int = 0) -> np.ndarray:
        """mj_setState of [nenv, nstate(spec)] onto every environment; returns the states."""
        s = PB["SessionSetStateRequest"](session=self.id, state_spec=spec)
        to_array(states, s.states)
        return from_array(self.client._call("session_set_state", s)[-1].session_set_state.states)

    def close(self) -> None:
        """Close the session on the daemon (idempotent)."""
        if not self.closed:
            self.closed = True
            self.client._call("close_session", PB["CloseSessionRequest"](session=self.id))


class SessionBatch:
    """The SimBatch contract over a daemon session: n environments of one model.

    readout: the mjData fields get() will be asked for; every step and reset asks the
    daemon for them, so a vector step is one round trip. reset() is deferred: its
    environments travel as in-step resets with the next step() (or are sent on the next
    get() / a step that addresses them). get() of a field not in readout raises KeyError."""

    def __init__(self, client, model, n: int, readout: Sequence[str] = ("qpos", "qvel"), *,
                 keyframe: int = -1):
        self.client = client
        self.model = client.model(model)
        self.n = int(n)
        self.readout: List[str] = list(dict.fromkeys(readout))
        # the session returns only time as its state: the readouts carry the rest
        self.session = client.session(self.model, self.n, keyframe=keyframe,
                                      state_spec=STATE_TIME)
        self._cache: Dict[str, np.ndarray] = {}
        self._pending: Dict[int, tuple] = {}  # env -> (qpos row, qvel row)
        self.round_trips = 0
        self._reset_all()

    def _reset_all(self):
        """Fill the cache: every environment reset to the model defaults."""
        m = self.model
        self.reset(np.arange(self.n), np.tile(m.qpos0, (self.n, 1)), np.zeros((self.n, m.nv)))
        self._flush()

    def _store(self, res: StepResult):
        """Keep the readouts of the environments a call returned (all of them: the arrays
        as they came)."""
        every = res.env_ids is self.session._all
        for name, val in res.readouts.items():
            if every and val.dtype == np.float64:
                self._cache[name] = val
                continue
            if name not in self._cache:
                self._cache[name] = np.zeros((self.n,) + val.shape[1:])
            self._cache[name][res.env_ids] = val

    def _send(self, ctrl, nstep, step_ids, rne_post_constraint=False):
        """One SessionStep: the pending resets plus the stepped environments (step_ids None:
        every environment, in order, and nothing pending)."""
        c, kw = ctrl, {}
        if step_ids is not None:
            reset_ids = np.array(sorted(self._pending), dtype=np.int64)
            rows = [self._pending[int(e)] for e in reset_ids]
            self._pending = {}
            kw["env_ids"] = ids = np.concatenate([step_ids, reset_ids])
            if ctrl is not None:
                c = np.zeros((ids.size, self.model.nu))
                c[:step_ids.size] = ctrl
            if reset_ids.size:
                kw.update(reset_env_ids=reset_ids, reset_qpos=np.array([r[0] for r in rows]),
                          reset_qvel=np.array([r[1] for r in rows]))
        res = self.session.step(c, frame_skip=nstep, readout=self.readout,
                                rne_post_constraint=rne_post_constraint, **kw)
        self.round_trips += 1
        self._store(res)
        return res

    def _flush(self):
        """Send the pending resets now (a step of no environment but them)."""
        if self._pending:
            self._send(None, 1, np.zeros(0, dtype=np.int64))

    def reset(self, env_ids, qpos, qvel) -> None:
        """Per listed environment: mj_resetData, qpos [k, nq], qvel [k, nv] (None: the
        model's qpos0, zeros), mj_forward (sent with the next step, or the next get)."""
        ids = _ids("env_ids", env_ids, self.n)
        m = self.model
        if ids.size == 0:
            return
        if qpos is None:
            qpos = np.tile(m.qpos0, (ids.size, 1))
        if qvel is None:
            qvel = np.zeros((ids.size, m.nv))
        qpos = np.ascontiguousarray(qpos, dtype=np.float64).reshape(ids.size, -1)
        qvel = np.ascontiguousarray(qvel, dtype=np.float64).reshape(ids.size, -1)
        if qpos.shape != (ids.size, m.nq) or qvel.shape != (ids.size, m.nv):
            raise ValueError("qpos must be [%d, %d] and qvel [%d, %d]"
                             % (ids.size, m.nq, ids.size, m.nv))
        for i, e in enumerate(ids):
            self._pending[int(e)] = (qpos[i].copy(), qvel[i].copy())

    def step(self, ctrl, nstep: int = 1, env_ids=None, rne_post_constraint: bool = False, *,
             reset_ids=None, reset_qpos=None, reset_qvel=None) -> None:
        """ctrl [k, nu]: set the controls, mj_step nstep times (then mj_rnePostConstraint when
        asked), for the listed environments (None: all); pending resets of other environments
        and those given here (reset_ids with their qpos/qvel rows, as reset() takes them)
        travel in the same request."""
        if reset_ids is not None:
            self.reset(reset_ids, reset_qpos, reset_qvel)
        ids = self.session._all if env_ids is None else _ids("env_ids", env_ids, self.n)
        ctrl = np.ascontiguousarray(ctrl, dtype=np.float64)
        if ctrl.shape != (ids.size, self.model.nu):
            raise ValueError("ctrl must be [%d, %d], got %s" % (ids.size, self.model.nu,
                                                                ctrl.shape))
        if nstep < 1:
            raise ValueError("nstep must be >= 1")
        if not self._pending and ids is self.session._all:
            self._send(ctrl, int(nstep), None, rne_post_constraint)  # every env, nothing pending
            return
        if any(int(e) in self._pending for e in ids):
            self._flush()  # a reset of a stepped environment comes first
        if ids.size == 0:
            self._flush()
            return
        self._send(ctrl, int(nstep), ids, rne_post_constraint)

    def set_readout(self, names: Sequence[str]) -> None:
        """The mjData fields every later request returns (and get serves); a field new to
        the list is available after the next step or reset of the environments."""
        self.readout = list(dict.fromkeys(names))
        self._cache = {k: v for k, v in self._cache.items() if k in self.readout}

    def get(self, names: Sequence[str], env_ids=None) -> Dict[str, np.ndarray]:
        """name -> [k, *field shape] copies of the environments' mjData fields (those given
        as readout at construction or by set_readout)."""
        self._flush()
        ids = slice(None) if env_ids is None else _ids("env_ids", env_ids, self.n)
        out = {}
        for name in names:
            if name not in self._cache:
                raise KeyError("%r is not a readout of this SessionBatch (readout=%s); add it "
                               "to readout= at construction" % (name, self.readout))
            out[name] = self._cache[name][ids].copy()
        return out

    def close(self) -> None:
        """Close the session."""
        self.session.close()
