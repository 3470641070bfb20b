"""The exact probability engine: P(mine) for every covered cell, from counting consistent arrangements.

How it works, after the cheap rules (:mod:`bot.solver.rules`) have removed every cell they can prove:

1. The unknown covered cells next to a number (the frontier) are merged into *groups*: cells touched by
   exactly the same numbers are interchangeable, so a group of ``s`` cells holding ``m`` mines counts
   ``C(s, m)`` arrangements. Numbers that share cells are joined into independent *regions*.
2. Each region is counted into, per mine total ``k``, the number of solutions and, per group, the
   mine-weighted and mine-free-weighted counts. Small regions are enumerated by backtracking (bounds
   from every number prune early, so every leaf is a solution); a region that takes more than
   :data:`BACKTRACK_NODES` nodes is counted by the frontier sweep of :mod:`bot.solver.sweep`, whose
   work grows with the number of distinct partial states, not with the number of solutions (a tangled
   Expert region of 90 groups takes a few thousand transitions). Results are cached by the region's
   constraints, so a region that did not change since the last move is never counted again.
3. Regions are combined by convolution; each frontier total ``F`` is weighted by
   ``C(off-frontier cells, mines left - F)`` (in log space, normalised, so no size of board overflows);
   off-frontier cells share one probability. A probability is ``mines / (mines + free)``, both sums of
   positive terms: accurate to about 1e-13, and exactly 0.0 or 1.0 only when the cell is certain.

Worst-case time is bounded by ``node_budget`` work units per region (default :data:`NODE_BUDGET`:
backtracking nodes plus sweep transitions). It is a guard, not a working limit: the hardest of 100
generated Expert positions (8-35% of the safe cells revealed at random, see
``benchmarks/solver_hard.py``) needs well under 1% of it. Past it a region is *approximated*: each of
its cells gets the mean density of the numbers around it, clamped to [0.02, 0.98], every other region
is weighted independently of the mine total, and :attr:`Probabilities.exact` is False. The
approximation never reports 0.0 or 1.0 for a cell that is not certain.

With the mine total unknown (``total_mines=None`` and no ``board.mines``), each region is weighted on
its own, as if every cell were a mine independently with density :data:`UNKNOWN_DENSITY` (a region
solution with ``k`` mines weighs ``(d / (1 - d)) ** k``); off-frontier cells get that density.
"""

from __future__ import annotations

import functools
import logging
import math
from dataclasses import dataclass, field
from typing import NoReturn

import numpy as np

from bot.errors import ContradictionError
from bot.solver.rules import COVERED, Knowledge
from bot.solver.sweep import SweepOverflow, sweep_count

LOGGER = logging.getLogger(__name__)

NODE_BUDGET = 2_000_000
"""Work units (search nodes + sweep transitions) one region may take before it is approximated."""

BACKTRACK_NODES = 5_000
"""Backtracking nodes a region may visit before the frontier sweep counts it instead.

Real Expert play meets regions of ~30 groups that need 1,500-2,600 nodes (2-5 ms) but cost the
sweep 10-19 ms (its numpy layers carry a fixed cost each), so the switch comes only past 5,000."""

UNKNOWN_DENSITY = 0.2
"""Mine density assumed when the total is unknown (Expert is 0.206, Intermediate 0.156)."""

_CACHE_SIZE = 4096
_CACHE: dict[tuple, RegionCount | None] = {}
_TRACKED: dict[tuple, TrackedCount] = {}


