"""A board's extent on its lattice: the rows and columns that show the board's structure (grown and
trimmed to its real edge), and the sides where a screenshot's edge cuts it or its lattice goes on
(step 4 of :mod:`bot.vision.grid`)."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from bot.geometry import Geometry
from bot.vision.boxes import Boxes
from bot.vision.lattice import LINE_SHARE, _Board, _faces_at, _set, _steps, flat_parts
from bot.vision.propose import MERGE_CELLS, MIN_SIDE, _Axis, find_faces, grey

TYPICAL_STRIPS = 8
"""Rows (columns) sampled for the board's typical grid-line strength."""


STRIP_SHARE = 0.5
"""Share of a row's (column's) cells that must show the board's structure for it to be part of it."""


FILL_REACH = 4
"""Cells beyond a grid that :func:`filled_out` looks at first on each side."""
CELL_FILL = 0.5
"""Least share of its cell's pitch, each way, that a cell's own flat face spans."""
LATTICE_CONTRAST = 2.0
"""A strip's steps must be this much stronger on its lattice boundaries than between them to count as
grid lines (a row of buttons with text, a header, have steps everywhere)."""


def _within_image(board: _Board, slack: float = 0.0) -> None:
    """Drop the lattice's cells that the image's edge cuts: a board partly off the screenshot is read
    as the part that shows (a cut cell's faces still link, and would leave no boundary to measure).
    ``slack``: the share of a cell that may lie outside (a half: only cells mostly outside go)."""
    h, w = board.gray.shape
    board.ax, board.ay = _axis_within(board.ax, w, slack), _axis_within(board.ay, h, slack)


def _axis_within(a: _Axis, size: int, slack: float = 0.0) -> _Axis:
    """The axis less its cells that fall (partly, beyond ``slack`` of a cell) outside ``0..size`` (half a
    pixel of slack at the far end)."""
    first = max(0, math.ceil(-a.start / a.pitch - slack - 1e-6))
    last = min(a.count, math.floor((size + 1 - a.start) / a.pitch + slack + 1e-6))
    if last - first == a.count:
        return a
    return replace(a, start=a.start + first * a.pitch, count=max(last - first, 0))


def _within(geometry: Geometry, width: int, height: int) -> Geometry:
    """The grid less its rows and columns that the image's edge cuts."""
    ax = _axis_within(_Axis(geometry.left, geometry.pitch_x, geometry.cols), width)
    ay = _axis_within(_Axis(geometry.top, geometry.pitch_y, geometry.rows), height)
    return replace(geometry, left=ax.start, top=ay.start, cols=ax.count, rows=ay.count)


def _strip_lines(board: _Board, axis: int, index: int, cut: bool = False) -> tuple[float, float] | None:
    """Share of a strip's inner boundaries with a grid line across them, and their contrast (how much
    stronger its steps are on the lattice than off it); None for a strip the image's edge cuts (unless
    ``cut``: then the part of it that shows is measured)."""
    strength, contrast = board.cross_boundaries(axis, index, cut)
    if len(strength) == 0:
        return None
    return float((strength >= max(LINE_SHARE * board.typical[axis], 4.0)).mean()), contrast


def _strip_ok(board: _Board, kinds: Boxes, axis: int, index: int) -> bool:
    """Whether lattice row (axis 0) or column (axis 1) ``index`` shows the board's structure: faces
    of the board's sizes in enough of its cells, or enough boundaries across it."""
    found = _strip_lines(board, axis, index)
    if found is None:
        return False
    lines, contrast = found
    if lines >= STRIP_SHARE and contrast >= LATTICE_CONTRAST:
        return True
    ax, ay = board.ax, board.ay
    if axis == 0:
        shifted = _faces_at(kinds, replace(ax), replace(ay, start=ay.start + index * ay.pitch), 1, ax.count)
    else:
        shifted = _faces_at(kinds, replace(ax, start=ax.start + index * ax.pitch), replace(ay), ay.count, 1)
    return float(shifted.mean()) >= STRIP_SHARE


