"""Train a PPO policy (Stable-Baselines3) on a Gymnasium MuJoCo task, on Torsion or MuJoCo.

The same run - algorithm, hyperparameters, seed, number of environments - on either
simulator, so their learning curves can be laid side by side:

    python train_ppo.py --env InvertedPendulum-v5 --backend torsion --out torsion.json
    python train_ppo.py --env InvertedPendulum-v5 --backend mujoco --out mujoco.json
    python plot_curves.py torsion.json mujoco.json --out curve.png

--backend torsion trains on torsion.gym.make_vec (in process, or --daemon SOCKET for a
torsiond session); --backend mujoco on gymnasium.make_vec with MuJoCo. The output JSON holds
the learning curve (mean return of the last episodes against environment steps), the final
deterministic evaluation and the wall time.
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics
from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback

from vec_adapter import GymnasiumVecEnv

# PPO settings per task: small networks and short rollouts for the pendulum (it converges in
# a few tens of thousands of steps), the Stable-Baselines3 defaults otherwise
HYPERPARAMS = {
    "InvertedPendulum-v5": dict(n_steps=256, batch_size=256, n_epochs=10, learning_rate=1e-3,
                                gamma=0.99, gae_lambda=0.95, clip_range=0.2,
                                policy_kwargs=dict(net_arch=[64, 64])),
    "HalfCheetah-v5": dict(n_steps=512, batch_size=64, n_epochs=10, learning_rate=3e-4,
                           gamma=0.99, gae_lambda=0.95, clip_range=0.2),
}


def make_vector_env(env_id: str, num_envs: int, backend: str, daemon: str | None):
    """The task's vector env (SAME_STEP autoreset, episode statistics recorded)."""
    if backend == "torsion":
        import torsion.gym
        kwargs = {"backend": "daemon", "socket": daemon} if daemon else {}
        venv = torsion.gym.make_vec(env_id, num_envs, autoreset_mode=AutoresetMode.SAME_STEP,
                                    **kwargs)
    elif backend == "mujoco":
        venv = gym.make_vec(env_id, num_envs, vectorization_mode="sync",
                            vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    else:
        raise ValueError("unknown backend %r (torsion or mujoco)" % backend)
    return RecordEpisodeStatistics(venv)


class CurveLogger(BaseCallback):
    """Records (environment steps, mean return of the last 20 episodes) after each rollout."""

    def __init__(self):
        super().__init__()
        self.curve: list[tuple[int, float]] = []

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        buf = self.model.ep_info_buffer
        if buf:
            returns = [e["r"] for e in list(buf)[-20:]]
            self.curve.append((int(self.num_timesteps), float(np.mean(returns))))


def evaluate(model: PPO, env_id: str, backend: str, daemon: str | None, episodes: int,
             seed: int) -> float:
    """Mean return of the deterministic policy over `episodes` full episodes."""
    venv = make_vector_env(env_id, episodes, backend, daemon)
    obs, _ = venv.reset(seed=seed + 1000)
    total = np.zeros(episodes)
    alive = np.ones(episodes, dtype=bool)
    while alive.any():
        action, _ = model.predict(obs, deterministic=True)
        obs, reward, terminated, truncated, _ = venv.step(action)
        total += np.where(alive, reward, 0.0)
        alive &= ~(terminated | truncated)
    venv.close()
    return float(total.mean())


def train(env_id: str, backend: str, timesteps: int, num_envs: int = 8, seed: int = 0,
          daemon: str | None = None, eval_episodes: int = 8) -> dict:
    """One training run; returns the curve, the final evaluation and the wall time."""
    start = time.perf_counter()
    env = GymnasiumVecEnv(make_vector_env(env_id, num_envs, backend, daemon), seed=seed)
    logger = CurveLogger()
    model = PPO("MlpPolicy", env, seed=seed, device="cpu", verbose=0,
                **HYPERPARAMS.get(env_id, {}))
    model.learn(total_timesteps=timesteps, callback=logger)
    train_time = time.perf_counter() - start
    result = {
        "env": env_id, "backend": backend, "timesteps": timesteps, "num_envs": num_envs,
        "seed": seed, "curve": logger.curve, "train_seconds": train_time,
        "eval_return": evaluate(model, env_id, backend, daemon, eval_episodes, seed),
    }
    env.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="InvertedPendulum-v5")
    parser.add_argument("--backend", choices=["torsion", "mujoco"], default="torsion")
    parser.add_argument("--daemon", help="torsiond socket (torsion backend through a session)")
    parser.add_argument("--timesteps", type=int, default=60_000)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="write the result as JSON here")
    args = parser.parse_args()
    result = train(args.env, args.backend, args.timesteps, args.num_envs, args.seed,
                   args.daemon)
    print("%s on %s: eval return %.1f after %d steps (%.0f s)" % (
        args.env, args.backend, result["eval_return"], args.timesteps, result["train_seconds"]))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
