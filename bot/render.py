"""Draw boards and whole fake screenshots: the ``classic`` skin as vector shapes, other skins from templates.

Why: vision, calibration and the mock client need screenshots of every state at every scale. The
``classic`` look (winmine XP, Minesweeper X, minesweeper.online light) is drawn from shapes in design
units (a cell is 16 units, a face 26, an LCD counter 41x25), supersampled and area-downsampled, so
``scale=1.25`` gives a genuinely redrawn 20 px cell and a 32.64 px pitch gives 32/33 px cells placed
exactly as :class:`bot.geometry.Geometry` says (cell ``c`` starts at ``round(left + c * pitch)``).

>>> from bot.board import Board
>>> render_board(Board.from_text("1.\\n.F"), scale=1.25).shape
(40, 40, 3)

Regenerate the shipped skin with ``python -m bot.render --write-classic templates/classic``.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from bot.board import Board, Cell, Coord
from bot.errors import MinebotError
from bot.game import GameStatus
from bot.geometry import Geometry, Region
from bot.hershey import put_text
from bot.skin import FACE_NAMES, STATE_NAMES, TEMPLATES_DIR, Skin, find_skin

LOGGER = logging.getLogger(__name__)

Color = tuple[int, int, int]
"""A BGR colour."""

GREY: Color = (192, 192, 192)
DARK: Color = (128, 128, 128)
WHITE: Color = (255, 255, 255)
BLACK: Color = (0, 0, 0)
RED: Color = (0, 0, 255)
YELLOW: Color = (0, 255, 255)
LCD_ON: Color = (0, 0, 255)
LCD_OFF: Color = (0, 0, 88)
TITLE_BLUE: Color = (128, 0, 0)

DIGIT_COLORS: dict[int, Color] = {
    1: (255, 0, 0),
    2: (0, 128, 0),
    3: (0, 0, 255),
    4: (128, 0, 0),
    5: (0, 0, 128),
    6: (128, 128, 0),
    7: (0, 0, 0),
    8: (128, 128, 128),
}
"""Classic digit colours (BGR): 1 blue, 2 green, 3 red, 4 navy, 5 maroon, 6 teal, 7 black, 8 grey."""

CELL_UNITS = 16
"""A classic cell is 16 design units square (16 px at scale 1)."""
FACE_UNITS = 26
LCD_UNITS = (41, 25)
SUPERSAMPLE = 8
"""Shapes are filled at 8x and area-downsampled: anti-aliasing with exact pixel coverage for rectangles."""

CLASSIC = "classic"


class RenderError(MinebotError, ValueError):
    """A render request cannot be met: bad scale, a window too big for the screen, a missing template."""


# -- a supersampled canvas addressed in design units -------------------------------------------------

Point = tuple[float, float]


class _Canvas:
    """A drawing surface in design units: rectangles fill exact pixel spans, other shapes use fillPoly."""

    def __init__(self, image: np.ndarray, units_x: float, units_y: float, ss: int) -> None:
        self.image = image
        self.ss = ss
        self.kx = image.shape[1] / units_x
        self.ky = image.shape[0] / units_y

    @classmethod
    def blank(cls, width: int, height: int, units_x: float, units_y: float, color: Color) -> _Canvas:
        """A fresh supersampled canvas for an image of ``width`` x ``height`` final pixels."""
        image = np.empty((height * SUPERSAMPLE, width * SUPERSAMPLE, 3), np.uint8)
        image[:] = color
        return cls(image, units_x, units_y, SUPERSAMPLE)

    def result(self) -> np.ndarray:
        """The final image: the supersampled one area-averaged down."""
        if self.ss == 1:
            return self.image
        h, w = self.image.shape[0] // self.ss, self.image.shape[1] // self.ss
        return cv2.resize(self.image, (w, h), interpolation=cv2.INTER_AREA)

    def rect(self, x0: float, y0: float, x1: float, y1: float, color: Color) -> None:
        """Fill the axis-aligned box [x0, x1) x [y0, y1)."""
        c0, c1 = max(round(x0 * self.kx), 0), max(round(x1 * self.kx), 0)
        r0, r1 = max(round(y0 * self.ky), 0), max(round(y1 * self.ky), 0)
        self.image[r0:r1, c0:c1] = color

    def poly(self, points: Sequence[Point], color: Color) -> None:
        """Fill a polygon given in design units (sub-pixel vertices, 4 shift bits)."""
        pts = (np.asarray(points, dtype=np.float64) * (self.kx, self.ky) - 0.5) * 16
        cv2.fillPoly(self.image, [np.round(pts).astype(np.int32)], color, cv2.LINE_8, 4)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, color: Color) -> None:
        """Fill an ellipse (a circle when rx == ry)."""
        t = np.linspace(0, 2 * math.pi, 72, endpoint=False)
        self.poly(np.column_stack([cx + rx * np.cos(t), cy + ry * np.sin(t)]), color)

    def line(self, a: Point, b: Point, width: float, color: Color) -> None:
        """A straight stroke of ``width`` units with square ends at a and b."""
        (x0, y0), (x1, y1) = a, b
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = -(y1 - y0) / length * width / 2, (x1 - x0) / length * width / 2
        self.poly([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)], color)

    def arc(
        self, cx: float, cy: float, radius: float, start: float, end: float, width: float, color: Color
    ) -> None:
        """A circular arc stroke from ``start`` to ``end`` degrees (0 = east, clockwise as y points down)."""
        t = np.radians(np.linspace(start, end, 24))
        r_out, r_in = radius + width / 2, radius - width / 2
        outer = np.column_stack([cx + r_out * np.cos(t), cy + r_out * np.sin(t)])
        inner = np.column_stack([cx + r_in * np.cos(t), cy + r_in * np.sin(t)])[::-1]
        self.poly(np.vstack([outer, inner]), color)

    def bevel(
        self, x0: float, y0: float, x1: float, y1: float, width: float, light: Color, shade: Color
    ) -> None:
        """A 3-D edge: ``light`` on the top and left, ``shade`` on the bottom and right, mitred corners."""
        c0, c1 = round(x0 * self.kx), round(x1 * self.kx)
        r0, r1 = round(y0 * self.ky), round(y1 * self.ky)
        wx, wy = max(round(width * self.kx), 1), max(round(width * self.ky), 1)
        self.image[r1 - wy : r1, c0:c1] = shade
        self.image[r0:r1, c1 - wx : c1] = shade
        for i in range(wy):  # light rows, one pixel shorter each: a mitred staircase at the corner
            self.image[r0 + i, c0 : c1 - 1 - i * wx // wy] = light
        for i in range(wx):
            self.image[r0 : r1 - 1 - i * wy // wx, c0 + i] = light


# -- the classic cell glyphs (design units: the cell is 0..16, the grid line is at 0..1) ---------------

Rect = tuple[float, float, float, float]

_DIGIT_RECTS: dict[int, list[Rect]] = {
    1: [(8, 3, 10, 4), (7, 4, 10, 5), (6, 5, 10, 6), (5, 6, 10, 7), (7, 7, 10, 11), (5, 11, 12, 13)],
    2: [(4, 3, 12, 5), (3, 4, 6, 6), (10, 4, 13, 7), (3, 11, 13, 13)],
    3: [(3, 3, 12, 5), (10, 4, 13, 7), (6, 7, 12, 9), (10, 9, 13, 12), (3, 11, 12, 13)],
    4: [(5, 3, 8, 5), (4, 5, 7, 7), (3, 7, 13, 9), (9, 3, 12, 13)],
    5: [(3, 3, 13, 5), (3, 5, 6, 7), (3, 7, 12, 9), (10, 8, 13, 12), (3, 11, 12, 13)],
    6: [(4, 3, 12, 5), (3, 4, 6, 12), (6, 7, 12, 9), (10, 8, 13, 12), (4, 11, 12, 13)],
    7: [(3, 3, 13, 5), (10, 5, 13, 7), (9, 7, 12, 9), (8, 9, 11, 11), (7, 11, 10, 13)],
    8: [(4, 3, 12, 5), (3, 4, 6, 7), (10, 4, 13, 7), (4, 7, 12, 9)]
    + [(3, 9, 6, 12), (10, 9, 13, 12), (4, 11, 12, 13)],
}
"""Blocky bold strokes of the digits, like winmine's, as boxes in the 16-unit cell."""