@dataclass(frozen=True)
class RegionCount:
    """The count of one region: solutions per mine total, and per group the mine- and free-weighted sums."""

    groups: tuple[tuple[int, ...], ...]
    counts: np.ndarray
    """``counts[k]``: weighted number of solutions with ``k`` mines in the region (float64)."""
    mines: np.ndarray
    """``mines[k, g]``: sum over those solutions of (mines in group g) x weight."""
    free: np.ndarray
    """``free[k, g]``: sum over those solutions of (mine-free cells in group g) x weight."""

    log_scale: float = field(init=False)
    """log of ``max(counts)``: the scale divided out of the next three (so no product overflows)."""
    poly: np.ndarray = field(init=False)
    """``counts / max(counts)``."""
    both: np.ndarray = field(init=False)
    """``[mines | free] / max(counts)``, side by side: one product gives every group's two sums."""

    def __post_init__(self) -> None:
        top = float(self.counts.max()) if self.counts.size else 1.0
        top = top if top > 0 else 1.0
        object.__setattr__(self, "log_scale", math.log(top))
        object.__setattr__(self, "poly", self.counts / top)
        object.__setattr__(self, "both", np.hstack([self.mines, self.free]) / top)


@dataclass
class Probabilities:
    """The engine's answer for one position (flat cell indices)."""

    prob: dict[int, float]
    """P(mine) for every covered, unflagged cell (rule-proven cells included, as 0.0 / 1.0)."""
    log_weight: float | None
    """Natural log of the number of full-board arrangements consistent with the board (None unless exact)."""
    exact: bool
    """False when the total was unknown or a region was approximated."""
    frontier: frozenset[int]
    """Unknown cells next to a number (not rule-proven)."""
    off: tuple[int, ...]
    """Unknown cells next to no number."""
    off_prob: float | None
    regions: list[list[int]] = field(default_factory=list, repr=False)
    """The independent regions (lists of number cells), as :func:`split_regions` gives them."""
    counted: list[RegionCount | None] = field(default_factory=list, repr=False)
    """Their counts (None: past the budget, approximated)."""

    @property
    def weight(self) -> float | None:
        """The number of consistent full-board arrangements (float; inf past float range), or None."""
        if self.log_weight is None:
            return None
        return math.exp(self.log_weight) if self.log_weight < 709 else math.inf


@dataclass
class WorkCounter:
    """Work units (nodes, transitions) spent by region counts so far (callers diff it to budget a move)."""

    nodes: int = 0


WORK = WorkCounter()
"""Process-wide count of counting work; the guess policy caps its look-ahead with it."""


class _Overflow(Exception):
    """A region's enumeration exceeded its node budget."""


def _enumerate(sizes: list[int], cons: list[tuple[list[int], int]], budget: int) -> tuple[list, list]:
    """Backtrack over groups; return ``counts[k]`` and ``sums[k][g]`` (raises :class:`_Overflow`)."""
    counts, sums = _backtrack(sizes, cons, budget)
    top = max(counts) if counts else -1
    n = len(sizes)
    return [counts.get(k, 0) for k in range(top + 1)], [sums.get(k, [0] * n) for k in range(top + 1)]


