"""A short script run on a virtual X display beside a real client: what the X server tells minebot's
input backend (which window shows a point, which program draws it), checked in a process of its own."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.realclients import ClientUnavailableError, VirtualDisplay, find_program

ROOT = Path(__file__).resolve().parent.parent


def run_beside_xdemineur(script: str) -> subprocess.CompletedProcess[str]:
    """``script`` run by a fresh Python on an Xvfb display where xdemineur's window shows at the top
    left (the test is skipped when either is not installed); its return code and text output."""
    try:
        xdemineur = find_program("xdemineur")
    except ClientUnavailableError:
        pytest.skip("xdemineur or Xvfb is not installed")
    with VirtualDisplay(1100, 800) as display:
        client = subprocess.Popen([xdemineur], env=display.env, stderr=subprocess.DEVNULL)
        try:
            time.sleep(2)
            env = dict(display.env, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
            return subprocess.run(
                [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60, cwd=ROOT
            )
        finally:
            client.kill()
            client.wait()
