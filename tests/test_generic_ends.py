"""Lost and won boards that had been read wrong with confidence are read right or refused (development
seeds of bot.looks): a won board's flag taken for the mine that went off, a lost board read with one mine
or flag more than it holds, a covered tile with a flag on it taken whole for a mine; faint digits of two
values grouped as one; and a block of covered cells read as a fresh board though the grid goes on."""

from __future__ import annotations

import numpy as np
import pytest

from bot.board import Cell
from bot.errors import RecognitionError
from bot.geometry import Geometry
from bot.looks import DEV_SEEDS, generate
from bot.vision.generic import read_cells
from bot.vision.naming import no_game_shows, won_before_lost
from bot.vision.read import read_screen


def _sample(seed: int):
    assert seed in DEV_SEEDS
    return generate(seed)


def test_a_lost_reading_with_every_safe_cell_open_is_no_game() -> None:
    """The click that loses a game leaves a safe cell unopened (covered, or under a wrong flag); a client
    that opens every cell at the end shows the unflagged mines as well."""
    won = np.array([[Cell.FLAG, Cell.ONE], [Cell.ONE, Cell.ONE]])
    assert no_game_shows(won) is None
    lost = won.copy()
    lost[0, 0] = Cell.EXPLODED
    assert won_before_lost(lost) is not None and no_game_shows(lost) is not None
    for other in (Cell.COVERED, Cell.WRONG_FLAG):
        board = np.array([[Cell.EXPLODED, Cell.TWO, Cell.FLAG], [Cell.ONE, Cell.TWO, other]])
        assert won_before_lost(board) is None
    opened = np.array([[Cell.EXPLODED, Cell.TWO, Cell.MINE], [Cell.ONE, Cell.TWO, Cell.ONE]])
    assert won_before_lost(opened) is None  # a client that opens every cell when the game is lost


def test_a_won_boards_corner_flag_is_not_the_mine_that_went_off() -> None:
    """Dev seed 343 (a won 24x30 board of 160 flags at a 10 px pitch in a classic window): the corner
    flag, framed unlike the others by the window's edge, was read as the mine that went off. A lost game
    with every safe cell open is no game's; read as the won board it is."""
    sample = _sample(343)
    reading = read_screen(sample.image, "auto", mines=sample.truth.mines)
    assert (reading.board.cells == sample.truth.cells).all()


def test_a_lost_reading_with_more_mines_and_flags_than_the_board_holds_is_refused() -> None:
    """Dev seed 545 (a lost board of 10 mines, dot mines on squares of their own, a filled flag and a
    crossed one): the dot mines were read as flags and the flag and the crossed flag as mines, 11 mines
    and flags shown. A lost game shows each mine once: the reading is refused."""
    sample = _sample(545)
    with pytest.raises(RecognitionError, match="11 mines and flags on a board of 10 mines"):
        read_screen(sample.image, "auto", mines=sample.truth.mines)


def test_a_covered_tile_seen_whole_against_the_gap_is_no_mine() -> None:
    """Dev seed 635 (a lost board, gradient covered tiles with gaps, triangle flags) read at the grid 3 px
    left of the drawn one (where the reader had read it): each flag's cell holds most of the dark gap,
    so its covered tile, taken against that, was one solid square as symmetric as a mine, and both flags
    were read as mines. A solid ink box in a plain kind's colour is that kind's tile, no mine."""
    sample = _sample(635)
    try:
        states = read_cells(sample.image, Geometry(29.187, 31.51, 16.0, 16.0, 8, 8)).states
    except RecognitionError:
        return
    assert (states == sample.truth.cells).all()


def test_faint_glyphs_of_two_digits_grouped_as_one_are_refused() -> None:
    """Dev seed 54 (a dither look in low contrast, a 5x7 pixel font in one faint ink, twice scaled): a 3
    differed from the board's 2s by less than the grouping's noise floor, was grouped with them and read
    as 2 with the group. Cells of one group must draw one glyph stroke for stroke."""
    sample = _sample(54)
    try:
        states = read_cells(sample.image, Geometry(49.8213, 49.8253, 40.0, 40.0, 8, 27)).states
    except RecognitionError as error:
        assert "draws otherwise by whole strokes" in str(error)
        return
    assert (states == sample.truth.cells).all()


def test_covered_tiles_past_the_edge_of_a_fresh_looking_block_say_the_board_goes_on() -> None:
    """Dev seed 659 (a 9x25 mid-game board, gradient covered tiles, the opened area the window's own flat
    colour with no lines): the grid finder found the 9x11 block of covered cells at its left, read as a
    fresh board (a misplaced board). Just past its right edge, two cells are covered tiles exactly in line
    with it: the grid goes on, the board is cut."""
    sample = _sample(659)
    geometry = Geometry(167.4013, 267.3931, 53.76797, 53.76545, 9, 11)
    with pytest.raises(RecognitionError, match="the board is cut"):
        read_cells(sample.image, geometry)


def test_a_fresh_board_found_at_twice_its_pitch_is_refused() -> None:
    """Dev seed 4115, fresh (rounded tiles on cells wider than tall, 14 x 11 px): the grid was found 22 px
    tall, two rows to a cell, and every cell, two covered tiles, was one look: read as a fresh board of
    8 rows where 16 are (a misplaced board). A cell whose halves are drawn alike holds two tiles; a
    fresh board at its own pitch still reads."""
    sample = generate(4115, "fresh")
    with pytest.raises(RecognitionError, match="pitch is twice the board's"):
        read_cells(sample.image, Geometry(10.49, 48.49, 14.0, 22.0, 8, 30))
    fresh = generate(2473, "fresh")
    assert (read_cells(fresh.image, fresh.geometry).states == fresh.truth.cells).all()
