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


def _by_safety(state: int, open_cells: list[int], mine_sets: list[int]) -> list[tuple[int, int]]:
    """(arrangements where the cell is safe, cell) for the undetermined cells, safest first."""
    pairs = [((state & ~mine_sets[i]).bit_count(), i) for i in open_cells]
    pairs.sort(key=lambda p: (-p[0], p[1]))
    return pairs


def search(
    know: Knowledge, mines_left: int, node_budget: int = NODE_BUDGET, max_arrangements: int = MAX_ARRANGEMENTS
) -> EndgameChoice | None:
    """The click with the highest probability of winning, or None when the position is too big.

    A state (a set of arrangements) is a Python integer with one bit per arrangement, so splitting it
    by a cell's outcome is a handful of big-integer ANDs against bitsets built once per search.
    """
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
    mine_sets = [0] * n  # bit a set: arrangement a has a mine at cell i
    shows: list[dict[int, int]] = [{} for _ in range(n)]  # value -> arrangements: cell i safe, shows it
    for a, mask in enumerate(arr):
        bit = 1 << a
        for i in range(n):
            if (mask >> i) & 1:
                mine_sets[i] |= bit
            else:
                v = (mask & near[i]).bit_count()
                shows[i][v] = shows[i].get(v, 0) | bit
    value_sets = [sorted(d.items()) for d in shows]
    memo: dict[int, float] = {}
    nodes = 0

    def split(state: int, i: int) -> list[int]:
        return [sub for _, vs in value_sets[i] if (sub := state & vs)]

    def chance(state: int, i: int, total: int, beat: float = -1.0) -> float:
        """P(win) when clicking cell i in ``state`` (``total`` arrangements) and playing on perfectly.

        Returns -1.0 as soon as the click provably cannot score above ``beat`` (the best so far).
        """
        won = 0.0
        rest = (state & ~mine_sets[i]).bit_count()
        bound = beat * total + 1e-9
        for sub in split(state, i):
            size = sub.bit_count()
            rest -= size
            won += size * win(sub)
            if won + rest <= bound:
                return -1.0
        return won / total

    def win(state: int) -> float:
        nonlocal nodes
        if state & (state - 1) == 0:  # one arrangement left
            return 1.0
        if state in memo:
            return memo[state]
        nodes += 1
        if nodes > node_budget:
            raise _Budget
        total = state.bit_count()
        result = None
        open_cells = []
        for i in range(n):
            mines = (state & mine_sets[i]).bit_count()
            if not mines:  # safe in every arrangement: free information if its number varies
                if result is None and len(split(state, i)) > 1:
                    result = chance(state, i, total)
                    break
            elif mines < total:
                open_cells.append(i)
        if result is None and not open_cells:
            return 1.0
        if result is None:
            result = 0.0
            for safe, i in _by_safety(state, open_cells, mine_sets):
                if safe <= result * total + 1e-9:  # P(win) <= P(safe): nothing left can beat the best
                    break
                score = chance(state, i, total, result)
                if score > result:
                    result = score
        memo[state] = result
        return result

    everything = (1 << len(arr)) - 1
    open_cells = [i for i in range(n) if everything & mine_sets[i] and everything & ~mine_sets[i]]
    best: EndgameChoice | None = None
    best_safe = 0
    try:
        for safe, i in _by_safety(everything, open_cells, mine_sets):
            if best is not None and safe < best.win * len(arr) - 1e-9:
                break
            score = chance(everything, i, len(arr), -1.0 if best is None else best.win - 2e-9)
            if best is None or (score, safe) > (best.win + 1e-12, best_safe):
                best, best_safe = EndgameChoice(unknown[i], score, len(arr)), safe
    except _Budget:
        LOGGER.debug("endgame search over %d arrangements ran out of nodes", len(arr))
        return None
    return best
