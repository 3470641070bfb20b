"""Find a Minesweeper grid on a screenshot from the pixels alone, with no template.

Cells repeat, so their boundaries make the edge profile periodic. :func:`find_grid`:

1. sums horizontal and vertical colour edges into column and row profiles and takes the pitch from
   their autocorrelation (the smallest strong peak, so a multiple of the pitch is never chosen);
2. marks each cell slot of that lattice whose left and top boundaries are real edges along most of
   their length, and takes the largest all-marked rectangle as the board;
3. refines pitch and phase to a fraction of a pixel over the board's own lines (so a 32.5 px pitch,
   drawn as alternating 32/33 px cells, comes out as 32.5), and
4. among phases one pixel either side, keeps the one whose cut cells fall into the fewest look-alike
   groups: cells cut at the wrong phase carry a sliver of their neighbour and stop looking alike.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import numpy as np

from bot.errors import BoardNotFoundError
from bot.geometry import Geometry
from bot.vision.grid import MIN_SIDE

LOGGER = logging.getLogger(__name__)

MIN_PITCH = 7
"""Smallest cell pitch looked for, in pixels."""
MAX_PITCH = 160
RIM_STEP = 10.0
"""Rim-cell differences (0-255) closer than this count as equal when choosing the grid's phase."""
MIN_EDGE = 6.0
"""A cell boundary must be at least this strong (mean colour step, 0-255) along its length."""


@dataclass(frozen=True)
class Axis:
    """The lattice along one axis: boundary ``i`` is at ``round(phase + i * pitch)``."""

    pitch: float
    phase: float

    def line(self, i: int) -> int:
        return round(self.phase + i * self.pitch)


