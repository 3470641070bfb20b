"""The board model: a grid of cell states plus the total mine count, and its text format.

This is the one board type every layer uses (simulator, solver, vision, CLI). It imports only the
standard library and numpy, so it works anywhere.

Text format, one line per row and one character per cell::

    .  covered          F  flag            0-8  revealed number
    *  mine shown       X  exploded mine   W    wrong flag

Lines starting with ``#`` are comments; ``# mines: 99`` gives the total mine count.

>>> board = Board.from_text("1.\\n..", mines=1)
>>> board.shape, board.mines, board[0, 0]
((2, 2), 1, <Cell.ONE: 1>)
>>> print(board)
1.
..
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import TypeAlias

import numpy as np

from bot.errors import BoardFormatError

Coord: TypeAlias = tuple[int, int]
"""A cell address, always ``(row, col)``, 0-based from the top-left."""


class Cell(IntEnum):
    """The state of one cell as a player sees it. Values 0-8 are revealed numbers."""

    ZERO = 0
    ONE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    COVERED = 9
    FLAG = 10
    MINE = 11
    """A mine shown at the end of a lost game."""
    EXPLODED = 12
    """The mine that was clicked and lost the game."""
    WRONG_FLAG = 13
    """A flag on a cell that held no mine, shown at the end of a lost game."""

    @property
    def char(self) -> str:
        """The cell's character in the board text format."""
        return CELL_CHARS[self]

    @classmethod
    def from_char(cls, char: str) -> Cell:
        """The cell for one text-format character; raises ``KeyError`` for an unknown one."""
        return CHAR_CELLS[char]

    def is_number(self) -> bool:
        """True for a revealed number 0-8."""
        return self <= Cell.EIGHT


CELL_CHARS: dict[Cell, str] = {
    **{Cell(n): str(n) for n in range(9)},
    Cell.COVERED: ".",
    Cell.FLAG: "F",
    Cell.MINE: "*",
    Cell.EXPLODED: "X",
    Cell.WRONG_FLAG: "W",
}
CHAR_CELLS: dict[str, Cell] = {char: cell for cell, char in CELL_CHARS.items()}

_TOP = int(max(Cell))
"""The largest cell value (bound once: iterating the enum on every board built was most of its cost)."""
_MINES_COMMENT = re.compile(r"#\s*mines\s*[:=]\s*(\d+)\s*$", re.IGNORECASE)


