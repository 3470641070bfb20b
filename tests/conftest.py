"""Every test runs with its own empty per-user folders, so a developer's calibrated skins and results log
never leak into the tests (or the tests into them)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_user_folders(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point XDG config/state at a fresh temporary folder and drop any extra skin path."""
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.setenv("LOCALAPPDATA", str(home / "local"))
    monkeypatch.delenv("MINEBOT_SKIN_PATH", raising=False)
