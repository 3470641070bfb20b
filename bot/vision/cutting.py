"""Cut a board into cells and group the cells that look alike (the skinless reader's first stage).

Why: every later stage compares tiles, so every cell is resampled to ``TILE`` pixels square at the same
sub-pixel places (32/33 px cells of a fractional pitch come out alike, rows drawn a pixel off the even
pitch are followed), after a light blur that removes dithering; cells alike to the level form one
:class:`Group`, each group one state of the board."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import cv2
import numpy as np

from bot.geometry import Geometry
from bot.vision.glyphs import (
    GlyphShape,
)
from bot.vision.grid import MIN_SIDE
from bot.vision.overdraw import SIDE_NAMES, runs_on

TILE = 32
"""Side, in pixels, every cell is resampled to."""
INSET = 4
"""Pixels of a tile's edge (grid line, bevel) left out of its interior."""
CORE = 8
"""Pixels left out on each side of the core (the middle half) where glyphs sit."""
POOL = 2
"""Tiles are averaged in POOL x POOL blocks before they are compared (16 x 16 features)."""
UNEVEN_REACH = 0.45
"""Farthest a row or column of cells is looked for off the grid's even pitch, in pitches (2 px or more):
nearly half a pitch, past which it would lie nearer its neighbour's place. A client that spreads its
window's leftover pixels draws a run of cells a pixel wider (GNOME Mines at 1000x700: ten columns of
27 px, then twenty of 26), and a grid of one pitch fitted to the others is then off by a pixel more at
each cell of the run, up to a third of a pitch."""
UNEVEN_STEP = 0.12
"""Farthest a row or column of cells lies off its neighbour's shift from the even pitch, in pitches (2 px
or more): a board's cells differ in size by a pixel or two, so a run of them drifts off a pixel at a
time; a cell far off its neighbours (a stretch of the profile alike by chance) stays on the pitch."""
UNEVEN_STEPS = 4
"""Steps per pixel at which a row or column is tried off the even pitch."""
UNEVEN_FIT = 0.5
"""A row or column is moved off the even pitch only where its misfit there is under this share of its
misfit on it (a clear, not a marginal, fit)."""
UNEVEN_MISFIT = 0.1
"""Least misfit of a row or column on the even pitch, as a share of the board's contrast along that
axis, for it to be looked for off it (noise moves nothing)."""
SAME_MEAN = 7.0
"""Largest mean colour difference (0-255) between two cells of one group."""
SAME_PEAK = 40.0
"""A pooled pixel differing by more than this (most different channel, 0-255) between two cells is an
outlier."""
SAME_OUTLIERS = 2
"""Most outlier pixels (of 256 pooled) two cells of one group may have: a 3 and a 5 of one bold font
differ in 4-6, cells of one state in none."""


class Shape(Enum):
    """What a group's glyph looks like."""

    PLAIN = "plain"
    DIGIT = "digit"
    MINE = "mine"
    CROSS = "cross"
    MARK = "mark"
    """Any other glyph: a flag on a covered cell, unreadable elsewhere."""


