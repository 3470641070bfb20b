"""Boards whose cells are not all one size: a client that spreads its window's leftover pixels draws a
run of rows or columns a pixel taller or wider than the rest (GNOME Mines at 1000x700 draws ten columns
of 27 px, then twenty of 26, and four rows of 27 px, then twelve of 26). A grid of one pitch fitted to
the rest is then off by up to a third of a pitch on the run, and its rows and columns are looked for off
the even pitch. Drawn here in a made-up look (``tinted`` of :mod:`styles`: each digit on a tile of its
own colour, in one ink), not a real client's pixels."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from styles import _tinted, mid_game

from bot.board import Board, Cell
from bot.errors import RecognitionError
from bot.vision import cutting
from bot.vision.read import read_screen

MARGIN = 30


def _uneven(board: Board, widths: list[int], heights: list[int]) -> np.ndarray:
    """The board drawn with column ``c`` ``widths[c]`` px wide and row ``r`` ``heights[r]`` px tall (each
    cell drawn square at the larger side, then resized to its own), on a window of the look's grey."""
    painters = {size: _tinted(size) for size in set(widths) | set(heights)}
    lefts = MARGIN + np.concatenate([[0], np.cumsum(widths)[:-1]])
    tops = MARGIN + np.concatenate([[0], np.cumsum(heights)[:-1]])
    image = np.full((2 * MARGIN + sum(heights), 2 * MARGIN + sum(widths), 3), 235, np.uint8)
    for (r, c), state in np.ndenumerate(board.cells):
        w, h = widths[c], heights[r]
        tile = painters[max(w, h)](Cell(int(state)))
        if tile.shape[:2] != (h, w):
            tile = cv2.resize(tile, (w, h), interpolation=cv2.INTER_AREA)
        image[tops[r] : tops[r] + h, lefts[c] : lefts[c] + w] = tile
    return image


WIDTHS = [27] * 10 + [26] * 20
HEIGHTS = [27] * 4 + [26] * 12


FRESH = Board(np.full((16, 30), int(Cell.COVERED), np.int8))


def test_a_fresh_board_with_a_run_of_wider_cells_is_read_covered():
    """The first four columns lie 6-9 px off a grid of one pitch fitted to the rest: the rows and columns
    moved off the even pitch are looked for up to nearly half a pitch (:data:`cutting.UNEVEN_REACH`)."""
    reading = read_screen(_uneven(FRESH, WIDTHS, HEIGHTS), "generic")
    assert reading.board.shape == (16, 30)
    assert (reading.board.cells == Cell.COVERED).all()


def test_a_run_cut_across_is_refused_in_the_run_not_read_as_flags(monkeypatch):
    """Looked for only a few pixels off (the reach before session 15), the run's columns are cut across
    the edges of two covered tiles, at another place in each column. Read as flags of four looks, the
    board was misread (64 flags); a client draws its flag one way, so that reading is refused, and so is
    the board, naming a cell of the run."""
    monkeypatch.setattr(cutting, "UNEVEN_REACH", 0.12)
    with pytest.raises(RecognitionError) as refusal:
        read_screen(_uneven(FRESH, WIDTHS, HEIGHTS), "generic")
    assert refusal.value.cell is not None
    assert refusal.value.cell[1] < WIDTHS.count(27)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_board_in_play_with_a_run_of_wider_cells_is_read_exactly_or_refused(seed):
    """No cell misread, wherever the grid of one pitch is off (refused, naming a cell, is allowed)."""
    board = mid_game(16, 30, 99, seed, opened=0.3, flags=0)
    try:
        reading = read_screen(_uneven(board, WIDTHS, HEIGHTS), "generic")
    except RecognitionError:
        return
    assert np.array_equal(reading.board.cells, board.cells)
