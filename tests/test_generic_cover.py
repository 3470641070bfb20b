"""Covered or revealed decided by structure and the board's logic on looks a few levels apart.

The confident misread of issue 28: revealed empty cells a few grey levels from the covered grey, all
read as covered. Toolkit buttons draw their raised edge as a line a pixel wide (a band's mean hides it),
and a covered tile and a revealed 0 of nearly one colour were joined into one kind, so the board's logic
could take every 0 for a covered cell.
"""

from __future__ import annotations

import numpy as np
import pytest

from bot.errors import RecognitionError
from bot.looks import DEV_SEEDS, generate
from bot.vision.describe import bevel, edge_lines
from bot.vision.generic import read_cells
from bot.vision.tilekinds import RAISED_BEVEL, _touch

TILE = 32


def _tile(fill: float) -> np.ndarray:
    return np.full((TILE, TILE, 3), fill, np.float32)


def test_a_toolkit_button_s_one_pixel_bevel_is_raised() -> None:
    """Light line along the top and left, dark along the bottom and right, a pixel or two wide: raised,
    though the edge band's mean is within a few levels of the fill."""
    button = _tile(148)
    button[0, :] = button[:, 0] = 167
    button[-2:, :] = button[:, -2:] = 72
    assert bevel(button) < RAISED_BEVEL <= edge_lines(button)


@pytest.mark.parametrize("edge", [138.0, 170.0])
def test_a_gap_or_grid_line_all_round_is_not_raised(edge: float) -> None:
    """A gap or a grid line is one colour on every side, lighter or darker: not raised."""
    tile = _tile(154)
    tile[:2, :] = tile[:, :2] = tile[-2:, :] = tile[:, -2:] = edge
    assert edge_lines(tile) < RAISED_BEVEL


def test_a_shadow_cast_on_a_revealed_tile_is_not_raised() -> None:
    """Raised neighbours cast a shadow on a revealed tile's top and left: sunken, not raised."""
    tile = _tile(200)
    tile[:3, :] = tile[:, :3] = 150
    assert edge_lines(tile) < RAISED_BEVEL


def test_cells_touch_on_any_side_or_corner() -> None:
    shape = (4, 5)
    assert _touch(np.array([0]), np.array([6]), shape)  # (0, 0) and (1, 1)
    assert not _touch(np.array([0]), np.array([2, 10]), shape)
    assert not _touch(np.array([4]), np.array([5]), shape)  # (0, 4) and (1, 0): not across the wrap


def test_revealed_empties_a_few_levels_from_covered_buttons_read_revealed() -> None:
    """Development seed 488: toolkit buttons (covered) and flat revealed tiles 6 levels apart; the
    51 revealed 0s were all read as covered (confidence 1) before, with the generator's first version
    (its filled flag now drawn as a diamond, the reading before this change refuses instead)."""
    seed = 488
    assert seed in DEV_SEEDS
    sample = generate(seed)
    board = read_cells(sample.image, sample.geometry).board(sample.truth.mines)
    assert (board.cells == sample.truth.cells).all(), board.to_text()


KNOWN = pytest.mark.xfail(strict=True, reason="a known misread not yet fixed (see docs/vision.md)")


@pytest.mark.parametrize(
    "seed",
    [
        186,  # a won board's filled flags, the revealed 0s a few levels off: refused
        pytest.param(54, marks=KNOWN),  # a faint one-ink pixel 3 grouped with the 2s
        121,  # a bold 1 on wide cells read as 4 until a glyph's own cast shadows were ground
        pytest.param(255, marks=KNOWN),  # a flag drawn nearly in the covered tile's colour
    ],
)
def test_a_hard_development_look_is_read_exactly_or_refused(seed: int) -> None:
    sample = generate(seed)
    try:
        board = read_cells(sample.image, sample.geometry).board(sample.truth.mines)
    except RecognitionError:
        return
    assert (board.cells == sample.truth.cells).all(), board.to_text()


@pytest.mark.parametrize(
    "seed",
    [
        145,  # flat low-contrast tiles, covered and revealed 0s a few levels apart, wide cells, JPEG
        233,  # flat covered tiles beside a low-contrast revealed checkerboard, GIF palette and blur
    ],
)
def test_low_contrast_covered_tiles_and_0s_that_never_touch_are_told_apart_by_the_logic(seed: int) -> None:
    """Covered tiles and revealed 0s within a few levels of each other were one kind (joined by colour),
    so no reading fitted and the board was refused. A revealed 0 never touches a covered cell: named
    again with looks joined only where they touch, exactly one reading fits (``apart_kinds``)."""
    assert seed in DEV_SEEDS
    sample = generate(seed)
    board = read_cells(sample.image, sample.geometry).board(sample.truth.mines)
    assert (board.cells == sample.truth.cells).all(), board.to_text()
