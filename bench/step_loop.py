"""bench/step_loop.py — both engines' mj_step timed through one C loop (bench/step_loop.c,
built as build/bench/libbench_steps.so), for the benchmarks that compare them in one process.

Works with any MuJoCo version whose bindings expose the raw model and data addresses
(_address) and whose library exports mj_step.
"""
import ctypes
import os

import mujoco_clock

HERE = os.path.dirname(os.path.abspath(__file__))
STEP_LOOP_LIB = os.path.join(os.path.dirname(HERE), "build", "bench", "libbench_steps.so")


class StepLoop:
    """Both engines' mj_step called `n` times in a row by one C loop (bench/step_loop.c), so
    that the timings hold no per-step Python call: MuJoCo's bindings and ctypes each add a
    different few hundred nanoseconds per call, a sizeable and unequal share of a small
    model's step. mujoco(m, d, n) steps MuJoCo's model and data (objects of its bindings, this
    interpreter's MuJoCo); torsion(lib, tm, td, n) steps Torsion's (ctypes handles)."""

    def __init__(self, path=STEP_LOOP_LIB):
        if not os.path.exists(path):
            raise SystemExit("%s is missing: build the tree first (ninja -C build)" % path)
        self._loop = ctypes.CDLL(os.path.abspath(path)).bench_steps
        self._loop.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
        self._loop.restype = None
        self._mj_step = ctypes.cast(mujoco_clock.library().mj_step, ctypes.c_void_p).value

    def mujoco(self, m, d, n):
        self._loop(self._mj_step, m._address, d._address, n)

    def torsion(self, lib, tm, td, n):
        self._loop(ctypes.cast(lib.mj_step, ctypes.c_void_p).value, tm, td, n)
