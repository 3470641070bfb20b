"""Calibration on real clients: ``minebot calibrate SHOT --yes`` from one lost Expert screenshot, then
every other screenshot of that client (same tile size and zoom) read with the new skin.

Each folder of ``tests/data/real`` holding an ``expert_lost.png`` (``board_lost.png`` for a client
with one fixed board; with ``.txt`` truth) is one set:
winemine, xdemineur, and each ``t{tile}_z{zoom}`` folder of the browser and other clients. The skin is
made exactly as the command makes it (:func:`calibration.session.calibrate`, nobody to ask), and the
other screenshots are read as play and ``minebot dry-run`` read them (:func:`bot.vision.read_screen`:
find the board on the whole screenshot, then read every cell). Per set it prints: the groups that
would need a question (``--yes`` fails then), the unsure groups left out, and over the other
screenshots: read exactly, refused (vision declined a cell: never a wrong click), and wrong (a cell
read as another state, or a board found at another size): wrong must be 0.

    python benchmarks/calibration_real.py [--only NAME] [--details] [--sidecar-grid]
    python benchmarks/calibration_real.py --scale 1.5 --interp nearest [--night-light]

``--scale`` and ``--night-light`` damage every screenshot of a set alike, as a display scale (resized by
``cv2.resize``) or a night-light filter would, before calibrating and reading: what a user at 150%
gets from one lost screenshot of their own screen.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.board import Board  # noqa: E402
from bot.errors import MinebotError  # noqa: E402
from bot.geometry import Geometry  # noqa: E402
from bot.skin import load_skin  # noqa: E402
from bot.vision import read_screen  # noqa: E402
from calibration.model import CalibrationError  # noqa: E402
from calibration.pipeline import analyse  # noqa: E402
from calibration.session import CalibrateOptions, calibrate, can_leave_out  # noqa: E402

REAL = Path(__file__).resolve().parent.parent / "tests" / "data" / "real"


@dataclass
class SetResult:
    """One client set: what calibration needed, and how the other screenshots read."""

    name: str
    questions: int = 0
    left_out: int = 0
    frames: int = 0
    exact: int = 0
    unseen: int = 0
    """Frames refused that show a state the calibration shot never showed (a 7, say): expected."""
    refused: int = 0
    wrong_frames: int = 0
    wrong_cells: int = 0
    seconds: float = 0.0
    error: str = ""
    details: list[str] = field(default_factory=list)


LOST = ("expert_lost.png", "board_lost.png")
"""The lost screenshot of a set: the Expert board, or the client's one fixed board (ace-minesweeper)."""


def lost_shot(folder: Path) -> Path:
    return next(folder / name for name in LOST if (folder / name).is_file())


def sets(root: Path = REAL) -> list[Path]:
    """Every folder under ``root`` with a lost Expert (or fixed-size) screenshot and its truth."""
    found = {p.parent for name in LOST for p in root.rglob(name) if p.with_suffix(".txt").is_file()}
    return sorted(found)


def truth(png: Path) -> Board:
    return Board.from_text(png.with_suffix(".txt").read_text(encoding="utf-8"))


def read_one(png: Path, skin_folder: Path) -> tuple[str, int, str]:
    """``("exact" | "refused" | "wrong", wrong cells, why)`` for one screenshot read with the skin."""
    board = truth(png)
    try:
        reading = read_screen(cv2.imread(str(png)), load_skin(skin_folder), board.mines)
    except MinebotError as exc:
        return "refused", 0, str(exc)
    if reading.board.shape != board.shape:
        return "wrong", board.rows * board.cols, f"board read as {reading.board.shape}, is {board.shape}"
    bad = int((reading.board.cells != board.cells).sum())
    if bad:
        where = np.argwhere(reading.board.cells != board.cells)[0]
        r, c = int(where[0]), int(where[1])
        return "wrong", bad, f"e.g. ({r}, {c}) read {reading.board.cells[r, c]}, is {board.cells[r, c]}"
    return "exact", 0, ""


def sidecar_geometry(png: Path) -> Geometry:
    """The exact board geometry the capture recorded next to a screenshot (``NAME.json``)."""
    g = json.loads(png.with_suffix(".json").read_text(encoding="utf-8"))["geometry"]
    return Geometry(g["left"], g["top"], g["pitch_x"], g["pitch_y"], g["rows"], g["cols"])


@contextlib.contextmanager
def exact_grid(shots: list[Path]):  # type: ignore[no-untyped-def]
    """Calibration takes the recorded geometry of ``shots`` instead of finding the grid (to measure
    the labelling alone); reading the other screenshots still finds the board itself."""
    import calibration.pipeline as pipeline

    found = pipeline._locate
    by_name = {p.name: sidecar_geometry(p) for p in shots}
    pipeline._locate = lambda name, image, truth: by_name[Path(name).name]  # type: ignore[assignment]
    try:
        yield
    finally:
        pipeline._locate = found


INTERPOLATIONS = {
    "nearest": cv2.INTER_NEAREST,
    "linear": cv2.INTER_LINEAR,
    "area": cv2.INTER_AREA,
    "cubic": cv2.INTER_CUBIC,
}


@dataclass(frozen=True)
class Damage:
    """What a user's screen does to every screenshot of a set: a display scale, a night-light tint."""

    scale: float = 1.0
    interp: str = "linear"
    night_light: bool = False

    def __bool__(self) -> bool:
        return self.scale != 1.0 or self.night_light

    def apply(self, image: np.ndarray) -> np.ndarray:
        from harness.colour import night_light

        if self.scale != 1.0:
            way = INTERPOLATIONS[self.interp]
            image = cv2.resize(image, None, fx=self.scale, fy=self.scale, interpolation=way)
        return night_light(image) if self.night_light else image


