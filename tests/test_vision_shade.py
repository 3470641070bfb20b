"""Boards shaded by place (bot/vision/shade.py): a shade running across the board, as Windows 7 tints its
tiles from one corner to the other, is read as the board it is, or refused; never read wrong."""

from __future__ import annotations

import numpy as np
import pytest

from bot.errors import RecognitionError
from bot.geometry import Geometry
from bot.render import render_screen
from bot.vision.cases import stage_boards
from bot.vision.generic import read_cells
from bot.vision.shade import chain_groups, shadowed_frame_difference


def shaded(image: np.ndarray, geometry: Geometry, far: float) -> np.ndarray:
    """``image`` with the board darkened from 1 at its top-left corner to ``far`` at its bottom-right."""
    r = geometry.region()
    out = image.astype(np.float32)
    yy, xx = np.mgrid[0 : r.height, 0 : r.width]
    factor = 1 - (1 - far) * (xx / r.width + yy / r.height) / 2
    out[r.top : r.bottom, r.left : r.right] *= factor[..., None]
    return out.clip(0, 255).astype(np.uint8)


@pytest.mark.parametrize(
    ("skin", "stage"),
    [
        ("xdemineur", 1),  # six renderings of one flag, each tinted otherwise: linked one to the next
        ("winemine", 0),
    ],
)
def test_a_board_shaded_across_reads_exactly(skin: str, stage: int) -> None:
    """A covered run whose shade changes little from cell to cell is one group (read exactly; refused
    before groups were chained along the shade)."""
    board = stage_boards("expert", seed=3)[stage].board
    image, geometry = render_screen(board, skin, 1.0, seed=1)
    cells = read_cells(shaded(image, geometry, 0.65), geometry)
    assert (cells.states == board.cells).all()


def test_shaded_boards_are_never_read_wrong() -> None:
    """Three skins, four stages, two shades: each frame exact or refused (0 wrong cells)."""
    exact = 0
    for skin in ("classic", "winemine", "xdemineur"):
        for stage in range(4):
            board = stage_boards("expert", seed=4)[stage].board
            image, geometry = render_screen(board, skin, 1.0, seed=1)
            for far in (0.8, 0.65):
                try:
                    cells = read_cells(shaded(image, geometry, far), geometry)
                except RecognitionError:
                    continue
                assert (cells.states == board.cells).all(), (skin, stage, far)
                exact += 1
    assert exact >= 18


def test_groups_join_only_through_alike_neighbours() -> None:
    looks = np.zeros((4, 4, 3), np.float32)
    looks[:, :, :] = np.array([0, 5, 60, 65], np.float32)[:, None, None]
    # 2x2 board: cells 0,1 alike side by side (groups 0 and 1 join), 2,3 alike (groups 2 and 3 join);
    # 0 above 2 differ by 60: apart
    assert chain_groups(np.array([0, 1, 2, 3]), looks, 2, 2).tolist() == [0, 0, 1, 1]


def test_a_shadowed_side_is_left_out_but_not_a_whole_frame() -> None:
    tile = np.full((32, 32, 3), 200.0, np.float32)
    tile[:, 0:2] = 40.0  # a grid line on the left
    shadow = tile.copy()
    shadow[2:6, 2:30] -= 60.0  # a shadow along the top
    assert shadowed_frame_difference(shadow, tile) < 0.5
    darker = tile * 0.6  # darker all round, then tinted back: alike
    assert shadowed_frame_difference(darker, tile) < 0.5
    framed = tile.copy()
    framed[2:30, 2:6] = 255.0  # a light bevel on the left
    framed[2:6, 2:30] = 255.0  # and along the top
    framed[26:30, 2:30] = 90.0  # dark along the bottom
    framed[2:30, 26:30] = 90.0  # and the right
    assert shadowed_frame_difference(framed, tile) == 2.0
