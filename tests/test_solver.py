"""The solver: exact probabilities against brute force, certain rules, contradictions, first clicks, moves."""

import itertools
import math
import random
import sys

import numpy as np
import pytest

from bot.bench import BenchOptions, sample_positions
from bot.board import Board, Cell, neighbour_table
from bot.errors import ContradictionError, GameOverError
from bot.game import FirstClickRule, find_level
from bot.solver import Action, Move, choose_move, choose_moves, mine_probabilities
from bot.solver.engine import solve
from bot.solver.rules import Knowledge


def brute_force(board: Board, total: int) -> np.ndarray | None:
    """P(mine) by enumerating every placement of the mines left over the covered cells; None if none fits."""
    rows, cols = board.shape
    cells = board.cells.ravel().tolist()
    nbrs = neighbour_table(rows, cols)
    covered = [i for i, v in enumerate(cells) if v == Cell.COVERED]
    left = total - sum(1 for v in cells if v == Cell.FLAG)
    if left < 0:
        return None
    hits = [0] * len(covered)
    solutions = 0
    for combo in itertools.combinations(range(len(covered)), left):
        mine = {covered[k] for k in combo}
        if all(
            v > 8 or sum(1 for j in nbrs[i] if j in mine or cells[j] == Cell.FLAG) == v
            for i, v in enumerate(cells)
        ):
            solutions += 1
            for k in combo:
                hits[k] += 1
    if not solutions:
        return None
    out = np.full(rows * cols, np.nan)
    for k, i in enumerate(covered):
        out[i] = hits[k] / solutions
    return out.reshape(rows, cols)


