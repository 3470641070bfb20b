"""Real captures damaged as users' recordings are (JPEG, GIF palettes, blur, sub-pixel shifts): each case
a sweep found misread or crashing, now read exactly (or refused)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.board import Board
from bot.vision import read_screen
from bot.vision.grid import find_grid

REAL = Path(__file__).parent / "data" / "real"


def _capture(name: str) -> tuple[np.ndarray, Board, int]:
    """A real capture, its truth board and its mine count."""
    png = REAL / name
    lines = png.with_suffix(".txt").read_text().splitlines()
    truth = Board.from_text("\n".join(line for line in lines if line[:1] != "#"))
    mines = int(next(line for line in lines if line.startswith("# mines:")).split(":")[1])
    return cv2.imread(str(png)), truth, mines


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def test_a_jpeg_board_of_12px_cells_is_not_read_at_24px():
    """ace's fresh 32x32 board (12-px cells) saved as JPEG (quality 85): the 8-px blocks leave only
    every other cell flat enough for the half-size face mask, and the covered tiles repeat exactly
    only every 24 px (8 and 12's least common multiple), so the board was found, and read, as 16x16
    cells of four tiles each. The flat faces found at full size sit two to a 24-px cell each way:
    the board's pitch is 12."""
    image, truth, mines = _capture("ace-minesweeper/board_fresh.png")
    damaged = _jpeg(image, 85)
    g = find_grid(damaged).geometry
    assert (g.rows, g.cols) == truth.cells.shape
    assert abs(g.pitch_x - 12) < 0.1 and abs(g.pitch_y - 12) < 0.1
    assert np.array_equal(read_screen(damaged, "auto", mines=mines).board.cells, truth.cells)

