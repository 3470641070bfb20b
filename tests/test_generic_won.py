"""A won board read by its flags (:mod:`bot.vision.won`).

A client that flags every mine when a game is won leaves no covered tile in plain sight. On flat and
low-contrast looks its flags sit on tiles the reader cannot tell from revealed ones, so they were read
as shown mines none of which went off, and the board was refused. A lost game shows the mine that went
off apart from the others; one look of flags on one ground, every number equal to the flags around it,
is a won board.
"""

from __future__ import annotations

import numpy as np
import pytest

from bot.board import Cell
from bot.errors import RecognitionError
from bot.looks import DEV_SEEDS, generate
from bot.vision.cutting import Group, Shape
from bot.vision.generic import read_cells
from bot.vision.won import won_reading

WON = (19, 35, 128)
"""Development seeds, all won boards: triangles on flat tiles 4 levels from the revealed checker (19),
filled diamonds on flat tiles drawn as the revealed ones with 7-segment digits (35), filled diamonds on
round tiles with digits on grounds of their own (128). Each was refused before."""


@pytest.mark.parametrize("seed", WON)
def test_won_boards_whose_flags_sit_on_tiles_like_revealed_ones_read_exactly(seed: int) -> None:
    assert seed in DEV_SEEDS
    sample = generate(seed)
    assert sample.state == "won"
    reading = read_cells(sample.image, sample.geometry)
    assert (reading.states == sample.truth.cells).all()


def _group(members: list[int], shape: Shape, digit: int = 0, ink: float = 40.0) -> Group:
    tile = np.full((32, 32, 3), 180.0, np.float32)
    tile[12:20, 12:20] = ink
    group = Group(np.array(members), tile, shape=shape, digit=digit, kind=0, base=0)
    if shape != Shape.PLAIN:
        group.costs = np.full(8, 0.4, np.float32)
        group.costs[digit - 1] = 0.1
        group.raw_costs, group.weighted = group.costs.copy(), np.stack([group.costs, group.costs])
        group.ink = np.full(3, ink, np.float32)
    return group


def test_a_mine_drawn_apart_is_no_won_board() -> None:
    """``1F`` over ``1X``-like cells: a mine drawn otherwise than the flag (the one that went off) is no
    digit and no flag, so the board is not read as won, whatever its counts."""
    groups = [
        _group([0, 2], Shape.DIGIT, 1),
        _group([1], Shape.MARK, 7, ink=200.0),
        _group([3], Shape.MINE, 4, ink=20.0),
    ]
    groups[0].base = None
    assert won_reading(groups, 2, 2) is None


def test_a_number_unlike_its_flags_is_no_won_board() -> None:
    """A glyph taken as the flags' look where a number counts fewer flags than it shows: not won."""
    groups = [_group([0], Shape.PLAIN), _group([1, 2], Shape.MARK, 7), _group([3], Shape.DIGIT, 3)]
    assert won_reading(groups, 2, 2) is None


def test_a_refused_won_board_is_still_refused_when_a_covered_tile_shows() -> None:
    """Seed 35's mid-game frame (covered tiles shown) is never read as won."""
    sample = generate(35, "mid")
    try:
        reading = read_cells(sample.image, sample.geometry)
    except RecognitionError:
        return
    assert (reading.states == sample.truth.cells).all()
    assert Cell.COVERED in reading.states
