"""bench/bench_cluster.py — torsion.cluster's scaling and overhead on this machine.

A local Ray cluster runs three torsiond node actors on loopback, one worker each. One batch
of rollouts (Gymnasium's humanoid, random controls) is timed
  - on each daemon alone through a direct torsion.Client (its single-daemon throughput),
  - through the Dispatcher over daemons {0}, {0, 1} and {0, 1, 2},
  - through N direct clients at once, each sending its share to its own daemon (what the
    machine's cores allow N daemons to do together, without any dispatching),
the cases visited in turn over several rounds (medians). Per N the table gives
  - efficiency against the sum of the N daemons' single-daemon throughputs measured alone
    (the issue's definition; out of reach when the machine has fewer free cores than
    daemons: N daemons measured alone each had the cores to themselves),
  - efficiency against the N direct clients at once (the best any dispatcher could do on
    the same cores at the same time),
  - the daemons' CPU time per result (one rollout), summed over the torsiond processes
    from /proc/PID/stat, dispatched and with N direct clients at once: the work the
    dispatching adds on the daemons, whatever the machine's load (/proc counts clock ticks
    of 10 ms: keep a batch at a second or more),
  - the daemons' occupancy and the driver's CPU per step.
Overhead: the dispatcher over one daemon against the direct client on it. Each dispatcher
sends the model's content once per daemon (its other connections attach by handle); the
JSON output records how many LoadModel requests with content each dispatcher sent.

    .venv/bin/python bench/bench_cluster.py [--rounds 5] [--batch 96] [--nstep 100]
                                            [--update-docs]
"""
import argparse
import os
import platform
import statistics
import sys
import threading
import time

import numpy as np

import ray
import torsion.cluster as tcl
from torsion.client import Client

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- bench_cluster:begin -->", "<!-- bench_cluster:end -->"


def humanoid_path() -> str:
    """Gymnasium's humanoid.xml."""
    import gymnasium
    return os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets",
                        "humanoid.xml")


def workload(client: Client, path: str, batch: int, nstep: int, seed: int = 0):
    """Initial states near qpos0 and random controls for `batch` rollouts of nstep."""
    m = client.load(path=path)
    rng = np.random.default_rng(seed)
    s0 = np.zeros((batch, m.nstate_fullphysics))
    qpos0 = m.qpos0
    s0[:, 1:1 + m.nq] = qpos0 + 0.02 * rng.standard_normal((batch, m.nq))
    ctrl = 0.2 * rng.standard_normal((batch, nstep, m.nu))
    return s0, ctrl


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (all its threads), from /proc."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Meter:
    """Wall seconds, the daemons' CPU seconds and this process's CPU seconds of one call."""

    def __init__(self, pids):
        self.pids = pids

    def __call__(self, fn):
        d0 = sum(cpu_seconds(p) for p in self.pids)
        c0 = time.process_time()
        t0 = time.perf_counter()
        fn()
        wall = time.perf_counter() - t0
        return (wall, sum(cpu_seconds(p) for p in self.pids) - d0,
                time.process_time() - c0)


def pin_process(pid: int, core: int) -> None:
    """Bind every thread of process pid (workers, express worker, I/O loop, thread pool) to
    one core, so that a one-worker daemon uses one core whatever its thread count."""
    for tid in os.listdir("/proc/%d/task" % pid):
        os.sched_setaffinity(int(tid), {core})


def concurrent_direct(clients, path, s0, ctrl) -> float:
    """Seconds for N direct clients sending equal shares of the batch at once."""
    n = len(clients)
    bounds = np.linspace(0, len(s0), n + 1).astype(int)
    errors = []

    def one(i):
        try:
            clients[i].rollout(path, s0[bounds[i]:bounds[i + 1]], ctrl[bounds[i]:bounds[i + 1]])
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return time.perf_counter() - t0


