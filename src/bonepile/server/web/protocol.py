"""The messages between the browser (or any client) and the server, checked by pydantic.

A client opens one WebSocket per table at ``/ws/{table}`` and sends JSON objects, each with a
``type``; every message from the server carries the table's version ``v``. docs/server.md
describes the exchange; :func:`parse_client` turns raw text into one of the classes below or
raises :class:`ProtocolError` with one line.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from bonepile.errors import BonepileError

MAX_MESSAGE = 4096
"""The longest message (bytes) a client may send."""


class ProtocolError(BonepileError):
    """A malformed client message."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Message):
    """First message: who I am (a seat's secret token, or none to watch), the version I have
    (``since``, -1 for none), the width (and height) in tile halves my screen fits, and
    whether I take patches."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=64)
    since: int = Field(default=-1, ge=-1)
    width: int = Field(default=40, ge=8, le=400)
    height: int | None = Field(default=None, ge=4, le=400)
    """The table is folded to this height too (``None``: it may grow down without end)."""
    patches: bool = False
    """Send each state after the first as a ``patch`` on the one before (docs/server.md)."""


class Move(_Message):
    """Play ``action`` (notation) from version ``v``; ``id`` makes a resend harmless."""

    type: Literal["move"]
    id: str = Field(min_length=1, max_length=40)
    v: int = Field(ge=0)
    action: str = Field(min_length=1, max_length=100)


class Chat(_Message):
    """Say something at the table."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=1000)
    name: str = Field(default="", max_length=40)


class NextHand(_Message):
    """Deal the next hand of a match."""

    type: Literal["next_hand"]


class LetBotPlay(_Message):
    """Let a bot play for ``seat``, whose player is away on their turn."""

    type: Literal["let_bot_play"]
    seat: int = Field(ge=0, le=16)


class Rematch(_Message):
    """Play again with the same seats once the game is over."""

    type: Literal["rematch"]


class Resize(_Message):
    """My screen now fits ``width`` (and ``height``) tile halves."""

    type: Literal["resize"]
    width: int = Field(ge=8, le=400)
    height: int | None = Field(default=None, ge=4, le=400)


class Ping(_Message):
    """Keep the connection alive."""

    type: Literal["ping"]


class TakeSeat(_Message):
    """Play my seat myself again (a bot took it when my time ran out)."""

    type: Literal["take_seat"]


class Leave(_Message):
    """Leave the table: my seat opens again, or once the game has started a bot plays it."""

    type: Literal["leave"]


class EndTable(_Message):
    """End the table for good (only a player alone with bots)."""

    type: Literal["end_table"]


class Takeback(_Message):
    """Take back my last move of this hand and the moves after it: at once against bots,
    asked of the other people at the table otherwise."""

    type: Literal["takeback"]


class TakebackAnswer(_Message):
    """Agree to (``yes``) or refuse the takeback another player asks."""

    type: Literal["takeback_answer"]
    yes: bool


ClientMessage = Annotated[
    Hello
    | Move
    | Chat
    | NextHand
    | LetBotPlay
    | Rematch
    | Resize
    | Ping
    | TakeSeat
    | Leave
    | EndTable
    | Takeback
    | TakebackAnswer,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def parse_client(raw: str | bytes) -> Any:
    """The client message in ``raw``, or :class:`ProtocolError` naming what is wrong."""
    if len(raw) > MAX_MESSAGE:
        raise ProtocolError(f"a message has at most {MAX_MESSAGE} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("a message is one JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is one JSON object")
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "message"
        raise ProtocolError(f"bad message: {where}: {first.get('msg', 'invalid')}") from None


class NewTable(BaseModel):
    """``POST /api/tables``: a table to set up. ``seats`` has one entry per seat: ``"me"`` (the
    creator sits there), ``"open"`` or a bot (``random``, ``greedy``, ``ismcts:easy`` ...);
    ``clock`` is minutes in the bank and seconds added per move; a ``rated`` table seats
    signed-in people only and moves their ratings at its end."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40)
    seats: list[str] = Field(min_length=1, max_length=16)
    options: dict[str, Any] = Field(default_factory=dict)
    match: bool = False
    clock_minutes: float | None = Field(default=None, gt=0, le=180)
    clock_increment: float = Field(default=0, ge=0, le=600)
    name: str = Field(default="", max_length=40)
    rated: bool = False


class JoinTable(BaseModel):
    """``POST /api/tables/{id}/join``: sit at a free seat (or ``seat``) under ``name``."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="", max_length=40)
    seat: int | None = Field(default=None, ge=0, le=16)


class ClaimSeat(BaseModel):
    """``POST /api/tables/{id}/claim``: take a seat back with its claim code."""

    model_config = ConfigDict(extra="forbid")
    code: str = Field(min_length=1, max_length=24)


__all__ = [
    "MAX_MESSAGE",
    "Chat",
    "ClaimSeat",
    "EndTable",
    "Hello",
    "JoinTable",
    "Leave",
    "LetBotPlay",
    "Move",
    "NewTable",
    "NextHand",
    "Ping",
    "ProtocolError",
    "Rematch",
    "Resize",
    "TakeSeat",
    "Takeback",
    "TakebackAnswer",
    "parse_client",
]
