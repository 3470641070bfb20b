"""Exact probabilities agree with an independent implementation, ms_toollib, on mid-game Expert positions."""

import numpy as np
import pytest

from bot.bench import BenchOptions, sample_positions
from bot.board import Board, Cell
from bot.game import FirstClickRule, find_level
from bot.solver import mine_probabilities

ms_toollib = pytest.importorskip("ms_toollib")

TOOLLIB_COVERED = 10
TOOLLIB_FLAG = 11


def to_toollib(board: Board) -> list[list[int]]:
    """ms_toollib's encoding: numbers 0-8, 10 covered, 11 flagged (found by experiment)."""
    grid = board.cells.astype(int)
    grid = np.where(grid == Cell.COVERED, TOOLLIB_COVERED, grid)
    grid = np.where(grid == Cell.FLAG, TOOLLIB_FLAG, grid)
    return grid.tolist()


def positions(games: int, seed: int) -> list[Board]:
    """Mid-game Expert boards from the simulator, played by our solver (every fourth position)."""
    return sample_positions(BenchOptions(find_level("expert"), FirstClickRule.SAFE, games, seed), every=4)


def test_encoding_experiment():
    probs, counts = ms_toollib.cal_probability_onboard([[1, 10], [10, 10]], 1)
    assert probs[0][0] == 0 and probs[0][1] == pytest.approx(1 / 3)
    assert counts[1] == 1


def test_agrees_with_ms_toollib_on_midgame_expert_positions():
    boards = positions(6, seed=2024)
    assert len(boards) >= 30
    for board in boards:
        ours = mine_probabilities(board)
        theirs = np.array(ms_toollib.cal_probability_onboard(to_toollib(board), board.mines)[0])
        covered = board.covered_mask()
        assert np.allclose(ours[covered], theirs[covered], rtol=0, atol=1e-9), board.to_text(True)


def test_agrees_with_flags_on_the_board():
    boards = positions(2, seed=77)
    checked = 0
    for board in boards:
        sure = mine_probabilities(board) == 1.0
        if not sure.any():
            continue
        flagged = board.copy()
        flagged.cells[sure] = Cell.FLAG  # flags count as known mines
        ours = mine_probabilities(flagged)
        theirs = np.array(ms_toollib.cal_probability_onboard(to_toollib(flagged), board.mines)[0])
        covered = flagged.covered_mask()
        assert np.allclose(ours[covered], theirs[covered], rtol=0, atol=1e-9)
        checked += 1
    assert checked >= 5
