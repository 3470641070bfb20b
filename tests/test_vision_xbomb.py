"""Glyphs that overflow their cell (xbomb): a neighbour's ink taken back, clipped digits still named.

bot.vision.overdraw paints over ink that a glyph anchored in one cell draws across the grid line into
the next cell's edge strip; bot.vision.glyphs compares a glyph that runs into its cell's edge with
digits cut off the same way. Nothing here knows xbomb: the made-up cases below draw the same structure
in other colours and sizes, and every other real client's frames must come out untouched.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board
from bot.geometry import Geometry
from bot.vision.digits import shape_choices
from bot.vision.glyphs import cut_mask, digit_distances, glyph_shape, reference_mask
from bot.vision.overdraw import repair
from harness.colour import night_light
from tests.test_vision_generic import capture_geometry

REPO = Path(__file__).resolve().parent.parent
REAL = REPO / "tests" / "data" / "real"
NAVY, WHITE, GREY, BLACK = (128, 0, 0), (255, 255, 255), (127, 127, 127), (0, 0, 0)


def _grid(rows: int, cols: int, pitch: int, line: int = 2) -> tuple[np.ndarray, Geometry]:
    """White cells, each with a black line along its top and left (the grid closed by one more)."""
    image = np.full((rows * pitch + line + 4, cols * pitch + line + 4, 3), 255, np.uint8)
    for k in range(rows + 1):
        image[2 + k * pitch : 2 + k * pitch + line, :] = BLACK
    for k in range(cols + 1):
        image[:, 2 + k * pitch : 2 + k * pitch + line] = BLACK
    return image, Geometry(2, 2, pitch, pitch, rows, cols)


def _dither(image: np.ndarray, geometry: Geometry, cell: tuple[int, int], line: int = 2) -> None:
    """A covered cell: a grey and white checkerboard inside its lines."""
    rect = geometry.cell_rect(cell)
    ys, xs = np.mgrid[rect.top + line : rect.bottom, rect.left + line : rect.right]
    image[ys, xs] = np.where(((ys + xs) % 2 == 0)[..., None], GREY, WHITE)


@pytest.mark.parametrize("pitch", [20, 27, 36])
def test_a_glyph_running_on_into_the_cell_below_is_taken_back(pitch):
    image, geometry = _grid(3, 3, pitch)
    for cell in [(1, 0), (1, 1), (1, 2), (2, 1)]:
        _dither(image, geometry, cell)
    clean = image.copy()
    left = geometry.cell_rect((0, 1)).left
    top = geometry.cell_rect((1, 1)).top
    spill = round(0.2 * pitch)
    image[5 : top + spill, left + pitch // 3 : left + pitch // 2] = NAVY  # a stroke from the cell above
    image[top : top + 2, :] = BLACK  # the grid line is drawn over it
    clean_glyph = image.copy()
    clean_glyph[top:] = clean[top:]
    fixed = repair(image, geometry)
    assert (fixed == clean_glyph).all()


def test_a_cells_own_ink_and_its_neighbours_look_alike_are_left_alone():
    image, geometry = _grid(2, 2, 24)
    top = geometry.cell_rect((1, 0)).top
    image[6:top, 8:12] = NAVY  # anchored above, reaching its bottom edge
    image[top + 2 : top + 20, 8:12] = NAVY  # the cell below's own glyph, under it, runs deep
    image[top + 8 : top + 12, 30:36] = NAVY  # away from the edge in the cell at (1, 1)
    image[6:top, 30:36] = NAVY
    assert repair(image, geometry) is image


def test_a_blend_along_the_edge_is_no_glyph():
    image, geometry = _grid(2, 1, 24)
    top = geometry.cell_rect((1, 0)).top
    image[6:top, 8:12] = NAVY
    image[top + 2, 8:12] = NAVY  # one row just past the line: a blend of the two cells, not a stroke
    assert repair(image, geometry) is image


def _real(name: str) -> tuple[np.ndarray, Geometry, Board]:
    png = REAL / name
    truth = Board.from_text(png.with_suffix(".txt").read_text())
    return cv2.imread(str(png)), capture_geometry(png, truth), truth


@pytest.mark.parametrize("tinted", [False, True])
def test_xbomb_covered_cells_under_a_digit_look_covered_again(tinted):
    image, geometry, truth = _real("xbomb/expert_opening.png")
    if tinted:
        image = night_light(image)
    fixed = repair(image, geometry)
    covered = truth.cells == 9
    spilled = [(11, 18), (12, 17), (14, 14), (14, 15), (14, 16)]  # covered, under a digit of row above
    plain = (0, 0)
    for cell in spilled:
        assert covered[cell]
        a, b = geometry.cell_rect(cell), geometry.cell_rect(plain)
        here = fixed[a.top : a.bottom, a.left : a.right]
        there = fixed[b.top : b.bottom, b.left : b.right]
        assert (here == there).all(), cell
    # every digit's own cell is untouched
    for cell in map(tuple, np.argwhere((truth.cells >= 1) & (truth.cells <= 8))):
        r = geometry.cell_rect(cell)
        assert (fixed[r.top : r.bottom, r.left : r.right] == image[r.top : r.bottom, r.left : r.right]).all()


def test_other_clients_frames_are_untouched():
    frames = [p for p in sorted(REAL.glob("**/*.png")) if "xbomb" not in p.parts]
    assert frames
    for png in frames:
        truth = Board.from_text(png.with_suffix(".txt").read_text())
        image = cv2.imread(str(png))
        assert repair(image, capture_geometry(png, truth)) is image, png


@pytest.mark.parametrize("digit", [2, 3, 5, 7])
@pytest.mark.parametrize("share", [0.75, 0.85])
def test_a_digit_cut_off_by_its_cells_edge_still_allows_itself(digit, share):
    mask = cut_mask(reference_mask(digit, "hershey_duplex", 6), "bottom", share)
    mask = mask[: np.nonzero(mask.any(axis=1))[0][-1] + 1]  # down to the cut
    ink = np.zeros((mask.shape[0] + 4, mask.shape[1] + 8), np.float32)
    ink[4:, 4 : 4 + mask.shape[1]] = mask / 255.0  # runs into the bottom side
    shape = glyph_shape(ink)
    assert shape is not None and "bottom" in shape.cut
    assert digit in shape_choices(digit_distances(shape))


def test_a_glyph_clear_of_the_sides_is_not_cut():
    mask = reference_mask(4, "hershey_simplex", 4).astype(np.float32) / 255.0
    shape = glyph_shape(mask)
    assert shape is not None and shape.cut == ()
    assert int(digit_distances(shape).argmin()) + 1 == 4


def test_a_frame_line_along_a_side_is_no_part_of_the_glyph():
    mask = reference_mask(3, "hershey_simplex", 4).astype(np.float32) / 255.0
    framed = mask.copy()
    framed[:, 0] = 1.0  # the cell's own grid line, taken in with the glyph
    with_line, without = glyph_shape(framed), glyph_shape(mask)
    assert with_line is not None and without is not None
    assert np.allclose(with_line.box, without.box)


def test_a_cell_lends_its_strip_only_when_drawn_alike_there():
    image, geometry = _grid(2, 4, 20)
    for c in range(4):
        _dither(image, geometry, (1, c))
    clean = image.copy()
    top = geometry.cell_rect((1, 0)).top
    image[6:top, 8:12] = NAVY  # a stroke anchored in (0, 0), run on into (1, 0)
    image[top + 2 : top + 5, 8:12] = NAVY
    image[top + 2 : top + 5, 28:32] = (0, 0, 200)  # (1, 1) shows something of its own kind in its strip
    fixed = repair(image, geometry)
    a = geometry.cell_rect((1, 0))
    assert (fixed[a.top : a.bottom, a.left : a.right] == clean[a.top : a.bottom, a.left : a.right]).all()


def test_a_board_at_a_half_pixel_offset_is_read_pixel_by_pixel():
    from bot.vision.overdraw import _cell_coords

    ys, xs, size = _cell_coords(Geometry(13.5, 104.5, 56.0, 56.0, 16, 30), (1100, 1800, 3))
    assert size == 56
    assert (np.diff(ys.ravel()) == 1).all() and (
        np.diff(xs.ravel()) == 1
    ).all()  # none repeated, none skipped
    assert ys[0, 0] == 105 and xs[0, 0] == 14


def test_a_spill_is_found_whichever_side_it_crosses():
    image, geometry = _grid(3, 3, 24)
    for cell in [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]:
        _dither(image, geometry, cell)
    clean = image.copy()
    mid = geometry.cell_rect((1, 1))
    image[mid.top + 8 : mid.top + 14, mid.left + 4 : mid.right + 5] = NAVY  # a bar run on into (1, 2)
    image[mid.top : mid.bottom, mid.right : mid.right + 2] = BLACK  # the grid line drawn over it
    fixed = repair(image, geometry)
    assert fixed is not image
    right = geometry.cell_rect((1, 2))
    assert (
        fixed[right.top : right.bottom, right.left : right.right]
        == clean[right.top : right.bottom, right.left : right.right]
    ).all()
