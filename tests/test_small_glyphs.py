"""Small glyphs compared at their own size: a digit drawn a few pixels tall and blurred into a blob when
its cell is sampled loses the gaps that references drawn at the fixed comparison size keep, so its
nearest digit there says little. References drawn at the glyph's own size and blurred alike show which
digits it may be; a board whose counts hold another reading among those is refused. Every glyph here
is drawn from the reference fonts themselves, not a real client's pixels."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.vision import cutting, naming
from bot.vision.digits import DIGIT_LOOSE, MINE, settle_digits, small_rivals
from bot.vision.glyphs import digit_distances, drawn_small, glyph_shape, own_size_distances, reference_mask

FAR = 0.5
"""A shape distance past every margin: a digit no comparison allows."""


def _drawn(n: int, height: int, sigma: float, font: str = "hershey_simplex", weight: int = 4) -> np.ndarray:
    """Digit ``n`` drawn ``height`` px tall in a 30 px mask and blurred by ``sigma``, as ink 0-1."""
    mask = reference_mask(n, font, weight).astype(np.float32) / 255.0
    rows, cols = np.nonzero(mask >= 0.5)
    cut = mask[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]
    width = max(1, round(height * cut.shape[1] / cut.shape[0]))
    canvas = np.zeros((30, 30), np.float32)
    top, left = (30 - height) // 2, (30 - width) // 2
    canvas[top : top + height, left : left + width] = cv2.resize(
        cut, (width, height), interpolation=cv2.INTER_AREA
    )
    blurred = cv2.GaussianBlur(canvas, (0, 0), sigma)
    return np.clip((blurred / blurred.max() - 0.15) / 0.4, 0.0, 1.0)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_a_big_sharp_digit_has_no_rival_at_its_own_size(n: int) -> None:
    shape = glyph_shape(_drawn(n, 22, 0.5), in_cell=False)
    assert shape is not None
    assert small_rivals(own_size_distances(shape)) == [n]


def test_a_blurred_small_digit_leaves_rivals_at_its_own_size() -> None:
    shape = glyph_shape(_drawn(2, 8, 1.4), in_cell=False)
    assert shape is not None
    rivals = small_rivals(own_size_distances(shape))
    assert 2 in rivals and len(rivals) > 1


def test_a_reference_drawn_small_keeps_its_ink_height() -> None:
    mask = reference_mask(7, "hershey_simplex", 4).astype(np.float32) / 255.0
    rows, cols = np.nonzero(mask >= 0.5)
    drawn = drawn_small(mask[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1], 12, 0.5)
    assert drawn is not None and abs(drawn[2] - 12) <= 1


def _costs(best: dict[int, float]) -> np.ndarray:
    costs = np.full(8, FAR)
    for digit, value in best.items():
        costs[digit - 1] = value
    return costs


def _row_board() -> tuple[np.ndarray, list[np.ndarray]]:
    """Three covered cells over a row of three numbers: (1, 0) and (1, 2) one glyph group, (1, 1)
    another. Read 2 3 2 the covered cells are all mines; read 1 2 1, one mine at either end: two
    readings the counts both hold, neither reached from the other by changing one group."""
    cells = np.array([[9, 9, 9], [-1, -1, -1], [0, 0, 0]])
    return cells, [np.array([3, 5]), np.array([4])]


def test_clear_shapes_are_named_without_own_size_distances() -> None:
    cells, members = _row_board()
    costs = np.stack([_costs({2: 0.05}), _costs({3: 0.05})])
    assert settle_digits(cells, members, costs, [False, False]).states == [2, 3]


def test_small_glyphs_whose_other_reading_the_counts_hold_are_refused() -> None:
    cells, members = _row_board()
    costs = np.stack([_costs({2: 0.05}), _costs({3: 0.05})])
    small = np.stack([_costs({1: 0.05, 2: 0.06}), _costs({2: 0.05, 3: 0.06})])
    settled = settle_digits(cells, members, costs, [False, False], small=small)
    assert settled.problem is not None
    assert "at its own size" in settled.problem[1]
    assert settled.alternatives is not None and (1, 2) in settled.alternatives


def test_small_glyphs_the_counts_hold_one_way_are_named() -> None:
    cells, members = _row_board()
    cells[0, 1] = int(MINE)  # a shown mine over the middle: 1 2 1 no longer holds (the middle sees one)
    costs = np.stack([_costs({2: 0.05}), _costs({3: 0.05})])
    small = np.stack([_costs({1: 0.05, 2: 0.06}), _costs({2: 0.05, 3: 0.06})])
    plain = settle_digits(cells, members, costs, [False, False])
    assert plain.states == [2, 3]
    assert settle_digits(cells, members, costs, [False, False], small=small).states == [2, 3]


def test_nothing_compared_at_its_own_size_changes_nothing() -> None:
    cells, members = _row_board()
    costs = np.stack([_costs({2: 0.05}), _costs({3: 0.05})])
    small = np.full((2, 8), 9.0)
    assert settle_digits(cells, members, costs, [False, False], small=small).states == [2, 3]


def _group(ink: np.ndarray) -> cutting.Group:
    """A glyph group whose shape is ``ink``'s, with its fixed-size distances."""
    shape = glyph_shape(ink, in_cell=False)
    assert shape is not None
    group = cutting.Group(np.array([0]), np.zeros((cutting.TILE, cutting.TILE, 3), np.float32), glyph=shape)
    group.costs = digit_distances(shape)
    return group


def test_a_glyph_as_tall_as_the_fixed_box_is_not_compared_at_its_own_size() -> None:
    assert (naming._small_costs(_group(_drawn(3, 24, 0.5))) == 9.0).all()


def test_a_small_blob_is_compared_at_its_own_size() -> None:
    small = naming._small_costs(_group(_drawn(2, 8, 1.4)))
    assert small.min() <= DIGIT_LOOSE and 2 in small_rivals(small)


def test_a_group_its_own_size_names_as_named_stays() -> None:
    cells, members = _row_board()
    costs = np.stack([_costs({2: 0.05}), _costs({3: 0.05})])
    small = np.stack([_costs({1: 0.05, 2: 0.06}), _costs({2: 0.06, 3: 0.05})])  # the 3 is a 3 there
    assert settle_digits(cells, members, costs, [False, False], small=small).states == [2, 3]


def test_a_glyph_height_no_reference_reaches_has_no_references_and_no_crash():
    """Ink 1-2 px tall (a board shrunk to 0.6x): no reference comes out that small, and the empty set has
    the boxes' width (it raised ValueError on reshaping no boxes); every digit is then 9 away."""
    from bot.vision.glyphs import SHAPE_SIZE, small_references

    digits, boxes, aspects = small_references(2)
    assert len(digits) == len(aspects) == 0 and boxes.shape == (0, SHAPE_SIZE[0] * SHAPE_SIZE[1])


def test_xbomb_shrunk_to_six_tenths_reads_its_fresh_board():
    from bot.board import Board
    from bot.vision.read import read_screen

    folder = Path(__file__).parent / "data" / "real" / "xbomb"
    image = cv2.imread(str(folder / "expert_fresh.png"))
    small = cv2.resize(image, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_LINEAR)
    truth = Board.from_text(
        "\n".join(
            line
            for line in (folder / "expert_fresh.txt").read_text().splitlines()
            if not line.startswith("#")
        )
    )
    assert (read_screen(small, "auto", mines=99).board.cells == truth.cells).all()
