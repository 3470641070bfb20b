"""Cut a located board into cells and group the cells that look alike.

Cells are resampled to one common size before they are compared, so the 1 px differences of a
fractional pitch (32/33 px cells) vanish, then lightly blurred, so JPEG noise and sub-pixel shifts do
not split a group. Two cells look alike when their mean colour difference is small *and* almost no
pixel differs strongly (the 98th percentile): a thin digit stroke on a flat cell is few pixels but a
strong difference, so it is never merged into the empty cell.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Cell
from bot.geometry import Geometry
from bot.vision.cutting import TILE
from bot.vision.describe import ramp_slope
from bot.vision.tilekinds import KIND_RAMP
from calibration.model import Group, Member

LOGGER = logging.getLogger(__name__)

COMPARE_SIZE = 24
"""Cells are compared at (at most) this many pixels square."""
SAME_MEAN = 10.0
"""Largest mean colour difference (0-255) between cells that look alike."""
SAME_PEAK = 45.0
"""Largest 98th-percentile difference (in the most different colour channel) between alike cells."""


def cut_cells(image: np.ndarray, geometry: Geometry, size: int) -> np.ndarray:
    """Every cell resampled to ``size`` x ``size``: an array ``(rows, cols, size, size, 3)``.

    Cells are sampled at the same sub-pixel positions relative to their exact (fractional) origin,
    so alike cells of a 32.5 px pitch come out alike whether they were drawn 32 or 33 px wide.
    """
    rows, cols = geometry.rows, geometry.cols
    u = (np.arange(size) + 0.5) / size
    xs = geometry.left + (np.arange(cols)[:, None] + u[None, :]).ravel() * geometry.pitch_x - 0.5
    ys = geometry.top + (np.arange(rows)[:, None] + u[None, :]).ravel() * geometry.pitch_y - 0.5
    map_x = np.broadcast_to(xs[None, :], (len(ys), len(xs))).astype(np.float32)
    map_y = np.broadcast_to(ys[:, None], (len(ys), len(xs))).astype(np.float32)
    board = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return board.reshape(rows, size, cols, size, 3).transpose(0, 2, 1, 3, 4).copy()


def features(tiles: np.ndarray) -> np.ndarray:
    """Comparison features of ``(n, s, s, 3)`` tiles: resized to the compare size, blurred, float32."""
    size = min(tiles.shape[1], COMPARE_SIZE)
    sigma = max(size / 24.0, 0.5)
    out = np.empty((len(tiles), size, size, 3), np.float32)
    for i, tile in enumerate(tiles):
        small = (
            tile if tile.shape[0] == size else cv2.resize(tile, (size, size), interpolation=cv2.INTER_AREA)
        )
        out[i] = cv2.GaussianBlur(small.astype(np.float32), (0, 0), sigma)
    return out.reshape(len(tiles), -1, 3)


def peak(diff: np.ndarray) -> np.ndarray:
    """The 98th percentile along the last axis (a partial sort, cheaper than ``np.percentile``)."""
    k = int(0.98 * (diff.shape[-1] - 1))
    return np.partition(diff, k, axis=-1)[..., k]


def nearest(feats: np.ndarray, refs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each feature row: the nearest reference by mean difference, that difference and its peak."""
    mean = np.stack([np.abs(feats - r[None]).mean(axis=(1, 2)) for r in refs], axis=1)
    best = np.argmin(mean, axis=1)
    diff = np.abs(feats - refs[best]).max(axis=2)
    return best, mean[np.arange(len(feats)), best], peak(diff)


def alike(mean: np.ndarray, peak: np.ndarray) -> np.ndarray:
    """Whether cells with these differences look the same."""
    return (mean <= SAME_MEAN) & (peak <= SAME_PEAK)


def _nearest_alike(f: np.ndarray, centres: np.ndarray) -> int:
    """Index of the nearest centre that looks like ``f``, or -1."""
    mean = np.abs(centres - f[None]).mean(axis=(1, 2))
    for k in np.argsort(mean):
        if mean[k] > SAME_MEAN:
            break
        if peak(np.abs(centres[k] - f).max(axis=1)) <= SAME_PEAK:
            return int(k)
    return -1


