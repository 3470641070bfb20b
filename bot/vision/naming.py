"""Name every group with the board's logic: the cover options, flags, shown mines and digits tried together.

Why: structure alone cannot always tell a covered tile from a revealed 0, a flag from a mine, or a 3
from a 5; every naming the options allow is checked against the counts of a possible Minesweeper
position, and a reading is given only when exactly one fits, else it is refused naming the cell
(:class:`bot.errors.RecognitionError`)."""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from bot.board import Cell
from bot.errors import RecognitionError
from bot.solver.rules import count_around
from bot.vision.cutting import (
    Group,
    Shape,
    _peak,
)
from bot.vision.describe import (
    CLEAR_DIGIT,
    KNOWN_FILL,
    _pixels,
    _rim,
    holes_counted,
    own_background,
)
from bot.vision.digits import (
    count_bounds,
    frontier_problem,
    settle_digits,
    shows_every_mine,
)
from bot.vision.glyphs import (
    SHAPE_SIZE,
    own_size_distances,
    shape_distance,
)
from bot.vision.ownfont import _own_font, unlike_own_font
from bot.vision.tilekinds import (
    KIND_DISTANCE,
    _attach,
    _cover_options,
    _drawn_alike,
    _fill,
    _glyph_state,
    _on_covered,
    _one_covered_look,
)

LINE_BAND = 2
"""Pixels of a tile's outermost band, where its frame shows (a grid line, a bevel's edge)."""
LINE_SHARE = 0.25
"""Least share of a plain tile's outermost band in one colour for that colour to be its frame's (a grid
line along two sides covers about half of it)."""
MAX_MARKS = 3
"""Most looks of a glyph on covered tiles, on a lost board, that the counts may tell flag or wrong flag."""


def _refuse(cells: list[int], cols: int, why: str) -> RecognitionError:
    where = [divmod(int(i), cols) for i in cells]
    more = f" ({len(where) - 1} more cell(s) alike)" if len(where) > 1 else ""
    return RecognitionError(f"generic reader: cell {where[0]} {why}{more}", cell=where[0])


def _loose_flags(groups: list[Group], named: list[Cell | None], lost: bool) -> list[int]:
    """Groups read as flags while another group read as a flag draws another glyph: a client draws its
    flag one way, so glyphs of several looks taken as flags are something else: drawn over the board
    (JSMinesweeper's hover tooltip read as a flag, a 4 and a flag, on grounds like no plain cell's), or
    the edges of covered tiles a grid cuts across (a run of cells a pixel wider than the grid's pitch:
    each column of the run cut at another place). On a ``lost`` board (one showing mines) a flag on a
    covered tile may be a wrong flag drawn otherwise, and only flags on grounds like no plain cell's
    count. Renderings of one flag are linked through each other (:func:`_drawn_alike`, one to the next:
    a shade across the board tints each a little otherwise). Empty when every one is so linked."""
    loose = [
        i
        for i, (g, s) in enumerate(zip(groups, named, strict=True))
        if s is Cell.FLAG and (g.base is None or not lost)
    ]
    if not loose:
        return []
    linked, left = [loose[0]], loose[1:]  # one glyph: each drawn like another, as a shade runs across
    while left:
        near = [i for i in left if any(_drawn_alike(groups[i], groups[j]) for j in linked)]
        if not near:
            return loose
        linked += near
        left = [i for i in left if i not in near]
    return []


