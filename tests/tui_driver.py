"""Driving the terminal app in Textual's pilot: press the keys a player would until the
hand (or the match) is over."""

from __future__ import annotations

from typing import Any

from bonepile.actions import DRAW, PASS, STOP, Discard
from bonepile.tui.app import BonepileApp
from bonepile.tui.screen import HAND_KEYS, LETTERS, tile_of
from bonepile.tui.session import LocalGame


async def idle(app: BonepileApp, pilot: Any) -> None:
    """Wait until no bot or hint is thinking and the screen is drawn."""
    for _ in range(2000):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.thinking:
            return


def screen_text(app: BonepileApp) -> str:
    """What the screen shows now."""
    assert app.last is not None
    return "\n".join(app.last.canvas.lines())


async def play_by_keys(app: BonepileApp, pilot: Any, checks: Any = None) -> int:
    """Play the seat(s) at this keyboard by keys until there is nothing left to play;
    ``checks(app)`` runs before every key. The number of keys pressed."""
    session = app.session
    assert isinstance(session, LocalGame)
    presses = 0
    for _ in range(3000):
        await idle(app, pilot)
        if checks is not None:
            checks(app)
        if session.over:
            return presses
        view = app.current_view()
        if session.hand_over or view.seat is None or view.actor != view.seat:
            await pilot.press("enter")  # the next hand, or the hot-seat curtain
            presses += 1
            continue
        legal = view.legal
        tiles = [a for a in legal if tile_of(a) is not None]
        if tiles:
            tile = tile_of(tiles[0])
            index = view.hand.index(tile)  # type: ignore[arg-type]
            key = HAND_KEYS[index] if index < len(HAND_KEYS) else "right"
            await pilot.press(key)
            await pilot.pause()
            assert app.choices, screen_text(app)
            await pilot.press(LETTERS[0] if not isinstance(app.choices[0], Discard) else "x")
        elif DRAW in legal:
            await pilot.press("d")
        elif PASS in legal:
            await pilot.press("p")
        elif STOP in legal:
            await pilot.press("s")
        else:
            raise AssertionError(f"no key for {legal}")
        presses += 1
    raise AssertionError("the game did not end")
