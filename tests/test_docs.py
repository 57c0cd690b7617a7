"""Every public function and class of recfair has a docstring with an example (run as a doctest)."""

import importlib
import inspect
import pkgutil

import pytest

import recfair


def _public_objects():
    for info in pkgutil.walk_packages(recfair.__path__, "recfair."):
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if (inspect.isfunction(obj) or inspect.isclass(obj)) and obj.__module__ == module.__name__:
                yield f"{module.__name__}.{name}", obj


PUBLIC = dict(_public_objects())


def test_the_public_api_is_found():
    assert "recfair.evaluate.evaluate" in PUBLIC and "recfair.item_exposure.measures.jain_index" in PUBLIC
    assert len(PUBLIC) > 150


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_docstring_with_an_example(name):
    doc = inspect.getdoc(PUBLIC[name]) or ""
    assert doc.strip(), f"{name} has no docstring"
    assert ">>>" in doc, f"{name}'s docstring has no example (a doctest)"
