"""Whether a reading can be trusted against everything seen before this game (a revealed cell never
changes, a cell changes only where a click could reach): part of the
:class:`~bot.agent.seeing.Seeing` mixin."""

from __future__ import annotations

import logging
from collections.abc import Iterable

import numpy as np

from bot.agent.checks import (
    check_progress,
    first_cell,
    unexplained_change,
    unsettled_zero,
)
from bot.agent.sight import Sight
from bot.board import Board, Cell, Coord
from bot.game import GameStatus

LOGGER = logging.getLogger(__name__)


def _revealed_changed(previous: Board, board: Board, clicked: Iterable[Coord], why: str) -> str:
    """Why ``board`` cannot follow ``previous`` when a cell revealed there reads otherwise now (``why``
    says which rule), else ''."""
    cell = check_progress(previous, board, clicked)
    if cell is None:
        return ""
    return f"cell {cell} read as {board[cell].char!r} but was {previous[cell].char!r} before ({why})"


class Trusting:
    """Why a reading, or an end it shows, cannot be this game's ('' when it can)."""

    def _inconsistency(
        self,
        previous: Board | None,
        sight: Sight,
        clicked: Iterable[Coord],
        unknown: np.ndarray | None = None,
    ) -> str:
        """Why a reading cannot be trusted, or '' when it can (``unknown``: cells it shows as covered
        only because they could not be named)."""
        board = sight.board
        # an end the board shows, read on every cell or on the cells read surely ("board (some cells
        # unreadable)"); an end the face or the last clicks' logic shows is not checked against the board
        if sight.status is not GameStatus.PLAYING and sight.ended_by.startswith("board"):
            problem = self._end_problem(previous, board, clicked)
            if problem:
                return f"the board reads {sight.status.value}, but {problem}"
        if sight.status is GameStatus.PLAYING:
            if board.is_lost():
                cell = board.cells_where(board.cells == Cell.EXPLODED)[0]
                return f"an exploded mine shows at cell {cell} but the game is still playing"
            zero = unsettled_zero(board, unknown)
            if zero is not None:
                return f"cell {zero} reads 0 next to a covered cell: the client is still drawing"
            if previous is not None:
                changed = _revealed_changed(previous, board, clicked, "a revealed cell never changes")
                if changed:
                    return changed
                reach = self._reach
                if not self.options.dry_run and reach is not None and reach.shape == board.shape:
                    cell = unexplained_change(previous, board, reach, self._flagged, unknown)
                    if cell is not None:
                        return (
                            f"cell {cell} read as {board[cell].char!r} where no click could have opened or "
                            "flagged it (something drawn over the board?)"
                        )
            elif self._own_game and not self.options.dry_run and board.flagged():
                return (
                    f"cell {board.flagged()[0]} reads as a flag on a new game minebot started, which has "
                    "none: a misread (something drawn over the board: a tooltip or a label?)"
                )
        return ""

    def _end_problem(self, previous: Board | None, board: Board, clicked: Iterable[Coord]) -> str:
        """Why ``board``, read as a game's end, cannot be this game's end ('' when it can): a revealed
        cell never changes, not even at the end; a mine explodes only where a click landed; and a board
        showing mines was lost by one a click opened, so a cell this game clicked shows it (GNOME Mines at
        900x640, read half a pixel off its grid, showed its opened 0, 1, 1, 2 as covered, flag, flag and
        exploded mine, or as covered, mine, flag, mine). Nothing is said before this game's first
        trusted reading."""
        if previous is None:
            return ""
        changed = _revealed_changed(
            previous, board, clicked, "a revealed cell never changes, not even at the end"
        )
        if changed:
            return changed
        reach = self._reach
        if not self.options.dry_run and reach is not None and reach.shape == board.shape:
            stray = first_cell((board.cells == Cell.EXPLODED) & ~reach)
            if stray is not None:
                return f"cell {stray} reads as an exploded mine where no click landed"
            mines = np.isin(board.cells, (Cell.MINE, Cell.EXPLODED))
            shown = first_cell(mines)
            if shown is not None and not (mines & reach).any():  # a game is lost by the mine a click opened
                return f"mines show (cell {shown}) but no cell this game clicked holds one"
        return ""
