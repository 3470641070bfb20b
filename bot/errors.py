"""The minebot error hierarchy: one root, narrow named errors that say what was wrong and where.

Callers catch :class:`MinebotError`; the CLI turns it into a message on stderr and exit status 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


class MinebotError(Exception):
    """Root of every error minebot raises on purpose."""


class BoardFormatError(MinebotError, ValueError):
    """A board text is malformed; names the 1-based line and column of the first bad character."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(where + message)
        self.line = line
        self.column = column


class ContradictionError(MinebotError, ValueError):
    """The board cannot be a real Minesweeper position; names a contradicting cell (row, col) if any."""

    def __init__(self, message: str, cell: tuple[int, int] | None = None) -> None:
        super().__init__(message)
        self.cell = cell


class GameOverError(MinebotError):
    """The board shows an ended game (a shown or exploded mine, a wrong flag), or nothing is left to open."""

    def __init__(self, message: str, cell: tuple[int, int] | None = None) -> None:
        super().__init__(message)
        self.cell = cell


class SkinError(MinebotError):
    """A skin folder is broken or incomplete; names the file or the missing piece."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path


class BoardNotFoundError(MinebotError):
    """No board (or more than one) was found on a screenshot."""


class RecognitionError(MinebotError):
    """A cell could not be read with enough confidence; never guessed.

    ``alternatives``: when the reader found several whole readings that its structure and the board's
    logic both allow (and could not tell which one the screen shows), each of them, as a ``(rows, cols)``
    array of :class:`~bot.board.Cell` values; empty otherwise. The one shown is among them, so a move
    certain under every one of them is certain (:mod:`bot.agent.unnamed`).
    """

    def __init__(
        self,
        message: str,
        cell: tuple[int, int] | None = None,
        best_match: str | None = None,
        confidence: float | None = None,
        alternatives: tuple[np.ndarray, ...] = (),
    ) -> None:
        super().__init__(message)
        self.cell = cell
        self.best_match = best_match
        self.confidence = confidence
        self.alternatives = alternatives


class CaptureError(MinebotError):
    """Grabbing the screen or reading a saved screenshot failed."""


class InputError(MinebotError):
    """A click could not be sent, or was refused because it fell outside the recognised board."""


class UsageError(MinebotError, ValueError):
    """Options that cannot go together or do not fit (``--mines 1000`` on a 9x9 sim): exit status 2."""


class AbortedError(MinebotError):
    """The run was stopped on purpose: the fail-safe corner, Ctrl-C or a time limit."""
