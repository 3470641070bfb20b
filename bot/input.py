"""Mouse and keyboard input: one contract (:class:`InputBackend`) and small backends.

Why: the bot must never click outside the board it recognised, whatever sends the clicks. The base
class holds that guard (``allowed`` plus regions added with :meth:`InputBackend.allow`, such as the
face button) and refuses a click outside them before anything is sent; a backend only delivers the
events. ``pyautogui`` needs a display when imported on Linux, so it is imported inside
:class:`PyAutoGuiInput` only.

>>> from bot.geometry import Region
>>> with RecordingInput(allowed=Region(0, 0, 100, 50)) as mouse:
...     mouse.click(10, 20)
...     mouse.events
[InputEvent(kind='click', x=10, y=20, detail='left')]
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import signal
import sys
import tempfile
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from bot.capture import Resource, open_backend
from bot.errors import AbortedError, InputError
from bot.geometry import Region
from bot.skin import NEW_GAME_KEYS

LOGGER = logging.getLogger(__name__)

BUTTONS = ("left", "right", "middle")
KEYS = (*NEW_GAME_KEYS, "escape", "space", "enter")
"""Keys the bot may press: those that start a new game in some client (:data:`bot.skin.NEW_GAME_KEYS`),
and a few to close a message; a chord such as ``ctrl+r`` is pressed as one."""


@dataclass(frozen=True)
class InputEvent:
    """One input action: ``kind`` is move, click, chord or press; ``detail`` the button or key."""

    kind: str
    x: int | None = None
    y: int | None = None
    detail: str = ""


@dataclass(frozen=True)
class Expect:
    """Screen pixels a guarded click needs unchanged: ``pixels`` (BGR, as captured) at ``region``."""

    region: Region
    pixels: np.ndarray


ACTIONS = (*BUTTONS, "chord")
"""What a guarded click sends: a button's click, or a chord."""


