"""Test-only renderers of made-up Minesweeper looks, and boards to draw with them.

Calibration must work on a look minebot has never seen, so these looks are invented here and used
nowhere else: ``flat`` (light, thin grid lines), ``dark`` (night theme: dark grey cells, light digits),
``gradient`` (Windows 7-like blue tiles with gaps). :func:`real_look` assembles looks from the real
cell crops in ``../shared/realdata`` (read at test time, never committed). :func:`screenshot` puts a
board in a window with a header, scales it (fractional pitches included) and can JPEG-compress it.

The looks' digits and the header's text are OpenCV 5.0's drawing of them (``data/opencv5``), laid on the
tiles here: the tests were made on those, and ``cv2.putText`` draws other shapes in other releases.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from bot.board import Board, Cell
from bot.geometry import Geometry
from bot.looks.states import mid_game  # noqa: F401  (re-exported: tests draw its positions)
from bot.render import DIGIT_COLORS

REALDATA = Path(__file__).resolve().parent.parent.parent / "shared" / "realdata"
OPENCV5 = Path(__file__).resolve().parent / "data" / "opencv5"

DRAWN_SIZES = (
    (15, True),
    (18, False),
    (20, False),
    (22, False),
    (24, False),
    (26, False),
    (27, False),
    (32, False),
    (35, False),
)
"""The (tile size, bold) whose digits ``data/opencv5/style_digits.png`` holds, a row each, top row first: each
row holds 1-8, 35 px apart, as the ink (0-255) OpenCV 5.0.0.93's ``putText`` drew in its FONT_HERSHEY_DUPLEX
into a tile of that size (placed as :func:`_digit` and :func:`_bold_digit` say)."""

NIGHT_DIGITS = {
    1: (255, 180, 120),
    2: (130, 225, 130),
    3: (120, 120, 255),
    4: (170, 80, 50),
    5: (50, 50, 170),
    6: (210, 210, 90),
    7: (235, 235, 235),
    8: (140, 140, 140),
}
"""A night theme: lighter digits, 7 white and 8 grey (so 7 still stands out most from the cell)."""
MONO_DIGITS = {n: (230, 230, 230) for n in range(1, 9)}
"""Every digit the same white: colour says nothing, so calibration must ask."""
TINTS = {
    1: (250, 215, 180),
    2: (190, 235, 190),
    3: (190, 190, 250),
    4: (230, 180, 200),
    5: (170, 215, 240),
    6: (225, 225, 160),
    7: (210, 170, 235),
    8: (175, 175, 175),
}
"""Per-digit cell backgrounds (a "tiles" theme): every digit drawn in one dark ink on its own colour."""


def _lay(region: np.ndarray, ink: np.ndarray, colour: tuple[int, ...]) -> None:
    """Paint ``colour`` over ``region`` (in place) as much as ``ink`` (0-255) says, as OpenCV 5.0 blends."""
    base = region.astype(np.int32)
    alpha = ink.astype(np.int32)[..., None]
    region[:] = np.round(base + (np.array(colour)[None, None] - base) * alpha / 255)


def _drawn_digit(tile: np.ndarray, n: int, colour: tuple[int, int, int], bold: bool) -> None:
    s = tile.shape[0]
    if (s, bold) not in DRAWN_SIZES:
        raise KeyError(
            f"no drawn digits for {s} px tiles (bold={bold}): add them to {OPENCV5 / 'style_digits.png'}"
        )
    top = sum(size for size, _ in DRAWN_SIZES[: DRAWN_SIZES.index((s, bold))])
    _lay(tile, _opencv5("style_digits.png")[top : top + s, (n - 1) * 35 : (n - 1) * 35 + s], colour)


def _digit(tile: np.ndarray, n: int, colour: tuple[int, int, int]) -> None:
    """A digit about half its cell's height in middling strokes."""
    _drawn_digit(tile, n, colour, bold=False)


