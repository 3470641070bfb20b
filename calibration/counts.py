"""The counting rules as evidence for labels, over the whole board at once.

On a screenshot where every mine shows (a lost board: mines, the exploded mine and the flags that
were right; a won board: the flags), a revealed cell's number *is* the count of mine-like cells
around it. So once the mine-like groups are known, every other glyph group whose cells all touch the
same count is that digit, whatever its colour, background or font: a client that draws each digit on
its own coloured background, in one colour for all digits, or a digit in two looks (a highlight) is
labelled the same way. Which groups are mine-like is itself chosen by the counts:
:func:`choose_mines` adds the glyph group that makes the most cells agree with their group's count
while that gain is positive, so the looks only have to propose, never to decide alone.

A plain group with a cell that touches a mine cannot be 0, so the counts also tell 0 from covered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

OFFSETS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def mine_counts(grid: np.ndarray, mines: Iterable[int]) -> np.ndarray:
    """Per cell of a group-id grid, how many of its neighbours belong to one of the ``mines`` groups."""
    m = np.pad(np.isin(grid, list(mines)).astype(np.int16), 1)
    rows, cols = grid.shape
    return sum(m[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols] for dr, dc in OFFSETS)


@dataclass
class GroupCounts:
    """How many cells of one group touch each count of mine-like cells (on the exact screenshots)."""

    counts: Counter

    @property
    def cells(self) -> int:
        return sum(self.counts.values())

    @property
    def mode(self) -> int | None:
        return self.counts.most_common(1)[0][0] if self.counts else None

    @property
    def uniform(self) -> bool:
        """Every cell touches the same count (and there is at least one cell)."""
        return len(self.counts) == 1

    def agree(self, value: int | None = None) -> int:
        """Cells touching ``value`` minus cells touching another. The default is the most common count
        of at least 1: a group of unknown value is a digit, and a digit is never 0 (so a group whose
        cells touch no counted mine at all agrees with nothing)."""
        if not self.counts:
            return 0
        if value is None:
            digits = [(n, v) for v, n in self.counts.items() if v >= 1]
            value = max(digits)[1] if digits else -1
        hit = self.counts.get(value, 0)
        return hit - (self.cells - hit)


def group_counts(grids: list[np.ndarray], shots: Iterable[int], mines: set[int]) -> dict[int, GroupCounts]:
    """For every group on the ``shots`` screenshots, the counts of mine-like neighbours of its cells."""
    out: dict[int, GroupCounts] = {}
    for k in shots:
        grid = grids[k]
        counts = mine_counts(grid, mines)
        for gid, n in zip(grid.ravel().tolist(), counts.ravel().tolist(), strict=True):
            out.setdefault(int(gid), GroupCounts(Counter()))
            out[int(gid)].counts[int(n)] += 1
    return out


def consistency(
    grids: list[np.ndarray], shots: set[int], mines: set[int], revealed: dict[int, int | None]
) -> int:
    """How well a set of mine-like groups explains the revealed groups: summed :meth:`GroupCounts.agree`.

    ``revealed`` maps each revealed group to its known value (None: whatever its cells agree on).
    """
    per = group_counts(grids, shots, mines)
    return sum(per[g].agree(v) for g, v in revealed.items() if g not in mines and g in per)


def choose_mines(
    grids: list[np.ndarray],
    shots: set[int],
    mines: set[int],
    candidates: Iterable[int],
    revealed: dict[int, int | None],
) -> set[int]:
    """The mine-like groups: ``mines`` plus the candidates that make the counts agree better, greedily.

    A candidate that is a digit lowers the score when moved to the mines (its own cells stop counting
    and its neighbours' counts break); a mine variant raises it.
    """
    chosen = set(mines)
    pool = [g for g in candidates if g not in chosen]
    best = consistency(grids, shots, chosen, revealed)
    while pool:
        scored = [(consistency(grids, shots, chosen | {g}, revealed), g) for g in pool]
        score, g = max(scored)
        if score <= best:
            break
        chosen.add(g)
        pool.remove(g)
        best = score
    return chosen


def pinned_values(
    grids: list[np.ndarray], shots: Iterable[int], mines: set[int], undecided: set[int], groups: Iterable[int]
) -> dict[int, tuple[int, int]]:
    """For each of ``groups``: the range of values its cells allow together, ``(lo, hi)``.

    A cell touches at least its ``mines`` neighbours and at most those plus its neighbours in
    ``undecided`` groups (which may be mines); a digit group's value lies in every one of its cells'
    ranges. ``lo == hi`` pins it; ``lo > hi`` means it cannot be a digit at all.
    """
    wanted = set(groups)
    out = {g: (0, 8) for g in wanted}
    for k in shots:
        grid = grids[k]
        low = mine_counts(grid, mines)
        high = low + mine_counts(grid, undecided)
        for gid, lo, hi in zip(
            grid.ravel().tolist(), low.ravel().tolist(), high.ravel().tolist(), strict=True
        ):
            if gid in wanted:
                a, b = out[gid]
                out[gid] = (max(a, int(lo)), min(b, int(hi)))
    return out
