"""Classify every cell of a located board in one vectorised pass, with a confidence per cell.

The board crop is resampled so each cell is exactly the skin's nominal ``cell_size``; every cell is then
compared with every template at once (RMS colour distance, via one matrix product). A cell's confidence
is ``1 - best / second_best`` distance: 0 when two states look alike, near 1 when one state clearly wins.
A cell under the confidence threshold, or far from every template, is *uncertain* and is never guessed.

>>> import numpy as np
>>> from bot.skin import Skin
>>> from bot.game import FirstClickRule
>>> from bot.geometry import Geometry
>>> grey, white = np.full((2, 2, 3), 128, np.uint8), np.full((2, 2, 3), 255, np.uint8)
>>> skin = Skin("tiny", None, 2, FirstClickRule.SAFE, cells={Cell.COVERED: white, Cell.ZERO: grey})
>>> screen = np.hstack([white, grey, white])
>>> reading = classify_cells(screen, Geometry(0, 0, 2, 2, rows=1, cols=3), skin)
>>> reading.board().to_text(), float(reading.confidence.min())
('.0.', 1.0)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

import cv2
import numpy as np

from bot.board import Board, Cell, Coord
from bot.errors import RecognitionError
from bot.geometry import Geometry
from bot.skin import Skin

LOGGER = logging.getLogger(__name__)

T = TypeVar("T")

MIN_CONFIDENCE = 0.3
"""A cell whose best template is not clearly better than the second best (1 - d1/d2) is uncertain."""

BLUR_SIGMA = 1.2
"""Gaussian blur (nominal pixels) applied to each cell and each template before comparing."""

BLUR_PAD = 2
"""Half the blur kernel: each cell is blurred with its own edge repeated this far."""

MAX_DISTANCE = 48.0
"""A cell whose RMS distance (0-255 scale) to its best template exceeds this looks like nothing known."""


@dataclass(frozen=True, eq=False)
class SkinModel:
    """A skin's cell templates flattened into one matrix, ready for vectorised distances."""

    skin: Skin
    states: tuple[Cell, ...]
    """The cell state of each template row, in order."""
    matrix: np.ndarray
    """``(K, D)`` float32: each template, padded to ``cell_size`` and flattened over its mask."""
    norms: np.ndarray
    """``(K,)`` squared norms of the rows of ``matrix``."""
    height: int
    width: int
    """The part of each ``cell_size`` block the templates cover (a grid line after it is left out)."""

    @property
    def cell_size(self) -> int:
        return self.skin.cell_size


_PER_SKIN: dict[tuple[int, str], tuple[Skin, object]] = {}


def per_skin(skin: Skin, name: str, build: Callable[[Skin], T]) -> T:
    """``build(skin)``, computed once per loaded skin object and kind of result ``name``."""
    key = (id(skin), name)
    cached = _PER_SKIN.get(key)
    if cached is None or cached[0] is not skin:
        cached = (skin, build(skin))
        _PER_SKIN[key] = cached
    return cached[1]  # type: ignore[return-value]


def skin_model(skin: Skin) -> SkinModel:
    """The template matrix of a skin, built once per loaded skin object."""
    return per_skin(skin, "model", _build_model)


def _build_model(skin: Skin) -> SkinModel:
    size = skin.cell_size
    height = min(size, *(t.shape[0] for t in skin.cells.values()))
    width = min(size, *(t.shape[1] for t in skin.cells.values()))
    states = tuple(sorted(skin.cells))
    vectors = []
    for state in states:
        template = skin.cells[state]
        if template.shape[:2] != (height, width):
            template = cv2.resize(template, (width, height), interpolation=cv2.INTER_AREA)
        padded = np.zeros((size, size, 3), dtype=np.uint8)
        padded[:height, :width] = template
        blurred = blurred_blocks(padded, 1, 1, size)[0, 0, :height, :width]
        vectors.append(blurred.astype(np.float32).reshape(-1))
    matrix = np.stack(vectors)
    return SkinModel(skin, states, matrix, np.einsum("kd,kd->k", matrix, matrix), height, width)


