"""Skins that lack states: a cell showing a state the skin has no template for is refused, never misread.

Every shipped skin is cut down by one state at a time (a copy with that state ``null`` in skin.json)
and reads screenshots that show it: rendered boards for ``classic``, the real captures (with their
ground truth) for ``winemine`` and ``xdemineur``. Then skins calibrated from one screenshot of the
made-up looks in ``tests/styles.py`` (and the real-crop looks when ``../shared/realdata`` is there)
read other screenshots with :func:`bot.vision.read_screen`, the play loop's entry point.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest
from styles import LOOKS, fit_board, mid_game, real_look, screenshot

from bot.board import Board, Cell
from bot.errors import BoardNotFoundError, RecognitionError
from bot.game import GameStatus
from bot.geometry import Geometry
from bot.render import jpeg_roundtrip, render_screen
from bot.skin import Skin, find_skin, load_skin
from bot.vision import CellReading, classify_cells, locate_board, read_screen
from bot.vision.cases import ALL_STATES, skin_without, stage_boards
from calibration.model import state_key
from calibration.session import CalibrateOptions, calibrate

REAL = Path(__file__).resolve().parent / "data" / "real"


def assert_refused_not_guessed(
    reading: CellReading, truth: Board, skin: Skin, label: str, may_refuse: float = 0.0
) -> int:
    """Cells of states the skin lacks are all uncertain; every other cell reads right and surely
    (or, at most the fraction ``may_refuse`` of them, uncertain: never wrong).

    Returns how many cells were of missing states.
    """
    assert reading.states.shape == truth.shape, label
    unseen = np.isin(truth.cells, [int(c) for c in skin.missing_states()])
    unsure = reading.uncertain_mask()
    accepted = np.argwhere(unseen & ~unsure)
    assert not len(accepted), f"{label}: unseen state read as a known one: " + "; ".join(
        f"truth {Cell(int(truth.cells[tuple(c)])).char!r}, {reading.describe(tuple(c))}" for c in accepted[:3]
    )
    refused = np.argwhere(~unseen & unsure)
    assert len(refused) <= may_refuse * (~unseen).sum(), f"{label}: known cell refused: " + "; ".join(
        reading.describe(tuple(c)) for c in refused[:3]
    )
    sure = ~unseen & ~unsure
    assert np.array_equal(reading.states[sure], truth.cells[sure]), label
    return int(unseen.sum())


def assert_read_screen_refuses_or_reads(image: np.ndarray, skin: Skin, truth: Board, label: str) -> None:
    """``read_screen`` either raises, naming a cell of a state the skin lacks, or returns the true board:
    the cells the skin cannot name are then the skinless reader's, taken only when it reads the whole
    board exactly and agrees with the skin everywhere else. Never a wrong board."""
    try:
        reading = read_screen(image, skin, truth.mines)
    except RecognitionError as exc:
        assert Cell(int(truth.cells[exc.cell])) in skin.missing_states(), (label, str(exc))
        return
    except BoardNotFoundError:
        return
    assert reading.board.to_text() == truth.to_text(), label
    assert any("read with no skin" in note for note in reading.notes), (label, reading.notes)


@cache
def classic_screens() -> list[tuple[str, np.ndarray, Board, Geometry]]:
    """Rendered classic screens showing every state: game stages and a board of all states, PNG and JPEG."""
    boards = [(stage.name, stage.board, stage.status) for stage in stage_boards("intermediate", seed=21)]
    boards.append(("all-states", ALL_STATES, GameStatus.PLAYING))
    screens = []
    for name, board, status in boards:
        for index, scale in enumerate((1.0, 1.25, 1.75, 2.04)):
            image, geometry = render_screen(board, "classic", scale, status=status, seed=index)
            screens.append((f"{name} x{scale} png", image, board, geometry))
            screens.append((f"{name} x{scale} jpeg90", jpeg_roundtrip(image, 90), board, geometry))
    return screens


@cache
def real_captures(client: str) -> list[tuple[str, np.ndarray, Board, Geometry]]:
    """The client's real captures, their truth, and the geometry its full shipped skin reads."""
    skin = find_skin(client)
    captures = []
    for png in sorted((REAL / client).glob("*.png")):
        image = cv2.imread(str(png))
        truth = Board.from_text(png.with_suffix(".txt").read_text())
        reading = read_screen(image, skin, truth.mines)
        assert reading.board == truth, png.name
        captures.append((png.name, image, truth, reading.geometry))
    return captures


def shipped_cases() -> list[tuple[str, Cell]]:
    cases = []
    for name in ("classic", "winemine", "xdemineur"):
        for state in find_skin(name).cells:
            if state != Cell.COVERED:  # a skin needs its covered template: it cannot be missing
                cases.append((name, state))
    return cases


