"""A glyph is named by the board's own font of a digit, not only by the reference digits."""

from __future__ import annotations

import numpy as np

from bot.vision.generic import Group, Shape, _own_font, _sure_digit
from bot.vision.glyphs import SHAPE_SIZE, GlyphShape


def _digit_group(cell: int, costs: list[float], box: float) -> Group:
    """A one-cell digit group with the given shape distances (every counting alike) and a glyph whose box
    is ``box`` all over (two such glyphs lie the difference of their ``box`` apart)."""
    return Group(
        members=np.array([cell]),
        tile=np.zeros((32, 32, 3), np.float32),
        shape=Shape.DIGIT,
        costs=np.array(costs),
        raw_costs=np.array(costs),
        weighted=np.array([costs, costs]),
        glyph=GlyphShape(np.full(SHAPE_SIZE, box, np.float32), 0.7, 0, 0, ()),
        ink=np.zeros(3),
    )


def test_a_glyph_the_references_name_only_just_is_compared_with_the_boards_own_glyph_of_that_digit():
    """KMines at its default size, live (session 18): a 3 alone on the board's top row was named 2 by the
    references (0.18, against 3 at 0.23), sure by its shape alone, so the board's own 2s (0.08 from the
    reference 2) were not compared with it; they lay 0.24 from it, farther than the reference 3. The
    counts allowed either, the 3 was read 2, and a cell beside it opened as safe held a mine. The board's
    better glyph of a digit is its font: the 2 is ruled out for the lone glyph, and left to the glyph
    that fits it better."""
    lone = _digit_group(0, [0.24, 0.17, 0.23, 0.32, 0.33, 0.40, 0.34, 0.34], box=0.0)
    twos = _digit_group(1, [0.30, 0.08, 0.16, 0.35, 0.30, 0.40, 0.33, 0.31], box=0.24)
    assert _sure_digit(lone) == 2 and _sure_digit(twos) == 2
    costs, raw, weighted = _own_font([lone, twos])
    assert costs[0, 1] == raw[0, 1] == 1.0 and (weighted[0, :, 1] == 1.0).all()
    assert costs[0, 2] == 0.23  # the 3 is left for the counts
    assert np.array_equal(costs[1], twos.costs)  # the board's font keeps its 2


def test_two_glyphs_of_one_digit_that_fit_it_alike_do_not_rule_each_other_out():
    """Two renderings of one digit both sure of it, neither fitting the reference better than the other
    by much, keep it: only a glyph fitting the digit worse than the board's other glyph of it is
    compared, so the two cannot both lose it."""
    a = _digit_group(0, [0.24, 0.10, 0.23, 0.32, 0.33, 0.40, 0.34, 0.34], box=0.0)
    b = _digit_group(1, [0.30, 0.10, 0.16, 0.35, 0.30, 0.40, 0.33, 0.31], box=0.24)
    costs, _, _ = _own_font([a, b])
    assert costs[0, 1] == costs[1, 1] == 0.10
