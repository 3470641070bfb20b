"""Speed of skinless reading with the same readings (session 16): each faster step gives what the
slower one gave, to the bit."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board
from bot.geometry import Geometry
from bot.vision import cutting, glyphs, grid, overdraw
from bot.vision.cutting import uneven_shifts
from harness.colour import night_light
from tests.test_vision_generic import capture_geometry

REAL = Path(__file__).parent / "data" / "real"


def _every_step_weighed(profile: np.ndarray, start: float, pitch: float, count: int) -> tuple[float, ...]:
    """:func:`uneven_shifts` as it was: every cell weighed at every step before any is ruled out (the
    runs then kept as it keeps them, :func:`cutting.drifting_runs`)."""
    reach = max(2, math.floor(pitch * cutting.UNEVEN_REACH))
    if count < grid.MIN_SIDE or pitch < 2 * reach:
        return ()
    steps = np.arange(-reach * cutting.UNEVEN_STEPS, reach * cutting.UNEVEN_STEPS + 1) / cutting.UNEVEN_STEPS
    places = start + np.arange(count)[:, None] * pitch + np.arange(math.ceil(pitch))[None, :]
    axis = np.arange(len(profile), dtype=np.float64)
    stretches = np.interp(places[None] + steps[:, None, None], axis, profile)
    even = len(steps) // 2
    reference = np.median(stretches[even], axis=0)
    misfit = np.abs(stretches - reference).mean(axis=2)
    best = misfit.argmin(axis=0)
    found = steps[best]
    spread = float(np.abs(stretches[even] - reference.mean()).mean())
    clear = misfit[best, np.arange(count)] < cutting.UNEVEN_FIT * misfit[even]
    moved = (np.abs(found) >= 1.0) & clear & (misfit[even] > cutting.UNEVEN_MISFIT * spread)
    return cutting.drifting_runs(np.where(moved, found, 0.0), pitch)  # the chain walk, unchanged


@pytest.mark.parametrize("seed", range(3))
def test_stretches_are_numpy_s_interpolation_to_the_bit(seed: int) -> None:
    """The profile at places moved by steps, looked up on the grid of ``1 / UNEVEN_STEPS`` pixels when
    every place is on it (else interpolated at each), is ``np.interp`` at each sum, to the bit: places
    past either end of the profile, whole and fractional pitches, float64 and float32 profiles."""
    rng = np.random.default_rng(seed)
    looked_up = 0
    for case in range(200):
        pitch = float(rng.integers(8, 60)) / (1 if case % 3 else 4) if case % 5 else float(rng.uniform(8, 60))
        start = float(rng.integers(-40, 40)) / 4 if case % 7 else float(rng.uniform(-5, 5))
        count, points = int(rng.integers(1, 32)), int(rng.integers(1, 60))
        places = start + np.arange(count)[:, None] * pitch + np.arange(points)[None, :]
        reach = int(rng.integers(1, 30)) * cutting.UNEVEN_STEPS
        steps = np.arange(-reach, reach + 1) / cutting.UNEVEN_STEPS
        profile = rng.uniform(0, 255, int(start + count * pitch) + int(rng.integers(-20, 20)) + 25)
        if case % 2:
            profile = profile.astype(np.float32)
        axis = np.arange(len(profile), dtype=np.float64)
        expected = np.interp(places[None] + steps[:, None, None], axis, profile)
        found = cutting._stretches(profile, places, steps)
        assert found.dtype == expected.dtype and found.tobytes() == expected.tobytes(), case
        looked_up += bool(((places * cutting.UNEVEN_STEPS) % 1 == 0).all())
    assert 50 <= looked_up <= 190  # both ways are weighed


def _profile(rng: np.random.Generator, start: float, sizes: np.ndarray, noise: float) -> np.ndarray:
    """A board's brightness across one axis: dark grid lines at the cells' edges, on noise."""
    edges = start + np.concatenate([[0.0], np.cumsum(sizes)])
    xs = np.arange(int(edges[-1]) + 4, dtype=np.float64)
    profile = rng.normal(100.0, noise, len(xs))
    for edge in edges:
        profile[np.abs(xs - edge) < 1.5] -= rng.uniform(20, 80)
    return profile


@pytest.mark.parametrize("seed", range(4))
def test_uneven_shifts_weigh_only_misfits_with_the_same_result(seed: int) -> None:
    """Only cells misfitting the median stretch on the even pitch are weighed at every step; the shifts
    are those of weighing every cell at every step (boards of even cells, of two cell sizes, of noise;
    whole and fractional pitches, in float64 and float32)."""
    rng = np.random.default_rng(seed)
    moved = 0
    for case in range(200):
        pitch = float(rng.integers(8, 60)) if case % 2 else float(rng.uniform(8, 60))
        count = int(rng.integers(3, 32))
        start = float(rng.uniform(0, 5)) if case % 4 > 1 else float(rng.integers(0, 20)) / 4  # on the grid
        sizes = np.full(count, pitch)
        if case % 3 == 0:  # the last cells a pixel or two smaller (GNOME Mines)
            sizes[rng.integers(0, count) :] -= rng.integers(1, 3)
        profile = _profile(rng, start, sizes, float(rng.uniform(0.1, 20)))
        if case % 5 == 0:
            profile = rng.uniform(0, 255, len(profile))
        if case % 4 == 1:
            profile = profile.astype(np.float32)
        expected = _every_step_weighed(profile, start, pitch, count)
        assert uneven_shifts(profile, start, pitch, count) == expected, (case, pitch, count, start)
        moved += bool(expected)
    assert moved >= 3  # the boards of two cell sizes do move cells: the weighing is exercised


def _grounds_from_pixels(ids: np.ndarray, taken: np.ndarray, k: int) -> np.ndarray:
    """:func:`bot.vision.overdraw._ground_colours` as it was: each cell's colours band by band counted
    again from its pixels' colour ids (``k`` the colours' count; index ``k``, the grid's lines, never
    shown)."""
    rows, cols, size = ids.shape[0], ids.shape[1], ids.shape[2]
    band = overdraw._bands(size, math.ceil(overdraw.EDGE * size), math.ceil(overdraw.STRIP * size))
    cell = np.arange(rows * cols).reshape(rows, cols, 1, 1)
    sets = []
    for bands in (band[:, None], band[None, :]):  # down, then across
        keys = ((cell * overdraw.BANDS + bands) * (k + 1) + ids).ravel()
        counts = np.bincount(keys, minlength=rows * cols * overdraw.BANDS * (k + 1))
        sets.append(counts.reshape(rows, cols, overdraw.BANDS, -1))
    by_band = np.concatenate(sets, axis=2) > 0
    by_band[..., k] = False
    return overdraw._ground_colours(by_band, taken)


def _turned(image: np.ndarray, geometry: Geometry, turn: int) -> tuple[np.ndarray, Geometry]:
    """The capture flipped upside down (1), its rows and columns swapped (2), or both (3), and its board
    alike: a glyph running on over its cell's bottom edge then runs on over another edge."""
    g = geometry
    if turn & 1:
        image = image[::-1]
        g = replace(g, top=image.shape[0] - g.top - g.rows * g.pitch_y)
    if turn & 2:
        image = image.transpose(1, 0, 2)
        g = replace(g, left=g.top, top=g.left, pitch_x=g.pitch_y, pitch_y=g.pitch_x, rows=g.cols, cols=g.rows)
    return np.ascontiguousarray(image), g


