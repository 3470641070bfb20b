"""Join plain groups into tile kinds and seat every glyph group on its kind (the third stage).

Why: a board draws its covered tiles one way and its revealed tiles another; which kind is which is told
by structure (raised, textured, carrying digits) where it can be, and otherwise left as options for the
board's logic to pick from (:func:`_cover_options`). A glyph's state follows from the kind it sits on."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Cell
from bot.vision.cutting import (
    CORE,
    INSET,
    SAME_MEAN,
    TILE,
    Group,
    Shape,
    _channel_sum,
    _peak,
    quantile,
)
from bot.vision.describe import (
    CLEAR_DIGIT,
    FILL_SHOWN,
    KNOWN_FILL,
    TWO_COLOURS,
    _band,
    _inner_ring,
    _ramp,
    _residual,
    _rim,
    _slope,
    bevel,
    channel_balance,
    dominant_colour,
    edge_lines,
    frame_bands,
    frame_difference,
    frame_differences,
    ink_of,
    is_cross,
    own_background,
    ramp_slope,
    shape_of,
)
from bot.vision.digits import (
    INK_APART,
)
from bot.vision.glyphs import (
    mean_rows,
    shape_distance,
)
from bot.vision.shade import kind_ground, shadowed_frame_difference, varied

PLAIN_RESIDUAL = 18.0
"""A group whose core departs at most this much (98th percentile, 0-255) from a fitted colour ramp is
plain."""
KIND_DISTANCE = 40.0
"""Plain groups whose mean colours are nearer than this (0-255 RGB) are one kind."""
KIND_FRAME = 0.5
"""... and whose frames (grid line, bevel) differ at most this much (:func:`frame_difference`)."""
KIND_RAMP = 10.0
"""... and whose shading across the tile differs at most this much (:func:`ramp_slope`, luma 0-255):
a glossy tile shaded top to bottom is not of a flat tile's kind, however alike their colour and frame."""
FRAME_MATCH = 1.0
"""Largest frame difference for a glyph group to sit on a plain group's base."""
FLAG_FRAME = 0.5
"""A flag's tile is framed at most this differently from the covered tile it sits on."""
FRAME_CLEAR = 0.7
"""A base must be framed at most this fraction as differently as the nearest plain group of another kind."""
RAISED_BEVEL = 12.0
"""A tile whose top-left edge is this much lighter, and bottom-right edge this much darker, than its
fill (luma) is raised: covered."""
TEXTURE = 6.0
"""Mean high-frequency energy (0-255) above which a kind is textured (dithered: covered)."""


@dataclass
class Kind:
    """Plain groups of one colour: one tile kind (covered or revealed)."""

    groups: list[int]
    colour: np.ndarray
    cells: int
    raised: bool
    texture: float
    digits: int = 0
    marks: int = 0
    digit_looks: int = 0
    """Glyph groups on it that are clearly digits: two or more looks of digits make it revealed."""
    glyph_looks: int = 0
    """Glyph groups of any shape on it (one look alone on a covered kind can only be its flag)."""
    first: Group | None = None
    """Its first (largest) group: how its tiles are drawn (framing, shading, fill)."""


def _touch(a: np.ndarray, b: np.ndarray, shape: tuple[int, int]) -> bool:
    """Whether a cell of ``a`` (flat indices on a board of ``shape``) is next to (or is) a cell of ``b``."""
    grid = np.zeros((shape[0] + 2, shape[1] + 2), bool)
    rows, cols = np.divmod(a, shape[1])
    for dy, dx in itertools.product((0, 1, 2), repeat=2):
        grid[rows + dy, cols + dx] = True
    rows, cols = np.divmod(b, shape[1])
    return bool(grid[rows + 1, cols + 1].any())


def _may_join(
    kind: Kind,
    groups: list[Group],
    g: Group,
    colour: np.ndarray,
    shape: tuple[int, int] | None,
    touching: bool = False,
) -> bool:
    """Whether group ``g`` (mean ``colour``) may join ``kind``: alike in colour, or touching its cells
    (see :func:`_kinds`); with no board ``shape``, by framing alone; ``touching``: only by touching."""
    return (
        shape is None
        or (not touching and float(np.abs(kind.colour - colour).max()) <= SAME_MEAN)
        or _touch(np.concatenate([groups[j].members for j in kind.groups]), g.members, shape)
    )


