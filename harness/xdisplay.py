"""The virtual X display the real clients run on (Xvfb), and what is done on it through xdotool: grab,
wait until still, click, park the pointer, find windows."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import time
from pathlib import Path
from types import TracebackType

import numpy as np

from bot.errors import MinebotError
from bot.geometry import Region
from harness.processes import (
    ClientError,
    _kill_all,
    _poll,
    _stop_process,
    find_program,
    processes_with_env,
)

LOGGER = logging.getLogger(__name__)


SCREEN_SIZE = (1600, 1000)
"""Default virtual screen size (width, height), as in the project's CLIENTS notes."""

POINTER_PARK = (SCREEN_SIZE[0] - 5, SCREEN_SIZE[1] - 5)
"""Where the pointer goes before a capture: far from any client window."""


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
