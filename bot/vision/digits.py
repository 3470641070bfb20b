"""Name a frame's digit glyphs together: by shape first, then by the board's own counting rules.

Why: a font minebot has never seen comes near its reference shapes, but not always near *one* of them
(an open 4 sits between a 4 and a 1). A fixed "near enough" limit then either refuses most boards or
risks a misread. Instead every glyph group keeps the digits its shape allows (each within a margin of
its best, which widens as the best fit gets poorer; when the weight-matched comparison of
:mod:`bot.vision.glyphs` allows some of those too, only those) and the board decides among them:

1. **Counting bounds.** A number is at least the shown mines around it (a lost board shows them) and at
   most those plus its covered and flagged neighbours; a revealed 0 touches no mine. A group's digit
   must fit every one of its cells. A lost board whose numbers read so far all equal their shown mines
   and flags shows every mine (most clients do): then every number must.
2. **One digit, one colour.** A digit another group surely shows in a clearly different ink colour is
   not this group's (each client draws a digit in one colour; colour never names a digit by itself).
3. **Whole frontier.** When a group still has several digits, every combination of the open choices is
   checked with the solver's exact counting (:mod:`bot.solver`): a digit is kept only when some
   arrangement of mines satisfies all numbers together.

A group is named only when exactly one digit survives; otherwise the frame is refused naming one of its
cells. A poor fit whose margin reaches past the limit leaves the digits there in question (*rivals*:
the shape can neither name them nor rule them out), so a group is named only when the rules above rule
out each rival too. A refusal the counts leave open (two digits hold, or a glyph surely a digit whose
shape fits none its neighbours hold) carries every state the counts allow (:attr:`Settled.alternatives`).
Nothing here is fitted to one client: the margins are in the units of the shape distance
(:func:`bot.vision.glyphs.digit_distances`), whatever the font.

>>> import numpy as np
>>> board = np.array([[9, 9, 9], [-1, -1, -1], [0, 0, 0]])  # row 1: one glyph group, unread
>>> costs = np.array([[0.05, 0.20, 0.08, 0.4, 0.4, 0.4, 0.4, 0.4]])  # a 1, a 3 or (less) a 2
>>> settle_digits(board, [np.array([3, 4, 5])], costs, [False]).states
[1]
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from bot.board import Board, Cell
from bot.errors import ContradictionError, GameOverError
from bot.solver.engine import count_region, split_regions
from bot.solver.rules import Knowledge, count_around

DIGIT_LOOSE = 0.30
"""A glyph farther than this from every digit shape is no digit (digits of every named client and
rendered look come within 0.23 once fonts of every width are allowed; clipped or covered glyphs, mines
and flags lie farther or are told apart by structure first)."""
DIGIT_MARGIN = 0.05
"""Least distance above a glyph's best digit for another digit to be out of the question by shape."""
MARGIN_SHARE = 0.3
"""The margin also grows with the best distance itself: a poorer fit says less about the digit."""
INK_APART = 100.0
"""Ink colours this far apart (0-255 RGB) are two colours: a client draws each digit in one colour, so
a digit another glyph group already shows in a clearly different colour is not this group's."""
MAX_COMBINATIONS = 64
"""Most combinations of open choices checked against the whole frontier; more is refused."""

UNREAD = -1
"""A revealed cell whose number is still open (no constraint, neither covered nor a mine)."""
MINE_OR_UNREAD = -2
"""A cell still open between a number and a shown mine."""
MINE = int(Cell.MINE)


@dataclass
class Settled:
    """Each group's state (a digit, or a shown mine for a glyph that may be one), or the first group no
    single state fits and why."""

    states: list[int]
    problem: tuple[int, str] | None = None
    """(group index, why) when a group cannot be named."""
    remembered: tuple[int, ...] = ()
    """Groups named by the digit an earlier reading of the same cells gave (``prior``), not by shape."""
    alternatives: tuple[tuple[int, ...], ...] | None = None
    """With a problem the board's counts leave open (two digits both hold, or a glyph surely a digit
    whose shape fits none its neighbours can hold), every state per group the counts hold, one tuple
    per whole choice: each group's shape choices and rivals, and for a digit no shape choice of which
    holds any digit. The true one is among them when every other glyph's shape allows its digit (what
    naming relies on anyway). None when not worked out (another problem, too many to check, or a group
    named by an earlier reading)."""


def _reach(costs: np.ndarray) -> float:
    """How far past a glyph's best digit another digit is still in the question by shape."""
    best = float(costs.min())
    return best + max(DIGIT_MARGIN, MARGIN_SHARE * best)


