"""Boards the skin's faces cannot find, found by structure: ``locate_board`` finds a board by the flat
middles of its covered and 0 tiles, so a skin whose covered tile is dithered finds no board of covered
cells, and cells the skin cannot read (a lost board's states it never saw) part its board into pieces.
The skinless grid finder's board is then read with the skin, and taken only when the skin's templates
fit its cells: a board drawn otherwise (another look, another cell size) is refused, saying why."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board, Cell
from bot.errors import BoardNotFoundError
from bot.game import FirstClickRule
from bot.skin import Skin, find_skin, load_skin
from bot.vision import read_screen
from bot.vision.locate import locate_board
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
    return load_skin(report.skin_path)


@pytest.fixture(scope="module")
def yes_skin(tmp_path_factory):
    """xbomb's skin as ``calibrate expert_lost.png expert_opening.png --yes`` makes it (states left out)."""
    out = tmp_path_factory.mktemp("skin") / "xbomb-yes"
    shots = [str(XBOMB / "expert_lost.png"), str(XBOMB / "expert_opening.png")]
    return load_skin(calibrate(CalibrateOptions(shots, name="xbomb-yes", out=out)).skin_path)


def _recorded(png: Path) -> dict:
    return json.loads(png.with_suffix(".json").read_text())["geometry"]


def test_a_fresh_board_of_dithered_covered_cells_is_located_and_read(dithered_skin):
    image = cv2.imread(str(XBOMB / "expert_fresh.png"))
    truth = Board.from_text((XBOMB / "expert_fresh.txt").read_text())
    location = locate_board(image, dithered_skin)
    recorded = _recorded(XBOMB / "expert_fresh.png")
    g = location.geometry
    assert (g.rows, g.cols) == (recorded["rows"], recorded["cols"])
    assert abs(g.left - recorded["left"]) < 0.5 and abs(g.top - recorded["top"]) < 0.5
    assert any("no board found by faces" in note for note in location.notes)
    assert read_screen(image, dithered_skin).board.to_text() == truth.to_text()


def test_a_screenshot_with_no_board_is_still_refused(dithered_skin):
    blank = cv2.imread(str(XBOMB / "expert_fresh.png"))
    blank[:] = (90, 90, 90)
    with pytest.raises(BoardNotFoundError):
        locate_board(blank, dithered_skin)


def test_a_lost_board_parted_by_unseen_states_is_found_whole_and_read(yes_skin):
    """On a lost xbomb board the faces find six pieces (the 6, flags and framed mines the skin lacks
    part them); the grid holding them all is the board, and with the skinless reader naming what the
    skin cannot, it reads exactly."""
    png = XBOMB / "expert_high_lost.png"
    image = cv2.imread(str(png))
    truth = Board.from_text(png.with_suffix(".txt").read_text())
    location = locate_board(image, yes_skin)
    g, recorded = location.geometry, _recorded(png)
    assert (g.rows, g.cols) == (recorded["rows"], recorded["cols"])
    assert abs(g.left - recorded["left"]) < 0.5 and abs(g.top - recorded["top"]) < 0.5
    assert any("pieces of it found by their faces" in note for note in location.notes)
    reading = read_screen(image, yes_skin, truth.mines)
    assert np.array_equal(reading.board.cells, truth.cells)


def test_a_board_drawn_at_another_cell_size_in_the_skins_own_pixels_is_read(yes_skin):
    """xbomb's 8x8 board has 50 px cells whose grid lines, dither and glyphs keep their pixel size: the
    20 px skin's templates do not fit its cells, but each cell's centre is a template's interior pixel
    for pixel, and the skinless reader reads the same: the fresh board is read. The won board shows
    flags, which the skin never saw: refused, naming a flag."""
    image = cv2.imread(str(XBOMB / "small_fresh.png"))
    location = locate_board(image, yes_skin)
    g = location.geometry
    assert (g.rows, g.cols, round(g.left), round(g.top), round(g.pitch_x)) == (8, 8, 5, 37, 50)
    assert any("another cell size" in note for note in location.notes)
    truth = Board.from_text((XBOMB / "small_fresh.txt").read_text())
    assert np.array_equal(read_screen(image, yes_skin, truth.mines).board.cells, truth.cells)
    won = Board.from_text((XBOMB / "small_won.txt").read_text())
    with pytest.raises(
        BoardNotFoundError, match=r"50\.0 px cells.*cell \((\d+), (\d+)\) is not surely"
    ) as no:
        locate_board(cv2.imread(str(XBOMB / "small_won.png")), yes_skin)
    r, c = (int(v) for v in re.search(r"cell \((\d+), (\d+)\) is not", str(no.value)).groups())
    assert won.cells[r, c] == Cell.FLAG and Cell.FLAG not in yes_skin.cells


@pytest.mark.parametrize("shot", ["expert_fresh", "small_fresh", "small_won"])
def test_a_shipped_skin_is_not_bent_to_a_board_drawn_in_another_look(shot):
    """The classic skin on xbomb's boards (20 and 50 px cells): the grid is there, the templates do not
    fit it, at the skin's size or at the screen's own pixels."""
    image = cv2.imread(str(XBOMB / f"{shot}.png"))
    with pytest.raises(BoardNotFoundError, match="not drawn with this skin's templates"):
        locate_board(image, find_skin("classic"))


