"""How a game's end is seen when not every cell can be read: the face, an exploded mine, every safe
cell open.

A won or lost screen often shows something the skin cannot read (every mine flagged with a flag the
skin never saw, a mine look of its own, a glyph drawn over the board). It is read as the end it is,
not as an error, when what can be read decides it.
"""

from __future__ import annotations

import numpy as np

from bot.board import Board, Cell
from bot.game import GameStatus


def judge_end(
    states: np.ndarray, sure: np.ndarray, face: GameStatus | None, previous: Board | None, mines: int | None
) -> tuple[GameStatus, str] | None:
    """``(status, how)`` when the screen shows an ended game, else None.

    ``states`` is each cell's best reading and ``sure`` where it is certain. The face decides when it
    shows an end. Otherwise a mine, exploded mine or wrong flag read for certain (drawn only once a
    game is lost) is a loss, and a board whose certain
    numbers are every safe cell (``mines`` known) is a win, provided no cell revealed before reads
    differently (that would be a misread, not an end).
    """
    if face in (GameStatus.WON, GameStatus.LOST):
        return face, "face"
    changed = (
        previous is not None
        and previous.shape == states.shape
        and previous.revealed_mask() & (states != previous.cells)
    )
    if np.any(sure & changed):
        return None
    if (sure & np.isin(states, (Cell.EXPLODED, Cell.MINE, Cell.WRONG_FLAG))).any():
        return GameStatus.LOST, "board"
    if mines is not None and int((sure & (states <= Cell.EIGHT)).sum()) == states.size - mines:
        return GameStatus.WON, "board"
    return None
