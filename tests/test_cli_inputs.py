"""Bad input, from any user: one line in words on stderr, exit status 1 or 2, never a traceback.

Named cases first (each one a traceback or a silent skip once), then a seeded fuzz over images of every
size, random bytes, random option values and broken skins, run through the CLI in-process.
"""

from __future__ import annotations

import json
import logging
import re
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.cli import PlainFormatter, main

REPO = Path(__file__).resolve().parent.parent
BOARD = REPO / "tests" / "data" / "boards" / "midgame.txt"
CLASS_NAME = re.compile(r"\b[A-Z][A-Za-z]*(Error|Exception)\b|Traceback|\berror: \(-\d+")
"""What must not reach a user without -v: a class name, a traceback, or OpenCV's assertion text."""


def run(argv: list[str], capsys, caplog=None) -> tuple[int, str, str]:
    """``minebot ARGV`` in this process: exit status, stdout, stderr (argparse's exits included), with
    the warnings and errors logged (pytest takes the log from stderr), as the command line shows them."""
    if caplog is not None:
        caplog.clear()
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: usage errors and --help
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    if caplog is not None:
        plain = PlainFormatter(argv[0])
        err += "".join(plain.format(r) + "\n" for r in caplog.records if r.levelno >= logging.WARNING)
    return code, out, err


def said_in_words(code: int, out: str, err: str) -> None:
    """The contract for every input: 0, 1 or 2; an error is a line of words on stderr, naming no class."""
    assert code in (0, 1, 2), (code, err)
    assert not CLASS_NAME.search(err) and not CLASS_NAME.search(out), err or out
    assert "unexpectedly" not in err, err  # a fault of minebot's own, caught by the last resort
    if code:
        lines = [
            line for line in err.splitlines() if line.startswith("minebot ") or line.startswith("usage:")
        ]
        assert lines, f"exit {code} with nothing said on stderr: {err!r}"


def _png(folder: Path, name: str, image: np.ndarray) -> Path:
    path = folder / name
    assert cv2.imwrite(str(path), image)
    return path


@pytest.fixture(scope="module")
def shot(tmp_path_factory) -> Path:
    """A 15x15 minesweeper.online-like screenshot (a board and its counters) that reads cleanly."""
    from bot.game import Game
    from bot.render import render_screen

    game = Game(15, 15, 80, seed=3)
    game.open((14, 11))
    image, _ = render_screen(game.board, "classic", 1.0, seed=4, screen_size=(640, 480))
    return _png(tmp_path_factory.mktemp("shot"), "online15.png", image)


@pytest.mark.parametrize("size", [(1, 1), (1, 500), (500, 1), (20, 8000)])
@pytest.mark.parametrize("command", ["dry-run", "calibrate"])
def test_an_image_too_small_for_a_board_is_refused_in_words(tmp_path, capsys, size, command):
    path = _png(tmp_path, "strip.png", np.full((*size, 3), 128, np.uint8))
    argv = [command, str(path)] + (
        ["--name", "x", "--out", str(tmp_path / "skin"), "--yes"] * (command != "dry-run")
    )
    code, out, err = run(argv, capsys)
    said_in_words(code, out, err)
    assert code == 1 and "no board on the" in err and f"{size[1]}x{size[0]}" in err


