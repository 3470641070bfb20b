"""Numbers whose shapes fit a digit but not clearly (small anti-aliased glyphs: GNOME Mines' at 26 px),
each on a ground of its own colour (a theme giving every number its own tile colour), around a lone
0. Neither naming path may misread them: a lone flat cell is left to the logic (a 0, or a covered tile
the pointer lit), and the rule refusing unclear digits must hold in both readings; nor may glyphs the
counts do not refute as digits be taken for flags on a tile of their own. Drawn in the made-up look
``tinted`` of :mod:`styles` at 32 px, the chosen number's shape distances raised past
:data:`bot.vision.generic.CLEAR_DIGIT` (its order kept), not a real client's pixels."""

from __future__ import annotations

import numpy as np
import pytest
from styles import mid_game
from test_uneven_cells import _uneven

from bot.board import Board, Cell
from bot.errors import RecognitionError
from bot.solver.rules import count_around
from bot.vision import cutting, describe, generic, tilekinds
from bot.vision.read import read_screen

MINES = [(2, 2), (2, 3), (2, 6), (3, 6), (5, 6), (6, 6), (6, 4), (6, 2), (4, 2), (1, 5)]


def _board() -> Board:
    """A 9x9 board with the 3x3 block around a 0 open: 3 1 2 / 1 0 2 / 3 1 3, the rest covered."""
    mines = np.zeros((9, 9), bool)
    mines[tuple(np.array(MINES).T)] = True
    cells = np.full((9, 9), int(Cell.COVERED), np.int8)
    cells[3:6, 3:6] = count_around(mines)[3:6, 3:6]
    return Board(cells)


def _unclear(monkeypatch: pytest.MonkeyPatch, digit: int) -> None:
    """Every glyph group the reader takes for ``digit`` made unclear: its shape distances raised so the
    nearest is just past :data:`bot.vision.generic.CLEAR_DIGIT`, their order kept."""
    shapes = tilekinds._glyph_shapes

    def unclear(groups: list[cutting.Group], kinds: list[tilekinds.Kind]) -> None:
        shapes(groups, kinds)
        for g in groups:
            if g.shape == cutting.Shape.DIGIT and g.digit == digit:
                assert g.costs is not None and g.raw_costs is not None and g.weighted is not None
                lift = describe.CLEAR_DIGIT + 0.05 - float(g.costs.min())
                g.costs, g.raw_costs, g.weighted = g.costs + lift, g.raw_costs + lift, g.weighted + lift

    monkeypatch.setattr(tilekinds, "_glyph_shapes", unclear)
    monkeypatch.setattr(generic, "_glyph_shapes", unclear)


@pytest.mark.parametrize("digit", [1, 2, 3])
def test_unclear_numbers_around_a_lone_zero_are_refused_not_misread(monkeypatch, digit):
    """Read with the lone 0 taken as covered (and so no unclear rule), the board was misread; it is
    refused now, naming a cell of the open block."""
    _unclear(monkeypatch, digit)
    board = _board()
    assert board.cells[4, 4] == Cell.ZERO and (board.cells[3:6, 3:6] == digit).any()
    with pytest.raises(RecognitionError) as refusal:
        read_screen(_uneven(board, [32] * 9, [32] * 9), "generic")
    assert refusal.value.cell is not None
    assert 3 <= refusal.value.cell[0] <= 5 and 3 <= refusal.value.cell[1] <= 5


@pytest.mark.parametrize("seed", [5, 6, 7, 9])
def test_unclear_numbers_the_counts_allow_are_not_read_as_flags(monkeypatch, seed):
    """Boards in play whose 3s, unclear, were read as flags on a tile of their own (the board's counts
    allow a flag wherever a mine may be): digits named by shape and counts fit there, so the flags are
    not the only reading, and the board is refused, never misread."""
    _unclear(monkeypatch, 3)
    board = mid_game(9, 9, 10, seed, opened=0.3, flags=0)
    assert (board.cells == Cell.THREE).any()
    try:
        reading = read_screen(_uneven(board, [32] * 9, [32] * 9), "generic")
    except RecognitionError:
        return
    assert np.array_equal(reading.board.cells, board.cells)
