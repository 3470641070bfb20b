"""The play loop: locate the board, then read, check, solve, click and wait, move after move, game after game.

Why one loop: the live screen, a replay and the simulated client differ only in their capture and
input backends, so the bot that plays a real window is exactly the one the tests run headless.

Each move: park the pointer off the board, grab only the board region (face included), read it,
check the reading against everything seen before (a revealed cell never changes, the solver finds no
contradiction), solve, click, then wait until the board has changed and two grabs agree. A reading
that stays uncertain or inconsistent after a few re-captures is a fault to recover from, like a
player would: the board is looked for again on the whole screen (the window moved: go on when it is
the same game), waited for while it is covered (bounded), or taught a state it never saw when the
board's logic forces it. Only then does the game stop, with an error that says what was seen where,
and the frame saved: the bot never clicks on a misread, and every click is checked against the board
as located at that moment.
"""

from __future__ import annotations

import logging
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bot.agent.firstclick import FirstClickLog
from bot.agent.locating import RING, RING_FAILURES, RING_GAP_STEPS, Locating
from bot.agent.newgames import NewGames
from bot.agent.options import PlayOptions
from bot.agent.results import GameResult, MoveTiming, SessionSummary
from bot.agent.seeing import Seeing
from bot.agent.sight import LastClicks, MisreadError, Sight
from bot.agent.stopping import check_stop, ctrl_c_stops
from bot.board import Board, Cell, Coord
from bot.capture import CaptureBackend
from bot.errors import (
    AbortedError,
    CaptureError,
    MinebotError,
)
from bot.game import FirstClickRule, GameStatus
from bot.geometry import Geometry, Region
from bot.input import Expect, InputBackend
from bot.solver import Action, Move

LOGGER = logging.getLogger(__name__)


def make_dpi_aware() -> str:
    """Make screen pixels and mouse coordinates agree on scaled displays; returns what was done.

    Windows: declare the process per-monitor DPI aware before the first capture, so that mss and
    pyautogui both see physical pixels (otherwise Windows scales one of them at 125%/150%).
    macOS: nothing to declare; Retina captures have more pixels than mouse points, which the
    :class:`Player` corrects with the measured pixel ratio. Linux/X11: pixels are pixels.
    """
    if sys.platform != "win32":
        return "not needed on this platform"
    import ctypes

    try:
        ctypes.windll.shcore.SetProcessDpiAwareness(2)  # type: ignore[attr-defined]
        return "per-monitor DPI aware (shcore.SetProcessDpiAwareness(2))"
    except (AttributeError, OSError):
        ctypes.windll.user32.SetProcessDPIAware()  # type: ignore[attr-defined]
        return "system DPI aware (user32.SetProcessDPIAware)"


UNANSWERED_CLICKS = 3
"""Clicks in a row after which the screen did not change at all: the client is not taking the clicks
(paused, covered, or what was read is no board), so the game stops rather than click on."""

FRUITLESS_CLICKS = 5
"""Batches of clicks in a row sent on one and the same reading of the board: the screen answers each
click (JSMinesweeper's analysis mode draws a clicked cell open, the next click covers it again) but the
game takes none, so the game stops rather than click forever."""


ANIMATION_PAUSE = 0.5
"""Longest wait, in seconds, for a board that redraws in steps to be taken as still: twice the longest
pause seen between its redraws, up to this (a pause longer than this is the end of its animation)."""


