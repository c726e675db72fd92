"""pytest configuration of the Python-package suites (tests/python): the model fixtures and
the run's header. The suites import the installed package (scripts/common.sh's ensure_venv
pip-installs it into .venv); the header names which torsion was imported."""
import os

import mujoco
import pytest

import torsion
from pycore_models import MODEL_PATHS, model_id


def pytest_report_header(config):
    """Which torsion package the run imports, and the oracle's version."""
    return ["torsion: %s (%s); oracle: mujoco %s" % (
        torsion.__version__, os.path.dirname(torsion.__file__), mujoco.__version__)]


@pytest.fixture(params=MODEL_PATHS, ids=model_id)
def model_path(request):
    """Each model both engines load."""
    return request.param


@pytest.fixture
def pair(model_path):
    """(mujoco model, torsion model) of the same file."""
    return mujoco.MjModel.from_xml_path(model_path), torsion.MjModel.from_xml_path(model_path)
