"""Contact sets (issue 3, item 7): after mj_forward at 50 states per model (along a MuJoCo
trajectory that falls onto the floor, perturbations of it, and random states; see
harness/constraint_cases.py), Torsion's active contacts equal MuJoCo's as a set: the same
geom pairs and dims, dist within 1e-9, pos and frame within 1e-6. MuJoCo runs with islands
and native CCD disabled (docs/fidelity.md); all 50 states go to one `torsion-sim contacts`
call with --spec integration."""
import pytest

from harness.params import contact_cases
from harness import constraint_cases as cc
from harness import contacts, torsion


@pytest.mark.parametrize("model", contact_cases())
def test_contact_set(model):
    m = cc.load(model)
    states = cc.contact_states(model)
    theirs = cc.mujoco_contacts(model)
    ours = torsion.contacts(model.path, states, spec=cc.SPEC_NAME)
    contacts.check_sets(m, ours, theirs, "contact set after mj_forward")
