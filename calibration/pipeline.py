"""The calibration run: screenshots in, grouped and labelled cells out, then a skin and its read-back.

:func:`analyse` finds each board (:mod:`calibration.grid`), cuts and groups its cells
(:mod:`calibration.cluster`) and proposes labels (:mod:`calibration.label`), checked and completed by
the skinless reader where it reads a screenshot exactly (:mod:`calibration.reader`); :func:`choose_templates`
turns the accepted labels into one template per state; :func:`read_back` re-reads the screenshots
with the written skin through :mod:`bot.vision` and reports the confidence margins.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bot.board import Board, Cell
from bot.capture import ReplayCapture
from bot.errors import BoardNotFoundError
from bot.geometry import Geometry
from bot.skin import Skin, load_skin
from calibration.cluster import Shot, align, cut_cells, group_shots, read_tiles
from calibration.grid import find_grid
from calibration.label import propose_labels
from calibration.model import CalibrationError, Group, Proposal, Truth, state_key
from calibration.reader import check_labels, read_shots, reader_truths, same_cells

LOGGER = logging.getLogger(__name__)


def load_images(path: str | Path) -> list[tuple[str, np.ndarray]]:
    """Every screenshot in a file, a folder (name order) or an animated GIF, named, as BGR.

    Read the way ``minebot dry-run`` and the replay capture read them (:class:`bot.capture.ReplayCapture`).

    Raises:
        CaptureError: naming a missing or unreadable file, or a folder with no images.
    """
    with ReplayCapture(path) as replay:
        single = replay.frame_count == 1 and not Path(path).is_dir()
        frames = [(str(path) if single else f"{path}: {replay.source}", replay.current())]
        while replay.frames_left:
            replay.advance()
            frames.append((f"{path}: {replay.source}", replay.current()))
    return frames


@dataclass
class Analysis:
    """Everything one calibration run found, before anything is written."""

    shots: list[Shot]
    images: list[np.ndarray]
    groups: list[Group]
    grids: list[np.ndarray]
    """Per shot, the group id of every cell."""
    proposals: dict[int, Proposal]
    size: int
    base: Skin | None = None

    def unsure(self) -> list[Proposal]:
        return [p for p in self.proposals.values() if not p.confident]

    def example(self, gid: int) -> str:
        """Where a group's first cell is, e.g. ``shot.png (3, 7)``."""
        m = self.groups[gid].members[0]
        return f"{self.shots[m.shot].name} {m.cell}"


def _locate(name: str, image: np.ndarray, truth: Truth | None) -> Geometry:
    """The board's geometry: found from the pixels; with a true board, checked against its shape (and
    taken from its ``# board:`` rectangle when the pixels give another shape). A reader's truth comes
    with the grid it was read at: calibration's own grid, refined to a fraction of a pixel for cutting
    templates, is kept when it cuts the same cells (:func:`calibration.reader.same_cells`), else the
    reader's."""
    try:
        found: Geometry | None = find_grid(image)
    except BoardNotFoundError as exc:
        if truth is None or (truth.region is None and truth.geometry is None):
            raise BoardNotFoundError(f"{name}: {exc}") from exc
        found = None
    if truth is not None and truth.geometry is not None:
        return found if found is not None and same_cells(found, truth.geometry) else truth.geometry
    if truth is None:
        assert found is not None
        return found
    rows, cols = truth.board.shape
    if found is not None and (found.rows, found.cols) == (rows, cols):
        return found
    if truth.region is not None:
        left, top, width, height = truth.region
        return Geometry(left, top, width / cols, height / rows, rows, cols)
    shape = f"{found.rows}x{found.cols}" if found is not None else "none"
    raise CalibrationError(
        f"{name}: the board found is {shape} cells but {truth.source} is {rows}x{cols}; "
        "add a '# board: X Y WIDTH HEIGHT' line (the cell grid's rectangle in pixels) to the board file"
    )


