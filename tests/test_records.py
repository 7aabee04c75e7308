"""Game records, format ``bonepile-record/1``, and the position summary (docs/records.md):
writing, reading, round trips, validation and a fuzz test of the reader.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonepile.actions import parse_action
from bonepile.errors import RecordError
from bonepile.games import get_game
from bonepile.record import dump_record, load_record, read_record, record_of, save_record
from bonepile.state import State
from bonepile.tiles import Tile, parse_tile, tile_set

pytestmark = pytest.mark.engine

FORMAT = "bonepile-record/1"
SUMMARY_KEYS = {"game", "over", "actor", "legal", "hands", "boneyard", "scores", "result"}
REASONS = {"domino", "blocked", "victory_total", "last_draw", "board_full"}
TILE_RE = re.compile(r"^(\d+)-(\d+)$")


# --------------------------------------------------------------------------- helpers
def shuffled_deal(
    players: int, size: int, seed: int, max_pip: int = 6
) -> tuple[list[list[Tile]], list[Tile]]:
    tiles = list(tile_set(max_pip))
    random.Random(seed).shuffle(tiles)
    hands = [tiles[i * size : (i + 1) * size] for i in range(players)]
    return hands, tiles[players * size :]


def play_random(s: State, rng: random.Random, limit: int | None = None) -> State:
    n = 0
    while not s.is_over and (limit is None or n < limit):
        s = s.apply(rng.choice(s.legal_actions()))
        n += 1
    return s


def explicit_state(moves: int | None = 6, seed: int = 3) -> State:
    hands, bone = shuffled_deal(2, 7, seed)
    s = get_game("block").new(2, deal=(hands, bone))
    return play_random(s, random.Random(seed), moves)


def base_record() -> dict[str, Any]:
    """A valid explicit-deal record of a block hand, 6 moves in."""
    rec = record_of(explicit_state(6))
    assert len(rec["moves"]) == 6
    return rec


def seeded_record() -> dict[str, Any]:
    s = get_game("draw").new(3, options={"draw_mode": "one"}, seed=77)
    return record_of(play_random(s, random.Random(1), 8))


def record_error(source: Any) -> str:
    """Read ``source``, expect a RecordError, and return its (one-line) message."""
    with pytest.raises(RecordError) as info:
        read_record(source)
    msg = str(info.value)
    assert msg.strip(), "empty message"
    assert "\n" not in msg, f"message is not one line: {msg!r}"
    return msg


def canonical(text: str) -> bool:
    m = TILE_RE.match(text)
    return m is not None and int(m.group(1)) >= int(m.group(2))


# --------------------------------------------------------------------------- writing
def test_record_of_explicit_deal() -> None:
    s0 = explicit_state(0)
    s = explicit_state(6)
    rec = record_of(s)
    assert rec["format"] == FORMAT
    assert rec["game"] == "block"
    assert rec["players"] == 2
    assert "seed" not in rec
    allowed = {"format", "game", "players", "options", "deal", "moves", "board", "headers"}
    assert set(rec) <= allowed | {"scores_before", "result"}
    hands = rec["deal"]["hands"]
    assert [sorted(h) for h in hands] == [sorted(str(t) for t in s0.hand(i)) for i in range(2)]
    assert rec["deal"]["boneyard"] == [str(t) for t in s0.boneyard]  # drawing order
    assert all(canonical(t) for h in hands for t in h)
    assert all(canonical(t) for t in rec["deal"]["boneyard"])
    assert rec["moves"] == [str(a) for a in s.moves]
    assert len(rec["moves"]) == 6
    assert get_game("block").make_options(rec.get("options", {})) == s.options
    assert rec.get("result") is None  # the hand is still running
    json.dumps(rec)


def test_record_of_seeded_game_and_result() -> None:
    s = get_game("draw").new(3, options={"spinner": True, "reserve": 2}, seed=4242)
    s = play_random(s, random.Random(5))
    rec = record_of(s)
    assert rec["seed"] == 4242
    assert "deal" not in rec
    assert rec["game"] == "draw" and rec["players"] == 3
    opts = rec["options"]
    assert opts.get("spinner") is True and opts.get("reserve") == 2
    assert get_game("draw").make_options(opts) == s.options
    assert s.result is not None
    assert rec["result"] == {
        "reason": s.result.reason,
        "winners": list(s.result.winners),
        "points": list(s.result.points),
    }
    assert all(isinstance(m, str) for m in rec["moves"])
    assert [parse_action(m) for m in rec["moves"]] == list(s.moves)


def test_dump_save_load(tmp_path: Path) -> None:
    s = explicit_state(None)
    text = dump_record(s, headers={"event": "club night"})
    data = json.loads(text)
    assert data == record_of(s, headers={"event": "club night"})
    assert data["headers"] == {"event": "club night"}
    assert read_record(text) == s
    path = tmp_path / "hand.json"
    save_record(s, path, headers={"event": "club night", "date": "2024-05-01"})
    loaded = load_record(path)
    assert loaded == s
    assert loaded.summary() == s.summary()
    assert json.loads(path.read_text(encoding="utf-8"))["headers"]["date"] == "2024-05-01"
    assert load_record(str(path)) == s


def test_scores_before_written_and_read() -> None:
    hands = [["6-6", "5-0"], ["5-2", "2-0"], ["5-5", "4-0"]]
    deal = _deal(hands)
    s = get_game("block").new(3, options={"hand_size": 2}, deal=deal, scores_before=[10, 20, 30])
    s = s.apply(parse_action("6-6"))
    rec = record_of(s)
    assert rec["scores_before"] == [10, 20, 30]
    r = read_record(rec)
    assert r == s
    assert r.scores_before == (10, 20, 30)
    # blocked at once: P0 (5 pips) scores 9 + 14 - 5 = 18
    assert r.summary()["scores"] == [28, 20, 30]
    assert r.summary()["result"] == {"reason": "blocked", "winners": [0], "points": [18, 0, 0]}


# --------------------------------------------------------------------------- round trips
ROUND_TRIP_CASES = [
    ("block", 2, {}),
    ("block", 4, {"teams": True}),
    ("block", 3, {"spinner": True, "lead": "seat0_any"}),
    ("block", 2, {"max_pip": 9}),
    ("draw", 2, {}),
    ("draw", 3, {"draw_mode": "one", "reserve": 2}),
    ("draw", 4, {"teams": True, "spinner": True, "blocked_tie": "lightest_tile"}),
    ("draw", 5, {"max_pip": 12, "hand_size": 6}),
    ("draw", 2, {"hand_size": 3, "target_score": 61}),
]


@pytest.mark.parametrize(("game", "players", "options"), ROUND_TRIP_CASES)
@pytest.mark.parametrize("seed", [1, 2])
def test_round_trip_seeded(game: str, players: int, options: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    s = get_game(game).new(players, options=options, seed=1000 + seed)
    states = [s]
    while not s.is_over:
        s = s.apply(rng.choice(s.legal_actions()))
        states.append(s)
    for st_ in (states[0], states[len(states) // 2], states[-1]):
        _check_round_trip(st_)


@pytest.mark.parametrize(("game", "players", "options"), ROUND_TRIP_CASES)
def test_round_trip_explicit_deal(game: str, players: int, options: dict[str, Any]) -> None:
    g = get_game(game)
    opts = g.make_options(options)
    hands, bone = shuffled_deal(players, g.hand_size(players, opts), 31, opts.max_pip)
    s = g.new(players, options=options, deal=(hands, bone), scores_before=list(range(players)))
    rng = random.Random(8)
    states = [s]
    while not s.is_over:
        s = s.apply(rng.choice(s.legal_actions()))
        states.append(s)
    for st_ in (states[0], states[1], states[len(states) // 2], states[-1]):
        _check_round_trip(st_)


def _check_round_trip(s: State) -> None:
    rec = record_of(s)
    back = read_record(rec)
    assert back == s
    assert back.summary() == s.summary()
    assert back.moves == s.moves
    assert back.result == s.result
    text = dump_record(s)
    assert read_record(text) == s
    assert read_record(json.loads(text)).summary() == s.summary()
    assert record_of(back) == rec


def test_alternative_tile_notation_is_read() -> None:
    rec = base_record()
    alt = copy.deepcopy(rec)

    def spell(t: str) -> str:
        hi, lo = t.split("-")
        return f"[{lo}|{hi}]"

    alt["deal"]["hands"] = [[spell(t) for t in h] for h in rec["deal"]["hands"]]
    alt["deal"]["boneyard"] = [t.replace("-", ":") for t in rec["deal"]["boneyard"]]
    assert read_record(alt) == read_record(rec)


def test_boneyard_is_drawn_from_the_front() -> None:
    hands = [["6-6", "0-0"], ["1-0", "2-1"]]
    rec = {
        "format": FORMAT,
        "game": "draw",
        "players": 2,
        "options": {"hand_size": 2},
        "deal": {"hands": hands, "boneyard": [str(t) for t in _deal(hands, ["3-1", "4-2"])[1]]},
        "moves": ["6-6", "draw"],
    }
    s = read_record(rec)
    assert sorted(str(t) for t in s.hand(1)) == ["1-0", "2-1", "3-1"]
    assert str(s.boneyard[0]) == "4-2"
    assert s.summary()["boneyard"] == 23


def _deal(
    hands: list[list[str]], front: list[str] | None = None
) -> tuple[list[list[Tile]], list[Tile]]:
    hs = [[parse_tile(x) for x in h] for h in hands]
    f = [parse_tile(x) for x in front or []]
    used = {t for h in hs for t in h} | set(f)
    return hs, f + [t for t in tile_set(6) if t not in used]


# --------------------------------------------------------------------------- summary
def test_summary_at_the_start() -> None:
    s = explicit_state(0)
    summ = s.summary()
    assert set(summ) >= SUMMARY_KEYS
    assert summ["game"] == "block"
    assert summ["over"] is False
    assert summ["actor"] == s.actor and summ["actor"] in (0, 1)
    assert sorted(summ["legal"]) == sorted(str(a) for a in s.legal_actions())
    assert len(summ["legal"]) == 1  # the holder of the highest double leads it
    assert [sorted(h) for h in summ["hands"]] == [
        sorted(str(t) for t in s.hand(i)) for i in range(2)
    ]
    assert all(canonical(t) for h in summ["hands"] for t in h)
    assert [len(h) for h in summ["hands"]] == [7, 7]
    assert summ["boneyard"] == 14
    assert summ["scores"] == [0, 0]
    assert summ["result"] is None
    json.dumps(summ)


def test_summary_when_over() -> None:
    hands = [["6-6", "5-0"], ["5-2", "2-0"], ["5-5", "4-0"]]
    rec = {
        "format": FORMAT,
        "game": "block",
        "players": 3,
        "options": {"hand_size": 2},
        "deal": {"hands": hands, "boneyard": [str(t) for t in _deal(hands)[1]]},
        "moves": ["6-6"],
    }
    s = read_record(rec)
    summ = s.summary()
    assert set(summ) >= SUMMARY_KEYS
    assert summ["over"] is True
    assert summ["actor"] is None
    assert summ["legal"] == []
    assert [sorted(h) for h in summ["hands"]] == [["5-0"], ["2-0", "5-2"], ["4-0", "5-5"]]
    assert summ["boneyard"] == 22
    assert summ["result"] == {"reason": "blocked", "winners": [0], "points": [18, 0, 0]}
    assert summ["scores"] == [18, 0, 0]
    json.dumps(summ)


@pytest.mark.parametrize("seed", range(6))
def test_summary_consistency_through_a_game(seed: int) -> None:
    rng = random.Random(seed)
    game = rng.choice(("block", "draw"))
    s = get_game(game).new(4, options={"teams": seed % 2 == 0}, seed=seed)
    while True:
        summ = s.summary()
        assert set(summ) >= SUMMARY_KEYS
        assert summ["game"] == game
        assert summ["over"] is s.is_over
        assert summ["boneyard"] == s.boneyard_size
        assert (
            sum(len(h) for h in summ["hands"]) + summ["boneyard"] + len(s.layout.placements) == 28
        )
        if s.is_over:
            assert summ["actor"] is None and summ["legal"] == []
            assert summ["result"]["reason"] in REASONS
            assert summ["result"]["winners"] == sorted(summ["result"]["winners"])
            assert summ["scores"] == summ["result"]["points"]
            break
        assert summ["result"] is None and summ["legal"]
        s = s.apply(rng.choice(s.legal_actions()))


# --------------------------------------------------------------------------- validation
def test_not_json() -> None:
    for text in ("{", "", "nonsense", '{"format": "bonepile-record/1",', "{'a': 1}", "[1,"):
        assert "JSON" in record_error(text)


def test_huge_json_number_is_a_record_error() -> None:
    # valid JSON whose integer Python refuses to convert (more than 4300 digits)
    rec = json.dumps(base_record())
    text = rec.replace('"players": 2', '"players": ' + "1" * 5000)
    assert text != rec
    record_error(text)


def test_huge_option_value_is_a_record_error() -> None:
    # a 4300-digit hand size: valid JSON, clearly too big for the set
    rec = seeded_record()
    rec["options"] = {"hand_size": int("9" * 4300)}
    msg = record_error(json.dumps(rec))
    assert "hand_size" in msg or "players" in msg


@pytest.mark.parametrize("text", ["[]", "42", '"record"', "null", "true", "[{}]"])
def test_not_an_object(text: str) -> None:
    record_error(text)
    record_error(json.loads(text))


Mutation = Callable[[dict[str, Any]], Any]


def _set(key: str, value: Any) -> Mutation:
    def f(r: dict[str, Any]) -> None:
        r[key] = value

    return f


def _del(key: str) -> Mutation:
    def f(r: dict[str, Any]) -> None:
        del r[key]

    return f


def _opts(value: Any) -> Mutation:
    return _set("options", value)


def _move_first_tile_to_boneyard(r: dict[str, Any]) -> None:
    r["deal"]["boneyard"].append(r["deal"]["hands"][0].pop(0))


def _dup_tile(r: dict[str, Any]) -> None:
    r["deal"]["boneyard"][0] = r["deal"]["hands"][0][0]


def _three_hands(r: dict[str, Any]) -> None:
    r["deal"]["hands"].append([])


def _one_hand(r: dict[str, Any]) -> None:
    r["deal"]["boneyard"] += r["deal"]["hands"].pop()


# (id, mutation of the explicit base record, words the message must contain)
INVALID: list[tuple[str, Mutation, tuple[str, ...]]] = [
    ("missing format", _del("format"), ("format",)),
    ("format v9", _set("format", "bonepile-record/9"), ("format",)),
    ("format int", _set("format", 1), ("format",)),
    ("format null", _set("format", None), ("format",)),
    ("missing game", _del("game"), ("game",)),
    ("unknown game", _set("game", "chess"), ("game", "chess")),
    ("game int", _set("game", 5), ("game",)),
    ("game list", _set("game", ["block"]), ("game",)),
    ("alias sd", _set("game", "sd"), ("game",)),
    ("alias super", _set("game", "super"), ("game",)),
    ("missing players", _del("players"), ("players",)),
    ("one player", _set("players", 1), ("players",)),
    ("five players", _set("players", 5), ("players",)),
    ("players string", _set("players", "2"), ("players",)),
    ("players bool", _set("players", True), ("players",)),
    ("players float", _set("players", 2.0), ("players",)),
    ("players null", _set("players", None), ("players",)),
    ("unknown option", _opts({"spinners": True}), ("spinners",)),
    ("other game's option", _opts({"draw_when_unable": 2}), ("draw_when_unable",)),
    ("spinner string", _opts({"spinner": "yes"}), ("spinner",)),
    ("teams int", _opts({"teams": 1}), ("teams",)),
    ("max_pip 7", _opts({"max_pip": 7}), ("max_pip",)),
    ("max_pip string", _opts({"max_pip": "6"}), ("max_pip",)),
    ("reserve negative", _opts({"reserve": -1}), ("reserve",)),
    ("hand_size string", _opts({"hand_size": "7"}), ("hand_size",)),
    ("hand_size zero", _opts({"hand_size": 0}), ("hand_size",)),
    ("lead int", _opts({"lead": 3}), ("lead",)),
    ("lead unknown", _opts({"lead": "youngest"}), ("lead",)),
    ("draw_mode unknown", _opts({"draw_mode": "two"}), ("draw_mode",)),
    ("blocked_tie unknown", _opts({"blocked_tie": "split"}), ("blocked_tie",)),
    ("target_score string", _opts({"target_score": "100"}), ("target_score",)),
    ("target_score zero", _opts({"target_score": 0}), ("target_score",)),
    ("options list", _opts([]), ("options",)),
    ("options string", _opts("spinner"), ("options",)),
    ("teams with 2 players", _opts({"teams": True}), ("teams",)),
    ("both deal and seed", _set("seed", 7), ("deal", "seed")),
    ("neither deal nor seed", _del("deal"), ("deal", "seed")),
    ("deal list", _set("deal", []), ("deal",)),
    ("deal string", _set("deal", "6-6 5-5"), ("deal",)),
    ("deal without hands", lambda r: r["deal"].pop("hands"), ("deal",)),
    ("boneyard not a list", lambda r: r["deal"].update(boneyard="6-6"), ("deal",)),
    ("missing tile", lambda r: r["deal"]["boneyard"].pop(), ("deal",)),
    ("duplicate tile", _dup_tile, ("deal",)),
    ("foreign tile", lambda r: r["deal"]["boneyard"].append("7-1"), ("deal", "7-1")),
    ("foreign tile in hand", lambda r: r["deal"]["hands"][1].__setitem__(0, "9-9"), ("deal",)),
    ("garbled tile", lambda r: r["deal"]["boneyard"].__setitem__(0, "x-y"), ("deal",)),
    ("tile not a string", lambda r: r["deal"]["boneyard"].__setitem__(0, 64), ("deal",)),
    ("wrong hand size", _move_first_tile_to_boneyard, ("deal", "hand")),
    ("three hands", _three_hands, ("deal",)),
    ("one hand", _one_hand, ("deal",)),
    ("unknown key", _set("comment", "nice hand"), ("comment",)),
    ("unknown key case", _set("Moves", []), ("Moves",)),
    ("headers string", _set("headers", "club night"), ("headers",)),
    ("headers list", _set("headers", ["club night"]), ("headers",)),
    ("headers int value", _set("headers", {"round": 3}), ("headers",)),
    ("headers null value", _set("headers", {"event": None}), ("headers",)),
    ("scores_before short", _set("scores_before", [1]), ("scores_before",)),
    ("scores_before long", _set("scores_before", [1, 2, 3]), ("scores_before",)),
    ("scores_before string item", _set("scores_before", [1, "2"]), ("scores_before",)),
    ("scores_before bool", _set("scores_before", [True, 0]), ("scores_before",)),
    ("scores_before float", _set("scores_before", [1.5, 0]), ("scores_before",)),
    ("scores_before string", _set("scores_before", "0,0"), ("scores_before",)),
    ("scores_before object", _set("scores_before", {"0": 1}), ("scores_before",)),
    ("moves string", _set("moves", "6-6"), ("moves",)),
    ("moves object", _set("moves", {"0": "6-6"}), ("moves",)),
]


@pytest.mark.parametrize(("mutate", "words"), [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_invalid_record(mutate: Mutation, words: tuple[str, ...]) -> None:
    rec = base_record()
    read_record(rec)  # the base is valid
    mutate(rec)
    msg = record_error(rec)
    for w in words:
        assert w in msg, f"{w!r} not named in {msg!r}"
    # the same through the text path
    assert record_error(json.dumps(rec)) == msg


@pytest.mark.parametrize("name", ["Block", "BLOCK", " block", "Draw"])
def test_game_name_must_be_canonical(name: str) -> None:
    rec = base_record()
    rec["game"] = name
    assert "game" in record_error(rec)


def test_aliases_work_outside_records() -> None:
    # the alias tests above are meaningful: these names are real aliases
    assert get_game("sd").name == "super_dominoes"
    assert get_game("super").name == "super_dominoes"


@pytest.mark.parametrize("seed", ["7", 1.5, True, None, [7]])
def test_bad_seed(seed: Any) -> None:
    rec = seeded_record()
    rec["seed"] = seed
    assert "seed" in record_error(rec)


@pytest.mark.parametrize("players", [1, 5, 0, -2, "3", True, None])
def test_bad_players_with_options(players: Any) -> None:
    rec = seeded_record()  # has options: {"draw_mode": "one"}
    rec["players"] = players
    assert "players" in record_error(rec)


@pytest.mark.parametrize("index", [0, 2, 5])
@pytest.mark.parametrize("text", ["banana", "6-6@", "@6-6", "6-6-6", "7@", "", "dra w"])
def test_garbled_move(index: int, text: str) -> None:
    rec = base_record()
    rec["moves"][index] = text
    msg = record_error(rec)
    assert f"moves[{index}]" in msg
    if text:
        assert text in msg


@pytest.mark.parametrize("value", [7, None, ["6-6"], {"move": "6-6"}, True])
def test_move_not_a_string(value: Any) -> None:
    rec = base_record()
    rec["moves"][1] = value
    assert "moves[1]" in record_error(rec)


def test_illegal_moves() -> None:
    rec = base_record()
    s = read_record({**rec, "moves": rec["moves"][:3]})
    assert s.actor is not None
    held = {str(t) for t in s.hand(s.actor)}
    other = {str(t) for t in s.hand(1 - s.actor)}
    legal = {str(a) for a in s.legal_actions()}
    on_table = [str(p.tile) for p in s.layout.placements]
    candidates = ["draw", "pass", sorted(other)[0], f"{sorted(other)[0]}@{on_table[0]}"]
    candidates += sorted(held)  # a lead in the middle of the hand
    candidates += [f"{t}@{u}" for t in sorted(held) for u in on_table]
    candidates = [c for c in candidates if c not in legal]
    assert len(candidates) >= 5
    for text in candidates:
        bad = copy.deepcopy(rec)
        bad["moves"][3] = text
        msg = record_error(bad)
        assert "moves[3]" in msg and text in msg


def test_move_after_the_end_and_draw_in_block() -> None:
    s = explicit_state(None)
    rec = record_of(s)
    n = len(rec["moves"])
    for extra in ("pass", "draw", rec["moves"][-1]):
        bad = {**rec, "moves": [*rec["moves"], extra]}
        msg = record_error(bad)
        assert f"moves[{n}]" in msg
    first = {**rec, "moves": ["draw"]}
    assert "moves[0]" in record_error(first)


def test_illegal_move_in_seeded_draw_record() -> None:
    rec = seeded_record()
    s = read_record({**rec, "moves": rec["moves"][:5]})
    assert s.actor is not None
    legal = {str(a) for a in s.legal_actions()}
    wrong = next(x for x in ("pass", "draw", "0-0", "6-6@6-6") if x not in legal)
    rec["moves"][5] = wrong
    msg = record_error(rec)
    assert "moves[5]" in msg and wrong in msg


def test_optional_keys_accepted() -> None:
    rec = base_record()
    ref = read_record(rec)
    with_all = {
        **rec,
        "headers": {"event": "club night", "date": "2024-05-01", "P0": "Ann", "P1": "Bo"},
        "scores_before": [40, 95],
        "result": {"reason": "nonsense", "winners": [7], "points": [1000]},
    }
    s = read_record(with_all)
    assert s.moves == ref.moves and s._hands == ref._hands
    assert s.scores_before == (40, 95)
    assert s.result == ref.result  # the stored result is ignored
    for junk in (42, "whatever", None, [], {"reason": "domino"}):
        assert read_record({**rec, "result": junk}) == ref
    assert read_record({**rec, "headers": {}}) == ref
    # options may be omitted or partial
    no_opts = {k: v for k, v in rec.items() if k != "options"}
    assert read_record(no_opts) == ref
    assert read_record({**rec, "options": {"spinner": False}}) == ref
    # a finished hand's own result round-trips as an ignored key
    done = record_of(explicit_state(None))
    assert "result" in done
    assert read_record(done).result is not None


def test_null_target_score_is_accepted() -> None:
    # docs/games/block.md, "Options": target_score is Optional[int] (null: a single hand)
    rec = seeded_record()
    rec["options"] = {**rec["options"], "target_score": None}
    s = read_record(rec)
    assert s.options.target_score is None
    assert record_of(s)["options"].get("target_score", "missing") is None


def test_result_of_record_is_recomputed() -> None:
    s = explicit_state(None)
    rec = record_of(s)
    rec["result"] = {"reason": "domino", "winners": [1], "points": [0, 999]}
    assert read_record(rec).result == s.result


def test_load_record_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordError):
        load_record(tmp_path / "missing.json")
    with pytest.raises(RecordError):
        load_record(tmp_path)
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"format": "bonepile-record/1", "game": "\xe9"}')
    with pytest.raises(RecordError):
        load_record(bad)
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        load_record(broken)
    assert "\n" not in str(info.value)


# --------------------------------------------------------------------------- fuzzing the reader
def _outcome(source: Any) -> None:
    """The reader returns a State or raises RecordError with a one-line message."""
    try:
        s = read_record(source)
    except RecordError as e:
        assert "\n" not in str(e)
        return
    assert isinstance(s, State)


def _bases() -> list[dict[str, Any]]:
    out = [base_record(), seeded_record(), record_of(explicit_state(None, seed=11))]
    hands, bone = shuffled_deal(4, 7, 5)
    t = get_game("draw").new(
        4, options={"teams": True, "spinner": True}, deal=(hands, bone), scores_before=[1, 2, 3, 4]
    )
    out.append(record_of(play_random(t, random.Random(2), 9), headers={"event": "x"}))
    sd = get_game("super_dominoes").new(3, seed=12)
    out.append(record_of(play_random(sd, random.Random(3), 6)))
    for rec in out:
        read_record(rec)
    return out


BASES = _bases()

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["6-6", "6-4@6-6", "draw", "pass", "block", "draw", "7-1", "15-15", ""]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
ALL_TILES = [str(t) for t in tile_set(15)]
tile_texts = st.one_of(
    st.sampled_from(ALL_TILES),
    st.sampled_from(["7-1", "19-0", "6-6-6", "x", "", "[6|4]", "4:6", " 6 - 4 ", "-1-2"]),
    st.text(max_size=6),
)
move_texts = st.one_of(
    st.sampled_from(["draw", "pass", "DRAW", " pass ", "stop", "discard 6-6", "3-6@8G8H"]),
    tile_texts,
    st.builds(lambda a, b: f"{a}@{b}", tile_texts, tile_texts),
    st.text(max_size=10),
)
option_names = st.sampled_from(
    [
        "max_pip",
        "hand_size",
        "teams",
        "lead",
        "spinner",
        "draw_mode",
        "reserve",
        "blocked_tie",
        "target_score",
        "draw_when_unable",
        "starter_choice",
        "doubles_branch",
        "unknown",
    ]
)
option_values = st.one_of(
    json_values,
    st.sampled_from([6, 9, 12, 15, 7, 0, 1, 2, 3, -1, 100, True, False, None]),
    st.sampled_from(["highest_double", "seat0_any", "until_playable", "one", "lightest_tile"]),
)


def _mutate(rec: dict[str, Any], data: st.DataObject) -> None:
    kind = data.draw(
        st.sampled_from(
            [
                "set_top",
                "del_top",
                "add_top",
                "option",
                "del_option",
                "deal_swap",
                "deal_move",
                "deal_dup",
                "deal_drop",
                "move_insert",
                "move_replace",
                "move_truncate",
                "move_shuffle",
                "move_swap",
                "players",
            ]
        )
    )
    keys = sorted(rec)
    if kind == "set_top":
        rec[data.draw(st.sampled_from(keys))] = data.draw(json_values)
    elif kind == "del_top":
        rec.pop(data.draw(st.sampled_from(keys)), None)
    elif kind == "add_top":
        rec[data.draw(st.text(max_size=10))] = data.draw(json_values)
    elif kind == "option":
        opts = rec.get("options")
        if not isinstance(opts, dict):
            opts = rec["options"] = {}
        opts[data.draw(option_names)] = data.draw(option_values)
    elif kind == "del_option":
        opts = rec.get("options")
        if isinstance(opts, dict) and opts:
            opts.pop(data.draw(st.sampled_from(sorted(opts))))
    elif kind == "players":
        rec["players"] = data.draw(st.one_of(st.integers(-2, 10), json_values))
    elif kind.startswith("deal"):
        deal = rec.get("deal")
        if not isinstance(deal, dict):
            rec["deal"] = data.draw(json_values)
            return
        piles = [*deal.get("hands", []), deal.get("boneyard", [])]
        piles = [p for p in piles if isinstance(p, list)]
        nonempty = [p for p in piles if p]
        if not nonempty:
            return
        src = data.draw(st.sampled_from(nonempty))
        i = data.draw(st.integers(0, len(src) - 1))
        if kind == "deal_swap":
            src[i] = data.draw(st.one_of(tile_texts, json_values))
        elif kind == "deal_move":
            dst = data.draw(st.sampled_from(piles))
            dst.append(src.pop(i))
        elif kind == "deal_dup":
            dst = data.draw(st.sampled_from(piles))
            dst.append(src[i])
        else:
            src.pop(i)
    else:
        moves = rec.get("moves")
        if not isinstance(moves, list):
            rec["moves"] = data.draw(st.lists(move_texts, max_size=4))
            return
        if kind == "move_insert":
            at = data.draw(st.integers(0, len(moves)))
            moves.insert(at, data.draw(st.one_of(move_texts, json_values)))
        elif not moves:
            return
        elif kind == "move_replace":
            at = data.draw(st.integers(0, len(moves) - 1))
            moves[at] = data.draw(move_texts)
        elif kind == "move_truncate":
            del moves[data.draw(st.integers(0, len(moves) - 1)) :]
        elif kind == "move_shuffle":
            data.draw(st.randoms(use_true_random=False)).shuffle(moves)
        else:
            i = data.draw(st.integers(0, len(moves) - 1))
            j = data.draw(st.integers(0, len(moves) - 1))
            moves[i], moves[j] = moves[j], moves[i]


FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(st.data())
def test_fuzz_mutated_records(data: st.DataObject) -> None:
    rec = copy.deepcopy(data.draw(st.sampled_from(BASES)))
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(rec, data)
    _outcome(rec)
    try:
        text = json.dumps(rec)
    except ValueError:
        return
    _outcome(text)


@FUZZ
@given(st.data())
def test_fuzz_mutated_text(data: st.DataObject) -> None:
    text = json.dumps(data.draw(st.sampled_from(BASES)))
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["cut", "insert", "delete", "replace"]))
        if op == "cut":
            text = text[:i]
        elif op == "insert":
            text = text[:i] + data.draw(st.text(max_size=5)) + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + data.draw(st.integers(1, 5)) :]
        else:
            text = (
                text[:i] + data.draw(st.sampled_from(list('{}[]",:0123456789-@ '))) + text[i + 1 :]
            )
    _outcome(text)
    _outcome(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=60), st.binary(max_size=40)))
def test_fuzz_arbitrary_text(text: str | bytes) -> None:
    _outcome(text)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_fuzz_arbitrary_json(value: Any) -> None:
    _outcome(value)
    _outcome(json.dumps(value))


@settings(max_examples=120, deadline=None)
@given(
    st.fixed_dictionaries(
        {
            "format": st.one_of(st.just(FORMAT), json_values),
            "game": st.one_of(st.sampled_from(["block", "draw", "super_dominoes"]), json_values),
            "players": st.one_of(st.integers(0, 9), json_values),
        },
        optional={
            "options": st.dictionaries(option_names, option_values, max_size=3),
            "seed": st.one_of(st.integers(), json_values),
            "deal": json_values,
            "moves": st.lists(move_texts, max_size=6),
            "headers": json_values,
            "scores_before": st.one_of(st.lists(st.integers(), max_size=5), json_values),
            "result": json_values,
            "board": json_values,
        },
    )
)
def test_fuzz_structured_records(rec: dict[str, Any]) -> None:
    _outcome(rec)
    _outcome(json.dumps(rec))
