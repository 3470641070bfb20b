"""Digit shapes with no skin: recognise a glyph 1-8 by its shape alone, whatever its colour or font.

A glyph is given as an ink mask (how strongly each pixel differs from the cell's own background).
It is cut to its bounding box, resized to a fixed box and blurred, and compared with reference
shapes from minebot's own data, which no library release changes: the digits OpenCV 5.0 drew for its
font names at several weights and an outline font, both kept as pictures (``bot/fonts``), and hand-drawn
pixel fonts (a 5x7 dot-matrix font, the bold classic Minesweeper digits and seven-segment digits, thin and
thick). The box's aspect ratio (a 1 is narrow) counts as well.
Colour is never used. A second, weight-matched comparison (``bold=True``) redraws every font with round
pens from thin to bold and counts a stroke weight unlike the glyph's against: a bold glyph is about
as far from every thin reference, so only references as bold as it still tell a 4's notch from a
5's bowl.

>>> shape = glyph_shape(reference_mask(3, "hershey_simplex", 3))
>>> int(digit_distances(shape).argmin()) + 1
3
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import cv2
import numpy as np

from bot.errors import MinebotError

SHAPE_SIZE = (20, 14)
"""Height and width of the box every glyph is resized to before shapes are compared."""

SHAPE_BLUR = 1.0
"""Gaussian sigma (pixels of the shape box) that forgives a stroke drawn a pixel thicker or thinner."""

ASPECT_WEIGHT = 0.35
"""How much a difference of log aspect ratio (width / height) counts against a difference of shape."""

WIDTH_SPREAD = 1.3
"""How much wider or narrower than a reference a glyph of the same shape may be drawn for free (fonts
come condensed to extended, and clients stretch them to their tiles); only the excess counts."""

WEIGHT_SPREAD = 1.3
"""How much bolder or lighter than a reference a glyph may be drawn for free in the weight-matched
comparison (only the excess counts)."""

WEIGHT_COST = 0.35
"""How much a difference of log stroke weight counts against a difference of shape there."""

BOLD_PENS = (1, 5, 9, 13)
"""Diameters (pixels, at the references' drawing size) of the round pens the thin references are redrawn
with for the weight-matched comparison."""

BOLDEST = 0.26
"""Boldest reference kept (stroke weight, :func:`stroke_weight`): about a quarter of the digit's height.
Bolder, the gaps between the three bars of a 2, 3, 5, 6 or 8 close and a digit turns into a blob like
a mine."""

THIN_INK = 0.75
"""A stricter ink level: holes are counted again on these thinner strokes, since blur may close a gap
(a 5's bowl) at ``MIN_INK`` or open a small loop at this level; a digit is told apart by holes only
when both counts rule it out."""

MIN_INK = 0.5
"""A pixel with at least this ink (0-1) belongs to the glyph's bounding box."""

CUT_SHARES = (0.7, 0.8, 0.9)
"""Shares of a digit's height (or width) a glyph cut off by its cell's edge may still show: a glyph
drawn bigger than its cell (xbomb's 24-point digits in 20 px cells) is clipped there, so it is also
compared with every reference cut the same way."""

CUT_COST = 0.03
"""Added to the distance of a reference cut off by the cell's edge: a glyph that a whole digit explains
is likelier than one explained by a clipped one (one margin of :mod:`bot.vision.digits`)."""

FONTS_DIR = Path(__file__).parent.parent / "fonts"
"""Where the pictures of reference digits are (``bot/fonts``): digits 1-8 white on black, one a column."""

SANS_FILE = FONTS_DIR / "opencv5_digits.png"
"""The digits OpenCV 5.0 (5.0.0.93) drew for its ``FONT_HERSHEY_*`` names with ``putText`` (2.0 scale,
anti-aliased), in its own sans-serif font, not Hershey's strokes: a row of ``SANS_CELL`` cells for each of
``SANS_LOOKS``. Kept as a picture: the reader was made and measured with these, and OpenCV 5.1 draws
other shapes under the same names (OpenCV 4 drew Hershey's strokes, :mod:`bot.hershey`)."""

SANS_CELL = (120, 100)
"""Height and width (pixels) of one digit's cell in ``SANS_FILE``."""

SANS_LOOKS = ("light", "regular", "small light", "small", "bold")
"""The looks in ``SANS_FILE``, top row first."""

OUTLINE_FILE = FONTS_DIR / "outline_digits.png"
"""The outline font's digits: Aileron (public domain, the scalable font Pillow ships) drawn 60 px tall by
Pillow 13, a row of ``OUTLINE_CELL`` cells for each of ``OUTLINE_WEIGHTS``. Kept as a picture so that no
Pillow or FreeType release redraws them."""

OUTLINE_WEIGHTS = (0, 2, 4)
"""The outline font's stroke weights: pixels its digits were thickened by (0 for its own weight)."""

OUTLINE_CELL = (120, 120)
"""Height and width (pixels) of one outline digit's cell in ``OUTLINE_FILE``."""

HERSHEY = {
    "hershey_simplex": ("light", "regular"),
    "hershey_plain": ("small light", "small"),
    "hershey_duplex": ("regular", "bold"),
    "hershey_complex": ("light", "bold"),
    "hershey_triplex": ("regular", "bold"),
}
"""The references named after the OpenCV fonts they were drawn as: the look (``SANS_LOOKS``) OpenCV 5.0
drew at thickness 0-1 and the one at 2 or more (it drew every thickness from 2 up alike)."""

PIXEL_FONTS: dict[str, dict[int, tuple[str, ...]]] = {
    "dots5x7": {
        1: ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
        2: (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
        3: ("#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."),
        4: ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
        5: ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
        6: ("..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."),
        7: ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
        8: (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    },
    "classic_bold": {
        1: ("..##..", ".###..", "####..", "..##..", "..##..", "..##..", "..##..", "######"),
        2: (".####.", "##..##", "....##", "...##.", "..##..", ".##...", "##....", "######"),
        3: ("#####.", "....##", "....##", ".####.", "....##", "....##", "....##", "#####."),
        4: ("...##.", "..###.", ".####.", "##.##.", "######", "...##.", "...##.", "...##."),
        5: ("######", "##....", "##....", "#####.", "....##", "....##", "##..##", ".####."),
        6: (".####.", "##....", "##....", "#####.", "##..##", "##..##", "##..##", ".####."),
        7: ("######", "....##", "....##", "...##.", "..##..", "..##..", ".##...", ".##..."),
        8: (".####.", "##..##", "##..##", ".####.", "##..##", "##..##", "##..##", ".####."),
    },
    "winmine": {
        1: ("...##...", "..###...", ".####...", "...##...", "...##...", "...##...", "...##...", ".######."),
        2: (".######.", "##....##", "......##", "....###.", "..###...", ".##.....", "##......", "########"),
        3: ("#######.", "......##", "......##", "..#####.", "......##", "......##", "......##", "#######."),
        4: ("...##.##", "..##..##", ".##...##", "##....##", "########", "......##", "......##", "......##"),
        5: ("########", "##......", "##......", "#######.", "......##", "......##", "......##", "#######."),
        6: (".######.", "##......", "##......", "#######.", "##....##", "##....##", "##....##", ".######."),
        7: ("########", "......##", ".....##.", "....##..", "...##...", "..##....", "..##....", "..##...."),
        8: (".######.", "##....##", "##....##", ".######.", "##....##", "##....##", "##....##", ".######."),
    },
    "square5x7": {
        1: ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", "#####"),
        2: ("#####", "....#", "....#", "#####", "#....", "#....", "#####"),
        3: ("#####", "....#", "....#", ".####", "....#", "....#", "#####"),
        4: ("#...#", "#...#", "#...#", "#####", "....#", "....#", "....#"),
        5: ("#####", "#....", "#....", "#####", "....#", "....#", "#####"),
        6: ("#####", "#....", "#....", "#####", "#...#", "#...#", "#####"),
        7: ("#####", "....#", "....#", "...#.", "..#..", "..#..", "..#.."),
        8: ("#####", "#...#", "#...#", "#####", "#...#", "#...#", "#####"),
    },
}
"""Hand-drawn bitmap digits: a dot-matrix font, two bold classic Minesweeper styles (an open, slanted 4
and a closed one), square LCD-like digits."""

SEGMENTS = {
    1: "bc",
    2: "abged",
    3: "abgcd",
    4: "fgbc",
    5: "afgcd",
    6: "afgedc",
    7: "abc",
    8: "abcdefg",
}
"""Seven-segment digits (a top, b upper right, c lower right, d bottom, e lower left, f upper left,
g middle)."""


def _draw_pixel_font(rows: tuple[str, ...], scale: int = 8) -> np.ndarray:
    bitmap = np.array([[ch == "#" for ch in row] for row in rows], np.uint8) * 255
    return cv2.resize(bitmap, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)


def _draw_segments(n: int, thick: int, one_right: bool = True) -> np.ndarray:
    """A seven-segment digit, 60 px tall; a 1 uses its right segments (``one_right``) or stands alone."""
    w, h = 34, 60
    canvas = np.zeros((h + 2 * thick, w + 2 * thick), np.uint8)
    o = thick
    ends = {
        "a": ((0, 0), (w, 0)),
        "b": ((w, 0), (w, h // 2)),
        "c": ((w, h // 2), (w, h)),
        "d": ((0, h), (w, h)),
        "e": ((0, h // 2), (0, h)),
        "f": ((0, 0), (0, h // 2)),
        "g": ((0, h // 2), (w, h // 2)),
    }
    for seg in SEGMENTS[n]:
        (x0, y0), (x1, y1) = ends[seg]
        cv2.rectangle(
            canvas,
            (x0 + o - thick // 2, y0 + o - thick // 2),
            (x1 + o + thick // 2, y1 + o + thick // 2),
            255,
            -1,
        )
    return canvas


@cache
def _digit_pictures(path: Path, rows: int, cell: tuple[int, int]) -> np.ndarray:
    """The reference digits at ``path``, ``rows`` rows of 8 ``cell`` cells, read once (read-only)."""
    pictures = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if pictures is None or pictures.shape != (rows * cell[0], 8 * cell[1]):
        raise MinebotError(f"{path}: the reference digits are missing or damaged (reinstall minebot)")
    pictures.flags.writeable = False
    return pictures


def _digit_picture(path: Path, rows: int, cell: tuple[int, int], row: int, n: int) -> np.ndarray:
    """Digit ``n`` (1-8) of row ``row`` of the pictures at ``path`` (a copy)."""
    if not 1 <= n <= 8:
        raise KeyError(f"no reference digit {n}: the references are digits 1-8")
    top, left = row * cell[0], (n - 1) * cell[1]
    return _digit_pictures(path, rows, cell)[top : top + cell[0], left : left + cell[1]].copy()


def _draw_hershey(n: int, font: str, thick: int) -> np.ndarray:
    """Digit ``n`` as OpenCV 5.0 drew it in ``font`` at thickness ``thick`` (``HERSHEY``)."""
    look = HERSHEY[font][0 if thick <= 1 else 1]
    return _digit_picture(SANS_FILE, len(SANS_LOOKS), SANS_CELL, SANS_LOOKS.index(look), n)


def _draw_outline(n: int, stroke: int) -> np.ndarray:
    """Digit ``n`` in the outline font, thickened by ``stroke`` pixels (one of ``OUTLINE_WEIGHTS``)."""
    if stroke not in OUTLINE_WEIGHTS:
        raise KeyError(f"no outline digit at weight {stroke}: the weights are {OUTLINE_WEIGHTS}")
    row = OUTLINE_WEIGHTS.index(stroke)
    return _digit_picture(OUTLINE_FILE, len(OUTLINE_WEIGHTS), OUTLINE_CELL, row, n)


def reference_mask(n: int, font: str, weight: int) -> np.ndarray:
    """Digit ``n`` (1-8) white on black in ``font`` (an OpenCV font name, a pixel font, ``seg`` or
    ``outline``) at ``weight``."""
    if font == "outline":
        return _draw_outline(n, weight)
    if font in HERSHEY:
        return _draw_hershey(n, font, weight)
    if font in PIXEL_FONTS:
        mask = _draw_pixel_font(PIXEL_FONTS[font][n])
        if weight > 1:
            mask = cv2.dilate(mask, np.ones((weight, weight), np.uint8))
        return mask
    if font == "seg":
        return _draw_segments(n, weight)
    raise KeyError(font)


def reference_fonts() -> list[tuple[str, int]]:
    """Every (font, weight) the references are drawn in."""
    fonts = [(name, weight) for name in HERSHEY for weight in (2, 4, 6, 8)]
    fonts += [(name, weight) for name in PIXEL_FONTS for weight in (1, 4)]
    fonts += [("seg", weight) for weight in (4, 8, 12)]
    fonts += [("outline", weight) for weight in OUTLINE_WEIGHTS]
    return fonts


@dataclass(frozen=True)
class GlyphShape:
    """A glyph reduced for comparison: its blurred fixed-size box and its bounding box's aspect ratio."""

    box: np.ndarray
    """``SHAPE_SIZE`` float32 ink (0-1) resized from the bounding box, blurred."""
    aspect: float
    """Bounding box width / height."""
    holes: int
    """Enclosed background regions (0 for 1 2 3 5 7, 1 for 4 6 in most fonts, 2 for 8)."""
    thin_holes: int = 0
    """The same on the ink's thinner core (``THIN_INK``)."""
    weight: float = 0.15
    """Stroke width / bounding box height (:func:`stroke_weight`)."""
    cut: tuple[str, ...] = ()
    """The sides (``top``, ``bottom``, ``left``, ``right``) where the ink runs into the mask's edge: the
    glyph may go on past them, cut off by its cell (none when it touches more than two sides: a glyph
    filling its cell, or ink that is no glyph)."""
    height: int = 0
    """Bounding box height in the mask's pixels (its own size, :func:`own_size_distances`)."""


def bounding_box(ink: np.ndarray) -> tuple[int, int, int, int] | None:
    """``(top, bottom, left, right)`` of the pixels of at least ``MIN_INK`` (bottom and right past the
    last), None when none: OpenCV's bounding rectangle of the mask, a few times faster than numpy's rows
    and columns with any (the own-size references find thousands)."""
    left, top, width, height = cv2.boundingRect((ink >= MIN_INK).view(np.uint8))
    if width == 0:
        return None
    return top, top + height, left, left + width


def count_holes(solid: np.ndarray) -> int:
    """Background regions of a binary mask not connected to its outside (4-connected background)."""
    background = (solid.astype(np.uint8) == 0).astype(np.uint8)
    padded = cv2.copyMakeBorder(background, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)  # the outside
    count, _ = cv2.connectedComponents(padded, connectivity=4)
    return int(count) - 2  # minus the label 0 (the ink) and the outside


def stroke_weight(solid: np.ndarray) -> float:
    """A binary glyph's mean stroke width relative to its height: twice its area over its outline's
    length (a stroke of width w and length l has area w*l and an outline of about 2*l), in any font."""
    contours, _ = cv2.findContours(solid.astype(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    outline = sum(cv2.arcLength(c, True) for c in contours)
    return 2.0 * float(solid.sum()) / max(outline, 1.0) / max(len(solid), 1)


def _shape_box(cut: np.ndarray) -> np.ndarray:
    """Ink cut to its bounding box, resized to ``SHAPE_SIZE`` and blurred: what shapes are compared on."""
    height, width = SHAPE_SIZE
    upscale = cut.shape[0] < height or cut.shape[1] < width
    resized = cv2.resize(cut, (width, height), interpolation=cv2.INTER_LINEAR if upscale else cv2.INTER_AREA)
    return cv2.GaussianBlur(resized, (0, 0), SHAPE_BLUR)


def glyph_shape(ink: np.ndarray, in_cell: bool = True, holes: bool = True) -> GlyphShape | None:
    """The comparable shape of an ink mask (0-1 or 0-255); ``None`` when there is no ink. ``in_cell``:
    the mask is a cell's (its frame lines are left out, the sides it runs into noted), not a reference
    drawn to its own bounding box; ``holes``: count its holes (a reference's are never compared: 0)."""
    ink = ink.astype(np.float32)
    if ink.max() > 1.0:
        ink = ink / 255.0
    if in_cell:
        ink = without_frame_lines(ink)
    box = bounding_box(ink)
    if box is None:
        return None
    top, bottom, left, right = box
    side = cut_sides(ink) if in_cell else ()
    cut = ink[top:bottom, left:right]
    return GlyphShape(
        _shape_box(cut),
        (right - left) / max(bottom - top, 1),
        count_holes(cut >= MIN_INK) if holes else 0,
        count_holes(cut >= THIN_INK) if holes else 0,
        stroke_weight(cut >= MIN_INK),
        side,
        bottom - top,
    )


FRAME_LINES = 3
"""Most lines along one side of an ink mask taken for its cell's frame (:func:`without_frame_lines`)."""
FRAME_LINE_SHARE = 0.9
"""Least share of a side's line that is ink for the line to be the cell's frame, not a glyph."""

SIDES = {
    "top": lambda a: a,
    "bottom": lambda a: a[::-1],
    "left": lambda a: a.T,
    "right": lambda a: a.T[::-1],
}
"""Views of a mask that turn each side to the top."""


def without_frame_lines(ink: np.ndarray) -> np.ndarray:
    """An ink mask less the lines along its sides that are ink nearly their whole length: a cell's own
    grid line or bevel taken in with its glyph (a digit's strokes never run the whole side of its cell)."""
    out = ink
    for turn in SIDES.values():
        for _ in range(FRAME_LINES):
            view = turn(out)
            if np.count_nonzero(view[0] >= MIN_INK) / len(view[0]) < FRAME_LINE_SHARE:  # as .mean()
                break
            if out is ink:
                out = ink.copy()
                view = turn(out)
            view[0] = 0.0
    return out


def cut_sides(ink: np.ndarray) -> tuple[str, ...]:
    """The sides of an ink mask that its glyph runs into: see :attr:`GlyphShape.cut`."""
    touched = tuple(name for name, turn in SIDES.items() if (turn(ink)[0] >= MIN_INK).any())
    return touched if len(touched) <= 2 else ()


def cut_mask(mask: np.ndarray, side: str, share: float) -> np.ndarray:
    """A digit mask with its bounding box cut on ``side`` to ``share`` of its extent (the part that a
    cell's edge on that side leaves showing)."""
    box = bounding_box(mask.astype(np.float32) / max(float(mask.max()), 1.0))
    assert box is not None
    top, bottom, left, right = box
    glyph = mask[top:bottom, left:right].copy()
    view = SIDES[side](glyph)  # the cut side at the top of the view (a view: writing cuts the glyph)
    view[: round((1.0 - share) * len(view))] = 0
    return glyph


@lru_cache(maxsize=1)
def bold_masks() -> list[tuple[int, np.ndarray]]:
    """(digit, mask) of every font drawn thin, then redrawn with round pens (``BOLD_PENS``) up to
    ``BOLDEST``: each font from thin strokes to bold ones, for the weight-matched comparison."""
    thin = {**dict.fromkeys(HERSHEY, 1), **dict.fromkeys(PIXEL_FONTS, 1), "seg": 4, "outline": 0}
    masks = []
    for font, weight in thin.items():
        for pen in BOLD_PENS:
            kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (pen, pen))
            for n in range(1, 9):
                mask = cv2.dilate(reference_mask(n, font, weight), kernel)
                shape = glyph_shape(mask, in_cell=False, holes=False)
                if shape is not None and shape.weight <= BOLDEST:
                    masks.append((n, mask))
    return masks


@lru_cache(maxsize=10)
def references(bold: bool = False, cut: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(digits (R,), boxes (R, H*W), log aspects (R,), log weights (R,))`` of every reference shape,
    digit by digit (1s first) (``bold``: the weight-matched set, :func:`bold_masks`; ``cut``: each cut
    on that side to every share of ``CUT_SHARES``), built once."""
    masks = (
        bold_masks()
        if bold
        else [(n, reference_mask(n, font, weight)) for font, weight in reference_fonts() for n in range(1, 9)]
    )
    if cut:
        masks = [(n, cut_mask(mask, cut, share)) for n, mask in masks for share in CUT_SHARES]
    digits, boxes, aspects, weights = [], [], [], []
    for n, mask in masks:
        shape = glyph_shape(mask, in_cell=False, holes=False)
        assert shape is not None
        digits.append(n)
        boxes.append(shape.box.ravel())
        aspects.append(np.log(shape.aspect))
        weights.append(np.log(shape.weight))
    order = np.argsort(digits, kind="stable")  # each digit's references together (:func:`_distances`)
    return (
        np.array(digits)[order],
        np.array(boxes, np.float32)[order],
        np.array(aspects, np.float32)[order],
        np.array(weights, np.float32)[order],
    )


OWN_BLURS = (0.5, 0.7, 1.0, 1.4)
"""Gaussian sigmas (pixels of the glyph's mask) a reference drawn at a glyph's own size is blurred by
before they are compared (:func:`own_size_distances`): from a sharp screen sampled as is to a small
cell sampled up about twice, after the reader's own blur and the client's anti-aliasing."""

OWN_GROWTH = 3.0
"""Most pixels per pixel of blur sigma a reference drawn at a glyph's own size grows by (to the height
of its ink at ``MIN_INK``, a side each): it is drawn from that much smaller, less a pixel, up to a pixel
taller than the glyph."""

OWN_CANVAS = 30
"""Side (pixels) of the mask a reference is drawn into at a glyph's own size: a cell's ink less its
margin (:func:`bot.vision.generic.ink_of`), whose 99th percentile scales its ink as it scales a cell's."""


@cache
def _reference_ink(n: int, font: str, weight: int) -> np.ndarray:
    """Reference ``n`` in ``font`` at ``weight``, 0-1, cut to its bounding box."""
    mask = reference_mask(n, font, weight).astype(np.float32) / 255.0
    box = bounding_box(mask)
    assert box is not None
    top, bottom, left, right = box
    return mask[top:bottom, left:right]


def drawn_small(mask: np.ndarray, height: int, sigma: float) -> tuple[np.ndarray, float, int] | None:
    """A reference (0-1, cut to its box) drawn ``height`` pixels tall in the middle of an ``OWN_CANVAS``
    mask, blurred by ``sigma`` and scaled to ink as a cell's glyph is (its 99th percentile the full
    contrast, ink from 0.15 to 0.55 of it): its shape box (as :func:`glyph_shape` makes it), aspect and
    ink height; None when no ink."""
    return _drawn(_canvas(mask, height), sigma)


def _canvas(mask: np.ndarray, height: int) -> np.ndarray:
    """A reference (0-1, cut to its box) drawn ``height`` pixels tall in the middle of an ``OWN_CANVAS``
    mask (:func:`drawn_small` before the blur)."""
    width = max(1, round(height * mask.shape[1] / mask.shape[0]))
    small = cv2.resize(mask, (width, height), interpolation=cv2.INTER_AREA)
    canvas = np.zeros((OWN_CANVAS, OWN_CANVAS), np.float32)
    top, left = max((OWN_CANVAS - height) // 2, 0), max((OWN_CANVAS - width) // 2, 0)
    canvas[top : top + height, left : left + width] = small[:OWN_CANVAS, :OWN_CANVAS]
    return canvas


def _drawn(canvas: np.ndarray, sigma: float) -> tuple[np.ndarray, float, int] | None:
    """:func:`drawn_small` of a reference already drawn into its canvas (:func:`_canvas`)."""
    blurred = cv2.GaussianBlur(canvas, (0, 0), sigma)
    k = int(0.99 * (blurred.size - 1))  # its 99th percentile, as a cell's contrast is taken
    contrast = float(np.sort(blurred, axis=None)[k])  # the same value as a partial sort: mostly zeros,
    if contrast <= 0.0:  # which numpy's partition handles several times slower than a sort
        return None
    ink = np.clip((blurred - 0.15 * contrast) / (0.4 * contrast), 0.0, 1.0).astype(np.float32)
    box = bounding_box(ink)
    if box is None:
        return None
    top, bottom, left, right = box
    return _shape_box(ink[top:bottom, left:right]), (right - left) / (bottom - top), bottom - top


@lru_cache(maxsize=1 << 12)
def _placed(n: int, font: str, weight: int, height: int) -> np.ndarray:
    """:func:`_canvas` of reference ``n`` in ``font`` at ``weight``, drawn once for every blur (read-only)."""
    canvas = _canvas(_reference_ink(n, font, weight), height)
    canvas.flags.writeable = False
    return canvas


@lru_cache(maxsize=1 << 14)
def _drawn_reference(
    n: int, font: str, weight: int, height: int, sigma: float
) -> tuple[np.ndarray, float, int] | None:
    """:func:`drawn_small` of reference ``n`` in ``font`` at ``weight``, kept: the glyph heights next to
    each other (:func:`small_references`) draw most references at the same sizes (read-only)."""
    drawn = _drawn(_placed(n, font, weight, height), sigma)
    if drawn is not None:
        drawn[0].flags.writeable = False
    return drawn


@lru_cache(maxsize=32)
def small_references(height: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(digits, boxes, log aspects)`` of every reference (:func:`reference_fonts`) drawn small and
    blurred by each of ``OWN_BLURS`` (:func:`drawn_small`) whose ink comes out ``height`` pixels tall,
    within a pixel, built once per height."""
    digits, boxes, aspects = [], [], []
    for sigma in OWN_BLURS:
        for drawn_height in range(max(3, height - 1 - math.ceil(OWN_GROWTH * sigma)), height + 2):
            for font, weight in reference_fonts():
                for n in range(1, 9):
                    drawn = _drawn_reference(n, font, weight, drawn_height, sigma)
                    if drawn is not None and abs(drawn[2] - height) <= 1:
                        digits.append(n)
                        boxes.append(drawn[0].ravel())
                        aspects.append(np.log(drawn[1]))
    return (
        np.array(digits, int),
        np.array(boxes, np.float32).reshape(len(digits), SHAPE_SIZE[0] * SHAPE_SIZE[1]),  # none: (0, B)
        np.array(aspects, np.float32),
    )


def own_size_distances(shape: GlyphShape) -> np.ndarray:
    """``(8,)`` distance of a glyph to the nearest reference of each digit drawn at the glyph's own size
    (its ink as tall as the glyph's, within a pixel) and blurred as much as it may be (``OWN_BLURS``), in
    the units of :func:`digit_distances` (box and aspect). A small glyph is blurred into a blob when its
    cell is sampled; references drawn at a fixed size keep the gaps it lost, so a blob's nearest digit
    there says little. At its own size, every digit a blob could be comes about as near (9 where no
    reference of a digit reaches its height)."""
    digits, boxes, aspects = small_references(shape.height)
    best = np.full(8, 9.0)
    if not len(digits):
        return best
    excess = np.maximum(np.abs(aspects - np.log(shape.aspect)) - np.log(WIDTH_SPREAD), 0.0)
    total = np.abs(boxes - shape.box.ravel()[None]).mean(axis=1) + ASPECT_WEIGHT * excess
    np.minimum.at(best, digits - 1, total)
    return best


def mean_rows(values: np.ndarray) -> np.ndarray:
    """``np.mean(values, axis=0)``, the same to the bit, without its Python overhead for float arrays
    (a glyph's few ink pixels are averaged many times): numpy's own sum, divided as ``np.mean`` divides
    (by the count as ``np.intp``: in float64, rounded back)."""
    if values.dtype not in (np.float32, np.float64):
        return values.mean(axis=0)  # numpy's own promotion (to float64 for integers)
    total = np.add.reduce(values, axis=0)
    if not isinstance(total, np.ndarray):  # one value per row: a scalar, as np.mean rounds it
        return total.dtype.type(total / np.intp(len(values)))
    return np.true_divide(total, np.intp(len(values)), out=total, casting="unsafe")


def median_rows(values: np.ndarray) -> np.ndarray:
    """``np.median(values, axis=0)`` of finite float32 values (at least one), the same to the bit: the
    middle value, or the mean (:func:`mean_rows`) of the middle two, found by one partial sort."""
    half = len(values) // 2
    if len(values) % 2:
        return np.partition(values, half, axis=0)[half]
    return mean_rows(np.partition(values, (half - 1, half), axis=0)[half - 1 : half + 1])


def shape_distance(a: GlyphShape, b: GlyphShape) -> float:
    """How unlike two glyphs are, in the units of :func:`digit_distances` (box and aspect)."""
    excess = max(abs(np.log(a.aspect) - np.log(b.aspect)) - np.log(WIDTH_SPREAD), 0.0)
    return float(np.abs(a.box - b.box).mean() + ASPECT_WEIGHT * excess)


def digit_distances(shape: GlyphShape, bold: bool = False) -> np.ndarray:
    """``(8,)`` distance of a glyph to the nearest reference of each digit 1-8 (lower is closer);
    ``bold``: among references redrawn at every weight, a weight unlike the glyph's counting against.
    Exactly :func:`plain_digit_distances`, faster for a glyph cut by its cell's edge (compared with
    three times as many references per side): a reference whose lower bound (:func:`_blocks`) is
    farther than its digit's nearest found cannot be that digit's nearest, and is never compared whole
    (a whole glyph's few references are compared whole sooner than bounded)."""
    if not shape.cut:
        return _distances(shape, references(bold), bold)
    boxes, aspects, weights, offsets, blocks, starts, counts = _pool(bold, shape.cut)
    box = shape.box.ravel()
    terms = _terms(shape, aspects, weights, bold)  # the aspect and weight terms, exact
    bound = np.abs(blocks - _blocks(box[None])[0]).sum(axis=1) / box.size + sum(terms) + offsets
    hits = np.flatnonzero(bound == np.repeat(np.minimum.reduceat(bound, starts), counts))
    nearest = hits[np.searchsorted(hits, starts)]  # each digit's nearest by its bound
    upper = _exact(box, boxes, terms, offsets, nearest)
    kept = bound <= np.repeat(upper, counts) + BOUND_SLACK
    kept[nearest] = True
    keep = np.flatnonzero(kept)
    return np.minimum.reduceat(_exact(box, boxes, terms, offsets, keep), np.searchsorted(keep, starts))


def plain_digit_distances(shape: GlyphShape, bold: bool = False) -> np.ndarray:
    """:func:`digit_distances` by comparing the glyph with every reference whole (what it must equal)."""
    distances = _distances(shape, references(bold), bold)
    for side in shape.cut:  # it may be cut off by its cell: as near as the nearest reference cut alike
        distances = np.minimum(distances, _distances(shape, references(bold, side), bold) + CUT_COST)
    return distances


BLOCK = (4, 2)
"""Rows and columns of the blocks of a shape box whose ink sums bound its distance to a reference from
below (:func:`_pool`)."""
BOUND_SLACK = 1e-3
"""Added to a digit's nearest distance before a reference's lower bound rules it out: float rounding of
either (about 1e-6) is far smaller."""


def _blocks(boxes: np.ndarray) -> np.ndarray:
    """``(R, B)`` float32 ink sums of ``BLOCK`` blocks of each of ``(R, H*W)`` shape boxes. The mean
    absolute difference of two boxes is at least the summed absolute difference of their block sums over
    ``H*W`` (the triangle inequality, block by block)."""
    (height, width), (rows, cols) = SHAPE_SIZE, BLOCK
    cells = boxes.reshape(len(boxes), height // rows, rows, width // cols, cols)
    return cells.sum(axis=(2, 4), dtype=np.float32).reshape(len(boxes), -1)


@lru_cache(maxsize=64)
def _pool(bold: bool, cut: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """Every reference a glyph cut on ``cut`` sides is compared with (:func:`references`, whole and cut
    on each side), digit by digit: ``(boxes, log aspects, log weights, offsets, block sums, each
    digit's first index, each digit's count)``; ``offsets`` is ``CUT_COST`` for a cut reference (added
    after the distance, as :func:`plain_digit_distances` adds it), 0 for a whole one."""
    sets = [(references(bold), 0.0)] + [(references(bold, side), CUT_COST) for side in cut]
    digits = np.concatenate([refs[0] for refs, _ in sets])
    order = np.argsort(digits, kind="stable")
    boxes, aspects, weights = (np.concatenate([refs[k] for refs, _ in sets])[order] for k in (1, 2, 3))
    offsets = np.concatenate([np.full(len(refs[0]), off) for refs, off in sets])[order]
    starts = np.searchsorted(digits[order], np.arange(1, 9))
    return boxes, aspects, weights, offsets, _blocks(boxes), starts, np.diff(starts, append=len(digits))


def _terms(shape: GlyphShape, aspects: np.ndarray, weights: np.ndarray, bold: bool) -> list[np.ndarray]:
    """Per reference, what :func:`_distances` adds to the shape part, in its order: the aspect term, and
    with ``bold`` the weight term (the same expressions, so the same values to the bit)."""
    excess = np.maximum(np.abs(aspects - np.log(shape.aspect)) - np.log(WIDTH_SPREAD), 0.0)
    terms = [ASPECT_WEIGHT * excess]
    if bold:
        heavier = np.abs(weights - np.log(max(shape.weight, 1e-3))) - np.log(WEIGHT_SPREAD)
        terms.append(WEIGHT_COST * np.maximum(heavier, 0.0))
    return terms


def _exact(
    box: np.ndarray, boxes: np.ndarray, terms: list[np.ndarray], offsets: np.ndarray, chosen: np.ndarray
) -> np.ndarray:
    """Distances of a glyph's box to the ``chosen`` references, summed in :func:`_distances`' order (shape
    part, aspect term, weight term), then the cut's offset added (float rounding is monotonic, so the
    nearest plus the offset is the nearest of each plus the offset)."""
    total = np.abs(boxes[chosen] - box[None]).mean(axis=1)
    for term in terms:
        total = total + term[chosen]
    return total + offsets[chosen]


def _distances(
    shape: GlyphShape, refs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], bold: bool
) -> np.ndarray:
    """``(8,)`` distance of a glyph to the nearest of ``refs`` (:func:`references`) of each digit."""
    digits, boxes, aspects, weights = refs
    shape_part = np.abs(boxes - shape.box.ravel()[None]).mean(axis=1)
    excess = np.maximum(np.abs(aspects - np.log(shape.aspect)) - np.log(WIDTH_SPREAD), 0.0)
    total = shape_part + ASPECT_WEIGHT * excess
    if bold:
        heavier = np.abs(weights - np.log(max(shape.weight, 1e-3))) - np.log(WEIGHT_SPREAD)
        total = total + WEIGHT_COST * np.maximum(heavier, 0.0)
    return np.minimum.reduceat(total, np.searchsorted(digits, np.arange(1, 9)))
