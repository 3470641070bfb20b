"""Real captures seen through a night-light tint read as the originals with the shipped skins."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board, Cell
from bot.errors import BoardNotFoundError, RecognitionError
from bot.skin import list_skins
from bot.vision import classify_cells, read_board, read_screen
from bot.vision.cases import skin_without
from bot.vision.read import load_cached
from bot.vision.tint import ColourShift, fit_shift
from harness.colour import NIGHT_GAMMA, NIGHT_LIGHT, night_light, tint

REAL = Path(__file__).resolve().parent / "data" / "real"
CAPTURES = sorted(p for p in REAL.glob("*/*.png") if p.parent.name in list_skins())


def _truth(png: Path) -> Board:
    return Board.from_text(png.with_suffix(".txt").read_text())


@pytest.mark.parametrize("client", sorted({p.parent.name for p in CAPTURES}))
def test_tinted_captures_read_as_the_originals(client):
    pngs = [p for p in CAPTURES if p.parent.name == client]
    exact = 0
    for png in pngs:
        truth = _truth(png)
        try:
            reading = read_screen(night_light(cv2.imread(str(png))), client, truth.mines)
        except (BoardNotFoundError, RecognitionError):
            continue  # refused: allowed, counted
        assert np.array_equal(reading.board.cells, truth.cells), f"{png.name} read wrong through the tint"
        exact += 1
    assert exact >= 0.95 * len(pngs), f"{client}: {exact}/{len(pngs)} tinted frames read exactly"


@pytest.mark.parametrize("png", [p for p in CAPTURES if p.stem in ("expert_flags", "small_start")], ids=str)
def test_tinted_capture_with_auto(png):
    truth = _truth(png)
    reading = read_screen(night_light(cv2.imread(str(png))), "auto", truth.mines)
    assert reading.skin.name == png.parent.name and np.array_equal(reading.board.cells, truth.cells)


def test_tinted_board_rereads_each_move_through_the_remembered_shift():
    png = REAL / "winemine" / "expert_flags.png"
    image, truth = night_light(cv2.imread(str(png))), _truth(png)
    located = read_screen(image, "winemine", truth.mines)
    region = located.geometry.region()
    grabbed = image[region.top : region.bottom, region.left : region.right].copy()
    again = read_board(grabbed, located.geometry.offset(-region.left, -region.top), "winemine", truth.mines)
    assert np.array_equal(again.board.cells, truth.cells)


def test_tint_does_not_make_a_missing_state_readable(tmp_path):
    """A skin that never saw a mine still refuses the mines of a tinted lost board."""
    png = REAL / "xdemineur" / "expert_lost.png"
    image, truth = night_light(cv2.imread(str(png))), _truth(png)
    skin = skin_without(load_cached("xdemineur"), Cell.MINE, tmp_path / "skin")
    reading = read_screen(image, "xdemineur", truth.mines)  # the full skin finds and reads it
    cells = classify_cells(image, reading.geometry, skin)
    unsure, mines = cells.uncertain_mask(), truth.cells == Cell.MINE
    assert mines.any() and unsure[mines].all()
    assert np.array_equal(cells.states[~unsure], truth.cells[~unsure])


@pytest.mark.parametrize(("gains", "gamma"), [(NIGHT_LIGHT, NIGHT_GAMMA), ((0.9, 1.0, 0.8), 0.9)])
def test_fit_recovers_a_gain_and_gamma(gains, gamma):
    levels = np.repeat(np.arange(0, 256, 5, dtype=np.uint8)[:, None], 3, axis=1)
    shifted = tint(levels[None], gains, gamma)[0]
    shift = fit_shift(shifted, levels)
    assert isinstance(shift, ColourShift)
    back = cv2.LUT(shifted[None], shift.table())[0].astype(int)
    # quantisation of the darkened channel loses a few levels; nothing more
    assert np.abs(back - levels)[levels > 20].max() <= 4
