"""A board's extent by its cells' grounds: strips of opened cells that one flat colour fills, with no
line or face of their own, taken into the board up to its real edge (a stage of :mod:`bot.vision.grid`
after :func:`bot.vision.extent.filled_out`).

Why: a board's opened area drawn in one flat colour (no grid lines, no gaps, no checker) shows no
structure of its own beyond its digits: a lattice found from the covered tiles ends where they do,
and the board is then found a few rows or columns short (refused by
:func:`bot.vision.extent.open_sides`, or read as a smaller board). Each cell of such an area is,
around its glyph, the ground colour that opened cells inside the board show; a frame, a page or a
window around the board is no such cell strip by strip, and where the board ends its colour changes.

The rules, on the lattice the board was found on (never another):

- a cell's *ground* is the median colour of a ring inside it (clear of the cell's own lines, gaps and
  shadows at its edge, and of most of a digit at its middle), *grounded* when most of the ring is
  that colour;
- the board's *grounds* are the colours its own grounded cells show (:data:`MIN_GROUND_CELLS` or more
  cells of a colour, within :data:`MATCH`);
- a strip beyond the board is taken when :data:`LIKE_SHARE` of its cells are like the board's own:
  grounded on one of its grounds, or looking like one of its cells (covered tiles, flags:
  :data:`bot.vision.extent.EDGE_MATCH`), and at least one is grounded;
- a side grown so must end where the colour changes: in the strip beyond its new edge, the cells
  next to its last strip's grounded ones differ from their ground by :data:`EDGE_CHANGE` or more
  (most of them). Otherwise (the image's edge there, or a background of the ground's colour) the
  side is left as it was, and whether the board ends there stays for
  :func:`~bot.vision.extent.open_sides` to judge: a board found a strip long reads cells that are
  not there.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from bot.geometry import Geometry
from bot.vision.extent import EDGE_MATCH, _middles
from bot.vision.propose import grey

MATCH = 10.0
"""Largest difference (any channel, 0-255) between a cell's ground and one of the board's grounds for
the cell to be grounded on it."""
EDGE_CHANGE = 24.0
"""Least difference (any channel) between a ground and the cell beyond the board's edge next to it."""
EDGE_SHARE = 0.8
"""Share of an edge's grounded cells whose neighbour beyond must differ by :data:`EDGE_CHANGE`, and
of the cells along it beyond which the band is of one colour (a frame, a margin, a page: where a
board ends, whatever lies further on)."""
RING_SHARE = 0.75
"""Share of a cell's ring within :data:`MATCH` of the ring's median for the cell to be grounded."""
LIKE_SHARE = 0.85
"""Share of a strip's cells that must be like the board's own for the strip to be taken."""
MIN_GROUND_CELLS = 2
"""Cells of one colour, inside the board, that make that colour one of its grounds."""
GLYPH_SHARE = 0.04
"""Share of a grounded cell's middle off its ground that is a glyph on it (a digit, a mark)."""
EDGE_BAND = 3
"""Pixels beyond a board's edge within which its colour changes where its last strip is ground alone;
and the least of a strip beyond the edge the image must hold to judge it by."""
PHASE_SLACK = 0.2
"""How far (a share of the pitch) the board's edge may lie from its lattice's boundary: a lattice found
on dithered or shadowed tiles may sit a few pixels off its phase (a reading allows a quarter)."""
MAX_LOOKS = 1024
"""Most of a board's cells whose looks a strip's cells are matched against: a lattice of more cells (a
pitch a fraction of the board's, 20,000 cells) is matched against every few rows and columns of it
(fewer looks: fewer strips taken, never more). Every board of a real client has fewer."""
MAX_STRIPS = 64
"""Most strips added on one side (a board is never larger)."""


def _ring_mask(h: int, w: int) -> np.ndarray:
    """Which pixels of an ``h`` x ``w`` cell are its ring: the band between 15% and 30% of the cell in
    from each side, one pixel wide at least (every pixel of a cell too small to hold one)."""
    a, b = max(1, round(0.15 * h)), max(2, round(0.3 * h))
    c, d = max(1, round(0.15 * w)), max(2, round(0.3 * w))
    if h - 2 * a < 2 or w - 2 * c < 2:
        return np.ones((h, w), bool)
    mask = np.zeros((h, w), bool)
    mask[a : h - a, c : w - c] = True
    mask[b : h - b, d : w - d] = False
    return mask