def _claim_mines(
    groups: list[Group], states: list[Cell | None], covered: tuple[bool, ...]
) -> tuple[list[int], list[int], list[int]]:
    """Glyph groups on a revealed tile that are no digit (any shape, any colours) taken as shown mines,
    in place: a revealed cell shows a number or a mine, nothing else; so is a glyph on a ground of its
    own nearer their shape than any digit's, or a lone glyph on a revealed tile nearer the shape of the
    symmetric mines shown (the mine that went off, drawn unlike them). Only a hypothesis: the reading
    stands only if the board is then lost, showing the mine that went off, and shows every mine (each
    number equals its shown mines and flags, :func:`bot.vision.digits.shows_every_mine`; flags count
    alike, so a won board's flags taken for mines would pass without the first). Returns the groups
    claimed, and the symmetric glyphs on covered tiles that are then no mine (shown mines share one
    look on one ground: a symmetric glyph on a covered tile is none either where several cells show
    mines on a revealed tile, or on grounds of their own drawn unlike it: a flag drawn as a filled mark;
    the one that went off, one cell, may be drawn otherwise): a flag or a wrong flag, which the counts
    tell apart. Last, the symmetric glyphs on covered tiles drawn like the mines several cells show on
    grounds of their own: a flag drawn like them, or one more of them, which no count tells apart."""
    claimed = []
    for i, (g, s) in enumerate(zip(groups, states, strict=True)):
        on_revealed = not g.raised and g.kind is not None and not covered[g.kind]
        if s is None and g.shape == Shape.MARK and on_revealed:
            states[i] = Cell.MINE
            claimed.append(i)
    mines = [groups[i].glyph for i in claimed if groups[i].glyph is not None]
    shown = [g.glyph for g in groups if g.shape == Shape.MINE and g.glyph is not None]
    on_covered = [_on_covered(g, covered) for g in groups]
    unlost = _none_went_off(groups, on_covered, covered)
    opened = [  # symmetric glyphs of several cells on no covered tile: the board's shown mines
        g
        for g, on in zip(groups, on_covered, strict=True)
        if g.shape == Shape.MINE and len(g.members) >= 2 and not on
    ]
    on_revealed = any(g.base is not None for g in opened)
    marks, doubtful = [], []
    for i, g in enumerate(groups):
        like = mines if g.base is None else shown if len(g.members) == 1 else []
        alike = [o for o in opened if _drawn_alike(g, o)]
        unlike_shown = on_revealed or (bool(opened) and not alike)
        if g.shape == Shape.MINE and on_covered[i] and alike and not (mines or unlost or unlike_shown):
            doubtful.append(i)
        if (mines or unlost or unlike_shown) and g.shape == Shape.MINE and on_covered[i]:
            states[i] = Cell.FLAG  # for now: a flag counts as maybe a mine until the counts settle it
            marks.append(i)
        elif (
            g.shape == Shape.DIGIT
            and g.glyph is not None
            and g.costs is not None
            and not on_covered[i]
            and min((shape_distance(g.glyph, m) for m in like), default=np.inf) < g.costs.min()
        ):
            states[i] = Cell.MINE  # the board's own mine glyph: the one that went off
            claimed.append(i)
    return claimed, marks, doubtful


def _none_went_off(groups: list[Group], on_covered: list[bool], covered: tuple[bool, ...]) -> bool:
    """Whether the symmetric glyphs all sit on covered tiles and none of them stands apart as the mine
    that went off (:func:`_settle_exploded`): no game shown is lost, so they are flags (a won board's,
    every mine flagged) or wrong flags, which the counts tell apart, not shown mines."""
    symmetric = [g.shape == Shape.MINE for g in groups]
    if not any(symmetric) or any(s and not on for s, on in zip(symmetric, on_covered, strict=True)):
        return False
    trial: list[Cell | None] = [Cell.MINE if s else None for s in symmetric]
    _settle_exploded(groups, trial, covered)
    return Cell.EXPLODED not in trial


OWN_GROUND_STEP = 24
"""Largest difference (0-255, most different channel) between the grounds of two shown mines drawn on
grounds of their own for them to share one ground: damage moves a colour a few levels, and a mine
rendered in two groups is not the one that went off for that."""


def _settle_exploded(groups: list[Group], states: list[Cell | None], covered: tuple[bool, ...]) -> None:
    """The exploded mine: a lone mine cell on a background the other shown mines do not share (its own,
    or a revealed tile's while they sit on covered ones)."""
    mines = [i for i, s in enumerate(states) if s == Cell.MINE]
    if not mines:
        return
    grounds = {i: np.median(_rim(groups[i].tile), axis=0) for i in mines if groups[i].base is None}
    own: dict[int, list[int]] = {}  # shown mines on grounds of their own, by ground (the first alike)
    for i, ground in grounds.items():
        first = next((j for j in own if float(np.abs(grounds[j] - ground).max()) <= OWN_GROUND_STEP), i)
        own.setdefault(first, []).append(i)
    backgrounds: dict[object, list[int]] = {("own", j): ids for j, ids in own.items()}
    for i in mines:
        if groups[i].base is not None:
            backgrounds.setdefault(groups[i].kind, []).append(i)
    total = sum(len(groups[i].members) for i in mines)
    lone = [ids for ids in backgrounds.values() if sum(len(groups[i].members) for i in ids) == 1]
    if total == 1:  # one shown mine: the one that went off, unless it sits on a covered tile as it was
        if _apart(groups, mines[0], mines, covered):  # (a flag drawn like a mine: the counts tell)
            states[mines[0]] = Cell.EXPLODED
        return
    singles = [ids for ids in own.values() if sum(len(groups[i].members) for i in ids) == 1]
    if (
        len(own) + len({groups[i].kind for i in mines if groups[i].base is not None}) >= 2
        and len(singles) == 1
    ):
        states[singles[0][0]] = Cell.EXPLODED
    elif len(lone) == 1 and len(backgrounds) >= 2 and _apart(groups, lone[0][0], mines, covered):
        states[lone[0][0]] = Cell.EXPLODED


