"""A table of the web server played from the terminal (``bonepile play --join URL``): a
client of the documented protocol (``docs/server.md``), nothing more.

It takes a free seat through the HTTP API (or watches when none is left), keeps the seat's
token in a small file so that running the command again sits it back down, and talks over the
table socket on a thread of its own. As in the browser, a dropped connection is opened again
(the hello says which version it has) and a move not yet acknowledged is sent again with the
same id, so it is played once.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from bonepile.actions import Action, parse_action
from bonepile.errors import BonepileError, IllegalActionError
from bonepile.files import write_text_atomic
from bonepile.games import get_game
from bonepile.tui.explain import Ending
from bonepile.tui.web import Web, WebError
from bonepile.view import View

RETRY = (0.25, 0.5, 1.0, 2.0, 4.0)
"""Seconds to wait before each new try to reconnect (the last repeats)."""
PING_EVERY = 2.5
"""Seconds between two pings of the server (a live one answers at once)."""
PING_LIMIT = 4.5
OPEN_LIMIT = 6.0
"""Seconds an unanswered ping, or a connection that does not open, is given: then the server
is taken for dead or frozen, the player is told, and the connection is made anew (the web
page keeps the same watch)."""
_QUIET = logging.getLogger("bonepile.tui.socket")
_QUIET.addHandler(logging.NullHandler())
_QUIET.propagate = False
STORAGE_RETRY = 3.0
"""Seconds before a move the server could not save yet is sent again."""
NAME_LIMIT = 16
"""Characters of a player's name the seats line keeps (what is said of the seat follows)."""


class JoinError(BonepileError):
    """A table that cannot be joined (a bad address, an unknown table, no server)."""


def seats_file() -> Path:
    """Where the tokens of the seats taken from this terminal are kept."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(os.environ.get("BONEPILE_SEATS") or Path(base) / "bonepile" / "seats.json")


def parse_table_url(url: str) -> tuple[str, str]:
    """``http://host:8000/t/ID`` (the invite link) -> ``("http://host:8000", "ID")``."""
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise JoinError(f"{url!r} is not a table's address (expected http://HOST:PORT/t/TABLE)")
    path = [p for p in parts.path.split("/") if p]
    if len(path) != 2 or path[0] != "t":
        raise JoinError(f"{url!r} is not a table's address (expected http://HOST:PORT/t/TABLE)")
    return f"{parts.scheme}://{parts.netloc}", path[1]


