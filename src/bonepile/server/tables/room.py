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

import base64
import dataclasses
import hashlib
import hmac
import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bonepile.actions import Action, parse_action
from bonepile.agents.registry import make_agent
from bonepile.errors import BonepileError
from bonepile.games import get_game
from bonepile.match import Match, match_of
from bonepile.seeds import random_seed
from bonepile.server.tables.moves import moves_json
from bonepile.server.tables.seats import (
    CLAIM_ALPHABET,
    CLAIM_LENGTH,
    MAX_NAME,
    RoomError,
    Seat,
    TableConfig,
    clean_text,
    new_claim_code,
    new_config,
    shown_claim,
    token_hash,
    typed_claim,
)
from bonepile.state import State
from bonepile.view import View, view

Entry = dict[str, Any]
"""One journal entry (JSON): ``{"type": ..., ...}``."""

MAX_CHAT = 280
CHAT_BURST = 5
"""Chat messages a person may send within :data:`CHAT_WINDOW` seconds."""
CHAT_WINDOW = 10.0
CHAT_KEPT = 200
"""Chat messages a table keeps (older ones drop out of snapshots)."""
GRACE = 30.0
"""Seconds a player may be gone on their own turn before the others may let a bot play."""
TIME_BACK = 30.0
"""Seconds on the clock of a player who takes their seat back after their time ran out (at
most the clock's starting time): enough to make a move."""
ABANDONED = "abandoned"
"""The reason a table closed because nobody came for a while is kept under."""

