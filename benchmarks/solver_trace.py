"""Record or compare every move the solver makes on seeded games (proof a speed change changed nothing).

Usage: python benchmarks/solver_trace.py [--level expert] [--rule safe] [--games 1000] [--seed 1]
                                         [--policy best[:key=value,...]] (--save FILE | --compare FILE)

Plays the games at one worker and keeps, per game, whether it was won and a digest of every move
(action, cell, probability to 12 digits). ``--save`` writes them as JSON; ``--compare`` plays the same
games again and lists the seeds whose moves or outcome differ (exit status 1 if any). It also prints
the solver's processor time per game and the move p99 / max, so one run gives both halves of a
speed change: identical play, and what it cost.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import numpy as np
from solver_policies import parse_variant

# this checkout's bot before any installed one (a worktree's script must not measure another tree)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.bench import BenchOptions, play_game
from bot.board import Board
from bot.game import find_level, find_rule
from bot.solver import Move


def trace(options: BenchOptions) -> tuple[dict[str, list], dict]:
    """Per seed ``[won, move digest]``, and the timing summary of the run."""
    games: dict[str, list] = {}
    cpu, moves_ms = [], []
    for i in range(options.games):
        digest = hashlib.sha1()

        def note(move: Move, _board: Board, digest=digest) -> None:
            digest.update(f"{move.action.value}{move.cell}{move.probability:.12f};".encode())

        record = play_game(options, i, note)
        games[str(record.seed)] = [record.won, digest.hexdigest()[:16]]
        cpu.append(record.cpu_ms)
        moves_ms += record.move_ms
    arr = np.array(moves_ms)
    timing = {
        "games": options.games,
        "wins": sum(w for w, _ in games.values()),
        "mean_game_cpu_ms": float(np.mean(cpu)),
        "move_ms_p99": float(np.percentile(arr, 99)),
        "move_ms_max": float(arr.max()),
    }
    return games, timing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="best", help="NAME or NAME:key=value,... (as solver_policies.py)")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--save")
    what.add_argument("--compare")
    args = parser.parse_args()
    level, rule, policy = find_level(args.level), find_rule(args.rule), parse_variant(args.policy)
    options = BenchOptions(level, rule, args.games, args.seed, 1, policy=policy)
    games, timing = trace(options)
    if args.save:
        with open(args.save, "w") as out:
            json.dump({"timing": timing, "games": games}, out)
        print(json.dumps(timing))
        return
    with open(args.compare) as f:
        before = json.load(f)
    differ = [s for s, v in games.items() if before["games"].get(s) != v]
    outcome = [s for s in differ if s in before["games"] and before["games"][s][0] != games[s][0]]
    print(
        json.dumps(
            {
                "timing": timing,
                "before": before["timing"],
                "moves_differ": len(differ),
                "outcome_differ": len(outcome),
                "seeds": differ[:20],
            }
        )
    )
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
