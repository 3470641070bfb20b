"""One-to-one assignments of digit groups to digits: the cheapest one, and the digits every possible one
forces."""

from __future__ import annotations

import numpy as np


def min_cost_assignment(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of a cheapest one-to-one assignment (as many pairs as the smaller side).

    Exact dynamic programming over subsets of the smaller side: digit groups against digits are at most
    9 x 9, so 2**9 states suffice and no optimisation library is needed.
    """
    cost = np.asarray(cost, dtype=float)
    if cost.shape[0] > cost.shape[1]:
        cols, rows = min_cost_assignment(cost.T)
        order = np.argsort(rows, kind="stable")
        return rows[order], cols[order]
    n_rows, n_cols = cost.shape
    # best[mask] = (cost, choice) after assigning the first popcount(mask)... rows, mask = columns used
    best: dict[int, float] = {0: 0.0}
    back: dict[tuple[int, int], int] = {}
    for r in range(n_rows):
        nxt: dict[int, float] = {}
        for mask, total in best.items():
            for c in range(n_cols):
                if mask >> c & 1:
                    continue
                m2, t2 = mask | 1 << c, total + cost[r, c]
                if t2 < nxt.get(m2, float("inf")):
                    nxt[m2] = t2
                    back[(r, m2)] = c
        best = nxt
    mask = min(best, key=best.__getitem__) if best else 0
    cols_out = []
    for r in range(n_rows - 1, -1, -1):
        c = back[(r, mask)]
        cols_out.append(c)
        mask &= ~(1 << c)
    return np.arange(n_rows), np.array(cols_out[::-1], dtype=int)


MAX_MATCHINGS = 200_000
"""Digit assignments enumerated at most (8 groups over 8 digits is 40,320)."""


def forced_values(allowed: list[list[int]]) -> list[int | None] | None:
    """For groups that each take a different digit from their ``allowed`` list: the digit each group
    takes in every possible assignment (None where assignments differ); None when none is possible."""
    seen: list[set[int]] = [set() for _ in allowed]
    order = sorted(range(len(allowed)), key=lambda k: len(allowed[k]))
    chosen: dict[int, int] = {}
    count = 0

    def walk(k: int) -> None:
        nonlocal count
        if count > MAX_MATCHINGS:
            return
        if k == len(order):
            count += 1
            for g, d in chosen.items():
                seen[g].add(d)
            return
        g = order[k]
        used = set(chosen.values())
        for d in allowed[g]:
            if d not in used:
                chosen[g] = d
                walk(k + 1)
                del chosen[g]

    walk(0)
    if count == 0 or count > MAX_MATCHINGS:
        return None
    return [next(iter(values)) if len(values) == 1 else None for values in seen]
