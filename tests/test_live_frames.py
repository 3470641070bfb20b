"""Live frames of a real client (xbomb, saved by live_bench) judged by the player's pure parts."""

from pathlib import Path

import cv2
import numpy as np

from bot.agent.ending import lost_by_opening_all
from bot.board import Cell
from bot.vision.grid import find_grid
from bot.vision.taught import MAX_DISTANCE, cell_blocks, reduce_board
from harness.xbomb import read_xbomb

DATA = Path(__file__).parent / "data" / "live"


def test_xbomb_lost_board_redrawn_whole_is_judged_by_its_counts():
    """xbomb at a loss opens every cell and redraws the board whole: a revealed 0 far from any covered
    cell loses the foot of a neighbour's 1 that had run into it. That is the cell drawn as its number
    is, not something over the board: every covered cell's guess on a mine is a loss (the mine that
    went off is drawn like the others), the two safe covered cells' are not (before: none was)."""
    before, after = (
        cv2.imread(str(DATA / "xbomb_before_guess.png")),
        cv2.imread(str(DATA / "xbomb_lost_opened_all.png")),
    )
    geometry = find_grid(before).geometry
    board, status = read_xbomb(before, geometry, 99, set())
    assert status == "playing"
    shape = (geometry.rows, geometry.cols)
    then, now = reduce_board(before, geometry), reduce_board(after, geometry)
    assert then is not None and now is not None
    blocks = cell_blocks(then.board, *shape), cell_blocks(now.board, *shape)
    judged = {}
    for r, c in np.argwhere(board.cells == Cell.COVERED):
        judged[(int(r), int(c))] = lost_by_opening_all(board, (int(r), int(c)), *blocks, MAX_DISTANCE)
    lost = [cell for cell, found in judged.items() if found is not None]
    assert len(judged) == 101 and len(lost) == 99
    mines = {tuple(int(v) for v in cell) for cell in np.argwhere(judged[lost[0]].cells == Cell.MINE)}
    assert mines | {lost[0]} == set(lost)  # each guess judged gives the same 99 mines
    for cell in lost:
        assert judged[cell][cell] == Cell.EXPLODED and int((judged[cell].cells >= Cell.MINE).sum()) == 99
