"""One module per ``minebot`` subcommand; see :mod:`bot.cli` for the contract each follows."""
