"""Build Super Dominoes positions directly, for the scenario and option tests.

A fixture builds the state directly (layout, hands, boneyard order, spell/skip flags); it need
not come from real play. :func:`position` is the only code in the test suite that touches the
engine's internal fields; tests assert through the public API.

:func:`real_deal` builds a genuine explicit deal (hands of 9, the rest of the set as the
boneyard) for scenarios that are cheap to reach by real play.

Tiles are written in bonepile notation (``"9-7"``, ``"[4|6]"``...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bonepile.actions import parse_action
from bonepile.events import Event
from bonepile.games import get_game
from bonepile.state import State, apply
from bonepile.tiles import Tile, mask_of, parse_tile, tile_set

GAME = get_game("super_dominoes")
FULL_SET: tuple[Tile, ...] = tile_set(15)
HAND_SIZE = 9
ARMS = 6
PLAY_PHASE = 2
SPELL_KINDS = {"end": 0, "starter": 1}


def t(text: str) -> Tile:
    """A tile from its notation."""
    return parse_tile(text)


def tiles(texts: Iterable[str]) -> list[Tile]:
    """Tiles from their notations."""
    return [parse_tile(x) for x in texts]


def names(ts: Iterable[Tile]) -> set[str]:
    """The canonical notations of some tiles, as a set."""
    return {str(x) for x in ts}


def legal(state: State) -> set[str]:
    """The actor's legal actions as a set of canonical strings (checked free of duplicates)."""
    acts = [str(a) for a in state.legal_actions()]
    assert len(acts) == len(set(acts)), f"duplicate legal actions: {acts}"
    return set(acts)


def play(state: State, *moves: str) -> State:
    """Apply moves given in notation, one after another."""
    for m in moves:
        state = apply(state, m)
    return state


def step(state: State, move: str) -> tuple[State, tuple[Event, ...]]:
    """Apply one move given in notation and return the new state and its events."""
    return state.step(parse_action(move))


def of_type(events: Iterable[Event], kind: type) -> list[Event]:
    """The events of one type, in order."""
    return [e for e in events if type(e) is kind]


def end_values(state: State) -> list[int]:
    """The values of the layout's open ends, sorted."""
    return sorted(e.value for e in state.layout.ends)


def ends_on(state: State, tile: str) -> list[int]:
    """The values of the open ends offered by layout tile ``tile``."""
    x = t(tile)
    return sorted(e.value for e in state.layout.ends if e.at is x)


# --------------------------------------------------------------------------- real deals

STARTER13_HANDS = [
    ["13-13", "15-15", "13-1", "13-2", "7-5", "11-9", "11-8", "10-9", "12-8"],
    ["13-4", "13-6", "5-5", "8-4", "12-10", "11-10", "12-9", "14-0", "15-3"],
    ["13-5", "13-7", "12-12", "6-4", "14-3", "15-0", "10-8", "11-3", "9-3"],
]
"""A 3-player deal (scenario 18, the 13-13 starter): P0 holds 15-15 (so has the first option)
and 13-13."""


def real_deal(
    players: int,
    hands: Sequence[Sequence[str]],
    boneyard_front: Sequence[str] = (),
    *,
    options: Mapping[str, Any] | None = None,
    pad: bool = True,
    avoid: Iterable[int] = (),
) -> State:
    """A real hand from an explicit deal.

    ``hands`` may be short of 9 tiles when ``pad`` is true: each is then filled up with the
    lowest-ranked non-doubles (pip total, then higher half) that are not used elsewhere and
    show none of the values in ``avoid`` (so the padding never holds the highest tile nor a
    double). The boneyard is ``boneyard_front`` followed by every other tile of the set in index
    order.
    """
    if len(hands) != players:
        raise ValueError(f"{len(hands)} hands for {players} players")
    hand_tiles = [tiles(h) for h in hands]
    front = tiles(boneyard_front)
    used = [x for h in hand_tiles for x in h] + front
    if len(set(used)) != len(used):
        raise ValueError("a tile is dealt twice")
    taken = set(used)
    banned = set(avoid)
    fillers = sorted(
        (
            x
            for x in FULL_SET
            if not x.is_double and x not in taken and x.hi not in banned and x.lo not in banned
        ),
        key=lambda x: x.rank_key(),
    )
    fill = iter(fillers)
    full_hands = []
    for h in hand_tiles:
        h = list(h)
        if len(h) > HAND_SIZE:
            raise ValueError(f"a hand of {len(h)} tiles")
        while pad and len(h) < HAND_SIZE:
            x = next(fill)
            taken.add(x)
            h.append(x)
        full_hands.append(h)
    rest = [x for x in FULL_SET if x not in taken]
    return GAME.new(players, options=dict(options or {}), deal=(full_hands, front + rest))


