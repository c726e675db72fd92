"""torsion.cluster: batches spread over many torsiond daemons on a Ray cluster.

    import ray, torsion.cluster as tcl
    ray.init()                                   # or ray.init(address="auto") on a cluster
    with tcl.Dispatcher() as d:                  # one torsiond per Ray node, sized to its CPUs
        state, sens = d.rollout("humanoid.xml", initial_state, control)

Dispatcher offers rollout, transition_fd, inverse and inverse_fd with torsion.Client's
arguments (and stream() for results in batch order as they complete); it splits a batch in
proportion to each daemon's workers, steals work at the end, and re-runs the unfinished
subsets of a daemon that died elsewhere (ClusterError after max_tries). TorsiondNode is the
Ray actor that runs one daemon per node (start_nodes places them); LocalDaemon runs one
daemon without Ray. Importing this package imports ray (`import torsion` does not)."""
from .daemon import LocalDaemon, find_torsiond
from .dispatcher import ClusterError, ClusterModel, Dispatcher
from .node import TorsiondNode, start_nodes, stop_nodes
from .split import Subset, WorkQueues, plan

__all__ = ["Dispatcher", "ClusterError", "ClusterModel", "TorsiondNode", "start_nodes",
           "stop_nodes", "LocalDaemon", "find_torsiond", "plan", "Subset", "WorkQueues"]
