"""Game status (playing / won / lost) from the face button, or from the board when a skin has no face.

The face sits above the board, centred or not; it is found by matching the skin's face templates,
scaled like the cells, in a band above the board, and the best-matching template names the status.
Once found, the face does not move while the board does not: a known face region (``geometry.face``,
or where it was last found for the same geometry) is only verified, a few pixels around it, and the
whole band is searched again only when the face is no longer there.

>>> from bot.board import Board
>>> status_from_board(Board.from_text("1X\\n.."), None).value
'lost'
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import cv2
import numpy as np

from bot.board import Board
from bot.game import GameStatus
from bot.geometry import Geometry, Region
from bot.skin import Skin
from bot.vision.classify import per_skin

LOGGER = logging.getLogger(__name__)

FACE_MAX_DISTANCE = 40.0
"""RMS colour distance (0-255) above which no face template is taken to be on screen."""

FACE_SEARCH_ROWS = 6.0
"""How far above the board the face is looked for, in cell pitches."""

FACE_SLACK = 2
"""Pixels around a known face region searched when verifying it (absorbs rounding of the region)."""

COARSE_FACE = 16
"""Faces at least this many pixels wide are first looked for at half resolution (4x fewer pixels to
slide over), then matched at full resolution around the coarse hit; the full band is searched at full
resolution only when that finds nothing."""

FACE_MEMORY = 16
"""Face regions remembered per (skin, geometry, image size), for callers that pass no ``face``."""


@dataclass(frozen=True)
class FaceMatch:
    """The face button found on screen: where, which status it shows, and how closely it matched."""

    region: Region
    status: GameStatus
    distance: float
    """RMS colour distance (0-255) of the best face template."""
    margin: float
    """Distance of the second-best face template minus the best (how sure the status is)."""


_Scaled = list[tuple[str, np.ndarray]]
_LAST_FACE: dict[tuple[int, Geometry, tuple[int, ...]], Region] = {}


def _scaled_faces(skin: Skin, scale_x: float, scale_y: float) -> _Scaled:
    """The skin's face templates resized like the cells, computed once per skin and scale."""
    cache: dict[tuple[float, float], _Scaled] = per_skin(skin, "scaled faces", lambda _: {})
    key = (round(scale_x, 6), round(scale_y, 6))
    scaled = cache.get(key)
    if scaled is None:
        scaled = []
        for name, template in skin.faces.items():
            size = (max(1, round(template.shape[1] * scale_x)), max(1, round(template.shape[0] * scale_y)))
            shrink = scale_x < 1
            scaled.append(
                (
                    name,
                    cv2.resize(template, size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR),
                )
            )
        if len(cache) >= FACE_MEMORY:
            cache.clear()
        cache[key] = scaled
    return scaled


def _around(region: Region, slack: int) -> Region:
    """``region`` grown by ``slack`` pixels on every side."""
    return Region(
        region.left - slack, region.top - slack, region.width + 2 * slack, region.height + 2 * slack
    )


def _search_band(image: np.ndarray, band: Region, faces: _Scaled, half: _Scaled) -> FaceMatch | None:
    """The face anywhere in ``band``: coarse to fine when the faces are big enough, else directly."""
    if min(min(scaled.shape[:2]) for _, scaled in faces) >= COARSE_FACE:
        window = image[band.top : band.bottom, band.left : band.right]
        small = cv2.resize(window, (window.shape[1] // 2, window.shape[0] // 2), interpolation=cv2.INTER_AREA)
        coarse = _match_faces(small, Region(0, 0, small.shape[1], small.shape[0]), half, limit=float("inf"))
        if coarse is not None:
            found = coarse.region
            hit = Region(
                band.left + 2 * found.left, band.top + 2 * found.top, 2 * found.width, 2 * found.height
            )
            match = _match_faces(image, _around(hit, 2 * FACE_SLACK), faces)
            if match is not None:
                return match
    return _match_faces(image, band, faces)


def _match_faces(
    image: np.ndarray, area: Region, faces: _Scaled, limit: float = FACE_MAX_DISTANCE
) -> FaceMatch | None:
    """The best face template anywhere inside ``area`` of ``image`` (clipped to it), if one is close."""
    height, width = image.shape[:2]
    left, top = max(0, area.left), max(0, area.top)
    window = image[top : max(top, min(height, area.bottom)), left : max(left, min(width, area.right))]
    scores: list[tuple[float, str, tuple[int, int], tuple[int, int]]] = []
    for name, scaled in faces:
        h, w = scaled.shape[:2]
        if window.shape[0] < h or window.shape[1] < w:
            continue
        result = cv2.matchTemplate(window, scaled, cv2.TM_SQDIFF)
        low, _, where, _ = cv2.minMaxLoc(result)
        scores.append((float(np.sqrt(max(low, 0.0) / scaled.size)), name, where, (w, h)))
    if not scores:
        return None
    scores.sort()
    distance, name, (x, y), (w, h) = scores[0]
    if distance > limit:
        return None
    margin = scores[1][0] - distance if len(scores) > 1 else float("inf")
    return FaceMatch(Region(left + x, top + y, w, h), GameStatus(name), distance, margin)


def find_face(image: np.ndarray, geometry: Geometry, skin: Skin) -> FaceMatch | None:
    """Find the skin's face button above the board; ``None`` when the skin has none or none is seen.

    A face region already known (``geometry.face``, else the one last found for this geometry on an
    image of this size) is verified first; the band above the board is searched when that fails.
    """
    if not skin.faces:
        return None
    scale_x, scale_y = geometry.pitch_x / skin.cell_size, geometry.pitch_y / skin.cell_size
    faces = _scaled_faces(skin, scale_x, scale_y)
    bare = replace(geometry, face=None)
    memory_key = (id(skin), bare, image.shape)
    known = geometry.face or _LAST_FACE.get(memory_key)
    if known is not None:
        match = _match_faces(image, _around(known, FACE_SLACK), faces)
        if match is not None:
            return match
    board = geometry.region()
    top = round(board.top - FACE_SEARCH_ROWS * geometry.pitch_y)
    band_height = board.top - max(0, top)
    if band_height <= 0:
        return None
    left = max(0, board.left)
    band = Region(left, max(0, top), max(1, min(image.shape[1], board.right) - left), band_height)
    match = _search_band(image, band, faces, _scaled_faces(skin, scale_x / 2, scale_y / 2))
    if match is None:
        LOGGER.info("no %s face above the board", skin.name)
        return None
    if len(_LAST_FACE) >= FACE_MEMORY:
        _LAST_FACE.clear()
    _LAST_FACE[memory_key] = match.region
    return match


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
