"""The game simulator: levels, first-click rules, flood fill, flags, chords, win and loss."""

import numpy as np
import pytest

from bot.board import Cell
from bot.game import LEVELS, FirstClickRule, Game, GameStatus, find_level, find_rule


def layout(text: str) -> np.ndarray:
    return np.array([[ch == "*" for ch in row] for row in text.split()])


def test_levels_and_custom():
    assert (LEVELS["expert"].rows, LEVELS["expert"].cols, LEVELS["expert"].mines) == (16, 30, 99)
    assert find_level("Beginner").mines == 10
    custom = find_level("20x24/120")
    assert (custom.rows, custom.cols, custom.mines) == (20, 24, 120)
    for bad in ("huge", "3x3/9", "0x5/1"):
        with pytest.raises(ValueError):
            find_level(bad)
    with pytest.raises(ValueError, match="unknown first-click rule"):
        find_rule("lucky")


def test_same_seed_same_board():
    a, b = Game.new("expert", seed=42), Game.new("expert", seed=42)
    a.open((5, 5))
    b.open((5, 5))
    assert np.array_equal(a.layout, b.layout)
    c = Game.new("expert", seed=43)
    c.open((5, 5))
    assert not np.array_equal(a.layout, c.layout)


def test_flood_fill_opens_zero_region_and_its_border():
    game = Game(3, 4, 1, layout=layout("...* .... ...."))
    opened = game.open((2, 0))
    assert game.board.to_text() == "001F\n0011\n0000"
    assert len(opened) == 11
    assert game.status is GameStatus.WON  # every safe cell is open
    assert game.board[0, 3] == Cell.FLAG  # a win shows the mines flagged


def test_flood_fill_has_no_recursion_limit():
    """One opening of 10,000 cells, ten times Python's default recursion limit (1,000)."""
    game = Game(100, 100, 1, layout=np.pad(np.ones((1, 1), bool), ((0, 99), (0, 99))))
    game.open((99, 99))
    assert game.status is GameStatus.WON


def test_loss_shows_mines_exploded_and_wrong_flags():
    game = Game(2, 3, 2, layout=layout("*.* ..."))
    game.open((1, 1))
    game.flag((1, 0))
    game.open((0, 0))
    assert game.status is GameStatus.LOST
    assert game.board.to_text() == "X.*\nW2."
    game.open((1, 2))  # nothing happens after the end
    assert game.board[1, 2] == Cell.COVERED


def test_flag_toggles_and_blocks_open():
    game = Game(2, 2, 1, layout=layout("*. .."))
    game.flag((0, 1))
    assert game.board[0, 1] == Cell.FLAG
    assert game.open((0, 1)) == []
    game.flag((0, 1))
    assert game.board[0, 1] == Cell.COVERED


def test_chord_opens_unflagged_neighbours_only_when_flags_match():
    game = Game(3, 3, 1, layout=layout("*.. ... ..."))
    game.open((1, 1))
    assert game.chord((1, 1)) == []  # no flags yet
    game.flag((0, 0))
    opened = game.chord((1, 1))
    assert set(opened) >= {(0, 1), (1, 0)}
    assert game.status is GameStatus.WON


def test_chord_with_a_wrong_flag_loses():
    game = Game(3, 3, 1, layout=layout("*.. ... ..."))
    game.open((1, 1))
    game.flag((0, 1))
    game.chord((1, 1))
    assert game.status is GameStatus.LOST
    assert game.board[0, 0] == Cell.EXPLODED and game.board[0, 1] == Cell.WRONG_FLAG


@pytest.mark.parametrize("cell", [(0, 0), (3, 3), (15, 29)])
def test_safe_rule_spares_only_the_clicked_cell(cell):
    near_hits = 0
    for seed in range(300):
        game = Game.new("expert", rule="safe", seed=seed)
        game.open(cell)
        assert not game.layout[cell] and game.layout.sum() == 99
        r, c = cell
        near_hits += int(game.layout[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2].sum())
    assert near_hits > 0  # neighbours are not protected


def test_zero_rule_always_opens_an_area():
    for seed in range(300):
        game = Game.new("expert", rule="zero", seed=seed)
        game.open((3, 3))
        assert game.board[3, 3] == Cell.ZERO
        assert len(game.board.covered()) <= 480 - 9


def test_safe_rule_distribution_is_uniform_over_other_cells():
    counts = np.zeros((9, 9))
    for seed in range(4000):
        game = Game.new("beginner", rule="safe", seed=seed)
        game.open((0, 0))
        counts += game.layout
    expected = 4000 * 10 / 80
    assert counts[0, 0] == 0
    others = np.delete(counts.ravel(), 0)
    assert abs(others.mean() - expected) < 1e-9
    assert np.all(np.abs(others - expected) < 5 * np.sqrt(expected))  # 5 sigma


def test_winxp_moves_a_mine_from_the_first_click_to_the_top_left():
    moved = 0
    for seed in range(400):
        before = Game.new("beginner", rule="winxp", seed=seed)
        original = before.layout
        before.open((4, 4))
        after = before.layout
        assert after.sum() == 10 and not after[4, 4]
        if original[4, 4]:
            moved += 1
            free_top = next(c for c in range(9) if not original[0, c])
            assert after[0, free_top] and not original[0, free_top]
        else:
            assert np.array_equal(original, after)
    assert moved > 10  # ~10/81 of 400 games


def test_none_rule_can_lose_on_the_first_click():
    results = set()
    for seed in range(200):
        game = Game.new("beginner", rule=FirstClickRule.NONE, seed=seed)
        game.open((4, 4))
        results.add(game.status)
    assert GameStatus.LOST in results and GameStatus.PLAYING in results


def test_open_random_zero_starts_like_xdemineur():
    starts = set()
    for seed in range(200):
        game = Game.new("expert", rule="none", seed=seed)
        cell = game.open_random_zero()
        assert cell is not None and game.board[cell] == Cell.ZERO and not game.layout[cell]
        assert game.status is GameStatus.PLAYING and game.moves == 1
        starts.add(cell)
        with pytest.raises(ValueError):
            game.open_random_zero()
    assert len(starts) > 150  # spread over the board, not one fixed place
    crowded = Game(2, 2, 3, rule="none", seed=1)
    assert crowded.open_random_zero() is None
