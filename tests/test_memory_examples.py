"""The worked examples in the memory modules' docstrings run, and give what they
show: an example that no longer matches the code fails here."""

import doctest
import importlib

import pytest

MODULES = ["tinyagent.memory.turns", "tinyagent.memory.compressed",
           "tinyagent.memory.budget", "tinyagent.memory.entities",
           "tinyagent.memory.fence", "tinyagent.production.eviction",
           "tinyagent.production.incremental",
           "tinyagent.lang", "tinyagent.chat_model"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_give_what_they_show(name):
    """Every `>>>` example of the module gives the output written under it."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no example"
    assert result.failed == 0, f"{result.failed} example(s) of {name} failed"
