"""Write a calibrated skin folder: skin.json, one PNG per state seen (null for the rest), SOURCE.md."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

import cv2
import numpy as np

from bot.board import Cell
from bot.game import find_rule
from bot.skin import FACE_NAMES, STATE_NAMES
from calibration.model import CalibrationError, state_key

LOGGER = logging.getLogger(__name__)


def _write_png(path: Path, image: np.ndarray) -> None:
    if not cv2.imwrite(str(path), image):
        raise CalibrationError(f"cannot write template image {str(path)!r}")


def write_skin(
    folder: Path,
    name: str,
    cells: dict[Cell, np.ndarray],
    sources: Sequence[str],
    rule: str = "safe",
    notes: Sequence[str] = (),
    faces: dict[str, np.ndarray] | None = None,
    description: str = "",
    variants: dict[Cell, list[np.ndarray]] | None = None,
) -> Path:
    """Write (or overwrite) a skin folder from templates keyed by state; returns the folder.

    Templates are resized to one square cell size (the first covered template's). States without a
    template are written as ``null`` so the skin loads and says what it cannot read. ``variants`` are
    further looks of a state (``KEY_2.png`` ...: a lighter shade, a highlight), listed under ``variants``.

    Raises:
        CalibrationError: for no covered template, an unknown rule, or a folder that cannot be written.
    """
    if Cell.COVERED not in cells:
        raise CalibrationError("no covered-cell template: a skin needs at least that")
    try:
        rule = find_rule(rule).value
    except ValueError as exc:
        raise CalibrationError(str(exc)) from exc
    size = int(cells[Cell.COVERED].shape[0])
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CalibrationError(f"cannot create skin folder {str(folder)!r}: {exc}") from exc
    listed: dict[str, str | None] = {}
    for key, cell in STATE_NAMES.items():
        if cell in cells:
            image = cells[cell]
            if image.shape[:2] != (size, size):
                image = cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA)
            _write_png(folder / f"{key}.png", image)
            listed[key] = f"{key}.png"
        else:
            listed[key] = None
    meta: dict[str, object] = {
        "name": name,
        "description": description or f"calibrated by minebot calibrate from {len(sources)} source(s)",
        "cell_size": size,
        "first_click_rule": rule,
        "new_game": "F2",
        "cells": listed,
    }
    extra: dict[str, list[str]] = {}
    for cell, images in (variants or {}).items():
        key = state_key(cell)
        if cell not in cells or not images:
            continue
        extra[key] = []
        for n, image in enumerate(images, start=2):
            if image.shape[:2] != (size, size):
                image = cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA)
            _write_png(folder / f"{key}_{n}.png", image)
            extra[key].append(f"{key}_{n}.png")
    if extra:
        meta["variants"] = extra
    if faces:
        meta["faces"] = {}
        for face, image in faces.items():
            if face in FACE_NAMES:
                _write_png(folder / f"face_{face}.png", image)
                meta["faces"][face] = f"face_{face}.png"  # type: ignore[index]
    (folder / "skin.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    missing = [key for key, file in listed.items() if file is None]
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"# {name}",
        "",
        f"Made by `minebot calibrate` on {stamp} from:",
        "",
        *[f"- `{s}`" for s in sources],
        "",
        f"Cell size {size} px. First-click rule `{rule}` and new game by `F2` are assumptions: edit",
        "skin.json if the client differs.",
        "",
        "Never seen, so not readable yet: " + (", ".join(missing) if missing else "nothing") + ".",
    ]
    if missing:
        lines.append(
            f"Add them later from a screenshot that shows them: `minebot calibrate SHOT.png --update {name}`."
        )
    if notes:
        lines += ["", "Notes:", *[f"- {n}" for n in notes]]
    (folder / "SOURCE.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    LOGGER.info("wrote skin %s to %s (missing: %s)", name, folder, ", ".join(missing) or "none")
    return folder


def missing_states(cells: dict[Cell, np.ndarray]) -> list[str]:
    """Skin keys of the states with no template, in skin order."""
    return [state_key(cell) for cell in STATE_NAMES.values() if cell not in cells]
