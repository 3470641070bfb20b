"""A skin the game teaches itself: templates cut from frames the skinless reader read exactly.

Why: reading with no skin (:mod:`bot.vision.generic`) costs 30-170 ms a frame, the template path
(:func:`bot.vision.classify.classify_cells`) about 1 ms. Once the skinless reader has read a frame
exactly (every cell sure, the board's logic satisfied), each of its cells is a template of its state,
cut at this board's geometry; the next frames are read against them. Only a frame every cell of which
matches a template surely, and whose reading is a possible position, is taken from the templates. A
cell that matches none surely (a first 6, a mine at the end, a hovered tile) is never guessed: the
frame goes back to the skinless reader, and its exact reading adds the looks the templates lacked.

Templates are the cells' feature blocks themselves (:data:`bot.vision.classify.FEATURE_SIZE` pixels
square, cut by :func:`reduce_board` exactly as a reading cuts them), so a cell read again on the frame
it was cut from sits at distance 0 from its template. A state drawn in several looks
(shaded covered tiles, a glyph its neighbour overdraws) keeps each look as a variant of the state.

>>> from bot.board import Board
>>> from bot.render import render_screen
>>> from bot.vision.generic import read_cells
>>> board = Board.from_text("1F1\\n111\\n000", mines=1)
>>> image, geometry = render_screen(board, "classic", 1.25, seed=1)
>>> taught = TaughtSkin()
>>> taught.read(image, geometry) is None  # nothing taught yet
True
>>> taught.learn(image, geometry, read_cells(image, geometry).states)
>>> print(taught.read(image, geometry).board(1))
1F1
111
000
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from bot.board import Cell
from bot.game import FirstClickRule
from bot.geometry import Geometry
from bot.skin import Skin
from bot.vision.classify import ACCEPT_FLOOR, COARSE_WEIGHT, DIGITS, FEATURE_SIZE, CellReading, classify_cells
from bot.vision.naming import logic_problem

LOGGER = logging.getLogger(__name__)

TAUGHT = "generic (taught)"
"""The name of a taught skin (and of its readings)."""

MAX_DISTANCE = ACCEPT_FLOOR
"""Farthest (RMS, 0-255) a cell may be from its state's nearest look to be read from the templates:
what resampling alone moves a cell from its template (:data:`bot.vision.classify.ACCEPT_FLOOR`).
Templates cut from the same screen at the same geometry differ from their cells by less. Closer
still when two taught states look closer (:meth:`TaughtSkin.limit`)."""

SAFE_FRACTION = 0.5
"""A cell is read as a state from the templates only within this fraction of the distance from that
state's looks to the nearest look of another state, capped by the nearest two looks of different states
of its kind (digits, or the rest): a state never taught (a first 4 of one ink among 3s) is assumed no
nearer to a taught look than taught looks of its kind are to one another, so it falls outside every
look's reach and goes to the skinless reader, which names digits by shape (GNOME Mines' one-ink digits: a
4 is 10 from a 3 in these blocks, and was read as a 3 from the templates with the old fixed 12). Per
kind, not over the whole board: a blank drawn near a covered tile (KMines' glossy tiles on a shaded
ground) does not narrow the reach of digits drawn in colours far apart."""

MAX_LOOKS = 8
"""Most looks kept of one state; cells in yet another look keep going to the skinless reader."""

PITCH_SLACK = 0.01
"""Pitch change (pixels) past which the board is drawn at another size: the templates are dropped."""


SAMPLE_STEP = 2.0
"""Most pixels between two samples when a board is reduced (:func:`reduce_board`): every pixel of a cell
counts towards its feature block, so no stroke that tells two states apart falls between samples."""


@dataclass(frozen=True, eq=False)
class Reduced:
    """A board at ``FEATURE_SIZE`` pixels per cell (what the templates are cut from and read on)."""

    board: np.ndarray
    geometry: Geometry
    """The cells' geometry on ``board``: ``FEATURE_SIZE`` pitch from (0, 0)."""


