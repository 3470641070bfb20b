"""Input backends: the contract, the guard against clicks outside the board, recording, sim, pyautogui."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from test_capture import xvfb  # noqa: F401 - the shared Xvfb fixture

from bot.errors import InputError
from bot.geometry import Region
from bot.input import (
    BACKENDS,
    Expect,
    InputBackend,
    InputEvent,
    PyAutoGuiInput,
    RecordingInput,
    SimInput,
    open_input,
)
from bot.mock import SimClient

BOARD = Region(100, 50, 144, 144)
FACE = Region(160, 10, 26, 26)


class NoPress(InputBackend):
    def _move(self, x: int, y: int) -> None: ...

    def _click(self, x: int, y: int, button: str) -> None: ...


class Minimal(NoPress):
    """Implements the three required methods and nothing else (no chord)."""

    def _press(self, key: str) -> None: ...


@pytest.mark.parametrize("incomplete", [InputBackend, NoPress])
def test_incomplete_backends_cannot_be_made(incomplete: type) -> None:
    with pytest.raises(TypeError):
        incomplete()


def test_chord_is_not_supported_unless_a_backend_says_so() -> None:
    with pytest.raises(InputError, match="does not support chords"):
        Minimal().chord(1, 1)


def test_recording_records_in_order() -> None:
    with RecordingInput() as mouse:
        mouse.move(5, 6)
        mouse.click(1, 2)
        mouse.click(3, 4, "right")
        mouse.chord(7, 8)
        mouse.press("F2")
    assert mouse.events == [
        InputEvent("move", 5, 6),
        InputEvent("click", 1, 2, "left"),
        InputEvent("click", 3, 4, "right"),
        InputEvent("chord", 7, 8),
        InputEvent("press", detail="F2"),
    ]
    assert [e.kind for e in mouse.clicks] == ["click", "click", "chord"]


@pytest.mark.parametrize("point", [(99, 60), (244, 60), (150, 49), (150, 194), (0, 0)])
def test_clicks_outside_the_board_are_refused_and_nothing_is_sent(point: tuple[int, int]) -> None:
    mouse = RecordingInput(allowed=BOARD)
    for act in (
        lambda: mouse.click(*point),
        lambda: mouse.click(*point, "right"),
        lambda: mouse.chord(*point),
    ):
        with pytest.raises(InputError, match=rf"\({point[0]}, {point[1]}\): outside the allowed"):
            act()
    assert mouse.events == []


def test_board_edges_and_the_face_are_allowed_when_added() -> None:
    mouse = RecordingInput(allowed=BOARD)
    mouse.click(100, 50)
    mouse.click(243, 193)
    with pytest.raises(InputError):
        mouse.click(170, 20)
    mouse.allow(FACE)
    mouse.click(170, 20)
    mouse.move(1000, 1000)  # moving the pointer away is always allowed
    assert [(e.x, e.y) for e in mouse.events] == [(100, 50), (243, 193), (170, 20), (1000, 1000)]


def test_bad_buttons_keys_and_closed_backends() -> None:
    mouse = RecordingInput()
    with pytest.raises(InputError, match="unknown mouse button 'double'"):
        mouse.click(1, 1, "double")
    with pytest.raises(InputError, match="unknown key 'F13'"):
        mouse.press("F13")
    mouse.close()
    mouse.close()
    for act in (lambda: mouse.click(1, 1), lambda: mouse.move(1, 1), lambda: mouse.press("F2")):
        with pytest.raises(InputError, match="closed"):
            act()
    assert mouse.events == []


def test_on_event_hook_sees_each_action() -> None:
    seen: list[InputEvent] = []
    mouse = RecordingInput(on_event=seen.append)
    mouse.click(1, 2)
    mouse.press("F2")
    assert seen == mouse.events and len(seen) == 2


def test_sim_input_opens_the_cell_under_the_click() -> None:
    client = SimClient("beginner", seed=4, screen_size=(640, 480), clutter=False)
    mouse = client.input
    assert isinstance(mouse, SimInput)
    mouse.allowed = client.geometry.region()
    x, y = client.geometry.cell_center((2, 6))
    mouse.click(x, y)
    assert client.game.board[2, 6].is_number()
    with pytest.raises(InputError):
        mouse.click(1, 1)
    assert client.clicks == 1


def test_a_guarded_click_is_sent_only_while_the_screen_shows_what_was_read() -> None:
    cell = Region(110, 60, 16, 16)
    read = np.full((16, 16, 3), 192, np.uint8)
    with RecordingInput(allowed=BOARD) as mouse:
        assert not mouse.holds_screen
        assert mouse.guarded_click(118, 68, "left", [Expect(cell, read)], lambda region: read.copy())
        moved = read.copy()
        moved[3, 4] = 0
        assert not mouse.guarded_click(118, 68, "right", [Expect(cell, read)], lambda region: moved)
        assert not mouse.guarded_click(118, 68, "chord", [Expect(cell, read)], lambda region: read[:8])
        assert mouse.guarded_click(118, 68, "chord", [], lambda region: moved)
        assert mouse.clicks == [InputEvent("click", 118, 68, "left"), InputEvent("chord", 118, 68)]
        with pytest.raises(InputError, match="unknown action"):
            mouse.guarded_click(118, 68, "double", [], lambda region: read)
        with pytest.raises(InputError, match="outside the allowed"):
            mouse.guarded_click(20, 20, "left", [], lambda region: read)


def test_factory_names_and_errors() -> None:
    assert BACKENDS == ("pyautogui", "recording", "sim")
    assert isinstance(open_input("recording", allowed=BOARD), RecordingInput)
    with pytest.raises(InputError, match="unknown input backend 'xdotool'"):
        open_input("xdotool")
    with pytest.raises(InputError, match="bad options for the recording backend"):
        open_input("recording", speed=3)


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run a snippet in a fresh interpreter (pyautogui binds to the display at import time)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True, timeout=60
    )


def test_pyautogui_without_a_display_is_an_input_error() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = run_python(
        """
        from bot.errors import InputError
        from bot.input import PyAutoGuiInput
        try:
            PyAutoGuiInput()
        except InputError as exc:
            print("InputError:", exc)
        """,
        env,
    )
    assert "InputError: pyautogui cannot start" in result.stdout, result.stderr
    with pytest.raises(InputError, match="chord style"):
        PyAutoGuiInput(chord_style="triple")


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_pyautogui_clicks_on_xvfb(xvfb, tmp_path) -> None:  # noqa: F811 - fixture
    env = dict(xvfb.env, XAUTHORITY=str(tmp_path / "Xauthority"))
    (tmp_path / "Xauthority").touch()
    result = run_python(
        """
        from bot.errors import AbortedError, InputError
        from bot.geometry import Region
        from bot.input import PyAutoGuiInput
        import pyautogui
        with PyAutoGuiInput(allowed=Region(100, 50, 100, 100)) as mouse:
            print("pause", pyautogui.PAUSE, "failsafe", pyautogui.FAILSAFE)
            try:
                mouse.click(20, 20)
            except InputError:
                print("refused")
            print("still at", tuple(pyautogui.position()))
            mouse.click(150, 120, "right")
            print("clicked at", tuple(pyautogui.position()))
            mouse.move(0, 0)
            try:
                mouse.click(150, 120)
            except AbortedError as exc:
                print("aborted:", exc)
            pyautogui.FAILSAFE = False  # the pointer is still in the corner: let the test move it out
            mouse.move(123, 77)
        """,
        env,
    )
    lines = [line for line in result.stdout.splitlines() if not line.startswith("Xlib.")]
    assert lines[:3] == ["pause 0 failsafe True", "refused", "still at (160, 100)"], result.stderr
    assert lines[3] == "clicked at (150, 120)"
    assert lines[4].startswith("aborted: stopped by the pyautogui fail-safe")
    where = subprocess.run(
        ["xdotool", "getmouselocation"], env=env, capture_output=True, text=True, timeout=10
    )
    assert where.stdout.startswith("x:123 y:77 "), where


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_pyautogui_guarded_click_holds_the_x_server(xvfb, tmp_path) -> None:  # noqa: F811 - fixture
    """On X11 the check and the click happen with the server grabbed: pixels are read through
    pyautogui's own connection (the same as mss's) and the click is sent only when they match."""
    env = dict(xvfb.env, XAUTHORITY=str(tmp_path / "Xauthority"))
    (tmp_path / "Xauthority").touch()
    result = run_python(
        """
        from bot.capture import MssCapture
        from bot.errors import AbortedError
        from bot.geometry import Region
        from bot.input import Expect, PyAutoGuiInput
        import pyautogui
        cell = Region(140, 110, 20, 20)
        with PyAutoGuiInput(allowed=Region(100, 50, 100, 100)) as mouse, MssCapture() as capture:
            print("holds", mouse.holds_screen)
            shown = capture.grab(cell)
            print("sent", mouse.guarded_click(150, 120, "right", [Expect(cell, shown)], capture.grab))
            print("at", tuple(pyautogui.position()))
            other = shown.copy()
            other[0, 0] ^= 255
            print("sent", mouse.guarded_click(110, 60, "left", [Expect(cell, other)], capture.grab))
            print("at", tuple(pyautogui.position()))
            mouse.move(0, 0)
            try:
                mouse.guarded_click(150, 120, "left", [], capture.grab)
            except AbortedError as exc:
                print("aborted:", exc)
        """,
        env,
    )
    lines = [line for line in result.stdout.splitlines() if not line.startswith("Xlib.")]
    assert lines[:5] == ["holds True", "sent True", "at (150, 120)", "sent False", "at (150, 120)"], (
        result.stderr
    )
    assert lines[5].startswith("aborted: stopped by the pyautogui fail-safe"), lines


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_a_guarded_click_and_a_park_cost_one_round_trip_to_the_x_server(xvfb, tmp_path) -> None:  # noqa: F811
    """Every request that waits for the X server's answer waits for the server to be scheduled: on a
    loaded machine ~2 ms each, with 150-250 clicks and 40-60 parks per Expert game. The fail-safe's
    pointer query and the pixels a click needs unchanged are asked for together (one round trip); a
    park where the pointer already is (the last click left it there) costs the pointer query alone."""
    env = dict(xvfb.env, XAUTHORITY=str(tmp_path / "Xauthority"))
    (tmp_path / "Xauthority").touch()
    result = run_python(
        """
        from bot.capture import MssCapture
        from bot.errors import AbortedError
        from bot.geometry import Region
        from bot.input import Expect, PyAutoGuiInput
        import pyautogui

        class Counting:
            '''The X connection's socket, counting round trips: a read after a write.'''
            def __init__(self, sock):
                self.sock, self.trips, self.wrote = sock, 0, False
            def send(self, data):
                self.wrote = True
                return self.sock.send(data)
            def recv(self, size):
                if self.wrote:
                    self.trips, self.wrote = self.trips + 1, False
                return self.sock.recv(size)
            def __getattr__(self, name):
                return getattr(self.sock, name)

        cell = Region(140, 110, 20, 20)
        ring = [Region(90, 40, 120, 2), Region(90, 40, 2, 120)]
        with PyAutoGuiInput(allowed=Region(100, 50, 100, 100)) as mouse, MssCapture() as capture:
            print("holds", mouse.holds_screen)
            connection = pyautogui.platformModule._display.display
            counting = connection.socket = Counting(connection.socket)
            expect = [Expect(part, capture.grab(part)) for part in [cell, *ring]]
            trips = counting.trips
            print("sent", mouse.guarded_click(150, 120, "left", expect, capture.grab, (300, 120)))
            print("click trips", counting.trips - trips)
            trips = counting.trips
            mouse.move(300, 120)
            print("park trips", counting.trips - trips, tuple(pyautogui.position()))
            trips = counting.trips
            mouse.move(310, 130)
            print("move trips", counting.trips - trips, tuple(pyautogui.position()))
            mouse.move(0, 0)
            try:
                mouse.guarded_click(150, 120, "left", expect, capture.grab)
            except AbortedError as exc:
                print("aborted:", exc)
            try:
                mouse.move(200, 200)
            except AbortedError as exc:
                print("aborted:", exc)
            pyautogui.FAILSAFE = False
            mouse.move(123, 77)
            print("at", tuple(pyautogui.position()))
        """,
        env,
    )
    lines = [line for line in result.stdout.splitlines() if not line.startswith("Xlib.")]
    assert lines[:3] == ["holds True", "sent True", "click trips 1"], (lines, result.stderr)
    assert lines[3:5] == ["park trips 1 (300, 120)", "move trips 2 (310, 130)"], lines
    assert lines[5].startswith("aborted: stopped by the pyautogui fail-safe"), lines
    assert lines[6].startswith("aborted: stopped by the pyautogui fail-safe"), lines
    assert lines[7] == "at (123, 77)", lines
