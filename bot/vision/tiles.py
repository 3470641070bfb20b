"""Covered cells drawn as one picture repeated (a texture, a photo, an emblem): found by repetition alone.

The grid finder (:mod:`bot.vision.grid`) starts from flat cell faces. A covered tile painted with a
texture (grass, wood, a butterfly) has no flat face, and a board whose covered cells are all such
tiles shows no lattice there. But a client draws every covered cell from one image, so the pixels of
each covered cell equal those one pitch to the left or right, and one pitch above or below, exactly
(integer pitches). :func:`tile_faces` finds that pitch, the phase where the repeated cells start, and
gives each repeated cell a face box, which the grid finder links like any other faces.

Cheap: the pitch is searched on a few sampled rows and columns; nothing runs when the screenshot
has little texture.
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.vision.boxes import Boxes

BUSY_STEP = 12
"""Grey step across a pixel's 3x3 neighbourhood above which it is texture (as the grid finder's flat
test, the other way round)."""
MIN_BUSY = 0.02
"""Share of textured pixels below which the screenshot has no textured tiles worth looking for."""
TWIN_LEVELS = 6
"""A pixel and its twin one pitch away are the same when their grey levels differ at most this much."""
MIN_PITCH, MAX_PITCH = 8, 180
"""Pitches looked at, in pixels (as the grid finder's faces: 6-180 px)."""
PITCH_SCORE = 0.5
"""Share of textured pixels equal to their twin one pitch away for that shift to be a tiling (on a
board half opened, covered tiles beside opened cells have no twin there)."""
PITCH_PEAK = 0.1
"""How much more of them must match at the pitch than a pixel either side of it: a tiling repeats at
one exact shift, a smooth picture almost as well at the shifts around it."""
SAMPLE_STEP = 4
"""Every this many rows (columns) is compared when the pitch is searched."""
CANDIDATES = 6
"""Autocorrelation peaks (and their halves and thirds) tried as the pitch."""
TILE_SAME = 0.9
"""Share of a cell's textured pixels equal to those of the cell beside it, and of the cell above or
below, for the cell to be a repeated tile (a board that starts mid-pixel, on a scaled screen, blends
its first and last pixel lines with what lies beyond)."""
TILE_BUSY = 0.1
"""Share of a cell's middle that must be texture: flat cells have faces of their own (and a flat
background repeats at every shift)."""
MIN_TILES = 12
"""Repeated cells needed before they are offered as faces (as the grid finder's smallest group)."""
FACE_INSET = 1 / 6
"""Share of the pitch left off each side of a repeated cell for its face box."""


def tile_faces(
    gray: np.ndarray, pitch: tuple[float, float] | None = None, origin: tuple[float, float] | None = None
) -> Boxes:
    """Face boxes of cells that repeat one picture at one pitch in both axes (none when nothing does).

    ``pitch`` (x, y), when a board's pitch is known from other faces, saves searching for it (and when
    it is fractional, no two tiles are drawn alike: none are looked for). ``origin`` (x, y), a corner of
    some cell, saves searching for the phase too: cheap, and enough to tell whether there are tiles (a
    phase a little off loses only the tiles at the region's edge)."""
    busy = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > BUSY_STEP
    if busy.mean() < MIN_BUSY:
        return _none()
    if pitch is None:
        found_x, found_y = tile_pitch(gray, busy, axis=1), tile_pitch(gray, busy, axis=0)
        if found_x is None or found_y is None:
            return _none()
        px, py = found_x, found_y
    else:
        px, py = round(pitch[0]), round(pitch[1])
        if abs(pitch[0] - px) > 0.05 or abs(pitch[1] - py) > 0.05:
            return _none()
    if origin is None:
        phase, tiles = _best_phase(gray, busy, px, py)
    else:
        phase = (round(origin[0]) % px, round(origin[1]) % py)
        tiles = _matching(_phase_sums(_masks(gray, busy, px, py), phase, px, py), px, py) > 0
    if tiles.sum() < MIN_TILES:
        return _none()
    rows, cols = np.nonzero(tiles)
    inset_x, inset_y = px * FACE_INSET, py * FACE_INSET
    x = phase[0] + cols * px + inset_x
    y = phase[1] + rows * py + inset_y
    n = len(rows)
    w, h = np.full(n, px - 2 * inset_x), np.full(n, py - 2 * inset_y)
    return Boxes(x.astype(np.float64), y.astype(np.float64), w, h)


def tile_pitch(gray: np.ndarray, busy: np.ndarray, axis: int) -> int | None:
    """The smallest shift along ``axis`` (1: x, 0: y) at which nearly every textured pixel of sampled
    lines equals its twin (a tiling's multiples score as well; a texture's own grain scores less).

    The shifts tried are the peaks of the sampled lines' autocorrelation and their whole fractions."""
    g = (gray if axis == 1 else gray.T)[::SAMPLE_STEP].astype(np.float32)
    b = (busy if axis == 1 else busy.T)[::SAMPLE_STEP]
    width = g.shape[1]
    top = min(MAX_PITCH, width // 3)
    if top < MIN_PITCH:
        return None
    centred = (g - g.mean(axis=1, keepdims=True)) * b  # texture only: flat areas say nothing
    size = cv2.getOptimalDFTSize(2 * width)
    spectrum = np.fft.rfft(centred, n=size, axis=1)
    auto = np.fft.irfft((spectrum * spectrum.conj()).real.sum(axis=0), n=size)[: top + 2]
    inner = auto[MIN_PITCH : top + 1]
    peaks = (
        MIN_PITCH
        + np.nonzero((inner >= auto[MIN_PITCH - 1 : top]) & (inner >= auto[MIN_PITCH + 1 : top + 2]))[0]
    )
    if len(peaks) == 0:
        return None
    strongest = peaks[np.argsort(auto[peaks])[::-1][:CANDIDATES]]
    shifts = sorted({int(d) // k for d in strongest for k in (1, 2, 3) if int(d) // k >= MIN_PITCH})
    gi = g.astype(np.int16)
    scores = {}
    for d in shifts:
        score = _twin_share(gi, b, d)
        if (
            score >= PITCH_SCORE
            and score >= max(_twin_share(gi, b, d - 1), _twin_share(gi, b, d + 1)) + PITCH_PEAK
        ):
            scores[d] = score
    if not scores:
        return None
    best = max(scores.values())
    return min(d for d, score in scores.items() if score >= 0.95 * best)


def _twin_share(g: np.ndarray, busy: np.ndarray, d: int) -> float:
    """Share of textured pixels (textured at both ends) equal to their twin ``d`` further along."""
    both = busy[:, d:] & busy[:, :-d]
    count = int(both.sum())
    if count == 0:
        return 0.0
    return float(((np.abs(g[:, d:] - g[:, :-d]) <= TWIN_LEVELS) & both).sum()) / count


def _twins(gray: np.ndarray, busy: np.ndarray, pitch: int, axis: int) -> tuple[np.ndarray, ...]:
    """Pixels equal to the pixel one pitch further along ``axis``: all of them, those textured here, and
    those whose twin is textured (counted from the cell before, for its match with the cell after)."""
    equal = np.zeros(gray.shape, bool)
    there = np.zeros(gray.shape, bool)
    if axis == 1:
        equal[:, :-pitch] = cv2.absdiff(gray[:, pitch:], gray[:, :-pitch]) <= TWIN_LEVELS
        there[:, :-pitch] = busy[:, pitch:]
    else:
        equal[:-pitch] = cv2.absdiff(gray[pitch:], gray[:-pitch]) <= TWIN_LEVELS
        there[:-pitch] = busy[pitch:]
    return equal, equal & busy, equal & there


def _masks(gray: np.ndarray, busy: np.ndarray, px: int, py: int) -> np.ndarray:
    """The twin masks of both axes (see :func:`_twins`) and ``busy``, stacked: (7, h, w) uint8."""
    return np.stack([*_twins(gray, busy, px, axis=1), *_twins(gray, busy, py, axis=0), busy]).view(np.uint8)


def _best_phase(gray: np.ndarray, busy: np.ndarray, px: int, py: int) -> tuple[tuple[int, int], np.ndarray]:
    """The lattice phase (x, y) at which cells repeat best, and which cells are repeated tiles there.

    Inside a region of repeated tiles every phase finds whole cells; only where the region ends do the
    cells of a wrong phase straddle its edge and match less, and the further off, the less: the phase
    whose cells match most in all is the right one. A wrong y phase costs along the region's top and
    bottom whatever the x phase, so x is chosen first (at y phase 0), then y."""
    integrals = [cv2.integral(m) for m in _masks(gray, busy, px, py)]
    x_scores = [_matching(_integral_sums(integrals, (ox, 0), px, py), px, py).sum() for ox in range(px)]
    ox = int(np.argmax(x_scores))
    y_scores = [_matching(_integral_sums(integrals, (ox, oy), px, py), px, py).sum() for oy in range(py)]
    oy = int(np.argmax(y_scores))
    return (ox, oy), _matching(_integral_sums(integrals, (ox, oy), px, py), px, py) > 0


def _integral_sums(integrals: list[np.ndarray], phase: tuple[int, int], px: int, py: int) -> np.ndarray:
    """Each mask's sum over each cell of the lattice at ``phase``, from integral images, and the textured
    pixels' sum over each cell's middle (:func:`_middle`): (8, rows, cols)."""
    h, w = integrals[0].shape[0] - 1, integrals[0].shape[1] - 1
    xs = np.arange(phase[0], w - px + 1, px)
    ys = np.arange(phase[1], h - py + 1, py)

    def box(s: np.ndarray, x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
        return (
            s[y1[:, None], x1[None, :]]
            - s[y0[:, None], x1[None, :]]
            - s[y1[:, None], x0[None, :]]
            + s[y0[:, None], x0[None, :]]
        )

    (mx0, mx1), (my0, my1) = _middle(px), _middle(py)
    whole = [box(s, xs, ys, xs + px, ys + py) for s in integrals]
    return np.stack([*whole, box(integrals[-1], xs + mx0, ys + my0, xs + mx1, ys + my1)])


def _phase_sums(masks: np.ndarray, phase: tuple[int, int], px: int, py: int) -> np.ndarray:
    """Each mask's sum over each whole cell of the lattice at ``phase``, and the textured pixels' sum over
    each cell's middle (:func:`_middle`): (8, rows, cols)."""
    ox, oy = phase
    rows, cols = (masks.shape[1] - oy) // py, (masks.shape[2] - ox) // px
    cells = masks[:, oy : oy + rows * py, ox : ox + cols * px].reshape(len(masks), rows, py, cols, px)
    (mx0, mx1), (my0, my1) = _middle(px), _middle(py)
    middle = cells[-1, :, my0:my1, :, mx0:mx1].sum(axis=(1, 3), dtype=np.int32)
    return np.concatenate([cells.sum(axis=(2, 4), dtype=np.int32), middle[None]])


def _middle(pitch: int) -> tuple[int, int]:
    """A cell's middle along one axis, [start, end): without the :data:`FACE_INSET` at each end, where
    lines, bevels and gaps are drawn."""
    inset = round(pitch * FACE_INSET)
    return inset, pitch - inset


def _matching(sums: np.ndarray, px: int, py: int) -> np.ndarray:
    """How well each cell repeats, from the masks' sums per cell (see :func:`_masks`): (rows, cols).

    A cell repeats a neighbour when its pixels, and its textured pixels alone, equal their twins in that
    whole cell (at least :data:`TILE_SAME` of each: a frame line on a plain background is no tile, nor
    is a strip across a board's edge whose lines match the last tile's and whose rest is background).
    The result is the share of pixels matching the better such neighbour, left or right, or above or
    below, whichever axis matches less; 0 for a cell with little texture in its middle (a plain opened
    cell, or a frame, repeats its lines and bevels: those are at a cell's edge, a picture fills it) or
    no such neighbour (opened cells and the window around say nothing of the phase)."""
    x_all, x_here, x_there, y_all, y_here, y_there, busy, middle = sums.astype(np.float64)
    area = float(px * py)
    (mx0, mx1), (my0, my1) = _middle(px), _middle(py)
    textured = np.maximum(busy, 1.0)

    def twin(whole: np.ndarray, texture: np.ndarray) -> np.ndarray:
        """The share of pixels equal to one neighbour's, where it is a twin in both measures, else 0."""
        same = whole / area
        return np.where((same >= TILE_SAME) & (texture / textured >= TILE_SAME), same, 0.0)

    def before(values: np.ndarray, axis: int) -> np.ndarray:
        """The values of the cell before each cell along ``axis`` (0 for the first)."""
        out = np.zeros_like(values)
        if axis == 1:
            out[:, 1:] = values[:, :-1]
        else:
            out[1:] = values[:-1]
        return out

    across = np.maximum(twin(x_all, x_here), twin(before(x_all, 1), before(x_there, 1)))
    down = np.maximum(twin(y_all, y_here), twin(before(y_all, 0), before(y_there, 0)))
    textured_middle = middle >= TILE_BUSY * (mx1 - mx0) * (my1 - my0)
    return np.where(textured_middle, np.minimum(across, down), 0.0)


def _none() -> Boxes:
    empty = np.zeros(0, np.float64)
    return Boxes(empty, empty, empty, empty)
