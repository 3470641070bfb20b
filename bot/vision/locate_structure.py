"""The skinless grid finder's board read with a skin, when the skin's faces find no board or several
pieces of one (step 6 of :mod:`bot.vision.locate`)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import cv2
import numpy as np

from bot.errors import MinebotError
from bot.geometry import Geometry, Region
from bot.skin import Skin
from bot.vision.classify import (
    MAX_DISTANCE,
    MIN_CONFIDENCE,
    CellReading,
    classify_cells,
)
from bot.vision.snap import SHIFT_DISTANCE, Location, _extend, _off_colour, _snap, _too_uncertain

LOGGER = logging.getLogger(__name__)


STRUCTURE_GRIDS = 3
"""Best boards of the skinless grid finder tried with the skin when faces find no one board."""


INTERIOR = 0.2
"""A template's interior, compared at the screen's own pixels with a cell drawn at another size
(:func:`_native_interiors`), leaves out this fraction of the cell on each side (its grid line, bevel)."""


NATIVE_SHIFT = 2
"""... and is looked for this many pixels each way from the cell's centre (a client centres what it
draws in a cell to within a pixel or two)."""


NATIVE_SAMPLE = 48
"""... that offset found on at most this many cells spread over the board (a board drawn otherwise is
refused on them alone)."""


_SCREEN: dict[str, object] = {}
"""What :func:`one_screen` shares between skins located on one screenshot."""


@contextmanager
def one_screen(image: np.ndarray) -> Iterator[None]:
    """Within the block, the skin-free work of a colour-shifted locate on ``image`` (its lattices of
    flat blobs) is done once, however many skins are located on it (``--skin auto``)."""
    _SCREEN.clear()
    _SCREEN["image"] = image
    try:
        yield
    finally:
        _SCREEN.clear()


def _screen_grids(image: np.ndarray) -> list[Geometry]:
    """The skinless grid finder's boards on the screenshot, best first (shared within :func:`one_screen`)."""
    from bot.vision.grid import find_grids  # the skinless finder: only when faces find no one board

    if _SCREEN.get("image") is image and "grids" in _SCREEN:
        return _SCREEN["grids"]  # type: ignore[return-value]
    grids = [fit.geometry for fit in find_grids(image)[:STRUCTURE_GRIDS]]
    if _SCREEN.get("image") is image:
        _SCREEN["grids"] = grids
    return grids


def _located_by_structure(
    image: np.ndarray, skin: Skin, pieces: list[Location]
) -> tuple[Location | None, str]:
    """The skinless grid finder's board read with the skin, when faces found no board (a covered tile
    with no flat face: dithered, shaded) or several ``pieces`` of one (cells the skin cannot read part
    them); and why not, for the error message, when it is not taken.

    The grid is taken only as the skin's board when, snapped to the skin (:func:`_snap`), its cells are
    as near their templates as a board found by its faces (median within ``SHIFT_DISTANCE``: a board
    drawn in another look, or at another cell size whose lines did not scale, is not this skin's), the
    skin reads it nearly whole (:func:`_too_uncertain`), no row or column just outside it reads as the
    skin's cells (the board drawn is no larger than the grid) and it covers every piece.
    """
    reasons = []
    for grid in _screen_grids(image):
        if pieces and not all(_holds(grid, piece.geometry) for piece in pieces):
            reasons.append(f"{_describe(grid)} does not hold the {len(pieces)} pieces")
            continue
        geometry = _snap(image, grid, skin, {})
        reading = classify_cells(image, geometry, skin, colours=None)
        resized = abs(geometry.pitch_x / skin.cell_size - 1.0) > 0.1
        if _off_colour(reading) and resized and not pieces:
            native, why = _read_at_native_size(image, grid, skin)
            if native is not None:
                return native, ""
            reasons.append(why)
            continue
        if _off_colour(reading):
            hint = (
                f"; the skin's cells are {skin.cell_size} px: a client that draws this board at another size "
                "may need a skin calibrated from a screenshot of it"
                if resized
                else ""
            )
            reasons.append(
                f"{_describe(geometry)}, {geometry.pitch_x:.1f} px cells: not drawn with this skin's "
                f"templates (median distance {np.median(reading.distance):.1f}, at most {SHIFT_DISTANCE:.0f}"
                f"{hint})"
            )
        elif _too_uncertain(reading, skin):
            share = float(reading.uncertain_mask().mean())
            reasons.append(f"{_describe(geometry)}: the skin cannot read {share:.0%} of its cells")
        elif _extend(image, geometry, skin, reading) != geometry:
            reasons.append(f"{_describe(geometry)}: the skin reads cells beyond it")
        else:
            how = f"{len(pieces)} pieces of it found by their faces" if pieces else "no board found by faces"
            note = (
                f"board found by the skinless grid finder, read with the skin ({_describe(geometry)}): {how}"
            )
            LOGGER.info(note)
            return Location(geometry, reading, skin, [note]), ""
    return None, "".join(f"; the skinless grid finder's board {reason}" for reason in reasons)


