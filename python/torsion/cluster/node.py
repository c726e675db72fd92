"""torsion.cluster.node — the Ray actor that runs one torsiond on its node, and start_nodes()
that places one such actor per Ray node (or a given number of them).

The actor starts torsiond on a free TCP port of its node's IP with a generated token and
`workers` worker threads (default: the node's CPUs), and answers endpoint() with what a
client needs. Ray restarts a dead actor (max_restarts=-1): the new one starts a new daemon
on a new port with a new token, and endpoint() returns that. If only the daemon died, the
next endpoint() call starts a new one. The daemon dies with its actor (PR_SET_PDEATHSIG)."""
from __future__ import annotations

import os
import signal
from typing import List, Optional, Sequence

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from .daemon import LocalDaemon


class TorsiondNode:
    """One torsiond on this node (use through ray.remote: see start_nodes).

    workers: the daemon's worker threads (None: the CPUs Ray gave this actor, else the
    node's); host: the address clients reach it on (None: this node's IP, as Ray sees it);
    bind: its listen address (None: host); port: its TCP port (0: a free one, new after each
    restart); config: a torsiond.conf on the node; settings: more daemon options as flags
    ({"max_batch": 4096, "tls_cert": "/etc/torsion/node.pem", "tls_key": ...})."""

    def __init__(self, workers: Optional[int] = None, host: Optional[str] = None,
                 bind: Optional[str] = None, port: int = 0, config: Optional[str] = None,
                 settings: Optional[dict] = None):
        from .daemon import argv_flags
        if workers is None:
            ids = ray.get_runtime_context().get_assigned_resources()
            workers = int(ids.get("CPU", 0)) or None
        self._args = dict(workers=workers, host=host or ray.util.get_node_ip_address(),
                          bind=bind, port=port, config=config,
                          extra_args=argv_flags(settings or {}))
        self._generation = 0
        self._daemon = self._start()

    def _start(self) -> LocalDaemon:
        self._generation += 1
        return LocalDaemon(**self._args)

    def endpoint(self) -> dict:
        """{host, port, token, workers, pid, node_id, actor_pid, generation}; restarts the
        daemon first if it is no longer running."""
        if not self._daemon.alive():
            self._daemon.stop()
            self._daemon = self._start()
        ep = self._daemon.endpoint()
        ctx = ray.get_runtime_context()
        ep.update(node_id=ctx.get_node_id(), actor_pid=os.getpid(),
                  generation=self._generation,
                  restarted=bool(ctx.was_current_actor_reconstructed))
        return ep

    def alive(self) -> bool:
        """The daemon process runs."""
        return self._daemon.alive()

    def log(self) -> str:
        """The daemon's log so far."""
        return self._daemon.read_log()

    def kill_daemon(self, sig: int = int(signal.SIGKILL)) -> None:
        """Kill the daemon (fault tests); the next endpoint() starts a new one."""
        self._daemon.kill(sig)

    def stop(self) -> int:
        """Stop the daemon (SIGTERM, it drains); its exit code."""
        return self._daemon.stop()


def _remote_class(max_restarts: int):
    return ray.remote(max_restarts=max_restarts, max_task_retries=0)(TorsiondNode)


def start_nodes(num_daemons: Optional[int] = None, *, workers: Optional[int] = None,
                host: Optional[str] = None, bind: Optional[str] = None, port: int = 0,
                config: Optional[str] = None, settings: Optional[dict] = None,
                max_restarts: int = -1, name_prefix: Optional[str] = None) -> List:
    """Start torsiond node actors on the connected Ray cluster; their handles.

    num_daemons=None: one per alive Ray node that offers CPUs, pinned to it, each with
    `workers` threads (None: the node's CPUs, which the actor reserves from Ray). A number: that many actors
    with `workers` threads each (default 1), placed by Ray (spread over the nodes).
    host/bind/port/config/settings go to each TorsiondNode (a fixed port: one daemon per
    node); name_prefix names the actors
    (prefix-0, prefix-1, ...) so other drivers can find them with ray.get_actor."""
    if not ray.is_initialized():
        raise RuntimeError("ray is not initialized: call ray.init(...) first")
    cls = _remote_class(max_restarts)
    actors = []
    if num_daemons is None:
        # nodes that offer no CPU to Ray (a head started with --num-cpus=0) get no daemon
        nodes = [n for n in ray.nodes()
                 if n.get("Alive") and int(n.get("Resources", {}).get("CPU", 0)) > 0]
        for i, n in enumerate(nodes):
            cpus = int(n["Resources"]["CPU"])
            w = workers or cpus
            opts = dict(num_cpus=min(w, cpus), scheduling_strategy=NodeAffinitySchedulingStrategy(
                node_id=n["NodeID"], soft=False))
            if name_prefix:
                opts["name"] = "%s-%d" % (name_prefix, i)
            actors.append(cls.options(**opts).remote(
                workers=w, host=host, bind=bind, port=port, config=config,
                settings=settings))
    else:
        if num_daemons < 1:
            raise ValueError("num_daemons must be >= 1, got %d" % num_daemons)
        w = workers or 1
        for i in range(num_daemons):
            opts = dict(num_cpus=w, scheduling_strategy="SPREAD")
            if name_prefix:
                opts["name"] = "%s-%d" % (name_prefix, i)
            actors.append(cls.options(**opts).remote(
                workers=w, host=host, bind=bind, port=port, config=config,
                settings=settings))
    return actors


def stop_nodes(actors: Sequence) -> None:
    """Stop the daemons (drained) and the actors."""
    refs = []
    for a in actors:
        try:
            refs.append(a.stop.remote())
        except Exception:  # noqa: BLE001  (an actor already gone)
            pass
    try:
        ray.get(refs, timeout=60)
    except Exception:  # noqa: BLE001
        pass
    for a in actors:
        try:
            ray.kill(a, no_restart=True)
        except Exception:  # noqa: BLE001
            pass
