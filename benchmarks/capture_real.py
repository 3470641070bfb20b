"""Reproduce the real-client captures in tests/data/real/: screenshots of winemine and xdemineur with truth.

Each capture is ``NAME.png`` (the whole Xvfb screen) plus ``NAME.txt``: the board in the text format of
bot/board.py with ``# mines``, ``# status``, ``# board: x y w h`` (cell grid rect) and ``# pitch`` lines.
Boards are read with the client's skin (templates/winemine, templates/xdemineur: labelled by eye from
the ``cluster`` contact sheets) by exact pixel match, so an unknown cell stops the run instead of
being guessed, and each board is checked for consistency (after a loss every number equals its
count of mines). Games are played by simple deductions from what the screen shows plus seeded
guesses; the clients' own mine layouts are not seeded, so each run gives new pictures.

    python benchmarks/capture_real.py capture tests/data/real --seed 1
    python benchmarks/capture_real.py cluster tests/data/real/winemine sheet.png
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.board import Board, Cell, Coord  # noqa: E402
from bot.errors import RecognitionError  # noqa: E402
from bot.geometry import Geometry  # noqa: E402
from bot.skin import TEMPLATES_DIR, Skin, load_skin  # noqa: E402
from harness.realclients import RealClient, VirtualDisplay, WineMine, XDemineur  # noqa: E402

LOGGER = logging.getLogger(__name__)
CAPTURE_SCREEN = (800, 600)
"""Captures use a small screen: every board fits and the PNGs stay small."""
SEEN: dict[str, set[Cell]] = {}
"""Cell states the captures of this run show so far, by skin: the dense games fill the gaps."""


def missing_states(skin: Skin) -> set[Cell]:
    """Templated states no capture of this run has shown yet."""
    return set(skin.cells) - SEEN.get(skin.name, set())


def capture_missing(session: Session, folder: Path, cell: Coord, tries: int = 200) -> None:
    """Open ``cell`` in fresh dense games until every templated state has shown up in a capture."""
    for _ in range(tries):
        missing = missing_states(session.skin)
        if not missing:
            return
        session.game.open(cell)
        try:
            board = session.board()
        except RecognitionError as exc:  # a cell no template matches: never guess, try another game
            LOGGER.warning("skipping a game: %s", exc)
            session.game.restart()
            continue
        if not board.is_lost() and board[cell] in missing:
            save_capture(session, folder, f"dense_{int(board[cell])}", "playing")
        session.game.restart()
    raise RecognitionError(f"states never captured: {sorted(c.name for c in missing)}")


def capture_high_numbers(session: Session, folder: Path, wanted: set[Cell], tries: int = 600) -> None:
    """Open inner cells of very dense games until a loss, until lost boards have shown every ``wanted``.

    6, 7 and 8 need that many mines around an opened cell: at about 7/8 density one game in ten or
    so opens one before it hits a mine, and the lost board then shows all the mines around it.
    """
    rows, cols = session.game.rows, session.game.cols
    for _ in range(tries):
        missing = wanted & missing_states(session.skin)
        if not missing:
            return
        _, board, status = session.look()
        while status == "playing":
            covered = board.covered()
            inner = [c for c in covered if 0 < c[0] < rows - 1 and 0 < c[1] < cols - 1]
            session.game.open(session.rng.choice(inner or covered))
            _, board, status = session.look()
        shown = sorted(int(c) for c in missing if (board.cells == c).any())
        if status == "lost" and shown:
            save_capture(session, folder, "dense_lost_" + "".join(map(str, shown)), "lost")
        session.game.restart()
    raise RecognitionError(f"states never captured: {sorted(c.name for c in missing)}")


def cell_crops(image: np.ndarray, geometry: Geometry) -> dict[Coord, np.ndarray]:
    """Each cell's pitch x pitch crop, starting at the cell origin."""
    crops = {}
    for r in range(geometry.rows):
        for c in range(geometry.cols):
            rect = geometry.cell_rect((r, c))
            crops[(r, c)] = image[rect.top : rect.bottom, rect.left : rect.right]
    return crops


