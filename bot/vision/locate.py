"""Find a board on a whole screenshot: its rectangle, rows, columns and (fractional) cell pitch.

Scale-free, so display scaling and browser zoom need no search over scales:

1. *Faces.* Covered and opened cells have a flat "face" colour (the covered template's middle, the
   ``0`` template's middle). Each cell's face is a separate blob of that colour, because bevels and
   grid lines part neighbours. Connected components of a colour mask give candidate blobs, kept when
   roughly square.
2. *Lattice.* Sorting blob centres into rows and columns gives spacings; the most common spacing is
   the pitch. Blobs one pitch apart are joined; each large joined group is a board candidate, and a
   least-squares fit of centre against lattice index gives the pitch and origin to sub-pixel.
3. *Snap to the skin.* A face's centre only places the lattice to about a pixel, and where a skin's
   templates were cut (a calibrated skin's are cut where its grid finder put the cell edges) fixes
   the rest: the grid's first and last edge on each axis are moved, a pixel at a time, while the
   cells' total distance to their best templates falls; the two ends give origin and pitch.
4. *Check and extend.* The candidate grid is classified (:mod:`bot.vision.classify`); rows and columns
   just outside it are added while their cells match skin states as well as the board's own cells do
   (cells matching nothing are allowed in a strip whose other cells do: a state the skin has never
   seen must make the board unreadable, not cut it short). A grid whose cells mostly match nothing
   is dropped.

5. *Colour shift.* When no board is found, or the one found reads far from the templates, the screen's
   colours may be shifted (a night light, gamma): a per-channel shift is estimated from the board's own
   cells (:mod:`bot.vision.tint`) on the found grid, or on lattices of flat blobs of any colour, and the
   board is located again on the screenshot mapped back.

6. *Structure.* When faces find no board (a covered tile with no flat face: dithered, shaded) or
   several pieces of one (parted by cells the skin cannot read), the skinless grid finder's board
   (:mod:`bot.vision.grid`) is read with the skin, and taken only when its cells sit as near the skin's
   templates as a board found by its faces, the skin reads it nearly whole, and it is the whole board
   drawn; otherwise the error says why it was not taken.

Fallbacks (a looser colour tolerance for recompressed screenshots, a colour shift undone) are recorded
in :attr:`Location.notes` and logged at INFO.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import cv2
import numpy as np

from bot.board import Cell
from bot.errors import BoardNotFoundError, MinebotError
from bot.geometry import Geometry, Region
from bot.skin import Skin
from bot.vision.boxes import Boxes
from bot.vision.classify import (
    MAX_DISTANCE,
    MIN_CONFIDENCE,
    CellReading,
    better_reading,
    classify_cells,
    nearest_distances,
    per_skin,
    remember_colours,
    rim_distance,
)
from bot.vision.tint import ColourShift, estimate_shift

LOGGER = logging.getLogger(__name__)

SHIFT_DISTANCE = 8.0
"""Median RMS distance (0-255) of a found board's cells to their templates above which its colours
may be shifted and a shift is estimated. Measured: 0-2 on the real captures, 15-21 on them through the
night-light tint; a lost board showing states the skin lacks has unsure cells but a low median."""

SHIFT_NUDGES = ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))
"""Whole-pixel moves of a grid tried when estimating a colour shift on it."""

SHIFT_GROUPS = 3
"""Largest lattices of flat blobs tried as boards when no board of the skin's colours is found."""

STRUCTURE_GRIDS = 3
"""Best boards of the skinless grid finder tried with the skin when faces find no one board."""

INTERIOR = 0.2
"""A template's interior, compared at the screen's own pixels with a cell drawn at another size
(:func:`_native_interiors`), leaves out this fraction of the cell on each side (its grid line, bevel)."""
NATIVE_SHIFT = 2
"""... and is looked for this many pixels each way from the cell's centre (a client centres what it
draws in a cell to within a pixel or two)."""
NATIVE_SAMPLE = 48
"""... that offset found on at most this many cells spread over the board (a board drawn otherwise is
refused on them alone)."""

COLOUR_TOLERANCES = (20, 44)
"""Per-channel colour tolerance for face blobs: the strict pass, then the fallback pass."""

FLAT_SPREAD = 6
"""Most a colour channel may vary in a 3x3 neighbourhood of a face when faces are found by flatness."""

