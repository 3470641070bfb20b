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

import numpy as np

from bot.solver.rules import COVERED, FLAG, Knowledge

LOGGER = logging.getLogger(__name__)

MAX_ARRANGEMENTS = 500
"""Search only when the position has at most this many consistent arrangements.

Above 500 a search almost never ends within :data:`NODE_BUDGET` nodes (measured, docs/benchmarks.md:
of 138 searched endgame positions, 5 above 500 did, and they gained ~0.002 games per 1,000 over the
guess policy), so it would only cost time."""
MAX_UNKNOWN = 40
"""... and at most this many unknown covered cells."""
NODE_BUDGET = 10_000
"""Search nodes one endgame search may take; past it the search is dropped and the caller guesses.

Measured (docs/benchmarks.md, H-solver) on endgame positions searched to the end: with at most
:data:`MAX_ARRANGEMENTS` arrangements few searches need more (about 3 in 1,000 Expert games), and the
positions only a bigger budget would solve gain ~0.1-0.3 games per 1,000 over the guess policy,
while each search dropped at the budget is a slow move thrown away.
"""


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
    cons = [
        ([index[j] for j in cells], need)
        for cells, need in know.cons.values()
        if all(j in index for j in cells)  # (all of them, unless ``unknown`` is one isolated region)
    ]
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


class _Tree:
    """One endgame's arrangements as bitsets, and the memo of solved states (kept across moves).

    Arrangement ``a`` is bit ``a`` of a state. ``mine_sets[i]``: the arrangements with a mine at
    unknown cell ``i``; ``value_sets[i]``: (number, arrangements where cell i is safe and shows it).
    The memo maps a state to its P(win) under perfect play, which depends on nothing but the state,
    so it stays valid for every later position of the same game whose arrangements are a subset.
    """

    def __init__(self, know: Knowledge, unknown: list[int], arr: list[int], mines_left: int) -> None:
        self.total = mines_left + know.known_mines()
        self.cells = know.cells.copy()
        self.unknown = unknown
        self.arr = arr
        self.index = {j: i for i, j in enumerate(unknown)}
        self.nbrs = know.nbrs
        n = len(unknown)
        # a cell's number is its fixed mines (flags, proven) plus the mines among these unknown cells;
        # the fixed part is the same in every arrangement, so only the unknown part splits a state
        self.fixed = {
            j: sum(1 for k in know.nbrs[j] if know.cells[k] == FLAG or know.known.get(k) is True)
            for j, v in enumerate(know.cells)
            if v == COVERED
        }
        index = self.index
        near = np.array([sum(1 << index[k] for k in know.nbrs[j] if k in index) for j in unknown], np.uint64)
        masks = np.array(arr, dtype=np.uint64)[:, None]
        bits = np.uint64(1) << np.arange(n, dtype=np.uint64)
        mine = (masks & bits) != 0  # arrangement x cell
        shown = np.bitwise_count(masks & near).astype(np.int16)
        shown[mine] = -1
        self.mine_sets = [_bitset(mine[:, i]) for i in range(n)]
        self.shows = [
            {int(v): _bitset(shown[:, i] == v) for v in np.unique(shown[:, i]) if v >= 0} for i in range(n)
        ]
        self.value_sets = [sorted(d.items()) for d in self.shows]
        self.memo: dict[int, float] = {}

    def state_of(self, know: Knowledge, mines_left: int, unknown: list[int]) -> int:
        """The arrangements still consistent with a later position (0 if it is not one)."""
        if mines_left + know.known_mines() != self.total or not set(unknown) <= self.index.keys():
            return 0
        state = (1 << len(self.arr)) - 1
        old, index = self.cells, self.index
        for j, v in enumerate(know.cells):
            if v == old[j]:
                continue
            if old[j] != COVERED:
                return 0
            i = index.get(j)
            if v == FLAG:
                if i is None:
                    return 0
                state &= self.mine_sets[i]
                continue
            need = v - self.fixed[j]
            if i is not None:
                state &= self.shows[i].get(need, 0)
            else:  # a cell proven safe before shows its number now: filter arrangement by arrangement
                near = sum(1 << index[k] for k in self.nbrs[j] if k in index)
                state &= sum(1 << a for a, mask in enumerate(self.arr) if (mask & near).bit_count() == need)
            if not state:
                return 0
        return state

    def undetermined(self, state: int) -> set[int]:
        """The cells that are a mine in some arrangements of ``state`` and safe in others."""
        mine_sets = self.mine_sets
        return {j for i, j in enumerate(self.unknown) if state & mine_sets[i] and state & ~mine_sets[i]}

    def best(self, state: int, node_budget: int, rank: dict[int, tuple]) -> tuple[int, float] | None:
        """(unknown-cell index, P(win)) of the best click in ``state``; None past ``node_budget`` nodes.

        Equally good clicks go to the lowest ``rank`` of their cell (so a reused tree decides ties
        as a fresh one would).
        """
        n = len(self.unknown)
        mine_sets, value_sets, memo = self.mine_sets, self.value_sets, self.memo
        nodes = 0

        shows = [[vs for _, vs in value_sets[i]] for i in range(n)]

        def varies(state: int, i: int) -> bool:
            """Whether cell i shows different numbers in the arrangements of ``state``."""
            for vs in shows[i]:
                sub = state & vs
                if sub:
                    return sub != state
            return False

        def chance(state: int, i: int, total: int, rest: int, live: list[int], beat: float = -1.0) -> float:
            """P(win) when clicking cell i in ``state`` (``total`` arrangements, ``rest`` of them with cell
            i safe), playing on perfectly.

            ``live``: the cells that may still matter below ``state``. Returns -1.0 as soon as the
            click provably cannot score above ``beat`` (the best so far). A value left with one
            arrangement is won, and a solved one is read from the memo, without a call.
            """
            won = 0.0
            bound = beat * total + 1e-9
            for vs in shows[i]:
                sub = state & vs
                if not sub:
                    continue
                if sub & (sub - 1) == 0:
                    rest -= 1
                    won += 1.0
                else:
                    size = sub.bit_count()
                    rest -= size
                    known = memo.get(sub)
                    won += size * (win(sub, live) if known is None else known)
                if won + rest <= bound:
                    return -1.0
            return won / total

        def win(state: int, live: list[int]) -> float:
            nonlocal nodes
            if state & (state - 1) == 0:  # one arrangement left
                return 1.0
            if state in memo:
                return memo[state]
            nodes += 1
            if nodes > node_budget:
                raise _Budget
            total = state.bit_count()
            free = -1
            pairs = []  # (arrangements where the cell is a mine, cell) for the undetermined cells
            below = []  # the cells that still matter in every state below this one
            for i in live:
                mines = (state & mine_sets[i]).bit_count()
                if not mines:  # safe in every arrangement: free information if its number varies
                    if varies(state, i):
                        free = i
                        break
                elif mines < total:
                    pairs.append((mines, i))
                    below.append(i)
            if free >= 0:  # (the scan stopped early: every live cell may still matter below)
                result = chance(state, free, total, total, live)
            elif not pairs:
                return 1.0
            else:
                result = 0.0
                pairs.sort()  # safest first (fewest mines), then by cell
                for mines, i in pairs:
                    safe = total - mines
                    if safe <= result * total + 1e-9:  # P(win) <= P(safe): nothing left can beat the best
                        break
                    score = chance(state, i, total, safe, below, result)
                    if score > result:
                        result = score
            memo[state] = result
            return result

        total = state.bit_count()
        open_cells = [i for i in range(n) if state & mine_sets[i] and state & ~mine_sets[i]]
        # a cell determined in this state, with one number if safe, stays so in every state below it
        live = [i for i in range(n) if i in open_cells or (not state & mine_sets[i] and varies(state, i))]
        best: tuple[int, float] | None = None
        best_safe = 0
        unknown = self.unknown
        order = sorted(_by_safety(state, open_cells, mine_sets), key=lambda p: (-p[0], rank[unknown[p[1]]]))
        try:
            for safe, i in order:
                if best is not None and safe < best[1] * total - 1e-9:
                    break
                score = chance(state, i, total, safe, live, -1.0 if best is None else best[1] - 2e-9)
                if best is None or (score, safe) > (best[1] + 1e-12, best_safe):
                    best, best_safe = (i, score), safe
        except _Budget:
            LOGGER.debug("endgame search over %d arrangements ran out of nodes", total)
            return None
        return best


