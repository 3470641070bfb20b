"""A picture of what was read, for people: the board cropped and enlarged, readings, mine odds, the move.

Why: when a reading or a move looks wrong, one picture shows whether the grid sat right, which cell
was misread or uncertain, and what the solver believed. ``minebot dry-run --annotate DIR`` writes it.
The board (with its face and counters) is cut out and enlarged by a whole factor, so a cell is at
least :data:`MIN_CELL` pixels and the client's own pixels stay sharp. On it: the grid, each cell's
reading in its corner, covered cells tinted by mine probability with the percentage, uncertain cells
boxed, the move framed; a caption above and a legend below.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Cell
from bot.geometry import Geometry, Region
from bot.vision.classify import CellReading

MIN_CELL = 40
"""Smallest cell side in the picture, in pixels: big enough for a percentage people can read."""
MIN_WIDTH = 560
"""Narrowest picture (a beginner board still leaves the legend room)."""
GRID = (40, 150, 40)
UNCERTAIN = (255, 0, 255)
INK = (20, 20, 20)
PAPER = (255, 255, 255)
MOVE_COLOURS = {"open": (255, 90, 0), "flag": (0, 0, 0), "chord": (255, 230, 0)}
"""Frame colour of the move, BGR: blue to open, black to flag, cyan to chord (none is a heat colour)."""
FONT = cv2.FONT_HERSHEY_SIMPLEX
INSET = 0.14
"""The rim of a covered cell left as the client drew it (the rest shows its mine probability)."""
STRIP = 38
"""Height of the caption strip and of each legend row."""
TEXT_SCALE = 0.6


@dataclass(frozen=True)
class Layout:
    """Where the board lands in the picture: the crop of the screenshot, its enlargement, the cells."""

    crop: Region
    """The part of the screenshot shown (board, face and counters, a little margin)."""
    scale: int
    """Whole enlargement factor of the crop."""
    cells: Geometry
    """The board's cells in picture pixels."""
    width: int
    height: int
    """Picture size, caption and legend included."""


def heat(probability: float) -> tuple[int, int, int]:
    """Green (safe) through yellow to red (mine), BGR: the hue turns with the probability."""
    p = min(max(probability, 0.0), 1.0)
    red, green, blue = colorsys.hsv_to_rgb((1 - p) / 3, 0.8, 0.97)
    return (round(255 * blue), round(255 * green), round(255 * red))


def crop_region(shape: tuple[int, ...], g: Geometry) -> Region:
    """The board and its face (the counters sit beside the face), a third of a cell around, in the image."""
    box = g.region() if g.face is None else g.region().union(g.face)
    margin = math.ceil(max(g.pitch_x, g.pitch_y) / 3)
    left, top = max(0, box.left - margin), max(0, box.top - margin)
    right, bottom = min(shape[1], box.right + margin), min(shape[0], box.bottom + margin)
    return Region(left, top, right - left, bottom - top)


def layout(shape: tuple[int, ...], g: Geometry, legend_rows: int) -> Layout:
    """The picture's layout for a board of geometry ``g`` on an image of ``shape``."""
    crop = crop_region(shape, g)
    scale = max(1, math.ceil(MIN_CELL / min(g.pitch_x, g.pitch_y) - 0.01))  # a 19.99 px pitch is 20 px
    width = max(crop.width * scale, MIN_WIDTH)
    pad = (width - crop.width * scale) // 2
    cells = Geometry(
        left=(g.left - crop.left) * scale + pad,
        top=(g.top - crop.top) * scale + STRIP,
        pitch_x=g.pitch_x * scale,
        pitch_y=g.pitch_y * scale,
        rows=g.rows,
        cols=g.cols,
    )
    return Layout(crop, scale, cells, width, STRIP + crop.height * scale + legend_rows * STRIP)


def _fit(text: str, width: float, height: float, thickness: int = 1) -> float:
    """The font scale at which ``text`` fits in ``width`` x ``height`` pixels."""
    (w, h), _ = cv2.getTextSize(text, FONT, 1.0, thickness)
    return min(width / w, height / h)


def _label(out: np.ndarray, text: str, box: Region, fill: float, colour=INK, back=None) -> None:
    """``text`` centred in ``box``, ``fill`` of its height tall (at most its width), on ``back`` if given."""
    thickness = 2 if box.height >= 40 else 1
    scale = _fit(text, 0.9 * box.width, fill * box.height, thickness)
    (w, h), _ = cv2.getTextSize(text, FONT, scale, thickness)
    x, y = box.left + (box.width - w) // 2, box.top + (box.height + h) // 2
    if back is not None:
        cv2.rectangle(out, (x - 2, y - h - 2), (x + w + 1, y + 3), back, -1)
    cv2.putText(out, text, (x, y), FONT, scale, colour, thickness, cv2.LINE_AA)


def _corner(box: Region) -> Region:
    """The top-left corner of a cell where its reading is written."""
    side = max(12, round(0.42 * box.height))
    return Region(box.left + 1, box.top + 1, side, side)


