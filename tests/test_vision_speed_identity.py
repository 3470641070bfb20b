"""The fast paths of skinless reading return exactly what the plain computations return (to the bit).

Each fast path (a pruned search, numpy's reductions without their Python overhead) must give the same
numbers as the plain computation it replaces, on real glyphs and tiles: a reading may turn on the last
bit of a distance."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board
from bot.errors import MinebotError
from bot.vision import cutting, describe, overdraw, tilekinds
from bot.vision.generic import read_cells
from bot.vision.glyphs import (
    GlyphShape,
    digit_distances,
    glyph_shape,
    mean_rows,
    median_rows,
    plain_digit_distances,
    reference_mask,
)
from tests.test_vision_generic import capture_geometry

REAL = Path(__file__).parent / "data" / "real"
CAPTURES = ("xbomb/live", "jsminesweeper/t24_z125", "ace-minesweeper")
"""Real boards whose glyphs are cut by their cells' edges (xbomb's) and whole (the others)."""


def _shapes_of_real_glyphs(monkeypatch: pytest.MonkeyPatch) -> list:
    """Every glyph shape a cold read of the captures compares with the reference digits."""
    seen = []

    def record(shape: GlyphShape, bold: bool = False) -> np.ndarray:
        seen.append((shape, bold))
        return digit_distances(shape, bold)

    monkeypatch.setattr(describe, "digit_distances", record)
    for folder in CAPTURES:
        for png in sorted((REAL / folder).glob("*.png"))[:3]:
            with contextlib.suppress(MinebotError):
                truth = Board.from_text(png.with_suffix(".txt").read_text())
                read_cells(cv2.imread(str(png)), capture_geometry(png, truth))
    return seen


def test_pruned_digit_distances_equal_the_full_comparison(monkeypatch: pytest.MonkeyPatch) -> None:
    """Glyphs of real boards, whole and cut by their cell's edge: the pruned search finds each digit's
    nearest distance exactly as comparing with every reference does (same values, same dtype)."""
    seen = _shapes_of_real_glyphs(monkeypatch)
    assert any(shape.cut for shape, _ in seen) and any(not shape.cut for shape, _ in seen)
    for shape, bold in seen:
        fast, plain = digit_distances(shape, bold), plain_digit_distances(shape, bold)
        assert fast.dtype == plain.dtype and fast.tobytes() == plain.tobytes()


def test_pruned_digit_distances_on_cut_references() -> None:
    """A digit drawn cut by its cell on one or two sides, at every weight: the same distances both ways."""
    for n in range(1, 9):
        for weight in (2, 6):
            mask = reference_mask(n, "hershey_simplex", weight)
            shape = glyph_shape(mask, in_cell=False)
            assert shape is not None
            for cut in (("top",), ("left", "bottom"), ("right",)):
                cut_shape = replace(shape, cut=cut)
                for bold in (False, True):
                    fast, plain = digit_distances(cut_shape, bold), plain_digit_distances(cut_shape, bold)
                    assert fast.tobytes() == plain.tobytes()


def test_mean_and_median_rows_equal_numpy() -> None:
    """numpy's mean and median along the first axis, to the bit: odd and even counts, one column and
    three, float32 and float64 (integers go to numpy's own mean)."""
    rng = np.random.default_rng(8)
    for n in (1, 2, 3, 8, 9, 100, 101):
        for dtype in (np.float32, np.float64):
            for shape in ((n,), (n, 3)):
                values = (rng.random(shape) * 255).astype(dtype)
                for fast, plain in ((mean_rows, np.mean), (median_rows, np.median)):
                    got, want = np.asarray(fast(values)), np.asarray(plain(values, axis=0))
                    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    counts = np.arange(12).reshape(4, 3)
    assert np.asarray(mean_rows(counts)).tobytes() == counts.mean(axis=0).tobytes()


def _plain_colour_sets(flat_bins: np.ndarray, used: np.ndarray, rows: int, cols: int) -> list[np.ndarray]:
    """:func:`bot.vision.overdraw._colour_sets` colour by colour: each colour's own mask, its lines'
    any, its bit set."""
    size = flat_bins.shape[0] // rows
    words = (len(used) + 63) // 64
    by_row = np.zeros((words, rows, cols, size), np.uint64)
    by_col = np.zeros((words, cols, rows, size), np.uint64)
    for k, colour in enumerate(used):
        tiles = (flat_bins == colour).reshape(rows, size, cols, size)
        bit = np.uint64(1) << np.uint64(k % 64)
        by_row[k // 64] |= np.where(tiles.any(axis=3).transpose(0, 2, 1), bit, np.uint64(0))
        by_col[k // 64] |= np.where(tiles.any(axis=1).transpose(1, 0, 2), bit, np.uint64(0))
    return [by_row, by_col]


def test_colour_sets_of_rare_colours_equal_the_plain_sets() -> None:
    """A real board of many colours (anti-aliased digits: more than one word of them), most shown
    first: the bit sets built pixel by pixel for the first word and only where the others show equal
    the sets found colour by colour."""
    png = REAL / "jsminesweeper" / "t24_z100" / "digits_lost.png"
    image = cv2.imread(str(png))
    geometry = capture_geometry(png, Board.from_text(png.with_suffix(".txt").read_text()))
    ys, xs, _ = overdraw._cell_coords(geometry, image.shape)
    flat = overdraw._bins(overdraw._cells_side_by_side(image, ys, xs))
    used, shown = overdraw._used(flat)
    assert len(used) > 2 * overdraw.WORD
    used = used[np.argsort(-shown, kind="stable")]
    fast = overdraw._colour_sets(flat, used, geometry.rows, geometry.cols)
    plain = _plain_colour_sets(flat, used, geometry.rows, geometry.cols)
    for got, want in zip(fast, plain, strict=True):
        assert got.shape == want.shape and (got == want).all()


def test_colour_bins_equal_the_plain_formula() -> None:
    """Every pixel's colour bin, from the channels split apart, is each channel's top bits side by side."""
    pixels = np.random.default_rng(12).integers(0, 256, (300, 200, 3), dtype=np.uint8)
    pixels[0, :8] = [
        [0, 0, 0],
        [255, 255, 255],
        [15, 16, 17],
        [240, 239, 128],
        [1, 2, 3],
        [254, 0, 255],
        [31, 32, 33],
        [127, 128, 129],
    ]
    levels = (pixels >> overdraw.SHIFT).astype(np.int64)
    want = (levels[..., 0] * overdraw.LEVELS + levels[..., 1]) * overdraw.LEVELS + levels[..., 2]
    got = overdraw._bins(pixels[:, 3:])  # a view, as a board inside a screenshot is
    assert got.dtype == np.uint16 and (got == want[:, 3:]).all()


def _groups_of_real_boards() -> list[tuple[list[cutting.Group], np.ndarray]]:
    """Each capture's groups (mean tiles, plain or glyph, kinds) as a cold read names them, and its tiles."""
    found = []
    for folder in (*CAPTURES, "winemine", "xdemineur"):
        png = sorted((REAL / folder).glob("*.png"))[0]
        geometry = capture_geometry(png, Board.from_text(png.with_suffix(".txt").read_text()))
        crop = cutting.crop_board(cv2.imread(str(png)), geometry)
        tiles, texture = cutting.cut_tiles(crop)
        groups = cutting._groups_of(cutting.group_cells(cutting.looks_of(crop)), tiles, None, None)
        tilekinds._plain_kinds(groups, texture)
        found.append((groups, tiles))
    return found


def test_group_tiles_equal_numpy_means() -> None:
    """Each group's tile, summed in place in member order, is numpy's mean of its members' tiles."""
    boards = _groups_of_real_boards()
    assert any(len(g.members) > 100 for groups, _ in boards for g in groups)
    for groups, tiles in boards:
        for g in groups:
            want = tiles[g.members].mean(axis=0)
            assert g.tile.dtype == want.dtype and g.tile.tobytes() == want.tobytes()


def test_blocks_equal_numpy_block_means() -> None:
    """The block means that rule looks out before they are compared are numpy's means over each block."""
    looks = cutting.looks_of(cutting.crop_board(*_capture("ace-minesweeper")))
    side, n = 16, 16 // cutting.BLOCK
    cells = looks.reshape(len(looks), n, cutting.BLOCK, n, cutting.BLOCK, 3).astype(np.float64)
    want = cells.mean(axis=(2, 4)).reshape(len(looks), -1)
    got = cutting._blocks(looks)
    assert looks.shape[1] == side * side and got.dtype == want.dtype and got.tobytes() == want.tobytes()


def _capture(folder: str) -> tuple[np.ndarray, object]:
    """A capture's pixels and geometry (its first frame)."""
    png = sorted((REAL / folder).glob("*.png"))[0]
    return cv2.imread(str(png)), capture_geometry(png, Board.from_text(png.with_suffix(".txt").read_text()))


def test_framing_measures_equal_the_plain_formulas() -> None:
    """Frame differences, solid shares, bevels, ramps and the channel balance, batched and without
    numpy's slow reductions over 3 channels, equal the plain formulas pair by pair, on real tiles."""
    edge, rim = describe._band(32, 0, cutting.INSET), describe._band(32, cutting.INSET, cutting.CORE)
    ring = describe._band(32, cutting.INSET, cutting.INSET + 3)
    for groups, _ in _groups_of_real_boards():
        tiles = np.stack([g.tile for g in groups])
        for g in groups:
            pixels, theirs = g.tile.reshape(-1, 3), tiles.reshape(len(tiles), -1, 3)
            share = (np.abs(pixels[edge] - theirs[:, edge]).max(axis=2) > describe.FRAME_COLOUR).mean(axis=1)
            rims = np.abs(pixels[rim] - theirs[:, rim]).max(axis=2)
            k = int(describe.RIM_SHOWN * (rims.shape[1] - 1))
            want = share + np.partition(rims, k, axis=1)[:, k].astype(np.float64) / 100.0
            assert describe.frame_differences(g.tile, tiles).tobytes() == want.tobytes()
            banded = describe.frame_bands(tiles)  # gathered once for every glyph, as base_of keeps them
            assert describe.frame_differences(g.tile, tiles, banded).tobytes() == want.tobytes()
            for base, got in zip(tiles, tilekinds._solid_shares(g.tile, tiles), strict=True):
                match = (np.abs(g.tile - base).max(axis=2) <= 2 * describe.KNOWN_FILL).astype(np.uint8)
                solid = cv2.erode(match, np.ones((3, 3), np.uint8)).ravel().astype(bool)
                assert got == float(solid[ring].mean())
            light, b = g.tile @ describe.LUMA, cutting.INSET
            top_left = np.concatenate([light[:b, b:-b].ravel(), light[b:-b, :b].ravel()])
            bottom_right = np.concatenate([light[-b:, b:-b].ravel(), light[b:-b, -b:].ravel()])
            fill = float(tilekinds._fill(g) @ describe.LUMA)
            assert describe.bevel(g.tile, tilekinds._fill(g)) == float(
                min(top_left.mean() - fill, fill - bottom_right.mean())
            )
            core = g.tile[cutting.CORE : -cutting.CORE, cutting.CORE : -cutting.CORE]
            yy, xx = np.mgrid[0:16, 0:16]
            design = np.stack([np.ones(256), xx.ravel() / 16, yy.ravel() / 16], axis=1)
            coef, *_ = np.linalg.lstsq(design, core.reshape(-1, 3), rcond=None)
            got_coef, got_far = describe._ramp(core)
            assert got_coef.tobytes() == coef.tobytes()
            assert got_far.tobytes() == np.abs(core.reshape(-1, 3) - design @ coef).max(axis=1).tobytes()
        pixels = np.concatenate([t.reshape(-1, 3) for t in tiles])
        spread = np.percentile(pixels, 99, axis=0) - np.percentile(pixels, 1, axis=0)
        want = np.clip(spread / max(float(spread.max()), 1.0), 1.0 / describe.MAX_BALANCE, 1.0)
        assert describe.channel_balance(list(tiles)).tobytes() == want.astype(np.float32).tobytes()


def test_channel_sums_and_means_equal_numpy() -> None:
    """Sums and means over the 3 channels, added channel by channel, are numpy's reductions over the last
    axis to the bit: a real board's blur (float32), its tiles' squared differences and float64 colour
    differences, two and three dimensions."""
    crop = cutting.crop_board(*_capture("jsminesweeper/t24_z125"))
    tiles, _ = cutting.cut_tiles(crop)
    squared = (tiles[:40] - tiles[40:80]) ** 2
    means = tiles.reshape(len(tiles), -1, 3).mean(axis=1, dtype=np.float64)
    colours = np.abs(means[:, None] - means[None])  # (N, N, 3), as alike compares mean colours
    for values in (crop.blurred, squared, squared.reshape(-1, 3), colours):
        want_sum, want_mean = values.sum(axis=-1), values.mean(axis=-1)
        got_sum, got_mean = cutting._channel_sum(values), cutting._channel_mean(values)
        assert got_sum.dtype == want_sum.dtype and got_sum.tobytes() == want_sum.tobytes()
        assert got_mean.dtype == want_mean.dtype and got_mean.tobytes() == want_mean.tobytes()
