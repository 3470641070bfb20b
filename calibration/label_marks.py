"""Flags, the exploded mine, shown mines and wrong flags, from red marks and the exploded mine's shape."""

from __future__ import annotations

import numpy as np

from bot.board import Cell
from calibration.appearance import ink_mask, mask_iou, red_fraction
from calibration.cluster import ring_width
from calibration.label_base import LabelBase
from calibration.model import Group, Proposal


class MarkLabels(LabelBase):
    """Flags, the exploded mine, shown mines and wrong flags, from red marks and the exploded mine's shape."""

    def _glyphs(self) -> None:
        """Flags on the covered base; exploded, mines and wrong flags from the exploded mine's shape."""
        covered = self._group_of(Cell.COVERED)
        cov_img = self._image(Cell.COVERED)
        todo = [g for g in self.groups if g.id not in self.proposals]
        zero = self._group_of(Cell.ZERO)
        if covered is not None:
            flags = [g for g in todo if self.base[g.id] == self.base[covered]]
        elif self.won and zero is not None:
            flags = [self.groups[gid] for gid in self._red_marks(self.base[zero])]
        else:
            flags = []
        flags.sort(key=lambda g: -red_fraction(g.image, ink_mask(g.image, cov_img)))
        for i, g in enumerate(flags):
            red = red_fraction(g.image, ink_mask(g.image, cov_img))
            if i == 0 and red >= 0.1 and self._group_of(Cell.FLAG) is None:
                why = f"a red mark on the covered cell ({red:.0%} of it red)"
                self._propose(g.id, Cell.FLAG, True, why, one_sided=True)
            else:
                self._propose(g.id, None, False, "a mark on the covered cell that is not a red flag (a '?')")
        exploded = self._group_of(Cell.EXPLODED)

        def red_ground(g: Group) -> float:
            # The share of the cell's background (the band inside its rim) that is red.
            band = np.ones(g.image.shape[:2], bool)
            w = ring_width(g.image.shape[0])
            band[w + 2 : -w - 2, w + 2 : -w - 2] = False
            band[: w // 2, :] = band[-(w // 2) :, :] = band[:, : w // 2] = band[:, -(w // 2) :] = False
            return red_fraction(g.image, band)

        red = [(red_ground(g), g) for g in todo if g.id not in self.proposals]
        red = [(f, g) for f, g in red if f >= 0.5]
        # One mine is clicked per game: a red-ground look on more cells than there are screenshots
        # is the shown mines drawn on red (every mine of a lost board), not the exploded one.
        single = [(f, g) for f, g in red if g.count <= len({m.shot for m in g.members})]
        if exploded is None and single:
            share, g = max(single, key=lambda t: t[0])
            exploded = g.id
            why = f"a glyph on a red cell ({share:.0%} of its background red): the mine that was clicked"
            self._propose(exploded, Cell.EXPLODED, True, why, one_sided=True)
        elif exploded is None and red and self._group_of(Cell.MINE) is None:
            share, g = max(red, key=lambda t: t[1].count)
            why = f"a glyph on a red cell on {g.count} cells, too many to be the one clicked: the shown mines"
            self._propose(g.id, Cell.MINE, True, why, one_sided=True)
        shape_ref = exploded if exploded is not None else self._group_of(Cell.MINE)
        if shape_ref is None:
            return
        ex_img = self.groups[shape_ref].image
        shape = ink_mask(ex_img, None)
        mine_colour = ex_img[shape].astype(np.float32).mean(axis=0) if shape.any() else np.zeros(3)
        zero_img = self._image(Cell.ZERO)
        scored = []
        for g in todo:
            if g.id in self.proposals:
                continue
            # Against the 0 cell where the group has its rim; else against its own fill (winemine
            # draws shown mines on the covered cell).
            ink = ink_mask(g.image, zero_img if zero_img is not None and self._on_zero_base(g) else None)
            pixels = g.image[ink].astype(np.float32)
            red = (pixels[:, 2] > pixels[:, 1] + 70) & (pixels[:, 2] > pixels[:, 0] + 70)
            dark_ink = ink.copy()
            dark_ink[ink] = ~red
            colour = g.image[dark_ink].astype(np.float32).mean(axis=0) if dark_ink.any() else np.full(3, 1e3)
            iou = mask_iou(dark_ink, shape) if np.abs(colour - mine_colour).mean() < 60 else 0.0
            scored.append((iou, red, g))
        for iou, red, g in sorted(scored, key=lambda t: -t[0]):
            if iou >= 0.45 and not red.any() and self._group_of(Cell.MINE) is None:
                why = f"shaped like the exploded mine (overlap {iou:.2f})"
                self._propose(g.id, Cell.MINE, True, why, one_sided=True)
        mine = self._image(Cell.MINE)
        if mine is None or self._group_of(Cell.WRONG_FLAG) is not None:
            return
        # A wrong flag is the shown mine with a red cross over it: off the red, it is the mine.
        crossed = []
        for _, red, g in scored:
            if g.id in self.proposals or not len(red) or red.mean() < 0.05:
                continue
            redmask = (g.image[:, :, 2].astype(int) > g.image[:, :, 1].astype(int) + 70) & (
                g.image[:, :, 2].astype(int) > g.image[:, :, 0].astype(int) + 70
            )
            rest = np.abs(g.image.astype(np.float32) - mine.astype(np.float32)).mean(axis=2)[~redmask]
            crossed.append((float(rest.mean()), g))
        if crossed:
            diff, g = min(crossed, key=lambda t: t[0])
            if diff < 25:
                why = f"the shown mine crossed in red (off the red, {diff:.0f} apart)"
                self._propose(g.id, Cell.WRONG_FLAG, True, why, one_sided=True)

    def _settle_exploded(self) -> None:
        """Swap the exploded mine and the wrong flag when the swap makes the digits' counts agree."""
        exploded, wrong = self._group_of(Cell.EXPLODED), self._group_of(Cell.WRONG_FLAG)
        if exploded is None or wrong is None or {exploded, wrong} & set(self.known):
            return
        before = self._mixed_counts()
        e, w = self.proposals[exploded], self.proposals[wrong]
        self.proposals[exploded] = Proposal(
            exploded, Cell.WRONG_FLAG, True, "counts around it: the wrong flag"
        )
        self.proposals[wrong] = Proposal(wrong, Cell.EXPLODED, True, "counts around it: the exploded mine")
        after = self._mixed_counts()
        if after >= before:
            self.proposals[exploded], self.proposals[wrong] = e, w
            if after == before and before > 0:
                for gid, p in ((exploded, e), (wrong, w)):
                    self.proposals[gid] = Proposal(
                        gid, p.state, False, p.reason + "; the counts do not confirm it"
                    )
