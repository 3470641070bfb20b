"""Vision: find the board on a screenshot, read every cell and the game status.

>>> from bot.render import render_screen
>>> from bot.board import Board
>>> image, truth = render_screen(Board.from_text("F.\\n21\\n00"), "classic", 1.25, seed=3)
>>> reading = read_screen(image, "classic")
>>> print(reading.board), reading.status.value, (reading.geometry.rows, reading.geometry.cols)
F.
21
00
(None, 'playing', (3, 2))
"""

from bot.vision.classify import CellReading, classify_cells
from bot.vision.locate import Location, locate_board
from bot.vision.read import AUTO, Reading, find_board, read_board, read_screen, standard_mines
from bot.vision.status import FaceMatch, find_face, status_from_board

__all__ = [
    "AUTO",
    "CellReading",
    "FaceMatch",
    "Location",
    "Reading",
    "classify_cells",
    "find_face",
    "find_board",
    "locate_board",
    "read_board",
    "read_screen",
    "standard_mines",
    "status_from_board",
]
