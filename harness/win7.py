"""Windows 7 Minesweeper (the linux-minesweeper recreation, Qt6) under Xvfb, with its exact truth.

The program is built from ``../shared/clients/linux-minesweeper`` with the truth patch beside it (never
copied into the repo; ``.ci/run`` builds it into a temporary folder). :func:`program` finds the build:
``$MINEBOT_WIN7_PROGRAM``, else ``$XDG_CACHE_HOME/minebot/linux-minesweeper/build/MineSweeper``, which
:func:`build` makes (about 40 s on two cores, needs ``qt6-base-dev qt6-multimedia-dev cmake g++``).

How truth is derived: the patched client rewrites ``MINESWEEPER_TRUTH`` (a JSON file) at every board
change and when its animations go idle: the cells in minebot's board text format, the game state, whether
an animation is still running (``animating: false`` means what is drawn is final) and the grid's screen
rectangle. :meth:`Win7Minesweeper.truth` waits for a still, final file and returns that board.

Looks: ``theme`` is ``blue`` or ``green`` (the board style) and ``flowers`` the game style (flowers in
place of mines); both go to the client's own settings file before it starts, with question marks off
unless asked for. The board scales with the window (:meth:`Win7Minesweeper.resize`).

End of a game: about 250 ms after a win or loss (after the win sweep or the mine cascade) the client opens
a modal dialog over the board ("Game Won" / "Game Lost", buttons Exit, Restart this game, Play again).
:meth:`Win7Minesweeper.end_dialog` finds it, :meth:`Win7Minesweeper.move_dialog_off_board` moves it
aside (for a screenshot of the finished board) and :meth:`Win7Minesweeper.restart` starts a new game
with F2 or through the dialog's "Play again".

Usage::

    with VirtualDisplay() as vd, Win7Minesweeper(vd, theme="green", seed=3) as game:
        game.open((8, 15))
        board, status = game.truth()
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from bot.board import Board, Coord
from bot.game import FirstClickRule
from bot.geometry import Geometry, Region
from harness.realclients import (
    ClientError,
    ClientUnavailableError,
    RealClient,
    VirtualDisplay,
    _poll,
    click,
    display_env,
    find_windows,
    move_pointer_away,
    screenshot,
    xdotool,
)

LOGGER = logging.getLogger(__name__)

SOURCE = Path(os.environ.get("MINEBOT_WIN7_SOURCE", "/work/shared/clients/linux-minesweeper"))
"""The client's source (read-only); its truth patch is ``linux-minesweeper-truth.patch`` beside it."""
THEMES = ("blue", "green")
"""The client's board styles."""
LOOKS = tuple((theme, flowers) for theme in THEMES for flowers in (False, True))
"""Every look the client offers: each board style with mines or with flowers."""
DIALOG_TITLES = ("Game Won", "Game Lost")
"""The end-of-game dialog's window titles."""
ADVANCED = (16, 30, 99)
"""The level the harness starts (rows, cols, mines)."""
STILL = 0.12
"""Seconds the board's pixels must stay unchanged to count as drawn (the client animates at ~60 Hz)."""


def cache_build_dir() -> Path:
    """Where :func:`build` puts the program when ``$MINEBOT_WIN7_PROGRAM`` is not set."""
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "minebot" / "linux-minesweeper"


def program() -> str:
    """The built client: ``$MINEBOT_WIN7_PROGRAM`` or the cached build; raises ClientUnavailableError."""
    named = os.environ.get("MINEBOT_WIN7_PROGRAM")
    found = Path(named) if named else cache_build_dir() / "build" / "MineSweeper"
    if not os.access(found, os.X_OK):
        raise ClientUnavailableError(
            f"the Windows 7 Minesweeper client is not built ({found} is missing): run "
            "`python -m harness.win7 build` (needs qt6-base-dev qt6-multimedia-dev cmake g++ and "
            f"{SOURCE}), or set MINEBOT_WIN7_PROGRAM"
        )
    return str(found)