def read_board(image: np.ndarray, geometry: Geometry, skin: Skin, mines: int) -> Board:
    """The board on a screenshot by exact match of every cell to the skin's templates.

    Raises:
        RecognitionError: naming the first cell that matches no template exactly.
    """
    lookup = {template.tobytes(): cell for cell, template in skin.cells.items()}
    board = Board.new(geometry.rows, geometry.cols, mines)
    for coord, crop in cell_crops(image, geometry).items():
        found = lookup.get(np.ascontiguousarray(crop).tobytes())
        if found is None:
            raise RecognitionError(f"cell {coord} matches no {skin.name} template", cell=coord)
        board[coord] = found
    return board


def read_status(image: np.ndarray, geometry: Geometry, skin: Skin) -> str | None:
    """The face on screen (playing, won, lost), or ``None`` if it matches no face template."""
    face = geometry.face
    assert face is not None
    crop = image[face.top : face.bottom, face.left : face.right]
    return next((name for name, tpl in skin.faces.items() if np.array_equal(tpl, crop)), None)


def deductions(board: Board) -> tuple[set[Coord], set[Coord]]:
    """Cells certainly safe and certainly mines, from single numbers and pairs of numbers."""
    safe: set[Coord] = set()
    mines: set[Coord] = set()
    constraints = []
    for cell in board:
        if not board[cell].is_number():
            continue
        around = board.neighbours(cell)
        covered = frozenset(n for n in around if board[n] == Cell.COVERED)
        need = int(board[cell]) - sum(1 for n in around if board[n] == Cell.FLAG)
        if covered:
            constraints.append((covered, need))
    for covered, need in constraints:
        if need == 0:
            safe |= covered
        elif need == len(covered):
            mines |= covered
    for a, need_a in constraints:  # subset rule: B inside A leaves A - B with need_a - need_b mines
        for b, need_b in constraints:
            if b < a:
                rest = a - b
                if need_a - need_b == 0:
                    safe |= rest
                elif need_a - need_b == len(rest):
                    mines |= rest
    return safe - mines, mines


@dataclass
class Session:
    """One client on a virtual display, read through its skin."""

    game: RealClient
    skin: Skin
    rng: random.Random

    def look(self) -> tuple[np.ndarray, Board, str | None]:
        image = self.game.screenshot()
        geometry = self.game.board_geometry()
        return (
            image,
            read_board(image, geometry, self.skin, self.game.mines),
            read_status(image, geometry, self.skin),
        )

    def board(self) -> Board:
        return self.look()[1]

    def deduce(self, rounds: int, flag: bool = True) -> Board:
        """Open safe cells and (optionally) flag mines for ``rounds`` rounds of deduction."""
        board = self.board()
        for _ in range(rounds):
            safe, mines = deductions(board)
            if not safe and not (flag and mines):
                break
            for cell in sorted(safe):
                self.game.open(cell)
            for cell in sorted(mines) if flag else ():
                self.game.flag(cell)
            board = self.board()
        return board

    def flag_some(self, tries: int = 30) -> None:
        """Deduce (flagging mines) and guess until at least one flag is down; restart after a loss."""
        for _ in range(tries):
            board = self.deduce(3)
            if board.flagged() and not board.is_lost():
                return
            if board.is_lost():
                self.game.restart()
            else:
                self.guess(board)
        raise RecognitionError(f"no flag placed in {tries} tries")

    def guess(self, board: Board) -> None:
        self.game.open(self.rng.choice(board.covered()))

    def play_to_win(self, tries: int = 40) -> bool:
        """Deduce, guess when stuck, restart on a loss; True once the client shows a win."""
        for _ in range(tries):
            while True:
                board = self.deduce(50)
                if board.is_lost() or board.is_won():
                    break
                covered = board.covered()
                if len(covered) + len(board.flagged()) == board.mines:  # all the rest are mines
                    for cell in covered:
                        self.game.flag(cell)
                    break
                self.guess(board)
            _, board, status = self.look()
            if status == "won" or (status is None and "won" not in self.skin.faces and not board.is_lost()):
                return True
            self.game.restart()
        return False

    def lose(self, wrong_flag: bool) -> None:
        """Put a flag on a cell known safe (it shows as a wrong flag), then open cells until a mine."""
        board = self.board()
        if wrong_flag:
            safe, _ = deductions(board)
            target = min(safe) if safe else self.rng.choice(board.covered())
            self.game.flag(target)
        while not board.is_lost():
            self.guess(board)
            board = self.board()


