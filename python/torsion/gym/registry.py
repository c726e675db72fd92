"""Environment ids, batch backends and the factories make_vec and make of torsion.gym."""

from __future__ import annotations

import copy
from typing import Any, Callable

import gymnasium as gym
from gymnasium.vector import AutoresetMode

from .single_env import TorsionEnv
from .task import Task, resolve_xml_path
from .tasks_fixed import InvertedDoublePendulum, InvertedPendulum, Pusher, Reacher
from .tasks_planar import HalfCheetah, Hopper, Swimmer, Walker2d
from .tasks_spatial import Ant, Humanoid, HumanoidStandup
from .vector_env import TorsionVectorEnv

# Env id -> (task class, Gymnasium's default max_episode_steps for that id).
TASKS: dict[str, tuple[type[Task], int]] = {
    "Ant-v5": (Ant, 1000),
    "HalfCheetah-v5": (HalfCheetah, 1000),
    "Hopper-v5": (Hopper, 1000),
    "Humanoid-v5": (Humanoid, 1000),
    "HumanoidStandup-v5": (HumanoidStandup, 1000),
    "InvertedDoublePendulum-v5": (InvertedDoublePendulum, 1000),
    "InvertedPendulum-v5": (InvertedPendulum, 1000),
    "Pusher-v5": (Pusher, 100),
    "Reacher-v5": (Reacher, 50),
    "Swimmer-v5": (Swimmer, 1000),
    "Walker2d-v5": (Walker2d, 1000),
}

class UnknownEnvError(gym.error.UnregisteredEnv, ValueError):
    """An env id that torsion.gym does not provide (a ValueError and Gymnasium's error)."""


# A batch factory builds a SimBatch of num_envs environments of the model in xml_path.
BatchFactory = Callable[[str, int], Any]


def inprocess_batch(xml_path: str, num_envs: int) -> Any:
    """SimBatch stepped in this process by the compiled engine (torsion.batch)."""
    from torsion import MjModel
    from torsion.batch import SimBatch

    return SimBatch(MjModel.from_xml_path(xml_path), num_envs)


def daemon_batch_factory(socket: str | None, address: str | None,
                         token: str | None) -> BatchFactory:
    """Factory of SessionBatch objects served by a Torsion daemon (torsion.client)."""

    def make_batch(xml_path: str, num_envs: int) -> Any:
        from torsion.client import Client, SessionBatch

        client = Client(socket=socket, address=address, token=token)
        return SessionBatch(client, xml_path, num_envs)

    return make_batch


def batch_factory(backend: str | BatchFactory, socket: str | None = None,
                  address: str | None = None, token: str | None = None) -> BatchFactory:
    """The batch factory for ``backend``: "inprocess", "daemon" or a callable(xml, n)."""
    if callable(backend):
        return backend
    if backend == "inprocess":
        return inprocess_batch
    if backend == "daemon":
        if socket is None and address is None:
            raise ValueError('backend="daemon" needs socket= or address=')
        return daemon_batch_factory(socket, address, token)
    raise ValueError(f'unknown backend {backend!r}; expected "inprocess", "daemon" or a '
                     "callable(xml_path, num_envs) returning a SimBatch")


def _build(env_id: str, num_envs: int, backend: str | BatchFactory, socket, address, token,
           env_kwargs: dict[str, Any]):
    """Task, batch and time limit for ``env_id`` with ``env_kwargs``."""
    if env_id not in TASKS:
        raise UnknownEnvError(
            f"torsion.gym has no environment {env_id!r}; known ids: {', '.join(sorted(TASKS))}")
    if not isinstance(num_envs, int) or num_envs < 1:
        raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
    task_cls, default_steps = TASKS[env_id]
    kwargs = dict(env_kwargs)
    max_steps = kwargs.pop("max_episode_steps", default_steps)
    params = task_cls.split_kwargs(env_id, kwargs)
    xml_path = resolve_xml_path(params["xml_file"])
    batch = batch_factory(backend, socket, address, token)(xml_path, num_envs)
    if int(batch.n) != num_envs:
        raise ValueError(f"the batch has {batch.n} environments, expected {num_envs}")
    task = task_cls(batch.model, params)
    if hasattr(batch, "set_readout"):
        # a served batch returns with every request the fields the task reads
        batch.set_readout(tuple(dict.fromkeys(task.RESET_FIELDS + task.STEP_FIELDS)))
    return task, batch, max_steps


