"""numpy views of the engine's small structs: dtypes built from the layouts torsion._core
reports (mjOption, mjStatistic, mjContact, mjWarningStat, mjTimerStat, mjSolverStat and the
scalar members of mjData), and two wrappers giving MuJoCo's attribute access over them:
StructView (one struct: m.opt.timestep) and StructList (an array of structs:
d.contact.dist, d.contact[0].pos, d.warning[mjWARN_BADQACC].number)."""

from typing import Any, Dict

import numpy as np

from . import _core

__all__ = ["dtype_of", "layout_rows", "StructView", "StructList", "BOOL_FIELDS",
           "BYTES_FIELDS"]

# mjtByte arrays that MuJoCo declares as mjtBool: its Python package shows them as bool
BOOL_FIELDS = frozenset([
    "jnt_limited", "jnt_actfrclimited", "jnt_actgravcomp", "light_castshadow",
    "light_active", "mat_texuniform", "eq_active0", "tendon_limited", "tendon_actfrclimited",
    "actuator_ctrllimited", "actuator_forcelimited", "actuator_actlimited",
    "actuator_actearly", "eq_active"])
# char arrays that MuJoCo's Python package returns as bytes
BYTES_FIELDS = frozenset(["names", "text_data", "paths"])

_BASE = {"d": np.dtype(np.float64), "i": np.dtype(np.int32), "Q": np.dtype(np.uint64),
         "q": np.dtype(np.int64)}
_DTYPES: Dict[str, np.dtype] = {}
_ROWS: Dict[str, list] = {}


def layout_rows(struct: str) -> list:
    """The (member, offset, kind, nbytes) rows of a struct, as the extension reports them."""
    if struct not in _ROWS:
        _ROWS[struct] = _core.layout(struct)[1]
    return _ROWS[struct]


def dtype_of(struct: str) -> np.dtype:
    """A structured dtype with the struct's members at their C offsets."""
    if struct in _DTYPES:
        return _DTYPES[struct]
    size, rows = _core.layout(struct)
    names, formats, offsets = [], [], []
    for name, offset, kind, nbytes in rows:
        base = _BASE[kind] if kind in _BASE else dtype_of(kind)
        count = nbytes // base.itemsize
        names.append(name)
        formats.append(base if count == 1 and kind in _BASE else (base, (count,)))
        offsets.append(offset)
    dt = np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": size})
    _DTYPES[struct] = dt
    return dt


def _wrap(value: np.ndarray) -> Any:
    """A member's value: nested struct arrays wrapped, scalars as Python numbers, arrays as
    writable views."""
    if value.dtype.names is not None:
        return StructList(value)
    if value.ndim == 0:
        return value.item()
    return value


class StructView:
    """One struct in engine memory; members read and write through (a 0-d structured view)."""

    __slots__ = ("_arr",)

    def __init__(self, arr: np.ndarray):
        object.__setattr__(self, "_arr", arr.reshape(()))

    def __getattr__(self, name: str) -> Any:
        arr = object.__getattribute__(self, "_arr")
        if name not in arr.dtype.names:
            raise AttributeError(name)
        return _wrap(arr[name])

    def __setattr__(self, name: str, value: Any) -> None:
        arr = object.__getattribute__(self, "_arr")
        if name not in arr.dtype.names:
            raise AttributeError(name)
        arr[name] = value

    def __dir__(self):
        return list(self._arr.dtype.names)

    def __repr__(self) -> str:
        fields = ", ".join("%s=%r" % (n, getattr(self, n)) for n in self._arr.dtype.names)
        return "<%s %s>" % (type(self).__name__, fields)


class StructList:
    """An array of structs in engine memory: member access gives an array over all of them
    (d.contact.dist), indexing gives one struct (d.contact[0]) or a sub-list (a slice)."""

    __slots__ = ("_arr",)

    def __init__(self, arr: np.ndarray):
        object.__setattr__(self, "_arr", arr)

    def __len__(self) -> int:
        return len(self._arr)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return StructList(self._arr[index])
        n = len(self._arr)
        i = int(index)
        if i < -n or i >= n:
            raise IndexError("index %d out of range for %d items" % (i, n))
        i %= n
        return StructView(self._arr[i:i + 1])

    def __iter__(self):
        for i in range(len(self._arr)):
            yield self[i]

    def __getattr__(self, name: str) -> Any:
        arr = object.__getattribute__(self, "_arr")
        if name not in arr.dtype.names:
            raise AttributeError(name)
        value = arr[name]
        return StructList(value) if value.dtype.names is not None else value

    def __setattr__(self, name: str, value: Any) -> None:
        arr = object.__getattribute__(self, "_arr")
        if name not in arr.dtype.names:
            raise AttributeError(name)
        arr[name] = value

    def __dir__(self):
        return list(self._arr.dtype.names)

    def __repr__(self) -> str:
        return "<%s of %d>" % (type(self).__name__, len(self._arr))
