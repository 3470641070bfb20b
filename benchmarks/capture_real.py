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
import contextlib
import json
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
from harness.ace import ROWS as ROWS_ACE  # noqa: E402
from harness.ace import AceMinesweeper, cell_state  # noqa: E402
from harness.jsminesweeper import JSMinesweeper  # noqa: E402
from harness.realclients import (  # noqa: E402
    ClientError,
    RealClient,
    VirtualDisplay,
    WineMine,
    XDemineur,
    exit_on_sigterm,
    wait_stable,
)
from harness.xbomb import XBomb  # noqa: E402

LOGGER = logging.getLogger(__name__)
CAPTURE_SCREEN = (800, 600)
"""Captures use a small screen: every board fits and the PNGs stay small."""
PNG_SMALL = [cv2.IMWRITE_PNG_COMPRESSION, 9]
"""Captures are written at the strongest (lossless) PNG compression: browser zooms blur edges."""
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


def play_deductions(
    game: RealClient,
    look: Callable[[], Board],
    rounds: int,
    flag: bool,
    playing: Callable[[Board], bool] = lambda board: True,
) -> Board:
    """Open what :func:`deductions` proves safe (flag its mines) for ``rounds`` rounds while ``playing``."""
    board = look()
    for _ in range(rounds):
        if not playing(board):
            break
        safe, mines = deductions(board)
        if not safe and not (flag and mines):
            break
        for cell in sorted(safe):
            game.open(cell)
        for cell in sorted(mines) if flag else ():
            game.flag(cell)
        board = look()
    return board


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
        return play_deductions(self.game, self.board, rounds, flag)

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
    # a won board's unopened cells (flagged or not) are exactly its mines
    shown = {Cell.MINE, Cell.EXPLODED, Cell.FLAG} if status == "lost" else {Cell.FLAG}
    if status == "won":
        shown = {Cell.FLAG, Cell.COVERED}
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


# -- clients with an exact truth reader (harness: page state or client-specific pixel rules) -------


