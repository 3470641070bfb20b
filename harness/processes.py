"""Programs and processes for the real-client harness: find a program, stop what was started (by
process id), wait for a condition, and the errors a missing or failing client raises."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO

from bot.errors import MinebotError

LOGGER = logging.getLogger(__name__)


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
