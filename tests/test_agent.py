"""The play loop, run headless against the simulated client and doctored screens."""

import json
import sys
import types

import numpy as np
import pytest
from fakes import FakeTime

from bot.agent import (
    FirstClickLog,
    Player,
    PlayOptions,
    SessionSummary,
    check_progress,
    flag_the_rest,
    parse_new_game,
    same_game,
    unsettled_zero,
)
from bot.agent.checks import unexplained_change
from bot.agent.ending import judge_end
from bot.board import Board, Cell
from bot.capture import CaptureBackend
from bot.cli import main
from bot.errors import AbortedError, MinebotError, RecognitionError
from bot.game import FirstClickRule, GameStatus
from bot.geometry import Region
from bot.mock import Disturbances, SimClient
from bot.solver import Action, Move


def sim(level="beginner", seed=1, **kwargs):
    return SimClient(level, seed=seed, screen_size=(900, 700), **kwargs)


def all_clicks_on_board_or_face(client: SimClient) -> bool:
    return all(click.cell is not None or click.on_face for click in client.history)


def test_plays_beginner_games_to_the_end_with_every_click_on_the_board():
    client = sim()
    player = Player(client.capture, client.input, PlayOptions(games=4), sleep=lambda s: None)
    summary = player.run()
    assert summary.games == 4 and summary.stopped is None
    assert all(r.status in ("won", "lost") for r in summary.results)
    assert all(r.error is None and r.rereads == 0 for r in summary.results)
    assert client.games_started == 4  # three face clicks started new games
    assert all_clicks_on_board_or_face(client)
    assert summary.wins >= 2  # the solver wins ~92% of beginner games


def test_a_won_game_matches_the_simulator():
    client = sim(seed=5)
    result = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None).play_game()
    assert result.status == client.game.status.value
    assert result.clicks == client.clicks and result.moves >= 1
    assert result.timings and all(t.own > 0 for t in result.timings)


def test_plays_a_scaled_expert_board():
    client = sim("expert", seed=2, scale=1.25, clutter=True)
    result = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None).play_game()
    assert result.status in ("won", "lost") and result.error is None
    assert all_clicks_on_board_or_face(client)


class Doctored(CaptureBackend):
    """Serves a sim's screen, but paints over one cell from the n-th grab on (a misread)."""

    name = "doctored"

    def __init__(self, client: SimClient, cell, after: int, paint) -> None:
        super().__init__()
        self.client, self.cell, self.after, self.paint = client, cell, after, paint
        self.grabs = 0

    def screen_region(self) -> Region:
        return self.client.capture.screen_region()

    def _grab(self, region: Region) -> np.ndarray:
        self.grabs += 1
        image = self.client.capture.grab(None).copy()
        if self.grabs > self.after:
            rect = self.client.geometry.cell_rect(self.cell)
            self.paint(image, rect, self.client)
        return image[region.top : region.bottom, region.left : region.right].copy()


def smear(image, rect, client):
    image[rect.top : rect.bottom, rect.left : rect.right] = (40, 200, 40)


def as_covered(image, rect, client):
    covered = client.geometry.cell_rect((0, 0))  # never opened in this test: the first click is elsewhere
    image[rect.top : rect.bottom, rect.left : rect.right] = image[
        covered.top : covered.bottom, covered.left : covered.right
    ]


