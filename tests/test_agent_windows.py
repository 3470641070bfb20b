"""What the player does with an input backend that knows the windows (X11): a dialog over the board is
closed with Escape (and only then: Escape quits some clients), and a key goes to the window over the
board when no window has the keyboard (a dialog closed with no window manager to give it back)."""

from __future__ import annotations

import os
import signal

import pytest

from bot.agent import Player, PlayOptions
from bot.geometry import Region
from bot.input import SimInput, _interrupts_deferred
from bot.mock import SimClient

BOARD, DIALOG = 1, 2


class WindowedInput(SimInput):
    """The sim's input, answering what an X11 backend answers: window 1 shows the board, window 2 is the
    sim's modal dialog while it is open; who was given the keyboard is recorded."""

    def __init__(self, client: SimClient) -> None:
        super().__init__(client)
        self.keyboard_to: list[int] = []

    def _dialog(self) -> Region | None:
        return self.client._dialog  # type: ignore[attr-defined]

    def window_at(self, x: int, y: int) -> int | None:
        dialog = self._dialog()
        return DIALOG if dialog is not None and dialog.contains(x, y) else BOARD

    def covered(self, window: int, region: Region) -> bool | None:
        return self._dialog() is not None

    def keys_to(self, window: int) -> bool:
        self.keyboard_to.append(window)
        return True


def sim(**kwargs: object) -> SimClient:
    return SimClient("beginner", seed=1, screen_size=(900, 700), **kwargs)


@pytest.mark.parametrize("frames", [1, 3, 6])
def test_a_dialog_over_the_board_is_closed_when_the_window_says_one_is_there(frames):
    """The sim opens a modal dialog over the board as a game ends (GNOME's high scores, KMines' "Reset
    the game?"), taking every key until closed: Escape is pressed for it, the keys go to the window over
    the board, and every game is played."""
    client = sim(rule="zero", dialog_at_end=frames)
    mouse = WindowedInput(client)
    summary = Player(
        client.capture, mouse, PlayOptions(games=3, settle_timeout=0.2), sleep=lambda s: None
    ).run()
    assert summary.games == 3 and summary.stopped is None and client.games_started == 3
    assert 1 <= client.keys.count("escape") <= 3
    assert mouse.keyboard_to and set(mouse.keyboard_to) <= {BOARD, DIALOG}


def test_no_escape_for_an_unreadable_board_no_window_covers():
    """Escape quits xdemineur: where the backend knows no window lies over the board, a board that
    cannot be read at a new game is not taken for one under a dialog; where it cannot tell, Escape is
    pressed once, as before."""
    client = sim(rule="zero")
    mouse = WindowedInput(client)
    player = Player(client.capture, mouse, PlayOptions(games=1), sleep=lambda s: None)
    player.play_game()
    player._board_now = lambda: None  # type: ignore[method-assign]
    assert player._close_dialog() is None and "escape" not in client.keys
    blind = Player(
        client.capture, client.input, PlayOptions(games=1, settle_timeout=0.1), sleep=lambda s: None
    )
    blind.play_game()
    blind._board_now = lambda: None  # type: ignore[method-assign]
    assert blind._close_dialog() is None and client.keys.count("escape") == 1
    assert blind._close_dialog() is None and client.keys.count("escape") == 1  # once per new game


def test_a_ctrl_c_held_back_is_raised_even_when_the_block_fails():
    """A Ctrl-C that lands while an X request is sent is held back to the block's end; it must stop the
    run even when the block raised something else (it was lost, and the bot played on)."""
    with pytest.raises(KeyboardInterrupt), _interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        raise ValueError("the X server refused the request")
    with pytest.raises(KeyboardInterrupt), _interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.live
def test_the_x_server_says_which_window_shows_the_board_and_gives_it_the_keyboard():
    """On X11 (xdemineur under Xvfb, no window manager): the window at a point of its board, nothing
    over it, none at an empty point; the keyboard, which no window has at first, is given to it, and a
    window that has it keeps it (nothing is taken from a window that has the keyboard)."""
    from xlive import run_beside_xdemineur

    script = (
        "from bot.geometry import Region\n"
        "from bot.input import PyAutoGuiInput\n"
        "mouse = PyAutoGuiInput()\n"
        "window = mouse.window_at(20, 90)\n"
        "over = mouse.covered(window, Region(16, 81, 200, 100))\n"
        "given = mouse.keys_to(window), mouse.keys_to(window)\n"
        "print(window is not None, over, mouse.window_at(1000, 700), *given)\n"
    )
    run = run_beside_xdemineur(script)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1].split() == ["True", "False", "None", "True", "False"], run.stdout
