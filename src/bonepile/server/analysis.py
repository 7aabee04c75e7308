"""Replays and analysis of kept games: every position with all hands shown, and what the
search bot thinks of each legal move from one seat's view (never from hidden tiles)."""

from __future__ import annotations

from typing import Any

from bonepile.actions import parse_action
from bonepile.agents.ismcts import LEVELS, ISMCTSAgent
from bonepile.errors import BonepileError
from bonepile.geometry import scene
from bonepile.grid import BoardLayout
from bonepile.record import parse_json, start_of
from bonepile.state import State
from bonepile.view import view

MAX_PLIES = 5000
ANALYSIS_LEVELS = tuple(level for level in LEVELS if level != "expert")
"""The search levels a visitor may ask for: those the server's bots play (``expert`` would hold
a worker for seconds)."""


class AnalysisError(BonepileError):
    """A request for a position the game does not have."""

    code = "analysis"


def positions(record: str) -> list[tuple[State[Any], dict[str, Any] | None]]:
    """Every position of the recorded hand with the turn that led to it (``None`` first)."""
    state, moves = start_of(parse_json(record))
    out: list[tuple[State[Any], dict[str, Any] | None]] = [(state, None)]
    for text in moves[:MAX_PLIES]:
        seat = state.actor
        state, events = state.step(parse_action(text))
        out.append((state, {"seat": seat, "action": text, "events": [e.to_json() for e in events]}))
    return out


def replay_frames(record: str, width: int, height: int | None = None) -> dict[str, Any]:
    """The replay of a kept hand: per position the table's scene, every hand, the seat to
    act, the turn that led there and the scores; plus the game's facts."""
    frames = []
    first = None
    for state, turn in positions(record):
        spectator = view(state, None)
        if first is None:
            first = spectator
        frames.append(
            {
                "scene": scene(spectator.layout, width=width, height=height).to_json(),
                "hands": [[str(t) for t in view(state, k).hand] for k in range(state.players)],
                "hand_sizes": list(spectator.hand_sizes),
                "boneyard": spectator.boneyard_size,
                "actor": state.actor,
                "turn": turn,
                "public": spectator.public.to_json(),
                "result": None if state.result is None else state.result.to_json(),
                "scores": list(state.scores),
            }
        )
        if isinstance(spectator.layout, BoardLayout):
            frames[-1]["positions"] = list(spectator.layout.positions)
    assert first is not None
    out: dict[str, Any] = {"game": first.game, "players": first.players, "frames": frames}
    out["record"] = record
    if isinstance(first.layout, BoardLayout):
        out["board"] = first.layout.to_json()["board"]
    return out


def analyse(record: str, ply: int, seat: int | None, level: str) -> dict[str, Any]:
    """The search bot's estimate of every legal move at position ``ply`` of a kept hand, from
    the view of ``seat`` (by default the seat to act there)."""
    if level not in ANALYSIS_LEVELS:
        raise AnalysisError(f"level is one of {', '.join(ANALYSIS_LEVELS)}")
    states = positions(record)
    if not 0 <= ply < len(states):
        raise AnalysisError(f"this hand has positions 0 to {len(states) - 1}")
    state = states[ply][0]
    actor = state.actor
    if actor is None:
        raise AnalysisError("nobody is to move in this position")
    if seat is not None and seat != actor:
        raise AnalysisError(f"seat {seat + 1} is not to move here (seat {actor + 1} is)")
    v = view(state, actor)
    agent = ISMCTSAgent(level=level, seed=ply)
    moves = [
        {"action": str(a), "visits": visits, "win": round(mean, 3)}
        for a, visits, mean in (agent.estimates(v) if len(v.legal) > 1 else [(v.legal[0], 1, 0.0)])
    ]
    return {"ply": ply, "seat": actor, "level": level, "moves": moves, "forced": len(v.legal) == 1}