def _every_mine_shown(
    groups: list[Group], held: list[tuple[tuple[bool, ...], list[Cell]]], rows: int, cols: int
) -> list[tuple[tuple[bool, ...], list[Cell]]]:
    """Of a lost board's readings that differ only in which flags are wrong, those that show its every
    mine (:func:`bot.vision.digits.shows_every_mine`: each number the shown mines and flags around it),
    when any does: a client that shows its mines when the game is lost shows them all, so a flag its
    numbers do not count is a wrong one. All of them when none does (a client that shows only the mine
    that went off: the counts alone tell, or the board is refused)."""
    if len(held) < 2:
        return held
    shown = [f for f in held if shows_every_mine(_board_of(groups, list(f[1]), rows, cols))]
    return shown or held


def _unopened_mine(
    groups: list[Group], states: list[Cell | None], covered: tuple[bool, ...], covered_shown: bool
) -> int | None:
    """A group read as a shown mine that sits on no revealed kind's tile (on a covered one, or on a ground
    of its own), on a board where no mine went off: a lost board shows the one that went off, so such a
    glyph is as well a flag drawn as a filled mark (a won board's every mine, flagged), which no count
    tells from a mine. With no plain covered cell shown (``covered_shown`` False), no tile is known to
    be unlike a covered one: any shown mine is such a group. None when there is none."""
    return next(
        (
            i
            for i, (g, s) in enumerate(zip(groups, states, strict=True))
            if s == Cell.MINE and (g.base is None or _on_covered(g, covered) or not covered_shown)
        ),
        None,
    )


def _odd_mine(groups: list[Group], states: list[Cell | None], board: np.ndarray) -> int | None:
    """A group taken as a shown mine though drawn unlike the board's shown mines (one cell, while they
    are a look of several), that the counts do not prove a mine: read as a wrong flag instead, every
    number would show its mines as well (or as badly). A wrong flag is often a mine under a cross the
    shape tests miss; the mine that went off was named before (:func:`_settle_exploded`)."""
    mines = [i for i, s in enumerate(states) if s == Cell.MINE]
    if not any(len(groups[i].members) >= 2 for i in mines):
        return None
    shows = shows_every_mine(board)
    for i in mines:
        if len(groups[i].members) != 1:
            continue
        other = board.copy()
        other.flat[groups[i].members] = int(Cell.WRONG_FLAG)
        if shows_every_mine(other) == shows:
            return i
    return None


def _apart(groups: list[Group], i: int, mines: list[int], covered: tuple[bool, ...]) -> bool:
    """Whether a lone shown mine's ground sets it apart: its own, or a revealed tile while no other shown
    mine sits on one (they show on covered tiles or grounds of their own: the mine clicked opened its
    tile)."""
    if groups[i].base is None:
        return True
    revealed = [
        groups[k].base is not None and groups[k].kind is not None and not covered[groups[k].kind]
        for k in mines
    ]
    return revealed[mines.index(i)] and sum(revealed) == 1


