"""Finding the board on the screen and finding it again (a moved window, a covered board): the
:class:`~bot.agent.player.Player`'s locating half, as a mixin over its state."""

from __future__ import annotations

import logging
import time
from dataclasses import replace

import numpy as np

from bot.agent.checks import (
    near,
    same_game,
)
from bot.agent.follow import find_look
from bot.agent.sight import BoardGoneError, read_counter
from bot.board import Board, Cell, Coord
from bot.errors import (
    BoardNotFoundError,
    CaptureError,
    MinebotError,
    RecognitionError,
)
from bot.geometry import Geometry, Region

LOGGER = logging.getLogger(__name__)


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

SAME_PLACE_PIXELS = 1.0
"""A board found again within this many pixels of where it was has not moved."""


def _equal_share(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels two same-sized images show exactly alike (0 when their sizes differ)."""
    return float((a == b).all(axis=2).mean()) if a.shape == b.shape else 0.0


def beside(region: Region, screen: Region) -> tuple[int, int]:
    """A point 12 px right of ``region`` (left of it when the screen ends there), at half its height."""
    x = region.right + 12 if region.right + 12 < screen.right - 2 else region.left - 12
    return max(screen.left + 2, x), region.top + region.height // 2


class Locating:
    """Locating the board: where it is, where it went, and what is around it."""

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
        self._grid_checked = False  # the skinless reader's grid is looked for again (Player._to_structure)
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
        self.mouse.move(*beside(ringed, screen))
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
