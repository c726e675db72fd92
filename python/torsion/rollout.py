"""torsion.rollout: open-loop rollouts with the interface and semantics of MuJoCo 3.14's
mujoco.rollout — rollout(model, data, initial_state, control, ...) and the Rollout context
manager. Each rollout starts from its initial state (mjSTATE_FULLPHYSICS layout), applies
its control rows (control_spec components) before each step and records the state and
sensordata after each; a rollout that raises a warning stops and repeats its last state.
The loop runs in C over len(data) threads (thread i uses data[i]) without the GIL."""

from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._enums import mjtState  # type: ignore[attr-defined]

__all__ = ["Rollout", "rollout", "shutdown_persistent_pool"]

_FULLPHYSICS = int(mjtState.mjSTATE_FULLPHYSICS)
_USER = int(mjtState.mjSTATE_USER)
# what a rollout without controls keeps from its data (as MuJoCo's: the controls only)
_HELD = int(mjtState.mjSTATE_CTRL)

ModelArg = Union[_core.Model, Sequence[_core.Model]]
DataArg = Union[_core.Data, Sequence[_core.Data]]


def _as_array(value, name: str, ndim: int) -> Optional[np.ndarray]:
    """A numeric argument as a C-contiguous float64 array with `ndim` dimensions, leading
    singleton dimensions added; None stays None."""
    if value is None:
        return None
    if not isinstance(value, (np.ndarray, float)):
        raise ValueError("%s must be a numpy array or float" % name)
    arr = np.asarray(value)
    if arr.ndim > ndim:
        raise ValueError("%s can have at most %d dimensions" % (name, ndim))
    arr = arr.reshape((1,) * (ndim - arr.ndim) + arr.shape)
    return np.ascontiguousarray(arr, dtype=np.float64)


def _common_size(axis: int, start: int, arrays: dict) -> int:
    """The size of `axis` shared by the given arrays, where a size of 1 broadcasts."""
    size = start
    for name, arr in arrays.items():
        if arr is None or arr.shape[axis] == size:
            continue
        if size == 1:
            size = arr.shape[axis]
        elif arr.shape[axis] != 1:
            raise ValueError("dimension %d inferred as %d but %s has %d"
                             % (axis, size, name, arr.shape[axis]))
    return size


def _expand(arr: Optional[np.ndarray], nbatch: int, nstep: Optional[int] = None
            ) -> Optional[np.ndarray]:
    """Repeat singleton leading dimensions to nbatch (and nstep)."""
    if arr is None:
        return None
    reps = [1] * arr.ndim
    if arr.shape[0] == 1:
        reps[0] = nbatch
    if nstep is not None and arr.shape[1] == 1:
        reps[1] = nstep
    return np.ascontiguousarray(np.tile(arr, reps)) if any(r != 1 for r in reps) else arr


