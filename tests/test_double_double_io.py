"""Double Double Dominoes beyond the rules: views and redaction, records with boards, the
command line (``board``, ``--board``, ``watch``, ``simulate``, ``replay``, ``perft``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bonepile.actions import Discard, Place, parse_action
from bonepile.errors import OptionError, RecordError
from bonepile.events import Discarded, Drew
from bonepile.games import get_game
from bonepile.games.double_double import position
from bonepile.grid import format_cell, load_board, standard_board
from bonepile.record import read_record, record_of
from bonepile.state import State
from bonepile.view import view
from cli_helpers import bad, ok, run

pytestmark = pytest.mark.engine

GAME = get_game("double_double")


def played(players: int = 2, seed: int = 1, board: Any = None) -> list[State]:
    s = GAME.new(players, seed=seed, board=board)
    rng = random.Random(seed)
    out = [s]
    while not s.is_over:
        s = s.apply(rng.choice(s.legal_actions()))
        out.append(s)
    return out


# ------------------------------------------------------------------------------ the start
def test_the_first_player_has_drawn_before_the_first_decision() -> None:
    s = GAME.new(2, seed=3)
    first = s.actor
    assert first is not None
    assert [s.hand_size(p) for p in range(2)] == [4 if p == first else 3 for p in range(2)]
    assert s.boneyard_size == 56 - 6 - 1
    summary = s.summary()
    assert summary["boneyard"] == 49 and summary["scores"] == [0, 0]
    dealt, boneyard = s.deal
    assert [len(h) for h in dealt] == [3, 3] and len(boneyard) == 50
    assert boneyard[0] in s.hand(first)


def test_six_players_use_three_sets() -> None:
    s = GAME.new(6, seed=2)
    assert s.boneyard_size == 84 - 18 - 1
    with pytest.raises(OptionError):
        GAME.new(7, seed=2)
    assert GAME.new(6, seed=2, options={"domino_sets": 1}).boneyard_size == 28 - 18 - 1


# ------------------------------------------------------------------------------ views
def test_views_hide_other_hands_draws_discards_and_the_pit() -> None:
    # A position where P0 can place nothing and must discard: then P1 and a spectator must
    # not learn which tile went into the pit, nor what anyone else drew.
    s = position(
        2,
        [["1-1", "1-0", "0-0"], ["5-5", "5-4", "4-4"]],
        placed=["6-6@8G8H", "6-2@8I8J"],
        pit=["3-3"],
    )
    legal = {str(a) for a in s.legal_actions()}
    assert legal == {"discard 1-1", "discard 1-0", "discard 0-0"}
    s, events = s.step(parse_action("discard 1-0"))
    assert any(isinstance(e, Discarded) and e.tile is not None for e in events)
    assert len(s.pit_tiles) == 2
    own = view(s, 0).to_json()
    other = view(s, 1).to_json()
    spectator = view(s, None).to_json()
    assert own["history"][0]["action"] == "discard 1-0"
    for v in (other, spectator):
        assert v["history"][0]["action"] == "discard ?"
        discards = [e for e in v["history"][0]["events"] if e["type"] == "discarded"]
        assert discards == [{"type": "discarded", "seat": 0, "tile": None}]
    for v in (own, other, spectator):
        assert v["public"]["pit"] == 2
        assert "3-3" not in json.dumps(v["public"])
    # P0 refilled from the boneyard and P1 drew to start its turn: each sees only its own
    for seat, v in ((0, own), (1, other)):
        for e in v["history"][0]["events"]:
            if e["type"] == "drew":
                assert (e["tiles"] is None) == (e["seat"] != seat)


def test_random_games_never_show_another_seat_its_draws_or_discards() -> None:
    for seed in range(6):
        states = played(3, seed, board="small")
        final = states[-1]
        for seat in (0, 1, 2, None):
            v = view(final, seat)
            for turn in v.history:
                if turn.seat != seat and isinstance(turn.action, Discard):
                    assert turn.action.tile is None
                for e in turn.events:
                    if isinstance(e, Drew | Discarded) and e.seat != seat:
                        assert (e.tiles if isinstance(e, Drew) else e.tile) is None
        mid = states[len(states) // 2]
        if not mid.is_over:
            for seat in (0, 1, 2):
                data = view(mid, seat).to_json()
                assert data["hand"] == [str(t) for t in mid.hand(seat)]
                assert data["revealed"] is None
                assert data["legal"] == ([] if seat != mid.actor else data["legal"])


def test_a_discard_notation_round_trips_and_so_does_the_hidden_one() -> None:
    a = parse_action("discard 6-4")
    assert isinstance(a, Discard) and str(a) == "discard 6-4"
    hidden = a.redacted()
    assert str(hidden) == "discard ?"
    assert parse_action("discard ?") is hidden and hidden == Discard(None)


# ------------------------------------------------------------------------------ records
def test_record_on_a_shipped_board_carries_the_board() -> None:
    final = played(2, 5, board="tiny")[-1]
    rec = record_of(final)
    assert rec["board"]["name"] == "tiny" and rec["board"]["rows"] == 3
    back = read_record(json.loads(json.dumps(rec)))
    assert back == final and back.result == final.result
    named = {**rec, "board": "tiny"}
    assert read_record(named) == final
    # the standard board is the default and is not written
    assert "board" not in record_of(played(2, 5)[-1])
    assert read_record({**record_of(played(2, 5)[-1]), "board": "standard"}).board == (
        standard_board()
    )


@pytest.mark.parametrize(
    ("board", "fragment"),
    [
        ("huge", 'board: "huge" is not a board name'),
        (7, "board: must be a board name or a board object"),
        ({"rows": 3}, "board: cols is missing"),
        (
            {**load_board("tiny").to_json(), "grid": ["1.2", "...", "3.4"]},
            "board: the grid needs exactly one star",
        ),
    ],
)
def test_bad_boards_in_records(board: Any, fragment: str) -> None:
    rec = {**record_of(GAME.new(2, seed=1)), "board": board}
    with pytest.raises(RecordError) as e:
        read_record(rec)
    assert fragment in str(e.value) and str(e.value).startswith("record: ")


def test_a_board_on_a_game_without_one_is_refused() -> None:
    rec = {**record_of(get_game("block").new(2, seed=1)), "board": "standard"}
    with pytest.raises(RecordError, match="block is not played on a board"):
        read_record(rec)
    with pytest.raises(OptionError, match="not played on a board"):
        get_game("block").new(2, seed=1, board="tiny")


def test_illegal_placements_in_a_record_name_the_move() -> None:
    rec = record_of(GAME.new(2, seed=1))
    rec["moves"] = ["1-1@1A1B"]
    with pytest.raises(RecordError, match=r'moves\[0\] "1-1@1A1B"'):
        read_record(rec)
    rec["moves"] = ["1-1@1A3B"]
    with pytest.raises(RecordError, match="not adjacent"):
        read_record(rec)


# ------------------------------------------------------------------------------ the command line
def test_board_command_draws_and_checks_boards(tmp_path: Path) -> None:
    out = ok(run("board"))
    assert "Board standard: 15x15, star on 8H" in out
    assert "Diamonds: 68" in out and "16 of 1 (blue)" in out and "4 of 5 (green)" in out
    data = json.loads(ok(run("board", "small", "--json")))
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({**data, "name": "mine"}))
    assert "Board mine: 7x7, star on 4D" in ok(run("board", str(path)))
    path.write_text(json.dumps({**data, "rows": 8}))
    bad(run("board", str(path)), "board: grid has 7 rows, rows says 8")
    bad(run("board", str(tmp_path / "missing.json")), "no board called")
    path.write_text("{not json")
    bad(run("board", str(path)), "is not valid JSON")


def test_watch_and_replay_on_a_custom_board(tmp_path: Path) -> None:
    board = tmp_path / "b.json"
    board.write_text(json.dumps({**load_board("small").to_json(), "name": "club"}))
    rec = tmp_path / "g.json"
    out = ok(run("watch", "ddd", "-n", "3", "-s", "4", "--board", str(board), "--record", str(rec)))
    assert "game over (" in out and "Track: P0" in out
    data = json.loads(rec.read_text())
    assert data["board"]["name"] == "club"
    shown = ok(run("replay", str(rec)))
    assert "Track: P0" in shown and "   A  B  C  D  E  F  G" in shown
    summary = json.loads(ok(run("replay", str(rec), "--json")))
    assert summary["game"] == "double_double" and summary["over"] is True
    assert summary["layout"]["board"]["name"] == "club"
    assert summary["result"]["points"] == [0, 0, 0]
    assert summary["scores"] == summary["positions"]


def test_simulate_on_a_board_reports_track_scores() -> None:
    data = json.loads(
        ok(run("simulate", "ddd", "-n", "2", "-k", "6", "-s", "3", "--board", "tiny", "--json"))
    )
    assert data["games"] == 6
    assert set(data["endings"]) <= {"victory_total", "last_draw", "board_full"}
    assert "board_full" in data["endings"]  # a 3x3 board fills up at once
    assert len(data["final_score_by_seat"]) == 2
    text = ok(run("simulate", "ddd", "-n", "2", "-k", "4", "-s", "3"))
    assert "Final score:" in text and "Points per hand" not in text


def test_perft_on_a_board_record(tmp_path: Path) -> None:
    s = GAME.new(2, seed=9, board="tiny")
    path = tmp_path / "p.json"
    path.write_text(json.dumps(record_of(s)))
    from bonepile.perft import perft

    assert ok(run("perft", str(path), "2")).strip() == str(perft(s, 2))


@pytest.mark.parametrize(
    "args",
    [
        ["watch", "block", "-n", "2", "--board", "tiny"],
        ["simulate", "ddd", "-n", "2", "--board", "nowhere"],
        ["simulate", "ddd", "-n", "7"],
        ["watch", "ddd", "-n", "2", "-o", "forbid_2x2=maybe"],
        ["board", "standard", "extra"],
    ],
)
def test_bad_board_game_commands(args: list[str]) -> None:
    bad(run(*args))


def test_place_actions_are_interned_and_canonical() -> None:
    a = parse_action("6-3@8H8G")
    assert a is parse_action("3-6@8G8H") and isinstance(a, Place)
    assert (a.p, a.q, a.cell1, a.cell2) == (3, 6, (7, 6), (7, 7))


# ------------------------------------------------------------------------------ the spot table
def rebuilt(s: State) -> State:
    """The same position built from scratch (no history, nothing kept from earlier states)."""
    assert s.actor is not None
    layout = s.layout
    placed = [
        (f"{p.p}-{p.q}@{format_cell(*p.cell1)}{format_cell(*p.cell2)}", p.seat)
        for p in layout.placements
    ]
    return position(
        s.players,
        [[str(t) for t in s.hand(seat)] for seat in range(s.players)],
        placed=placed,
        positions=list(s.scores),
        boneyard=[str(t) for t in s.boneyard],
        pit=[str(t) for t in getattr(s, "pit_tiles", ())],
        actor=s.actor,
        options=s.options,
        board=s.board,  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize(("players", "board", "options"), [
    (2, None, {}),
    (3, "small", {}),
    (4, None, {"max_contacts_per_end": 2, "forbid_2x2": False}),
    (2, "small", {"allow_bridge": False, "chain_contact": "tail_on_last_double"}),
])  # fmt: skip
def test_placements_kept_up_to_date_equal_placements_found_afresh(
    players: int, board: str | None, options: dict[str, Any]
) -> None:
    # The engine keeps the free spots of the board up to date tile by tile; a position built
    # from scratch must offer exactly the same placements at every decision.
    for seed in range(3):
        s = GAME.new(players, seed=seed, board=board, options=options)
        rng = random.Random(seed)
        while not s.is_over:
            if s.chain is None:  # type: ignore[attr-defined]
                assert sorted(map(str, s.legal_actions())) == sorted(
                    map(str, rebuilt(s).legal_actions())
                ), [str(a) for a in s.moves]
            s = s.apply(rng.choice(s.legal_actions()))
