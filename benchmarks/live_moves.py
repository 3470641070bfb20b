"""Play a real client under Xvfb while its window is dragged to a random place every few seconds.

Checks what the play loop does when a user moves the window mid-game: it must find the board again
and go on, never click outside the board as located at that moment, and lose no game to a click that
landed on another cell. A loss whose exploded cell minebot never meant to click is counted as a
misplaced click (a window moved between the last look and the click). Exit status 1 on any error,
click outside, misplaced click, or when the window was never moved. Games lost in their first second
end before any move, so the run plays on (up to five times ``--games``) until the window has moved.

    python benchmarks/live_moves.py --client xdemineur --games 6 --every 1.2
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.agent import Player, PlayOptions  # noqa: E402
from bot.board import Cell, Coord  # noqa: E402
from bot.capture import MssCapture  # noqa: E402
from bot.errors import MinebotError  # noqa: E402
from bot.game import find_level  # noqa: E402
from harness.realclients import CLIENTS, VirtualDisplay, xdotool  # noqa: E402


def mover(display: VirtualDisplay, client: object, every: float, seed: int, stop: threading.Event) -> list:
    """Drag the client's window to a random place every ``every`` seconds until ``stop``."""
    rng, moves = random.Random(seed), []

    def run() -> None:
        while not stop.wait(every):
            x, y = rng.randint(0, 900), rng.randint(0, 500)
            window = client._window  # type: ignore[attr-defined]
            if window is None:  # the client is restarting for a new game
                continue
            try:
                xdotool(display, "windowmove", str(window[0]), str(x), str(y))
            except MinebotError:  # the window closed between the look and the move
                continue
            moves.append((x, y))

    threading.Thread(target=run, daemon=True).start()
    return moves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--client", choices=sorted(CLIENTS), default="xdemineur")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--every", type=float, default=1.2, help="seconds between window moves")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    lv = find_level("expert")
    misplaced = outside = errors = wins = relocations = 0
    with VirtualDisplay() as vd:
        os.environ["DISPLAY"] = vd.display  # pyautogui binds to $DISPLAY when first imported
        from bot.input import PyAutoGuiInput

        meant: list[Coord | None] = []
        stray: list[tuple[int, int]] = []

        class Checked(PyAutoGuiInput):
            """Notes the cell each click is meant for, and clicks outside the board as located."""

            def _click(self, x: int, y: int, button: str) -> None:
                self._note(x, y)
                super()._click(x, y, button)

            def _guarded_click(self, x, y, action, expect, look, park=None):  # type: ignore[no-untyped-def]
                sent = super()._guarded_click(x, y, action, expect, look, park)
                if sent and self.holds_screen:  # a held click does not go through _click
                    self._note(x, y)
                return sent

            def _note(self, x: int, y: int) -> None:
                g = player.geometry
                assert g is not None
                meant.append(g.cell_at(x, y))
                if not g.region().contains(x, y) and not (g.face and g.face.contains(x, y)):
                    stray.append((x, y))

        size = (lv.rows, lv.cols, lv.mines)
        client_cls = CLIENTS[args.client]
        client = client_cls(vd, size) if args.client == "winemine" else client_cls(vd, *size)
        with client, MssCapture(display=vd.display) as capture, Checked() as mouse:
            options = PlayOptions(mines=lv.mines, skin=client.skin_name)
            player = Player(capture, mouse, options, restart=client.restart)
            stop = threading.Event()
            moves = mover(vd, client, args.every, args.seed, stop)
            index = 0
            while index < args.games or (not moves and index < 5 * args.games):
                if index:
                    player.new_game()
                meant.clear()
                result = player.play_game(index)
                exploded = []
                if result.status == "lost" and player._last_board is not None:
                    board = player._last_board
                    exploded = board.cells_where(board.cells == Cell.EXPLODED)
                    misplaced += bool(exploded) and not any(cell in meant for cell in exploded)
                wins += result.won
                errors += result.error is not None
                relocations += result.relocations
                print(
                    f"game {index}: {result.status}, {result.clicks} clicks, {result.guesses} guesses, "
                    f"{result.relocations} relocations, {result.covered_seconds:.1f} s recovering"
                    + (f", exploded {exploded}" if exploded else "")
                    + (f", error: {result.error}" if result.error else ""),
                    flush=True,
                )
                index += 1
            stop.set()
            outside = len(stray)
    print(
        f"{args.client}: {wins}/{index} won, {len(moves)} window moves, {relocations} relocations, "
        f"{errors} errors, {outside} clicks outside the located board, {misplaced} losses on a cell "
        "never meant (a move raced a click)"
    )
    return 0 if not errors and not outside and not misplaced and moves else 1


if __name__ == "__main__":
    sys.exit(main())
