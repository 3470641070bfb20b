"""Digits from the whole board's counts, then the classic palette where the board confirms it."""

from __future__ import annotations

import numpy as np

from bot.board import Cell
from calibration.appearance import (
    CLASSIC_FIT,
    FEW,
    MAX_COST,
    SAME_DIGIT,
    SURE_MARGIN,
    TWIN_MEAN,
    UNREVEALED,
    describe,
    ink_colour,
    ink_mask,
    mask_iou,
    palette_cost,
)
from calibration.assign import forced_values, min_cost_assignment
from calibration.cluster import features
from calibration.counts import choose_mines, group_counts, mine_counts, pinned_values
from calibration.label_base import LabelBase
from calibration.model import Group, Proposal

MAX_SEARCH = 24
"""Most candidate groups :meth:`DigitLabels._shown_by_counts` tries as the mines, each in or out."""
MAX_NODES = 20000
"""Most steps of that search (each group in or out) before it gives up: many small groups that no count
constrains would otherwise double its work each."""
MAX_FITS = 64
"""Most sets of mine-like groups that may explain a screenshot's counts before the search gives up."""
MIN_EXPLAINED = 12
"""Fewest digit cells whose counts a choice of mine-like groups must explain before a screenshot on
which the looks found no mine is taken to show every mine (:meth:`DigitLabels._shown_by_counts`)."""


