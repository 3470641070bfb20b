"""Exactness and speed of the probability engine on hard generated positions, next to ms_toollib.

Usage: python benchmarks/solver_hard.py [--positions 100] [--seed 0] [--level expert]
                                        [--revealed 0.08,0.35]

Position ``i`` is :func:`bot.bench.hard_position` with seed ``SEED + i``: mines placed at random and a
random 8-35% of the safe cells revealed, which makes long tangled frontiers (regions of 40-90 groups).
For each position it times ``mine_probabilities`` (from scratch: the region cache is cleared) and
``ms_toollib.cal_probability_onboard`` in the same run, and compares the two grids. Prints one JSON
object: positions, how many the engine reported exact, the largest difference from ms_toollib, and
total / p50 / max seconds of each.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

# this checkout's bot before any installed one (a worktree's script must not measure another tree)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.bench import hard_position
from bot.board import Board, Cell
from bot.game import find_level
from bot.solver import engine, probability_grid


def toollib_grid(board: Board) -> np.ndarray:
    """ms_toollib's probabilities for the board (its encoding: 10 covered, 11 flag)."""
    import ms_toollib

    grid = board.cells.astype(int)
    grid = np.where(grid == Cell.COVERED, 10, np.where(grid == Cell.FLAG, 11, grid))
    return np.array(ms_toollib.cal_probability_onboard(grid.tolist(), board.mines)[0])


def stats(seconds: list[float]) -> dict[str, float]:
    """Total, median and maximum of a list of timings (seconds)."""
    arr = np.array(seconds)
    return {"total_s": float(arr.sum()), "p50_s": float(np.median(arr)), "max_s": float(arr.max())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--revealed", default="0.08,0.35", help="range of the revealed fraction LO,HI")
    args = parser.parse_args()
    level = find_level(args.level)
    lo, hi = (float(x) for x in args.revealed.split(","))
    ours, theirs, worst, exact, largest = [], [], 0.0, 0, 0
    for i in range(args.positions):
        board = hard_position(args.seed + i, level.rows, level.cols, level.mines, (lo, hi))
        engine._CACHE.clear()
        start = time.perf_counter()
        grid, is_exact = probability_grid(board)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        other = toollib_grid(board)
        theirs.append(time.perf_counter() - start)
        covered = board.covered_mask()
        worst = max(worst, float(np.abs(grid[covered] - other[covered]).max()))
        exact += is_exact
        know = engine.Knowledge.from_board(board)
        largest = max([largest] + [len(r) for r in engine.split_regions(know)])
    print(
        json.dumps(
            {
                "positions": args.positions,
                "seed": args.seed,
                "level": args.level,
                "revealed": [lo, hi],
                "exact": exact,
                "max_abs_diff_vs_ms_toollib": worst,
                "largest_region_numbers": largest,
                "minebot": stats(ours),
                "ms_toollib": stats(theirs),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
