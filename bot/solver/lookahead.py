"""One click ahead, counted at once: for a cell, every number it could show and what the board is then.

The guess policy scores a candidate cell by the number it would show next: for each value ``v``, the
chance that the cell is safe and shows ``v``, and the best safety on the board after it. Revealing each
value as a hypothetical position and counting it again costs a copy, a propagation and a count per
value. Here the region(s) the cell's neighbourhood touches are counted once, as a *joint problem*: the
cell itself is safe (taken out of its numbers), and its unknown neighbours form groups of their own
whose mines are tracked as a second total (:func:`bot.solver.engine.count_tracked`). Splitting that one
count by the tracked total gives, for every value at once, the exact count of the position the value
would leave; every other region is reused as counted for the current position.

The figures are those the hypothetical positions give (the same arrangements, summed in another
order: equal to ~1e-13): a value is possible when some arrangement shows it, its log weight is the
log of the arrangements showing it, and the best safety is one minus the lowest mine probability
below 1 (1.0 when a cell is certain safe, whether the cheap rules or the count proves it).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bot.solver.engine import (
    Probabilities,
    RegionCount,
    TrackedCount,
    blend,
    count_tracked,
    off_weights,
    products,
)
from bot.solver.rules import COVERED, FLAG, Knowledge

JOINT_NODES = 20_000
"""Backtracking nodes the joint count of one candidate may take; past it the caller counts per value."""


@dataclass(frozen=True)
class _Base:
    """The current position's regions, counted, and what every candidate's joint count reuses."""

    probs: Probabilities
    regions: list[list[int]]
    counted: list[RegionCount]
    region_of: dict[int, int]
    """Number cell -> index of its region."""
    off: frozenset[int]
    mines_left: int
    known_safe: bool
    rest: dict[tuple, _Rest] = field(default_factory=dict)
    """:class:`_Rest` by (regions counted jointly, cells left off the frontier)."""
    numbers: dict[tuple, tuple[list[int], set[int]]] = field(default_factory=dict)
    """By regions counted jointly: their number cells, and the unknown cells those numbers touch."""
    sig: dict[int, frozenset[int]] = field(default_factory=dict)
    """Cell -> the numbers it touches (as a set: the groups' key), found once per position."""


_BASE: list[_Base] = []
"""The base of the last position looked at (one per guess: every candidate shares it)."""


def _base(know: Knowledge, probs: Probabilities, total: int) -> _Base | None:
    """The shared part of the look-ahead for ``probs`` (cached for the next candidate)."""
    if _BASE and _BASE[0].probs is probs:
        return _BASE[0]
    regions, counted = probs.regions, probs.counted  # (as solve() split and counted them)
    if any(rc is None for rc in counted):
        return None
    region_of = {k: r for r, cons in enumerate(regions) for k in cons}
    known_safe = any(not mine and know.cells[j] == COVERED for j, mine in know.known.items())
    base = _Base(
        probs,
        regions,
        counted,  # type: ignore[arg-type]
        region_of,
        frozenset(probs.off),
        total - know.known_mines(),
        known_safe,
    )
    _BASE[:] = [base]
    return base


def value_outcomes(
    know: Knowledge,
    probs: Probabilities,
    j: int,
    total: int | None,
    node_budget: int = JOINT_NODES,
    second: float = 0.0,
    living: bool = False,
) -> dict[int, tuple[float, float]] | None:
    """For each number the unknown covered cell ``j`` can show: (log weight, best safety) after it.

    The log weight is that of the position with ``j`` showing the number (so its exp over the current
    position's weight is P(``j`` is safe and shows it)); the best safety is 1 - the lowest mine
    probability below 1 there. Numbers no arrangement shows are left out. None when the position is
    not exact, the total is unknown, or the joint count passes ``node_budget`` nodes. With ``second``
    > 0 the safety is :func:`bot.solver.engine.blend`'s; with ``living`` too, over living cells only
    (:func:`_living_blend`).
    """
    if total is None or not probs.exact:
        return None
    base = _base(know, probs, total)
    if base is None:
        return None
    cells, known, cell_cons, cons = know.cells, know.known, know.cell_cons, know.cons
    shown = sum(1 for k in know.nbrs[j] if cells[k] == FLAG or known.get(k) is True)
    unknown = [k for k in know.nbrs[j] if cells[k] == COVERED and k not in known]
    tracked = set(unknown)
    touched = sorted({base.region_of[c] for x in (j, *unknown) for c in cell_cons.get(x, ())})
    found = base.numbers.get(tuple(touched))
    if found is None:
        numbers = [c for r in touched for c in base.regions[r]]
        found = base.numbers[tuple(touched)] = (numbers, {x for c in numbers for x in cons[c][0]})
    numbers, in_regions = found
    by_sig: dict[tuple, list[int]] = {}
    sig = base.sig
    for x in in_regions | tracked:
        if x != j:
            s = sig.get(x)
            if s is None:
                s = sig[x] = frozenset(cell_cons.get(x, ()))
            by_sig.setdefault((s, x in tracked), []).append(x)
    groups = sorted(tuple(sorted(xs)) for xs in by_sig.values())
    index = {x: g for g, xs in enumerate(groups) for x in xs}
    numbers_g = []
    for c in numbers:
        gs = sorted({index[x] for x in cons[c][0] if x != j})
        need = cons[c][1]
        if not gs:
            if need:
                return {}  # j cannot be safe
            continue
        numbers_g.append((gs, need))
    in_tracked = [groups[g][0] in tracked for g in range(len(groups))]
    joint = count_tracked(tuple(groups), numbers_g, in_tracked, node_budget)
    if joint is None:
        return None
    if not joint.tracked:
        return {}  # no arrangement has j safe
    n_off = len(base.off) - sum(1 for x in (j, *unknown) if x in base.off)
    key = (tuple(touched), n_off)
    rest = base.rest.get(key)
    if rest is None:  # (long enough for any candidate's count over these regions: 8 neighbours at most)
        others = [rc for r, rc in enumerate(base.counted) if r not in touched]
        rest = base.rest[key] = _rest(others, n_off, base.mines_left, len(in_regions) + 9)
    safety_of = None
    if second and living and not base.known_safe:
        off_cells = base.off.difference((j, *unknown)) if n_off else frozenset()
        safety_of = functools.partial(_living_blend, know, j, joint.groups, rest, off_cells, second)
    return _outcomes(rest, joint, n_off, base.mines_left, base.known_safe, shown, second, safety_of)


@dataclass(frozen=True)
class _Rest:
    """What the regions a joint count leaves out add to it: the same for every candidate they leave out."""

    scale: float
    """log of the scale divided out of the arrays below."""
    convolve: np.ndarray
    """``rows @ convolve``: each row (a polynomial in the joint count's mines) times the others' product."""
    off_weight: np.ndarray
    """Per mine total on the frontier, the (scaled) number of ways to place the rest off it."""
    joint: np.ndarray
    """Per joint count total ``k``: the weight of everything else, summed (``joint @ mines`` sums a group)."""
    mines: np.ndarray
    """``rows @ mines``: per row, every other group's mine-weighted sum (columns: their groups in order)."""
    free: np.ndarray
    """``rows @ free``: the same, mine-free-weighted."""
    sizes: np.ndarray
    """The cells in each of those groups (the columns of ``mines`` and ``free``)."""
    cells: tuple[tuple[int, ...], ...]
    """Those groups' cells."""
    column: dict[int, int]
    """Cell -> its group's column among those."""


def _rest(others: list[RegionCount], n_off: int, mines_left: int, length: int) -> _Rest:
    """The :class:`_Rest` of the regions ``others`` for joint counts of up to ``length`` totals."""
    q, all_but = products([rc.poly for rc in others])
    size = length + len(q) - 1
    padded = np.concatenate([np.zeros(length - 1), q, np.zeros(length - 1)])
    top, off_weight = off_weights(n_off, mines_left, size)
    sums = [np.zeros((length, 0))]
    for rc, but in zip(others, all_but, strict=True):
        around = np.correlate(off_weight, but, "valid")
        sums.append(around[_hankel(len(rc.poly), length)].T @ rc.both)
    return _Rest(
        sum(rc.log_scale for rc in others) + top,
        padded[_hankel(length, size)[::-1]],
        off_weight,
        np.correlate(off_weight, q, "valid"),
        np.concatenate(
            [m[:, : len(rc.groups)] for m, rc in zip(sums[1:], others, strict=True)] + sums[:1], axis=1
        ),
        np.concatenate(
            [m[:, len(rc.groups) :] for m, rc in zip(sums[1:], others, strict=True)] + sums[:1], axis=1
        ),
        np.array([len(g) for rc in others for g in rc.groups], dtype=int),
        tuple(g for rc in others for g in rc.groups),
        {x: c for c, g in enumerate(g for rc in others for g in rc.groups) for x in g},
    )


@functools.lru_cache(maxsize=1024)
def _hankel(rows: int, cols: int) -> np.ndarray:
    """Indices ``i + j`` (``rows`` x ``cols``): ``a[_hankel(r, c)]`` lays out the windows of ``a``."""
    return np.add.outer(np.arange(rows), np.arange(cols))


def _outcomes(
    rest: _Rest,
    joint: TrackedCount,
    n_off: int,
    mines_left: int,
    known_safe: bool,
    shown: int,
    second: float = 0.0,
    safety_of: Callable[[np.ndarray], np.ndarray] | None = None,
) -> dict[int, tuple[float, float]]:
    """Per value: (log weight, best safety) of the board, with ``joint`` split by its tracked mines.

    The same sums :func:`bot.solver.engine.weigh` forms for one position, for every value at once
    (row ``v`` of ``rows``: the joint count's polynomial with ``v`` mines in the tracked groups).
    """
    top_v = joint.counts.max(axis=1)
    rows = joint.counts / top_v[:, None]
    length = rows.shape[1]
    terms = (rows @ rest.convolve[:length]) * rest.off_weight
    weight = terms.sum(axis=1)
    # per group: (mines, free) summed over every arrangement, one row per value
    part = rest.joint[:length]
    mines = np.concatenate([(part @ joint.mines) / top_v[:, None], rows @ rest.mines[:length]], axis=1)
    free = np.concatenate([(part @ joint.free) / top_v[:, None], rows @ rest.free[:length]], axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        prob = mines / (mines + free)
        prob[free == 0] = 1.0
        if n_off:
            f = np.arange(terms.shape[1])
            off_mines = terms @ (mines_left - f)
            off_prob = off_mines / (off_mines + terms @ (n_off - mines_left + f))
            off_prob[off_prob != off_prob] = 1.0
            prob = np.concatenate([prob, off_prob[:, None]], axis=1)
    if safety_of is not None:
        safeties = safety_of(prob)
    elif second and not known_safe:
        sizes = np.concatenate([[len(g) for g in joint.groups], rest.sizes, [n_off] if n_off else []])
        safeties = blend(prob, sizes, second)
    else:
        low = np.where(prob < 1.0, prob, np.inf).min(axis=1, initial=np.inf)
        if known_safe:
            low[:] = 0.0
        safeties = np.where(low < np.inf, 1.0 - low, 1.0)
    out: dict[int, tuple[float, float]] = {}
    for i, v in enumerate(joint.tracked):
        if weight[i] > 0:
            safety = float(safeties[i])
            out[shown + v] = (rest.scale + math.log(top_v[i]) + math.log(float(weight[i])), safety)
    return out


def _living_blend(
    know: Knowledge,
    j: int,
    groups: tuple[tuple[int, ...], ...],
    rest: _Rest,
    off: frozenset[int],
    second: float,
    prob: np.ndarray,
) -> np.ndarray:
    """:func:`bot.solver.engine.blend` per row of ``prob``, over *living* cells only (JSMinesweeper).

    After ``j`` shows the row's value, a cell whose unknown neighbours are all certain (P 0 or 1) can
    show only one number: clicking it, safe or not, tells nothing, so it is no next guess worth
    counting. (Sufficient, not necessary: a pair holding one mine between them also fixes a number;
    such cells still count as living.) Off-frontier cells count as living. A row with no living cell
    is blended over every cell.
    """
    cells, known, nbrs = know.cells, know.known, know.nbrs
    shift = len(groups)
    off_col = prob.shape[1] - 1 if off else -1
    joint_col = {x: c for c, g in enumerate(groups) for x in g}
    rest_col = rest.column
    order = np.argsort(prob, axis=1, kind="stable").tolist()
    rows = prob.tolist()
    live = ((prob > 0.0) & (prob < 1.0)).tolist()
    # cell -> columns of its unknown neighbours but j (-1: in no column, so living), found when first needed;
    # a cell is living in a row when one of those columns is neither 0 nor 1 there
    around: dict[int, list[int]] = {}

    def columns(x: int) -> list[int]:
        cs = []
        for k in nbrs[x]:
            if k != j and cells[k] == COVERED and k not in known:
                c = joint_col.get(k)
                if c is None:
                    c = rest_col.get(k)
                    c = off_col if c is None else shift + c
                cs.append(c)
        around[x] = cs
        return cs

    out = np.empty(len(rows))
    plain: list[int] = []  # rows with no living cell below 1: the plain blend, computed for them alone
    for i, row in enumerate(rows):
        lv = live[i]
        found: list[float] = []
        for c in order[i]:
            p = row[c]
            if p >= 1.0:
                break
            if c == off_col:
                found += [p] * min(len(off), 2 - len(found))
            else:
                for x in groups[c] if c < shift else rest.cells[c - shift]:
                    cs = around.get(x)
                    if cs is None:
                        cs = columns(x)
                    for k in cs:
                        if k < 0 or lv[k]:
                            found.append(p)
                            break
                    if len(found) >= 2:
                        break
            if len(found) >= 2:
                break
        if found:
            first, next_ = found[0], found[1] if len(found) > 1 else found[0]
            out[i] = 1.0 - ((1.0 - second) * first + second * next_)
        else:
            plain.append(i)
    if plain:
        sizes = np.concatenate([[len(g) for g in groups], rest.sizes, [len(off)] if off else []])
        out[plain] = blend(prob[plain], sizes, second)
    return out
