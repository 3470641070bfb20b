"""Unavoidable guesses (bot.solver.fifty) and the guess-policy options that use them."""

import dataclasses
import itertools

import pytest

from bot.bench import BenchOptions, sample_positions
from bot.board import Board
from bot.game import FirstClickRule, find_level
from bot.solver import choose_move, find_policy
from bot.solver.endgame import arrangements, search
from bot.solver.engine import solve
from bot.solver.fifty import isolated_regions, unavoidable
from bot.solver.policy import _candidates, _isolated_pair, _lookahead
from bot.solver.rules import COVERED, FLAG, Knowledge

# (1,1) and (1,2) hold one mine; the flags close them off left and right, and the unknown cells
# below touch both, so no number there can ever tell them apart (not an *isolated* 50/50)
ENCLOSED = "# mines: 9\nF33F\nF..F\nF..F\n....\n...."
# the same, but (2,0) is covered: it touches (1,1) only, and its number would decide
OPEN_SIDE = "# mines: 8\nF33F\nF..F\n...F\n....\n...."


def _know(text: str) -> tuple[Board, Knowledge]:
    board = Board.from_text(text)
    return board, Knowledge.from_board(board)


def test_an_enclosed_pair_is_found_and_an_open_one_is_not():
    board, know = _know(ENCLOSED)
    assert unavoidable(know) == [5, 6]
    assert _isolated_pair(know) is None  # the old, narrower check misses it
    _, know = _know(OPEN_SIDE)
    assert unavoidable(know) is None


def test_no_arrangement_or_later_number_tells_an_unavoidable_guess_apart():
    """Brute force: swapping two of the cells keeps every arrangement consistent and every number equal."""
    checked = 0
    boards = [Board.from_text(ENCLOSED)]
    boards += sample_positions(BenchOptions(find_level("6x6/7"), FirstClickRule.SAFE, 30, 9))
    for board in boards:
        know = Knowledge.from_board(board)
        cells = unavoidable(know)
        if cells is None:
            continue
        if checked >= 4:
            break
        unknown = [j for j, v in enumerate(know.cells) if v == COVERED and j not in know.known]
        left = board.mines - know.known_mines()
        arr = arrangements(know, unknown, left, 100_000)
        assert arr
        index = {j: i for i, j in enumerate(unknown)}
        mines_known = {j for j, v in enumerate(know.cells) if v == FLAG} | {
            j for j, m in know.known.items() if m
        }
        consistent = set(arr)
        for mask, (a, b) in itertools.product(arr, itertools.combinations(cells, 2)):
            ia, ib = index[a], index[b]
            bit_a, bit_b = (mask >> ia) & 1, (mask >> ib) & 1
            swapped = mask & ~(1 << ia) & ~(1 << ib) | (bit_b << ia) | (bit_a << ib)
            assert swapped in consistent
            mines = mines_known | {j for j in unknown if (mask >> index[j]) & 1}
            mines_swapped = mines_known | {j for j in unknown if (swapped >> index[j]) & 1}
            for k in range(len(know.cells)):  # every cell not a mine, revealed now or later
                if k not in cells and k not in mines:
                    around = know.nbrs[k]
                    assert sum(n in mines for n in around) == sum(n in mines_swapped for n in around)
        probs = solve(know, board.mines)
        assert len({round(probs.prob[j], 12) for j in cells}) == 1
        checked += 1
    assert checked >= 2


def test_the_policy_takes_an_unavoidable_guess_unless_told_not_to():
    board = Board.from_text(ENCLOSED)
    move = choose_move(board)
    assert move.cell == (1, 1) and move.reason.startswith("unavoidable guess")
    policy = dataclasses.replace(find_policy("best"), name="plain", enclosed_guess=False)
    assert not choose_move(board, policy=policy).reason.startswith("unavoidable guess")


def test_dead_cells_are_counted_and_never_preferred_over_living_ones():
    policy = dataclasses.replace(find_policy("best"), name="dead", dead_last=True)
    seen_dead = 0
    for board in sample_positions(BenchOptions(find_level("8x8/12"), FirstClickRule.SAFE, 20, 4)):
        know = Knowledge.from_board(board)
        if know.safe_cells():
            continue
        probs = solve(know, board.mines)
        if not probs.exact or any(p == 0.0 for p in probs.prob.values()):
            continue
        values = {}
        for j in _candidates(know, probs, policy):
            found = _lookahead(know, probs, j, board.mines, False, 0.0, -1.0)
            assert found is not None and 1 <= found[1] <= 9
            values[j] = found[1]
        dead = {j for j, n in values.items() if n == 1}
        seen_dead += bool(dead)
        move = choose_move(board, policy=policy)
        if move.reason.startswith("secondary safety") and len(dead) < len(values):
            assert move.cell[0] * board.cols + move.cell[1] not in dead
    assert seen_dead >= 1


def test_isolated_regions_hold_a_fixed_count_and_search_like_the_whole_board():
    checked = same = 0
    for board in sample_positions(BenchOptions(find_level("6x6/7"), FirstClickRule.SAFE, 30, 9)):
        know = Knowledge.from_board(board)
        if know.safe_cells():
            continue
        regions = isolated_regions(know)
        unknown = [j for j, v in enumerate(know.cells) if v == COVERED and j not in know.known]
        left = board.mines - know.known_mines()
        arr = arrangements(know, unknown, left, 5_000) if regions else None
        if arr is None or (checked >= 8 and same):
            continue
        for cells, mines in regions:
            # every arrangement of the whole board puts exactly ``mines`` mines in the region ...
            bits = sum(1 << unknown.index(j) for j in cells)
            assert {(mask & bits).bit_count() for mask in arr} == {mines}
            # ... and no covered cell outside it that may be safe touches it
            outside = set(unknown) - set(cells)
            assert not any(k in outside for j in cells for k in know.nbrs[j])
            region = search(know, mines, region=cells)
            assert region is not None and 0.0 < region.win <= 1.0
            if set(cells) == set(unknown):  # the region is all that is left: the same search
                whole = search(know, left)
                assert whole is not None and region.win == pytest.approx(whole.win)
                same += 1
            checked += 1
    assert checked >= 5 and same >= 1
