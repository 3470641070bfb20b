"""``xdemineur`` as a real client: its size and mine count on the command line, a new process per game."""

from __future__ import annotations

import logging

from bot.game import FirstClickRule
from harness.client import ClientLayout, RealClient
from harness.processes import find_program
from harness.xdisplay import VirtualDisplay

LOGGER = logging.getLogger(__name__)


class XDemineur(RealClient):
    """``xdemineur -geometry COLSxROWS+0+0 -m MINES`` (at least 12 columns; no first-click safety).

    It opens a random zero region by itself at start-up. Its face button resets the mine count to
    the default, so :meth:`restart` starts a new process instead.
    """

    name = "xdemineur"
    skin_name = "xdemineur"
    first_click_rule = FirstClickRule.NONE
    new_game = "restart"
    layout = ClientLayout(board_dx=17, board_dy=82, pitch=21, face_dx=-19, face_dy=21, face_size=40)
    search = ("--classname", "xdemineur")

    def __init__(
        self,
        display: VirtualDisplay | str,
        rows: int = 16,
        cols: int = 30,
        mines: int = 99,
        timeout: float = 20.0,
    ) -> None:
        if cols < 12 or rows < 1 or not 0 < mines < rows * cols:
            raise ValueError(f"xdemineur cannot play {rows}x{cols} with {mines} mines (needs >= 12 columns)")
        super().__init__(display, rows, cols, mines, timeout)

    def command(self) -> list[str]:
        return [find_program("xdemineur"), "-geometry", f"{self.cols}x{self.rows}+0+0", "-m", str(self.mines)]
