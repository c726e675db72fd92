#!/usr/bin/env python3
"""bench/bench_vec_envs.py — vectorized Gymnasium MuJoCo environments: env-steps per second
of Torsion (in process and served by torsiond) against Gymnasium's own vector envs on MuJoCo
(sync and async) and EnvPool, in one run on one machine.

For each task (default Humanoid-v5, HalfCheetah-v5) and number of environments (default 16,
64, 256), every backend is created once, reset, warmed up, and then timed for --steps
vector steps with uniform random actions (autoresets included, as in training), in rounds
that visit the backends in turn (the order rotating), so that the machine's drift spreads
over all of them; the result is each backend's median env-steps/s over --rounds rounds.

Backends (all use the machine's cores; per-core numbers divide by os.cpu_count()):
  torsion          torsion.gym.make_vec (SimBatch: C threads over the envs, no Python per env)
  torsion-daemon   torsion.gym.make_vec(backend="daemon"): a torsiond on a temporary socket,
                   one SessionStep round trip per vector step
  gym-sync         gymnasium.make_vec(vectorization_mode="sync") on MuJoCo
  gym-async        gymnasium.make_vec(vectorization_mode="async"): one process per env, so
                   only up to --async-max envs (256 processes would need ~20 GB)
  envpool          envpool.make(env_type="gymnasium", num_threads=cores,
                   thread_affinity_offset=0: its workers pinned), requirements-bench.txt

Physics alone: per task, Torsion's mj_step against MuJoCo's on the task's own states
(--physics-states states of a Gymnasium episode with uniform random actions, autoresets
included), both engines in this process as bench_interleaved.py times them (alternating
chunks of one env step, frame_skip mj_steps, --physics-rounds rounds per state): how much of
the ratio to EnvPool, which steps MuJoCo, the engine itself accounts for.

  .venv/bin/python bench/bench_vec_envs.py [--tasks Humanoid-v5,HalfCheetah-v5]
      [--envs 16,64,256] [--rounds 5] [--steps 0] [--physics-states 40]
      [--json bench/results/vec_envs.json] [--update-docs]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- bench_vec_envs:begin -->", "<!-- bench_vec_envs:end -->"
BACKENDS = ["torsion", "torsion-daemon", "gym-sync", "gym-async", "envpool"]


def start_daemon(workers: int):
    """A torsiond on a temporary Unix socket; returns (process, socket path, directory)."""
    exe = os.environ.get("TORSIOND", os.path.join(ROOT, "build", "server", "torsiond"))
    tmp = tempfile.mkdtemp(prefix="bench-vec-")
    sock = os.path.join(tmp, "torsiond.sock")
    proc = subprocess.Popen([exe, "--socket", sock, "--workers", str(workers),
                             "--log-level", "warn"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(sock):
            return proc, sock, tmp
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("torsiond did not start (%s)" % exe)


def make_env(backend: str, task: str, n: int, sock: str | None, cores: int):
    """The vector env of one backend, or None when it does not run at this size."""
    if backend == "torsion":
        import torsion.gym
        return torsion.gym.make_vec(task, n)
    if backend == "torsion-daemon":
        import torsion.gym
        return torsion.gym.make_vec(task, n, backend="daemon", socket=sock)
    if backend in ("gym-sync", "gym-async"):
        import gymnasium
        mode = "sync" if backend == "gym-sync" else "async"
        return gymnasium.make_vec(task, n, vectorization_mode=mode)
    if backend == "envpool":
        import envpool
        # workers pinned to cores 0..cores-1: EnvPool's fastest and steadiest setting here
        # (16 and 64 HalfCheetahs alone: 27-47k env-steps/s pinned, 17-44k round to round
        # unpinned)
        return envpool.make(task, env_type="gymnasium", num_envs=n, num_threads=cores,
                            seed=0, thread_affinity_offset=0)
    raise ValueError(backend)


def time_steps(env, actions: np.ndarray) -> float:
    """Seconds for len(actions) vector steps."""
    start = time.perf_counter()
    for a in actions:
        env.step(a)
    return time.perf_counter() - start


def bench_case(task: str, n: int, opts, sock: str | None, cores: int) -> dict:
    """Median env-steps/s of every backend for one task and size."""
    backends = [b for b in opts.backends if not (b == "gym-async" and n > opts.async_max)]
    envs = {}
    for b in backends:
        try:
            envs[b] = make_env(b, task, n, sock, cores)
            envs[b].reset(seed=0)
        except Exception as e:  # a backend that cannot run here is reported, not fatal
            print("  %s: cannot run: %s" % (b, str(e).splitlines()[0][:200]), flush=True)
    space = next(iter(envs.values())).action_space
    space.seed(0)
    steps = opts.steps or max(20, 20000 // n)
    rates = {b: [] for b in envs}
    for r in range(opts.rounds):
        order = list(envs)[r % len(envs):] + list(envs)[:r % len(envs)]
        for b in order:
            actions = np.stack([space.sample() for _ in range(steps)])
            time_steps(envs[b], actions[:5])  # warm up
            rates[b].append(n * steps / time_steps(envs[b], actions))
    for env in envs.values():
        env.close()
    out = {b: statistics.median(v) for b, v in rates.items()}
    print("  %-15s %4d envs: " % (task, n) + "  ".join(
        "%s %.0f" % (b, v) for b, v in out.items()), flush=True)
    return out


def physics_ratio(task: str, nstate: int, rounds: int) -> dict:
    """Torsion's mj_step against MuJoCo's on nstate states of one Gymnasium episode stream
    of the task (uniform random actions, reset when it ends; a state every 20 env steps):
    ratio_stats.summary of benchlib.interleave per state in chunks of frame_skip steps,
    plus the states' median and largest contact counts."""
    import gymnasium
    import mujoco
    import benchlib  # this script's directory (bench/) is on the path
    import ratio_stats

    env = gymnasium.make(task)
    env.reset(seed=0)
    env.action_space.seed(0)
    model, data = env.unwrapped.model, env.unwrapped.data
    spec = mujoco.mjtState.mjSTATE_INTEGRATION
    states, ncon = [], []
    for t in range(20 * nstate):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
        if t % 20 == 19:
            s = np.zeros(mujoco.mj_stateSize(model, spec))
            mujoco.mj_getState(model, data, s, spec)
            states.append(s)
            ncon.append(int(data.ncon))
    path, frame_skip = env.unwrapped.fullpath, int(env.unwrapped.frame_skip)
    env.close()

    # both engines on their own model and data, from each state in turn
    lib = benchlib.load_torsion()
    tm, td = benchlib.torsion_model(lib, path)
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    parts = [benchlib.interleave(lib, tm, td, m, d, s, spec, rounds, frame_skip)
             for s in states]
    lib.mj_deleteData(td)
    lib.mj_deleteModel(tm)
    out = ratio_stats.summary(parts)
    out.update(states=len(states), ncon_median=float(np.median(ncon)), ncon_max=max(ncon))
    print("  %-15s physics: MuJoCo %.1f us/step, Torsion %.1f us/step, ratio %.2f "
          "[%.2f, %.2f] over %d states (contacts: median %g, max %d)" % (
              task, out["mujoco_us"], out["torsion_us"], out["ratio"], out["q25"],
              out["q75"], len(states), out["ncon_median"], out["ncon_max"]), flush=True)
    return out


