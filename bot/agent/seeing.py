"""Reading the board and judging each reading against everything seen before: the
:class:`~bot.agent.player.Player`'s reading half, as a mixin over its state."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bot.agent.checks import (
    check_progress,
    flag_the_rest,
    unexplained_change,
    unsettled_zero,
)
from bot.agent.ending import (
    block_distances,
    hidden_by_a_window,
    judge_end,
    lost_by_guess,
    lost_by_opening_all,
    mine_opened,
    opened_by,
    won_as_nearest,
    won_by_opening,
)
from bot.agent.learning import learn_unseen, save_learned
from bot.agent.results import MoveTiming
from bot.agent.unnamed import consensus, guess_around, relaxed
from bot.board import Board, Cell, Coord
from bot.errors import (
    CaptureError,
    ContradictionError,
    GameOverError,
    MinebotError,
    RecognitionError,
)
from bot.game import FirstClickRule, GameStatus
from bot.geometry import Geometry, Region
from bot.solver import Action, Move, choose_moves

if TYPE_CHECKING:
    from bot.vision.classify import CellReading
    from bot.vision.read import Reading
    from bot.vision.status import FaceMatch


from bot.agent.locating import RING, RING_GAP_STEPS, SAME_PLACE_PIXELS, beside
from bot.agent.sight import (
    BoardGoneError,
    LastClicks,
    MisreadError,
    Problem,
    Sight,
    run_into,
    shows_the_end,
)

LOGGER = logging.getLogger(__name__)


SETTLE_LOOKS = 4
"""With no skin, how many grabs a frame the taught templates cannot read is looked at again, while the
board still changes, before the skinless reader reads the last one."""

STILL_BEFORE_COLD = 4
"""With no skin, how many quiet periods (``options.quiet``) a frame the taught templates cannot read
must stay unchanged before the skinless reader reads it. A client's passing drawing (JSMinesweeper's
hover tooltip or pressed cell, which Chromium under load takes a few frames to take down) outlasts one
quiet period; the skinless reader costs a hundred times the templates (100-400 ms under load) and
refuses such frames too, while a state never taught is still there a few periods later."""


def _revealed_changed(previous: Board, board: Board, clicked: Iterable[Coord], why: str) -> str:
    """Why ``board`` cannot follow ``previous`` when a cell revealed there reads otherwise now (``why``
    says which rule), else ''."""
    cell = check_progress(previous, board, clicked)
    if cell is None:
        return ""
    return f"cell {cell} read as {board[cell].char!r} but was {previous[cell].char!r} before ({why})"


class Seeing:
    """Reading the board: grab, read, re-read, judge, recover or stop."""

    def _inner_region(self) -> Region:
        """The board, and the face when there is one: what changes as a game is played."""
        assert self.geometry is not None
        region = self.geometry.region()
        return region.union(self.geometry.face) if self.geometry.face else region

    def _inner(self, image: np.ndarray) -> np.ndarray:
        """The :meth:`_inner_region` part of a grab of the watched region (the ring left out)."""
        inner, region = self._inner_region(), self._watch_region()
        x, y = inner.left - region.left, inner.top - region.top
        return image[y : y + inner.height, x : x + inner.width]

    def _watch_region(self) -> Region:
        """The screen region re-read each move: the board, the face when there is one, and a ring of
        ``RING`` pixels of the window around them (what :meth:`_still_as_read` checks for a move)."""
        region = self._inner_region()
        screen = self._screen or self.capture.screen_region()
        pad = RING * (1 + min(self._ring_outs, RING_GAP_STEPS))
        left, top = max(region.left - pad, screen.left), max(region.top - pad, screen.top)
        right, bottom = min(region.right + pad, screen.right), min(region.bottom + pad, screen.bottom)
        return Region(left, top, right - left, bottom - top)

    def _grab(self) -> np.ndarray:
        return self.capture.grab(self._watch_region())

    def _region_geometry(self) -> Geometry:
        """The board's geometry in the pixels of a grab of the watched region."""
        assert self._image_geometry is not None
        screen = self._screen or self.capture.screen_region()
        region = self._watch_region()
        dx = (region.left - screen.left) * self._ratio
        dy = (region.top - screen.top) * self._ratio
        return self._image_geometry.offset(-dx, -dy)

    def _read(self, image: np.ndarray, previous: Board | None = None) -> Sight:
        """The board ``image`` shows; with no skin, ``previous`` (this game's last trusted board) is the
        skinless reader's prior (:func:`bot.vision.read.read_known`: a revealed cell never changes)."""
        from bot.vision import read_board
        from bot.vision.read import is_generic, read_known

        geometry = self._region_geometry()
        if self._fell_back or is_generic(self.skin):  # no skin (from now): revealed cells stay
            stand_in = self._fallback_skin() if self._fell_back else self.skin
            image = self._taught_or_settled(image, geometry, stand_in)
            if isinstance(image, Sight):
                return image
            return self._sight(read_known(image, geometry, stand_in, self.mines, previous), image)
        try:
            reading = read_board(image, geometry, self.skin, self.mines)
        except RecognitionError as exc:
            fallback = self._fallback_skin()
            if fallback is None:
                raise
            try:
                reading = read_board(image, geometry, fallback, self.mines)
            except RecognitionError as generic_exc:
                raise RecognitionError(
                    f"{exc}; with no skin: {generic_exc}",
                    alternatives=generic_exc.alternatives or exc.alternatives,  # each holds the truth
                ) from generic_exc
            if not self._fell_back:
                LOGGER.warning(
                    "skin %r cannot read this game's board (%s): reading with no skin", self.skin.name, exc
                )
                self._fell_back = True
        return self._sight(reading, image)

    def _taught_or_settled(
        self, image: np.ndarray, geometry: Geometry, stand_in: object
    ) -> Sight | np.ndarray:
        """The board read from the templates this game's exact readings taught (:mod:`bot.vision.taught`),
        or, when a cell matches none, the board once it has stopped changing (a grab ``options.quiet``
        later shows the same board) for the skinless reader: a client still drawing its last move shows
        cells neither reader can name, and the skinless reader costs a hundred times more."""
        from bot.vision.read import taught_reading

        for _ in range(SETTLE_LOOKS):
            quick = taught_reading(image, geometry, stand_in, self.mines)  # type: ignore[arg-type]
            if quick is not None:
                return self._sight(quick, image)
            for _ in range(STILL_BEFORE_COLD):
                self.sleep(self.options.quiet)
                try:
                    again = self._grab()
                except CaptureError:
                    return image
                if not np.array_equal(self._inner(again), self._inner(image)):
                    break
            else:
                return image  # still all along: what it shows is there to stay
            image = again
        return image

    def _sight(self, reading: Reading, image: np.ndarray) -> Sight:
        """A reading as a :class:`Sight`: the end seen by the face, or by the board when there is none."""
        board = reading.board
        if board.mines is None:
            raise MinebotError(
                f"the board is {board.rows}x{board.cols}, not a standard level, and the client's mine "
                "counter could not be read: give the mine count (--mines)"
            )
        if reading.face is None and reading.status is GameStatus.PLAYING and shows_the_end(board):
            return Sight(board, GameStatus.LOST, image, "board")  # mines shown: lost (no face to say so)
        last = self._last_clicks
        mine = None if reading.face is not None or last is None else mine_opened(board, last.moves)
        if reading.status is GameStatus.WON and mine is not None:  # no win shows a clicked mine
            return Sight(board, GameStatus.LOST, image, f"board (cell {mine} was clicked and shows a mine)")
        return Sight(board, reading.status, image, "face" if reading.face is not None else "board")

    def _note_run_in(self, image: np.ndarray, previous: Board) -> None:
        """Remember the cells open before that the taught templates cannot read surely now, beside a
        cell opened since (whose glyph may run into them): on a later frame they keep their number."""
        seen = self._classified(image)
        if seen is None:
            return
        self._remember_run_in(run_into(previous, seen[0].states, seen[0].uncertain_mask()))

    def _remember_run_in(self, cells: np.ndarray) -> None:
        """Add ``cells`` to the cells open before that keep their number on later frames."""
        self._run_in = cells if self._run_in is None else self._run_in | cells

    def _unchanged(self, image: np.ndarray, previous: Board) -> np.ndarray:
        """The cells whose pixels ``image`` shows exactly as the frame ``previous`` was read from did
        (same pixels, same state); none when that frame is not at hand or the grid moved since."""
        same = np.zeros(previous.shape, dtype=bool)
        last = self._last_clicks
        geometry = self._region_geometry()
        if last is None or last.board is not previous or last.image.shape != image.shape:
            return same
        if last.geometry is not None and last.geometry != geometry:
            return same
        region = geometry.region()
        if (
            min(region.left, region.top) < 0
            or region.right > image.shape[1]
            or region.bottom > image.shape[0]
        ):
            return same  # cells cut off the grab: nothing to compare
        for cell in previous:
            rect = geometry.cell_rect(cell)
            where = slice(rect.top, rect.bottom), slice(rect.left, rect.right)
            same[cell] = np.array_equal(image[where], last.image[where])
        return same

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
                odd = was & ~run_in & ~self._unchanged(image, previous)  # as may one before; or its
                if odd.any():  # pixels are as they were read. Else something over the board?
                    cell = tuple(int(v) for v in np.argwhere(odd)[0])
                    return f"cell {cell} was open before and reads otherwise, no cell opened beside it"
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

    def _fallback_skin(self) -> object | None:
        """The skinless reader, with what it learnt this game, for frames the game's skin cannot read;
        None unless the skin was chosen by ``auto`` (a skin named by the user is never replaced)."""
        from bot.vision.read import AUTO, generic_skin, is_generic

        if self.options.skin != AUTO or self.skin is None or is_generic(self.skin):
            return None
        if self._generic is None:
            self._generic = generic_skin()
        return self._generic

    def _judge_unreadable(self, image: np.ndarray, previous: Board | None) -> Sight | None:
        """An ended game on a screen whose cells cannot all be read (see :func:`judge_end`), or None.

        With no skin, the cells are those the templates this game's exact readings taught read surely
        (:mod:`bot.vision.taught`; the skinless reader refuses a frame whole): a win shows when they are
        every safe cell, whatever the others show (a client's own end-of-game flags, say). Once re-reads
        and learning could not name a cell (``_may_guess``), a win also shows when every cell read as
        its nearest look is a won board, its logic whole (:func:`won_as_nearest`)."""
        seen = self._classified(image)
        if seen is None:
            return None
        cells, face = seen
        sure = ~cells.uncertain_mask()
        judged = judge_end(cells.states, sure, face.status if face else None, previous, self.mines)
        shown = np.where(sure, cells.states, int(Cell.COVERED))
        if judged is None and self._may_guess and previous is not None and previous.shape == shown.shape:
            # re-read and not learned: each unnamed cell by its nearest look (a revealed one as it was)
            nearest = np.where(~sure & previous.revealed_mask(), previous.cells, cells.states)
            if won_as_nearest(nearest, previous, self.mines):
                shown, judged = nearest, (GameStatus.WON, "board (unnamed cells by their nearest look)")
        if judged is None:
            return None
        status, how = judged
        board = Board(shown, self.mines)
        return Sight(board, status, image, f"{how} (some cells unreadable)")

    def _classified(self, image: np.ndarray) -> tuple[CellReading, FaceMatch | None] | None:
        """Every cell of ``image`` classified with uncertain cells marked, and the face when a skin has
        one; with no skin, by the templates this game's exact readings taught (None before any)."""
        from bot.vision.classify import classify_cells
        from bot.vision.read import is_generic, taught_skin
        from bot.vision.status import find_face

        assert self.skin is not None
        geometry = self._region_geometry()
        if self._fell_back or is_generic(self.skin):
            stand_in = self._fallback_skin() if self._fell_back else self.skin
            seen = taught_skin(stand_in).classify(image, geometry)  # type: ignore[arg-type]
            return None if seen is None else (seen[1], None)
        return classify_cells(image, geometry, self.skin), find_face(image, geometry, self.skin)

    def _judged_by_logic(self, image: np.ndarray) -> Sight | None:
        """An ended game the last clicks prove (:meth:`_ended_by_the_clicks`) on a board still where it
        was, or None. A grab where a moved board was shows every cell changed, revealed ones too, as a
        dialog over the whole board would: when the board's last trusted look is elsewhere on the
        screen, nothing the grab shows is judged (the board is followed instead)."""
        sight = self._ended_by_the_clicks(image)
        if sight is None or not self._moved_on_screen():
            return sight
        LOGGER.info("the board moved: no end is judged from where it was (%s)", sight.ended_by)
        return None

    def _moved_on_screen(self) -> bool:
        """Whether the board's last trusted look shows elsewhere on the whole screen (:meth:`_follow`);
        also when the screen cannot be grabbed (nothing then shows the board is where it was)."""
        try:
            _, screen = self._screen_image()
        except CaptureError as exc:
            LOGGER.info("the screen cannot be grabbed: %s", exc)
            return True
        g, old = self._follow(screen), self._image_geometry
        if g is None or old is None:
            return False  # covered (a dialog), or no look yet: judged where it was
        return abs(g.left - old.left) > SAME_PLACE_PIXELS or abs(g.top - old.top) > SAME_PLACE_PIXELS

    def _ended_by_the_clicks(self, image: np.ndarray) -> Sight | None:
        """An ended game the last clicks prove, on a screen that cannot be read or trusted, or None.

        Won: the clicks opened the last safe cells (:func:`won_by_opening`), the screen changed after
        them and every cell they opened looks changed (so they were taken); a dialog over the board
        does not matter. Or the batch's cells not clicked read as numbers (:meth:`_won_by_the_batch`),
        or a last guess reads as a number. Lost: the last click was a guess and the screen shows every
        mine (:func:`lost_by_guess`). Each grab's cells are cut where the board was when it was grabbed."""
        from bot.vision.taught import MAX_DISTANCE, cell_blocks, reduce_board

        last = self._last_clicks
        if last is None or not last.answered or not last.moves:
            return None
        won = won_by_opening(last.board, last.moves)
        guess = last.moves[0]
        # A first click is safe by the rule played, which the client may not keep (a fresh board fitting
        # a skin whose rule it is): whether it hit a mine is judged as for any guess.
        chanced = guess.probability > 0 or last.board.is_fresh()
        guessed = len(last.moves) == 1 and guess.action is Action.OPEN and chanced
        if won is None and not guessed and len(last.planned) <= len(last.moves):
            return None
        geometry = self._region_geometry()
        then = last.geometry or geometry
        if (geometry.rows, geometry.cols) != (then.rows, then.cols):
            return None
        before, after = reduce_board(last.image, then), reduce_board(image, geometry)
        if before is None or after is None:
            return None
        shape = (geometry.rows, geometry.cols)
        blocks = cell_blocks(before.board, *shape), cell_blocks(after.board, *shape)
        if won is not None:
            changed = block_distances(*blocks) > MAX_DISTANCE
            if all(changed[cell] for cell in last.board.covered() if won[cell] != Cell.FLAG):
                return Sight(won, GameStatus.WON, image, "logic (the last safe cells were opened)")
            return None
        return (
            self._won_by_the_batch(image, last, blocks)
            if not guessed
            else self._lost_or_won_by_guess(image, last, blocks)
        )

    def _won_by_the_batch(
        self, image: np.ndarray, last: LastClicks, blocks: tuple[np.ndarray, np.ndarray]
    ) -> Sight | None:
        """Won when the proven-safe cells decided on together were the last safe cells, though only some
        were clicked (an area an earlier click opened took the others): each cell clicked looks changed,
        and each cell not clicked now reads surely as a revealed number, so it was opened, or lies under
        the window the client opened over the board as the game ended (:func:`hidden_by_a_window`: the
        batch stopped because that cell changed, and revealed cells changed around it)."""
        from bot.vision.taught import MAX_DISTANCE

        won = won_by_opening(last.board, last.planned)
        sent = {move.cell for move in last.moves}
        rest = [move.cell for move in last.planned if move.cell not in sent]
        if won is None or not rest:
            return None
        changed = block_distances(*blocks) > MAX_DISTANCE
        if not all(changed[cell] for cell in opened_by(last.moves) or ()):
            return None
        hidden = hidden_by_a_window(last.board, *blocks, MAX_DISTANCE)
        seen = self._classified(image) if not all(hidden[cell] for cell in rest) else None
        for cell in rest:
            if hidden[cell]:
                continue
            if (
                seen is None
                or seen[0].uncertain_mask()[cell]
                or not Cell(int(seen[0].states[cell])).is_number()
            ):
                return None
        return Sight(won, GameStatus.WON, image, "logic (the last safe cells were opened)")

    def _lost_or_won_by_guess(
        self, image: np.ndarray, last: LastClicks, blocks: tuple[np.ndarray, np.ndarray]
    ) -> Sight | None:
        """After a lone guess: lost when the screen shows every mine (:func:`lost_by_guess`); won when
        the guess was the last safe cell and its cell now reads surely as a number."""
        from bot.vision.taught import MAX_DISTANCE

        guess = last.moves[0]
        lost = lost_by_guess(last.board, guess.cell, *blocks, MAX_DISTANCE)
        if lost is not None:
            return Sight(lost, GameStatus.LOST, image, "logic (every mine shown after a guess)")
        lost = lost_by_opening_all(last.board, guess.cell, *blocks, MAX_DISTANCE)
        if lost is not None:
            return Sight(lost, GameStatus.LOST, image, "logic (every cell opened after a guess)")
        won = won_by_opening(last.board, last.moves, proven=False)
        seen = None if won is None else self._classified(image)
        if seen is None or seen[0].uncertain_mask()[guess.cell]:
            return None
        if Cell(int(seen[0].states[guess.cell])).is_number():  # the guess was safe: the last safe cell
            return Sight(won, GameStatus.WON, image, "logic (the last guess opened the last safe cell)")
        return None

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
            if attempt:
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
        cells = classify_cells(image, geometry, self.skin)
        unreadable = cells.uncertain()
        new_look = previous is not None and all(previous[cell] == Cell.COVERED for cell in unreadable)
        if not self.options.learn:
            return "learning is off", new_look
        learned = learn_unseen(image, geometry, self.skin, cells.states, unreadable, previous, self.mines)
        if isinstance(learned, str):
            LOGGER.info("not learned: %s", learned)
            return learned, new_look
        self.skin = learned.skin
        states = sorted(state.char for state in learned.templates)
        self.learned.extend(states)
        LOGGER.warning(
            "learned cell state(s) %s from the board's logic at %s", ", ".join(states), learned.cells
        )
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
        unreadable = cells.uncertain()
        new_look = previous is not None and all(previous[cell] == Cell.COVERED for cell in unreadable)
        if not self.options.learn:
            return "learning is off", new_look
        skin = taught.skin()
        assert skin is not None
        learned = learn_unseen(
            reduced.board, reduced.geometry, skin, cells.states, unreadable, previous, self.mines
        )
        if isinstance(learned, str):
            LOGGER.info("not learned: %s", learned)
            return learned, new_look
        taught.add(learned.templates)
        states = sorted(state.char for state in learned.templates)
        self.learned.extend(states)
        LOGGER.warning(
            "learned cell state(s) %s from the board's logic at %s", ", ".join(states), learned.cells
        )
        return "", True

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
            stray = (board.cells == Cell.EXPLODED) & ~reach
            if stray.any():
                r, c = np.argwhere(stray)[0]
                return f"cell {(int(r), int(c))} reads as an exploded mine where no click landed"
            mines = np.isin(board.cells, (Cell.MINE, Cell.EXPLODED))
            if mines.any() and not (mines & reach).any():  # a game is lost by the mine a click opened
                r, c = np.argwhere(mines)[0]
                return f"mines show (cell {(int(r), int(c))}) but no cell this game clicked holds one"
        return ""
