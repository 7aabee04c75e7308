"""Property tests: random deals, option sets and player counts, played with random legal actions.

Specs: the games' pages in docs/games/ and docs/rules.md; docs/records.md, "Notation" and
"Decisions and forced moves".

Every game named in :data:`GAMES` is covered. Options are drawn from each game's own option specs
(``Game.option_specs()``), so a new option is picked up automatically; to cover a new game, add
its name to :data:`GAMES`.

The properties:

1. tiles are conserved: hands + boneyard + layout = the whole set, each tile exactly once;
2. every legal action applies and yields a valid state, and states are immutable;
3. every hand ends within a generous number of steps;
4. a view never exposes another seat's hand or the boneyard, and depends only on public
   information (plus the viewer's own tiles);
5. a record written by ``record_of`` reads back to the same position (and the fast
   ``State.playout`` path agrees with step-by-step play);
6. tiles and actions round-trip through their notation, and formatting is canonical.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from bonepile.actions import Action, Attach, Discard, Draw, Lead, Pass, Place, Stop, parse_action
from bonepile.errors import DealError, IllegalActionError, InvalidActionError, OptionError
from bonepile.events import Drew
from bonepile.games import Game, all_games, get_game
from bonepile.games.double_double import sets_in_play
from bonepile.options import OptionSpec
from bonepile.record import dump_record, read_record, record_of
from bonepile.state import State
from bonepile.tiles import TILES, Tile, parse_tile, tile_multiset
from bonepile.view import view
from playout_checks import check_same_end, step_by_step

pytestmark = pytest.mark.engine

GAMES: tuple[str, ...] = ("super_dominoes", "block", "draw", "doubles", "double_double")
"""The games these properties cover. Add a new game's name here."""

INT_SPAN = 6
"""Integer options are drawn from a small range: minimum .. max(minimum, default) + INT_SPAN."""


# ------------------------------------------------------------------------------ strategies
def option_values(spec: OptionSpec) -> st.SearchStrategy[Any]:
    """Valid values of one option, from its spec (integers kept small)."""
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "choice":
        return st.sampled_from(spec.choices)
    if spec.allowed:
        ints: st.SearchStrategy[int] = st.sampled_from(spec.allowed)
    else:
        lo = spec.minimum if spec.minimum is not None else 0
        if spec.kind == "int_map":
            base = max([lo, *spec.default.values()])
        else:
            base = spec.default if isinstance(spec.default, int) else lo
        hi = max(lo, base) + INT_SPAN
        if spec.maximum is not None:
            hi = min(hi, spec.maximum)
        ints = st.integers(lo, hi)
    if spec.kind == "int":
        return ints
    if spec.kind == "optional_int":
        return st.none() | ints
    if spec.kind == "int_map":
        return st.fixed_dictionaries({}, optional={k: ints for k in spec.keys})
    raise AssertionError(f"unknown option kind {spec.kind!r} of {spec.name}")


def _players_ok(game: Game, players: int, opts: Any) -> bool:
    try:
        game.check_players(players, opts)
    except OptionError:
        return False
    return True


@dataclass(frozen=True)
class Setup:
    """One random game: name, options (a partial mapping), player count and deal seed."""

    game: str
    options: dict[str, Any]
    players: int
    seed: int

    def new(self) -> State:
        return get_game(self.game).new(self.players, options=self.options, seed=self.seed)

    def new_from_deal(self, hands: list[list[Tile]], boneyard: list[Tile]) -> State:
        g = get_game(self.game)
        return g.new(self.players, options=self.options, deal=(hands, boneyard))


@st.composite
def setups(draw: st.DrawFn, games: tuple[str, ...] = GAMES) -> Setup:
    name = draw(st.sampled_from(games))
    game = get_game(name)
    options = draw(
        st.fixed_dictionaries({}, optional={s.name: option_values(s) for s in game.option_specs()})
    )
    opts = game.make_options(options)
    lo, hi = game.player_range(opts)
    valid = [n for n in range(lo, hi + 1) if _players_ok(game, n, opts)]
    assume(valid)
    players = draw(st.sampled_from(valid))
    seed = draw(st.integers(0, 2**32 - 1))
    return Setup(name, options, players, seed)


policy_seeds = st.integers(0, 2**32 - 1)


