"""What a group's pixels say: its base ring, plainness, fill, glyph ink and colour, and the thresholds
the labelling (:mod:`calibration.label`) judges them by."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.board import Cell
from bot.vision.describe import LUMA
from bot.vision.tilekinds import KIND_RAMP
from calibration.cluster import is_plain, ring_width

RING_SAME = 25.0
"""Largest median ring difference (0-255, per pixel in its most different channel) between groups of one
base. Per pixel, not per value: green and black rings agree in two channels of three."""
INK_DIFF = 30.0
"""A pixel is ink when it differs this much (mean over channels) from its base."""
SURE_MARGIN = 0.6
"""A digit assignment is sure when every other assignment costs at least this much more."""
MAX_COST = 1.6
"""... and its own cost is at most this."""
TWIN_MEAN = 20.0
"""Digit groups closer than this (mean colour difference, 0-255) may be one digit split in two."""
CLASSIC_FIT = 0.3
"""A glyph colour this close to a classic digit colour (or to the best fit, for a digit the counts fixed)
counts towards the palette being classic."""

# (hue in degrees or None for grey, lightness prior 0-255 for coloured / contrast prior 0-1 for grey)
DIGIT_PRIORS: dict[int, tuple[float | None, float]] = {
    1: (240.0, 255.0),
    2: (120.0, 128.0),
    3: (0.0, 255.0),
    4: (240.0, 128.0),
    5: (0.0, 128.0),
    6: (180.0, 128.0),
    7: (None, 0.75),
    8: (None, 0.3),
}
SAME_SHAPE = 0.7
"""Glyph masks overlapping this much (intersection over union) are one shape; a bold digit overlaps a
mine's blob by up to about 0.5."""
EXPLAINED = 0.9
"""The mine-like groups found explain a lost board when this share of its other glyph cells are in groups
whose cells all touch one (non-zero) count; only then do counts tell 0 from covered."""
ALL_ZERO = 0.95
"""A plain group is 0 by the counts when this share of its cells touch no mine on a lost board (a
stray cell of another state may fall in its group); covered cells of a lost board touch mines far
more often."""
FEW = 2
"""A second look of a known digit on at most this many cells is not trusted (left out by --yes)."""
SAME_DIGIT = 0.4
"""Two looks of one digit overlap at least this much in glyph shape (intersection over union)."""
UNREVEALED = {Cell.COVERED, Cell.FLAG, Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG}


@dataclass
class Look:
    """What a group's pixels say: its ring, whether it is plain, its fill colour."""

    ring: np.ndarray
    inner: np.ndarray
    plain: bool
    fill: np.ndarray
    shading: np.ndarray
    """The ring's lightness change across half the cell, ``(along x, down y)`` (:func:`ring_shading`)."""


def describe(image: np.ndarray) -> Look:
    """Ring pixels, inner pixels, plainness and fill colour of a group image."""
    img = image.astype(np.float32)
    s = img.shape[0]
    w = ring_width(s)
    mask = np.ones((s, s), bool)
    mask[w:-w, w:-w] = False
    inner = img[w:-w, w:-w]
    plain = is_plain(img)
    band = np.ones(inner.shape[:2], bool)
    band[2:-2, 2:-2] = False  # just inside the ring: the cell's own background behind any glyph
    return Look(img[mask], inner, plain, np.median(inner[band], axis=0), ring_shading(img, mask))