def _ask(web: Web, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
    try:
        status, got = web.request(method, path, body)
    except WebError as e:
        raise JoinError(str(e)) from None
    return status, got if isinstance(got, dict) else {}


class RemoteTable:
    """A seat (or a spectator's chair) at a table of the web server, kept up to date by a
    thread that reads the table socket; the app is told of each new state."""

    def __init__(self, base: str, table: str, seat: int | None, token: str | None) -> None:
        self.base, self.table = base, table
        self.seat, self.token = seat, token
        self.snap: dict[str, Any] | None = None
        self._view: tuple[dict[str, Any], View] | None = None
        self.pending: dict[str, Any] | None = None
        self.note = ""
        self.app: Any = None
        self.closed = False
        self.ws: Any = None
        self.ready = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, daemon=True, name="bonepile-socket")

    @classmethod
    def connect(cls, url: str, name: str = "terminal", web: Web | None = None) -> RemoteTable:
        """Sit at the table at ``url`` (again, with the token kept from last time), or watch
        it when every seat is taken; wait for its first state. Signed in to the server
        (``bonepile login``), the terminal sits as the account: at the account's seat if it
        has one there (taken on any device), else at a free one under the account's name."""
        base, table = parse_table_url(url)
        try:
            web = web or Web(base)
        except WebError as e:
            raise JoinError(str(e)) from None
        kept = _read_seats().get(f"{base}/t/{table}")
        seat: Any = None
        token: str | None = None
        if web.name is not None or web.signin_cookie() is not None or web.jar:
            status, got = _ask(web, "GET", f"/api/tables/{table}")
            if status == 200 and isinstance(got.get("token"), str):
                seat, token = got["seat"], got["token"]
        if token is None and isinstance(kept, dict) and isinstance(kept.get("token"), str):
            seat, token = kept.get("seat"), kept["token"]
        if token is None:
            status, got = _ask(web, "POST", f"/api/tables/{table}/join", {"name": name})
            if status == 409:
                seat, token = None, None  # every seat taken: watch
            elif status != 200:
                raise JoinError(f"cannot join: {got.get('message', status)}")
            else:
                seat, token = got["seat"], got["token"]
        if isinstance(seat, int) and token is not None:
            _keep_seat(f"{base}/t/{table}", seat, token)
        remote = cls(base, table, seat if isinstance(seat, int) else None, token)
        remote.thread.start()
        if not remote.ready.wait(15):
            remote.close()
            raise JoinError(f"no answer from {base}: {remote.note or 'timed out'}")
        if remote.snap is None:
            remote.close()
            raise JoinError(remote.note or "the table refused the connection")
        return remote

    # ------------------------------------------------------------------ the socket
    def _run(self) -> None:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        ws_base = "ws" + self.base[4:]
        tries = 0
        while not self.closed:
            try:
                with connect(
                    f"{ws_base}/ws/table/{self.table}",
                    open_timeout=OPEN_LIMIT,
                    ping_interval=PING_EVERY,
                    ping_timeout=PING_LIMIT,
                    close_timeout=1,  # a dead server sends no goodbye: do not wait for one
                    logger=_QUIET,  # the note tells the player; a log line would cross the screen
                ) as ws:
                    self.ws = ws
                    since = -1 if self.snap is None else int(self.snap["v"])
                    hello = {"type": "hello", "token": self.token, "since": since, "width": 40}
                    ws.send(json.dumps(hello))
                    tries = 0
                    for raw in ws:
                        self._receive(json.loads(raw))
            except (OSError, WebSocketException, ValueError) as e:
                self.note = f"connection lost ({e.__class__.__name__}); reconnecting…"
                self._tell()
            finally:
                self.ws = None
            if self.closed:
                return
            time.sleep(RETRY[min(tries, len(RETRY) - 1)])
            tries += 1

    def _receive(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "state":
            notice = msg.get("notice")
            with self.lock:
                self.snap = msg
                # the server cannot save moves for a while: say so until it can again
                self.note = str(notice.get("message", "")) if isinstance(notice, dict) else ""
            self.ready.set()
            self._resend()
        elif kind == "ack":
            with self.lock:
                if self.pending is not None and self.pending["id"] == msg.get("id"):
                    self.pending = None
        elif kind == "error":
            code = msg.get("code")
            with self.lock:
                self.note = str(msg.get("message") or code)
                if code == "storage" and self.pending is not None:
                    # not refused, only not saved yet: the move waits and is sent again
                    timer = threading.Timer(STORAGE_RETRY, self._resend)
                    timer.daemon = True
                    timer.start()
                elif code not in ("hello",) and self.pending is not None:
                    self.pending = None  # stale, illegal or not our turn: the state follows
            if code == "token" and self.snap is not None:
                # the seat was claimed on another device: this terminal watches from now on
                self.token, self.seat = None, None
                _forget_seat(f"{self.base}/t/{self.table}")
            if code == "hello" or self.snap is None:
                if self.token is not None and self.snap is None:
                    self.token, self.seat = None, None  # the seat was taken back: watch
                self.ready.set()
        self._tell()

    def _resend(self) -> None:
        with self.lock:
            pending = self.pending
        if pending is not None:
            self._send(pending)

    def _send(self, msg: dict[str, Any]) -> None:
        ws = self.ws
        if ws is None:
            return  # sent again once the connection is back
        try:
            ws.send(json.dumps(msg))
        except Exception:  # the reader sees the connection drop and reconnects
            return

    def _tell(self) -> None:
        app = self.app
        if app is not None:
            with contextlib.suppress(RuntimeError):  # the app is gone
                app.call_from_thread(app.remote_changed)

    # ------------------------------------------------------------------ the app's side
    def attach(self, app: Any) -> None:
        """Tell ``app`` (its ``remote_changed``) of every new state."""
        self.app = app

    def view(self) -> View:
        """The view the server sent this seat (a spectator's when watching)."""
        snap = self.snap
        assert snap is not None
        cached = self._view
        if cached is None or cached[0] is not snap:
            cached = self._view = (snap, View.from_json(snap["view"]))
        return cached[1]

    @property
    def hand_over(self) -> bool:
        """Whether the current hand is over."""
        return self.view().result is not None

    @property
    def over(self) -> bool:
        """Whether the table has nothing more to play."""
        assert self.snap is not None
        return bool(self.snap.get("match_over")) or (self.hand_over and not self.snap.get("match"))

    def names(self) -> tuple[str, ...]:
        """Who sits where, each with what the server says of the seat (:func:`seat_label`)."""
        assert self.snap is not None
        you = self.snap.get("you")
        mine = you if isinstance(you, int) and not isinstance(you, bool) else self.seat
        return tuple(
            "you" if k == mine else seat_label(s) for k, s in enumerate(self.snap["seats"])
        )

    def title(self) -> str:
        """The game's title, the table and the hand."""
        assert self.snap is not None
        title = get_game(self.snap["game"]).title + f" · table {self.table}"
        if self.snap.get("match"):
            title += f" · hand {self.snap.get('hand_number')}"
        if self.seat is None:
            title += " · watching"
        return title

    def totals(self) -> tuple[int, ...] | None:
        """The match totals, at a match table."""
        assert self.snap is not None
        return tuple(self.snap["totals"]) if self.snap.get("match") else None

    def ending(self) -> Ending:
        """What the screen says once a hand is over: the match, its totals and winners as
        the server sends them, and Enter's ``next hand`` for a seated player while the match
        goes on; q leaves the table (the seat stays this terminal's)."""
        snap = self.snap
        assert snap is not None
        match = bool(snap.get("match"))
        over = bool(snap.get("match_over"))
        target = snap.get("target")
        return Ending(
            match=match,
            match_over=match and over,
            winners=tuple(int(w) for w in snap.get("winners") or ()),
            totals=self.totals(),
            target=target if isinstance(target, int) else None,
            again="next hand" if match and not over and self.seat is not None else "",
            leave="leave",
        )

    def play(self, action: Action | str, seat: int) -> None:
        """Send a move (checked against the legal moves first); it is sent again after a
        reconnection until the server acknowledges it."""
        act = parse_action(action) if isinstance(action, str) else action
        v = self.view()
        if v.actor != seat or act not in v.legal:
            raise IllegalActionError(f"{act} is not legal here")
        assert self.snap is not None
        msg = {"type": "move", "id": uuid.uuid4().hex, "v": self.snap["v"], "action": str(act)}
        with self.lock:
            self.pending = msg
        self._send(msg)

    def next_hand(self) -> None:
        """Ask for the next hand of a match."""
        self._send({"type": "next_hand"})

    def deal_on(self) -> None:
        """Once the hand is over: ask the table for the next hand of the match (the web
        table's ``next_hand``)."""
        self.next_hand()

    def close(self) -> None:
        """Leave the table (the seat stays ours: its token is kept)."""
        self.closed = True
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(Exception):  # already gone
                ws.close()


def seat_label(seat: Any, limit: int = NAME_LIMIT) -> str:
    """A seat of the server's state message as the terminal shows it: the name (cut to
    ``limit``), then ``(away)`` only for a person with no connection to the table (the seat's
    ``present`` is false), ``(bot plays)`` while a bot plays for a connected person (their
    time ran out: ``away_bot``) and ``(away, bot plays)`` for one who is gone."""
    if not isinstance(seat, dict):
        return ""
    name = str(seat.get("name") or seat.get("bot") or seat.get("kind") or "")[:limit]
    if seat.get("kind") != "human":
        return name
    gone = seat.get("present") is False  # a server that does not say: not away
    if seat.get("away_bot"):
        return f"{name} ({'away, ' if gone else ''}bot plays)"
    return f"{name} (away)" if gone else name


def _read_seats() -> dict[str, Any]:
    path = seats_file()
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _keep_seat(key: str, seat: int, token: str) -> None:
    seats = _read_seats()
    seats[key] = {"seat": seat, "token": token}
    _write_seats(seats)


def _forget_seat(key: str) -> None:
    seats = _read_seats()
    if seats.pop(key, None) is not None:
        _write_seats(seats)


def _write_seats(seats: dict[str, Any]) -> None:
    """Keep the seats' tokens, readable by this user only (a token sits whoever holds it)."""
    path = seats_file()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_text_atomic(path, json.dumps(seats), private=True)
    except OSError:
        pass  # the seat still works now; only a later run cannot find it again


__all__ = ["JoinError", "RemoteTable", "parse_table_url", "seat_label", "seats_file"]