# ------------------------------------------------------------------------------ helpers
def full_set(state: State) -> Counter[Tile]:
    """Every tile of the hand's set, counted (from the initial deal)."""
    root = state.initial
    return tiles_in_play(root)


def tiles_in_play(state: State) -> Counter[Tile]:
    """Hands, boneyard, layout and (Double Double Dominoes) the pit."""
    tiles: list[Tile] = []
    for seat in range(state.players):
        tiles.extend(state.hand(seat))
    tiles.extend(state.boneyard)
    tiles.extend(state.layout.tiles())
    tiles.extend(getattr(state, "pit_tiles", ()))
    return Counter(tiles)


def copies(state: State) -> int:
    """How many copies of the set the game uses (several only in Double Double Dominoes)."""
    if state.game.name == "double_double":
        return sets_in_play(state.options, state.players)
    return 1


def placed_tile(action: Action) -> Tile | None:
    """The tile an action puts on the table."""
    if isinstance(action, Lead | Attach | Place):
        return action.tile
    return None


def step_bound(state: State) -> int:
    """A generous bound on the number of actions in one hand.

    Each tile is placed at most once and drawn at most once; between two such events every
    seat can pass at most a few times (opening passes, a pass after a draw, idle passes).
    """
    total = sum(full_set(state).values())
    return (2 * total + 2) * (state.players + 2)


def playout(state: State, rng: random.Random) -> Iterator[State]:
    """Yield ``state`` and every state after it, picking random legal actions, to the end."""
    bound = step_bound(state)
    steps = 0
    yield state
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"no legal action while the hand is running: {state!r}"
        state = state.apply(rng.choice(legal))
        steps += 1
        assert steps <= bound, f"hand still running after {steps} actions: {state!r}"
        yield state


def play_to_end(setup: Setup, policy: int) -> list[State]:
    return list(playout(setup.new(), random.Random(policy)))


def action_tiles(action: Action) -> set[Tile]:
    if isinstance(action, Lead):
        return {action.tile}
    if isinstance(action, Attach):
        return {action.tile, action.at}
    return set()


@functools.lru_cache(maxsize=100_000)
def _string_tiles(text: str) -> frozenset[Tile]:
    try:
        return frozenset(action_tiles(parse_action(text)))
    except InvalidActionError:
        return frozenset()


def json_tiles(obj: Any) -> set[Tile]:
    """Every tile named anywhere in a JSON structure (strings that parse as tiles or actions).

    Tiles are compared as parsed values, never as substrings ("1-0" is not inside "11-0"):
    each JSON string (key or value) is parsed whole.
    """
    found: set[Tile] = set()
    for text in _JSON_STRING.findall(json.dumps(obj)):
        found |= _string_tiles(text)
    return found


_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def hidden_from(state: State, seat: int | None) -> set[Tile]:
    """The tiles ``seat`` must not see: other seats' hands and the boneyard."""
    hidden = set(state.boneyard)
    for s in range(state.players):
        if s != seat:
            hidden.update(state.hand(s))
    return hidden


def seats_and_spectator(state: State) -> list[int | None]:
    return [*range(state.players), None]


# ------------------------------------------------------------------------------ invariants
def check_conserved(state: State, expected: Counter[Tile]) -> None:
    now = tiles_in_play(state)
    assert now == expected, (
        f"tiles not conserved after {[str(a) for a in state.moves]}: "
        f"missing {sorted(map(str, expected - now))}, extra {sorted(map(str, now - expected))}"
    )


