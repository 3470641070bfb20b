"""Play Expert games on a real client under Xvfb and report win rate, game time and per-move latency.

Starts a private virtual screen and the client (winemine, xdemineur, xbomb, ace or JSMinesweeper in
Chromium, via harness.clients), then plays through the real pipeline: mss capture, OpenCV reading,
the solver, pyautogui clicks. Every click is checked against the board the bot located at that
moment; where the harness has an exact truth reader (xbomb, ace, jsminesweeper) each game's end is
taken from the client's own account and compared with what the bot saw.

    python benchmarks/live_bench.py --client winemine --games 50 [--json out.json]
    python benchmarks/live_bench.py --client jsminesweeper --tile 24 --zoom 1.25 --games 30
    python benchmarks/live_bench.py --client xbomb --games 30 --move-every 15

Wine's winemine seeds its mines with the current second at the first click, so two games started
in the same second get the same layout; this script starts each game in a new second to keep the
games independent (the wait is not counted in game time).
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import logging
import math
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bot.agent import Player, PlayOptions  # noqa: E402
from bot.agent.results import GameResult  # noqa: E402
from bot.agent.stopping import ctrl_c_stops  # noqa: E402
from bot.bench import wilson  # noqa: E402
from bot.board import Board, Cell  # noqa: E402
from bot.capture import MssCapture  # noqa: E402
from bot.errors import AbortedError, MinebotError  # noqa: E402
from bot.game import find_level  # noqa: E402
from bot.input import PyAutoGuiInput  # noqa: E402
from bot.progress import Progress  # noqa: E402
from bot.vision.read import standard_mines  # noqa: E402
from harness.clients import CLIENTS, Look, make_client, screen_for  # noqa: E402
from harness.realclients import RealClient, VirtualDisplay, exit_on_sigterm  # noqa: E402

LOGGER = logging.getLogger("live_bench")
STEPS = ("capture", "classify", "solve", "click", "wait", "own", "cpu")


class CheckedInput(PyAutoGuiInput):
    """Real pyautogui input that checks every click against the board located at that moment.

    Twice: against where the player located the board and face, and against where the client
    really draws them now (the harness knows; it matters when the window moves under the bot).
    """

    def __init__(self) -> None:
        super().__init__()
        self.player: Player | None = None
        self.client: RealClient | None = None
        self.outside: list[str] = []

    def _note(self, x: int, y: int, button: str) -> None:
        """Record a click about to be sent outside the board (as located, or as really drawn)."""
        geometry = self.player.geometry if self.player else None
        board = geometry.region() if geometry else None
        face = self.player._face_region() if self.player else None  # a skin's face, else the one learned
        if not (board and board.contains(x, y)) and not (face and face.contains(x, y)):
            self.outside.append(f"{button} click at ({x}, {y}) outside board {board} and face {face}")
        elif self.client is not None and not on_client_board(self.client, x, y):
            real = self.client.board_geometry()
            self.outside.append(f"{button} click at ({x}, {y}) outside the real board {real.region()}")

    def _click(self, x: int, y: int, button: str) -> None:
        self._note(x, y, button)
        super()._click(x, y, button)

    def _guarded_click(self, x, y, action, expect, look, park=None):  # type: ignore[no-untyped-def]
        sent = super()._guarded_click(x, y, action, expect, look, park)
        if sent and self.holds_screen:  # a held click sends its own events (else through _click)
            self._note(x, y, action)
        return sent


def on_client_board(client: RealClient, x: int, y: int) -> bool:
    """True when (x, y) is on the client's board or face as it is drawn now."""
    real = client.board_geometry()
    return real.region().contains(x, y) or (real.face is not None and real.face.contains(x, y))


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
    unnamed_reads: int = 0
    """Readings refused for a cell no reader could name, played on around it."""
    game_seconds: list[float] = field(default_factory=list)
    win_seconds: list[float] = field(default_factory=list)
    win_split: list[dict[str, float]] = field(default_factory=list)
    """Where each won game's time went (:func:`time_split`)."""
    step_ms: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in STEPS})
    statuses: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    """The first-click rule each game was played by (given, the skin's, or observed so far)."""
    client_statuses: list[str] = field(default_factory=list)
    """Each game's end by the client's own account (exact truth), where the harness has a reader."""
    stops: int = 0
    """Games the bot ended without a win or a loss (it refused or gave up)."""
    relocations: int = 0
    moves_of_window: int = 0
    disagreements: int = 0
    """Games the bot called won or lost where the client's own account says otherwise (misreads)."""
    crashes: int = 0
    """Games in which the bot raised an unexpected exception (counted as stops too)."""
    new_game_way: str = ""
    """How the bot started its new games (``face``, ``F2``, ``restart`` = the harness's restart hook)."""
    mines_given: int | None = None
    """The mine count given to the bot (as ``--mines``, with ``--give-mines``) on a board of no standard
    size, else None: the bot takes the standard level's count, or reads the client's mine counter."""
    mine_sources: list[str] = field(default_factory=list)
    """Where each game's mine total came from (given, standard level, the client's mine counter)."""
    wrong_mines: int = 0
    """Games the bot played with a mine total other than the client's."""
    interrupted: str = ""
    """Why the run stopped before its last game (Ctrl-C, the fail-safe), else empty."""
    checked_reads: int = 0
    """Trusted readings compared cell by cell with the client's own account (``--check-reads``)."""
    misread_cells: int = 0
    """Cells a trusted reading showed revealed or flagged otherwise than the client's own account."""
    lagging_reads: int = 0
    """Checked readings that showed covered a cell the client's account has open (the drawing lagged)."""
    stale_guesses: int = 0
    """Of those, readings the bot guessed on (a guess on a board not yet drawn in full may be needless)."""
    per_game: list[dict[str, object]] = field(default_factory=list)
    """Each game in brief: how it ended and was seen, clicks, guesses, seconds (to classify its end)."""

    def add(
        self,
        index: int,
        result: GameResult,
        outcome: str,
        outside: list[str],
        mines: tuple[int, str] = (0, ""),
    ) -> None:
        """Record one game: the bot's result, the client's own outcome, clicks outside the board, and
        ``mines``: the client's mine total and where the bot's came from."""
        self.games += 1
        self.mine_sources.append(mines[1])
        played = result.board.rpartition("/")[2]
        if played.isdigit() and int(played) != mines[0]:
            self.wrong_mines += 1
            self.errors.append(
                f"game {index}: played with {played} mines ({mines[1]}), the client has {mines[0]}"
            )
        self.clicks_outside += len(outside)
        self.errors.extend(f"game {index}: {text}" for text in outside)
        self.statuses.append(result.status)
        self.rules.append(result.rule)
        self.per_game.append(
            {
                "status": result.status,
                "client": outcome,
                "ended_by": result.ended_by,
                "clicks": result.clicks,
                "guesses": result.guesses,
                "rereads": result.rereads,
                "unnamed_reads": result.unnamed_reads,
                "seconds": round(result.seconds, 3),
            }
        )
        self.client_statuses.append(outcome)
        self.rereads += result.rereads
        self.unnamed_reads += result.unnamed_reads
        self.relocations += result.relocations
        self.game_seconds.append(result.seconds)
        won = outcome == "won" if outcome in ("won", "lost", "playing") else result.won
        if won:
            self.wins += 1
            self.win_seconds.append(result.seconds)
            self.win_split.append(time_split(result))
        if result.status not in ("won", "lost"):
            self.stops += 1
        if result.error:
            self.errors.append(f"game {index}: {result.error}")
        if outcome and result.status in ("won", "lost") and outcome != result.status:
            self.disagreements += 1
            self.errors.append(f"game {index}: the bot saw {result.status!r}, the client says {outcome!r}")
        for timing in result.timings:
            for step in STEPS:
                self.step_ms[step].append(getattr(timing, step))

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
            "rules": self.rules,
            "client_statuses": self.client_statuses,
            "stops": self.stops,
            "relocations": self.relocations,
            "window_moves": self.moves_of_window,
            "disagreements": self.disagreements,
            "crashes": self.crashes,
            "interrupted": self.interrupted,
            "checked_reads": self.checked_reads,
            "misread_cells": self.misread_cells,
            "lagging_reads": self.lagging_reads,
            "stale_guesses": self.stale_guesses,
            "mines_given": self.mines_given,
            "mine_sources": self.mine_sources,
            "wrong_mines": self.wrong_mines,
            "new_game_way": self.new_game_way,
            "lost_without_a_guess": sum(g["status"] == "lost" and not g["guesses"] for g in self.per_game),
            "per_game": self.per_game,
            "errors": self.errors,
            "clicks_outside_board": self.clicks_outside,
            "rereads": self.rereads,
            "unnamed_reads": self.unnamed_reads,
            "mean_game_s": float(np.mean(self.game_seconds)) if self.game_seconds else None,
            "mean_win_s": float(np.mean(self.win_seconds)) if self.win_seconds else None,
            "best_win_s": min(self.win_seconds) if self.win_seconds else None,
            "win_split_s": {
                part: round(float(np.mean([split[part] for split in self.win_split])), 3)
                for part in (self.win_split[0] if self.win_split else {})
            },
            **{f"{s}_ms_p50": pct(v, 50) for s, v in self.step_ms.items()},
            **{f"{s}_ms_p99": pct(v, 99) for s, v in self.step_ms.items()},
        }

    def format(self) -> str:
        d = self.to_dict()
        lines = [
            f"{self.client} {self.level}: {self.wins}/{self.games} won = "
            f"{100 * (d['win_rate'] or 0):.1f}% (95% CI {100 * d['ci95'][0]:.1f}-{100 * d['ci95'][1]:.1f}%)",
            f"errors (misreads or stops): {len(self.errors)}; stops: {self.stops} (crashes {self.crashes}); "
            f"clicks outside the board: {self.clicks_outside}; lost with no guess: "
            f"{d['lost_without_a_guess']}; re-reads: {self.rereads} "
            f"(played around an unnamed cell: {self.unnamed_reads}); "
            f"window moves: {self.moves_of_window}, relocations: {self.relocations}; "
            f"new games by: {self.new_game_way or '-'}; mine totals from: "
            f"{', '.join(sorted(set(self.mine_sources) - {''})) or '-'} ({self.wrong_mines} wrong)",
            f"game time: mean {d['mean_game_s'] or 0:.2f} s; wins: mean {d['mean_win_s'] or 0:.2f} s, "
            f"best {d['best_win_s'] or 0:.2f} s",
            "per move ms p50/p99: " + ", ".join(f"{s} {d[s + '_ms_p50']}/{d[s + '_ms_p99']}" for s in STEPS),
        ]
        if d["win_split_s"]:
            lines.append(
                "won game s (mean): " + ", ".join(f"{k} {v:.2f}" for k, v in d["win_split_s"].items())
            )
        if self.checked_reads:
            lines.append(
                f"readings checked against the client's own account: {self.checked_reads}, "
                f"cells misread: {self.misread_cells}; lagging (a cell open there read covered): "
                f"{self.lagging_reads}, guessed on: {self.stale_guesses}"
            )
        if self.interrupted:
            lines.append(f"stopped after {self.games} game(s): {self.interrupted}")
        return "\n".join(lines + [f"  error: {e}" for e in self.errors])


