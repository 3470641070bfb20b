"""One module per ``minebot`` subcommand; see :mod:`bot.cli` for the contract each follows.

The argparse types here turn a value that cannot be meant (a negative count, ``nan`` seconds) into a
usage error that says what was expected, before any work starts.
"""

import argparse
import math
from collections.abc import Callable
from typing import TypeVar

Number = TypeVar("Number", int, float)
Found = TypeVar("Found")


def _number(
    text: str, kind: Callable[[str], Number], fits: Callable[[Number], bool], expected: str
) -> Number:
    """``text`` read by ``kind`` when ``fits`` accepts it; else a usage error saying what was expected."""
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not fits(value):
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
    return value


def positive(text: str) -> int:
    """argparse type for a count of at least 1."""
    return _number(text, int, lambda value: value >= 1, "a whole number >= 1")


def count(text: str) -> int:
    """argparse type for a count of 0 or more (mines, a seed, disturbances)."""
    return _number(text, int, lambda value: value >= 0, "a whole number >= 0")


def seconds(text: str) -> float:
    """argparse type for a duration: a number of seconds, 0 or more."""
    return _number(text, float, lambda value: 0 <= value < math.inf, "a number of seconds >= 0")


def scale(text: str) -> float:
    """argparse type for a display scale: a number above 0 (1.25 for 125%)."""
    return _number(text, float, lambda value: 0 < value < math.inf, "a scale above 0 (1.25 for 125%)")


def looked_up(text: str, find: Callable[[str], Found]) -> Found:
    """``find(text)``, its ValueError (which names the valid values) turned into a usage error."""
    try:
        return find(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