def check_valid(state: State) -> None:
    """A decision point is well formed (docs/records.md, "Decisions and forced moves")."""
    legal = state.legal_actions()
    if state.is_over:
        assert state.result is not None
        assert state.actor is None
        assert legal == ()
        return
    assert state.result is None
    assert state.actor in range(state.players), state.actor
    assert legal, "a running hand must offer its actor a non-empty list of actions"
    assert len(set(legal)) == len(legal), f"duplicate legal actions: {[str(a) for a in legal]}"
    assert all(isinstance(a, Action) for a in legal)
    if any(isinstance(a, Draw | Pass) for a in legal):
        # Forced actions come alone: play is compulsory (docs/records.md, "Decisions and forced
        # moves").
        assert len(legal) == 1, f"draw/pass offered beside other actions: {legal}"
    hand = set(state.hand(state.actor))
    on_table = set(state.layout.tiles())
    if any(isinstance(a, Discard) for a in legal):
        # Double Double Dominoes: a discard only when no tile can be placed, one per tile held
        assert all(isinstance(a, Discard) for a in legal), legal
        assert {a.tile for a in legal if isinstance(a, Discard)} == hand
    if any(isinstance(a, Stop) for a in legal):
        assert legal[0] == Stop() and len(legal) > 1, "stop comes with chain placements"
        assert all(isinstance(a, Place) for a in legal[1:])
    for a in legal:
        if isinstance(a, Place):
            assert a.tile in hand, f"{a}: not in the actor's hand"
        if isinstance(a, Lead):
            assert a.tile in hand, f"{a}: not in the actor's hand"
            assert not on_table, f"{a}: a lead when the layout is not empty"
        elif isinstance(a, Attach):
            assert a.tile in hand, f"{a}: not in the actor's hand"
            assert a.at in on_table, f"{a}: {a.at} is not on the table"
        elif isinstance(a, Draw):
            assert state.boneyard_size > 0, "draw offered with an empty boneyard"


def check_transition(before: State, action: Action, after: State) -> None:
    """What any action may change: hands, the boneyard front, the layout by one tile."""
    actor = before.actor
    assert actor is not None
    assert after.moves == (*before.moves, action)
    assert after.initial is before.initial
    k = before.boneyard_size - after.boneyard_size
    assert k >= 0, "the boneyard grew"
    assert after.boneyard == before.boneyard[k:], "tiles must be drawn from the front"
    drawn = Counter(before.boneyard[:k])
    tile = placed_tile(action)
    spent = Counter([tile] if tile is not None else [])
    if isinstance(action, Discard):
        assert action.tile is not None
        spent = Counter([action.tile])
        pit_before = Counter(getattr(before, "pit_tiles", ()))
        assert Counter(getattr(after, "pit_tiles", ())) == pit_before + spent
    # every seat's hand changes only by what it drew, and the actor's by the tile it spent
    for s in range(before.players):
        old, new = Counter(before.hand(s)), Counter(after.hand(s))
        if s != actor:
            assert old <= new, f"{action}: P{s} lost {old - new}"
    old_all = sum((Counter(before.hand(s)) for s in range(before.players)), Counter())
    new_all = sum((Counter(after.hand(s)) for s in range(before.players)), Counter())
    assert old_all + drawn == new_all + spent, (
        f"{action}: hands went from {old_all} to {new_all}, drawing {drawn}, spending {spent}"
    )
    if tile is not None:
        assert after.layout.tiles() == (*before.layout.tiles(), tile)
    else:
        assert after.layout.tiles() == before.layout.tiles()
    if isinstance(action, Pass):
        assert k == 0, "a pass drew tiles"
    if isinstance(action, Draw):
        assert k >= 1, "a draw drew nothing"
        assert set(drawn) <= set(after.hand(actor)) | set(after.layout.tiles())


def snapshot(state: State) -> tuple[Any, ...]:
    return (
        state.legal_actions(),
        tuple(state.hand(s) for s in range(state.players)),
        state.boneyard,
        state.layout,
        state.actor,
        state.result,
        state.moves,
        state.key(),
        json.dumps(state.summary(), sort_keys=True),
    )


# ------------------------------------------------------------------------------ 1 and 3
@settings(max_examples=60, deadline=None)
@given(setups(), policy_seeds)
def test_tiles_are_conserved_and_hands_end(setup: Setup, policy: int) -> None:
    start = setup.new()
    expected = full_set(start)
    game = get_game(setup.game)
    sets = copies(start)
    whole = Counter(tile_multiset(game.max_pip(start.options), sets))
    assert expected == whole, "the deal is not the game's sets"
    assert max(expected.values()) == sets
    dealt_hands, _ = start.deal
    sizes = {len(h) for h in dealt_hands}
    assert sizes == {game.hand_size(start.players, start.options)}
    states = []
    for state in playout(start, random.Random(policy)):  # playout bounds the hand's length
        check_conserved(state, expected)
        states.append(state)
    final = states[-1]
    assert final.is_over and final.result is not None
    result = final.result
    assert len(result.points) == final.players
    assert list(result.winners) == sorted(set(result.winners))
    assert all(w in range(final.players) for w in result.winners)
    # only winners score, and every winner scores the same (a team's points, a shared tie)
    assert all(result.points[s] == 0 for s in range(final.players) if s not in result.winners)
    assert len({result.points[w] for w in result.winners}) <= 1
    if result.reason == "domino":
        # the hand ended on a placement that emptied the mover's hand
        last = final.moves[-1]
        mover = states[-2].actor if len(states) > 1 else None
        assert isinstance(last, Lead | Attach), f"a domino after {last}"
        assert mover in result.winners and final.hand(mover) == ()


