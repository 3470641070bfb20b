"""How a game's end is seen when not every cell can be read: the face, an exploded mine, every safe
cell open, or the board's logic and what changed on the screen after the last click.

A won or lost screen often shows something the skin cannot read (every mine flagged with a flag the
skin never saw, a mine look of its own, a glyph drawn over the board). It is read as the end it is,
not as an error, when what can be read decides it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np

from bot.board import Board, Cell, Coord
from bot.game import GameStatus
from bot.solver import Action, Move


def judge_end(
    states: np.ndarray, sure: np.ndarray, face: GameStatus | None, previous: Board | None, mines: int | None
) -> tuple[GameStatus, str] | None:
    """``(status, how)`` when the screen shows an ended game, else None.

    ``states`` is each cell's best reading and ``sure`` where it is certain. The face decides when it
    shows an end. Otherwise a mine, exploded mine or wrong flag read for certain (drawn only once a
    game is lost) is a loss, and a board whose certain
    numbers are every safe cell (``mines`` known) is a win, provided no cell revealed before reads
    differently (that would be a misread, not an end).
    """
    if face in (GameStatus.WON, GameStatus.LOST):
        return face, "face"
    changed = (
        previous is not None
        and previous.shape == states.shape
        and previous.revealed_mask() & (states != previous.cells)
    )
    if np.any(sure & changed):
        return None
    if (sure & np.isin(states, (Cell.EXPLODED, Cell.MINE, Cell.WRONG_FLAG))).any():
        return GameStatus.LOST, "board"
    if mines is not None and int((sure & (states <= Cell.EIGHT)).sum()) == states.size - mines:
        return GameStatus.WON, "board"
    return None


def won_as_nearest(states: np.ndarray, previous: Board | None, mines: int | None) -> bool:
    """Whether each cell read as its nearest look (``states``, sure or not) shows a won game: every cell
    not covered or flagged a number, as many of those left as mines, each number the count of them
    around it (they are all mines), and no cell revealed before shown otherwise. A judgement for when
    no reader names some cell surely; the board's logic must hold on every cell."""
    if mines is None or previous is None or previous.shape != states.shape:
        return False
    hidden = np.isin(states, (Cell.COVERED, Cell.FLAG))
    numbers = states <= Cell.EIGHT
    if not (hidden | numbers).all() or int(hidden.sum()) != mines:
        return False
    if (previous.revealed_mask() & (states != previous.cells)).any():
        return False
    return bool((_counts(hidden)[numbers] == states[numbers]).all())


def opened_by(moves: Iterable[Move], proven: bool = True) -> set[Coord] | None:
    """The cells ``moves`` open, or None when one of them opens a cell not proven safe (a guess) and
    ``proven`` is asked for."""
    opened: set[Coord] = set()
    for move in moves:
        if move.action is Action.FLAG:
            continue
        if move.probability > 0 and proven:
            return None
        opened.update(move.opens or (move.cell,))
    return opened


def mine_opened(board: Board, moves: Iterable[Move]) -> Coord | None:
    """A cell ``moves`` opened that ``board`` shows as a mine (exploded or not), or None: whatever else
    the board shows, a game where a clicked cell holds a mine is lost."""
    for cell in sorted(opened_by(moves, proven=False) or ()):
        if board[cell] in (Cell.MINE, Cell.EXPLODED):
            return cell
    return None


def won_by_opening(board: Board, moves: Iterable[Move], proven: bool = True) -> Board | None:
    """The won board when clicking ``moves`` on ``board`` opens its last safe cells, else None.

    Every cell the moves open is proven safe, and the cells left unopened are then exactly as many as
    the mines: every one of them is a mine, so the game is won once the clicks are taken, whatever the
    client draws next (a dialog over the board, its own flags). The board returned is that position:
    mines flagged, each opened cell numbered from them. With ``proven`` off the moves may be guesses:
    the win then holds only if the caller sees them safe (a guessed cell showing a number).
    """
    opened = opened_by(moves, proven)
    if not opened or board.mines is None or board.is_fresh():
        return None
    opened &= set(board.covered())
    unrevealed = ~board.revealed_mask()
    if int(unrevealed.sum()) - len(opened) != board.mines:
        return None
    mines = unrevealed.copy()
    for cell in opened:
        mines[cell] = False
    return Board(np.where(mines, np.int8(Cell.FLAG), _counts(mines)).astype(np.int8), board.mines)


def _counts(mines: np.ndarray) -> np.ndarray:
    """Each cell's number of mine neighbours (0-8)."""
    padded = np.pad(mines.astype(np.int8), 1)
    rows, cols = mines.shape
    total = np.zeros(mines.shape, np.int8)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if (dr, dc) != (1, 1):
                total += padded[dr : dr + rows, dc : dc + cols]
    return total


