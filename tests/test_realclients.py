"""Real clients: the winemine/xdemineur skins against the captured ground truth, and the live harness."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from bot.board import Board, Cell
from bot.game import FirstClickRule
from bot.geometry import Geometry, Region
from bot.skin import STATE_NAMES, TEMPLATES_DIR, load_skin
from harness.realclients import (
    ClientExitedError,
    ClientUnavailableError,
    RealClient,
    VirtualDisplay,
    WineMine,
    XDemineur,
    processes_with_env,
    screenshot,
)

REAL = Path(__file__).resolve().parent / "data" / "real"
CLIENTS = ("winemine", "xdemineur")


def load_capture(txt: Path) -> tuple[np.ndarray, Board, dict[str, str], Geometry]:
    """A capture's screenshot, true board, header fields and cell geometry."""
    import cv2

    text = txt.read_text()
    meta = dict(
        (key.strip(), value.strip())
        for key, value in (line[1:].split(":", 1) for line in text.splitlines() if line.startswith("#"))
    )
    x, y, w, h = (int(v) for v in meta["board"].split())
    pitch = int(meta["pitch"])
    board = Board.from_text(text)
    assert (w, h) == (board.cols * pitch, board.rows * pitch)
    return cv2.imread(str(txt.with_suffix(".png"))), board, meta, Geometry(x, y, pitch, pitch, *board.shape)


@pytest.mark.parametrize("client", CLIENTS)
def test_captures_are_consistent(client: str) -> None:
    """Every capture has a readable image, a board, and numbers that agree with the shown mines."""
    captures = sorted((REAL / client).glob("*.txt"))
    assert len(captures) >= 7
    statuses = set()
    for txt in captures:
        image, board, meta, geometry = load_capture(txt)
        assert image is not None and image.ndim == 3, txt
        statuses.add(meta["status"])
        if meta["status"] in ("lost", "won"):
            shown = (Cell.MINE, Cell.EXPLODED, Cell.FLAG) if meta["status"] == "lost" else (Cell.FLAG,)
            assert sum(int((board.cells == c).sum()) for c in shown) == board.mines, txt
            for cell in board:
                if board[cell].is_number():
                    count = sum(board[n] in shown for n in board.neighbours(cell))
                    assert count == board[cell], (txt.name, cell)
        assert board.is_lost() == (meta["status"] == "lost"), txt
    assert statuses == {"playing", "won", "lost"}


def sidecar_folders() -> list[Path]:
    """Every folder under tests/data/real that holds captures with NAME.json sidecars."""
    return sorted({json_path.parent for json_path in REAL.rglob("*.json")})


def check_truth_capture(sidecar: Path) -> str:
    """One capture: the sidecar, the PNG and the board text agree; a lost board's numbers count its mines."""
    import json

    import cv2

    meta = json.loads(sidecar.read_text())
    board = Board.from_text(sidecar.with_suffix(".txt").read_text())
    g = meta["geometry"]
    geometry = Geometry(g["left"], g["top"], g["pitch_x"], g["pitch_y"], g["rows"], g["cols"])
    assert board.shape == (g["rows"], g["cols"]), sidecar
    assert board.mines == meta["mines"], sidecar
    assert meta["first_click"] in {rule.value for rule in FirstClickRule}, sidecar
    image = cv2.imread(str(sidecar.with_suffix(".png")))
    assert image is not None, sidecar
    rect = geometry.region()
    assert rect.left >= 0 and rect.top >= 0, sidecar
    assert rect.right <= image.shape[1] and rect.bottom <= image.shape[0], sidecar
    status = meta["status"]
    assert board.is_lost() == (status == "lost"), sidecar
    # lost: the mines are shown; won: every unopened cell (flagged or not) is a mine
    shown = {"lost": (Cell.MINE, Cell.EXPLODED, Cell.FLAG), "won": (Cell.FLAG, Cell.COVERED)}.get(status)
    for cell in board:
        value = board[cell]
        if not value.is_number():
            continue
        around = [board[n] for n in board.neighbours(cell)]
        if shown is not None:
            assert sum(n in shown for n in around) == value, (sidecar.name, cell)
        else:  # playing: flags are a lower bound and covered cells the rest
            flags = sum(n == Cell.FLAG for n in around)
            assert flags <= value <= flags + sum(n == Cell.COVERED for n in around), (sidecar.name, cell)
    if shown is not None:
        assert sum(int((board.cells == c).sum()) for c in shown) == board.mines, sidecar
    return status


