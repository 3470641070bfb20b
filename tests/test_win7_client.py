"""Windows 7 Minesweeper (linux-minesweeper, harness.win7): its truth, and the live client driven end to end.

The live tests need Xvfb, xdotool and the built client (``.ci/run`` builds it from ../shared; see
harness/win7.py); they skip when any is missing.
"""

from __future__ import annotations

import pytest

from bot.board import Cell
from bot.errors import MinebotError
from harness.realclients import (
    ClientError,
    ClientUnavailableError,
    VirtualDisplay,
    display_numbers,
    find_program,
    processes_with_env,
    screenshot,
)
from harness.win7 import LOOKS, Win7Minesweeper, program, truth_board

TRUTH = {
    "rows": 2,
    "cols": 3,
    "mines": 1,
    "mine_positions": [[0, 2]],
    "cells": ["11F", "01."],
    "state": "playing",
    "started": True,
    "animating": False,
    "grid_global": [30, 49, 54, 36],
}


def test_truth_json_gives_the_board_and_state() -> None:
    board, status = truth_board(TRUTH)
    assert status == "playing" and board.mines == 1
    assert board.to_text() == "11F\n01."


def test_a_question_mark_in_the_truth_is_refused() -> None:
    with pytest.raises(ClientError, match="question mark"):
        truth_board(dict(TRUTH, cells=["11?", "01."]))


def test_a_missing_build_is_a_clear_skip_reason(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("MINEBOT_WIN7_PROGRAM", str(tmp_path / "nowhere" / "MineSweeper"))
    with pytest.raises(ClientUnavailableError, match="not built"):
        program()


def test_display_numbers_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MINEBOT_DISPLAYS", raising=False)
    assert display_numbers() == [None]
    monkeypatch.setenv("MINEBOT_DISPLAYS", "71-73")
    assert display_numbers() == [71, 72, 73]
    monkeypatch.setenv("MINEBOT_DISPLAYS", "seventy")
    with pytest.raises(ClientError, match="MINEBOT_DISPLAYS"):
        display_numbers()


def _needs_client() -> None:
    try:
        find_program("Xvfb"), find_program("xdotool"), program()
    except ClientUnavailableError as exc:
        pytest.skip(str(exc))


@pytest.mark.live
def test_live_win7_click_flag_lose_play_again_resize_stop() -> None:
    """Every harness action on the real client agrees with the client's own truth, and nothing is left."""
    _needs_client()
    with VirtualDisplay() as vd:
        game = Win7Minesweeper(vd, theme="blue", seed=11)
        with game:
            board, status = game.truth()
            assert board.is_fresh() and status == "playing"
            game.open((8, 15))
            board, _ = game.truth()
            assert board[(8, 15)].is_number() or board[(8, 15)] == Cell.ZERO  # the first click is safe
            mines = sorted(game.mine_positions())
            assert len(mines) == 99 and (8, 15) not in mines
            game.flag(mines[0])
            assert game.truth()[0][mines[0]] == Cell.FLAG
            game.open(mines[1])
            board, status = game.truth()
            assert status == "lost" and board[mines[1]] == Cell.EXPLODED
            game.move_dialog_off_board()
            assert game.end_dialog()[1].top > game.window_region().bottom
            game.restart()  # "Play again" in the dialog
            assert game.end_dialog() is None and game.truth()[0].is_fresh()
            geometry = game.resize(1000, 620)
            assert geometry.pitch_x == geometry.pitch_y > 18
            game.open((0, 0))
            assert not game.truth()[0].is_fresh()
            game.restart()  # F2
            assert game.truth()[0].is_fresh()
            owned = game.owned_pids()
            assert owned
        assert not [pid for pid in owned if pid in processes_with_env("DISPLAY", vd.display)]


def _read_or_refused(display: str, truth: str) -> bool:
    """True when the screen reads as ``truth`` with ``--skin auto``, False when refused; a wrong reading
    fails the test."""
    from bot.vision import read_screen

    try:
        reading = read_screen(screenshot(display), "auto", 99)
    except MinebotError:
        return False
    assert reading.board.to_text() == truth
    return True


@pytest.mark.live
@pytest.mark.parametrize(
    ("theme", "flowers"), LOOKS, ids=[f"{t}-{'flowers' if f else 'mines'}" for t, f in LOOKS]
)
def test_live_win7_readings_are_never_wrong(theme: str, flowers: bool) -> None:
    """Each look's fresh and mid-game boards read exactly with ``--skin auto`` or are refused, never read
    wrong (0 wrong cells is the overriding rule); the blue fresh board reads."""
    _needs_client()
    with VirtualDisplay() as vd, Win7Minesweeper(vd, theme=theme, flowers=flowers, seed=5) as game:
        fresh = _read_or_refused(vd.display, game.truth()[0].to_text())
        assert fresh or theme != "blue"
        game.open((8, 15))
        for cell in sorted(c for c in game.truth()[0] if c not in game.mine_positions())[:40:8]:
            game.open(cell)
        _read_or_refused(vd.display, game.truth()[0].to_text())