def ring_shading(img: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """How a cell's ring is shaded: the lightness change of a plane fitted to its ring pixels, across half
    the cell (the units of :func:`bot.vision.generic.ramp_slope`), ``(along x, down y)``.

    Pixels far from the ring's median (a grid line, a glyph reaching into the ring) are left out, so a
    glossy tile's slope shows and a flat one's is about 0.
    """
    s = img.shape[0]
    yy, xx = np.nonzero(mask)
    light = img[mask] @ LUMA
    keep = np.abs(light - np.median(light)) <= INK_DIFF
    if keep.sum() < 3:
        return np.zeros(2)
    design = np.stack([np.ones(keep.sum()), xx[keep] / s, yy[keep] / s], axis=1)
    coef, *_ = np.linalg.lstsq(design, light[keep], rcond=None)
    return coef[1:] / 2


def same_base(a: Look, b: Look) -> bool:
    """Whether two group looks are drawn on one base: their rings alike in colour and in shading (a
    glossy covered tile and a flat revealed cell of its mean grey are two bases)."""
    return (
        ring_difference(a.ring, b.ring) <= RING_SAME
        and float(np.linalg.norm(a.shading - b.shading)) <= KIND_RAMP
    )


def ring_difference(a: np.ndarray, b: np.ndarray) -> float:
    """Median over ring pixels of their difference in the most different colour channel."""
    return float(np.median(np.abs(a - b).max(axis=1)))


def hsv(bgr: np.ndarray) -> tuple[float, float, float]:
    """Hue in degrees, chroma and value (0-255) of one BGR colour."""
    b, g, r = (float(x) for x in bgr)
    hi, lo = max(r, g, b), min(r, g, b)
    chroma = hi - lo
    if chroma < 1e-6:
        return 0.0, 0.0, hi
    if hi == r:
        hue = ((g - b) / chroma) % 6
    elif hi == g:
        hue = (b - r) / chroma + 2
    else:
        hue = (r - g) / chroma + 4
    return 60.0 * hue, chroma, hi


def ink_mask(image: np.ndarray, base: np.ndarray | None) -> np.ndarray:
    """Inner pixels that differ from the base image (or from the inner median colour) by a glyph's worth."""
    img = image.astype(np.float32)
    s = img.shape[0]
    w = ring_width(s)
    ref = base.astype(np.float32) if base is not None else describe(image).fill
    diff = np.abs(img - ref).mean(axis=2)
    mask = diff > INK_DIFF
    mask[:w] = mask[-w:] = False
    mask[:, :w] = mask[:, -w:] = False
    return mask


def ink_colour(image: np.ndarray, base: np.ndarray) -> np.ndarray:
    """The glyph's colour: the mean of the half of its ink pixels that differ most from the base."""
    img = image.astype(np.float32)
    diff = np.abs(img - base.astype(np.float32)).mean(axis=2)
    mask = ink_mask(image, base)
    if not mask.any():
        return np.median(img.reshape(-1, 3), axis=0)
    strongest = diff[mask] >= np.median(diff[mask])
    return img[mask][strongest].mean(axis=0)


def mask_iou(a: np.ndarray, b: np.ndarray) -> float:
    union = (a | b).sum()
    return float((a & b).sum() / union) if union else 0.0


def is_red(bgr: np.ndarray) -> bool:
    hue, chroma, _ = hsv(bgr)
    return chroma > 80 and (hue < 25 or hue > 335)


def red_fraction(image: np.ndarray, mask: np.ndarray) -> float:
    if not mask.any():
        return 0.0
    pixels = image[mask].astype(np.float32)
    red = (pixels[:, 2] > pixels[:, 1] + 70) & (pixels[:, 2] > pixels[:, 0] + 70)
    return float(red.mean())


def palette_cost(colour: np.ndarray, background: np.ndarray, digit: int) -> float:
    """How far a glyph colour is from the classic palette's colour for ``digit`` (0 is a perfect fit)."""
    hue, chroma, value = hsv(colour)
    proto_hue, proto = DIGIT_PRIORS[digit]
    if proto_hue is None:
        contrast = abs(value - hsv(background)[2]) / 255
        return (2.5 if chroma > 60 else 0.0) + abs(contrast - proto) * 2
    if chroma <= 60:
        return 2.5
    dh = abs((hue - proto_hue + 180) % 360 - 180)
    return dh / 40 + abs(value - proto) / 160