_DIGIT_POLYS: dict[int, list[list[Point]]] = {
    2: [[(10, 6), (13, 6), (13, 7), (6.5, 11.5), (3, 11.5), (3, 10)]],
}
"""The digits' slanted parts as polygons."""


def _revealed_background(canvas: _Canvas, fill: Color = GREY) -> None:
    canvas.rect(0, 0, CELL_UNITS, CELL_UNITS, DARK)
    canvas.rect(1, 1, CELL_UNITS, CELL_UNITS, fill)


def _draw_covered(canvas: _Canvas) -> None:
    canvas.rect(0, 0, CELL_UNITS, CELL_UNITS, GREY)
    canvas.bevel(0, 0, CELL_UNITS, CELL_UNITS, 2, WHITE, DARK)


def _draw_digit(canvas: _Canvas, n: int) -> None:
    color = DIGIT_COLORS[n]
    for box in _DIGIT_RECTS.get(n, []):
        canvas.rect(*box, color)
    for points in _DIGIT_POLYS.get(n, []):
        canvas.poly(points, color)


def _draw_mine(canvas: _Canvas) -> None:
    cx = cy = 8.5
    canvas.rect(cx - 0.5, 3.5, cx + 0.5, 13.5, BLACK)
    canvas.rect(3.5, cy - 0.5, 13.5, cy + 0.5, BLACK)
    for dx, dy in ((1, 1), (1, -1)):
        canvas.line((cx - 3.6 * dx, cy - 3.6 * dy), (cx + 3.6 * dx, cy + 3.6 * dy), 1.2, BLACK)
    canvas.ellipse(cx, cy, 3.6, 3.6, BLACK)
    canvas.rect(6.5, 6.5, 8, 8, WHITE)