def _backtrack(
    sizes: list[int], cons: list[tuple[list[int], int]], budget: int, steps: list[int] | None = None
) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Backtrack over groups: ``{k: solutions}`` and ``{k: per group, mines x weight summed}``.

    ``k`` is the number of mines, or with ``steps`` the sum of ``steps[g]`` per mine in group ``g``:
    a step of ``1 + B`` for some groups makes ``k = mines + B x (mines in those groups)``, so one
    enumeration counts the solutions by both totals at once. Raises :class:`_Overflow` past ``budget``.
    """
    n = len(sizes)
    g_cons: list[list[int]] = [[] for _ in range(n)]
    for c, (gs, _) in enumerate(cons):
        for g in gs:
            g_cons[g].append(c)
    # order groups breadth-first through shared numbers, so numbers complete (and prune) early
    order: list[int] = []
    seen = [False] * n
    for start in range(n):
        if seen[start]:
            continue
        seen[start] = True
        order.append(start)
        i = len(order) - 1
        while i < len(order):
            for c in g_cons[order[i]]:
                for g in cons[c][0]:
                    if not seen[g]:
                        seen[g] = True
                        order.append(g)
            i += 1
    rem_need = [need for _, need in cons]
    rem_cap = [sum(sizes[g] for g in gs) for gs, _ in cons]
    binoms = [[math.comb(s, m) for m in range(s + 1)] for s in sizes]
    ord_sizes = [sizes[g] for g in order]
    ord_cons = [g_cons[g] for g in order]
    ord_binoms = [binoms[g] for g in order]
    ord_steps = [1] * n if steps is None else [steps[g] for g in order]
    assign = [0] * n
    counts: dict[int, int] = {}
    sums: dict[int, list[int]] = {}
    nodes = 0

    last = n - 1

    def leaf(total: int, weight: int) -> None:
        counts[total] = counts.get(total, 0) + weight
        row = sums.get(total)
        if row is None:
            row = sums[total] = [0] * n
        for g, m in enumerate(assign):
            if m:
                row[g] += m * weight

    def rec(k: int, total: int, weight: int) -> None:
        nonlocal nodes
        if k == n:  # (only for a region without groups)
            leaf(total, weight)
            return
        nodes += 1
        if nodes > budget:
            WORK.nodes += nodes
            raise _Overflow
        s = ord_sizes[k]
        cs = ord_cons[k]
        lo, hi = 0, s
        for c in cs:
            rn = rem_need[c]
            if rn < hi:
                hi = rn
            t = rn - rem_cap[c] + s
            if t > lo:
                lo = t
        if lo > hi:
            return
        bs = ord_binoms[k]
        step = ord_steps[k]
        total += lo * step
        if k == last:  # every value left completes its numbers: record the solutions without recursing
            placed = [(g, a) for g, a in enumerate(assign) if a]  # (the groups before this one)
            for m in range(lo, hi + 1):
                w = weight * bs[m]
                counts[total] = counts.get(total, 0) + w
                row = sums.get(total)
                if row is None:
                    row = sums[total] = [0] * n
                for g, a in placed:
                    row[g] += a * w
                if m:
                    row[k] += m * w
                total += step
            return
        for c in cs:
            rem_cap[c] -= s
            rem_need[c] -= lo
        for m in range(lo, hi + 1):
            assign[k] = m
            rec(k + 1, total, weight * bs[m])
            total += step
            for c in cs:
                rem_need[c] -= 1
        for c in cs:
            rem_cap[c] += s
            rem_need[c] += hi + 1
        assign[k] = 0

    rec(0, 0, 1)
    WORK.nodes += nodes
    # back from search order to group order
    inv = [0] * n
    for pos, g in enumerate(order):
        inv[g] = pos
    return counts, {k: [row[inv[g]] for g in range(n)] for k, row in sums.items()}


@dataclass(frozen=True)
class TrackedCount:
    """A problem counted once, split by how many mines its *tracked* groups hold (:func:`count_tracked`)."""

    groups: tuple[tuple[int, ...], ...]
    tracked: tuple[int, ...]
    """The numbers of mines in the tracked groups that some solution has, ascending (one row each)."""
    counts: np.ndarray
    """``counts[i, k]``: solutions with ``tracked[i]`` mines in the tracked groups, ``k`` in all (float64)."""
    mines: np.ndarray
    """``mines[i, k, g]``: over those solutions, the mines in group ``g`` (summed, x weight)."""
    free: np.ndarray
    """``free[i, k, g]``: over those solutions, the mine-free cells in group ``g``."""


def count_tracked(
    groups: tuple[tuple[int, ...], ...], cons: list[tuple[list[int], int]], tracked: list[bool], budget: int
) -> TrackedCount | None:
    """Count a problem once, by its mine total and the mines in the ``tracked`` groups (None past budget).

    A tracked group in no constraint (cells next to no number) is not enumerated: its ``C(s, i)``
    ways to hold ``i`` mines shift the rest's counts by ``i`` in both totals. Cached like
    :func:`count_region`: a candidate whose neighbourhood the last move did not touch is not counted
    again on the next guess.
    """
    key = (groups, tuple((tuple(gs), need) for gs, need in cons), tuple(tracked))
    if key in _TRACKED:
        return _TRACKED[key]
    sizes = [len(g) for g in groups]
    constrained = {g for gs, _ in cons for g in gs}
    loose = [g for g, t in enumerate(tracked) if t and g not in constrained]
    keep = [g for g in range(len(groups)) if g not in loose]
    at = {g: i for i, g in enumerate(keep)}
    big = sum(sizes) + 1
    try:
        counts, sums = _backtrack(
            [sizes[g] for g in keep],
            [([at[g] for g in gs], need) for gs, need in cons],
            budget,
            [1 + big if tracked[g] else 1 for g in keep],
        )
    except _Overflow:
        return None
    # one array per step, columns (count, mines per group..., free per group...): fewer numpy calls
    dense = _dense_tracked([sizes[g] for g in keep], big, counts, sums)
    for g in loose:
        dense = _with_loose(dense, sizes[g])
    n = len(groups)
    order = np.argsort(keep + loose)  # columns back to the groups' order
    present = np.flatnonzero(dense[:, :, 0].any(axis=1))
    # (gathered in the same steps as before: matmul's result depends on the memory layout, to the last bit)
    mines, free = dense[:, :, 1 + order], dense[:, :, 1 + n + order]
    counts_arr = dense[:, :, 0][present]
    out = TrackedCount(groups, tuple(present.tolist()), counts_arr, mines[present], free[present])
    for array in (out.counts, out.mines, out.free):
        array.flags.writeable = False  # (shared through the cache)
    if len(_TRACKED) >= _CACHE_SIZE:
        del _TRACKED[next(iter(_TRACKED))]
    _TRACKED[key] = out
    return out


def _dense_tracked(sizes: list[int], big: int, counts: dict, sums: dict) -> np.ndarray:
    """``out[v, k]`` = (count, mines per group..., free per group...) of a backtracking run indexed
    ``k + big x v`` (the same floats as :func:`_as_floats`: each exact integer rounded once)."""
    n = len(sizes)
    keys = sorted(counts)
    if not keys:
        return np.zeros((1, 1, 1 + 2 * n))
    at = ([key // big for key in keys], [key % big for key in keys])
    out = np.zeros((max(at[0]) + 1, max(at[1]) + 1, 1 + 2 * n))
    rows = []
    for key in keys:
        c, row = counts[key], sums[key]
        rows.append([c, *row, *[c * s - m for s, m in zip(sizes, row, strict=True)]])
    out[at] = np.array(rows, dtype=float).reshape(len(keys), 1 + 2 * n)
    return out


def _with_loose(dense: np.ndarray, size: int) -> np.ndarray:
    """Add a tracked group of ``size`` cells in no constraint to :func:`_dense_tracked`'s array (its
    columns last in each block): ``i`` mines in it weigh ``C(size, i)`` and add ``i`` to both totals.

    Each entry gets the same products added in the same order (``i`` rising) as one array per figure
    would: one numpy call per ``i``.
    """
    v, k, c = dense.shape
    n = (c - 1) // 2
    # the count copied to the new columns
    src = dense[:, :, [0, *range(1, n + 1), 0, *range(n + 1, 2 * n + 1), 0]]
    out = np.zeros((v + size, k + size, 2 * n + 3))
    for i in range(size + 1):
        ways = float(math.comb(size, i))
        coef = np.array([ways] * (n + 1) + [i * ways] + [ways] * n + [(size - i) * ways])
        out[i : i + v, i : i + k] += src * coef
    return out


def _as_floats(sizes: list[int], counts: list, sums: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(counts, mines, free) as float arrays, from exact integer counts and per-group mine sums."""
    free_int = [
        [c * s - m for s, m in zip(sizes, row, strict=True)] for c, row in zip(counts, sums, strict=True)
    ]
    shape = (len(counts), len(sizes))
    return (
        np.array(counts, dtype=float),
        np.array(sums, dtype=float).reshape(shape),
        np.array(free_int, dtype=float).reshape(shape),
    )