class Player(Locating, Seeing, NewGames):
    """Plays a Minesweeper window through a capture and an input backend.

    ``restart`` starts a new game by restarting the client (the harness restarts the process);
    ``clock``/``sleep`` are injectable for tests.
    """

    def __init__(
        self,
        capture: CaptureBackend,
        mouse: InputBackend,
        options: PlayOptions | None = None,
        restart: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
        sleep: Callable[[float], None] = time.sleep,
        on_move: Callable[[Board, list[Move]], None] | None = None,
        on_end: Callable[[Board, GameStatus], None] | None = None,
    ) -> None:
        self.capture = capture
        self.mouse = mouse
        self.options = options or PlayOptions()
        self._redraw_pause = 0.0
        """Longest pause seen between two redraws of the client's board after a click (its animations)."""
        self._settled = True
        """Whether the board kept still at the end of the last wait for it (else it timed out changing)."""
        self._grid_checked = False
        """Whether the located grid was checked against the grid the skinless reader finds (once a place)."""
        self.restart = restart
        self.clock = clock
        self._sleep = sleep
        self.on_move = on_move
        self.on_end = on_end
        """Told each game's last board and how it ended (won or lost), as ``on_move`` is told each move."""
        self.skin = None
        self.geometry: Geometry | None = None
        """Board geometry in screen coordinates."""
        self._image_geometry: Geometry | None = None
        self._ratio = 1.0
        self._screen: Region | None = None
        """The screen as of the last whole-screen look (its size does not change mid-game)."""
        self._frames = 0
        self.rereads = 0
        """Re-captures caused by an uncertain or inconsistent reading, over the whole session."""
        self.unnamed_reads = 0
        """Refused readings played on around a cell no reader names (:mod:`bot.agent.unnamed`)."""
        self.relocations = 0
        """Times the board was found again elsewhere (the window moved), over the whole session."""
        self.covered_seconds = 0.0
        self.learned: list[str] = []
        self.mines: int | None = None
        """This game's mine total (given, the standard level's, or the client's counter)."""
        self.mines_source = ""
        self.first_clicks = FirstClickLog()
        self.new_game_way: str = ""
        """The way of starting a new game that worked (``face``, ``F2``, ``restart``, ``click``)."""
        self._last_board: Board | None = None
        self._generic = None
        """The skinless reader's stand-in skin for this game, once the game's skin could not read it."""
        self._last_seen: Board | None = None
        self._view: np.ndarray | None = None
        """The board (and face) as the last trusted reading saw it: what a moved window shows elsewhere."""
        self._reach: np.ndarray | None = None
        self._flagged: np.ndarray | None = None
        """Cells this game's clicks flagged (right-clicked): the only cells a client draws a flag on."""
        """Cells this game's clicks could have opened or flagged (each clicked cell, a chord's neighbours)."""
        self._run_in: np.ndarray | None = None
        """Open cells a newly opened neighbour's glyph was found to run into this game (kept as read)."""
        self._fell_back = False
        self._may_guess = False
        """Whether a guess around an unnamed cell may be made (:meth:`_recover`, once re-reads and
        learning could not name it)."""
        self._last_clicks: LastClicks | None = None
        self._frame: np.ndarray | None = None
        """The grab of the last trusted reading (board, face and ring)."""
        self._ring_on = True
        """Whether the ring around the board is still checked (see :data:`RING_FAILURES`)."""
        self._ring_outs = 0
        """Times the ring was found to show the board's own drawing (see :data:`RING_GAP_STEPS`), this
        session: the ring is that many ``RING`` pixels further out."""
        self._button: Region | None = None
        """A status button learned by what it does (:mod:`bot.vision.button`) where no face template
        found one: its place relative to the board's top-left corner, in screen pixels."""
        self._button_frames: list[tuple[float, np.ndarray]] = []
        """The last two grabs of the band above the board this game (time, pixels), taken while it is on."""
        self._button_relocations = 0
        self._own_game = False
        """Whether the game on screen was started by minebot (a new game: no flag on it at the start)."""
        self._browsers: dict[Path | None, bool | None] = {}
        """Whether each program that showed the board is a web browser (see :meth:`_browser`)."""
        self._window: int | None = None
        """The window that showed the board as this game started, when the input backend can tell."""
        self._escaped = False
        """Whether Escape was pressed for a board that could not be read, during this new game."""
        self._started = clock()

    # -- acting -----------------------------------------------------------------------------------

    def _click_move(self, move: Move, image: np.ndarray, ring: bool) -> bool:
        """Click a move only if its cell, and the window's ring around the watched region, still show
        exactly the pixels they had in the reading ``image``; False when not (nothing was sent).

        A window moved or covered since the reading shows other pixels there (the ring's corners move
        with the window even where a shifted board looks the same), so the click would not land on the
        cell that was read; and a cell already opened by an earlier click of the batch needs no click.
        Either way the batch stops and the board is read again. Input backends that can hold the
        screen still (X11) check and click atomically: no move can slip in between.
        """
        assert self.geometry is not None
        x, y = self.geometry.cell_center(move.cell)
        if self.options.delay:
            self.sleep(self.options.delay)
        action = {Action.OPEN: "left", Action.FLAG: "right"}.get(move.action, "chord")
        expect = [Expect(part, self._pixels_of(image, part)) for part in self._guard_parts(move.cell, ring)]
        return self.mouse.guarded_click(x, y, action, expect, self._look, self._park_point())

    def _guard_parts(self, cell: Coord, ring: bool) -> list[Region]:
        """Screen regions a click on ``cell`` needs unchanged: the cell, and the ring's top and left
        strips (see :data:`RING`) unless ``ring`` is off."""
        assert self.geometry is not None
        region = self._watch_region()
        parts = [self.geometry.cell_rect(cell)]
        if ring:
            parts += [
                Region(region.left, region.top, region.width, min(RING, region.height)),
                Region(region.left, region.top, min(RING, region.width), region.height),
            ]
        return parts

    def _pixels_of(self, image: np.ndarray, part: Region) -> np.ndarray:
        """The pixels of screen region ``part`` in a grab of the watched region."""
        region, r = self._watch_region(), self._ratio
        x, y = round((part.left - region.left) * r), round((part.top - region.top) * r)
        return image[y : y + round(part.height * r), x : x + round(part.width * r)]

    def _look(self, part: Region) -> np.ndarray:
        """A grab of ``part`` now (empty when the screen cannot be grabbed: nothing matches it)."""
        try:
            return self.capture.grab(part)
        except CaptureError:
            return np.zeros((0, 0, 3), np.uint8)

    def _still_as_read(self, cell: Coord, image: np.ndarray, ring: bool = True) -> bool:
        """Whether ``cell`` (and the ring, unless ``ring`` is off) shows the pixels it had in ``image``."""
        return all(
            np.array_equal(self._look(part), self._pixels_of(image, part))
            for part in self._guard_parts(cell, ring)
        )

    def _wait_change(self, before: np.ndarray, timing: MoveTiming) -> bool:
        """Wait until the board and face differ from ``before`` and then stay unchanged for
        ``options.quiet`` seconds, or twice the longest pause between two redraws this client has been
        seen to make (an animation: tiles flipped in a ripple, mines set off one by one, frames 17 ms or
        more apart; at most :data:`ANIMATION_PAUSE`), or until ``settle_timeout``; whether the screen
        changed. The pause is remembered from move to move: once a client has animated, every later wait
        outlasts a step of its animations."""
        t0 = self.clock()
        deadline = t0 + self.options.settle_timeout
        last, still_since = None, t0
        pause = self._redraw_pause
        before = self._inner(before)
        while True:
            image = self.capture.grab(self._inner_region())
            now = self.clock()
            if last is None or not np.array_equal(image, last):
                if last is not None and not np.array_equal(last, before):
                    pause = max(pause, now - still_since)  # a redraw after one already shown: animating
                last, still_since = image, now
            elif not np.array_equal(image, before) and now - still_since >= max(
                self.options.quiet, min(2 * pause, ANIMATION_PAUSE)
            ):
                break
            if now > deadline:
                LOGGER.info("the screen did not settle within %.1f s", self.options.settle_timeout)
                break
            self.sleep(self.options.poll)
        self._redraw_pause = pause
        self._settled = now - still_since >= self._still_period()
        timing.wait += (self.clock() - t0) * 1000
        return not np.array_equal(last, before)

    def _still_period(self) -> float:
        """How long the board must stay unchanged to count as drawn: ``options.quiet``, or twice the
        longest pause between two redraws this client was seen to make (at most :data:`ANIMATION_PAUSE`)."""
        return max(self.options.quiet, min(2 * self._redraw_pause, ANIMATION_PAUSE))

    def _drawn_while_read(self, image: np.ndarray) -> bool:
        """Whether the board's cells changed since ``image`` was grabbed, though the loop had taken
        it for still: a step of an animation came after a still period that the loop could not know was
        too short (the client's first animation: a ripple whose tiles fade 30 ms apart outlasts the 15 ms
        quiet). The still period that proved too short becomes the pause to outlast, so the still period
        doubles (:meth:`_still_period`) for the rest of the session. A board that never keeps still
        (:attr:`_settled` false after the last wait) is not checked: waiting would not give a stiller one."""
        if not self._settled or self.geometry is None:
            return False
        board = self.geometry.region()  # the cells alone: a timer beside the face ticks on its own
        read = self._pixels_of(image, board)
        now = self._look(board)
        if now.size == 0 or (now.shape == read.shape and np.array_equal(now, read)):
            return False  # unchanged (or not grabbed: nothing shows a change)
        self._redraw_pause = max(self._redraw_pause, self._still_period())
        return True

    def _wait_for_player(self, before: np.ndarray) -> None:
        """In a dry run: wait (within the time limit) until someone else changes the board."""
        while np.array_equal(self._inner(self._grab()), self._inner(before)):
            self._check_limits()
            self.sleep(0.05)

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (with the injected ``sleep``); every wait first checks for a Ctrl-C whose
        ``KeyboardInterrupt`` was lost (:func:`~bot.agent.stopping.check_stop`), and none outlasts the
        time limit (a long ``--delay`` stops the session at its limit, not after the delay)."""
        check_stop()
        left = self._time_left()
        if seconds > left:
            self._sleep(max(0.0, left))
            raise AbortedError(f"time limit of {self.options.time_limit:g} s reached")
        self._sleep(seconds)

    def _time_left(self) -> float:
        """Seconds until the time limit (infinite with none)."""
        limit = self.options.time_limit
        return math.inf if limit is None else limit - (self.clock() - self._started)

    def _check_limits(self) -> None:
        """At every step: stop on a Ctrl-C (also one whose ``KeyboardInterrupt`` was lost) or when the
        time limit is reached."""
        check_stop()
        if self._time_left() < 0:
            raise AbortedError(f"time limit of {self.options.time_limit:g} s reached")

    def rule(self) -> FirstClickRule:
        """The first-click rule to play by: the one given, else as observed so far."""
        assert self.skin is not None
        from bot.vision.read import is_generic

        promised = not is_generic(self.skin) and not self._fell_back  # no skin reads it: nothing is known
        return self.options.rule or self.first_clicks.rule(self.skin.first_click_rule, promised)

    def _note_first_click(self, board: Board, cell: Coord, sight: Sight) -> None:
        """Record what a first click on a fresh board showed (for the observed rule)."""
        shown = sight.board[cell]
        self.first_clicks.record(
            board.rows,
            board.cols,
            board.mines or 0,
            len(board.neighbours(cell)),
            opened=shown == Cell.ZERO,
            exploded=shown in (Cell.EXPLODED, Cell.MINE),
        )

    def play_game(self, index: int = 0) -> GameResult:
        """Play the game on screen to its end; returns how it went."""
        result = GameResult(game=index, status=GameStatus.PLAYING.value, seconds=0.0)
        start = self.clock()
        before = (self.rereads, self.relocations, self.covered_seconds, len(self.learned), self.unnamed_reads)
        try:
            if self.geometry is None:
                self.locate()
            assert self.skin is not None and self.geometry is not None
            result.skin = self.skin.name
            result.board = (
                f"{self.geometry.rows}x{self.geometry.cols}/{self.mines if self.mines is not None else '?'}"
            )
            self._play(result)
        except AbortedError:
            raise
        except MinebotError as exc:
            LOGGER.error("game %d stopped: %s", index, exc)
            result.status = "error"
            result.error = str(exc)
        finally:
            if self._fell_back:
                result.skin += " + no skin"
            result.seconds = self.clock() - start
            result.rereads = self.rereads - before[0]
            result.unnamed_reads = self.unnamed_reads - before[4]
            result.relocations = self.relocations - before[1]
            result.covered_seconds = self.covered_seconds - before[2]
            result.learned = self.learned[before[3] :]
        return result

    def _play(self, result: GameResult) -> None:
        assert self.geometry is not None
        self._window = self.mouse.window_at(*self.geometry.cell_center((0, 0)))
        self._reach = np.zeros((self.geometry.rows, self.geometry.cols), dtype=bool)
        self._run_in = None
        self._flagged = np.zeros_like(self._reach)
        self._view = None
        previous: Board | None = None
        opened_safe: set[Coord] = set()
        clicked: list[Coord] = []
        first: tuple[Board, Coord] | None = None
        self._last_clicks = self._frame = None
        self._button_frames, self._button_relocations = [], self.relocations
        ring_failures = 0
        unanswered = 0
        sent_on: Board | None = None  # the board the last clicks were sent on, and how many batches
        sent = 0
        while True:
            self._check_limits()
            self._ring_on = ring_failures < RING_FAILURES and self._ring_outs <= RING_GAP_STEPS
            rule = self.rule()
            result.rule = rule.value
            timing = MoveTiming()
            self._park()
            sight, moves = self.sight(previous, timing, rule, clicked)
            result.reads += 1
            if first is not None:
                self._note_first_click(*first, sight)
                first = None
            for cell in opened_safe:
                if sight.board[cell] in (Cell.EXPLODED, Cell.MINE):
                    raise MisreadError(
                        f"cell {cell} was certain to be safe but holds a mine: an earlier misread"
                    )
            self._view, self._last_seen, self._frame = self._inner(sight.image), sight.board, sight.image
            self._watch_button(sight.status)
            if sight.status is not GameStatus.PLAYING:
                result.status = sight.status.value
                result.ended_by = sight.ended_by
                self._last_board = sight.board
                if self.on_end:
                    self.on_end(sight.board, sight.status)
                return
            if self.on_move:
                self.on_move(sight.board, moves)
            result.timings.append(timing)
            if self.options.dry_run:
                self._wait_for_player(sight.image)
                previous = sight.board
                continue
            self._check_fruitless(sight.board, moves, sent_on, sent)
            t0 = self.clock()
            clicked, taken = [], []
            check_ring = ring_failures < RING_FAILURES and self._ring_outs <= RING_GAP_STEPS
            for n, move in enumerate(moves):
                if not self._click_move(move, sight.image, check_ring):
                    LOGGER.info("cell %s no longer looks as read: reading the board again", move.cell)
                    if n == 0 and check_ring and self._still_as_read(move.cell, sight.image, ring=False):
                        ring_failures += 1
                    break
                if n == 0 and check_ring:
                    ring_failures = 0
                clicked.append(move.cell)
                taken.append(move)
                self._reach[move.cell] = True
                if move.action is Action.FLAG:
                    self._flagged[move.cell] = True
                if move.action is Action.CHORD:
                    for cell in sight.board.neighbours(move.cell):
                        self._reach[cell] = True
                result.clicks += 1
                result.moves += 1
                if move.action is Action.OPEN and move.probability > 0:
                    result.guesses += 1
                elif not sight.board.is_fresh():  # a first click is safe by the rule, not by what was read
                    opened_safe.update(move.opens or (move.cell,))
            timing.click = (self.clock() - t0) * 1000
            if sight.board.is_fresh() and clicked:
                first = (sight.board, clicked[0])
            if clicked:  # else nothing was sent: read again at once (each click parked the pointer)
                sent = sent + 1 if sight.board == sent_on else 1
                sent_on = sight.board
                answered = self._wait_change(sight.image, timing)
                self._last_clicks = LastClicks(
                    sight.board, sight.image, tuple(taken), answered, tuple(moves), self._region_geometry()
                )
                if answered:
                    unanswered = 0
                else:
                    unanswered += 1
                    if unanswered >= UNANSWERED_CLICKS:
                        raise MinebotError(
                            f"the board did not change after {unanswered} clicks in a row: the client does "
                            "not take minebot's clicks (is the game paused, its window behind another, or "
                            "not a board at all?)"
                        )
            previous = sight.board

    @staticmethod
    def _check_fruitless(board: Board, moves: list[Move], sent_on: Board | None, sent: int) -> None:
        """Raise when ``sent`` batches of clicks (:data:`FRUITLESS_CLICKS`) have been sent on a board
        reading exactly as ``board`` does now, and more would be sent on it."""
        if moves and sent >= FRUITLESS_CLICKS and board == sent_on:
            cells = ", ".join(str(m.cell) for m in moves[:3])
            raise MinebotError(
                f"the board read the same after {sent} batches of clicks in a row (on {cells}): the client "
                "shows the clicks but the game takes none (is it in an editor, analysis or replay mode, "
                "or paused?)"
            )

    def run(self) -> SessionSummary:
        """Play ``options.games`` games; stops cleanly on Ctrl-C (:func:`~bot.agent.stopping.ctrl_c_stops`:
        also one whose ``KeyboardInterrupt`` was lost), the fail-safe or the time limit."""
        summary = SessionSummary(results=[])
        with ctrl_c_stops():
            try:
                for index in range(self.options.games):
                    if index:
                        self.new_game()
                        summary.new_game = self.new_game_way
                    result = self.play_game(index)
                    summary.results.append(result)
                    self._log(result)
                    if result.error:
                        summary.stopped = f"game {index} stopped on an error: {result.error}"
                        break
            except (KeyboardInterrupt, AbortedError) as exc:
                summary.stopped = str(exc) or "interrupted (Ctrl-C)"
                summary.interrupted = isinstance(exc, KeyboardInterrupt)
            except MinebotError as exc:
                summary.stopped = str(exc)
        return summary

    def _log(self, result: GameResult) -> None:
        path = self.options.results_log
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(result.to_json() + "\n")
