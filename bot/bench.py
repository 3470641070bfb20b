"""Play many simulated games with the solver and measure win rate, speed, guesses and calibration.

Game ``i`` of a run with seed ``S`` uses seed ``S + i`` for both the mine layout and the solver's
tie-breaks, so a result depends only on (level, rule, first click, policy, seed, games), never on
the number of worker processes. A "move" in the timings is one solver call (``choose_moves``), which
may return several certain moves at once; a game's solver time is the sum of its calls.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from bot.board import Board, Cell, Coord, neighbour_table
from bot.game import FirstClickRule, Game, Level
from bot.solver import Action, Move, Policy, choose_moves

LOGGER = logging.getLogger(__name__)

CHUNK = 20
"""Games per task handed to a worker process."""


@dataclass(frozen=True)
class BenchOptions:
    """What to benchmark."""

    level: Level
    rule: FirstClickRule = FirstClickRule.SAFE
    games: int = 1000
    seed: int = 0
    workers: int = 1
    first_click: Coord | None = None
    """Override the solver's first click (the solver's own choice when None)."""
    policy: str | Policy = "best"
    """A policy name (see :data:`bot.solver.POLICIES`) or a :class:`~bot.solver.Policy`."""
    start: str = "click"
    """How a game starts: ``click`` (the solver's first click) or ``random-zero`` (the client opens a
    random zero region by itself, as xdemineur does; the first-click rule then plays no part)."""


@dataclass
class GameRecord:
    """One played game."""

    seed: int
    won: bool
    move_ms: list[float]
    guesses: int
    guessed: list[tuple[float, bool]] = field(default_factory=list)
    """(predicted mine probability, was a mine) for each guess."""
    cpu_ms: float = 0.0
    """Processor time of the solver calls (unlike ``move_ms``, not inflated by other load)."""


@dataclass
class BenchResult:
    """Totals over the games played (fewer than asked when interrupted)."""

    options: BenchOptions
    records: list[GameRecord]
    interrupted: bool = False
    elapsed_s: float = 0.0

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> int:
        return sum(r.won for r in self.records)

    def summary(self) -> dict:
        """The JSON-ready figures (see the README's bench section)."""
        moves = np.array([t for r in self.records for t in r.move_ms]) if self.records else np.zeros(0)
        n = self.games
        lo, hi = wilson(self.wins, n)
        pct = (lambda q: float(np.percentile(moves, q))) if moves.size else (lambda q: 0.0)
        opts = self.options
        return {
            "games": n,
            "wins": self.wins,
            "win_rate": self.wins / n if n else 0.0,
            "ci95": [lo, hi],
            "mean_game_ms": float(sum(sum(r.move_ms) for r in self.records) / n) if n else 0.0,
            "mean_game_cpu_ms": float(sum(r.cpu_ms for r in self.records) / n) if n else 0.0,
            "move_ms_p50": pct(50),
            "move_ms_p99": pct(99),
            "move_ms_max": float(moves.max()) if moves.size else 0.0,
            "guesses_per_game": sum(r.guesses for r in self.records) / n if n else 0.0,
            "level": opts.level.name,
            "rows": opts.level.rows,
            "cols": opts.level.cols,
            "mines": opts.level.mines,
            "rule": opts.rule.value,
            "first_click": list(opts.first_click) if opts.first_click else None,
            "policy": opts.policy if isinstance(opts.policy, str) else opts.policy.name,
            "seed": opts.seed,
            "start": opts.start,
            "workers": opts.workers,
            "elapsed_s": self.elapsed_s,
            "interrupted": self.interrupted,
        }

    def calibration(self, width: float = 0.05) -> list[dict]:
        """Per bucket of predicted probability: guesses, mean predicted and observed mine rate."""
        buckets: dict[int, list[tuple[float, bool]]] = {}
        top = int(round(1 / width)) - 1
        for r in self.records:
            for p, mine in r.guessed:
                buckets.setdefault(min(int(p / width), top), []).append((p, mine))
        rows = []
        for b in sorted(buckets):
            items = buckets[b]
            rows.append(
                {
                    "from": round(b * width, 6),
                    "to": round((b + 1) * width, 6),
                    "guesses": len(items),
                    "predicted": sum(p for p, _ in items) / len(items),
                    "observed": sum(m for _, m in items) / len(items),
                }
            )
        return rows


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score 95% interval for a win rate (sensible near 0 and 1, unlike the normal one)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(
    options: BenchOptions, index: int, on_move: Callable[[Move, Board], None] | None = None
) -> GameRecord:
    """Play game ``index`` of the run to the end; ``on_move(move, board_after)`` sees every move."""
    lv = options.level
    seed = options.seed + index
    game = Game(lv.rows, lv.cols, lv.mines, rule=options.rule, seed=seed)
    move_ms: list[float] = []
    guessed: list[tuple[float, bool]] = []
    guesses = 0
    cpu = 0.0
    first = True
    if options.start == "random-zero":
        game.open_random_zero()
        first = False
    while not game.is_over():
        board = game.board
        start, start_cpu = time.perf_counter(), time.process_time()
        moves = choose_moves(board, lv.mines, options.rule, seed=seed, policy=options.policy)
        move_ms.append((time.perf_counter() - start) * 1000)
        cpu += time.process_time() - start_cpu
        if first and options.first_click is not None:
            fc = options.first_click
            moves = [Move(Action.OPEN, fc, 0.0, "first click: given", (fc,))]
        for move in moves:
            if move.probability > 0 and not first:
                guesses += 1
                layout = game.layout
                guessed.append((move.probability, bool(layout is not None and layout[move.cell])))
            _apply(game, move)
            first = False
            if on_move is not None:
                on_move(move, game.board)
            if game.is_over():
                break
    return GameRecord(seed, game.status.value == "won", move_ms, guesses, guessed, cpu * 1000)


def sample_positions(options: BenchOptions, every: int = 1) -> list[Board]:
    """Mid-game boards (not fresh, not over) seen while the solver plays ``options.games`` games.

    Every ``every``-th position of each game is kept: test and benchmark material from real play.
    """
    boards: list[Board] = []
    for i in range(options.games):
        seen: list[Board] = []
        play_game(options, i, lambda _move, board, seen=seen: seen.append(board))
        boards += [b for b in seen[::every] if not (b.is_lost() or b.is_won() or b.is_fresh())]
    return boards


def hard_position(
    seed: int, rows: int = 16, cols: int = 30, mines: int = 99, revealed: tuple[float, float] = (0.08, 0.35)
) -> Board:
    """A position with a large, tangled frontier: a fraction of the safe cells revealed at random.

    Mines are placed uniformly; between ``revealed[0]`` and ``revealed[1]`` of the safe cells (a
    uniform draw) show their numbers, scattered rather than grown from one opening, so the numbers
    form long chains of overlapping constraints. Real play rarely reaches such boards; they are the
    worst case for exact counting (benchmark and test material). Deterministic in ``seed``.
    """
    rng = np.random.default_rng(seed)
    size = rows * cols
    mine = np.zeros(size, dtype=bool)
    mine[rng.choice(size, mines, replace=False)] = True
    safe = np.flatnonzero(~mine)
    shown = rng.choice(safe, max(1, round(rng.uniform(*revealed) * safe.size)), replace=False)
    grid = np.full(size, Cell.COVERED, dtype=np.int8)
    nbrs = neighbour_table(rows, cols)
    for i in shown.tolist():
        grid[i] = int(mine[list(nbrs[i])].sum())
    return Board(grid.reshape(rows, cols), mines)


_OPEN, _FLAG = Action.OPEN, Action.FLAG  # bound once: enum member look-ups are slow before Python 3.12


def _apply(game: Game, move: Move) -> None:
    if move.action is _OPEN:
        game.open(move.cell)
    elif move.action is _FLAG:
        game.flag(move.cell)
    else:
        game.chord(move.cell)


def _play_chunk(task: tuple[BenchOptions, int, int]) -> list[GameRecord]:
    options, start, stop = task
    return [play_game(options, i) for i in range(start, stop)]


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunks(options: BenchOptions) -> Iterator[tuple[BenchOptions, int, int]]:
    for start in range(0, options.games, CHUNK):
        yield (options, start, min(start + CHUNK, options.games))


def pool_size(options: BenchOptions) -> int:
    """Worker processes to start: as asked, but no more than the games or the processors (a worker
    beyond either only waits; ``--workers 10**20`` must not try to start them all). The result is the
    same with any number of workers."""
    return max(1, min(options.workers, options.games, os.cpu_count() or 1))


def run_bench(options: BenchOptions, on_progress: Callable[[int], None] | None = None) -> BenchResult:
    """Play ``options.games`` games (in worker processes when ``workers > 1``).

    Ctrl-C stops cleanly: the result holds the games finished so far and ``interrupted`` is True.
    """
    started = time.monotonic()
    records: list[GameRecord] = []
    interrupted = False
    pool = None
    try:
        if options.workers <= 1:
            for i in range(options.games):
                records.append(play_game(options, i))
                if on_progress:
                    on_progress(1)
        else:
            ctx = multiprocessing.get_context("spawn")
            pool = ctx.Pool(pool_size(options), initializer=_ignore_sigint)
            for chunk in pool.imap_unordered(_play_chunk, _chunks(options)):
                records.extend(chunk)
                if on_progress:
                    on_progress(len(chunk))
            pool.close()
    except KeyboardInterrupt:
        interrupted = True
        LOGGER.warning("interrupted after %d games", len(records))
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    records.sort(key=lambda r: r.seed)
    return BenchResult(options, records, interrupted, time.monotonic() - started)