def cluster(feats: np.ndarray, settle: bool = True) -> np.ndarray:
    """Group labels (0..k-1) for feature rows: leader clustering, then (``settle``) one pass to the
    nearest group median."""
    labels = np.full(len(feats), -1)
    centres = np.empty((0, *feats.shape[1:]), np.float32)
    for i, f in enumerate(feats):
        k = _nearest_alike(f, centres) if len(centres) else -1
        if k < 0:
            centres = np.concatenate([centres, f[None]])
            k = len(centres) - 1
        labels[i] = k
    if not settle:
        return labels
    refs = np.stack([np.median(feats[labels == k], axis=0) for k in range(len(centres))])
    best, mean, top = nearest(feats, refs)
    labels = np.where(alike(mean, top), best, labels)
    _, labels = np.unique(labels, return_inverse=True)
    return labels


def count_groups(image: np.ndarray, geometry: Geometry) -> int:
    """How many look-alike groups a geometry's cells fall into (fewer means a better cut)."""
    size = min(round(min(geometry.pitch_x, geometry.pitch_y)), COMPARE_SIZE)
    tiles = cut_cells(image, geometry, size)
    return int(cluster(features(tiles.reshape(-1, size, size, 3)), settle=False).max()) + 1


def alike_fraction(image: np.ndarray, geometry: Geometry, strip: tuple[int, int, int, int]) -> float:
    """The fraction of cells in ``strip`` (rows r0:r1, cols c0:c1) that look like a cell outside it."""
    size = min(round(min(geometry.pitch_x, geometry.pitch_y)), COMPARE_SIZE)
    feats = features(cut_cells(image, geometry, size).reshape(-1, size, size, 3))
    r0, r1, c0, c1 = strip
    inside = np.zeros((geometry.rows, geometry.cols), bool)
    inside[r0:r1, c0:c1] = True
    inside = inside.ravel()
    labels = cluster(feats[~inside], settle=False)
    centres = np.stack([feats[~inside][labels == k][0] for k in range(labels.max() + 1)])
    return float(np.mean([_nearest_alike(f, centres) >= 0 for f in feats[inside]]))


@dataclass
class Shot:
    """One screenshot's board: its geometry and its cells at the template size."""

    name: str
    geometry: Geometry
    tiles: np.ndarray
    """``(rows, cols, size, size, 3)`` uint8."""


MAX_GAIN = 0.35
"""Two groups may be one look under different light when one image is the other times a gain this close
to 1 (one factor for every channel and pixel: light scales, it does not recolour or redraw)."""
RAMP_STEP = 0.04
"""... and where their cells meet, neighbours differ in brightness by at most this fraction (median):
a lighting ramp changes a little from cell to cell, a boundary between two states changes a lot."""


