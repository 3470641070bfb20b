"""The board of a generated look: every cell's tile (covered or revealed style, glyph, mark) at its place.

Why: the tiles are what the reader must find as a lattice and then name. Cell ``c`` spans
``[round(c * pitch), round((c + 1) * pitch))`` as :class:`bot.geometry.Geometry` says, so a fractional
pitch gives the 32/33 px alternation of browser zoom. Tiles are cached per state and size; what varies
across the board (a gloss or light falloff, noise, shadows cast by raised neighbours) is applied per
position, so one look's equal cells are not always equal pixels.
"""

from __future__ import annotations

import numpy as np

from bot.board import Board, Cell
from bot.looks.glyphs import digit_mask
from bot.looks.look import Color, Look, luma, shade
from bot.looks.marks import draw_cross, draw_flag, draw_mine

BAYER = np.array([[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]], np.float32) / 16 + 1 / 32
"""The 4x4 ordered-dither threshold matrix."""

COVERED_LIKE = (Cell.COVERED, Cell.FLAG)


def _fill(tile: np.ndarray, color: Color) -> None:
    tile[:] = color


def _bevel(tile: np.ndarray, width: int, light: Color, dark: Color) -> None:
    """Light top and left edges, dark bottom and right, mitred at the corners."""
    h, w = tile.shape[:2]
    for i in range(width):
        tile[h - 1 - i, i:] = dark
        tile[i:, w - 1 - i] = dark
        tile[i, : w - 1 - i] = light
        tile[: h - 1 - i, i] = light