# ------------------------------------------------------------------------------ 2
@settings(max_examples=25, deadline=None)
@given(setups(), policy_seeds)
def test_every_legal_action_applies_and_states_are_immutable(setup: Setup, policy: int) -> None:
    start = setup.new()
    expected = full_set(start)
    for state in playout(start, random.Random(policy)):
        check_valid(state)
        if state.is_over:
            with pytest.raises(IllegalActionError):
                state.apply(Pass())
            assert state.legal_actions() == ()
            continue
        before = snapshot(state)
        children = {}
        legal = state.legal_actions()
        if len(legal) > 12:  # a board game offers dozens of placements: check a sample
            legal = tuple(random.Random(policy + len(state.moves)).sample(legal, 12))
        for a in legal:
            child = state.apply(a)
            check_valid(child)
            check_conserved(child, expected)
            check_transition(state, a, child)
            children[a] = child
        # the old state is untouched: same legal actions, hands, boneyard, layout, summary
        assert snapshot(state) == before
        for a, child in children.items():
            again = state.apply(a)
            assert again == child and again.summary() == child.summary()
            stepped, events = state.step(a)
            assert stepped == child and stepped.summary() == child.summary()
            assert isinstance(events, tuple)
        assert snapshot(state) == before
        # an action that is not legal here is refused, and refusing changes nothing
        illegal = next(
            (
                x
                for x in (Pass(), Draw(), *(Lead(t) for t in TILES[:3]))
                if x not in state.legal_actions()
            ),
            None,
        )
        if illegal is not None:
            with pytest.raises(IllegalActionError):
                state.apply(illegal)
            assert snapshot(state) == before


# ------------------------------------------------------------------------------ 4
def check_view_json(state: State, seat: int | None, data: dict[str, Any]) -> None:
    assert data["seat"] == seat
    if seat is None:
        assert data["hand"] == [], "a spectator sees no hand"
    else:
        assert [parse_tile(t) for t in data["hand"]] == list(state.hand(seat))
    assert data["hand_sizes"] == [state.hand_size(s) for s in range(state.players)]
    assert data["boneyard"] == state.boneyard_size
    assert isinstance(data["boneyard"], int), "the view must give the boneyard's size only"
    if seat is None or seat != state.actor:
        assert data["legal"] == [], "another seat's legal actions reveal its hand"
    if not state.is_over:
        assert data["revealed"] is None
        leaked = json_tiles(data) & hidden_from(state, seat)
        assert not leaked, (
            f"view of {'spectator' if seat is None else f'P{seat}'} exposes hidden tiles "
            f"{sorted(map(str, leaked))} after {[str(a) for a in state.moves]}"
        )


