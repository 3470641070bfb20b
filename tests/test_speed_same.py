"""Speed of skinless reading with the same readings (session 15): what each change keeps the same, and
that it does what it is for."""

from __future__ import annotations

import platform
import resource
from pathlib import Path

import cv2
import pytest

from bot.board import Board
from bot.vision.generic import read_cells
from bot.vision.memory import keep_freed_memory
from tests.test_vision_generic import capture_geometry

REAL = Path(__file__).parent / "data" / "real"

glibc = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc's allocator only"
)


def _large_board() -> tuple:
    """A JSMinesweeper Expert board at zoom 1.75 (56 px cells: its float arrays are 18 MB each)."""
    png = REAL / "jsminesweeper" / "t32_z175" / "digits_playing.png"
    return cv2.imread(str(png)), capture_geometry(png, Board.from_text(png.with_suffix(".txt").read_text()))


@glibc
def test_freed_memory_is_kept_on_glibc() -> None:
    assert keep_freed_memory() is True


@glibc
def test_a_second_reading_reuses_the_first_ones_memory() -> None:
    """Reading a large board again faults in almost no fresh page: its arrays come from memory the
    first reading freed (before, glibc gave it back, and about 3,500 pages were faulted in again and
    zeroed by the kernel at every reading)."""
    image, geometry = _large_board()
    read_cells(image, geometry)  # the process's first reading builds what it keeps (reference digits)
    faults = []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        read_cells(image, geometry)
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
    assert min(faults) < 500, faults