def gain_alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether feature rows ``a`` and ``b`` are one look scaled by a single gain (see :data:`MAX_GAIN`)."""
    k = float((a * b).sum() / max(float((b * b).sum()), 1e-6))
    if abs(k - 1) > MAX_GAIN:
        return False
    diff = np.abs(a - k * b)
    return bool(alike(np.array(diff.mean()), peak(diff.max(axis=1)[None]))[0])


def _brightness(shots: list[Shot]) -> list[np.ndarray]:
    return [s.tiles.reshape(*s.tiles.shape[:2], -1).astype(np.float32).mean(axis=2) for s in shots]


def _ramp_steps(labels: list[np.ndarray], light: list[np.ndarray], a: int, b: int) -> list[float]:
    """Relative brightness steps between side-by-side cells of groups ``a`` and ``b``."""
    steps = []
    for grid, lum in zip(labels, light, strict=True):
        for axis in (0, 1):
            g0, g1 = (grid[:-1], grid[1:]) if axis == 0 else (grid[:, :-1], grid[:, 1:])
            l0, l1 = (lum[:-1], lum[1:]) if axis == 0 else (lum[:, :-1], lum[:, 1:])
            pair = ((g0 == a) & (g1 == b)) | ((g0 == b) & (g1 == a))
            steps += (np.abs(l0[pair] - l1[pair]) / np.maximum(np.maximum(l0[pair], l1[pair]), 1)).tolist()
    return steps


def merge_shades(labels: np.ndarray, feats: np.ndarray, shots: list[Shot]) -> np.ndarray:
    """Group labels with the shades of one look joined: groups whose images differ by one gain close to
    1 and whose side-by-side cells change brightness smoothly (a lighting gradient over the board)."""
    k = int(labels.max()) + 1
    refs = [np.median(feats[labels == i], axis=0) for i in range(k)]
    sizes = [0] * len(shots)
    grids, start = [], 0
    for n, s in enumerate(shots):
        sizes[n] = s.tiles.shape[0] * s.tiles.shape[1]
        grids.append(labels[start : start + sizes[n]].reshape(s.tiles.shape[:2]))
        start += sizes[n]
    light = _brightness(shots)
    parent = list(range(k))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i in range(k):
        for j in range(i + 1, k):
            if root(i) == root(j) or not gain_alike(refs[i], refs[j]):
                continue
            steps = _ramp_steps(grids, light, i, j)
            if steps and float(np.median(steps)) <= RAMP_STEP:
                parent[root(j)] = root(i)
    merged = np.array([root(int(i)) for i in labels])
    return merged


MIN_LIGHT = 0.04
"""A fitted light field whose range over the board is under this fraction is no gradient: ignored."""


def light_field(flat: np.ndarray, labels: np.ndarray, shots: list[Shot]) -> np.ndarray | None:
    """Per cell, the light falling on it relative to the board's mean, or None when the board is evenly lit.

    Each cell's brightness over its group's median is the light on it (plus noise); a plane in the
    cell's position (per screenshot), fitted by least squares weighted by group size and refitted
    without the cells it explains worst, is the lighting ramp.
    """
    lum = flat.reshape(len(flat), -1).astype(np.float32).mean(axis=1)
    ref = np.zeros_like(lum)
    for k in np.unique(labels):
        ref[labels == k] = np.median(lum[labels == k])
    ratio = lum / np.maximum(ref, 1.0)
    weight = np.bincount(labels)[labels].astype(np.float32)
    field = np.ones_like(lum)
    start = 0
    for s in shots:
        rows, cols = s.tiles.shape[:2]
        n = rows * cols
        rr, cc = np.mgrid[0:rows, 0:cols]
        design = np.stack([np.ones(n), rr.ravel() / rows, cc.ravel() / cols], axis=1)
        y, w = ratio[start : start + n], weight[start : start + n]
        keep = np.ones(n, bool)
        for _ in range(2):
            sw = np.sqrt(w[keep])
            coef, *_ = np.linalg.lstsq(design[keep] * sw[:, None], y[keep] * sw, rcond=None)
            residual = np.abs(design @ coef - y)
            keep = residual <= np.percentile(residual, 80)
        fit = design @ coef
        field[start : start + n] = fit / float(np.mean(fit))
        start += n
    return field if float(field.max() - field.min()) >= MIN_LIGHT else None


PLAIN_STD = 9.0
"""A group is plain (no glyph) when its inner pixels stray less than this from a smooth fill."""


def _local_mean(img: np.ndarray) -> np.ndarray:
    """The image averaged over each pixel's 3 x 3 neighbourhood (a 1-2 px pattern vanishes, strokes stay)."""
    return cv2.blur(img, (3, 3), borderType=cv2.BORDER_REFLECT)


def ring_width(size: int) -> int:
    """The width of a cell's outer ring (grid line, bevel) at a template size."""
    return max(2, round(0.15 * size))


