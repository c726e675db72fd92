"""torsion.gym: Gymnasium MuJoCo v5 tasks as vector environments stepped by Torsion.

make_vec(env_id, num_envs, backend=...) returns a gymnasium.vector.VectorEnv equivalent to
gymnasium.make_vec(env_id, num_envs, vectorization_mode="sync"); make(env_id) returns one
environment as a gymnasium.Env. Importing the package also registers the tasks in
Gymnasium's registry as "torsion/<env id>".
"""

from .registry import TASKS, UnknownEnvError, batch_factory, make, make_vec, register_envs
from .vector_env import TorsionVectorEnv

ENV_IDS = tuple(sorted(TASKS))

# Gymnasium ids "torsion/Ant-v5" ... for gymnasium.make and gymnasium.make_vec.
register_envs()

__all__ = ["ENV_IDS", "TASKS", "TorsionVectorEnv", "UnknownEnvError", "batch_factory", "make",
           "make_vec", "register_envs"]
