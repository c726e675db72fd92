"""Helpers of the hostile-client tests (test_hostile_*.py): the daemon's resident memory,
timing a bystander's small request, raw frames the Python client will not build."""
import socket
import struct
import time

import numpy as np

import torsion_client as tdclient

# a bystander's request: two pendulum items for twenty steps (well under a millisecond)
SMALL_B, SMALL_NSTEP = 2, 20


def rss_mb(pid):
    """Resident set size of a process in MB."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    raise AssertionError("no VmRSS")


def small_rollout_seconds(client, handle):
    """Wall time of one small rollout on this client."""
    state = np.zeros((SMALL_B, 9))
    state[:, 1] = 0.3
    t0 = time.perf_counter()
    states = client.rollout(handle, state, SMALL_NSTEP)[0]
    dt = time.perf_counter() - t0
    assert states.shape == (SMALL_B, SMALL_NSTEP, 9)
    return dt


def worst_small_rollout(client, handle, n=5):
    """The slowest of n small rollouts (seconds)."""
    return max(small_rollout_seconds(client, handle) for _ in range(n))


def frame(req):
    """A request as one length-prefixed frame."""
    body = req.SerializeToString()
    return struct.pack(">I", len(body)) + body


def varint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def field_bytes(num, data):
    """A length-delimited protobuf field (bytes or a nested message)."""
    return varint(num << 3 | 2) + varint(len(data)) + data


def raw_request(rid, body_field, body):
    """A Request frame from raw bytes: id, then the body message under its field number
    (lets a test send strings that are not valid UTF-8 or hold NULs)."""
    payload = varint(1 << 3 | 0) + varint(rid) + field_bytes(body_field, body)
    return struct.pack(">I", len(payload)) + payload


def connect_raw(path, timeout=10):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(path)
    return s


def read_frame(s):
    """One Response from a raw socket, or None when the server closed it."""
    hdr = b""
    while len(hdr) < 4:
        chunk = s.recv(4 - len(hdr))
        if not chunk:
            return None
        hdr += chunk
    n = struct.unpack(">I", hdr)[0]
    body = b""
    while len(body) < n:
        chunk = s.recv(n - len(body))
        if not chunk:
            return None
        body += chunk
    r = tdclient.Response()
    r.ParseFromString(body)
    return r


def rollout_request(client, handle, B, nstep, **opts):
    rr = tdclient.PB["RolloutRequest"](model=handle, nstep=nstep, **opts)
    tdclient.to_array(np.zeros((B, 9)), rr.initial_state)
    return client.request(rollout=rr)
