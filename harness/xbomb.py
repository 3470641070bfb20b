"""xbomb (Debian ``xbomb`` 2.2, an Athena client) under Xvfb, with an exact pixel reader for its truth.

``xbomb -square -N`` plays level 1 (8x8, 10 bombs), 2 (16x16, 40) or 3 (16 rows x 30 columns, 99).
Without a window manager its window sits at the screen's top-left; the grid starts 5 px right of and
37 px below the window origin. Each cell owns a 2 px black line on its left and top (the grid is
closed by one more line pair), so the pitch is 20 px at levels 2 and 3 and 50 px at level 1, and a
cell's interior is its rectangle less those two lines.

How truth is derived (test infrastructure, not the product: a client-specific rule is fine here).
xbomb draws with X core fonts and flat colours from its app-defaults (``/etc/X11/app-defaults/XBomb``),
so every cell interior holds exactly two colours, or one, and that set names the state (the top
rows of a cell are skipped: at 20 px cells the bold 24-point digit of the cell above spills into them):

- grey50 + white (the dither): covered;  white alone: 0;
- white + the digit colour: 1 navy, 2 dark green, 3 dark red, 5 turquoise, 6 orange, 7 violet,
  8 light green; the bold "4" is black on white;
- orange + black: a flag (orange is the flag background, the 6 is orange on white);
- red + black: a mine (shown only once the game is lost; xbomb then uncovers the whole board).

A lost board has every cell uncovered. The cells the player uncovered (and the bomb that ended the
game) get a 1 px bright-green outline; a bomb with that outline is the exploded one unless the harness
saw a flag on it before the loss (then it is a flag the player got right). A wrong flag is drawn as
a blank white cell with no outline (not the number under it): a cell the harness flagged that shows
blank is a wrong flag. Anything else raises :class:`ClientError`, never a guess.
The readings are cross-checked by the board's logic (tests/test_realclients.py: on a lost board
every number equals its count of mines) and were checked by eye on the saved screenshots.
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
    screenshot,
    wait_stable,
)

LEVELS = {1: (8, 8, 10, 50), 2: (16, 16, 40, 20), 3: (16, 30, 99, 20)}
"""xbomb level: (rows, cols, bombs, pitch px)."""
LINE = 2
"""Each cell's black grid line on its left and top, in px."""
SPILL = 6
"""Rows below a cell's top line that the glyph of the cell above may cover (its 24-point font is
taller than a 20 px cell, and xbomb does not clip it: up to 4 rows seen); the reader skips them."""

# BGR colours from XBomb's app-defaults (X11 rgb.txt names)
WHITE, GREY50, BLACK = (255, 255, 255), (127, 127, 127), (0, 0, 0)
RED, ORANGE, GREEN = (0, 0, 255), (0, 165, 255), (0, 255, 0)
DIGIT_COLOURS = {
    (128, 0, 0): Cell.ONE,  # navyblue
    (0, 100, 0): Cell.TWO,  # darkgreen
    (0, 0, 139): Cell.THREE,  # darkred
    (208, 224, 64): Cell.FIVE,  # turquoise
    ORANGE: Cell.SIX,  # orange
    (238, 130, 238): Cell.SEVEN,  # violet
    (144, 238, 144): Cell.EIGHT,  # lightgreen
}
SIGNATURES: dict[frozenset[tuple[int, int, int]], Cell] = {
    frozenset({GREY50, WHITE}): Cell.COVERED,
    frozenset({WHITE}): Cell.ZERO,
    frozenset({BLACK, WHITE}): Cell.FOUR,
    frozenset({ORANGE, BLACK}): Cell.FLAG,
    frozenset({RED, BLACK}): Cell.MINE,
    **{frozenset({colour, WHITE}): digit for colour, digit in DIGIT_COLOURS.items()},
}


def cell_interior(image: np.ndarray, geometry: Geometry, cell: Coord) -> np.ndarray:
    """A cell's pixels inside its own grid lines, less the top rows the glyph above may spill into."""
    rect = geometry.cell_rect(cell)
    return image[rect.top + LINE + SPILL : rect.bottom, rect.left + LINE : rect.right]


def colour_set(pixels: np.ndarray) -> frozenset[tuple[int, int, int]]:
    """The distinct BGR colours of a patch."""
    flat = np.unique(pixels.reshape(-1, 3), axis=0)
    return frozenset(tuple(int(v) for v in colour) for colour in flat)