def reduce_board(image: np.ndarray, geometry: Geometry) -> Reduced | None:
    """The board at ``FEATURE_SIZE`` pixels per cell, or None when the board is not wholly on ``image``.

    Sampled bilinearly at most ``SAMPLE_STEP`` pixels apart, then averaged down by a whole factor: about
    an area average (what :func:`bot.vision.classify.board_crop` does), at a tenth of its cost for a
    non-integer ratio. Templates and readings are both cut this way, so they agree exactly.
    """
    rows, cols, size = geometry.rows, geometry.cols, FEATURE_SIZE
    x0, y0 = round(geometry.left), round(geometry.top)
    x1, y1 = round(geometry.left + cols * geometry.pitch_x), round(geometry.top + rows * geometry.pitch_y)
    if x0 < 0 or y0 < 0 or x1 > image.shape[1] or y1 > image.shape[0] or x1 <= x0 or y1 <= y0:
        return None
    crop = image[y0:y1, x0:x1]
    factor = max(1, math.ceil(max(geometry.pitch_x, geometry.pitch_y) / (size * SAMPLE_STEP)))
    fine = cv2.resize(crop, (cols * size * factor, rows * size * factor), interpolation=cv2.INTER_LINEAR)
    if factor > 1:
        fine = cv2.resize(fine, (cols * size, rows * size), interpolation=cv2.INTER_AREA)
    return Reduced(fine, Geometry(0, 0, size, size, rows, cols))


