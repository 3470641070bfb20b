"""Docstring examples in the core modules run as tests."""

import doctest
import importlib

import pytest

MODULES = ["bot.board", "bot.game", "bot.geometry", "bot.hershey", "harness.colour"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