def _kinds(
    groups: list[Group], texture: np.ndarray, shape: tuple[int, int] | None = None, touching: bool = False
) -> list[Kind]:
    """Plain groups joined into kinds by mean colour and framing (each group's ``kind`` set): a covered
    tile and a revealed one may be close in colour, but their frames (bevel, grid line) differ. With the
    board's ``shape``, a group of another colour (more than :data:`SAME_MEAN` apart) joins a kind only
    where some of its cells touch the kind's: covered tiles drawn in two shades lie side by side, while a
    revealed 0 never touches a covered cell, so plain looks a few levels apart that never meet are left
    for the board's logic to tell (islands of 0s opened apart are of one colour). ``touching``: groups
    join only where their cells touch, whatever their colour (:func:`apart_kinds`)."""
    kinds: list[Kind] = []
    plain = sorted(
        (i for i, g in enumerate(groups) if g.shape == Shape.PLAIN), key=lambda i: -len(groups[i].members)
    )
    for i in plain:
        g = groups[i]
        colour = mean_rows(g.tile[CORE:-CORE, CORE:-CORE].reshape(-1, 3))
        near = [
            k
            for k, kind in enumerate(kinds)
            if kind.raised == g.raised
            and np.linalg.norm(kind.colour - colour) < KIND_DISTANCE
            and abs(_slope_of(kind.first) - _slope_of(g)) <= KIND_RAMP  # type: ignore[arg-type]
        ]
        framing = (
            frame_differences(g.tile, np.stack([kinds[k].first.tile for k in near])).tolist()  # type: ignore[union-attr]
            if near
            else []
        )
        fits = {k: v for k, v in zip(near, framing, strict=True) if v <= KIND_FRAME}
        if not fits and not g.raised:  # a flat tile with a raised neighbour's shadow on some sides
            shaded = {k: shadowed_frame_difference(g.tile, kinds[k].first.tile) for k in near}  # type: ignore[union-attr]
            fits = {k: v for k, v in shaded.items() if v <= KIND_FRAME}
        fits = {k: v for k, v in fits.items() if _may_join(kinds[k], groups, g, colour, shape, touching)}
        if fits:  # the kind framed most alike: a sunken tile beside a faintly raised one is not of its kind
            k = min(fits, key=fits.__getitem__)
            kinds[k].groups.append(i)
            kinds[k].cells += len(g.members)
            g.kind = k
        else:
            g.kind = len(kinds)
            texture_mean = float(mean_rows(texture[g.members]))
            kinds.append(Kind([i], colour, len(g.members), g.raised, texture_mean, first=g))
    return kinds


def apart_kinds(groups: list[Group], texture: np.ndarray, shape: tuple[int, int]) -> bool:
    """Whether joining plain groups only where their cells touch (:func:`_kinds` with ``touching``) makes
    more kinds than joining them by colour as well: some plain looks a few levels apart that never meet
    were joined by colour alone (a low-contrast theme's covered tiles and revealed 0s). Sets the groups'
    kinds as a side effect; they are set afresh when the groups are named."""
    return len(_plain_kinds(groups, texture, shape, True)) > len(_plain_kinds(groups, texture, shape))


def _fill_shows(tile: np.ndarray, base: np.ndarray) -> bool:
    """Whether a base tile's fill shows around a glyph: at least ``FILL_SHOWN`` of the glyph tile's rim
    within ``2 * KNOWN_FILL`` of the base's rim (a glyph, even crossed out, leaves some of it)."""
    return quantile(_peak(np.abs(_rim(tile) - _rim(base))), FILL_SHOWN) <= 2 * KNOWN_FILL


def base_of(
    g: Group,
    groups: list[Group],
    plain: list[int],
    stacked: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] | None = None,
) -> int | None:
    """The plain group a glyph group sits on: framed alike (a raised glyph tile only on a raised one),
    and clearly
    more alike than any plain group of another kind; None for a cell with its own background.
    ``stacked``: the plain groups' tiles stacked so far in this reading, and their :func:`frame_bands`,
    by group indices (each glyph group is weighed against one of two sets of them, stacked once;
    read-only)."""
    same = [i for i in plain if groups[i].raised or not g.raised]
    if not same:
        return None
    kept = stacked.get(tuple(same)) if stacked is not None else None
    if kept is None:
        tiles = np.stack([groups[i].tile for i in same])
        banded = frame_bands(tiles)
        tiles.flags.writeable = banded.flags.writeable = False
        if stacked is not None:
            stacked[tuple(same)] = (tiles, banded)
    else:
        tiles, banded = kept
    differences = frame_differences(g.tile, tiles, banded)
    scores = {i: float(v) for i, v in zip(same, differences, strict=True)}
    best = min(scores, key=scores.__getitem__)
    others = [v for i, v in scores.items() if groups[i].kind != groups[best].kind]
    if scores[best] > FRAME_MATCH or (others and scores[best] > FRAME_CLEAR * min(others)):
        best = _shown_around(g, groups, scores, tiles)
        if best is None:
            return None
    if not _fill_shows(g.tile, groups[best].tile):
        return None  # a ground of its own colour, framed like the base
    g.frame = scores[best]
    return best