@pytest.mark.parametrize(("name", "state"), shipped_cases(), ids=lambda v: getattr(v, "name", v))
def test_shipped_skin_without_a_state_refuses_its_cells(name, state, tmp_path):
    """Each shipped skin less one state: the skin refuses that state's cells and reads all others
    exactly; ``read_screen`` refuses them or has the skinless reader name them, never wrongly."""
    skin = skin_without(find_skin(name), state, tmp_path / "skin")
    assert skin.missing_states() == [state]
    assert json.loads((skin.path / "skin.json").read_text())["cells"][state_key(state)] is None
    if name == "classic":
        screens = classic_screens()
    elif (REAL / name).is_dir():
        screens = real_captures(name)
    else:
        pytest.skip(f"no real {name} captures")
    refused = 0
    shown = []
    for label, image, truth, geometry in screens:
        if not (truth.cells == state).any():
            continue
        # JPEG smears saturated colours (the exploded cell's red): a rare known cell may be refused
        may_refuse = 0.01 if "jpeg" in label else 0.0
        reading = classify_cells(image, geometry, skin)
        refused += assert_refused_not_guessed(reading, truth, skin, label, may_refuse)
        shown.append((label, image, truth))
    assert refused > 0, f"no screenshot shows {state.name}"
    for label, image, truth in shown[:2]:
        assert_read_screen_refuses_or_reads(image, skin, truth, label)


def _calibrated(look_name: str, scale: float, tmp_path: Path) -> tuple[Skin, object]:
    """A skin calibrated from ONE screenshot of a game not yet lost (no mines shown; the truth answers)."""
    look = LOOKS[look_name] if look_name in LOOKS else real_look(look_name)
    board = fit_board(mid_game(12, 20, 40, seed=5, opened=0.4, flags=3), look)
    image, _ = screenshot(board, look, scale)

    def ask(analysis, sheet):
        return {
            p.group: Cell(
                Counter(int(board.cells[m.cell]) for m in analysis.groups[p.group].members).most_common(1)[0][
                    0
                ]
            )
            for p in analysis.unsure()
        }

    options = CalibrateOptions(name=f"{look_name}-{scale}", out=tmp_path / "skin")
    report = calibrate(options, ask, images=[("shot.png", image)])
    skin = load_skin(report.skin_path)
    assert {Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG} <= set(skin.missing_states())
    return skin, look


CALIBRATED = [(name, scale) for name in LOOKS for scale in (1.0, 1.25, 1.5, 1.625, 2.0)] + [
    (name, scale) for name in ("msx", "msx125", "win7") for scale in (1.0, 1.25, 1.625)
]


def _cover_lonely_zeros(board: Board) -> None:
    """Cover every 0 beside a covered cell, until none is left: a board a game can show (a 0 opens its
    neighbours), which ``read_screen`` with a skin requires."""
    from bot.solver.rules import count_around

    while True:
        lonely = (board.cells == Cell.ZERO) & (count_around(board.cells == Cell.COVERED) > 0)
        if not lonely.any():
            return
        board.cells[lonely] = Cell.COVERED


@pytest.mark.parametrize(("look_name", "scale"), CALIBRATED)
def test_calibrated_skin_reads_known_and_refuses_unseen(look_name, scale, tmp_path):
    """``read_screen`` with a calibrated skin (no face, maybe a fractional pitch): a board of states it
    knows reads exactly; a lost board, showing mines and digits it never saw, is found, its unseen cells
    refused by the skin, and then refused or read exactly (by the skinless reader) by ``read_screen``."""
    skin, look = _calibrated(look_name, scale, tmp_path)
    missing = [int(c) for c in skin.missing_states()]
    for seed in (9, 13):
        lost = fit_board(mid_game(12, 20, 62, seed=seed, opened=0.4, lost=True), look)
        known = lost.copy()
        known.cells[np.isin(known.cells, missing)] = Cell.COVERED
        _cover_lonely_zeros(known)
        for truth, name in ((known, "known states"), (lost, "lost")):
            image, geometry = screenshot(truth, look, scale)
            label = f"{look_name} x{scale} seed {seed} {name}"
            location = locate_board(image, skin)
            assert (location.geometry.rows, location.geometry.cols) == truth.shape, label
            assert abs(location.geometry.pitch_x - geometry.pitch_x) < 0.05, label
            assert assert_refused_not_guessed(location.reading, truth, skin, label) == (truth is lost) * int(
                np.isin(lost.cells, missing).sum()
            )
            if truth is lost:
                assert_read_screen_refuses_or_reads(image, skin, truth, label)
            else:
                reading = read_screen(image, skin)
                assert reading.board.to_text() == truth.to_text(), label
                assert reading.face is None and reading.status is GameStatus.PLAYING, label
