"""A won board read by its flags: every cell open but the mines, each flagged, none of them gone off.

Why: a client that flags every mine when a game is won leaves no covered tile in plain sight; its flags
sit on covered tiles the reader cannot tell from revealed ones (a low-contrast theme, flat tiles), so
they are read as shown mines, and a board of shown mines none of which went off is refused ("a flag
drawn so fits as well"). A lost game shows the mine that went off apart from the others; a board whose
mine-like glyphs are all one look on one kind of tile, none apart, is no lost game. Read as flags it is
a won board only when every number equals the flags around it, every cell is a number, a 0 or a flag,
and the counts allow it (:func:`bot.vision.naming.no_game_shows`); anything else is refused as before.
"""

from __future__ import annotations

import numpy as np

from bot.board import Cell
from bot.solver.rules import count_around
from bot.vision.cutting import Group, Shape
from bot.vision.describe import CLEAR_DIGIT, _rim
from bot.vision.naming import OWN_GROUND_STEP, _name_digits, no_game_shows
from bot.vision.tilekinds import _drawn_alike


def won_reading(groups: list[Group], rows: int, cols: int) -> list[Cell] | None:
    """A state for every group of a board read as won (named groups, as :func:`name_groups` leaves them),
    or None when the board is not surely one. The flags are one look: a glyph that is no clear digit (a
    mine, a mark, an unclear digit) and those drawn alike to it on a ground alike to its (each on a tile
    of one revealed-looking kind, or each on a ground of its own within :data:`OWN_GROUND_STEP`: none
    apart, as the mine that went off is drawn). Every plain group is a 0, every other glyph a digit
    named by shape and counts (one no digit fits clearly: its nearest digit by shape), every number
    equal to the flags around it, no covered cell anywhere. Each such look is tried; exactly one must
    fit."""
    plain = [g for g in groups if g.shape == Shape.PLAIN]
    if not plain or any(g.kind is None for g in plain) or any(g.raised for g in groups):
        return None  # a raised (covered) tile shows: not every covered cell is flagged
    if any(g.shape == Shape.CROSS for g in groups):
        return None  # a wrong flag: a lost game
    looks = [
        i
        for i, g in enumerate(groups)
        if g.shape in (Shape.MINE, Shape.MARK)
        or (g.shape == Shape.DIGIT and (g.costs is None or g.costs.min() > CLEAR_DIGIT))
    ]
    grounds = {i: np.median(_rim(groups[i].tile), axis=0) for i in looks}
    fits, tried = [], set()
    for c in looks:
        flagged = tuple(
            i
            for i in looks
            if i == c
            or (
                (groups[i].base is None) == (groups[c].base is None)
                and groups[i].kind == groups[c].kind
                and float(np.abs(grounds[i] - grounds[c]).max()) <= OWN_GROUND_STEP
                and _drawn_alike(groups[i], groups[c])
            )
        )
        if flagged not in tried:
            tried.add(flagged)
            found = _as_won(groups, flagged, rows, cols, 1 + max(g.kind for g in plain))  # type: ignore[type-var]
            fits += [found] if found is not None else []
    return fits[0] if len(fits) == 1 else None


def _as_won(
    groups: list[Group], flagged: tuple[int, ...], rows: int, cols: int, kinds: int
) -> list[Cell] | None:
    """Every group's state with ``flagged`` the flags of a won board, or None when no won board fits."""
    states: list[Cell | None] = [
        Cell.FLAG if i in flagged else Cell.ZERO if g.shape == Shape.PLAIN else None
        for i, g in enumerate(groups)
    ]
    for i, g in enumerate(groups):
        if states[i] is None:
            if g.costs is None or g.shape == Shape.MINE:
                return None  # a mine drawn otherwise than the flags (one gone off?): no won board
            states[i] = Cell(g.digit)  # a mark's nearest digit by shape: its flags around must agree
    if _name_digits(groups, states, rows, cols, (False,) * kinds, unclear=True) is not None:
        return None
    board = np.empty(rows * cols, np.int8)
    for g, s in zip(groups, states, strict=True):
        board[g.members] = int(s)  # type: ignore[arg-type]
    cells = board.reshape(rows, cols)
    numbers = cells <= Cell.EIGHT
    if not (cells[numbers] == count_around(cells == Cell.FLAG)[numbers]).all():
        return None  # a number unlike its flags: no won board
    if no_game_shows(cells) is not None:
        return None
    return [s for s in states if s is not None]


__all__ = ["won_reading"]