def _solid_share(tile: np.ndarray, base: np.ndarray) -> float:
    """Share of a glyph tile's inner ring (just inside its edge band) where the base tile shows solidly:
    the pixel and its eight neighbours all within ``2 * KNOWN_FILL`` of the base's (an anti-aliased blend
    along a stroke's edge is a pixel or two wide, and is eroded away)."""
    return float(_solid_shares(tile, base[None])[0])


def _solid_shares(tile: np.ndarray, bases: np.ndarray) -> np.ndarray:
    """``(K,)`` float64 :func:`_solid_share` of ``tile`` on each of ``bases`` ``(K, T, T, 3)``, all at once:
    the bases' match masks eroded as one image, one below the other (the inner ring's neighbours lie
    inside its own tile, so no tile's erosion reaches its neighbour's ring)."""
    size = len(tile)
    match = (_peak(np.abs(tile - bases)) <= 2 * KNOWN_FILL).astype(np.uint8)
    solid = cv2.erode(match.reshape(-1, size), np.ones((3, 3), np.uint8)).reshape(len(bases), -1)
    ring = _band(size, INSET, INSET + 3)
    return np.count_nonzero(solid[:, ring], axis=1) / len(ring)  # the mean of the bools


def _shown_around(
    g: Group, groups: list[Group], scores: dict[int, float], tiles: np.ndarray | None = None
) -> int | None:
    """The plain group a glyph group sits on when a bold glyph hides its frame (the glyph reaches into
    the edge band, or is drawn in the grid's own colour): the one kind whose tile shows solidly around
    the glyph (at least ``FILL_SHOWN`` of the inner ring, :func:`_solid_share`) while no other kind
    shows there at all (its group framed most alike); None when no kind, or more than one, shows.
    ``tiles``: the tiles of the groups of ``scores``, in its order, when already stacked."""
    if tiles is None:
        tiles = np.stack([groups[i].tile for i in scores])
    shares = _solid_shares(g.tile, tiles)
    shown: dict[int, float] = {}
    for i, share in zip(scores, shares.tolist(), strict=True):
        kind = groups[i].kind if groups[i].kind is not None else -1 - i
        shown[kind] = max(shown.get(kind, 0.0), share)
    showing = [k for k, v in shown.items() if v >= FILL_SHOWN]
    if len(showing) != 1 or any(v > 0 for k, v in shown.items() if k != showing[0]):
        return None
    return min((i for i in scores if groups[i].kind == showing[0]), key=scores.__getitem__)


def _stroke(tile: np.ndarray, ink: np.ndarray) -> float:
    """How clearly a tile draws an ink mask as one stroke: its colour there far from its own background
    (a flag under a cross shows background there) and uniform (a mine under it shows body and ground)."""
    pixels = tile[INSET:-INSET, INSET:-INSET][ink >= 0.5]
    if not len(pixels):
        return 0.0
    away = float(np.sqrt(_channel_sum((pixels - own_background(tile)) ** 2)).mean())
    return away - float(pixels.std(axis=0).mean())


def _ground(g: Group, groups: list[Group]) -> np.ndarray:
    """The colour a glyph group is drawn on: its base's fill, else its own background."""
    if g.base is not None:
        return _fill(groups[g.base])
    return own_background(g.tile)


def _slope_of(g: Group) -> float:
    """A group's :attr:`Group.slope`, found at its first use (:func:`_plain_kinds` finds it with the
    plain test's ramp)."""
    if g.slope is None:
        g.slope = ramp_slope(g.tile)
    return g.slope


def _fill(g: Group) -> np.ndarray:
    """A group's own background (:attr:`Group.fill`), found at its first use."""
    if g.fill is None:
        g.fill = dominant_colour(_inner_ring(g.tile))
    return g.fill