@dataclass
class Group:
    """Cells that look alike: their mean tile and what their glyph is."""

    members: np.ndarray
    """Flat cell indices."""
    tile: np.ndarray
    """``(TILE, TILE, 3)`` float32 mean of the members' tiles."""
    shape: Shape = Shape.PLAIN
    digit: int = 0
    base: int | None = None
    """Index of the plain group whose rim this group shares (its background), None for its own."""
    kind: int | None = None
    """Index of the plain kind the group belongs to (plain groups) or sits on (glyph groups)."""
    raised: bool = False
    """The tile itself is bevelled like a covered cell."""
    dithered: bool = False
    """A glyph framed exactly like a textured (dithered: covered) kind's tile, a kind no clear digit shows
    on: on a covered cell, as a glyph framed like a raised tile is."""
    frame: float = 2.0
    """Frame difference from its base (:func:`frame_difference`; 2 when it has none)."""
    colours: bool = False
    """The glyph's ink holds two clearly different colours."""
    costs: np.ndarray | None = None
    """``(8,)`` shape distance to each digit 1-8, holes counted (glyph groups)."""
    raw_costs: np.ndarray | None = None
    """The same counting only missing holes: a pinhole blur closed must not decide alone."""
    weighted: np.ndarray | None = None
    """``(2, 8)`` both countings against references at the glyph's own stroke weight (a bold glyph
    is as far from every thin reference: only bold ones still show its notches and bowls)."""
    ink: np.ndarray | None = None
    """Median colour of the glyph's solid ink (glyph groups)."""
    glyph: GlyphShape | None = None
    """The glyph's comparable shape (glyph groups with ink)."""
    digit_too: bool = False
    """A mine glyph that a digit shape is near as well: the board's counts decide."""
    unseen: tuple[str, ...] = ()
    """Sides of its cells where a neighbour's glyph was painted over (:func:`repair_sides`): its own glyph
    may go on under it there, as if cut off by the cell's edge."""
    runs: np.ndarray | None = None
    """``(4, size, size)`` the ink its glyph draws past each side of its cells, painted over in the
    neighbour (:func:`bot.vision.overdraw.runs_on`): part of its own glyph (:func:`run_on_ink`)."""
    alone: bool = False
    """The only glyph look on its kind, a kind framed apart from the others and the glyph nearer it
    (:func:`_separation`): on a covered kind, that kind's flag whatever its ink."""
    why: str = ""
    central: bool = True
    """Its ink reaches the middle third of its cells both ways (:func:`reaches_middle`): a flag does, as
    does any glyph drawn in its cell; a neighbour's glyph running on over an edge does not."""
    fill: np.ndarray | None = None
    """Its tile's own background (:func:`dominant_colour` of its inner ring), found once per group."""
    slope: float | None = None
    """How much its core is shaded across (:func:`ramp_slope`), found once per group."""


@dataclass(frozen=True)
class Crop:
    """The board's pixels (a pixel around them too), blurred once, and where they sit."""

    pixels: np.ndarray
    blurred: np.ndarray
    x0: int
    y0: int
    geometry: Geometry
    shifts: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    """How far each column's and each row's cells lie from the grid's even pitch, in pixels (empty: on
    it; see :func:`uneven_shifts`)."""


def crop_board(image: np.ndarray, geometry: Geometry) -> Crop:
    """The board blurred so that dithering and sub-pixel shifts vanish (sigma 0.7 px, or more for big
    cells, which are sampled down), and where its rows and columns lie off the even pitch."""
    from bot.vision.memory import scratch

    region = geometry.region()
    x0, y0 = max(region.left - 2, 0), max(region.top - 2, 0)
    x1, y1 = min(region.right + 2, image.shape[1]), min(region.bottom + 2, image.shape[0])
    pixels = image[y0:y1, x0:x1].astype(np.float32)
    sigma = max(0.7, 0.4 * min(geometry.pitch_x, geometry.pitch_y) / TILE)
    blurred = cv2.GaussianBlur(pixels, (0, 0), sigma)
    g = geometry
    luma = _channel_mean(blurred, scratch("luma", blurred.shape[:2], np.float32))  # only its means leave
    shifts = (
        uneven_shifts(luma.mean(axis=0), g.left - x0, g.pitch_x, g.cols),
        uneven_shifts(luma.mean(axis=1), g.top - y0, g.pitch_y, g.rows),
    )
    return Crop(pixels, blurred, x0, y0, geometry, shifts)


