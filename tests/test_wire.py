"""Everything that crosses a wire comes back equal: actions through their notation and pickle,
events and results through ``to_json``/``from_json`` (as JSON text) and pickle.

Clients (the web server, the terminal app, RL workers in process pools) send these values as
JSON and pickle them, so every event any game produces, as every seat sees it, must round-trip,
and bad wire data must fail with one clear line.
"""

from __future__ import annotations

import copy
import inspect
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bonepile
import bonepile.events as events_module
from bonepile import all_games, get_game
from bonepile.actions import HIDDEN_DISCARD, Action, Discard, Place, parse_action
from bonepile.errors import BonepileError, InvalidActionError, RecordError, WireError
from bonepile.events import (
    EVENT_TYPES,
    ChainStopped,
    Discarded,
    Drew,
    Event,
    ExtraTurn,
    HandEnded,
    Led,
    Passed,
    Placed,
    PlacedOnBoard,
    Reversed,
    Scored,
    Skipped,
    SpellCast,
    SpellEnded,
)
from bonepile.record import read_record, record_of
from bonepile.result import REASONS, Result
from bonepile.state import State
from bonepile.tiles import Tile
from bonepile.view import view

pytestmark = pytest.mark.engine

# ------------------------------------------------------------------------------ helpers

CONFIGS: list[tuple[str, str | None]] = [
    (game.name, board)
    for game in all_games()
    for board in (("small", None) if game.board_game else (None,))
]
"""Every game; the board game on its small board (fast) and on the standard one."""


def wire(data: Any) -> Any:
    """``data`` after a trip through JSON text."""
    return json.loads(json.dumps(data))


def one_line_error(exc: type[Exception], fn: Any, *args: Any) -> str:
    """Call ``fn(*args)``, expect ``exc``, and return its message (checked: one clear line)."""
    with pytest.raises(exc) as info:
        fn(*args)
    msg = str(info.value)
    assert msg.strip() and "\n" not in msg, f"not one clear line: {msg!r}"
    return msg


def assert_event_round_trips(e: Event) -> None:
    data = e.to_json()
    assert data["type"] == type(e).TYPE
    assert wire(data) == data, "to_json must give plain JSON values (lists, not tuples)"
    for back in (Event.from_json(wire(data)), type(e).from_json(wire(data))):
        assert type(back) is type(e)
        assert back == e and hash(back) == hash(e)
        assert back.describe() == e.describe()
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(e, protocol))
        assert type(back) is type(e) and back == e and hash(back) == hash(e)
    assert copy.copy(e) == e and copy.deepcopy(e) == e


def assert_action_round_trips(a: Action) -> None:
    for x in (a, a.redacted()):
        assert parse_action(str(x)) is x
        for protocol in (0, pickle.HIGHEST_PROTOCOL):
            assert pickle.loads(pickle.dumps(x, protocol)) is x
        assert copy.copy(x) is x and copy.deepcopy(x) is x


def assert_result_round_trips(r: Result) -> None:
    assert wire(r.to_json()) == r.to_json()
    assert Result.from_json(wire(r.to_json())) == r
    assert pickle.loads(pickle.dumps(r)) == r


def new_hand(name: str, board: str | None, seed: int, pick: int) -> State:
    game = get_game(name)
    lo, hi = game.player_range(game.make_options(None))
    players = lo + pick % (hi - lo + 1)
    return game.new(players, seed=seed, board=board)


# --------------------------------------------------------------- random hands of every game
@pytest.mark.parametrize(("name", "board"), CONFIGS, ids=[f"{n}-{b or 'std'}" for n, b in CONFIGS])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 63))
def test_every_event_and_action_of_a_random_hand_round_trips(
    name: str, board: str | None, seed: int, pick: int
) -> None:
    state = new_hand(name, board, seed, pick)
    seats: list[int | None] = [*range(state.players), None]
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        assert HIDDEN_DISCARD not in legal
        for a in legal:
            assert_action_round_trips(a)
        state, events = state.step(legal[rng.randrange(len(legal))])
        for e in events:
            assert_event_round_trips(e)
            for seat in seats:
                assert_event_round_trips(e.redact(seat))
    assert state.result is not None
    assert_result_round_trips(state.result)


