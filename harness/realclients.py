"""Real Minesweeper clients under Xvfb: start a virtual screen and a client, look, click, stop.

Live tests, live benchmarks and the capture script use this harness to run Wine's ``winemine`` and
``xdemineur`` headless, on a private X display that nothing else draws on. Everything started is
stopped on exit, by process id, and no process is left behind.

Usage::

    with VirtualDisplay() as vd, WineMine(vd, "expert") as game:
        region = game.window_region()          # Region of the client window on screen
        geometry = game.board_geometry()       # Geometry of the cell grid (from known client layout)
        game.open((3, 7))                       # left-click a cell, wait until the screen is still
        image = screenshot(vd.display)          # BGR ndarray of the whole virtual screen
        game.restart()                          # a new game ("face" for winemine, new process for xdemineur)

    with VirtualDisplay() as vd, XDemineur(vd, rows=9, cols=12, mines=10) as game:
        game.flag((0, 0))

The other clients live beside this module, each with an exact truth reader (``client.truth()``):
harness.xbomb (``XBomb``), harness.ace (``AceMinesweeper``) and harness.jsminesweeper (``JSMinesweeper``
in Chromium, at a tile size and browser zoom); harness.clients names them all (``CLIENTS``,
``make_client``). ``client.move_window(dx, dy)`` moves any client's window mid-game.

Low-level helpers take the display name (``":N"``): :func:`screenshot`, :func:`click`,
:func:`move_pointer_away`, :func:`wait_stable`. A missing program raises
:class:`ClientUnavailableError` (tests turn it into a skip); a client that fails to start or draw
raises :class:`ClientError`.

Cell geometry (measured on Debian 12, Wine 8.0, xdemineur 2.1.1; checked by the live tests):
winemine cells are 16 px with no grid line, the grid starts 5 px right of and 52 px below the window
origin; xdemineur cells are 20 px plus a 1 px black grid line (pitch 21), and cell (0, 0)'s first
pixel inside the grid lines is at (17, 82) in the window.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO

import numpy as np

from bot.board import Board, Coord
from bot.errors import MinebotError
from bot.game import LEVELS, FirstClickRule, find_level
from bot.geometry import Geometry, Region

LOGGER = logging.getLogger(__name__)

SCREEN_SIZE = (1600, 1000)
"""Default virtual screen size (width, height), as in the project's CLIENTS notes."""

POINTER_PARK = (SCREEN_SIZE[0] - 5, SCREEN_SIZE[1] - 5)
"""Where the pointer goes before a capture: far from any client window."""


class ClientUnavailableError(MinebotError):
    """A program the harness needs (Xvfb, xdotool, wine, xdemineur) is not installed."""


class ClientError(MinebotError):
    """A real client or the virtual display failed to start, draw, or stop in time."""


class ClientExitedError(ClientError):
    """A client's process exited before it showed a window; the message ends with what it printed."""


# -- programs and processes ----------------------------------------------------------------------


def find_program(name: str) -> str:
    """The full path of ``name`` on PATH or in ``/usr/games``; raises :class:`ClientUnavailableError`."""
    found = shutil.which(name) or shutil.which(name, path="/usr/games")
    if not found:
        raise ClientUnavailableError(f"{name!r} is not installed (looked on PATH and in /usr/games)")
    return found


def processes_with_env(key: str, value: str) -> list[int]:
    """Live (non-zombie) processes of this user whose environment has ``key=value``.

    This is how the harness finds what a client spawned (Wine's helpers daemonize), and how the
    tests check that nothing was left behind.
    """
    needle = f"{key}={value}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            stat = (entry / "stat").read_text()
            if stat.rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                continue
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except (OSError, IndexError):
            continue  # gone, or not ours
    return sorted(found)


def _kill_pids(pids: Iterable[int], timeout: float = 3.0) -> None:
    """SIGTERM the given processes, then SIGKILL what is still alive after ``timeout``."""
    pids = list(pids)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pids = [pid for pid in pids if _alive(pid)]
            if not pids:
                return
            time.sleep(0.02)


