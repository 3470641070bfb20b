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


def test_simon_tathams_mines_status_line_gives_no_mine_count():
    """Its status line, ``[0:00] Marked: 0 / 99``, holds no mines-left counter. The strip of light
    panel between the timer's last ``0`` and its ``]`` was read as a light ``3``, the last word of a
    labelled line, and play took 3 mines left on a 99-mine board (a custom board would have been
    played with them). A glyph in the panel's own colour is no glyph."""
    from bot.vision.counter import mine_counter

    image = cv2.imread(str(DATA / "sgt_mines_fresh.png"))
    board = Board.from_text("\n".join(["." * 30] * 16), mines=99)
    for left in (27.95, 29.875):  # the grid as the skinless reader and the classic skin find it
        counter = mine_counter(image, Geometry(left, 54.9, 20, 20, 16, 30), board)
        assert counter.value is None and not counter.displays, (left, counter)


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


def _star(tile: np.ndarray, colour: tuple[int, int, int]) -> None:
    """A six-pointed star (two triangles) in the middle of a tile."""
    s = tile.shape[0]
    centre, outer = np.array([(s - 1) / 2, (s - 1) / 2]), 0.3 * s
    for start in (90, 270):
        angles = np.radians([start, start + 120, start + 240])
        points = centre + outer * np.stack([np.cos(angles), -np.sin(angles)], axis=1)
        cv2.fillPoly(tile, [np.round(points * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


def _rounded_look(cell: int = 35, digit_grounds: bool = False):
    """A made-up look after a modern desktop client: flat rounded tiles with a gap of window colour, a
    lost game's mines as a dark star on a darker covered-shape tile, the mine that went off as a red
    star on its revealed tile; digits in one dark ink, on grounds of their own colour if asked."""
    from styles import TINTS, Look, _digit

    window, covered, revealed, mine_tile = (244, 245, 246), (182, 185, 180), (222, 224, 220), (128, 130, 125)

    def tile(fill: tuple[int, int, int]) -> np.ndarray:
        t = np.full((cell, cell, 3), window, np.uint8)
        cv2.rectangle(t, (2, 2), (cell - 3, cell - 3), fill, -1, cv2.LINE_AA)
        return t

    def draw(state: Cell) -> np.ndarray:
        if state == Cell.COVERED:
            return tile(covered)
        if state == Cell.MINE:
            t = tile(mine_tile)
            _star(t, (60, 58, 52))
            return t
        if state == Cell.EXPLODED:
            t = tile(revealed)
            _star(t, (20, 20, 205))
            return t
        if Cell.ONE <= state <= Cell.EIGHT:
            t = tile(TINTS[int(state)] if digit_grounds else revealed)
            _digit(t, int(state), (60, 60, 60))
            return t
        if state == Cell.ZERO:
            return tile(revealed)
        raise KeyError(state)

    return Look("rounded", cell, draw, window)


@pytest.mark.parametrize("digit_grounds", [False, True], ids=["one_ground", "digit_grounds"])
@pytest.mark.parametrize("seed", [1, 3])
def test_lost_boards_whose_mines_are_six_pointed_stars_read_exactly(digit_grounds, seed):
    """Mines shown as a six-pointed star (no quarter turn maps it onto itself) on a covered-shape tile,
    the mine that went off as a red star on its revealed tile (GNOME Mines draws its lost boards so):
    the stars are mines, the red one exploded, whether or not digits sit on grounds of their own colour
    (then no plain tile's fill shows around them, and the covered kind is the one leaving one covered
    look)."""
    from styles import fit_board, mid_game

    look = _rounded_look(digit_grounds=digit_grounds)
    board = fit_board(mid_game(16, 30, 99, seed, flags=0, lost=True), look)
    image, geometry = screenshot(board, look)
    reading = read_cells(image, geometry)
    assert np.array_equal(reading.states, board.cells), reading.board().to_text()
    assert (reading.states == Cell.EXPLODED).sum() == 1


def test_a_six_pointed_star_is_a_mine_and_digits_are_not():
    """A mine drawn as a six-pointed star maps onto itself turned a sixth of a circle, not a quarter; no
    digit maps onto itself turned less than half a circle."""
    from bot.vision.describe import MINE_SQUARE, is_mine

    star = np.zeros((24, 24), np.uint8)
    centre, outer = np.array([11.5, 11.5]), 9.5
    for start in (90, 270):  # two triangles, points up and down
        angles = np.radians([start, start + 120, start + 240])
        points = centre + outer * np.stack([np.cos(angles), -np.sin(angles)], axis=1)
        cv2.fillPoly(star, [np.round(points).astype(np.int32)], 255)
    assert is_mine(star.astype(np.float32) / 255, MINE_SQUARE)  # as square as a mine near a digit must be
    for digit in "12345678":
        glyph = np.zeros((24, 24), np.uint8)
        cv2.putText(glyph, digit, (5, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.75, 255, 3)
        assert not is_mine(glyph.astype(np.float32) / 255), digit


def test_a_board_cut_one_column_short_is_refused_at_that_edge():
    """A grid found one column short reads like a board, but the cells one pitch past its right edge
    look like its own (several looks of them): the board is cut, and its edge cells' counts cannot be
    checked, so it is refused naming that edge, never read."""
    from dataclasses import replace

    from styles import mid_game

    board = mid_game(16, 30, 99, 3, lost=True)
    image, geometry = screenshot(board, LOOKS["flat"], 1.25)
    assert np.array_equal(read_cells(image, geometry).states, board.cells)
    with pytest.raises(RecognitionError, match="right edge, but the grid goes on past it"):
        read_cells(image, replace(geometry, cols=29))


def test_rows_drawn_a_pixel_short_are_not_read_as_flags():
    """GNOME Mines at 900x640 draws its rows 23 px, then its last three 22 px: a grid of one pitch is
    1-2 px off there, each cut tile of those rows shows a strip of the gap, and a fresh board is read
    with its last two rows as 60 flags. Each row and column is now cut where its stretch of the board
    fits the others (:func:`bot.vision.generic.uneven_shifts`): read all covered (drawn here alike, not
    GNOME's pixels)."""
    cols, gap = 30, 4
    heights = [23] * 13 + [22] * 3
    tops = np.concatenate([[0], np.cumsum(heights)[:-1]]) + 20
    image = np.full((tops[-1] + heights[-1] + 40, cols * 23 + 40, 3), (48, 48, 48), np.uint8)
    ring = np.array([[1, 1, 1, 1], [1, 0, 0, 1], [1, 0, 0, 1], [1, 1, 1, 1]], bool)
    for top, height in zip(tops, heights, strict=True):
        for c in range(cols):
            left = 20 + 23 * c
            tile = image[top : top + height - gap, left : left + 23 - gap]
            tile[:] = (184, 190, 186)
            for y, x, dy, dx in ((0, 0, 1, 1), (0, -1, 1, -1), (-1, 0, -1, 1), (-1, -1, -1, -1)):
                tile[y, x] = (90, 92, 91)  # rounded, smoothed corners
                tile[y + dy, x] = tile[y, x + dx] = (168, 172, 170)
            crossing = image[top + height - gap : top + height, left + 23 - gap : left + 23]
            crossing[ring] = (80, 82, 81)  # a small ring where the gaps cross
    reading = read_screen(image, "generic")
    assert reading.board.shape == (16, 30)
    assert (reading.board.cells == Cell.COVERED).all()


def _profile(starts: list[float], pitch: float, length: int) -> np.ndarray:
    """A board's mean brightness along one axis: light tiles with a 4 px dark gap after each, anti-aliased
    at sub-pixel starts."""
    xs = np.arange(length) + 0.5
    profile = np.full(length, 50.0)
    for start in starts:
        profile += 130 * np.clip(np.minimum(xs - start, start + pitch - 4 - xs) + 0.5, 0, 1)
    return profile


def test_cells_are_moved_off_the_even_pitch_only_where_they_clearly_lie_a_pixel_off():
    from bot.vision.cutting import uneven_shifts

    even = [10 + 23 * i for i in range(16)]
    assert uneven_shifts(_profile(even, 23, 400), 10, 23, 16) == ()
    rounded = [round(10 + 22.5 * i) for i in range(16)]  # a fractional pitch, each start rounded
    assert uneven_shifts(_profile(rounded, 22.5, 400), 10, 22.5, 16) == ()
    two_sizes = [10 + 23 * i for i in range(13)] + [10 + 23 * 13 + 22 * i for i in range(3)]
    shifts = uneven_shifts(_profile(two_sizes, 22.6, 400), 10, 23, 16)
    assert shifts[:13] == (0.0,) * 13 and all(s < 0 for s in shifts[14:])
    assert uneven_shifts(_profile(even[:3], 23, 100), 10, 23, 3) == ()  # too few cells to compare
