"""Play Minesweeper: watch a window, read the board, solve, click; game after game.

With --client screen (the default) minebot plays the Minesweeper window on your screen: open the
game, make sure the whole window is visible, then run this. Move the mouse into a screen corner to
stop it at once (the fail-safe); Ctrl-C stops it cleanly too. With --client sim it plays the
built-in simulated client through the very same pipeline, with no screen at all.

Only play offline clients, practice and unranked games, and respect each site's rules.
"""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from bot.agent import Player, PlayOptions, SessionSummary, make_dpi_aware, parse_new_game
from bot.board import Board
from bot.commands import count, positive, scale, seconds
from bot.errors import MinebotError, UsageError
from bot.game import LEVELS, FirstClickRule, GameStatus, Level, find_level, find_rule
from bot.solver import Move

NAME = "play"
HELP = "play a Minesweeper window (or the built-in simulated client)"
LOGGER = logging.getLogger(__name__)
CLIENTS = ("screen", "sim")


def default_results_log() -> Path:
    """``$XDG_STATE_HOME/minebot/results.jsonl`` (``~/.local/state/...``), ``%LOCALAPPDATA%`` on Windows."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
    else:
        base = Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state"))
    return base / "minebot" / "results.jsonl"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--client",
        choices=CLIENTS,
        default="screen",
        help="screen: the live screen (default); sim: the built-in simulated client",
    )
    parser.add_argument("--games", type=positive, default=1, metavar="N", help="games to play (default 1)")
    parser.add_argument(
        "--level",
        default=None,
        help="beginner, intermediate, expert or ROWSxCOLS/MINES: the sim's level (default "
        "expert), and the mine count on screen",
    )
    parser.add_argument(
        "--mines",
        type=count,
        default=None,
        metavar="N",
        help="total mines (default: the standard level's count for the board size, else the client's "
        "counter); with --client sim, the sim's mine count",
    )
    parser.add_argument(
        "--rule",
        choices=[r.value for r in FirstClickRule],
        default=None,
        help="the client's first-click rule (default: observed: safe until every first click has "
        "opened an area too often to be chance, then zero; none if the skin says so)",
    )
    parser.add_argument(
        "--new-game",
        default="auto",
        metavar="WAY",
        help="how a new game starts: auto (default: the way that worked, the skin's, the face, a restart "
        "with --restart-command, F2, then Ctrl+R and Ctrl+N only when the program showing the board is "
        "known to be no web browser, which reloads or opens a window on them; the first that shows a "
        "fresh game), face, F2, ctrl+r, ctrl+n, restart, or click:DX,DY (a New/Restart button DX,DY "
        "pixels from the board's top-left corner)",
    )
    parser.add_argument(
        "--restart-command",
        default=None,
        metavar="CMD",
        help="a command that restarts the client (closing the old window), for --new-game restart "
        "or auto: e.g. \"sh -c 'pkill -x xdemineur; xdemineur -m 99 &'\"",
    )
    parser.add_argument(
        "--cover-wait",
        type=seconds,
        default=10.0,
        metavar="S",
        help="how long to wait for a board that is covered or gone before stopping (default 10)",
    )
    parser.add_argument(
        "--learn",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="learn a cell state the skin lacks when the board forces it (default on, in memory)",
    )
    parser.add_argument(
        "--save-learned", action="store_true", help="also save learned cell states into the skin's folder"
    )
    parser.add_argument("--skin", default="auto", help="skin name or folder, or auto (default)")
    parser.add_argument(
        "--flags",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="flag certain mines and chord where it pays (default: open only, fewer clicks)",
    )
    parser.add_argument(
        "--delay",
        type=seconds,
        default=0.0,
        metavar="S",
        help="politeness delay between clicks in seconds (default 0)",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="watch the screen and print the moves minebot would make; click nothing",
    )
    parser.add_argument(
        "--save-frames", type=Path, default=None, metavar="DIR", help="save every frame read as a PNG in DIR"
    )
    parser.add_argument("--time-limit", type=seconds, default=None, metavar="S", help="stop after S seconds")
    parser.add_argument(
        "--results-log",
        type=Path,
        default=None,
        metavar="FILE",
        help=f"append one JSON line per game (default {default_results_log()})",
    )
    parser.add_argument("--seed", type=count, default=0, help="the sim's seed (default 0)")
    parser.add_argument("--scale", type=scale, default=1.0, help="the sim's display scale (default 1.0)")
    parser.add_argument(
        "--disturb",
        type=count,
        default=0,
        metavar="N",
        help="the sim's window is moved N times and covered N times a game (default 0)",
    )
    parser.add_argument("--show", action="store_true", help="print each board and move as it plays")


def options_from(args: argparse.Namespace) -> PlayOptions:
    mines = args.mines
    if mines is None and args.level:
        mines = find_level(args.level).mines
    return PlayOptions(
        games=args.games,
        mines=mines,
        rule=find_rule(args.rule) if args.rule else None,
        skin=args.skin,
        flags=args.flags,
        delay=args.delay,
        dry_run=args.dry_run,
        save_frames=args.save_frames,
        time_limit=args.time_limit,
        cover_wait=args.cover_wait,
        new_game=parse_new_game(args.new_game),
        learn=args.learn,
        save_learned=args.save_learned,
        results_log=args.results_log or default_results_log(),
    )


def _printer(board: Board, moves: list[Move]) -> None:
    print(board.to_text())
    for move in moves:
        print(move)
    print(flush=True)


def _print_end(board: Board, status: GameStatus) -> None:
    """The board a game ended on, and how (``--show``): the move before it is not its last sight."""
    print(board.to_text())
    print(f"game {status.value}", end="\n\n", flush=True)


def restart_hook(command: str) -> Callable[[], None]:
    """A hook that runs ``command`` (split like a shell would, not run by one) to restart the client;
    it must return once the new client is started (background it with ``sh -c '... &'``).

    Raises (when called):
        MinebotError: the command cannot be started or exits with an error.
    """
    words = shlex.split(command)

    def restart() -> None:
        quiet = subprocess.DEVNULL  # a client it starts in the background must not hold a pipe open
        try:
            done = subprocess.run(words, timeout=30, check=False, stdin=quiet, stdout=quiet, stderr=quiet)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise MinebotError(f"the restart command {command!r} failed: {exc}") from exc
        if done.returncode:
            raise MinebotError(f"the restart command {command!r} exited with status {done.returncode}")

    return restart


def sim_level(level: str | None, mines: int | None) -> Level:
    """The simulated client's level: ``--level`` (default expert), with ``--mines`` as its mine count.

    Raises:
        UsageError: for an unknown level, or more mines than the board has cells to hide them in.
    """
    try:
        chosen = find_level(level or "expert")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if mines is None or mines == chosen.mines:
        return chosen
    rows, cols = chosen.rows, chosen.cols
    if mines >= rows * cols:
        raise UsageError(
            f"--mines {mines} does not fit the simulated {rows}x{cols} board ({rows * cols} cells): give "
            f"at most {rows * cols - 1}, or a larger --level (ROWSxCOLS/MINES)"
        )
    return Level(f"{rows}x{cols}/{mines}", rows, cols, mines)


def sim_skin(skin: str) -> str:
    """The skin the simulated client draws in: the one named, or ``classic`` for ``auto``."""
    return "classic" if skin == "auto" else skin


def sim_note(summary: SessionSummary, args: argparse.Namespace, level: Level, rule: FirstClickRule) -> str:
    """What the simulated client played, in plain words (its level, its first-click rule and what
    minebot took it to be), and how to watch a game or keep its frames."""
    name = level.name if level.name in LEVELS else "custom"
    skin = summary.results[-1].skin if summary.results else sim_skin(args.skin)
    played = [r.rule for r in summary.results if r.rule]
    if args.rule:
        assumed = f"minebot was told so (--rule {args.rule})"
    elif played and played[-1] == rule.value:
        assumed = "minebot worked that out by watching its first clicks"
    else:
        last = find_rule(played[-1]) if played else FirstClickRule.SAFE
        assumed = f"minebot, not yet sure of more from the games it saw, played as if {last.words}"
    lines = [
        f"the simulated client dealt {summary.games} {name} game(s): {level.rows} rows by {level.cols} "
        f"columns with {level.mines} mines, drawn in the {skin} skin (seed {args.seed})",
        f"in its games {rule.words}; {assumed}",
    ]
    if not args.show:
        lines.append("watch a game move by move: add --show")
    if args.save_frames is None:
        lines.append("keep every frame read: add --save-frames DIR (read them again: minebot dry-run DIR)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        options = options_from(args)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    on_move = _printer if (args.show or args.dry_run) else None
    if args.client == "sim":
        from bot.mock import Disturbances, SimClient

        level = sim_level(args.level, args.mines)
        options = replace(options, mines=level.mines)
        client = SimClient(
            level,
            rule=options.rule,
            seed=args.seed,
            scale=args.scale,
            skin=sim_skin(args.skin),
            disturbances=Disturbances(moves=args.disturb, covers=args.disturb, seed=args.seed),
        )
        capture, mouse = client.capture, client.input
    else:
        from bot.capture import MssCapture
        from bot.input import PyAutoGuiInput, RecordingInput

        LOGGER.info("DPI: %s", make_dpi_aware())
        capture = MssCapture()
        mouse = RecordingInput() if args.dry_run else PyAutoGuiInput()
    with capture, mouse:
        restart = restart_hook(args.restart_command) if args.restart_command else None
        summary = Player(
            capture, mouse, options, restart=restart, on_move=on_move, on_end=_print_end if on_move else None
        ).run()
    print(summary.format())
    if args.client == "sim":
        print(sim_note(summary, args, level, client.rule))
    print(f"results appended to {options.results_log}")
    if summary.interrupted:
        return 130  # as a shell's interrupted command, after the summary of the games so far
    errors = [r for r in summary.results if r.error]
    return 1 if errors else 0