def block_distances(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """RMS difference (0-255) cell by cell between two ``(rows, cols, s, s, 3)`` stacks of cell blocks."""
    diff = before.astype(np.float32) - after.astype(np.float32)
    return np.sqrt((diff * diff).mean(axis=(2, 3, 4)))


MAX_END_LOOKS = 6
"""Most looks the covered cells that changed after a guess may show for a loss to be judged from them."""


def looks(blocks: np.ndarray, same: float) -> np.ndarray:
    """A look number per block of ``(n, s, s, 3)`` blocks: each block joins the first look whose first
    block is within ``same`` (RMS) of it, else starts a new one."""
    labels = np.full(len(blocks), -1)
    flat = blocks.astype(np.float32)
    while (labels < 0).any():
        first = int(np.argmax(labels < 0))
        near = block_distances(flat[None], flat[first][None, None])[0] <= same
        labels[near & (labels < 0)] = labels.max() + 1
    return labels


def occluded(moved: np.ndarray) -> np.ndarray:
    """The cells a window drawn over the board may hide, from the cells it shows in (``moved``: revealed
    or flagged cells that changed, which never change by themselves, and cells of a look too rare to be
    a mine's): their bounding box and one cell around it."""
    hidden = np.zeros(moved.shape, bool)
    if moved.any():
        rows, cols = np.nonzero(moved)
        hidden[max(0, rows.min() - 1) : rows.max() + 2, max(0, cols.min() - 1) : cols.max() + 2] = True
    return hidden


def hidden_by_a_window(board: Board, before: np.ndarray, after: np.ndarray, same: float) -> np.ndarray:
    """The cells a window drawn over the board since ``before`` may hide (:func:`occluded`): revealed or
    flagged cells whose middles (:func:`centres`) changed by more than ``same`` (RMS), which never
    change by themselves, and the cells around them."""
    moved = block_distances(centres(before), centres(after)) > same
    return occluded(moved & ~(board.cells == Cell.COVERED))


def centres(blocks: np.ndarray) -> np.ndarray:
    """The middle half of each cell block: what a cell's own state draws (a client may draw an edge
    or shadow on a cell for its neighbours' sake, as KMines does beside shown mines)."""
    side = blocks.shape[2]
    return blocks[:, :, side // 4 : side - side // 4, side // 4 : side - side // 4]


RARE = 2
"""A look at most this many changed cells show, in cells side by side, is no mine's, nor a client's
end-of-game look of its unopened cells: something drawn over the board (a dialog's text, buttons)."""


def rare_looks(after: np.ndarray, changed: np.ndarray, guess: Coord, same: float) -> np.ndarray:
    """The ``changed`` cells other than ``guess`` whose look at most :data:`RARE` of them show."""
    others = changed.copy()
    others[guess] = False
    rare = np.zeros(changed.shape, bool)
    if others.any():
        labels = looks(after[others], same)
        rare[others] = np.bincount(labels)[labels] <= RARE
    return rare


def lost_by_guess(
    board: Board, guess: Coord, before: np.ndarray, after: np.ndarray, same: float
) -> Board | None:
    """The lost board when the screen after a guess at ``guess`` shows every mine, else None.

    ``before``/``after`` are the cells' blocks (``(rows, cols, s, s, 3)``) on the screen the guess was
    made on and the one after it; cells whose :func:`centres` are within ``same`` (RMS) are one look.
    A client that shows a loss draws every mine: the guess changed look, and the covered cells that
    changed show a few looks (at most :data:`MAX_END_LOOKS`: the mine, a client's unopened cells drawn
    anew at the end, each perhaps a pixel off on some rows), none the guess's (the mine that went off
    is drawn apart), some of which are the mines: with the guess and the flags exactly as many as the
    mines and exactly the mines every number counts, and not all beside the guess (a safe guess opens
    at most its neighbours when its look is its own). A dialog the client opens over the lost board
    (:func:`occluded`, :func:`rare_looks`) hides the cells under it: their mines are then only
    bounded. Anything else (a window over most of the board, part of a redraw, an opened area) is not
    judged.
    """
    if board.mines is None or board[guess] != Cell.COVERED:
        return None
    before, after = centres(before), centres(after)
    changed = block_distances(before, after) > same
    covered = board.cells == Cell.COVERED
    if not changed[guess]:
        return None
    beside = np.zeros(board.shape, bool)
    beside[max(0, guess[0] - 1) : guess[0] + 2, max(0, guess[1] - 1) : guess[1] + 2] = True
    moved = changed & ~covered
    rare = rare_looks(after, changed & covered, guess, same) & ~beside  # not the blast drawn beside it
    hidden = occluded(moved | rare & _counts(moved | rare).astype(bool))  # a rare look beside another
    if hidden[guess] or hidden.sum() * 4 > hidden.size:
        return None
    others = changed & covered & ~hidden
    others[guess] = False
    if not others.any():
        return None
    labels = np.full(board.shape, -1)
    labels[others] = looks(after[others], same)
    count = int(labels.max()) + 1
    if count > MAX_END_LOOKS:
        return None
    exploded = after[guess][None, None]
    if any(block_distances(exploded, after[labels == k][:1][None])[0, 0] <= same for k in range(count)):
        return None  # the mine that went off is drawn apart from every other cell
    numbers = board.revealed_mask()
    unseen = hidden & covered
    maybe = _counts(unseen)[numbers]
    for chosen in itertools.product((False, True), repeat=count):
        shown = np.isin(labels, [k for k in range(count) if chosen[k]])
        if not (shown & ~beside).any():
            continue
        mines = shown | (board.cells == Cell.FLAG)
        mines[guess] = True
        total, counted = int(mines.sum()), _counts(mines)[numbers]
        if not total <= board.mines <= total + int(unseen.sum()):
            continue
        if (counted > board.cells[numbers]).any() or (counted + maybe < board.cells[numbers]).any():
            continue
        lost = board.cells.copy()
        lost[shown] = Cell.MINE
        lost[guess] = Cell.EXPLODED
        return Board(lost, board.mines)
    return None


def as_its_kind(board: Board, before: np.ndarray, after: np.ndarray, same: float) -> np.ndarray:
    """The revealed cells that look in ``after`` as some cell of the same number looked in ``before``
    (within ``same``, RMS): a cell redrawn as its number is drawn, e.g. without the neighbour's glyph
    that had run into it, and not something drawn over it."""
    alike = np.zeros(board.shape, bool)
    for number in np.unique(board.cells[board.revealed_mask()]):
        cells = board.cells == number
        then = before[cells].astype(np.float32)
        now = after[cells].astype(np.float32)
        near = block_distances(now[:, None], then[None]) <= same  # (cells, cells): any earlier look
        alike[cells] = near.any(axis=1)
    return alike


MINE_LOOKS = 2
"""Most looks the mines may take on a board a client opened whole at a loss (a mine, and one drawn
a pixel off, or a flagged one)."""


def lost_by_opening_all(
    board: Board, guess: Coord, before: np.ndarray, after: np.ndarray, same: float
) -> Board | None:
    """The lost board when a client opened every cell after a guess at ``guess`` (xbomb does), else None.

    No reader needs to name what it drew: every covered cell changed look, no revealed one did but
    beside a covered cell (a glyph opened there may run into it, as xbomb's do) or to the look another
    cell of its number had before (:func:`as_its_kind`: the board redrawn whole, a neighbour's glyph
    that ran into it gone), and
    some one or two looks (:data:`MINE_LOOKS`) are the mines, the guess's among them unless it shows a
    look of its own (the mine that went off, drawn apart): with the guess and the flags exactly as many
    as the mines, each number shown before counting exactly them, and every other look drawn only where
    the cells around it hold one and the same number of them (a look is a digit: the counts name it).
    ``before``/``after`` are cell blocks as in :func:`lost_by_guess`.
    """
    if board.mines is None or board[guess] != Cell.COVERED:
        return None
    changed = block_distances(centres(before), centres(after)) > same
    covered = board.cells == Cell.COVERED
    drawn_into = changed & ~covered & ~_counts(covered).astype(bool)  # by no opened neighbour's glyph
    drawn_into &= ~as_its_kind(board, centres(before), centres(after), same)
    if drawn_into.any() or not changed[covered].all():
        return None
    labels = np.full(board.shape, -1)
    labels[covered] = looks(centres(after)[covered], same)
    apart = (labels == labels[guess]).sum() == 1  # the mine that went off, drawn apart
    numbers = board.revealed_mask()
    others = [k for k in range(int(labels.max()) + 1) if not (apart and k == labels[guess])]
    for size in range(1, MINE_LOOKS + 1):
        for chosen in itertools.combinations(others, size):
            if not apart and labels[guess] not in chosen:
                continue  # the guess shows a number's look: it was safe
            shown = np.isin(labels, chosen)
            shown[guess] = False
            mines = shown | (board.cells == Cell.FLAG)
            mines[guess] = True
            if int(mines.sum()) != board.mines:
                continue
            counts = _counts(mines)
            if (counts[numbers] != board.cells[numbers]).any():
                continue
            opened = covered & ~mines
            if any(len(np.unique(counts[opened & (labels == k)])) > 1 for k in others if k not in chosen):
                continue  # a look drawn over cells of different counts is no digit
            lost = board.cells.copy()
            lost[shown] = Cell.MINE
            lost[guess] = Cell.EXPLODED
            return Board(lost, board.mines)
    return None
