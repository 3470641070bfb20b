"""Misreads the sweeps found, each kept as a case that must now be refused or read exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from bot.board import Cell
from bot.errors import RecognitionError
from bot.vision import read_screen


def test_a_lone_crossed_mine_on_its_own_ground_is_not_named_a_digit():
    """The made-up gradient look's lost 12x20 board (seed 21): its one wrong flag, a red cross over a
    black mine on a ground no plain cell shows, fit a 2 only loosely (0.30, the 3 and 4 just past)
    and the counts allowed a 2: read through ``read_screen`` it was a 2. Not clearly a digit on no
    tile the board shows plain, it names nothing by shape: the frame is refused at that cell (or
    read exactly)."""
    import styles

    look = styles.LOOKS["gradient"]
    board = styles.fit_board(styles.mid_game(12, 20, 62, seed=21, opened=0.4, lost=True), look)
    assert board[(6, 4)] == Cell.WRONG_FLAG
    image, _ = styles.screenshot(board, look, scale=1.0)
    try:
        read = read_screen(image, "generic").board
    except RecognitionError as error:
        assert error.cell == (6, 4), error
        return
    assert np.array_equal(read.cells, board.cells), read.to_text()


def test_a_first_number_alone_among_covered_cells_is_not_taken_for_a_flag():
    """ace's first click showed a lone 1 on green, every other cell covered. At the grid the `win7`
    skin locates ace's covered board with (0.7 px off the skinless finder's), the 1 is a poor fit and
    no revealed plain cell shows its ground: refusing the digit there left the flag reading, and live
    games stopped on 'read as F where no click could have flagged it'. Read as 1 (or refused)."""
    import cv2

    from bot.geometry import Geometry
    from bot.vision.generic import read_cells

    image = cv2.imread(str(Path(__file__).parent / "data" / "generic" / "ace_first_number_alone.png"))
    try:
        states = read_cells(image, Geometry(2.1667, 2.5, 12.0, 12.0, 32, 32)).states
    except RecognitionError:
        return
    assert states[0, 0] == Cell.ONE
    assert (states.ravel()[1:] == Cell.COVERED).all()


def test_revealed_zeros_are_not_read_covered_beside_covered_tiles_drawn_otherwise():
    """Small tiles told apart by shading alone (``styles`` glossy: covered shaded top to bottom, revealed
    flat, one grey): read half a pixel off the grid, one glyph could be named only with every plain
    cell covered, and the logic allowed it, so the revealed 0s read as covered. A board draws its
    covered tiles one way: a flat kind and a glossy one are not both covered. Refused or exact."""
    from dataclasses import replace

    import styles

    from bot.vision.generic import GenericModel, read_cells

    look = styles.LOOKS["glossy"]
    for seed in (1, 3, 5):
        board = styles.mid_game(16, 30, 99, seed=seed, opened=0.15, flags=0)
        image, truth = styles.screenshot(board, look)
        off = replace(truth, left=truth.left - 0.5, top=truth.top - 0.5)
        try:
            read = read_cells(image, off, GenericModel()).states
        except RecognitionError:
            continue
        assert np.array_equal(read, board.cells), (seed, np.argwhere(read != board.cells)[:4])
