"""Plot learning curves written by train_ppo.py (mean episode return against environment
steps), one line per result file, into a PNG.

    python plot_curves.py torsion.json mujoco.json --out curve.png
"""

from __future__ import annotations

import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", help="JSON files written by train_ppo.py --out")
    parser.add_argument("--out", required=True, help="PNG to write")
    args = parser.parse_args()
    fig, ax = plt.subplots(figsize=(6, 4))
    env = None
    for path in args.results:
        with open(path) as f:
            r = json.load(f)
        env = r["env"]
        steps = [c[0] for c in r["curve"]]
        returns = [c[1] for c in r["curve"]]
        label = "%s (eval %.0f, %.0f s)" % (r["backend"], r["eval_return"], r["train_seconds"])
        ax.plot(steps, returns, label=label)
    ax.set_xlabel("environment steps")
    ax.set_ylabel("mean return of the last 20 episodes")
    ax.set_title("PPO (Stable-Baselines3) on %s" % env)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)


if __name__ == "__main__":
    main()