def cell_grounds(colour: np.ndarray, geometry: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's ground colour (rows x cols x 3, float) and whether it is grounded (rows x cols):
    most of its ring (:func:`_ring_mask`) within :data:`MATCH` of the ring's median. Cells of one size
    (a fractional pitch gives two or three) are taken together."""
    g = geometry
    h, w = colour.shape[:2]
    ys = np.round(g.top + np.arange(g.rows + 1) * g.pitch_y).astype(np.intp)
    xs = np.round(g.left + np.arange(g.cols + 1) * g.pitch_x).astype(np.intp)
    ground = np.zeros((g.rows, g.cols, colour.shape[2]), np.float32)
    grounded = np.zeros((g.rows, g.cols), bool)
    rows = np.nonzero((ys[:-1] >= 0) & (ys[1:] <= h))[0]
    cols = np.nonzero((xs[:-1] >= 0) & (xs[1:] <= w))[0]
    heights, widths = ys[1:] - ys[:-1], xs[1:] - xs[:-1]
    for ch in np.unique(heights[rows]):
        r = rows[heights[rows] == ch]
        for cw in np.unique(widths[cols]):
            c = cols[widths[cols] == cw]
            mask = _ring_mask(int(ch), int(cw))
            my, mx = np.nonzero(mask)
            yy = ys[r][:, None, None] + my[None, None, :]  # (rows, 1, ring)
            xx = xs[c][None, :, None] + mx[None, None, :]  # (1, cols, ring)
            ring = colour[yy, xx].astype(np.float32)  # (rows, cols, ring, channels)
            median = np.median(ring, axis=2)
            ok = (np.abs(ring - median[:, :, None, :]).max(axis=3) <= MATCH).mean(axis=2) >= RING_SHARE
            ground[np.ix_(r, c)] = median
            grounded[np.ix_(r, c)] = ok
    return ground, grounded


def board_grounds(ground: np.ndarray, grounded: np.ndarray) -> np.ndarray:
    """The colours (K x 3) that :data:`MIN_GROUND_CELLS` or more of the board's grounded cells show."""
    seen = ground[grounded]
    if len(seen) == 0:
        return np.zeros((0, ground.shape[-1]), np.float32)
    near = (np.abs(seen[:, None, :] - seen[None, :, :]).max(axis=2) <= MATCH).sum(axis=1)
    return seen[near >= MIN_GROUND_CELLS]


def _on_grounds(ground: np.ndarray, grounds: np.ndarray) -> np.ndarray:
    """Which of ``ground`` (N x 3) lie within :data:`MATCH` of one of ``grounds``."""
    if len(grounds) == 0 or len(ground) == 0:
        return np.zeros(len(ground), bool)
    return (np.abs(ground[:, None, :] - grounds[None, :, :]).max(axis=2) <= MATCH).any(axis=1)


def _beyond(g: Geometry, side: str, n: int = 1) -> Geometry:
    """The strip of cells ``n`` strips beyond the board's ``side``."""
    if side == "top":
        return replace(g, top=g.top - n * g.pitch_y, rows=1)
    if side == "bottom":
        return replace(g, top=g.top + (g.rows - 1 + n) * g.pitch_y, rows=1)
    if side == "left":
        return replace(g, left=g.left - n * g.pitch_x, cols=1)
    return replace(g, left=g.left + (g.cols - 1 + n) * g.pitch_x, cols=1)


def _grown(g: Geometry, side: str) -> Geometry:
    """The board one strip larger on ``side``."""
    if side == "top":
        return replace(g, top=g.top - g.pitch_y, rows=g.rows + 1)
    if side == "bottom":
        return replace(g, rows=g.rows + 1)
    if side == "left":
        return replace(g, left=g.left - g.pitch_x, cols=g.cols + 1)
    return replace(g, cols=g.cols + 1)


def _shrunk(g: Geometry, side: str) -> Geometry:
    """The board one strip smaller on ``side``."""
    if side == "top":
        return replace(g, top=g.top + g.pitch_y, rows=g.rows - 1)
    if side == "bottom":
        return replace(g, rows=g.rows - 1)
    if side == "left":
        return replace(g, left=g.left + g.pitch_x, cols=g.cols - 1)
    return replace(g, cols=g.cols - 1)


def _inside(g: Geometry, width: int, height: int) -> bool:
    r = g.region()
    return r.left >= 0 and r.top >= 0 and r.right <= width and r.bottom <= height


class _Board:
    """The board's own looks, for judging strips beyond it."""

    def __init__(self, colour: np.ndarray, gray: np.ndarray, geometry: Geometry):
        self.colour, self.gray = colour, gray
        ground, grounded = cell_grounds(colour, geometry)
        self.grounds = board_grounds(ground, grounded)
        step = math.ceil(math.sqrt(geometry.rows * geometry.cols / MAX_LOOKS))  # 1 on any real board
        self.middles = _middles(gray, geometry, step)
        self.middles = self.middles.reshape(len(self.middles), -1)

    def strip(self, strip: Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per cell of a strip: its ground, whether it is grounded on the board's grounds, and whether
        it is like one of the board's cells: grounded on them, or, not flat around its middle (a covered
        tile's texture or bevel), looking like one (:data:`bot.vision.extent.EDGE_MATCH`)."""
        ground, grounded = cell_grounds(self.colour, strip)
        ground, grounded = ground.reshape(-1, ground.shape[-1]), grounded.ravel()
        on = grounded & _on_grounds(ground, self.grounds)
        middles = _middles(self.gray, strip).reshape(len(ground), -1)
        nearest = np.array([np.abs(self.middles - m[None, :]).mean(axis=1).min() for m in middles])
        return ground, on, on | (~grounded & (nearest <= EDGE_MATCH))  # a flat cell off the grounds is none

    def shows(self, strip: Geometry) -> bool:
        """Whether a strip shows something of a board's own besides its ground: a cell on the board's
        grounds with a glyph on it (:data:`GLYPH_SHARE` of its middle off the ground), or a cell like
        the board's that is not on its grounds (a covered tile). A frame or a page of the ground's
        colour shows neither."""
        ground, on, like = self.strip(strip)
        if (like & ~on).any():
            return True
        for i in np.nonzero(on)[0]:
            middle = _cell_middle(self.colour, strip, int(i), 0.25).reshape(-1, ground.shape[-1])
            off = np.abs(middle.astype(np.float32) - ground[i]).max(axis=1) > 2 * MATCH
            if off.mean() >= GLYPH_SHARE:
                return True
        return False

    def ends(self, g: Geometry, side: str) -> bool:
        """Whether the board ends beyond its ``side``: its colour changes there (at the lattice's
        boundary, or up to :data:`PHASE_SLACK` of a cell from it), within :data:`EDGE_BAND` pixels of
        the edge (a pixel on, past any blur), to one colour all along it
        (a frame, a margin, a page), by :data:`EDGE_CHANGE` from each cell of its last strip (from the
        cell's ground, or from its own band along the edge when it has none), at :data:`EDGE_SHARE` of
        them. Never where the image's edge lies less than :data:`EDGE_BAND` pixels and one on: what
        lies beyond is unseen (a frame and a margin of the ground's colour, thinner than a cell, were
        taken for a strip of cells there)."""
        h, w = self.gray.shape
        last = _beyond(g, side, 0)
        ground, on, _ = self.strip(last)
        outer = _clipped(_beyond(g, side), side, w, h)
        if outer is None:  # the image's edge: a frame or a margin thinner than a cell may lie beyond, unseen
            return False
        reach = max(1, round(PHASE_SLACK * (g.pitch_y if side in ("top", "bottom") else g.pitch_x)))
        for shift in sorted(range(-reach, reach + 1), key=abs):  # the lattice may sit a little off its phase
            beyond = _cell_means(self.colour, _band(_moved(outer, side, shift), side, True))
            inside = _cell_means(self.colour, _band(_moved(last, side, shift), side, False))
            reference = np.where(on[:, None], ground, inside)
            change = np.abs(beyond - reference).max(axis=1)
            plain = np.abs(beyond - np.median(beyond, axis=0)).max(axis=1) <= MATCH
            if float((change >= EDGE_CHANGE).mean()) >= EDGE_SHARE and float(plain.mean()) >= EDGE_SHARE:
                return True
        return False


def _moved(strip: Geometry, side: str, shift: int) -> Geometry:
    """A strip moved ``shift`` pixels across the board's ``side`` (outwards when positive)."""
    if side in ("top", "bottom"):
        return replace(strip, top=strip.top + (shift if side == "bottom" else -shift))
    return replace(strip, left=strip.left + (shift if side == "right" else -shift))


def _band(strip: Geometry, side: str, outer: bool) -> Geometry:
    """The band :data:`EDGE_BAND` pixels thick, a pixel from the board's edge on ``side``: in a strip
    beyond the edge (``outer``), or in the board's last strip."""
    near = (
        side in ("top", "left") if outer else side in ("bottom", "right")
    )  # the band at the strip's far end
    if side in ("top", "bottom"):
        start = strip.top + strip.pitch_y - 1 - EDGE_BAND if near else strip.top + 1
        return replace(strip, top=start, pitch_y=float(EDGE_BAND))
    start = strip.left + strip.pitch_x - 1 - EDGE_BAND if near else strip.left + 1
    return replace(strip, left=start, pitch_x=float(EDGE_BAND))


def _clipped(strip: Geometry, side: str, width: int, height: int) -> Geometry | None:
    """The part of a strip beyond the board's ``side`` that the image holds (from the board's edge on),
    as a strip of cells that thick; None when less than :data:`EDGE_BAND` pixels and one more do."""
    if side in ("top", "left"):
        start, pitch = (strip.top, strip.pitch_y) if side == "top" else (strip.left, strip.pitch_x)
        keep = start + pitch - max(start, 0.0)
        new = {"top": start + pitch - keep, "pitch_y": keep} if side == "top" else {}
        new = new or {"left": start + pitch - keep, "pitch_x": keep}
    else:
        start, pitch, size = (
            (strip.top, strip.pitch_y, height) if side == "bottom" else (strip.left, strip.pitch_x, width)
        )
        keep = min(start + pitch, float(size)) - start
        new = {"pitch_y": keep} if side == "bottom" else {"pitch_x": keep}
    return replace(strip, **new) if keep >= EDGE_BAND + 1 else None


def _cell_middle(colour: np.ndarray, strip: Geometry, i: int, inset: float) -> np.ndarray:
    """Cell ``i`` of a strip (row-major), ``inset`` of its pitch in from each side (a pixel at least)."""
    g = strip
    r, c = divmod(i, g.cols)
    x0, x1 = round(g.left + (c + inset) * g.pitch_x), round(g.left + (c + 1 - inset) * g.pitch_x)
    y0, y1 = round(g.top + (r + inset) * g.pitch_y), round(g.top + (r + 1 - inset) * g.pitch_y)
    return colour[max(y0, 0) : max(y1, y0 + 1), max(x0, 0) : max(x1, x0 + 1)]


def _cell_means(colour: np.ndarray, strip: Geometry) -> np.ndarray:
    """Each cell's mean colour over its part within the strip, less an eighth of the pitch at each end
    along the strip, N x 3."""
    g = strip
    out = []
    along_x = g.rows == 1
    for i in range(g.rows * g.cols):
        r, c = divmod(i, g.cols)
        if along_x:
            x0, x1 = round(g.left + (c + 0.125) * g.pitch_x), round(g.left + (c + 0.875) * g.pitch_x)
            y0, y1 = round(g.top), round(g.top + g.pitch_y)
        else:
            x0, x1 = round(g.left), round(g.left + g.pitch_x)
            y0, y1 = round(g.top + (r + 0.125) * g.pitch_y), round(g.top + (r + 0.875) * g.pitch_y)
        patch = colour[max(y0, 0) : max(y1, y0 + 1), max(x0, 0) : max(x1, x0 + 1)]
        patch = patch.reshape(-1, colour.shape[2])
        # a band moved off the image holds nothing: no colour, so no change there (NaN compares false)
        out.append(patch.mean(axis=0) if len(patch) else np.full(colour.shape[2], np.nan))
    return np.array(out, np.float32)


def grounded_out(image: np.ndarray, geometry: Geometry) -> Geometry:
    """The board grown by the strips beyond it whose cells are like its own, on its grounds (see the
    module's rules); each side grown only when the board's colour then changes beyond it."""
    h, w = image.shape[:2]
    colour = image if image.ndim == 3 else image[:, :, None]
    colour = cv2.blur(np.ascontiguousarray(colour[:, :, :3]), (3, 3))
    if colour.ndim == 2:
        colour = colour[:, :, None]
    board = _Board(colour, grey(image), geometry)
    if len(board.grounds) == 0:
        return geometry
    g = geometry
    for _ in range(2):  # a side grown widens the strips of the sides across it
        before = g
        for side in ("top", "bottom", "left", "right"):
            grown, added = g, 0  # strips counted, not geometries compared: a pitch added and taken
            while added < MAX_STRIPS:  # away leaves a start a rounding off its own
                strip = _beyond(grown, side)
                if not _inside(strip, w, h):
                    break
                _, on, like = board.strip(strip)
                if like.mean() < LIKE_SHARE:
                    break
                grown, added = _grown(grown, side), added + 1
            while added and not board.shows(_beyond(grown, side, 0)):
                grown, added = _shrunk(grown, side), added - 1  # ground alone may be a page of its colour
            if added and board.ends(grown, side):
                g = grown
        if (g.rows, g.cols) == (before.rows, before.cols):
            break
    return g