def _kill_all(find: Callable[[], list[int]], timeout: float = 15.0) -> None:
    """Kill what ``find`` lists until it lists nothing (a browser may spawn a helper while its others
    die), or ``timeout`` passes (a loaded machine may take seconds to let a killed process go)."""
    deadline = time.monotonic() + timeout
    while (pids := find()) and time.monotonic() < deadline:
        _kill_pids(pids)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _stop_process(proc: subprocess.Popen[bytes] | None, timeout: float = 3.0) -> None:
    """Terminate a process we started (and its process group), then reap it."""
    if proc is None:
        return
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout)
    else:
        proc.wait()


def _tail(output: IO[bytes], limit: int = 600) -> str:
    """The last ``limit`` bytes a process wrote to ``output``, as one line of text."""
    output.flush()
    size = output.seek(0, os.SEEK_END)
    output.seek(max(0, size - limit))
    return " | ".join(output.read().decode("utf-8", "replace").split("\n")).strip(" |")


def _poll(what: str, check, timeout: float, interval: float = 0.02):  # type: ignore[no-untyped-def]
    """Call ``check()`` until it returns something truthy; raise :class:`ClientError` on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise ClientError(f"timed out after {timeout:.1f} s waiting for {what}")
        time.sleep(interval)


def exit_on_sigterm() -> None:
    """Turn SIGTERM into ``SystemExit``, so ``with`` blocks stop the clients and displays they started."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))


# -- the virtual display -------------------------------------------------------------------------