# --------------------------------------------------------------------------- fixtures
def _chain(starter: Tile, arm: Sequence[str]) -> tuple[list[tuple[int, int, int]], int, int]:
    """Placements ``(tile, parent, matched)`` of one arm, and the arm's open end (anchor, value)."""
    recs: list[tuple[int, int, int]] = []
    anchor, value = starter, starter.hi
    for text in arm:
        x = t(text)
        if x.is_double:
            if x.hi != value and value != 13:
                raise ValueError(f"fixture: {x} cannot go on an open {value}")
            opened = x.hi
        elif x.has(value):
            opened = x.other(value)
        else:
            raise ValueError(f"fixture: {x} cannot go on an open {value}")
        recs.append((x.index, anchor.index, value))
        anchor, value = x, opened
    return recs, anchor.index, value


def position(
    players: int,
    hands: Sequence[Sequence[str]],
    boneyard: Sequence[str] = (),
    *,
    starter: str = "9-9",
    arms: Sequence[Sequence[str]] = (),
    setter: int = 0,
    actor: int = 0,
    direction: int = 1,
    spell: tuple[Any, ...] | None = None,
    pending: int = 0,
    drawn: bool = False,
    extra: bool = False,
    idle: int = 0,
    first_player: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> State:
    """A Super Dominoes position in the play phase, built directly.

    * ``hands``: one list of tiles per seat (any size, even empty).
    * ``boneyard``: the boneyard in drawing order (front first).
    * ``starter``: the starter double; ``setter`` the seat that set it.
    * ``arms``: up to six chains of tiles, each from the starter outwards; every tile is
      attached by its half matching the open value before it (a double goes on its own number
      or on a 13). Arms not given are empty (they offer the starter's value on the starter).
    * ``spell``: ``None``, ``("end", anchor_tile, caster)`` or ``("starter", caster)``.
    * ``pending``: pending skips; ``drawn``: the actor has drawn this turn; ``extra``: the
      actor is in an extra turn (14); ``idle``: consecutive idle turns so far.

    Tiles not placed anywhere are simply out of play; no tile may be in two places.
    """
    if len(hands) != players:
        raise ValueError(f"fixture: {len(hands)} hands for {players} players")
    if len(arms) > ARMS:
        raise ValueError("fixture: at most six arms")
    if direction not in (1, -1):
        raise ValueError("fixture: direction is +1 or -1")
    st = t(starter)
    if not st.is_double:
        raise ValueError("fixture: the starter is a double")

    hand_tiles = [tiles(h) for h in hands]
    bone_tiles = tiles(boneyard)

    placed: Any = (None, st.index, -1, -1, setter)
    ends: list[tuple[int, int]] = []
    layout_tiles = [st]
    for arm in arms:
        recs, anchor, value = _chain(st, arm)
        for tile_idx, parent, matched in recs:
            placed = (placed, tile_idx, parent, matched, setter)
            layout_tiles.append(FULL_SET[tile_idx])
        ends.append((anchor, value))
    ends.extend([(st.index, st.hi)] * (ARMS - len(arms)))

    everywhere = [x for h in hand_tiles for x in h] + bone_tiles + layout_tiles
    seen: set[Tile] = set()
    for x in everywhere:
        if x in seen:
            raise ValueError(f"fixture: {x} is in two places")
        seen.add(x)

    spell_value: tuple[int, int, int] | None = None
    if spell is not None:
        kind = SPELL_KINDS[spell[0]]
        if kind == SPELL_KINDS["end"]:
            _, anchor_text, caster = spell
            anchor_tile = t(anchor_text)
            if not any(u == anchor_tile.index for u, _ in ends):
                raise ValueError(f"fixture: no open end on {anchor_tile} for the spell")
            spell_value = (kind, anchor_tile.index, caster)
        else:
            _, caster = spell
            spell_value = (kind, st.index, caster)

    # Any valid full deal will do; the fields are overwritten below.
    base = [list(FULL_SET[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i in range(players)]
    state = GAME.new(
        players,
        options=dict(options or {}),
        deal=(base, list(FULL_SET[players * HAND_SIZE :])),
    )
    fields: dict[str, Any] = {
        "hands": tuple(mask_of(h) for h in hand_tiles),
        "bone": tuple(x.index for x in bone_tiles),
        "bpos": 0,
        "phase": PLAY_PHASE,
        "asked": 0,
        "opening_double": -1,
        "starter": st.index,
        "setter": setter,
        "ends": tuple(ends),
        "placed": placed,
        "direction": direction,
        "spell": spell_value,
        "pending": pending,
        "drawn": drawn,
        "extra": extra,
        "idle": idle,
        "actor": actor,
        "first_player": setter if first_player is None else first_player,
        "result": None,
        "_legal": None,
    }
    for name, value in fields.items():
        object.__setattr__(state, name if name.startswith("_") else "_" + name, value)
    return state