def _read_at_native_size(image: np.ndarray, grid: Geometry, skin: Skin) -> tuple[Location | None, str]:
    """The skinless grid finder's board drawn at another cell size than the skin's, read when the skin's
    own drawing is in it; else why not.

    A client may draw larger cells without scaling what it draws in them (xbomb keeps its 1 px dither,
    2 px lines and digit bitmaps at 20 and 50 px cells): then the skin's templates do not fit the cells,
    but each cell's centre shows the template's interior pixel for pixel (:func:`_native_interiors`).
    The board is taken only when every cell's centre is one template's interior, surely (confidence and
    distance as for any reading), and the skinless reader, reading the grid on its own, names every cell
    the same and the board's logic holds. A board of another look, or one scaled as a whole (browser
    zoom: its glyphs grow with the cell), is refused: a skin is never bent onto it.
    """
    from bot.vision.generic import GenericModel, read_cells
    from bot.vision.naming import logic_problem

    where = f"{_describe(grid)}, {grid.pitch_x:.1f} px cells (the skin's are {skin.cell_size} px)"
    median, cells = _native_interiors(image, grid, skin)
    if cells is None:
        return None, (
            f"{where}: not drawn with this skin's templates, nor with their interiors at the screen's own "
            f"pixels (median distance {median:.1f}, at most {SHIFT_DISTANCE:.0f}); a client "
            "that draws this board at another size may need a skin calibrated from a screenshot of it"
        )
    states, second, distance, confidence = cells
    unsure = (confidence < MIN_CONFIDENCE) | (distance > MAX_DISTANCE)
    if unsure.any():
        r, c = np.argwhere(unsure)[0]
        return None, (
            f"{where}: its cells show the skin's template interiors at the screen's own pixels, but cell "
            f"({int(r)}, {int(c)}) is not surely one of them (a state the skin never saw?)"
        )
    shown = f"{where}: its cells show the skin's template interiors at the screen's own pixels, but"
    try:
        generic = read_cells(image, grid, GenericModel())
    except MinebotError as exc:
        return None, f"{shown} with no skin it is not read ({exc})"
    differ = np.argwhere(generic.states != states)
    if len(differ):
        cell = (int(differ[0][0]), int(differ[0][1]))
        return (
            None,
            f"{where}: its cells show the skin's interiors, but with no skin cell {cell} reads otherwise",
        )
    problem = logic_problem(generic.states)
    if problem is not None:
        return (
            None,
            f"{where}: its cells show the skin's interiors, but the board's logic fails ({problem[1]})",
        )
    note = (
        f"board found by the skinless grid finder at another cell size ({where}): every cell's centre is "
        "one of the skin's templates at the screen's own pixels, and the skinless reader reads the same"
    )
    LOGGER.info(note)
    reading = CellReading(grid, skin.name, states, second, distance, confidence)
    return Location(grid, reading, skin, [note]), ""


