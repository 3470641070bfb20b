"""Find a board on a whole screenshot: its rectangle, rows, columns and (fractional) cell pitch.

Scale-free, so display scaling and browser zoom need no search over scales:

1. *Faces.* Covered and opened cells have a flat "face" colour (the covered template's middle, the
   ``0`` template's middle). Each cell's face is a separate blob of that colour, because bevels and
   grid lines part neighbours. Connected components of a colour mask give candidate blobs, kept when
   roughly square.
2. *Lattice.* Sorting blob centres into rows and columns gives spacings; the most common spacing is
   the pitch. Blobs one pitch apart are joined; each large joined group is a board candidate, and a
   least-squares fit of centre against lattice index gives the pitch and origin to sub-pixel.
3. *Snap to the skin.* A face's centre only places the lattice to about a pixel, and where a skin's
   templates were cut (a calibrated skin's are cut where its grid finder put the cell edges) fixes
   the rest: the grid's first and last edge on each axis are moved, a pixel at a time, while the
   cells' total distance to their best templates falls; the two ends give origin and pitch.
4. *Check and extend.* The candidate grid is classified (:mod:`bot.vision.classify`); rows and columns
   just outside it are added while their cells match skin states as well as the board's own cells do
   (cells matching nothing are allowed in a strip whose other cells do: a state the skin has never
   seen must make the board unreadable, not cut it short). A grid whose cells mostly match nothing
   is dropped.

5. *Colour shift.* When no board is found, or the one found reads far from the templates, the screen's
   colours may be shifted (a night light, gamma): a per-channel shift is estimated from the board's own
   cells (:mod:`bot.vision.tint`) on the found grid, or on lattices of flat blobs of any colour, and the
   board is located again on the screenshot mapped back.

6. *Structure.* When faces find no board (a covered tile with no flat face: dithered, shaded) or
   several pieces of one (parted by cells the skin cannot read), the skinless grid finder's board
   (:mod:`bot.vision.grid`) is read with the skin, and taken only when its cells sit as near the skin's
   templates as a board found by its faces, the skin reads it nearly whole, and it is the whole board
   drawn; otherwise the error says why it was not taken.

Fallbacks (a looser colour tolerance for recompressed screenshots, a colour shift undone) are recorded
in :attr:`Location.notes` and logged at INFO.

The stages are modules of their own: :mod:`bot.vision.skinfaces` (blobs of the skin's face colours and
the lattices they make: steps 1-2), :mod:`bot.vision.snap` (a lattice snapped to the skin's templates,
checked and extended: steps 3-4), :mod:`bot.vision.locate_structure` (the skinless grid finder's board
read with the skin: step 6); this module runs them and undoes a colour shift (step 5).
"""

from __future__ import annotations

import logging

import cv2
import numpy as np

from bot.errors import BoardNotFoundError
from bot.geometry import Geometry
from bot.skin import Skin
from bot.vision.boxes import Boxes
from bot.vision.classify import (
    CellReading,
    better_reading,
    classify_cells,
    remember_colours,
)
from bot.vision.locate_structure import _SCREEN, _describe, _located_by_structure
from bot.vision.locate_structure import one_screen as one_screen
from bot.vision.skinfaces import (
    MIN_GROUP,
    FaceKind,
    _find_blobs,
    _groups,
    _initial_geometry,
    _neighbour_pairs,
    _pitch_peak,
    _refit,
    flat_blobs,
)
from bot.vision.skinfaces import face_kinds as face_kinds
from bot.vision.snap import (
    MAX_UNCERTAIN_FRACTION,
    Costs,
    _extend,
    _off_colour,
    _snap,
    _too_fine,
    _too_uncertain,
)
from bot.vision.snap import Location as Location
from bot.vision.tint import ColourShift, estimate_shift

LOGGER = logging.getLogger(__name__)


SHIFT_NUDGES = ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, 1), (-1, 1), (1, -1))
"""Whole-pixel moves of a grid tried when estimating a colour shift on it."""


SHIFT_GROUPS = 3
"""Largest lattices of flat blobs tried as boards when no board of the skin's colours is found."""


COLOUR_TOLERANCES = (20, 44)
"""Per-channel colour tolerance for face blobs: the strict pass, then the fallback pass."""


EXTEND_PASSES = 4
"""Most rounds of extend, refit and snap: a round that moves the grid or reads it better may let the
next add strips it refused."""


