"""Describe one cell's tile: its ramp, bevel and frame, its own background, its glyph's ink and shape.

Why: the skinless reader names groups by structure, not by colours fitted to a client: whether a tile is
plain or carries a glyph, how it is framed, and whether its glyph is a cross, a mine, a digit or another
mark (:func:`shape_of`; a digit's value is settled with the whole board later)."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np

from bot.vision.cutting import (
    CORE,
    INSET,
    TILE,
    Group,
    Shape,
    _channel_sum,
    _peak,
    quantile,
)
from bot.vision.digits import (
    DIGIT_LOOSE,
)
from bot.vision.glyphs import (
    GlyphShape,
    bounding_box,
    digit_distances,
    glyph_shape,
    mean_rows,
    median_rows,
)
from bot.vision.overdraw import STRIP

GLYPH_MARGIN = 1
"""Pixels of a tile's edge left out when a glyph is seen against its base tile (big digits reach the edge)."""
FRAMED_SHARE = 0.05
"""Share of a tile's edge band that must differ from its fill for the tile to have a frame."""
FLAT_RESIDUAL = 8.0
"""A cell whose interior is at most this far (98th percentile, 0-255) from its best colour ramp is one flat
colour (noise and dithering are blurred out): a board of such cells and no frames is a flat area."""
FRAME_COLOUR = 24.0
"""Colour difference (0-255, most different channel) above which two tiles' frame pixels differ."""
KNOWN_FILL = 12.0
"""A cell's background candidate this near (0-255, most different channel) a plain kind's fill is it."""
RIM_SHOWN = 0.25
"""Quantile of the rim's colour difference that counts as the frame's: a glyph may cover the rest."""
FILL_SHOWN = 0.05
"""Least share of a glyph cell's interior showing a plain kind's fill for that fill to be its background
(when no dominant colour of the cell is one)."""
CLEAR_DIGIT = 0.20
"""A glyph this near a digit shape is plainly a digit: its tile kind is revealed (a mark farther off,
on a flat kind, may be a flag)."""
HOLE_PENALTY = 0.08
"""Added to a digit's distance when the glyph's holes cannot be that digit's."""
DIGIT_HOLES = {1: {0}, 2: {0, 1}, 3: {0}, 4: {0, 1}, 5: {0}, 6: {1}, 7: {0}, 8: {2}}
"""Enclosed holes each digit may have."""
MINE_OR_DIGIT = 0.15
"""A symmetric round glyph this near a digit shape is that digit (a 2, 5, 6 or 8 may be as symmetric
as a mine); farther, it is a mine or, when a digit shape is still near, whichever the board's counts
allow (:mod:`bot.vision.digits`)."""
MINE_SYMMETRY = 0.6
"""Least overlap (IoU) of a mine glyph with its mirror images."""
MINE_TURN = 0.5
"""Least overlap (IoU) of a mine glyph with its quarter turn (a spike may be lost to the cell's edge)."""
MINE_SQUARE = 0.85
"""Least overlap of a glyph a digit shape is near with its quarter turn for it to be a mine as well: a
mine's spikes point four ways alike, while a bold blurred 5, 6 or 8 may be as mirror-symmetric but
not as square."""
MINE_STAR = 0.75
"""Least overlap of a glyph with itself turned an eighth, sixth or fifth of a circle (at its own aspect,
about its centre of mass) for it to be a mine drawn as a star: real stars overlap 0.84-0.95, digits at
most 0.6 (none looks the same turned less than half a circle)."""
CROSS_INK = 0.6
"""Least mean ink along both diagonals' outer parts for a cross (a wrong flag)."""
TWO_COLOURS = 100.0
"""Solid ink in two colours at least this far apart (0-255 RGB), each a tenth of it, is no digit."""
MAX_BALANCE = 2.0
"""Most a channel's colour differences are stretched to make up for a tint dimming it."""
TILE_INK = 0.9
"""Least share of its bounding box a glyph's solid ink fills for it to be a whole tile seen against the
ground around it (no mine, digit or flag is drawn as a solid box; a tile with a mark on it is)."""


