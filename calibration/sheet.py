"""The contact sheet calibration shows the user: every look-alike group with its proposed label."""

from __future__ import annotations

import cv2
import numpy as np

from bot.board import Cell
from bot.hershey import put_text
from calibration.model import Group, Proposal


def contact_sheet(groups: list[Group], proposals: dict[int, Proposal], zoom: int = 4) -> np.ndarray:
    """One image of every group, enlarged, with its id, size and proposed label under it."""
    tiles = []
    for g in groups:
        p = proposals[g.id]
        big = cv2.resize(g.image, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_NEAREST)
        s = big.shape[0]
        card = np.full((s + 44, max(s, 120) + 8, 3), 255, np.uint8)
        card[4 : 4 + s, 4 : 4 + s] = big
        label = "?" if p.state is None else Cell(p.state).char if p.state != Cell.ZERO else "0"
        colour = (0, 128, 0) if p.confident else (0, 0, 200)
        text1 = f"#{g.id} x{g.count}"
        text2 = f"-> {label}" + ("" if p.confident else " ?")
        put_text(card, text1, (4, s + 20), "simplex", 0.45, (0, 0, 0), 1, cv2.LINE_AA)
        put_text(card, text2, (4, s + 38), "simplex", 0.5, colour, 1, cv2.LINE_AA)
        tiles.append(card)
    height = max(t.shape[0] for t in tiles)
    width = max(t.shape[1] for t in tiles)
    per_row = 8
    rows = (len(tiles) + per_row - 1) // per_row
    sheet = np.full((rows * height, per_row * width, 3), 255, np.uint8)
    for k, t in enumerate(tiles):
        r, c = divmod(k, per_row)
        sheet[r * height : r * height + t.shape[0], c * width : c * width + t.shape[1]] = t
    return sheet