MIN_BLOB = 4
"""Smallest face blob side in pixels (a 16 px cell at 50% still leaves a 6 px face)."""

MAX_BLOB = 160
"""Largest face blob side in pixels (a 24 px cell at 400% zoom)."""

MIN_GROUP = 3
"""Blobs needed in one lattice group before it is checked as a board."""

MAX_UNCERTAIN_FRACTION = 0.2
"""A candidate grid with more uncertain cells than this is not a board (clutter that looked regular)."""

MAX_UNSEEN_FRACTION = 0.5
"""The same limit for a skin that lacks states: a lost game shows a quarter of its cells as mines the
skin may never have seen, and such a board must be found (and its reading refused), not missed."""


def _too_uncertain(reading: CellReading, skin: Skin) -> bool:
    """True when a grid has too many unreadable cells to be a board in this skin."""
    limit = MAX_UNSEEN_FRACTION if skin.missing_states() else MAX_UNCERTAIN_FRACTION
    return float(reading.uncertain_mask().mean()) > limit


STRIP_SLACK = 8.0
"""RMS distance a cell outside the grid may exceed twice the board's typical distance for its state."""

STRIP_MIN_FIT = 0.5
"""Fraction of a strip's cells that must read surely (and as closely as the board's) to add the strip,
unless every unreadable cell in it has a cell's rim (below); the unreadable cells (states the skin
lacks) then make the reading raise."""

RIM_MAX = 20.0
"""RMS distance (0-255) within which a cell's rim (the outer ring of its feature block) counts as the
rim of some template. Measured on calibrated looks at scales 1-2: rims of cells the skin reads are
within 19.3, and cells just outside a board (frames, window) 24 or more away."""

EXTEND_PASSES = 4
"""Most rounds of extend, refit and snap: a round that moves the grid or reads it better may let the
next add strips it refused."""

SNAP_BAND = 4
"""Rows (columns) across the board's middle whose cells' fit decides a snap along x (y)."""

SNAP_STEPS = 4
"""Most whole pixels a snap moves either end of the grid."""

SNAP_GAIN = 0.1
"""Least fall in the cells' mean distance (a fraction) for which a snap moves the grid at all: a small
gain is within noise, and the face fit's sub-pixel edges are the better estimate then (classic at
scale 2.04 gains 5% by trimming a pixel it should not)."""


@dataclass(frozen=True)
class FaceKind:
    """The flat middle of one cell template: its colour and where it sits in the nominal cell."""

    state: Cell
    colour: np.ndarray
    width: int
    height: int
    centre_x: float
    centre_y: float


@dataclass(eq=False)
class Location:
    """A located board: its geometry, the cells read while checking it, and how it was found."""

    geometry: Geometry
    reading: CellReading
    skin: Skin
    notes: list[str] = field(default_factory=list)

    @property
    def score(self) -> float:
        """How well the skin fits: mean cell confidence (0-1)."""
        return float(self.reading.confidence.mean())


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


def _strip_fits(image: np.ndarray, reading: CellReading, reference: CellReading, skin: Skin) -> bool:
    """True when a strip's cells read as confidently, and as closely, as the board's own cells.

    Every sure cell must be no farther from its template than cells of the same state inside the
    board are (with slack), so a flat panel beside the board is not taken for a column of ``0``
    cells; at least ``STRIP_MIN_FIT`` of the cells must be sure, or else at least one, with every
    other cell framed like a cell (a row of mines the skin never saw is still part of the board).
    """
    sure = ~reading.uncertain_mask()
    if not sure.any():
        return False
    if sure.mean() < STRIP_MIN_FIT and rim_distance(image, reading.geometry, skin)[~sure].max() > RIM_MAX:
        return False
    known = ~reference.uncertain_mask()
    overall = float(np.percentile(reference.distance[known], 90)) if known.any() else 0.0
    for state in np.unique(reading.states[sure]):
        same = known & (reference.states == state)
        typical = float(np.median(reference.distance[same])) if same.any() else overall
        if reading.distance[sure & (reading.states == state)].max() > 2.0 * typical + STRIP_SLACK:
            return False
    return True


Costs = dict[tuple[float, float, float, float, int, int], float]
"""Grid fit costs already computed on one screenshot with one skin, by the grid's placement."""


