"""What the benchmarks need of OpenSpiel's ``python_block_dominoes``: a resampler for its ISMCTS
and the translation of its actions to and from bonepile's ``block`` (2 players, 7 tiles, seat 0
leads any tile, ``lead=seat0_any``).

OpenSpiel's Python block dominoes cannot resample an information state
(``ResampleFromInfostate`` is not implemented), so its ISMCTS cannot play the game alone; the
resampler here deals the opponent's hidden tiles uniformly from the unseen ones that do not show
a number the opponent showed it lacks (by being skipped), and keeps a deal only if the public
history replays in it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any


def load_game() -> Any:
    """OpenSpiel's ``python_block_dominoes``, registered first (importing its module does it:
    OpenSpiel's other modules do not import it)."""
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    return pyspiel.load_game("python_block_dominoes")


def resampler(game: Any, rng: random.Random) -> Callable[[Any, int], Any]:
    """A resampler for ``ISMCTSBot._resampler_cb`` on ``game`` (``python_block_dominoes``)."""
    from open_spiel.python.games import block_dominoes

    deck = block_dominoes._DECK
    actions = block_dominoes._ACTIONS_STR

    def resample(state: Any, player: int) -> Any:
        mine = list(state.hands[player])
        played: dict[int, list[Any]] = {0: [], 1: []}
        for a in state.actions_history:
            played[a.player].append(a.tile)
        opponent = 1 - player
        lacks = lacking(state.actions_history, player)[opponent]
        unseen = [t for t in deck if t not in mine and t not in played[0] + played[1]]
        fits = [t for t in unseen if t[0] not in lacks and t[1] not in lacks]
        for _ in range(1000):
            rng.shuffle(fits)
            theirs = fits[: len(state.hands[opponent])]
            hands = {player: mine + played[player], opponent: theirs + played[opponent]}
            s = game.new_initial_state()
            for seat in (0, 1):
                for t in hands[seat]:
                    s.apply_action(deck.index(t))
            try:
                for a in state.actions_history:
                    s.apply_action(actions.index(str(a)))
            except Exception:  # an inconsistent sample: the history does not replay
                continue
            if s.current_player() == state.current_player():
                return s
        raise RuntimeError("no consistent sample")

    return resample


def lacking(history: list[Any], current: int | None = None) -> dict[int, set[float]]:
    """The numbers each player showed it lacks: a player skipped (the other moved twice in a
    row) held no tile matching the open ends of that moment. ``current``, the player to move
    now: if it also made the last move, the other has just been skipped too."""
    out: dict[int, set[float]] = {0: set(), 1: set()}
    edges: list[float] = []
    for i, a in enumerate(history):
        if not edges:
            edges = list(a.tile)
        else:
            edges.remove(a.edge)
            edges.append(a.tile[0] if a.tile[0] != a.edge else a.tile[1])
        following = history[i + 1].player if i + 1 < len(history) else current
        if following == a.player:
            out[1 - a.player].update(edges)
    return out


def to_bonepile(action_id: int, state: Any) -> Any:
    """The bonepile action (on bonepile ``state``) for OpenSpiel's action ``action_id``: the
    same tile on an open end showing the same number (two ends showing it are equivalent)."""
    from open_spiel.python.games import block_dominoes

    from bonepile.actions import Attach, Lead
    from bonepile.tiles import Tile

    a = block_dominoes._ACTIONS[action_id]
    tile = Tile(int(a.tile[0]), int(a.tile[1]))
    for b in state.legal_actions():
        if a.edge is None and isinstance(b, Lead) and b.tile is tile:
            return b
        if isinstance(b, Attach) and b.tile is tile and end_value(b, state) == a.edge:
            return b
    raise RuntimeError(f"no bonepile action for OpenSpiel's {a}")


def to_openspiel(action: Any, state: Any, player: int) -> int:
    """OpenSpiel's action id for bonepile ``action`` on bonepile ``state`` by ``player``."""
    from open_spiel.python.games import block_dominoes

    from bonepile.actions import Lead

    tile = (float(action.tile.lo), float(action.tile.hi))
    edge = None if isinstance(action, Lead) else float(end_value(action, state))
    return block_dominoes._ACTIONS_STR.index(str(block_dominoes.Action(player, tile, edge)))


def end_value(action: Any, state: Any) -> int:
    """The number shown by the open end that bonepile's attach ``action`` plays on."""
    for anchor, value in state.ends:
        if anchor == action.at.index and action.tile.has(value):
            return int(value)
    raise RuntimeError(f"{action} names no open end")