def test_a_png_cut_short_is_refused_in_one_line_with_nothing_from_libpng(tmp_path, capfd, shot):
    cut = tmp_path / "cut.png"
    cut.write_bytes(shot.read_bytes()[: shot.stat().st_size // 2])  # a download cut short
    for command in (["dry-run", str(cut)], ["calibrate", str(cut), "--name", "x", "--yes"]):
        code = main(command)
        out, err = capfd.readouterr()  # the process's own stderr: libpng writes there, not to sys.stderr
        said_in_words(code, out, err)
        said = f"screenshot {str(cut)!r} cannot be read as an image: Truncated File Read"
        assert code == 1 and err.splitlines() == [f"minebot {command[0]}: error: {said}"]


def test_annotate_into_a_file_or_a_folder_that_cannot_be_made(tmp_path, capsys, shot):
    file = tmp_path / "taken.txt"
    file.write_text("not a folder")
    code, out, err = run(["dry-run", str(shot), "--annotate", str(file)], capsys)
    said_in_words(code, out, err)
    assert code == 1 and "is a file, not a folder" in err and not out  # refused before any frame is read
    code, out, err = run(["dry-run", str(shot), "--annotate", str(file / "pictures")], capsys)
    said_in_words(code, out, err)
    assert code == 1 and f"cannot make the folder {str(file / 'pictures')!r}" in err


def test_annotate_says_where_it_wrote(tmp_path, capsys, shot):
    code, out, err = run(["dry-run", str(shot), "--annotate", str(tmp_path / "ann")], capsys)
    assert code == 0 and (tmp_path / "ann" / "0001_online15.png").is_file()
    assert f"annotated pictures: 1 written to {tmp_path / 'ann'}/" in out
    code, out, err = run(["dry-run", str(shot), "--annotate", str(tmp_path / "ann"), "--json"], capsys)
    assert json.loads(out)["frames"][0]["annotation"] == str(tmp_path / "ann" / "0001_online15.png")


def test_a_frames_error_goes_to_stderr_in_words_and_its_class_only_with_v(tmp_path, capsys):
    empty = _png(tmp_path, "desktop.png", np.full((300, 400, 3), (30, 90, 30), np.uint8))
    code, out, err = run(["dry-run", str(empty), "--skin", "classic"], capsys)
    said_in_words(code, out, err)
    assert code == 1 and "error" not in out
    assert "minebot dry-run: error: desktop.png: no 'classic' board found" in err
    code, out, err = run(["-v", "dry-run", str(empty), "--skin", "classic"], capsys)
    assert "minebot dry-run: error: BoardNotFoundError: desktop.png: no 'classic' board found" in err
    code, out, err = run(["solve", str(REPO / "tests" / "data" / "boards" / "contradiction.txt")], capsys)
    said_in_words(code, out, err)
    assert code == 1 and err.startswith("minebot solve: error: ") and not out


def _broken_skins(folder: Path) -> Path:
    """A skin search folder with three broken skins: bad JSON, a PNG of random bytes, a missing PNG."""
    classic = REPO / "templates" / "classic"
    for name in ("badjson", "badpng", "nopng"):
        (folder / name).mkdir(parents=True)
        for file in classic.iterdir():
            (folder / name / file.name).write_bytes(file.read_bytes())
    (folder / "badjson" / "skin.json").write_text('{"name": "badjson", ', encoding="utf-8")
    (folder / "badpng" / "covered.png").write_bytes(np.random.default_rng(5).bytes(100))
    (folder / "nopng" / "flag.png").unlink()
    return folder


def test_auto_names_each_skin_it_cannot_load(tmp_path, capsys, caplog, monkeypatch, shot):
    monkeypatch.setenv("MINEBOT_SKIN_PATH", str(_broken_skins(tmp_path / "skins")))
    code, out, err = run(["dry-run", str(shot)], capsys)
    assert code == 0 and "skin: classic" in out  # read with a sound skin all the same
    for name, why in (("badjson", "skin.json"), ("badpng", "covered.png"), ("nopng", "flag.png")):
        said = rf"the skin '{name}' cannot be loaded, so it is not tried: .*{why}"
        assert [r for r in caplog.records if r.levelname == "WARNING" and re.search(said, r.getMessage())]
    said_in_words(code, out, err)


def test_a_warning_reads_as_words_and_names_its_module_only_with_v():
    record = logging.LogRecord(
        "bot.vision.read", logging.WARNING, "read.py", 1, "the skin %r: %s", ("x", 1), None
    )
    assert PlainFormatter("dry-run").format(record) == "minebot dry-run: warning: the skin 'x': 1"


def test_sim_mines_that_do_not_fit_the_level_are_refused(tmp_path, capsys, caplog):
    log = ["--results-log", str(tmp_path / "results.jsonl")]
    code, out, err = run(
        ["play", "--client", "sim", "--level", "beginner", "--mines", "1000", *log], capsys, caplog
    )
    said_in_words(code, out, err)
    assert code == 2 and "--mines 1000 does not fit the simulated 9x9 board (81 cells)" in err and not out
    code, out, err = run(
        ["play", "--client", "sim", "--level", "beginner", "--mines", "30", *log], capsys, caplog
    )
    assert code == 0 and "9 rows by 9 columns with 30 mines" in out and "a 9x9 board with 30 mines" in out


# -- the fuzz ---------------------------------------------------------------------------------------

VALUES = ["-1", "0", "1", "3", "99999999999999999999", "1e9", "nan", "abc", "", "3,3", "-", "é", "../x"]
"""Option values a user may type, meant or not."""
COUNTS = ["-1", "0", "1", "2", "1e9", "nan", "abc", "", "é"]
"""Values for counts of work (games, workers): bad ones, and none so large the suite waits for them."""


def _image(rng: np.random.Generator) -> np.ndarray:
    """An image of a random size from 1x1 to 8000 on a side (at most 2 million pixels, to stay quick):
    flat, noise, stripes or a grid of cell-like squares."""
    h, w = (int(np.exp(rng.uniform(0, np.log(8000)))) for _ in range(2))
    while h * w > 2_000_000:
        h, w = max(1, h // 2), max(1, w // 2)
    kind = int(rng.integers(4))
    if kind == 0:
        return np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
    if kind == 1:
        return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    pitch = int(rng.integers(2, 40))
    ys, xs = np.mgrid[:h, :w]
    lines = (ys % pitch == 0) | (xs % pitch == 0) if kind == 2 else ((ys // pitch + xs // pitch) % 2 == 0)
    image = np.full((h, w, 3), 192, np.uint8)
    image[lines] = rng.integers(0, 256, 3)
    return image


def _input_file(rng: np.random.Generator, folder: Path, index: int, shot: Path) -> Path:
    """A file a user may hand minebot as a screenshot: an image, random bytes, a cut PNG, nothing."""
    kind = int(rng.integers(6))
    path = folder / f"in{index}.png"
    if kind <= 2:
        return _png(folder, path.name, _image(rng))
    if kind == 3:
        path.write_bytes(rng.bytes(int(rng.integers(0, 5000))))
    elif kind == 4:
        data = shot.read_bytes()
        path.write_bytes(data[: int(rng.integers(8, len(data)))])  # a download cut short
    else:
        path = folder / f"missing{index}.png"
    return path


def _argv(rng: np.random.Generator, folder: Path, index: int, shot: Path, skins: Path) -> list[str]:
    """One random command line over the commands that take files and values."""
    pick = lambda options: options[int(rng.integers(len(options)))]  # noqa: E731
    image = str(_input_file(rng, folder, index, shot) if rng.random() < 0.7 else shot)
    value = pick(VALUES)
    skin = pick(["auto", "generic", "classic", "nosuchskin", str(skins / "badpng"), str(folder), value])
    choices = [
        ["dry-run", image, "--mines", value],
        ["dry-run", image, "--skin", skin],
        ["dry-run", image, "--rule", value],
        ["dry-run", image, "--annotate", pick([str(folder / "ann"), image, str(BOARD / "x")])],
        ["calibrate", image, "--name", pick(["fz", value]), "--out", str(folder / f"skin{index}"), "--yes"],
        [
            "calibrate",
            "--sprite-sheet",
            image,
            "--cell-size",
            value,
            "--name",
            "fz",
            "--out",
            str(folder / "s"),
        ],
        ["solve", pick([str(BOARD), image, str(folder)]), "--mines", value],
        ["bench", "--level", pick(["beginner", value, f"5x5/{value}"]), "--games", "1", "--no-progress"],
        ["bench", "--level", "beginner", "--games", pick(COUNTS), "--workers", pick(VALUES), "--no-progress"],
        ["play", "--client", "sim", "--level", pick(["beginner", value]), "--mines", value, "--games", "1"],
        ["play", "--client", "sim", "--level", "beginner", "--scale", value, "--games", "1", "--show"],
        ["play", "--client", "sim", "--level", "beginner", "--seed", value, "--delay", value, "--games", "1"],
    ]
    return pick(choices)


def test_fuzz_every_input_is_answered_in_words(tmp_path, capsys, caplog, monkeypatch, shot):
    """80 seeded random command lines: exit 0, 1 or 2, never a traceback or a class name (a few seconds)."""
    skins = _broken_skins(tmp_path / "skins")
    monkeypatch.setenv("MINEBOT_SKIN_PATH", str(skins))
    rng = np.random.default_rng(31)
    started = time.perf_counter()
    for index in range(80):
        argv = _argv(rng, tmp_path, index, shot, skins)
        if argv[0] == "play":
            argv += ["--results-log", str(tmp_path / "results.jsonl"), "--time-limit", "2"]
        code, out, err = run(argv, capsys, caplog)
        try:
            said_in_words(code, out, err)
        except AssertionError as exc:
            raise AssertionError(f"minebot {' '.join(argv)}: {exc}") from None
    assert time.perf_counter() - started < 120  # bounded: a hang is a failure, not a slow suite
