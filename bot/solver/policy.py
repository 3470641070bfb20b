"""Moves: every certain move at once, or the one guess most likely to win.

Order of work, cheapest first: first click by rule; the rules' certain cells; the exact engine's
certain cells; then one guess. The guess policy (``policy="light"``; the default ``best`` adds to it,
see below):

1. An isolated 50/50 (two cells, one mine, touching no other unknown cell) must be guessed sooner or
   later and nothing can ever tell them apart, so it is taken at once; so is any *unavoidable guess*
   (:mod:`bot.solver.fifty`: a number's cells that every other possibly-safe neighbour sees whole).
2. Candidates are the cells within :attr:`Policy.tolerance` of the safest (plus the off-frontier cells
   with the fewest unknown neighbours, i.e. corners and edges).
3. Each candidate scores its *secondary safety*: P(safe) x sum over the values it could show of
   P(value) x the best safety on the board afterwards (1.0 when the value proves a cell safe). The
   value probabilities are exact: each is the number of consistent arrangements of the board with that
   value revealed, from the engine. The highest score wins; ties go to the lower probability, then to
   fewer unknown neighbours, then to the seeded random generator.

``policy="fast"`` skips step 3 (safest cell, fewest unknown neighbours). ``policy="best"`` (the default;
``strong`` is the same policy under its earlier name) widens step 2 (up to 40 cells at least 0.9 x as
safe as the safest, :attr:`Policy.safety_window`) and scores step 3 after a guess by 0.8 x the best +
0.2 x the second-best cell that can still show more than one number (:attr:`Policy.second`,
:attr:`Policy.living`; JSMinesweeper's blend): +66 games over 21,000 fresh Expert ones (2.3 sd) when it
was introduced and +43 over 20,000 more (400 gained, 357 lost), for ~25% more solver time than
``light``, well within the 25 ms per Expert game the default may take.

Options measured and left off (paired runs in ``docs/benchmarks.md``): :attr:`Policy.dead_last`,
:attr:`Policy.isolated_search` (an isolated region searched exhaustively on its own),
:attr:`Policy.safety_window` (a wider candidate window) and :attr:`Policy.long_term`
(:mod:`bot.solver.longterm`).
"""

from __future__ import annotations

import logging
import math
import random
from dataclasses import dataclass
from enum import Enum

import numpy as np

from bot.board import Board, Cell, Coord
from bot.errors import ContradictionError, GameOverError
from bot.game import FirstClickRule, find_rule
from bot.solver.endgame import MAX_ARRANGEMENTS, NODE_BUDGET, search
from bot.solver.engine import WORK, Probabilities, best_safety, log_weight, solve
from bot.solver.fifty import isolated_regions, unavoidable
from bot.solver.longterm import influence
from bot.solver.lookahead import value_outcomes
from bot.solver.rules import COVERED, EIGHT, FLAG, Knowledge, check_playable, count_around

LOGGER = logging.getLogger(__name__)


class Action(str, Enum):
    """What a move does: open a cell, flag it, or chord on a number."""

    OPEN = "open"
    FLAG = "flag"
    CHORD = "chord"


# Members bound once: an enum member look-up is an attribute miss in Python < 3.12, and the simulator
# builds a Move for every cell it opens.
_OPEN, _FLAG = Action.OPEN, Action.FLAG


@dataclass(frozen=True)
class Move:
    """One click the solver wants, with the mine probability of what it opens and why."""

    action: Action
    cell: Coord
    """The cell clicked (for CHORD: the number cell)."""
    probability: float
    """Mine probability of the cell(s) opened; 0.0 when certain (for FLAG: 1.0)."""
    reason: str
    opens: tuple[Coord, ...] = ()
    """Cells a CHORD opens; for OPEN ``(cell,)``."""

    def __str__(self) -> str:
        return f"{self.action.value} {self.cell} p={self.probability:.2f}: {self.reason}"

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "action": self.action.value,
            "cell": list(self.cell),
            "probability": self.probability,
            "reason": self.reason,
            "opens": [list(c) for c in self.opens],
        }


