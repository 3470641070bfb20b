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
import os
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bot.agent.checks import (
    check_progress,
    flag_the_rest,
    flags_on_a_new_game,
    near,
    same_game,
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
from bot.agent.firstclick import FirstClickLog
from bot.agent.follow import find_look
from bot.agent.learning import learn_unseen, save_learned
from bot.agent.options import NewGame, PlayOptions
from bot.agent.results import GameResult, MoveTiming, SessionSummary
from bot.agent.stopping import check_stop, ctrl_c_stops
from bot.agent.unnamed import consensus, guess_around, relaxed
from bot.board import Board, Cell, Coord
from bot.capture import CaptureBackend
from bot.errors import (
    AbortedError,
    BoardNotFoundError,
    CaptureError,
    ContradictionError,
    GameOverError,
    MinebotError,
    RecognitionError,
)
from bot.game import FirstClickRule, GameStatus
from bot.geometry import Geometry, Region
from bot.input import Expect, InputBackend
from bot.skin import NEW_GAME_KEYS
from bot.solver import Action, Move, choose_moves

if TYPE_CHECKING:
    from bot.vision.classify import CellReading
    from bot.vision.read import Reading
    from bot.vision.status import FaceMatch

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


class BoardGoneError(MinebotError):
    """The board being played is no longer on the screen (closed, covered for too long, or replaced)."""


@dataclass
class Sight:
    """One reading of the board: the board, the game status, the image, and how an end was seen."""

    board: Board
    status: GameStatus
    image: np.ndarray
    ended_by: str = ""


@dataclass(frozen=True)
class LastClicks:
    """The clicks of the last move, what they were decided on, and whether the screen changed after
    them: what a screen no reader can read is judged from (:meth:`Player._judged_by_logic`)."""

    board: Board
    image: np.ndarray
    moves: tuple[Move, ...]
    """The moves sent."""
    answered: bool
    planned: tuple[Move, ...] = ()
    """Every move decided on that reading (a batch stops at a cell an earlier click already opened)."""
    geometry: Geometry | None = None
    """The board's geometry in ``image`` (the region grabbed may grow before the next reading); None:
    where it is now."""


@dataclass
class Problem:
    """Why a reading cannot be trusted; ``unreadable`` when cells could not be read at all (a cover,
    a move, a state never seen) rather than read inconsistently."""

    text: str
    image: np.ndarray | None
    unreadable: bool
    sight: Sight | None = None
    """The complete reading that could not be trusted, if there was one."""
    moved: bool = False
    """The window's ring around the board changed: the window moved or was covered (nothing was read)."""


SHOWN_ONLY_AT_THE_END = (Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG)
"""States no client draws while a game is on."""


def shows_the_end(board: Board) -> bool:
    """Whether the board shows a state drawn only once a game is lost (a mine, an exploded mine, a
    wrong flag)."""
    return bool(np.isin(board.cells, SHOWN_ONLY_AT_THE_END).any())


SAME_PLACE_PIXELS = 1.0
"""A board found again within this many pixels of where it was has not moved."""

RING = 2
"""Pixels of the window around the board (and face) grabbed with it: they do not change while a game
is played, so a change there before a click means the window moved or was covered."""

RING_GAP_STEPS = 3
"""Times the ring may move out by ``RING`` pixels: a ring that changed while the board stayed where it
was is the board's own drawing (tiles drawn past the grid the reader found, an edge cell's shadow), so
the ring is taken further out, at most this many times; then it is no longer checked before a read."""

RING_FAILURES = 3
"""Batches in a row stopped before their first click by the ring alone: the client animates around
its board, so the ring is no longer checked (the cell still is) for the rest of the game."""

BROWSER_KEYS = ("ctrl+r", "ctrl+n")
"""New-game keys a web browser takes for itself (reload the page, open a window): ``auto`` guesses them
only for a program known to be no browser."""

NEW_GAME_LOOKS = 3
"""Least number of looks for a new game after asking for one, however long the wait has been."""

BUTTON_TICK = 1.5
"""Seconds between grabs of the band above the board while a game is on: what changed between the
last two (a timer) is not the status button (:meth:`Player._watch_button`)."""

UNANSWERED_CLICKS = 3
"""Clicks in a row after which the screen did not change at all: the client is not taking the clicks
(paused, covered, or what was read is no board), so the game stops rather than click on."""

FRUITLESS_CLICKS = 5
"""Batches of clicks in a row sent on one and the same reading of the board: the screen answers each
click (JSMinesweeper's analysis mode draws a clicked cell open, the next click covers it again) but the
game takes none, so the game stops rather than click forever."""


SETTLE_LOOKS = 4
"""With no skin, how many grabs a frame the taught templates cannot read is looked at again, while the
board still changes, before the skinless reader reads the last one."""

STILL_BEFORE_COLD = 4
"""With no skin, how many quiet periods (``options.quiet``) a frame the taught templates cannot read
must stay unchanged before the skinless reader reads it. A client's passing drawing (JSMinesweeper's
hover tooltip or pressed cell, which Chromium under load takes a few frames to take down) outlasts one
quiet period; the skinless reader costs a hundred times the templates (100-400 ms under load) and
refuses such frames too, while a state never taught is still there a few periods later."""


def run_into(previous: Board, states: np.ndarray, unknown: np.ndarray) -> np.ndarray:
    """The cells open on ``previous`` that a reading (``states``, ``unknown`` where unsure) leaves
    unknown beside a cell opened since (covered before, open or unknown now): its glyph may run into them."""
    opened = previous.covered_mask() & ((states <= Cell.EIGHT) | unknown)
    return unknown & ~previous.covered_mask() & near(opened)


def read_counter(image: np.ndarray, reading: object) -> int | None:
    """The client's mine counter on a whole-screen image, or None when it cannot be read.

    Uses ``Reading.mines`` when the reader offers it, else ``bot.vision.counter.read_mine_counter``
    (given the board read from the same image: it tells the mine counter from the timer).
    """
    value = getattr(reading, "mines", None)
    if isinstance(value, int):
        return value
    try:
        from bot.vision.counter import read_mine_counter  # type: ignore[import-not-found]
    except ImportError:
        return None
    try:
        return read_mine_counter(image, reading.geometry, reading.board)  # type: ignore[attr-defined]
    except MinebotError as exc:
        LOGGER.info("the mine counter cannot be read: %s", exc)
        return None


def _equal_share(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels two same-sized images show exactly alike (0 when their sizes differ)."""
    return float((a == b).all(axis=2).mean()) if a.shape == b.shape else 0.0


def _beside(region: Region, screen: Region) -> tuple[int, int]:
    """A point 12 px right of ``region`` (left of it when the screen ends there), at half its height."""
    x = region.right + 12 if region.right + 12 < screen.right - 2 else region.left - 12
    return max(screen.left + 2, x), region.top + region.height // 2


def _revealed_changed(previous: Board, board: Board, clicked: Iterable[Coord], why: str) -> str:
    """Why ``board`` cannot follow ``previous`` when a cell revealed there reads otherwise now (``why``
    says which rule), else ''."""
    cell = check_progress(previous, board, clicked)
    if cell is None:
        return ""
    return f"cell {cell} read as {board[cell].char!r} but was {previous[cell].char!r} before ({why})"


class Player:
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
    ) -> None:
        self.capture = capture
        self.mouse = mouse
        self.options = options or PlayOptions()
        self.restart = restart
        self.clock = clock
        self._sleep = sleep
        self.on_move = on_move
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

    # -- locating ---------------------------------------------------------------------------------

    def _adopt(self, g: Geometry, screen: Region) -> None:
        """Take ``g`` (whole-screen image pixels) as the board's place; clicks are allowed only there."""
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

    def _screen_image(self) -> tuple[Region, np.ndarray]:
        screen = self._screen = self.capture.screen_region()
        image = self.capture.grab(None)
        self._ratio = image.shape[1] / screen.width
        return screen, image

    def locate(self) -> Geometry:
        """Find the board on the whole screen (at the start of each game) and this game's mine total."""
        from bot.vision import read_screen
        from bot.vision.grid import MIN_SIDE

        screen, image = self._screen_image()
        skin = self.options.skin if self.skin is None else self.skin
        try:
            reading = read_screen(image, skin)
        except RecognitionError:
            if not self._park_beside_grid(image, screen):
                raise
            screen, image = self._screen_image()
            reading = read_screen(image, skin)
        g = reading.geometry
        if min(g.rows, g.cols) < MIN_SIDE:  # a page or window still drawing, a toolbar: not the board
            raise BoardNotFoundError(
                f"only a {g.rows}x{g.cols} grid shows (a board has at least {MIN_SIDE} rows and columns)"
            )
        if self.skin is None or reading.skin.name != self.skin.name:  # another client: learn afresh
            self._generic, self._fell_back, self._ring_outs = None, False, 0
        self.skin = reading.skin  # same client: the skinless reader keeps what earlier games taught
        self._adopt(reading.geometry, screen)
        self.mines, self.mines_source = self._game_mines(image, reading)
        g = reading.geometry
        LOGGER.info("board %dx%d at %s, skin %s", g.rows, g.cols, self.geometry.region(), self.skin.name)
        return self.geometry

    def _park_beside_grid(self, image: np.ndarray, screen: Region) -> bool:
        """A board found but not read may have the pointer over a cell (GNOME Mines lights the tile under
        it): move the pointer beside the grid found by structure, wait for the client to redraw, and
        say whether there is a grid to look at again (before the first look, where the board is, and
        so where the pointer must not be, is not known)."""
        g = self._grid_only(image)
        if g is None:
            return False
        r, board = self._ratio, g.region()
        left, top = round(screen.left + board.left / r), round(screen.top + board.top / r)
        found = Region(left, top, round(board.width / r), round(board.height / r))
        if self.geometry is not None:  # the grid found may be part of the last game's board: beside both
            found = found.union(self.geometry.region())
        ringed = Region(found.left - RING, found.top - RING, found.width + 2 * RING, found.height + 2 * RING)
        LOGGER.info("the board found cannot be read: the pointer is moved off it, and it is looked at again")
        self.mouse.move(*_beside(ringed, screen))
        self.sleep(max(self.options.quiet, 0.1))
        return True

    def _game_mines(self, image: np.ndarray, reading: object) -> tuple[int | None, str]:
        """The mine total: --mines, else the standard level's for the size, else the client's counter
        (plus the flags already on the board: the counter shows mines minus flags)."""
        from bot.vision.read import standard_mines

        board: Board = reading.board  # type: ignore[attr-defined]
        if self.options.mines is not None:
            return self.options.mines, "given"
        standard = standard_mines(board.rows, board.cols)
        counter, flags = read_counter(image, reading), len(board.flagged())
        total = None if counter is None else counter + flags
        if standard is not None:
            if total is not None and total != standard:
                shown = f"{counter} mines left and the board {flags} flag(s): {total}" if flags else total
                LOGGER.warning(
                    "the client's counter reads %s mines on a %dx%d board, not the standard %d: playing "
                    "with %d (give --mines if the counter is right%s)",
                    shown,
                    board.rows,
                    board.cols,
                    standard,
                    standard,
                    f"; the counter shows the standard total as if none of the {flags} flag(s) were placed: "
                    "a flag may be misread, e.g. a label or tooltip over the board"
                    if flags and counter == standard
                    else "",
                )
            return standard, "standard level"
        return (None, "") if total is None else (total, "the client's mine counter")

    def _find_again(self, previous: Board | None) -> str:
        """Look for the board on the whole screen: ``same`` place, ``moved`` (adopted), or ``gone``.

        Raises:
            BoardGoneError: a board of the same size is there but it is not this game.
        """
        from bot.vision import find_board
        from bot.vision.read import is_generic
        from bot.vision.status import find_face

        assert self.skin is not None and self.geometry is not None
        try:
            screen, image = self._screen_image()
        except CaptureError as exc:
            LOGGER.info("the screen cannot be grabbed: %s", exc)
            return "gone"
        size = (self.geometry.rows, self.geometry.cols)
        location, by_grid = None, False
        skinless = self._fell_back or is_generic(self.skin)  # located by structure: perhaps pixels off
        g = self._follow(image) if skinless else None  # the last trusted look says exactly where it is
        if g is None:
            try:
                location = find_board(image, self.skin)
            except MinebotError as exc:
                LOGGER.info("board not found on the screen: %s", exc)
            if location is not None and (location.geometry.rows, location.geometry.cols) == size:
                g = location.geometry
            else:  # a grid where the board was, its cells unreadable (or read in part): the next read judges
                location, g, by_grid = None, self._grid_only(image), True
                if (g is None or (g.rows, g.cols) != size) and not skinless:
                    g, by_grid = self._follow(image), False  # the grid read in part: no lines in an open area
                if g is None or (g.rows, g.cols) != size:
                    return "gone"  # a partly covered board reads smaller; another board is not this game
        old = self._image_geometry
        assert old is not None
        if abs(g.left - old.left) <= SAME_PLACE_PIXELS and abs(g.top - old.top) <= SAME_PLACE_PIXELS:
            return "same"  # what it shows there is judged by the next reading
        if by_grid and not is_generic(self.skin) and self._fallback_skin() is None:
            return "gone"  # a named skin's cells are cut where its own locating puts them, not the grid's
        if previous is not None and location is not None:
            cell = same_game(previous, location.reading.states, ~location.reading.uncertain_mask())
            if cell is not None:
                path = self._save(image, f"minebot-other-board-{int(time.time())}.png")
                raise BoardGoneError(
                    f"the {g.rows}x{g.cols} board found elsewhere on the screen is not this game (cell "
                    f"{cell} was {previous[cell].char!r}, now "
                    f"{Cell(int(location.reading.states[cell])).char!r}): a new game or another window "
                    f"(screen saved to {path})"
                )
        face = find_face(image, g, self.skin)
        g = replace(g, face=face.region if face else None)
        self._adopt(g, screen)
        self.relocations += 1
        LOGGER.warning("the board moved: found again at %s", self.geometry.region())
        return "moved"

    def _follow(self, image: np.ndarray) -> Geometry | None:
        """Where the board's last trusted look best matches the whole-screen ``image``: the game's
        geometry moved there, or None when there is no such look.

        Tried first when the board is read with no skin (the grid found by structure can be a few
        pixels off, and cells read there misread), last otherwise. A moved window shows the same board
        elsewhere, revealed cells and all; what it shows there is judged by the next reading (a revealed
        cell never changes, no cell opens unexplained).
        """
        view, old = self._view, self._image_geometry
        spot = None if view is None or old is None else find_look(image, view, (old.pitch_x, old.pitch_y))
        if spot is None:
            return None
        x, y = spot
        inner = self._inner_region()
        screen = self._screen or self.capture.screen_region()
        r = self._ratio
        ox, oy = (inner.left - screen.left) * r, (inner.top - screen.top) * r
        there = image[y : y + view.shape[0], x : x + view.shape[1]]
        stay_x, stay_y = round(ox), round(oy)
        stay = image[max(stay_y, 0) : stay_y + view.shape[0], max(stay_x, 0) : stay_x + view.shape[1]]
        if stay.shape == view.shape and _equal_share(stay, view) >= _equal_share(there, view):
            x, y, there = stay_x, stay_y, stay  # still there: a board's repeated cells fit a cell off too
        if not self._same_look(view, there, old.offset(-ox, -oy)):
            LOGGER.info("the board's last look is nowhere on the screen")
            return None
        LOGGER.info("the board's last look is %+.0f, %+.0f px away", x - ox, y - oy)
        return old.offset(x - ox, y - oy)

    def _same_look(self, view: np.ndarray, there: np.ndarray, geometry: Geometry) -> bool:
        """Whether ``there`` shows the board of ``view`` (``geometry`` in its pixels): the middle half of
        every cell revealed in the last reading exactly as it was (they never change; KMines and GNOME
        Mines redraw a revealed cell's edges when a neighbour opens), and most pixels the same. Unless a
        cell covered then beside it has changed too: a glyph opened there since may run into its middle
        (xbomb's do; the board was then taken as gone while it stood still)."""
        if there.shape != view.shape or not _equal_share(there, view) >= 0.5:
            return False
        board = self._last_seen
        if board is None or board.shape != (geometry.rows, geometry.cols):
            return False

        def middle(cell: Coord) -> tuple[slice, slice]:
            rect = geometry.cell_rect(cell)
            dy, dx = rect.height // 4, rect.width // 4
            return slice(rect.top + dy, rect.bottom - dy), slice(rect.left + dx, rect.right - dx)

        changed = np.zeros(board.shape, dtype=bool)
        for cell in board:
            part = middle(cell)
            changed[cell] = not np.array_equal(view[part], there[part])
        opened = changed & board.covered_mask()
        return not (changed & board.revealed_mask() & ~near(opened)).any()

    @staticmethod
    def _grid_only(image: np.ndarray) -> Geometry | None:
        """The board's grid on a whole-screen image, found by structure alone (no cell read), or None.

        Tells a board still where it was but unreadable (a state never seen) from one that is gone;
        a board read with no skin found elsewhere is adopted from it (the next reading must then
        show the same game: a revealed cell never changes).
        """
        from bot.vision.grid import find_grid

        try:
            return find_grid(image).geometry
        except MinebotError as exc:
            LOGGER.info("no grid on the screen either: %s", exc)
            return None

    # -- reading ----------------------------------------------------------------------------------

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
        return _beside(self._watch_region(), self._screen or self.capture.screen_region())

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
        ``options.quiet`` seconds (clients redraw in steps), or until ``settle_timeout``; whether the
        screen changed at all."""
        t0 = self.clock()
        deadline = t0 + self.options.settle_timeout
        last, still_since = None, t0
        before = self._inner(before)
        while True:
            image = self.capture.grab(self._inner_region())
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
        return not np.array_equal(last, before)

    def _wait_for_player(self, before: np.ndarray) -> None:
        """In a dry run: wait (within the time limit) until someone else changes the board."""
        while np.array_equal(self._inner(self._grab()), self._inner(before)):
            self._check_limits()
            self.sleep(0.05)

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (with the injected ``sleep``); every wait first checks for a Ctrl-C whose
        ``KeyboardInterrupt`` was lost (:func:`~bot.agent.stopping.check_stop`)."""
        check_stop()
        self._sleep(seconds)

    def _check_limits(self) -> None:
        """At every step: stop on a Ctrl-C (also one whose ``KeyboardInterrupt`` was lost) or when the
        time limit is reached."""
        check_stop()
        limit = self.options.time_limit
        if limit is not None and self.clock() - self._started > limit:
            raise AbortedError(f"time limit of {limit:g} s reached")

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

    # -- new games --------------------------------------------------------------------------------

    def _face_region(self) -> Region | None:
        """The face button on screen: the one a skin's templates found, else the one learned."""
        if self.geometry is None:
            return None
        if self.geometry.face is not None or self._button is None:
            return self.geometry.face
        b = self._button
        return Region(round(self.geometry.left) + b.left, round(self.geometry.top) + b.top, b.width, b.height)

    def _band_grab(self) -> tuple[Region, np.ndarray, Geometry] | None:
        """The band above the board (screen region, its pixels, and the board's geometry in them)."""
        from bot.vision.button import band_region

        assert self.geometry is not None and self._image_geometry is not None
        screen = self._screen or self.capture.screen_region()
        on_screen = self.geometry.offset(-screen.left, -screen.top)
        band = band_region(on_screen, screen.width, screen.height)
        if band is None:
            return None
        region = band.offset(screen.left, screen.top)
        try:
            image = self.capture.grab(region)
        except CaptureError:
            return None
        r = image.shape[1] / region.width
        origin = ((region.left - screen.left) * r, (region.top - screen.top) * r)
        return region, image, self._image_geometry.offset(-origin[0], -origin[1])

    def _watch_button(self, status: GameStatus) -> None:
        """Learn the status button of a client whose face no template finds, by what it does: the band
        above the board is grabbed as a game starts, every ``BUTTON_TICK`` seconds while it is on, and as
        it ends; the one patch of a face's size that changed only at the end (not between the last two
        grabs) is the button (:func:`bot.vision.button.status_button`)."""
        if self.geometry is None or self.geometry.face is not None or self._button is not None:
            return
        if self.relocations != self._button_relocations:  # the window moved: the grabs are not alike
            self._button_frames = []
            return
        frames = self._button_frames
        if status is GameStatus.PLAYING:  # the last two grabs, BUTTON_TICK apart: the face as played
            if not frames or self.clock() - frames[-1][0] >= BUTTON_TICK:
                grab = self._band_grab()
                if grab is not None:
                    self._button_frames = [*frames[-1:], (self.clock(), grab[1])]
            return
        grab = self._band_grab() if frames else None
        if grab is None:
            return
        from bot.vision.button import status_button

        region, end, g = grab
        ticking = frames[-2][1] if len(frames) > 1 else None
        found = status_button(frames[-1][1], end, g, ticking)
        if found is None:
            return
        r = end.shape[1] / region.width
        left, top = region.left + round(found.left / r), region.top + round(found.top / r)
        width, height = max(1, round(found.width / r)), max(1, round(found.height / r))
        self._button = Region(left - round(self.geometry.left), top - round(self.geometry.top), width, height)
        LOGGER.info(
            "the status button above the board: %s (its look changed as the game ended)", self._face_region()
        )

    def _browser(self) -> bool | None:
        """Whether the program whose window shows the board is a web browser (None: not known), by its
        desktop entries (:func:`bot.agent.programs.web_browser`); asked once per program."""
        from bot.agent.programs import web_browser

        assert self.geometry is not None
        program = self.mouse.program_at(*self.geometry.cell_center((0, 0)))
        if program not in self._browsers:
            self._browsers[program] = web_browser(program)
            LOGGER.info(
                "the board is shown by %s: %s",
                program or "a program not known",
                {True: "a web browser", False: "no web browser"}.get(self._browsers[program], "not known"),
            )
        return self._browsers[program]

    def _new_game_ways(self) -> tuple[list[NewGame], str]:
        """The ways to try, in order, and why keys were left out ('' when none was): the one asked for,
        else the one that worked, the skin's, the face, a restart when the caller gave one (a sure way),
        then F2, and Ctrl+R and Ctrl+N last, guesses whose side effects in a browser cannot be undone
        (it reloads its page on Ctrl+R and opens a window on Ctrl+N): they are guessed only when the
        program showing the board is known to be no browser (:meth:`_browser`)."""
        asked = self.options.new_game
        if asked.way != "auto":
            return [asked], ""
        assert self.skin is not None
        names = [self.new_game_way, self.skin.new_game, "face", "restart", *NEW_GAME_KEYS]
        ways: list[str] = []
        left: list[str] = []
        for name in names:
            if not name or name in ways or name == "click":
                continue
            if name == "face" and self._face_region() is None:
                continue
            if name == "restart" and self.restart is None:
                continue
            if name in BROWSER_KEYS and name not in names[:2] and self._browser() is not False:
                left.append(name)
                continue
            ways.append(name)
        why = ""
        if left:
            what = "is a web browser" if self._browser() else "is not known"
            why = (
                f"{' and '.join(left)} not guessed: the program showing the board {what}, and a web "
                "browser reloads its page on Ctrl+R and opens a window on Ctrl+N"
            )
        return [NewGame(name) for name in ways], why

    def _start(self, way: NewGame) -> None:
        """Send what starts a new game one way."""
        assert self.geometry is not None
        if way.way == "face":
            face = self._face_region()
            if face is None:
                raise MinebotError("no face button was found to start a new game with")
            if face is not self.geometry.face and face not in self.mouse.extra_allowed:
                self.mouse.allow(face)  # the learned button: clicked only to start a new game
            self.mouse.click(face.left + face.width // 2, face.top + face.height // 2)
            self._park()  # a pointer resting on the button may draw over the board (JSMinesweeper's tooltip)
        elif way.way in NEW_GAME_KEYS:
            self._press(way.way)
        elif way.way == "restart":
            if self.restart is None:
                raise MinebotError(
                    "a new game by restarting the client needs a restart hook, and none was given"
                )
            self.restart()
        else:
            assert way.point is not None
            x = round(self.geometry.left) + way.point[0]
            y = round(self.geometry.top) + way.point[1]
            self.mouse.allow(Region(x, y, 1, 1))
            self.mouse.click(x, y)
            self._park()

    def _board_now(self) -> Board | None:
        """The board on screen where it was last seen, or None when it cannot be read."""
        try:
            return self._read(self._grab()).board
        except (RecognitionError, CaptureError, ContradictionError):
            return None

    def _fresh_game_shown(self, way: NewGame, before: Board | None) -> bool:
        """Whether a new game is on screen (within ``settle_timeout``, ``restart_wait`` after a restart):
        the board found again at the size of the last game (a client redrawing its board shows part of
        it), playing, showing no flag (a new game has none: flags read there are an old game's, or a
        lost board's mines misread), and neither the board the last game ended on nor the one on
        screen ``before`` the new game was asked for (unless that was untouched too). Whatever cannot
        be read meanwhile is not the new game yet. The screen is looked at ``NEW_GAME_LOOKS`` times at
        least, however long each look takes (a client named nowhere is located and read with no skin,
        which on a loaded machine can take most of the wait). One exception: flags read where nothing is
        open any more though ``before`` showed a played game are a new game's misread
        (:func:`~bot.agent.checks.flags_on_a_new_game`): a reading without them is waited for, and when
        none comes the game is taken as started all the same (no other way is tried: a key may reload a
        page), and its reads refuse the flags (:meth:`_inconsistency`): nothing is clicked on them."""
        wait = self.options.restart_wait if way.way == "restart" else self.options.settle_timeout
        deadline = self.clock() + wait
        size = None if self.geometry is None else (self.geometry.rows, self.geometry.cols)
        looks = 0
        misread: list[Coord] = []  # flags read on a board that replaced the played one: a new game's
        while True:
            looks += 1
            try:
                g = self.locate()
                if size is not None and (g.rows, g.cols) != size:
                    raise BoardNotFoundError(
                        f"a {g.rows}x{g.cols} board shows where a {size[0]}x{size[1]} game was played"
                    )
                board = self._read(self._grab())
                changed = before is None or board.board != before or board.board.is_fresh()
                flagged = bool((board.board.cells == Cell.FLAG).any())
                if board.status is GameStatus.PLAYING and board.board != self._last_board and changed:
                    if not flagged:
                        return True
                    seen = flags_on_a_new_game(before, board.board)
                    if seen and not misread:
                        LOGGER.warning(
                            "a new game shows (nothing open where the last game was played), but flag(s) "
                            "read at %s: a game minebot started has none, so this reading is refused as a "
                            "misread (something drawn over the board?) and looked at again",
                            ", ".join(map(str, seen[:3])),
                        )
                    misread = misread or seen
                    if not misread:
                        LOGGER.info("no new game yet: the board shows flags")
                else:
                    LOGGER.info(
                        "no new game yet: the board reads %s%s",
                        board.status.value,
                        "" if changed and board.board != self._last_board else ", as before",
                    )
            except AbortedError:
                raise
            except MinebotError as exc:
                LOGGER.info("no new game yet: %s", exc)
            if self.clock() > deadline and looks >= NEW_GAME_LOOKS:
                if misread:  # started: no other way is tried; the game's reads refuse the flags again
                    LOGGER.warning("the new game still reads flag(s) at %s", ", ".join(map(str, misread[:3])))
                return bool(misread)
            self.sleep(0.05)

    def new_game(self) -> None:
        """Start the next game: the way asked for, or (``auto``) each plausible way until one shows a
        fresh game, remembered for the next time.

        Raises:
            MinebotError: no way started a new game (names the ways tried).
        """
        if self.skin is None or self.geometry is None:
            self._new_game_unseen()
            return
        tried = []
        self._escaped = False
        ways, left_out = self._new_game_ways()
        for way in ways:
            before = self._close_dialog()  # before each way: a client may open one late (a loaded machine)
            try:
                self._start(way)
            except AbortedError:
                raise
            except MinebotError as exc:
                tried.append(f"{way}: {exc}")
                continue
            if self._fresh_game_shown(way, before):
                self.new_game_way = str(way)
                self._own_game = True
                return
            if way.way == "face" and self._button is not None and self.geometry.face is None:
                LOGGER.warning("the button learned above the board started no new game: forgotten")
                self._button = None
            tried.append(f"{way}: no new game showed")
        if left_out:
            tried.append(left_out)
        try:
            path = self._save(self.capture.grab(None), f"minebot-no-new-game-{int(time.time())}.png")
            saved = f" (screen saved to {path})"
        except CaptureError:
            saved = ""
        raise MinebotError(
            "could not start a new game (" + "; ".join(tried or ["no way to try"]) + f"){saved}: "
            "say how with --new-game face|F2|ctrl+r|ctrl+n|restart|click:DX,DY"
        )

    def _close_dialog(self) -> Board | None:
        """The board on screen (None: it cannot be read), after closing a dialog over it.

        A board no longer readable as a game ended is most often under a dialog (GNOME Mines' high
        scores, winmine's fastest time, KMines' "Reset the game?"): Escape, every toolkit's key to close
        one, is pressed and the board waited for (``settle_timeout``). Where the input backend knows the
        windows (X11), only when another window lies over the board (:meth:`_close_window_over_board`):
        Escape quits some clients (xdemineur); elsewhere, whenever the board cannot be read."""
        board = self._board_now()
        if board is not None:
            return board
        over = self._over_board()
        if over is False or (over is None and self._escaped):
            return None
        self._escaped = True
        LOGGER.info("the board cannot be read as the game ended (a dialog over it?): Escape")
        self._press("escape")
        deadline = self.clock() + self.options.settle_timeout
        while (board := self._board_now()) is None and self.clock() < deadline:
            self.sleep(0.05)
        return board

    def _over_board(self) -> bool | None:
        """Whether another window lies over the board (None: not known)."""
        if self._window is None or self.geometry is None:
            return None
        return self.mouse.covered(self._window, self.geometry.region())

    def _close_window_over_board(self) -> None:
        """Press Escape when another window lies over the board (a dialog the client opened as the game
        ended: KMines asks "Reset the game?" over a lost board and shows its high scores over a won one,
        both taking every key and click until closed), so that the board can be read again."""
        if self._over_board():
            LOGGER.info("a window lies over the board (a dialog?): Escape")
            self._press("escape")

    def _press(self, key: str) -> None:
        """Press ``key``; when no window has the keyboard (a dialog closed with no window manager to
        give it back), it is first given to the window over the board's centre, so the key is not lost."""
        assert self.geometry is not None
        window = self.mouse.window_at(
            *self.geometry.cell_center((self.geometry.rows // 2, self.geometry.cols // 2))
        )
        if window is not None:
            self.mouse.keys_to(window)
        self.mouse.press(key)

    def _new_game_unseen(self) -> None:
        """A new game when the board was never found: only a restart of the client can give one."""
        if self.restart is None:
            raise MinebotError(
                "the board was never found on the screen, so there is no face or board to start a new game "
                "from: start one by hand, or give --restart-command"
            )
        self.restart()
        self.new_game_way = "restart"
        self._own_game = True

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