def _cells_filled(parts: Boxes, ax: _Axis, ay: _Axis, axis: int, index: int) -> float:
    """Share of strip ``index``'s cells (a row when ``axis`` is 0) that a flat face of its own fills:
    one of ``parts`` (:func:`bot.vision.lattice.flat_parts`) inside the cell, to a pixel, spanning at
    least :data:`CELL_FILL` of it each way, centred in it (:func:`_centred`). A board's cells, covered
    or opened, show such faces in any look whose cells are parted by lines, bevels, gaps or shades,
    whatever their sizes; a header's text, a frame or a panel shows none on the lattice."""
    a, other = (ax, ay) if axis == 0 else (ay, ax)  # ``a``: along the strip
    lo, hi = other.line(index), other.line(index + 1)
    if axis == 0:
        along_lo, along_size, across_lo, across_size = parts.x, parts.w, parts.y, parts.h
    else:
        along_lo, along_size, across_lo, across_size = parts.y, parts.h, parts.x, parts.w
    across = (across_lo >= lo - 1) & (across_lo + across_size <= hi + 1)
    across &= across_size >= CELL_FILL * other.pitch
    across &= np.abs(across_lo + across_size / 2 - (lo + hi) / 2) <= _centred(other.pitch)
    if not across.any():
        return 0.0
    start, size = along_lo[across], along_size[across]
    cell = np.floor((start + size / 2 - a.start) / a.pitch).astype(np.intp)
    inside = (cell >= 0) & (cell < a.count) & (size >= CELL_FILL * a.pitch)
    first = np.round(a.start + cell * a.pitch)
    inside &= (start >= first - 1) & (start + size <= np.round(a.start + (cell + 1) * a.pitch) + 1)
    inside &= np.abs(start + size / 2 - (a.start + (cell + 0.5) * a.pitch)) <= _centred(a.pitch)
    return len(np.unique(cell[inside])) / max(a.count, 1)


def filled_out(gray: np.ndarray, geometry: Geometry) -> Geometry:
    """The grid grown by every strip beyond it, up to the image's edge, in most of whose cells a flat
    face of their own sits (:func:`_cells_filled`): opened cells parted by thin lines or a shade hold no
    face of the covered tiles' size and show weak lines, yet each holds a face of its own centred on
    the lattice, which a header, a frame or text beside the board does not. Looks :data:`FILL_REACH`
    cells around the grid first, further while the grid grows to that edge."""
    h, w = gray.shape
    reach = FILL_REACH
    while True:
        margin = reach * max(geometry.pitch_x, geometry.pitch_y)
        r = geometry.region()
        x0, y0 = max(0, int(r.left - margin)), max(0, int(r.top - margin))
        x1, y1 = min(w, int(math.ceil(r.right + margin))), min(h, int(math.ceil(r.bottom + margin)))
        grown = _filled_within(gray, geometry, (x0, y0, x1, y1))
        g = grown.region()
        near = 2 * max(geometry.pitch_x, geometry.pitch_y)
        at_edge = (
            (x0 > 0 and g.left - near < x0)
            or (y0 > 0 and g.top - near < y0)
            or (x1 < w and g.right + near > x1)
            or (y1 < h and g.bottom + near > y1)
        )
        if grown == geometry or not at_edge:
            return grown
        geometry, reach = grown, 4 * reach


