"""Find a Minesweeper board's cell grid on a screenshot with no skin, from the board's structure alone.

A board is a 2-D lattice of cells whose flat middles ("faces": a covered tile inside its bevel, an
opened cell inside its lines) repeat at one pitch in both axes. :func:`find_grids`:

1. *Faces.* Pixels with no step to their neighbours (on the grey image, or on a lightly smoothed one
   so dithered tiles count as flat) are flat; on a half-size mask their connected components that are
   roughly square are candidate faces. Cheap: one gradient and one labelling of a half-size mask.
2. *Lattices.* Faces of like size one pitch apart in a row or a column are linked; each linked group
   (at the pitch its own links agree on) is a candidate. A least-squares fit of face centre against
   lattice index (one offset per face size, so covered and opened faces may sit differently in their
   cells) gives the pitch to a small fraction of a pixel.
3. *Phase.* The grey steps of the board's rows, folded on the lattice, peak at the tile boundary;
   of a 1-px line's two equal steps, the cell starts after the line. Pitch and origin are then refined
   together over every boundary of the board (so 32/33 px alternation gives 32.7, not 32 or 33).
   Where the steps leave it in doubt (a bevelled tile's shadow and the next one's highlight look like a
   2-px line; an opened cell's line of its own like a shared one: :data:`SEAM_ENDS`), the pixels
   decide when they can: over the board's boundaries, pixels of one cell go up and down together with
   that cell's look, so the cell starts where they split in two such runs (:meth:`_Board.owned_start`).
4. *Extent.* Rows and columns are added (or trimmed) while their cells show the board's own structure:
   faces of the board's kinds, or boundaries across the strip at the lattice's positions (grid lines
   between opened cells with no faces of their own). A frame, a header with counters and a face
   button, or a toolbar shows neither, so the board stops at its real edge. A few strips whose lines
   are weak beside their glyphs (a lost board's mines and numbers) are the board's between strips
   that show its structure (a board has no holes), and at its edge when a line crosses every one of
   their boundaries.
5. *Check.* A board has at least :data:`MIN_SIDE` rows and columns: a row of buttons or an LCD counter
   is never one. The cell face (``inset``) is what lies between separators every cell shares (grid
   lines and gaps have one colour whatever the cell shows).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from bot.errors import BoardNotFoundError
from bot.geometry import Geometry
from bot.vision.boxes import Boxes
from bot.vision.tiles import tile_faces

LOGGER = logging.getLogger(__name__)

FLAT_STEP = 12
"""Largest grey step (0-255) across a pixel's 4-neighbourhood for it to count as flat."""
SMOOTH_STEP = 3
"""The same on the [1 2 1]-smoothed image: dithered tiles are flat there, 1-px lines are not."""
MIN_FACE = 3
"""Smallest face side on the half-size mask (6 px at full size: a 12 px cell with its bevel)."""
MAX_FACE = 90
"""Largest face side on the half-size mask (180 px)."""
MIN_GROUP = 12
"""Faces of a seed's sizes a board must hold on its lattice (a seed's own, or other groups' its growth
took in: a mostly opened board shows its faces in small clusters between numbers)."""
MIN_SEED = 4
"""Linked faces needed before a group (with those on its lattice near it) is grown as a board's seed."""
MIN_SIDE = 5
"""Fewest rows and columns of a board: a toolbar, a counter or a keypad is no board."""
MIN_BOARD_PX = MIN_SIDE * 2 * MIN_FACE
"""Fewest pixels across a board: :data:`MIN_SIDE` cells of the smallest face (an image narrower or lower
holds none, and is refused before any filter runs on it)."""
MERGE_CELLS = 3
"""Face groups on one lattice with at most this many cells between them are one board's."""
LINKED = 3
"""Links along each axis that let a face group join a group of faces of another size (covered and
opened faces of one board); fewer, and it joins only faces of its own size."""
CUT_DEPTH = 2
"""Pixels a cell boundary must lie inside a flat face (from either end) to cut it (not a rounding)."""
CUT_SHARE = 0.5
"""Share of a board's faces its boundaries may cut before its lattice is taken to be off its phase."""
TYPICAL_STRIPS = 8
"""Rows (columns) sampled for the board's typical grid-line strength."""
CROP_CELLS = 10
"""How far (in cells) beyond its faces a board is looked at: opened areas with no faces of their own."""
CROP_WIDENINGS = 2
"""Times the crop is widened around a board that reaches its edge."""
STRIP_SHARE = 0.5
"""Share of a row's (column's) cells that must show the board's structure for it to be part of it."""
SEAM_SHARE = 0.25
"""Steps inside a line (between its two sides) must be below this share of its peak."""
LINE_PAIR = 0.6
"""A step 1-2 px from a boundary's peak this close to it is a line's other side: the boundary goes
mid-line."""
LATTICE_CONTRAST = 2.0
"""A strip's steps must be this much stronger on its lattice boundaries than between them to count as
grid lines (a row of buttons with text, a header, have steps everywhere)."""
LINE_SHARE = 0.25
"""A boundary counts as a line when its step is at least this share of the board's typical one."""
SEAM_ENDS = {0.5: (0, 1), -2.0: (-2, 0)}
"""Boundaries :func:`_seam_offset` puts mid-way between two places the steps cannot choose from (a 1-px
line: before or after it; a 2-px dark band then a light one: a line's start, or a bevelled tile's
shadow ending where the next tile's highlight starts), and those places (offsets from the peak)."""
SHARED_SPREAD = 0.01
"""A pixel beside the boundaries whose grey spreads less than this over them all is the same at every
boundary (a line every cell shares), whoever's it is."""


@dataclass(frozen=True)
class GridFit:
    """A board's cell grid found with no skin.

    ``geometry`` places cell (0, 0) and says how cells repeat (a cell starts after the grid line or
    gap that precedes it). ``inset`` is ``(left, top, right, bottom)``: pixels of each cell that are
    grid line or gap rather than the cell's own face (0 where tiles abut). ``score`` (0-1) is the share
    of cells that showed the board's structure themselves.
    """

    geometry: Geometry
    inset: tuple[int, int, int, int]
    score: float

    @property
    def cells(self) -> int:
        return self.geometry.rows * self.geometry.cols


@dataclass(frozen=True)
class _Axis:
    """One axis of a lattice: cell ``i`` starts at ``round(start + i * pitch)``; ``count`` cells."""

    start: float
    pitch: float
    count: int

    def line(self, i: int) -> int:
        return round(self.start + i * self.pitch)

    def lines(self) -> np.ndarray:
        return np.round(self.start + np.arange(self.count + 1) * self.pitch).astype(np.intp)


def grey(image: np.ndarray) -> np.ndarray:
    """The image as one grey channel (uint8)."""
    if image.ndim == 2:
        return image
    return cv2.cvtColor(np.ascontiguousarray(image[:, :, :3]), cv2.COLOR_BGR2GRAY)


_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
_SMOOTH = np.array([0.25, 0.5, 0.25])


def flat_mask(gray: np.ndarray) -> np.ndarray:
    """1 where a pixel differs little from its 4 neighbours, on the image or its smoothed twin."""
    step = cv2.subtract(cv2.dilate(gray, _CROSS), cv2.erode(gray, _CROSS))
    smooth = cv2.sepFilter2D(gray, -1, _SMOOTH, _SMOOTH, borderType=cv2.BORDER_REPLICATE)
    smooth_step = cv2.subtract(cv2.dilate(smooth, _CROSS), cv2.erode(smooth, _CROSS))
    return ((step <= FLAT_STEP) | (smooth_step <= SMOOTH_STEP)).astype(np.uint8)


def half_flat_mask(gray: np.ndarray) -> np.ndarray:
    """A half-size flat mask: flat where all 4 pixels are flat; or, where all 4 are busy (a dithered
    tile's checker pattern), where the smoothed half-size image is flat."""
    h, w = gray.shape
    h2, w2 = h // 2, w // 2
    step = cv2.subtract(cv2.dilate(gray, _CROSS), cv2.erode(gray, _CROSS))
    fine = ((step <= FLAT_STEP) * np.uint8(255))[: 2 * h2, : 2 * w2]
    share = cv2.resize(fine, (w2, h2), interpolation=cv2.INTER_AREA)
    small = cv2.pyrDown(gray)[:h2, :w2]
    smooth = cv2.morphologyEx(small, cv2.MORPH_GRADIENT, _CROSS) <= SMOOTH_STEP
    return ((share == 255) | ((share == 0) & smooth)).astype(np.uint8)


def find_faces(gray: np.ndarray) -> Boxes:
    """Roughly square flat blobs, found on the half-size flat mask (their sizes in full pixels)."""
    half = half_flat_mask(gray)
    _, _, stats, _ = cv2.connectedComponentsWithStats(half, connectivity=4)
    x, y, bw, bh, area = (stats[1:, i] for i in range(5))
    sized = (bw >= MIN_FACE) & (bh >= MIN_FACE) & (bw <= MAX_FACE) & (bh <= MAX_FACE)
    keep = sized & _face_shaped(bw, bh, area)
    s = stats[1:][keep].astype(np.float64) * 2
    return Boxes(s[:, 0], s[:, 1], s[:, 2], s[:, 3])


