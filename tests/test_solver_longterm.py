"""Long-term risk (bot.solver.longterm): 50/50 patterns a guess can still defuse, counted exactly."""

import pytest

from bot.bench import BenchOptions, sample_positions
from bot.board import Board
from bot.game import FirstClickRule, find_level
from bot.solver.endgame import arrangements
from bot.solver.engine import solve
from bot.solver.longterm import _patterns, influence, joint
from bot.solver.rules import COVERED, Knowledge

# (0,1) and (0,2) are flanked by flags: once one of them is a mine, no number can tell which
FLANKED = "# mines: 8\nF..F\nF..F\n....\n...."


def _brute(arr: list[int], bit: dict[int, int], mines: list[int], safe: list[int]) -> float:
    hits = sum(all(m & bit[k] for k in mines) and not any(m & bit[k] for k in safe) for m in arr)
    return hits / len(arr)


def test_a_flanked_pair_is_a_pattern_and_a_revealed_flank_is_not():
    board = Board.from_text(FLANKED)
    know = Knowledge.from_board(board)
    assert ([2], []) in _patterns(know, 1)
    probs = solve(know, board.mines)
    assert 0.0 < influence(know, probs, board.mines, 1) <= 1.0 - probs.prob[1]
    know = Knowledge.from_board(Board.from_text("# mines: 7\nF..F\nF..1\n....\n...."))
    assert _patterns(know, 1) == []


def test_joint_probabilities_match_brute_force():
    checked = 0
    boards = [Board.from_text(FLANKED)]
    boards += sample_positions(BenchOptions(find_level("6x6/7"), FirstClickRule.SAFE, 6, 3), every=3)
    for board in boards:
        know = Knowledge.from_board(board)
        probs = solve(know, board.mines)
        unknown = [j for j, v in enumerate(know.cells) if v == COVERED and j not in know.known]
        arr = arrangements(know, unknown, board.mines - know.known_mines(), 20_000)
        bit = {j: 1 << i for i, j in enumerate(unknown)}
        open_cells = sorted(j for j, p in probs.prob.items() if 0.0 < p < 1.0)
        if arr is None or len(open_cells) < 3:
            continue
        a, b, c = open_cells[0], open_cells[len(open_cells) // 2], open_cells[-1]
        for mines, safe in (([a], [b]), ([a, c], []), ([b], [a, c])):
            assert joint(know, probs, board.mines, mines, safe) == pytest.approx(
                _brute(arr, bit, mines, safe), abs=1e-9
            )
        for j in open_cells:
            expected = sum(_brute(arr, bit, m, [j, *s]) for m, s in _patterns(know, j))
            assert influence(know, probs, board.mines, j) == pytest.approx(
                min(expected, 1.0 - probs.prob[j]), abs=1e-9
            )
        checked += 1
    assert checked >= 3
