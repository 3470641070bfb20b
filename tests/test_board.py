"""The board model and its text format."""

import numpy as np
import pytest

from bot.board import Board, Cell, neighbour_table, neighbours
from bot.errors import BoardFormatError, MinebotError

TEXT = "1F.\n*XW\n08."


def test_round_trip_every_state():
    board = Board.from_text(TEXT, mines=3)
    assert board.to_text() == TEXT
    assert str(board) == TEXT
    assert Board.from_text(board.to_text(with_mines=True)) == board
    assert eval(repr(board), {"Board": Board}) == board
    assert [board[0, 0], board[0, 1], board[0, 2]] == [Cell.ONE, Cell.FLAG, Cell.COVERED]
    assert [board[1, 0], board[1, 1], board[1, 2]] == [Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG]


def test_comments_and_mines_header():
    board = Board.from_text("# a test\n# mines: 2\n\n..\n..\n")
    assert board.mines == 2 and board.shape == (2, 2)
    assert Board.from_text("# mines: 2\n..", mines=1).mines == 1


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [("..\n.?", 2, 2), ("...\n..", 2, 2), ("# c\n.9", 2, 2), ("a", 1, 1)],
)
def test_malformed_text_names_line_and_column(text, line, column):
    with pytest.raises(BoardFormatError) as info:
        Board.from_text(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert f"line {line}, column {column}" in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, MinebotError)


def test_empty_and_impossible_boards_are_rejected():
    with pytest.raises(BoardFormatError):
        Board.from_text("# only a comment\n")
    with pytest.raises(BoardFormatError):
        Board.from_text("..", mines=3)


def test_masks_and_cells():
    board = Board.from_text("1F\n.0")
    assert board.covered() == [(1, 0)]
    assert board.flagged() == [(0, 1)]
    assert board.revealed_mask().tolist() == [[True, False], [False, True]]


def test_neighbours():
    assert sorted(neighbours(3, 3, (0, 0))) == [(0, 1), (1, 0), (1, 1)]
    assert len(neighbours(3, 3, (1, 1))) == 8
    table = neighbour_table(16, 30)
    assert len(table) == 480 and all(3 <= len(n) <= 8 for n in table)


def test_won_lost_fresh():
    assert Board.new(2, 2, 1).is_fresh()
    assert Board.from_text("1F\n11", mines=1).is_won()
    assert not Board.from_text("1.\n11", mines=2).is_won()
    assert Board.from_text("1X\n11", mines=1).is_lost()
    assert not Board(np.array([[0]])).is_won()  # unknown mine count
