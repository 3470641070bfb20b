"""The ``minebot`` command line: argparse subcommands, each a module in ``bot/commands/``.

Each command module defines ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``;
it parses, calls the core and prints. :data:`COMMANDS` repeats each name and one-line help, so
``minebot --help`` lists every command without importing any of them: only the command being run is
imported (``minebot solve`` never loads OpenCV, ``minebot --help`` loads nothing heavy). Errors are
caught here, in one place, and said in one line on stderr, never as a traceback: a
:class:`~bot.errors.MinebotError` or a file the system refused exits 1, usage errors (argparse's, and
:class:`~bot.errors.UsageError`) exit 2; the error's
class name shows only with ``-v`` (and a fault's traceback only with ``-vv``).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from bot import __version__
from bot.errors import MinebotError, UsageError

LOGGER = logging.getLogger("bot.cli")


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
    handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(levelname)s %(name)s: %(message)s")
        if args.verbose
        else PlainFormatter(args.command)
    )
    logging.basicConfig(level=level, handlers=[handler])
    try:
        return int(args._run(args) or 0)
    except MinebotError as exc:
        print(error_line(args.command, exc, args.verbose), file=sys.stderr)
        return 2 if isinstance(exc, UsageError) else 1
    except KeyboardInterrupt:
        print(f"minebot {args.command}: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:  # a file or folder the system refused: said as the system says it
        print(error_line(args.command, exc, args.verbose, os_words(exc)), file=sys.stderr)
        return 1
    except Exception as exc:  # a fault of minebot's own: said in words, the traceback only with -vv
        LOGGER.debug("the fault, where it happened:", exc_info=True)
        said = " ".join(str(exc).split())  # one line, whatever the library put in its message
        words = f"minebot failed unexpectedly ({said}); please report it with the output of 'minebot -vv ...'"
        print(error_line(args.command, exc, args.verbose, words), file=sys.stderr)
        return 1


class PlainFormatter(logging.Formatter):
    """A log line as a user reads it: ``minebot COMMAND: warning: ...`` (the module's name only with -v)."""

    def __init__(self, command: str) -> None:
        super().__init__()
        self.command = command

    def format(self, record: logging.LogRecord) -> str:
        return f"minebot {self.command}: {record.levelname.lower()}: {record.getMessage()}"


def os_words(exc: OSError) -> str:
    """An operating-system error in words: what it said and about which file ("Permission denied: 'x'")."""
    words = exc.strerror or str(exc)
    names = [name for name in (exc.filename, exc.filename2) if name is not None]
    return f"{words}: {' -> '.join(repr(str(name)) for name in names)}" if names else words


def error_line(command: str, exc: BaseException, verbose: int, words: str | None = None) -> str:
    """The one line an error is reported in: the words (the exception's message unless given), and the
    exception's class name only when asked for more output (``-v``)."""
    said = str(exc) if words is None else words
    return f"minebot {command}: error: " + (f"{type(exc).__name__}: {said}" if verbose else said)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
