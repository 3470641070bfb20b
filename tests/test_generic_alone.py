"""A lone glyph on a kind is its flag only when not drawn as a digit the board shows on revealed tiles."""

from __future__ import annotations

import cv2
import numpy as np

from bot.vision.cutting import TILE, Group, Shape
from bot.vision.describe import holes_counted
from bot.vision.glyphs import digit_distances, glyph_shape
from bot.vision.tilekinds import Kind, _shown_digit

PURPLE = np.array([135.0, 80.0, 122.0])
"""A digit's ink (BGR), as one client draws its 4s."""


def _ink(draw, dx: float, dy: float) -> np.ndarray:
    """A ``TILE`` px ink mask drawn 8x larger by ``draw`` and shrunk, moved by ``(dx, dy)`` px first (one
    glyph at two sub-pixel phases differs only by rendering)."""
    big = np.zeros((TILE * 8, TILE * 8), np.uint8)
    draw(big)
    moved = cv2.warpAffine(big, np.float32([[1, 0, dx * 8], [0, 1, dy * 8]]), big.shape[::-1])
    return cv2.resize(moved, (TILE, TILE), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _four(canvas: np.ndarray) -> None:
    """An open 4 of a font of its own (no reference's): a slanted stroke into the crossbar, a stem."""
    cv2.polylines(
        canvas, [np.array([[150, 40], [60, 150], [190, 150]], np.int32)], False, 255, 22, cv2.LINE_AA
    )
    cv2.line(canvas, (150, 40), (150, 215), 255, 24, cv2.LINE_AA)


def _flag(canvas: np.ndarray) -> None:
    """A pole on a foot with a pennant: the flag drawn in one ink."""
    cv2.rectangle(canvas, (124, 50), (140, 200), 255, -1)
    cv2.fillPoly(canvas, [np.array([[140, 50], [140, 130], [70, 90]], np.int32)], 255)
    cv2.rectangle(canvas, (80, 190), (190, 210), 255, -1)


def _group(ink: np.ndarray, colour: np.ndarray, kind: int) -> Group:
    """A one-cell digit group of glyph ``ink`` in ``colour`` on kind ``kind``, its shape measured."""
    shape = glyph_shape(ink)
    assert shape is not None
    costs = holes_counted(shape, digit_distances(shape))
    return Group(
        members=np.array([0]),
        tile=np.zeros((TILE, TILE, 3), np.float32),
        shape=Shape.DIGIT,
        digit=int(costs.argmin()) + 1,
        kind=kind,
        costs=costs,
        glyph=shape,
        ink=colour,
    )


def _kinds() -> list[Kind]:
    """Kind 0 flat and carrying one glyph look (covered or revealed: the logic picks), kind 1 flat and
    showing several digit looks (surely revealed)."""
    grey = np.full(3, 190.0)
    return [
        Kind([0], grey, 400, False, 2.0, digits=2, digit_looks=1, glyph_looks=1),
        Kind([1], grey, 20, False, 0.3, digits=17, digit_looks=5, glyph_looks=5),
    ]


def test_a_lone_digit_drawn_like_a_revealed_kinds_digit_is_no_flag():
    """KMines at 15 px, half a pixel off its grid: a lone purple 4's tile framed like the covered kind's,
    and as the only glyph look there it was that kind's flag (read 'F' where the game showed 4), though
    the revealed kind showed the same 4 in the same ink. A glyph drawn as a digit the board shows on
    its revealed tiles is that digit, never a flag."""
    kinds = _kinds()
    shown = _group(_ink(_four, 0.0, 0.0), PURPLE, kind=1)
    lone = _group(_ink(_four, 0.5, -0.5), PURPLE + 2.0, kind=0)
    assert shown.digit == lone.digit == 4
    assert _shown_digit(lone, [shown, lone], kinds) == 1


def test_a_lone_glyph_unlike_every_revealed_digit_may_still_be_a_flag():
    """The rule leaves flags alone: a glyph of another ink than the revealed 4 (or a flag's pole and
    pennant beside a shown 1 of the same ink) is not the board's digit."""
    kinds = _kinds()
    shown = _group(_ink(_four, 0.0, 0.0), PURPLE, kind=1)
    other_ink = _group(_ink(_four, 0.5, -0.5), np.array([20.0, 20.0, 230.0]), kind=0)
    assert None is _shown_digit(other_ink, [shown, other_ink], kinds)
    flag = _group(_ink(_flag, 0.0, 0.0), PURPLE, kind=0)
    one = _group(_ink(lambda c: cv2.rectangle(c, (120, 40), (144, 210), 255, -1), 0.0, 0.0), PURPLE, kind=1)
    assert one.digit == 1
    assert None is _shown_digit(flag, [one, flag], kinds)
    # nor does a kind that is not surely revealed (one digit look) show the board's digits
    assert None is _shown_digit(
        _group(_ink(_four, 0.5, -0.5), PURPLE, kind=1), [_group(_ink(_four, 0, 0), PURPLE, 0)], kinds
    )
