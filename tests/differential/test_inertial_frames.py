"""Inertial frames of bodies without mass (tests/models/inertia/): body_ipos and body_iquat
equal to MuJoCo's bit for bit, also inside <frame> elements (body_pos and body_quat too)."""
import os

import numpy as np
import pytest

from harness import corpus, oracle, torsion

DIR = os.path.join(corpus.REPO_ROOT, "tests", "models", "inertia")
SCENES = sorted(f for f in os.listdir(DIR) if f.endswith(".xml"))
FIELDS = ["body_pos", "body_quat", "body_ipos", "body_iquat", "body_mass"]


@pytest.mark.parametrize("scene", SCENES)
def test_inertial_frames(scene):
    path = os.path.join(DIR, scene)
    m = oracle.load(path)
    ours = torsion.dump(path, FIELDS)
    for name in FIELDS:
        np.testing.assert_array_equal(ours[name], oracle.model_field(m, name), err_msg=name)
