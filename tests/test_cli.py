"""The ``minebot`` entry point: global options, the command table, usage errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import __version__
from bot.cli import COMMANDS, chosen_command, main

BOARD = Path(__file__).resolve().parent / "data" / "boards" / "midgame.txt"


def test_no_command_prints_the_help_and_exits_2(capsys):
    assert main([]) == 2
    out = capsys.readouterr().out
    assert out.startswith("usage: minebot") and all(command.name in out for command in COMMANDS)


def test_the_command_is_the_first_word_that_is_not_a_global_option():
    assert chosen_command(["-v", "-v", "solve", "play"]).module == "solve"
    assert chosen_command(["--verbose", "dry-run", "x.png"]).module == "dry_run"
    assert chosen_command(["--version"]) is None and chosen_command(["nope", "solve"]) is None


def test_global_options_go_before_the_command(capsys):
    assert main(["-vv", "solve", str(BOARD)]) == 0
    assert "move:" in capsys.readouterr().out.lower()


def test_version_and_unknown_commands(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.strip() == f"minebot {__version__}"
    with pytest.raises(SystemExit) as info:
        main(["solvee"])
    assert info.value.code == 2 and "invalid choice: 'solvee'" in capsys.readouterr().err


def test_a_command_help_shows_its_own_options(capsys):
    with pytest.raises(SystemExit) as info:
        main(["dry-run", "--help"])
    out = capsys.readouterr().out
    assert info.value.code == 0 and "--annotate DIR" in out and "usage: minebot dry-run" in out
