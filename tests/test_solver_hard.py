"""The counting engine on hard generated positions: exact against brute force and ms_toollib, and
incremental knowledge equal to knowledge read from scratch."""

import numpy as np
import pytest

from bot.bench import BenchOptions, _apply, hard_position, play_game
from bot.game import FirstClickRule, Game, find_level
from bot.solver import Action, choose_moves, engine, policy, probability_grid
from bot.solver.rules import Knowledge
from bot.solver.sweep import SweepOverflow, sweep_count
from tests.test_solver import brute_force


def region_problems(board):
    """(sizes, constraints) of every region of the board, as the engine builds them."""
    know = Knowledge.from_board(board)
    out = []
    for region in engine.split_regions(know):
        groups, cons = engine._region_problem(know, engine._region_key(know, region))
        out.append(([len(g) for g in groups], cons))
    return out


def test_sweep_equals_backtracking_on_every_region_of_hard_positions():
    checked = 0
    for seed in range(12):
        for sizes, cons in region_problems(hard_position(seed, 9, 16, 30)):
            try:
                counts, sums = engine._enumerate(sizes, cons, 200_000)
            except engine._Overflow:
                continue
            got_counts, mines, free, _ = sweep_count(sizes, cons, 10**7)
            assert np.allclose(got_counts, [float(c) for c in counts], rtol=1e-12, atol=0)
            assert np.allclose(mines, np.array(sums, dtype=float).reshape(mines.shape), rtol=1e-12, atol=0)
            total = np.array([[c * s for s in sizes] for c in counts], dtype=float).reshape(free.shape)
            assert np.allclose(mines + free, total, rtol=1e-12, atol=0)
            checked += len(sizes) > 5
    assert checked >= 10


def test_sweep_budget_raises():
    sizes, cons = max(region_problems(hard_position(3)), key=lambda p: len(p[0]))
    with pytest.raises(SweepOverflow):
        sweep_count(sizes, cons, 5)


@pytest.mark.parametrize("force_sweep", [False, True])
def test_exact_against_brute_force_on_small_hard_positions(monkeypatch, force_sweep):
    if force_sweep:  # every region through the frontier sweep, none through backtracking
        monkeypatch.setattr(engine, "BACKTRACK_NODES", 0)
    engine._CACHE.clear()
    for seed in range(40):
        board = hard_position(seed, 4, 6, 6, (0.3, 0.7))
        expected = brute_force(board, board.mines)
        got, exact = probability_grid(board)
        assert exact
        assert np.array_equal(np.isnan(got), np.isnan(expected))
        assert np.allclose(np.nan_to_num(got), np.nan_to_num(expected), rtol=0, atol=1e-9), board
        certain = np.nan_to_num(expected, nan=0.5)
        assert np.array_equal(got[certain == 0.0], certain[certain == 0.0])  # exactly 0.0 and 1.0
        assert np.array_equal(got[certain == 1.0], certain[certain == 1.0])
    engine._CACHE.clear()


def test_exact_against_ms_toollib_on_hard_expert_positions():
    ms_toollib = pytest.importorskip("ms_toollib")
    from tests.test_solver_toollib import to_toollib

    largest = 0
    for seed in (2, 4, 9, 16, 20):
        board = hard_position(seed)
        engine._CACHE.clear()
        ours, exact = probability_grid(board)
        assert exact
        theirs = np.array(ms_toollib.cal_probability_onboard(to_toollib(board), board.mines)[0])
        covered = board.covered_mask()
        assert np.allclose(ours[covered], theirs[covered], rtol=0, atol=1e-9)
        largest = max(largest, max(len(s) for s, _ in region_problems(board)))
    assert largest > 30  # past what backtracking alone used to count within its budget


def test_a_tiny_guard_approximates_and_says_so():
    board = hard_position(3)
    know = Knowledge.from_board(board)
    engine._CACHE.clear()
    approx = engine.solve(know, board.mines, node_budget=10)
    engine._CACHE.clear()
    exact = engine.solve(know, board.mines)
    assert exact.exact and not approx.exact and approx.log_weight is None
    for j, p in approx.prob.items():
        if exact.prob[j] not in (0.0, 1.0):
            assert 0.0 < p < 1.0


def _checked_reads(monkeypatch) -> list[bool]:
    """Make every board the solver reads check its incremental knowledge against a fresh read; the list
    gets, per read, whether the kept knowledge was advanced (not read from scratch)."""
    seen: list[bool] = []
    read = policy._read_checked  # (what choose_moves and read_knowledge both read a board with)

    def checked(board):
        know = read(board)
        fresh = Knowledge.from_board(board)
        assert know.known == fresh.known and know.flags == fresh.flags and know.cells == fresh.cells
        assert {k: (c[0], c[1]) for k, c in know.cons.items()} == {
            k: (c[0], c[1]) for k, c in fresh.cons.items()
        }
        assert know.cell_cons == fresh.cell_cons and know.covered == fresh.covered
        a, b = engine.solve(know, board.mines), engine.solve(fresh, board.mines)
        assert a.prob == b.prob
        seen.append(know is policy._LAST[0])
        return know

    monkeypatch.setattr(policy, "_read_checked", checked)
    return seen


def test_incremental_knowledge_equals_knowledge_from_scratch(monkeypatch):
    seen = _checked_reads(monkeypatch)
    for level, games in (("expert", 3), ("beginner", 6)):
        options = BenchOptions(find_level(level), FirstClickRule.SAFE, games, 3)
        for i in range(games):
            play_game(options, i)
    assert len(seen) > 60


def test_incremental_knowledge_with_flags_equals_knowledge_from_scratch(monkeypatch):
    """Flags placed on proven mines (``flags=True``) are counted by the numbers revealed next to them."""
    seen = _checked_reads(monkeypatch)
    flagged = 0
    for seed in range(4):
        game = Game.new("intermediate", seed=seed)
        while not game.is_over():
            for move in choose_moves(game.board, flags=True, seed=seed):
                if move.action is Action.FLAG:
                    flagged += 1
                _apply(game, move)
                if game.is_over():
                    break
    assert flagged > 20 and sum(seen) > 40
