"""Save the live screen as numbered PNGs, for later ``minebot dry-run`` or bug reports.

Grabs the whole virtual screen (every monitor) through mss every --interval seconds, --frames times,
into --out (created if needed) as ``frame_0001.png``, ``frame_0002.png``, ... Ctrl-C stops early and
keeps what was saved. Nothing is clicked.
"""

from __future__ import annotations

import argparse
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.capture import CaptureBackend, open_capture
from bot.commands import positive, seconds
from bot.errors import CaptureError
from bot.progress import Progress

NAME = "record"
HELP = "save the live screen as numbered PNGs for later dry-runs"
LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class RecordOptions:
    """What ``minebot record`` was asked."""

    out: Path
    interval: float
    frames: int


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("recording"),
        metavar="DIR",
        help="folder for the PNGs (default ./recording)",
    )
    parser.add_argument(
        "--interval", type=seconds, default=1.0, metavar="S", help="seconds between frames (default 1)"
    )
    parser.add_argument(
        "--frames", type=positive, default=10, metavar="N", help="frames to save (default 10)"
    )


def record(
    options: RecordOptions,
    capture: CaptureBackend,
    sleep: Callable[[float], None] = time.sleep,
    progress: Progress | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> list[Path]:
    """Grab ``options.frames`` whole screens ``options.interval`` s apart into numbered PNGs.

    Raises:
        CaptureError: the folder cannot be made or a PNG cannot be written (names the path).
    """
    import cv2

    try:
        options.out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CaptureError(f"cannot create the recording folder {str(options.out)!r}: {exc}") from exc
    saved: list[Path] = []
    next_at = clock()
    for number in range(1, options.frames + 1):
        wait = next_at - clock()
        if wait > 0:
            sleep(wait)
        next_at += options.interval
        image = capture.grab(None)
        path = options.out / f"frame_{number:04d}.png"
        if not cv2.imwrite(str(path), image):
            raise CaptureError(f"cannot write {str(path)!r}")
        saved.append(path)
        LOGGER.debug("saved %s", path)
        if progress is not None:
            progress.update()
    return saved


def run(args: argparse.Namespace) -> int:
    options = RecordOptions(out=args.out, interval=args.interval, frames=args.frames)
    saved: list[Path] = []
    with open_capture("mss") as capture, Progress(options.frames, "frames") as progress:
        try:
            saved = record(options, capture, progress=progress)
        except KeyboardInterrupt:
            saved = sorted(options.out.glob("frame_*.png"))
            print(f"interrupted: kept {len(saved)} frame(s) in {options.out}")
            return 130
    print(f"saved {len(saved)} frame(s) to {options.out}: {saved[0].name} .. {saved[-1].name}")
    print(f"read them with: minebot dry-run {options.out}")
    return 0