@pytest.mark.parametrize("folder", sidecar_folders(), ids=lambda p: str(p.relative_to(REAL)))
def test_truth_captures_are_consistent(folder: Path) -> None:
    """Each capture folder: sidecars, PNGs and board texts agree; fresh, playing and lost boards exist."""
    statuses = [check_truth_capture(sidecar) for sidecar in sorted(folder.glob("*.json"))]
    assert "lost" in statuses and "playing" in statuses, folder
    assert sum(size.stat().st_size for size in folder.glob("*.png")) < 2_000_000, folder


def test_every_new_client_has_captures() -> None:
    """The browser settings and the other clients all have a capture folder with sidecars."""
    names = {str(p.relative_to(REAL)) for p in sidecar_folders()}
    expected = {f"jsminesweeper/t{t}_z{z}" for t in (24, 32) for z in (100, 125, 150, 175)}
    assert expected <= names, sorted(expected - names)
    assert {"winemine", "xdemineur", "xbomb", "ace-minesweeper"} <= names


@pytest.mark.parametrize("client", CLIENTS)
def test_skin_templates_match_captured_cells(client: str) -> None:
    """Each template equals every captured cell of its state, and every state seen has a template."""
    skin = load_skin(TEMPLATES_DIR / client)
    assert skin.cell_size == {"winemine": 16, "xdemineur": 21}[client]
    assert (
        skin.first_click_rule == {"winemine": FirstClickRule.SAFE, "xdemineur": FirstClickRule.NONE}[client]
    )
    assert skin.new_game == {"winemine": "face", "xdemineur": "restart"}[client]
    seen: dict[Cell, int] = {}
    faces_seen = set()
    for txt in sorted((REAL / client).glob("*.txt")):
        image, board, meta, geometry = load_capture(txt)
        for cell in board:
            rect = geometry.cell_rect(cell)
            crop = image[rect.top : rect.bottom, rect.left : rect.right]
            state = board[cell]
            assert state in skin.cells, f"{txt.name} {cell}: {state.name} has no template"
            assert np.array_equal(crop, skin.cells[state]), (
                f"{txt.name} {cell}: not the {state.name} template"
            )
            seen[state] = seen.get(state, 0) + 1
        # the face: exactly one face template matches, the one for the status
        matches = [name for name, face in skin.faces.items() if _contains(image, face)]
        assert matches == [meta["status"]], (txt.name, matches)
        faces_seen.add(meta["status"])
    assert set(skin.cells) == set(seen), "a template no capture shows, or a state without one"
    assert faces_seen == {"playing", "won", "lost"}
    assert set(STATE_NAMES.values()) - set(skin.cells) == set(skin.missing_states())


def _contains(image: np.ndarray, template: np.ndarray) -> bool:
    import cv2

    result = cv2.matchTemplate(image, template, cv2.TM_SQDIFF)
    x, y = cv2.minMaxLoc(result)[2]
    h, w = template.shape[:2]
    return bool(np.array_equal(image[y : y + h, x : x + w], template))


# -- live ---------------------------------------------------------------------------------------


@pytest.fixture
def display():
    try:
        with VirtualDisplay(800, 600) as vd:
            yield vd
    except ClientUnavailableError as exc:
        pytest.skip(str(exc))
    if vd.display:
        assert processes_with_env("DISPLAY", vd.display) == []


def _start(client):  # type: ignore[no-untyped-def]
    try:
        return client.__enter__()
    except ClientUnavailableError as exc:
        pytest.skip(str(exc))


