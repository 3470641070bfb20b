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

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from bot.board import Cell, neighbour_table
from bot.vision.describe import LUMA
from bot.vision.tilekinds import KIND_RAMP
from calibration.cluster import features, is_plain, ring_width
from calibration.counts import choose_mines, group_counts, pinned_values
from calibration.model import Group, Proposal

LOGGER = logging.getLogger(__name__)


def min_cost_assignment(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of a cheapest one-to-one assignment (as many pairs as the smaller side).

    Exact dynamic programming over subsets of the smaller side: digit groups against digits are at most
    9 x 9, so 2**9 states suffice and no optimisation library is needed.
    """
    cost = np.asarray(cost, dtype=float)
    if cost.shape[0] > cost.shape[1]:
        cols, rows = min_cost_assignment(cost.T)
        order = np.argsort(rows, kind="stable")
        return rows[order], cols[order]
    n_rows, n_cols = cost.shape
    # best[mask] = (cost, choice) after assigning the first popcount(mask)... rows, mask = columns used
    best: dict[int, float] = {0: 0.0}
    back: dict[tuple[int, int], int] = {}
    for r in range(n_rows):
        nxt: dict[int, float] = {}
        for mask, total in best.items():
            for c in range(n_cols):
                if mask >> c & 1:
                    continue
                m2, t2 = mask | 1 << c, total + cost[r, c]
                if t2 < nxt.get(m2, float("inf")):
                    nxt[m2] = t2
                    back[(r, m2)] = c
        best = nxt
    mask = min(best, key=best.__getitem__) if best else 0
    cols_out = []
    for r in range(n_rows - 1, -1, -1):
        c = back[(r, mask)]
        cols_out.append(c)
        mask &= ~(1 << c)
    return np.arange(n_rows), np.array(cols_out[::-1], dtype=int)


RING_SAME = 25.0
"""Largest median ring difference (0-255, per pixel in its most different channel) between groups of one
base. Per pixel, not per value: green and black rings agree in two channels of three."""
INK_DIFF = 30.0
"""A pixel is ink when it differs this much (mean over channels) from its base."""
SURE_MARGIN = 0.6
"""A digit assignment is sure when every other assignment costs at least this much more."""
MAX_COST = 1.6
"""... and its own cost is at most this."""
TWIN_MEAN = 20.0
"""Digit groups closer than this (mean colour difference, 0-255) may be one digit split in two."""
CLASSIC_FIT = 0.3
"""A glyph colour this close to a classic digit colour (or to the best fit, for a digit the counts fixed)
counts towards the palette being classic."""

# (hue in degrees or None for grey, lightness prior 0-255 for coloured / contrast prior 0-1 for grey)
DIGIT_PRIORS: dict[int, tuple[float | None, float]] = {
    1: (240.0, 255.0),
    2: (120.0, 128.0),
    3: (0.0, 255.0),
    4: (240.0, 128.0),
    5: (0.0, 128.0),
    6: (180.0, 128.0),
    7: (None, 0.75),
    8: (None, 0.3),
}
SAME_SHAPE = 0.7
"""Glyph masks overlapping this much (intersection over union) are one shape; a bold digit overlaps a
mine's blob by up to about 0.5."""
EXPLAINED = 0.9
"""The mine-like groups found explain a lost board when this share of its other glyph cells are in groups
whose cells all touch one (non-zero) count; only then do counts tell 0 from covered."""
ALL_ZERO = 0.95
"""A plain group is 0 by the counts when this share of its cells touch no mine on a lost board (a
stray cell of another state may fall in its group); covered cells of a lost board touch mines far
more often."""
FEW = 2
"""A second look of a known digit on at most this many cells is not trusted (left out by --yes)."""
SAME_DIGIT = 0.4
"""Two looks of one digit overlap at least this much in glyph shape (intersection over union)."""
UNREVEALED = {Cell.COVERED, Cell.FLAG, Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG}


@dataclass
class Look:
    """What a group's pixels say: its ring, whether it is plain, its fill colour."""

    ring: np.ndarray
    inner: np.ndarray
    plain: bool
    fill: np.ndarray
    shading: np.ndarray
    """The ring's lightness change across half the cell, ``(along x, down y)`` (:func:`ring_shading`)."""


def describe(image: np.ndarray) -> Look:
    """Ring pixels, inner pixels, plainness and fill colour of a group image."""
    img = image.astype(np.float32)
    s = img.shape[0]
    w = ring_width(s)
    mask = np.ones((s, s), bool)
    mask[w:-w, w:-w] = False
    inner = img[w:-w, w:-w]
    plain = is_plain(img)
    band = np.ones(inner.shape[:2], bool)
    band[2:-2, 2:-2] = False  # just inside the ring: the cell's own background behind any glyph
    return Look(img[mask], inner, plain, np.median(inner[band], axis=0), ring_shading(img, mask))


def ring_shading(img: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """How a cell's ring is shaded: the lightness change of a plane fitted to its ring pixels, across half
    the cell (the units of :func:`bot.vision.generic.ramp_slope`), ``(along x, down y)``.

    Pixels far from the ring's median (a grid line, a glyph reaching into the ring) are left out, so a
    glossy tile's slope shows and a flat one's is about 0.
    """
    s = img.shape[0]
    yy, xx = np.nonzero(mask)
    light = img[mask] @ LUMA
    keep = np.abs(light - np.median(light)) <= INK_DIFF
    if keep.sum() < 3:
        return np.zeros(2)
    design = np.stack([np.ones(keep.sum()), xx[keep] / s, yy[keep] / s], axis=1)
    coef, *_ = np.linalg.lstsq(design, light[keep], rcond=None)
    return coef[1:] / 2


def same_base(a: Look, b: Look) -> bool:
    """Whether two group looks are drawn on one base: their rings alike in colour and in shading (a
    glossy covered tile and a flat revealed cell of its mean grey are two bases)."""
    return (
        ring_difference(a.ring, b.ring) <= RING_SAME
        and float(np.linalg.norm(a.shading - b.shading)) <= KIND_RAMP
    )


def ring_difference(a: np.ndarray, b: np.ndarray) -> float:
    """Median over ring pixels of their difference in the most different colour channel."""
    return float(np.median(np.abs(a - b).max(axis=1)))


def _hsv(bgr: np.ndarray) -> tuple[float, float, float]:
    """Hue in degrees, chroma and value (0-255) of one BGR colour."""
    b, g, r = (float(x) for x in bgr)
    hi, lo = max(r, g, b), min(r, g, b)
    chroma = hi - lo
    if chroma < 1e-6:
        return 0.0, 0.0, hi
    if hi == r:
        hue = ((g - b) / chroma) % 6
    elif hi == g:
        hue = (b - r) / chroma + 2
    else:
        hue = (r - g) / chroma + 4
    return 60.0 * hue, chroma, hi


def ink_mask(image: np.ndarray, base: np.ndarray | None) -> np.ndarray:
    """Inner pixels that differ from the base image (or from the inner median colour) by a glyph's worth."""
    img = image.astype(np.float32)
    s = img.shape[0]
    w = ring_width(s)
    ref = base.astype(np.float32) if base is not None else describe(image).fill
    diff = np.abs(img - ref).mean(axis=2)
    mask = diff > INK_DIFF
    mask[:w] = mask[-w:] = False
    mask[:, :w] = mask[:, -w:] = False
    return mask


def ink_colour(image: np.ndarray, base: np.ndarray) -> np.ndarray:
    """The glyph's colour: the mean of the half of its ink pixels that differ most from the base."""
    img = image.astype(np.float32)
    diff = np.abs(img - base.astype(np.float32)).mean(axis=2)
    mask = ink_mask(image, base)
    if not mask.any():
        return np.median(img.reshape(-1, 3), axis=0)
    strongest = diff[mask] >= np.median(diff[mask])
    return img[mask][strongest].mean(axis=0)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    union = (a | b).sum()
    return float((a & b).sum() / union) if union else 0.0


def _is_red(bgr: np.ndarray) -> bool:
    hue, chroma, _ = _hsv(bgr)
    return chroma > 80 and (hue < 25 or hue > 335)


def _red_fraction(image: np.ndarray, mask: np.ndarray) -> float:
    if not mask.any():
        return 0.0
    pixels = image[mask].astype(np.float32)
    red = (pixels[:, 2] > pixels[:, 1] + 70) & (pixels[:, 2] > pixels[:, 0] + 70)
    return float(red.mean())


class Labeller:
    """Proposes a state for every group of one calibration run (see the module docstring)."""

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
        self.pinned: set[int] = set()
        """Groups the whole-board counts labelled as digits."""
        self.known.update({gid: p.state for gid, p in (preset or {}).items() if p.state is not None})

    # -- helpers ------------------------------------------------------------------------------

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

    # -- the steps ------------------------------------------------------------------------------

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

    def _red_marks(self, off_base: int | None) -> list[int]:
        """Glyph groups with red ink on their own fill (flags, or a red digit), not on ``off_base``."""
        return [
            g.id
            for g in self.groups
            if not self.looks[g.id].plain
            and g.id not in self.proposals
            and self.base[g.id] != off_base
            and _red_fraction(g.image, ink_mask(g.image, None)) >= 0.1
        ]

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

    def _image(self, state: Cell) -> np.ndarray | None:
        gid = self._group_of(state)
        if gid is not None:
            return self.groups[gid].image
        ref = self.references.get(state)
        if ref is None or not self.groups:
            return None
        size = self.groups[0].image.shape[0]
        return ref if ref.shape[0] == size else cv2.resize(ref, (size, size), interpolation=cv2.INTER_AREA)

    def _on_zero_base(self, g: Group) -> bool:
        """Whether a group is drawn on the revealed (0) cell's rim."""
        zero = self._group_of(Cell.ZERO)
        if zero is not None:
            return self.base[g.id] == self.base[zero]
        ref = self._image(Cell.ZERO)
        return ref is not None and same_base(self.looks[g.id], describe(ref))

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
        flags.sort(key=lambda g: -_red_fraction(g.image, ink_mask(g.image, cov_img)))
        for i, g in enumerate(flags):
            red = _red_fraction(g.image, ink_mask(g.image, cov_img))
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
            return _red_fraction(g.image, band)

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
            iou = _iou(dark_ink, shape) if np.abs(colour - mine_colour).mean() < 60 else 0.0
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

    def _shots_showing(self, *states: Cell) -> set[int]:
        """The screenshots with a cell of a group proposed as one of ``states``."""
        gids = [gid for gid, p in self.proposals.items() if p.state in states]
        return {k for k, grid in enumerate(self.grids) if np.isin(grid, gids).any()}

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

    def _exact_shots(self) -> set[int]:
        """The screenshots where every mine shows: all of them on a won board, else the lost ones."""
        return set(range(len(self.grids))) if self.won else self._shots_showing(Cell.EXPLODED, Cell.MINE)

    def _mine_like(self) -> set[int]:
        """Groups surely labelled as a mine, the exploded mine or a flag: what the counts count."""
        return {
            gid
            for gid, p in self.proposals.items()
            if p.confident and p.state in (Cell.MINE, Cell.EXPLODED, Cell.FLAG)
        }

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
        mines = choose_mines(self.grids, exact, shown, todo, revealed)
        covered = self._group_of(Cell.COVERED)
        counted: int | None = None  # the largest group taken for shown mines by the counts alone
        for gid in sorted(todo, key=lambda g: -self.groups[g].count):
            if gid not in mines:
                continue
            if self._mine_shaped(gid, crossed=False):
                self._propose(gid, Cell.MINE, True, "shaped like a mine, and the counts count it")
            elif covered is not None and self.base[gid] == self.base[covered]:
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
                if covered is not None and self.base[gid] == self.base[covered]:
                    why = f"its cells touch {lo} mines, but it is drawn on the covered cell's base"
                    self._propose(gid, None, False, why, (Cell(lo), Cell.WRONG_FLAG))
                elif (twin := self._same_value_shape(gid, lo)) is not None:
                    self._propose(gid, Cell(lo), False, why + f"; but its glyph is not shaped like #{twin}'s")
                else:
                    self._propose(gid, Cell(lo), True, why)
                    self.pinned.add(gid)

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
                and _iou(ink, ink_mask(self.groups[other].image, None)) < SAME_DIGIT
            ):
                return other
        return None

    def _mine_shaped(self, gid: int, crossed: bool = True) -> bool:
        """Whether a group's glyph is the exploded or a shown mine's (overlap :data:`SAME_SHAPE`), or
        (``crossed``) about that shape with red on it (a wrong flag): never a digit, whatever its counts."""
        ink = ink_mask(self.groups[gid].image, None)
        red = crossed and _red_fraction(self.groups[gid].image, ink) >= 0.1
        for state in (Cell.EXPLODED, Cell.MINE):
            ref = self._group_of(state)
            if ref is None:
                continue
            overlap = _iou(ink, ink_mask(self.groups[ref].image, None))
            if overlap >= SAME_SHAPE or (red and overlap >= 0.45):
                return True
        return False

    def _zero_shares(self) -> dict[int, float]:
        """For every plain group with a cell on a screenshot where every mine shows, the share of those
        cells that touch no mine (1 for a 0; well under 1 for covered cells on a lost board). Empty
        when the mines found do not explain the numbers (:data:`EXPLAINED`)."""
        exact, mines = self._exact_shots(), self._mine_like()
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
        mine anywhere and the covered group does."""
        zero, covered = self._group_of(Cell.ZERO), self._group_of(Cell.COVERED)
        exact = self._exact_shots()
        mines = self._mine_like()
        if zero is None or covered is None or not exact or not mines:
            return
        per = group_counts(self.grids, exact, mines)
        share = self._zero_shares()
        if share.get(zero, 0.0) >= ALL_ZERO > share.get(covered, 1.0):
            for gid in (zero, covered):
                p = self.proposals[gid]
                if not p.confident:
                    reason = (
                        p.reason + "; the counts confirm it (no 0 cell touches a mine, a covered one does)"
                    )
                    self.proposals[gid] = Proposal(gid, p.state, True, reason, p.alternatives)
        for g in self.groups:  # other plain looks whose cells touch different counts are unrevealed
            p = self.proposals.get(g.id)
            if (
                p is not None
                and not p.confident
                and p.state == Cell.COVERED
                and g.id in per
                and len(per[g.id].counts) > 1
            ):
                reason = p.reason + "; its cells touch different counts of mines, so it is not revealed"
                self.proposals[g.id] = Proposal(g.id, Cell.COVERED, True, reason)

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
                    cost[r, k] = _palette_cost(colours[i], bg, d)
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
        by_matching = _forced([[d for d in free if ranges[i][0] <= d <= ranges[i][1]] for i in rest])
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
            fits = {k: _palette_cost(colour, bg, k) for k in range(1, 9)}
            best = min(fits.values())
            if fixed is not None and fits[fixed] > best + CLASSIC_FIT:
                return False
            good += fixed is not None or best <= CLASSIC_FIT
        return good >= min(2, len(evidence)) and (good >= 2 or any(d is not None for _, d, _ in evidence))


def _palette_cost(colour: np.ndarray, background: np.ndarray, digit: int) -> float:
    """How far a glyph colour is from the classic palette's colour for ``digit`` (0 is a perfect fit)."""
    hue, chroma, value = _hsv(colour)
    proto_hue, proto = DIGIT_PRIORS[digit]
    if proto_hue is None:
        contrast = abs(value - _hsv(background)[2]) / 255
        return (2.5 if chroma > 60 else 0.0) + abs(contrast - proto) * 2
    if chroma <= 60:
        return 2.5
    dh = abs((hue - proto_hue + 180) % 360 - 180)
    return dh / 40 + abs(value - proto) / 160


MAX_MATCHINGS = 200_000
"""Digit assignments enumerated at most (8 groups over 8 digits is 40,320)."""


def _forced(allowed: list[list[int]]) -> list[int | None] | None:
    """For groups that each take a different digit from their ``allowed`` list: the digit each group
    takes in every possible assignment (None where assignments differ); None when none is possible."""
    seen: list[set[int]] = [set() for _ in allowed]
    order = sorted(range(len(allowed)), key=lambda k: len(allowed[k]))
    chosen: dict[int, int] = {}
    count = 0

    def walk(k: int) -> None:
        nonlocal count
        if count > MAX_MATCHINGS:
            return
        if k == len(order):
            count += 1
            for g, d in chosen.items():
                seen[g].add(d)
            return
        g = order[k]
        used = set(chosen.values())
        for d in allowed[g]:
            if d not in used:
                chosen[g] = d
                walk(k + 1)
                del chosen[g]

    walk(0)
    if count == 0 or count > MAX_MATCHINGS:
        return None
    return [next(iter(values)) if len(values) == 1 else None for values in seen]


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


def contact_sheet(groups: list[Group], proposals: dict[int, Proposal], zoom: int = 4) -> np.ndarray:
    """One image of every group, enlarged, with its id, size and proposed label under it."""
    tiles = []
    for g in groups:
        p = proposals[g.id]
        big = cv2.resize(g.image, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_NEAREST)
        s = big.shape[0]
        card = np.full((s + 44, max(s, 120) + 8, 3), 255, np.uint8)
        card[4 : 4 + s, 4 : 4 + s] = big
        label = "?" if p.state is None else Cell(p.state).char if p.state != Cell.ZERO else "0"
        colour = (0, 128, 0) if p.confident else (0, 0, 200)
        text1 = f"#{g.id} x{g.count}"
        text2 = f"-> {label}" + ("" if p.confident else " ?")
        cv2.putText(card, text1, (4, s + 20), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
        cv2.putText(card, text2, (4, s + 38), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
        tiles.append(card)
    height = max(t.shape[0] for t in tiles)
    width = max(t.shape[1] for t in tiles)
    per_row = 8
    rows = (len(tiles) + per_row - 1) // per_row
    sheet = np.full((rows * height, per_row * width, 3), 255, np.uint8)
    for k, t in enumerate(tiles):
        r, c = divmod(k, per_row)
        sheet[r * height : r * height + t.shape[0], c * width : c * width + t.shape[1]] = t
    return sheet