def logic_problem(cells: np.ndarray) -> tuple[int, str] | None:
    """The first cell (flat index) whose reading no Minesweeper position allows, and why: a number
    below its shown mines or above those plus its covered and flagged neighbours, a 0 by a covered cell."""
    cols = cells.shape[1]
    numbers = cells <= Cell.EIGHT
    low, high = count_bounds(cells)
    over = numbers & (cells > high)
    under = numbers & (cells < low)
    lonely = (cells == Cell.ZERO) & (count_around(cells == Cell.COVERED) > 0)
    bad = np.flatnonzero((over | under | lonely).ravel())
    if not len(bad):
        return None
    i = int(bad[0])
    r, c = divmod(i, cols)
    if over[r, c]:
        n, hidden = int(cells[r, c]), int(high[r, c])
        return i, f"reads {n} but has only {hidden} covered, flagged or mine neighbour(s)"
    if under[r, c]:
        return i, f"reads {int(cells[r, c])} but {int(low[r, c])} shown mines touch it"
    return i, "reads 0 next to a covered cell"


def no_game_shows(cells: np.ndarray) -> tuple[int, str] | None:
    """The first cell (flat index) of a reading no game shows, and why: every cell 0 (a board with no
    mine: a misread, whatever read it), every cell a flag or a mine (a board with no cell free of one:
    the covered tile itself taken for a glyph), a wrong flag where no mine shows (a lost game shows its
    mines) or a count no position allows (:func:`logic_problem`)."""
    if (cells == Cell.ZERO).all():
        return 0, "reads 0 like every other cell, a board with no mine"
    if np.isin(cells, (Cell.FLAG, Cell.WRONG_FLAG, Cell.MINE, Cell.EXPLODED)).all():
        return 0, "reads a flag or a mine like every other cell, a board with no cell free of one"
    wrong = np.flatnonzero(cells.ravel() == Cell.WRONG_FLAG)
    if len(wrong) and not np.isin(cells, (Cell.MINE, Cell.EXPLODED)).any():
        return int(wrong[0]), "reads a wrong flag on a board that shows no mine (only a lost game shows one)"
    return logic_problem(cells)


def _small_costs(g: Group) -> np.ndarray:
    """``(8,)`` a glyph group's distances to references drawn at its own size
    (:func:`bot.vision.glyphs.own_size_distances`, holes counted as :attr:`Group.costs` counts them), where
    they fit it at least as well as any at the fixed size: a glyph too small for the fixed size's detail.
    9 (not compared) for a glyph as tall as the fixed size's box or taller (not sampled up to be
    compared), or cut off by its cell's edge or half hidden by a neighbour's ink (its own size is not the
    digit's)."""
    if g.glyph is None or g.costs is None or g.glyph.cut or g.unseen or g.glyph.height >= SHAPE_SIZE[0]:
        return np.full(8, 9.0)
    small = holes_counted(g.glyph, own_size_distances(g.glyph), True)
    return small if small.min() <= g.costs.min() else np.full(8, 9.0)


