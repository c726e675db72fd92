"""torsion._proto — the torsiond wire protocol for the Python client.

Message classes of `torsion.v1` are built at run time from the compiled descriptor set
(no generated code, no protoc at run time). The descriptor set is looked up, in order:
$TORSION_PROTO_DESC; `torsion.desc` shipped next to this file as package data; the build
tree ($TORSION_BUILD/proto/torsion.desc, default build/ under the source checkout).

Also: numpy <-> Array conversion, frame packing, error-code names and mjtState bits.
"""
from __future__ import annotations

import os
import struct
from typing import Optional

import numpy as np
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

# mjtState bits (MuJoCo 3.14 order)
STATE_TIME = 0x1
STATE_QPOS = 0x2
STATE_QVEL = 0x4
STATE_ACT = 0x8
STATE_HISTORY = 0x10
STATE_WARMSTART = 0x20
STATE_CTRL = 0x40
STATE_USER = 0x1FC0
STATE_PHYSICS = 0x1E
STATE_FULLPHYSICS = 0x201F
STATE_INTEGRATION = 0x3FFF
NSTATE = 14

# InverseFDRequest.outputs bits, in mjd_inverseFD's argument order
INVERSE_FD_OUTPUTS = ("DfDq", "DfDv", "DfDa", "DsDq", "DsDv", "DsDa", "DmDq")

_HERE = os.path.dirname(os.path.abspath(__file__))
_REPO = os.path.dirname(os.path.dirname(_HERE))  # python/torsion/.. /.. in a checkout


def descriptor_path() -> str:
    """Path of the FileDescriptorSet of proto/torsion.proto; FileNotFoundError if none."""
    candidates = []
    if os.environ.get("TORSION_PROTO_DESC"):
        candidates.append(os.environ["TORSION_PROTO_DESC"])
    candidates.append(os.path.join(_HERE, "torsion.desc"))
    build = os.environ.get("TORSION_BUILD", os.path.join(_REPO, "build"))
    candidates.append(os.path.join(build, "proto", "torsion.desc"))
    for path in candidates:
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(
        "torsion.desc (the protocol's descriptor set) not found; looked at: "
        + ", ".join(candidates) + " — build the repository or set TORSION_PROTO_DESC")


def _load_classes() -> dict:
    """name -> message class for every message of torsion.v1 (plus the ErrorCode enum)."""
    fds = descriptor_pb2.FileDescriptorSet()
    with open(descriptor_path(), "rb") as f:
        fds.ParseFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for fd in fds.file:
        pool.Add(fd)
    fd = pool.FindFileByName("torsion.proto")
    out = {name: message_factory.GetMessageClass(d)
           for name, d in fd.message_types_by_name.items()}
    out["ErrorCode"] = fd.enum_types_by_name["ErrorCode"]
    return out


PB = _load_classes()


def error_name(code: int) -> str:
    """The ErrorCode name of a numeric code ('ERROR_BAD_SHAPE'), or the number as text."""
    v = PB["ErrorCode"].values_by_number.get(code)
    return v.name if v is not None else str(code)


def error_code(name: str) -> int:
    """The numeric value of an ErrorCode name such as 'ERROR_BAD_SHAPE'."""
    return PB["ErrorCode"].values_by_name[name].number


def to_array(a, msg=None):
    """A numpy array (any float dtype) -> Array message of float64 (filled into msg)."""
    a = np.ascontiguousarray(a, dtype="<f8")
    m = msg if msg is not None else PB["Array"]()
    m.shape.extend(a.shape)
    m.dtype = 0
    m.data = a.tobytes()
    return m


def from_array(m) -> np.ndarray:
    """Array message -> a new writable numpy array (float64 or float32)."""
    dt = "<f4" if m.dtype == 1 else "<f8"
    return np.frombuffer(m.data, dtype=dt).reshape(tuple(m.shape)).copy()


def pack(req) -> bytes:
    """One frame: 4-byte big-endian length, then the serialized Request."""
    body = req.SerializeToString()
    return struct.pack(">I", len(body)) + body


def state_layout(sizes, spec: int) -> dict:
    """bit -> (offset, size) of each component present in a state of this spec, given
    ModelInfo.state_component_sizes (components are stored in bit order)."""
    out, off = {}, 0
    for i in range(NSTATE):
        if spec & (1 << i):
            out[1 << i] = (off, int(sizes[i]))
            off += int(sizes[i])
    return out


def state_size(sizes, spec: int) -> int:
    """mj_stateSize of a spec from ModelInfo.state_component_sizes."""
    return sum(int(sizes[i]) for i in range(NSTATE) if spec & (1 << i))


def optional_f64(name: str, a, ndim: int) -> Optional[np.ndarray]:
    """None, or `a` as a C-contiguous float64 array of exactly ndim dimensions (ValueError)."""
    if a is None:
        return None
    a = np.ascontiguousarray(a, dtype=np.float64)
    if a.ndim != ndim:
        raise ValueError("%s must have %d dimensions, got shape %s" % (name, ndim, a.shape))
    return a
