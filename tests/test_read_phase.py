"""The skinless reading retried half a pixel off the grid found (``bot.vision.read.generic_at_phase``):
a one-pixel line between cells belongs to either, and the grid finder can sit on it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

import bot.vision.read as read
from bot.board import Board
from bot.errors import RecognitionError
from bot.vision import read_screen
from bot.vision.grid import find_grid

REAL = Path(__file__).parent / "data" / "real"


@pytest.mark.parametrize("name", ["winemine/beginner_lost", "ace-minesweeper/board_lost"])
def test_a_frame_refused_at_the_grid_found_reads_half_a_pixel_off(name):
    """Both frames are refused at the grid the finder gives and read exactly at one half-pixel shift of
    it; every shift that reads reads the same board."""
    png = REAL / f"{name}.png"
    image = cv2.imread(str(png))
    truth = Board.from_text(png.with_suffix(".txt").read_text())
    found = find_grid(image).geometry
    with pytest.raises(RecognitionError):
        read.read_cells(image, found, read.GenericModel())
    reading = read_screen(image, "generic")
    assert np.array_equal(reading.board.cells, truth.cells)
    moved = (reading.geometry.left - found.left, reading.geometry.top - found.top)
    assert moved in read.PHASE_STEPS


def test_shifts_that_read_different_boards_leave_the_refusal(monkeypatch):
    """When two shifts read two different boards, which one is right is not sure: the refusal at the
    grid found stands, with its own message."""
    png = REAL / "jsminesweeper" / "t24_z100" / "small_won.png"
    image = cv2.imread(str(png))
    found = find_grid(image).geometry
    real_read = read.read_cells

    def read_cells(image, geometry, model=None):  # type: ignore[no-untyped-def]
        cells = real_read(image, replace(geometry, left=found.left + 0.5, top=found.top + 0.5), model)
        if (geometry.left, geometry.top) == (found.left, found.top):
            raise RecognitionError("refused at the grid found")
        if geometry.left < found.left:  # shifts to the left read another board
            cells.states[0, 0] = (int(cells.states[0, 0]) + 1) % 9
        return cells

    monkeypatch.setattr(read, "read_cells", read_cells)
    with pytest.raises(RecognitionError, match="refused at the grid found"):
        read.find_generic(image)