def analyse(
    images: list[tuple[str, np.ndarray]], base: Skin | None = None, truths: list[Truth] | None = None
) -> Analysis:
    """Find, cut, group and label the cells of every screenshot; ``base`` is a skin being updated;
    ``truths`` are the true boards of the screenshots (``--board``), which then give every label.

    Raises:
        BoardNotFoundError: naming the screenshot where no grid was found.
        CalibrationError: when updating and no cell looks like the existing skin, or the true boards
            do not fit the screenshots.
    """
    if not images:
        raise CalibrationError("no screenshots given")
    if truths is not None and len(truths) != len(images):
        raise CalibrationError(
            f"{len(truths)} --board file(s) for {len(images)} screenshot(s): give one board per screenshot"
        )
    if truths is None and base is None:
        truths = reader_truths(images)
    shots: list[Shot] = []
    size = base.cell_size if base is not None else 0
    for k, (name, image) in enumerate(images):
        geometry = _locate(name, image, truths[k] if truths is not None else None)
        if base is not None:
            geometry = align(image, geometry, base.cells)
        if not size:
            size = max(round(min(geometry.pitch_x, geometry.pitch_y)), 4)
        shots.append(Shot(name, geometry, cut_cells(image, geometry, size)))
    groups = group_shots(shots)
    if truths is not None:
        groups = split_by_truth(groups, shots, [t.board for t in truths])
    grids = [np.zeros(s.tiles.shape[:2], int) for s in shots]
    for g in groups:
        for m in g.members:
            grids[m.shot][m.cell] = g.id
    known: dict[int, Cell] = {}
    if base is not None and truths is None:
        reading = read_tiles(np.stack([g.image for g in groups])[None], base.cells)
        known = {g.id: Cell(int(v)) for g, v in zip(groups, reading.states[0], strict=True) if v >= 0}
        if not known:
            raise CalibrationError(f"no cell of these screenshots looks like skin {base.name!r}: wrong skin?")
    if truths is not None:
        proposals = truth_labels(groups, truths)
    else:
        proposals = propose_labels(groups, grids, known, base.cells if base is not None else None)
        readings = read_shots([img for _, img in images], [s.geometry for s in shots])
        proposals = check_labels(groups, proposals, readings)
    return Analysis(shots, [img for _, img in images], groups, grids, proposals, size, base)


def split_by_truth(groups: list[Group], shots: list[Shot], boards: list[Board]) -> list[Group]:
    """Look-alike groups split so each holds one true state (a group of two states cannot be one
    template), largest first, renumbered, each with the median image of its own cells."""
    for shot, board in zip(shots, boards, strict=True):
        if shot.tiles.shape[:2] != board.shape:
            raise CalibrationError(
                f"{shot.name}: board is {shot.tiles.shape[:2]}, its --board is {board.shape}"
            )
    parts: list[list] = []
    for g in groups:
        by_state: dict[int, list] = {}
        for m in g.members:
            by_state.setdefault(int(boards[m.shot].cells[m.cell]), []).append(m)
        parts.extend(by_state.values())
    parts.sort(key=lambda members: -len(members))
    out = []
    for i, members in enumerate(parts):
        tiles = np.stack([shots[m.shot].tiles[m.cell] for m in members])
        out.append(Group(i, np.median(tiles, axis=0).round().astype(np.uint8), members))
    return out


def truth_labels(groups: list[Group], truths: list[Truth]) -> dict[int, Proposal]:
    """Every group labelled with its cells' true state (one state per group after :func:`split_by_truth`)."""
    out = {}
    for g in groups:
        m = g.members[0]
        state = Cell(int(truths[m.shot].board.cells[m.cell]))
        out[g.id] = Proposal(g.id, state, True, f"given by {truths[m.shot].source}")
    return out


@dataclass
class Templates:
    """What a skin is written from: one template per state, further looks (variants) of some states,
    and notes on the choices."""

    cells: dict[Cell, np.ndarray]
    variants: dict[Cell, list[np.ndarray]]
    notes: list[str]


def choose(analysis: Analysis, answers: dict[int, Cell | None] | None = None) -> Templates:
    """One template per state from the accepted labels (``answers`` override proposals), the largest
    group's; every other look of that state (another group with that label, a lighter or darker shade
    of the largest group) becomes a variant. States the base skin already has keep its template."""
    answers = answers or {}
    cells: dict[Cell, np.ndarray] = dict(analysis.base.cells) if analysis.base is not None else {}
    variants: dict[Cell, list[np.ndarray]] = (
        {c: list(v) for c, v in analysis.base.variants.items()} if analysis.base is not None else {}
    )
    from_base = set(cells)
    chosen: dict[Cell, int] = {}
    notes = []
    for g in analysis.groups:
        state = answers.get(g.id, analysis.proposals[g.id].state)
        if state is None or state in from_base:
            continue
        if state in chosen:
            notes.append(f"group #{g.id} ({g.count} cells) is another look of {state_key(state)}: a variant")
            variants.setdefault(state, []).append(g.image)
        else:
            chosen[state] = g.id
            cells[state] = g.image
            variants.setdefault(state, []).extend(g.shades)
    return Templates(cells, {c: v for c, v in variants.items() if v}, notes)


