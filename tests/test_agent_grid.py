"""With no skin, the play loop reads at the grid the board's own structure shows.

A skin's templates place cells at whole pixels; the skinless reader finds the grid by the board's
structure, at a fraction of a pixel, and is made for and measured at that grid. Read most of a pixel off
it, a glyph's cut can fit another digit best (Windows 7 Minesweeper: a lone red 3 in a corner read as a
1 at the ``win7`` skin's whole-pixel match, 0.75 px off). So when the loop falls back to the skinless
reader it moves the located grid onto the structure's, when that is the same grid less than a pixel away.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.agent import Player, PlayOptions
from bot.mock import SimClient


@pytest.mark.parametrize(("dx", "dy"), [(0.6, -0.4), (-0.7, 0.7)])
def test_the_skinless_reader_reads_at_the_grid_the_structure_shows(dx: float, dy: float) -> None:
    client = SimClient("intermediate", seed=4, screen_size=(900, 700), rule="zero", scale=1.25)
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.locate()
    true = player.geometry
    g = player._image_geometry
    player._adopt(replace(g, left=g.left + dx, top=g.top + dy), player.capture.screen_region())
    assert abs(player.geometry.left - true.left - dx) < 1e-9
    assert player._to_structure(player._grab())
    assert abs(player.geometry.left - true.left) < 0.3 and abs(player.geometry.top - true.top) < 0.3
    assert not player._to_structure(player._grab())  # once a place


def test_a_grid_the_structure_puts_a_pixel_or_more_away_is_not_taken() -> None:
    client = SimClient("intermediate", seed=4, screen_size=(900, 700), rule="zero")
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.locate()
    g = player._image_geometry
    player._adopt(replace(g, left=g.left + 1.5), player.capture.screen_region())
    assert not player._to_structure(player._grab())
