"""Vision: locating boards at any scale, reading every cell and the status, refusing to guess."""

from __future__ import annotations

import copy
import doctest
import importlib
import os
import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board, Cell
from bot.errors import BoardNotFoundError, RecognitionError, SkinError
from bot.game import GameStatus
from bot.geometry import Geometry
from bot.hershey import put_text
from bot.render import jpeg_roundtrip, render_board, render_screen
from bot.skin import STATE_NAMES, find_skin
from bot.vision import (
    classify_cells,
    locate_board,
    read_board,
    read_screen,
    standard_mines,
    status_from_board,
)
from bot.vision.cases import screen_cases, stage_boards
from bot.vision.read import load_cached

REPO = Path(__file__).resolve().parent.parent
REAL_CAPTURES = sorted(
    png
    for png in (REPO / "tests" / "data" / "real").glob("*/*.png")
    if (REPO / "templates" / png.parent.name / "skin.json").exists()
)
"""Captures of clients minebot ships a skin for (the others are read with no skin: test_vision_generic.py)."""
REALDATA = REPO.parent / "shared" / "realdata"
SCALES = (1.0, 1.25, 1.5, 1.75, 2.0, 2.04)


@pytest.fixture(scope="module")
def classic():
    return find_skin("classic")


@pytest.mark.parametrize(
    "module", ["bot.vision", "bot.vision.classify", "bot.vision.status", "bot.vision.cases"]
)
def test_doctests(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def _edge_error(start: float, pitch: float, true_start: float, true_pitch: float, count: int) -> float:
    index = np.arange(count + 1)
    return float(np.abs((start + index * pitch) - (true_start + index * true_pitch)).max())


def _same_box(found, truth) -> bool:
    """Face regions agree to a pixel on each side (the renderer rounds the scaled face size its way)."""
    return all(
        abs(a - b) <= 1
        for a, b in zip(
            (found.left, found.top, found.right, found.bottom),
            (truth.left, truth.top, truth.right, truth.bottom),
            strict=True,
        )
    )


@pytest.mark.parametrize("scale", SCALES)
def test_every_stage_size_and_scale_reads_exactly(scale, classic):
    """Beginner to Expert, fresh / mid with flags / won / lost, PNG and JPEG: every cell right."""
    seen = 0
    for case in screen_cases(scales=(scale,), jpeg_qualities=(None, 80)):
        reading = read_screen(case.image, classic)
        assert reading.board.to_text() == case.board.to_text(), case.label
        assert reading.status == case.status, case.label
        g, truth = reading.geometry, case.geometry
        assert (g.rows, g.cols) == (truth.rows, truth.cols), case.label
        # every cell edge within 3/4 px of the truth, all the way across
        assert _edge_error(g.left, g.pitch_x, truth.left, truth.pitch_x, g.cols) < 0.75, case.label
        assert _edge_error(g.top, g.pitch_y, truth.top, truth.pitch_y, g.rows) < 0.75, case.label
        assert _same_box(g.face, truth.face), case.label
        assert reading.board.mines == standard_mines(g.rows, g.cols)
        seen += 1
    assert seen >= 16  # Expert does not fit 1920x1080 at 2x; every other level/stage does


@pytest.mark.parametrize("quality", [75, 90])
def test_jpeg_qualities_read_exactly(quality, classic):
    for stage in stage_boards("intermediate", seed=11):
        image, _ = render_screen(stage.board, classic, 1.25, status=stage.status, seed=4)
        reading = read_screen(jpeg_roundtrip(image, quality), classic)
        assert reading.board.to_text() == stage.board.to_text(), stage.name


def test_auto_skin_reports_the_skin_and_score(classic):
    stage = stage_boards("beginner", seed=2)[1]
    image, _ = render_screen(stage.board, classic, 1.5, seed=9)
    reading = read_screen(image, "auto")
    assert reading.skin.name == "classic"
    assert 0.5 < reading.skin_score <= 1.0
    assert any(note.startswith("auto skin: classic (score") for note in reading.notes)


@pytest.mark.parametrize("tip", [(-2, -3), (-5, -6), (2, 1)])
def test_cursor_over_a_cell_is_uncertain_never_wrong(tip, classic):
    """The pointer's tip near a cell's centre, or over its corner (which (-5, -6) misread before)."""
    rng = np.random.default_rng(3)
    uncertain = 0
    for stage in stage_boards("intermediate", seed=5):
        for scale in (1.0, 1.5, 2.04):
            _, geometry = render_screen(stage.board, classic, scale, status=stage.status, seed=1)
            for _ in range(4):
                cell = (int(rng.integers(16)), int(rng.integers(16)))
                x, y = geometry.cell_center(cell)
                image, _ = render_screen(
                    stage.board,
                    classic,
                    scale,
                    status=stage.status,
                    seed=1,
                    cursor_at=(x + tip[0], y + tip[1]),
                )
                cells = classify_cells(image, geometry, classic)
                unsure = cells.uncertain_mask()
                wrong = (cells.states != stage.board.cells) & ~unsure
                assert not wrong.any(), (
                    f"{stage.name} x{scale} cursor at {cell}: misread {np.argwhere(wrong)}"
                )
                uncertain += int(unsure.any())
    assert uncertain > 0  # the cursor really does make cells unreadable


def test_cursor_makes_read_screen_refuse_naming_the_cell(classic):
    board = stage_boards("beginner", seed=3)[1].board
    _, geometry = render_screen(board, classic, 1.0, seed=2)
    x, y = geometry.cell_center((4, 4))
    image, _ = render_screen(board, classic, 1.0, seed=2, cursor_at=(x - 3, y - 4))
    with pytest.raises(RecognitionError) as info:
        read_screen(image, classic)
    assert (
        info.value.cell is not None and abs(info.value.cell[0] - 4) <= 1 and abs(info.value.cell[1] - 4) <= 1
    )
    assert info.value.confidence is not None and info.value.best_match is not None
    assert str(info.value.cell) in str(info.value)


def test_an_unknown_looking_cell_raises_recognition_error(classic):
    board = Board.from_text("1.2\n.F.\n000", mines=2)
    image, geometry = render_screen(board, classic, 1.25, seed=6, clutter=False)
    box = geometry.cell_rect((1, 2))
    image[box.top : box.bottom, box.left : box.right] = (255, 0, 255)
    with pytest.raises(RecognitionError) as info:
        read_board(image, geometry, classic)
    assert info.value.cell == (1, 2)
    assert "(1, 2)" in str(info.value) and "confidence" in str(info.value)


def test_no_board_raises_board_not_found(classic):
    image, _ = render_screen(Board.new(9, 9), classic, 1.0, seed=1)
    desktop = image.copy()
    desktop[:] = (40, 120, 20)
    put_text(desktop, "no minesweeper here", (100, 100), "simplex", 1, (255, 255, 255), 2)
    with pytest.raises(BoardNotFoundError, match="no 'classic' board found on the 1920x1080"):
        locate_board(desktop, classic)
    with pytest.raises(BoardNotFoundError, match="no board found with any known skin"):
        read_screen(desktop, "auto")


def test_two_boards_raise_naming_both(classic):
    board = stage_boards("beginner", seed=4)[1].board
    tile = render_board(board, classic, 1.0)
    screen = np.full((600, 900, 3), (90, 60, 40), np.uint8)
    screen[100 : 100 + tile.shape[0], 80 : 80 + tile.shape[1]] = tile
    screen[300 : 300 + tile.shape[0], 500 : 500 + tile.shape[1]] = tile
    with pytest.raises(BoardNotFoundError) as info:
        locate_board(screen, classic)
    message = str(info.value)
    assert "2 'classic' boards" in message
    assert "(80, 100)" in message and "(500, 300)" in message


def test_read_board_fast_path_on_a_grabbed_region(classic):
    stage = stage_boards("expert", seed=8)[1]
    image, truth = render_screen(stage.board, classic, 1.25, seed=5)
    located = read_screen(image, classic)
    region = located.geometry.region().union(located.geometry.face)
    grabbed = image[region.top : region.bottom, region.left : region.right]
    reading = read_board(grabbed, located.geometry.offset(-region.left, -region.top), classic)
    assert reading.board == located.board
    assert reading.status is GameStatus.PLAYING
    assert reading.geometry.face is not None
    assert _same_box(reading.geometry.face.offset(region.left, region.top), truth.face)


def test_read_board_verifies_a_known_face_and_searches_when_it_moved(classic):
    """The face region passed in is only verified; a stale one falls back to searching the band."""
    stages = stage_boards("beginner", seed=9)
    image, truth = render_screen(stages[3].board, classic, 1.5, status=GameStatus.LOST, seed=7)
    assert truth.face is not None
    reading = read_board(image, truth, classic)
    assert reading.status is GameStatus.LOST and _same_box(reading.geometry.face, truth.face)
    stale = replace(truth, face=truth.face.offset(-40, 0))
    reading = read_board(image, stale, classic)
    assert reading.status is GameStatus.LOST and _same_box(reading.geometry.face, truth.face)
    # the same board, now won: the known face region reads the new status
    image, _ = render_screen(stages[2].board, classic, 1.5, status=GameStatus.WON, seed=7)
    reading = read_board(image, truth, classic)
    assert reading.status is GameStatus.WON and _same_box(reading.geometry.face, truth.face)
    # no face on screen any more: none is reported, the board decides the status
    image[truth.face.top : truth.face.bottom, truth.face.left : truth.face.right] = (40, 40, 40)
    faceless = read_board(image, truth, classic)
    assert faceless.face is None and faceless.status is GameStatus.WON


def test_auto_rules_out_skins_that_cannot_read_the_found_board(classic):
    stage = stage_boards("expert", seed=3)[1]
    image, _ = render_screen(stage.board, classic, 1.25, seed=2)
    reading = read_screen(image, "auto")
    assert reading.skin.name == "classic" and reading.board == stage.board
    note = next(n for n in reading.notes if n.startswith("auto skin:"))
    assert "cannot read that board: " in note and "xdemineur" in note


def test_skins_are_loaded_once_until_their_folder_changes(tmp_path, monkeypatch):
    shutil.copytree(find_skin("classic").path, tmp_path / "classic")
    monkeypatch.setenv("MINEBOT_SKIN_PATH", str(tmp_path))
    first = load_cached("classic")
    assert first.path == tmp_path / "classic" and load_cached("classic") is first
    folder = tmp_path / "classic"
    later = max(entry.stat().st_mtime for entry in [folder, *folder.iterdir()]) + 10
    os.utime(tmp_path / "classic" / "1.png", (later, later))
    assert load_cached("classic") is not first
    with pytest.raises(SkinError, match="no skin named 'nope'"):
        load_cached("nope")


def test_status_from_board_when_the_skin_has_no_face(classic):
    faceless = copy.copy(classic)
    faceless.faces = {}
    for stage in stage_boards("beginner", seed=6):
        image, _ = render_screen(stage.board, classic, 1.0, status=stage.status, seed=3)
        reading = read_screen(image, faceless)
        assert reading.face is None and reading.geometry.face is None
        assert reading.status == stage.status, stage.name
    assert status_from_board(Board.from_text("1X\n.."), None) is GameStatus.LOST
    assert status_from_board(Board.from_text("1F\n11", mines=1), None) is GameStatus.WON
    assert status_from_board(Board.from_text("1.\n1.", mines=1), None) is GameStatus.PLAYING


def test_unknown_skin_name_is_a_skin_error():
    with pytest.raises(SkinError, match="no skin named 'nope'"):
        read_screen(np.zeros((50, 50, 3), np.uint8), "nope")


@pytest.mark.skipif(not REAL_CAPTURES, reason="no real client captures in tests/data/real")
@pytest.mark.parametrize("png", REAL_CAPTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_real_client_captures(png):
    """Captures of clients with a shipped skin (winemine, xdemineur) read exactly, skin chosen by auto."""
    text = png.with_suffix(".txt").read_text()
    truth = Board.from_text(text)
    header = dict(
        line[1:].split(":", 1) for line in text.splitlines() if line.startswith("#") and ":" in line
    )
    reading = read_screen(cv2.imread(str(png)), "auto", truth.mines)
    assert reading.skin.name == png.parent.name
    assert reading.board == truth
    if "status" in header:
        assert reading.status.value == header["status"].strip()


def _sheet_skin_board(sheet: np.ndarray, board: Board, scale: float) -> tuple[np.ndarray, Geometry]:
    """A board drawn from the real Minesweeper X sprite sheet (cells at 16 px), scaled, on a desktop."""
    sprites = {Cell(n): sheet[0:16, 16 * n : 16 * n + 16] for n in range(9)}
    for index, cell in (
        (0, Cell.COVERED),
        (2, Cell.MINE),
        (3, Cell.FLAG),
        (4, Cell.WRONG_FLAG),
        (5, Cell.EXPLODED),
    ):
        sprites[cell] = sheet[16:32, 16 * index : 16 * index + 16]
    tile = np.vstack([np.hstack([sprites[Cell(int(v))] for v in row]) for row in board.cells])
    tile = cv2.resize(tile, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)  # integer zoom
    screen = np.full((tile.shape[0] + 120, tile.shape[1] + 160, 3), (120, 80, 30), np.uint8)
    screen[60 : 60 + tile.shape[0] + 8, 76 : 76 + tile.shape[1] + 8] = (255, 255, 255)  # frame
    screen[60 : 60 + tile.shape[0], 80 : 80 + tile.shape[1]] = tile
    return screen, Geometry(80, 60, 16 * scale, 16 * scale, board.rows, board.cols)


@pytest.mark.skipif(not REALDATA.is_dir(), reason="../shared/realdata is not present")
@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_classic_skin_reads_the_real_minesweeper_x_sprites(scale, classic):
    sheet = cv2.imread(str(REALDATA / "minesweeper-x" / "winxpskin.bmp"))
    for stage in stage_boards("intermediate", seed=7):
        screen, truth = _sheet_skin_board(sheet, stage.board, scale)
        location = locate_board(screen, classic)
        assert (location.geometry.rows, location.geometry.cols) == (16, 16)
        assert location.reading.board().to_text() == stage.board.to_text(), (stage.name, scale)


CROP_STATES = {
    **{str(n): Cell(n) for n in range(9)},
    "covered": Cell.COVERED,
    "flag": Cell.FLAG,
    "mine": Cell.MINE,
    "explosion": Cell.EXPLODED,
    "false": Cell.WRONG_FLAG,
}


@pytest.mark.skipif(not REALDATA.is_dir(), reason="../shared/realdata is not present")
@pytest.mark.parametrize("prefix,scale", [("msx-", 1.0), ("msx-125-", 1.25)])
def test_classic_templates_match_real_minesweeper_x_cell_crops(prefix, scale, classic):
    """Each real 13x13 (15x15 at 125%) interior crop fits its own classic template best."""
    checked = 0
    for name, state in CROP_STATES.items():
        path = REALDATA / "minesweeper-x" / f"{prefix}{name}.png"
        if not path.exists():
            continue
        crop = cv2.imread(str(path)).astype(np.float32)
        scores = {}
        for other, template in classic.cells.items():
            size = round(16 * scale)
            scaled = cv2.resize(template, (size, size), interpolation=cv2.INTER_LINEAR).astype(np.float32)
            scores[other] = float(cv2.matchTemplate(scaled, crop, cv2.TM_SQDIFF).min())
        best = min(scores, key=scores.get)
        assert best == state, (
            f"{path.name}: best {best.name}, scores {scores[best]:.0f} vs {scores[state]:.0f}"
        )
        checked += 1
    assert checked >= 13
    assert set(CROP_STATES.values()) <= set(STATE_NAMES.values())


JS_ZOOM_15 = REPO / "tests" / "data" / "real" / "jsminesweeper" / "t24_z150"


def test_auto_falls_back_to_the_skinless_reader_when_the_skin_cannot_read_the_board():
    """JSMinesweeper at zoom 1.5: 'classic' finds the board but refuses cells; auto reads it with no
    skin, and the reading carries the generic skin so the play loop's re-reads stay skinless."""
    from bot.vision.read import find_board, is_generic

    png = JS_ZOOM_15 / "expert_fresh.png"
    image = cv2.imread(str(png))
    truth = Board.from_text(png.with_suffix(".txt").read_text())
    skinned = find_board(image, "auto")
    assert not is_generic(skinned.skin) and skinned.reading.uncertain()  # the template path alone refuses
    reading = read_screen(image, "auto")
    assert is_generic(reading.skin)
    assert reading.board == truth
    assert any("reading with no skin" in note for note in reading.notes)
    again = read_board(image, reading.geometry, reading.skin)
    assert is_generic(again.skin) and again.board == truth


def test_auto_refuses_naming_a_cell_when_both_readers_refuse(monkeypatch):
    """Neither reader is sure: a RecognitionError naming a cell, never a mix of the two readings."""
    from bot.vision import read as read_module

    image = cv2.imread(str(JS_ZOOM_15 / "expert_fresh.png"))

    def refuse(*_args, **_kwargs):
        raise RecognitionError("generic reader: cell (2, 3) cannot be named", cell=(2, 3))

    monkeypatch.setattr(read_module, "_generic_cells", refuse)
    with pytest.raises(RecognitionError, match="with no skin: generic reader") as caught:
        read_screen(image, "auto")
    assert caught.value.cell is not None


def test_auto_stays_on_the_skin_that_reads_the_board_whole(monkeypatch):
    """A frame the template skin reads exactly never reaches the skinless reader."""
    from bot.vision import read as read_module

    def fail(*_args, **_kwargs):
        raise AssertionError("the skinless reader was tried")

    monkeypatch.setattr(read_module, "find_generic", fail)
    png = REPO / "tests" / "data" / "real" / "winemine" / "expert_lost.png"
    truth = Board.from_text(png.with_suffix(".txt").read_text())
    reading = read_screen(cv2.imread(str(png)), "auto", truth.mines)
    assert reading.skin.name == "winemine" and reading.board == truth


def test_auto_reads_with_no_skin_when_the_skin_reads_only_part_of_the_board(classic):
    """A board whose bottom rows the skin cannot place (painted in another look) is not read as the
    smaller board the skin fits: the grid goes on, so auto reads it with no skin (or refuses)."""
    board = stage_boards("expert", seed=0)[1].board
    image, truth = render_screen(board, "classic", 1.0, seed=1)
    region = truth.region()
    cut = round(truth.top + 12 * truth.pitch_y)
    bottom = image[cut : region.bottom, region.left : region.right]
    image[cut : region.bottom, region.left : region.right] = 255 - bottom  # same lattice, other colours
    from bot.vision.read import find_board

    skinned = find_board(image, "auto")
    assert (skinned.geometry.rows, skinned.geometry.cols) == (12, 30) and not skinned.reading.uncertain()
    try:
        reading = read_screen(image, "auto")
    except RecognitionError as exc:
        assert "grid goes on (bottom)" in str(exc) and "with no skin" in str(exc)
        return
    assert (reading.geometry.rows, reading.geometry.cols) == (truth.rows, truth.cols)


def test_auto_does_not_take_a_sure_reading_no_game_allows(classic):
    """Every cell sure but the position impossible (a '3' with one covered neighbour): not exact, so
    auto tries the skinless reader, and with that refusing too, refuses naming a cell."""
    from bot.vision.read import find_board

    cells = np.full((9, 9), int(Cell.ZERO), np.int8)
    cells[0, 0] = int(Cell.COVERED)
    cells[1, 1] = int(Cell.THREE)
    cells[0, 1] = cells[1, 0] = int(Cell.ONE)
    image, _ = render_screen(Board(cells), "classic", 1.0, seed=1)
    located = find_board(image, "auto")
    assert located.skin.name == "classic" and not located.reading.uncertain()
    with pytest.raises(RecognitionError, match="reads 3 but has only 1 covered") as caught:
        read_screen(image, "auto")
    assert caught.value.cell is not None


def test_auto_does_not_take_a_board_of_only_zeros(classic):
    """A skin that reads every cell as a sure 0 has misread (no game has no mine: an unseen client's
    covered tiles once read so): auto does not take it, and what it returns instead is no all-0 board."""
    from bot.vision.read import find_board

    image, _ = render_screen(Board(np.full((16, 30), int(Cell.ZERO), np.int8)), "classic", 1.0, seed=3)
    located = find_board(image, "auto")
    assert located.skin.name == "classic" and not located.reading.uncertain()
    try:
        reading = read_screen(image, "auto")
    except (RecognitionError, BoardNotFoundError):
        return
    assert reading.skin.name != "classic"
    assert not (reading.board.cells == Cell.ZERO).all()


@pytest.mark.parametrize("scale", [1.0, 1.75])
def test_nearest_distances_are_the_readings_distances(scale, classic):
    """The grid fit's cheap distances (no cell named) are exactly those a full classification gives."""
    from bot.vision.classify import nearest_distances

    stage = stage_boards("expert", seed=4)[3]
    image, geometry = render_screen(stage.board, classic, scale, seed=2)
    band = replace(geometry, top=geometry.top + 0.4, rows=5)  # off the cells a little: distances vary
    for where in (geometry, band):
        reading = classify_cells(image, where, classic, colours=None)
        assert np.array_equal(nearest_distances(image, where, classic), reading.distance)


def test_locate_fits_each_grid_placement_once(monkeypatch, classic):
    """A fresh board: the snap after the refit tries the placements the first snap tried, and their
    fit costs are not computed again (same geometry found)."""
    from bot.vision import snap as snap_module

    image, truth = render_screen(stage_boards("expert", seed=8)[0].board, classic, 1.5, seed=3)
    placed: list[tuple[float, ...]] = []
    real = snap_module.nearest_distances

    def counted(image, geometry, skin):
        placed.append((geometry.left, geometry.top, geometry.pitch_x, geometry.pitch_y, geometry.rows))
        return real(image, geometry, skin)

    monkeypatch.setattr(snap_module, "nearest_distances", counted)
    found = locate_board(image, classic)
    assert (found.geometry.rows, found.geometry.cols) == (truth.rows, truth.cols)
    assert abs(found.geometry.left - truth.left) < 1 and abs(found.geometry.top - truth.top) < 1
    assert placed and len(placed) == len(set(placed))


def test_a_snap_never_shrinks_a_one_column_group_to_no_pitch():
    """xbomb's flagged board shrunk to 0.8 (cubic): a one-column group of template hits, snapped end by
    end, once reached a pitch of 0 px, and the crop of no width crashed OpenCV's resize; the screenshot
    is read or refused, as any other (here refused)."""
    from bot.errors import MinebotError

    image = cv2.imread(str(Path(__file__).parent / "data" / "real" / "xbomb" / "expert_flags.png"))
    small = cv2.resize(image, None, fx=0.8, fy=0.8, interpolation=cv2.INTER_CUBIC)
    with pytest.raises(MinebotError):
        read_screen(small, "auto", mines=99)
