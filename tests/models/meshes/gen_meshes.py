#!/usr/bin/env python3
"""Generates the small mesh files used by the mesh tests (tests/unit/test_mesh.c and the
scenes in this folder): a tetrahedron (binary and ASCII STL), a box with quad faces (OBJ, with
texture/normal lines and a variant using negative indices), an icosphere (OBJ), a non-convex
L-shaped prism (binary STL), a hexagonal prism with hexagon faces (OBJ: polygon splitting) and
bad files for the error paths. Run it from anywhere; it writes next to itself. Pure standard library."""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(HERE, name)


def normal(a, b, c):
    u = [b[i] - a[i] for i in range(3)]
    v = [c[i] - a[i] for i in range(3)]
    n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
    s = math.sqrt(sum(x * x for x in n)) or 1.0
    return [x / s for x in n]


def write_stl_binary(name, verts, tris, truncate=0):
    data = bytearray(b"torsion test mesh".ljust(80, b" "))
    data += struct.pack("<I", len(tris))
    for t in tris:
        a, b, c = (verts[i] for i in t)
        data += struct.pack("<3f", *normal(a, b, c))
        for p in (a, b, c):
            data += struct.pack("<3f", *p)
        data += struct.pack("<H", 0)
    if truncate:
        data = data[:-truncate]
    with open(path(name), "wb") as f:
        f.write(bytes(data))


def write_stl_ascii(name, verts, tris):
    lines = ["solid torsion"]
    for t in tris:
        a, b, c = (verts[i] for i in t)
        lines.append("  facet normal %.9g %.9g %.9g" % tuple(normal(a, b, c)))
        lines.append("    outer loop")
        for p in (a, b, c):
            lines.append("      vertex %.9g %.9g %.9g" % tuple(p))
        lines.append("    endloop")
        lines.append("  endfacet")
    lines.append("endsolid torsion")
    with open(path(name), "w") as f:
        f.write("\n".join(lines) + "\n")


def write_obj(name, verts, polys, negative=False, extras=False):
    lines = ["# torsion test mesh", "o shape"]
    for v in verts:
        lines.append("v %.17g %.17g %.17g" % tuple(v))
    if extras:
        lines += ["vt 0 0", "vt 1 0", "vt 1 1", "vn 0 0 1", "s off", "usemtl none"]
    n = len(verts)
    for p in polys:
        if negative:
            idx = ["%d" % (i - n) for i in p]
        elif extras:
            idx = ["%d/%d/1" % (i + 1, 1 + k % 3) for k, i in enumerate(p)]
        else:
            idx = ["%d" % (i + 1) for i in p]
        lines.append("f " + " ".join(idx))
    with open(path(name), "w") as f:
        f.write("\n".join(lines) + "\n")


# tetrahedron with unequal edges (non-trivial principal axes)
TET_V = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
TET_F = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]

# box [0,1]x[0,2]x[0,0.5] with outward quads
BOX_V = [(x, y, z) for z in (0, 0.5) for y in (0, 2) for x in (0, 1)]
BOX_Q = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]


def icosphere(radius, center):
    t = (1 + math.sqrt(5)) / 2
    v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t),
         (0, 1, -t), (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
         (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
         (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    v = [tuple(x / math.sqrt(sum(y * y for y in p)) for x in p) for p in v]
    mid = {}

    def midpoint(a, b):
        key = (min(a, b), max(a, b))
        if key not in mid:
            p = [(v[a][i] + v[b][i]) / 2 for i in range(3)]
            s = math.sqrt(sum(x * x for x in p))
            v.append(tuple(x / s for x in p))
            mid[key] = len(v) - 1
        return mid[key]

    nf = []
    for a, b, c in f:
        ab, bc, ca = midpoint(a, b), midpoint(b, c), midpoint(c, a)
        nf += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
    v = [tuple(radius * p[i] + center[i] for i in range(3)) for p in v]
    return v, nf


def lshape():
    # L-shaped profile in the xy plane, extruded along z from 0 to 0.3
    prof = [(0, 0), (2, 0), (2, 0.5), (0.5, 0.5), (0.5, 1.5), (0, 1.5)]
    n = len(prof)
    v = [(x, y, 0.0) for x, y in prof] + [(x, y, 0.3) for x, y in prof]
    # caps split into two convex quads: (0,1,2,3) and (0,3,4,5)
    f = []
    for q in ((0, 1, 2, 3), (0, 3, 4, 5)):
        a, b, c, d = q
        f += [(a, c, b), (a, d, c)]  # bottom, facing -z
        f += [(a + n, b + n, c + n), (a + n, c + n, d + n)]  # top, facing +z
    for i in range(n):
        j = (i + 1) % n
        f += [(i, j, j + n), (i, j + n, i + n)]
    return v, f


def prism(n, center, height):
    # n-gon prism (alternate radii) with n-gon caps: exercises polygon triangulation
    cx, cy = center
    v = []
    for z in (0.0, height):
        for k in range(n):
            a = 2 * math.pi * k / n
            v.append((cx + math.cos(a) * (1 + 0.3 * (k % 2)), cy + math.sin(a), z))
    f = [[n - 1 - k for k in range(n)], [n + k for k in range(n)]]
    f += [[k, (k + 1) % n, n + (k + 1) % n, n + k] for k in range(n)]
    return v, f


def main():
    write_stl_binary("tetra.stl", TET_V, TET_F)
    write_stl_ascii("tetra_ascii.stl", TET_V, TET_F)
    write_obj("box.obj", BOX_V, BOX_Q, extras=True)
    write_obj("box_negative.obj", BOX_V, BOX_Q, negative=True)
    sv, sf = icosphere(0.5, (0.1, -0.2, 0.3))
    write_obj("icosphere.obj", sv, sf)
    lv, lf = lshape()
    write_stl_binary("lshape.stl", lv, lf)
    pv, pf = prism(6, (3, 2), 0.5)
    write_obj("prism6.obj", pv, pf)
    # bad files
    with open(path("bad_empty.stl"), "wb"):
        pass
    write_stl_binary("bad_truncated.stl", TET_V, TET_F, truncate=7)
    write_obj("bad_index.obj", TET_V, TET_F + [(0, 1, 7)])
    write_obj("bad_flat.obj", [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)], [(0, 1, 2), (1, 3, 2)])
    with open(path("bad_nan.obj"), "w") as f:
        f.write("v 0 0 0\nv 1 0 0\nv 0 nan 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")


if __name__ == "__main__":
    main()
