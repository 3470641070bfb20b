"""The mine counter on a live JSMinesweeper frame (zoom 1.25) where play logged "101 mines" on Expert.

``tests/data/live/jsminesweeper_tooltip.png`` is a crop of a frame grabbed by the bot (session 14, live
bench, game 10): a fresh 16x30 board with its counter showing ``099`` and the page's hover tooltip
``(14,8)`` drawn over the board. The skinless reader read that tooltip as ``F4F`` (two flags and a 4):
the counter's digits were right, and 99 + 2 misread flags made the 101. The counter cannot see a flag
misread, but the total it gives must say where it comes from, and a display that no total the board
allows can come from must be refused, saying why.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from bot.agent.player import Player
from bot.board import Board, Cell
from bot.geometry import Geometry
from bot.vision.counter import draw_digit, mine_counter
from harness.colour import tint

FRAME = Path(__file__).parent / "data" / "live" / "jsminesweeper_tooltip.png"
GEOMETRY = Geometry(10.5, 66.5, 30.0, 30.0, 16, 30)
"""The board in the crop (the grid finder's, to a hundredth of a pixel)."""


def _fresh() -> Board:
    """The board as the page drew it: 16x30, every cell covered, 99 mines."""
    return Board(np.full((16, 30), Cell.COVERED, dtype=np.int8), 99)


def _as_misread() -> Board:
    """The board as the skinless reader read it at d0799ce: the tooltip ``(14,8)`` as ``F4F``."""
    board = _fresh()
    board.cells[9, 16:19] = (Cell.FLAG, Cell.FOUR, Cell.FLAG)
    return board


@pytest.fixture(scope="module")
def frame() -> np.ndarray:
    image = cv2.imread(str(FRAME))
    assert image is not None, FRAME
    return image


def test_the_live_counter_reads_its_own_digits(frame):
    reading = mine_counter(frame, GEOMETRY, _fresh())
    assert reading.value == 99 and reading.display is not None and reading.display.text == "099"
    assert reading.flags == 0 and reading.total == 99


def test_the_total_counts_the_flags_the_board_shows(frame):
    reading = mine_counter(frame, GEOMETRY, _as_misread())
    assert (reading.value, reading.flags, reading.total) == (99, 2, 101)
    assert mine_counter(frame, GEOMETRY).total is None  # no board: no flags known, no total


def test_a_standard_board_names_the_counter_and_the_flags_when_they_disagree(frame, caplog):
    player = Player(None, None)  # type: ignore[arg-type]  (the mine total needs no capture or mouse)
    reading = SimpleNamespace(board=_as_misread(), geometry=GEOMETRY)
    with caplog.at_level(logging.WARNING):
        assert player._game_mines(frame, reading) == (99, "standard level")
    said = caplog.text
    assert "99 mines left and the board 2 flag(s): 101 mines on a 16x30 board, not the standard 99" in said
    assert "as if none of the 2 flag(s) were placed" in said and "misread" in said


def test_a_counter_no_total_of_the_board_allows_is_refused_saying_why(frame):
    board = _fresh()
    board.cells[:, :27] = Cell.ZERO  # 48 covered cells: 99 mines cannot be there
    board.cells[:, 26] = Cell.ONE
    reading = mine_counter(frame, GEOMETRY, Board(board.cells, None))
    assert reading.value is None and reading.total is None
    assert "'099'" in reading.reason and "shows 99 left" in reading.reason
    assert "more than the board holds (48" in reading.reason
    board.cells[:, 27:] = Cell.FLAG  # every covered cell flagged: the counter would show 0, not 99
    reading = mine_counter(frame, GEOMETRY, Board(board.cells, None))
    assert reading.value is None and "with the board's 48 flag(s) 147 mines" in reading.reason


def test_a_display_read_with_every_segment_lit_is_refused_not_taken():
    # JSMinesweeper draws unlit LED segments in dark red; under a darker gamma (0.8) they pass for lit
    # and the counter reads 888 whatever it shows. On Expert the board's bounds refused it; on a board
    # with room for 888 mines it was taken: a wrong total. Nothing in an all-8 display shows an unlit
    # segment, so it is refused, saying why.
    shot = Path(__file__).parent / "data" / "real" / "jsminesweeper" / "t24_z125" / "expert_fresh.png"
    meta = json.loads(shot.with_suffix(".json").read_text(encoding="utf-8"))
    expert = Geometry(**meta["geometry"])
    image = tint(cv2.imread(str(shot)), (1.0, 1.0, 1.0), 0.8)
    wide = np.zeros((image.shape[0], 2 * image.shape[1], 3), np.uint8)
    wide[:, : image.shape[1]] = image  # the same counter over a board twice as wide (960 covered cells)
    geometry = Geometry(expert.left, expert.top, expert.pitch_x, expert.pitch_y, 16, 60)
    reading = mine_counter(wide, geometry, Board(np.full((16, 60), Cell.COVERED, dtype=np.int8), None))
    assert reading.value is None and "'888'" in reading.reason and "every segment lit" in reading.reason
    assert mine_counter(cv2.imread(str(shot)), expert, _fresh()).value == 99  # as shot: read


def test_eights_beside_a_digit_with_an_unlit_segment_are_read():
    image = np.zeros((60, 140, 3), np.uint8)
    for n, x in ((8, 38), (8, 52)):
        draw_digit(image, n, x, 5, 10, 20, (0, 0, 255))
    geometry = Geometry(20, 40, 10, 10, 20, 20)  # 400 covered cells: room for 88 or 388 mines
    board = Board(np.full((20, 20), Cell.COVERED, dtype=np.int8), None)
    reading = mine_counter(image, geometry, board)
    assert reading.value is None and "'88'" in reading.reason and "every segment lit" in reading.reason
    draw_digit(image, 3, 24, 5, 10, 20, (0, 0, 255))
    assert mine_counter(image, geometry, board).value == 388