def run(opts) -> dict:
    ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False, configure_logging=False)
    nodes = tcl.start_nodes(3, workers=1, host="127.0.0.1")
    eps = ray.get([n.endpoint.remote() for n in nodes])
    # daemon i on core i mod cores: N daemons alone each have a core of their own, and
    # together as many cores as the machine has
    cores = sorted(os.sched_getaffinity(0))
    pinned = []
    if opts.pin:
        for i, e in enumerate(eps):
            pin_process(e["pid"], cores[i % len(cores)])
            pinned.append(cores[i % len(cores)])
    clients = [Client(address=(e["host"], e["port"]), token=e["token"], timeout=600)
               for e in eps]
    path = humanoid_path()
    s0, ctrl = workload(clients[0], path, opts.batch, opts.nstep)
    steps = opts.batch * opts.nstep
    disps = {n: tcl.Dispatcher(nodes=nodes[:n], split_factor=opts.split_factor,
                               depth=opts.depth)
             for n in (1, 2, 3)}
    # warm up: every model loaded on every connection, answers checked equal
    ref = clients[0].rollout(path, s0, ctrl)[0]
    for c in clients[1:]:
        c.rollout(path, s0[:2], ctrl[:2])
    for d in disps.values():
        assert np.array_equal(d.rollout(path, s0, ctrl)[0], ref)
    times, cpu = {}, {}
    meter = Meter([e["pid"] for e in eps])

    def record(key, m):
        times.setdefault(key, []).append(m[0])
        cpu.setdefault(key, []).append(m[1:])

    def fresh():
        # reconnect direct clients the daemon closed (idle_timeout_ms can pass when the
        # machine's clock jumps, e.g. a paused VM), outside the timed calls
        for i, c in enumerate(clients):
            try:
                c.health()
            except ConnectionError:
                clients[i] = Client(address=(eps[i]["host"], eps[i]["port"]),
                                    token=eps[i]["token"], timeout=600)
                clients[i].rollout(path, s0[:1], ctrl[:1])

    try:
        for r in range(opts.rounds):
            fresh()
            for i, c in enumerate(clients):
                record("direct%d" % i, meter(lambda: c.rollout(path, s0, ctrl)))
            for n, d in disps.items():
                record("dispatcher%d" % n, meter(lambda: d.rollout(path, s0, ctrl)))
                times.setdefault("occupancy%d" % n, []).append(d.last_batch["occupancy"])
            fresh()
            for n in (2, 3):
                record("concurrent%d" % n, meter(
                    lambda: concurrent_direct(clients[:n], path, s0, ctrl)))
            print("round %d: %s" % (r, {k: "%.3f" % v[-1] for k, v in times.items()}),
                  flush=True)
    finally:
        # LoadModel requests with content per daemon (the rest of the connections attached)
        content_sent = {n: [x.content_sent for x in d._daemons] for n, d in disps.items()}
        for d in disps.values():
            d.close()
        for c in clients:
            c.close()
        tcl.stop_nodes(nodes)
        ray.shutdown()
    med = {k: statistics.median(v) for k, v in times.items()}
    best = {k: min(v) for k, v in times.items() if not k.startswith("occupancy")}
    thr = {k: steps / v for k, v in med.items() if not k.startswith("occupancy")}
    out = {"batch": opts.batch, "nstep": opts.nstep, "rounds": opts.rounds,
           "split_factor": opts.split_factor, "depth": opts.depth, "cores": os.cpu_count(),
           "load": os.getloadavg()[0], "date": time.strftime("%Y-%m-%d"),
           "machine": "%s, Python %s" % (platform.machine(), platform.python_version()),
           "seconds": med, "steps_per_s": thr, "rows": [],
           # CPU microseconds per step: the daemons' and this process's (medians)
           "daemon_us": {k: 1e6 * statistics.median(x[0] for x in v) / steps
                         for k, v in cpu.items()},
           "driver_us": {k: 1e6 * statistics.median(x[1] for x in v) / steps
                         for k, v in cpu.items()},
           "content_sent": content_sent, "pinned": pinned}
    for n in (1, 2, 3):
        single_sum = sum(thr["direct%d" % i] for i in range(n))
        disp = thr["dispatcher%d" % n]
        conc_key = "direct0" if n == 1 else "concurrent%d" % n
        conc = thr[conc_key]
        best_sum = sum(steps / best["direct%d" % i] for i in range(n))
        out["rows"].append({"daemons": n, "dispatcher": disp, "single_sum": single_sum,
                            "best_efficiency": steps / best["dispatcher%d" % n] / best_sum,
                            "efficiency": disp / single_sum, "concurrent_direct": conc,
                            "vs_concurrent": disp / conc,
                            "best_vs_concurrent": best[conc_key] / best["dispatcher%d" % n],
                            "occupancy": med["occupancy%d" % n],
                            "daemon_us": out["daemon_us"]["dispatcher%d" % n],
                            "daemon_us_concurrent": out["daemon_us"][conc_key],
                            # daemons' CPU milliseconds per result (one rollout)
                            "daemon_ms_per_result": 1e-3 * opts.nstep
                            * out["daemon_us"]["dispatcher%d" % n],
                            "daemon_ms_per_result_concurrent": 1e-3 * opts.nstep
                            * out["daemon_us"][conc_key],
                            "driver_us": out["driver_us"]["dispatcher%d" % n]})
        # on N free cores: the daemons kept busy this fraction of the time, each doing
        # its steps at this CPU cost against a direct client's
        out["rows"][-1]["projected"] = out["rows"][-1]["occupancy"] * min(
            1.0, out["daemon_us"]["direct0"] / out["rows"][-1]["daemon_us"])
    out["overhead_ms"] = 1e3 * (med["dispatcher1"] - med["direct0"])
    out["overhead_ratio"] = thr["dispatcher1"] / thr["direct0"]
    return out


