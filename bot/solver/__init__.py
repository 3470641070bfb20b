"""The solver: exact mine probabilities and the move policy, as pure functions of a board.

>>> from bot.board import Board
>>> board = Board.from_text("1.\\n..", mines=1)
>>> float(mine_probabilities(board)[0, 1])
0.3333333333333333
>>> print(choose_move(Board.from_text("01.\\n01.\\n01.", mines=1)))
open (0, 2) p=0.00: single-number rule

Imports only the standard library and numpy. See :mod:`bot.solver.engine` for how probabilities are
counted (and how worst-case time is bounded), :mod:`bot.solver.policy` for how moves are chosen.
"""

from bot.solver.engine import NODE_BUDGET, UNKNOWN_DENSITY
from bot.solver.policy import (
    POLICIES,
    Action,
    Move,
    Policy,
    choose_move,
    choose_moves,
    find_policy,
    first_click,
    mine_probabilities,
    probability_grid,
)

__all__ = [
    "NODE_BUDGET",
    "POLICIES",
    "UNKNOWN_DENSITY",
    "Action",
    "Move",
    "Policy",
    "choose_move",
    "choose_moves",
    "find_policy",
    "first_click",
    "mine_probabilities",
    "probability_grid",
]
