"""Capture backends: the shared contract and region checks, replays of files/folders/GIFs, sim, mss."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from bot.capture import (
    BACKENDS,
    CaptureBackend,
    MssCapture,
    ReplayCapture,
    SimCapture,
    open_capture,
    to_region,
)
from bot.errors import CaptureError
from bot.geometry import Region


class FakeScreen(CaptureBackend):
    """A backend over a fixed image placed at ``origin`` in virtual-screen coordinates."""

    name = "fake"

    def __init__(self, image: np.ndarray, origin: tuple[int, int] = (0, 0)) -> None:
        super().__init__()
        self.image, self.origin, self.closes = image, origin, 0

    def screen_region(self) -> Region:
        return Region(*self.origin, self.image.shape[1], self.image.shape[0])

    def _grab(self, region: Region) -> np.ndarray:
        x, y = region.left - self.origin[0], region.top - self.origin[1]
        return self.image[y : y + region.height, x : x + region.width].copy()

    def _close(self) -> None:
        self.closes += 1


def gradient(width: int = 60, height: int = 40) -> np.ndarray:
    """An image whose every pixel says where it is: B = x, G = y."""
    image = np.zeros((height, width, 3), np.uint8)
    image[:, :, 0] = np.arange(width)[None, :]
    image[:, :, 1] = np.arange(height)[:, None]
    return image


class MissingGrab(CaptureBackend):
    def screen_region(self) -> Region:
        return Region(0, 0, 1, 1)


class MissingScreen(CaptureBackend):
    def _grab(self, region: Region) -> np.ndarray:
        return np.zeros((1, 1, 3), np.uint8)


@pytest.mark.parametrize("incomplete", [MissingGrab, MissingScreen, CaptureBackend])
def test_incomplete_backends_cannot_be_made(incomplete: type) -> None:
    with pytest.raises(TypeError):
        incomplete()


def test_regions_in_every_shape() -> None:
    cap = FakeScreen(gradient())
    assert cap.grab().shape == (40, 60, 3)
    for region in [(5, 7, 10, 3), Region(5, 7, 10, 3), [5, 7, 10, 3]]:
        part = cap.grab(region)
        assert part.shape == (3, 10, 3) and part[0, 0, 0] == 5 and part[0, 0, 1] == 7


@pytest.mark.parametrize("region", [(0, 0, 0, 5), (0, 0, 5, -1), (1, 2, 3), "abc", (0, 0, "w", 4)])
def test_malformed_regions_are_refused(region: object) -> None:
    with pytest.raises(CaptureError, match="bad capture region"):
        FakeScreen(gradient()).grab(region)  # type: ignore[arg-type]


@pytest.mark.parametrize("region", [(55, 0, 10, 10), (-1, 0, 5, 5), (0, 35, 5, 6), (100, 100, 5, 5)])
def test_regions_outside_the_screen_are_refused_by_name(region: tuple[int, int, int, int]) -> None:
    with pytest.raises(CaptureError, match=re.escape(f"region {Region(*region)!r} is not inside the screen")):
        FakeScreen(gradient()).grab(region)


def test_negative_virtual_screen_coordinates() -> None:
    cap = FakeScreen(gradient(), origin=(-60, -10))
    part = cap.grab((-55, -8, 4, 4))
    assert part[0, 0, 0] == 5 and part[0, 0, 1] == 2
    with pytest.raises(CaptureError, match="not inside"):
        cap.grab((0, 0, 4, 4))


def test_close_is_idempotent_and_final() -> None:
    with FakeScreen(gradient()) as cap:
        cap.grab()
    cap.close()
    assert cap.closed and cap.closes == 1
    with pytest.raises(CaptureError, match="closed"):
        cap.grab()


def test_the_bodys_error_wins_over_a_failing_close() -> None:
    class BadClose(FakeScreen):
        def _close(self) -> None:
            raise OSError("close failed")

    with pytest.raises(KeyError), BadClose(gradient()):
        raise KeyError("body")
    with pytest.raises(OSError, match="close failed"), BadClose(gradient()):
        pass


def test_a_backend_returning_the_wrong_size_is_caught() -> None:
    class Sloppy(FakeScreen):
        def _grab(self, region: Region) -> np.ndarray:
            return self.image

    with pytest.raises(CaptureError, match="sloppy|fake"):
        Sloppy(gradient()).grab((0, 0, 5, 5))


def test_to_region_passes_regions_through() -> None:
    region = Region(1, 2, 3, 4)
    assert to_region(region) is region and to_region((1, 2, 3, 4)) == region


# -- replays ---------------------------------------------------------------------------------------------


def solid(value: int, size: tuple[int, int] = (30, 20)) -> np.ndarray:
    return np.full((size[1], size[0], 3), value, np.uint8)


def test_replay_of_one_png_and_one_jpeg(tmp_path) -> None:
    cv2.imwrite(str(tmp_path / "shot.png"), gradient())
    cv2.imwrite(str(tmp_path / "shot.jpg"), solid(200))
    with ReplayCapture(tmp_path / "shot.png") as cap:
        assert np.array_equal(cap.grab(), gradient())
        assert cap.source == "shot.png" and cap.frames_left == 0
        with pytest.raises(CaptureError, match="no frame after 'shot.png'"):
            cap.advance()
    with ReplayCapture(str(tmp_path / "shot.jpg")) as cap:
        assert abs(int(cap.grab().mean()) - 200) <= 2


def test_replay_of_a_folder_in_name_order(tmp_path) -> None:
    for name, value in [("b.png", 20), ("a.png", 10), ("c.bmp", 30)]:
        cv2.imwrite(str(tmp_path / name), solid(value))
    (tmp_path / "notes.txt").write_text("not an image")
    cap = ReplayCapture(tmp_path)
    seen = []
    while True:
        seen.append((cap.source, int(cap.grab()[0, 0, 0])))
        if not cap.frames_left:
            break
        cap.advance()
    assert seen == [("a.png", 10), ("b.png", 20), ("c.bmp", 30)]


def test_replay_of_an_animated_gif(tmp_path) -> None:
    frames = [Image.new("RGB", (24, 16), color) for color in [(255, 0, 0), (0, 255, 0), (0, 0, 255)]]
    frames[0].save(tmp_path / "game.gif", save_all=True, append_images=frames[1:], duration=100, loop=0)
    cap = ReplayCapture(tmp_path / "game.gif")
    assert cap.frame_count == 3 and cap.frames_left == 2
    colours = []
    for i in range(3):
        if i:
            cap.advance()
        colours.append(cap.grab((0, 0, 24, 16))[5, 5].tolist())
    assert colours == [[0, 0, 255], [0, 255, 0], [255, 0, 0]]  # BGR
    assert cap.source == "game.gif#2" and cap.grabbed == {0, 1, 2}


def test_replay_of_arrays_and_lists(tmp_path) -> None:
    cv2.imwrite(str(tmp_path / "x.png"), solid(7))
    cap = ReplayCapture([solid(1), tmp_path / "x.png", np.full((20, 30), 9, np.uint8)])
    assert cap.frame_names == ["array#0", "x.png", "array#2"]
    cap.advance()
    cap.advance()
    assert cap.grab().shape == (20, 30, 3) and int(cap.grab()[0, 0, 2]) == 9


def test_replay_with_an_origin(tmp_path) -> None:
    cap = ReplayCapture(gradient(), origin=(-60, 0))
    assert cap.screen_region() == Region(-60, 0, 60, 40)
    assert int(cap.grab((-50, 3, 2, 2))[0, 0, 0]) == 10


def test_replay_errors_name_the_file(tmp_path) -> None:
    with pytest.raises(CaptureError, match="missing.png"):
        ReplayCapture(tmp_path / "missing.png")
    (tmp_path / "broken.png").write_text("this is not a png")
    cap = ReplayCapture(tmp_path / "broken.png")
    with pytest.raises(CaptureError, match=r"broken\.png.*cannot be read"):
        cap.grab()
    (tmp_path / "broken.gif").write_text("GIF? no")
    with pytest.raises(CaptureError, match=r"broken\.gif"):
        ReplayCapture(tmp_path / "broken.gif")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CaptureError, match="empty.*holds no"):
        ReplayCapture(tmp_path / "empty")
    with pytest.raises(CaptureError, match="frame 0"):
        ReplayCapture(np.zeros((4, 4, 3), np.float32))
    with pytest.raises(CaptureError, match="at least one"):
        ReplayCapture([])


# -- the simulated client and the factory ---------------------------------------------------------------


class Frames:
    """A frame source: what the sim capture shows (the simulated client is one)."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image

    def frame(self) -> np.ndarray:
        return self.image