class InputBackend(Resource, ABC):
    """Moves the pointer, clicks and presses keys; refuses clicks outside the allowed regions."""

    def __init__(self, allowed: Region | None = None) -> None:
        super().__init__()
        self.allowed = allowed
        """Clicks must land in this region (the recognised board), or in one added by :meth:`allow`.
        None allows clicks anywhere."""
        self.extra_allowed: list[Region] = []

    def allow(self, region: Region) -> None:
        """Also accept clicks inside ``region`` (e.g. the face button)."""
        self.extra_allowed.append(region)

    def permits(self, x: int, y: int) -> bool:
        """True when a click at screen pixel (x, y) is allowed."""
        if self.allowed is None:
            return True
        return any(region.contains(x, y) for region in (self.allowed, *self.extra_allowed))

    def _check(self, x: int, y: int, what: str) -> tuple[int, int]:
        self._ensure_open(InputError)
        if not self.permits(x, y):
            regions = ", ".join(str(r) for r in (self.allowed, *self.extra_allowed))
            raise InputError(f"refused to {what} at ({x}, {y}): outside the allowed region(s) {regions}")
        return int(x), int(y)

    # -- the contract ---------------------------------------------------------------------------------

    @abstractmethod
    def _move(self, x: int, y: int) -> None:
        """Put the pointer at screen pixel (x, y)."""

    @abstractmethod
    def _click(self, x: int, y: int, button: str) -> None:
        """Click ``button`` at (x, y) (already checked)."""

    @abstractmethod
    def _press(self, key: str) -> None:
        """Press and release ``key``."""

    def _chord(self, x: int, y: int) -> None:
        raise InputError(f"the {self.name} input does not support chords")

    def move(self, x: int, y: int) -> None:
        """Move the pointer (allowed anywhere: the bot moves it off the board before capturing)."""
        self._ensure_open(InputError)
        self._move(int(x), int(y))

    def click(self, x: int, y: int, button: str = "left") -> None:
        """Click ``button`` (left, right or middle) at screen pixel (x, y).

        Raises:
            InputError: for an unknown button or a point outside the allowed regions (nothing is sent).
            AbortedError: when the user triggers the fail-safe.
        """
        if button not in BUTTONS:
            raise InputError(f"unknown mouse button {button!r}: use one of {', '.join(BUTTONS)}")
        self._click(*self._check(x, y, f"{button}-click"), button)

    def chord(self, x: int, y: int) -> None:
        """Chord (open all unflagged neighbours of a satisfied number) at (x, y), if the backend can."""
        self._chord(*self._check(x, y, "chord"))

    holds_screen = False
    """Whether :meth:`guarded_click` checks the pixels and clicks with the screen held still (no other
    program can move a window in between); else a window moved between the look and the click goes
    unseen (the look is as close to the click as the backend can make it)."""

    def guarded_click(
        self,
        x: int,
        y: int,
        action: str,
        expect: Sequence[Expect],
        look: Callable[[Region], np.ndarray],
        park: tuple[int, int] | None = None,
    ) -> bool:
        """Click (or chord) at (x, y) only if every ``expect`` region still shows its pixels.

        Why: a click is aimed from an earlier look; a window moved or covered since then would take it
        to another cell. ``look`` grabs a screen region (the capture backend) for backends that cannot
        read the screen themselves. Returns False, sending nothing, when a region changed. ``park``:
        where the pointer goes right after the click (off the board: a client may draw something
        under a resting pointer, such as a tooltip).

        Raises:
            InputError: for an unknown action or a point outside the allowed regions (nothing is sent).
            AbortedError: when the user triggers the fail-safe.
        """
        if action not in ACTIONS:
            raise InputError(f"unknown action {action!r}: use one of {', '.join(ACTIONS)}")
        x, y = self._check(x, y, action)
        return self._guarded_click(x, y, action, expect, look, park)

    def _guarded_click(
        self,
        x: int,
        y: int,
        action: str,
        expect: Sequence[Expect],
        look: Callable[[Region], np.ndarray],
        park: tuple[int, int] | None = None,
    ) -> bool:
        """Look, then click: not atomic (see :attr:`holds_screen`)."""
        if not all(_shows(look(e.region), e) for e in expect):
            return False
        if action == "chord":
            self._chord(x, y)
        else:
            self._click(x, y, action)
        if park is not None:
            self._move(*park)
        return True

    def program_at(self, x: int, y: int) -> Path | None:
        """The executable of the program whose window shows screen pixel (x, y), when this backend can
        tell (None: not known)."""
        return None

    def window_at(self, x: int, y: int) -> int | None:
        """An id of the top-level window that shows screen pixel (x, y), when this backend can tell."""
        return None

    def covered(self, window: int, region: Region) -> bool | None:
        """Whether another window lies over ``window`` within ``region`` (a dialog over the board);
        None when not known."""
        return None

    def keys_to(self, window: int) -> bool:
        """When no window has the keyboard, give it to ``window`` (as a window manager would after a
        dialog closes; else keys go nowhere); True when given. A window that has it keeps it."""
        return False

    def press(self, key: str) -> None:
        """Press a key such as ``"F2"``."""
        self._ensure_open(InputError)
        if key not in KEYS:
            raise InputError(f"unknown key {key!r}: use one of {', '.join(KEYS)}")
        self._press(key)


def _shows(pixels: np.ndarray, expect: Expect) -> bool:
    return pixels.shape == expect.pixels.shape and np.array_equal(pixels, expect.pixels)


