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

The harness is split by job: :mod:`harness.processes` (programs, processes, errors),
:mod:`harness.xdisplay` (Xvfb and xdotool), :mod:`harness.client` (the :class:`RealClient` base),
:mod:`harness.winemine` and :mod:`harness.xdemineur`; this module names them all in one place.

Cell geometry (measured on Debian 12, Wine 8.0, xdemineur 2.1.1; checked by the live tests):
winemine cells are 16 px with no grid line, the grid starts 5 px right of and 52 px below the window
origin; xdemineur cells are 20 px plus a 1 px black grid line (pitch 21), and cell (0, 0)'s first
pixel inside the grid lines is at (17, 82) in the window.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from harness.client import ClientLayout, RealClient
from harness.processes import (
    ClientError,
    ClientExitedError,
    ClientUnavailableError,
    _alive,
    _kill_all,
    _kill_pids,
    _poll,
    _stop_process,
    _tail,
    exit_on_sigterm,
    find_program,
    processes_with_env,
)
from harness.winemine import (
    WINE_REG_VALUES,
    WineMine,
    clone_wine_prefix,
    ensure_wine_template,
    wine_env,
    wine_template_prefix,
    write_winemine_settings,
)
from harness.xdemineur import XDemineur
from harness.xdisplay import (
    POINTER_PARK,
    SCREEN_SIZE,
    VirtualDisplay,
    _display_name,
    click,
    display_env,
    display_numbers,
    find_windows,
    move_pointer_away,
    park_point,
    screenshot,
    wait_stable,
    xdotool,
)

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


__all__ = [
    "CLIENTS",
    "ClientError",
    "ClientExitedError",
    "ClientLayout",
    "ClientUnavailableError",
    "POINTER_PARK",
    "RealClient",
    "SCREEN_SIZE",
    "VirtualDisplay",
    "WINE_REG_VALUES",
    "WineMine",
    "XDemineur",
    "_alive",
    "_display_name",
    "_kill_all",
    "_kill_pids",
    "_poll",
    "_stop_process",
    "_tail",
    "click",
    "clone_wine_prefix",
    "display_env",
    "display_numbers",
    "ensure_wine_template",
    "exit_on_sigterm",
    "find_program",
    "find_windows",
    "move_pointer_away",
    "park_point",
    "processes_with_env",
    "running",
    "screenshot",
    "wait_stable",
    "wine_env",
    "wine_template_prefix",
    "write_winemine_settings",
    "xdotool",
]
