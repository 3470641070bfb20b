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