def test_the_random_hands_meet_every_event_type() -> None:
    # The property test above is only as good as the events it sees: seeded hands of the
    # games together produce every event class.
    seen: set[type[Event]] = set()
    for name, board in CONFIGS:
        for seed in range(12):
            state = new_hand(name, board, seed, seed)
            rng = random.Random(seed)
            while not state.is_over:
                state, events = state.step(rng.choice(state.legal_actions()))
                seen.update(type(e) for e in events)
    assert seen == set(EVENT_TYPES)


def test_placed_on_board_has_the_cells_of_its_place_action() -> None:
    checked = 0
    for seed in range(4):
        state = get_game("double_double").new(2, seed=seed, board="small")
        rng = random.Random(seed)
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            state, events = state.step(action)
            for e in events:
                if isinstance(e, PlacedOnBoard):
                    assert isinstance(action, Place)
                    assert (e.cell1, e.cell2) == (action.cell1, action.cell2)
                    assert (e.p, e.q, e.tile) == (action.p, action.q, action.tile)
                    assert e.to_json()["cell1"] == list(action.cell1)
                    checked += 1
    assert checked > 10


def test_a_view_showing_a_hidden_discard_pickles() -> None:
    # Before ``discard ?`` parsed, pickling such a view raised.
    for seed in range(20):
        state = get_game("double_double").new(2, seed=seed, board="small")
        rng = random.Random(seed)
        while not state.is_over and not any(isinstance(a, Discard) for a in state.moves):
            state = state.apply(rng.choice(state.legal_actions()))
        discarder = next(
            (s for s, a, _ in state.replay() if isinstance(a, Discard)),
            None,
        )
        if discarder is None:
            continue
        v = view(state, 1 - discarder)
        assert any(t.action is HIDDEN_DISCARD for t in v.history)
        back = pickle.loads(pickle.dumps(v))
        assert back.history == v.history
        assert back.to_json() == v.to_json()
        return
    pytest.fail("no seed gave a discard")


# ------------------------------------------------------------------------------ actions
def test_the_hidden_discard_parses_to_the_redacted_discard() -> None:
    hidden = parse_action("discard 6-4").redacted()
    assert hidden is Discard(None) is HIDDEN_DISCARD
    assert str(hidden) == "discard ?"
    for text in ("discard ?", "Discard ?", "  discard   ? "):
        assert parse_action(text) is hidden
    assert pickle.loads(pickle.dumps(hidden)) is hidden
    assert copy.copy(hidden) is hidden and copy.deepcopy(hidden) is hidden
    for bad in ("discard ??", "discard", "discard ?6-4"):
        with pytest.raises(InvalidActionError):
            parse_action(bad)


def test_actions_are_immutable() -> None:
    for a in (parse_action("discard ?"), parse_action("3-6@8G8H"), parse_action("6-4@6-6")):
        with pytest.raises(AttributeError):
            a.tile = Tile(0, 0)  # type: ignore[misc]


def ddd_record_with_a_discard() -> tuple[dict[str, Any], int]:
    """A Double Double Dominoes record (small board) and the index of its first discard."""
    for seed in range(30):
        state = get_game("double_double").new(2, seed=seed, board="small")
        rng = random.Random(seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_actions()))
        rec = record_of(state)
        for i, text in enumerate(rec["moves"]):
            if text.startswith("discard "):
                return rec, i
    raise AssertionError("no seed gave a discard")


