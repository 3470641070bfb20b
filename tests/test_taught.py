"""The taught skin: templates cut from exactly read frames read the next frames, or hand them back."""

from __future__ import annotations

import numpy as np
import pytest

from bot.board import Board, Cell
from bot.game import Game
from bot.geometry import Geometry
from bot.render import render_screen
from bot.vision.read import generic_skin, read_board
from bot.vision.taught import TAUGHT, TaughtSkin, reduce_board

SCREEN = (640, 480)


def shot(
    board: Board, skin: str = "classic", scale: float = 1.25, cursor=None, origin=(20, 30)
) -> tuple[np.ndarray, Geometry]:
    return render_screen(
        board, skin, scale, screen_size=SCREEN, origin=origin, seed=3, clutter=False, cursor_at=cursor
    )


def game_frames(seed: int, moves: int = 12) -> list[Board]:
    """Successive boards of one game: a first opening, then safe cells opened one by one."""
    game = Game(9, 9, 10, rule="zero", seed=seed)
    game.open((4, 4))
    layout = game.layout
    assert layout is not None
    rng = np.random.default_rng(seed)
    frames = [game.board.copy()]
    for _ in range(moves):
        covered = [cell for cell in game.board.covered() if not layout[cell]]
        if not covered:
            break
        game.open(covered[int(rng.integers(len(covered)))])
        frames.append(game.board.copy())
    return frames


@pytest.mark.parametrize(("skin", "scale"), [("classic", 1.25), ("winemine", 1.5), ("xdemineur", 1.0)])
def test_a_game_is_read_from_its_own_frames_and_never_misread(skin: str, scale: float) -> None:
    taught, fast = TaughtSkin(), 0
    frames = game_frames(seed=7)
    for board in frames:
        image, geometry = shot(board, skin, scale)
        reading = taught.read(image, geometry)
        if reading is None:  # the skinless reader's turn: its exact reading (the truth here) teaches
            taught.learn(image, geometry, board.cells)
            assert taught.read(image, geometry) is not None, "a frame just taught reads from its templates"
        else:
            fast += 1
            assert reading.skin_name == TAUGHT
            np.testing.assert_array_equal(reading.states, board.cells)
    assert fast >= len(frames) // 2


def test_a_state_never_taught_hands_the_frame_back() -> None:
    taught = TaughtSkin()
    before = Board.from_text("1..\n11.\n01.", mines=2)
    image, geometry = shot(before)
    taught.learn(image, geometry, before.cells)
    for text in ("1..\n12.\n01.", "1F.\n11.\n01.", "13.\n11.\n01."):
        after = Board.from_text(text, mines=3)
        image, geometry = shot(after)
        assert taught.read(image, geometry) is None, text


def test_a_pointer_over_a_cell_hands_the_frame_back_or_reads_it_right() -> None:
    board = Board.from_text("1..\n11.\n01.", mines=2)
    taught = TaughtSkin()
    image, geometry = shot(board)
    taught.learn(image, geometry, board.cells)
    for cell in [(0, 0), (1, 1), (2, 0)]:
        x, y = geometry.cell_center(cell)
        image, geometry = shot(board, cursor=(round(x), round(y)))
        reading = taught.read(image, geometry)
        assert reading is None or np.array_equal(reading.states, board.cells)


def test_another_cell_size_or_a_cut_board_is_not_read() -> None:
    board = Board.from_text("1..\n11.\n01.", mines=2)
    taught = TaughtSkin()
    image, geometry = shot(board)
    taught.learn(image, geometry, board.cells)
    bigger, at = shot(board, scale=1.5)
    assert taught.read(bigger, at) is None
    assert reduce_board(image[:, : round(geometry.left) + 10], geometry) is None


def test_a_moved_board_is_still_read() -> None:
    board = Board.from_text("1..\n11.\n01.", mines=2)
    taught = TaughtSkin()
    image, geometry = shot(board)
    taught.learn(image, geometry, board.cells)
    moved, at = shot(board, origin=(57, 41))
    reading = taught.read(moved, at)
    assert reading is not None
    np.testing.assert_array_equal(reading.states, board.cells)


def test_read_board_with_no_skin_goes_through_the_templates_once_taught() -> None:
    skin = generic_skin()
    frames = game_frames(seed=11, moves=4)
    names = []
    for board in frames:
        image, geometry = shot(board)
        reading = read_board(image, geometry, skin, 10)
        assert reading.board == Board(board.cells, 10)
        names.append(reading.cells.skin_name)
    assert names[0].startswith("generic") and names[0] != TAUGHT
    assert TAUGHT in names[1:]


def test_what_a_game_taught_outlives_any_number_of_other_skins_read_meanwhile() -> None:
    """A session reads many skins (``--skin auto``, a stand-in per game): none of them evicts the taught
    templates of the game going on (before: a shared cache of 64 entries was cleared when full, and a
    game lost its templates mid-way, then stopped on a refusal it could have played around)."""
    import gc
    import weakref

    from bot.vision.classify import per_skin
    from bot.vision.read import taught_skin

    skin = generic_skin()
    frames = game_frames(seed=11, moves=2)
    image, geometry = shot(frames[0])
    read_board(image, geometry, skin, 10)
    taught = taught_skin(skin)

    class Built:
        """Something built for a skin (weakly referable)."""

    others = [generic_skin() for _ in range(200)]
    for other in others:
        per_skin(other, "some result", lambda _: Built())
    assert taught_skin(skin) is taught
    image, geometry = shot(frames[1])
    assert read_board(image, geometry, skin, 10).cells.skin_name == TAUGHT
    gone = weakref.ref(others[0].memo["some result"])
    del others
    gc.collect()
    assert gone() is None  # what was built for a skin goes with it


