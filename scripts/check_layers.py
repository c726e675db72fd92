#!/usr/bin/env python3
"""scripts/check_layers.py - the engine's stage folders include one another one way only.

Every folder of engine/src is one stage; engine/meson.build lists the stages bottom-up in its
subdir('src/STAGE') lines (util first, batch last). This script reads every
`#include "STAGE/file.h"` line of engine/src/**/*.c and *.h, prints the includes between
stage folders (one line per pair of stages, with the files when --files is given) and fails
(exit status 1, one line per offence) when a stage includes a header of a stage listed
after it (an upward include), when the includes between stages form a cycle, when an
included header does not exist, or when a stage folder is missing from the meson list.

    python3 scripts/check_layers.py [--root DIR] [--files]

Standard library only: scripts/test.sh runs it before pytest, and
tests/differential/test_layers.py runs it too.
"""
import argparse
import os
import re
import sys

# `#include "stage/file.h"` (angle-bracket includes are system or public headers)
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([A-Za-z0-9_]+)/([^"]+)"')

# `subdir('src/stage')` in engine/meson.build
SUBDIR_RE = re.compile(r"""^\s*subdir\(\s*'src/([A-Za-z0-9_]+)'\s*\)""")


def stage_order(engine_dir):
    """The stage folders in engine/meson.build's order (lowest first)."""
    order = []
    with open(os.path.join(engine_dir, "meson.build"), encoding="utf-8") as f:
        for line in f:
            m = SUBDIR_RE.match(line)
            if m:
                order.append(m.group(1))
    return order


def stage_folders(src_dir):
    """Every folder directly under engine/src."""
    return sorted(name for name in os.listdir(src_dir)
                  if os.path.isdir(os.path.join(src_dir, name)))


def source_files(src_dir):
    """(stage, path relative to engine/src) of every .c and .h file under engine/src."""
    for dirpath, dirnames, filenames in os.walk(src_dir):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, src_dir)
        if rel_dir == ".":
            continue
        stage = rel_dir.split(os.sep)[0]
        for name in sorted(filenames):
            if name.endswith((".c", ".h")):
                yield stage, os.path.join(rel_dir, name).replace(os.sep, "/")


def stage_includes(src_dir, stages):
    """Includes between stages: {(from, to): [(file, line number, header)]}, plus a list of
    includes of stage headers that do not exist."""
    edges, missing = {}, []
    for stage, rel in source_files(src_dir):
        with open(os.path.join(src_dir, rel), encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE_RE.match(line)
                if not m or m.group(1) not in stages:
                    continue
                header = m.group(1) + "/" + m.group(2)
                if not os.path.isfile(os.path.join(src_dir, header)):
                    missing.append((rel, lineno, header))
                if m.group(1) != stage:
                    edges.setdefault((stage, m.group(1)), []).append((rel, lineno, header))
    return edges, missing


def find_cycles(stages, edges):
    """Strongly connected components of more than one stage (Tarjan), each sorted."""
    graph = {s: sorted({b for (a, b) in edges if a == s}) for s in stages}
    index, low, on_stack, stack, cycles = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for s in stages:
        if s not in index:
            visit(s)
    return cycles


def check(root, show_files=False, out=sys.stdout):
    """Print the stage includes and every offence; return the number of offences."""
    engine_dir = os.path.join(root, "engine")
    src_dir = os.path.join(engine_dir, "src")
    order = stage_order(engine_dir)
    folders = stage_folders(src_dir)
    rank = {s: i for i, s in enumerate(order)}
    edges, missing = stage_includes(src_dir, set(folders))
    problems = []

    # every folder has a place in the order, and every listed stage exists
    for s in folders:
        if s not in rank:
            problems.append("stage folder engine/src/%s is not in engine/meson.build's "
                            "subdir list" % s)
    for s in order:
        if s not in folders:
            problems.append("engine/meson.build lists src/%s, which does not exist" % s)

    # the includes between stages, lowest including stage first
    print("stage order (lowest first): %s" % " < ".join(order), file=out)
    print("includes between stages:", file=out)
    for (a, b) in sorted(edges, key=lambda e: (rank.get(e[0], 99), rank.get(e[1], 99))):
        sites = edges[(a, b)]
        up = a in rank and b in rank and rank[b] > rank[a]
        print("  %-12s -> %-12s %3d%s" % (a, b, len(sites), "  UPWARD" if up else ""),
              file=out)
        if show_files:
            for rel, lineno, header in sites:
                print("      engine/src/%s:%d: %s" % (rel, lineno, header), file=out)
        if up:
            for rel, lineno, header in sites:
                problems.append("upward include: engine/src/%s:%d includes %s (%s is below "
                                "%s)" % (rel, lineno, header, a, b))

    # cycles, whatever the order says
    for comp in find_cycles(folders, edges):
        problems.append("include cycle between stages: %s" % ", ".join(comp))

    # headers that are not there
    for rel, lineno, header in missing:
        problems.append("engine/src/%s:%d includes %s, which does not exist" % (rel, lineno,
                                                                                header))

    if problems:
        print("\n%d layering problem(s):" % len(problems), file=out)
        for p in problems:
            print("  " + p, file=out)
    else:
        print("\nlayers OK: every include between stages points down", file=out)
    return len(problems)


def main():
    default_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=default_root,
                    help="repository root (holding engine/); default: this script's repo")
    ap.add_argument("--files", action="store_true",
                    help="list every include line between stages")
    args = ap.parse_args()
    return 1 if check(args.root, args.files) else 0


if __name__ == "__main__":
    sys.exit(main())
