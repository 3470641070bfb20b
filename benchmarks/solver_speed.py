"""Time the solver on mid-game positions from real play, next to ms_toollib when it is installed.

Usage: python benchmarks/solver_speed.py [--level expert] [--games 50] [--seed 1]

Positions come from the simulator played by the solver itself (every position after a move), so they
look like what the live bot sees. Prints p50 / p99 / max milliseconds for ``mine_probabilities`` and
``choose_moves`` (best policy), and for ``ms_toollib.cal_probability_onboard`` on the same positions.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

# this checkout's bot before any installed one (a worktree's script must not measure another tree)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.bench import BenchOptions, sample_positions
from bot.board import Board, Cell
from bot.game import FirstClickRule, find_level
from bot.solver import choose_moves, mine_probabilities


def timings(boards: list[Board], fn: Callable[[Board], object]) -> dict[str, float]:
    """p50 / p99 / max / mean milliseconds of ``fn`` over the boards."""
    ms = []
    for board in boards:
        start = time.perf_counter()
        fn(board)
        ms.append((time.perf_counter() - start) * 1000)
    arr = np.array(ms)
    return {
        "p50": float(np.percentile(arr, 50)),
        "p99": float(np.percentile(arr, 99)),
        "max": float(arr.max()),
        "mean": float(arr.mean()),
    }


def toollib_fn() -> Callable[[Board], object] | None:
    """ms_toollib's probability call in its own encoding (10 covered, 11 flag), or None if missing."""
    try:
        import ms_toollib
    except ImportError:
        return None

    def run(board: Board) -> object:
        grid = board.cells.astype(int)
        grid = np.where(grid == Cell.COVERED, 10, np.where(grid == Cell.FLAG, 11, grid))
        return ms_toollib.cal_probability_onboard(grid.tolist(), board.mines)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    options = BenchOptions(find_level(args.level), FirstClickRule.SAFE, args.games, args.seed)
    boards = sample_positions(options)
    result = {
        "level": args.level,
        "positions": len(boards),
        "mine_probabilities_ms": timings(boards, mine_probabilities),
        "choose_moves_ms": timings(boards, choose_moves),
    }
    other = toollib_fn()
    if other is not None:
        result["ms_toollib_ms"] = timings(boards, other)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
