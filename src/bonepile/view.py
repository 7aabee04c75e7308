"""What one seat may know: the only way hidden information leaves a state.

``view(state, seat)`` gives a seat its own hand, everyone's hand sizes, the layout, the boneyard
size and the public history with other seats' draws redacted; ``view(state, None)`` is a
spectator's. Agents, UIs, the server and RL observations take a :class:`View`, never a state.
When the hand is over, every hand is shown (they are counted face up for scoring).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bonepile.actions import Action
from bonepile.events import Event
from bonepile.grid import BoardLayout
from bonepile.layout import Layout
from bonepile.options import options_to_json
from bonepile.result import Result
from bonepile.state import State
from bonepile.tiles import Tile


@dataclass(frozen=True, slots=True)
class Turn:
    """One entry of the public history: who acted, what they did, what happened."""

    seat: int
    action: Action
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class View:
    """Everything ``seat`` may know about a position (``seat`` is ``None`` for a spectator).

    ``leader`` is the seat a match's next-hand rule named for this hand (``None`` for the
    first hand of a match and for a single hand); ``public`` holds game-specific public facts
    (the first player, the direction, a spell, track positions, ...).
    """

    game: str
    options: Any
    players: int
    seat: int | None
    hand: tuple[Tile, ...]
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    layout: Layout | BoardLayout
    actor: int | None
    legal: tuple[Action, ...]
    scores_before: tuple[int, ...]
    leader: int | None
    result: Result | None
    public: Mapping[str, Any]
    history: tuple[Turn, ...]
    revealed: tuple[tuple[Tile, ...], ...] | None

    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.result is not None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (what a remote client or an external bot receives)."""
        return {
            "game": self.game,
            "options": options_to_json(self.options),
            "players": self.players,
            "seat": self.seat,
            "hand": [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "boneyard": self.boneyard_size,
            "layout": self.layout.to_json(),
            "actor": self.actor,
            "legal": [str(a) for a in self.legal],
            "scores_before": list(self.scores_before),
            "leader": self.leader,
            "result": None if self.result is None else self.result.to_json(),
            "public": dict(self.public),
            "history": [
                {
                    "seat": t.seat,
                    "action": str(t.action),
                    "events": [e.to_json() for e in t.events],
                }
                for t in self.history
            ],
            "revealed": None
            if self.revealed is None
            else [[str(t) for t in h] for h in self.revealed],
        }


def view(state: State, seat: int | None, *, history: bool = True) -> View:
    """What ``seat`` may know of ``state`` (``None``: a spectator, who sees no hand).

    With ``history=False`` the view's history is left empty (it costs a replay of the hand).
    """
    n = state.players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"seat must be 0..{n - 1} or None, got {seat!r}")
    turns = tuple(
        Turn(
            s,
            action if s == seat else action.redacted(),
            tuple(e.redact(seat) for e in events),
        )
        for s, action, events in (state.replay() if history else ())
    )
    over = state.is_over
    return View(
        game=state.game.name,
        options=state.options,
        players=n,
        seat=seat,
        hand=state.hand(seat) if seat is not None else (),
        hand_sizes=tuple(state.hand_size(s) for s in range(n)),
        boneyard_size=state.boneyard_size,
        layout=state.layout,
        actor=state.actor,
        legal=state.legal_actions() if seat is not None and seat == state.actor else (),
        scores_before=state.scores_before,
        leader=state.leader,
        result=state.result,
        public=state.public_info(),
        history=turns,
        revealed=tuple(state.hand(s) for s in range(n)) if over else None,
    )
