"""Flags, mines, exploded mines and wrong-flag crosses for generated looks, drawn in any colour.

Why: the reader with no skin must name a mark by its shape wherever it comes from: a pennant on a pole,
a bare triangle, a filled mark, an emoji-like flag; a round or spiked mine or a dot on a coloured
square; a cross over a flag or a mine. Every mark is drawn supersampled into a cell-sized BGR tile in
place (anti-aliased edges like a vector client), scaled to the tile's content box.
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.looks.look import Color, shade

SS = 4
"""Supersampling factor for marks."""


def _stamp(tile: np.ndarray, draw) -> None:
    """Run ``draw(canvas, alpha, s)`` on a supersampled copy and blend its result into ``tile``."""
    h, w = tile.shape[:2]
    big = cv2.resize(tile, (w * SS, h * SS), interpolation=cv2.INTER_NEAREST)
    alpha = np.zeros((h * SS, w * SS), np.uint8)
    draw(big, alpha, float(min(w, h) * SS), (w * SS / 2, h * SS / 2))
    small = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
    cover = cv2.resize(alpha, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)[:, :, None] / 255
    tile[:] = np.round(tile * (1 - cover) + small * cover).astype(np.uint8)


def _poly(big: np.ndarray, alpha: np.ndarray, points, color: Color) -> None:
    pts = [np.round(np.asarray(points)).astype(np.int32)]
    cv2.fillPoly(big, pts, color)
    cv2.fillPoly(alpha, pts, 255)


def _line(big: np.ndarray, alpha: np.ndarray, a, b, width: float, color: Color) -> None:
    a, b = tuple(round(v) for v in a), tuple(round(v) for v in b)
    cv2.line(big, a, b, color, max(round(width), 1))
    cv2.line(alpha, a, b, 255, max(round(width), 1))


def _circle(big: np.ndarray, alpha: np.ndarray, centre, radius: float, color: Color) -> None:
    c = (round(centre[0]), round(centre[1]))
    cv2.circle(big, c, max(round(radius), 1), color, -1)
    cv2.circle(alpha, c, max(round(radius), 1), 255, -1)


def draw_flag(tile: np.ndarray, style: str, color: Color, ink: Color) -> None:
    """A flag mark of ``style`` (pennant, triangle, filled, emoji) in ``color`` on the tile."""

    def draw(big, alpha, s, centre):
        cx, cy = centre
        if style == "pennant":
            pole = cx + 0.08 * s
            _poly(
                big,
                alpha,
                [(pole, cy - 0.32 * s), (pole, cy + 0.02 * s), (cx - 0.24 * s, cy - 0.15 * s)],
                color,
            )
            _line(big, alpha, (pole, cy - 0.32 * s), (pole, cy + 0.22 * s), 0.07 * s, ink)
            _poly(big, alpha, [(cx - 0.25 * s, cy + 0.3 * s), (cx + 0.28 * s, cy + 0.3 * s),
                               (cx + 0.2 * s, cy + 0.2 * s), (cx - 0.17 * s, cy + 0.2 * s)], ink)  # fmt: skip
        elif style == "triangle":
            _poly(
                big,
                alpha,
                [(cx - 0.22 * s, cy - 0.28 * s), (cx + 0.3 * s, cy), (cx - 0.22 * s, cy + 0.28 * s)],
                color,
            )
        elif style == "filled":  # a filled diamond: a mark, no pole
            r = 0.3 * s
            _poly(big, alpha, [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], color)
        else:  # emoji-like: a rounded waving banner with an outline on a thin pole
            pole = cx - 0.2 * s
            _line(big, alpha, (pole, cy - 0.34 * s), (pole, cy + 0.36 * s), 0.06 * s, shade(ink, 1.0, 80))
            banner = [
                (pole, cy - 0.32 * s),
                (cx - 0.02 * s, cy - 0.27 * s),
                (cx + 0.14 * s, cy - 0.33 * s),
                (cx + 0.32 * s, cy - 0.3 * s),
                (cx + 0.32 * s, cy + 0.02 * s),
                (cx + 0.14 * s, cy - 0.01 * s),
                (cx - 0.02 * s, cy + 0.05 * s),
                (pole, cy),
            ]
            outline = [(x + (x - cx) * 0.12, y + (y - cy + 0.15 * s) * 0.12) for x, y in banner]
            _poly(big, alpha, outline, shade(color, 0.5))
            _poly(big, alpha, banner, color)

    _stamp(tile, draw)


def draw_mine(tile: np.ndarray, style: str, color: Color, ground: Color | None) -> None:
    """A mine of ``style`` (round, spiked, dot) in ``color``; ``dot`` first fills the tile with
    ``ground`` (the caller passes the content box) and draws a darker dot of that colour."""
    if style == "dot":
        tile[:] = ground
        color = shade(ground, 0.45)

    def draw(big, alpha, s, centre):
        cx, cy = centre
        if style == "dot":
            _circle(big, alpha, centre, 0.2 * s, color)
            return
        r = 0.24 * s
        if style == "spiked":
            for angle in range(0, 180, 45):
                t = np.radians(angle)
                dx, dy = np.cos(t) * 0.38 * s, np.sin(t) * 0.38 * s
                _line(big, alpha, (cx - dx, cy - dy), (cx + dx, cy + dy), 0.07 * s, color)
        _circle(big, alpha, centre, r, color)
        _circle(big, alpha, (cx - r * 0.35, cy - r * 0.35), r * 0.28, shade(color, 1.0, 150))

    _stamp(tile, draw)


def draw_cross(tile: np.ndarray, color: Color) -> None:
    """A cross over the whole tile (a wrong flag)."""

    def draw(big, alpha, s, centre):
        cx, cy = centre
        k = 0.34 * s
        for sign in (1, -1):
            _line(big, alpha, (cx - k, cy - sign * k), (cx + k, cy + sign * k), 0.09 * s, color)

    _stamp(tile, draw)
