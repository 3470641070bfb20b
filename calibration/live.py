"""Calibrate from the live screen, optionally opening cells of a fresh game to see more cell states.

``--play-to-learn`` clicks random still-covered cells (never outside the board it found) and keeps a
screenshot after each click, until every cell it could try is open, the screen stops changing (the
game ended) or the click budget is spent. Losing is fine here: a lost board shows the mines.
"""

from __future__ import annotations

import logging

import numpy as np

from bot.capture import CaptureBackend
from bot.input import InputBackend
from calibration.cluster import alike, cut_cells, features, nearest
from calibration.grid import find_grid

LOGGER = logging.getLogger(__name__)


def live_images(
    capture: CaptureBackend, clicker: InputBackend | None = None, clicks: int = 0, seed: int = 0
) -> list[tuple[str, np.ndarray]]:
    """Screenshots to calibrate from: the screen now, then one after each learning click."""
    images = [("live screen", capture.grab())]
    if clicker is None or clicks <= 0:
        return images
    geometry = find_grid(images[0][1])
    clicker.allow(geometry.region())
    size = max(round(min(geometry.pitch_x, geometry.pitch_y)), 4)
    rng = np.random.default_rng(seed)

    def cell_feats(image: np.ndarray) -> np.ndarray:
        return features(cut_cells(image, geometry, size).reshape(-1, size, size, 3))

    first = cell_feats(images[0][1])
    # The most common look on the first screen is taken as "covered" (true for a fresh board).
    sample = first[:: max(len(first) // 20, 1)]
    covered = max(sample, key=lambda f: int(alike(*_dist(first, f)).sum()))
    for k in range(clicks):
        feats = cell_feats(images[-1][1])
        still = np.nonzero(alike(*_dist(feats, covered)))[0]
        if len(still) == 0:
            break
        r, c = divmod(int(still[rng.integers(len(still))]), geometry.cols)
        clicker.click(*geometry.cell_center((r, c)))
        frame = capture.grab()
        if np.array_equal(frame, images[-1][1]):
            LOGGER.info("the screen did not change after clicking %s: stopping", (r, c))
            break
        images.append((f"live screen after click {k + 1} on {(r, c)}", frame))
    return images


def _dist(feats: np.ndarray, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    _, mean, top = nearest(feats, ref[None])
    return mean, top
