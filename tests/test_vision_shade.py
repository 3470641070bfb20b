"""Boards shaded by place (bot/vision/shade.py): a shade running across the board, as Windows 7 tints its
tiles from one corner to the other, is read as the board it is, or refused; never read wrong."""

from __future__ import annotations

import numpy as np
import pytest

from bot.board import Cell
from bot.errors import RecognitionError
from bot.geometry import Geometry
from bot.render import classic_cell, render_screen
from bot.vision.cases import stage_boards
from bot.vision.describe import ink_of
from bot.vision.generic import read_cells
from bot.vision.shade import chain_groups, shadowed_frame_difference, shadowed_ground


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
        # refused from session 19's merge until a glyph's own shadows were ground and the flag's renderings
        # were linked one to the next
        ("xdemineur", 1),
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


def _two_on_light_ground() -> tuple[np.ndarray, np.ndarray]:
    """A classic 2 resampled to a 32 px tile on a light ground with no frame, and that ground alone."""
    import cv2

    cell = cv2.resize(classic_cell(Cell.TWO), (32, 32), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    ground = np.full_like(cell, 224.0)
    tile = ground.copy()
    ink = np.abs(cell - cell[10, 3]).max(axis=-1) > 40  # the digit's pixels (its fill is grey)
    ink[:, :3] = ink[:, -3:] = ink[:3] = ink[-3:] = False  # not the bevel
    tile[ink] = cell[ink]
    return tile, ground


def test_a_cast_shadow_is_ground_not_ink() -> None:
    """Grey shadows fading inwards along the top and left (a raised neighbour's, as Windows 7 casts on a
    number opened among covered tiles) darken the ground the ink is taken against: the ink is the digit
    alone, none of it along those sides."""
    tile, ground = _two_on_light_ground()
    shadowed = tile.copy()
    for depth, factor in enumerate((0.45, 0.5, 0.6, 0.7, 0.8, 0.9)):
        shadowed[depth, depth:] = np.minimum(shadowed[depth, depth:], ground[depth, depth:] * factor)
        shadowed[depth:, depth] = np.minimum(shadowed[depth:, depth], ground[depth:, depth] * factor)
    darkened = shadowed_ground(shadowed, ground)
    bare = (tile == ground).all(axis=-1)  # no digit there
    bare[5:, 5:] = False  # the darker rows (the faintest, where the digit's foot crosses, may be left)
    assert np.abs(darkened - shadowed).max(axis=-1)[bare].max() < 16  # the shadows are ground
    ink = ink_of(shadowed, darkened, 1) >= 0.5
    assert (ink == (ink_of(tile, ground, 1) >= 0.5)).mean() > 0.97  # the digit as drawn with no shadow


def test_a_line_drawn_near_black_along_a_side_is_no_shadow() -> None:
    """A grid line a tile's cut took in (black along the top, as xbomb draws its lines) is a line, not a
    shadow: a shadow dims the ground (:data:`SHADOW_DIMMEST`); taken as one, it hid a 3's top from its
    ink and the 3 was read as a 4 (tests/test_live_frames.py)."""
    tile, ground = _two_on_light_ground()
    lined = tile.copy()
    lined[0:2] = 0.0
    lined[:, 0:2] = 0.0
    assert (shadowed_ground(lined, ground) == ground).all()


def test_a_bar_in_the_glyphs_own_ink_is_no_shadow() -> None:
    """A bar along a side in the glyph's own colour (a bold digit's foot drawn across the cell), or one
    of another hue, is kept as ink: only a darkening of the ground's own colour is a shadow."""
    tile, ground = _two_on_light_ground()
    core = tile[8:24, 8:24].reshape(-1, 3)
    ink_colour = core[np.abs(core - 224).max(axis=-1).argmax()]
    for colour in (ink_colour, np.array([0.0, 0.0, 200.0], np.float32)):
        barred = tile.copy()
        barred[26:29, 2:30] = colour
        assert (shadowed_ground(barred, ground)[26:29] == ground[26:29]).all()
