"""The one entry point from pixels to a board: locate (once), classify, read the status.

:func:`read_screen` finds the board on a whole screenshot (trying every known skin for ``"auto"``);
:func:`read_board` re-reads only the board region each move, with the geometry already known.
The play loop and ``minebot dry-run`` both go through here.

``"auto"`` is kept cheap: skins are loaded once (until their folder changes), tried in order of how
much of their flat face colour the screenshot shows, and once one skin has found the board, another
skin is only located in full if its templates read most of that board's cells. When the best skin's
reading is not exact (a cell unsure, a cell no position allows, or the skinless grid finder sees a
larger board around it), the board is read with no skin instead, and whichever reading is exact is
taken whole: cells from two readers are never mixed.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from bot.board import Board, Cell
from bot.errors import BoardNotFoundError, MinebotError, RecognitionError
from bot.game import LEVELS, FirstClickRule, GameStatus
from bot.geometry import Geometry
from bot.skin import Skin, find_skin, list_skins
from bot.vision.classify import CellReading, classify_cells, per_skin
from bot.vision.generic import GENERIC, GenericModel, read_cells
from bot.vision.grid import refuse_too_small
from bot.vision.locate import Location, face_kinds, locate_board, one_screen
from bot.vision.naming import logic_problem, no_game_shows
from bot.vision.status import FaceMatch, find_face, status_from_board
from bot.vision.taught import TaughtSkin

LOGGER = logging.getLogger(__name__)

AUTO = "auto"

__all__ = [
    "AUTO",
    "GENERIC",
    "Reading",
    "find_board",
    "generic_skin",
    "read_board",
    "read_screen",
    "standard_mines",
]

PRECHECK_UNCERTAIN = 0.5
"""With ``auto``, a skin that leaves more than this fraction of an already found board's cells
uncertain cannot be the board's skin (a real fit leaves at most ``MAX_UNCERTAIN_FRACTION``, 0.2, or
``MAX_UNSEEN_FRACTION``, 0.5, for a skin lacking states): its full locate is skipped."""

PRESCORE_STRIDE = 4
"""Pixel stride of the subsampled screenshot on which skins' face colours are counted (ordering only)."""

PRESCORE_TOLERANCE = 6
"""Per-channel tolerance when counting a skin's exact face colour (ordering only)."""

STANDARD_MINES: dict[tuple[int, int], int] = {
    shape: level.mines
    for level in LEVELS.values()
    for shape in ((level.rows, level.cols), (level.cols, level.rows))
}
"""Mine count of each standard level by board shape (either orientation)."""


def standard_mines(rows: int, cols: int) -> int | None:
    """The mine count of the standard level of that size (9x9: 10, 16x16: 40, 16x30: 99), else None."""
    return STANDARD_MINES.get((rows, cols))


@dataclass(eq=False)
class Reading:
    """What one screenshot shows: the board, where it is, the game status, the skin and confidences."""

    board: Board
    geometry: Geometry
    """Cell geometry in the image's pixel coordinates (``.face`` set when a face was found)."""
    status: GameStatus
    skin: Skin
    cells: CellReading
    """Per-cell best and second-best states, distances and confidences."""
    face: FaceMatch | None = None
    skin_score: float = 0.0
    """Mean cell confidence with this skin (what ``auto`` compares)."""
    notes: list[str] = field(default_factory=list)
    """How the board was found: fallbacks taken and skins tried."""

    @property
    def confidence(self) -> np.ndarray:
        """``(rows, cols)`` per-cell confidence (margin of the best template over the second)."""
        return self.cells.confidence

    @property
    def skin_name(self) -> str:
        return self.skin.name


_LOADED: dict[str, tuple[tuple[str, int], Skin]] = {}


def _folder_stamp(folder: Path) -> tuple[str, int]:
    """A skin folder's identity and newest file time: a recalibrated skin is loaded afresh."""
    return str(folder.resolve()), max(entry.stat().st_mtime_ns for entry in [folder, *folder.iterdir()])


