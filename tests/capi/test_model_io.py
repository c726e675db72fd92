"""Binary models, printing and version through the C API.

io_roundtrip.c runs against MuJoCo 3.14 and against Torsion: each engine saves a model in
its own binary format (to memory, to a file, into a VFS), loads it back, checks every size
and array against the original and rolls both out bitwise; the printed checks, the
version numbers and the trajectory must agree. io_hostile.c runs against Torsion only and
feeds its loader corrupted and truncated files."""
import os

import gymnasium
import pytest

from capi_build import compile_program, run_both, run_program

GYM_ASSETS = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")
MENAGERIE = "/work/main/build/menagerie"

# (model, steps): the rollout is compared with MuJoCo's at 1e-9, so the steps stay within
# the horizon over which the two engines agree that closely on the model (the shadow hand's
# many finger contacts drift apart past ~50 steps; that is the pipeline, not the file)
ROUNDTRIP_MODELS = [
    (os.path.join(GYM_ASSETS, "hopper.xml"), 200),
    (os.path.join(GYM_ASSETS, "ant.xml"), 200),
    (os.path.join(GYM_ASSETS, "humanoid.xml"), 200),
    (os.path.join(MENAGERIE, "unitree_go2", "scene.xml"), 200),
    (os.path.join(MENAGERIE, "shadow_hand", "scene_right.xml"), 20),
]


@pytest.mark.parametrize("model,nstep", ROUNDTRIP_MODELS,
                         ids=[os.path.basename(os.path.dirname(p)) + "-" + os.path.basename(p)
                              for p, _ in ROUNDTRIP_MODELS])
def test_roundtrip(model, nstep, tmp_path):
    """Save and load in memory, through a file and a VFS: equal models, bitwise rollouts,
    refused truncations, the same trajectory as MuJoCo's own MJB round trip."""
    if not os.path.exists(model):
        pytest.fail("corpus model missing: %s" % model)
    expected, actual, diffs = run_both("io_roundtrip.c", tmp_path, [model, str(nstep)], rtol=1e-9)
    assert "buffer round trip equal 1" in expected
    for check in ("buffer round trip equal 1", "rollout bitwise equal 1",
                  "file round trip equal 1", "vfs round trip equal 1",
                  "truncated refused 9 of 9", "bad magic refused 1"):
        assert check in actual, actual
    assert not diffs, "outputs differ:\n" + "\n".join(diffs)


def test_hostile_inputs(tmp_path):
    """Thousands of corrupted binary models: each is refused or loads as a consistent
    model; the loader never crashes."""
    exe = compile_program("io_hostile.c", "torsion", str(tmp_path))
    rc, out, err = run_program(exe, [os.path.join(GYM_ASSETS, "ant.xml"), "4000"],
                               cwd=str(tmp_path), expect_rc=None)
    assert rc == 0, out + err
    words = out.split()
    refused = int(words[words.index("refused") + 1])
    assert refused >= 2000, out
    assert out.strip().endswith("inconsistent 0"), out
    assert err.count("WARNING: mj_loadModel:") >= refused, err[-2000:]
