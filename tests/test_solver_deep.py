"""Two clicks of look-ahead (``Policy.deep``): a bounded, consistent refinement of the one-click score."""

from __future__ import annotations

import dataclasses

from bot.bench import BenchOptions, sample_positions
from bot.game import FirstClickRule, find_level
from bot.solver import choose_moves, find_policy
from bot.solver.engine import solve
from bot.solver.policy import _two_clicks, secondary_safety
from bot.solver.rules import Knowledge


def _guess_positions(games: int, seed: int):
    for board in sample_positions(BenchOptions(find_level("16x16/40"), FirstClickRule.SAFE, games, seed)):
        know = Knowledge.from_board(board)
        probs = solve(know, board.mines)
        if know.safe_cells() or not probs.exact or any(p == 0.0 for p in probs.prob.values()):
            continue
        yield board, know, probs


def test_two_clicks_never_promise_more_than_one_click_and_count_the_second_risk():
    pol = dataclasses.replace(find_policy("light"), deep=3)
    checked = lower = 0
    for board, know, probs in _guess_positions(8, 61):
        cells = [j for j, p in sorted(probs.prob.items()) if 0.0 < p < 1.0][:3]
        deep = _two_clicks(know, probs, cells, board.mines, pol)
        assert deep is not None and set(deep) == set(cells)
        for j in cells:
            one = secondary_safety(know, probs, j, board.mines)
            assert one is not None
            # the second click's score is at most the best safety the first one leaves
            assert 0.0 <= deep[j] <= one + 1e-12 <= 1.0 - probs.prob[j] + 2e-12
            lower += deep[j] < one - 1e-6
            checked += 1
    assert checked >= 20 and lower >= 5


def test_a_deep_policy_names_its_reason_and_is_deterministic():
    deep = dataclasses.replace(find_policy("light"), name="deep", deep=2)
    plain = find_policy("light")
    used = 0
    for board, _know, _probs in _guess_positions(8, 71):
        move = choose_moves(board, board.mines, "safe", seed=1, policy=deep)[0]
        if not move.reason.startswith("two clicks ahead"):
            continue
        used += 1
        assert choose_moves(board, board.mines, "safe", seed=1, policy=deep)[0] == move  # deterministic
        assert 0.0 < move.probability < 1.0
        assert choose_moves(board, board.mines, "safe", seed=1, policy=plain)[0].reason.startswith(
            "secondary safety"
        )
    assert used >= 3
