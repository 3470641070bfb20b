"""Grabbing the board's region and reading it into a board (with a skin, with no skin, or by the templates
this game's exact readings taught): the :class:`~bot.agent.seeing.Seeing` mixin's reading part."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from bot.agent.ending import mine_opened
from bot.agent.locating import RING, RING_GAP_STEPS, SAME_PLACE_PIXELS
from bot.agent.sight import (
    Sight,
    run_into,
    shows_the_end,
)
from bot.board import Board
from bot.errors import (
    CaptureError,
    MinebotError,
    RecognitionError,
)
from bot.game import GameStatus
from bot.geometry import Geometry, Region

if TYPE_CHECKING:
    from bot.vision.classify import CellReading
    from bot.vision.read import Reading
    from bot.vision.status import FaceMatch

LOGGER = logging.getLogger(__name__)

SETTLE_LOOKS = 4
"""With no skin, how many grabs a frame the taught templates cannot read is looked at again, while the
board still changes, before the skinless reader reads the last one."""

GRID_PITCH_SLACK = 0.05
"""Most pitch difference (pixels) between the located grid and the one the structure shows for them to
be one grid (:meth:`FrameReading._to_structure`)."""

STILL_BEFORE_COLD = 4
"""With no skin, how many quiet periods (``options.quiet``) a frame the taught templates cannot read
must stay unchanged before the skinless reader reads it. A client's passing drawing (JSMinesweeper's
hover tooltip or pressed cell, which Chromium under load takes a few frames to take down) outlasts one
quiet period; the skinless reader costs a hundred times the templates (100-400 ms under load) and
refuses such frames too, while a state never taught is still there a few periods later."""


class FrameReading:
    """Reading a grab of the watched region: the board, its end as the face or the board shows it."""

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
        if self._fell_back and self._to_structure(image):
            image, geometry = self._grab(), self._region_geometry()
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
            if self._to_structure(image):
                image, geometry = self._grab(), self._region_geometry()
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

    def _to_structure(self, image: np.ndarray) -> bool:
        """Once per place of the board: move the located grid onto the grid the skinless reader finds
        by the board's own structure in ``image`` (:func:`bot.vision.grid.find_grid`), when that is the
        same grid (rows, columns, pitch) less than :data:`SAME_PLACE_PIXELS` away. Whether it moved (the
        board is then grabbed again: the watched region may have moved by a pixel).

        Why: the skinless reader is made for, and measured at, the grid it finds itself; a skin's
        templates place cells at whole pixels, which can lie most of a pixel off it (Windows 7
        Minesweeper's cells sat 0.75 px off the ``win7`` skin's match), and there a glyph's cut can fit
        another digit best (a lone red 3 in a corner, the frame's shadow in its cell, read as a 1)."""
        from bot.vision.grid import find_grid

        if self._grid_checked or self._image_geometry is None:
            return False
        self._grid_checked = True
        here = self._region_geometry()
        try:
            found = find_grid(image).geometry
        except MinebotError:
            return False
        dx, dy = found.left - here.left, found.top - here.top
        if (
            (found.rows, found.cols) != (here.rows, here.cols)
            or max(abs(found.pitch_x - here.pitch_x), abs(found.pitch_y - here.pitch_y)) > GRID_PITCH_SLACK
            or max(abs(dx), abs(dy)) >= SAME_PLACE_PIXELS
            or dx == dy == 0
        ):
            return False
        g = self._image_geometry  # in the whole screen's image pixels, as the grab's
        screen = self._screen or self.capture.screen_region()
        self._adopt(replace(g, left=g.left + dx, top=g.top + dy), screen)
        self._grid_checked = True  # adopting a place asks for a check: this is it
        LOGGER.info("reading with no skin at the grid its structure shows: %+.2f, %+.2f px", dx, dy)
        return True

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

    def _fallback_skin(self) -> object | None:
        """The skinless reader, with what it learnt this game, for frames the game's skin cannot read;
        None unless the skin was chosen by ``auto`` (a skin named by the user is never replaced)."""
        from bot.vision.read import AUTO, generic_skin, is_generic

        if self.options.skin != AUTO or self.skin is None or is_generic(self.skin):
            return None
        if self._generic is None:
            self._generic = generic_skin()
        return self._generic

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