@dataclass(eq=False)
class CellReading:
    """The per-cell result of classifying a board: best state, its distance, and confidence."""

    geometry: Geometry
    skin_name: str
    states: np.ndarray
    """``(rows, cols)`` int8 best-matching :class:`Cell` per cell."""
    second: np.ndarray
    """``(rows, cols)`` int8 second-best :class:`Cell` per cell."""
    distance: np.ndarray
    """``(rows, cols)`` RMS colour distance (0-255) to the best template."""
    confidence: np.ndarray
    """``(rows, cols)`` ``1 - best / second_best`` distance, in [0, 1]."""
    min_confidence: float = MIN_CONFIDENCE
    max_distance: float = MAX_DISTANCE
    notes: list[str] = field(default_factory=list)

    def uncertain_mask(self) -> np.ndarray:
        """Cells that cannot be read safely: low margin or far from every template."""
        return (self.confidence < self.min_confidence) | (self.distance > self.max_distance)

    def uncertain(self) -> list[Coord]:
        """The uncertain cells, in reading order."""
        return [(int(r), int(c)) for r, c in zip(*np.nonzero(self.uncertain_mask()), strict=True)]

    def describe(self, cell: Coord) -> str:
        """One line on a cell's reading, e.g. ``(3, 7) best 'F' (then '.') confidence 0.12 distance 40.1``."""
        best, second = Cell(int(self.states[cell])), Cell(int(self.second[cell]))
        where = (int(cell[0]), int(cell[1]))
        return (
            f"cell {where} reads best as {best.char!r} (then {second.char!r}) with confidence "
            f"{self.confidence[cell]:.2f} (need {self.min_confidence:.2f}) and distance "
            f"{self.distance[cell]:.1f} (limit {self.max_distance:.0f})"
        )

    def board(self, mines: int | None = None) -> Board:
        """The read board; raises rather than guess.

        Raises:
            RecognitionError: for the least confident uncertain cell, naming it, its best match and
                its confidence (the message counts any other uncertain cells).
        """
        bad = self.uncertain()
        if bad:
            worst = min(bad, key=lambda cell: (self.confidence[cell], -self.distance[cell]))
            more = f" ({len(bad) - 1} more uncertain cell(s))" if len(bad) > 1 else ""
            raise RecognitionError(
                f"skin {self.skin_name!r}: {self.describe(worst)}{more}",
                cell=worst,
                best_match=Cell(int(self.states[worst])).char,
                confidence=float(self.confidence[worst]),
            )
        return Board(self.states.copy(), mines)