def test_sim_capture_shows_its_frame_source() -> None:
    source = Frames(gradient(64, 48))
    with open_capture("sim", source=source) as cap:
        assert isinstance(cap, SimCapture) and cap.client is source
        assert cap.screen_region() == Region(0, 0, 64, 48)
        assert np.array_equal(cap.grab((5, 6, 10, 4)), source.image[6:10, 5:15])
    with pytest.raises(CaptureError, match="frame source"):
        SimCapture(object())  # type: ignore[arg-type]
    with pytest.raises(CaptureError, match="bad options for the sim backend"):
        open_capture("sim", level="expert")


def _imported_modules(module: str) -> set[str]:
    """The ``bot.*`` modules a module's source imports (at any depth of its code)."""
    import ast
    import importlib.util

    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name.startswith("bot")}


def test_no_import_loop_between_capture_input_and_the_mock() -> None:
    """capture and input are backends the mock builds on; they never reach back into the mock."""
    assert not _imported_modules("bot.capture") & {"bot.mock", "bot.input", "bot.render"}
    assert "bot.mock" not in _imported_modules("bot.input")
    assert {"bot.capture", "bot.input"} <= _imported_modules("bot.mock")


def test_factory_names_and_errors(tmp_path) -> None:
    assert BACKENDS == ("mss", "replay", "sim")
    with pytest.raises(CaptureError, match="unknown capture backend 'x11'.*mss, replay, sim"):
        open_capture("x11")
    with pytest.raises(CaptureError, match="bad options for the replay backend"):
        open_capture("replay", source=gradient(), colour=True)
    assert isinstance(open_capture("replay", source=gradient()), ReplayCapture)