def _face_shaped(bw: np.ndarray, bh: np.ndarray, area: np.ndarray) -> np.ndarray:
    """Which flat blobs (bounding box ``bw`` x ``bh``, ``area`` pixels) are roughly square and solid."""
    return (np.abs(bw - bh) <= np.maximum(1, 0.25 * np.maximum(bw, bh))) & (area >= 0.45 * bw * bh)


def _line_pairs(along: np.ndarray, across: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Consecutive faces along each line (faces whose ``across`` centres agree to a few pixels)."""
    if len(along) < 2:
        empty = np.zeros(0, np.intp)
        return empty, empty
    order = np.argsort(across, kind="stable")
    breaks = np.diff(across[order]) > np.maximum(2.5, 0.15 * size[order[1:]])
    line = np.empty(len(along), np.intp)
    line[order] = np.concatenate([[0], np.cumsum(breaks)])
    seq = np.lexsort((along, line))
    a, b = seq[:-1], seq[1:]
    same = line[a] == line[b]
    return a[same], b[same]


def _links(faces: Boxes) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For x then y: neighbour pairs of like faces whose spacing could be one pitch, and the spacing."""
    out = []
    for along, across, size, other in (
        (faces.cx, faces.cy, faces.w, faces.h),
        (faces.cy, faces.cx, faces.h, faces.w),
    ):
        a, b = _line_pairs(along, across, other)
        gap = along[b] - along[a]
        s = np.maximum(size[a], size[b])
        t = np.maximum(other[a], other[b])
        ok = (
            (gap > s)
            & (gap <= 2.6 * s + 4)
            & (np.abs(size[a] - size[b]) <= 0.3 * s + 2)
            & (np.abs(other[a] - other[b]) <= 0.3 * t + 2)
        )
        out.append((a[ok], b[ok], gap[ok]))
    return out


def _labels(n: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Connected-component labels of ``n`` nodes joined by edges ``a[i] - b[i]`` (min-label propagation
    with pointer jumping, all vectorised)."""
    label = np.arange(n)
    while True:
        low = np.minimum(label[a], label[b])
        new = label.copy()
        np.minimum.at(new, a, low)
        np.minimum.at(new, b, low)
        new = new[new]
        if np.array_equal(new, label):
            return label
        label = new


def _mode_gap(gaps: np.ndarray) -> float | None:
    """The most common spacing (half-pixel bins, smoothed), as the mean of the spacings near it."""
    if len(gaps) < 3:
        return None
    hist = np.bincount(np.round(gaps * 2).astype(np.intp))
    peak = np.argmax(np.convolve(hist, np.ones(3), mode="same")) / 2
    near = gaps[np.abs(gaps - peak) <= max(1.0, 0.06 * peak)]
    return float(near.mean()) if len(near) else None


def _group_pitch(gaps: np.ndarray) -> float | None:
    """A group's pitch along one axis: the most common spacing of its links (:func:`_mode_gap`), or,
    with one or two links, their mean when they agree; None with no links (or two that disagree)."""
    if len(gaps) >= 3:
        return _mode_gap(gaps)
    if len(gaps) and np.ptp(gaps) <= _pitch_slack(float(gaps.mean())):
        return float(gaps.mean())
    return None


def _pitch_slack(pitch: float) -> float:
    """How far a link's spacing may be from its group's pitch and still be one step of its lattice."""
    return max(1.5, 0.1 * pitch)


def face_groups(faces: Boxes, small: bool = False) -> list[np.ndarray]:
    """Groups of faces linked one pitch apart in rows and columns, at each group's own pitch, groups on
    one lattice joined (:func:`_merge_groups`), largest first.

    First (``small`` False) only clusters of :data:`MIN_GROUP` linked faces count, and groups with
    :data:`LINKED` links along each axis. A board mostly opened shows its faces only in small clusters
    apart (empty cells between numbers, flags): with ``small``, every cluster counts, clusters on one
    lattice are joined before their size is judged, and groups of :data:`MIN_SEED` faces are kept."""
    (ax, bx, gx), (ay, by, gy) = _links(faces)
    n = len(faces.x)
    first = _labels(n, np.concatenate([ax, ay]), np.concatenate([bx, by]))
    sizes = np.bincount(first, minlength=n)
    keep_x = np.zeros(len(ax), bool)
    keep_y = np.zeros(len(ay), bool)
    for a, gap, keep in ((ax, gx, keep_x), (ay, gy, keep_y)):
        for label in np.unique(first[a]):
            if not small and sizes[label] < MIN_GROUP:
                continue
            mine = first[a] == label
            pitch = _group_pitch(gap[mine])
            if pitch is not None:
                keep |= mine & (np.abs(gap - pitch) <= _pitch_slack(pitch))
    second = _labels(n, np.concatenate([ax[keep_x], ay[keep_y]]), np.concatenate([bx[keep_x], by[keep_y]]))
    groups = []
    for label in np.unique(np.concatenate([second[ax[keep_x]], second[ay[keep_y]]])):
        members = np.nonzero(second == label)[0]
        links = [gaps[keep & (second[a] == label)] for a, gaps, keep in ((ax, gx, keep_x), (ay, gy, keep_y))]
        group = _Group(members, *(_group_pitch(g) for g in links), min(len(g) for g in links))
        if small or group.links >= LINKED:
            groups.append(group)
    merged = _merge_groups(faces, groups)
    least = MIN_SEED if small else MIN_GROUP
    return sorted((g for g in merged if len(g) >= least), key=len, reverse=True)


@dataclass(frozen=True)
class _Group:
    """Faces linked one pitch apart: their indices, the pitch along x and y (None where they have no
    links along that axis) and the fewer of their links along either axis."""

    members: np.ndarray
    pitch_x: float | None
    pitch_y: float | None
    links: int


def _merge_groups(faces: Boxes, groups: list[_Group]) -> list[np.ndarray]:
    """Join groups on one lattice (same pitches, centres a whole number of cells apart, within a few
    cells of each other): a board's faces part where a row of opened cells has none.

    A group with a few links (a mostly opened board's empty cells between numbers) joins only faces of
    its own size, in a group with :data:`LINKED` links along each axis or, when it knows both pitches
    itself, in another that does (two short rows are no lattice; a short row takes its other pitch from
    the group it joins). Groups that fit no lattice stay as they are."""
    n = len(groups)
    if n == 0:
        return []
    pitch = np.array([[np.nan if p is None else p for p in (g.pitch_x, g.pitch_y)] for g in groups])
    centres = [np.stack([faces.cx[g.members], faces.cy[g.members]], axis=1) for g in groups]
    lo, hi = np.array([c.min(axis=0) for c in centres]), np.array([c.max(axis=0) for c in centres])
    ref = np.array([c[0] for c in centres])  # a face on each lattice
    size = np.array([(np.median(faces.w[g.members]), np.median(faces.h[g.members])) for g in groups])
    a, b = np.triu_indices(n, 1)
    whole = ~np.isnan(pitch).any(axis=1)  # a group that knows both pitches: a 2-D lattice
    linked = np.array([g.links >= LINKED for g in groups])
    alike = (np.abs(size[a] - size[b]) <= np.maximum(2, 0.15 * np.maximum(size[a], size[b]))).all(axis=1)
    ok = (linked[a] & linked[b]) | (alike & (linked[a] | linked[b] | (whole[a] & whole[b])))
    for axis in (0, 1):
        pa, pb = pitch[a, axis], pitch[b, axis]
        p = np.where(np.isnan(pa), pb, pa)  # the pitch either group knows (both: they must agree)
        with np.errstate(invalid="ignore"):
            ok &= ~np.isnan(p) & ~(np.abs(pa - pb) > 0.03 * p)
            gap = np.maximum(lo[b, axis] - hi[a, axis], lo[a, axis] - hi[b, axis])
            ok &= gap <= MERGE_CELLS * p
            cells = (ref[b, axis] - ref[a, axis]) / p
            ok &= np.abs(cells - np.round(cells)) <= 0.2
    label = _labels(n, a[ok], b[ok])
    return [np.concatenate([groups[i].members for i in np.nonzero(label == k)[0]]) for k in np.unique(label)]


def _index(centres: np.ndarray, pitch: float) -> np.ndarray:
    """Lattice index of each centre: centres within a third of a pitch share one; steps are rounded."""
    order = np.argsort(centres)
    sorted_c = centres[order]
    new = np.concatenate([[True], np.diff(sorted_c) > 0.35 * pitch])
    cluster = np.cumsum(new) - 1
    means = np.bincount(cluster, sorted_c) / np.bincount(cluster)
    steps = np.maximum(np.round(np.diff(means) / pitch), 1)
    cluster_index = np.concatenate([[0], np.cumsum(steps)]).astype(np.intp)
    out = np.empty(len(centres), np.intp)
    out[order] = cluster_index[cluster]
    return out


def _fit_axis(
    centres: np.ndarray, kinds: np.ndarray, pitch: float, slack: float = 0.2
) -> tuple[np.ndarray, float, float, np.ndarray]:
    """Fit ``centre = pitch * index + offset[kind]``: indices, pitch, the main kind's offset, and which
    faces fit (a stray face more than a fifth of a pitch off is dropped and the fit redone)."""
    index = _index(centres, pitch)
    keep = np.ones(len(centres), bool)
    main = np.bincount(kinds).argmax()
    slope, offset = pitch, float(np.median(centres - index * pitch))
    for _ in range(3):
        used = np.unique(kinds[keep])
        if keep.sum() < 2 or np.ptp(index[keep]) < 1:  # a refit may leave no face near its line
            break
        design = np.zeros((int(keep.sum()), 1 + len(used)))
        design[:, 0] = index[keep]
        design[np.arange(int(keep.sum())), 1 + np.searchsorted(used, kinds[keep])] = 1
        coef = np.linalg.lstsq(design, centres[keep], rcond=None)[0]
        slope = float(coef[0])
        offsets = np.full(kinds.max() + 1, np.nan)
        offsets[used] = coef[1:]
        predicted = slope * index + np.nan_to_num(offsets[kinds], nan=float(np.nanmedian(offsets)))
        keep = np.abs(centres - predicted) <= max(1.0, slack * slope)
        offset = float(offsets[main]) if not np.isnan(offsets[main]) else float(np.nanmedian(offsets))
    return index, slope, offset, keep


def _kinds(faces: Boxes) -> np.ndarray:
    """Face kinds by size (covered and opened faces differ): an index per distinct (w, h)."""
    _, inverse = np.unique(np.stack([faces.w, faces.h], axis=1), axis=0, return_inverse=True)
    return inverse.ravel()


def _steps(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Grey steps into each pixel from its left (``ex``) and from above (``ey``), uint8."""
    ex = np.zeros_like(gray)
    ey = np.zeros_like(gray)
    ex[:, 1:] = cv2.absdiff(gray[:, 1:], gray[:, :-1])
    ey[1:, :] = cv2.absdiff(gray[1:, :], gray[:-1, :])
    return ex, ey


class _Board:
    """One candidate board being fitted: the grey image's steps and the two axes."""

    def __init__(self, gray: np.ndarray, ex: np.ndarray, ey: np.ndarray, ax: _Axis, ay: _Axis):
        self.gray, self.ax, self.ay = gray, ax, ay
        self.steps = (ey, ex)  # axis 0: y-steps, axis 1: x-steps
        # Integral images of the step maps: any band's mean profile costs two subtractions.
        self.sums = (cv2.integral(ey), cv2.integral(ex))  # axis 0: y-steps, axis 1: x-steps
        self.grey_sums = cv2.integral(gray, sdepth=cv2.CV_64F)
        self.typical: dict[int, float] = {}
        self.faces: dict[tuple[int, int, int, int], Boxes] = {}  # :meth:`cell_faces` of each region

    def band(self, axis: int, lo: int, hi: int) -> np.ndarray:
        """Mean step along ``axis`` (1: x-steps per column, 0: y-steps per row) over band [lo, hi) of
        the other axis (rows for axis 1, columns for axis 0)."""
        sums = self.sums[axis] if axis == 1 else self.sums[axis].T
        lo, hi = max(lo, 0), min(hi, sums.shape[0] - 1)
        if hi <= lo:
            return np.zeros(sums.shape[1] - 1)
        return np.diff(sums[hi] - sums[lo]) / (hi - lo)

    # -- phase and pitch --------------------------------------------------------------------------

    def profile(self, axis: int) -> np.ndarray:
        """Mean step along ``axis`` (1: x, 0: y) over the board's span on the other axis."""
        other = self.ay if axis == 1 else self.ax
        return self.band(axis, other.line(0), other.line(other.count))

    def phase(self, axis: int) -> _Axis:
        """The axis moved by whole pixels so its boundaries sit on the folded step profile's peak, among
        the shifts whose boundaries run through at most :data:`CUT_SHARE` of the board's cell faces
        (:meth:`cell_faces`): a face is a cell's flat middle, which no boundary crosses, and the
        glyphs of a board full of numbers fold to a peak of their own (their feet, a few pixels
        before the lines)."""
        a = self.ax if axis == 1 else self.ay
        profile = self.profile(axis)
        half = math.ceil(a.pitch / 2)
        offsets = np.arange(-half, half + 1)
        pos = a.lines()[:, None] + offsets[None, :]
        inside = (pos >= 0) & (pos < len(profile))
        fold = np.where(inside, profile[np.clip(pos, 0, len(profile) - 1)], 0).sum(axis=0)
        faces = self.cell_faces()
        if len(faces.x):
            lo, size = (faces.x, faces.w) if axis == 1 else (faces.y, faces.h)
            first, last = (lo + CUT_DEPTH)[:, None, None], (lo + size - CUT_DEPTH)[:, None, None]
            cut = ((pos[None] >= first) & (pos[None] <= last)).any(axis=1)  # (face, shift)
            clear = cut.mean(axis=0) <= CUT_SHARE
            if clear.any():
                fold = np.where(clear, fold, -1.0)
        return replace(a, start=a.start + int(offsets[int(np.argmax(fold))]))

    def cell_faces(self) -> Boxes:
        """The flat faces within the board's region no larger than one cell (of any kind: covered, opened
        or a glyph's flat part), found at full size: the true lattice's boundaries cross none of them."""
        ax, ay = self.ax, self.ay
        h, w = self.gray.shape
        x0, x1 = max(ax.line(0), 0), min(ax.line(ax.count), w)
        y0, y1 = max(ay.line(0), 0), min(ay.line(ay.count), h)
        region = (x0, y0, x1, y1)
        if region not in self.faces:
            if x1 - x0 < 3 or y1 - y0 < 3:
                self.faces[region] = Boxes(*(np.zeros(0) for _ in range(4)))
            else:
                mask = flat_mask(self.gray[y0:y1, x0:x1])
                _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
                x, y, bw, bh, area = (stats[1:, i].astype(np.float64) for i in range(5))
                keep = (
                    (bw >= 2 * MIN_FACE)
                    & (bh >= 2 * MIN_FACE)
                    & (bw <= ax.pitch + 1)
                    & (bh <= ay.pitch + 1)
                    & _face_shaped(bw, bh, area)
                )
                self.faces[region] = Boxes(x[keep] + x0, y[keep] + y0, bw[keep], bh[keep])
        return self.faces[region]

    def refine(self, axis: int) -> _Axis:
        """The start to a small fraction of a pixel, at the axis's pitch.

        The lines are first moved a pixel onto the mean boundary's peak when they sit beside it (from a
        start of half a pixel, rounding puts them either side). Each tile start is put, to a whole
        pixel, where its steps best match the board's mean
        boundary (so a boundary whose row mixes kinds differently is not pulled); the start is the
        centre of the starts whose rounded boundaries hit the most of them, moved to the centroid of
        the mean boundary's steps beside its peak (so a line or a seam is split mid-way).
        """
        a = self.ax if axis == 1 else self.ay
        profile = self.profile(axis)
        n = len(profile)
        reach = max(1, min(3, int(a.pitch // 3)))
        offsets = np.arange(-reach, reach + 1)
        lines = a.lines()[:-1]

        def local(at: np.ndarray) -> np.ndarray:
            return profile[np.clip(at[:, None] + offsets[None, :], 0, n - 1)]

        here = local(lines)
        mean = here.mean(axis=0)
        peak = int(np.argmax(mean)) - reach  # a line a pixel off its peak: the mean boundary centred first
        if peak and abs(peak) == 1:
            lines = lines + peak
            here = local(lines)
            mean = here.mean(axis=0)
        shifts = np.arange(-2, 3)
        centred = mean - mean.mean()  # a textured tile's steady steps match every shift alike
        fit = np.stack([(local(lines + d) * centred).sum(axis=1) for d in shifts], axis=1)
        found = lines + shifts[np.argmax(fit, axis=1)]
        mass = here.sum(axis=1)
        valid = mass >= 0.25 * float(np.median(mass)) if mass.any() else mass > 0
        if valid.sum() < 2:
            return a
        k = np.arange(a.count)[valid]
        starts = a.start + np.arange(-3.0, 3.0001, 0.02)
        pos = np.round(starts[:, None] + a.pitch * k[None, :])
        hits = (pos == found[valid][None, :]).sum(axis=1)
        start = float(starts[hits == hits.max()].mean())
        seam = local(found[valid]).mean(axis=0)
        offset = _seam_offset(seam, reach)
        if offset == -2.0:  # a line's near side 2 px before the peak: it must run along the boundary
            along = self.seam(axis, found[valid], reach)
            if along[reach] > 0 and along[reach - 2] < LINE_PAIR * along[reach]:
                offset = _seam_offset(along, reach)  # glyphs' feet, not a line: the boundary's own steps
        ends = SEAM_ENDS.get(offset)  # steps that leave two places in doubt: the pixels may tell which
        owned = self.owned_start(axis, replace(a, start=start), reach) if ends else None
        if owned is not None and round(owned - start) in ends:
            return replace(a, start=owned)
        return replace(a, start=start + offset)

    def seam(self, axis: int, lines: np.ndarray, reach: int) -> np.ndarray:
        """The steps within ``reach`` of ``lines`` (along ``axis``) that most of the board's width shows:
        each offset's median over the pixels across the board, averaged over the lines. A boundary
        runs across every cell; a row of glyphs' feet a few pixels before it does not, and the mean
        profile would take those for the near side of a line."""
        other = self.ay if axis == 1 else self.ax
        steps = self.steps[0] if axis == 0 else self.steps[1].T
        at = np.clip(lines[:, None] + np.arange(-reach, reach + 1)[None, :], 0, steps.shape[0] - 1)
        across = steps[:, max(other.line(0), 0) : max(other.line(other.count), 1)]
        return np.median(across[at], axis=2).mean(axis=0)

    def owned_start(self, axis: int, a: _Axis, reach: int) -> float | None:
        """Where the cells really start (``a``'s boundaries moved by whole pixels), when the pixels beside
        them say so: pixels of one cell follow that cell's look together (a covered tile's shadow and
        face, an opened cell's line and ground), pixels of two cells only as far as neighbours look
        alike. Over the boundaries of the whole board, the pixels within ``reach`` of them then split in
        two runs, each pixel going with those of its own run (up or down together, as a bevel's shadow
        darkens where its face lightens) more than with any of the other (:func:`_clean_split`). Taken
        when exactly one split is clean; None when none is (a pixel blending both cells), or when some
        pixel is the same at every boundary (a line every cell shares; a board whose cells all look
        alike), or when the pitch is no whole number of pixels (the boundaries then fall at different
        places within their pixels): the boundary's steps decide (:func:`_seam_offset`)."""
        other = self.ay if axis == 1 else self.ax
        if a.count < 3 or other.count < 1 or abs(a.pitch - round(a.pitch)) * a.count > 0.5:
            return None  # a fractional pitch: each boundary falls at its own phase within its pixel
        sums = self.grey_sums if axis == 1 else self.grey_sums.T
        inner = a.lines()[1:-1]
        if inner[0] - reach < 0 or inner[-1] + reach > sums.shape[1] - 1:
            return None
        lo, hi = other.lines()[:-1], other.lines()[1:]
        margin = (hi - lo) // 5
        lo, hi = np.clip(lo + margin, 0, sums.shape[0] - 1), np.clip(hi - margin, 0, sums.shape[0] - 1)
        if (hi <= lo).any():
            return None
        span = inner[:, None] + np.arange(-reach, reach)[None, :]
        band = sums[hi] - sums[lo]  # (strips, pixels + 1): running sums over each strip's middle
        window = (band[:, span + 1] - band[:, span]) / (hi - lo)[:, None, None]  # each pixel's mean grey
        window = window.reshape(-1, span.shape[1])  # (every boundary of every strip, offsets)
        spread = window.std(axis=0)
        if (spread < SHARED_SPREAD).any():
            return None
        z = (window - window.mean(axis=0)) / spread
        alike = np.abs(z.T @ z) / len(z)  # how alike each two offsets' greys go over the boundaries
        splits = [k for k in range(2, len(alike) - 1) if _clean_split(alike, k)]  # two pixels a side
        if len(splits) != 1:
            return None
        lines = a.lines() + (splits[0] - reach)  # every boundary there, the start centred between roundings
        return float(np.mean(lines - np.arange(len(lines)) * a.pitch))

    # -- extent -------------------------------------------------------------------------------------

    def cross_boundaries(self, axis: int, index: int, cut: bool = False) -> tuple[np.ndarray, float]:
        """Step strength of the inner boundaries across lattice strip ``index`` (a row when ``axis`` is
        0) above the strip's own level inside the cells either side (grid lines, not texture); and
        how much stronger the strip's steps are on the lattice than off it (text is as strong off).
        A strip the image's edge cuts has none, unless ``cut``: then the half of the part that shows
        nearest the image's edge, each boundary's step the median over its pixel lines (a cut cell's
        boundary crosses them all; the board's last pixels beside a frame, a grid a pixel early, do
        not reach that far)."""
        along, across = (self.ax, self.ay) if axis == 0 else (self.ay, self.ax)
        lo, hi = across.line(index), across.line(index + 1)
        h, w = self.gray.shape if axis == 0 else self.gray.shape[::-1]
        if cut:
            half = max(1, (min(hi, h) - max(lo, 0)) // 2)
            lo, hi = (0, min(hi, half)) if lo < 0 else (max(lo, h - half), min(hi, h)) if hi > h else (lo, hi)
            if hi - lo < 1:
                return np.zeros(0), 0.0
        if lo < 0 or hi > h + 1:  # a board may end at the image's edge, half a pixel short
            return np.zeros(0), 0.0
        hi = min(hi, h)
        if cut:
            steps = self.steps[1 - axis] if axis == 0 else self.steps[1 - axis].T
            profile = np.median(steps[lo:hi], axis=0)
        else:
            margin = (hi - lo) // 5
            profile = self.band(1 - axis, lo + margin, hi - margin)
        lines = along.lines()
        inner = lines[1:-1]
        if len(inner) == 0 or lines[0] < 0 or lines[-1] > w:  # a board may end at the image's edge
            return np.zeros(0), 0.0
        peak = np.max([profile[inner + d] for d in (-1, 0, 1)], axis=0)
        span = profile[lines[0] : lines[-1]]
        on = np.zeros(len(span), bool)
        for d in (-1, 0, 1):
            on[np.clip(inner + d - lines[0], 0, len(span) - 1)] = True
        off = float(span[~on].mean()) if (~on).any() else 0.0
        contrast = float(peak.mean()) / max(off, 1e-6)
        middles = np.round(lines[:-1, None] + _MIDDLES[None, :] * along.pitch).astype(np.intp)
        level = profile[middles].min(axis=1)  # texture steps everywhere; a glyph's strokes do not
        return peak - np.maximum(level[:-1], level[1:]), contrast


def _clean_split(alike: np.ndarray, k: int) -> bool:
    """Whether offsets ``< k`` and ``>= k`` (two or more each) are two cells' pixels: every pixel goes
    more alike with each pixel on its own side than any pixel does with one on the other side (a pixel
    blending both cells, as a resampled screen draws, goes with both, and no split is clean)."""
    own = min(float(w[~np.eye(len(w), dtype=bool)].min()) for w in (alike[:k, :k], alike[k:, k:]))
    return float(alike[:k, k:].max()) < own


def _seam_offset(seam: np.ndarray, peak_at: int) -> float:
    """Where the boundary sits relative to its peak step: mid-line when the peak is one side of a 1-px
    line (a step as strong 1 px after it); at the start of a 2-px line when the peak is its far side
    (as strong a step 2 px before, none between) or its middle (as strong steps 1 px either side);
    else at the centroid of the peak and the step just before it (a line's entry, an anti-aliased
    edge). A weaker step after the peak is a bevel's inner edge and is left out. Steps count above
    the seam's level at its ends: a dithered tile steps at every pixel, and that is no line's side."""
    if peak_at >= 2:
        seam = np.clip(seam - min(float(seam[0]), float(seam[-1])), 0, None)
    peak = float(seam[peak_at])
    if 0 < peak_at < len(seam) - 1 and peak < SEAM_SHARE * min(seam[peak_at - 1], seam[peak_at + 1]):
        return -1.0
    if peak_at + 1 < len(seam) and seam[peak_at + 1] >= LINE_PAIR * peak:
        return 0.5
    if peak_at >= 2 and seam[peak_at - 2] >= LINE_PAIR * peak and seam[peak_at - 1] < SEAM_SHARE * peak:
        return -2.0
    before = float(seam[peak_at - 1]) if peak_at > 0 else 0.0
    return -before / max(before + peak, 1e-9)


_MIDDLES = np.linspace(0.25, 0.75, 7)
"""Where in a cell its own level is sampled (fractions of the pitch)."""


def _faces_at(faces: Boxes, ax: _Axis, ay: _Axis, rows: int, cols: int) -> np.ndarray:
    """Which lattice cells (counted from ``ax``/``ay`` starts) hold a face centre."""
    c = np.floor((faces.cx - ax.start) / ax.pitch).astype(np.intp)
    r = np.floor((faces.cy - ay.start) / ay.pitch).astype(np.intp)
    out = np.zeros((rows, cols), bool)
    ok = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
    out[r[ok], c[ok]] = True
    return out


def _lattice(faces: Boxes) -> tuple[_Axis, _Axis] | None:
    """The lattice through one group's faces: axes from cell (0, 0) of the faces' bounding box."""
    (ax_, _, gx), (ay_, _, gy) = _links(faces)
    px, py = _mode_gap(gx), _mode_gap(gy)
    if px is None or py is None:
        return None
    kinds = _kinds(faces)
    col, pitch_x, off_x, keep_x = _fit_axis(faces.cx, kinds, px)
    row, pitch_y, off_y, keep_y = _fit_axis(faces.cy, kinds, py)
    keep = keep_x & keep_y
    if keep.sum() < (MIN_GROUP if len(faces.x) >= MIN_GROUP else MIN_SEED):
        return None
    c0, c1 = int(col[keep].min()), int(col[keep].max())
    r0, r1 = int(row[keep].min()), int(row[keep].max())
    ax = _Axis(off_x + c0 * pitch_x - pitch_x / 2, pitch_x, c1 - c0 + 1)
    ay = _Axis(off_y + r0 * pitch_y - pitch_y / 2, pitch_y, r1 - r0 + 1)
    return ax, ay


def _full_size_faces(gray: np.ndarray, region: tuple[int, int, int, int], like: Boxes) -> Boxes | None:
    """The faces of ``like``'s sizes within ``region`` ``(x0, y0, x1, y1)`` of ``gray``, found at full
    size (none cut by the region's edge), or None when there are too few."""
    x0, y0, x1, y1 = region
    _, _, stats, _ = cv2.connectedComponentsWithStats(flat_mask(gray[y0:y1, x0:x1]), connectivity=4)
    x, y, bw, bh, area = (stats[1:, i].astype(np.float64) for i in range(5))
    lo_w, hi_w = 0.85 * like.w.min(), 1.2 * like.w.max() + 3
    lo_h, hi_h = 0.85 * like.h.min(), 1.2 * like.h.max() + 3
    whole = (x > 0) & (y > 0) & (x + bw < x1 - x0) & (y + bh < y1 - y0)  # none cut by the crop
    keep = whole & (bw >= lo_w) & (bw <= hi_w) & (bh >= lo_h) & (bh <= hi_h) & (area >= 0.45 * bw * bh)
    if keep.sum() < MIN_GROUP:
        return None
    return Boxes(x[keep] + x0, y[keep] + y0, bw[keep], bh[keep])


def _region_faces(
    gray: np.ndarray, board: _Board, like: Boxes, found: dict[tuple[int, int, int, int], Boxes | None]
) -> Boxes | None:
    """:func:`_full_size_faces` of ``like``'s sizes in the board's region and a cell around it, searched
    once per region (``found`` keeps them)."""
    ax, ay = board.ax, board.ay
    h, w = gray.shape
    x0, x1 = max(ax.line(-1), 0), min(ax.line(ax.count + 1), w)
    y0, y1 = max(ay.line(-1), 0), min(ay.line(ay.count + 1), h)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    region = (x0, y0, x1, y1)
    if region not in found:
        found[region] = _full_size_faces(gray, region, like)
    return found[region]


def _face_pitch(
    gray: np.ndarray,
    board: _Board,
    like: Boxes,
    found: dict[tuple[int, int, int, int], Boxes | None],
    spans: list[int],
) -> None:
    """Refit both pitches to the centres of the faces in the board's region, found at full size
    (the half-size mask places a face to 2 px): faces repeat exactly, whatever the grid lines do.
    ``found`` keeps the faces of each region already searched (growing often ends where it began).

    A refit only nudges the pitch (a new pitch is another lattice: xbomb's opening kept its 20 px),
    as far as the pitch in hand may be off: ``spans`` (y, x) are the cells it was measured over, from
    faces placed to 2 px (a seed of three columns at 1.5x, 32 px for 31.5); a refit taken widens it."""
    ax, ay = board.ax, board.ay
    faces = _region_faces(gray, board, like, found)
    if faces is None:
        return
    kinds = _kinds(faces)
    for centres, axis, at in ((faces.cx, ax, 1), (faces.cy, ay, 0)):
        index, pitch, _, fits = _fit_axis(centres, kinds, axis.pitch, slack=0.08)
        doubt = max(0.3, 0.015 * axis.pitch, 2.0 / max(spans[at], 1))
        steady = abs(pitch - axis.pitch) < doubt  # a refit, not a new pitch
        if fits.sum() >= MIN_GROUP and np.ptp(index[fits]) >= 2 and steady:
            _set(board, at, replace(axis, pitch=pitch))
            spans[at] = max(spans[at], int(np.ptp(index[fits])))


def _faces_per_cell(faces: Boxes, a: _Axis, other: _Axis, axis: int) -> int:
    """How many faces of one size each cell of axis ``a`` (1: x, 0: y; ``other`` the other axis) holds,
    evenly spaced along it: 2 or 3 when the faces of some size repeat at that fraction of its pitch,
    :data:`MIN_GROUP` of them at every one of those places, and most cells holding one face holding
    one at every place; else 1. A cell holds one face of a size (its tile's, or its opened ground's),
    so such faces say the lattice is a multiple of the board's: a JPEG's 8-px blocks leave every other
    12-px cell too noisy to count as flat on the half-size mask, or a repeat at 24 px (flat specks
    JPEG leaves here and there on a dithered tile sit one to a cell)."""
    centres, across = (faces.cx, faces.cy) if axis == 1 else (faces.cy, faces.cx)
    sizes = np.unique(np.stack([faces.w, faces.h], axis=1), axis=0)
    for k in (2, 3):
        sub = a.pitch / k
        for w, h in sizes:
            like = (np.abs(faces.w - w) <= 1) & (np.abs(faces.h - h) <= 1)
            mine = centres[like]
            if len(mine) < k * MIN_GROUP:
                continue
            angle = 2 * np.pi * ((mine - a.start) % sub) / sub
            centre = float(np.angle(np.exp(1j * angle).mean())) % (2 * np.pi) * sub / (2 * np.pi)
            steps = (mine - a.start - centre) / sub
            near = np.abs(steps - np.round(steps)) * sub <= _pitch_slack(sub)
            index = np.round(steps[near]).astype(np.intp)
            place = index % k
            if near.mean() <= 1 - CUT_SHARE or (np.bincount(place, minlength=k) < MIN_GROUP).any():
                continue
            row = np.floor((across[like][near] - other.start) / other.pitch).astype(np.intp)
            cells, inverse = np.unique(np.stack([index // k, row], axis=1), axis=0, return_inverse=True)
            held = np.zeros((len(cells), k), bool)
            held[inverse.ravel(), place] = True
            if held.all(axis=1).mean() > 1 - CUT_SHARE:
                return k
    return 1


def _lined_between(board: _Board, axis: int, a: _Axis, k: int) -> bool:
    """Whether the board's steps across it (the median over its span, :meth:`_Board.seam`) are as much
    a line (:data:`LINE_SHARE` of its boundaries' own) at each of the ``k - 1`` places evenly between
    the boundaries of axis ``a``: a board of cells that many times smaller shows its seams there in
    every row, while a glyph's flat quarters (a mine's, between its spikes) come with no line through
    the cell's middle."""
    inner = a.lines()[1:-1]
    if len(inner) == 0:
        return False
    line = float(board.seam(axis, inner, 1).max())
    cells = np.arange(a.count)
    for j in range(1, k):
        between = np.round(a.start + (cells + j / k) * a.pitch).astype(np.intp)
        if float(board.seam(axis, between, 1).max()) < LINE_SHARE * line:
            return False
    return line > 0


def _split_pitch(board: _Board) -> bool:
    """Divide each axis's pitch by :func:`_faces_per_cell` of the board's cell faces, when the board
    is lined there too (:func:`_lined_between`), its cells multiplied to span the same width; whether
    any was."""
    split = False
    for axis in (1, 0):
        a = board.ax if axis == 1 else board.ay
        k = _faces_per_cell(board.cell_faces(), a, board.ay if axis == 1 else board.ax, axis)
        if k > 1 and _lined_between(board, axis, a, k):
            _set(board, axis, _Axis(a.start, a.pitch / k, a.count * k))
            split = True
    return split


def _fit_crop(gray: np.ndarray, faces: Boxes, placed: bool = False) -> GridFit | None:
    """:func:`_fit_group` on the part of the screenshot within :data:`CROP_CELLS` cells of the faces,
    widened around the board found while that board reaches the crop's edge (a few faces in one
    corner of a mostly opened board grow a board larger than the faces' surroundings)."""
    margin = CROP_CELLS * float(np.median(np.maximum(faces.w, faces.h))) * 1.5
    h, w = gray.shape
    box = (faces.x.min(), faces.y.min(), (faces.x + faces.w).max(), (faces.y + faces.h).max())
    for _ in range(CROP_WIDENINGS + 1):
        x0, y0 = max(int(box[0] - margin), 0), max(int(box[1] - margin), 0)
        x1, y1 = min(int(box[2] + margin), w), min(int(box[3] + margin), h)
        local = Boxes(faces.x - x0, faces.y - y0, faces.w, faces.h)
        fit = _fit_group(np.ascontiguousarray(gray[y0:y1, x0:x1]), local, placed)
        if fit is None:
            return None
        g = fit.geometry
        r = g.region()
        near_x, near_y = 2 * g.pitch_x, 2 * g.pitch_y
        at_edge = (
            (x0 > 0 and r.left - near_x < 0)
            or (y0 > 0 and r.top - near_y < 0)
            or (x1 < w and r.right + near_x > x1 - x0)
            or (y1 < h and r.bottom + near_y > y1 - y0)
        )
        fit = replace(fit, geometry=g.offset(x0, y0))
        if not at_edge:
            return fit
        r = fit.geometry.region()
        box = (r.left, r.top, r.right, r.bottom)
        margin = CROP_CELLS * max(g.pitch_x, g.pitch_y)
    return fit


def _fit_group(gray: np.ndarray, faces: Boxes, placed: bool = False) -> GridFit | None:
    """A board grown from one group of faces, or None when it is no board.

    ``placed``: the faces sit exactly in their cells (repeated tiles, whose phase is where the repeats
    start), so the lattice through them is kept as it is: a seamless texture has no boundary steps to
    fold, and the step profile would only pull the lattice off."""
    lattice = _lattice(faces)
    if lattice is None:
        return None
    ex, ey = _steps(gray)
    board = _Board(gray, ex, ey, *lattice)
    searched: dict[tuple[int, int, int, int], Boxes | None] = {}
    if _split_pitch(board):
        placed = False  # the repeats were of several cells: their boundaries are to be found
    spans = [board.ay.count - 1, board.ax.count - 1]  # cells each pitch was measured over
    if not placed:
        _face_pitch(gray, board, faces, searched, spans)
        for _ in range(2):
            board.ax = board.phase(1)
            board.ay = board.phase(0)
            board.ax = board.refine(1)
            board.ay = board.refine(0)
    _within_image(board)
    _grow(board, faces, trim=not placed)
    if not placed:
        _cut_at_gaps(board, faces)
        _face_pitch(gray, board, faces, searched, spans)
        board.ax = board.refine(1)
        board.ay = board.refine(0)
    ax, ay = board.ax, board.ay
    if ax.count < MIN_SIDE or ay.count < MIN_SIDE:
        return None
    if not placed and _cuts_faces(gray, board, faces, searched):
        return None
    geometry = Geometry(ax.start, ay.start, ax.pitch, ay.pitch, ay.count, ax.count)
    own = _faces_at(faces, ax, ay, ay.count, ax.count)
    return GridFit(geometry, _inset(gray, ax, ay), float(own.mean()))


def _cuts_faces(
    gray: np.ndarray, board: _Board, like: Boxes, found: dict[tuple[int, int, int, int], Boxes | None]
) -> bool:
    """Whether the board's cell boundaries run through most of its flat faces (found at full size, of
    ``like``'s sizes: :func:`_region_faces`): a face is a cell's flat middle, which no boundary crosses,
    so such a lattice is off the board's phase (steps of glyphs in every cell, taken for its lines)."""
    ax, ay = board.ax, board.ay
    faces = _region_faces(gray, board, like, found)
    if faces is None:
        return False
    cut = np.zeros(len(faces.x), bool)
    for a, lo, size in ((ax, faces.x, faces.w), (ay, faces.y, faces.h)):
        lines = a.lines()[None, :]
        cut |= ((lines >= lo[:, None] + CUT_DEPTH) & (lines <= (lo + size)[:, None] - CUT_DEPTH)).any(axis=1)
    return bool(cut.mean() > CUT_SHARE)


def _within_image(board: _Board) -> None:
    """Drop the lattice's cells that the image's edge cuts: a board partly off the screenshot is read
    as the part that shows (a cut cell's faces still link, and would leave no boundary to measure)."""
    h, w = board.gray.shape
    board.ax, board.ay = _axis_within(board.ax, w), _axis_within(board.ay, h)


def _axis_within(a: _Axis, size: int) -> _Axis:
    """The axis less its cells that fall (partly) outside ``0..size`` (half a pixel of slack)."""
    first = max(0, math.ceil(-a.start / a.pitch - 1e-6))
    last = min(a.count, math.floor((size + 1 - a.start) / a.pitch + 1e-6))
    if last - first == a.count:
        return a
    return replace(a, start=a.start + first * a.pitch, count=max(last - first, 0))


def _within(geometry: Geometry, width: int, height: int) -> Geometry:
    """The grid less its rows and columns that the image's edge cuts."""
    ax = _axis_within(_Axis(geometry.left, geometry.pitch_x, geometry.cols), width)
    ay = _axis_within(_Axis(geometry.top, geometry.pitch_y, geometry.rows), height)
    return replace(geometry, left=ax.start, top=ay.start, cols=ax.count, rows=ay.count)


def _strip_lines(board: _Board, axis: int, index: int, cut: bool = False) -> tuple[float, float] | None:
    """Share of a strip's inner boundaries with a grid line across them, and their contrast (how much
    stronger its steps are on the lattice than off it); None for a strip the image's edge cuts (unless
    ``cut``: then the part of it that shows is measured)."""
    strength, contrast = board.cross_boundaries(axis, index, cut)
    if len(strength) == 0:
        return None
    return float((strength >= max(LINE_SHARE * board.typical[axis], 4.0)).mean()), contrast


def _strip_ok(board: _Board, kinds: Boxes, axis: int, index: int) -> bool:
    """Whether lattice row (axis 0) or column (axis 1) ``index`` shows the board's structure: faces
    of the board's sizes in enough of its cells, or enough boundaries across it."""
    found = _strip_lines(board, axis, index)
    if found is None:
        return False
    lines, contrast = found
    if lines >= STRIP_SHARE and contrast >= LATTICE_CONTRAST:
        return True
    ax, ay = board.ax, board.ay
    if axis == 0:
        shifted = _faces_at(kinds, replace(ax), replace(ay, start=ay.start + index * ay.pitch), 1, ax.count)
    else:
        shifted = _faces_at(kinds, replace(ax, start=ax.start + index * ax.pitch), replace(ay), ay.count, 1)
    return float(shifted.mean()) >= STRIP_SHARE


def _grow(board: _Board, faces: Boxes, trim: bool = True) -> None:
    """Add rows and columns while they show the board's structure; trim outer ones that do not (unless
    ``trim`` is False: the faces are cells for sure, so the board spans them all)."""
    board.typical = {axis: _typical_line(board, axis) for axis in (0, 1)}
    for axis in (0, 1):
        changed = True
        while changed:
            changed = False
            a = board.ay if axis == 0 else board.ax
            trimmable = trim and a.count > MIN_SIDE
            if trimmable and not _kept(board, faces, axis, 0):
                _set(board, axis, replace(a, start=a.start + a.pitch, count=a.count - 1))
                changed = True
            elif trimmable and not _kept(board, faces, axis, a.count - 1):
                _set(board, axis, replace(a, count=a.count - 1))
                changed = True
            elif before := _reach(board, faces, axis, True):
                _set(board, axis, replace(a, start=a.start - before * a.pitch, count=a.count + before))
                changed = True
            elif after := _reach(board, faces, axis, False):
                _set(board, axis, replace(a, count=a.count + after))
                changed = True


def _kept(board: _Board, faces: Boxes, axis: int, index: int) -> bool:
    """Whether an outer strip stays: it shows the board's structure, or a line across every boundary
    (what :func:`_reach` takes at the board's edge)."""
    return _strip_ok(board, faces, axis, index) or _lined_across(board, axis, index)


def _gap(board: _Board, faces: Boxes, axis: int, index: int) -> bool:
    """Whether strip ``index`` shows nothing of the board: no faces of its sizes, no grid lines across."""
    if _strip_ok(board, faces, axis, index):
        return False
    found = _strip_lines(board, axis, index)
    return found is None or found[0] < STRIP_SHARE


def _cut_at_gaps(board: _Board, faces: Boxes) -> None:
    """Cut the grown board at the first gap (:func:`_gap`) on each side of its faces, judged at the
    board's final extent: a board has no holes, and a strip taken while the board was narrow (a
    counter's digits over three columns look like cells) shows it is none across the whole board."""
    for axis in (0, 1):
        a = board.ay if axis == 0 else board.ax
        centres = faces.cy if axis == 0 else faces.cx
        held = np.clip(np.floor((centres - a.start) / a.pitch), 0, a.count - 1).astype(np.intp)
        first, last = 0, a.count - 1
        for i in range(int(held.min()) - 1, -1, -1):
            if _gap(board, faces, axis, i):
                first = i + 1
                break
        for i in range(int(held.max()) + 1, a.count):
            if _gap(board, faces, axis, i):
                last = i - 1
                break
        if (first, last) != (0, a.count - 1):
            _set(board, axis, replace(a, start=a.start + first * a.pitch, count=last - first + 1))


def _reach(board: _Board, faces: Boxes, axis: int, before: bool) -> int:
    """Strips to add on one side of the board: 1 when the next shows the board's structure; ``n + 1``
    when the next ``n`` (up to :data:`MERGE_CELLS`) show grid lines across them but too weakly (glyphs
    and mines between them, few faces) and the one after them shows the structure (a board has no
    holes); ``n`` when those ``n`` show a line across every boundary (:func:`_lined_across`) and the
    one after them shows too few lines (the board's edge: its last cells, then its frame); else 0. A
    frame or a gap between boards shows few lines."""
    count = (board.ay if axis == 0 else board.ax).count
    step = -1 if before else 1
    near = -1 if before else count
    whole = True  # every strip of the run so far has a line across every boundary
    for run in range(MERGE_CELLS + 1):
        index = near + run * step
        if _strip_ok(board, faces, axis, index):
            return run + 1
        found = _strip_lines(board, axis, index)
        if found is None:  # the image's edge: as a frame, it ends a run lined across
            return run if whole else 0
        if found[0] < STRIP_SHARE:
            return run if whole else 0
        whole = whole and found[0] >= 1.0
    return 0


def _lined_across(board: _Board, axis: int, index: int, cut: bool = False) -> bool:
    """Whether strip ``index`` shows a grid line across every one of its inner boundaries: the board's
    own lattice, cell by cell, however many glyphs lie between the lines (a header's text or a row of
    buttons lines up with a few of the board's boundaries, not all). ``cut``: of a strip the image's
    edge cuts, the part that shows."""
    found = _strip_lines(board, axis, index, cut)
    return found is not None and found[0] >= 1.0


def _typical_line(board: _Board, axis: int) -> float:
    """The median strength of the boundaries across the board's rows (axis 0) or columns, over at
    most :data:`TYPICAL_STRIPS` of them spread over the board."""
    count = (board.ay if axis == 0 else board.ax).count
    picks = np.unique(np.linspace(0, count - 1, min(count, TYPICAL_STRIPS)).round().astype(int))
    values = np.concatenate([board.cross_boundaries(axis, int(i))[0] for i in picks])
    return float(np.median(values)) if len(values) else 0.0


def _set(board: _Board, axis: int, value: _Axis) -> None:
    if axis == 0:
        board.ay = value
    else:
        board.ax = value


def _inset(gray: np.ndarray, ax: _Axis, ay: _Axis) -> tuple[int, int, int, int]:
    """Pixels at each end of a cell that every cell shares (grid lines, gaps): (left, top, right, bottom)."""
    out = []
    for a, b, axis in ((ax, ay, 1), (ay, ax, 0)):
        p = int(math.floor(a.pitch))
        lo, hi = max(b.line(0), 0), min(b.line(b.count), gray.shape[1 - axis])
        band = gray[lo:hi] if axis == 1 else gray[:, lo:hi].T
        starts = a.lines()[:-1]
        starts = starts[(starts >= 0) & (starts + p <= band.shape[1])]
        if len(starts) < 2:
            out.append((0, 0))
            continue
        cols = band[:, starts[:, None] + np.arange(p)[None, :]].astype(np.float32)  # (span, cells, p)
        spread = cols.std(axis=(0, 1))
        limit = 0.25 * float(np.median(spread))
        lead = 0
        while lead < p // 4 and spread[lead] <= limit:
            lead += 1
        trail = 0
        while trail < p // 4 and spread[p - 1 - trail] <= limit:
            trail += 1
        out.append((lead, trail))
    (left, right), (top, bottom) = out
    return left, top, right, bottom


def find_grids(image: np.ndarray) -> list[GridFit]:
    """Every board-like grid on a BGR (or grey) screenshot, best first (most cells showing structure).

    Covered cells painted with a texture have no flat faces: when cells repeating one picture
    (:func:`bot.vision.tiles.tile_faces`) lie outside the boards found, they are linked as faces of
    their own, and a board they make joins the board it continues. Beside a board found, only its
    surroundings (:data:`CROP_CELLS` cells) are looked at, at its pitch."""
    if min(image.shape[:2]) < MIN_BOARD_PX:
        return []
    gray = grey(image)
    fits = _fits(gray, find_faces(gray))
    if not fits:
        tiles = tile_faces(gray)
    else:  # tiles beside the board, at its lattice (cheap); if any, their own phase, around them
        g = fits[0].geometry
        r, mx, my = g.region(), CROP_CELLS * g.pitch_x, CROP_CELLS * g.pitch_y
        x0, y0 = max(int(r.left - mx), 0), max(int(r.top - my), 0)
        near = np.ascontiguousarray(gray[y0 : int(r.bottom + my), x0 : int(r.right + mx)])
        pitch = (g.pitch_x, g.pitch_y)
        tiles = tile_faces(near, pitch, (g.left - x0, g.top - y0))
        if _outside(tiles, fits, (x0, y0)).sum() < MIN_GROUP:
            return fits
        if _at_edge(tiles, near.shape):  # the tiles go on beyond: look everywhere
            x0 = y0 = 0
            near = gray
        tiles = tile_faces(near, pitch)
        tiles = Boxes(tiles.x + x0, tiles.y + y0, tiles.w, tiles.h)
    outside = _outside(tiles, fits, (0, 0))
    if outside.sum() >= MIN_GROUP:
        for fit in _fits(gray, tiles, placed=True):
            _add_fit(fits, fit, gray.shape)
        fits.sort(key=lambda f: f.score * f.cells, reverse=True)
    return fits


def _outside(faces: Boxes, fits: list[GridFit], offset: tuple[float, float]) -> np.ndarray:
    """Which faces (at ``offset`` in the screenshot) lie outside every board found."""
    regions = [f.geometry.region() for f in fits]
    centres = zip(faces.cx + offset[0], faces.cy + offset[1], strict=True)
    return np.array([not any(r.contains(x, y) for r in regions) for x, y in centres], bool)


def _at_edge(faces: Boxes, shape: tuple[int, ...]) -> bool:
    """Whether any face lies within its own size of the image's edge."""
    h, w = shape[:2]
    return bool(
        (
            (faces.x < faces.w)
            | (faces.y < faces.h)
            | (faces.x + 2 * faces.w > w)
            | (faces.y + 2 * faces.h > h)
        ).any()
    )


def _fits(gray: np.ndarray, faces: Boxes, placed: bool = False) -> list[GridFit]:
    """The boards grown from each group of linked faces, best first (``placed``: see :func:`_fit_group`);
    when no group of :data:`MIN_GROUP` faces makes one, from the small clusters (:func:`face_groups`),
    each board then judged by the faces of its seed's sizes it holds in all (:func:`_held`)."""
    fits: list[GridFit] = []
    for small in (False, True):
        for group in face_groups(faces, small):
            cx, cy = float(np.median(faces.cx[group])), float(np.median(faces.cy[group]))
            if any(f.geometry.region().contains(cx, cy) for f in fits):
                continue  # faces of a board already found (opened cells of another size)
            fit = _fit_crop(gray, faces.take(group), placed)
            if fit is not None and (not small or _held(fit.geometry, faces, group) >= MIN_GROUP):
                _add_fit(fits, fit, gray.shape)
        if fits:
            break
    fits.sort(key=lambda f: f.score * f.cells, reverse=True)
    return fits


def _held(geometry: Geometry, faces: Boxes, group: np.ndarray) -> int:
    """Cells of the board that hold a face of the seed group's sizes (its own or any other's)."""
    inside = np.zeros(len(faces.x), bool)
    inside[group] = True
    like = _sized_like(faces, inside)
    ax = _Axis(geometry.left, geometry.pitch_x, geometry.cols)
    ay = _Axis(geometry.top, geometry.pitch_y, geometry.rows)
    return int(_faces_at(like, ax, ay, geometry.rows, geometry.cols).sum())


def _add_fit(fits: list[GridFit], fit: GridFit, shape: tuple[int, ...]) -> None:
    """Add a board to ``fits``: joined with the boards it overlaps when they are all on its lattice (parts
    of one board: a mostly opened board's covered cells and its flags, found apart, and the board its
    repeated tiles span), dropped when it overlaps any other, else added."""
    overlapping = [i for i, f in enumerate(fits) if _overlap(fit.geometry, f.geometry)]
    if overlapping and all(_same_lattice(fits[i].geometry, fit.geometry) for i in overlapping):
        union = fit
        for i in overlapping:
            union = _union(fits[i], union)
        h, w = shape[:2]
        fits[overlapping[0]] = replace(union, geometry=_within(union.geometry, w, h))
        for i in reversed(overlapping[1:]):
            del fits[i]
    elif not overlapping:
        fits.append(fit)


def _same_lattice(a: Geometry, b: Geometry) -> bool:
    """Whether two grids' cells repeat at one pitch and phase (to a fifth of a cell over the two)."""
    span = max(a.cols, b.cols, a.rows, b.rows)
    for start_a, start_b, pa, pb in (
        (a.left, b.left, a.pitch_x, b.pitch_x),
        (a.top, b.top, a.pitch_y, b.pitch_y),
    ):
        cells = (start_b - start_a) / pa
        if abs(pa - pb) * span > 0.5 or abs(cells - round(cells)) > 0.2:
            return False
    return True


def _union(a: GridFit, b: GridFit) -> GridFit:
    """One board spanning two grids on one lattice (two face groups of a board found apart), placed as
    the larger of the two is (the more cells, the surer its phase)."""
    if b.cells > a.cells:
        a, b = b, a
    ga, gb = a.geometry, b.geometry
    cols_before = max(0, round((ga.left - gb.left) / ga.pitch_x))
    rows_before = max(0, round((ga.top - gb.top) / ga.pitch_y))
    cols_after = max(0, round((gb.left + gb.cols * ga.pitch_x - ga.left - ga.cols * ga.pitch_x) / ga.pitch_x))
    rows_after = max(0, round((gb.top + gb.rows * ga.pitch_y - ga.top - ga.rows * ga.pitch_y) / ga.pitch_y))
    geometry = replace(
        ga,
        left=ga.left - cols_before * ga.pitch_x,
        top=ga.top - rows_before * ga.pitch_y,
        rows=ga.rows + rows_before + rows_after,
        cols=ga.cols + cols_before + cols_after,
    )
    score = (a.score * a.cells + b.score * b.cells) / (a.cells + b.cells)
    return GridFit(geometry, a.inset, score)


def _overlap(a: Geometry, b: Geometry) -> bool:
    ra, rb = a.region(), b.region()
    return ra.left < rb.right and rb.left < ra.right and ra.top < rb.bottom and rb.top < ra.bottom


def refuse_too_small(image: np.ndarray) -> None:
    """Refuse an image too small to hold a board (a 1x500 strip, an icon), saying so.

    Raises:
        BoardNotFoundError: when the image is narrower or lower than :data:`MIN_BOARD_PX`.
    """
    h, w = image.shape[:2]
    if min(h, w) < MIN_BOARD_PX:
        raise BoardNotFoundError(
            f"no board on the {w}x{h} image: it is too small to hold one (a board has at least "
            f"{MIN_SIDE}x{MIN_SIDE} cells, at least {MIN_BOARD_PX}x{MIN_BOARD_PX} pixels)"
        )


def find_grid(image: np.ndarray) -> GridFit:
    """The board's grid on a screenshot: the best of :func:`find_grids`.

    Raises:
        BoardNotFoundError: when nothing on the screenshot is a lattice of at least
            :data:`MIN_SIDE` x :data:`MIN_SIDE` cells (naming what was seen).
    """
    fits = find_grids(image)
    if not fits:
        h, w = image.shape[:2]
        raise BoardNotFoundError(
            f"no board on the {w}x{h} screenshot: no lattice of at least {MIN_SIDE}x{MIN_SIDE} "
            "like cells one pitch apart in rows and columns"
        )
    best = fits[0]
    g = best.geometry
    LOGGER.info(
        "grid: %dx%d cells, pitch %.3fx%.3f px, cell (0, 0) at (%.2f, %.2f), inset %s",
        g.rows,
        g.cols,
        g.pitch_x,
        g.pitch_y,
        g.left,
        g.top,
        best.inset,
    )
    return best


def _sized_like(faces: Boxes, inside: np.ndarray) -> Boxes:
    """The faces whose size is that of some face in ``inside`` (within a rounding step)."""
    if not inside.any():
        return faces.take(np.zeros(0, np.intp))
    sizes = np.unique(np.stack([faces.w[inside], faces.h[inside]], axis=1), axis=0)
    near = (np.abs(faces.w[:, None] - sizes[None, :, 0]) <= 2) & (
        np.abs(faces.h[:, None] - sizes[None, :, 1]) <= 2
    )
    return faces.take(np.nonzero(near.any(axis=1))[0])


CUT_ON_LINES = 0.6
"""Share of a strip's changes along the board's edge that fall on the board's cell boundaries above which
the strip is cells (a board cut by the screenshot's edge) rather than a frame, a border or a background
(changes spread at random put about a quarter there)."""

CUT_CONTRAST = 1.0
"""Mean grey-level change per pixel along the edge below which a strip is flat: a frame, not cells."""


def cut_sides(image: np.ndarray, geometry: Geometry) -> list[str]:
    """The sides (``top``, ``bottom``, ``left``, ``right``) where the screenshot's edge cuts the board.

    There, less than a cell of image lies beyond the board, and that strip changes along the edge where
    the board's cells meet, as a row of cells cut short does (grid lines, bevels, one cell's state to the
    next); a frame, a window border or a background does not. A board read without its cut cells is not
    the board: its edge numbers count neighbours that do not show, so it is refused, not played.
    """
    height, width = image.shape[:2]
    r, g = geometry.region(), geometry
    rows, cols = slice(max(r.top, 0), min(r.bottom, height)), slice(max(r.left, 0), min(r.right, width))
    strips = (
        ("left", rows, slice(0, max(r.left, 0)), g.pitch_x, g.pitch_y, g.top - rows.start, 1),
        ("right", rows, slice(r.right, width), g.pitch_x, g.pitch_y, g.top - rows.start, 1),
        ("top", slice(0, max(r.top, 0)), cols, g.pitch_y, g.pitch_x, g.left - cols.start, 0),
        ("bottom", slice(r.bottom, height), cols, g.pitch_y, g.pitch_x, g.left - cols.start, 0),
    )
    sides = []
    board = None
    for side, strip_rows, strip_cols, across, pitch, phase, axis in strips:
        strip = image[strip_rows, strip_cols]  # only the strips are turned grey, not the whole screen
        if 0 < strip.shape[axis] < across:
            changes = _edge_changes(grey(strip).astype(np.float32), axis)
            if _changes_on_lines(changes, pitch, phase):
                sides.append(side)
                continue
            board = board or _board_near(image, geometry)
            index = -1 if side in ("top", "left") else (g.rows if axis == 0 else g.cols)
            if _lined_across(board, axis, index, cut=True):  # cells cut short, whatever glyphs they show
                sides.append(side)
    return sides


def _edge_changes(strip: np.ndarray, axis: int) -> np.ndarray:
    """How much a strip changes from one pixel to the next along the board's edge: the median over the
    strip's lines parallel to the edge (a glyph crosses only some of them; a cell boundary, all)."""
    return np.median(np.abs(np.diff(strip, axis=1 - axis)), axis=axis)


def _changes_on_lines(change: np.ndarray, pitch: float, phase: float) -> bool:
    """Whether the changes along a board's edge are many, and mostly where the board's cells meet (within
    an eighth of a cell, at least a pixel and a half, of ``phase + k * pitch``)."""
    if len(change) < 2 * pitch:
        return False
    if float(change.mean()) < CUT_CONTRAST:
        return False
    at = np.arange(len(change)) + 0.5  # a change lies between two pixels
    offset = (at - phase) % pitch
    near = np.minimum(offset, pitch - offset) <= max(1.5, pitch / 8)
    return float(change[near].sum()) >= CUT_ON_LINES * float(change.sum())


def continues(image: np.ndarray, geometry: Geometry) -> list[str]:
    """The sides (``top``, ``bottom``, ``left``, ``right``) of a board found some other way (a skin's
    templates) beyond which its lattice goes on: the strip of cells just outside shows the board's
    structure by the rule :func:`find_grids` grows a board by (faces of the board's sizes, or grid
    lines across it, in the next strip or, past up to :data:`MERGE_CELLS` strips of lines alone, the
    one after them). A reading of such a board is of part of it. Cheap: looks only next to the board.
    """
    board = _board_near(image, geometry)
    ax, ay = board.ax, board.ay
    faces = find_faces(board.gray)
    cx, cy = faces.cx, faces.cy
    inside = (cx >= ax.start) & (cx < ax.line(ax.count)) & (cy >= ay.start) & (cy < ay.line(ay.count))
    like = _sized_like(faces, inside)
    sides = (("top", 0, True), ("bottom", 0, False), ("left", 1, True), ("right", 1, False))
    return [name for name, axis, before in sides if _reach(board, like, axis, before)]


def _board_near(image: np.ndarray, geometry: Geometry) -> _Board:
    """The board at ``geometry`` on the part of the screenshot within the strips :func:`_reach` may look
    at beyond it (and the line after them), with its typical grid-line strengths."""
    height, width = image.shape[:2]
    px, py = geometry.pitch_x, geometry.pitch_y
    region = geometry.region()
    strips = MERGE_CELLS + 1  # strips beyond each side :func:`_reach` may look at
    mx, my = strips * px + 3, strips * py + 3  # and the line after them
    x0, y0 = max(0, int(region.left - mx)), max(0, int(region.top - my))
    x1, y1 = min(width, int(math.ceil(region.right + mx))), min(height, int(math.ceil(region.bottom + my)))
    gray = np.ascontiguousarray(grey(image[y0:y1, x0:x1]))
    ax = _Axis(geometry.left - x0, px, geometry.cols)
    ay = _Axis(geometry.top - y0, py, geometry.rows)
    ex, ey = _steps(gray)
    board = _Board(gray, ex, ey, ax, ay)
    board.typical = {axis: _typical_line(board, axis) for axis in (0, 1)}
    return board
