"""Check a proposed lattice against the board's own pixels: its phase and pitch from the grey steps
folded on it, faces no boundary may cross, pitches that are a multiple of the board's (step 3 of
:mod:`bot.vision.grid`)."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from bot.vision.boxes import Boxes
from bot.vision.propose import (
    MIN_FACE,
    MIN_GROUP,
    _Axis,
    _face_shaped,
    _fit_axis,
    _kinds,
    _pitch_slack,
    amplified,
    flat_mask,
)

CUT_DEPTH = 2
"""Pixels a cell boundary must lie inside a flat face (from either end) to cut it (not a rounding)."""


CUT_SHARE = 0.5
"""Share of a board's faces its boundaries may cut before its lattice is taken to be off its phase."""


SOLID = 0.45
"""Least share of its bounding box a flat part fills to be a face (a ring around a digit is one; a thin
frame is not)."""
SEAM_SHARE = 0.25
"""Steps inside a line (between its two sides) must be below this share of its peak."""


LINE_PAIR = 0.6
"""A step 1-2 px from a boundary's peak this close to it is a line's other side: the boundary goes
mid-line."""


LINE_SHARE = 0.25
"""A boundary counts as a line when its step is at least this share of the board's typical one."""


SEAM_ENDS = {0.5: (0, 1), -2.0: (-2, 0)}
"""Boundaries :func:`_seam_offset` puts mid-way between two places the steps cannot choose from (a 1-px
line: before or after it; a 2-px dark band then a light one: a line's start, or a bevelled tile's
shadow ending where the next tile's highlight starts), and those places (offsets from the peak)."""


SHARED_SPREAD = 0.01
"""A pixel beside the boundaries whose grey spreads less than this over them all is the same at every
boundary (a line every cell shares), whoever's it is."""


def _steps(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Grey steps into each pixel from its left (``ex``) and from above (``ey``), uint8."""
    ex = np.zeros_like(gray)
    ey = np.zeros_like(gray)
    ex[:, 1:] = cv2.absdiff(gray[:, 1:], gray[:, :-1])
    ey[1:, :] = cv2.absdiff(gray[1:, :], gray[:-1, :])
    return ex, ey


def flat_parts(gray: np.ndarray) -> Boxes:
    """Every solid flat part of a grey image (at full size, any size), on the image and on its detail
    amplified (:func:`bot.vision.propose.amplified`: a checkerboard's cells with no line between them):
    a cell's face, covered or opened, is one that fills most of its cell and no more
    (:func:`bot.vision.extent._cells_filled`)."""
    found = []
    for image in (gray, amplified(gray)):
        _, _, stats, _ = cv2.connectedComponentsWithStats(flat_mask(image), connectivity=4)
        found.append(stats[1:])
    stats = np.concatenate(found)
    x, y, bw, bh, area = (stats[:, i].astype(np.float64) for i in range(5))
    keep = (bw >= 2 * MIN_FACE) & (bh >= 2 * MIN_FACE) & (area >= SOLID * bw * bh)
    return Boxes(x[keep], y[keep], bw[keep], bh[keep])


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
        self._flat: Boxes | None = None  # :meth:`flat_parts`, found once

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

    def flat_parts(self) -> Boxes:
        """:func:`flat_parts` of the board's image, found once."""
        if self._flat is None:
            self._flat = flat_parts(self.gray)
        return self._flat

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


def _set(board: _Board, axis: int, value: _Axis) -> None:
    if axis == 0:
        board.ay = value
    else:
        board.ax = value
