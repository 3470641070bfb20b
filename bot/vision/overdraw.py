"""Take back ink that a neighbour's glyph draws over a cell: glyphs taller or wider than their cell.

Why: some clients (xbomb's 24-point digits in 20 px cells) draw a glyph past its own cell, across the
grid line, into the strip of the next cell along that edge; the next cell then shows ink that is not
its own (a bar over a covered tile reads as a mark, over a 0 as a glyph). Nothing here knows a
client: ink is foreign to a cell when, by structure,

- its colour shows in the cell only within the strip along one edge (nowhere deeper in the cell),
- it starts at that edge (past the grid line at most) and runs on past it, not a one-pixel blend of
  the two cells along the edge, and
- the neighbour across that edge shows the same colour reaching its side of the edge at the same
  place, and deeper in its body: the glyph is anchored there and runs on over the edge.

Such pixels are painted over with what the cell shows without them: the same pixels of a twin cell
along the same edge (drawn exactly alike past the strip), else the cell's own ground an even number
of pixels further in (an even step keeps a dithered tile's pattern in phase). A glyph of the cell's
own colour that also reaches deeper is never touched, so a cell's own ink stays.

>>> from bot.geometry import Geometry
>>> image = np.full((40, 20, 3), 255, np.uint8)
>>> image[2:24, 6:12] = (128, 0, 0)  # a bar anchored in the top cell, running 4 px into the one below
>>> fixed = repair(image, Geometry(0, 0, 20, 20, 2, 1))
>>> bool((fixed[20:, :] == 255).all()), bool((fixed[2:20, 6:12] == (128, 0, 0)).all())
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from bot.geometry import Geometry

STRIP = 0.3
"""Share of a cell's side, along each edge, in which a neighbour's glyph may run on into it."""
BIN = 16
"""Colours are compared in bins of this many levels per channel (and each bin's neighbours)."""
LEVELS = 256 // BIN
SHIFT = BIN.bit_length() - 1
EDGE = 0.125
"""Share of a cell's side next to an edge within which ink running on over it starts (the grid line
between two cells, at most)."""
TWIN_SAME = 0.98
"""Least share of pixels past the strip two cells must share for one to lend the other its strip."""
BANDS = 5
"""Bands across a cell's side (:func:`_bands`)."""
ROUNDING = 0.5
"""Added before rounding a pixel position down: to the nearest pixel (a grid found at x = 1.99 starts
at pixel 2, and 27 * (1 + 2/27) is 28.999... in floating point)."""
TIE_DECIMALS = 6
"""Decimals a pixel position is rounded to before it is rounded to a pixel (floating-point error is far
below, a real offset far above)."""
MIN_PITCH = 8
"""Cells smaller than this are not looked at (no glyph can run on into a strip of a pixel or two)."""
GRID_SHARE = 0.9
"""Least share of a board's cells showing one line of their tile (a row or column along a side) in one
colour, the same in each, for that line to be the grid's own (:func:`_grid_lines`)."""
NO_COLOUR = LEVELS**3
"""The bin given to the grid's own lines: no colour, neither a cell's nor a neighbour's glyph's."""


def _cell_coords(geometry: Geometry, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, int]:
    """Pixel rows ``(rows, size)`` and columns ``(cols, size)`` of every cell, one pixel per tile pixel
    (a fractional pitch repeats a pixel now and then), and the tile side ``size``."""
    size = max(round(geometry.pitch_x), round(geometry.pitch_y))
    steps = np.arange(size) / size
    ys = _nearest_pixel(geometry.top + (np.arange(geometry.rows)[:, None] + steps) * geometry.pitch_y)
    xs = _nearest_pixel(geometry.left + (np.arange(geometry.cols)[:, None] + steps) * geometry.pitch_x)
    return np.clip(ys, 0, shape[0] - 1), np.clip(xs, 0, shape[1] - 1), size


def _nearest_pixel(positions: np.ndarray) -> np.ndarray:
    """The pixel nearest each position, a tie rounded up alike everywhere: ``104.5 + k`` computed as
    ``104.5 + (k/56) * 56`` may come out a hair under, and would then round the other way (a board at a
    half-pixel offset read with pixels repeated and skipped)."""
    return np.floor(np.round(positions + ROUNDING, TIE_DECIMALS)).astype(np.int64)


def _grid_lines(flat_bins: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``flat_bins`` (each pixel's colour bin, the cells side by side) with the grid's own lines set to
    :data:`NO_COLOUR` (a copy; the same array when there are none). A line of the tile (a row or a
    column) is the grid's when nearly every cell (``GRID_SHARE``) shows it whole in one colour, the same
    in each, and that colour so runs along both a row and a column of the tile (a grid crosses itself;
    a bevel's light top and dark right side do not share a colour). A glyph drawn in the grid's colour
    (a black digit) then shows its own pixels only: what runs on past a side is not mistaken for the
    neighbour's lines, and the neighbour's lines are not mistaken for its own ink."""
    size = flat_bins.shape[0] // rows
    tiles = flat_bins.reshape(rows, size, cols, size)
    lines: list[tuple[str, int, int]] = []
    for axis, along in (("row", tiles.transpose(0, 2, 1, 3)), ("col", tiles.transpose(0, 2, 3, 1))):
        for j in (*range(min(3, size)), *range(max(size - 3, 3), size)):  # lines along a side only
            line = along[:, :, j]  # (R, C, S)
            first = line[:, :, 0]
            whole = (line == first[:, :, None]).all(axis=2)
            if float(whole.mean()) < GRID_SHARE:
                continue
            values, counts = np.unique(first[whole], return_counts=True)
            top = int(counts.argmax())
            if counts[top] >= GRID_SHARE * rows * cols:
                lines.append((axis, j, int(values[top])))
    crossing = {c for a, _, c in lines if a == "row"} & {c for a, _, c in lines if a == "col"}
    lines = [line for line in lines if line[2] in crossing]
    if not lines:
        return flat_bins
    out = tiles.copy()
    for axis, j, colour in lines:
        view = out[:, j] if axis == "row" else out[:, :, :, j]
        view[view == colour] = NO_COLOUR
    return out.reshape(flat_bins.shape)


def _bins(pixels: np.ndarray) -> np.ndarray:
    """Each pixel's colour bin (0 .. LEVELS^3 - 1), as uint16 (from the channels split apart, merged in
    place: one array)."""
    first, second, third = cv2.split(pixels)
    out = (first >> SHIFT).astype(np.uint16)
    out <<= 2 * SHIFT
    out |= second & (256 - BIN)  # its top bits, already in place
    out |= third >> SHIFT
    return out


def _used(flat_bins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The colour bins ``flat_bins`` shows, ascending (the grid's lines, :data:`NO_COLOUR`, left out), and
    how many pixels show each: a histogram of integer bins one level wide, exact, and cheaper than
    ``np.bincount`` on uint16."""
    counts = cv2.calcHist([flat_bins], [0], None, [NO_COLOUR + 1], [0, NO_COLOUR + 1]).ravel()[:NO_COLOUR]
    used = np.flatnonzero(counts)
    return used, counts[used]


def _neighbours(used: np.ndarray) -> np.ndarray:
    """``(K, K)`` which of the colour bins ``used`` are within one level of each other in every channel
    (a colour near a bin's edge shows in the next one)."""
    near = np.ones((len(used), len(used)), bool)
    for level in (used // LEVELS**2, used // LEVELS % LEVELS, used % LEVELS):  # channel by channel
        level = level.astype(np.int16)
        near &= np.abs(level[:, None] - level[None]) <= 1
    return near.astype(np.uint8)


def _bands(size: int, edge: int, strip: int) -> np.ndarray:
    """``(size,)`` which band of a cell's side each pixel lies in: 0 the edge, 1 the rest of the strip
    along it, 2 the middle, 3 and 4 the same towards the far side."""
    band = np.full(size, 2, np.int32)
    band[:strip], band[:edge] = 1, 0
    band[size - strip :], band[size - edge :] = 3, 4
    return band


@lru_cache(maxsize=8)
def _band_keys(rows: int, cols: int, size: int, edge: int, strip: int) -> tuple[np.ndarray, np.ndarray]:
    """``(R*S, C*S)`` (the cells side by side) each pixel's cell and band down (first) and across
    (second) its cell."""
    band = _bands(size, edge, strip)
    cell_row = np.repeat(np.arange(rows, dtype=np.int32), size)[:, None] * cols
    cell_col = np.repeat(np.arange(cols, dtype=np.int32), size)[None, :]
    cell = (cell_row + cell_col) * BANDS
    return cell + np.tile(band, rows)[:, None], cell + np.tile(band, cols)[None, :]


def _presence(flat_ids: np.ndarray, rows: int, cols: int, k: int, edge: int, strip: int) -> list[np.ndarray]:
    """``(R, C, 5, K)`` which of ``k`` colours each cell shows in each band down it (rows of
    :func:`_bands`), and the same across it: ``flat_ids`` ``(R*S, C*S)`` each pixel's colour index."""
    size = flat_ids.shape[0] // rows
    out = []
    for keys in _band_keys(rows, cols, size, edge, strip):
        counts = np.bincount((keys * k + flat_ids).ravel(), minlength=rows * cols * BANDS * k)
        out.append((counts > 0).reshape(rows, cols, BANDS, k))
    return out


WORD = 64
"""Colours per bit set word (:func:`_colour_sets`)."""
SET_BAND = 1 << 16
"""Pixels :func:`_colour_sets` turns into bit sets at a time (whole cell rows, at least one): a band
small enough to stay in the processor's cache between the lookup and the two reductions."""


def _colour_sets(
    flat_bins: np.ndarray, used: np.ndarray, rows: int, cols: int
) -> tuple[np.ndarray, np.ndarray]:
    """Which colours each line of each cell shows, as bit sets (bit ``k % WORD`` of word ``k // WORD``
    for colour ``used[k]``): ``(W, R, C, S)`` uint64 for every row of every cell (across it), and
    ``(W, C, R, S)`` for every column (down it). ``used`` comes most shown first (:func:`_may_run_on`):
    the first word's colours are looked up pixel by pixel, the others (an anti-aliased edge's shades,
    a fraction of a percent of the pixels) only where they show."""
    size = flat_bins.shape[0] // rows
    band = max(1, SET_BAND * rows // flat_bins.size)  # cell rows per band
    by_row, by_col = [], []
    width = flat_bins.shape[1]
    rest: list[np.ndarray] = []  # where the first word's colours do not show (later words', the grid's)
    for start in range(0, len(used), WORD):
        chunk = used[start : start + WORD]
        kind = next(t for t in (np.uint8, np.uint16, np.uint32, np.uint64) if np.iinfo(t).bits >= len(chunk))
        table = np.zeros(LEVELS**3 + 1, kind)  # NO_COLOUR: no bit; the narrowest word holding the chunk
        table[chunk] = np.left_shift(kind(1), np.arange(len(chunk), dtype=kind))
        if start:  # a few pixels: each one's bit set into its lines' words
            if start == WORD:
                ys, xs = np.divmod(np.concatenate(rest), width)
                shown = flat_bins[ys, xs]
            bits = np.take(table, shown)
            on = bits != 0
            rows_or = np.zeros((rows, size, cols), kind)
            cols_or = np.zeros((rows, cols * size), kind)
            np.bitwise_or.at(rows_or.reshape(-1, cols), (ys[on], xs[on] // size), bits[on])
            np.bitwise_or.at(cols_or, (ys[on] // size, xs[on]), bits[on])
            by_row.append(rows_or.astype(np.uint64).transpose(0, 2, 1))
            by_col.append(cols_or.astype(np.uint64).reshape(rows, cols, size).transpose(1, 0, 2))
            continue
        rows_or = np.empty((rows, size, cols), kind)
        cols_or = np.empty((rows, cols * size), kind)
        for top in range(0, rows, band):  # a band of cell rows at a time: its bits stay in the cache
            n = min(band, rows - top)
            bits = np.take(table, flat_bins[top * size : (top + n) * size])
            np.bitwise_or.reduce(
                bits.reshape(n * size, cols, size), axis=2, out=rows_or[top : top + n].reshape(-1, cols)
            )
            np.bitwise_or.reduce(bits.reshape(n, size, cols * size), axis=1, out=cols_or[top : top + n])
            if len(used) > WORD:
                rest.append(np.flatnonzero(bits == 0) + top * size * width)
        by_row.append(rows_or.astype(np.uint64).transpose(0, 2, 1))
        by_col.append(cols_or.astype(np.uint64).reshape(rows, cols, size).transpose(1, 0, 2))
    return np.stack(by_row), np.stack(by_col)


def _members(words: np.ndarray, k: int) -> np.ndarray:
    """``(M, k)`` bool: which of ``k`` colours each of ``M`` bit sets ``(W, M)`` holds."""
    bits = (words[:, :, None] >> np.arange(WORD, dtype=np.uint64)) & np.uint64(1)
    return bits.astype(bool).transpose(1, 0, 2).reshape(words.shape[1], -1)[:, :k]


def _may_run_on(
    flat_bins: np.ndarray, used: np.ndarray, shown: np.ndarray, rows: int, cols: int, edge: int, strip: int
) -> bool:
    """Whether a neighbour's glyph may run on into some cell: a pixel on the line ``edge`` in from one of
    its sides (a piece :func:`_run_on` keeps starts before that line and goes on past it, so crosses it)
    in a colour near none the cell shows past its strip, which the neighbour across that side shows in
    its own strip there and further in (:func:`foreign_from_above`). Cheap (bit sets per line of each
    cell), and true whenever that finds anything on any of the four sides. ``shown``: how many pixels
    show each colour of ``used``; the colours are weighed most shown first (the sets they make are the
    same in any order, and the bit sets are built fastest so, :func:`_colour_sets`)."""
    if edge >= strip:
        return False
    used = used[np.argsort(-shown, kind="stable")]
    near = _neighbours(used)
    for sets in _colour_sets(flat_bins, used, rows, cols):  # (W, N, M, S): cells stacked along N
        size = sets.shape[-1]

        def span(start: int, stop: int, s: np.ndarray = sets) -> np.ndarray:
            return np.bitwise_or.reduce(s[..., start:stop], axis=-1)

        sides = (  # (line, deeper) of the cells below, (strip, further in) of the ones above them
            (
                sets[:, 1:, :, edge],
                span(strip, size)[:, 1:],
                span(size - strip, size)[:, :-1],
                span(0, size - strip)[:, :-1],
            ),
            (
                sets[:, :-1, :, size - 1 - edge],
                span(0, size - strip)[:, :-1],
                span(0, strip)[:, 1:],
                span(strip, size)[:, 1:],
            ),
        )
        for line, deeper, strip_above, further in sides:
            candidates = line & ~deeper & strip_above & further
            hit = np.nonzero(candidates.any(axis=0))
            if not len(hit[0]):
                continue
            widened = (_members(deeper[:, hit[0], hit[1]], len(used)).astype(np.uint8) @ near) > 0
            if (_members(candidates[:, hit[0], hit[1]], len(used)) & ~widened).any():
                return True
    return False


@dataclass(frozen=True)
class Foreign:
    """Cells whose top strip shows a glyph of the cell above, and which of its pixels."""

    rows: np.ndarray
    cols: np.ndarray
    pixels: np.ndarray
    """``(M, strip, S)`` bool."""


def foreign_from_above(ids: np.ndarray, bands: np.ndarray, near: np.ndarray) -> Foreign | None:
    """The pixels of each cell's top strip that belong to a glyph of the cell above (None: none).

    ``ids``: ``(R, C, S, S)`` every cell's pixels as colour indices, rows top to bottom; ``bands``:
    which colours each band down each cell shows (:func:`_presence`); ``near``: which colours are alike
    (:func:`_neighbours`)."""
    rows, size = ids.shape[0], ids.shape[2]
    if rows < 2:
        return None
    strip = math.ceil(STRIP * size)
    past_edge = bands[1:, :, 1]  # in the strip, past the edge band (no blend along an edge)
    deeper = bands[1:, :, 2:].any(axis=2)
    anchored = bands[:-1, :, 3:].any(axis=2) & bands[:-1, :, :3].any(axis=2)
    rr, cc = np.nonzero((past_edge & ~deeper & anchored).any(axis=2))
    if not len(rr):
        return None
    widened = (deeper[rr, cc].astype(np.uint8) @ near) > 0
    allowed = ~widened & anchored[rr, cc]  # (M, K): colours foreign to each candidate cell
    crossing = allowed[np.arange(len(rr))[:, None], ids[rr + 1, cc, math.ceil(EDGE * size)]].any(axis=1)
    rr, cc, allowed = rr[crossing], cc[crossing], allowed[crossing]  # a kept piece crosses that line
    if not len(rr):
        return None
    found = allowed[np.arange(len(rr))[:, None, None], ids[rr + 1, cc, :strip]]
    for m, (r, c) in enumerate(zip(rr, cc, strict=True)):
        found[m] = _run_on(found[m], ids[r + 1, c, :strip], ids[r, c])
    keep = found.any(axis=(1, 2))
    return Foreign(rr[keep] + 1, cc[keep], found[keep]) if keep.any() else None


def _run_on(found: np.ndarray, strip: np.ndarray, above: np.ndarray) -> np.ndarray:
    """Of the foreign-coloured pixels ``found`` in a cell's top ``strip`` (colour indices), the parts
    that run on from the glyph above: each piece starts at the edge (within ``EDGE`` of the side), runs
    on past that (a sliver along the edge is a blend of the two cells) and lies under the same colour
    reaching the bottom edge of the cell ``above``."""
    edge = math.ceil(EDGE * len(above))
    count, labels = cv2.connectedComponents(found.astype(np.uint8), connectivity=8)
    keep = np.zeros_like(found)
    bottom = above[-edge:]
    colours = max(int(strip.max()), int(bottom.max())) + 1
    for label in range(1, count):
        piece = labels == label
        ys, xs = np.nonzero(piece)
        if ys.min() >= edge or ys.max() < edge:
            continue  # drawn inside the cell, away from the edge: its own; or a sliver along the edge
        shown = np.zeros(colours, bool)
        shown[strip[piece]] = True  # the piece's colours
        reach = shown[bottom].any(axis=0)  # columns where the glyph above reaches the edge
        near = reach.copy()  # and the columns beside them (wrapping round, as a roll does)
        near[1:] |= reach[:-1]
        near[:-1] |= reach[1:]
        near[0] |= reach[-1]
        near[-1] |= reach[0]
        if near[xs].any():
            keep |= piece
    return keep


TWIN_BATCH = 1 << 22
"""Pixels of cells' rows :func:`_twins` compares at once (about 16 MB of colour ids): a board of large
cells with many painted ones is weighed in parts."""


def _twins(ids: np.ndarray, foreign: Foreign, taken: np.ndarray) -> list[int | None]:
    """For each cell of ``foreign``: a column of a cell along the same edge (nearest first, the one
    before it first at a tie) drawn exactly like it but for its foreign pixels, and with no foreign
    pixel of its own (``taken``: cells with some), lending only colours the cell shows deeper: its
    strip shows what this cell's would without the foreign ink; None when no column does. Many cells
    and every column are weighed at once (the painting never changes ``ids``)."""
    step = max(1, TWIN_BATCH // int(np.prod(ids.shape[1:])))
    found: list[int | None] = []
    for start in range(0, len(foreign.rows), step):
        part = slice(start, start + step)
        found += _twins_of(ids, foreign.rows[part], foreign.cols[part], foreign.pixels[part], taken)
    return found


def _twins_of(
    ids: np.ndarray, rr: np.ndarray, cc: np.ndarray, masks: np.ndarray, taken: np.ndarray
) -> list[int | None]:
    """:func:`_twins` of the cells ``(rr, cc)`` with foreign pixels ``masks`` ``(M, strip, S)``."""
    rows, strip = ids[rr], masks.shape[1]  # (M, C, S, S) each cell's row
    own = ids[rr, cc][:, None]  # (M, 1, S, S)
    same = rows == own
    deeper = np.count_nonzero(same[:, :, strip:], axis=(2, 3)) / own[0, 0, strip:].size  # as .mean
    kept = ~masks[:, None]  # the strip's pixels that are not foreign
    edge = np.count_nonzero(same[:, :, :strip] & kept, axis=(2, 3))
    outside = np.count_nonzero(kept, axis=(2, 3))  # (M, 1): the strip's own pixels
    shows = np.zeros((len(masks), int(ids.max()) + 1), bool)  # colours each cell shows deeper
    shows[np.arange(len(masks))[:, None], own[:, 0, strip:].reshape(len(masks), -1)] = True
    lent = shows[np.arange(len(masks))[:, None, None, None], rows[:, :, :strip]]
    ok = (deeper >= TWIN_SAME) & (lent | kept).all(axis=(2, 3)) & ~taken[rr]
    ok &= (outside == 0) | (edge / np.maximum(outside, 1) >= TWIN_SAME)
    ok[np.arange(len(masks)), cc] = False
    column = np.arange(ids.shape[1])[None]
    order = np.where(ok, 2 * np.abs(column - cc[:, None]) - (column < cc[:, None]), ids.shape[1] * 2)
    return [int(j) if found else None for j, found in zip(order.argmin(axis=1), ok.any(axis=1), strict=True)]


def _ground_colours(by_band: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """``(R, C, K + 1)`` which colours may be lent to each cell's painted pixels when no twin does: the
    colours of the board's plain looks (cells showing the same colours in every band down and across
    them: a blank revealed tile, a dithered covered one; two or more alike) that the cell shows, or all
    its own colours when it shows no such look whole. A cell's own glyph, whose top the neighbour's
    ink hid, then does not lend its ink to the hidden part. ``by_band``: ``(R, C, 2 * BANDS, K + 1)``
    which colours each band down and across each cell shows (:func:`_presence`, in any band order; the
    last colour is the grid's lines, no colour, never shown: never lent)."""
    whole = by_band.any(axis=2)
    plain = (by_band == whole[:, :, None]).all(axis=(2, 3)) & ~taken & whole.any(axis=2)
    looks, counts = np.unique(whole[plain], axis=0, return_counts=True)
    grounds = looks[counts >= 2]
    shown = (grounds[None, None] & ~whole[:, :, None]).sum(axis=3) == 0  # (R, C, G): shown whole
    allowed = (shown[..., None] & grounds[None, None]).any(axis=2)
    return np.where(allowed.any(axis=2, keepdims=True), allowed, whole)


def _fill(tiles: np.ndarray, ids: np.ndarray, foreign: Foreign, by_band: np.ndarray) -> None:
    """Paint over, in place, each foreign pixel of a top strip: with the same pixel of a twin cell
    (:func:`_twins`) when there is one, else with the nearest pixel an even number of rows further in
    that is neither foreign nor of a foreign colour, in a colour of the board's plainest looks the cell
    shows (:func:`_ground_colours`, from ``by_band``, turned like ``ids``; an even step keeps a dither
    in phase)."""
    size, strip = tiles.shape[2], foreign.pixels.shape[1]
    taken = np.zeros(ids.shape[:2], bool)
    taken[foreign.rows, foreign.cols] = True
    ground: np.ndarray | None = None
    twins = _twins(ids, foreign, taken)
    for m, (r, c) in enumerate(zip(foreign.rows, foreign.cols, strict=True)):
        mask = foreign.pixels[m]
        twin = twins[m]
        if twin is not None:
            tiles[r, c, :strip][mask] = tiles[r, twin, :strip][mask]
            continue
        if ground is None:
            ground = _ground_colours(by_band, taken)
        y, x = np.nonzero(mask)
        bad = ids[r, c, y, x]
        done = np.zeros(len(y), bool)
        for dy in range(strip + strip % 2, size, 2):
            sy = y + dy
            ok = ~done & (sy < size)
            sy = np.minimum(sy, size - 1)
            lent = ids[r, c, sy, x]
            ok &= (lent != bad) & ground[r, c][lent]
            tiles[r, c, y[ok], x[ok]] = tiles[r, c, sy[ok], x[ok]]
            done |= ok
            if done.all():
                break  # every pixel painted: further rows would paint none
        if not done.all():  # no such pixel in its column: the nearest past the strip, in the same phase
            py, px = np.nonzero(ground[r, c][ids[r, c, strip:]])
            py = py + strip
            for i in np.flatnonzero(~done):
                near = ((py + px) % 2 == (y[i] + x[i]) % 2) & (ids[r, c, py, px] != bad[i])
                if near.any():
                    j = np.flatnonzero(near)[np.argmin(np.abs(py[near] - y[i]) + np.abs(px[near] - x[i]))]
                    tiles[r, c, y[i], x[i]] = tiles[r, c, py[j], px[j]]


_TURNS = (
    (lambda a: a, lambda down, across: down),
    (lambda a: a[::-1, :, ::-1], lambda down, across: down[::-1, :, ::-1]),
    (lambda a: a.swapaxes(0, 1).swapaxes(2, 3), lambda down, across: across.swapaxes(0, 1)),
    (
        lambda a: a.swapaxes(0, 1).swapaxes(2, 3)[::-1, :, ::-1],
        lambda down, across: across.swapaxes(0, 1)[::-1, :, ::-1],
    ),
)
"""For each edge (top, bottom, left, right): a view of the cells' pixels that turns it to the top (the
grid and the pixels turned alike; writing through it writes the cell itself), and the colour bands
(:func:`_presence`) turned alike."""


def _contiguous(ry: np.ndarray, rx: np.ndarray) -> bool:
    """Whether the cells' pixel rows and columns follow on one by one (a whole pitch, on screen)."""
    return bool((np.diff(ry) == 1).all() and (np.diff(rx) == 1).all())


def _cells_side_by_side(image: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """``(R*S, C*S, 3)`` every cell's pixels side by side: a view of the board when its pixels follow on
    one by one, else a copy taken pixel by pixel (a fractional pitch)."""
    ry, rx = ys.ravel(), xs.ravel()
    if _contiguous(ry, rx):
        return image[ry[0] : ry[-1] + 1, rx[0] : rx[-1] + 1]
    return np.take(image[ry], rx, axis=1)


SIDE_NAMES = ("top", "bottom", "left", "right")
"""The edges of :data:`_TURNS`, in order."""


def _unturn(side: int, rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, ...]:
    """Cells found in the view that turns edge ``side`` to the top, as the board's own (row, col)."""
    n_rows, n_cols = shape
    if side == 0:
        return rows, cols
    if side == 1:
        return n_rows - 1 - rows, cols
    if side == 2:
        return cols, rows
    return cols, n_cols - 1 - rows


def repair(image: np.ndarray, geometry: Geometry) -> np.ndarray:
    """``image`` with every cell's foreign ink (a neighbour's glyph run on over the shared edge) painted
    over with the cell's own ground; the same array when there is none (nothing is copied then)."""
    return repair_sides(image, geometry)[0]


def repair_sides(image: np.ndarray, geometry: Geometry) -> tuple[np.ndarray, np.ndarray | None]:
    """:func:`repair`, and which edges of which cells were painted over (``(rows, cols, 4)`` bool, edges
    in :data:`SIDE_NAMES` order; None when nothing was): a glyph of the cell's own may have gone on
    under the neighbour's ink there (the cell drawn first), so that side of it is unseen, as if cut off."""
    out, painted, _ = repair_runs(image, geometry)
    return out, painted


def repair_runs(
    image: np.ndarray, geometry: Geometry
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """:func:`repair_sides`, and the pixels painted over: ``(rows, cols, 4, size, size)`` bool, each
    cell's own pixels (``size`` the pitch rounded) along each edge (None when nothing was). They are the
    neighbour's glyph running on: :func:`runs_on` gives them back to the cell they came from."""
    if min(geometry.pitch_x, geometry.pitch_y) < MIN_PITCH:
        return image, None, None
    ys, xs, size = _cell_coords(geometry, image.shape)
    rows, cols = geometry.rows, geometry.cols
    strip, edge = math.ceil(STRIP * size), math.ceil(EDGE * size)
    board = _cells_side_by_side(image, ys, xs)
    flat_bins = _grid_lines(_bins(board), rows, cols)
    used, shown = _used(flat_bins)
    if not _may_run_on(flat_bins, used, shown, rows, cols, edge, strip):
        return image, None, None
    board = board.copy() if board.base is not None else board
    index = np.full(NO_COLOUR + 1, len(used), np.int32)  # the grid's lines: one more index, no colour
    index[used] = np.arange(len(used))
    flat_ids = index[flat_bins]
    near = np.zeros((len(used) + 1, len(used) + 1), np.uint8)
    near[:-1, :-1] = _neighbours(used)
    tiles = board.reshape(rows, size, cols, size, 3).transpose(0, 2, 1, 3, 4)
    ids = flat_ids.reshape(rows, size, cols, size).transpose(0, 2, 1, 3)
    down, across = _presence(flat_ids, rows, cols, len(used) + 1, edge, strip)
    down[..., -1] = across[..., -1] = False  # the grid's lines are no colour shown
    by_band = np.concatenate([down, across], axis=2)  # (a repair never changes the colour ids)
    painted = np.zeros((rows, cols, len(_TURNS)), bool)
    pixels = np.zeros((rows, cols, len(_TURNS), size, size), bool)
    for side, (turn, turn_bands) in enumerate(_TURNS):
        foreign = foreign_from_above(turn(ids), turn_bands(down, across), near)
        if foreign is not None:  # (the block presence stays as first seen: a repair only removes ink)
            _fill(turn(tiles), turn(ids), foreign, turn_bands(by_band, by_band))
            painted[(*_unturn(side, foreign.rows, foreign.cols, (rows, cols)), side)] = True
            turn(pixels[:, :, side])[foreign.rows, foreign.cols, : foreign.pixels.shape[1]] = foreign.pixels
    if not painted.any():
        return image, None, None
    out = image.copy()
    ry, rx = ys.ravel(), xs.ravel()
    if _contiguous(ry, rx):
        out[ry[0] : ry[-1] + 1, rx[0] : rx[-1] + 1] = board
    else:
        out[np.ix_(ry, rx)] = board  # a pixel repeated by a fractional pitch: its last copy
    return out, painted, pixels


OPPOSITE = (1, 0, 3, 2)
"""For each edge of :data:`SIDE_NAMES`, the neighbour's edge it faces."""
STEP = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""For each edge of :data:`SIDE_NAMES`, the (row, col) step to the neighbour across it."""


def runs_on(pixels: np.ndarray, members: np.ndarray, shown: np.ndarray | None = None) -> np.ndarray | None:
    """``(4, size, size)`` bool: the ink cells (``members``, flat indices) draw past each of their edges,
    in the neighbour's own pixels (the neighbour's painted pixels along the edge facing the cell, any
    member's: a glyph runs on alike from every cell showing it, but a neighbour redrawn later hides it);
    None when none does. ``pixels``: :func:`repair_runs`'s painted pixels; ``shown``: which of them show
    any (``pixels.any(axis=(3, 4))``, :func:`painted_sides`), when the caller keeps it for many groups:
    only those neighbours' pixels are then gathered (the others add nothing)."""
    rows, cols = pixels.shape[:2]
    r, c = np.divmod(np.asarray(members), cols)
    out = np.zeros((4, *pixels.shape[3:]), bool)
    for side, (dr, dc) in enumerate(STEP):
        nr, nc = r + dr, c + dc
        inside = (nr >= 0) & (nr < rows) & (nc >= 0) & (nc < cols)
        nr, nc = nr[inside], nc[inside]
        if shown is not None:
            some = shown[nr, nc, OPPOSITE[side]]
            nr, nc = nr[some], nc[some]
        if len(nr):
            out[side] = pixels[nr, nc, OPPOSITE[side]].any(axis=0)
    return out if out.any() else None


def painted_sides(pixels: np.ndarray) -> np.ndarray:
    """``(rows, cols, 4)`` bool: which cells' edges show painted pixels (:func:`repair_runs`'s)."""
    return pixels.reshape(*pixels.shape[:3], -1).any(axis=3)


__all__ = [
    "SIDE_NAMES",
    "Foreign",
    "foreign_from_above",
    "painted_sides",
    "repair",
    "repair_runs",
    "repair_sides",
    "runs_on",
]