def load_cached(name: str) -> Skin:
    """``find_skin(name)``, loaded once while its folder is unchanged (so per-skin caches stay warm).

    Raises:
        SkinError: as :func:`bot.skin.find_skin` does.
    """
    folder = list_skins().get(name, Path(name))
    try:
        stamp = _folder_stamp(folder)
    except (OSError, ValueError):
        return find_skin(name)  # not a readable skin folder: find_skin raises the right error
    cached = _LOADED.get(name)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    skin = find_skin(name)
    _LOADED[name] = (stamp, skin)
    return skin


_WARNED: set[str] = set()
"""The broken skins already named (each warning is given once per process, not once per frame)."""


def _warn_broken(name: str, exc: MinebotError) -> None:
    """Name a skin on the search path that cannot be loaded, once: ``auto`` goes on without it, but a
    user who made it must learn why it is never chosen."""
    said = f"{name}: {exc}"
    if said not in _WARNED:
        _WARNED.add(said)
        LOGGER.warning("the skin %r cannot be loaded, so it is not tried: %s", name, exc)


def _resolve(skin: Skin | str) -> Skin:
    if isinstance(skin, Skin):
        return skin
    return generic_skin() if skin == GENERIC else load_cached(skin)


def generic_skin() -> Skin:
    """A fresh stand-in skin for the skinless reader (:mod:`bot.vision.generic`): no templates, no face,
    no first-click promise. Each one carries its own learnt model, so one game's frames share what
    earlier frames taught and another game starts afresh."""
    return Skin(GENERIC, Path(GENERIC), 0, FirstClickRule.NONE, description="read with no skin, by structure")


def is_generic(skin: Skin) -> bool:
    """Whether a skin is the skinless reader's stand-in."""
    return skin.name == GENERIC and not skin.cells


def _wants_generic(skin: Skin | str) -> bool:
    """Whether the caller asked for the skinless reader, by name or with its stand-in skin."""
    return skin == GENERIC if isinstance(skin, str) else is_generic(skin)


def taught_skin(skin: Skin) -> TaughtSkin:
    """The templates exact readings with the skinless reader's stand-in ``skin`` taught (one per
    stand-in, so one game's reader, or one session's, grows its own)."""
    return per_skin(skin, "taught skin", lambda _: TaughtSkin())


def taught_reading(
    image: np.ndarray, geometry: Geometry, skin: Skin, mines: int | None = None
) -> Reading | None:
    """The board read from the templates the skinless stand-in ``skin`` was taught alone (no skinless
    reading: ~1 ms), or None when a cell matches none surely or the reading is no possible position."""
    cells = taught_skin(skin).read(image, geometry)
    return None if cells is None else _finish(image, cells, skin, mines, [], 1.0)


def _generic_model(skin: Skin) -> GenericModel:
    """What the skinless stand-in ``skin``'s readings learnt (one model per stand-in)."""
    return per_skin(skin, "generic model", lambda _: GenericModel())


def _generic_cells(image: np.ndarray, geometry: Geometry, skin: Skin) -> CellReading:
    """Every cell read with no skin: from the templates earlier exact readings taught when every cell
    matches one surely (:mod:`bot.vision.taught`, ~1 ms), else by the skinless reader, reusing (and
    growing) the model learnt by earlier frames; its exact reading teaches the templates once
    :func:`_finish` accepts the board it makes (held until then)."""
    taught = taught_skin(skin)
    taught.drop_held()
    fast = taught.read(image, geometry)
    if fast is not None:
        return fast
    model = _generic_model(skin)
    cells = read_cells(image, geometry, model)
    taught.hold(image, geometry, cells.states)
    return cells


PHASE_STEPS = (
    (-0.5, -0.5),
    (0.5, 0.5),
    (-0.5, 0.5),
    (0.5, -0.5),
    (-0.5, 0.0),
    (0.5, 0.0),
    (0.0, -0.5),
    (0.0, 0.5),
)
"""Half-pixel shifts of a grid tried when the skinless reader refuses it there: a one-pixel grid line
or gap belongs to either of the cells beside it, and a grid found by structure can sit on it (the
finder's phase was 0.3-0.9 px from the recorded grid on every real client measured)."""


