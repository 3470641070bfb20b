"""`minebot dry-run` and `minebot record`: frames in, boards, statuses and moves out; errors per frame."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from bot.board import Board
from bot.capture import ReplayCapture
from bot.cli import main
from bot.commands.record import RecordOptions, record
from bot.game import Game, GameStatus
from bot.render import render_screen
from bot.vision.cases import stage_boards

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def frames(tmp_path_factory) -> Path:
    """A folder: a mid-game beginner board, a lost one, and a desktop with no board."""
    folder = tmp_path_factory.mktemp("shots")
    stages = stage_boards("beginner", seed=21)
    mid, _ = render_screen(stages[1].board, "classic", 1.25, seed=1)
    lost, _ = render_screen(stages[3].board, "classic", 1.0, status=GameStatus.LOST, seed=2)
    cv2.imwrite(str(folder / "a_mid.png"), mid)
    cv2.imwrite(str(folder / "b_lost.png"), lost)
    cv2.imwrite(str(folder / "c_empty.png"), np.full((300, 400, 3), (30, 90, 30), np.uint8))
    return folder


def test_json_reports_each_frame_and_exits_1_for_the_bad_one(frames, capsys):
    assert main(["dry-run", str(frames), "--skin", "classic", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    mid, lost, empty = out["frames"]
    truth = stage_boards("beginner", seed=21)
    assert mid["source"] == "a_mid.png" and (mid["rows"], mid["cols"]) == (9, 9)
    assert mid["board"] == truth[1].board.to_text().splitlines()
    assert mid["status"] == "playing" and mid["skin"] == "classic" and mid["mines"] == 10
    assert mid["move"]["action"] in ("open", "flag", "chord") and len(mid["move"]["cell"]) == 2
    assert lost["status"] == "lost" and lost["move"] is None
    assert lost["board"] == truth[3].board.to_text().splitlines()
    assert empty["source"] == "c_empty.png"
    assert empty["error"].startswith("no 'classic' board found")  # in words: no class name


def test_text_output_shows_board_status_and_move(frames, capsys):
    assert main(["dry-run", str(frames / "a_mid.png")]) == 0
    out = capsys.readouterr().out
    truth = stage_boards("beginner", seed=21)[1].board
    assert "== a_mid.png" in out
    assert "# mines: 10\n" + truth.to_text() in out
    assert "status: playing  skin: classic" in out
    assert "\nmove: open (" in out or "\nmove: flag (" in out


def test_the_move_is_the_solvers_for_the_read_board(frames, capsys):
    from bot.solver import choose_move

    main(["dry-run", str(frames / "a_mid.png"), "--json", "--rule", "safe"])
    frame = json.loads(capsys.readouterr().out)["frames"][0]
    board = Board.from_text("\n".join(frame["board"]), mines=10)
    assert frame["move"] == choose_move(board, 10, "safe").to_dict()


def test_annotate_writes_one_png_per_read_frame(frames, tmp_path, capsys):
    main(["dry-run", str(frames), "--skin", "classic", "--annotate", str(tmp_path / "ann")])
    written = sorted(p.name for p in (tmp_path / "ann").iterdir())
    assert written == ["0001_a_mid.png", "0002_b_lost.png"]  # no board on c_empty: nothing to draw


def _layout_of(image: np.ndarray, rows: int):
    from bot.vision import read_screen
    from bot.vision.annotate import layout

    reading = read_screen(image, "classic")
    return reading, layout(image.shape, reading.geometry, rows)


def test_annotate_crops_to_the_board_and_face_and_enlarges_each_cell(frames, tmp_path, capsys):
    from bot.vision.annotate import MIN_CELL

    main(["dry-run", str(frames / "a_mid.png"), "--skin", "classic", "--annotate", str(tmp_path)])
    picture = cv2.imread(str(tmp_path / "0001_a_mid.png"))
    screen = cv2.imread(str(frames / "a_mid.png"))
    reading, plan = _layout_of(screen, 2)
    g = reading.geometry
    assert picture.shape == (plan.height, plan.width, 3)
    assert plan.scale == 2 and min(plan.cells.pitch_x, plan.cells.pitch_y) > MIN_CELL - 0.5  # 20 px cells
    board_and_face = g.region().union(g.face)
    assert plan.crop.left <= board_and_face.left and plan.crop.right >= board_and_face.right
    assert plan.crop.top <= board_and_face.top and plan.crop.bottom >= board_and_face.bottom
    assert plan.crop.width <= board_and_face.width + g.pitch_x  # the board, not the desktop
    assert plan.crop.height <= board_and_face.height + g.pitch_y
    # the client's own pixels are there, enlarged: a revealed cell's corner is the screenshot's, scaled
    (r, c) = next(zip(*np.nonzero(reading.board.cells == 0), strict=True))
    shot = g.cell_rect((int(r), int(c)))
    drawn = plan.cells.cell_rect((int(r), int(c)))
    assert np.array_equal(picture[drawn.bottom - 4, drawn.right - 4], screen[shot.bottom - 2, shot.right - 2])


def test_annotate_colours_covered_cells_by_mine_chance_and_marks_the_move(frames, tmp_path, capsys):
    from bot.solver import mine_probabilities
    from bot.vision.annotate import INSET, MOVE_COLOURS, STRIP, heat

    main(["dry-run", str(frames / "a_mid.png"), "--skin", "classic", "--json"])
    move = json.loads(capsys.readouterr().out)["frames"][0]["move"]
    main(["dry-run", str(frames / "a_mid.png"), "--skin", "classic", "--annotate", str(tmp_path)])
    picture = cv2.imread(str(tmp_path / "0001_a_mid.png")).astype(int)
    reading, plan = _layout_of(cv2.imread(str(frames / "a_mid.png")), 2)
    odds = mine_probabilities(reading.board, 10)
    for r, c in zip(*np.nonzero(~np.isnan(odds)), strict=True):
        box = plan.cells.cell_rect((int(r), int(c)))
        corner = picture[box.top + round(INSET * box.height) + 1, box.left + round(INSET * box.width) + 1]
        assert np.abs(corner - heat(float(odds[r, c]))).max() <= 1
    colour = np.array(MOVE_COLOURS[move["action"]])
    marked = np.all(picture == colour, axis=2)
    marked[plan.height - 2 * STRIP :] = False  # the legend shows the move colour too
    ys, xs = np.nonzero(marked)
    box = plan.cells.cell_rect(tuple(move["cell"]))
    assert len(xs) > 4 * box.width  # a frame all round the cell
    assert box.left - 12 <= xs.min() and xs.max() <= box.right + 12  # ... and nowhere else
    assert box.top - 12 <= ys.min() and ys.max() <= box.bottom + 12
    legend = picture[plan.height - 2 * STRIP :]
    for p in (0.0, 1.0):
        assert np.all(legend == np.array(heat(p)), axis=2).any()  # both ends of the colour scale


def test_annotate_boxes_an_unreadable_cell_of_a_failed_frame(tmp_path, capsys):
    from bot.vision.annotate import STRIP, UNCERTAIN

    board = stage_boards("beginner", seed=21)[1].board
    _, geometry = render_screen(board, "classic", 1.0, seed=5, screen_size=(640, 480))
    x, y = geometry.cell_center((4, 4))
    shot, _ = render_screen(board, "classic", 1.0, seed=5, screen_size=(640, 480), cursor_at=(x - 2, y - 3))
    cv2.imwrite(str(tmp_path / "cursor.png"), shot)
    assert (
        main(["dry-run", str(tmp_path / "cursor.png"), "--skin", "classic", "--annotate", str(tmp_path)]) == 1
    )
    picture = cv2.imread(str(tmp_path / "0001_cursor.png"))
    _, plan = _layout_of(render_screen(board, "classic", 1.0, seed=5, screen_size=(640, 480))[0], 1)
    assert picture.shape == (plan.height, plan.width, 3)
    marked = np.all(picture[: plan.height - STRIP] == UNCERTAIN, axis=2)
    cell, below_right = plan.cells.cell_rect((4, 4)), plan.cells.cell_rect((5, 5))
    assert marked[cell.top : cell.bottom, cell.left : cell.right].any()  # the cell under the pointer
    ys, xs = np.nonzero(marked)  # and only cells the pointer covers
    assert cell.left - 1 <= xs.min() and xs.max() <= below_right.right and cell.top - 1 <= ys.min()
    assert ys.max() <= below_right.bottom


def test_gif_frames_are_read_one_by_one(tmp_path, capsys):
    stages = stage_boards("beginner", seed=22)
    images = [
        render_screen(s.board, "classic", 1.0, status=s.status, seed=3, screen_size=(640, 480))[0]
        for s in stages
    ]
    gif = tmp_path / "game.gif"
    pictures = [Image.fromarray(image[:, :, ::-1]) for image in images]
    pictures[0].save(gif, save_all=True, append_images=pictures[1:], duration=100)
    assert main(["dry-run", str(gif), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["frames"]
    assert [f["source"] for f in out] == [f"game.gif#{i}" for i in range(4)]
    assert [f["status"] for f in out] == [s.status.value for s in stages]
    assert [f["board"] for f in out] == [s.board.to_text().splitlines() for s in stages]


def test_a_non_standard_size_needs_mines(tmp_path, capsys):
    board = Board.from_text("1.1..\n.....\n.....\n11211")
    image, _ = render_screen(board, "classic", 1.0, seed=4, screen_size=(640, 480))
    path = tmp_path / "odd.png"
    cv2.imwrite(str(path), image)
    assert main(["dry-run", str(path), "--json"]) == 1
    frame = json.loads(capsys.readouterr().out)["frames"][0]
    said = "not a standard level, and no mine counter was read beside it: give the mine count with --mines"
    assert said in frame["error"]
    assert main(["dry-run", str(path), "--json", "--mines", "4"]) == 0
    frame = json.loads(capsys.readouterr().out)["frames"][0]
    assert frame["mines"] == 4 and frame["move"] is not None


def test_a_non_standard_size_takes_its_mines_from_the_counter(tmp_path, capsys):
    """minesweeper.online's 15x15 board with its counter showing 80 less the flags: dry-run reads it as
    play does, the mines left plus the flags on the board."""
    game = Game(15, 15, 80, seed=3)
    game.open((14, 11))
    game.flag(next((r, c) for r, c in zip(*np.nonzero(game.layout), strict=True)))
    image, _ = render_screen(game.board, "classic", 1.0, seed=4, screen_size=(800, 600))
    assert len(game.board.flagged()) == 1 and game.status is GameStatus.PLAYING  # the counter shows 79
    path = tmp_path / "online15.png"
    cv2.imwrite(str(path), image)
    for skin in ("auto", "classic"):
        assert main(["dry-run", str(path), "--json", "--skin", skin]) == 0
        frame = json.loads(capsys.readouterr().out)["frames"][0]
        assert (frame["rows"], frame["cols"], frame["mines"]) == (15, 15, 80)
        assert frame["move"] is not None


def test_a_missing_path_is_an_error(tmp_path, capsys):
    assert main(["dry-run", str(tmp_path / "nope.png")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_record_saves_numbered_pngs_at_the_interval(tmp_path):
    shots = [np.full((20, 30, 3), value, np.uint8) for value in (10, 20, 30)]

    class Stepping(ReplayCapture):
        def grab(self, region=None):
            image = super().grab(region)
            if self.frames_left:
                self.advance()
            return image

    now = [100.0]
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    with Stepping(shots) as capture:
        saved = record(RecordOptions(tmp_path / "rec", 0.5, 3), capture, sleep=sleep, clock=lambda: now[0])
    assert [p.name for p in saved] == ["frame_0001.png", "frame_0002.png", "frame_0003.png"]
    for path, shot in zip(saved, shots, strict=True):
        assert np.array_equal(cv2.imread(str(path)), shot)
    assert waits == [0.5, 0.5]  # one interval between frames, none before the first


def test_record_rejects_zero_frames(capsys):
    with pytest.raises(SystemExit) as info:
        main(["record", "--frames", "0"])
    assert info.value.code == 2
    assert "expected a whole number >= 1, got '0'" in capsys.readouterr().err
