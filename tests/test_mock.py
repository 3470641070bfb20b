"""The mock client: a simulated game behind the capture/input interfaces, and scripted replays."""

from __future__ import annotations

import numpy as np
import pytest

import bot.mock
from bot.board import Cell
from bot.capture import CaptureBackend
from bot.errors import CaptureError
from bot.game import GameStatus
from bot.input import InputBackend
from bot.mock import ReplayClient, SimClient, SimError
from bot.render import classic_cell, classic_face, render_screen


def sim(**options) -> SimClient:
    options = {"level": "beginner", "seed": 1, "screen_size": (800, 600), "clutter": False, **options}
    return SimClient(**options)


def crop(client: SimClient, cell: tuple[int, int]) -> np.ndarray:
    rect = client.geometry.cell_rect(cell)
    return client.capture.grab(rect)


@pytest.mark.parametrize("scale", [1.0, 1.25, 2.04])
def test_each_cell_centre_and_corner_hits_exactly_that_cell(scale: float) -> None:
    client = sim(level="8x9/10", scale=scale, screen_size=(1024, 768))
    for cell in client.game.board:
        rect = client.geometry.cell_rect(cell)
        for x, y in [
            client.geometry.cell_center(cell),
            (rect.left, rect.top),
            (rect.right - 1, rect.bottom - 1),
        ]:
            client.input.click(x, y, "right")
            flags = client.game.board.flagged()
            assert flags == [cell], (cell, x, y)
            assert np.array_equal(crop(client, cell), classic_cell(Cell.FLAG, rect.width, rect.height))
            client.input.click(x, y, "right")
    assert client.game.board.flagged() == [] and client.clicks == 2 * 3 * 72


def test_left_click_opens_and_the_screen_shows_it() -> None:
    client = sim(rule="zero")
    x, y = client.geometry.cell_center((4, 4))
    client.input.click(x, y)
    board = client.game.board
    assert board[4, 4] == Cell.ZERO and int(board.revealed_mask().sum()) > 1
    for cell in board:
        rect = client.geometry.cell_rect(cell)
        assert np.array_equal(crop(client, cell), classic_cell(board[cell], rect.width, rect.height)), cell
    assert client.history[-1].cell == (4, 4) and client.history[-1].button == "left"


def test_clicks_off_the_board_do_nothing_but_are_recorded() -> None:
    client = sim()
    before = client.frame().copy()
    client.input.click(2, 2)
    assert client.game.moves == 0 and client.history[-1].cell is None
    assert np.array_equal(client.frame(), before)


