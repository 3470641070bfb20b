"""What one look at the board gave (:class:`Sight`), why a look cannot be trusted (:class:`Problem`),
the last clicks a screen is judged against, and the errors the play loop stops on."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from bot.agent.checks import near
from bot.board import Board, Cell
from bot.errors import (
    MinebotError,
    RecognitionError,
)
from bot.game import GameStatus
from bot.geometry import Geometry
from bot.solver import Move

LOGGER = logging.getLogger(__name__)


class MisreadError(RecognitionError):
    """The screen kept showing a board inconsistent with what was seen before; nothing was clicked."""


class BoardGoneError(MinebotError):
    """The board being played is no longer on the screen (closed, covered for too long, or replaced)."""


@dataclass
class Sight:
    """One reading of the board: the board, the game status, the image, and how an end was seen."""

    board: Board
    status: GameStatus
    image: np.ndarray
    ended_by: str = ""


@dataclass(frozen=True)
class LastClicks:
    """The clicks of the last move, what they were decided on, and whether the screen changed after
    them: what a screen no reader can read is judged from (:meth:`Player._judged_by_logic`)."""

    board: Board
    image: np.ndarray
    moves: tuple[Move, ...]
    """The moves sent."""
    answered: bool
    planned: tuple[Move, ...] = ()
    """Every move decided on that reading (a batch stops at a cell an earlier click already opened)."""
    geometry: Geometry | None = None
    """The board's geometry in ``image`` (the region grabbed may grow before the next reading); None:
    where it is now."""


@dataclass
class Problem:
    """Why a reading cannot be trusted; ``unreadable`` when cells could not be read at all (a cover,
    a move, a state never seen) rather than read inconsistently."""

    text: str
    image: np.ndarray | None
    unreadable: bool
    sight: Sight | None = None
    """The complete reading that could not be trusted, if there was one."""
    moved: bool = False
    """The window's ring around the board changed: the window moved or was covered (nothing was read)."""
    drawing: bool = False
    """The board changed while it was read: the client was still drawing (a step of an animation came
    after the loop took the screen for still), so the reading is of a half-drawn board."""


SHOWN_ONLY_AT_THE_END = (Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG)
"""States no client draws while a game is on."""


def shows_the_end(board: Board) -> bool:
    """Whether the board shows a state drawn only once a game is lost (a mine, an exploded mine, a
    wrong flag)."""
    return bool(np.isin(board.cells, SHOWN_ONLY_AT_THE_END).any())


def run_into(previous: Board, states: np.ndarray, unknown: np.ndarray) -> np.ndarray:
    """The cells open on ``previous`` that a reading (``states``, ``unknown`` where unsure) leaves
    unknown beside a cell opened since (covered before, open or unknown now): its glyph may run into them."""
    opened = previous.covered_mask() & ((states <= Cell.EIGHT) | unknown)
    return unknown & ~previous.covered_mask() & near(opened)


def read_counter(image: np.ndarray, reading: object) -> int | None:
    """The client's mine counter on a whole-screen image, or None when it cannot be read.

    Uses ``Reading.mines`` when the reader offers it, else ``bot.vision.counter.read_mine_counter``
    (given the board read from the same image: it tells the mine counter from the timer).
    """
    value = getattr(reading, "mines", None)
    if isinstance(value, int):
        return value
    try:
        from bot.vision.counter import read_mine_counter  # type: ignore[import-not-found]
    except ImportError:
        return None
    try:
        return read_mine_counter(image, reading.geometry, reading.board)  # type: ignore[attr-defined]
    except MinebotError as exc:
        LOGGER.info("the mine counter cannot be read: %s", exc)
        return None