class RecordingInput(InputBackend):
    """Records every action and sends nothing: for dry runs and tests.

    ``on_event`` is called after each recorded action (a replay uses it to show the next frame).
    """

    name = "recording"

    def __init__(
        self, allowed: Region | None = None, on_event: Callable[[InputEvent], None] | None = None
    ) -> None:
        super().__init__(allowed)
        self.events: list[InputEvent] = []
        self.on_event = on_event

    def _record(self, event: InputEvent) -> None:
        self.events.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def _move(self, x: int, y: int) -> None:
        self._record(InputEvent("move", x, y))

    def _click(self, x: int, y: int, button: str) -> None:
        self._record(InputEvent("click", x, y, button))

    def _chord(self, x: int, y: int) -> None:
        self._record(InputEvent("chord", x, y))

    def _press(self, key: str) -> None:
        self._record(InputEvent("press", detail=key))

    @property
    def clicks(self) -> list[InputEvent]:
        """The clicks and chords, in order (moves and key presses left out)."""
        return [e for e in self.events if e.kind in ("click", "chord")]


class SimulatedScreen(Protocol):
    """What :class:`SimInput` drives: the simulated client (:class:`bot.mock.SimClient`)."""

    def handle(self, event: InputEvent) -> None: ...


class SimInput(InputBackend):
    """Clicks the simulated client: each action becomes an :class:`InputEvent` it handles."""

    name = "sim"

    def __init__(self, client: SimulatedScreen, allowed: Region | None = None) -> None:
        super().__init__(allowed)
        self.client = client

    def _move(self, x: int, y: int) -> None:
        self.client.handle(InputEvent("move", x, y))

    def _click(self, x: int, y: int, button: str) -> None:
        self.client.handle(InputEvent("click", x, y, button))

    def _chord(self, x: int, y: int) -> None:
        self.client.handle(InputEvent("chord", x, y))

    def _press(self, key: str) -> None:
        self.client.handle(InputEvent("press", detail=key))

    def program_at(self, x: int, y: int) -> Path | None:
        """The simulated client's ``program`` (a path a test gives it), else not known."""
        program = getattr(self.client, "program", None)
        return Path(program) if program is not None else None


CHORD_STYLES = ("both", "middle")
"""How a real client chords: press left and right together (winmine), or click the middle button."""


