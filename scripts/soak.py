#!/usr/bin/env python3
"""soak.py — a long mixed load against torsiond: N clients (threads) doing rollouts,
forward calls, sessions, loads, stats and cancels, with random disconnects (a request sent
and the connection dropped without reading), for a duration; reports lost responses (a
request that should have been answered and was not: must be 0), server errors, and the
daemon's resident memory over time.

    scripts/soak.py                                  # 64 clients, 10 minutes, own daemon
    scripts/soak.py --clients 8 --duration 20 --json out.json
    scripts/soak.py --socket /tmp/torsiond.sock --pid 1234   # an already running daemon

Exit status 0 when nothing was lost, no unexpected error came back, and the daemon (when
started here) stayed up and stopped cleanly on SIGTERM."""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "clients", "python"))
import torsion_client as tdclient  # noqa: E402

PENDULUM = os.path.join(REPO, "tests", "models", "pendulum_chain.xml")
# a second, private model per client (different content, so loads and unloads churn)
TINY = ('<mujoco model="soak%d"><worldbody><body><joint/><geom size="0.1"/></body>'
        '</worldbody></mujoco>')


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


class Tally:
    """Counts shared by the client threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.c = {"requests": 0, "answered": 0, "lost": 0, "errors": 0, "abandoned": 0,
                  "reconnects": 0, "steps": 0}
        self.samples = []

    def add(self, **kw):
        with self.lock:
            for k, v in kw.items():
                self.c[k] += v


def one_op(c, h, rng, state):
    """One random request on client c; returns env-steps done. Raises on a lost answer."""
    op = rng.choice(["rollout", "rollout", "forward", "session", "stats", "load", "cancel"])
    if op == "rollout":
        B, n = int(rng.integers(1, 9)), int(rng.integers(1, 200))
        s = np.zeros((B, 9))
        s[:, 1] = 0.3
        states = c.rollout(h, s, n)[0]
        assert states.shape == (B, n, 9)
        return B * n
    if op == "forward":
        B = int(rng.integers(1, 17))
        assert c.forward(h, np.zeros((B, 9))).shape == (B, 4)
        return B
    if op == "session":
        nenv = int(rng.integers(1, 33))
        sid, _ = c.session(h, nenv, reset_noise=0.01, seed=int(rng.integers(1 << 30)))
        steps = 0
        for _ in range(int(rng.integers(1, 6))):
            fs = int(rng.integers(1, 10))
            obs, _, _ = c.step(sid, rng.standard_normal((nenv, 2)), frame_skip=fs)
            assert obs.shape[0] == nenv
            steps += nenv * fs
        # some sessions stay open until the connection closes (at most 8 at a time)
        state["open"].append(sid)
        if rng.random() < 0.7 or len(state["open"]) >= 8:
            c.close_session(state["open"].pop())
        return steps
    if op == "stats":
        c.stats() if rng.random() < 0.5 else c.health()
        return 0
    if op == "load":
        r = c.load(xml=TINY % state["tag"])
        if rng.random() < 0.5:
            c.call(c.request(unload_model=tdclient.PB["UnloadModelRequest"](model=r.model)))
        return 0
    # cancel a long rollout: either a Cancel result and an ERROR_CANCELLED frame, or a result
    rr = tdclient.PB["RolloutRequest"](model=h, nstep=20000, final_only=True)
    tdclient.to_array(np.zeros((4, 9)), rr.initial_state)
    req = c.request(rollout=rr)
    c.send(req)
    cancel = c.request(cancel=tdclient.PB["CancelRequest"](target_id=req.id))
    c.send(cancel)
    done = set()
    while done != {req.id, cancel.id}:
        r = c.recv()
        if r.id == req.id and r.final:
            assert r.WhichOneof("body") in ("error", "rollout")
            if r.WhichOneof("body") == "error":
                assert r.error.code == tdclient.code("ERROR_CANCELLED"), r
            done.add(req.id)
        elif r.id == cancel.id:
            done.add(cancel.id)
    return 0


def client_main(idx, sock, deadline, disconnect_p, tally, failures):
    rng = np.random.default_rng(1000 + idx)
    state = {"tag": idx, "open": []}
    xml = open(PENDULUM).read()
    while time.time() < deadline:
        try:
            c = tdclient.Client(sock, timeout=120)
        except OSError as e:
            failures.append("connect: %s" % e)
            tally.add(lost=1)
            time.sleep(0.1)
            continue
        tally.add(reconnects=1)
        state["open"] = []
        try:
            tally.add(requests=1)
            h = c.load(xml=xml).model
            tally.add(answered=1)
            while time.time() < deadline:
                if rng.random() < disconnect_p:
                    # send a rollout and drop the connection without reading its answer
                    rr = tdclient.PB["RolloutRequest"](model=h, nstep=500)
                    tdclient.to_array(np.zeros((8, 9)), rr.initial_state)
                    c.send(c.request(rollout=rr))
                    tally.add(abandoned=1)
                    break
                tally.add(requests=1)
                try:
                    steps = one_op(c, h, rng, state)
                    tally.add(answered=1, steps=steps)
                except tdclient.ServerError as e:
                    tally.add(answered=1, errors=1)
                    failures.append("server error: %s" % e)
        except (OSError, ConnectionError, AssertionError) as e:
            tally.add(lost=1)
            failures.append("lost: %r at %s" % (e, traceback.extract_tb(e.__traceback__)[-1]))
        finally:
            c.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--duration", type=float, default=600.0, help="seconds")
    ap.add_argument("--disconnect", type=float, default=0.02,
                    help="chance per request of dropping the connection mid-request")
    ap.add_argument("--rss-every", type=float, default=10.0, help="seconds between samples")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--torsiond", default=os.environ.get(
        "TORSIOND", os.path.join(os.environ.get("TORSION_BUILD", os.path.join(REPO, "build")),
                                 "server", "torsiond")))
    ap.add_argument("--socket", help="use a running daemon instead of starting one")
    ap.add_argument("--pid", type=int, help="its pid (for RSS), with --socket")
    ap.add_argument("--json", help="write the report here too")
    a = ap.parse_args()

    tmp, proc, log = None, None, None
    if a.socket:
        sock, pid = a.socket, a.pid
    else:
        tmp = tempfile.mkdtemp(prefix="soak-")
        sock = os.path.join(tmp, "s")
        log = open(os.path.join(tmp, "log"), "w")
        proc = subprocess.Popen([a.torsiond, "--socket", sock, "--workers", str(a.workers)],
                                stdout=log, stderr=subprocess.STDOUT)
        pid = proc.pid
        for _ in range(200):
            try:
                with tdclient.Client(sock, timeout=5) as c:
                    c.health()
                break
            except OSError:
                time.sleep(0.05)

    tally, failures = Tally(), []
    t0 = time.time()
    deadline = t0 + a.duration
    threads = [threading.Thread(target=client_main,
                                args=(i, sock, deadline, a.disconnect, tally, failures),
                                daemon=True) for i in range(a.clients)]
    for t in threads:
        t.start()
    next_sample = t0
    while any(t.is_alive() for t in threads):
        if pid and time.time() >= next_sample:
            tally.samples.append((round(time.time() - t0, 1), round(rss_mb(pid), 1)))
            next_sample += a.rss_every
        time.sleep(0.2)
    for t in threads:
        t.join()
    if pid:
        tally.samples.append((round(time.time() - t0, 1), round(rss_mb(pid), 1)))

    # the daemon must be idle again, then stop cleanly
    stats = {}
    try:
        with tdclient.Client(sock, timeout=30) as c:
            end = time.time() + 30
            s = c.stats()
            while time.time() < end and (s.inflight_requests or s.sessions or s.connections > 1):
                time.sleep(0.1)
                s = c.stats()
            stats = {"inflight": s.inflight_requests, "sessions": s.sessions,
                     "connections": s.connections, "models": c.health().models,
                     "requests_total": s.requests_total, "steps_total": s.steps_total}
    except OSError as e:
        failures.append("final stats: %s" % e)
    exit_code = None
    if proc:
        proc.send_signal(signal.SIGTERM)
        exit_code = proc.wait(60)
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)

    rss = [r for _, r in tally.samples]
    report = dict(tally.c, clients=a.clients, seconds=round(time.time() - t0, 1),
                  rss_mb=tally.samples, rss_first_mb=rss[0] if rss else None,
                  rss_max_mb=max(rss) if rss else None, rss_last_mb=rss[-1] if rss else None,
                  daemon_after=stats, exit_code=exit_code, failures=failures[:20])
    print(json.dumps(report, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)
    ok = (tally.c["lost"] == 0 and tally.c["errors"] == 0 and exit_code in (None, 0) and
          stats.get("inflight", 1) == 0 and stats.get("sessions", 1) == 0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
