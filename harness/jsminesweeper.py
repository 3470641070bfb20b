"""JSMinesweeper (a canvas web client) in Chromium on a virtual display, with its exact game state.

The page is served from ``$MINEBOT_JSMINESWEEPER`` (default ``/work/shared/clients/jsminesweeper``,
never copied into the repo) by ``python -m http.server`` on a free loopback port, and opened with
``chromium --app=...`` at a chosen device scale factor (the browser zoom). Moves are real clicks on
the screen; the DevTools pipe (harness.cdp) is used only to set the page's tile size and to read
its own ``board`` object for the exact truth of a capture.

How truth is derived: the page draws each tile from its ``board.tiles`` state (main.js,
``renderTiles``): a mine shown at the end is a bomb (exploded if it was the one clicked), a flag is a
flag (a wrong flag once the game shows that the cell held no mine), a covered tile is covered, and
an open tile shows its value. :meth:`JSMinesweeper.truth` evaluates the same rule in the page and
refuses states the rule does not name (skull, start marker, the "reduction" display option).

Geometry: the canvas rectangle in CSS pixels times ``devicePixelRatio``, plus the window origin
(``--app`` windows have no browser frame, and without a window manager ``outer == inner`` size).
Cells are ``tile * zoom`` device pixels, so zoom 1.25 gives a fractional pitch and origin.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from bot.board import Board, Coord
from bot.game import FirstClickRule
from bot.geometry import Geometry, Region
from harness.cdp import CdpError, DevToolsPipe
from harness.realclients import (
    ClientError,
    ClientUnavailableError,
    RealClient,
    VirtualDisplay,
    _kill_all,
    _poll,
    _stop_process,
    click,
    display_env,
    find_program,
    move_pointer_away,
    processes_with_env,
    wait_stable,
)

CLIENT_DIR = Path(os.environ.get("MINEBOT_JSMINESWEEPER", "/work/shared/clients/jsminesweeper"))
"""Where the JSMinesweeper page lives (read-only; served, never copied)."""
TILE_SIZES = tuple(range(8, 61, 4))
"""The page's "Tile size" menu: 8 to 60 px in steps of 4 (24 by default)."""

TRUTH_JS = """
(() => {
  const rows = [];
  for (let y = 0; y < board.height; y++) {
    let row = "";
    for (let x = 0; x < board.width; x++) {
      const tile = board.tiles[y * board.width + x];
      let ch;
      if (tile.isBomb()) ch = tile.exploded ? "X" : "*";
      else if (tile.isFlagged()) ch = (tile.isBomb() == null) ? "F" : "W";
      else if (tile.isSkull() || (tile.isCovered() && tile.is_start)) ch = "?";
      else if (tile.isCovered()) ch = ".";
      else ch = String(tile.getValue());
      row += ch;
    }
    rows.push(row);
  }
  return {rows: rows, mines: board.num_bombs, over: board.isGameover(), won: board.won,
          reduction: document.getElementById("reduction").checked};
})()
"""

