"""The game simulator: standard levels, first-click rules, open / flag / chord, win and loss.

A :class:`Game` holds the hidden mine layout and the player's view (a :class:`~bot.board.Board`).
It is seeded, so the same seed, level, rule and first click always give the same game. Nothing here
knows about screens or mice; the mock client renders a :class:`Game` into a skin.

>>> game = Game.new("beginner", rule="zero", seed=7)
>>> game.open((4, 4)) and game.board[4, 4] == Cell.ZERO
True
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import Enum

import numpy as np

from bot.board import Board, Cell, Coord, neighbour_table


@dataclass(frozen=True)
class Level:
    """A board size and mine count."""

    name: str
    rows: int
    cols: int
    mines: int


LEVELS: dict[str, Level] = {
    "beginner": Level("beginner", 9, 9, 10),
    "intermediate": Level("intermediate", 16, 16, 40),
    "expert": Level("expert", 16, 30, 99),
}


def find_level(name: str) -> Level:
    """A standard level by name, or a custom one written ``ROWSxCOLS/MINES`` (e.g. ``16x30/99``).

    Raises:
        ValueError: for an unknown name or an impossible size.
    """
    key = name.strip().lower()
    if key in LEVELS:
        return LEVELS[key]
    try:
        size, mines = key.split("/")
        rows, cols = (int(x) for x in size.split("x"))
        level = Level(key, rows, cols, int(mines))
    except ValueError:
        raise ValueError(
            f"unknown level {name!r}: use beginner, intermediate, expert or ROWSxCOLS/MINES"
        ) from None
    if rows < 1 or cols < 1 or not 0 <= level.mines < rows * cols:
        raise ValueError(f"impossible level {name!r}: need 0 <= mines < rows*cols")
    return level


class FirstClickRule(str, Enum):
    """What a client guarantees about the first click (see ANCHORS in the docs)."""

    SAFE = "safe"
    """Only the clicked cell is mine-free; the other mines are uniform over the remaining cells."""
    ZERO = "zero"
    """The clicked cell and its neighbours are mine-free, so the first click always opens an area."""
    WINXP = "winxp"
    """A mine under the first click moves to the top-left corner, or the first free cell right of it."""
    NONE = "none"
    """No protection: the first click may hit a mine."""

    @property
    def words(self) -> str:
        """The rule said plainly, for a user who never heard its name."""
        return {
            "safe": "the first click is never on a mine",
            "zero": "the first click always opens an area (no mine on it or around it)",
            "winxp": "the first click is never on a mine (one there moves to the top-left corner, as in "
            "Windows XP)",
            "none": "the first click may hit a mine",
        }[self.value]


def find_rule(name: str | FirstClickRule) -> FirstClickRule:
    """The first-click rule for a name such as ``"safe"``; raises ``ValueError`` for an unknown one."""
    try:
        return FirstClickRule(name)
    except ValueError:
        names = ", ".join(r.value for r in FirstClickRule)
        raise ValueError(f"unknown first-click rule {name!r}: use one of {names}") from None


class GameStatus(str, Enum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


# Plain ints and members bound once: an enum attribute look-up per cell dominated the flood fill.
_COVERED, _FLAG, _EIGHT = int(Cell.COVERED), int(Cell.FLAG), int(Cell.EIGHT)
_MINE, _EXPLODED, _WRONG_FLAG = int(Cell.MINE), int(Cell.EXPLODED), int(Cell.WRONG_FLAG)
_PLAYING, _WON, _LOST = GameStatus.PLAYING, GameStatus.WON, GameStatus.LOST


class Game:
    """One simulated game. Mines are placed at the first ``open``, following the first-click rule.

    ``layout`` (a bool array, True = mine) fixes the mines in advance for tests and replays. It is used
    as given, except that ``winxp`` still moves a mine from under the first click.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        mines: int,
        rule: str | FirstClickRule = FirstClickRule.SAFE,
        seed: int | None = None,
        layout: np.ndarray | None = None,
    ) -> None:
        if rows < 1 or cols < 1 or not 0 <= mines < rows * cols:
            raise ValueError(f"impossible game {rows}x{cols} with {mines} mines")
        self.rows, self.cols, self.mines = rows, cols, mines
        self.rule = find_rule(rule)
        self.rng = np.random.default_rng(seed)
        self._nbrs = neighbour_table(rows, cols)
        # The view is a bytearray (plain-int reads and writes in the flood fill) with a numpy window
        # on the same memory for the whole-board steps (copy for ``board``, masks at the end).
        self._view = bytearray([_COVERED]) * (rows * cols)
        self._grid = np.frombuffer(self._view, dtype=np.int8)
        self._mine: np.ndarray | None = None
        self._counts: np.ndarray | None = None
        self._mine_at: list[bool] = []
        self._count_at: list[int] = []
        self._to_open = rows * cols - mines
        """Safe cells still covered: the game is won when none is left."""
        self.status = _PLAYING
        self.moves = 0
        if layout is not None:
            layout = np.asarray(layout, dtype=bool)
            if layout.shape != (rows, cols) or int(layout.sum()) != mines:
                raise ValueError("layout must be a rows x cols bool array with exactly `mines` mines")
            self._set_layout(layout.ravel().copy())
        elif self.rule in (FirstClickRule.NONE, FirstClickRule.WINXP):
            # These rules place mines before the first click; WINXP may move one afterwards.
            self._set_layout(self._random_layout(excluded=()))

    @classmethod
    def new(
        cls, level: str | Level, rule: str | FirstClickRule = FirstClickRule.SAFE, seed: int | None = None
    ) -> Game:
        """A game at a standard or custom level (see :func:`find_level`)."""
        lv = find_level(level) if isinstance(level, str) else level
        return cls(lv.rows, lv.cols, lv.mines, rule=rule, seed=seed)

    # -- mine layout ------------------------------------------------------------------------------

    def _random_layout(self, excluded: tuple[int, ...] | list[int] | set[int]) -> np.ndarray:
        free = np.setdiff1d(np.arange(self.rows * self.cols), np.fromiter(excluded, dtype=np.int64))
        if len(free) < self.mines:  # too crowded for the rule: fall back to sparing the cell only
            free = np.setdiff1d(np.arange(self.rows * self.cols), np.array(list(excluded)[:1]))
        mine = np.zeros(self.rows * self.cols, dtype=bool)
        mine[self.rng.choice(free, size=self.mines, replace=False)] = True
        return mine

    def _set_layout(self, mine: np.ndarray) -> None:
        self._mine = mine
        grid = mine.reshape(self.rows, self.cols).astype(np.int8)
        padded = np.pad(grid, 1)
        counts = sum(
            padded[1 + dr : 1 + dr + self.rows, 1 + dc : 1 + dc + self.cols]
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0)
        )
        self._counts = np.asarray(counts, dtype=np.int8).ravel()
        self._mine_at = mine.tolist()
        self._count_at = self._counts.tolist()

    def _place_for_first_click(self, index: int) -> None:
        if self.rule is FirstClickRule.SAFE and self._mine is None:
            self._set_layout(self._random_layout(excluded=(index,)))
        elif self.rule is FirstClickRule.ZERO and self._mine is None:
            self._set_layout(self._random_layout(excluded=(index, *self._nbrs[index])))
        elif self.rule is FirstClickRule.WINXP and self._mine is not None and self._mine[index]:
            mine = self._mine.copy()
            mine[index] = False
            target = next(i for i in range(self.rows * self.cols) if not mine[i] and i != index)
            mine[target] = True
            self._set_layout(mine)
        elif self._mine is None:  # a layout-free SAFE/ZERO game always has one by now; NONE too
            self._set_layout(self._random_layout(excluded=()))

    # -- the player's view ----------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """A copy of what the player sees, with the total mine count."""
        return Board(self._grid.reshape(self.rows, self.cols).copy(), self.mines)

    @property
    def layout(self) -> np.ndarray | None:
        """The mine layout (rows x cols bool array), or ``None`` before the first click places it."""
        return None if self._mine is None else self._mine.reshape(self.rows, self.cols).copy()

    def is_over(self) -> bool:
        return self.status is not _PLAYING

    def _index(self, cell: Coord) -> int:
        r, c = cell
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise ValueError(f"cell {cell} is outside the {self.rows}x{self.cols} board")
        return r * self.cols + c

    # -- actions --------------------------------------------------------------------------------

    def open(self, cell: Coord) -> list[Coord]:
        """Open a covered cell; returns the cells newly revealed (flood fill over zeros).

        Opening a flagged or revealed cell, or any cell after the game ended, does nothing.
        """
        index = self._index(cell)
        if self.status is not _PLAYING or self._view[index] != _COVERED:
            return []
        if self.moves == 0:
            self._place_for_first_click(index)
        self.moves += 1
        return self._open_indices([index])

    def _open_indices(self, indices: list[int]) -> list[Coord]:
        assert self._mine is not None
        view, mine, counts, nbrs = self._view, self._mine_at, self._count_at, self._nbrs
        if len(indices) == 1 and counts[indices[0]] and not mine[indices[0]]:  # most opens: one number
            i = indices[0]
            if view[i] != _COVERED:
                return []
            view[i] = counts[i]
            self._count_opened(1)
            return [divmod(i, self.cols)]
        hit = [i for i in indices if mine[i] and view[i] == _COVERED]
        if hit:
            self._lose(hit)
            return [divmod(i, self.cols) for i in hit]
        queue = deque(i for i in indices if view[i] == _COVERED)
        for i in queue:
            view[i] = counts[i]
        opened = list(queue)
        while queue:  # iterative flood fill: no recursion limit at any size
            i = queue.popleft()
            if counts[i] == 0:
                for j in nbrs[i]:
                    if view[j] == _COVERED:
                        view[j] = counts[j]
                        opened.append(j)
                        queue.append(j)
        self._count_opened(len(opened))
        cols = self.cols
        return [divmod(i, cols) for i in opened]

    def _count_opened(self, n: int) -> None:
        """``n`` more safe cells are open: the game is won (mines shown flagged) when none is left."""
        self._to_open -= n
        if self._to_open == 0:
            self.status = _WON
            self._grid[self._mine] = _FLAG

    def _lose(self, exploded: list[int]) -> None:
        assert self._mine is not None
        view, mine = self._grid, self._mine
        self.status = _LOST
        view[mine & (view == _COVERED)] = _MINE
        view[~mine & (view == _FLAG)] = _WRONG_FLAG
        view[exploded] = _EXPLODED

    def open_random_zero(self) -> Coord | None:
        """Open a uniformly random mine-free cell with no mine around it, as xdemineur does at start-up.

        Places the mines first if needed (uniformly: the rule's first-click protection does not apply,
        since no cell was chosen). Returns the cell, or None when the layout has no such cell.
        """
        if self.status is not _PLAYING or self.moves:
            raise ValueError("open_random_zero starts a game: call it before any other move")
        if self._mine is None:
            self._set_layout(self._random_layout(excluded=()))
        assert self._mine is not None and self._counts is not None
        zeros = np.flatnonzero(~self._mine & (self._counts == 0))
        if len(zeros) == 0:
            return None
        index = int(self.rng.choice(zeros))
        self.moves += 1
        self._open_indices([index])
        return divmod(index, self.cols)

    def flag(self, cell: Coord) -> None:
        """Toggle a flag on a covered cell (no effect on revealed cells or after the game ended)."""
        index = self._index(cell)
        if self.status is not _PLAYING:
            return
        if self._view[index] == _COVERED:
            self._view[index] = _FLAG
        elif self._view[index] == _FLAG:
            self._view[index] = _COVERED

    def chord(self, cell: Coord) -> list[Coord]:
        """On a revealed number with exactly that many flagged neighbours, open the other neighbours.

        Wrong flags make this lose, as in the real game. Otherwise it does nothing.
        """
        index = self._index(cell)
        view = self._view
        value = view[index]
        if self.status is not _PLAYING or value > _EIGHT or self.moves == 0:
            return []
        around = self._nbrs[index]
        if sum(1 for j in around if view[j] == _FLAG) != value:
            return []
        targets = [j for j in around if view[j] == _COVERED]
        if not targets:
            return []
        self.moves += 1
        return self._open_indices(targets)
