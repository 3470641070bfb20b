"""Propose a cell state for each look-alike group, from its pixels and from the board's own logic.

* **Base.** Groups whose outer ring (bevel, grid line, fill) matches share a base: the revealed base
  (0, digits, shown mines) or the covered base (covered, flags).
* **Covered and 0.** Both are plain (no glyph). A 0 cell's neighbours are all revealed, so the 0 group
  is the plain group whose cells are surrounded only by cells of its own base; covered is the
  largest other plain group. A board of one look is a fresh board: all covered.
* **Flags, mines, exploded.** A glyph on the covered base is a flag if it has red in it (on a won
  board with no covered cell left: a red mark off the 0 cell's base, when the flag counts agree). The
  exploded mine is the cell on a red base; the shown mines are the group shaped like its glyph (on
  either base: winemine draws them on the covered cell), and a wrong flag is a mine shape with red
  crossed over it.
* **Digits** come from the counting rules first: every cell of a digit touches at least its value in
  flags and at most its value in unrevealed cells, and exactly its value in mines and flags when every
  mine shows (a lost or a won board). Each digit is one group, so all assignments of distinct digits
  within those ranges are enumerated; a group that takes the same digit in all of them is sure. The
  rest fall back on the classic palette (1 blue, 2 green, 3 red, 4 navy, 5 maroon, 6 teal, 7 black,
  8 grey; lightness tells 1 from 4 and 3 from 5, contrast 7 from 8), which can only make a group sure
  when the board confirms the palette (the digits the counts fixed wear their classic colours, two
  groups fit it closely) and the next-best whole assignment is clearly worse. A dark theme's colours
  (winemine: 1 green, 2 white, 3 cyan ...) decide nothing: only the counts do, else it asks.
"""

from __future__ import annotations

import numpy as np

from bot.board import Cell, neighbour_table
from calibration.appearance import UNREVEALED
from calibration.label_digits import DigitLabels
from calibration.label_marks import MarkLabels
from calibration.label_plain import PlainLabels
from calibration.model import Group, Proposal


class Labeller(PlainLabels, MarkLabels, DigitLabels):
    """Proposes a state for every group of one calibration run (see the module docstring)."""

    def run(self) -> dict[int, Proposal]:
        """Proposals for every group, by group id."""
        self._covered_and_zero()
        self._glyphs()
        self._settle_exploded()
        self._count_digits()
        self._digits()
        self._distrust_few(self.pinned)
        for g in self.groups:
            self._propose(g.id, None, False, "looks like no cell state minebot knows")
        return dict(sorted(self.proposals.items()))


def propose_labels(
    groups: list[Group],
    grids: list[np.ndarray],
    known: dict[int, Cell] | None = None,
    references: dict[Cell, np.ndarray] | None = None,
) -> dict[int, Proposal]:
    """A :class:`Proposal` for every group (see the module docstring for how).

    ``known`` labels groups already matched to a skin being updated; ``references`` are that skin's
    templates, which stand in for looks absent from these screenshots (a 0 cell, say).
    """
    labeller = Labeller(groups, grids, known, references)
    labeller.run()
    swap = labeller.zero_conflict()
    revealed = labeller.all_revealed()
    if revealed and any(labeller.proposals[gid].state != Cell.ZERO for gid in revealed):
        why = "the counts: its cells touch no mine on a lost board where no plain look does, so all are 0"
        preset = {gid: Proposal(gid, Cell.ZERO, True, why) for gid in revealed}
        labeller = Labeller(groups, grids, known, references, preset)
        labeller.run()
    elif swap is not None:
        zero, covered = swap
        why = "the counts: {} cells touch mines, so they are not 0"
        preset = {
            zero: Proposal(zero, Cell.COVERED, True, why.format("its")),
            covered: Proposal(covered, Cell.ZERO, True, "the counts: none of its cells touches a mine"),
        }
        labeller = Labeller(groups, grids, known, references, preset)
        labeller.run()
    labeller.confirm_zero()
    return dict(sorted(labeller.proposals.items()))


def violations(grid: np.ndarray, states: dict[int, Cell | None]) -> list[tuple[int, int]]:
    """Cells whose proposed state breaks the rules: a digit with too few unrevealed neighbours,
    or a 0 next to a covered cell."""
    rows, cols = grid.shape
    table = neighbour_table(rows, cols)
    flat = grid.ravel()
    bad = []
    for i, gid in enumerate(flat):
        state = states.get(int(gid))
        if state is None or not state.is_number():
            continue
        unrevealed = sum(1 for j in table[i] if states.get(int(flat[j])) in UNREVEALED)
        if unrevealed < int(state) or (
            state == Cell.ZERO and any(states.get(int(flat[j])) == Cell.COVERED for j in table[i])
        ):
            bad.append(divmod(i, cols))
    return bad
