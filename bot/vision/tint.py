"""Undo a screen's colour shift (a night-light filter, gamma, a tinted recording) before matching templates.

A shift of this kind maps every pixel through one function per channel. It is modelled, per channel, as
a gain and a power, ``skin = 255 * gain * (screen / 255) ** power`` (a night light's gain then gamma,
undone exactly), and estimated from the board itself against the skin's templates:

1. *Anchor.* The board's most common cell look (the largest group of cells nearly alike: covered cells
   on a fresh board, opened ones later) is fitted to each template in turn; the template it fits best
   (least error after its own best per-channel fit) gives a first estimate.
2. *Refine.* The board is read through that estimate; every cell read surely pairs its pixels with its
   template's, and the fit is made again from all of them, a few rounds while fewer cells stay unsure.

The fit has six numbers for the whole board, so it cannot bend one cell into another state: a state the
skin lacks stays unreadable. An implausible fit (a gain or power far from any screen filter) is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.geometry import Geometry
from bot.skin import Skin
from bot.vision.classify import CellReading, cell_blocks, classify_cells, dot_products, skin_model

MIN_LEVEL = 6
"""Pixel values at or below this (either side) are left out of a fit: black stays black, and a log
of near-zero values is all noise."""

TOP_LEVEL = 250
"""Screen values at or above this are left out: a channel clipped at white has lost its shade."""

GAINS = (0.2, 5.0)
POWERS = (0.4, 2.5)
"""Plausible ranges of a channel's gain and power; a fit outside them is no colour shift."""

ANCHOR_RADIUS = 8.0
"""RMS distance (0-255) within which cells count as the same look when finding the commonest one."""

ANCHOR_SEEDS = 64
"""Most cells tried as the centre of the commonest look."""

ANCHOR_RESIDUAL = 16.0
"""Most RMS error (0-255) left after fitting the commonest look to its best template."""

MAX_PAIRS = 8192
"""Most pixel pairs one fit uses: a whole board read surely pairs ~10^5, which only costs time."""

ROUNDS = 4
"""Most refits from the cells read surely."""


@dataclass(frozen=True)
class ColourShift:
    """Per-channel (B, G, R) gain and power mapping screen colours back to the skin's."""

    gain: tuple[float, float, float]
    power: tuple[float, float, float]

    def table(self) -> np.ndarray:
        """The ``(1, 256, 3)`` uint8 lookup table (``cv2.LUT``) from screen to skin colours."""
        levels = np.arange(256, dtype=np.float64)[:, None] / 255.0
        mapped = 255.0 * np.asarray(self.gain) * np.power(levels, np.asarray(self.power))
        return np.clip(np.round(mapped), 0, 255).astype(np.uint8)[None]

    def apply(self, values: np.ndarray) -> np.ndarray:
        """Float values (..., 3) mapped like :meth:`table` (without rounding)."""
        scaled = np.clip(values, 0.0, 255.0) / 255.0
        return np.clip(255.0 * np.asarray(self.gain) * np.power(scaled, np.asarray(self.power)), 0.0, 255.0)

    def describe(self) -> str:
        """E.g. ``gain B 1.67 G 1.18 R 1.00, power B 0.80 G 0.80 R 0.80``."""
        gain = " ".join(f"{c} {g:.2f}" for c, g in zip("BGR", self.gain, strict=True))
        power = " ".join(f"{c} {p:.2f}" for c, p in zip("BGR", self.power, strict=True))
        return f"gain {gain}, power {power}"


def _median(values: np.ndarray) -> float:
    """``np.median`` of a 1-D array, without its overhead (a fit calls it thousands of times per locate)."""
    n = len(values)
    half = n // 2
    if n % 2:
        return float(np.partition(values, half)[half])
    low_high = np.partition(values, (half - 1, half))
    return 0.5 * float(low_high[half - 1] + low_high[half])


