"""contacts — contact sets of both engines and their comparison as sets (issue 3).

A contact set is what `torsion-sim contacts` writes for one state: {"geom": [n, 2] int,
"dist": [n], "pos": [n, 3], "frame": [n, 9], "dim": [n] int}; mujoco_set() reads the same
from MuJoCo's mjData. Two sets agree when there is a one-to-one matching of their contacts
with the same geom pair, dim, and dist within DIST_TOL, pos and frame within POS_TOL and
FRAME_TOL (absolute, elementwise). Order does not matter; within a geom pair (box-box has up
to 8 contacts) contacts are matched by nearest position.
"""
import mujoco
import numpy as np

DIST_TOL = 1e-9
POS_TOL = 1e-6
FRAME_TOL = 1e-6


def mujoco_set(d):
    """The contact set of MuJoCo's mjData after mj_forward."""
    n = d.ncon
    c = d.contact
    return {"geom": np.stack([c.geom1[:n], c.geom2[:n]], axis=1).astype(int).reshape(n, 2),
            "dist": np.array(c.dist[:n], dtype=float),
            "pos": np.array(c.pos[:n], dtype=float).reshape(n, 3),
            "frame": np.array(c.frame[:n], dtype=float).reshape(n, 9),
            "dim": np.array(c.dim[:n], dtype=int)}


def geom_label(m, g):
    """'name' (type) of a geom, for messages."""
    name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, int(g)) or "#%d" % g
    kind = mujoco.mjtGeom(int(m.geom_type[g])).name[len("mjGEOM_"):].lower()
    return "%s (%s, body %s)" % (name, kind, mujoco.mj_id2name(
        m, mujoco.mjtObj.mjOBJ_BODY, int(m.geom_bodyid[g])) or "#%d" % m.geom_bodyid[g])


def pair_label(m, pair):
    """Both geoms of a pair, for messages."""
    return "%s -- %s" % (geom_label(m, pair[0]), geom_label(m, pair[1]))


def _by_pair(cset):
    """{(geom1, geom2): [row indices]}."""
    groups = {}
    for i, (g1, g2) in enumerate(cset["geom"]):
        groups.setdefault((int(g1), int(g2)), []).append(i)
    return groups


def _match(ours, theirs, oi, ti):
    """Greedy one-to-one matching of rows oi (Torsion) and ti (MuJoCo) of one geom pair by
    distance of (pos, dist): [(ours row, theirs row)]."""
    cost = np.array([[np.linalg.norm(ours["pos"][a] - theirs["pos"][b]) +
                      abs(ours["dist"][a] - theirs["dist"][b]) for b in ti] for a in oi])
    pairs, used_o, used_t = [], set(), set()
    for flat in np.argsort(cost, axis=None, kind="stable"):
        a, b = divmod(int(flat), len(ti))
        if a not in used_o and b not in used_t:
            pairs.append((oi[a], ti[b]))
            used_o.add(a)
            used_t.add(b)
    return pairs


def _tangent_note(f_ours, f_theirs):
    """Why two frames differ: the normal, or only the tangent basis (and whether Torsion's
    is still an orthonormal basis of the same tangent plane)."""
    n_ours, n_theirs = f_ours[:3], f_theirs[:3]
    if np.max(np.abs(n_ours - n_theirs)) > FRAME_TOL:
        return "the normals differ"
    t = f_ours[3:].reshape(2, 3)
    ortho = (np.allclose(t @ t.T, np.eye(2), atol=1e-9) and
             np.allclose(t @ n_theirs, 0, atol=1e-9))
    return ("normals agree; the tangent basis differs (Torsion's is %san orthonormal basis "
            "of the same tangent plane)" % ("" if ortho else "NOT "))


def compare_sets(m, ours, theirs):
    """Problems between Torsion's and MuJoCo's contact sets of one state, as messages
    (empty: the sets agree)."""
    problems = []
    go, gt = _by_pair(ours), _by_pair(theirs)
    for pair in sorted(set(go) | set(gt)):
        oi, ti = go.get(pair, []), gt.get(pair, [])
        if len(oi) != len(ti):
            problems.append("pair %s: torsion %d contacts, mujoco %d (mujoco dist %s, torsion "
                            "dist %s)" % (pair_label(m, pair), len(oi), len(ti),
                                          np.round(theirs["dist"][ti], 9).tolist(),
                                          np.round(ours["dist"][oi], 9).tolist()))
            continue
        for a, b in _match(ours, theirs, oi, ti):
            what = []
            if ours["dim"][a] != theirs["dim"][b]:
                what.append("dim torsion %d, mujoco %d" % (ours["dim"][a], theirs["dim"][b]))
            dd = abs(ours["dist"][a] - theirs["dist"][b])
            if not dd <= DIST_TOL:
                what.append("dist torsion %.17g, mujoco %.17g (diff %.3g)" % (
                    ours["dist"][a], theirs["dist"][b], dd))
            dp = np.max(np.abs(ours["pos"][a] - theirs["pos"][b]))
            if not dp <= POS_TOL:
                what.append("pos torsion %s, mujoco %s (diff %.3g)" % (
                    np.round(ours["pos"][a], 9).tolist(), np.round(theirs["pos"][b], 9).tolist(),
                    dp))
            df = np.max(np.abs(ours["frame"][a] - theirs["frame"][b]))
            if not df <= FRAME_TOL:
                what.append("frame differs by %.3g: %s; torsion %s, mujoco %s" % (
                    df, _tangent_note(ours["frame"][a], theirs["frame"][b]),
                    np.round(ours["frame"][a], 7).tolist(),
                    np.round(theirs["frame"][b], 7).tolist()))
            if what:
                problems.append("pair %s, contact at %s: %s" % (
                    pair_label(m, pair), np.round(theirs["pos"][b], 4).tolist(),
                    "; ".join(what)))
    return problems


def same_order(ours, theirs):
    """Whether both engines list the contacts in the same order (same geom pairs row by
    row): the order of the efc rows, which PGS's result depends on."""
    return (len(ours["geom"]) == len(theirs["geom"]) and
            np.array_equal(ours["geom"], theirs["geom"]))


def check_sets(m, ours, theirs, what="contact set"):
    """Assert that every state's contact sets agree; the message names the first state
    that differs and its first problems. Returns the total number of contacts compared."""
    __tracebackhide__ = True
    assert len(ours) == len(theirs), "%s: torsion has %d states, mujoco %d" % (
        what, len(ours), len(theirs))
    bad = []
    for k, (o, t) in enumerate(zip(ours, theirs)):
        problems = compare_sets(m, o, t)
        if problems:
            bad.append((k, problems, len(o["dist"]), len(t["dist"])))
    if bad:
        k, problems, no, nt = bad[0]
        lines = ["%s differs at %d of %d states; first: state %d (torsion %d contacts, "
                 "mujoco %d):" % (what, len(bad), len(ours), k, no, nt)]
        lines += ["  " + p for p in problems[:6]]
        if len(problems) > 6:
            lines.append("  ... %d more" % (len(problems) - 6))
        raise AssertionError("\n".join(lines))
    return int(sum(len(t["dist"]) for t in theirs))