def edge_maps(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Colour steps into each pixel from its left (``ex``) and from above (``ey``), mean over channels."""
    img = image.astype(np.float32)
    if img.ndim == 2:
        img = img[:, :, None]
    ex = np.zeros(img.shape[:2], np.float32)
    ey = np.zeros(img.shape[:2], np.float32)
    ex[:, 1:] = np.abs(np.diff(img, axis=1)).mean(axis=2)
    ey[1:, :] = np.abs(np.diff(img, axis=0)).mean(axis=2)
    return ex, ey


def pitch_candidates(
    profile: np.ndarray, min_pitch: int = MIN_PITCH, max_pitch: int = MAX_PITCH
) -> list[int]:
    """Integer periods of an edge profile worth trying: strong autocorrelation peaks, smallest first."""
    n = len(profile)
    hi = min(max_pitch, n // 3)
    if hi <= min_pitch:
        return []
    p = np.convolve(profile, np.array([0.25, 0.5, 0.25]), mode="same")  # half-pixel shifts still correlate
    p = p - p.mean()
    spectrum = np.fft.rfft(p, 2 * n)
    ac = np.fft.irfft(spectrum * np.conj(spectrum))[:n]
    ac = ac / np.maximum(n - np.arange(n), 1)
    if ac[0] <= 0:
        return []
    peaks = [
        lag
        for lag in range(min_pitch, hi + 1)
        if ac[lag] > 0 and ac[lag] >= ac[lag - 1] and ac[lag] >= ac[min(lag + 1, n - 1)]
    ]
    if not peaks:
        return []
    best = max(ac[lag] for lag in peaks)
    if best < 0.05 * ac[0]:
        return []
    return [lag for lag in peaks if ac[lag] >= 0.4 * best]


def _shift_costs(gray: np.ndarray, axis: int, lags: list[int]) -> dict[int, float]:
    """Mean absolute difference between the image and itself shifted by each lag along ``axis``."""
    img = gray if axis == 0 else gray.T
    n = img.shape[0]
    return {d: float(np.abs(img[d:] - img[: n - d]).mean()) for d in lags if 0 < d < n}


def estimate_pitch(
    profile: np.ndarray, image: np.ndarray | None = None, axis: int = 0, min_pitch: int = MIN_PITCH
) -> int | None:
    """The integer cell pitch along ``axis``: of the edge profile's periods, the smallest at which the
    image matches itself about as well as at the best one (a divisor of the pitch does not; a
    multiple does, but is larger)."""
    candidates = pitch_candidates(profile, min_pitch)
    if not candidates:
        return None
    if image is None or len(candidates) == 1:
        return candidates[0]
    gray = image.astype(np.float32).mean(axis=2) if image.ndim == 3 else image.astype(np.float32)
    gray = gray[::2, :] if axis == 1 else gray[:, ::2]
    costs = _shift_costs(gray, axis, list(range(1, max(candidates) + 5)))

    def prominence(c: int) -> float:
        # How far the image's self-match dips at this shift below the shifts 3 px either side.
        dip = min(costs.get(d, np.inf) for d in (c - 1, c, c + 1))
        return 0.5 * (costs.get(c - 3, np.inf) + costs.get(c + 3, np.inf)) - dip

    depth = {c: prominence(c) for c in candidates}
    top = max(depth.values())
    if top <= 0:
        return candidates[0]
    return next(c for c in candidates if depth[c] >= 0.5 * top)


def _fold_phase(profile: np.ndarray, pitch: float) -> float:
    """The phase (0..pitch) where the comb of lines ``pitch`` apart collects the most edge."""
    smooth = np.convolve(profile, np.array([1.0, 2.0, 1.0]) / 4, mode="same")
    phases = np.arange(0.0, pitch, 0.25)
    pos = phases[:, None] + pitch * np.arange(int(len(profile) / pitch))[None, :]
    score = np.interp(pos, np.arange(len(smooth)), smooth, right=0.0).sum(axis=1)
    return float(phases[int(np.argmax(score))])


def _boundary_strength(edges: np.ndarray, at: int, span: tuple[int, int]) -> float:
    """Median over ``span`` of the strongest step within one pixel of line ``at`` (rows of ``edges``)."""
    lo, hi = max(at - 1, 0), min(at + 2, edges.shape[0])
    if lo >= hi or span[1] <= span[0]:
        return 0.0
    return float(np.median(edges[lo:hi, span[0] : span[1]].max(axis=0)))


def _slot_map(ex: np.ndarray, ey: np.ndarray, ax: Axis, ay: Axis) -> tuple[np.ndarray, int, int]:
    """For every lattice slot, whether its left and top boundaries are real edges; plus the first indices."""
    h, w = ex.shape
    c0 = -int(np.floor(ax.phase / ax.pitch))
    r0 = -int(np.floor(ay.phase / ay.pitch))
    cols = [c for c in range(c0, c0 + int(w / ax.pitch) + 2) if ax.line(c) >= 0 and ax.line(c + 1) <= w]
    rows = [r for r in range(r0, r0 + int(h / ay.pitch) + 2) if ay.line(r) >= 0 and ay.line(r + 1) <= h]
    if not cols or not rows:
        return np.zeros((0, 0), bool), 0, 0
    left = np.zeros((len(rows), len(cols)), np.float32)
    top = np.zeros_like(left)
    exT = ex.T
    for i, r in enumerate(rows):
        y0, y1 = ay.line(r), ay.line(r + 1)
        ym = (y0 + (y1 - y0) // 5, y1 - (y1 - y0) // 5)
        for j, c in enumerate(cols):
            x0, x1 = ax.line(c), ax.line(c + 1)
            xm = (x0 + (x1 - x0) // 5, x1 - (x1 - x0) // 5)
            left[i, j] = _boundary_strength(exT, x0, ym)
            top[i, j] = _boundary_strength(ey, y0, xm)
    strong = np.concatenate([left.ravel(), top.ravel()])
    threshold = max(MIN_EDGE, 0.1 * float(np.percentile(strong, 90)))
    return (left >= threshold) & (top >= threshold), rows[0], cols[0]


def largest_rectangle(mask: np.ndarray) -> tuple[int, int, int, int]:
    """The largest all-true axis-aligned rectangle of a bool grid: ``(row, col, rows, cols)``."""
    best = (0, 0, 0, 0)
    heights = np.zeros(mask.shape[1] + 1, int)
    for r in range(mask.shape[0]):
        heights[:-1] = np.where(mask[r], heights[:-1] + 1, 0)
        stack: list[int] = []
        for c in range(len(heights)):
            while stack and heights[stack[-1]] >= heights[c]:
                h = heights[stack.pop()]
                start = stack[-1] + 1 if stack else 0
                if h * (c - start) > best[2] * best[3]:
                    best = (r - h + 1, start, int(h), c - start)
            stack.append(c)
    return best


def self_pitch(board: np.ndarray, pitch: float, axis: int, max_cells: int | None = None) -> float:
    """The pitch along ``axis`` (0 rows, 1 columns) of a board crop, to a small fraction of a pixel.

    The board matches itself shifted by k cells (lines always line up, and many cells repeat); the
    best integer shift near ``k * pitch`` is refined with a parabola, and a line through those shifts
    gives the pitch. Independent of which cells happen to sit where, unlike edge peaks.
    """
    img = board.astype(np.float32)
    if img.ndim == 3:
        img = img.mean(axis=2)
    if axis == 1:
        img = img.T
    n = img.shape[0]
    ks, shifts = [], []
    for k in range(1, min(int(n / pitch), max_cells or n)):
        centre = round(k * pitch)
        cand = [d for d in range(centre - 3, centre + 4) if 0 < d < n - 2]
        if len(cand) < 3:
            continue
        cost = np.array([np.abs(img[d:] - img[: n - d]).mean() for d in cand])
        i = int(np.argmin(cost))
        if 0 < i < len(cand) - 1:
            a, b, c = cost[i - 1], cost[i], cost[i + 1]
            shift = cand[i] + (0.5 * (a - c) / (a - 2 * b + c) if a - 2 * b + c > 0 else 0.0)
            ks.append(k)
            shifts.append(shift)
    if len(ks) < 2:
        return pitch
    slope = float(np.sum(np.array(ks) * np.array(shifts)) / np.sum(np.array(ks) ** 2))
    return slope if abs(slope - pitch) < 1.0 else pitch


def _refine(profile: np.ndarray, axis: Axis, count: int, pitch_span: float = 1.0) -> Axis:
    """Sub-pixel pitch and phase that put ``count + 1`` boundaries on the strongest edges.

    The profile is smoothed and sampled between pixels, so the best comb is unique and a 32.5 px
    pitch is told from 32 and 33 by where its later lines fall.
    """
    smooth = np.convolve(profile, np.array([1.0, 2.0, 1.0]) / 4, mode="same")
    best = (-1.0, axis)
    for span, step in ((pitch_span, 0.02), (0.03 * (pitch_span > 0), 0.002)):
        pitches = np.arange(axis.pitch - span, axis.pitch + span + step / 2, step)
        phases = np.arange(axis.phase - 1.5, axis.phase + 1.5001, 0.05)
        pos = phases[None, :, None] + pitches[:, None, None] * np.arange(count + 1)[None, None, :]
        score = np.interp(pos, np.arange(len(smooth)), smooth, left=0.0, right=0.0).sum(axis=2)
        i, j = np.unravel_index(int(np.argmax(score)), score.shape)
        if score[i, j] > best[0]:
            best = (float(score[i, j]), Axis(float(pitches[i]), float(phases[j])))
        axis = best[1]
    return best[1]


def _lattice(image: np.ndarray, ex: np.ndarray, ey: np.ndarray) -> tuple[Axis, Axis]:
    """A sub-pixel lattice for each axis over the whole screenshot (the board dominates it)."""
    px = estimate_pitch(ex.mean(axis=0), image, 1)
    py = estimate_pitch(ey.mean(axis=1), image, 0)
    if px is None or py is None:
        raise BoardNotFoundError("no repeating grid of cells found (the screenshot has no periodic edges)")
    # Cells are square in every client we know: an axis that settled on a multiple of the other's
    # pitch (few rows, a busy header) takes the other's, if its own profile has that period too.
    small, large = sorted((px, py))
    ratio = large / small
    if round(ratio) >= 2 and abs(ratio - round(ratio)) * small <= 1.5:
        profile = ey.mean(axis=1) if py == large else ex.mean(axis=0)
        if any(abs(c - small) <= 1 for c in pitch_candidates(profile)):
            px = py = small
    return _global_axis(image, ex.mean(axis=0), px, 1), _global_axis(image, ey.mean(axis=1), py, 0)


def _global_axis(image: np.ndarray, profile: np.ndarray, pitch: int, axis: int) -> Axis:
    """The axis's fine pitch from self-similarity, then the phase that best fits the edge profile."""
    fine = self_pitch(image, pitch, axis, max_cells=5)  # short shifts: the board surely overlaps itself
    return Axis(fine, _fold_phase(profile, fine))


def find_grid(image: np.ndarray) -> Geometry:
    """The board's geometry on ``image`` (BGR), from two finders that see the grid differently:
    :func:`bot.vision.grid.find_grid` (the skinless finder minebot reads with: cell faces, then the
    board's extent from its own structure) and :func:`find_lattice` (periodic cell boundaries).
    Where they agree on the board's size, the lattice's cut stands; where they differ, the larger
    board wins (a finder that stops short of the board is the usual failure), refined like the
    lattice's: pitch over the board's self-match, then the cut that groups the cells best.

    Raises:
        BoardNotFoundError: when neither finds a grid.
    """
    from bot.vision.grid import find_grid as find_board_grid

    try:
        lattice: Geometry | None = find_lattice(image)
    except BoardNotFoundError:
        lattice = None
    try:
        g = find_board_grid(image).geometry
    except BoardNotFoundError:
        if lattice is None:
            raise
        return lattice
    if lattice is not None and (
        (lattice.rows, lattice.cols) == (g.rows, g.cols) or lattice.rows * lattice.cols > g.rows * g.cols
    ):
        return lattice
    ex, ey = edge_maps(image)
    refined = _fit(image, ex, ey, round(g.left), round(g.top), g.pitch_x, g.pitch_y, g.rows, g.cols)
    return _best_phase(image, refined)


def find_lattice(image: np.ndarray) -> Geometry:
    """The board's geometry on ``image`` (BGR), found from its periodic cell boundaries alone.

    Raises:
        BoardNotFoundError: when no grid of at least :data:`~bot.vision.grid.MIN_SIDE` cells each way is
            found (the least ``play`` takes for a board: a strip of buttons and text fields is none).
    """
    ex, ey = edge_maps(image)
    ax, ay = _lattice(image, ex, ey)
    mask, r_first, c_first = _slot_map(ex, ey, ax, ay)
    r, c, rows, cols = largest_rectangle(mask)
    if rows < MIN_SIDE or cols < MIN_SIDE:
        raise BoardNotFoundError(
            f"no board of at least {MIN_SIDE}x{MIN_SIDE} cells found (the largest block of like cells is "
            f"{rows}x{cols}, pitch {ax.pitch:.2f} px)"
        )
    y0, x0 = ay.line(r_first + r), ax.line(c_first + c)
    # The phase first: cells cut a pixel off carry their neighbour's line, so rim cells (whose outer
    # line is the frame) would not look like the board's and the board would not grow to them.
    geometry = _best_phase(image, _fit(image, ex, ey, x0, y0, ax.pitch, ay.pitch, rows, cols))
    grown = _extend(image, geometry)
    if grown != geometry:
        geometry = _best_phase(image, grown)
    LOGGER.info(
        "grid: %dx%d cells, pitch %.3fx%.3f px, top-left (%.2f, %.2f)",
        geometry.rows,
        geometry.cols,
        geometry.pitch_x,
        geometry.pitch_y,
        geometry.left,
        geometry.top,
    )
    return geometry


def _fit(
    image: np.ndarray,
    ex: np.ndarray,
    ey: np.ndarray,
    x0: int,
    y0: int,
    pitch_x: float,
    pitch_y: float,
    rows: int,
    cols: int,
) -> Geometry:
    """Sub-pixel pitch (from the board's self-match) and phase (from its edges) of a board at (x0, y0)."""
    x1, y1 = round(x0 + cols * pitch_x), round(y0 + rows * pitch_y)
    crop = image[y0:y1, x0:x1]
    px, py = self_pitch(crop, pitch_x, 1), self_pitch(crop, pitch_y, 0)
    fx = _refine(ex[y0:y1].mean(axis=0), Axis(px, x0), cols, pitch_span=0.0)
    fy = _refine(ey[:, x0:x1].mean(axis=1), Axis(py, y0), rows, pitch_span=0.0)
    return Geometry(fx.phase, fy.phase, fx.pitch, fy.pitch, rows, cols)


def _fits(image: np.ndarray, geometry: Geometry) -> bool:
    region = geometry.region()
    h, w = image.shape[:2]
    return region.left >= 0 and region.top >= 0 and region.right <= w and region.bottom <= h


def _extend(image: np.ndarray, geometry: Geometry) -> Geometry:
    """Grow the board a row or column at a time while the new cells look like cells already in it.

    Boundaries at the board's rim can be faint (a bevel the colour of the frame), so the edge map
    may miss the outer row; the cells themselves still repeat.
    """
    from calibration.cluster import alike_fraction

    changed = True
    while changed:
        changed = False
        g = geometry
        for cand, strip in (
            (replace(g, top=g.top - g.pitch_y, rows=g.rows + 1), (0, 1, 0, g.cols)),
            (replace(g, rows=g.rows + 1), (g.rows, g.rows + 1, 0, g.cols)),
            (replace(g, left=g.left - g.pitch_x, cols=g.cols + 1), (0, g.rows, 0, 1)),
            (replace(g, cols=g.cols + 1), (0, g.rows, g.cols, g.cols + 1)),
        ):
            if _fits(image, cand) and alike_fraction(image, cand, strip) >= 0.8:
                geometry, changed = cand, True
                break
    return geometry


def _best_phase(image: np.ndarray, geometry: Geometry) -> Geometry:
    """The geometry shifted up to 2 px per axis (one axis at a time) whose cells fall into the fewest
    groups: a cut through the wrong pixel carries a sliver of the neighbour, which splits groups.

    Among shifts with as few groups, the one whose rim cells look most like the board's inner cells:
    cut a pixel late, every cell carries its neighbour's line but the last row carries the frame, so
    a skin made from it would not read the board's edge (bot.vision stops the board there).
    """
    from calibration.cluster import count_groups

    best = geometry
    for axis in ("x", "y"):
        scored = []
        for d in (0, -1, 1, -2, 2):
            shifted = best.offset(d, 0) if axis == "x" else best.offset(0, d)
            if _fits(image, shifted):
                scored.append(
                    (count_groups(image, shifted), _rim_cost(image, shifted, axis), abs(d), shifted)
                )
        best = min(scored, key=lambda t: t[:3])[3]
    return best


def _rim_cost(image: np.ndarray, geometry: Geometry, axis: str) -> float:
    """How unlike the inner cells the first and last cells along ``axis`` are (the worse rim's median
    98th-percentile difference to the nearest inner cell, in steps of :data:`RIM_STEP`: a sub-pixel
    nudge is no reason to move, a sliver of frame in every rim cell is)."""
    from calibration.cluster import cut_cells, features, nearest

    size = max(round(min(geometry.pitch_x, geometry.pitch_y)), 4)
    tiles = cut_cells(image, geometry, size)
    if axis == "x":
        tiles = tiles.transpose(1, 0, 2, 3, 4)
    if tiles.shape[0] < 3:
        return 0.0
    inner = features(tiles[1:-1].reshape(-1, size, size, 3))
    costs = []
    for rim in (tiles[0], tiles[-1]):
        _, _, peaks = nearest(features(rim), inner)
        costs.append(float(np.median(peaks)))
    return float(max(costs) // RIM_STEP)
