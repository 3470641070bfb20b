"""Exhaustive endgame search: when few arrangements remain, find the click that maximises P(win).

Used when the exact engine counts at most :data:`MAX_ARRANGEMENTS` full-board arrangements. Each
arrangement (a bitmask over the unknown cells) is equally likely. A state is the set of arrangements
still possible; clicking a cell splits it by whether the cell is a mine and by the number it shows.
``win(S)`` is 1 when every unknown cell is determined; otherwise it first opens a cell that is safe in
every arrangement of S but shows different numbers (free information), and else takes the best guess,
``max over cells of sum over values |S_value| / |S| * win(S_value)``. States are memoised; a node
budget bounds the work, and past it the caller falls back to the heuristic policy.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.solver.rules import COVERED, Knowledge

LOGGER = logging.getLogger(__name__)

MAX_ARRANGEMENTS = 1500
"""Search only when the position has at most this many consistent arrangements."""
MAX_UNKNOWN = 40
"""... and at most this many unknown covered cells."""
NODE_BUDGET = 20_000


class _Budget(Exception):
    """The search ran out of nodes."""


@dataclass(frozen=True)
class EndgameChoice:
    """The best click found and its probability of winning the game from here."""

    cell: int
    win: float
    arrangements: int


def arrangements(know: Knowledge, unknown: list[int], mines_left: int, limit: int) -> list[int] | None:
    """Every assignment of ``mines_left`` mines to ``unknown`` cells that fits the constraints (bitmasks).

    None when there are more than ``limit``.
    """
    index = {j: i for i, j in enumerate(unknown)}
    cons = [([index[j] for j in cells], need) for cells, need in know.cons.values()]
    cell_cons: list[list[int]] = [[] for _ in unknown]
    for c, (cells, _) in enumerate(cons):
        for i in cells:
            cell_cons[i].append(c)
    rem_need = [need for _, need in cons]
    rem_cap = [len(cells) for cells, _ in cons]
    n = len(unknown)
    out: list[int] = []

    def rec(i: int, left: int, mask: int) -> None:
        if left > n - i:
            return
        if i == n:
            out.append(mask)
            if len(out) > limit:
                raise _Budget
            return
        cs = cell_cons[i]
        for mine in (0, 1):
            if mine and not left:
                break
            ok = True
            for c in cs:
                need = rem_need[c] - mine
                if need < 0 or need > rem_cap[c] - 1:
                    ok = False
                    break
            if not ok:
                continue
            for c in cs:
                rem_need[c] -= mine
                rem_cap[c] -= 1
            rec(i + 1, left - mine, mask | (mine << i))
            for c in cs:
                rem_need[c] += mine
                rem_cap[c] += 1

    try:
        rec(0, mines_left, 0)
    except _Budget:
        return None
    return out


def _by_safety(state: list[int], open_cells: int, n: int) -> list[tuple[int, int]]:
    """(arrangements where the cell is safe, cell) for the undetermined cells, safest first."""
    pairs = []
    for i in range(n):
        if (open_cells >> i) & 1:
            bit = 1 << i
            pairs.append((sum(1 for a in state if not a & bit), i))
    pairs.sort(key=lambda p: (-p[0], p[1]))
    return pairs


def search(
    know: Knowledge, mines_left: int, node_budget: int = NODE_BUDGET, max_arrangements: int = MAX_ARRANGEMENTS
) -> EndgameChoice | None:
    """The click with the highest probability of winning, or None when the position is too big."""
    cells = know.cells
    unknown = [j for j, v in enumerate(cells) if v == COVERED and j not in know.known]
    if not unknown or len(unknown) > MAX_UNKNOWN:
        return None
    # cells next to a number first, so the constraints prune early
    unknown.sort(key=lambda j: (j not in know.cell_cons, j))
    arr = arrangements(know, unknown, mines_left, max_arrangements)
    if not arr:
        return None
    index = {j: i for i, j in enumerate(unknown)}
    n = len(unknown)
    # a cell's number is its fixed mines (flags, proven) plus the mines among these unknown cells;
    # the fixed part is the same in every arrangement, so only the unknown part splits a state
    near = [sum(1 << index[k] for k in know.nbrs[j] if k in index) for j in unknown]
    memo: dict[frozenset[int], float] = {}
    nodes = 0

    def split(state: list[int], i: int) -> dict[int, list[int]]:
        bit = 1 << i
        groups: dict[int, list[int]] = {}
        m = near[i]
        for a in state:
            if not a & bit:
                groups.setdefault((a & m).bit_count(), []).append(a)
        return groups

    def win(state: list[int]) -> float:
        nonlocal nodes
        if len(state) == 1:
            return 1.0
        key = frozenset(state)
        if key in memo:
            return memo[key]
        nodes += 1
        if nodes > node_budget:
            raise _Budget
        union = inter = state[0]
        for a in state:
            union |= a
            inter &= a
        open_cells = union & ~inter
        if not open_cells:
            return 1.0
        total = len(state)
        result = None
        for i in range(n):
            if not (union >> i) & 1:  # safe in every arrangement: free information if its number varies
                groups = split(state, i)
                if len(groups) > 1:
                    result = sum(len(g) * win(g) for g in groups.values()) / total
                    break
        if result is None:
            result = 0.0
            for safe, i in _by_safety(state, open_cells, n):
                if safe <= result * total + 1e-9:  # P(win) <= P(safe): nothing left can beat the best
                    break
                score = sum(len(g) * win(g) for g in split(state, i).values()) / total
                if score > result:
                    result = score
        memo[key] = result
        return result

    best: EndgameChoice | None = None
    best_safe = 0
    union = inter = arr[0]
    for a in arr:
        union |= a
        inter &= a
    try:
        for safe, i in _by_safety(arr, union & ~inter, n):
            if best is not None and safe < best.win * len(arr) - 1e-9:
                break
            groups = split(arr, i)
            score = sum(len(g) * win(g) for g in groups.values()) / len(arr)
            safe = sum(len(g) for g in groups.values())
            if best is None or (score, safe) > (best.win + 1e-12, best_safe):
                best, best_safe = EndgameChoice(unknown[i], score, len(arr)), safe
    except _Budget:
        LOGGER.debug("endgame search over %d arrangements ran out of nodes", len(arr))
        return None
    return best
