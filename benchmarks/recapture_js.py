"""Re-capture JSMinesweeper settings whose board does not fit the default screen (tests/data/real).

At tile 32 and zoom 1.75 the Expert board (30 x 56 px by 16 x 56 px) needs more than the 2048x1280
screen ``capture_real.py`` uses: the page's board pane then scrolls, and its scrollbars hide the last
row and column. This runs the same capture code (same names, truth and sidecars) on a larger screen.

    python benchmarks/recapture_js.py tests/data/real/jsminesweeper --tile 32 --zoom 1.75 --seed 7
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import capture_real  # noqa: E402

import harness.xdisplay  # noqa: E402
from harness.realclients import exit_on_sigterm  # noqa: E402

LARGE_SCREEN = (2880, 1800)
"""A screen on which 30 x 16 cells of 32 px at zoom 1.75 fit with the page's header and margins."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("outdir", type=Path, help="e.g. tests/data/real/jsminesweeper")
    parser.add_argument("--tile", type=int, default=32)
    parser.add_argument("--zoom", type=float, default=1.75)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--part", action="append", choices=("expert", "small", "digits"), help="default: all")
    args = parser.parse_args(argv)
    exit_on_sigterm()
    capture_real.JS_SCREEN = LARGE_SCREEN
    # the pointer is parked in the default screen's corner, which is over this board: the page would
    # label the cell under it ("(22,12)") on every capture
    harness.xdisplay.POINTER_PARK = (LARGE_SCREEN[0] - 5, LARGE_SCREEN[1] - 5)
    parts = tuple(args.part or ("expert", "small", "digits"))
    capture_real.jsminesweeper_captures(
        args.outdir, random.Random(args.seed), settings=((args.tile, args.zoom),), parts=parts
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