def _name_digits(
    groups: list[Group],
    states: list[Cell | None],
    rows: int,
    cols: int,
    covered: tuple[bool, ...],
    last: np.ndarray | None = None,
    unclear: bool = False,
) -> _Problem | None:
    """Give the digit groups on revealed tiles (and mines a digit shape is near, unless on a covered
    tile, which shows no digit) their states together (:func:`settle_digits`), in place; the cells and
    why when a group cannot be named, with every naming the board's counts leave open there when
    worked out (:attr:`bot.vision.digits.Settled.alternatives`, each a copy of ``states``). ``last``:
    an earlier exact reading of this board (flat states):
    a group its shape leaves unnamed may take the number all its cells showed there, when the counts
    agree and every cell that reading showed open shows the same now (a revealed cell never changes:
    the same game; a glyph a neighbour's ink has since half hidden). ``unclear``: a glyph not clearly a
    digit is named by its shape and the counts alone, wherever it sits (whether digits fit at all)."""
    open_groups = [
        i
        for i, (g, s) in enumerate(zip(groups, states, strict=True))
        if g.costs is not None
        and (
            (g.shape == Shape.DIGIT and s is not None and s <= Cell.EIGHT)
            or (
                g.shape == Shape.MINE
                and g.digit_too
                and s == Cell.MINE
                and not _on_covered(g, covered)
                and g.costs.min() <= CLEAR_DIGIT  # a poor digit fit: a mine drawn otherwise, or crossed out
            )
        )
    ]
    if not open_groups:
        return None
    board = np.empty(rows * cols, np.int16)
    for g, s in zip(groups, states, strict=True):
        board[g.members] = int(s) if s is not None else int(Cell.COVERED)
    costs, raw, weighted = _own_font([groups[i] for i in open_groups])
    prior: list[int | None] = []
    for i in open_groups:
        shown = np.unique(last[groups[i].members]) if last is not None else np.empty(0)
        prior.append(int(shown[0]) if len(shown) == 1 and Cell.ONE <= shown[0] <= Cell.EIGHT else None)
    # A digit sits on a revealed tile. Where the board shows revealed plain cells, a glyph on a ground
    # none of them shows is a digit only by a clear shape (or the number an earlier reading named); with
    # no revealed plain cell (a first number alone among covered cells) there is nothing to compare with.
    # A flat plain look of one cell alone on its kind, touching no covered cell, counts as revealed even
    # where taken as covered: a lone 0 among numbers may be taken for a covered tile (one the pointer lit,
    # :func:`_one_covered_look`, or by a texture one cell's pixels cannot tell), and the rule holds in
    # both readings, or the unclear digits it refuses in one are named in the other.
    plain_cells = [0] * len(covered)
    for g in groups:
        if g.shape == Shape.PLAIN and g.kind is not None:
            plain_cells[g.kind] += len(g.members)
    hidden = count_around((board == Cell.COVERED).reshape(rows, cols)).ravel()
    opened_plain = any(
        g.shape == Shape.PLAIN
        and g.kind is not None
        and (not covered[g.kind] or (plain_cells[g.kind] == 1 and not g.raised and hidden[g.members[0]] == 0))
        and s is not None
        for g, s in zip(groups, states, strict=True)
    )
    covered_fills = tuple(
        _fill(g) for g in groups if g.shape == Shape.PLAIN and g.kind is not None and covered[g.kind]
    )
    for i, known in zip(open_groups, prior, strict=True):
        g = groups[i]
        if (
            not opened_plain and not unclear and known is None and on_covered_colour(g, covered_fills)
        ):  # a digit sits on a revealed tile: ink seen against a covered tile's colour is not its own
            why = "cannot be named: not clearly a digit, its ground taken for a covered tile's colour"
            return _Problem(list(g.members), why)
        if (
            opened_plain
            and not unclear
            and g.base is None
            and known is None
            and g.costs is not None
            and g.costs.min() > CLEAR_DIGIT
        ):
            why = "cannot be named: not clearly a digit, on a ground no plain cell shows"
            return _Problem(list(g.members), why)
    settled = settle_digits(
        board.reshape(rows, cols),
        [groups[i].members for i in open_groups],
        costs,
        [groups[i].shape == Shape.MINE for i in open_groups],
        np.stack([groups[i].ink for i in open_groups]),
        raw,
        weighted,
        prior,
        np.stack([_small_costs(groups[i]) for i in open_groups]),
    )
    if settled.problem is not None:
        k, why = settled.problem
        readings = None
        if settled.alternatives is not None:
            readings = []
            for alternative in settled.alternatives:
                named = list(states)
                for i, state in zip(open_groups, alternative, strict=True):
                    named[i] = Cell(state)
                readings.append(named)
        return _Problem(list(groups[open_groups[k]].members), f"cannot be named: {why}", readings)
    odd = unlike_own_font([groups[i] for i in open_groups], list(settled.states))
    if odd is not None:
        d = settled.states[odd]
        why = f"cannot be named: the counts name it {d}, but it is drawn unlike the board's own clear {d}"
        return _Problem(list(groups[open_groups[odd]].members), why)
    for i, state in zip(open_groups, settled.states, strict=True):
        states[i] = Cell(state)
    if settled.remembered and last is not None:
        for i, g in enumerate(groups):
            board[g.members] = int(states[i]) if states[i] is not None else int(Cell.COVERED)
        opened = last <= Cell.EIGHT
        changed = np.flatnonzero(opened & (board != last))
        if len(changed):
            members = groups[open_groups[settled.remembered[0]]].members
            was, where = Cell(int(last[changed[0]])).name, divmod(int(changed[0]), cols)
            return _Problem(
                list(members),
                (
                    f"cannot be named by shape, and the reading that named it {int(last[members[0]])} "
                    f"showed {where} open as {was}: another game"
                ),
            )
    return None


