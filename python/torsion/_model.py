"""torsion.MjModel: a compiled model with MuJoCo's Python interface — loading from MJCF
(from_xml_path, from_xml_string, with in-memory assets), every mjModel array as a writable
numpy view under its MuJoCo name and shape (m.body_mass (nbody,), m.key_qpos (nkey, nq)),
the integer sizes (m.nq ...), m.opt and m.stat, and named accessors (m.body('torso'))."""

import copy
import os
import shutil
import tempfile
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

import numpy as np

from . import _core
from ._structs import BOOL_FIELDS, BYTES_FIELDS, StructView, dtype_of
from ._views import ALIASES, GROUPS, ObjectView

__all__ = ["MjModel"]

# the extension's table of model arrays: (name, format, rows field, columns expression)
_FIELDS = _core.Model._fields()
_FIELD_INDEX = {row[0]: i for i, row in enumerate(_FIELDS)}
_SIZE_NAMES: List[str] = []


def _write_assets(root: str, assets: Mapping[str, bytes]) -> None:
    """Write each asset (name -> bytes; names may hold sub-directories) under root."""
    for name, content in assets.items():
        if not isinstance(name, str) or os.path.isabs(name) or ".." in name.split("/"):
            raise ValueError("asset name %r must be a relative path" % (name,))
        if isinstance(content, str):
            content = content.encode()
        if not isinstance(content, (bytes, bytearray, memoryview)):
            raise TypeError("asset %r must be bytes" % (name,))
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content)


def _link_directory(src: str, dst: str, assets: Mapping[str, bytes]) -> None:
    """Make the entries of src visible in dst (symbolic links), except names an asset
    takes (the asset wins, as MuJoCo's VFS does)."""
    taken = {name.split("/")[0] for name in assets}
    for entry in os.listdir(src):
        if entry not in taken:
            os.symlink(os.path.join(src, entry), os.path.join(dst, entry))


class MjModel(_core.Model):
    """A compiled model (mjModel). Build one with MjModel.from_xml_path or
    MjModel.from_xml_string."""

    @classmethod
    def from_xml_path(cls, filename: str, assets: Optional[Mapping[str, bytes]] = None
                      ) -> "MjModel":
        """Load and compile an MJCF file; `assets` (name -> bytes) override files of the
        same name next to the model. Raises ValueError with the engine's message."""
        filename = os.fspath(filename)
        if not assets:
            return cls._load_path(filename)
        with tempfile.TemporaryDirectory(prefix="torsion-assets-") as tmp:
            src = os.path.dirname(os.path.abspath(filename))
            _write_assets(tmp, assets)
            _link_directory(src, tmp, assets)
            staged = os.path.join(tmp, os.path.basename(filename))
            if os.path.basename(filename) in assets:
                return cls._load_path(staged)
            if not os.path.exists(staged):
                os.symlink(os.path.abspath(filename), staged)
            return cls._load_path(staged)

    @classmethod
    def from_xml_string(cls, xml: str, assets: Optional[Mapping[str, bytes]] = None
                        ) -> "MjModel":
        """Compile MJCF text; files it references are looked up among `assets`
        (name -> bytes). Raises ValueError with the engine's message."""
        if not isinstance(xml, str):
            raise TypeError("xml must be a str")
        if not assets:
            return cls._load_string(xml, None)
        with tempfile.TemporaryDirectory(prefix="torsion-assets-") as tmp:
            _write_assets(tmp, assets)
            return cls._load_string(xml, tmp)

    # ---- sizes, arrays and structs ----

    def _sizes_dict(self) -> Dict[str, int]:
        """The integer sizes, read once (a model's sizes never change)."""
        sizes = self.__dict__.get("_sz")
        if sizes is None:
            sizes = self._sizes()
            self.__dict__["_sz"] = sizes
        return sizes

    def _view(self, name: str) -> Any:
        """A numpy view of model array `name` (char arrays as bytes). Made on each access:
        the view holds the model, so a cache on the model would be a reference cycle the
        garbage collector cannot see through numpy's base references."""
        arr = np.asarray(self._array(_FIELD_INDEX[name]))
        if name in BOOL_FIELDS:
            return arr.view(np.bool_)
        if name in BYTES_FIELDS:
            return arr.tobytes()
        return arr

    @classmethod
    def _row_fields(cls) -> List[Tuple[str, str]]:
        """(array name, row-count field) of every model array, for the named accessors."""
        return [(row[0], row[2]) for row in _FIELDS]

    @property
    def opt(self) -> StructView:
        """Physics options (mjOption), read and written in place: m.opt.timestep."""
        return StructView(np.frombuffer(self._struct("opt"), dtype=dtype_of("mjOption")))

    @property
    def stat(self) -> StructView:
        """Model statistics (mjStatistic): m.stat.extent, m.stat.center."""
        return StructView(np.frombuffer(self._struct("stat"), dtype=dtype_of("mjStatistic")))

    def __copy__(self) -> "MjModel":
        return self._copy()

    def __deepcopy__(self, memo: Dict[int, Any]) -> "MjModel":
        return self._copy()

    def __repr__(self) -> str:
        return "<torsion.MjModel nq=%d nv=%d nu=%d nbody=%d>" % (
            self.nq, self.nv, self.nu, self.nbody)


def _array_property(name: str) -> property:
    """A property reading model array `name`, assignable elementwise (m.body_mass = x)."""
    def fget(self):
        return self._view(name)

    def fset(self, value):
        self._view(name)[...] = value
    return property(fget, fset, doc="mjModel.%s" % name)


def _size_property(name: str) -> property:
    """A read-only property for an integer size."""
    return property(lambda self: self._sizes_dict()[name], doc="mjModel.%s" % name)


def _accessor(group: str):
    """m.<group>(name_or_id) -> the object's rows in the model's arrays."""
    def method(self, key: Union[int, str] = 0):
        return ObjectView(self, self, group, key, is_data=False)
    method.__name__ = group
    method.__doc__ = "Named access to one %s's model fields (by name or id)." % group
    return method


for _row_def in _FIELDS:
    setattr(MjModel, _row_def[0], _array_property(_row_def[0]))
for _group in GROUPS:
    setattr(MjModel, _group, _accessor(_group))
for _alias, _group in ALIASES.items():
    setattr(MjModel, _alias, getattr(MjModel, _group))


def _install_sizes() -> None:
    """Size properties for every integer of mjModel (names from a throw-away model)."""
    probe = MjModel.from_xml_string("<mujoco/>")
    for name in probe._sizes():
        _SIZE_NAMES.append(name)
        setattr(MjModel, name, _size_property(name))


_install_sizes()
