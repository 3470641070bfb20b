"""Generality as a number: generated looks (``bot/looks``) read with no skin, per look family.

Each seed of ``--seed-range`` (default: the measuring seeds, 1,000,000 on) is one screenshot from
:func:`bot.looks.generate`: a board in a random look, in a state drawn from the seed (fresh, mid-game
with flags, lost, won), damage included. It is read by :func:`bot.vision.read.read_screen` with
``--skin`` (``auto`` by default, as a new user runs; ``generic`` for the skinless reader alone) and the
mine count given, and judged against the truth (:mod:`bot.looks.score`): board found, found whole
(:func:`bot.looks.score.found_whole`: "found" counts every refusal, wherever the board was placed),
frames read exactly, refused, not found, and wrong (any misread cell or misplaced board: 0 is the
rule), per look family (covered style x theme) and along any other axis of the look (``--by``).

    python benchmarks/looks_bench.py [--boards 2000] [--workers 2] [--seed-range 1000000:] [--json FILE]
        [--by covered,theme,font,ink,damage,...] [--skin auto|generic] [--verbose]
    python benchmarks/looks_bench.py --calibrate [--boards 200]   # calibrate --yes from one lost frame
    python benchmarks/looks_bench.py --speed [--boards 10]        # Expert read cold/warm, locate at 1080p

``--calibrate`` makes a skin per look the way ``minebot calibrate --yes`` does, from the look's lost
frame alone, then reads four other frames of the look (mid, won, fresh, another lost) with that skin: a
look passes when the skin is made and every other frame is read exactly (0 wrong cells on all).

``--verbose`` lists every failure, on development seeds only (0-99,999): nobody fixes a failure by
looking at a measuring seed; reproduce it on a development seed first. Results are deterministic for a
seed; ``--workers`` only changes how fast they come.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from multiprocessing import Pool
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import numpy as np  # noqa: E402

from bot.looks import DEV_SEEDS, MEASURE_SEEDS, frames, generate  # noqa: E402
from bot.looks.score import found_whole, judge  # noqa: E402
from bot.progress import Progress  # noqa: E402

AXES = ("covered", "revealed", "theme", "font", "ink", "flag", "mine", "pitch", "geometry", "surroundings")
EXPERT = (16, 30, 99)


def parse_range(text: str, count: int) -> range:
    """``A:B`` (B exclusive), ``A:`` (``count`` seeds from A) or ``A`` alone."""
    start, _, end = text.partition(":")
    first = int(start)
    return range(first, int(end)) if end else range(first, first + count)


def _reader(skin: str, mines: int | None):
    from bot.vision.read import read_screen

    return lambda image: read_screen(image, skin, mines=mines)


def read_one(job: tuple[int, str, bool]) -> dict:
    """Generate one seed's screenshot, read it, and return the row the tables count."""
    seed, skin, give_mines = job
    sample = generate(seed)
    start = time.process_time()
    verdict = judge(
        _reader(skin, sample.truth.mines if give_mines else None), sample.image, sample.truth, sample.geometry
    )
    return {
        "seed": seed,
        "state": sample.state,
        "axes": sample.look.axes(),
        "outcome": verdict.outcome,
        "found": verdict.found,
        "wrong_cells": verdict.wrong_cells,
        "detail": verdict.detail,
        "cpu_ms": round((time.process_time() - start) * 1000),
        "whole": found_whole(verdict, sample.image, sample.geometry),
        "cells": sample.truth.rows * sample.truth.cols,
    }


def calibrate_one(job: tuple[int, str, bool]) -> dict:
    """Calibrate a skin from one seed's lost frame (as ``calibrate --yes``), then read its other frames."""
    from bot.errors import MinebotError
    from bot.skin import load_skin
    from calibration.session import CalibrateOptions, calibrate

    seed, _, give_mines = job
    shots = frames(seed, ("lost", "mid", "won", "fresh", "lost"))
    row = {"seed": seed, "axes": shots[0].look.axes(), "made": False, "exact": 0, "wrong": 0, "detail": ""}
    with tempfile.TemporaryDirectory(prefix="looks-cal-") as folder:
        try:
            options = CalibrateOptions(name=f"look{seed}", out=Path(folder) / "skin")
            calibrate(options, None, [("lost.png", shots[0].image)])
            skin = load_skin(Path(folder) / "skin")
        except MinebotError as error:
            row["detail"] = f"calibrate: {str(error).splitlines()[0][:200]}"
            return row
        except Exception as error:  # noqa: BLE001 - a crash is counted (as a bug), not raised
            row["crash"] = True
            row["detail"] = f"calibrate crashed: {type(error).__name__}: {error}"[:200]
            return row
        row["made"] = True
        for shot in shots[1:]:
            mines = shot.truth.mines if give_mines else None
            verdict = judge(_reader(skin, mines), shot.image, shot.truth, shot.geometry)
            row["exact"] += verdict.outcome == "exact"
            row["wrong"] += verdict.outcome in ("wrong", "crash")
            if verdict.outcome != "exact" and not row["detail"]:
                row["detail"] = f"{shot.state}: {verdict.outcome}: {verdict.detail}"
    row["frames"] = len(shots) - 1
    return row


