"""End to end on real clients: Xvfb, Wine's winemine and xdemineur, real mss capture and pyautogui clicks.

Each test runs benchmarks/live_bench.py in its own process (pyautogui binds to one display per
process) and checks that whole Expert games end in a win or a loss the bot detected, with no misread,
no click outside the board, and no process left behind.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.realclients import ClientUnavailableError, find_program, processes_with_env

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.live

NEEDS = {"winemine": ["Xvfb", "xdotool", "wine"], "xdemineur": ["Xvfb", "xdotool", "xdemineur"]}


def missing_programs(client: str) -> list[str]:
    missing = []
    for program in NEEDS[client]:
        try:
            find_program(program)
        except ClientUnavailableError:
            missing.append(program)
    return missing


@pytest.mark.parametrize(("client", "games"), [("winemine", 3), ("xdemineur", 2)])
def test_whole_expert_games_on_a_real_client(client, games, tmp_path):
    missing = missing_programs(client)
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")
    report_path = tmp_path / "report.json"
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "live_bench.py"),
            "--client",
            client,
            "--games",
            str(games),
            "--json",
            str(report_path),
            "--quiet",
            "--save-frames",
            str(tmp_path / "frames"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert report_path.exists(), run.stdout + run.stderr
    report = json.loads(report_path.read_text())
    assert report["games"] == games
    assert report["errors"] == [], run.stdout
    assert report["clicks_outside_board"] == 0
    assert set(report["statuses"]) <= {"won", "lost"}
    assert run.returncode == 0, run.stdout + run.stderr
    assert report["own_ms_p50"] is not None and report["capture_ms_p50"] > 0
    assert processes_with_env("DISPLAY", report["display"]) == [], "processes were left on the test's display"
