#!/usr/bin/env python3
"""scripts/constraint_state.py — reproduce one state of the contact and constraint checks
(issue 3): write it as an mjSTATE_INTEGRATION .npy for `torsion-sim ... --spec integration`
and print where Torsion and MuJoCo part at it (contact set, smooth dynamics, constraint
force, qacc; harness/constraint_diagnose.py).

  .venv/bin/python scripts/constraint_state.py local/scenes/box_tower 3
        # state 3 of test_contact_set / test_constraint_qacc
  .venv/bin/python scripts/constraint_state.py local/scenes/box_tower 36 --step euler
        # input state 36 of test_constraint_one_step[...-euler]
  .venv/bin/python scripts/constraint_state.py dmc/stacker 36 --option solver=cg,cone=elliptic \\
        --out /tmp/s.npy

The failure messages of those tests name the state. The binary is $TORSION_SIM (default
build/engine/tools/torsion-sim).
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "differential"))

from harness import corpus  # noqa: E402
from harness import constraint_cases as cc  # noqa: E402
from harness import constraint_diagnose  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="model id, e.g. local/scenes/box_tower or gym/ant")
    p.add_argument("index", type=int, help="state index named by the failing test")
    p.add_argument("--step", metavar="INTEGRATOR",
                   help="take the input state of the one-step check with this integrator")
    p.add_argument("--option", default="", help="solver/cone overrides, e.g. solver=pgs")
    p.add_argument("--out", help="write the state here (.npy, [1, nstate])")
    args = p.parse_args()

    models = {m.id: m for m in corpus.contact_models()}
    if args.model not in models:
        raise SystemExit("unknown model id %s" % args.model)
    model = models[args.model]
    states = cc.step_case(model, args.step)[0] if args.step else cc.contact_states(model)
    state = np.asarray(states[args.index], dtype=float)
    options = tuple(tuple(kv.split("=", 1)) for kv in args.option.split(",") if kv)

    if args.out:
        np.save(args.out, state[None])
        print("wrote %s; e.g. torsion-sim contacts %s --state %s --out /tmp/c --spec %s" % (
            args.out, model.path, args.out, cc.SPEC_NAME))
    print(constraint_diagnose.explain(model, state, options, integrator=args.step))
    return 0


if __name__ == "__main__":
    sys.exit(main())
