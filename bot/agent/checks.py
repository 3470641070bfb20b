"""Checks of a reading against the board's own logic: what never changes, what a client never draws.

Pure functions of boards; the play loop re-reads (never clicks) when one fails.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from bot.board import Board, Cell, Coord
from bot.solver import Action, Move


def check_progress(before: Board, after: Board, clicked: Iterable[Coord] = ()) -> Coord | None:
    """The first cell whose reading went backwards (a revealed number changed or vanished), or None.

    During play a revealed cell never changes. One exception: a cell just ``clicked`` that read as 0
    may have been the client's pressed-button look (winemine draws it like a 0); it may turn into its
    number. That early 0 had no covered neighbour (see :func:`unsettled_zero`), so nothing was deduced
    from it. (End-of-game states are checked by the caller.)
    """
    was_revealed = before.revealed_mask()
    changed = was_revealed & (after.cells != before.cells)
    for cell in clicked:
        if before[cell] == Cell.ZERO and after[cell].is_number():
            changed[cell] = False
    return first_cell(changed)


def first_cell(mask: np.ndarray) -> Coord | None:
    """The first true cell of ``mask`` in reading order, or None: the cell a check names as its reason."""
    found = np.argwhere(mask)
    return None if len(found) == 0 else (int(found[0][0]), int(found[0][1]))


def near(mask: np.ndarray) -> np.ndarray:
    """Every cell of ``mask`` and its neighbours (a 3x3 dilation)."""
    padded = np.pad(mask, 1)
    rows, cols = mask.shape
    out = np.zeros(mask.shape, dtype=bool)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            out |= padded[dr : dr + rows, dc : dc + cols]
    return out


def unexplained_change(
    before: Board,
    after: Board,
    reach: np.ndarray,
    flagged: np.ndarray | None = None,
    unknown: np.ndarray | None = None,
) -> Coord | None:
    """The first cell that changed from covered since ``before`` where no click explains it, or None.

    A client opens a cell only where it was clicked (or chorded around: ``reach`` holds every cell
    the game's clicks could have opened or flagged) or next to a revealed 0 (its area opens), and
    flags only where it was right-clicked (``flagged``, when given: every cell the game flagged). A
    number or a flag anywhere else is a misread: something drawn over the board (a tooltip, another
    window) read as a digit or a flag; a left-clicked cell read as a flag is one too. ``unknown``:
    cells shown as covered only because they could not be named (each may be the 0 that opened them).
    """
    changed = (before.cells == Cell.COVERED) & (after.cells != Cell.COVERED)
    zero = after.cells == Cell.ZERO
    if unknown is not None:
        zero = zero | unknown
    explained = reach | (after.revealed_mask() & near(zero))
    if flagged is not None:
        explained &= (after.cells != Cell.FLAG) | flagged
    bad = changed & ~explained
    return first_cell(bad)


def flags_on_a_new_game(before: Board | None, after: Board) -> list[Coord]:
    r"""The flags ``after`` shows where it replaced the played game ``before`` showed: misreads.

    A revealed cell is never covered again within a game, so a board showing nothing but covered cells
    and flags where ``before`` showed revealed ones is a new game; and a game just started has no
    flag (no client keeps flags into a new game), so each flag read there is something drawn over the
    board (JSMinesweeper's hover tooltip read as a flag, a 4 and a flag). With ``before`` unknown (a
    dialog over it) or showing nothing revealed (a board of flags only: a lost board's mines misread
    as flags, still there when the new-game key did nothing) nothing is said: none.

    >>> played = Board.from_text("1.\n..", mines=1)
    >>> flags_on_a_new_game(played, Board.from_text("..\n.F", mines=1))
    [(1, 1)]
    >>> flags_on_a_new_game(Board.from_text("F.\n..", mines=1), Board.from_text("..\n.F", mines=1))
    []
    """
    if before is None or before.shape != after.shape or not before.revealed_mask().any():
        return []
    if not np.isin(after.cells, (Cell.COVERED, Cell.FLAG)).all():
        return []
    return after.flagged()


def unsettled_zero(board: Board, unknown: np.ndarray | None = None) -> Coord | None:
    """A revealed 0 next to a covered cell, or None.

    Every client opens all neighbours of a 0 at once, so such a reading means the client had not
    finished drawing (or a pressed cell looked like a 0): read again, never act on it. ``unknown``:
    cells shown as covered only because they could not be named (a 0's neighbour that is one is open).
    """
    covered = board.covered_mask() if unknown is None else board.covered_mask() & ~unknown
    bad = (board.cells == Cell.ZERO) & near(covered)
    return first_cell(bad)


def flag_the_rest(board: Board) -> list[Move]:
    """When every covered cell left must be a mine, flag them all; else no move.

    Some clients (xdemineur) declare a win only once every mine is flagged; the others have already
    declared it by then, so this never costs a click there.
    """
    covered = board.covered()
    if not covered or board.mines is None or len(covered) != board.mines - len(board.flagged()):
        return []
    return [Move(Action.FLAG, cell, 1.0, "every covered cell left is a mine") for cell in covered]


def same_game(previous: Board, states: np.ndarray, sure: np.ndarray) -> Coord | None:
    """The first cell that shows a board found elsewhere is not the game being played, or None.

    ``states`` is the found board's reading and ``sure`` where it is certain. Every cell revealed
    before must read the same wherever it can be read, and every revealed cell a certain reading shows
    must have been covered or the same before (a game only moves forward).
    """
    if states.shape != previous.shape:
        return (0, 0)
    revealed_before = previous.revealed_mask()
    differs = sure & revealed_before & (states != previous.cells)
    return first_cell(differs)
