"""The status button of a client no skin knows, learned by what it does (bot/vision/button.py)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bot.agent import Player, PlayOptions
from bot.agent.options import parse_new_game
from bot.geometry import Geometry, Region
from bot.mock import SimClient
from bot.vision.button import status_button

REAL = Path(__file__).parent / "data" / "real"


def shot(folder: str, name: str) -> tuple[np.ndarray, Geometry]:
    meta = json.loads((REAL / folder / f"{name}.json").read_text())
    return cv2.imread(str(REAL / folder / f"{name}.png")), Geometry(**meta["geometry"])


@pytest.mark.parametrize(
    ("folder", "start", "end"),
    [
        ("jsminesweeper/t24_z125", "expert_fresh", "expert_lost"),
        ("jsminesweeper/t32_z150", "expert_fresh", "expert_lost"),
        ("ace-minesweeper", "board_fresh", "board_lost"),
        ("winemine", "expert_fresh", "expert_lost"),
        ("xdemineur", "small_start", "small_lost"),
    ],
)
def test_the_patch_that_changed_as_a_real_game_was_lost_is_the_face(folder, start, end):
    before, g = shot(folder, start)
    after, _ = shot(folder, end)
    found = status_button(before, after, g)
    assert found is not None
    board = g.region()
    pitch = g.pitch_x
    assert found.bottom <= board.top and board.top - found.bottom < 3 * pitch  # just above the board
    assert 0.25 * pitch <= min(found.width, found.height) and max(found.width, found.height) <= 2 * pitch
    face = after[found.top : found.bottom, found.left : found.right]
    assert (face != before[found.top : found.bottom, found.left : found.right]).any()


@pytest.mark.parametrize(
    ("folder", "start", "end"),
    [
        ("jsminesweeper/t24_z100", "expert_fresh", "expert_opening"),
        ("winemine", "expert_fresh", "expert_opening"),
        ("ace-minesweeper", "board_fresh", "board_opening"),
        ("xbomb", "expert_fresh", "expert_lost"),  # no face: its buttons do not change at the end
        ("xbomb", "expert_fresh", "expert_opening"),
    ],
)
def test_nothing_is_taken_for_a_button_where_no_face_changed(folder, start, end):
    before, g = shot(folder, start)
    after, _ = shot(folder, end)
    assert status_button(before, after, g) is None


def test_the_face_is_found_though_the_page_adds_buttons_above_the_board_as_the_game_ends():
    """JSMinesweeper at zoom 1.25 live: at each end the page adds two wide "Send to ..." buttons in the
    band; the face (smiley -> dead) is still the one patch of a face's size that changed."""
    band = Path(__file__).parent / "data" / "button" / "jsminesweeper_z125"
    start, end, ticking = (cv2.imread(str(band / f"{name}.png")) for name in ("start", "end", "tick"))
    g = Geometry(30, 180.01, 30, 30, 16, 30)
    found = status_button(start, end, g, ticking)
    assert found is not None and found.left < 200 and found.top > 110  # the smiley, not the new buttons
    assert found.contains(found.left + found.width // 2, found.top + found.height // 2)


def test_an_lcd_digit_that_changed_is_no_face_but_a_won_face_s_sunglasses_are():
    g = Geometry(20, 160, 20, 20, 6, 18)
    start = np.full((300, 400, 3), 190, np.uint8)
    digit = start.copy()
    digit[60:84, 60:72] = (0, 0, 255)  # a tall narrow patch: a counter's digit, not a face
    assert status_button(start, digit, g) is None
    glasses = start.copy()
    glasses[60:67, 200:224] = 0  # a wide, low patch across a face's eyes
    assert status_button(start, glasses, g) == Region(200, 60, 24, 7)


def band_with(patches: dict[tuple[int, int], tuple[int, int, int]]) -> np.ndarray:
    """A flat 300x400 screen with 20x20 patches of colour at (top, left)."""
    image = np.full((300, 400, 3), 190, np.uint8)
    for (top, left), colour in patches.items():
        image[top : top + 20, left : left + 20] = colour
    return image


def test_a_patch_that_also_changed_while_the_game_was_on_is_a_timer_not_the_button():
    g = Geometry(20, 160, 20, 20, 6, 18)
    start = band_with({(60, 40): (0, 0, 0), (60, 200): (0, 200, 255)})
    ticking = band_with({(60, 40): (50, 50, 50), (60, 200): (0, 200, 255)})
    end = band_with({(60, 40): (90, 90, 90), (60, 200): (0, 0, 255)})
    assert status_button(start, end, g, ticking) == Region(200, 60, 20, 20)
    assert status_button(start, end, g) is None  # two candidates and nothing to tell them apart


def test_a_change_too_large_or_too_long_for_a_button_is_no_button():
    g = Geometry(20, 160, 20, 20, 6, 18)
    start = np.full((300, 400, 3), 190, np.uint8)
    banner = start.copy()
    banner[60:80, 40:300] = 0  # a message strip
    assert status_button(start, banner, g) is None
    dialog = start.copy()
    dialog[10:150, 40:300] = 0
    assert status_button(start, dialog, g) is None
    assert status_button(start, start.copy(), g) is None
    at_the_top = Geometry(20, 0, 20, 20, 6, 18)  # no band above a board at the image's top
    assert status_button(start, banner, at_the_top) is None


def test_with_no_skin_a_new_game_starts_from_the_face_learned_when_a_game_was_lost():
    client = SimClient("expert", rule="safe", seed=1, screen_size=(900, 700))
    options = PlayOptions(games=2, new_game=parse_new_game("auto"), skin="generic")
    player = Player(client.capture, client.input, options, sleep=lambda s: None)
    summary = player.run()
    assert [r.status for r in summary.results][0] == "lost"
    assert summary.games == 2 and summary.new_game == "face" and client.games_started == 2
    assert [c.on_face for c in client.history if c.cell is None] == [True]  # the one click off the board
