"""The mine counter on every real capture, as shot and under colour shifts: read right, refused, wrong.

Each capture of ``tests/data/real`` with a ``NAME.json`` (the board's geometry and mine total) and its
true board is read with :func:`bot.vision.counter.mine_counter` given that board (as play reads it),
once per colour shift (``harness.colour.tint``: per-channel gains, then a gamma). "right": the mines
left (mines less flags); "refused": no value, with the reason; "wrong": another value (must be 0).
CPU time is the first read of each capture (no earlier reading), untinted and tinted alike. With
``--all``, also shifts beyond the targets, and chrome tinted while the board is not.

    python benchmarks/counter_bench.py [--all] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.board import Board, Cell  # noqa: E402
from bot.geometry import Geometry  # noqa: E402
from bot.vision.counter import mine_counter  # noqa: E402
from harness.colour import NIGHT_GAMMA, NIGHT_LIGHT, tint  # noqa: E402

REAL = Path(__file__).resolve().parent.parent / "tests" / "data" / "real"

TARGETS = {
    "as shot": ((1.0, 1.0, 1.0), 1.0),
    "night light": (NIGHT_LIGHT, NIGHT_GAMMA),
    "night gains only": (NIGHT_LIGHT, 1.0),
    "gamma 1.25": ((1.0, 1.0, 1.0), 1.25),
}
"""The shifts the targets name, and the night light's gains without its gamma."""

BEYOND = {
    "stronger night (0.4, 0.7)": ((0.4, 0.7, 1.0), 1.25),
    "cool (red 0.7, green 0.9)": ((1.0, 0.9, 0.7), 1.0),
    "dimmed x0.7": ((0.7, 0.7, 0.7), 1.0),
    "night, gamma 0.8": (NIGHT_LIGHT, 0.8),
    "gamma 0.8": ((1.0, 1.0, 1.0), 0.8),
}
"""Shifts no target names (``--all``): how far the method carries."""

CHROME = {
    "tan chrome, grey board": (0.6, 0.85, 1.0),
    "blue chrome, grey board": (1.0, 0.85, 0.6),
    "green chrome, grey board": (0.7, 1.0, 0.7),
}
"""Gains applied above and below the board only (``--all``): a client whose window chrome is coloured
while its board is grey."""


def captures() -> list[tuple[Path, Board, Geometry]]:
    """Every real capture with its geometry, its true board and that board's mine total."""
    out = []
    for png in sorted(REAL.rglob("*.png")):
        meta_path, text = png.with_suffix(".json"), png.with_suffix(".txt")
        if not (meta_path.is_file() and text.is_file()):
            continue
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        board = Board.from_text(text.read_text(encoding="utf-8"))
        board.mines = meta["mines"]
        out.append((png, board, Geometry(**meta["geometry"])))
    return out


def mines_left(board: Board) -> int:
    """What the counter shows: the mines less the flags (a wrong flag counts as a flag)."""
    assert board.mines is not None
    return board.mines - int(np.isin(board.cells, (Cell.FLAG, Cell.WRONG_FLAG)).sum())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="also shifts beyond the targets")
    parser.add_argument("--verbose", action="store_true", help="say why each capture was refused or wrong")
    args = parser.parse_args(argv)
    shifts = {**TARGETS, **(BEYOND if args.all else {})}
    chrome = {name: (gains, 1.0) for name, gains in CHROME.items()} if args.all else {}
    rows = captures()
    print("| shift | client | captures | right | refused | wrong | CPU ms median (max) |")
    print("|---|---|---|---|---|---|---|")
    wrong_total = 0
    for name, (gains, gamma) in {**shifts, **chrome}.items():
        tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        times: dict[str, list[float]] = defaultdict(list)
        for png, board, geometry in rows:
            client = png.relative_to(REAL).parts[0]
            image = cv2.imread(str(png))
            if name in chrome:
                top, bottom = int(geometry.top), int(geometry.top + geometry.rows * geometry.pitch_y)
                image[:top], image[bottom:] = tint(image[:top], gains), tint(image[bottom:], gains)
            else:
                image = tint(image, gains, gamma)
            start = time.process_time()
            reading = mine_counter(image, geometry, board)
            times[client].append(1000 * (time.process_time() - start))
            verdict = 0 if reading.value == mines_left(board) else 1 if reading.value is None else 2
            tally[client][verdict] += 1
            if verdict and args.verbose:
                what = "refused" if verdict == 1 else f"WRONG {reading.value}"
                where = f"{png.relative_to(REAL)} ({name})"
                print(f"    {where}: {what}, is {mines_left(board)}: {reading.reason}")
        for client, (right, refused, wrong) in sorted(tally.items()):
            wrong_total += wrong
            ms = times[client]
            print(
                f"| {name} | {client} | {right + refused + wrong} | {right} | {refused} | {wrong} "
                f"| {np.median(ms):.1f} ({max(ms):.1f}) |"
            )
    print(f"\nwrong readings: {wrong_total}")
    return 1 if wrong_total else 0


if __name__ == "__main__":
    sys.exit(main())