@lru_cache(maxsize=64)
def neighbour_table(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For each flat index ``r * cols + c``, the flat indices of its up-to-8 neighbours.

    Built once per board size (like a chess attack table) so hot loops never recompute bounds.
    """
    table = []
    for r in range(rows):
        for c in range(cols):
            table.append(
                tuple(
                    rr * cols + cc
                    for rr in range(max(r - 1, 0), min(r + 2, rows))
                    for cc in range(max(c - 1, 0), min(c + 2, cols))
                    if (rr, cc) != (r, c)
                )
            )
    return tuple(table)


def neighbours(rows: int, cols: int, cell: Coord) -> list[Coord]:
    """The in-bounds neighbours of ``cell`` on a ``rows`` x ``cols`` board."""
    r, c = cell
    return [divmod(i, cols) for i in neighbour_table(rows, cols)[r * cols + c]]


@dataclass(eq=False)
class Board:
    """A rows x cols grid of :class:`Cell` values (``int8`` numpy array) and the total mine count.

    ``mines`` is ``None`` when the count is unknown. Boards compare equal when cells and mines match.
    """

    cells: np.ndarray
    mines: int | None = None

    def __post_init__(self) -> None:
        self.cells = np.asarray(self.cells, dtype=np.int8)
        if self.cells.ndim != 2 or self.cells.size == 0:
            raise BoardFormatError(f"a board needs a non-empty 2-D grid, got shape {self.cells.shape}")
        if int(self.cells.view(np.uint8).max()) > _TOP:  # one pass: a negative value reads as >= 128
            raise BoardFormatError("cell values must be Cell members (0-13)")
        if self.mines is not None and not 0 <= self.mines <= self.cells.size:
            raise BoardFormatError(f"mine count {self.mines} does not fit a board of {self.cells.size} cells")

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def new(cls, rows: int, cols: int, mines: int | None = None) -> Board:
        """A fresh board: every cell covered."""
        return cls(np.full((rows, cols), Cell.COVERED, dtype=np.int8), mines)

    @classmethod
    def from_text(cls, text: str, mines: int | None = None) -> Board:
        """Parse the text format; ``mines`` overrides a ``# mines: N`` comment.

        Raises:
            BoardFormatError: naming the 1-based line and column of the first problem.
        """
        rows: list[list[int]] = []
        width = None
        found_mines = None
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                match = _MINES_COMMENT.match(line)
                if match:
                    found_mines = int(match.group(1))
                continue
            row = []
            for column, char in enumerate(line, start=1):
                if char not in CHAR_CELLS:
                    raise BoardFormatError(
                        f"unknown cell character {char!r} (expected one of . F 0-8 * X W)", number, column
                    )
                row.append(CHAR_CELLS[char])
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise BoardFormatError(
                    f"row has {len(row)} cells, the first row has {width}", number, len(row)
                )
            rows.append(row)
        if not rows:
            raise BoardFormatError("no board rows found")
        return cls(np.array(rows, dtype=np.int8), mines if mines is not None else found_mines)

    # -- formatting -----------------------------------------------------------------------------

    def to_text(self, with_mines: bool = False) -> str:
        """The text format (no trailing newline); ``with_mines`` adds a ``# mines: N`` header."""
        lines = ["".join(CELL_CHARS[Cell(v)] for v in row) for row in self.cells.tolist()]
        if with_mines and self.mines is not None:
            lines.insert(0, f"# mines: {self.mines}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        mines = f", mines={self.mines}" if self.mines is not None else ""
        return f"Board.from_text({self.to_text()!r}{mines})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.mines == other.mines and np.array_equal(self.cells, other.cells)

    # -- access ---------------------------------------------------------------------------------

    @property
    def rows(self) -> int:
        return int(self.cells.shape[0])

    @property
    def cols(self) -> int:
        return int(self.cells.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        return (self.rows, self.cols)

    def __getitem__(self, cell: Coord) -> Cell:
        return Cell(int(self.cells[cell]))

    def __setitem__(self, cell: Coord, value: Cell) -> None:
        self.cells[cell] = value

    def copy(self) -> Board:
        return Board(self.cells.copy(), self.mines)

    def in_bounds(self, cell: Coord) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def neighbours(self, cell: Coord) -> list[Coord]:
        """The in-bounds neighbours of ``cell``."""
        return neighbours(self.rows, self.cols, cell)

    def cells_where(self, mask: np.ndarray) -> list[Coord]:
        """The ``(row, col)`` of every true entry of a boolean mask, in reading order."""
        return [(int(r), int(c)) for r, c in zip(*np.nonzero(mask), strict=True)]

    def __iter__(self) -> Iterator[Coord]:
        for r in range(self.rows):
            for c in range(self.cols):
                yield (r, c)

    # -- masks (numpy bool arrays) and their friendly cell-list twins ---------------------------

    def covered_mask(self) -> np.ndarray:
        """Cells still covered and not flagged."""
        return self.cells == Cell.COVERED

    def flagged_mask(self) -> np.ndarray:
        return self.cells == Cell.FLAG

    def revealed_mask(self) -> np.ndarray:
        """Cells showing a number 0-8."""
        return self.cells <= Cell.EIGHT

    def covered(self) -> list[Coord]:
        return self.cells_where(self.covered_mask())

    def flagged(self) -> list[Coord]:
        return self.cells_where(self.flagged_mask())

    # -- whole-board predicates -----------------------------------------------------------------

    def is_lost(self) -> bool:
        """An exploded mine is showing."""
        return bool((self.cells == Cell.EXPLODED).any())

    def is_won(self) -> bool:
        """Every non-mine cell is revealed (needs the mine count) and nothing exploded."""
        if self.mines is None or self.is_lost():
            return False
        return int(self.revealed_mask().sum()) == self.cells.size - self.mines

    def is_fresh(self) -> bool:
        """Nothing revealed yet."""
        return not self.revealed_mask().any()