MADE_FOR = ("time", "away")
"""Why a bot made a move for a person: their time ran out, or they were away."""
REMEMBERED_MOVES = 64
"""Move ids remembered per seat, so that a resent move is acknowledged, not played twice."""


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
    token_key: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    """The key seat tokens are derived with (the server's, kept out of the journal): a seat's
    token is a MAC of the table, the seat, its browser and its claim code, so the same browser
    is given the same token again without a write, and a claim retires every old token."""
    version: int = 0
    game_version: int = 0
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    turn_started: float = 0.0
    hand_over_at: float | None = None
    closed: bool = False
    close_reason: str = ""
    """Why the table was closed before its end (``"abandoned"``: nobody came for a while)."""
    rematch: str | None = None
    made_for: dict[int, tuple[int, str]] = field(default_factory=dict)
    """The moves of the current hand a bot made for a person, by ply: the seat and why
    (:data:`MADE_FOR`)."""
    left_at: dict[int, tuple[int, int]] = field(default_factory=dict)
    """The seats whose player left once play had begun: the hand (counting from 1) and its
    ply from which a bot plays the seat (the moves before are the player's, under their
    name)."""
    asking: tuple[int, int, frozenset[int]] | None = None
    """A takeback asked of the other people at the table: the seat that asks, the ply it would
    go back to, and the seats that said yes so far (any move or a no ends the question)."""
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
        """``open`` (seats free), ``playing``, ``over``, or ``closed`` (ended before its end:
        left by everyone)."""
        if self.over:
            return "over"
        if self.closed:
            return "closed"
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

    def copy(self) -> Room:
        """An independent copy to try a change on: the host applies a request to a copy and
        keeps it only once its journal entries are stored (the match, chat items and journal
        entries are shared: they are never changed in place)."""
        return dataclasses.replace(
            self,
            seats=[dataclasses.replace(s) for s in self.seats],
            chat=deque(self.chat, maxlen=CHAT_KEPT),
            made_for=dict(self.made_for),
            left_at=dict(self.left_at),
            _moves={k: dict(v) for k, v in self._moves.items()},
            _chat_times={k: deque(v, maxlen=CHAT_BURST) for k, v in self._chat_times.items()},
            _journal=list(self._journal),
        )

    def extend(self, entries: Sequence[tuple[int, Entry]]) -> int:
        """Follow the stored journal: apply the ``entries`` after this room's version, in
        order (those it has are skipped); how many were applied. A gap raises ``ValueError``.
        (What a process that does not decide the table does with what its owner stored.)"""
        applied = 0
        for version, entry in entries:
            if version <= self.version:
                continue
            if version != self.version + 1:
                raise ValueError(f"table {self.id}: entry {version} after {self.version}")
            self._apply(dict(entry))
            applied += 1
        return applied

    def take_journal(self) -> list[tuple[int, Entry]]:
        """The entries written since the last call, with their versions."""
        out = list(enumerate(self._journal, start=self.version - len(self._journal) + 1))
        self._journal.clear()
        return out

    # ----------------------------------------------------------------- seats
    def join(
        self, owner: str, name: str, now: float, seat: int | None = None, account: bool = False
    ) -> tuple[int, str]:
        """Sit the browser ``owner`` at ``seat`` (or the first open one); returns the seat and its
        secret token. Someone already seated here gets their seat back (the same token).
        ``account``: the browser is signed in, and ``name`` is its account's."""
        if self.closed:
            raise RoomError("closed", "this table is closed")
        mine = self.my_seat(owner, now)
        if mine is not None:
            return mine
        if seat is None:
            seat = self.free_seat()
            if seat is None:
                raise RoomError("full", "every seat is taken: you can watch")
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "open":
            raise RoomError("taken", f"seat {seat + 1} is not free")
        claim = new_claim_code()
        token = self._token(seat, owner, claim)
        entry = {
            "type": "join",
            "seat": seat,
            "name": clean_text(name, MAX_NAME) or f"Player {seat + 1}",
            "owner": owner,
            "token": token_hash(token),
            "claim": claim,
        }
        if account:
            entry["account"] = True
        self._write(entry, now)
        return seat, token

    def my_seat(self, owner: str, now: float) -> tuple[int, str] | None:
        """The seat of the browser ``owner`` and its token, or ``None``. Asking again gives the
        same token and writes nothing (a seat joined before tokens were derived gets one
        derived token, once)."""
        seat = self.seat_of_owner(owner)
        if seat is None:
            return None
        s = self.seats[seat]
        token = self._token(seat, owner, s.claim or "")
        if s.token is None or not hmac.compare_digest(s.token, token_hash(token)):
            self._write({"type": "token", "seat": seat, "token": token_hash(token)}, now)
        return seat, token

    def claim(self, owner: str, code: str, now: float, account: bool = False) -> tuple[int, str]:
        """Take back the seat whose claim code is ``code`` (another browser, cleared storage):
        returns the seat and a new token. The seat gets a new claim code, and every token
        given before stops working (the host demotes their connections at once)."""
        wanted = typed_claim(code)
        for k, s in enumerate(self.seats):
            if s.claim is not None and wanted and hmac.compare_digest(s.claim, wanted):
                held = self.seat_of_owner(owner)
                if held is not None and held != k:
                    raise RoomError("claim", f"this browser already holds seat {held + 1} here")
                claim = new_claim_code()
                token = self._token(k, owner, claim)
                entry = {"type": "claim", "seat": k, "owner": owner, "claim": claim}
                if account:
                    entry["account"] = True
                self._write({**entry, "token": token_hash(token)}, now)
                return k, token
        raise RoomError("claim", "no seat at this table has that claim code")

    def adopt(
        self, owner: str, to: str, now: float, name: str = "", account: bool = False
    ) -> int | None:
        """Hand the seat of the browser ``owner`` to the id ``to`` (a browser that signed up
        or signed in: its account's id), under ``name`` if given (the account's); the seat
        keeps its claim code and gets a new token, so every token given before stops working.
        Returns the seat, or ``None``."""
        seat = self.seat_of_owner(owner)
        if seat is None or owner == to or self.seat_of_owner(to) is not None:
            return None
        claim = self.seats[seat].claim or ""
        token = self._token(seat, to, claim)
        entry: Entry = {"type": "claim", "seat": seat, "owner": to, "claim": claim or None}
        if name:
            entry["name"] = clean_text(name, MAX_NAME)
        if account:
            entry["account"] = True
        self._write({**entry, "token": token_hash(token)}, now)
        return seat

    def claim_code(self, seat: int) -> str | None:
        """The claim code of ``seat`` (only ever shown to that seat)."""
        return self.seats[seat].claim

    def _token(self, seat: int, owner: str, claim: str) -> str:
        message = "\x1f".join(("bonepile-seat-v1", self.id, str(seat), owner, claim))
        mac = hmac.new(self.token_key, message.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:24]).decode()

    def connected(self, seat: int, now: float) -> None:
        """A connection of ``seat`` opened (presence: not journaled)."""
        s = self.seats[seat]
        s.connected += 1
        s.gone_since = None

    def hand_back(self, seat: int, now: float) -> bool:
        """Give a seat that a bot played while its player was gone back to its connected
        player; True if it was handed back."""
        s = self.seats[seat]
        if not (s.away_bot and s.connected) or s.away_why == "time":
            return False
        self._write({"type": "away", "seat": seat, "bot": False}, now)
        return True

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
        self._write({"type": "away", "seat": seat, "bot": True, "by": by, "why": "gone"}, now)

    def take_seat(self, seat: int, now: float) -> None:
        """The player of ``seat``, whose time ran out, plays again themselves: their clock
        gets at least :data:`TIME_BACK` seconds."""
        s = self.seats[seat]
        if s.kind != "human" or not s.away_bot:
            raise RoomError("not_away", "you are playing your seat yourself")
        entry: Entry = {"type": "away", "seat": seat, "bot": False}
        if s.bank is not None and self.config.clock is not None:
            bank = s.bank
            if self.state.actor == seat:  # the time of the turn so far is the bot's, not yours
                bank = max(0.0, bank - max(0.0, now - self.turn_started))
            entry["bank"] = round(max(bank, min(TIME_BACK, self.config.clock[0])), 3)
        self._write(entry, now)

    def leave(self, seat: int, now: float) -> None:
        """The player of ``seat`` leaves the table: before the game starts the seat is open
        again; once it has started a bot plays the seat to the end (nobody is left waiting).
        Either way their token stops working and their sockets watch."""
        s = self.seats[seat]
        if s.kind != "human":
            raise RoomError("not_seated", "you are not sitting at this table")
        if self.closed or self.over:
            raise RoomError("over", "the game is over: there is nothing to leave")
        self._write({"type": "leave", "seat": seat, "bot": "greedy" if self.started else None}, now)

    def end_table(self, seat: int, now: float) -> None:
        """End the table for good: only the one person at a table of bots may."""
        if self.seats[seat].kind != "human" or self._other_people(seat):
            raise RoomError("not_alone", "only a player alone with bots may end the table")
        if self.closed:
            raise RoomError("closed", "this table is closed")
        self.close(now, f"ended by {self.seats[seat].name}")

    def takeback(self, seat: int, now: float) -> int:
        """Take back the last move ``seat`` made in this hand, and the moves after it, while
        the hand goes on; returns the ply it goes back to. Against bots it is done at once;
        with other people at the table it is asked of them (:meth:`answer_takeback`), and done
        when every one of them says yes."""
        if self.closed or not self.started or self.state.is_over:
            raise RoomError("takeback", "there is no move of this hand to take back")
        ply = self._last_own_move(seat)
        if ply is None:
            raise RoomError("takeback", "you have made no move in this hand yet")
        if self._other_people(seat):
            if self.asking is not None:
                raise RoomError("takeback", "a takeback is being asked already")
            self._write({"type": "takeback_ask", "seat": seat, "ply": ply}, now)
            return ply
        self._write({"type": "takeback", "seat": seat, "ply": ply}, now)
        return ply

    def answer_takeback(self, seat: int, yes: bool, now: float) -> None:
        """``seat`` (another person at the table) agrees to the takeback asked, or refuses it;
        the last yes takes the moves back."""
        asking = self.asking
        if asking is None or asking[0] == seat or self.seats[seat].kind != "human":
            raise RoomError("takeback", "no takeback is asked of you")
        self._write({"type": "takeback_answer", "seat": seat, "yes": yes}, now)
        if not yes:
            return
        people = {k for k, s in enumerate(self.seats) if s.kind == "human" and k != asking[0]}
        if people <= asking[2] | {seat}:
            self._write({"type": "takeback", "seat": asking[0], "ply": asking[1]}, now)

    def _other_people(self, seat: int) -> bool:
        return any(s.kind == "human" for k, s in enumerate(self.seats) if k != seat)

    def _last_own_move(self, seat: int) -> int | None:
        """The ply of the last move ``seat`` made itself in this hand (not a bot for it)."""
        state, found = self.state.initial, None
        for ply, action in enumerate(self.state.moves):
            if state.actor == seat and ply not in self.made_for:
                found = ply
            state = state.apply(action)
        return found

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
            why = "time" if s.away_why == "time" else "away"
            return BotTurn(k, "greedy", view(self.state, k), self.version, why)
        if s.bank is not None and s.bank - (now - self.turn_started) <= 0:
            return BotTurn(k, "greedy", view(self.state, k), self.version, "time")
        return None

    def bot_move(self, turn: BotTurn, action: Action, now: float) -> bool:
        """Apply the agent's answer to ``turn`` if the room has not moved on; True if played."""
        if self.version != turn.version or self.state.actor != turn.seat:
            return False
        if action not in self.state.legal_actions():
            action = self.state.legal_actions()[0]
        s = self.seats[turn.seat]
        if turn.why == "time" and not s.away_bot:
            # the player's time ran out: a bot plays for them until they take the seat back
            self._write({"type": "away", "seat": turn.seat, "bot": True, "why": "time"}, now)
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
        # a table of the invertible mix may have had a hand's seed published: its later hands
        # are dealt from fresh seeds
        index = len(self.match.hands)
        seed = self.config.hand_seed(index) if self.config.seeds >= 2 else random_seed()
        self._write({"type": "deal", "seed": seed}, now)

    # ----------------------------------------------------------------- chat
    def say(
        self, who: int | None, name: str, key: str, text: str, now: float, verified: bool = False
    ) -> None:
        """Post to the table chat (``who``: a seat, or ``None`` for a spectator named ``name``,
        ``verified`` when that is a signed-in spectator's account name); ``key`` identifies the
        sender for the rate limit."""
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
        # a spectator's message is marked as such (``seat`` null): clients show it as
        # watching, so nobody can speak as a seated player
        entry: Entry = {"type": "chat", "seat": who, "name": shown_name or "guest", "text": message}
        if (verified and who is None) or (who is not None and self.seats[who].account):
            entry["account"] = True  # the name is a signed-in person's account name
        self._write(entry, now)

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
            s.account = bool(entry.get("account"))
            if self.started and self.game_version == 0:
                self._start(now)
        elif kind == "token":
            self.seats[entry["seat"]].token = entry["token"]
        elif kind == "owner":
            self.seats[entry["seat"]].owner = entry["owner"]
        elif kind == "claim":
            s = self.seats[entry["seat"]]
            s.owner, s.claim, s.token = entry["owner"], entry["claim"], entry["token"]
            s.account = bool(entry.get("account"))
            if entry.get("name"):
                s.name = entry["name"]
        elif kind == "move":
            self.asking = None  # a move ends a takeback question
            seat = entry["seat"]
            if entry.get("by") in MADE_FOR:
                self.made_for[self.state.ply] = (seat, entry["by"])
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
            seed = entry.get("seed")
            if seed is None:  # a table stored before deals named their seed
                seed = self.config.hand_seed(len(self.match.hands))
            self.match = self.match.next_hand(seed=int(seed))
            self.made_for = {}
            self.game_version = self.version
            self.turn_started = now
            self.hand_over_at = None
        elif kind == "away":
            s = self.seats[entry["seat"]]
            s.away_bot = bool(entry["bot"])
            s.away_why = entry.get("why", "gone") if s.away_bot else ""
            if "bank" in entry:
                s.bank = float(entry["bank"])
                if self.state.actor == entry["seat"]:
                    self.turn_started = now
        elif kind == "leave":
            s = self.seats[entry["seat"]]
            if entry.get("bot"):
                self.left_at[entry["seat"]] = (len(self.match.hands), self.state.ply)
                s.kind, s.bot, s.left, s.left_owner = "bot", entry["bot"], s.name, s.owner
                s.account = False
                s.name = f"{s.name} (left)"
            else:
                s.kind, s.name = "open", ""
            s.owner = s.token = s.claim = None
            s.away_bot, s.away_why, s.connected, s.gone_since = False, "", 0, None
        elif kind == "takeback_ask":
            self.asking = (int(entry["seat"]), int(entry["ply"]), frozenset())
        elif kind == "takeback_answer":
            if self.asking is not None:
                if entry["yes"]:
                    who, ply, yes = self.asking
                    self.asking = (who, ply, yes | {int(entry["seat"])})
                else:
                    self.asking = None
        elif kind == "takeback":
            self.asking = None
            ply = int(entry["ply"])
            state = self.state.initial
            for action in self.state.moves[:ply]:
                state = state.apply(action)
            self.match = self.match.with_current(state)
            self.made_for = {p: m for p, m in self.made_for.items() if p < ply}
            hand = len(self.match.hands)
            for k, (at_hand, at_ply) in list(self.left_at.items()):
                if at_hand == hand and at_ply > ply:  # the moves taken back were the bot's
                    self.left_at[k] = (hand, ply)
            self.game_version = self.version
            self.turn_started = now
        elif kind == "chat":
            self.chat.append(
                {
                    "v": self.version,
                    "seat": entry["seat"],
                    "name": entry["name"],
                    "watching": entry["seat"] is None,
                    "text": entry["text"],
                    "account": bool(entry.get("account")),
                    "t": now,
                }
            )
        elif kind == "start":
            self._start(now)
        elif kind == "close":
            self.closed = True
            self.close_reason = str(entry.get("reason", ""))
        elif kind == "pause":
            # the server could not save moves for a while: that time is nobody's
            self.turn_started = min(now, self.turn_started + float(entry["seconds"]))
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

    def close(self, now: float, reason: str = "") -> None:
        """End the table (nobody may move any more); ``reason`` is kept in the journal."""
        if not self.closed:
            self._write({"type": "close", "reason": reason} if reason else {"type": "close"}, now)

    def pause(self, seconds: float, now: float) -> None:
        """Give back ``seconds`` to the player on turn (the server could not save moves for
        that long): the clock of the turn starts that much later."""
        if seconds > 0 and self.status == "playing" and self.config.clock is not None:
            self._write({"type": "pause", "seconds": round(seconds, 3)}, now)

    # ----------------------------------------------------------------- what people see
    def snapshot(self, seat: int | None, now: float) -> dict[str, Any]:
        """Everything ``seat`` (``None``: a spectator) may know, as JSON: the table, the view
        of the current hand, the hands played so far and the chat."""
        state = self.state
        v = view(state, seat)
        data = v.to_json()
        seats = [s.public() for s in self.seats]
        for j, (hand, ply) in self.left_at.items():
            # the moves of this hand before it are the player's, named as they were then
            seats[j]["left_ply"] = ply if hand == len(self.match.hands) else 0
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
            "rated": self.config.rated,
            "seats": seats,
            "you": seat,
            "claim": None if seat is None else shown_claim(self.seats[seat].claim),
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
            "made_for": [[ply, k, why] for ply, (k, why) in sorted(self.made_for.items())],
            "takeback_asked": None
            if self.asking is None
            else {"seat": self.asking[0], "yes": sorted(self.asking[2])},
            "rematch": self.rematch,
            "closed": {"reason": self.close_reason} if self.closed and not self.over else None,
            "view": data,
            "moves": [] if self.closed else moves_json(v),
            "chat": list(self.chat),
        }


