"""params — pytest parametrization over the corpus: test ids name the model."""
import pytest

from . import corpus

MODELS = corpus.all_models()


def by_model(func):
    """Parametrize a test over every corpus model (argument `model`, id "gym/ant")."""
    return pytest.mark.parametrize("model", MODELS, ids=str)(func)


CONTACT_MODELS = corpus.contact_models()


def by_contact_model(func):
    """Parametrize a test over every model of the contact corpus (issue 3): the dynamics
    corpus plus the collision, constraint and test scenes (ids "local/scenes/box_tower")."""
    return pytest.mark.parametrize("model", CONTACT_MODELS, ids=str)(func)


def contact_cases(*axes):
    """pytest.param list over CONTACT_MODELS x axes (each a list of values), ids
    "model-a-b" as stacked parametrize decorators would give."""
    import itertools
    out = []
    for model in CONTACT_MODELS:
        for values in itertools.product(*axes):
            case_id = "-".join([model.id] + [str(v) for v in values])
            out.append(pytest.param(model, *values, id=case_id))
    return out
