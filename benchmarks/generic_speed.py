"""Speed of reading with no skin: processor time per board, per client and zoom, cold and warm.

Every capture under ``tests/data/real/`` and ``tests/data/generic/`` whose geometry is known (a .json
sidecar or a .txt header with a box) is read by :func:`bot.vision.generic.read_cells` at that geometry:
``cold`` with nothing learnt, ``carried`` with the :class:`~bot.vision.generic.GenericModel` the folder's
earlier frames taught (in name order, as live play carries one from move to move) and ``re-read`` with the
model that frame itself taught too (a board unchanged since the last move). ``screen`` times
:func:`bot.vision.read.read_screen` with ``"generic"`` on the whole capture (grid finding included).
Each figure is the median (``--least``: the least) of ``--repeat`` runs of ``time.process_time``
(processor time, which other load on a shared machine inflates far less than wall time); a row gives
the median over its Expert-sized frames (480 cells or more), else over all its frames.

    python benchmarks/generic_speed.py [--repeat 5] [--only SUBSTRING] [--verbose] [--no-screen] [--least]
    python benchmarks/generic_speed.py --profile tests/data/real/ace-minesweeper/board_lost.png [--warm]
    python benchmarks/generic_speed.py --stages [--only jsminesweeper]   # each step of a cold read

A change meant only to be faster must read alike: ``--dump FILE`` writes every reading of every capture
(plain and under the night-light tint; cold, learnt in order with the folder's model, and re-read with
it: the cells, or the refusal's message, cell and alternatives, and a digest of the model learnt) as
JSON, and ``--compare BEFORE AFTER`` lists every reading that differs (exit status 1 if any).

    python benchmarks/generic_speed.py --dump /tmp/before.json   # on the tree before, then after
    python benchmarks/generic_speed.py --compare /tmp/before.json /tmp/after.json
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import cProfile
import hashlib
import json
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from generic_bench import geometry_of  # noqa: E402

from bot.board import Board  # noqa: E402
from bot.errors import MinebotError  # noqa: E402
from bot.geometry import Geometry  # noqa: E402
from bot.vision.generic import GenericModel, read_cells  # noqa: E402
from bot.vision.read import read_screen  # noqa: E402
from harness.colour import night_light  # noqa: E402

DATA = (REPO / "tests" / "data" / "real", REPO / "tests" / "data" / "generic")
EXPERT_CELLS = 480


def frames(only: str = "") -> list[tuple[Path, np.ndarray, Geometry]]:
    """Every capture with a known geometry (name order), its pixels and its geometry."""
    found = []
    for root in DATA:
        for png in sorted(root.glob("**/*.png")):
            text = png.with_suffix(".txt")
            if only not in str(png.relative_to(REPO)) or not text.is_file():
                continue
            try:
                geometry = geometry_of(png, Board.from_text(text.read_text()))
            except (KeyError, ValueError):
                continue  # no box in the header: its geometry is not known
            found.append((png, cv2.imread(str(png)), geometry))
    return found


LEAST = False
"""``--least``: each frame's figure is the least of its runs (the run other load disturbed least: on a
busy shared machine the steadier figure for comparing two trees), not their median."""


def cpu_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median (``--least``: least) processor time of ``fn()`` in ms over ``repeat`` runs (a refusal
    counts like a reading)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        with contextlib.suppress(MinebotError):
            fn()
        times.append((time.process_time() - start) * 1000)
    return min(times) if LEAST else statistics.median(times)


def _read(image: np.ndarray, geometry: Geometry, model: GenericModel | None) -> object:
    """``read_cells`` with a copy of ``model`` (a timed run must not teach the next one)."""
    return read_cells(image, geometry, copy.deepcopy(model) if model is not None else None)


def _learn(image: np.ndarray, geometry: Geometry, model: GenericModel) -> None:
    """Let ``model`` learn from the frame (a refusal teaches nothing)."""
    with contextlib.suppress(MinebotError):
        read_cells(image, geometry, model)


def bench(repeat: int, only: str, screen: bool, verbose: bool) -> None:
    """Print one row per folder (and per frame with ``verbose``)."""
    by_folder: dict[Path, list[tuple[Path, np.ndarray, Geometry]]] = {}
    for png, image, geometry in frames(only):
        by_folder.setdefault(png.parent, []).append((png, image, geometry))
    print(
        "| folder | frames | cells | pitch | cold CPU ms | carried CPU ms | re-read CPU ms"
        + (" | screen CPU ms |" if screen else " |")
    )
    print("|---|---|---|---|---|---|---" + ("|---|" if screen else "|"))
    for folder, items in by_folder.items():
        model = GenericModel()
        rows: list[tuple[bool, list[float]]] = []
        for png, image, geometry in items:
            cold = cpu_ms(partial(_read, image, geometry, None), repeat)
            carried = cpu_ms(partial(_read, image, geometry, model), repeat)
            _learn(image, geometry, model)
            reread = cpu_ms(partial(_read, image, geometry, model), repeat)
            figures = [cold, carried, reread]
            if screen:
                figures.append(cpu_ms(partial(read_screen, image, "generic"), repeat))
            expert = geometry.rows * geometry.cols >= EXPERT_CELLS
            rows.append((expert, figures))
            if verbose:
                print(f"    {png.relative_to(REPO)}: " + " / ".join(f"{f:.1f}" for f in figures))
        chosen = [f for expert, f in rows if expert] or [f for _, f in rows]
        g = max((geometry for _, _, geometry in items), key=lambda geometry: geometry.rows * geometry.cols)
        cells = f"{g.rows}x{g.cols}"
        medians = " | ".join(f"{statistics.median(col):.1f}" for col in zip(*chosen, strict=True))
        print(
            f"| {folder.relative_to(REPO / 'tests' / 'data')} | {len(chosen)} | {cells} "
            f"| {g.pitch_x:g} | {medians} |"
        )


STAGES = (
    "repair_runs",
    "crop_board",
    "looks_of",
    "cut_tiles",
    "group_cells",
    "_cut_edge",
    "_groups_of",
    "name_groups",
    "_plain_kinds",
    "base_of",
    "shape_of",
    "alike",
)
"""The steps of a cold read timed by ``--stages`` (each inclusive: ``_cut_edge`` crops and groups too;
``_plain_kinds``, ``base_of`` and ``shape_of`` are parts of ``name_groups``: tile kinds, each glyph's base
and each glyph's shape)."""


def stages(repeat: int, only: str) -> None:
    """Median processor time of each step of :data:`STAGES` in a cold read, per folder (Expert frames)."""
    from bot.vision import cutting, describe, generic, naming, overdraw, tilekinds

    spent: dict[str, float] = {}

    def timed(name: str, fn: Callable[..., object]) -> Callable[..., object]:
        def run(*args: object, **kwargs: object) -> object:
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.process_time() - start

        return run

    for name in STAGES:  # timed wherever the reader's modules look it up
        for module in (overdraw, cutting, describe, tilekinds, naming, generic):
            if hasattr(module, name):
                setattr(module, name, timed(name, getattr(module, name)))
    print("| folder | read | " + " | ".join(STAGES) + " |")
    print("|---" * (len(STAGES) + 2) + "|")
    by_folder: dict[Path, list[list[float]]] = {}
    for png, image, geometry in frames(only):
        if geometry.rows * geometry.cols < EXPERT_CELLS:
            continue
        runs = []
        for _ in range(repeat):
            spent.clear()
            start = time.process_time()
            with contextlib.suppress(MinebotError):
                _read(image, geometry, None)
            spent["read"] = time.process_time() - start
            runs.append([spent.get(name, 0.0) * 1000 for name in ("read", *STAGES)])
        by_folder.setdefault(png.parent, []).append(
            [statistics.median(col) for col in zip(*runs, strict=True)]
        )
    for folder, rows in by_folder.items():
        medians = " | ".join(f"{statistics.median(col):.1f}" for col in zip(*rows, strict=True))
        print(f"| {folder.relative_to(REPO / 'tests' / 'data')} | {medians} |")


def profile(path: str, warm: bool, repeat: int) -> None:
    """cProfile ``repeat`` cold reads (``warm``: re-reads with the model the frame taught) of one capture,
    after one read unprofiled (what a process builds once, as the reference digits, is left out)."""
    png = (REPO / path).resolve() if not Path(path).is_absolute() else Path(path)
    image = cv2.imread(str(png))
    geometry = geometry_of(png, Board.from_text(png.with_suffix(".txt").read_text()))
    model = GenericModel() if warm else None
    if model is not None:
        _learn(image, geometry, model)
    with contextlib.suppress(MinebotError):  # the reference digits are drawn once, at a process's first read
        _read(image, geometry, model)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeat):
        with contextlib.suppress(MinebotError):
            _read(image, geometry, model)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def _outcome(image: np.ndarray, geometry: Geometry, model: GenericModel | None) -> list:
    """What one reading gives: its cells, or the refusal (message, cell, the alternatives it carries)."""
    try:
        reading = read_cells(image, geometry, model)
    except MinebotError as exc:
        alternatives = [np.asarray(a).tolist() for a in getattr(exc, "alternatives", None) or ()]
        cell = getattr(exc, "cell", None)
        return ["refused", str(exc), list(cell) if cell is not None else None, alternatives]
    return ["read", reading.skin_name, reading.states.tolist()]


