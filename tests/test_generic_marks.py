"""Flags drawn like mines (a filled mark), on generated looks (development seeds only).

A client may draw its flag as a filled mark as symmetric as a mine (the generator's ``filled`` flag, a
diamond or a dotted square). Before these tests the skinless reader
took such flags for shown mines: a lone one on a mid-game board for the mine that went off, flags on a
lost board for more of its mines, a won board's every flag for a mine. A flag sits on a covered tile as
it was; a shown mine on an opened one, the one that went off on a ground of its own.
"""

from __future__ import annotations

import pytest

from bot.board import Cell
from bot.errors import RecognitionError
from bot.looks import DEV_SEEDS, generate
from bot.vision.generic import read_cells


def _read(seed: int):
    """The generated sample of a development seed and its skinless reading at the true grid (None:
    refused)."""
    assert seed in DEV_SEEDS
    sample = generate(seed)
    try:
        return sample, read_cells(sample.image, sample.geometry).board(sample.truth.mines)
    except RecognitionError:
        return sample, None


@pytest.mark.parametrize(
    "seed",
    [
        174,  # mid game: one filled flag on the covered kind was read as the mine that went off
        285,  # the same, where a wrong flag (no lost game shows one without mines) was left open
        118,  # lost: filled flags on dithered covered tiles, the shown mines on revealed tiles
        38,  # lost: filled flags on covered tiles, shown mines drawn as dots on squares of their own
        197,  # lost: one filled flag on a raised tile while the shown mines sit on revealed tiles
    ],
)
def test_a_flag_drawn_like_a_mine_is_a_flag(seed: int) -> None:
    sample, board = _read(seed)
    assert board is not None, "refused"
    assert (board.cells == sample.truth.cells).all(), board.to_text()
    assert (sample.truth.cells == Cell.FLAG).any()


@pytest.mark.parametrize(
    "seed",
    [
        35,  # won: every flag a filled mark on a tile a few levels from the revealed one
        186,  # won: the same on flat tiles, the revealed empties were read as covered
        276,  # won, checkerboard tiles (four groups of flags, one a single cell, once read as mines)
    ],
)
def test_a_won_board_s_filled_flags_none_gone_off_are_flags(seed: int) -> None:
    """A won board's filled flags are mines as well as flags to its counts, and no covered tile is shown
    to tell the flag's tile from an opened one; but a lost game shows the mine that went off apart from
    the others, and these are one look on one ground: flags (:mod:`bot.vision.won`). Refused before
    session 21; never read as mines."""
    sample, board = _read(seed)
    assert board is not None, "refused"
    assert (board.cells == sample.truth.cells).all(), board.to_text()


@pytest.mark.parametrize(
    "seed",
    [
        207,  # mid game: a second glyph look (low-contrast digits grouped as one) taken as flags too
    ],
)
def test_a_mark_no_count_tells_from_a_mine_is_refused(seed: int) -> None:
    """A second glyph look taken as flags, which no count tells from a mine: refused, never misread."""
    sample, board = _read(seed)
    assert board is None, board.to_text()


@pytest.mark.parametrize(
    "seed",
    [
        432,  # lost: an emoji-like flag crossed out, the cross missed (refused, or read as a flag)
        322,  # lost: filled flags read as mines before
    ],
)
def test_a_lost_board_s_flag_its_numbers_do_not_count_is_a_wrong_flag(seed: int) -> None:
    """A client that shows its mines when the game is lost shows them all: a glyph taken for a flag
    that its numbers do not count as a mine is a wrong flag, whatever its cross looks like."""
    sample, board = _read(seed)
    assert board is not None, "refused"
    assert (board.cells == sample.truth.cells).all(), board.to_text()
    assert (sample.truth.cells == Cell.WRONG_FLAG).any()


def test_wrong_flags_too_small_to_see_crossed_are_refused_not_read_as_flags() -> None:
    """Development seed 314: 16 px cells, a pennant crossed out that no shape test sees as crossed (read
    as a flag by the first version of this change); four looks of flags are more than the counts may
    tell apart: refused."""
    _, board = _read(314)
    assert board is None, board.to_text()


@pytest.mark.parametrize(
    "seed",
    [
        18,  # lost: one-colour emoji flags on flat rounded tiles, a low-contrast checkerboard revealed
        143,  # mid game: flat tiles, low contrast, 64-colour GIF
        159,  # lost: rounded tiles with gaps, low contrast, a wrong flag on the covered kind as well
        177,  # lost: flat tiles with gaps, dark theme
        201,  # mid game: rounded tiles with lines, light theme
        33,  # mid game: triangles on rounded tiles, low contrast, shadows on the revealed tiles
        251,  # mid game: triangles on flat tiles, low contrast, fractional pitch
    ],
)
def test_a_mark_no_digit_fits_on_a_flat_covered_kind_is_a_flag(seed: int) -> None:
    """A glyph that is no digit (a mark), framed as the flat kind it sits on, where that kind is taken as
    covered, is a flag, whatever its colours: a covered tile shows nothing else. It was named only on a
    raised or dithered tile, in two colours, or as the kind's one glyph framed apart from the others, so
    one-colour flags on flat covered tiles a few levels from the revealed ones were refused ("no digit")."""
    sample, board = _read(seed)
    assert board is not None, "refused"
    assert (board.cells == sample.truth.cells).all(), board.to_text()