# -- the live screen through mss, on a private Xvfb ------------------------------------------------------


@pytest.fixture
def xvfb():
    """A private Xvfb display for the test, stopped afterwards; skip when Xvfb is not installed."""
    from harness.realclients import ClientUnavailableError, VirtualDisplay

    try:
        display = VirtualDisplay(320, 200).__enter__()
    except ClientUnavailableError as exc:
        pytest.skip(f"Xvfb is not available: {exc}")
    try:
        yield display
    finally:
        display.close()


def test_mss_grabs_the_virtual_screen(xvfb) -> None:
    with open_capture("mss", display=xvfb.display) as cap:
        assert isinstance(cap, MssCapture)
        assert cap.screen_region() == Region(0, 0, 320, 200)
        whole = cap.grab()
        assert whole.shape == (200, 320, 3) and whole.dtype == np.uint8 and whole.flags.c_contiguous
        assert cap.grab((10, 20, 30, 40)).shape == (40, 30, 3)
        with pytest.raises(CaptureError, match="not inside"):
            cap.grab((300, 0, 30, 10))
    assert cap.closed


def test_mss_returns_blue_green_red_in_that_order(xvfb) -> None:
    """mss hands over BGRA bytes; the grab keeps B, G, R (OpenCV's order) and drops alpha."""
    import shutil
    import subprocess

    if shutil.which("xsetroot") is None:
        pytest.skip("xsetroot is not installed")
    subprocess.run(["xsetroot", "-display", xvfb.display, "-solid", "#102030"], check=True, timeout=10)
    with open_capture("mss", display=xvfb.display) as cap:
        pixel = cap.grab((5, 5, 4, 3))[1, 2]
    assert pixel.tolist() == [0x30, 0x20, 0x10]


def test_mss_on_a_missing_display_is_a_capture_error(tmp_path) -> None:
    with pytest.raises(CaptureError, match="cannot open the screen"):
        MssCapture(display=":9876")
