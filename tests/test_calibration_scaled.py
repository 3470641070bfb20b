"""Calibration from one lost screenshot at a display scale: what a user at 80% or 150% gets.

The real captures are scaled as a screen or a recorder scales them (``cv2.resize``). Whatever the
scale, no label calibration is sure of may be wrong (a wrong sure label becomes a template, and play
then misreads every cell of that look); where the skinless reader reads the shot exactly, its reading
settles what the looks and counts leave open.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.board import Board, Cell
from bot.skin import load_skin
from bot.vision import read_screen
from calibration.pipeline import analyse
from calibration.session import CalibrateOptions, calibrate

REAL = Path(__file__).resolve().parent / "data" / "real"
WAYS = {"nearest": cv2.INTER_NEAREST, "linear": cv2.INTER_LINEAR, "area": cv2.INTER_AREA}


def scaled(png: Path, scale: float, way: str) -> np.ndarray:
    return cv2.resize(cv2.imread(str(png)), None, fx=scale, fy=scale, interpolation=WAYS[way])


def truth(png: Path) -> Board:
    return Board.from_text(png.with_suffix(".txt").read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("client", "scale", "way"),
    [("xdemineur", 0.8, "area"), ("xdemineur", 1.5, "nearest"), ("winemine", 1.25, "linear")],
)
def test_no_sure_label_is_wrong(client: str, scale: float, way: str) -> None:
    """At 80% (area), xdemineur's flags were sure "shown mines" (the counts count flags as mines) and
    its wrong flag a sure 1 (it touches one mine); at 150% (nearest) its 2s were sure mines."""
    lost = REAL / client / "expert_lost.png"
    analysis = analyse([("lost", scaled(lost, scale, way))])
    cells = truth(lost).cells
    wrong = [
        f"#{gid} {p.describe()} at {m.cell}, is {Cell(int(cells[m.cell])).name}"
        for gid, p in analysis.proposals.items()
        if p.confident
        for m in analysis.groups[gid].members
        if int(cells[m.cell]) != int(p.state)  # type: ignore[arg-type]
    ]
    assert not wrong, wrong


@pytest.mark.slow
def test_xdemineur_at_150_percent_calibrates_with_no_question(tmp_path: Path) -> None:
    """At 150% (nearest) the calibration's grid and the skinless reader's own cut the cells a pixel
    apart; the reader refuses the shot at the first and reads it exactly at the second, and its
    reading settles every group: ``--yes`` asks nothing, and the other captures read exactly."""
    folder = REAL / "xdemineur"
    shot = tmp_path / "lost.png"
    cv2.imwrite(str(shot), scaled(folder / "expert_lost.png", 1.5, "nearest"))
    report = calibrate(CalibrateOptions([str(shot)], name="xd150", out=tmp_path / "skin"))
    skin = load_skin(report.skin_path)
    for name in ("expert_flags", "expert_start", "small_lost"):
        png = folder / f"{name}.png"
        reading = read_screen(scaled(png, 1.5, "nearest"), skin, truth(png).mines)
        assert np.array_equal(reading.board.cells, truth(png).cells), name


def test_the_benchmark_damages_a_set_alike(tmp_path: Path) -> None:
    """``calibration_real.py --scale --night-light`` calibrates from copies damaged alike, truth beside."""
    from benchmarks.calibration_real import Damage, damaged_copy

    damage = Damage(1.5, "nearest", night_light=True)
    out = damaged_copy(REAL / "xdemineur", damage, tmp_path)
    assert out == tmp_path / "xdemineur"
    lost = cv2.imread(str(out / "expert_lost.png"))
    original = cv2.imread(str(REAL / "xdemineur" / "expert_lost.png"))
    assert lost.shape[:2] == (round(original.shape[0] * 1.5), round(original.shape[1] * 1.5))
    assert lost[..., 0].mean() < original[..., 0].mean()  # blue dimmed
    assert (out / "expert_lost.txt").read_text() == (REAL / "xdemineur" / "expert_lost.txt").read_text()
    assert not Damage() and Damage(night_light=True)
