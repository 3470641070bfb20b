"""The status button of a client no skin knows, found by what it does: the one compact patch above the
board whose look changed exactly when the game ended.

Most clients show a face (or some other status button) above the board that changes when a game is
won or lost, and clicking it starts a new game. A skin's face templates find it on the clients minebot
knows (:mod:`bot.vision.status`); on any other client nothing says what it looks like. What it *does*
says enough: compare the band above the board at the start of a game with the same band at its end.
The counters (found and read by :mod:`bot.vision.counter`) and anything that changed while the game
was still on (a timer) are left out; what else changed, as one compact patch of about a cell's size,
is the status button. What changed in other shapes (a message strip, buttons or a dialog the client
adds as a game ends) is no candidate. Nothing is returned unless exactly one such patch is there: the
caller clicks it, so a guess is worse than nothing.

>>> import numpy as np
>>> from bot.geometry import Geometry
>>> g = Geometry(10, 100, 20, 20, 9, 9)
>>> start = np.full((300, 220, 3), 190, np.uint8)
>>> end = start.copy()
>>> end[50:70, 90:110] = (0, 200, 255)  # the face's look at the end: a 20 px square
>>> status_button(start, end, g)
Region(left=90, top=50, width=20, height=20)
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.geometry import Geometry, Region
from bot.vision.counter import find_displays

BAND_ROWS = 6.0
"""How far above the board the button is looked for, in cell pitches (as the face and the counter)."""

CHANGED = 24
"""Least difference (0-255, largest channel) of a pixel that changed look: above capture noise."""

LONG_SIDE = (0.4, 3.5)
"""Least and most longer side of the changed patch, in cell pitches: a face is about one to two cells
wide (less on large tiles: a page may keep its face's size), and what changes in it as a game ends
(eyes, mouth, sunglasses) spans at least half of it."""

SHORT_SIDE = 0.25
"""Least shorter side of the changed patch, in cell pitches (a won face's sunglasses: about 0.3)."""

ASPECT = 4.0
"""Largest ratio of a patch's width to its height: no message strip or added button (a won face's
sunglasses are about 3 times as wide as high)."""

TALL = 1.45
"""Largest ratio of a patch's height to its width: nothing in a face changes as a tall narrow patch,
while an LCD digit does (a counter the tint hid from :func:`bot.vision.counter.find_displays`)."""


def band_region(geometry: Geometry, width: int, height: int) -> Region | None:
    """The part of an image of ``width`` x ``height`` pixels above the board where the button may be
    (None when the board starts at the image's top)."""
    board = geometry.region()
    pitch = max(geometry.pitch_x, geometry.pitch_y)
    left, right = max(0, round(board.left - pitch)), min(width, round(board.right + pitch))
    top, bottom = max(0, round(board.top - BAND_ROWS * pitch)), min(height, board.top)
    return Region(left, top, right - left, bottom - top) if right > left and bottom > top else None


def _changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pixels whose colour differs by more than :data:`CHANGED` in some channel."""
    diff = cv2.absdiff(a, b)
    return diff.max(axis=2) > CHANGED if diff.ndim == 3 else diff > CHANGED


def _blot(mask: np.ndarray, region: Region, grow: int) -> None:
    """Clear ``region`` (grown by ``grow`` pixels on every side) in ``mask``, in place."""
    top, left = max(0, region.top - grow), max(0, region.left - grow)
    mask[top : max(top, region.bottom + grow), left : max(left, region.right + grow)] = False


def status_button(
    start: np.ndarray, end: np.ndarray, geometry: Geometry, ticking: np.ndarray | None = None
) -> Region | None:
    """The status button's region in image pixels, or ``None`` unless exactly one patch fits.

    ``start`` and ``end`` are same-sized images of the screen around the board (``geometry`` in their
    pixels) as the game started and as it ended; ``ticking``, when given, is one taken while the game
    was still on, so that what changes by itself (a timer) is left out.
    """
    if start.shape != end.shape or (ticking is not None and ticking.shape != start.shape):
        return None
    band = band_region(geometry, start.shape[1], start.shape[0])
    if band is None:
        return None
    pitch = max(geometry.pitch_x, geometry.pitch_y)

    def window(image: np.ndarray) -> np.ndarray:
        return image[band.top : band.bottom, band.left : band.right]

    changed = _changed(window(start), window(end))
    grow = max(1, round(pitch / 4))
    if ticking is not None:  # what changed while the game was on, and around it, is no button
        moving = cv2.dilate(_changed(window(start), window(ticking)).astype(np.uint8), _square(2 * grow + 1))
        changed &= moving == 0
    for display in find_displays(start, geometry) + find_displays(end, geometry):
        _blot(changed, display.region.offset(-band.left, -band.top), grow)
    if not changed.any():
        return None
    joined = cv2.dilate(changed.astype(np.uint8), _square(2 * grow + 1))
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    found = []
    for label in range(1, count):
        ys, xs = np.nonzero(changed & (labels == label))
        if len(xs) == 0:
            continue
        width, height = int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)
        short, long = min(width, height), max(width, height)
        low, high = LONG_SIDE
        shaped = width <= ASPECT * height and height <= TALL * width
        if low * pitch <= long <= high * pitch and short >= SHORT_SIDE * pitch and shaped:
            found.append(Region(band.left + int(xs.min()), band.top + int(ys.min()), width, height))
    return found[0] if len(found) == 1 else None  # two alike (a face and what?): unsure, none


def _square(side: int) -> np.ndarray:
    """A ``side`` x ``side`` structuring element."""
    return np.ones((side, side), np.uint8)
