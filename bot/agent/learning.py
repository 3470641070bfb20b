"""Learning a cell state never seen before, mid-game, when the board's logic and the look agree.

A skin calibrated from a few screenshots may lack a 6 or a 7. When a newly revealed cell reads as
nothing the skin knows, the board itself may force its number: with every other cell as read, only
one value 0-8 leaves the board solvable. The state is learned only when all of this holds:

- every unreadable cell was covered before (a revealed cell never changes);
- the board forces one number on each of them, and the skin has no template for it (had it one, the
  cell should have matched it: that is a misread, not a new state);
- the looks agree: cells forced to the same number look alike, cells forced to different numbers do
  not, and each is farther from every known template than the known templates are from each other's
  halfway point (a new, distinct glyph).

Anything else is refused with the reason; the loop then stops without clicking.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from itertools import combinations
from pathlib import Path

import cv2
import numpy as np

from bot.board import Board, Cell, Coord
from bot.errors import MinebotError
from bot.geometry import Geometry
from bot.skin import Skin
from bot.solver import mine_probabilities
from bot.vision.classify import board_crop

LOGGER = logging.getLogger(__name__)


@dataclass
class Learned:
    """A skin extended with states the board forced, and the new templates."""

    skin: Skin
    templates: dict[Cell, np.ndarray]
    cells: dict[Coord, Cell]


def forced_value(board: Board, cell: Coord) -> int | None:
    """The only number 0-8 that leaves ``board`` solvable when written at ``cell``, or None."""
    fits = []
    for value in range(9):
        trial = board.copy()
        trial[cell] = Cell(value)
        try:
            mine_probabilities(trial)
        except MinebotError:
            continue
        fits.append(value)
        if len(fits) > 1:
            return None
    return fits[0] if fits else None


def _rms(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.sqrt(np.mean((a.astype(np.float32) - b.astype(np.float32)) ** 2)))


def _template_size(skin: Skin) -> tuple[int, int]:
    height, width = skin.cells[Cell.COVERED].shape[:2]
    return min(height, skin.cell_size), min(width, skin.cell_size)


def cell_looks(
    image: np.ndarray, geometry: Geometry, skin: Skin, cells: list[Coord]
) -> dict[Coord, np.ndarray]:
    """Each cell as a template would hold it: resampled to the skin's cell size, grid line left out."""
    size = skin.cell_size
    crop = board_crop(image, geometry, size)
    height, width = _template_size(skin)
    return {
        (r, c): np.ascontiguousarray(crop[r * size : r * size + height, c * size : c * size + width])
        for r, c in cells
    }


def template_spacing(skin: Skin) -> float:
    """The smallest RMS distance between two of the skin's templates (at template size)."""
    height, width = _template_size(skin)
    images = [cv2.resize(t, (width, height), interpolation=cv2.INTER_AREA) for t in skin.cells.values()]
    return min((_rms(a, b) for a, b in combinations(images, 2)), default=float("inf"))


def learn_unseen(
    image: np.ndarray,
    geometry: Geometry,
    skin: Skin,
    states: np.ndarray,
    unreadable: list[Coord],
    previous: Board | None,
    mines: int | None,
) -> Learned | str:
    """The skin extended with the unreadable cells' forced states, or the reason it cannot be done."""
    if not unreadable:
        return "no unreadable cell"
    if previous is None or previous.shape != states.shape:
        return "no earlier reading of this board to check the new look against"
    was_revealed = [cell for cell in unreadable if not previous.covered_mask()[cell]]
    if was_revealed:
        cell = was_revealed[0]
        return f"cell {cell} was {previous[cell].char!r} before (a revealed cell never changes)"
    board = Board(states.copy(), mines)
    for cell in unreadable:
        board[cell] = Cell.COVERED
    forced: dict[Coord, Cell] = {}
    for cell in unreadable:
        value = forced_value(board, cell)
        if value is None:
            return f"the board does not force the number at cell {cell}"
        if Cell(value) in skin.cells:
            return f"the board forces a {value} at cell {cell}, but it does not look like the skin's {value}"
        forced[cell] = Cell(value)
    looks = cell_looks(image, geometry, skin, unreadable)
    half = template_spacing(skin) / 2
    height, width = _template_size(skin)
    known = [cv2.resize(t, (width, height), interpolation=cv2.INTER_AREA) for t in skin.cells.values()]
    for cell, look in looks.items():
        if min(_rms(look, t) for t in known) <= half:
            return f"cell {cell} looks close to a known state, not like a new one"
    for a, b in combinations(unreadable, 2):
        alike = _rms(looks[a], looks[b]) <= half
        if alike != (forced[a] == forced[b]):
            look = "alike" if alike else "different"
            return f"cells {a} and {b} are forced to {forced[a].char} and {forced[b].char} but look {look}"
    templates = {
        state: np.mean([looks[c] for c in unreadable if forced[c] == state], axis=0).round().astype(np.uint8)
        for state in set(forced.values())
    }
    return Learned(replace(skin, cells={**skin.cells, **templates}), templates, forced)


def save_learned(skin: Skin, templates: dict[Cell, np.ndarray]) -> list[Path]:
    """Write learned templates into the skin's folder and list them in its ``skin.json``.

    Raises:
        MinebotError: when the folder or ``skin.json`` cannot be written.
    """
    meta_path = Path(skin.path) / "skin.json"
    written = []
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        for state, template in templates.items():
            name = f"{state.char}.png"
            if not cv2.imwrite(str(Path(skin.path) / name), template):
                raise OSError(f"cannot write {name}")
            meta["cells"][str(int(state))] = name
            written.append(Path(skin.path) / name)
        meta_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    except (OSError, ValueError, KeyError) as exc:
        raise MinebotError(
            f"cannot save the learned state(s) to skin {skin.name!r} at {skin.path}: {exc}"
        ) from exc
    LOGGER.info("saved learned state(s) %s to %s", ", ".join(s.char for s in templates), skin.path)
    return written
