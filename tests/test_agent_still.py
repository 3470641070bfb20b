"""The play loop acts only on a board the client has finished drawing.

A client that animates its floods (Windows 7 Minesweeper fades each opened tile out over 150 ms, a ring
of tiles every 30 ms) shows cells mid-way: a number under a half-faded tile takes the tile's tint and
reads as another number (a green 2 tinted blue reads as a 1). The client's first animation comes with no
warning: its steps are 30 ms apart, so the 15 ms still period after a click ends in the gap between two
of them. The loop checks that the board is unchanged once it has been read; a board that changed
meanwhile was half-drawn, its reading is dropped, and later waits outlast a step of the animation.

Drawn here with the built-in look (``bot.render``): each flood shows its new numbers one lower for one
30 ms step (the tinted step) after a step that shows no change at all, then the final board; the reader
is given the skinless reader's cost (40 ms a frame) on the test's clock.
"""

from __future__ import annotations

import numpy as np

from bot.agent import Player, PlayOptions
from bot.board import Board, Cell
from bot.capture import CaptureBackend
from bot.geometry import Region
from bot.mock import SimClient
from bot.render import paint_board
from tests.fakes import FakeTime

STEP = 0.03
"""Seconds between two steps of the animation."""
READ_COST = 0.04
"""Seconds one reading takes (the skinless reader's order of cost) on the test's clock."""


class Fading(CaptureBackend):
    """A sim's screen whose every change is drawn in three steps ``STEP`` apart: unchanged, then the
    newly opened numbers one lower (a half-drawn look that reads as another state), then final."""

    name = "fading"

    def __init__(self, client: SimClient, time: FakeTime) -> None:
        super().__init__()
        self.client, self.time = client, time
        self.target = client.game.board.cells.copy()
        self.before = self.target.copy()
        self.since = -1.0

    def screen_region(self) -> Region:
        return self.client.capture.screen_region()

    def _grab(self, region: Region) -> np.ndarray:
        cells = self.client.game.board.cells
        if not np.array_equal(cells, self.target):
            self.before, self.target, self.since = self.target, cells.copy(), self.time.now
        image = self.client.capture.grab(None).copy()
        age = self.time.now - self.since
        if age < 2 * STEP:
            opened = (self.before == Cell.COVERED) & (self.target != Cell.COVERED)
            shown = np.where(opened, self.before, self.target)
            if age >= STEP:  # the tinted step: each new number one lower, the rest still covered
                numbers = opened & (self.target >= Cell.TWO) & (self.target <= Cell.EIGHT)
                shown = np.where(numbers, self.target - 1, shown)
            board = Board(shown.astype(self.target.dtype))
            paint_board(image, board, self.client.skin, self.client.geometry, board.cells_where(opened))
        return image[region.top : region.bottom, region.left : region.right].copy()


def _reads_cost_time(player: Player, time: FakeTime) -> None:
    """Make each of ``player``'s readings take :data:`READ_COST` on the test's clock."""
    read = player._read

    def costly_read(image, previous=None):  # type: ignore[no-untyped-def]
        time.now += READ_COST
        return read(image, previous)

    player._read = costly_read  # type: ignore[method-assign]


def misreads_in_a_game(seed: int) -> tuple[list[str], str]:
    """Play one game on a fading sim; the cells any reading acted on showed otherwise than the game."""
    client = SimClient("intermediate", seed=seed, screen_size=(900, 700), rule="zero")
    time = FakeTime()
    capture = Fading(client, time)
    wrong: list[str] = []

    def check(board: Board, moves: list) -> None:  # type: ignore[type-arg]
        truth = client.game.board.cells
        shown = board.cells != Cell.COVERED
        for cell in np.argwhere(shown & (board.cells != truth)):
            r, c = (int(v) for v in cell)
            read, true = Cell(int(board.cells[r, c])).char, Cell(int(truth[r, c])).char
            wrong.append(f"({r}, {c}) read {read}, is {true}")

    player = Player(capture, client.input, PlayOptions(), clock=time.clock, sleep=time.sleep, on_move=check)
    _reads_cost_time(player, time)
    result = player.play_game()
    return wrong, result.status


def test_a_board_read_while_it_still_animates_is_not_acted_on() -> None:
    for seed in (1, 2, 3):
        wrong, status = misreads_in_a_game(seed)
        assert wrong == [], f"seed {seed}: {wrong[:5]}"
        assert status in ("won", "lost")


class Ticking(CaptureBackend):
    """A sim's screen with a timer between the face and the board that changes every ``TICK`` seconds."""

    name = "ticking"

    def __init__(self, client: SimClient, time: FakeTime) -> None:
        super().__init__()
        self.client, self.time = client, time

    def screen_region(self) -> Region:
        return self.client.capture.screen_region()

    def _grab(self, region: Region) -> np.ndarray:
        image = self.client.capture.grab(None).copy()
        board = self.client.geometry.region()
        image[board.top - 3 : board.top - 1, board.left : board.left + 12] = int(self.time.now / TICK) % 200
        return image[region.top : region.bottom, region.left : region.right].copy()


TICK = 0.05


def test_a_timer_ticking_beside_the_board_while_it_is_read_is_no_animation() -> None:
    """Only the cells are checked for a change after a reading: a clock between the face and the board
    (inside the region the loop watches) ticks on its own, and would make every wait longer."""
    client = SimClient("intermediate", seed=2, screen_size=(900, 700), rule="zero")
    time = FakeTime()
    player = Player(Ticking(client, time), client.input, PlayOptions(), clock=time.clock, sleep=time.sleep)
    _reads_cost_time(player, time)
    result = player.play_game()
    assert result.status in ("won", "lost") and player._redraw_pause < TICK
