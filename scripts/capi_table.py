#!/usr/bin/env python3
"""Write the C API coverage table into docs/c-api.md: every public function of MuJoCo 3.14's
mujoco.h, grouped by the header's own sections, marked present or missing in Torsion's
headers (engine/include/torsion/, parsed with clang like tests/capi/test_headers.py does).
Rendering (mjv_, mjr_, mjui_) and plugins (mjp_, mjc_, resource providers) are out of scope
and listed separately with the reason. Prints the share of in-scope functions present.

Usage: scripts/capi_table.py [--check]   (--check: fail if docs/c-api.md is out of date)
Run with the Python that has the mujoco package (its wheel ships the headers)."""
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests", "capi"))
import mjheaders  # noqa: E402  (needs the path above)

DOC = os.path.join(REPO, "docs", "c-api.md")
BEGIN = "<!-- capi-table:begin -->"
END = "<!-- capi-table:end -->"

# why a missing in-scope function is missing (anything not listed: "not yet")
FLEX = "flexes (deformable objects) are not simulated yet: models with them are refused"
HISTORY = ("actuator and sensor delays (history buffers) are not simulated yet: models "
           "with them are refused")
WHY_MISSING = {
    "mju_threadpool": "Torsion's batch helpers (tn_*Batch) run on OpenMP; no thread pool "
                      "attached to mjData yet",
    "mj_flex": FLEX, "mj_rayFlex": FLEX, "mjs_makeFlex": FLEX,
    "mj_readCtrl": HISTORY, "mj_readSensor": HISTORY, "mj_initCtrlHistory": HISTORY,
    "mj_initSensorHistory": HISTORY,
    "mj_printSchema": "Torsion's schema table is not MuJoCo's element tree; not yet",
    "mjs_makeMesh": "procedural meshes (mjtMeshBuiltin): not yet",
}

# out of scope: (test on name and parameter types, reason)
RENDERING = "rendering (mjv_/mjr_/mjui_): out of scope"
PLUGINS = "plugins (mjp_/mjc_): out of scope"
PROVIDERS = "resource providers (a plugin interface): out of scope"


def out_of_scope(name, fn, section):
    """The reason a MuJoCo function is outside Torsion's C API scope, or None."""
    params = fn.get("params", []) + [fn.get("ret", "")]
    if section == "Resources":
        return PROVIDERS
    if re.match(r"^(mjv_|mjr_|mjui_)", name):
        return RENDERING
    if any("mjvScene" in p or "mjvOption" in p for p in params):
        return RENDERING
    if (re.match(r"^(mjp_|mjc_)", name) or "PluginLibrar" in name or "PluginConfig" in name
            or "PluginAttributes" in name):
        return PLUGINS
    if any("mjpResourceProvider" in p or "mjResource_" in p for p in params):
        return PROVIDERS
    # unmounting a VFS path only undoes mj_mountVFS, which takes a resource provider
    if name == "mj_unmountVFS":
        return PROVIDERS
    return None


def mujoco_sections(path):
    """[(section title, [function names in header order])] of mujoco.h."""
    sections = []
    title = "Preamble"
    names = []
    pending = ""
    for line in open(path):
        m = re.match(r"^//-+\s*(.*?)\s*-+\s*$", line)
        if m and m.group(1):
            if names:
                sections.append((title, names))
            title, names = m.group(1), []
            continue
        if line.startswith("MJAPI") or pending:
            pending += line
            m = re.search(r"\b(mj\w+)\s*\(", pending)
            if m:
                names.append(m.group(1))
                pending = ""
            elif ";" in pending:
                pending = ""
    if names:
        sections.append((title, names))
    return sections


def build_table():
    """(markdown text, present count, in-scope count)."""
    mj = mjheaders.mujoco_headers()
    tn = mjheaders.torsion_headers()
    sections = mujoco_sections(mjheaders.MUJOCO_HEADER)
    summary = []
    detail = []
    excluded = []
    total_present = total_scope = 0
    for title, names in sections:
        rows = []
        present = scope = 0
        for name in names:
            reason = out_of_scope(name, mj.functions.get(name, {}), title)
            if reason:
                excluded.append((name, title, reason))
                continue
            scope += 1
            if name in tn.functions:
                present += 1
                rows.append("| `%s` | yes | |" % name)
            else:
                rows.append("| `%s` | no | %s |" % (name, WHY_MISSING.get(name, "not yet")))
        if scope:
            summary.append("| %s | %d | %d | %.0f%% |" % (title, present, scope,
                                                           100.0 * present / scope))
            detail.append("### %s\n\n%d of %d present.\n\n| Function | In Torsion | Why "
                          "missing |\n|---|---|---|\n%s\n" % (title, present, scope,
                                                            "\n".join(rows)))
        total_present += present
        total_scope += scope
    pct = 100.0 * total_present / total_scope if total_scope else 0.0
    lines = [
        "Generated by `scripts/capi_table.py` from MuJoCo 3.14's `mujoco.h` and Torsion's "
        "headers; do not edit by hand.",
        "",
        "**%d of %d in-scope functions present (%.1f%%).** %d functions are out of scope "
        "(rendering, plugins, resource providers; listed at the end)." % (
            total_present, total_scope, pct, len(excluded)),
        "",
        "| Family (mujoco.h section) | Present | In scope | Share |",
        "|---|---|---|---|",
    ] + summary + [""] + detail + [
        "### Out of scope",
        "",
        "| Function | mujoco.h section | Reason |",
        "|---|---|---|",
    ] + ["| `%s` | %s | %s |" % e for e in excluded]
    return "\n".join(lines) + "\n", total_present, total_scope


def write_doc(table):
    """Put the table between the markers of docs/c-api.md; return the new text."""
    text = open(DOC).read()
    if BEGIN not in text or END not in text:
        raise SystemExit("%s lacks the markers %s / %s" % (DOC, BEGIN, END))
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + table + END + tail


def main():
    table, present, scope = build_table()
    new = write_doc(table)
    if "--check" in sys.argv[1:]:
        if open(DOC).read() != new:
            print("docs/c-api.md is out of date: run scripts/capi_table.py")
            return 1
    else:
        with open(DOC, "w") as f:
            f.write(new)
    print("%d of %d in-scope MuJoCo 3.14 functions present (%.1f%%)"
          % (present, scope, 100.0 * present / scope))
    return 0


if __name__ == "__main__":
    sys.exit(main())
