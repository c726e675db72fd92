"""torsion.MjData: simulation data with MuJoCo's Python interface — every mjData array as a
writable numpy view under its MuJoCo name and shape (d.qpos (nq,), d.xmat (nbody, 9)), the
constraint arrays sized by the current nefc (d.efc_force), the contacts (d.contact.dist),
the scalar members (d.time, d.ncon, d.warning[...].number, d.solver_niter) and named
accessors (d.body('torso').xpos, d.joint('hip').qpos)."""

from typing import Any, Dict, List, Tuple, Union

import numpy as np

from . import _core
from ._structs import BOOL_FIELDS, StructList, _wrap, dtype_of, layout_rows
from ._views import ALIASES, GROUPS, ObjectView

__all__ = ["MjData"]

_FIXED, _EFC = _core.Data._fields()
_FIXED_INDEX = {row[0]: i for i, row in enumerate(_FIXED)}
_EFC_INDEX = {row[0]: i for i, row in enumerate(_EFC)}
_DATA_DTYPE = dtype_of("mjData")


class MjData(_core.Data):
    """Simulation data (mjData) for an MjModel: MjData(model)."""

    def __init__(self, model: Any):
        # the extension allocated the data in __new__
        pass

    @property
    def model(self) -> Any:
        """The MjModel this data was made for."""
        return self._model()

    def _view(self, name: str) -> np.ndarray:
        """A numpy view of fixed data array `name`, made on each access (a cache on the
        data would be a reference cycle through numpy's base references, never freed)."""
        arr = np.asarray(self._array(_FIXED_INDEX[name]))
        return arr.view(np.bool_) if name in BOOL_FIELDS else arr

    def _scalars(self) -> np.ndarray:
        """A 0-d structured view of the whole mjData struct (its scalar members)."""
        return np.frombuffer(self._struct(), dtype=_DATA_DTYPE).reshape(())

    @classmethod
    def _row_fields(cls) -> List[Tuple[str, str]]:
        """(array name, row-count field) of every fixed data array, for named accessors."""
        return [(row[0], row[2]) for row in _FIXED]

    @property
    def contact(self) -> StructList:
        """The ncon detected contacts (mjContact): d.contact.dist, d.contact[0].frame."""
        return StructList(np.frombuffer(self._contact(), dtype=dtype_of("mjContact")))

    def __copy__(self) -> "MjData":
        return self._copy()

    def __deepcopy__(self, memo: Dict[int, Any]) -> "MjData":
        return self._copy()

    def __repr__(self) -> str:
        return "<torsion.MjData time=%g ncon=%d nefc=%d>" % (self.time, self.ncon, self.nefc)


def _fixed_property(name: str) -> property:
    """A property reading fixed data array `name`; assignment copies into it."""
    def fget(self):
        return self._view(name)

    def fset(self, value):
        self._view(name)[...] = value
    return property(fget, fset, doc="mjData.%s" % name)


def _efc_property(index: int, name: str) -> property:
    """A property reading constraint array `name` at the current nefc (a fresh view)."""
    def fget(self):
        return np.asarray(self._efc(index))
    return property(fget, doc="mjData.%s (sized by nefc)" % name)


def _scalar_property(name: str) -> property:
    """A property for a scalar member of mjData (time, ncon, warning, energy ...)."""
    def fget(self):
        return _wrap(self._scalars()[name])

    def fset(self, value):
        self._scalars()[name] = value
    return property(fget, fset, doc="mjData.%s" % name)


def _accessor(group: str):
    """d.<group>(name_or_id) -> the object's rows in the data's arrays."""
    def method(self, key: Union[int, str] = 0):
        return ObjectView(self, self.model, group, key, is_data=True)
    method.__name__ = group
    method.__doc__ = "Named access to one %s's data fields (by name or id)." % group
    return method


for _row_def in _FIXED:
    setattr(MjData, _row_def[0], _fixed_property(_row_def[0]))
for _i, _row_def in enumerate(_EFC):
    setattr(MjData, _row_def[0], _efc_property(_i, _row_def[0]))
for _member in layout_rows("mjData"):
    # time and the row counts are the extension's own (faster) attributes
    if _member[0] not in ("time", "ncon", "ne", "nf", "nl", "nefc"):
        setattr(MjData, _member[0], _scalar_property(_member[0]))
for _group in GROUPS:
    if GROUPS[_group][3]:
        setattr(MjData, _group, _accessor(_group))
for _alias, _group in ALIASES.items():
    if hasattr(MjData, _group):
        setattr(MjData, _alias, getattr(MjData, _group))
