"""A Ctrl-C that always stops a run, even when its ``KeyboardInterrupt`` is swallowed.

Python raises ``KeyboardInterrupt`` wherever the main thread is when the signal is handled. When that
is inside a finaliser (a ``weakref.finalize`` callback, a ``__del__``), a ctypes callback or code that
catches ``BaseException``, the exception is printed as "Exception ignored in ..." or dropped, and the
play loop never sees it. mss's X11 capture frees every reply from such a finaliser, so this happens
at about one Ctrl-C in a hundred during live play. :func:`ctrl_c_stops` installs a SIGINT handler
that also records the request; the play loop calls :func:`check_stop` at every step, which raises a
``KeyboardInterrupt`` again, so the run stops with the same report as when nothing was lost.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_requested = threading.Event()
"""Set by the SIGINT handler of :func:`ctrl_c_stops`; cleared when a new run installs it."""


def _on_ctrl_c(signum: int, frame: FrameType | None) -> None:
    """SIGINT: remember that a stop was asked for, then raise as Python's own handler does."""
    _requested.set()
    raise KeyboardInterrupt


def check_stop() -> None:
    """Raise ``KeyboardInterrupt`` when a Ctrl-C came during this run (also one already raised and
    swallowed elsewhere): called by the play loop at every step."""
    if _requested.is_set():
        raise KeyboardInterrupt


@contextmanager
def ctrl_c_stops() -> Iterator[None]:
    """For the block: Ctrl-C raises ``KeyboardInterrupt`` as usual and is remembered for
    :func:`check_stop`. The handler before is put back afterwards. Outside the main thread (where no
    signal handler can be set) nothing is installed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _requested.clear()
    previous = signal.signal(signal.SIGINT, _on_ctrl_c)
    try:
        yield
    finally:
        if previous is not None:  # None: a handler not set from Python, which cannot be put back
            signal.signal(signal.SIGINT, previous)
