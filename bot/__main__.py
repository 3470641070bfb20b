"""``python -m bot`` is the same as ``minebot``."""

import sys

from bot.cli import main

sys.exit(main())
