"""One module per ``minebot`` subcommand; see :mod:`bot.cli` for the contract each follows."""

import argparse


def positive(text: str) -> int:
    """argparse type for a count of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value