def _bold_digit(tile: np.ndarray, n: int, colour: tuple[int, int, int]) -> None:
    """A digit filling most of its cell in heavy strokes (as small clients draw them)."""
    _drawn_digit(tile, n, colour, bold=True)


@lru_cache(maxsize=4)
def _opencv5(name: str, flags: int = cv2.IMREAD_GRAYSCALE) -> np.ndarray:
    """A picture of ``data/opencv5``, read once."""
    return cv2.imread(str(OPENCV5 / name), flags)


def _mine(tile: np.ndarray, body: tuple[int, int, int] = (0, 0, 0)) -> None:
    s = tile.shape[0]
    c, r = s // 2, max(2, s // 4)
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        k = round(r * 1.45)
        cv2.line(tile, (c - dx * k, c - dy * k), (c + dx * k, c + dy * k), body, max(1, s // 14))
    cv2.circle(tile, (c, c), r, body, -1)
    cv2.circle(tile, (c - r // 3, c - r // 3), max(1, r // 4), (255, 255, 255), -1)


def _flag(tile: np.ndarray, colour: tuple[int, int, int] = (0, 0, 230)) -> None:
    s = tile.shape[0]
    pole = s // 2 + 1
    pts = np.array([[pole, s // 4], [pole, s // 2 + 1], [s // 4, (3 * s) // 8]], np.int32)
    cv2.fillPoly(tile, [pts], colour)
    cv2.line(tile, (pole, s // 4), (pole, (3 * s) // 4), (0, 0, 0), max(1, s // 14))
    cv2.line(tile, (s // 4, (3 * s) // 4), ((3 * s) // 4, (3 * s) // 4), (0, 0, 0), max(1, s // 10))


def _cross(tile: np.ndarray) -> None:
    s = tile.shape[0]
    a, b = s // 5, s - s // 5
    for p, q in (((a, a), (b, b)), ((a, b), (b, a))):
        cv2.line(tile, p, q, (0, 0, 255), max(2, s // 8))


@dataclass(frozen=True)
class Look:
    """A made-up client look: how to draw one cell of each state at its native pitch."""

    name: str
    cell: int
    draw: Callable[[Cell], np.ndarray]
    window: tuple[int, int, int] = (200, 200, 200)


def _drawn(
    cell: int,
    covered: Callable[[], np.ndarray],
    revealed: Callable[[], np.ndarray],
    digits,
    bang,
    mine: tuple[int, int, int] = (0, 0, 0),
    digit: Callable[[np.ndarray, int, tuple[int, int, int]], None] = _digit,
):
    """A cell painter from a covered base, a revealed base, a digit palette and an exploded colour."""

    def draw(state: Cell) -> np.ndarray:
        if state in (Cell.COVERED, Cell.FLAG):
            tile = covered()
            if state == Cell.FLAG:
                _flag(tile)
            return tile
        tile = revealed()
        if state == Cell.EXPLODED:
            tile[2:-1, 2:-1] = bang
        if Cell.ONE <= state <= Cell.EIGHT:
            digit(tile, int(state), digits[int(state)])
        if state in (Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG):
            _mine(tile, mine)
        if state == Cell.WRONG_FLAG:
            _cross(tile)
        return tile

    return draw


def _tinted(cell: int) -> Callable[[Cell], np.ndarray]:
    """A flat look whose revealed digits sit on a background of their own colour, all in one ink."""
    covered = _bevelled(cell, (150, 140, 120), (200, 190, 175), (95, 85, 70), 2)
    plain = _lined(cell, (245, 245, 245), (205, 205, 205))
    base = _drawn(cell, covered, plain, {n: (45, 45, 45) for n in range(1, 9)}, (60, 60, 210))

    def draw(state: Cell) -> np.ndarray:
        if not Cell.ONE <= state <= Cell.EIGHT:
            return base(state)
        tile = _lined(cell, TINTS[int(state)], (205, 205, 205))()
        _digit(tile, int(state), (45, 45, 45))
        return tile

    return draw


def _crossed_flags(look: Look) -> Look:
    """The look with its wrong flag drawn as the flag crossed out on the covered cell (as browser
    clients draw it), not as a crossed mine."""

    def draw(state: Cell) -> np.ndarray:
        if state != Cell.WRONG_FLAG:
            return look.draw(state)
        tile = look.draw(Cell.FLAG)
        _cross(tile)
        return tile

    return Look(f"{look.name}-crossed", look.cell, draw, look.window)


def _lined(cell: int, fill, line) -> Callable[[], np.ndarray]:
    def make() -> np.ndarray:
        tile = np.full((cell, cell, 3), fill, np.uint8)
        tile[0, :] = line
        tile[:, 0] = line
        return tile

    return make


def _bevelled(cell: int, fill, light, dark, width: int) -> Callable[[], np.ndarray]:
    def make() -> np.ndarray:
        tile = np.full((cell, cell, 3), fill, np.uint8)
        for i in range(width):
            tile[i, : cell - i] = light
            tile[: cell - i, i] = light
            tile[cell - 1 - i, i:] = dark
            tile[i:, cell - 1 - i] = dark
        return tile

    return make


def _glossy(cell: int, top: int, bottom: int, line: int) -> Callable[[], np.ndarray]:
    """A grey tile shaded from ``top`` to ``bottom`` down its height, a 1 px line on its top and left."""

    def make() -> np.ndarray:
        shade = np.linspace(top, bottom, cell)[:, None, None]
        tile = np.broadcast_to(shade, (cell, cell, 3)).round().astype(np.uint8).copy()
        tile[0, :] = tile[:, 0] = line
        return tile

    return make


def _gradient(cell: int) -> Callable[[], np.ndarray]:
    def make() -> np.ndarray:
        top, bottom = np.array([240, 190, 120], float), np.array([180, 110, 50], float)
        t = np.linspace(0, 1, cell)[:, None, None]
        tile = np.broadcast_to(top * (1 - t) + bottom * t, (cell, cell, 3)).round().astype(np.uint8).copy()
        tile[0, :] = tile[:, 0] = (110, 80, 60)
        tile[1, 1:] = (250, 225, 190)
        return tile

    return make


LOOKS: dict[str, Look] = {
    "flat": Look(
        "flat",
        20,
        _drawn(
            20,
            _lined(20, (160, 150, 140), (95, 90, 85)),
            _lined(20, (238, 238, 238), (200, 200, 200)),
            DIGIT_COLORS,
            (0, 0, 230),
        ),
        window=(250, 250, 250),
    ),
    "dark": Look(
        "dark",
        24,
        _drawn(
            24,
            _bevelled(24, (88, 88, 88), (125, 125, 125), (55, 55, 55), 2),
            _lined(24, (45, 45, 45), (28, 28, 28)),
            NIGHT_DIGITS,
            (40, 40, 200),
        ),
        window=(20, 20, 20),
    ),
    "mono": Look(
        "mono",
        22,
        _drawn(
            22,
            _bevelled(22, (70, 60, 50), (110, 100, 90), (40, 35, 30), 2),
            _lined(22, (20, 20, 20), (60, 60, 60)),
            MONO_DIGITS,
            (40, 40, 200),
            mine=(150, 150, 150),
        ),
        window=(0, 0, 0),
    ),
    "gradient": Look(
        "gradient",
        18,
        _drawn(18, _gradient(18), _lined(18, (235, 225, 215), (160, 150, 140)), DIGIT_COLORS, (60, 60, 220)),
        window=(160, 120, 80),
    ),
    "tinted": Look("tinted", 22, _tinted(22), window=(235, 235, 235)),
}
LOOKS["crossed"] = _crossed_flags(LOOKS["flat"])
EXTRA_LOOKS: dict[str, Look] = {
    "glossy": Look(
        "glossy",
        15,
        _drawn(
            15,
            _glossy(15, 214, 176, 128),
            _glossy(15, 191, 191, 128),
            DIGIT_COLORS,
            (0, 0, 230),
            digit=_bold_digit,
        ),
        window=(230, 230, 230),
    ),
}
"""Looks the skinless reader is checked on (``benchmarks/phase_sweep.py``, misread tests) but that the
calibration tests leave out. ``glossy``: small tiles told apart by shading alone (covered glossy, revealed
flat, one grey), bold digits; a skin calibrated from it finds no board (open)."""


def _ring_colour(image: np.ndarray) -> np.ndarray:
    """The most common colour on a crop's outermost ring of pixels: the ground a cell is drawn on."""
    ring = np.concatenate([image[0], image[-1], image[1:-1, 0], image[1:-1, -1]])
    colours, counts = np.unique(ring, axis=0, return_counts=True)
    return colours[int(np.argmax(counts))]


def real_look(name: str) -> Look:
    """A look assembled from the real cell crops in ``../shared/realdata`` (skip the test if absent).

    ``msx`` and ``msx125``: Minesweeper X cell interiors (13 / 15 px) with their rim rebuilt (covered
    bevel or revealed grid line), so a 16 / 20 px pitch; ``win7``: Windows 7 tiles (18 px, borders
    included) with its digit glyphs laid on the open tile.
    """
    import pytest

    if not REALDATA.is_dir():
        pytest.skip("../shared/realdata is not available")
    if name in ("msx", "msx125"):
        prefix = "msx-" if name == "msx" else "msx-125-"
        files = {
            Cell.COVERED: "covered",
            Cell.FLAG: "flag",
            Cell.MINE: "mine",
            Cell.EXPLODED: "explosion",
            **{Cell(n): str(n) for n in range(9)},
        }
        if name == "msx125":
            files[Cell.WRONG_FLAG] = "false"
        crops = {}
        for state, stem in files.items():
            path = REALDATA / "minesweeper-x" / f"{prefix}{stem}.png"
            if path.is_file():
                crops[state] = cv2.imread(str(path))
        crop = next(iter(crops.values())).shape[0]
        size = 16 if name == "msx" else 20

        def draw_msx(state: Cell) -> np.ndarray:
            # The crops are cell interiors; rebuild the rim: covered bevel, or the revealed grid line.
            if state not in crops:
                raise KeyError(f"{name} has no {state.name} cell")
            image = crops[state]
            if state in (Cell.COVERED, Cell.FLAG):
                tile = np.full((size, size, 3), 128, np.uint8)
                tile[: size - 2, : size - 2] = 192
                tile[0, : size - 1] = tile[: size - 1, 0] = 255
            else:
                tile = np.empty((size, size, 3), np.uint8)
                tile[:] = _ring_colour(image)  # the cell's ground (a cross's ends reach the crop's corner)
                tile[0, :] = tile[:, 0] = 128
            tile[1 : crop + 1, 1 : crop + 1] = image
            return tile

        return Look(name, size, draw_msx, window=(192, 192, 192))
    if name == "win7":
        base = REALDATA / "win7"
        covered = cv2.imread(str(base / "squares_unchecked" / "square_light.png"))
        empty = cv2.imread(str(base / "squares_checked" / "square_empty.png"))
        glyphs = {
            n: cv2.imread(str(base / "squares_checked" / f"square_{n}.png"), cv2.IMREAD_UNCHANGED)
            for n in range(1, 9)
        }

        def draw_win7(state: Cell) -> np.ndarray:
            if state == Cell.COVERED:
                return covered.copy()
            if state == Cell.ZERO:
                return empty.copy()
            if Cell.ONE <= state <= Cell.EIGHT:
                tile = empty.copy().astype(np.float32)
                glyph = glyphs[int(state)]
                gh, gw = glyph.shape[:2]
                y, x = (18 - gh) // 2 + 1, (18 - gw) // 2 + 1
                alpha = glyph[:, :, 3:4].astype(np.float32) / 255 if glyph.shape[2] == 4 else 1.0
                tile[y : y + gh, x : x + gw] = glyph[:, :, :3] * alpha + tile[y : y + gh, x : x + gw] * (
                    1 - alpha
                )
                return tile.round().astype(np.uint8)
            raise KeyError(f"win7 has no {state.name} cell")

        return Look("win7", 18, draw_win7, window=(120, 80, 40))
    raise KeyError(name)


def fit_board(board: Board, look: Look) -> Board:
    """The board with states the look cannot draw shown as covered (real crops lack some states)."""
    out = board.copy()
    for state in Cell:
        try:
            look.draw(state)
        except KeyError:
            out.cells[out.cells == state] = Cell.COVERED
    return out


def draw_board(board: Board, look: Look) -> np.ndarray:
    """The board's cells drawn edge to edge at the look's native pitch."""
    s = look.cell
    cache: dict[int, np.ndarray] = {}
    out = np.zeros((board.rows * s, board.cols * s, 3), np.uint8)
    for (r, c), v in np.ndenumerate(board.cells):
        if v not in cache:
            cache[v] = look.draw(Cell(int(v)))
        out[r * s : (r + 1) * s, c * s : (c + 1) * s] = cache[v]
    return out


def lit(image: np.ndarray, light: float) -> np.ndarray:
    """The image under uneven light: brightness scaled from ``1 - light`` at the top-left corner to
    ``1 + light`` at the bottom-right (a lamp, a screen's falloff, a phone photo)."""
    h, w = image.shape[:2]
    ramp = 1 - light + light * (np.linspace(0, 1, h)[:, None] + np.linspace(0, 1, w)[None, :])
    return np.clip(image.astype(np.float32) * ramp[:, :, None], 0, 255).round().astype(np.uint8)


def screenshot(
    board: Board, look: Look, scale: float = 1.0, jpeg: int | None = None, pad: int = 23, light: float = 0.0
) -> tuple[np.ndarray, Geometry]:
    """A window showing the board (header with counter and face, bevelled frame), scaled; and the truth.

    ``light`` shades the board with a gradient (:func:`lit`)."""
    cells = draw_board(board, look)
    if light:
        cells = lit(cells, light)
    bh, bw = cells.shape[:2]
    header = 44
    h, w = bh + header + 2 * pad, bw + 2 * pad
    img = np.full((h, w, 3), look.window, np.uint8)
    cv2.rectangle(img, (0, 0), (w - 1, 15), (120, 60, 20), -1)
    img[0:16, 0:60] = _opencv5("title_mines.png", cv2.IMREAD_COLOR)  # "Mines" on the bar, as OpenCV 5.0 drew
    cv2.rectangle(img, (pad, 20), (pad + 38, 42), (0, 0, 0), -1)
    _lay(img[20:43, pad : pad + 39], _opencv5("counter_010.png"), (0, 0, 255))  # its "010" in red
    cv2.circle(img, (w // 2, 31), 11, (0, 220, 255), -1)
    cv2.circle(img, (w // 2, 31), 11, (0, 0, 0), 1)
    top = header + pad
    cv2.rectangle(img, (pad - 3, top - 3), (pad + bw + 2, top + bh + 2), (128, 128, 128), 3)
    img[top : top + bh, pad : pad + bw] = cells
    truth = Geometry(pad, top, look.cell, look.cell, board.rows, board.cols)
    if scale != 1.0:
        img = cv2.resize(img, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_LINEAR)
        truth = Geometry(
            pad * scale, top * scale, look.cell * scale, look.cell * scale, board.rows, board.cols
        )
    if jpeg is not None:
        ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        img = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return img, truth


def _truth_answers(analysis, truths: list[Board]) -> tuple[dict, int]:
    """The truth's answer (the state of most of its cells) for every unsure group, standing in for the
    user; and how many sure labels were wrong (must stay 0)."""
    from collections import Counter

    def true_state(gid: int) -> Cell:
        votes = Counter(int(truths[m.shot].cells[m.cell]) for m in analysis.groups[gid].members)
        return Cell(votes.most_common(1)[0][0])

    answers = {p.group: true_state(p.group) for p in analysis.unsure()}
    wrong = sum(1 for p in analysis.proposals.values() if p.confident and p.state != true_state(p.group))
    return answers, wrong


def _calibrate_and_score(
    name: str, image: np.ndarray, truth: Board, others: list[tuple[np.ndarray, Board]]
) -> tuple[int, float, list]:  # pragma: no cover - benchmark helper
    """Calibrate from one shot (the truth answers unsure groups); read the others as ``minebot dry-run``
    does (``bot.vision.read_screen``).

    Returns the groups asked, the seconds calibration took, and ``[shots read exactly, shots refused
    for a state the skin never saw, shots wrong, margins of the exact reads]``.
    """
    import tempfile
    import time

    from bot.errors import MinebotError
    from bot.skin import load_skin
    from bot.vision import read_screen
    from calibration.pipeline import analyse, choose
    from calibration.writer import write_skin

    start = time.perf_counter()
    analysis = analyse([(name, image)])
    answers, _ = _truth_answers(analysis, [truth])
    chosen = choose(analysis, answers)
    folder = Path(tempfile.mkdtemp()) / "skin"
    write_skin(folder, "bench", chosen.cells, [name], variants=chosen.variants)
    seconds = time.perf_counter() - start
    skin = load_skin(folder)
    exact, refused, wrong, margins = 0, 0, 0, []
    for shot, board in others:
        unseen = ~np.isin(board.cells, [int(c) for c in skin.cells])
        try:
            reading = read_screen(shot, skin, board.mines)
        except MinebotError as exc:
            where = re.search(r"cell \((\d+), (\d+)\)", str(exc))
            ok = where is not None and unseen[int(where[1]), int(where[2])]
            refused += ok
            wrong += not ok
            continue
        if not unseen.any() and np.array_equal(reading.board.cells, board.cells):
            exact += 1
            margins.append(reading.confidence.ravel())
        else:
            wrong += 1
    return len(answers), seconds, [exact, refused, wrong, np.concatenate(margins) if margins else None]


def _margins(m: np.ndarray | None) -> str:
    return "-" if m is None else f"{m.min():.2f} / {np.median(m):.2f}"


def benchmark(shots: int = 5) -> None:  # pragma: no cover - run by hand, figures in docs/benchmarks.md
    """Calibrate each look from one lost mid-game screenshot, then read ``shots`` others; print tables."""
    cases = [(name, s) for name in ("flat", "dark", "gradient", "mono") for s in (1.0, 1.25, 1.5, 2.0, 1.625)]
    if REALDATA.is_dir():
        cases += [(name, s) for name in ("msx", "msx125", "win7") for s in (1.0, 1.25, 1.625)]
    print("| look | scale | pitch | asked | shots | read exactly | refused (unseen) | wrong | margin | s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, scale in cases:
        look = LOOKS[name] if name in LOOKS else real_look(name)
        board = fit_board(mid_game(12, 20, 62, seed=5, opened=0.4, lost=True), look)
        others = []
        for seed in range(100, 100 + shots):
            other = fit_board(mid_game(12, 20, 62, seed=seed, opened=0.4, lost=seed % 2 == 0), look)
            others.append((screenshot(other, look, scale)[0], other))
        asked, seconds, (exact, refused, wrong, m) = _calibrate_and_score(
            name, screenshot(board, look, scale)[0], board, others
        )
        print(
            f"| {name} | {scale} | {look.cell * scale:g} | {asked} | {len(others)} | {exact} | {refused} "
            f"| {wrong} | {_margins(m)} | {seconds:.1f} |"
        )
    real_captures()


def real_captures() -> None:  # pragma: no cover - run by hand, figures in docs/benchmarks.md
    """Real client captures: questions each capture alone needs, then one skin read over all of them."""
    from calibration.grid import find_grid
    from calibration.pipeline import analyse

    real = Path(__file__).resolve().parent / "data" / "real"
    print("\n| client | capture | board | groups | asked | sure but wrong |")
    print("|---|---|---|---|---|---|")
    for client in ("winemine", "xdemineur"):
        for png in sorted((real / client).glob("*.png")):
            truth = Board.from_text(png.with_suffix(".txt").read_text())
            image = cv2.imread(str(png))
            found = find_grid(image)
            if (found.rows, found.cols) != truth.shape:
                shape = f"found {found.rows}x{found.cols}, not {truth.rows}x{truth.cols}"
                print(f"| {client} | {png.stem} | {shape} |")
                continue
            analysis = analyse([(png.name, image)])
            answers, wrong = _truth_answers(analysis, [truth])
            print(
                f"| {client} | {png.stem} | {truth.rows}x{truth.cols} | {len(analysis.groups)} "
                f"| {len(answers)} | {wrong} |"
            )
    print("\n| client | asked | captures | read exactly | refused (unseen) | wrong | margin | s |")
    print("|---|---|---|---|---|---|---|---|")
    for client in ("winemine", "xdemineur"):
        first = real / client / "expert_lost.png"
        if not first.is_file():
            continue
        captures = sorted((real / client).glob("*.png"))
        others = [(cv2.imread(str(p)), Board.from_text(p.with_suffix(".txt").read_text())) for p in captures]
        truth = Board.from_text(first.with_suffix(".txt").read_text())
        asked, seconds, (exact, refused, wrong, m) = _calibrate_and_score(
            first.name, cv2.imread(str(first)), truth, others
        )
        print(
            f"| {client} | {asked} | {len(captures)} | {exact} | {refused} | {wrong} | {_margins(m)} "
            f"| {seconds:.1f} |"
        )


def yes_looks(shots: int = 5) -> None:  # pragma: no cover - run by hand, figures in docs/benchmarks.md
    """``calibrate --yes`` (nobody to ask) from one lost shot of each hard look: a lighting gradient,
    per-digit backgrounds, a wrong flag drawn as a crossed flag; then ``shots`` others read."""
    import tempfile

    from bot.errors import MinebotError
    from bot.skin import load_skin
    from bot.vision import read_screen
    from calibration.session import CalibrateOptions, calibrate

    cases = [
        ("flat", 0.15),
        ("dark", 0.12),
        ("gradient", 0.1),
        ("tinted", 0.0),
        ("tinted", 0.1),
        ("crossed", 0.0),
    ]
    print("| look | light | scale | --yes | left out | shots | read exactly | refused (unseen) ", end="")
    print("| refused | wrong |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, light in cases:
        for scale in (1.0, 1.25, 1.625):
            look = LOOKS[name]
            board = mid_game(12, 20, 62, seed=5, opened=0.4, lost=True)
            folder = Path(tempfile.mkdtemp())
            cv2.imwrite(str(folder / "a.png"), screenshot(board, look, scale, light=light)[0])
            try:
                report = calibrate(CalibrateOptions([str(folder / "a.png")], name="y", out=folder / "y"))
            except MinebotError as exc:
                print(f"| {name} | {light} | {scale} | failed: {str(exc)[:80]} |")
                continue
            skin = load_skin(folder / "y")
            exact = unseen = refused = wrong = 0
            for seed in range(100, 100 + shots):
                other = mid_game(12, 20, 62, seed=seed, opened=0.4, lost=seed % 2 == 0)
                lacks = not np.isin(other.cells, [int(c) for c in skin.cells]).all()
                try:
                    reading = read_screen(screenshot(other, look, scale, light=light)[0], skin, other.mines)
                except MinebotError:
                    unseen += lacks
                    refused += not lacks
                    continue
                same = reading.board.shape == other.shape and np.array_equal(reading.board.cells, other.cells)
                exact += same
                wrong += not same
            print(
                f"| {name} | {light} | {scale} | ok | {len(report.left_out)} | {shots} | {exact} | {unseen} "
                f"| {refused} | {wrong} |"
            )


if __name__ == "__main__":  # pragma: no cover
    import sys

    if sys.argv[1:] == ["--real"]:
        real_captures()
    elif sys.argv[1:] == ["--yes"]:
        yes_looks()
    else:
        benchmark()
