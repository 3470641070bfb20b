"""Reading looks no reader was built on: whole screenshots read end to end, with no skin and no calibration.

The looks come from ``tests/styles.py``: the made-up ones (light with thin lines, dark, monochrome
digits, Windows 7-like gradient tiles, ...) and, when ``../shared/realdata`` is beside the repo, three
assembled from real cell crops (Minesweeper X at 100% and 125%, Windows 7). None of them is one of the
named clients the readers are developed on, so this checks that the readers generalise; it is not a
target to tune against. Each seeded mid-game (and lost) board is drawn in a window at several scales
and read by :func:`bot.vision.read.read_screen` from the whole screenshot
(grid finder, then cells): frames exact, refused, and wrong (any misread cell, or a board of the wrong
size). The mine count is given, so the counter reader plays no part.

    python benchmarks/heldout_bench.py [--skin generic|auto] [--boards 4] [--verbose]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import numpy as np  # noqa: E402

from bot.board import Cell  # noqa: E402
from bot.errors import MinebotError  # noqa: E402
from bot.vision.read import read_screen  # noqa: E402

SCALES = (1.0, 1.25, 1.5, 2.0)
MADE_UP = ("flat", "dark", "mono", "gradient", "tinted", "crossed")
FROM_CROPS = ("msx", "msx125", "win7")


def looks() -> dict[str, object]:
    """Every look the bench can draw here (the crop-built ones only when ``../shared/realdata`` exists)."""
    import styles

    found = {name: styles.LOOKS[name] for name in MADE_UP if name in styles.LOOKS}
    if styles.REALDATA.is_dir():
        for name in FROM_CROPS:
            found[name] = styles.real_look(name)
    return found


def judge(image: np.ndarray, truth, mines: int, skin: str) -> tuple[str, str]:
    """``("exact" | "refused" | "wrong", detail)`` for one screenshot read from scratch."""
    try:
        reading = read_screen(image, skin, mines=mines)
    except MinebotError as error:
        return "refused", str(error).splitlines()[0][:160]
    board = reading.board
    if board.cells.shape != truth.cells.shape:
        return "wrong", f"board {board.cells.shape} read, truth {truth.cells.shape}"
    bad = np.argwhere(board.cells != truth.cells)
    if not len(bad):
        return "exact", ""
    r, c = (int(v) for v in bad[0])
    first = f"({r}, {c}) read {Cell(int(board.cells[r, c])).name}, truth {Cell(int(truth.cells[r, c])).name}"
    return "wrong", f"{len(bad)} cell(s) misread, first {first}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skin", default="generic", help="reader to use: generic (default) or auto")
    parser.add_argument("--boards", type=int, default=4, help="seeded boards per look and scale (half lost)")
    parser.add_argument("--verbose", action="store_true", help="list every refusal and misread")
    args = parser.parse_args(argv)
    import styles

    totals: Counter[str] = Counter()
    print("| look | scale | frames | exact | refused | wrong | ms per read (median) |")
    print("|---|---|---|---|---|---|---|")
    for name, look in looks().items():
        for scale in SCALES:
            row: Counter[str] = Counter()
            times: list[float] = []
            for seed in range(args.boards):
                board = styles.fit_board(styles.mid_game(16, 30, 99, seed, lost=seed % 2 == 1), look)
                image, _ = styles.screenshot(board, look, scale=scale)
                start = time.perf_counter()
                verdict, detail = judge(image, board, 99, args.skin)
                times.append((time.perf_counter() - start) * 1000)
                row[verdict] += 1
                if detail and args.verbose:
                    print(f"    {verdict} {name} x{scale} seed {seed}: {detail}")
            totals.update(row)
            print(
                f"| {name} | {scale:g} | {args.boards} | {row['exact']} | {row['refused']} | {row['wrong']} "
                f"| {float(np.median(times)):.0f} |"
            )
    frames = sum(totals.values())
    exact, refused, wrong = totals["exact"], totals["refused"], totals["wrong"]
    print(f"\nall: {frames} frames, {exact} exact, {refused} refused, {wrong} wrong")
    return 1 if totals["wrong"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