def test_a_record_refuses_a_hidden_discard_naming_the_move() -> None:
    rec, i = ddd_record_with_a_discard()
    read_record(rec)  # the real move is fine
    rec["moves"][i] = "discard ?"
    msg = one_line_error(RecordError, read_record, rec)
    assert f'moves[{i}] "discard ?"' in msg
    assert "hidden" in msg


# ------------------------------------------------------------------------------ events
SAMPLES: list[Event] = [
    Led(0, Tile(6, 6)),
    Placed(1, Tile(6, 4), Tile(6, 6), 6, 4),
    Drew(0, 2, (Tile(6, 4), Tile(3, 1)), "fifteen"),
    Drew(2, 2, None, "fifteen"),
    Drew(1, 1, (Tile(2, 0),), "refill"),
    Passed(2),
    Skipped(1),
    Reversed(0, -1),
    SpellCast(0, Tile(13, 4), False),
    SpellCast(3, Tile(13, 13), True),
    SpellEnded(1, "broken"),
    ExtraTurn(0),
    PlacedOnBoard(0, Tile(6, 3), 3, 6, (7, 6), (7, 7), False),
    Scored(1, 4, "diamond", 4),
    Discarded(0, Tile(1, 0)),
    Discarded(0, None),
    ChainStopped(1),
    HandEnded(Result("domino", (0,), (12, 0))),
    HandEnded(Result("blocked", (), (0, 0, 0))),
]
SAMPLE_OF: dict[type[Event], Event] = {}
for _e in SAMPLES:
    SAMPLE_OF.setdefault(type(_e), _e)


def test_the_samples_cover_every_event_type() -> None:
    assert set(SAMPLE_OF) == set(EVENT_TYPES)


def test_event_types_lists_every_event_class_once_with_a_unique_type() -> None:
    defined = {
        obj
        for obj in vars(events_module).values()
        if inspect.isclass(obj) and issubclass(obj, Event) and obj is not Event
    }
    assert set(EVENT_TYPES) == defined and len(EVENT_TYPES) == len(defined)
    types = [cls.TYPE for cls in EVENT_TYPES]
    assert all(types) and len(set(types)) == len(types)
    for cls in EVENT_TYPES:
        names = [f for f, _ in cls.FIELDS]
        # a compiled class lists its fields in __mypyc_attrs__ (mypyc drops __slots__); a
        # private slot is a cache, not a field
        slots = cls.__dict__.get("__slots__") or cls.__dict__["__mypyc_attrs__"]
        assert sorted(names) == sorted(s for s in slots if not s.startswith("_")), cls
        assert list(inspect.signature(cls).parameters) == names, cls


@pytest.mark.parametrize("e", SAMPLES, ids=repr)
def test_every_event_kind_round_trips(e: Event) -> None:
    assert_event_round_trips(e)
    for seat in (0, 1, 2, 3, None):
        assert_event_round_trips(e.redact(seat))


@pytest.mark.skipif(bonepile.COMPILED, reason="mypyc drops docstrings: the pure build checks")
@pytest.mark.parametrize("cls", EVENT_TYPES, ids=lambda c: c.__name__)
def test_every_event_documents_its_json(cls: type[Event]) -> None:
    doc = cls.__doc__ or ""
    assert "JSON:" in doc
    assert f'"type": "{cls.TYPE}"' in " ".join(doc.split())
    for name, _ in cls.FIELDS:
        assert f'"{name}":' in doc, (cls.__name__, name)


def test_no_tiles_and_hidden_tiles_stay_apart() -> None:
    none_drawn = Drew(1, 0, (), "refill")
    assert none_drawn.to_json()["tiles"] == []
    assert Event.from_json(wire(none_drawn.to_json())) == none_drawn
    assert Event.from_json(wire(none_drawn.to_json())) != Drew(1, 0, None, "refill")
    assert_event_round_trips(none_drawn)


