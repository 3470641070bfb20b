"""Readings a whole class of cells would be named wrong in are refused (development seeds of bot.looks).

Each case is a development seed read at the grid the reader once found for it, where a reading was given
with cells (or the whole board's place) wrong: a board found a column short of the image's edge or
inside a larger one, a clear 1 on an edge cell read as a flag, a won board's flags on a tile of their
own taken as sitting on the revealed 0s, 1s under a neighbour's shadow that the counts named 3s.
"""

from __future__ import annotations

import numpy as np
import pytest

from bot.errors import RecognitionError
from bot.geometry import Geometry
from bot.looks import DEV_SEEDS, generate
from bot.vision.cutting import Group
from bot.vision.generic import read_cells


def _read_or_refusal(seed: int, geometry: Geometry) -> tuple[np.ndarray | None, str]:
    """The states read at ``geometry`` on development seed ``seed``'s screenshot, or the refusal."""
    assert seed in DEV_SEEDS
    sample = generate(seed)
    try:
        return read_cells(sample.image, geometry).states, ""
    except RecognitionError as error:
        return None, str(error)


@pytest.mark.parametrize(
    ("seed", "geometry"),
    [
        # a fresh dithered board from the image's left edge, found 9 px off and a column short: the strip
        # left of it runs past the image, but most of it shows, drawn like the edge cells' same part
        (60, Geometry(53.0, 110.0, 62.0, 62.0, 11, 23)),
        # a 5x5 corner of an 8x8 low-contrast board: the cells past its left and bottom edges show 0s,
        # 1s, 2s and covered tiles a fractional pitch off (near the board's looks, not alike to them)
        (64, Geometry(187.2136, 83.2498, 26.3623, 26.5, 5, 5)),
    ],
)
def test_a_board_whose_grid_goes_on_past_its_edge_is_refused(seed: int, geometry: Geometry) -> None:
    states, why = _read_or_refusal(seed, geometry)
    assert states is None and "the board is cut" in why


def test_a_margin_beside_the_board_is_not_the_grid_going_on() -> None:
    """Dev seed 96: the classic window's grey header above the board is near one flat look of the board
    (a few levels), but in one look only and its cells near each other: the board is not cut."""
    sample = generate(96)
    states, why = _read_or_refusal(96, Geometry(23.9052, 250.2707, 47.4485, 47.4977, 13, 10))
    assert states is not None, why
    assert (states == sample.truth.cells).all()


def test_an_edge_cell_drawn_as_the_boards_one_is_a_one_not_a_flag() -> None:
    """Dev seed 77 (a lost board, digits on grounds of their own): the grid placed 2 px left takes in the
    window past the board, so the 1 on the left edge looks raised; drawn as the board's other 1s are, it
    is an opened 1, not a wrong flag."""
    sample = generate(77)
    states, why = _read_or_refusal(77, Geometry(198.0, 275.01, 36.0, 36.0, 9, 9))
    assert states is not None, why
    assert (states == sample.truth.cells).all()


def test_flags_on_a_tile_of_their_own_leave_the_revealed_zeros_unnamed() -> None:
    """Dev seed 128 (a won board, low contrast): its flags (a diamond on a rounded tile lighter than any
    revealed cell) were framed like the revealed 0s, so those were all read as covered. A glyph whose
    ground matches no cell of the kind it is framed like is on a tile of its own: not misread; since
    session 21 read exactly as a won board (one look of flags on one ground, none gone off,
    :mod:`bot.vision.won`), refused before."""
    states, why = _read_or_refusal(128, Geometry(69.9939, 87.9713, 24.0, 24.0, 9, 9))
    assert states is not None, why
    assert (states == generate(128).truth.cells).all()


@pytest.mark.parametrize("place", [(11.99, 133.7314), (11.49, 134.2314)])
def test_shadowed_ones_are_never_named_threes(place: tuple[float, float]) -> None:
    """Dev seed 2: 1s under the shadow their covered neighbours cast along their top and left were named 3
    by the counts; read exactly (main's shadowed ground) or refused (the board's own font), never 3s."""
    sample = generate(2)
    states, why = _read_or_refusal(2, Geometry(*place, 22.0, 22.0, 16, 16))
    assert states is None or (states == sample.truth.cells).all(), why


def _glyph(costs: list[float]) -> Group:
    """A glyph group with these shape distances to digits 1-8, in one ink, whole."""
    group = Group(np.array([0]), np.zeros((32, 32, 3), np.float32))
    group.costs = np.array(costs)
    group.ink = np.array([120.0, 100.0, 120.0])
    group.glyph = object()  # type: ignore[assignment]  # compared only through shape_distance, replaced
    return group


def test_a_digit_the_counts_name_drawn_unlike_the_boards_clear_one_is_refused(monkeypatch) -> None:
    """The board's clear 3 (its best digit, at 0.12) and a glyph nearest a 4 (0.24) that the counts named
    3 (0.28): lying farther from the clear 3 (0.34) than from the 4, it is refused; drawn near it (0.15),
    it is a 3 of the board's own font."""
    import bot.vision.ownfont as ownfont

    clear = _glyph([0.30, 0.24, 0.12, 0.30, 0.23, 0.34, 0.25, 0.30])
    weak = _glyph([0.28, 0.32, 0.28, 0.24, 0.36, 0.45, 0.32, 0.46])
    monkeypatch.setattr(ownfont, "shape_distance", lambda a, b: 0.34)
    assert ownfont.unlike_own_font([clear, weak], [3, 3]) == 1
    assert ownfont.unlike_own_font([clear, weak], [3, 4]) is None  # named its own best: not weak
    monkeypatch.setattr(ownfont, "shape_distance", lambda a, b: 0.15)
    assert ownfont.unlike_own_font([clear, weak], [3, 3]) is None


def test_a_won_boards_flags_in_two_renderings_are_not_a_lost_boards_mines() -> None:
    """Dev seed 276 (a won board, every mine flagged with a filled diamond on a square of its own, gamma
    and JPEG damage): the diamonds fall in several groups, one of a single cell, whose grounds differ by
    a few levels only. Taken as shown mines with that single one the mine that went off, the board read
    as lost and all 40 flags as mines; grounds within ``naming.OWN_GROUND_STEP`` are one ground, so no
    mine went off, and a filled mark with no mine gone off may be a flag: refused (or read exactly)."""
    from bot.vision.read import read_screen

    sample = generate(276)
    try:  # at the reader's own grid, as `dry-run` reads it (at the true one it refused before too)
        reading = read_screen(sample.image, "generic", mines=sample.truth.mines)
    except RecognitionError:
        return
    assert (reading.board.cells == sample.truth.cells).all()
