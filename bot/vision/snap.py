"""A candidate lattice checked against a skin: snapped to the skin's templates, judged by how surely its
cells read, and extended by the strips beside it that read as the skin's cells (steps 3-4 of
:mod:`bot.vision.locate`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bot.geometry import Geometry
from bot.skin import Skin
from bot.vision.classify import (
    MAX_DISTANCE,
    CellReading,
    classify_cells,
    nearest_distances,
    rim_distance,
)
from bot.vision.tiles import MIN_PITCH

SHIFT_DISTANCE = 8.0
"""Median RMS distance (0-255) of a found board's cells to their templates above which its colours
may be shifted and a shift is estimated. Measured: 0-2 on the real captures, 15-21 on them through the
night-light tint; a lost board showing states the skin lacks has unsure cells but a low median."""


MAX_UNCERTAIN_FRACTION = 0.2
"""A candidate grid with more uncertain cells than this is not a board (clutter that looked regular)."""


MAX_UNSEEN_FRACTION = 0.5
"""The same limit for a skin that lacks states: a lost game shows a quarter of its cells as mines the
skin may never have seen, and such a board must be found (and its reading refused), not missed."""


def _too_uncertain(reading: CellReading, skin: Skin) -> bool:
    """True when a grid has too many unreadable cells to be a board in this skin."""
    limit = MAX_UNSEEN_FRACTION if skin.missing_states() else MAX_UNCERTAIN_FRACTION
    return float(reading.uncertain_mask().mean()) > limit


def _off_colour(reading: CellReading) -> bool:
    """True when a board's cells sit far from their templates (its colours may be shifted)."""
    return float(np.median(reading.distance)) > SHIFT_DISTANCE


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


SNAP_BAND = 4
"""Rows (columns) across the board's middle whose cells' fit decides a snap along x (y)."""


SNAP_STEPS = 4
"""Most whole pixels a snap moves either end of the grid."""


SNAP_GAIN = 0.1
"""Least fall in the cells' mean distance (a fraction) for which a snap moves the grid at all: a small
gain is within noise, and the face fit's sub-pixel edges are the better estimate then (classic at
scale 2.04 gains 5% by trimming a pixel it should not)."""


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


def _too_fine(geometry: Geometry) -> bool:
    """Whether a lattice is finer than any board's (:data:`~bot.vision.tiles.MIN_PITCH`): blobs of text
    or a dither a pixel or two apart fit one, and a strip one such pitch wide has no pixels to read."""
    return min(geometry.pitch_x, geometry.pitch_y) < MIN_PITCH
