"""A glyph is named by the board's own font of a digit, not only by the reference digits."""

from __future__ import annotations

import numpy as np

from bot.vision.cutting import Group, Shape
from bot.vision.glyphs import SHAPE_SIZE, GlyphShape
from bot.vision.ownfont import _own_font, _sure_digit


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


def test_two_glyphs_of_one_digit_that_fit_it_about_alike_do_not_rule_each_other_out():
    """xbomb's 3s, one whole and one cut by its cell's edge, are far apart as boxes (0.33) but fit the
    reference 3 about alike (0.10 and 0.09): two renderings of one font, both kept. So is a glyph
    compared with a better-fitting glyph of its digit in another ink (no client draws one digit in two
    colours: that glyph is no digit of the board's font)."""
    cut = _digit_group(0, [0.30, 0.28, 0.104, 0.32, 0.33, 0.40, 0.27, 0.34], box=0.0)
    whole = _digit_group(1, [0.30, 0.29, 0.088, 0.35, 0.30, 0.40, 0.33, 0.31], box=0.33)
    costs, _, _ = _own_font([cut, whole])
    assert costs[0, 2] == 0.104 and costs[1, 2] == 0.088
    lone = _digit_group(0, [0.24, 0.17, 0.23, 0.32, 0.33, 0.40, 0.34, 0.34], box=0.0)
    other_ink = _digit_group(1, [0.30, 0.08, 0.16, 0.35, 0.30, 0.40, 0.33, 0.31], box=0.24)
    other_ink.ink = np.array([128.0, 2.0, 2.0])
    costs, _, _ = _own_font([lone, other_ink])
    assert costs[0, 1] == 0.17
