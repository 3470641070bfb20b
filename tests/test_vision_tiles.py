"""Covered cells painted with a texture: found by repetition (bot.vision.tiles), placed by the grid finder."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from styles import DIGIT_COLORS, Look, _drawn, _lined, mid_game, screenshot

from bot.board import Board
from bot.errors import BoardNotFoundError
from bot.vision.grid import find_grid
from bot.vision.tiles import tile_faces, tile_pitch


def _seamless(cell: int, seed: int = 7) -> np.ndarray:
    """A grass-like texture tile that wraps around seamlessly: no line, bevel or seam marks a cell's edge."""
    rng = np.random.default_rng(seed)
    spectrum = np.fft.fft2(rng.normal(size=(cell, cell, 3)), axes=(0, 1))
    k = np.fft.fftfreq(cell)
    smooth = np.fft.ifft2(
        spectrum * np.exp(-(k[:, None] ** 2 + k[None, :] ** 2) / 0.03)[:, :, None], axes=(0, 1)
    )
    grain = (smooth.real - smooth.real.mean()) / smooth.real.std()
    return np.clip(np.array([40.0, 110.0, 50.0]) + 28 * grain, 0, 255).round().astype(np.uint8)


TILE = _seamless(20)
TEXTURED = Look(
    "textured",
    20,
    _drawn(20, TILE.copy, _lined(20, (236, 236, 236), (205, 205, 205)), DIGIT_COLORS, (0, 0, 230)),
    window=(235, 235, 235),
)
FRESH = Board.from_text("\n".join(["." * 30] * 16))


def _assert_found(image: np.ndarray, truth) -> None:
    g = find_grid(image).geometry
    assert (g.rows, g.cols) == (truth.rows, truth.cols)
    assert abs(g.pitch_x - truth.pitch_x) < 0.05 and abs(g.pitch_y - truth.pitch_y) < 0.05
    assert abs(g.left - truth.left) <= 0.6 and abs(g.top - truth.top) <= 0.6  # a tile starts on a whole pixel


@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_a_fresh_board_of_textured_tiles_is_found(scale):
    # Not one flat face and no line between covered cells: only their repetition shows the board.
    _assert_found(*screenshot(FRESH, TEXTURED, scale))


@pytest.mark.parametrize("scale", [1.0, 1.5])
def test_a_textured_board_half_opened_is_found_whole(scale):
    # The opened cells are found by their flat faces; the textured ones around them join that board.
    _assert_found(*screenshot(mid_game(16, 30, 99, seed=3), TEXTURED, scale))


def test_the_pitch_is_the_tile_not_a_multiple_and_the_phase_is_where_tiles_start():
    image, truth = screenshot(FRESH, TEXTURED)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    busy = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 12
    assert tile_pitch(gray, busy, axis=1) == 20 and tile_pitch(gray, busy, axis=0) == 20
    faces = tile_faces(gray)
    assert len(faces.x) == 16 * 30
    assert np.allclose((faces.cx - truth.left) % 20, 10) and np.allclose((faces.cy - truth.top) % 20, 10)


def test_lines_and_frames_on_a_plain_ground_are_no_tiles():
    # A frame line repeats along itself and its plain ground everywhere, but a cell across it matches
    # its neighbours only by its ground, not by its lines.
    image = np.full((300, 400), 200, np.uint8)
    for y in range(20, 300, 40):
        image[y : y + 2] = 60
    image[:, 200:202] = 60
    assert len(tile_faces(image).x) == 0


def test_a_row_of_repeated_icons_is_no_board():
    # A toolbar of identical buttons repeats one picture, but only in one row: no 5 x 5 lattice.
    image = np.full((200, 800, 3), 230, np.uint8)
    for k in range(25):
        image[40:60, 20 + 20 * k : 40 + 20 * k] = TILE
    with pytest.raises(BoardNotFoundError):
        find_grid(image)


def test_a_fresh_board_of_one_picture_reads_all_covered():
    # One look in every cell is a fresh board, whatever the picture resembles: no other position shows one
    # state everywhere (this seamless grass has no frame; a symmetric picture had been read as 480 mines).
    from bot.board import Cell
    from bot.vision.generic import read_cells

    image, _ = screenshot(FRESH, TEXTURED)
    reading = read_cells(image, find_grid(image).geometry)
    assert (reading.states == Cell.COVERED).all()
