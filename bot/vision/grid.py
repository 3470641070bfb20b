"""Find a Minesweeper board's cell grid on a screenshot with no skin, from the board's structure alone.

A board is a 2-D lattice of cells whose flat middles ("faces": a covered tile inside its bevel, an
opened cell inside its lines) repeat at one pitch in both axes. :func:`find_grids`:

1. *Faces.* Pixels with no step to their neighbours (on the grey image, or on a lightly smoothed one
   so dithered tiles count as flat) are flat; on a half-size mask their connected components that are
   roughly square are candidate faces. Cheap: one gradient and one labelling of a half-size mask.
   When no board comes of them, the same runs on the image's detail amplified (:func:`amplified`):
   cells a few grey levels apart with nothing between them (a flat checkerboard) are faces there.
   When none comes of either, faces up to :data:`~bot.vision.propose.FACE_ASPECT` times as wide as
   tall count too (cells wider than tall).
2. *Lattices.* Faces of like size one pitch apart in a row or a column are linked; each linked group
   (at the pitch its own links agree on) is a candidate. A least-squares fit of face centre against
   lattice index (one offset per face size, so covered and opened faces may sit differently in their
   cells) gives the pitch to a small fraction of a pixel.
3. *Phase.* The grey steps of the board's rows, folded on the lattice, peak at the tile boundary;
   of a 1-px line's two equal steps, the cell starts after the line. Pitch and origin are then refined
   together over every boundary of the board (so 32/33 px alternation gives 32.7, not 32 or 33).
   Where the steps leave it in doubt (a bevelled tile's shadow and the next one's highlight look like a
   2-px line; an opened cell's line of its own like a shared one: :data:`SEAM_ENDS`), the pixels
   decide when they can: over the board's boundaries, pixels of one cell go up and down together with
   that cell's look, so the cell starts where they split in two such runs (:meth:`_Board.owned_start`).
4. *Extent.* Rows and columns are added (or trimmed) while their cells show the board's own structure:
   faces of the board's kinds, or boundaries across the strip at the lattice's positions (grid lines
   between opened cells with no faces of their own). A frame, a header with counters and a face
   button, or a toolbar shows neither, so the board stops at its real edge. A few strips whose lines
   are weak beside their glyphs (a lost board's mines and numbers) are the board's between strips
   that show its structure (a board has no holes), and at its edge when a line crosses every one of
   their boundaries. Opened cells of one flat colour with no lines (no faces, no boundaries of their
   own) are the board's when their ground is one its own cells show and the colour changes where the
   board then ends (:mod:`bot.vision.grounds`).
5. *Check.* A board has at least :data:`MIN_SIDE` rows and columns: a row of buttons or an LCD counter
   is never one. The cell face (``inset``) is what lies between separators every cell shares (grid
   lines and gaps have one colour whatever the cell shows).

The stages are modules of their own: :mod:`bot.vision.propose` (faces and the lattices their links
propose: steps 1-2), :mod:`bot.vision.lattice` (a lattice checked against the board's steps and faces:
phase, pitch, cells cut; step 3), :mod:`bot.vision.extent` (the rows and columns that are the board's,
whether the screenshot's edge cuts it: step 4), :mod:`bot.vision.grounds` (opened areas of one flat
colour: step 4); this module grows each proposal into a board and
ranks them (step 5).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace

import numpy as np

from bot.errors import BoardNotFoundError
from bot.geometry import Geometry
from bot.vision.boxes import Boxes
from bot.vision.extent import _cut_at_gaps, _grow, _sized_like, _within, _within_image, filled_out, open_sides
from bot.vision.extent import continues as continues
from bot.vision.extent import cut_sides as cut_sides
from bot.vision.grounds import grounded_out
from bot.vision.lattice import _Board, _cuts_faces, _face_pitch, _faces_at, _split_pitch, _steps
from bot.vision.propose import (
    FACE_ASPECT,
    MIN_GROUP,
    MIN_SIDE,
    _Axis,
    _lattice,
    amplified,
    face_groups,
    find_faces,
    grey,
)
from bot.vision.propose import MIN_BOARD_PX as MIN_BOARD_PX
from bot.vision.tiles import tile_faces

LOGGER = logging.getLogger(__name__)


CROP_CELLS = 10
"""How far (in cells) beyond its faces a board is looked at: opened areas with no faces of their own."""


WIDE = 1.1
"""Least width over height of the cells of a board found by faces longer than square ones: cells whose
faces are longer than :func:`~bot.vision.propose._face_shaped` calls square (a quarter) are this wide."""
CROP_WIDENINGS = 2
"""Times the crop is widened around a board that reaches its edge."""


@dataclass(frozen=True)
class GridFit:
    """A board's cell grid found with no skin.

    ``geometry`` places cell (0, 0) and says how cells repeat (a cell starts after the grid line or
    gap that precedes it). ``inset`` is ``(left, top, right, bottom)``: pixels of each cell that are
    grid line or gap rather than the cell's own face (0 where tiles abut). ``score`` (0-1) is the share
    of cells that showed the board's structure themselves.
    """

    geometry: Geometry
    inset: tuple[int, int, int, int]
    score: float

    @property
    def cells(self) -> int:
        return self.geometry.rows * self.geometry.cols


def _fit_crop(gray: np.ndarray, faces: Boxes, placed: bool = False) -> GridFit | None:
    """:func:`_fit_group` on the part of the screenshot within :data:`CROP_CELLS` cells of the faces,
    widened around the board found while that board reaches the crop's edge (a few faces in one
    corner of a mostly opened board grow a board larger than the faces' surroundings)."""
    margin = CROP_CELLS * float(np.median(np.maximum(faces.w, faces.h))) * 1.5
    h, w = gray.shape
    box = (faces.x.min(), faces.y.min(), (faces.x + faces.w).max(), (faces.y + faces.h).max())
    for _ in range(CROP_WIDENINGS + 1):
        x0, y0 = max(int(box[0] - margin), 0), max(int(box[1] - margin), 0)
        x1, y1 = min(int(box[2] + margin), w), min(int(box[3] + margin), h)
        local = Boxes(faces.x - x0, faces.y - y0, faces.w, faces.h)
        fit = _fit_group(np.ascontiguousarray(gray[y0:y1, x0:x1]), local, placed)
        if fit is None:
            return None
        g = fit.geometry
        r = g.region()
        near_x, near_y = 2 * g.pitch_x, 2 * g.pitch_y
        at_edge = (
            (x0 > 0 and r.left - near_x < 0)
            or (y0 > 0 and r.top - near_y < 0)
            or (x1 < w and r.right + near_x > x1 - x0)
            or (y1 < h and r.bottom + near_y > y1 - y0)
        )
        fit = replace(fit, geometry=g.offset(x0, y0))
        if not at_edge:
            return fit
        r = fit.geometry.region()
        box = (r.left, r.top, r.right, r.bottom)
        margin = CROP_CELLS * max(g.pitch_x, g.pitch_y)
    return fit


