"""Boards whose cells are shaded by where they sit: a shade running across the board, and the shadows
raised tiles cast on the opened cells beside them.

Why: some clients (Windows 7's Minesweeper and its recreations) tint every covered tile by its place, from
light at one corner to dark at the other, and darken the edge of an opened cell on each side a covered
neighbour rises above it. The skinless reader groups cells that look alike and compares a glyph cell's
frame with a plain cell's; here no two covered tiles are alike across the board, and an opened cell's
frame depends on its neighbours. Nothing here is fitted to one client: four rules of the class.

- **Chained groups** (:func:`chain_groups`): two groups are one when cells of them side by side on the
  board look alike. A shade that changes little from a cell to the next links the whole run; two states
  never look alike side by side, so no state is merged with another.
- **Tinted, shadowed kinds** (:func:`shadowed_frame_difference`): two flat plain looks are one kind when,
  one tinted like the other (:func:`tinted_like`), their frames match on the sides no shadow darkens.
- **Sided grounds** (:func:`kind_ground`): for a glyph cell on a kind whose ground is shaded across the
  board (:func:`varied`), the ground it is drawn on side by side: each side of its frame from the plain
  cell of that kind whose same side matches it best (each tinted like the glyph cell's own background),
  the middle from the cell matching the whole frame best. A digit with a shadow along its top and its
  left then sits on a ground with those shadows, though no plain cell shows both, and its ink is the
  digit alone.
- **Shadowed grounds** (:func:`shadowed_ground`): a glyph cell's own shadows, read off the cell itself.
  Along each side, each row from the edge whose two ends agree with each other, darker than the ground
  there in a darkening of the ground's own colour (not the glyph's ink) is a shadow running corner to
  corner; past the edge band a shadow row runs on from the one before and is no darker (it fades
  inwards). The ground the ink is taken against is darkened so along that side. A number opened alone
  among covered tiles has shadows no plain cell shows, on every side a raised neighbour casts one.

>>> import numpy as np
>>> looks = np.zeros((6, 4, 3), np.float32)
>>> looks[:, :, :] = np.array([0, 5, 10, 15, 20, 100], np.float32)[:, None, None]
>>> chain_groups(np.array([0, 0, 1, 1, 2, 3]), looks, 2, 3).tolist()
[0, 0, 0, 0, 0, 1]
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

CHAIN_SHARE = 0.5
"""Least share of the places where two groups' cells meet side by side that must look alike for the groups
to be one look shaded across the board: a shade links nearly every cell to its neighbour, while a covered
and a revealed look a few levels apart (a low-contrast theme) may pass as alike at a few places only."""


def chain_groups(labels: np.ndarray, looks: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Group labels ``(N,)`` with every two groups merged whose cells side by side on the board look
    alike (:func:`bot.vision.cutting.alike` on their pooled ``looks``) at :data:`CHAIN_SHARE` or more of
    the places they meet, renumbered in order of first cell."""
    from bot.vision.cutting import _alike

    parent = np.arange(int(labels.max()) + 1)

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = int(parent[a])
        return a

    index = np.arange(rows * cols).reshape(rows, cols)
    pairs: dict[tuple[int, int], list[int]] = {}  # (group, group): [pairs side by side, of them alike]
    for a, b in ((index[:, :-1], index[:, 1:]), (index[:-1], index[1:])):  # side by side, then one above
        a, b = a.ravel(), b.ravel()
        apart = labels[a] != labels[b]
        a, b = a[apart], b[apart]
        together = _alike(np.abs(looks[a] - looks[b]))
        for x, y, same in zip(labels[a].tolist(), labels[b].tolist(), together.tolist(), strict=True):
            count = pairs.setdefault((min(x, y), max(x, y)), [0, 0])
            count[0] += 1
            count[1] += int(same)
    for (x, y), (beside, same) in pairs.items():
        if same < CHAIN_SHARE * beside:  # two looks a few levels apart meet mostly unlike: two states
            continue
        rx, ry = root(x), root(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)
    roots = np.array([root(k) for k in range(len(parent))])
    _, first = np.unique(roots[labels], return_index=True)
    order = np.empty(len(first), int)
    order[np.argsort(first)] = np.arange(len(first))
    _, dense = np.unique(roots[labels], return_inverse=True)
    return order[dense.ravel()]