def _region_key(know: Knowledge, region: list[int]) -> tuple:
    return tuple(sorted((tuple(sorted(know.cons[k][0])), know.cons[k][1]) for k in region))


def _region_problem(know: Knowledge, key: tuple) -> tuple[list[tuple[int, ...]], list]:
    """The region's groups (cells touched by the same numbers) and its constraints over group indices."""
    cell_cons = know.cell_cons
    by_sig: dict[tuple[int, ...], list[int]] = {}
    for cells, _ in key:
        for j in cells:
            sig = tuple(sorted(cell_cons[j]))
            members = by_sig.setdefault(sig, [])
            if j not in members:
                members.append(j)
    groups = sorted(tuple(sorted(cells)) for cells in by_sig.values())
    index = {j: g for g, cells in enumerate(groups) for j in cells}
    cons = [(sorted({index[j] for j in cells}), need) for cells, need in key]
    return groups, cons


def _count(sizes: list[int], cons: list, budget: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Backtracking for small regions, the frontier sweep for the rest; raises past ``budget``."""
    try:
        counts, sums = _enumerate(sizes, cons, min(budget, BACKTRACK_NODES))
    except _Overflow:
        if budget <= BACKTRACK_NODES:
            raise
        try:
            counts_f, mines, free, work = sweep_count(sizes, cons, budget - BACKTRACK_NODES)
        except SweepOverflow:
            WORK.nodes += budget
            raise _Overflow from None
        WORK.nodes += work
        return counts_f, mines, free
    return _as_floats(sizes, counts, sums)


def count_region(know: Knowledge, region: list[int], budget: int = NODE_BUDGET) -> RegionCount | None:
    """Count one region (a list of constraint cells), cached; None when it exceeds ``budget``."""
    key = _region_key(know, region)
    if key in _CACHE:
        return _CACHE[key]
    groups, cons = _region_problem(know, key)
    try:
        counts, mines, free = _count([len(g) for g in groups], cons, budget)
    except _Overflow:
        LOGGER.debug("region of %d groups exceeded %d work units: approximated", len(groups), budget)
        result = None
    else:
        if not counts.any():
            k = min(region)
            raise ContradictionError(
                f"no arrangement of mines satisfies the numbers around cell {divmod(k, know.cols)}",
                divmod(k, know.cols),
            )
        result = RegionCount(tuple(groups), counts, mines, free)
    if len(_CACHE) >= _CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]
    _CACHE[key] = result
    return result


def split_regions(know: Knowledge) -> list[list[int]]:
    """The open constraints split into independent regions (lists of number cells sharing cells)."""
    parent: dict[int, int] = {k: k for k in know.cons}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for owners in know.cell_cons.values():
        it = iter(owners)
        root = find(next(it))
        for other in it:
            r = find(other)
            if r != root:
                parent[r] = root
    regions: dict[int, list[int]] = {}
    for k in know.cons:
        regions.setdefault(find(k), []).append(k)
    return sorted(regions.values(), key=min)


def solve(know: Knowledge, total: int | None, node_budget: int = NODE_BUDGET) -> Probabilities:
    """Exact (or, past the budget, safely approximated) mine probabilities for the position.

    Raises:
        ContradictionError: no arrangement fits: a number is unsatisfiable, or the mine total cannot
            be met (more flags / proven mines than the total, or too few cells for the mines left).
    """
    cells, cols = know.cells, know.cols
    prob: dict[int, float] = {}
    for j, mine in know.known.items():
        if cells[j] == COVERED:
            prob[j] = 1.0 if mine else 0.0
    frontier = frozenset(know.cell_cons)
    off = tuple(sorted(know.covered.difference(know.known, frontier)))
    regions = split_regions(know)
    counted = [count_region(know, r, node_budget) for r in regions]
    mines_left = None if total is None else total - know.known_mines()
    if mines_left is not None and mines_left < 0:
        bad = next((j for j, mine in know.known.items() if mine), None)
        where = (
            divmod(bad, cols)
            if bad is not None
            else next((divmod(j, cols) for j, v in enumerate(cells) if v == 10), None)
        )
        raise ContradictionError(
            f"{know.known_mines()} mines are flagged or proven (e.g. cell {where}) "
            f"but the board has only {total}",
            where,
        )
    exact = mines_left is not None and all(c is not None for c in counted)
    if exact:
        assert mines_left is not None
        log_weight, off_prob = _combine_exact(know, regions, counted, off, mines_left, prob)
    else:
        log_weight = None
        off_prob = _combine_independent(know, regions, counted, off, mines_left, prob)
    for j in off:
        prob[j] = off_prob  # type: ignore[assignment]
    return Probabilities(prob, log_weight, exact, frontier, off, off_prob if off else None, regions, counted)


def log_weight(know: Knowledge, total: int, node_budget: int = NODE_BUDGET) -> float | None:
    """Just the log of the number of consistent arrangements (what :func:`solve` reports, far cheaper).

    None when a region passes the budget. Raises :class:`ContradictionError` when nothing fits.
    """
    counted = [count_region(know, r, node_budget) for r in split_regions(know)]
    if any(rc is None for rc in counted):
        return None
    mines_left = total - know.known_mines()
    n_off = len(know.covered.difference(know.known, know.cell_cons))
    everything = np.ones(1)
    scale = 0.0
    for rc in counted:
        assert rc is not None
        everything = np.convolve(everything, rc.poly)
        scale += rc.log_scale
    top, off_weight = off_weights(n_off, mines_left, len(everything))
    weight = float(everything @ off_weight) if math.isfinite(top) else 0.0
    if weight <= 0:
        rc_cell = next(iter(know.cell_cons), next(iter(know.covered), 0))
        where = divmod(rc_cell, know.cols)
        raise ContradictionError(
            f"no arrangement of the {mines_left} mines left fits (e.g. cell {where})", where
        )
    return scale + top + math.log(weight)


def _ratio(mines: float, free: float) -> float:
    """P(mine) from the mine- and free-weighted sums: exactly 0.0 or 1.0 only when one of them is 0."""
    if not free:
        return 1.0
    return mines / (mines + free) if mines else 0.0


_LOG_FACT = np.array([0.0])


def _log_comb(n: int, left: int, length: int) -> np.ndarray:
    """``log C(n, left - f)`` for f in ``range(length)``; -inf where ``left - f`` is outside [0, n]."""
    global _LOG_FACT
    if len(_LOG_FACT) <= n:
        _LOG_FACT = np.array([math.lgamma(k + 1) for k in range(2 * n + 2)])
    ks = left - np.arange(length)
    ok = (ks >= 0) & (ks <= n)
    kk = np.where(ok, ks, 0)
    return np.where(ok, _LOG_FACT[n] - _LOG_FACT[kk] - _LOG_FACT[n - kk], -np.inf)


@functools.lru_cache(maxsize=4096)
def off_weights(n: int, left: int, length: int) -> tuple[float, np.ndarray]:
    """(top, ``exp(log C(n, left - f) - top)``): the off-frontier weights, scaled; cached (read-only).

    ``top`` is the largest log weight (-inf when none is possible, and the weights are then 0).
    The look-ahead asks for the same few (cells, mines, length) again and again.
    """
    log_off = _log_comb(n, left, length)
    top = float(log_off.max())
    weights = np.exp(log_off - top) if math.isfinite(top) else np.zeros(length)
    weights.flags.writeable = False
    return top, weights


def _combine_exact(
    know: Knowledge,
    regions: list[list[int]],
    counted: list[RegionCount | None],
    off: tuple[int, ...],
    mines_left: int,
    prob: dict[int, float],
) -> tuple[float, float | None]:
    """Convolve exact regions with the off-frontier binomial; fill ``prob``; return (log weight, off P)."""
    log_weight, groups, off_prob = _combine(know, regions, counted, len(off), mines_left)
    for group, p in groups:
        for j in group:
            prob[j] = p
    return log_weight, off_prob


def _combine(
    know: Knowledge,
    regions: list[list[int]],
    counted: list[RegionCount | None],
    n_off: int,
    mines_left: int,
) -> tuple[float, list[tuple[tuple[int, ...], float]], float | None]:
    """(log weight, (group, P(mine)) for every frontier group, off-frontier P or None) of exact regions."""
    rcs = [rc for rc in counted if rc is not None]
    weighed = weigh(rcs, n_off, mines_left)
    if weighed is None:
        everything = functools.reduce(np.convolve, [rc.poly for rc in rcs], np.ones(1))
        _no_total(know, regions, everything, mines_left)
    return weighed


def products(polys: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The product of the polynomials, and for each one the product of all the others (no division)."""
    prefix = [np.ones(1)]
    for p in polys:
        prefix.append(np.convolve(prefix[-1], p))
    suffix = [np.ones(1)]
    for p in reversed(polys):
        suffix.append(np.convolve(suffix[-1], p))
    suffix.reverse()
    return prefix[-1], [np.convolve(prefix[r], suffix[r + 1]) for r in range(len(polys))]


def weigh(
    rcs: list[RegionCount], n_off: int, mines_left: int
) -> tuple[float, list[tuple[tuple[int, ...], float]], float | None] | None:
    """(log weight, (group, P(mine)) per group, off-frontier P or None) of independent counted regions.

    ``n_off`` cells next to no number share the mines the regions leave. None when no arrangement
    fits the mine total.
    """
    everything, all_but = products([rc.poly for rc in rcs])
    f = np.arange(len(everything))
    top, off_weight = off_weights(n_off, mines_left, len(everything))
    terms = everything * off_weight
    weight = float(terms.sum())
    if weight == 0:
        return None
    log_weight = sum(rc.log_scale for rc in rcs) + float(top) + math.log(weight)
    groups: list[tuple[tuple[int, ...], float]] = []
    for rc, others in zip(rcs, all_but, strict=True):
        sums = (np.correlate(off_weight, others, "valid") @ rc.both).tolist()
        size = len(rc.groups)
        for group, mines, free in zip(rc.groups, sums[:size], sums[size:], strict=True):
            groups.append((group, _ratio(mines, free)))
    if not n_off:
        return log_weight, groups, None
    off_mines = float((terms * (mines_left - f)).sum())
    off_free = float((terms * (n_off - mines_left + f)).sum())
    return log_weight, groups, _ratio(off_mines, off_free)


def _no_total(know: Knowledge, regions: list[list[int]], everything: np.ndarray, mines_left: int) -> NoReturn:
    """Raise the :class:`ContradictionError` for a mine total no arrangement of the regions can meet."""
    low = int(np.flatnonzero(everything)[0])
    cols = know.cols
    if low > mines_left:
        k = min(regions[0])
        raise ContradictionError(
            f"the numbers need at least {low} more mines but only {mines_left} are left "
            f"(first number involved: {divmod(k, cols)})",
            divmod(k, cols),
        )
    off = sorted(know.covered.difference(know.known, know.cell_cons))
    cell = off[0] if off else next(iter(know.cell_cons), min(know.known, default=0))
    where = divmod(cell, cols)
    raise ContradictionError(
        f"{mines_left} mines are left but too few covered cells can hold them (e.g. cell {where})", where
    )


def best_safety(
    know: Knowledge, total: int, node_budget: int = NODE_BUDGET, second: float = 0.0
) -> tuple[float, float] | None:
    """(log weight, 1 - the lowest P(mine) below 1) of a position: what a look-ahead needs, no more.

    The same numbers :func:`solve` computes (same arithmetic, so bit for bit), without filling a
    probability for every cell. With ``second`` > 0 the safety is :func:`blend`'s instead. None when
    a region passes the budget. Raises :class:`ContradictionError` when nothing fits.
    """
    regions = split_regions(know)
    counted = [count_region(know, r, node_budget) for r in regions]
    mines_left = total - know.known_mines()
    if mines_left < 0:  # checked before the budget, as solve() does
        raise ContradictionError(f"{know.known_mines()} mines are proven but the board has only {total}")
    if any(rc is None for rc in counted):
        return None
    n_off = len(know.covered.difference(know.known, know.cell_cons))
    log_weight, groups, off_prob = _combine(know, regions, counted, n_off, mines_left)
    known_safe = sum(1 for j, mine in know.known.items() if not mine and know.cells[j] == COVERED)
    if second:
        probs = [p for _, p in groups] + ([off_prob] if off_prob is not None else []) + [0.0]
        sizes = [len(g) for g, _ in groups] + ([n_off] if off_prob is not None else []) + [known_safe]
        return log_weight, float(blend(np.array([probs]), np.array(sizes), second)[0])
    rest = [p for _, p in groups if p < 1.0]
    if off_prob is not None and off_prob < 1.0:
        rest.append(off_prob)
    if known_safe:
        rest.append(0.0)
    return log_weight, (1.0 - min(rest)) if rest else 1.0


def blend(prob: np.ndarray, sizes: np.ndarray, second: float) -> np.ndarray:
    """Per row of ``prob`` (P(mine) per group of ``sizes`` cells): (1 - second) x the best safety +
    ``second`` x the second best, cell by cell (a group of two or more gives both; JSMinesweeper uses
    0.2). A position with one good cell and nothing else close scores below one with two. Mines and
    empty groups are left out; a lone cell left counts as its own second; no cell at all scores 1.
    """
    pad = np.full((prob.shape[0], 2), np.inf)  # (two columns at least)
    low = np.hstack([np.where((prob < 1.0) & (sizes > 0), prob, np.inf), pad])
    order = np.argsort(low, axis=1, kind="stable")[:, :2]
    first = np.take_along_axis(low, order[:, :1], axis=1)[:, 0]
    next_ = np.take_along_axis(low, order[:, 1:2], axis=1)[:, 0]
    many = np.concatenate([sizes, [0, 0]])[order[:, 0]] > 1
    next_ = np.where(many | np.isinf(next_), first, next_)
    out = 1.0 - ((1.0 - second) * first + second * next_)
    return np.where(np.isinf(first), 1.0, out)


def _combine_independent(
    know: Knowledge,
    regions: list[list[int]],
    counted: list[RegionCount | None],
    off: tuple[int, ...],
    mines_left: int | None,
    prob: dict[int, float],
) -> float:
    """Weight each region on its own (unknown total, or a region past the budget); return off P."""
    unknown = len(off) + len(know.cell_cons)
    if mines_left is None:
        density = UNKNOWN_DENSITY
    else:
        density = min(max(mines_left, 1), max(unknown - 1, 1)) / max(unknown, 2)
    q = density / (1 - density)
    expected = 0.0
    for region, rc in zip(regions, counted, strict=True):
        if rc is None:
            for j in {j for k in region for j in know.cons[k][0]}:
                ds = [know.cons[k][1] / len(know.cons[k][0]) for k in know.cell_cons[j]]
                prob[j] = min(max(sum(ds) / len(ds), 0.02), 0.98)
                expected += prob[j]
            continue
        top = len(rc.counts) - 1
        scale = np.exp((np.arange(top + 1) - top) * math.log(q))
        mines = scale @ rc.mines
        free = scale @ rc.free
        for g, group in enumerate(rc.groups):
            p = _ratio(float(mines[g]), float(free[g]))
            expected += p * len(group)
            for j in group:
                prob[j] = p
    if mines_left is None or not off:
        return density
    return min(max((mines_left - expected) / len(off), 0.02), 0.98)