def _fit_cost(image: np.ndarray, geometry: Geometry, skin: Skin, costs: Costs) -> float:
    """Mean distance of a grid's cells to their best templates (capped: one odd cell must not steer),
    computed once per placement (``costs``: a snap after a refit that moved nothing tries the same)."""
    g = geometry
    key = (g.left, g.top, g.pitch_x, g.pitch_y, g.rows, g.cols)
    if key not in costs:
        costs[key] = float(np.minimum(nearest_distances(image, geometry, skin), MAX_DISTANCE).mean())
    return costs[key]


def _snap_axis(image: np.ndarray, geometry: Geometry, skin: Skin, horizontal: bool, costs: Costs) -> Geometry:
    """The grid with its first and last edge along one axis moved by whole pixels to fit best.

    Cells are cut between the rounded board edges (:func:`bot.vision.classify.board_crop`), so whole
    pixel moves of the two ends are all there is to try. The cost is taken over a band of at most
    ``SNAP_BAND`` rows (columns) across the board's middle, which the other axis barely affects.
    """
    g = geometry
    count, other = (g.cols, g.rows) if horizontal else (g.rows, g.cols)
    band = min(SNAP_BAND, other)
    skip = (other - band) // 2

    origin, pitch = (g.left, g.pitch_x) if horizontal else (g.top, g.pitch_y)
    low, high = round(origin), round(origin + count * pitch)  # the crop's edges, as board_crop cuts

    def moved(first: int, last: int) -> Geometry:
        if first == last == 0:
            return g
        start, step = low + first, (high + last - low - first) / count
        if horizontal:
            return Geometry(start, g.top, step, g.pitch_y, g.rows, g.cols, g.face)
        return Geometry(g.left, start, g.pitch_x, step, g.rows, g.cols, g.face)

    def cost(ends: tuple[int, int]) -> float:
        m = moved(*ends)
        if horizontal:
            part = Geometry(m.left, m.top + skip * m.pitch_y, m.pitch_x, m.pitch_y, band, m.cols)
        else:
            part = Geometry(m.left + skip * m.pitch_x, m.top, m.pitch_x, m.pitch_y, m.rows, band)
        return _fit_cost(image, part, skin, costs)

    ends, best = (0, 0), cost((0, 0))
    tried = {ends: best}
    for _ in range(SNAP_STEPS * 4):
        options = [(ends[0] + a, ends[1] + b) for a in (-1, 0, 1) for b in (-1, 0, 1)]
        options = [
            o
            for o in options
            if o not in tried
            and max(map(abs, o)) <= SNAP_STEPS
            and high + o[1] - low - o[0] > count * pitch / 2  # a few pixels at the ends, not the pitch gone
        ]
        for option in options:
            tried[option] = cost(option)
        if not options:
            break
        step = min(options, key=tried.__getitem__)
        if tried[step] >= best:
            break
        ends, best = step, tried[step]
    if best > tried[(0, 0)] * (1.0 - SNAP_GAIN):
        return g  # as good as the face fit, which places the edges to a fraction of a pixel
    return moved(*ends)


def _snap(image: np.ndarray, geometry: Geometry, skin: Skin, costs: Costs) -> Geometry:
    """The grid moved so its cells fit the skin's templates best: origin and pitch along each axis."""
    for _ in range(2):  # a second round when the first moved the grid: each axis fits better then
        snapped = _snap_axis(image, _snap_axis(image, geometry, skin, True, costs), skin, False, costs)
        if snapped is geometry:
            break
        geometry = snapped
    return geometry


def _sides(g: Geometry, width: int, height: int) -> list[tuple[Geometry, int, int, int, int]]:
    """The one-cell strips just outside a grid that lie inside the image: ``(strip, rows added
    above, columns added left, rows added, columns added)``."""
    sides = (
        (Geometry(g.left, g.top - g.pitch_y, g.pitch_x, g.pitch_y, 1, g.cols), 1, 0, 1, 0),
        (Geometry(g.left, g.top + g.rows * g.pitch_y, g.pitch_x, g.pitch_y, 1, g.cols), 0, 0, 1, 0),
        (Geometry(g.left - g.pitch_x, g.top, g.pitch_x, g.pitch_y, g.rows, 1), 0, 1, 0, 1),
        (Geometry(g.left + g.cols * g.pitch_x, g.top, g.pitch_x, g.pitch_y, g.rows, 1), 0, 0, 0, 1),
    )
    inside = []
    for side in sides:
        box = side[0].region()
        if box.left >= 0 and box.top >= 0 and box.right <= width and box.bottom <= height:
            inside.append(side)
    return inside


