"""Real game positions to draw: fresh, mid-game with flags, lost and won, played with :mod:`bot.game`.

Why: a reader meets every state of the board text format, and a drawn board must be one a game can
show (counts that agree with the mines, an exploded mine only when lost, flags over mines when won), so
the board's logic can be the reader's last word. Every position is seeded.
"""

from __future__ import annotations

import numpy as np

from bot.board import Board, Cell
from bot.game import Game, GameStatus

STATES = ("fresh", "mid", "lost", "won")


def mid_game(
    rows: int, cols: int, mines: int, seed: int, opened: float = 0.45, flags: int = 3, lost: bool = False
) -> Board:
    """A seeded mid-game position: a first opening, random safe cells opened, some correct flags.

    ``lost`` also plants one wrong flag and then opens a mine, so mines, the exploded mine and the
    wrong flag show.
    """
    return _mid(rows, cols, mines, seed, opened, flags, lost).board


def _mid(rows: int, cols: int, mines: int, seed: int, opened: float, flags: int, lost: bool) -> Game:
    rng = np.random.default_rng(seed)
    game = Game(rows, cols, mines, rule="zero", seed=seed)
    game.open((rows // 2, cols // 2))
    layout = game.layout
    assert layout is not None
    safe = [(r, c) for r in range(rows) for c in range(cols) if not layout[r, c]]
    while game.board.revealed_mask().mean() < opened and game.status is GameStatus.PLAYING:
        game.open(safe[int(rng.integers(len(safe)))])
    board = game.board
    edge = [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if layout[r, c] and any(board[n] <= Cell.EIGHT for n in board.neighbours((r, c)))
    ]
    for i in rng.permutation(len(edge))[:flags]:
        game.flag(edge[int(i)])
    if lost and game.status is GameStatus.PLAYING:
        covered = [(r, c) for r, c in game.board.covered() if not layout[r, c]]
        if covered:
            game.flag(covered[int(rng.integers(len(covered)))])
        mine = next((r, c) for r, c in game.board.covered() if layout[r, c])
        game.open(mine)
    return game


def position(state: str, rows: int, cols: int, mines: int, seed: int) -> tuple[Board, GameStatus]:
    """A board in ``state`` (fresh, mid, lost, won) and the game's status."""
    rng = np.random.default_rng([seed, 3])
    if state == "fresh":
        return Game(rows, cols, mines).board, GameStatus.PLAYING
    if state == "won":
        game = Game(rows, cols, mines, rule="zero", seed=seed)
        game.open((rows // 2, cols // 2))
        layout = game.layout
        assert layout is not None
        for r, c in zip(*np.nonzero(~layout), strict=True):
            game.open((int(r), int(c)))
        return game.board, game.status
    opened = float(rng.uniform(0.15, 0.8))
    flags = int(rng.integers(1, max(2, mines // 3)))
    game = _mid(rows, cols, mines, seed, opened, flags, lost=state == "lost")
    return game.board, game.status