def is_plain(image: np.ndarray) -> bool:
    """Whether a cell image is plain (no glyph): its centre, clear of any bevel, strays little from a
    fitted colour plane. Judged on the local mean, so a fine texture (a dithered covered cell) is plain,
    a glyph is not; a glossy tile's shading is the plane."""
    img = image.astype(np.float32)
    margin = max(ring_width(len(img)), len(img) // 4)
    centre = _local_mean(img)[margin:-margin, margin:-margin]
    yy, xx = np.mgrid[0 : centre.shape[0], 0 : centre.shape[1]]
    design = np.stack([np.ones(yy.size), yy.ravel(), xx.ravel()], axis=1)
    flat = centre.reshape(-1, 3)
    coef, *_ = np.linalg.lstsq(design, flat, rcond=None)
    residual = flat - design @ coef
    return float(np.abs(residual).mean(axis=1).max()) < 4 * PLAIN_STD and float(residual.std()) < PLAIN_STD


def slopes(flat: np.ndarray) -> np.ndarray:
    """Each ``(s, s, 3)`` cell's shading from one side to the other (:func:`bot.vision.generic.ramp_slope`,
    at the skinless reader's tile size): a raised, glossy tile's is steep, a flat revealed cell's is 0."""
    return np.array(
        [ramp_slope(cv2.resize(tile, (TILE, TILE), interpolation=cv2.INTER_LINEAR)) for tile in flat],
        np.float32,
    )


def split_by_slope(labels: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """Group labels with every plain group whose cells' shading falls in two sets apart split in two.

    Two cells whose colours differ little may still be two states: a glossy covered tile shaded top to
    bottom and a flat revealed 0 of about its mean grey. Their shading tells them apart, as it does for
    the skinless reader (two plain kinds whose slopes differ by more than
    :data:`~bot.vision.generic.KIND_RAMP` are not one kind): a plain group (its median cell has no glyph:
    a glyph's slope says nothing of shading) whose sorted slopes (:func:`slopes`) leave a gap wider than
    that is cut at the gap, and each part again, so every plain group left is shaded alike.
    """
    out = labels.copy()
    groups = [np.nonzero(labels == k)[0] for k in np.unique(labels)]
    pending = [idx for idx in groups if len(idx) > 1 and is_plain(np.median(flat[idx], axis=0))]
    slope = np.zeros(len(labels), np.float32)
    for idx in pending:
        slope[idx] = slopes(flat[idx])
    fresh = int(labels.max()) + 1 if len(labels) else 0
    while pending:
        idx = pending.pop()
        order = idx[np.argsort(slope[idx], kind="stable")]
        gaps = np.diff(slope[order])
        if not len(gaps) or float(gaps.max()) <= KIND_RAMP:
            continue
        cut = int(np.argmax(gaps)) + 1
        out[order[cut:]] = fresh
        fresh += 1
        pending += [order[:cut], order[cut:]]
    _, out = np.unique(out, return_inverse=True)
    return out


def _labels(flat: np.ndarray, shots: list[Shot]) -> tuple[np.ndarray, np.ndarray]:
    feats = features(flat)
    looks = split_by_slope(cluster(feats), flat)
    return looks, merge_shades(looks, feats, shots)


def group_shots(shots: list[Shot]) -> list[Group]:
    """Look-alike groups over the cells of all shots, largest first, each with a median image.

    Uneven light is taken out first (:func:`light_field`, applied again while it still finds a ramp,
    at most three times), and shades of one look that still differ are joined (:func:`merge_shades`).
    A group lit unevenly gets the median of its cells with the light taken out as its image, and that
    image under the darkest and the lightest light on the board as shades: a skin made from it reads
    every part of the board (a reader accepts a cell between a template and its variant).
    """
    flat = np.concatenate([s.tiles.reshape(-1, *s.tiles.shape[2:]) for s in shots])
    where = [
        Member(i, (r, c))
        for i, s in enumerate(shots)
        for r in range(s.tiles.shape[0])
        for c in range(s.tiles.shape[1])
    ]
    looks, labels = _labels(flat, shots)
    light = np.ones(len(flat), np.float32)
    even = flat
    for _ in range(3):
        field = light_field(flat.astype(np.float32) / light[:, None, None, None], labels, shots)
        if field is None:
            break
        light = light * field
        even = np.clip(flat.astype(np.float32) / light[:, None, None, None], 0, 255).round().astype(np.uint8)
        looks, labels = _labels(even, shots)
    order = sorted(set(labels.tolist()), key=lambda k: -int((labels == k).sum()))
    groups = []
    for new_id, k in enumerate(order):
        idx = np.nonzero(labels == k)[0]
        if float(light.max() - light.min()) >= MIN_LIGHT:
            middle = np.median(even[idx].astype(np.float32), axis=0)
            images = [
                np.clip(middle * gain, 0, 255).round().astype(np.uint8)
                for gain in (1.0, float(light.min()), float(light.max()))
            ]
        else:
            looks_in = sorted(set(looks[idx].tolist()), key=lambda p: -int((looks == p).sum()))
            images = [np.median(flat[idx[looks[idx] == p]], axis=0) for p in looks_in]
            images = [image.round().astype(np.uint8) for image in images]
        groups.append(Group(new_id, images[0], [where[i] for i in idx], images[1:]))
    LOGGER.info("%d cells fall into %d groups", len(flat), len(groups))
    return groups


@dataclass
class Reading:
    """Cells read against templates: the state (``-1`` unreadable) and confidence margin of each."""

    states: np.ndarray
    margins: np.ndarray
    """``(d2 - d1) / d2`` for the best (d1) and second-best (d2) template distance: 1 is certain."""

    def unreadable(self) -> list[tuple[int, int]]:
        return [(int(r), int(c)) for r, c in zip(*np.nonzero(self.states < 0), strict=True)]


def read_tiles(tiles: np.ndarray, templates: dict[Cell, np.ndarray]) -> Reading:
    """Read ``(rows, cols, s, s, 3)`` tiles as the nearest template; a cell like none is unreadable."""
    rows, cols = tiles.shape[:2]
    size = tiles.shape[2]
    states = list(templates)
    refs = np.stack([cv2.resize(templates[s], (size, size), interpolation=cv2.INTER_AREA) for s in states])
    feats = features(tiles.reshape(-1, size, size, 3))
    ref_feats = features(refs)
    mean = np.stack([np.abs(feats - r[None]).mean(axis=(1, 2)) for r in ref_feats], axis=1)
    order = np.argsort(mean, axis=1)
    idx = np.arange(len(mean))
    d1 = mean[idx, order[:, 0]]
    d2 = mean[idx, order[:, 1]] if len(states) > 1 else np.full(len(mean), 255.0)
    ok = alike(d1, peak(np.abs(feats - ref_feats[order[:, 0]]).max(axis=2)))
    values = np.array([int(s) for s in states])[order[:, 0]]
    margins = (d2 - d1) / np.maximum(d2, 1e-6)
    return Reading(
        np.where(ok, values, -1).reshape(rows, cols), np.where(ok, margins, 0.0).reshape(rows, cols)
    )


def align(image: np.ndarray, geometry: Geometry, templates: dict[Cell, np.ndarray]) -> Geometry:
    """The geometry nudged (up to 1.5 px per axis, in half pixels) so its cells best match the templates.

    A grid found from pixels alone can sit a pixel off where a cell's own border looks like its
    neighbour's; a skin fixes which pixel a cell starts on, so cells are cut the way its templates were.
    """
    size = int(next(iter(templates.values())).shape[0])
    refs = features(np.stack([cv2.resize(t, (size, size)) for t in templates.values()]))

    def cost(g: Geometry) -> float:
        feats = features(cut_cells(image, g, size).reshape(-1, size, size, 3))
        per_template = np.stack([np.abs(feats - r[None]).mean(axis=(1, 2)) for r in refs])
        return float(per_template.min(axis=0).mean())

    best = geometry
    for axis in ("x", "y"):
        steps = [d / 2 for d in range(-3, 4)]
        options = [best.offset(d, 0) if axis == "x" else best.offset(0, d) for d in steps]
        best = min(options, key=cost)
    return best
