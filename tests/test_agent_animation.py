"""The play loop waits out a client's animation: a board that redraws in steps 20 ms apart (a ripple of
tiles, a cascade of mines) is not taken as still in the gap between two of its frames."""

from __future__ import annotations

import numpy as np

from bot.agent import Player, PlayOptions
from bot.agent.player import ANIMATION_PAUSE
from bot.agent.results import MoveTiming
from bot.geometry import Region


class Animation:
    """A 4x4 screen that changes at the given times (seconds on a fake clock), then stays."""

    def __init__(self, changes: list[float]) -> None:
        self.changes = changes
        self.now = 0.0

    def frame(self) -> np.ndarray:
        shown = sum(t <= self.now for t in self.changes)
        return np.full((4, 4, 3), shown, np.uint8)

    def grab(self, region: Region) -> np.ndarray:
        return self.frame()

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def player_on(screen: Animation, quiet: float = 0.015) -> Player:
    """A play loop watching ``screen`` (its 4x4 pixels are the whole board) on the screen's clock."""
    options = PlayOptions(quiet=quiet, settle_timeout=5.0)
    player = Player(screen, None, options, clock=lambda: screen.now, sleep=screen.sleep)  # type: ignore[arg-type]
    player._inner = lambda image: image  # type: ignore[method-assign]
    player._inner_region = lambda: Region(0, 0, 4, 4)  # type: ignore[method-assign]
    return player


def waited(changes: list[float], player: Player | None = None) -> tuple[float, bool]:
    """How long the loop waited after a click (from now) and whether it saw a change."""
    screen = Animation(changes) if player is None else player.capture  # type: ignore[assignment]
    start = screen.now
    player = player or player_on(screen)
    changed = player._wait_change(screen.frame(), MoveTiming())
    return screen.now - start, changed


def test_an_animation_is_waited_out_to_its_last_frame_once_seen() -> None:
    """The first animation shows the client's pace; every later one is waited out to its last frame
    (a step 20 ms after the last outlasts the 15 ms quiet)."""
    first = [0.01 + 0.02 * i for i in range(11)]
    screen = Animation(first)
    player = player_on(screen)
    _, changed = waited(first, player)
    assert changed
    start = screen.now
    screen.changes = first + [start + 0.01 + 0.02 * i for i in range(11)]
    now, changed = waited(screen.changes, player)
    assert changed and start + now >= screen.changes[-1]  # not stopped in a gap between two steps


def test_a_single_redraw_still_costs_only_the_quiet() -> None:
    now, changed = waited([0.005])
    assert changed and now < 0.005 + 0.015 + 0.02


def test_a_long_pause_ends_the_wait() -> None:
    now, changed = waited([0.01, 0.03, 0.03 + 5 * ANIMATION_PAUSE])
    assert changed and now < 0.03 + 2 * ANIMATION_PAUSE
