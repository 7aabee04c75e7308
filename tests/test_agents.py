"""Agents: hidden information, determinization, reproducibility, legality and external bots.

Specs: docs/bots.md and the agents issue: agents never receive hidden information, the
sampler's deals are always consistent with the view, a fixed seed gives a fixed choice, every
agent always returns a legal action for every game and option set, and the external protocol
round-trips and survives a crashing or hanging bot (it forfeits with a clear message).

The misbehaving bots live in ``tests/bots/``.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import math
import random
import re
import shlex
import subprocess
import sys
import time
import types
from collections import Counter, deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

import bonepile
from bonepile.actions import Action, Attach, Discard, Lead, Place
from bonepile.agents import RandomAgent, play_hand
from bonepile.agents.external import PROTOCOL, AgentForfeit, ExternalAgent
from bonepile.agents.greedy import GreedyAgent
from bonepile.agents.ismcts import LEVELS, ISMCTSAgent, most_visited, resample
from bonepile.agents.registry import make_agent
from bonepile.agents.sampler import Sampler, determinize
from bonepile.errors import OptionError
from bonepile.events import Discarded, Drew
from bonepile.games import get_game
from bonepile.grid import Board, BoardLayout, load_board
from bonepile.heuristics import line_loglik, move_values
from bonepile.state import State
from bonepile.tiles import Tile
from bonepile.view import View, view

pytestmark = pytest.mark.engine

HERE = Path(__file__).resolve().parent
BOTS = HERE / "bots"
HEAVIEST = HERE.parent / "examples" / "bots" / "heaviest.py"
PY = sys.executable

GAMES = ("block", "draw", "doubles", "super_dominoes", "double_double")

OPTION_SETS: list[tuple[str, int, dict[str, Any]]] = [
    ("block", 2, {}),
    ("block", 4, {"teams": True}),
    ("block", 3, {"spinner": True, "lead": "seat0_any", "blocked_tie": "lightest_tile"}),
    ("draw", 2, {}),
    ("draw", 3, {"draw_mode": "one", "reserve": 2}),
    ("draw", 4, {"teams": True, "spinner": True}),
    ("doubles", 2, {}),
    ("doubles", 3, {"spinner_sides": 2, "draw_when_unable": "until_playable"}),
    ("doubles", 4, {"round_scoring": "all_hands_total", "count_boneyard": True}),
    ("super_dominoes", 4, {}),
    (
        "super_dominoes",
        3,
        {"effect_trigger": "tile_contains", "doubles_branch": True, "draw_when_unable": 1},
    ),
    (
        "super_dominoes",
        2,
        {
            "first_player_rule": "random",
            "skip_trigger": "blank",
            "extra_turn_mode": "play_only_if_able",
            "starter13_spell": "single_play",
        },
    ),
    ("super_dominoes", 6, {"skip_stacking": True, "scoring": "simple"}),
    ("double_double", 2, {}),
    ("double_double", 3, {"max_contacts_per_end": 2, "forbid_2x2": False}),
    ("double_double", 4, {"double_multiplier": 3, "bonus_timing": "after_mover_diamond_move"}),
    (
        "double_double",
        2,
        {"first_player_tiebreak": "random", "chain_contact": "tail_on_last_double"},
    ),
]
"""(game, players, options): every game, with its defaults and with unusual option sets."""


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    game, players, options = case
    return f"{game}-{players}p-" + ("-".join(f"{k}={v}" for k, v in options.items()) or "default")


# ------------------------------------------------------------------------------ helpers
def new_hand(game: str, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
    """A seeded hand (Double Double Dominoes on the small board, to keep it short)."""
    extra: dict[str, Any] = {"board": "small"} if game == "double_double" else {}
    return get_game(game).new(players, options=options, seed=seed, **extra)


def random_line(state: State, rng: random.Random) -> list[State]:
    """Every state of the hand played at random from ``state`` (the first and the last too)."""
    states = [state]
    while state.actor is not None:
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def some_points(states: Sequence[State], k: int = 4) -> list[State]:
    """``k`` running positions spread over the hand (the first and the last included)."""
    running = [s for s in states if s.actor is not None]
    idx = sorted({round(i * (len(running) - 1) / (k - 1)) for i in range(k)})
    return [running[i] for i in idx]


def tiles_in_play(state: State) -> Counter[Tile]:
    """Hands, boneyard, table and (Double Double Dominoes) pit: the whole deck, always."""
    out: Counter[Tile] = Counter(state.boneyard)
    for s in range(state.players):
        out.update(state.hand(s))
    out.update(state.layout.tiles())
    out.update(getattr(state, "pit_tiles", ()))
    return out


def deck_of(state: State) -> Counter[Tile]:
    return Counter(state.game.deck(state.players, state.options))


def action_tile(action: Action) -> Tile | None:
    if isinstance(action, Lead | Attach | Place | Discard):
        return action.tile
    return None


def known_to(state: State, seat: int) -> set[Tile]:
    """The tiles ``seat`` may legitimately know the place of: its hand, the table, and the
    tiles it drew, played or discarded itself."""
    known = set(state.hand(seat)) | set(state.layout.tiles())
    for s, action, events in state.replay():
        tile = action_tile(action)
        if s == seat and tile is not None:
            known.add(tile)
        for e in events:
            if isinstance(e, Drew) and e.seat == seat and e.tiles:
                known.update(e.tiles)
    return known


def hidden_from(state: State, seat: int) -> set[Tile]:
    """The tiles ``seat`` cannot know the place of: other seats' hands, the boneyard and the
    pit, less what it knows (in games with duplicate sets, a tile counts as known when the
    seat knows where one copy of it is)."""
    hidden = {t for s in range(state.players) if s != seat for t in state.hand(s)}
    hidden |= set(state.boneyard) | set(getattr(state, "pit_tiles", ()))
    return hidden - known_to(state, seat)


_OPAQUE = (
    types.ModuleType,
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.MethodWrapperType,
    types.WrapperDescriptorType,
    types.MethodDescriptorType,
    types.ClassMethodDescriptorType,
    types.GetSetDescriptorType,
    types.MemberDescriptorType,
    types.CodeType,
    types.FrameType,
)
"""Objects the walk does not go into: code, classes and modules are shared by every object,
and reach everything (the interpreter's state); an agent can only reach data through them
by calling code, which is not what this test is about."""


def reachable(*roots: object, opaque: tuple[type, ...] = ()) -> dict[int, object]:
    """Every object reachable from ``roots`` through references (breadth first), by id; the
    walk does not go into objects of the ``opaque`` types (nor code, classes, modules)."""
    stop = _OPAQUE + opaque
    seen: dict[int, object] = {}
    todo: deque[object] = deque(roots)
    while todo:
        obj = todo.popleft()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if isinstance(obj, stop):
            continue
        todo.extend(gc.get_referents(obj))
    return seen


_TILE_TEXT = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")


def tiles_named_in(data: Any) -> set[Tile]:
    """Every tile written (``H-L``) in the strings of a JSON value."""
    found: set[Tile] = set()
    if isinstance(data, str):
        found.update(Tile(int(a), int(b)) for a, b in _TILE_TEXT.findall(data))
    elif isinstance(data, dict):
        for k, v in data.items():
            found |= tiles_named_in(k) | tiles_named_in(v)
    elif isinstance(data, list | tuple):
        for v in data:
            found |= tiles_named_in(v)
    return found


def legal_view(game: str, players: int, seed: int, min_legal: int = 2) -> tuple[State, View]:
    """A position (played at random from a seeded deal) whose actor has a real choice."""
    rng = random.Random(seed)
    for k in range(50):
        for state in random_line(new_hand(game, players, seed + 1000 * k), rng):
            running = state.actor is not None
            if running and len(state.legal_actions()) >= min_legal and rng.random() < 0.3:
                assert state.actor is not None
                return state, view(state, state.actor)
    raise AssertionError(f"no position with {min_legal} legal actions found in {game}")


# ------------------------------------------------------------------------------ hidden information
@pytest.mark.parametrize("case", OPTION_SETS, ids=case_id)
def test_a_view_reaches_no_hidden_information(case: tuple[str, int, dict[str, Any]]) -> None:
    """Walk every object reachable from a seat's view: no State, no other seat's hand (as
    tiles, as a collection of tiles or as the rules' bit mask), no tile of another hand."""
    game, players, options = case
    for seed in (1, 2):
        states = random_line(new_hand(game, players, seed, options), random.Random(seed))
        for state in [*some_points(states, 5), states[-1]]:
            for seat in range(players):
                v = view(state, seat)
                assert len(v.hand) == state.hand_size(seat)
                check_view_reach(state, seat, v)  # before its history is read
                assert v.history is not None and v.layout.placements is not None
                check_view_reach(state, seat, v)


def check_view_reach(state: State, seat: int, v: View) -> None:
    where = (state.game.name, len(state.moves), seat)
    assert not [o for o in reachable(v).values() if isinstance(o, State)], where
    if state.is_over:
        return  # every hand is shown at the end
    assert v.revealed is None
    # A board's rule tables (Board.memo) hold the placements of every tile of the set and
    # geometry masks, the same for every deal: what is found through the board says nothing
    # about the deal, so the walks below stop at the (shipped, public) board.
    if isinstance(v.layout, BoardLayout):
        assert v.layout.board == load_board(v.layout.board.name)
    objects = list(reachable(v, opaque=(Board,)).values())
    others = [s for s in range(state.players) if s != seat]
    # another hand as a whole: a collection of its tiles, or the rules' bit mask of it (a
    # mask with few or only low bits could equal an unrelated small number: left out)
    hands = {tuple(sorted(state.hand(s), key=lambda t: t.index)) for s in others}
    hands = {h for h in hands if len(h) >= 2} - {tuple(sorted(v.hand, key=lambda t: t.index))}
    masks = {state._hands[s] for s in others}
    masks = {m for m in masks if m.bit_count() >= 3 and m >= 1 << 12}
    for o in objects:
        if isinstance(o, tuple | list | set | frozenset) and 2 <= len(o) <= 40:
            if all(isinstance(t, Tile) for t in o):
                assert tuple(sorted(o, key=lambda t: t.index)) not in hands, where
        elif type(o) is int:
            assert o not in masks, (where, o)
    # any single tile of another hand that the seat cannot know
    seen = {o for o in objects if isinstance(o, Tile)}
    assert set(state.hand(seat)) <= seen  # the walk does go through the view
    hidden = hidden_from(state, seat)
    assert not seen & hidden, (where, sorted(map(str, seen & hidden)))
    # and the JSON an external bot gets names none of them either
    named = tiles_named_in(v.to_json())
    assert not named & hidden, (where, sorted(map(str, named & hidden)))


@pytest.mark.parametrize("game", GAMES)
def test_an_agent_handed_a_view_cannot_reach_the_real_state(game: str) -> None:
    """After an agent has acted on a view, nothing reachable from it (or from the view) is a
    real state of the hand: whatever states a search agent holds are its own samples."""
    players = 3 if game in ("draw", "double_double") else 2
    states = random_line(new_hand(game, players, 5), random.Random(5))
    real = {id(s): s for s in states}  # kept alive, so that no id is reused
    agents = [GreedyAgent(1), RandomAgent(1), ISMCTSAgent(1, iterations=12)]
    for state in some_points(states, 4):
        assert state.actor is not None
        v = view(state, state.actor)
        for agent in agents:
            assert agent.act(v) in v.legal
            found = reachable(agent, v)
            leaked = [o for i, o in found.items() if i in real and o is real[i]]
            assert not leaked, (game, type(agent).__name__)


# ------------------------------------------------------------------------------ the sampler
@pytest.mark.parametrize("case", OPTION_SETS, ids=case_id)
def test_sampled_deals_agree_with_the_view(case: tuple[str, int, dict[str, Any]]) -> None:
    """Every seat (and a spectator), every position of several hands (every other one in
    Double Double Dominoes; several positions of the long hands: Super Dominoes, four
    players or more): the sample gives the seat
    exactly its view (the whole public history replays in it) and holds every tile of the
    deck, as often as the deck has it."""
    game, players, options = case
    long = game == "super_dominoes" or players > 3
    for seed in (1, 2) if long else (1, 2, 3):
        states = random_line(new_hand(game, players, seed, options), random.Random(seed))
        deck = deck_of(states[0])
        assert tiles_in_play(states[0]) == deck  # the accounting itself is right
        step = 2 if game == "double_double" else 1
        running = some_points(states, 6) if long else states[:-1:step]
        for i, state in enumerate(running):
            assert tiles_in_play(state) == deck
            for seat in [*range(players), None]:  # every seat, and a spectator
                v = view(state, seat)
                rng = random.Random(100 * seed + 10 * i + (seat or 0))
                if seat is None:
                    # a spectator knows no hand at all: late in a long Double Double hand
                    # 400 tries are sometimes too few (SamplingError, not a wrong deal)
                    sample = Sampler(v, max_tries=4000).sample(rng)
                else:
                    sample = determinize(v, rng) if seat == 1 else Sampler(v).sample(rng)
                where = (game, seed, len(state.moves), seat)
                assert view(sample, seat).to_json() == v.to_json(), where
                assert tiles_in_play(sample) == deck, where
                assert sample.players == players and sample.options == state.options


@pytest.mark.parametrize("game, players", [("block", 2), ("draw", 2), ("super_dominoes", 4)])
def test_the_sampler_really_samples(game: str, players: int) -> None:
    """At the start of a hand the other hands are unknown: samples differ from each other."""
    state = new_hand(game, players, 8)
    sampler = Sampler(view(state, 0))
    rng = random.Random(1)
    others = {tuple(sampler.sample(rng).hand(1)) for _ in range(8)}
    assert len(others) > 1


def twin_deal(state: State, seat: int = 0) -> State:
    """Another deal of ``state``'s hand that ``seat`` cannot tell from it: two tiles swapped
    between two other seats' hands (with two players, between the other hand and the
    boneyard)."""
    game = state.game
    hands, bone = (list(map(list, state.deal[0])), list(state.deal[1]))
    n = state.players
    extra: dict[str, Any] = {}
    if getattr(state, "board", None) is not None:
        extra["board"] = state.board  # type: ignore[attr-defined]
    if game.first_player_by_lot(state.options):
        extra["first_player"] = state.first_player
    a_side, b_side = (hands[1], hands[2]) if n >= 3 else (hands[1], bone)
    want = view(state, seat).to_json()
    for i, a in enumerate(a_side):
        for j, b in enumerate(b_side):
            if a == b:
                continue
            a_side[i], b_side[j] = b, a
            try:
                twin = game.new(n, options=state.options, deal=(hands, bone), **extra)
            finally:
                a_side[i], b_side[j] = a, b
            if view(twin, seat).to_json() == want and twin.hand(1) != state.hand(1):
                return twin
    raise AssertionError("no twin deal found")


@pytest.mark.parametrize(
    "game, players",
    [("block", 2), ("draw", 3), ("doubles", 3), ("super_dominoes", 4), ("double_double", 3)],
)
def test_a_sample_depends_only_on_the_view(game: str, players: int) -> None:
    """Two real deals that look the same to seat 0 give the same samples, at the start and
    as long as the same play keeps them looking the same."""
    state = new_hand(game, players, 11)
    twin = twin_deal(state)
    assert [state.hand(p) for p in range(players)] != [twin.hand(p) for p in range(players)]
    rng = random.Random(3)
    pairs = [(state, twin)]
    a, b = state, twin
    while a.actor is not None and len(pairs) < 10:
        moves = list(a.legal_actions())
        rng.shuffle(moves)
        for move in moves:
            if move in b.legal_actions():
                a2, b2 = a.apply(move), b.apply(move)
                if view(a2, 0).to_json() == view(b2, 0).to_json():
                    a, b = a2, b2
                    pairs.append((a, b))
                    break
        else:
            break
    assert len(pairs) >= 2  # some play kept the two deals alike
    for a, b in [*pairs[::3], pairs[-1]]:
        va, vb = view(a, 0), view(b, 0)
        assert va.to_json() == vb.to_json()
        sa = Sampler(va).sample(random.Random(5))
        sb = Sampler(vb).sample(random.Random(5))
        assert [sa.hand(p) for p in range(players)] == [sb.hand(p) for p in range(players)]
        assert sa.boneyard == sb.boneyard
        assert getattr(sa, "pit_tiles", ()) == getattr(sb, "pit_tiles", ())


# ------------------------------------------------------------------------------ reproducibility
@pytest.mark.parametrize("game", GAMES)
def test_a_fixed_seed_gives_a_fixed_choice(game: str) -> None:
    players = get_game(game).default_players
    state, v = legal_view(game, players, seed=4, min_legal=3)
    first = ISMCTSAgent(seed=3, iterations=80).act(v)
    assert first in v.legal
    assert ISMCTSAgent(seed=3, iterations=80).act(v) == first
    same = ISMCTSAgent(seed=3, iterations=80)
    assert same.act(v) == first
    assert same.act(v) == first
    assert same.act(view(state, state.actor)) == first  # a fresh view of the same position
    assert make_agent("ismcts:80", seed=3).act(v) == first
    for cls in (GreedyAgent, RandomAgent):
        choices = {cls(seed).act(v) for seed in (7, 7, 7)}
        assert len(choices) == 1 and choices <= set(v.legal), cls.__name__
    # and a whole hand replays move for move
    specs = ["ismcts:20", "greedy", "random", "greedy"][:players]
    finals = [
        play_hand(new_hand(game, players, 9), [make_agent(s, seed=i) for i, s in enumerate(specs)])
        for _ in range(2)
    ]
    assert finals[0].moves == finals[1].moves


@pytest.mark.parametrize("game", GAMES)
def test_a_time_budget_the_sampling_used_up_still_searches(game: str) -> None:
    """A time budget shorter than sampling the worlds takes still searches every sampled world
    once and plays a move the search tried, not the first legal move by default."""
    players = get_game(game).default_players
    _, v = legal_view(game, players, seed=4, min_legal=3)
    agent = ISMCTSAgent(seed=3, seconds=1e-9)
    hints = get_game(game).hints
    sampled = agent._worlds(v, agent._rng(v))
    worlds = len(sampled)
    assert worlds == min(agent.settings(hints)[0], agent.iterations)
    root = agent.search(sampled, v.seat, random.Random(1))
    assert root.visits >= worlds
    assert root.children[most_visited(root, v.legal)].visits > 0
    move = agent.act(v)
    assert agent.last_iterations >= worlds
    assert move in v.legal


# ------------------------------------------------------------------------------ belief
@pytest.mark.parametrize("game", ["block", "draw"])
def test_the_line_model_is_a_distribution_over_the_legal_actions(game: str) -> None:
    for seed in range(5):
        state, _ = legal_view(game, 2, seed=seed, min_legal=3)
        legal = state.legal_actions()
        total = sum(math.exp(line_loglik(state, a)) for a in legal)
        assert total == pytest.approx(1.0)
        values = move_values(state)
        assert [a for _, a in values] == list(legal)
        best = max(values, key=lambda va: va[0])
        worst = min(values, key=lambda va: va[0])
        if best[0] > worst[0]:
            assert line_loglik(state, best[1]) > line_loglik(state, worst[1])


def test_resampling_follows_the_weights() -> None:
    states = [new_hand("block", 2, s) for s in range(3)]
    for seed in range(10):
        out = resample(states, [0.0, math.log(3.0), -50.0], 8, random.Random(seed))
        assert len(out) == 8
        assert out.count(states[0]) == 2 and out.count(states[1]) == 6
        assert out == sorted(out, key=states.index)  # in their order


def _marked_position() -> tuple[State, View, int, Any, Callable[[State, Action], float]]:
    """A block position a few moves in (the opponent has moved), the mover's view, the
    opponent's seat, an unseen tile never played, and a model that finds the opponent's moves
    unlikely whenever it held that tile."""
    game = get_game("block")
    rng = random.Random(3)
    state = new_hand("block", 2, 11)
    while len(state.moves) < 4:
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.actor is not None
    v = view(state, state.actor)
    opp = 1 - state.actor
    unknown = [t for t in game.deck(2, state.options) if t not in v.hand]
    marked = next(
        t for t in unknown if not any(t == getattr(turn.action, "tile", None) for turn in v.history)
    )

    def model(s: State, action: Action) -> float:
        return -30.0 if marked in s.hand(opp) else 0.0

    return state, v, opp, marked, model


def test_belief_keeps_the_worlds_the_model_finds_likely(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a model that finds a world unlikely when the opponent held a given tile when it
    moved, the pool keeps (almost) only worlds without it; without belief, about as many as
    chance gives. Every kept world is still consistent with the view."""
    game = get_game("block")
    state, v, opp, marked, model = _marked_position()
    me = v.seat

    monkeypatch.setattr(game, "hints", dataclasses.replace(game.hints, model=model))
    holding = {}
    for belief in (0, 8):
        agent = ISMCTSAgent(seed=1, iterations=400, pool=40, belief=belief)
        worlds = agent._worlds(v, agent._rng(v))
        assert len(worlds) == 40
        for w in worlds:
            assert w.hand(me) == v.hand and w.moves == state.moves
        holding[belief] = sum(marked in w.initial.hand(opp) for w in worlds)
    assert holding[0] >= 5  # the tile is the opponent's in a good share of uniform deals
    assert holding[8] <= 1


def test_a_model_given_to_the_search_replaces_the_game_s() -> None:
    """``ISMCTSAgent(model=...)`` weighs the worlds by that model, not the game's: a model that
    finds the opponent unlikely to have moved as it did while holding one tile leaves (almost)
    no world where it held it."""
    _, v, opp, marked, model = _marked_position()

    holding = {}
    for given in (None, model):
        agent = ISMCTSAgent(seed=1, iterations=400, pool=40, belief=8, model=given)
        worlds = agent._worlds(v, agent._rng(v))
        assert len(worlds) == 40
        holding[given is None] = sum(marked in w.initial.hand(opp) for w in worlds)
    assert holding[True] >= 5  # the game's own model does not care about the tile
    assert holding[False] <= 1


def test_belief_changes_nothing_where_the_game_has_no_model() -> None:
    _, v = legal_view("double_double", 2, seed=4, min_legal=3)
    assert get_game("double_double").hints.model is None
    plain = ISMCTSAgent(seed=3, iterations=60, belief=0).act(v)
    assert ISMCTSAgent(seed=3, iterations=60, belief=4).act(v) == plain


@pytest.mark.parametrize("game", ["block", "draw"])
def test_a_belief_search_is_reproducible(game: str) -> None:
    state, v = legal_view(game, 2, seed=5, min_legal=3)
    first = make_agent("ismcts:80:belief=4", seed=3).act(v)
    assert first in v.legal
    assert ISMCTSAgent(seed=3, iterations=80, belief=4).act(v) == first
    assert make_agent("ismcts:80:belief=4", seed=3).act(view(state, state.actor)) == first


def test_the_random_agent_chooses_as_the_playout_rule() -> None:
    """RandomAgent picks ``legal[int(rng.random() * len(legal))]``, draw for draw."""
    for game in GAMES:
        players = get_game(game).default_players
        for seed in (1, 2, 3):
            agent, rng = RandomAgent(seed), random.Random(seed)
            states = random_line(new_hand(game, players, seed), random.Random(seed))
            for state in states[:-1]:
                assert state.actor is not None
                v = view(state, state.actor)
                assert agent.act(v) is v.legal[int(rng.random() * len(v.legal))]
            assert agent.rng.getstate() == rng.getstate()


@pytest.mark.parametrize("game", GAMES)
def test_random_agents_sharing_a_generator_play_the_hand_playout_plays(game: str) -> None:
    """Random agents drawing from one ``Random(s)`` make the moves ``playout(Random(s))``
    makes (what ``bonepile simulate`` plays is what the engine's rollouts play), also when
    every step is watched."""
    g = get_game(game)
    for seed in range(8):
        players = g.default_players
        dealt = new_hand(game, players, seed)
        out = dealt.playout(random.Random(seed))
        rng = random.Random(seed)
        played = play_hand(dealt, [RandomAgent(rng=rng) for _ in range(players)])
        assert played.moves == out.moves
        assert played.result == out.result
        rng = random.Random(seed)
        watched = play_hand(
            dealt, [RandomAgent(rng=rng) for _ in range(players)], on_step=lambda *a: None
        )
        assert watched.moves == out.moves


def test_a_random_agent_refuses_a_view_without_a_move() -> None:
    state = new_hand("block", 2, 1)
    assert state.actor is not None
    with pytest.raises(ValueError, match="no legal action"):
        RandomAgent(1).act(view(state, 1 - state.actor))


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_played_in_place_is_the_hand_played_by_steps(game: str) -> None:
    """Without ``on_step``, play_hand plays on one private state changed in place: the same
    moves, final position, history, every seat's history and views as step by step, and the
    agents saw the same views."""
    players = get_game(game).default_players
    for seed in (1, 2):
        seen: list[list[dict[str, Any]]] = [[], []]
        kept: list[tuple[View, dict[str, Any]]] = []  # every view, and its JSON when handed

        class Recording(RandomAgent):
            def __init__(self, seed: int, log: list[dict[str, Any]]) -> None:
                super().__init__(seed)
                self.log = log

            def act(self, v: View) -> Action:
                self.log.append(v.to_json())
                kept.append((v, self.log[-1]))  # noqa: B023 (kept for this seed's hands)
                return super().act(v)

        finals = [
            play_hand(
                new_hand(game, players, seed),
                [Recording(10 * seed + s, seen[k]) for s in range(players)],
                on_step=None if k == 0 else (lambda *_: None),
            )
            for k in (0, 1)
        ]
        in_place, stepped = finals
        assert seen[0] == seen[1] and seen[0]
        # a view an agent kept does not change as the private state goes on
        assert all(v.to_json() == then for v, then in kept)
        assert in_place.moves == stepped.moves and in_place == stepped
        assert in_place.replay() == stepped.replay() and in_place.ply == stepped.ply
        assert in_place.deal == stepped.deal
        for seat in [None, *range(players)]:
            assert view(in_place, seat) == view(stepped, seat)
            assert view(in_place, seat).to_json() == view(stepped, seat).to_json()


@pytest.mark.parametrize("game", GAMES)
def test_views_nobody_kept_read_the_same_as_new_ones_and_kept_ones_never_change(game: str) -> None:
    """play_hand may refill a view the agent kept no reference to: whatever an agent reads
    (history, layout, facts, hand), at whichever turns, is what a new view of each position
    shows, and a view an agent did keep does not change afterwards."""
    players = get_game(game).default_players
    for seed in (5, 6):
        logs: list[list[Any]] = [[], []]
        kept: list[tuple[View, dict[str, Any]]] = []
        histories: list[tuple[int | None, list[Any]]] = []  # what a seat read, in both runs

        class Reader(RandomAgent):
            def __init__(self, seed: int, log: list[Any], keep: bool) -> None:
                super().__init__(seed)
                self.log = log
                self.keep = keep
                self.turns = 0

            def act(self, v: View) -> Action:
                self.turns += 1
                if self.turns % 3 == 0:  # some of its turns read everything
                    self.log.append(v.to_json())
                    histories.append((v.seat, [(t.seat, t.action, t.events) for t in v.history]))  # noqa: B023
                elif self.turns % 3 == 1:  # some read a part; the rest read only legal
                    self.log.append((v.seat, len(v.history), v.hand, v.hand_sizes))
                if self.keep and self.turns % 4 == 0:
                    kept.append((v, v.to_json()))  # noqa: B023 (this seed's hands)
                return super().act(v)

        finals = [
            play_hand(
                new_hand(game, players, seed),
                [Reader(10 * seed + s, logs[k], keep=k == 0) for s in range(players)],
                on_step=None if k == 0 else (lambda *_: None),  # new views at every step
            )
            for k in (0, 1)
        ]
        assert logs[0] == logs[1] and logs[0]
        assert finals[0].replay() == finals[1].replay()
        assert kept and all(v.to_json() == then for v, then in kept)
        for seat, history in histories:  # each a prefix of the seat's redacted hand
            assert history and history == redacted_replay(finals[0], seat)[: len(history)]


@pytest.mark.skipif(bonepile.COMPILED, reason="a compiled module's constant cannot be patched")
def test_a_python_without_reference_counts_plays_the_same_hands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where ``sys.getrefcount`` does not exist, play_hand makes a new view every turn."""
    import bonepile.agents.base as base

    expected = [play_hand(new_hand("draw", 2, seed), [RandomAgent(seed)] * 2) for seed in (1, 2)]
    monkeypatch.setattr(base, "_REFCOUNT", None)
    got = [play_hand(new_hand("draw", 2, seed), [RandomAgent(seed)] * 2) for seed in (1, 2)]
    assert [s.replay() for s in got] == [s.replay() for s in expected]


def redacted_replay(state: State, seat: int | None) -> list[tuple[int, Action, tuple[Any, ...]]]:
    """The definition of what ``seat`` saw: every turn of the full history with the action
    hidden unless ``seat`` took it, and every event as ``redact(seat)`` shows it."""
    return [
        (who, action if who == seat else action.redacted(), tuple(e.redact(seat) for e in events))
        for who, action, events in state.replay()
    ]


@pytest.mark.parametrize("case", OPTION_SETS, ids=case_id)
def test_every_seats_history_is_the_redacted_replay(case: tuple[str, int, dict[str, Any]]) -> None:
    """A view's history is the full history redacted for its seat, whichever way the hand was
    played: by steps (kept as it goes), by ``apply`` (worked out later) or in place."""
    game, players, options = case
    for seed in (3, 4):
        dealt = new_hand(game, players, seed, options)
        stepped = [dealt]
        rng = random.Random(seed)
        while stepped[-1].actor is not None:
            legal = stepped[-1].legal_actions()
            stepped.append(stepped[-1].step(legal[int(rng.random() * len(legal))])[0])
        applied = random_line(dealt, random.Random(seed))
        in_place = play_hand(dealt, [RandomAgent(seed + s) for s in range(players)])
        for state in [*some_points(stepped, 6), stepped[-1], *some_points(applied, 6), in_place]:
            for seat in [None, *range(players)]:
                got = [(t.seat, t.action, t.events) for t in view(state, seat).history]
                assert got == redacted_replay(state, seat), (game, seed, state.ply, seat)


@pytest.mark.skipif(bonepile.COMPILED, reason="compiled event classes cannot be patched")
@pytest.mark.parametrize(
    "case",
    [c for c in OPTION_SETS if c[0] in ("draw", "super_dominoes", "double_double")],
    ids=case_id,
)
def test_seat_histories_are_the_same_when_events_do_not_name_their_viewer(
    case: tuple[str, int, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The history's shortcut for draws and discards (their one viewer) changes nothing: with
    it turned off, every seat is asked how it sees each event, and the views are the same."""
    monkeypatch.setattr(Drew, "sole_viewer", lambda self: None)
    monkeypatch.setattr(Discarded, "sole_viewer", lambda self: None)
    test_every_seats_history_is_the_redacted_replay(case)


class Checked:
    """Wraps an agent: every view it gets is its seat's, to act, and every answer is legal."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.needs_history = getattr(agent, "needs_history", True)
        self.decisions = 0

    def act(self, v: View) -> Action:
        assert v.seat == v.actor and v.legal and not v.is_over
        action = self.agent.act(v)
        assert action in v.legal, (type(self.agent).__name__, str(action), list(map(str, v.legal)))
        self.decisions += 1
        return action


@pytest.mark.parametrize("case", OPTION_SETS, ids=case_id)
def test_every_agent_always_plays_a_legal_action(case: tuple[str, int, dict[str, Any]]) -> None:
    game, players, options = case
    specs = ["greedy", "ismcts:40", "random"]
    for seed in (1, 2) if players <= 4 else (1,):
        agents = [
            Checked(make_agent(specs[(s + seed) % 3], seed=10 * seed + s)) for s in range(players)
        ]
        steps = 0

        def count(*_: Any) -> None:
            nonlocal steps
            steps += 1
            assert steps < 3000, "the hand does not end"

        final = play_hand(new_hand(game, players, seed, options), agents, on_step=count)
        assert final.is_over and final.result is not None
        assert steps == len(final.moves) == sum(a.decisions for a in agents)


def test_every_agent_kind_is_used_above() -> None:
    kinds = {type(make_agent(s)) for s in ("greedy", "ismcts:40", "random")}
    assert kinds == {GreedyAgent, ISMCTSAgent, RandomAgent}


# ------------------------------------------------------------------------------ the registry
@pytest.mark.parametrize(
    "spec, kind, attrs",
    [
        ("random", RandomAgent, {}),
        ("greedy", GreedyAgent, {}),
        (" Greedy ", GreedyAgent, {}),
        ("ismcts", ISMCTSAgent, {"iterations": LEVELS["hard"]}),
        ("ismcts:easy", ISMCTSAgent, {"iterations": LEVELS["easy"]}),
        ("ismcts:medium", ISMCTSAgent, {"iterations": LEVELS["medium"]}),
        ("ismcts:hard", ISMCTSAgent, {"iterations": LEVELS["hard"], "level": "hard"}),
        ("ismcts:expert", ISMCTSAgent, {"iterations": LEVELS["expert"], "level": "expert"}),
        ("ismcts:expert:belief=0", ISMCTSAgent, {"iterations": LEVELS["expert"], "belief": 0}),
        ("ismcts:250:belief=4", ISMCTSAgent, {"iterations": 250, "belief": 4}),
        (
            "ismcts:300:rollout=random:pool=8:c=0.5",
            ISMCTSAgent,
            {"iterations": 300, "rollout": "random", "pool": 8, "exploration": 0.5},
        ),
        ("ismcts:1s:belief=2", ISMCTSAgent, {"seconds": 1.0, "belief": 2}),
        ("ismcts:500", ISMCTSAgent, {"iterations": 500}),
        ("ismcts:2s", ISMCTSAgent, {"seconds": 2.0}),
        ("ismcts:0.5s", ISMCTSAgent, {"seconds": 0.5}),
        ("external:python3 my_bot.py --fast", ExternalAgent, {}),
    ],
)
def test_make_agent_builds_what_it_is_asked(spec: str, kind: type, attrs: dict[str, Any]) -> None:
    agent = make_agent(spec, seed=4)
    assert isinstance(agent, kind)
    for k, v in attrs.items():
        assert getattr(agent, k) == v
    if isinstance(agent, ExternalAgent):
        assert agent.command == ["python3", "my_bot.py", "--fast"]
        assert agent.seed == 4
        assert agent._proc is None  # started only when it plays


def test_expert_takes_its_game_s_settings_and_given_options_win() -> None:
    block, draw = get_game("block").hints, get_game("draw").hints
    expert = make_agent("ismcts:expert", seed=4)
    assert isinstance(expert, ISMCTSAgent)
    assert expert.settings(block) == (32, 4)  # worlds a decision, belief
    assert expert.settings(draw) == (250, 0)
    given = make_agent("ismcts:expert:belief=2:pool=40", seed=4)
    assert isinstance(given, ISMCTSAgent) and given.settings(draw) == (40, 2)
    for spec in ("ismcts:hard", "ismcts:1000"):
        other = make_agent(spec, seed=4)
        assert isinstance(other, ISMCTSAgent) and other.settings(draw) == (32, 0)


@pytest.mark.parametrize(
    "spec",
    [
        "nope",
        "ismcts:fast",
        "ismcts:0",
        "ismcts:-3",
        "ismcts:0s",
        "ismcts:1.5",
        "ismcts:hard:belief=-1",
        "ismcts:hard:belief=65",
        "ismcts:hard:belief",
        "ismcts:hard:belief=1:belief=2",
        "ismcts:hard:rollout=smart",
        "ismcts:hard:nope=1",
        "ismcts:hard:c=x",
        "ismcts:hard:pool=0",
        "ismcts:fast:belief=4",
        "external:",
        "external:   ",
        'external:"unclosed',
        "random:3",
        "greedy:hard",
        "",
        "   ",
        None,
    ],
)
def test_make_agent_rejects_bad_specs(spec: Any) -> None:
    with pytest.raises(OptionError) as info:
        make_agent(spec)
    assert "\n" not in str(info.value) and str(info.value)


# ------------------------------------------------------------------------------ external bots
def weight(action: Action) -> int:
    """What the example bot maximises: the pips of the tile an action places."""
    return action.tile.pips if isinstance(action, Lead | Attach | Place) else -1


class Watch:
    """Passes everything through to an agent and keeps (view, answer) pairs."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.needs_history = getattr(agent, "needs_history", True)
        self.turns: list[tuple[View, Action]] = []

    def act(self, v: View) -> Action:
        action = self.agent.act(v)
        self.turns.append((v, action))
        return action

    def start(self, v: View) -> None:
        self.agent.start(v)

    def finish(self, v: View) -> None:
        self.agent.finish(v)


def test_the_example_bot_plays_whole_hands() -> None:
    bot = ExternalAgent([PY, str(HEAVIEST)])
    watch = Watch(bot)
    try:
        pids = []
        for seed, seat in ((1, 0), (2, 1), (3, 0)):
            agents: list[Any] = [RandomAgent(seed)]
            agents.insert(seat, watch)
            final = play_hand(get_game("block").new(2, seed=seed), agents)
            assert final.is_over
            assert bot.bot_name == "heaviest tile first"
            proc = bot._proc
            assert proc is not None and proc.poll() is None  # alive between hands
            pids.append(proc.pid)
        assert len(set(pids)) == 1  # one process plays every hand
        assert len(watch.turns) > 10
        for v, action in watch.turns:
            assert action in v.legal
            assert weight(action) == max(weight(a) for a in v.legal), str(action)
    finally:
        bot.close()
    assert bot._proc is None
    assert proc.wait(timeout=5) == 0  # it exited by itself, on "quit"


@pytest.mark.parametrize("case", OPTION_SETS, ids=case_id)
def test_the_example_bot_plays_every_game(case: tuple[str, int, dict[str, Any]]) -> None:
    game, players, options = case
    bot = ExternalAgent([PY, str(HEAVIEST)])
    watch = Watch(bot)
    agents: list[Any] = [watch] + [GreedyAgent(s) for s in range(1, players)]
    try:
        final = play_hand(new_hand(game, players, 3, options), agents)
    finally:
        bot.close()
    assert final.is_over and watch.turns
    for v, action in watch.turns:
        assert action in v.legal
        assert weight(action) == max(weight(a) for a in v.legal), str(action)


@pytest.mark.parametrize("case", OPTION_SETS[::2], ids=case_id)
def test_the_protocol_messages_round_trip(
    tmp_path: Path, case: tuple[str, int, dict[str, Any]]
) -> None:
    """What a bot receives is exactly the protocol of docs/bots.md: start, act (its view and
    the legal actions as text), hand_over (every hand shown), quit."""
    game, players, options = case
    log = tmp_path / "messages.jsonl"
    bot = ExternalAgent([PY, str(BOTS / "recorder.py"), str(log)], seed=17)
    watch = Watch(bot)
    state = new_hand(game, players, 6, options)
    agents: list[Any] = [RandomAgent(s) for s in range(players)]
    agents[1] = watch
    try:
        final = play_hand(state, agents)
    finally:
        bot.close()
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    kinds = [m["type"] for m in messages]
    assert kinds == ["start"] + ["act"] * len(watch.turns) + ["hand_over", "quit"]
    assert messages[0] == {
        "type": "start",
        "protocol": PROTOCOL,
        "game": game,
        "options": view(state, 1).to_json()["options"],
        "players": players,
        "seat": 1,
        "seed": 17,
        "scores_before": [0] * players,
        "move_time": 10.0,
    }
    assert PROTOCOL == "bonepile-bot/1"
    for message, (v, action) in zip(messages[1:-2], watch.turns, strict=True):
        assert message["view"] == json.loads(json.dumps(v.to_json()))
        assert message["view"]["seat"] == 1 and message["view"]["revealed"] is None
        assert message["legal"] == [str(a) for a in v.legal]
        assert action == v.legal[0]  # the bot's answer came back as the action played
    over = messages[-2]["view"]
    assert over == json.loads(json.dumps(view(final, 1).to_json()))
    assert over["revealed"] == [[str(t) for t in final.hand(s)] for s in range(players)]


class Tracked(ExternalAgent):
    """An ExternalAgent that keeps every process it starts (to check that they are stopped)."""

    def __init__(self, command: Sequence[str], **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.procs: list[subprocess.Popen[str]] = []

    def _spawn(self) -> subprocess.Popen[str]:
        proc = super()._spawn()
        self.procs.append(proc)
        return proc


def bot(name: str, *args: str) -> list[str]:
    return [PY, str(BOTS / name), *args]


MISBEHAVING = [
    ("exits after ready", bot("crash_after_ready.py"), {}, "exited"),
    ("never answers a move", bot("silent.py"), {"move_timeout": 1.0}, "no answer within 1 s"),
    ("never answers start", bot("silent.py", "start"), {"start_timeout": 1.0}, "no answer"),
    ("writes non-JSON", bot("garbage.py"), {}, "not JSON"),
    ("answers an illegal action", bot("illegal.py"), {}, "is not legal"),
    ("answers a JSON list", bot("reply.py", "[1, 2]"), {}, "not a JSON object"),
    ("answers no action", bot("reply.py", '{"move": "6-6"}'), {}, '"action"'),
    ("answers a non-action", bot("reply.py", '{"action": "banana"}'), {}, "not an action"),
    (
        "answers start wrongly",
        bot("reply.py", '{"action": "pass"}', '{"type": "hello"}'),
        {},
        '"ready"',
    ),
    ("does not exist", ["/nonexistent/dir/bonepile-bot"], {}, "cannot start"),
]


@pytest.mark.parametrize(
    "command, kwargs, fragment, seat",
    # the bot in either seat (the slow, hanging ones in one)
    [(*m[1:], seat) for m in MISBEHAVING for seat in ((1,) if m[2] else (0, 1))],
    ids=[f"{m[0]}-P{seat}" for m in MISBEHAVING for seat in ((1,) if m[2] else (0, 1))],
)
def test_a_misbehaving_bot_forfeits_with_a_clear_message(
    command: list[str], kwargs: dict[str, Any], fragment: str, seat: int
) -> None:
    agent = Tracked(command, **kwargs)
    agents: list[Any] = [RandomAgent(3)]
    agents.insert(seat, agent)
    started = time.monotonic()
    with pytest.raises(AgentForfeit) as info:
        play_hand(get_game("block").new(2, seed=1), agents)
    elapsed = time.monotonic() - started
    assert elapsed < 6.0, elapsed
    assert info.value.seat == seat
    assert fragment in info.value.reason, info.value.reason
    assert str(info.value) == f"P{seat} forfeits: {info.value.reason}"
    assert "\n" not in info.value.reason
    assert agent._proc is None
    for proc in agent.procs:
        assert proc.wait(timeout=5) is not None  # the process is stopped


def test_a_hanging_bot_forfeits_within_its_time_limit() -> None:
    agent = Tracked(bot("silent.py"), move_timeout=0.5)
    started = time.monotonic()
    with pytest.raises(AgentForfeit, match=r"no answer within 0\.5 s"):
        play_hand(get_game("block").new(2, seed=2), [agent, RandomAgent(1)])
    assert time.monotonic() - started < 4.0
    assert agent.procs and all(p.poll() is not None for p in agent.procs)


def test_a_crashed_bot_is_started_afresh_for_the_next_hand(tmp_path: Path) -> None:
    counter = tmp_path / "runs"
    agent = Tracked(bot("flaky.py", str(counter)))
    with pytest.raises(AgentForfeit, match="exited"):
        play_hand(get_game("block").new(2, seed=1), [agent, RandomAgent(1)])
    assert agent.bot_name == "flaky run 1"
    final = play_hand(get_game("block").new(2, seed=2), [agent, RandomAgent(1)])
    assert final.is_over and agent.bot_name == "flaky run 2"
    agent.close()
    assert counter.read_text() == "2"
    assert len(agent.procs) == 2 and all(p.wait(timeout=5) is not None for p in agent.procs)


def test_external_specs_run_through_make_agent() -> None:
    spec = "external:" + shlex.join([PY, str(HEAVIEST)])
    agent = make_agent(spec, seed=2)
    try:
        final = play_hand(get_game("block").new(2, seed=4), [agent, GreedyAgent(1)])
    finally:
        agent.close()  # type: ignore[attr-defined]
    assert final.is_over


@pytest.mark.parametrize("seed", range(40))
def test_the_sampler_draws_as_random_draws(seed: int) -> None:
    """The sampler's own choice and shuffle (compiled, they skip random's interpreted methods)
    draw exactly what random.Random's do, so a seed samples the same worlds on both builds."""
    from bonepile.agents.sampler import _below, _choice, _shuffle

    ours, theirs = random.Random(seed), random.Random(seed)
    for n in (1, 2, 3, 7, 8, 9, 28, 1000, 2**40 + 3):
        assert _below(ours, n) == theirs.randrange(n)
        items = list(range(n % 50 + 1))
        assert _choice(ours, items) == theirs.choice(items)
        mine, yours = list(items), list(items)
        _shuffle(ours, mine)
        theirs.shuffle(yours)
        assert mine == yours
    with pytest.raises(IndexError):
        _choice(ours, [])