def _bitset(flags: np.ndarray) -> int:
    """A boolean vector as a Python integer (bit ``a`` set when ``flags[a]``)."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


_LAST: list[_Tree] = []
"""The last endgame searched: the next guess of the same game reuses its arrangements and memo."""


def search(
    know: Knowledge,
    mines_left: int,
    node_budget: int = NODE_BUDGET,
    max_arrangements: int = MAX_ARRANGEMENTS,
    region: list[int] | None = None,
) -> EndgameChoice | None:
    """The click with the highest probability of winning, or None when the position is too big.

    A state (a set of arrangements) is a Python integer with one bit per arrangement, so splitting it
    by a cell's outcome is a handful of big-integer ANDs against bitsets built once per endgame. A
    later position of the same endgame is mapped onto the last tree's arrangements, so what was
    solved for the previous guess is not solved again.

    With ``region`` (the cells of an isolated region holding exactly ``mines_left`` mines in every
    arrangement, :func:`bot.solver.fifty.isolated_regions`) only that region is searched, and
    P(win) is the chance to clear it; such a search is neither kept nor reused.
    """
    cells = know.cells
    if region is not None:
        unknown = list(region)
    else:
        unknown = [j for j, v in enumerate(cells) if v == COVERED and j not in know.known]
    if not unknown or len(unknown) > MAX_UNKNOWN:
        return None
    state = _LAST[0].state_of(know, mines_left, unknown) if _LAST and region is None else 0
    if state and _LAST[0].undetermined(state) <= set(unknown):
        tree = _LAST[0]
    else:
        # cells next to a number first, so the constraints prune early
        unknown.sort(key=lambda j: (j not in know.cell_cons, j))
        arr = arrangements(know, unknown, mines_left, max_arrangements)
        if not arr:
            return None
        tree = _Tree(know, unknown, arr, mines_left)
        if region is None:
            _LAST[:] = [tree]
        state = (1 << len(arr)) - 1
    rank = {j: (j not in know.cell_cons, j) for j in unknown}
    found = tree.best(state, node_budget, rank)
    if found is None:
        return None
    return EndgameChoice(tree.unknown[found[0]], found[1], state.bit_count())