def generic_at_phase(image: np.ndarray, geometry: Geometry, skin: Skin) -> tuple[Geometry, CellReading]:
    """``(grid, cells)``: :func:`_generic_cells` at ``geometry``, or, when it refuses there, at the one
    half-pixel shift (:data:`PHASE_STEPS`) whose fresh skinless reading is exact, if every shift that
    reads reads the same board. Two shifts reading differently, or none reading, raise the refusal."""
    try:
        return geometry, _generic_cells(image, geometry, skin)
    except RecognitionError as refusal:
        found = _at_one_phase(image, geometry, None)
        if found is None:
            raise refusal from None
        return found[0], _generic_cells(image, found[0], skin)


def _at_one_phase(
    image: np.ndarray, geometry: Geometry, last: np.ndarray | None
) -> tuple[Geometry, CellReading] | None:
    """The one half-pixel shift of ``geometry`` (:data:`PHASE_STEPS`) the skinless reader reads, with
    its reading (a fresh model each, knowing only ``last``: no memory of the refusal), or None when
    none reads or two read differently. With ``last``, a shift whose reading shows a number ``last``
    showed otherwise is no reading (a revealed cell never changes in a game)."""
    boards: dict[bytes, tuple[Geometry, CellReading]] = {}
    shown = None if last is None else np.flatnonzero((last >= Cell.ZERO) & (last <= Cell.EIGHT))
    for dx, dy in PHASE_STEPS:
        shifted = replace(geometry, left=geometry.left + dx, top=geometry.top + dy)
        try:
            cells = read_cells(image, shifted, GenericModel(last=None if last is None else last.copy()))
        except MinebotError:
            continue
        if shown is not None and (cells.states.ravel()[shown] != last[shown]).any():  # type: ignore[index]
            continue
        boards.setdefault(cells.states.tobytes(), (shifted, cells))
    if len(boards) != 1:
        return None
    shifted, cells = next(iter(boards.values()))
    LOGGER.info(
        "read with no skin %+.1f, %+.1f px from the grid found",
        shifted.left - geometry.left,
        shifted.top - geometry.top,
    )
    return shifted, cells


def read_known(
    image: np.ndarray, geometry: Geometry, skin: Skin, mines: int | None, known: Board | None
) -> Reading:
    """:func:`read_board` with the skinless stand-in ``skin`` during a game whose board was ``known``
    (from trusted readings; None: nothing known yet). A revealed cell never changes in a game, so the
    skinless reader may name a glyph its shape leaves open by the number ``known`` shows there (its
    prior, :attr:`bot.vision.generic.GenericModel.last`: taken only when the board's counts agree and
    every cell ``known`` shows open reads the same now). A refusal is retried at the half-pixel shifts
    of the grid (:func:`_at_one_phase`, the same prior); the reading there is not taught (the grid
    played stays the one found)."""
    if known is None or known.shape != (geometry.rows, geometry.cols):
        return read_board(image, geometry, skin, mines)
    last = known.cells.ravel().astype(np.int16)
    _generic_model(skin).last = last.copy()
    try:
        return read_board(image, geometry, skin, mines)
    except RecognitionError as refusal:
        found = _at_one_phase(image, geometry, last)
        if found is None:
            raise refusal from None
        return _finish(image, found[1], skin, mines, [], 1.0)


def find_generic(image: np.ndarray, skin: Skin | None = None, notes: list[str] | None = None) -> Reading:
    """Find the board with no skin (:func:`bot.vision.grid.find_grid`) and read it by structure.

    Raises:
        BoardNotFoundError: no grid on the screenshot.
        RecognitionError: a cell cannot be named surely (names the cell and why).
    """
    from bot.vision.grid import find_grid

    skin = skin or generic_skin()
    fit = find_grid(image)
    geometry, cells = generic_at_phase(image, fit.geometry, skin)
    return Reading(
        Board(cells.states.copy()),
        geometry,
        GameStatus.PLAYING,
        skin,
        cells,
        None,
        fit.score,
        [*(notes or []), f"generic: {fit.geometry.rows}x{fit.geometry.cols} grid, score {fit.score:.2f}"],
    )


