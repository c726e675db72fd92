"""torsion-sim's JSON output and option parsing: info and speed print valid JSON for model
paths and names holding '"' and '\\' (info's numbers still match MuJoCo's compiled model),
the contacts index is valid JSON, options take "--name value" and "--name=value" in any order
around the model, and a missing value, an unknown option or --help are handled cleanly."""
import json
import os
import shutil

import numpy as np
import pytest

from harness import corpus, oracle, torsion

MODEL = os.path.join(corpus.REPO_ROOT, "tests", "models", "pendulum_chain.xml")

# a model whose file name and body name hold a quote and a backslash
ODD_XML = """<mujoco model="odd &quot;model\\ name">
  <worldbody>
    <geom type="plane" size="2 2 .1"/>
    <body name="b&quot;\\1" pos="0 0 .3">
      <freejoint/>
      <geom type="box" size=".1 .2 .05" mass="1.7"/>
      <body name="c\\&quot;" pos=".2 0 0"><joint axis="0 1 0"/><geom size=".05" mass=".3"/></body>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.fixture
def odd_model(tmp_path):
    path = tmp_path / 'od"d\\name.xml'
    path.write_text(ODD_XML)
    (tmp_path / "plain.xml").write_text(ODD_XML)  # MuJoCo reads '\\' in a path as a separator
    return str(path)


def oracle_of(odd_path):
    return oracle.load(os.path.join(os.path.dirname(odd_path), "plain.xml"))


def test_info_json_with_quotes_and_backslashes(odd_model):
    res = torsion.info(odd_model)  # parses the JSON
    m = oracle_of(odd_model)
    import mujoco
    assert res["nbody"] == m.nbody and res["nq"] == m.nq
    assert res["nstate"] == mujoco.mj_stateSize(m, mujoco.mjtState.mjSTATE_FULLPHYSICS)
    np.testing.assert_allclose(res["body_mass"], m.body_mass, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(res["qpos0"], m.qpos0, rtol=1e-10, atol=1e-10)
    assert res["timestep"] == m.opt.timestep


def test_info_reals_round_trip():
    """Reals are printed with 17 significant digits: the same doubles as MuJoCo's."""
    res = torsion.info(MODEL)
    m = oracle.load(MODEL)
    np.testing.assert_allclose(res["body_mass"], m.body_mass, rtol=1e-15, atol=0)


def test_speed_json_with_quotes_and_backslashes(odd_model):
    proc = torsion.run(["speed", odd_model, "--nstep", 50, "--profile"])
    res = json.loads(proc.stdout)
    assert res["model"] == odd_model and res["nstep"] == 50
    assert set(res["profile_us_per_step"]) == {"collision", "make_constraint", "solver",
                                               "other_forward", "forward"}


def test_contacts_index_json(odd_model, tmp_path):
    m = oracle_of(odd_model)
    states, _ = oracle.random_states(m, 3, oracle.rng("cli_json", "contacts"))
    np.save(tmp_path / "s.npy", states)
    torsion.run(["contacts", odd_model, "--state", tmp_path / "s.npy", "--out", tmp_path / "c"])
    with open(str(tmp_path / "c") + "_index.json") as f:
        index = json.load(f)
    assert index["nstate"] == 3 and len(index["count"]) == 3
    assert index["offset"] == [0, index["count"][0], index["count"][0] + index["count"][1]]


def test_option_forms_and_order(tmp_path):
    """--nstep=N, options before the model and after it, and "--" before a model whose name
    starts with '-' give the same rollout as the plain form."""
    m = oracle.load(MODEL)
    states, ctrl = oracle.random_states(m, 2, oracle.rng("cli_json", "rollout"))
    np.save(tmp_path / "s.npy", states)
    dash = tmp_path / "-model.xml"
    shutil.copy(MODEL, dash)
    outs = []
    for i, args in enumerate([
            ["rollout", MODEL, "--state", "s.npy", "--nstep", "4", "--out", "o0.npy"],
            ["rollout", "--nstep=4", "--out=o1.npy", "--state=s.npy", MODEL],
            ["rollout", "--state", "s.npy", "--nstep", "4", "--out", "o2.npy", "--", str(dash)]]):
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            torsion.run(args)
        finally:
            os.chdir(cwd)
        outs.append(np.load(tmp_path / ("o%d.npy" % i)))
    assert outs[0].shape[:2] == (2, 4)
    for o in outs[1:]:
        assert np.array_equal(o.view(np.uint64), outs[0].view(np.uint64))


@pytest.mark.parametrize("args,needle", [
    (["rollout", MODEL, "--nstep", "3", "--state"], "--state needs a value"),
    (["info", MODEL, "--threads"], "--threads needs a value"),
    (["info", MODEL, "--no-such-option"], "unknown option '--no-such-option'"),
    (["info", MODEL, "-q"], "unknown option '-q'"),
    (["info", MODEL, MODEL], "unexpected argument"),
    (["info", "--threads", "0", MODEL], "--threads must be"),
])
def test_option_errors(args, needle):
    proc = torsion.run(args, check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    err = proc.stderr.strip()
    assert len(err.splitlines()) == 1 and needle in err, err


def test_help_lists_every_option():
    for args in (["--help"], ["info", "--help"], ["rollout", MODEL, "-h"]):
        proc = torsion.run(args)
        assert proc.stdout.startswith("usage: torsion-sim")
    for opt in ("--state", "--ctrl", "--qacc", "--out", "--sensordata", "--fields", "--disable",
                "--enable", "--integrator", "--option", "--root", "--vfs-dir", "--vfs",
                "--vfs-only", "--max-bytes", "--spec", "--nstep", "--threads", "--ctrlnoise",
                "--eps", "--centered", "--actuation", "--profile"):
        assert opt in proc.stdout, opt