class Rollout:
    """A rollout runner; `with Rollout(nthread=n) as r: r.rollout(...)`. Threads are the
    engine's OpenMP workers, so nthread only records the caller's intent (the thread count
    of a call is len(data))."""

    def __init__(self, *, nthread: Optional[int] = None):
        self.nthread = 0 if nthread is None else int(nthread)
        self._open = True

    def __enter__(self) -> "Rollout":
        return self

    def __exit__(self, exc_type, exc_val, exc_tb) -> None:
        self.close()

    def close(self) -> None:
        """Release the runner; later rollout calls raise RuntimeError."""
        self._open = False

    def rollout(self, model: ModelArg, data: DataArg, initial_state, control=None, *,
                control_spec: int = int(mjtState.mjSTATE_CTRL), skip_checks: bool = False,
                nstep: Optional[int] = None, initial_warmstart=None, state=None,
                sensordata=None, chunk_size: Optional[int] = None
                ) -> Tuple[np.ndarray, np.ndarray]:
        """Roll out nbatch open-loop trajectories (see mujoco.rollout.rollout): returns
        (state [nbatch, nstep, nstate], sensordata [nbatch, nstep, nsensordata])."""
        if not self._open:
            raise RuntimeError("rollout requested after thread pool shutdown")
        control_spec = int(control_spec)
        datas = list(data) if not isinstance(data, _core.Data) else [data]
        if skip_checks:
            models = list(model) if not isinstance(model, _core.Model) else [model]
            _core.rollout(models, datas, int(nstep or 0), control_spec, initial_state,
                          initial_warmstart, control, state, sensordata, int(chunk_size or 0))
            return state, sensordata

        if control_spec & ~_USER:
            raise ValueError("control_spec can only contain bits in mjSTATE_USER")
        if nstep is not None and not isinstance(nstep, (int, np.integer)):
            raise ValueError("nstep must be an integer")
        if chunk_size is not None and not isinstance(chunk_size, (int, np.integer)):
            raise ValueError("chunk_size must be an integer")
        initial_state = _as_array(initial_state, "initial_state", 2)
        initial_warmstart = _as_array(initial_warmstart, "initial_warmstart", 2)
        control = _as_array(control, "control", 3)
        state_in = _as_array(state, "state", 3) if state is not None else None
        sens_in = _as_array(sensordata, "sensordata", 3) if sensordata is not None else None
        if initial_state is None:
            raise ValueError("initial_state is required")

        # nbatch and nstep from the arrays (size-1 dimensions broadcast) and the model list
        models: List[_core.Model] = (
            [model] if isinstance(model, _core.Model) else list(model))
        if control is None:
            # as MuJoCo: without controls, the rollouts keep the controls the data holds
            # (here the first data's)
            control_spec = _HELD
            held = np.empty(_core.mj_stateSize(models[0], _HELD))
            _core.mj_getState(models[0], datas[0], held, _HELD)
            control = held.reshape(1, 1, -1)
        nbatch = _common_size(0, 1, dict(initial_state=initial_state,
                                         initial_warmstart=initial_warmstart,
                                         control=control, state=state_in, sensordata=sens_in))
        if len(models) > 1:
            if nbatch == 1:
                nbatch = len(models)
            elif len(models) != nbatch:
                raise ValueError("nbatch inferred as %d but model is length %d"
                                 % (nbatch, len(models)))
        nstep = _common_size(1, int(nstep or 1), dict(control=control, state=state_in,
                                                      sensordata=sens_in))

        # sizes must agree across models and with the arrays' trailing dimensions
        m0 = models[0]
        nstate = _core.mj_stateSize(m0, _FULLPHYSICS)
        ncontrol = _core.mj_stateSize(m0, control_spec)
        for m in models[1:]:
            if (_core.mj_stateSize(m, _FULLPHYSICS) != nstate or m.nv != m0.nv
                    or _core.mj_stateSize(m, control_spec) != ncontrol
                    or m.nsensordata != m0.nsensordata):
                raise ValueError("models are not compatible")
        for name, arr, width in (("initial_state", initial_state, nstate),
                                 ("state", state_in, nstate), ("control", control, ncontrol),
                                 ("initial_warmstart", initial_warmstart, m0.nv),
                                 ("sensordata", sens_in, m0.nsensordata)):
            if arr is not None and arr.shape[-1] != width:
                raise ValueError("trailing dimension of %s must be %d, got %d"
                                 % (name, width, arr.shape[-1]))

        # broadcast the inputs, allocate the outputs (the caller's arrays are written when
        # they are already float64 and C-contiguous with the full shape)
        models = models * nbatch if len(models) == 1 else models
        initial_state = _expand(initial_state, nbatch)
        initial_warmstart = _expand(initial_warmstart, nbatch)
        control = _expand(control, nbatch, nstep)
        out_state = state if (isinstance(state, np.ndarray) and state.dtype == np.float64
                              and state.flags.c_contiguous
                              and state.shape == (nbatch, nstep, nstate)) else None
        if out_state is None:
            out_state = np.empty((nbatch, nstep, nstate))
        nsens = m0.nsensordata
        out_sens = sensordata if (isinstance(sensordata, np.ndarray)
                                  and sensordata.dtype == np.float64
                                  and sensordata.flags.c_contiguous
                                  and sensordata.shape == (nbatch, nstep, nsens)) else None
        if out_sens is None:
            out_sens = np.empty((nbatch, nstep, nsens))

        _core.rollout(models, datas, nstep, control_spec, initial_state, initial_warmstart,
                      control, out_state, out_sens, int(chunk_size or 0))
        if state is not None and out_state is not state:
            np.copyto(state, out_state.reshape(np.shape(state)))
        if sensordata is not None and out_sens is not sensordata:
            np.copyto(sensordata, out_sens.reshape(np.shape(sensordata)))
        return out_state, out_sens


_persistent: Optional[Rollout] = None


def shutdown_persistent_pool() -> None:
    """Close the runner kept by rollout(..., persistent_pool=True)."""
    global _persistent
    if _persistent is not None:
        _persistent.close()
        _persistent = None


def rollout(model: ModelArg, data: DataArg, initial_state, control=None, *,
            control_spec: int = int(mjtState.mjSTATE_CTRL), skip_checks: bool = False,
            nstep: Optional[int] = None, initial_warmstart=None, state=None,
            sensordata=None, chunk_size: Optional[int] = None,
            persistent_pool: bool = False) -> Tuple[np.ndarray, np.ndarray]:
    """mujoco.rollout.rollout with Torsion: nbatch open-loop rollouts over len(data)
    threads. Returns (state, sensordata); raises ValueError on bad shapes and
    torsion.FatalError on an engine error."""
    global _persistent
    datas = list(data) if not isinstance(data, _core.Data) else [data]
    nthread = len(datas) if len(datas) > 1 else 0
    if persistent_pool:
        if _persistent is None or _persistent.nthread != nthread:
            shutdown_persistent_pool()
            _persistent = Rollout(nthread=nthread)
        runner = _persistent
    else:
        runner = Rollout(nthread=nthread)
    try:
        return runner.rollout(model, datas, initial_state, control,
                              control_spec=control_spec, skip_checks=skip_checks, nstep=nstep,
                              initial_warmstart=initial_warmstart, state=state,
                              sensordata=sensordata, chunk_size=chunk_size)
    finally:
        if not persistent_pool:
            runner.close()