def choose_templates(
    analysis: Analysis, answers: dict[int, Cell | None] | None = None
) -> tuple[dict[Cell, np.ndarray], list[str]]:
    """One template per state (see :func:`choose`), and notes; without the variants."""
    chosen = choose(analysis, answers)
    return chosen.cells, chosen.notes


@dataclass
class ReadBack:
    """How well the new skin reads one of the calibration screenshots through ``minebot``'s own path."""

    name: str
    min_margin: float
    median_margin: float
    uncertain: list[tuple[int, int]] = field(default_factory=list)
    disagree: list[tuple[int, int]] = field(default_factory=list)
    """Cells the skin reads differently from the label calibration gave their group."""
    error: str | None = None
    """Why :func:`bot.vision.read_screen` could not read the screenshot with the skin at all."""
    left_out: list[tuple[int, int]] = field(default_factory=list)
    """Cells of groups left out of the skin (unsure end-of-game looks), refused as they should be."""
    named_left_out: list[tuple[int, int]] = field(default_factory=list)
    """Cells of groups left out of the skin that the skin reads all the same, as a state their group was
    never thought to be: a look the skin lacks read as one it has, which it would read so in play."""

    @property
    def safe(self) -> bool:
        """Whether the bot would read this screenshot exactly as calibration labelled it."""
        return self.error is None and not self.uncertain and not self.disagree and not self.named_left_out


def read_back(
    analysis: Analysis, skin_folder: Path, answers: dict[int, Cell | None] | None = None
) -> list[ReadBack]:
    """Re-read every calibration screenshot with the written skin as play and ``dry-run`` do (find the
    board with the skin, then read every cell: :func:`bot.vision.find_board`, the first half of
    :func:`bot.vision.read_screen`) and compare with the labels. Cells of groups left out of the skin
    are expected to be refused (``left_out``), not counted against it."""
    from bot.errors import MinebotError
    from bot.vision import find_board

    skin = load_skin(skin_folder)
    answers = answers or {}
    results = []
    for k, (shot, image) in enumerate(zip(analysis.shots, analysis.images, strict=True)):
        try:
            location = find_board(image, skin)
        except MinebotError as exc:
            results.append(ReadBack(shot.name, 0.0, 0.0, error=str(exc)))
            continue
        found, mine = location.geometry, shot.geometry
        if (found.rows, found.cols) != (mine.rows, mine.cols) or max(
            abs(found.left - mine.left), abs(found.top - mine.top)
        ) > 0.5 * min(mine.pitch_x, mine.pitch_y):
            where = f"{found.rows}x{found.cols} at ({found.left:.0f}, {found.top:.0f})"
            ours = f"{mine.rows}x{mine.cols} at ({mine.left:.0f}, {mine.top:.0f})"
            results.append(
                ReadBack(shot.name, 0.0, 0.0, error=f"board read as {where}, calibrated as {ours}")
            )
            continue
        expect = np.vectorize(
            lambda gid: int(s) if (s := answers.get(gid, analysis.proposals[gid].state)) is not None else -1
        )(analysis.grids[k])
        cells = location.reading
        refused = cells.uncertain_mask()
        read = np.asarray(cells.states).astype(int)
        disagree = np.nonzero((expect >= 0) & ~refused & (expect != read))
        kept = ~(refused & (expect < 0))
        named = _named_left_out(analysis, analysis.grids[k], expect < 0, refused, read)
        confidence = cells.confidence[kept] if kept.any() else np.zeros(1)
        results.append(
            ReadBack(
                shot.name,
                float(confidence.min()),
                float(np.median(confidence)),
                [(int(r), int(c)) for r, c in zip(*np.nonzero(refused & (expect >= 0)), strict=True)],
                [(int(r), int(c)) for r, c in zip(*disagree, strict=True)],
                left_out=[(int(r), int(c)) for r, c in zip(*np.nonzero(refused & (expect < 0)), strict=True)],
                named_left_out=named,
            )
        )
    return results


def _named_left_out(
    analysis: Analysis, grid: np.ndarray, left: np.ndarray, refused: np.ndarray, read: np.ndarray
) -> list[tuple[int, int]]:
    """Cells of left-out groups (``left``) that the skin does not refuse but reads as a state other
    than the play state its group's proposal names: a look the skin lacks read as one it has, a guess
    it would make in play. A second look of the covered cell (a hover), proposed covered and read as
    covered, is no such cell; a look that may be a mine or the exploded one, read as either, is (the
    client's other lost boards show the other)."""
    out = []
    end = (Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG)
    for r, c in zip(*np.nonzero(left & ~refused), strict=True):
        p = analysis.proposals[int(grid[r, c])]
        if p.state is None or p.state in end or int(read[r, c]) != int(p.state):
            out.append((int(r), int(c)))
    return out