def shape_choices(costs: np.ndarray) -> list[int]:
    """Digits (1-8) a glyph's shape allows: those within the margin of its best, none past the limit."""
    return [int(d) + 1 for d in np.flatnonzero(costs <= min(_reach(costs), DIGIT_LOOSE))]


def shape_rivals(costs: np.ndarray, raw: np.ndarray | None = None) -> list[int]:
    """Digits a poor fit leaves in the question by shape that the limit keeps from being named: within
    the margin of a best near the limit, but past it. The shape cannot rule them out; only the board's
    counts can (a half-hidden 5 nearer a 4 at 0.29 than a 5 at 0.35 is no sure 4)."""
    rivals = set()
    for view in (costs, raw) if raw is not None and raw.argmin() != costs.argmin() else (costs,):
        if float(view.min()) <= DIGIT_LOOSE:
            rivals |= {int(d) + 1 for d in np.flatnonzero((view > DIGIT_LOOSE) & (view <= _reach(view)))}
    return sorted(rivals - set(_allowed(costs, raw)))


def _allowed(cost: np.ndarray, raw: np.ndarray | None) -> set[int]:
    """Digits a glyph's shape allows, holes counted; when a hole the glyph shows overturns the shape's
    own best (``raw``: only missing holes counted), the digits either allows."""
    digits = set(shape_choices(cost))
    if raw is not None and raw.argmin() != cost.argmin():
        digits |= set(shape_choices(raw))
    return digits


def _bold_allowed(weighted: np.ndarray, cost: np.ndarray, raw: np.ndarray | None) -> set[int]:
    """Digits the weight-matched view (``weighted``: its two countings) allows: as :func:`_allowed`, but
    when a hole decides between the plain countings (``cost`` and ``raw`` name different bests: a bold 5
    whose bowl blurred shut fits a 6 only by its hole), every digit either of its countings allows. It
    counts holes too, and whether its own two countings name one best can turn on a thousandth, so the
    hole would decide after all; the counts decide instead."""
    if raw is not None and raw.argmin() != cost.argmin():
        return set(shape_choices(weighted[0])) | set(shape_choices(weighted[1]))
    return _allowed(weighted[0], weighted[1])


def _any_of(cells: np.ndarray, *states: int) -> np.ndarray:
    """Which cells hold one of ``states`` (``np.isin`` for a few values, by comparisons: far cheaper)."""
    found = cells == states[0]
    for state in states[1:]:
        found |= cells == state
    return found


