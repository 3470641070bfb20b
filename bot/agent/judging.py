"""Judging a game's end on a screen that cannot be read or trusted whole (the cells read surely, the
last clicks' logic): a part of the :class:`~bot.agent.seeing.Seeing` mixin."""

from __future__ import annotations

import logging

import numpy as np

from bot.agent.ending import (
    block_distances,
    hidden_by_a_window,
    judge_end,
    lost_by_guess,
    lost_by_opening_all,
    opened_by,
    won_as_nearest,
    won_by_opening,
)
from bot.agent.locating import SAME_PLACE_PIXELS
from bot.agent.sight import (
    LastClicks,
    Sight,
)
from bot.board import Board, Cell
from bot.errors import CaptureError
from bot.game import GameStatus
from bot.solver import Action

LOGGER = logging.getLogger(__name__)


class EndJudging:
    """An ended game proven by the cells read surely or by the last clicks, or None."""

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
