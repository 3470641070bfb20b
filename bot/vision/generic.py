"""Read every cell with no skin: group the board's own cells, then name the groups by structure.

Why: a client minebot has no skin for should still be readable when it follows the usual
conventions. Nothing here is fitted to one client's colours; the board's own logic decides what
structure alone cannot, and anything still unsure is refused (:class:`RecognitionError`), never guessed.

1. **Cut.** Every cell is resampled to ``TILE`` pixels square at the same sub-pixel positions (so
   32/33 px cells of a fractional pitch come out alike), after a light blur that removes dithering.
2. **Group.** Cells that look alike (small mean difference, no strong local difference) form one
   group; each group is one state.
3. **Plain or glyph.** A group whose core is a flat colour or a smooth ramp is *plain* (a covered
   cell, or a revealed 0); others carry a *glyph*, taken as ink against the plain group whose rim
   (bevel, grid line, fill) matches, or against the cell's own background (a red exploded cell).
4. **Glyph shape.** A cross over the cell is a wrong flag; a four-fold symmetric, square glyph is a
   mine; a glyph near a digit shape (:mod:`bot.vision.glyphs`) is a digit whose value the whole board
   settles (:mod:`bot.vision.digits`: the digits its shape allows, narrowed by the counting rules, one
   colour per digit and the solver's exact count); anything else on a covered cell is a flag.
5. **Kinds.** Plain groups of one colour are one kind. Kinds carrying digits are revealed, kinds that
   are raised (bevelled light top-left), textured or carry flags are covered; whatever is left is
   settled by the board's logic (a 0 touches no covered cell, a number needs that many covered or
   flagged neighbours) only when exactly one way fits.
6. **Check.** The whole reading must be a possible Minesweeper position; otherwise it is refused,
   naming the cell.

The stages live in modules of their own: cutting and grouping in :mod:`bot.vision.cutting`, describing a
tile (plain or glyph, frame, bevel, ink, glyph shape) in :mod:`bot.vision.describe`, tile kinds and
which may be covered in :mod:`bot.vision.tilekinds`, naming with the board's logic in
:mod:`bot.vision.naming`; this module holds the whole reading (:func:`read_cells`, :class:`GenericModel`)
and a lost board with every cell open.

Successive frames of one game reuse the named groups (:class:`GenericModel`): a cell that looks like
a group already named takes its state at once, and only new looks are named afresh.

>>> from bot.board import Board
>>> from bot.render import render_screen
>>> board = Board.from_text("1F1\\n111\\n000", mines=1)
>>> image, geometry = render_screen(board, "classic", 1.25, seed=1)
>>> print(read_cells(image, geometry).board(1))
1F1
111
000
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass, field, replace

import numpy as np

from bot.board import Board, Cell
from bot.errors import RecognitionError
from bot.geometry import Geometry
from bot.solver.rules import count_around
from bot.vision.classify import CellReading
from bot.vision.cutting import (
    INSET,
    POOL,
    SAME_MEAN,
    TILE,
    Group,
    Shape,
    _alike,
    _groups_of,
    alike,
    crop_board,
    cut_tiles,
    group_cells,
    looks_of,
)
from bot.vision.describe import (
    FLAT_RESIDUAL,
    _ramp_residual,
    framed,
)
from bot.vision.digits import (
    INK_APART,
)
from bot.vision.grid import MIN_SIDE
from bot.vision.naming import (
    MAX_MARKS,
    _refuse,
    logic_problem,
    name_groups,
)
from bot.vision.overdraw import repair_runs
from bot.vision.shade import chain_groups
from bot.vision.tilekinds import (
    TEXTURE,
    _drawn_alike,
    _glyph_shapes,
    _plain_kinds,
    apart_kinds,
)
from bot.vision.won import won_reading

LOGGER = logging.getLogger(__name__)
GENERIC = "generic"
"""The skin name that selects this reader."""
MAX_GROUPS = 60
"""Most different looks a board's cells may fall into (a board shows at most about 16 states, each
in a few renderings); more means the cells are cut out of line, or this is no board."""
EDGE_ALIKE = 0.5
"""Share of the cells just past one edge of a board that, looking like the board's own cells, say the grid
goes on there: the board was cut (a column or row missed), and its edge cells' counts cannot be checked."""
MODEL_GROUPS = 64
"""Most named groups a :class:`GenericModel` remembers."""


