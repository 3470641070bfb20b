"""A generator of Minesweeper looks with exact truth: generality measured on looks nobody tuned for.

``generate(seed)`` draws a seeded board in a seeded look (see :mod:`bot.looks.generate`); the looks
combine covered and revealed styles, themes, fonts, marks, geometry, surroundings and damage
independently. Development seeds are :data:`DEV_SEEDS`; :data:`MEASURE_SEEDS` are for benchmarks only.
"""

from bot.looks.generate import DEV_SEEDS, MEASURE_SEEDS, LooksError, Sample, frames, generate, look_for
from bot.looks.look import Look
from bot.looks.states import STATES, mid_game

__all__ = [
    "DEV_SEEDS",
    "MEASURE_SEEDS",
    "STATES",
    "Look",
    "LooksError",
    "Sample",
    "frames",
    "generate",
    "look_for",
    "mid_game",
]
