"""MuJoCo's enumerations (mjtObj, mjtState, mjtWarning, ...) and integer constants
(mjNREF, mjNWARNING, ...), read from the engine's header mjtnum.h, which holds them with
MuJoCo 3.14's names and values. The header is installed next to this module; in a source
tree it is found under engine/include/torsion/."""

import enum
import os
import re

__all__ = ["ENUMS", "CONSTANTS"]


def _header_text() -> str:
    """The text of mjtnum.h: the installed copy, else the source tree's."""
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.path.join(here, "mjtnum.h"),
                 os.path.join(here, "..", "..", "engine", "include", "torsion", "mjtnum.h")):
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as f:
                return f.read()
    raise ImportError("torsion: mjtnum.h not found next to torsion/_enums.py")


def _strip_comments(text: str) -> str:
    """Remove C block and line comments."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _evaluate(expr: str, known: dict) -> int:
    """Value of an enumerator's initializer: integers, names seen before, << | + - ( )."""
    if not re.fullmatch(r"[\w\s<>|+\-()]+", expr):
        raise ValueError("unsupported enumerator expression: %r" % expr)
    expr = " ".join(expr.split())
    return int(eval(expr, {"__builtins__": {}}, dict(known)))  # noqa: S307 (checked above)


def _parse(text: str):
    """Every `typedef enum X_ {...} X;` as {X: [(member, value), ...]}, and the numeric
    #defines as {name: value}."""
    text = _strip_comments(text)
    enums, known = {}, {}
    for body, name in re.findall(r"typedef\s+enum\s+\w+\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        members, value = [], -1
        for item in body.split(","):
            item = item.strip()
            if not item:
                continue
            if "=" in item:
                member, expr = (s.strip() for s in item.split("=", 1))
                value = _evaluate(expr, known)
            else:
                member, value = item, value + 1
            known[member] = value
            members.append((member, value))
        enums[name] = members
    consts = {}
    for name, value in re.findall(r"#define\s+(mj\w+)\s+([-+0-9.eE]+)\s*$", text, re.M):
        consts[name] = float(value) if re.search(r"[.eE]", value) else int(value)
    return enums, consts


_ENUM_SPECS, CONSTANTS = _parse(_header_text())

# one IntEnum per C enumeration, under its MuJoCo name (mujoco.mjtObj.mjOBJ_BODY ...)
ENUMS = {name: enum.IntEnum(name, members, module=__name__)
         for name, members in _ENUM_SPECS.items()}
globals().update(ENUMS)
globals().update(CONSTANTS)
__all__ += list(ENUMS) + list(CONSTANTS)