def outlined(image: np.ndarray, geometry: Geometry, cell: Coord) -> bool:
    """True when xbomb drew its green "uncovered by the player" outline around the cell.

    The outline replaces the inner pixel of the cell's own left and top lines and the outer pixel
    of its right and bottom lines, so neighbouring outlines never share a pixel.
    """
    rect = geometry.cell_rect(cell)
    x0, y0, x1, y1 = rect.left + 1, rect.top + 1, rect.right, rect.bottom
    if x1 >= image.shape[1] or y1 >= image.shape[0]:
        return False
    sides = (image[y0 : y1 + 1, x0], image[y0 : y1 + 1, x1], image[y0, x0 : x1 + 1], image[y1, x0 : x1 + 1])
    return all(bool((side == GREEN).all()) for side in sides)


def read_xbomb(
    image: np.ndarray, geometry: Geometry, mines: int, flags_seen: set[Coord]
) -> tuple[Board, str]:
    """The board xbomb shows in ``image`` and its status; ``flags_seen``: flags placed before a loss.

    Raises:
        ClientError: naming the first cell whose colours name no state.
    """
    board = Board.new(geometry.rows, geometry.cols, mines)
    for cell in board:
        colours = colour_set(cell_interior(image, geometry, cell))
        state = SIGNATURES.get(colours)
        if state is None:
            raise ClientError(f"xbomb cell {cell}: colours {sorted(colours)} name no known state")
        board[cell] = state
    if not (board.cells == Cell.MINE).any():
        hidden = int(board.covered_mask().sum()) + int((board.cells == Cell.FLAG).sum())
        return board, "won" if hidden == mines else "playing"  # every safe cell is open
    for cell in board.cells_where(board.cells == Cell.MINE):
        if outlined(image, geometry, cell):
            board[cell] = Cell.FLAG if cell in flags_seen else Cell.EXPLODED
    for cell in sorted(flags_seen):
        if board[cell] == Cell.ZERO:
            board[cell] = Cell.WRONG_FLAG
        elif board[cell] not in (Cell.FLAG, Cell.MINE):
            raise ClientError(f"xbomb cell {cell} was flagged but shows {board[cell].name} after the loss")
    if int((board.cells == Cell.EXPLODED).sum()) != 1:
        raise ClientError(
            f"xbomb lost board shows {int((board.cells == Cell.EXPLODED).sum())} exploded bombs"
        )
    return board, "lost"


class XBomb(RealClient):
    """``xbomb -square -LEVEL``: level 1 (8x8/10), 2 (16x16/40) or 3 (16x30/99, the default).

    First click: always opens an area (observed: 30 of 30 random first clicks at level 3 opened a
    0, where a safe-cell-only rule opens one about 1 time in 6), so the rule is ``zero``.
    """

    name = "xbomb"
    first_click_rule = FirstClickRule.ZERO
    new_game = "restart button"
    search = ("--name", "^XBomb")

    def __init__(self, display: VirtualDisplay | str, level: int = 3, timeout: float = 20.0) -> None:
        if level not in LEVELS:
            raise ValueError(f"xbomb has levels 1, 2 and 3, not {level!r}")
        rows, cols, mines, pitch = LEVELS[level]
        super().__init__(display, rows, cols, mines, timeout)
        self.level = level
        self.layout = ClientLayout(board_dx=5, board_dy=37, pitch=pitch, face_dx=0, face_dy=0, face_size=1)
        self.flags_seen: set[Coord] = set()

    def command(self) -> list[str]:
        return [find_program("xbomb"), "-square", f"-{self.level}"]

    def board_geometry(self) -> Geometry:
        """The grid from the known layout (xbomb has no face: its Restart button is not a board part)."""
        win, lay = self.window_region(), self.layout
        return Geometry(
            win.left + lay.board_dx, win.top + lay.board_dy, lay.pitch, lay.pitch, self.rows, self.cols
        )

    def restart_button(self) -> Region:
        """The "Restart" button above the grid."""
        win = self.window_region()
        return Region(win.left + 6, win.top + 6, 86, 25)

    def truth(self) -> tuple[Board, str]:
        image = wait_stable(self.display, self.window_region())
        geometry = self.board_geometry().offset(-self.window_region().left, -self.window_region().top)
        board, status = read_xbomb(image, geometry, self.mines, self.flags_seen)
        if status == "playing":
            self.flags_seen = set(board.flagged())
        return board, status

    def flag(self, cell: Coord) -> None:
        super().flag(cell)
        self.truth()  # remember the flags: a bomb flagged before a loss is shown like the exploded one

    def restart(self) -> None:
        """A new game: the Restart button."""
        button = self.restart_button()
        click(self.display, button.left + button.width // 2, button.top + button.height // 2)
        self.flags_seen = set()
        wait_stable(self.display, self.board_geometry().region())
        image = screenshot(self.display, self.board_geometry().region())
        if image.std() <= 5:
            raise ClientError("xbomb did not redraw its grid after Restart")
