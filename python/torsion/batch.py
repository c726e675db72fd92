"""torsion.batch.SimBatch: n environments of one model simulated in process, for RL
trainers. The loops over environments (reset, control and step, field reads) run in C over
OpenMP threads with the GIL released; Python is entered once per call, never per
environment or per step. The contract (shared with torsion.client.SessionBatch): every
array float64 and C-contiguous, env_ids a list/array of environment indices (None: all)."""

from typing import Dict, Iterable, Optional, Sequence

import numpy as np

from . import _core
from ._data import MjData, _FIXED, _FIXED_INDEX
from ._model import MjModel

__all__ = ["SimBatch"]

# field name -> (table index, MuJoCo row-count field, columns expression)
_GETTABLE = {row[0]: (i, row[2], row[3]) for i, row in enumerate(_FIXED)}


class SimBatch:
    """n independent simulations of `model`: SimBatch(model, n, nthread=None)."""

    def __init__(self, model: MjModel, n: int, nthread: Optional[int] = None):
        if not isinstance(model, _core.Model):
            raise TypeError("model must be a torsion.MjModel")
        if int(n) < 1:
            raise ValueError("n must be at least 1")
        if nthread is not None and int(nthread) < 1:
            raise ValueError("nthread must be at least 1")
        self.model = model
        self.n = int(n)
        self._batch = _core.Batch(model, self.n, int(nthread or 0))
        self.nthread = self._batch.nthread
        self._fields: Dict[str, tuple] = {}
        # readout: field name -> [n, ...] rows the C loops refresh after each env's work;
        # served by get() until a live data() view could have changed an env behind them
        self._readout: Dict[str, np.ndarray] = {}
        self._readout_live = False

    # ---- helpers ----

    def _ids(self, env_ids: Optional[Iterable[int]]) -> Optional[np.ndarray]:
        """env_ids as a C-contiguous int32 array (None stays None: every environment)."""
        if env_ids is None:
            return None
        ids = np.asarray(env_ids)
        if ids.ndim == 0:
            ids = ids.reshape(1)
        if ids.ndim != 1 or (ids.size and not np.issubdtype(ids.dtype, np.integer)):
            raise TypeError("env_ids must be a 1-D sequence of integers")
        if ids.size and (ids.min() < 0 or ids.max() >= self.n):
            bad = ids[(ids < 0) | (ids >= self.n)][0]
            raise KeyError("unknown env id %d (batch of %d)" % (bad, self.n))
        return np.ascontiguousarray(ids, dtype=np.int32)

    @staticmethod
    def _rows(x, k: int, width: int, what: str) -> Optional[np.ndarray]:
        """x as a C-contiguous float64 [k, width] array (None stays None)."""
        if x is None:
            return None
        arr = np.asarray(x)
        if arr.dtype.kind not in "fiu":
            raise TypeError("%s must be numeric" % what)
        arr = np.ascontiguousarray(arr, dtype=np.float64)
        if arr.shape != (k, width):
            if arr.size == k * width and arr.ndim <= 2 and (k == 1 or arr.ndim == 2):
                arr = arr.reshape(k, width)
            else:
                raise ValueError("%s must have shape (%d, %d), got %s"
                                 % (what, k, width, arr.shape))
        return arr

    def _count(self, ids: Optional[np.ndarray]) -> int:
        return self.n if ids is None else len(ids)

    # ---- the contract ----

    def reset(self, env_ids: Optional[Iterable[int]], qpos=None, qvel=None) -> None:
        """Per listed env: mj_resetData, then qpos [k, nq] and qvel [k, nv] when given,
        then mj_forward."""
        ids = self._ids(env_ids)
        k = self._count(ids)
        if k == 0:
            return
        self._batch._reset(ids, self._rows(qpos, k, self.model.nq, "qpos"),
                           self._rows(qvel, k, self.model.nv, "qvel"))

    def step(self, ctrl, nstep: int = 1, env_ids: Optional[Iterable[int]] = None,
             rne_post_constraint: bool = False, *, reset_ids: Optional[Iterable[int]] = None,
             reset_qpos=None, reset_qvel=None) -> None:
        """Set ctrl [k, nu] (None: keep the controls) and take nstep steps (then
        mj_rnePostConstraint: cacc, cfrc_int, cfrc_ext, when asked), for the listed
        envs (None: all). The envs reset_ids (none of the stepped ones) are reset in the
        same call, as reset(reset_ids, reset_qpos, reset_qvel) would, their work shared
        out over the threads beside the steps. An engine error raises torsion.FatalError
        naming the env (that env is reset; the others have stepped or been reset)."""
        ids = self._ids(env_ids)
        k = self._count(ids)
        if int(nstep) < 0:
            raise ValueError("nstep must be non-negative")
        resets = ()
        if reset_ids is not None:
            rids = self._ids(reset_ids)
            nr = len(rids)
            if nr:
                resets = (rids, self._rows(reset_qpos, nr, self.model.nq, "reset_qpos"),
                          self._rows(reset_qvel, nr, self.model.nv, "reset_qvel"))
        if k == 0 and not resets:
            return
        self._batch._step(self._rows(ctrl, k, self.model.nu, "ctrl"), int(nstep), ids,
                          bool(rne_post_constraint), *resets)

    def _meta(self, name: str) -> tuple:
        """(table index, MuJoCo shape, dtype) of a gettable field, computed once."""
        meta = self._fields.get(name)
        if meta is None:
            if name == "time":
                meta = (-1, (), np.dtype(np.float64))
            elif name in _GETTABLE:
                index = _GETTABLE[name][0]
                arr = np.asarray(self._batch._data(0, MjData)._array(index))
                meta = (index, arr.shape, arr.dtype)
            else:
                raise KeyError("unknown mjData field %r" % (name,))
            self._fields[name] = meta
        return meta

    def set_readout(self, names: Sequence[str]) -> None:
        """Fields that every later reset and step copies out of each environment as it
        finishes (on the worker thread that ran it), so get() of them costs one array copy.
        An empty list stops the readout. Optional: get() reads any field without it."""
        if isinstance(names, str):
            names = [names]
        names = list(dict.fromkeys(names))
        metas = [self._meta(name) for name in names]
        rows = {name: np.empty((self.n,) + shape, dtype=dtype)
                for name, (_, shape, dtype) in zip(names, metas)}
        self._batch._readout([meta[0] for meta in metas], list(rows.values()))
        self._readout = rows
        self._readout_live = True

    def get(self, names: Sequence[str], env_ids: Optional[Iterable[int]] = None
            ) -> Dict[str, np.ndarray]:
        """Copies of mjData fields by MuJoCo name: name -> array [k, *field shape]
        ("time" gives [k])."""
        if isinstance(names, str):
            names = [names]
        ids = self._ids(env_ids)
        rows = self._readout
        if self._readout_live and all(name in rows for name in names):
            if ids is None:
                return {name: rows[name].copy() for name in names}
            return {name: rows[name][ids] for name in names}
        k = self._count(ids)
        indices, outs, result = [], [], {}
        for name in names:
            index, shape, dtype = self._meta(name)
            out = np.empty((k,) + shape, dtype=dtype)
            indices.append(index)
            outs.append(out)
            result[name] = out
        if k:
            self._batch._get(indices, ids, outs)
        return result

    def data(self, env_id: int) -> MjData:
        """A live MjData view of one environment (reads and writes go to the batch). From
        then on get() reads the environments directly rather than the readout rows, which
        writes through the view would leave behind."""
        view = self._batch._data(int(env_id), MjData)
        self._readout_live = False
        return view

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return "<torsion.batch.SimBatch n=%d nthread=%d>" % (self.n, self.nthread)
