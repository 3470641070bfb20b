"""Values shared by the calibration steps: cell groups, proposed labels, and the calibration error."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bot.board import Board, Cell, Coord
from bot.errors import MinebotError
from bot.geometry import Geometry
from bot.skin import STATE_NAMES

STATE_KEYS: dict[Cell, str] = {cell: name for name, cell in STATE_NAMES.items()}
"""The skin.json key ("covered", "0", ..., "wrong_flag") of each cell state."""


class CalibrationError(MinebotError):
    """Calibration could not make a trustworthy skin; says which screenshot, group or state and why."""


def state_key(cell: Cell) -> str:
    """The skin key of a state, as users type it ("covered", "flag", "3", "mine" ...)."""
    return STATE_KEYS[cell]


def parse_state(text: str) -> Cell | None:
    """The state a user typed (a skin key, a board character or ``skip``); ``None`` means skip.

    Raises:
        CalibrationError: for anything else, listing what is accepted.
    """
    key = text.strip().lower()
    if key in ("skip", "none", "-", "?"):
        return None
    if key in STATE_NAMES:
        return STATE_NAMES[key]
    if len(text.strip()) == 1:
        try:
            return Cell.from_char(text.strip().upper())
        except KeyError:
            pass
    names = ", ".join(STATE_NAMES)
    raise CalibrationError(f"unknown cell state {text!r}: use one of {names}, or 'skip'")


@dataclass
class Truth:
    """The true cells of one screenshot (``--board FILE``), and the board's rectangle if the file says."""

    board: Board
    source: str
    region: tuple[float, float, float, float] | None = None
    """``(left, top, width, height)`` of the cell grid, from a ``# board: x y w h`` comment."""
    geometry: Geometry | None = None
    """The grid the board was read at, when a reader (not a file) gave it: the cells are cut there."""


@dataclass
class Member:
    """One cell of a screenshot that belongs to a group: which shot, which cell."""

    shot: int
    cell: Coord


@dataclass
class Group:
    """Cells that look the same: a median image (``size`` x ``size`` BGR) and where they are."""

    id: int
    image: np.ndarray
    members: list[Member] = field(default_factory=list)
    shades: list[np.ndarray] = field(default_factory=list)
    """Median images of the lighter or darker looks merged into this group (a lighting ramp)."""

    @property
    def count(self) -> int:
        return len(self.members)


@dataclass
class Proposal:
    """A proposed state for one group, whether it is sure, why, and the other states it could be."""

    group: int
    state: Cell | None
    confident: bool
    reason: str
    alternatives: tuple[Cell, ...] = ()
    one_sided: bool = False
    """Sure from one kind of evidence alone, which the skinless reader's exact reading of the whole
    screenshot outweighs: the group's pixels (a red mark, a glyph on a red ground, a mine's shape) with no
    count behind it, or the counts' greedy fit (:func:`calibration.counts.choose_mines`) taking for shown
    mines a glyph that is no mine's shape and lies on no covered cell (a fit, not a proof: another
    labelling may hold by the counts as well)."""

    def describe(self) -> str:
        """One line for a human: the proposal and its reason."""
        label = state_key(self.state) if self.state is not None else "unknown"
        sure = "sure" if self.confident else "UNSURE"
        alts = f" (or {', '.join(state_key(a) for a in self.alternatives)})" if self.alternatives else ""
        return f"{label} [{sure}]{alts}: {self.reason}"