def _extend(image: np.ndarray, geometry: Geometry, skin: Skin, reference: CellReading) -> Geometry:
    """Add rows and columns outside the grid while every cell in them reads well."""
    height, width = image.shape[:2]
    grew = True
    while grew:
        grew = False
        g = geometry
        for strip, above, before, more_rows, more_cols in _sides(g, width, height):
            if not _strip_fits(image, classify_cells(image, strip, skin, colours=None), reference, skin):
                continue
            geometry = Geometry(
                g.left - before * g.pitch_x,
                g.top - above * g.pitch_y,
                g.pitch_x,
                g.pitch_y,
                g.rows + more_rows,
                g.cols + more_cols,
            )
            grew = True
            break
    return geometry


def _locate_group(
    image: np.ndarray, group: Boxes, blobs: Boxes, kinds: list[FaceKind], skin: Skin
) -> Location | None:
    """Check one lattice group as a board: snap, classify, extend, refit on all blobs and snap, again."""
    geometry = _initial_geometry(group, kinds, skin)
    if geometry is None:
        return None
    costs: Costs = {}
    geometry = _snap(image, geometry, skin, costs)
    reading = classify_cells(image, geometry, skin, colours=None)
    if _too_uncertain(reading, skin):
        return None
    for _ in range(EXTEND_PASSES):
        before = geometry
        extended = _extend(image, geometry, skin, reading)
        geometry = _snap(image, _refit(extended, blobs, kinds, skin), skin, costs)
        reading = classify_cells(image, geometry, skin, colours=None)
        if extended == before and not _moved(geometry, before):
            break  # nothing grew or moved: the strips were judged as they stand
    if _too_uncertain(reading, skin) or min(geometry.rows, geometry.cols) < 2:
        return None
    return Location(geometry, reading, skin)


def _candidates(image: np.ndarray, skin: Skin, tolerance: int) -> list[Location]:
    kinds = face_kinds(skin)
    colours: list[np.ndarray] = []
    for kind in kinds:
        if not any(np.abs(kind.colour - c).max() <= 4 for c in colours):
            colours.append(kind.colour)
    blobs = _find_blobs(image, colours, tolerance)
    found: list[Location] = []
    remaining = np.arange(len(blobs.x))
    for _ in range(3):  # a few distinct pitches, for boards of different scales on one screen
        sub = blobs.take(remaining)
        size = np.maximum(sub.w, sub.h)
        gaps = np.concatenate(
            [_neighbour_pairs(sub.cx, sub.cy, size)[2], _neighbour_pairs(sub.cy, sub.cx, size)[2]]
        )
        pitch = _pitch_peak(gaps)
        if pitch is None:
            break
        used = []
        for group in _groups(sub, pitch):
            used.append(group)
            members = sub.take(group)
            x, y = float(np.median(members.cx)), float(np.median(members.cy))
            if any(f.geometry.region().contains(x, y) for f in found):
                continue  # more blobs of a board already found
            location = _locate_group(image, members, sub, kinds, skin)
            if location is None:
                continue
            overlapping = [f for f in found if _overlaps(location.geometry, f.geometry)]
            if all(_cells(location) > _cells(f) for f in overlapping):
                # a part of a board found first (from blobs cut off by unreadable cells) gives way
                found = [f for f in found if f not in overlapping] + [location]
        if not used:
            break
        remaining = np.setdiff1d(remaining, remaining[np.concatenate(used)])
        if len(remaining) < MIN_GROUP:
            break
    return found


def _same_grid(a: Geometry, b: Geometry) -> bool:
    """True when two grids have the same rows and columns, within half a cell of each other."""
    return (
        (a.rows, a.cols) == (b.rows, b.cols)
        and abs(a.left - b.left) < a.pitch_x / 2
        and abs(a.top - b.top) < a.pitch_y / 2
    )


def _moved(a: Geometry, b: Geometry) -> bool:
    """True when any edge of the two grids differs by half a pixel or more (cells are cut otherwise)."""
    ra, rb = ((g.left, g.top, g.left + g.cols * g.pitch_x, g.top + g.rows * g.pitch_y) for g in (a, b))
    return (a.rows, a.cols) != (b.rows, b.cols) or max(abs(p - q) for p, q in zip(ra, rb, strict=True)) >= 0.5