class PyAutoGuiInput(InputBackend):
    """Real mouse and keyboard through pyautogui (imported here, lazily: it needs a display on Linux).

    ``PAUSE`` is set to 0 (the bot decides its own pacing) and the fail-safe stays on: moving the
    mouse into a screen corner raises :class:`~bot.errors.AbortedError`.
    """

    name = "pyautogui"

    def __init__(self, allowed: Region | None = None, chord_style: str = "both") -> None:
        super().__init__(allowed)
        if chord_style not in CHORD_STYLES:
            raise InputError(f"unknown chord style {chord_style!r}: use one of {', '.join(CHORD_STYLES)}")
        self.chord_style = chord_style
        self._x11: Any = False
        """pyautogui's X11 module when the screen can be held (None when not; False: not yet known)."""
        pyautogui = _import_pyautogui()
        pyautogui.PAUSE = 0
        pyautogui.FAILSAFE = True
        self._gui = pyautogui

    @contextmanager
    def _sending(self, what: str) -> Iterator[None]:
        """Send through pyautogui's X connection with Ctrl-C held back (:func:`_interrupts_deferred`),
        and its errors as minebot's."""
        try:
            with _interrupts_deferred():
                yield
        except self._gui.FailSafeException as exc:
            raise AbortedError(
                f"stopped by the pyautogui fail-safe (mouse in a screen corner) during {what}"
            ) from exc
        except Exception as exc:
            raise InputError(f"pyautogui failed to {what}: {exc!r}") from exc

    def _move(self, x: int, y: int) -> None:
        with self._sending(f"move to ({x}, {y})"):
            if not self.holds_screen:
                self._gui.moveTo(x, y)
                return
            # pyautogui's moveTo waits for the X server four times (its position, the fail-safe before
            # and after, a sync); here the fail-safe's query also says whether the pointer is there
            # already (the last click parked it there): one round trip, two when it must move.
            where = _pointer(self._x11)
            if (x, y) not in self._corners() and where in self._corners():
                raise self._gui.FailSafeException("the pointer is in a screen corner")
            if where != (x, y):
                self._x11.fake_input(self._x11._display, self._x11.X.MotionNotify, x=x, y=y)
                self._x11._display.sync()

    def _corners(self) -> list[tuple[int, int]]:
        """Where a pointer stops the bot (pyautogui's fail-safe points, none when it is off)."""
        return [tuple(point) for point in self._gui.FAILSAFE_POINTS] if self._gui.FAILSAFE else []

    def _click(self, x: int, y: int, button: str) -> None:
        with self._sending(f"{button}-click at ({x}, {y})"):
            self._gui.click(x, y, button=button)

    def _chord(self, x: int, y: int) -> None:
        with self._sending(f"chord at ({x}, {y})"):
            if self.chord_style == "middle":
                self._gui.click(x, y, button="middle")
                return
            self._gui.moveTo(x, y)
            self._gui.mouseDown(button="left")
            self._gui.mouseDown(button="right")
            self._gui.mouseUp(button="right")
            self._gui.mouseUp(button="left")

    def _press(self, key: str) -> None:
        with self._sending(f"press {key}"):
            self._gui.hotkey(*key.lower().split("+"))

    def _ask_x11(self, what: str, question: Callable[[Any, Any], Any]) -> Any:
        """``question(display, X)`` on a connection of its own (:func:`_x11_connection`) on Linux's X11,
        else None; None also when the X server cannot answer (a window gone meanwhile)."""
        x11 = _x11_module(self._gui)
        if x11 is None or not sys.platform.startswith("linux"):
            return None
        try:
            with _x11_connection(x11) as display:
                return question(display, x11.X)
        except Exception as exc:  # python-xlib's errors, a process gone: not known
            LOGGER.info("%s is not known: %r", what, exc)
            return None

    def program_at(self, x: int, y: int) -> Path | None:
        """The program whose window shows (x, y): asked of the X server on Linux (:func:`_x11_owner`);
        not known elsewhere, or when the window does not say."""
        return self._ask_x11(
            f"the program showing ({x}, {y})", lambda display, X: _x11_program_at(display, X, int(x), int(y))
        )

    def window_at(self, x: int, y: int) -> int | None:
        """The topmost top-level window over (x, y), asked of the X server (Linux)."""
        return self._ask_x11(
            f"the window at ({x}, {y})", lambda display, X: _x11_top_id(display, X, int(x), int(y))
        )

    def covered(self, window: int, region: Region) -> bool | None:
        """Whether a window stacked above ``window`` overlaps ``region`` (X11 on Linux)."""
        return self._ask_x11(
            "what lies over the board", lambda display, X: _x11_covered(display, X, window, region)
        )

    def keys_to(self, window: int) -> bool:
        """Give the keyboard to ``window`` (or the program's window inside it) when none has it (X11)."""
        return bool(
            self._ask_x11("the keyboard's window", lambda display, X: _x11_keys_to(display, X, window))
        )

    @property
    def holds_screen(self) -> bool:  # type: ignore[override]
        """On X11 (32-bit pixels): the server is grabbed while the pixels are checked and the click sent."""
        if self._x11 is False:
            module = _x11_module(self._gui)
            with _interrupts_deferred():  # a round trip on pyautogui's connection
                usable = module is not None and _x11_pixels(module, Region(0, 0, 1, 1)) is not None
            self._x11 = module if usable else None
        return self._x11 is not None

    def _guarded_click(
        self,
        x: int,
        y: int,
        action: str,
        expect: Sequence[Expect],
        look: Callable[[Region], np.ndarray],
        park: tuple[int, int] | None = None,
    ) -> bool:
        if not self.holds_screen:
            return super()._guarded_click(x, y, action, expect, look, park)
        if action != "chord":
            buttons = [action]
        else:
            buttons = ["middle"] if self.chord_style == "middle" else ["left", "right"]
        with self._sending(f"{action} at ({x}, {y}) with the screen held"):
            try:
                return _held_click(self._x11, x, y, buttons, expect, park, self._corners())
            except _PointerInCorner as exc:
                raise self._gui.FailSafeException(str(exc)) from exc


