"""A tiny progress bar for long runs, drawn on stderr (only on a terminal unless forced).

>>> import io
>>> out = io.StringIO()
>>> with Progress(4, "games", stream=out, enabled=True, min_interval=0) as bar:
...     bar.update(4)
>>> "4/4" in out.getvalue()
True
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``[#####.....] 50/100 12.3/s eta 0:04`` redrawn in place at most every ``min_interval`` seconds."""

    def __init__(
        self,
        total: int,
        label: str = "",
        *,
        stream: TextIO | None = None,
        enabled: bool | None = None,
        width: int = 30,
        min_interval: float = 0.2,
    ) -> None:
        self.total = max(total, 0)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled if enabled is not None else self.stream.isatty()
        self.width = width
        self.min_interval = min_interval
        self.done = 0
        self._start = time.monotonic()
        self._last = 0.0

    def update(self, n: int = 1) -> None:
        """Count ``n`` more items done and redraw if due."""
        self.done += n
        now = time.monotonic()
        if self.enabled and (now - self._last >= self.min_interval or self.done >= self.total):
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        frac = self.done / self.total if self.total else 1.0
        filled = int(round(frac * self.width))
        elapsed = now - self._start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        bar = "#" * filled + "." * (self.width - filled)
        minutes, seconds = divmod(int(eta), 60)
        self.stream.write(
            f"\r{self.label} [{bar}] {self.done}/{self.total} {rate:.1f}/s eta {minutes}:{seconds:02d}"
        )
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        if self.enabled:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
