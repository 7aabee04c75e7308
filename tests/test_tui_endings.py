"""The end of a hand and of a match in the terminal (issue 47, items 15 and 16): who won and
the scores, at a game played here and at a table of the web server, and what may be done
then: play again (the next hand, a new deal, a new match) or quit here; the next hand of the
match (the table's ``next_hand``) or leave at a web table. The keys show on screen."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

pytest.importorskip("textual")

import bonepile
from bonepile.tui.app import BonepileApp
from bonepile.tui.remote import RemoteTable
from bonepile.tui.screen import AGAIN, LEAVE
from bonepile.tui.session import LocalGame, seat_specs
from bonepile.view import view
from tui_driver import idle, play_by_keys, screen_text

pytestmark = pytest.mark.system


def _footer(app: BonepileApp) -> str:
    return screen_text(app).splitlines()[-1]


def _words(app: BonepileApp) -> str:
    """The screen's words, one space apart (a wrapped line joins up)."""
    return " ".join(screen_text(app).split())


def _block(seed: int, target: int | None = None) -> LocalGame:
    specs = seat_specs(2, 0, ["random"], hot_seat=False)
    options = {} if target is None else {"target_score": target}
    return LocalGame.new(
        "block", 2, options=options, specs=specs, whole_match=target is not None, seed=seed
    )


def test_after_a_hand_the_winner_and_the_points_show_and_enter_deals_again() -> None:
    game = _block(5)

    async def run() -> tuple[str, str, str, Any]:
        app = BonepileApp(game, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_by_keys(app, pilot)
            await idle(app, pilot)
            ended, footer, final = _words(app), _footer(app), game.state
            await pilot.press("enter")
            await idle(app, pilot)
            return ended, footer, _words(app), final

    ended, footer, after, final = asyncio.run(run())
    result = final.result
    assert result is not None
    who = "You win the hand!" if result.winners == (0,) else "P1 random wins the hand"
    assert who in ended, ended
    assert f"Points: P0 you {result.points[0]} · P1 random {result.points[1]}" in ended, ended
    assert "[Enter] play again" in ended and "[q] quit" in ended, ended
    assert "Enter play again" in footer and "q quit" in footer, footer
    # a new deal: the same game at the same seats, from a new seed
    assert not game.hand_over and game.state.initial is not final.initial
    assert game.state.game.name == "block" and game.seed != 5
    assert "Hand over" not in after and "play again" not in after, after


def test_a_match_offers_the_next_hand_then_a_new_match() -> None:
    game = _block(8, target=40)
    between: list[tuple[str, str]] = []

    def check(app: BonepileApp) -> None:
        if game.hand_over and not game.over and len(between) < len(game.match.hands):
            between.append((_words(app), _footer(app)))

    async def run() -> tuple[str, str, str]:
        app = BonepileApp(game, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_by_keys(app, pilot, checks=check)
            await idle(app, pilot)
            ended, footer = _words(app), _footer(app)
            await pilot.press("enter")
            await idle(app, pilot)
            return ended, footer, _words(app)

    ended, footer, after = asyncio.run(run())
    assert between, "the match ended with its first hand: pick another seed"
    for words, keys in between:
        assert "Totals: P0 you" in words and "first to 40 wins" in words, words
        assert "[Enter] next hand" in words and "Enter next hand" in keys, (words, keys)
    assert "the match!" in ended and "Totals: P0 you" in ended, ended
    assert "first to 40" not in ended and "Enter new match" in footer, (ended, footer)
    # a new match: its first hand, nobody has a point
    assert len(game.match.hands) == 1 and game.match.totals == (0, 0)
    assert "· hand 1 ·" in after, after


def test_the_buttons_at_the_end_of_a_hand_are_clicked_too() -> None:
    game = _block(3)

    async def run() -> tuple[bool, bool]:
        app = BonepileApp(game, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_by_keys(app, pilot)
            await idle(app, pilot)
            assert app.last is not None
            again = next(h for h in app.last.hits if h[4] == "ending" and h[5] == AGAIN)
            await pilot.click(offset=(again[0] + 1, again[1]))
            await idle(app, pilot)
            dealt = not game.hand_over
            await play_by_keys(app, pilot)
            await idle(app, pilot)
            leave = next(h for h in app.last.hits if h[4] == "ending" and h[5] == LEAVE)
            await pilot.click(offset=(leave[0] + 1, leave[1]))
            await pilot.pause()
            return dealt, app.is_running

    dealt, running = asyncio.run(run())
    assert dealt and not running


# ------------------------------------------------------------ at a table of the web server
def _snap(you: int | None, *, over: bool, totals: list[int], target: int = 100) -> dict[str, Any]:
    """A state message of a match table (docs/server.md) whose hand is over."""
    state = bonepile.new_game("block", 2, seed=4)
    rng = random.Random(4)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    seat = {"kind": "human", "bot": None, "away_bot": False, "away_why": ""}
    seat |= {"left": "", "present": True, "bank": None}
    return {
        "v": 40,
        "table": "t1",
        "game": "block",
        "match": True,
        "match_over": over,
        "winners": [1] if over else [],
        "totals": totals,
        "target": target,
        "hand_number": 3,
        "seats": [seat | {"name": "ann"}, seat | {"name": "bob"}],
        "you": you,
        "view": view(state, you).to_json(),
    }


def _at_table(snap: dict[str, Any], keys: tuple[str, ...] = ()) -> tuple[str, str, list[Any]]:
    """The screen of a terminal at a table in state ``snap``, after ``keys``; what it sent."""
    remote = RemoteTable("http://127.0.0.1:1", "t1", snap["you"], "token")
    remote.snap = snap
    sent: list[Any] = []
    remote._send = sent.append  # type: ignore[method-assign]

    async def run() -> tuple[str, str]:
        app = BonepileApp(remote, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if keys:
                await pilot.press(*keys)
                await pilot.pause()
            return _words(app), _footer(app)

    words, footer = asyncio.run(run())
    return words, footer, sent


def test_a_web_table_shows_the_hand_the_totals_and_asks_for_the_next_hand() -> None:
    words, footer, sent = _at_table(_snap(0, over=False, totals=[30, 52]), ("enter",))
    assert "Totals: P0 you 30" in words and "P1 bob 52" in words, words
    assert "first to 100 wins" in words and "[Enter] next hand" in words, words
    assert "Enter next hand" in footer and "q leave" in footer, footer
    assert sent == [{"type": "next_hand"}]


def test_a_web_table_shows_who_won_the_match() -> None:
    words, footer, sent = _at_table(_snap(0, over=True, totals=[64, 103]), ("enter",))
    assert "P1 bob wins the match!" in words, words
    assert "Totals: P0 you 64" in words and "P1 bob 103" in words, words
    assert "first to" not in words and "next hand" not in words, words
    assert "Enter" not in footer and "q leave" in footer, footer
    assert "The match is over: q leaves" in words, words
    assert sent == []


def test_a_spectator_of_a_web_table_sees_the_end_too_and_deals_nothing() -> None:
    words, _, sent = _at_table(_snap(None, over=True, totals=[64, 103]), ("enter",))
    assert "P1 bob wins the match!" in words, words
    assert "next hand" not in words and sent == []
