"""Playing on around a frame no reader names whole: the moves certain under every reading it may show
(:mod:`bot.agent.unnamed`), a part of the :class:`~bot.agent.seeing.Seeing` mixin."""

from __future__ import annotations

import logging
from collections.abc import Iterable

import numpy as np

from bot.agent.checks import first_cell
from bot.agent.sight import (
    Sight,
    run_into,
    shows_the_end,
)
from bot.agent.unnamed import consensus, guess_around, relaxed
from bot.board import Board, Coord
from bot.errors import (
    GameOverError,
    RecognitionError,
)
from bot.game import GameStatus
from bot.solver import Move

LOGGER = logging.getLogger(__name__)


class Refused:
    """The moves certain around cells no reader names, or why there are none."""

    def _around_unnamed(
        self, exc: RecognitionError, image: np.ndarray, previous: Board | None, clicked: Iterable[Coord]
    ) -> tuple[Sight, list[Move]] | str:
        """The moves certain under every reading a refused frame may show (:mod:`bot.agent.unnamed`),
        with the board every such reading agrees on, or why there are none ('' when nothing was tried).

        The readings: the whole ones the reader found its structure and the board's logic both allow
        (``exc.alternatives``); else, with no skin, the cells the templates this game's exact readings
        taught read surely, the others unknown when covered before, or as before when open before and
        beside a cell opened since (whose glyph may run into it), or found so earlier this game, or
        showing the pixels it had in the frame ``previous`` was read from (else nothing is played).
        Not when a reading shows an ended game, nor after a guess that does not read as a number in
        every reading kept: no move is certain on a game that may be over. A reading the checks of
        every reading reject (:meth:`_inconsistency`) is dropped first (one showing the guessed cell
        covered beside cells no click opened, say). When no move is certain, and only once re-reads
        and learning could not name the cell (``_may_guess``), a guess chosen the same way under every
        reading (:func:`guess_around`), never on an unnamed cell."""
        from bot.vision.read import is_generic

        if self.mines is None or self.skin is None or self.options.dry_run:
            return ""
        last = self._last_clicks
        chanced = (
            [] if last is None else [m.cell for m in last.moves if m.probability > 0 or last.board.is_fresh()]
        )
        rows, cols = self._region_geometry().rows, self._region_geometry().cols
        unknown = np.zeros((rows, cols), dtype=bool)
        if exc.alternatives:
            readings = [Board(a.copy(), self.mines) for a in exc.alternatives if a.shape == (rows, cols)]
            if previous is not None and (self._fell_back or is_generic(self.skin)):
                self._note_run_in(image, previous)  # as the templates' reading below would
        elif self._fell_back or is_generic(self.skin):
            seen = self._classified(image)
            if seen is None:
                return ""
            if not seen[0].uncertain_mask().any():
                return "the templates taught read every cell, as no possible position"
            unknown, states = seen[0].uncertain_mask(), seen[0].states.copy()
            if previous is not None:
                was = unknown & ~previous.covered_mask()  # open or flagged before: it never changes,
                run_in = run_into(previous, states, unknown)  # but a glyph opened beside it may run
                run_in |= self._run_in if self._run_in is not None else False  # into it (xbomb's do),
                odd = first_cell(was & ~run_in & ~self._unchanged(image, previous))  # as may one before;
                if odd is not None:  # or its pixels are as they were read. Else something over the board?
                    return f"cell {odd} was open before and reads otherwise, no cell opened beside it"
                states[was], unknown = previous.cells[was], unknown & ~was
                self._remember_run_in(was)
            readings = [relaxed(Board(states, self.mines), unknown)]
        else:
            return ""
        if not readings:
            return ""
        if any(shows_the_end(board) for board in readings):
            return "a reading the screen may show is an ended game"
        kept = [  # each whole reading names every cell: checked as it stands (a clicked cell it shows
            board  # covered is no 0 that opened its neighbours)
            for board in readings
            if not self._inconsistency(previous, Sight(board, GameStatus.PLAYING, image), clicked, unknown)
        ]
        if any(unknown[cell] or not board[cell].is_number() for cell in chanced for board in kept):
            return "the last click was a guess and does not read as a number: the game may be over"
        try:
            found = consensus(kept, unknown, self.options.flags)
            if isinstance(found, str) and kept and self._may_guess and found.startswith("no cell is safe"):
                guessed = guess_around(kept, unknown, self.rule())
                found = guessed if not isinstance(guessed, str) else f"{found}; no guess: {guessed}"
        except GameOverError:
            return "a reading the screen may show is an ended game"
        if isinstance(found, str):
            return found
        self.unnamed_reads += 1
        LOGGER.info(
            "%d cell(s) unnamed (%s): %d of %d reading(s) kept; %s",
            int(found.unnamed.sum()),
            exc,
            found.kept,
            len(readings),
            f"{len(found.moves)} move(s) certain under every one"
            if all(move.probability in (0.0, 1.0) for move in found.moves)
            else "; ".join(map(str, found.moves)),
        )
        return Sight(found.board, GameStatus.PLAYING, image, ""), found.moves