def _filled_within(gray: np.ndarray, geometry: Geometry, crop: tuple[int, int, int, int]) -> Geometry:
    """:func:`filled_out` within ``crop`` ``(x0, y0, x1, y1)`` of the image."""
    x0, y0, x1, y1 = crop
    parts = flat_parts(np.ascontiguousarray(gray[y0:y1, x0:x1]))
    axes = [_Axis(geometry.top - y0, geometry.pitch_y, geometry.rows)]
    axes.append(_Axis(geometry.left - x0, geometry.pitch_x, geometry.cols))
    sizes = (y1 - y0, x1 - x0)
    for axis in (0, 1):
        for before in (True, False):
            while True:
                a = axes[axis]
                index = -1 if before else a.count
                if a.line(index) < 0 or a.line(index + 1) > sizes[axis]:
                    break
                if _cells_filled(parts, axes[1], axes[0], axis, index) < STRIP_SHARE:
                    break
                start = a.start - a.pitch if before else a.start
                axes[axis] = replace(a, start=start, count=a.count + 1)
    ay, ax = axes
    return replace(geometry, left=ax.start + x0, top=ay.start + y0, rows=ay.count, cols=ax.count)


def _centred(pitch: float) -> float:
    """How far a cell's face may sit from the cell's centre (a bevel shifts it a pixel; a lattice a
    pixel off its pitch drifts further with every cell)."""
    return max(1.0, 0.06 * pitch)


def _grow(board: _Board, faces: Boxes, trim: bool = True) -> None:
    """Add rows and columns while they show the board's structure; trim outer ones that do not (unless
    ``trim`` is False: the faces are cells for sure, so the board spans them all)."""
    board.typical = {axis: _typical_line(board, axis) for axis in (0, 1)}
    for axis in (0, 1):
        changed = True
        while changed:
            changed = False
            a = board.ay if axis == 0 else board.ax
            trimmable = trim and a.count > MIN_SIDE
            if trimmable and not _kept(board, faces, axis, 0):
                _set(board, axis, replace(a, start=a.start + a.pitch, count=a.count - 1))
                changed = True
            elif trimmable and not _kept(board, faces, axis, a.count - 1):
                _set(board, axis, replace(a, count=a.count - 1))
                changed = True
            elif before := _reach(board, faces, axis, True):
                _set(board, axis, replace(a, start=a.start - before * a.pitch, count=a.count + before))
                changed = True
            elif after := _reach(board, faces, axis, False):
                _set(board, axis, replace(a, count=a.count + after))
                changed = True


def _kept(board: _Board, faces: Boxes, axis: int, index: int) -> bool:
    """Whether an outer strip stays: it shows the board's structure, or a line across every boundary
    (what :func:`_reach` takes at the board's edge)."""
    return _strip_ok(board, faces, axis, index) or _lined_across(board, axis, index)


def _gap(board: _Board, faces: Boxes, axis: int, index: int) -> bool:
    """Whether strip ``index`` shows nothing of the board: no faces of its sizes, no grid lines across."""
    if _strip_ok(board, faces, axis, index):
        return False
    found = _strip_lines(board, axis, index)
    return found is None or found[0] < STRIP_SHARE


def _cut_at_gaps(board: _Board, faces: Boxes) -> None:
    """Cut the grown board at the first gap (:func:`_gap`) on each side of its faces, judged at the
    board's final extent: a board has no holes, and a strip taken while the board was narrow (a
    counter's digits over three columns look like cells) shows it is none across the whole board."""
    for axis in (0, 1):
        a = board.ay if axis == 0 else board.ax
        centres = faces.cy if axis == 0 else faces.cx
        held = np.clip(np.floor((centres - a.start) / a.pitch), 0, a.count - 1).astype(np.intp)
        first, last = 0, a.count - 1
        for i in range(int(held.min()) - 1, -1, -1):
            if _gap(board, faces, axis, i):
                first = i + 1
                break
        for i in range(int(held.max()) + 1, a.count):
            if _gap(board, faces, axis, i):
                last = i - 1
                break
        if (first, last) != (0, a.count - 1):
            _set(board, axis, replace(a, start=a.start + first * a.pitch, count=last - first + 1))


