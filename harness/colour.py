"""Colour shifts a user's screen applies (night-light filters, gamma), for tests and benchmarks.

>>> import numpy as np
>>> pixel = np.full((1, 1, 3), 200, np.uint8)
>>> night_light(pixel).tolist()
[[[99, 154, 188]]]
"""

from __future__ import annotations

import numpy as np

NIGHT_LIGHT = (0.6, 0.85, 1.0)
"""Per-channel gains (blue, green, red) of the night-light tint the targets name."""
NIGHT_GAMMA = 1.25
"""Gamma applied after the gains (values above 1 darken the mid-tones)."""


def tint(image: np.ndarray, gains: tuple[float, float, float], gamma: float = 1.0) -> np.ndarray:
    """A BGR image with each channel scaled by ``gains`` and then raised to ``gamma`` (on 0..1 values)."""
    scaled = image.astype(np.float64) * np.asarray(gains, dtype=np.float64) / 255.0
    return np.clip(np.round(255.0 * np.power(np.clip(scaled, 0.0, 1.0), gamma)), 0, 255).astype(np.uint8)


def night_light(image: np.ndarray) -> np.ndarray:
    """The target's colour shift: blue x0.6, green x0.85, then gamma 1.25."""
    return tint(image, NIGHT_LIGHT, NIGHT_GAMMA)