def write_plot(results: dict, path: str) -> None:
    """Bar chart of env-steps/s per backend, one panel per task."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    tasks = list(results["cases"])
    fig, axes = plt.subplots(1, len(tasks), figsize=(6 * len(tasks), 4), squeeze=False)
    for ax, task in zip(axes[0], tasks):
        sizes = list(results["cases"][task])
        width = 0.8 / len(BACKENDS)
        for k, b in enumerate(BACKENDS):
            ys = [results["cases"][task][s].get(b, 0) for s in sizes]
            ax.bar(np.arange(len(sizes)) + k * width, ys, width, label=b)
        ax.set_xticks(np.arange(len(sizes)) + 0.4 - width / 2)
        ax.set_xticklabels(["%s envs" % s for s in sizes])
        ax.set_ylabel("env-steps / s")
        ax.set_title(task)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def docs_table(results: dict) -> str:
    """The markdown table for docs/benchmarks.md."""
    cores = results["cores"]
    lines = ["| task | envs | " + " | ".join(BACKENDS) + " | Torsion / EnvPool |",
             "|---|---|" + "---|" * (len(BACKENDS) + 1)]
    for task, sizes in results["cases"].items():
        for n, row in sizes.items():
            cells = ["%.0f" % row[b] if b in row else "—" for b in BACKENDS]
            ratio = ("%.2fx" % (row["torsion"] / row["envpool"])
                     if "envpool" in row and "torsion" in row else "—")
            lines.append("| %s | %s | %s | %s |" % (task, n, " | ".join(cells), ratio))
    lines.append("")
    lines.append("env-steps/s, median of %d rounds; %d cores (per core: divide by %d); "
                 "%s; %s." % (results["rounds"], cores, cores, results["machine"],
                              results["date"]))
    physics = results.get("physics", {})
    if physics:
        lines.append("")
        lines.append("Physics alone, on each task's own states (Torsion's mj_step against "
                     "MuJoCo %s's, interleaved in one process, one env step a chunk): " % (
                         results.get("mujoco", "?")) + "; ".join(
            "%s %.2fx (quartiles %.2f-%.2f, %d states, contacts median %g)" % (
                task, p["ratio"], p["q25"], p["q75"], p["states"], p["ncon_median"])
            for task, p in physics.items()) + ".")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="Humanoid-v5,HalfCheetah-v5")
    parser.add_argument("--envs", default="16,64,256")
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=0, help="vector steps per timing "
                        "(default: 20000 / envs, at least 20)")
    parser.add_argument("--async-max", type=int, default=64)
    parser.add_argument("--physics-states", type=int, default=40,
                        help="states per task for the physics-alone ratio (0: skip it)")
    parser.add_argument("--physics-rounds", type=int, default=40)
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--update-docs", action="store_true",
                        help="write the table into docs/benchmarks.md and the plot into docs/img")
    opts = parser.parse_args()
    opts.backends = opts.backends.split(",")
    cores = os.cpu_count() or 1
    daemon = None
    sock = None
    if "torsion-daemon" in opts.backends:
        daemon, sock, tmp = start_daemon(cores)
    results = {"cores": cores, "rounds": opts.rounds, "date": time.strftime("%Y-%m-%d"),
               "machine": "%s, Python %s" % (platform.machine(), platform.python_version()),
               "cases": {}}
    if opts.physics_states > 0:
        import mujoco
        results["mujoco"] = mujoco.__version__
        results["physics"] = {task: physics_ratio(task, opts.physics_states,
                                                  opts.physics_rounds)
                              for task in opts.tasks.split(",")}
    try:
        for task in opts.tasks.split(","):
            results["cases"][task] = {}
            for n in [int(x) for x in opts.envs.split(",")]:
                results["cases"][task][str(n)] = bench_case(task, n, opts, sock, cores)
    finally:
        if daemon:
            daemon.send_signal(signal.SIGTERM)
            daemon.wait(timeout=60)
            shutil.rmtree(tmp, ignore_errors=True)
    print(docs_table(results))
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results, f, indent=1)
    if opts.update_docs:
        write_plot(results, os.path.join(ROOT, "docs", "img", "vec_envs.png"))
        path = os.path.join(ROOT, "docs", "benchmarks.md")
        text = open(path).read()
        block = BEGIN + "\n" + docs_table(results) + "\n\n![env-steps/s](img/vec_envs.png)\n" + END
        if BEGIN in text:
            text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
        else:
            text += "\n## Vector environments\n\n" + block + "\n"
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    sys.exit(main())