def _reach(board: _Board, faces: Boxes, axis: int, before: bool) -> int:
    """Strips to add on one side of the board: 1 when the next shows the board's structure; ``n + 1``
    when the next ``n`` (up to :data:`MERGE_CELLS`) show grid lines across them but too weakly (glyphs
    and mines between them, few faces) and the one after them shows the structure (a board has no
    holes); ``n`` when those ``n`` show a line across every boundary (:func:`_lined_across`) and the
    one after them shows too few lines (the board's edge: its last cells, then its frame); else 0. A
    frame or a gap between boards shows few lines."""
    count = (board.ay if axis == 0 else board.ax).count
    step = -1 if before else 1
    near = -1 if before else count
    whole = True  # every strip of the run so far has a line across every boundary
    for run in range(MERGE_CELLS + 1):
        index = near + run * step
        if _strip_ok(board, faces, axis, index):
            return run + 1
        found = _strip_lines(board, axis, index)
        if found is None:  # the image's edge: as a frame, it ends a run lined across
            return run if whole else 0
        if found[0] < STRIP_SHARE:
            return run if whole else 0
        whole = whole and found[0] >= 1.0
    return 0


def _lined_across(board: _Board, axis: int, index: int, cut: bool = False) -> bool:
    """Whether strip ``index`` shows a grid line across every one of its inner boundaries: the board's
    own lattice, cell by cell, however many glyphs lie between the lines (a header's text or a row of
    buttons lines up with a few of the board's boundaries, not all). ``cut``: of a strip the image's
    edge cuts, the part that shows."""
    found = _strip_lines(board, axis, index, cut)
    return found is not None and found[0] >= 1.0


def _typical_line(board: _Board, axis: int) -> float:
    """The median strength of the boundaries across the board's rows (axis 0) or columns, over at
    most :data:`TYPICAL_STRIPS` of them spread over the board."""
    count = (board.ay if axis == 0 else board.ax).count
    picks = np.unique(np.linspace(0, count - 1, min(count, TYPICAL_STRIPS)).round().astype(int))
    parts = [board.cross_boundaries(axis, int(i))[0] for i in picks]  # none on an axis with no cells
    values = np.concatenate(parts) if parts else np.zeros(0)
    return float(np.median(values)) if len(values) else 0.0


def _sized_like(faces: Boxes, inside: np.ndarray) -> Boxes:
    """The faces whose size is that of some face in ``inside`` (within a rounding step)."""
    if not inside.any():
        return faces.take(np.zeros(0, np.intp))
    sizes = np.unique(np.stack([faces.w[inside], faces.h[inside]], axis=1), axis=0)
    near = (np.abs(faces.w[:, None] - sizes[None, :, 0]) <= 2) & (
        np.abs(faces.h[:, None] - sizes[None, :, 1]) <= 2
    )
    return faces.take(np.nonzero(near.any(axis=1))[0])


CUT_ON_LINES = 0.6
"""Share of a strip's changes along the board's edge that fall on the board's cell boundaries above which
the strip is cells (a board cut by the screenshot's edge) rather than a frame, a border or a background
(changes spread at random put about a quarter there)."""


CUT_CONTRAST = 1.0
"""Mean grey-level change per pixel along the edge below which a strip is flat: a frame, not cells."""