def _channel_mean(image: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``image.mean(axis=-1)`` of a float ``(..., 3)`` array, the same to the bit: :func:`_channel_sum`,
    divided by 3 in the array's own type. ``np.mean`` divides by the count as ``np.intp``: float32 in
    float64, rounded back. That is float32's own correctly rounded quotient (float64's 53 bits are at
    least twice float32's 24, plus 2: rounding twice cannot differ), here with no conversion to float64."""
    total = _channel_sum(image, out)
    return np.true_divide(total, total.dtype.type(3), out=total)


def _channel_sum(values: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``values.sum(axis=-1)`` of a float ``(..., 3)`` array, the same to the bit, several times faster:
    numpy reduces a 3-long last axis one element at a time; here the channels are added whole, in
    numpy's order (the first plus the second, then the third). A large float32 image is added by
    OpenCV's colour transform with weights 1, 1, 1 (twice as fast again): it adds ``1 * first + 1 *
    second + 1 * third + 0`` in float32 in that order, and a product by 1 or a sum with 0 is exact."""
    if values.dtype == np.float32 and values.ndim == 3 and values.size >= 1 << 16:
        return cv2.transform(values, np.ones((1, 3), np.float32), dst=out)
    total = np.add(values[..., 0], values[..., 1], out=out)
    total += values[..., 2]
    return total


def uneven_shifts(profile: np.ndarray, start: float, pitch: float, count: int) -> tuple[float, ...]:
    """How far each of ``count`` cells along one axis lies from ``start + i * pitch``, by its stretch of
    ``profile`` (the board's mean brightness across that axis) against the median stretch of all: some
    clients draw a board of cells of two sizes (GNOME Mines: rows of 23 px, the last ones 22 px), and
    one pitch is then a pixel or more off on some of them (up to :data:`UNEVEN_REACH`). Only a whole
    pixel or more, where the stretch fits clearly better shifted, counts (rounding a fractional pitch
    moves cells by half a pixel), and only in a run drifting off from cells on the pitch (within
    :data:`UNEVEN_STEP` of each other): otherwise, and for fewer than :data:`MIN_SIDE` cells, an empty
    tuple (on the even pitch)."""
    reach = max(2, math.floor(pitch * UNEVEN_REACH))
    if count < MIN_SIDE or pitch < 2 * reach:
        return ()
    steps = np.arange(-reach * UNEVEN_STEPS, reach * UNEVEN_STEPS + 1) / UNEVEN_STEPS
    offsets = np.arange(math.ceil(pitch))
    places = start + np.arange(count)[:, None] * pitch + offsets[None, :]
    axis = np.arange(len(profile), dtype=np.float64)  # beyond the crop: its edge's value
    on_pitch = np.interp(places, axis, profile)  # (count, points): each cell's stretch, unshifted
    reference = np.median(on_pitch, axis=0)
    misfit_even = np.abs(on_pitch - reference).mean(axis=1)
    spread = float(np.abs(on_pitch - reference.mean()).mean())
    shifts = np.zeros(count)
    # only a cell that misfits its stretch on the pitch may move: the others are not shifted whatever
    # step fits them best, so every step is weighed for these few only (the same values, cell by cell)
    misfits = np.flatnonzero(misfit_even > UNEVEN_MISFIT * spread)
    if len(misfits):
        stretches = _stretches(profile, places[misfits], steps)  # (steps, n, points)
        misfit = np.abs(stretches - reference).mean(axis=2)  # (steps, n)
        best = misfit.argmin(axis=0)
        found = steps[best]
        clear = misfit[best, np.arange(len(misfits))] < UNEVEN_FIT * misfit_even[misfits]
        shifts[misfits] = np.where((np.abs(found) >= 1.0) & clear, found, 0.0)
    return drifting_runs(shifts, pitch)


def drifting_runs(shifts: np.ndarray, pitch: float) -> tuple[float, ...]:
    """``shifts`` (one per cell, 0 for a cell on the pitch) less those of moved cells not reached from an
    unmoved one by a chain of neighbours, each within :data:`UNEVEN_STEP` of the next: a run drifting
    off a pixel at a time is kept, a cell far off its neighbours put back on the pitch; an empty tuple
    when none is left moved."""
    if not shifts.any():
        return ()  # nothing moved: no chain to walk
    step = max(2, math.ceil(pitch * UNEVEN_STEP))
    kept = shifts == 0.0
    for order in (range(1, len(shifts)), range(len(shifts) - 2, -1, -1)):
        for i in order:
            j = i - 1 if order.step == 1 else i + 1
            kept[i] |= kept[j] and abs(shifts[i] - shifts[j]) <= step
    shifts = np.where(kept, shifts, 0.0)
    return tuple(float(v) for v in shifts) if shifts.any() else ()


def _stretches(profile: np.ndarray, places: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """``(steps, *places.shape)`` the profile at every place moved by every step (beyond it: its edge's
    value), ``np.interp(places[None] + steps[:, None, None], arange(len(profile)), profile)`` to the bit.
    When every place and step is a whole number of ``1 / UNEVEN_STEPS`` pixels (a pitch and a start
    on that grid, as most boards have), each sum is exact and on that grid: the profile is interpolated
    once at every point of the grid and looked up, at the same positions, so with the same values."""
    axis = np.arange(len(profile), dtype=np.float64)
    fine_places, fine_steps = places * UNEVEN_STEPS, steps * UNEVEN_STEPS  # exact for a power of 2
    on_grid = (
        UNEVEN_STEPS & (UNEVEN_STEPS - 1) == 0
        and (fine_places % 1 == 0).all()
        and (fine_steps % 1 == 0).all()
        and np.abs(fine_places).max() < 1 << 40
    )
    if not on_grid:
        return np.interp(places[None] + steps[:, None, None], axis, profile)
    ends = fine_places.astype(np.int64), fine_steps.astype(np.int64)
    low = int(ends[0].min() + ends[1].min())
    grid = np.interp(np.arange(low, int(ends[0].max() + ends[1].max()) + 1) / UNEVEN_STEPS, axis, profile)
    return grid.take(ends[0][None] + (ends[1] - low)[:, None, None])


def _maps(crop: Crop, size: int, inset: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Sampling maps putting every cell on ``size`` x ``size`` points at the same sub-pixel places (less
    ``inset`` points along each side), one cell per map row (``(N, points)``: a remap then gives every
    cell's pixels together, with no transposing and within OpenCV's image side limit). Read-only: they
    are kept per placement (:func:`_placed_maps`), as live play reads one geometry move after move."""
    g = crop.geometry
    return _placed_maps(
        g.left - crop.x0, g.top - crop.y0, g.pitch_x, g.pitch_y, g.rows, g.cols, size, inset, crop.shifts
    )


@lru_cache(maxsize=8, typed=True)
def _placed_maps(
    dx: float,
    dy: float,
    pitch_x: float,
    pitch_y: float,
    rows: int,
    cols: int,
    size: int,
    inset: int,
    shifts: tuple[tuple[float, ...], tuple[float, ...]] = ((), ()),
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_maps` for cell (0, 0) at ``(dx, dy)`` in the crop (everything the maps depend on)."""
    u = ((np.arange(size) + 0.5) / size)[inset : size - inset]
    side = len(u)
    xs = dx + (np.arange(cols)[:, None] + u[None, :]).ravel() * pitch_x - 0.5
    ys = dy + (np.arange(rows)[:, None] + u[None, :]).ravel() * pitch_y - 0.5
    if shifts[0]:
        xs = (xs.reshape(cols, side) + np.array(shifts[0])[:, None]).ravel()
    if shifts[1]:
        ys = (ys.reshape(rows, side) + np.array(shifts[1])[:, None]).ravel()
    xs = xs.astype(np.float32).reshape(cols, 1, side)
    ys = ys.astype(np.float32).reshape(rows, 1, side, 1)
    shape = (rows, cols, side, side)
    n = rows * cols
    map_x = np.broadcast_to(xs[None], shape).reshape(n, side * side)
    map_y = np.broadcast_to(ys, shape).reshape(n, side * side)
    map_x.flags.writeable = map_y.flags.writeable = False
    return map_x, map_y


def sample(crop: Crop, size: int) -> np.ndarray:
    """Every cell resampled to ``size`` square: ``(N, size, size, 3)`` float32."""
    map_x, map_y = _maps(crop, size)
    cells = cv2.remap(crop.blurred, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cells.reshape(-1, size, size, 3)


def looks_of(crop: Crop) -> np.ndarray:
    """``(N, (TILE/POOL)^2, 3)`` every cell at ``TILE/POOL`` px square: what cells are compared on."""
    return sample(crop, TILE // POOL).reshape(crop.geometry.rows * crop.geometry.cols, -1, 3)


def cut_tiles(crop: Crop) -> tuple[np.ndarray, np.ndarray]:
    """Every cell at ``TILE`` px square, ``(N, TILE, TILE, 3)`` float32, and each cell's texture (its
    interior's mean absolute difference from the blur, at the screen's own resolution)."""
    from bot.vision.memory import scratch

    map_x, map_y = _maps(crop, TILE)
    tiles = cv2.remap(crop.blurred, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    shape = crop.pixels.shape  # the difference and its channel mean are kept: only the samples leave
    difference = cv2.absdiff(crop.pixels, crop.blurred, dst=scratch("difference", shape, np.float32))
    third = np.full((1, 3), 1 / 3, np.float32)
    detail = cv2.transform(difference, third, dst=scratch("detail", shape[:2], np.float32))
    inside_x, inside_y = _maps(crop, TILE, INSET)  # the interior's sampling points only
    inner = cv2.remap(detail, inside_x, inside_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return tiles.reshape(-1, TILE, TILE, 3), inner.mean(axis=1)


def quantile(values: np.ndarray, q: float) -> float:
    """The ``q`` quantile (0-1) of an array, by partial sort (cheaper than ``np.percentile``)."""
    flat = values.ravel()
    k = int(q * (len(flat) - 1))
    return float(np.partition(flat, k)[k])


def _peak(diff: np.ndarray) -> np.ndarray:
    """The largest of the 3 channels along the last axis (``diff.max(axis=-1)``, the same values: numpy's
    reduction over 3 is far slower than two element-wise maxima)."""
    return np.maximum(np.maximum(diff[..., 0], diff[..., 1]), diff[..., 2])


def _few_outliers(diff: np.ndarray) -> np.ndarray:
    """Per look ``(N, P, 3)`` of differences: at most :data:`SAME_OUTLIERS` pooled pixels differ by more
    than :data:`SAME_PEAK` (a stroke one glyph has and another lacks differs in more)."""
    return (_peak(diff) > SAME_PEAK).sum(axis=1) <= SAME_OUTLIERS


def _alike(diff: np.ndarray) -> np.ndarray:
    """Per look ``(N, P, 3)`` of differences: alike (small mean difference, few outliers)."""
    return (_mean_diff(diff) <= SAME_MEAN) & _few_outliers(diff)


def _mean_diff(diff: np.ndarray) -> np.ndarray:
    """``diff.mean(axis=(1, 2))`` of ``(N, P, 3)`` float differences, the same to the bit, without its
    Python overhead: numpy's own sum, divided as ``np.mean`` divides (by the count as ``np.intp``)."""
    total = np.add.reduce(diff, axis=(1, 2))
    return np.true_divide(total, np.intp(diff.shape[1] * diff.shape[2]), out=total, casting="unsafe")


BLOCK = 4
"""Side, in pooled pixels, of the blocks whose mean colours bound two looks' mean difference from below."""
BOUND_SLACK = 0.05
"""Added to :data:`SAME_MEAN` before a lower bound rules a pair out (float rounding is far smaller)."""


def _blocks(looks: np.ndarray) -> np.ndarray:
    """``(N, B)`` each look's mean colour per ``BLOCK`` square block (float64): the mean absolute
    difference of two looks is at least that of their block means, so far-apart looks are ruled out on
    these few numbers before the full comparison."""
    side = int(round(np.sqrt(looks.shape[1])))
    if side * side != looks.shape[1] or side % BLOCK:
        return looks.mean(axis=1, dtype=np.float64)  # one block: the mean colour
    n = side // BLOCK
    cells = looks.reshape(len(looks), n, BLOCK, n, BLOCK, 3)
    total = cells[:, :, 0, :, 0].astype(np.float64)
    for y, x in itertools.product(range(BLOCK), range(BLOCK)):  # row by row, as np.mean sums them
        if y or x:
            total += cells[:, :, y, :, x]
    return np.true_divide(total, np.intp(BLOCK * BLOCK), out=total).reshape(len(looks), -1)


def _may_be_alike(blocks: np.ndarray, lead: np.ndarray) -> np.ndarray:
    """Which looks (their :func:`_blocks`) may be alike to the one of block means ``lead``."""
    total = np.add.reduce(np.abs(blocks - lead), axis=1)  # their mean, as np.mean sums and divides
    return np.true_divide(total, np.intp(blocks.shape[1]), out=total) <= SAME_MEAN + BOUND_SLACK


def alike(looks: np.ndarray, refs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each look ``(N, P, 3)``: the nearest (least squared difference) alike reference ``(K, P, 3)``
    (-1 if none) and its mean difference. Pairs are ruled out on mean colours, then on block means
    (:func:`_blocks`), before the full comparison; no matrix product (a threaded BLAS call costs more
    than the whole comparison on a busy machine)."""
    best, mean = np.full(len(looks), -1), np.full(len(looks), np.inf)
    if len(refs) == 0 or len(looks) == 0:
        return best, mean
    colours = np.abs(
        looks.mean(axis=1, dtype=np.float64)[:, None] - refs.mean(axis=1, dtype=np.float64)[None]
    )
    li, ri = np.nonzero(_channel_mean(colours) <= SAME_MEAN + BOUND_SLACK)
    blocks_l, blocks_r = _blocks(looks), _blocks(refs)
    near = _may_be_alike(blocks_l[li], blocks_r[ri])
    li, ri = li[near], ri[near]
    diff = np.abs(looks[li] - refs[ri])
    ok = _alike(diff)
    li, ri, diff = li[ok], ri[ok], diff[ok]
    squared = (diff.astype(np.float64) ** 2).sum(axis=(1, 2))
    order = np.lexsort((squared, li))  # by look, nearest first
    first = order[np.r_[True, li[order][1:] != li[order][:-1]]] if len(order) else order
    best[li[first]] = ri[first]
    mean[li[first]] = _mean_diff(diff[first])
    return best, mean


def group_cells(looks: np.ndarray) -> np.ndarray:
    """Group labels ``(N,)`` for pooled looks: the first look not yet grouped leads a new group of every
    remaining look alike to it (one vectorised comparison per group). Cells drawn the same to the
    level (most of a board) are compared once."""
    flat = np.ascontiguousarray(np.round(looks.reshape(len(looks), -1)).astype(np.uint8))
    rows = flat.view(np.dtype((np.void, flat.shape[1]))).ravel()  # each look as one byte string
    _, first, inverse = np.unique(rows, return_index=True, return_inverse=True)
    order = np.argsort(first)  # distinct looks in the order they first occur
    distinct = looks[first[order]]
    rank = np.empty(len(order), int)
    rank[order] = np.arange(len(order))
    labels = np.full(len(distinct), -1)
    blocks = _blocks(distinct)
    left = np.arange(len(distinct))
    group = 0
    while len(left):
        near = left[_may_be_alike(blocks[left], blocks[left[0]])]  # the leader itself first
        ok = _alike(np.abs(distinct[near] - distinct[left[0]]))
        ok[0] = True
        labels[near[ok]] = group
        left = left[labels[left] < 0]
        group += 1
    return labels[rank[inverse.ravel()]]


def _groups_of(
    labels: np.ndarray, tiles: np.ndarray, painted: np.ndarray | None, pixels: np.ndarray | None
) -> list[Group]:
    """One :class:`Group` per label (its members' mean tile), with the sides a neighbour's ink was painted
    over on and the ink it ran on past its own (:func:`bot.vision.overdraw.repair_runs`)."""
    groups = [
        Group(members, _mean_tile(tiles, members))
        for members in (np.nonzero(labels == k)[0] for k in range(labels.max() + 1))
    ]
    if painted is not None:
        from bot.vision.overdraw import painted_sides

        sides = painted.reshape(len(labels), -1)
        shown = painted_sides(pixels)  # type: ignore[arg-type]
        for g in groups:
            g.unseen = tuple(
                n for n, hit in zip(SIDE_NAMES, sides[g.members].any(axis=0), strict=True) if hit
            )
            g.runs = runs_on(pixels, g.members, shown)  # type: ignore[arg-type]
    return groups


def _mean_tile(tiles: np.ndarray, members: np.ndarray) -> np.ndarray:
    """``tiles[members].mean(axis=0)`` to the bit, with no copy of the members' tiles (a board's covered
    group holds hundreds): summed in place in member order, as numpy sums along the first axis, then
    divided as ``np.mean`` divides (:func:`mean_rows`)."""
    first, *rest = members.tolist()
    total = tiles[first].copy()
    for i in rest:
        total += tiles[i]
    return np.true_divide(total, np.intp(len(members)), out=total, casting="unsafe")
