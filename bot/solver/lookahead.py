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

from dataclasses import dataclass

from bot.solver.engine import Probabilities, RegionCount, count_region, count_tracked, split_regions, weigh
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


_BASE: list[_Base] = []
"""The base of the last position looked at (one per guess: every candidate shares it)."""


def _base(know: Knowledge, probs: Probabilities, total: int) -> _Base | None:
    """The shared part of the look-ahead for ``probs`` (cached for the next candidate)."""
    if _BASE and _BASE[0].probs is probs:
        return _BASE[0]
    regions = split_regions(know)
    counted = [count_region(know, r) for r in regions]
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
    know: Knowledge, probs: Probabilities, j: int, total: int | None, node_budget: int = JOINT_NODES
) -> dict[int, tuple[float, float]] | None:
    """For each number the unknown covered cell ``j`` can show: (log weight, best safety) after it.

    The log weight is that of the position with ``j`` showing the number (so its exp over the current
    position's weight is P(``j`` is safe and shows it)); the best safety is 1 - the lowest mine
    probability below 1 there. Numbers no arrangement shows are left out. None when the position is
    not exact, the total is unknown, or the joint count passes ``node_budget`` nodes.
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
    numbers = [c for r in touched for c in base.regions[r]]
    by_sig: dict[tuple, list[int]] = {}
    for x in {x for c in numbers for x in cons[c][0]} | tracked:
        if x != j:
            by_sig.setdefault((tuple(sorted(cell_cons.get(x, ()))), x in tracked), []).append(x)
    groups = sorted(tuple(sorted(xs)) for xs in by_sig.values())
    index = {x: g for g, xs in enumerate(groups) for x in xs}
    joint = []
    for c in numbers:
        gs = sorted({index[x] for x in cons[c][0] if x != j})
        need = cons[c][1]
        if not gs:
            if need:
                return {}  # j cannot be safe
            continue
        joint.append((gs, need))
    in_tracked = [groups[g][0] in tracked for g in range(len(groups))]
    by_value = count_tracked(tuple(groups), joint, in_tracked, node_budget)
    if by_value is None:
        return None
    others = [rc for r, rc in enumerate(base.counted) if r not in touched]
    n_off = len(base.off) - sum(1 for x in (j, *unknown) if x in base.off)
    out: dict[int, tuple[float, float]] = {}
    for v, rc in by_value.items():
        weighed = weigh([*others, rc], n_off, base.mines_left)
        if weighed is None:
            continue
        log_weight, probs_after, off_prob = weighed
        rest = [p for _, p in probs_after if p < 1.0]
        if off_prob is not None and off_prob < 1.0:
            rest.append(off_prob)
        if base.known_safe:
            rest.append(0.0)
        out[shown + v] = (log_weight, (1.0 - min(rest)) if rest else 1.0)
    return out
