"""live_bench's own checks, headless: a reading compared cell by cell with the client's own account."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from bot.board import Board
from bot.errors import MinebotError
from bot.solver import Action, Move

ROOT = Path(__file__).resolve().parent.parent


def live_bench():
    spec = importlib.util.spec_from_file_location("live_bench", ROOT / "benchmarks" / "live_bench.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("live_bench", module)
    spec.loader.exec_module(module)
    return module


class Truthful:
    """A client whose own account of the board is given."""

    def __init__(self, text: str | None) -> None:
        self.text = text

    def truth(self) -> tuple[Board, str]:
        if self.text is None:
            raise MinebotError("the page did not answer")
        return Board.from_text(self.text), "playing"


def test_a_reading_is_checked_cell_by_cell_against_the_clients_own_account():
    bench = live_bench()
    report = bench.LiveReport("fake", "3x3/1")
    checker = bench.ReadChecker(Truthful("12.\n...\n..."), report)
    checker(Board.from_text("1..\n...\n..."), [])  # read covered, open in the client's account: a lag
    assert (report.checked_reads, report.misread_cells, report.errors) == (1, 0, [])
    checker(Board.from_text("13.\n...\n..F"), [])  # a wrong digit and a flag the client does not show
    assert (report.checked_reads, report.misread_cells) == (2, 2)
    assert report.errors == [
        "game 0: misread 2 cell(s), e.g. (0, 1) read '3', is '2', (2, 2) read 'F', is '.'"
    ]
    assert (report.lagging_reads, report.stale_guesses) == (1, 0)
    checker.client = Truthful("123\n...\n...")
    guess = Move(Action.OPEN, (2, 0), 0.3, "a guess", ((2, 0),))
    checker(Board.from_text("12.\n...\n..."), [guess])  # (0, 2) open there, read covered: guessed on
    checker(Board.from_text("12.\n...\n..."), [Move(Action.OPEN, (2, 0), 0.0, "safe", ((2, 0),))])
    checker(Board.from_text("123\n...\n..."), [guess])  # drawn in full: no lag
    assert (report.checked_reads, report.lagging_reads, report.stale_guesses) == (5, 3, 1)
    checker.client = Truthful(None)
    checker(Board.from_text("1..\n...\n..."), [])
    assert report.checked_reads == 5 and "no truth to check a reading against" in report.errors[-1]
    assert "cells misread: 2" in report.format()


class NoTruthReader:
    def truth(self) -> tuple[Board, str]:
        raise NotImplementedError("xdemineur has no exact truth reader in the harness")


def test_a_client_with_no_truth_reader_is_reported_once_not_at_every_reading():
    """--check-reads on a client the harness cannot read (xdemineur, winemine): one error saying so,
    not one per reading (a 3-game run listed 57); a page that did not answer is still said each time."""
    bench = live_bench()
    report = bench.LiveReport("fake", "3x3/1")
    checker = bench.ReadChecker(NoTruthReader(), report)
    for _ in range(3):
        checker(Board.from_text("1..\n...\n..."), [])
    assert report.checked_reads == 0 and len(report.errors) == 1
    assert "no exact truth reader" in report.errors[0]
    flaky = bench.ReadChecker(Truthful(None), report)
    flaky(Board.from_text("1..\n...\n..."), [])
    flaky(Board.from_text("1..\n...\n..."), [])
    assert len(report.errors) == 3


def test_each_game_is_reported_in_brief_and_a_loss_with_no_guess_is_counted():
    from bot.agent.results import GameResult

    bench = live_bench()
    report = bench.LiveReport("fake", "3x3/1")
    report.add(0, GameResult(0, "lost", 1.5, clicks=7, guesses=2, ended_by="face"), "lost", [])
    report.add(1, GameResult(1, "lost", 0.5, clicks=3, guesses=0, ended_by="board"), "lost", [])
    report.add(2, GameResult(2, "won", 2.0, clicks=9, guesses=1, ended_by="face"), "won", [])
    data = report.to_dict()
    assert data["lost_without_a_guess"] == 1
    assert [(g["status"], g["client"], g["clicks"], g["guesses"]) for g in data["per_game"]] == [
        ("lost", "lost", 7, 2),
        ("lost", "lost", 3, 0),
        ("won", "won", 9, 1),
    ]


def test_a_click_on_the_face_the_bot_learned_is_on_the_board_or_face():
    """A face no template found but the bot learned by what it does (new games by 'face') is no click
    outside; a click beside it is."""
    from types import SimpleNamespace

    from bot.geometry import Geometry, Region

    bench = live_bench()
    mouse = object.__new__(bench.CheckedInput)  # no display: only the check is exercised
    geometry = Geometry(left=8, top=34, rows=32, cols=32, pitch_x=12, pitch_y=12)
    learned = Region(185, 4, 28, 28)
    mouse.player = SimpleNamespace(geometry=geometry, _face_region=lambda: learned)
    mouse.client, mouse.outside = None, []
    mouse._note(199, 19, "left")
    mouse._note(20, 40, "left")
    assert mouse.outside == []
    mouse._note(150, 19, "left")
    assert len(mouse.outside) == 1 and "(150, 19)" in mouse.outside[0]
