"""The play loop: locate the board, then read, check, solve, click and wait, move after move, game after game.

Why one loop: the live screen, a replay and the simulated client differ only in their capture and
input backends, so the bot that plays a real window is exactly the one the tests run headless.

Each move: park the pointer off the board, grab only the board region (face included), read it,
check the reading against everything seen before (a revealed cell never changes, the solver finds no
contradiction), solve, click, then wait until the board has changed and two grabs agree. A reading
that stays uncertain or inconsistent after a few re-captures stops the run with an error that says
what was seen where, and saves the frame: the bot never clicks on a misread.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from bot.board import Board, Cell, Coord
from bot.capture import CaptureBackend
from bot.errors import AbortedError, ContradictionError, GameOverError, MinebotError, RecognitionError
from bot.game import FirstClickRule, GameStatus, find_rule
from bot.geometry import Geometry, Region
from bot.input import InputBackend
from bot.solver import Action, Move, choose_moves

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


class MisreadError(RecognitionError):
    """The screen kept showing a board inconsistent with what was seen before; nothing was clicked."""


@dataclass
class PlayOptions:
    """Everything ``minebot play`` can be told; defaults are what a user expects."""

    games: int = 1
    mines: int | None = None
    """Total mines; default: the standard level's count for the board size."""
    rule: FirstClickRule | None = None
    """First-click rule; default: the skin's."""
    skin: str = "auto"
    flags: bool = False
    """Flag certain mines and chord where one chord opens two or more cells."""
    delay: float = 0.0
    """A politeness delay between clicks, in seconds."""
    dry_run: bool = False
    """Watch the screen and report moves; click nothing."""
    save_frames: Path | None = None
    time_limit: float | None = None
    """Stop the session after this many seconds."""
    retries: int = 5
    """Re-captures of an uncertain or inconsistent reading before giving up."""
    retry_wait: float = 0.03
    """Seconds before the first re-capture; the n-th waits n times as long (0.45 s in all)."""
    settle_timeout: float = 3.0
    """How long to wait for the screen to change and settle after a click."""
    poll: float = 0.004
    """Seconds between grabs while waiting for the screen to settle."""
    quiet: float = 0.015
    """The screen counts as settled once unchanged for this long (seconds)."""
    results_log: Path | None = None


@dataclass
class MoveTiming:
    """Milliseconds spent in each step of one move."""

    capture: float = 0.0
    classify: float = 0.0
    solve: float = 0.0
    click: float = 0.0
    wait: float = 0.0

    @property
    def own(self) -> float:
        """The bot's own time: capture + classify + solve (not the client's redraw)."""
        return self.capture + self.classify + self.solve