def display_env(display: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment with ``DISPLAY`` set (and ``extra`` added)."""
    env = dict(os.environ)
    env["DISPLAY"] = display
    env.update(extra or {})
    return env


def display_numbers() -> list[int | None]:
    """The X display numbers to try: ``$MINEBOT_DISPLAYS`` (``"71-79"``: a range kept for this user on a
    shared machine), else ``[None]`` (Xvfb picks the first free one)."""
    spec = os.environ.get("MINEBOT_DISPLAYS", "").strip()
    if not spec:
        return [None]
    first, _, last = spec.partition("-")
    try:
        return list(range(int(first), int(last or first) + 1)) or [None]
    except ValueError:
        raise ClientError(f"MINEBOT_DISPLAYS should be N or N-M (display numbers), not {spec!r}") from None


def _display_name(display: VirtualDisplay | str) -> str:
    return display.display if isinstance(display, VirtualDisplay) else display


class VirtualDisplay:
    """An ``Xvfb`` screen on a free display number, killed on exit with everything that ran on it.

    ``display`` is ``":N"`` and ``env`` is an environment for programs that should draw there.

    Raises:
        ClientUnavailableError: when Xvfb is not installed.
        ClientError: when Xvfb does not come up within ``timeout`` seconds.
    """

    def __init__(self, width: int = SCREEN_SIZE[0], height: int = SCREEN_SIZE[1], timeout: float = 10.0):
        self.width, self.height, self.timeout = width, height, timeout
        self.display = ""
        self.env: dict[str, str] = {}
        self._proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> VirtualDisplay:
        xvfb = find_program("Xvfb")
        numbers = display_numbers()
        for number in numbers[:-1]:
            try:
                return self._start(xvfb, number)
            except ClientError:
                LOGGER.info("display :%d is taken; trying the next", number)
        return self._start(xvfb, numbers[-1])

    def _start(self, xvfb: str, number: int | None) -> VirtualDisplay:
        """Start Xvfb on display ``number`` (any free one when ``None``)."""
        read_fd, write_fd = os.pipe()
        try:
            self._proc = subprocess.Popen(
                [xvfb, *([f":{number}"] if number is not None else [])]
                + ["-displayfd", str(write_fd), "-screen", "0", f"{self.width}x{self.height}x24"]
                + ["-nolisten", "tcp", "-noreset"],
                pass_fds=(write_fd,),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            os.close(write_fd)
            write_fd = -1
            number = self._read_display_number(read_fd)
        except BaseException:
            self.close()
            raise
        finally:
            os.close(read_fd)
            if write_fd >= 0:
                os.close(write_fd)
        self.display = f":{number}"
        self.env = display_env(self.display)
        socket = Path(f"/tmp/.X11-unix/X{number}")
        _poll(f"the X socket {socket}", socket.exists, self.timeout)
        LOGGER.info("Xvfb %s is up (%dx%d, pid %d)", self.display, self.width, self.height, self._proc.pid)
        return self

    def _read_display_number(self, read_fd: int) -> int:
        """Xvfb writes its display number to the pipe once it accepts connections."""
        import select

        data = b""
        deadline = time.monotonic() + self.timeout
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or (self._proc and self._proc.poll() is not None):
                raise ClientError("Xvfb did not start (no display number reported)")
            ready, _, _ = select.select([read_fd], [], [], min(left, 0.2))
            if ready:
                chunk = os.read(read_fd, 64)
                if not chunk:
                    raise ClientError("Xvfb exited before reporting its display number")
                data += chunk
        return int(data.strip())

    def pids(self) -> list[int]:
        """Processes still running on this display (found by ``DISPLAY`` in their environment)."""
        return processes_with_env("DISPLAY", self.display) if self.display else []

    def close(self) -> None:
        """Kill every process on this display, then Xvfb. Safe to call twice."""
        if self.display:
            _kill_all(self.pids)
        _stop_process(self._proc)
        self._proc = None

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


# -- looking and clicking ------------------------------------------------------------------------


def screenshot(display: VirtualDisplay | str, region: Region | None = None) -> np.ndarray:
    """A BGR image of ``region`` (default: the whole screen) on an X display, via mss."""
    import mss

    factory = getattr(mss, "MSS", None) or mss.mss
    with factory(display=_display_name(display)) as grabber:
        if region is None:
            mon = grabber.monitors[0]
            area = {"left": mon["left"], "top": mon["top"], "width": mon["width"], "height": mon["height"]}
        else:
            area = {"left": region.left, "top": region.top, "width": region.width, "height": region.height}
        return np.ascontiguousarray(np.asarray(grabber.grab(area))[:, :, :3])


def wait_stable(
    display: VirtualDisplay | str, region: Region | None = None, timeout: float = 3.0, interval: float = 0.01
) -> np.ndarray:
    """Grab until two consecutive grabs of ``region`` are identical; returns that image.

    Raises:
        ClientError: when the picture is still changing after ``timeout`` seconds.
    """
    previous = screenshot(display, region)
    deadline = time.monotonic() + timeout
    while True:
        time.sleep(interval)
        current = screenshot(display, region)
        if np.array_equal(current, previous):
            return current
        if time.monotonic() > deadline:
            raise ClientError(f"the screen in {region} kept changing for {timeout:.1f} s")
        previous = current


def xdotool(display: VirtualDisplay | str, *args: str) -> str:
    """Run ``xdotool ARGS`` on a display and return its output."""
    result = subprocess.run(
        [find_program("xdotool"), *args],
        env=display_env(_display_name(display)),
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    if result.returncode not in (0, 1):  # 1 = search found nothing
        raise ClientError(f"xdotool {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def park_point(display: VirtualDisplay | str) -> tuple[int, int]:
    """Near the bottom-right corner of the display's own screen (:data:`POINTER_PARK` on the standard
    size): on a larger screen the standard point can lie over the board (JSMinesweeper labels a cell)."""
    if isinstance(display, VirtualDisplay):
        return display.width - 5, display.height - 5
    try:
        width, height = map(int, xdotool(display, "getdisplaygeometry").split())
    except (MinebotError, ValueError):
        return POINTER_PARK
    return width - 5, height - 5


def click(display: VirtualDisplay | str, x: int, y: int, button: int = 1) -> None:
    """Click at screen pixel (x, y) with ``button`` (1 left, 2 middle, 3 right), then park the pointer."""
    if button not in (1, 2, 3):
        raise ValueError(f"mouse button must be 1, 2 or 3, got {button!r}")
    park = map(str, park_point(display))
    xdotool(display, "mousemove", str(x), str(y), "click", str(button), "mousemove", *park)


def move_pointer_away(display: VirtualDisplay | str) -> None:
    """Park the pointer in the bottom-right corner, so it neither highlights nor covers a cell."""
    xdotool(display, "mousemove", *map(str, park_point(display)))


def find_windows(display: VirtualDisplay | str, *search: str) -> list[tuple[int, Region]]:
    """Visible windows matching an ``xdotool search`` query, with their screen regions."""
    found = []
    for line in xdotool(display, "search", "--onlyvisible", *search).split():
        geometry = xdotool(display, "getwindowgeometry", "--shell", line)
        values = dict(re.findall(r"(\w+)=(-?\d+)", geometry))
        if {"X", "Y", "WIDTH", "HEIGHT"} <= values.keys():
            x, y, w, h = (int(values[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
            found.append((int(line), Region(x, y, max(w, 1), max(h, 1))))
    return found


# -- real clients ----------------------------------------------------------------------------------


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


WINE_REG_VALUES = (
    "Difficulty",
    "Width",
    "Height",
    "Mines",
    "Xpos",
    "Ypos",
    "Mark",
    "Time1",
    "Time2",
    "Time3",
)


def wine_template_prefix() -> Path:
    """Where the shared, pristine Wine prefix lives (``$MINEBOT_WINE_TEMPLATE`` or the user cache)."""
    if os.environ.get("MINEBOT_WINE_TEMPLATE"):
        return Path(os.environ["MINEBOT_WINE_TEMPLATE"])
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "minebot" / "wineprefix"


def wine_env(prefix: Path, display: str) -> dict[str, str]:
    """Environment for Wine on a display: private prefix, no debug noise, no Mono/Gecko prompts."""
    return display_env(
        display, {"WINEPREFIX": str(prefix), "WINEDEBUG": "-all", "WINEDLLOVERRIDES": "mscoree,mshtml="}
    )


def ensure_wine_template(display: str, timeout: float = 120.0) -> Path:
    """Create the shared Wine prefix once (7-12 s); later clients clone it in milliseconds."""
    template = wine_template_prefix()
    ready = template / ".minebot-ready"
    if ready.exists():
        return template
    template.parent.mkdir(parents=True, exist_ok=True)
    with open(template.parent / "wineprefix.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ready.exists():
            return template
        shutil.rmtree(template, ignore_errors=True)
        LOGGER.info("creating the Wine prefix %s (once)", template)
        env = wine_env(template, display)
        wine = find_program("wine")
        try:
            subprocess.run([wine, "wineboot", "--init"], env=env, capture_output=True, timeout=timeout)
            subprocess.run([find_program("wineserver"), "-w"], env=env, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise ClientError(f"creating the Wine prefix {template} took over {timeout:.0f} s") from exc
        finally:
            _kill_pids(processes_with_env("WINEPREFIX", str(template)))
        if not (template / "user.reg").is_file():
            raise ClientError(f"wineboot did not create a Wine prefix in {template}")
        ready.touch()
    return template


def clone_wine_prefix(template: Path, target: Path) -> None:
    """A private prefix: ``drive_c`` hard-linked (read-only use), registry files copied."""
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-al", str(template / "drive_c"), str(target)], check=True)
    shutil.copytree(template / "dosdevices", target / "dosdevices", symlinks=True)
    for item in template.iterdir():
        if item.is_file() and item.name != "wineserver" and not item.name.startswith(".minebot"):
            shutil.copy2(item, target / item.name)


def write_winemine_settings(prefix: Path, values: dict[str, int]) -> None:
    """Put winemine's settings into the prefix's ``user.reg`` (Wine is not running, so this is safe)."""
    user_reg = prefix / "user.reg"
    text = user_reg.read_text(encoding="utf-8", errors="surrogateescape")
    text = re.sub(r"\n\[Software\\\\Microsoft\\\\WinMine\][^\[]*", "\n", text)
    lines = [f"\n[Software\\\\Microsoft\\\\WinMine] {int(time.time())}\n"]
    lines += [f'"{key}"=dword:{value:08x}\n' for key, value in values.items()]
    user_reg.write_text(text.rstrip("\n") + "\n" + "".join(lines), encoding="utf-8", errors="surrogateescape")


def _level_size(level: str | tuple[int, int, int]) -> tuple[int, int, int, int]:
    """(difficulty, rows, cols, mines) for winemine: 0-2 for the standard levels, 3 for custom."""
    if isinstance(level, tuple):
        rows, cols, mines = level
        return 3, rows, cols, mines
    found = find_level(level)
    names = list(LEVELS)
    difficulty = names.index(found.name) if found.name in LEVELS else 3
    return difficulty, found.rows, found.cols, found.mines


class WineMine(RealClient):
    """Wine's ``winemine`` in a private prefix, set up through the registry before launch.

    ``level`` is ``"beginner"``, ``"intermediate"``, ``"expert"``, ``"ROWSxCOLS/MINES"`` or a
    ``(rows, cols, mines)`` tuple (winemine allows 9-24 rows, 9-30 columns).
    """

    name = "winemine"
    skin_name = "winemine"
    first_click_rule = FirstClickRule.SAFE
    new_game = "face"
    layout = ClientLayout(board_dx=5, board_dy=52, pitch=16, face_dx=-12, face_dy=24, face_size=24)
    search = ("--classname", "winemine")

    def __init__(
        self,
        display: VirtualDisplay | str,
        level: str | tuple[int, int, int] = "expert",
        timeout: float = 60.0,
    ) -> None:
        difficulty, rows, cols, mines = _level_size(level)
        if not (9 <= rows <= 24 and 9 <= cols <= 30 and 10 <= mines <= (rows - 1) * (cols - 1)):
            raise ValueError(f"winemine cannot play {rows}x{cols} with {mines} mines")
        super().__init__(display, rows, cols, mines, timeout)
        self.difficulty = difficulty
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self.prefix: Path | None = None

    def env(self) -> dict[str, str]:
        assert self.prefix is not None
        return wine_env(self.prefix, self.display)

    def command(self) -> list[str]:
        return [find_program("wine"), "winemine"]

    def start(self) -> None:
        if self.prefix is None:
            template = ensure_wine_template(self.display)
            self._tmp = tempfile.TemporaryDirectory(prefix="minebot-wine-")
            self.prefix = Path(self._tmp.name)
            clone_wine_prefix(template, self.prefix)
            values = dict.fromkeys(WINE_REG_VALUES, 0)
            values.update(Difficulty=self.difficulty, Width=self.cols, Height=self.rows, Mines=self.mines)
            write_winemine_settings(self.prefix, values)
        super().start()

    def owned_pids(self) -> list[int]:
        """Every process running in this client's Wine prefix (winemine, wineserver, helpers)."""
        return processes_with_env("WINEPREFIX", str(self.prefix)) if self.prefix else []

    def stop(self) -> None:
        """Kill winemine, then ``wineserver -k``, then anything still running in the prefix."""
        super().stop()
        if self.prefix is not None:
            with contextlib.suppress(subprocess.TimeoutExpired, ClientUnavailableError):
                subprocess.run(
                    [find_program("wineserver"), "-k"], env=self.env(), capture_output=True, timeout=10
                )
            _kill_pids(self.owned_pids())

    def close(self) -> None:
        self.stop()
        if self._tmp is not None:
            self._tmp.cleanup()
        self._tmp, self.prefix = None, None

    def restart(self) -> None:
        """A new game with the same settings: click the face."""
        click(self.display, *self.face_center())
        wait_stable(self.display, self.board_geometry().region())


