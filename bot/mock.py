"""The mock client: a simulated game drawn in a skin, or replayed screenshots, behind the real interfaces.

Why: like python-chess's ``MockTransport``, it lets the play loop, the benchmarks and the tests run
with no real client. :class:`SimClient` wraps a :class:`~bot.game.Game`, renders it as a full
screenshot (:func:`bot.render.render_screen`) and answers clicks: its ``.capture`` and ``.input`` are
ordinary :class:`~bot.capture.CaptureBackend` and :class:`~bot.input.InputBackend` objects, so the
loop cannot tell it from a live screen. :class:`ReplayClient` serves saved screenshots instead and
records the clicks, showing the next frame after each one.

>>> client = SimClient("beginner", seed=3, screen_size=(640, 480), clutter=False)
>>> x, y = client.geometry.cell_center((4, 4))
>>> client.input.click(x, y)
>>> client.game.board[4, 4].is_number(), client.clicks
(True, 1)
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.board import Coord
from bot.capture import ReplayCapture, SimCapture
from bot.errors import MinebotError
from bot.game import FirstClickRule, Game, GameStatus, Level, find_level, find_rule
from bot.geometry import Region
from bot.input import InputEvent, RecordingInput, SimInput
from bot.render import (
    CELL_UNITS,
    CLASSIC,
    TASKBAR_HEIGHT,
    WindowLayout,
    paint_board,
    paint_status,
    render_screen,
    resolve_skin,
)
from bot.skin import Skin

LOGGER = logging.getLogger(__name__)


SCREEN_SIZES = ((1280, 800), (1920, 1080), (2560, 1440), (3840, 2160))
"""Screen sizes a simulated client picks from (the smallest that fits) when none is given."""


class SimError(MinebotError, ValueError):
    """The simulated client was set up with impossible options (level, rule)."""


@dataclass(frozen=True)
class SimClick:
    """One click the simulated client received: where, which button, and the cell under it (if any).

    ``covered`` is True when the click landed on a window covering the board (it went to that window).
    """

    x: int
    y: int
    button: str
    cell: Coord | None
    on_face: bool = False
    covered: bool = False


@dataclass(frozen=True)
class Disturbances:
    """Faults a user causes mid-game, for the play loop to survive: the window dragged elsewhere, or
    another window covering part of the board for a while. Seeded: each game gets its own schedule.
    """

    moves: int = 0
    """Window moves per game, each to a random place on the screen (at the first grab after a click)."""
    covers: int = 0
    """Times per game another window covers part of the board."""
    cover_frames: int = 24
    """How many frames (screen grabs) a cover lasts."""
    within_clicks: int = 30
    """Each disturbance follows one of the game's first this many clicks, drawn at random."""
    seed: int = 0

    def schedule(self, game: int) -> tuple[set[int], set[int]]:
        """The click numbers (1-based, within a game) after which the window moves, and is covered."""
        rng = np.random.default_rng([self.seed, game])
        clicks = np.arange(1, self.within_clicks + 1)
        moves = rng.choice(clicks, size=min(self.moves, len(clicks)), replace=False)
        covers = rng.choice(clicks, size=min(self.covers, len(clicks)), replace=False)
        return {int(c) for c in moves}, {int(c) for c in covers}


