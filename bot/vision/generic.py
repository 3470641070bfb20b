"""Read every cell with no skin: group the board's own cells, then name the groups by structure.

Why: a client minebot has no skin for should still be readable when it follows the usual
conventions. Nothing here is fitted to one client's colours; the board's own logic decides what
structure alone cannot, and anything still unsure is refused (:class:`RecognitionError`), never guessed.

1. **Cut.** Every cell is resampled to ``TILE`` pixels square at the same sub-pixel positions (so
   32/33 px cells of a fractional pitch come out alike), after a light blur that removes dithering.
2. **Group.** Cells that look alike (small mean difference, no strong local difference) form one
   group; each group is one state.
3. **Plain or glyph.** A group whose core is a flat colour or a smooth ramp is *plain* (a covered
   cell, or a revealed 0); others carry a *glyph*, taken as ink against the plain group whose rim
   (bevel, grid line, fill) matches, or against the cell's own background (a red exploded cell).
4. **Glyph shape.** A cross over the cell is a wrong flag; a four-fold symmetric, square glyph is a
   mine; a glyph near a digit shape (:mod:`bot.vision.glyphs`) is a digit whose value the whole board
   settles (:mod:`bot.vision.digits`: the digits its shape allows, narrowed by the counting rules, one
   colour per digit and the solver's exact count); anything else on a covered cell is a flag.
5. **Kinds.** Plain groups of one colour are one kind. Kinds carrying digits are revealed, kinds that
   are raised (bevelled light top-left), textured or carry flags are covered; whatever is left is
   settled by the board's logic (a 0 touches no covered cell, a number needs that many covered or
   flagged neighbours) only when exactly one way fits.
6. **Check.** The whole reading must be a possible Minesweeper position; otherwise it is refused,
   naming the cell.

Successive frames of one game reuse the named groups (:class:`GenericModel`): a cell that looks like
a group already named takes its state at once, and only new looks are named afresh.

>>> from bot.board import Board
>>> from bot.render import render_screen
>>> board = Board.from_text("1F1\\n111\\n000", mines=1)
>>> image, geometry = render_screen(board, "classic", 1.25, seed=1)
>>> print(read_cells(image, geometry).board(1))
1F1
111
000
"""

from __future__ import annotations

import itertools
import logging
import math
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from bot.board import Board, Cell
from bot.errors import RecognitionError
from bot.geometry import Geometry
from bot.solver.rules import count_around
from bot.vision.classify import CellReading
from bot.vision.digits import (
    DIGIT_LOOSE,
    DIGIT_MARGIN,
    INK_APART,
    count_bounds,
    frontier_problem,
    settle_digits,
    shape_choices,
    shows_every_mine,
)
from bot.vision.glyphs import (
    SHAPE_SIZE,
    GlyphShape,
    bounding_box,
    digit_distances,
    glyph_shape,
    mean_rows,
    median_rows,
    own_size_distances,
    shape_distance,
)
from bot.vision.grid import MIN_SIDE
from bot.vision.overdraw import SIDE_NAMES, STRIP, repair_runs, runs_on

LOGGER = logging.getLogger(__name__)

GENERIC = "generic"
"""The skin name that selects this reader."""

TILE = 32
"""Side, in pixels, every cell is resampled to."""
INSET = 4
"""Pixels of a tile's edge (grid line, bevel) left out of its interior."""
GLYPH_MARGIN = 1
"""Pixels of a tile's edge left out when a glyph is seen against its base tile (big digits reach the edge)."""
CORE = 8
"""Pixels left out on each side of the core (the middle half) where glyphs sit."""
POOL = 2
"""Tiles are averaged in POOL x POOL blocks before they are compared (16 x 16 features)."""
UNEVEN_REACH = 0.45
"""Farthest a row or column of cells is looked for off the grid's even pitch, in pitches (2 px or more):
nearly half a pitch, past which it would lie nearer its neighbour's place. A client that spreads its
window's leftover pixels draws a run of cells a pixel wider (GNOME Mines at 1000x700: ten columns of
27 px, then twenty of 26), and a grid of one pitch fitted to the others is then off by a pixel more at
each cell of the run, up to a third of a pitch."""
UNEVEN_STEP = 0.12
"""Farthest a row or column of cells lies off its neighbour's shift from the even pitch, in pitches (2 px
or more): a board's cells differ in size by a pixel or two, so a run of them drifts off a pixel at a
time; a cell far off its neighbours (a stretch of the profile alike by chance) stays on the pitch."""
UNEVEN_STEPS = 4
"""Steps per pixel at which a row or column is tried off the even pitch."""
UNEVEN_FIT = 0.5
"""A row or column is moved off the even pitch only where its misfit there is under this share of its
misfit on it (a clear, not a marginal, fit)."""
UNEVEN_MISFIT = 0.1
"""Least misfit of a row or column on the even pitch, as a share of the board's contrast along that
axis, for it to be looked for off it (noise moves nothing)."""

FRAMED_SHARE = 0.05
"""Share of a tile's edge band that must differ from its fill for the tile to have a frame."""
SAME_MEAN = 7.0
"""Largest mean colour difference (0-255) between two cells of one group."""
SAME_PEAK = 40.0
"""A pooled pixel differing by more than this (most different channel, 0-255) between two cells is an
outlier."""
SAME_OUTLIERS = 2
"""Most outlier pixels (of 256 pooled) two cells of one group may have: a 3 and a 5 of one bold font
differ in 4-6, cells of one state in none."""

PLAIN_RESIDUAL = 18.0
"""A group whose core departs at most this much (98th percentile, 0-255) from a fitted colour ramp is
plain."""
KIND_DISTANCE = 40.0
"""Plain groups whose mean colours are nearer than this (0-255 RGB) are one kind."""
KIND_FRAME = 0.5
"""... and whose frames (grid line, bevel) differ at most this much (:func:`frame_difference`)."""
KIND_RAMP = 10.0
"""... and whose shading across the tile differs at most this much (:func:`ramp_slope`, luma 0-255):
a glossy tile shaded top to bottom is not of a flat tile's kind, however alike their colour and frame."""
FLAT_RESIDUAL = 8.0
"""A cell whose interior is at most this far (98th percentile, 0-255) from its best colour ramp is one flat
colour (noise and dithering are blurred out): a board of such cells and no frames is a flat area."""
FRAME_COLOUR = 24.0
"""Colour difference (0-255, most different channel) above which two tiles' frame pixels differ."""
FRAME_MATCH = 1.0
"""Largest frame difference for a glyph group to sit on a plain group's base."""
FLAG_FRAME = 0.5
"""A flag's tile is framed at most this differently from the covered tile it sits on."""
KNOWN_FILL = 12.0
"""A cell's background candidate this near (0-255, most different channel) a plain kind's fill is it."""
RIM_SHOWN = 0.25
"""Quantile of the rim's colour difference that counts as the frame's: a glyph may cover the rest."""
FILL_SHOWN = 0.05
"""Least share of a glyph cell's interior showing a plain kind's fill for that fill to be its background
(when no dominant colour of the cell is one)."""
FRAME_CLEAR = 0.7
"""A base must be framed at most this fraction as differently as the nearest plain group of another kind."""

RAISED_BEVEL = 12.0
"""A tile whose top-left edge is this much lighter, and bottom-right edge this much darker, than its
fill (luma) is raised: covered."""
TEXTURE = 6.0
"""Mean high-frequency energy (0-255) above which a kind is textured (dithered: covered)."""

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

MAX_GROUPS = 60
"""Most different looks a board's cells may fall into (a board shows at most about 16 states, each
in a few renderings); more means the cells are cut out of line, or this is no board."""

LINE_BAND = 2
"""Pixels of a tile's outermost band, where its frame shows (a grid line, a bevel's edge)."""
LINE_SHARE = 0.25
"""Least share of a plain tile's outermost band in one colour for that colour to be its frame's (a grid
line along two sides covers about half of it)."""

MAX_MARKS = 3
"""Most looks of a glyph on covered tiles, on a lost board, that the counts may tell flag or wrong flag."""

EDGE_ALIKE = 0.5
"""Share of the cells just past one edge of a board that, looking like the board's own cells, say the grid
goes on there: the board was cut (a column or row missed), and its edge cells' counts cannot be checked."""

MODEL_GROUPS = 64
"""Most named groups a :class:`GenericModel` remembers."""


class Shape(Enum):
    """What a group's glyph looks like."""

    PLAIN = "plain"
    DIGIT = "digit"
    MINE = "mine"
    CROSS = "cross"
    MARK = "mark"
    """Any other glyph: a flag on a covered cell, unreadable elsewhere."""


@dataclass
class Group:
    """Cells that look alike: their mean tile and what their glyph is."""

    members: np.ndarray
    """Flat cell indices."""
    tile: np.ndarray
    """``(TILE, TILE, 3)`` float32 mean of the members' tiles."""
    shape: Shape = Shape.PLAIN
    digit: int = 0
    base: int | None = None
    """Index of the plain group whose rim this group shares (its background), None for its own."""
    kind: int | None = None
    """Index of the plain kind the group belongs to (plain groups) or sits on (glyph groups)."""
    raised: bool = False
    """The tile itself is bevelled like a covered cell."""
    dithered: bool = False
    """A glyph framed exactly like a textured (dithered: covered) kind's tile, a kind no clear digit shows
    on: on a covered cell, as a glyph framed like a raised tile is."""
    frame: float = 2.0
    """Frame difference from its base (:func:`frame_difference`; 2 when it has none)."""
    colours: bool = False
    """The glyph's ink holds two clearly different colours."""
    costs: np.ndarray | None = None
    """``(8,)`` shape distance to each digit 1-8, holes counted (glyph groups)."""
    raw_costs: np.ndarray | None = None
    """The same counting only missing holes: a pinhole blur closed must not decide alone."""
    weighted: np.ndarray | None = None
    """``(2, 8)`` both countings against references at the glyph's own stroke weight (a bold glyph
    is as far from every thin reference: only bold ones still show its notches and bowls)."""
    ink: np.ndarray | None = None
    """Median colour of the glyph's solid ink (glyph groups)."""
    glyph: GlyphShape | None = None
    """The glyph's comparable shape (glyph groups with ink)."""
    digit_too: bool = False
    """A mine glyph that a digit shape is near as well: the board's counts decide."""
    unseen: tuple[str, ...] = ()
    """Sides of its cells where a neighbour's glyph was painted over (:func:`repair_sides`): its own glyph
    may go on under it there, as if cut off by the cell's edge."""
    runs: np.ndarray | None = None
    """``(4, size, size)`` the ink its glyph draws past each side of its cells, painted over in the
    neighbour (:func:`bot.vision.overdraw.runs_on`): part of its own glyph (:func:`run_on_ink`)."""
    alone: bool = False
    """The only glyph look on its kind, a kind framed apart from the others and the glyph nearer it
    (:func:`_separation`): on a covered kind, that kind's flag whatever its ink."""
    why: str = ""
    central: bool = True
    """Its ink reaches the middle third of its cells both ways (:func:`reaches_middle`): a flag does, as
    does any glyph drawn in its cell; a neighbour's glyph running on over an edge does not."""
    fill: np.ndarray | None = None
    """Its tile's own background (:func:`dominant_colour` of its inner ring), found once per group."""
    slope: float | None = None
    """How much its core is shaded across (:func:`ramp_slope`), found once per group."""


