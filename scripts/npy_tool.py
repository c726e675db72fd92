#!/usr/bin/env python3
"""scripts/npy_tool.py — the small .npy helper scripts/run.sh needs, with the standard
library only (the main job does not install numpy).

  npy_tool.py states INFO.json OUT.npy --batch B   initial states [B, nstate] (FULLPHYSICS
                                                    layout: time, qpos, qvel, act), qpos0
                                                    with each rollout's joints turned a bit
  npy_tool.py ctrl OUT.npy --batch B --nu NU        constant controls [B, 1, NU]
  npy_tool.py summary OUT.npy --nq NQ               describe a rollout output [B, N, nstate]
"""
import argparse
import ast
import json
import math
import struct


def write_npy(path, shape, values):
    """Write float64 little-endian C-order values as .npy version 1.0."""
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%s), }" % (
        "".join("%d, " % n for n in shape) if len(shape) == 1 else
        ", ".join(str(n) for n in shape))
    # pad so that the data starts on a 64-byte boundary, header ends with a newline
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%dd" % len(values), *values))


def read_npy(path):
    """Read a float64 little-endian C-order .npy file: (shape, flat list of values)."""
    with open(path, "rb") as f:
        if f.read(6) != b"\x93NUMPY":
            raise SystemExit("%s: not a .npy file" % path)
        major = f.read(2)[0]
        hlen = struct.unpack("<H" if major == 1 else "<I", f.read(2 if major == 1 else 4))[0]
        header = ast.literal_eval(f.read(hlen).decode())
        if header["descr"] != "<f8" or header["fortran_order"]:
            raise SystemExit("%s: expected little-endian float64 in C order" % path)
        shape = tuple(header["shape"])
        count = math.prod(shape)
        return shape, list(struct.unpack("<%dd" % count, f.read(8 * count)))


def cmd_states(args):
    """Initial states: qpos0, every rollout's hinge angles turned by a different amount."""
    with open(args.info) as f:
        info = json.load(f)
    nq, nv, na = info["nq"], info["nv"], info["na"]
    rows = []
    for b in range(args.batch):
        qpos = list(info["qpos0"])
        for i in range(nq):
            qpos[i] += 0.3 * math.sin(1.0 + b + 0.7 * i)
        rows += [0.0] + qpos + [0.0] * nv + [0.0] * na
    write_npy(args.out, (args.batch, 1 + nq + nv + na), rows)


def cmd_ctrl(args):
    """Constant controls, a different value for each rollout."""
    rows = []
    for b in range(args.batch):
        rows += [0.5 * math.cos(b + j) for j in range(args.nu)]
    write_npy(args.out, (args.batch, 1, args.nu), rows)


def cmd_summary(args):
    """Print the size of a rollout output and where its first rollout ended."""
    shape, v = read_npy(args.path)
    B, N, ns = shape
    last = v[(N - 1) * ns:N * ns]
    finite = all(math.isfinite(x) for x in v)
    print("rollout output: %d rollouts x %d steps x %d state values, all finite: %s"
          % (B, N, ns, "yes" if finite else "NO"))
    print("rollout 0 after the last step: time %.4f s, qpos %s"
          % (last[0], " ".join("%.4f" % x for x in last[1:1 + args.nq])))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("states")
    s.add_argument("info")
    s.add_argument("out")
    s.add_argument("--batch", type=int, default=1)
    c = sub.add_parser("ctrl")
    c.add_argument("out")
    c.add_argument("--batch", type=int, default=1)
    c.add_argument("--nu", type=int, required=True)
    r = sub.add_parser("summary")
    r.add_argument("path")
    r.add_argument("--nq", type=int, default=0)
    args = p.parse_args()
    {"states": cmd_states, "ctrl": cmd_ctrl, "summary": cmd_summary}[args.cmd](args)


if __name__ == "__main__":
    main()
