"""Moves certain under every reading a refused frame may show (``bot.agent.unnamed``)."""

import numpy as np
import pytest
from fakes import FakeTime

from bot.agent.unnamed import MAX_READINGS, completions, consensus, guess_around, possible_states, relaxed
from bot.board import Board, Cell
from bot.errors import ContradictionError, GameOverError, RecognitionError
from bot.game import Game, GameStatus
from bot.solver import Action, choose_moves, probability_grid


def row(text: str, mines: int = 1) -> Board:
    return Board.from_text(text, mines=mines)


def test_a_move_certain_in_only_one_reading_is_not_played():
    one, zero = row("1.."), row("0..")  # one: (0, 1) mine, (0, 2) safe; zero: the other way round
    assert [m.cell for m in consensus([one]).moves] == [(0, 2)]  # type: ignore[union-attr]
    assert [m.cell for m in consensus([zero]).moves] == [(0, 1)]  # type: ignore[union-attr]
    assert isinstance(consensus([one, zero]), str)
    assert isinstance(consensus([zero, one]), str)


def test_a_reading_no_arrangement_fits_is_dropped_and_none_left_is_no_move():
    one, two = row("1.."), row("2..")  # a 2 with one covered neighbour: the screen cannot show it
    found = consensus([two, one])
    assert not isinstance(found, str) and found.kept == 1
    assert [(m.action, m.cell) for m in found.moves] == [(Action.OPEN, (0, 2))]
    assert found.unnamed.sum() == 0  # one reading left: nothing differs
    assert consensus([two]) == "no arrangement of mines fits any reading"


def test_the_board_kept_shows_only_what_every_reading_agrees_on():
    flagged, covered = row("1F."), row("1..")  # (0, 1) read as a flag or covered: a mine either way
    found = consensus([flagged, covered], flags=True)
    assert not isinstance(found, str) and found.kept == 2
    assert found.unnamed.tolist() == [[False, True, False]]
    assert found.board.to_text() == row("1..").to_text()
    assert [(m.action, m.cell) for m in found.moves] == [(Action.OPEN, (0, 2))]  # no flag on (0, 1)


def test_flags_only_on_mines_certain_under_every_reading():
    one = row("1..")
    found = consensus([one], flags=True)
    assert not isinstance(found, str)
    assert {(m.action, m.cell) for m in found.moves} == {(Action.OPEN, (0, 2)), (Action.FLAG, (0, 1))}
    assert all(m.action is Action.OPEN for m in consensus([one]).moves)  # type: ignore[union-attr]


def test_a_reading_that_shows_an_ended_game_stops_it_all():
    with pytest.raises(GameOverError):
        consensus([row("1.."), row("1*.")])


def test_an_unknown_cell_is_taken_as_covered_and_never_clicked():
    board = Board.from_text("01.\n01.\n011", mines=1)  # the mine is (1, 2): (0, 2) is safe
    unknown = np.zeros(board.shape, dtype=bool)
    unknown[2, 2] = True  # the 1 at (2, 2) unnamed: relaxed, the board says (2, 2) is safe (it is open)
    assert relaxed(board, unknown).to_text() == "01.\n01.\n01."
    assert [m.cell for m in consensus([relaxed(board, unknown)]).moves] == [(0, 2), (2, 2)]  # type: ignore[union-attr]
    found = consensus([board], unknown, flags=True)
    assert not isinstance(found, str) and found.unnamed[2, 2]
    assert [(m.action, m.cell) for m in found.moves] == [(Action.OPEN, (0, 2)), (Action.FLAG, (1, 2))]


def test_with_nothing_unnamed_and_no_move_certain_the_guess_is_the_solvers_own():
    board = Board.from_text("1.\n..", mines=1)  # three covered cells, one mine: a guess
    found = guess_around([board], np.zeros(board.shape, dtype=bool), "safe")
    assert not isinstance(found, str) and found.board is board
    assert [(m.cell, m.probability) for m in found.moves] == [
        (m.cell, m.probability) for m in choose_moves(board, 1, "safe")
    ]