@lru_cache(maxsize=8)
def _design(h: int, w: int) -> np.ndarray:
    """The ``(h * w, 3)`` least-squares design of a linear ramp over an ``h`` x ``w`` core (level, x / w,
    y / h), built once per size (read-only)."""
    yy, xx = np.mgrid[0:h, 0:w]
    design = np.stack([np.ones(h * w), xx.ravel() / w, yy.ravel() / h], axis=1)
    design.flags.writeable = False
    return design


def _ramp(core: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A core's best-fitting linear colour ramp: its ``(3, 3)`` coefficients (level, change across x,
    change down y, per channel) and each pixel's largest distance from it."""
    design = _design(*core.shape[:2])
    values = core.reshape(-1, 3)
    coef, *_ = np.linalg.lstsq(design, values, rcond=None)
    return coef, _peak(np.abs(values - design @ coef))


def _ramp_residual(core: np.ndarray) -> float:
    """98th percentile of how far a core's pixels are from the best-fitting linear colour ramp."""
    return _residual(_ramp(core)[1])


def _residual(distances: np.ndarray) -> float:
    """The 98th percentile of a core's pixels' distances from its ramp (:func:`_ramp`)."""
    return quantile(distances, 0.98)


def ramp_slope(tile: np.ndarray) -> float:
    """How much a tile's core is shaded from one side to the other (luma 0-255): a glossy tile's."""
    return _slope(_ramp(tile[CORE:-CORE, CORE:-CORE])[0])


def _slope(coef: np.ndarray) -> float:
    """The luma change across a core of its ramp's coefficients (:func:`_ramp`)."""
    return float(np.hypot(coef[1] @ LUMA, coef[2] @ LUMA))


@lru_cache(maxsize=8)
def _band(size: int, outer: int, inner: int) -> np.ndarray:
    """Flat indices of a ``size`` square's pixels at least ``outer`` and less than ``inner`` from its edge
    (``outer`` 0: the edge itself), built once per size."""
    mask = np.zeros((size, size), bool)
    mask[outer : size - outer, outer : size - outer] = True
    mask[inner : size - inner, inner : size - inner] = False
    return np.flatnonzero(mask)


def _pixels(tile: np.ndarray, outer: int, inner: int) -> np.ndarray:
    """The ``(n, 3)`` pixels of one band of a square tile."""
    return tile.reshape(-1, 3)[_band(len(tile), outer, inner)]


def _rim(tile: np.ndarray) -> np.ndarray:
    """The band between the edge inset and the core: where a cell's own background shows around a glyph."""
    return _pixels(tile, INSET, CORE)


LUMA = np.array([0.114, 0.587, 0.299], np.float32)
"""BGR weights of perceived lightness."""


def bevel(tile: np.ndarray, fill_colour: np.ndarray | None = None) -> float:
    """How raised a tile looks: its top and left edge band lighter than its fill *and* its bottom and
    right band darker (the smaller of the two steps, luma 0-255). A grid line darkens one side only.
    ``fill_colour``: the tile's :func:`dominant_colour` of its inner ring, when already found."""
    light = (tile @ LUMA).ravel()
    top_left, bottom_right = _sides(len(tile))
    own = dominant_colour(_inner_ring(tile)) if fill_colour is None else fill_colour
    fill = float(own @ LUMA)
    return float(min(mean_rows(light[top_left]) - fill, fill - mean_rows(light[bottom_right])))


