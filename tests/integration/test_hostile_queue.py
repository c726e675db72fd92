"""Hostile clients against torsiond's shared queue: one client pipelining 41 maximum-size
rollouts (4.1e9 env-steps, past the global max_queued_steps) must not stop the service for
anyone else. A bystander's small rollout, and a fresh connection's, are answered in well
under a second while the attacker holds its quota (round-robin over connections; a global
limit never pauses a connection that has nothing queued), and the daemon's memory stays
bounded."""
import socket
import threading
import time

import pytest

from daemon_util import PENDULUM, Daemon
from hostile_util import frame, rollout_request, rss_mb, worst_small_rollout

# a maximum-size rollout under the default max_batch_steps (1e8): 1000 items x 1e5 steps
ATTACK_B, ATTACK_NSTEP, ATTACK_N = 1000, 100000, 41


def _flood(daemon, handle):
    """An attacker connection with ATTACK_N maximum-size rollouts written (as far as the
    server reads them) by a background thread; returns (client, thread)."""
    c = daemon.client(timeout=300)
    c.load(xml=open(PENDULUM).read())
    blob = b"".join(frame(rollout_request(c, handle, ATTACK_B, ATTACK_NSTEP, final_only=True))
                    for _ in range(ATTACK_N))

    def send():
        try:
            c.send_bytes(blob)
        except OSError:
            pass  # the test closes the attacker while the server is not reading it

    t = threading.Thread(target=send, daemon=True)
    t.start()
    return c, t


@pytest.mark.parametrize("extra", [
    # the attacker's own quota (max_queued_steps_per_connection, 1e9) pauses it
    (),
    # a quota as large as the global limit: the attacker fills max_queued_steps itself
    ("--max-queued-steps-per-connection", "4000000000"),
], ids=["connection_quota", "global_limit"])
def test_queue_flood_leaves_bystanders_served(extra):
    d = Daemon(*extra, workers=2)
    try:
        with d.client() as by:
            h = by.load(xml=open(PENDULUM).read()).model
            worst_small_rollout(by, h, 2)  # warm up
            rss0 = rss_mb(d.proc.pid)
            attacker, sender = _flood(d, h)
            time.sleep(1.0)  # the attacker's requests are queued and its reading paused
            s = by.stats()
            assert s.paused_connections >= 1 and s.inflight_requests >= 10, s

            # the bystander, and a connection opened now, are served promptly
            assert worst_small_rollout(by, h) < 1.0
            with d.client() as fresh:
                t0 = time.perf_counter()
                fresh.load(xml=open(PENDULUM).read())
                assert worst_small_rollout(fresh, h) < 1.0
                assert time.perf_counter() - t0 < 3.0
            assert rss_mb(d.proc.pid) - rss0 < 200

            # the attacker leaves (shutdown first: its sender thread is blocked in send, which
            # would keep a plain close from reaching the server): its work is cancelled
            attacker.sock.shutdown(socket.SHUT_RDWR)
            attacker.close()
            sender.join(10)
            deadline = time.time() + 10
            while time.time() < deadline and by.stats().inflight_requests:
                time.sleep(0.05)
            assert by.stats().inflight_requests == 0
            assert worst_small_rollout(by, h) < 1.0
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]


def test_unread_output_is_never_built():
    """A client that never reads: the server stops starting its chunks once its unsent output
    passes max_unsent_bytes_per_connection, so the output it builds stays near that limit
    (plus a chunk per worker and the socket's buffer) instead of growing with its requests."""
    limit = 4 << 20
    d = Daemon("--max-unsent-bytes-per-connection", "4M", "--frame-target-bytes", "256k",
               "--max-inflight-per-connection", "64", workers=2)
    try:
        with d.client() as by:
            h = by.load(xml=open(PENDULUM).read()).model
            rss0 = rss_mb(d.proc.pid)
            # 32 rollouts of 1000 items x 500 recorded steps: 36 MB of output each
            greedy = d.client()
            greedy.load(xml=open(PENDULUM).read())
            blob = b"".join(frame(rollout_request(greedy, h, 1000, 500)) for _ in range(32))
            greedy.send_bytes(blob)
            time.sleep(3.0)
            s = by.stats()
            slack = 3 * (256 << 10) * 4 + (4 << 20)  # chunks in flight, socket buffers
            assert s.unsent_bytes <= limit + slack, s.unsent_bytes
            assert s.bytes_out <= limit + 2 * slack, s.bytes_out
            assert rss_mb(d.proc.pid) - rss0 < 150
            assert worst_small_rollout(by, h) < 1.0
            greedy.close()
    finally:
        rc, log = d.stop()
    assert rc == 0, log[-3000:]
