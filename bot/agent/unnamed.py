"""Moves certain whatever an unnamed cell shows: play on around a cell the reader cannot name.

A reader that cannot name a cell refuses the frame rather than guess. It may still say what the board
can be: the whole readings its structure and the board's logic allow (``RecognitionError.alternatives``),
or the cells it reads surely, the others unknown. A move the solver proves under every reading the screen
may show is proven: each reading is solved on its own, a reading no arrangement of mines fits is dropped
(the screen cannot show it), and only a cell proven safe (or a mine) in every reading left is played.
A cell whose state is unknown is taken as covered (:func:`relaxed`): every arrangement of mines the true
board allows is one the relaxed board allows too (the unknown cell is then simply no mine, its number is
one constraint fewer), so what the relaxed board proves holds on the true one. When no move is certain
under every reading, a guess is chosen the same way whatever the screen shows (:func:`guess_around`): with
one whole reading left, the solver's own guess on it; else the cell whose chance of a mine is lowest in
the worst reading, each unnamed cell taken as covered or as each number in turn. Never an unnamed cell.

Pure functions of boards: the solver knows nothing of screens, this module nothing of pixels.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.board import Board, Cell, Coord
from bot.errors import ContradictionError
from bot.game import FirstClickRule
from bot.solver import Action, Move, choose_moves, probability_grid

REASON = "certain under every reading the screen may show"

MAX_READINGS = 100
"""Most whole readings a guess around unnamed cells is weighed over (each unnamed cell covered or a
number it may show): with more, no guess is made (the frame is read again, and the game stops as
before)."""


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


def possible_states(board: Board, cell: Coord) -> list[Cell]:
    """What an unnamed ``cell`` of ``board`` (taken as covered, as the other unnamed cells) may show:
    still covered, or each number its covered neighbours can hold that some arrangement of mines fits
    (the others taken as covered allow every arrangement the truth does, so none fitting rules it out)."""
    room = sum(board[n] in (Cell.COVERED, Cell.FLAG) for n in board.neighbours(cell))
    states = [Cell.COVERED]
    for value in range(int(Cell.ZERO), int(Cell.ZERO) + room + 1):
        grid = board.cells.copy()
        grid[cell] = value
        try:
            probability_grid(Board(grid, board.mines))
        except ContradictionError:
            continue
        states.append(Cell(value))
    return states


def completions(board: Board, unknown: np.ndarray) -> list[Board] | None:
    """Every whole reading ``board`` may be, each ``unknown`` cell covered or a number it may show
    (:func:`possible_states`), or None when there are more than :data:`MAX_READINGS`."""
    cells = _cells(unknown)
    options = []
    for cell in cells:
        options.append(possible_states(board, cell))
        if math.prod(map(len, options)) > MAX_READINGS:
            return None
    out = []
    for states in itertools.product(*options):
        grid = board.cells.copy()
        for cell, state in zip(cells, states, strict=True):
            grid[cell] = int(state)
        out.append(Board(grid, board.mines))
    return out


def guess_around(
    readings: Sequence[Board], unknown: np.ndarray, rule: FirstClickRule | str = "safe"
) -> Consensus | str:
    """A guess chosen the same way under every reading the screen may show, or why there is none.

    With no ``unknown`` cell and one reading, the solver's own move on it (what it plays on any board
    it reads whole). Otherwise every reading is completed (:func:`completions`), each completion solved
    on its own (one no arrangement of mines fits is dropped: the screen cannot show it), and the cell
    covered in every completion whose chance of a mine is lowest in the worst of them is opened (ties:
    the lowest mean chance): the true reading is among them, so its chance is at most the one given.
    A cell unknown or shown otherwise by some reading, or a mine in one, is never clicked; nothing is
    guessed when a reading shows every safe cell open (the game may be won).

    Raises:
        GameOverError: a reading shows an ended game.
    """
    if not readings:
        return "no reading is left"
    never = unknown | disagreement(readings)
    if len(readings) == 1 and not never.any():
        board = readings[0]
        try:
            moves = choose_moves(board, board.mines, rule)
        except ContradictionError:
            return "no arrangement of mines fits the reading"
        return Consensus(board, moves, 1, never)
    whole: list[Board] = []
    for board in readings:
        filled = completions(relaxed(board, unknown), unknown)
        if filled is None:
            return f"{int(unknown.sum())} unnamed cells are too many to weigh a guess over"
        whole.extend(filled)
    worst = np.zeros(never.shape)
    mean = np.zeros(never.shape)
    kept = 0
    for board in whole:
        try:
            grid, _ = probability_grid(board)
        except ContradictionError:
            continue
        if int(board.covered_mask().sum()) + int(board.flagged_mask().sum()) == board.mines:
            return "a reading the screen may show is a won game (every safe cell open)"
        chance = np.where(board.covered_mask() & ~np.isnan(grid), grid, np.inf)
        worst, mean, kept = np.maximum(worst, chance), mean + chance, kept + 1
    if not kept:
        return "no arrangement of mines fits any reading"
    worst[never | (worst >= 1.0)] = np.inf  # never a cell some reading proves a mine
    if not np.isfinite(worst).any():
        return "no cell is covered and may be safe in every reading"
    best = np.argwhere(worst == worst.min())
    cell = min((tuple(int(v) for v in c) for c in best), key=lambda c: mean[c])
    chance = float(worst[cell])
    reason = f"a guess, {chance:.0%} at worst under every one of {kept} whole reading(s) the screen may show"
    if chance == 0.0:  # the unnamed cells' numbers taken in turn prove what the relaxed board did not
        reason = f"{REASON} ({kept} whole reading(s))"
    agreed = readings[0].cells.copy()
    agreed[never] = int(Cell.COVERED)
    move = Move(Action.OPEN, cell, chance, reason, (cell,))
    return Consensus(Board(agreed, readings[0].mines), [move], len(readings), never)


def _cells(mask: np.ndarray) -> list[Coord]:
    return [(int(r), int(c)) for r, c in np.argwhere(mask)]
