"""A skin whose covered tile has no flat face (a dithered pattern) still locates a board of covered
cells: ``locate_board`` finds boards by the flat middles of covered and 0 tiles, and such a board shows
none, so the skinless grid finder's board is read with the skin and kept when the skin reads it whole."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from bot.board import Board
from bot.vision import read_screen
from bot.vision.locate import _covered_face, locate_board
from calibration.session import CalibrateOptions, calibrate

XBOMB = Path(__file__).resolve().parent / "data" / "real" / "xbomb"


@pytest.fixture(scope="module")
def dithered_skin(tmp_path_factory):
    """A skin calibrated from one real xbomb screenshot (labels from its truth file)."""
    out = tmp_path_factory.mktemp("skin") / "xbomb"
    shot = XBOMB / "expert_opening.png"
    report = calibrate(
        CalibrateOptions([str(shot)], name="xbomb-test", out=out, boards=[str(shot.with_suffix(".txt"))])
    )
    from bot.skin import load_skin

    return load_skin(report.skin_path)


def test_a_fresh_board_of_dithered_covered_cells_is_located_and_read(dithered_skin):
    assert not _covered_face(dithered_skin)
    image = cv2.imread(str(XBOMB / "expert_fresh.png"))
    truth = Board.from_text((XBOMB / "expert_fresh.txt").read_text())
    location = locate_board(image, dithered_skin)
    recorded = json.loads((XBOMB / "expert_fresh.json").read_text())["geometry"]
    g = location.geometry
    assert (g.rows, g.cols) == (recorded["rows"], recorded["cols"])
    assert abs(g.left - recorded["left"]) < 0.5 and abs(g.top - recorded["top"]) < 0.5
    assert any("skinless grid finder" in note for note in location.notes)
    assert read_screen(image, dithered_skin).board.to_text() == truth.to_text()


def test_a_screenshot_with_no_board_is_still_refused(dithered_skin):
    from bot.errors import BoardNotFoundError

    blank = cv2.imread(str(XBOMB / "expert_fresh.png"))
    blank[:] = (90, 90, 90)
    with pytest.raises(BoardNotFoundError):
        locate_board(blank, dithered_skin)
