"""Long-term risk: how likely a guess is to defuse a 50/50 that would otherwise form later.

Two covered cells side by side, whose six flanking cells (the columns, or rows, beside the pair)
are all mines, can never be told apart once exactly one of them is a mine: every cell that could
show a number sees both. Likewise a 2x2 box whose four diagonal corners are mines and which holds
two mines on a diagonal. Such a pattern is a coin flip waiting to happen. Opening one of its cells
*now*, while it is safe, resolves the pattern before it closes.

:func:`influence` is the probability, over the arrangements consistent with the board, that cell
``j`` is safe and sits in such a pattern (the other cells of the pattern placed so it is a 50/50,
the flanking cells mines). A pattern counts only when at most ``MISSING`` of its flanking cells are
not yet known mines (none revealed), as nearer patterns are the ones a guess can still defuse.
"""

from __future__ import annotations

import math

from bot.errors import ContradictionError
from bot.solver.engine import Probabilities, log_weight
from bot.solver.rules import COVERED, FLAG, Knowledge

PAIR_MISSING = 1
"""A side-by-side pair counts when at most this many of its flanking cells are not known mines."""
BOX_MISSING = 2
"""A 2x2 box counts when at most this many of its corners are not known mines."""
NODE_BUDGET = 20_000
"""Work one hypothetical count may take; past it the pattern is not counted."""


def _cell(know: Knowledge, r: int, c: int) -> int | None:
    """The flat index of (r, c), or None off the board."""
    if 0 <= r < know.rows and 0 <= c < know.cols:
        return r * know.cols + c
    return None


def _hidden(know: Knowledge, j: int | None) -> bool:
    """Covered, not flagged, not proven: a cell whose content is still open."""
    return j is not None and know.cells[j] == COVERED and j not in know.known


def _missing(know: Knowledge, cells: list[int | None]) -> list[int] | None:
    """The flanking cells not yet known to be mines; None if one is revealed or proven safe."""
    out = []
    for k in cells:
        if k is None or know.cells[k] == FLAG or know.known.get(k) is True:
            continue
        if know.cells[k] != COVERED or know.known.get(k) is False:
            return None
        out.append(k)
    return out


def _patterns(know: Knowledge, j: int) -> list[tuple[list[int], list[int]]]:
    """(cells that must be mines, cells that must be safe besides ``j``) for each pattern around ``j``."""
    r, c = divmod(j, know.cols)
    found = []
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):  # pairs: j and its partner
        partner = _cell(know, r + dr, c + dc)
        if not _hidden(know, partner):
            continue
        if dr == 0:  # horizontal: the columns beyond each end
            ends = (c - 1, c + 2) if dc == 1 else (c - 2, c + 1)
            flank = [_cell(know, r + d, e) for e in ends for d in (-1, 0, 1)]
        else:
            ends = (r - 1, r + 2) if dr == 1 else (r - 2, r + 1)
            flank = [_cell(know, e, c + d) for e in ends for d in (-1, 0, 1)]
        missing = _missing(know, flank)
        if missing is not None and len(missing) <= PAIR_MISSING:
            found.append(([partner, *missing], []))  # type: ignore[list-item]
    for dr, dc in ((0, 0), (0, -1), (-1, 0), (-1, -1)):  # boxes: j at each of the four places
        top, left = r + dr, c + dc
        box = [_cell(know, top + a, left + b) for a in (0, 1) for b in (0, 1)]
        if not all(_hidden(know, k) for k in box):
            continue
        corners = [_cell(know, top + a, left + b) for a in (-1, 2) for b in (-1, 2)]
        missing = _missing(know, corners)
        if missing is None or len(missing) > BOX_MISSING:
            continue
        opposite = box[3 - box.index(j)]  # j's diagonal partner is safe too; the other diagonal holds mines
        mines = [k for k in box if k not in (j, opposite)]
        found.append(([*mines, *missing], [opposite]))  # type: ignore[list-item]
    return found


def joint(know: Knowledge, probs: Probabilities, total: int, mines: list[int], safe: list[int]) -> float:
    """P(all of ``mines`` are mines and all of ``safe`` are safe), exact; 0.0 when it cannot be counted."""
    if probs.log_weight is None:
        return 0.0
    hyp = know.copy()
    try:
        for k, mine in [(k, True) for k in mines] + [(k, False) for k in safe]:
            if k in hyp.known:
                if hyp.known[k] is not mine:
                    return 0.0
                continue
            hyp._settle(k, mine, "hypothesis")  # the assumption; the rules then follow from it
        hyp.propagate()
        weight = log_weight(hyp, total, node_budget=NODE_BUDGET)
    except ContradictionError:
        return 0.0
    if weight is None:
        return 0.0
    return math.exp(weight - probs.log_weight)


def influence(know: Knowledge, probs: Probabilities, total: int, j: int) -> float:
    """P(``j`` is safe and would otherwise end in a 50/50 pattern), summed over patterns, at most P(safe)."""
    safe = 1.0 - probs.prob[j]
    found = sum(joint(know, probs, total, mines, [j, *others]) for mines, others in _patterns(know, j))
    return min(found, safe)