class XDemineur(RealClient):
    """``xdemineur -geometry COLSxROWS+0+0 -m MINES`` (at least 12 columns; no first-click safety).

    It opens a random zero region by itself at start-up. Its face button resets the mine count to
    the default, so :meth:`restart` starts a new process instead.
    """

    name = "xdemineur"
    skin_name = "xdemineur"
    first_click_rule = FirstClickRule.NONE
    new_game = "restart"
    layout = ClientLayout(board_dx=17, board_dy=82, pitch=21, face_dx=-19, face_dy=21, face_size=40)
    search = ("--classname", "xdemineur")

    def __init__(
        self,
        display: VirtualDisplay | str,
        rows: int = 16,
        cols: int = 30,
        mines: int = 99,
        timeout: float = 20.0,
    ) -> None:
        if cols < 12 or rows < 1 or not 0 < mines < rows * cols:
            raise ValueError(f"xdemineur cannot play {rows}x{cols} with {mines} mines (needs >= 12 columns)")
        super().__init__(display, rows, cols, mines, timeout)

    def command(self) -> list[str]:
        return [find_program("xdemineur"), "-geometry", f"{self.cols}x{self.rows}+0+0", "-m", str(self.mines)]


CLIENTS: dict[str, type[RealClient]] = {"winemine": WineMine, "xdemineur": XDemineur}
"""The real clients the harness can run, by name."""


@contextlib.contextmanager
def running(client: str, rows: int, cols: int, mines: int) -> Iterator[tuple[VirtualDisplay, RealClient]]:
    """A virtual display with one client on it, sized ``rows`` x ``cols`` with ``mines`` mines."""
    if client not in CLIENTS:
        raise ValueError(f"unknown client {client!r}: use one of {', '.join(CLIENTS)}")
    with VirtualDisplay() as vd:
        game: RealClient
        game = WineMine(vd, (rows, cols, mines)) if client == "winemine" else XDemineur(vd, rows, cols, mines)
        with game:
            yield vd, game