def crossed_out(groups: list[Group]) -> None:
    """Groups that are another glyph group (a mine or a flag) with a cross drawn over it: wrong flags.

    A cross over a big mine leaves little background to see it against, but the difference from the
    plain mine is the cross alone; of the two, on the same ground (an exploded mine's red ground is no
    cross), the crossed one draws it as one stroke."""
    marks = [g for g in groups if g.shape in (Shape.MINE, Shape.MARK)]
    grounds = [_ground(g, groups) for g in marks]
    for g, ground in zip(marks, grounds, strict=True):
        for other, other_ground in zip(marks, grounds, strict=True):
            if other is g:
                continue
            if g.base is not None and other.base is not None:
                same_ground = g.kind == other.kind
            else:  # a cross reaching the edge band hides its tile's frame: compare the grounds' colours
                same_ground = bool(np.abs(ground - other_ground).max() <= KIND_DISTANCE)
            if not same_ground:
                continue
            ink = ink_of(g.tile, other.tile)
            if is_cross(ink) and _stroke(g.tile, ink) > _stroke(other.tile, ink):
                g.shape, g.why = Shape.CROSS, "another glyph with a cross over it"
                break


def drawn_like_mines(groups: list[Group]) -> None:
    """Digit-shaped groups (not on a raised tile: a flag) whose glyph is nearer the board's own
    symmetric mine glyph, in the same ink, than any digit's are mines too (the board draws one glyph one
    way; the same mine cut a pixel off-centre, as a client's last row may be, fails the symmetry test);
    the counts may still make one a digit."""
    mines = [g for g in groups if g.shape == Shape.MINE and g.glyph is not None and g.ink is not None]
    for g in groups:
        if g.shape != Shape.DIGIT or g.raised or g.glyph is None or g.costs is None or g.ink is None:
            continue
        like = [m.glyph for m in mines if np.linalg.norm(m.ink - g.ink) < TWO_COLOURS]
        if min((shape_distance(g.glyph, m) for m in like), default=np.inf) < g.costs.min():
            g.shape, g.digit_too, g.why = Shape.MINE, True, "a glyph drawn like the mines shown"


def _attach(
    groups: list[Group], texture: np.ndarray, shape: tuple[int, int] | None = None, touching: bool = False
) -> list[Kind]:
    """Plain/glyph split, kinds (on a board of ``shape``: :func:`_kinds`; ``touching``: joined only where
    they touch), and each glyph group's base and shape."""
    kinds = _plain_kinds(groups, texture, shape, touching)
    _glyph_shapes(groups, kinds)
    return kinds


def _plain_kinds(
    groups: list[Group], texture: np.ndarray, shape: tuple[int, int] | None = None, touching: bool = False
) -> list[Kind]:
    """Each group raised or not, plain or a glyph (named by :func:`_glyph_shapes`); the plain kinds (on a
    board of ``shape``: :func:`_kinds`)."""
    for g in groups:
        g.raised = max(bevel(g.tile, _fill(g)), edge_lines(g.tile, _fill(g))) >= RAISED_BEVEL
        coef, residual = _ramp(g.tile[CORE:-CORE, CORE:-CORE])
        g.slope = _slope(coef)
        if _residual(residual) > PLAIN_RESIDUAL:
            g.shape = Shape.MARK  # a glyph: named below
    return _kinds(groups, texture, shape, touching)


