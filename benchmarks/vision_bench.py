"""Vision benchmark: cell accuracy over every stage, size, scale and JPEG quality; locate and classify speed.

Run: ``python benchmarks/vision_bench.py`` (add ``--quick`` for one level). Prints the accuracy table,
then median/95th-percentile times for locating a board on a 1920x1080 screenshot (known skin, and
``auto``), for classifying an Expert board with its geometry known, and for the play loop's per-move
``read_board`` on the grabbed board-and-face region (cells, face and status).

``--unseen`` instead reads with every shipped skin less one state at a time (as a calibrated skin that
never met it): rendered classic screens (every stage and level, a board of every state; PNG and
JPEG) and the real captures in ``tests/data/real``. It counts the cells of the missing state that were
refused (must be all), and the other cells read right, refused, and read wrong (must be none).

``--tint`` instead reads every real capture that has a shipped skin (``tests/data/real``) through the
night-light tint (``harness/colour.py``: blue x0.6, green x0.85, gamma 1.25), with its skin and with
``auto``, and counts frames read exactly, refused and read wrong (must be none); also rendered classic
screens of every stage through the same tint; with the time each read took.

``--real`` instead reads every real capture in ``tests/data/real`` (any client) with ``auto``, which
falls back to the skinless reader when no template skin reads the board exactly and whole: frames read
exactly with a skin, exactly with no skin, refused, and wrong (must be none), with CPU time per frame.

``--calibrated`` instead calibrates a skin from ONE screenshot of each look in ``tests/styles.py`` (a
game not yet lost, so no mines; the truth answers calibration's questions) at scales 1-2, then reads
five boards of states it knows and five lost boards (mines it never saw) with ``read_screen``: the
first must read exactly, the second must be refused naming a cell of a state the skin lacks.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.board import Board  # noqa: E402
from bot.errors import MinebotError  # noqa: E402
from bot.geometry import Geometry  # noqa: E402
from bot.render import jpeg_roundtrip, render_screen  # noqa: E402
from bot.skin import find_skin  # noqa: E402
from bot.vision import classify_cells, locate_board, read_board, read_screen  # noqa: E402
from bot.vision.cases import ALL_STATES, screen_cases, skin_without, stage_boards  # noqa: E402

REAL = Path(__file__).resolve().parent.parent / "tests" / "data" / "real"


def _ms(samples: list[tuple[float, float]]) -> str:
    """Median and p95 wall time, and median CPU time (the machine may be shared: CPU time is steadier)."""
    wall = sorted(w for w, _ in samples)
    cpu = sorted(c for _, c in samples)
    p95 = wall[min(len(wall) - 1, int(0.95 * len(wall)))]
    return (
        f"wall median {statistics.median(wall) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms; "
        f"CPU median {statistics.median(cpu) * 1000:.1f} ms (n={len(wall)})"
    )


class _Timer:
    """Wall and process CPU time of a block, appended to a list."""

    def __init__(self, into: list[tuple[float, float]]) -> None:
        self.into = into

    def __enter__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def __exit__(self, *exc: object) -> None:
        self.into.append((time.perf_counter() - self.wall, time.process_time() - self.cpu))


def accuracy(levels: tuple[str, ...], qualities: tuple[int | None, ...]) -> tuple[int, int, int, int]:
    """(screens, screens all right, cells, cells right) over the case matrix, read with skin auto."""
    screens = right_screens = cells = right_cells = 0
    for case in screen_cases(levels=levels, jpeg_qualities=qualities):
        screens += 1
        cells += case.board.cells.size
        try:
            reading = read_screen(case.image, "auto")
        except MinebotError as exc:
            print(f"  {case.label}: {type(exc).__name__}: {exc}")
            continue
        if reading.board.shape == case.board.shape:
            good = int((reading.board.cells == case.board.cells).sum())
            right_cells += good
            ok = good == case.board.cells.size and reading.status == case.status
            right_screens += ok
            if not ok:
                print(
                    f"  {case.label}: {case.board.cells.size - good} cell(s) wrong, status {reading.status}"
                )
        else:
            print(f"  {case.label}: read {reading.board.shape}, truth {case.board.shape}")
    return screens, right_screens, cells, right_cells


def speed(repeats: int) -> None:
    classic = find_skin("classic")
    expert = stage_boards("expert", seed=0)[1]
    shots = [
        render_screen(expert.board, "classic", scale, seed=seed)
        for seed, scale in enumerate((1.0, 1.25, 1.5, 1.75))
    ]
    locate_board(shots[0][0], classic)  # warm caches
    times: list[tuple[float, float]] = []
    for _ in range(repeats):
        for image, _ in shots:
            with _Timer(times):
                locate_board(image, classic)
    print(f"locate, Expert on 1920x1080, skin classic: {_ms(times)}")
    times = []
    for image, _ in shots:
        with _Timer(times):
            read_screen(image, "auto")
    print(f"read_screen with skin auto (tries every skin): {_ms(times)}")
    for image, geometry in shots[:2]:
        classify_cells(image, geometry, classic)
        times = []
        for _ in range(repeats * 20):
            with _Timer(times):
                classify_cells(image, geometry, classic)
        print(f"classify 16x30 board, pitch {geometry.pitch_x:g}, geometry known: {_ms(times)}")
    for image, _ in shots[:2]:
        located = read_screen(image, classic)
        region = located.geometry.region().union(located.geometry.face)
        grabbed = image[region.top : region.bottom, region.left : region.right].copy()
        geometry = located.geometry.offset(-region.left, -region.top)
        times = []
        for _ in range(repeats * 20):
            with _Timer(times):
                read_board(grabbed, geometry, classic)
        print(f"read_board per move (16x30 + face), pitch {geometry.pitch_x:g}: {_ms(times)}")


def _unseen_screens(name: str, qualities: tuple[int | None, ...]) -> list[tuple[np.ndarray, Board, Geometry]]:
    """Screens with their truth and geometry: rendered for classic, the real captures otherwise."""
    if name != "classic":
        skin = find_skin(name)
        shots = []
        for png in sorted((REAL / name).glob("*.png")):
            image, truth = cv2.imread(str(png)), Board.from_text(png.with_suffix(".txt").read_text())
            shots.append((image, truth, read_screen(image, skin, truth.mines).geometry))
        return shots
    shots = [(case.image, case.board, case.geometry) for case in screen_cases(jpeg_qualities=qualities)]
    for index, scale in enumerate((1.0, 1.25, 1.5, 1.75, 2.0, 2.04)):
        image, geometry = render_screen(ALL_STATES, "classic", scale, seed=index)
        shots += [(image if q is None else jpeg_roundtrip(image, q), ALL_STATES, geometry) for q in qualities]
    return shots


def unseen(qualities: tuple[int | None, ...]) -> bool:
    """Read with each shipped skin less one state; print a table; True when no cell was read wrong."""
    print("| skin | state missing | its cells shown | refused | other cells | read right | refused | wrong |")
    print("|---|---|---|---|---|---|---|---|")
    safe = True
    for name in ("classic", "winemine", "xdemineur"):
        full = find_skin(name)
        screens = _unseen_screens(name, qualities)
        for state in sorted(full.cells):
            if state == state.COVERED:
                continue  # a skin cannot lack its covered template
            with tempfile.TemporaryDirectory() as folder:
                skin = skin_without(full, state, Path(folder) / "skin")
                counts = np.zeros(6, dtype=np.int64)
                for image, truth, geometry in screens:
                    cells = classify_cells(image, geometry, skin)
                    gone, unsure = truth.cells == state, cells.uncertain_mask()
                    right = cells.states == truth.cells
                    counts += [
                        gone.sum(),
                        (gone & unsure).sum(),
                        (~gone).sum(),
                        (~gone & ~unsure & right).sum(),
                        (~gone & unsure).sum(),
                        (~gone & ~unsure & ~right).sum(),
                    ]
            if counts[0]:
                print(f"| {name} | {state.char} | " + " | ".join(str(int(c)) for c in counts) + " |")
            safe &= counts[0] == counts[1] and counts[5] == 0
    return safe


def _tinted_frames() -> list[tuple[str, str, np.ndarray, Board]]:
    """(label, skin, tinted image, truth) for every real capture with a shipped skin, and rendered classic."""
    from bot.skin import list_skins
    from harness.colour import night_light

    frames = []
    for png in sorted(REAL.glob("*/*.png")):
        if png.parent.name in list_skins():
            truth = Board.from_text(png.with_suffix(".txt").read_text())
            frames.append(
                (f"{png.parent.name}/{png.stem}", png.parent.name, night_light(cv2.imread(str(png))), truth)
            )
    for case in screen_cases(levels=("beginner", "expert"), scales=(1.0, 1.5), jpeg_qualities=(None,)):
        frames.append((f"classic {case.label}", "classic", night_light(case.image), case.board))
    return frames


def tint() -> bool:
    """Tinted frames through read_screen with their skin and with auto; True when none read wrong."""
    from collections import Counter

    frames = _tinted_frames()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPU(s)")
    print("| frames | skin | exact | refused | wrong | time per frame (median, max) |")
    print("|---|---|---|---|---|---|")
    wrong_any = False
    for mode in ("named", "auto"):
        for group in sorted({skin for _, skin, _, _ in frames}):
            outcome: Counter[str] = Counter()
            times = []
            for label, skin, image, truth in frames:
                if skin != group:
                    continue
                start = time.perf_counter()
                try:
                    reading = read_screen(image, skin if mode == "named" else "auto", truth.mines)
                    good = reading.board.shape == truth.shape and np.array_equal(
                        reading.board.cells, truth.cells
                    )
                    outcome["exact" if good else "wrong"] += 1
                    if not good:
                        print(f"  WRONG {label} ({mode})")
                except MinebotError as exc:
                    outcome["refused"] += 1
                    print(f"  refused {label} ({mode}): {str(exc)[:120]}")
                times.append(time.perf_counter() - start)
            wrong_any |= outcome["wrong"] > 0
            print(
                f"| {group} ({sum(outcome.values())}) | {group if mode == 'named' else 'auto'} | "
                f"{outcome['exact']} | {outcome['refused']} | {outcome['wrong']} | "
                f"{statistics.median(times) * 1000:.0f} ms, {max(times) * 1000:.0f} ms |"
            )
    return not wrong_any


def calibrated() -> bool:
    """read_screen with skins calibrated from one shot of each test look; True when nothing was wrong."""
    from collections import Counter

    sys.path.insert(0, str(REAL.parent.parent))
    from styles import LOOKS, REALDATA, fit_board, mid_game, real_look, screenshot

    from bot.board import Cell
    from bot.errors import RecognitionError
    from bot.skin import load_skin
    from calibration.session import CalibrateOptions, calibrate

    looks = [(name, scale) for name in LOOKS for scale in (1.0, 1.25, 1.5, 1.625, 2.0)]
    if REALDATA.is_dir():
        looks += [(name, scale) for name in ("msx", "msx125", "win7") for scale in (1.0, 1.25, 1.625)]
    print(
        "| look | scale | known-state boards read exactly | lost boards refused on an unseen cell | other |"
    )
    print("|---|---|---|---|---|")
    good = True
    for name, scale in looks:
        look = LOOKS[name] if name in LOOKS else real_look(name)
        shot = fit_board(mid_game(12, 20, 40, seed=5, opened=0.4, flags=3), look)

        def answer(analysis, sheet, shot=shot):
            """Stands in for the user: each unsure group is what most of its cells truly are."""
            answers = {}
            for p in analysis.unsure():
                votes = Counter(int(shot.cells[m.cell]) for m in analysis.groups[p.group].members)
                answers[p.group] = Cell(votes.most_common(1)[0][0])
            return answers

        with tempfile.TemporaryDirectory() as folder:
            options = CalibrateOptions(name=f"{name}-{scale}", out=Path(folder) / "skin")
            report = calibrate(options, answer, images=[("shot.png", screenshot(shot, look, scale)[0])])
            skin = load_skin(report.skin_path)
        missing = [int(c) for c in skin.missing_states()]
        outcome: Counter[str] = Counter()
        for seed in (9, 13, 17, 21, 25):
            lost = fit_board(mid_game(12, 20, 62, seed=seed, opened=0.4, lost=True), look)
            known = lost.copy()
            known.cells[np.isin(known.cells, missing)] = Cell.COVERED
            for truth, kind in ((known, "known"), (lost, "lost")):
                try:
                    board = read_screen(screenshot(truth, look, scale)[0], skin).board
                    result = "exact" if np.array_equal(board.cells, truth.cells) else "WRONG"
                except RecognitionError as exc:
                    result = "refused" if int(truth.cells[exc.cell]) in missing else "refused a known cell"
                except MinebotError as exc:
                    result = type(exc).__name__
                outcome[f"{kind} {result}"] += 1
        other = {k: v for k, v in outcome.items() if k not in ("known exact", "lost refused")}
        print(
            f"| {name} | {scale} | {outcome['known exact']}/5 | {outcome['lost refused']}/5 | "
            + (", ".join(f"{k}: {v}" for k, v in sorted(other.items())) or "-")
            + " |"
        )
        good &= not any("WRONG" in k for k in outcome)
    return good


def real_auto() -> bool:
    """Every real capture (tests/data/real, any client) through ``read_screen(image, "auto")``: frames
    read exactly (by a template skin, or with no skin after the fallback), refused, and read wrong."""
    from collections import Counter

    counts: dict[str, Counter[str]] = {}
    wrong_any = False
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPU(s)")
    for png in sorted(REAL.glob("**/*.png")):
        if not png.with_suffix(".txt").is_file():
            continue
        truth = Board.from_text(png.with_suffix(".txt").read_text())
        group = str(png.parent.relative_to(REAL))
        outcome = counts.setdefault(group, Counter())
        start = time.process_time()
        try:
            reading = read_screen(cv2.imread(str(png)), "auto")
            good = np.array_equal(reading.board.cells, truth.cells)
            outcome[("skin" if reading.skin.cells else "generic") if good else "wrong"] += 1
            wrong_any |= not good
            if not good:
                print(f"  WRONG {group}/{png.stem} ({reading.skin.name})")
        except MinebotError as exc:
            outcome["refused"] += 1
            print(f"  refused {group}/{png.stem}: {str(exc)[:140]}")
        outcome["ms"] += round(1000 * (time.process_time() - start))
    print("| captures | frames | exact with a skin | exact, no skin | refused | wrong | CPU ms per frame |")
    print("|---|---|---|---|---|---|---|")
    for group, c in counts.items():
        n = c["skin"] + c["generic"] + c["refused"] + c["wrong"]
        cells = f"{c['skin']} | {c['generic']} | {c['refused']} | {c['wrong']}"
        print(f"| {group} | {n} | {cells} | {c['ms'] / n:.0f} |")
    return not wrong_any


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="beginner only, PNG only")
    parser.add_argument("--repeats", type=int, default=10, help="timing repeats (default 10)")
    parser.add_argument(
        "--unseen",
        action="store_true",
        help="instead: shipped skins less one state, cells refused vs misread",
    )
    parser.add_argument(
        "--calibrated", action="store_true", help="instead: read_screen with skins calibrated from test looks"
    )
    parser.add_argument(
        "--tint", action="store_true", help="instead: real captures and classic screens through a night light"
    )
    parser.add_argument(
        "--real", action="store_true", help="instead: every real capture read with auto (fallback included)"
    )
    args = parser.parse_args(argv)
    if args.real:
        return 0 if real_auto() else 1
    if args.tint:
        return 0 if tint() else 1
    levels = ("beginner",) if args.quick else ("beginner", "intermediate", "expert")
    qualities: tuple[int | None, ...] = (None,) if args.quick else (None, 90, 75)
    if args.unseen:
        return 0 if unseen(qualities) else 1
    if args.calibrated:
        return 0 if calibrated() else 1
    screens, good_screens, cells, good_cells = accuracy(levels, qualities)
    print(
        f"accuracy: {good_screens}/{screens} screenshots entirely right, {good_cells}/{cells} cells "
        f"({100 * good_cells / max(cells, 1):.3f}%) - stages fresh/mid/won/lost, scales 1-2.04, "
        f"{'PNG' if args.quick else 'PNG + JPEG q90 + q75'}"
    )
    print(f"load average before timing: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPU(s)")
    speed(args.repeats)
    return 0 if good_cells == cells else 1


if __name__ == "__main__":
    np.set_printoptions(linewidth=120)
    sys.exit(main())
