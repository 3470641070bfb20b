"""The board's own font: digits named by shape checked against the glyphs the same board draws.

Why: reference digit shapes are only near a client's font; the board's own clear glyph of a digit is
its font exactly. Two glyphs of one digit in one font differ only by rendering, far less than two
digits differ, so a glyph named a digit that lies farther from the board's own clear glyph of that
digit than from another reference digit is not that digit: ruled out before the counts name digits
(:func:`_own_font`), and refused when the counts named it so all the same (:func:`unlike_own_font`)."""

from __future__ import annotations

import numpy as np

from bot.vision.cutting import Group, Shape
from bot.vision.describe import CLEAR_DIGIT
from bot.vision.digits import DIGIT_MARGIN, INK_APART, shape_choices
from bot.vision.glyphs import shape_distance


def _sure_digit(g: Group) -> int | None:
    """The digit a glyph group's shape alone names (every counting agrees, no other within the margin)."""
    assert g.costs is not None and g.raw_costs is not None and g.weighted is not None
    d = int(g.costs.argmin())
    if g.raw_costs.argmin() != d or g.weighted[0].argmin() != d or shape_choices(g.costs) != [d + 1]:
        return None
    return d + 1


def _font_over(font: Group, g: Group, d: int) -> bool:
    """Whether ``font``'s glyph of digit ``d`` is the board's over ``g``'s, whose shape names ``d`` too:
    in ``g``'s ink, and fitting the reference digit better by more than the margin that leaves another
    digit out of the question (:data:`bot.vision.digits.DIGIT_MARGIN`). Two glyphs that fit it about
    alike (one digit drawn whole and cut by a cell's edge) are two renderings of one font."""
    assert font.costs is not None and g.costs is not None and font.ink is not None and g.ink is not None
    if np.abs(font.ink - g.ink).max() > INK_APART:
        return False
    return bool(font.costs[d - 1] + DIGIT_MARGIN < g.costs[d - 1])


def _own_font(gs: list[Group]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The glyph groups' shape distances (plain, raw, weighted), with a digit ruled out for a group
    when the board's own glyph of it (a group its shape alone names) is farther from the group's glyph
    than that glyph is from its nearest other reference digit, and than the board's glyph is from the
    reference: the same digit of one font differs between cells only by rendering, far less than two
    digits differ (a bold 6 and 5 of one ink are otherwise near alike). A group its shape alone names
    the same digit is compared too, with a glyph of it that is the board's font over its own
    (:func:`_font_over`: KMines' lone 3 on the board's top row, 2 by the references at 0.18 against 3
    at 0.23, lay 0.24 from the board's own 2s, which fit the reference 2 at 0.08). A glyph cut off by
    its cell's edge where the board's glyph is whole (a 2 whose foot a neighbour hides), or either with
    a side a neighbour's ink hid (hidden by its own share: a 1 whose top a 2's foot covers), is not
    compared."""
    costs = np.stack([g.costs for g in gs])
    raw = np.stack([g.raw_costs for g in gs])
    weighted = np.stack([g.weighted for g in gs])
    sure = [_sure_digit(g) if g.shape == Shape.DIGIT else None for g in gs]  # a mine near a digit: no
    for a, g in enumerate(gs):
        for b, d in enumerate(sure):
            if d is None or b == a or g.glyph is None or gs[b].glyph is None:
                continue
            if sure[a] == d and not _font_over(gs[b], g, d):
                continue
            if set(g.glyph.cut) - set(gs[b].glyph.cut) or g.unseen or gs[b].unseen:
                continue  # the two may show different parts of one digit: not comparable
            others = np.delete(np.minimum(g.costs, g.raw_costs), d - 1)  # type: ignore[arg-type]
            apart = shape_distance(g.glyph, gs[b].glyph)
            if apart > max(float(others.min()), float(gs[b].costs[d - 1])):  # type: ignore[index]
                costs[a, d - 1] = raw[a, d - 1] = 1.0
                weighted[a, :, d - 1] = 1.0
    return costs, raw, weighted


def _comparable(g: Group, other: Group) -> bool:
    """Whether two glyph groups may be compared: in one ink, neither with a side a neighbour's ink hid nor
    ink running on into a neighbour (xbomb's 2s draw their feet in the cell below).
    Either may touch its cell's edge (unlike :func:`_own_font`, which rules digits out before the counts
    and so spares a glyph cut by its cell's edge): this check only refuses, and ink along a side that
    the board's own glyph of that digit leaves clear (a neighbour's shadow taken for ink) is no part of
    that digit."""
    if g.glyph is None or other.glyph is None or g.ink is None or other.ink is None:
        return False
    if g.unseen or other.unseen or any(x.runs is not None and x.runs.any() for x in (g, other)):
        return False  # part of a glyph painted over, or running on into a neighbour: not all of it shown
    return bool(np.abs(g.ink - other.ink).max() <= INK_APART)


def unlike_own_font(gs: list[Group], digits: list[int]) -> int | None:
    """The first of the glyph groups ``gs`` that the counts named ``digits`` (1-8, or another state)
    though its shape does not clearly name it (its best reference digit another, or that digit past
    ``CLEAR_DIGIT``), and that lies farther from a group the board clearly shows that digit as (its best
    reference, within ``CLEAR_DIGIT``, comparable: :func:`_comparable`) than from its own nearest other
    reference digit, and than that group is from the reference: the board's own font says it is not
    that digit (a 1 under a neighbour's shadow, drawn like no digit, that the counts named a 3). None
    when every weakly named group is drawn like the board's own glyph of its digit, or none shows."""
    clear = [
        g.costs is not None
        and 1 <= d <= 8
        and int(g.costs.argmin()) + 1 == d
        and g.costs[d - 1] <= CLEAR_DIGIT
        for g, d in zip(gs, digits, strict=True)
    ]
    for a, (g, d) in enumerate(zip(gs, digits, strict=True)):
        if clear[a] or g.costs is None or not 1 <= d <= 8:
            continue
        others = float(np.delete(g.costs, d - 1).min())
        for b, font in enumerate(gs):
            if b == a or not clear[b] or digits[b] != d or not _comparable(g, font):
                continue
            assert font.costs is not None and g.glyph is not None and font.glyph is not None
            if shape_distance(g.glyph, font.glyph) > max(others, float(font.costs[d - 1])):
                return a
    return None
