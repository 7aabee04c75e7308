"""What the terminal says in words, as pure functions of a view: how a hand (or a match)
ended, with the scores and what may be done next (:class:`Ending`), and why a tile of the
hand cannot be played now (:func:`cannot_play`, which asks the game for its reason).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bonepile.actions import Discard
from bonepile.games import get_game
from bonepile.grid import BoardLayout
from bonepile.tiles import Tile
from bonepile.view import View


@dataclass(frozen=True)
class Ending:
    """What the screen says once a hand is over. ``match``: hands are played to a target
    (the ``target``), with the match ``totals``; ``match_over`` and the match's ``winners``
    once it is won; ``again``: what Enter does now (``next hand``, ``play again``, ``new
    match``; empty: nothing, for instance for a spectator); ``leave``: what ``q`` does
    (``quit``, or ``leave`` the table of a web server)."""

    match: bool = False
    match_over: bool = False
    winners: tuple[int, ...] = ()
    totals: tuple[int, ...] | None = None
    target: int | None = None
    again: str = ""
    leave: str = "quit"


def seat_name(names: Sequence[str], seat: int) -> str:
    """``P1 greedy``: the seat number the log uses, and who sits there."""
    name = names[seat] if seat < len(names) else ""
    return f"P{seat} {name}".rstrip()


def _who_wins(view: View, names: Sequence[str], seats: Sequence[int]) -> str:
    """``You win``, ``P1 greedy wins``, ``P0 ann and P2 bob win``."""
    if view.seat is not None and tuple(seats) == (view.seat,):
        return "You win"
    who = " and ".join(seat_name(names, s) for s in seats)
    return f"{who} {'win' if len(seats) > 1 else 'wins'}"


def headline(view: View, names: Sequence[str], end: Ending) -> str:
    """Who won: the match once it is over (``You win the match!``), else the game (a board
    game) or the hand (``P1 greedy wins the hand``)."""
    r = view.result
    if end.match and end.match_over:
        if not end.winners:
            return "Match over: nobody wins"
        return f"{_who_wins(view, names, end.winners)} the match!"
    if r is None:
        return ""
    what = "game" if isinstance(view.layout, BoardLayout) else "hand"
    if not r.winners:
        return f"{what.capitalize()} over: nobody wins"
    text = f"{_who_wins(view, names, r.winners)} the {what}"
    return text + ("!" if text.startswith("You") else "")


def score_items(view: View, names: Sequence[str], end: Ending) -> list[str]:
    """The scores after the hand, one item a seat after a label: the score track of a board
    game, the match totals (with what this hand added, and the target while the match goes
    on), or the points of a single hand."""
    r = view.result
    if r is None:
        return []
    layout = view.layout
    if isinstance(layout, BoardLayout):
        track = layout.positions
        items = [f"{seat_name(names, s)} {track[s]}" for s in range(min(view.players, len(track)))]
        return ["Scores:", *items]
    if end.match and end.totals is not None:
        items = []
        for s, total in enumerate(end.totals):
            added = r.points[s] if s < len(r.points) else 0
            items.append(f"{seat_name(names, s)} {total}" + (f" (+{added})" if added else ""))
        if end.target is not None and not end.match_over:
            items.append(f"first to {end.target} wins")
        return ["Totals:", *items]
    return ["Points:", *(f"{seat_name(names, s)} {p}" for s, p in enumerate(r.points))]


def cannot_play(view: View, tile: Tile) -> str:
    """Why ``tile`` of the hand cannot be played now: the game's own reason when it has one
    (``Game.why_unplayable``), else what the seat may play instead."""
    if view.seat is None or view.actor != view.seat or not view.legal:
        return "not your turn"
    reason = get_game(view.game).why_unplayable(view, tile)
    if reason:
        return f"{tile} cannot be played now: {reason}"
    playable = []
    for a in view.legal:
        t = getattr(a, "tile", None)
        if isinstance(t, Tile) and not isinstance(a, Discard) and str(t) not in playable:
            playable.append(str(t))
    if playable:
        return f"{tile} cannot be played now (you can play {', '.join(playable)})"
    others = " or ".join(str(a) for a in view.legal if getattr(a, "tile", None) is None)
    return f"{tile} cannot be played now: no tile of yours can" + (
        f"; you may {others}" if others else ""
    )


__all__ = ["Ending", "cannot_play", "headline", "score_items", "seat_name"]