@dataclass
class GenericModel:
    """What earlier frames of one game taught: the pooled look of each named group and its state."""

    looks: np.ndarray = field(default_factory=lambda: np.empty((0, (TILE // POOL) ** 2, 3), np.float32))
    states: list[Cell] = field(default_factory=list)
    last: np.ndarray | None = None
    """The last exact reading's states, flat (:func:`_name_digits` may name a half-hidden glyph by it)."""

    def remember(self, looks: np.ndarray, states: list[Cell]) -> None:
        """Add named looks (keeping at most ``MODEL_GROUPS``, the newest)."""
        self.looks = np.concatenate([self.looks, looks])[-MODEL_GROUPS:]
        self.states = (self.states + states)[-MODEL_GROUPS:]


# -- cutting -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Crop:
    """The board's pixels (a pixel around them too), blurred once, and where they sit."""

    pixels: np.ndarray
    blurred: np.ndarray
    x0: int
    y0: int
    geometry: Geometry
    shifts: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    """How far each column's and each row's cells lie from the grid's even pitch, in pixels (empty: on
    it; see :func:`uneven_shifts`)."""


def crop_board(image: np.ndarray, geometry: Geometry) -> Crop:
    """The board blurred so that dithering and sub-pixel shifts vanish (sigma 0.7 px, or more for big
    cells, which are sampled down), and where its rows and columns lie off the even pitch."""
    from bot.vision.memory import scratch

    region = geometry.region()
    x0, y0 = max(region.left - 2, 0), max(region.top - 2, 0)
    x1, y1 = min(region.right + 2, image.shape[1]), min(region.bottom + 2, image.shape[0])
    pixels = image[y0:y1, x0:x1].astype(np.float32)
    sigma = max(0.7, 0.4 * min(geometry.pitch_x, geometry.pitch_y) / TILE)
    blurred = cv2.GaussianBlur(pixels, (0, 0), sigma)
    g = geometry
    luma = _channel_mean(blurred, scratch("luma", blurred.shape[:2], np.float32))  # only its means leave
    shifts = (
        uneven_shifts(luma.mean(axis=0), g.left - x0, g.pitch_x, g.cols),
        uneven_shifts(luma.mean(axis=1), g.top - y0, g.pitch_y, g.rows),
    )
    return Crop(pixels, blurred, x0, y0, geometry, shifts)


def _channel_mean(image: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``image.mean(axis=-1)`` of a float ``(..., 3)`` array, the same to the bit: :func:`_channel_sum`,
    divided by 3 in the array's own type. ``np.mean`` divides by the count as ``np.intp``: float32 in
    float64, rounded back. That is float32's own correctly rounded quotient (float64's 53 bits are at
    least twice float32's 24, plus 2: rounding twice cannot differ), here with no conversion to float64."""
    total = _channel_sum(image, out)
    return np.true_divide(total, total.dtype.type(3), out=total)


def _channel_sum(values: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``values.sum(axis=-1)`` of a float ``(..., 3)`` array, the same to the bit, several times faster:
    numpy reduces a 3-long last axis one element at a time; here the channels are added whole, in
    numpy's order (the first plus the second, then the third). A large float32 image is added by
    OpenCV's colour transform with weights 1, 1, 1 (twice as fast again): it adds ``1 * first + 1 *
    second + 1 * third + 0`` in float32 in that order, and a product by 1 or a sum with 0 is exact."""
    if values.dtype == np.float32 and values.ndim == 3 and values.size >= 1 << 16:
        return cv2.transform(values, np.ones((1, 3), np.float32), dst=out)
    total = np.add(values[..., 0], values[..., 1], out=out)
    total += values[..., 2]
    return total


def uneven_shifts(profile: np.ndarray, start: float, pitch: float, count: int) -> tuple[float, ...]:
    """How far each of ``count`` cells along one axis lies from ``start + i * pitch``, by its stretch of
    ``profile`` (the board's mean brightness across that axis) against the median stretch of all: some
    clients draw a board of cells of two sizes (GNOME Mines: rows of 23 px, the last ones 22 px), and
    one pitch is then a pixel or more off on some of them (up to :data:`UNEVEN_REACH`). Only a whole
    pixel or more, where the stretch fits clearly better shifted, counts (rounding a fractional pitch
    moves cells by half a pixel), and only in a run drifting off from cells on the pitch (within
    :data:`UNEVEN_STEP` of each other): otherwise, and for fewer than :data:`MIN_SIDE` cells, an empty
    tuple (on the even pitch)."""
    reach = max(2, math.floor(pitch * UNEVEN_REACH))
    if count < MIN_SIDE or pitch < 2 * reach:
        return ()
    steps = np.arange(-reach * UNEVEN_STEPS, reach * UNEVEN_STEPS + 1) / UNEVEN_STEPS
    offsets = np.arange(math.ceil(pitch))
    places = start + np.arange(count)[:, None] * pitch + offsets[None, :]
    axis = np.arange(len(profile), dtype=np.float64)  # beyond the crop: its edge's value
    on_pitch = np.interp(places, axis, profile)  # (count, points): each cell's stretch, unshifted
    reference = np.median(on_pitch, axis=0)
    misfit_even = np.abs(on_pitch - reference).mean(axis=1)
    spread = float(np.abs(on_pitch - reference.mean()).mean())
    shifts = np.zeros(count)
    # only a cell that misfits its stretch on the pitch may move: the others are not shifted whatever
    # step fits them best, so every step is weighed for these few only (the same values, cell by cell)
    misfits = np.flatnonzero(misfit_even > UNEVEN_MISFIT * spread)
    if len(misfits):
        stretches = _stretches(profile, places[misfits], steps)  # (steps, n, points)
        misfit = np.abs(stretches - reference).mean(axis=2)  # (steps, n)
        best = misfit.argmin(axis=0)
        found = steps[best]
        clear = misfit[best, np.arange(len(misfits))] < UNEVEN_FIT * misfit_even[misfits]
        shifts[misfits] = np.where((np.abs(found) >= 1.0) & clear, found, 0.0)
    return drifting_runs(shifts, pitch)


def drifting_runs(shifts: np.ndarray, pitch: float) -> tuple[float, ...]:
    """``shifts`` (one per cell, 0 for a cell on the pitch) less those of moved cells not reached from an
    unmoved one by a chain of neighbours, each within :data:`UNEVEN_STEP` of the next: a run drifting
    off a pixel at a time is kept, a cell far off its neighbours put back on the pitch; an empty tuple
    when none is left moved."""
    if not shifts.any():
        return ()  # nothing moved: no chain to walk
    step = max(2, math.ceil(pitch * UNEVEN_STEP))
    kept = shifts == 0.0
    for order in (range(1, len(shifts)), range(len(shifts) - 2, -1, -1)):
        for i in order:
            j = i - 1 if order.step == 1 else i + 1
            kept[i] |= kept[j] and abs(shifts[i] - shifts[j]) <= step
    shifts = np.where(kept, shifts, 0.0)
    return tuple(float(v) for v in shifts) if shifts.any() else ()


def _stretches(profile: np.ndarray, places: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """``(steps, *places.shape)`` the profile at every place moved by every step (beyond it: its edge's
    value), ``np.interp(places[None] + steps[:, None, None], arange(len(profile)), profile)`` to the bit.
    When every place and step is a whole number of ``1 / UNEVEN_STEPS`` pixels (a pitch and a start
    on that grid, as most boards have), each sum is exact and on that grid: the profile is interpolated
    once at every point of the grid and looked up, at the same positions, so with the same values."""
    axis = np.arange(len(profile), dtype=np.float64)
    fine_places, fine_steps = places * UNEVEN_STEPS, steps * UNEVEN_STEPS  # exact for a power of 2
    on_grid = (
        UNEVEN_STEPS & (UNEVEN_STEPS - 1) == 0
        and (fine_places % 1 == 0).all()
        and (fine_steps % 1 == 0).all()
        and np.abs(fine_places).max() < 1 << 40
    )
    if not on_grid:
        return np.interp(places[None] + steps[:, None, None], axis, profile)
    ends = fine_places.astype(np.int64), fine_steps.astype(np.int64)
    low = int(ends[0].min() + ends[1].min())
    grid = np.interp(np.arange(low, int(ends[0].max() + ends[1].max()) + 1) / UNEVEN_STEPS, axis, profile)
    return grid.take(ends[0][None] + (ends[1] - low)[:, None, None])


def _maps(crop: Crop, size: int, inset: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Sampling maps putting every cell on ``size`` x ``size`` points at the same sub-pixel places (less
    ``inset`` points along each side), one cell per map row (``(N, points)``: a remap then gives every
    cell's pixels together, with no transposing and within OpenCV's image side limit). Read-only: they
    are kept per placement (:func:`_placed_maps`), as live play reads one geometry move after move."""
    g = crop.geometry
    return _placed_maps(
        g.left - crop.x0, g.top - crop.y0, g.pitch_x, g.pitch_y, g.rows, g.cols, size, inset, crop.shifts
    )


@lru_cache(maxsize=8, typed=True)
def _placed_maps(
    dx: float,
    dy: float,
    pitch_x: float,
    pitch_y: float,
    rows: int,
    cols: int,
    size: int,
    inset: int,
    shifts: tuple[tuple[float, ...], tuple[float, ...]] = ((), ()),
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_maps` for cell (0, 0) at ``(dx, dy)`` in the crop (everything the maps depend on)."""
    u = ((np.arange(size) + 0.5) / size)[inset : size - inset]
    side = len(u)
    xs = dx + (np.arange(cols)[:, None] + u[None, :]).ravel() * pitch_x - 0.5
    ys = dy + (np.arange(rows)[:, None] + u[None, :]).ravel() * pitch_y - 0.5
    if shifts[0]:
        xs = (xs.reshape(cols, side) + np.array(shifts[0])[:, None]).ravel()
    if shifts[1]:
        ys = (ys.reshape(rows, side) + np.array(shifts[1])[:, None]).ravel()
    xs = xs.astype(np.float32).reshape(cols, 1, side)
    ys = ys.astype(np.float32).reshape(rows, 1, side, 1)
    shape = (rows, cols, side, side)
    n = rows * cols
    map_x = np.broadcast_to(xs[None], shape).reshape(n, side * side)
    map_y = np.broadcast_to(ys, shape).reshape(n, side * side)
    map_x.flags.writeable = map_y.flags.writeable = False
    return map_x, map_y


def sample(crop: Crop, size: int) -> np.ndarray:
    """Every cell resampled to ``size`` square: ``(N, size, size, 3)`` float32."""
    map_x, map_y = _maps(crop, size)
    cells = cv2.remap(crop.blurred, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cells.reshape(-1, size, size, 3)


def looks_of(crop: Crop) -> np.ndarray:
    """``(N, (TILE/POOL)^2, 3)`` every cell at ``TILE/POOL`` px square: what cells are compared on."""
    return sample(crop, TILE // POOL).reshape(crop.geometry.rows * crop.geometry.cols, -1, 3)


def cut_tiles(crop: Crop) -> tuple[np.ndarray, np.ndarray]:
    """Every cell at ``TILE`` px square, ``(N, TILE, TILE, 3)`` float32, and each cell's texture (its
    interior's mean absolute difference from the blur, at the screen's own resolution)."""
    from bot.vision.memory import scratch

    map_x, map_y = _maps(crop, TILE)
    tiles = cv2.remap(crop.blurred, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    shape = crop.pixels.shape  # the difference and its channel mean are kept: only the samples leave
    difference = cv2.absdiff(crop.pixels, crop.blurred, dst=scratch("difference", shape, np.float32))
    third = np.full((1, 3), 1 / 3, np.float32)
    detail = cv2.transform(difference, third, dst=scratch("detail", shape[:2], np.float32))
    inside_x, inside_y = _maps(crop, TILE, INSET)  # the interior's sampling points only
    inner = cv2.remap(detail, inside_x, inside_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return tiles.reshape(-1, TILE, TILE, 3), inner.mean(axis=1)


# -- grouping ----------------------------------------------------------------------------------------


def quantile(values: np.ndarray, q: float) -> float:
    """The ``q`` quantile (0-1) of an array, by partial sort (cheaper than ``np.percentile``)."""
    flat = values.ravel()
    k = int(q * (len(flat) - 1))
    return float(np.partition(flat, k)[k])


def _peak(diff: np.ndarray) -> np.ndarray:
    """The largest of the 3 channels along the last axis (``diff.max(axis=-1)``, the same values: numpy's
    reduction over 3 is far slower than two element-wise maxima)."""
    return np.maximum(np.maximum(diff[..., 0], diff[..., 1]), diff[..., 2])


def _few_outliers(diff: np.ndarray) -> np.ndarray:
    """Per look ``(N, P, 3)`` of differences: at most :data:`SAME_OUTLIERS` pooled pixels differ by more
    than :data:`SAME_PEAK` (a stroke one glyph has and another lacks differs in more)."""
    return (_peak(diff) > SAME_PEAK).sum(axis=1) <= SAME_OUTLIERS


def _alike(diff: np.ndarray) -> np.ndarray:
    """Per look ``(N, P, 3)`` of differences: alike (small mean difference, few outliers)."""
    return (_mean_diff(diff) <= SAME_MEAN) & _few_outliers(diff)


def _mean_diff(diff: np.ndarray) -> np.ndarray:
    """``diff.mean(axis=(1, 2))`` of ``(N, P, 3)`` float differences, the same to the bit, without its
    Python overhead: numpy's own sum, divided as ``np.mean`` divides (by the count as ``np.intp``)."""
    total = np.add.reduce(diff, axis=(1, 2))
    return np.true_divide(total, np.intp(diff.shape[1] * diff.shape[2]), out=total, casting="unsafe")


BLOCK = 4
"""Side, in pooled pixels, of the blocks whose mean colours bound two looks' mean difference from below."""
BOUND_SLACK = 0.05
"""Added to :data:`SAME_MEAN` before a lower bound rules a pair out (float rounding is far smaller)."""


def _blocks(looks: np.ndarray) -> np.ndarray:
    """``(N, B)`` each look's mean colour per ``BLOCK`` square block (float64): the mean absolute
    difference of two looks is at least that of their block means, so far-apart looks are ruled out on
    these few numbers before the full comparison."""
    side = int(round(np.sqrt(looks.shape[1])))
    if side * side != looks.shape[1] or side % BLOCK:
        return looks.mean(axis=1, dtype=np.float64)  # one block: the mean colour
    n = side // BLOCK
    cells = looks.reshape(len(looks), n, BLOCK, n, BLOCK, 3)
    total = cells[:, :, 0, :, 0].astype(np.float64)
    for y, x in itertools.product(range(BLOCK), range(BLOCK)):  # row by row, as np.mean sums them
        if y or x:
            total += cells[:, :, y, :, x]
    return np.true_divide(total, np.intp(BLOCK * BLOCK), out=total).reshape(len(looks), -1)


def _may_be_alike(blocks: np.ndarray, lead: np.ndarray) -> np.ndarray:
    """Which looks (their :func:`_blocks`) may be alike to the one of block means ``lead``."""
    total = np.add.reduce(np.abs(blocks - lead), axis=1)  # their mean, as np.mean sums and divides
    return np.true_divide(total, np.intp(blocks.shape[1]), out=total) <= SAME_MEAN + BOUND_SLACK


def alike(looks: np.ndarray, refs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each look ``(N, P, 3)``: the nearest (least squared difference) alike reference ``(K, P, 3)``
    (-1 if none) and its mean difference. Pairs are ruled out on mean colours, then on block means
    (:func:`_blocks`), before the full comparison; no matrix product (a threaded BLAS call costs more
    than the whole comparison on a busy machine)."""
    best, mean = np.full(len(looks), -1), np.full(len(looks), np.inf)
    if len(refs) == 0 or len(looks) == 0:
        return best, mean
    colours = np.abs(
        looks.mean(axis=1, dtype=np.float64)[:, None] - refs.mean(axis=1, dtype=np.float64)[None]
    )
    li, ri = np.nonzero(_channel_mean(colours) <= SAME_MEAN + BOUND_SLACK)
    blocks_l, blocks_r = _blocks(looks), _blocks(refs)
    near = _may_be_alike(blocks_l[li], blocks_r[ri])
    li, ri = li[near], ri[near]
    diff = np.abs(looks[li] - refs[ri])
    ok = _alike(diff)
    li, ri, diff = li[ok], ri[ok], diff[ok]
    squared = (diff.astype(np.float64) ** 2).sum(axis=(1, 2))
    order = np.lexsort((squared, li))  # by look, nearest first
    first = order[np.r_[True, li[order][1:] != li[order][:-1]]] if len(order) else order
    best[li[first]] = ri[first]
    mean[li[first]] = _mean_diff(diff[first])
    return best, mean


def group_cells(looks: np.ndarray) -> np.ndarray:
    """Group labels ``(N,)`` for pooled looks: the first look not yet grouped leads a new group of every
    remaining look alike to it (one vectorised comparison per group). Cells drawn the same to the
    level (most of a board) are compared once."""
    flat = np.ascontiguousarray(np.round(looks.reshape(len(looks), -1)).astype(np.uint8))
    rows = flat.view(np.dtype((np.void, flat.shape[1]))).ravel()  # each look as one byte string
    _, first, inverse = np.unique(rows, return_index=True, return_inverse=True)
    order = np.argsort(first)  # distinct looks in the order they first occur
    distinct = looks[first[order]]
    rank = np.empty(len(order), int)
    rank[order] = np.arange(len(order))
    labels = np.full(len(distinct), -1)
    blocks = _blocks(distinct)
    left = np.arange(len(distinct))
    group = 0
    while len(left):
        near = left[_may_be_alike(blocks[left], blocks[left[0]])]  # the leader itself first
        ok = _alike(np.abs(distinct[near] - distinct[left[0]]))
        ok[0] = True
        labels[near[ok]] = group
        left = left[labels[left] < 0]
        group += 1
    return labels[rank[inverse.ravel()]]


# -- plain groups, rims and ink ----------------------------------------------------------------------


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


# -- glyph shapes ------------------------------------------------------------------------------------


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
    margin = GLYPH_MARGIN if base is not None else INSET
    ink = ink_of(group.tile, base, margin, known)
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
    if not group.central:
        group.why += ", its ink along an edge only (a neighbour's glyph run on over it?)"


# -- naming ------------------------------------------------------------------------------------------


@dataclass
class Kind:
    """Plain groups of one colour: one tile kind (covered or revealed)."""

    groups: list[int]
    colour: np.ndarray
    cells: int
    raised: bool
    texture: float
    digits: int = 0
    marks: int = 0
    digit_looks: int = 0
    """Glyph groups on it that are clearly digits: two or more looks of digits make it revealed."""
    glyph_looks: int = 0
    """Glyph groups of any shape on it (one look alone on a covered kind can only be its flag)."""
    first: Group | None = None
    """Its first (largest) group: how its tiles are drawn (framing, shading, fill)."""


def _kinds(groups: list[Group], texture: np.ndarray) -> list[Kind]:
    """Plain groups joined into kinds by mean colour and framing (each group's ``kind`` set): a covered
    tile and a revealed one may be close in colour, but their frames (bevel, grid line) differ."""
    kinds: list[Kind] = []
    plain = sorted(
        (i for i, g in enumerate(groups) if g.shape == Shape.PLAIN), key=lambda i: -len(groups[i].members)
    )
    for i in plain:
        g = groups[i]
        colour = mean_rows(g.tile[CORE:-CORE, CORE:-CORE].reshape(-1, 3))
        near = [
            k
            for k, kind in enumerate(kinds)
            if kind.raised == g.raised
            and np.linalg.norm(kind.colour - colour) < KIND_DISTANCE
            and abs(_slope_of(kind.first) - _slope_of(g)) <= KIND_RAMP  # type: ignore[arg-type]
        ]
        framing = (
            frame_differences(g.tile, np.stack([kinds[k].first.tile for k in near])).tolist()  # type: ignore[union-attr]
            if near
            else []
        )
        fits = {k: v for k, v in zip(near, framing, strict=True) if v <= KIND_FRAME}
        if fits:  # the kind framed most alike: a sunken tile beside a faintly raised one is not of its kind
            k = min(fits, key=fits.__getitem__)
            kinds[k].groups.append(i)
            kinds[k].cells += len(g.members)
            g.kind = k
        else:
            g.kind = len(kinds)
            texture_mean = float(mean_rows(texture[g.members]))
            kinds.append(Kind([i], colour, len(g.members), g.raised, texture_mean, first=g))
    return kinds


def _fill_shows(tile: np.ndarray, base: np.ndarray) -> bool:
    """Whether a base tile's fill shows around a glyph: at least ``FILL_SHOWN`` of the glyph tile's rim
    within ``2 * KNOWN_FILL`` of the base's rim (a glyph, even crossed out, leaves some of it)."""
    return quantile(_peak(np.abs(_rim(tile) - _rim(base))), FILL_SHOWN) <= 2 * KNOWN_FILL


def base_of(
    g: Group,
    groups: list[Group],
    plain: list[int],
    stacked: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] | None = None,
) -> int | None:
    """The plain group a glyph group sits on: framed alike (a raised glyph tile only on a raised one),
    and clearly
    more alike than any plain group of another kind; None for a cell with its own background.
    ``stacked``: the plain groups' tiles stacked so far in this reading, and their :func:`frame_bands`,
    by group indices (each glyph group is weighed against one of two sets of them, stacked once;
    read-only)."""
    same = [i for i in plain if groups[i].raised or not g.raised]
    if not same:
        return None
    kept = stacked.get(tuple(same)) if stacked is not None else None
    if kept is None:
        tiles = np.stack([groups[i].tile for i in same])
        banded = frame_bands(tiles)
        tiles.flags.writeable = banded.flags.writeable = False
        if stacked is not None:
            stacked[tuple(same)] = (tiles, banded)
    else:
        tiles, banded = kept
    differences = frame_differences(g.tile, tiles, banded)
    scores = {i: float(v) for i, v in zip(same, differences, strict=True)}
    best = min(scores, key=scores.__getitem__)
    others = [v for i, v in scores.items() if groups[i].kind != groups[best].kind]
    if scores[best] > FRAME_MATCH or (others and scores[best] > FRAME_CLEAR * min(others)):
        best = _shown_around(g, groups, scores, tiles)
        if best is None:
            return None
    if not _fill_shows(g.tile, groups[best].tile):
        return None  # a ground of its own colour, framed like the base
    g.frame = scores[best]
    return best


def _solid_share(tile: np.ndarray, base: np.ndarray) -> float:
    """Share of a glyph tile's inner ring (just inside its edge band) where the base tile shows solidly:
    the pixel and its eight neighbours all within ``2 * KNOWN_FILL`` of the base's (an anti-aliased blend
    along a stroke's edge is a pixel or two wide, and is eroded away)."""
    return float(_solid_shares(tile, base[None])[0])


def _solid_shares(tile: np.ndarray, bases: np.ndarray) -> np.ndarray:
    """``(K,)`` float64 :func:`_solid_share` of ``tile`` on each of ``bases`` ``(K, T, T, 3)``, all at once:
    the bases' match masks eroded as one image, one below the other (the inner ring's neighbours lie
    inside its own tile, so no tile's erosion reaches its neighbour's ring)."""
    size = len(tile)
    match = (_peak(np.abs(tile - bases)) <= 2 * KNOWN_FILL).astype(np.uint8)
    solid = cv2.erode(match.reshape(-1, size), np.ones((3, 3), np.uint8)).reshape(len(bases), -1)
    ring = _band(size, INSET, INSET + 3)
    return np.count_nonzero(solid[:, ring], axis=1) / len(ring)  # the mean of the bools


def _shown_around(
    g: Group, groups: list[Group], scores: dict[int, float], tiles: np.ndarray | None = None
) -> int | None:
    """The plain group a glyph group sits on when a bold glyph hides its frame (the glyph reaches into
    the edge band, or is drawn in the grid's own colour): the one kind whose tile shows solidly around
    the glyph (at least ``FILL_SHOWN`` of the inner ring, :func:`_solid_share`) while no other kind
    shows there at all (its group framed most alike); None when no kind, or more than one, shows.
    ``tiles``: the tiles of the groups of ``scores``, in its order, when already stacked."""
    if tiles is None:
        tiles = np.stack([groups[i].tile for i in scores])
    shares = _solid_shares(g.tile, tiles)
    shown: dict[int, float] = {}
    for i, share in zip(scores, shares.tolist(), strict=True):
        kind = groups[i].kind if groups[i].kind is not None else -1 - i
        shown[kind] = max(shown.get(kind, 0.0), share)
    showing = [k for k, v in shown.items() if v >= FILL_SHOWN]
    if len(showing) != 1 or any(v > 0 for k, v in shown.items() if k != showing[0]):
        return None
    return min((i for i in scores if groups[i].kind == showing[0]), key=scores.__getitem__)


def _stroke(tile: np.ndarray, ink: np.ndarray) -> float:
    """How clearly a tile draws an ink mask as one stroke: its colour there far from its own background
    (a flag under a cross shows background there) and uniform (a mine under it shows body and ground)."""
    pixels = tile[INSET:-INSET, INSET:-INSET][ink >= 0.5]
    if not len(pixels):
        return 0.0
    away = float(np.sqrt(_channel_sum((pixels - own_background(tile)) ** 2)).mean())
    return away - float(pixels.std(axis=0).mean())


def _ground(g: Group, groups: list[Group]) -> np.ndarray:
    """The colour a glyph group is drawn on: its base's fill, else its own background."""
    if g.base is not None:
        return _fill(groups[g.base])
    return own_background(g.tile)


def _slope_of(g: Group) -> float:
    """A group's :attr:`Group.slope`, found at its first use (:func:`_plain_kinds` finds it with the
    plain test's ramp)."""
    if g.slope is None:
        g.slope = ramp_slope(g.tile)
    return g.slope


def _fill(g: Group) -> np.ndarray:
    """A group's own background (:attr:`Group.fill`), found at its first use."""
    if g.fill is None:
        g.fill = dominant_colour(_inner_ring(g.tile))
    return g.fill


def crossed_out(groups: list[Group]) -> None:
    """Groups that are another glyph group (a mine or a flag) with a cross drawn over it: wrong flags.

    A cross over a big mine leaves little background to see it against, but the difference from the
    plain mine is the cross alone; of the two, on the same ground (an exploded mine's red ground is no
    cross), the crossed one draws it as one stroke."""
    marks = [g for g in groups if g.shape in (Shape.MINE, Shape.MARK)]
    grounds = [_ground(g, groups) for g in marks]
    for g, ground in zip(marks, grounds, strict=True):
        for other, other_ground in zip(marks, grounds, strict=True):
            if other is g:
                continue
            if g.base is not None and other.base is not None:
                same_ground = g.kind == other.kind
            else:  # a cross reaching the edge band hides its tile's frame: compare the grounds' colours
                same_ground = bool(np.abs(ground - other_ground).max() <= KIND_DISTANCE)
            if not same_ground:
                continue
            ink = ink_of(g.tile, other.tile)
            if is_cross(ink) and _stroke(g.tile, ink) > _stroke(other.tile, ink):
                g.shape, g.why = Shape.CROSS, "another glyph with a cross over it"
                break


def drawn_like_mines(groups: list[Group]) -> None:
    """Digit-shaped groups (not on a raised tile: a flag) whose glyph is nearer the board's own
    symmetric mine glyph, in the same ink, than any digit's are mines too (the board draws one glyph one
    way; the same mine cut a pixel off-centre, as a client's last row may be, fails the symmetry test);
    the counts may still make one a digit."""
    mines = [g for g in groups if g.shape == Shape.MINE and g.glyph is not None and g.ink is not None]
    for g in groups:
        if g.shape != Shape.DIGIT or g.raised or g.glyph is None or g.costs is None or g.ink is None:
            continue
        like = [m.glyph for m in mines if np.linalg.norm(m.ink - g.ink) < TWO_COLOURS]
        if min((shape_distance(g.glyph, m) for m in like), default=np.inf) < g.costs.min():
            g.shape, g.digit_too, g.why = Shape.MINE, True, "a glyph drawn like the mines shown"


def _attach(groups: list[Group], texture: np.ndarray) -> list[Kind]:
    """Plain/glyph split, kinds, and each glyph group's base and shape."""
    kinds = _plain_kinds(groups, texture)
    _glyph_shapes(groups, kinds)
    return kinds


def _plain_kinds(groups: list[Group], texture: np.ndarray) -> list[Kind]:
    """Each group raised or not, plain or a glyph (named by :func:`_glyph_shapes`); the plain kinds."""
    for g in groups:
        g.raised = bevel(g.tile, _fill(g)) >= RAISED_BEVEL
        coef, residual = _ramp(g.tile[CORE:-CORE, CORE:-CORE])
        g.slope = _slope(coef)
        if _residual(residual) > PLAIN_RESIDUAL:
            g.shape = Shape.MARK  # a glyph: named below
    return _kinds(groups, texture)


def _glyph_shapes(groups: list[Group], kinds: list[Kind]) -> None:
    """Each glyph group's base and shape, and the digits and marks each kind carries."""
    plain = [i for i, g in enumerate(groups) if g.shape == Shape.PLAIN]
    fills = tuple(_fill(groups[i]) for i in plain)
    balance = channel_balance([g.tile for g in groups])
    stacked: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}
    for g in groups:
        if g.shape == Shape.PLAIN:
            continue
        g.base = base_of(g, groups, plain, stacked)
        if g.base is not None and groups[g.base].raised and not g.raised and g.frame > FLAG_FRAME:
            g.base, g.frame = None, 2.0  # a flat tile framed unlike a flag on the raised tile: not on it
        if g.base is not None:
            g.kind = groups[g.base].kind
            # framed exactly like a raised tile: raised itself, whatever its glyph does to its own bevel
            g.raised = g.raised or (groups[g.base].raised and g.frame <= FLAG_FRAME)
        shape_of(g, groups[g.base].tile if g.base is not None else None, fills, balance)
    crossed_out(groups)
    drawn_like_mines(groups)
    for g in groups:
        if g.shape != Shape.PLAIN and g.kind is not None:
            kinds[g.kind].glyph_looks += 1
            if g.shape == Shape.DIGIT and g.costs is not None and g.costs.min() <= CLEAR_DIGIT:
                kinds[g.kind].digits += len(g.members)
                kinds[g.kind].digit_looks += 1
            elif g.shape == Shape.MARK:
                kinds[g.kind].marks += len(g.members)
    for g in groups:
        g.alone = g.shape != Shape.PLAIN and g.kind is not None and kinds[g.kind].glyph_looks == 1
        revealed = _shown_digit(g, groups, kinds) if g.alone else None
        if revealed is not None:  # a digit sits on a revealed tile, whichever kind its tile frames nearer
            _move(g, kinds[g.kind], kinds[revealed])  # type: ignore[index]
            g.kind, g.alone = revealed, False
        apart = _separation(g.kind, kinds) if g.alone else 0.0  # type: ignore[arg-type]
        g.alone = g.alone and apart > KIND_FRAME and 2 * g.frame < apart
        if g.shape != Shape.PLAIN and g.base is not None and g.kind is not None:
            kind = kinds[g.kind]
            g.dithered = kind.texture >= TEXTURE and not kind.digits and g.frame <= FLAG_FRAME


def _shown_digit(g: Group, groups: list[Group], kinds: list[Kind]) -> int | None:
    """The kind surely revealed (flat, with several digit looks) on which the board shows the digit a
    glyph group is drawn as, if any: the same digit in one ink, the glyph nearer that digit's glyph than
    any reference digit (:func:`_drawn_alike`). No client draws its flag as one of its digits: a lone 4
    on a tile that, half a pixel off, frames like the covered kind's is still a 4."""
    if g.shape != Shape.DIGIT:
        return None
    return next(
        (
            o.kind
            for o in groups
            if o.shape == Shape.DIGIT
            and o.digit == g.digit
            and o.kind is not None
            and o.kind != g.kind
            and kinds[o.kind].digit_looks >= 2
            and not (kinds[o.kind].raised or kinds[o.kind].texture >= TEXTURE)
            and _drawn_alike(g, o, own=True)
        ),
        None,
    )


def _move(g: Group, old: Kind, new: Kind) -> None:
    """Count a glyph group on kind ``new`` instead of ``old`` (:func:`_glyph_shapes`' tallies)."""
    clear = g.shape == Shape.DIGIT and g.costs is not None and g.costs.min() <= CLEAR_DIGIT
    for kind, sign in ((old, -1), (new, 1)):
        kind.glyph_looks += sign
        if clear:
            kind.digits += sign * len(g.members)
            kind.digit_looks += sign


def _separation(k: int, kinds: list[Kind]) -> float:
    """How differently kind ``k``'s tiles are framed from the nearest other kind's (inf with none). A
    glyph surely sits on ``k`` only when they are framed apart (more than ``KIND_FRAME``) and the glyph
    is framed nearer ``k`` than half that: kinds told apart by shading alone, as small glossy tiles and
    flat ones are, leave a glyph's ground to chance."""
    first = kinds[k].first
    return min(
        (
            frame_difference(first.tile, other.first.tile)
            for j, other in enumerate(kinds)
            if j != k and first is not None and other.first is not None
        ),
        default=float("inf"),
    )


def _refuse(cells: list[int], cols: int, why: str) -> RecognitionError:
    where = [divmod(int(i), cols) for i in cells]
    more = f" ({len(where) - 1} more cell(s) alike)" if len(where) > 1 else ""
    return RecognitionError(f"generic reader: cell {where[0]} {why}{more}", cell=where[0])


def _cover_options(kinds: list[Kind]) -> list[tuple[bool, ...]]:
    """Which kinds may be covered (True) or revealed (False), by structure; the board's logic picks.

    Raised or textured kinds are covered; flat kinds carrying digits are revealed, unless their digits
    are one look alone while another flat kind shows digits of several looks: that one look may be a
    flag drawn in one ink like a 1. A flat kind with other glyphs on it may hold flags only when digits
    show which kind is revealed; otherwise it has no option and the reading is refused. A kind left
    to the logic is covered only in options where every other covered kind is drawn like it
    (:func:`_drawn_alike_but_colour`)."""
    structural = [kind.raised or kind.texture >= TEXTURE for kind in kinds]
    revealed_known = any(kind.digits and not covered for kind, covered in zip(kinds, structural, strict=True))
    several = any(
        kind.digit_looks >= 2 and not covered for kind, covered in zip(kinds, structural, strict=True)
    )
    options: list[tuple[bool, ...]] = []
    for kind, covered in zip(kinds, structural, strict=True):
        if covered:
            options.append((True,))  # digits on a raised kind: refused when their state is asked
        elif kind.digits and kind.glyph_looks == 1 and several:
            options.append((True, False))
        elif kind.digits:
            options.append((False,))
        elif kind.marks and not revealed_known:
            options.append(())
        else:
            options.append((True, False))
    chosen = [k for k, choice in enumerate(options) if len(choice) == 2 and kinds[k].cells >= 2]
    unlike = [  # pairs of kinds drawn differently, one of them covered only if the logic says so
        (k, j)
        for k in chosen
        for j in range(len(kinds))
        if j != k and kinds[j].cells >= 2 and not _drawn_alike_but_colour(kinds[k], kinds[j])
    ]
    return [
        combo for combo in itertools.product(*options) if not any(combo[k] and combo[j] for k, j in unlike)
    ]


def _drawn_alike_but_colour(a: Kind, b: Kind) -> bool:
    """Whether two kinds differ in colour only (as covered tiles under uneven light do), not in shading
    or framing: a board draws its covered tiles one way, so two kinds drawn differently are not both
    covered (a one-cell kind aside: the pointer may light one covered tile)."""
    if a.first is None or b.first is None or a.raised != b.raised:
        return False
    if abs(_slope_of(a.first) - _slope_of(b.first)) > KIND_RAMP:
        return False
    shifted = a.first.tile - _fill(a.first) + _fill(b.first)
    return frame_difference(shifted, b.first.tile) <= KIND_FRAME  # framed alike once a's fill is b's


def _one_covered_look(
    fits: list[tuple[tuple[bool, ...], list[Cell]]], kinds: list[Kind]
) -> list[tuple[tuple[bool, ...], list[Cell]]]:
    """Of several readings the logic allows, those taking every flat kind as revealed, when the board
    draws its covered tiles in a look of their own (raised or dithered): a board has one covered look.
    With no such look, those with the fewest covered kinds (at least one: a board with none is left
    to the logic), so that digits on grounds of their own colour still tell which flat kind is
    covered. A flat look of one cell is left to the logic alone (the pointer may highlight one
    covered tile)."""
    sure = [kind.raised or kind.texture >= TEXTURE for kind in kinds]
    if len(fits) < 2:
        return fits
    if any(kind.cells < 2 for kind, covered in zip(kinds, sure, strict=True) if not covered):
        return fits
    if any(sure):
        revealed = [f for f in fits if not any(c and not s for c, s in zip(f[0], sure, strict=True))]
        return revealed or fits
    least = min(sum(f[0]) for f in fits)
    return [f for f in fits if sum(f[0]) == least] if least else fits


def _on_covered(g: Group, covered: tuple[bool, ...]) -> bool:
    """Whether a group sits on a covered tile: bevelled like one, or of (or on) a kind taken as covered."""
    return g.raised or (g.kind is not None and covered[g.kind])


def _glyph_state(g: Group, covered: tuple[bool, ...]) -> Cell | None:
    """A glyph group's state given which kinds are covered; None when it cannot be named."""
    on_covered = _on_covered(g, covered)
    if g.shape == Shape.CROSS:
        return Cell.WRONG_FLAG
    if g.shape == Shape.MINE:
        return Cell.MINE
    if g.shape == Shape.DIGIT and not on_covered:
        return Cell(g.digit)
    framed = g.raised or g.frame <= FLAG_FRAME
    if (
        on_covered
        and framed
        and g.central  # ink along an edge alone is a neighbour's glyph run on, painted over or not
        and g.shape in (Shape.MARK, Shape.DIGIT)
        and (g.raised or g.dithered or g.colours or g.alone)
    ):
        return Cell.FLAG  # framed as a covered cell: raised, dithered, in two colours (cloth, pole), or alone
    return None


def _loose_flags(groups: list[Group], named: list[Cell | None], lost: bool) -> list[int]:
    """Groups read as flags while another group read as a flag draws another glyph: a client draws its
    flag one way, so glyphs of several looks taken as flags are something else: drawn over the board
    (JSMinesweeper's hover tooltip read as a flag, a 4 and a flag, on grounds like no plain cell's), or
    the edges of covered tiles a grid cuts across (a run of cells a pixel wider than the grid's pitch:
    each column of the run cut at another place). On a ``lost`` board (one showing mines) a flag on a
    covered tile may be a wrong flag drawn otherwise, and only flags on grounds like no plain cell's
    count. Empty when there is no such pair."""
    loose = [
        i
        for i, (g, s) in enumerate(zip(groups, named, strict=True))
        if s is Cell.FLAG and (g.base is None or not lost)
    ]
    first = loose[0] if loose else None
    if first is None or all(_drawn_alike(groups[i], groups[first]) for i in loose[1:]):
        return []
    return loose


def _claim_mines(
    groups: list[Group], states: list[Cell | None], covered: tuple[bool, ...]
) -> tuple[list[int], list[int]]:
    """Glyph groups on a revealed tile that are no digit (any shape, any colours) taken as shown mines,
    in place: a revealed cell shows a number or a mine, nothing else; so is a glyph on a ground of its
    own nearer their shape than any digit's, or a lone glyph on a revealed tile nearer the shape of the
    symmetric mines shown (the mine that went off, drawn unlike them). Only a hypothesis: the reading
    stands only if the board is then lost, showing the mine that went off, and shows every mine (each
    number equals its shown mines and flags, :func:`bot.vision.digits.shows_every_mine`; flags count
    alike, so a won board's flags taken for mines would pass without the first). Returns the groups
    claimed, and the symmetric glyphs on covered tiles that are then no mine (shown mines share one
    look, on revealed tiles): a flag or a wrong flag, which the counts tell apart."""
    claimed = []
    for i, (g, s) in enumerate(zip(groups, states, strict=True)):
        on_revealed = not g.raised and g.kind is not None and not covered[g.kind]
        if s is None and g.shape == Shape.MARK and on_revealed:
            states[i] = Cell.MINE
            claimed.append(i)
    mines = [groups[i].glyph for i in claimed if groups[i].glyph is not None]
    shown = [g.glyph for g in groups if g.shape == Shape.MINE and g.glyph is not None]
    on_covered = [_on_covered(g, covered) for g in groups]
    unlost = _none_went_off(groups, on_covered, covered)
    marks = []
    for i, g in enumerate(groups):
        like = mines if g.base is None else shown if len(g.members) == 1 else []
        if (mines or unlost) and g.shape == Shape.MINE and on_covered[i]:
            states[i] = Cell.FLAG  # for now: a flag counts as maybe a mine until the counts settle it
            marks.append(i)
        elif (
            g.shape == Shape.DIGIT
            and g.glyph is not None
            and g.costs is not None
            and not on_covered[i]
            and min((shape_distance(g.glyph, m) for m in like), default=np.inf) < g.costs.min()
        ):
            states[i] = Cell.MINE  # the board's own mine glyph: the one that went off
            claimed.append(i)
    return claimed, marks


def _none_went_off(groups: list[Group], on_covered: list[bool], covered: tuple[bool, ...]) -> bool:
    """Whether the symmetric glyphs all sit on covered tiles and none of them stands apart as the mine
    that went off (:func:`_settle_exploded`): no game shown is lost, so they are flags (a won board's,
    every mine flagged) or wrong flags, which the counts tell apart, not shown mines."""
    symmetric = [g.shape == Shape.MINE for g in groups]
    if not any(symmetric) or any(s and not on for s, on in zip(symmetric, on_covered, strict=True)):
        return False
    trial: list[Cell | None] = [Cell.MINE if s else None for s in symmetric]
    _settle_exploded(groups, trial, covered)
    return Cell.EXPLODED not in trial


def _settle_exploded(groups: list[Group], states: list[Cell | None], covered: tuple[bool, ...]) -> None:
    """The exploded mine: a lone mine cell on a background the other shown mines do not share (its own,
    or a revealed tile's while they sit on covered ones)."""
    mines = [i for i, s in enumerate(states) if s == Cell.MINE]
    if not mines:
        return
    backgrounds: dict[object, list[int]] = {}
    for i in mines:
        key = groups[i].kind if groups[i].base is not None else ("own", i)
        backgrounds.setdefault(key, []).append(i)
    total = sum(len(groups[i].members) for i in mines)
    lone = [ids for ids in backgrounds.values() if sum(len(groups[i].members) for i in ids) == 1]
    if total == 1:
        states[mines[0]] = Cell.EXPLODED
        return
    own = {}
    for i in mines:
        if groups[i].base is None:
            colour = tuple(np.round(np.median(_rim(groups[i].tile), axis=0) / 24).astype(int))
            own.setdefault(colour, []).append(i)
    singles = [ids for ids in own.values() if sum(len(groups[i].members) for i in ids) == 1]
    if (
        len(own) + len({groups[i].kind for i in mines if groups[i].base is not None}) >= 2
        and len(singles) == 1
    ):
        states[singles[0][0]] = Cell.EXPLODED
    elif len(lone) == 1 and len(backgrounds) >= 2 and _apart(groups, lone[0][0], mines, covered):
        states[lone[0][0]] = Cell.EXPLODED


def _odd_mine(groups: list[Group], states: list[Cell | None], board: np.ndarray) -> int | None:
    """A group taken as a shown mine though drawn unlike the board's shown mines (one cell, while they
    are a look of several), that the counts do not prove a mine: read as a wrong flag instead, every
    number would show its mines as well (or as badly). A wrong flag is often a mine under a cross the
    shape tests miss; the mine that went off was named before (:func:`_settle_exploded`)."""
    mines = [i for i, s in enumerate(states) if s == Cell.MINE]
    if not any(len(groups[i].members) >= 2 for i in mines):
        return None
    shows = shows_every_mine(board)
    for i in mines:
        if len(groups[i].members) != 1:
            continue
        other = board.copy()
        other.flat[groups[i].members] = int(Cell.WRONG_FLAG)
        if shows_every_mine(other) == shows:
            return i
    return None


def _apart(groups: list[Group], i: int, mines: list[int], covered: tuple[bool, ...]) -> bool:
    """Whether a lone shown mine's ground sets it apart: its own, or a revealed tile while no other shown
    mine sits on one (they show on covered tiles or grounds of their own: the mine clicked opened its
    tile)."""
    if groups[i].base is None:
        return True
    revealed = [
        groups[k].base is not None and groups[k].kind is not None and not covered[groups[k].kind]
        for k in mines
    ]
    return revealed[mines.index(i)] and sum(revealed) == 1


def logic_problem(cells: np.ndarray) -> tuple[int, str] | None:
    """The first cell (flat index) whose reading no Minesweeper position allows, and why: a number
    below its shown mines or above those plus its covered and flagged neighbours, a 0 by a covered cell."""
    cols = cells.shape[1]
    numbers = cells <= Cell.EIGHT
    low, high = count_bounds(cells)
    over = numbers & (cells > high)
    under = numbers & (cells < low)
    lonely = (cells == Cell.ZERO) & (count_around(cells == Cell.COVERED) > 0)
    bad = np.flatnonzero((over | under | lonely).ravel())
    if not len(bad):
        return None
    i = int(bad[0])
    r, c = divmod(i, cols)
    if over[r, c]:
        n, hidden = int(cells[r, c]), int(high[r, c])
        return i, f"reads {n} but has only {hidden} covered, flagged or mine neighbour(s)"
    if under[r, c]:
        return i, f"reads {int(cells[r, c])} but {int(low[r, c])} shown mines touch it"
    return i, "reads 0 next to a covered cell"


def no_game_shows(cells: np.ndarray) -> tuple[int, str] | None:
    """The first cell (flat index) of a reading no game shows, and why: every cell 0 (a board with no
    mine: a misread, whatever read it), every cell a flag or a mine (a board with no cell free of one:
    the covered tile itself taken for a glyph) or a count no position allows (:func:`logic_problem`)."""
    if (cells == Cell.ZERO).all():
        return 0, "reads 0 like every other cell, a board with no mine"
    if np.isin(cells, (Cell.FLAG, Cell.WRONG_FLAG, Cell.MINE, Cell.EXPLODED)).all():
        return 0, "reads a flag or a mine like every other cell, a board with no cell free of one"
    return logic_problem(cells)


def _sure_digit(g: Group) -> int | None:
    """The digit a glyph group's shape alone names (every counting agrees, no other within the margin)."""
    assert g.costs is not None and g.raw_costs is not None and g.weighted is not None
    d = int(g.costs.argmin())
    if g.raw_costs.argmin() != d or g.weighted[0].argmin() != d or shape_choices(g.costs) != [d + 1]:
        return None
    return d + 1


def _font_over(font: Group, g: Group, d: int) -> bool:
    """Whether ``font``'s glyph of digit ``d`` is the board's over ``g``'s, whose shape names ``d`` too:
    in ``g``'s ink, and fitting the reference digit better by more than the margin that leaves another
    digit out of the question (:data:`bot.vision.digits.DIGIT_MARGIN`). Two glyphs that fit it about
    alike (one digit drawn whole and cut by a cell's edge) are two renderings of one font."""
    assert font.costs is not None and g.costs is not None and font.ink is not None and g.ink is not None
    if np.abs(font.ink - g.ink).max() > INK_APART:
        return False
    return bool(font.costs[d - 1] + DIGIT_MARGIN < g.costs[d - 1])


def _own_font(gs: list[Group]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The glyph groups' shape distances (plain, raw, weighted), with a digit ruled out for a group
    when the board's own glyph of it (a group its shape alone names) is farther from the group's glyph
    than that glyph is from its nearest other reference digit, and than the board's glyph is from the
    reference: the same digit of one font differs between cells only by rendering, far less than two
    digits differ (a bold 6 and 5 of one ink are otherwise near alike). A group its shape alone names
    the same digit is compared too, with a glyph of it that is the board's font over its own
    (:func:`_font_over`: KMines' lone 3 on the board's top row, 2 by the references at 0.18 against 3
    at 0.23, lay 0.24 from the board's own 2s, which fit the reference 2 at 0.08). A glyph cut off by
    its cell's edge where the board's glyph is whole (a 2 whose foot a neighbour hides), or either with
    a side a neighbour's ink hid (hidden by its own share: a 1 whose top a 2's foot covers), is not
    compared."""
    costs = np.stack([g.costs for g in gs])
    raw = np.stack([g.raw_costs for g in gs])
    weighted = np.stack([g.weighted for g in gs])
    sure = [_sure_digit(g) if g.shape == Shape.DIGIT else None for g in gs]  # a mine near a digit: no
    for a, g in enumerate(gs):
        for b, d in enumerate(sure):
            if d is None or b == a or g.glyph is None or gs[b].glyph is None:
                continue
            if sure[a] == d and not _font_over(gs[b], g, d):
                continue
            if set(g.glyph.cut) - set(gs[b].glyph.cut) or g.unseen or gs[b].unseen:
                continue  # the two may show different parts of one digit: not comparable
            others = np.delete(np.minimum(g.costs, g.raw_costs), d - 1)  # type: ignore[arg-type]
            apart = shape_distance(g.glyph, gs[b].glyph)
            if apart > max(float(others.min()), float(gs[b].costs[d - 1])):  # type: ignore[index]
                costs[a, d - 1] = raw[a, d - 1] = 1.0
                weighted[a, :, d - 1] = 1.0
    return costs, raw, weighted


def _small_costs(g: Group) -> np.ndarray:
    """``(8,)`` a glyph group's distances to references drawn at its own size
    (:func:`bot.vision.glyphs.own_size_distances`, holes counted as :attr:`Group.costs` counts them), where
    they fit it at least as well as any at the fixed size: a glyph too small for the fixed size's detail.
    9 (not compared) for a glyph as tall as the fixed size's box or taller (not sampled up to be
    compared), or cut off by its cell's edge or half hidden by a neighbour's ink (its own size is not the
    digit's)."""
    if g.glyph is None or g.costs is None or g.glyph.cut or g.unseen or g.glyph.height >= SHAPE_SIZE[0]:
        return np.full(8, 9.0)
    small = holes_counted(g.glyph, own_size_distances(g.glyph), True)
    return small if small.min() <= g.costs.min() else np.full(8, 9.0)


def _name_digits(
    groups: list[Group],
    states: list[Cell | None],
    rows: int,
    cols: int,
    covered: tuple[bool, ...],
    last: np.ndarray | None = None,
    unclear: bool = False,
) -> _Problem | None:
    """Give the digit groups on revealed tiles (and mines a digit shape is near, unless on a covered
    tile, which shows no digit) their states together (:func:`settle_digits`), in place; the cells and
    why when a group cannot be named, with every naming the board's counts leave open there when
    worked out (:attr:`bot.vision.digits.Settled.alternatives`, each a copy of ``states``). ``last``:
    an earlier exact reading of this board (flat states):
    a group its shape leaves unnamed may take the number all its cells showed there, when the counts
    agree and every cell that reading showed open shows the same now (a revealed cell never changes:
    the same game; a glyph a neighbour's ink has since half hidden). ``unclear``: a glyph not clearly a
    digit is named by its shape and the counts alone, wherever it sits (whether digits fit at all)."""
    open_groups = [
        i
        for i, (g, s) in enumerate(zip(groups, states, strict=True))
        if g.costs is not None
        and (
            (g.shape == Shape.DIGIT and s is not None and s <= Cell.EIGHT)
            or (
                g.shape == Shape.MINE
                and g.digit_too
                and s == Cell.MINE
                and not _on_covered(g, covered)
                and g.costs.min() <= CLEAR_DIGIT  # a poor digit fit: a mine drawn otherwise, or crossed out
            )
        )
    ]
    if not open_groups:
        return None
    board = np.empty(rows * cols, np.int16)
    for g, s in zip(groups, states, strict=True):
        board[g.members] = int(s) if s is not None else int(Cell.COVERED)
    costs, raw, weighted = _own_font([groups[i] for i in open_groups])
    prior: list[int | None] = []
    for i in open_groups:
        shown = np.unique(last[groups[i].members]) if last is not None else np.empty(0)
        prior.append(int(shown[0]) if len(shown) == 1 and Cell.ONE <= shown[0] <= Cell.EIGHT else None)
    # A digit sits on a revealed tile. Where the board shows revealed plain cells, a glyph on a ground
    # none of them shows is a digit only by a clear shape (or the number an earlier reading named); with
    # no revealed plain cell (a first number alone among covered cells) there is nothing to compare with.
    # A flat plain look of one cell alone on its kind, touching no covered cell, counts as revealed even
    # where taken as covered: a lone 0 among numbers may be taken for a covered tile (one the pointer lit,
    # :func:`_one_covered_look`, or by a texture one cell's pixels cannot tell), and the rule holds in
    # both readings, or the unclear digits it refuses in one are named in the other.
    plain_cells = [0] * len(covered)
    for g in groups:
        if g.shape == Shape.PLAIN and g.kind is not None:
            plain_cells[g.kind] += len(g.members)
    hidden = count_around((board == Cell.COVERED).reshape(rows, cols)).ravel()
    opened_plain = any(
        g.shape == Shape.PLAIN
        and g.kind is not None
        and (not covered[g.kind] or (plain_cells[g.kind] == 1 and not g.raised and hidden[g.members[0]] == 0))
        and s is not None
        for g, s in zip(groups, states, strict=True)
    )
    for i, known in zip(open_groups, prior, strict=True):
        g = groups[i]
        if (
            opened_plain
            and not unclear
            and g.base is None
            and known is None
            and g.costs is not None
            and g.costs.min() > CLEAR_DIGIT
        ):
            why = "cannot be named: not clearly a digit, on a ground no plain cell shows"
            return _Problem(list(g.members), why)
    settled = settle_digits(
        board.reshape(rows, cols),
        [groups[i].members for i in open_groups],
        costs,
        [groups[i].shape == Shape.MINE for i in open_groups],
        np.stack([groups[i].ink for i in open_groups]),
        raw,
        weighted,
        prior,
        np.stack([_small_costs(groups[i]) for i in open_groups]),
    )
    if settled.problem is not None:
        k, why = settled.problem
        readings = None
        if settled.alternatives is not None:
            readings = []
            for alternative in settled.alternatives:
                named = list(states)
                for i, state in zip(open_groups, alternative, strict=True):
                    named[i] = Cell(state)
                readings.append(named)
        return _Problem(list(groups[open_groups[k]].members), f"cannot be named: {why}", readings)
    for i, state in zip(open_groups, settled.states, strict=True):
        states[i] = Cell(state)
    if settled.remembered and last is not None:
        for i, g in enumerate(groups):
            board[g.members] = int(states[i]) if states[i] is not None else int(Cell.COVERED)
        opened = last <= Cell.EIGHT
        changed = np.flatnonzero(opened & (board != last))
        if len(changed):
            members = groups[open_groups[settled.remembered[0]]].members
            was, where = Cell(int(last[changed[0]])).name, divmod(int(changed[0]), cols)
            return _Problem(
                list(members),
                (
                    f"cannot be named by shape, and the reading that named it {int(last[members[0]])} "
                    f"showed {where} open as {was}: another game"
                ),
            )
    return None


def name_groups(
    groups: list[Group], texture: np.ndarray, rows: int, cols: int, last: np.ndarray | None = None
) -> list[Cell]:
    """A state for every group, or :class:`RecognitionError` naming a cell when structure and logic
    leave any doubt."""
    kinds = _attach(groups, texture)
    fits: list[tuple[tuple[bool, ...], list[Cell]]] = []
    problem: _Problem | None = None
    left_open: list[np.ndarray] = []  # whole readings the failed tries leave open, and whether each
    loose_fits: list[tuple[tuple[bool, ...], list[Cell]]] = []  # the same, unclear digits named (read_as)
    loose_open: list[np.ndarray] = []
    every_open = True  # failed try left some open (else the true reading may be none of them)
    options = sorted(_cover_options(kinds) if kinds else [()], key=any)  # the problem told is a board's
    # with a covered kind when one was tried: a reading with none is only the fallback
    if not options:
        marked = [g for g in groups if g.shape == Shape.MARK and g.kind is not None]
        raise _refuse(
            list(marked[0].members),
            cols,
            f"cannot be named: {marked[0].why}, on a flat tile no digit shows to be revealed",
        )

    def read_as(flagged: list[int], unclear: bool = False) -> _Problem | None:
        """Every reading the cover options allow, ``flagged`` groups taken as flags, added to ``fits``;
        the last problem found (what each failed try leaves open added to ``left_open``). ``unclear``:
        glyphs not clearly digits named by shape and counts (:func:`_name_digits`), into ``loose_fits``
        and ``loose_open`` instead."""
        nonlocal every_open
        problem = None
        into_fits, into_open = (loose_fits, loose_open) if unclear else (fits, left_open)
        for covered in options:
            named: list[Cell | None] = [
                Cell.FLAG
                if i in flagged
                else (Cell.COVERED if covered[g.kind] else Cell.ZERO)  # type: ignore[index]
                if g.shape == Shape.PLAIN
                else _glyph_state(g, covered)
                for i, g in enumerate(groups)
            ]
            shown = list(named)  # with the glyphs a lost board shows as mines named so
            claimed, marks = _claim_mines(groups, shown, covered)
            lost = bool(claimed) or any(s in (Cell.MINE, Cell.EXPLODED) for s in shown)
            loose = _loose_flags(groups, named, lost)
            if loose:
                problem = _Problem(
                    list(groups[loose[0]].members),
                    f"cannot be named: one of {len(loose)} glyphs unlike each other read as flags (a "
                    "client draws its flag one way): something drawn over the board, or cells cut off",
                )
                every_open = False
                continue
            named = shown
            if lost:
                marks += [i for i in flagged if i not in marks]  # a lost board: flag or wrong flag
            if len(marks) > MAX_MARKS:
                problem = _Problem(
                    list(groups[marks[0]].members),
                    "cannot be named: too many looks of flags to tell apart",
                )
                every_open = False
                continue
            for combo in itertools.product((Cell.FLAG, Cell.WRONG_FLAG), repeat=len(marks)):
                states = list(named)
                for i, state in zip(marks, combo, strict=True):
                    states[i] = state
                found = _whole_reading(groups, states, rows, cols, claimed, covered, last, unclear)
                if found is not None:
                    problem = found
                    every_open = every_open and found.readings is not None
                    into_open.extend(found.readings or ())
                    continue
                into_fits.append((covered, [s for s in states if s is not None]))
        return problem

    problem = read_as([])
    open_readings = left_open[:] if every_open else []  # the true one among them, if any fails
    # A glyph on a tile of its own colour that no digit fits may be a flag on its own tile (one tile
    # look for flags: the same glyph on a second ground, one cell alone, is a lost game's mines and the
    # one that went off). Not where digits fit: a reading with digits left open (shapes unclear, the
    # counts allowing more than one), or one with glyphs not clearly digits named by shape and counts
    # alone. Flags would be one more reading there, not the only one: the counts refute digits first.
    if not fits and not left_open:
        read_as([], unclear=True)
    if not fits and not left_open and not loose_fits and not loose_open:
        grounds = _own_grounds(groups)
        if len(grounds) <= MAX_MARKS:
            for ground in grounds:
                read_as(ground)
    fits = _one_covered_look(fits, kinds)
    if len(fits) == 1:
        return fits[0][1]
    if not fits:
        assert problem is not None
        refusal = _refuse(problem.cells, cols, problem.why)
        unique = {cells.tobytes(): cells for cells in open_readings}  # the player plays what is certain
        refusal.alternatives = tuple(unique.values())
        raise refusal
    differ = next(i for i in range(len(groups)) if len({f[1][i] for f in fits}) > 1)
    refusal = _refuse(
        list(groups[differ].members),
        cols,
        "is "
        + " or ".join(sorted({f[1][differ].name.lower() for f in fits}))
        + ": structure and logic allow either",
    )
    whole = []  # every reading that fits, cell by cell: the one shown is among them (for the player)
    for _, named in fits:
        cells = np.empty(rows * cols, np.int8)
        for g, s in zip(groups, named, strict=True):
            cells[g.members] = int(s)
        whole.append(cells.reshape(rows, cols))
    refusal.alternatives = tuple(whole)
    raise refusal


def _own_grounds(groups: list[Group]) -> list[list[int]]:
    """Glyph groups drawn on a ground of their own (no plain kind's tile: a flag's own tile, a digit on
    its own colour), one list per ground colour: each may be flags on a tile drawn for them, which only
    the board's logic can tell from digits (tried only when no reading with digits fits). Not a glyph
    with a side a neighbour's ink was painted over whose ground is the colour of the plain tiles' frame
    (their grid line): a glyph in the grid's colour over most of its cell, half repainted (a bold black
    4 under a neighbour's foot), not a tile drawn for flags."""
    plain = [g for g in groups if g.shape == Shape.PLAIN]
    fills = [_fill(g) for g in plain]
    bands = [_pixels(g.tile, 0, LINE_BAND) for g in plain]
    grounds: list[tuple[np.ndarray, list[int]]] = []
    for i, g in enumerate(groups):
        if g.base is not None or g.raised or g.shape not in (Shape.DIGIT, Shape.MARK):
            continue
        ground = own_background(g.tile, tuple(fills))
        if any(float(np.abs(ground - f).max()) <= KIND_DISTANCE for f in fills):
            continue  # on a plain kind's colour after all
        if g.unseen and any(
            float((_peak(np.abs(band - ground)) <= KIND_DISTANCE).mean()) >= LINE_SHARE for band in bands
        ):
            continue  # on the grid's colour, partly the repair's
        for colour, members in grounds:
            if float(np.linalg.norm(colour - ground)) < KIND_DISTANCE:
                members.append(i)
                break
        else:
            grounds.append((ground, [i]))
    return [members for _, members in grounds]


def _whole_reading(
    groups: list[Group],
    states: list[Cell | None],
    rows: int,
    cols: int,
    claimed: list[int],
    covered: tuple[bool, ...],
    last: np.ndarray | None = None,
    unclear: bool = False,
) -> _Problem | None:
    """Complete one hypothesis (digits and the exploded mine named in place) and check it is a possible
    position: the cells and why when it is not, with the whole readings (boards) the board's counts
    leave open when only a digit is left unnamed and they were worked out."""
    unnamed = [i for i, s in enumerate(states) if s is None]
    if unnamed:
        g = groups[unnamed[0]]
        return _Problem(list(g.members), f"cannot be named: {g.why}")
    unsure = _name_digits(groups, states, rows, cols, covered, last, unclear)
    if unsure is not None and unsure.readings is not None:
        boards = []
        for named in unsure.readings:
            if _possible(groups, named, rows, cols, claimed, covered) is None:
                boards.append(_board_of(groups, named, rows, cols))
        return unsure._replace(readings=boards)
    if unsure is not None:
        return unsure
    return _possible(groups, states, rows, cols, claimed, covered)


class _Problem(NamedTuple):
    """Cells a reading cannot name, why, and the whole readings left open there (None: not known)."""

    cells: list[int]
    why: str
    readings: list | None = None
    """States per group (from :func:`_name_digits`), then boards (from :func:`_whole_reading`)."""


def _board_of(groups: list[Group], states: list[Cell | None], rows: int, cols: int) -> np.ndarray:
    """The ``(rows, cols)`` board of every group's state."""
    board = np.empty(rows * cols, np.int8)
    for g, s in zip(groups, states, strict=True):
        board[g.members] = int(s)  # type: ignore[arg-type]
    return board.reshape(rows, cols)


def _possible(
    groups: list[Group],
    states: list[Cell | None],
    rows: int,
    cols: int,
    claimed: list[int],
    covered: tuple[bool, ...],
) -> _Problem | None:
    """Name the exploded mine of a hypothesis with every group named (in place) and check it is a
    possible position: the cells and why when it is not."""
    _settle_exploded(groups, states, covered)
    board = _board_of(groups, states, rows, cols)
    odd = _odd_mine(groups, states, board)
    if odd is not None:
        return _Problem(
            list(groups[odd].members),
            "cannot be named: one glyph drawn like a mine but unlike the board's other shown mines, "
            "with no number to tell a mine from a wrong flag (a mine under a cross)",
        )
    if claimed and not ((board == Cell.EXPLODED).any() and shows_every_mine(board)):
        g = groups[claimed[0]]
        return _Problem(
            list(g.members), f"cannot be named: {g.why}, and the board does not show it is a mine"
        )
    found = no_game_shows(board)
    if found is not None:
        return _Problem([found[0]], found[1])
    unsatisfiable = frontier_problem(board)
    if unsatisfiable is not None:
        return _Problem(
            [unsatisfiable[0] * cols + unsatisfiable[1]],
            "is part of numbers no arrangement of mines satisfies",
        )
    return None


# -- a lost board with every cell open --------------------------------------------------------------

LOOK_RING = 1
"""Pooled pixels along a look's edge left out when a lost board every cell of which is open is grouped:
each cell's edge there shows its neighbours' lines (and any outline drawn around them), its inside its
own state (:func:`_all_open_lost`)."""


def _inner_looks(looks: np.ndarray, ring: int = LOOK_RING) -> np.ndarray:
    """Pooled looks ``(N, P, 3)`` less their outer ``ring`` pixels."""
    side = TILE // POOL
    square = looks.reshape(len(looks), side, side, 3)[:, ring : side - ring, ring : side - ring]
    return np.ascontiguousarray(square.reshape(len(looks), -1, 3))


def _drawn_alike(g: Group, other: Group, own: bool = False) -> bool:
    """Whether two glyph groups draw one glyph: in one ink, each nearer the other's glyph than any digit's
    (the mines of a lost board in two looks of the cell around them); ``own``: ``g`` nearer ``other``'s
    glyph than any digit's (``other`` the board's own glyph of a digit: its font, not the references)."""
    if g.glyph is None or other.glyph is None or g.costs is None or other.costs is None:
        return False
    if g.ink is None or other.ink is None or np.abs(g.ink - other.ink).max() > INK_APART:
        return False
    nearest = float(g.costs.min()) if own else min(float(g.costs.min()), float(other.costs.min()))
    return shape_distance(g.glyph, other.glyph) < nearest


def _counted(
    groups: list[Group], mines: np.ndarray, rows: int, cols: int
) -> tuple[np.ndarray, list[int]] | None:
    """A lost board's states with every cell open and ``mines`` (flat, bool) its shown mines: each glyph
    group not a mine is the number of mines around its cells (the same for all of them, at least 1, one
    ink per number), each plain cell 0; and the plain cells with mines around (drawn blank: their number
    hidden, as only a flag hides it), for the caller. None when the counts name no such board."""
    around = count_around(mines.reshape(rows, cols)).ravel()
    states = np.where(mines, int(Cell.MINE), int(Cell.ZERO)).astype(np.int16)
    inks: dict[int, np.ndarray] = {}
    blank: list[int] = []
    for g in groups:
        if mines[g.members].all():
            continue
        if mines[g.members].any():
            return None
        values = np.unique(around[g.members])
        if g.shape == Shape.PLAIN:
            blank += [int(i) for i in g.members[around[g.members] > 0]]
            continue
        if len(values) != 1 or values[0] == 0 or g.ink is None:
            return None
        n = int(values[0])
        if n in inks and np.abs(inks[n] - g.ink).max() > INK_APART:
            return None
        inks.setdefault(n, g.ink)
        states[g.members] = n
    return states, blank


def _blank_flags(groups: list[Group], mines: np.ndarray, rows: int, cols: int) -> list[np.ndarray]:
    """Every reading (flat states) of a lost board with every cell open, ``mines`` its shown mines, that
    the counts allow: a cell drawn blank with mines around hides its number, so it was flagged, and the
    counts tell a flag on a mine from a wrong one (each way tried; at most ``MAX_MARKS`` such cells)."""
    first = _counted(groups, mines, rows, cols)
    if first is None:
        return []
    _, blank = first
    if len(blank) > MAX_MARKS:
        return []
    readings = []
    for under in itertools.product((False, True), repeat=len(blank)):
        shown = mines.copy()
        shown[[i for i, m in zip(blank, under, strict=True) if m]] = True
        found = _counted(groups, shown, rows, cols)
        if found is None or set(found[1]) != {i for i, m in zip(blank, under, strict=True) if not m}:
            continue
        states = found[0]
        for i, m in zip(blank, under, strict=True):
            states[i] = int(Cell.FLAG if m else Cell.WRONG_FLAG)
        readings.append(states)
    return readings


def _apart_at_edge_only(looks: np.ndarray, members: np.ndarray, cell: int, rows: int, cols: int) -> bool:
    """Whether ``cell`` on the board's edge is drawn like ``members`` over the half of it that faces the
    board: what sets it apart lies on its outer side, where a grid a pixel or two off takes in the
    window beyond the board, not the cell's own frame (a mine that went off is framed all round)."""
    row, col = divmod(cell, cols)
    side = TILE // POOL
    keep = np.ones((side, side), bool)
    half = side // 2
    for edge, band in (
        (row == 0, np.s_[:half, :]),
        (row == rows - 1, np.s_[side - half :, :]),
        (col == 0, np.s_[:, :half]),
        (col == cols - 1, np.s_[:, side - half :]),
    ):
        if edge:
            keep[band] = False
    if keep.all() or not keep.any():
        return False
    main = looks[members].mean(axis=0)
    diff = np.abs(looks[cell] - main).reshape(side, side, 3)[keep]
    return bool(_alike(diff[None])[0])


def _all_open_lost(
    looks: np.ndarray,
    tiles: np.ndarray,
    texture: np.ndarray,
    painted: np.ndarray | None,
    pixels: np.ndarray | None,
    rows: int,
    cols: int,
    last: np.ndarray | None,
) -> np.ndarray | None:
    """A lost board whose every cell is open (no covered look), read by its own logic when the looks
    name nothing: cells grouped on their insides (:func:`_inner_looks`), the mines one glyph drawn alike
    wherever it shows, every number the count of mines around it (however its digit is drawn: clipped,
    or on a tile of its own), the mine that went off the one drawn like them inside but framed apart (an
    outline), less those ``last`` showed flagged. Flat states, or None when no such board, or more than
    one, fits; raises naming the cells when the counts fit but which mine went off is not shown."""
    labels = group_cells(_inner_looks(looks))
    if labels.max() + 1 > MAX_GROUPS or labels.max() == 0:
        return None
    groups = _groups_of(labels, tiles, painted, pixels)
    kinds = _plain_kinds(groups, texture)
    if any(kind.raised or kind.texture >= TEXTURE for kind in kinds) or any(g.raised for g in groups):
        return None  # a covered look: not every cell is open
    _glyph_shapes(groups, kinds)
    glyphs = [i for i, g in enumerate(groups) if g.shape != Shape.PLAIN and g.glyph is not None]
    fits: list[tuple[list[int], np.ndarray]] = []
    tried: set[tuple[int, ...]] = set()
    for c in glyphs:
        drawn = [i for i in glyphs if i == c or _drawn_alike(groups[i], groups[c])]
        if tuple(drawn) in tried:
            continue
        tried.add(tuple(drawn))
        mines = np.zeros(rows * cols, bool)
        for i in drawn:
            mines[groups[i].members] = True
        fits += [(drawn, states) for states in _blank_flags(groups, mines, rows, cols)]
    if len(fits) != 1:
        return None
    drawn, states = fits[0]
    main = groups[max(drawn, key=lambda i: len(groups[i].members))]
    odd = [int(m) for i in drawn if groups[i] is not main for m in groups[i].members]
    odd = [m for m in odd if not _apart_at_edge_only(looks, main.members, m, rows, cols)]
    inside = _inner_looks(looks, LOOK_RING + 1)
    if not odd or not all(_alike(np.abs(inside[main.members] - inside[i])).any() for i in odd):
        return None  # no mine, or one unlike the rest inside too (a cell lit up): not shown which went off
    if last is not None and not (states[last <= Cell.EIGHT] == last[last <= Cell.EIGHT]).all():
        last = None  # another game's reading
    flagged = [i for i in odd if last is not None and last[i] == Cell.FLAG]
    went_off = [i for i in odd if i not in flagged]
    if len(went_off) != 1:
        before = " and not flagged before" if last is not None else ""
        raise _refuse(
            went_off or [int(main.members[0])],
            cols,
            f"is a shown mine of a lost board with {len(went_off)} drawn unlike the rest{before}: "
            "which went off is not shown (a flag on a mine may be drawn as it is)",
        )
    states[flagged] = int(Cell.FLAG)
    states[went_off[0]] = int(Cell.EXPLODED)
    return states


# -- the reader --------------------------------------------------------------------------------------


def _cut_edge(image: np.ndarray, geometry: Geometry, looks: np.ndarray) -> tuple[list[int], str] | None:
    """The cells along an edge past which the grid goes on (most cells one pitch beyond it look like one
    of the board's ``looks``, in more than one look), and why; None when every edge inside the image ends
    the grid."""
    g = geometry
    height, width = image.shape[:2]
    last_col = [r * g.cols + g.cols - 1 for r in range(g.rows)]
    last_row = [(g.rows - 1) * g.cols + c for c in range(g.cols)]
    beyond = (
        ("right", replace(g, left=g.left + g.cols * g.pitch_x, cols=1), last_col),
        ("left", replace(g, left=g.left - g.pitch_x, cols=1), [i - g.cols + 1 for i in last_col]),
        ("bottom", replace(g, top=g.top + g.rows * g.pitch_y, rows=1), last_row),
        ("top", replace(g, top=g.top - g.pitch_y, rows=1), list(range(g.cols))),
    )
    for side, strip, edge in beyond:
        region = strip.region()
        if region.left < 2 or region.top < 2 or region.right > width - 2 or region.bottom > height - 2:
            continue  # past the image: nothing to see
        past = looks_of(crop_board(image, strip))
        hits, _ = alike(past, looks)
        if (hits >= 0).mean() < EDGE_ALIKE:
            continue
        shown = group_cells(past)[hits >= 0]  # one look alone may be a background like a flat 0
        if len(np.unique(shown)) >= 2:
            return edge, f"is on the board's {side} edge, but the grid goes on past it: the board is cut"
    return None


def read_cells(image: np.ndarray, geometry: Geometry, model: GenericModel | None = None) -> CellReading:
    """Read every cell of ``geometry`` with no skin; raises :class:`RecognitionError` rather than guess.

    ``model`` carries what earlier frames of the same game taught; it learns from this frame when the
    frame is read.
    """
    from bot.vision.memory import keep_freed_memory

    keep_freed_memory()  # its large arrays reused from one reading to the next, not faulted in again
    rows, cols = geometry.rows, geometry.cols
    repaired, painted, pixels = repair_runs(image, geometry)  # glyphs spilling over painted over
    crop = crop_board(repaired, geometry)
    looks = looks_of(crop)
    states = np.full(rows * cols, -1, np.int16)
    if model is not None and len(model.looks):
        known, _ = alike(looks, model.looks)
        hit = known >= 0
        states[hit] = np.array([int(s) for s in model.states])[known[hit]]
        if hit.all():
            return _kept(model, _result(geometry, states, "generic (learnt)"))
    tiles, texture = cut_tiles(crop)
    labels = group_cells(looks)
    cut = _cut_edge(
        image, geometry, np.stack([looks[labels == k].mean(axis=0) for k in range(labels.max() + 1)])
    )
    if cut is not None:
        raise _refuse(cut[0], cols, cut[1])
    if labels.max() == 0 and min(rows, cols) < MIN_SIDE:
        raise _refuse(
            list(range(rows * cols)),
            cols,
            f"is one look like every other cell of a {rows}x{cols} grid: too small to tell from a toolbar",
        )
    one = tiles.mean(axis=0)
    if (
        labels.max() == 0
        and not framed(one)
        and _ramp_residual(one[INSET:-INSET, INSET:-INSET]) <= FLAT_RESIDUAL
    ):
        raise _refuse(
            list(range(rows * cols)),
            cols,
            "is one flat colour like every other cell, no grid line, gap or bevel between them: no board",
        )
    if labels.max() == 0:  # no position but a fresh board shows one state in every cell
        states[:] = int(Cell.COVERED)  # whatever its picture resembles (a symmetric butterfly, a tuft)
        if model is not None:
            model.remember(looks.mean(axis=0)[None], [Cell.COVERED])
        return _result(geometry, states, "generic")
    last = model.last if model is not None and model.last is not None else None
    last = last if last is not None and last.size == rows * cols else None
    try:
        if labels.max() + 1 > MAX_GROUPS:
            odd = np.nonzero(np.bincount(labels) == 1)[0]
            lone = np.nonzero(np.isin(labels, odd))[0] if len(odd) else np.arange(1)
            raise _refuse(
                list(lone),
                cols,
                f"is one of {labels.max() + 1} different looks: cells not aligned, or no board",
            )
        groups = _groups_of(labels, tiles, painted, pixels)
        named = name_groups(groups, texture, rows, cols, last)
    except RecognitionError:
        opened = _all_open_lost(looks, tiles, texture, painted, pixels, rows, cols, last)
        if opened is None:
            raise
        return _kept(model, _result(geometry, opened, "generic"))  # a lost game's end: nothing to learn
    if Cell.FLAG in named and Cell.COVERED not in named:  # won with flags, or lost, its mines taken for
        opened = _all_open_lost(looks, tiles, texture, painted, pixels, rows, cols, last)  # flags?
        if opened is not None:  # one of them framed apart: the mine that went off
            return _kept(model, _result(geometry, opened, "generic"))
    for g, s in zip(groups, named, strict=True):
        states[g.members] = int(s)
    if model is not None:
        model.remember(np.stack([looks[g.members].mean(axis=0) for g in groups]), named)
    return _kept(model, _result(geometry, states, "generic"))


def _groups_of(
    labels: np.ndarray, tiles: np.ndarray, painted: np.ndarray | None, pixels: np.ndarray | None
) -> list[Group]:
    """One :class:`Group` per label (its members' mean tile), with the sides a neighbour's ink was painted
    over on and the ink it ran on past its own (:func:`bot.vision.overdraw.repair_runs`)."""
    groups = [
        Group(members, _mean_tile(tiles, members))
        for members in (np.nonzero(labels == k)[0] for k in range(labels.max() + 1))
    ]
    if painted is not None:
        from bot.vision.overdraw import painted_sides

        sides = painted.reshape(len(labels), -1)
        shown = painted_sides(pixels)  # type: ignore[arg-type]
        for g in groups:
            g.unseen = tuple(
                n for n, hit in zip(SIDE_NAMES, sides[g.members].any(axis=0), strict=True) if hit
            )
            g.runs = runs_on(pixels, g.members, shown)  # type: ignore[arg-type]
    return groups


def _mean_tile(tiles: np.ndarray, members: np.ndarray) -> np.ndarray:
    """``tiles[members].mean(axis=0)`` to the bit, with no copy of the members' tiles (a board's covered
    group holds hundreds): summed in place in member order, as numpy sums along the first axis, then
    divided as ``np.mean`` divides (:func:`mean_rows`)."""
    first, *rest = members.tolist()
    total = tiles[first].copy()
    for i in rest:
        total += tiles[i]
    return np.true_divide(total, np.intp(len(members)), out=total, casting="unsafe")


def _kept(model: GenericModel | None, reading: CellReading) -> CellReading:
    """``reading``, kept in ``model`` as the last exact one."""
    if model is not None:
        model.last = reading.states.ravel().copy()
    return reading


def _result(geometry: Geometry, states: np.ndarray, name: str) -> CellReading:
    """A :class:`CellReading` of sure states (confidence 1, distance 0), after the board-logic check."""
    grid = states.reshape(geometry.rows, geometry.cols).astype(np.int8)
    found = logic_problem(grid)
    if found is not None:
        raise _refuse([found[0]], geometry.cols, found[1])
    shape = grid.shape
    return CellReading(
        geometry=geometry,
        skin_name=name,
        states=grid,
        second=grid.copy(),
        distance=np.zeros(shape),
        confidence=np.ones(shape),
    )


def read_board_cells(image: np.ndarray, geometry: Geometry, mines: int | None = None) -> Board:
    """The board read with no skin (a convenience for tests and benchmarks)."""
    return read_cells(image, geometry).board(mines)


__all__ = [
    "GENERIC",
    "GenericModel",
    "read_cells",
    "read_board_cells",
    "logic_problem",
    "no_game_shows",
    "cut_tiles",
]