def _covered(look: Look, w: int, h: int, parity: int) -> np.ndarray:
    """A covered tile (content only; the caller adds gaps)."""
    p = look.palette
    style = look.covered_style
    tile = np.empty((h, w, 3), np.uint8)
    base = p.covered[parity] if style == "checker" else p.covered[0]
    _fill(tile, base)
    edge = max(1, round(min(w, h) / 9))
    if style in ("bevel", "noise"):
        _bevel(tile, edge, p.light, p.shade)
    elif style == "flat":
        tile[0, :] = p.shade
        tile[:, 0] = p.shade
    elif style == "gradient":
        ramp = np.linspace(1.18, 0.88, h, dtype=np.float32)[:, None, None]
        tile[:] = np.clip(np.asarray(base, np.float32) * ramp, 0, 255).astype(np.uint8)
        tile[0, :] = tile[-1, :] = p.shade
        tile[:, 0] = tile[:, -1] = p.shade
    elif style == "dither":
        level = np.full((h, w), 0.5, np.float32)
        level[:edge, :] = level[:, :edge] = 0.85
        level[h - edge :, :] = 0.15
        level[:, w - edge :] = 0.15
        threshold = np.tile(BAYER, (h // 4 + 1, w // 4 + 1))[:h, :w]
        on = level > threshold
        tile[on] = p.dither[1]
        tile[~on] = p.dither[0]
    elif style == "rounded":
        tile[:] = p.back
        radius = max(2, round(min(w, h) / 5))
        inner = np.zeros((h, w), np.uint8)
        import cv2

        cv2.rectangle(inner, (radius, 0), (w - 1 - radius, h - 1), 1, -1)
        cv2.rectangle(inner, (0, radius), (w - 1, h - 1 - radius), 1, -1)
        for cx, cy in (
            (radius, radius),
            (w - 1 - radius, radius),
            (radius, h - 1 - radius),
            (w - 1 - radius, h - 1 - radius),
        ):
            cv2.circle(inner, (cx, cy), radius, 1, -1)
        tile[inner > 0] = base
        tile[: max(h // 2, 1)][inner[: max(h // 2, 1)] > 0] = shade(base, 1.0, 14)
    elif style == "button":
        tile[-1, :] = tile[:, -1] = shade(p.shade, 0.5)
        tile[0, :-1] = tile[:-1, 0] = p.light
        if min(w, h) > 12:
            tile[-2, 1:-1] = tile[1:-1, -2] = p.shade
    return tile


def _revealed(look: Look, w: int, h: int, parity: int, shadow: tuple[bool, bool]) -> np.ndarray:
    p = look.palette
    tile = np.empty((h, w, 3), np.uint8)
    _fill(tile, p.revealed[parity] if look.revealed_style == "checker" else p.revealed[0])
    if look.revealed_style == "shadow":
        band = max(1, round(min(w, h) / 10))
        dark = shade(p.revealed[0], 0.78) if luma(p.revealed[0]) > 50 else shade(p.revealed[0], 0.5)
        if shadow[0]:
            tile[:band, :] = dark
        if shadow[1]:
            tile[:, :band] = dark
    if look.lines:
        tile[0, :] = p.line
        tile[:, 0] = p.line
    return tile


def _ink(tile: np.ndarray, mask: np.ndarray, color: Color) -> None:
    m = mask[:, :, None]
    tile[:] = np.round(tile * (1 - m) + np.asarray(color, np.float32) * m).astype(np.uint8)


def _mark_ink(look: Look) -> Color:
    return (0, 0, 0) if luma(look.palette.covered[0]) > 100 else (235, 235, 235)


def cell_tile(look: Look, state: Cell, w: int, h: int, parity: int, shadow: tuple[bool, bool]) -> np.ndarray:
    """One cell of ``look`` in ``state``, ``w`` x ``h`` pixels with its gap (right and bottom)."""
    gap = look.gap if min(w, h) - look.gap >= 8 else 0
    cw, ch = w - gap, h - gap
    tile = np.empty((h, w, 3), np.uint8)
    tile[:] = look.palette.back
    covered = state in COVERED_LIKE or (state is Cell.WRONG_FLAG and look.wrong == "flag")
    body = _covered(look, cw, ch, parity) if covered else _revealed(look, cw, ch, parity, shadow)
    tile[:ch, :cw] = body
    inset = 1 if look.lines and not covered else 0
    box = tile[inset:ch, inset:cw]
    if Cell.ONE <= state <= Cell.EIGHT:
        n = int(state)
        if look.grounds:
            box[:] = look.grounds[n]
        mask = digit_mask(n, look.font, look.font_file, box.shape[1], box.shape[0], look.digit_height)
        _ink(box, mask, look.digits[n])
    elif state is Cell.FLAG:
        draw_flag(box, look.flag, look.flag_color, _mark_ink(look))
    elif state is Cell.WRONG_FLAG and look.wrong == "flag":
        draw_flag(box, look.flag, look.flag_color, _mark_ink(look))
        draw_cross(box, look.cross_color)
    elif state in (Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG):
        if state is Cell.EXPLODED:
            box[:] = look.exploded_ground
        ground = look.mine_ground if state is not Cell.EXPLODED else look.exploded_ground
        draw_mine(box, look.mine, look.mine_color, ground)
        if state is Cell.WRONG_FLAG:
            draw_cross(box, look.cross_color)
    return tile


def spans(count: int, pitch: float) -> list[int]:
    """Pixel starts of ``count`` cells and the end of the last: ``round(i * pitch)``."""
    return [round(i * pitch) for i in range(count + 1)]


def draw_cells(board: Board, look: Look, rng: np.random.Generator) -> np.ndarray:
    """The board's cells drawn edge to edge at the look's pitch, with board-wide variation applied."""
    xs, ys = spans(board.cols, look.pitch[0]), spans(board.rows, look.pitch[1])
    image = np.empty((ys[-1], xs[-1], 3), np.uint8)
    raised = np.zeros(image.shape[:2], bool)
    cache: dict[tuple, np.ndarray] = {}
    cells = board.cells
    covered_like = np.isin(cells, COVERED_LIKE) | ((cells == Cell.WRONG_FLAG) & (look.wrong == "flag"))
    for r in range(board.rows):
        for c in range(board.cols):
            state = Cell(int(cells[r, c]))
            w, h = xs[c + 1] - xs[c], ys[r + 1] - ys[r]
            shadow = (r > 0 and bool(covered_like[r - 1, c]), c > 0 and bool(covered_like[r, c - 1]))
            key = (state, w, h, (r + c) % 2, shadow)
            if key not in cache:
                cache[key] = cell_tile(look, state, w, h, (r + c) % 2, shadow)
            image[ys[r] : ys[r + 1], xs[c] : xs[c + 1]] = cache[key]
            if covered_like[r, c]:
                raised[ys[r] : ys[r + 1], xs[c] : xs[c + 1]] = True
    return _vary(image, raised, look, rng)


def _vary(image: np.ndarray, raised: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    """Board-wide variation of covered tiles: a gloss/light falloff (gradient) or grain (noise)."""
    if look.covered_style not in ("gradient", "noise"):
        return image
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    if look.covered_style == "gradient":
        ax, ay = rng.uniform(-0.22, 0.22, 2)
        field = 1 + ax * (np.linspace(-0.5, 0.5, w)[None, :]) + ay * (np.linspace(-0.5, 0.5, h)[:, None])
        out[raised] *= field[raised][:, None]
    else:
        grain = rng.normal(0, rng.uniform(3, 10), (h, w)).astype(np.float32)
        out[raised] += grain[raised][:, None]
    return np.clip(np.round(out), 0, 255).astype(np.uint8)
