"""Live frames of a real client (xbomb, saved by live_bench) judged by the player's pure parts."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.agent.ending import lost_by_opening_all
from bot.board import Board, Cell
from bot.errors import RecognitionError
from bot.vision import read_screen
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


def _known_and_refused(name: str):
    """A live xbomb frame the skinless reader refuses cold, the board the frame before it showed (the
    player's last trusted board, by the client's own account), the truth, and the grid the player
    reads at (located on the client's fresh board, as at a game's start)."""
    before, now = (cv2.imread(str(DATA / f"xbomb_{name}_{when}.png")) for when in ("before", "refused"))
    geometry = read_screen(cv2.imread(str(DATA / "xbomb_fresh.png")), "generic").geometry
    known, _ = read_xbomb(before, geometry, 99, set())
    truth, _ = read_xbomb(now, geometry, 99, set())
    return now, geometry, known, truth


@pytest.mark.parametrize("name", ["known", "shift"])
def test_a_live_frame_refused_cold_reads_with_the_board_the_game_showed_before(name):
    """xbomb live (two of the 30-game run's stops): a 3 that a newly opened neighbour's glyph ran into
    shows 4 by shape, which its neighbours cannot hold; the reader's memory predated the 3's opening,
    so the game stopped. With the player's last board as the prior (a revealed cell never changes)
    the frame reads exactly: at the grid (``known``), or half a pixel off it (``shift``, where the
    grid itself leaves another cell unnamed)."""
    from bot.vision.read import generic_skin, read_board, read_known

    image, geometry, known, truth = _known_and_refused(name)
    with pytest.raises(RecognitionError):
        read_board(image, geometry, generic_skin(), 99)
    reading = read_known(image, geometry, generic_skin(), 99, known)
    assert np.array_equal(reading.board.cells, truth.cells)


def test_the_board_known_before_never_names_a_cell_its_counts_rule_out():
    """The prior is a last resort the counts must accept: a board known before that shows the refused
    cell as another number (not this game's, or not that cell's) names nothing; the frame stays refused."""
    from bot.vision.read import generic_skin, read_known

    image, geometry, known, truth = _known_and_refused("known")
    wrong = known.cells.copy()
    cell = (1, 10)
    assert known[cell] == truth[cell] == Cell.THREE
    wrong[cell] = Cell.FIVE
    with pytest.raises(RecognitionError):
        read_known(image, geometry, generic_skin(), 99, Board(wrong, 99))


def test_a_shift_that_reads_a_known_number_otherwise_is_no_reading():
    """xbomb live, merged tree: refused at the grid, the frame read at two half-pixel shifts only, and
    there a black 4 the board showed before was a flag (a glyph on a ground of its own taken for a
    flag); every other shift refused, so the retry took it, and the player's check stopped the game
    ('read as F but was 4 before'). A revealed cell never changes: a shift reading a number the board
    showed otherwise is no reading. Refused (or exact)."""
    from bot.vision.read import generic_skin, read_known

    image = cv2.imread(str(DATA / "xbomb_four_read_as_flag.png"))
    geometry = read_screen(cv2.imread(str(DATA / "xbomb_fresh.png")), "generic").geometry
    truth, _ = read_xbomb(image, geometry, 99, set())
    assert truth[(10, 8)] == Cell.FOUR
    try:
        reading = read_known(image, geometry, generic_skin(), 99, truth)
    except RecognitionError:
        return
    assert np.array_equal(reading.board.cells, truth.cells), reading.board[(10, 8)]