def _draw_flag(canvas: _Canvas) -> None:
    canvas.poly([(9, 2.5), (9, 8.5), (3.5, 5.5)], RED)
    canvas.rect(8, 8, 9, 10, BLACK)
    canvas.rect(6, 10, 11, 11, BLACK)
    canvas.rect(4, 11, 13, 13, BLACK)


def _draw_cell(canvas: _Canvas, cell: Cell) -> None:
    if cell is Cell.COVERED:
        _draw_covered(canvas)
    elif cell is Cell.FLAG:
        _draw_covered(canvas)
        _draw_flag(canvas)
    elif cell.is_number():
        _revealed_background(canvas)
        if cell:
            _draw_digit(canvas, int(cell))
    elif cell is Cell.EXPLODED:
        _revealed_background(canvas, RED)
        _draw_mine(canvas)
    else:  # MINE and WRONG_FLAG
        _revealed_background(canvas)
        _draw_mine(canvas)
        if cell is Cell.WRONG_FLAG:
            canvas.line((3, 3), (14, 14), 1.4, RED)
            canvas.line((14, 3), (3, 14), 1.4, RED)


@lru_cache(maxsize=512)
def classic_cell(cell: Cell, width: int = 16, height: int = 16) -> np.ndarray:
    """One classic cell drawn at ``width`` x ``height`` pixels (BGR, read-only; cached per size)."""
    if width < 1 or height < 1:
        raise RenderError(f"a cell needs a positive size, got {width}x{height}")
    canvas = _Canvas.blank(width, height, CELL_UNITS, CELL_UNITS, GREY)
    _draw_cell(canvas, Cell(cell))
    image = canvas.result()
    image.flags.writeable = False
    return image


# -- faces and LCD counters ---------------------------------------------------------------------------


def _draw_face(canvas: _Canvas, status: str) -> None:
    u = FACE_UNITS
    canvas.rect(0, 0, u, u, DARK)
    canvas.rect(1, 1, u, u, GREY)
    canvas.bevel(1, 1, u - 1, u - 1, 2, WHITE, DARK)
    c = 13.0
    canvas.ellipse(c, c, 8.5, 8.5, BLACK)
    canvas.ellipse(c, c, 7.5, 7.5, YELLOW)
    if status == "lost":
        for ex in (10.0, 16.0):
            canvas.line((ex - 1.5, 8.5), (ex + 1.5, 11.5), 1, BLACK)
            canvas.line((ex + 1.5, 8.5), (ex - 1.5, 11.5), 1, BLACK)
        canvas.arc(c, 20.5, 4.5, 215, 325, 1, BLACK)
        return
    if status == "won":
        canvas.line((5.5, 9.5), (20.5, 9.5), 1, BLACK)
        canvas.poly([(7.5, 9), (12.5, 9), (12, 12.5), (8.5, 12.5)], BLACK)
        canvas.poly([(13.5, 9), (18.5, 9), (17.5, 12.5), (14, 12.5)], BLACK)
    else:
        canvas.rect(9, 9, 11, 11, BLACK)
        canvas.rect(15, 9, 17, 11, BLACK)
    canvas.arc(c, 13.5, 5, 35, 145, 1, BLACK)


@lru_cache(maxsize=64)
def classic_face(status: str, size: int = FACE_UNITS) -> np.ndarray:
    """The classic face button (``playing``, ``won`` or ``lost``) at ``size`` px square (BGR, read-only)."""
    if status not in FACE_NAMES:
        raise RenderError(f"unknown face {status!r}; faces are {FACE_NAMES}")
    canvas = _Canvas.blank(size, size, FACE_UNITS, FACE_UNITS, GREY)
    _draw_face(canvas, status)
    image = canvas.result()
    image.flags.writeable = False
    return image


