"""The candidate window of the guess policy (Policy.safety_window)."""

import dataclasses

from bot.bench import BenchOptions, sample_positions
from bot.game import FirstClickRule, find_level
from bot.solver import find_policy
from bot.solver.engine import solve
from bot.solver.policy import _candidates
from bot.solver.rules import Knowledge


def test_the_safety_window_keeps_exactly_the_cells_near_the_best_safety():
    policy = dataclasses.replace(find_policy("best"), safety_window=0.1, max_candidates=100, off_candidates=0)
    checked = 0
    for board in sample_positions(BenchOptions(find_level("16x16/40"), FirstClickRule.SAFE, 8, 8)):
        know = Knowledge.from_board(board)
        probs = solve(know, board.mines)
        open_cells = [j for j, p in probs.prob.items() if 0.0 < p < 1.0 and j in probs.frontier]
        if know.safe_cells() or not open_cells:
            continue
        best = max(1.0 - probs.prob[j] for j in probs.prob if 0.0 < probs.prob[j] < 1.0)
        expected = {j for j in open_cells if 1.0 - probs.prob[j] >= 0.9 * best - 1e-12}
        assert set(_candidates(know, probs, policy)) == expected
        checked += 1
    assert checked >= 3