def cell_blocks(board: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``(rows, cols, FEATURE_SIZE, FEATURE_SIZE, 3)`` uint8: every cell of a reduced board."""
    size = FEATURE_SIZE
    return board.reshape(rows, size, cols, size, 3).swapaxes(1, 2)


def same_drawing(a: Geometry, b: Geometry) -> bool:
    """Whether two geometries draw cells at one size (the window may have moved, and a board found
    in part has cells of the same look)."""
    return abs(a.pitch_x - b.pitch_x) <= PITCH_SLACK and abs(a.pitch_y - b.pitch_y) <= PITCH_SLACK


def _typical(blocks: np.ndarray) -> int:
    """Index of the block nearest the blocks' mean (a typical look, not an outlier)."""
    flat = blocks.reshape(len(blocks), -1).astype(np.float32)
    return int(((flat - flat.mean(axis=0)) ** 2).sum(axis=1).argmin())


def look_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``(len(a), len(b))`` distances between two stacks of looks, measured as
    :func:`bot.vision.classify.classify_cells` measures a cell from a template: RMS over the block
    and, ``COARSE_WEIGHT`` times, over its 2x2 averages."""

    def features(looks: np.ndarray) -> np.ndarray:
        looks = looks.astype(np.float32)
        n, h, w = len(looks), looks.shape[1] // 2 * 2, looks.shape[2] // 2 * 2
        coarse = looks[:, :h, :w].reshape(n, h // 2, 2, w // 2, 2, 3).mean(axis=(2, 4))
        return np.concatenate([looks.reshape(n, -1), COARSE_WEIGHT * coarse.reshape(n, -1)], axis=1)

    fa, fb = features(a), features(b)
    weight = a[0].size + COARSE_WEIGHT**2 * a[0].size / 4
    squared = (fa * fa).sum(1)[:, None] + (fb * fb).sum(1)[None, :] - 2.0 * fa @ fb.T
    return np.sqrt(np.maximum(squared, 0.0) / weight)


def nearest_states(looks: dict[Cell, list[np.ndarray]]) -> float:
    """The distance between the two nearest looks of different states (inf with one state taught)."""
    between = state_distances(looks)
    return min((d for pair, d in between.items() if pair[0] != pair[1]), default=math.inf)


def state_distances(looks: dict[Cell, list[np.ndarray]]) -> dict[tuple[Cell, Cell], float]:
    """The distance between the nearest looks of each two taught states."""
    states = [state for state, kept in looks.items() for _ in kept]
    if not states:
        return {}
    stack = np.stack([look for kept in looks.values() for look in kept])
    distances = look_distances(stack, stack)
    owner = np.array(states)
    return {(a, b): float(distances[np.ix_(owner == a, owner == b)].min()) for a in looks for b in looks}


def reaches(looks: dict[Cell, list[np.ndarray]]) -> dict[Cell, float]:
    """How far a cell may be from a taught state's looks to be read as it: :data:`MAX_DISTANCE`, and
    within :data:`SAFE_FRACTION` of the distance to the nearest other state, that capped by the nearest
    two states of its kind (:data:`bot.vision.classify.DIGITS`, or the rest): a state never taught may
    sit as near a look as any two of its kind do."""
    between = {pair: d for pair, d in state_distances(looks).items() if pair[0] != pair[1]}
    reach = {}
    for state in looks:
        kind = state in DIGITS
        nearest = [d for (a, b), d in between.items() if a == state or (a in DIGITS) == (b in DIGITS) == kind]
        reach[state] = min(MAX_DISTANCE, SAFE_FRACTION * min(nearest, default=math.inf))
    return reach


def sure_reading(geometry: Geometry, states: np.ndarray) -> CellReading:
    """A :class:`CellReading` of ``states``, every cell sure (confidence 1, distance 0)."""
    return CellReading(geometry, TAUGHT, states, states.copy(), np.zeros(states.shape), np.ones(states.shape))


@dataclass
class TaughtSkin:
    """Looks of each state cut from exactly read frames of one board, and the skin they make."""

    geometry: Geometry | None = None
    """The geometry the looks were cut at (``None``: nothing taught yet)."""
    looks: dict[Cell, list[np.ndarray]] = field(default_factory=dict)
    """``(FEATURE_SIZE, FEATURE_SIZE, 3)`` uint8 looks per state, the first its template."""
    _skin: Skin | None = None
    _limit: np.ndarray | None = None
    _last: tuple[np.ndarray, np.ndarray] | None = None
    """The cell blocks (:func:`cell_blocks`) and states of the last exact reading: a cell whose pixels
    are the same again is the same state, and only the cells that changed are classified."""
    _held: tuple[np.ndarray, Geometry, np.ndarray] | None = None
    """A skinless reading not yet learnt (:meth:`hold`): learnt only once its board is accepted."""

    def hold(self, image: np.ndarray, geometry: Geometry, states: np.ndarray) -> None:
        """Keep a skinless reading of ``image`` to learn once the board it makes passes every check
        (:meth:`learn_held`); a reading refused after it (too few mines shown, say) is never taught.
        Holds the image itself, not a copy: call :meth:`learn_held` before the next grab."""
        self._held = (image, geometry, states.copy())

    def drop_held(self) -> None:
        """Forget a held reading that was not accepted."""
        self._held = None

    def learn_held(self, geometry: Geometry) -> None:
        """:meth:`learn` the held reading, if it was read at ``geometry`` (the board accepted)."""
        held, self._held = self._held, None
        if held is not None and held[1] == geometry:
            self.learn(*held)

    def skin(self) -> Skin | None:
        """The looks as a :class:`Skin` (first look the template, the rest variants), or None."""
        if self._skin is None and self.looks:
            self._skin = Skin(
                TAUGHT,
                Path(TAUGHT),
                FEATURE_SIZE,
                FirstClickRule.NONE,
                description="templates cut from frames read with no skin",
                cells={state: looks[0] for state, looks in self.looks.items()},
                variants={state: looks[1:] for state, looks in self.looks.items() if len(looks) > 1},
            )
        return self._skin

    def limits(self) -> np.ndarray:
        """The farthest a cell may be from each state's looks to be read as it (:func:`reaches`),
        indexed by the state's value (0 for a state not taught)."""
        if self._limit is None:
            self._limit = np.zeros(max(Cell) + 1, np.float32)
            for state, reach in reaches(self.looks).items():
                self._limit[state] = reach
        return self._limit

    def _classify_blocks(self, board: np.ndarray, geometry: Geometry) -> CellReading | None:
        """Cells of a reduced ``board`` classified against the looks, a cell farther from its state's
        looks than that state's reach marked uncertain; None with nothing taught."""
        skin = self.skin()
        if skin is None:
            return None
        reading = classify_cells(board, geometry, skin, max_distance=MAX_DISTANCE, colours=None)
        return replace(reading, max_distance=self.limits()[reading.states])

    def _classify(self, reduced: Reduced) -> CellReading | None:
        """A reduced board classified against the looks (uncertain cells marked), or None with none."""
        return self._classify_blocks(reduced.board, reduced.geometry)

    def classify(self, image: np.ndarray, geometry: Geometry) -> tuple[Reduced, CellReading] | None:
        """The board reduced and classified against the looks, uncertain cells marked; None when nothing
        was taught at this drawing of the board, or the board is not wholly on ``image``."""
        if self.geometry is None or not same_drawing(self.geometry, geometry):
            return None
        reduced = reduce_board(image, geometry)
        reading = None if reduced is None else self._classify(reduced)
        return None if reduced is None or reading is None else (reduced, reading)

    def read(self, image: np.ndarray, geometry: Geometry) -> CellReading | None:
        """Every cell read from the templates, when each matches one surely and the reading is a
        possible position; else None (the frame is for the skinless reader).

        A cell whose pixels are those of the last exact reading keeps its state (same pixels, same
        reading); only the cells that changed are classified, as one strip of blocks.
        """
        skin = self.skin()
        if skin is None or self.geometry is None or not same_drawing(self.geometry, geometry):
            return None
        reduced = reduce_board(image, geometry)
        if reduced is None:
            return None
        blocks = cell_blocks(reduced.board, geometry.rows, geometry.cols)
        if self._last is not None and self._last[0].shape == blocks.shape:
            changed = (blocks != self._last[0]).any(axis=(2, 3, 4))
            states = self._last[1].copy()
        else:
            changed = np.ones((geometry.rows, geometry.cols), bool)
            states = np.zeros((geometry.rows, geometry.cols), np.int8)
        if changed.any():
            moved = blocks[changed]
            strip = np.ascontiguousarray(moved.transpose(1, 0, 2, 3).reshape(FEATURE_SIZE, -1, 3))
            at = Geometry(0, 0, FEATURE_SIZE, FEATURE_SIZE, 1, len(moved))
            reading = self._classify_blocks(strip, at)
            if reading is None or reading.uncertain_mask().any():
                return None
            states[changed] = reading.states[0]
        if logic_problem(states) is not None:
            return None
        self._last = (blocks.copy(), states.copy())
        return sure_reading(geometry, states)

    def add(self, templates: dict[Cell, np.ndarray]) -> None:
        """Take the looks of states none was taught for, cut from a :class:`Reduced` board (what the
        board's logic forced, :func:`bot.agent.learning.learn_unseen`)."""
        for state, look in templates.items():
            if state not in self.looks:
                self.looks[state] = [np.ascontiguousarray(look)]
                self._skin = self._limit = None

    def learn(self, image: np.ndarray, geometry: Geometry, states: np.ndarray) -> None:
        """Add the looks an exact reading ``states`` of ``image`` shows and the templates do not read
        as their states, one typical cell per state at a time, until the frame reads as read."""
        if self.geometry is None or not same_drawing(self.geometry, geometry):
            self.geometry, self.looks, self._skin, self._limit = geometry, {}, None, None
        reduced = reduce_board(image, geometry)
        if reduced is None:
            return
        blocks = cell_blocks(reduced.board, geometry.rows, geometry.cols)
        self._last = (blocks.copy(), states.astype(np.int8))
        for _ in range(len(Cell) * MAX_LOOKS):
            reading = self._classify(reduced)
            misfit = np.ones(states.shape, bool)
            if reading is not None:
                misfit = (reading.states != states) | reading.uncertain_mask()
            added = False
            for value in np.unique(states[misfit]).tolist():
                state = Cell(int(value))
                looks = self.looks.setdefault(state, [])
                if len(looks) >= MAX_LOOKS:
                    continue
                cells = blocks[misfit & (states == value)]
                looks.append(np.ascontiguousarray(cells[_typical(cells)]))
                added = True
            if not added:
                return
            self._skin = self._limit = None
        LOGGER.info("taught skin: %d looks after the last pass", sum(map(len, self.looks.values())))