X11_BUTTONS = {"left": 1, "middle": 2, "right": 3}
X11_DEPTH = 4
"""How deep below a top-level window its program's process id is looked for (a window manager's frame
holds the program's window, which may hold a toolkit's own)."""


def _x11_owner(window: Any, atom: int, x: Any, depth: int = X11_DEPTH) -> Path | None:
    """The program of ``window`` or of the first of its descendants that names one: the executable of
    its ``_NET_WM_PID`` (Linux's ``/proc``), else the program name of its ``WM_CLASS`` (a plain Xlib
    program such as xdemineur sets no process id)."""
    value = window.get_full_property(atom, x.AnyPropertyType)
    if value is not None and len(value.value):
        return Path(os.readlink(f"/proc/{int(value.value[0])}/exe"))
    named = window.get_full_property(window.display.get_atom("WM_CLASS"), x.AnyPropertyType)
    value = b"" if named is None else named.value
    name = (value if isinstance(value, bytes) else str(value).encode()).split(b"\0")[0]
    if name:
        return Path(name.decode("utf-8", "replace"))
    if depth <= 0:
        return None
    for child in window.query_tree().children:
        program = _x11_owner(child, atom, x, depth - 1)
        if program is not None:
            return program
    return None


@contextmanager
def _x11_connection(x11: Any) -> Iterator[Any]:
    """A python-xlib connection of its own to the X server (``$DISPLAY``), closed when the block ends.

    Questions about windows (which program shows the board, what lies over it, who has the keyboard)
    never go through pyautogui's connection, which sends the clicks: a Ctrl-C that lands in the middle
    of a python-xlib request leaves its connection marked busy, and every later request on it waits
    forever. python-xlib comes with pyautogui on Linux (``x11`` is pyautogui's module using it: minebot
    neither imports nor declares python-xlib itself); its warning about an empty ``~/.Xauthority``
    (printed, once per connection) is kept out of the output.
    """
    with contextlib.redirect_stdout(io.StringIO()):
        display = type(x11._display)()  # python-xlib's Display class, as pyautogui loaded it
    try:
        yield display
    finally:
        display.close()


def _x11_windows(display: Any, X: Any) -> list[tuple[Any, Region]]:
    """The viewable top-level windows with their screen regions, bottom to top (``X``: python-xlib's
    constants)."""
    shown = []
    for window in display.screen().root.query_tree().children:  # bottom to top
        if window.get_attributes().map_state != X.IsViewable:
            continue
        g = window.get_geometry()
        shown.append((window, Region(g.x, g.y, max(1, g.width), max(1, g.height))))
    return shown


def _x11_top(display: Any, X: Any, px: int, py: int) -> Any:
    """The topmost viewable top-level window over (px, py), or None."""
    over = [window for window, region in _x11_windows(display, X) if region.contains(px, py)]
    return over[-1] if over else None


def _x11_top_id(display: Any, X: Any, px: int, py: int) -> int | None:
    """The id of :func:`_x11_top`'s window, or None."""
    top = _x11_top(display, X, px, py)
    return None if top is None else int(top.id)


def _x11_program_at(display: Any, X: Any, px: int, py: int) -> Path | None:
    """The program owning the topmost top-level window over (px, py) (X11; see :func:`_x11_owner`)."""
    top = _x11_top(display, X, px, py)
    if top is None:
        return None
    return _x11_owner(top, display.intern_atom("_NET_WM_PID"), X)


def _x11_covered(display: Any, X: Any, window: int, region: Region) -> bool | None:
    """Whether a viewable top-level window stacked above ``window`` overlaps ``region``; None when
    ``window`` is no longer shown."""
    shown = _x11_windows(display, X)
    ids = [int(w.id) for w, _ in shown]
    if window not in ids:
        return None
    return any(_overlap(r, region) for _, r in shown[ids.index(window) + 1 :])