@dataclass(frozen=True)
class Policy:
    """Guess-policy settings; :data:`POLICIES` names the shipped ones."""

    name: str
    secondary: bool = True
    tolerance: float = 0.15
    """Candidates: cells with P(mine) <= safest + tolerance x max(safest, 0.1) (relative, floored)."""
    max_candidates: int = 12
    off_candidates: int = 2
    endgame: bool = True
    endgame_arrangements: int = MAX_ARRANGEMENTS
    """Search the endgame exhaustively when at most this many arrangements remain."""
    endgame_nodes: int = NODE_BUDGET
    """... and give up the search (and guess as usual) past this many search nodes."""
    fifty_penalty: bool = False
    """Look-ahead: halve a value's worth when it leaves an isolated 50/50 (off: not shown to help)."""
    progress: float = 0.0
    """Look-ahead: add this much for each value that proves a cell safe (P(safe) x P(progress) bonus)."""
    enclosed_guess: bool = True
    """Take any unavoidable guess at once (:mod:`bot.solver.fifty`), not only an isolated 50/50."""
    dead_last: bool = False
    """Never prefer a *dead* candidate (it can show only one number) while a living one was scored."""
    isolated_search: bool = False
    """Search an isolated region with a fixed mine count exhaustively and play it first."""
    safety_window: float = 0.0
    """If > 0, frontier candidates are instead the cells with P(safe) >= (1 - this) x the best P(safe)."""
    long_term: float = 0.0
    """Scale a candidate's score by 1 + this x P(it defuses a 50/50 pattern | safe) (:mod:`longterm`)."""
    second: float = 0.0
    living: bool = False
    """With ``second``: blend over living cells only (cells that can show more than one number)."""
    off_near: int = 0
    """Also look at up to this many off-frontier cells two cells straight from a number (JSMinesweeper's
    off-edge candidates: their numbers tell about the frontier), fewest unknown neighbours first."""
    """Look-ahead: score a position by (1 - this) x its best safety + this x its second best
    (:func:`bot.solver.engine.blend`; JSMinesweeper: 0.2)."""
    deep: int = 0
    """Re-score the best this many candidates two clicks ahead: P(safe) x E over the values it shows
    of the best one-click score then (1.0 when a cell is then certain), see :func:`_two_clicks`."""
    deep_width: int = 4
    """... looking at this many candidates of each position the first click leaves."""


LOOKAHEAD_BUDGET = 20_000
"""Search nodes a look-ahead position's region may take; past it the candidate is scored by safety only."""
LOOKAHEAD_TOTAL = 60_000
"""Search nodes all look-ahead of one guess may take; candidates left after it are not scored."""
DEEP_TOTAL = 150_000
"""Search nodes the two-click look-ahead of one guess may take; past it the one-click scores stand."""

_BLEND = {"safety_window": 0.1, "max_candidates": 40, "second": 0.2, "living": True}

POLICIES: dict[str, Policy] = {
    "best": Policy("best", **_BLEND),
    "strong": Policy("strong", **_BLEND),
    "light": Policy("light"),
    "fast": Policy("fast", secondary=False, endgame=False),
}


def find_policy(name: str | Policy) -> Policy:
    """A policy by name (see :data:`POLICIES`); raises ``ValueError`` for an unknown one."""
    if isinstance(name, Policy):
        return name
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}: use one of {', '.join(POLICIES)}") from None


