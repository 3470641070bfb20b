"""Cheap certain deductions (single-number and pair rules) and the constraint set the exact engine needs.

:class:`Knowledge` reads a board once into flat lists: the revealed numbers that still touch covered
cells become constraints ``(unknown cells, mines still needed)``. Propagation then applies the
single-number rule (a number that needs 0 mines, or as many mines as unknown cells) and the pair rule
(for two overlapping numbers, bound the mines in the shared cells and conclude for the cells only one
of them touches; the subset rule is its special case) until nothing changes. Every deduction is
certain; anything impossible raises :class:`~bot.errors.ContradictionError` naming the number cell.

:meth:`Knowledge.reveal` adds one hypothetical revealed number to a copy, re-propagating only what it
touches: the guess policy uses it to look one click ahead cheaply.
"""

from __future__ import annotations

import logging

import numpy as np

from bot.board import Board, Cell, neighbour_table
from bot.errors import ContradictionError, GameOverError

LOGGER = logging.getLogger(__name__)

COVERED = int(Cell.COVERED)
FLAG = int(Cell.FLAG)
END_STATES = (int(Cell.MINE), int(Cell.EXPLODED), int(Cell.WRONG_FLAG))
EIGHT = int(Cell.EIGHT)

SINGLE_RULE = "single-number rule"
SUBSET_RULE = "subset rule"
PAIR_RULE = "pair rule"


def check_playable(board: Board) -> None:
    """Raise :class:`GameOverError` if the board shows an ended game (``*``, ``X`` or ``W``)."""
    if int(board.cells.max()) < min(END_STATES):
        return
    ended = np.isin(board.cells, END_STATES)
    if ended.any():
        r, c = (int(x) for x in np.argwhere(ended)[0])
        raise GameOverError(
            f"the game is over: cell {(r, c)} shows {Cell(int(board.cells[r, c])).char!r}", (r, c)
        )


def count_around(mask: np.ndarray) -> np.ndarray:
    """For every cell, how many of its 8 neighbours are set in ``mask`` (vectorised)."""
    rows, cols = mask.shape
    padded = np.zeros((rows + 2, cols + 2), np.int16)
    padded[1:-1, 1:-1] = mask
    across = padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:]  # each row's 3-wide sums
    return across[:-2] + across[1:-1] + across[2:] - padded[1:-1, 1:-1]  # the 3x3 box but its centre