@settings(max_examples=25, deadline=None)
@given(setups(tuple(g for g in GAMES if g != "double_double")), policy_seeds, st.integers(10, 25))
def test_view_never_exposes_hidden_tiles(setup: Setup, policy: int, every: int) -> None:
    # Tiles are named in views as values. With two sets of tiles (Double Double Dominoes) a
    # tile on the board may have a hidden twin, so that game is checked by
    # test_view_depends_only_on_public_information and its own redaction tests instead.
    states = play_to_end(setup, policy)
    final = states[-1]
    running = [s for s in states if not s.is_over]
    # Cheap views (no history) at every decision, for every seat and a spectator.
    for state in running:
        for seat in seats_and_spectator(state):
            check_view_json(state, seat, view(state, seat).to_json())
    # Full views (with history) at every ``every``-th decision and the last one.
    sample = running[::every] + running[-1:]
    for state in sample:
        for seat in seats_and_spectator(state):
            v = view(state, seat)
            data = v.to_json()
            check_view_json(state, seat, data)
            assert len(data["history"]) == len(state.moves)
            if seat is None:
                assert v.hand == ()
    # The history of the final view holds every turn; turn j was visible at every decision
    # k >= j, so none of its tiles may be hidden at any of those decisions.
    for seat in seats_and_spectator(final):
        history = view(final, seat).to_json()["history"]
        assert len(history) == len(final.moves)
        seen: set[Tile] = set()
        for k, state in enumerate(running):
            if k > 0:
                seen |= json_tiles(history[k - 1])
            leaked = seen & hidden_from(state, seat)
            assert not leaked, (
                f"history seen by {'spectator' if seat is None else f'P{seat}'} exposes "
                f"{sorted(map(str, leaked))} at move {k}: {[str(a) for a in state.moves]}"
            )


def _viewer_draws(events: tuple[Any, ...], seat: int) -> list[tuple[Tile, ...]]:
    return [e.tiles for e in events if isinstance(e, Drew) and e.seat == seat]


@settings(max_examples=40, deadline=None)
@given(setups(), policy_seeds, st.data())
def test_view_depends_only_on_public_information(
    setup: Setup, policy: int, data: st.DataObject
) -> None:
    """Two deals that differ only in what ``seat`` cannot see give ``seat`` the same views,
    for as long as the public history (actors, actions, hand and boneyard sizes) is the same."""
    base = setup.new()
    n = base.players
    seat = data.draw(st.integers(0, n - 1), label="seat")
    dealt, boneyard = base.deal
    hands = [list(h) for h in dealt]
    bone = list(boneyard)
    # The pool of tiles hidden from ``seat``: the other hands, then the boneyard, by position.
    slots = [(s, i) for s in range(n) if s != seat for i in range(len(hands[s]))]
    slots += [(-1, i) for i in range(len(bone))]
    assume(len(slots) >= 2)
    swaps = data.draw(
        st.lists(
            st.tuples(st.integers(0, len(slots) - 1), st.integers(0, len(slots) - 1)),
            min_size=1,
            max_size=6,
        ),
        label="swaps",
    )
    alt_hands = [list(h) for h in hands]
    alt_bone = list(bone)

    def get(slot: tuple[int, int]) -> Tile:
        s, i = slot
        return alt_bone[i] if s < 0 else alt_hands[s][i]

    def put(slot: tuple[int, int], t: Tile) -> None:
        s, i = slot
        if s < 0:
            alt_bone[i] = t
        else:
            alt_hands[s][i] = t

    for x, y in swaps:
        a, b = get(slots[x]), get(slots[y])
        put(slots[x], b)
        put(slots[y], a)
    assume((alt_hands, alt_bone) != (hands, bone))
    s1 = setup.new_from_deal(hands, bone)
    try:
        s2 = setup.new_from_deal(alt_hands, alt_bone)
    except DealError:  # e.g. Doubles: the swaps left no double in any hand (a redeal)
        assume(False)
        raise
    rng = random.Random(policy)
    compared = 0
    for _ in range(60):
        public_same = (
            not s1.is_over
            and not s2.is_over
            and s1.actor == s2.actor
            and s1.boneyard_size == s2.boneyard_size
            and all(s1.hand_size(s) == s2.hand_size(s) for s in range(n))
            and s1.hand(seat) == s2.hand(seat)
        )
        if not public_same:
            break
        v1 = view(s1, seat).to_json()
        v2 = view(s2, seat).to_json()
        assert v1 == v2, (
            f"P{seat}'s view differs between two deals with the same public history "
            f"{[str(a) for a in s1.moves]}"
        )
        compared += 1
        action = rng.choice(s1.legal_actions())
        if action not in s2.legal_actions():
            break
        s1, e1 = s1.step(action)
        s2, e2 = s2.step(action)
        if _viewer_draws(e1, seat) != _viewer_draws(e2, seat):
            break  # the viewer drew different tiles: it may tell the two apart
    event(f"positions compared: {min(compared, 10)}{'+' if compared >= 10 else ''}")


