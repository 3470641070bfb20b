"""The solver's benchmark scripts measure the checkout they are in, not whichever minebot is installed."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted((ROOT / "benchmarks").glob("solver_*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_a_solver_script_imports_the_bot_beside_it(script, tmp_path):
    """Run from elsewhere (as ``python benchmarks/solver_trace.py`` is from a worktree whose installed
    minebot is another checkout), the script still loads this checkout's ``bot``: a trace or timing
    taken there would otherwise prove nothing about the code changed."""
    done = subprocess.run(
        [sys.executable, "-v", str(script), "--help"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = re.search(r"^# code object from '?(.*?)bot[/\\](?:__pycache__[/\\])?__init__", done.stderr, re.M)
    assert loaded is not None
    assert Path(loaded.group(1)).resolve() == ROOT
