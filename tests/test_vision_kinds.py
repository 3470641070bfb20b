"""Tile kinds in the skinless reader: which plain groups are one kind (covered or revealed)."""

from __future__ import annotations

import numpy as np

from bot.vision.cutting import CORE, INSET, TILE, Group
from bot.vision.describe import (
    FRAME_COLOUR,
    RIM_SHOWN,
    bevel,
    frame_difference,
    frame_differences,
    ramp_slope,
    two_means,
)
from bot.vision.tilekinds import KIND_FRAME, KIND_RAMP, RAISED_BEVEL, _cover_options, _kinds, _separation


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


def test_a_glossy_tile_and_a_flat_one_are_not_one_kind():
    """A covered tile shaded top to bottom (a gloss) and a flat revealed tile of the same mean colour,
    framed alike and neither raised: two kinds (KMines' look, where they had been one)."""
    glossy = np.full((TILE, TILE, 3), 200.0, np.float32)
    glossy += np.linspace(15.0, -15.0, TILE, dtype=np.float32)[:, None, None]
    flat = np.full((TILE, TILE, 3), 200.0, np.float32)
    covered, revealed = Group(np.arange(300), glossy), Group(np.arange(300, 330), flat)
    assert frame_difference(revealed.tile, covered.tile) <= KIND_FRAME
    assert ramp_slope(glossy) > KIND_RAMP > ramp_slope(flat)
    kinds = _kinds([covered, revealed], np.zeros(330, np.float32))
    assert len(kinds) == 2 and covered.kind != revealed.kind


def _glossy_and_flat() -> tuple[list[Group], list]:
    glossy = np.full((TILE, TILE, 3), 200.0, np.float32)
    glossy += np.linspace(15.0, -15.0, TILE, dtype=np.float32)[:, None, None]
    groups = [
        Group(np.arange(300), glossy),
        Group(np.arange(300, 330), np.full((TILE, TILE, 3), 200.0, np.float32)),
    ]
    return groups, _kinds(groups, np.zeros(330, np.float32))


def test_kinds_told_apart_by_shading_alone_are_not_framed_apart():
    """A glyph framed like one of two kinds that differ only in shading may sit on either (KMines at
    15 px: a lone purple 4 read as the covered kind's flag); kinds framed differently (a raised tile
    and a sunken one) tell a glyph's ground."""
    groups, kinds = _glossy_and_flat()
    assert _separation(0, kinds) <= KIND_FRAME and _separation(1, kinds) <= KIND_FRAME
    raised, sunken = (
        Group(np.arange(300), _tile(190.0, 30.0)),
        Group(np.arange(300, 330), _tile(150.0, -30.0)),
    )
    kinds = _kinds([raised, sunken], np.zeros(330, np.float32))
    assert len(kinds) == 2 and _separation(0, kinds) > KIND_FRAME


def test_a_glossy_kind_and_a_flat_one_are_never_both_covered():
    """With no structure to say which is covered, the logic picks, but not both: a board draws its
    covered tiles one way (two kinds of one drawing in two colours, as under uneven light, may be)."""
    _, kinds = _glossy_and_flat()
    assert set(_cover_options(kinds)) == {(True, False), (False, True), (False, False)}
    lit = [
        Group(np.arange(300), np.full((TILE, TILE, 3), 200.0, np.float32)),
        Group(np.arange(300, 330), np.full((TILE, TILE, 3), 140.0, np.float32)),
    ]
    kinds = _kinds(lit, np.zeros(330, np.float32))
    assert len(kinds) == 2 and (True, True) in _cover_options(kinds)


def test_frame_differences_weigh_every_tile_as_one_pair_at_a_time():
    """All at once, each tile's frame difference is the share of edge-band pixels differing by more
    than FRAME_COLOUR plus the RIM_SHOWN quantile of the rim's difference / 100 (counted here pixel by
    pixel): the batch is the pairwise measure, not an approximation of it."""
    rng = np.random.default_rng(3)
    tile = rng.uniform(0, 255, (TILE, TILE, 3)).astype(np.float32)
    others = rng.uniform(0, 255, (5, TILE, TILE, 3)).astype(np.float32)
    others[0] = tile  # the same tile: framed alike
    others[1, :INSET] = tile[:INSET] + 2 * FRAME_COLOUR  # its top band differs, nothing else
    others[1, INSET:] = tile[INSET:]
    found = frame_differences(tile, others)
    for k, other in enumerate(others):
        edge, rim = [], []
        for y in range(TILE):
            for x in range(TILE):
                apart = float(np.abs(tile[y, x] - other[y, x]).max())
                side = min(y, x, TILE - 1 - y, TILE - 1 - x)
                if side < INSET:
                    edge.append(apart > FRAME_COLOUR)
                elif side < CORE:
                    rim.append(apart)
        want = float(np.mean(edge)) + sorted(rim)[int(RIM_SHOWN * (len(rim) - 1))] / 100.0
        assert found[k] == want == frame_difference(tile, other)
    assert found[0] == 0.0
    assert found[1] == INSET * TILE / (TILE * TILE - (TILE - 2 * INSET) ** 2)


def test_two_means_splits_two_colours_and_ties_go_to_the_first():
    """Two clusters of colours come apart whatever their order; a point as near both centres joins the
    first (as np.argmin would)."""
    red, black = np.array([30.0, 30.0, 220.0], np.float32), np.zeros(3, np.float32)
    points = np.concatenate([np.repeat(red[None], 6, 0), np.repeat(black[None], 4, 0)])
    labels, centres = two_means(points[::-1].copy())
    assert sorted(np.bincount(labels)) == [4, 6]
    assert {tuple(c) for c in centres} == {tuple(red), tuple(black)}
    middle = np.array([[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 0.0, 0.0]], np.float32)
    labels, _ = two_means(middle, rounds=1)
    assert labels.tolist() == [0, 1, 0]  # centres (0,0,0) and (2,0,0): the middle joins the first