def open_room(
    table_id: str, config: TableConfig, now: float, token_key: bytes | None = None
) -> Room:
    """A new room for ``config``: bots seated, other seats open; journals a ``start`` entry at
    once when no seat is open. ``token_key`` derives the seats' tokens (default: a random
    key, good for this process only)."""
    room = _empty(table_id, config, token_key)
    if room.started:
        room._write({"type": "start"}, now)
    return room


def _empty(table_id: str, config: TableConfig, token_key: bytes | None) -> Room:
    game = get_game(config.game)
    options = game.make_options(dict(config.options))
    first = game.new(config.players, options=options, seed=config.hand_seed(0), board=config.board)
    match = match_of([first], config.seed)
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
    if token_key is None:
        return Room(table_id, config, match, seats)
    return Room(table_id, config, match, seats, token_key=token_key)


def _bot_name(spec: str, seat: int) -> str:
    kind, _, level = spec.partition(":")
    label = {
        "ismcts": "Search bot",
        "greedy": "Greedy bot",
        "casual": "Casual bot",
        "random": "Random bot",
    }.get(kind, "Bot")
    return f"{label}{' (' + level + ')' if level else ''}"


def restore(
    table_id: str,
    config: TableConfig,
    entries: Sequence[tuple[int, Entry]],
    token_key: bytes | None = None,
) -> Room:
    """The room ``table_id`` as its journal left it."""
    room = _empty(table_id, config, token_key)
    for version, entry in entries:
        if version != room.version + 1:
            raise ValueError(f"journal of table {table_id} skips from {room.version} to {version}")
        room._apply(dict(entry))
    return room


__all__ = [
    "ABANDONED",
    "CLAIM_ALPHABET",
    "CLAIM_LENGTH",
    "BotTurn",
    "Room",
    "RoomError",
    "Seat",
    "TableConfig",
    "new_claim_code",
    "new_config",
    "open_room",
    "restore",
    "shown_claim",
    "token_hash",
    "typed_claim",
]
