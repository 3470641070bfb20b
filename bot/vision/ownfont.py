"""The board's own font: digits named by shape checked against the glyphs the same board draws.

Why: reference digit shapes are only near a client's font; the board's own clear glyph of a digit is
its font exactly. Two glyphs of one digit in one font differ only by rendering, far less than two
digits differ, so a glyph named a digit that lies farther from the board's own clear glyph of that
digit than from another reference digit is not that digit: ruled out before the counts name digits
(:func:`_own_font`), and refused when the counts named it so all the same (:func:`unlike_own_font`).
Cells grouped as one glyph must draw it alike stroke for stroke (:func:`mixed_glyph`): faint glyphs of
one ink are grouped on colour differences too small to part a 3 from a 2."""

from __future__ import annotations

import numpy as np

from bot.vision.cutting import Group, Shape
from bot.vision.describe import CLEAR_DIGIT
from bot.vision.digits import DIGIT_MARGIN, INK_APART, shape_choices
from bot.vision.glyphs import shape_distance
from bot.vision.tilekinds import _fill

MIXED_STROKES = 12
"""Least pixels (of a glyph cell's 24 x 24 interior at 32 px a cell) where one cell of a glyph group is ink
and the group's other cells are not, or the other way round, at its best shift by a pixel, for the group
to hold two glyphs: cells of one digit differ in at most 4 on most boards (rendering moves a stroke's
edge, not the stroke), in 8 where a small TrueType digit falls on other sub-pixel places (dev seed 197,
17 x 16 px cells); a 3 among a board's 2s of one faint ink in 14, 22 at the grid found (dev seed 54)."""
INNER = 4
"""Pixels of a 32 px tile's edge left out when cells' strokes are compared (a neighbour's glyph or a
frame may show there)."""
STROKE_APART = 0.5
"""Least difference in ink (0 the ground, 1 the group's ink colour) for a pixel to count as a stroke one
cell draws and another does not."""


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


def mixed_glyph(groups: list[Group]) -> tuple[Group, int] | None:
    """A digit group whose cells do not draw one glyph, and the cell (flat index) that draws another;
    None when every digit group's cells agree stroke for stroke.

    Cells are grouped when their pooled looks differ little (:func:`bot.vision.cutting.group_cells`):
    a 3 and a 2 of one faint ink, a few levels off their ground, differ by less than the grouping's
    noise floor and fall into one group, whose mean glyph the counts may then name for the majority
    (dev seed 54: a pixel-font 3 among 2s read as 2). Each cell's ink (projected on the group's ink
    colour against its ground, 0-1) is compared with the mean ink of the group's other cells at the
    best shift by a pixel each way: a cell drawing :data:`MIXED_STROKES` pixels or more of stroke the
    others do not (or lacking one they draw) is another glyph."""
    for g in groups:
        if g.shape != Shape.DIGIT or len(g.members) < 2 or g.board_tiles is None or g.ink is None:
            continue
        if g.base is not None:
            core = groups[g.base].tile[INNER * 2 : -INNER * 2, INNER * 2 : -INNER * 2]
            ground = np.median(core.reshape(-1, 3), axis=0).astype(np.float32)
        else:
            ground = np.asarray(_fill(g), np.float32)  # its own ground
        span = g.ink.astype(np.float32) - ground
        length = float(np.linalg.norm(span))
        if length < 1.0:
            continue
        tiles = g.board_tiles[g.members].astype(np.float32)
        ink = np.clip((tiles - ground) @ (span / length**2), 0.0, 1.0)  # (n, TILE, TILE)
        total = ink.sum(axis=0)
        n, side = len(ink), ink.shape[1]
        inner = slice(INNER, side - INNER)
        for k in range(n):
            others = ((total - ink[k]) / (n - 1))[inner, inner]
            strokes = min(
                int((np.abs(ink[k, INNER + dy : side - INNER + dy, INNER + dx : side - INNER + dx] - others)
                     > STROKE_APART).sum())
                for dy in (-1, 0, 1)
                for dx in (-1, 0, 1)
            )  # fmt: skip
            if strokes >= MIXED_STROKES:
                return g, int(g.members[k])
    return None
