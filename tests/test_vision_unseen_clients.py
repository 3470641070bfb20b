"""Real clients minebot was never built for, read with no skin: structure and logic, no remembered look."""

from pathlib import Path

import cv2
import numpy as np
import pytest
from styles import LOOKS, screenshot

from bot.board import Board, Cell
from bot.errors import RecognitionError
from bot.geometry import Geometry
from bot.vision import read_screen
from bot.vision.generic import read_cells

DATA = Path(__file__).resolve().parent / "data" / "unseen"


@pytest.mark.parametrize("look", ["flat", "mono", "gradient", "crossed"])
@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_a_fresh_board_of_flat_tiles_reads_all_covered(look, scale):
    """A fresh board is one look everywhere; with flat tiles nothing in the looks says covered rather
    than 0, but a board of 0s has no mine, and no game has none: it is read as all covered."""
    board = Board.from_text("\n".join(["." * 12] * 8), mines=10)
    image, geometry = screenshot(board, LOOKS[look], scale)
    assert (read_cells(image, geometry).states == Cell.COVERED).all()


def test_simon_tathams_mines_fresh_board():
    reading = read_screen(cv2.imread(str(DATA / "sgt_mines_fresh.png")), "generic")
    assert reading.board.shape == (16, 30)
    assert (reading.board.cells == Cell.COVERED).all()


def test_simon_tathams_mines_covered_and_revealed_tiles_told_apart_by_their_frames():
    """Covered tiles (light, a thin bevel) and revealed ones (a shade darker, a grid line) are close in
    colour; framed differently, they are two kinds, and the digits say which is revealed."""
    truth = Board.from_text((DATA / "sgt_mines_opening.txt").read_text())
    reading = read_screen(cv2.imread(str(DATA / "sgt_mines_opening.png")), "generic")
    assert np.array_equal(reading.board.cells, truth.cells), reading.board.to_text()


def test_one_flat_colour_is_no_board_of_covered_cells():
    """A window painted over in one colour (the client gone, a blank area) has cells of one look too,
    but no grid line, gap or bevel between them: refused, never read as a fresh board to click."""
    image = np.full((200, 300, 3), (190, 190, 185), np.uint8)
    with pytest.raises(RecognitionError, match="no grid line, gap or bevel"):
        read_cells(image, Geometry(10, 10, 20, 20, 8, 12))
