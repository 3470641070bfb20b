"""One module per ``minebot`` subcommand; see :mod:`bot.cli` for the contract each follows.

The argparse types here turn a value that cannot be meant (a negative count, ``nan`` seconds) into a
usage error that says what was expected, before any work starts.
"""

import argparse
import math


def positive(text: str) -> int:
    """argparse type for a count of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def count(text: str) -> int:
    """argparse type for a count of 0 or more (mines, a seed, disturbances)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return value


def seconds(text: str) -> float:
    """argparse type for a duration: a number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0, got {text!r}")
    return value


def scale(text: str) -> float:
    """argparse type for a display scale: a number above 0 (1.25 for 125%)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a scale above 0 (1.25 for 125%), got {text!r}")
    return value
