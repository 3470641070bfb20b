"""Draw what was read on top of a screenshot: the grid, each cell's reading, mine odds, the move.

Why: when a reading or a move looks wrong, one picture shows whether the grid sat right, which cell
was misread or uncertain, and what the solver believed. ``minebot dry-run --annotate DIR`` writes it.
"""

from __future__ import annotations

import cv2
import numpy as np

from bot.board import Cell
from bot.geometry import Geometry
from bot.vision.classify import CellReading

GRID = (0, 200, 0)
UNCERTAIN = (255, 0, 255)
TEXT = (0, 0, 0)
TEXT_BACK = (255, 255, 255)
MOVE_COLOURS = {"open": (255, 120, 0), "flag": (0, 0, 255), "chord": (0, 160, 255)}


def _heat(probability: float) -> tuple[int, int, int]:
    """Green (safe) through yellow to red (mine), BGR."""
    p = min(max(probability, 0.0), 1.0)
    return (0, int(255 * min(1.0, 2 * (1 - p))), int(255 * min(1.0, 2 * p)))


def annotate(
    image: np.ndarray,
    cells: CellReading,
    probabilities: np.ndarray | None = None,
    move_cell: tuple[int, int] | None = None,
    move_action: str = "open",
) -> np.ndarray:
    """A copy of ``image`` with the grid, cell readings, a heat map of ``probabilities`` over covered
    cells (NaN elsewhere), uncertain cells boxed in magenta, and the move ringed."""
    out = image.copy()
    g: Geometry = cells.geometry
    if probabilities is not None:
        overlay = out.copy()
        for r, c in zip(*np.nonzero(~np.isnan(probabilities)), strict=True):
            box = g.cell_rect((int(r), int(c)))
            cv2.rectangle(
                overlay, (box.left, box.top), (box.right - 1, box.bottom - 1), _heat(probabilities[r, c]), -1
            )
        out = cv2.addWeighted(overlay, 0.45, out, 0.55, 0)
    region = g.region()
    for c in range(g.cols + 1):
        x = round(g.left + c * g.pitch_x)
        cv2.line(out, (x, region.top), (x, region.bottom), GRID, 1)
    for r in range(g.rows + 1):
        y = round(g.top + r * g.pitch_y)
        cv2.line(out, (region.left, y), (region.right, y), GRID, 1)
    font_scale = max(0.25, g.pitch_y / 48)
    uncertain = cells.uncertain_mask()
    for r in range(g.rows):
        for c in range(g.cols):
            box = g.cell_rect((r, c))
            label = Cell(int(cells.states[r, c])).char
            origin = (box.left + 2, box.top + max(8, int(g.pitch_y * 0.4)))
            cv2.putText(out, label, origin, cv2.FONT_HERSHEY_SIMPLEX, font_scale, TEXT_BACK, 2, cv2.LINE_AA)
            cv2.putText(out, label, origin, cv2.FONT_HERSHEY_SIMPLEX, font_scale, TEXT, 1, cv2.LINE_AA)
            if uncertain[r, c]:
                cv2.rectangle(out, (box.left, box.top), (box.right - 1, box.bottom - 1), UNCERTAIN, 2)
    if g.face is not None:
        f = g.face
        cv2.rectangle(out, (f.left, f.top), (f.right - 1, f.bottom - 1), GRID, 1)
    if move_cell is not None:
        x, y = g.cell_center(move_cell)
        colour = MOVE_COLOURS.get(move_action, MOVE_COLOURS["open"])
        radius = max(4, int(0.6 * g.pitch_x))
        cv2.circle(out, (x, y), radius, colour, 3, cv2.LINE_AA)
        cv2.putText(
            out, move_action, (x + radius, y - radius), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 2, cv2.LINE_AA
        )
    return out