@pytest.mark.live
@pytest.mark.parametrize("kind", CLIENTS)
def test_live_client_start_look_click_stop(display: VirtualDisplay, kind: str) -> None:
    """Start the client, find its board where expected, click a cell, see a change, stop cleanly."""
    skin = load_skin(TEMPLATES_DIR / kind)
    client = WineMine(display, "beginner") if kind == "winemine" else XDemineur(display, 9, 12, 70)
    _start(client)
    try:
        window = client.window_region()
        assert (window.left, window.top) == ((3, 22) if kind == "winemine" else (0, 0))
        geometry = client.board_geometry()
        image = client.screenshot()
        rect = geometry.region()
        board_pixels = image[rect.top : rect.bottom, rect.left : rect.right]
        covered = skin.cells[Cell.COVERED]
        size_y, size_x = covered.shape[:2]
        cells = board_pixels.reshape(client.rows, size_y, client.cols, size_x, 3).swapaxes(1, 2)
        is_covered = (cells == covered).all(axis=(2, 3, 4))
        # xdemineur may open a zero region by itself at start-up: then most cells, not all, are covered.
        assert is_covered.all() or (kind == "xdemineur" and is_covered.sum() >= is_covered.size - 40)
        target = (4, 4) if is_covered[4, 4] else tuple(int(v) for v in np.argwhere(is_covered)[0])
        face = geometry.face
        assert face is not None
        assert np.array_equal(image[face.top : face.bottom, face.left : face.right], skin.faces["playing"])
        client.open(target)
        after = screenshot(display)
        cell = geometry.cell_rect(target)
        assert not np.array_equal(
            after[cell.top : cell.bottom, cell.left : cell.right],
            image[cell.top : cell.bottom, cell.left : cell.right],
        )
        owned = client.owned_pids()
        assert owned
    finally:
        client.__exit__(None, None, None)
    _assert_gone(owned)
    if kind == "winemine":
        assert client.prefix is None  # private prefix removed


def _assert_gone(owned: list[int], wait: float = 5.0) -> None:
    """Every process the client started has exited within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while any(_exists(pid) for pid in owned) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in owned if _exists(pid)]


def _exists(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.live
def test_live_winemine_restart_and_expert_layout(display: VirtualDisplay) -> None:
    """The face restarts winemine; an expert board sits where the layout says and is all covered."""
    skin = load_skin(TEMPLATES_DIR / "winemine")
    client = WineMine(display, "expert")
    _start(client)
    try:
        client.open((0, 0))
        client.restart()
        image = client.screenshot()
        rect = client.board_geometry().region()
        assert (rect.left, rect.top, rect.width, rect.height) == (8, 74, 480, 256)
        tiled = np.tile(skin.cells[Cell.COVERED], (16, 30, 1))
        assert np.array_equal(image[rect.top : rect.bottom, rect.left : rect.right], tiled)
    finally:
        client.__exit__(None, None, None)


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="12 columns"):
        XDemineur(":0", 9, 9, 10)
    with pytest.raises(ValueError, match="winemine cannot play"):
        WineMine(":0", (9, 9, 5))


class _ExitsAtOnce(RealClient):
    """A "client" that prints a line and exits 1 until its ``passes``-th start, then sleeps (a window)."""

    name = "flaky"

    def __init__(self, counter: Path, passes: int) -> None:
        super().__init__(":0", 9, 9, 10, timeout=5.0)
        self.counter, self.passes = counter, passes

    def command(self) -> list[str]:
        script = (
            f"echo x >> {self.counter}; n=$(wc -l < {self.counter}); "
            f'if [ "$n" -lt {self.passes} ]; then echo "could not start, try $n" >&2; exit 1; fi; sleep 30'
        )
        return ["sh", "-c", script]

    def env(self) -> dict[str, str]:
        return {"PATH": "/usr/bin:/bin"}


def _no_window_until_second_start(client: _ExitsAtOnce):  # type: ignore[no-untyped-def]
    """Stand-in for the X window search: the client "shows a window" once its process survives."""

    def find(display: str, *search: str) -> list:  # type: ignore[type-arg]
        tries = len(client.counter.read_text().split()) if client.counter.exists() else 0
        alive = client.proc is not None and client.proc.poll() is None
        return [(1, Region(0, 0, 200, 200))] if alive and tries >= client.passes else []

    return find


def test_a_client_that_exits_at_once_is_started_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Wine now and then exits 1 at once under load: the harness starts it again, and says so."""
    import harness.client as client_module

    client = _ExitsAtOnce(tmp_path / "starts", passes=2)
    monkeypatch.setattr(client_module, "find_windows", _no_window_until_second_start(client))
    monkeypatch.setattr(client_module, "move_pointer_away", lambda display: None)
    monkeypatch.setattr(RealClient, "_board_drawn", lambda self: True)
    with client:
        assert client.window_region() == Region(0, 0, 200, 200)
    assert len((tmp_path / "starts").read_text().split()) == 2


def test_a_client_that_always_exits_says_what_it_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After ``start_attempts`` launches the error quotes the client's last words."""
    import harness.client as client_module

    client = _ExitsAtOnce(tmp_path / "starts", passes=99)
    monkeypatch.setattr(client_module, "find_windows", _no_window_until_second_start(client))
    with pytest.raises(ClientExitedError, match=r"flaky exited with status 1 .*could not start, try 3"):
        client.start()
    assert len((tmp_path / "starts").read_text().split()) == RealClient.start_attempts == 3


