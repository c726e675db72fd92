"""params — pytest parametrization over the corpus: test ids name the model."""
import pytest

from . import corpus

MODELS = corpus.all_models()


def by_model(func):
    """Parametrize a test over every corpus model (argument `model`, id "gym/ant")."""
    return pytest.mark.parametrize("model", MODELS, ids=str)(func)