LAYOUT_JS = """
(() => {
  const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();
                        return [r.left, r.top, r.width, r.height]; };
  return {dpr: devicePixelRatio, canvas: box("myCanvas"), face: box("newGameSmiley"),
          counter: box("myMinesLeft"), tile: TILE_SIZE, width: board.width, height: board.height,
          inner: [innerWidth, innerHeight], outer: [outerWidth, outerHeight]};
})()
"""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class JSMinesweeper(RealClient):
    """JSMinesweeper at ``tile`` CSS px per cell and browser ``zoom``, ``cols`` x ``rows`` with ``mines``.

    The first game uses ``seed`` (reproducible for a given first click); :meth:`restart` clicks the
    face, which starts a game with a random seed. The first click is always safe (the page places
    the mines after it, away from the clicked cell), not always an opening (observed: 0 of 30 random
    first clicks lost, 4 of 30 opened an area).
    """

    name = "jsminesweeper"
    skin_name = ""
    first_click_rule = FirstClickRule.SAFE
    new_game = "face"
    search = ("--name", "Minesweeper player")

    def __init__(
        self,
        display: VirtualDisplay | str,
        rows: int = 16,
        cols: int = 30,
        mines: int = 99,
        tile: int = 24,
        zoom: float = 1.0,
        seed: int = 1,
        timeout: float = 40.0,
    ) -> None:
        if tile not in TILE_SIZES:
            raise ValueError(
                f"tile size {tile} is not on the page's menu ({TILE_SIZES[0]}-{TILE_SIZES[-1]} by 4)"
            )
        if not 0.5 <= zoom <= 4:
            raise ValueError(f"zoom {zoom} is outside 0.5-4")
        if rows < 1 or cols < 1 or not 0 < mines < rows * cols:
            raise ValueError(f"JSMinesweeper cannot play {rows}x{cols} with {mines} mines")
        super().__init__(display, rows, cols, mines, timeout)
        self.tile, self.zoom, self.seed = tile, zoom, seed
        self.screen = display if isinstance(display, VirtualDisplay) else None
        self.server: subprocess.Popen[bytes] | None = None
        self.pipe: DevToolsPipe | None = None
        self._profile: tempfile.TemporaryDirectory[str] | None = None
        self._layout: dict | None = None
        self._marker = f"{os.getpid()}-{id(self)}"

    def url(self, port: int) -> str:
        return (
            f"http://127.0.0.1:{port}/index.html?board={self.cols}x{self.rows}x{self.mines}&seed={self.seed}"
        )

    def command(self, port: int = 0) -> list[str]:
        assert self._profile is not None
        width, height = (
            self.screen.width if self.screen else 1600,
            self.screen.height if self.screen else 1000,
        )
        return [
            find_program("chromium"),
            "--no-sandbox",
            "--no-first-run",
            "--disable-gpu",
            "--test-type",
            "--disable-features=Translate",
            "--window-position=0,0",
            # the window size is in CSS px: at zoom z it covers size * z device pixels
            f"--window-size={int(width / self.zoom)},{int(height / self.zoom)}",
            f"--force-device-scale-factor={self.zoom}",
            f"--user-data-dir={self._profile.name}",
            "--remote-debugging-pipe",
            f"--app={self.url(port)}",
        ]

    def start(self) -> None:
        """Serve the page, start Chromium on it, set the tile size, wait until the board is drawn."""
        if not (CLIENT_DIR / "index.html").is_file():
            raise ClientUnavailableError(f"JSMinesweeper is not at {CLIENT_DIR}")
        port = free_port()
        self.server = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
            cwd=CLIENT_DIR,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self._profile = tempfile.TemporaryDirectory(prefix="minebot-chromium-")
        self.pipe = DevToolsPipe()
        command = self.command(port)
        self.proc = subprocess.Popen(
            command,
            env=self.env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=self.pipe.child_setup,  # noqa: PLW1509 (fds 3 and 4 must be set before exec)
            pass_fds=(3, 4),
        )
        self.pipe.after_spawn()
        self.pipe.attach_page("index.html", timeout=self.timeout)
        _poll("the page's board", self._page_ready, self.timeout, 0.1)
        if self.tile != 24:
            self.pipe.evaluate(f"docTileSize.value = '{self.tile}'; changeTileSize(false); true")
        self._window = _poll("the Chromium window", self._find_window, self.timeout, 0.05)
        self.refresh_layout()
        move_pointer_away(self.display)
        _poll("JSMinesweeper to draw its board", self._board_drawn, self.timeout, 0.05)

    def _page_ready(self) -> bool:
        assert self.pipe is not None
        with contextlib.suppress(CdpError):
            return bool(
                self.pipe.evaluate("typeof board !== 'undefined' && board !== null && board.tiles.length > 0")
            )
        return False

    def refresh_layout(self) -> dict:
        """Read the canvas, face and counter rectangles (CSS px) and the device pixel ratio."""
        assert self.pipe is not None
        layout = self.pipe.evaluate(LAYOUT_JS)
        if (layout["width"], layout["height"]) != (self.cols, self.rows):
            raise ClientError(
                f"the page shows {layout['width']}x{layout['height']}, not {self.cols}x{self.rows}"
            )
        if layout["tile"] != self.tile:
            raise ClientError(f"the page's tile size is {layout['tile']}, not {self.tile}")
        if abs(layout["dpr"] - self.zoom) > 1e-6:
            raise ClientError(f"the page's device pixel ratio is {layout['dpr']}, not {self.zoom}")
        self._layout = layout
        return layout

    def _css_region(self, box: list[float]) -> Region:
        win, dpr = self.window_region(), self.zoom
        left, top = win.left + box[0] * dpr, win.top + box[1] * dpr
        right, bottom = left + box[2] * dpr, top + box[3] * dpr
        return Region(round(left), round(top), round(right) - round(left), round(bottom) - round(top))

    def board_geometry(self) -> Geometry:
        """Cell (0, 0) at the canvas origin; pitch ``tile * zoom`` device pixels (may be fractional)."""
        assert self._layout is not None, "not started"
        win, dpr, canvas = self.window_region(), self.zoom, self._layout["canvas"]
        pitch = self.tile * dpr
        face = self._css_region(self._layout["face"])
        return Geometry(
            win.left + canvas[0] * dpr, win.top + canvas[1] * dpr, pitch, pitch, self.rows, self.cols, face
        )

    def client_region(self) -> Region:
        """The game's own area on screen: the counter, face and board (what a capture keeps)."""
        assert self._layout is not None, "not started"
        region = self.board_geometry().region()
        for box in ("counter", "face"):
            region = region.union(self._css_region(self._layout[box]))
        pad = round(8 * self.zoom)
        return Region(region.left - pad, region.top - pad, region.width + 2 * pad, region.height + 2 * pad)

    def truth(self) -> tuple[Board, str]:
        """The board as the page draws it now, and its status (``playing``, ``won``, ``lost``).

        Raises:
            ClientError: for a state the page's drawing rule does not map to a board cell.
        """
        assert self.pipe is not None, "not started"
        state = self.pipe.evaluate(TRUTH_JS)
        if state["reduction"]:
            raise ClientError("the page's 'Reduction' option changes the drawn numbers; turn it off")
        text = "\n".join(state["rows"])
        if "?" in text:
            raise ClientError("the page shows a skull or start marker, which the board format cannot hold")
        status = "won" if state["won"] else "lost" if state["over"] else "playing"
        return Board.from_text(text, mines=int(state["mines"])), status

    def load_layout(self, mines: set[Coord]) -> None:
        """A new game with these mines, through the page's own MBF loader (``newGameFromMBF``).

        For test pictures that must show given numbers (every digit 1-8); play stays real clicks.
        """
        assert self.pipe is not None, "not started"
        if any(not (0 <= r < self.rows and 0 <= c < self.cols) for r, c in mines):
            raise ValueError("a mine outside the board")
        data = [self.cols, self.rows, len(mines) // 256, len(mines) % 256]
        for r, c in sorted(mines):
            data += [c, r]
        self.pipe.evaluate(f"newGameFromMBF(new Uint8Array({data}).buffer).then(() => true)")
        self.mines = len(mines)
        _poll("the loaded board", lambda: self.truth()[0].is_fresh(), 5.0, 0.05)
        self.refresh_layout()
        wait_stable(self.display, self.board_geometry().region())

    def restart(self) -> None:
        """A new game (random seed): click the face, then wait until the board is still."""
        click(self.display, *self.face_center())
        _poll("a fresh board", lambda: self.truth()[0].is_fresh(), 5.0, 0.05)
        wait_stable(self.display, self.board_geometry().region())

    def env(self) -> dict[str, str]:
        """The display's environment, marked so that every Chromium helper process can be found."""
        return display_env(self.display, {"MINEBOT_CHROMIUM": self._marker})

    def owned_pids(self) -> list[int]:
        """Chromium and all its helpers (by the marker in their environment), and the page server."""
        pids = processes_with_env("MINEBOT_CHROMIUM", self._marker)
        if self.server is not None and self.server.poll() is None:
            pids.append(self.server.pid)
        return sorted(pids)

    def stop(self) -> None:
        """Stop Chromium (its whole process group), the page server, and drop the profile."""
        super().stop()
        _kill_all(lambda: processes_with_env("MINEBOT_CHROMIUM", self._marker))
        _stop_process(self.server)
        self.server = None
        if self.pipe is not None:
            self.pipe.close()
            self.pipe = None
        if self._profile is not None:
            with contextlib.suppress(OSError):
                self._profile.cleanup()
            self._profile = None
        self._layout = None
