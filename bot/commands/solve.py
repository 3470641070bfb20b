"""Print a board's mine probabilities and the move the solver would make.

The board is a text file in the board format (``-`` reads stdin). Covered cells are shown as their
mine probability in percent (``0%`` certain safe, ``100%`` certain mine), every other cell as its
character. The mine count comes from ``--mines``, else the file's ``# mines: N`` comment; without
either the solver weighs each region on its own (see the README).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.board import Board, Cell
from bot.commands import count, looked_up
from bot.errors import BoardFormatError
from bot.game import FirstClickRule, find_rule
from bot.solver import POLICIES, choose_moves, probability_grid

NAME = "solve"
HELP = "show a board's mine probabilities and the solver's move"


@dataclass(frozen=True)
class SolveOptions:
    """What ``minebot solve`` was asked."""

    path: str
    mines: int | None
    rule: FirstClickRule
    json: bool
    flags: bool
    policy: str


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", metavar="BOARD.txt", help="board text file, or - for stdin")
    parser.add_argument("--mines", type=count, help="total mines (default: the file's '# mines: N' comment)")
    parser.add_argument(
        "--rule",
        type=rule_argument,
        default=FirstClickRule.SAFE,
        help="first-click rule of the game: safe, zero, winxp or none (default: safe)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a grid")
    parser.add_argument("--flags", action="store_true", help="also suggest flags and chords")
    parser.add_argument(
        "--policy", choices=sorted(POLICIES), default="best", help="guess policy (default: best)"
    )


def rule_argument(text: str) -> FirstClickRule:
    """argparse type for ``--rule``: a usage error that lists the valid names."""
    return looked_up(text, find_rule)


def read_board(path: str, mines: int | None) -> Board:
    """Read a board file (``-`` for stdin); ``mines`` overrides its comment."""
    if path == "-":
        text = sys.stdin.read()
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise BoardFormatError(f"cannot read board file {path!r}: {exc.strerror}") from exc
        except UnicodeDecodeError as exc:
            raise BoardFormatError(
                f"{path!r} is not a board file: it is not text (byte {exc.start} is not UTF-8); a board is "
                "one line of characters per row (see the README)"
            ) from exc
    try:
        return Board.from_text(text, mines=mines)
    except BoardFormatError as exc:
        raise BoardFormatError(f"{path}: {exc}") from exc


def format_grid(board: Board, probs: np.ndarray) -> str:
    """One line per row: covered cells as a percentage, other cells as their character."""
    lines = []
    for r in range(board.rows):
        parts = []
        for c in range(board.cols):
            p = probs[r, c]
            parts.append(
                f"{_percent(p):>5}" if not math.isnan(p) else f"{Cell(int(board.cells[r, c])).char:>5}"
            )
        lines.append("".join(parts).rstrip())
    return "\n".join(lines)


def _percent(p: float) -> str:
    if 0.0 < p < 0.005:
        return "<1%"
    if 0.995 <= p < 1.0:
        return ">99%"
    return f"{round(p * 100)}%"


def run(args: argparse.Namespace) -> int:
    opts = SolveOptions(args.board, args.mines, args.rule, args.json, args.flags, args.policy)
    board = read_board(opts.path, opts.mines)
    probs, exact = probability_grid(board)
    moves = choose_moves(board, rule=opts.rule, flags=opts.flags, policy=opts.policy)
    if opts.json:
        grid = [[None if math.isnan(p) else float(p) for p in row] for row in probs.tolist()]
        print(
            json.dumps(
                {
                    "rows": board.rows,
                    "cols": board.cols,
                    "mines": board.mines,
                    "probabilities": grid,
                    "exact": exact,
                    "move": moves[0].to_dict(),
                    "moves": [m.to_dict() for m in moves],
                }
            )
        )
        return 0
    mines = board.mines if board.mines is not None else "unknown (regions weighed on their own)"
    print(f"{board.rows}x{board.cols} board, mines: {mines}, rule: {opts.rule.value}")
    if not exact and board.mines is not None:
        print("probabilities: approximate (a region passed the work guard)")
    print(format_grid(board, probs))
    print(f"move: {moves[0]}")
    print("(cells are (row, col), each counted from 0: (0, 0) is the top-left cell)")
    if len(moves) > 1:
        print(f"({len(moves) - 1} more certain move{'s' if len(moves) > 2 else ''}: use --json to list them)")
    return 0