def _cells(location: Location) -> int:
    return location.geometry.rows * location.geometry.cols


def _overlaps(a: Geometry, b: Geometry) -> bool:
    ra, rb = a.region(), b.region()
    return ra.left < rb.right and rb.left < ra.right and ra.top < rb.bottom and rb.top < ra.bottom


def locate_board(image: np.ndarray, skin: Skin) -> Location:
    """Find the one board drawn in ``skin`` on a BGR screenshot.

    When no board is found, or the one found reads far from the skin's templates, the screen's colours
    may be shifted (a night light, gamma): the shift is estimated from the board's own cells
    (:mod:`bot.vision.tint`), and the board found again on the screenshot mapped back, if that reads
    surer. The mapping is remembered for the skin's later readings (:func:`remember_colours`). When
    faces find no board, or several pieces of one, the skinless grid finder's board is tried with the
    skin (:func:`_located_by_structure`).

    Raises:
        BoardNotFoundError: when no board is found (saying why the skinless grid finder's was not the
            skin's), or when two or more are (naming where each is).
    """
    notes: list[str] = []
    found: list[Location] = []
    for attempt, tolerance in enumerate(COLOUR_TOLERANCES):
        if attempt:
            note = (
                f"no {skin.name} board at colour tolerance {COLOUR_TOLERANCES[attempt - 1]}; "
                f"retried at {tolerance}"
            )
            notes.append(note)
            LOGGER.info(note)
        found = _candidates(image, skin, tolerance)
        if found:
            break
    if len(found) <= 1 and (not found or _off_colour(found[0].reading)):
        shifted = _locate_shifted(image, skin, found)
        if shifted is not None:
            found = [shifted]
    elif found:
        remember_colours(skin, None)
    why = ""
    if not found or len(found) > 1:
        by_structure, why = _located_by_structure(image, skin, found)
        found = found if by_structure is None else [by_structure]
    height, width = image.shape[:2]
    if not found:
        raise BoardNotFoundError(f"no {skin.name!r} board found on the {width}x{height} screenshot{why}")
    if len(found) > 1:
        where = "; ".join(_describe(f.geometry) for f in found)
        raise BoardNotFoundError(
            f"{len(found)} {skin.name!r} boards found on the screenshot, expected one: {where}{why}"
        )
    location = found[0]
    location.notes[:0] = notes
    return location


def _screen_grids(image: np.ndarray) -> list[Geometry]:
    """The skinless grid finder's boards on the screenshot, best first (shared within :func:`one_screen`)."""
    from bot.vision.grid import find_grids  # the skinless finder: only when faces find no one board

    if _SCREEN.get("image") is image and "grids" in _SCREEN:
        return _SCREEN["grids"]  # type: ignore[return-value]
    grids = [fit.geometry for fit in find_grids(image)[:STRUCTURE_GRIDS]]
    if _SCREEN.get("image") is image:
        _SCREEN["grids"] = grids
    return grids


def _located_by_structure(
    image: np.ndarray, skin: Skin, pieces: list[Location]
) -> tuple[Location | None, str]:
    """The skinless grid finder's board read with the skin, when faces found no board (a covered tile
    with no flat face: dithered, shaded) or several ``pieces`` of one (cells the skin cannot read part
    them); and why not, for the error message, when it is not taken.

    The grid is taken only as the skin's board when, snapped to the skin (:func:`_snap`), its cells are
    as near their templates as a board found by its faces (median within ``SHIFT_DISTANCE``: a board
    drawn in another look, or at another cell size whose lines did not scale, is not this skin's), the
    skin reads it nearly whole (:func:`_too_uncertain`), no row or column just outside it reads as the
    skin's cells (the board drawn is no larger than the grid) and it covers every piece.
    """
    reasons = []
    for grid in _screen_grids(image):
        if pieces and not all(_holds(grid, piece.geometry) for piece in pieces):
            reasons.append(f"{_describe(grid)} does not hold the {len(pieces)} pieces")
            continue
        geometry = _snap(image, grid, skin, {})
        reading = classify_cells(image, geometry, skin, colours=None)
        resized = abs(geometry.pitch_x / skin.cell_size - 1.0) > 0.1
        if _off_colour(reading) and resized and not pieces:
            native, why = _read_at_native_size(image, grid, skin)
            if native is not None:
                return native, ""
            reasons.append(why)
            continue
        if _off_colour(reading):
            hint = (
                f"; the skin's cells are {skin.cell_size} px: a client that draws this board at another size "
                "may need a skin calibrated from a screenshot of it"
                if resized
                else ""
            )
            reasons.append(
                f"{_describe(geometry)}, {geometry.pitch_x:.1f} px cells: not drawn with this skin's "
                f"templates (median distance {np.median(reading.distance):.1f}, at most {SHIFT_DISTANCE:.0f}"
                f"{hint})"
            )
        elif _too_uncertain(reading, skin):
            share = float(reading.uncertain_mask().mean())
            reasons.append(f"{_describe(geometry)}: the skin cannot read {share:.0%} of its cells")
        elif _extend(image, geometry, skin, reading) != geometry:
            reasons.append(f"{_describe(geometry)}: the skin reads cells beyond it")
        else:
            how = f"{len(pieces)} pieces of it found by their faces" if pieces else "no board found by faces"
            note = (
                f"board found by the skinless grid finder, read with the skin ({_describe(geometry)}): {how}"
            )
            LOGGER.info(note)
            return Location(geometry, reading, skin, [note]), ""
    return None, "".join(f"; the skinless grid finder's board {reason}" for reason in reasons)


