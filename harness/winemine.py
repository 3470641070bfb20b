"""Wine's ``winemine`` as a real client: a shared Wine prefix made once, cloned per client, and the
game's size set through the registry before launch."""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bot.game import LEVELS, FirstClickRule, find_level
from harness.client import ClientLayout, RealClient
from harness.processes import (
    ClientError,
    ClientUnavailableError,
    _kill_pids,
    find_program,
    processes_with_env,
)
from harness.xdisplay import VirtualDisplay, click, display_env, wait_stable

LOGGER = logging.getLogger(__name__)


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
