"""``minebot solve`` and ``minebot bench`` through ``bot.cli.main``, as a user runs them."""

import io
import json
from pathlib import Path

import pytest

from bot.cli import main

BOARDS = Path(__file__).parent / "data" / "boards"


def test_solve_prints_grid_and_move(capsys):
    assert main(["solve", str(BOARDS / "subset.txt")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "3x3 board, mines: 1, rule: safe"
    assert out[1:4] == ["    0    1   0%", "    0    1 100%", "    0    1   0%"]
    assert out[4].startswith("move: open (0, 2) p=0.00: ")
    assert out[5] == "(cells are (row, col), each counted from 0: (0, 0) is the top-left cell)"


def test_solve_json(capsys):
    assert main(["solve", str(BOARDS / "midgame.txt"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["rows"], data["cols"], data["mines"]) == (9, 9, 10)
    probs = data["probabilities"]
    assert probs[4][4] is None and probs[3][3] == pytest.approx(0.25) and probs[0][0] == pytest.approx(8 / 72)
    move = data["move"]
    assert move["action"] == "open" and 0 < move["probability"] < 1 and move["opens"] == [move["cell"]]
    total = sum(p for row in probs for p in row if p is not None)
    assert total == pytest.approx(10)


def test_solve_mines_option_overrides_comment_and_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO((BOARDS / "subset.txt").read_text()))
    assert main(["solve", "-", "--mines", "1", "--json", "--rule", "zero"]) == 0
    assert json.loads(capsys.readouterr().out)["mines"] == 1
    monkeypatch.setattr("sys.stdin", io.StringIO("1.\n.."))
    assert main(["solve", "-"]) == 0
    assert "mines: unknown" in capsys.readouterr().out


def test_solve_errors(capsys, tmp_path):
    assert main(["solve", str(BOARDS / "contradiction.txt")]) == 1
    err = capsys.readouterr().err
    assert "minebot solve: error:" in err and "(1, 1)" in err
    assert main(["solve", str(tmp_path / "missing.txt")]) == 1
    assert "cannot read board file" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("1.\n.?\n")
    assert main(["solve", str(bad)]) == 1
    assert "line 2, column 2" in capsys.readouterr().err
    binary = tmp_path / "shot.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    assert main(["solve", str(binary)]) == 1
    assert f"{str(binary)!r} is not a board file: it is not text" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["solve", str(BOARDS / "subset.txt"), "--mines", "-1"])
    assert info.value.code == 2 and "expected a whole number >= 0, got '-1'" in capsys.readouterr().err
    over = tmp_path / "over.txt"
    over.write_text("1*\n..\n")
    assert main(["solve", str(over), "--mines", "1"]) == 1
    assert "game is over" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["solve", str(BOARDS / "subset.txt"), "--rule", "lucky"])
    assert info.value.code == 2


def bench(capsys, *args: str) -> dict:
    assert main(["bench", "--no-progress", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_bench_json_fields_and_determinism(capsys):
    args = ("--level", "beginner", "--games", "12", "--seed", "5")
    first = bench(capsys, *args)
    assert first["games"] == 12 and 0 <= first["wins"] <= 12
    assert first["win_rate"] == first["wins"] / 12
    lo, hi = first["ci95"]
    assert 0 <= lo <= first["win_rate"] <= hi <= 1
    for key in ("mean_game_ms", "move_ms_p50", "move_ms_p99", "move_ms_max", "guesses_per_game"):
        assert first[key] >= 0
    assert (first["level"], first["rule"], first["seed"]) == ("beginner", "safe", 5)
    again = bench(capsys, *args)
    parallel = bench(capsys, *args, "--workers", "2")
    for key in ("wins", "guesses_per_game"):
        assert first[key] == again[key] == parallel[key]


def test_bench_custom_level_rule_and_first_click(capsys):
    data = bench(capsys, "--level", "8x8/6", "--rule", "zero", "--games", "5", "--first-click", "2,2")
    assert (data["rows"], data["cols"], data["mines"], data["rule"]) == (8, 8, 6, "zero")
    assert data["first_click"] == [2, 2]
    with pytest.raises(SystemExit):
        main(["bench", "--level", "huge"])
    with pytest.raises(SystemExit):
        main(["bench", "--first-click", "2;2"])
    assert main(["bench", "--level", "beginner", "--first-click", "9,0"]) == 2
    assert "outside the 9x9 board" in capsys.readouterr().err


def test_bench_text_explain_and_calibration(capsys):
    assert (
        main(["bench", "--no-progress", "--level", "beginner", "--games", "30", "--explain", "--calibration"])
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("move 1: open (0, 0) p=0.00: first click: corner")
    assert "beginner 9x9/10, rule safe, first click solver's choice" in out
    assert "win rate " in out and "95% CI" in out and "per move p50" in out
    assert "calibration of guesses" in out
    data = bench(capsys, "--level", "beginner", "--games", "30", "--explain", "--calibration")
    steps = data["explain"]
    assert steps[0]["move"]["reason"] == "first click: corner" and len(steps[-1]["board"].splitlines()) == 9
    rows = data["calibration"]
    assert rows and sum(r["guesses"] for r in rows) == round(data["guesses_per_game"] * 30)
    assert all(r["from"] <= r["predicted"] <= r["to"] for r in rows)


def test_solve_json_says_whether_the_probabilities_are_exact(capsys, monkeypatch, tmp_path):
    from bot.bench import hard_position

    hard = tmp_path / "hard.txt"
    hard.write_text(hard_position(3).to_text(True))
    assert main(["solve", str(hard), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"] is True  # a tangled region of 40+ groups
    monkeypatch.setattr("sys.stdin", io.StringIO("1.\n.."))
    assert main(["solve", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["exact"] is False  # the mine total is unknown
