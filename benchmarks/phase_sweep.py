"""Misreads off the grid: the skinless reader at its true grid and half a pixel off it, on made-up looks.

A grid found by structure sits a fraction of a pixel from the one the client drew (0.3-0.9 px on the real
clients measured), and live play reads every later frame at the grid found. So a reading must be exact or
refused there too, never wrong. Each seeded board (mid-game and lost, two sizes) of each look
(``heldout_bench.looks()`` and ``styles.EXTRA_LOOKS``) is drawn at each scale and read by
:func:`bot.vision.generic.read_cells` at the true grid moved by every ``--shifts`` pair: frames exact,
refused and wrong, per look, and one line per wrong frame (``--verbose``: one line per frame, its verdict,
to compare two trees frame by frame).

    python benchmarks/phase_sweep.py [--seeds 20 26] [--scales 1 1.25] [--shifts -0.5 0 0.5] [--looks glossy]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "benchmarks"))

import numpy as np  # noqa: E402

from bot.errors import MinebotError  # noqa: E402
from bot.vision.generic import GenericModel, read_cells  # noqa: E402

SHAPES = ((16, 30, 99), (12, 20, 62))


def boards(seeds: range) -> list:
    """The seeded boards read: for each seed and size, mid-game (even seeds) or lost (odd seeds)."""
    import styles

    out = []
    for seed, (rows, cols, mines) in itertools.product(seeds, SHAPES):
        opened = 0.45 if rows == 16 else 0.4
        out.append((seed, styles.mid_game(rows, cols, mines, seed, opened=opened, lost=seed % 2 == 1)))
    return out


def main(argv: list[str] | None = None) -> int:
    import heldout_bench
    import styles

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=(20, 26), metavar=("FIRST", "END"))
    parser.add_argument("--scales", type=float, nargs="+", default=(1.0, 1.25))
    parser.add_argument("--shifts", type=float, nargs="+", default=(-0.5, 0.0, 0.5))
    parser.add_argument("--looks", nargs="+", help="default: every held-out look and styles.EXTRA_LOOKS")
    parser.add_argument("--verbose", action="store_true", help="one line per frame: its verdict")
    args = parser.parse_args(argv)
    looks = dict(heldout_bench.looks())
    looks.update(styles.EXTRA_LOOKS)
    if args.looks:
        looks = {name: looks[name] for name in args.looks}
    plan = boards(range(*args.seeds))
    tally: Counter[tuple[str, str]] = Counter()
    start = time.perf_counter()
    for name, look in looks.items():
        for scale, (seed, board) in itertools.product(args.scales, plan):
            truth_board = styles.fit_board(board, look)
            image, truth = styles.screenshot(truth_board, look, scale=scale)
            for dx, dy in itertools.product(args.shifts, args.shifts):
                grid = replace(truth, left=truth.left + dx, top=truth.top + dy)
                where = f"{name} x{scale} seed {seed} {board.rows}x{board.cols} shift ({dx:+}, {dy:+})"
                try:
                    states = read_cells(image, grid, GenericModel()).states
                except MinebotError as error:
                    tally[(name, "refused")] += 1
                    if args.verbose:
                        print(f"refused {where}: {str(error).splitlines()[0][:150]}", flush=True)
                    continue
                bad = np.argwhere(states != truth_board.cells)
                if len(bad):
                    cell = tuple(int(v) for v in bad[0])
                    said, true = int(states[cell]), int(truth_board.cells[cell])
                    print(f"WRONG {where}: {len(bad)} cell(s), {cell} read {said} is {true}", flush=True)
                elif args.verbose:
                    print(f"exact {where}", flush=True)
                tally[(name, "wrong" if len(bad) else "exact")] += 1
    print("\n| look | reads | exact | refused | wrong |\n|---|---|---|---|---|")
    for name in looks:
        counts = [tally[(name, v)] for v in ("exact", "refused", "wrong")]
        print(f"| {name} | {sum(counts)} | {' | '.join(map(str, counts))} |")
    total = [sum(tally[(n, v)] for n in looks) for v in ("exact", "refused", "wrong")]
    print(f"\nall: {sum(total)} reads, {total[0]} exact, {total[1]} refused, {total[2]} wrong")
    print(f"({time.perf_counter() - start:.0f} s)")
    return 1 if total[2] else 0


if __name__ == "__main__":
    sys.exit(main())
