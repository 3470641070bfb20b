"""Recovering from a reading that stays untrusted: find the board again, wait while it is covered, learn
a state it never saw, or stop with the frame saved: part of the :class:`~bot.agent.seeing.Seeing` mixin."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from bot.agent.learning import Learned, learn_unseen, save_learned
from bot.agent.locating import RING_GAP_STEPS
from bot.agent.results import MoveTiming
from bot.agent.sight import (
    BoardGoneError,
    MisreadError,
    Problem,
    Sight,
)
from bot.board import Board, Cell, Coord
from bot.errors import MinebotError
from bot.game import FirstClickRule
from bot.geometry import Geometry
from bot.solver import Move

if TYPE_CHECKING:
    from bot.skin import Skin
    from bot.vision.classify import CellReading

LOGGER = logging.getLogger(__name__)


class Recovering:
    """After re-reads failed: follow, wait, learn, or stop with an error saying what was seen."""

    def _recover(
        self,
        previous: Board | None,
        timing: MoveTiming,
        rule: FirstClickRule,
        clicked: list[Coord],
        problem: Problem,
    ) -> tuple[Sight, list[Move]]:
        """Find the board again (moved), wait while it is covered, or learn a state it never saw.

        Stops (raises) when the board is where it was and reads completely but inconsistently (a
        misread), when another board is there, or when ``cover_wait`` runs out.
        """
        start = self.clock()
        deadline = start + self.options.cover_wait
        not_learned = ""
        teach = False
        warned = False
        while True:
            self._check_limits()
            where = self._find_again(previous)
            if where == "same" and problem.moved:
                self._move_ring_out()
            elif where == "same" and problem.unreadable and problem.image is not None and not not_learned:
                not_learned, teach = self._learn(problem.image, previous)
            # still unnamed where it was, re-read and not learned: a guess around it is the last way on
            self._may_guess = where == "same" and bool(not_learned)
            try:
                outcome = self._attempt(previous, timing, rule, clicked)
            finally:
                self._may_guess = False
            if not isinstance(outcome, Problem):
                self.covered_seconds += self.clock() - start
                return outcome
            problem = outcome
            self.rereads += 1
            if where == "same" and not problem.unreadable:
                raise self._stop(MisreadError, problem, f"after {self.options.retries + 1} reads")
            if self.clock() >= deadline:
                self.covered_seconds += self.clock() - start
                detail = (
                    f"the board was not found for {self.options.cover_wait:g} s"
                    if where == "gone"
                    else f"the board stayed unreadable for {self.options.cover_wait:g} s"
                )
                if not_learned:
                    detail += f"; not learned as a new state: {not_learned}"
                raise self._stop(BoardGoneError if where == "gone" else MisreadError, problem, detail, teach)
            if not warned:
                LOGGER.warning(
                    "the board is covered or gone (%s); waiting up to %g s",
                    problem.text,
                    self.options.cover_wait,
                )
                warned = True
                self._close_window_over_board()
            self.sleep(self.options.cover_poll)

    def _move_ring_out(self) -> None:
        """The ring changed but the board is where it was: the ring showed the board's own drawing, so
        take it ``RING`` pixels further out (:data:`RING_GAP_STEPS`), or stop checking it before reads."""
        self._ring_outs += 1
        self._ring_on = self._ring_outs <= RING_GAP_STEPS
        LOGGER.info(
            "the ring around the board changed with the board (%d time(s)): taken out, or no longer checked",
            self._ring_outs,
        )

    def _stop(
        self, kind: type[MinebotError], problem: Problem, detail: str, teach: bool = False
    ) -> MinebotError:
        """The error that ends a game, with the frame saved and how to teach a state never seen."""
        from bot.vision.read import is_generic

        image = problem.image if problem.image is not None else self.capture.grab(None)
        path = self._save(image, f"minebot-misread-{int(time.time())}.png")
        how = ""
        if teach and self.skin is not None and (self._fell_back or is_generic(self.skin)):
            how = (
                ". If the client shows a cell state the reader cannot name, make a skin for this client "
                f"from the frame: minebot calibrate {path}"
            )
        elif teach and self.skin is not None:
            how = (
                f". If the client shows a cell state skin {self.skin.name!r} has not seen, teach it: "
                f"minebot calibrate {path} --update {self.skin.name}"
            )
        return kind(f"{problem.text} ({detail}; frame saved to {path}){how}")

    def _learn(self, image: np.ndarray, previous: Board | None) -> tuple[str, bool]:
        """Learn the unreadable cells' states when the board forces them.

        Returns ('', True) when learned, else why not and whether the cells could still show a state
        the skin never saw (each was covered before): then the user is told how to teach it.
        """
        from bot.vision.classify import classify_cells
        from bot.vision.read import is_generic

        assert self.skin is not None
        if self._fell_back or is_generic(self.skin):
            return self._learn_taught(image, previous)
        geometry = self._region_geometry()
        skin = self.skin
        cells = classify_cells(image, geometry, skin)
        learned = self._learn_cells(image, geometry, lambda: skin, cells, previous)
        if isinstance(learned, tuple):
            return learned
        self.skin = learned.skin
        if self.options.save_learned:
            save_learned(learned.skin, learned.templates)
        return "", True

    def _learn_taught(self, image: np.ndarray, previous: Board | None) -> tuple[str, bool]:
        """:meth:`_learn` when the board is read with no skin: the cells the templates taught by this
        game's exact readings (:mod:`bot.vision.taught`) cannot read are learned into them when the
        board forces their states (in memory: the skinless reader has no folder to save into)."""
        from bot.vision.read import taught_skin

        stand_in = self._generic if self._fell_back else self.skin
        assert stand_in is not None
        taught = taught_skin(stand_in)
        seen = taught.classify(image, self._region_geometry())
        if seen is None:
            return "no exact reading of this board has taught templates to learn into yet", False
        reduced, cells = seen
        learned = self._learn_cells(reduced.board, reduced.geometry, taught.skin, cells, previous)
        if isinstance(learned, tuple):
            return learned
        taught.add(learned.templates)
        return "", True

    def _learn_cells(
        self,
        image: np.ndarray,
        geometry: Geometry,
        skin: Callable[[], Skin | None],
        cells: CellReading,
        previous: Board | None,
    ) -> Learned | tuple[str, bool]:
        """The states the board forces on the cells ``cells`` left uncertain, learned into ``skin()``
        (asked for only when learning is on) and noted; else why not and whether those cells could
        show a state never seen (each was covered before). Shared by both ways of learning."""
        unreadable = cells.uncertain()
        new_look = previous is not None and all(previous[cell] == Cell.COVERED for cell in unreadable)
        if not self.options.learn:
            return "learning is off", new_look
        into = skin()
        assert into is not None
        learned = learn_unseen(image, geometry, into, cells.states, unreadable, previous, self.mines)
        if isinstance(learned, str):
            LOGGER.info("not learned: %s", learned)
            return learned, new_look
        states = sorted(state.char for state in learned.templates)
        self.learned.extend(states)
        LOGGER.warning(
            "learned cell state(s) %s from the board's logic at %s", ", ".join(states), learned.cells
        )
        return learned
