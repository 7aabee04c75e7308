"""Traces of hands played against a peer, and their replay without the peer.

A benchmark against another program (OpenSpiel's ISMCTS, the ``dominoes`` package) mirrors
each hand in a bonepile state. Its first few hands are kept as traces: the deal, the options,
the seats bonepile played, its agent and seed, and every action of the hand in bonepile's
notation. :func:`replay` plays a trace's actions again on a fresh state and, at each of
bonepile's turns, asks the agent (made again from its spec and seed) for its move: the move
must be the one the trace holds. So the test suite can tell, without the peer installed,
whether bonepile still plays the hands a saved figure was measured on: the peer's moves come
from the trace, and a seeded search makes the same moves on any build.
"""

from __future__ import annotations

from typing import Any


def trace_of(
    state: Any, options: dict[str, Any], ours: list[int], spec: str, seed: int
) -> dict[str, Any]:
    """A trace opened on the dealt ``state`` (made with ``options``, before any move): the
    actions go in its ``"actions"`` as they are played; where bonepile's agent chose a move
    that the peer's game played otherwise (the same tile on another end of the same number),
    ``"chosen"`` maps the ply (as text) to the agent's move."""
    hands, rest = state.deal
    return {
        "game": state.game.name,
        "players": state.players,
        "options": options,
        "hands": [[str(t) for t in h] for h in hands],
        "rest": [str(t) for t in rest],
        "ours": ours,
        "agent": spec,
        "seed": seed,
        "actions": [],
        "chosen": {},
    }


def skip_passes(state: Any, trace: dict[str, Any]) -> Any:
    """``state`` after the passes of blocked players, each noted in ``trace``: the peers skip a
    player who cannot move, bonepile's state has them pass (also to end a blocked hand)."""
    from bonepile.actions import PASS

    while state.actor is not None and state.legal_actions() == (PASS,):
        state = state.apply(PASS)
        trace["actions"].append(str(PASS))
    return state


def replay(trace: dict[str, Any]) -> str | None:
    """Play ``trace`` again, asking bonepile's agent at each of its turns; ``None`` when every
    move comes out the same, else what differed."""
    from bonepile.actions import parse_action
    from bonepile.agents import make_agent
    from bonepile.games import get_game
    from bonepile.tiles import parse_tile
    from bonepile.view import view

    game = get_game(trace["game"])
    hands = [[parse_tile(t) for t in h] for h in trace["hands"]]
    rest = [parse_tile(t) for t in trace["rest"]]
    state = game.new(trace["players"], options=trace["options"], deal=(hands, rest))
    agent = make_agent(trace["agent"], trace["seed"])
    ours = set(trace["ours"])
    for ply, text in enumerate(trace["actions"]):
        action = parse_action(text)
        if state.actor in ours:
            chosen = str(agent.act(view(state, state.actor)))
            held = trace.get("chosen", {}).get(str(ply), text)
            if chosen != held:
                return f"ply {ply}: {trace['agent']} now plays {chosen}, the trace holds {held}"
        state = state.apply(action)
    if state.actor is not None:
        return f"the trace ends before the hand (after {len(trace['actions'])} actions)"
    return None
