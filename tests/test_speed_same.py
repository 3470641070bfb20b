"""Speed of skinless reading with the same readings (session 15): what each change keeps the same, and
that it does what it is for."""

from __future__ import annotations

import platform
import resource
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board
from bot.geometry import Geometry
from bot.vision.generic import read_cells
from bot.vision.memory import keep_freed_memory
from tests.test_vision_generic import capture_geometry

REAL = Path(__file__).parent / "data" / "real"

glibc = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's allocator only"
)


def _large_board() -> tuple:
    """A JSMinesweeper Expert board at zoom 1.75 (56 px cells: its float arrays are 18 MB each)."""
    png = REAL / "jsminesweeper" / "t32_z175" / "digits_playing.png"
    return cv2.imread(str(png)), capture_geometry(png, Board.from_text(png.with_suffix(".txt").read_text()))


@glibc
def test_freed_memory_is_kept_on_glibc() -> None:
    assert keep_freed_memory() is True


@glibc
def test_a_second_reading_reuses_the_first_ones_memory() -> None:
    """Reading a large board again faults in almost no fresh page: its arrays come from memory the
    first reading freed (before, glibc gave it back, and about 3,500 pages were faulted in again and
    zeroed by the kernel at every reading)."""
    image, geometry = _large_board()
    read_cells(image, geometry)  # the process's first reading builds what it keeps (reference digits)
    faults = []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        read_cells(image, geometry)
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
    assert min(faults) < 500, faults


