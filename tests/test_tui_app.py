"""The terminal app in Textual's pilot: whole hands of every game played by keys, at 80x24
and wide; mouse, typed notation, hints, hot-seat secrecy, save and resume, replays."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("textual")

from bonepile.actions import DRAW, PASS, Attach, Lead
from bonepile.tui.app import BonepileApp
from bonepile.tui.session import LocalGame, Replay, seat_specs
from tui_driver import idle, play_by_keys, screen_text

pytestmark = pytest.mark.system

GAMES = [
    ("block", 2, {}),
    ("draw", 3, {}),
    ("super_dominoes", 4, {}),
    ("doubles", 3, {}),
    ("double_double", 2, {}),
]
SIZES = [(80, 24), (160, 50)]


def _game(name: str, players: int, options: dict[str, object], seed: int = 3) -> LocalGame:
    specs = seat_specs(players, 0, ["random"], hot_seat=False)
    return LocalGame.new(name, players, options=options, specs=specs, seed=seed)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g[0])
def test_a_whole_hand_by_keys(game: tuple[str, int, dict[str, object]], size: tuple[int, int]):
    name, players, options = game

    async def run() -> str:
        app = BonepileApp(_game(name, players, options), pace=0)
        async with app.run_test(size=size) as pilot:
            await play_by_keys(app, pilot)
            await idle(app, pilot)
            return screen_text(app)

    text = asyncio.run(run())
    assert "Hand over" in text or "Game over" in text, text
    assert len(text.splitlines()) == size[1]


def test_a_match_deals_hand_after_hand_and_keeps_the_totals() -> None:
    async def run() -> tuple[str, LocalGame]:
        specs = seat_specs(2, 0, ["random"], hot_seat=False)
        session = LocalGame.new(
            "block", 2, options={"target_score": 15}, specs=specs, whole_match=True, seed=8
        )
        app = BonepileApp(session, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_by_keys(app, pilot)
            await idle(app, pilot)
            return screen_text(app), session

    text, session = asyncio.run(run())
    assert session.match.is_over and len(session.match.hands) >= 1
    assert "the match!" in text and " pts" in text


def test_mouse_picks_a_tile_then_an_end() -> None:
    async def run() -> None:
        app = BonepileApp(_game("block", 2, {}, seed=5), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(app, pilot)
            for _ in range(6):
                await idle(app, pilot)
                view = app.current_view()
                if view.actor != view.seat:
                    break
                assert app.last is not None
                tile_hits = [h for h in app.last.hits if h[4] == "tile"]
                playable = [
                    h
                    for h in tile_hits
                    if any(getattr(a, "tile", None) is view.hand[h[5]] for a in view.legal)
                ]
                if not playable:
                    break
                x, y = playable[0][0] + 1, playable[0][1]
                await pilot.click(offset=(x, y))
                await pilot.pause()
                assert app.selected == playable[0][5]
                before = len(view.history)
                choice = next(h for h in app.last.hits if h[4] == "choice")
                await pilot.click(offset=(choice[0] + 1, choice[1]))
                await idle(app, pilot)
                assert len(app.current_view().history) > before

    asyncio.run(run())


def test_typed_notation_plays_and_bad_notation_says_why() -> None:
    async def run() -> tuple[str, str]:
        app = BonepileApp(_game("block", 2, {}, seed=5), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(app, pilot)
            await pilot.press("colon")
            for ch in "zz":
                await pilot.press(ch)
            await pilot.press("enter")
            await pilot.pause()
            bad = screen_text(app)
            view = app.current_view()
            move = str(view.legal[0])
            await pilot.press("colon")
            for ch in move:
                await pilot.press(ch if ch not in "-@" else {"-": "minus", "@": "at"}[ch])
            await pilot.press("enter")
            await idle(app, pilot)
            played = [str(t.action) for t in app.current_view().history]
            assert move in played, (move, played)
            return bad, move

    bad, _ = asyncio.run(run())
    assert "'zz' is not an action" in bad


@pytest.mark.parametrize("game", ["block", "doubles"])
def test_a_hint_estimates_every_legal_move_from_the_seat_view(game: str) -> None:
    """Every legal move gets its chance to win, 0 to 1, even in Doubles, whose bots play for
    the points margin."""

    async def run() -> tuple[tuple[tuple[str, int, float], ...], list[str], str]:
        app = BonepileApp(_game(game, 2, {}, seed=6), pace=0, hint_level="easy")
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(10):
                await idle(app, pilot)
                v = app.current_view()
                if v.actor == v.seat and len(v.legal) > 1:
                    break
                await pilot.press(*(["1", "a"] if v.actor == v.seat else []), "enter")
            v = app.current_view()
            await pilot.press("h")
            await idle(app, pilot)
            return app.hint, [str(a) for a in v.legal], screen_text(app)

    hint, legal, text = asyncio.run(run())
    assert sorted(h[0] for h in hint) == sorted(legal)
    assert all(0.0 <= h[2] <= 1.0 for h in hint) and any(h[2] > 0 for h in hint)
    assert "Hint (win, visits)" in text


def test_hot_seat_never_shows_a_hand_to_the_wrong_seat() -> None:
    shown: list[int | None] = []

    def check(app: BonepileApp) -> None:
        session = app.session
        assert isinstance(session, LocalGame)
        view = app.current_view()
        text = screen_text(app)
        hand_rows = [line for line in text.splitlines() if line.startswith("Hand:")]
        if session.hand_over:
            return
        if view.seat is None:
            assert hand_rows == [], text
            assert "pass the keyboard" in text
        else:
            assert view.seat == session.actor
            lines = text.splitlines()
            at = lines.index(hand_rows[0])
            found = {
                (int(a), int(b))
                for line in lines[at : at + 2]
                for a, b in re.findall(r"\[(\d+)\|(\d+)\]", line)
            }
            mine = {(t.hi, t.lo) for t in session.state.hand(view.seat)}
            assert found and found <= mine, (found, mine)
        shown.append(view.seat)

    async def run() -> None:
        specs = seat_specs(3, 0, None, hot_seat=True)
        session = LocalGame.new("draw", 3, specs=specs, seed=4)
        app = BonepileApp(session, pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_by_keys(app, pilot, checks=check)

    asyncio.run(run())
    assert {0, 1, 2} <= set(shown) and None in shown


def test_quit_saves_and_resume_goes_on(tmp_path: Path) -> None:
    save = tmp_path / "saved.json"

    async def first() -> list[str]:
        app = BonepileApp(_game("doubles", 2, {}, seed=9), pace=0, save_path=save)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(app, pilot)
            await pilot.press("right", "a")
            await idle(app, pilot)
            moves = [str(m) for m in app.session.state.moves]
            await pilot.press("q")
            return moves

    moves = asyncio.run(first())
    assert save.exists() and moves

    async def second() -> list[str]:
        app = BonepileApp(LocalGame.load(save), pace=0, save_path=save)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(app, pilot)
            resumed = [str(m) for m in app.session.state.moves]
            await play_by_keys(app, pilot)
            await pilot.press("q")
            return resumed

    assert asyncio.run(second())[: len(moves)] == moves
    assert not save.exists()  # a finished game leaves nothing to resume


def test_replay_steps_forwards_and_backwards() -> None:
    import bonepile

    state = bonepile.new_game("super_dominoes", 3, seed=2)
    import random

    final = state.playout(random.Random(2))

    async def run() -> list[int]:
        app = BonepileApp(Replay(final), pace=0)
        steps = []
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("right", "right", "right")
            steps.append(app.step)
            await pilot.press("left")
            steps.append(app.step)
            await pilot.press("end")
            steps.append(app.step)
            assert "Hand over" in screen_text(app)
            await pilot.press("home")
            steps.append(app.step)
        return steps

    steps = asyncio.run(run())
    assert steps == [3, 2, len(final.moves), 0]


def test_a_tile_that_cannot_be_played_says_so() -> None:
    async def run() -> str:
        app = BonepileApp(_game("block", 2, {}, seed=5), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(app, pilot)
            view = app.current_view()
            playable = {
                getattr(a, "tile", None) for a in view.legal if isinstance(a, Lead | Attach)
            }
            dead = [i for i, t in enumerate(view.hand) if t not in playable]
            assert dead
            await pilot.press(str(dead[0] + 1))
            await pilot.pause()
            return screen_text(app)

    assert "cannot be played now" in asyncio.run(run())


def _footer(app: BonepileApp) -> str:
    """The keys line (the screen's last row)."""
    return screen_text(app).splitlines()[-1]


def test_an_unknown_key_says_which_keys_work() -> None:
    async def run() -> tuple[str, str, str]:
        app = BonepileApp(_game("block", 2, {}, seed=5), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await idle(app, pilot)
            await pilot.press("percent_sign")
            await pilot.pause()
            unknown = screen_text(app)
            await pilot.press("question_mark")
            await pilot.pause()
            keys = screen_text(app)
            await pilot.press("1")
            await pilot.pause()
            return unknown, keys, screen_text(app)

    unknown, keys, after = asyncio.run(run())
    assert "unknown key %: press ? for the keys" in unknown, unknown
    assert "Keys:" in keys and "q quit" in keys and "h hint" in keys, keys
    assert "unknown key" not in after  # a key of the game clears it


def test_an_unknown_key_in_a_replay_says_so_too() -> None:
    import bonepile

    final = bonepile.new_game("block", 2, seed=2).playout(random.Random(2))

    async def run() -> tuple[str, str]:
        app = BonepileApp(Replay(final), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("z")
            await pilot.pause()
            unknown = screen_text(app)
            await pilot.press("question_mark")
            await pilot.pause()
            return unknown, screen_text(app)

    unknown, keys = asyncio.run(run())
    assert "unknown key z: press ? for the keys" in unknown, unknown
    assert "Home/End" in keys and "q quit" in keys


@pytest.mark.parametrize("name", ["block", "draw"])
def test_the_keys_line_offers_only_what_the_game_lets_you_do(name: str) -> None:
    seen: list[tuple[bool, bool, bool, bool]] = []

    def check(app: BonepileApp) -> None:
        view = app.current_view()
        if app.session.hand_over or view.actor != view.seat:
            return
        footer = _footer(app)
        can_draw, can_pass = DRAW in view.legal, PASS in view.legal
        assert ("d draw" in footer) == can_draw, (footer, view.legal)
        assert ("p pass" in footer) == can_pass, (footer, view.legal)
        seen.append((can_draw, can_pass, "x discard" in footer, "s stop" in footer))

    async def run() -> None:
        app = BonepileApp(_game(name, 2, {}, seed=3), pace=0)  # in draw, seat 0 must draw
        async with app.run_test(size=(80, 24)) as pilot:
            await play_by_keys(app, pilot, checks=check)

    asyncio.run(run())
    assert seen
    assert any(d for d, *_ in seen) == (name == "draw")  # block never draws; draw must at times
    assert not any(x or s for _, _, x, s in seen)  # no discard or stop in a line game


def test_a_match_replay_ends_with_the_totals_and_the_winner() -> None:
    from bonepile.match import new_match

    match = new_match("block", 2, options={"target_score": 40}, seed=4)
    rng = random.Random(4)
    while not match.is_over:
        if match.needs_deal:
            match = match.next_hand()
        match = match.apply(rng.choice(match.legal_actions()))
    assert len(match.hands) > 1

    async def run() -> str:
        app = BonepileApp(Replay(match), pace=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("end")
            await pilot.pause()
            return screen_text(app)

    text = asyncio.run(run())
    for s, total in enumerate(match.totals):
        assert f"P{s}: " in text and f"{total} pts" in text, text
    who = " and ".join(f"P{w}" for w in match.winners)
    assert f"match over: {who} wins" in text, text