def test_redacted_events_hide_their_tiles_and_still_round_trip() -> None:
    drew = Drew(0, 2, (Tile(6, 4), Tile(3, 1)), "fifteen")
    discarded = Discarded(0, Tile(1, 0))
    for seat in (1, None):
        assert drew.redact(seat).to_json()["tiles"] is None
        assert discarded.redact(seat).to_json()["tile"] is None
        assert Event.from_json(wire(drew.redact(seat).to_json())) == Drew(0, 2, None, "fifteen")
        assert Event.from_json(wire(discarded.redact(seat).to_json())) == Discarded(0, None)
    assert drew.redact(0) is drew and discarded.redact(0) is discarded


def test_placed_on_board_cells_are_row_col_pairs_and_describe_in_notation() -> None:
    e = PlacedOnBoard(0, Tile(6, 3), 3, 6, (7, 6), (7, 7), False)
    assert (e.cell1, e.cell2) == ((7, 6), (7, 7))
    assert e.to_json() == {
        "type": "placed_on_board",
        "seat": 0,
        "tile": "6-3",
        "p": 3,
        "q": 6,
        "cell1": [7, 6],
        "cell2": [7, 7],
        "chain": False,
    }
    assert e.describe() == "P0 places 6-3: 3 on 8G, 6 on 8H"
    chained = PlacedOnBoard(1, Tile(2, 0), 2, 0, (3, 2), (3, 3), True)
    assert chained.describe() == "P1 places 2-0 next to the double: 2 on 4C, 0 on 4D"


def test_describe_texts_are_unchanged() -> None:
    assert [e.describe() for e in SAMPLES] == [
        "P0 leads 6-6",
        "P1 plays 6-4 on 6-6 (open end 4)",
        "P0 draws 2 tiles (6-4, 3-1) because of a 15",
        "P2 draws 2 tiles because of a 15",
        "P1 draws 1 tile (2-0) to refill the hand",
        "P2 passes",
        "P1 loses a turn",
        "direction reversed: play now goes counter-clockwise",
        "P0 casts a spell on the 13 end of 13-4",
        "P3's 13-13 starter casts a spell on the empty arms",
        "P1 breaks the spell",
        "P0 takes an extra turn",
        "P0 places 6-3: 3 on 8G, 6 on 8H",
        "P1 scores 4 (for the diamond), now at 4",
        "P0 discards 1-0 into the pit",
        "P0 discards a tile into the pit",
        "P1 stops the chain",
        "hand over (domino): P0 wins 12",
        "hand over (blocked): no winner",
    ]


@pytest.mark.parametrize("e", SAMPLES, ids=repr)
def test_events_are_immutable(e: Event) -> None:
    before = e.to_json()
    for name, _ in type(e).FIELDS:
        with pytest.raises(AttributeError):
            setattr(e, name, 1)
        with pytest.raises(AttributeError):
            delattr(e, name)
    with pytest.raises(AttributeError):
        e.color = "red"  # type: ignore[attr-defined]
    assert e.to_json() == before


# --------------------------------------------------------------------- events: bad wire data
@pytest.mark.parametrize("data", [None, 3, "led", ["led", 0], True])
def test_from_json_refuses_what_is_not_an_object(data: Any) -> None:
    msg = one_line_error(WireError, Event.from_json, data)
    assert "object" in msg


@pytest.mark.parametrize(
    "data",
    [
        {"seat": 0, "tile": "6-6"},
        {"type": "jumped", "seat": 0},
        {"type": "Led", "seat": 0, "tile": "6-6"},
        {"type": 3, "seat": 0},
        {"type": None},
    ],
)
def test_from_json_refuses_a_missing_or_unknown_type(data: Any) -> None:
    msg = one_line_error(WireError, Event.from_json, data)
    assert '"type"' in msg or "unknown type" in msg


def test_a_subclass_reads_only_its_own_type() -> None:
    data = Led(0, Tile(6, 6)).to_json()
    assert Led.from_json(data) == Led(0, Tile(6, 6))
    msg = one_line_error(WireError, Drew.from_json, data)
    assert '"drew"' in msg and '"led"' in msg


