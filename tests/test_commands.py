"""Commands: what a client asks of a table as plain data, checked where it is carried out.

A command survives JSON unchanged (it may travel to another process), a malformed one is
refused with one clear error, and carrying it out checks the seat as it is then: a seat token
retired by a claim on another device makes the command a spectator's."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("pydantic")

from bonepile.server.tables.commands import OPS, Command, CommandError, apply_command
from bonepile.server.tables.room import Room, RoomError, open_room
from test_room import config


def _seated() -> tuple[Room, list[str]]:
    """A two-player block table with both seats taken; the seats' token hashes."""
    room = open_room("t", config(seats=("open", "open")), 0.0)
    room.join("a", "Ann", 0.0)
    room.join("b", "Bob", 0.0)
    hashes = [s.token for s in room.seats]
    assert all(isinstance(h, str) for h in hashes)
    return room, [str(h) for h in hashes]


def _move(room: Room, seat: int, token: str, move_id: str = "m1") -> Command:
    action = str(room.state.legal_actions()[0])
    return Command("move", seat, token, {"action": action, "id": move_id, "v": room.version})


def test_a_command_survives_json() -> None:
    room, tokens = _seated()
    k = room.state.actor
    assert k is not None
    for cmd in (
        _move(room, k, tokens[k]),
        Command("chat", None, None, {"name": "guest", "key": "abc", "text": "hi"}),
        Command("let_bot_play", 1, tokens[1], {"seat": 0}),
        Command("leave", 0, tokens[0]),
    ):
        again = Command.from_json(json.loads(json.dumps(cmd.to_json())))
        assert again == cmd


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"op": "move", "seat": 0, "token": "x"},
        {"op": "fly", "seat": 0, "token": "x", "args": {}},
        {"op": "move", "seat": 0, "token": "x", "args": {"action": "6-6", "id": "m"}},
        {"op": "move", "seat": 0, "token": "x", "args": {"action": "6-6", "id": "m", "v": "1"}},
        {"op": "move", "seat": 0, "token": "x", "args": {"action": "6-6", "id": "m", "v": True}},
        {"op": "leave", "seat": -1, "token": "x", "args": {}},
        {"op": "leave", "seat": 0, "token": 5, "args": {}},
        {"op": "leave", "seat": 0, "token": "x", "args": {"extra": 1}},
        {"op": "leave", "seat": 0, "token": "x", "args": []},
    ],
)
def test_a_malformed_command_is_one_clear_error(data: Any) -> None:
    with pytest.raises(CommandError) as e:
        Command.from_json(data)
    assert e.value.code == "bad_message" and str(e.value)


def test_a_move_is_made_from_the_seat_that_holds_its_token() -> None:
    room, tokens = _seated()
    k = room.state.actor
    assert k is not None
    v = apply_command(_move(room, k, tokens[k]), room, 1.0)
    assert v == room.version and room.state.ply == 1


def test_a_retired_token_is_a_spectator() -> None:
    room, tokens = _seated()
    k = room.state.actor
    assert k is not None
    stale = _move(room, k, tokens[k])
    code = room.claim_code(k)
    assert code is not None
    room.claim("laptop", code, 1.0)  # the seat moves to another device: the old token retires
    before = room.version
    with pytest.raises(RoomError) as e:
        apply_command(stale, room, 2.0)
    assert e.value.code == "watching" and room.state.ply == 0
    for cmd in (Command("leave", k, None), Command("leave", None, tokens[k])):
        with pytest.raises(RoomError):
            apply_command(cmd, room, 2.0)
    # chat still speaks, but as a spectator, never as the seat's player
    apply_command(Command("chat", k, tokens[k], {"name": "x", "key": "c", "text": "hi"}), room, 3.0)
    said = [e for _, e in room.take_journal() if e["type"] == "chat"]
    assert said[-1]["seat"] is None and room.version == before + 1


def test_every_operation_reaches_its_room_method() -> None:
    room, tokens = _seated()
    k = room.state.actor
    assert k is not None
    apply_command(_move(room, k, tokens[k]), room, 1.0)
    # against a person a takeback is asked of them (the room's doing, not the command's)
    apply_command(Command("takeback", k, tokens[k]), room, 2.0)
    assert room.take_journal()[-1][1]["type"] == "takeback_ask"
    with pytest.raises(RoomError) as e:  # the asker cannot answer their own question
        apply_command(Command("takeback_answer", k, tokens[k], {"yes": True}), room, 2.5)
    assert e.value.code == "takeback"
    apply_command(Command("chat", k, tokens[k], {"name": "", "key": "c", "text": "gg"}), room, 3.0)
    assert room.take_journal()[-1][1]["seat"] == k
    apply_command(Command("leave", k, tokens[k]), room, 4.0)
    assert room.seats[k].token is None
    assert {"move", "chat", "takeback", "takeback_answer", "leave"} <= OPS


def test_a_browser_finds_its_seat_through_a_command() -> None:
    room = open_room("t", config(seats=("open", "open")), 0.0)
    seat, token = apply_command(
        Command("join", None, None, {"owner": "a", "name": "Ann", "seat": None}), room, 1.0
    )
    assert room.seat_of_token(token) == seat and room.seats[seat].name == "Ann"
    mine = apply_command(Command("my_seat", None, None, {"owner": "a"}), room, 2.0)
    assert mine == [seat, token]
    assert apply_command(Command("my_seat", None, None, {"owner": "b"}), room, 2.0) is None
    code = room.claim_code(seat)
    assert code is not None
    got = apply_command(Command("claim", None, None, {"owner": "c", "code": code}), room, 3.0)
    assert got[0] == seat and room.seat_of_token(token) is None
    with pytest.raises(CommandError):
        Command("join", None, None, {"owner": "a", "name": "Ann", "seat": "1"})