def check_truth(board: Board, status: str) -> None:
    """Stop on a board that cannot be right: numbers against shown mines, flags against the count."""
    shown = {Cell.MINE, Cell.EXPLODED, Cell.FLAG} if status == "lost" else {Cell.FLAG}
    for cell in board:
        value = board[cell]
        if not value.is_number():
            continue
        around = [board[n] for n in board.neighbours(cell)]
        count = sum(1 for n in around if n in shown)
        unknown = sum(1 for n in around if n == Cell.COVERED)
        if status in ("lost", "won") and count != value:
            raise RecognitionError(f"{status} board: cell {cell} shows {int(value)} but {count} mines around")
        if status == "playing" and not count <= value <= count + unknown:
            raise RecognitionError(f"cell {cell} shows {int(value)}, impossible with {count} flags around")
    if status == "lost":
        total = sum(int((board.cells == c).sum()) for c in shown)
        if total != board.mines:
            raise RecognitionError(f"lost board shows {total} mines, the game has {board.mines}")


def save_capture(session: Session, folder: Path, name: str, expect: str) -> Board:
    """Write NAME.png and NAME.txt for what the client shows now."""
    image, board, status = session.look()
    if status != expect and not (status is None and expect not in session.skin.faces):
        raise RecognitionError(f"{name}: the face says {status!r}, expected {expect!r}")
    check_truth(board, expect)
    geometry = session.game.board_geometry()
    rect = geometry.region()
    SEEN.setdefault(session.skin.name, set()).update(Cell(v) for v in np.unique(board.cells))
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / f"{name}.png"), image)
    header = [
        f"# client: {session.game.name} {session.game.rows}x{session.game.cols}",
        f"# mines: {board.mines}",
        f"# status: {expect}",
        f"# board: {rect.left} {rect.top} {rect.width} {rect.height}",
        f"# pitch: {int(geometry.pitch_x)}",
    ]
    (folder / f"{name}.txt").write_text("\n".join(header) + "\n" + board.to_text() + "\n")
    print(f"  {folder.name}/{name}: {expect}, {len(board.covered())} covered, {len(board.flagged())} flags")
    return board


def winemine_captures(vd: VirtualDisplay, folder: Path, rng: random.Random) -> None:
    skin = load_skin(TEMPLATES_DIR / "winemine")
    with WineMine(vd, "expert") as game:
        s = Session(game, skin, rng)
        save_capture(s, folder, "expert_fresh", "playing")
        while True:  # the first click is safe, but not always an opening
            game.open((rng.randrange(16), rng.randrange(30)))
            if (s.board().cells == Cell.ZERO).any():
                break
            game.restart()
        save_capture(s, folder, "expert_opening", "playing")
        s.flag_some()
        save_capture(s, folder, "expert_flags", "playing")
        s.lose(wrong_flag=True)
        save_capture(s, folder, "expert_lost", "lost")
    with WineMine(vd, "beginner") as game:
        s = Session(game, skin, rng)
        save_capture(s, folder, "beginner_fresh", "playing")
        if not s.play_to_win():
            raise RecognitionError("no win at beginner in 40 games")
        save_capture(s, folder, "beginner_won", "won")
        game.restart()
        game.open((4, 4))
        s.lose(wrong_flag=True)
        save_capture(s, folder, "beginner_lost", "lost")
    with WineMine(vd, (9, 9, 64)) as game:  # dense: the first click's neighbours are mostly mines
        capture_missing(Session(game, skin, rng), folder, (4, 4))


