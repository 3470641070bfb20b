"""Skins: how a client draws its cells and face, as a folder of PNG templates plus ``skin.json``.

A skin folder looks like this (``templates/classic/`` is an example)::

    skin.json        metadata, below
    SOURCE.md        where the images came from
    covered.png  flag.png  0.png ... 8.png  mine.png  exploded.png  wrong_flag.png   one cell each
    face_playing.png  face_won.png  face_lost.png                                    optional

``skin.json``::

    {
      "name": "classic",
      "description": "grey Windows look (winmine XP, Minesweeper X, minesweeper.online light)",
      "cell_size": 16,                 # nominal cell pitch in pixels at 100% scale
      "first_click_rule": "winxp",     # safe | zero | winxp | none  (bot.game.FirstClickRule)
      "new_game": "face",              # how a new game starts: face | F2 | ctrl+r | ctrl+n | restart
      "cells": {"covered": "covered.png", "flag": "flag.png", "0": "0.png", ..., "8": "8.png",
                "mine": "mine.png", "exploded": "exploded.png", "wrong_flag": "wrong_flag.png"},
      "faces": {"playing": "face_playing.png", "won": "face_won.png", "lost": "face_lost.png"},
      "variants": {"covered": ["covered_light.png"]}   # optional: more looks of a state (below)
    }

``variants`` lists further templates of a state a client draws in more than one look (Windows 7 shades
its covered tiles across the board and lights one up under the pointer); a cell between the state's
template and one of its variants reads as that state (:mod:`bot.vision.classify`).

Every cell state must be listed. A state the skin has never seen (a calibration that met no 8 yet)
is listed with ``null``: the skin loads, :meth:`Skin.missing_states` names it, and a cell that looks
like nothing known is reported as unreadable rather than guessed. Cell templates are the whole cell
at nominal size (bevel included, grid line excluded), BGR. This module loads images with OpenCV,
which is imported lazily so the core never needs it.

Skins are found by name in, in order: the folders of ``$MINEBOT_SKIN_PATH`` (``os.pathsep``-separated),
the per-user folder (:func:`user_skin_dir`), then the shipped skins (:data:`TEMPLATES_DIR`). Their one
source is the repo's top-level ``templates/``; a wheel carries it as ``bot/templates`` (see
``pyproject.toml``), an editable install or a source checkout reads ``templates/`` in place.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bot.board import Cell
from bot.errors import SkinError
from bot.game import FirstClickRule, find_rule

LOGGER = logging.getLogger(__name__)

STATE_NAMES: dict[str, Cell] = {
    "covered": Cell.COVERED,
    "flag": Cell.FLAG,
    **{str(n): Cell(n) for n in range(9)},
    "mine": Cell.MINE,
    "exploded": Cell.EXPLODED,
    "wrong_flag": Cell.WRONG_FLAG,
}
"""Skin metadata key for each cell state."""

FACE_NAMES = ("playing", "won", "lost")
NEW_GAME_KEYS = ("F2", "ctrl+r", "ctrl+n")
"""Keys that start a new game, in the order ``auto`` tries them: F2 (winmine and its clones), Ctrl+R
(GNOME Mines' "play again") and Ctrl+N ("new game" in KDE's KMines, Simon Tatham's Mines and most
desktop programs; last, because a browser opens a window for it)."""

NEW_GAME_WAYS = ("face", *NEW_GAME_KEYS, "restart")


def shipped_skins_dir() -> Path:
    """The skins that come with minebot: ``bot/templates`` in a wheel, else the checkout's ``templates/``."""
    package = Path(__file__).resolve().parent
    checkout = package.parent
    if not (package / "templates").is_dir() and (checkout / "pyproject.toml").is_file():
        return checkout / "templates"
    return package / "templates"


TEMPLATES_DIR = shipped_skins_dir()
"""The shipped skins (the same files from a wheel, an editable install or a source checkout)."""


def user_skin_dir() -> Path:
    """Where ``minebot calibrate`` writes skins for this user.

    ``$XDG_CONFIG_HOME/minebot/skins`` (default ``~/.config/minebot/skins``) on Linux and macOS,
    ``%APPDATA%\\minebot\\skins`` on Windows.
    """
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming"))
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config"))
    return base / "minebot" / "skins"


def skin_search_path() -> list[Path]:
    """Folders searched for skins, first match wins."""
    extra = [Path(p) for p in os.environ.get("MINEBOT_SKIN_PATH", "").split(os.pathsep) if p]
    return [*extra, user_skin_dir(), TEMPLATES_DIR]