def _digest(model: GenericModel) -> list:
    """A model's named looks (hashed), their states and its last reading."""
    last = model.last.tolist() if model.last is not None else None
    return [hashlib.sha1(model.looks.tobytes()).hexdigest(), [int(s) for s in model.states], last]


def dump(path: str, only: str) -> None:
    """Write every reading of every capture (see the module's docstring) to ``path`` as JSON."""
    by_folder: dict[Path, list[tuple[Path, np.ndarray, Geometry]]] = {}
    for png, image, geometry in frames(only):
        by_folder.setdefault(png.parent, []).append((png, image, geometry))
    found: dict[str, list] = {}
    for items in by_folder.values():
        for tint in ("plain", "night light"):
            model = GenericModel()
            for png, image, geometry in items:
                shown = night_light(image) if tint != "plain" else image
                key = f"{png.relative_to(REPO)} | {tint} | "
                found[key + "cold"] = _outcome(shown, geometry, None)
                found[key + "learnt"] = _outcome(shown, geometry, model)
                found[key + "model"] = _digest(model)
                found[key + "re-read"] = _outcome(shown, geometry, copy.deepcopy(model))
    Path(path).write_text(json.dumps(found))
    read = sum(v[0] == "read" for k, v in found.items() if not k.endswith("model"))
    print(f"{len(found)} entries, {read} readings read, written to {path}")


