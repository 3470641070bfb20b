"""What ``minebot play`` can be told, and how a new game is started.

>>> parse_new_game("click:-40,-30")
NewGame(way='click', point=(-40, -30))
>>> parse_new_game("F2").way
'F2'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bot.game import FirstClickRule
from bot.skin import NEW_GAME_WAYS as SKIN_NEW_GAME_WAYS

NEW_GAME_WAYS = ("auto", *SKIN_NEW_GAME_WAYS, "click")
"""How a new game starts: ``auto`` tries the skin's way, then the face, the keys and a restart, and keeps the
first one that shows a fresh game; ``click:DX,DY`` clicks a button (a "New" or "Restart" button) at
that offset in pixels from the board's top-left corner, so it follows the window when it moves."""


@dataclass(frozen=True)
class NewGame:
    """One way to start a new game; ``point`` is the board-relative button for ``click``."""

    way: str = "auto"
    point: tuple[int, int] | None = None

    def __str__(self) -> str:
        return f"click:{self.point[0]},{self.point[1]}" if self.point else self.way


def parse_new_game(text: str) -> NewGame:
    """A :class:`NewGame` from ``auto``, ``face``, a key (``F2``, ``ctrl+r``, ``ctrl+n``; any case),
    ``restart`` or ``click:DX,DY``.

    Raises:
        ValueError: for anything else, naming the accepted forms.
    """
    if text.startswith("click:"):
        try:
            dx, dy = (int(v) for v in text.removeprefix("click:").split(","))
        except ValueError:
            raise ValueError(
                f"bad new-game button {text!r}: use click:DX,DY (pixels from the board's corner)"
            ) from None
        return NewGame("click", (dx, dy))
    text = {way.lower(): way for way in NEW_GAME_WAYS}.get(text.lower(), text)
    if text not in NEW_GAME_WAYS or text == "click":
        ways = ", ".join(NEW_GAME_WAYS[:-1])
        raise ValueError(f"unknown new-game way {text!r}: use {ways} or click:DX,DY")
    return NewGame(text)


@dataclass
class PlayOptions:
    """Everything ``minebot play`` can be told; defaults are what a user expects."""

    games: int = 1
    mines: int | None = None
    """Total mines; default: the standard level's count for the board size, else the client's counter."""
    rule: FirstClickRule | None = None
    """First-click rule; default: observed (see :mod:`bot.agent.firstclick`)."""
    skin: str = "auto"
    flags: bool = False
    """Flag certain mines and chord where one chord opens two or more cells."""
    delay: float = 0.0
    """A politeness delay between clicks, in seconds."""
    dry_run: bool = False
    """Watch the screen and report moves; click nothing."""
    save_frames: Path | None = None
    time_limit: float | None = None
    """Stop the session after this many seconds."""
    retries: int = 5
    """Re-captures of an uncertain or inconsistent reading before looking for the board again."""
    retry_wait: float = 0.03
    """Seconds before the first re-capture; the n-th waits n times as long (0.45 s in all)."""
    settle_timeout: float = 3.0
    """How long to wait for the screen to change and settle after a click."""
    poll: float = 0.004
    """Seconds between grabs while waiting for the screen to settle."""
    quiet: float = 0.015
    """The screen counts as settled once unchanged for this long (seconds)."""
    cover_wait: float = 10.0
    """How long to wait, looking for the board again, while it is covered or gone (seconds)."""
    cover_poll: float = 0.25
    """Seconds between looks while the board is covered or gone."""
    new_game: NewGame = field(default_factory=NewGame)
    restart_wait: float = 15.0
    """How long a restarted client may take to show its new board (seconds)."""
    learn: bool = True
    """Learn a cell state the skin lacks when the board forces it (in memory)."""
    save_learned: bool = False
    """Also save learned states into the skin's folder."""
    results_log: Path | None = None
