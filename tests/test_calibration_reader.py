"""The skinless reader's readings checked against the labeller's: who settles a disagreement, and when."""

from __future__ import annotations

import numpy as np
import pytest

from bot.board import Cell
from calibration.model import Group, Member, Proposal
from calibration.reader import check_labels

RED_MARK = "a red mark on the covered cell (74% of it red)"


def _groups(grid: np.ndarray, shots: int = 1) -> list[Group]:
    """One group per id in ``grid`` (the same grid on each of ``shots`` screenshots)."""
    out = []
    for gid in range(int(grid.max()) + 1):
        members = [Member(k, (int(r), int(c))) for k in range(shots) for r, c in np.argwhere(grid == gid)]
        out.append(Group(gid, np.zeros((4, 4, 3), np.uint8), members))
    return out


# A 3x3 shot: covered (0) around, 1s (1), the centre (2) a bold red 3 the looks take for a flag.
GRID = np.array([[0, 0, 0], [1, 2, 1], [1, 1, 1]])
READ = np.array([[9, 9, 9], [1, 3, 1], [1, 1, 1]], np.int16)


def _proposals(centre: Proposal, ones: Cell = Cell.ONE) -> dict[int, Proposal]:
    return {
        0: Proposal(0, Cell.COVERED, True, "the most common plain cell"),
        1: Proposal(1, ones, True, "the counts"),
        2: centre,
    }


def test_the_reader_settles_a_label_the_looks_alone_made_sure():
    """The reader reads the whole shot exactly, agrees with every other sure label, and names the
    group's only cell 3: the looks-only flag gives way, sure, and says why."""
    flag = Proposal(2, Cell.FLAG, True, RED_MARK, one_sided=True)
    out = check_labels(_groups(GRID), _proposals(flag), [READ])
    assert out[2].confident and out[2].state == Cell.THREE
    assert "looks alone said flag" in out[2].reason
    assert out[0] == _proposals(flag)[0] and out[1] == _proposals(flag)[1]


def test_a_label_the_counts_made_sure_is_never_overruled():
    counted = Proposal(2, Cell.FLAG, True, "the counts count it")
    out = check_labels(_groups(GRID), _proposals(counted), [READ])
    assert not out[2].confident and out[2].state == Cell.FLAG and out[2].alternatives == (Cell.THREE,)


def test_no_overruling_when_the_reader_disputes_another_label_on_the_shot():
    """The reader also contradicts the 1s (read 1, labelled 2): the two boards differ in more than the
    group, so neither is taken for the other."""
    flag = Proposal(2, Cell.FLAG, True, RED_MARK, one_sided=True)
    out = check_labels(_groups(GRID), _proposals(flag, ones=Cell.TWO), [READ])
    assert not out[2].confident and not out[1].confident


def test_no_overruling_when_a_shot_of_the_group_was_not_read():
    """The group is on two screenshots and the reader refused the second: its cells there are unread."""
    flag = Proposal(2, Cell.FLAG, True, RED_MARK, one_sided=True)
    out = check_labels(_groups(GRID, shots=2), _proposals(flag), [READ, None])
    assert not out[2].confident and out[2].state == Cell.FLAG


def test_no_overruling_when_the_reader_names_the_group_two_ways():
    flag = Proposal(2, Cell.FLAG, True, RED_MARK, one_sided=True)
    second = READ.copy()
    second[1, 1] = 5
    out = check_labels(_groups(GRID, shots=2), _proposals(flag), [READ, second])
    assert not out[2].confident


@pytest.mark.slow
def test_xbomb_lost_plus_opening_calibrates_with_no_question(tmp_path):
    """xbomb opens every cell on a loss, so its lost shot shows no covered cell and a user adds a game
    in progress. There the looks take a bold red 3 overflowing its cell for "a red mark on the covered
    cell" (a flag), while the skinless reader reads that shot exactly and names it 3: the reader
    settles it, ``--yes`` asks nothing, and no other capture of xbomb is read wrong."""
    from benchmarks.calibration_real import REAL, read_one
    from calibration.session import CalibrateOptions, calibrate

    folder = REAL / "xbomb"
    shots = [str(folder / "expert_lost.png"), str(folder / "expert_opening.png")]
    report = calibrate(CalibrateOptions(shots, name="xb", out=tmp_path / "xb"))
    assert any("(12, 14): 3 [sure]: the skinless reader" in line for line in report.groups), report.groups
    assert "flag" in report.missing  # neither shot shows a flag in play: refused, never guessed
    for png in sorted(folder.glob("*.png")):
        if str(png) not in shots and png.with_suffix(".txt").is_file():
            verdict, _, why = read_one(png, report.skin_path)
            assert verdict != "wrong", f"{png.name}: {why}"
