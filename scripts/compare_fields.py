#!/usr/bin/env python3
"""scripts/compare_fields.py — compare one model field by field, and optionally the pipeline
stage by stage at a random state, between Torsion (torsion-sim dump) and MuJoCo, in pipeline
order: the first field that differs is where to look.

  .venv/bin/python scripts/compare_fields.py gym/ant            # compiled model fields
  .venv/bin/python scripts/compare_fields.py gym/ant --state    # + mjData after mj_forward
  .venv/bin/python scripts/compare_fields.py path/to/model.xml --state --seed 3

Constraints are disabled on both sides, as in the differential tests. The binary is
$TORSION_SIM (default build/engine/tools/torsion-sim).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "differential"))

from harness import corpus, diagnose, oracle  # noqa: E402


def find_model(name):
    """A corpus model by id (or id fragment), or an MJCF path."""
    if os.path.exists(name):
        return corpus.Model("file/" + os.path.basename(name), os.path.abspath(name))
    exact = [m for m in corpus.all_models() if m.id == name]
    found = exact or corpus.select(corpus.all_models(), [name])
    if len(found) != 1:
        raise SystemExit("'%s' matches %s" % (name, [m.id for m in found] or "no model"))
    return found[0]


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="corpus id (gym/ant) or MJCF path")
    p.add_argument("--state", action="store_true", help="also compare mjData fields")
    p.add_argument("--seed", type=int, default=0, help="which random state")
    p.add_argument("--all", action="store_true", help="print agreeing fields too")
    args = p.parse_args()

    model = find_model(args.model)
    m = oracle.load(model.path)
    rows = diagnose.model_report(model.path, m)
    if args.state:
        states, ctrl = oracle.random_states(m, 1, oracle.rng(model.id, "compare%d" %
                                                             args.seed))
        rows += diagnose.data_report(model.path, m, states[0], ctrl[0])
    print("%s (%s)" % (model.id, model.path))
    bad = 0
    for name, status, detail in rows:
        if status != "ok":
            bad += 1
        if status != "ok" or args.all:
            print("  %-22s %-8s %s" % (name, status,
                                       detail if isinstance(detail, str) else "err %.3g" % detail))
    print("%d of %d fields agree" % (len(rows) - bad, len(rows)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