def _prescore(small: np.ndarray, skin: Skin) -> int:
    """How many pixels of a subsampled screenshot show one of the skin's flat face colours exactly."""
    count = 0
    for kind in face_kinds(skin):
        low = np.clip(kind.colour - PRESCORE_TOLERANCE, 0, 255).astype(np.uint8)
        high = np.clip(kind.colour + PRESCORE_TOLERANCE, 0, 255).astype(np.uint8)
        count += cv2.countNonZero(cv2.inRange(small, low, high))
    return count


def _rules_out(image: np.ndarray, location: Location, skin: Skin) -> bool:
    """True when ``skin`` cannot read most cells of a board another skin found (it cannot be its skin)."""
    reading = classify_cells(image, location.geometry, skin)
    return float(reading.uncertain_mask().mean()) > PRECHECK_UNCERTAIN


def _finish(
    image: np.ndarray, cells: CellReading, skin: Skin, mines: int | None, notes: list[str], score: float
) -> Reading:
    """Board (raising on an uncertain cell), face and status from a classified grid."""
    geometry = cells.geometry
    board = cells.board(mines if mines is not None else standard_mines(geometry.rows, geometry.cols))
    if mines is not None and is_generic(skin):
        wrong = flags_beyond_mines(board) or mines_unshown(board) or too_few_places(board)
        if wrong is not None:
            raise RecognitionError(f"generic reader: cell {wrong[0]} {wrong[1]}", cell=wrong[0])
    face = find_face(image, geometry, skin)
    if face is not None:
        geometry = replace(geometry, face=face.region)
    status = status_from_board(board, face)
    if is_generic(skin):  # the board passed: its skinless reading may teach the templates now
        taught_skin(skin).learn_held(cells.geometry)
    return Reading(board, geometry, status, skin, cells, face, score, notes)


def mines_unshown(board: Board) -> tuple[tuple[int, int], str] | None:
    r"""A cell of a board that shows mines but not as many as it holds, and why; None otherwise.

    A board showing a mine is a lost game's, and a lost game shows every mine: as a mine, the one that
    went off, or a flag left on one. Fewer shown than ``board.mines`` is a misread, not a loss: a fresh
    board read off its grid as mines and crossed flags, or small digits read as flags and a mine (GNOME
    Mines at 900x640). More shown is a flag on a safe cell named a flag: a wrong flag, which a client
    marks (a cross) and the reading missed (a lost board's shown mines on squares of their own read as
    flags, its flags and the crossed one as mines: one more than it holds), or one drawn as the client's
    flag, which no reading can place: either way a cell is named wrong, so the board is refused.

    >>> mines_unshown(Board.from_text("X*\n..", mines=2)) is None
    True
    >>> mines_unshown(Board.from_text("XF\n1.", mines=3))[0]
    (0, 0)
    >>> "5 mines and flags" in mines_unshown(Board.from_text("XFF\n**.", mines=4))[1]
    True
    """
    shown = np.isin(board.cells, (Cell.MINE, Cell.EXPLODED))
    if board.mines is None or not shown.any():
        return None
    count = int(shown.sum()) + len(board.flagged())
    if count == board.mines:
        return None
    r, c = np.argwhere(shown)[0]
    if count > board.mines:
        return (int(r), int(c)), (
            f"shows {count} mines and flags on a board of {board.mines} mines: a lost game shows each mine "
            "once (as a mine, a flag on one, or the one that went off), so a flag or a shown mine is a wrong "
            "flag named otherwise"
        )
    return (int(r), int(c)), (
        f"shows {count} of the {board.mines} mines: a lost game shows every mine (as a mine, a flag on one, "
        "or the one that went off)"
    )


