"""The renderer: classic cells drawn where Geometry says at any scale, colours, faces, skins, screens."""

from __future__ import annotations

import doctest
import importlib
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board, Cell
from bot.game import GameStatus
from bot.geometry import Geometry
from bot.render import (
    BLACK,
    DARK,
    DIGIT_COLORS,
    GREY,
    RED,
    WHITE,
    YELLOW,
    RenderError,
    classic_cell,
    classic_counter,
    classic_face,
    jpeg_roundtrip,
    lcd_text,
    main,
    render_board,
    render_screen,
)
from bot.skin import STATE_NAMES, TEMPLATES_DIR, Skin, load_skin

SCALES = [1.0, 1.25, 1.5, 1.75, 2.0, 2.04]


def count(image: np.ndarray, color: tuple[int, int, int]) -> int:
    """How many pixels are exactly ``color``."""
    return int(np.all(image == np.array(color, np.uint8), axis=-1).sum())


def checker_board(rows: int = 5, cols: int = 7) -> Board:
    cells = np.full((rows, cols), Cell.COVERED, np.int8)
    cells[1::2, ::2] = Cell.ONE
    cells[::2, 1::2] = Cell.ZERO
    return Board(cells, mines=3)


@pytest.mark.parametrize("scale", SCALES)
def test_cells_sit_exactly_where_geometry_says(scale: float) -> None:
    board = checker_board()
    image = render_board(board, scale=scale)
    geometry = Geometry(0, 0, 16 * scale, 16 * scale, board.rows, board.cols)
    region = geometry.region()
    assert image.shape == (region.height, region.width, 3)
    for cell in board:
        rect = geometry.cell_rect(cell)
        crop = image[rect.top : rect.bottom, rect.left : rect.right]
        assert np.array_equal(crop, classic_cell(board[cell], rect.width, rect.height)), cell


