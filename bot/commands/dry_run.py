"""Read saved screenshots as the bot would, without clicking: board, status and the move it would make.

PATH is a screenshot (PNG, JPEG, BMP), a folder of them (name order) or an animated GIF (each frame).
For every frame minebot finds the board, reads every cell, reads the status, and asks the solver for
its move. A frame with no board or an unreadable cell reports why; the others still run, and the
exit status is 1 if any frame failed. The mine count defaults to the standard level's for the board
size (9x9: 10, 16x16: 40, 16x30: 99), else to the client's mine counter (mines left plus flags) when one
is read beside the board, as in play; otherwise give --mines. The first-click rule defaults to the
skin's.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bot.board import Board
from bot.capture import ReplayCapture
from bot.cli import error_line
from bot.commands import count
from bot.errors import MinebotError, RecognitionError
from bot.game import FirstClickRule, GameStatus, find_rule
from bot.progress import Progress
from bot.vision import AUTO, CellReading, Reading, find_board, find_face, read_screen

NAME = "dry-run"
HELP = "read screenshots and show the board, status and move (no clicking)"
LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class DryRunOptions:
    """What ``minebot dry-run`` was asked."""

    paths: tuple[str, ...]
    skin: str
    mines: int | None
    rule: FirstClickRule | None
    json: bool
    annotate: Path | None


@dataclass
class FrameResult:
    """One frame's outcome: the reading and move, or the error that stopped it."""

    source: str
    reading: Reading | None = None
    move: Any = None
    failure: MinebotError | None = None
    """What stopped the frame (its message says it in words; its class shows only with ``-v``)."""
    annotation: Path | None = None
    """The annotated picture written for it (``--annotate``)."""

    @property
    def error(self) -> str | None:
        """The error that stopped the frame, in words, or ``None``."""
        return None if self.failure is None else str(self.failure)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``{"source", "rows", "cols", "board", "status", "skin", "move"}``)."""
        if self.reading is None:
            return {"source": self.source, "error": self.error, **self._annotation()}
        r = self.reading
        out: dict[str, Any] = {
            "source": self.source,
            "rows": r.board.rows,
            "cols": r.board.cols,
            "board": r.board.to_text().splitlines(),
            "mines": r.board.mines,
            "status": r.status.value,
            "skin": r.skin.name,
            "skin_score": round(r.skin_score, 4),
            "min_confidence": round(float(r.confidence.min()), 4),
            "geometry": {
                "left": r.geometry.left,
                "top": r.geometry.top,
                "pitch_x": r.geometry.pitch_x,
                "pitch_y": r.geometry.pitch_y,
            },
            "move": self.move.to_dict() if self.move is not None else None,
        }
        if self.error:
            out["error"] = self.error
        return out | self._annotation()

    def _annotation(self) -> dict[str, str]:
        return {} if self.annotation is None else {"annotation": str(self.annotation)}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="screenshot, folder of screenshots, or GIF")
    parser.add_argument(
        "--skin", default=AUTO, help="skin name or folder, or auto to try every skin (default)"
    )
    parser.add_argument(
        "--mines",
        type=count,
        default=None,
        metavar="N",
        help="total mines (default: the standard level's for the board size, else the client's mine counter)",
    )
    parser.add_argument(
        "--rule",
        default=None,
        choices=[r.value for r in FirstClickRule],
        help="the client's first-click rule (default: the skin's)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON: {'frames': [...]}")
    parser.add_argument(
        "--annotate",
        type=Path,
        default=None,
        metavar="DIR",
        help="write a PNG per frame into DIR (made if missing): the board enlarged, readings, mine odds, the "
        "move, unsure cells",
    )


def _count_mines(image: Any, result: FrameResult) -> None:
    """Give a reading with no mine total (not a standard size, no --mines) the one its counter shows,
    as ``play`` does: the mines left plus the flags on the board, when a counter is read beside it."""
    from bot.vision.read import counted_mines

    reading = result.reading
    if reading is None or reading.board.mines is not None:
        return
    total = counted_mines(image, reading.cells)
    if total is not None:
        result.reading = replace(reading, board=Board(reading.board.cells, total))


def _solve(result: FrameResult, options: DryRunOptions) -> Any:
    """The solver's move and mine probabilities for a reading (no move once the game is over)."""
    from bot.solver import choose_move, mine_probabilities

    reading = result.reading
    assert reading is not None
    board = reading.board
    if reading.status is not GameStatus.PLAYING:
        return None
    if board.mines is None:
        raise MinebotError(
            f"the board is {board.rows}x{board.cols}, not a standard level, and no mine counter was read "
            "beside it: give the mine count with --mines"
        )
    rule = options.rule or reading.skin.first_click_rule
    result.move = choose_move(board, board.mines, rule.value)
    return mine_probabilities(board, board.mines)


def caption(result: FrameResult) -> str:
    """One line over an annotated frame: source, status, skin, the move and its mine chance, or the error."""
    text = result.source
    reading, move = result.reading, result.move
    if reading is not None:
        text += f": {reading.status.value}, skin {reading.skin.name}"
    if move is not None:
        text += f"; move: {move.action.value} row {move.cell[0]} col {move.cell[1]}"
        text += f" ({100 * move.probability:.0f}% mine)"
    if result.error is not None:
        text += f"; {result.error}"
    return text


