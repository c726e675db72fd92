"""Named accessors with MuJoCo's Python names: m.body('torso').mass, d.body('torso').xpos,
d.joint('hip').qpos, d.actuator(0).ctrl, d.sensor('touch').data ... Each accessor is a view
of one object's rows in the model's or data's arrays (writes go through)."""

from typing import Any, Dict, List, Tuple, Union

import numpy as np

from ._enums import mjtObj  # type: ignore[attr-defined]

__all__ = ["GROUPS", "ObjectView", "object_id"]

# accessor name -> (mjtObj, count field, model prefixes, data prefixes)
GROUPS: Dict[str, Tuple[int, str, Tuple[str, ...], Tuple[str, ...]]] = {
    "body": (mjtObj.mjOBJ_BODY, "nbody", ("body_",), ("body_",)),
    "joint": (mjtObj.mjOBJ_JOINT, "njnt", ("jnt_",), ("jnt_",)),
    "geom": (mjtObj.mjOBJ_GEOM, "ngeom", ("geom_",), ("geom_",)),
    "site": (mjtObj.mjOBJ_SITE, "nsite", ("site_",), ("site_",)),
    "camera": (mjtObj.mjOBJ_CAMERA, "ncam", ("cam_",), ("cam_",)),
    "light": (mjtObj.mjOBJ_LIGHT, "nlight", ("light_",), ("light_",)),
    "mesh": (mjtObj.mjOBJ_MESH, "nmesh", ("mesh_",), ()),
    "skin": (mjtObj.mjOBJ_SKIN, "nskin", ("skin_",), ()),
    "hfield": (mjtObj.mjOBJ_HFIELD, "nhfield", ("hfield_",), ()),
    "texture": (mjtObj.mjOBJ_TEXTURE, "ntex", ("tex_",), ()),
    "material": (mjtObj.mjOBJ_MATERIAL, "nmat", ("mat_",), ()),
    "pair": (mjtObj.mjOBJ_PAIR, "npair", ("pair_",), ()),
    "exclude": (mjtObj.mjOBJ_EXCLUDE, "nexclude", ("exclude_",), ()),
    "equality": (mjtObj.mjOBJ_EQUALITY, "neq", ("eq_",), ("eq_",)),
    "tendon": (mjtObj.mjOBJ_TENDON, "ntendon", ("tendon_", "ten_"), ("ten_",)),
    "actuator": (mjtObj.mjOBJ_ACTUATOR, "nu", ("actuator_",), ("actuator_",)),
    "sensor": (mjtObj.mjOBJ_SENSOR, "nsensor", ("sensor_",), ("sensor_",)),
    "numeric": (mjtObj.mjOBJ_NUMERIC, "nnumeric", ("numeric_",), ()),
    "text": (mjtObj.mjOBJ_TEXT, "ntext", ("text_",), ()),
    "tuple": (mjtObj.mjOBJ_TUPLE, "ntuple", ("tuple_",), ()),
    "key": (mjtObj.mjOBJ_KEY, "nkey", ("key_",), ()),
}
# MuJoCo's short aliases
ALIASES = {"jnt": "joint", "cam": "camera", "tex": "texture", "mat": "material",
           "eq": "equality", "keyframe": "key"}


def object_id(model: Any, group: str, key: Union[int, str]) -> Tuple[int, str]:
    """(id, name) of object `key` (a name or an index) of a group; KeyError/IndexError."""
    from . import _core
    objtype, count_field, _, _ = GROUPS[group]
    count = getattr(model, count_field)
    if isinstance(key, (int, np.integer)):
        i = int(key)
        if i < -count or i >= count:
            raise IndexError("%s index %d out of range [0, %d)" % (group, i, count))
        i %= count
        return i, _core.mj_id2name(model, objtype, i) or ""
    if not isinstance(key, str):
        raise TypeError("%s(): expected a name or an index, got %r" % (group, key))
    i = _core.mj_name2id(model, objtype, key)
    if i < 0:
        raise KeyError("Invalid name '%s'. Valid names: %s"
                       % (key, [_core.mj_id2name(model, objtype, j) for j in range(count)]))
    return i, key


