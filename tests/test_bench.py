"""The bench core: Wilson intervals, seeds, parallel determinism, interruption, calibration buckets."""

import pytest

from bot.bench import BenchOptions, BenchResult, GameRecord, play_game, run_bench, sample_positions, wilson
from bot.game import FirstClickRule, find_level

BEGINNER = find_level("beginner")


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_games_are_reproducible_per_index():
    options = BenchOptions(BEGINNER, FirstClickRule.SAFE, 4, seed=100)
    a, b = play_game(options, 3), play_game(options, 3)
    assert (a.seed, a.won, a.guesses, a.guessed) == (b.seed, b.won, b.guesses, b.guessed) and a.seed == 103
    assert len(a.move_ms) >= 1


def test_parallel_run_equals_serial_run():
    serial = run_bench(BenchOptions(BEGINNER, FirstClickRule.ZERO, 24, seed=9))
    parallel = run_bench(BenchOptions(BEGINNER, FirstClickRule.ZERO, 24, seed=9, workers=2))
    assert [(r.seed, r.won, r.guesses) for r in serial.records] == [
        (r.seed, r.won, r.guesses) for r in parallel.records
    ]
    assert serial.summary()["wins"] == parallel.summary()["wins"]


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupt_keeps_the_partial_result(workers):
    seen = []

    def stop_after_some(n: int) -> None:
        seen.append(n)
        if sum(seen) >= 3:
            raise KeyboardInterrupt

    options = BenchOptions(BEGINNER, FirstClickRule.SAFE, 200, seed=1, workers=workers)
    result = run_bench(options, stop_after_some)
    assert result.interrupted and 3 <= result.games < 200
    assert result.summary()["interrupted"] is True


def test_calibration_buckets():
    options = BenchOptions(BEGINNER)
    records = [
        GameRecord(0, False, [1.0], 3, [(0.12, True), (0.14, False), (0.5, True)]),
        GameRecord(1, True, [2.0, 4.0], 1, [(0.999, True)]),
    ]
    result = BenchResult(options, records)
    rows = result.calibration()
    assert [(r["from"], r["guesses"]) for r in rows] == [(0.1, 2), (0.5, 1), (0.95, 1)]
    assert rows[0]["predicted"] == pytest.approx(0.13) and rows[0]["observed"] == 0.5
    s = result.summary()
    assert s["mean_game_ms"] == pytest.approx(3.5) and s["move_ms_max"] == 4.0 and s["guesses_per_game"] == 2
    assert s["mean_game_cpu_ms"] == 0.0  # records made by hand carry no processor time


def test_games_record_processor_time():
    result = run_bench(BenchOptions(BEGINNER, FirstClickRule.SAFE, 3, seed=4))
    assert all(r.cpu_ms > 0 for r in result.records)
    assert result.summary()["mean_game_cpu_ms"] > 0


def test_sample_positions_are_midgame():
    boards = sample_positions(BenchOptions(BEGINNER, FirstClickRule.SAFE, 3, seed=4))
    assert boards and all(not b.is_fresh() and not b.is_lost() and not b.is_won() for b in boards)


def test_no_more_workers_than_games_or_processors():
    """``--workers 10**20`` started processes until the machine gave out: the pool is capped."""
    import os

    from bot.bench import pool_size

    many = BenchOptions(BEGINNER, FirstClickRule.SAFE, 3, seed=1, workers=10**20)
    assert pool_size(many) == min(3, os.cpu_count() or 1)
    endless = BenchOptions(BEGINNER, FirstClickRule.SAFE, 10**20, seed=1, workers=10**20)
    assert pool_size(endless) == (os.cpu_count() or 1)
    assert pool_size(BenchOptions(BEGINNER, FirstClickRule.SAFE, 100, seed=1, workers=1)) == 1
