"""Make a skin for a Minesweeper client minebot has never seen, from screenshots of it.

The board is found from the pixels alone (its cells repeat), its cells are grouped by look and each
group is labelled: covered, 0-8, flag, mine, exploded, wrong flag. Groups it is unsure of are asked
about in a terminal (a contact sheet, groups.png, shows them numbered); with --yes the sure labels
are written and the unsure groups listed, and it fails only when a state play needs is unsure (an
unsure mine, exploded mine or wrong flag only makes such cells refused later). --board FILE gives
the true board of a screenshot when the automatic labels are wrong. The skin goes to your skin
folder (or --out) with a SOURCE.md, and the screenshots are read back with it so you see how safely
it reads. States never seen (7 and 8 are rare) are listed: add
them later with --update NAME. A published sprite sheet can be read directly with --sprite-sheet.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.board import Cell
from bot.commands import count, positive
from bot.game import FirstClickRule
from calibration.interactive import ask_unsure
from calibration.pipeline import Analysis
from calibration.session import CalibrateOptions, CalibrateReport, calibrate, rare_hint
from calibration.sprites import DEFAULT_ORDER, LAYOUTS

NAME = "calibrate"
HELP = "make a skin from screenshots of a new client (or from a sprite sheet)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "shots",
        nargs="*",
        metavar="SHOT.png",
        help="screenshots of the client: files, folders of them or animated GIFs (a lost board is best)",
    )
    parser.add_argument("--name", help="name of the new skin (its folder name)")
    parser.add_argument("--out", type=Path, help="write the skin here instead of your skin folder")
    parser.add_argument(
        "--yes",
        action="store_true",
        help="ask nothing: write the sure labels, list the unsure ones, and fail only when a state play "
        "needs (covered, 0, a digit shown, flag) is unsure",
    )
    parser.add_argument(
        "--board",
        action="append",
        default=[],
        metavar="FILE",
        help="the true board of a screenshot in the text format (once per screenshot, in order): its "
        "cells label the groups, for when automatic labels are wrong",
    )
    parser.add_argument("--update", metavar="NAME", help="add states missing from an existing skin")
    parser.add_argument(
        "--rule",
        default="safe",
        choices=[r.value for r in FirstClickRule],
        help="the client's first-click rule, stored in the skin (default: safe)",
    )
    sheet = parser.add_argument_group("sprite sheets")
    sheet.add_argument("--sprite-sheet", metavar="FILE", help="read the tiles from one published skin image")
    sheet.add_argument(
        "--cell-size", type=positive, help="tile size in the sheet, in px (16 for Minesweeper X)"
    )
    sheet.add_argument(
        "--layout",
        default="msx",
        choices=LAYOUTS,
        help="msx: Minesweeper X/Arbiter sheet; row: one row of tiles",
    )
    sheet.add_argument(
        "--order", default=DEFAULT_ORDER, help=f"tile names left to right for --layout row ({DEFAULT_ORDER})"
    )
    live = parser.add_argument_group("live screen")
    live.add_argument("--live", action="store_true", help="calibrate from the screen now instead of files")
    live.add_argument(
        "--play-to-learn",
        action="store_true",
        help="with --live: open cells of a fresh game to see more states",
    )
    live.add_argument(
        "--clicks", type=count, default=12, help="most cells --play-to-learn opens (default 12)"
    )
    live.add_argument("--seed", type=count, default=0, help="seed for the cells --play-to-learn picks")


def _options(args: argparse.Namespace) -> CalibrateOptions:
    return CalibrateOptions(
        shots=list(args.shots),
        name=args.name,
        out=args.out,
        update=args.update,
        rule=args.rule,
        sprite_sheet=args.sprite_sheet,
        cell_size=args.cell_size,
        layout=args.layout,
        order=args.order,
        live=args.live,
        play_to_learn=args.play_to_learn,
        clicks=args.clicks,
        seed=args.seed,
        boards=list(args.board),
    )


def _live_images(options: CalibrateOptions) -> list:
    from bot.capture import open_capture
    from calibration.live import live_images

    with open_capture("mss") as capture:
        if not options.play_to_learn:
            return live_images(capture)
        from bot.input import open_input

        with open_input("pyautogui") as clicker:
            return live_images(capture, clicker, options.clicks, options.seed)


def _print_report(report: CalibrateReport) -> None:
    print(f"skin {report.name!r} written to {report.skin_path}")
    for note in report.notes:
        print(f"  note: {note}")
    for line in report.left_out:
        print(f"  left out (unsure; such cells will be refused, not guessed): {line}")
    if report.missing:
        print(f"not seen yet, so not readable: {', '.join(report.missing)}")
        hint = rare_hint(report.missing, report.name)
        if hint:
            print(hint)
    else:
        print("every cell state has a template")
    for rb in report.readback:
        if rb.error:
            print(f"read-back {rb.name}: NOT READABLE with this skin: {rb.error}")
            continue
        verdict = "safe to play" if rb.safe else "CHECK"
        refused = f", {len(rb.left_out)} left-out cell(s) refused" if rb.left_out else ""
        print(
            f"read-back {rb.name}: confidence margin min {rb.min_margin:.2f}, median {rb.median_margin:.2f}, "
            f"{len(rb.uncertain)} uncertain, {len(rb.disagree)} read differently{refused}: {verdict}"
        )


def run(args: argparse.Namespace) -> int:
    options = _options(args)
    if options.play_to_learn and not options.live:
        print("minebot calibrate: --play-to-learn needs --live", file=sys.stderr)
        return 2
    interactive = not args.yes and sys.stdin.isatty()

    def ask(analysis: Analysis, sheet: Path) -> dict[int, Cell | None]:
        return ask_unsure(analysis, sheet, input, print)

    images = _live_images(options) if options.live else None
    report = calibrate(options, ask if interactive else None, images)
    if report.groups:
        print(f"cell groups (contact sheet: {report.contact_sheet}):")
        for line in report.groups:
            print(f"  {line}")
    _print_report(report)
    return 0