def _overlap(a: Region, b: Region) -> bool:
    return a.left < b.right and b.left < a.right and a.top < b.bottom and b.top < a.bottom


def _x11_keys_to(display: Any, X: Any, window: int) -> bool:
    """Focus ``window`` (the program's own window inside a window manager's frame: the first with
    ``WM_STATE``) when the keyboard's focus is nowhere (None, PointerRoot or the root window)."""
    root = display.screen().root
    focus = display.get_input_focus().focus
    focused = focus if isinstance(focus, int) else int(focus.id)
    if focused not in (X.NONE, X.PointerRoot, int(root.id)):
        return False
    state = display.intern_atom("WM_STATE")
    target = _x11_marked(display.create_resource_object("window", window), X, state, X11_DEPTH)
    target = target or display.create_resource_object("window", window)
    target.set_input_focus(X.RevertToParent, X.CurrentTime)
    display.sync()
    LOGGER.info("no window had the keyboard: given to window 0x%x, which shows the board", int(target.id))
    return True


def _x11_marked(window: Any, X: Any, state: int, depth: int) -> Any:
    """``window`` or its first descendant (``depth`` levels down) that has the property ``state``, or None
    (``WM_STATE``: the window a window manager marked as a program's, inside its frame)."""
    if window.get_full_property(state, X.AnyPropertyType) is not None:
        return window
    for child in window.query_tree().children if depth > 0 else []:
        found = _x11_marked(child, X, state, depth - 1)
        if found is not None:
            return found
    return None


def _x11_module(gui: Any) -> Any:
    """pyautogui's X11 platform module (its python-xlib connection and XTest), or None elsewhere."""
    module = getattr(gui, "platformModule", None)
    if module is None or not all(hasattr(module, name) for name in ("_display", "X", "fake_input")):
        return None
    return module


class _PointerInCorner(Exception):
    """The pointer was found in a fail-safe corner before a held click (nothing was sent)."""


def _requests(x11: Any) -> Any:
    """python-xlib's request classes, taken from the connection pyautogui opened (python-xlib comes with
    pyautogui on Linux; minebot does not install it itself)."""
    return sys.modules[type(x11._display).__module__].request


def _ask_pixels(x11: Any, region: Region) -> Any:
    """Ask for ``region`` of the root window, not waiting for the answer (``.reply()`` waits)."""
    root = x11._display.screen().root
    return _requests(x11).GetImage(
        display=root.display,
        defer=1,
        format=x11.X.ZPixmap,
        drawable=root.id,
        x=region.left,
        y=region.top,
        width=region.width,
        height=region.height,
        plane_mask=0xFFFFFFFF,
    )


def _ask_pointer(x11: Any) -> Any:
    """Ask where the pointer is, not waiting for the answer (``.reply()`` waits)."""
    root = x11._display.screen().root
    return _requests(x11).QueryPointer(display=root.display, defer=1, window=root.id)


def _pointer(x11: Any) -> tuple[int, int]:
    """Where the pointer is on the screen (one round trip)."""
    asked = _ask_pointer(x11)
    asked.reply()
    return int(asked.root_x), int(asked.root_y)


def _x11_pixels(x11: Any, region: Region) -> np.ndarray | None:
    """``region`` of the root window as BGR pixels, or None when the server's format is not 32 bpp."""
    asked = _ask_pixels(x11, region)
    asked.reply()
    return _bgr(asked, region)


def _bgr(raw: Any, region: Region) -> np.ndarray | None:
    """The BGR pixels of an answered :func:`_ask_pixels`, or None when the format is not 32 bpp."""
    data = raw.data
    if isinstance(data, str):  # python3-xlib hands back pixel bytes that happen to be UTF-8 as text
        data = data.encode("utf-8")
    data = np.frombuffer(data, np.uint8)
    if data.size != region.width * region.height * 4:
        return None
    return data.reshape(region.height, region.width, 4)[:, :, :3]


