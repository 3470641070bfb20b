"""Read the mine counter: the 7-segment LCD display (or a labelled number) near the board, by structure.

The counter is found and read without any client's colours:

1. *Lit strokes.* In bands above and below the board, pixels that are bright and strongly coloured (red,
   green, yellow, blue LCD strokes) are grouped, a stroke's width apart, into candidate displays.
2. *Digits.* A display is split into digit cells at the columns with no stroke; a narrow cell (a ``1``,
   lit only on its right) is widened to the display's digit width, right-aligned.
3. *Segments.* Each pixel is scored between the display's own dark colour (background and unlit
   segments) and its own lit colour; a segment is lit when most of its area is. The seven-bit pattern
   names the digit (``-`` for a minus sign, nothing lit for a blank leading digit); anything else (the
   loops of a digit lit, an unknown pattern) means the group is not a counter. A display read with
   every segment lit (all 8s) is not taken for the counter: nothing in it shows an unlit segment, and
   a display that draws its unlit segments dimly reads so whatever it shows once they pass for lit.
4. *Text.* With no 7-segment display, a labelled number in text (xbomb's ``UXB : 82``) is read: the last
   word of a line of text, all digits of one height, after a label of other glyphs; each digit is told
   by its shape (holes, where the ink lies), letters refused where they differ from digits.
5. *Which display.* Most clients show two: mines left and a timer, on either side (winemine puts the
   mines on the right). Given the board, a display whose value cannot be the mines left is dropped:
   the total it implies (value plus flags) must leave room for every number's mines and fit in the
   covered cells, and a fresh board with no flag has at least one mine left. Given an earlier reading,
   a display whose value changed while the flags did not is the timer. Of two that fit a board of a
   standard size, the one giving the standard total is taken. When two still fit, the reading says so
   and gives no value rather than take the timer for the mines.
6. *Colour shifts.* "Coloured" means coloured against the window's own grey: a night light (blue and
   green scaled down, then a gamma) paints grey window chrome a warm tan, and so does a client whose
   chrome is tan; its white bevels would then pass for lit strokes. Under such a filter every grey
   keeps one chromaticity (the channel ratios of the filter), which is the most common chromaticity of
   the bright pixels around the display (window chrome, panels); each channel of the band searched is
   scaled so that chromaticity is grey again before anything is looked for (:func:`screen_grey`). A
   band whose grey is grey is left as it is.

>>> import numpy as np
>>> from bot.geometry import Geometry
>>> image = np.zeros((60, 120, 3), np.uint8)
>>> for n, x in ((0, 10), (4, 24)):
...     draw_digit(image, n, x, 5, 10, 20, (0, 0, 255))
>>> mine_counter(image, Geometry(0, 40, 10, 10, 2, 12)).value
4
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from bot.board import Board, Cell
from bot.game import LEVELS
from bot.geometry import Geometry, Region

STANDARD_MINES = {
    shape: level.mines
    for level in LEVELS.values()
    for shape in ((level.rows, level.cols), (level.cols, level.rows))
}
"""Mines of each standard level by board shape: of two displays that both fit a board of a standard
size, the one giving the standard total is the counter."""

ABOVE_ROWS = 6.0
"""How far above the board a counter is looked for, in cell pitches (the face's band)."""

BELOW_ROWS = 4.0
"""How far below the board a counter is looked for, in cell pitches."""

LIT_VALUE = 96
"""Least brightness (0-255, brightest channel) of a lit LCD stroke when looking for displays."""

LIT_CONTRAST = 48
"""Least brightness a lit stroke has over its surroundings (a stroke-wide opening of the image)."""

SHEARS = np.linspace(-0.35, 0.35, 15)
"""Shears (columns per row) tried to stand an italic display upright."""

MIN_TEXT = 10
"""Smallest glyph height (pixels) read in a text counter."""

TEXT_CONTRAST = 64
"""Least difference (0-255 grey) between a text counter's strokes and its panel."""

LIT_CHROMA = 64
"""Least colourfulness (brightest minus dimmest channel) of a lit stroke when looking for displays: LCD
strokes are coloured, window chrome and text are grey."""

SEGMENT_LIT = 0.5
"""A segment is lit when along this fraction of its length some pixel is nearer the display's lit
colour than its dark one; a loop's inside must have fewer than this fraction of such pixels."""

SEGMENTS: dict[tuple[int, ...], str] = {
    (1, 1, 1, 1, 1, 1, 0): "0",
    (0, 1, 1, 0, 0, 0, 0): "1",
    (1, 1, 0, 1, 1, 0, 1): "2",
    (1, 1, 1, 1, 0, 0, 1): "3",
    (0, 1, 1, 0, 0, 1, 1): "4",
    (1, 0, 1, 1, 0, 1, 1): "5",
    (1, 0, 1, 1, 1, 1, 1): "6",
    (0, 0, 1, 1, 1, 1, 1): "6",
    (1, 1, 1, 0, 0, 0, 0): "7",
    (1, 1, 1, 0, 0, 1, 0): "7",
    (1, 1, 1, 1, 1, 1, 1): "8",
    (1, 1, 1, 1, 0, 1, 1): "9",
    (1, 1, 1, 0, 0, 1, 1): "9",
    (0, 0, 0, 0, 0, 0, 1): "-",
    (0, 0, 0, 0, 0, 0, 0): " ",
}
"""Lit segments ``(a, b, c, d, e, f, g)`` (top, upper right, lower right, bottom, lower left, upper left,
middle) of each character a counter shows; 6, 7 and 9 are drawn with and without their tails."""

SEGMENT_BOXES = (
    (0.0, 0.16, 0.3, 0.7),
    (0.14, 0.44, 0.72, 1.0),
    (0.56, 0.86, 0.72, 1.0),
    (0.84, 1.0, 0.3, 0.7),
    (0.56, 0.86, 0.0, 0.28),
    (0.14, 0.44, 0.0, 0.28),
    (0.43, 0.57, 0.3, 0.7),
)
"""Where each segment ``a``..``g`` is sampled in a digit cell: (top, bottom, left, right) as fractions."""

HORIZONTAL = (0, 3, 6)
"""The segments drawn across (``a``, ``d``, ``g``); the others run down."""

HOLES = ((0.2, 0.38, 0.35, 0.65), (0.62, 0.8, 0.35, 0.65))
"""The insides of a 7-segment digit's two loops: never lit (a lit one means this is no digit)."""

GREY_LEVEL = 24
"""Least value of every channel of a pixel whose chromaticity counts towards a band's grey (the ratios
of darker pixels are noise)."""

GREY_BIN = 0.04
"""Width of a chromaticity bin (natural log of blue/red and green/red) when finding the commonest one."""

GREY_SHARE = 0.5
"""Least share of the counted pixels the commonest chromaticity must hold to be taken for a band's grey
(a band of many colours, none dominant, is left as it is)."""

GREY_SLACK = 0.03
"""Channel ratios within this of 1 are grey already: the band is left untouched."""

GREY_SAMPLES = 20000
"""About how many pixels, evenly spread, are sampled to find a band's grey."""

GREY_PIXELS = 400
"""Fewest sampled pixels bright enough to tell a band's grey."""

NO_SHIFT = (1.0, 1.0, 1.0)
"""The gains of a band whose grey is grey (or whose grey cannot be told): it is left as it is."""


def draw_digit(
    image: np.ndarray, char: int | str, x: int, y: int, w: int, h: int, colour: tuple[int, int, int]
) -> None:
    """Draw a 7-segment character (strokes a fifth of the width) into ``image``: for tests and docs."""
    pattern = next(bits for bits, c in SEGMENTS.items() if c == str(char))
    t = max(1, w // 5)
    bars = (
        (x + t, y, x + w - t, y + t),
        (x + w - t, y + t, x + w, y + h // 2),
        (x + w - t, y + h // 2, x + w, y + h - t),
        (x + t, y + h - t, x + w - t, y + h),
        (x, y + h // 2, x + t, y + h - t),
        (x, y + t, x + t, y + h // 2),
        (x + t, y + h // 2 - t // 2, x + w - t, y + h // 2 - t // 2 + t),
    )
    for lit, (x0, y0, x1, y1) in zip(pattern, bars, strict=True):
        if lit:
            image[y0:y1, x0:x1] = colour


@dataclass(frozen=True)
class Display:
    """One 7-segment display found near the board: where, what it shows, its value."""

    region: Region
    text: str
    value: int
    kind: str = "lcd"
    """``lcd`` (7 segments, read by which are lit) or ``text`` (glyphs read by hand-made shape rules,
    checked on xbomb's font only: other fonts may misread, so a caller may want to confirm it)."""
    grey: tuple[float, float, float] = NO_SHIFT
    """The gains its band was balanced with (:func:`screen_grey`), kept for reading it again."""


@dataclass
class CounterReading:
    """The mine counter's value, or ``None`` with the reason it cannot be read."""

    value: int | None
    reason: str = ""
    display: Display | None = None
    displays: list[Display] = field(default_factory=list)
    """Every display read near the board (the mine counter and e.g. the timer)."""
    flags: int | None = None
    """Flags on the board this was read with (to tell the timer by a later frame)."""

    @property
    def total(self) -> int | None:
        """The board's mine total this reading gives: the mines left shown plus the flags on the board
        (the counter counted every flag placed), or ``None`` without a value or a board."""
        return None if self.value is None or self.flags is None else self.value + self.flags


def screen_grey(image: np.ndarray) -> tuple[float, float, float]:
    """Per-channel (B, G, R) gains that make the grey of ``image`` (a band of the screen) grey again;
    :data:`NO_SHIFT` when it is grey already or no chromaticity dominates (module docstring, item 6).

    >>> import numpy as np
    >>> grey = np.full((40, 40, 3), 200, np.uint8)
    >>> screen_grey(grey)
    (1.0, 1.0, 1.0)
    >>> warm = (grey * np.array([0.6, 0.85, 1.0])).astype(np.uint8)
    >>> [round(g, 2) for g in screen_grey(warm)]
    [1.67, 1.18, 1.0]
    """
    stride = max(1, int((image.shape[0] * image.shape[1] / GREY_SAMPLES) ** 0.5))
    pixels = image[::stride, ::stride].reshape(-1, 3)
    pixels = pixels[pixels.min(axis=1) >= GREY_LEVEL].astype(np.float32)
    if len(pixels) < GREY_PIXELS:
        return NO_SHIFT
    ratios = np.log(pixels[:, :2] / pixels[:, 2:])
    bins = np.round(ratios / GREY_BIN).astype(np.int64)
    bins -= bins.min(axis=0)
    keys = bins[:, 0] * (int(bins[:, 1].max()) + 1) + bins[:, 1]
    counts = np.bincount(keys)
    mode = int(counts.argmax())
    if counts[mode] < GREY_SHARE * len(pixels):
        return NO_SHIFT
    blue, green = np.exp(np.median(ratios[keys == mode], axis=0))
    if max(abs(blue - 1), abs(green - 1)) <= GREY_SLACK:
        return NO_SHIFT
    return (1 / float(blue), 1 / float(green), 1.0)


def _balanced(window: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    """The window with each channel scaled by ``gains`` (:func:`screen_grey`)."""
    if gains == NO_SHIFT:
        return window
    return np.clip(window.astype(np.float32) * np.asarray(gains, np.float32), 0, 255).astype(np.uint8)


def _bands(image: np.ndarray, geometry: Geometry) -> list[Region]:
    """The parts of the image above and below the board where a counter may be."""
    height, width = image.shape[:2]
    board = geometry.region()
    pitch = max(geometry.pitch_x, geometry.pitch_y)
    left, right = max(0, round(board.left - pitch)), min(width, round(board.right + pitch))
    bands = []
    for top, bottom in (
        (round(board.top - ABOVE_ROWS * pitch), board.top),
        (board.bottom, round(board.bottom + BELOW_ROWS * pitch)),
    ):
        top, bottom = max(0, top), min(height, bottom)
        if bottom > top and right > left:
            bands.append(Region(left, top, right - left, bottom - top))
    return bands


def _stroke_mask(window: np.ndarray, pitch: float) -> np.ndarray:
    """Pixels bright and coloured enough to be a lit LCD stroke, and brighter than what is around
    them (a coloured panel behind the display is no stroke)."""
    high = window.max(axis=2)
    low = window.min(axis=2)
    side = max(5, round(pitch / 2)) | 1
    around = cv2.morphologyEx(high, cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
    high, low, around = high.astype(np.int16), low.astype(np.int16), around.astype(np.int16)
    lit = (high >= LIT_VALUE) & (high - low >= LIT_CHROMA) & (high - around >= LIT_CONTRAST)
    return lit.astype(np.uint8)


def _upright(lit: np.ndarray) -> np.ndarray:
    """The display's lit mask sheared so its strokes stand upright (italic LCDs lean): the shear that
    leaves the fewest columns lit, the least shear among equals."""
    h, w = lit.shape
    ys, xs = np.nonzero(lit)
    if not len(xs):
        return lit
    best = (len(np.unique(xs)), 0.0)
    for shear in SHEARS:
        moved = np.round(xs + shear * (ys - h / 2)).astype(np.int64)
        columns = len(np.unique(moved))
        if columns < best[0] or (columns == best[0] and abs(shear) < abs(best[1])):
            best = (columns, float(shear))
    if best[1] == 0.0:
        return lit
    moved = np.round(xs + best[1] * (ys - h / 2)).astype(np.int64)
    out = np.zeros((h, int(moved.max() - min(0, moved.min())) + 1), dtype=bool)
    out[ys, moved - min(0, moved.min())] = True
    return out


def _groups(mask: np.ndarray, pitch: float) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x, y, w, h)`` of strokes joined across gaps of up to a third of a cell pitch ."""
    reach = max(3, round(pitch / 8))
    joined = cv2.dilate(mask, np.ones((reach, reach), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    boxes = []
    for label in range(1, count):
        x, y, w, h = (int(v) for v in stats[label, :4])
        ys, xs = np.nonzero((labels[y : y + h, x : x + w] == label) & (mask[y : y + h, x : x + w] > 0))
        if len(xs):
            boxes.append((x + int(xs.min()), y + int(ys.min()), int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1))
    return _join_rows(sorted(boxes))


def _join_rows(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes on one line (one's height within the other's: a ``1``'s strokes may stop short, a minus
    is a bar), less than a digit height apart, joined: digits parted by a ``1`` or a blank."""
    joined: list[tuple[int, int, int, int]] = []
    for x, y, w, h in boxes:
        for i, (jx, jy, jw, jh) in enumerate(joined):
            tall, slack = max(h, jh), 0.15 * max(h, jh)
            inside = (y >= jy - slack and y + h <= jy + jh + slack) or (
                jy >= y - slack and jy + jh <= y + h + slack
            )
            if inside and x - (jx + jw) <= 0.8 * tall:
                top, bottom = min(jy, y), max(jy + jh, y + h)
                joined[i] = (jx, top, max(jx + jw, x + w) - jx, bottom - top)
                break
        else:
            joined.append((x, y, w, h))
    return joined


def _lit_score(window: np.ndarray, strokes: np.ndarray) -> np.ndarray:
    """Each pixel placed between the display's own dark colour (0) and its own lit colour (1)."""
    pixels = window.reshape(-1, 3).astype(np.float32)
    on = strokes.reshape(-1) > 0
    if on.all() or not on.any():
        return on.reshape(window.shape[:2]).astype(np.float32)
    lit = pixels[on].mean(axis=0)
    dark = np.median(pixels[~on], axis=0)
    axis = lit - dark
    return ((pixels - dark) @ axis / max(float(axis @ axis), 1e-6)).reshape(window.shape[:2])


def _digit_cells(lit: np.ndarray) -> list[tuple[int, int, int]]:
    """Digits of a display as ``(cell start, strokes start, end)`` columns: a narrow ``1`` gets a cell
    of the digit width, right-aligned, lit only from its strokes on; a span
    much wider than a digit (a face between two displays) is kept, to be refused as no digit."""
    columns = lit.any(axis=0)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], columns.astype(np.int8), [0]])))
    runs = list(zip(edges[0::2].tolist(), edges[1::2].tolist(), strict=True))
    height = lit.shape[0]
    wide = [b - a for a, b in runs if 0.3 * height <= b - a <= 0.8 * height]
    if not wide:
        return []
    width = int(np.median(wide))
    return [(b - width, a, b) if b - a < 0.6 * width else (a, a, b) for a, b in runs]


def _read_cell(lit: np.ndarray) -> str | None:
    """The character one digit cell shows, or ``None`` when it is no 7-segment character.

    A horizontal segment is lit along its length when any pixel across it is, a vertical one down its
    height: so the stroke's thickness does not matter.
    """
    h, w = lit.shape

    def part(box: tuple[float, float, float, float]) -> np.ndarray:
        top, bottom, left, right = box
        y0, x0 = int(top * h), int(left * w)
        return lit[y0 : max(y0 + 1, int(bottom * h)), x0 : max(x0 + 1, int(right * w))]

    if any(part(hole).mean() >= SEGMENT_LIT for hole in HOLES):
        return None
    bits = []
    for index, box in enumerate(SEGMENT_BOXES):
        along = part(box).any(axis=0 if index in HORIZONTAL else 1)
        bits.append(int(along.mean() >= SEGMENT_LIT))
    return SEGMENTS.get(tuple(bits))


def _read_display(
    window: np.ndarray, strokes: np.ndarray, box: tuple[int, int, int, int], pitch: float
) -> list[Display]:
    """The displays in a candidate box: runs of two or more readable digit cells (a face between two
    displays, being no digit, parts them)."""
    x, y, w, h = box
    if not (0.5 * pitch <= h <= 4 * pitch and w >= 0.8 * h):
        return []
    part = window[y : y + h, x : x + w]
    lit = _upright(_lit_score(part, strokes[y : y + h, x : x + w]) >= 0.5)
    w = lit.shape[1]
    found: list[Display] = []
    run: list[tuple[int, int, str]] = []
    for a, start, b in [*_digit_cells(lit), (w, w, w)]:
        cell = np.zeros((h, b - a), dtype=bool)
        cell[:, start - a :] = lit[:, start:b]
        char = _read_cell(cell) if b - a <= 0.8 * h and b > a else None
        if char is not None:
            run.append((a, b, char))
            continue
        text = "".join(c for _, _, c in run).strip()
        if len(run) >= 2 and text.lstrip("-").isdigit():
            left, right = run[0][0], run[-1][1]
            found.append(Display(Region(x + left, y, right - left, h), text, int(text)))
        run = []
    return found


def find_displays(image: np.ndarray, geometry: Geometry, text: bool = True) -> list[Display]:
    """Every 7-segment display above or below the board, left to right, top to bottom; when there is
    none (and ``text``), every labelled number in text there (:func:`_text_numbers`). Colours are
    judged against each band's own grey (:func:`screen_grey`)."""
    pitch = max(geometry.pitch_x, geometry.pitch_y)
    found = []
    windows = []
    for band in _bands(image, geometry):
        window = image[band.top : band.bottom, band.left : band.right]
        gains = screen_grey(window)
        windows.append((band, _balanced(window, gains), gains))
    for band, window, gains in windows:
        strokes = _stroke_mask(window, pitch)
        for box in _groups(strokes, pitch):
            for display in _read_display(window, strokes, box, pitch):
                found.append(replace(display, region=display.region.offset(band.left, band.top), grey=gains))
    if not found and text:
        for band, window, gains in windows:
            for display in _text_numbers(window, pitch):
                found.append(replace(display, region=display.region.offset(band.left, band.top), grey=gains))
    return sorted(found, key=lambda d: (d.region.top // max(1, d.region.height), d.region.left))


def _ink_masks(grey: np.ndarray, pitch: float) -> list[np.ndarray]:
    """Text strokes darker (then lighter) than the panel around them: the image's difference from its
    stroke-wide closing (opening)."""
    kernel = np.ones((max(5, round(pitch / 2)) | 1,) * 2, np.uint8)
    dark = cv2.subtract(cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel), grey)
    light = cv2.subtract(grey, cv2.morphologyEx(grey, cv2.MORPH_OPEN, kernel))
    return [(dark >= TEXT_CONTRAST).astype(np.uint8), (light >= TEXT_CONTRAST).astype(np.uint8)]


def _holes(glyph: np.ndarray) -> list[tuple[float, float]]:
    """Centre height and height (fractions of the glyph's) of each enclosed hole of a glyph mask."""
    padded = np.pad(~glyph, 1, constant_values=True).astype(np.uint8)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(padded, connectivity=4)
    h, w = glyph.shape
    holes = []
    for label in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[label])
        if label == labels[0, 0] or area < max(2, 0.02 * h * w):
            continue
        holes.append(((centres[label][1] - 1) / h, bh / h))
    return holes


def read_glyph(glyph: np.ndarray) -> str | None:
    """The digit a text glyph (a boolean mask cut to its ink) shows, by its shape: its holes and where
    its ink lies; ``None`` for anything else. Letters are refused where they differ from digits: a
    solid stem down the left (B, D, P, R, E...), no arch over a flat foot (U, X against 2), no stroke
    down the right under a top bar (T against 7), a round shape wider than tall (O in some fonts)."""
    h, w = glyph.shape
    if h < 6:
        return None

    def ink(top: float, bottom: float, left: float, right: float) -> float:
        y0, x0 = int(top * h), int(left * w)
        part = glyph[y0 : max(y0 + 1, int(bottom * h)), x0 : max(x0 + 1, int(right * w))]
        return float(part.mean())

    if w < 0.45 * h:
        return "1" if glyph.any(axis=1).mean() > 0.95 and glyph.mean(axis=0).max() > 0.8 else None
    if ink(0.0, 1.0, 0.0, 0.15) > 0.85:
        return None  # a letter's stem
    holes = _holes(glyph)
    if len(holes) == 2:
        return "8" if abs(holes[0][0] - holes[1][0]) > 0.25 else None
    if len(holes) == 1:
        middle, tall = holes[0]
        if tall >= 0.45:
            sides = (
                ink(0.2, 0.4, 0.0, 0.3),
                ink(0.6, 0.8, 0.0, 0.3),
                ink(0.2, 0.4, 0.7, 1.0),
                ink(0.6, 0.8, 0.7, 1.0),
            )
            closed = min(sides) > 0.15 and ink(0.8, 1.0, 0.0, 0.4) > 0.1 and 0.42 <= middle <= 0.58
            return "0" if closed and w <= 0.95 * h else None  # a 6, 9 or 4 with a tall loop is open somewhere
        if middle > 0.55:
            return "6"
        if middle < 0.45:
            top_ink = np.flatnonzero(glyph[: max(1, h // 6)].any(axis=0))
            return "4" if top_ink.mean() > 0.55 * w else "9"
        return None
    foot = (
        ink(0.85, 1.0, 0.0, 1.0) > 0.6
        and ink(0.65, 0.85, 0.0, 0.35) > 0.1
        and ink(0.55, 0.8, 0.7, 1.0) < 0.25
    )
    foot = foot and ink(0.1, 0.35, 0.7, 1.0) > 0.2  # a 2 bulges upper right and runs lower left
    if foot and ink(0.0, 0.15, 0.3, 0.7) > 0.3 and ink(0.35, 0.5, 0.0, 0.3) < 0.15:
        return "2"  # an arch over a flat foot, open on the left above the middle (an S is not)
    if ink(0.0, 0.15, 0.0, 1.0) > 0.6 and ink(0.85, 1.0, 0.0, 1.0) < 0.3 and ink(0.15, 0.35, 0.6, 1.0) > 0.1:
        return "7"
    upper_left, upper_right = ink(0.2, 0.4, 0.0, 0.3), ink(0.2, 0.4, 0.7, 1.0)
    if (
        upper_left > 0.2
        and upper_right < 0.1
        and ink(0.0, 0.15, 0.0, 1.0) > 0.5
        and ink(0.0, 0.15, 0.0, 0.2) > 0.3
    ):
        return "5"  # a bar meeting the stem at a square corner (an S is round there)
    lower_right, bottom = ink(0.6, 0.8, 0.7, 1.0), ink(0.85, 1.0, 0.0, 1.0)
    if (
        upper_right > 0.2
        and upper_left < 0.1
        and ink(0.4, 0.6, 0.0, 0.25) < 0.15
        and lower_right > 0.2
        and bottom > 0.2
    ):
        return "3"
    return None


_Glyph = tuple[int, int, int, int, str | None]


def _split(glyphs: list[_Glyph], joined) -> list[list[_Glyph]]:
    """Glyphs (sorted by x) in runs, each glyph joined to the last run ``joined`` accepts it into."""
    runs: list[list[_Glyph]] = []
    for glyph in glyphs:
        for run in runs:
            if joined(run[-1], glyph):
                run.append(glyph)
                break
        else:
            runs.append([glyph])
    return runs


def _stands_out(grey: np.ndarray, ink: np.ndarray, box: tuple[int, int, int, int], mask: np.ndarray) -> bool:
    """Whether a glyph's ink (``ink``, a mask of its box) differs from the panel around it (the pixels
    within half its height that are no ink of its kind, ``mask``) by half ``TEXT_CONTRAST``: a strip
    of panel left between two dark glyphs (``0]`` of a timer) is lighter than their closing, as light
    text would be, but it is the panel's own colour."""
    x, y, w, h = box
    pad = max(2, h // 2)
    top, left = max(0, y - pad), max(0, x - pad)
    around = grey[top : y + h + pad, left : x + w + pad][mask[top : y + h + pad, left : x + w + pad] == 0]
    inside = grey[y : y + h, x : x + w][ink]
    if not around.size or not inside.size:
        return False
    return abs(float(np.median(inside)) - float(np.median(around))) >= TEXT_CONTRAST / 2


def _text_numbers(window: np.ndarray, pitch: float) -> list[Display]:
    """Labelled numbers in the window's text (``UXB : 82``): on a line of text, the last word, when it
    is all digits of one height and the words before it on the line (its label, two glyphs or more,
    of about its height) are not all digits. A glyph whose ink is the panel's own colour is no glyph
    (:func:`_stands_out`)."""
    found = []
    grey = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY)
    for mask in _ink_masks(grey, pitch):
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        glyphs: list[_Glyph] = []
        for label in range(1, count):
            x, y, w, h = (int(v) for v in stats[label, :4])
            if max(MIN_TEXT, 0.25 * pitch) <= h <= 2.5 * pitch and w <= 1.2 * h:
                ink = labels[y : y + h, x : x + w] == label
                if _stands_out(grey, ink, (x, y, w, h), mask):
                    glyphs.append((x, y, w, h, read_glyph(ink)))
        glyphs.sort()
        lines = _split(glyphs, lambda a, b: abs(a[1] + a[3] - b[1] - b[3]) <= 0.2 * max(a[3], b[3]))
        for line in lines:
            words = _split(line, lambda a, b: 0 <= b[0] - (a[0] + a[2]) <= 0.5 * max(a[3], b[3]))
            if len(words) < 2:
                continue
            last, tallest = words[-1], max(g[3] for g in words[-1])
            digits = all(char is not None and h >= 0.85 * tallest for _, _, _, h, char in last)
            label = [g for word in words[:-1] for g in word]
            labelled = (
                len(label) >= 2
                and any(char is None for *_, char in label)
                and 0.75 * tallest <= max(g[3] for g in label) <= 1.33 * tallest
            )
            if digits and labelled:
                text = "".join(char or "" for *_, char in last)
                x0, y0 = last[0][0], min(g[1] for g in last)
                x1, y1 = last[-1][0] + last[-1][2], max(g[1] + g[3] for g in last)
                found.append(Display(Region(x0, y0, x1 - x0, y1 - y0), text, int(text), "text"))
    return found


def _mine_bounds(board: Board) -> tuple[int, int, int]:
    """(flags counted by the counter, least and most total mines the board allows)."""
    cells = board.cells
    flags = int(np.isin(cells, (Cell.FLAG, Cell.WRONG_FLAG)).sum())
    mine = np.isin(cells, (Cell.FLAG, Cell.MINE, Cell.EXPLODED))
    covered = cells == Cell.COVERED
    rows, cols = cells.shape
    pad_mine, pad_covered = np.pad(mine, 1), np.pad(covered, 1)
    around = [(dr, dc) for dr in (0, 1, 2) for dc in (0, 1, 2) if (dr, dc) != (1, 1)]
    known = sum(pad_mine[dr : dr + rows, dc : dc + cols].astype(np.int16) for dr, dc in around)
    need = np.where(cells <= Cell.EIGHT, cells.astype(np.int16) - known, 0)
    # numbers whose covered neighbours do not overlap each need their own mines (greedy, largest first)
    used = np.zeros((rows + 2, cols + 2), dtype=bool)
    hidden = 0
    for index in np.argsort(-need, axis=None, kind="stable"):
        r, c = divmod(int(index), cols)
        if need[r, c] <= 0:
            break
        window = (slice(r, r + 3), slice(c, c + 3))
        open_ = pad_covered[window]
        if open_.any() and not (used[window] & open_).any():
            hidden += min(int(need[r, c]), int(open_.sum()))
            used[window] |= open_
    shown = int(mine.sum())
    return flags, max(1, shown + hidden), shown + int(covered.sum())


def _fits(display: Display, bounds: tuple[int, int, int]) -> bool:
    """True when the display's value can be the mines left on a board with these ``_mine_bounds``."""
    flags, least, most = bounds
    return least <= display.value + flags <= most


def _every_segment_lit(display: Display) -> bool:
    """Whether a 7-segment display reads with every segment of every digit lit (all 8s): then nothing
    in it shows what an unlit segment looks like, and a display that draws its unlit segments dimly,
    once they pass for lit (a darker gamma), reads all 8s whatever it shows."""
    return display.kind == "lcd" and set(display.text) == {"8"}


def _misfit(display: Display, bounds: tuple[int, int, int] | None) -> str:
    """Plainly, why a display cannot be the mines left on a board with these ``_mine_bounds``."""
    where = f"({display.region.left}, {display.region.top})"
    if _every_segment_lit(display):
        return (
            f"{display.text!r} at {where} has every segment lit: a display that draws its unlit segments "
            "dimly would look the same, so it is not read"
        )
    said = f"{display.text.strip()!r} at {where} shows {display.value} left"
    if bounds is not None:
        flags, least, most = bounds
        total = display.value + flags
        said += f", with the board's {flags} flag(s) {total} mines" if flags else f", {total} mines"
        if total > most:
            return f"{said}, more than the board holds ({most}: its covered cells and the mines it shows)"
        if total < least:
            return f"{said}, fewer than its numbers and the mines it shows need ({least})"
    return f"{said}; it changed while the flags did not (a timer)"


def mine_counter(
    image: np.ndarray, geometry: Geometry, board: Board | None = None, earlier: CounterReading | None = None
) -> CounterReading:
    """Find and read the mine counter near a located board (see the module docstring for how).

    ``board`` (the board read from the same image) rules out displays that cannot be the mines left;
    ``earlier`` (a reading of an earlier frame) rules out a display that changed while the flags did not,
    and when it had found the counter, the counter is read again where it was (cheap, each move).
    """
    bounds = None if board is None else _mine_bounds(board)
    flags = None if bounds is None else bounds[0]
    if earlier is not None and earlier.display is not None:
        again = _reread(image, geometry, earlier.display)
        if again is not None and not _every_segment_lit(again) and (bounds is None or _fits(again, bounds)):
            others = [again if d == earlier.display else d for d in earlier.displays]
            return CounterReading(again.value, "", again, others, flags)
    displays = find_displays(image, geometry)
    if not displays:
        return CounterReading(None, "no 7-segment counter or labelled number above or below the board")
    candidates = [d for d in displays if not _every_segment_lit(d)]
    if bounds is not None:
        candidates = [d for d in candidates if _fits(d, bounds)]
    if earlier is not None and earlier.flags == flags:
        before = {(d.region.left, d.region.top): d.value for d in earlier.displays}
        candidates = [d for d in candidates if before.get((d.region.left, d.region.top), d.value) == d.value]
    shown = ", ".join(f"{d.text!r} at ({d.region.left}, {d.region.top})" for d in displays)
    if not candidates:
        why = "; ".join(_misfit(d, bounds) for d in displays)
        return CounterReading(None, f"no display fits the board as mines left: {why}", None, displays, flags)
    if len(candidates) > 1 and board is not None:
        standard = STANDARD_MINES.get(board.shape)
        usual = [d for d in candidates if standard is not None and d.value + (flags or 0) == standard]
        candidates = usual if len(usual) == 1 else candidates
    if len(candidates) > 1:
        return CounterReading(
            None,
            f"{len(candidates)} displays could be the mine counter ({shown}); cannot tell it from the timer",
            None,
            displays,
            flags,
        )
    return CounterReading(candidates[0].value, "", candidates[0], displays, flags)


def _reread(image: np.ndarray, geometry: Geometry, display: Display) -> Display | None:
    """The display found where it was before (the cheap path each move, its band's grey as found
    then), or ``None``."""
    region, pitch = display.region, max(geometry.pitch_x, geometry.pitch_y)
    grow = region.height
    left, top = max(0, region.left - 4 * grow), max(0, region.top - grow)
    right = min(image.shape[1], region.right + grow)
    bottom = min(image.shape[0], region.bottom + grow)
    window = _balanced(image[top:bottom, left:right], display.grey)
    strokes = _stroke_mask(window, pitch)
    found = [d for box in _groups(strokes, pitch) for d in _read_display(window, strokes, box, pitch)]
    found = found or _text_numbers(window, pitch)
    found = [replace(d, region=d.region.offset(left, top), grey=display.grey) for d in found]
    same = [
        d
        for d in found
        if abs(d.region.right - region.right) <= grow / 2 and abs(d.region.top - region.top) <= grow / 2
    ]
    return same[0] if len(same) == 1 else None


def read_mine_counter(image: np.ndarray, geometry: Geometry, board: Board | None = None) -> int | None:
    """The mines left shown by the board's counter, or ``None`` (:func:`mine_counter` says why)."""
    return mine_counter(image, geometry, board).value