def name_groups(
    groups: list[Group],
    texture: np.ndarray,
    rows: int,
    cols: int,
    last: np.ndarray | None = None,
    touching: bool = False,
) -> list[Cell]:
    """A state for every group, or :class:`RecognitionError` naming a cell when structure and logic
    leave any doubt. ``touching``: plain groups of one colour are one kind only where their cells touch
    (:func:`bot.vision.tilekinds.apart_kinds`), and of the readings the logic allows none is preferred
    for the board's look (:func:`_one_covered_look`): exactly one must fit."""
    kinds = _attach(groups, texture, (rows, cols), touching)
    fits: list[tuple[tuple[bool, ...], list[Cell]]] = []
    problem: _Problem | None = None
    left_open: list[np.ndarray] = []  # whole readings the failed tries leave open, and whether each
    loose_fits: list[tuple[tuple[bool, ...], list[Cell]]] = []  # the same, unclear digits named (read_as)
    loose_open: list[np.ndarray] = []
    every_open = True  # failed try left some open (else the true reading may be none of them)
    doubts: list[tuple[tuple[bool, ...], _Problem]] = []  # readings that hold as another does (doubt)
    options = sorted(_cover_options(kinds) if kinds else [()], key=any)  # the problem told is a board's
    # with a covered kind when one was tried: a reading with none is only the fallback
    if not options:
        marked = [g for g in groups if g.shape == Shape.MARK and g.kind is not None]
        raise _refuse(
            list(marked[0].members),
            cols,
            f"cannot be named: {marked[0].why}, on a flat tile no digit shows to be revealed",
        )

    def read_as(flagged: list[int], unclear: bool = False) -> _Problem | None:
        """Every reading the cover options allow, ``flagged`` groups taken as flags, added to ``fits``;
        the last problem found (what each failed try leaves open added to ``left_open``). ``unclear``:
        glyphs not clearly digits named by shape and counts (:func:`_name_digits`), into ``loose_fits``
        and ``loose_open`` instead."""
        nonlocal every_open
        problem = None
        into_fits, into_open = (loose_fits, loose_open) if unclear else (fits, left_open)
        for covered in options:
            named: list[Cell | None] = [
                Cell.FLAG
                if i in flagged
                else (Cell.COVERED if covered[g.kind] else Cell.ZERO)  # type: ignore[index]
                if g.shape == Shape.PLAIN
                else _glyph_state(g, covered)
                for i, g in enumerate(groups)
            ]
            shown = list(named)  # with the glyphs a lost board shows as mines named so
            claimed, marks, doubtful = _claim_mines(groups, shown, covered)
            lost = bool(claimed) or any(s in (Cell.MINE, Cell.EXPLODED) for s in shown)
            loose = _loose_flags(groups, shown, lost)  # the symmetric glyphs taken as flags too
            if loose:
                problem = _Problem(
                    list(groups[loose[0]].members),
                    f"cannot be named: one of {len(loose)} glyphs unlike each other read as flags (a "
                    "client draws its flag one way): something drawn over the board, or cells cut off",
                )
                every_open = False
                continue
            named = shown
            drawn_flags = []  # a lost board: any flag may be a wrong one drawn as the client's flag is
            if lost:
                marks += [i for i in flagged if i not in marks]
                drawn_flags = [i for i, s in enumerate(named) if s is Cell.FLAG and i not in marks]
                marks += drawn_flags
            if len(marks) > MAX_MARKS:
                problem = _Problem(
                    list(groups[marks[0]].members),
                    "cannot be named: too many looks of flags to tell apart",
                )
                every_open = False
                continue
            held: list[tuple[tuple[bool, ...], list[Cell]]] = []  # the combos that fit, this option
            ways = [  # a drawn flag is tried as a flag last: the problem told is that reading's
                (Cell.WRONG_FLAG, Cell.FLAG) if i in drawn_flags else (Cell.FLAG, Cell.WRONG_FLAG)
                for i in marks
            ]
            for combo in itertools.product(*ways):
                states = list(named)
                for i, state in zip(marks, combo, strict=True):
                    states[i] = state
                found = _whole_reading(groups, states, rows, cols, claimed, covered, last, unclear)
                if found is None and doubtful:
                    found = _Problem(
                        list(groups[doubtful[0]].members),
                        "cannot be named: a glyph drawn like the shown mines but on a covered tile, where "
                        "they sit on grounds of their own: a flag drawn so fits as well",
                        doubt=True,
                    )
                if found is not None and found.doubt and not unclear:
                    doubts.append((covered, found))
                if found is not None:
                    problem = found
                    every_open = every_open and found.readings is not None
                    into_open.extend(found.readings or ())
                    continue
                held.append((covered, [s for s in states if s is not None]))
            into_fits.extend(_every_mine_shown(groups, held, rows, cols) if lost else held)
        return problem

    problem = read_as([])
    open_readings = left_open[:] if every_open else []  # the true one among them, if any fails
    # A glyph on a tile of its own colour that no digit fits may be a flag on its own tile (one tile
    # look for flags: the same glyph on a second ground, one cell alone, is a lost game's mines and the
    # one that went off). Not where digits fit: a reading with digits left open (shapes unclear, the
    # counts allowing more than one), or one with glyphs not clearly digits named by shape and counts
    # alone. Flags would be one more reading there, not the only one: the counts refute digits first.
    if not fits and not left_open:
        read_as([], unclear=True)
    if not fits and not left_open and not loose_fits and not loose_open:
        grounds = _own_grounds(groups)
        if len(grounds) <= MAX_MARKS:
            for ground in grounds:
                read_as(ground)
    prefer = (lambda found, _: found) if touching else _one_covered_look
    kept = prefer(fits + [(covered, []) for covered, _ in doubts], kinds)
    doubted = [next(p for c, p in doubts if c == covered) for covered, named in kept if not named]
    if doubted:  # a reading the board's look allows holds as another does: neither is sure
        raise _refuse(doubted[0].cells, cols, doubted[0].why)
    fits = prefer(fits, kinds)
    if len(fits) == 1:
        return fits[0][1]
    if not fits:
        assert problem is not None
        refusal = _refuse(problem.cells, cols, problem.why)
        unique = {cells.tobytes(): cells for cells in open_readings}  # the player plays what is certain
        refusal.alternatives = tuple(unique.values())
        raise refusal
    differ = next(i for i in range(len(groups)) if len({f[1][i] for f in fits}) > 1)
    refusal = _refuse(
        list(groups[differ].members),
        cols,
        "is "
        + " or ".join(sorted({f[1][differ].name.lower() for f in fits}))
        + ": structure and logic allow either",
    )
    whole = []  # every reading that fits, cell by cell: the one shown is among them (for the player)
    for _, named in fits:
        cells = np.empty(rows * cols, np.int8)
        for g, s in zip(groups, named, strict=True):
            cells[g.members] = int(s)
        whole.append(cells.reshape(rows, cols))
    refusal.alternatives = tuple(whole)
    raise refusal