def test_ground_colours_from_the_bands_found_once_are_those_counted_again(monkeypatch) -> None:  # noqa: ANN001
    """Every edge xbomb's live frames paint over (plain and night-lit, each capture turned four ways,
    each edge turned to the top): the colours a painted cell may be lent, from the bands
    :func:`bot.vision.overdraw._presence` found once for the whole board (turned like the cells), are
    those counted again from the turned cells' pixels."""
    seen = []
    fill = overdraw._fill

    def kept(tiles, ids, foreign, by_band):  # noqa: ANN001, ANN202
        taken = np.zeros(ids.shape[:2], bool)
        taken[foreign.rows, foreign.cols] = True
        seen.append((ids, taken, by_band))
        return fill(tiles, ids, foreign, by_band)

    monkeypatch.setattr(overdraw, "_fill", kept)
    sides = set()
    for png in sorted((REAL / "xbomb" / "live").glob("*.png")):
        image = cv2.imread(str(png))
        geometry = capture_geometry(png, Board.from_text(png.with_suffix(".txt").read_text()))
        for turn in range(4):
            for shown in (image, night_light(image)):
                _, painted, _ = overdraw.repair_runs(*_turned(shown, geometry, turn))
                sides |= set(np.flatnonzero(painted.any(axis=(0, 1)))) if painted is not None else set()
    restricted = 0
    for ids, taken, by_band in seen:
        found = overdraw._ground_colours(by_band, taken)
        assert np.array_equal(found, _grounds_from_pixels(ids, taken, by_band.shape[-1] - 1))
        restricted += int((found != by_band.any(axis=2)).any())  # some cell lent fewer than its colours
    assert sides == {0, 1, 2, 3} and restricted >= 4


