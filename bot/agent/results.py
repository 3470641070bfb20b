"""What a session played: per-move timings, per-game results, and the summary users compare."""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from bot.game import GameStatus


@dataclass
class MoveTiming:
    """Milliseconds spent in each step of one move."""

    capture: float = 0.0
    classify: float = 0.0
    solve: float = 0.0
    click: float = 0.0
    wait: float = 0.0
    cpu: float = 0.0
    """The bot's own CPU time on its thread (capture, classify, solve): what load does not inflate."""

    @property
    def own(self) -> float:
        """The bot's own time: capture + classify + solve (not the client's redraw)."""
        return self.capture + self.classify + self.solve


@dataclass
class GameResult:
    """How one game went (one JSON line of the results log, see :meth:`to_json`)."""

    game: int
    status: str
    seconds: float
    clicks: int = 0
    moves: int = 0
    guesses: int = 0
    reads: int = 0
    rereads: int = 0
    unnamed_reads: int = 0
    """Readings refused for a cell no reader could name, played on around it (moves certain anyway)."""
    error: str | None = None
    board: str = ""
    """``ROWSxCOLS/MINES`` as read (mines from --mines, the standard level or the client's counter)."""
    skin: str = ""
    rule: str = ""
    """The first-click rule played by (given, or as observed so far)."""
    ended_by: str = ""
    """How the end was seen: ``face``, ``board`` (exploded cell, all safe cells open), ``unreadable``
    (the last screen could not be read in full but the visible cells decide it), or '' while playing."""
    relocations: int = 0
    """Times the board was found again elsewhere on the screen (the window moved)."""
    covered_seconds: float = 0.0
    """Time spent recovering: looking for the board again, waiting while it was covered or gone."""
    learned: list[str] = field(default_factory=list)
    """Cell states learned mid-game (e.g. ``'6'``): the skin lacked them and the board forced them."""
    timings: list[MoveTiming] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return self.status == GameStatus.WON.value

    def to_json(self) -> str:
        """One line for the results log (timings summarised, not listed)."""
        data = {k: v for k, v in asdict(self).items() if k != "timings"}
        data["time"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        own = [t.own for t in self.timings]
        data["own_ms_p50"] = round(float(np.median(own)), 3) if own else None
        return json.dumps(data)


@dataclass
class SessionSummary:
    """What a session did: per-game results and the figures users compare."""

    results: list[GameResult]
    stopped: str | None = None
    interrupted: bool = False
    """Stopped by Ctrl-C: ``minebot play`` then exits 130, as a shell's interrupted command does."""
    new_game: str = ""
    """How new games were started (``face``, ``F2``, ``restart``, ``click``), once one was."""

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(r.won for r in self.results)

    def timing_percentiles(self, step: str) -> tuple[float, float]:
        """p50 and p99 milliseconds of one step (``capture``, ``own``, ...) over all moves."""
        values = [getattr(t, step) for r in self.results for t in r.timings]
        if not values:
            return (math.nan, math.nan)
        return (float(np.percentile(values, 50)), float(np.percentile(values, 99)))

    def played(self) -> str:
        """What was played: board size and mines, skin, first-click rule (as the last game saw them)."""
        if not self.results:
            return ""
        last = self.results[-1]
        rules = sorted({r.rule for r in self.results if r.rule})
        size, _, mines = last.board.partition("/")
        count = f" with {mines} mines" if mines.isdigit() else ", mine count unknown"
        board = f"a {size} board{count}" if size else "no board read"
        return f"{board}, skin {last.skin or '?'}, first-click rule {' then '.join(rules) or '?'}"

    def format(self) -> str:
        if not self.results:
            return "no game played" + (f" ({self.stopped})" if self.stopped else "")
        times = [r.seconds for r in self.results]
        won_times = [r.seconds for r in self.results if r.won]
        lines = [
            f"games {self.games}, wins {self.wins}, win rate {100 * self.wins / self.games:.1f}%",
            f"played: {self.played()}" + (f", new games by {self.new_game}" if self.new_game else ""),
            f"time per game: mean {np.mean(times):.2f} s"
            + (f", best win {min(won_times):.2f} s" if won_times else ""),
            f"clicks per game: {np.mean([r.clicks for r in self.results]):.1f}",
        ]
        moved = sum(r.relocations for r in self.results)
        covered = sum(r.covered_seconds for r in self.results)
        if moved or covered:
            lines.append(
                f"board found again after a move {moved} time(s); "
                f"{covered:.1f} s spent recovering (moved, covered)"
            )
        learned = sorted({s for r in self.results for s in r.learned})
        if learned:
            lines.append(f"learned unseen cell states: {', '.join(learned)}")
        steps = ("capture", "classify", "solve", "click", "wait", "own", "cpu")
        parts = [f"{s} {p50:.1f}/{p99:.1f}" for s in steps for p50, p99 in [self.timing_percentiles(s)]]
        lines.append("per move ms p50/p99: " + ", ".join(parts))
        if self.stopped:
            lines.append(f"stopped: {self.stopped}")
        return "\n".join(lines)