def _cells_to_draw(image: Any, result: FrameResult, skin: str) -> CellReading | None:
    """The cells to picture: the reading's, or for a board with unreadable cells the located grid's."""
    if result.reading is not None:
        return replace(result.reading.cells, geometry=result.reading.geometry)  # with the face found
    if not isinstance(result.failure, RecognitionError):
        return None
    try:
        location = find_board(image, skin)
    except MinebotError:
        return None
    face = find_face(image, location.geometry, location.skin)
    return replace(location.reading, geometry=replace(location.geometry, face=face.region if face else None))


def _annotate(
    folder: Path, index: int, image: Any, result: FrameResult, cells: CellReading, odds: Any
) -> Path:
    import cv2

    from bot.vision.annotate import annotate

    move = result.move
    action = move.action.value if move is not None else "open"
    picture = annotate(image, cells, odds, move.cell if move else None, action, caption(result))
    folder.mkdir(parents=True, exist_ok=True)
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in Path(result.source).stem)
    path = folder / f"{index:04d}_{stem}.png"
    if not cv2.imwrite(str(path), picture):
        raise MinebotError(f"cannot write the annotated frame {str(path)!r}")
    return path


def dry_run(options: DryRunOptions, progress: Progress | None = None) -> list[FrameResult]:
    """Read every frame of every path; errors are kept per frame, never raised (except a bad path)."""
    results: list[FrameResult] = []
    for path in options.paths:
        capture = ReplayCapture(path)
        with capture:
            for index in range(capture.frame_count):
                if index:
                    capture.advance()
                result = FrameResult(capture.source)
                results.append(result)
                probabilities = None
                image = capture.current()
                try:
                    result.reading = read_screen(image, options.skin, options.mines)
                    _count_mines(image, result)
                    probabilities = _solve(result, options)
                except MinebotError as exc:
                    result.failure = exc
                    LOGGER.info("frame %s: %s: %s", result.source, type(exc).__name__, exc)
                cells = _cells_to_draw(image, result, options.skin) if options.annotate else None
                if options.annotate is not None and cells is not None:
                    result.annotation = _annotate(
                        options.annotate, len(results), image, result, cells, probabilities
                    )
                if progress is not None:
                    progress.update()
    return results


def _print_text(results: list[FrameResult], verbose: int) -> None:
    """Each frame's board, status and move on stdout; a frame's error on stderr, in words (its class
    name with ``-v``), each flushed so the two streams interleave in order on a terminal."""
    for result in results:
        print(f"== {result.source}")
        if result.reading is not None:
            r = result.reading
            print(r.board.to_text(with_mines=True))
            print(
                f"status: {r.status.value}  skin: {r.skin.name} (score {r.skin_score:.2f})  "
                f"min confidence: {float(r.confidence.min()):.2f}"
            )
            if result.move is not None:
                print(f"move: {result.move}")
            elif result.error is None:
                print("move: none, the game is over")
        if result.failure is not None:
            sys.stdout.flush()
            print(
                error_line(NAME, result.failure, verbose, f"{result.source}: {result.failure}"),
                file=sys.stderr,
            )
            sys.stderr.flush()
    written = [r.annotation for r in results if r.annotation is not None]
    if written:
        print(f"annotated pictures: {len(written)} written to {written[0].parent}/ ({written[0].name} ..)")


def annotate_folder(path: Path) -> Path:
    """The folder ``--annotate`` names, made if missing (before any frame is read, so a bad one costs
    nothing).

    Raises:
        MinebotError: the path is a file, or the folder cannot be made (saying why).
    """
    if path.exists() and not path.is_dir():
        raise MinebotError(
            f"--annotate {str(path)!r} is a file, not a folder: name a folder to write the pictures in"
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MinebotError(
            f"--annotate: cannot make the folder {str(path)!r}: {exc.strerror or exc}"
        ) from exc
    if not os.access(path, os.W_OK):
        raise MinebotError(f"--annotate: the folder {str(path)!r} cannot be written to")
    return path


def _count_frames(paths: tuple[str, ...]) -> int:
    total = 0
    for path in paths:
        with ReplayCapture(path) as capture:
            total += capture.frame_count
    return total


def run(args: argparse.Namespace) -> int:
    options = DryRunOptions(
        paths=tuple(args.paths),
        skin=args.skin,
        mines=args.mines,
        rule=find_rule(args.rule) if args.rule else None,
        json=args.json,
        annotate=None if args.annotate is None else annotate_folder(args.annotate),
    )
    with Progress(_count_frames(options.paths), "frames") as progress:
        results = dry_run(options, progress)
    if options.json:
        print(json.dumps({"frames": [r.to_dict() for r in results]}, indent=2))
    else:
        _print_text(results, getattr(args, "verbose", 0))
    failed = [r for r in results if r.error is not None]
    if failed:
        print(
            f"minebot {NAME}: {len(failed)} of {len(results)} frame(s) failed",
            file=sys.stderr,
        )
    return 1 if failed else 0
