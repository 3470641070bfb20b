"""Judge one reading of a generated screenshot against its truth: found, exact, refused or wrong.

Why: the benchmark and the tests must count alike. A board is *found* when the reader's geometry has
the truth's rows and columns and its cells' corners within a quarter pitch of the truth's (or the
reader found a board and refused a cell: :class:`~bot.errors.RecognitionError`). *Wrong* is any
reading returned with a misread cell or a misplaced board: the one outcome that must never happen.

"Found" so counts a refusal as a board found wherever the reader placed it (a board found a few rows
short, then refused over a cell, counts). :func:`found_whole` is the stricter figure: the board placed
whole (the truth's rows and columns, in place): a reading's own geometry when one is returned, else
(a refusal) the skinless grid finder's (:func:`bot.vision.grid.find_grid`) on the same screenshot.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.board import Board, Cell
from bot.errors import BoardNotFoundError, MinebotError, RecognitionError
from bot.geometry import Geometry

OUTCOMES = ("exact", "refused", "not-found", "wrong", "crash")


@dataclass(frozen=True)
class Verdict:
    """The outcome of one read and what it found."""

    outcome: str
    """exact, refused (board found, a cell refused), not-found, wrong, or crash (an exception that is no
    :class:`~bot.errors.MinebotError`: a bug, as bad as a traceback shown to a user)."""
    found: bool
    wrong_cells: int
    detail: str = ""


def same_place(read: Geometry, truth: Geometry) -> bool:
    """Whether ``read`` puts the truth's rows and columns at the truth's place (within a quarter pitch)."""
    if (read.rows, read.cols) != (truth.rows, truth.cols):
        return False
    tol_x, tol_y = truth.pitch_x / 4, truth.pitch_y / 4
    far_x = truth.left + truth.cols * truth.pitch_x
    far_y = truth.top + truth.rows * truth.pitch_y
    return (
        abs(read.left - truth.left) <= tol_x
        and abs(read.top - truth.top) <= tol_y
        and abs(read.left + read.cols * read.pitch_x - far_x) <= tol_x
        and abs(read.top + read.rows * read.pitch_y - far_y) <= tol_y
    )


def compare(board: Board, geometry: Geometry, truth: Board, where: Geometry) -> Verdict:
    """The verdict on a returned reading (``board`` at ``geometry``) against the truth."""
    if not same_place(geometry, where):
        return Verdict(
            "wrong", False, truth.rows * truth.cols, f"board {geometry.rows}x{geometry.cols} at "
            f"({geometry.left:.0f}, {geometry.top:.0f}) pitch {geometry.pitch_x:.2f}; truth {where.rows}x"
            f"{where.cols} at ({where.left:.0f}, {where.top:.0f}) pitch {where.pitch_x:.2f}",
        )  # fmt: skip
    bad = np.argwhere(board.cells != truth.cells)
    if not len(bad):
        return Verdict("exact", True, 0)
    r, c = (int(v) for v in bad[0])
    first = f"({r}, {c}) read {Cell(int(board.cells[r, c])).name}, truth {Cell(int(truth.cells[r, c])).name}"
    return Verdict("wrong", True, len(bad), f"{len(bad)} cell(s) misread, first {first}")


SKINLESS = "; with no skin: "
"""Where a refusal of ``--skin auto`` gives the skinless reader's reason after the skins' own."""


def _why(error: Exception) -> str:
    """A refusal's first line, cut to 200 characters; of ``auto``'s, the skinless reader's reason (after
    :data:`SKINLESS`), which names the cause on a look no skin fits, rather than the skins' own."""
    line = str(error).splitlines()[0]
    _, sep, skinless = line.rpartition(SKINLESS)
    return (f"with no skin: {skinless}" if sep else line)[:200]


def judge(read, image: np.ndarray, truth: Board, where: Geometry) -> Verdict:
    """Run ``read(image)`` (returning a :class:`~bot.vision.read.Reading`) and judge it against the truth."""
    try:
        reading = read(image)
    except BoardNotFoundError as error:
        return Verdict("not-found", False, 0, str(error).splitlines()[0][:200])
    except RecognitionError as error:
        return Verdict("refused", True, 0, _why(error))
    except MinebotError as error:
        return Verdict("refused", False, 0, f"{type(error).__name__}: {str(error).splitlines()[0][:200]}")
    except Exception as error:  # noqa: BLE001 - a crash is counted, not raised, so a run goes on
        return Verdict("crash", False, 0, f"{type(error).__name__}: {error}"[:200])
    return compare(reading.board, reading.geometry, truth, where)


def found_whole(verdict: Verdict, image: np.ndarray, where: Geometry) -> bool:
    """Whether the board was found whole and in place (:func:`same_place`): for a returned reading, by
    its own geometry (exact, or wrong in its cells only); for a refusal, by the skinless grid finder's
    grid on the same screenshot (the reader names no geometry when it refuses); never for a board not
    found."""
    if verdict.outcome in ("exact", "wrong"):
        return verdict.found
    if verdict.outcome != "refused":
        return False
    from bot.vision.grid import find_grid

    try:
        return same_place(find_grid(image).geometry, where)
    except MinebotError:
        return False