@dataclass
class TruthSession:
    """One client read through its own exact ``truth()`` (no skin): plays and saves cropped captures."""

    game: RealClient
    rng: random.Random
    tile: int | None = None
    zoom: float = 1.0

    def look(self) -> tuple[Board, str]:
        self.game.screenshot()  # pointer parked and the board still
        return self.game.truth()

    def board(self) -> Board:
        return self.look()[0]

    def open_safe_and_flag(self, rounds: int, flag: bool = True) -> Board:
        """Open cells the numbers prove safe and flag proven mines, for up to ``rounds`` rounds."""

        def playing(board: Board) -> bool:
            return not board.is_lost() and self.look()[1] == "playing"

        return play_deductions(self.game, self.board, rounds, flag, playing)

    def first_opening(self, tries: int = 30) -> None:
        """Click near the middle of fresh games until the first click opens an area."""
        rows, cols = self.game.rows, self.game.cols
        for _ in range(tries):
            self.game.open((rows // 2 + self.rng.randrange(-2, 3), cols // 2 + self.rng.randrange(-3, 4)))
            board, status = self.look()
            if status == "playing" and (board.cells == Cell.ZERO).any():
                return
            self.game.restart()
        raise RecognitionError(f"no opening in {tries} first clicks")

    def mid_game_with_flags(self, tries: int = 30) -> None:
        """Deduce and guess until the board has flags and is still being played."""
        for _ in range(tries):
            board = self.open_safe_and_flag(4)
            status = self.look()[1]
            if status == "playing" and board.flagged() and len(board.covered()) < 0.8 * board.cells.size:
                return
            if status != "playing":
                self.game.restart()
                self.game.open((self.game.rows // 2, self.game.cols // 2))
            else:
                self.game.open(self.rng.choice(board.covered()))
        raise RecognitionError(f"no mid-game with flags in {tries} tries")

    def lose(self, wrong_flag: bool) -> None:
        """Flag a proven-safe cell (a wrong flag), then open covered cells until the game is lost."""
        board = self.board()
        if wrong_flag:
            safe, _ = deductions(board)
            self.game.flag(min(safe) if safe else self.rng.choice(board.covered()))
            board = self.board()
        while self.look()[1] == "playing":
            self.game.open(self.rng.choice(board.covered()))
            board = self.board()

    def play_to_win(self, tries: int = 40) -> bool:
        """Deduce, guess when stuck, restart after a loss; True once the client says won."""
        for _ in range(tries):
            self.game.open((self.game.rows // 2, self.game.cols // 2))
            while True:
                board = self.open_safe_and_flag(60)
                status = self.look()[1]
                if status != "playing":
                    break
                self.game.open(self.rng.choice(board.covered()))
            if self.look()[1] == "won":
                return True
            self.game.restart()
        return False

    def save(self, folder: Path, name: str, expect: str) -> Board:
        """Write NAME.png (the client's area only), NAME.txt (the true board) and NAME.json."""
        image = self.game.screenshot()
        board, status = self.game.truth()
        if status != expect:
            raise RecognitionError(f"{name}: the client says {status!r}, expected {expect!r}")
        check_truth(board, expect)
        crop = self.game.client_region()
        geometry = self.game.board_geometry().offset(-crop.left, -crop.top)
        folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(
            str(folder / f"{name}.png"), image[crop.top : crop.bottom, crop.left : crop.right], PNG_SMALL
        )
        region = geometry.region()
        header = [
            f"# client: {self.game.name} {board.rows}x{board.cols}",
            f"# mines: {board.mines}",
            f"# status: {expect}",
            f"# board: {region.left} {region.top} {region.width} {region.height}",
            f"# pitch: {geometry.pitch_x:g}",
        ]
        (folder / f"{name}.txt").write_text("\n".join(header) + "\n" + board.to_text() + "\n")
        write_sidecar(folder / f"{name}.json", self.game, geometry, board, expect, self.tile, self.zoom)
        print(
            f"  {folder.name}/{name}: {expect}, {len(board.covered())} covered, {len(board.flagged())} flags"
        )
        return board


def write_sidecar(
    path: Path,
    game: RealClient,
    geometry: Geometry,
    board: Board,
    status: str,
    tile: int | None,
    zoom: float,
) -> None:
    """NAME.json: client, cell geometry in the saved PNG's pixels, mines, tile, zoom, first-click rule."""
    sidecar = {
        "client": game.name,
        "geometry": {
            "left": round(geometry.left, 3),
            "top": round(geometry.top, 3),
            "pitch_x": round(geometry.pitch_x, 3),
            "pitch_y": round(geometry.pitch_y, 3),
            "rows": geometry.rows,
            "cols": geometry.cols,
        },
        "mines": board.mines,
        "status": status,
        "tile": tile,
        "zoom": zoom,
        "first_click": game.first_click_rule.value,
    }
    path.write_text(json.dumps(sidecar, indent=2) + "\n")


def truth_captures(session: TruthSession, folder: Path, prefix: str = "expert") -> None:
    """fresh, opening, flags (mid-game) and lost (with a wrong flag) captures of one board size."""
    session.save(folder, f"{prefix}_fresh", "playing")
    session.first_opening()
    session.save(folder, f"{prefix}_opening", "playing")
    session.mid_game_with_flags()
    session.save(folder, f"{prefix}_flags", "playing")
    session.lose(wrong_flag=True)
    session.save(folder, f"{prefix}_lost", "lost")


JS_SETTINGS = tuple((tile, zoom) for tile in (24, 32) for zoom in (1.0, 1.25, 1.5, 1.75))
"""The JSMinesweeper captures: tile size (CSS px) x browser zoom."""
JS_SCREEN = (2048, 1280)
"""The browser captures need a screen that holds 30 x 32 px x 1.75 zoom plus the page's margin."""


def setting_folder(tile: int, zoom: float) -> str:
    """``t24_z125`` for tile 24 at zoom 1.25."""
    return f"t{tile}_z{round(zoom * 100)}"


def jsminesweeper_captures(  # type: ignore[no-untyped-def]
    folder: Path, rng: random.Random, settings=JS_SETTINGS, parts=("expert", "small", "digits")
) -> None:
    """Per tile x zoom setting: the Expert series, a won 9x9, and every digit 1-8 (playing and lost)."""
    for tile, zoom in settings:
        out = folder / setting_folder(tile, zoom)
        with VirtualDisplay(*JS_SCREEN) as vd:
            if "expert" in parts:
                with JSMinesweeper(
                    vd, 16, 30, 99, tile=tile, zoom=zoom, seed=rng.randrange(1, 10**6)
                ) as game:
                    truth_captures(TruthSession(game, rng, tile, zoom), out)
            if "small" in parts:
                with JSMinesweeper(vd, 9, 9, 10, tile=tile, zoom=zoom, seed=rng.randrange(1, 10**6)) as game:
                    small = TruthSession(game, rng, tile, zoom)
                    if small.play_to_win():
                        small.save(out, "small_won", "won")
            if "digits" in parts:
                with JSMinesweeper(vd, 16, 30, 99, tile=tile, zoom=zoom) as game:
                    digit_showcase(TruthSession(game, rng, tile, zoom), out)


def showcase_layout(rows: int, cols: int, mines: int, rng: random.Random) -> tuple[set[Coord], list[Coord]]:
    """Mines such that eight target cells have 1..8 mines around them, plus cells to click.

    Returns the mines and the cells to open (the targets, then a zero cell if there is one).
    """
    targets = [(3 + 6 * (k // 4), 3 + 7 * (k % 4)) for k in range(8)]
    reserved = {(r + dr, c + dc) for r, c in targets for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    chosen: set[Coord] = set()
    for k, (r, c) in enumerate(targets, start=1):
        around = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
        chosen |= set(rng.sample(around, k))
    free = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in reserved]
    chosen |= set(rng.sample(free, mines - len(chosen)))
    board = Board.new(rows, cols)
    zeros = [
        cell for cell in free if cell not in chosen and not any(n in chosen for n in board.neighbours(cell))
    ]
    return chosen, targets + ([rng.choice(zeros)] if zeros else [])


def digit_showcase(session: TruthSession, folder: Path) -> None:
    """A board whose opened cells show every digit 1-8 (and flags), then the same board lost."""
    game = session.game
    assert isinstance(game, JSMinesweeper)
    mines, clicks = showcase_layout(game.rows, game.cols, game.mines, session.rng)
    game.load_layout(mines)
    for cell in clicks:
        game.open(cell)
    for cell in session.rng.sample(sorted(mines), 6):
        game.flag(cell)
    board = session.save(folder, "digits_playing", "playing")
    if not all((board.cells == d).any() for d in range(1, 9)):
        raise RecognitionError("the digit showcase does not show every digit 1-8")
    safe_covered = [c for c in board.covered() if c not in mines]
    game.flag(session.rng.choice(safe_covered))  # a wrong flag
    game.open(session.rng.choice(sorted(mines - set(board.flagged()))))
    session.save(folder, "digits_lost", "lost")


def xbomb_captures(vd: VirtualDisplay, folder: Path, rng: random.Random) -> None:
    """Level 3 (16x30/99): fresh, opening, flags, lost; level 1 (8x8/10, 50 px cells): a win."""
    with XBomb(vd, 3) as game:
        truth_captures(TruthSession(game, rng), folder)
        game.restart()
        high_digit_lost(TruthSession(game, rng), folder, "expert_high_lost")
    with XBomb(vd, 1) as game:
        small = TruthSession(game, rng)
        small.save(folder, "small_fresh", "playing")
        if small.play_to_win():
            small.save(folder, "small_won", "won")


def ace_captures(vd: VirtualDisplay, folder: Path, rng: random.Random) -> None:
    """The fixed 32x32/200 board: fresh, opening, flags, lost (no first-click protection)."""
    with AceMinesweeper(vd) as game:
        truth_captures(TruthSession(game, rng), folder, "board")
        game.restart()
        high_digit_lost(TruthSession(game, rng), folder, "board_high_lost")


def high_digit_lost(session: TruthSession, folder: Path, name: str, tries: int = 40) -> None:
    """Lose games (deducing, then guessing); keep the lost board showing the most distinct digits 4-8.

    Stops early once a board shows 6, 7 and 8. Unknown glyphs (a reader refusing) skip a game.
    """
    best = 0
    for _ in range(tries):
        try:
            board, status = session.look()
            while status == "playing":  # deduce as far as it goes, then guess
                board = session.open_safe_and_flag(30)
                board, status = session.look()
                if status == "playing":
                    session.game.open(session.rng.choice(board.covered()))
                    board, status = session.look()
        except ClientError as exc:
            LOGGER.warning("skipping a game: %s", exc)
            session.game.restart()
            continue
        shown = {int(v) for v in np.unique(board.cells) if 4 <= v <= 8}
        if status == "lost" and len(shown) > best:
            best = len(shown)
            session.save(folder, name, "lost")
        if {6, 7, 8} <= shown:
            return
        session.game.restart()


def ace_glyphs(vd: VirtualDisplay, games: int, rng: random.Random) -> dict[str, set[int]]:
    """Glyph masks not yet in harness.ace.GLYPHS, labelled by lost games' logic (count of shown mines).

    Also prints how many first clicks hit a mine (ace's first-click rule, observed).
    """
    found: dict[str, set[int]] = {}
    first_lost = 0
    with AceMinesweeper(vd) as game:
        session = TruthSession(game, rng)
        for _ in range(games):
            game.open((rng.randrange(ROWS_ACE), rng.randrange(ROWS_ACE)))
            first_lost += ace_states(wait_stable(vd, game.window_region()), game.board_geometry())[1]
            with contextlib.suppress(ClientError):  # an unknown glyph: lose the game to label it
                session.open_safe_and_flag(30)
            image = wait_stable(vd, game.window_region())
            geometry = game.board_geometry()
            while not (image_board := ace_states(image, geometry))[1]:
                covered = [c for c, v in image_board[0].items() if v == Cell.COVERED]
                game.open(rng.choice(covered))
                image = wait_stable(vd, game.window_region())
            states = image_board[0]
            for cell, value in states.items():
                if isinstance(value, str):
                    r, c = cell
                    around = [states.get((r + dr, c + dc)) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
                    count = sum(v in (Cell.MINE, Cell.EXPLODED, Cell.FLAG) for v in around)
                    found.setdefault(value, set()).add(count)
            game.restart()
    print(f"first clicks on a mine: {first_lost}/{games}")
    return found


def ace_states(image: np.ndarray, geometry: Geometry) -> tuple[dict[Coord, Cell | str], bool]:
    """Every cell's state (or unknown glyph mask) on a window image, and whether mines are shown."""
    states = {}
    for r in range(geometry.rows):
        for c in range(geometry.cols):
            rect = geometry.cell_rect((r, c))
            states[(r, c)] = cell_state(image[rect.top : rect.bottom, rect.left : rect.right])
    return states, any(v in (Cell.MINE, Cell.EXPLODED) for v in states.values())


def on_display(capture: Callable[[VirtualDisplay, Path, random.Random], None]) -> Capture:
    """A capture function that runs on its own small virtual screen."""

    def run(folder: Path, rng: random.Random) -> None:
        with VirtualDisplay(*CAPTURE_SCREEN) as vd:
            capture(vd, folder, rng)

    return run


Capture = Callable[[Path, random.Random], None]
CLIENT_CAPTURES: dict[str, Capture] = {
    "winemine": on_display(winemine_captures),
    "xdemineur": on_display(xdemineur_captures),
    "jsminesweeper": jsminesweeper_captures,
    "xbomb": on_display(xbomb_captures),
    "ace-minesweeper": on_display(ace_captures),
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


def header_sidecars(folder: Path, client: type[RealClient]) -> int:
    """Write NAME.json for captures whose geometry is only in their ``.txt`` header (full-screen PNGs)."""
    count = 0
    for txt in sorted(folder.glob("*.txt")):
        text = txt.read_text()
        meta = dict(line[1:].split(":", 1) for line in text.splitlines() if line.startswith("# "))
        x, y, _, _ = (int(v) for v in meta[" board"].split())
        pitch = float(meta[" pitch"])
        board = Board.from_text(text)
        geometry = Geometry(x, y, pitch, pitch, board.rows, board.cols)
        game = client.__new__(client)  # class attributes only: name and first-click rule
        write_sidecar(txt.with_suffix(".json"), game, geometry, board, meta[" status"].strip(), None, 1.0)
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    cap = sub.add_parser("capture", help="run the clients under Xvfb and write captures with ground truth")
    cap.add_argument("outdir", type=Path, help="folder for winemine/ and xdemineur/ (e.g. tests/data/real)")
    cap.add_argument("--seed", type=int, default=1, help="seed for the clicks (default 1)")
    cap.add_argument("--client", choices=sorted(CLIENT_CAPTURES), action="append", help="default: all")
    clu = sub.add_parser("cluster", help="contact sheet of the distinct cells in a capture folder")
    clu.add_argument("folder", type=Path)
    clu.add_argument("sheet", type=Path, help="output PNG")
    glyphs = sub.add_parser("ace-glyphs", help="find and label ace-minesweeper digit glyphs from lost games")
    glyphs.add_argument("--games", type=int, default=30)
    glyphs.add_argument("--seed", type=int, default=1)
    side = sub.add_parser("sidecars", help="NAME.json for winemine/xdemineur captures, from their headers")
    side.add_argument("folder", type=Path, help="e.g. tests/data/real/winemine")
    args = parser.parse_args(argv)
    exit_on_sigterm()
    if args.command == "ace-glyphs":
        with VirtualDisplay(*CAPTURE_SCREEN) as vd:
            for mask, counts in ace_glyphs(vd, args.games, random.Random(args.seed)).items():
                print(f"{sorted(counts)}: {mask!r}")
        return 0
    if args.command == "sidecars":
        client = {"winemine": WineMine, "xdemineur": XDemineur}[args.folder.name]
        print(f"{header_sidecars(args.folder, client)} sidecars in {args.folder}")
        return 0
    if args.command == "cluster":
        print(f"{cluster_sheet(args.folder, args.sheet)} distinct cells -> {args.sheet}")
        return 0
    rng = random.Random(args.seed)
    for name in args.client or sorted(CLIENT_CAPTURES):
        print(f"{name}:")
        CLIENT_CAPTURES[name](args.outdir / name, rng)
    return 0


if __name__ == "__main__":
    sys.exit(main())