PHASES = ("capture", "classify", "solve", "click", "wait")
"""The parts of a move :class:`bot.agent.results.MoveTiming` times, in order."""


def time_split(result: GameResult) -> dict[str, float]:
    """Seconds of a game spent in each move phase (:data:`PHASES`), and ``other``: the rest (finding the
    board at the start, parking the pointer, recovering)."""
    split = {part: sum(getattr(t, part) for t in result.timings) / 1000 for part in PHASES}
    split["other"] = result.seconds - sum(split.values())
    return split


def _next_second() -> None:
    time.sleep(1.02 - time.time() % 1.0)


def client_outcome(client: RealClient) -> str:
    """The game's end by the client's own account (its exact truth), or ``""`` if it has none."""
    try:
        return client.truth()[1]
    except NotImplementedError:
        return ""
    except MinebotError as exc:
        return f"unreadable ({exc})"


def run(
    client_name: str,
    games: int,
    level: str,
    save_frames: Path | None,
    quiet: bool,
    flags: bool = False,
    look: Look | None = None,
    skin: str | None = None,
    move_every: int = 0,
    give_mines: bool = False,
    check_reads: bool = False,
    own_new_games: bool = False,
) -> LiveReport:
    """Play ``games`` games; ``move_every`` > 0 moves the client's window after every that many moves;
    ``give_mines`` gives the mine total of a board of no standard size (else the bot reads the counter);
    ``check_reads`` compares every trusted reading with the client's own account (:class:`ReadChecker`;
    it slows the games: not for timing); ``own_new_games`` gives the bot no restart hook, so it starts
    each new game itself (face, F2, ...) as ``minebot play --games N`` does (the harness restarts the
    client only after a crash)."""
    lv = find_level(level)
    look = look or Look()
    with VirtualDisplay(*screen_for(client_name, look.tile, look.zoom)) as vd:
        os.environ["DISPLAY"] = vd.display  # pyautogui binds to $DISPLAY when first imported
        client = make_client(client_name, vd, lv.rows, lv.cols, lv.mines, look, seed=int(time.time()))
        report = LiveReport(client_name, f"{client.rows}x{client.cols}/{client.mines}")
        report.display = vd.display
        if client_name == "jsminesweeper":
            report.level += f" tile {look.tile} zoom {look.zoom:g}"
        with client, MssCapture(display=vd.display) as capture, CheckedInput() as mouse:
            if give_mines and standard_mines(client.rows, client.cols) is None:  # as --mines
                report.mines_given = client.mines
            options = PlayOptions(
                mines=report.mines_given,
                skin=skin or client.skin_name or "auto",
                save_frames=save_frames,
                flags=flags,
            )
            mover = WindowMover(client, move_every) if move_every else None
            checker = ReadChecker(client, report, save_frames) if check_reads else None
            hooks = [hook for hook in (checker, mover) if hook is not None]

            def on_move(board: Board, moves: list) -> None:  # type: ignore[type-arg]
                for hook in hooks:
                    hook(board, moves)

            hook = on_move if hooks else None
            restart = None if own_new_games else client.restart
            player = Player(capture, mouse, options, restart=restart, on_move=hook)
            mouse.player, mouse.client = player, client
            if checker is not None:
                checker.player = player
            progress = Progress(games, f"{client_name} games", enabled=not quiet)
            with ctrl_c_stops():  # a Ctrl-C stops the run even when its KeyboardInterrupt was lost
                try:
                    for index in range(games):
                        try:
                            if client_name == "winemine":
                                _next_second()
                            if index:
                                player.new_game()
                            result = player.play_game(index)
                        except (KeyboardInterrupt, AbortedError):
                            raise
                        except Exception as exc:  # a crash in the bot: record it, start the next game afresh
                            LOGGER.exception("game %d crashed", index)
                            error = f"crash: {type(exc).__name__}: {exc}"
                            result = GameResult(index, "crashed", 0.0, error=error)
                            report.crashes += 1
                            client.restart()
                        outcome = client_outcome(client)
                        if checker is not None:
                            checker.game = index + 1
                        report.add(index, result, outcome, mouse.outside, (client.mines, player.mines_source))
                        mouse.outside.clear()
                        progress.update(1)
                except (KeyboardInterrupt, AbortedError) as exc:  # Ctrl-C or the fail-safe: stop here
                    report.interrupted = str(exc) or "interrupted (Ctrl-C)"
            progress.close()
            report.new_game_way = player.new_game_way
            report.moves_of_window = mover.moves if mover else 0
    return report