def cut_sides(image: np.ndarray, geometry: Geometry) -> list[str]:
    """The sides (``top``, ``bottom``, ``left``, ``right``) where the screenshot's edge cuts the board.

    There, less than a cell of image lies beyond the board, and that strip changes along the edge where
    the board's cells meet, as a row of cells cut short does (grid lines, bevels, one cell's state to the
    next); a frame, a window border or a background does not. A board read without its cut cells is not
    the board: its edge numbers count neighbours that do not show, so it is refused, not played.
    """
    height, width = image.shape[:2]
    r, g = geometry.region(), geometry
    rows, cols = slice(max(r.top, 0), min(r.bottom, height)), slice(max(r.left, 0), min(r.right, width))
    strips = (
        ("left", rows, slice(0, max(r.left, 0)), g.pitch_x, g.pitch_y, g.top - rows.start, 1),
        ("right", rows, slice(r.right, width), g.pitch_x, g.pitch_y, g.top - rows.start, 1),
        ("top", slice(0, max(r.top, 0)), cols, g.pitch_y, g.pitch_x, g.left - cols.start, 0),
        ("bottom", slice(r.bottom, height), cols, g.pitch_y, g.pitch_x, g.left - cols.start, 0),
    )
    sides = []
    board = None
    for side, strip_rows, strip_cols, across, pitch, phase, axis in strips:
        strip = image[strip_rows, strip_cols]  # only the strips are turned grey, not the whole screen
        if 0 < strip.shape[axis] < across:
            changes = _edge_changes(grey(strip).astype(np.float32), axis)
            if _changes_on_lines(changes, pitch, phase):
                sides.append(side)
                continue
            board = board or _board_near(image, geometry)
            index = -1 if side in ("top", "left") else (g.rows if axis == 0 else g.cols)
            if _lined_across(board, axis, index, cut=True):  # cells cut short, whatever glyphs they show
                sides.append(side)
    return sides


def _edge_changes(strip: np.ndarray, axis: int) -> np.ndarray:
    """How much a strip changes from one pixel to the next along the board's edge: the median over the
    strip's lines parallel to the edge (a glyph crosses only some of them; a cell boundary, all)."""
    return np.median(np.abs(np.diff(strip, axis=1 - axis)), axis=axis)


def _changes_on_lines(change: np.ndarray, pitch: float, phase: float) -> bool:
    """Whether the changes along a board's edge are many, and mostly where the board's cells meet (within
    an eighth of a cell, at least a pixel and a half, of ``phase + k * pitch``)."""
    if len(change) < 2 * pitch:
        return False
    if float(change.mean()) < CUT_CONTRAST:
        return False
    at = np.arange(len(change)) + 0.5  # a change lies between two pixels
    offset = (at - phase) % pitch
    near = np.minimum(offset, pitch - offset) <= max(1.5, pitch / 8)
    return float(change[near].sum()) >= CUT_ON_LINES * float(change.sum())


def continues(image: np.ndarray, geometry: Geometry) -> list[str]:
    """The sides (``top``, ``bottom``, ``left``, ``right``) of a board found some other way (a skin's
    templates) beyond which its lattice goes on: the strip of cells just outside shows the board's
    structure by the rule :func:`find_grids` grows a board by (faces of the board's sizes, or grid
    lines across it, in the next strip or, past up to :data:`MERGE_CELLS` strips of lines alone, the
    one after them). A reading of such a board is of part of it. Cheap: looks only next to the board.
    """
    board = _board_near(image, geometry)
    ax, ay = board.ax, board.ay
    faces = find_faces(board.gray)
    cx, cy = faces.cx, faces.cy
    inside = (cx >= ax.start) & (cx < ax.line(ax.count)) & (cy >= ay.start) & (cy < ay.line(ay.count))
    like = _sized_like(faces, inside)
    sides = (("top", 0, True), ("bottom", 0, False), ("left", 1, True), ("right", 1, False))
    return [name for name, axis, before in sides if _reach(board, like, axis, before)]