@pytest.mark.parametrize("e", [SAMPLE_OF[cls] for cls in EVENT_TYPES], ids=repr)
def test_from_json_refuses_a_missing_key(e: Event) -> None:
    for name, _ in type(e).FIELDS:
        data = e.to_json()
        del data[name]
        msg = one_line_error(WireError, Event.from_json, data)
        assert f'missing key "{name}"' in msg and e.TYPE in msg


@pytest.mark.parametrize("e", [SAMPLE_OF[cls] for cls in EVENT_TYPES], ids=repr)
def test_from_json_refuses_an_extra_key(e: Event) -> None:
    data = {**e.to_json(), "colour": "red"}
    msg = one_line_error(WireError, Event.from_json, data)
    assert '"colour"' in msg and e.TYPE in msg


BAD_VALUES: list[tuple[Event, str, Any]] = [
    (Led(0, Tile(6, 6)), "seat", "0"),
    (Led(0, Tile(6, 6)), "seat", True),
    (Led(0, Tile(6, 6)), "seat", 1.0),
    (Led(0, Tile(6, 6)), "seat", None),
    (Led(0, Tile(6, 6)), "seat", -1),
    (Led(0, Tile(6, 6)), "tile", "banana"),
    (Led(0, Tile(6, 6)), "tile", 66),
    (Led(0, Tile(6, 6)), "tile", None),
    (Led(0, Tile(6, 6)), "tile", ["6-6"]),
    (Placed(1, Tile(6, 4), Tile(6, 6), 6, 4), "at", "6@6"),
    (Placed(1, Tile(6, 4), Tile(6, 6), 6, 4), "matched", "6"),
    (Placed(1, Tile(6, 4), Tile(6, 6), 6, 4), "open", [4]),
    (Drew(0, 2, None, "fifteen"), "count", "2"),
    (Drew(0, 2, None, "fifteen"), "count", -2),
    (Drew(0, 2, None, "fifteen"), "tiles", "6-4"),
    (Drew(0, 2, None, "fifteen"), "tiles", ["6-4", 3]),
    (Drew(0, 2, None, "fifteen"), "tiles", ["6-4"]),  # one tile for a count of 2
    (Drew(0, 2, None, "fifteen"), "cause", 15),
    (Drew(0, 2, None, "fifteen"), "cause", None),
    (Reversed(0, -1), "direction", "-1"),
    (SpellCast(0, Tile(13, 4), False), "starter", 0),
    (SpellCast(0, Tile(13, 4), False), "starter", "false"),
    (SpellEnded(1, "broken"), "how", ["broken"]),
    (PlacedOnBoard(0, Tile(6, 3), 3, 6, (7, 6), (7, 7), False), "cell1", "8G"),
    (PlacedOnBoard(0, Tile(6, 3), 3, 6, (7, 6), (7, 7), False), "cell1", [7]),
    (PlacedOnBoard(0, Tile(6, 3), 3, 6, (7, 6), (7, 7), False), "cell2", [7, 7, 7]),
    (PlacedOnBoard(0, Tile(6, 3), 3, 6, (7, 6), (7, 7), False), "cell2", [7, -1]),
    (PlacedOnBoard(0, Tile(6, 3), 3, 6, (7, 6), (7, 7), False), "cell2", [7, True]),
    (PlacedOnBoard(0, Tile(6, 3), 3, 6, (7, 6), (7, 7), False), "cell2", {"row": 7, "col": 7}),
    (PlacedOnBoard(0, Tile(6, 3), 3, 6, (7, 6), (7, 7), False), "p", "3"),
    (PlacedOnBoard(0, Tile(6, 3), 3, 6, (7, 6), (7, 7), False), "chain", 1),
    (Scored(1, 4, "diamond", 4), "points", 4.5),
    (Scored(1, 4, "diamond", 4), "kind", None),
    (Discarded(0, None), "tile", 10),
    (Discarded(0, None), "tile", "?"),
    (HandEnded(Result("domino", (0,), (12, 0))), "result", None),
    (HandEnded(Result("domino", (0,), (12, 0))), "result", "domino"),
    (HandEnded(Result("domino", (0,), (12, 0))), "result", {"reason": "won"}),
    (
        HandEnded(Result("domino", (0,), (12, 0))),
        "result",
        {"reason": "domino", "winners": [0], "points": ["12", 0]},
    ),
]


