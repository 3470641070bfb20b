"""Test doubles shared by the play-loop tests."""

from __future__ import annotations


class FakeTime:
    """A clock that moves only when the player sleeps: waits (``cover_wait``, ``settle_timeout``) are
    counted in the loop's own sleeps, so the machine's load cannot change what a test sees."""

    def __init__(self) -> None:
        self.now = 0.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