def _fit_channel(screen: np.ndarray, skin: np.ndarray) -> tuple[float, float] | None:
    """Gain and power of one channel from paired values, or ``None`` when implausible."""
    keep = (screen > MIN_LEVEL) & (skin > MIN_LEVEL) & (screen < TOP_LEVEL)
    if np.count_nonzero(keep) < 4:
        return 1.0, 1.0  # nothing to go on (a channel dark everywhere): leave it
    y, x = np.log(screen[keep] / 255.0), np.log(skin[keep] / 255.0)
    inliers = np.ones(len(y), dtype=bool)
    offset, power = _median(x - y), 1.0  # one level only: a gain
    for _ in range(2):
        count = np.count_nonzero(inliers)
        if count < 4:
            break
        yi, xi = y[inliers], x[inliers]
        if yi.max() - yi.min() < 0.05:
            break
        dy, dx = yi - yi.sum() / count, xi - xi.sum() / count
        power = float((dy @ dx) / (dy @ dy))
        offset = float(xi.sum() / count - power * (yi.sum() / count))
        error = np.abs(x - (offset + power * y))
        inliers = error <= max(0.05, 3.0 * _median(error))
    gain = float(np.exp(offset))
    if not (GAINS[0] <= gain <= GAINS[1] and POWERS[0] <= power <= POWERS[1]):
        return None
    return gain, power


def fit_shift(screen: np.ndarray, skin: np.ndarray) -> ColourShift | None:
    """The shift mapping ``screen`` colours to ``skin`` colours (paired ``(n, 3)`` arrays), if plausible.
    At most :data:`MAX_PAIRS` pairs are used, evenly spread (six numbers need no more)."""
    step = -(-len(screen) // MAX_PAIRS)
    if step > 1:
        screen, skin = screen[::step], skin[::step]
    fits = [_fit_channel(screen[:, c].astype(np.float64), skin[:, c].astype(np.float64)) for c in range(3)]
    if any(f is None for f in fits):
        return None
    return ColourShift(tuple(f[0] for f in fits), tuple(f[1] for f in fits))  # type: ignore[index,arg-type]


def _anchor(blocks: np.ndarray) -> np.ndarray:
    """The mean of the largest group of nearly alike cells (``blocks`` is ``(N, D)``), seeded from at
    most ``ANCHOR_SEEDS`` cells spread over the board."""
    seeds = blocks[:: max(1, len(blocks) // ANCHOR_SEEDS)]
    squared = (blocks**2).sum(axis=1)
    between = (seeds**2).sum(axis=1)[:, None] + squared[None, :] - 2.0 * dot_products(seeds, blocks.T)
    near = np.sqrt(np.maximum(between, 0.0) / blocks.shape[1]) <= ANCHOR_RADIUS
    seed = int(np.argmax(near.sum(axis=1)))
    return blocks[near[seed]].mean(axis=0)


def _first_guess(blocks: np.ndarray, looks: np.ndarray) -> ColourShift | None:
    """The shift fitting the commonest cell look best to one of the skin's looks."""
    anchor = _anchor(blocks).reshape(-1, 3)
    best: tuple[float, ColourShift] | None = None
    for look in looks:
        target = look.reshape(-1, 3)
        shift = fit_shift(anchor, target)
        if shift is None:
            continue
        error = float(np.sqrt(np.mean((shift.apply(anchor) - target) ** 2)))
        if error <= ANCHOR_RESIDUAL and (best is None or error < best[0]):
            best = (error, shift)
    return None if best is None else best[1]


def estimate_shift(
    image: np.ndarray, geometry: Geometry, skin: Skin
) -> tuple[ColourShift, CellReading] | None:
    """The colour shift of the board at ``geometry``, and the board read through it; ``None`` when no
    plausible shift is found."""
    model = skin_model(skin)
    raw = cell_blocks(image, geometry, model)
    blocks = raw.reshape(geometry.rows * geometry.cols, -1)
    shift = _first_guess(blocks, np.concatenate([model.blocks, model.variant_blocks]))
    if shift is None:
        return None
    reading = classify_cells(image, geometry, skin, colours=shift.table())
    for _ in range(ROUNDS):
        sure = ~reading.uncertain_mask().reshape(-1)
        if not sure.any():
            break
        rows = np.searchsorted(model.states, reading.states.reshape(-1)[sure])
        refit = fit_shift(blocks[sure].reshape(-1, 3), model.blocks[rows].reshape(-1, 3))
        if refit is None:
            break
        again = classify_cells(image, geometry, skin, colours=refit.table())
        if again.uncertain_mask().sum() > reading.uncertain_mask().sum():
            break
        settled = again.uncertain_mask().sum() == reading.uncertain_mask().sum()
        shift, reading = refit, again
        if settled:
            break
    return shift, reading
