"""bench/ratio_stats.py — the summary of interleaved timings the benchmarks report: each
engine's median time per step and the median and quartiles of the per-round ratios (MuJoCo
time / Torsion time), pooled over any number of measured states. numpy and the standard
library only, so that it imports under any MuJoCo version's venv (bench_crowd.py's MuJoCo 4
child).
"""
import statistics

import numpy as np


def summary(parts):
    """parts: (MuJoCo us/step per round, Torsion us/step per round, ratio per round) per
    state, as benchlib.interleave returns them. Returns the pooled medians and quartiles:
    {"mujoco_us", "torsion_us", "ratio", "q25", "q75"}."""
    t_mj = [t for part in parts for t in part[0]]
    t_tn = [t for part in parts for t in part[1]]
    ratios = [r for part in parts for r in part[2]]
    q = np.quantile(ratios, [0.25, 0.5, 0.75])
    return {"mujoco_us": statistics.median(t_mj), "torsion_us": statistics.median(t_tn),
            "ratio": float(q[1]), "q25": float(q[0]), "q75": float(q[2])}
