"""Skinless grid finding (bot.vision.grid): frames found exactly per client and scale, and ms per locate.

Run: ``python benchmarks/grid_bench.py`` (``--quick``: fewer rendered screens). Prints:

1. every real capture with a ``.json`` truth in ``tests/data/real`` (per client and capture set): frames
   found exactly (rows and columns exact, cell (0, 0) within 1 px, pitch within half a pixel over the
   board), found but not exactly, and not found; plain and through the night-light tint; and the
   origin (phase) error of the grids found at the right size: median, largest, share within 0.5 px;
2. rendered 1920x1080 classic screens (desktop clutter, the client window anywhere) at scales 1-2, and
   the made-up looks of ``tests/styles.py`` at scales 1-2, counted the same way;
3. screens with no board (the desktop alone, noise, a blank screen): must raise;
4. wall and CPU time per ``find_grid`` on 1920x1080 screens (median, p95).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from styles import LOOKS, mid_game, screenshot  # noqa: E402

from bot.errors import BoardNotFoundError  # noqa: E402
from bot.geometry import Geometry  # noqa: E402
from bot.render import render_screen  # noqa: E402
from bot.vision.grid import find_grid  # noqa: E402
from harness.colour import night_light  # noqa: E402

REAL = ROOT / "tests" / "data" / "real"
SCALES = (1.0, 1.25, 1.5, 1.625, 1.75, 2.0)


def exact(found: Geometry, truth: Geometry) -> bool:
    """Rows and columns exact, cell (0, 0) within 1 px, pitch within half a pixel over the board."""
    return (
        (found.rows, found.cols) == (truth.rows, truth.cols)
        and abs(found.left - truth.left) <= 1.0
        and abs(found.top - truth.top) <= 1.0
        and abs(found.pitch_x - truth.pitch_x) * truth.cols <= 0.5
        and abs(found.pitch_y - truth.pitch_y) * truth.rows <= 0.5
    )


def outcome(image: np.ndarray, truth: Geometry, errors: list[float] | None = None) -> str:
    """``exact``, ``wrong`` or ``missed``; with ``errors``, the origin error of a grid found at the right
    size (the larger of its left and top errors, px) is appended to it."""
    try:
        found = find_grid(image).geometry
    except BoardNotFoundError:
        return "missed"
    if errors is not None and (found.rows, found.cols) == (truth.rows, truth.cols):
        errors.append(max(abs(found.left - truth.left), abs(found.top - truth.top)))
    return "exact" if exact(found, truth) else "wrong"


def _phase(errors: list[float]) -> str:
    """Median and largest origin error, and the share within half a pixel."""
    if not errors:
        return "- | - | -"
    within = sum(e <= 0.5 for e in errors) / len(errors)
    return f"{statistics.median(errors):.2f} | {max(errors):.2f} | {within:.0%}"


def _table(title: str, counts: dict[str, dict[str, int]], errors: dict[str, list[float]]) -> None:
    """Per set: frames, exact, found not exact, not found; and the origin error of grids found at the
    right size (median, largest, share within half a pixel), then over all sets."""
    print(
        f"\n{title}\n\n| set | frames | exact | found, not exact | not found "
        "| origin error median px | max px | within 0.5 px |\n|---|---|---|---|---|---|---|---|"
    )
    for key in sorted(counts):
        c = counts[key]
        total = sum(c.values())
        print(f"| {key} | {total} | {c['exact']} | {c['wrong']} | {c['missed']} | {_phase(errors[key])} |")
    every = [e for key in errors for e in errors[key]]
    print(
        f"\nOrigin error over {len(every)} grids found at the right size (median | max | within 0.5 px): "
        f"{_phase(every)}"
    )


def real_captures() -> None:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    errors: dict[str, list[float]] = defaultdict(list)
    for sidecar in sorted(REAL.glob("**/*.json")):
        g = json.loads(sidecar.read_text())["geometry"]
        truth = Geometry(g["left"], g["top"], g["pitch_x"], g["pitch_y"], g["rows"], g["cols"])
        image = cv2.imread(str(sidecar.with_suffix(".png")))
        key = str(sidecar.parent.relative_to(REAL))
        counts[key][outcome(image, truth, errors[key])] += 1
        tinted = key + " (tinted)"
        counts[tinted][outcome(night_light(image), truth, errors[tinted])] += 1
    _table("Real captures (tests/data/real, truth from the .json sidecars)", counts, errors)


def rendered(quick: bool) -> None:
    boards = {"expert": mid_game(16, 30, 99, seed=3), "beginner": mid_game(9, 9, 10, seed=4)}
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    errors: dict[str, list[float]] = defaultdict(list)
    seeds = range(2 if quick else 5)
    for name, board in boards.items():
        for scale in SCALES:
            for seed in seeds:
                image, truth = render_screen(board, "classic", scale, seed=seed)
                key = f"classic {name} x{scale}"
                counts[key][outcome(image, truth, errors[key])] += 1
        for look in LOOKS.values():
            for scale in SCALES:
                image, truth = screenshot(board, look, scale)
                key = f"{look.name} {name} x{scale}"
                counts[key][outcome(image, truth, errors[key])] += 1
    _table("Rendered screens (classic: 1920x1080 desktop; looks: tests/styles.py windows)", counts, errors)


def no_board() -> None:
    rng = np.random.default_rng(0)
    empty = render_screen(mid_game(9, 9, 10, seed=1), "classic", 1.0, seed=0)[0]
    screens = {
        "blank 1920x1080": np.full((1080, 1920, 3), 60, np.uint8),
        "noise 800x600": rng.integers(0, 255, (600, 800, 3), dtype=np.uint8),
        "desktop, board blanked": _blank_board(empty),
    }
    print("\nNo board (must raise BoardNotFoundError)\n\n| screen | result |\n|---|---|")
    for name, image in screens.items():
        try:
            fit = find_grid(image)
            result = f"FOUND {fit.geometry.rows}x{fit.geometry.cols} at {fit.geometry.region()}"
        except BoardNotFoundError:
            result = "raised"
        print(f"| {name} | {result} |")


def _blank_board(screen: np.ndarray) -> np.ndarray:
    """The classic screen with its whole client window painted over in the desktop's colour."""
    out = screen.copy()
    image, truth = render_screen(mid_game(9, 9, 10, seed=1), "classic", 1.0, seed=0)
    region = truth.region()
    out[region.top - 120 : region.bottom + 20, region.left - 20 : region.right + 20] = out[5, -5]
    return out


def speed(quick: bool) -> None:
    board = mid_game(16, 30, 99, seed=3)
    samples = []
    for scale in (1.0, 1.25, 1.5, 2.0):
        for seed in range(3 if quick else 10):
            image, _ = render_screen(board, "classic", scale, seed=seed)
            find_grid(image)  # warm
            wall, cpu = time.perf_counter(), time.process_time()
            find_grid(image)
            samples.append((time.perf_counter() - wall, time.process_time() - cpu))
    wall = sorted(w for w, _ in samples)
    cpu = sorted(c for _, c in samples)
    print(
        f"\nfind_grid on 1920x1080 classic Expert screens (scales 1-2): wall median "
        f"{statistics.median(wall) * 1000:.1f} ms, p95 {wall[int(0.95 * (len(wall) - 1))] * 1000:.1f} ms; "
        f"CPU median {statistics.median(cpu) * 1000:.1f} ms (n={len(wall)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rendered screens and timings")
    args = parser.parse_args()
    real_captures()
    rendered(args.quick)
    no_board()
    speed(args.quick)


if __name__ == "__main__":
    main()