@pytest.mark.parametrize("paint", [smear, as_covered])
def test_a_misread_stops_the_game_without_clicking(paint, tmp_path):
    client = sim("expert", seed=11, rule="zero")
    # Open an area first so a revealed cell exists, then doctor the screen from then on.
    client.input.click(*client.geometry.cell_center((8, 15)))
    revealed = [c for c in client.game.board.cells_where(client.game.board.revealed_mask()) if c != (0, 0)]
    capture = Doctored(client, revealed[0], after=3, paint=paint)
    clicks_before = client.clicks
    options = PlayOptions(retries=2, save_frames=tmp_path, settle_timeout=0.2, cover_wait=0.3)
    time = FakeTime()  # waits counted in the loop's own sleeps, so the machine's load cannot change them
    player = Player(capture, client.input, options, clock=time.clock, sleep=time.sleep)
    result = player.play_game()
    doctored = revealed[0]
    near = [(doctored[0] + dr, doctored[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
    assert result.status == "error" and any(str(cell) in result.error for cell in near)
    assert "frame saved" in result.error and list(tmp_path.glob("minebot-misread-*.png"))
    assert "calibrate" not in result.error  # the cell was revealed before: no new state to teach
    if paint is as_covered:  # read in full but inconsistent, at the same place: stopped at once
        assert result.rereads == 4 and "unreadable" not in result.error
    else:  # unreadable: perhaps covered by another window, so waited for (bounded), then stopped
        assert result.rereads > 4 and "unreadable for 0.3 s" in result.error
    # No click was sent after the misread appeared (grabs 4+): only moves decided on honest reads.
    assert client.clicks - clicks_before == result.clicks


def as_exploded(image, rect, client):
    from bot.render import render_board

    mine = render_board(Board.from_text("X", mines=1), "classic")  # the classic look at scale 1
    image[rect.top : rect.bottom, rect.left : rect.right] = mine[: rect.height, : rect.width]


def test_an_end_read_where_a_revealed_cell_changed_is_a_misread_not_a_loss(tmp_path):
    """GNOME Mines at 900x640, read with no skin half a pixel off its grid, showed its opened 0, 1, 1, 2
    as covered, flag, flag and exploded mine: the game was taken as lost after two clicks (it was on),
    and the keys sent for a new game opened its "start a new game?" dialog. A revealed cell never
    changes, not even at a game's end: such a reading is refused and the game stops, naming the cell,
    instead of ending as a loss the board cannot show."""
    client = sim("expert", seed=11, rule="zero")
    client.input.click(*client.geometry.cell_center((8, 15)))
    revealed = [c for c in client.game.board.cells_where(client.game.board.revealed_mask()) if c != (0, 0)]
    numbered = [c for c in revealed if client.game.board[c].is_number() and client.game.board[c] != Cell.ZERO]
    capture = Doctored(client, numbered[0], after=3, paint=as_exploded)
    options = PlayOptions(retries=2, save_frames=tmp_path, settle_timeout=0.2, cover_wait=0.3)
    time = FakeTime()
    result = Player(capture, client.input, options, clock=time.clock, sleep=time.sleep).play_game()
    assert result.status == "error" and client.game.status is GameStatus.PLAYING
    assert f"cell {numbered[0]}" in result.error and "frame saved" in result.error


def test_an_end_the_board_alone_shows_keeps_every_cell_revealed_before():
    """With no face, the end is the board's own: the 900x640 GNOME reading (0, 1, 1, 2 read as covered,
    flag, flag, exploded) is refused, whether the board before showed them open or (the first click not
    yet drawn) still fresh: a mine explodes only where a click landed. A real loss is not refused."""
    from bot.agent.sight import Sight

    client = sim(rule="zero")
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player._reach = np.zeros((3, 4), dtype=bool)
    player._reach[0, 0] = player._reach[1, 2] = True  # the cells this game clicked
    before = Board.from_text("01..\n12..\n....", mines=3)
    fresh = Board.from_text("....\n....\n....", mines=3)
    misread = Sight(Board.from_text(".F..\nFX..\n....", mines=3), GameStatus.LOST, None, "board")
    lost = Sight(Board.from_text("01*.\n12X.\n..*.", mines=3), GameStatus.LOST, None, "board")
    assert "cell (0, 0) read as '.' but was '0' before" in player._inconsistency(before, misread, [(1, 2)])
    stray = "cell (1, 1) reads as an exploded mine where no click landed"
    assert stray in player._inconsistency(fresh, misread, [(0, 0)])
    mines = Sight(Board.from_text(".*..\nF*..\n....", mines=3), GameStatus.LOST, None, "board")
    assert "no cell this game clicked holds one" in player._inconsistency(fresh, mines, [(0, 0)])
    assert player._inconsistency(before, lost, [(1, 2)]) == ""
    assert player._inconsistency(fresh, lost, [(1, 2)]) == ""


def test_an_end_judged_from_the_cells_read_surely_is_checked_as_the_boards_end():
    """GNOME Mines at 900x640, live (session 18): the skinless reader read an opened 0, 1, 1, 3 as covered,
    flag, flag and exploded mine, and refused the frame (3 of the 99 mines shown); but the templates that
    reading had taught read those cells surely, and the end they showed (``board (some cells
    unreadable)``) was taken as a loss after two clicks, unchecked. The keys sent for a new game then
    opened GNOME's "start a new game?" dialog over the game still on. An end seen on some cells is the
    board's end all the same: checked as one (a mine explodes only where a click landed)."""
    from bot.agent.sight import Sight

    client = sim(rule="zero")
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player._reach = np.zeros((3, 4), dtype=bool)
    player._reach[0, 0] = player._reach[1, 2] = True  # the cells this game clicked
    fresh = Board.from_text("....\n....\n....", mines=3)
    how = "board (some cells unreadable)"  # what Player._judge_unreadable says
    misread = Sight(Board.from_text(".F..\nFX..\n....", mines=3), GameStatus.LOST, None, how)
    assert "cell (1, 1) reads as an exploded mine where no click landed" in player._inconsistency(
        fresh, misread, [(0, 0)]
    )
    lost = Sight(Board.from_text("01*.\n12X.\n..*.", mines=3), GameStatus.LOST, None, how)
    assert player._inconsistency(fresh, lost, [(1, 2)]) == ""


def test_a_misread_with_no_skin_stops_the_game_without_clicking(tmp_path):
    """The skinless reader refuses a smeared frame whole: the game stops safely (no crash, no click)."""
    client = SimClient("beginner", seed=11, rule="zero", screen_size=(900, 700), scale=2.0)
    client.input.click(*client.geometry.cell_center((4, 4)))
    revealed = [c for c in client.game.board.cells_where(client.game.board.revealed_mask()) if c != (0, 0)]
    capture = Doctored(client, revealed[0], after=3, paint=smear)
    clicks_before = client.clicks
    options = PlayOptions(skin="generic", retries=2, save_frames=tmp_path, settle_timeout=0.2, cover_wait=0.3)
    result = Player(capture, client.input, options, sleep=lambda s: None).play_game()
    assert result.skin == "generic"
    assert result.status == "error" and "frame saved" in result.error
    assert client.clicks - clicks_before == result.clicks


def test_check_progress_flags_a_revealed_cell_that_changed():
    before = Board.from_text("12.\n...")
    assert check_progress(before, Board.from_text("12.\n1..")) is None
    assert check_progress(before, Board.from_text("13.\n...")) == (0, 1)
    assert check_progress(before, Board.from_text(".2.\n...")) == (0, 0)


def test_dry_run_clicks_nothing_and_reports_moves():
    client = sim()
    seen = []
    clock = iter(range(10_000))
    options = PlayOptions(dry_run=True, time_limit=50)
    player = Player(
        client.capture,
        client.input,
        options,
        clock=lambda: next(clock),
        sleep=lambda s: None,
        on_move=lambda board, moves: seen.append(moves),
    )
    summary = player.run()
    assert client.clicks == 0 and seen and "time limit" in summary.stopped


def test_time_limit_stops_cleanly():
    client = sim("expert")
    clock = iter(range(0, 10_000, 10))
    player = Player(
        client.capture,
        client.input,
        PlayOptions(games=3, time_limit=25),
        clock=lambda: next(clock),
        sleep=lambda s: None,
    )
    summary = player.run()
    assert isinstance(summary, SessionSummary) and "time limit" in summary.stopped


def test_no_wait_outlasts_the_time_limit():
    """A politeness delay of 10^20 s stops the session at its 25 s limit, not after the delay."""
    client = sim("beginner")
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    options = PlayOptions(games=3, time_limit=25, delay=1e20)
    summary = Player(client.capture, client.input, options, clock=lambda: now[0], sleep=sleep).run()
    assert "time limit of 25 s reached" in summary.stopped and now[0] == pytest.approx(25)


def test_aborted_error_from_input_stops_the_session():
    client = sim()

    def click(x, y, button):
        raise AbortedError("stopped by the fail-safe")

    client.input._click = click
    summary = Player(client.capture, client.input, PlayOptions(games=2), sleep=lambda s: None).run()
    assert summary.games == 0 and "fail-safe" in summary.stopped
    assert client.clicks == 0


def test_cli_plays_the_sim_and_logs_results(tmp_path, capsys):
    log = tmp_path / "results.jsonl"
    code = main(["play", "--client", "sim", "--level", "beginner", "--games", "2", "--results-log", str(log)])
    out = capsys.readouterr().out
    assert code == 0 and "games 2, wins" in out and "per move ms" in out
    assert "played: a 9x9 board with 10 mines, skin classic" in out
    assert "the simulated client dealt 2 beginner game(s): 9 rows by 9 columns with 10 mines" in out
    assert "classic skin (seed 0)" in out and "in its games the first click is never on a mine" in out
    assert "winxp" not in out and "as observed" not in out  # said in words, not in the rules' names
    assert "add --show" in out and "add --save-frames DIR" in out
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["game"] for line in lines] == [0, 1]
    assert all(line["status"] in ("won", "lost") for line in lines)
    assert all(line["board"] == "9x9/10" and line["skin"] == "classic" and line["rule"] for line in lines)


def test_cli_show_prints_the_board_each_game_ended_on_and_how(tmp_path, capsys):
    log = tmp_path / "results.jsonl"
    argv = ["play", "--client", "sim", "--level", "beginner", "--games", "2", "--show"]
    assert main([*argv, "--results-log", str(log)]) == 0
    out = capsys.readouterr().out
    ends = [json.loads(line)["status"] for line in log.read_text().splitlines()]
    blocks = out.split("\n\n")
    shown = [b.splitlines() for b in blocks if b.splitlines()[-1:] in (["game won"], ["game lost"])]
    assert [lines[-1] for lines in shown] == [f"game {status}" for status in ends]
    for lines, status in zip(shown, ends, strict=True):
        board = Board.from_text("\n".join(lines[:-1]))
        assert board.shape == (9, 9)
        assert (status == "lost") == bool((board.cells == Cell.EXPLODED).any())  # the end, not a move
        assert status == "lost" or not board.covered_mask().sum() > 10  # a won board: only mines covered


def test_cli_refuses_a_non_standard_board_without_mines(capsys):
    code = main(
        [
            "play",
            "--client",
            "sim",
            "--level",
            "10x12/20",
            "--mines",
            "20",
            "--games",
            "1",
            "--results-log",
            "/dev/null",
        ]
    )
    assert code == 0
    with pytest.raises(SystemExit) as usage:
        main(["play", "--games", "0"])
    assert usage.value.code == 2
    assert "expected a whole number >= 1, got '0'" in capsys.readouterr().err


def test_flag_the_rest_only_when_every_covered_cell_is_a_mine():
    assert [m.cell for m in flag_the_rest(Board.from_text("1.\n1.", mines=2))] == [(0, 1), (1, 1)]
    assert all(m.action is Action.FLAG for m in flag_the_rest(Board.from_text("1.\n1.", mines=2)))
    assert flag_the_rest(Board.from_text("1.\n1.", mines=1)) == []
    assert flag_the_rest(Board.from_text("1F\n1.", mines=2)) == [
        Move(Action.FLAG, (1, 1), 1.0, "every covered cell left is a mine")
    ]
    assert flag_the_rest(Board.from_text("11\n11", mines=0)) == []


def test_a_zero_next_to_a_covered_cell_is_unsettled():
    assert unsettled_zero(Board.from_text("0.\n11")) == (0, 0)
    assert unsettled_zero(Board.from_text("00\n11\n..")) is None
    assert (
        unsettled_zero(Board.from_text("1F\n0F")) is None
    )  # flags are not covered (and the solver judges them)


def test_a_just_clicked_zero_may_turn_into_its_number():
    before = Board.from_text("110\n1..")
    after = Board.from_text("111\n1..")
    assert check_progress(before, after) == (0, 2)
    assert check_progress(before, after, clicked=[(0, 2)]) is None
    assert check_progress(Board.from_text("12\n.."), Board.from_text("13\n.."), clicked=[(0, 1)]) == (0, 1)


class Pressed(CaptureBackend):
    """A sim screen where the cell just clicked looks like a 0 (winemine's pressed look) for three grabs."""

    name = "pressed"

    def __init__(self, client: SimClient) -> None:
        super().__init__()
        self.client = client
        self.zero = None
        self.shown: dict = {}

    def screen_region(self) -> Region:
        return self.client.capture.screen_region()

    def _grab(self, region: Region) -> np.ndarray:
        image = self.client.capture.grab(None).copy()
        if self.zero is None:  # a revealed 0 cell to copy from, once the game has one
            zeros = self.client.game.board.cells_where(self.client.game.board.cells == 0)
            self.zero = self.client.geometry.cell_rect(zeros[0]) if zeros else None
        last = self.client.history[-1].cell if self.client.history else None
        if self.zero is not None and last is not None and self.shown.get(last, 0) < 3:
            self.shown[last] = self.shown.get(last, 0) + 1  # three grabs after a click show it pressed
            rect, z = self.client.geometry.cell_rect(last), self.zero
            image[rect.top : rect.bottom, rect.left : rect.right] = image[z.top : z.bottom, z.left : z.right]
        return image[region.top : region.bottom, region.left : region.right].copy()


def test_pressed_cells_that_look_like_zero_are_never_acted_on():
    for seed in range(3):
        client = sim("expert", seed=seed, rule="zero")
        options = PlayOptions(settle_timeout=0.05, quiet=0)
        result = Player(Pressed(client), client.input, options, sleep=lambda s: None).play_game()
        assert result.error is None and result.status in ("won", "lost")
        if result.status == "lost":
            assert result.guesses >= 1  # lost on a guess, never on a move deduced from a pressed cell


def test_ctrl_c_stops_cleanly_with_the_games_so_far():
    client = sim()
    calls = {"n": 0}
    original = client.input._click

    def click(x, y, button):
        calls["n"] += 1
        if client.games_started == 2:  # in the second game
            raise KeyboardInterrupt
        original(x, y, button)

    client.input._click = click
    summary = Player(client.capture, client.input, PlayOptions(games=3), sleep=lambda s: None).run()
    assert summary.games == 1 and "Ctrl-C" in summary.stopped and summary.interrupted
    assert "stopped: interrupted (Ctrl-C)" in summary.format()


def test_minebot_play_stopped_by_ctrl_c_prints_the_summary_and_exits_130(tmp_path, monkeypatch, capsys):
    from bot.cli import main

    def interrupted(self, index):
        raise KeyboardInterrupt

    monkeypatch.setattr(Player, "play_game", interrupted)
    log = tmp_path / "results.jsonl"
    assert main(["play", "--client", "sim", "--level", "beginner", "--results-log", str(log)]) == 130
    assert "no game played (interrupted (Ctrl-C))" in capsys.readouterr().out


# -- faults a player causes: the window moved or covered mid-game --------------------------------------


def play_disturbed(disturbances, games=2, level="intermediate", **options):
    """Play with windows moved and covered; the player's clock runs only as it sleeps, so a cover that
    lasts some frames ends within ``cover_wait`` however slowly this machine reads them."""
    client = SimClient(level, seed=7, screen_size=(1024, 768), disturbances=disturbances)
    options = PlayOptions(games=games, cover_wait=5, **options)
    time = FakeTime()
    summary = Player(client.capture, client.input, options, clock=time.clock, sleep=time.sleep).run()
    return client, summary


def test_moved_and_covered_windows_lose_no_game_and_no_click_leaves_the_board():
    rough = Disturbances(moves=2, covers=1, cover_frames=40, within_clicks=8, seed=3)
    client, summary = play_disturbed(rough, games=3)
    assert all(r.error is None for r in summary.results) and summary.stopped is None
    assert all(r.status == "won" or r.guesses >= 1 for r in summary.results)  # a loss is a guess's, only
    assert client.moves_done >= 3 and client.covers_done >= 1
    assert sum(r.relocations for r in summary.results) >= 2
    assert all_clicks_on_board_or_face(client) and not any(click.covered for click in client.history)


def vanish(image, rect, client):
    """The whole window disappears (closed)."""
    window = client.geometry.region()
    image[window.top - 80 : window.bottom + 20, window.left - 20 : window.right + 20] = (90, 60, 30)


def vanishing(client: SimClient, after: int) -> Doctored:
    """A sim screen where the whole window is gone from the n-th grab on."""
    return Doctored(client, (0, 0), after=after, paint=vanish)


def test_a_board_gone_for_good_stops_after_the_bounded_wait_without_clicking(tmp_path):
    client = sim("expert", seed=3, rule="zero")
    capture = vanishing(client, after=6)
    options = PlayOptions(cover_wait=0.4, save_frames=tmp_path, retries=1)
    player = Player(capture, client.input, options, sleep=lambda s: None)
    result = player.play_game()
    clicks = client.clicks
    assert result.status == "error" and "not found for 0.4 s" in result.error
    assert "frame saved" in result.error and result.covered_seconds >= 0.4
    assert clicks == result.clicks and all_clicks_on_board_or_face(client)


def test_a_client_that_takes_no_clicks_stops_the_game_after_three():
    """Clicks that change nothing on the screen (a paused game, a covered window, a picture of a board):
    the game stops after three in a row instead of clicking on for ever."""
    client = sim("beginner", seed=2, rule="zero")
    client.input.client = type("Deaf", (), {"handle": staticmethod(lambda event: None)})()
    options = PlayOptions(settle_timeout=0.2, quiet=0.0)
    result = Player(client.capture, client.input, options, sleep=lambda s: None).play_game()
    assert result.status == "error" and "did not change after 3 clicks" in result.error
    assert result.clicks == 3 and client.game.board.is_fresh()


class Blinking(CaptureBackend):
    """Serves a sim's screen with a mark between the face and the board that blinks at each click the
    client is sent: the screen answers every click, as a browser client in an analysis mode does."""

    name = "blinking"

    def __init__(self, client: SimClient) -> None:
        super().__init__()
        self.client, self.clicks = client, 0

    def screen_region(self) -> Region:
        return self.client.capture.screen_region()

    def _grab(self, region: Region) -> np.ndarray:
        image = self.client.capture.grab(None).copy()
        board = self.client.geometry.region()
        if self.clicks % 2:
            image[board.top - 3, board.left + 2 : board.left + 6] = (0, 0, 255)
        return image[region.top : region.bottom, region.left : region.right].copy()


def test_a_client_that_shows_clicks_but_takes_none_stops_the_game():
    """Each click changes the screen, but the game takes none: the board reads the same before every
    batch. The game stops after a bounded number of batches instead of clicking for ever."""
    client = sim("beginner", seed=2, rule="zero")
    capture = Blinking(client)

    def handle(event) -> None:
        capture.clicks += event.kind == "click"

    client.input.client = type("Blind", (), {"handle": staticmethod(handle)})()
    options = PlayOptions(settle_timeout=0.2, quiet=0.0)
    result = Player(capture, client.input, options, sleep=lambda s: None).play_game()
    assert result.status == "error" and "read the same after 5 batches of clicks" in result.error, (
        result.error
    )
    assert 5 <= result.clicks <= 5 * 9 and client.game.board.is_fresh()


def test_a_grid_too_small_to_be_a_board_is_not_played():
    """A 2x3 lattice (a page or window still drawing, a toolbar) is not taken for the board: no click,
    a clear error (and, at a new game, another look until the real board shows)."""
    client = sim("2x3/1", seed=1)
    result = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None).play_game()
    assert result.status == "error" and "only a 2x3 grid shows" in result.error
    assert client.clicks == 0


def test_a_different_game_found_elsewhere_stops_the_game():
    client = sim("beginner", seed=2, rule="zero")
    original = client.handle

    def handle(event):
        original(event)
        if event.kind == "click" and client.clicks == 2:  # the user starts a new game and drags the window
            client.new_game()
            client.move_window((5, 5))

    client.input.client = type("Hook", (), {"handle": staticmethod(handle)})()
    result = Player(client.capture, client.input, PlayOptions(cover_wait=1), sleep=lambda s: None).play_game()
    assert result.status == "error" and "is not this game" in result.error
    assert client.clicks == result.clicks >= 2 and client.game.board.is_fresh()  # nothing clicked on it


# -- the end of a game, the mine total, the first-click rule, new games ---------------------------------


def test_judge_end_reads_an_end_from_what_can_be_read():
    states = Board.from_text("12\n.X").cells
    sure = np.array([[True, True], [False, True]])
    assert judge_end(states, sure, None, None, 1) == (GameStatus.LOST, "board")
    won = Board.from_text("11\n1.").cells
    unsure_mine = np.array([[True, True], [True, False]])
    assert judge_end(won, unsure_mine, None, None, 1) == (GameStatus.WON, "board")
    assert judge_end(won, unsure_mine, None, None, 2) is None  # a safe cell is still unread
    assert judge_end(won, unsure_mine, GameStatus.WON, None, None) == (GameStatus.WON, "face")
    before = Board.from_text("12\n..")
    assert judge_end(won, unsure_mine, None, before, 1) is None  # a revealed cell changed: a misread


@pytest.mark.parametrize("skin", ["classic", "auto", "generic"])
def test_a_won_screen_the_skin_cannot_read_is_a_win(skin, tmp_path, monkeypatch):
    """Named skin: judged from what it reads and the face. Auto: the skinless reader takes over the
    frames the skin chosen at the start cannot read (and says so in the result). No skin: judged
    from what the templates taught by this game's exact frames read (every safe cell open)."""
    client = sim("beginner", seed=5, rule="zero")
    won = {"seen": False}

    def paint_mines(image, rect, client):
        if client.game.status is GameStatus.WON:  # every mine drawn in a look the skin never saw
            won["seen"] = True
            board = client.game.board
            for cell in board.cells_where(~board.revealed_mask()):
                r = client.geometry.cell_rect(cell)
                image[r.top : r.bottom, r.left : r.right] = (255, 0, 255)

    if skin == "generic":  # a skinless reader that cannot name the client's end-of-game look either
        import bot.vision.read as read

        real = read.read_cells

        def refuses_the_end(image, geometry, model=None):
            if client.game.status is GameStatus.WON:
                raise RecognitionError("cell (0, 0) cannot be named (a test reader)", cell=(0, 0))
            return real(image, geometry, model)

        monkeypatch.setattr(read, "read_cells", refuses_the_end)
    capture = Doctored(client, (0, 0), after=0, paint=paint_mines)
    for seed in range(5, 12):  # the first won game among a few
        client.seed = seed
        client.new_game()
        options = PlayOptions(skin=skin)
        result = Player(capture, client.input, options, sleep=lambda s: None).play_game()
        if result.status == "won":
            break
    assert won["seen"] and result.status == "won" and result.error is None
    if skin == "classic":
        assert result.ended_by == "face (some cells unreadable)" and result.skin == "classic"
    elif skin == "auto":
        assert result.skin == "classic + no skin"
    else:
        assert result.ended_by == "board (some cells unreadable)" and result.skin == "generic"


def test_a_number_no_click_could_have_opened_is_a_misread():
    before = Board.from_text("1....\n.....\n.....")
    reach = np.zeros((3, 5), dtype=bool)
    reach[0, 4] = True  # clicked (0, 4): an area opened around it
    opened = Board.from_text("1..10\n...10\n...21")
    assert unexplained_change(before, opened, reach) is None
    overlay = Board.from_text("1..10\n...10\n7..21")  # a '7' far from any click or 0
    assert unexplained_change(before, overlay, reach) == (2, 0)
    flagged = Board.from_text("1.F..\n.....\n.....")
    assert unexplained_change(before, flagged, reach) == (0, 2)
    reach[0, 2] = True
    assert unexplained_change(before, flagged, reach) is None
    right_clicked = np.zeros((3, 5), dtype=bool)
    assert unexplained_change(before, flagged, reach, right_clicked) == (0, 2)  # a left click never flags
    right_clicked[0, 2] = True
    assert unexplained_change(before, flagged, reach, right_clicked) is None


def test_a_number_beside_an_unnamed_cell_may_have_been_opened_by_it():
    """An unnamed cell (shown covered only because no reader names it) may be the 0 that opened the
    cells around it: they are no misread (xbomb, live: the 0 clicked could not be named, so its area
    read as opened by nothing, and the game stopped)."""
    before = Board.from_text("1....\n.....\n.....")
    reach = np.zeros((3, 5), dtype=bool)
    reach[1, 3] = True  # the click that opened the area
    after = Board.from_text("1.100\n..1.0\n..111")  # (1, 3), the 0 clicked, unnamed
    assert unexplained_change(before, after, reach) == (2, 2)
    unknown = np.zeros((3, 5), dtype=bool)
    unknown[1, 3] = True
    assert unexplained_change(before, after, reach, None, unknown) is None
    unknown[1, 3], unknown[0, 1] = False, True  # an unnamed cell elsewhere explains nothing there
    assert unexplained_change(before, after, reach, None, unknown) == (2, 2)


def test_a_board_read_as_won_with_the_clicked_cell_showing_a_mine_is_lost():
    """No won game shows a mine where a click opened a cell: with no face, a reading that calls such a
    board won (xbomb, live: the session's templates read the exploded mine as a plain one, and every
    safe cell is open at xbomb's loss) is a loss. A face's word stands."""
    from bot.agent.sight import LastClicks

    client = sim("beginner", seed=7)
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    shown = Board.from_text("1*\n11", mines=1)  # every safe cell open, the mine shown
    won = types.SimpleNamespace(board=shown, status=GameStatus.WON, face=None)
    image = np.zeros((4, 4, 3), np.uint8)
    assert player._sight(won, image).status is GameStatus.WON  # no click known
    guess = Move(Action.OPEN, (0, 1), 0.5, "a guess", ((0, 1),))
    player._last_clicks = LastClicks(Board.from_text("1.\n11", mines=1), image, (guess,), True)
    sight = player._sight(won, image)
    assert sight.status is GameStatus.LOST and "(0, 1) was clicked" in sight.ended_by
    other = Move(Action.OPEN, (1, 1), 0.0, "proven", ((1, 1),))
    player._last_clicks = LastClicks(Board.from_text("1.\n1.", mines=1), image, (other,), True)
    assert player._sight(won, image).status is GameStatus.WON
    face = types.SimpleNamespace(board=shown, status=GameStatus.WON, face=object())
    player._last_clicks = LastClicks(Board.from_text("1.\n11", mines=1), image, (guess,), True)
    assert player._sight(face, image).status is GameStatus.WON


def test_a_revealed_cell_a_new_glyph_may_run_into_does_not_hide_the_board():
    """The board's last look is found where it was though a revealed cell beside one opened since shows
    another middle (xbomb: the new glyph runs into it; the board was taken as gone and the game
    stopped); a revealed cell with no neighbour opened since must still be as it was."""
    from bot.geometry import Geometry

    client = sim("beginner", seed=7)
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player._last_seen = Board.from_text("000\n011\n01.", mines=1)
    geometry = Geometry(0, 0, 8, 8, 3, 3)
    view = np.zeros((24, 24, 3), np.uint8)
    there = view.copy()
    there[11:13, 11:13] = 255  # the middle of (1, 1), beside the covered (2, 2)
    assert not player._same_look(view, there, geometry)  # (2, 2) looks as it did: nothing opened there
    there[19:21, 19:21] = 255  # (2, 2) opened since
    assert player._same_look(view, there, geometry)
    there[3:5, 3:5] = 255  # the middle of (0, 0): no covered neighbour
    assert not player._same_look(view, there, geometry)


def test_a_won_board_with_a_cell_no_reader_names_is_won_by_its_nearest_looks_once_re_read(monkeypatch):
    """xbomb, live: the last safe cells opened, a glyph ran into its neighbour and no template named it
    surely: the won game stopped as unreadable. Once re-reads and learning could not name it, each cell
    is taken by its nearest look; a win only when the board's logic holds on every cell."""
    from bot.agent.ending import won_as_nearest
    from bot.vision.classify import CellReading

    previous = Board.from_text("1.\n1.", mines=1)
    won = Board.from_text("1.\n11", mines=1)
    assert won_as_nearest(won.cells, previous, 1)
    assert not won_as_nearest(Board.from_text("1.\n12").cells, previous, 1)  # a 2 by one mine
    assert not won_as_nearest(won.cells, Board.from_text("2.\n1.", mines=1), 1)  # (0, 0) was a 2
    assert not won_as_nearest(Board.from_text("1.\n1.").cells, previous, 1)  # a safe cell left
    client = sim("beginner", seed=7)
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.mines = 1
    shape = won.shape
    cells = CellReading(None, "taught", won.cells.copy(), won.cells.copy(), np.zeros(shape), np.ones(shape))
    cells.confidence[1, 1] = 0.0  # the 1 at (1, 1) not named surely
    monkeypatch.setattr(player, "_classified", lambda image: (cells, None))
    image = np.zeros((4, 4, 3), np.uint8)
    assert player._judge_unreadable(image, previous) is None  # first re-read: no judgement by looks
    player._may_guess = True
    sight = player._judge_unreadable(image, previous)
    assert sight is not None and sight.status is GameStatus.WON and sight.board.to_text() == won.to_text()
    cells.states[0, 0] = Cell.TWO  # a cell the board's logic cannot hold: nothing judged
    assert player._judge_unreadable(image, previous) is None


def test_a_flag_read_on_a_cell_the_bot_opened_is_a_misread(tmp_path):
    """A left click never flags a cell: a flag read where the bot opened one is something drawn over it
    (JSMinesweeper's tooltip read as a flag: 3 times in 8 z1.5 games, so far each outside the clicks'
    reach). The game stops without another click instead of playing on with a mine that is not there."""
    from bot.render import paint_board

    client = sim("beginner", seed=7, rule="zero")

    def flag_on_the_first_click(image, rect, client):
        if client.history:
            cell = client.history[0].cell
            board = Board(client.game.board.cells.copy(), client.game.board.mines)
            board.cells[cell] = Cell.FLAG
            paint_board(image, board, client.skin, client.geometry, [cell])

    capture = Doctored(client, (0, 0), after=0, paint=flag_on_the_first_click)
    options = PlayOptions(retries=2, save_frames=tmp_path, settle_timeout=0.2, cover_wait=0.3)
    time = FakeTime()
    result = Player(capture, client.input, options, clock=time.clock, sleep=time.sleep).play_game()
    assert result.status == "error" and result.clicks == 1, result
    assert f"cell {client.history[0].cell} read as 'F' where no click could have opened or flagged" in (
        result.error
    )


def test_a_moved_board_is_followed_by_its_last_look():
    """When neither a skin nor the grid finds the board again, its last trusted look does: the same
    revealed cells, exactly, somewhere else on the screen."""
    from bot.agent.results import MoveTiming

    client = sim("beginner", seed=2, rule="zero")
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.locate()
    x, y = player.geometry.cell_center((4, 4))
    client.input.click(x, y)
    sight, _ = player.sight(None, MoveTiming(), FirstClickRule.ZERO)
    assert sight.board.revealed_mask().any()
    player._view, player._last_seen = player._inner(sight.image), sight.board
    before = player._image_geometry
    left, top = client.geometry.left, client.geometry.top
    client.move_window((37, 21))
    moved = player._follow(player._screen_image()[1])
    shift = (client.geometry.left - left, client.geometry.top - top)
    assert (moved.left - before.left, moved.top - before.top) == shift != (0, 0)
    client.new_game()  # another board where this one was: its revealed cells are not there
    assert player._follow(player._screen_image()[1]) is None


def test_a_board_whose_revealed_cells_redraw_their_edges_is_followed():
    """KMines and GNOME Mines redraw a revealed cell's edges when a neighbour opens: the board is still
    found by its last look (the middle of each revealed cell never changes)."""
    from bot.agent.results import MoveTiming

    client = sim("beginner", seed=2, rule="zero")
    edges = {"on": False}

    def redraw_edges(image, rect, client):
        board, g = client.game.board, client.geometry
        for cell in board.cells_where(board.revealed_mask()) if edges["on"] else []:
            r = g.cell_rect(cell)
            image[r.top, r.left : r.right] = (0, 0, 255)

    capture = Doctored(client, (0, 0), after=0, paint=redraw_edges)
    player = Player(capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.locate()
    client.input.click(*player.geometry.cell_center((4, 4)))
    sight, _ = player.sight(None, MoveTiming(), FirstClickRule.ZERO)
    player._view, player._last_seen = player._inner(sight.image), sight.board
    before, left, top = player._image_geometry, client.geometry.left, client.geometry.top
    edges["on"] = True
    client.move_window((37, 21))
    moved = player._follow(player._screen_image()[1])
    shift = (client.geometry.left - left, client.geometry.top - top)
    assert moved is not None and (moved.left - before.left, moved.top - before.top) == shift


def test_same_game_compares_every_revealed_cell():
    before = Board.from_text("12.\n...")
    sure = np.ones((2, 3), dtype=bool)
    assert same_game(before, Board.from_text("12.\n.3.").cells, sure) is None
    assert same_game(before, Board.from_text("1..\n...").cells, sure) == (0, 1)
    assert same_game(before, Board.from_text("1..\n...").cells, ~sure) is None
    assert same_game(before, Board.from_text("12\n..").cells, sure) == (0, 0)


def test_the_mine_total_of_a_custom_board_comes_from_the_clients_counter(monkeypatch, capsys):
    client = SimClient("10x12/20", seed=4, screen_size=(800, 600), rule="zero")
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    monkeypatch.setitem(sys.modules, "bot.vision.counter", None)  # no counter reader: a clear error
    result = player.play_game()
    assert (
        result.status == "error" and "counter could not be read" in result.error and "--mines" in result.error
    )
    counter = types.ModuleType("bot.vision.counter")
    seen = []

    def read_mine_counter(image, geometry, board=None):
        seen.append((image.shape, geometry.rows, geometry.cols))
        return client.mines_left

    counter.read_mine_counter = read_mine_counter
    monkeypatch.setitem(sys.modules, "bot.vision.counter", counter)
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    result = player.play_game()
    assert result.error is None and result.status in ("won", "lost") and result.board == "10x12/20"
    assert seen and seen[0][1:] == (10, 12) and player.mines_source == "the client's mine counter"


@pytest.mark.parametrize("level", ["10x12/20", "20x24/90"])
def test_custom_boards_are_played_with_the_mines_the_clients_counter_shows(level):
    client = SimClient(level, seed=4, screen_size=(800, 600), rule="zero", clutter=False)
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    result = player.play_game()
    assert result.error is None and result.status in ("won", "lost") and result.board == level
    assert player.mines_source == "the client's mine counter"


def test_the_first_click_rule_is_observed():
    client = SimClient("9x9/30", seed=1, screen_size=(800, 600), rule="zero")
    summary = Player(client.capture, client.input, PlayOptions(games=6, mines=30), sleep=lambda s: None).run()
    rules = [r.rule for r in summary.results]
    assert rules[0] == "safe" and rules[-1] == "zero"  # every first click opened an area: zero, once sure
    assert "first-click rule safe then zero" in summary.format()
    log = FirstClickLog()
    log.record(9, 9, 30, 3, opened=True, exploded=False)
    log.record(9, 9, 30, 3, opened=False, exploded=False)
    assert log.rule(FirstClickRule.WINXP) is FirstClickRule.SAFE
    log.record(9, 9, 30, 3, opened=False, exploded=True)
    assert log.rule(FirstClickRule.SAFE) is FirstClickRule.NONE
    assert FirstClickLog().rule(FirstClickRule.NONE) is FirstClickRule.NONE


def test_a_client_read_with_no_skin_starts_at_none_and_rises_with_the_evidence():
    unknown = FirstClickLog()
    assert unknown.rule(FirstClickRule.NONE, promised=False) is FirstClickRule.NONE
    rules = []
    for _ in range(30):  # Expert: a first click misses every mine with chance 0.79 under none
        unknown.record(16, 30, 99, 8, opened=False, exploded=False)
        rules.append(unknown.rule(FirstClickRule.NONE, promised=False))
    n = rules.index(FirstClickRule.SAFE) + 1
    assert 0.79**n < 0.01 < 0.79 ** (n - 1) and set(rules[n:]) == {FirstClickRule.SAFE}
    opening = FirstClickLog()
    for _ in range(3):  # each opens an area with chance ~0.16 under safe: zero after three
        opening.record(16, 30, 99, 8, opened=True, exploded=False)
    assert opening.rule(FirstClickRule.NONE, promised=False) is FirstClickRule.ZERO
    opening.record(16, 30, 99, 8, opened=False, exploded=True)
    assert opening.rule(FirstClickRule.NONE, promised=False) is FirstClickRule.NONE


@pytest.mark.parametrize(("way", "expected"), [("auto", "face"), ("F2", "F2"), ("face", "face")])
def test_new_games_start_the_way_asked_or_the_first_that_works(way, expected):
    client = sim(rule="zero")
    options = PlayOptions(games=2, new_game=parse_new_game(way))
    summary = Player(client.capture, client.input, options, sleep=lambda s: None).run()
    assert summary.games == 2 and summary.new_game == expected and client.games_started == 2


def installed(tmp_path, monkeypatch, client: SimClient, exec_line: str, categories: str) -> None:
    """Give the sim a program (its executable) and install a desktop entry that runs it, alone."""
    apps = tmp_path / "share" / "applications"
    apps.mkdir(parents=True)
    entry = f"[Desktop Entry]\nType=Application\nName=It\nExec={exec_line}\nCategories={categories}\n"
    (apps / "it.desktop").write_text(entry)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_DIRS", str(tmp_path / "share"))
    client.program = tmp_path / "bin" / exec_line.split()[0]


@pytest.mark.parametrize("key", ["ctrl+r", "ctrl+n"])
def test_a_client_that_starts_games_by_a_key_alone_is_found_out(key, tmp_path, monkeypatch):
    """GNOME Mines starts a new game by Ctrl+R, KMines and Simon Tatham's Mines by Ctrl+N, and neither
    has a face or takes F2: auto tries the face, F2, then the keys (the program showing the board is a
    game by its desktop entry, no browser), and keeps the one that worked."""
    client = sim(rule="zero", new_game_by=(key,))
    installed(tmp_path, monkeypatch, client, "mines-game --big", "Game;LogicGame;")
    options = PlayOptions(games=3, settle_timeout=0.1)
    summary = Player(client.capture, client.input, options, sleep=lambda s: None).run()
    assert summary.games == 3 and summary.stopped is None and summary.new_game == key
    assert client.keys[-2:] == [key, key] and client.keys.count("F2") == 1  # what worked is tried first
    assert client.games_started == 3


@pytest.mark.parametrize(
    ("exec_line", "categories", "why"),
    [
        ("web-thing %U", "Network;WebBrowser;", "is a web browser"),
        ("web-app --app=https://example.org/mines", "Game;", "is a web browser"),
        ("", "", "is not known"),
    ],
)
def test_keys_a_browser_takes_are_not_guessed_unless_the_program_is_known_to_be_none(
    exec_line, categories, why, tmp_path, monkeypatch
):
    """Ctrl+R made Chromium reload JSMinesweeper (it came back in its analysis mode) and Ctrl+N opened a
    window over the board: ``auto`` guesses them only for a program its desktop entry says is no
    browser. A browser's, or one no entry names, is given F2 alone; the error says why, and the keys
    can still be named (``--new-game ctrl+n``)."""
    client = sim(rule="zero", new_game_by=("ctrl+n",))
    if exec_line:
        installed(tmp_path, monkeypatch, client, exec_line, categories)
    options = PlayOptions(games=2, settle_timeout=0.1)
    summary = Player(client.capture, client.input, options, sleep=lambda s: None).run()
    assert client.keys == ["F2"] and client.games_started == 1 and summary.games == 1
    assert f"ctrl+r and ctrl+n not guessed: the program showing the board {why}" in summary.stopped
    options = PlayOptions(games=2, settle_timeout=0.1, new_game=parse_new_game("ctrl+n"))
    summary = Player(client.capture, client.input, options, sleep=lambda s: None).run()
    assert summary.games == 2 and summary.stopped is None and client.keys[-1] == "ctrl+n"


@pytest.mark.parametrize("frames", [1, 3, 6])
def test_a_dialog_over_the_board_at_a_games_end_is_closed_by_escape(frames):
    """GNOME Mines shows its high scores over the board when a game is won, and takes every key and
    click until it is closed: the next game starts after Escape, whenever the dialog opened."""
    client = sim(rule="zero", dialog_at_end=frames)
    options = PlayOptions(games=3, settle_timeout=0.2)
    summary = Player(client.capture, client.input, options, sleep=lambda s: None).run()
    assert summary.games == 3 and summary.stopped is None and client.games_started == 3
    assert client.keys.count("escape") == 2 and all_clicks_on_board_or_face(client)


def test_a_pointer_left_over_the_board_at_the_start_is_moved_off_it():
    """The user's pointer may rest on the board when minebot starts (GNOME Mines then lights the tile
    under it; here the arrow is drawn into the capture): the board found cannot be read, so the pointer
    is moved beside the grid found by structure and the board looked at again, instead of stopping."""
    client = sim(level="expert", rule="zero", cursor=True)
    client.pointer = client.geometry.cell_center((5, 7))
    options = PlayOptions(games=1, skin="classic")
    summary = Player(client.capture, client.input, options, sleep=lambda s: None).run()
    assert summary.games == 1 and summary.stopped is None and summary.results[0].error is None
    assert client.history[0].cell is not None  # the first click is a cell's


def test_the_pointer_is_moved_beside_the_last_board_when_a_grid_is_found_in_part():
    """At a new game JSMinesweeper's board was once found as a 16x14 part of itself: "beside" that part
    was on the real board, where the pointer made the page draw its tooltip over three cells. With the
    last game's board known, the pointer goes beside both."""
    from dataclasses import replace

    client = sim(rule="zero")
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.locate()
    screen, image = player._screen_image()
    part = replace(player._image_geometry, cols=player._image_geometry.cols // 2)
    player._grid_only = lambda image: part
    assert player._park_beside_grid(image, screen)
    assert client.pointer is not None and not client.geometry.region().contains(*client.pointer)


def test_a_new_game_that_never_shows_is_an_error_naming_what_was_tried():
    client = sim(rule="zero")
    options = PlayOptions(games=2, new_game=parse_new_game("click:-3,-3"), settle_timeout=0.1)
    summary = Player(client.capture, client.input, options, sleep=lambda s: None).run()
    assert (
        summary.games == 1
        and "could not start a new game (click:-3,-3: no new game showed)" in summary.stopped
    )
    with pytest.raises(ValueError, match="click:DX,DY"):
        parse_new_game("button")


# -- a state never seen before -------------------------------------------------------------------------

SIX_LAYOUT = [[0, 6], [1, 0], [1, 5], [1, 7], [2, 0], [2, 1], [2, 4], [3, 0], [3, 4], [3, 6]]
SIX_LAYOUT += [[4, 1], [4, 3], [4, 4], [4, 6], [5, 0], [5, 3], [5, 4], [5, 5], [6, 0], [6, 2]]
SIX_KEEP_COVERED = {(0, 0), (0, 1), (4, 5)}
"""A 7x8 game with 20 mines where (4, 5) is certain to be safe and shows a 6 the board forces, while
(0, 0)/(1, 0) still need a guess: the first 6 of a skin that never saw one, met mid-game."""


def six_game(tmp_path, scale: float = 1.0, **options):
    from bot.game import Game
    from bot.vision.cases import skin_without
    from bot.vision.read import load_cached

    skin = skin_without(load_cached("classic"), Cell.SIX, tmp_path / "no-six")
    client = SimClient("7x8/20", rule="none", screen_size=(640, 480), clutter=False, scale=scale)
    mask = np.zeros((7, 8), dtype=bool)
    mask[tuple(np.array(SIX_LAYOUT).T)] = True
    client.game = Game(7, 8, 20, rule="none", layout=mask)
    for cell in client.game.board:
        if not mask[cell] and cell not in SIX_KEEP_COVERED and client.game.board[cell] == Cell.COVERED:
            client.game.open(cell)
    options = PlayOptions(skin=str(skin.path), mines=20, rule=FirstClickRule.NONE, cover_wait=0.2, **options)
    time = FakeTime()
    return client, skin, Player(client.capture, client.input, options, clock=time.clock, sleep=time.sleep)


def test_a_first_six_forced_by_the_board_is_learned_and_the_game_goes_on(tmp_path):
    client, skin, player = six_game(tmp_path, save_learned=True)
    result = player.play_game()
    assert result.error is None and result.status in ("won", "lost") and result.learned == ["6"]
    assert Cell.SIX in player.skin.cells and Cell.SIX not in skin.cells
    assert client.history[0].cell == (4, 5) and all_clicks_on_board_or_face(client)
    from bot.skin import load_skin

    assert Cell.SIX in load_skin(skin.path).cells  # saved with the skin, as asked


def test_an_unseen_state_not_learned_stops_with_how_to_teach_it(tmp_path):
    client, skin, player = six_game(tmp_path, learn=False, save_frames=tmp_path / "frames")
    result = player.play_game()
    assert (
        result.status == "error"
        and f"--update {skin.name}" in result.error
        and "minebot calibrate" in result.error
    )
    assert client.clicks == result.clicks == 1  # the safe (4, 5), then nothing on the unread 6


def test_with_no_skin_a_state_the_reader_cannot_name_is_learned_when_the_board_forces_it(
    tmp_path, monkeypatch
):
    """The skinless reader refuses every frame with a 6 while cells are covered (as it refuses a glyph
    whose count it cannot check); the templates this game's exact frames taught read every other
    cell, and the board forces the 6. With learning off, the game goes on around the unnamed 6 by a
    guess chosen under every state it may show (before: it stopped, with how to make a skin)."""
    import bot.vision.read as read

    real = read.read_cells

    def no_six(image, geometry, model=None):
        cells = real(image, geometry, model)
        if (cells.states == Cell.SIX).any() and (cells.states == Cell.COVERED).any():
            cell = tuple(int(v) for v in np.argwhere(cells.states == Cell.SIX)[0])
            raise RecognitionError(f"cell {cell} cannot be named (a test reader that knows no 6)", cell=cell)
        return cells

    monkeypatch.setattr(read, "read_cells", no_six)
    client, _, player = six_game(tmp_path, scale=2.0)  # the grid finder wants more than 7x8 cells of 16 px
    player.options.skin = "generic"
    result = player.play_game()
    assert result.error is None and result.status in ("won", "lost") and result.learned == ["6"]
    assert client.history[0].cell == (4, 5) and all_clicks_on_board_or_face(client)
    client, _, player = six_game(tmp_path / "again", scale=2.0, learn=False)
    player.options.skin = "generic"
    result = player.play_game()  # not learned: re-read, then a guess weighed over every state it may be
    assert result.error is None and result.status in ("won", "lost") and not result.learned
    assert result.guesses > 0 and [c.cell for c in client.history].count((4, 5)) == 1  # the 6, never again


def test_learning_refuses_what_the_board_does_not_force(tmp_path):
    from bot.agent.learning import forced_value, learn_unseen
    from bot.render import render_board
    from bot.vision.cases import skin_without
    from bot.vision.read import load_cached

    assert forced_value(Board.from_text("F1\n.1", mines=1), (1, 0)) == 1
    assert forced_value(Board.from_text("..\n..", mines=1), (0, 0)) == 1  # the total decides
    assert forced_value(Board.from_text("...\n...", mines=1), (0, 0)) is None
    skin = skin_without(load_cached("classic"), Cell.TWO, tmp_path / "no-two")
    board = Board.from_text("112.\n....\n....", mines=4)
    image = render_board(board, "classic")
    from bot.geometry import Geometry

    geometry = Geometry(0, 0, 16, 16, 3, 4)
    reason = learn_unseen(
        image, geometry, skin, board.cells, [(0, 2)], Board.from_text("11..\n....\n....", mines=4), 4
    )
    assert reason == "the board does not force the number at cell (0, 2)"
    reason = learn_unseen(image, geometry, skin, board.cells, [(0, 2)], board, 4)
    assert "was '2' before" in reason


def test_ctrl_c_while_waiting_for_a_covered_board_and_the_fail_safe_at_a_new_game_stop_cleanly():
    client = sim("expert", seed=3, rule="zero")

    def sleep(seconds):
        if seconds == PlayOptions().cover_poll:  # the user presses Ctrl-C while minebot waits
            raise KeyboardInterrupt

    summary = Player(vanishing(client, after=6), client.input, PlayOptions(retries=1), sleep=sleep).run()
    assert summary.games == 0 and summary.stopped == "interrupted (Ctrl-C)"
    client = sim(rule="zero")
    original = client.input._click

    def click(x, y, button):
        if client.geometry.face.contains(x, y):
            raise AbortedError("stopped by the pyautogui fail-safe (mouse in a screen corner) during a click")
        original(x, y, button)

    client.input._click = click
    summary = Player(client.capture, client.input, PlayOptions(games=3), sleep=lambda s: None).run()
    assert summary.games == 1 and "fail-safe" in summary.stopped and client.games_started == 1


def test_a_lost_board_is_read_as_lost_even_when_the_face_does_not_change():
    from bot.render import classic_face

    client = sim("expert", seed=1, rule="none")

    def keep_playing_face(image, rect, client):
        if client.game.status is GameStatus.LOST:
            face = client.geometry.face
            image[face.top : face.bottom, face.left : face.right] = classic_face("playing", face.width)

    capture = Doctored(client, (0, 0), after=0, paint=keep_playing_face)
    for seed in range(1, 6):  # the first lost game among a few
        client.seed = seed
        client.new_game()
        result = Player(capture, client.input, PlayOptions(retries=1), sleep=lambda s: None).play_game()
        if result.status == "lost":
            break
    assert result.status == "lost" and result.error is None and result.ended_by == "board (not the face)"
    states = np.array([[Cell.MINE, Cell.ONE]])
    assert judge_end(states, np.ones((1, 2), bool), None, None, None) == (GameStatus.LOST, "board")


@pytest.mark.parametrize(
    "name", ["bot.agent.firstclick", "bot.agent.options", "bot.agent.checks", "bot.agent.programs"]
)
def test_docstring_examples_of_the_agent_modules(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_a_restart_hook_starts_new_games_and_the_cli_runs_a_restart_command(tmp_path):
    client = sim(rule="zero")
    restarts = []

    def restart():
        restarts.append(1)
        client.new_game()

    options = PlayOptions(games=3, new_game=parse_new_game("restart"))
    summary = Player(client.capture, client.input, options, restart=restart, sleep=lambda s: None).run()
    assert summary.games == 3 and summary.new_game == "restart" and len(restarts) == 2
    from bot.commands.play import restart_hook
    from bot.errors import MinebotError

    marker = tmp_path / "restarted"
    restart_hook(f"touch {marker}")()
    assert marker.exists()
    with pytest.raises(MinebotError, match="exited with status 3"):
        restart_hook("sh -c 'exit 3'")()
    with pytest.raises(MinebotError, match="failed"):
        restart_hook("/no/such/program")()


def test_a_standard_size_keeps_its_count_and_warns_when_the_counter_disagrees(monkeypatch, caplog):
    counter = types.ModuleType("bot.vision.counter")
    counter.read_mine_counter = lambda image, geometry, board=None: 12
    monkeypatch.setitem(sys.modules, "bot.vision.counter", counter)
    client = sim(rule="zero")
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.locate()
    assert player.mines == 10 and player.mines_source == "standard level"
    assert "counter reads 12 mines on a 9x9 board, not the standard 10" in caplog.text


def test_a_client_animating_around_its_board_is_still_played():
    ticks = {"n": 0}

    def animate_the_ring(image, rect, client):
        ticks["n"] += 1  # a border that changes on every grab: the ring check gives way, the cell's stays
        board, face = client.geometry.region(), client.geometry.face
        image[face.top - 2 : board.bottom + 2, board.left - 2 : board.left] = (ticks["n"] % 250, 0, 0)

    client = sim("intermediate", seed=3, rule="zero")
    capture = Doctored(client, (0, 0), after=0, paint=animate_the_ring)
    result = Player(capture, client.input, PlayOptions(), sleep=lambda s: None).play_game()
    assert result.status in ("won", "lost") and result.error is None and all_clicks_on_board_or_face(client)


def test_a_game_left_half_played_is_not_taken_for_a_new_one():
    client = sim(rule="zero")
    client.input.click(*client.geometry.cell_center((4, 4)))  # a game under way, never ended
    assert_not_a_new_game_until_f2(client)


def assert_not_a_new_game_until_f2(client: SimClient) -> None:
    """A click that starts nothing leaves the board on screen, which is no new game; F2 then starts one."""
    from bot.errors import MinebotError

    options = PlayOptions(new_game=parse_new_game("click:-3,-3"), settle_timeout=0.1)
    player = Player(client.capture, client.input, options, sleep=lambda s: None)
    player.locate()
    with pytest.raises(MinebotError, match="no new game showed"):
        player.new_game()
    player.options.new_game = parse_new_game("F2")
    player.new_game()
    assert player.new_game_way == "F2" and client.game.board.is_fresh()


def test_the_pointer_leaves_the_face_after_a_new_game_click():
    """A pointer left resting on the face may make a client draw over the board (JSMinesweeper's hover
    tooltip stayed over three cells, which read as a flag, a 4 and a flag); it is moved off at once."""
    client = sim(rule="zero")
    client.input.click(*client.geometry.cell_center((4, 4)))
    options = PlayOptions(new_game=parse_new_game("face"), settle_timeout=0.1)
    player = Player(client.capture, client.input, options, sleep=lambda s: None)
    player.locate()
    player.new_game()
    assert player.new_game_way == "face" and client.game.board.is_fresh()
    assert client.history[-1].on_face and client.pointer is not None
    face, board = client.geometry.face, client.geometry.region()
    assert not face.contains(*client.pointer) and not board.contains(*client.pointer)


def test_a_restart_the_caller_gave_comes_before_guessed_keys():
    """When the face starts nothing, a restart the caller gave is tried before any key: a browser
    reloads its page on Ctrl+R (JSMinesweeper came back in its analysis mode) and opens a window on Ctrl+N."""
    client = sim(rule="zero")
    client.input.click(*client.geometry.cell_center((4, 4)))
    face, handle = client.geometry.face, client.handle

    def deaf_face(event) -> None:
        if not (event.kind == "click" and face.contains(event.x, event.y)):
            handle(event)

    client.input.client = type("DeafFace", (), {"handle": staticmethod(deaf_face)})()
    player = Player(
        client.capture,
        client.input,
        PlayOptions(settle_timeout=0.1),
        restart=client.new_game,
        sleep=lambda s: None,
    )
    player.locate()
    player.new_game()
    assert player.new_game_way == "restart" and client.keys == [] and client.game.board.is_fresh()


def test_a_board_showing_flags_is_not_taken_for_a_new_game():
    """A new game shows no flag. ace-minesweeper ignores F2; its lost board, every mine read as a flag by
    the skinless reader, was taken for the new game F2 had started (nothing revealed), and every later
    game stopped on a board that took no clicks (live, 29 of 30 games)."""
    client = sim(rule="zero")
    for cell in [(0, 0), (3, 5), (7, 2)]:
        client.input.click(*client.geometry.cell_center(cell), button="right")  # flags, nothing opened
    assert_not_a_new_game_until_f2(client)


def test_a_board_found_part_drawn_after_a_new_game_is_waited_for():
    """ace-minesweeper redraws its board after the face is clicked: 5 of its 32 columns were found as
    the board, which is no standard level, and the error crashed the run (live, --move-every 5). A new
    game shows the board the last one was played on: a board of another size is not it yet."""
    from dataclasses import replace

    client = sim(rule="zero")
    client.input.click(*client.geometry.cell_center((4, 4)))
    player = Player(
        client.capture, client.input, PlayOptions(new_game=parse_new_game("F2")), sleep=lambda s: None
    )
    player.locate()
    real_locate, found = player.locate, []

    def part_drawn():
        g = real_locate()
        if not found:  # the first look after the new game: five columns drawn
            found.append(g)
            player._adopt(replace(g, cols=5), player._screen)
            player.mines = None
        return player.geometry

    player.locate = part_drawn
    player.new_game()
    assert found and (player.geometry.rows, player.geometry.cols) == (9, 9) and player.mines == 10
    assert client.game.board.is_fresh()


class Blank(CaptureBackend):
    """A screen with no board on it."""

    name = "blank"

    def screen_region(self) -> Region:
        return Region(0, 0, 320, 240)

    def _grab(self, region: Region) -> np.ndarray:
        return np.full((region.height, region.width, 3), 90, np.uint8)


def test_a_new_game_when_no_board_was_ever_found_needs_a_restart():
    client = sim()
    player = Player(Blank(), client.input, PlayOptions(), sleep=lambda s: None)
    result = player.play_game()
    assert result.status == "error" and client.clicks == 0
    with pytest.raises(MinebotError, match="never found"):
        player.new_game()
    restarts = []
    player = Player(
        Blank(), client.input, PlayOptions(), sleep=lambda s: None, restart=lambda: restarts.append(1)
    )
    player.play_game()
    player.new_game()
    assert restarts == [1] and player.new_game_way == "restart" and client.clicks == 0


def test_a_first_click_on_a_mine_under_a_rule_the_client_does_not_keep_is_a_loss_not_a_misread():
    """classic declares a safe first click; this client has no protection (ace-minesweeper): the first
    click's safety came from the rule, not from a reading, so its mine is the game's loss."""
    client = sim("expert", seed=3, rule="none")
    result = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None).play_game()
    assert result.clicks == 1 and result.rule == "safe"
    assert result.status == "lost" and result.error is None


def test_the_last_safe_cells_opened_win_the_game_by_logic():
    from bot.agent.ending import won_by_opening

    board = Board.from_text("1.1\n111\n000", mines=1)
    safe = Move(Action.OPEN, (0, 1), 0.0, "proven", ((0, 1),))
    assert won_by_opening(board, [safe]) is None  # (0, 1) is the mine's only place: one cell, one mine
    board = Board.from_text("1..\n111\n000", mines=1)
    won = won_by_opening(board, [Move(Action.OPEN, (0, 2), 0.0, "proven", ((0, 2),))])
    assert won is not None and won.to_text() == "1F1\n111\n000"
    guess = Move(Action.OPEN, (0, 2), 0.5, "a guess", ((0, 2),))
    assert won_by_opening(board, [guess]) is None  # only a proven-safe click can prove a win
    assert won_by_opening(Board.new(3, 3, 1), [safe]) is None  # a first click proves nothing


def blocks_of(looks: list[list[int]]) -> np.ndarray:
    """Cell blocks (rows, cols, 8, 8, 3) of one grey level per cell, with a glyph for levels > 200."""
    out = np.zeros((len(looks), len(looks[0]), 8, 8, 3), np.uint8)
    for (r, c), level in np.ndenumerate(np.array(looks)):
        out[r, c] = level
        if level > 200:
            out[r, c, 2:4, 2:6] = 0
    return out


def test_a_guess_that_shows_every_mine_is_a_loss_and_nothing_else_is():
    from bot.agent.ending import lost_by_guess

    board = Board.from_text("1..\n...\n1..", mines=2)  # a guess at (0, 1); the mines: (0, 1) and (2, 1)
    before = blocks_of([[50, 100, 100], [100, 100, 100], [50, 100, 100]])
    shown = blocks_of([[50, 220, 100], [100, 100, 100], [50, 250, 100]])  # exploded, the other mine
    lost = lost_by_guess(board, (0, 1), before, shown, 12.0)
    assert lost is not None and lost.to_text() == "1X.\n...\n1*."
    assert lost_by_guess(board, (1, 1), before, shown, 12.0) is None  # the guess did not change
    wrong_count = blocks_of([[50, 220, 250], [100, 100, 100], [50, 250, 100]])
    assert lost_by_guess(board, (0, 1), before, wrong_count, 12.0) is None  # 3 mines shown, 2 on the board
    misplaced = blocks_of([[50, 220, 100], [100, 100, 100], [50, 100, 250]])
    assert lost_by_guess(board, (0, 1), before, misplaced, 12.0) is None  # (2, 0)'s 1 sees no mine
    covered = blocks_of([[90, 90, 90], [90, 90, 90], [90, 90, 90]])  # a window over the board
    assert lost_by_guess(board, (0, 1), before, covered, 12.0) is None  # revealed cells changed
    alike = blocks_of([[50, 250, 100], [100, 100, 100], [50, 250, 100]])
    assert lost_by_guess(board, (0, 1), before, alike, 12.0) is None  # the mine that went off is drawn apart
    dimmed = blocks_of([[50, 220, 70], [70, 70, 70], [50, 250, 70]])  # unopened cells drawn anew at the end
    assert lost_by_guess(board, (0, 1), before, dimmed, 12.0) == lost
    assert lost_by_guess(board, (0, 2), before, dimmed, 12.0) is None  # the guess looks like other cells


def test_a_client_that_opens_every_cell_at_a_loss_shows_a_loss_its_own_counts_prove():
    """xbomb opens the whole board when a mine goes off: no reader reads that screen, but every covered
    cell changed, the guess looks like no other cell, one look sits exactly on the mines every number
    counts, and each other look covers cells of one count (a digit)."""
    from bot.agent.ending import lost_by_guess, lost_by_opening_all

    board = Board.from_text("1...\n....\n1...\n....", mines=3)  # mines (0, 1), (2, 1), (3, 3); guess (0, 1)
    before = blocks_of([[50, 100, 100, 100], [100] * 4, [50, 100, 100, 100], [100] * 4])

    def count_look(count: int, col: int) -> int:  # each number in a look of its own, in two shades
        return 120 + 30 * count + 15 * (col % 2)

    def opened(mine_look: int, exploded: int, looks=count_look) -> np.ndarray:
        mines = {(0, 1), (2, 1), (3, 3)}
        grid = [[50, 0, 0, 0], [0] * 4, [50, 0, 0, 0], [0] * 4]
        for r in range(4):
            for c in range(4):
                if (r, c) in ((0, 0), (2, 0)):
                    continue
                near = sum((rr, cc) in mines for rr in (r - 1, r, r + 1) for cc in (c - 1, c, c + 1))
                grid[r][c] = mine_look if (r, c) in mines else looks(near, c)
        grid[0][1] = exploded
        return blocks_of(grid)

    after = opened(250, 220)
    assert lost_by_guess(board, (0, 1), before, after, 12.0) is None  # too many looks for a mines-only end
    lost = lost_by_opening_all(board, (0, 1), before, after, 12.0)
    assert lost is not None and lost.to_text() == "1X..\n....\n1*..\n...*"
    drawn_alike = lost_by_opening_all(board, (0, 1), before, opened(250, 250), 12.0)  # xbomb: no blast
    assert drawn_alike is not None and drawn_alike.to_text() == lost.to_text()
    assert lost_by_opening_all(board, (0, 1), before, opened(250, 195), 12.0) is None  # the guess: a 2
    one_look = opened(250, 220, lambda count, col: 120 + 15 * (col % 2))  # every number alike: no digit
    assert lost_by_opening_all(board, (0, 1), before, one_look, 12.0) is None
    spilt = after.copy()
    spilt[1, 0, 3:5] = 0  # a glyph opened beside (1, 0) ran into it
    assert lost_by_opening_all(board, (0, 1), before, spilt, 12.0) is not None
    half = after.copy()
    half[3] = before[3]  # the bottom row unchanged: not the whole board opened
    assert lost_by_opening_all(board, (0, 1), before, half, 12.0) is None


def test_a_first_click_on_a_mine_that_no_reader_reads_is_a_loss_by_logic(monkeypatch):
    """ace-minesweeper's fresh board fits win7, whose rule makes the first click safe, but ace keeps no
    rule: the first click hit a mine, and neither win7 nor the skinless reader reads the lost board
    (nor its face). The first click's safety came from the rule, not from a reading, so it is judged
    as the guess it was: every mine shows, so the game is lost (it stopped after the cover wait)."""
    import bot.vision as vision

    client = sim("expert", seed=3, rule="none")
    real = vision.read_board

    def refuses_the_end(image, geometry, skin, mines=None):
        if client.game.status is GameStatus.LOST:
            raise RecognitionError("cell (0, 0) cannot be named (a test reader)", cell=(0, 0))
        return real(image, geometry, skin, mines)

    monkeypatch.setattr(vision, "read_board", refuses_the_end)
    time = FakeTime()
    player = Player(
        client.capture, client.input, PlayOptions(cover_wait=0.2), clock=time.clock, sleep=time.sleep
    )
    monkeypatch.setattr(player, "_judge_unreadable", lambda image, previous: None)  # no face read either
    result = player.play_game()
    assert result.clicks == 1 and result.rule == "safe" and client.game.status is GameStatus.LOST
    assert result.status == "lost" and result.error is None
    assert result.ended_by == "logic (every mine shown after a guess)"


def refuse_when(monkeypatch, status: GameStatus, client: SimClient) -> None:
    """Make the skinless reader refuse every frame of a game that has ended ``status`` (a client whose
    end-of-game screen no reader can read)."""
    import bot.vision.read as read

    real = read.read_cells

    def refuses_the_end(image, geometry, model=None):
        if client.game.status is status:
            raise RecognitionError("cell (0, 0) cannot be named (a test reader)", cell=(0, 0))
        return real(image, geometry, model)

    monkeypatch.setattr(read, "read_cells", refuses_the_end)


@pytest.mark.parametrize("over_the_ring", [False, True])
def test_a_dialog_over_a_won_board_is_a_win_by_logic(monkeypatch, over_the_ring):
    """The client opens a dialog over the board as the last safe cell opens: nothing can be read, but
    the last click opened the last safe cells, so the game is won; at once, with no search for the
    board, when the dialog covers the window around the board too (GNOME Mines)."""
    client = sim("beginner", seed=5, rule="zero")

    def dialog(image, rect, client):
        if client.game.status is GameStatus.WON:
            g = client.geometry
            top, left = round(g.top + g.pitch_y), round(g.left + (-0.5 if over_the_ring else 1) * g.pitch_x)
            rng = np.random.default_rng(0)
            height, width = round(6 * g.pitch_y), round(7 * g.pitch_x)
            image[top : top + height, left : left + width] = rng.integers(0, 255, (height, width, 3))

    refuse_when(monkeypatch, GameStatus.WON, client)
    capture = Doctored(client, (0, 0), after=0, paint=dialog)
    for seed in range(5, 15):  # the first won game among a few
        client.seed = seed
        client.new_game()
        player = Player(capture, client.input, PlayOptions(skin="generic"), sleep=lambda s: None)
        searched = []
        monkeypatch.setattr(
            player, "_find_again", lambda previous, searched=searched: searched.append(1) or "gone"
        )
        result = player.play_game()
        if client.game.status is GameStatus.WON:
            break
    assert result.status == "won" and result.error is None and not searched
    assert result.ended_by == "logic (the last safe cells were opened)"


def test_a_lost_board_no_reader_can_read_is_a_loss_by_logic(monkeypatch):
    client = sim("beginner", seed=5, rule="none")
    refuse_when(monkeypatch, GameStatus.LOST, client)
    for seed in range(5, 25):  # the first game lost on a guess
        client.seed = seed
        client.new_game()
        player = Player(client.capture, client.input, PlayOptions(skin="generic"), sleep=lambda s: None)
        result = player.play_game()
        if client.game.status is GameStatus.LOST:
            break
    assert result.status == "lost" and result.error is None
    assert result.ended_by == "logic (every mine shown after a guess)"
    assert player._last_board.cells.tolist() == client.game.board.cells.tolist()


def test_a_dialog_over_a_lost_board_hides_only_what_it_covers():
    """KMines opens a dialog over the lost board: the mines outside it, the guess's own look, the
    numbers and the count (bounded by the hidden cells) still prove the loss."""
    from bot.agent.ending import _counts, lost_by_guess

    mines = np.zeros((8, 10), bool)
    mines[0, 0] = mines[7, 9] = mines[3, 4] = True  # the guess, one shown, one under the dialog
    cells = np.where(mines, int(Cell.COVERED), _counts(mines)).astype(np.int8)
    cells[7, 0] = Cell.COVERED  # a safe cell still covered
    board = Board(cells, 3)
    levels = np.where(board.cells == Cell.COVERED, 100, 50)
    before = blocks_of(levels.tolist())
    shown = levels.copy()
    shown[0, 0], shown[7, 9] = 220, 250
    shown[2:4, 3:6] = 30  # the dialog
    lost = lost_by_guess(board, (0, 0), before, blocks_of(shown.tolist()), 12.0)
    assert lost is not None and lost[0, 0] == Cell.EXPLODED and lost[7, 9] == Cell.MINE
    assert lost[3, 4] == Cell.COVERED  # under the dialog: not seen
    cells[0, 1] = cells[1, 0] = Cell.COVERED
    blast = shown.copy()
    blast[0, 1] = blast[1, 0] = 170  # the blast drawn on covered cells beside the mine that went off
    assert lost_by_guess(Board(cells, 3), (0, 0), before, blocks_of(blast.tolist()), 12.0) is not None
    shown[7, 9] = 100  # no mine shown outside the dialog: nothing proves the loss
    assert lost_by_guess(board, (0, 0), before, blocks_of(shown.tolist()), 12.0) is None
    shown[7, 9] = 250
    shown[1:7, 1:9] = 30  # a window over most of the board
    assert lost_by_guess(board, (0, 0), before, blocks_of(shown.tolist()), 12.0) is None


def test_a_last_guess_that_shows_a_number_won_the_game(monkeypatch):
    """A 50/50 left at the end: the guess opened the last safe cell when its cell now reads surely as a
    number (the rest of the screen perhaps under a dialog); an exploded or unreadable cell proves nothing."""
    from bot.agent.sight import LastClicks
    from bot.vision.taught import sure_reading

    client = sim("beginner", seed=3, rule="zero")
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.locate()
    image = player._grab()
    board = Board.from_text("\n".join(["11" + "0" * 7, ".." + "0" * 7] + ["0" * 9] * 7), mines=1)
    guess = Move(Action.OPEN, (1, 0), 0.5, "a 50/50", ((1, 0),))
    player._last_clicks = LastClicks(board, image, (guess,), True)
    shown = board.cells.copy()
    for value, unsure, expected in [
        (Cell.ONE, False, "won"),
        (Cell.EXPLODED, False, None),
        (Cell.ONE, True, None),
    ]:
        shown[1, 0] = value
        reading = sure_reading(player._region_geometry(), shown)
        reading.confidence[1, 0] = 0.0 if unsure else 1.0
        monkeypatch.setattr(player, "_classified", lambda image, reading=reading: (reading, None))
        sight = player._judged_by_logic(image)
        assert (sight and sight.status.value) == expected
        if expected:
            assert sight.board.to_text().splitlines()[1].startswith("1F")


def test_the_last_safe_cells_opened_by_an_area_win_though_not_all_were_clicked(monkeypatch):
    """The batch stopped after its first click (an area it opened took the other cell): the game is won
    when the cell not clicked now reads surely as a number."""
    from bot.agent.sight import LastClicks
    from bot.vision.taught import sure_reading

    client = sim("beginner", seed=3, rule="zero")
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.locate()
    image = player._grab()
    board = Board.from_text("\n".join(["1110" + "0" * 5, "..." + "0" * 6] + ["0" * 9] * 7), mines=1)
    first, second = (Move(Action.OPEN, (1, c), 0.0, "proven", ((1, c),)) for c in (0, 1))
    player._last_clicks = LastClicks(board, image, (first,), True, (first, second))
    geometry = player._region_geometry()
    after = paint_cells(image, geometry, [(1, 0)], 30)  # the clicked cell opened
    shown = board.cells.copy()
    for value, expected in [(Cell.ONE, "won"), (Cell.COVERED, None)]:
        shown[1, 1] = value
        reading = sure_reading(geometry, shown)
        monkeypatch.setattr(player, "_classified", lambda image, reading=reading: (reading, None))
        assert player._judged_by_logic(image) is None  # the clicked cell did not change: not taken
        sight = player._judged_by_logic(after)
        assert (sight and sight.status.value) == expected
    # the cell not clicked lies under a window the client opened at the end (revealed cells changed)
    dialog = paint_cells(after, geometry, [(r, c) for r in range(0, 4) for c in range(1, 5)], 100)
    assert player._judged_by_logic(dialog).status is GameStatus.WON
    painted = paint_cells(after, geometry, [(1, 1), (1, 2)], 100)  # only covered cells changed: no window
    assert player._judged_by_logic(painted) is None


def test_a_window_moved_after_the_last_safe_cells_were_partly_clicked_is_no_win(monkeypatch):
    """The batch of the last safe cells stopped before its last cell (a tooltip changed it), then the
    window moved: where the board was, every cell looks changed, the revealed ones too, as if a dialog
    covered them all. That proves nothing: the board is elsewhere, so no end is judged (live,
    JSMinesweeper moved every 5 moves: 'won' while the client was still playing)."""
    from bot.agent.sight import LastClicks

    client = SimClient("beginner", rule="zero", seed=3, screen_size=(640, 480), origin=(40, 40))
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.locate()
    image = player._grab()
    player._view, player._last_seen = player._inner(image), client.game.board  # the last trusted look
    board = Board.from_text("\n".join(["1110" + "0" * 5, "..." + "0" * 6] + ["0" * 9] * 7), mines=1)
    first, second = (Move(Action.OPEN, (1, c), 0.0, "proven", ((1, c),)) for c in (0, 1))
    player._last_clicks = LastClicks(board, image, (first,), True, (first, second))
    client.move_window((63, 51))
    moved = player._grab()
    assert player._judged_by_logic(moved) is None
    client.move_window((40, 40))  # back where it was: the same frame with a dialog over the board wins
    dialog = paint_cells(image, player._region_geometry(), [(r, c) for r in range(4) for c in range(5)], 100)
    assert player._judged_by_logic(dialog).status is GameStatus.WON


def paint_cells(image: np.ndarray, geometry, cells, level: int) -> np.ndarray:
    """A copy of ``image`` with each of ``cells`` painted one grey ``level``."""
    out = image.copy()
    for cell in cells:
        r = geometry.cell_rect(cell)
        out[r.top : r.bottom, r.left : r.right] = level
    return out


@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_a_fresh_board_that_did_not_move_is_followed_where_it_is(scale, monkeypatch):
    """A fresh board repeats one cell look, so its last look also fits a cell off (KMines' board,
    shrunk for the rough search, fitted best there); a board still where it was is found there."""
    import bot.agent.locating as player_module
    from bot.agent.results import MoveTiming

    client = sim("expert", seed=3, rule="zero", scale=scale)
    player = Player(client.capture, client.input, PlayOptions(), sleep=lambda s: None)
    player.locate()
    sight, _ = player.sight(None, MoveTiming(), FirstClickRule.ZERO)
    player._view, player._last_seen = player._inner(sight.image), sight.board
    before = player._image_geometry
    spot = player_module.find_look(player._screen_image()[1], player._view)
    off = round(before.pitch_x), round(before.pitch_y)
    monkeypatch.setattr(
        player_module, "find_look", lambda image, view, *_: (spot[0] - off[0], spot[1] - off[1])
    )
    followed = player._follow(player._screen_image()[1])
    assert (followed.left, followed.top) == (before.left, before.top)


def test_a_ring_the_board_draws_into_is_taken_further_out_once():
    """A client whose edge cells draw past the grid (KMines' and GNOME Mines' tiles) changes the ring
    beside every cell it opens there: the ring moves out, and the board is not looked for again each move."""

    def spill(image, rect, client):
        g, board = client.geometry, client.game.board
        region = g.region()
        for row in range(g.rows):
            if board[row, 0] != Cell.COVERED:  # an opened cell of the left column draws 2 px past the grid
                cell = g.cell_rect((row, 0))
                image[cell.top : cell.bottom, region.left - 2 : region.left] = (20, 200, 250)

    client = sim("intermediate", seed=3, rule="zero")
    capture = Doctored(client, (0, 0), after=0, paint=spill)
    searches = []
    player = Player(capture, client.input, PlayOptions(), sleep=lambda s: None)
    find_again = player._find_again
    player._find_again = lambda previous: searches.append(1) or find_again(previous)
    result = player.play_game()
    assert result.status in ("won", "lost") and result.error is None and all_clicks_on_board_or_face(client)
    assert player._ring_outs == 1 and len(searches) <= 1


def test_a_fresh_board_that_moved_is_found_to_the_pixel_not_a_cell_off():
    """A fresh board is one look repeated: the rough search on shrunk images landed a cell off (12 of
    20 places of a 30 px board; a moved JSMinesweeper window was followed 30 px off). Placed to the
    pixel within a cell of the rough spot, it is found where it is."""
    from bot.agent.follow import find_look
    from bot.render import render_screen

    image, g = render_screen(
        Board(np.full((16, 30), int(Cell.COVERED), np.int8), 99), "classic", 1.875, seed=1
    )
    r = g.region()
    view = image[r.top : r.bottom, r.left : r.right].copy()
    rng = np.random.default_rng(0)
    for _ in range(20):
        screen = np.full((view.shape[0] + 300, view.shape[1] + 400, 3), 190, np.uint8)
        x, y = int(rng.integers(0, 400)), int(rng.integers(0, 300))
        screen[y : y + view.shape[0], x : x + view.shape[1]] = view
        assert find_look(screen, view, (g.pitch_x, g.pitch_y)) == (x, y)


class Tooltip(CaptureBackend):
    """Serves a sim's screen with a box drawn over two covered cells for ``lasting`` seconds (of
    ``time``) after each change of the board: JSMinesweeper's hover tooltip, or its pressed cell, that
    Chromium takes a few frames to take down under load."""

    name = "tooltip"

    def __init__(self, client: SimClient, time: FakeTime, lasting: float) -> None:
        super().__init__()
        self.client, self.time, self.lasting = client, time, lasting
        self.board = client.game.board.cells.copy()
        self.changed_at = -1.0
        self.box = np.random.default_rng(0).integers(0, 255, (12, 40, 3), dtype=np.uint8)

    def screen_region(self) -> Region:
        return self.client.capture.screen_region()

    def shown(self) -> bool:
        if not np.array_equal(self.client.game.board.cells, self.board):
            self.board, self.changed_at = self.client.game.board.cells.copy(), self.time.now
        return self.time.now - self.changed_at < self.lasting

    def _grab(self, region: Region) -> np.ndarray:
        image = self.client.capture.grab(None).copy()
        if self.shown():
            rect = self.client.geometry.cell_rect((self.client.game.board.rows - 1, 0))
            image[rect.top : rect.top + 12, rect.left : rect.left + 40] = self.box
        return image[region.top : region.bottom, region.left : region.right].copy()


def test_a_frame_the_templates_cannot_read_is_read_cold_only_once_it_is_still(monkeypatch):
    """The skinless reader costs a hundred times the taught templates (100-400 ms a frame on a loaded
    machine); most frames the templates could not read on JSMinesweeper showed its tooltip or a
    pressed cell, gone a few frames later, and the cold read refused them too. A frame is read cold
    only once it has stayed unchanged for STILL_BEFORE_COLD quiet periods, not one."""
    import bot.vision.read as read

    client = sim("intermediate", seed=4, rule="zero")
    time = FakeTime()
    capture = Tooltip(client, time, lasting=0.04)
    real, cold = read.read_cells, []

    def counted(image, geometry, model=None):
        cold.append(capture.shown())
        return real(image, geometry, model)

    monkeypatch.setattr(read, "read_cells", counted)
    options = PlayOptions(skin="generic", cover_wait=0.5)
    result = Player(capture, client.input, options, clock=time.clock, sleep=time.sleep).play_game()
    assert result.status in ("won", "lost") and result.error is None and result.moves > 5
    assert cold and not any(cold), f"{sum(cold)} of {len(cold)} cold reads were of a passing tooltip"


class FlagOnNewGames(CaptureBackend):
    """Serves a sim's screen with a flag's pixels drawn over one covered cell of every game after the
    first, for its first ``lasting`` grabs (all of them: None): JSMinesweeper's hover tooltip left
    over a new board, which the skinless reader read as a flag, a 4 and a flag."""

    name = "flag-on-new-games"

    def __init__(self, client: SimClient, lasting: int | None = None) -> None:
        super().__init__()
        self.client, self.lasting, self.grabs = client, lasting, 0
        twin = sim(client.level.name, rule="zero")  # the same look, with a flag on (0, 0) to copy
        twin.input.click(*twin.geometry.cell_center((0, 0)), button="right")
        rect = twin.geometry.cell_rect((0, 0))
        self.flag = twin.capture.grab(None)[rect.top : rect.bottom, rect.left : rect.right].copy()

    def screen_region(self) -> Region:
        return self.client.capture.screen_region()

    def _grab(self, region: Region) -> np.ndarray:
        image = self.client.capture.grab(None).copy()
        if self.client.games_started > 1 and self.client.game.board.is_fresh():
            self.grabs += 1
            if self.lasting is None or self.grabs <= self.lasting:
                rect = self.client.geometry.cell_rect((self.client.game.board.rows - 1, 0))
                image[rect.top : rect.bottom, rect.left : rect.right] = self.flag
        return image[region.top : region.bottom, region.left : region.right].copy()


def test_a_new_game_that_reads_a_flag_is_a_misread_refused_not_a_reason_to_try_more_keys():
    """A game minebot started has no flag: a flag read on the board that replaced a played one (nothing
    open any more) is a misread (JSMinesweeper's tooltip read as a flag, a 4 and a flag). It used to be
    taken for "no new game yet", so F2, then Ctrl+R (a reload) and Ctrl+N (a window) were sent. Now the
    new game is taken as started and its reading refused: the game stops naming the cell, and nothing
    is clicked on it."""
    client = sim(rule="zero")
    capture = FlagOnNewGames(client)
    options = PlayOptions(games=2, settle_timeout=0.1, retries=1, cover_wait=0.1)
    player = Player(capture, client.input, options, sleep=lambda s: None)
    summary = player.run()
    assert client.keys == [] and summary.new_game == "face" and client.games_started == 2
    assert summary.games == 2 and summary.results[0].error is None
    error = summary.results[1].error or ""
    assert f"cell ({client.game.board.rows - 1}, 0) reads as a flag" in error and "minebot started" in error
    assert client.history[-1].on_face and client.game.board.is_fresh()  # nothing clicked on the new board


def test_a_flag_drawn_over_a_new_game_for_a_few_frames_only_is_waited_out():
    """The same drawing gone after a few looks (the pointer moved off): the new game is played."""
    client = sim(rule="zero")
    capture = FlagOnNewGames(client, lasting=2)
    options = PlayOptions(games=2, settle_timeout=0.1)
    summary = Player(capture, client.input, options, sleep=lambda s: None).run()
    assert summary.stopped is None and summary.games == 2 and client.keys == []
    assert all(r.error is None and r.status in ("won", "lost") for r in summary.results)


def test_the_summary_says_what_was_played_in_words_even_when_nothing_was_read():
    from bot.agent.results import GameResult

    def played(**fields) -> str:
        return SessionSummary([GameResult(game=0, status="error", seconds=1.0, **fields)]).played()

    assert played(board="16x30/99", skin="classic", rule="safe") == (
        "a 16x30 board with 99 mines, skin classic, first-click rule safe"
    )
    assert (
        played(board="15x15/?", skin="generic")
        == "a 15x15 board, mine count unknown, skin generic, first-click rule ?"
    )
    assert played() == "no board read, skin ?, first-click rule ?"  # was "board , skin , first-click rule ?"