def _draw_cells(out: np.ndarray, g: Geometry, cells: CellReading, probabilities: np.ndarray | None) -> None:
    """Tint covered cells by mine probability with the percentage; write each reading; box uncertain cells."""
    uncertain = cells.uncertain_mask()
    for r in range(g.rows):
        for c in range(g.cols):
            box = g.cell_rect((r, c))
            state = Cell(int(cells.states[r, c]))
            p = probabilities[r, c] if probabilities is not None else math.nan
            if uncertain[r, c]:
                _frame(out, box, UNCERTAIN, 3)
                _label(out, "?", _corner(box), 0.8, PAPER, UNCERTAIN)
            elif not math.isnan(p):
                rim = round(INSET * box.height)
                inner = Region(box.left + rim, box.top + rim, box.width - 2 * rim, box.height - 2 * rim)
                cv2.rectangle(out, (inner.left, inner.top), (inner.right - 1, inner.bottom - 1), heat(p), -1)
                _label(out, f"{round(100 * p)}%", inner, 0.42)
            elif state is not Cell.COVERED:
                _label(out, state.char, _corner(box), 0.8, INK, PAPER)
    region = g.region()
    for c in range(g.cols + 1):
        x = round(g.left + c * g.pitch_x)
        cv2.line(out, (x, region.top), (x, region.bottom), GRID, 1)
    for r in range(g.rows + 1):
        y = round(g.top + r * g.pitch_y)
        cv2.line(out, (region.left, y), (region.right, y), GRID, 1)


def _frame(out: np.ndarray, box: Region, colour: tuple[int, int, int], width: int) -> None:
    """A frame ``width`` pixels wide along the inside of ``box``, edged in white so it shows on any colour."""
    inner = (
        slice(box.top + width + 2, box.bottom - width - 2),
        slice(box.left + width + 2, box.right - width - 2),
    )
    kept = out[inner].copy()
    out[box.top : box.bottom, box.left : box.right] = colour
    out[box.top + width : box.bottom - width, box.left + width : box.right - width] = PAPER
    out[inner] = kept


def _draw_move(out: np.ndarray, g: Geometry, cell: tuple[int, int], action: str) -> None:
    """The move's cell framed in the move's colour (inside the cell: its neighbours stay as they are)."""
    colour = MOVE_COLOURS.get(action, MOVE_COLOURS["open"])
    _frame(out, g.cell_rect(cell), colour, max(4, round(g.pitch_x / 9)))


def _text(out: np.ndarray, text: str, x: int, y: int) -> int:
    """Legend text with its baseline at ``y``; returns the x just after it."""
    cv2.putText(out, text, (x, y), FONT, TEXT_SCALE, INK, 1, cv2.LINE_AA)
    return x + cv2.getTextSize(text, FONT, TEXT_SCALE, 1)[0][0]


def _draw_legend(out: np.ndarray, top: int, probabilities: bool, action: str | None) -> None:
    """Under the board: the probability colour scale (when there are odds), then what the marks mean."""
    y = top + STRIP // 2 + 7
    if probabilities:
        x = _text(out, "mine chance of a covered cell:  0%", 8, y) + 8
        bar = max(100, min(320, out.shape[1] - x - 70))
        for i in range(bar):
            cv2.line(out, (x + i, y - 16), (x + i, y + 2), heat(i / (bar - 1)), 1)
        _text(out, "100%", x + bar + 8, y)
        y += STRIP
    x = 8
    if action is not None:
        _frame(out, Region(x, y - 18, 24, 24), MOVE_COLOURS.get(action, MOVE_COLOURS["open"]), 4)
        x = _text(out, f"move: {action}", x + 30, y) + 24
    cv2.rectangle(out, (x, y - 17), (x + 20, y + 3), UNCERTAIN, 3)
    x = _text(out, "unsure", x + 28, y) + 24
    cv2.rectangle(out, (x, y - 17), (x + 18, y + 3), INK, 1)
    cv2.putText(out, "2", (x + 3, y), FONT, TEXT_SCALE, INK, 1, cv2.LINE_AA)
    _text(out, "as read (. F 0-8 * X W)", x + 26, y)


def annotate(
    image: np.ndarray,
    cells: CellReading,
    probabilities: np.ndarray | None = None,
    move_cell: tuple[int, int] | None = None,
    move_action: str = "open",
    caption: str = "",
) -> np.ndarray:
    """The board of ``image`` cropped and enlarged, with readings, ``probabilities`` (NaN off covered
    cells), uncertain cells boxed, the move framed, ``caption`` above and a legend below."""
    g: Geometry = cells.geometry
    plan = layout(image.shape, g, 1 + (probabilities is not None))
    crop = plan.crop
    board = image[crop.top : crop.bottom, crop.left : crop.right]
    board = cv2.resize(board, None, fx=plan.scale, fy=plan.scale, interpolation=cv2.INTER_NEAREST)
    out = np.full((plan.height, plan.width, 3), 255, np.uint8)
    left = (plan.width - board.shape[1]) // 2
    out[STRIP : STRIP + board.shape[0], left : left + board.shape[1]] = board
    _draw_cells(out, plan.cells, cells, probabilities)
    if move_cell is not None:
        _draw_move(out, plan.cells, move_cell, move_action)
    if caption:
        scale = min(0.55, _fit(caption, plan.width - 16, STRIP - 14))
        cv2.putText(out, caption, (8, STRIP - 11), FONT, scale, INK, 1, cv2.LINE_AA)
    _draw_legend(out, STRIP + board.shape[0], probabilities is not None, move_action if move_cell else None)
    return out