def random_position(rng: random.Random, corrupt: float = 0.0) -> Board:
    """A small random position: some cells revealed truthfully, some flagged, maybe one corrupted number."""
    rows, cols = rng.randint(2, 5), rng.randint(2, 5)
    mines = rng.randint(1, rows * cols // 3 + 1)
    mine = set(rng.sample(range(rows * cols), mines))
    nbrs = neighbour_table(rows, cols)
    grid = []
    for i in range(rows * cols):
        if rng.random() < 0.45:
            grid.append(Cell.COVERED)
        elif i in mine:
            grid.append(Cell.FLAG if rng.random() < 0.3 else Cell.COVERED)
        else:
            grid.append(sum(1 for j in nbrs[i] if j in mine))
    if rng.random() < corrupt:
        grid[rng.randrange(rows * cols)] = rng.randint(0, 8)
    return Board(np.array(grid, dtype=np.int8).reshape(rows, cols), mines)


def test_probabilities_match_brute_force_on_thousands_of_positions():
    rng = random.Random(20240601)
    checked = contradictions = 0
    for _ in range(2500):
        board = random_position(rng, corrupt=0.15)
        expected = brute_force(board, board.mines)
        if expected is None:
            with pytest.raises(ContradictionError) as info:
                mine_probabilities(board)
            cell = info.value.cell
            assert cell is None or board.in_bounds(cell)
            contradictions += 1
            continue
        got = mine_probabilities(board)
        assert np.array_equal(np.isnan(got), np.isnan(expected)), board
        assert np.allclose(np.nan_to_num(got), np.nan_to_num(expected), rtol=0, atol=1e-9), board
        checked += 1
    assert checked > 1500 and contradictions > 100


def test_certain_cells_are_exactly_zero_or_one_and_agree_with_the_moves():
    rng = random.Random(7)
    for _ in range(300):
        board = random_position(rng)
        probs = mine_probabilities(board)
        try:
            moves = choose_moves(board, flags=True)
        except GameOverError:  # nothing left to open
            assert not (probs < 1.0).any()
            continue
        if board.is_fresh() or any(m.probability > 0 and m.action is Action.OPEN for m in moves):
            assert not (probs == 0.0).any()  # a guess only when nothing is certain
            continue
        for m in moves:
            for cell in m.opens:
                assert probs[cell] == 0.0
            if m.action is Action.FLAG:
                assert probs[m.cell] == 1.0


def test_off_frontier_cells_share_one_probability_with_huge_binomials():
    board = Board.new(16, 30, 99)
    board[0, 0] = Cell.ONE
    probs = mine_probabilities(board)
    # the 1 has 3 covered neighbours; 476 cells elsewhere share 98 mines in the exact weighting
    assert math.isclose(np.nansum(probs), 99, rel_tol=1e-12)
    far = probs[10, 10]
    assert np.allclose(probs[3:, 3:], far)
    assert math.isclose(probs[0, 1] * 3, 1.0, rel_tol=1e-12)


def test_unknown_total_weighs_regions_independently():
    board = Board.from_text("1..\n...\n...")  # mines unknown
    probs = mine_probabilities(board)
    assert probs[0, 1] == pytest.approx(1 / 3)  # exactly one mine among the three cells, each equally likely
    assert probs[2, 2] == pytest.approx(0.2)  # the assumed density off the frontier
    assert choose_move(Board.from_text("01.\n01.\n01.")).probability == 0.0


def test_rules_find_certain_cells_with_reasons():
    moves = choose_moves(Board.from_text("01.\n01.\n01.", mines=1))
    assert {m.cell for m in moves} == {(0, 2), (2, 2)}
    assert all(m.action is Action.OPEN and m.probability == 0.0 for m in moves)
    assert {m.reason for m in moves} <= {"single-number rule", "subset rule", "pair rule"}
    # a 1-2-1 on a wall: the rules alone prove cells, and the engine agrees with them
    board = Board.from_text("....\n121.\n000.", mines=2)
    know = Knowledge.from_board(board)
    assert know.known  # something is proven by rules alone
    probs = mine_probabilities(board)
    for j, mine in know.known.items():
        assert probs[divmod(j, 4)] == (1.0 if mine else 0.0)


def test_flags_mode_flags_mines_and_chords():
    board = Board.from_text("111\n1..\n1..", mines=1)
    moves = choose_moves(board, flags=False)
    assert all(m.action is Action.OPEN for m in moves)
    board = Board.from_text("01.\n01.\n01.", mines=1)
    moves = choose_moves(board, flags=True)
    assert moves[0] == Move(Action.FLAG, (1, 2), 1.0, moves[0].reason)
    chord = [m for m in moves if m.action is Action.CHORD]
    assert chord and set(chord[0].opens) == {(0, 2), (2, 2)}


@pytest.mark.parametrize(
    ("text", "mines", "cell"),
    [
        ("1F\nF.", 3, (0, 0)),  # more flags around a number than it shows
        ("3.\n00", 3, (0, 0)),  # needs 3 mines, only 1 covered neighbour
        ("1.1\n000", 2, None),  # the 0s say no mine, the 1s need one
        ("F.\n..", 0, (0, 0)),  # more flags than the total
        ("1..\n...", 5, None),  # too many mines for the cells left (cell named below)
        ("11\n..", 0, (0, 0)),  # numbers need more mines than the total
    ],
)
def test_contradictions_name_a_cell(text, mines, cell):
    board = Board.from_text(text, mines=mines)
    with pytest.raises(ContradictionError) as info:
        mine_probabilities(board)
    assert info.value.cell is not None and board.in_bounds(info.value.cell)
    if cell is not None:
        assert info.value.cell == cell
    assert str(info.value.cell) in str(info.value)
    with pytest.raises(ContradictionError):
        choose_moves(board)


def test_game_over_boards_raise():
    for text in ("1*\n..", "1X\n..", "1W\n.."):
        with pytest.raises(GameOverError) as info:
            choose_move(Board.from_text(text, mines=1))
        assert info.value.cell == (0, 1)
    with pytest.raises(GameOverError):
        choose_move(Board.from_text("1F\n11", mines=1))  # nothing left to open


@pytest.mark.parametrize(
    ("rule", "shape", "cell"),
    [
        ("safe", (16, 30), (0, 0)),
        ("winxp", (16, 30), (0, 0)),
        ("none", (9, 9), (0, 0)),
        ("zero", (16, 30), (3, 3)),
        (FirstClickRule.ZERO, (9, 9), (3, 3)),
        ("zero", (3, 5), (1, 2)),
    ],
)
def test_first_click_per_rule(rule, shape, cell):
    move = choose_move(Board.new(*shape, mines=2), rule=rule)
    assert move.action is Action.OPEN and move.cell == cell and move.opens == (cell,)
    assert move.reason.startswith("first click")
    assert move.probability == (2 / (shape[0] * shape[1]) if rule == "none" else 0.0)


def test_move_formatting_and_dict():
    move = Move(Action.OPEN, (3, 7), 0.123, "subset rule", ((3, 7),))
    assert str(move) == "open (3, 7) p=0.12: subset rule"
    assert move.to_dict() == {
        "action": "open",
        "cell": [3, 7],
        "probability": 0.123,
        "reason": "subset rule",
        "opens": [[3, 7]],
    }
    chord = Move(Action.CHORD, (1, 1), 0.0, "chord", ((0, 2), (2, 2)))
    assert chord.to_dict()["opens"] == [[0, 2], [2, 2]] and str(chord).startswith("chord (1, 1) p=0.00")


def test_guess_prefers_a_corner_off_the_frontier_and_is_deterministic():
    board = Board.new(9, 9, 10)
    board[4, 4] = Cell.TWO  # its neighbours: 2 in 8; everywhere else: 8 in 72
    probs = mine_probabilities(board)
    assert probs[3, 3] == pytest.approx(0.25) and probs[0, 0] == pytest.approx(8 / 72)
    for policy in ("best", "fast"):
        move = choose_move(board, seed=1, policy=policy)
        assert move.action is Action.OPEN and move.probability == pytest.approx(8 / 72)
        assert move.cell in {(0, 0), (0, 8), (8, 0), (8, 8)}  # fewest covered neighbours
        assert move == choose_move(board, seed=1, policy=policy)
    assert choose_move(board) == choose_move(board)  # seed None is deterministic too


def test_isolated_fifty_fifty_is_taken_at_once():
    # (0,0)/(0,1) hold one mine and only numbers that touch both see them: no click can ever tell
    board = Board.from_text("..F\n13F\n011", mines=3)
    move = choose_move(board)
    assert move.cell in {(0, 0), (0, 1)} and move.probability == pytest.approx(0.5)
    assert "isolated 50/50" in move.reason
    # the same pair with a number that touches only one of them is not isolated: it is solved instead
    assert choose_move(Board.from_text("..1\n111\n000", mines=1)).probability == 0.0


def test_large_region_past_the_budget_is_approximated_safely():
    boards = sample_positions(BenchOptions(find_level("expert"), FirstClickRule.SAFE, 3, 11))
    approximated = 0
    for board in boards[::5]:
        know = Knowledge.from_board(board)
        approx = solve(know, board.mines, node_budget=3)
        exact = solve(know, board.mines)
        approximated += not approx.exact
        for j, p in approx.prob.items():
            if exact.prob[j] not in (0.0, 1.0):
                assert 0.0 < p < 1.0  # never claims a certainty it does not have
            elif j in know.known:
                assert p == exact.prob[j]
    assert approximated > 5


def test_solver_imports_no_screen_libraries():
    assert "bot.solver" in sys.modules
    for name in ("cv2", "mss", "pyautogui"):
        assert name not in sys.modules or "bot.vision" in sys.modules or "bot.capture" in sys.modules


@pytest.mark.parametrize("name", ["bot.solver", "bot.progress"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_secondary_safety_is_exact_and_the_fifty_penalty_only_lowers_it_and_progress_only_raises_it():
    from bot.solver.policy import secondary_safety

    checked = raised = 0
    for board in sample_positions(BenchOptions(find_level("beginner"), FirstClickRule.SAFE, 12, 21)):
        know = Knowledge.from_board(board)
        probs = solve(know, board.mines)
        if know.safe_cells() or not probs.exact or any(p == 0.0 for p in probs.prob.values()):
            continue
        for j, p in list(probs.prob.items())[:4]:
            if not 0.0 < p < 1.0:
                continue
            plain = secondary_safety(know, probs, j, board.mines)
            penalised = secondary_safety(know, probs, j, board.mines, fifty_penalty=True)
            assert plain is not None and penalised is not None
            # (the penalised one is counted per value, the plain one at once: equal to ~1e-13)
            assert 0.0 <= penalised <= plain + 1e-12 <= 1.0 - p + 2e-12  # survive this click, then the next
            bonus = secondary_safety(know, probs, j, board.mines, progress=0.5)
            assert bonus is not None and plain <= bonus <= plain + 0.5 * (1.0 - p) + 1e-12
            raised += bonus > plain + 1e-9
            checked += 1
    assert checked >= 10 and raised >= 1


def test_look_ahead_safety_is_what_a_full_solve_reports_bit_for_bit():
    from bot.errors import ContradictionError as Impossible
    from bot.solver.engine import best_safety

    checked = 0
    for board in sample_positions(BenchOptions(find_level("16x16/40"), FirstClickRule.SAFE, 6, 21), every=3):
        know = Knowledge.from_board(board)
        for j in sorted(know.cell_cons)[:4] + sorted(know.covered - know.cell_cons.keys())[:2]:
            if j in know.known:
                continue
            for value in range(4):
                try:
                    hyp = know.reveal(j, value)
                    full = solve(hyp, board.mines)
                except Impossible:
                    with pytest.raises(Impossible):
                        best_safety(know.reveal(j, value), board.mines)
                    continue
                rest = [p for p in full.prob.values() if p < 1.0]
                expected = (full.log_weight, (1.0 - min(rest)) if rest else 1.0)
                assert best_safety(hyp, board.mines) == expected
                checked += 1
    assert checked > 100


def test_every_value_counted_at_once_is_what_revealing_each_value_reports():
    from bot.errors import ContradictionError as Impossible
    from bot.solver.lookahead import value_outcomes

    checked = 0
    for board in sample_positions(BenchOptions(find_level("16x16/40"), FirstClickRule.SAFE, 10, 31)):
        know = Knowledge.from_board(board)
        if know.safe_cells():  # (the policy looks ahead only when it must guess)
            continue
        probs = solve(know, board.mines)
        off = sorted(know.covered - know.cell_cons.keys() - know.known.keys())
        for j in sorted(know.cell_cons)[::3][:5] + off[:1] + off[-1:]:
            table = value_outcomes(know, probs, j, board.mines)
            assert table is not None
            expected = {}
            for value in range(9):
                try:
                    full = solve(know.reveal(j, value), board.mines)
                except Impossible:
                    continue
                rest = [p for p in full.prob.values() if p < 1.0]
                expected[value] = (full.log_weight, (1.0 - min(rest)) if rest else 1.0)
            assert table.keys() == expected.keys()
            for value, (log_weight, safety) in expected.items():
                assert table[value][0] == pytest.approx(log_weight, rel=1e-12, abs=1e-9)
                assert table[value][1] == pytest.approx(safety, rel=1e-12, abs=1e-12)
                assert (table[value][1] == 1.0) == (safety == 1.0)  # a certain cell after it, exactly
            checked += len(expected)
    assert value_outcomes(know, probs, j, None) is None  # no total: nothing exact to report
    assert checked > 500


def test_fewest_unknown_neighbours_ranks_like_a_sort_by_count_then_cell():
    from bot.solver.policy import _fewest_unknown_neighbours, _unknown_neighbours

    for board in sample_positions(BenchOptions(find_level("16x16/40"), FirstClickRule.SAFE, 4, 5), every=4):
        know = Knowledge.from_board(board)
        off = tuple(sorted(know.covered - know.cell_cons.keys() - know.known.keys()))
        if not off:
            continue
        expected = sorted(off, key=lambda j: (_unknown_neighbours(know, j), j))
        for n in (1, 2, 5):
            assert _fewest_unknown_neighbours(know, off, n) == expected[:n]


def _blended(prob: dict[int, float], second: float) -> float:
    """(1 - second) x the best safety + second x the next best, cell by cell, from a full solve."""
    low = sorted(p for p in prob.values() if p < 1.0)
    if not low:
        return 1.0
    return 1.0 - ((1.0 - second) * low[0] + second * (low[1] if len(low) > 1 else low[0]))


def _guess_cells():
    """(board, knowledge, probabilities, cell): a few cells of 16x16/40 positions that need a guess."""
    for board in sample_positions(BenchOptions(find_level("16x16/40"), FirstClickRule.SAFE, 8, 41)):
        know = Knowledge.from_board(board)
        if know.safe_cells():
            continue
        probs = solve(know, board.mines)
        off = sorted(know.covered - know.cell_cons.keys() - know.known.keys())
        for j in sorted(know.cell_cons)[::3][:4] + off[:1]:
            yield board, know, probs, j


def test_blended_safety_counted_at_once_is_what_revealing_each_value_reports():
    from bot.errors import ContradictionError as Impossible
    from bot.solver.engine import best_safety
    from bot.solver.lookahead import value_outcomes

    checked = 0
    for board, know, probs, j in _guess_cells():
        table = value_outcomes(know, probs, j, board.mines, second=0.2)
        assert table is not None
        for value in range(9):
            try:
                hyp = know.reveal(j, value)
                full = solve(hyp, board.mines)
            except Impossible:
                assert value not in table
                continue
            expected = _blended(full.prob, 0.2)
            assert table[value][1] == pytest.approx(expected, rel=1e-12, abs=1e-12)
            after = best_safety(hyp, board.mines, second=0.2)
            assert after is not None and after[1] == pytest.approx(expected, rel=1e-12, abs=1e-12)
            checked += 1
    assert checked > 200


def test_living_blend_leaves_out_cells_whose_number_is_already_certain():
    from bot.solver.lookahead import value_outcomes

    checked = dropped = 0
    for board, know, probs, j in _guess_cells():
        table = value_outcomes(know, probs, j, board.mines, second=0.2, living=True)
        assert table is not None
        for value in table:
            hyp = know.reveal(j, value)
            full = solve(hyp, board.mines)
            uncertain = {k for k, p in full.prob.items() if 0.0 < p < 1.0}
            alive = {
                x: p
                for x, p in full.prob.items()
                if p < 1.0 and (x in full.off or any(k in uncertain for k in know.nbrs[x]))
            }
            expected = _blended(alive or full.prob, 0.2)
            dropped += len(alive) < len(full.prob)
            assert table[value][1] == pytest.approx(expected, rel=1e-12, abs=1e-12)
            checked += 1
    assert checked > 200 and dropped > 10


def test_count_around_counts_each_cells_set_neighbours():
    from bot.solver.rules import count_around

    rng = np.random.default_rng(5)
    for rows, cols in [(1, 1), (1, 6), (5, 1), (2, 2), (9, 9), (16, 30)]:
        for _ in range(20):
            mask = rng.random((rows, cols)) < 0.4
            nbrs = neighbour_table(rows, cols)
            flat = mask.ravel()
            expected = np.array([sum(int(flat[k]) for k in nbrs[j]) for j in range(rows * cols)])
            got = count_around(mask)
            assert got.dtype == np.int16 and got.shape == (rows, cols)
            assert np.array_equal(got.ravel(), expected)
