"""Propose board lattices from a screenshot's periodic structure, with no skin: flat cell faces and the
lattices their links one pitch apart make (steps 1-2 of :mod:`bot.vision.grid`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from bot.vision.boxes import Boxes

LOGGER = logging.getLogger(__name__)


FLAT_STEP = 12
"""Largest grey step (0-255) across a pixel's 4-neighbourhood for it to count as flat."""


SMOOTH_STEP = 3
"""The same on the [1 2 1]-smoothed image: dithered tiles are flat there, 1-px lines are not."""


FINE_GAIN = 3.0
"""How much :func:`amplified` magnifies the grey image's detail when no faces stand apart at first:
two shades 5 levels apart with no line between them are then 15 apart, a step beyond :data:`FLAT_STEP`,
while a 2-level noise stays flat."""


FINE_SIGMA = 6.0
"""The local mean :func:`amplified` takes the detail from (px)."""


MIN_FACE = 3
"""Smallest face side on the half-size mask (6 px at full size: a 12 px cell with its bevel)."""


FACE_ASPECT = 1.7
"""Most a face's length may be over its width when no board comes of square faces: cells may be wider
than tall (a 21x15 px cell with a 2 px bevel has a 17x11 face). Only then: a keypad's keys are as
long, and a board of square cells found is never traded for one."""
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


def amplified(gray: np.ndarray) -> np.ndarray:
    """The grey image's local detail times :data:`FINE_GAIN` around its local mean: cells whose shades
    are a few levels apart with nothing between them (a flat checkerboard, a flat tile beside its
    neighbour) are then as far apart as a grid line makes them, while a large-scale gradient is gone."""
    local = cv2.GaussianBlur(gray, (0, 0), FINE_SIGMA).astype(np.float32)
    out = 128 + FINE_GAIN * (gray.astype(np.float32) - local)
    return np.clip(out, 0, 255).round().astype(np.uint8)


def find_faces(gray: np.ndarray, aspect: float | None = None) -> Boxes:
    """Roughly square flat blobs (or up to ``aspect`` times as long as wide: :func:`_face_shaped`),
    found on the half-size flat mask (their sizes in full pixels)."""
    half = half_flat_mask(gray)
    _, _, stats, _ = cv2.connectedComponentsWithStats(half, connectivity=4)
    x, y, bw, bh, area = (stats[1:, i] for i in range(5))
    sized = (bw >= MIN_FACE) & (bh >= MIN_FACE) & (bw <= MAX_FACE) & (bh <= MAX_FACE)
    keep = sized & _face_shaped(bw, bh, area, aspect)
    s = stats[1:][keep].astype(np.float64) * 2
    return Boxes(s[:, 0], s[:, 1], s[:, 2], s[:, 3])


def _face_shaped(bw: np.ndarray, bh: np.ndarray, area: np.ndarray, aspect: float | None = None) -> np.ndarray:
    """Which flat blobs (bounding box ``bw`` x ``bh``, ``area`` pixels) are solid and roughly square
    (sides a quarter apart), or, given ``aspect``, no more than that many times as long one way as the
    other (a pixel of slack)."""
    solid = area >= 0.45 * bw * bh
    long, short = np.maximum(bw, bh), np.minimum(bw, bh)
    if aspect is not None:
        return solid & (long <= aspect * short + 1)
    return solid & (long - short <= np.maximum(1, 0.25 * long))


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
