"""Real captures damaged as users' recordings are (JPEG, GIF palettes, blur, sub-pixel shifts): each case
a sweep found misread or crashing, now read exactly (or refused)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from bot.board import Board
from bot.errors import RecognitionError
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


def _shift(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """The image moved by a fraction of a pixel, resampled linearly (a recording's sub-pixel offset)."""
    move = np.float32([[1, 0, dx], [0, 1, dy]])
    h, w = image.shape[:2]
    return cv2.warpAffine(image, move, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def test_a_won_boards_corner_flag_is_not_the_mine_that_went_off_half_a_pixel_over():
    """winemine's won 9x9 board (every mine flagged, no covered cell) moved half a pixel right: each
    1-px grid line blends into two pixels and the grid is placed a pixel or so early, so the flag in
    the bottom-left corner takes in a strip of the black window beyond the board. Drawn apart from
    the other flags only on its outer side, it was taken for a lost game's mine that went off, the
    flags for its shown mines. A mine that went off is framed all round: the board is the won one."""
    image, truth, mines = _capture("winemine/beginner_won.png")
    read = read_screen(_shift(image, 0.5, 0.0), "auto", mines=mines)
    assert np.array_equal(read.board.cells, truth.cells), read.board.to_text()


def _tinted(image: np.ndarray) -> np.ndarray:
    """A night-light tint: blue x0.6, green x0.85."""
    return np.clip(image * np.array([0.6, 0.85, 1.0]) + 0.5, 0, 255).astype(np.uint8)


def test_a_pitch_seeded_over_three_columns_is_refitted_over_the_whole_board():
    """xdemineur's lost 9x12 board, every cell a mine but 13 covered ones, tinted and scaled 1.5x
    (linear): the first faces linked span three columns, 32 px apart to the pixel, for a pitch of
    31.5; the full-size faces over the whole board say 31.5, but a refit could only nudge the pitch
    (0.48 px), so the grid drifted 4 px over twelve columns and a covered cell beside a mine read as
    a flag. The seed's pitch is only as sure as the span it was measured over."""
    image, truth, mines = _capture("xdemineur/dense_lost_7.png")
    damaged = cv2.resize(_tinted(image), None, fx=1.5, fy=1.5, interpolation=cv2.INTER_LINEAR)
    g = find_grid(damaged).geometry
    assert abs(g.pitch_x - 31.5) < 0.1 and abs(g.pitch_y - 31.5) < 0.1
    assert np.array_equal(read_screen(damaged, "auto", mines=mines).board.cells, truth.cells)


def test_a_covered_tile_with_no_glyph_is_never_a_flag():
    """ace's fresh board scaled 1.5x (linear) then saved as JPEG 85: the green window's colour bleeds
    into the bottom-right corner tile (JPEG keeps colour at half resolution), which is grouped apart
    from the other covered tiles though no ink of its own reaches its middle. Raised like a covered
    tile and "central" by default, it was named a flag: a glyph nobody saw. Read exactly or refused,
    never with a flag."""
    image, truth, mines = _capture("ace-minesweeper/board_fresh.png")
    scaled = cv2.resize(image, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_LINEAR)
    try:
        read = read_screen(_jpeg(scaled, 85), "auto", mines=mines).board
    except RecognitionError:
        return
    assert np.array_equal(read.cells, truth.cells), np.argwhere(read.cells != truth.cells)


def test_flat_specks_on_a_dithered_jpeg_tile_do_not_split_its_cells():
    """xbomb's fresh Expert board (dithered 20-px tiles) scaled 1.5x then saved as JPEG 85: flat specks
    the 8-px blocks leave on the dithered tiles sit at two heights in some cells, and the texture steps
    between the lines; but they are one to a cell in most cells that have any, so no cell is two:
    16 rows of 30 px, not 32 of 15."""
    image, truth, mines = _capture("xbomb/expert_fresh.png")
    scaled = cv2.resize(image, None, fx=1.5, fy=1.5, interpolation=cv2.INTER_LINEAR)
    g = find_grid(_jpeg(scaled, 85)).geometry
    assert (g.rows, g.cols) == truth.cells.shape
