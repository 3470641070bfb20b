"""Labels checked, and completed, by the reader that needs no skin (:mod:`bot.vision.generic`).

Calibration groups look-alike cells and labels each group from its looks and the board's counts
(:mod:`calibration.label`). The skinless reader names cells another way: by structure and glyph shape,
checked against the whole board's logic, and it refuses a screenshot rather than guess. Where it reads
a screenshot exactly, its states are a second, independent opinion on every group with cells there:

- a group the labeller is unsure of, whose read cells the reader names all alike, takes that state;
- a sure label the reader contradicts becomes unsure (one of the two is wrong: nothing is guessed);
- a group whose read cells the reader names differently is left unsure (it mixes states).

Except one case, where the two are not of equal weight: a label sure from one kind of evidence alone
(:attr:`Proposal.one_sided`: a red mark taken for a flag, a glyph on a red ground taken for a mine, a
glyph of no mine's shape that the counts' greedy fit took for shown mines) against the reader's exact
reading of every screenshot the group is on, when the reader names every cell of the group alike and
contradicts no other sure label on those screenshots. The reader's reading then holds by the board's
counts and agrees with the labeller everywhere else, so the two boards differ in this group only, and
the one that holds by the counts is taken (xbomb's bold red 3, overflowing its cell, is "a red mark on
the covered cell" to the looks and a 3 to the reader). A label the counts pinned (a digit's value, a
mine-shaped glyph they count) is never overruled this way.

First of all, though: where the skinless reader reads *every* screenshot exactly on its own (its grid, its
states, the board's logic holding; :func:`reader_truths`), its reading labels the cells outright, as a
true board given with ``--board`` does; the looks are then only grouped, not guessed at.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from bot.board import Cell
from bot.errors import MinebotError
from bot.geometry import Geometry
from bot.vision.generic import GenericModel, read_cells
from bot.vision.grid import find_grid
from calibration.model import Group, Proposal, Truth, state_key

LOGGER = logging.getLogger(__name__)


READER_SOURCE = "the skinless reader's exact reading"
"""What a :class:`Truth` from :func:`reader_truths` names as its source (in the labels' reasons)."""


def reader_truths(images: Sequence[tuple[str, np.ndarray]]) -> list[Truth] | None:
    """Every screenshot's board as the skinless reader reads it from scratch (``--skin generic``: its own
    grid, every cell named, the board's logic holding), with the grid it read at; None unless it reads
    every one of them exactly (a refusal anywhere leaves the labelling to the looks and the counts)."""
    from bot.vision.read import read_screen

    truths = []
    for name, image in images:
        try:
            reading = read_screen(image, "generic")
        except MinebotError as exc:
            LOGGER.info("%s: the skinless reader does not read it exactly: %s", name, exc)
            return None
        truths.append(Truth(reading.board, f"{READER_SOURCE} of {name}", geometry=reading.geometry))
    return truths


def read_shots(images: Sequence[np.ndarray], geometries: Sequence[Geometry]) -> list[np.ndarray | None]:
    """Each screenshot's cell states as the skinless reader reads them at the calibration's geometry, or
    at its own grid's (:func:`bot.vision.grid.find_grid`) when it refuses there and that grid has the same
    cells (:func:`same_cells`: a cut a pixel or two apart, as at a display scale, where the two finders
    may place a blended boundary differently); None where it refuses both (any cell unsure, or the
    board's logic broken)."""
    return [_read_shot(image, geometry) for image, geometry in zip(images, geometries, strict=True)]


def _read_shot(image: np.ndarray, geometry: Geometry) -> np.ndarray | None:
    try:
        return read_cells(image, geometry, GenericModel()).states.copy()
    except MinebotError as exc:
        LOGGER.info("skinless reader refuses a calibration shot: %s", exc)
    try:
        own = find_grid(image).geometry
    except MinebotError:
        return None
    if own == geometry or not same_cells(own, geometry):
        return None
    try:
        states = read_cells(image, own, GenericModel()).states.copy()
    except MinebotError as exc:
        LOGGER.info("skinless reader refuses a calibration shot at its own grid too: %s", exc)
        return None
    LOGGER.info("skinless reader reads the calibration shot at its own grid (%.2f, %.2f)", own.left, own.top)
    return states


def same_cells(a: Geometry, b: Geometry) -> bool:
    """Whether two grids cut one board into the same cells: the same rows and columns, each cell of one
    within a quarter of a cell of the same cell of the other, all over the board."""
    if (a.rows, a.cols) != (b.rows, b.cols):
        return False
    for start_a, start_b, pa, pb, n in (
        (a.left, b.left, a.pitch_x, b.pitch_x, a.cols),
        (a.top, b.top, a.pitch_y, b.pitch_y, a.rows),
    ):
        worst = max(abs(start_a - start_b), abs(start_a + n * pa - start_b - n * pb))
        if worst > 0.25 * min(pa, pb):
            return False
    return True


def group_states(group: Group, readings: Sequence[np.ndarray | None]) -> set[Cell]:
    """The states the reader gives the group's cells on the screenshots it read."""
    return {
        Cell(int(readings[m.shot][m.cell]))  # type: ignore[index]
        for m in group.members
        if readings[m.shot] is not None
    }


def reconcile(proposal: Proposal, states: set[Cell]) -> Proposal:
    """The proposal for one group given what the skinless reader named its cells (see module doc)."""
    if not states:
        return proposal
    if len(states) > 1:
        if not proposal.confident:
            return proposal
        names = ", ".join(sorted(state_key(s) for s in states))
        return Proposal(
            proposal.group,
            proposal.state,
            False,
            f"{proposal.reason}; but the skinless reader names its cells differently ({names})",
            tuple(s for s in states if s != proposal.state),
        )
    (state,) = states
    if proposal.confident and proposal.state == state:
        return proposal
    if proposal.confident:
        return Proposal(
            proposal.group,
            proposal.state,
            False,
            f"{proposal.reason}; but the skinless reader reads every cell of it as {state_key(state)}",
            (state,),
        )
    return Proposal(
        proposal.group,
        state,
        True,
        f"the skinless reader, reading the whole screenshot exactly, names every cell of it "
        f"{state_key(state)} (the looks alone were unsure: {proposal.reason})",
    )


def contradicted(group: Group, proposal: Proposal, readings: Sequence[np.ndarray | None]) -> bool:
    """Whether the reader names a read cell of a surely labelled group otherwise than its label."""
    return (
        proposal.confident
        and proposal.state is not None
        and any(
            readings[m.shot] is not None and int(readings[m.shot][m.cell]) != int(proposal.state)  # type: ignore[arg-type,index]
            for m in group.members
        )
    )


def overruled(
    group: Group,
    proposal: Proposal,
    readings: Sequence[np.ndarray | None],
    disputed: set[int],
    shots_of: dict[int, set[int]],
) -> Proposal | None:
    """The reader's state for a looks-only label it contradicts, when its reading settles the group
    (see the module doc: every cell of the group read, all alike, no other dispute on its screenshots)."""
    if not (proposal.confident and proposal.one_sided):
        return None
    shots = shots_of[group.id]
    if any(readings[k] is None for k in shots):
        return None
    states = group_states(group, readings)
    if len(states) != 1 or proposal.state in states:
        return None
    if any(shots & shots_of[gid] for gid in disputed - {group.id}):
        return None
    (state,) = states
    return Proposal(
        proposal.group,
        state,
        True,
        f"the skinless reader, reading every screenshot it is on exactly and agreeing with every other "
        f"sure label there, names every cell of it {state_key(state)} (the looks alone said "
        f"{state_key(proposal.state)}: {proposal.reason})",  # type: ignore[arg-type]
    )


def check_labels(
    groups: Sequence[Group], proposals: dict[int, Proposal], readings: Sequence[np.ndarray | None]
) -> dict[int, Proposal]:
    """Every group's proposal reconciled with the skinless reader's readings of the screenshots."""
    by_id = {g.id: g for g in groups}
    shots_of = {g.id: {m.shot for m in g.members} for g in groups}
    disputed = {gid for gid, p in proposals.items() if contradicted(by_id[gid], p, readings)}
    out = {}
    for gid, p in proposals.items():
        settled = overruled(by_id[gid], p, readings, disputed, shots_of) if gid in disputed else None
        out[gid] = settled or reconcile(p, group_states(by_id[gid], readings))
    return out