def _glyph_shapes(groups: list[Group], kinds: list[Kind]) -> None:
    """Each glyph group's base and shape, and the digits and marks each kind carries."""
    plain = [i for i, g in enumerate(groups) if g.shape == Shape.PLAIN]
    fills = tuple(_fill(groups[i]) for i in plain)
    balance = channel_balance([g.tile for g in groups])
    stacked: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}
    for g in groups:
        if g.shape == Shape.PLAIN:
            continue
        raised = g.raised
        g.base = base_of(g, groups, plain, stacked)
        if g.base is not None and groups[g.base].raised and not g.raised and g.frame > FLAG_FRAME:
            g.base, g.frame = None, 2.0  # a flat tile framed unlike a flag on the raised tile: not on it
        if g.base is not None:
            g.kind = groups[g.base].kind
            # framed exactly like a raised tile: raised itself, whatever its glyph does to its own bevel
            g.raised = g.raised or (groups[g.base].raised and g.frame <= FLAG_FRAME)
        kind = kinds[groups[g.base].kind] if g.base is not None else None  # type: ignore[index]
        if kind is not None and kind.texture < TEXTURE and varied(kind.groups, groups):
            # a smooth ground in several looks (shaded across the board, shadows of neighbours; not a
            # dithered one): the look this cell shows, side by side
            ground = kind_ground(g.tile, g.board_tiles, groups, kind.groups)[1]
            if frame_difference(g.tile, ground) < g.frame:  # only a ground that frames it better
                g.ground = ground
        ground = g.ground if g.ground is not None else groups[g.base].tile if g.base is not None else None
        shape_of(g, ground, fills, balance)
        on = kinds[groups[g.base].kind] if g.base is not None else None  # type: ignore[index]
        if on is not None and g.shape != Shape.DIGIT and _ground_apart(g, on, groups):
            g.base, g.kind, g.frame, g.ground, g.raised = None, None, 2.0, None, raised
            shape_of(g, None, fills, balance)  # on a tile of its own
    crossed_out(groups)
    drawn_like_mines(groups)
    _flat_like_its_digit(groups, kinds)
    for g in groups:
        if g.shape != Shape.PLAIN and g.kind is not None:
            kinds[g.kind].glyph_looks += 1
            if g.shape == Shape.DIGIT and g.costs is not None and g.costs.min() <= CLEAR_DIGIT:
                kinds[g.kind].digits += len(g.members)
                kinds[g.kind].digit_looks += 1
            elif g.shape == Shape.MARK:
                kinds[g.kind].marks += len(g.members)
    one_glyph = [
        _one_glyph([g for g in groups if g.shape != Shape.PLAIN and g.kind == k]) for k in range(len(kinds))
    ]
    for g in groups:
        g.alone = g.shape != Shape.PLAIN and g.kind is not None and one_glyph[g.kind]
        revealed = _shown_digit(g, groups, kinds) if g.alone else None
        if revealed is not None:  # a digit sits on a revealed tile, whichever kind its tile frames nearer
            _move(g, kinds[g.kind], kinds[revealed])  # type: ignore[index]
            g.kind, g.alone = revealed, False
        apart = _separation(g.kind, kinds) if g.alone else 0.0  # type: ignore[arg-type]
        g.alone = g.alone and apart > KIND_FRAME and 2 * g.frame < apart
        if g.shape != Shape.PLAIN and g.base is not None and g.kind is not None:
            kind = kinds[g.kind]
            g.dithered = kind.texture >= TEXTURE and not kind.digits and g.frame <= FLAG_FRAME


GROUND_SHOWN = 0.5
"""Least share of a glyph tile's inner ring its own background must fill for that to be its ground (a
large glyph fills most of it)."""


def _ground_apart(g: Group, kind: Kind, groups: list[Group]) -> bool:
    """Whether a glyph group's own background (the flat colour around its glyph, not its ink) lies farther
    than ``KNOWN_FILL`` from every cell of the kind it is framed like: a tile of its own (a flag's covered
    tile, lighter than the revealed tiles it is framed as) that no plain cell shows, not that kind's."""
    own = _fill(g)
    tiles = g.board_tiles
    if tiles is None or g.ink is None or float(np.abs(own - g.ink).max()) <= KIND_DISTANCE:
        return False  # the glyph fills its ring: its background is not seen
    if float((_peak(np.abs(_inner_ring(g.tile) - own)) <= KNOWN_FILL).mean()) < GROUND_SHOWN:
        return False  # too little of it shows round the glyph to say it is a ground
    cells = np.concatenate([groups[i].members for i in kind.groups])
    ring = tiles[cells].reshape(len(cells), -1, 3)[:, _band(TILE, INSET, INSET + 3)]
    return bool(_peak(np.abs(np.median(ring, axis=1) - own)).min() > KNOWN_FILL)


def _flat_like_its_digit(groups: list[Group], kinds: list[Kind]) -> None:
    """A raised digit glyph drawn as the board draws that digit on a flat tile (in its ink, nearer that
    glyph than any reference digit, :func:`_drawn_alike`) is on an opened cell: its bevel is what lies
    beside its cells (an edge cell whose frame takes in the window past the board), and no client draws
    its flag as one of its digits. Taken as raised, a lost board's clear 1 was read as a wrong flag."""
    flat = [
        o
        for o in groups
        if o.shape == Shape.DIGIT
        and not o.raised
        and (o.kind is None or not (kinds[o.kind].raised or kinds[o.kind].texture >= TEXTURE))
    ]
    for g in groups:
        if g.shape == Shape.DIGIT and g.raised and g.kind is None:
            g.raised = not any(o.digit == g.digit and _drawn_alike(g, o, own=True) for o in flat)


