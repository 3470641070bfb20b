"""The first-click rule as observed: what a player learns about a client from its first clicks.

Without ``--rule``, the loop assumes nothing beyond ``safe`` (the clicked cell holds no mine; ``none``
when the skin says so). Each first click on a fresh board is a trial: under ``safe`` it opens an area
(reads 0) only with the probability that none of its neighbours holds a mine. When every first click
so far opened an area and that is less likely than :data:`EVIDENCE` under ``safe``, the client is
taken to play by ``zero`` (every first click opens an area). A first click that did not open an area
keeps ``safe`` for the session; one that hit a mine means ``none``. A client read with no skin
promises nothing: play starts at ``none`` and rises with the evidence (:meth:`FirstClickLog.rule`).

>>> log = FirstClickLog()
>>> for _ in range(3):
...     log.record(16, 30, 99, neighbours=8, opened=True, exploded=False)
>>> log.rule(FirstClickRule.SAFE).value
'zero'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from bot.game import FirstClickRule

EVIDENCE = 0.01
"""Upgrade to ``zero`` once the observed openings would happen with less than this chance under ``safe``."""


def opening_chance(rows: int, cols: int, mines: int, neighbours: int) -> float:
    """P(a first click with ``neighbours`` neighbours opens an area | only the clicked cell is safe)."""
    free, others = rows * cols - 1 - mines, rows * cols - 1
    chance = 1.0
    for i in range(neighbours):
        chance *= max(free - i, 0) / max(others - i, 1)
    return chance


@dataclass
class FirstClickLog:
    """First clicks seen this session and the rule they support."""

    chances: list[float] = field(default_factory=list)
    """Under ``safe``, the chance of each first click that opened an area."""
    closed: int = 0
    """First clicks that did not open an area."""
    exploded: int = 0
    """First clicks that hit a mine."""
    misses: list[float] = field(default_factory=list)
    """Under ``none``, the chance of each first click that hit no mine (it did not)."""

    def record(self, rows: int, cols: int, mines: int, neighbours: int, opened: bool, exploded: bool) -> None:
        """Note one first click on a fresh board and what it showed."""
        if exploded:
            self.exploded += 1
            return
        self.misses.append(1.0 - mines / max(rows * cols, 1))
        if opened:
            self.chances.append(opening_chance(rows, cols, mines, neighbours))
        else:
            self.closed += 1

    def evidence(self) -> float:
        """The chance under ``safe`` of every opening seen (1.0 when none)."""
        product = 1.0
        for chance in self.chances:
            product *= chance
        return product

    def rule(self, declared: FirstClickRule, promised: bool = True) -> FirstClickRule:
        """The rule to play by: ``declared`` capped at ``safe``, as the observations allow.

        ``promised`` False: nothing is known of the client (read with no skin), so play starts at
        ``none`` and rises to ``safe`` once that many first clicks missing every mine would be less
        likely than :data:`EVIDENCE` under ``none`` (or to ``zero``, as above).
        """
        if self.exploded or (promised and declared is FirstClickRule.NONE):
            return FirstClickRule.NONE
        if not self.closed and self.chances and self.evidence() < EVIDENCE:
            return FirstClickRule.ZERO
        if not promised and math.prod(self.misses) >= EVIDENCE:
            return FirstClickRule.NONE
        return FirstClickRule.SAFE