def docs_table(res: dict) -> str:
    lines = ["| daemons | dispatcher steps/s | sum of single-daemon steps/s (each alone) | "
             "efficiency vs alone | efficiency vs alone, best rounds | "
             "N direct clients at once, steps/s | efficiency vs direct at once | "
             "efficiency vs direct at once, best rounds | "
             "daemon CPU ms/result, dispatched | daemon CPU ms/result, direct at once | "
             "daemon occupancy | driver CPU us/step | "
             "efficiency on N free cores (projected) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in res["rows"]:
        lines.append("| %d | %.0f | %.0f | %.2f | %.2f | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f "
                     "| %.1f | %.2f |"
                     % (r["daemons"], r["dispatcher"], r["single_sum"], r["efficiency"],
                        r["best_efficiency"], r["concurrent_direct"], r["vs_concurrent"],
                        r["best_vs_concurrent"], r["daemon_ms_per_result"],
                        r["daemon_ms_per_result_concurrent"], r["occupancy"], r["driver_us"],
                        r["projected"]))
    lines.append("")
    lines.append("Dispatcher over one daemon against a direct client on it: %.3fx the "
                 "throughput, %+.1f ms per batch of %d rollouts x %d steps (%.2f s); CPU per "
                 "step: daemon %.1f us direct, %.1f us dispatched; driver %.2f us direct, "
                 "%.2f us dispatched."
                 % (res["overhead_ratio"], res["overhead_ms"], res["batch"], res["nstep"],
                    res["seconds"]["direct0"], res["daemon_us"]["direct0"],
                    res["daemon_us"]["dispatcher1"], res["driver_us"]["direct0"],
                    res["driver_us"]["dispatcher1"]))
    lines.append("")
    lines.append("A result is one rollout of %d steps; daemon CPU is user + system time of "
                 "the torsiond processes (/proc/PID/stat) over the timed call. Model content "
                 "sent per daemon by the dispatchers over 1/2/3 daemons: %s."
                 % (res["nstep"], "; ".join(
                     "/".join(str(x) for x in res["content_sent"][n])
                     for n in sorted(res["content_sent"]))))
    lines.append("")
    lines.append("Humanoid rollouts (Gymnasium's humanoid.xml, RK4), %d x %d steps per batch; "
                 "daemons with 1 worker each on loopback in a local Ray cluster%s; each subset "
                 "1/%d of its daemon's remaining share, %d connections per daemon; median "
                 "of %d rounds; %d cores (load average %.1f during the run); %s; %s."
                 % (res["batch"], res["nstep"],
                    (", pinned to cores %s (all threads of daemon i on one core)"
                     % "/".join(str(c) for c in res["pinned"])) if res.get("pinned") else "",
                    res["split_factor"], res["depth"],
                    res["rounds"], res["cores"], res["load"], res["machine"], res["date"]))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", type=int, default=96, help="rollouts per batch")
    parser.add_argument("--nstep", type=int, default=100, help="steps per rollout")
    parser.add_argument("--split-factor", type=int, default=4,
                        help="each subset takes 1/split_factor of its daemon's remaining share")
    parser.add_argument("--depth", type=int, default=2, help="connections per daemon")
    parser.add_argument("--no-pin", dest="pin", action="store_false",
                        help="leave the daemons unpinned (by default daemon i runs on core "
                        "i mod cores, all its threads)")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument("--update-docs", action="store_true",
                        help="write the table into docs/benchmarks.md")
    opts = parser.parse_args()
    res = run(opts)
    table = docs_table(res)
    print(table)
    if opts.json:
        import json
        with open(opts.json, "w") as f:
            json.dump(res, f, indent=1)
    if opts.update_docs:
        path = os.path.join(ROOT, "docs", "benchmarks.md")
        text = open(path).read()
        block = BEGIN + "\n" + table + "\n" + END
        if BEGIN in text:
            text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
        else:
            text += "\n## Cluster dispatcher\n\n" + block + "\n"
        with open(path, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
