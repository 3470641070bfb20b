"""Where an earlier look of the board is on the screen now: a moved window shows the same pixels
elsewhere.

Matching a whole board over a whole screen costs about a second at full size; the look is found on
both shrunk by :data:`SHRINK` first, then placed to the pixel in a small window around that spot.

>>> import numpy as np
>>> screen = np.random.default_rng(1).integers(0, 255, (300, 400, 3), dtype=np.uint8)
>>> find_look(screen, screen[37:237, 101:351].copy())
(101, 37)
"""

from __future__ import annotations

import cv2
import numpy as np

SHRINK = 4
"""How much the screen and the look are shrunk for the first, rough search."""


def find_look(
    image: np.ndarray, view: np.ndarray, period: tuple[float, float] | None = None
) -> tuple[int, int] | None:
    """``(x, y)`` of the top-left corner where ``view`` best matches ``image`` (BGR uint8), or None
    when ``view`` does not fit on ``image``. The best match only: whether it is the same look there is
    for the caller to check.

    ``period``: the board's pitch (x, y) in pixels. A board's cells repeat (a fresh board is one look
    over and over), so the rough search on the shrunk images can land a cell off (36 of 60 places of a
    fresh JSMinesweeper board): the look is then placed to the pixel within a cell of that spot.
    """
    height, width = view.shape[:2]
    if height > image.shape[0] or width > image.shape[1]:
        return None
    image, view = np.ascontiguousarray(image), np.ascontiguousarray(view)
    if min(height, width) < 8 * SHRINK:
        return _placed(image, view, (0, 0, image.shape[1], image.shape[0]))[1]
    small = cv2.resize(image, None, fx=1 / SHRINK, fy=1 / SHRINK, interpolation=cv2.INTER_AREA)
    part = cv2.resize(view, None, fx=1 / SHRINK, fy=1 / SHRINK, interpolation=cv2.INTER_AREA)
    scores = cv2.matchTemplate(small, part, cv2.TM_SQDIFF)
    _, _, (x, y), _ = cv2.minMaxLoc(scores)
    reach_x, reach_y = (round(period[0]), round(period[1])) if period is not None else (0, 0)
    window = (
        max(0, x * SHRINK - SHRINK - reach_x),
        max(0, y * SHRINK - SHRINK - reach_y),
        min(image.shape[1], x * SHRINK + width + SHRINK + reach_x),
        min(image.shape[0], y * SHRINK + height + SHRINK + reach_y),
    )
    return _placed(image, view, window)[1]


def _placed(
    image: np.ndarray, view: np.ndarray, window: tuple[int, int, int, int]
) -> tuple[float, tuple[int, int]]:
    """The best match of ``view`` inside ``window`` (x0, y0, x1, y1) of ``image``: its squared
    difference and ``(x, y)``."""
    x0, y0, x1, y1 = window
    scores = cv2.matchTemplate(image[y0:y1, x0:x1], view, cv2.TM_SQDIFF)
    score, _, (x, y), _ = cv2.minMaxLoc(scores)
    return float(score), (x0 + x, y0 + y)