def _counted_finder(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the whole-screen skinless finder's runs (and start with nothing remembered)."""
    from bot.vision import read

    calls: list[int] = []
    finder = read.find_generic

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return finder(*args, **kwargs)

    monkeypatch.setattr(read, "find_generic", counted)
    monkeypatch.setattr(read, "_SKINLESS_SEEN", [], raising=False)
    return calls


def test_the_same_screen_again_gives_the_skinless_finder_s_reading_without_finding_again(monkeypatch):
    """A calibrated skin's grid half a pixel off where the skinless reader needs it (xdemineur's lost
    board): refused there, read on the finder's own grid. The same screen looked at again (another
    array, the same pixels) gives the same reading without running the finder again; a screen one pixel
    different is worked out anew."""
    from bot.vision.read import _skinless_cells

    calls = _counted_finder(monkeypatch)
    png = REAL / "xdemineur" / "dense_lost_7.png"
    image = cv2.imread(str(png))
    exact = capture_geometry(png, Board.from_text(png.with_suffix(".txt").read_text()))
    skins = replace(exact, left=exact.left + 0.5, top=exact.top + 0.5)
    first = _skinless_cells(image, skins)
    assert calls == [1]
    again = _skinless_cells(image.copy(), skins)
    assert calls == [1]
    assert again.geometry == first.geometry and (again.states == first.states).all()
    assert again.states is not first.states  # a copy: a caller may write into it
    changed = image.copy()
    changed[0, 0] ^= 1
    assert (_skinless_cells(changed, skins).states == first.states).all()
    assert calls == [1, 1]
    assert (_skinless_cells(image, exact).states == first.states).all()  # another grid: read there
    assert calls == [1, 1]


def test_a_refusal_on_the_same_screen_is_given_again_without_finding_again(monkeypatch):
    """A screen with no board: refused on the skin's grid, and no grid found; the same screen again
    raises the same refusal, the finder not run again."""
    from bot.errors import MinebotError
    from bot.vision.read import _skinless_cells

    calls = _counted_finder(monkeypatch)
    blank = np.full((300, 400, 3), 128, np.uint8)
    grid = Geometry(50, 50, 20, 20, 9, 9)
    with pytest.raises(MinebotError) as first:
        _skinless_cells(blank, grid)
    with pytest.raises(MinebotError) as again:
        _skinless_cells(blank.copy(), grid)
    assert calls == [1]
    assert type(again.value) is type(first.value) and str(again.value) == str(first.value)


def test_runs_on_gathers_only_painted_neighbours_with_the_same_result() -> None:
    """On xbomb's live frames (glyphs running on over their cells' edges): each group's runs, gathered
    only from neighbours whose facing edge shows painted pixels, are the runs gathered from every
    neighbour; and the painted edges are the ones repair_runs says it painted."""
    from bot.vision.cutting import crop_board, group_cells, looks_of
    from bot.vision.overdraw import painted_sides, repair_runs, runs_on

    checked = 0
    for png in sorted((REAL / "xbomb" / "live").glob("*.png")):
        image = cv2.imread(str(png))
        geometry = capture_geometry(png, Board.from_text(png.with_suffix(".txt").read_text()))
        repaired, painted, pixels = repair_runs(image, geometry)
        if pixels is None:
            continue
        shown = painted_sides(pixels)
        assert (shown == painted).all()
        crop = crop_board(repaired, geometry)
        labels = group_cells(looks_of(crop))
        for k in range(labels.max() + 1):
            members = np.flatnonzero(labels == k)
            for part in (members, members[: max(1, len(members) // 3)]):
                plain, fast = runs_on(pixels, part), runs_on(pixels, part, shown)
                assert (plain is None) == (fast is None)
                if plain is not None:
                    assert (plain == fast).all()
                    checked += 1
    assert checked >= 10


def _twin_one_by_one(ids: np.ndarray, r: int, c: int, mask: np.ndarray, taken: np.ndarray) -> int | None:
    """The twin of one cell as the rule says, column by column (what the batched search must equal)."""
    from bot.vision.overdraw import TWIN_SAME

    strip = len(mask)
    own = ids[r, c]
    best = None
    for j in range(ids.shape[1]):
        other = ids[r, j]
        if j == c or taken[r, j]:
            continue
        if np.count_nonzero(other[strip:] == own[strip:]) / own[strip:].size < TWIN_SAME:
            continue
        if not set(other[:strip][mask].tolist()) <= set(own[strip:].ravel().tolist()):
            continue
        if (~mask).any() and np.count_nonzero((other[:strip] == own[:strip])[~mask]) / (
            ~mask
        ).sum() < TWIN_SAME:
            continue
        rank = 2 * abs(j - c) - (j < c)
        if best is None or rank < best[0]:
            best = (rank, j)
    return None if best is None else best[1]


def test_twins_found_at_once_are_the_ones_found_cell_by_cell(monkeypatch) -> None:
    """Every cell xbomb's live frames paint over (plain and night-lit, each edge turned to the top): the
    twins weighed all at once (and in parts of one cell) are those found cell by cell, column by column."""
    from bot.vision import overdraw
    from harness.colour import night_light

    seen = []
    fill = overdraw._fill

    def kept(tiles, ids, foreign, k):  # noqa: ANN001, ANN202
        taken = np.zeros(ids.shape[:2], bool)
        taken[foreign.rows, foreign.cols] = True
        seen.append((ids, foreign, taken, overdraw._twins(ids, foreign, taken)))
        return fill(tiles, ids, foreign, k)

    monkeypatch.setattr(overdraw, "_fill", kept)
    for png in sorted((REAL / "xbomb" / "live").glob("*.png")):
        image = cv2.imread(str(png))
        geometry = capture_geometry(png, Board.from_text(png.with_suffix(".txt").read_text()))
        for shown in (image, night_light(image)):
            overdraw.repair_runs(shown, geometry)
    cells = 0
    monkeypatch.setattr(overdraw, "TWIN_BATCH", 1)  # one cell at a time: the parts agree with the whole
    for ids, foreign, taken, twins in seen:
        assert overdraw._twins(ids, foreign, taken) == twins
        for m, (r, c) in enumerate(zip(foreign.rows, foreign.cols, strict=True)):
            assert twins[m] == _twin_one_by_one(ids, r, c, foreign.pixels[m], taken)
            cells += 1
    assert cells >= 100 and any(t is not None for *_, twins in seen for t in twins)


def test_a_large_image_s_channel_sum_is_numpy_s_to_the_bit() -> None:
    """The channel sum OpenCV's colour transform gives a large float32 image (a board's blur at zoom
    1.75, and random values over nine orders of magnitude, where any other order of the three adds
    rounds otherwise) is numpy's ``sum(axis=-1)``, bit for bit."""
    from bot.vision import cutting

    image, geometry = _large_board()
    blurred = cutting.crop_board(image, geometry).blurred
    rng = np.random.default_rng(15)
    wide = (10.0 ** rng.uniform(-3, 6, (700, 900, 3))).astype(np.float32)
    for values in (blurred, wide, wide * np.float32(0.37)):
        assert values.size >= 1 << 16  # the transform's path
        want = values.sum(axis=-1)
        got = cutting._channel_sum(values)
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
        assert cutting._channel_mean(values).tobytes() == values.mean(axis=-1).tobytes()


def test_a_large_board_s_work_arrays_are_kept_for_the_next_reading() -> None:
    """On every system: the second cut of a large board's tiles writes its work arrays (the difference
    from the blur, 18 MB at zoom 1.75, and its channel mean) into the ones the first cut kept, so it
    allocates less than that difference alone; the tiles and texture are the same."""
    import tracemalloc

    from bot.vision import cutting
    from bot.vision.memory import scratch

    image, geometry = _large_board()
    crop = cutting.crop_board(image, geometry)
    first = cutting.cut_tiles(crop)
    tracemalloc.start()
    again = cutting.cut_tiles(crop)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < crop.pixels.nbytes, peak
    assert all(a.tobytes() == b.tobytes() for a, b in zip(first, again, strict=True))
    assert scratch("small", (3, 3), np.float32) is None
    assert scratch("kept", (1024, 1024), np.float32) is scratch("kept", (1024, 1024), np.float32)
