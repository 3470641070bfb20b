"""Pixel geometry: cell rectangles, centres and hit-testing agree at every pitch."""

import pytest

from bot.geometry import Geometry, Region


@pytest.mark.parametrize("pitch", [16, 20, 21, 24.5, 32.64, 33.3])
def test_cell_at_agrees_with_cell_rect_on_every_pixel(pitch):
    g = Geometry(left=7.3, top=11.6, pitch_x=pitch, pitch_y=pitch * 1.01, rows=4, cols=6)
    for r in range(g.rows):
        for c in range(g.cols):
            rect = g.cell_rect((r, c))
            for x in range(rect.left, rect.right):
                assert g.cell_at(x, rect.top) == (r, c)
                assert g.cell_at(x, rect.bottom - 1) == (r, c)
            assert g.cell_at(*g.cell_center((r, c))) == (r, c)


def test_outside_the_board_is_none():
    g = Geometry(left=0, top=0, pitch_x=10, pitch_y=10, rows=2, cols=2)
    assert g.cell_at(-1, 5) is None and g.cell_at(20, 5) is None and g.cell_at(5, 20) is None


def test_region_union_offset_and_validation():
    a, b = Region(0, 0, 10, 10), Region(5, -5, 10, 10)
    assert a.union(b) == Region(0, -5, 15, 15)
    assert a.offset(-3, 4) == Region(-3, 4, 10, 10)
    assert a.contains(9, 9) and not a.contains(10, 0)
    with pytest.raises(ValueError):
        Region(0, 0, 0, 5)


def test_offset_moves_the_face_too():
    g = Geometry(10, 10, 16, 16, 9, 9, face=Region(50, 0, 26, 26)).offset(-10, 5)
    assert (g.left, g.top, g.face) == (0, 15, Region(40, 5, 26, 26))
