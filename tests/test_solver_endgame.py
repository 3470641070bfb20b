"""The exhaustive endgame search: exact win probabilities on small positions."""

import pytest

from bot.bench import BenchOptions, sample_positions
from bot.board import Board
from bot.game import FirstClickRule, find_level
from bot.solver import choose_move, mine_probabilities
from bot.solver.endgame import arrangements, search
from bot.solver.rules import COVERED, Knowledge


def knowledge(text: str) -> tuple[Knowledge, int]:
    board = Board.from_text(text)
    know = Knowledge.from_board(board)
    return know, board.mines - know.known_mines()


def test_one_pair_is_a_coin_flip_and_two_pairs_are_two():
    know, left = knowledge("# mines: 3\n..F\n13F\n011")
    choice = search(know, left)
    assert choice is not None and choice.win == pytest.approx(0.5) and choice.arrangements == 2
    know, left = knowledge("# mines: 6\n..FF..\n13FF31\n012210")
    assert search(know, left).win == pytest.approx(0.25)


def test_arrangements_are_exactly_the_consistent_placements():
    know, left = knowledge("# mines: 2\n1...\n....")
    unknown = [j for j, v in enumerate(know.cells) if v == COVERED]
    arr = arrangements(know, unknown, left, 1000)
    # one mine among the 1's three neighbours, the other anywhere among the 4 cells it does not touch
    assert len(arr) == 3 * 4 and len(set(arr)) == 12
    assert arrangements(know, unknown, left, 5) is None


def test_search_on_real_endgames_is_bounded_by_survival_and_drives_the_move():
    checked = 0
    for board in sample_positions(BenchOptions(find_level("6x6/7"), FirstClickRule.SAFE, 30, 3)):
        know = Knowledge.from_board(board)
        if know.safe_cells() or checked >= 5:
            continue
        choice = search(know, board.mines - know.known_mines())
        if choice is None:
            continue
        p = mine_probabilities(board)[divmod(choice.cell, board.cols)]
        assert 0.0 < choice.win <= 1.0 - p + 1e-12  # a guess can win no more often than it survives
        checked += 1
        move = choose_move(board)
        if move.reason.startswith("endgame"):
            assert move.cell == divmod(choice.cell, board.cols)
            assert f"P(win)={choice.win:.3f}" in move.reason
    assert checked == 5


def test_a_tree_kept_across_moves_decides_as_a_fresh_search(monkeypatch):
    from bot.bench import play_game
    from bot.solver import endgame, policy

    results = []
    reused = []

    def both(know, mines_left, **kwargs):
        before = list(endgame._LAST)
        kept = endgame.search(know, mines_left, **kwargs)
        tree = list(endgame._LAST)
        reused.append(bool(before) and tree[0] is before[0])
        endgame._LAST.clear()
        fresh = endgame.search(know, mines_left, **kwargs)
        endgame._LAST[:] = tree
        results.append((kept, fresh))
        return kept

    monkeypatch.setattr(policy, "search", both)
    options = BenchOptions(find_level("8x8/12"), FirstClickRule.SAFE, 40, 11)
    for i in range(40):
        play_game(options, i)
    for kept, fresh in results:
        assert (kept is None) == (fresh is None)
        if kept is not None:
            assert (kept.cell, kept.arrangements) == (fresh.cell, fresh.arrangements)
            assert kept.win == pytest.approx(fresh.win, abs=1e-12)
    assert len(results) >= 10 and sum(reused) >= 3


def test_a_search_past_its_node_budget_gives_way_to_the_guess_policy():
    import dataclasses

    from bot.solver import endgame, find_policy

    tight = dataclasses.replace(find_policy("best"), endgame_nodes=0)
    for board in sample_positions(BenchOptions(find_level("6x6/7"), FirstClickRule.SAFE, 30, 3)):
        endgame._LAST.clear()
        move = choose_move(board)
        if not move.reason.startswith("endgame"):
            continue
        endgame._LAST.clear()
        know = Knowledge.from_board(board)
        if search(know, board.mines - know.known_mines(), node_budget=0) is not None:
            continue  # solved without a search node (every value ends the game)
        endgame._LAST.clear()
        assert not choose_move(board, policy=tight).reason.startswith("endgame")
        return
    pytest.fail("no sampled position needed an endgame search node")