def _native_interiors(
    image: np.ndarray, grid: Geometry, skin: Skin
) -> tuple[float, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None]:
    """How near the cells' middles are to the skin's template interiors (:data:`INTERIOR`) at the
    screen's own pixels (the median RMS distance, 0-255, over up to :data:`NATIVE_SAMPLE` cells); and,
    when that is within ``SHIFT_DISTANCE``, each cell's nearest template, second nearest, distance and
    confidence.

    Pixel for pixel, not blurred: a flat fill of a dither's mean colour is not the dither. The window is
    moved to the offset (within :data:`NATIVE_SHIFT`) that fits the sampled cells best, then each cell
    may move one pixel more (a dither's phase, a cell a pixel wider at a fractional pitch).
    """
    size = skin.cell_size
    inset = max(1, round(INTERIOR * size))
    n = size - 2 * inset
    looks = [(state, t) for state, t in skin.cells.items()]
    looks += [(state, v) for state, vs in skin.variants.items() for v in vs if v.shape == (size, size, 3)]
    refs = np.stack([t[inset:-inset, inset:-inset].astype(np.float32) for _, t in looks]).reshape(
        len(looks), -1
    )
    ref_norms = (refs * refs).sum(axis=1)
    values = np.array([int(state) for state, _ in looks])
    pad = NATIVE_SHIFT + 2
    padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REPLICATE).astype(np.float32)
    rows, cols = np.divmod(np.arange(grid.rows * grid.cols), grid.cols)
    x0 = np.round(grid.left + (cols + 0.5) * grid.pitch_x - n / 2).astype(int) + pad
    y0 = np.round(grid.top + (rows + 0.5) * grid.pitch_y - n / 2).astype(int) + pad
    step = np.arange(n)

    def distances(dx: int, dy: int, cells: np.ndarray) -> np.ndarray:
        """``(len(cells), K)`` RMS distance of each cell's window, moved by (dx, dy), to each template."""
        ys = np.clip(y0[cells, None] + dy + step, 0, padded.shape[0] - 1)
        xs = np.clip(x0[cells, None] + dx + step, 0, padded.shape[1] - 1)
        windows = padded[ys[:, :, None], xs[:, None, :]].reshape(len(cells), -1)
        squared = (windows * windows).sum(axis=1)[:, None] + ref_norms[None] - 2 * windows @ refs.T
        return np.sqrt(np.maximum(squared, 0.0) / refs.shape[1])

    every = np.arange(len(x0))
    sample = np.unique(np.linspace(0, len(x0) - 1, min(len(x0), NATIVE_SAMPLE)).round().astype(int))
    shifts = range(-NATIVE_SHIFT, NATIVE_SHIFT + 1)
    fits = {
        (dx, dy): float(np.median(distances(dx, dy, sample).min(axis=1))) for dx in shifts for dy in shifts
    }
    dx, dy = min(fits, key=fits.__getitem__)
    if fits[(dx, dy)] > SHIFT_DISTANCE:
        return fits[(dx, dy)], None
    near = np.stack([distances(dx + a, dy + b, every) for a in (-1, 0, 1) for b in (-1, 0, 1)]).min(axis=0)
    order = np.argsort(near, axis=1)
    d1 = near[every, order[:, 0]]
    first = values[order[:, 0]]
    # the nearest template of another state (a variant of the same state is no rival)
    rival = np.where(values[order] != first[:, None], np.take_along_axis(near, order, axis=1), np.inf)
    d2 = rival.min(axis=1)
    second = values[order[every, rival.argmin(axis=1)]]
    confidence = np.where(np.isfinite(d2), 1.0 - d1 / np.maximum(d2, 1e-6), 1.0)
    shape = (grid.rows, grid.cols)
    cells = (
        first.astype(np.int8).reshape(shape),
        second.astype(np.int8).reshape(shape),
        d1.reshape(shape),
        confidence.reshape(shape),
    )
    return float(np.median(d1)), cells


def _holds(outer: Geometry, inner: Geometry) -> bool:
    """Whether ``outer``'s cells cover ``inner``'s (within half a cell), at the same pitch (within 10%)."""
    a, b = outer.region(), inner.region()
    slack_x, slack_y = inner.pitch_x / 2, inner.pitch_y / 2
    return (
        abs(outer.pitch_x - inner.pitch_x) <= 0.1 * inner.pitch_x
        and abs(outer.pitch_y - inner.pitch_y) <= 0.1 * inner.pitch_y
        and a.left - slack_x <= b.left
        and a.top - slack_y <= b.top
        and b.right <= a.right + slack_x
        and b.bottom <= a.bottom + slack_y
    )


def _describe(geometry: Geometry) -> str:
    r: Region = geometry.region()
    return f"{geometry.rows}x{geometry.cols} at ({r.left}, {r.top}) size {r.width}x{r.height}"