@settings(max_examples=25, deadline=None)
@given(setups(), policy_seeds)
def test_spectator_sees_no_hand(setup: Setup, policy: int) -> None:
    for state in play_to_end(setup, policy)[::5]:
        v = view(state, None)
        assert v.hand == ()
        assert v.to_json()["hand"] == []
        assert v.legal == ()
        if not state.is_over and setup.game != "double_double":  # see the view test above
            assert not json_tiles(v.to_json()) & hidden_from(state, None)


# ------------------------------------------------------------------------------ 5
@settings(max_examples=40, deadline=None)
@given(setups(), policy_seeds, st.booleans(), st.data())
def test_record_round_trip(setup: Setup, policy: int, explicit: bool, data: st.DataObject) -> None:
    start = setup.new()
    if explicit:
        dealt, boneyard = start.deal
        start = setup.new_from_deal([list(h) for h in dealt], list(boneyard))
    states = list(playout(start, random.Random(policy)))
    state = states[data.draw(st.integers(0, len(states) - 1), label="stop at")]
    rec = record_of(state)
    assert ("deal" in rec) == explicit and ("seed" in rec) != explicit
    assert rec["moves"] == [str(a) for a in state.moves]
    assert ("result" in rec) == state.is_over
    for text in (json.dumps(rec), dump_record(state)):
        back = read_record(text)
        assert back == state
        assert back.summary() == state.summary()
        assert back.moves == state.moves
        assert record_of(back) == rec
        for seat in seats_and_spectator(state):
            assert view(back, seat).to_json() == view(state, seat).to_json()


# ------------------------------------------------------------------------------ fast path
def partway(setup: Setup, policy: int, prefix: int) -> State:
    """The hand of ``setup`` after up to ``prefix`` random actions."""
    rng = random.Random(policy)
    state = setup.new()
    for _ in range(prefix):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@settings(max_examples=40, deadline=None)
@given(setups(), policy_seeds, st.integers(0, 30))
def test_playout_fast_path_equals_step_by_step_play(setup: Setup, policy: int, prefix: int) -> None:
    """``State.playout(rng)`` makes the same choices and reaches the same final state as
    applying ``legal[int(rng.random() * len(legal))]`` until the hand is over."""
    state = partway(setup, policy, prefix)
    before = snapshot(state)
    fast = state.playout(random.Random(policy + 1))
    slow = step_by_step(state, random.Random(policy + 1))
    assert snapshot(state) == before
    check_same_end(state, fast, slow)


@settings(max_examples=40, deadline=None)
@given(setups(), policy_seeds, st.integers(0, 30))
def test_playout_with_a_policy_equals_applying_it(setup: Setup, policy: int, prefix: int) -> None:
    """``State.playout_with(policy, rng)`` reaches the state that applying the policy's actions
    one by one reaches, and hands the policy the same positions: here the game's own rollout
    policy (or a random one), checked against the position's history and view each turn."""
    state = partway(setup, policy, prefix)
    rollout = state.game.hints.rollout

    def choose(s: State, r: random.Random) -> Any:
        seen.append((s.ply, s.moves, s.actor, view(s, s.actor).to_json()))
        if rollout is not None and policy % 2:
            return rollout(s, r)
        legal = s.legal_actions()
        return legal[int(r.random() * len(legal))]

    before = snapshot(state)
    seen: list[tuple[Any, ...]] = []
    fast = state.playout_with(choose, random.Random(policy + 1))
    fast_seen, seen = seen, []
    slow = state
    r = random.Random(policy + 1)
    while not slow.is_over:
        slow = slow.apply(choose(slow, r))
    assert snapshot(state) == before
    assert fast_seen == seen
    check_same_end(state, fast, slow)


def test_playout_with_an_illegal_choice_raises_and_changes_nothing() -> None:
    state = get_game("block").new(2, seed=3)
    before = snapshot(state)
    other = get_game("block").new(2, seed=4)
    wrong = next(a for a in other.legal_actions() if a not in state.legal_actions())
    with pytest.raises(IllegalActionError, match="not legal"):
        state.playout_with(lambda s, r: wrong, random.Random(0))
    assert snapshot(state) == before