def _own_grounds(groups: list[Group]) -> list[list[int]]:
    """Glyph groups drawn on a ground of their own (no plain kind's tile: a flag's own tile, a digit on
    its own colour), one list per ground colour: each may be flags on a tile drawn for them, which only
    the board's logic can tell from digits (tried only when no reading with digits fits). Not a glyph
    with a side a neighbour's ink was painted over whose ground is the colour of the plain tiles' frame
    (their grid line): a glyph in the grid's colour over most of its cell, half repainted (a bold black
    4 under a neighbour's foot), not a tile drawn for flags."""
    plain = [g for g in groups if g.shape == Shape.PLAIN]
    fills = [_fill(g) for g in plain]
    bands = [_pixels(g.tile, 0, LINE_BAND) for g in plain]
    grounds: list[tuple[np.ndarray, list[int]]] = []
    for i, g in enumerate(groups):
        if g.base is not None or g.raised or g.shape not in (Shape.DIGIT, Shape.MARK):
            continue
        ground = own_background(g.tile, tuple(fills))
        if any(float(np.abs(ground - f).max()) <= KIND_DISTANCE for f in fills):
            continue  # on a plain kind's colour after all
        if g.unseen and any(
            float((_peak(np.abs(band - ground)) <= KIND_DISTANCE).mean()) >= LINE_SHARE for band in bands
        ):
            continue  # on the grid's colour, partly the repair's
        for colour, members in grounds:
            if float(np.linalg.norm(colour - ground)) < KIND_DISTANCE:
                members.append(i)
                break
        else:
            grounds.append((ground, [i]))
    return [members for _, members in grounds]