def _one_glyph(on_kind: list[Group]) -> bool:
    """Whether the glyph groups on one kind draw one glyph: a single look, or renderings of one (each
    drawn like the largest, :func:`_drawn_alike`: a flag cut at other sub-pixel places on a fractional
    pitch)."""
    if not on_kind:
        return False
    first = max(on_kind, key=lambda g: len(g.members))
    return all(g is first or _drawn_alike(g, first) for g in on_kind)


def _shown_digit(g: Group, groups: list[Group], kinds: list[Kind]) -> int | None:
    """The kind surely revealed (flat, with several digit looks) on which the board shows the digit a
    glyph group is drawn as, if any: the same digit in one ink, the glyph nearer that digit's glyph than
    any reference digit (:func:`_drawn_alike`). No client draws its flag as one of its digits: a lone 4
    on a tile that, half a pixel off, frames like the covered kind's is still a 4."""
    if g.shape != Shape.DIGIT:
        return None
    return next(
        (
            o.kind
            for o in groups
            if o.shape == Shape.DIGIT
            and o.digit == g.digit
            and o.kind is not None
            and o.kind != g.kind
            and kinds[o.kind].digit_looks >= 2
            and not (kinds[o.kind].raised or kinds[o.kind].texture >= TEXTURE)
            and _drawn_alike(g, o, own=True)
        ),
        None,
    )


def _move(g: Group, old: Kind, new: Kind) -> None:
    """Count a glyph group on kind ``new`` instead of ``old`` (:func:`_glyph_shapes`' tallies)."""
    clear = g.shape == Shape.DIGIT and g.costs is not None and g.costs.min() <= CLEAR_DIGIT
    for kind, sign in ((old, -1), (new, 1)):
        kind.glyph_looks += sign
        if clear:
            kind.digits += sign * len(g.members)
            kind.digit_looks += sign


def _separation(k: int, kinds: list[Kind]) -> float:
    """How differently kind ``k``'s tiles are framed from the nearest other kind's (inf with none). A
    glyph surely sits on ``k`` only when they are framed apart (more than ``KIND_FRAME``) and the glyph
    is framed nearer ``k`` than half that: kinds told apart by shading alone, as small glossy tiles and
    flat ones are, leave a glyph's ground to chance."""
    first = kinds[k].first
    return min(
        (
            frame_difference(first.tile, other.first.tile)
            for j, other in enumerate(kinds)
            if j != k and first is not None and other.first is not None
        ),
        default=float("inf"),
    )


def _cover_options(kinds: list[Kind]) -> list[tuple[bool, ...]]:
    """Which kinds may be covered (True) or revealed (False), by structure; the board's logic picks.

    Raised or textured kinds are covered; flat kinds carrying digits are revealed, unless their digits
    are one look alone while another flat kind shows digits of several looks: that one look may be a
    flag drawn in one ink like a 1. A flat kind with other glyphs on it may hold flags only when digits
    show which kind is revealed; otherwise it has no option and the reading is refused. A kind left
    to the logic is covered only in options where every other covered kind is drawn like it
    (:func:`_drawn_alike_but_colour`)."""
    structural = [kind.raised or kind.texture >= TEXTURE for kind in kinds]
    revealed_known = any(kind.digits and not covered for kind, covered in zip(kinds, structural, strict=True))
    several = any(
        kind.digit_looks >= 2 and not covered for kind, covered in zip(kinds, structural, strict=True)
    )
    options: list[tuple[bool, ...]] = []
    for kind, covered in zip(kinds, structural, strict=True):
        if covered:
            options.append((True,))  # digits on a raised kind: refused when their state is asked
        elif kind.digits and kind.glyph_looks == 1 and several:
            options.append((True, False))
        elif kind.digits:
            options.append((False,))
        elif kind.marks and not revealed_known:
            options.append(())
        else:
            options.append((True, False))
    chosen = [k for k, choice in enumerate(options) if len(choice) == 2 and kinds[k].cells >= 2]
    unlike = [  # pairs of kinds drawn differently, one of them covered only if the logic says so
        (k, j)
        for k in chosen
        for j in range(len(kinds))
        if j != k and kinds[j].cells >= 2 and not _drawn_alike_but_colour(kinds[k], kinds[j])
    ]
    return [
        combo for combo in itertools.product(*options) if not any(combo[k] and combo[j] for k, j in unlike)
    ]