# ------------------------------------------------------------------------------ 6
CANONICAL_TILE = re.compile(r"^(\d{1,2})-(\d{1,2})$")
CANONICAL_ACTION = re.compile(
    r"^(\d{1,2}-\d{1,2}(@\d{1,2}-\d{1,2})?|draw|pass|stop|discard \d{1,2}-\d{1,2}"
    r"|\d-\d@\d{1,2}[A-Z]\d{1,2}[A-Z])$"
)


@st.composite
def spellings_of(draw: st.DrawFn, tile: Tile) -> str:
    """One accepted spelling of ``tile``: either order, ``-``/``|``/``:``, optional brackets
    and spaces (docs/records.md, "Notation")."""
    a, b = draw(st.sampled_from([(tile.hi, tile.lo), (tile.lo, tile.hi)]))
    sep = draw(st.sampled_from("-|:"))
    sp = st.sampled_from(["", " "])
    inner = f"{draw(sp)}{a}{draw(sp)}{sep}{draw(sp)}{b}{draw(sp)}"
    text = f"[{inner}]" if draw(st.booleans()) else inner
    return f"{draw(sp)}{text}{draw(sp)}"


tile_spellings = st.sampled_from(TILES).flatmap(lambda t: spellings_of(t).map(lambda s: (t, s)))


def test_every_tile_round_trips() -> None:
    for tile in TILES:
        text = str(tile)
        m = CANONICAL_TILE.match(text)
        assert m and int(m.group(1)) == tile.hi >= tile.lo == int(m.group(2))
        assert parse_tile(text) is tile
        for spelling in (
            f"{tile.lo}-{tile.hi}",
            f"[{tile.hi}|{tile.lo}]",
            f"[{tile.lo}|{tile.hi}]",
            f"{tile.hi}:{tile.lo}",
            f"{tile.lo}:{tile.hi}",
        ):
            assert parse_tile(spelling) is tile, spelling
            assert str(parse_tile(spelling)) == text


@settings(max_examples=300, deadline=None)
@given(tile_spellings)
def test_tile_spellings_parse_to_the_tile(case: tuple[Tile, str]) -> None:
    tile, text = case
    parsed = parse_tile(text)
    assert parsed == tile
    assert str(parsed) == f"{tile.hi}-{tile.lo}"  # format(parse(s)) is canonical
    assert parse_tile(str(parsed)) == parsed


@settings(max_examples=25, deadline=None)
@given(setups(), policy_seeds, st.data())
def test_legal_actions_round_trip(setup: Setup, policy: int, data: st.DataObject) -> None:
    seen: set[Action] = set()
    for state in play_to_end(setup, policy):
        seen.update(state.legal_actions())
    for a in seen:
        text = str(a)
        assert CANONICAL_ACTION.match(text), text
        assert parse_action(text) == a
        assert str(parse_action(text)) == text
        for t in action_tiles(a):
            assert CANONICAL_TILE.match(str(t)) and str(t) == f"{t.hi}-{t.lo}"
    # other spellings of the same actions parse to them too, and format canonically
    for a in sorted(seen, key=str)[:20]:
        if isinstance(a, Attach):
            spelled = f"{data.draw(spellings_of(a.tile))}@{data.draw(spellings_of(a.at))}"
        elif isinstance(a, Lead):
            spelled = data.draw(spellings_of(a.tile))
        elif isinstance(a, Place):
            c1 = f"{a.cell1[0] + 1}{chr(65 + a.cell1[1])}"
            c2 = f"{a.cell2[0] + 1}{chr(97 + a.cell2[1])}"
            spelled = data.draw(
                st.sampled_from([f"{a.q}|{a.p} @ {c2}{c1}", f" {a.p}:{a.q}@{c1}{c2}"])
            )
        elif isinstance(a, Discard):
            assert a.tile is not None
            spelled = f"DISCARD {data.draw(spellings_of(a.tile))}"
        else:
            spelled = data.draw(st.sampled_from([str(a).upper(), f" {a} ", str(a).title()]))
        assert parse_action(spelled) == a, spelled
        assert str(parse_action(spelled)) == str(a)


# ------------------------------------------------------------------------------ the game list
def test_covered_games_are_registered() -> None:
    registered = {g.name for g in all_games()}
    assert set(GAMES) <= registered
    for name in GAMES:
        assert get_game(name).name == name