def _fit_group(gray: np.ndarray, faces: Boxes, placed: bool = False) -> GridFit | None:
    """A board grown from one group of faces, or None when it is no board.

    ``placed``: the faces sit exactly in their cells (repeated tiles, whose phase is where the repeats
    start), so the lattice through them is kept as it is: a seamless texture has no boundary steps to
    fold, and the step profile would only pull the lattice off."""
    lattice = _lattice(faces)
    if lattice is None:
        return None
    ex, ey = _steps(gray)
    board = _Board(gray, ex, ey, *lattice)
    searched: dict[tuple[int, int, int, int], Boxes | None] = {}
    if _split_pitch(board):
        placed = False  # the repeats were of several cells: their boundaries are to be found
    spans = [board.ay.count - 1, board.ax.count - 1]  # cells each pitch was measured over
    if not placed:
        _face_pitch(gray, board, faces, searched, spans)
        for _ in range(2):
            board.ax = board.phase(1)
            board.ay = board.phase(0)
            board.ax = board.refine(1)
            board.ay = board.refine(0)
    _within_image(board)
    _grow(board, faces, trim=not placed)
    if not placed:
        _cut_at_gaps(board, faces)
        _face_pitch(gray, board, faces, searched, spans)
        board.ax = board.refine(1)
        board.ay = board.refine(0)
        _within_image(board, 0.5)  # a pitch refit after growing may carry the last cells past the image
    ax, ay = board.ax, board.ay
    if ax.count < MIN_SIDE or ay.count < MIN_SIDE:
        return None
    if not placed and _cuts_faces(gray, board, faces, searched):
        return None
    geometry = Geometry(ax.start, ay.start, ax.pitch, ay.pitch, ay.count, ax.count)
    own = _faces_at(faces, ax, ay, ay.count, ax.count)
    return GridFit(geometry, _inset(gray, ax, ay), float(own.mean()))


