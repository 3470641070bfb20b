"""What surrounds a generated board: a classic window, a modern web header, a toolkit toolbar, a desktop.

Why: the board finder must pick the board out of a screenshot full of other regular things: counters,
faces, toolbar buttons, status bars, other windows (a calculator's button grid is a lattice too). Each
style draws the board's window from the look's colours at a chrome scale that follows the pitch, and
says where the board's top-left pixel ended up.
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.game import GameStatus
from bot.hershey import put_text, text_width
from bot.looks.look import Color, Look, hsv, luma, shade
from bot.render import classic_counter, classic_face, draw_clutter, draw_window_frame, pixel_canvas

FONT = "simplex"
"""The stroke font of the header texts (:mod:`bot.hershey`: the same pixels with every OpenCV release)."""


def _text(image: np.ndarray, text: str, x: int, y: int, height: int, color: Color) -> None:
    """``text`` with its baseline at ``y``, about ``height`` px tall."""
    scale = max(height, 6) / 22
    put_text(image, text, (x, y), FONT, scale, color, max(1, round(scale * 1.6)), cv2.LINE_AA)


def _bevel_box(
    image: np.ndarray, x0: int, y0: int, x1: int, y1: int, fill: Color, raised: bool = True
) -> None:
    light, dark = shade(fill, 1.0, 50), shade(fill, 0.55)
    image[y0:y1, x0:x1] = fill
    top, bottom = (light, dark) if raised else (dark, light)
    image[y0, x0:x1] = top
    image[y0:y1, x0] = top
    image[y1 - 1, x0:x1] = bottom
    image[y0:y1, x1 - 1] = bottom


def _classic(
    cells: np.ndarray, look: Look, status: GameStatus, mines_left: int, k: float
) -> tuple[np.ndarray, int, int]:
    """A winmine-like window: grey frame, blue title, two LCD counters and a face above a sunken board."""
    bh, bw = cells.shape[:2]
    m, header, title = round(8 * k), round(36 * k), round(40 * k)
    w = max(bw + 2 * m, round(150 * k))
    h = title + header + bh + 3 * m
    image = np.empty((h, w, 3), np.uint8)
    canvas = pixel_canvas(image)
    draw_window_frame(canvas, 0, 0, w, h, "Minesweeper", k)
    lcd_w, lcd_h = round(41 * k), round(25 * k)
    top = title + (header - lcd_h) // 2
    image[top : top + lcd_h, m : m + lcd_w] = classic_counter(mines_left, lcd_w, lcd_h)
    image[top : top + lcd_h, w - m - lcd_w : w - m] = classic_counter(int(look.seed % 999), lcd_w, lcd_h)
    face = round(26 * k)
    fx, fy = (w - face) // 2, title + (header - face) // 2
    image[fy : fy + face, fx : fx + face] = classic_face(status.value, face)
    left, btop = (w - bw) // 2, title + header + m
    image[btop : btop + bh, left : left + bw] = cells
    return image, left, btop


def _modern(
    cells: np.ndarray, look: Look, status: GameStatus, mines_left: int, k: float
) -> tuple[np.ndarray, int, int]:
    """A web client: a coloured header bar with a level box, a flag counter and a timer over the board,
    on a page margin."""
    bh, bw = cells.shape[:2]
    bar = shade(look.palette.covered[0], 0.6)
    header, m, size = round(44 * k), round((look.seed % 3) * 6 * k), round(16 * k)
    text_w = text_width("Medium", FONT, size * 0.75 / 22)
    box = (round(8 * k), round(10 * k), round(8 * k) + text_w + round(10 * k), header - round(10 * k))
    flag_x = box[2] + round(18 * k)
    w = max(bw + 2 * m, flag_x + round(170 * k))
    h = header + bh + 2 * m
    image = np.empty((h, w, 3), np.uint8)
    image[:] = look.palette.back
    image[m : m + header, m : w - m] = bar
    ink: Color = (255, 255, 255) if luma(bar) < 140 else (20, 20, 20)
    x0, y0 = m, m
    cv2.rectangle(image, (x0 + box[0], y0 + box[1]), (x0 + box[2], y0 + box[3]), (255, 255, 255), -1)
    _text(
        image,
        "Medium",
        x0 + box[0] + round(5 * k),
        y0 + box[3] - round(7 * k),
        round(size * 0.75),
        (40, 40, 40),
    )
    x = x0 + flag_x
    tri = np.array(
        [[x, y0 + round(12 * k)], [x + round(14 * k), y0 + round(18 * k)], [x, y0 + round(24 * k)]], np.int32
    )
    cv2.fillPoly(image, [tri], look.flag_color)
    _text(image, str(mines_left), x + round(18 * k), y0 + round(30 * k), size, ink)
    x2 = x + round(80 * k)
    cv2.circle(image, (x2 + round(7 * k), y0 + round(22 * k)), round(7 * k), (0, 200, 255), -1)
    _text(image, f"{look.seed % 1000:03d}", x2 + round(18 * k), y0 + round(30 * k), size, ink)
    left, top = (w - bw) // 2, m + header
    image[top : top + bh, left : left + bw] = cells
    return image, left, top


def _toolbar(
    cells: np.ndarray, look: Look, status: GameStatus, mines_left: int, k: float
) -> tuple[np.ndarray, int, int]:
    """A desktop toolkit window: a title bar, a toolbar of bevelled buttons, a status bar below."""
    bh, bw = cells.shape[:2]
    face: Color = (214, 217, 217) if luma(look.palette.back) > 90 else (60, 60, 64)
    ink: Color = (0, 0, 0) if luma(face) > 128 else (230, 230, 230)
    title, tool, status_h, m = round(24 * k), round(30 * k), round(22 * k), round(6 * k)
    w = max(bw + 2 * m, round(240 * k))
    h = title + tool + bh + 2 * m + status_h
    image = np.empty((h, w, 3), np.uint8)
    image[:] = face
    image[:title] = hsv(0.6, 0.5, 0.45) if luma(face) > 128 else (40, 40, 40)
    _text(image, "Mines", round(6 * k), title - round(7 * k), round(13 * k), (255, 255, 255))
    x = m
    for label in ("New", "Game", "Options", "?"):
        bw_ = round((14 + 9 * len(label)) * k)
        _bevel_box(image, x, title + round(3 * k), x + bw_, title + tool - round(3 * k), face)
        _text(image, label, x + round(5 * k), title + tool - round(10 * k), round(12 * k), ink)
        x += bw_ + round(4 * k)
    left, top = (w - bw) // 2, title + tool + m
    image[top : top + bh, left : left + bw] = cells
    sy = h - status_h
    _bevel_box(image, 0, sy, w, h, face, raised=False)
    won = {"won": "You win!", "lost": "Game over"}.get(status.value, "Playing")
    _text(
        image,
        f"Mines: {mines_left}   Time: {look.seed % 100}   {won}",
        round(6 * k),
        h - round(6 * k),
        round(12 * k),
        ink,
    )
    return image, left, top


def _bare(cells: np.ndarray, look: Look, rng: np.random.Generator) -> tuple[np.ndarray, int, int]:
    bh, bw = cells.shape[:2]
    m = int(rng.integers(4, 40))
    image = np.empty((bh + 2 * m, bw + 2 * m, 3), np.uint8)
    image[:] = look.palette.back
    image[m : m + bh, m : m + bw] = cells
    return image, m, m


def _desktop(window: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, int, int]:
    """The window on a desktop with icons, other windows and a taskbar around it."""
    wh, ww = window.shape[:2]
    mx, my = int(rng.integers(60, 360)), int(rng.integers(40, 240))
    width, height = max(ww + 2 * mx, 640), max(wh + 2 * my + 30, 480)
    mx, my = (width - ww) // 2, (height - 30 - wh) // 2
    screen = np.empty((height, width, 3), np.uint8)
    screen[:] = hsv(rng.random(), rng.uniform(0, 0.7), rng.uniform(0.2, 0.8))
    draw_clutter(pixel_canvas(screen), rng, width, height)
    ox, oy = int(rng.integers(0, 2 * mx + 1)), int(rng.integers(0, 2 * my + 1))
    screen[oy : oy + wh, ox : ox + ww] = window
    return screen, ox, oy


def surround(
    cells: np.ndarray, look: Look, status: GameStatus, mines_left: int, rng: np.random.Generator
) -> tuple[np.ndarray, int, int]:
    """The board's cells in the look's surroundings: the image, and the cells' left and top in it."""
    k = float(np.clip(look.pitch[0] / 16, 0.8, 2.5))
    style = look.surroundings
    if style == "desktop":
        style = str(rng.choice(["classic", "modern", "toolbar"]))
    if style == "bare":
        return _bare(cells, look, rng)
    draw = {"classic": _classic, "modern": _modern, "toolbar": _toolbar}[style]
    image, left, top = draw(cells, look, status, mines_left, k)
    if look.surroundings == "desktop":
        image, ox, oy = _desktop(image, rng)
        left, top = left + ox, top + oy
    return image, left, top
