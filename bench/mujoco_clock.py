"""bench/mujoco_clock.py — MuJoCo's stage timers off while the benchmarks time it.

MuJoCo's Python bindings install a clock (mjcb_time) when they make an MjData, so every
mj_step they run also reads the clock around each pipeline stage; Torsion's library, loaded
through ctypes, has no clock installed. The benchmarks compare the engines, not their
profiling, so they remove MuJoCo's clock before timing (its bindings install it again when
they next make an MjData: call this after making datas). Works with any MuJoCo version whose
library exports mjcb_time.
"""
import ctypes
import glob
import os

import mujoco


def library():
    """MuJoCo's shared library, already loaded by its bindings (ctypes handle)."""
    found = sorted(glob.glob(os.path.join(os.path.dirname(mujoco.__file__), "libmujoco.so*")))
    if not found:
        raise RuntimeError("MuJoCo's shared library not found next to %s" % mujoco.__file__)
    return ctypes.CDLL(found[-1])


_LIB = None


def timers_off():
    """Remove MuJoCo's clock: mj_step runs without its stage timers."""
    global _LIB
    if _LIB is None:
        _LIB = library()
    ctypes.c_void_p.in_dll(_LIB, "mjcb_time").value = None


def timers_on():
    """1 when MuJoCo's clock is installed (stage timers run)."""
    global _LIB
    if _LIB is None:
        _LIB = library()
    return int(ctypes.c_void_p.in_dll(_LIB, "mjcb_time").value is not None)
