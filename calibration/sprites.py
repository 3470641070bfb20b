"""Read a published skin sprite sheet (one image holding every tile) into cell and face templates.

Two layouts:

``msx`` — the Minesweeper X / Arbiter skin sheet, 144 x 122 px at 100% (multiply every number by
``cell_size / 16`` for a scaled sheet). Determined by looking at the classic ``winxpskin.bmp``:

=========  =====================================================================================
y 0-15     nine 16 x 16 cells at x = 16 * i: ``0 1 2 3 4 5 6 7 8``
y 16-31    eight 16 x 16 cells at x = 16 * i: ``covered``, pressed (unused), ``mine``, ``flag``,
           ``wrong_flag``, ``exploded``, question mark, pressed question mark (both unused)
y 33-53    LCD counter digits, 11 x 21 at x = 12 * i (unused)
y 55-80    five 26 x 26 faces at x = 27 * i: ``playing``, pressed-cell "oh" (unused), ``lost``,
           ``won``, pressed face (unused)
y 82-      the counter frame (unused)
=========  =====================================================================================

``row`` — a generic layout: one row of ``cell_size`` square tiles from x = 0, named left to right by
``order`` (skin keys such as ``covered,0,1,...,8,flag,mine,exploded,wrong_flag``; ``-`` skips a tile).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bot.board import Cell
from bot.capture import ReplayCapture
from bot.errors import CaptureError
from bot.skin import STATE_NAMES
from calibration.model import CalibrationError

LOGGER = logging.getLogger(__name__)

LAYOUTS = ("msx", "row")
DEFAULT_ORDER = "covered,0,1,2,3,4,5,6,7,8,flag,mine,exploded,wrong_flag"

MSX_SIZE = (144, 122)
"""Width and height of a Minesweeper X sheet at 100%."""
MSX_CELLS: dict[str, tuple[int, int]] = {
    **{str(n): (16 * n, 0) for n in range(9)},
    "covered": (0, 16),
    "mine": (32, 16),
    "flag": (48, 16),
    "wrong_flag": (64, 16),
    "exploded": (80, 16),
}
"""Top-left (x, y) of each cell tile on a 100% Minesweeper X sheet (16 x 16 tiles)."""
MSX_FACES: dict[str, tuple[int, int]] = {"playing": (0, 55), "lost": (54, 55), "won": (81, 55)}
MSX_FACE_SIZE = 26


@dataclass
class SheetTiles:
    """Templates cut from a sprite sheet: cells by state, faces by name."""

    cells: dict[Cell, np.ndarray] = field(default_factory=dict)
    faces: dict[str, np.ndarray] = field(default_factory=dict)


def _cut(sheet: np.ndarray, x: int, y: int, w: int, h: int, what: str, path: Path) -> np.ndarray:
    if y + h > sheet.shape[0] or x + w > sheet.shape[1]:
        raise CalibrationError(
            f"{path}: the {what} tile at x={x}, y={y} ({w}x{h}) lies outside the "
            f"{sheet.shape[1]}x{sheet.shape[0]} sheet: wrong --cell-size or --layout?"
        )
    return sheet[y : y + h, x : x + w].copy()


def read_sheet(
    path: str | Path, cell_size: int, layout: str = "msx", order: str = DEFAULT_ORDER
) -> SheetTiles:
    """Cut a sprite sheet into templates (see the module docstring for the layouts).

    Raises:
        CalibrationError: for a missing or unreadable file, an unknown layout or state name, or a
            sheet too small for the layout at that cell size.
    """
    p = Path(path)
    if not p.is_file():
        raise CalibrationError(f"sprite sheet {str(p)!r} does not exist")
    try:
        with ReplayCapture(p) as replay:  # one image file, read as screenshots are
            sheet = replay.current()
    except CaptureError as exc:
        raise CalibrationError(f"sprite sheet: {exc}") from exc
    if cell_size < 4:
        raise CalibrationError(f"--cell-size {cell_size} is too small (at least 4 px)")
    tiles = SheetTiles()
    if layout == "msx":
        f = cell_size / 16
        if cell_size % 16:
            raise CalibrationError(
                f"an msx sheet has 16 px cells (or a multiple when scaled), not {cell_size}"
            )
        for key, (x, y) in MSX_CELLS.items():
            tiles.cells[STATE_NAMES[key]] = _cut(
                sheet, round(x * f), round(y * f), cell_size, cell_size, key, p
            )
        face = round(MSX_FACE_SIZE * f)
        for name, (x, y) in MSX_FACES.items():
            tiles.faces[name] = _cut(sheet, round(x * f), round(y * f), face, face, f"face {name}", p)
    elif layout == "row":
        names = [n.strip() for n in order.split(",") if n.strip()]
        for i, name in enumerate(names):
            if name == "-":
                continue
            if name not in STATE_NAMES:
                raise CalibrationError(
                    f"--order names unknown state {name!r}; states are {', '.join(STATE_NAMES)}"
                )
            if STATE_NAMES[name] in tiles.cells:
                raise CalibrationError(f"--order names {name!r} twice")
            tiles.cells[STATE_NAMES[name]] = _cut(sheet, i * cell_size, 0, cell_size, cell_size, name, p)
    else:
        raise CalibrationError(f"unknown sprite-sheet layout {layout!r}: use one of {', '.join(LAYOUTS)}")
    if Cell.COVERED not in tiles.cells:
        raise CalibrationError(f"{p}: the sheet layout gives no covered tile")
    LOGGER.info("read %d cell tiles and %d faces from %s", len(tiles.cells), len(tiles.faces), p)
    return tiles
