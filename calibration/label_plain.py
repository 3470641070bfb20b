"""Covered and 0: the two plain looks told apart by their neighbours, bevels, digits and the counts."""

from __future__ import annotations

import numpy as np

from bot.board import Cell
from calibration.appearance import ALL_ZERO, EXPLAINED
from calibration.counts import group_counts
from calibration.label_base import LabelBase
from calibration.model import Proposal


class PlainLabels(LabelBase):
    """Covered and 0."""

    def _bevelled(self, gid: int) -> float:
        """1 when the cell looks raised: lighter top and left bands, darker bottom and right bands."""
        img = self.groups[gid].image.astype(np.float32).mean(axis=2)
        s = img.shape[0]
        b = max(1, s // 8)
        mid = float(np.median(img[b:-b, b:-b]))
        lit = min(img[:b, b:-b].mean(), img[b:-b, :b].mean()) - mid
        shade = mid - max(img[-b:, b:-b].mean(), img[b:-b, -b:].mean())
        return float(lit > 12 and shade > 12)

    def _ink_share(self, gid: int) -> float:
        """The fraction of glyph cells (non-plain groups) drawn on this group's base."""
        inked = [g for g in self.groups if not self.looks[g.id].plain]
        total = sum(g.count for g in inked)
        return sum(g.count for g in inked if self.base[g.id] == self.base[gid]) / total if total else 0.0

    def _zero_score(self, zero: int, covered: int) -> float:
        """How much better "``zero`` is 0 and ``covered`` is covered" explains the board than the swap.

        Four cues, each worth up to 1: 0 cells touch only revealed-looking cells, covered cells look
        raised, digits are drawn on the 0 cell's background, and every digit touches a covered cell
        (it counts mines among them) while many touch no 0.
        """
        return (
            (self._closed(zero) - self._closed(covered))
            + (self._bevelled(covered) - self._bevelled(zero))
            + (self._ink_share(zero) - self._ink_share(covered))
            + (self._glyphs_apart(zero, covered) - self._glyphs_apart(covered, zero))
        )

    def _glyphs_apart(self, gid: int, other: int) -> float:
        """The share of glyph cells (any group with a glyph) with no neighbour in group ``gid``, on the
        screenshots that show both ``gid`` and ``other``."""
        both = {k for k, grid in enumerate(self.grids) if (grid == gid).any() and (grid == other).any()}
        apart = []
        for g in self.groups:
            if not self.looks[g.id].plain:
                apart += [gid not in nbrs for nbrs in self._neighbour_groups(g.id, both)]
        return float(np.mean(apart)) if apart else 0.0

    def _covered_and_zero(self) -> None:
        plain = [g.id for g in self.groups if self.looks[g.id].plain and g.id not in self.known]
        if len(self.groups) == 1 and plain:
            self._propose(plain[0], Cell.COVERED, True, "the only look on the board: a fresh board")
            return
        zero, covered = self._group_of(Cell.ZERO), self._group_of(Cell.COVERED)
        if zero is None and covered is None and len(plain) >= 2:
            a, b = plain[0], plain[1]
            score = self._zero_score(a, b)
            zero, covered = (a, b) if score >= 0 else (b, a)
            sure = abs(score) >= 1.0
            why = (
                f"(cues: touches only revealed cells, flat, digits on its background; score {abs(score):.1f})"
            )
            self._propose(zero, Cell.ZERO, sure, f"the plain cell that reads as empty {why}", (Cell.COVERED,))
            self._propose(
                covered, Cell.COVERED, sure, f"the plain cell that reads as covered {why}", (Cell.ZERO,)
            )
        elif covered is None and zero is None and plain:
            lone = plain[0]
            won = self._won_board(lone)
            if won:
                self._propose(lone, Cell.ZERO, True, won)
            elif self._ink_share(lone) > 0.5 and not self._bevelled(lone) and self._closed(lone) >= 0.98:
                self._propose(lone, Cell.ZERO, False, "the only plain cell, flat, digits on its background")
            else:
                self._propose(lone, Cell.COVERED, True, "the only plain cell (no 0 on this board)")
        elif covered is None and plain:
            others = [gid for gid in plain if gid != zero]
            if others:
                self._propose(others[0], Cell.COVERED, True, "the most common plain cell that is not 0")
        elif zero is None and plain:
            others = [gid for gid in plain if gid != covered]
            if others:
                self._propose(others[0], Cell.ZERO, self._closed(others[0]) >= 0.98, "plain and not covered")
        covered = self._group_of(Cell.COVERED)
        for gid in plain:
            if gid not in self.proposals:
                state = Cell.COVERED if covered is not None and self.base[gid] == self.base[covered] else None
                alts = (Cell.COVERED, Cell.ZERO)
                self._propose(gid, state, False, "another plain look (hover or pressed?)", alts)

    def _won_board(self, lone: int) -> str:
        """Why the only plain group is 0 on a won board (every mine flagged), or "" when it is not sure.

        Flags are drawn on covered cells, so a red mark on another base than the plain group's is a
        flag if the plain group is 0. That is sure when the counts agree: no 0 cell touches a flag,
        every other glyph cell touches one, and each glyph group touches one number of flags (its
        value). Were the plain group covered, a board of digits and flags would rarely fit that.
        """
        flags = set(self._red_marks(self.base[lone]))
        if not flags:
            return ""
        if any(n in flags for nbrs in self._neighbour_groups(lone) for n in nbrs):
            return ""
        for g in self.groups:
            if g.id == lone or g.id in flags:
                continue
            counts = {sum(n in flags for n in nbrs) for nbrs in self._neighbour_groups(g.id)}
            if len(counts) != 1 or 0 in counts:
                return ""
        self.won = True
        return (
            "the only plain cell, on a won board: touches no flag, and every digit group touches "
            "one count of flags"
        )

    def _zero_shares(self) -> dict[int, float]:
        """For every plain group with a cell on a screenshot where every mine shows, the share of those
        cells that touch no mine (1 for a 0; well under 1 for covered cells on a lost board). The mines
        are the sure ones and those the counts counted (:attr:`counted`: a look that is a mine or a
        flag, unsure which, is mine-like all the same). Empty when they do not explain the numbers
        (:data:`EXPLAINED`)."""
        exact, mines = self._exact_shots(), self._mine_like() | self.counted
        if not exact or not mines:
            return {}
        per = group_counts(self.grids, exact, mines)
        glyphs = [
            g.id for g in self.groups if not self.looks[g.id].plain and g.id not in mines and g.id in per
        ]
        explained = sum(per[g].cells for g in glyphs if per[g].uniform and per[g].mode)
        if explained < EXPLAINED * sum(per[g].cells for g in glyphs):
            return {}  # the mines found do not explain the numbers: their counts say nothing yet
        return {
            g.id: per[g.id].counts.get(0, 0) / per[g.id].cells
            for g in self.groups
            if self.looks[g.id].plain and g.id in per and per[g.id].cells
        }

    def zero_conflict(self) -> tuple[int, int] | None:
        """``(zero, covered)`` when the counts say the plain labels are swapped: the group proposed
        as 0 has cells touching mines on a screenshot where every mine shows, and the covered one
        has (almost) none. None when they agree (or cannot tell)."""
        zero, covered = self._group_of(Cell.ZERO), self._group_of(Cell.COVERED)
        if zero is None or covered is None or zero in self.known:
            return None
        share = self._zero_shares()
        if zero not in share or covered not in share:
            return None
        if share[zero] < ALL_ZERO <= share[covered]:
            return zero, covered
        return None

    def all_revealed(self) -> list[int]:
        """The plain groups, when every one of them touches (almost) no mine on a screenshot where
        every mine shows: then none is covered (a client that opens the whole board on a loss), all
        are 0. Empty otherwise."""
        share = self._zero_shares()
        plain = [g.id for g in self.groups if self.looks[g.id].plain and g.id not in self.known]
        if not plain or any(share.get(gid, 0.0) < ALL_ZERO for gid in plain):
            return []
        return plain

    def confirm_zero(self) -> None:
        """Make unsure 0 / covered labels sure when the counts settle them: the 0 group touches no
        mine anywhere and the covered group does, and no 0 cell touches a covered one (a 0 opens every
        cell around it: a group of covered cells beside 0s holds 0s too, the two looks joined)."""
        zero, covered = self._group_of(Cell.ZERO), self._group_of(Cell.COVERED)
        exact = self._exact_shots()
        mines = self._mine_like()
        if zero is None or covered is None or not exact or not mines:
            return
        per = group_counts(self.grids, exact, mines)
        share = self._zero_shares()
        beside = any(covered in nbrs for nbrs in self._neighbour_groups(zero))
        if share.get(zero, 0.0) >= ALL_ZERO > share.get(covered, 1.0) and not beside:
            for gid in (zero, covered):
                p = self.proposals[gid]
                if not p.confident:
                    reason = (
                        p.reason + "; the counts confirm it (no 0 cell touches a mine, a covered one does)"
                    )
                    self.proposals[gid] = Proposal(gid, p.state, True, reason, p.alternatives)
        # other plain looks whose cells touch different counts are unrevealed, unless beside a 0
        for g in self.groups:
            p = self.proposals.get(g.id)
            if (
                p is not None
                and not p.confident
                and p.state == Cell.COVERED
                and g.id in per
                and len(per[g.id].counts) > 1
                and not any(zero in nbrs for nbrs in self._neighbour_groups(g.id))
            ):
                reason = p.reason + "; its cells touch different counts of mines, so it is not revealed"
                self.proposals[g.id] = Proposal(g.id, Cell.COVERED, True, reason)
