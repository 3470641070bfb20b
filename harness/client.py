"""The base of every real Minesweeper client under Xvfb (:class:`RealClient`): start the program, find
its window and grid, click cells, restart, stop everything it started."""

from __future__ import annotations

import logging
import subprocess
import tempfile
from dataclasses import dataclass
from types import TracebackType
from typing import IO

import numpy as np

from bot.board import Board, Coord
from bot.game import FirstClickRule
from bot.geometry import Geometry, Region
from harness.processes import ClientError, ClientExitedError, _alive, _poll, _stop_process, _tail
from harness.xdisplay import (
    VirtualDisplay,
    _display_name,
    click,
    display_env,
    find_windows,
    move_pointer_away,
    screenshot,
    wait_stable,
    xdotool,
)

LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class ClientLayout:
    """Where a client draws its grid and face, relative to its window's top-left corner."""

    board_dx: int
    board_dy: int
    pitch: int
    face_dx: int
    """Left edge of the face button relative to the window's middle column (``width // 2``)."""
    face_dy: int
    """Top edge of the face button relative to the window."""
    face_size: int


class RealClient:
    """A real Minesweeper program on an X display: start, look, click, restart, stop.

    Subclasses say how to start the program and find its window. Use as a context manager.
    """

    name = "client"
    skin_name = ""
    first_click_rule = FirstClickRule.NONE
    new_game = "restart"
    layout = ClientLayout(0, 0, 16, 0, 0, 16)
    search: tuple[str, ...] = ()

    def __init__(
        self, display: VirtualDisplay | str, rows: int, cols: int, mines: int, timeout: float = 30.0
    ):
        self.display = _display_name(display)
        self.rows, self.cols, self.mines = rows, cols, mines
        self.timeout = timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self._window: tuple[int, Region] | None = None

    # lifecycle

    def __enter__(self) -> RealClient:
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def command(self) -> list[str]:
        """The command line that starts the client."""
        raise NotImplementedError

    def env(self) -> dict[str, str]:
        return display_env(self.display)

    start_attempts = 3
    """How often :meth:`start` launches a client that exits before showing a window (Wine, now and
    then, exits at once under load); a client that still fails raises :class:`ClientExitedError`."""

    def start(self) -> None:
        """Start the client and wait until its window is mapped and drawn."""
        for attempt in range(1, self.start_attempts + 1):
            try:
                self._launch()
                return
            except ClientExitedError as exc:
                if attempt == self.start_attempts:
                    raise
                LOGGER.warning(
                    "%s; starting it again (attempt %d of %d)", exc, attempt + 1, self.start_attempts
                )
                self.stop()

    def _launch(self) -> None:
        """One try at :meth:`start`: the client's output goes to a file that an early exit quotes."""
        command = self.command()
        LOGGER.info("starting %s on %s: %s", self.name, self.display, " ".join(command))
        with tempfile.TemporaryFile() as output:
            self.proc = subprocess.Popen(
                command,
                env=self.env(),
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            self._window = None
            self._window = _poll(
                f"the {self.name} window on {self.display}",
                lambda: self._find_window(output),
                self.timeout,
                0.05,
            )
        move_pointer_away(self.display)
        _poll(f"{self.name} to draw its board", self._board_drawn, self.timeout, 0.05)
        LOGGER.info("%s window at %s", self.name, self._window[1])

    def _find_window(self, output: IO[bytes] | None = None) -> tuple[int, Region] | None:
        if self.proc is not None and self.proc.poll() not in (None, 0):
            printed = _tail(output) if output is not None else ""
            raise ClientExitedError(
                f"{self.name} exited with status {self.proc.returncode} before showing a window"
                + (f"; it printed: {printed}" if printed else "")
            )
        windows = find_windows(self.display, *self.search)
        big = [w for w in windows if w[1].width > 50 and w[1].height > 50]
        return max(big, key=lambda w: w[1].width * w[1].height) if big else None

    def _board_drawn(self) -> bool:
        """The grid area shows cells (not one flat colour) and is still for two grabs."""
        image = wait_stable(self.display, self.board_geometry().region(), timeout=self.timeout)
        return bool(image.std() > 5)

    def owned_pids(self) -> list[int]:
        """Processes this client started that are still running."""
        pids = [self.proc.pid] if self.proc is not None and _alive(self.proc.pid) else []
        return pids

    def stop(self) -> None:
        """Stop the client process (and its helpers)."""
        _stop_process(self.proc)
        self.proc = None
        self._window = None

    def close(self) -> None:
        self.stop()

    def restart(self) -> None:
        """Start a new game."""
        self.stop()
        self.start()

    # looking

    def window_region(self) -> Region:
        """The client window on screen, from ``xdotool getwindowgeometry``."""
        if self._window is None:
            raise ClientError(f"{self.name} is not running")
        return self._window[1]

    def board_geometry(self) -> Geometry:
        """Where the cells are on screen, from the client's known layout and its window position."""
        win, lay = self.window_region(), self.layout
        size = lay.face_size
        face = Region(win.left + win.width // 2 + lay.face_dx, win.top + lay.face_dy, size, size)
        return Geometry(
            win.left + lay.board_dx, win.top + lay.board_dy, lay.pitch, lay.pitch, self.rows, self.cols, face
        )

    def move_window(self, dx: int, dy: int, timeout: float = 5.0) -> Region:
        """Move the client's window by (dx, dy) pixels (``xdotool windowmove``); returns its new region.

        Waits until the window reports its new place and the board there is drawn and still.
        """
        if self._window is None:
            raise ClientError(f"{self.name} is not running")
        wid, old = self._window
        target = (old.left + dx, old.top + dy)
        xdotool(self.display, "windowmove", str(wid), str(target[0]), str(target[1]))

        def moved() -> tuple[int, Region] | None:
            now = [w for w in find_windows(self.display, *self.search) if w[0] == wid]
            return now[0] if now and (now[0][1].left, now[0][1].top) == target else None

        self._window = _poll(f"the {self.name} window to move to {target}", moved, timeout, 0.02)
        move_pointer_away(self.display)
        _poll(f"{self.name} to redraw its board", self._board_drawn, timeout, 0.05)
        return self._window[1]

    def client_region(self) -> Region:
        """The client's own area on screen (what a capture keeps): its window by default."""
        return self.window_region()

    def truth(self) -> tuple[Board, str]:
        """The exact board shown now and the game status, for clients with a truth reader."""
        raise NotImplementedError(f"{self.name} has no exact truth reader in the harness")

    def face_center(self) -> tuple[int, int]:
        face = self.board_geometry().face
        assert face is not None
        return (face.left + face.width // 2, face.top + face.height // 2)

    def screenshot(self) -> np.ndarray:
        """The whole screen once the board has stopped changing (pointer parked first)."""
        wait_stable(self.display, self.board_geometry().region())
        return screenshot(self.display)

    # clicking

    def click_cell(self, cell: Coord, button: int = 1) -> None:
        """Click a cell's centre and wait until the board is still."""
        geometry = self.board_geometry()
        if not (0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols):
            raise ValueError(f"cell {cell} is outside the {self.rows}x{self.cols} board")
        click(self.display, *geometry.cell_center(cell), button=button)
        wait_stable(self.display, geometry.region())

    def open(self, cell: Coord) -> None:
        self.click_cell(cell, 1)

    def flag(self, cell: Coord) -> None:
        self.click_cell(cell, 3)

    def chord(self, cell: Coord) -> None:
        self.click_cell(cell, 2)
