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


def find_look(image: np.ndarray, view: np.ndarray) -> tuple[int, int] | None:
    """``(x, y)`` of the top-left corner where ``view`` best matches ``image`` (BGR uint8), or None
    when ``view`` does not fit on ``image``. The best match only: whether it is the same look there is
    for the caller to check."""
    height, width = view.shape[:2]
    if height > image.shape[0] or width > image.shape[1]:
        return None
    image, view = np.ascontiguousarray(image), np.ascontiguousarray(view)
    x0, y0, x1, y1 = 0, 0, image.shape[1], image.shape[0]
    if min(height, width) >= 8 * SHRINK:
        small = cv2.resize(image, None, fx=1 / SHRINK, fy=1 / SHRINK, interpolation=cv2.INTER_AREA)
        part = cv2.resize(view, None, fx=1 / SHRINK, fy=1 / SHRINK, interpolation=cv2.INTER_AREA)
        scores = cv2.matchTemplate(small, part, cv2.TM_SQDIFF)
        _, _, (x, y), _ = cv2.minMaxLoc(scores)
        margin = SHRINK
        x0, y0 = max(0, x * SHRINK - margin), max(0, y * SHRINK - margin)
        x1, y1 = (
            min(image.shape[1], x * SHRINK + width + margin),
            min(image.shape[0], y * SHRINK + height + margin),
        )
    scores = cv2.matchTemplate(image[y0:y1, x0:x1], view, cv2.TM_SQDIFF)
    _, _, (x, y), _ = cv2.minMaxLoc(scores)
    return x0 + x, y0 + y
