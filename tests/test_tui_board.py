"""Double Double Dominoes in the terminal (issue 47, item 17): tiles that never run into each
other at 80x24 (and at 100x30 and 120x40), the hand and the prompt across the whole width,
places lettered a, b, c, d… with no gap, and a tile that cannot be played says why."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from bonepile.actions import Attach, Lead, Place
from bonepile.games import get_game
from bonepile.games.double_double import position
from bonepile.grid import BoardLayout
from bonepile.match import Match, match_of, new_match
from bonepile.tui.screen import LETTERS, choices_for, render_screen
from bonepile.tui.session import LocalGame
from bonepile.view import view
from tui_positions import frame

SIZES = [(80, 24), (100, 30), (120, 40)]


def _board_rows(lines: list[str]) -> list[str]:
    """The board's rows of a screen (a row number, then the squares; not the log beside)."""
    return [line.split("│")[0] for line in lines if re.match(r"\s?\d+  ", line)]


def _board_tiles(lines: list[str]) -> int:
    """The tiles the board shows whole: ``[6|4]`` along a row, ``┌6`` over ``└4`` down a
    column."""
    text = "\n".join(_board_rows(lines))
    return len(re.findall(r"\[\d\|\d\]", text)) + len(re.findall(r"┌\d", text))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["double_double", "double_double_small_over"])
def test_every_tile_on_the_board_shows_whole_and_apart(name: str, size: tuple[int, int]) -> None:
    f = frame(name)
    layout = f.view.layout
    assert isinstance(layout, BoardLayout)
    w, h = size
    lines = render_screen(f, w, h).canvas.lines()
    assert len(lines) == h and all(len(line) <= w for line in lines)
    preview = 1 if f.choices else 0  # the chosen place shows the tile too
    assert _board_tiles(lines) == len(layout.placements) + preview, "\n".join(lines)
    rows = _board_rows(lines)
    assert len(rows) == layout.board.rows, "\n".join(lines)  # the whole board, every row
    for line in rows:
        # a tile's last character is never followed by the next tile's first
        assert not re.search(r"[\]\d][\[┌└]", line), line


