"""Every real client the harness runs, by name, and how to start one for a board size and look.

>>> sorted(CLIENTS)
['ace', 'jsminesweeper', 'win7', 'winemine', 'xbomb', 'xdemineur']
>>> xbomb_level(16, 16, 40), xbomb_level(16, 30, 99)
(2, 3)
>>> screen_for("jsminesweeper", tile=32, zoom=1.75)
(2048, 1280)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

from harness.ace import AceMinesweeper
from harness.jsminesweeper import JSMinesweeper
from harness.realclients import SCREEN_SIZE, RealClient, VirtualDisplay, WineMine, XDemineur
from harness.win7 import ADVANCED as WIN7_LEVEL
from harness.win7 import Win7Minesweeper
from harness.xbomb import LEVELS as XBOMB_LEVELS
from harness.xbomb import XBomb

CLIENTS: dict[str, type[RealClient]] = {
    "winemine": WineMine,
    "xdemineur": XDemineur,
    "xbomb": XBomb,
    "ace": AceMinesweeper,
    "jsminesweeper": JSMinesweeper,
    "win7": Win7Minesweeper,
}
"""The real clients, by the name the benchmarks and tests use."""

PROGRAMS: dict[str, tuple[str, ...]] = {
    "winemine": ("Xvfb", "xdotool", "wine"),
    "xdemineur": ("Xvfb", "xdotool", "xdemineur"),
    "xbomb": ("Xvfb", "xdotool", "xbomb"),
    "ace": ("Xvfb", "xdotool", "ace-minesweeper"),
    "jsminesweeper": ("Xvfb", "xdotool", "chromium"),
    "win7": ("Xvfb", "xdotool"),  # and the built client: harness.win7.program() says when it is missing
}
"""Programs each client needs (tests skip when one is missing)."""


@dataclass(frozen=True)
class Look:
    """How a browser client is shown: tile size in CSS px and the browser zoom (device scale)."""

    tile: int = 24
    zoom: float = 1.0


def xbomb_level(rows: int, cols: int, mines: int) -> int:
    """The xbomb level playing ``rows`` x ``cols`` with ``mines`` (9x9/10 maps to its 8x8/10 level 1)."""
    for level, (r, c, m, _) in XBOMB_LEVELS.items():
        if (r, c, m) == (rows, cols, mines) or (level == 1 and (rows, cols, mines) == (9, 9, 10)):
            return level
    raise ValueError(f"xbomb has no {rows}x{cols}/{mines} level: 8x8/10, 16x16/40 or 16x30/99")


def screen_for(name: str, tile: int = 24, zoom: float = 1.0) -> tuple[int, int]:
    """A virtual screen large enough for the client (the browser at big tiles and zoom needs more)."""
    if name == "jsminesweeper" and tile * zoom > 36:
        return (2048, 1280)
    return SCREEN_SIZE


def make_client(
    name: str,
    display: VirtualDisplay | str,
    rows: int,
    cols: int,
    mines: int,
    look: Look | None = None,
    seed: int = 1,
) -> RealClient:
    """A client (not started) for the board size; ace plays only its own 32x32/200 board, win7 Advanced.

    Raises:
        ValueError: for an unknown client or a size it cannot play.
    """
    look = look or Look()
    if name == "winemine":
        return WineMine(display, (rows, cols, mines))
    if name == "xdemineur":
        return XDemineur(display, rows, cols, mines)
    if name == "xbomb":
        return XBomb(display, xbomb_level(rows, cols, mines))
    if name == "ace":
        return AceMinesweeper(display)
    if name == "jsminesweeper":
        return JSMinesweeper(display, rows, cols, mines, tile=look.tile, zoom=look.zoom, seed=seed)
    if name == "win7":
        if (rows, cols, mines) != WIN7_LEVEL:
            rows, cols, mines = WIN7_LEVEL
            raise ValueError(f"the win7 harness plays Advanced {rows}x{cols}/{mines} only")
        return Win7Minesweeper(display, seed=seed)
    raise ValueError(f"unknown client {name!r}: use one of {', '.join(CLIENTS)}")


@contextlib.contextmanager
def running(
    name: str, rows: int, cols: int, mines: int, look: Look | None = None
) -> Iterator[tuple[VirtualDisplay, RealClient]]:
    """A virtual display (sized for the client) with one started client on it."""
    look = look or Look()
    with (
        VirtualDisplay(*screen_for(name, look.tile, look.zoom)) as vd,
        make_client(name, vd, rows, cols, mines, look) as game,
    ):
        yield vd, game