class ReadChecker:
    """Compares every reading the bot acts on with the client's own account (its exact truth reader).

    Called between the bot's reading and its clicks. A cell the bot reads revealed (a number) or
    flagged must be exactly that in the client's account; a cell it reads covered may already be open
    there (JSMinesweeper's page state runs ahead of its drawing), so that is no misread.
    """

    def __init__(self, client: RealClient, report: LiveReport, save_frames: Path | None = None) -> None:
        self.client, self.report = client, report
        self.save_frames = save_frames
        """Where the player saves the frames it reads: a misread's truth and reading are written beside."""
        self.player: Player | None = None
        self.game = 0
        self._no_reader = False
        """The client has no truth reader at all: said once, not at every reading."""

    def __call__(self, board: Board, moves: list) -> None:  # type: ignore[type-arg]
        if self._no_reader:
            return
        try:
            truth, _ = self.client.truth()
        except (NotImplementedError, MinebotError) as exc:
            self._no_reader = isinstance(exc, NotImplementedError)
            self.report.errors.append(f"game {self.game}: no truth to check a reading against ({exc})")
            return
        self.report.checked_reads += 1
        read = board.cells
        shown = read != int(Cell.COVERED)
        wrong = shown & (read != truth.cells) if truth.shape == board.shape else shown
        if truth.shape == board.shape and (~shown & truth.revealed_mask()).any():
            self.report.lagging_reads += 1
            if any(getattr(move, "probability", 0.0) > 0 for move in moves):
                self.report.stale_guesses += 1
        if wrong.any():
            self.report.misread_cells += int(wrong.sum())
            cells = [tuple(int(v) for v in cell) for cell in np.argwhere(wrong)[:5]]
            self.report.errors.append(
                f"game {self.game}: misread {int(wrong.sum())} cell(s), e.g. "
                + ", ".join(f"{c} read {Cell(int(read[c])).char!r}, is {truth[c].char!r}" for c in cells)
            )
            self._note_misread(board, truth)

    def _note_misread(self, board: Board, truth: Board) -> None:
        """With saved frames: the misread frame's reading and the client's account, beside the frame."""
        if self.save_frames is None or self.player is None:
            return
        frame = f"frame-{self.player._frames:05d}"  # the last frame it saved: this reading's
        note = self.save_frames / f"{frame}-misread.txt"
        note.write_text(f"game {self.game}\nread:\n{board.to_text()}\ntruth:\n{truth.to_text()}\n")
        self.report.errors.append(f"game {self.game}: the misread frame is {frame}.png ({note.name})")


