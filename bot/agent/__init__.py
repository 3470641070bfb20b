"""The play loop and what it knows about a client: see :mod:`bot.agent.player`.

Modules: ``player`` (the loop), ``options`` (what it can be told), ``results`` (what it reports),
``checks`` (a reading against the board's logic), ``ending`` (an end seen on a partly unreadable
screen, or proven by the last clicks), ``follow`` (a moved board found by its last look),
``firstclick`` (the first-click rule as observed), ``learning`` (a state never seen, learned when the
board forces it), ``programs`` (whether the program showing the board is a web browser), ``stopping``
(a Ctrl-C that stops the run even when its ``KeyboardInterrupt`` is dropped).
"""

from bot.agent.checks import check_progress, flag_the_rest, same_game, unsettled_zero
from bot.agent.firstclick import FirstClickLog
from bot.agent.options import NewGame, PlayOptions, parse_new_game
from bot.agent.player import Player, make_dpi_aware
from bot.agent.results import GameResult, MoveTiming, SessionSummary
from bot.agent.sight import BoardGoneError, MisreadError, Sight

__all__ = [
    "BoardGoneError",
    "FirstClickLog",
    "GameResult",
    "MisreadError",
    "MoveTiming",
    "NewGame",
    "PlayOptions",
    "Player",
    "SessionSummary",
    "Sight",
    "check_progress",
    "flag_the_rest",
    "make_dpi_aware",
    "parse_new_game",
    "same_game",
    "unsettled_zero",
]