@pytest.mark.parametrize("scale", SCALES)
def test_covered_bevels_start_on_the_rounded_pixel(scale: float) -> None:
    """Independent of cell_rect: each covered cell's white left bevel starts at round(c * pitch)."""
    board = Board.new(1, 12)
    image = render_board(board, scale=scale)
    middle = image[image.shape[0] // 2]
    white = np.all(middle == 255, axis=-1)
    starts = [x for x in range(len(white)) if white[x] and (x == 0 or not white[x - 1])]
    assert starts == [round(c * 16 * scale) for c in range(12)]


def test_fractional_pitch_alternates_32_and_33_pixel_cells() -> None:
    geometry = Geometry(0, 0, 32.64, 32.64, 1, 25)
    widths = {geometry.cell_rect((0, c)).width for c in range(25)}
    assert widths == {32, 33}
    assert render_board(Board.new(1, 25), scale=2.04).shape[1] == round(25 * 32.64)


def test_scaled_cells_are_redrawn_not_resized() -> None:
    drawn = classic_cell(Cell.THREE, 20, 20)
    resized = cv2.resize(np.asarray(classic_cell(Cell.THREE)), (20, 20), interpolation=cv2.INTER_LINEAR)
    assert not np.array_equal(drawn, resized)
    # a 2.5 px bevel at 125%: two full white rows, then a blend, then grey
    column = classic_cell(Cell.COVERED, 20, 20)[:, 10]
    assert column[0].tolist() == list(WHITE) and column[1].tolist() == list(WHITE)
    assert 192 < int(column[2][0]) < 255
    assert count(classic_cell(Cell.THREE, 32, 32), (0, 0, 255)) > 2.5 * count(classic_cell(Cell.THREE), RED)


@pytest.mark.parametrize("n", range(1, 9))
def test_digits_have_their_colour(n: int) -> None:
    image = classic_cell(Cell(n))
    grid_line = 31  # the 1 px top and left grid line of a revealed 16 px cell
    extra = count(image, DIGIT_COLORS[n]) - (grid_line if DIGIT_COLORS[n] == DARK else 0)
    assert extra >= 20
    others = [c for m, c in DIGIT_COLORS.items() if m != n and c not in (DARK, DIGIT_COLORS[n])]
    assert all(count(image, c) == 0 for c in others)


def test_states_look_right() -> None:
    zero = classic_cell(Cell.ZERO)
    assert count(zero, GREY) == 15 * 15 and count(zero, DARK) == 31
    covered = classic_cell(Cell.COVERED)
    assert covered[0, 0].tolist() == list(WHITE) and covered[15, 15].tolist() == list(DARK)
    assert count(covered, WHITE) > 50 and count(covered, DARK) > 50
    flag = classic_cell(Cell.FLAG)
    assert count(flag, RED) >= 10 and count(flag, BLACK) >= 20 and count(flag, WHITE) > 50
    mine = classic_cell(Cell.MINE)
    assert count(mine, BLACK) >= 30 and count(mine, WHITE) >= 1 and count(mine, RED) == 0
    exploded = classic_cell(Cell.EXPLODED)
    assert count(exploded, RED) > 100 and count(exploded, BLACK) >= 30
    wrong = classic_cell(Cell.WRONG_FLAG)
    assert count(wrong, RED) >= 10 and count(wrong, BLACK) >= 10
    images = [classic_cell(cell).tobytes() for cell in Cell]
    assert len(set(images)) == len(Cell)


def test_faces_differ_and_are_yellow_smileys() -> None:
    faces = {name: classic_face(name) for name in ("playing", "won", "lost")}
    assert all(face.shape == (26, 26, 3) for face in faces.values())
    assert len({face.tobytes() for face in faces.values()}) == 3
    assert all(count(face, YELLOW) > 80 for face in faces.values())
    assert count(faces["won"], BLACK) > count(faces["playing"], BLACK) + 15  # the sunglasses
    with pytest.raises(RenderError, match="sad"):
        classic_face("sad")


def test_counter_shows_its_digits() -> None:
    assert [lcd_text(v) for v in (0, 7, 99, 1000, -5, -120)] == ["000", "007", "099", "999", "-05", "-99"]
    assert classic_counter(888).shape == (25, 41, 3)
    assert count(classic_counter(888), (0, 0, 255)) > count(classic_counter(111), (0, 0, 255)) * 2
    assert not np.array_equal(classic_counter(12), classic_counter(13))


def test_committed_templates_equal_the_drawn_ones() -> None:
    skin = load_skin(TEMPLATES_DIR / "classic")
    assert skin.name == "classic" and skin.cell_size == 16 and skin.first_click_rule.value == "winxp"
    assert skin.new_game == "face" and not skin.missing_states()
    for cell in STATE_NAMES.values():
        assert np.array_equal(skin.cells[cell], classic_cell(cell)), cell
    for name, face in skin.faces.items():
        assert np.array_equal(face, classic_face(name)), name
    assert "python -m bot.render --write-classic templates/classic" in (
        TEMPLATES_DIR / "classic" / "SOURCE.md"
    ).read_text(encoding="utf-8")


def test_write_classic_skin_through_the_module_cli(tmp_path) -> None:
    assert main(["--write-classic", str(tmp_path / "c")]) == 0
    meta = json.loads((tmp_path / "c" / "skin.json").read_text(encoding="utf-8"))
    assert meta["faces"] == {n: f"face_{n}.png" for n in ("playing", "won", "lost")}
    assert set(meta["cells"]) == set(STATE_NAMES)
    assert main([]) == 2


def solid_skin(tmp_path, size: int = 10, drop: Cell | None = None) -> Skin:
    """A skin whose templates are solid colours, one per state, written and loaded for real."""
    folder = tmp_path / "solid"
    folder.mkdir()
    cells = {}
    for name, cell in STATE_NAMES.items():
        if cell is drop:
            cells[name] = None
            continue
        cv2.imwrite(str(folder / f"{name}.png"), np.full((size, size, 3), 10 * int(cell) + 5, np.uint8))
        cells[name] = f"{name}.png"
    meta = {"name": "solid", "cell_size": size, "first_click_rule": "safe", "cells": cells}
    (folder / "skin.json").write_text(json.dumps(meta), encoding="utf-8")
    return load_skin(folder)


@pytest.mark.parametrize("scale", [0.5, 1.0, 2.04])
def test_other_skins_resize_templates_to_each_cell(tmp_path, scale: float) -> None:
    skin = solid_skin(tmp_path)
    board = Board.from_text("012\n.F*\nXW8")
    image = render_board(board, skin, scale)
    geometry = Geometry(0, 0, 10 * scale, 10 * scale, 3, 3)
    assert image.shape[:2] == (geometry.region().height, geometry.region().width)
    for cell in board:
        rect = geometry.cell_rect(cell)
        crop = image[rect.top : rect.bottom, rect.left : rect.right]
        assert np.all(crop == 10 * int(board[cell]) + 5), cell


def test_missing_template_is_a_named_error(tmp_path) -> None:
    skin = solid_skin(tmp_path, drop=Cell.EIGHT)
    render_board(Board.from_text("12"), skin)
    with pytest.raises(RenderError, match="EIGHT"):
        render_board(Board.from_text("18"), skin)


@pytest.mark.parametrize("scale", [0, -1, 20, float("nan")])
def test_bad_scale_is_refused(scale: float) -> None:
    with pytest.raises(RenderError, match="scale"):
        render_board(Board.new(2, 2), scale=scale)


@pytest.mark.parametrize("scale", [1.0, 1.25, 2.04])
def test_screen_geometry_is_the_truth(scale: float) -> None:
    board = Board.from_text("# mines: 10\n" + "\n".join(["..12F....", "0001....."] * 4 + ["*XW......"]))
    screen, geometry = render_screen(board, scale=scale, status=GameStatus.LOST, seed=5)
    assert screen.shape == (1080, 1920, 3) and screen.dtype == np.uint8
    assert geometry.pitch_x == pytest.approx(16 * scale) and (geometry.rows, geometry.cols) == (9, 9)
    region = geometry.region()
    crop = screen[region.top : region.bottom, region.left : region.right]
    assert np.array_equal(crop, render_board(board, scale=scale))
    face = geometry.face
    assert face is not None and face.bottom < region.top
    assert np.array_equal(
        screen[face.top : face.bottom, face.left : face.right], classic_face("lost", face.width)
    )


def test_screen_is_seeded_and_placed() -> None:
    board = Board.new(16, 30, 99)
    a, ga = render_screen(board, seed=1)
    b, gb = render_screen(board, seed=1)
    c, gc = render_screen(board, seed=2)
    assert np.array_equal(a, b) and ga == gb
    assert ga != gc
    _, fixed = render_screen(board, origin=(100, 50), clutter=False)
    _, other = render_screen(board, origin=(300, 70), clutter=False)
    assert (other.left - fixed.left, other.top - fixed.top) == (200, 20)


def test_clutter_is_drawn_and_can_be_turned_off() -> None:
    board = Board.new(9, 9, 10)
    busy, geometry = render_screen(board, origin=(600, 300), seed=3, screen_size=(1024, 768))
    plain, _ = render_screen(board, origin=(600, 300), seed=3, screen_size=(1024, 768), clutter=False)
    outside = np.ones(busy.shape[:2], bool)
    outside[250:, 550:] = False
    assert (busy[outside] != plain[outside]).any(axis=-1).mean() > 0.05
    region = geometry.region()
    assert np.array_equal(
        busy[region.top : region.bottom, region.left : region.right],
        plain[region.top : region.bottom, region.left : region.right],
    )


def test_cursor_is_drawn_with_its_tip_at_the_point() -> None:
    board = Board.new(9, 9, 10)
    plain, geometry = render_screen(board, origin=(100, 100), clutter=False)
    x, y = geometry.cell_center((4, 4))
    with_cursor, _ = render_screen(board, origin=(100, 100), clutter=False, cursor_at=(x, y))
    assert with_cursor[y + 1, x].tolist() == list(BLACK)
    assert count(with_cursor[y : y + 20, x : x + 12], WHITE) > 30
    changed = np.argwhere((with_cursor != plain).any(axis=-1))
    assert changed.min(axis=0).tolist() == [y, x] or changed[:, 0].min() >= y - 1


def test_window_that_does_not_fit_is_refused() -> None:
    with pytest.raises(RenderError, match="does not fit"):
        render_screen(Board.new(16, 30, 99), scale=2.0, screen_size=(800, 600))
    with pytest.raises(RenderError, match="origin"):
        render_screen(Board.new(9, 9, 10), origin=(1900, 0))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_small_screen_that_fits_the_window_draws_its_clutter_inside(seed: int) -> None:
    # screens a little larger than a Beginner window are narrower than some of the clutter's windows
    board = Board.new(9, 9, 10)
    for size in [(300, 300), (483, 396), (420, 340)]:
        screen, geometry = render_screen(board, screen_size=size, seed=seed)
        assert screen.shape == (size[1], size[0], 3)
        assert geometry.cell_rect((8, 8)).right <= size[0]


def test_mines_left_counts_flags_by_default() -> None:
    board = Board.from_text("# mines: 10\nFF....\n......")
    screen, _ = render_screen(board, origin=(0, 0), clutter=False, screen_size=(400, 400))
    explicit, _ = render_screen(board, origin=(0, 0), clutter=False, screen_size=(400, 400), mines_left=8)
    other, _ = render_screen(board, origin=(0, 0), clutter=False, screen_size=(400, 400), mines_left=10)
    assert np.array_equal(screen, explicit) and not np.array_equal(screen, other)


def test_jpeg_roundtrip_is_lossy_but_close() -> None:
    image = render_board(checker_board(), scale=1.5)
    lossy = jpeg_roundtrip(image, quality=70)
    assert lossy.shape == image.shape and not np.array_equal(lossy, image)
    assert np.abs(lossy.astype(int) - image.astype(int)).mean() < 8
    with pytest.raises(RenderError, match="quality"):
        jpeg_roundtrip(image, 0)


@pytest.mark.parametrize("name", ["bot.render", "bot.capture", "bot.input", "bot.mock"])
def test_docstring_examples_of_the_screen_modules(name: str) -> None:
    """The examples in the renderer, capture, input and mock modules' docstrings run."""
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


REALDATA = Path(__file__).resolve().parent.parent.parent / "shared" / "realdata" / "minesweeper-x"


@pytest.mark.skipif(not REALDATA.is_dir(), reason="../shared/realdata is not available")
@pytest.mark.parametrize("n", range(1, 9))
def test_classic_digits_match_real_minesweeper_x_crops(n: int) -> None:
    """Real 13x13 Minesweeper X crops (interior past the grid line): same colour, nearly same glyph."""
    real = cv2.imread(str(REALDATA / f"msx-{n}.png"))
    drawn = np.asarray(classic_cell(Cell(n)))[1:14, 1:14]
    real_ink = np.any(real != GREY, axis=-1)
    drawn_ink = np.any(drawn != GREY, axis=-1)
    assert {tuple(int(v) for v in p) for p in real[real_ink]} == {DIGIT_COLORS[n]}
    assert (real_ink & drawn_ink).sum() / (real_ink | drawn_ink).sum() >= 0.8