def _read_at_native_size(image: np.ndarray, grid: Geometry, skin: Skin) -> tuple[Location | None, str]:
    """The skinless grid finder's board drawn at another cell size than the skin's, read when the skin's
    own drawing is in it; else why not.

    A client may draw larger cells without scaling what it draws in them (xbomb keeps its 1 px dither,
    2 px lines and digit bitmaps at 20 and 50 px cells): then the skin's templates do not fit the cells,
    but each cell's centre shows the template's interior pixel for pixel (:func:`_native_interiors`).
    The board is taken only when every cell's centre is one template's interior, surely (confidence and
    distance as for any reading), and the skinless reader, reading the grid on its own, names every cell
    the same and the board's logic holds. A board of another look, or one scaled as a whole (browser
    zoom: its glyphs grow with the cell), is refused: a skin is never bent onto it.
    """
    from bot.vision.generic import GenericModel, read_cells
    from bot.vision.naming import logic_problem

    where = f"{_describe(grid)}, {grid.pitch_x:.1f} px cells (the skin's are {skin.cell_size} px)"
    median, cells = _native_interiors(image, grid, skin)
    if cells is None:
        return None, (
            f"{where}: not drawn with this skin's templates, nor with their interiors at the screen's own "
            f"pixels (median distance {median:.1f}, at most {SHIFT_DISTANCE:.0f}); a client "
            "that draws this board at another size may need a skin calibrated from a screenshot of it"
        )
    states, second, distance, confidence = cells
    unsure = (confidence < MIN_CONFIDENCE) | (distance > MAX_DISTANCE)
    if unsure.any():
        r, c = np.argwhere(unsure)[0]
        return None, (
            f"{where}: its cells show the skin's template interiors at the screen's own pixels, but cell "
            f"({int(r)}, {int(c)}) is not surely one of them (a state the skin never saw?)"
        )
    shown = f"{where}: its cells show the skin's template interiors at the screen's own pixels, but"
    try:
        generic = read_cells(image, grid, GenericModel())
    except MinebotError as exc:
        return None, f"{shown} with no skin it is not read ({exc})"
    differ = np.argwhere(generic.states != states)
    if len(differ):
        cell = (int(differ[0][0]), int(differ[0][1]))
        return (
            None,
            f"{where}: its cells show the skin's interiors, but with no skin cell {cell} reads otherwise",
        )
    problem = logic_problem(generic.states)
    if problem is not None:
        return (
            None,
            f"{where}: its cells show the skin's interiors, but the board's logic fails ({problem[1]})",
        )
    note = (
        f"board found by the skinless grid finder at another cell size ({where}): every cell's centre is "
        "one of the skin's templates at the screen's own pixels, and the skinless reader reads the same"
    )
    LOGGER.info(note)
    reading = CellReading(grid, skin.name, states, second, distance, confidence)
    return Location(grid, reading, skin, [note]), ""