class WindowMover:
    """Moves the client's window back and forth every ``every`` moves (the bot must follow it).

    A move comes between the bot's reading and its clicks, so those clicks are refused and the board
    is read again; the window is not moved again before the board has changed (the bot has clicked),
    else with ``every`` = 1 no click could ever be sent.
    """

    def __init__(self, client: RealClient, every: int) -> None:
        self.client, self.every = client, every
        self.count = 0
        self.moves = 0
        self._moved_at: Board | None = None

    def __call__(self, board: Board, moves: list) -> None:  # type: ignore[type-arg]
        if self._moved_at is not None and board == self._moved_at:
            return
        self.count += 1
        if self.count % self.every == 0:
            self._moved_at = board
            away = self.client.window_region().left >= 23  # moved before (a new process starts at 0, 0)
            sign = -1 if away else 1
            self.client.move_window(sign * 23, sign * 11)
            self.moves += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--client", choices=sorted(CLIENTS), required=True)
    parser.add_argument("--tile", type=int, default=24, help="jsminesweeper: tile size in CSS px (16-60)")
    parser.add_argument("--zoom", type=float, default=1.0, help="jsminesweeper: browser zoom (device scale)")
    parser.add_argument(
        "--skin", default=None, help="the bot's --skin (default: the client's skin, else auto)"
    )
    parser.add_argument(
        "--move-every", type=int, default=0, metavar="N", help="move the window every N moves"
    )
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--level", default="expert", help="expert (default), intermediate, beginner, RxC/M")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="write the report as JSON")
    parser.add_argument("--save-frames", type=Path, default=None, metavar="DIR")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--verbose", action="store_true", help="log what the bot does (re-reads, recoveries)")
    parser.add_argument("--flags", action="store_true", help="flag certain mines and chord (as play --flags)")
    parser.add_argument(
        "--check-reads",
        action="store_true",
        help="compare every reading acted on with the client's own account (slows the games)",
    )
    parser.add_argument(
        "--own-new-games",
        action="store_true",
        help="no restart hook: the bot starts every new game itself (face, F2, ...), as minebot play does",
    )
    parser.add_argument(
        "--give-mines",
        action="store_true",
        help="give the mine total of a board of no standard size (as --mines) instead of reading the counter",
    )
    args = parser.parse_args(argv)
    exit_on_sigterm()
    if hasattr(faulthandler, "register"):  # a run that does not stop can be asked where it is: kill -USR1 PID
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    if args.verbose:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    report = run(
        args.client,
        args.games,
        args.level,
        args.save_frames,
        args.quiet,
        args.flags,
        Look(args.tile, args.zoom),
        args.skin,
        args.move_every,
        args.give_mines,
        args.check_reads,
        args.own_new_games,
    )
    print(report.format())
    if args.json:
        args.json.write_text(json.dumps(report.to_dict(), indent=2))
    if report.interrupted:
        return 130
    return 0 if not report.errors and not report.clicks_outside else 1


if __name__ == "__main__":
    sys.exit(main())
