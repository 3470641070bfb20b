"""Play a bench run's seeded games on a Ray cluster: studies too big for one machine.

Same games, same result: game ``i`` still uses seed ``S + i`` and is played by
:func:`bot.bench.play_game`, so a run on any cluster gives the records one machine gives (only the
timings differ). Ray is an optional extra (``pip install minebot[ray]``), imported only here and only
when a cluster run is asked for; without it the run stops with a one-line :class:`ClusterError`.

The ``bot`` package is shipped to the cluster with the job (Ray's ``py_modules``), so the nodes need
Python, numpy and Ray but not minebot itself, and they play exactly the code of the machine that
submits the run.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.bench import BenchOptions, BenchResult, GameRecord, play_game
from bot.errors import MinebotError

LOGGER = logging.getLogger(__name__)

RAY_CHUNK = 500
"""Games per Ray task: enough that scheduling (~ms per task) is noise next to ~10 ms per game."""

LOCAL = "local"
"""The address that starts a private Ray instance on this machine (the test's cluster)."""


class ClusterError(MinebotError):
    """A cluster run could not start: Ray missing, or the cluster unreachable."""


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError(
            "a cluster run needs Ray, which is not installed: pip install 'minebot[ray]'"
        ) from None
    return ray


def _play_range(options: BenchOptions, start: int, stop: int) -> list[GameRecord]:
    """Games ``start`` .. ``stop - 1`` of the run (what one Ray task plays)."""
    return [play_game(options, i) for i in range(start, stop)]


def connect(address: str | None, workers: int = 1) -> Any:
    """The Ray module, connected: ``address`` None joins ``RAY_ADDRESS`` or a cluster started on this
    machine (Ray's own rule), :data:`LOCAL` starts a private instance with ``workers`` CPUs, anything
    else (``auto``, ``HOST:PORT``, ``ray://HOST:10001``) is passed to ``ray.init``.

    Raises:
        ClusterError: Ray is missing or the cluster cannot be reached.
    """
    ray = _import_ray()
    if ray.is_initialized():
        return ray
    package = str(Path(__file__).resolve().parent)
    kwargs: dict[str, Any] = {
        "runtime_env": {"py_modules": [package]},
        "log_to_driver": False,
        "logging_level": logging.WARNING,
    }
    if address == LOCAL:
        kwargs.update(address="local", num_cpus=workers, include_dashboard=False)
    elif address is not None:
        kwargs["address"] = address
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ClusterError(f"cannot reach the Ray cluster at {address or 'RAY_ADDRESS'}: {first}") from None
    return ray


def run_bench_ray(
    options: BenchOptions,
    address: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    chunk: int = RAY_CHUNK,
) -> BenchResult:
    """:func:`bot.bench.run_bench` with the games spread over a Ray cluster (see :func:`connect`).

    Ctrl-C cancels the tasks left and returns the games finished so far, ``interrupted`` True.
    """
    ray = connect(address, options.workers)
    started = time.monotonic()
    remote = ray.remote(_play_range)
    pending = [
        remote.remote(options, start, min(start + chunk, options.games))
        for start in range(0, options.games, chunk)
    ]
    LOGGER.info("%d games in %d Ray tasks", options.games, len(pending))
    records: list[GameRecord] = []
    interrupted = False
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                part = ray.get(ref)
                records.extend(part)
                if on_progress:
                    on_progress(len(part))
    except KeyboardInterrupt:
        interrupted = True
        LOGGER.warning("interrupted after %d games", len(records))
        for ref in pending:
            ray.cancel(ref, force=True)
    records.sort(key=lambda r: r.seed)
    return BenchResult(options, records, interrupted, time.monotonic() - started)
