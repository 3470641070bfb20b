"""Play simulated games with the solver and report win rate (95% Wilson CI), speed and guesses.

Game i uses seed SEED+i for its mines and the solver's tie-breaks, so the same seed gives the same
result with any number of workers. Times are solver time only: a "move" is one solver call, which
may return several certain moves. A progress bar is drawn on stderr; Ctrl-C stops and reports the
games finished so far.
"""

from __future__ import annotations

import argparse
import json
import sys

from bot.bench import BenchOptions, BenchResult, play_game, run_bench
from bot.board import Coord
from bot.commands import count, looked_up, positive
from bot.commands.solve import rule_argument
from bot.game import FirstClickRule, Level, find_level
from bot.progress import Progress
from bot.solver import POLICIES

NAME = "bench"
HELP = "play simulated games and measure the solver's win rate and speed"


def level_argument(text: str) -> Level:
    """argparse type for ``--level``: a name or ROWSxCOLS/MINES."""
    return looked_up(text, find_level)


def cell_argument(text: str) -> Coord:
    """argparse type for ``--first-click R,C`` (0-based row, column)."""
    try:
        r, c = (int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROW,COL (0-based), got {text!r}") from None
    return (r, c)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--level",
        type=level_argument,
        default=find_level("expert"),
        help="beginner, intermediate, expert or ROWSxCOLS/MINES (default: expert)",
    )
    parser.add_argument(
        "--rule",
        type=rule_argument,
        default=FirstClickRule.SAFE,
        help="safe, zero, winxp or none (default: safe)",
    )
    parser.add_argument("--games", type=positive, default=1000, help="games to play (default: 1000)")
    parser.add_argument("--seed", type=count, default=0, help="game i uses seed SEED+i (default: 0)")
    parser.add_argument("--workers", type=positive, default=1, help="worker processes (default: 1)")
    parser.add_argument(
        "--first-click",
        type=cell_argument,
        metavar="R,C",
        help="force the first click (default: the solver's)",
    )
    parser.add_argument(
        "--policy", choices=sorted(POLICIES), default="best", help="guess policy (default: best)"
    )
    parser.add_argument(
        "--start",
        choices=("click", "random-zero"),
        default="click",
        help="click: the solver makes the first click (default); random-zero: the game opens a random "
        "zero region by itself, as xdemineur does",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play the games on a Ray cluster (pip install 'minebot[ray]'): ADDRESS such as auto, "
        "HOST:PORT or ray://HOST:10001; 'local' starts a private instance with --workers CPUs; no "
        "ADDRESS joins RAY_ADDRESS or a cluster started on this machine. Same games, same result",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--explain", action="store_true", help="replay game 0 move by move with reasons")
    parser.add_argument(
        "--calibration", action="store_true", help="predicted vs observed mine rate of guesses"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def explain(options: BenchOptions) -> list[dict]:
    """Game 0 of the run, move by move: each move, its reason and the board after it."""
    steps: list[dict] = []
    play_game(
        options,
        0,
        lambda move, board: steps.append(
            {"move": move.to_dict(), "text": str(move), "board": board.to_text()}
        ),
    )
    return steps


def run(args: argparse.Namespace) -> int:
    level, click = args.level, args.first_click
    if click is not None and not (0 <= click[0] < level.rows and 0 <= click[1] < level.cols):
        print(
            f"minebot bench: error: --first-click {click[0]},{click[1]} is outside the "
            f"{level.rows}x{level.cols} board",
            file=sys.stderr,
        )
        return 2
    options = BenchOptions(
        level=args.level,
        rule=args.rule,
        games=args.games,
        seed=args.seed,
        workers=args.workers,
        first_click=args.first_click,
        policy=args.policy,
        start=args.start,
    )
    with Progress(options.games, "games", enabled=None if not args.no_progress else False) as bar:
        if args.ray is None:
            result = run_bench(options, bar.update)
        else:
            from bot.cluster import run_bench_ray  # Ray only when asked for (errors: bot.cli)

            result = run_bench_ray(options, args.ray or None, bar.update)
    summary = result.summary()
    steps = explain(options) if args.explain else None
    if args.json:
        if steps is not None:
            summary["explain"] = steps
        if args.calibration:
            summary["calibration"] = result.calibration()
        print(json.dumps(summary))
        return 130 if result.interrupted else 0
    if steps is not None:
        for number, step in enumerate(steps, start=1):
            print(f"move {number}: {step['text']}")
            print(step["board"])
            print()
    print(report(result))
    if args.calibration:
        print(calibration_table(result))
    return 130 if result.interrupted else 0


def report(result: BenchResult) -> str:
    """The human summary: rules, win rate with CI, speed, guesses."""
    s = result.summary()
    lv = result.options.level
    click = f"{tuple(s['first_click'])}" if s["first_click"] else "solver's choice"
    if s["start"] == "random-zero":
        click = "none (a random zero region opened by the game)"
    lo, hi = s["ci95"]
    lines = [
        f"{lv.name} {lv.rows}x{lv.cols}/{lv.mines}, rule {s['rule']}, first click {click}, "
        f"policy {s['policy']}, seeds {s['seed']}..{s['seed'] + max(s['games'] - 1, 0)}",
        f"win rate {s['win_rate']:.2%} (95% CI {lo:.2%} - {hi:.2%}): {s['wins']} of {s['games']} games"
        + (" (interrupted)" if s["interrupted"] else ""),
        f"solver time: mean {s['mean_game_ms']:.1f} ms per game ({s['mean_game_cpu_ms']:.1f} ms of CPU); "
        f"per move p50 {s['move_ms_p50']:.2f} ms, "
        f"p99 {s['move_ms_p99']:.2f} ms, max {s['move_ms_max']:.1f} ms",
        f"guesses per game: {s['guesses_per_game']:.2f}; wall time {s['elapsed_s']:.1f} s "
        f"with {s['workers']} worker{'s' if s['workers'] != 1 else ''}",
    ]
    return "\n".join(lines)


def calibration_table(result: BenchResult) -> str:
    """Per 5% bucket of predicted mine probability: guesses, mean predicted, observed."""
    lines = [
        "calibration of guesses (predicted mine probability vs how often it was a mine):",
        "  bucket      guesses  predicted  observed",
    ]
    for row in result.calibration():
        lines.append(
            f"  {row['from']:4.0%}-{row['to']:<4.0%}  {row['guesses']:7d}  "
            f"{row['predicted']:9.3f}  {row['observed']:8.3f}"
        )
    if len(lines) == 2:
        lines.append("  (no guesses were made)")
    return "\n".join(lines)