@dataclass
class GameResult:
    """How one game went."""

    game: int
    status: str
    seconds: float
    clicks: int = 0
    moves: int = 0
    guesses: int = 0
    reads: int = 0
    rereads: int = 0
    error: str | None = None
    timings: list[MoveTiming] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return self.status == GameStatus.WON.value

    def to_json(self) -> str:
        """One line for the results log (timings summarised, not listed)."""
        data = {k: v for k, v in asdict(self).items() if k != "timings"}
        data["time"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        own = [t.own for t in self.timings]
        data["own_ms_p50"] = round(float(np.median(own)), 3) if own else None
        return json.dumps(data)


@dataclass
class SessionSummary:
    """What a session did: per-game results and the figures users compare."""

    results: list[GameResult]
    stopped: str | None = None

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(r.won for r in self.results)

    def timing_percentiles(self, step: str) -> tuple[float, float]:
        """p50 and p99 milliseconds of one step (``capture``, ``own``, ...) over all moves."""
        values = [getattr(t, step) for r in self.results for t in r.timings]
        if not values:
            return (math.nan, math.nan)
        return (float(np.percentile(values, 50)), float(np.percentile(values, 99)))

    def format(self) -> str:
        if not self.results:
            return "no game played" + (f" ({self.stopped})" if self.stopped else "")
        times = [r.seconds for r in self.results]
        won_times = [r.seconds for r in self.results if r.won]
        lines = [
            f"games {self.games}, wins {self.wins}, win rate {100 * self.wins / self.games:.1f}%",
            f"time per game: mean {np.mean(times):.2f} s"
            + (f", best win {min(won_times):.2f} s" if won_times else ""),
            f"clicks per game: {np.mean([r.clicks for r in self.results]):.1f}",
        ]
        steps = ("capture", "classify", "solve", "click", "wait", "own")
        parts = [f"{s} {p50:.1f}/{p99:.1f}" for s in steps for p50, p99 in [self.timing_percentiles(s)]]
        lines.append("per move ms p50/p99: " + ", ".join(parts))
        if self.stopped:
            lines.append(f"stopped: {self.stopped}")
        return "\n".join(lines)


@dataclass
class Sight:
    """One reading of the board: the board, the game status, and the image it came from."""

    board: Board
    status: GameStatus
    image: np.ndarray


def check_progress(before: Board, after: Board, clicked: Iterable[Coord] = ()) -> Coord | None:
    """The first cell whose reading went backwards (a revealed number changed or vanished), or None.

    During play a revealed cell never changes. One exception: a cell just ``clicked`` that read as 0
    may have been the client's pressed-button look (winemine draws it like a 0); it may turn into its
    number. That early 0 had no covered neighbour (see :func:`unsettled_zero`), so nothing was deduced
    from it. (End-of-game states are checked by the caller.)
    """
    was_revealed = before.revealed_mask()
    changed = was_revealed & (after.cells != before.cells)
    for cell in clicked:
        if before[cell] == Cell.ZERO and after[cell].is_number():
            changed[cell] = False
    if changed.any():
        r, c = np.argwhere(changed)[0]
        return (int(r), int(c))
    return None


def unsettled_zero(board: Board) -> Coord | None:
    """A revealed 0 next to a covered cell, or None.

    Every client opens all neighbours of a 0 at once, so such a reading means the client had not
    finished drawing (or a pressed cell looked like a 0): read again, never act on it.
    """
    covered = np.pad(board.covered_mask(), 1)
    rows, cols = board.shape
    near_covered = np.zeros(board.shape, dtype=bool)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            near_covered |= covered[dr : dr + rows, dc : dc + cols]
    bad = (board.cells == Cell.ZERO) & near_covered
    if bad.any():
        r, c = np.argwhere(bad)[0]
        return (int(r), int(c))
    return None


def flag_the_rest(board: Board) -> list[Move]:
    """When every covered cell left must be a mine, flag them all; else no move.

    Some clients (xdemineur) declare a win only once every mine is flagged; the others have already
    declared it by then, so this never costs a click there.
    """
    covered = board.covered()
    if not covered or board.mines is None or len(covered) != board.mines - len(board.flagged()):
        return []
    return [Move(Action.FLAG, cell, 1.0, "every covered cell left is a mine") for cell in covered]


class Player:
    """Plays a Minesweeper window through a capture and an input backend.

    ``restart`` starts a new game for clients whose skin says ``new_game: restart`` (the harness
    restarts the process); ``clock``/``sleep`` are injectable for tests.
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
    ) -> None:
        self.capture = capture
        self.mouse = mouse
        self.options = options or PlayOptions()
        self.restart = restart
        self.clock = clock
        self.sleep = sleep
        self.on_move = on_move
        self.skin = None
        self.geometry: Geometry | None = None
        """Board geometry in screen coordinates."""
        self._image_geometry: Geometry | None = None
        self._ratio = 1.0
        self._frames = 0
        self.rereads = 0
        """Re-captures caused by an uncertain or inconsistent reading, over the whole session."""
        self._started = clock()

    # -- locating and reading ---------------------------------------------------------------------

    def locate(self) -> Geometry:
        """Find the board on the whole screen (done once per game, and again if it moved)."""
        from bot.vision import read_screen

        screen = self.capture.screen_region()
        image = self.capture.grab(None)
        self._ratio = image.shape[1] / screen.width
        reading = read_screen(image, self.options.skin if self.skin is None else self.skin)
        self.skin = reading.skin
        g = reading.geometry
        r = self._ratio
        face = g.face
        if face is not None:
            face = Region(
                screen.left + round(face.left / r),
                screen.top + round(face.top / r),
                max(1, round(face.width / r)),
                max(1, round(face.height / r)),
            )
        self.geometry = Geometry(
            screen.left + g.left / r,
            screen.top + g.top / r,
            g.pitch_x / r,
            g.pitch_y / r,
            g.rows,
            g.cols,
            face,
        )
        self._image_geometry = g
        self.mouse.allowed = self.geometry.region()
        self.mouse.extra_allowed = [face] if face is not None else []
        LOGGER.info("board %dx%d at %s, skin %s", g.rows, g.cols, self.geometry.region(), self.skin.name)
        return self.geometry

    def _watch_region(self) -> Region:
        """The screen region re-read each move: the board, and the face when there is one."""
        assert self.geometry is not None
        region = self.geometry.region()
        return region.union(self.geometry.face) if self.geometry.face else region

    def _grab(self) -> np.ndarray:
        return self.capture.grab(self._watch_region())

    def _read(self, image: np.ndarray) -> Sight:
        from bot.vision import read_board

        assert self._image_geometry is not None and self.geometry is not None
        screen = self.capture.screen_region()
        region = self._watch_region()
        dx = (region.left - screen.left) * self._ratio
        dy = (region.top - screen.top) * self._ratio
        reading = read_board(image, self._image_geometry.offset(-dx, -dy), self.skin, self.options.mines)
        board = reading.board
        if board.mines is None:
            raise MinebotError(
                f"the board is {board.rows}x{board.cols}, not a standard level: give the mine count (--mines)"
            )
        return Sight(board, reading.status, image)

    def _park(self) -> None:
        """Move the pointer off the board (a cursor over a cell corrupts its pixels)."""
        region = self._watch_region()
        screen = self.capture.screen_region()
        x = region.right + 12 if region.right + 12 < screen.right - 2 else region.left - 12
        y = region.top + region.height // 2
        self.mouse.move(max(screen.left + 2, x), y)

    def _save(self, image: np.ndarray, name: str) -> Path:
        import cv2

        folder = self.options.save_frames or Path(os.environ.get("TMPDIR", "/tmp"))
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        cv2.imwrite(str(path), image)
        return path

    def sight(
        self,
        previous: Board | None,
        timing: MoveTiming,
        rule: FirstClickRule,
        clicked: Iterable[Coord] = (),
    ) -> tuple[Sight, list[Move]]:
        """Read the board and decide the moves, re-capturing while the reading cannot be trusted.

        A reading is untrusted when a cell is uncertain, a revealed cell changed, or the solver finds
        the board contradictory (a misread, or a frame caught mid-redraw): wait a little and look again.

        Raises:
            MisreadError: after ``retries`` re-captures that all fail, with the frame saved.
        """
        problem = ""
        image = None
        for attempt in range(self.options.retries + 1):
            if attempt:
                self.sleep(self.options.retry_wait * attempt)
            t0 = self.clock()
            image = self._grab()
            t1 = self.clock()
            timing.capture += (t1 - t0) * 1000
            try:
                sight = self._read(image)
                problem = self._inconsistency(previous, sight, clicked)
                t2 = self.clock()
                timing.classify += (t2 - t1) * 1000
                moves: list[Move] = []
                if not problem and sight.status is GameStatus.PLAYING:
                    moves = flag_the_rest(sight.board) or choose_moves(
                        sight.board, sight.board.mines, rule, flags=self.options.flags
                    )
                timing.solve += (self.clock() - t2) * 1000
            except (RecognitionError, ContradictionError, GameOverError) as exc:
                problem = str(exc)
            if not problem:
                if self.options.save_frames:
                    self._frames += 1
                    self._save(image, f"frame-{self._frames:05d}.png")
                return sight, moves
            self.rereads += 1
            LOGGER.info("re-reading (attempt %d): %s", attempt + 1, problem)
        assert image is not None
        path = self._save(image, f"minebot-misread-{int(time.time())}.png")
        raise MisreadError(f"{problem} (after {self.options.retries + 1} reads; frame saved to {path})")

    def _inconsistency(self, previous: Board | None, sight: Sight, clicked: Iterable[Coord]) -> str:
        """Why a reading cannot be trusted, or '' when it can."""
        board = sight.board
        if sight.status is GameStatus.PLAYING:
            if board.is_lost():
                return "an exploded mine shows but the game is still playing"
            zero = unsettled_zero(board)
            if zero is not None:
                return f"cell {zero} reads 0 next to a covered cell: the client is still drawing"
            if previous is not None:
                cell = check_progress(previous, board, clicked)
                if cell is not None:
                    return (
                        f"cell {cell} read as {board[cell].char!r} but was {previous[cell].char!r} before "
                        "(a revealed cell never changes)"
                    )
        return ""

    # -- acting -----------------------------------------------------------------------------------

    def _click_move(self, move: Move) -> int:
        assert self.geometry is not None
        x, y = self.geometry.cell_center(move.cell)
        if self.options.delay:
            self.sleep(self.options.delay)
        if move.action is Action.OPEN:
            self.mouse.click(x, y, "left")
        elif move.action is Action.FLAG:
            self.mouse.click(x, y, "right")
        else:
            self.mouse.chord(x, y)
        return 1

    def _wait_change(self, before: np.ndarray, timing: MoveTiming) -> None:
        """Wait until the watched region differs from ``before`` and then stays unchanged for
        ``options.quiet`` seconds (clients redraw in steps), or until ``settle_timeout``."""
        t0 = self.clock()
        deadline = t0 + self.options.settle_timeout
        last, still_since = None, t0
        while True:
            image = self._grab()
            now = self.clock()
            if last is None or not np.array_equal(image, last):
                last, still_since = image, now
            elif not np.array_equal(image, before) and now - still_since >= self.options.quiet:
                break
            if now > deadline:
                LOGGER.info("the screen did not settle within %.1f s", self.options.settle_timeout)
                break
            self.sleep(self.options.poll)
        timing.wait += (self.clock() - t0) * 1000

    def _wait_for_player(self, before: np.ndarray) -> None:
        """In a dry run: wait (within the time limit) until someone else changes the board."""
        while np.array_equal(self._grab(), before):
            self._check_limits()
            self.sleep(0.05)

    def _check_limits(self) -> None:
        limit = self.options.time_limit
        if limit is not None and self.clock() - self._started > limit:
            raise AbortedError(f"time limit of {limit:g} s reached")

    def play_game(self, index: int = 0) -> GameResult:
        """Play the game on screen to its end; returns how it went."""
        if self.geometry is None:
            self.locate()
        assert self.skin is not None
        rule = self.options.rule or find_rule(self.skin.first_click_rule)
        start = self.clock()
        result = GameResult(game=index, status=GameStatus.PLAYING.value, seconds=0.0)
        previous: Board | None = None
        opened_safe: set[Coord] = set()
        rereads_before = self.rereads
        clicked: list[Coord] = []
        try:
            while True:
                self._check_limits()
                timing = MoveTiming()
                self._park()
                sight, moves = self.sight(previous, timing, rule, clicked)
                result.reads += 1
                for cell in opened_safe:
                    if sight.board[cell] in (Cell.EXPLODED, Cell.MINE):
                        raise MisreadError(
                            f"cell {cell} was certain to be safe but holds a mine: an earlier misread"
                        )
                if sight.status is not GameStatus.PLAYING:
                    result.status = sight.status.value
                    break
                if self.on_move:
                    self.on_move(sight.board, moves)
                result.timings.append(timing)
                if self.options.dry_run:
                    self._wait_for_player(sight.image)
                    previous = sight.board
                    continue
                t0 = self.clock()
                clicked = [move.cell for move in moves]
                for move in moves:
                    result.clicks += self._click_move(move)
                    result.moves += 1
                    if move.probability > 0:
                        result.guesses += 1
                    else:
                        opened_safe.update(move.opens or (move.cell,))
                timing.click = (self.clock() - t0) * 1000
                self._wait_change(sight.image, timing)
                previous = sight.board
        except AbortedError:
            raise
        except MinebotError as exc:
            LOGGER.error("game %d stopped: %s", index, exc)
            result.status = "error"
            result.error = str(exc)
        finally:
            result.seconds = self.clock() - start
            result.rereads = self.rereads - rereads_before
        return result

    def new_game(self) -> None:
        """Start the next game the client's way (face, F2 or restart), then find the board again."""
        assert self.skin is not None and self.geometry is not None
        way = self.skin.new_game
        if way == "face" and self.geometry.face is not None:
            self.mouse.click(
                self.geometry.face.left + self.geometry.face.width // 2,
                self.geometry.face.top + self.geometry.face.height // 2,
            )
        elif way == "restart" and self.restart is not None:
            self.restart()
        elif way in ("F2", "face"):
            self.mouse.press("F2")
        else:
            raise MinebotError(
                f"skin {self.skin.name!r} starts a new game by restarting the client, "
                "and no restart hook was given"
            )
        self.sleep(0.05)
        self.locate()

    def run(self) -> SessionSummary:
        """Play ``options.games`` games; stops cleanly on Ctrl-C, the fail-safe or the time limit."""
        summary = SessionSummary(results=[])
        try:
            for index in range(self.options.games):
                if index:
                    self.new_game()
                result = self.play_game(index)
                summary.results.append(result)
                self._log(result)
                if result.error:
                    summary.stopped = f"game {index} stopped on an error: {result.error}"
                    break
        except (KeyboardInterrupt, AbortedError) as exc:
            summary.stopped = str(exc) or "interrupted (Ctrl-C)"
        return summary

    def _log(self, result: GameResult) -> None:
        path = self.options.results_log
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(result.to_json() + "\n")