def _locate_group(
    image: np.ndarray, group: Boxes, blobs: Boxes, kinds: list[FaceKind], skin: Skin
) -> Location | None:
    """Check one lattice group as a board: snap, classify, extend, refit on all blobs and snap, again."""
    geometry = _initial_geometry(group, kinds, skin)
    if geometry is None or _too_fine(geometry):
        return None
    costs: Costs = {}
    geometry = _snap(image, geometry, skin, costs)
    reading = classify_cells(image, geometry, skin, colours=None)
    if _too_fine(geometry) or _too_uncertain(reading, skin):
        return None
    for _ in range(EXTEND_PASSES):
        before = geometry
        extended = _extend(image, geometry, skin, reading)
        geometry = _snap(image, _refit(extended, blobs, kinds, skin), skin, costs)
        if _too_fine(geometry):
            return None
        reading = classify_cells(image, geometry, skin, colours=None)
        if extended == before and not _moved(geometry, before):
            break  # nothing grew or moved: the strips were judged as they stand
    if _too_uncertain(reading, skin) or min(geometry.rows, geometry.cols) < 2:
        return None
    return Location(geometry, reading, skin)


def _candidates(image: np.ndarray, skin: Skin, tolerance: int) -> list[Location]:
    kinds = face_kinds(skin)
    colours: list[np.ndarray] = []
    for kind in kinds:
        if not any(np.abs(kind.colour - c).max() <= 4 for c in colours):
            colours.append(kind.colour)
    blobs = _find_blobs(image, colours, tolerance)
    found: list[Location] = []
    remaining = np.arange(len(blobs.x))
    for _ in range(3):  # a few distinct pitches, for boards of different scales on one screen
        sub = blobs.take(remaining)
        size = np.maximum(sub.w, sub.h)
        gaps = np.concatenate(
            [_neighbour_pairs(sub.cx, sub.cy, size)[2], _neighbour_pairs(sub.cy, sub.cx, size)[2]]
        )
        pitch = _pitch_peak(gaps)
        if pitch is None:
            break
        used = []
        for group in _groups(sub, pitch):
            used.append(group)
            members = sub.take(group)
            x, y = float(np.median(members.cx)), float(np.median(members.cy))
            if any(f.geometry.region().contains(x, y) for f in found):
                continue  # more blobs of a board already found
            location = _locate_group(image, members, sub, kinds, skin)
            if location is None:
                continue
            overlapping = [f for f in found if _overlaps(location.geometry, f.geometry)]
            if all(_cells(location) > _cells(f) for f in overlapping):
                # a part of a board found first (from blobs cut off by unreadable cells) gives way
                found = [f for f in found if f not in overlapping] + [location]
        if not used:
            break
        remaining = np.setdiff1d(remaining, remaining[np.concatenate(used)])
        if len(remaining) < MIN_GROUP:
            break
    return found


def _same_grid(a: Geometry, b: Geometry) -> bool:
    """True when two grids have the same rows and columns, within half a cell of each other."""
    return (
        (a.rows, a.cols) == (b.rows, b.cols)
        and abs(a.left - b.left) < a.pitch_x / 2
        and abs(a.top - b.top) < a.pitch_y / 2
    )


def _moved(a: Geometry, b: Geometry) -> bool:
    """True when any edge of the two grids differs by half a pixel or more (cells are cut otherwise)."""
    ra, rb = ((g.left, g.top, g.left + g.cols * g.pitch_x, g.top + g.rows * g.pitch_y) for g in (a, b))
    return (a.rows, a.cols) != (b.rows, b.cols) or max(abs(p - q) for p, q in zip(ra, rb, strict=True)) >= 0.5


def _cells(location: Location) -> int:
    return location.geometry.rows * location.geometry.cols


def _overlaps(a: Geometry, b: Geometry) -> bool:
    ra, rb = a.region(), b.region()
    return ra.left < rb.right and rb.left < ra.right and ra.top < rb.bottom and rb.top < ra.bottom


