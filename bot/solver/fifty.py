"""Unavoidable guesses: cells that no click, now or later, can ever tell apart.

A number's unknown cells ``T`` (holding ``need`` mines, ``0 < need < |T|``) are *enclosed* when every
neighbour of every cell of ``T`` that is not in ``T`` and not a proven mine touches every cell of
``T``. Then each number on the board, and each number any later click can reveal, sees all of
``T`` or none of it, and the mine total cannot tell them apart either: every arrangement stays
consistent when the cells of ``T`` are permuted. So their probabilities are equal now and forever,
and ``need`` of them are mines: to win, the safe ones must be opened at a guess sooner or later.
Taking that guess first costs nothing and may reveal a number that helps the other guesses.

The same holds for a whole *isolated region*: numbers' cells whose every covered neighbour that is
not a proven mine is in the region too, and which hold the same number of mines in every
arrangement. Nothing outside it can ever inform it, so the game is won exactly when the region is
cleared and the rest is: the region can be played first, by an exhaustive search of its own.
"""

from __future__ import annotations

from bot.solver.engine import count_region, split_regions
from bot.solver.rules import COVERED, FLAG, Knowledge


def _touches(cols: int, a: int, b: int) -> bool:
    """Whether cells ``a`` and ``b`` are neighbours (8-connected)."""
    ra, ca = divmod(a, cols)
    rb, cb = divmod(b, cols)
    return abs(ra - rb) <= 1 and abs(ca - cb) <= 1


def enclosed(know: Knowledge, cells: set[int]) -> bool:
    """Whether every non-mine neighbour of ``cells`` outside them touches all of them."""
    grid, known, cols = know.cells, know.known, know.cols
    for a in cells:
        for k in know.nbrs[a]:
            if k in cells or grid[k] == FLAG or known.get(k) is True:
                continue
            if not all(_touches(cols, k, t) for t in cells):
                return False
    return True


def unavoidable(know: Knowledge) -> list[int] | None:
    """The cells of one unavoidable guess, sorted (any of them is as good as any other), or None."""
    seen: set[frozenset[int]] = set()
    for unknown, need in know.cons.values():
        if not 0 < need < len(unknown) or len(unknown) < 2:
            continue
        key = frozenset(unknown)
        if key in seen:
            continue
        seen.add(key)
        if enclosed(know, unknown):
            return sorted(unknown)
    return None


def isolated_regions(know: Knowledge) -> list[tuple[list[int], int]]:
    """(sorted cells, mines) of every isolated region with a fixed mine count, smallest first.

    Regions whose count passes the engine's budget are left out.
    """
    grid, known = know.cells, know.known
    found = []
    for numbers in split_regions(know):
        cells = set().union(*(know.cons[k][0] for k in numbers))
        if any(
            grid[k] == COVERED and k not in cells and known.get(k) is not True
            for j in cells
            for k in know.nbrs[j]
        ):
            continue
        counted = count_region(know, numbers)
        if counted is None:
            continue
        totals = counted.counts.nonzero()[0]
        if len(totals) == 1:
            found.append((sorted(cells), int(totals[0])))
    found.sort(key=lambda item: (len(item[0]), item[0]))
    return found
