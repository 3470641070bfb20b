"""Screen capture: one contract (:class:`CaptureBackend`) and small backends for a live screen, saved
screenshots and the simulated client.

Why: the play loop grabs pixels without knowing where they come from, so the live screen, a replay
and the simulator are the same loop. Shared work (region normalising and checking, closing) lives
once in the base class, as in mss; a backend only supplies the pixels. Images are BGR ``uint8``,
ready for OpenCV.

>>> with open_capture("replay", source=__import__("numpy").zeros((40, 60, 3), "uint8")) as cap:
...     cap.grab((10, 5, 20, 30)).shape, cap.screen_region()
((30, 20, 3), Region(left=0, top=0, width=60, height=40))
"""

from __future__ import annotations

import inspect
import logging
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, TypeAlias, TypeVar

import cv2
import numpy as np

from bot.errors import CaptureError, MinebotError
from bot.geometry import Region

LOGGER = logging.getLogger(__name__)

RegionLike: TypeAlias = Region | tuple[int, int, int, int] | None
"""A capture region: a :class:`Region`, a ``(left, top, width, height)`` tuple, or None for everything."""

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".gif")
"""Files a replay folder serves, in name order."""


def to_region(region: Region | Sequence[int]) -> Region:
    """A :class:`Region` from a Region or a ``(left, top, width, height)`` sequence.

    Raises:
        CaptureError: for a malformed region or a zero or negative size, naming it.
    """
    if isinstance(region, Region):
        return region
    try:
        left, top, width, height = (int(v) for v in region)
        return Region(left, top, width, height)
    except (TypeError, ValueError) as exc:
        raise CaptureError(f"bad capture region {region!r}: need (left, top, width>0, height>0)") from exc


class Resource:
    """A backend that holds something until closed: an idempotent ``close()`` and a context manager.

    Shared by the capture and input backends; the body's error wins over a failing close, as in mss.
    """

    name = "abstract"

    def __init__(self) -> None:
        self.closed = False

    def _close(self) -> None:
        """Release the backend's resources (called once); the base class only logs."""
        LOGGER.debug("closed the %s backend", self.name)

    def close(self) -> None:
        """Release resources; calling it again does nothing."""
        if not self.closed:
            self.closed = True
            self._close()

    def _ensure_open(self, error: type[MinebotError]) -> None:
        if self.closed:
            raise error(f"the {self.name} backend is closed")

    def __enter__(self: _R) -> _R:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            self.close()
        except Exception:
            if exc is None:
                raise
            LOGGER.exception("closing the %s backend failed", self.name)


_R = TypeVar("_R", bound=Resource)


def open_backend(classes: dict[str, type[_R]], name: str, error: type[MinebotError], options: dict) -> _R:
    """Instantiate the backend called ``name`` from ``classes`` with ``options``, or raise ``error``."""
    if name not in classes:
        raise error(
            f"unknown {error.__name__.removesuffix('Error').lower()} backend {name!r}: "
            f"use one of {', '.join(classes)}"
        )
    backend = classes[name]
    try:
        inspect.signature(backend).bind(**options)
    except TypeError as exc:
        raise error(f"bad options for the {name} backend: {exc}") from exc
    return backend(**options)


class CaptureBackend(Resource, ABC):
    """Grabs BGR pixels of the (virtual) screen; a context manager with an idempotent ``close()``."""

    @abstractmethod
    def screen_region(self) -> Region:
        """The whole capturable area in virtual-screen coordinates (may start at negative values)."""

    @abstractmethod
    def _grab(self, region: Region) -> np.ndarray:
        """The pixels of ``region``, already checked to lie inside :meth:`screen_region`."""

    def grab(self, region: RegionLike = None) -> np.ndarray:
        """The BGR ``uint8`` pixels of ``region`` (None = the whole screen), a fresh array.

        Raises:
            CaptureError: when closed, for a bad region or one not inside the screen, or when the
                backend fails.
        """
        self._ensure_open(CaptureError)
        screen = self.screen_region()
        target = screen if region is None else to_region(region)
        if not (
            screen.left <= target.left
            and screen.top <= target.top
            and target.right <= screen.right
            and target.bottom <= screen.bottom
        ):
            raise CaptureError(f"capture region {target} is not inside the screen {screen}")
        image = self._grab(target)
        if image.shape != (target.height, target.width, 3) or image.dtype != np.uint8:
            raise CaptureError(
                f"{self.name} capture returned a {image.shape} {image.dtype} image for region {target}"
            )
        return image


