"""Long body chains and branching trees compile as in MuJoCo: the body-dof sparsity (B_*,
built in one pass per body since chains made its old form cubic) must equal MuJoCo's
exactly, and the constants computed at qpos0 (dof_invweight0, body_invweight0, dof_M0)
within the compiled-field tolerance (1e-10), on the chain models of tests/models/chains and
on gymnasium's humanoid."""
import os

import numpy as np
import pytest

from harness import corpus, oracle, torsion

CHAIN_DIR = os.path.join(corpus.REPO_ROOT, "tests", "models", "chains")
MODELS = sorted(os.path.join(CHAIN_DIR, f) for f in os.listdir(CHAIN_DIR) if f.endswith(".xml"))
GYM = os.path.join(os.path.dirname(__import__("gymnasium").__file__), "envs", "mujoco", "assets")
MODELS.append(os.path.join(GYM, "humanoid.xml"))
COMPILED_TOL = 1e-10

# integer patterns: equal; constants at qpos0: within COMPILED_TOL relative to 1 + |value|
PATTERN = ["B_rownnz", "B_rowadr", "B_colind", "body_parentid", "body_dofnum", "body_dofadr"]
CONSTANTS = ["dof_invweight0", "body_invweight0", "dof_M0", "body_subtreemass"]


@pytest.mark.parametrize("path", MODELS, ids=os.path.basename)
def test_body_dof_pattern(path):
    m = oracle.load(path)
    ours = torsion.dump(path, PATTERN)
    for name in PATTERN:
        theirs = oracle.model_field(m, name)
        a = np.asarray(ours[name]).reshape(theirs.shape)
        assert np.array_equal(a, theirs), "%s differs from MuJoCo's (first at %s)" % (
            name, np.flatnonzero(a.ravel() != theirs.ravel())[:5])


@pytest.mark.parametrize("path", MODELS, ids=os.path.basename)
def test_qpos0_constants(path):
    m = oracle.load(path)
    ours = torsion.dump(path, CONSTANTS)
    for name in CONSTANTS:
        theirs = oracle.model_field(m, name)
        a = np.asarray(ours[name]).reshape(theirs.shape)
        err = np.max(np.abs(a - theirs) / (1 + np.abs(theirs))) if theirs.size else 0
        assert err <= COMPILED_TOL, "%s: max relative error %.3g" % (name, err)
