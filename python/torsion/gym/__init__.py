"""torsion.gym: Gymnasium MuJoCo v5 tasks as vector environments stepped by Torsion.

make_vec(env_id, num_envs, backend=...) returns a gymnasium.vector.VectorEnv equivalent to
gymnasium.make_vec(env_id, num_envs, vectorization_mode="sync"); make(env_id) returns one
environment as a gymnasium.Env.
"""

from .registry import TASKS, UnknownEnvError, batch_factory, make, make_vec
from .vector_env import TorsionVectorEnv

ENV_IDS = tuple(sorted(TASKS))

__all__ = ["ENV_IDS", "TASKS", "TorsionVectorEnv", "UnknownEnvError", "batch_factory", "make", "make_vec"]
