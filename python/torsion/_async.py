"""torsion._async — an EnvPool-style asynchronous API over a daemon session.

    pool = AsyncSession(client, model, n=64, readout=["qpos", "qvel"])
    pool.async_reset()                      # every environment reset, results pending
    while True:
        r = pool.recv()                     # r.env_ids, r.readouts, r.warnings
        actions = policy(r.readouts)
        pool.send(actions, r.env_ids)       # step those environments, do not wait

Semantics: every send() (and async_reset()) becomes one SessionStep request written to the
socket at once (pipelined; the call does not wait). The daemon runs a session's calls in
the order they arrive, so the results come back in send order: recv() returns the result
of the oldest request not yet received, blocking until it has arrived — the environments
of that send, whose steps have finished. Several sends may be outstanding; an environment
should be in at most one outstanding send (sending it again queues a second step after the
first: allowed, and then both results arrive in order). Resets requested with
send(..., reset_env_ids=..., reset_qpos=..., reset_qvel=...) travel inside the step.
"""
from __future__ import annotations

import collections
from typing import Sequence

import numpy as np

from .session_batch import StepResult


class AsyncSession:
    """n environments of a model on the daemon with send()/recv() (see the module doc)."""

    def __init__(self, client, model, n: int, readout: Sequence[str] = ("qpos", "qvel"), *,
                 frame_skip: int = 1, keyframe: int = -1, state_spec: int = 0x1):
        self.client = client
        self.model = client.model(model)
        self.n = int(n)
        self.readout = list(readout)
        self.frame_skip = int(frame_skip)
        self.session = client.session(self.model, self.n, keyframe=keyframe,
                                      state_spec=state_spec)
        self._inflight = collections.deque()  # request ids in send order

    def async_reset(self, env_ids=None, qpos=None, qvel=None) -> None:
        """Reset the listed environments (None: all) to qpos [k, nq] / qvel [k, nv] (None:
        the model defaults) without waiting; recv() returns their readouts."""
        ids = np.arange(self.n) if env_ids is None else np.asarray(env_ids, dtype=np.int64)
        rid = self.session.send_step(None, env_ids=ids, readout=self.readout,
                                     reset_env_ids=ids, reset_qpos=qpos, reset_qvel=qvel)
        self._inflight.append(rid)

    def send(self, actions, env_ids=None, *, reset_env_ids=None, reset_qpos=None,
             reset_qvel=None) -> None:
        """Step the listed environments (None: all) with actions [k, nu] frame_skip times,
        without waiting. Environments in reset_env_ids (a subset of env_ids) are reset
        instead (their action rows are ignored)."""
        ids = None if env_ids is None else np.asarray(env_ids, dtype=np.int64)
        rid = self.session.send_step(actions, frame_skip=self.frame_skip, env_ids=ids,
                                     readout=self.readout, reset_env_ids=reset_env_ids,
                                     reset_qpos=reset_qpos, reset_qvel=reset_qvel)
        self._inflight.append(rid)

    def pending(self) -> int:
        """Requests sent and not yet received."""
        return len(self._inflight)

    def recv(self) -> StepResult:
        """The result of the oldest outstanding send (blocks until it arrives): env_ids,
        readouts {name: [k, ...]}, warnings [k], states [k, 1] (time)."""
        if not self._inflight:
            raise RuntimeError("recv() without an outstanding send() or async_reset()")
        rid = self._inflight.popleft()
        return self.session.result(rid)

    def close(self) -> None:
        """Receive what is outstanding, then close the session."""
        while self._inflight:
            try:
                self.recv()
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        self.session.close()
