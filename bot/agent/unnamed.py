"""Moves certain whatever an unnamed cell shows: play on around a cell the reader cannot name.

A reader that cannot name a cell refuses the frame rather than guess. It may still say what the board
can be: the whole readings its structure and the board's logic allow (``RecognitionError.alternatives``),
or the cells it reads surely, the others unknown. A move the solver proves under every reading the screen
may show is proven: each reading is solved on its own, a reading no arrangement of mines fits is dropped
(the screen cannot show it), and only a cell proven safe (or a mine) in every reading left is played.
A cell whose state is unknown is taken as covered (:func:`relaxed`): every arrangement of mines the true
board allows is one the relaxed board allows too (the unknown cell is then simply no mine, its number is
one constraint fewer), so what the relaxed board proves holds on the true one. Nothing here guesses: when
no move is certain under every reading, nothing is played.

Pure functions of boards: the solver knows nothing of screens, this module nothing of pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.board import Board, Cell, Coord
from bot.errors import ContradictionError
from bot.solver import Action, Move, probability_grid

REASON = "certain under every reading the screen may show"


@dataclass(frozen=True)
class Consensus:
    """What every reading left agrees on: the board to remember and the moves certain under all."""

    board: Board
    """The cells every reading left shows alike; the others (unnamed) as covered."""
    moves: list[Move]
    kept: int
    """Readings no arrangement of mines rules out."""
    unnamed: np.ndarray
    """Cells whose state is unknown or differs between readings: never clicked."""


def relaxed(board: Board, unknown: np.ndarray) -> Board:
    """``board`` with every ``unknown`` cell taken as covered (a board whose proofs hold on the true one)."""
    cells = board.cells.copy()
    cells[unknown] = int(Cell.COVERED)
    return Board(cells, board.mines)


def disagreement(readings: Sequence[Board]) -> np.ndarray:
    """The cells some of ``readings`` show otherwise than the first."""
    first = readings[0].cells
    differ = np.zeros(first.shape, dtype=bool)
    for board in readings[1:]:
        differ |= board.cells != first
    return differ


def proven(board: Board) -> tuple[np.ndarray, np.ndarray] | None:
    """The covered cells the solver proves safe and proves mines on ``board`` (exact counts only: an
    approximated region proves nothing here), or None when no arrangement of mines fits it.

    Raises:
        GameOverError: the board shows an ended game.
    """
    try:
        grid, exact = probability_grid(board)
    except ContradictionError:
        return None
    covered = board.covered_mask()
    if not exact:
        nothing = np.zeros(covered.shape, dtype=bool)
        return nothing, nothing.copy()
    return covered & (grid == 0.0), covered & (grid == 1.0)


def consensus(
    readings: Sequence[Board], unknown: np.ndarray | None = None, flags: bool = False
) -> Consensus | str:
    """The moves certain under every reading (opens; with ``flags`` also flags), or why there are none.

    ``unknown``: cells no reading names (taken as covered in each, never clicked); cells the readings
    show differently are never clicked either.

    Raises:
        GameOverError: a reading shows an ended game (no move is certain on a game that may be over).
    """
    if not readings:
        return "no reading is left"
    shape = readings[0].shape
    unknown = np.zeros(shape, dtype=bool) if unknown is None else unknown
    boards = [relaxed(board, unknown) for board in readings]
    safe = np.ones(shape, dtype=bool)
    mines = np.ones(shape, dtype=bool)
    kept: list[Board] = []
    for board in boards:
        found = proven(board)
        if found is None:
            continue  # no arrangement of mines fits it: the screen cannot show it
        kept.append(board)
        safe &= found[0]
        mines &= found[1]
    if not kept:
        return "no arrangement of mines fits any reading"
    unnamed = unknown | disagreement(kept)
    safe &= ~unnamed
    mines &= ~unnamed
    agreed = kept[0].cells.copy()
    agreed[unnamed] = int(Cell.COVERED)
    board = Board(agreed, kept[0].mines)
    moves = [Move(Action.OPEN, cell, 0.0, REASON, (cell,)) for cell in _cells(safe)]
    if flags:
        moves += [Move(Action.FLAG, cell, 1.0, REASON) for cell in _cells(mines)]
    if not any(move.action is Action.OPEN for move in moves):
        return f"no cell is safe under every one of {len(kept)} reading(s)"
    return Consensus(board, moves, len(kept), unnamed)


def _cells(mask: np.ndarray) -> list[Coord]:
    return [(int(r), int(c)) for r, c in np.argwhere(mask)]