# -- live: the clients with an exact truth reader -------------------------------------------------

TRUTH_CLIENTS = [("xbomb", None), ("ace", None), ("jsminesweeper", 1.25)]


@pytest.mark.live
@pytest.mark.parametrize(("name", "zoom"), TRUTH_CLIENTS, ids=[c[0] for c in TRUTH_CLIENTS])
def test_live_truth_client_click_move_stop(name: str, zoom: float | None) -> None:
    """Start, read a fresh board, open a cell, move the window, read the same board there, stop clean."""
    from harness.clients import PROGRAMS, Look, make_client, screen_for
    from harness.realclients import find_program

    for program in PROGRAMS[name]:
        try:
            find_program(program)
        except ClientUnavailableError as exc:
            pytest.skip(str(exc))
    look = Look(24, zoom or 1.0)
    with VirtualDisplay(*screen_for(name, look.tile, look.zoom)) as vd:
        client = make_client(name, vd, 16, 30, 99, look)
        _start(client)
        try:
            board, status = client.truth()
            assert status == "playing" and board.is_fresh()
            assert board.shape == (client.rows, client.cols)
            client.open((client.rows // 2, client.cols // 2))
            before, status = client.truth()
            # The click shows: a number or an opening, or (ace has no first-click rule) the mines of a loss.
            assert (before.cells != board.cells).any()
            old = client.board_geometry()
            window = client.move_window(31, 17)
            moved = client.board_geometry()
            assert (moved.left - old.left, moved.top - old.top) == (31, 17)
            assert client.window_region() == window
            assert client.truth() == (before, status)
            client.restart()
            assert client.truth()[0].is_fresh()
            owned = client.owned_pids()
            assert owned
        finally:
            client.__exit__(None, None, None)
        _assert_gone(owned)


# -- the harness's exact pixel readers against their own saved captures ---------------------------


def _capture(sidecar: Path) -> tuple[np.ndarray, Board, Geometry, str]:
    import json

    import cv2

    meta = json.loads(sidecar.read_text())
    g = meta["geometry"]
    geometry = Geometry(g["left"], g["top"], g["pitch_x"], g["pitch_y"], g["rows"], g["cols"])
    board = Board.from_text(sidecar.with_suffix(".txt").read_text())
    return cv2.imread(str(sidecar.with_suffix(".png"))), board, geometry, meta["status"]


@pytest.mark.parametrize("client", ["xbomb", "ace-minesweeper"])
def test_pixel_readers_reproduce_their_captures(client: str) -> None:
    """read_xbomb / read_ace give back each saved board and status (xbomb: told which cells it flagged)."""
    from harness.ace import read_ace
    from harness.xbomb import read_xbomb

    sidecars = sorted((REAL / client).glob("*.json"))
    assert sidecars
    for sidecar in sidecars:
        image, truth, geometry, status = _capture(sidecar)
        if client == "xbomb":
            flags = set(truth.cells_where((truth.cells == Cell.FLAG) | (truth.cells == Cell.WRONG_FLAG)))
            board, read_status = read_xbomb(image, geometry, truth.mines, flags)
        else:
            board, read_status = read_ace(image, geometry)
        assert (board, read_status) == (truth, status), sidecar.name


def test_xbomb_reader_refuses_an_unknown_cell() -> None:
    """A cell whose colours name no state is an error naming the cell, not a guess."""
    from harness.realclients import ClientError
    from harness.xbomb import read_xbomb

    image, truth, geometry, _ = _capture(REAL / "xbomb" / "expert_opening.json")
    rect = geometry.cell_rect((3, 4))
    image[rect.top + 10 : rect.top + 14, rect.left + 8 : rect.left + 12] = (12, 200, 99)
    with pytest.raises(ClientError, match=r"\(3, 4\)"):
        read_xbomb(image, geometry, truth.mines, set())


def test_ace_reader_refuses_an_unknown_glyph() -> None:
    from harness.ace import read_ace
    from harness.realclients import ClientError

    image, truth, geometry, _ = _capture(REAL / "ace-minesweeper" / "board_lost.json")
    cell = next(c for c in truth if truth[c] == Cell.ONE)
    rect = geometry.cell_rect(cell)
    image[rect.top + 4, rect.left + 4] = (255, 255, 255)  # one more white pixel: an unseen glyph
    with pytest.raises(ClientError, match="unknown glyph"):
        read_ace(image, geometry)
