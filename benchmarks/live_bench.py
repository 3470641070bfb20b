"""Play Expert games on a real client under Xvfb and report win rate, game time and per-move latency.

Starts a private virtual screen and the client (Wine's winemine or xdemineur, via harness.realclients),
then plays through the real pipeline: mss capture, OpenCV reading, the solver, pyautogui clicks.
Every click is checked against the board the bot located, and every game's outcome is checked
against what the bot read. Used by the live end-to-end tests with a few games.

    python benchmarks/live_bench.py --client winemine --games 50 [--json out.json]

Wine's winemine seeds its mines with the current second at the first click, so two games started
in the same second get the same layout; this script starts each game in a new second to keep the
games independent (the wait is not counted in game time).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bot.agent import Player, PlayOptions  # noqa: E402
from bot.bench import wilson  # noqa: E402
from bot.capture import MssCapture  # noqa: E402
from bot.game import find_level  # noqa: E402
from bot.input import PyAutoGuiInput  # noqa: E402
from bot.progress import Progress  # noqa: E402
from harness.realclients import CLIENTS, VirtualDisplay  # noqa: E402

STEPS = ("capture", "classify", "solve", "click", "wait", "own")


class CheckedInput(PyAutoGuiInput):
    """Real pyautogui input that also checks every click against the board located at that moment.

    Independent of the input guard: it asks the player where the board and face are.
    """

    def __init__(self) -> None:
        super().__init__()
        self.player: Player | None = None
        self.outside: list[str] = []

    def _click(self, x: int, y: int, button: str) -> None:
        geometry = self.player.geometry if self.player else None
        board = geometry.region() if geometry else None
        face = geometry.face if geometry else None
        if not (board and board.contains(x, y)) and not (face and face.contains(x, y)):
            self.outside.append(f"{button} click at ({x}, {y}) outside board {board} and face {face}")
        super()._click(x, y, button)


@dataclass
class LiveReport:
    client: str
    level: str
    display: str = ""
    """The private X display the games ran on (nothing may be left running on it afterwards)."""
    games: int = 0
    wins: int = 0
    errors: list[str] = field(default_factory=list)
    clicks_outside: int = 0
    rereads: int = 0
    game_seconds: list[float] = field(default_factory=list)
    win_seconds: list[float] = field(default_factory=list)
    step_ms: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in STEPS})
    statuses: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        lo, hi = wilson(self.wins, self.games) if self.games else (math.nan, math.nan)

        def pct(values: list[float], q: float) -> float | None:
            return round(float(np.percentile(values, q)), 3) if values else None

        return {
            "client": self.client,
            "level": self.level,
            "display": self.display,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.wins / self.games if self.games else None,
            "ci95": [lo, hi],
            "statuses": self.statuses,
            "errors": self.errors,
            "clicks_outside_board": self.clicks_outside,
            "rereads": self.rereads,
            "mean_game_s": float(np.mean(self.game_seconds)) if self.game_seconds else None,
            "mean_win_s": float(np.mean(self.win_seconds)) if self.win_seconds else None,
            "best_win_s": min(self.win_seconds) if self.win_seconds else None,
            **{f"{s}_ms_p50": pct(v, 50) for s, v in self.step_ms.items()},
            **{f"{s}_ms_p99": pct(v, 99) for s, v in self.step_ms.items()},
        }

    def format(self) -> str:
        d = self.to_dict()
        lines = [
            f"{self.client} {self.level}: {self.wins}/{self.games} won = "
            f"{100 * (d['win_rate'] or 0):.1f}% (95% CI {100 * d['ci95'][0]:.1f}-{100 * d['ci95'][1]:.1f}%)",
            f"errors (misreads or stops): {len(self.errors)}; "
            f"clicks outside the board: {self.clicks_outside}; re-reads: {self.rereads}",
            f"game time: mean {d['mean_game_s'] or 0:.2f} s; wins: mean {d['mean_win_s'] or 0:.2f} s, "
            f"best {d['best_win_s'] or 0:.2f} s",
            "per move ms p50/p99: " + ", ".join(f"{s} {d[s + '_ms_p50']}/{d[s + '_ms_p99']}" for s in STEPS),
        ]
        return "\n".join(lines + [f"  error: {e}" for e in self.errors])


def _next_second() -> None:
    time.sleep(1.02 - time.time() % 1.0)


def run(
    client_name: str, games: int, level: str, save_frames: Path | None, quiet: bool, flags: bool = False
) -> LiveReport:
    lv = find_level(level)
    report = LiveReport(client_name, f"{lv.rows}x{lv.cols}/{lv.mines}")
    with VirtualDisplay() as vd:
        os.environ["DISPLAY"] = vd.display  # pyautogui binds to $DISPLAY when first imported
        report.display = vd.display
        client_cls = CLIENTS[client_name]
        client = (
            client_cls(vd, (lv.rows, lv.cols, lv.mines))
            if client_name == "winemine"
            else client_cls(vd, lv.rows, lv.cols, lv.mines)
        )
        with client, MssCapture(display=vd.display) as capture, CheckedInput() as mouse:
            options = PlayOptions(mines=lv.mines, skin=client.skin_name, save_frames=save_frames, flags=flags)
            player = Player(capture, mouse, options, restart=client.restart)
            mouse.player = player
            progress = Progress(games, f"{client_name} games", enabled=not quiet)
            for index in range(games):
                if index:
                    player.new_game()
                _next_second()
                result = player.play_game(index)
                report.clicks_outside += len(mouse.outside)
                report.errors.extend(f"game {index}: {text}" for text in mouse.outside)
                mouse.outside.clear()
                report.games += 1
                report.statuses.append(result.status)
                report.rereads += result.rereads
                report.game_seconds.append(result.seconds)
                if result.won:
                    report.wins += 1
                    report.win_seconds.append(result.seconds)
                if result.error:
                    report.errors.append(f"game {index}: {result.error}")
                for timing in result.timings:
                    for step in STEPS:
                        report.step_ms[step].append(getattr(timing, step))
                progress.update(1)
            progress.close()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--client", choices=sorted(CLIENTS), required=True)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--level", default="expert", help="expert (default), intermediate, beginner, RxC/M")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="write the report as JSON")
    parser.add_argument("--save-frames", type=Path, default=None, metavar="DIR")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--flags", action="store_true", help="flag certain mines and chord (as play --flags)")
    args = parser.parse_args(argv)
    report = run(args.client, args.games, args.level, args.save_frames, args.quiet, args.flags)
    print(report.format())
    if args.json:
        args.json.write_text(json.dumps(report.to_dict(), indent=2))
    return 0 if not report.errors and not report.clicks_outside else 1


if __name__ == "__main__":
    sys.exit(main())
