"""Readings no game shows are refused, whatever reader gave them."""

from __future__ import annotations

import numpy as np

from bot.board import Cell
from bot.vision.naming import no_game_shows


def test_a_board_whose_every_cell_is_a_flag_or_a_mine_is_no_game():
    """KMines' green theme draws its covered tiles as grass, each a little textured: half a pixel off its
    grid the grass tile itself was taken for a glyph, no plain tile was left, and the flag fallback read
    every cell, the six opened signposts too, as a flag (the player caught it: 'read as F where no
    click could have flagged it'). A board with no cell free of a flag or a mine is no game's."""
    flags = np.full((16, 30), int(Cell.FLAG))
    assert no_game_shows(flags) is not None
    flags[0, :4] = int(Cell.MINE), int(Cell.EXPLODED), int(Cell.WRONG_FLAG), int(Cell.FLAG)
    assert no_game_shows(flags) is not None
    flags[5, 5] = int(Cell.COVERED)  # one cell free of a mark: a game may show it
    assert no_game_shows(flags) is None
