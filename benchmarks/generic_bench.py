"""Reading with no skin: frames exact / refused / wrong cells and time per read, per client, scale and tint.

Every capture under ``tests/data/real/<client>[/<setting>]/`` is read at its known geometry (the .json
sidecar, else the .txt header) by :func:`bot.vision.generic.read_cells` with no calibration, plain and
under the night-light tint. ``cold`` is a first read (nothing learnt); ``warm`` re-reads the frame with
the model the folder's frames taught so far (successive frames of one game), which is what live play
pays per move. Times are the best of ``--repeat`` runs: wall ms, and CPU ms (``time.process_time``,
steadier on a shared machine) for the Expert-sized frames. ``--grid`` also times
:func:`bot.vision.grid.find_grid` on the whole capture.

    python benchmarks/generic_bench.py [--repeat 3] [--grid]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.board import Board  # noqa: E402
from bot.errors import MinebotError, RecognitionError  # noqa: E402
from bot.geometry import Geometry  # noqa: E402
from bot.vision.generic import GenericModel, read_cells  # noqa: E402
from harness.colour import night_light  # noqa: E402

REAL = REPO / "tests" / "data" / "real"


@dataclass
class Row:
    """Figures for one client, setting and tint."""

    frames: int = 0
    exact: int = 0
    refused: int = 0
    wrong_cells: int = 0
    cold_ms: list[float] = field(default_factory=list)
    warm_ms: list[float] = field(default_factory=list)
    expert_ms: list[float] = field(default_factory=list)
    expert_cpu_ms: list[float] = field(default_factory=list)
    grid_ms: list[float] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)


def geometry_of(png: Path, board: Board) -> Geometry:
    """The capture's geometry from its .json sidecar, else its .txt header."""
    sidecar = png.with_suffix(".json")
    if sidecar.is_file():
        g = json.loads(sidecar.read_text())["geometry"]
        return Geometry(g["left"], g["top"], g["pitch_x"], g["pitch_y"], g["rows"], g["cols"])
    lines = png.with_suffix(".txt").read_text().splitlines()
    header = dict(line[2:].split(":", 1) for line in lines if line.startswith("# "))
    left, top, _, _ = (int(v) for v in header["board"].split())
    pitch = float(header["pitch"])
    return Geometry(left, top, pitch, pitch, board.rows, board.cols)


def _timed(fn, repeat: int) -> tuple[object, float, float]:
    """The result of ``fn()`` (or the error it raised) and its best wall and CPU times in ms over
    ``repeat`` runs."""
    best, best_cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            result = fn()
        except MinebotError as exc:
            result = exc
        best = min(best, (time.perf_counter() - start) * 1000)
        best_cpu = min(best_cpu, (time.process_time() - start_cpu) * 1000)
    return result, best, best_cpu


def bench_folder(folder: Path, tinted: bool, repeat: int, grid: bool) -> Row:
    """Read every capture of one folder (in name order, sharing one learnt model for the warm reads)."""
    row = Row()
    model = GenericModel()
    for png in sorted(folder.glob("*.png")):
        truth = Board.from_text(png.with_suffix(".txt").read_text())
        image = cv2.imread(str(png))
        if tinted:
            image = night_light(image)
        geometry = geometry_of(png, truth)
        result, cold, cold_cpu = _timed(
            lambda image=image, geometry=geometry: read_cells(image, geometry), repeat
        )
        row.frames += 1
        row.cold_ms.append(cold)
        if truth.rows * truth.cols >= 480:
            row.expert_ms.append(cold)
            row.expert_cpu_ms.append(cold_cpu)
        if isinstance(result, RecognitionError):
            row.refused += 1
            row.refusals.append(f"{png.name}: {result}")
        elif isinstance(result, MinebotError):
            raise result
        else:
            wrong = int((result.states != truth.cells).sum())  # type: ignore[union-attr]
            row.wrong_cells += wrong
            row.exact += wrong == 0
            read_cells(image, geometry, model)  # learn from it, then time a warm re-read
            _, warm, _ = _timed(
                lambda image=image, geometry=geometry: read_cells(image, geometry, model), repeat
            )
            row.warm_ms.append(warm)
        if grid:
            from bot.vision.grid import find_grid

            _, ms, _ = _timed(lambda image=image: find_grid(image), repeat)
            row.grid_ms.append(ms)
    return row


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values):.1f}" if values else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per read; the best time counts")
    parser.add_argument("--grid", action="store_true", help="also time the skinless grid finder")
    parser.add_argument("--verbose", action="store_true", help="list every refusal")
    args = parser.parse_args(argv)
    folders = sorted({p.parent for p in REAL.glob("**/*.png")})
    print(
        "| client / setting | tint | frames | exact | refused | wrong cells "
        "| cold ms (median) | Expert cold ms | Expert cold CPU ms | warm ms |"
        + (" grid ms |" if args.grid else "")
    )
    print("|---|---|---|---|---|---|---|---|---|---|" + ("---|" if args.grid else ""))
    totals = Row()
    for folder in folders:
        for tinted in (False, True):
            row = bench_folder(folder, tinted, args.repeat, args.grid)
            totals.frames += row.frames
            totals.exact += row.exact
            totals.refused += row.refused
            totals.wrong_cells += row.wrong_cells
            print(
                f"| {folder.relative_to(REAL)} | {'night light' if tinted else '-'} | {row.frames} "
                f"| {row.exact} | {row.refused} | {row.wrong_cells} "
                f"| {_ms(row.cold_ms)} | {_ms(row.expert_ms)} | {_ms(row.expert_cpu_ms)} "
                f"| {_ms(row.warm_ms)} |" + (f" {_ms(row.grid_ms)} |" if args.grid else "")
            )
            if args.verbose:
                for line in row.refusals:
                    print(f"    refused {line}")
    print(
        f"\nall: {totals.frames} frames, {totals.exact} exact, {totals.refused} refused, "
        f"{totals.wrong_cells} wrong cells"
    )
    return 1 if totals.wrong_cells else 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    raise SystemExit(main())
