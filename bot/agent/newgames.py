"""Starting new games: the face or a learned status button, keys, a restart, the dialog a client opens
at the end; the :class:`~bot.agent.player.Player`'s new-game half, as a mixin over its state."""

from __future__ import annotations

import logging
import time

import numpy as np

from bot.agent.checks import flags_on_a_new_game
from bot.agent.options import NewGame
from bot.board import Board, Cell, Coord
from bot.errors import (
    AbortedError,
    BoardNotFoundError,
    CaptureError,
    ContradictionError,
    MinebotError,
    RecognitionError,
)
from bot.game import GameStatus
from bot.geometry import Geometry, Region
from bot.skin import NEW_GAME_KEYS

LOGGER = logging.getLogger(__name__)


BROWSER_KEYS = ("ctrl+r", "ctrl+n")
"""New-game keys a web browser takes for itself (reload the page, open a window): ``auto`` guesses them
only for a program known to be no browser."""

NEW_GAME_LOOKS = 3
"""Least number of looks for a new game after asking for one, however long the wait has been."""

BUTTON_TICK = 1.5
"""Seconds between grabs of the band above the board while a game is on: what changed between the
last two (a timer) is not the status button (:meth:`Player._watch_button`)."""


class NewGames:
    """Starting a new game and knowing it started."""

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
