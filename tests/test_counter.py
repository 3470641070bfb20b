"""The mine counter is read by its segments (real captures, drawn displays), never taken from the timer."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board, Cell
from bot.geometry import Geometry
from bot.vision import read_screen
from bot.vision.counter import draw_digit, find_displays, mine_counter, read_mine_counter

REAL = Path(__file__).resolve().parent / "data" / "real"
OPENCV5 = REAL.parent / "opencv5"
LCD_CAPTURES = sorted(p for client in ("winemine", "xdemineur") for p in (REAL / client).glob("*.png"))


def _truth(png: Path) -> Board:
    return Board.from_text(png.with_suffix(".txt").read_text())


def _mines_left(board: Board) -> int:
    """What the counter shows: the mines less the flags (a wrong flag counts as a flag)."""
    return board.mines - int(np.isin(board.cells, (Cell.FLAG, Cell.WRONG_FLAG)).sum())


@pytest.mark.parametrize("png", LCD_CAPTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_real_lcd_counter_reads_mines_left(png):
    image, truth = cv2.imread(str(png)), _truth(png)
    reading = read_screen(image, png.parent.name)
    counter = mine_counter(image, reading.geometry, reading.board)
    assert counter.value == _mines_left(truth), counter.reason
    assert len(counter.displays) == 2  # the timer is seen, and not taken


SIDECAR_CAPTURES = sorted(
    p for p in REAL.rglob("*.png") if p.with_suffix(".json").is_file() and "xbomb" not in p.parts
)
"""Captures whose ``.json`` gives the board geometry and mine total (ace-minesweeper: an italic yellow
LCD on a green panel, no timer; JSMinesweeper: a red LED at four zooms)."""


@pytest.mark.parametrize("png", SIDECAR_CAPTURES, ids=lambda p: str(p.relative_to(REAL)))
def test_real_counter_with_sidecar(png):
    meta = json.loads(png.with_suffix(".json").read_text())
    truth = _truth(png)
    truth.mines = meta["mines"]
    counter = mine_counter(cv2.imread(str(png)), Geometry(**meta["geometry"]), truth)
    assert counter.value == _mines_left(truth), counter.reason


def test_xbomb_text_counter_is_read_or_refused_never_wrong():
    """xbomb shows ``Time : 21`` and ``UXB : 82`` in boxes below the board, in text: the number after
    a label is read by its glyphs' shapes; a frame where a stray number also fits is refused."""
    right = 0
    pngs = sorted((REAL / "xbomb").glob("*.png"))
    for png in pngs:
        meta = json.loads(png.with_suffix(".json").read_text())
        truth = _truth(png)
        truth.mines = meta["mines"]
        counter = mine_counter(cv2.imread(str(png)), Geometry(**meta["geometry"]), truth)
        assert counter.value in (None, _mines_left(truth)), f"{png.name}: {counter.value}"
        assert counter.display is None or counter.display.kind == "text"
        right += counter.value is not None
    assert right >= len(pngs) - 1


@pytest.mark.parametrize("client", ["winemine", "xdemineur"])
def test_real_counter_at_twice_the_size(client):
    png = REAL / client / "expert_flags.png"
    image = cv2.imread(str(png))
    geometry = read_screen(image, client).geometry
    big = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    scaled = Geometry(geometry.left * 2, geometry.top * 2, geometry.pitch_x * 2, geometry.pitch_y * 2, 16, 30)
    board = read_screen(big, client).board
    assert read_mine_counter(big, scaled, board) == _mines_left(_truth(png))


def test_without_the_board_two_displays_are_not_guessed():
    png = REAL / "winemine" / "expert_flags.png"
    image = cv2.imread(str(png))
    counter = mine_counter(image, read_screen(image, "winemine").geometry)
    assert counter.value is None and "cannot tell it from the timer" in counter.reason
    assert sorted(d.value for d in counter.displays) == [0, _mines_left(_truth(png))]


def _window(left: str, right: str | None, colour, background=(0, 0, 0), digit=(12, 22)) -> np.ndarray:
    """A window with a board area below and 7-segment displays at the top left (and right)."""
    image = np.full((140, 200, 3), (180, 180, 180), np.uint8)
    w, h = digit
    for text, x0 in ((left, 12), (right, 120)):
        if text is None:
            continue
        image[8 : 8 + h + 8, x0 - 4 : x0 + len(text) * (w + 3) + 2] = background
        for i, char in enumerate(text):
            draw_digit(image, char, x0 + i * (w + 3), 12, w, h, colour)
    return image


