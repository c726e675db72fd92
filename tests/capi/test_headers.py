"""The mechanical header check: every function, struct field, enum constant, typedef, global
and macro that Torsion's public headers declare under a MuJoCo name exists in MuJoCo 3.14's
headers with the same type (functions: return and parameter types in order; fields: type;
enums and macros: value), and structs Torsion declares completely have MuJoCo's field
order. Torsion's own tn_/tn* names are exempt. Plus the C programs that check what changed
with the headers: ray casting with surface normals."""
import os
import re
import subprocess
import sys

import pytest

import mjheaders
from capi_build import MODELS, REPO, build_dir, run_both

# Torsion declarations under MuJoCo names that knowingly differ, with the reason. Keep this
# short: every entry is a place where MuJoCo code may see something MuJoCo does not have.
EXEMPT = {
    ("field", "mjData.ncon_capacity"):
        "Torsion keeps contacts in a buffer of fixed capacity (nconmax or a default from the "
        "model); MuJoCo 3.14 allocates them from the arena and has no such field",
}


@pytest.fixture(scope="module")
def headers():
    """(MuJoCo's parsed headers, Torsion's parsed headers)."""
    return mjheaders.mujoco_headers(), mjheaders.torsion_headers()


def test_parser_reads_both_header_sets(headers):
    """The parser sees known declarations on both sides, so an empty difference list means
    agreement and not a parser that found nothing."""
    mj, tn = headers
    for h in (mj, tn):
        step = h.functions["mj_step"]
        assert step["ret"] == "void"
        assert step["params"] == ["const struct mjModel_*", "struct mjData_*"]
        assert ("dist", "double") in h.structs["mjContact"]
        assert h.enums["mjGEOM_BOX"] == 6 and h.enums["mjNGEOMTYPES"] == 9
        assert h.macros["mjMINVAL"]["value"] == 1e-15
        assert h.globals["mju_user_error"] == "void(*)(const char*)"
        assert h.typedefs["mjtNum"] == "double"
    assert len(mj.functions) > 400 and len(tn.functions) > 150
    assert ("nq", "long") in tn.structs["mjModel"]
    assert mj.structs["mjVisual"][0][0] == "global.cameraid"


def test_torsion_declarations_match_mujoco(headers):
    """No difference between Torsion's MuJoCo-named declarations and MuJoCo 3.14's, beyond
    the documented exemptions."""
    mj, tn = headers
    diffs = [d for d in mjheaders.differences(mj, tn) if (d[0], d[1]) not in EXEMPT]
    assert not diffs, "%d declarations differ from MuJoCo 3.14's:\n%s" % (
        len(diffs), "\n".join("  %s %s: %s" % d for d in diffs))


def test_exemptions_are_still_needed(headers):
    """Every exemption still names a real difference (remove it once fixed)."""
    mj, tn = headers
    found = {(d[0], d[1]) for d in mjheaders.differences(mj, tn)}
    stale = [k for k in EXEMPT if k not in found]
    assert not stale, "exemptions without a difference: %s" % stale


def test_every_declaration_is_in_the_library(headers):
    """Every function and global variable torsion.h declares is exported by Torsion's
    shared library (a declared but missing function would fail only at a user's link)."""
    _, tn = headers
    libdir = os.path.join(build_dir(), "engine")
    libs = [os.path.join(libdir, n) for n in ("libtorsion.so", "libtorsion_shared.so")
            if os.path.exists(os.path.join(libdir, n))]
    assert libs, "no Torsion shared library in %s (build first)" % libdir
    out = subprocess.run(["nm", "-D", "--defined-only", libs[0]], capture_output=True,
                         text=True, check=True).stdout
    exported = {line.split()[-1] for line in out.splitlines() if line.strip()}
    missing = sorted(n for n in list(tn.functions) + list(tn.globals) if n not in exported)
    assert not missing, "declared but not exported by %s: %s" % (libs[0], ", ".join(missing))


def test_complete_structs_have_mujoco_layout(headers):
    """Structs whose arrays users index (mjContact, mjSolverStat, mjWarningStat,
    mjTimerStat) and the option structs: same fields, types and order as MuJoCo's."""
    mj, tn = headers
    for name in ("mjContact", "mjSolverStat", "mjWarningStat", "mjTimerStat", "mjOption",
                 "mjStatistic", "mjLROpt", "mjVFS", "mjVisual"):
        assert tn.structs[name] == mj.structs[name], name


def test_ray_normals_match_mujoco(tmp_path):
    """mj_ray, mju_rayGeom, mj_rayMesh and mj_rayHfield: distances, geom ids and surface
    normals (3.14's `normal` output) for rays at every geom type, from outside and inside."""
    model = os.path.join(MODELS, "ray_shapes.xml")
    expected, actual, diffs = run_both("headers_ray.c", tmp_path, [model], rtol=1e-9,
                                       atol=1e-12)
    assert expected.count("\n") > 600
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)


def test_visual_matches_mujoco(tmp_path):
    """mjVisual: mj_defaultVisual's values, the struct's size and group sizes, and m->vis of
    models whose <visual> sets every attribute (and of PyPI models with their own
    <visual>), exactly as MuJoCo gives them."""
    import dm_control
    import gymnasium
    dmc = os.path.join(os.path.dirname(dm_control.__file__), "suite")
    gym = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")
    models = [os.path.join(MODELS, "visual_settings.xml"), os.path.join(MODELS, "ray_shapes.xml"),
              os.path.join(gym, "humanoid.xml"), os.path.join(dmc, "manipulator.xml"),
              os.path.join(dmc, "dog.xml")]
    expected, actual, diffs = run_both("headers_visual.c", tmp_path, models, rtol=0, atol=0)
    assert expected.count("\n") == 1 + 77 * (1 + len(models))
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)


def test_coverage_table_is_current():
    """docs/c-api.md's coverage table is what scripts/capi_table.py generates from today's
    headers (regenerate it with `python3 scripts/capi_table.py` after adding functions),
    and at least 95% of MuJoCo 3.14's in-scope functions are present."""
    script = os.path.join(REPO, "scripts", "capi_table.py")
    proc = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    m = re.search(r"(\d+) of (\d+) in-scope", proc.stdout)
    assert m and int(m.group(1)) >= 0.95 * int(m.group(2)), proc.stdout
