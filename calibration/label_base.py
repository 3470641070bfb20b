"""The labelling's shared state and helpers: groups, their bases and neighbours, the proposals so far."""

from __future__ import annotations

import cv2
import numpy as np

from bot.board import Cell, neighbour_table
from calibration.appearance import SAME_SHAPE, describe, ink_mask, mask_iou, red_fraction, same_base
from calibration.model import Group, Proposal


class LabelBase:
    """The groups of one calibration run, their bases and the proposals so far (:mod:`calibration.label`)."""

    def __init__(
        self,
        groups: list[Group],
        grids: list[np.ndarray],
        known: dict[int, Cell] | None = None,
        references: dict[Cell, np.ndarray] | None = None,
        preset: dict[int, Proposal] | None = None,
    ):
        self.groups = groups
        self.grids = grids
        """Per screenshot, the group id of every cell."""
        self.known = dict(known or {})
        self.references = dict(references or {})
        """Templates of a skin being updated: states no new group can be, and stand-ins for absent looks."""
        self.looks = {g.id: describe(g.image) for g in groups}
        self.won = False
        """Whether the board is won (every mine flagged), so flags count exactly like shown mines."""
        self.base = self._bases()
        self.proposals: dict[int, Proposal] = {
            gid: Proposal(gid, state, True, "matches the existing skin") for gid, state in self.known.items()
        }
        self.proposals.update(preset or {})
        self.counted: set[int] = set()
        """Groups the whole-board counts counted as mine-like (:meth:`DigitLabels._count_digits`), each a
        mine, the exploded mine or a flag, whether or not its label is sure."""
        self.found_mines: set[int] = set()
        """Groups the counts alone took for mines on a board where the looks found none
        (:meth:`calibration.label_digits.DigitLabels._shown_by_counts`)."""
        self.pinned: set[int] = set()
        """Groups the whole-board counts labelled as digits."""
        self.known.update({gid: p.state for gid, p in (preset or {}).items() if p.state is not None})

    def _bases(self) -> dict[int, int]:
        """Cluster groups by their ring: group id -> base id."""
        base: dict[int, int] = {}
        leaders: list[int] = []
        for g in self.groups:
            for leader in leaders:
                if same_base(self.looks[g.id], self.looks[leader]):
                    base[g.id] = base[leader]
                    break
            else:
                leaders.append(g.id)
                base[g.id] = len(leaders) - 1
        return base

    def _neighbour_groups(self, gid: int, shots: set[int] | None = None) -> list[list[int]]:
        """For every cell of group ``gid`` (on the screenshots ``shots``, default all), the groups of
        its neighbours."""
        out = []
        for k, grid in enumerate(self.grids):
            if shots is not None and k not in shots:
                continue
            rows, cols = grid.shape
            table = neighbour_table(rows, cols)
            flat = grid.ravel()
            for i in np.nonzero(flat == gid)[0]:
                out.append([int(flat[j]) for j in table[i]])
        return out

    def _closed(self, gid: int) -> float:
        """Fraction of the group's cells whose neighbours all share its base."""
        cells = self._neighbour_groups(gid)
        if not cells:
            return 0.0
        own = self.base[gid]
        return float(np.mean([all(self.base[n] == own for n in nbrs) for nbrs in cells]))

    def _propose(
        self,
        gid: int,
        state: Cell | None,
        sure: bool,
        reason: str,
        alts: tuple[Cell, ...] = (),
        one_sided: bool = False,
    ) -> None:
        if gid not in self.proposals:
            self.proposals[gid] = Proposal(gid, state, sure, reason, alts, one_sided)

    def _group_of(self, state: Cell) -> int | None:
        best = [gid for gid, p in self.proposals.items() if p.state == state]
        return min(best) if best else None

    def _image(self, state: Cell) -> np.ndarray | None:
        gid = self._group_of(state)
        if gid is not None:
            return self.groups[gid].image
        ref = self.references.get(state)
        if ref is None or not self.groups:
            return None
        size = self.groups[0].image.shape[0]
        return ref if ref.shape[0] == size else cv2.resize(ref, (size, size), interpolation=cv2.INTER_AREA)

    def _red_marks(self, off_base: int | None) -> list[int]:
        """Glyph groups with red ink on their own fill (flags, or a red digit), not on ``off_base``."""
        return [
            g.id
            for g in self.groups
            if not self.looks[g.id].plain
            and g.id not in self.proposals
            and self.base[g.id] != off_base
            and red_fraction(g.image, ink_mask(g.image, None)) >= 0.1
        ]

    def _shots_showing(self, *states: Cell) -> set[int]:
        """The screenshots with a cell of a group proposed as one of ``states``."""
        gids = [gid for gid, p in self.proposals.items() if p.state in states]
        return {k for k, grid in enumerate(self.grids) if np.isin(grid, gids).any()}

    def _exact_shots(self) -> set[int]:
        """The screenshots where every mine shows: all of them on a won board, else the lost ones."""
        return set(range(len(self.grids))) if self.won else self._shots_showing(Cell.EXPLODED, Cell.MINE)

    def _mine_like(self) -> set[int]:
        """Groups surely labelled as a mine, the exploded mine or a flag, and those the counts alone took
        for mines (:attr:`found_mines`, whichever of the three each is): what the counts count."""
        return {
            gid
            for gid, p in self.proposals.items()
            if p.confident and p.state in (Cell.MINE, Cell.EXPLODED, Cell.FLAG)
        } | self.found_mines

    def _mixed_counts(self) -> int:
        """Glyph groups whose cells do not all touch the same number of mines, exploded mines and flags.

        On a lost board each digit group has one such count (its value), so a labelling that mixes
        counts has a mine-like state wrong.
        """
        state = {g: p.state for g, p in self.proposals.items()}
        lost = self._shots_showing(Cell.EXPLODED, Cell.WRONG_FLAG)
        mixed = 0
        for g in self.groups:
            if g.id in self.proposals or self.looks[g.id].plain:
                continue
            counts = {
                sum(1 for n in nbrs if state.get(n) in (Cell.MINE, Cell.EXPLODED, Cell.FLAG))
                for nbrs in self._neighbour_groups(g.id, lost)
            }
            mixed += len(counts) > 1
        return mixed

    def _mine_shaped(self, gid: int, crossed: bool = True) -> bool:
        """Whether a group's glyph is the exploded or a shown mine's (overlap :data:`SAME_SHAPE`), or
        (``crossed``) about that shape with red on it (a wrong flag): never a digit, whatever its counts."""
        ink = ink_mask(self.groups[gid].image, None)
        red = crossed and red_fraction(self.groups[gid].image, ink) >= 0.1
        for state in (Cell.EXPLODED, Cell.MINE):
            ref = self._group_of(state)
            if ref is None:
                continue
            overlap = mask_iou(ink, ink_mask(self.groups[ref].image, None))
            if overlap >= SAME_SHAPE or (red and overlap >= 0.45):
                return True
        return False

    def _on_zero_base(self, g: Group) -> bool:
        """Whether a group is drawn on the revealed (0) cell's rim."""
        zero = self._group_of(Cell.ZERO)
        if zero is not None:
            return self.base[g.id] == self.base[zero]
        ref = self._image(Cell.ZERO)
        return ref is not None and same_base(self.looks[g.id], describe(ref))