def _drawn_small_as_it_was(
    mask: np.ndarray, height: int, sigma: float
) -> tuple[np.ndarray, float, int] | None:
    """:func:`glyphs.drawn_small` as it was before session 17: drawn again for every blur, its 99th
    percentile by a partial sort."""
    width = max(1, round(height * mask.shape[1] / mask.shape[0]))
    small = cv2.resize(mask, (width, height), interpolation=cv2.INTER_AREA)
    canvas = np.zeros((glyphs.OWN_CANVAS, glyphs.OWN_CANVAS), np.float32)
    top, left = max((glyphs.OWN_CANVAS - height) // 2, 0), max((glyphs.OWN_CANVAS - width) // 2, 0)
    canvas[top : top + height, left : left + width] = small[: glyphs.OWN_CANVAS, : glyphs.OWN_CANVAS]
    blurred = cv2.GaussianBlur(canvas, (0, 0), sigma)
    k = int(0.99 * (blurred.size - 1))
    contrast = float(np.partition(blurred.ravel(), k)[k])
    if contrast <= 0.0:
        return None
    ink = np.clip((blurred - 0.15 * contrast) / (0.4 * contrast), 0.0, 1.0).astype(np.float32)
    box = glyphs.bounding_box(ink)
    if box is None:
        return None
    top, bottom, left, right = box
    return glyphs._shape_box(ink[top:bottom, left:right]), (right - left) / (bottom - top), bottom - top


@pytest.mark.parametrize("heights", [(9, 10), (4, 17)])
def test_small_references_drawn_once_are_those_drawn_again_for_every_height(heights: tuple[int, ...]) -> None:
    """Own-size references, each reference drawn once for every blur and kept for the next glyph height
    (:func:`glyphs._drawn_reference`), are those drawn anew for every blur and height, to the bit, in the
    same order: heights next to each other (the second one taken mostly from what the first drew) and
    far apart."""
    for height in heights:
        want = ([], [], [])
        for sigma in glyphs.OWN_BLURS:
            for drawn_height in range(max(3, height - 1 - math.ceil(glyphs.OWN_GROWTH * sigma)), height + 2):
                for font, weight in glyphs.reference_fonts():
                    for n in range(1, 9):
                        drawn = _drawn_small_as_it_was(
                            glyphs._reference_ink(n, font, weight), drawn_height, sigma
                        )
                        if drawn is not None and abs(drawn[2] - height) <= 1:
                            want[0].append(n)
                            want[1].append(drawn[0].ravel())
                            want[2].append(np.log(drawn[1]))
        found = glyphs.small_references.__wrapped__(height)  # built anew, not the process's kept one
        assert np.array_equal(found[0], np.array(want[0], int))
        assert found[1].tobytes() == np.array(want[1], np.float32).reshape(len(want[0]), -1).tobytes()
        assert found[2].tobytes() == np.array(want[2], np.float32).tobytes()
        again = glyphs._drawn_reference(5, *glyphs.reference_fonts()[0], height, glyphs.OWN_BLURS[0])
        assert again is None or not again[0].flags.writeable  # kept, so never written in place


def _box_by_rows_and_columns(ink: np.ndarray) -> tuple[int, int, int, int] | None:
    """:func:`glyphs.bounding_box` as it was: the first and last rows and columns with any ink."""
    solid = ink >= glyphs.MIN_INK
    rows, cols = np.nonzero(solid.any(axis=1))[0], np.nonzero(solid.any(axis=0))[0]
    return None if len(rows) == 0 else (int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1)


@pytest.mark.parametrize("seed", range(2))
def test_bounding_box_is_the_rows_and_columns_with_ink(seed: int) -> None:
    """OpenCV's bounding rectangle of the ink at least ``MIN_INK`` is the box of the rows and columns
    showing any: empty masks, single pixels, strided views and ink against every edge."""
    rng = np.random.default_rng(seed)
    for case in range(3000):
        height, width = (int(v) for v in rng.integers(1, 40, 2))
        ink = (rng.random((height, width)) ** rng.uniform(0.5, 30)).astype(np.float32)
        if case % 4 == 0:
            ink[:] = 0.0
            ink[rng.integers(height), rng.integers(width)] = 1.0 if case % 8 else 0.0
        if case % 5 == 0:
            ink = ink[::2, ::-1]
        assert glyphs.bounding_box(ink) == _box_by_rows_and_columns(ink)