def flags_beyond_mines(board: Board) -> tuple[tuple[int, int], str] | None:
    r"""A flag of a board that shows more flags than it holds mines, and why; None otherwise.

    A client lets a player flag more cells than there are mines, but a skinless reading with more is far
    likelier a misread (GNOME Mines' small digits, read a pixel and a half off their grid, came out as
    446 flags on a board of 99 mines): refused rather than guessed.

    >>> flags_beyond_mines(Board.from_text("FF\n1.", mines=2)) is None
    True
    >>> flags_beyond_mines(Board.from_text("FF\n1F", mines=2))[0]
    (0, 0)
    """
    flags = board.flagged()
    if board.mines is None or len(flags) <= board.mines:
        return None
    return flags[0], f"is one of {len(flags)} flags on a board of {board.mines} mines: more flags than mines"


def too_few_places(board: Board) -> tuple[tuple[int, int], str] | None:
    r"""A cell of a board whose covered, flagged and shown-mine cells are fewer than the mines it holds,
    and why; None otherwise.

    Every mine is under a covered cell, under a flag, or shown: a reading with fewer such cells than
    ``board.mines`` is a misread (GNOME Mines at 900x640, small digits read as 474 zeros, 2 covered cells
    and 4 flags on a board of 99 mines). The cell named is the first that is none of them.

    >>> too_few_places(Board.from_text("1F\n11", mines=1)) is None
    True
    >>> too_few_places(Board.from_text("0F\n00", mines=3))[0]
    (0, 0)
    """
    places = np.isin(board.cells, (Cell.COVERED, Cell.FLAG, Cell.MINE, Cell.EXPLODED))
    if board.mines is None or int(places.sum()) >= board.mines:
        return None
    r, c = np.argwhere(~places)[0]
    return (int(r), int(c)), (
        f"is one of {int((~places).sum())} cells no mine can be under: the board holds {board.mines} mines "
        f"but shows only {int(places.sum())} covered, flagged or mine cells"
    )


def read_board(image: np.ndarray, geometry: Geometry, skin: Skin | str, mines: int | None = None) -> Reading:
    """Re-read a board whose geometry is known (the fast path, every move).

    ``image`` is what was grabbed (e.g. only the board and face region) and ``geometry`` is in its
    pixel coordinates. ``mines`` defaults to the standard level's count for the board's size.

    Raises:
        RecognitionError: a cell could not be read confidently (names it, its best match, confidence).
    """
    skin = _resolve(skin)
    if is_generic(skin):
        cells = _generic_cells(image, geometry, skin)
    else:
        cells = classify_cells(image, geometry, skin)
    return _finish(image, cells, skin, mines, [], float(cells.confidence.mean()))


def _locate_each(
    image: np.ndarray, skins: list[Skin], found: list[Location], failures: list[str], ruled_out: list[str]
) -> None:
    """Locate the board with each skin in turn (skipping skins that cannot read a board already found)."""
    for candidate in skins:
        if found and _rules_out(image, found[0], candidate):
            ruled_out.append(candidate.name)
            continue
        try:
            found.append(locate_board(image, candidate))
        except BoardNotFoundError as exc:
            if "boards found" in str(exc):
                raise
            failures.append(f"{candidate.name}: {exc}")
        except MinebotError as exc:
            failures.append(f"{candidate.name}: {exc}")


def find_board(image: np.ndarray, skin: Skin | str = AUTO) -> Location:
    """Find the board with one skin, or with each known skin for ``"auto"`` (the best fit wins).

    Raises:
        BoardNotFoundError: no skin finds a board (each skin's reason is given), or a skin finds two.
        SkinError: a named skin does not exist or is broken.
    """
    refuse_too_small(image)
    if _wants_generic(skin):
        found = find_generic(image, skin if isinstance(skin, Skin) else None)
        return Location(found.geometry, found.cells, found.skin, found.notes)
    if not (isinstance(skin, str) and skin == AUTO):
        return locate_board(image, _resolve(skin))
    found: list[Location] = []
    failures: list[str] = []
    skins: list[Skin] = []
    for name in sorted(list_skins()):
        try:
            skins.append(load_cached(name))
        except MinebotError as exc:
            failures.append(f"{name}: {exc}")
            _warn_broken(name, exc)
    small = np.ascontiguousarray(image[::PRESCORE_STRIDE, ::PRESCORE_STRIDE])
    skins.sort(key=lambda candidate: -_prescore(small, candidate))  # stable: ties keep name order
    ruled_out: list[str] = []
    with one_screen(image):
        _locate_each(image, skins, found, failures, ruled_out)
    if not found:
        raise BoardNotFoundError("no board found with any known skin (" + "; ".join(failures) + ")")
    found.sort(key=lambda location: location.score, reverse=True)
    best = found[0]
    tried = ", ".join(f"{f.skin.name} {f.score:.2f}" for f in found[1:])
    note = f"auto skin: {best.skin.name} (score {best.score:.2f})" + (f"; also fit: {tried}" if tried else "")
    if ruled_out:
        note += f"; cannot read that board: {', '.join(ruled_out)}"
    best.notes.append(note)
    LOGGER.info(note)
    return best


