"""Compare guess-policy variants on the same seeds (how each policy change was measured before keeping it).

Usage: python benchmarks/solver_policies.py [--level expert] [--rule safe] [--games 2000] [--seed 5000]
                                            [--workers 2] [VARIANT ...]

A variant is NAME or NAME:key=value,key=value over :class:`bot.solver.Policy` fields, e.g.
``best``, ``fast``, ``best:tolerance=0.05,max_candidates=8``, ``best:endgame=false``. Every variant
plays the same games (seed S+i for game i), so differences come from the policy, not the luck of the
deal. Prints one JSON line per variant; every variant after the first also gets ``paired``: the games
whose outcome differs from the first variant's, won by this one (``gained``) or by the first (``lost``).
With ``--save FILE`` each variant's outcome per seed is appended to FILE (one JSON line per variant),
and ``--against FILE`` takes the first variant's outcomes from such a file instead of playing it
again (it must hold the same level, rule and seeds).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

# this checkout's bot before any installed one (a worktree's script must not measure another tree)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
    parser.add_argument("--save", help="append each variant's per-seed outcomes to this file")
    parser.add_argument("--against", help="take the baseline's per-seed outcomes from this --save file")
    args = parser.parse_args()
    baseline: dict[int, bool] | None = None
    if args.against:
        baseline = load_outcomes(args.against, args.variants[0], args.level, args.rule)
        args.variants = args.variants[1:]
    for text in args.variants:
        policy = parse_variant(text)
        options = BenchOptions(
            find_level(args.level), find_rule(args.rule), args.games, args.seed, args.workers, policy=policy
        )
        result = run_bench(options)
        summary = result.summary()
        won = {r.seed: r.won for r in result.records}
        if args.save:
            with open(args.save, "a", encoding="utf-8") as out:
                record = {"variant": text, "level": args.level, "rule": args.rule, "won": won}
                out.write(json.dumps(record) + "\n")
        if baseline is None:
            baseline = won
        else:
            summary["paired"] = paired(baseline, won)
        print(json.dumps(summary), flush=True)


def load_outcomes(path: str, variant: str, level: str, rule: str) -> dict[int, bool]:
    """The per-seed outcomes of ``variant`` on ``level`` / ``rule`` saved by ``--save`` (its last line)."""
    found = None
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if (record["variant"], record["level"], record["rule"]) == (variant, level, rule):
                found = {int(seed): won for seed, won in record["won"].items()}
    if found is None:
        raise SystemExit(f"{path}: no saved outcomes of {variant!r} on {level} / {rule}")
    return found


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