class SimClient:
    """A simulated Minesweeper window: a seeded Game drawn in a skin, answering clicks and keys.

    Left click opens the cell under the pointer, right click toggles a flag, a middle click (or a
    chord) on a satisfied number opens its neighbours, and so does a left click on a number when
    ``left_click_chords`` (minesweeper.online does that). A click on the face or F2 (the ways in
    ``new_game_by``: also ``ctrl+r`` or ``ctrl+n``) starts a new game with the next seed. The timer
    runs on a fake clock: each action advances it by ``seconds_per_action``, and :meth:`tick` advances
    it by hand, so runs are deterministic.
    The size is a level name (``"expert"``, ``"16x30/99"``) or ``rows``, ``cols`` and ``mines``.

    Raises:
        SimError: for an unknown or impossible level or first-click rule.
    """

    def __init__(
        self,
        level: str | Level = "beginner",
        rule: str | FirstClickRule | None = None,
        seed: int = 0,
        skin: Skin | str = CLASSIC,
        scale: float = 1.0,
        screen_size: tuple[int, int] | None = None,
        origin: tuple[int, int] | None = None,
        clutter: bool = True,
        left_click_chords: bool = False,
        seconds_per_action: float = 0.5,
        disturbances: Disturbances | None = None,
        new_game_by: tuple[str, ...] = ("face", "F2"),
        dialog_at_end: int = 0,
        cursor: bool = False,
        *,
        rows: int | None = None,
        cols: int | None = None,
        mines: int | None = None,
    ) -> None:
        try:
            if (rows, cols, mines) != (None, None, None):
                if None in (rows, cols, mines):
                    raise ValueError(f"give rows, cols and mines together, got {rows=} {cols=} {mines=}")
                level = f"{rows}x{cols}/{mines}"
            self.level = find_level(level) if isinstance(level, str) else level
            self.skin = resolve_skin(skin)
            self.rule = find_rule(rule or (self.skin.first_click_rule if self.skin else FirstClickRule.WINXP))
        except ValueError as exc:
            raise SimError(str(exc)) from exc
        self.scale = scale
        self.seed = seed
        self.screen_size = screen_size
        self.clutter = clutter
        self.left_click_chords = left_click_chords
        self.seconds_per_action = seconds_per_action
        self.disturbances = disturbances or Disturbances()
        self.new_game_by = new_game_by
        self.dialog_at_end = dialog_at_end
        """Frames after a game's end at which a modal dialog (GNOME Mines' high scores) covers the
        board's middle, taking every click and key until Escape closes it; 0: never."""
        self._dialog: Region | None = None
        self._frames_ended = 0
        self.cursor = cursor
        """The pointer is drawn into every frame, an arrow at its tip (some captures include it): over a
        cell, its pixels are the arrow's."""
        self.moves_done = 0
        """Window moves so far (all games)."""
        self.covers_done = 0
        self.cover: Region | None = None
        """The screen region another window covers now, if any."""
        self._cover_left = 0
        self._pending: list[str] = []
        self._game_clicks = 0
        self._schedule: tuple[set[int], set[int]] = (set(), set())
        self._rng = np.random.default_rng([self.disturbances.seed, 99])
        self._skin_arg = skin
        self.games_started = 0
        self.clicks = 0
        self.history: list[SimClick] = []
        self.keys: list[str] = []
        """Every key pressed, in order."""
        self.pointer: tuple[int, int] | None = None
        self.clock = 0.0
        self._started_at: float | None = None
        self._stopped_at: float | None = None
        self.game = self._new_game()
        if screen_size is None:
            screen_size = self._fitting_screen()
        screen, self.geometry = render_screen(
            self.game.board,
            skin,
            scale,
            screen_size=screen_size,
            origin=origin,
            seed=seed,
            clutter=clutter,
            mines_left=self.mines_left,
            seconds=0,
        )
        region = self.geometry.region()
        self.layout = WindowLayout.compute(region.width, region.height, scale)
        self.origin = (region.left - self.layout.board_left, region.top - self.layout.board_top)
        """The window's top-left corner on the screen."""
        self._screen = screen
        self._shown_cells = self.game.board.cells.copy()
        self._frame_key: tuple | None = self._state_key()
        self.capture = SimCapture(self)
        self.input = SimInput(self)

    def _fitting_screen(self) -> tuple[int, int]:
        """The smallest common screen size the window fits on (with room for the taskbar)."""
        cell = (self.skin.cell_size if self.skin else CELL_UNITS) * self.scale
        layout = WindowLayout.compute(
            round(self.level.cols * cell), round(self.level.rows * cell), self.scale
        )
        for size in SCREEN_SIZES:
            if layout.width <= size[0] and layout.height + TASKBAR_HEIGHT <= size[1]:
                return size
        return (layout.width, layout.height + TASKBAR_HEIGHT)

    # -- the game -----------------------------------------------------------------------------------

    def _new_game(self) -> Game:
        lv = self.level
        game = Game(lv.rows, lv.cols, lv.mines, rule=self.rule, seed=self.seed + self.games_started)
        self._schedule = self.disturbances.schedule(self.games_started)
        self._game_clicks = 0
        self.games_started += 1
        self._started_at = self._stopped_at = None
        LOGGER.debug("sim: new %s game, seed %d", lv.name, self.seed + self.games_started - 1)
        return game

    def new_game(self) -> None:
        """Start the next game (next seed), as the face button or F2 does."""
        self.game = self._new_game()
        self._frames_ended = 0

    @property
    def status(self) -> GameStatus:
        return self.game.status

    @property
    def mines_left(self) -> int:
        """What the mines counter shows: mines minus flags."""
        return self.game.mines - int(self.game.board.flagged_mask().sum())

    @property
    def seconds(self) -> int:
        """What the timer shows: 0 before the first move, then whole seconds since it (1 at once, max 999)."""
        if self._started_at is None:
            return 0
        end = self._stopped_at if self._stopped_at is not None else self.clock
        return min(999, int(end - self._started_at) + 1)

    def tick(self, seconds: float) -> None:
        """Advance the fake clock."""
        if seconds < 0:
            raise SimError(f"the clock cannot go back ({seconds!r} s)")
        self.clock += seconds

    # -- input --------------------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        """Answer one input event at screen coordinates (what :class:`SimInput` sends)."""
        if event.kind == "move":
            self.pointer = (int(event.x), int(event.y))  # type: ignore[arg-type]
            return
        self.tick(self.seconds_per_action)
        if event.kind == "press":
            self.keys.append(str(event.detail))
            if self._dialog is not None:  # a modal dialog takes every key; Escape closes it
                if event.detail == "escape":
                    self._dialog = None
                return
            if event.detail in self.new_game_by:
                self.new_game()
            return
        x, y = int(event.x), int(event.y)  # type: ignore[arg-type]
        self.pointer = (x, y)
        button = "chord" if event.kind == "chord" else event.detail
        face = self.geometry.face
        on_face = face is not None and face.contains(x, y)
        cell = self.cell_at(x, y)
        covered = self.cover is not None and self.cover.contains(x, y)
        self.clicks += 1
        self.history.append(SimClick(x, y, button, cell, on_face, covered))
        if covered or self._dialog is not None:
            return  # the covering window (or a modal dialog) took the click
        if on_face and button == "left":
            if "face" in self.new_game_by:
                self.new_game()
        elif cell is not None:
            self._game_clicks += 1
            self._act(cell, button)
            moves, covers = self._schedule
            if self._game_clicks in moves:
                self._pending.append("move")
            if self._game_clicks in covers:
                self._pending.append("cover")

    def _act(self, cell: Coord, button: str) -> None:
        game = self.game
        before = game.moves
        if button == "right":
            game.flag(cell)
        elif button in ("middle", "chord") or (
            button == "left" and self.left_click_chords and game.board[cell].is_number()
        ):
            game.chord(cell)
        elif button == "left":
            game.open(cell)
        if game.moves and self._started_at is None and before == 0:
            self._started_at = self.clock
        if game.is_over() and self._stopped_at is None:
            self._stopped_at = self.clock

    # -- the screen ---------------------------------------------------------------------------------

    def _state_key(self) -> tuple:
        """What the screen shows, in short (the cells fix the counter: mines minus flags)."""
        return (id(self.game), self.game.board.cells.tobytes(), self.game.status, self.seconds)

    def move_window(self, origin: tuple[int, int]) -> None:
        """Drag the window so that its top-left corner is at ``origin`` (the board moves with it)."""
        height, width = self._screen.shape[:2]
        screen, self.geometry = render_screen(
            self.game.board,
            self._skin_arg,
            self.scale,
            status=self.status,
            mines_left=self.mines_left,
            seconds=self.seconds,
            screen_size=(width, height),
            origin=origin,
            seed=self.seed,
            clutter=self.clutter,
        )
        self.origin = origin
        self._screen = screen
        self._shown_cells = self.game.board.cells.copy()
        self._frame_key = self._state_key()
        self.moves_done += 1
        LOGGER.debug("sim: window moved to %s", origin)

    def _random_origin(self) -> tuple[int, int]:
        height, width = self._screen.shape[:2]
        room_x = width - self.layout.width
        room_y = height - self.layout.height - (TASKBAR_HEIGHT if self.clutter else 0)
        return int(self._rng.integers(0, max(room_x, 0) + 1)), int(self._rng.integers(0, max(room_y, 0) + 1))

    def _random_cover(self) -> Region:
        """A rectangle over one corner of the board, 30-70% of its width and height."""
        board = self.geometry.region()
        w = max(1, int(board.width * self._rng.uniform(0.3, 0.7)))
        h = max(1, int(board.height * self._rng.uniform(0.3, 0.7)))
        x = board.left - w // 3 if self._rng.random() < 0.5 else board.right - 2 * w // 3
        y = board.top - h // 3 if self._rng.random() < 0.5 else board.bottom - 2 * h // 3
        height, width = self._screen.shape[:2]
        x, y = min(max(x, 0), width - w), min(max(y, 0), height - h)
        return Region(x, y, w, h)

    def _disturb(self) -> None:
        """Apply the disturbances due after the last click."""
        for what in self._pending:
            if what == "move":
                self.move_window(self._random_origin())
            else:
                self.cover, self._cover_left = self._random_cover(), self.disturbances.cover_frames
                self.covers_done += 1
        self._pending.clear()

    def frame(self) -> np.ndarray:
        """The whole current screen (BGR), with any covering window drawn over it.

        Re-drawn only when the game, counters or timer changed; disturbances due happen here (the
        user drags the window while the bot waits for the client to redraw).
        """
        if self._pending:
            self._disturb()
        screen = self._with_cursor(self._painted())
        self._show_dialog()
        if self._dialog is not None:
            screen = screen.copy()
            d = self._dialog
            screen[d.top : d.bottom, d.left : d.right] = (60, 60, 60)
        if self.cover is None:
            return screen
        self._cover_left -= 1
        covered = screen.copy()
        c = self.cover
        covered[c.top : c.bottom, c.left : c.right] = (200, 120, 60)
        covered[c.top : c.top + max(2, c.height // 8), c.left : c.right] = (120, 40, 10)  # a title bar
        if self._cover_left <= 0:
            self.cover = None
        return covered

    def _with_cursor(self, screen: np.ndarray) -> np.ndarray:
        """The screen with the pointer's arrow drawn at the pointer, when ``cursor``."""
        if not self.cursor or self.pointer is None:
            return screen
        x, y = self.pointer
        drawn = screen.copy()
        for row in range(18):  # a left-pointing arrow: a white wedge outlined in black
            width = min(row, 11) + 1
            part = drawn[y + row : y + row + 1, x : x + width]
            part[:] = 255
            part[:, :1] = 0
            part[:, width - 1 :] = 0
        return drawn

    def _show_dialog(self) -> None:
        """Count the frames since the game ended; at ``dialog_at_end`` of them, a dialog opens."""
        if not self.dialog_at_end or not self.game.is_over():
            return
        self._frames_ended += 1
        if self._frames_ended == self.dialog_at_end:
            b = self.geometry.region()
            self._dialog = Region(b.left + b.width // 4, b.top + b.height // 4, b.width // 2, b.height // 2)

    def _painted(self) -> np.ndarray:
        key = self._state_key()
        if key != self._frame_key:
            board = self.game.board
            changed = board.cells_where(board.cells != self._shown_cells)
            paint_board(self._screen, board, self.skin, self.geometry, changed)
            paint_status(
                self._screen, self.layout, self.skin, self.status, self.mines_left, self.seconds, self.origin
            )
            self._shown_cells = board.cells.copy()
            self._frame_key = key
        return self._screen

    def cell_at(self, x: int, y: int) -> Coord | None:
        """The cell drawn under screen pixel (x, y), or None.

        :meth:`Geometry.cell_at` floors ``(x - left) / pitch`` while cells are drawn from
        ``round(left + c * pitch)``; at fractional pitches they differ on a cell's first or last
        pixel column, and the click must go to the cell the player sees there.
        """
        g = self.geometry
        r = min(max(math.floor((y - g.top) / g.pitch_y), 0), g.rows - 1)
        c = min(max(math.floor((x - g.left) / g.pitch_x), 0), g.cols - 1)
        candidates = [(rr, cc) for rr in (r, r - 1, r + 1) for cc in (c, c - 1, c + 1)]
        for cell in candidates:
            if 0 <= cell[0] < g.rows and 0 <= cell[1] < g.cols and g.cell_rect(cell).contains(x, y):
                return cell
        return None

    def close(self) -> None:
        self.capture.close()
        self.input.close()


class ReplayClient:
    """Saved screenshots as the screen plus a recording mouse: each click shows the next frame.

    ``paths`` is an image, a folder, an animated GIF, or a list of them (see
    :class:`~bot.capture.ReplayCapture`). :meth:`assert_all_frames_used` checks that the run looked at
    every frame, like ``MockTransport.assert_done``.
    """

    def __init__(
        self,
        paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str] | np.ndarray],
        advance_on_click: bool = True,
    ) -> None:
        self.capture = ReplayCapture(paths)
        self.input = RecordingInput(on_event=self._on_event if advance_on_click else None)
        self.overrun: list[InputEvent] = []

    def _on_event(self, event: InputEvent) -> None:
        if event.kind == "move":
            return
        if self.capture.frames_left:
            self.capture.advance()
        else:
            self.overrun.append(event)

    def assert_all_frames_used(self) -> None:
        """Raise AssertionError unless every frame was grabbed and no click came after the last one."""
        unused = [i for i in range(self.capture.frame_count) if i not in self.capture.grabbed]
        if unused:
            names = [self.capture.frame_names[i] for i in unused]
            raise AssertionError(f"replay frames never grabbed: {', '.join(names)}")
        if self.overrun:
            raise AssertionError(f"{len(self.overrun)} input event(s) after the last frame: {self.overrun}")

    def close(self) -> None:
        self.capture.close()
        self.input.close()
