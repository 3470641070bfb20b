"""A named skin's reading completed by the skinless reader (:func:`bot.vision.read._complete`): the
skinless reader reads with the model the skin's earlier frames taught it, and learns only from a
reading that is taken."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board, Cell
from bot.errors import RecognitionError
from bot.skin import Skin, find_skin
from bot.vision import read
from bot.vision.cases import skin_without
from bot.vision.read import generic_model, read_screen

REAL = Path(__file__).resolve().parent / "data" / "real"


def _completed_frame(tmp_path: Path) -> tuple[Skin, np.ndarray, Board]:
    """The winemine skin less the ONE state, and a real capture showing ones that it reads exactly
    only with the skinless reader's help."""
    skin = skin_without(find_skin("winemine"), Cell.ONE, tmp_path / "skin")
    for png in sorted((REAL / "winemine").glob("*.png")):
        truth = Board.from_text(png.with_suffix(".txt").read_text())
        if (truth.cells == Cell.ONE).any():
            return skin, cv2.imread(str(png)), truth
    pytest.skip("no winemine capture shows a 1")


def test_a_completed_reading_teaches_the_skins_skinless_model(tmp_path):
    """The skinless reading that names the cells the skin cannot is kept in the skin's own model (the
    last exact reading, the looks it named), so the next frame read with that skin remembers it."""
    skin, image, truth = _completed_frame(tmp_path)
    reading = read_screen(image, skin, truth.mines)
    assert np.array_equal(reading.board.cells, truth.cells)
    assert any("cannot name read with no skin" in note for note in reading.notes), reading.notes
    model = generic_model(skin)
    assert model.last is not None and np.array_equal(model.last, truth.cells.ravel())
    assert len(model.looks) == len(model.states) > 0
    again = read_screen(image, skin, truth.mines)  # the next frame reads with what this one taught
    assert np.array_equal(again.board.cells, truth.cells)
    assert generic_model(skin) is model


def test_a_skinless_reading_not_taken_teaches_nothing(tmp_path, monkeypatch):
    """A skinless reading that differs from the skin on a cell the skin is sure of is not used, and the
    skin's model does not learn from it either."""
    skin, image, truth = _completed_frame(tmp_path)
    real = read.read_cells

    def contradicting(image, geometry, model=None):
        cells = real(image, geometry, model)
        sure = np.argwhere(cells.states == Cell.COVERED)[0]
        cells.states[tuple(sure)] = Cell.ZERO  # a cell the skin reads surely as covered
        return cells

    monkeypatch.setattr(read, "read_cells", contradicting)
    with pytest.raises(RecognitionError):  # the skin alone cannot name the ones
        read_screen(image, skin, truth.mines)
    model = generic_model(skin)
    assert model.last is None and len(model.looks) == 0 and model.states == []