def _dithered_tile(cell: int, line: int = 2, period: int = 1) -> np.ndarray:
    """A covered tile of a grey-and-white checker of ``period`` px squares (no flat face at all), grid
    line top and left."""
    yy, xx = np.mgrid[:cell, :cell] // period
    tile = np.where(((yy + xx) % 2 == 0)[:, :, None], 250, 120).astype(np.uint8).repeat(3, axis=2)
    tile[:line, :] = tile[:, :line] = 0
    return tile


def _open_tile(cell: int, line: int = 2) -> np.ndarray:
    tile = np.full((cell, cell, 3), 235, np.uint8)
    tile[:line, :] = tile[:, :line] = 0
    return tile


def _one_tile(cell: int) -> np.ndarray:
    tile = _open_tile(cell)
    tile[cell // 4 : cell - cell // 4, cell // 2 - 1 : cell // 2 + 2] = (160, 40, 20)
    return tile


def _screen(tiles: dict[Cell, np.ndarray], board: Board, cell: int, at: tuple[int, int]) -> np.ndarray:
    """A grey screen with the board drawn from ``tiles`` at ``at``, its last grid lines closing it."""
    rows, cols = board.shape
    image = np.full((rows * cell + 2 * at[1], cols * cell + 2 * at[0], 3), 200, np.uint8)
    for r in range(rows):
        for c in range(cols):
            y, x = at[1] + r * cell, at[0] + c * cell
            image[y : y + cell, x : x + cell] = tiles[Cell(int(board.cells[r, c]))]
    image[at[1] + rows * cell : at[1] + rows * cell + 2, at[0] : at[0] + cols * cell + 2] = 0
    image[at[1] : at[1] + rows * cell + 2, at[0] + cols * cell : at[0] + cols * cell + 2] = 0
    return image


def test_a_checkered_skin_with_no_flat_face_locates_a_board_of_covered_cells_only():
    """A made-up dithered look (not xbomb's pixels): a skin of its covered, 0 and 1 tiles, with every
    other state missing, finds an all-covered board by structure and reads it; the same board drawn
    at 2.5x the cell size with lines and checker of the same pixel size is read (the skin's own pixels
    in larger cells), and with a checker of 2 px squares (another look) it is refused, not read."""
    cell = 20
    tiles = {Cell.COVERED: _dithered_tile(cell), Cell.ZERO: _open_tile(cell), Cell.ONE: _one_tile(cell)}
    skin = Skin("checker", None, cell, FirstClickRule.SAFE, cells=dict(tiles))
    fresh = Board.from_text("\n".join(["." * 14] * 9))
    image = _screen(tiles, fresh, cell, (31, 47))
    location = locate_board(image, skin)
    g = location.geometry
    assert (g.rows, g.cols, round(g.left), round(g.top)) == (9, 14, 31, 47)
    assert np.array_equal(read_screen(image, skin).board.cells, fresh.cells)
    small = Board.from_text("\n".join(["." * 8] * 8))
    big = {state: _dithered_tile(50) if state == Cell.COVERED else _open_tile(50) for state in tiles}
    big_image = _screen(big, small, 50, (31, 47))
    assert round(locate_board(big_image, skin).geometry.pitch_x) == 50
    assert np.array_equal(read_screen(big_image, skin).board.cells, small.cells)
    coarse = {state: _dithered_tile(50, period=2) if state == Cell.COVERED else big[state] for state in big}
    with pytest.raises(BoardNotFoundError, match="nor with their interiors at the screen's own pixels"):
        locate_board(_screen(coarse, small, 50, (31, 47)), skin)


def _checker(height: int, width: int, square: int = 20) -> np.ndarray:
    ys, xs = np.mgrid[:height, :width]
    image = np.full((height, width, 3), 192, np.uint8)
    image[(ys // square + xs // square) % 2 == 0] = (146, 119, 162)
    return image


def test_a_skin_whose_covered_cell_has_no_flat_face_is_no_fault(tmp_path):
    """A skin calibrated from a checkerboard (a 40 px covered cell of four 20 px squares, no face at its
    centre) gave no face kind, and locating with it failed in numpy (found by the fuzz of
    tests/test_cli_inputs.py): it finds no board, and says so."""
    folder = tmp_path / "checker"
    folder.mkdir()
    cv2.imwrite(str(folder / "covered.png"), _checker(40, 40))
    others = {state: None for state in ("flag", *"012345678", "mine", "exploded", "wrong_flag")}
    meta = {"name": "checker", "cell_size": 40, "first_click_rule": "safe", "new_game": "F2"}
    (folder / "skin.json").write_text(json.dumps({**meta, "cells": {"covered": "covered.png", **others}}))
    with pytest.raises(BoardNotFoundError):
        locate_board(_checker(300, 400), load_skin(folder))