def _held_click(
    x11: Any,
    x: int,
    y: int,
    buttons: list[str],
    expect: Sequence[Expect],
    park: tuple[int, int] | None,
    corners: Sequence[tuple[int, int]] = (),
) -> bool:
    """Grab the X server, check every expected region, send the click through XTest, let go.

    While the server is grabbed no other client's request is carried out, so no window can move
    between the check and the click; the click's events are routed when they are sent, to the window
    under (x, y) at that moment. Pixels are read through the same connection (another one would wait
    for the grab to end). The pointer (for the fail-safe) and every region are asked for at once and
    the answers awaited together: one round trip to the server, however many regions.

    Raises:
        _PointerInCorner: the pointer is in one of ``corners`` (nothing was sent).
    """
    display, X, fake = x11._display, x11.X, x11.fake_input
    with _interrupts_deferred():
        display.grab_server()
        try:
            pointer = _ask_pointer(x11)
            asked = [_ask_pixels(x11, e.region) for e in expect]
            pointer.reply()
            if (pointer.root_x, pointer.root_y) in corners:
                raise _PointerInCorner(f"the pointer is at ({pointer.root_x}, {pointer.root_y})")
            for e, answer in zip(expect, asked, strict=True):
                answer.reply()
                pixels = _bgr(answer, e.region)
                if pixels is None or not _shows(pixels, e):
                    return False
            fake(display, X.MotionNotify, x=x, y=y)
            for button in buttons:
                fake(display, X.ButtonPress, X11_BUTTONS[button])
            for button in reversed(buttons):
                fake(display, X.ButtonRelease, X11_BUTTONS[button])
            if park is not None:  # sent with the click: the client sees the pointer leave at once
                fake(display, X.MotionNotify, x=park[0], y=park[1])
            return True
        finally:
            # One connection's requests are carried out in order: the click's events are routed before
            # the ungrab is, with no round trip to wait for (the next get_image is one anyway).
            display.ungrab_server()
            display.flush()


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C back until the block ends (main thread only): a grabbed X server is always let go,
    and no half-sent request is left on the connection. A Ctrl-C held back is raised as the block ends,
    also when the block raised something else (it is never lost: the run must stop); a second Ctrl-C
    while one is held back ends the process at once (the X server lets a dead client's grab go)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def hold(number: int, frame: object) -> None:
        if caught:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        caught.append(number)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            raise KeyboardInterrupt


def _import_pyautogui() -> Any:
    """Import pyautogui, which connects to the X display at import time on Linux.

    A display started without access control (Xvfb) still makes python-xlib read ``~/.Xauthority``;
    when that file is missing, point ``XAUTHORITY`` at an empty one and try once more (logged).

    Raises:
        InputError: when there is no usable display.
    """
    try:
        import pyautogui
    except Exception as exc:  # Linux raises KeyError (no $DISPLAY) or Xlib errors
        if type(exc).__name__ != "XauthError" or os.environ.get("XAUTHORITY"):
            raise InputError(f"pyautogui cannot start (no usable $DISPLAY?): {exc!r}") from exc
        empty = Path(tempfile.gettempdir()) / "minebot-empty-Xauthority"
        empty.touch()
        os.environ["XAUTHORITY"] = str(empty)
        LOGGER.info(
            "no ~/.Xauthority: using the empty %s to reach display %s", empty, os.environ.get("DISPLAY")
        )
        return _import_pyautogui()
    return pyautogui


BACKENDS: tuple[str, ...] = ("pyautogui", "recording", "sim")
"""Input backend names, for ``--input`` choices."""

_CLASSES: dict[str, type[InputBackend]] = {
    "pyautogui": PyAutoGuiInput,
    "recording": RecordingInput,
    "sim": SimInput,
}


def open_input(name: str, **options: Any) -> InputBackend:
    """An input backend by name (``pyautogui``, ``recording`` or ``sim``) with its options.

    Raises:
        InputError: for an unknown name or options the backend does not take.
    """
    return open_backend(_CLASSES, name, InputError, options)