def _run(fn, jobs: list, workers: int, label: str, log: Path | None) -> list[dict]:
    """Every job's row, in seed order; each also appended to ``log`` (JSON lines) as it comes, so a run
    stopped early leaves its first seeds' rows (an unbiased prefix) for ``--tables-from``."""
    rows: list[dict] = []
    out = log.open("a") if log else None
    with (
        Progress(len(jobs), label) as bar,
        Pool(workers) if workers > 1 else contextlib.nullcontext() as pool,
    ):
        for row in pool.imap(fn, jobs) if pool else map(fn, jobs):
            rows.append(row)
            bar.update()
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
    if out:
        out.close()
    return rows


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}" if d else "-"


def tally(rows: list[dict], axis: str) -> dict[str, Counter]:
    """Outcome counts per value of ``axis`` (plus ``all``)."""
    out: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        for key in (row["axes"][axis], "all"):
            c = out[key]
            c["frames"] += 1
            c[row["outcome"]] += 1
            c["found"] += row["found"]
            c["whole"] += row.get("whole", False)
            c["wrong_cells"] += row["wrong_cells"]
    return dict(out)


def table(rows: list[dict], axis: str) -> str:
    """A markdown table of the outcomes per value of ``axis``."""
    lines = [
        f"| {axis} | frames | board found % | found whole % | read exactly % | refused | not found | crashed "
        "| wrong frames | wrong cells |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    counts = tally(rows, axis)
    for key in sorted(counts, key=lambda k: (k == "all", k)):
        c = counts[key]
        lines.append(
            f"| {key} | {c['frames']} | {_pct(c['found'], c['frames'])} | {_pct(c['whole'], c['frames'])} "
            f"| {_pct(c['exact'], c['frames'])} "
            f"| {c['refused']} | {c['not-found']} | {c['crash']} | {c['wrong']} | {c['wrong_cells']} |"
        )
    return "\n".join(lines)


def calibrate_table(rows: list[dict], axis: str) -> str:
    lines = [
        f"| {axis} | looks | skin made % | all other frames exact % | looks with 0 wrong cells % "
        "| frames exact | crashed |",
        "|---|---|---|---|---|---|---|",
    ]
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups[row["axes"][axis]].append(row)
        groups["all"].append(row)
    for key in sorted(groups, key=lambda k: (k == "all", k)):
        g = groups[key]
        made = sum(r["made"] for r in g)
        passed = sum(r["made"] and r["exact"] == r["frames"] for r in g)
        clean = sum(r["made"] and r["wrong"] == 0 for r in g)
        exact, total = sum(r["exact"] for r in g), sum(r.get("frames", 4) for r in g)
        lines.append(
            f"| {key} | {len(g)} | {_pct(made, len(g))} | {_pct(passed, len(g))} | {_pct(clean, len(g))} "
            f"| {exact}/{total} | {sum(r.get('crash', False) for r in g)} |"
        )
    return "\n".join(lines)


def speed(seeds: range) -> None:
    """Skinless reads of Expert boards (cold: nothing learnt; warm: a model the same look taught) and
    finding the board on a 1080p screen (the grid proposal alone, and found and read); processor time
    (median of 3 runs each), medians over the looks whose board is read exactly."""
    from generic_speed import cpu_ms

    from bot.render import draw_clutter, pixel_canvas
    from bot.vision.generic import GenericModel, read_cells
    from bot.vision.grid import find_grids
    from bot.vision.read import find_generic

    cold, warm, locate, grids, skipped = [], [], [], [], 0
    for seed in seeds:
        sample, again = (generate(seed, "mid", frame=i, size=EXPERT) for i in (0, 1))
        h, w = sample.image.shape[:2]
        if w > 1920 or h > 1080:
            skipped += 1
            continue
        try:
            model = GenericModel()
            reading = read_cells(sample.image, sample.geometry, model)
        except Exception:  # noqa: BLE001 - a look the reader refuses has no speed to report
            skipped += 1
            continue
        if not np.array_equal(reading.states, sample.truth.cells):
            skipped += 1
            continue
        cold.append(cpu_ms(lambda s=sample: read_cells(s.image, s.geometry, None), 3))
        warm.append(cpu_ms(lambda s=again, m=model: _warm(read_cells, s, m), 3))
        screen = np.full((1080, 1920, 3), 90, np.uint8)
        draw_clutter(pixel_canvas(screen), np.random.default_rng(seed), 1920, 1080)
        y, x = (1080 - h) // 2, (1920 - w) // 2
        screen[y : y + h, x : x + w] = sample.image
        locate.append(cpu_ms(lambda s=screen: _locate(find_generic, s), 3))
        grids.append(cpu_ms(lambda s=screen: find_grids(s), 3))
    print(f"looks read exactly: {len(cold)} (skipped {skipped})")
    if cold:
        print("| Expert board, no skin | median ms | max ms |\n|---|---|---|")
        timed = (
            ("read cold (geometry given)", cold),
            ("read warm (geometry given, a model the look taught)", warm),
            ("grid proposal at 1080p (find_grids)", grids),
            ("find and read the board at 1080p (find_generic)", locate),
        )
        for name, values in timed:
            print(f"| {name} | {statistics.median(values):.0f} | {max(values):.0f} |")


def _warm(read_cells, sample, model) -> None:
    import copy

    with contextlib.suppress(Exception):  # timing only: a refusal costs what it costs
        read_cells(sample.image, sample.geometry, copy.deepcopy(model))


def _locate(find_generic, screen) -> None:
    from bot.errors import MinebotError

    with contextlib.suppress(MinebotError):
        find_generic(screen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=200, help="seeds to run (default 200; target run 2000)")
    parser.add_argument(
        "--seed-range", default=f"{MEASURE_SEEDS.start}:", help="A:B or A: (default: the measuring seeds)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--skin", default="auto", help="auto (default) or generic")
    parser.add_argument(
        "--no-mines", action="store_true", help="do not give the mine count (read the counter)"
    )
    parser.add_argument(
        "--by", default="family", help=f"comma-separated axes for tables: family,{','.join(AXES)}"
    )
    parser.add_argument("--json", type=Path, help="write every row and the tables here")
    parser.add_argument("--rows", type=Path, help="append each row here as it comes (JSON lines)")
    parser.add_argument("--tables-from", type=Path, help="print the tables of a --rows file and stop")
    parser.add_argument("--verbose", action="store_true", help="list failures (development seeds only)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--calibrate", action="store_true", help="calibrate --yes from one lost frame per look")
    mode.add_argument("--speed", action="store_true", help="Expert read cold/warm and locate at 1080p")
    args = parser.parse_args(argv)
    seeds = parse_range(args.seed_range, args.boards)
    dev = seeds.start >= DEV_SEEDS.start and seeds.stop <= DEV_SEEDS.stop
    if args.speed:
        speed(seeds)
        return 0
    jobs = [(seed, args.skin, not args.no_mines) for seed in seeds]
    started = time.monotonic()
    fn = calibrate_one if args.calibrate else read_one
    if args.tables_from:
        rows = [json.loads(line) for line in args.tables_from.read_text().splitlines() if line.strip()]
        seeds = range(rows[0]["seed"], rows[-1]["seed"] + 1) if rows else seeds
    else:
        rows = _run(fn, jobs, args.workers, "looks" if args.calibrate else "boards", args.rows)
    dev = seeds.start >= DEV_SEEDS.start and seeds.stop <= DEV_SEEDS.stop
    kind = "development" if dev else "measuring"
    unit = "looks" if args.calibrate else "frames"
    elapsed = time.monotonic() - started
    print(
        f"seeds {seeds.start}-{seeds.stop - 1} ({kind}), skin {args.skin}, {len(rows)} {unit}, {elapsed:.0f}s"
    )
    tables = {}
    for axis in args.by.split(","):
        tables[axis] = calibrate_table(rows, axis) if args.calibrate else table(rows, axis)
        print(f"\n{tables[axis]}")
    if not args.calibrate:
        ms = [r["cpu_ms"] for r in rows]
        print(f"\nprocessor time per read: median {statistics.median(ms):.0f} ms, max {max(ms)} ms")
    if args.verbose:
        if not dev:
            print("\n(--verbose lists failures on development seeds only: reproduce there first)")
        else:
            for row in rows:
                bad = row.get("outcome", "exact") != "exact" or (args.calibrate and row["detail"])
                if bad:
                    family, outcome = row["axes"]["family"], row.get("outcome", "")
                    print(f"  seed {row['seed']} {family}: {outcome} {row['detail']}")
    if args.json:
        args.json.write_text(
            json.dumps({"seeds": [seeds.start, seeds.stop], "rows": rows, "tables": tables}, indent=1)
        )
    wrong = sum(r["wrong"] if args.calibrate else r["outcome"] in ("wrong", "crash") for r in rows)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