def make_vec(env_id: str, num_envs: int = 1, *, backend: str | BatchFactory = "inprocess",
             socket: str | None = None, address: str | None = None, token: str | None = None,
             autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
             **env_kwargs: Any) -> TorsionVectorEnv:
    """A vector environment of ``num_envs`` copies of a Gymnasium MuJoCo v5 task.

    ``env_kwargs`` are the task's keyword arguments (as for gymnasium.make, including
    max_episode_steps; None disables the time limit). ``backend`` picks where physics runs:
    "inprocess" (torsion.batch.SimBatch), "daemon" (torsion.client.SessionBatch at ``socket``
    or ``address`` with ``token``) or a callable(xml_path, num_envs) returning a SimBatch.
    """
    task, batch, max_steps = _build(env_id, num_envs, backend, socket, address, token,
                                    env_kwargs)
    env = TorsionVectorEnv(task, batch, max_steps, autoreset_mode=autoreset_mode,
                           env_id=env_id)
    env.spec = _vector_spec(env_id, num_envs, env_kwargs)
    return env


def _vector_spec(env_id: str, num_envs: int, env_kwargs: dict[str, Any]):
    """The registered "torsion/<env id>" spec with this call's arguments, or None."""
    full_id = f"torsion/{env_id}"
    if full_id not in gym.registry:
        return None
    spec = copy.deepcopy(gym.registry[full_id])
    spec.kwargs = dict(env_kwargs, num_envs=num_envs)
    return spec


def _vector_entry_point(env_id: str) -> Callable[..., TorsionVectorEnv]:
    """Creator for gymnasium.make_vec(..., vectorization_mode="vector_entry_point")."""

    def create(num_envs: int = 1, **kwargs: Any) -> TorsionVectorEnv:
        return make_vec(env_id, num_envs, **kwargs)

    return create


def _single_entry_point(env_id: str) -> Callable[..., gym.Env]:
    """Creator for gymnasium.make: the bare environment (gymnasium adds its wrappers)."""

    def create(*, backend: str | BatchFactory = "inprocess", socket: str | None = None,
               address: str | None = None, token: str | None = None,
               **kwargs: Any) -> TorsionEnv:
        task, batch, _ = _build(env_id, 1, backend, socket, address, token,
                                dict(kwargs, max_episode_steps=None))
        return TorsionEnv(task, batch, env_id=env_id)

    return create


def register_envs(namespace: str = "torsion") -> None:
    """Register every task in Gymnasium's registry as "<namespace>/<env id>".

    Afterwards gymnasium.make("torsion/Ant-v5") and gymnasium.make_vec("torsion/Ant-v5", n,
    vectorization_mode="vector_entry_point") build Torsion environments; keyword arguments
    (backend=..., task parameters) pass through. Ids already registered are left alone.
    """
    for env_id, (_, steps) in TASKS.items():
        full_id = f"{namespace}/{env_id}"
        if full_id in gym.registry:
            continue
        gym.register(id=full_id, entry_point=_single_entry_point(env_id),
                     vector_entry_point=_vector_entry_point(env_id), max_episode_steps=steps)


def make(env_id: str, *, backend: str | BatchFactory = "inprocess", socket: str | None = None,
         address: str | None = None, token: str | None = None, **env_kwargs: Any) -> gym.Env:
    """One environment of a task as a gymnasium.Env with Gymnasium's TimeLimit wrapper."""
    task, batch, max_steps = _build(env_id, 1, backend, socket, address, token, env_kwargs)
    env: gym.Env = gym.wrappers.OrderEnforcing(TorsionEnv(task, batch, env_id=env_id))
    if max_steps is not None:
        env = gym.wrappers.TimeLimit(env, max_episode_steps=max_steps)
    return env
