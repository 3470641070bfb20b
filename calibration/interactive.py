"""Ask a person about the groups calibration is unsure of, one question per group.

The prompt and output functions are passed in (the CLI passes ``input`` and ``print``), so this
runs the same in a terminal and in tests.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from bot.board import Cell
from calibration.model import CalibrationError, parse_state
from calibration.pipeline import Analysis

LOGGER = logging.getLogger(__name__)

HELP = "covered, flag, 0-8, mine, exploded, wrong_flag, or skip"
MAX_TRIES = 3


def ask_unsure(
    analysis: Analysis, sheet: Path, prompt: Callable[[str], str], say: Callable[[str], None]
) -> dict[int, Cell | None]:
    """For each unsure group, show the proposal and read a state (Enter accepts it); returns answers.

    Raises:
        CalibrationError: after three answers in a row that are not a state.
    """
    unsure = analysis.unsure()
    say(f"{len(unsure)} group(s) need your eye. Each is shown, numbered, in the contact sheet: {sheet}")
    answers: dict[int, Cell | None] = {}
    for p in unsure:
        g = analysis.groups[p.group]
        say(f"group #{g.id}: {g.count} cell(s), e.g. {analysis.example(g.id)}; proposed {p.describe()}")
        default = "skip" if p.state is None else None
        for _ in range(MAX_TRIES):
            text = prompt(f"  what is group #{g.id}? [{HELP}] (Enter = {default or 'accept'}): ").strip()
            if not text:
                answers[g.id] = p.state
                break
            try:
                answers[g.id] = parse_state(text)
                break
            except CalibrationError as exc:
                say(f"  {exc}")
        else:
            raise CalibrationError(f"no usable answer for group #{g.id} after {MAX_TRIES} tries")
    return answers
