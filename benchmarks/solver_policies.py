"""Compare guess-policy variants on the same seeds (how each policy change was measured before keeping it).

Usage: python benchmarks/solver_policies.py [--level expert] [--rule safe] [--games 2000] [--seed 5000]
                                            [--workers 2] [VARIANT ...]

A variant is NAME or NAME:key=value,key=value over :class:`bot.solver.Policy` fields, e.g.
``best``, ``fast``, ``best:tolerance=0.05,max_candidates=8``, ``best:endgame=false``. Every variant
plays the same games (seed S+i for game i), so differences come from the policy, not the luck of the
deal. Prints one JSON line per variant; every variant after the first also gets ``paired``: the games
whose outcome differs from the first variant's, won by this one (``gained``) or by the first (``lost``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json

from bot.bench import BenchOptions, run_bench
from bot.game import find_level, find_rule
from bot.solver import Policy, find_policy


def parse_variant(text: str) -> Policy:
    """``best:tolerance=0.05`` -> the best policy with that field changed."""
    name, _, fields = text.partition(":")
    policy = find_policy(name)
    changes: dict[str, object] = {}
    for item in filter(None, fields.split(",")):
        key, _, value = item.partition("=")
        kind = type(getattr(policy, key))
        changes[key] = value.lower() in ("1", "true", "yes") if kind is bool else kind(value)
    return dataclasses.replace(policy, name=text, **changes) if changes else policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=["best", "fast"])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    baseline: dict[int, bool] | None = None
    for text in args.variants:
        policy = parse_variant(text)
        options = BenchOptions(
            find_level(args.level), find_rule(args.rule), args.games, args.seed, args.workers, policy=policy
        )
        result = run_bench(options)
        summary = result.summary()
        won = {r.seed: r.won for r in result.records}
        if baseline is None:
            baseline = won
        else:
            summary["paired"] = paired(baseline, won)
        print(json.dumps(summary), flush=True)


def paired(baseline: dict[int, bool], other: dict[int, bool]) -> dict[str, int]:
    """Games (by seed, both played) whose outcome differs: won only by ``other`` or only by ``baseline``."""
    both = baseline.keys() & other.keys()
    return {
        "games": len(both),
        "gained": sum(other[s] and not baseline[s] for s in both),
        "lost": sum(baseline[s] and not other[s] for s in both),
    }


if __name__ == "__main__":
    main()
