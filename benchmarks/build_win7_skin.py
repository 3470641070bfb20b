"""Build the shipped ``win7`` skin (``templates/win7``) from the MIT-licensed crops in ../shared/realdata.

Run: ``python benchmarks/build_win7_skin.py`` (needs ../shared/realdata; the output is committed, the
crops are not). ``templates/win7/SOURCE.md`` says which crop each template comes from and carries the
licence notice.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
REALDATA = ROOT.parent / "shared" / "realdata" / "win7"
OUT = ROOT / "templates" / "win7"
PITCH = 18
"""Cell pitch at Windows 7's default window size: the crops are 18 x 18, grid line at the top and left."""

COPIED = {
    "covered.png": "squares_unchecked/square_dark.png",
    "covered_light.png": "squares_unchecked/square_light.png",
    "0.png": "squares_checked/square_empty.png",
}
"""Templates that are a crop unchanged (template file: crop file)."""


def digit_tile(empty: np.ndarray, glyph: np.ndarray) -> np.ndarray:
    """The open tile with a digit glyph crop laid on it, centred in the 17 px inside the grid line."""
    tile = empty.copy()
    gh, gw = glyph.shape[:2]
    y, x = (PITCH - gh) // 2 + 1, (PITCH - gw) // 2 + 1
    tile[y : y + gh, x : x + gw] = glyph[:, :, :3]
    return tile


def build(source: Path = REALDATA, out: Path = OUT) -> None:
    """Write every template and ``skin.json`` into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    for name, crop in COPIED.items():
        image = cv2.imread(str(source / crop), cv2.IMREAD_COLOR)
        assert image.shape[:2] == (PITCH, PITCH), crop
        cv2.imwrite(str(out / name), image)
    empty = cv2.imread(str(source / COPIED["0.png"]), cv2.IMREAD_COLOR)
    for n in range(1, 9):
        glyph = cv2.imread(str(source / "squares_checked" / f"square_{n}.png"), cv2.IMREAD_UNCHANGED)
        cv2.imwrite(str(out / f"{n}.png"), digit_tile(empty, glyph))
    cells: dict[str, str | None] = {"covered": "covered.png", "flag": None}
    cells.update({str(n): f"{n}.png" for n in range(9)})
    cells.update({"mine": None, "exploded": None, "wrong_flag": None})
    meta = {
        "name": "win7",
        "description": "Windows 7 Minesweeper, default window: blue tiles, light grey-blue opened cells",
        "cell_size": PITCH,
        "first_click_rule": "safe",
        "new_game": "F2",
        "cells": cells,
        "variants": {"covered": ["covered_light.png"]},
    }
    (out / "skin.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if not REALDATA.is_dir():
        sys.exit(f"{REALDATA} is not available")
    build()
    print(f"wrote {OUT}")
