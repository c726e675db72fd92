"""pytest configuration shared by the Python suites under tests/: the run's header names the
torsion-sim binary, the oracle's version and the differential corpus."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "differential"))


def pytest_report_header(config):
    """Name the binary, the oracle and the corpus at the top of the run."""
    from harness import params, torsion
    import mujoco
    return ["torsion-sim: %s" % torsion.sim_path(),
            "oracle: mujoco %s; differential corpus: %d models: %s" % (
                mujoco.__version__, len(params.MODELS),
                " ".join(m.id for m in params.MODELS))]
