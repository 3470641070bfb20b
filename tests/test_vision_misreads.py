"""Misreads the sweeps found, each kept as a case that must now be refused or read exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

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


def _read_off_grid(look, board, dx: float, dy: float):
    """``board`` drawn in ``look`` and read with no skin at its grid moved by ``(dx, dy)`` px: the
    states read, or None when refused."""
    from dataclasses import replace

    import styles

    from bot.vision.generic import GenericModel, read_cells

    image, truth = styles.screenshot(board, look)
    try:
        return read_cells(
            image, replace(truth, left=truth.left + dx, top=truth.top + dy), GenericModel()
        ).states
    except RecognitionError:
        return None


def test_revealed_zeros_are_not_read_covered_beside_covered_tiles_drawn_otherwise():
    """Small tiles told apart by shading alone (``styles`` glossy: covered shaded top to bottom, revealed
    flat, one grey): read half a pixel off the grid, one glyph could be named only with every plain
    cell covered, and the logic allowed it, so the revealed 0s read as covered. A board draws its
    covered tiles one way: a flat kind and a glossy one are not both covered. Refused or exact."""

    import styles

    look = styles.EXTRA_LOOKS["glossy"]
    for seed in (1, 3, 5):
        board = styles.mid_game(16, 30, 99, seed=seed, opened=0.15, flags=0)
        read = _read_off_grid(look, board, -0.5, -0.5)
        assert read is None or np.array_equal(read, board.cells), (seed, np.argwhere(read != board.cells)[:4])


def test_a_bold_digit_half_a_pixel_off_is_not_taken_for_a_mine_when_the_counts_allow_either():
    """The made-up mono look's lost board (seed 21), read half a pixel off its grid: its bold 4s filled
    in round, their blurred edge taken for a second ink colour, and, round and symmetric, they were
    named mines though they fit a 4 closely (0.06); the lost board's counts allowed it. A clear digit
    shape now leaves such a mine to the counts. Exact or refused."""
    import styles

    look = styles.LOOKS["mono"]
    board = styles.fit_board(styles.mid_game(16, 30, 99, 21, opened=0.45, lost=True), look)
    read = _read_off_grid(look, board, 0.5, -0.5)
    assert read is None or np.array_equal(read, board.cells), np.argwhere(read != board.cells)[:4]


def test_a_won_boards_flags_drawn_round_are_not_read_as_mines():
    """winemine's won 9x9 board, scaled 1.5x as a display scale does (nearest pixel): no covered cell is left,
    so each flag's ink is cut from its raised tile with no covered tile to compare, and came out round
    and symmetric, a mine: the board read as showing 10 mines. No mine stands apart as the one that
    went off and none lies off a covered tile, so no game shown is lost: they are flags (or wrong
    flags, which the counts refute). Read exactly."""
    import cv2

    from bot.board import Board

    png = Path(__file__).parent / "data" / "real" / "winemine" / "beginner_won.png"
    truth = Board.from_text(
        "\n".join(line for line in png.with_suffix(".txt").read_text().splitlines() if line[:1] != "#")
    )
    image = cv2.resize(cv2.imread(str(png)), None, fx=1.5, fy=1.5, interpolation=cv2.INTER_NEAREST)
    read = read_screen(image, "generic", mines=10).board
    assert np.array_equal(read.cells, truth.cells), read.to_text()


@pytest.mark.parametrize("client", ["winemine", "xdemineur"])
def test_real_captures_at_one_and_a_half_times_are_never_misread(client):
    """Every capture of the two template-skinned clients, scaled 1.5x to the nearest pixel (a display
    scale no skin is drawn at): read with no skin, each is exact or refused, never misread."""
    import cv2

    from bot.board import Board

    for png in sorted((Path(__file__).parent / "data" / "real" / client).glob("*.png")):
        lines = png.with_suffix(".txt").read_text().splitlines()
        truth = Board.from_text("\n".join(line for line in lines if line[:1] != "#"))
        image = cv2.resize(cv2.imread(str(png)), None, fx=1.5, fy=1.5, interpolation=cv2.INTER_NEAREST)
        try:
            read = read_screen(
                image, "generic", mines=int(next(ln for ln in lines if "mines:" in ln).split()[-1])
            )
        except RecognitionError:
            continue
        assert np.array_equal(read.board.cells, truth.cells), (png.name, read.board.to_text())
