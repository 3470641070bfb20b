"""The cheapest one-to-one assignment used to match digit groups to digits (no scipy)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from calibration.assign import min_cost_assignment


def brute_force(cost: np.ndarray) -> float:
    """Cheapest total over every injective map from the smaller side to the larger."""
    r, c = cost.shape
    if r <= c:
        return min(sum(cost[i, p[i]] for i in range(r)) for p in itertools.permutations(range(c), r))
    return brute_force(cost.T)


@pytest.mark.parametrize("seed", range(40))
def test_matches_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows, cols = (int(x) for x in rng.integers(1, 7, 2))
    cost = rng.random((rows, cols)) * 10
    cost[cost > 8] = 1e6
    r, c = min_cost_assignment(cost)
    assert len(r) == len(c) == min(rows, cols)
    assert len(set(r.tolist())) == len(r) and len(set(c.tolist())) == len(c)
    assert cost[r, c].sum() == pytest.approx(brute_force(cost))


def test_known_answer() -> None:
    cost = np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]])
    r, c = min_cost_assignment(cost)
    assert list(zip(r.tolist(), c.tolist(), strict=True)) == [(0, 1), (1, 0), (2, 2)]