def compare(before: str, after: str) -> int:
    """Print every reading that differs between two dumps; 1 if any does."""
    a, b = json.loads(Path(before).read_text()), json.loads(Path(after).read_text())
    differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    for key in differ:
        print(f"differs: {key}\n    before: {str(a.get(key))[:200]}\n    after:  {str(b.get(key))[:200]}")
    print(f"{len(a)} / {len(b)} entries, {len(differ)} differ")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure; the median counts")
    parser.add_argument("--only", default="", help="only captures whose path holds this")
    parser.add_argument("--no-screen", action="store_true", help="skip read_screen on the whole capture")
    parser.add_argument("--least", action="store_true", help="each frame's least time, not the median")
    parser.add_argument("--verbose", action="store_true", help="a line per capture")
    parser.add_argument("--profile", metavar="PNG", help="profile the reads of one capture instead")
    parser.add_argument("--warm", action="store_true", help="with --profile: warm re-reads")
    parser.add_argument("--stages", action="store_true", help="time each step of a cold read instead")
    parser.add_argument("--dump", metavar="FILE", help="write every reading (JSON) instead")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"), help="compare two dumps")
    args = parser.parse_args(argv)
    global LEAST
    LEAST = args.least
    if args.compare:
        return compare(*args.compare)
    if args.dump:
        dump(args.dump, args.only)
    elif args.profile:
        profile(args.profile, args.warm, args.repeat)
    elif args.stages:
        stages(args.repeat, args.only)
    else:
        bench(args.repeat, args.only, not args.no_screen, args.verbose)
    return 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    raise SystemExit(main())
