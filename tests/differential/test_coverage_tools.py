"""The real-robot report tools: scripts/model_coverage.py and the child-process runner they
share with bench/bench_robots.py (bench/benchlib.py's run_children).

- the runner answers every model once, in whatever order the children finish, and turns a
  child that crashes, hangs past the time limit or raises into a row saying so, while the
  other models still run;
- model_coverage.py on one Meta-World model writes a report with that model's row and the
  summary line, and its numbers are those the robot tests check (recomputed here with
  test_robots' own helpers).
"""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import test_robots as tr
from harness import compare, oracle, robots, torsion
from harness import constraint_cases as cc
from harness.corpus import REPO_ROOT

BENCH = os.path.join(REPO_ROOT, "bench")
SCRIPT = os.path.join(REPO_ROOT, "scripts", "model_coverage.py")
MODEL = "mw/sawyer_xyz/sawyer_reach_v3"

# a child that answers with its model id, or crashes, hangs or raises on request
FAKE_CHILD = textwrap.dedent("""
    import os, signal, sys, time
    sys.path.insert(0, %r)
    import benchlib

    def work(mid):
        print("a line that is not an answer", flush=True)
        if mid == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        if mid == "hang":
            time.sleep(60)
        if mid == "raise":
            raise ValueError("no such thing")
        return {"id": mid, "ok": True}

    benchlib.serve_models(work)
""")


def test_runner_survives_crash_hang_and_error(tmp_path):
    child = tmp_path / "child.py"
    child.write_text(FAKE_CHILD % BENCH)
    sys.path.insert(0, BENCH)
    try:
        import benchlib
    finally:
        sys.path.remove(BENCH)
    ids = ["a", "crash", "b", "hang", "raise", "c", "d"]
    rows = []
    benchlib.run_children(ids, [sys.executable, str(child)], 2, 3.0, rows.append)
    by_id = {r["id"]: r for r in rows}
    assert sorted(by_id) == sorted(ids) and len(rows) == len(ids)
    for mid in "abcd":
        assert by_id[mid] == {"id": mid, "ok": True}
    assert by_id["crash"]["failure"].startswith("crashed")
    assert by_id["hang"]["failure"].startswith("timed out")
    assert "ValueError" in by_id["raise"]["failure"]


def test_model_coverage_one_model(tmp_path):
    out, rows_json = tmp_path / "report.md", tmp_path / "rows.json"
    proc = subprocess.run([sys.executable, SCRIPT, "--models", MODEL, "--out", str(out),
                           "--json", str(rows_json), "--speed-json", str(tmp_path / "none")],
                          capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, TORSION_SIM=torsion.sim_path()))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("models: 1 | MuJoCo loads 1 | Torsion loads 1 | match 1")
    report = out.read_text()
    assert "| sawyer_xyz/sawyer_reach_v3 | yes | yes | yes |" in report
    assert report.rstrip().endswith(proc.stdout.strip())
    row = json.loads(rows_json.read_text())["rows"][0]
    assert row["id"] == MODEL and row["match"] and not row["errors"]

    # the one-step error is the one test_robot_step measures
    model = {m.id: m for m in robots.all_models()}[MODEL]
    m = oracle.load(model.path, disable=oracle.CONTACT_ORACLE)
    inputs, outputs = cc.integration_trajectory(m, oracle.rng(MODEL, "robot-step"), tr.NSTEP)
    ours = torsion.rollout(model.path, inputs, None, 1, spec=cc.SPEC_NAME)
    worst = max(float(np.max(compare.row_errors(ours[:, 0, sl], outputs[:, sl])))
                for _, sl in oracle.spec_blocks(m, cc.SPEC))
    assert row["step"]["err"] == worst
