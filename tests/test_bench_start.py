"""``minebot bench --start random-zero``: games that begin the way xdemineur begins."""

import json

from bot.bench import BenchOptions, play_game
from bot.cli import main
from bot.game import FirstClickRule, find_level


def test_random_zero_start_opens_an_area_before_the_solver_moves():
    options = BenchOptions(find_level("expert"), FirstClickRule.NONE, games=1, seed=3, start="random-zero")
    boards = []
    play_game(options, 0, lambda move, board: boards.append(board))
    first_move_board = boards[0]
    assert (first_move_board.cells == 0).sum() >= 2  # an opened zero region was there before move 1


def test_cli_reports_the_start(capsys):
    args = ["bench", "--level", "beginner", "--rule", "none", "--start", "random-zero", "--games", "6"]
    assert main([*args, "--seed", "2", "--json", "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["start"] == "random-zero" and summary["games"] == 6
    assert main([*args, "--no-progress"]) == 0
    assert "a random zero region opened by the game" in capsys.readouterr().out