@dataclass
class GenericModel:
    """What earlier frames of one game taught: the pooled look of each named group and its state."""

    looks: np.ndarray = field(default_factory=lambda: np.empty((0, (TILE // POOL) ** 2, 3), np.float32))
    states: list[Cell] = field(default_factory=list)
    last: np.ndarray | None = None
    """The last exact reading's states, flat (:func:`_name_digits` may name a half-hidden glyph by it)."""

    def remember(self, looks: np.ndarray, states: list[Cell]) -> None:
        """Add named looks (keeping at most ``MODEL_GROUPS``, the newest)."""
        self.looks = np.concatenate([self.looks, looks])[-MODEL_GROUPS:]
        self.states = (self.states + states)[-MODEL_GROUPS:]


SIDE = TILE // POOL
"""Side of a cell's pooled look (:func:`bot.vision.cutting.looks_of`)."""
LOOK_RING = 1
"""Pooled pixels along a look's edge left out when a lost board every cell of which is open is grouped:
each cell's edge there shows its neighbours' lines (and any outline drawn around them), its inside its
own state (:func:`_all_open_lost`)."""


def _inner_looks(looks: np.ndarray, ring: int = LOOK_RING) -> np.ndarray:
    """Pooled looks ``(N, P, 3)`` less their outer ``ring`` pixels."""
    side = TILE // POOL
    square = looks.reshape(len(looks), side, side, 3)[:, ring : side - ring, ring : side - ring]
    return np.ascontiguousarray(square.reshape(len(looks), -1, 3))


def _counted(
    groups: list[Group], mines: np.ndarray, rows: int, cols: int
) -> tuple[np.ndarray, list[int]] | None:
    """A lost board's states with every cell open and ``mines`` (flat, bool) its shown mines: each glyph
    group not a mine is the number of mines around its cells (the same for all of them, at least 1, one
    ink per number), each plain cell 0; and the plain cells with mines around (drawn blank: their number
    hidden, as only a flag hides it), for the caller. None when the counts name no such board."""
    around = count_around(mines.reshape(rows, cols)).ravel()
    states = np.where(mines, int(Cell.MINE), int(Cell.ZERO)).astype(np.int16)
    inks: dict[int, np.ndarray] = {}
    blank: list[int] = []
    for g in groups:
        if mines[g.members].all():
            continue
        if mines[g.members].any():
            return None
        values = np.unique(around[g.members])
        if g.shape == Shape.PLAIN:
            blank += [int(i) for i in g.members[around[g.members] > 0]]
            continue
        if len(values) != 1 or values[0] == 0 or g.ink is None:
            return None
        n = int(values[0])
        if n in inks and np.abs(inks[n] - g.ink).max() > INK_APART:
            return None
        inks.setdefault(n, g.ink)
        states[g.members] = n
    return states, blank


def _blank_flags(groups: list[Group], mines: np.ndarray, rows: int, cols: int) -> list[np.ndarray]:
    """Every reading (flat states) of a lost board with every cell open, ``mines`` its shown mines, that
    the counts allow: a cell drawn blank with mines around hides its number, so it was flagged, and the
    counts tell a flag on a mine from a wrong one (each way tried; at most ``MAX_MARKS`` such cells)."""
    first = _counted(groups, mines, rows, cols)
    if first is None:
        return []
    _, blank = first
    if len(blank) > MAX_MARKS:
        return []
    readings = []
    for under in itertools.product((False, True), repeat=len(blank)):
        shown = mines.copy()
        shown[[i for i, m in zip(blank, under, strict=True) if m]] = True
        found = _counted(groups, shown, rows, cols)
        if found is None or set(found[1]) != {i for i, m in zip(blank, under, strict=True) if not m}:
            continue
        states = found[0]
        for i, m in zip(blank, under, strict=True):
            states[i] = int(Cell.FLAG if m else Cell.WRONG_FLAG)
        readings.append(states)
    return readings


def _apart_at_edge_only(looks: np.ndarray, members: np.ndarray, cell: int, rows: int, cols: int) -> bool:
    """Whether ``cell`` on the board's edge is drawn like ``members`` over the half of it that faces the
    board: what sets it apart lies on its outer side, where a grid a pixel or two off takes in the
    window beyond the board, not the cell's own frame (a mine that went off is framed all round)."""
    row, col = divmod(cell, cols)
    side = TILE // POOL
    keep = np.ones((side, side), bool)
    half = side // 2
    for edge, band in (
        (row == 0, np.s_[:half, :]),
        (row == rows - 1, np.s_[side - half :, :]),
        (col == 0, np.s_[:, :half]),
        (col == cols - 1, np.s_[:, side - half :]),
    ):
        if edge:
            keep[band] = False
    if keep.all() or not keep.any():
        return False
    main = looks[members].mean(axis=0)
    diff = np.abs(looks[cell] - main).reshape(side, side, 3)[keep]
    return bool(_alike(diff[None])[0])


def _all_open_lost(
    looks: np.ndarray,
    tiles: np.ndarray,
    texture: np.ndarray,
    painted: np.ndarray | None,
    pixels: np.ndarray | None,
    rows: int,
    cols: int,
    last: np.ndarray | None,
) -> np.ndarray | None:
    """A lost board whose every cell is open (no covered look), read by its own logic when the looks
    name nothing: cells grouped on their insides (:func:`_inner_looks`), the mines one glyph drawn alike
    wherever it shows, every number the count of mines around it (however its digit is drawn: clipped,
    or on a tile of its own), the mine that went off the one drawn like them inside but framed apart (an
    outline), less those ``last`` showed flagged. Flat states, or None when no such board, or more than
    one, fits; raises naming the cells when the counts fit but which mine went off is not shown."""
    labels = group_cells(_inner_looks(looks))
    if labels.max() + 1 > MAX_GROUPS or labels.max() == 0:
        return None
    groups = _groups_of(labels, tiles, painted, pixels)
    kinds = _plain_kinds(groups, texture, (rows, cols))
    if any(kind.raised or kind.texture >= TEXTURE for kind in kinds) or any(g.raised for g in groups):
        return None  # a covered look: not every cell is open
    _glyph_shapes(groups, kinds)
    glyphs = [i for i, g in enumerate(groups) if g.shape != Shape.PLAIN and g.glyph is not None]
    fits: list[tuple[list[int], np.ndarray]] = []
    tried: set[tuple[int, ...]] = set()
    for c in glyphs:
        drawn = [i for i in glyphs if i == c or _drawn_alike(groups[i], groups[c])]
        if tuple(drawn) in tried:
            continue
        tried.add(tuple(drawn))
        mines = np.zeros(rows * cols, bool)
        for i in drawn:
            mines[groups[i].members] = True
        fits += [(drawn, states) for states in _blank_flags(groups, mines, rows, cols)]
    if len(fits) != 1:
        return None
    drawn, states = fits[0]
    main = groups[max(drawn, key=lambda i: len(groups[i].members))]
    odd = [int(m) for i in drawn if groups[i] is not main for m in groups[i].members]
    odd = [m for m in odd if not _apart_at_edge_only(looks, main.members, m, rows, cols)]
    inside = _inner_looks(looks, LOOK_RING + 1)
    if not odd or not all(_alike(np.abs(inside[main.members] - inside[i])).any() for i in odd):
        return None  # no mine, or one unlike the rest inside too (a cell lit up): not shown which went off
    if last is not None and not (states[last <= Cell.EIGHT] == last[last <= Cell.EIGHT]).all():
        last = None  # another game's reading
    flagged = [i for i in odd if last is not None and last[i] == Cell.FLAG]
    went_off = [i for i in odd if i not in flagged]
    if len(went_off) != 1:
        before = " and not flagged before" if last is not None else ""
        raise _refuse(
            went_off or [int(main.members[0])],
            cols,
            f"is a shown mine of a lost board with {len(went_off)} drawn unlike the rest{before}: "
            "which went off is not shown (a flag on a mine may be drawn as it is)",
        )
    states[flagged] = int(Cell.FLAG)
    states[went_off[0]] = int(Cell.EXPLODED)
    return states


def _named_apart(
    labels: np.ndarray,
    tiles: np.ndarray,
    texture: np.ndarray,
    painted: np.ndarray | None,
    pixels: np.ndarray | None,
    shape: tuple[int, int],
    last: np.ndarray | None,
    refusal: RecognitionError,
) -> tuple[list[Group], list[Cell]]:
    """The groups named afresh with plain looks joined into kinds only where their cells touch, when that
    parts looks joined by colour alone (:func:`bot.vision.tilekinds.apart_kinds`: a low-contrast theme's
    covered tiles and revealed 0s a few levels apart; a revealed 0 never touches a covered cell) and
    exactly one reading fits; else raises ``refusal`` (the first naming's)."""
    groups = _groups_of(labels, tiles, painted, pixels)
    if not apart_kinds(groups, texture, shape):
        raise refusal
    groups = _groups_of(labels, tiles, painted, pixels)
    try:
        return groups, name_groups(groups, texture, shape[0], shape[1], last, touching=True)
    except RecognitionError:
        raise refusal from None


EDGE_NEAR = 2.0
"""A cell just past a board's edge is near one of the board's looks when its mean difference from it is
at most this many times :data:`bot.vision.cutting.SAME_MEAN`: the grid going on at another sub-pixel
phase (a fractional pitch) draws the same states a few levels apart, where a window's margin, frame or
header differs by far more."""
EDGE_SEEN = 0.75
"""Least share of a pitch of the strip past a board's edge that must lie inside the image for it to be
compared (a board whose cells go on to the image's edge, a column cut there)."""


def _past_edge(image: np.ndarray, g: Geometry, side: str) -> tuple[Geometry, Geometry | None] | None:
    """The strip of cells one pitch past ``side`` of the board ``g``, as far as it lies inside ``image``
    (with 2 px to spare), and, when the image's edge cuts it, the same part of the board's own edge row
    or column (the cells it is compared with); None when less than :data:`EDGE_SEEN` of it shows."""
    height, width = image.shape[:2]
    across = side in ("left", "right")
    pitch = g.pitch_x if across else g.pitch_y
    start = {
        "right": g.left + g.cols * g.pitch_x,
        "left": g.left - g.pitch_x,
        "bottom": g.top + g.rows * g.pitch_y,
        "top": g.top - g.pitch_y,
    }[side]
    own = start + pitch if side in ("left", "top") else start - pitch  # the board's own edge cells
    low, high = max(start, 2.0), min(start + pitch, float((width if across else height) - 2))
    if high - low < EDGE_SEEN * pitch:
        return None
    if across:
        strip = replace(g, left=low, pitch_x=high - low, cols=1)
        mine = replace(g, left=own + low - start, pitch_x=high - low, cols=1)
    else:
        strip = replace(g, top=low, pitch_y=high - low, rows=1)
        mine = replace(g, top=own + low - start, pitch_y=high - low, rows=1)
    return strip, (mine if high - low < pitch - 0.5 else None)


def _cut_edge(image: np.ndarray, geometry: Geometry, looks: np.ndarray) -> tuple[list[int], str] | None:
    """The cells along an edge past which the grid goes on, and why; None when every edge ends the grid.
    The grid goes on when most cells one pitch past the edge are alike to the board's ``looks`` (its
    groups' mean looks) in more than one look (one look alone may be a background like a flat 0: ace's
    margin is drawn as its revealed cells are), or, where the image's edge cuts the strip, in one look that
    is no flat colour (a board reaching the image's edge, a column off); or when most
    are near them (:data:`EDGE_NEAR`: the grid at another sub-pixel phase) and two of those, near two
    different looks, differ from each other by more than twice as much as from them (the board's states
    going on; a margin's cells are near one another), no one look of the strip taking up most of it (a
    header's items lie on one ground). Where the image's edge cuts the strip, its part
    inside is compared with the same part of the board's own edge cells."""
    g = geometry
    last_col = [r * g.cols + g.cols - 1 for r in range(g.rows)]
    last_row = [(g.rows - 1) * g.cols + c for c in range(g.cols)]
    edges = {
        "right": last_col,
        "left": [i - g.cols + 1 for i in last_col],
        "bottom": last_row,
        "top": list(range(g.cols)),
    }
    why = "is on the board's {} edge, but the grid goes on past it: the board is cut"
    for side, edge in edges.items():
        found = _past_edge(image, g, side)
        if found is None:
            continue
        strip, mine = found
        past = looks_of(crop_board(image, strip))
        refs = looks if mine is None else looks_of(crop_board(image, mine))
        hits, _ = alike(past, refs)
        shown = group_cells(past)
        if (hits >= 0).mean() >= EDGE_ALIKE and len(np.unique(shown[hits >= 0])) >= 2:
            return edge, why.format(side)
        alone = (hits >= 0).mean() >= EDGE_ALIKE  # alike in one look, no flat colour: one no margin draws
        if (
            alone
            and _ramp_residual(past[hits >= 0].mean(axis=0).reshape(SIDE, SIDE, 3)) > FLAT_RESIDUAL
            and mine is not None  # cut by the image's edge (ace's margin is drawn as its revealed cells)
        ):
            return edge, why.format(side)
        distance = np.abs(past[:, None] - refs[None]).mean(axis=(2, 3))
        nearest, look = distance.min(axis=1), group_cells(refs)[distance.argmin(axis=1)]
        near = np.flatnonzero(nearest <= EDGE_NEAR * SAME_MEAN)
        if len(near) < EDGE_ALIKE * len(past) or np.bincount(shown).max() >= EDGE_ALIKE * len(past):
            continue  # most of it one look: a margin or a header, with a few items on it
        apart = np.abs(past[near][:, None] - past[near][None]).mean(axis=(2, 3))
        reach = np.maximum(nearest[near][:, None], nearest[near][None])
        if ((look[near][:, None] != look[near][None]) & (apart > 2 * reach)).any():
            return edge, why.format(side)
    return None


def read_cells(image: np.ndarray, geometry: Geometry, model: GenericModel | None = None) -> CellReading:
    """Read every cell of ``geometry`` with no skin; raises :class:`RecognitionError` rather than guess.

    ``model`` carries what earlier frames of the same game taught; it learns from this frame when the
    frame is read.
    """
    from bot.vision.memory import keep_freed_memory

    keep_freed_memory()  # its large arrays reused from one reading to the next, not faulted in again
    rows, cols = geometry.rows, geometry.cols
    repaired, painted, pixels = repair_runs(image, geometry)  # glyphs spilling over painted over
    crop = crop_board(repaired, geometry)
    looks = looks_of(crop)
    states = np.full(rows * cols, -1, np.int16)
    if model is not None and len(model.looks):
        known, _ = alike(looks, model.looks)
        hit = known >= 0
        states[hit] = np.array([int(s) for s in model.states])[known[hit]]
        if hit.all():
            return _kept(model, _result(geometry, states, "generic (learnt)"))
    tiles, texture = cut_tiles(crop)
    labels = chain_groups(group_cells(looks), looks, rows, cols)  # a shade across the board: one group
    cut = _cut_edge(
        image, geometry, np.stack([looks[labels == k].mean(axis=0) for k in range(labels.max() + 1)])
    )
    if cut is not None:
        raise _refuse(cut[0], cols, cut[1])
    if labels.max() == 0 and min(rows, cols) < MIN_SIDE:
        raise _refuse(
            list(range(rows * cols)),
            cols,
            f"is one look like every other cell of a {rows}x{cols} grid: too small to tell from a toolbar",
        )
    one = tiles.mean(axis=0)
    if (
        labels.max() == 0
        and not framed(one)
        and _ramp_residual(one[INSET:-INSET, INSET:-INSET]) <= FLAT_RESIDUAL
    ):
        raise _refuse(
            list(range(rows * cols)),
            cols,
            "is one flat colour like every other cell, no grid line, gap or bevel between them: no board",
        )
    if labels.max() == 0:  # no position but a fresh board shows one state in every cell
        states[:] = int(Cell.COVERED)  # whatever its picture resembles (a symmetric butterfly, a tuft)
        if model is not None:
            model.remember(looks.mean(axis=0)[None], [Cell.COVERED])
        return _result(geometry, states, "generic")
    last = model.last if model is not None and model.last is not None else None
    last = last if last is not None and last.size == rows * cols else None
    groups: list[Group] = []
    try:
        if labels.max() + 1 > MAX_GROUPS:
            odd = np.nonzero(np.bincount(labels) == 1)[0]
            lone = np.nonzero(np.isin(labels, odd))[0] if len(odd) else np.arange(1)
            raise _refuse(
                list(lone),
                cols,
                f"is one of {labels.max() + 1} different looks: cells not aligned, or no board",
            )
        groups = _groups_of(labels, tiles, painted, pixels)
        named = name_groups(groups, texture, rows, cols, last)
    except RecognitionError as refused:
        refusal = refused
        try:
            opened = _all_open_lost(looks, tiles, texture, painted, pixels, rows, cols, last)
        except RecognitionError as unshown:  # which mine went off is not shown: perhaps none did
            opened, refusal = None, unshown
        if opened is not None:
            return _kept(model, _result(geometry, opened, "generic"))  # a lost game's end: nothing to learn
        if not groups:
            raise refusal from None
        won = won_reading(groups, rows, cols)  # every mine flagged, none gone off
        if won is not None:
            for g, s in zip(groups, won, strict=True):
                states[g.members] = int(s)
            return _kept(model, _result(geometry, states, "generic"))  # a won game's end: nothing to learn
        groups, named = _named_apart(labels, tiles, texture, painted, pixels, (rows, cols), last, refusal)
    if Cell.FLAG in named and Cell.COVERED not in named:  # won with flags, or lost, its mines taken for
        opened = _all_open_lost(looks, tiles, texture, painted, pixels, rows, cols, last)  # flags?
        if opened is not None:  # one of them framed apart: the mine that went off
            return _kept(model, _result(geometry, opened, "generic"))
    for g, s in zip(groups, named, strict=True):
        states[g.members] = int(s)
    if model is not None:
        model.remember(np.stack([looks[g.members].mean(axis=0) for g in groups]), named)
    return _kept(model, _result(geometry, states, "generic"))


def _kept(model: GenericModel | None, reading: CellReading) -> CellReading:
    """``reading``, kept in ``model`` as the last exact one."""
    if model is not None:
        model.last = reading.states.ravel().copy()
    return reading


def _result(geometry: Geometry, states: np.ndarray, name: str) -> CellReading:
    """A :class:`CellReading` of sure states (confidence 1, distance 0), after the board-logic check."""
    grid = states.reshape(geometry.rows, geometry.cols).astype(np.int8)
    found = logic_problem(grid)
    if found is not None:
        raise _refuse([found[0]], geometry.cols, found[1])
    shape = grid.shape
    return CellReading(
        geometry=geometry,
        skin_name=name,
        states=grid,
        second=grid.copy(),
        distance=np.zeros(shape),
        confidence=np.ones(shape),
    )


def read_board_cells(image: np.ndarray, geometry: Geometry, mines: int | None = None) -> Board:
    """The board read with no skin (a convenience for tests and benchmarks)."""
    return read_cells(image, geometry).board(mines)


__all__ = [
    "GENERIC",
    "GenericModel",
    "read_cells",
    "read_board_cells",
]
