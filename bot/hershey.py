"""Hershey's stroke fonts drawn by minebot itself: text whose pixels no OpenCV release changes.

OpenCV's ``putText`` drew its ``FONT_HERSHEY_*`` fonts from Dr A. V. Hershey's public-domain glyphs until
its release 5, which draws a sans-serif font of its own under those names (and 5.1 other shapes again).
What minebot draws to be read (the simulated client's window text, the tests' drawn digits) comes from
here instead: the glyphs are minebot's own data (``fonts/hershey.txt``), and :func:`put_text` draws them
stroke by stroke as ``putText`` did before release 5, with ``cv2.polylines`` at 16 bits of sub-pixel
precision, whose pixels OpenCV 4.8 to 5.1 draw alike: equal to OpenCV 4.8's ``putText`` on 12,000 random
texts, sizes, weights and pens when the glyphs were written down (``tests/test_hershey.py`` keeps a hash).

>>> image = np.zeros((30, 60), np.uint8)
>>> put_text(image, "80", (5, 25), "simplex", 0.8, 255, 2)
>>> rows, cols = np.nonzero(image)
>>> int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())  # 8 and 0 side by side
(7, 26, 6, 36)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

GLYPH_FILE = Path(__file__).with_name("fonts") / "hershey.txt"
"""The glyphs: one a line, ``font code glyph`` (the file's header says how a glyph is written)."""

SHIFT = 16
"""Fractional bits of the points handed to ``cv2.polylines`` (as ``putText`` drew: its ``XY_SHIFT``)."""

ZERO = ord("R")
"""The letter that stands for coordinate 0 in a glyph."""


FONTS = {"simplex": 9, "plain": 5, "duplex": 9, "complex": 9, "triplex": 9}
"""The fonts ``fonts/hershey.txt`` holds, by name (OpenCV's ``FONT_HERSHEY_`` + the name upper-cased): how
many glyph units below a glyph's centre line the origin's line is (OpenCV's numbers)."""


@dataclass(frozen=True)
class Glyph:
    """One character: its left and right edge and its strokes, in glyph units (y down)."""

    left: int
    right: int
    strokes: tuple[np.ndarray, ...]
    """Each an ``(N, 2)`` int64 array of (x, y) points, N >= 2, drawn as one open polyline."""


def _decode(text: str) -> Glyph:
    """A glyph from its letters (``fonts/hershey.txt``'s header)."""
    strokes = []
    for run in text[2:].split(" "):
        points = np.array([ord(letter) - ZERO for letter in run], np.int64).reshape(-1, 2)
        if len(points) > 1:
            strokes.append(points)
    return Glyph(ord(text[0]) - ZERO, ord(text[1]) - ZERO, tuple(strokes))


@cache
def _glyphs() -> dict[str, dict[str, Glyph]]:
    """Every font's glyphs by character, read once."""
    fonts: dict[str, dict[str, Glyph]] = {name: {} for name in FONTS}
    for line in GLYPH_FILE.read_text(encoding="ascii").splitlines():
        if line and not line.startswith("#"):
            font, code, glyph = line.split(" ", 2)
            fonts[font][chr(int(code))] = _decode(glyph)
    return fonts


def _font(font: str) -> dict[str, Glyph]:
    try:
        return _glyphs()[font]
    except KeyError:
        raise KeyError(f"no stroke font {font!r}: the fonts are {', '.join(FONTS)}") from None


def _glyph(glyphs: dict[str, Glyph], char: str) -> Glyph:
    """``char``'s glyph; a character outside printable ASCII is drawn as ``?``, as OpenCV did."""
    return glyphs.get(char) or glyphs["?"]


def put_text(
    image: np.ndarray,
    text: str,
    org: tuple[int, int],
    font: str,
    scale: float,
    color: float | tuple[float, ...],
    thickness: int = 1,
    line_type: int = cv2.LINE_8,
) -> None:
    """Draw ``text`` into ``image`` with its baseline starting at ``org`` (x, y), as OpenCV's ``putText``
    with ``FONT_HERSHEY_<font>`` drew it before release 5, pixel for pixel, except thin sharp strokes
    (``thickness`` 1 without ``cv2.LINE_AA``), which are drawn from whole pixels (as ``cv2.LINE_4`` was).

    Raises:
        KeyError: when ``font`` is not one of ``FONTS``.
    """
    glyphs = _font(font)
    unit = round(scale * (1 << SHIFT))  # glyph unit in fixed point, rounded half to even as OpenCV's
    x = org[0] << SHIFT
    y = (org[1] << SHIFT) - FONTS[font] * unit
    for char in text:
        glyph = _glyph(glyphs, char)
        x -= glyph.left * unit
        if glyph.strokes:
            lines = [stroke * unit + (x, y) for stroke in glyph.strokes]
            shift = SHIFT
            if thickness <= 1 and line_type != cv2.LINE_AA:
                # OpenCV 5 draws a thin sharp line between sub-pixel ends otherwise: from whole pixels
                lines, shift = [(line + (1 << (SHIFT - 1))) >> SHIFT for line in lines], 0
            points = [line.astype(np.int32) for line in lines]
            cv2.polylines(image, points, False, color, thickness, line_type, shift)
        x += glyph.right * unit


def text_width(text: str, font: str, scale: float, thickness: int = 1) -> int:
    """How wide :func:`put_text` draws ``text``, in pixels, as OpenCV's ``getTextSize`` measured it before
    release 5 (the glyphs' advances at ``scale``, plus the pen's ``thickness``)."""
    glyphs = _font(font)
    advance = sum(_glyph(glyphs, char).right - _glyph(glyphs, char).left for char in text)
    return round(advance * scale + thickness)
