"""Pixel geometry: screen regions and where a located board's cells are on screen.

Screen coordinates are virtual-screen pixels: on multi-monitor setups they may be negative. The cell
pitch may be fractional (125% display scaling, browser zoom): cell ``c`` starts at
``round(left + c * pitch_x)``, so a 32.7 px pitch gives the 32/33 px alternation real screens show.

>>> g = Geometry(left=10, top=20, pitch_x=16, pitch_y=16, rows=2, cols=3)
>>> g.cell_center((1, 2)), g.cell_at(55, 45), g.region()
((50, 44), (1, 2), Region(left=10, top=20, width=48, height=32))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from bot.board import Coord


@dataclass(frozen=True)
class Region:
    """A rectangle of screen pixels: top-left corner and size (both sizes > 0)."""

    left: int
    top: int
    width: int
    height: int

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"a region needs a positive size, got {self.width}x{self.height}")

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def offset(self, dx: int, dy: int) -> Region:
        return replace(self, left=self.left + dx, top=self.top + dy)

    def union(self, other: Region) -> Region:
        left, top = min(self.left, other.left), min(self.top, other.top)
        right, bottom = max(self.right, other.right), max(self.bottom, other.bottom)
        return Region(left, top, right - left, bottom - top)


@dataclass(frozen=True)
class Geometry:
    """Where a board's cells are: the top-left corner of cell (0, 0), the pitch, rows and columns.

    ``face`` is the face button's region, when the skin has one and it was found.
    """

    left: float
    top: float
    pitch_x: float
    pitch_y: float
    rows: int
    cols: int
    face: Region | None = None

    def cell_rect(self, cell: Coord) -> Region:
        """The pixels of one cell (the grid line after it excluded when the pitch leaves one)."""
        r, c = cell
        x0, x1 = round(self.left + c * self.pitch_x), round(self.left + (c + 1) * self.pitch_x)
        y0, y1 = round(self.top + r * self.pitch_y), round(self.top + (r + 1) * self.pitch_y)
        return Region(x0, y0, max(x1 - x0, 1), max(y1 - y0, 1))

    def cell_center(self, cell: Coord) -> tuple[int, int]:
        """The screen pixel to click for a cell: its centre, rounded down."""
        r, c = cell
        return (
            math.floor(self.left + (c + 0.5) * self.pitch_x),
            math.floor(self.top + (r + 0.5) * self.pitch_y),
        )

    def cell_at(self, x: float, y: float) -> Coord | None:
        """The cell under a screen pixel, or ``None`` outside the board."""
        c = _index_at(x, self.left, self.pitch_x)
        r = _index_at(y, self.top, self.pitch_y)
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return (r, c)
        return None

    def region(self) -> Region:
        """The bounding box of all cells."""
        x0, y0 = round(self.left), round(self.top)
        x1 = round(self.left + self.cols * self.pitch_x)
        y1 = round(self.top + self.rows * self.pitch_y)
        return Region(x0, y0, x1 - x0, y1 - y0)

    def offset(self, dx: float, dy: float) -> Geometry:
        """The same board moved by (dx, dy) pixels, e.g. from region to screen coordinates."""
        face = self.face.offset(round(dx), round(dy)) if self.face else None
        return replace(self, left=self.left + dx, top=self.top + dy, face=face)


def _index_at(x: float, start: float, pitch: float) -> int:
    """The cell index whose rounded span ``[round(start + i*pitch), round(start + (i+1)*pitch))`` holds x.

    Agrees with :meth:`Geometry.cell_rect` on every pixel, also at fractional pitches.
    """
    i = math.floor((x - start) / pitch)
    if x < round(start + i * pitch):
        i -= 1
    elif x >= round(start + (i + 1) * pitch):
        i += 1
    return i