class Knowledge:
    """What is certain about a board: rule-proven mines and safe cells, and the open constraints.

    Cells are flat indices ``r * cols + c``. ``cons`` maps a number cell to ``[unknown cells, need]``
    where unknown cells are covered, unflagged and not yet proven; ``known`` maps a proven cell to
    True (mine) or False (safe) and ``reason`` says which rule proved it.
    """

    __slots__ = (
        "rows",
        "cols",
        "cells",
        "covered",
        "nbrs",
        "cons",
        "cell_cons",
        "known",
        "reason",
        "flags",
        "_dirty",
        "_seen",
    )

    def __init__(self, rows: int, cols: int, cells: list[int]) -> None:
        self.rows, self.cols, self.cells = rows, cols, cells
        self.covered = {j for j, v in enumerate(cells) if v == COVERED}
        self.nbrs = neighbour_table(rows, cols)
        self.cons: dict[int, list] = {}
        self.cell_cons: dict[int, set[int]] = {}
        self.known: dict[int, bool] = {}
        self.reason: dict[int, str] = {}
        self.flags = 0
        self._dirty: set[int] = set()
        self._seen: np.ndarray | None = None
        """The board's cells as last read or advanced to (flat), or None: what :meth:`advance` diffs."""

    # -- construction -------------------------------------------------------------------------------

    @classmethod
    def from_board(cls, board: Board) -> Knowledge:
        """Read the board's constraints and propagate the cheap rules to a fixed point.

        Raises:
            GameOverError: the board shows an ended game.
            ContradictionError: a number has too many flags or too few covered neighbours, or the
                rules find a number that no arrangement satisfies.
        """
        check_playable(board)
        rows, cols = board.shape
        grid = board.cells
        around = count_around(grid == COVERED)
        flagged = grid == FLAG
        flag_around = count_around(flagged)
        numbers = grid <= Cell.EIGHT
        too_many_flags = numbers & (flag_around > grid)
        if too_many_flags.any():
            r, c = (int(x) for x in np.argwhere(too_many_flags)[0])
            raise ContradictionError(
                f"cell {(r, c)} shows {int(grid[r, c])} but has {int(flag_around[r, c])} flagged neighbours",
                (r, c),
            )
        too_few = numbers & (flag_around + around < grid)
        if too_few.any():
            r, c = (int(x) for x in np.argwhere(too_few)[0])
            raise ContradictionError(
                f"cell {(r, c)} shows {int(grid[r, c])} but only {int(flag_around[r, c] + around[r, c])} "
                "of its neighbours are covered or flagged",
                (r, c),
            )
        know = cls(rows, cols, grid.ravel().tolist())
        know.flags = int(flagged.sum())
        need = (grid.astype(np.int16) - flag_around).ravel().tolist()
        nbrs, cells = know.nbrs, know.cells
        for i in np.flatnonzero((numbers & (around > 0)).ravel()).tolist():
            know._add_constraint(i, [j for j in nbrs[i] if cells[j] == COVERED], need[i])
        know.propagate()
        know._seen = grid.ravel().copy()
        return know

    def advance(self, board: Board) -> bool:
        """Update in place to ``board``, a later position of the same game; False if it is not one.

        A later position differs only by covered cells that now show a number or a flag. The new
        numbers become constraints and propagation runs from them alone, so a move costs what it
        changed, not the whole board. Since every rule is monotone (more numbers only prove more),
        the fixed point reached is the one :meth:`from_board` reaches from scratch. False (and the
        object left unusable) when the board is not such a successor or a new number contradicts
        what is known: the caller then reads the board from scratch, which names the problem.
        """
        if board.shape != (self.rows, self.cols):
            return False
        new = board.cells.ravel()
        old = self._seen if self._seen is not None else np.array(self.cells, dtype=new.dtype)
        changed = np.flatnonzero(new != old).tolist()
        if not changed:
            return True
        values = new[changed].tolist()
        pairs = list(zip(changed, values, strict=True))
        cells, known = self.cells, self.known  # (``cells`` holds what ``old`` holds, as plain ints)
        for j, v in pairs:
            if cells[j] != COVERED or not (v <= EIGHT or v == FLAG):
                return False
        try:
            for j, v in pairs:
                mine = known.get(j)
                if v == FLAG:
                    if mine is False:
                        return False
                    if mine is None:
                        self._settle(j, True, "flag")
                    del known[j], self.reason[j]
                    self.flags += 1
                elif mine is None:
                    self._drop(j)
                elif mine:
                    return False
                else:
                    del known[j], self.reason[j]
                cells[j] = v
            self.covered.difference_update(changed)
            for j, v in zip(changed, values, strict=True):
                if v == FLAG:
                    continue
                unknown, need = self._open_around(j, v)
                if need < 0 or need > len(unknown):
                    return False
                if unknown:
                    self._add_constraint(j, unknown, need)
            self.propagate()
        except ContradictionError:
            return False
        self._seen = new.copy()
        return True

    def _open_around(self, cell: int, value: int) -> tuple[list[int], int]:
        """The unknown neighbours of a number ``value`` at ``cell`` and the mines still needed there."""
        cells, known = self.cells, self.known
        unknown, need = [], value
        for k in self.nbrs[cell]:
            v = cells[k]
            if v == COVERED:  # (a proven mine is always covered: a flag or a number drops it from known)
                mine = known.get(k)
                if mine is None:
                    unknown.append(k)
                elif mine:
                    need -= 1
            elif v == FLAG:
                need -= 1
        return unknown, need

    def _add_constraint(self, cell: int, unknown: list[int], need: int) -> None:
        self.cons[cell] = [set(unknown), need]
        cell_cons = self.cell_cons
        for j in unknown:
            if j in cell_cons:
                cell_cons[j].add(cell)
            else:
                cell_cons[j] = {cell}
        self._dirty.add(cell)

    def copy(self) -> Knowledge:
        """An independent copy (the neighbour table is shared; it never changes)."""
        new = Knowledge.__new__(Knowledge)
        new.rows, new.cols, new.nbrs, new.flags = self.rows, self.cols, self.nbrs, self.flags
        new.cells = self.cells.copy()
        new.covered = self.covered.copy()
        new.cons = {k: [set(v[0]), v[1]] for k, v in self.cons.items()}
        new.cell_cons = {k: set(v) for k, v in self.cell_cons.items()}
        new.known = self.known.copy()
        new.reason = self.reason.copy()
        new._dirty = set(self._dirty)
        new._seen = None
        return new

    def reveal(self, cell: int, value: int) -> Knowledge:
        """A copy in which the unknown covered ``cell`` shows ``value``; re-propagates locally.

        Raises:
            ContradictionError: the value is impossible there.
        """
        new = self.copy()
        new._settle(cell, False, "hypothesis")
        new.cells[cell] = value
        new.covered.discard(cell)
        unknown, need = new._open_around(cell, value)
        if need < 0 or need > len(unknown):
            raise ContradictionError(
                f"cell {divmod(cell, new.cols)} cannot show {value}", divmod(cell, new.cols)
            )
        if unknown:
            new._add_constraint(cell, unknown, need)
        new.propagate()
        return new

    # -- propagation ----------------------------------------------------------------------------------

    def _drop(self, cell: int) -> None:
        """Take a cell that now shows a number out of every constraint that contains it."""
        for k in self.cell_cons.pop(cell, ()):
            self.cons[k][0].discard(cell)
            self._dirty.add(k)

    def _settle(self, cell: int, mine: bool, why: str) -> None:
        """Record a proven cell and remove it from every constraint that contains it."""
        self.known[cell] = mine
        self.reason[cell] = why
        owners = self.cell_cons.pop(cell, ())
        if not owners:
            return
        cons = self.cons
        for k in owners:
            con = cons[k]
            con[0].discard(cell)
            if mine:
                con[1] -= 1
        self._dirty |= owners

    def _contradiction(self, k: int, detail: str) -> ContradictionError:
        rc = divmod(k, self.cols)
        return ContradictionError(f"cell {rc} shows {self.cells[k]} but {detail}", rc)

    def _single(self, queue: set[int], touched: set[int]) -> bool:
        """Apply the single-number rule to the queued constraints until none is left; True if any fired.

        Every constraint it looks at (including those its deductions change) is added to ``touched``,
        for the pair rule to check next.
        """
        cons = self.cons
        fired = False
        while queue:
            k = queue.pop()
            touched.add(k)
            con = cons.get(k)
            if con is None:
                continue
            unknown, need = con
            if need < 0:
                raise self._contradiction(k, "more mines are proven around it")
            if need > len(unknown):
                raise self._contradiction(
                    k, f"only {len(unknown)} unknown neighbours remain for {need} mines"
                )
            if not unknown:
                del cons[k]
                continue
            if need == 0 or need == len(unknown):
                mine = need > 0
                for j in list(unknown):
                    self._settle(j, mine, SINGLE_RULE)
                queue |= self._dirty
                self._dirty.clear()
                fired = True
        return fired

    def _pairs(self, todo: set[int]) -> bool:
        """Pair (and subset) rule: pop constraints from ``todo``, stop at the first deduction (True)."""
        cons, cell_cons = self.cons, self.cell_cons
        while todo:
            a = todo.pop()
            con_a = cons.get(a)
            if con_a is None:
                continue
            ua, na = con_a
            partners: set[int] = set()
            for j in ua:
                partners |= cell_cons[j]
            partners.discard(a)
            for b in partners:
                ub, nb = cons[b]
                inter = len(ua & ub)
                only_a = len(ua) - inter
                only_b = len(ub) - inter
                # mines in the shared cells lie in [lo, hi]; the rest of each number takes the remainder
                hi = min(inter, na, nb)
                lo = max(0, na - only_a, nb - only_b)
                if lo > hi:
                    raise self._contradiction(
                        a, f"it cannot be satisfied together with cell {divmod(b, self.cols)}"
                    )
                why = SUBSET_RULE if only_a == 0 or only_b == 0 else PAIR_RULE
                for u, v, n, only in ((ua, ub, na, only_a), (ub, ua, nb, only_b)):
                    if not only:
                        continue
                    if n - hi == only or n - lo == 0:  # the cells only this number touches: all mines / safe
                        for j in u - v:
                            self._settle(j, n - hi == only, why)
                        todo.add(a)
                        return True
        return False

    def propagate(self) -> None:
        """Apply the single-number rule, then the pair rule, until neither proves anything new."""
        pair_todo: set[int] = set()
        while True:
            queue = self._dirty
            self._dirty = set()
            self._single(queue, pair_todo)
            pair_todo |= self._dirty
            if self._dirty:
                continue
            if not self._pairs(pair_todo):  # leaves what it has not checked yet in pair_todo
                break
        for k in [k for k, con in self.cons.items() if not con[0]]:
            del self.cons[k]

    # -- results --------------------------------------------------------------------------------------

    def safe_cells(self) -> list[int]:
        """Proven-safe covered cells, in reading order."""
        return sorted(j for j, mine in self.known.items() if not mine and self.cells[j] == COVERED)

    def mine_cells(self) -> list[int]:
        """Proven mines (not flagged on the board), in reading order."""
        return sorted(j for j, mine in self.known.items() if mine)

    def known_mines(self) -> int:
        """Flags plus rule-proven mines."""
        return self.flags + sum(1 for mine in self.known.values() if mine)