def build(target: Path | None = None, source: Path = SOURCE) -> Path:
    """Copy the source to ``target``, apply the truth patch, build it; returns the program's path."""
    import shutil

    target = target or cache_build_dir()
    patch = source.parent / "linux-minesweeper-truth.patch"
    if not source.is_dir() or not patch.is_file():
        raise ClientUnavailableError(f"no client source at {source} (or no {patch.name} beside it)")
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    steps = (
        ["git", "init", "-q"],
        ["git", "apply", str(patch)],
        ["cmake", "-B", "build", "-DCMAKE_BUILD_TYPE=Release"],
        ["cmake", "--build", "build", "-j2"],
    )
    for step in steps:
        done = subprocess.run(step, cwd=target, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            tail = " | ".join((done.stdout + done.stderr).strip().splitlines()[-5:])
            raise ClientError(f"building the client failed at `{' '.join(step)}`: {tail}")
    return target / "build" / "MineSweeper"


def read_truth_file(path: Path) -> dict:
    """The client's truth JSON, or ``{}`` while it is being replaced."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def truth_board(data: dict) -> tuple[Board, str]:
    """The board and status a truth JSON names; a question mark (not in minebot's format) is refused."""
    text = "\n".join(data["cells"])
    if "?" in text:
        raise ClientError("the client shows a question mark, which minebot's board format cannot hold")
    board = Board.from_text(text)
    board.mines = int(data["mines"])
    return board, str(data["state"])


class Win7Minesweeper(RealClient):
    """Windows 7 Minesweeper at Advanced (30x16/99) in a theme, with a seeded mine layout.

    First click: never a mine (the layout is placed after it, away from the clicked cell only), so the
    rule is ``safe``; it often opens a single number.
    """

    name = "win7"
    skin_name = "win7"
    first_click_rule = FirstClickRule.SAFE
    new_game = "F2"

    def __init__(
        self,
        display: VirtualDisplay | str,
        theme: str = "blue",
        flowers: bool = False,
        seed: int = 1,
        question_marks: bool = False,
        timeout: float = 30.0,
    ) -> None:
        if theme not in THEMES:
            raise ValueError(f"the client has themes {', '.join(THEMES)}, not {theme!r}")
        super().__init__(display, *ADVANCED, timeout=timeout)
        self.theme, self.flowers, self.seed, self.question_marks = theme, flowers, seed, question_marks
        self._tmp: tempfile.TemporaryDirectory[str] | None = None

    @property
    def search(self) -> tuple[str, ...]:  # type: ignore[override]
        pid = self.proc.pid if self.proc is not None else 0
        return ("--all", "--pid", str(pid), "--name", "^Minesweeper$")

    @property
    def truth_path(self) -> Path:
        if self._tmp is None:
            raise ClientError("win7 is not running")
        return Path(self._tmp.name) / "truth.json"

    def command(self) -> list[str]:
        return [program()]

    def env(self) -> dict[str, str]:
        assert self._tmp is not None
        return display_env(
            self.display,
            {
                "MINESWEEPER_DIFFICULTY": "advanced",
                "MINESWEEPER_THEME": self.theme,
                "MINESWEEPER_SOUNDS": "0",
                "MINESWEEPER_SEED": str(self.seed),
                "MINESWEEPER_TRUTH": str(self.truth_path),
                "XDG_CONFIG_HOME": self._tmp.name,
                "XDG_RUNTIME_DIR": self._tmp.name,
                "QT_QPA_PLATFORM": "xcb",
            },
        )

    def start(self) -> None:
        program()  # fail early (a skip in the tests) when the client is not built
        if self._tmp is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="minebot-win7-")
            settings = Path(self._tmp.name) / "minesweeper" / "minesweeper.conf"
            settings.parent.mkdir(parents=True)
            settings.write_text(
                "[General]\n"
                f"questionMarks={str(self.question_marks).lower()}\n"
                f"gameStyle={'flowers' if self.flowers else 'mines'}\n"
                f"boardStyle={self.theme}\n"
            )
        super().start()
        self.wait_final()

    def close(self) -> None:
        self.stop()
        if self._tmp is not None:
            self._tmp.cleanup()
        self._tmp = None

    # truth and geometry

    def truth_data(self, timeout: float = 10.0) -> dict:
        """The truth JSON once the client says nothing is animating and the file is still for 50 ms."""

        def final() -> dict:
            first = read_truth_file(self.truth_path)
            if not first or first.get("animating", True):
                return {}
            time.sleep(0.05)
            return first if read_truth_file(self.truth_path) == first else {}

        return _poll("the win7 client to finish drawing", final, timeout, 0.02)

    def wait_final(self, timeout: float = 10.0, before: dict | None = None) -> dict:
        """Wait until the truth differs from ``before`` (when given; a click that changes nothing gets
        one second), nothing animates, the grid lies inside the window and its pixels are still over
        :data:`STILL` seconds (an animation frame can repeat between two quick grabs); returns the truth.
        """
        if before is not None:
            with contextlib.suppress(ClientError):
                _poll("the click to show", lambda: read_truth_file(self.truth_path) not in ({}, before), 1.0)

        def settled() -> dict:
            data = self.truth_data(timeout)
            region = self.board_geometry(data).region()
            win = self.window_region()
            if not (
                win.contains(region.left, region.top)
                and region.right <= win.right
                and region.bottom <= win.bottom
            ):
                return {}  # the first file is written before the window's layout is final
            first = screenshot(self.display, region)
            time.sleep(STILL)
            still = np.array_equal(first, screenshot(self.display, region))
            return data if still and read_truth_file(self.truth_path) == data else {}

        return _poll("the win7 board to settle", settled, timeout, 0.02)

    def truth(self) -> tuple[Board, str]:
        return truth_board(self.truth_data())

    def board_geometry(self, data: dict | None = None) -> Geometry:
        """The grid's screen rectangle as the client reports it (it scales with the window)."""
        data = data or read_truth_file(self.truth_path) or self.truth_data()
        x, y, w, h = data["grid_global"]
        return Geometry(x, y, w / data["cols"], h / data["rows"], data["rows"], data["cols"])

    def _board_drawn(self) -> bool:
        return bool(read_truth_file(self.truth_path)) and super()._board_drawn()

    def mine_positions(self) -> set[Coord]:
        """Where the mines are (empty before the first click places them)."""
        return {(r, c) for r, c in self.truth_data()["mine_positions"]}

    # window, dialog, new games

    def resize(self, width: int, height: int, timeout: float = 10.0) -> Geometry:
        """Resize the window (``xdotool windowsize``; the board scales) and start a new game there (the
        client reports its grid's new place only with a board change). Returns the new grid."""
        wid, old = self.window_id_region()
        xdotool(self.display, "windowsize", str(wid), str(width), str(height))
        _poll("the win7 window to resize", lambda: self._refind() and self._window[1] != old, timeout, 0.05)
        grid = read_truth_file(self.truth_path).get("grid_global")
        win = self._window[1]

        def moved() -> bool:
            # The client rewrites its truth (grid included) only when the board changes: a first
            # click in the window's middle (always on the grid, which is centred) makes it do so.
            if self.end_dialog() is not None or read_truth_file(self.truth_path).get("started"):
                self.restart()
            click(self.display, win.left + win.width // 2, win.top + win.height // 2)
            time.sleep(0.1)
            return read_truth_file(self.truth_path).get("grid_global") != grid

        _poll("the win7 grid to follow the window", moved, timeout, 0.3)
        self.restart()
        return self.board_geometry()

    def window_id_region(self) -> tuple[int, Region]:
        if self._window is None:
            raise ClientError("win7 is not running")
        return self._window

    def _refind(self) -> bool:
        found = self._find_window()
        if found:
            self._window = found
        return bool(found)

    def end_dialog(self) -> tuple[int, Region] | None:
        """The end-of-game dialog, when it is open."""
        pid = self.proc.pid if self.proc is not None else 0
        for title in DIALOG_TITLES:
            found = find_windows(self.display, "--all", "--pid", str(pid), "--name", f"^{title}$")
            if found:
                return found[0]
        return None

    def wait_dialog(self, timeout: float = 60.0) -> tuple[int, Region]:
        """Wait for the end-of-game dialog (about 250 ms after the last animation; a win's sweep over 99
        mines takes seconds)."""
        return _poll("the win7 end-of-game dialog", self.end_dialog, timeout, 0.05)

    def move_dialog_off_board(self) -> None:
        """Move the end dialog below the window, so a screenshot shows the whole finished board."""
        wid, _ = self.wait_dialog()
        win = self.window_region()
        xdotool(self.display, "windowmove", str(wid), str(win.left), str(win.bottom + 20))
        _poll("the dialog to move", lambda: (d := self.end_dialog()) and d[1].top > win.bottom, 5.0, 0.05)
        move_pointer_away(self.display)

    def play_again(self) -> None:
        """Take the end dialog's "Play again" (its default button: Return presses it)."""
        wid, _ = self.wait_dialog()

        def closed() -> bool:  # a dialog just mapped may not take keys yet: Return again until it closes
            xdotool(self.display, "key", "--window", str(wid), "Return")
            time.sleep(0.3)
            return self.end_dialog() is None

        _poll("the dialog to close", closed, 15.0, 0.5)
        self._wait_fresh()

    def restart(self) -> None:
        """A new game: "Play again" when the end dialog is open, else F2 to the window."""
        if self.end_dialog() is not None:
            self.play_again()
            return
        wid, _ = self.window_id_region()
        xdotool(self.display, "windowactivate", "--sync", str(wid))
        xdotool(self.display, "key", "--window", str(wid), "F2")
        self._wait_fresh()

    def _wait_fresh(self) -> None:
        move_pointer_away(self.display)
        _poll("a fresh win7 board", lambda: not self.wait_final().get("started", True), 10.0, 0.05)

    # clicking

    def click_cell(self, cell: Coord, button: int = 1) -> None:
        """Click a cell's centre, then wait until the click shows, nothing animates and the board is still."""
        if not (0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols):
            raise ValueError(f"cell {cell} is outside the {self.rows}x{self.cols} board")
        before = self.wait_final()
        click(self.display, *self.board_geometry(before).cell_center(cell), button=button)
        self.wait_final(before=before)


def main(argv: list[str] | None = None) -> int:
    """``python -m harness.win7 build [DIR]``: build the client (into the cache by default)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] != "build":
        print("usage: python -m harness.win7 build [DIR]", file=sys.stderr)
        return 2
    try:
        path = build(Path(args[1]) if len(args) > 1 else None)
    except (ClientError, ClientUnavailableError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
