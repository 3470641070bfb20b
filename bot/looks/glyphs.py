"""Digit glyphs for generated looks: system TrueType fonts (regular and bold), a pixel font, 7-segment.

Why: clients draw their numbers in whatever font their toolkit or designer chose; the skinless reader
must name a digit by its shape in any of them. Each glyph is a coverage mask (0-1, anti-aliased where
the font is) of the digit at a given height, centred in a box, so the tile painter can ink it in any
colour. TrueType faces come from Debian font packages; :func:`installed_fonts` lists those present and
says once which families are missing.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

LOGGER = logging.getLogger(__name__)

FONT_DIRS = (Path("/usr/share/fonts/truetype"), Path("/usr/share/fonts/opentype"))
FONT_FILES: dict[str, tuple[str, ...]] = {
    "ttf": (
        "dejavu/DejaVuSans.ttf",
        "dejavu/DejaVuSansCondensed.ttf",
        "dejavu/DejaVuSerif.ttf",
        "liberation/LiberationSans-Regular.ttf",
        "liberation/LiberationSerif-Regular.ttf",
        "liberation/LiberationMono-Regular.ttf",
        "freefont/FreeSans.ttf",
        "freefont/FreeMono.ttf",
        "noto/NotoSansMono-Regular.ttf",
    ),
    "ttf-bold": (
        "dejavu/DejaVuSans-Bold.ttf",
        "dejavu/DejaVuSansMono-Bold.ttf",
        "dejavu/DejaVuSerif-Bold.ttf",
        "liberation/LiberationSans-Bold.ttf",
        "liberation/LiberationSansNarrow-Bold.ttf",
        "liberation/LiberationMono-Bold.ttf",
        "freefont/FreeSansBold.ttf",
        "freefont/FreeSerifBold.ttf",
        "noto/NotoSansMono-Bold.ttf",
    ),
}
"""TrueType faces by kind, relative to a font folder (packages fonts-dejavu-core, fonts-liberation,
fonts-freefont-ttf, fonts-noto-mono)."""

PIXEL_FONT: dict[int, tuple[str, ...]] = {
    1: ("00100", "01100", "10100", "00100", "00100", "00100", "11111"),
    2: ("01110", "10001", "00001", "00110", "01000", "10000", "11111"),
    3: ("11110", "00001", "00001", "01110", "00001", "00001", "11110"),
    4: ("00010", "00110", "01010", "10010", "11111", "00010", "00010"),
    5: ("11111", "10000", "11110", "00001", "00001", "10001", "01110"),
    6: ("00110", "01000", "10000", "11110", "10001", "10001", "01110"),
    7: ("11111", "00001", "00010", "00100", "01000", "01000", "01000"),
    8: ("01110", "10001", "10001", "01110", "10001", "10001", "01110"),
}
"""A 5x7 bitmap font, drawn in whole blocks (no anti-aliasing) as small desktop clients do."""

SEGMENTS: dict[int, str] = {
    1: "bc",
    2: "abdeg",
    3: "abcdg",
    4: "bcfg",
    5: "acdfg",
    6: "acdefg",
    7: "abc",
    8: "abcdefg",
}
"""Lit segments of each digit: a top, b top-right, c bottom-right, d bottom, e bottom-left, f top-left,
g middle."""


@lru_cache(maxsize=1)
def installed_fonts() -> tuple[tuple[str, str], ...]:
    """``(kind, path)`` for every listed TrueType face installed here; logs the missing ones once."""
    found: list[tuple[str, str]] = []
    missing: list[str] = []
    for kind, names in FONT_FILES.items():
        for name in names:
            path = next((d / name for d in FONT_DIRS if (d / name).is_file()), None)
            if path is None:
                missing.append(name)
            else:
                found.append((kind, str(path)))
    if missing:
        LOGGER.info(
            "looks: %d font face(s) not installed, skipped (apt-get install fonts-dejavu-core "
            "fonts-liberation fonts-freefont-ttf fonts-noto-mono): %s",
            len(missing),
            ", ".join(missing),
        )
    return tuple(found)


def _place(mask: np.ndarray, width: int, height: int) -> np.ndarray:
    """The glyph mask centred in a ``height`` x ``width`` box (cropped if it is larger)."""
    out = np.zeros((height, width), np.float32)
    mh, mw = mask.shape
    top, left = (height - mh) // 2, (width - mw) // 2
    src = mask[max(-top, 0) : max(-top, 0) + height, max(-left, 0) : max(-left, 0) + width]
    out[max(top, 0) : max(top, 0) + src.shape[0], max(left, 0) : max(left, 0) + src.shape[1]] = src
    return out


@lru_cache(maxsize=64)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _ttf(n: int, path: str, glyph_h: int) -> np.ndarray:
    probe = _font(path, 100).getbbox("8")
    size = max(round(glyph_h * 100 / max(probe[3] - probe[1], 1)), 4)
    font = _font(path, size)
    left, top, right, bottom = font.getbbox(str(n))
    image = Image.new("L", (right - left + 2, bottom - top + 2), 0)
    ImageDraw.Draw(image).text((1 - left, 1 - top), str(n), fill=255, font=font)
    return np.asarray(image, np.float32) / 255


def _pixel(n: int, glyph_h: int, width: int) -> np.ndarray:
    block = max(glyph_h // 7, 1)
    while block > 1 and 5 * block > width - 2:
        block -= 1
    bits = np.array([[c == "1" for c in row] for row in PIXEL_FONT[n]], np.float32)
    return np.kron(bits, np.ones((block, block), np.float32))


def _segment(n: int, glyph_h: int) -> np.ndarray:
    ss = 4
    h = max(glyph_h, 7) * ss
    w = max(round(h * 0.55), 4 * ss)
    t = max(round(h / 7), ss)
    canvas = np.zeros((h + 2 * ss, w + 2 * ss), np.uint8)
    x0, y0, x1, y1, ym = ss, ss, ss + w, ss + h, ss + h // 2
    half = t // 2

    def horizontal(y: int) -> np.ndarray:
        return np.array([[x0 + half, y], [x0 + t, y - half], [x1 - t, y - half], [x1 - half, y],
                         [x1 - t, y + half], [x0 + t, y + half]], np.int32)  # fmt: skip

    def vertical(x: int, ya: int, yb: int) -> np.ndarray:
        return np.array([[x, ya + half], [x + half, ya + t], [x + half, yb - t], [x, yb - half],
                         [x - half, yb - t], [x - half, ya + t]], np.int32)  # fmt: skip

    shapes = {
        "a": horizontal(y0 + half),
        "g": horizontal(ym),
        "d": horizontal(y1 - half),
        "f": vertical(x0 + half, y0 + half, ym),
        "b": vertical(x1 - half, y0 + half, ym),
        "e": vertical(x0 + half, ym, y1 - half),
        "c": vertical(x1 - half, ym, y1 - half),
    }
    for name in SEGMENTS[n]:
        cv2.fillPoly(canvas, [shapes[name]], 255)
    small = cv2.resize(canvas, (canvas.shape[1] // ss, canvas.shape[0] // ss), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255


@lru_cache(maxsize=2048)
def digit_mask(n: int, font: str, font_file: str, width: int, height: int, fraction: float) -> np.ndarray:
    """The coverage mask (``height`` x ``width``, 0-1) of digit ``n`` drawn ``fraction`` of ``height``
    tall in ``font`` (``ttf``/``ttf-bold`` from ``font_file``, ``pixel`` or ``segment``), centred."""
    glyph_h = max(round(height * fraction), 5)
    if font.startswith("ttf"):
        mask = _ttf(n, font_file, glyph_h)
    elif font == "pixel":
        mask = _pixel(n, glyph_h, width)
    else:
        mask = _segment(n, glyph_h)
    mask = _place(mask, width, height)
    mask.flags.writeable = False
    return mask