def count_bounds(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per cell: the least number it may show (shown mines around) and the most (plus its covered,
    flagged and maybe-mine neighbours)."""
    shown = count_around(_any_of(cells, Cell.MINE, Cell.EXPLODED))
    return shown, shown + count_around(_any_of(cells, Cell.COVERED, Cell.FLAG, MINE_OR_UNREAD))


def frontier_problem(cells: np.ndarray) -> tuple[int, int] | None:
    """A cell no arrangement of mines satisfies (the solver's exact count over the frontier), or None.

    Shown mines count as known mines; flags (perhaps wrong) as unknown cells."""
    if (cells < 0).any():
        return None  # only whole readings are checked
    shown = _any_of(cells, Cell.MINE, Cell.EXPLODED)
    unknown = _any_of(cells, Cell.FLAG, Cell.WRONG_FLAG)
    board = np.where(shown, int(Cell.FLAG), np.where(unknown, int(Cell.COVERED), cells))
    try:
        know = Knowledge.from_board(Board(board.astype(np.int8)))
        for region in split_regions(know):
            count_region(know, region)
    except ContradictionError as exc:
        return exc.cell or (0, 0)
    except GameOverError:  # pragma: no cover - end states are mapped away above
        return None
    return None


def _write(flat: np.ndarray, members: list[np.ndarray], choices: list[list[int]]) -> None:
    """Each group's cells: its state once single, else unread (maybe a mine)."""
    for g, cells_of in enumerate(members):
        flat[cells_of] = (
            choices[g][0] if len(choices[g]) == 1 else (MINE_OR_UNREAD if MINE in choices[g] else UNREAD)
        )


def _exact_bounds(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bounds on a lost board that shows every mine: a number is its shown mines and flags around (a
    wrong flag shows crossed), plus at most its neighbours still open between a number and a mine."""
    low = count_around(_any_of(cells, Cell.MINE, Cell.EXPLODED, Cell.FLAG))
    return low, low + count_around(cells == MINE_OR_UNREAD)


def shows_every_mine(cells: np.ndarray) -> bool:
    """Whether a board shows a lost game's every mine: it shows mines (glyphs that may be mines taken as
    mines), and every number read so far (away from cells still unread) equals the shown mines and
    flags around it. Clients that show only the mine that went off fail this at the first number
    beside a hidden mine."""
    board = np.where(cells == MINE_OR_UNREAD, MINE, cells)
    if not _any_of(board, Cell.MINE, Cell.EXPLODED).any():
        return False
    low, _ = _exact_bounds(board)
    settled = (board >= 1) & (board <= Cell.EIGHT) & (count_around(board == UNREAD) == 0)
    return bool(settled.any() and (board[settled] == low[settled]).all())


def _other_colour(d: int, g: int, choices: list[list[int]], inks: np.ndarray) -> bool:
    """Whether digit ``d`` is already another group's only choice, drawn in a clearly different ink."""
    return any(
        c == [d] and np.abs(inks[k] - inks[g]).max() > INK_APART for k, c in enumerate(choices) if k != g
    )


def _narrow(
    flat: np.ndarray,
    shape: tuple[int, int],
    members: list[np.ndarray],
    choices: list[list[int]],
    inks: np.ndarray,
    exact: bool = False,
) -> int | None:
    """Drop every choice the counting bounds (``exact``: of a board showing every mine) rule out, until
    nothing changes (a group that turns out a mine or a digit tightens its neighbours' bounds); the
    first group left with no choice, else None."""
    changed = True
    while changed:
        changed = False
        _write(flat, members, choices)
        bounds = _exact_bounds if exact else count_bounds
        low, high = (a.ravel() for a in bounds(flat.reshape(shape)))
        by_zero = count_around(flat.reshape(shape) == Cell.ZERO).ravel() > 0
        for g, cells_of in enumerate(members):
            kept = [
                d
                for d in choices[g]
                if (d == MINE and not by_zero[cells_of].any())  # a 0 touches no mine
                or (
                    d != MINE
                    and (low[cells_of] <= d).all()
                    and (high[cells_of] >= d).all()
                    and not (len(choices[g]) > 1 and _other_colour(d, g, choices, inks))
                )
            ]
            if not kept:
                return g
            if len(kept) < len(choices[g]):
                choices[g], changed = kept, True
    return None


def settle_digits(
    cells: np.ndarray,
    members: list[np.ndarray],
    costs: np.ndarray,
    mine_like: list[bool],
    inks: np.ndarray | None = None,
    raw: np.ndarray | None = None,
    weighted: np.ndarray | None = None,
    prior: list[int | None] | None = None,
    small: np.ndarray | None = None,
) -> Settled:
    """States for glyph groups (``members`` flat cell indices, ``costs`` their ``(G, 8)`` shape distances,
    ``mine_like`` whether each may also be a shown mine, ``inks`` their ``(G, 3)`` ink colours, ``raw``
    their shape distances counting only missing holes: when a hole the glyph shows overturns the
    shape's own best, the digits either allows stay open; ``weighted`` their ``(G, 2, 8)`` distances
    counted both ways against references at each glyph's own stroke weight: a digit both comparisons
    allow is kept, when there is one) on a board whose other cells are read. ``prior``: per group, the
    digit an earlier reading gave all its cells (None: none): tried, as a last resort, for a group whose
    shape leaves no digit its neighbours can hold, or two; the caller must then check that reading
    was of the same game (:attr:`Settled.remembered`). ``small``: their ``(G, 8)`` distances to
    references drawn at each glyph's own size (:func:`bot.vision.glyphs.own_size_distances`; 9 where
    not compared): every digit near its best there is a rival (:func:`small_rivals`)."""
    inks = np.zeros((len(members), 3)) if inks is None else np.asarray(inks, float)
    prior = prior or [None] * len(members)
    remembered: set[int] = set()
    first: list[list[int]] = []
    wide: list[list[int]] = []
    for g, cost in enumerate(costs):
        digits = _allowed(cost, raw[g] if raw is not None else None)
        mine = [MINE] if mine_like[g] else []
        wide.append(sorted(digits) + mine)
        if weighted is not None:
            both = digits & _bold_allowed(weighted[g], cost, raw[g] if raw is not None else None)
            digits = both or digits  # the two views disagree: the counts decide among the first's
        by_shape = sorted(digits) + mine
        if not by_shape and prior[g] is not None:
            by_shape = wide[g] = [prior[g]]  # type: ignore[list-item]
            remembered.add(g)
        if not by_shape:
            return Settled(
                [], (g, f"is no digit by shape (nearest {int(cost.argmin()) + 1} at {cost.min():.2f})")
            )
        first.append(by_shape)
    flat = cells.ravel().copy()
    while True:
        choices = [list(c) for c in first]
        empty = _narrow(flat, cells.shape, members, choices, inks)
        if empty is None and any(len(c) > 1 for c in choices):
            _write(flat, members, choices)
            if shows_every_mine(flat.reshape(cells.shape)):
                empty = _narrow(flat, cells.shape, members, choices, inks, exact=True)
        if empty is None:
            break
        if first[empty] == wide[empty]:
            known = prior[empty]
            if known is None or first[empty] == [known]:
                break
            first[empty] = wide[empty] = [known]  # what the same cells showed before, if the counts agree
            remembered.add(empty)
            continue
        # the counts rule out every digit both views allow: those the plain view allows stay open (a
        # glyph cut off by its cell's edge, whose weight-matched view loses the digit it is)
        first[empty] = wide[empty]
    if empty is not None:
        why = f"shows {_names(first[empty])} by shape, which its neighbours cannot hold"
        if mine_like[empty] or remembered:
            return Settled([], (empty, why))
        options = _with_rivals(first, costs, raw, small)
        options[empty] = list(range(1, 9))  # surely a digit: whichever its neighbours hold
        return Settled([], (empty, why), alternatives=_every_reading(cells, members, options))
    open_groups = [g for g, c in enumerate(choices) if len(c) > 1]
    if not open_groups:
        return _unless_rivals(cells, members, costs, raw, inks, [c[0] for c in choices], remembered, small)
    combinations = 1
    for g in open_groups:
        combinations *= len(choices[g])
    if combinations > MAX_COMBINATIONS:
        g = open_groups[0]
        return Settled([], (g, f"is {_names(choices[g])} by shape; too many open choices to check"))
    unsettled = [list(c) for c in choices]
    survivors: list[tuple[int, ...]] = []
    for combo in itertools.product(*(choices[g] for g in open_groups)):
        for g, d in zip(open_groups, combo, strict=True):
            flat[members[g]] = d
        if frontier_problem(flat.reshape(cells.shape)) is None:
            survivors.append(combo)
    if not survivors:
        return Settled([], (open_groups[0], "fits no state the whole board's counts allow"))
    unsure = [
        k
        for k, g in enumerate(open_groups)
        if len({combo[k] for combo in survivors}) > 1 and prior[g] in {combo[k] for combo in survivors}
    ]
    agree = [combo for combo in survivors if all(combo[k] == prior[open_groups[k]] for k in unsure)]
    if unsure and agree:
        survivors = agree  # shape and counts allow either: what the same cells showed before
        remembered.update(open_groups[k] for k in unsure)
    states = [c[0] for c in choices]
    for k, g in enumerate(open_groups):
        left = sorted({combo[k] for combo in survivors})
        if len(left) > 1:
            why = f"is {_names(left)}: shape and counts allow either"
            if remembered:
                return Settled([], (g, why))
            options = _with_rivals(unsettled, costs, raw, small)
            return Settled([], (g, why), alternatives=_every_reading(cells, members, options))
        states[g] = left[0]
    return _unless_rivals(cells, members, costs, raw, inks, states, remembered, small)


def _unless_rivals(
    cells: np.ndarray,
    members: list[np.ndarray],
    costs: np.ndarray,
    raw: np.ndarray | None,
    inks: np.ndarray,
    states: list[int],
    remembered: set[int],
    small: np.ndarray | None = None,
) -> Settled:
    """The groups named ``states``, unless a group's shape leaves a rival digit past the limit
    (:func:`shape_rivals`) that the board's rules hold as well as its state, all else as named (the
    rules that narrow shape choices: counting bounds, one digit one colour, the whole frontier): then
    the shape chose between two digits the board allows, and the frame is refused naming that group.
    A group named by an earlier reading (``remembered``) is not questioned."""
    single = [[s] for s in states]
    for g in range(len(members)):
        if g in remembered or states[g] == MINE:
            continue
        for d in shape_rivals(costs[g], raw[g] if raw is not None else None):
            if _other_colour(d, g, single, inks):
                continue  # another group's digit, surely drawn in another ink
            if _holds(cells, members, states[:g] + [d] + states[g + 1 :]):
                why = f"is {states[g]} by shape, or {d} by a poor fit the counts allow"
                if remembered:
                    return Settled([], (g, why))
                options = _with_rivals(single, costs, raw, small)
                return Settled([], (g, why), alternatives=_every_reading(cells, members, options))
    if small is not None:
        problem = _small_problem(cells, members, states, remembered, small)
        if problem is not None:
            options = _with_rivals(single, costs, raw, small)
            alternatives = None if remembered else _every_reading(cells, members, options)
            return Settled([], problem, alternatives=alternatives)
    return Settled(states, remembered=tuple(sorted(remembered)))


def _small_problem(
    cells: np.ndarray, members: list[np.ndarray], states: list[int], remembered: set[int], small: np.ndarray
) -> tuple[int, str] | None:
    """The first group whose digit the board's counts leave open among the digits its own-size comparison
    allows (:func:`small_rivals`), for every group named a digit other than its nearest at its own size,
    all at once: several small glyphs misnamed together may hold where no one of them changed alone does
    (two 1s and a 2 read 2s and a 5); None when the named states are the only reading that holds (a group
    its own size names as named, one named by an earlier reading, or a shown mine, stays)."""
    options = [
        sorted({s} | set(small_rivals(small[g])))
        if g not in remembered and s != MINE and small[g].min() <= DIGIT_LOOSE and small[g].argmin() != s - 1
        else [s]
        for g, s in enumerate(states)
    ]
    if all(len(o) == 1 for o in options):
        return None
    readings = _every_reading(cells, members, options)
    if readings is None:
        g = next(g for g, o in enumerate(options) if len(o) > 1)
        return g, f"is {states[g]} by shape, or {_names(options[g])} at its own size; too many to check"
    for g in range(len(states)):
        held = sorted({reading[g] for reading in readings} - {states[g]})
        if held:
            return g, f"is {states[g]} by shape, or {_names(held)} at its own size, which the counts allow"
    return None


def small_rivals(small: np.ndarray) -> list[int]:
    """Digits a glyph's own-size comparison (:func:`bot.vision.glyphs.own_size_distances`) leaves in the
    question: within the margin of its best there (none when nothing was compared)."""
    return [int(d) + 1 for d in np.flatnonzero(small <= _reach(small))] if small.min() <= DIGIT_LOOSE else []


def _rivals(g: int, costs: np.ndarray, raw: np.ndarray | None, small: np.ndarray | None) -> list[int]:
    """Group ``g``'s rivals: past the limit (:func:`shape_rivals`), and near its best at its own size
    (:func:`small_rivals`)."""
    rivals = set(shape_rivals(costs[g], raw[g] if raw is not None else None))
    if small is not None:
        rivals |= set(small_rivals(small[g]))
    return sorted(rivals)


def _with_rivals(
    choices: list[list[int]], costs: np.ndarray, raw: np.ndarray | None, small: np.ndarray | None = None
) -> list[list[int]]:
    """Each group's choices and its rivals (:func:`_rivals`; none for a shown mine)."""
    return [
        sorted(set(c) | set(_rivals(g, costs, raw, small))) if c != [MINE] else list(c)
        for g, c in enumerate(choices)
    ]


def _every_reading(
    cells: np.ndarray, members: list[np.ndarray], options: list[list[int]]
) -> tuple[tuple[int, ...], ...] | None:
    """Every choice of one state per group among ``options`` that the board's counts hold
    (:func:`_holds`; not the one-colour rule: a glyph its shape misnames may show another's ink); None
    when more than ``MAX_COMBINATIONS`` are left to check."""
    choices = [list(o) for o in options]
    if _narrow(cells.ravel().copy(), cells.shape, members, choices, np.zeros((len(members), 3))) is not None:
        return ()
    if math.prod(len(c) for c in choices) > MAX_COMBINATIONS:
        return None
    return tuple(combo for combo in itertools.product(*choices) if _holds(cells, members, combo))


def _holds(cells: np.ndarray, members: list[np.ndarray], states: list[int] | tuple[int, ...]) -> bool:
    """Whether the board's counts hold the groups as ``states`` (one each): the counting bounds (exact
    on a lost board showing every mine), a 0 touching no mine, and the whole frontier."""
    flat, choices, inks = cells.ravel().copy(), [[s] for s in states], np.zeros((len(members), 3))
    if _narrow(flat, cells.shape, members, choices, inks) is not None:
        return False
    _write(flat, members, choices)
    every_mine = shows_every_mine(flat.reshape(cells.shape))
    if every_mine and _narrow(flat, cells.shape, members, choices, inks, exact=True) is not None:
        return False
    return frontier_problem(flat.reshape(cells.shape)) is None


def _names(states: list[int]) -> str:
    return " or ".join("a mine" if s == MINE else str(s) for s in states)


__all__ = [
    "DIGIT_LOOSE",
    "Settled",
    "MINE_OR_UNREAD",
    "UNREAD",
    "count_bounds",
    "frontier_problem",
    "settle_digits",
    "shows_every_mine",
    "shape_choices",
]
