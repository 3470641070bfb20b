"""Tile kinds in the skinless reader: which plain groups are one kind (covered or revealed)."""

from __future__ import annotations

import numpy as np

from bot.vision.generic import KIND_FRAME, RAISED_BEVEL, TILE, Group, _kinds, bevel, frame_difference


def _tile(fill: float, step: float) -> np.ndarray:
    """A grey tile whose top-left band is ``step`` lighter and bottom-right band ``step`` darker than
    its fill (raised for step > 0, sunken for step < 0)."""
    tile = np.full((TILE, TILE, 3), fill, np.float32)
    tile[:4, :] += step
    tile[:, :4] += step
    tile[-4:, :] -= step
    tile[:, -4:] -= step
    return tile


def test_a_sunken_tile_joins_the_sunken_kind_not_a_faintly_raised_one():
    """Faintly raised covered tiles (too faint to count as raised) and two groups of faintly sunken
    revealed tiles (shaded a little differently by their neighbours): both sunken groups are one kind,
    even when the second is also within reach of the covered kind (KMines' look once read so)."""
    covered = Group(np.arange(300), _tile(190.0, 11.0))
    sunken = Group(np.arange(300, 310), _tile(190.0, -14.0))
    sunken_too = Group(np.arange(310, 316), _tile(190.0, -12.0))
    assert 0 < bevel(covered.tile) < RAISED_BEVEL
    assert (
        frame_difference(sunken.tile, covered.tile)
        > KIND_FRAME
        >= frame_difference(sunken_too.tile, covered.tile)
    )
    groups = [covered, sunken, sunken_too]
    kinds = _kinds(groups, np.zeros(316, np.float32))
    assert len(kinds) == 2
    assert sunken_too.kind == sunken.kind != covered.kind