def test_learning_keeps_at_most_a_few_looks_per_state() -> None:
    taught = TaughtSkin()
    rng = np.random.default_rng(1)
    board = Board.from_text("...\n...\n...")
    image, geometry = shot(board)
    for _ in range(12):  # noise: every frame a new look of the covered state
        noisy = np.clip(image.astype(int) + rng.integers(-60, 60, image.shape), 0, 255).astype(np.uint8)
        taught.learn(noisy, geometry, board.cells)
    assert 1 <= len(taught.looks[Cell.COVERED]) <= 8


def test_cells_whose_pixels_did_not_change_keep_their_state_and_a_changed_one_is_checked() -> None:
    before = Board.from_text("1..\n11.\n01.", mines=2)
    taught = TaughtSkin()
    image, geometry = shot(before)
    taught.learn(image, geometry, before.cells)
    again = taught.read(image, geometry)
    assert again is not None and np.array_equal(again.states, before.cells)
    after = Board.from_text("1.2\n11.\n01.", mines=3)  # one cell changed, to a state never taught
    image, geometry = shot(after)
    assert taught.read(image, geometry) is None
    image, geometry = shot(before)
    image[round(geometry.top) : round(geometry.top + geometry.pitch_y), round(geometry.left) :] = 255
    assert taught.read(image, geometry) is None  # a row painted over: its cells match no look


def test_a_board_of_another_size_drawn_alike_is_read_from_the_same_looks() -> None:
    taught = TaughtSkin()
    small = Board.from_text("1..\n11.\n01.", mines=2)
    image, geometry = shot(small)
    taught.learn(image, geometry, small.cells)
    wider = Board.from_text("1...\n11..\n01..", mines=2)
    image, geometry = shot(wider)
    reading = taught.read(image, geometry)
    assert reading is not None and np.array_equal(reading.states, wider.cells)


def test_a_state_never_taught_is_not_read_as_a_near_look_of_another():
    """One ink for every digit (GNOME Mines): a 4 drawn near a taught 3 is handed back to the skinless
    reader, not read as the 3 (the templates read only within half the distance between two states)."""
    from bot.vision.classify import FEATURE_SIZE
    from bot.vision.taught import look_distances

    size, ground, ink = FEATURE_SIZE, 200, 140
    three = np.full((size, size, 3), ground, np.uint8)
    three[1:7, 3:5] = ink
    three[1:7, 6] = ink
    two, four = three.copy(), three.copy()
    two[5:7, 6], two[5:7, 1] = ground, ink  # taught states one stroke apart
    four[2:4, 1] = ink  # a 3 with a stroke more: nearer the 3 than the 2 is
    covered = np.full((size, size, 3), 90, np.uint8)
    geometry = Geometry(0, 0, size, size, 1, 3)
    taught = TaughtSkin()
    taught.learn(np.hstack([two, three, covered]), geometry, np.array([[Cell.TWO, Cell.THREE, Cell.COVERED]]))
    d = look_distances(np.stack([two, three, four]), np.stack([two, three, four]))
    assert d[2, 1] < 12.0 and d[2, 1] < 0.7 * d[2, 0]  # the old fixed 12 read the 4 as a sure 3
    reach = taught.limits()[Cell.THREE]
    assert reach == pytest.approx(0.5 * d[0, 1], rel=0.01) and reach < d[2, 1]
    _, reading = taught.classify(np.hstack([three, two, covered]), geometry)
    assert not reading.uncertain_mask().any()  # what it was taught it reads
    _, reading = taught.classify(np.hstack([two, four, covered]), geometry)
    assert reading.uncertain_mask().tolist() == [[False, True, False]]  # the 4 goes to the skinless reader


def test_a_blank_drawn_near_a_covered_tile_does_not_narrow_the_reach_of_digits():
    """KMines: blanks on a shaded ground sit near its covered tiles, but digits are drawn in colours far
    apart; a 1 on a lighter patch of ground is still read from the templates (the reach is per kind)."""
    from bot.vision.classify import FEATURE_SIZE

    size = FEATURE_SIZE
    covered, zero = np.full((size, size, 3), 100, np.uint8), np.full((size, size, 3), 108, np.uint8)
    one, two = np.full((size, size, 3), 200, np.uint8), np.full((size, size, 3), 200, np.uint8)
    one[1:7, 4] = (160, 40, 40)
    two[1, 2:6], two[6, 2:6], two[2:6, 5] = (40, 140, 40), (40, 140, 40), (40, 140, 40)
    geometry = Geometry(0, 0, size, size, 1, 4)
    taught = TaughtSkin()
    taught.learn(np.hstack([covered, zero, one, two]), geometry, np.array([[9, 0, 1, 2]]))
    lighter = one.copy()
    lighter[(one == 200).all(axis=2)] = 206  # the same 1 on a lighter ground: 5.5 from its look
    reach = taught.limits()
    assert reach[Cell.COVERED] == pytest.approx(4.0, abs=0.1) and reach[Cell.ONE] > 5.5
    _, reading = taught.classify(np.hstack([covered, zero, lighter, two]), geometry)
    assert not reading.uncertain_mask().any() and reading.states.tolist() == [[9, 0, 1, 2]]
    between = np.full((size, size, 3), 104, np.uint8)  # halfway between a covered tile and a blank
    _, reading = taught.classify(np.hstack([between, zero, one, two]), geometry)
    assert reading.uncertain_mask().tolist() == [[True, False, False, False]]