def _inset(gray: np.ndarray, ax: _Axis, ay: _Axis) -> tuple[int, int, int, int]:
    """Pixels at each end of a cell that every cell shares (grid lines, gaps): (left, top, right, bottom)."""
    out = []
    for a, b, axis in ((ax, ay, 1), (ay, ax, 0)):
        p = int(math.floor(a.pitch))
        lo, hi = max(b.line(0), 0), min(b.line(b.count), gray.shape[1 - axis])
        band = gray[lo:hi] if axis == 1 else gray[:, lo:hi].T
        starts = a.lines()[:-1]
        starts = starts[(starts >= 0) & (starts + p <= band.shape[1])]
        if len(starts) < 2:
            out.append((0, 0))
            continue
        cols = band[:, starts[:, None] + np.arange(p)[None, :]].astype(np.float32)  # (span, cells, p)
        spread = cols.std(axis=(0, 1))
        limit = 0.25 * float(np.median(spread))
        lead = 0
        while lead < p // 4 and spread[lead] <= limit:
            lead += 1
        trail = 0
        while trail < p // 4 and spread[p - 1 - trail] <= limit:
            trail += 1
        out.append((lead, trail))
    (left, right), (top, bottom) = out
    return left, top, right, bottom


def find_grids(image: np.ndarray) -> list[GridFit]:
    """Every board-like grid on a BGR (or grey) screenshot, best first (most cells showing structure).

    Covered cells painted with a texture have no flat faces: when cells repeating one picture
    (:func:`bot.vision.tiles.tile_faces`) lie outside the boards found, they are linked as faces of
    their own, and a board they make joins the board it continues. Beside a board found, only its
    surroundings (:data:`CROP_CELLS` cells) are looked at, at its pitch."""
    if min(image.shape[:2]) < MIN_BOARD_PX:
        return []
    gray = grey(image)
    fits = _square_cells(gray)
    if not fits:
        fits = _wide_cells(gray)
    return _filled_out(image, gray, fits)


def _square_cells(gray: np.ndarray) -> list[GridFit]:
    """The boards of roughly square faces (on the image, else on its detail amplified), and of repeated
    tiles beside them or alone."""
    fits = _fits(gray, find_faces(gray))
    if not fits:  # no faces apart: perhaps cells a few grey levels apart with no line between them
        fine = amplified(gray)
        fits = _fits(fine, find_faces(fine))
    if not fits:
        tiles = tile_faces(gray)
    else:  # tiles beside the board, at its lattice (cheap); if any, their own phase, around them
        g = fits[0].geometry
        r, mx, my = g.region(), CROP_CELLS * g.pitch_x, CROP_CELLS * g.pitch_y
        x0, y0 = max(int(r.left - mx), 0), max(int(r.top - my), 0)
        near = np.ascontiguousarray(gray[y0 : int(r.bottom + my), x0 : int(r.right + mx)])
        pitch = (g.pitch_x, g.pitch_y)
        tiles = tile_faces(near, pitch, (g.left - x0, g.top - y0))
        if _outside(tiles, fits, (x0, y0)).sum() < MIN_GROUP:
            return fits
        if _at_edge(tiles, near.shape):  # the tiles go on beyond: look everywhere
            x0 = y0 = 0
            near = gray
        tiles = tile_faces(near, pitch)
        tiles = Boxes(tiles.x + x0, tiles.y + y0, tiles.w, tiles.h)
    outside = _outside(tiles, fits, (0, 0))
    if outside.sum() >= MIN_GROUP:
        for fit in _fits(gray, tiles, placed=True):
            _add_fit(fits, fit, gray.shape)
        fits.sort(key=lambda f: f.score * f.cells, reverse=True)
    return fits