BOARD_AREA = Geometry(10, 50, 16, 16, 5, 11)


@pytest.mark.parametrize(
    "colour",
    [(0, 0, 255), (0, 255, 0), (0, 230, 255), (255, 160, 0)],
    ids=["red", "green", "yellow", "blue"],
)
def test_drawn_counter_in_any_lcd_colour(colour):
    image = _window("042", "917", colour)
    image[8:38, 8:60] = np.where(image[8:38, 8:60] == 0, 30, image[8:38, 8:60])  # dim, not black
    assert sorted(d.text for d in find_displays(image, BOARD_AREA)) == ["042", "917"]
    board = Board(np.full((5, 11), int(Cell.COVERED), np.int8))
    # 917 mines cannot hide in 55 covered cells: the right display is the timer
    assert read_mine_counter(image, BOARD_AREA, board) == 42


def test_minus_sign_and_single_display():
    image = _window("-05", None, (0, 0, 255))
    assert read_mine_counter(image, BOARD_AREA) == -5


def test_timer_told_by_a_later_frame():
    board = Board(np.full((5, 11), int(Cell.COVERED), np.int8))
    first = mine_counter(_window("012", "003", (0, 0, 255)), BOARD_AREA, board)
    assert first.value is None  # both could be the mines left
    later = mine_counter(_window("012", "004", (0, 0, 255)), BOARD_AREA, board, earlier=first)
    assert later.value == 12


def test_no_counter_is_said_plainly():
    image = np.full((140, 200, 3), (180, 180, 180), np.uint8)
    reading = mine_counter(image, BOARD_AREA)
    assert reading.value is None and "no 7-segment counter" in reading.reason


def test_counter_read_again_where_it_was():
    png = REAL / "xdemineur" / "expert_flags.png"
    image = cv2.imread(str(png))
    reading = read_screen(image, "xdemineur")
    first = mine_counter(image, reading.geometry, reading.board)
    again = mine_counter(image, reading.geometry, reading.board, earlier=first)
    assert again.value == first.value == _mines_left(_truth(png)) and again.display == first.display


