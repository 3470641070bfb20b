"""Blobs of a skin's face colours on a screenshot and the lattices they make: where a skin's board may
be, placed to about a pixel (steps 1-2 of :mod:`bot.vision.locate`)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Cell
from bot.geometry import Geometry
from bot.skin import Skin
from bot.vision.boxes import Boxes
from bot.vision.classify import (
    per_skin,
)

FLAT_SPREAD = 6
"""Most a colour channel may vary in a 3x3 neighbourhood of a face when faces are found by flatness."""


MIN_BLOB = 4
"""Smallest face blob side in pixels (a 16 px cell at 50% still leaves a 6 px face)."""


MAX_BLOB = 160
"""Largest face blob side in pixels (a 24 px cell at 400% zoom)."""


MIN_GROUP = 3
"""Blobs needed in one lattice group before it is checked as a board."""


@dataclass(frozen=True)
class FaceKind:
    """The flat middle of one cell template: its colour and where it sits in the nominal cell."""

    state: Cell
    colour: np.ndarray
    width: int
    height: int
    centre_x: float
    centre_y: float


def face_kinds(skin: Skin) -> list[FaceKind]:
    """The flat faces of the covered and ``0`` templates and their variants (whichever the skin has),
    computed once."""
    return per_skin(skin, "faces", _build_face_kinds)


def _build_face_kinds(skin: Skin) -> list[FaceKind]:
    kinds = []
    looks = [(state, skin.cells[state]) for state in (Cell.COVERED, Cell.ZERO) if state in skin.cells]
    looks += [(state, image) for state in (Cell.COVERED, Cell.ZERO) for image in skin.variants.get(state, [])]
    for state, template in looks:
        h, w = template.shape[:2]
        middle = template[h // 3 : h - h // 3, w // 3 : w - w // 3].reshape(-1, 3)
        colour = np.median(middle, axis=0)
        near = (np.abs(template.astype(np.int16) - colour).max(axis=2) <= 12).astype(np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=4)
        label = labels[h // 2, w // 2]
        if label == 0:
            continue
        x, y, bw, bh = (int(v) for v in stats[label, :4])
        kinds.append(FaceKind(state, colour, bw, bh, x + bw / 2, y + bh / 2))
    return kinds


def _dense_boxes(mask: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x0, y0, x1, y1)`` around areas where at least a quarter of the mask is set.

    Found on an 8x-reduced density map, so the full-resolution blob search skips plain desktop,
    text and JPEG speckle: a board's faces cover half or more of its area at any scale.
    """
    block = 8
    height, width = mask.shape
    small = cv2.resize(mask, (max(1, width // block), max(1, height // block)), interpolation=cv2.INTER_AREA)
    dense = cv2.dilate((small >= 64).astype(np.uint8), np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(dense, connectivity=8)
    boxes = []
    for x, y, w, h, area in stats[1:count].tolist():
        if area >= 4:
            boxes.append((x * block, y * block, min(width, (x + w) * block), min(height, (y + h) * block)))
    return boxes


def _find_blobs(image: np.ndarray, colours: list[np.ndarray], tolerance: int) -> Boxes:
    masks = []
    for colour in colours:
        low = np.clip(colour - tolerance, 0, 255).astype(np.uint8)
        high = np.clip(colour + tolerance, 0, 255).astype(np.uint8)
        masks.append(cv2.inRange(image, low, high))
    return _mask_blobs(masks)


def flat_blobs(image: np.ndarray) -> Boxes:
    """Face blobs of any colour: areas whose every 3x3 neighbourhood is flat (within ``FLAT_SPREAD``
    on each channel). For a screen whose colours are shifted, where no template colour is on show."""
    kernel = np.ones((3, 3), np.uint8)
    b, g, r = cv2.split(cv2.subtract(cv2.dilate(image, kernel), cv2.erode(image, kernel)))
    spread = cv2.max(cv2.max(b, g), r)
    return _mask_blobs([cv2.compare(spread, FLAT_SPREAD, cv2.CMP_LE)])


def _mask_blobs(masks: list[np.ndarray]) -> Boxes:
    """Roughly square, roughly filled blobs of a face's size in any of the masks."""
    parts = [np.zeros((0, 4))]
    for mask in masks:
        for x0, y0, x1, y1 in _dense_boxes(mask):
            _, _, stats, _ = cv2.connectedComponentsWithStats(mask[y0:y1, x0:x1], connectivity=4)
            x, y, w, h, area = (stats[1:, i] for i in range(5))
            keep = (
                (w >= MIN_BLOB)
                & (h >= MIN_BLOB)
                & (w <= MAX_BLOB)
                & (h <= MAX_BLOB)
                & (np.abs(w - h) <= np.maximum(2, 0.2 * np.maximum(w, h)))
                & (area >= 0.45 * w * h)
                # a blob cut by the box edge is not a whole face
                & (x > 0)
                & (y > 0)
                & (x + w < x1 - x0)
                & (y + h < y1 - y0)
            )
            found = stats[1:][keep, :4].astype(np.float64)
            found[:, 0] += x0
            found[:, 1] += y0
            parts.append(found)
    found = np.concatenate(parts)
    return Boxes(found[:, 0], found[:, 1], found[:, 2], found[:, 3])


def _neighbour_pairs(along: np.ndarray, across: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, ...]:
    """Consecutive blobs in each line (rows when ``along`` is x): index pairs and their spacing.

    Lines are runs of blobs whose ``across`` coordinates differ by less than a fifth of a blob.
    """
    if len(along) < 2:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty, np.zeros(0)
    by_across = np.argsort(across, kind="stable")
    steps = np.diff(across[by_across]) > np.maximum(1.5, 0.2 * size[by_across[1:]])
    line = np.empty(len(along), dtype=np.intp)
    line[by_across] = np.concatenate([[0], np.cumsum(steps)])
    order = np.lexsort((along, line))
    a, b = order[:-1], order[1:]
    same_line = line[a] == line[b]
    a, b = a[same_line], b[same_line]
    return a, b, along[b] - along[a]


def _pitch_peak(gaps: np.ndarray) -> float | None:
    """The most common spacing (0.5 px bins, smoothed), refined as the median of gaps near it."""
    gaps = gaps[(gaps >= MIN_BLOB) & (gaps <= MAX_BLOB * 1.5)]
    if len(gaps) < MIN_GROUP - 1:
        return None
    hist = np.bincount(np.round(gaps * 2).astype(np.intp))
    smooth = np.convolve(hist, np.ones(5), mode="same")
    peak = np.argmax(smooth) / 2
    near = gaps[np.abs(gaps - peak) <= max(1.5, 0.06 * peak)]
    return float(np.median(near)) if len(near) else None


def _groups(blobs: Boxes, pitch: float) -> list[np.ndarray]:
    """Blobs joined to a neighbour one pitch away (in a row or a column), as index groups."""
    parent = np.arange(len(blobs.x))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    size = np.maximum(blobs.w, blobs.h)
    for along, across in ((blobs.cx, blobs.cy), (blobs.cy, blobs.cx)):
        a, b, gap = _neighbour_pairs(along, across, size)
        close = np.abs(gap - pitch) <= 0.15 * pitch
        for i, j in zip(a[close].tolist(), b[close].tolist(), strict=True):
            parent[root(i)] = root(j)
    roots = np.array([root(i) for i in range(len(parent))])
    groups = [np.nonzero(roots == r)[0] for r in np.unique(roots)]
    return sorted((g for g in groups if len(g) >= MIN_GROUP), key=len, reverse=True)


def _fit_axis(edges: np.ndarray, pitch: float) -> tuple[np.ndarray, float, float]:
    """Fit ``edge = start + index * pitch`` to cell-edge estimates: indices, pitch and start.

    A second fit without the points the first left more than a tenth of a pitch away keeps a stray
    blob (a digit hole, a JPEG smear) from tilting the lattice.
    """
    # Index from the circular mean phase, so one stray edge cannot shift the rounding of the rest.
    angle = 2 * np.pi * edges / pitch
    phase = float(np.arctan2(np.sin(angle).sum(), np.cos(angle).sum())) * pitch / (2 * np.pi)
    index = np.round((edges - phase) / pitch).astype(np.int64)
    index -= index.min()
    keep = np.ones(len(edges), dtype=bool)
    slope, intercept = pitch, float(np.median(edges - index * pitch))
    for _ in range(2):
        if keep.sum() < 2 or np.ptp(index[keep]) < 1:
            break
        slope, intercept = np.polyfit(index[keep], edges[keep], 1)
        keep = np.abs(edges - (intercept + slope * index)) <= max(1.0, 0.1 * pitch)
    return index, float(slope), float(intercept)


def _axis_pitch(blobs: Boxes, horizontal: bool) -> float:
    """The most common spacing between neighbouring blobs along one axis (falls back to the blob size)."""
    along, across = (blobs.cx, blobs.cy) if horizontal else (blobs.cy, blobs.cx)
    size = np.maximum(blobs.w, blobs.h)
    peak = _pitch_peak(_neighbour_pairs(along, across, size)[2])
    return peak if peak is not None else float(np.median(size)) * 1.2


def _cell_edges(
    blobs: Boxes, kinds: list[FaceKind], scale_x: float, scale_y: float
) -> tuple[np.ndarray, ...]:
    """Each blob's cell left and top edge, taking it as the face of the kind whose size it matches.

    Also returns which blobs match some kind's scaled size at all: fragments (the grey inside a
    digit) do not, and must not pull the lattice.
    """
    widths = np.array([[k.width * scale_x] for k in kinds])
    heights = np.array([[k.height * scale_y] for k in kinds])
    # the kind whose face size is nearest in both directions (two kinds may share a width)
    kind = np.argmin(np.abs(widths - blobs.w[None, :]) + np.abs(heights - blobs.h[None, :]), axis=0)
    fits = (np.abs(widths[kind, 0] - blobs.w) <= np.maximum(2.0, 0.15 * widths[kind, 0])) & (
        np.abs(heights[kind, 0] - blobs.h) <= np.maximum(2.0, 0.15 * heights[kind, 0])
    )
    left_edges = blobs.cx - np.array([k.centre_x for k in kinds])[kind] * scale_x
    top_edges = blobs.cy - np.array([k.centre_y for k in kinds])[kind] * scale_y
    return left_edges[fits], top_edges[fits]


def _initial_geometry(blobs: Boxes, kinds: list[FaceKind], skin: Skin) -> Geometry | None:
    """Grid through one group of blobs: each blob's cell edges from its face offset, then a lattice fit
    (none when the skin shows no face kind at all: a skin calibrated from a board of one look)."""
    if not kinds:
        return None
    rough_x, rough_y = _axis_pitch(blobs, True), _axis_pitch(blobs, False)
    left_edges, top_edges = _cell_edges(blobs, kinds, rough_x / skin.cell_size, rough_y / skin.cell_size)
    if len(left_edges) < MIN_GROUP:
        return None
    col, pitch_x, left = _fit_axis(left_edges, rough_x)
    row, pitch_y, top = _fit_axis(top_edges, rough_y)
    return Geometry(left, top, pitch_x, pitch_y, int(np.ptp(row)) + 1, int(np.ptp(col)) + 1)


def _refit(geometry: Geometry, blobs: Boxes, kinds: list[FaceKind], skin: Skin) -> Geometry:
    """Refit pitch and origin to every blob on the grid (after extension there are more than the group
    had), keeping the grid's rows and columns: a longer baseline gives a sub-pixel pitch."""
    box = geometry.region()
    inside = (blobs.cx > box.left) & (blobs.cx < box.right) & (blobs.cy > box.top) & (blobs.cy < box.bottom)
    if inside.sum() < MIN_GROUP:
        return geometry
    members = blobs.take(np.nonzero(inside)[0])
    left_edges, top_edges = _cell_edges(
        members, kinds, geometry.pitch_x / skin.cell_size, geometry.pitch_y / skin.cell_size
    )
    if len(left_edges) < MIN_GROUP:
        return geometry
    _, pitch_x, left = _fit_axis(left_edges, geometry.pitch_x)
    _, pitch_y, top = _fit_axis(top_edges, geometry.pitch_y)
    if (
        abs(pitch_x - geometry.pitch_x) > 0.05 * geometry.pitch_x
        or abs(pitch_y - geometry.pitch_y) > 0.05 * geometry.pitch_y
    ):
        return geometry  # the blobs disagree with the grid: keep what the cells confirmed
    left += round((geometry.left - left) / pitch_x) * pitch_x
    top += round((geometry.top - top) / pitch_y) * pitch_y
    return Geometry(left, top, pitch_x, pitch_y, geometry.rows, geometry.cols)