def _wide_cells(gray: np.ndarray) -> list[GridFit]:
    """The boards of faces up to :data:`~bot.vision.propose.FACE_ASPECT` times as wide as tall, when no
    board comes of square ones: cells wider than tall. A board is taken only when its cells are
    :data:`WIDE` times as wide as tall or more (narrower ones have square faces: a lattice of them found
    here is one pitched wrong), by no more than its faces may be, and its own faces (not the strips it
    grew by) span at least :data:`~bot.vision.propose.MIN_SIDE` rows and columns: a keypad's four
    columns of keys, grown by a strip of text beside them, are no board."""
    out = []
    for image in (gray, amplified(gray)):
        faces = find_faces(image, FACE_ASPECT)
        for fit in _fits(image, faces):
            g = fit.geometry
            if not WIDE * g.pitch_y <= g.pitch_x <= FACE_ASPECT * g.pitch_y:
                continue
            ax, ay = _Axis(g.left, g.pitch_x, g.cols), _Axis(g.top, g.pitch_y, g.rows)
            held = _faces_at(faces, ax, ay, g.rows, g.cols)
            if held.any(axis=0).sum() >= MIN_SIDE and held.any(axis=1).sum() >= MIN_SIDE:
                out.append(fit)
        if out:
            break
    return out


def _filled_out(image: np.ndarray, gray: np.ndarray, fits: list[GridFit]) -> list[GridFit]:
    """Each board grown by the strips beyond it whose cells hold faces of their own
    (:func:`bot.vision.extent.filled_out`: opened cells the faces and lines did not reach), then by
    those of its own grounds (:func:`bot.vision.grounds.grounded_out`: opened cells of one flat
    colour, with no lines), boards that then overlap joined or dropped as :func:`_add_fit` does, best
    first."""
    out: list[GridFit] = []
    for fit in fits:
        geometry = grounded_out(image, filled_out(gray, fit.geometry))
        _add_fit(out, replace(fit, geometry=geometry), gray.shape)
    out.sort(key=lambda f: f.score * f.cells, reverse=True)
    return out


def _outside(faces: Boxes, fits: list[GridFit], offset: tuple[float, float]) -> np.ndarray:
    """Which faces (at ``offset`` in the screenshot) lie outside every board found."""
    regions = [f.geometry.region() for f in fits]
    centres = zip(faces.cx + offset[0], faces.cy + offset[1], strict=True)
    return np.array([not any(r.contains(x, y) for r in regions) for x, y in centres], bool)


def _at_edge(faces: Boxes, shape: tuple[int, ...]) -> bool:
    """Whether any face lies within its own size of the image's edge."""
    h, w = shape[:2]
    return bool(
        (
            (faces.x < faces.w)
            | (faces.y < faces.h)
            | (faces.x + 2 * faces.w > w)
            | (faces.y + 2 * faces.h > h)
        ).any()
    )


def _fits(gray: np.ndarray, faces: Boxes, placed: bool = False) -> list[GridFit]:
    """The boards grown from each group of linked faces, best first (``placed``: see :func:`_fit_group`);
    when no group of :data:`MIN_GROUP` faces makes one, from the small clusters (:func:`face_groups`),
    each board then judged by the faces of its seed's sizes it holds in all (:func:`_held`)."""
    fits: list[GridFit] = []
    for small in (False, True):
        for group in face_groups(faces, small):
            cx, cy = float(np.median(faces.cx[group])), float(np.median(faces.cy[group]))
            if any(f.geometry.region().contains(cx, cy) for f in fits):
                continue  # faces of a board already found (opened cells of another size)
            fit = _fit_crop(gray, faces.take(group), placed)
            if fit is not None and (not small or _held(fit.geometry, faces, group) >= MIN_GROUP):
                _add_fit(fits, fit, gray.shape)
        if fits:
            break
    fits.sort(key=lambda f: f.score * f.cells, reverse=True)
    return fits


def _held(geometry: Geometry, faces: Boxes, group: np.ndarray) -> int:
    """Cells of the board that hold a face of the seed group's sizes (its own or any other's)."""
    inside = np.zeros(len(faces.x), bool)
    inside[group] = True
    like = _sized_like(faces, inside)
    ax = _Axis(geometry.left, geometry.pitch_x, geometry.cols)
    ay = _Axis(geometry.top, geometry.pitch_y, geometry.rows)
    return int(_faces_at(like, ax, ay, geometry.rows, geometry.cols).sum())


def _add_fit(fits: list[GridFit], fit: GridFit, shape: tuple[int, ...]) -> None:
    """Add a board to ``fits``: joined with the boards it overlaps when they are all on its lattice (parts
    of one board: a mostly opened board's covered cells and its flags, found apart, and the board its
    repeated tiles span), dropped when it overlaps any other, else added."""
    overlapping = [i for i, f in enumerate(fits) if _overlap(fit.geometry, f.geometry)]
    if overlapping and all(_same_lattice(fits[i].geometry, fit.geometry) for i in overlapping):
        union = fit
        for i in overlapping:
            union = _union(fits[i], union)
        h, w = shape[:2]
        fits[overlapping[0]] = replace(union, geometry=_within(union.geometry, w, h))
        for i in reversed(overlapping[1:]):
            del fits[i]
    elif not overlapping:
        fits.append(fit)


