"""Windows 7 Minesweeper screenshots, read as a user's would be: frames exact, refused, wrong cells.

Plays the linux-minesweeper recreation (harness.win7) at Advanced (30x16/99) in every look it offers
(blue and green boards, with mines or flowers), at three window sizes, and captures every state: the
fresh board, two mid-game boards, a board with flags, the lost board after the mine cascade and the won
board (the end dialog moved off the board first, the pointer parked off it). Each capture is saved with
the client's own truth (``NAME.png`` + ``NAME.json``), then read by ``read_screen(image, SKIN)`` exactly
as ``minebot dry-run --skin auto`` reads it, and compared cell by cell. A reading whose grid is not the
client's grid counts every cell as wrong.

    python benchmarks/win7_bench.py [--out /tmp/win7bench] [--skin auto] [--read-only] [--games 1]

``--read-only`` re-reads the frames already in ``--out`` (no client needed). The moves that make the
states come from the truth (never from minebot), chosen with a seeded random generator.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from collections import Counter
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bot.board import Board, Cell, Coord  # noqa: E402
from bot.errors import MinebotError  # noqa: E402
from bot.geometry import Geometry  # noqa: E402
from harness.realclients import ClientError, VirtualDisplay, exit_on_sigterm, screenshot, xdotool  # noqa: E402
from harness.win7 import LOOKS, Win7Minesweeper, truth_board  # noqa: E402

LOGGER = logging.getLogger("win7_bench")
SIZES = ((599, 369), (1000, 620), (1500, 950))
"""Window sizes: the client's own Advanced size (18 px cells), 30 px and 45 px cells."""


def look_name(theme: str, flowers: bool) -> str:
    return f"{theme}-{'flowers' if flowers else 'mines'}"


def save(out: Path, name: str, game: Win7Minesweeper, data: dict) -> None:
    """The screen and the client's truth for it."""
    out.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out / f"{name}.png"), screenshot(game.display))
    g = game.board_geometry(data)
    meta = {"truth": data, "geometry": [g.left, g.top, g.pitch_x, g.pitch_y, g.rows, g.cols]}
    (out / f"{name}.json").write_text(json.dumps(meta))


def click_many(game: Win7Minesweeper, cells: list[Coord], geometry: Geometry) -> None:
    """Left-click many cells in one xdotool call (fast), then wait until the board settles."""
    args: list[str] = []
    for cell in cells:
        x, y = geometry.cell_center(cell)
        args += ["mousemove", str(x), str(y), "click", "1"]
    before = game.wait_final()
    if args:
        xdotool(game.display, *args, "mousemove", "1595", "995")
    game.wait_final(before=before)


def safe_covered(game: Win7Minesweeper) -> tuple[list[Coord], set[Coord], Board]:
    board, _ = game.truth()
    mines = game.mine_positions()
    safe = [c for c in board if board[c] == Cell.COVERED and c not in mines]
    return safe, mines, board


