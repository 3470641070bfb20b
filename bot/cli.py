"""The ``minebot`` command line: argparse subcommands, each a module in ``bot/commands/``.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``;
it parses, calls the core and prints. Errors are caught here, in one place: a
:class:`~bot.errors.MinebotError` prints its message to stderr and exits 1; usage errors exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from bot import __version__
from bot.errors import MinebotError

COMMANDS: tuple[str, ...] = (
    "solve",
    "bench",
    "dry_run",
    "record",
    "play",
    "calibrate",
)
"""Command modules under ``bot.commands``, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="minebot",
        description="A Minesweeper bot that reads the screen, solves, and clicks. "
        "Run 'minebot COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"minebot {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMANDS:
        try:
            module = importlib.import_module(f"bot.commands.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"bot.commands.{module_name}":
                continue  # not built yet
            raise
        command = sub.add_parser(module.NAME, help=module.HELP, description=module.__doc__)
        module.add_arguments(command)
        command.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 minebot error, 2 usage error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    level = logging.WARNING - 10 * min(args.verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    try:
        return int(args._run(args) or 0)
    except MinebotError as exc:
        print(f"minebot {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"minebot {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
