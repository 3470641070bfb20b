"""Damage a screenshot suffers on its way to the reader: JPEG, GIF palettes with dither, blur, tint, gamma.

Why: screenshots are shared as JPEGs and GIF recordings, captured through colour-managed or night-light
displays; a reader that needs exact pixels reads none of them. Each step is deterministic for its
strength (a tint's strength is its seed), so a look's frames are damaged alike.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

from bot.errors import MinebotError
from bot.render import jpeg_roundtrip


class DamageError(MinebotError, ValueError):
    """A damage step with an unknown name or a strength out of its range."""


def gif_palette(image: np.ndarray, colors: int) -> np.ndarray:
    """The image reduced to an adaptive palette of ``colors`` (2-256) with Floyd-Steinberg dither."""
    if not 2 <= colors <= 256:
        raise DamageError(f"a GIF palette holds 2-256 colours, got {colors}")
    rgb = Image.fromarray(np.ascontiguousarray(image[:, :, ::-1]))
    quantized = rgb.quantize(
        colors=int(colors), method=Image.Quantize.MEDIANCUT, dither=Image.Dither.FLOYDSTEINBERG
    )
    return np.asarray(quantized.convert("RGB"))[:, :, ::-1].copy()


def blur(image: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of ``sigma`` px (a soft capture, a scaled recording)."""
    if not 0 < sigma <= 5:
        raise DamageError(f"blur sigma must be in (0, 5], got {sigma}")
    return cv2.GaussianBlur(image, (0, 0), sigma)


def tint(image: np.ndarray, seed: int) -> np.ndarray:
    """A colour cast: each channel scaled by 0.85-1.15 and shifted by up to 12 levels (seeded)."""
    rng = np.random.default_rng([int(seed), 7])
    gain, shift = rng.uniform(0.85, 1.15, 3), rng.uniform(-12, 12, 3)
    return np.clip(image.astype(np.float32) * gain + shift, 0, 255).round().astype(np.uint8)


def gamma(image: np.ndarray, value: float) -> np.ndarray:
    """Levels mapped through ``(v / 255) ** value`` (a display or capture with another gamma)."""
    if not 0.2 <= value <= 5:
        raise DamageError(f"gamma must be 0.2-5, got {value}")
    table = np.clip(np.round(255 * (np.arange(256) / 255) ** value), 0, 255).astype(np.uint8)
    return cv2.LUT(image, table)


def apply(image: np.ndarray, steps: tuple[tuple[str, float], ...]) -> np.ndarray:
    """The image after each ``(name, strength)`` damage step in order."""
    for name, value in steps:
        if name == "jpeg":
            image = jpeg_roundtrip(image, int(value))
        elif name in ("gif256", "gif64"):
            image = gif_palette(image, int(value))
        elif name == "blur":
            image = blur(image, value)
        elif name == "tint":
            image = tint(image, int(value))
        elif name == "gamma":
            image = gamma(image, value)
        else:
            raise DamageError(f"unknown damage step {name!r} (known: jpeg, gif256, gif64, blur, tint, gamma)")
    return image
