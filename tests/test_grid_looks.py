"""The skinless grid finder (:func:`bot.vision.grid.find_grids`) on generated looks (development seeds of
:mod:`bot.looks`): boards it once found only in part, now found whole and in place."""

from __future__ import annotations

import pytest

from bot.looks import generate
from bot.looks.score import same_place
from bot.vision.grid import find_grids

OPENED_FACES = [137, 188, 191, 305, 351, 369]
"""Boards whose opened cells (lines between them, no faces of the covered tiles' size) were left out:
a strip beyond the board is the board's when most of its cells hold a flat face of their own, centred,
of any size (:func:`bot.vision.extent.filled_out`)."""

SHADED_CELLS = [54, 91, 130, 176, 276, 356, 359, 389]
"""The same, where cells are parted only by a shade a few levels deep (a checkerboard, a dither's
mean): their faces show on the image's detail amplified (:func:`bot.vision.lattice.flat_parts`)."""


@pytest.mark.parametrize("seed", OPENED_FACES + SHADED_CELLS)
def test_whole_board_found(seed: int) -> None:
    sample = generate(seed)
    fits = find_grids(sample.image)
    assert fits, "no board found"
    got = fits[0].geometry
    assert same_place(got, sample.geometry), (got, sample.geometry)


WIDE_CELLS = [1, 236, 244, 361]
"""Boards of cells wider than tall (1.25-1.4 times), whose faces are too long to count as square: found
by faces up to :data:`bot.vision.propose.FACE_ASPECT` times as wide as tall when square ones make none."""


@pytest.mark.parametrize("seed", WIDE_CELLS)
def test_wide_cells_found(seed: int) -> None:
    test_whole_board_found(seed)


def test_a_keypad_is_no_board() -> None:
    """Dev seed 288: a calculator's keypad (keys 1.2 times as wide as tall, four columns) beside a board
    that is not found: the keys' lattice, grown by a column of text, is not taken for a board of wide
    cells, since its own faces span four columns."""
    sample = generate(288)
    truth = sample.geometry.region()
    for fit in find_grids(sample.image):
        r = fit.geometry.region()
        assert r.left < truth.right and truth.left < r.right and r.top < truth.bottom and truth.top < r.bottom


def test_a_board_found_a_column_short_is_refused() -> None:
    """Dev seed 4: a 16x30 board of toolkit buttons on a page a few grey levels from the covered tiles,
    its first columns mostly opened cells (with inner shadows) a few levels from the page too, found
    16x27. The cells beyond its left edge look like its own and differ from one to the next as a
    board's do: where the board ends is in doubt, so it is refused, not read three columns short.
    (Dev seed 23, a board found a column short so once, is now found whole: ``FLAT_GROUNDS``.)"""
    from bot.errors import BoardNotFoundError
    from bot.vision.extent import open_sides
    from bot.vision.grid import find_grid

    sample = generate(4)
    with pytest.raises(BoardNotFoundError, match="in doubt"):
        find_grid(sample.image)
    assert open_sides(sample.image, sample.geometry) == []  # the whole board ends there


FLAT_GROUNDS = [7, 14, 23, 27, 106, 118, 154, 209, 228, 289, 314, 370, 376]
"""Boards whose opened area is one flat colour (or a checkerboard of two) with no lines, found only as
far as their covered tiles reach: strips of cells on the board's own grounds, with a colour change
one colour all along where the board then ends, are the board's (:mod:`bot.vision.grounds`). Never
up to the image's edge (dev seed 237, a board flush with it, is left open-sided): in
tests/test_vision_unseen.py a frame and a margin of the ground's colour, thinner than a cell, were
taken for a row and a column of cells there."""


@pytest.mark.parametrize("seed", FLAT_GROUNDS)
def test_flat_opened_area_found(seed: int) -> None:
    test_whole_board_found(seed)


GROUNDS_OFF_PHASE = [6, 9, 262]
"""The same, on lattices found a few pixels off their phase (dithered tiles, shadows; 6-7 px at a
47-58 px pitch): the colour change that ends the board is looked for up to
:data:`bot.vision.grounds.PHASE_SLACK` of a cell from the lattice's boundary."""


@pytest.mark.parametrize("seed", GROUNDS_OFF_PHASE)
def test_flat_opened_area_found_off_phase(seed: int) -> None:
    test_whole_board_found(seed)


PAGE_LIKE_GROUND = [113, 357, 377]
"""Boards found whole beside surroundings that look like their own cells: a window frame as grey as an
opened cell (113), a page margin two cells wide of the opened ground's colour (357: cells of ground
alone are no proof of a board), toolbar buttons of the opened ground's colour (377: where the colour
changes beyond them it changes to many colours, no frame). None is grown into them."""


@pytest.mark.parametrize("seed", PAGE_LIKE_GROUND)
def test_page_of_the_grounds_colour_not_taken(seed: int) -> None:
    test_whole_board_found(seed)


def test_cell_grounds_are_each_cells_ring() -> None:
    """:func:`bot.vision.grounds.cell_grounds` takes cells of one size together (a fractional pitch
    gives two): each cell's ground is still the median of its own ring, grounded as its own ring says,
    and a cell the image's edge cuts is none (dev seed 145: 18 x 14.35 px cells, moved off the image)."""
    import cv2
    import numpy as np

    from bot.vision.grounds import MATCH, RING_SHARE, _ring_mask, cell_grounds

    sample = generate(145)
    colour = cv2.blur(sample.image, (3, 3))
    g = sample.geometry.offset(-sample.geometry.left - 7.3, 3.1)  # the first column partly off the image
    ground, grounded = cell_grounds(colour, g)
    for r in range(g.rows):
        for c in range(g.cols):
            y0, y1 = round(g.top + r * g.pitch_y), round(g.top + (r + 1) * g.pitch_y)
            x0, x1 = round(g.left + c * g.pitch_x), round(g.left + (c + 1) * g.pitch_x)
            if x0 < 0:
                assert not grounded[r, c]
                continue
            patch = colour[y0:y1, x0:x1]
            ring = patch[_ring_mask(*patch.shape[:2])].astype(np.float32)
            median = np.median(ring, axis=0)
            assert np.array_equal(ground[r, c], median)
            assert grounded[r, c] == ((np.abs(ring - median).max(axis=1) <= MATCH).mean() >= RING_SHARE)


def test_a_band_off_the_image_has_no_colour() -> None:
    """A band beyond a board's edge moved (by the phase slack) off the image holds no pixel: it has no
    colour (NaN, which no change compares as), quietly (no warning over an empty mean)."""
    import warnings

    import numpy as np

    from bot.geometry import Geometry
    from bot.vision.grounds import _cell_means

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        means = _cell_means(np.zeros((50, 50, 3), np.uint8), Geometry(60, 0, 3, 10, 3, 1))
    assert np.isnan(means).all()