class DigitLabels(LabelBase):
    """Digits from the whole board's counts, then the classic palette where the board confirms it."""

    def _count_digits(self) -> None:
        """Digits and flags from whole-board counts on the screenshots where every mine shows (see
        :mod:`calibration.counts`).

        The shown and exploded mines the looks found are counted; the counts then choose which other
        glyph groups count too. Among them, one on the covered cell's base is a flag (a lost board
        keeps the right flags): the looks' flag guess is replaced, so a wrong flag (red cross and
        all) that the counts do not count is not taken for the flag. Then every glyph group whose
        cells all touch the same count is that digit, whatever it looks like.
        """
        exact = self._exact_shots()
        if not exact:
            exact = self._shown_by_counts()
        if not exact:
            return
        on_exact = self._exact_groups(exact)
        recheck = (Cell.FLAG, Cell.WRONG_FLAG)
        todo = [
            g.id
            for g in self.groups
            if not self.looks[g.id].plain
            and g.id in on_exact
            and g.id not in self.known
            and (
                g.id not in self.proposals
                or not self.proposals[g.id].confident
                or self.proposals[g.id].state in recheck
            )
        ]
        if not todo:
            return
        looked = {gid: self.proposals.pop(gid) for gid in todo if gid in self.proposals}
        revealed: dict[int, int | None] = {
            gid: int(p.state)
            for gid, p in self.proposals.items()
            if p.confident and p.state is not None and p.state.is_number()
        }
        revealed.update({gid: None for gid in todo})
        shown = {
            gid
            for gid, p in self.proposals.items()
            if p.confident and p.state in (Cell.MINE, Cell.EXPLODED, Cell.FLAG)
        }
        if self.found_mines:  # the counts alone found them, every other reading ruled out
            mines = shown | (self.found_mines & set(todo))
        else:
            mines = choose_mines(self.grids, exact, shown, todo, revealed)
        self.counted = set(mines)
        covered = self._group_of(Cell.COVERED)
        # the group already taken for the shown mines: a second look the counts count, drawn otherwise
        # and shaped like no mine, may as well be the flags a lost board keeps
        counted = min((g for g in shown if self.proposals[g].state == Cell.MINE), default=None)
        for gid in sorted(todo, key=lambda g: -self.groups[g].count):
            if gid not in mines:
                continue
            lone = self.groups[gid].count <= len({m.shot for m in self.groups[gid].members})
            if self._mine_shaped(gid, crossed=False) and lone and counted is not None:
                why = (
                    f"shaped like a mine, and the counts count it; one cell a game beside #{counted}'s mines"
                )
                self._propose(gid, Cell.MINE, False, why + ": the one that went off?", (Cell.EXPLODED,))
            elif self._mine_shaped(gid, crossed=False):
                self._propose(gid, Cell.MINE, True, "shaped like a mine, and the counts count it")
                counted = gid if counted is None else counted
            elif covered is not None and self.base[gid] == self.base[covered] and not self._base_untold(gid):
                why = "a mark on the covered cell that the numbers around it count: a flag"
                self._propose(gid, Cell.FLAG, True, why)
            elif self.groups[gid].count > len({m.shot for m in self.groups[gid].members}):
                why = "a look the numbers around it count, on more cells than one mine per game: shown mines"
                if counted is not None:  # the counts count flags as mines: two such looks are not both sure
                    why += f"; but #{counted} is counted too, drawn otherwise (one of the two may be flags)"
                    self._propose(gid, Cell.MINE, False, why, (Cell.FLAG,))
                else:
                    self._propose(gid, Cell.MINE, True, why, one_sided=True)
                    counted = gid
            else:
                why = "counted as a mine, the counts around it agree better (its look is not sure)"
                self._propose(gid, Cell.MINE, False, why, (Cell.EXPLODED, Cell.FLAG))
        self._pin_digits([gid for gid in todo if gid not in mines], exact)
        for gid in todo:
            if gid in self.proposals:
                continue
            if gid in looked and looked[gid].state == Cell.FLAG:
                why = "a mark like a flag that the numbers around it do not count: a wrong flag"
                self._propose(gid, Cell.WRONG_FLAG, False, why)
            elif gid in looked:
                self.proposals[gid] = looked[gid]

    def _shown_by_counts(self) -> set[int]:
        """The screenshots whose counts say every mine shows, when the looks took no group for a mine;
        the groups the counts take for mines there go to :attr:`found_mines`.

        A lost board whose mines, exploded mine and flags the looks did not recognise (a dot on a
        square, drawn in no red) is still a board where every revealed number is the count of
        mine-like cells around it. Every set of candidate groups (the glyph groups, and plain looks
        other than covered's or 0's: the exploded mine on red) is tried as the mine-like ones; a set
        *explains* the screenshot when every other glyph group's cells touch one count of at least 1
        (a digit's; the digit a sure label gives it), but for groups of at most :data:`FEW` cells (a
        wrong flag, which the counts do not count), the 0 group's cells touch none, and at least
        :data:`MIN_EXPLAINED` digit cells agree. The screenshot is taken to show every mine only when
        some set explains it and all that do agree on every group of more than :data:`FEW` cells; the
        groups in all of them are the mines. Anything else (none, two readings, too many candidates
        to try: :data:`MAX_SEARCH`) leaves the counts out, as before."""
        out: set[int] = set()
        zero = self._group_of(Cell.ZERO)
        if zero is None:
            return out
        for k, grid in enumerate(self.grids):
            present = {int(g) for g in np.unique(grid)}
            known = {
                gid: int(p.state)
                for gid, p in self.proposals.items()
                if gid in present and p.confident and p.state is not None and p.state.is_number()
            }
            todo = [
                g
                for g in sorted(present)
                if not self._plain_unrevealed_or_zero(g) and g not in known and g not in self.known
            ]
            if not todo or len(todo) > MAX_SEARCH:
                continue
            fits = self._explaining_sets(k, todo, known, zero)
            big = {g for g in todo if self.groups[g].count > FEW}
            if fits and len({frozenset(f & big) for f in fits}) == 1:
                out.add(k)
                self.found_mines |= set.intersection(*fits)
        return out

    def _explaining_sets(
        self, shot: int, todo: list[int], known: dict[int, int], zero: int
    ) -> list[set[int]]:
        """Every non-empty set of ``todo`` groups that explains one screenshot's counts (see
        :meth:`_shown_by_counts`), at most :data:`MAX_FITS` of them: a search over each group in or
        out, largest first, that checks a group's counts as soon as every candidate beside it is
        decided. None (an empty list) when it takes more than :data:`MAX_NODES` steps."""
        grid = self.grids[shot]
        order = sorted(todo, key=lambda g: -self.groups[g].count)
        near = [mine_counts(grid, {g}) for g in order]
        members = {g: grid == g for g in {int(v) for v in np.unique(grid)}}
        checked = [g for g in members if g == zero or not self.looks[g].plain]
        ready: dict[int, list[int]] = {}
        for g in checked:
            beside = [i for i, t in enumerate(order) if near[i][members[g]].any() or t == g]
            ready.setdefault(max(beside, default=-1), []).append(g)
        fits: list[set[int]] = []
        nodes = [0]

        def holds(g: int, counts: np.ndarray, chosen: set[int]) -> int | None:
            """Digit cells ``g`` agrees with (0 for none, None when it breaks the explanation)."""
            if g in chosen:
                return 0
            values = np.unique(counts[members[g]])
            if g == zero:
                return 0 if values.max() == 0 else None
            value = known.get(g, int(values[0]))
            if len(values) == 1 and value >= 1 and int(values[0]) == value:
                return int(members[g].sum())
            return None if self.groups[g].count > FEW else 0

        def search(i: int, counts: np.ndarray, chosen: set[int], agreed: int) -> None:
            for g in ready.get(i - 1, []):
                got = holds(g, counts, chosen)
                if got is None:
                    return
                agreed += got
            nodes[0] += 1
            if len(fits) > MAX_FITS or nodes[0] > MAX_NODES:
                return
            if i == len(order):
                if chosen and agreed >= MIN_EXPLAINED:
                    fits.append(set(chosen))
                return
            search(i + 1, counts + near[i], chosen | {order[i]}, agreed)
            search(i + 1, counts, chosen, agreed)

        search(0, np.zeros(grid.shape, np.int16), set(), 0)
        return fits if len(fits) <= MAX_FITS and nodes[0] <= MAX_NODES else []

    def _pin_digits(self, todo: list[int], exact: set[int]) -> None:
        """Label the glyph groups whose value the counts pin, over and over while that labels more.

        A group without a sure label whose cells touch different counts cannot be a digit, so it may
        be a mine the looks missed (as may an unsure one): each cell's count is then only known to
        lie between its sure mine-like neighbours and those plus such undecided neighbours, and a
        group is that digit when its cells' ranges meet in one value
        (:func:`calibration.counts.pinned_values`).
        A digit is never drawn on the covered cell's base, nor shaped like a mine, nor shaped unlike
        a larger group of the same digit: such a group is left unsure.
        """
        covered = self._group_of(Cell.COVERED)
        left = list(todo)
        changed = True
        while changed and left:
            changed = False
            mines = self._mine_like()
            per = group_counts(self.grids, exact, mines)
            undecided = {
                g.id
                for g in self.groups
                if g.id not in mines
                and not (self.proposals.get(g.id) is not None and self.proposals[g.id].confident)
                and not self._plain_unrevealed_or_zero(g.id)
                and (g.id in self.proposals or (g.id in per and not per[g.id].uniform))
            }
            ranges = pinned_values(self.grids, exact, mines, undecided, left)
            for gid in sorted(left, key=lambda g: -self.groups[g].count):
                lo, hi = ranges[gid]
                if lo != hi or not 1 <= lo <= 8 or self._mine_shaped(gid):
                    continue
                left.remove(gid)
                changed = True
                cells = self.groups[gid].count
                why = f"each of its {cells} cell(s) touches exactly {lo} mines or flags"
                if (
                    covered is not None
                    and self.base[gid] == self.base[covered]
                    and not self._base_untold(gid)
                    and not self._touches_zero(gid)
                ):
                    why = f"its cells touch {lo} mines, but it is drawn on the covered cell's base"
                    self._propose(gid, None, False, why, (Cell(lo), Cell.WRONG_FLAG))
                elif (twin := self._same_value_shape(gid, lo)) is not None:
                    self._propose(gid, Cell(lo), False, why + f"; but its glyph is not shaped like #{twin}'s")
                else:
                    self._propose(gid, Cell(lo), True, why)
                    self.pinned.add(gid)

    def _base_untold(self, gid: int) -> bool:
        """Whether a group's base says nothing of whether it is revealed: the covered and 0 groups are
        drawn on one base (rounded tiles with gaps, flat tiles with no rim: the ring is the page's or
        the tile's own), so a digit is drawn on the covered cell's base too. Trusted for groups of more
        than :data:`FEW` cells only: on fewer, a mark that happens to touch one count stays unsure."""
        zero, covered = self._group_of(Cell.ZERO), self._group_of(Cell.COVERED)
        return (
            zero is not None
            and covered is not None
            and self.base[zero] == self.base[covered]
            and self.groups[gid].count > FEW
        )

    def _touches_zero(self, gid: int) -> bool:
        """Whether a cell of the group touches a cell of the sure 0 group: a 0 opens every cell around
        it, so the group is revealed, whatever base its looks share (a mark on a covered cell never
        touches a 0)."""
        zero = self._group_of(Cell.ZERO)
        if zero is None or not self.proposals[zero].confident:
            return False
        return any(zero in nbrs for nbrs in self._neighbour_groups(gid))

    def _plain_unrevealed_or_zero(self, gid: int) -> bool:
        """Whether a group is plain and proposed covered or 0 (sure or not: which of the two is still
        open): either way no mine, so on a board where every mine shows it adds nothing to its
        neighbours' counts and must not widen their ranges."""
        p = self.proposals.get(gid)
        return (
            self.looks[gid].plain
            and p is not None
            and p.state in (Cell.COVERED, Cell.ZERO)
            and set(p.alternatives) <= {Cell.COVERED, Cell.ZERO}
        )

    def _distrust_few(self, pinned: set[int]) -> None:
        """Count-pinned groups of at most :data:`FEW` cells whose digit a larger sure group also has
        become unsure: a second look of a known digit adds nothing to play, and on so few cells it
        may be a mark that happens to touch that count (a crossed-out flag)."""
        for gid in pinned:
            p = self.proposals.get(gid)
            if p is None or not p.confident or p.state is None or not p.state.is_number():
                continue
            if self.groups[gid].count <= FEW and any(
                q.confident and q.state == p.state and self.groups[g].count > self.groups[gid].count
                for g, q in self.proposals.items()
            ):
                why = p.reason + f"; another look of {int(p.state)}, on too few cells to trust"
                self.proposals[gid] = Proposal(gid, p.state, False, why, (p.state, Cell.WRONG_FLAG))

    def _same_value_shape(self, gid: int, value: int) -> int | None:
        """A larger group already labelled ``value`` whose glyph is not shaped like this group's (a
        digit looks the same in every colour and light), or None. Keeps a cell that merely touches
        that count (a mark on an unrevealed cell) from becoming a look of the digit."""
        ink = ink_mask(self.groups[gid].image, None)
        for other, p in self.proposals.items():
            if (
                p.confident
                and p.state == Cell(value)
                and self.groups[other].count > self.groups[gid].count
                and mask_iou(ink, ink_mask(self.groups[other].image, None)) < SAME_DIGIT
            ):
                return other
        return None

    def _bounds(self, gid: int, exact: set[int], revealed: set[int]) -> tuple[int, int]:
        """The values a digit group can have by the counting rules: ``(lowest, highest)``.

        Every cell of a digit touches at least as many flags as its value says (flags are taken to
        be right: a lost board crosses the wrong ones out) and at most as many unrevealed cells. On
        a screenshot where every mine shows (in ``exact``: a lost or won board) it touches exactly
        its value in mines and flags. Neighbours not labelled yet (``revealed`` holds the other digit
        candidates) widen the range by one each.
        """
        state = {g: p.state for g, p in self.proposals.items()}
        mines = (Cell.MINE, Cell.EXPLODED, Cell.FLAG)
        lo, hi = 1, 8
        for shot in range(len(self.grids)):
            lower, upper = (mines, mines) if shot in exact else ((Cell.FLAG,), UNREVEALED)
            for nbrs in self._neighbour_groups(gid, {shot}):
                unknown = sum(1 for n in nbrs if n not in revealed and state.get(n) is None)
                shown = sum(1 for n in nbrs if state.get(n) in lower)
                unrevealed = sum(1 for n in nbrs if state.get(n) in upper)
                lo, hi = max(lo, shown), min(hi, unrevealed + unknown)
        return lo, hi

    def _digit_candidates(self) -> list[Group]:
        """Unlabelled glyph groups that may be digits: on the 0 cell's base, or (no 0 on the board)
        on any base but the covered cell's."""
        todo = [g for g in self.groups if g.id not in self.proposals]
        if self._image(Cell.ZERO) is not None:
            return [g for g in todo if self._on_zero_base(g)]
        covered = self._group_of(Cell.COVERED)
        off = self.base[covered] if covered is not None else None
        return [g for g in todo if not self.looks[g.id].plain and self.base[g.id] != off]

    def _digits(self) -> None:
        """Digits from the counting rules where they decide, else from the classic palette (see module)."""
        zero_img = self._image(Cell.ZERO)
        todo = self._digit_candidates()
        taken = {int(p.state) for p in self.proposals.values() if p.state is not None and p.state.is_number()}
        taken |= {int(c) for c in self.references if c.is_number()}
        digits = [d for d in range(1, 9) if d not in taken]
        if not todo or not digits:
            return
        exact = set(range(len(self.grids))) if self.won else self._shots_showing(Cell.EXPLODED)
        revealed = {g.id for g in todo}
        ranges = [self._bounds(g.id, exact, revealed) for g in todo]
        forced = self._forced_digits(todo, ranges, digits)
        colours = []
        for g in todo:
            colours.append(ink_colour(g.image, zero_img if zero_img is not None else self.looks[g.id].fill))
        for i, g in enumerate(todo):
            if forced[i] is not None:
                lo, hi = ranges[i]
                if lo != hi:
                    why = (
                        f"the counting rules leave only {forced[i]} (it touches {lo}-{hi} flags or "
                        "unrevealed cells; the other digit groups take the other values)"
                    )
                elif g.id in self._exact_groups(exact):
                    why = f"each of its cells touches exactly {lo} mines or flags"
                else:
                    why = f"its cells' flags and unrevealed neighbours allow only {lo}"
                if (twin := self._same_value_shape(g.id, forced[i])) is not None:
                    why += f"; but its glyph is not shaped like #{twin}'s"
                    self._propose(g.id, Cell(forced[i]), False, why, (Cell(forced[i]), Cell.WRONG_FLAG))
                    continue
                self._propose(g.id, Cell(forced[i]), True, why)
                self.pinned.add(g.id)
        classic = self._palette_confirmed(forced, colours, zero_img, todo)
        rest = [i for i in range(len(todo)) if forced[i] is None]
        free = [d for d in digits if d not in set(forced)]
        if not rest or not free:
            return
        cost = np.full((len(rest), len(free)), 1e6)
        for r, i in enumerate(rest):
            bg = describe(zero_img).fill if zero_img is not None else self.looks[todo[i].id].fill
            lo, hi = ranges[i]
            for k, d in enumerate(free):
                if lo <= d <= hi:
                    cost[r, k] = palette_cost(colours[i], bg, d)
        rows, cols = min_cost_assignment(cost)
        total = cost[rows, cols].sum()
        for r, k in zip(rows, cols, strict=True):
            i, d = rest[r], free[k]
            g, (lo, hi) = todo[i], ranges[i]
            if cost[r, k] >= 1e6:
                self._propose(g.id, None, False, "no digit fits both its colour and its neighbours")
                continue
            worse = cost.copy()
            worse[r, k] = 1e6
            r2, c2 = min_cost_assignment(worse)
            margin = worse[r2, c2].sum() - total
            alts = tuple(
                Cell(free[m]) for m in np.argsort(cost[r]) if m != k and cost[r, m] < cost[r, k] + 1.5
            )[:2]
            hex_colour = "#{:02x}{:02x}{:02x}".format(*[int(x) for x in colours[i][::-1]])
            sure = classic and margin >= SURE_MARGIN and cost[r, k] <= MAX_COST
            note = f"glyph colour {hex_colour}, touches {lo}-{hi} flags or unrevealed cells"
            if not classic:
                note += "; the colours are not known to be the classic palette"
            elif not sure:
                note += "; other digits fit nearly as well"
            self._propose(g.id, Cell(d), sure, note, alts)

    def _exact_groups(self, exact: set[int]) -> set[int]:
        """Groups with a cell on a screenshot where every mine shows."""
        return {int(gid) for k in exact for gid in np.unique(self.grids[k])}

    def _forced_digits(self, todo: list[Group], ranges: list[tuple[int, int]], digits: list[int]) -> list:
        """The digit the counting rules force on each candidate group, or None.

        A group whose own bounds meet (``lo == hi``) is that digit, whatever the others are. The
        others are forced when every assignment of distinct digits gives them the same one; that
        assumes one group per digit, so it is not trusted for a group with a look-alike among the
        candidates (one digit split in two groups by a fractional pitch).
        """
        own = [lo if lo == hi else None for lo, hi in ranges]
        feats = features(np.stack([g.image for g in todo]))
        twins = set()
        for i in range(len(todo)):
            for k in range(i + 1, len(todo)):
                if float(np.abs(feats[i] - feats[k]).mean()) <= TWIN_MEAN:
                    twins |= {i, k}
        rest = [i for i in range(len(todo)) if own[i] is None]
        free = [d for d in digits if d not in set(own)]
        by_matching = forced_values([[d for d in free if ranges[i][0] <= d <= ranges[i][1]] for i in rest])
        forced = list(own)
        if by_matching is not None:
            for i, d in zip(rest, by_matching, strict=True):
                if i not in twins:
                    forced[i] = d
        return forced

    def _palette_confirmed(
        self,
        forced: list[int | None] | None,
        colours: list[np.ndarray],
        zero_img: np.ndarray | None,
        todo: list[Group],
    ) -> bool:
        """Whether this client draws the classic digit colours: every digit the counting rules fixed
        fits its classic colour about as well as any other, and two digit groups fit the palette
        closely (a fixed digit, or a close colour match).

        Without that, a colour decides nothing for sure: a lone blue digit is a 1 in the classic
        palette and a 5 in winemine's.
        """
        # Digits labelled before (matched to a skin being updated) are evidence like the fixed ones.
        earlier = [
            (g, int(p.state))
            for g in self.groups
            if (p := self.proposals.get(g.id)) is not None
            and p.confident
            and p.state is not None
            and Cell.ONE <= p.state <= Cell.EIGHT
        ]
        ground = zero_img if zero_img is not None else None
        evidence = [(g, forced[i] if forced is not None else None, colours[i]) for i, g in enumerate(todo)]
        evidence += [
            (g, d, ink_colour(g.image, ground if ground is not None else self.looks[g.id].fill))
            for g, d in earlier
        ]
        good = 0
        for g, fixed, colour in evidence:
            bg = describe(zero_img).fill if zero_img is not None else self.looks[g.id].fill
            fits = {k: palette_cost(colour, bg, k) for k in range(1, 9)}
            best = min(fits.values())
            if fixed is not None and fits[fixed] > best + CLASSIC_FIT:
                return False
            good += fixed is not None or best <= CLASSIC_FIT
        return good >= min(2, len(evidence)) and (good >= 2 or any(d is not None for _, d, _ in evidence))