@pytest.mark.parametrize(
    ("e", "field", "value"), BAD_VALUES, ids=[f"{e.TYPE}.{f}={v!r}" for e, f, v in BAD_VALUES]
)
def test_from_json_refuses_a_value_of_the_wrong_type(e: Event, field: str, value: Any) -> None:
    data = {**e.to_json(), field: value}
    msg = one_line_error(WireError, Event.from_json, data)
    assert f"event {e.TYPE}: {field}" in msg


def test_wire_errors_belong_to_the_error_family() -> None:
    assert issubclass(WireError, BonepileError) and issubclass(WireError, ValueError)
    with pytest.raises(ValueError):
        Event.from_json({"type": "led", "seat": "zero", "tile": "6-6"})


# ------------------------------------------------------------------------------ results
@pytest.mark.parametrize(
    "r",
    [
        Result("domino", (0,), (12, 0)),
        Result("blocked", (), (0, 0, 0)),
        Result("blocked", (1, 2), (0, 7, 7)),
        Result("victory_total", (0, 2), (0, 0, 0, 0)),
        Result("last_draw", (1,), (0, 0)),
        Result("board_full", (), (0, 0)),
    ],
    ids=repr,
)
def test_results_round_trip(r: Result) -> None:
    assert_result_round_trips(r)
    assert_event_round_trips(HandEnded(r))
    assert copy.deepcopy(r) == r


def test_every_reason_is_accepted() -> None:
    for reason in REASONS:
        data = {"reason": reason, "winners": [], "points": [0, 0]}
        assert Result.from_json(data).reason == reason


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (None, "object"),
        ([], "object"),
        ({"reason": "domino", "winners": [0]}, 'missing key "points"'),
        ({"winners": [0], "points": [1, 0]}, 'missing key "reason"'),
        ({"reason": "domino", "winners": [0], "points": [1, 0], "x": 1}, 'unknown key "x"'),
        ({"reason": "won", "winners": [0], "points": [1, 0]}, "reason"),
        ({"reason": 1, "winners": [0], "points": [1, 0]}, "reason"),
        ({"reason": "domino", "winners": 0, "points": [1, 0]}, "winners"),
        ({"reason": "domino", "winners": [True], "points": [1, 0]}, "winners"),
        ({"reason": "domino", "winners": ["0"], "points": [1, 0]}, "winners"),
        ({"reason": "domino", "winners": [0], "points": "10"}, "points"),
        ({"reason": "domino", "winners": [0], "points": [1.5, 0]}, "points"),
        ({"reason": "domino", "winners": [0], "points": None}, "points"),
        ({"reason": "domino", "winners": [2], "points": [1, 0]}, "winners"),
        ({"reason": "domino", "winners": [-1], "points": [1, 0]}, "winners"),
        ({"reason": "blocked", "winners": [1, 0], "points": [1, 1]}, "winners"),
        ({"reason": "blocked", "winners": [1, 1], "points": [1, 1]}, "winners"),
    ],
)
def test_result_from_json_refuses_bad_data(data: Any, words: str) -> None:
    msg = one_line_error(WireError, Result.from_json, data)
    assert msg.startswith("result: ") and words in msg


def test_results_are_immutable() -> None:
    r = Result("domino", (0,), (12, 0))
    with pytest.raises(AttributeError):
        r.reason = "blocked"  # type: ignore[misc]