def counted_mines(image: np.ndarray, cells: CellReading) -> int | None:
    """The board's total mine count from its mine counter (mines left plus flags: a lost board's wrong
    flags too, since the counter counted every flag placed), when one is read."""
    from bot.vision.counter import read_mine_counter

    board = Board(cells.states.copy())
    left = read_mine_counter(image, cells.geometry, board)
    if left is None:
        return None
    total = left + int(np.isin(board.cells, (Cell.FLAG, Cell.WRONG_FLAG)).sum())
    return total if 0 <= total <= board.cells.size else None


def _finish_generic(image: np.ndarray, found: Reading, mines: int | None) -> Reading:
    """A skinless reading finished like any other, its mine count from the counter when none is given."""
    mines = mines if mines is not None else counted_mines(image, found.cells)
    return _finish(image, found.cells, found.skin, mines, found.notes, found.skin_score)


def _overlap(a: Geometry, b: Geometry) -> bool:
    ra, rb = a.region(), b.region()
    return ra.left < rb.right and rb.left < ra.right and ra.top < rb.bottom and rb.top < ra.bottom


def _contains(outer: Geometry, inner: Geometry) -> bool:
    """Whether ``outer``'s cells cover ``inner``'s board (to within half a cell)."""
    a, b = outer.region(), inner.region()
    slack_x, slack_y = inner.pitch_x / 2, inner.pitch_y / 2
    return (
        a.left - slack_x <= b.left
        and a.top - slack_y <= b.top
        and b.right <= a.right + slack_x
        and b.bottom <= a.bottom + slack_y
    )


def _unsure_cell(cells: CellReading) -> tuple[int, int] | None:
    """The least confident uncertain cell, or None when every cell is sure."""
    unsure = cells.uncertain()
    return min(unsure, key=lambda cell: (cells.confidence[cell], -cells.distance[cell])) if unsure else None


def _not_exact(image: np.ndarray, location: Location) -> tuple[str, bool] | None:
    """Why a skin's reading of the board it found is not exact and whole (and whether the reason is
    that the board goes on beyond it), or None when it is."""
    from bot.vision.grid import continues

    cells, name = location.reading, location.skin.name
    worst = _unsure_cell(cells)
    if worst is not None:
        more = len(cells.uncertain()) - 1
        tail = f" ({more} more uncertain cell(s))" if more else ""
        return f"skin {name!r}: {cells.describe(worst)}{tail}", False
    problem = no_game_shows(cells.states)
    if problem is not None:
        cell = divmod(problem[0], cells.states.shape[1])
        return f"skin {name!r}: cell {cell} {problem[1]} (no game shows that: a misread)", False
    sides = continues(image, location.geometry)
    if sides:
        g = location.geometry
        return f"skin {name!r} read {g.rows}x{g.cols} cells but the grid goes on ({', '.join(sides)})", True
    return None


