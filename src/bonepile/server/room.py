"""A table's authoritative game: its seats, versions, moves, bots, clock, absences and chat.

A :class:`Room` knows nothing of sockets, threads or storage. Each call takes the time
``now`` (seconds), checks the request, changes the room and returns the **journal entries** it
wrote: plain JSON objects, numbered by the table's version (one per entry). The host stores
them before it tells anyone, and :meth:`Room.restore` rebuilds a room from its configuration and
journal, so a server killed at any moment comes back with every table where it was.

What each person may see is built by :meth:`Room.snapshot` for one seat (or a spectator) from
:func:`bonepile.view`, the one place hidden information is cut.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bonepile.actions import Action, parse_action
from bonepile.agents.registry import make_agent
from bonepile.errors import BonepileError
from bonepile.match import Match, new_match
from bonepile.seeds import random_seed
from bonepile.server.moves import moves_json
from bonepile.state import State
from bonepile.view import View, view

Entry = dict[str, Any]
"""One journal entry (JSON): ``{"type": ..., ...}``."""

MAX_NAME = 24
MAX_CHAT = 280
CHAT_BURST = 5
"""Chat messages a person may send within :data:`CHAT_WINDOW` seconds."""
CHAT_WINDOW = 10.0
CHAT_KEPT = 200
"""Chat messages a table keeps (older ones drop out of snapshots)."""
GRACE = 30.0
"""Seconds a player may be gone on their own turn before the others may let a bot play."""
CLAIM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CLAIM_LENGTH = 6
REMEMBERED_MOVES = 64
"""Move ids remembered per seat, so that a resent move is acknowledged, not played twice."""


class RoomError(BonepileError):
    """A request the room refuses; ``code`` names why (``stale``, ``illegal``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def token_hash(token: str) -> str:
    """What the room keeps of a seat's secret (its SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_text(text: str, limit: int) -> str:
    """``text`` with control characters dropped, spaces collapsed, cut to ``limit``."""
    kept = "".join(
        c if unicodedata.category(c)[0] != "C" else " " for c in unicodedata.normalize("NFC", text)
    )
    return " ".join(kept.split())[:limit]


@dataclass
class Seat:
    """One seat: ``open`` until someone sits, then ``human`` or ``bot`` (``bot`` names the
    agent spec). ``away_bot`` is true while a bot plays for an absent human."""

    kind: str
    name: str = ""
    bot: str | None = None
    owner: str | None = None
    token: str | None = None
    claim: str | None = None
    away_bot: bool = False
    bank: float | None = None
    connected: int = 0
    gone_since: float | None = None

    def public(self) -> dict[str, Any]:
        """What everyone may know of the seat."""
        return {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "away_bot": self.away_bot,
            "present": self.kind != "human" or self.connected > 0,
            "bank": None if self.bank is None else round(self.bank, 1),
        }


@dataclass(frozen=True)
class TableConfig:
    """How a table was set up: the game, its options, seats (``"open"`` or an agent spec such
    as ``"ismcts:hard"``), a single hand or a match, the optional clock (seconds in the bank
    and added per move) and the match seed (kept on the server, never sent)."""

    game: str
    players: int
    options: Mapping[str, Any]
    seats: tuple[str, ...]
    match: bool
    seed: int
    clock: tuple[float, float] | None = None
    board: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form (stored with the table)."""
        return {
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seats": list(self.seats),
            "match": self.match,
            "seed": self.seed,
            "clock": None if self.clock is None else list(self.clock),
            "board": None if self.board is None else dict(self.board),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableConfig:
        """Inverse of :meth:`to_json`."""
        clock = data.get("clock")
        return cls(
            game=data["game"],
            players=int(data["players"]),
            options=dict(data.get("options") or {}),
            seats=tuple(data["seats"]),
            match=bool(data["match"]),
            seed=int(data["seed"]),
            clock=None if clock is None else (float(clock[0]), float(clock[1])),
            board=data.get("board"),
        )


@dataclass
class BotTurn:
    """A move the host must get from an agent: who, which agent, from what view, at what
    version (the move is applied only if the room is still there)."""

    seat: int
    spec: str
    view: View
    version: int
    why: str


@dataclass
class Room:
    """One table's authoritative state. Build with :func:`open_room` or :meth:`restore`."""

    id: str
    config: TableConfig
    match: Match
    seats: list[Seat]
    version: int = 0
    game_version: int = 0
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    turn_started: float = 0.0
    hand_over_at: float | None = None
    closed: bool = False
    rematch: str | None = None
    _moves: dict[int, dict[str, int]] = field(default_factory=dict)
    _chat_times: dict[str, deque[float]] = field(default_factory=dict)
    _journal: list[Entry] = field(default_factory=list)

    # ------------------------------------------------------------------ queries
    @property
    def state(self) -> State[Any]:
        """The hand being played (or the last one)."""
        return self.match.current

    @property
    def started(self) -> bool:
        """True once every seat is taken (play begins)."""
        return all(s.kind != "open" for s in self.seats)

    @property
    def over(self) -> bool:
        """True when the table's game is finished (the hand, or the match to its target)."""
        if not self.state.is_over:
            return False
        return not self.config.match or self.match.is_over

    @property
    def status(self) -> str:
        """``open`` (seats free), ``playing`` or ``over``."""
        if self.over:
            return "over"
        return "playing" if self.started else "open"

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat whose secret is ``token`` (``None``: a spectator)."""
        if not token:
            return None
        h = token_hash(token)
        for k, s in enumerate(self.seats):
            if s.token is not None and hmac.compare_digest(s.token, h):
                return k
        return None

    def seat_of_owner(self, owner: str) -> int | None:
        """The seat taken by the browser ``owner`` (its anonymous cookie id), if any."""
        for k, s in enumerate(self.seats):
            if s.owner is not None and s.owner == owner:
                return k
        return None

    def free_seat(self) -> int | None:
        """The first open seat."""
        return next((k for k, s in enumerate(self.seats) if s.kind == "open"), None)

    def humans(self) -> list[int]:
        """Seats held by people."""
        return [k for k, s in enumerate(self.seats) if s.kind == "human"]

    def take_journal(self) -> list[tuple[int, Entry]]:
        """The entries written since the last call, with their versions."""
        out = list(enumerate(self._journal, start=self.version - len(self._journal) + 1))
        self._journal.clear()
        return out

    # ----------------------------------------------------------------- seats
    def join(self, owner: str, name: str, now: float, seat: int | None = None) -> tuple[int, str]:
        """Sit the browser ``owner`` at ``seat`` (or the first open one); returns the seat and its
        secret token. Someone already seated here gets their seat back (a new token)."""
        if self.closed:
            raise RoomError("closed", "this table is closed")
        mine = self.seat_of_owner(owner)
        if mine is not None:
            return mine, self._new_token(mine, now)
        if seat is None:
            seat = self.free_seat()
            if seat is None:
                raise RoomError("full", "every seat is taken: you can watch")
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "open":
            raise RoomError("taken", f"seat {seat + 1} is not free")
        token = secrets.token_urlsafe(24)
        claim = "".join(secrets.choice(CLAIM_ALPHABET) for _ in range(CLAIM_LENGTH))
        entry = {
            "type": "join",
            "seat": seat,
            "name": clean_text(name, MAX_NAME) or f"Player {seat + 1}",
            "owner": owner,
            "token": token_hash(token),
            "claim": claim,
        }
        self._write(entry, now)
        return seat, token

    def claim(self, owner: str, code: str, now: float) -> tuple[int, str]:
        """Take back the seat whose claim code is ``code`` (another browser, cleared storage):
        returns the seat and a new token; the old one stops working."""
        wanted = clean_text(code, 16).upper().replace(" ", "")
        for k, s in enumerate(self.seats):
            if s.claim is not None and hmac.compare_digest(s.claim, wanted):
                self._write({"type": "owner", "seat": k, "owner": owner}, now)
                return k, self._new_token(k, now)
        raise RoomError("claim", "no seat at this table has that claim code")

    def claim_code(self, seat: int) -> str | None:
        """The claim code of ``seat`` (only ever shown to that seat)."""
        return self.seats[seat].claim

    def _new_token(self, seat: int, now: float) -> str:
        token = secrets.token_urlsafe(24)
        self._write({"type": "token", "seat": seat, "token": token_hash(token)}, now)
        return token

    def connected(self, seat: int, now: float) -> None:
        """A connection of ``seat`` opened (not journaled). A seat a bot played for while its
        player was gone is handed back."""
        s = self.seats[seat]
        s.connected += 1
        s.gone_since = None
        if s.away_bot:
            self._write({"type": "away", "seat": seat, "bot": False}, now)

    def disconnected(self, seat: int, now: float) -> None:
        """A connection of ``seat`` closed (not journaled)."""
        s = self.seats[seat]
        s.connected = max(0, s.connected - 1)
        if s.connected == 0:
            s.gone_since = now

    def absent(self, now: float) -> int | None:
        """The seat to act if its player has been gone past :data:`GRACE` (the others may let a
        bot play for it), else ``None``."""
        k = self.state.actor
        if k is None or not self.started or self.over:
            return None
        s = self.seats[k]
        if s.kind != "human" or s.away_bot or s.connected or s.gone_since is None:
            return None
        return k if now - max(s.gone_since, self.turn_started) >= GRACE else None

    def let_bot_play(self, by: int, seat: int, now: float) -> None:
        """``by`` lets a bot play for the absent ``seat`` until its player returns."""
        if self.absent(now) != seat or by == seat or self.seats[by].kind != "human":
            raise RoomError("not_absent", "that player is not away on their turn")
        self._write({"type": "away", "seat": seat, "bot": True, "by": by}, now)

    # ----------------------------------------------------------------- play
    def move(self, seat: int, action: str, move_id: str, from_version: int, now: float) -> int:
        """Play ``action`` for ``seat``; returns the version it made. ``from_version`` is the
        version the player saw: a move made before the game last changed is ``stale``. A move id
        already played is acknowledged again and changes nothing."""
        done = self._moves.get(seat, {}).get(move_id)
        if done is not None:
            return done
        if self.closed or self.over:
            raise RoomError("over", "the game is over")
        if not self.started:
            raise RoomError("not_started", "the game starts when every seat is taken")
        if self.state.actor != seat:
            raise RoomError("not_your_turn", "it is not your turn")
        if self.seats[seat].away_bot:
            raise RoomError("away", "a bot is playing this seat while you were away")
        if from_version < self.game_version:
            raise RoomError("stale", "the game moved on: here is where it stands")
        act = self._legal(action)
        self._play(seat, act, now, move_id=move_id)
        return self.version

    def _legal(self, text: str) -> Action:
        try:
            act = parse_action(text)
        except BonepileError as e:
            raise RoomError("illegal", str(e)) from None
        if act not in self.state.legal_actions():
            raise RoomError("illegal", f"{text} is not a legal move here")
        return act

    def bot_turn(self, now: float) -> BotTurn | None:
        """The move an agent must make now (a bot's seat, a seat a bot plays while its player
        is away, or a player out of time), or ``None``."""
        k = self.state.actor
        if k is None or not self.started or self.closed or self.state.is_over:
            return None
        s = self.seats[k]
        if s.kind == "bot" and s.bot is not None:
            return BotTurn(k, s.bot, view(self.state, k), self.version, "bot")
        if s.away_bot:
            return BotTurn(k, "greedy", view(self.state, k), self.version, "away")
        if s.bank is not None and s.bank - (now - self.turn_started) <= 0:
            return BotTurn(k, "greedy", view(self.state, k), self.version, "time")
        return None

    def bot_move(self, turn: BotTurn, action: Action, now: float) -> bool:
        """Apply the agent's answer to ``turn`` if the room has not moved on; True if played."""
        if self.version != turn.version or self.state.actor != turn.seat:
            return False
        if action not in self.state.legal_actions():
            action = self.state.legal_actions()[0]
        self._play(turn.seat, action, now, by=turn.why)
        return True

    def _play(self, seat: int, act: Action, now: float, move_id: str = "", by: str = "") -> None:
        entry: Entry = {"type": "move", "seat": seat, "action": str(act)}
        if move_id:
            entry["id"] = move_id
        if by:
            entry["by"] = by
        self._write(entry, now)

    def next_hand(self, seat: int | None, now: float) -> None:
        """Deal the next hand of a match (any seated player, or the host for a table of bots)."""
        if not self.config.match or not self.match.needs_deal:
            raise RoomError("no_hand", "there is no next hand to deal")
        if seat is not None and self.seats[seat].kind != "human":
            raise RoomError("no_hand", "only a player at the table deals the next hand")
        self._write({"type": "deal"}, now)

    # ----------------------------------------------------------------- chat
    def say(self, who: int | None, name: str, key: str, text: str, now: float) -> None:
        """Post to the table chat (``who``: a seat, or ``None`` for a spectator named ``name``);
        ``key`` identifies the sender for the rate limit."""
        message = clean_text(text, MAX_CHAT + 1)
        if not message:
            raise RoomError("chat", "an empty message")
        if len(message) > MAX_CHAT:
            raise RoomError("chat", f"a message has at most {MAX_CHAT} characters")
        times = self._chat_times.setdefault(key, deque(maxlen=CHAT_BURST))
        if len(times) == CHAT_BURST and now - times[0] < CHAT_WINDOW:
            raise RoomError("chat", "slow down: too many messages")
        times.append(now)
        shown_name = self.seats[who].name if who is not None else clean_text(name, MAX_NAME)
        self._write(
            {"type": "chat", "seat": who, "name": shown_name or "guest", "text": message}, now
        )

    # ----------------------------------------------------------------- journal
    def _write(self, entry: Entry, now: float) -> None:
        entry["t"] = round(now, 3)
        self._apply(entry)
        self._journal.append(entry)

    def _apply(self, entry: Entry) -> None:
        """Carry out one journal entry (the same code runs live and on restore)."""
        kind = entry["type"]
        now = float(entry.get("t", 0.0))
        self.version += 1
        if kind == "join":
            s = self.seats[entry["seat"]]
            s.kind, s.name, s.owner = "human", entry["name"], entry["owner"]
            s.token, s.claim = entry["token"], entry["claim"]
            if self.started and self.game_version == 0:
                self._start(now)
        elif kind == "token":
            self.seats[entry["seat"]].token = entry["token"]
        elif kind == "owner":
            self.seats[entry["seat"]].owner = entry["owner"]
        elif kind == "move":
            seat = entry["seat"]
            self._spend(seat, now)
            self.match = self.match.apply(parse_action(entry["action"]))
            self.game_version = self.version
            if "id" in entry:
                ids = self._moves.setdefault(seat, {})
                ids[entry["id"]] = self.version
                if len(ids) > REMEMBERED_MOVES:
                    del ids[next(iter(ids))]
            self.turn_started = now
            if self.state.is_over:
                self.hand_over_at = now
        elif kind == "deal":
            self.match = self.match.next_hand()
            self.game_version = self.version
            self.turn_started = now
            self.hand_over_at = None
        elif kind == "away":
            self.seats[entry["seat"]].away_bot = bool(entry["bot"])
        elif kind == "chat":
            self.chat.append(
                {
                    "v": self.version,
                    "seat": entry["seat"],
                    "name": entry["name"],
                    "text": entry["text"],
                    "t": now,
                }
            )
        elif kind == "start":
            self._start(now)
        elif kind == "close":
            self.closed = True
        elif kind == "rematch":
            self.rematch = entry["table"]
        else:
            raise ValueError(f"unknown journal entry {kind!r}")

    def _start(self, now: float) -> None:
        self.game_version = self.version
        self.turn_started = now

    def _spend(self, seat: int, now: float) -> None:
        s = self.seats[seat]
        if s.bank is None or self.config.clock is None:
            return
        s.bank = max(0.0, s.bank - max(0.0, now - self.turn_started)) + self.config.clock[1]

    def start_rematch(self, seat: int | None, table_id: str, now: float) -> None:
        """Note that the game goes on at table ``table_id`` (asked by a seated player)."""
        if not self.over:
            raise RoomError("not_over", "the game is not over yet")
        if seat is None or self.seats[seat].kind != "human":
            raise RoomError("rematch", "only a player at the table can ask for a rematch")
        if self.rematch is None:
            self._write({"type": "rematch", "table": table_id}, now)

    def close(self, now: float) -> None:
        """End the table (nobody may move any more)."""
        if not self.closed:
            self._write({"type": "close"}, now)

    # ----------------------------------------------------------------- what people see
    def snapshot(self, seat: int | None, now: float) -> dict[str, Any]:
        """Everything ``seat`` (``None``: a spectator) may know, as JSON: the table, the view
        of the current hand, the hands played so far and the chat."""
        state = self.state
        v = view(state, seat)
        data = v.to_json()
        seats = [s.public() for s in self.seats]
        k = state.actor
        bank = None if k is None else self.seats[k].bank
        if k is not None and bank is not None and self.started and not self.over:
            seats[k]["bank"] = round(max(0.0, bank - (now - self.turn_started)), 1)
        return {
            "table": self.id,
            "v": self.version,
            "status": self.status,
            "game": self.config.game,
            "players": self.config.players,
            "match": self.config.match,
            "clock": None if self.config.clock is None else list(self.config.clock),
            "seats": seats,
            "you": seat,
            "claim": None if seat is None else self.seats[seat].claim,
            "hand_number": len(self.match.hands),
            "totals": list(self.match.totals),
            "target": self.match.target if self.config.match else None,
            "match_over": self.over,
            "winners": list(self.match.winners) if self.over else [],
            "hands": [
                {
                    "scores_after": list(h.scores),
                    "result": None if h.result is None else h.result.to_json(),
                }
                for h in self.match.hands
                if h.is_over
            ],
            "absent": self.absent(now),
            "rematch": self.rematch,
            "view": data,
            "moves": moves_json(v),
            "chat": list(self.chat),
        }


def open_room(table_id: str, config: TableConfig, now: float) -> Room:
    """A new room for ``config``: bots seated, other seats open; journals a ``start`` entry at
    once when no seat is open."""
    room = _empty(table_id, config)
    if room.started:
        room._write({"type": "start"}, now)
    return room


def _empty(table_id: str, config: TableConfig) -> Room:
    options = dict(config.options)
    match = new_match(
        config.game, config.players, options=options, seed=config.seed, board=config.board
    )
    seats = []
    for k, spec in enumerate(config.seats):
        if spec == "open":
            seats.append(Seat("open"))
        else:
            make_agent(spec, 0)  # checked when the table is made
            seats.append(Seat("bot", name=_bot_name(spec, k), bot=spec))
    if config.clock is not None:
        for s in seats:
            s.bank = config.clock[0]
    return Room(table_id, config, match, seats)


def _bot_name(spec: str, seat: int) -> str:
    kind, _, level = spec.partition(":")
    label = {"ismcts": "Search bot", "greedy": "Greedy bot", "random": "Random bot"}.get(
        kind, "Bot"
    )
    return f"{label}{' (' + level + ')' if level else ''}"


def restore(table_id: str, config: TableConfig, entries: Sequence[tuple[int, Entry]]) -> Room:
    """The room ``table_id`` as its journal left it."""
    room = _empty(table_id, config)
    for version, entry in entries:
        if version != room.version + 1:
            raise ValueError(f"journal of table {table_id} skips from {room.version} to {version}")
        room._apply(dict(entry))
    return room


def new_config(
    game: str,
    players: int,
    options: Mapping[str, Any],
    seats: Sequence[str],
    match: bool,
    clock: tuple[float, float] | None = None,
    board: Mapping[str, Any] | None = None,
) -> TableConfig:
    """A table configuration with a fresh secret match seed."""
    return TableConfig(
        game, players, dict(options), tuple(seats), match, random_seed(), clock, board
    )


__all__ = [
    "BotTurn",
    "Room",
    "RoomError",
    "Seat",
    "TableConfig",
    "new_config",
    "open_room",
    "restore",
    "token_hash",
]