@pytest.mark.parametrize("size", SIZES[:2], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hand_and_the_prompt_take_the_whole_width_below_the_board(
    size: tuple[int, int],
) -> None:
    # the small board is 25 columns wide: the final hands are not squeezed beside it
    f = frame("double_double_small_over")
    assert f.view.revealed is not None
    lines = render_screen(f, *size).canvas.lines()
    hands = [
        f"P{s} {f.names[s]}: " + " ".join(f"[{t.hi}|{t.lo}]" for t in hand)
        for s, hand in enumerate(f.view.revealed)
    ]
    assert any(all(hand in line for hand in hands) for line in lines), "\n".join(lines)


def test_the_log_beside_a_board_uses_the_width_there_is() -> None:
    f = frame("double_double")
    lines = render_screen(f, 120, 40).canvas.lines()
    room = 120 - max(len(row) for row in _board_rows(lines)) - 2
    shown = [entry for entry in f.log[-12:] if len(entry) <= room]
    assert shown
    for entry in shown:  # a move that fits beside the board is on one line
        assert any(line.endswith("│" + entry) for line in lines), (entry, "\n".join(lines))


def test_the_places_are_lettered_without_a_gap() -> None:
    f = frame("double_double")
    assert len(f.choices) >= 6
    text = " ".join(render_screen(f, 80, 24).canvas.lines())
    assert re.findall(r"\(([a-z])\) \d-\d@", text) == list(LETTERS[: len(f.choices)])
    assert LETTERS.startswith("abcdefgh")


def _local(match: Match) -> LocalGame:
    """A game at this keyboard from ``match`` on: a person in seat 0, a random bot in 1."""
    return LocalGame(match, ["human", "random"], False, 0)


def _a_tile_with(places: int) -> tuple[Match, int]:
    """A Double Double Dominoes match (seeded random moves) where seat 0 is to play a tile
    with at least ``places`` places, and that tile's index in the hand."""
    for seed in range(100):
        m = new_match("double_double", 2, seed=seed)
        rng = random.Random(seed)
        while not m.current.is_over:
            if m.current.actor == 0:
                v = view(m.current, 0)
                for i, t in enumerate(v.hand[:9]):
                    if len(choices_for(v, t)) >= places:
                        return m, i
            m = m.apply(rng.choice(m.legal_actions()))
    raise AssertionError(f"no tile with {places} places")


@pytest.mark.system
@pytest.mark.parametrize("letter", ["d", "h", "q", "s"])
def test_a_letter_plays_the_place_it_names_before_what_the_key_does_else(letter: str) -> None:
    pytest.importorskip("textual")
    from bonepile.tui.app import BonepileApp
    from tui_driver import idle, screen_text

    k = LETTERS.index(letter)
    match, index = _a_tile_with(k + 1)
    game = _local(match)

    async def run() -> tuple[str, str, str, bool]:
        app = BonepileApp(game, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(app, pilot)
            await pilot.press(str(index + 1))
            await pilot.pause()
            chosen = str(app.choices[k])
            keys = screen_text(app).splitlines()[-1]
            await pilot.press(letter)
            await idle(app, pilot)
            moves = [str(a) for a in app.session.state.moves]
            return chosen, keys, " ".join(moves), app.is_running

    chosen, keys, moves, running = asyncio.run(run())
    assert chosen in moves.split(), (chosen, moves)
    assert running  # even q plays where (q) is: ctrl+q quits then
    assert "Esc back" in keys, keys
    if letter == "q":
        assert "ctrl+q quit" in keys, keys
    if letter == "h":
        assert "h hint" not in keys, keys


# ---------------------------------------------------------------- why a tile cannot be played
def _reason(state: Any, seat: int, tile: str) -> str | None:
    """What the game says of ``tile`` in ``seat``'s hand: why it has no place, or ``None``."""
    v = view(state, seat)
    t = next(t for t in v.hand if str(t) == tile)
    reason = get_game("double_double").why_unplayable(v, t)  # type: ignore[attr-defined]
    assert reason is None or isinstance(reason, str)
    return reason


@pytest.mark.engine
def test_a_tile_no_end_of_the_board_matches() -> None:
    # the example of the rules: 6-3 on 8G/8H, 3-2 on 9G/10G, 6-2 on 8I/9I
    s = position(
        2,
        [["5-5", "6-3", "1-0"], ["5-4", "6-6", "1-1"]],
        placed=["3-6@8G8H", "3-2@9G10G", "6-2@8I9I"],
    )
    assert _reason(s, 0, "6-3") is None
    assert _reason(s, 0, "5-5") == (
        "no tile on the board shows a 5, and one end must touch the same pips"
    )
    assert _reason(s, 0, "1-0") == (
        "no tile on the board shows a 0 or a 1, and one end must touch the same pips"
    )


@pytest.mark.engine
def test_a_tile_that_fits_elsewhere_but_not_next_to_the_chained_double() -> None:
    s = position(2, [["6-6", "6-1", "5-3"], ["5-4", "4-4", "1-1"]], placed=["3-6@8G8H"])
    s = s.apply(next(a for a in s.legal_actions() if str(a) == "6-6@8I8J"))
    assert s.actor == 0 and view(s, 0).public.chain is not None  # type: ignore[attr-defined]
    assert _reason(s, 0, "6-1") is None
    assert _reason(s, 0, "5-3") == (
        "it has no place next to the double on 8I/8J, where a chained tile must go"
    )


@pytest.mark.engine
@pytest.mark.parametrize("board", [None, "small"])
def test_a_reason_comes_exactly_when_the_tile_has_no_place(board: str | None) -> None:
    from bonepile.grid import load_board

    game = get_game("double_double")
    said = 0
    for seed in range(12):
        b = load_board(board) if board else None
        s = game.new(2, seed=seed, board=b)
        rng = random.Random(seed)
        while not s.is_over:
            v = view(s, s.actor)
            for t in set(v.hand):
                placed = any(isinstance(a, Place) and a.tile is t for a in v.legal)
                reason = game.why_unplayable(v, t)  # type: ignore[attr-defined]
                assert (reason is None) == placed, (t, reason, [str(a) for a in v.legal])
                said += reason is not None
            s = s.apply(rng.choice(s.legal_actions()))
    assert said > 50


def _dead_tile() -> tuple[Match, int, str]:
    """A match where seat 0 is to play and holds a tile with no place (and one with)."""
    for seed in range(100):
        m = new_match("double_double", 2, seed=seed)
        rng = random.Random(seed)
        while not m.current.is_over:
            if m.current.actor == 0:
                v = view(m.current, 0)
                dead = [i for i, t in enumerate(v.hand[:9]) if not choices_for(v, t)]
                if dead and len(dead) < len(v.hand):
                    return m, dead[0], str(v.hand[dead[0]])
            m = m.apply(rng.choice(m.legal_actions()))
    raise AssertionError("no dead tile")


@pytest.mark.system
def test_picking_a_tile_that_cannot_be_played_says_why() -> None:
    pytest.importorskip("textual")
    from bonepile.tui.app import BonepileApp
    from tui_driver import idle, screen_text

    match, index, tile = _dead_tile()
    why = _reason(match.current, 0, tile)
    assert why

    async def run() -> str:
        app = BonepileApp(_local(match), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(app, pilot)
            await pilot.press(str(index + 1))
            await pilot.pause()
            return screen_text(app)

    text = " ".join(" ".join(asyncio.run(run()).split("\n")).split())
    assert f"{tile} cannot be played now: {why}" in text, text


@pytest.mark.system
def test_a_line_game_says_which_tiles_can_be_played_instead() -> None:
    pytest.importorskip("textual")
    from bonepile.tui.app import BonepileApp
    from tui_driver import idle, screen_text

    game = get_game("block")
    state = game.new(2, seed=5)
    while state.actor != 0:
        state = state.apply(state.legal_actions()[0])
    v = view(state, 0)
    playable = [str(a.tile) for a in v.legal if isinstance(a, Lead | Attach)]
    dead = [i for i, t in enumerate(v.hand) if str(t) not in playable]
    assert playable and dead

    async def run() -> str:
        app = BonepileApp(_local(match_of([state], 0)), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(app, pilot)
            await pilot.press(str(dead[0] + 1))
            await pilot.pause()
            return screen_text(app)

    text = " ".join(asyncio.run(run()).split())
    assert f"{v.hand[dead[0]]} cannot be played now (you can play" in text, text
    assert all(t in text for t in dict.fromkeys(playable)), text