# Seven segments of one LCD digit in a 13x23 unit slot: a top, b upper right, c lower right, d bottom,
# e lower left, f upper left, g middle.
_SEGMENTS: dict[str, list[Point]] = {
    "a": [(2, 1), (11, 1), (9, 3), (4, 3)],
    "b": [(11, 2), (11, 11), (10, 11.5), (9, 10.5), (9, 4)],
    "c": [(11, 12), (11, 21), (9, 19), (9, 12.5), (10, 11.5)],
    "d": [(2, 22), (4, 20), (9, 20), (11, 22)],
    "e": [(2, 12), (3, 11.5), (4, 12.5), (4, 19), (2, 21)],
    "f": [(2, 2), (4, 4), (4, 10.5), (3, 11.5), (2, 11)],
    "g": [(3, 11.5), (4, 10.5), (9, 10.5), (10, 11.5), (9, 12.5), (4, 12.5)],
}
_DIGIT_SEGMENTS = {
    "0": "abcdef",
    "1": "bc",
    "2": "abdeg",
    "3": "abcdg",
    "4": "bcfg",
    "5": "acdfg",
    "6": "acdefg",
    "7": "abc",
    "8": "abcdefg",
    "9": "abcdfg",
    "-": "g",
    " ": "",
}


def lcd_text(value: int) -> str:
    """The three characters a classic counter shows for ``value`` (clamped to -99..999)."""
    value = max(-99, min(999, int(value)))
    return f"-{-value:02d}" if value < 0 else f"{value:03d}"


@lru_cache(maxsize=256)
def classic_counter(value: int, width: int = LCD_UNITS[0], height: int = LCD_UNITS[1]) -> np.ndarray:
    """A red-on-black 7-segment LCD counter showing ``value`` (BGR, read-only)."""
    ux, uy = LCD_UNITS
    canvas = _Canvas.blank(width, height, ux, uy, BLACK)
    canvas.bevel(0, 0, ux, uy, 1, DARK, WHITE)
    for slot, char in enumerate(lcd_text(value)):
        on = _DIGIT_SEGMENTS[char]
        for name, points in _SEGMENTS.items():
            shifted = [(1 + 13 * slot + x, 1 + y) for x, y in points]
            canvas.poly(shifted, LCD_ON if name in on else LCD_OFF)
    image = canvas.result()
    image.flags.writeable = False
    return image


# -- boards in any skin -------------------------------------------------------------------------------


def _is_vector_classic(skin: Skin | str) -> bool:
    if isinstance(skin, str):
        return skin == CLASSIC
    return skin.name == CLASSIC and skin.path.resolve() == (TEMPLATES_DIR / CLASSIC).resolve()


def resolve_skin(skin: Skin | str) -> Skin | None:
    """None for the vector-drawn classic skin, else the loaded Skin."""
    if _is_vector_classic(skin):
        return None
    return find_skin(skin) if isinstance(skin, str) else skin


def _resize(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """A template at a new size: INTER_AREA when shrinking, INTER_LINEAR when growing."""
    if image.shape[1] == width and image.shape[0] == height:
        return image
    shrink = width * height < image.shape[0] * image.shape[1]
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)


def _check_scale(scale: float) -> None:
    if not (isinstance(scale, (int, float)) and math.isfinite(scale) and 0.25 <= scale <= 8):
        raise RenderError(f"scale must be a number from 0.25 to 8, got {scale!r}")


def _board_geometry(board: Board, cell_size: int, scale: float) -> Geometry:
    pitch = cell_size * scale
    return Geometry(left=0, top=0, pitch_x=pitch, pitch_y=pitch, rows=board.rows, cols=board.cols)


def _cell_image(skin: Skin | None, cell: Cell, width: int, height: int) -> np.ndarray:
    if skin is None:
        return classic_cell(cell, width, height)
    if cell not in skin.cells:
        raise RenderError(f"skin {skin.name!r} has no template for {cell.name} cells, so cannot draw them")
    return _resize(skin.cells[cell], width, height)


def paint_board(
    target: np.ndarray,
    board: Board,
    skin: Skin | None,
    geometry: Geometry,
    cells: Iterable[Coord] | None = None,
) -> None:
    """Paint cells (default: all) into ``target`` where ``geometry`` puts them (target coordinates).

    ``skin`` is None for the vector-drawn classic skin (see :func:`resolve_skin`).
    """
    for row, col in board if cells is None else cells:
        rect = geometry.cell_rect((row, col))
        target[rect.top : rect.bottom, rect.left : rect.right] = _cell_image(
            skin, board[row, col], rect.width, rect.height
        )