def _board_near(image: np.ndarray, geometry: Geometry) -> _Board:
    """The board at ``geometry`` on the part of the screenshot within the strips :func:`_reach` may look
    at beyond it (and the line after them), with its typical grid-line strengths."""
    height, width = image.shape[:2]
    px, py = geometry.pitch_x, geometry.pitch_y
    region = geometry.region()
    strips = MERGE_CELLS + 1  # strips beyond each side :func:`_reach` may look at
    mx, my = strips * px + 3, strips * py + 3  # and the line after them
    x0, y0 = max(0, int(region.left - mx)), max(0, int(region.top - my))
    x1, y1 = min(width, int(math.ceil(region.right + mx))), min(height, int(math.ceil(region.bottom + my)))
    gray = np.ascontiguousarray(grey(image[y0:y1, x0:x1]))
    ax = _Axis(geometry.left - x0, px, geometry.cols)
    ay = _Axis(geometry.top - y0, py, geometry.rows)
    ex, ey = _steps(gray)
    board = _Board(gray, ex, ey, ax, ay)
    board.typical = {axis: _typical_line(board, axis) for axis in (0, 1)}
    return board


EDGE_MATCH = 6.0
"""Mean grey difference (0-255) of two cells' middles, 8x8 px each, within which a cell beyond a board's
edge looks like one of the board's own cells."""
EDGE_VARY = 4.0
"""The same, above which two neighbouring cells beyond a board's edge differ as a board's do (a
checkerboard's two shades, a glyph); a frame, a page or a gradient behind the board is alike from one
cell to the next."""


def open_sides(image: np.ndarray, geometry: Geometry) -> list[str]:
    """The sides (``top``, ``bottom``, ``left``, ``right``) beyond which the board seems to go on: in the
    strip of cells one pitch beyond the edge, inside the image, most cells look like some cell of the
    board (:data:`EDGE_MATCH`) and most differ from their neighbour as a board's cells do
    (:data:`EDGE_VARY`). A frame, a window, a page or a gradient beside a board is alike from cell to
    cell; a header's counters and buttons look like no cell. A board found a strip short of its edge
    (opened cells a face or line rule did not reach) would be read a row or a column off: its extent
    is in doubt."""
    g = geometry
    height, width = image.shape[:2]
    gray = grey(image)
    own = _middles(gray, g).reshape(g.rows * g.cols, -1)
    last_row, last_col = g.top + (g.rows - 1) * g.pitch_y, g.left + (g.cols - 1) * g.pitch_x
    sides = (
        ("top", replace(g, top=g.top - g.pitch_y, rows=1)),
        ("bottom", replace(g, top=last_row + g.pitch_y, rows=1)),
        ("left", replace(g, left=g.left - g.pitch_x, cols=1)),
        ("right", replace(g, left=last_col + g.pitch_x, cols=1)),
    )
    out = []
    for side, beyond in sides:
        r = beyond.region()
        if r.left < 0 or r.top < 0 or r.right > width or r.bottom > height:
            continue  # the image's edge: :func:`cut_sides` judges it
        outer = _middles(gray, beyond)
        flat = outer.reshape(len(outer), -1)
        nearest = np.array([np.abs(own - cell[None, :]).mean(axis=1).min() for cell in flat])
        varied = np.abs(np.diff(outer, axis=0)).mean(axis=(1, 2)) > EDGE_VARY
        if (nearest <= EDGE_MATCH).mean() >= STRIP_SHARE and varied.mean() >= STRIP_SHARE:
            out.append(side)
    return out


def _middles(gray: np.ndarray, geometry: Geometry, step: int = 1) -> np.ndarray:
    """Each cell's middle (an eighth of the pitch in from each side) at 8x8 px, float32, in order
    (``step``: of every ``step``-th row and column only)."""
    g = geometry
    out = []
    for r in range(0, g.rows, step):
        for c in range(0, g.cols, step):
            x0, x1 = round(g.left + (c + 0.125) * g.pitch_x), round(g.left + (c + 0.875) * g.pitch_x)
            y0, y1 = round(g.top + (r + 0.125) * g.pitch_y), round(g.top + (r + 0.875) * g.pitch_y)
            patch = gray[max(y0, 0) : max(y1, y0 + 1), max(x0, 0) : max(x1, x0 + 1)]
            out.append(cv2.resize(patch, (8, 8), interpolation=cv2.INTER_AREA).astype(np.float32))
    return np.stack(out)
