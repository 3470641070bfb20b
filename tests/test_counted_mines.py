"""The mine total from a client's counter: mines left plus every flag placed, a lost board's wrong
flags included (the counter counted them as placed: without them a lost board with a wrong flag gave
98 of 99)."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from bot.board import Board, Cell
from bot.vision import read_screen

REAL = Path(__file__).resolve().parent / "data" / "real"


@pytest.mark.parametrize("capture", ["xdemineur/expert_lost", "jsminesweeper/t24_z100/expert_lost"])
def test_a_lost_boards_wrong_flags_count_in_the_total(capture):
    truth = Board.from_text((REAL / f"{capture}.txt").read_text())
    assert (truth.cells == Cell.WRONG_FLAG).any()
    reading = read_screen(cv2.imread(str(REAL / f"{capture}.png")), "generic")
    assert reading.board.to_text() == truth.to_text()
    assert reading.board.mines == 99
