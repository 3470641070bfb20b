"""Boards whose cells are shaded by where they sit: a shade running across the board, and the shadows
raised tiles cast on the opened cells beside them.

Why: some clients (Windows 7's Minesweeper and its recreations) tint every covered tile by its place, from
light at one corner to dark at the other, and darken the edge of an opened cell on each side a covered
neighbour rises above it. The skinless reader groups cells that look alike and compares a glyph cell's
frame with a plain cell's; here no two covered tiles are alike across the board, and an opened cell's
frame depends on its neighbours. Nothing here is fitted to one client: two rules of the class.

- **Chained groups** (:func:`chain_groups`): two groups are one when cells of them side by side on the
  board look alike. A shade that changes little from a cell to the next links the whole run; two states
  never look alike side by side, so no state is merged with another.
- **Sided bases** (:func:`sided_base`): the ground a glyph cell is drawn on, side by side: each side of
  its frame taken from the plain cell of one kind whose same side matches it best, the middle from the
  cell matching the whole frame best. A digit with a shadow along its top and its left then sits on a
  ground with those shadows, though no plain cell shows both.

>>> import numpy as np
>>> looks = np.zeros((6, 4, 3), np.float32)
>>> looks[:, :, :] = np.array([0, 5, 10, 15, 20, 100], np.float32)[:, None, None]
>>> chain_groups(np.array([0, 0, 1, 1, 2, 3]), looks, 2, 3).tolist()
[0, 0, 0, 0, 0, 1]
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np


def chain_groups(labels: np.ndarray, looks: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Group labels ``(N,)`` with every two groups merged whose cells side by side on the board look alike
    (:func:`bot.vision.generic.alike` on their pooled ``looks``), renumbered in order of first cell."""
    from bot.vision.generic import _alike

    parent = np.arange(int(labels.max()) + 1)

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = int(parent[a])
        return a

    index = np.arange(rows * cols).reshape(rows, cols)
    for a, b in ((index[:, :-1], index[:, 1:]), (index[:-1], index[1:])):
        a, b = a.ravel(), b.ravel()
        apart = labels[a] != labels[b]
        a, b = a[apart], b[apart]
        if not len(a):
            continue
        pairs = {(int(x), int(y)) for x, y in zip(labels[a], labels[b], strict=True)}
        firsts = {}
        for i, pair in enumerate(zip(labels[a].tolist(), labels[b].tolist(), strict=True)):
            firsts.setdefault(pair, []).append(i)
        for pair in pairs:
            if root(pair[0]) == root(pair[1]):
                continue
            at = np.array(firsts[pair])
            if _alike(np.abs(looks[a[at]] - looks[b[at]])).any():
                ra, rb = root(pair[0]), root(pair[1])
                parent[max(ra, rb)] = min(ra, rb)
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


def sided_ground(g, groups: list, plain: list[int]) -> tuple[int | None, np.ndarray | None, float]:  # type: ignore[no-untyped-def]
    """For a glyph group no plain group frames alike (:func:`bot.vision.generic.base_of` found none): the
    plain group it sits on, the :func:`sided_base` ground cut from that kind's cells, and its frame
    difference; ``(None, None, 2.0)`` unless one kind's ground frames it alike and clearly nearer than any
    other kind's, with its fill showing around the glyph (the same tests a plain base passes)."""
    from bot.vision.generic import CORE, FRAME_CLEAR, FRAME_MATCH, _fill_shows, frame_difference

    tiles = g.board_tiles
    if tiles is None:
        return None, None, 2.0
    by_kind: dict[int, list[int]] = {}
    for i in plain:
        if groups[i].kind is not None and (groups[i].raised or not g.raised):
            by_kind.setdefault(groups[i].kind, []).append(i)
    found: dict[int, tuple[float, int, np.ndarray]] = {}
    for kind, members in by_kind.items():
        owner = np.concatenate([np.full(len(groups[i].members), i) for i in members])
        cells = np.concatenate([groups[i].members for i in members])
        ground, whole = sided_base(g.tile, tiles[cells], CORE)
        found[kind] = (frame_difference(g.tile, ground), int(owner[whole]), ground)
    if not found:
        return None, None, 2.0
    best = min(found, key=lambda k: found[k][0])
    frame, base, ground = found[best]
    others = [v[0] for k, v in found.items() if k != best]
    if frame > FRAME_MATCH or (others and frame > FRAME_CLEAR * min(others)) or not _fill_shows(g.tile, ground):
        return None, None, 2.0
    return base, ground, frame
