"""Reading the board and judging each reading against everything seen before: the
:class:`~bot.agent.player.Player`'s reading half, as a mixin over its state. This module holds the
per-move loop (grab, read, check, solve; re-read, then recover); its parts are mixins of their own:
:mod:`~bot.agent.reading` (a grab into a board), :mod:`~bot.agent.trusting` (a reading against what was
seen before), :mod:`~bot.agent.judging` (an end on a screen not read whole), :mod:`~bot.agent.refused`
(moves around unnamed cells) and :mod:`~bot.agent.recovering` (follow, wait, learn or stop)."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import numpy as np

from bot.agent.checks import flag_the_rest
from bot.agent.judging import EndJudging
from bot.agent.locating import beside
from bot.agent.reading import FrameReading
from bot.agent.recovering import Recovering
from bot.agent.refused import Refused
from bot.agent.results import MoveTiming
from bot.agent.sight import (
    Problem,
    Sight,
    shows_the_end,
)
from bot.agent.trusting import Trusting
from bot.board import Board, Coord
from bot.errors import (
    CaptureError,
    ContradictionError,
    GameOverError,
    RecognitionError,
)
from bot.game import FirstClickRule, GameStatus
from bot.solver import Move, choose_moves

LOGGER = logging.getLogger(__name__)


class Seeing(FrameReading, Trusting, EndJudging, Refused, Recovering):
    """Reading the board: grab, read, re-read, judge, recover or stop."""

    def _park_point(self) -> tuple[int, int]:
        """A point off the board and its window ring, beside it (a cursor over a cell corrupts its pixels)."""
        return beside(self._watch_region(), self._screen or self.capture.screen_region())

    def _park(self) -> None:
        """Move the pointer off the board."""
        self.mouse.move(*self._park_point())

    def _save(self, image: np.ndarray, name: str) -> Path:
        import cv2

        folder = self.options.save_frames or Path(os.environ.get("TMPDIR", "/tmp"))
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        cv2.imwrite(str(path), image)
        return path

    def _ring_moved(self, image: np.ndarray) -> bool:
        """Whether the window's ring around the board (see :data:`RING`) differs in ``image`` from the
        last trusted grab: the window moved or something covers it, so reading there is no use."""
        last = self._frame
        if not self._ring_on or last is None or last.shape != image.shape or self.geometry is None:
            return False
        parts = self._guard_parts((0, 0), ring=True)[1:]
        return not all(np.array_equal(self._pixels_of(image, p), self._pixels_of(last, p)) for p in parts)

    def _attempt(
        self,
        previous: Board | None,
        timing: MoveTiming,
        rule: FirstClickRule,
        clicked: Iterable[Coord],
        ring: bool = False,
    ) -> tuple[Sight, list[Move]] | Problem:
        """One grab, read, check and solve: the sight and its moves, or why it cannot be trusted.

        With ``ring``, a grab whose ring moved (:meth:`_ring_moved`) is not read. Every attempt's time
        is counted in ``timing`` (a refused reading too), and its CPU time on this thread (what load
        does not inflate) in ``timing.cpu``."""
        t0, cpu0 = self.clock(), time.thread_time()
        try:
            image = self._grab()
        except CaptureError as exc:
            return Problem(str(exc), None, True)
        t1 = self.clock()
        timing.capture += (t1 - t0) * 1000
        sight: Sight | None = None
        if ring and self._ring_moved(image):  # a dialog the client opens at the end covers the ring too
            sight = self._judged_by_logic(image)
            if sight is None:
                return Problem(
                    "the window around the board changed (moved or covered)", image, True, moved=True
                )
        t2: float | None = None
        certain: list[Move] = []  # moves certain around a cell no reader names (checked already)
        try:
            try:
                sight = sight or self._read(image, previous)
            except RecognitionError as exc:
                ended = self._judge_unreadable(image, previous) or self._judged_by_logic(image)
                if ended is None:
                    around = self._around_unnamed(exc, image, previous, clicked)
                    if isinstance(around, str):
                        return Problem(f"{exc} ({around})" if around else str(exc), image, True)
                    sight, certain = around
                else:
                    sight = ended
            problem = "" if certain else self._inconsistency(previous, sight, clicked)
            if problem and not shows_the_end(sight.board):  # else the end read is judged after re-reads
                ended = self._judged_by_logic(image)
                if ended is not None:
                    sight, problem = ended, ""
            t2 = self.clock()
            moves: list[Move] = certain
            if not problem and not certain and sight.status is GameStatus.PLAYING:
                moves = flag_the_rest(sight.board) or choose_moves(
                    sight.board, sight.board.mines, rule, flags=self.options.flags
                )
        except (ContradictionError, GameOverError) as exc:
            problem = str(exc)
        finally:
            end = self.clock()
            timing.classify += ((end if t2 is None else t2) - t1) * 1000
            timing.solve += 0.0 if t2 is None else (end - t2) * 1000
            timing.cpu += (time.thread_time() - cpu0) * 1000
        if problem:
            return Problem(problem, image, False, sight)
        assert sight is not None
        image = sight.image  # the grab read (a later one when the first was still changing)
        if self._drawn_while_read(image):
            LOGGER.info("the board changed while it was read: waiting for the client to finish drawing")
            text = "the board changed while it was read (still drawing)"
            return Problem(text, image, True, sight, drawing=True)
        if self.options.save_frames:
            self._frames += 1
            self._save(image, f"frame-{self._frames:05d}.png")
        return sight, moves

    def sight(
        self,
        previous: Board | None,
        timing: MoveTiming,
        rule: FirstClickRule,
        clicked: Iterable[Coord] = (),
    ) -> tuple[Sight, list[Move]]:
        """Read the board and decide the moves, re-capturing while the reading cannot be trusted.

        A reading is untrusted when a cell is uncertain, a revealed cell changed, or the solver finds
        the board contradictory (a misread, or a frame caught mid-redraw): wait a little and look
        again; after ``retries`` re-captures, recover (:meth:`_recover`).

        Raises:
            MisreadError: the board is where it was but cannot be trusted, with the frame saved.
            BoardGoneError: the board is no longer on the screen, or another board replaced it.
        """
        clicked = list(clicked)
        problem: Problem | None = None
        for attempt in range(self.options.retries + 1):
            if problem is not None and problem.drawing and problem.image is not None:
                self._wait_change(problem.image, timing)  # the longer still period (_drawn_while_read)
            elif attempt:
                self.sleep(self.options.retry_wait * attempt)
            outcome = self._attempt(previous, timing, rule, clicked, ring=True)
            if not isinstance(outcome, Problem):
                return outcome
            problem = outcome
            self.rereads += 1
            if problem.moved:  # the window moved or is covered: look for the board at once
                break
            LOGGER.info("re-reading (attempt %d): %s", attempt + 1, problem.text)
        assert problem is not None
        seen = problem.sight
        if (
            seen is not None
            and shows_the_end(seen.board)
            and not self._end_problem(previous, seen.board, clicked)
        ):
            LOGGER.info("the board shows the end of a lost game though the face does not: lost")
            return replace(seen, status=GameStatus.LOST, ended_by="board (not the face)"), []
        return self._recover(previous, timing, rule, clicked, problem)