def _auto(image: np.ndarray, mines: int | None) -> Reading:
    """``read_screen(image, "auto")``: the best known skin when it reads the board exactly and whole,
    else the skinless reader's reading when that is exact, else a refusal naming a cell."""
    try:
        location = find_board(image, AUTO)
    except BoardNotFoundError as exc:
        note = f"no known skin fits ({exc}); reading with no skin"
        LOGGER.info(note)
        try:
            found = find_generic(image, notes=[note])
        except BoardNotFoundError as generic_exc:
            raise BoardNotFoundError(f"{exc}; with no skin: {generic_exc}") from generic_exc
        return _finish_generic(image, found, mines)
    doubt = _not_exact(image, location)
    if doubt is None:
        return _finish(image, location.reading, location.skin, mines, location.notes, location.score)
    why, partial = doubt
    note = f"{why}; reading with no skin"
    LOGGER.info(note)
    skinned = location.geometry
    try:
        found = find_generic(image, notes=[*location.notes, note])
    except MinebotError as generic_exc:
        cell = _unsure_cell(location.reading) or getattr(generic_exc, "cell", None)
        raise RecognitionError(f"{why}; with no skin: {generic_exc}", cell=cell) from generic_exc
    generic = found.geometry
    if (
        partial
        and (generic.rows, generic.cols) == (skinned.rows, skinned.cols)
        and _overlap(generic, skinned)
    ):
        note = "with no skin the same board was read: the grid does not go on"
        location.notes.append(note)
        return _finish(image, location.reading, location.skin, mines, location.notes, location.score)
    if not _overlap(generic, skinned) or (partial and not _contains(generic, skinned)):
        raise RecognitionError(
            f"{why}; with no skin another board was read ({_where(generic)}): which is the board is not sure",
            cell=_unsure_cell(location.reading),
        )
    return _finish_generic(image, found, mines)


def _where(geometry: Geometry) -> str:
    r = geometry.region()
    return f"{geometry.rows}x{geometry.cols} at ({r.left}, {r.top})"


def read_screen(image: np.ndarray, skin: Skin | str = AUTO, mines: int | None = None) -> Reading:
    """Locate the board on a whole screenshot and read it: board, geometry, status, skin, confidences.

    ``skin="generic"`` reads with no skin (:mod:`bot.vision.generic`). ``"auto"`` reads with the best
    known skin when it reads the board exactly (every cell sure, no number larger than its room) and whole
    (the skinless grid finder sees no larger board there); otherwise, or when no known skin finds a
    board, with no skin, and that reading carries the generic skin so re-reads stay skinless. With no
    skin, ``mines`` defaults to the board's mine counter (mines left plus flags) when one is read, else
    to the standard level's count.

    Raises:
        BoardNotFoundError: no board, or more than one (saying where each is), or a board the
            screenshot's edge cuts.
        RecognitionError: the board was found but a cell cannot be read confidently (by either reader,
            for ``"auto"``).
    """
    refuse_too_small(image)
    if _wants_generic(skin):
        found = find_generic(image, skin if isinstance(skin, Skin) else None)
        reading = _finish_generic(image, found, mines)
    elif isinstance(skin, str) and skin == AUTO:
        reading = _auto(image, mines)
    else:
        location = find_board(image, skin)
        cells = _complete(image, location)
        _refuse_impossible(cells, location.skin)
        reading = _finish(image, cells, location.skin, mines, location.notes, location.score)
    _refuse_cut(image, reading.geometry)
    return reading


def _refuse_impossible(cells: CellReading, skin: Skin) -> None:
    """Refuse a named skin's reading, every cell of it sure, that no position allows (:func:`logic_problem`:
    a 0 beside a covered cell, a number its neighbours cannot hold): a template matched where it should
    not, e.g. a band of window or page the colour of the 0 cell taken for a row of 0s past the board's
    edge. ``auto`` reads such a board with no skin instead (:func:`_not_exact`).

    Raises:
        RecognitionError: naming the cell and why.
    """
    if cells.uncertain():
        return  # the reading is refused anyway, naming its least sure cell (:meth:`CellReading.board`)
    problem = logic_problem(cells.states)
    if problem is not None:
        cell = divmod(problem[0], cells.states.shape[1])
        raise RecognitionError(
            f"skin {skin.name!r}: cell {cell} {problem[1]}: no game shows that, so the reading (or where the "
            "board was found) is wrong",
            cell=cell,
        )


