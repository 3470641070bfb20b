"""Seeded test positions at every game stage, rendered as screenshots, for vision tests and benchmarks.

Why: recognition must be right at every stage (fresh, mid-game with flags, won, lost with mines,
exploded and wrong flags), size and scale; one generator keeps the tests and the accuracy benchmark
measuring the same thing.

>>> [case.name for case in stage_boards("beginner", seed=1)]
['fresh', 'mid', 'won', 'lost']
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.board import Board, Cell
from bot.game import Game, GameStatus, find_level
from bot.skin import STATE_NAMES, Skin, load_skin

STAGES = ("fresh", "mid", "won", "lost")

ALL_STATES = Board.from_text("012345678\nF.*XW.F.*\n876543210", mines=6)
"""Every cell state on one small board (drawn, not played: its counts need not add up)."""


@dataclass(frozen=True)
class StageBoard:
    """A board at one game stage and the status a client would show for it."""

    name: str
    board: Board
    status: GameStatus


def _safe_cells(game: Game) -> list[tuple[int, int]]:
    layout = game.layout
    assert layout is not None
    view = game.board.cells
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(~layout & (view == Cell.COVERED)), strict=True)]


def stage_boards(level: str, seed: int = 0) -> list[StageBoard]:
    """The four stages of one seeded game at ``level`` (a name or ``ROWSxCOLS/MINES``)."""
    spec = find_level(level)
    rng = np.random.default_rng(seed)
    start = (spec.rows // 2, spec.cols // 2)
    fresh = Game(spec.rows, spec.cols, spec.mines, rule="zero", seed=seed)
    stages = [StageBoard("fresh", fresh.board, GameStatus.PLAYING)]

    mid = Game(spec.rows, spec.cols, spec.mines, rule="zero", seed=seed)
    mid.open(start)
    safe = _safe_cells(mid)
    for index in rng.permutation(len(safe))[: max(1, len(safe) // 3)]:
        mid.open(safe[index])
    layout = mid.layout
    assert layout is not None
    mines = [(int(r), int(c)) for r, c in zip(*np.nonzero(layout), strict=True)]
    for index in rng.permutation(len(mines))[: max(1, len(mines) // 3)]:
        mid.flag(mines[index])
    stages.append(StageBoard("mid", mid.board, GameStatus.PLAYING))

    won = Game(spec.rows, spec.cols, spec.mines, rule="zero", seed=seed)
    won.open(start)
    for cell in _safe_cells(won):
        won.open(cell)
    stages.append(StageBoard("won", won.board, won.status))

    lost = Game(spec.rows, spec.cols, spec.mines, rule="zero", seed=seed)
    lost.open(start)
    safe = _safe_cells(lost)
    for index in rng.permutation(len(safe))[: len(safe) // 2]:
        lost.open(safe[index])
    for cell in _safe_cells(lost)[:3]:
        lost.flag(cell)  # wrong flags, shown as such after the loss
    mines = [(int(r), int(c)) for r, c in zip(*np.nonzero(layout), strict=True)]
    lost.flag(mines[0])
    lost.open(mines[-1])
    stages.append(StageBoard("lost", lost.board, lost.status))
    return stages


@dataclass(frozen=True)
class ScreenCase:
    """One rendered screenshot with its truth."""

    label: str
    image: np.ndarray
    board: Board
    status: GameStatus
    geometry: object
    """The true :class:`bot.geometry.Geometry` the renderer reports."""


def screen_cases(
    levels: tuple[str, ...] = ("beginner", "intermediate", "expert"),
    scales: tuple[float, ...] = (1.0, 1.25, 1.5, 1.75, 2.0, 2.04),
    jpeg_qualities: tuple[int | None, ...] = (None, 80),
    seed: int = 0,
) -> Iterator[ScreenCase]:
    """Every stage of every level at every scale, as PNG-exact and JPEG-recompressed screenshots."""
    from bot.render import RenderError, jpeg_roundtrip, render_screen

    for level_index, level in enumerate(levels):
        for stage in stage_boards(level, seed=seed + level_index):
            for scale_index, scale in enumerate(scales):
                render_seed = seed + 1000 * level_index + 10 * scale_index + STAGES.index(stage.name)
                try:
                    image, geometry = render_screen(
                        stage.board, "classic", scale, status=stage.status, seed=render_seed
                    )
                except RenderError:
                    continue  # too big for a 1920x1080 screen at this scale
                for quality in jpeg_qualities:
                    shot = image if quality is None else jpeg_roundtrip(image, quality)
                    label = f"{level} {stage.name} x{scale} {'png' if quality is None else f'jpeg{quality}'}"
                    yield ScreenCase(label, shot, stage.board, stage.status, geometry)


def skin_without(skin: Skin, state: Cell, folder: Path) -> Skin:
    """A copy of ``skin`` written to ``folder`` with ``state`` listed as never seen (``null``), loaded.

    What a calibrated skin that never met that state looks like, to check it is refused, not guessed.
    """
    key = next(name for name, cell in STATE_NAMES.items() if cell == state)
    shutil.copytree(skin.path, folder)
    meta_path = folder / "skin.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["cells"][key] = None
    meta_path.write_text(json.dumps(meta, indent=2), encoding="utf-8")
    return load_skin(folder)
