"""Generate a screenshot of a board in a random look, with its exact truth, from a seed.

Why: generality is measured on thousands of looks nobody tuned for. ``generate(seed)`` picks a look
(:func:`bot.looks.look.random_look`), a board size and a real game position in one of the states
fresh, mid-game with flags, lost or won (:mod:`bot.looks.states`), draws it (:mod:`bot.looks.tiles`) in
its surroundings (:mod:`bot.looks.surroundings`), rescales and damages it (:mod:`bot.looks.damage`),
and returns the image with the truth board, its geometry in the image, and the look.

Seeds: :data:`DEV_SEEDS` are for development (look at them, debug on them, test on them);
:data:`MEASURE_SEEDS` are for measuring only: nobody fixes a failure by looking at one of them; a
failure found there is reproduced on a development seed first.

>>> sample = generate(7, state="lost")
>>> sample.truth.is_lost(), sample.image.ndim
(True, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Board
from bot.errors import MinebotError
from bot.game import GameStatus
from bot.geometry import Geometry
from bot.looks import damage
from bot.looks.glyphs import installed_fonts
from bot.looks.look import Look, random_look
from bot.looks.states import STATES, position
from bot.looks.surroundings import surround
from bot.looks.tiles import draw_cells

DEV_SEEDS = range(0, 100_000)
"""Seeds for development: look at them, debug on them, test on them."""
MEASURE_SEEDS = range(1_000_000, 2_000_000)
"""Seeds for measuring only (benchmarks): a failure found here is reproduced on a development seed first."""

MAX_BOARD_PX = (1500, 900)
"""The largest board drawn (width, height in final pixels): board sizes shrink to fit at large pitches."""
SIZES = ((9, 9, 10), (16, 16, 40), (16, 30, 99), (8, 8, 10), (24, 30, 160))
"""Standard level sizes (rows, cols, mines); custom sizes are drawn too."""


class LooksError(MinebotError, ValueError):
    """A request the generator cannot meet (an unknown state, a seed out of range)."""


@dataclass(frozen=True)
class Sample:
    """One generated screenshot and its truth."""

    image: np.ndarray
    """BGR screenshot."""
    truth: Board
    """The board as drawn (with its total mine count)."""
    geometry: Geometry
    """Where the cells are in ``image``."""
    look: Look
    state: str
    """fresh, mid, lost or won."""
    status: GameStatus
    seed: int


def _size(rng: np.random.Generator, look: Look) -> tuple[int, int, int]:
    """Rows, cols and mines: a standard level or a custom size, shrunk to fit :data:`MAX_BOARD_PX`."""
    px, py = look.final_pitch
    if rng.random() < 0.6:
        rows, cols, mines = SIZES[int(rng.integers(len(SIZES)))]
        density = mines / (rows * cols)
    else:
        rows, cols = int(rng.integers(6, 25)), int(rng.integers(6, 31))
        density = float(rng.uniform(0.1, 0.2))
    cols = max(min(cols, int(MAX_BOARD_PX[0] // px)), 6)
    rows = max(min(rows, int(MAX_BOARD_PX[1] // py)), 6)
    return rows, cols, max(round(rows * cols * density), 2)


def look_for(seed: int) -> Look:
    """The look of ``seed`` (the same for every frame of that seed)."""
    return random_look(seed, installed_fonts())


def generate(
    seed: int, state: str | None = None, frame: int = 0, size: tuple[int, int, int] | None = None
) -> Sample:
    """A screenshot of a seeded board in the seed's look; ``state`` picks fresh/mid/lost/won (default:
    drawn from the seed); ``frame`` numbers further boards of the same look (another position);
    ``size`` (rows, cols, mines) fixes the board's size (default: drawn from the seed)."""
    if state is not None and state not in STATES:
        raise LooksError(f"unknown state {state!r}; states are {', '.join(STATES)}")
    if seed < 0:
        raise LooksError(f"seeds are non-negative, got {seed}")
    look = look_for(seed)
    rng = np.random.default_rng([seed, 202, frame])
    if state is None:
        state = str(rng.choice(STATES, p=[0.1, 0.5, 0.3, 0.1]))
    rows, cols, mines = _size(rng, look) if size is None else size
    if rows < 2 or cols < 2 or not 1 <= mines < rows * cols - 9:
        raise LooksError(f"cannot draw a {rows}x{cols} board with {mines} mines")
    truth, status = position(state, rows, cols, mines, int(rng.integers(1 << 31)))
    image, geometry = draw(truth, status, look, rng)
    return Sample(image, truth, geometry, look, state, status, seed)


def draw(
    truth: Board, status: GameStatus, look: Look, rng: np.random.Generator
) -> tuple[np.ndarray, Geometry]:
    """``truth`` drawn in ``look`` in its surroundings, rescaled and damaged; and where its cells are."""
    cells = draw_cells(truth, look, rng)
    mines_left = (truth.mines or 0) - int(truth.flagged_mask().sum())
    image, left, top = surround(cells, look, status, mines_left, rng)
    k = look.rescale
    if k != 1.0:
        h, w = image.shape[:2]
        image = cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_LINEAR)
    geometry = Geometry(left * k, top * k, look.pitch[0] * k, look.pitch[1] * k, truth.rows, truth.cols)
    return damage.apply(image, look.damage), geometry


def frames(seed: int, states: tuple[str, ...] = STATES) -> list[Sample]:
    """Several frames of the seed's look: one board per state, each a different position."""
    return [generate(seed, state, frame=i) for i, state in enumerate(states)]