def render_board(board: Board, skin: Skin | str = CLASSIC, scale: float = 1.0) -> np.ndarray:
    """A BGR image of just the cell grid of ``board`` drawn in ``skin`` at ``scale``.

    ``"classic"`` is drawn as vector shapes at the scale; other skins resize their templates to each
    cell's rounded rectangle. Cell ``c`` starts at ``round(c * pitch)`` as in :class:`Geometry`.

    Raises:
        RenderError: for a bad scale or a state the skin has no template for.
        SkinError: when a skin named by string cannot be found or loaded.
    """
    _check_scale(scale)
    loaded = resolve_skin(skin)
    geometry = _board_geometry(board, loaded.cell_size if loaded else CELL_UNITS, scale)
    region = geometry.region()
    image = np.empty((region.height, region.width, 3), np.uint8)
    paint_board(image, board, loaded, geometry)
    return image


def jpeg_roundtrip(image: np.ndarray, quality: int = 85) -> np.ndarray:
    """The image after JPEG compression at ``quality`` (1-100): what a lossy screenshot looks like."""
    if not 1 <= quality <= 100:
        raise RenderError(f"JPEG quality must be 1-100, got {quality!r}")
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RenderError("OpenCV could not encode the image as JPEG")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


# -- the client window and the screen around it --------------------------------------------------------