def edge_lines(tile: np.ndarray, fill_colour: np.ndarray | None = None) -> float:
    """How raised a tile's outermost lines make it: its lightest row along the top and column along the
    left lighter than its fill *and* its darkest row along the bottom and column along the right darker
    (the least of the four steps, luma 0-255). A toolkit button draws its bevel as a line a pixel wide,
    which :func:`bevel`'s band averages away; a grid line or a gap is one colour on every side, and a
    shadow cast by raised neighbours darkens the top and left."""
    light = tile @ LUMA
    band = INSET
    own = dominant_colour(_inner_ring(tile)) if fill_colour is None else fill_colour
    fill = float(own @ LUMA)
    across = light[:, band:-band]  # rows, along the middle of the tile
    down = light[band:-band, :]  # columns
    steps = (
        float(across[:band].mean(axis=1).max()) - fill,
        float(down[:, :band].mean(axis=0).max()) - fill,
        fill - float(across[-band:].mean(axis=1).min()),
        fill - float(down[:, -band:].mean(axis=0).min()),
    )
    return min(steps)


@lru_cache(maxsize=8)
def _sides(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Flat indices of a ``size`` square's top then left edge band (``INSET`` wide, corners left out), and
    of its bottom then right band, in the order :func:`bevel` averages them, built once per size."""
    at, band = np.arange(size * size).reshape(size, size), INSET
    top_left = np.concatenate([at[:band, band:-band].ravel(), at[band:-band, :band].ravel()])
    bottom_right = np.concatenate([at[-band:, band:-band].ravel(), at[band:-band, -band:].ravel()])
    return top_left, bottom_right


def frame_difference(a: np.ndarray, b: np.ndarray) -> float:
    """How differently two tiles are framed: the share of their edge bands (grid line, bevel) that
    differ, plus the ``RIM_SHOWN`` quantile of their rims' colour difference / 100. A glyph may cover
    much of a rim and some of an edge band; a bevel against a flat frame differs all round."""
    return float(frame_differences(a, b[None])[0])


def frame_differences(tile: np.ndarray, others: np.ndarray, banded: np.ndarray | None = None) -> np.ndarray:
    """``(K,)`` float64 :func:`frame_difference` of ``tile`` from each of ``others`` ``(K, T, T, 3)``,
    all at once. ``banded``: ``others``' :func:`frame_bands`, when the caller keeps them for many tiles."""
    bands, edge = _frame_bands(len(tile))
    theirs = frame_bands(others) if banded is None else banded
    own = tile.reshape(-1, 3)[bands]
    peaks = np.abs(theirs[0] - own[:, 0])  # :func:`_peak` of the differences, channel by channel
    for c in (1, 2):
        np.maximum(peaks, np.abs(theirs[c] - own[:, c]), out=peaks)
    edge_share = np.count_nonzero(peaks[:, :edge] > FRAME_COLOUR, axis=1) / edge  # the mean of the bools
    rims = peaks[:, edge:]
    k = int(RIM_SHOWN * (rims.shape[1] - 1))  # as :func:`quantile`
    rim_diff = np.partition(rims, k, axis=1)[:, k].astype(np.float64)
    return edge_share + rim_diff / 100.0


def frame_bands(tiles: np.ndarray) -> np.ndarray:
    """``(3, K, B)`` the pixels of the edge bands then the rims (:func:`_frame_bands`) of ``tiles`` ``(K, T,
    T, 3)``, channel by channel (contiguous): what :func:`frame_differences` compares, gathered once for
    every glyph weighed against the same tiles."""
    bands, _ = _frame_bands(tiles.shape[1])
    flat = tiles.reshape(len(tiles), -1, 3)
    return np.stack([flat[:, bands, c] for c in range(3)])


@lru_cache(maxsize=8)
def _frame_bands(size: int) -> tuple[np.ndarray, int]:
    """Flat indices of a ``size`` square's edge band then its rim (:func:`frame_differences` compares
    both), and how many of them are the edge band's."""
    edge = _band(size, 0, INSET)
    return np.concatenate([edge, _band(size, INSET, CORE)]), len(edge)


def ink_colours(tile: np.ndarray, ink: np.ndarray, balance: np.ndarray | None = None) -> bool:
    """Whether a glyph's solid ink holds two clearly different colours (a flag's red cloth and black
    pole, a mine's body and shine): a digit is drawn in one colour. Only the ink's inside counts (its
    anti-aliased edge blends with the background). ``balance``: each channel's share of its full range
    the board spans (:func:`channel_balance`); colours are compared as if each spanned it all, so that a
    tint dimming one channel (a night light's blue) does not merge two colours."""
    m = (len(tile) - len(ink)) // 2
    core = cv2.erode((ink >= 0.9).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    solid = tile[m : len(tile) - m, m : len(tile) - m][core]
    if len(solid) < 8:
        return False
    labels, centres = two_means(solid.astype(np.float32))
    share = float(labels.mean())
    apart = (centres[0] - centres[1]) / (balance if balance is not None else 1.0)
    return bool(np.linalg.norm(apart) >= TWO_COLOURS and 0.1 <= share <= 0.9)


def two_means(points: np.ndarray, rounds: int = 10) -> tuple[np.ndarray, np.ndarray]:
    """``(labels (n,), centres (2, d))``: ``points`` split in two by k-means started from the point
    farthest from their mean and the point farthest from that one. Deterministic (OpenCV's k-means draws
    its start from a process-wide random state, so one reading could depend on the readings before it)."""
    first = points[np.argmax(_channel_sum((points - mean_rows(points)) ** 2))]  # as .sum
    centres = np.stack([first, points[np.argmax(_channel_sum((points - first) ** 2))]])
    second = np.zeros(len(points), bool)
    split = b""
    for _ in range(rounds):
        squared = _channel_sum((points[:, None, :] - centres[None]) ** 2)
        second = squared[:, 1] < squared[:, 0]  # the nearer centre, the first at a tie
        if second.tobytes() == split:
            break  # the last round's split: its means are these centres, unmoved
        split = second.tobytes()
        moved = centres.copy()
        count = int(np.count_nonzero(second))
        for k, members, n in ((0, ~second, len(points) - count), (1, second, count)):
            if n:
                moved[k] = mean_rows(points[members])
        if (np.abs(moved - centres) <= 1e-8 + 1e-5 * np.abs(centres)).all():  # np.allclose, finite
            break
        centres = moved
    return second.astype(np.int32), centres


def channel_balance(tiles: list[np.ndarray]) -> np.ndarray:
    """``(3,)`` each colour channel's spread over a board's looks (1st to 99th percentile) as a share of
    the widest channel's, at least ``1 / MAX_BALANCE``: a board with white and dark parts spans every
    channel alike unless a tint dims one."""
    channels = np.ascontiguousarray(np.concatenate([t.reshape(-1, 3) for t in tiles]).T)  # partitioned fast
    spread = np.percentile(channels, 99, axis=1) - np.percentile(channels, 1, axis=1)
    return np.clip(spread / max(float(spread.max()), 1.0), 1.0 / MAX_BALANCE, 1.0).astype(np.float32)


def ink_colour(tile: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """The median colour of a glyph's solid ink (black when it has none)."""
    m = (len(tile) - len(ink)) // 2
    solid = tile[m : len(tile) - m, m : len(tile) - m][ink >= 0.9]
    return median_rows(solid) if len(solid) else np.zeros(3, np.float32)


def framed(tile: np.ndarray) -> bool:
    """Whether a tile has a frame of its own (a grid line, a gap, a bevel): enough of its edge band
    differs from its fill. Cells of one look with no frame are a flat area, not a board of covered cells."""
    edge = _pixels(tile, 0, INSET)
    fill = dominant_colour(_inner_ring(tile))
    return float((_peak(np.abs(edge - fill)) > FRAME_COLOUR).mean()) >= FRAMED_SHARE


def _inner_ring(tile: np.ndarray) -> np.ndarray:
    """The first pixels inside the edge band: a cell's own background, which glyphs seldom reach."""
    return _pixels(tile, INSET, INSET + 3)


def dominant_colour(pixels: np.ndarray) -> np.ndarray:
    """The most common colour of ``(n, 3)`` pixels (16-level bins, then the mean of the pixels near it):
    a cell's own background, whatever share of it a glyph or a grid line covers."""
    bins = (pixels // 16).astype(np.int32)
    keys = (bins[:, 0] * 16 + bins[:, 1]) * 16 + bins[:, 2]
    top = np.bincount(keys).argmax()
    centre = mean_rows(pixels[keys == top])
    near = _peak(np.abs(pixels - centre)) <= 16
    return mean_rows(pixels[near])


def own_background(tile: np.ndarray, known: tuple[np.ndarray, ...] = ()) -> np.ndarray:
    """A cell's own background colour, among the dominant colours of its edge band, of the pixels just
    inside it and of its rim: one that is the fill of a plain kind of the board (``known``), else the
    one nearest the pixels along the interior's border (a glyph's ink seldom runs along the border; a
    background does)."""
    candidates = [
        dominant_colour(_pixels(tile, 0, INSET)),
        dominant_colour(_inner_ring(tile)),
        dominant_colour(_rim(tile)),
    ]
    inner = tile[INSET:-INSET, INSET:-INSET]
    border = np.concatenate([inner[0], inner[-1], inner[1:-1, 0], inner[1:-1, -1]])
    spread = [float(median_rows(_peak(np.abs(border - c)))) for c in candidates]
    if known:
        fills = [min(float(np.abs(c - k).max()) for k in known) for c in candidates]
        if min(fills) <= KNOWN_FILL:
            return candidates[int(np.argmin(fills))]
        if max(float(np.abs(a - b).max()) for a in candidates for b in candidates) <= KNOWN_FILL:
            return candidates[1]  # edge, inner ring and rim agree: a ground of its own all round the glyph
        pixels = inner.reshape(-1, 3)
        shown = [float((_peak(np.abs(pixels - k)) <= 2 * KNOWN_FILL).mean()) for k in known]
        if max(shown) >= FILL_SHOWN:
            return known[int(np.argmax(shown))]  # a bold glyph hides most of it, but it shows between strokes
    return candidates[int(np.argmin(spread))]


def ink_of(
    tile: np.ndarray, base: np.ndarray | None, margin: int = INSET, known: tuple[np.ndarray, ...] = ()
) -> np.ndarray:
    """``(TILE-2*margin)^2`` ink (0-1): each pixel's colour distance from the base tile (or the tile's
    own background), scaled by the glyph's own contrast, keeping only parts reaching the core. Against
    a base, frames cancel out, so a glyph drawn into the edge band can be seen whole (a small margin)."""
    inner = tile[margin:-margin, margin:-margin]
    ground = (
        base[margin:-margin, margin:-margin] if base is not None else own_background(tile, known)[None, None]
    )
    distance = np.sqrt(_channel_sum((inner - ground) ** 2))
    contrast = quantile(distance, 0.99)
    if contrast < 1.0:
        return np.zeros(distance.shape, np.float32)
    ink = np.clip((distance - 0.15 * contrast) / (0.4 * contrast), 0.0, 1.0).astype(np.float32)
    count, labels = cv2.connectedComponents((ink >= 0.5).astype(np.uint8), connectivity=8)
    core = CORE - margin
    kept = np.zeros(count, bool)
    kept[labels[core:-core, core:-core]] = True  # pieces reaching the core
    kept[0] = False
    keep = kept[labels]
    grown = cv2.dilate(keep.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    return np.where(grown, ink, 0.0).astype(np.float32)


RUN_ON_TURNS = (2, 0, 1, 3)
"""Quarter turns (``np.rot90``) that bring each side of :data:`SIDE_NAMES` to the bottom."""


def run_on_ink(ink: np.ndarray, runs: np.ndarray, margin: int) -> np.ndarray:
    """A glyph's ink (:func:`ink_of` with ``margin``) with the ink it draws past its cell's sides
    (``runs``, :func:`bot.vision.overdraw.runs_on`) put back beside it, as far as a neighbour's strip
    reaches, and the grid line between bridged in the columns where ink meets it from both sides (the
    line is drawn over the glyph there): the glyph whole, as the client drew it."""
    depth = math.ceil(STRIP * TILE)
    canvas = np.zeros((3 * TILE, 3 * TILE), np.float32)
    inner = slice(TILE + margin, 2 * TILE - margin)
    canvas[inner, inner] = ink
    extent = [0, 0, 0, 0]
    for side, turns in enumerate(RUN_ON_TURNS):
        if not runs[side].any():
            continue
        block = cv2.resize(runs[side].astype(np.float32), (TILE, TILE), interpolation=cv2.INTER_LINEAR)
        block = np.rot90(block, turns)
        view = np.rot90(canvas, turns)  # a view: the side at the bottom, the neighbour below
        past = view[2 * TILE : 2 * TILE + depth, inner]
        past[:] = block[:depth, margin : TILE - margin]
        meets = (view[2 * TILE - margin - 1, inner] >= 0.5) & (past >= 0.5).any(axis=0)
        first = (past >= 0.5).argmax(axis=0)
        for col in np.flatnonzero(meets):
            view[2 * TILE - margin : 2 * TILE + first[col], TILE + margin + col] = 1.0
        extent[side] = margin + depth
    return canvas[
        TILE + margin - extent[0] : 2 * TILE - margin + extent[1],
        TILE + margin - extent[2] : 2 * TILE - margin + extent[3],
    ]


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    union = np.logical_or(a, b).sum()
    return float(np.logical_and(a, b).sum() / union) if union else 0.0


def _squared(solid: np.ndarray) -> np.ndarray | None:
    """A binary glyph cut to its bounding box and resized to 16 x 16."""
    rows, cols = np.nonzero(solid.any(axis=1))[0], np.nonzero(solid.any(axis=0))[0]
    if len(rows) == 0:
        return None
    cut = solid[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1].astype(np.uint8) * 255
    return cv2.resize(cut, (16, 16), interpolation=cv2.INTER_AREA) >= 128


def _own_box(ink: np.ndarray) -> np.ndarray:
    """``ink`` (a square ``(n, n)`` map) cut to the bounding box of its solid part and stretched back
    to ``n`` x ``n``, when that box is roughly square and large (else ``ink`` as it is)."""
    box = bounding_box(ink)
    n = len(ink)
    if box is None:
        return ink
    top, bottom, left, right = box
    height, width = bottom - top, right - left
    if min(height, width) < 0.4 * n or not 0.7 <= width / height <= 1.45 or (height, width) == (n, n):
        return ink
    cut = np.ascontiguousarray(ink[top:bottom, left:right], dtype=np.float32)
    return cv2.resize(cut, (n, n), interpolation=cv2.INTER_LINEAR).astype(ink.dtype)


def is_cross(ink: np.ndarray) -> bool:
    """Thin ink along all four corner ends of both diagonals: on each diagonal point, with little ink
    three tenths of the cell beside it, and on through the middle (a mine's spikes reach the middle of
    the edges, a digit's bars run along an edge, a cross's strokes run corner to corner). Judged in
    the ink's own box (:func:`_own_box`): a client may draw its cross inset from the cell's corners,
    or off its centre."""
    ink = _own_box(ink)
    grown = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    n = len(ink)
    near = np.clip((np.linspace(0.03, 0.15, 5) * n).astype(int), 0, n - 1)
    side = max(2, round(0.3 * n))
    for view, wide in (
        (ink, grown),
        (ink[:, ::-1], grown[:, ::-1]),
        (ink[::-1], grown[::-1]),
        (ink[::-1, ::-1], grown[::-1, ::-1]),
    ):
        on = float(wide[near, near].mean())
        beside = max(float(view[near, near + side].mean()), float(view[near + side, near].mean()))
        if on < CROSS_INK or beside > on / 2:
            return False
    middle = np.clip((np.linspace(0.3, 0.7, 7) * n).astype(int), 0, n - 1)
    return bool(min(grown[middle, middle].mean(), grown[middle, n - 1 - middle].mean()) >= CROSS_INK)


def turned_overlap(solid: np.ndarray, degrees: float) -> float:
    """Overlap (IoU) of a binary glyph with itself turned by ``degrees`` about its centre of mass, at its
    own aspect."""
    ys, xs = np.nonzero(solid)
    turn = cv2.getRotationMatrix2D((float(xs.mean()), float(ys.mean())), degrees, 1.0)
    image = solid.astype(np.uint8) * 255
    return _iou(solid, cv2.warpAffine(image, turn, image.shape[::-1], flags=cv2.INTER_LINEAR) >= 128)


def is_mine(ink: np.ndarray, turn: float = MINE_TURN) -> bool:
    """A glyph about as wide as tall, centred, that looks the same mirrored and turned: a quarter turn of
    its box (at least ``turn`` overlap), or a turn by an eighth, sixth or fifth of a circle at its own
    aspect (``MINE_STAR``: a mine drawn as an eight-, six- or five-pointed star)."""
    solid = ink >= 0.5
    rows, cols = np.nonzero(solid.any(axis=1))[0], np.nonzero(solid.any(axis=0))[0]
    if len(rows) == 0:
        return False
    height, width = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
    if not 0.7 <= width / height <= 1.45 or max(height, width) < 0.4 * len(ink):
        return False
    centre = np.array([(rows[0] + rows[-1]) / 2, (cols[0] + cols[-1]) / 2])
    if np.abs(centre - (len(ink) - 1) / 2).max() > 0.12 * len(ink):
        return False
    box = _squared(solid)
    assert box is not None
    mirrored = min(_iou(box, box[:, ::-1]), _iou(box, box[::-1]))
    if mirrored < MINE_SYMMETRY:
        return False
    return _iou(box, box.T) >= turn or any(turned_overlap(solid, d) >= MINE_STAR for d in (45.0, 60.0, 72.0))


def holes_counted(shape: GlyphShape, distances: np.ndarray, extra_holes: bool = True) -> np.ndarray:
    """``(8,)`` a glyph's shape distances to digits 1-8 (:func:`bot.vision.glyphs.digit_distances`), holes
    counted: ``HOLE_PENALTY`` for a digit whose holes the glyph cannot have at either ink level
    (``extra_holes`` False: only for a digit needing more holes than the glyph shows; blur closes gaps
    into pinholes far more often than it opens a loop)."""
    distances = distances.copy()
    for n, holes in DIGIT_HOLES.items():
        if shape.holes in holes or shape.thin_holes in holes:
            continue
        if extra_holes or max(shape.holes, shape.thin_holes) < min(holes):
            distances[n - 1] += HOLE_PENALTY
    return distances


def reaches_middle(ink: np.ndarray) -> bool:
    """Whether the solid ink's bounding box (:func:`bot.vision.glyphs.bounding_box`) overlaps the middle
    third of the ``(n, n)`` map both ways."""
    box = bounding_box(ink)
    if box is None:
        return False
    top, bottom, left, right = box
    lo, hi = len(ink) / 3, 2 * len(ink) / 3
    return top < hi and bottom - 1 >= lo and left < hi and right - 1 >= lo


def shape_of(
    group: Group,
    base: np.ndarray | None,
    known: tuple[np.ndarray, ...] = (),
    balance: np.ndarray | None = None,
) -> None:
    """Name a glyph group's shape (cross, mine, digit or other mark) from its ink; a digit's value is
    settled later, with the whole board (:mod:`bot.vision.digits`)."""
    from bot.vision.shade import shadowed_ground

    margin = GLYPH_MARGIN if base is not None else INSET
    own = base if base is not None else np.broadcast_to(own_background(group.tile, known), group.tile.shape)
    ink = ink_of(group.tile, shadowed_ground(group.tile, own.astype(np.float32)), margin, known)
    group.colours = ink_colours(group.tile, ink, balance)
    group.ink = ink_colour(group.tile, ink)
    if group.runs is not None and (ink >= 0.5).any():
        ink = run_on_ink(ink, group.runs, margin)
    if not (ink >= 0.5).any():
        group.shape, group.why = Shape.MARK, "no ink reaches the middle"
        group.central = False  # no glyph at all: nothing to take for a flag
        return
    group.central = reaches_middle(ink)
    shape = glyph_shape(ink)
    assert shape is not None
    if group.unseen:  # a neighbour's ink painted over a side: the glyph may go on under it
        shape = replace(shape, cut=tuple(dict.fromkeys(shape.cut + group.unseen)))
    group.glyph = shape
    plain, bold = digit_distances(shape), digit_distances(shape, bold=True)  # each counted two ways
    group.costs = holes_counted(shape, plain, True)
    group.raw_costs = holes_counted(shape, plain, False)
    group.weighted = np.stack([holes_counted(shape, bold, True), holes_counted(shape, bold, False)])
    best = float(group.costs.min())
    group.digit = int(group.costs.argmin()) + 1
    if group.colours:  # no digit: a flag's cloth and pole, or a mine's body and shine
        group.shape, group.why = (
            (Shape.MINE, "a symmetric round glyph") if is_mine(ink) else (Shape.MARK, "ink in two colours")
        )
        # a bold digit's ink half a pixel off may fill in round and take its own blurred edge for a
        # second colour: a clear digit shape leaves such a mine to the counts
        group.digit_too = group.shape == Shape.MINE and best <= CLEAR_DIGIT
    elif best <= DIGIT_LOOSE and (best < MINE_OR_DIGIT or not is_mine(ink, MINE_SQUARE)):
        group.shape = Shape.DIGIT
        group.why = f"a digit by shape (nearest {group.digit} at {best:.2f})"
    elif is_mine(ink):
        group.shape, group.why = Shape.MINE, "a symmetric round glyph"
        group.digit_too = best <= DIGIT_LOOSE
    else:
        group.shape, group.why = Shape.MARK, f"no digit (nearest {group.digit} at {best:.2f})"
    if group.shape == Shape.MINE and base is None and plain_tile_seen(group.tile, ink, known):
        group.shape, group.digit_too = Shape.MARK, False
        group.why = "a plain kind's tile seen whole against the ground around it, not a mine"
    if not group.central:
        group.why += ", its ink along an edge only (a neighbour's glyph run on over it?)"


def plain_tile_seen(tile: np.ndarray, ink: np.ndarray, known: tuple[np.ndarray, ...]) -> bool:
    """Whether a glyph's solid ink is a whole tile of a plain kind: it fills its bounding box
    (:data:`TILE_INK`) in a colour that is mostly a plain kind's fill (``known``). Taken against the
    ground around it (a gap, or a neighbour's colour where the grid is a few pixels off), a covered tile
    with a flag on it is a solid square, as symmetric as a mine; a mine drawn on a square of its own
    colour is one too, but in no plain kind's colour."""
    solid = ink >= 0.5
    rows, cols = np.nonzero(solid.any(axis=1))[0], np.nonzero(solid.any(axis=0))[0]
    if not known or len(rows) == 0:
        return False
    if float(solid[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1].mean()) < TILE_INK:
        return False
    m = (len(tile) - len(ink)) // 2
    colour = dominant_colour(tile[m : len(tile) - m, m : len(tile) - m][solid])
    return min(float(np.abs(colour - k).max()) for k in known) <= KNOWN_FILL
