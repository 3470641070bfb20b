"""A skinless reading of a lost game must show every mine the board holds, when the count is known.

GNOME Mines at 900x640 (its small digits) was read live as a lost game: a fresh board read 3 px off
its grid as 45 mines and 434 crossed flags, and four opened cells as two flags and an exploded mine.
Either shows fewer mines than the board's 99, which no lost game does. Read 1.5 px off its grid, the
same board came out as 446 flags: more flags than the board has mines is refused too. And live, small
digits came out as 474 zeros, 2 covered cells and 4 flags: fewer places for mines than mines.
"""

from __future__ import annotations

import numpy as np
import pytest

import bot.vision.read as read
from bot.board import Board, Cell
from bot.errors import RecognitionError
from bot.game import GameStatus
from bot.geometry import Geometry
from bot.vision.generic import _result
from bot.vision.read import flags_beyond_mines, generic_skin, mines_unshown, read_board, too_few_places

LOST_FEW = "XF..\nF...\n....\n...."
"""Two flags and the mine that went off, read on a board that holds more mines."""
LOST_ALL = "X*..\n*3..\n....\n...."
"""A lost board showing its three mines (one went off)."""


@pytest.mark.parametrize(
    ("text", "mines", "cell"),
    [
        ("....\n....", 3, None),  # no mine shown: not a lost board's reading
        ("X*\n..", 2, None),  # every mine shown
        ("XF\n*.", 3, None),  # a flag left on a mine counts as shown
        ("XFF\n...", 2, (0, 0)),  # more shown than held: a wrong flag named a flag (dev seed 545)
        ("XF\n..", 3, (0, 0)),  # fewer shown than the board holds
        ("F*\n.X", 4, (0, 1)),  # the first mine shown is named
    ],
)
def test_a_lost_board_shows_every_mine(text, mines, cell):
    found = mines_unshown(Board.from_text(text, mines=mines))
    assert (found and found[0]) == cell
    if found:
        assert f"of the {mines} mines" in found[1] or f"on a board of {mines} mines" in found[1]


def _reading_of(monkeypatch: pytest.MonkeyPatch, text: str) -> Geometry:
    """Make the skinless reader see ``text`` on a 4x4 grid (whatever the image), and return the grid."""
    board = Board.from_text(text)
    geometry = Geometry(0.0, 0.0, 16.0, 16.0, *board.shape)
    monkeypatch.setattr(
        read, "_generic_cells", lambda image, geo, skin: _result(geo, board.cells.ravel(), "t")
    )
    return geometry


def test_a_skinless_lost_reading_with_too_few_mines_is_refused_naming_a_mine(monkeypatch):
    geometry = _reading_of(monkeypatch, LOST_FEW)
    image = np.zeros((64, 64, 3), np.uint8)
    with pytest.raises(RecognitionError, match=r"cell \(0, 0\) shows 3 of the 10 mines") as refused:
        read_board(image, geometry, generic_skin(), mines=10)
    assert refused.value.cell == (0, 0)


def test_a_skinless_lost_reading_is_kept_when_it_shows_every_mine_or_the_count_is_unknown(monkeypatch):
    image = np.zeros((64, 64, 3), np.uint8)
    geometry = _reading_of(monkeypatch, LOST_ALL)
    reading = read_board(image, geometry, generic_skin(), mines=3)
    assert reading.status is GameStatus.LOST and reading.board[0, 1] is Cell.MINE
    geometry = _reading_of(monkeypatch, LOST_FEW)
    assert read_board(image, geometry, generic_skin(), mines=None).status is GameStatus.LOST


@pytest.mark.parametrize(
    ("text", "mines", "cell"),
    [
        ("FF..\n1...\n....\n....", 2, None),  # as many flags as mines
        ("FF..\nF...\n....\n....", 3, None),
        ("FF..\n.F..\n....\n....", 2, (0, 0)),  # one more: the first flag named
        ("XFFF\nF*..\n....\n....", 3, (0, 1)),  # a lost board too
    ],
)
def test_more_flags_than_mines_is_refused_naming_a_flag(monkeypatch, text, mines, cell):
    message = rf"flags on a board of {mines} mines"
    _refused_by_count(monkeypatch, flags_beyond_mines, text, mines, cell, message)


@pytest.mark.parametrize(
    ("text", "mines", "cell"),
    [
        ("..1.\n..F.\n....\n....", 14, None),  # 13 covered and a flag: room for 14
        ("0000\n0000\n0000\n000F", 1, None),  # won, the one mine flagged
        (".F10\n1110\n0000\n0000", 3, (0, 2)),  # room for 2 of 3: the first open cell named
        ("X*10\n2210\n0000\n0000", 2, None),  # lost, both mines shown
    ],
)
def test_fewer_places_for_mines_than_mines_is_refused(monkeypatch, text, mines, cell):
    _refused_by_count(monkeypatch, too_few_places, text, mines, cell, rf"holds {mines} mines but shows only")


def _refused_by_count(monkeypatch, rule, text: str, mines: int, cell, message: str) -> None:
    """``rule`` names ``cell`` (or nothing) on ``text`` holding ``mines``, and the skinless reading of it
    is refused there with ``message`` (or read)."""
    geometry = _reading_of(monkeypatch, text)
    image = np.zeros((64, 64, 3), np.uint8)
    found = rule(Board.from_text(text, mines=mines))
    assert (found and found[0]) == cell
    if cell is None:
        assert read_board(image, geometry, generic_skin(), mines=mines).board.mines == mines
        return
    with pytest.raises(RecognitionError, match=message) as refused:
        read_board(image, geometry, generic_skin(), mines=mines)
    assert refused.value.cell == cell


def _skinless_sees(monkeypatch: pytest.MonkeyPatch, text: str) -> Geometry:
    """Make the skinless reader itself (not the taught templates) read ``text`` on a 4x4 grid."""
    board = Board.from_text(text)
    monkeypatch.setattr(read, "read_cells", lambda image, geo, model: _result(geo, board.cells.ravel(), "t"))
    return Geometry(0.0, 0.0, 16.0, 16.0, *board.shape)


def test_a_refused_skinless_reading_teaches_the_templates_nothing(monkeypatch):
    """Taught looks read later frames at template speed, so a reading the board's checks refuse must not
    become one: GNOME Mines' opened 0 1 1 3, read as covered, flag, flag and the mine that went off and
    refused, had been taught all the same, and the next frame read those looks "surely"."""
    image = np.random.default_rng(5).integers(0, 256, (64, 64, 3), dtype=np.uint8)
    refused_skin, kept_skin = generic_skin(), generic_skin()
    geometry = _skinless_sees(monkeypatch, LOST_FEW)
    with pytest.raises(RecognitionError):
        read_board(image, geometry, refused_skin, mines=10)
    assert read.taught_skin(refused_skin).looks == {}
    geometry = _skinless_sees(monkeypatch, LOST_ALL)
    read_board(image, geometry, kept_skin, mines=3)
    assert read.taught_skin(kept_skin).looks  # an accepted reading still teaches