def locate_board(image: np.ndarray, skin: Skin) -> Location:
    """Find the one board drawn in ``skin`` on a BGR screenshot.

    When no board is found, or the one found reads far from the skin's templates, the screen's colours
    may be shifted (a night light, gamma): the shift is estimated from the board's own cells
    (:mod:`bot.vision.tint`), and the board found again on the screenshot mapped back, if that reads
    surer. The mapping is remembered for the skin's later readings (:func:`remember_colours`). When
    faces find no board, or several pieces of one, the skinless grid finder's board is tried with the
    skin (:func:`_located_by_structure`).

    Raises:
        BoardNotFoundError: when no board is found (saying why the skinless grid finder's was not the
            skin's), or when two or more are (naming where each is).
    """
    notes: list[str] = []
    found: list[Location] = []
    for attempt, tolerance in enumerate(COLOUR_TOLERANCES):
        if attempt:
            note = (
                f"no {skin.name} board at colour tolerance {COLOUR_TOLERANCES[attempt - 1]}; "
                f"retried at {tolerance}"
            )
            notes.append(note)
            LOGGER.info(note)
        found = _candidates(image, skin, tolerance)
        if found:
            break
    if len(found) <= 1 and (not found or _off_colour(found[0].reading)):
        shifted = _locate_shifted(image, skin, found)
        if shifted is not None:
            found = [shifted]
    elif found:
        remember_colours(skin, None)
    why = ""
    if not found or len(found) > 1:
        by_structure, why = _located_by_structure(image, skin, found)
        found = found if by_structure is None else [by_structure]
    height, width = image.shape[:2]
    if not found:
        raise BoardNotFoundError(f"no {skin.name!r} board found on the {width}x{height} screenshot{why}")
    if len(found) > 1:
        where = "; ".join(_describe(f.geometry) for f in found)
        raise BoardNotFoundError(
            f"{len(found)} {skin.name!r} boards found on the screenshot, expected one: {where}{why}"
        )
    location = found[0]
    location.notes[:0] = notes
    return location


def _flat_lattices(image: np.ndarray) -> tuple[Boxes, list[np.ndarray]]:
    """Flat blobs of any colour and the largest lattices they form (shared within :func:`one_screen`)."""
    if _SCREEN.get("image") is image and "flat" in _SCREEN:
        return _SCREEN["flat"]  # type: ignore[return-value]
    blobs = flat_blobs(image)
    size = np.maximum(blobs.w, blobs.h)
    gaps = np.concatenate(
        [_neighbour_pairs(blobs.cx, blobs.cy, size)[2], _neighbour_pairs(blobs.cy, blobs.cx, size)[2]]
    )
    pitch = _pitch_peak(gaps)
    result = (blobs, [] if pitch is None else _groups(blobs, pitch)[:SHIFT_GROUPS])
    if _SCREEN.get("image") is image:
        _SCREEN["flat"] = result
    return result


def _shift_geometries(image: np.ndarray, skin: Skin, found: list[Location]) -> list[Geometry]:
    """Grids to estimate a colour shift on: the board found, else lattices of flat blobs of any colour."""
    if found:
        return [found[0].geometry]
    blobs, groups = _flat_lattices(image)
    grids = []
    for group in groups:
        geometry = _initial_geometry(blobs.take(group), face_kinds(skin), skin)
        if geometry is not None and min(geometry.rows, geometry.cols) >= 2:
            grids.append(geometry)
    return grids


def _best_estimate(
    image: np.ndarray, geometry: Geometry, skin: Skin
) -> tuple[ColourShift, CellReading] | None:
    """The colour shift estimated on the grid, or on it moved by a pixel (a grid from blob centres may
    sit half a pixel off), whichever reads the most cells surely."""
    best = None
    for dx, dy in SHIFT_NUDGES:
        moved = Geometry(
            geometry.left + dx,
            geometry.top + dy,
            geometry.pitch_x,
            geometry.pitch_y,
            geometry.rows,
            geometry.cols,
        )
        estimate = estimate_shift(image, moved, skin)
        if estimate is None:
            continue
        unsure = int(estimate[1].uncertain_mask().sum())
        if best is None or unsure < best[0]:
            best = (unsure, estimate)
        if unsure == 0:
            break
    return None if best is None else best[1]


def _locate_shifted(image: np.ndarray, skin: Skin, found: list[Location]) -> Location | None:
    """The board found on the screenshot with its colour shift undone, when that reads surer."""
    for geometry in _shift_geometries(image, skin, found):
        estimate = _best_estimate(image, geometry, skin)
        if estimate is None:
            continue
        shift, _ = estimate
        table = shift.table()
        mapped = cv2.LUT(image, table)
        for tolerance in COLOUR_TOLERANCES:
            located = _candidates(mapped, skin, tolerance)
            if located:
                break
        if len(located) != 1 or float(located[0].reading.uncertain_mask().mean()) > MAX_UNCERTAIN_FRACTION:
            continue  # through a shift, only a board read nearly whole counts (a skin bent to clutter is not)
        if found and not (
            _same_grid(located[0].geometry, found[0].geometry)
            and better_reading(located[0].reading, found[0].reading)
        ):
            continue
        note = f"screen colours shifted; mapped back with {shift.describe()}"
        located[0].notes.append(note)
        LOGGER.info(note)
        remember_colours(skin, table)
        return located[0]
    return None
