"""Game status (playing / won / lost) from the face button, or from the board when a skin has no face.

The face sits above the board, centred or not; it is found by matching the skin's face templates,
scaled like the cells, in a band above the board, and the best-matching template names the status.

>>> from bot.board import Board
>>> status_from_board(Board.from_text("1X\\n.."), None).value
'lost'
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Board
from bot.game import GameStatus
from bot.geometry import Geometry, Region
from bot.skin import Skin

LOGGER = logging.getLogger(__name__)

FACE_MAX_DISTANCE = 40.0
"""RMS colour distance (0-255) above which no face template is taken to be on screen."""

FACE_SEARCH_ROWS = 6.0
"""How far above the board the face is looked for, in cell pitches."""


@dataclass(frozen=True)
class FaceMatch:
    """The face button found on screen: where, which status it shows, and how closely it matched."""

    region: Region
    status: GameStatus
    distance: float
    """RMS colour distance (0-255) of the best face template."""
    margin: float
    """Distance of the second-best face template minus the best (how sure the status is)."""


def find_face(image: np.ndarray, geometry: Geometry, skin: Skin) -> FaceMatch | None:
    """Find the skin's face button above the board; ``None`` when the skin has none or none is seen."""
    if not skin.faces:
        return None
    scale_x, scale_y = geometry.pitch_x / skin.cell_size, geometry.pitch_y / skin.cell_size
    board = geometry.region()
    height, width = image.shape[:2]
    top = max(0, round(board.top - FACE_SEARCH_ROWS * geometry.pitch_y))
    band = image[top : max(top, board.top), max(0, board.left) : min(width, board.right)]
    scores: list[tuple[float, str, tuple[int, int], tuple[int, int]]] = []
    for name, template in skin.faces.items():
        size = (max(1, round(template.shape[1] * scale_x)), max(1, round(template.shape[0] * scale_y)))
        if band.shape[0] < size[1] or band.shape[1] < size[0]:
            continue
        scaled = cv2.resize(template, size, interpolation=cv2.INTER_AREA if scale_x < 1 else cv2.INTER_LINEAR)
        result = cv2.matchTemplate(band, scaled, cv2.TM_SQDIFF)
        low, _, where, _ = cv2.minMaxLoc(result)
        scores.append((float(np.sqrt(max(low, 0.0) / scaled.size)), name, where, size))
    if not scores:
        return None
    scores.sort()
    distance, name, (x, y), (w, h) = scores[0]
    if distance > FACE_MAX_DISTANCE:
        LOGGER.info("no %s face above the board (best distance %.1f)", skin.name, distance)
        return None
    margin = scores[1][0] - distance if len(scores) > 1 else float("inf")
    region = Region(max(0, board.left) + x, top + y, w, h)
    return FaceMatch(region, GameStatus(name), distance, margin)


def status_from_board(board: Board, face: FaceMatch | None) -> GameStatus:
    """The status the face shows, else what the board shows (an exploded mine: lost; all safe cells
    open: won, which needs the mine count; otherwise playing)."""
    if face is not None:
        return face.status
    if board.is_lost():
        return GameStatus.LOST
    if board.is_won():
        return GameStatus.WON
    return GameStatus.PLAYING