def _native_interiors(
    image: np.ndarray, grid: Geometry, skin: Skin
) -> tuple[float, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None]:
    """How near the cells' middles are to the skin's template interiors (:data:`INTERIOR`) at the
    screen's own pixels (the median RMS distance, 0-255, over up to :data:`NATIVE_SAMPLE` cells); and,
    when that is within ``SHIFT_DISTANCE``, each cell's nearest template, second nearest, distance and
    confidence.

    Pixel for pixel, not blurred: a flat fill of a dither's mean colour is not the dither. The window is
    moved to the offset (within :data:`NATIVE_SHIFT`) that fits the sampled cells best, then each cell
    may move one pixel more (a dither's phase, a cell a pixel wider at a fractional pitch).
    """
    size = skin.cell_size
    inset = max(1, round(INTERIOR * size))
    n = size - 2 * inset
    looks = [(state, t) for state, t in skin.cells.items()]
    looks += [(state, v) for state, vs in skin.variants.items() for v in vs if v.shape == (size, size, 3)]
    refs = np.stack([t[inset:-inset, inset:-inset].astype(np.float32) for _, t in looks]).reshape(
        len(looks), -1
    )
    ref_norms = (refs * refs).sum(axis=1)
    values = np.array([int(state) for state, _ in looks])
    pad = NATIVE_SHIFT + 2
    padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE).astype(np.float32)
    rows, cols = np.divmod(np.arange(grid.rows * grid.cols), grid.cols)
    x0 = np.round(grid.left + (cols + 0.5) * grid.pitch_x - n / 2).astype(int) + pad
    y0 = np.round(grid.top + (rows + 0.5) * grid.pitch_y - n / 2).astype(int) + pad
    step = np.arange(n)

    def distances(dx: int, dy: int, cells: np.ndarray) -> np.ndarray:
        """``(len(cells), K)`` RMS distance of each cell's window, moved by (dx, dy), to each template."""
        ys = np.clip(y0[cells, None] + dy + step, 0, padded.shape[0] - 1)
        xs = np.clip(x0[cells, None] + dx + step, 0, padded.shape[1] - 1)
        windows = padded[ys[:, :, None], xs[:, None, :]].reshape(len(cells), -1)
        squared = (windows * windows).sum(axis=1)[:, None] + ref_norms[None] - 2 * windows @ refs.T
        return np.sqrt(np.maximum(squared, 0.0) / refs.shape[1])

    every = np.arange(len(x0))
    sample = np.unique(np.linspace(0, len(x0) - 1, min(len(x0), NATIVE_SAMPLE)).round().astype(int))
    shifts = range(-NATIVE_SHIFT, NATIVE_SHIFT + 1)
    fits = {
        (dx, dy): float(np.median(distances(dx, dy, sample).min(axis=1))) for dx in shifts for dy in shifts
    }
    dx, dy = min(fits, key=fits.__getitem__)
    if fits[(dx, dy)] > SHIFT_DISTANCE:
        return fits[(dx, dy)], None
    near = np.stack([distances(dx + a, dy + b, every) for a in (-1, 0, 1) for b in (-1, 0, 1)]).min(axis=0)
    order = np.argsort(near, axis=1)
    d1 = near[every, order[:, 0]]
    first = values[order[:, 0]]
    # the nearest template of another state (a variant of the same state is no rival)
    rival = np.where(values[order] != first[:, None], np.take_along_axis(near, order, axis=1), np.inf)
    d2 = rival.min(axis=1)
    second = values[order[every, rival.argmin(axis=1)]]
    confidence = np.where(np.isfinite(d2), 1.0 - d1 / np.maximum(d2, 1e-6), 1.0)
    shape = (grid.rows, grid.cols)
    cells = (
        first.astype(np.int8).reshape(shape),
        second.astype(np.int8).reshape(shape),
        d1.reshape(shape),
        confidence.reshape(shape),
    )
    return float(np.median(d1)), cells


def _holds(outer: Geometry, inner: Geometry) -> bool:
    """Whether ``outer``'s cells cover ``inner``'s (within half a cell), at the same pitch (within 10%)."""
    a, b = outer.region(), inner.region()
    slack_x, slack_y = inner.pitch_x / 2, inner.pitch_y / 2
    return (
        abs(outer.pitch_x - inner.pitch_x) <= 0.1 * inner.pitch_x
        and abs(outer.pitch_y - inner.pitch_y) <= 0.1 * inner.pitch_y
        and a.left - slack_x <= b.left
        and a.top - slack_y <= b.top
        and b.right <= a.right + slack_x
        and b.bottom <= a.bottom + slack_y
    )