def _glyph(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def test_text_digits_of_other_fonts_are_read_or_refused_never_misread():
    """The glyph rules were made on xbomb's font: on other fonts they may refuse a digit, never misread
    it (OpenCV 5.0's fonts at 0.8 and 1.2, kept as a picture, Pillow's default font at 18-32 px)."""
    from PIL import Image, ImageDraw, ImageFont

    from bot.vision.counter import read_glyph

    shapes = []
    # 0-9 a row, 60 px cells, as OpenCV 5.0.0.93's putText drew them (at (5, 45), thickness 2) in its
    # FONT_HERSHEY_SIMPLEX, _DUPLEX and _COMPLEX, each at scale 0.8 then 1.2
    drawn = cv2.imread(str(OPENCV5 / "counter_digits.png"), cv2.IMREAD_GRAYSCALE)
    for row in range(6):
        for col, digit in enumerate("0123456789"):
            image = drawn[row * 60 : (row + 1) * 60, col * 60 : (col + 1) * 60]
            shapes.append((digit, _glyph(image > 127)))
    for size in (18, 24, 32):
        font = ImageFont.load_default(size=size)
        for digit in "0123456789":
            image = Image.new("L", (60, 60))
            ImageDraw.Draw(image).text((5, 5), digit, fill=255, font=font)
            shapes.append((digit, _glyph(np.asarray(image) > 127)))
    reads = [(digit, read_glyph(shape)) for digit, shape in shapes]
    assert all(read in (None, digit) for digit, read in reads), [r for r in reads if r[1] not in (None, r[0])]
    assert sum(read == digit for digit, read in reads) >= len(reads) // 3


TINTS = {
    "night light": ((0.6, 0.85, 1.0), 1.25),
    "night light, no gamma": ((0.6, 0.85, 1.0), 1.0),
    "gamma 1.25": ((1.0, 1.0, 1.0), 1.25),
}
"""The colour shifts the targets name (``harness.colour``), and the night light's gains alone (which once
made JSMinesweeper's tan-tinted white bevels read as a ``111`` display)."""

COUNTER_CAPTURES = sorted(p for p in REAL.rglob("*.png") if p.with_suffix(".json").is_file())
"""Every real capture of a client with a counter, with its geometry and mine total in ``NAME.json``."""


@pytest.mark.parametrize("tint_name", list(TINTS))
def test_real_counters_under_colour_shifts_read_right_never_wrong(tint_name):
    """Every client's counter, tinted: read right on >= 95% of each client's captures, never wrong."""
    from harness.colour import tint

    gains, gamma = TINTS[tint_name]
    right: dict[str, list[bool]] = {}
    for png in COUNTER_CAPTURES:
        meta = json.loads(png.with_suffix(".json").read_text())
        truth = _truth(png)
        truth.mines = meta["mines"]
        image = tint(cv2.imread(str(png)), gains, gamma)
        counter = mine_counter(image, Geometry(**meta["geometry"]), truth)
        assert counter.value in (None, _mines_left(truth)), f"{png}: read {counter.value}"
        right.setdefault(png.relative_to(REAL).parts[0], []).append(counter.value is not None)
    assert set(right) >= {"winemine", "xdemineur", "xbomb", "ace-minesweeper", "jsminesweeper"}
    for client, hits in right.items():
        assert sum(hits) >= 0.95 * len(hits), f"{client}: {sum(hits)} of {len(hits)} read"


def test_screen_grey_leaves_untinted_captures_alone_and_finds_the_tint():
    """Every band searched of the untinted captures keeps its colours (so untinted readings cannot
    change); under the night light the gains found undo the filter's channel ratios (blue 0.6 ** 1.25,
    green 0.85 ** 1.25)."""
    from bot.vision.counter import NO_SHIFT, _bands, screen_grey
    from harness.colour import night_light

    for png in COUNTER_CAPTURES:
        image = cv2.imread(str(png))
        geometry = Geometry(**json.loads(png.with_suffix(".json").read_text())["geometry"])
        for band in _bands(image, geometry):
            assert screen_grey(image[band.top : band.bottom, band.left : band.right]) == NO_SHIFT, png
    gains = screen_grey(night_light(cv2.imread(str(REAL / "xdemineur" / "expert_flags.png"))))
    assert gains[0] == pytest.approx(0.6**-1.25, rel=0.03)
    assert gains[1] == pytest.approx(0.85**-1.25, rel=0.03)


def test_tinted_counter_read_again_where_it_was():
    """The cheap per-move path reads a tinted counter with the screen's grey found the first time."""
    from harness.colour import night_light

    png = REAL / "jsminesweeper" / "t24_z125" / "expert_flags.png"
    meta = json.loads(png.with_suffix(".json").read_text())
    truth = _truth(png)
    truth.mines = meta["mines"]
    image, geometry = night_light(cv2.imread(str(png))), Geometry(**meta["geometry"])
    first = mine_counter(image, geometry, truth)
    again = mine_counter(image, geometry, truth, earlier=first)
    assert again.value == first.value == _mines_left(truth) and again.display == first.display
    assert again.display.grey == first.display.grey != (1.0, 1.0, 1.0)


@pytest.mark.parametrize(
    "gains", [(0.6, 0.85, 1.0), (1.0, 0.85, 0.6), (0.7, 1.0, 0.7)], ids=["tan", "blue", "green"]
)
def test_coloured_chrome_over_a_grey_board_is_never_misread(gains):
    """A client whose window chrome is coloured while its board is grey (the bands above and below the
    board tinted, the board not): the chrome's light bevels are no lit strokes, as its own grey is
    balanced. Before, JSMinesweeper's bevels read as a ``111`` display on 14 such captures."""
    from harness.colour import tint

    for png in COUNTER_CAPTURES:
        meta = json.loads(png.with_suffix(".json").read_text())
        truth = _truth(png)
        truth.mines = meta["mines"]
        geometry = Geometry(**meta["geometry"])
        image = cv2.imread(str(png))
        top, bottom = int(geometry.top), int(geometry.top + geometry.rows * geometry.pitch_y)
        image[:top], image[bottom:] = tint(image[:top], gains), tint(image[bottom:], gains)
        counter = mine_counter(image, geometry, truth)
        assert counter.value == _mines_left(truth), f"{png}: {counter.value} ({counter.reason})"


def test_a_screen_of_no_dominant_colour_is_left_alone():
    """Random colours: no chromaticity holds half the pixels, so nothing is balanced."""
    from bot.vision.counter import NO_SHIFT, screen_grey

    noise = np.random.default_rng(0).integers(30, 255, (200, 200, 3), dtype=np.uint8)
    assert screen_grey(noise) == NO_SHIFT
