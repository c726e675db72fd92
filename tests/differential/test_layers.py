"""The engine's stage folders include one another one way only.

scripts/check_layers.py reads the `#include "stage/file.h"` lines of engine/src and the stage
order of engine/meson.build (lowest first) and fails on an upward include or a cycle. It
must pass on the tree as it is, and it must catch each kind of offence on small synthetic
trees (so a broken checker cannot pass silently).
"""
import os
import subprocess
import sys

from harness import corpus

SCRIPT = os.path.join(corpus.REPO_ROOT, "scripts", "check_layers.py")


def run_check(root):
    """Exit status and output of the checker on the repository at `root`."""
    proc = subprocess.run([sys.executable, SCRIPT, "--root", str(root)],
                          capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def make_tree(tmp_path, order, files):
    """A minimal repository: engine/meson.build listing `order`, and engine/src files."""
    engine = tmp_path / "engine"
    (engine / "src").mkdir(parents=True)
    (engine / "meson.build").write_text(
        "".join("subdir('src/%s')\n" % s for s in order))
    for s in order:
        (engine / "src" / s).mkdir()
    for rel, text in files.items():
        (engine / "src" / rel).write_text(text)
    return tmp_path


def test_engine_layers_point_down():
    rc, out = run_check(corpus.REPO_ROOT)
    assert rc == 0, out
    assert "layers OK" in out


def test_checker_accepts_downward_includes(tmp_path):
    root = make_tree(tmp_path, ["low", "high"], {
        "low/low.h": "int low(void);\n",
        "high/high.c": '#include "low/low.h"\n#include "high/high.h"\n',
        "high/high.h": "int high(void);\n",
    })
    rc, out = run_check(root)
    assert rc == 0, out
    assert "high" in out and "-> low" in out


def test_checker_rejects_upward_include(tmp_path):
    root = make_tree(tmp_path, ["low", "high"], {
        "low/low.c": '#include "high/high.h"\n',
        "high/high.h": "int high(void);\n",
    })
    rc, out = run_check(root)
    assert rc == 1, out
    assert "upward include: engine/src/low/low.c:1 includes high/high.h" in out


def test_checker_rejects_cycle(tmp_path):
    root = make_tree(tmp_path, ["a", "b", "c"], {
        "a/a.h": '#include "c/c.h"\n',
        "b/b.h": '#include "a/a.h"\n',
        "c/c.h": '#include "b/b.h"\n',
    })
    rc, out = run_check(root)
    assert rc == 1, out
    assert "include cycle between stages: a, b, c" in out


def test_checker_rejects_unlisted_stage_and_missing_header(tmp_path):
    root = make_tree(tmp_path, ["low"], {"low/low.c": '#include "low/gone.h"\n'})
    (tmp_path / "engine" / "src" / "extra").mkdir()
    rc, out = run_check(root)
    assert rc == 1, out
    assert "engine/src/extra is not in engine/meson.build" in out
    assert "includes low/gone.h, which does not exist" in out