def _rows(arr: np.ndarray, start: int, stop: int) -> np.ndarray:
    """Rows [start, stop) of an array as a view; a single row of a 2-D array drops its
    leading dimension, a vector keeps it (a 1-element array, as MuJoCo does)."""
    if arr.ndim == 2 and stop == start + 1:
        return arr[start]
    return arr[start:stop]


class ObjectView:
    """The rows of one object in a model's or data's arrays, by the field name without the
    group's prefix (m.body(1).mass is m.body_mass[1:2])."""

    def __init__(self, owner: Any, model: Any, group: str, key: Union[int, str],
                 is_data: bool):
        self.id, self.name = object_id(model, group, key)
        self._owner, self._model, self._group, self._is_data = owner, model, group, is_data
        self._fields = self._field_map()

    def _field_map(self) -> Dict[str, Tuple[str, int, int]]:
        """attribute -> (owner's field, first row, end row), computed once per accessor
        (plain tuples: no closures over self, so an accessor is freed by reference
        counting alone)."""
        _, count_field, mprefix, dprefix = GROUPS[self._group]
        prefixes = dprefix if self._is_data else mprefix
        table: List[Tuple[str, str]] = type(self._owner)._row_fields()
        out: Dict[str, Tuple[str, int, int]] = {}
        i = self.id
        for field, rows in table:
            if rows != count_field:
                continue
            attr = field
            for p in prefixes:
                if field.startswith(p):
                    attr = field[len(p):]
                    break
            out[attr] = (field, i, i + 1)
        m = self._model
        if self._group == "joint":
            self._joint_slices(out, m, i)
        if self._is_data and self._group == "sensor":
            adr, dim = int(m.sensor_adr[i]), int(m.sensor_dim[i])
            out["data"] = ("sensordata", adr, adr + dim)
        if self._is_data and self._group == "actuator":
            out.setdefault("ctrl", ("ctrl", i, i + 1))
            # the sparse row's bookkeeping is not an attribute (moment: see __getattr__)
            for attr in ("moment_rownnz", "moment_rowadr"):
                out.pop(attr, None)
        return out

    def _moment(self) -> np.ndarray:
        """The actuator's moment arms as a dense (nv,) row (a copy: actuator_moment holds
        MuJoCo's sparse rows, addressed by moment_rowadr/rownnz/colind)."""
        d, i = self._owner, self.id
        adr, nnz = int(d.moment_rowadr[i]), int(d.moment_rownnz[i])
        out = np.zeros(self._model.nv)
        out[d.moment_colind[adr:adr + nnz]] = d.actuator_moment[adr:adr + nnz]
        return out

    def _joint_slices(self, out: Dict[str, Tuple[str, int, int]], m: Any, i: int) -> None:
        """qpos-sized and dof-sized fields sliced at the joint's addresses."""
        width = {0: (7, 6), 1: (4, 3)}.get(int(m.jnt_type[i]), (1, 1))
        qadr, vadr = int(m.jnt_qposadr[i]), int(m.jnt_dofadr[i])
        for field, rows in type(self._owner)._row_fields():
            if rows == "nq":
                out[field] = (field, qadr, qadr + width[0])
            elif rows == "nv":
                name = field[4:] if field.startswith("dof_") else field
                out[name] = (field, vadr, vadr + width[1])

    def __getattr__(self, name: str) -> Any:
        fields = self.__dict__.get("_fields")
        if name == "moment" and fields is not None and self._is_data and \
                self._group == "actuator":
            return self._moment()
        if fields is None or name not in fields:
            raise AttributeError("%s view has no attribute %r" % (self._group, name))
        field, start, stop = fields[name]
        return _rows(getattr(self._owner, field), start, stop)

    def __setattr__(self, name: str, value: Any) -> None:
        fields = self.__dict__.get("_fields")
        if fields is not None and name in fields:
            field, start, stop = fields[name]
            _rows(getattr(self._owner, field), start, stop)[...] = value
        else:
            object.__setattr__(self, name, value)

    def __dir__(self):
        extra = ["moment"] if self._is_data and self._group == "actuator" else []
        return ["id", "name"] + sorted(list(self._fields) + extra)

    def __repr__(self) -> str:
        kind = "Data" if self._is_data else "Model"
        return "<_Mj%s%sViews id=%d name=%r>" % (kind, self._group.capitalize(), self.id,
                                                 self.name)