@dataclass(frozen=True)
class WindowLayout:
    """Where the parts of a classic client window are, relative to its top-left corner, in pixels."""

    width: int
    height: int
    title_height: int
    client: Region
    header: Region
    mines_counter: Region
    timer: Region
    face: Region
    board_frame: Region
    board_left: int
    board_top: int

    @classmethod
    def compute(cls, board_width: int, board_height: int, scale: float) -> WindowLayout:
        """Lay out frame, title, menu, header (counters and face) and the sunken board frame."""

        def px(units: float) -> int:
            return max(round(units * scale), 1)

        frame, title, menu, bevel, margin, header_h, sunk = px(4), px(18), px(19), px(3), px(6), px(37), px(3)
        inner_w = max(board_width + 2 * sunk, px(140))
        client_w = 2 * (bevel + margin) + inner_w
        client_h = 2 * (bevel + margin) + header_h + margin + board_height + 2 * sunk
        client = Region(frame, frame + title + menu, client_w, client_h)
        header = Region(client.left + bevel + margin, client.top + bevel + margin, inner_w, header_h)
        lcd_w, lcd_h, face = px(LCD_UNITS[0]), px(LCD_UNITS[1]), px(FACE_UNITS)
        pad = px(6)
        mines = Region(header.left + pad, header.top + (header_h - lcd_h) // 2, lcd_w, lcd_h)
        timer = Region(header.right - pad - lcd_w, mines.top, lcd_w, lcd_h)
        face_r = Region(header.left + (inner_w - face) // 2, header.top + (header_h - face) // 2, face, face)
        frame_top = header.bottom + margin
        board_frame = Region(header.left, frame_top, inner_w, board_height + 2 * sunk)
        board_left = header.left + (inner_w - board_width) // 2
        return cls(
            width=client.right + frame,
            height=client.bottom + frame,
            title_height=title,
            client=client,
            header=header,
            mines_counter=mines,
            timer=timer,
            face=face_r,
            board_frame=board_frame,
            board_left=board_left,
            board_top=frame_top + sunk,
        )


def pixel_canvas(image: np.ndarray) -> _Canvas:
    """A canvas whose units are the image's own pixels (no supersampling) for window chrome."""
    return _Canvas(image, image.shape[1], image.shape[0], 1)


def _text(
    image: np.ndarray, text: str, x: int, y: int, size: float, color: Color, bold: bool = False
) -> None:
    put_text(image, text, (x, y), "simplex", size, color, 2 if bold else 1, cv2.LINE_AA)


def draw_window_frame(canvas: _Canvas, x: int, y: int, w: int, h: int, title: str, scale: float) -> int:
    """A classic window (raised frame, blue title bar, close button); returns the title bar's bottom."""
    t = max(round(scale), 1)
    bar_h = max(round(18 * scale), 8)
    canvas.rect(x, y, x + w, y + h, GREY)
    canvas.bevel(x, y, x + w, y + h, 2 * t, WHITE, DARK)
    bx0, by0 = x + 2 * t + 1, y + 2 * t + 1
    canvas.rect(bx0, by0, x + w - 2 * t - 1, by0 + bar_h, TITLE_BLUE)
    _text(canvas.image, title, bx0 + 3 * t, by0 + bar_h - max(round(5 * scale), 2), 0.4 * scale, WHITE, True)
    size = bar_h - 4 * t
    cx = x + w - 2 * t - 3 * t - size
    if size > 4 and cx > bx0:
        canvas.rect(cx, by0 + 2 * t, cx + size, by0 + 2 * t + size, GREY)
        canvas.bevel(cx, by0 + 2 * t, cx + size, by0 + 2 * t + size, t, WHITE, DARK)
        lo, hi, top = size * 0.3, size * 0.7, by0 + 2 * t
        canvas.line((cx + lo, top + lo), (cx + hi, top + hi), t, BLACK)
        canvas.line((cx + hi, top + lo), (cx + lo, top + hi), t, BLACK)
    return by0 + bar_h


def _face_image(skin: Skin | None, status: GameStatus, size: int) -> np.ndarray | None:
    if skin is None:
        return classic_face(status.value, size)
    template = skin.faces.get(status.value)
    return None if template is None else _resize(template, size, size)


def _paste(target: np.ndarray, image: np.ndarray, region: Region) -> None:
    target[region.top : region.bottom, region.left : region.right] = image


def paint_status(
    target: np.ndarray,
    layout: WindowLayout,
    skin: Skin | None,
    status: GameStatus,
    mines_left: int,
    seconds: int,
    offset: tuple[int, int] = (0, 0),
) -> bool:
    """Paint the two counters and the face of a window laid out by ``layout`` whose corner is at
    ``offset`` in ``target``; returns whether the skin has a face to paint."""
    m, t, f = (r.offset(*offset) for r in (layout.mines_counter, layout.timer, layout.face))
    _paste(target, classic_counter(mines_left, m.width, m.height), m)
    _paste(target, classic_counter(seconds, t.width, t.height), t)
    face = _face_image(skin, status, f.width)
    if face is not None:
        _paste(target, face, f)
    return face is not None


def draw_client(
    board: Board,
    skin: Skin | None,
    scale: float,
    cell_size: int,
    status: GameStatus,
    mines_left: int,
    seconds: int,
) -> tuple[np.ndarray, Geometry]:
    """The whole client window as an image, and the board's Geometry relative to the window's corner."""
    pitch = cell_size * scale
    cells = _board_geometry(board, cell_size, scale).region()
    layout = WindowLayout.compute(cells.width, cells.height, scale)
    window = np.empty((layout.height, layout.width, 3), np.uint8)
    canvas = pixel_canvas(window)
    draw_window_frame(canvas, 0, 0, layout.width, layout.height, "Minesweeper", scale)
    menu_y = layout.client.top - max(round(5 * scale), 2)
    _text(window, "Game   Help", layout.client.left + round(6 * scale), menu_y, 0.4 * scale, BLACK)
    c, hd, bf = layout.client, layout.header, layout.board_frame
    bevel, sunk, edge = max(round(3 * scale), 1), max(round(3 * scale), 1), max(round(2 * scale), 1)
    canvas.bevel(c.left, c.top, c.right, c.bottom, bevel, WHITE, DARK)
    canvas.bevel(hd.left, hd.top, hd.right, hd.bottom, edge, DARK, WHITE)
    canvas.bevel(bf.left, bf.top, bf.right, bf.bottom, sunk, DARK, WHITE)
    has_face = paint_status(window, layout, skin, status, mines_left, seconds)
    geometry = Geometry(
        left=layout.board_left,
        top=layout.board_top,
        pitch_x=pitch,
        pitch_y=pitch,
        rows=board.rows,
        cols=board.cols,
        face=layout.face if has_face else None,
    )
    paint_board(window, board, skin, geometry)
    return window, geometry


_WORDS = tuple(
    [
        "report",
        "budget",
        "meeting",
        "notes",
        "draft",
        "invoice",
        "photo",
        "music",
        "settings",
        "update",
        "minesweeper",
        "grid",
        "cell",
        "project",
        "readme",
        "python",
        "release",
        "window",
        "file",
        "edit",
        "view",
        "help",
        "search",
        "download",
        "table",
        "total",
    ]
)


TASKBAR_HEIGHT = 30
"""The clutter's taskbar along the bottom of the screen; random window placement keeps above it."""


def draw_clutter(canvas: _Canvas, rng: np.random.Generator, width: int, height: int) -> None:
    """Other things on a desktop: windows with text, icons, a taskbar and grey panels that are no board."""
    image = canvas.image
    for i in range(int(rng.integers(5, 9))):  # desktop icons down the left edge
        y = 12 + i * 78
        if y + 60 > height:
            break
        color = tuple(int(v) for v in rng.integers(40, 255, 3))
        canvas.rect(20, y, 52, y + 32, color)
        _text(image, str(rng.choice(_WORDS)), 10, y + 48, 0.4, WHITE)
    for _ in range(int(rng.integers(2, 5))):  # text windows
        w, h = int(rng.integers(220, 520)), int(rng.integers(160, 380))
        w, h = min(w, width), min(h, height)  # a small screen: the window fills it
        x, y = int(rng.integers(0, max(width - w, 1))), int(rng.integers(0, max(height - h, 1)))
        top = draw_window_frame(canvas, x, y, w, h, " ".join(rng.choice(_WORDS, 2)), 1.0)
        canvas.rect(x + 4, top + 2, x + w - 4, y + h - 4, WHITE)
        for line_y in range(top + 20, y + h - 10, 18):
            _text(image, " ".join(rng.choice(_WORDS, 4)), x + 10, line_y, 0.45, BLACK)
    w, h = 190, 230  # a calculator
    x, y = int(rng.integers(0, max(width - w, 1))), int(rng.integers(0, max(height - h, 1)))
    if w <= width and h <= height:  # on a screen too small for it, no dialog
        _draw_calculator(canvas, x, y, w, h)
    _draw_taskbar(canvas, width, height)


def _draw_calculator(canvas: _Canvas, x: int, y: int, w: int, h: int) -> None:
    """A grey dialog with a grid of bevelled buttons: grey, regular, and not a board."""
    image = canvas.image
    top = draw_window_frame(canvas, x, y, w, h, "Calculator", 1.0)
    for r in range(5):
        for col in range(4):
            bx, by = x + 12 + col * 42, top + 20 + r * 34
            canvas.bevel(bx, by, bx + 36, by + 26, 2, WHITE, DARK)
            _text(image, "789/456*123-0.=+"[(r * 4 + col) % 16], bx + 12, by + 18, 0.5, BLACK)


def _draw_taskbar(canvas: _Canvas, width: int, height: int) -> None:
    """The taskbar along the bottom with its Start button (as far as the screen has room)."""
    bar = TASKBAR_HEIGHT
    canvas.rect(0, height - bar, width, height, GREY)
    canvas.bevel(0, height - bar, width, height, 1, WHITE, DARK)
    if width >= 3 + 70 and height >= bar:
        canvas.bevel(3, height - bar + 3, 3 + 70, height - 3, 2, WHITE, DARK)
    _text(canvas.image, "Start", 12, height - bar // 2 + 5, 0.5, BLACK, True)


def _draw_cursor(canvas: _Canvas, x: int, y: int, scale: float) -> None:
    """A standard arrow pointer (white with a black outline) with its tip at (x, y)."""
    shape = [(0, 0), (0, 16), (4, 12.5), (7, 18.5), (9.5, 17.5), (6.5, 11.5), (11.5, 11.5)]
    outline = [(x + px * scale, y + py * scale) for px, py in shape]
    canvas.poly(outline, BLACK)
    cx, cy = x + 3.2 * scale, y + 9 * scale
    inner = [(cx + (ox - cx) * 0.72, cy + (oy - cy) * 0.72) for ox, oy in outline]
    canvas.poly(inner, WHITE)


def _background(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A seeded desktop: a flat classic colour or a vertical gradient."""
    top = rng.integers(0, 200, 3).astype(np.float32)
    bottom = rng.integers(0, 200, 3).astype(np.float32)
    if rng.random() < 0.4:
        bottom = top
    ramp = np.linspace(0.0, 1.0, height, dtype=np.float32)[:, None, None]
    column = (top * (1 - ramp) + bottom * ramp).astype(np.uint8)
    return np.ascontiguousarray(np.broadcast_to(column, (height, width, 3)))


def render_screen(
    board: Board,
    skin: Skin | str = CLASSIC,
    scale: float = 1.0,
    *,
    status: GameStatus = GameStatus.PLAYING,
    mines_left: int | None = None,
    seconds: int = 0,
    screen_size: tuple[int, int] = (1920, 1080),
    origin: tuple[int, int] | None = None,
    seed: int = 0,
    clutter: bool = True,
    cursor_at: tuple[int, int] | None = None,
) -> tuple[np.ndarray, Geometry]:
    """A full fake screenshot: a desktop with clutter and the client window (top-left at ``origin``).

    ``origin=None`` places the window at a seeded random spot; ``mines_left`` defaults to mines minus
    flags. Returns the BGR image and the board's true screen :class:`Geometry` (``.face`` set when the
    skin has faces). ``cursor_at`` draws a mouse arrow with its tip at that pixel.

    Raises:
        RenderError: for a bad scale or screen size, or a window that does not fit on the screen.
    """
    _check_scale(scale)
    width, height = screen_size
    if width < 1 or height < 1:
        raise RenderError(f"screen size must be positive, got {screen_size!r}")
    loaded = resolve_skin(skin)
    if mines_left is None:
        mines_left = (board.mines or 0) - int(board.flagged_mask().sum())
    window, geometry = draw_client(
        board, loaded, scale, loaded.cell_size if loaded else CELL_UNITS, status, mines_left, seconds
    )
    wh, ww = window.shape[:2]
    rng = np.random.default_rng([seed, 0])  # placement; the desktop has its own stream below
    if origin is None:
        if ww > width or wh > height:
            raise RenderError(f"a {ww}x{wh} window does not fit a {width}x{height} screen")
        free_h = height - TASKBAR_HEIGHT if clutter and wh <= height - TASKBAR_HEIGHT else height
        origin = (int(rng.integers(0, width - ww + 1)), int(rng.integers(0, free_h - wh + 1)))
    ox, oy = origin
    if ox < 0 or oy < 0 or ox + ww > width or oy + wh > height:
        raise RenderError(f"a {ww}x{wh} window at origin {origin!r} does not fit a {width}x{height} screen")
    rng = np.random.default_rng([seed, 1])  # the same desktop whether the origin is given or drawn
    screen = _background(rng, width, height)
    canvas = pixel_canvas(screen)
    if clutter:
        draw_clutter(canvas, rng, width, height)
    screen[oy : oy + wh, ox : ox + ww] = window
    if cursor_at is not None:
        _draw_cursor(canvas, cursor_at[0], cursor_at[1], scale)
    return screen, geometry.offset(ox, oy)


# -- the shipped classic skin ---------------------------------------------------------------------------

FACE_FILES = {name: f"face_{name}.png" for name in FACE_NAMES}
CELL_FILES = {name: f"{name}.png" for name in STATE_NAMES}

_SOURCE_MD = """# classic skin: where these images come from

Every image here is drawn by code, not captured: `bot/render.py` draws the grey Windows look
(winmine XP, Minesweeper X / Arbiter, minesweeper.online light theme) as vector shapes at 16 px per
cell and 26 px per face. Regenerate them with

    python -m bot.render --write-classic templates/classic

A test checks that the committed files equal what the code draws.
"""


def write_classic_skin(folder: str | Path) -> Path:
    """Write the ``classic`` skin folder (skin.json, SOURCE.md, 14 cell and 3 face PNGs); returns it."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    for name, cell in STATE_NAMES.items():
        _write_png(out / CELL_FILES[name], classic_cell(cell, CELL_UNITS, CELL_UNITS))
    for name in FACE_NAMES:
        _write_png(out / FACE_FILES[name], classic_face(name, FACE_UNITS))
    meta = {
        "name": CLASSIC,
        "description": "grey Windows look (winmine XP, Minesweeper X, minesweeper.online light)",
        "cell_size": CELL_UNITS,
        "first_click_rule": "winxp",
        "new_game": "face",
        "cells": CELL_FILES,
        "faces": FACE_FILES,
    }
    (out / "skin.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    (out / "SOURCE.md").write_text(_SOURCE_MD, encoding="utf-8")
    LOGGER.info("wrote the classic skin to %s", out)
    return out


def _write_png(path: Path, image: np.ndarray) -> None:
    if not cv2.imwrite(str(path), image):
        raise RenderError(f"cannot write {path}")


def main(argv: Sequence[str] | None = None) -> int:
    """Write the classic skin's templates, or a sample fake screenshot of an expert board."""
    parser = argparse.ArgumentParser(prog="python -m bot.render", description=main.__doc__)
    parser.add_argument("--write-classic", metavar="FOLDER", help="write the classic skin's templates here")
    parser.add_argument("--screenshot", metavar="PNG", help="write a screenshot of a fresh expert board")
    parser.add_argument("--scale", type=float, default=1.0, help="cell scale for --screenshot (default 1.0)")
    parser.add_argument("--seed", type=int, default=0, help="seed for window placement and clutter")
    args = parser.parse_args(argv)
    if not (args.write_classic or args.screenshot):
        parser.print_help()
        return 2
    if args.write_classic:
        print(write_classic_skin(args.write_classic))
    if args.screenshot:
        image, geometry = render_screen(Board.new(16, 30, 99), scale=args.scale, seed=args.seed)
        _write_png(Path(args.screenshot), image)
        print(f"{args.screenshot}: {geometry}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