def _complete(image: np.ndarray, location: Location) -> CellReading:
    """A named skin's cells, or, when it cannot name some (a state its templates lack, e.g. a 6 the
    calibration shot never showed), the skinless reading of the same grid if that is exact, allowed by
    the board's logic, and the same as the skin's on every cell the skin is sure of.

    Either reader alone would refuse or be trusted; here the skinless reader names only what the skin
    cannot, and only when the two agree everywhere else, so nothing is guessed.
    """
    cells = location.reading
    sure = ~cells.uncertain_mask()
    if sure.all():
        return cells
    try:
        generic = _skinless_cells(image, location.geometry)
    except MinebotError as exc:
        location.notes.append(f"with no skin the cells the skin cannot name are not sure either: {exc}")
        return cells
    differ = np.argwhere(sure & (generic.states != cells.states))
    if len(differ):
        cell = (int(differ[0][0]), int(differ[0][1]))
        location.notes.append(f"with no skin cell {cell} reads otherwise than with the skin: not used")
        return cells
    if logic_problem(generic.states) is not None:
        return cells
    location.notes.append(
        f"{int((~sure).sum())} cell(s) the skin cannot name read with no skin (both agree on the rest)"
    )
    return generic


_SKINLESS_SEEN: list[tuple[np.ndarray, Geometry, CellReading | MinebotError]] = []
"""The last screen :func:`_skinless_cells` read, the skin's grid it was given and what came of it (the
reading or the refusal): at most one."""


def _skinless_cells(image: np.ndarray, geometry: Geometry) -> CellReading:
    """:func:`_skinless_reading` of ``image`` at ``geometry``, worked out again only when the screen or
    the grid differs from the last call's: the same screen looked at again (a lost board still shown
    while a new game is waited for, its skin lacking a state) gives what it gave, without the
    whole-screen grid finder and the readings at its half-pixel phases (a copy each time)."""
    same = [
        outcome
        for seen, grid, outcome in _SKINLESS_SEEN
        if grid == geometry and seen.shape == image.shape and np.array_equal(seen, image)
    ]
    if same:
        outcome = same[0]
    else:
        try:
            outcome = _skinless_reading(image, geometry)
        except MinebotError as refused:
            outcome = refused
        _SKINLESS_SEEN[:] = [(image.copy(), geometry, outcome)]
    if isinstance(outcome, MinebotError):
        raise copy.copy(outcome) from None
    return copy.deepcopy(outcome)


def _skinless_reading(image: np.ndarray, geometry: Geometry) -> CellReading:
    """The skinless reading (a fresh model: independent of the skin's) of the skin's grid, else of the
    skinless finder's own grid when that is the same board: the same rows and columns, within half a
    cell. A skin's grid can sit half a pixel off where the skinless reader needs it (a 7 the calibration
    shot never showed, on xdemineur, was refused there and read on its own grid).

    Raises:
        MinebotError: the refusal on the skin's grid, when the other grid is not read or not the same board.
    """
    try:
        return read_cells(image, geometry, GenericModel())
    except MinebotError as refused:
        try:
            own = find_generic(image)
        except MinebotError:
            raise refused from None
        g = own.geometry
        near = abs(g.left - geometry.left) <= g.pitch_x / 2 and abs(g.top - geometry.top) <= g.pitch_y / 2
        if (g.rows, g.cols) != (geometry.rows, geometry.cols) or not near:
            raise refused from None
        return own.cells


def _refuse_cut(image: np.ndarray, geometry: Geometry) -> None:
    """Raise when the screenshot's edge cuts the board (:func:`bot.vision.grid.cut_sides`): the cells
    that show are not the whole board, and their edge numbers count cells that do not show."""
    from bot.vision.grid import cut_sides

    sides = cut_sides(image, geometry)
    if sides:
        raise BoardNotFoundError(
            f"the board runs past the screenshot's {' and '.join(sides)} edge ({_where(geometry)} shows): "
            "bring the whole board on screen"
        )
