"""The ``minebot`` command line: argparse subcommands, each a module in ``bot/commands/``.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``;
it parses, calls the core and prints. :data:`COMMANDS` repeats each name and one-line help, so
``minebot --help`` lists every command without importing any of them: only the command being run is
imported (``minebot solve`` never loads OpenCV, ``minebot --help`` loads nothing heavy). Errors are
caught here, in one place: a :class:`~bot.errors.MinebotError` prints its message to stderr and exits
1; usage errors exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from bot import __version__
from bot.errors import MinebotError


@dataclass(frozen=True)
class Command:
    """A subcommand as ``--help`` lists it: its name, its module under ``bot.commands``, its one-line help."""

    name: str
    module: str
    help: str


COMMANDS: tuple[Command, ...] = (
    Command("solve", "solve", "show a board's mine probabilities and the solver's move"),
    Command("bench", "bench", "play simulated games and measure the solver's win rate and speed"),
    Command("dry-run", "dry_run", "read screenshots and show the board, status and move (no clicking)"),
    Command("record", "record", "save the live screen as numbered PNGs for later dry-runs"),
    Command("play", "play", "play a Minesweeper window (or the built-in simulated client)"),
    Command(
        "calibrate", "calibrate", "make a skin from screenshots of a new client (or from a sprite sheet)"
    ),
)
"""Every subcommand, in ``--help`` order (a test checks each matches its module's NAME and HELP)."""


def chosen_command(argv: Sequence[str]) -> Command | None:
    """The subcommand named in ``argv``: the first word that is not a global option (these take no value)."""
    for word in argv:
        if not word.startswith("-"):
            return next((command for command in COMMANDS if command.name == word), None)
    return None


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser, with the options of the one command named in ``argv`` (only its module is imported)."""
    parser = argparse.ArgumentParser(
        prog="minebot",
        description="A Minesweeper bot that reads the screen, solves, and clicks. "
        "Run 'minebot COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"minebot {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = chosen_command(argv)
    for command in COMMANDS:
        if command is not chosen:
            sub.add_parser(command.name, help=command.help)
            continue
        module = importlib.import_module(f"bot.commands.{command.module}")
        parser_of_command = sub.add_parser(command.name, help=command.help, description=module.__doc__)
        module.add_arguments(parser_of_command)
        parser_of_command.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 1 minebot error, 2 usage error)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
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
