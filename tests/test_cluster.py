"""``minebot bench --ray``: the same seeded games on a Ray cluster give the same result as on one machine."""

from __future__ import annotations

import sys

import pytest

from bot.bench import BenchOptions, run_bench
from bot.cli import main
from bot.cluster import LOCAL, ClusterError, connect
from bot.game import find_level


def _outcomes(result) -> list[tuple[int, bool, int, list[tuple[float, bool]]]]:
    return [(r.seed, r.won, r.guesses, r.guessed) for r in result.records]


@pytest.mark.slow
def test_a_local_ray_instance_plays_the_games_one_machine_plays():
    ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'minebot[ray]'")
    from bot.cluster import run_bench_ray

    options = BenchOptions(find_level("beginner"), games=45, seed=321, workers=2)
    try:
        spread = run_bench_ray(options, LOCAL, chunk=10)  # five tasks, finishing in any order
    finally:
        ray.shutdown()
    alone = run_bench(BenchOptions(find_level("beginner"), games=45, seed=321))
    assert spread.games == 45 and not spread.interrupted
    assert _outcomes(spread) == _outcomes(alone)
    same = {k: v for k, v in spread.summary().items() if "ms" not in k and k not in ("elapsed_s", "workers")}
    assert same == {k: alone.summary()[k] for k in same}


def test_without_ray_a_cluster_run_stops_with_one_line_saying_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError, as when it is not installed
    with pytest.raises(ClusterError, match=r"pip install 'minebot\[ray\]'"):
        connect(LOCAL)
    assert main(["bench", "--level", "beginner", "--games", "2", "--ray", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "minebot bench: error: a cluster run needs Ray, which is not installed: pip install 'minebot[ray]'"
    ]