def test_a_guess_around_an_unnamed_cell_is_weighed_over_every_number_it_may_show():
    """The unnamed cell is covered or any number; the guess is the cell safest in the worst of them."""
    board = Board.from_text("000\n121\n...\n...", mines=2)  # (1, 1) unnamed: its 2 or something else
    unknown = np.zeros(board.shape, dtype=bool)
    unknown[1, 1] = True
    assert isinstance(consensus([board], unknown), str)  # no cell is safe under every reading
    states = possible_states(relaxed(board, unknown), (1, 1))
    assert Cell.TWO in states and Cell.COVERED in states  # the truth, and no change at all
    assert Cell.ZERO not in states and Cell.FOUR not in states  # the 1s need a mine below; 3 cells below
    filled = completions(relaxed(board, unknown), unknown)
    assert filled is not None and [b[1, 1] for b in filled] == states
    found = guess_around([board], unknown)
    assert not isinstance(found, str)
    (move,) = found.moves
    assert move.action is Action.OPEN and move.cell != (1, 1) and found.unnamed[1, 1]
    assert found.board[1, 1] == Cell.COVERED and move.probability > 0
    chance = {}
    for whole in filled:  # the chance given is the worst of every reading no arrangement rules out
        try:
            chance[whole[1, 1]] = probability_grid(whole)[0][move.cell]
        except ContradictionError:
            continue
    assert Cell.TWO in chance and move.probability == pytest.approx(max(chance.values()))


def test_no_guess_when_a_reading_may_show_the_game_won():
    """The last safe cell may be the unnamed one, open: then every safe cell is open and the game may
    be won, and the covered cell left is a mine (before: it was guessed, 100% at worst)."""
    board = Board.from_text("1.\n1.", mines=1)  # (1, 1) unnamed: a 1 (won) or covered (safe, unclicked)
    unknown = np.zeros(board.shape, dtype=bool)
    unknown[1, 1] = True
    assert "won" in guess_around([board], unknown)  # type: ignore[operator]


def test_too_many_unnamed_cells_make_no_guess():
    board = Board.from_text("\n".join(["......."] * 7), mines=10)  # each unnamed cell may be 0-8
    unknown = np.zeros(board.shape, dtype=bool)
    unknown[1, 1] = unknown[1, 5] = True
    assert len(completions(board, unknown) or ()) == 10 * 10 <= MAX_READINGS
    unknown[5, 1] = True
    assert completions(board, unknown) is None
    assert "too many" in guess_around([board], unknown)  # type: ignore[operator]


