"""Where the skinless grid finder puts a board's cell boundaries when tiles are bevelled (a 2 px highlight
at a covered tile's top-left, a 2 px shadow at its bottom-right) and opened cells have a 1 px line at
their own top and left, as in Simon Tatham's Mines and classic Windows: the pixels a boundary's steps
leave in doubt belong to the cell whose look they follow, and a board that ends at the screenshot's
edge is still measured up to it."""

from __future__ import annotations

import numpy as np
import pytest

from bot.vision.grid import find_grid
from bot.vision.lattice import _Board, _steps
from bot.vision.propose import _Axis, grey

PITCH = 20
ROWS, COLS = 16, 30


def bevelled_board(seed: int, ring: int = 2, opened_share: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """A grey BGR screenshot of a bevelled board (``ring`` px of frame colour around it) and which cells
    are opened: opened cells come in patches, some with a dark glyph."""
    rng = np.random.default_rng(seed)
    noise = rng.random((ROWS // 4 + 2, COLS // 4 + 2))
    patches = np.kron(noise, np.ones((4, 4)))[:ROWS, :COLS]
    opened = patches < opened_share
    h, w = ROWS * PITCH + 2 * ring, COLS * PITCH + 2 * ring
    image = np.full((h, w), 153, np.uint8)
    for r in range(ROWS):
        for c in range(COLS):
            y, x = ring + r * PITCH, ring + c * PITCH
            cell = image[y : y + PITCH, x : x + PITCH]
            if opened[r, c]:
                cell[:] = 218
                cell[0, :] = 153
                cell[:, 0] = 153
                if rng.random() < 0.4:
                    cell[5:16, 8:13] = 40  # a glyph
            else:
                cell[:] = 230
                cell[:2, :] = 255
                cell[:, :2] = 255
                cell[-2:, :] = 153
                cell[:, -2:] = 153
    return np.dstack([image] * 3), opened


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("opened_share", [0.1, 0.5, 0.8])
def test_bevelled_tiles_and_lined_cells_start_at_the_highlight(seed, opened_share):
    """A covered tile starts at its highlight, an opened cell at its line: the grid is found there to a
    fraction of a pixel (not mid-line, not at the tile before's shadow), whole."""
    image, _ = bevelled_board(seed, opened_share=opened_share)
    g = find_grid(image).geometry
    assert (g.rows, g.cols) == (ROWS, COLS)
    assert abs(g.left - 2) < 0.25 and abs(g.top - 2) < 0.25, (g.left, g.top)
    assert abs(g.pitch_x - PITCH) < 0.01 and abs(g.pitch_y - PITCH) < 0.01


@pytest.mark.parametrize("ring", [0, 1])
def test_a_board_at_the_screenshots_edge_is_found_whole(ring):
    """A board whose outer boundaries lie on the screenshot's edge (or a pixel inside it) is measured
    up to the edge: no strip of it is taken for something else and trimmed."""
    image, _ = bevelled_board(7, ring=ring)
    g = find_grid(image).geometry
    assert (g.rows, g.cols) == (ROWS, COLS)
    assert abs(g.left - ring) < 0.25 and abs(g.top - ring) < 0.25, (g.left, g.top)


def test_a_line_every_cell_shares_is_left_to_the_steps():
    """When covered tiles and opened cells are parted by a line of one colour, the line's pixel is the
    same at every boundary: whose it is cannot be told, so the pixels decide nothing."""
    image, opened = bevelled_board(3)
    gray = grey(image)
    for r in range(ROWS + 1):  # one shared 1-px line before every row and column
        gray[2 + r * PITCH if r < ROWS else 2 + ROWS * PITCH - 1, 2:-2] = 90
    for c in range(COLS + 1):
        gray[2:-2, 2 + c * PITCH if c < COLS else 2 + COLS * PITCH - 1] = 90
    ex, ey = _steps(gray)
    board = _Board(gray, ex, ey, _Axis(2.0, PITCH, COLS), _Axis(2.0, PITCH, ROWS))
    assert opened.any() and not opened.all()
    assert board.owned_start(1, board.ax, 3) is None and board.owned_start(0, board.ay, 3) is None
    clean, _ = bevelled_board(3)  # the same board with each cell's own line: the pixels tell
    gray = grey(clean)
    ex, ey = _steps(gray)
    board = _Board(gray, ex, ey, _Axis(2.0, PITCH, COLS), _Axis(2.0, PITCH, ROWS))
    assert board.owned_start(1, board.ax, 3) == pytest.approx(2.0)
    assert board.owned_start(0, board.ay, 3) == pytest.approx(2.0)


NUMBERED_PITCH = 37


def numbered_board(seed: int, digits: float) -> np.ndarray:
    """A grey BGR screenshot of a board full of numbers at 37 px, as KMines draws one at that size: a
    2 px frame, opened cells with a 1 px light edge of their own on every side, bold dark glyphs with a
    broad foot (a share ``digits`` of the cells), and a few bevelled covered tiles."""
    rng = np.random.default_rng(seed)
    p, frame = NUMBERED_PITCH, 2
    image = np.full((ROWS * p + 2 * frame, COLS * p + 2 * frame), 77, np.uint8)
    for r in range(ROWS):
        for c in range(COLS):
            cell = image[frame + r * p : frame + (r + 1) * p, frame + c * p : frame + (c + 1) * p]
            kind = rng.random()
            if kind < 0.15:  # a covered tile: light outer line, dark ring, light face
                cell[:] = 175
                cell[1:-1, 1:-1] = 125
                cell[2:-2, 2:-2] = 205
                continue
            cell[:] = 207
            cell[1:-1, 1:-1] = 193
            if kind < 0.15 + digits:
                cell[p // 5 : p - p // 6, p // 2 - 2 : p // 2 + 3] = 40  # a stem
                cell[p - p // 6 - 4 : p - p // 6, p // 4 : p - p // 4] = 40  # and its foot
    return np.dstack([image] * 3)


@pytest.mark.parametrize("digits", [0.4, 0.6])
@pytest.mark.parametrize("seed", range(3))
def test_a_board_full_of_numbers_is_found_between_its_faces(seed, digits):
    """The glyphs' stems and feet fold to step peaks of their own, stronger than the faint lines between
    cells (KMines at 37 px was found 4 px off in y, its first row left out, then 15x30 of 16x30 read as
    the whole board). The boundaries lie between the cells' flat faces, never through them: the board
    is found whole, within its 2 px lines (each the edges of two cells)."""
    g = find_grid(numbered_board(seed, digits)).geometry
    assert (g.rows, g.cols) == (ROWS, COLS)
    assert abs(g.left - 2) <= 1.5 and abs(g.top - 2) <= 1.5, (g.left, g.top)


@pytest.mark.parametrize("depth", [2, 6, 15])
@pytest.mark.parametrize("side", ["top", "bottom", "left", "right"])
def test_a_board_cut_through_a_row_of_numbers_is_called_cut(side, depth):
    """The screenshot's edge cuts the board ``depth`` px into its outer cells, full of numbers: the
    glyphs' steps off the lattice drown its lines in the cut strip's changes, but a line still crosses
    every boundary of it, as the board's own cells show: the side is called cut (so the part that
    shows is never read as the board). The whole board is not."""
    from bot.geometry import Geometry
    from bot.vision.grid import cut_sides

    p = NUMBERED_PITCH
    image = numbered_board(1, 0.8)
    whole = Geometry(2, 2, p, p, ROWS, COLS)
    cut, shows = {
        "top": (image[2 + depth :], Geometry(2, p - depth, p, p, ROWS - 1, COLS)),
        "bottom": (image[: 2 + ROWS * p - depth], Geometry(2, 2, p, p, ROWS - 1, COLS)),
        "left": (image[:, 2 + depth :], Geometry(p - depth, 2, p, p, ROWS, COLS - 1)),
        "right": (image[:, : 2 + COLS * p - depth], Geometry(2, 2, p, p, ROWS, COLS - 1)),
    }[side]
    assert cut_sides(np.ascontiguousarray(cut), shows) == [side]
    assert cut_sides(image, whole) == []


@pytest.mark.parametrize("seed", range(3))
def test_a_last_row_of_glyphs_at_the_screenshots_edge_is_the_boards(seed):
    """The board's last row is full of glyphs (steps off the lattice nearly as strong as on it) and the
    screenshot ends two pixels below it, in the frame (KMines at 37 px was found 15x30 of 16x30). A line
    crosses every boundary of that row, and the image's edge ends the board as a frame does: the row is
    the board's."""
    image = numbered_board(seed, 0.6)
    p, row = NUMBERED_PITCH, 2 + (ROWS - 1) * NUMBERED_PITCH
    for c in range(COLS):
        cell = image[row : row + p, 2 + c * p : 2 + (c + 1) * p]
        cell[:] = 207
        cell[1:-1, 1:-1] = 193
        for k in range(4):  # four stems across the cell
            cell[6:-6, 5 + 7 * k : 8 + 7 * k] = 40
    g = find_grid(image).geometry
    assert (g.rows, g.cols) == (ROWS, COLS)


def test_a_frame_marked_at_the_boundaries_beside_a_grid_a_pixel_early_is_no_cut_board():
    """KMines' frame: its inner line lightens where each column boundary meets it, then a dotted band.
    A grid found a pixel early leaves the board's last pixel line, then that frame, beyond it (less than
    a cell): the strip's outer half, by the image's edge, shows no line across it, so it is no cut cells."""
    from bot.geometry import Geometry
    from bot.vision.grid import cut_sides

    p = NUMBERED_PITCH
    image = numbered_board(1, 0.6)
    h, w = image.shape[:2]
    image[h - 2, :] = 143
    image[h - 1, ::2] = 88
    for c in range(COLS + 1):
        image[h - 2, 1 + c * p : 3 + c * p] = 158
    assert cut_sides(image, Geometry(1, 1, p, p, ROWS, COLS)) == []