@dataclass
class Skin:
    """A loaded skin: metadata plus BGR template images keyed by cell state and face name."""

    name: str
    path: Path
    cell_size: int
    first_click_rule: FirstClickRule
    new_game: str = "face"
    description: str = ""
    cells: dict[Cell, np.ndarray] = field(default_factory=dict)
    faces: dict[str, np.ndarray] = field(default_factory=dict)
    variants: dict[Cell, list[np.ndarray]] = field(default_factory=dict)
    """Further looks of a state, beside its template in ``cells``."""
    memo: dict[str, object] = field(default_factory=dict, init=False, repr=False, compare=False)
    """What is built from this skin object, or learnt while reading with it, by kind (see
    :func:`bot.vision.classify.per_skin`): it lives and dies with the object, so nothing evicts a
    game's learnt state while the game goes on."""

    def missing_states(self) -> list[Cell]:
        """Cell states this skin has no template for (it cannot read them)."""
        return [cell for cell in STATE_NAMES.values() if cell not in self.cells]

    def has_face(self) -> bool:
        return bool(self.faces)


def _read_png(path: Path) -> np.ndarray:
    import cv2

    if not path.is_file():
        raise SkinError("template image is missing", str(path))
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise SkinError("template image cannot be read as an image", str(path))
    return image


def load_skin(path: str | os.PathLike[str]) -> Skin:
    """Load a skin folder.

    Raises:
        SkinError: naming the folder or file, for a missing or malformed ``skin.json``, a missing
            key or cell state, or a template that is absent or unreadable.
    """
    folder = Path(path)
    meta_path = folder / "skin.json"
    if not meta_path.is_file():
        raise SkinError("not a skin folder: skin.json is missing", str(folder))
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise SkinError(f"cannot parse skin.json: {exc}", str(meta_path)) from exc
    for key in ("name", "cell_size", "first_click_rule", "cells"):
        if key not in meta:
            raise SkinError(f"skin.json has no {key!r}", str(meta_path))
    try:
        rule = find_rule(meta["first_click_rule"])
    except ValueError as exc:
        raise SkinError(str(exc), str(meta_path)) from exc
    new_game = meta.get("new_game", "face")
    if new_game not in NEW_GAME_WAYS:
        raise SkinError(f"new_game {new_game!r} is not one of {NEW_GAME_WAYS}", str(meta_path))
    missing = [name for name in STATE_NAMES if name not in meta["cells"]]
    if missing:
        raise SkinError(
            f"skin.json 'cells' does not list state(s) {', '.join(missing)} (use null for never seen)",
            str(meta_path),
        )
    skin = Skin(
        name=str(meta["name"]),
        path=folder,
        cell_size=int(meta["cell_size"]),
        first_click_rule=rule,
        new_game=new_game,
        description=str(meta.get("description", "")),
    )
    for name, cell in STATE_NAMES.items():
        filename = meta["cells"][name]
        if filename is not None:
            skin.cells[cell] = _read_png(folder / filename)
    for name, filename in (meta.get("faces") or {}).items():
        if name not in FACE_NAMES:
            raise SkinError(f"unknown face {name!r}; faces are {FACE_NAMES}", str(meta_path))
        skin.faces[name] = _read_png(folder / filename)
    for name, filenames in (meta.get("variants") or {}).items():
        if STATE_NAMES.get(name) not in skin.cells:
            raise SkinError(f"variants of {name!r}, a state with no template", str(meta_path))
        skin.variants[STATE_NAMES[name]] = [_read_png(folder / filename) for filename in filenames]
    if Cell.COVERED not in skin.cells:
        raise SkinError("a skin needs at least the covered cell template", str(meta_path))
    if skin.missing_states():
        LOGGER.info("skin %s cannot read: %s", skin.name, ", ".join(c.name for c in skin.missing_states()))
    return skin


def list_skins() -> dict[str, Path]:
    """Every skin found on the search path, by name (first match wins)."""
    found: dict[str, Path] = {}
    for folder in skin_search_path():
        if folder.is_dir():
            for meta in sorted(folder.glob("*/skin.json")):
                found.setdefault(meta.parent.name, meta.parent)
    return found


def find_skin(name: str) -> Skin:
    """Load a skin by name (or by folder path).

    Raises:
        SkinError: when no skin of that name exists, listing the ones that do.
    """
    candidate = Path(name)
    if (candidate / "skin.json").is_file():
        return load_skin(candidate)
    skins = list_skins()
    if name not in skins:
        known = ", ".join(sorted(skins)) or "none"
        raise SkinError(f"no skin named {name!r} (known skins: {known})")
    return load_skin(skins[name])