@lru_cache(maxsize=8)
def side_masks(size: int, depth: int) -> np.ndarray:
    """``(4, size * size)`` bools: the pixels within ``depth`` of a square's edge nearest its top, bottom,
    left and right side (a corner pixel goes to the first side it is nearest)."""
    y, x = np.mgrid[0:size, 0:size]
    near = np.stack([y, size - 1 - y, x, size - 1 - x])
    nearest = near.argmin(axis=0)
    ring = near.min(axis=0) < depth
    masks = np.stack([(nearest == s) & ring for s in range(4)]).reshape(4, -1)
    masks.flags.writeable = False
    return masks


def sided_base(tile: np.ndarray, candidates: np.ndarray, depth: int) -> tuple[np.ndarray, int]:
    """The ground ``tile`` ``(T, T, 3)`` is drawn on, side by side, from plain ``candidates`` ``(M, T, T, 3)``
    of one kind: each side's band (``depth`` pixels) from the candidate whose same band differs least
    (median of the most different channel: a glyph may cover some of it), the middle from the candidate
    whose whole ring differs least. Returns the composite tile and that candidate's index."""
    size = len(tile)
    masks = side_masks(size, depth)
    flat = candidates.reshape(len(candidates), -1, 3)
    own = tile.reshape(-1, 3)
    composite = None
    sides = []
    for mask in masks:
        diff = np.abs(flat[:, mask] - own[mask]).max(axis=-1)
        score = np.median(diff, axis=1)
        sides.append(score)
    whole = int(np.argmin(np.sum(sides, axis=0)))
    composite = flat[whole].copy()
    for mask, score in zip(masks, sides, strict=True):
        composite[mask] = flat[int(np.argmin(score)), mask]
    return composite.reshape(tile.shape), whole


SHADOW_SHARE = 0.9
"""Share of a side's differing frame pixels that must differ one way (all darker, or all lighter) for
the side to count as a shadow's: a shadow darkens, it draws no line of another colour."""
SHADOW_SIDES = 2
"""Sides of a frame that must be compared (not in shadow) for two tiles to be weighed at all."""
SHADOW_AREA = 0.1
"""Least share of a side's band that must differ for it to be a shadow (a pixel's shift of a grid line
differs in fewer, and is compared as it is)."""


def tinted_like(tile: np.ndarray, other: np.ndarray) -> np.ndarray:
    """``tile`` with each channel scaled so that its core's mean is ``other``'s: a shade that runs across
    the board tints a whole tile, frame and fill alike (the core is the middle half, where no frame is)."""
    from bot.vision.cutting import CORE

    own = tile[CORE:-CORE, CORE:-CORE].reshape(-1, 3).mean(axis=0)
    theirs = other[CORE:-CORE, CORE:-CORE].reshape(-1, 3).mean(axis=0)
    return (tile * (theirs / np.maximum(own, 1.0))).astype(tile.dtype)


def shadowed_frame_difference(a: np.ndarray, b: np.ndarray) -> float:
    """:func:`bot.vision.describe.frame_difference` of two flat tiles, ``a`` tinted like ``b``
    (:func:`tinted_like`), over their sides that are not in a shadow (a side a good share of which
    differs one way throughout, as a raised neighbour's shadow darkens it); 2.0 (no match) when fewer
    than :data:`SHADOW_SIDES` sides are left to compare."""
    from bot.vision.cutting import CORE
    from bot.vision.describe import FRAME_COLOUR, frame_difference

    masks = side_masks(len(a), CORE)
    a = tinted_like(a, b)
    fa, fb = a.reshape(-1, 3), b.reshape(-1, 3)
    keep_a, keep_b = a.copy().reshape(-1, 3), b.copy().reshape(-1, 3)
    compared = 0
    for mask in masks:
        signed = (fa[mask] - fb[mask]).mean(axis=-1)
        differ = np.abs(fa[mask] - fb[mask]).max(axis=-1) > FRAME_COLOUR
        if (
            differ.mean() > SHADOW_AREA
            and max((signed[differ] < 0).mean(), (signed[differ] > 0).mean()) >= SHADOW_SHARE
        ):
            keep_a[mask] = keep_b[mask]  # a side in shadow: left out of the comparison
        else:
            compared += 1
    if compared < SHADOW_SIDES:
        return 2.0
    return frame_difference(keep_a.reshape(a.shape), keep_b.reshape(b.shape))