def damaged_copy(folder: Path, damage: Damage, root: Path) -> Path:
    """The set's screenshots, damaged, with their true boards, in ``root`` under the set's own name."""
    out = root / folder.relative_to(REAL)
    out.mkdir(parents=True, exist_ok=True)
    for png in folder.glob("*.png"):
        cv2.imwrite(str(out / png.name), damage.apply(cv2.imread(str(png))))
        board = png.with_suffix(".txt")
        if board.is_file():
            shutil.copyfile(board, out / board.name)
    return out


def run_set(folder: Path, extra: tuple[str, ...] = (), sidecar: bool = False, root: Path = REAL) -> SetResult:
    """Calibrate from the set's ``expert_lost.png`` (plus the ``extra`` screenshots) with ``--yes`` and
    read its other screenshots; ``sidecar``: with the recorded grid (:func:`exact_grid`); ``root``: the
    folder the set is named from (a damaged copy's)."""
    result = SetResult(" + ".join([str(folder.relative_to(root)), *extra]))
    lost = lost_shot(folder)
    shots = [lost, *(folder / name for name in extra)]
    start = time.perf_counter()
    with exact_grid(shots) if sidecar else contextlib.nullcontext():
        return _run(result, folder, shots, start)


def _run(result: SetResult, folder: Path, shots: list[Path], start: float) -> SetResult:
    try:
        analysis = analyse([(p.name, cv2.imread(str(p))) for p in shots])
        result.questions = sum(not can_leave_out(p, analysis) for p in analysis.unsure())
        result.left_out = len(analysis.unsure()) - result.questions
        out = Path(tempfile.mkdtemp()) / "skin"
        calibrate(CalibrateOptions([str(p) for p in shots], name="bench", out=out))
    except MinebotError as exc:
        result.error = str(exc)[:200]
        result.seconds = time.perf_counter() - start
        return result
    result.seconds = time.perf_counter() - start
    for png in sorted(folder.glob("*.png")):
        if png in shots or not png.with_suffix(".txt").is_file():
            continue
        result.frames += 1
        verdict, cells, why = read_one(png, out)
        if verdict == "exact":
            result.exact += 1
        elif verdict == "refused" and not np.isin(truth(png).cells, list(load_skin(out).cells)).all():
            result.unseen += 1
            result.details.append(f"{png.name}: refused, shows a state never seen: {why[:120]}")
        elif verdict == "refused":
            result.refused += 1
            result.details.append(f"{png.name}: refused: {why[:160]}")
        else:
            result.wrong_frames += 1
            result.wrong_cells += cells
            result.details.append(f"{png.name}: WRONG {cells} cell(s): {why[:160]}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="only sets whose name contains this")
    parser.add_argument("--details", action="store_true", help="say why each frame was refused or wrong")
    parser.add_argument(
        "--sidecar-grid",
        action="store_true",
        help="calibrate with the recorded board geometry (NAME.json): the labels alone, not the grid finder",
    )
    parser.add_argument("--scale", type=float, default=1.0, help="resize every screenshot by this factor")
    parser.add_argument(
        "--interp", choices=sorted(INTERPOLATIONS), default="linear", help="how --scale resizes (linear)"
    )
    parser.add_argument(
        "--night-light", action="store_true", help="tint every screenshot: blue x0.6, green x0.85, gamma 1.25"
    )
    args = parser.parse_args(argv)
    damage = Damage(args.scale, args.interp, args.night_light)
    if damage and args.sidecar_grid:
        parser.error("--sidecar-grid reads the recorded geometry, which --scale would not match")
    with tempfile.TemporaryDirectory(prefix="calibration-damaged-") as scratch:
        return _report(args, damage, Path(scratch) if damage else REAL)


def _report(args: argparse.Namespace, damage: Damage, root: Path) -> int:
    """Calibrate and read every set (damaged copies under ``root``), printing one table row per set."""
    print(
        "| set | questions | left out | other frames | read exactly | refused (unseen state) | refused "
        "| wrong frames (cells) | s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    totals = SetResult("total")
    for original in sets():
        if args.only and args.only not in str(original):
            continue
        folder = damaged_copy(original, damage, root) if damage else original
        r = run_set(folder, sidecar=args.sidecar_grid, root=root)
        if "no covered cell" in r.error:  # the client opens every cell on a loss: add a game in progress
            print(f"| {r.name} | calibration failed: {r.error[:90]} |")
            totals.questions += 1
            opening = next(p.name for p in sorted(folder.glob("*_opening.png")))
            r = run_set(folder, (opening,), sidecar=args.sidecar_grid, root=root)
        if r.error:
            print(f"| {r.name} | calibration failed: {r.error} |")
            totals.questions += max(r.questions, 1)
            continue
        print(
            f"| {r.name} | {r.questions} | {r.left_out} | {r.frames} | {r.exact} | {r.unseen} | {r.refused} "
            f"| {r.wrong_frames} ({r.wrong_cells}) | {r.seconds:.1f} |"
        )
        if args.details:
            for line in r.details:
                print(f"    {line}")
        for name in ("questions", "frames", "exact", "unseen", "refused", "wrong_frames", "wrong_cells"):
            setattr(totals, name, getattr(totals, name) + getattr(r, name))
    seen = totals.frames - totals.unseen
    share = totals.exact / seen if seen else 0.0
    print(
        f"\ntotal: {totals.questions} questions/failures, {totals.frames} frames, {totals.exact} read "
        f"exactly ({share:.0%} of the {seen} showing only states the shot showed), {totals.unseen} "
        f"refused for an unseen state, {totals.refused} other refusals, {totals.wrong_frames} wrong "
        f"({totals.wrong_cells} cells)"
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except CalibrationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