def board_crop(image: np.ndarray, geometry: Geometry, cell_size: int) -> np.ndarray:
    """The board resampled to exactly ``cell_size`` pixels per cell (``rows*size`` x ``cols*size``).

    The crop spans the rounded board edges and is resized in one call (area averaging when shrinking),
    so a fractional pitch (32/33 px alternation) maps each cell onto exactly one block. Parts of the
    board outside the image read as black.
    """
    rows, cols = geometry.rows, geometry.cols
    x0, y0 = round(geometry.left), round(geometry.top)
    x1 = round(geometry.left + cols * geometry.pitch_x)
    y1 = round(geometry.top + rows * geometry.pitch_y)
    height, width = image.shape[:2]
    crop = image[max(y0, 0) : max(min(y1, height), 0), max(x0, 0) : max(min(x1, width), 0)]
    pads = (max(0, -y0), max(0, y1 - height), max(0, -x0), max(0, x1 - width))
    if any(pads):
        if crop.size == 0:
            crop = np.zeros((y1 - y0, x1 - x0, 3), dtype=np.uint8)
        else:
            crop = cv2.copyMakeBorder(crop, *pads, cv2.BORDER_CONSTANT)
    size = (cols * cell_size, rows * cell_size)
    if crop.shape[1] != size[0] or crop.shape[0] != size[1]:
        shrink = crop.shape[1] > size[0]
        crop = cv2.resize(crop, size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    return crop


@lru_cache(maxsize=16)
def _mosaic_maps(rows: int, cols: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Remap tables that spread cells apart with a ``BLUR_PAD`` border repeating each cell's own edge."""
    within = np.clip(np.arange(-BLUR_PAD, size + BLUR_PAD), 0, size - 1)
    xs = (np.arange(cols)[:, None] * size + within[None, :]).reshape(-1).astype(np.float32)
    ys = (np.arange(rows)[:, None] * size + within[None, :]).reshape(-1).astype(np.float32)
    map_x, map_y = np.meshgrid(xs, ys)
    return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2, nninterpolation=True)


def blurred_blocks(crop: np.ndarray, rows: int, cols: int, size: int) -> np.ndarray:
    """Each cell of a resampled board blurred on its own: ``(rows, cols, size, size, 3)`` uint8.

    Blurring both cells and templates forgives JPEG ringing and chroma loss; doing it per cell (edges
    repeated, via one remap into a spaced-out mosaic) keeps a neighbour from bleeding into a cell.
    """
    map1, map2 = _mosaic_maps(rows, cols, size)
    mosaic = cv2.remap(crop, map1, map2, cv2.INTER_NEAREST)
    mosaic = cv2.GaussianBlur(mosaic, (2 * BLUR_PAD + 1, 2 * BLUR_PAD + 1), BLUR_SIGMA)
    step = size + 2 * BLUR_PAD
    blocks = mosaic.reshape(rows, step, cols, step, 3).swapaxes(1, 2)
    return blocks[:, :, BLUR_PAD : BLUR_PAD + size, BLUR_PAD : BLUR_PAD + size]


def classify_cells(
    image: np.ndarray,
    geometry: Geometry,
    skin: Skin,
    min_confidence: float = MIN_CONFIDENCE,
    max_distance: float = MAX_DISTANCE,
) -> CellReading:
    """Read every cell of ``geometry`` on ``image`` (BGR, same coordinates) against ``skin``.

    Never raises for an unreadable cell: it is marked uncertain; :meth:`CellReading.board` raises.
    """
    model = skin_model(skin)
    crop = board_crop(image, geometry, model.cell_size)
    blocks = blurred_blocks(crop, geometry.rows, geometry.cols, model.cell_size)
    vectors = blocks[:, :, : model.height, : model.width].reshape(geometry.rows * geometry.cols, -1)
    vectors = vectors.astype(np.float32)
    squared = np.einsum("nd,nd->n", vectors, vectors)[:, None] + model.norms[None, :]
    squared -= 2.0 * (vectors @ model.matrix.T)
    rms = np.sqrt(np.maximum(squared, 0.0) / vectors.shape[1])
    shape = (geometry.rows, geometry.cols)
    states = np.asarray(model.states, dtype=np.int8)
    if rms.shape[1] == 1:
        best = np.zeros(len(rms), dtype=np.intp)
        d1 = rms[:, 0]
        second_state, d2 = states[best], np.full_like(d1, np.inf)
    else:
        order = np.argpartition(rms, 1, axis=1)[:, :2]
        pair = np.take_along_axis(rms, order, axis=1)
        swap = pair[:, 1] < pair[:, 0]
        best = np.where(swap, order[:, 1], order[:, 0])
        nxt = np.where(swap, order[:, 0], order[:, 1])
        d1, d2 = np.minimum(pair[:, 0], pair[:, 1]), np.maximum(pair[:, 0], pair[:, 1])
        second_state = states[nxt]
    confidence = np.where(d2 > 0, 1.0 - d1 / np.maximum(d2, 1e-9), 0.0)
    return CellReading(
        geometry=geometry,
        skin_name=skin.name,
        states=states[best].reshape(shape),
        second=np.asarray(second_state).reshape(shape),
        distance=d1.reshape(shape),
        confidence=confidence.reshape(shape),
        min_confidence=min_confidence,
        max_distance=max_distance,
    )