def start_game(game: Win7Minesweeper, tries: int = 3) -> None:
    """Open the middle cell of a fresh board, starting the board again with F2 when the click did not
    take (after "Play again" the window may ignore clicks for a while under load)."""
    for _ in range(tries):
        game.open((game.rows // 2, game.cols // 2))
        if game.wait_final().get("started"):
            return
        LOGGER.info("the first click did not take: F2 and again")
        wid, _ = game.window_id_region()
        xdotool(game.display, "windowactivate", "--sync", str(wid))
        xdotool(game.display, "key", "--window", str(wid), "F2")
        game.wait_final()
    raise ClientError("the win7 window takes no clicks")


def play_states(game: Win7Minesweeper, out: Path, prefix: str, rng: random.Random) -> None:
    """Fresh, two mid-game boards, flags, lost; then a new game played to a win."""
    geometry = game.board_geometry()
    save(out, f"{prefix}-0fresh", game, game.wait_final())
    start_game(game)
    for step in (1, 2):
        safe, mines, board = safe_covered(game)
        click_many(game, rng.sample(safe, min(len(safe), 6 * step)), geometry)
        save(out, f"{prefix}-{step}mid", game, game.wait_final())
    safe, mines, board = safe_covered(game)
    near = [m for m in sorted(mines) if any(board[n].is_number() for n in board.neighbours(m))]
    for mine in rng.sample(near, min(len(near), 8)):
        game.flag(mine)
    save(out, f"{prefix}-3flags", game, game.wait_final())
    unflagged = sorted(m for m in mines if game.truth()[0][m] == Cell.COVERED)
    game.open(rng.choice(unflagged))
    game.wait_dialog()
    game.move_dialog_off_board()
    save(out, f"{prefix}-4lost", game, game.wait_final())
    game.restart()
    start_game(game)
    for _ in range(200):  # clicks sent while a flood still ripples may be lost: the rest go again
        safe, _, _ = safe_covered(game)
        if not safe:
            break
        click_many(game, rng.sample(safe, min(len(safe), 25)), geometry)
    data = game.wait_final()
    if data.get("state") != "won":
        left = len(safe_covered(game)[0])
        raise ClientError(f"no win: the client says {data.get('state')!r}, {left} safe cells left")
    game.wait_dialog()
    game.move_dialog_off_board()
    save(out, f"{prefix}-5won", game, game.wait_final())
    game.restart()


def capture(out: Path, games: int, looks: list[str]) -> None:
    """Every look, size and state, ``games`` times, each look on its own client."""
    with VirtualDisplay() as vd:
        for theme, flowers in LOOKS:
            if looks and look_name(theme, flowers) not in looks:
                continue
            with Win7Minesweeper(vd, theme=theme, flowers=flowers, seed=7) as game:
                for width, height in SIZES:
                    if (width, height) != (599, 369):
                        game.resize(width, height)
                    for index in range(games):
                        prefix = f"{look_name(theme, flowers)}-{width}x{height}-g{index}"
                        started = time.monotonic()
                        try:
                            play_states(game, out, prefix, random.Random(f"{prefix}"))
                        except ClientError as exc:  # a slow machine: the states so far are kept
                            LOGGER.warning("%s: %s; going on with a new game", prefix, exc)
                            try:
                                game.restart()
                            except ClientError as again:
                                LOGGER.warning("%s: no new game (%s); next look", prefix, again)
                                break
                            continue
                        LOGGER.info("%s captured in %.1f s", prefix, time.monotonic() - started)


def compare(png: Path, skin: str) -> tuple[str, int, str]:
    """One frame: ("exact" | "refused" | "wrong", wrong cells, reason)."""
    from bot.vision import read_screen

    meta = json.loads(png.with_suffix(".json").read_text())
    truth, status = truth_board(meta["truth"])
    left, top, px, py, rows, cols = meta["geometry"]
    image = cv2.imread(str(png))
    try:
        reading = read_screen(image, skin, truth.mines)
    except MinebotError as exc:
        return "refused", 0, f"{type(exc).__name__}: {exc}"[:160]
    g = reading.geometry
    if (reading.board.rows, reading.board.cols) != (rows, cols) or max(
        abs(g.left - left), abs(g.top - top), 2 * abs(g.pitch_x - px), 2 * abs(g.pitch_y - py)
    ) > px / 2:
        return "wrong", rows * cols, f"grid {g} is not the client's"
    wrong = [c for c in truth if reading.board[c] != truth[c]]
    if reading.status.value != status:
        return "wrong", len(wrong), f"status {reading.status.value}, truth {status}"
    if wrong:
        shown = ", ".join(f"{c}: {reading.board[c].name} not {truth[c].name}" for c in wrong[:3])
        return "wrong", len(wrong), shown
    return "exact", 0, ""


def read_all(out: Path, skin: str) -> tuple[dict[str, Counter[str]], Counter[str]]:
    """Read every saved frame: counts (frames, exact, refused, wrong frames, wrong cells) per look, size,
    state and in total, and the refusals' reasons."""
    tallies: dict[str, Counter[str]] = {}
    reasons: Counter[str] = Counter()
    for png in sorted(out.glob("*.png")):
        theme, style, size, _, state = png.stem.split("-")
        outcome, cells, reason = compare(png, skin)
        LOGGER.info("%s: %s %s", png.name, outcome, reason)
        for key in ("all", f"look {theme}-{style}", f"size {size}", f"state {state[1:]}"):
            tally = tallies.setdefault(key, Counter())
            tally.update(frames=1, wrong_cells=cells, **{outcome: 1})
        if reason:
            reasons[reason.split(":")[0][:60]] += 1
    return tallies, reasons


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("/tmp/win7bench"))
    parser.add_argument("--skin", default="auto")
    parser.add_argument("--games", type=int, default=1, help="games per look and size")
    parser.add_argument("--look", action="append", default=[], help="only this look (blue-mines, ...)")
    parser.add_argument("--read-only", action="store_true", help="re-read the frames already saved")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    exit_on_sigterm()  # a SIGTERM stops the client and the display it started
    if not args.read_only:
        capture(args.out, args.games, args.look)
    tallies, reasons = read_all(args.out, args.skin)
    print(f"{'group':24} frames exact refused wrong-frames wrong-cells")
    for key, t in tallies.items():
        counts = (t["frames"], t["exact"], t["refused"], t["wrong"], t["wrong_cells"])
        print(f"{key:24} " + " ".join(f"{n:{w}}" for n, w in zip(counts, (6, 5, 7, 12, 11), strict=True)))
    total = tallies.get("all", Counter())
    if total["frames"]:
        print(
            f"exact {100 * total['exact'] / total['frames']:.1f}%  refused {total['refused']}  wrong cells "
            f"{total['wrong_cells']}"
        )
        for reason, count in reasons.most_common(8):
            print(f"  {count:3}x {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