def _same_lattice(a: Geometry, b: Geometry) -> bool:
    """Whether two grids' cells repeat at one pitch and phase (to a fifth of a cell over the two)."""
    span = max(a.cols, b.cols, a.rows, b.rows)
    for start_a, start_b, pa, pb in (
        (a.left, b.left, a.pitch_x, b.pitch_x),
        (a.top, b.top, a.pitch_y, b.pitch_y),
    ):
        cells = (start_b - start_a) / pa
        if abs(pa - pb) * span > 0.5 or abs(cells - round(cells)) > 0.2:
            return False
    return True


def _union(a: GridFit, b: GridFit) -> GridFit:
    """One board spanning two grids on one lattice (two face groups of a board found apart), placed as
    the larger of the two is (the more cells, the surer its phase)."""
    if b.cells > a.cells:
        a, b = b, a
    ga, gb = a.geometry, b.geometry
    cols_before = max(0, round((ga.left - gb.left) / ga.pitch_x))
    rows_before = max(0, round((ga.top - gb.top) / ga.pitch_y))
    cols_after = max(0, round((gb.left + gb.cols * ga.pitch_x - ga.left - ga.cols * ga.pitch_x) / ga.pitch_x))
    rows_after = max(0, round((gb.top + gb.rows * ga.pitch_y - ga.top - ga.rows * ga.pitch_y) / ga.pitch_y))
    geometry = replace(
        ga,
        left=ga.left - cols_before * ga.pitch_x,
        top=ga.top - rows_before * ga.pitch_y,
        rows=ga.rows + rows_before + rows_after,
        cols=ga.cols + cols_before + cols_after,
    )
    score = (a.score * a.cells + b.score * b.cells) / (a.cells + b.cells)
    return GridFit(geometry, a.inset, score)


def _overlap(a: Geometry, b: Geometry) -> bool:
    ra, rb = a.region(), b.region()
    return ra.left < rb.right and rb.left < ra.right and ra.top < rb.bottom and rb.top < ra.bottom


def refuse_too_small(image: np.ndarray) -> None:
    """Refuse an image too small to hold a board (a 1x500 strip, an icon), saying so.

    Raises:
        BoardNotFoundError: when the image is narrower or lower than :data:`MIN_BOARD_PX`.
    """
    h, w = image.shape[:2]
    if min(h, w) < MIN_BOARD_PX:
        raise BoardNotFoundError(
            f"no board on the {w}x{h} image: it is too small to hold one (a board has at least "
            f"{MIN_SIDE}x{MIN_SIDE} cells, at least {MIN_BOARD_PX}x{MIN_BOARD_PX} pixels)"
        )


def find_grid(image: np.ndarray) -> GridFit:
    """The board's grid on a screenshot: the best of :func:`find_grids`.

    Raises:
        BoardNotFoundError: when nothing on the screenshot is a lattice of at least
            :data:`MIN_SIDE` x :data:`MIN_SIDE` cells (naming what was seen), or when the best one's
            extent is in doubt (:func:`bot.vision.extent.open_sides`).
    """
    fits = find_grids(image)
    if not fits:
        h, w = image.shape[:2]
        raise BoardNotFoundError(
            f"no board on the {w}x{h} screenshot: no lattice of at least {MIN_SIDE}x{MIN_SIDE} "
            "like cells one pitch apart in rows and columns"
        )
    best = fits[0]
    g = best.geometry
    sides = open_sides(image, g)
    if sides:
        raise BoardNotFoundError(
            f"a board of {g.rows}x{g.cols} cells found, but beyond its {' and '.join(sides)} edge the cells "
            "look like its own: where it ends is in doubt, and a board read a row or a column short is "
            "read wrong"
        )
    LOGGER.info(
        "grid: %dx%d cells, pitch %.3fx%.3f px, cell (0, 0) at (%.2f, %.2f), inset %s",
        g.rows,
        g.cols,
        g.pitch_x,
        g.pitch_y,
        g.left,
        g.top,
        best.inset,
    )
    return best