def first_click(rows: int, cols: int, rule: FirstClickRule, density: float = 0.0) -> Move:
    """The opening click: a corner, except about (3, 3) under the zero rule (clamped on small boards)."""
    if rule is FirstClickRule.ZERO:
        cell = (min(3, (rows - 1) // 2), min(3, (cols - 1) // 2))
        reason = f"first click: {cell} opens an area under the zero rule"
    else:
        cell = (0, 0)
        reason = "first click: corner"
    p = density if rule is FirstClickRule.NONE else 0.0
    return Move(Action.OPEN, cell, p, reason, (cell,))


_LAST: list[Knowledge] = []
"""The knowledge of the last board read, advanced in place when the next board extends it."""


def read_knowledge(board: Board) -> Knowledge:
    """:meth:`Knowledge.from_board`, but incremental: reuses the last board's knowledge when it can.

    Sound for any board that extends the last one (same numbers, more revealed or flagged cells),
    whichever game it comes from: what those numbers proved stays proven. Anything else is read
    from scratch, which also raises the errors with the cell they name.
    """
    check_playable(board)
    return _read_checked(board)


def _read_checked(board: Board) -> Knowledge:
    """:func:`read_knowledge` of a board already checked playable (choose_moves checks it once)."""
    if _LAST and _LAST[0].advance(board):
        return _LAST[0]
    _LAST.clear()
    know = Knowledge.from_board(board)
    _LAST.append(know)
    return know


def mine_probabilities(board: Board, total_mines: int | None = None) -> np.ndarray:
    """Exact P(mine) for every covered cell (NaN elsewhere); flags count as known mines.

    Raises:
        GameOverError: the board shows an ended game.
        ContradictionError: no arrangement of mines fits the board (names a contradicting cell).
    """
    return probability_grid(board, total_mines)[0]


def probability_grid(board: Board, total_mines: int | None = None) -> tuple[np.ndarray, bool]:
    """:func:`mine_probabilities` and whether they are exact (total known, no region past the guard)."""
    total = board.mines if total_mines is None else total_mines
    probs = solve(read_knowledge(board), total)
    out = np.full(board.rows * board.cols, np.nan)
    for j, p in probs.prob.items():
        out[j] = p
    return out.reshape(board.shape), probs.exact


def choose_move(
    board: Board,
    total_mines: int | None = None,
    rule: str | FirstClickRule = "safe",
    *,
    flags: bool = False,
    seed: int | None = None,
    policy: str | Policy = "best",
) -> Move:
    """The first of :func:`choose_moves`: one certain move, or the best guess."""
    return choose_moves(board, total_mines, rule, flags=flags, seed=seed, policy=policy)[0]


def choose_moves(
    board: Board,
    total_mines: int | None = None,
    rule: str | FirstClickRule = "safe",
    *,
    flags: bool = False,
    seed: int | None = None,
    policy: str | Policy = "best",
) -> list[Move]:
    """Every certain move at once (opens; with ``flags`` also FLAGs and useful CHORDs), else one guess.

    Raises:
        GameOverError: the board shows an ended game, or nothing is left to open.
        ContradictionError: no arrangement of mines fits the board (names a contradicting cell).
    """
    rule = find_rule(rule)
    pol = find_policy(policy)
    total = board.mines if total_mines is None else total_mines
    check_playable(board)
    grid = board.cells
    if grid[0, 0] == COVERED and int(grid.min()) > EIGHT:  # fresh: nothing revealed yet
        density = (total or 0) / grid.size
        move = first_click(board.rows, board.cols, rule, density)
        if board[move.cell] == Cell.COVERED:
            return [move]
    know = _read_checked(board)
    if flags:
        moves = _certain_moves(know, {j: know.reason[j] for j in know.known}, flags)
    else:  # only the proven-safe cells matter: skip sorting the proven mines
        moves = [_open(know, j, 0.0, know.reason[j]) for j in know.safe_cells()]
    if moves:
        return moves
    probs = solve(know, total)
    exact_reasons = {
        j: ("exact: certain mine" if p else "exact: certain safe")
        for j, p in probs.prob.items()
        if p == 0.0 or p == 1.0
    }
    moves = _certain_moves(know, exact_reasons, flags)
    if moves and (flags or any(m.action is not _FLAG for m in moves)):
        return [m for m in moves if flags or m.action is not _FLAG]
    if not any(p < 1.0 for p in probs.prob.values()):
        raise GameOverError("nothing is left to open: every covered cell is a mine (the game is won)")
    return [_guess(know, probs, total, pol, random.Random(0 if seed is None else seed))]


def _rc(know: Knowledge, j: int) -> Coord:
    return divmod(j, know.cols)


def _certain_moves(know: Knowledge, certain: dict[int, str], flags: bool) -> list[Move]:
    """OPEN every certain-safe cell; with ``flags`` also FLAG certain mines and CHORD where it pays."""
    cells = know.cells
    safe = sorted(j for j, why in certain.items() if cells[j] == COVERED and not _is_mine(know, j, why))
    mines = sorted(j for j, why in certain.items() if cells[j] == COVERED and _is_mine(know, j, why))
    if not flags:
        return [_open(know, j, 0.0, certain[j]) for j in safe]
    moves = [Move(_FLAG, _rc(know, j), 1.0, certain[j]) for j in mines]
    mine_set, todo = set(mines), set(safe)
    for n in sorted({k for j in safe for k in know.nbrs[j] if cells[k] <= EIGHT}):
        around = [k for k in know.nbrs[n] if cells[k] == COVERED]
        if all(k in mine_set or k in certain for k in around):
            opens = [k for k in around if k in todo]
            if len(opens) >= 2 and all(
                cells[k] == FLAG or k in mine_set for k in _mines_around(know, n, certain)
            ):
                todo -= set(opens)
                moves.append(
                    Move(
                        Action.CHORD,
                        _rc(know, n),
                        0.0,
                        "chord: all its mines are flagged",
                        tuple(_rc(know, k) for k in opens),
                    )
                )
    moves += [_open(know, j, 0.0, certain[j]) for j in sorted(todo)]
    return moves


def _is_mine(know: Knowledge, j: int, why: str) -> bool:
    return know.known.get(j, why == "exact: certain mine")


def _mines_around(know: Knowledge, n: int, certain: dict[int, str]) -> list[int]:
    return [
        k for k in know.nbrs[n] if know.cells[k] == FLAG or (k in certain and _is_mine(know, k, certain[k]))
    ]


# -- guessing -----------------------------------------------------------------------------------------


def _unknown_neighbours(know: Knowledge, j: int) -> int:
    cells, known = know.cells, know.known
    return sum(1 for k in know.nbrs[j] if cells[k] == COVERED and k not in known)


def _isolated_pair(know: Knowledge) -> int | None:
    """A cell of a 50/50 no future click can resolve, or None."""
    cells, known = know.cells, know.known
    for unknown, need in know.cons.values():
        if need != 1 or len(unknown) != 2:
            continue
        pair = set(unknown)
        if all(know.cons[k][0] == pair for j in pair for k in know.cell_cons[j]) and all(
            cells[k] != COVERED or k in known or k in pair for j in pair for k in know.nbrs[j]
        ):
            return min(pair)
    return None


def _candidates(know: Knowledge, probs: Probabilities, pol: Policy) -> list[int]:
    """The cells worth a closer look: near-safest frontier cells and the best off-frontier cells."""
    unknown = [j for j, p in probs.prob.items() if 0.0 < p < 1.0]
    best = min(probs.prob[j] for j in unknown)
    if pol.safety_window > 0:
        limit = 1.0 - (1.0 - pol.safety_window) * (1.0 - best) + 1e-12
    else:
        limit = best + pol.tolerance * max(best, 0.1) + 1e-12
    frontier = sorted((probs.prob[j], j) for j in unknown if j in probs.frontier and probs.prob[j] <= limit)
    chosen = [j for _, j in frontier[: pol.max_candidates]]
    if probs.off and probs.off_prob is not None and probs.off_prob <= limit:
        chosen += _fewest_unknown_neighbours(know, probs.off, pol.off_candidates)
        if pol.off_near:
            near = _near_numbers(know, probs.off)
            ranked = _fewest_unknown_neighbours(know, near, len(near)) if near else []
            extra = [j for j in ranked if j not in chosen]
            chosen += extra[: pol.off_near]
    return chosen


def _near_numbers(know: Knowledge, off: tuple[int, ...]) -> tuple[int, ...]:
    """The cells of ``off`` two cells up, down, left or right of a number with unknown neighbours."""
    rows, cols, off_set = know.rows, know.cols, set(off)
    found = set()
    for n in know.cons:
        r, c = divmod(n, cols)
        for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr) * cols + c + dc in off_set:
                found.add((r + dr) * cols + c + dc)
    return tuple(sorted(found))


def _fewest_unknown_neighbours(know: Knowledge, cells: tuple[int, ...], n: int) -> list[int]:
    """The ``n`` cells with the fewest unknown neighbours (ties: lowest index), counted at once."""
    unknown = np.fromiter(know.cells, dtype=np.int8, count=len(know.cells)) == COVERED
    unknown[list(know.known)] = False
    around = count_around(unknown.reshape(know.rows, know.cols)).ravel()
    index = np.array(cells)
    order = np.lexsort((index, around[index]))  # by count, then by index
    return index[order[:n]].tolist()


def _after_safety(know: Knowledge, total: int | None, second: float = 0.0) -> tuple[float, float] | None:
    """(log weight, best safety) of a hypothetical position; safety 1.0 when a cell is proven safe.

    None when it cannot be counted exactly within :data:`LOOKAHEAD_BUDGET`.
    """
    if total is None:
        return None
    if know.safe_cells() and not second:  # the next click is certain: only P(value) is needed
        weight = log_weight(know, total, node_budget=LOOKAHEAD_BUDGET)
        return None if weight is None else (weight, 1.0)
    return best_safety(know, total, node_budget=LOOKAHEAD_BUDGET, second=second)


def secondary_safety(
    know: Knowledge,
    probs: Probabilities,
    j: int,
    total: int | None,
    fifty_penalty: bool = False,
    progress: float = 0.0,
    beat: float = -1.0,
    second: float = 0.0,
    living: bool = False,
) -> float | None:
    """P(cell safe) x E[best safety after it is revealed (+ ``progress`` when a cell is then certain)].

    None when it cannot be computed exactly, or (checked after each value) once even a perfect
    safety for every value left could not bring it within a relative 1e-9 of ``beat``: such a cell
    could never join the best, so the values left are not looked at.
    """
    found = _lookahead(know, probs, j, total, fifty_penalty, progress, beat, second, living)
    return None if found is None else found[0]


def _lookahead(
    know: Knowledge,
    probs: Probabilities,
    j: int,
    total: int | None,
    fifty_penalty: bool,
    progress: float,
    beat: float,
    second: float = 0.0,
    living: bool = False,
) -> tuple[float, int] | None:
    """:func:`secondary_safety` and the number of values the cell can show (1: a dead cell)."""
    if not probs.exact or probs.log_weight is None:
        return None
    cells, known = know.cells, know.known
    base = sum(1 for k in know.nbrs[j] if cells[k] == FLAG or known.get(k) is True)
    unknown = [k for k in know.nbrs[j] if cells[k] == COVERED and k not in known]
    # likeliest values first (nearest the expected number): a losing cell is cut after fewer values
    expected = base + sum(probs.prob[k] for k in unknown)
    values = sorted(range(base, base + len(unknown) + 1), key=lambda v: (abs(v - expected), v))
    weighted = 0.0
    mass = 0.0
    shown = 0
    survive = 1.0 - probs.prob[j]
    best_each = 1.0 + progress
    cutoff = beat * (1 - 2e-9) - 1e-12
    if survive * best_each < cutoff:  # even a sure next click everywhere could not bring it to ``beat``
        return None
    # every value counted in one enumeration (the fifty penalty needs each revealed position itself)
    table = None if fifty_penalty else value_outcomes(know, probs, j, total, second=second, living=living)
    for value in values:
        if weighted + (survive - mass) * best_each < cutoff:
            return None
        if table is not None:
            if value not in table:
                continue
            after = table[value]
        else:
            try:
                hyp = know.reveal(j, value)
                after = _after_safety(hyp, total, second)
            except ContradictionError:
                continue
            if after is None:
                return None
        log_weight, safety = after
        weight = math.exp(log_weight - probs.log_weight)  # P(value) x P(safe)
        if fifty_penalty and _isolated_pair(hyp) is not None:
            safety *= 0.5  # a coin flip no later click can avoid halves the chance to win
        elif progress and safety >= 1.0:
            safety += progress  # the next click is free: worth more than an equally safe guess
        mass += weight
        weighted += weight * safety
        shown += 1
    if not mass:
        return None
    return weighted, shown


def _guess(know: Knowledge, probs: Probabilities, total: int | None, pol: Policy, rng: random.Random) -> Move:
    """The single guess to make when nothing is certain."""
    pair = _isolated_pair(know)
    if pair is not None:
        return _open(know, pair, probs.prob[pair], "isolated 50/50: no click can ever resolve it")
    if pol.enclosed_guess:
        forced = unavoidable(know)
        if forced is not None:
            j = forced[0]
            why = f"unavoidable guess: no click can ever tell these {len(forced)} cells apart"
            return _open(know, j, probs.prob[j], why)
    prob = probs.prob
    limit = pol.endgame_arrangements
    if pol.endgame and probs.weight is not None and probs.weight <= limit and total is not None:
        nodes = pol.endgame_nodes
        choice = search(know, total - know.known_mines(), node_budget=nodes, max_arrangements=limit)
        if choice is not None:
            why = f"endgame: exhaustive search of {choice.arrangements} arrangements, P(win)={choice.win:.3f}"
            return _open(know, choice.cell, prob[choice.cell], why)
    if pol.isolated_search and total is not None:
        for cells, mines in isolated_regions(know):
            choice = search(know, mines, pol.endgame_nodes, limit, cells)
            if choice is not None:
                why = (
                    f"isolated region: exhaustive search of {choice.arrangements} arrangements, "
                    f"P(clear it)={choice.win:.3f}"
                )
                return _open(know, choice.cell, prob[choice.cell], why)
    cands = _candidates(know, probs, pol)
    n = len(cands)
    scores: dict[int, float] = {}
    dead: dict[int, float] = {}  # with dead_last: the scored cells that can show only one number
    if pol.secondary and n > 1:
        start = WORK.nodes
        for j in cands:  # safest first; stop looking ahead once the move's work budget is spent
            if WORK.nodes - start > LOOKAHEAD_TOTAL:
                LOGGER.debug("look-ahead budget spent after %d of %d candidates", len(scores), n)
                break
            best = max(scores.values(), default=-1.0)
            scale = 1.0
            if pol.long_term and total is not None and probs.exact:
                scale += pol.long_term * influence(know, probs, total, j) / (1.0 - prob[j])
            found = _lookahead(
                know, probs, j, total, pol.fifty_penalty, pol.progress, best / scale, pol.second, pol.living
            )
            if found is not None:
                (dead if pol.dead_last and found[1] == 1 else scores)[j] = found[0] * scale
    if not scores:  # every scored cell is dead: the best of them
        scores = dead
    deep = None
    if pol.deep and len(scores) > 1 and total is not None:
        top = sorted(scores, key=lambda k: (-scores[k], prob[k], k))[: pol.deep]
        deep = _two_clicks(know, probs, top, total, pol)
        if deep is not None:
            scores = deep
    if scores:
        top = max(scores.values())
        pool = [j for j in scores if math.isclose(scores[j], top, rel_tol=1e-9)]
    else:
        low = min(prob[j] for j in cands)
        pool = [j for j in cands if math.isclose(prob[j], low, rel_tol=1e-9, abs_tol=1e-12)]
    pool.sort(key=lambda j: (prob[j], _unknown_neighbours(know, j), j))
    key = (prob[pool[0]], _unknown_neighbours(know, pool[0]))
    ties = [j for j in pool if (prob[j], _unknown_neighbours(know, j)) == key]
    j = ties[0] if len(ties) == 1 else rng.choice(ties)
    where = "off the frontier" if j not in probs.frontier else "frontier"
    if deep is not None:
        why = f"two clicks ahead: best of {len(deep)} of {n} candidates ({where}, score {scores[j]:.3f})"
    elif scores:
        why = f"secondary safety: best of {n} candidates ({where}, next-click safety {scores[j]:.3f})"
    else:
        why = f"exact: safest of {len(prob)} ({where}, p={prob[j]:.2f})"
    return _open(know, j, prob[j], why)


def _two_clicks(
    know: Knowledge, probs: Probabilities, cells: list[int], total: int, pol: Policy
) -> dict[int, float] | None:
    """For each of ``cells``: the sum over the values it could show of P(safe and that value) x the
    best one-click score of the position it leaves (1.0 when a cell is then certain, or only mines are
    left). Each position is revealed and solved exactly; None when one cannot be, or past
    :data:`DEEP_TOTAL` nodes of work (the caller then keeps the one-click scores)."""
    if not probs.exact or probs.log_weight is None:
        return None
    start = WORK.nodes
    cells_now, known = know.cells, know.known
    scores: dict[int, float] = {}
    for j in cells:
        base = sum(1 for k in know.nbrs[j] if cells_now[k] == FLAG or known.get(k) is True)
        unknown = sum(1 for k in know.nbrs[j] if cells_now[k] == COVERED and k not in known)
        score = 0.0
        for value in range(base, base + unknown + 1):
            if WORK.nodes - start > DEEP_TOTAL:
                return None
            try:
                hyp = know.reveal(j, value)
                after = solve(hyp, total, LOOKAHEAD_BUDGET)
            except ContradictionError:
                continue  # a value no arrangement shows
            if not after.exact or after.log_weight is None:
                return None
            weight = math.exp(after.log_weight - probs.log_weight)  # P(value) x P(safe)
            score += weight * _one_click_value(hyp, after, total, pol)
        scores[j] = score
    return scores


def _one_click_value(know: Knowledge, probs: Probabilities, total: int, pol: Policy) -> float:
    """The best one-click score of a position (its guess's secondary safety; 1.0 if a click is free)."""
    left = [p for p in probs.prob.values() if p < 1.0]
    if not left or min(left) == 0.0:
        return 1.0
    best = 0.0
    for k in _candidates(know, probs, pol)[: pol.deep_width]:
        found = _lookahead(know, probs, k, total, False, pol.progress, best, pol.second, pol.living)
        if found is not None:
            best = max(best, found[0])
        elif not best:
            best = 1.0 - probs.prob[k]  # not countable: its safety alone (a lower bound)
    return best


def _open(know: Knowledge, j: int, p: float, why: str) -> Move:
    rc = divmod(j, know.cols)
    return Move(_OPEN, rc, p, why, (rc,))