def test_a_guess_around_unnamed_cells_is_never_riskier_than_it_says_on_the_true_board():
    """Random positions, one number unnamed (the truth among its readings): the guess is never the
    unnamed cell, and its chance of a mine on the true board is at most the one it was chosen by."""
    guessed = 0
    for board, _ in positions(30, seed=11):
        numbers = np.argwhere((board.cells >= 1) & (board.cells <= 8))
        if not len(numbers):
            continue
        cell = tuple(int(v) for v in numbers[len(numbers) // 2])
        unknown = np.zeros(board.shape, dtype=bool)
        unknown[cell] = True
        found = guess_around([relaxed(board, unknown)], unknown)
        if isinstance(found, str):
            continue
        (move,) = found.moves
        assert move.cell != cell and board[move.cell] == Cell.COVERED
        truth = probability_grid(board)[0][move.cell]
        assert truth <= move.probability + 1e-9
        guessed += 1
    assert guessed > 10


def positions(count: int, seed: int = 7):
    """Mid-game positions of random intermediate games (mines known), each with its mine layout."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        game = Game(16, 16, 40, rule="safe", seed=int(rng.integers(1 << 30)))
        game.open((8, 8))
        for _ in range(int(rng.integers(0, 6))):  # play on a little with the solver's certain moves
            if game.is_over():
                break
            moves = choose_moves(game.board, 40, "safe")
            if moves[0].probability > 0:
                break
            for move in moves:
                game.open(move.cell)
        if not game.is_over():
            out.append((game.board, game.layout))
    return out


def test_moves_certain_around_an_unnamed_cell_are_safe_on_the_true_board():
    """Random positions: a revealed number by covered cells is unnamed, read as each digit (the truth
    among them) or not at all; every move played is right on the true layout, none on the unnamed
    cell, and some are played (the test is not empty)."""
    played = dropped = 0
    for board, layout in positions(40):
        numbers = np.argwhere((board.cells >= 1) & (board.cells <= 8))
        if not len(numbers):
            continue
        cell = tuple(int(v) for v in numbers[len(numbers) // 2])
        readings = []
        for value in range(1, 9):
            cells = board.cells.copy()
            cells[cell] = value
            readings.append(Board(cells, board.mines))
        unknown = np.zeros(board.shape, dtype=bool)
        unknown[cell] = True
        found_alternatives = consensus(readings, flags=True)
        for found in (found_alternatives, consensus([board], unknown, flags=True)):
            if isinstance(found, str):
                continue
            dropped += len(readings) - found.kept if found.kept < len(readings) else 0
            if found.kept > 1 or found is not found_alternatives:  # named by logic when one is left
                assert found.unnamed[cell] and found.board[cell] == Cell.COVERED
            for move in found.moves:
                assert move.cell != cell
                assert layout[move.cell] == (move.action is Action.FLAG)
                played += 1
    assert played > 50 and dropped > 0


def _refusing(monkeypatch, client, target, digit: int | None):
    """A reader that cannot name a number while the game is on: with no ``digit``, ``target``'s,
    refused with that cell as each digit (the truth among them); else every cell showing ``digit``,
    refused by the skinless reader with no alternative (a digit it never named, as xbomb's half hidden
    glyph). Returns the refusals counted."""
    import bot.vision as vision
    import bot.vision.read as read

    refusals = []
    if digit is None:
        real = vision.read_board

        def refuse(image, geometry, skin, mines=None):
            reading = real(image, geometry, skin, mines)
            cells = reading.board.cells
            if client.game.status is GameStatus.PLAYING and cells[target] <= Cell.EIGHT:
                refusals.append((len(client.history), client.game.board.revealed_mask()))
                options = []
                for value in range(1, 9):
                    alternative = cells.copy()
                    alternative[target] = value
                    options.append(alternative)
                raise RecognitionError("a test reader: 1-8", cell=target, alternatives=tuple(options))
            return reading

        monkeypatch.setattr(vision, "read_board", refuse)
        return refusals
    real_cells = read.read_cells

    def refuse_cells(image, geometry, model=None):
        cells = real_cells(image, geometry, model)
        if client.game.status is GameStatus.PLAYING and (cells.states == digit).any():
            refusals.append((len(client.history), client.game.board.revealed_mask()))
            raise RecognitionError(f"a {digit} cannot be named (a test reader)", cell=target)
        return cells

    monkeypatch.setattr(read, "read_cells", refuse_cells)
    return refusals


@pytest.mark.parametrize("alternatives", [True, False])
def test_a_game_plays_on_around_a_cell_no_reader_names_and_never_clicks_a_mine(monkeypatch, alternatives):
    """A number the reader can never name while the game is on (one cell, refused with each digit as
    an alternative; or a digit the skinless reader never names, seen first mid-game). The bot plays
    only moves certain under every reading, never clicks an unnamed cell, needs no guess while one
    shows, and goes on past the first refusal (before: it stopped there)."""
    from bot.agent import Player, PlayOptions
    from bot.mock import SimClient

    client = SimClient("beginner", seed=3, rule="zero", screen_size=(900, 700), scale=2.0)
    client.game = opening = Game(9, 9, 10, rule="zero", seed=0)
    opening.open((4, 4))
    numbers = np.argwhere((opening.board.cells >= 1) & (opening.board.cells <= 8))
    layout = opening.layout
    assert layout is not None
    target, digit = tuple(int(v) for v in numbers[0]), None
    if not alternatives:  # a digit the opening does not show, first read mid-game
        shown = set(opening.board.cells[opening.board.revealed_mask()].tolist())
        count = {
            (r, c): int(layout[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2].sum()) for r, c in opening.board
        }
        target = min((c for c, n in count.items() if not layout[c] and n not in shown), key=count.__getitem__)
        digit = count[target]
    refusals = _refusing(monkeypatch, client, target, digit)
    options = PlayOptions(skin="auto" if alternatives else "generic", cover_wait=0.2, retries=1, mines=10)
    time = FakeTime()  # the 0.2 s wait counted in the player's own sleeps, whatever the machine's load
    player = Player(client.capture, client.input, options, clock=time.clock, sleep=time.sleep)
    result = player.play_game()
    assert refusals and result.unnamed_reads > 0
    clicks = [click.cell for click in client.history]
    for sent, opened in refusals:  # no click lands on a cell open (the unnamed one among them)
        assert not any(cell is not None and opened[cell] for cell in clicks[sent:])
    assert not any(layout[cell] for cell in clicks if cell is not None)
    assert result.status in ("won", "error") and result.guesses == 0
    assert len(clicks) > refusals[0][0]  # it went on after the first refusal


def _around(
    monkeypatch, previous, now, unsure, guessed=None, player=None, alternatives=(), image=None, reach=None
):
    """What the player plays on a refused frame (``image``, or none) whose cells the taught templates
    read as ``now``, all surely but ``unsure`` (with no skin, the game's last trusted board
    ``previous``); the reader's refusal carries ``alternatives``; ``reach``: the cells this game's
    clicks could open."""
    from bot.agent import Player, PlayOptions
    from bot.mock import SimClient
    from bot.vision.classify import CellReading

    client = SimClient("beginner", seed=3, rule="zero", screen_size=(900, 700), scale=2.0)
    client.game = Game(9, 9, 10, rule="zero", layout=previous[1])
    for cell in previous[0].cells_where(previous[0].revealed_mask()):
        client.game.open(cell)
    if player is None:
        player = Player(
            client.capture, client.input, PlayOptions(skin="generic", mines=10), sleep=lambda s: None
        )
        player.locate()
    geometry = player._region_geometry()
    shape = now.shape
    cells = CellReading(
        geometry, "taught", now.cells.copy(), now.cells.copy(), np.zeros(shape), np.ones(shape)
    )
    cells.confidence[unsure] = 0.0
    monkeypatch.setattr(player, "_classified", lambda image: (cells, None))
    if reach is not None:
        player._reach, player._flagged = reach, np.zeros(shape, bool)
    if guessed is not None:  # the last click was a guess there
        from bot.agent.sight import LastClicks
        from bot.solver import Move

        guess = Move(Action.OPEN, guessed, 0.3, "a guess", (guessed,))
        player._last_clicks = LastClicks(previous[0], np.zeros((4, 4, 3), np.uint8), (guess,), True)
    exc = RecognitionError("a test reader refuses", cell=(0, 0), alternatives=alternatives)
    shown = np.zeros((4, 4, 3), np.uint8) if image is None else image
    return player._around_unnamed(exc, shown, previous[0], [])


def test_a_cell_open_before_is_kept_only_when_a_glyph_opened_beside_it_may_run_into_it(monkeypatch):
    """xbomb: a number opened next to a revealed 3 runs into it, and the templates no longer read the 3
    surely: it is the 3 it was (a revealed cell never changes), and play goes on. A revealed cell no
    newly opened cell touches that reads otherwise is something drawn over the board: nothing is
    played."""
    game = Game(9, 9, 10, rule="zero", seed=0)
    game.open((4, 4))
    previous = game.board
    layout = game.layout
    assert layout is not None
    moves = choose_moves(previous, 10, "zero")
    assert moves[0].probability == 0
    game.open(moves[0].cell)
    now = game.board
    opened = now.revealed_mask() & ~previous.revealed_mask()
    from bot.agent.checks import near

    beside = previous.revealed_mask() & near(opened) & (previous.cells > 0)
    far = previous.revealed_mask() & ~near(opened) & (previous.cells > 0)
    assert beside.any() and far.any()
    one = np.zeros(now.shape, bool)
    one[tuple(np.argwhere(beside)[0])] = True
    found = _around(monkeypatch, (previous, layout), now, one)
    assert not isinstance(found, str), found
    sight, played = found
    assert sight.board.cells[one][0] == previous.cells[one][0] and played
    assert not any(layout[move.cell] for move in played if move.action is Action.OPEN)
    one = np.zeros(now.shape, bool)
    one[tuple(np.argwhere(far)[0])] = True
    assert "was open before" in _around(monkeypatch, (previous, layout), now, one)


def _run_into_game():
    """A game, its board before and after one safe open, the cell open before that a glyph opened
    beside it may run into, and a located skinless player on a simulated client of that game."""
    from bot.agent import Player, PlayOptions
    from bot.agent.checks import near
    from bot.mock import SimClient

    game = Game(9, 9, 10, rule="zero", seed=0)
    game.open((4, 4))
    first, layout = game.board, game.layout
    assert layout is not None
    game.open(choose_moves(first, 10, "zero")[0].cell)
    second = game.board
    opened = second.revealed_mask() & ~first.revealed_mask()
    one = np.zeros(second.shape, bool)
    one[tuple(np.argwhere(first.revealed_mask() & near(opened) & (first.cells > 0))[0])] = True
    client = SimClient("beginner", seed=3, rule="zero", screen_size=(900, 700), scale=2.0)
    client.game = Game(9, 9, 10, rule="zero", layout=layout)
    for cell in first.cells_where(first.revealed_mask()):
        client.game.open(cell)
    player = Player(client.capture, client.input, PlayOptions(skin="generic", mines=10), sleep=lambda s: None)
    player.locate()
    return first, second, layout, one, client, player


def test_a_cell_a_glyph_ran_into_stays_kept_on_later_moves(monkeypatch):
    """The glyph that ran into an open cell stays: on the next move no cell opened beside it any more,
    but this game found it run into already, so it keeps its number and play goes on."""
    from bot.agent import Player, PlayOptions

    first, second, layout, one, client, player = _run_into_game()
    assert not isinstance(_around(monkeypatch, (first, layout), second, one, player=player), str)
    found = _around(monkeypatch, (second, layout), second, one, player=player)  # nothing opened since
    assert not isinstance(found, str) and found[0].board.cells[one][0] == first.cells[one][0], found
    fresh = Player(client.capture, client.input, PlayOptions(skin="generic", mines=10), sleep=lambda s: None)
    fresh.locate()
    assert "was open before" in _around(monkeypatch, (second, layout), second, one, player=fresh)


def test_after_a_guess_play_goes_on_around_an_unnamed_cell_only_when_the_guess_reads_as_a_number(
    monkeypatch,
):
    """A refused frame right after a guess may show the game lost: play goes on around the unnamed
    cell only when the guessed cell reads surely as a number (the guess was safe)."""
    game = Game(9, 9, 10, rule="zero", seed=0)
    game.open((4, 4))
    previous, layout = game.board, game.layout
    assert layout is not None
    guess = choose_moves(previous, 10, "zero")[0].cell
    game.open(guess)
    now = game.board
    assert now[guess].is_number()
    unnamed = np.zeros(now.shape, bool)
    unnamed[tuple(np.argwhere(now.covered_mask())[-1])] = True  # a covered cell the templates cannot read
    found = _around(monkeypatch, (previous, layout), now, unnamed, guessed=guess)
    assert not isinstance(found, str) and found[1], found
    unnamed[guess] = True  # the guessed cell itself unread: lost, for all the bot knows
    assert "guess" in _around(monkeypatch, (previous, layout), now, unnamed, guessed=guess)


def test_a_cell_run_into_is_remembered_when_the_refusal_carries_its_readings(monkeypatch):
    """The reader's refusal carries the whole readings (played from them), while the templates cannot
    read an open cell beside a newly opened one: it is remembered as run into all the same, so on the
    next move, with nothing opened beside it, it keeps its number (xbomb live, once the reader's
    refusals carried readings: the game stopped on 'was open before and reads otherwise')."""
    first, second, layout, one, _, player = _run_into_game()
    readings = (second.cells.copy(),)
    found = _around(monkeypatch, (first, layout), second, one, player=player, alternatives=readings)
    assert not isinstance(found, str), found
    found = _around(monkeypatch, (second, layout), second, one, player=player)  # nothing opened since
    assert not isinstance(found, str) and found[0].board.cells[one][0] == first.cells[one][0], found


def test_a_reading_that_shows_the_guess_covered_beside_cells_it_opened_is_dropped(monkeypatch):
    """GNOME Mines live: a guess opened a 0 in the corner, drawn in a look no other cell has, and the
    reader could not tell it from a covered tile ('covered or zero: structure and logic allow
    either'). The reading with the guessed cell covered shows its neighbours opened by no click: it is
    dropped, and play goes on from the other, where the guess reads as the 0 it is."""
    layout = np.zeros((9, 9), bool)
    layout[0, 2] = layout[1, 2] = layout[2, 0] = layout[2, 1] = True  # (2, 2) safe by the 2s and the 4
    layout[6, 6] = layout[7, 2] = layout[8, 8] = layout[5, 7] = layout[4, 4] = layout[3, 8] = True
    game = Game(9, 9, 10, rule="none", layout=layout)
    fresh = game.board
    game.open((0, 0))
    now = game.board
    assert now[0, 0] == Cell.ZERO and now[1, 1] == Cell.FOUR and now.revealed_mask().sum() == 4
    covered = now.cells.copy()
    covered[0, 0] = Cell.COVERED  # the guess as a covered tile: nothing else could open (0, 1)
    readings = (now.cells.copy(), covered)
    unsure = np.zeros((9, 9), bool)
    reach = np.zeros((9, 9), bool)
    reach[0, 0] = True  # the guess, the only click
    found = _around(monkeypatch, (fresh, layout), now, unsure, (0, 0), alternatives=readings, reach=reach)
    assert not isinstance(found, str), found
    sight, played = found
    assert sight.board == now and played
    assert not any(layout[move.cell] for move in played if move.action is Action.OPEN)
    reach[:] = True  # a click anywhere could have opened them: either reading may be shown
    found = _around(monkeypatch, (fresh, layout), now, unsure, (0, 0), alternatives=readings, reach=reach)
    assert "guess" in found


def test_a_cell_open_before_whose_pixels_are_as_read_keeps_its_number(monkeypatch):
    """The templates cannot read an open cell surely though no cell opened beside it, and its pixels
    are exactly those of the frame the last trusted board was read from: the same pixels show the
    same state, so it keeps its number and play goes on (xbomb live, game 13 of a 30-game run stopped
    on 'was open before and reads otherwise' with that cell's pixels unchanged). Changed pixels there
    are still something over the board: nothing is played."""
    from bot.agent.checks import near
    from bot.agent.sight import LastClicks

    first, second, layout, _, _, player = _run_into_game()
    opened = second.revealed_mask() & ~first.revealed_mask()
    far = np.zeros(second.shape, bool)
    far[tuple(np.argwhere(first.revealed_mask() & ~near(opened) & (first.cells > 0))[0])] = True
    image = player._grab()
    player._last_clicks = LastClicks(first, image.copy(), (), True)
    found = _around(monkeypatch, (first, layout), second, far, player=player, image=image)
    assert not isinstance(found, str), found
    assert found[0].board.cells[far][0] == first.cells[far][0] and found[1]
    assert not any(layout[move.cell] for move in found[1] if move.action is Action.OPEN)
    rect = player._region_geometry().cell_rect(tuple(int(v) for v in np.argwhere(far)[0]))
    changed = image.copy()
    changed[rect.top + rect.height // 2, rect.left + rect.width // 2] ^= 255
    player._run_in = None
    assert "was open before" in _around(
        monkeypatch, (first, layout), second, far, player=player, image=changed
    )
