"""What a client asks of a table, as plain data: a :class:`Command` names the operation, who
asks (the seat and the seat token's hash it sat down with) and the arguments, and
:func:`apply_command` carries it out on a room.

Being data, a command can be carried to wherever the table's moves are decided (in a site of
several processes, the process that owns the table) and checked there against the seat as it is
then: a claim on another device retires the old token, and a command sent with it is refused
as a spectator's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bonepile.errors import BonepileError
from bonepile.server.tables.room import Room, RoomError

SEATED_OPS = frozenset(
    {
        "move",
        "next_hand",
        "let_bot_play",
        "take_seat",
        "leave",
        "end_table",
        "takeback",
        "takeback_answer",
    }
)
"""The operations only a player in a seat may ask for."""
SEAT_OPS = frozenset({"join", "claim", "my_seat", "adopt"})
"""The operations that find a browser its seat (``owner``: the browser's id)."""
OPS = SEATED_OPS | SEAT_OPS | {"chat"}

_NONE = type(None)
_ARGS: dict[str, dict[str, tuple[type, ...]]] = {
    "move": {"action": (str,), "id": (str,), "v": (int,)},
    "chat": {"name": (str,), "key": (str,), "text": (str,), "verified": (bool,)},
    "let_bot_play": {"seat": (int,)},
    "takeback_answer": {"yes": (bool,)},
    "join": {"owner": (str,), "name": (str,), "seat": (int, _NONE), "account": (bool,)},
    "claim": {"owner": (str,), "code": (str,), "account": (bool,)},
    "my_seat": {"owner": (str,)},
    "adopt": {"owner": (str,), "to": (str,), "name": (str,), "account": (bool,)},
}

_DEFAULTS: dict[str, dict[str, Any]] = {
    "chat": {"verified": False},
    "join": {"account": False},
    "claim": {"account": False},
    "adopt": {"name": "", "account": False},
}
"""Arguments a command may leave out (a process of a site from before they existed)."""


class CommandError(BonepileError):
    """A command that is not well formed (never sent by this server's own processes)."""

    code = "bad_message"


@dataclass(frozen=True)
class Command:
    """``op`` asked by the connection at ``seat`` (``None``: watching) that sat down with the
    seat token whose hash is ``token``; ``args`` are the operation's own."""

    op: str
    seat: int | None
    token: str | None
    args: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise CommandError(f"unknown operation {self.op!r}")
        wanted = _ARGS.get(self.op, {})
        for name, value in _DEFAULTS.get(self.op, {}).items():
            self.args.setdefault(name, value)
        if set(self.args) != set(wanted):
            raise CommandError(f"{self.op} takes {', '.join(sorted(wanted)) or 'nothing'}")
        for name, kinds in wanted.items():
            value = self.args[name]
            if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                raise CommandError(f"{self.op}: {name} must be a {kinds[0].__name__}")
        if self.seat is not None and (not isinstance(self.seat, int) or self.seat < 0):
            raise CommandError("a seat is a number from 0")

    def to_json(self) -> dict[str, Any]:
        """The command as JSON."""
        return {"op": self.op, "seat": self.seat, "token": self.token, "args": dict(self.args)}

    @classmethod
    def from_json(cls, data: Any) -> Command:
        """The command ``data`` (:class:`CommandError` if it is not one)."""
        if not isinstance(data, dict) or set(data) != {"op", "seat", "token", "args"}:
            raise CommandError("a command has op, seat, token and args")
        if not isinstance(data["args"], dict):
            raise CommandError("a command's args are an object")
        token = data["token"]
        if token is not None and not isinstance(token, str):
            raise CommandError("a command's token is a string")
        return cls(str(data["op"]), data["seat"], token, dict(data["args"]))


def apply_command(command: Command, room: Room, now: float) -> Any:
    """Carry ``command`` out on ``room`` at ``now``; what it returns is JSON (a move's new
    version, ``[seat, token]`` for a seat found, or ``None``). A seated operation from a seat
    whose token is no longer the one it sat down with is refused as a spectator's
    (``watching``)."""
    op, args = command.op, command.args
    if op == "join":
        return list(room.join(args["owner"], args["name"], now, args["seat"], args["account"]))
    if op == "claim":
        return list(room.claim(args["owner"], args["code"], now, args["account"]))
    if op == "adopt":
        return room.adopt(args["owner"], args["to"], now, args["name"], args["account"])
    if op == "my_seat":
        mine = room.my_seat(args["owner"], now)
        return None if mine is None else list(mine)
    if op == "chat":
        who = command.seat if _holds(room, command) else None
        room.say(who, args["name"], args["key"], args["text"], now, args["verified"])
        return None
    seat = _seated(room, command)
    if op == "move":
        return room.move(seat, args["action"], args["id"], args["v"], now)
    if op == "next_hand":
        room.next_hand(seat, now)
    elif op == "let_bot_play":
        room.let_bot_play(seat, args["seat"], now)
    elif op == "take_seat":
        room.take_seat(seat, now)
    elif op == "leave":
        room.leave(seat, now)
    elif op == "end_table":
        room.end_table(seat, now)
    elif op == "takeback":
        return room.takeback(seat, now)
    elif op == "takeback_answer":
        room.answer_takeback(seat, args["yes"], now)
    return None


def _holds(room: Room, command: Command) -> bool:
    """Whether the command's seat still has the token it was sent with."""
    seat = command.seat
    return (
        seat is not None
        and seat < len(room.seats)
        and command.token is not None
        and room.seats[seat].token == command.token
    )


def _seated(room: Room, command: Command) -> int:
    if command.seat is None or not _holds(room, command):
        raise RoomError("watching", "you are watching this table")
    return command.seat


__all__ = ["OPS", "SEATED_OPS", "SEAT_OPS", "Command", "CommandError", "apply_command"]