def _crop(image: np.ndarray, region: Region, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """A contiguous copy of ``region`` (screen coordinates) out of an image whose corner is ``origin``."""
    x, y = region.left - origin[0], region.top - origin[1]
    return np.ascontiguousarray(image[y : y + region.height, x : x + region.width]).copy()


class MssCapture(CaptureBackend):
    """The live screen through mss: every monitor, virtual-screen coordinates (mss's ``monitors[0]``)."""

    name = "mss"

    def __init__(self, display: str | None = None) -> None:
        super().__init__()
        try:
            import mss
            import mss.exception
        except ImportError as exc:  # pragma: no cover - mss is a dependency
            raise CaptureError("the mss package is not installed") from exc
        self._error = mss.exception.ScreenShotError
        kwargs = {"display": display} if display else {}
        try:
            factory = getattr(mss, "MSS", None) or mss.mss  # mss >= 10.1 names the class MSS
            self._sct = factory(**kwargs)
            monitor = self._sct.monitors[0]
        except self._error as exc:
            where = display or os.environ.get("DISPLAY", "the default display")
            raise CaptureError(f"cannot open the screen for capture ({where}): {exc}") from exc
        self._screen = Region(monitor["left"], monitor["top"], monitor["width"], monitor["height"])
        LOGGER.debug("mss capture of virtual screen %s", self._screen)

    def screen_region(self) -> Region:
        return self._screen

    def _grab(self, region: Region) -> np.ndarray:
        box = {"left": region.left, "top": region.top, "width": region.width, "height": region.height}
        try:
            shot = self._sct.grab(box)
        except self._error as exc:
            raise CaptureError(f"mss could not grab {region}: {exc}") from exc
        # BGRA bytes to contiguous BGR in one cv2 pass: ~0.1 ms, where numpy's strided copy of three
        # channels out of four took ~8 ms for a browser board.
        raw = np.frombuffer(shot.raw, np.uint8).reshape(shot.height, shot.width, 4)
        return cv2.cvtColor(raw, cv2.COLOR_BGRA2BGR)

    def _close(self) -> None:
        self._sct.close()


# -- replayed screenshots ---------------------------------------------------------------------------------


def _read_image(path: Path) -> np.ndarray:
    import cv2

    if not path.is_file():
        raise CaptureError(f"screenshot {str(path)!r} does not exist")
    if path.suffix.lower() == ".png":
        _check_png(path)
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise CaptureError(f"screenshot {str(path)!r} cannot be read as an image")
    return image


def _check_png(path: Path) -> None:
    """Refuse a PNG cut short or damaged before OpenCV decodes it: libpng would print its own error
    ("libpng error: Read Error") on stderr beside minebot's one line. Pillow checks every chunk's
    checksum without decoding the pixels.

    Raises:
        CaptureError: naming the file and what is wrong with it.
    """
    import warnings

    from PIL import Image, UnidentifiedImageError

    damaged = (OSError, SyntaxError, ValueError, UnidentifiedImageError, Image.DecompressionBombError)
    try:
        with warnings.catch_warnings():  # a large screen is no attack: its size is OpenCV's to judge
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as picture:
                picture.verify()
    except damaged as exc:
        raise CaptureError(f"screenshot {str(path)!r} cannot be read as an image: {exc}") from exc


def _gif_frames(path: Path) -> list[tuple[str, Callable[[], np.ndarray]]]:
    """Each frame of an animated GIF, decoded with Pillow into BGR."""
    from PIL import Image, ImageSequence, UnidentifiedImageError

    try:
        with Image.open(path) as gif:
            frames = [
                np.asarray(frame.convert("RGB"))[:, :, ::-1].copy() for frame in ImageSequence.Iterator(gif)
            ]
    except (OSError, UnidentifiedImageError) as exc:
        raise CaptureError(f"screenshot {str(path)!r} cannot be read as a GIF: {exc}") from exc
    return [(f"{path.name}#{i}", lambda image=image: image) for i, image in enumerate(frames)]


def _frames_of(source: str | os.PathLike[str]) -> list[tuple[str, Callable[[], np.ndarray]]]:
    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise CaptureError(f"screenshot folder {str(path)!r} holds no {'/'.join(IMAGE_SUFFIXES)} images")
        return [frame for file in files for frame in _frames_of(file)]
    if not path.exists():
        raise CaptureError(f"screenshot {str(path)!r} does not exist")
    if path.suffix.lower() == ".gif":
        return _gif_frames(path)
    return [(path.name, lambda: _read_image(path))]


ReplayItem: TypeAlias = str | os.PathLike | np.ndarray
ReplaySource: TypeAlias = ReplayItem | Sequence[ReplayItem]


class ReplayCapture(CaptureBackend):
    """Serves saved screenshots: an image file, a folder (name order), an animated GIF, arrays, or a list.

    The current frame is the screen; :meth:`advance` moves to the next one. ``origin`` places the
    frames in virtual-screen coordinates (a recording of a monitor left of the primary one).
    """

    name = "replay"

    def __init__(self, source: ReplaySource, origin: tuple[int, int] = (0, 0)) -> None:
        super().__init__()
        items = [source] if isinstance(source, (str, os.PathLike, np.ndarray)) else list(source)
        self._frames: list[tuple[str, Callable[[], np.ndarray]]] = []
        for number, item in enumerate(items):
            if isinstance(item, np.ndarray):
                array = _check_array(item, f"frame {number}")
                self._frames.append((f"array#{number}", lambda array=array: array))
            else:
                self._frames.extend(_frames_of(item))
        if not self._frames:
            raise CaptureError("a replay needs at least one screenshot")
        self.origin = origin
        self.index = 0
        self.grabbed: set[int] = set()
        self._image: np.ndarray | None = None

    @property
    def source(self) -> str:
        """The name of the current frame (file name, ``name.gif#3`` or ``array#0``)."""
        return self._frames[self.index][0]

    @property
    def frames_left(self) -> int:
        """How many frames come after the current one."""
        return len(self._frames) - 1 - self.index

    @property
    def frame_count(self) -> int:
        return len(self._frames)

    @property
    def frame_names(self) -> list[str]:
        """The name of every frame, in order."""
        return [name for name, _ in self._frames]

    def advance(self) -> None:
        """Move to the next frame.

        Raises:
            CaptureError: when the current frame is the last one.
        """
        if self.frames_left == 0:
            raise CaptureError(f"the replay has no frame after {self.source!r}")
        self.index += 1
        self._image = None

    def current(self) -> np.ndarray:
        """The whole current frame (decoded once)."""
        if self._image is None:
            self._image = _check_array(self._frames[self.index][1](), self.source)
        return self._image

    def screen_region(self) -> Region:
        height, width = self.current().shape[:2]
        return Region(self.origin[0], self.origin[1], width, height)

    def _grab(self, region: Region) -> np.ndarray:
        self.grabbed.add(self.index)
        return _crop(self.current(), region, self.origin)


def _check_array(image: np.ndarray, name: str) -> np.ndarray:
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    if image.ndim != 3 or image.shape[2] not in (3, 4) or image.dtype != np.uint8 or 0 in image.shape:
        raise CaptureError(
            f"screenshot {name!r} is not a BGR uint8 image (shape {image.shape}, {image.dtype})"
        )
    return np.ascontiguousarray(image[:, :, :3])


# -- the simulated client ---------------------------------------------------------------------------------


class FrameSource(Protocol):
    """Anything that can show a whole screen: the simulated client."""

    def frame(self) -> np.ndarray: ...


class SimCapture(CaptureBackend):
    """Grabs the current screen of a frame source, such as the simulated client (:class:`bot.mock.SimClient`).

    The source is given, never built here: capture knows nothing of the mock client (the mock wires
    itself to this backend), so importing one never imports the other.
    """

    name = "sim"

    def __init__(self, source: FrameSource) -> None:
        super().__init__()
        if not callable(getattr(source, "frame", None)):
            raise CaptureError(f"the sim capture needs a frame source with a frame() method, got {source!r}")
        self.client = source

    def screen_region(self) -> Region:
        height, width = self.client.frame().shape[:2]
        return Region(0, 0, width, height)

    def _grab(self, region: Region) -> np.ndarray:
        return _crop(self.client.frame(), region)


BACKENDS: tuple[str, ...] = ("mss", "replay", "sim")
"""Capture backend names, for ``--capture`` choices."""

_CLASSES: dict[str, type[CaptureBackend]] = {"mss": MssCapture, "replay": ReplayCapture, "sim": SimCapture}


def open_capture(name: str, **options: Any) -> CaptureBackend:
    """A capture backend by name (``mss``, ``replay`` or ``sim``) with its options
    (``sim`` takes ``source``, a frame source such as :class:`bot.mock.SimClient`).

    Raises:
        CaptureError: for an unknown name or options the backend does not take.
    """
    return open_backend(_CLASSES, name, CaptureError, options)