def _whole_reading(
    groups: list[Group],
    states: list[Cell | None],
    rows: int,
    cols: int,
    claimed: list[int],
    covered: tuple[bool, ...],
    last: np.ndarray | None = None,
    unclear: bool = False,
) -> _Problem | None:
    """Complete one hypothesis (digits and the exploded mine named in place) and check it is a possible
    position: the cells and why when it is not, with the whole readings (boards) the board's counts
    leave open when only a digit is left unnamed and they were worked out."""
    unnamed = [i for i, s in enumerate(states) if s is None]
    if unnamed:
        g = groups[unnamed[0]]
        return _Problem(list(g.members), f"cannot be named: {g.why}")
    unsure = _name_digits(groups, states, rows, cols, covered, last, unclear)
    if unsure is not None and unsure.readings is not None:
        boards = []
        for named in unsure.readings:
            if _possible(groups, named, rows, cols, claimed, covered) is None:
                boards.append(_board_of(groups, named, rows, cols))
        return unsure._replace(readings=boards)
    if unsure is not None:
        return unsure
    return _possible(groups, states, rows, cols, claimed, covered)


class _Problem(NamedTuple):
    """Cells a reading cannot name, why, and the whole readings left open there (None: not known)."""

    cells: list[int]
    why: str
    readings: list | None = None
    """States per group (from :func:`_name_digits`), then boards (from :func:`_whole_reading`)."""
    doubt: bool = False
    """The reading holds, but another one as well that no count tells from it (a flag drawn like a
    mine): the board is refused whatever else fits."""


def _board_of(groups: list[Group], states: list[Cell | None], rows: int, cols: int) -> np.ndarray:
    """The ``(rows, cols)`` board of every group's state."""
    board = np.empty(rows * cols, np.int8)
    for g, s in zip(groups, states, strict=True):
        board[g.members] = int(s)  # type: ignore[arg-type]
    return board.reshape(rows, cols)


def _possible(
    groups: list[Group],
    states: list[Cell | None],
    rows: int,
    cols: int,
    claimed: list[int],
    covered: tuple[bool, ...],
) -> _Problem | None:
    """Name the exploded mine of a hypothesis with every group named (in place) and check it is a
    possible position: the cells and why when it is not."""
    _settle_exploded(groups, states, covered)
    board = _board_of(groups, states, rows, cols)
    odd = _odd_mine(groups, states, board)
    if odd is not None:
        return _Problem(
            list(groups[odd].members),
            "cannot be named: one glyph drawn like a mine but unlike the board's other shown mines, "
            "with no number to tell a mine from a wrong flag (a mine under a cross)",
        )
    if claimed and not ((board == Cell.EXPLODED).any() and shows_every_mine(board)):
        g = groups[claimed[0]]
        return _Problem(
            list(g.members), f"cannot be named: {g.why}, and the board does not show it is a mine"
        )
    found = no_game_shows(board)
    if found is not None:
        return _Problem([found[0]], found[1])
    unsatisfiable = frontier_problem(board)
    if unsatisfiable is not None:
        return _Problem(
            [unsatisfiable[0] * cols + unsatisfiable[1]],
            "is part of numbers no arrangement of mines satisfies",
        )
    unopened = (  # last: only a reading that holds otherwise is in doubt
        _unopened_mine(groups, states, covered, (board == Cell.COVERED).any())
        if not (board == Cell.EXPLODED).any()
        else None
    )
    if unopened is not None:
        return _Problem(
            list(groups[unopened].members),
            "cannot be named: a glyph drawn like a mine on no revealed tile, on a board that shows no mine "
            "went off: a flag drawn so fits as well",
            doubt=True,
        )
    return None


def on_covered_colour(g: Group, covered_fills: tuple[np.ndarray, ...]) -> bool:
    """Whether a glyph group on no plain base, not clearly a digit, was seen against a covered kind's
    fill (:func:`bot.vision.describe.own_background` takes a kind's fill that shows between its strokes):
    then its own ground is not known, and its ink may hold the ground it sits on."""
    if g.base is not None or g.costs is None or g.costs.min() <= CLEAR_DIGIT or not covered_fills:
        return False
    ground = own_background(g.tile, covered_fills)
    return any(float(np.abs(ground - fill).max()) <= KNOWN_FILL for fill in covered_fills)
