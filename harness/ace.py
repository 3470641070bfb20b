"""ace-minesweeper (Debian ``ace-of-penguins``) under Xvfb, with an exact pixel reader for its truth.

``/usr/games/ace-minesweeper`` takes no options: a fixed 32 x 32 board with 200 mines in a 401 x 427
window (at the screen's top-left without a window manager). Cells are 12 px: a 1 px dark-green
separator, then an 11 px tile; cell (0, 0)'s separator is at (8, 34) in the window. The penguin
above the board starts a new game.

How truth is derived (test infrastructure, not the product: a client-specific rule is fine here).
ace draws every cell state from a fixed bitmap, so a cell's pixels are the same wherever it is:

- a covered tile is the light-grey bevel (153 grey); on it a blue flag (blue + black) is a flag,
  and a red cross (red, no black) is a wrong flag shown after a loss;
- an open tile is dark green; with a black bomb it is a mine shown after a loss, on a red ground
  it is the bomb that was clicked; otherwise its white pixels are a digit glyph, named by the exact
  white-pixel masks in :data:`GLYPHS` (no white: 0).

The digit masks were taken from lost games, where every mine is shown, and labelled by the board's
logic (each number equals its count of shown mines); ``capture_real.py ace-glyphs`` repeats that.
The 7, never met in 110 lost games, came from a won live game (the harness's truth named it unknown;
its shape is plain). A glyph not in the table raises :class:`ClientError`, never a guess.
"""

from __future__ import annotations

import numpy as np

from bot.board import Board, Cell, Coord
from bot.game import FirstClickRule
from bot.geometry import Geometry, Region
from harness.realclients import (
    ClientError,
    ClientLayout,
    RealClient,
    VirtualDisplay,
    click,
    find_program,
    wait_stable,
)

ROWS, COLS, MINES, PITCH = 32, 32, 200, 12
WHITE, GREY, BLACK = (255, 255, 255), (153, 153, 153), (0, 0, 0)
RED, BLUE = (0, 0, 255), (255, 0, 0)

GLYPHS: dict[str, Cell] = {
    # white pixels of a 12 x 12 cell crop (from its separator corner), rows 3-9, columns 4-8
    "..#..|.##..|..#..|..#..|..#..|..#..|.###.": Cell.ONE,
    ".###.|#...#|....#|...#.|..#..|.#...|#####": Cell.TWO,
    ".###.|#...#|....#|..##.|....#|#...#|.###.": Cell.THREE,
    "...#.|..##.|.#.#.|#..#.|#####|...#.|...#.": Cell.FOUR,
    "#####|#....|####.|....#|....#|#...#|.###.": Cell.FIVE,
    "..##.|.#...|#....|####.|#...#|#...#|.###.": Cell.SIX,
    "#####|....#|...#.|...#.|..#..|..#..|..#..": Cell.SEVEN,
    ".###.|#...#|#...#|.###.|#...#|#...#|.###.": Cell.EIGHT,
}
"""Digit glyphs by their white-pixel mask ('#' white), rows joined by '|'."""
GLYPH_ROWS, GLYPH_COLS = slice(3, 10), slice(4, 9)


def has(pixels: np.ndarray, colour: tuple[int, int, int]) -> bool:
    """True when some pixel of the patch is exactly ``colour`` (BGR)."""
    return bool((pixels.reshape(-1, 3) == colour).all(axis=1).any())


def glyph_mask(crop: np.ndarray) -> str:
    """The white pixels of a cell's glyph area as '#'/'.' rows joined by '|'."""
    white = (crop[GLYPH_ROWS, GLYPH_COLS] == WHITE).all(axis=2)
    return "|".join("".join("#" if w else "." for w in row) for row in white)


def cell_state(crop: np.ndarray) -> Cell | str:
    """The state of one 12 x 12 cell crop, or the glyph mask of an open cell with an unknown digit."""
    inner = crop[1:, 1:]
    if has(inner, GREY):
        if has(inner, BLUE) and has(inner, BLACK):
            return Cell.FLAG
        if has(inner, RED):
            return Cell.WRONG_FLAG
        return Cell.COVERED
    if has(inner, BLACK):
        return Cell.EXPLODED if has(inner, RED) else Cell.MINE
    if has(inner, RED) or has(inner, BLUE):
        return glyph_mask(crop) + " (unknown colours)"
    if not has(crop, WHITE):
        return Cell.ZERO
    outside = crop.copy()
    outside[GLYPH_ROWS, GLYPH_COLS] = 0
    if has(outside, WHITE):
        return glyph_mask(crop) + " (white outside the glyph area)"
    mask = glyph_mask(crop)
    return GLYPHS.get(mask, mask)


def read_ace(image: np.ndarray, geometry: Geometry) -> tuple[Board, str]:
    """The board ace shows in ``image`` and its status (``playing``, ``won`` or ``lost``).

    Raises:
        ClientError: naming the first cell that is not a known state or glyph.
    """
    board = Board.new(geometry.rows, geometry.cols, MINES)
    for cell in board:
        rect = geometry.cell_rect(cell)
        state = cell_state(image[rect.top : rect.bottom, rect.left : rect.right])
        if isinstance(state, str):
            raise ClientError(f"ace-minesweeper cell {cell}: unknown glyph {state}")
        board[cell] = state
    if board.is_lost() or (board.cells == Cell.MINE).any():
        return board, "lost"
    hidden = int(board.covered_mask().sum()) + int((board.cells == Cell.FLAG).sum())
    return board, "won" if hidden == MINES else "playing"


class AceMinesweeper(RealClient):
    """``/usr/games/ace-minesweeper``: 32 x 32 cells of 12 px, 200 mines, the penguin starts a new game.

    First click: no protection (observed: 6 of 30 random first clicks hit a mine, about the density).
    """

    name = "ace-minesweeper"
    first_click_rule = FirstClickRule.NONE
    new_game = "face"
    layout = ClientLayout(board_dx=8, board_dy=34, pitch=PITCH, face_dx=-14, face_dy=2, face_size=28)
    search = ("--name", "ace-minesweeper")

    def __init__(self, display: VirtualDisplay | str, timeout: float = 20.0) -> None:
        super().__init__(display, ROWS, COLS, MINES, timeout)

    def command(self) -> list[str]:
        return [find_program("ace-minesweeper")]

    def truth(self) -> tuple[Board, str]:
        win = self.window_region()
        image = wait_stable(self.display, win)
        return read_ace(image, self.board_geometry().offset(-win.left, -win.top))

    def restart(self) -> None:
        """A new game: click the penguin."""
        click(self.display, *self.face_center())
        wait_stable(self.display, self.board_geometry().region())

    def face_region(self) -> Region:
        face = self.board_geometry().face
        assert face is not None
        return face


def unknown_cells(image: np.ndarray, geometry: Geometry) -> dict[Coord, str]:
    """Open cells whose glyph is not in :data:`GLYPHS`, with their masks (for ``ace-glyphs``)."""
    found = {}
    for r in range(geometry.rows):
        for c in range(geometry.cols):
            rect = geometry.cell_rect((r, c))
            state = cell_state(image[rect.top : rect.bottom, rect.left : rect.right])
            if isinstance(state, str):
                found[(r, c)] = state
    return found