def kind_ground(
    tile: np.ndarray, tiles: np.ndarray, groups: list, members: list[int]
) -> tuple[int, np.ndarray]:  # type: ignore[type-arg]
    """The :func:`sided_base` ground of ``tile`` cut from the cells of the plain ``groups`` ``members``
    (one kind), each cell first tinted like ``tile``'s rim (:func:`rim_tinted`); returns the group the
    ground's middle comes from, and the ground."""
    from bot.vision.cutting import CORE

    owner = np.concatenate([np.full(len(groups[i].members), i) for i in members])
    cells = np.concatenate([groups[i].members for i in members])
    ground, whole = sided_base(tile, rim_tinted(tiles[cells], tile), CORE)
    return int(owner[whole]), ground


def rim_tinted(candidates: np.ndarray, tile: np.ndarray) -> np.ndarray:
    """``candidates`` ``(M, T, T, 3)`` each scaled per channel so that the median of its rim (plain: its
    fill) is ``tile``'s own background (the dominant colour just inside its frame, whatever a glyph
    covers): the same ground at another place of a shade that runs across the board."""
    from bot.vision.cutting import CORE, INSET
    from bot.vision.describe import _inner_ring, dominant_colour

    size = len(tile)
    ring = np.zeros((size, size), bool)
    ring[INSET:-INSET, INSET:-INSET] = True
    ring[CORE:-CORE, CORE:-CORE] = False
    own = dominant_colour(_inner_ring(tile))  # its background, however much of the rim a glyph covers
    theirs = np.median(candidates[:, ring], axis=1)
    return candidates * (own / np.maximum(theirs, 1.0))[:, None, None, :]


def varied(members: list[int], groups: list) -> bool:  # type: ignore[type-arg]
    """Whether the plain groups ``members`` (one kind) show their ground shaded across the board: the mean
    colours of their cells' cores (the middle half, no frame, no neighbour's spill) spread wider than
    two alike cells may differ."""
    from bot.vision.cutting import CORE, SAME_MEAN

    tiles = groups[members[0]].board_tiles
    if tiles is None:
        return False
    cells = np.concatenate([groups[i].members for i in members])
    means = tiles[cells, CORE:-CORE, CORE:-CORE].mean(axis=(1, 2))
    return bool(np.ptp(means, axis=0).max() > SAME_MEAN)


SHADOW_DEPTH = 8
"""Deepest row from a side (of a ``TILE`` tile) that a cast shadow may darken: a quarter of the cell."""
SHADOW_ROW_SHARE = 1 / 3
"""Least share of a side's row (inside the edge band's corners) that must show the row's shadow colour (the
colour its two end quarters agree on): a shadow runs corner to corner, while a glyph is
drawn in the cell's middle and may hide the rest."""
SHADOW_AGREE = 16.0
"""Largest difference (0-255, most different channel) from a row's shadow colour of the pixels that show
it."""
SHADOW_DARKER = 10.0
"""Least darkening (luma, 0-255) of a row's ends below the ground's for the row to be in a shadow."""
SHADOW_GREY = 0.15
"""Largest spread of the per-channel ratios (shadow / ground) of a shadow: it darkens the ground's own
colour (towards grey or black) rather than drawing a line of another hue."""
SHADOW_DIMMEST = 0.4
"""Least ratio (shadow / ground, each channel) of a shadow: a cast shadow dims the ground, while a row drawn
near black along a side is a line (a grid line a tile's cut took in), no shadow."""
SHADOW_FROM_INK = 40.0
"""Least distance (0-255 RGB) between a shadow's colour and the glyph's ink: a
glyph's bar along a side, in its own ink, is no shadow."""