def _drawn_alike_but_colour(a: Kind, b: Kind) -> bool:
    """Whether two kinds differ in colour only (as covered tiles under uneven light do), not in shading
    or framing: a board draws its covered tiles one way, so two kinds drawn differently are not both
    covered (a one-cell kind aside: the pointer may light one covered tile)."""
    if a.first is None or b.first is None or a.raised != b.raised:
        return False
    if abs(_slope_of(a.first) - _slope_of(b.first)) > KIND_RAMP:
        return False
    shifted = a.first.tile - _fill(a.first) + _fill(b.first)
    return frame_difference(shifted, b.first.tile) <= KIND_FRAME  # framed alike once a's fill is b's


def _one_covered_look(
    fits: list[tuple[tuple[bool, ...], list[Cell]]], kinds: list[Kind]
) -> list[tuple[tuple[bool, ...], list[Cell]]]:
    """Of several readings the logic allows, those taking every flat kind as revealed, when the board
    draws its covered tiles in a look of their own (raised or dithered): a board has one covered look.
    With no such look, those with the fewest covered kinds (at least one: a board with none is left
    to the logic), so that digits on grounds of their own colour still tell which flat kind is
    covered. A flat look of one cell is left to the logic alone (the pointer may highlight one
    covered tile)."""
    sure = [kind.raised or kind.texture >= TEXTURE for kind in kinds]
    if len(fits) < 2:
        return fits
    if any(kind.cells < 2 for kind, covered in zip(kinds, sure, strict=True) if not covered):
        return fits
    if any(sure):
        revealed = [f for f in fits if not any(c and not s for c, s in zip(f[0], sure, strict=True))]
        return revealed or fits
    least = min(sum(f[0]) for f in fits)
    return [f for f in fits if sum(f[0]) == least] if least else fits


def _on_covered(g: Group, covered: tuple[bool, ...]) -> bool:
    """Whether a group sits on a covered tile: bevelled like one, or of (or on) a kind taken as covered."""
    return g.raised or (g.kind is not None and covered[g.kind])


def _glyph_state(g: Group, covered: tuple[bool, ...]) -> Cell | None:
    """A glyph group's state given which kinds are covered; None when it cannot be named. A glyph framed
    as the covered tile it sits on is a flag when no digit fits it (a mark), whatever its colours; one
    a digit fits is a flag only on a raised or dithered tile, in two colours, or as the kind's one
    glyph framed apart (else a revealed kind's digit, in a reading that takes its kind as covered)."""
    on_covered = _on_covered(g, covered)
    if g.shape == Shape.CROSS:
        return Cell.WRONG_FLAG
    if g.shape == Shape.MINE:
        return Cell.MINE
    if g.shape == Shape.DIGIT and not on_covered:
        return Cell(g.digit)
    framed = g.raised or g.frame <= FLAG_FRAME
    if (
        on_covered
        and framed
        and g.central  # ink along an edge alone is a neighbour's glyph run on, painted over or not
        and g.shape in (Shape.MARK, Shape.DIGIT)
        and (g.raised or g.dithered or g.colours or g.alone or g.shape == Shape.MARK)
    ):  # framed as a covered cell: raised, dithered, in two colours (cloth, pole), alone, or no digit
        return Cell.FLAG  # (a covered tile shows nothing else; a digit there only by these signs)
    return None


def _drawn_alike(g: Group, other: Group, own: bool = False) -> bool:
    """Whether two glyph groups draw one glyph: in one ink, each nearer the other's glyph than any digit's
    (the mines of a lost board in two looks of the cell around them); ``own``: ``g`` nearer ``other``'s
    glyph than any digit's (``other`` the board's own glyph of a digit: its font, not the references)."""
    if g.glyph is None or other.glyph is None or g.costs is None or other.costs is None:
        return False
    if g.ink is None or other.ink is None or np.abs(g.ink - other.ink).max() > INK_APART:
        return False
    nearest = float(g.costs.min()) if own else min(float(g.costs.min()), float(other.costs.min()))
    return shape_distance(g.glyph, other.glyph) < nearest