def _off_colour(reading: CellReading) -> bool:
    """True when a board's cells sit far from their templates (its colours may be shifted)."""
    return float(np.median(reading.distance)) > SHIFT_DISTANCE


_SCREEN: dict[str, object] = {}
"""What :func:`one_screen` shares between skins located on one screenshot."""


@contextmanager
def one_screen(image: np.ndarray) -> Iterator[None]:
    """Within the block, the skin-free work of a colour-shifted locate on ``image`` (its lattices of
    flat blobs) is done once, however many skins are located on it (``--skin auto``)."""
    _SCREEN.clear()
    _SCREEN["image"] = image
    try:
        yield
    finally:
        _SCREEN.clear()


def _flat_lattices(image: np.ndarray) -> tuple[Boxes, list[np.ndarray]]:
    """Flat blobs of any colour and the largest lattices they form (shared within :func:`one_screen`)."""
    if _SCREEN.get("image") is image and "flat" in _SCREEN:
        return _SCREEN["flat"]  # type: ignore[return-value]
    blobs = flat_blobs(image)
    size = np.maximum(blobs.w, blobs.h)
    gaps = np.concatenate(
        [_neighbour_pairs(blobs.cx, blobs.cy, size)[2], _neighbour_pairs(blobs.cy, blobs.cx, size)[2]]
    )
    pitch = _pitch_peak(gaps)
    result = (blobs, [] if pitch is None else _groups(blobs, pitch)[:SHIFT_GROUPS])
    if _SCREEN.get("image") is image:
        _SCREEN["flat"] = result
    return result


def _shift_geometries(image: np.ndarray, skin: Skin, found: list[Location]) -> list[Geometry]:
    """Grids to estimate a colour shift on: the board found, else lattices of flat blobs of any colour."""
    if found:
        return [found[0].geometry]
    blobs, groups = _flat_lattices(image)
    grids = []
    for group in groups:
        geometry = _initial_geometry(blobs.take(group), face_kinds(skin), skin)
        if geometry is not None and min(geometry.rows, geometry.cols) >= 2:
            grids.append(geometry)
    return grids


def _best_estimate(
    image: np.ndarray, geometry: Geometry, skin: Skin
) -> tuple[ColourShift, CellReading] | None:
    """The colour shift estimated on the grid, or on it moved by a pixel (a grid from blob centres may
    sit half a pixel off), whichever reads the most cells surely."""
    best = None
    for dx, dy in SHIFT_NUDGES:
        moved = Geometry(
            geometry.left + dx,
            geometry.top + dy,
            geometry.pitch_x,
            geometry.pitch_y,
            geometry.rows,
            geometry.cols,
        )
        estimate = estimate_shift(image, moved, skin)
        if estimate is None:
            continue
        unsure = int(estimate[1].uncertain_mask().sum())
        if best is None or unsure < best[0]:
            best = (unsure, estimate)
        if unsure == 0:
            break
    return None if best is None else best[1]


def _locate_shifted(image: np.ndarray, skin: Skin, found: list[Location]) -> Location | None:
    """The board found on the screenshot with its colour shift undone, when that reads surer."""
    for geometry in _shift_geometries(image, skin, found):
        estimate = _best_estimate(image, geometry, skin)
        if estimate is None:
            continue
        shift, _ = estimate
        table = shift.table()
        mapped = cv2.LUT(image, table)
        for tolerance in COLOUR_TOLERANCES:
            located = _candidates(mapped, skin, tolerance)
            if located:
                break
        if len(located) != 1 or float(located[0].reading.uncertain_mask().mean()) > MAX_UNCERTAIN_FRACTION:
            continue  # through a shift, only a board read nearly whole counts (a skin bent to clutter is not)
        if found and not (
            _same_grid(located[0].geometry, found[0].geometry)
            and better_reading(located[0].reading, found[0].reading)
        ):
            continue
        note = f"screen colours shifted; mapped back with {shift.describe()}"
        located[0].notes.append(note)
        LOGGER.info(note)
        remember_colours(skin, table)
        return located[0]
    return None


def _describe(geometry: Geometry) -> str:
    r: Region = geometry.region()
    return f"{geometry.rows}x{geometry.cols} at ({r.left}, {r.top}) size {r.width}x{r.height}"
