"""One ``minebot calibrate`` run: sources, analysis, questions, the skin written, and its read-back."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from bot.board import Board, Cell
from bot.skin import Skin, find_skin, user_skin_dir
from calibration.appearance import FEW
from calibration.label import violations
from calibration.model import CalibrationError, Proposal, Truth
from calibration.pipeline import Analysis, ReadBack, analyse, choose, load_images, read_back
from calibration.sheet import contact_sheet
from calibration.sprites import DEFAULT_ORDER, read_sheet
from calibration.writer import missing_states, write_skin

LOGGER = logging.getLogger(__name__)

Asker = Callable[[Analysis, Path], dict[int, Cell | None]]
"""Asks a person about the unsure groups (given the contact sheet's path); returns their answers."""
RARE = ("7", "8")
END_STATES = (Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG)
"""States only an ended game shows: a skin without them still plays, and refuses such cells."""
LEAVABLE = (*END_STATES, Cell.FLAG)
"""States ``--yes`` may leave out of a skin when unsure: the end-of-game states, and the flag, which
play never needs to read (it flags nothing unless asked to); a skin without it refuses a flagged cell,
and the read-back checks that it refuses the left-out cells of its own screenshots."""


@dataclass
class CalibrateOptions:
    """What ``minebot calibrate`` was asked to do."""

    shots: list[str] = field(default_factory=list)
    name: str | None = None
    out: Path | None = None
    update: str | None = None
    rule: str = "safe"
    sprite_sheet: str | None = None
    cell_size: int | None = None
    layout: str = "msx"
    order: str = DEFAULT_ORDER
    live: bool = False
    play_to_learn: bool = False
    clicks: int = 12
    seed: int = 0
    boards: list[str] = field(default_factory=list)
    """Board text files giving the true cells of the screenshots, in order (``--board FILE``)."""


@dataclass
class CalibrateReport:
    """What a run did: where the skin went, the groups and their labels, what is missing, read-back."""

    name: str
    skin_path: Path
    contact_sheet: Path | None = None
    groups: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    readback: list[ReadBack] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    """Unsure groups not written (``--yes``): each one line, naming the group and why."""


def group_lines(analysis: Analysis) -> list[str]:
    """One line per group: id, size, where one of its cells is, and the proposal."""
    return [
        f"#{g.id:<3}{g.count:>5} cells, e.g. {analysis.example(g.id)}: {analysis.proposals[g.id].describe()}"
        for g in analysis.groups
    ]


def _target(options: CalibrateOptions) -> tuple[str, Path, Skin | None]:
    if options.update:
        base = find_skin(options.update)
        return options.name or base.name, options.out or base.path, base
    if not options.name:
        raise CalibrationError("give the new skin a name with --name NAME (or --update an existing skin)")
    if any(ch in options.name for ch in "/\\") or options.name in (".", ".."):
        raise CalibrationError(f"skin name {options.name!r} must be a plain folder name")
    return options.name, options.out or user_skin_dir() / options.name, None


def _history(folder: Path) -> list[str]:
    """The sources an existing skin was made from (its SOURCE.md list), to keep them when updating."""
    source = folder / "SOURCE.md"
    if not source.is_file():
        return []
    earlier = [line[2:].strip() for line in source.read_text().splitlines() if line.startswith("- `")]
    return [f"updated; earlier sources: {', '.join(earlier)}"] if earlier else ["updated"]


def calibrate(
    options: CalibrateOptions,
    ask: Asker | None = None,
    images: list[tuple[str, np.ndarray]] | None = None,
) -> CalibrateReport:
    """Make (or update) a skin as the options say; ``ask`` is None when nobody can answer questions.

    ``images`` are screenshots already in memory (the live screen); otherwise ``options.shots``
    are read from disk.

    Raises:
        CalibrationError: for bad options or files, or (with no ``ask``) groups it is unsure of.
        BoardNotFoundError: when a screenshot shows no grid.
    """
    name, folder, base = _target(options)
    if options.sprite_sheet:
        if options.cell_size is None:
            raise CalibrationError("--sprite-sheet needs --cell-size N (16 for a 100% Minesweeper X sheet)")
        tiles = read_sheet(options.sprite_sheet, options.cell_size, options.layout, options.order)
        write_skin(folder, name, tiles.cells, [options.sprite_sheet], options.rule, faces=tiles.faces)
        return CalibrateReport(name, folder, missing=missing_states(tiles.cells))
    if images is None:
        if not options.shots:
            raise CalibrationError("give at least one screenshot (or --live, or --sprite-sheet FILE)")
        images = [frame for shot in options.shots for frame in load_images(shot)]
    boards = [load_board(path) for path in options.boards]
    analysis = analyse(images, base, boards or None)
    folder.mkdir(parents=True, exist_ok=True)
    sheet_path = folder / "groups.png"
    cv2.imwrite(str(sheet_path), contact_sheet(analysis.groups, analysis.proposals))
    report = CalibrateReport(name, folder, sheet_path, group_lines(analysis))
    answers: dict[int, Cell | None] = {}
    unsure = analysis.unsure()
    if unsure and ask is None:
        if not any(p.state == Cell.COVERED for p in analysis.proposals.values()) and base is None:
            raise _no_covered()
        blocking = [p for p in unsure if not can_leave_out(p, analysis)]
        if blocking:
            listed = "; ".join(_describe(analysis, p) for p in blocking)
            raise CalibrationError(
                f"{len(blocking)} group(s) that play needs could not be labelled with confidence: "
                f"{listed}. See the contact sheet {sheet_path}; run in a terminal without --yes to "
                "label them, give the true board with --board FILE, or add a screenshot that shows "
                "more of the board"
            )
        answers = {p.group: None for p in unsure}
        report.left_out = [_describe(analysis, p) for p in unsure]
    if unsure and ask is not None:
        answers = ask(analysis, sheet_path)
    chosen = choose(analysis, answers)
    cells, notes = chosen.cells, chosen.notes
    if Cell.COVERED not in cells:
        raise _no_covered()
    if Cell.ZERO not in cells:
        raise _no_zero()
    final = {g.id: answers.get(g.id, analysis.proposals[g.id].state) for g in analysis.groups}
    if ask is None:
        _refuse_zero_beside_covered(analysis, final, sheet_path)
    for shot, grid in zip(analysis.shots, analysis.grids, strict=True):
        bad = violations(grid, final)
        if bad:
            notes.append(
                f"{shot.name}: {len(bad)} cell(s) break the counting rules with these labels, e.g. {bad[0]}"
            )
    notes = notes + (_history(folder) if base is not None else [])
    staging = folder.with_name(f".{folder.name}.calibrating")
    shutil.rmtree(staging, ignore_errors=True)
    if base is not None:
        shutil.copytree(folder, staging)
    try:
        write_skin(
            staging,
            name,
            cells,
            [n for n, _ in images],
            options.rule if base is None else base.first_click_rule.value,
            notes,
            faces=base.faces if base is not None else None,
            variants=chosen.variants,
        )
        report.readback = read_back(analysis, staging, answers)
        _refuse_lost_board(report.readback, sheet_path)
        shutil.copytree(staging, folder, dirs_exist_ok=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    report.missing = missing_states(cells)
    report.notes = notes
    return report


def _refuse_lost_board(readback: list[ReadBack], sheet_path: Path) -> None:
    """Refuse a skin that cannot find the board on a screenshot it was made from (no board, another
    size, or another place): it would not find the board in play either, so it is not written. Nor is
    one that reads a cell of a group it leaves out as a state that group was never thought to be
    (:attr:`ReadBack.named_left_out`): it would read that look so in play.

    Raises:
        CalibrationError: naming the screenshot and what the skin found there.
    """
    lost = [rb for rb in readback if rb.error is not None]
    if lost:
        raise CalibrationError(
            f"the skin made from these screenshots does not find the board on {lost[0].name} itself "
            f"({lost[0].error}), so it was not written; see the contact sheet {sheet_path}, give the true "
            "board with --board FILE, or add a screenshot of a game in progress"
        )
    named = [rb for rb in readback if rb.named_left_out]
    if named:
        raise CalibrationError(
            f"the skin made from these screenshots reads {len(named[0].named_left_out)} cell(s) of "
            f"{named[0].name} that it leaves out (unsure looks), e.g. {named[0].named_left_out[0]}, as a "
            f"state it has, so it would misread them: it was not written; see the contact sheet "
            f"{sheet_path}, run without --yes to label them, or give the true board with --board FILE"
        )


def _refuse_zero_beside_covered(analysis: Analysis, final: dict[int, Cell | None], sheet_path: Path) -> None:
    """Refuse labels that put a 0 beside a covered cell: a 0 opens every cell around it, so no game
    shows that, and a skin made so reads one look as the other (two looks joined in one group).

    Raises:
        CalibrationError: naming the screenshot and the cell.
    """
    for shot, grid in zip(analysis.shots, analysis.grids, strict=True):
        zero = np.isin(grid, [g for g, s in final.items() if s == Cell.ZERO])
        covered = np.pad(np.isin(grid, [g for g, s in final.items() if s == Cell.COVERED]), 1)
        rows, cols = grid.shape
        beside = np.zeros_like(zero)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                beside |= covered[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
        bad = np.argwhere(zero & beside)
        if len(bad):
            where = (int(bad[0][0]), int(bad[0][1]))
            raise CalibrationError(
                f"{shot.name}: the labels put a 0 beside a covered cell at {where}, which no game shows "
                f"(two looks joined in one group?), so no skin was written; see the contact sheet "
                f"{sheet_path}, run without --yes to label the groups, or give the true board with "
                "--board FILE"
            )


def _no_covered() -> CalibrationError:
    return CalibrationError(
        "these screenshots show no covered cell (a lost board on which the client opened every "
        "cell?), and play needs it: add a screenshot of a game in progress, e.g. "
        "minebot calibrate LOST.png OPENING.png"
    )


def _no_zero() -> CalibrationError:
    return CalibrationError(
        "these screenshots show no 0 cell (an opened cell with no number), and play needs it: a skin "
        "without it reads a 0 as the look nearest it, a covered cell in a low-contrast look, with "
        "confidence; add a screenshot that shows an opening, e.g. minebot calibrate LOST.png OPENING.png"
    )


def _describe(analysis: Analysis, p: Proposal) -> str:
    count, where = analysis.groups[p.group].count, analysis.example(p.group)
    return f"#{p.group} ({count} cells, e.g. {where}) {p.describe()}"


def can_leave_out(p: Proposal, analysis: Analysis) -> bool:
    """Whether ``--yes`` may leave an unsure group out of the skin: every state it may be is an
    end-of-game state (mine, exploded, wrong flag), the flag (:data:`LEAVABLE`), or a play state
    another group surely has (a second look of it); or a group of at most :data:`FEW` cells that may
    be an end-of-game look (a wrong flag touching a count that no sure digit group shows). Such cells
    are then refused when read, never guessed (the read-back refuses a skin that names them:
    :attr:`ReadBack.named_left_out`)."""
    options = ({p.state} if p.state is not None else set()) | set(p.alternatives)
    if not options:
        return False
    sure = {q.state for q in analysis.proposals.values() if q.confident and q.state is not None}
    if analysis.base is not None:
        sure |= set(analysis.base.cells)
    if all(state in LEAVABLE or state in sure for state in options):
        return True
    # a cell or two that may be an end-of-game look (a wrong flag that touches a count): the skin lacks
    # its look whichever it is, and the read-back checks that it refuses them
    return analysis.groups[p.group].count <= FEW and any(state in END_STATES for state in options)


def load_board(path: str | Path) -> Truth:
    """A board text file (``--board``): the board, and its rectangle from a ``# board: x y w h`` line.

    Raises:
        CalibrationError: when the file is missing or not a board.
    """
    import re

    from bot.errors import MinebotError

    try:
        text = Path(path).read_text(encoding="utf-8")
        board = Board.from_text(text)
    except OSError as exc:
        raise CalibrationError(f"--board {str(path)!r}: cannot read it ({exc.strerror})") from exc
    except MinebotError as exc:
        raise CalibrationError(f"--board {str(path)!r}: {exc}") from exc
    rect = re.search(r"^#\s*board:\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$", text, re.M)
    region = tuple(float(v) for v in rect.groups()) if rect else None
    return Truth(board, str(path), region)  # type: ignore[arg-type]


def rare_hint(missing: list[str], name: str) -> str | None:
    """What to tell the user about rare states that are still missing."""
    rare = [m for m in missing if m in RARE]
    if not rare:
        return None
    return (
        f"{' and '.join(rare)} {'is' if len(rare) == 1 else 'are'} rare on real boards; when a screenshot "
        f"shows {'it' if len(rare) == 1 else 'them'}, add {'it' if len(rare) == 1 else 'them'} with: "
        f"minebot calibrate SHOT.png --update {name}"
    )