def shadowed_ground(tile: np.ndarray, ground: np.ndarray) -> np.ndarray:
    """``ground`` ``(T, T, 3)`` darkened by the shadows ``tile`` shows along its sides, each row from the
    side inwards (to :data:`SHADOW_DEPTH`, while each row shows one: :func:`_side_shadow`). Where two
    sides' shadows meet, the darker is kept. Rows of the edge band (``INSET``) but its last showing no
    shadow are passed over (a grid line or a neighbour's edge may be drawn there otherwise); from there
    on, each row's shadow runs on from the row before, no darker than it (a shadow fades inwards)."""
    from bot.vision.cutting import INSET
    from bot.vision.describe import LUMA

    ink = _ink_estimate(tile, ground)
    darkening = np.zeros_like(ground)
    for turns in range(4):
        own, base = np.rot90(tile, turns), np.rot90(ground, turns)
        shade = np.zeros_like(base)
        last = -np.inf  # the lightness of the last shadow row: a shadow fades inwards
        for depth in range(SHADOW_DEPTH):
            found = _side_shadow(own[depth], base[depth], ink, INSET)
            lightness = float(_row_colour(own[depth], INSET) @ LUMA) if found is not None else 0.0  # type: ignore[operator]
            if found is not None and lightness < last - SHADOW_AGREE:
                found = None  # darker further in: a glyph's part, not a shadow
            if found is None:
                if depth < INSET - 1:
                    continue  # the edge band: a frame row drawn otherwise (a grid line, a neighbour's edge)
                break  # from the band's last row on, a shadow runs on from the row before
            shade[depth] = found
            last = lightness
        np.minimum(darkening, np.rot90(shade, -turns), out=darkening)
    return ground + darkening


def _row_colour(row: np.ndarray, inset: int) -> np.ndarray | None:
    """The colour a row along a side shows corner to corner (inside ``inset``): the median of each end
    quarter, when the two agree and at least :data:`SHADOW_ROW_SHARE` of the row shows it; else None."""
    span = row[inset : len(row) - inset]
    quarter = max(1, len(span) // 4)
    first, last = np.median(span[:quarter], axis=0), np.median(span[-quarter:], axis=0)
    if float(np.abs(first - last).max()) > SHADOW_AGREE:
        return None
    colour = (first + last) / 2
    if (np.abs(span - colour).max(axis=-1) <= SHADOW_AGREE).mean() < SHADOW_ROW_SHARE:
        return None
    return colour


def _side_shadow(row: np.ndarray, base: np.ndarray, ink: np.ndarray | None, inset: int) -> np.ndarray | None:
    """``(3,)`` the darkening (negative) a shadow adds to the ground's ``base`` row along one side, when
    ``row`` shows one: one colour corner to corner (:func:`_row_colour`), darker than the ground's by
    :data:`SHADOW_DARKER` at least, the ground's own colour scaled (:data:`SHADOW_GREY`) and unlike the
    glyph's ``ink`` (:data:`SHADOW_FROM_INK`); None otherwise."""
    from bot.vision.describe import LUMA

    own, theirs = _row_colour(row, inset), _row_colour(base, inset)
    if own is None or theirs is None:
        return None
    if float((theirs - own) @ LUMA) < SHADOW_DARKER or (own > theirs + SHADOW_AGREE / 2).any():
        return None
    ratios = own / np.maximum(theirs, 1.0)
    if float(np.ptp(ratios)) > SHADOW_GREY or float(ratios.min()) < SHADOW_DIMMEST:
        return None
    if ink is not None and float(np.linalg.norm(own - ink)) < SHADOW_FROM_INK:
        return None
    return own - theirs


def _ink_estimate(tile: np.ndarray, ground: np.ndarray) -> np.ndarray | None:
    """The median colour of the core's pixels most unlike the ground (at least half the largest
    difference there): the glyph's ink; None when the core is the ground."""
    from bot.vision.cutting import CORE

    core, base = tile[CORE:-CORE, CORE:-CORE].reshape(-1, 3), ground[CORE:-CORE, CORE:-CORE].reshape(-1, 3)
    distance = np.abs(core - base).max(axis=-1)
    top = float(distance.max())
    if top < SHADOW_FROM_INK:
        return None
    return np.median(core[distance >= top / 2], axis=0)
