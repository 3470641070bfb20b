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
from bot.vision import generic, overdraw
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

    monkeypatch.setattr(generic, "digit_distances", record)
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
