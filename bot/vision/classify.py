"""Classify every cell of a located board in one vectorised pass, with a confidence per cell.

The board crop is resampled in one area-averaging resize so each cell becomes a small fixed block
(``FEATURE_SIZE`` pixels square, 8x8 BGR); every cell is then compared with every template, reduced
the same way, at once (one matrix product). The distance is a weighted RMS colour difference over the
8x8 block and over its 2x2-averaged 4x4 version (``COARSE_WEIGHT``): the fine part keeps digit shapes
apart, the coarse part forgives sprites drawn a pixel differently, JPEG ringing, chroma loss and
sub-pixel misalignment. Area averaging keeps each cell's block to its own pixels.

A cell's confidence is ``1 - best / second_best`` distance: 0 when two states look alike, near 1
when one state clearly wins. A cell under the confidence threshold, or far from every template, is
*uncertain* and is never guessed.

The margin alone cannot see a state the skin has no template for (a calibrated skin that never met
an 8): such a cell is far from every template, yet may be much nearer one than the next. So with a
skin that lacks any state, a cell is accepted as state T only when it is close to T's template in
absolute terms, by two independent tests (either refuses):

- *acceptance radius*: its distance is at most ``ACCEPT_FRACTION`` of the distance from T's template
  to its nearest other template, that distance capped by the closest pair of templates of T's kind
  (digit or not), since the missing template may sit as close to T as any two of its kind do; never
  under ``ACCEPT_FLOOR``;
- *no local difference*: no quarter-by-quarter block of the cell (the 4x4 feature) differs from T's
  by more than ``MAX_PEAK`` on average. A glyph T lacks is a concentrated difference; misalignment
  and resampling spread theirs thinly along every edge, and average out in a block.

A skin with every state has neither (only ``MAX_DISTANCE``): nothing unseen can show, and a shipped
skin must forgive other clients drawing a state their own way (real Minesweeper X mines sit 0.9 of
the nearest-template distance from the classic mine template).

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

FEATURE_SIZE = 8
"""Side of the block each cell (and each template) is area-averaged to before comparing (at most the
skin's ``cell_size``). 8x8 keeps digits, flags and mines apart with a wide margin while a cursor over
a cell makes it uncertain rather than wrong; it is also what makes a whole Expert board cost one
small resize and a (480 x 192) by (192 x 14) matrix product."""

MAX_DISTANCE = 48.0
"""A cell whose RMS distance (0-255 scale) to its best template exceeds this looks like nothing known."""

ACCEPT_FRACTION = 0.5
"""With states missing, a cell is read as T only within this fraction of the distance from T's
template to its nearest other template (capped as above). Measured (``docs/benchmarks.md``): a cell
of a state the skin lacks came no nearer than 0.61 of the capped distance (xdemineur's 0 against a
skin without 0: its 5 is nearest); correct cells stay under 0.45 of it in calibrated looks, except
the ``mono`` look at 125% (0.60: every digit the same white, so digits sit close together)."""

MAX_PEAK = 30.0
"""With states missing, the most a 4x4 feature block of a cell may differ from its template (mean
absolute colour difference, 0-255). Measured: cells of a state the skin lacks differ by 33 or more
somewhere; correct cells by at most 20 (calibrated looks, scales 1-2) or 27 (classic through JPEG q75)."""

ACCEPT_FLOOR = 12.0
"""Smallest acceptance radius (RMS, 0-255): what resampling alone moves a correct cell from its template
at a fractional pitch (up to 12.3 measured on calibrated looks), so a skin whose digits sit close
together (one colour for all) still reads at 125%. A cell of a missing state came no nearer than 17.9
to any template (winemine's 8 against its 2)."""

DIGITS = frozenset(Cell(n) for n in range(9))
"""States of one kind (opened cells with a count): a missing one is feared as close as any two are."""

COARSE_WEIGHT = 3.0
"""How much a colour difference in the 4x4 (2x2-averaged) block counts against one in the 8x8 block.
Measured on the vision benchmark, the cursor cases and the real Minesweeper X sprites: it raises the
worst correct cell's confidence and lowers the best misread's (a cursor) compared with 8x8 alone."""

GEMM_CHUNK = 200_000
"""Most multiply-adds per matrix product: BLAS libraries run smaller products on one thread, which on
a loaded 2-core machine is several times faster than waking a thread pool for a sub-millisecond job."""


@dataclass(frozen=True, eq=False)
class SkinModel:
    """A skin's cell templates reduced to feature blocks and stacked, ready for vectorised distances."""

    skin: Skin
    states: np.ndarray
    """``(K,)`` int8: the cell state of each template row, in order."""
    matrix_t: np.ndarray
    """``(D, K)`` float32: each template's feature block ``t``, flattened, weighted as ``W t`` (one
    per column), where ``|x - t|_W^2 = |x - t|^2 + COARSE_WEIGHT^2 |coarse(x - t)|^2``."""
    norms: np.ndarray
    """``(K,)`` weighted squared norms ``t . W t`` of the templates."""
    weight: float
    """The sum of the weights over a feature vector's terms (divides a squared distance into an RMS)."""
    size: int
    """The feature block side each cell is resampled to (``min(FEATURE_SIZE, cell_size)``)."""
    height: int
    width: int
    """The part of each feature block the templates cover (a grid line after them is left out)."""
    radius: np.ndarray
    """``(K,)`` acceptance radius of each template: a cell farther from its best template is uncertain."""
    blocks: np.ndarray
    """``(K, height, width, 3)`` the templates' feature blocks."""
    strict: bool
    """The skin lacks a state: cells are also checked against an acceptance radius and for local
    differences."""
    variant_of: np.ndarray
    """``(V,)`` the template row each variant look belongs to (columns ``K..K+V`` of ``matrix_t``)."""
    variant_blocks: np.ndarray
    """``(V, height, width, 3)`` feature blocks of the variant looks."""
    spans: np.ndarray
    """``(V,)`` weighted squared distance from each variant to its state's template."""


def per_skin(skin: Skin, name: str, build: Callable[[Skin], T]) -> T:
    """``build(skin)``, computed once per loaded skin object and kind of result ``name`` and kept on the
    object (:attr:`Skin.memo`): a stand-in's learnt model and taught templates last as long as it does."""
    if name not in skin.memo:
        skin.memo[name] = build(skin)
    return skin.memo[name]  # type: ignore[return-value]


def skin_model(skin: Skin) -> SkinModel:
    """The template matrix of a skin, built once per loaded skin object."""
    return per_skin(skin, "model", _build_model)


def _resample(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """``image`` resized to ``width`` x ``height``: area averaging when shrinking, bilinear otherwise."""
    if image.shape[1] == width and image.shape[0] == height:
        return image
    shrink = image.shape[1] > width
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def _coarse(blocks: np.ndarray) -> np.ndarray:
    """The 2x2 average of ``(..., height, width, 3)`` feature blocks (an odd last row or column dropped)."""
    h, w = blocks.shape[-3] // 2 * 2, blocks.shape[-2] // 2 * 2
    top, bottom = blocks[..., 0:h:2, :w, :], blocks[..., 1:h:2, :w, :]
    pairs = top + bottom
    return (pairs[..., 0::2, :] + pairs[..., 1::2, :]) * 0.25


def skin_variants(skin: Skin) -> list[tuple[Cell, np.ndarray]]:
    """The skin's extra looks of a state (Win7's covered tiles shade across the board and light up
    under the pointer), as ``(state, template)`` pairs."""
    return [(state, image) for state in sorted(skin.variants) for image in skin.variants[state]]


def _build_model(skin: Skin) -> SkinModel:
    cell = skin.cell_size
    size = min(FEATURE_SIZE, cell)
    covered_h = min([cell, *(t.shape[0] for t in skin.cells.values())])
    covered_w = min([cell, *(t.shape[1] for t in skin.cells.values())])
    # feature pixels lying wholly inside the covered part of the cell
    height, width = max(1, covered_h * size // cell), max(1, covered_w * size // cell)
    states = tuple(sorted(skin.cells))
    variants = skin_variants(skin)
    vectors = []
    for template in [skin.cells[state] for state in states] + [image for _, image in variants]:
        if template.shape[:2] != (covered_h, covered_w):
            template = cv2.resize(template, (covered_w, covered_h), interpolation=cv2.INTER_AREA)
        padded = np.zeros((cell, cell, 3), dtype=np.uint8)
        padded[:covered_h, :covered_w] = template
        vectors.append(_resample(padded, size, size)[:height, :width].astype(np.float32))
    every = np.stack(vectors)
    coarse = _coarse(every)
    # W t = t + COARSE_WEIGHT^2 P'P t: the transpose of 2x2 averaging spreads a quarter over each pixel
    spread = np.zeros_like(every)
    h, w = coarse.shape[1:3]
    spread[:, : 2 * h, : 2 * w] = coarse.repeat(2, axis=1).repeat(2, axis=2) / 4
    weighted = (every + COARSE_WEIGHT**2 * spread).reshape(len(every), -1)
    norms = np.einsum("kd,kd->k", weighted, every.reshape(len(every), -1))
    weight = every[0].size + COARSE_WEIGHT**2 * coarse[0].size
    flat = every.reshape(len(every), -1)
    between = norms[:, None] + norms[None, :] - 2.0 * (flat @ weighted.T)
    k = len(states)
    variant_of = np.array([states.index(state) for state, _ in variants], dtype=np.intp)
    spans = np.maximum(between[variant_of, np.arange(k, len(every))], 1e-6)
    radius = acceptance_radii(
        states, np.sqrt(np.maximum(between[:k, :k], 0.0) / weight), bool(skin.missing_states())
    )
    return SkinModel(
        skin,
        np.asarray(states, dtype=np.int8),
        np.ascontiguousarray(weighted.T),
        norms,
        weight,
        size,
        height,
        width,
        radius.astype(np.float32),
        every[:k],
        bool(skin.missing_states()),
        variant_of,
        every[k:],
        spans.astype(np.float32),
    )


def _fold_variants(squared: np.ndarray, model: SkinModel) -> tuple[np.ndarray, np.ndarray]:
    """``(N, K)`` squared distances with each state's distance taken to the nearest blend of its
    template and one of its variants, and ``(N, V)`` the blend weight of each variant (0 but for the
    variant giving the nearest blend of its state).

    A look between two drawn shades of a state (a shade gradient across the board) is that state;
    the blend is found from the two distances alone: ``t = <x - a, b - a> / |b - a|^2`` clamped to
    [0, 1], with ``<x - a, b - a> = (|x - a|^2 - |x - b|^2 + |b - a|^2) / 2``.
    """
    k = len(model.states)
    if not len(model.variant_of):
        return squared, np.zeros((len(squared), 0), dtype=squared.dtype)
    main = squared[:, model.variant_of]
    along = 0.5 * (main - squared[:, k:] + model.spans)
    blend = np.clip(along / model.spans, 0.0, 1.0)
    folded = main - 2.0 * blend * along + blend**2 * model.spans
    out = np.ascontiguousarray(squared[:, :k])
    for row in np.unique(model.variant_of).tolist():
        own = np.flatnonzero(model.variant_of == row)
        nearest = np.argmin(folded[:, own], axis=1)
        np.minimum(out[:, row], folded[np.arange(len(folded)), own[nearest]], out=out[:, row])
        for i, j in enumerate(own.tolist()):
            blend[nearest != i, j] = 0.0  # only the variant whose blend is nearest shapes the cell's look
    return out, blend


def _nearest_looks(model: SkinModel, best: np.ndarray, blend: np.ndarray) -> np.ndarray:
    """``(N, height, width, 3)`` the look of its best state nearest each cell (template or blend)."""
    looks = model.blocks[best]
    for j, row in enumerate(model.variant_of.tolist()):
        chosen = (best == row) & (blend[:, j] > 0)
        if chosen.any():
            weights = blend[chosen, j][:, None, None, None]
            looks[chosen] = looks[chosen] + weights * (model.variant_blocks[j] - model.blocks[row])
    return looks


def acceptance_radii(states: tuple[Cell, ...], between: np.ndarray, missing: bool) -> np.ndarray:
    """Each template's acceptance radius from the ``(K, K)`` RMS distances between the templates.

    Infinite when no state is ``missing``. Otherwise ``ACCEPT_FRACTION`` of the distance to the nearest
    other template capped by the closest pair among the template's kind (:data:`DIGITS` or the rest),
    which stands in for the unknown distance to a missing template; at least ``ACCEPT_FLOOR``.
    """
    if not missing:
        return np.full(len(states), np.inf)
    between = between.astype(np.float64, copy=True)
    np.fill_diagonal(between, np.inf)
    nearest = between.min(axis=1)
    digit = np.array([state in DIGITS for state in states])
    for kind in (digit, ~digit):
        if kind.sum() >= 2:
            nearest[kind] = np.minimum(nearest[kind], between[np.ix_(kind, kind)].min())
    return np.maximum(ACCEPT_FLOOR, ACCEPT_FRACTION * nearest)  # inf for a lone template


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
    radius: np.ndarray | None = None
    """``(rows, cols)`` acceptance radius of each cell's best template (None: ``max_distance`` only)."""
    peak: np.ndarray | None = None
    """``(rows, cols)`` largest 4x4-block mean colour difference from the best template (None when the
    skin has every state and this is not checked)."""
    min_confidence: float = MIN_CONFIDENCE
    max_distance: float = MAX_DISTANCE
    notes: list[str] = field(default_factory=list)

    def limit(self) -> np.ndarray:
        """``(rows, cols)`` the farthest each cell may be from its best template and still be read."""
        if self.radius is None:
            return np.full(self.distance.shape, self.max_distance)
        return np.minimum(self.radius, self.max_distance)

    def uncertain_mask(self) -> np.ndarray:
        """Cells that cannot be read safely: low margin, outside their best template's radius, or
        differing from it too much in one place."""
        unsure = (self.confidence < self.min_confidence) | (self.distance > self.limit())
        if self.peak is not None:
            unsure |= self.peak > MAX_PEAK
        return unsure

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
            f"{self.distance[cell]:.1f} (limit {self.limit()[cell]:.1f})"
            + (
                ""
                if self.peak is None
                else f", local difference {self.peak[cell]:.0f} (limit {MAX_PEAK:.0f})"
            )
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


def board_crop(
    image: np.ndarray, geometry: Geometry, cell_size: int, colours: np.ndarray | None = None
) -> np.ndarray:
    """The board resampled to exactly ``cell_size`` pixels per cell (``rows*size`` x ``cols*size``).

    The crop spans the rounded board edges and is resized in one call (area averaging when shrinking),
    so a fractional pitch (32/33 px alternation) maps each cell onto exactly one block. Parts of the
    board outside the image read as black. ``colours`` (a ``(1, 256, 3)`` lookup table) maps each
    pixel first, back to the skin's colours on a screen that shifts them (:mod:`bot.vision.tint`).
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
    if colours is not None:
        crop = cv2.LUT(crop, colours)
    return _resample(crop, cols * cell_size, rows * cell_size)


def cell_blocks(
    image: np.ndarray, geometry: Geometry, model: SkinModel, colours: np.ndarray | None = None
) -> np.ndarray:
    """``(rows, cols, height, width, 3)`` float32 feature block of every cell of ``geometry``."""
    rows, cols, size = geometry.rows, geometry.cols, model.size
    crop = board_crop(image, geometry, size, colours)
    blocks = crop.reshape(rows, size, cols, size, 3)[:, : model.height, :, : model.width]
    return np.ascontiguousarray(blocks.swapaxes(1, 2), dtype=np.float32)


def rim_distance(image: np.ndarray, geometry: Geometry, skin: Skin) -> np.ndarray:
    """``(rows, cols)`` RMS colour distance of each cell's rim (its feature block's outer ring) to the
    nearest template's rim: a cell whose middle shows a state the skin never saw still has the rim
    (bevel, grid line) of a cell, which clutter beside a board does not."""
    model = skin_model(skin)
    ring = np.ones((model.height, model.width), dtype=bool)
    ring[1:-1, 1:-1] = False
    cells = cell_blocks(image, geometry, model)[:, :, ring].reshape(geometry.rows * geometry.cols, -1)
    every = np.concatenate([model.blocks, model.variant_blocks])
    templates = every[:, ring].reshape(len(every), -1)
    squared = (cells**2).sum(axis=1)[:, None] - 2.0 * cells @ templates.T + (templates**2).sum(axis=1)[None]
    rms = np.sqrt(np.maximum(squared, 0.0) / cells.shape[1])
    return rms.min(axis=1).reshape(geometry.rows, geometry.cols)


def dot_products(vectors: np.ndarray, matrix_t: np.ndarray) -> np.ndarray:
    """``vectors @ matrix_t`` in row chunks small enough that BLAS keeps each product on one thread."""
    rows = max(1, GEMM_CHUNK // max(1, matrix_t.size))
    if len(vectors) <= rows:
        return vectors @ matrix_t
    return np.concatenate([vectors[i : i + rows] @ matrix_t for i in range(0, len(vectors), rows)])


SHIFTED = "shifted colours"
"""The per-skin cache key of the colour table last found to undo a screen's colour shift."""


def remember_colours(skin: Skin, colours: np.ndarray | None) -> None:
    """Keep (or forget, with ``None``) the table that undid this screen's colour shift for ``skin``:
    later readings of the board try it when the plain reading is unsure."""
    per_skin(skin, SHIFTED, lambda _: [None])[0] = colours


def remembered_colours(skin: Skin) -> np.ndarray | None:
    """The colour table :func:`remember_colours` kept for ``skin``, if any."""
    return per_skin(skin, SHIFTED, lambda _: [None])[0]


def better_reading(a: CellReading, b: CellReading) -> bool:
    """True when reading ``a`` is surer than ``b``: fewer uncertain cells, then nearer templates."""
    ua, ub = int(a.uncertain_mask().sum()), int(b.uncertain_mask().sum())
    return ua < ub or (ua == ub and float(np.median(a.distance)) < float(np.median(b.distance)))


def classify_cells(
    image: np.ndarray,
    geometry: Geometry,
    skin: Skin,
    min_confidence: float = MIN_CONFIDENCE,
    max_distance: float = MAX_DISTANCE,
    colours: np.ndarray | None | str = "remembered",
) -> CellReading:
    """Read every cell of ``geometry`` on ``image`` (BGR, same coordinates) against ``skin``.

    ``colours`` is a ``(1, 256, 3)`` table mapping the screen's colours to the skin's first, or
    ``None``; by default the board is read as it is, and when a cell is unsure the table remembered
    for this skin (:func:`remember_colours`, set when a colour-shifted board was located) is tried
    too, and the surer reading kept.

    Never raises for an unreadable cell: it is marked uncertain; :meth:`CellReading.board` raises.
    """
    if not isinstance(colours, str):
        return _classify(image, geometry, skin, min_confidence, max_distance, colours)
    reading = _classify(image, geometry, skin, min_confidence, max_distance, None)
    kept = remembered_colours(skin)
    if kept is None or not reading.uncertain_mask().any():
        return reading
    shifted = _classify(image, geometry, skin, min_confidence, max_distance, kept)
    return shifted if better_reading(shifted, reading) else reading


def _distances(
    image: np.ndarray, geometry: Geometry, model: SkinModel, colours: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(N, K)`` RMS distance of every cell to every state's template (variants folded in), with the
    cells' feature blocks and each variant's blend weight (:func:`_fold_variants`)."""
    rows, cols = geometry.rows, geometry.cols
    blocks = cell_blocks(image, geometry, model, colours)
    vectors = blocks.reshape(rows * cols, -1)
    coarse = _coarse(blocks).reshape(rows * cols, -1)
    squared = dot_products(vectors, model.matrix_t)
    squared *= -2.0
    own = np.einsum("nd,nd->n", vectors, vectors) + COARSE_WEIGHT**2 * np.einsum("nd,nd->n", coarse, coarse)
    squared += own[:, None]
    squared += model.norms[None, :]
    squared, blend = _fold_variants(squared, model)
    rms = np.sqrt(np.maximum(squared, 0.0, out=squared) / model.weight, out=squared)
    return rms, blocks, blend


def nearest_distances(image: np.ndarray, geometry: Geometry, skin: Skin) -> np.ndarray:
    """``(rows, cols)`` each cell's distance to its nearest template, as :func:`classify_cells`'s
    ``distance`` (no colour table): the cells are not named, which fitting a grid does not need."""
    rms, _, _ = _distances(image, geometry, skin_model(skin), None)
    return rms.min(axis=1).reshape(geometry.rows, geometry.cols)


def _classify(
    image: np.ndarray,
    geometry: Geometry,
    skin: Skin,
    min_confidence: float,
    max_distance: float,
    colours: np.ndarray | None,
) -> CellReading:
    """:func:`classify_cells` through one colour table (or none)."""
    model = skin_model(skin)
    rows, cols = geometry.rows, geometry.cols
    rms, blocks, blend = _distances(image, geometry, model, colours)
    shape = (rows, cols)
    states = model.states
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
    peak = None
    if model.strict:  # the skin lacks a state: how far the cell is from its best template, locally
        diff = _coarse(blocks - _nearest_looks(model, best, blend).reshape(blocks.shape))
        peak = np.abs(diff).mean(axis=-1).reshape(rows * cols, -1).max(axis=1).reshape(rows, cols)
    return CellReading(
        geometry=geometry,
        skin_name=skin.name,
        states=states[best].reshape(shape),
        second=np.asarray(second_state).reshape(shape),
        distance=d1.reshape(shape),
        confidence=confidence.reshape(shape),
        radius=model.radius[best].reshape(shape),
        peak=peak,
        min_confidence=min_confidence,
        max_distance=max_distance,
    )