def test_face_click_and_f2_restart_with_the_next_seed() -> None:
    client = sim(rule="safe")
    x, y = client.geometry.cell_center((0, 0))
    client.input.click(x, y)
    layout = client.game.layout
    face = client.geometry.face
    assert face is not None
    client.input.click(face.left + face.width // 2, face.top + face.height // 2)
    assert client.games_started == 2 and client.game.moves == 0 and client.game.board.is_fresh()
    assert client.capture.grab(face).tolist() == classic_face("playing").tolist()
    client.input.click(x, y)
    assert not np.array_equal(client.game.layout, layout)
    client.input.press("F2")
    assert client.games_started == 3 and client.game.board.is_fresh()


def test_same_seed_same_game_and_pixels() -> None:
    def play(seed: int) -> tuple[np.ndarray, str]:
        client = sim(seed=seed, clutter=True)
        for cell in [(0, 0), (8, 8), (4, 2), (3, 7)]:
            client.input.click(*client.geometry.cell_center(cell))
        return client.capture.grab(), client.game.board.to_text()

    first, second, other = play(5), play(5), play(6)
    assert np.array_equal(first[0], second[0]) and first[1] == second[1]
    assert not np.array_equal(first[0], other[0])


def test_timer_and_counter_follow_a_fake_clock() -> None:
    client = sim(rule="safe", seconds_per_action=0.5)
    assert client.seconds == 0 and client.mines_left == 10
    client.tick(30)
    assert client.seconds == 0  # the timer starts with the first move
    client.input.click(*client.geometry.cell_center((0, 0)))
    assert client.seconds == 1
    client.tick(4.2)
    assert client.seconds == 5
    covered = client.game.board.covered()[0]
    client.input.click(*client.geometry.cell_center(covered), "right")
    assert client.mines_left == 9
    with pytest.raises(SimError, match="back"):
        client.tick(-1)


def test_the_timer_stops_when_the_game_ends_and_the_face_shows_it() -> None:
    client = sim(rule="none", seed=3)
    layout = client.game.layout
    assert layout is not None
    mine = tuple(int(v) for v in np.argwhere(layout)[0])
    client.input.click(*client.geometry.cell_center(mine))
    assert client.status is GameStatus.LOST
    stopped = client.seconds
    client.tick(100)
    assert client.seconds == stopped
    assert client.capture.grab(client.geometry.face).tolist() == classic_face("lost").tolist()
    rect = client.geometry.cell_rect(mine)
    assert np.array_equal(crop(client, mine), classic_cell(Cell.EXPLODED, rect.width, rect.height))


def satisfied_number(
    client: SimClient,
) -> tuple[tuple[int, int], list[tuple[int, int]], list[tuple[int, int]]]:
    """A revealed number with covered neighbours: (cell, its mine neighbours, its safe covered ones)."""
    board, layout = client.game.board, client.game.layout
    for cell in board:
        if board[cell].is_number() and board[cell] > 0:
            around = board.neighbours(cell)
            mines = [n for n in around if layout[n]]
            safe = [n for n in around if not layout[n] and board[n] == Cell.COVERED]
            if safe:
                return cell, mines, safe
    raise AssertionError("no number with a safe covered neighbour")


@pytest.mark.parametrize("how", ["middle", "chord", "left-on-number"])
def test_chording_opens_the_neighbours_of_a_satisfied_number(how: str) -> None:
    client = sim(rule="zero", seed=11, left_click_chords=how == "left-on-number")
    client.input.click(*client.geometry.cell_center((4, 4)))
    cell, mines, safe = satisfied_number(client)
    for mine in mines:
        client.input.click(*client.geometry.cell_center(mine), "right")
    x, y = client.geometry.cell_center(cell)
    if how == "middle":
        client.input.click(x, y, "middle")
    elif how == "chord":
        client.input.chord(x, y)
    else:
        client.input.click(x, y)
    board = client.game.board
    assert all(board[n].is_number() for n in safe)


def test_left_click_on_a_number_does_not_chord_by_default() -> None:
    client = sim(rule="zero", seed=11)
    client.input.click(*client.geometry.cell_center((4, 4)))
    cell, mines, safe = satisfied_number(client)
    for mine in mines:
        client.input.click(*client.geometry.cell_center(mine), "right")
    client.input.click(*client.geometry.cell_center(cell))
    assert all(client.game.board[n] == Cell.COVERED for n in safe)


def test_frames_are_cached_until_something_changes(monkeypatch) -> None:
    client = sim()
    painted: list[list[tuple[int, int]] | None] = []
    original = bot.mock.paint_board

    def counting(target, board, skin, geometry, cells=None):  # type: ignore[no-untyped-def]
        painted.append(None if cells is None else list(cells))
        original(target, board, skin, geometry, cells)

    monkeypatch.setattr(bot.mock, "paint_board", counting)
    for _ in range(5):
        client.capture.grab()
    assert painted == []
    client.input.click(*client.geometry.cell_center((1, 1)), "right")
    client.capture.grab()
    client.capture.grab()
    assert painted == [[(1, 1)]]
    client.input.move(5, 5)
    client.capture.grab()
    assert len(painted) == 1 and client.pointer == (5, 5)


@pytest.mark.parametrize("scale", [1.0, 2.04])
def test_incremental_frames_equal_a_full_render(scale: float) -> None:
    client = sim(rule="safe", seed=8, scale=scale, clutter=True, screen_size=(1024, 768))
    for cell, button in [((0, 0), "right"), ((4, 4), "left"), ((8, 0), "left"), ((0, 0), "right")]:
        client.input.click(*client.geometry.cell_center(cell), button)
        client.tick(2.5)
        expected, geometry = render_screen(
            client.game.board,
            scale=scale,
            status=client.status,
            mines_left=client.mines_left,
            seconds=client.seconds,
            screen_size=(1024, 768),
            origin=client.origin,
            seed=8,
        )
        assert geometry == client.geometry
        assert np.array_equal(client.capture.grab(), expected), cell


def test_sim_backends_are_ordinary_backends() -> None:
    client = sim(level="16x30/99", screen_size=(1280, 800))
    assert isinstance(client.capture, CaptureBackend) and isinstance(client.input, InputBackend)
    assert client.geometry.region().width == 30 * 16 and client.game.mines == 99
    with pytest.raises(SimError, match="level"):
        sim(level="huge")
    assert sim(rows=5, cols=12, mines=7).game.board.shape == (5, 12)
    with pytest.raises(SimError, match="together"):
        sim(rows=5, cols=12)
    with pytest.raises(SimError, match="impossible"):
        sim(rows=2, cols=2, mines=4)
    with pytest.raises(SimError, match="rule"):
        sim(rule="lucky")
    assert sim(screen_size=None).capture.screen_region().width == 1280
    big = sim(level="expert", scale=2.5, screen_size=None)
    assert big.capture.screen_region().width == 1920
    client.close()
    with pytest.raises(CaptureError, match="closed"):
        client.capture.grab()


# -- replays --------------------------------------------------------------------------------------------


def frames(n: int) -> list[np.ndarray]:
    return [np.full((20, 30, 3), 10 * i, np.uint8) for i in range(n)]


def test_replay_client_shows_the_next_frame_after_each_click() -> None:
    client = ReplayClient(frames(3))
    seen = [int(client.capture.grab()[0, 0, 0])]
    client.input.move(1, 1)  # moving does not advance
    seen.append(int(client.capture.grab()[0, 0, 0]))
    client.input.click(3, 4)
    seen.append(int(client.capture.grab()[0, 0, 0]))
    client.input.press("F2")
    seen.append(int(client.capture.grab()[0, 0, 0]))
    assert seen == [0, 0, 10, 20]
    client.assert_all_frames_used()
    assert [(e.kind, e.x, e.y) for e in client.input.clicks] == [("click", 3, 4)]
    client.close()


def test_replay_client_complains_about_unused_frames_and_overruns() -> None:
    client = ReplayClient(frames(3))
    client.capture.grab()
    client.input.click(1, 1)
    with pytest.raises(AssertionError, match=r"never grabbed: array#1, array#2"):
        client.assert_all_frames_used()
    client.capture.grab()
    client.input.click(1, 1)
    client.capture.grab()
    client.input.click(1, 1)
    with pytest.raises(AssertionError, match="1 input event"):
        client.assert_all_frames_used()


def test_a_loop_cannot_tell_sim_from_replay() -> None:
    """The same few lines drive both: grab, click the middle of the grabbed area, grab again."""

    def loop(capture: CaptureBackend, mouse: InputBackend) -> tuple[int, int]:
        before = capture.grab()
        region = capture.screen_region()
        mouse.click(region.left + region.width // 2, region.top + region.height // 2)
        after = capture.grab()
        return before.shape[:2], int((before != after).any(axis=-1).sum())

    client = sim(level="30x40/100", screen_size=(800, 800), origin=(0, 0))
    shape, changed = loop(client.capture, client.input)
    assert shape == (800, 800) and changed > 0
    replay = ReplayClient([client.frame().copy(), np.zeros((800, 800, 3), np.uint8)])
    shape, changed = loop(replay.capture, replay.input)
    assert shape == (800, 800) and changed > 0
    replay.assert_all_frames_used()


# -- disturbances: the window moved, part of it covered ---------------------------------------------------


def test_disturbance_schedules_are_seeded_per_game() -> None:
    rough = bot.mock.Disturbances(moves=2, covers=1, within_clicks=10, seed=4)
    assert rough.schedule(0) == rough.schedule(0) and rough.schedule(0) != rough.schedule(1)
    moves, covers = rough.schedule(3)
    assert len(moves) == 2 and len(covers) == 1 and moves | covers <= set(range(1, 11))
    assert bot.mock.Disturbances().schedule(0) == (set(), set())


def test_a_moved_window_shows_and_answers_at_its_new_place() -> None:
    client = sim(rule="zero")
    old, (x0, y0) = client.geometry, client.origin
    client.move_window((300, 200))
    new = client.geometry
    assert (new.left - old.left, new.top - old.top) == (300 - x0, 200 - y0) and client.origin == (300, 200)
    assert new.face == old.face.offset(300 - x0, 200 - y0)
    client.input.click(*new.cell_center((4, 4)))
    board = client.game.board
    assert board[4, 4] == Cell.ZERO and client.history[-1].cell == (4, 4)
    for cell in board:
        rect = new.cell_rect(cell)
        assert np.array_equal(crop(client, cell), classic_cell(board[cell], rect.width, rect.height)), cell


def test_moves_and_covers_happen_at_the_first_frame_after_their_click() -> None:
    rough = bot.mock.Disturbances(moves=1, covers=1, cover_frames=3, within_clicks=1, seed=1)
    client = sim(rule="zero", disturbances=rough)
    before = client.geometry
    client.input.click(*before.cell_center((4, 4)))  # click 1: both are due
    assert client.geometry == before and client.moves_done == 0
    client.frame()
    assert client.geometry != before and client.moves_done == 1 and client.cover is not None
    cover = client.cover
    assert cover.left < client.geometry.region().right and cover.right > client.geometry.region().left
    inside = (cover.left + cover.width // 2, cover.top + cover.height // 2)
    shown = client.frame()
    assert tuple(shown[inside[1], inside[0]]) in ((200, 120, 60), (120, 40, 10))
    moves = client.game.moves
    client.input.click(*inside)  # the covering window takes the click
    assert client.history[-1].covered and client.game.moves == moves
    client.frame()
    assert client.cover is None  # three frames later it is gone
    assert np.array_equal(client.frame(), client.frame())