def xdemineur_captures(vd: VirtualDisplay, folder: Path, rng: random.Random) -> None:
    skin = load_skin(TEMPLATES_DIR / "xdemineur")
    with XDemineur(vd, 16, 30, 99) as game:
        s = Session(game, skin, rng)
        save_capture(s, folder, "expert_start", "playing")
        s.flag_some()
        save_capture(s, folder, "expert_flags", "playing")
        s.lose(wrong_flag=True)
        save_capture(s, folder, "expert_lost", "lost")
    with XDemineur(vd, 9, 12, 70) as game:  # too dense for a start-up opening: a fresh board
        save_capture(Session(game, skin, rng), folder, "dense_fresh", "playing")
    with XDemineur(vd, 9, 12, 10) as game:
        s = Session(game, skin, rng)
        save_capture(s, folder, "small_start", "playing")
        if not s.play_to_win():
            raise RecognitionError("no win at 9x12/10 in 40 games")
        save_capture(s, folder, "small_won", "won")
        game.restart()
        s.lose(wrong_flag=True)
        save_capture(s, folder, "small_lost", "lost")
    with XDemineur(vd, 9, 12, 94) as game:  # 7/8 dense: 6, 7, 8 around the few cells opened
        capture_high_numbers(Session(game, skin, rng), folder, {Cell.SIX, Cell.SEVEN, Cell.EIGHT})
    with XDemineur(vd, 9, 12, 45) as game:  # dense: high numbers, no start-up opening
        capture_missing(Session(game, skin, rng), folder, (4, 5))


CLIENT_CAPTURES: dict[str, Callable[[VirtualDisplay, Path, random.Random], None]] = {
    "winemine": winemine_captures,
    "xdemineur": xdemineur_captures,
}


def cluster_sheet(folder: Path, out: Path) -> int:
    """A contact sheet of every distinct cell crop in a folder of captures (zoomed 4x, numbered)."""
    crops: dict[bytes, np.ndarray] = {}
    for txt in sorted(folder.glob("*.txt")):
        meta = dict(line[1:].split(":", 1) for line in txt.read_text().splitlines() if line.startswith("# "))
        x, y, w, h = (int(v) for v in meta[" board"].split())
        pitch = int(meta[" pitch"])
        geometry = Geometry(x, y, pitch, pitch, h // pitch, w // pitch)
        image = cv2.imread(str(txt.with_suffix(".png")))
        for crop in cell_crops(image, geometry).values():
            crops.setdefault(np.ascontiguousarray(crop).tobytes(), crop)
    tiles = []
    for i, crop in enumerate(crops.values()):
        big = cv2.resize(crop, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
        tile = cv2.copyMakeBorder(big, 14, 2, 2, 2, cv2.BORDER_CONSTANT, value=(255, 0, 255))
        cv2.putText(tile, str(i), (2, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1)
        tiles.append(tile)
    while len(tiles) % 8:
        tiles.append(np.zeros_like(tiles[0]))
    cv2.imwrite(str(out), np.vstack([np.hstack(tiles[i : i + 8]) for i in range(0, len(tiles), 8)]))
    return len(crops)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture", help="run the clients under Xvfb and write captures with ground truth")
    cap.add_argument("outdir", type=Path, help="folder for winemine/ and xdemineur/ (e.g. tests/data/real)")
    cap.add_argument("--seed", type=int, default=1, help="seed for the clicks (default 1)")
    cap.add_argument("--client", choices=sorted(CLIENT_CAPTURES), action="append", help="default: both")
    clu = sub.add_parser("cluster", help="contact sheet of the distinct cells in a capture folder")
    clu.add_argument("folder", type=Path)
    clu.add_argument("sheet", type=Path, help="output PNG")
    args = parser.parse_args(argv)
    if args.command == "cluster":
        print(f"{cluster_sheet(args.folder, args.sheet)} distinct cells -> {args.sheet}")
        return 0
    rng = random.Random(args.seed)
    for name in args.client or sorted(CLIENT_CAPTURES):
        print(f"{name}:")
        with VirtualDisplay(*CAPTURE_SCREEN) as vd:
            CLIENT_CAPTURES[name](vd, args.outdir / name, rng)
    return 0


if __name__ == "__main__":
    sys.exit(main())
