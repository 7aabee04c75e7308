"""The terminal's side of a web server's accounts and pools: signing in (``bonepile login``),
the cookies each request carries, and waiting in a quick-pairing pool.

A sign-in keeps the server's sign-in cookie in a file readable by this user only
(:func:`logins_file`), one per server; every later request to that server carries it, so
``bonepile play --join`` and ``--pair`` play as the account. Without a sign-in the terminal is
an anonymous browser: its cookies live as long as the command.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bonepile.errors import BonepileError
from bonepile.files import write_text_atomic

SIGNIN_COOKIES = ("bonepile_signin", "__Host-bonepile_signin")
"""The names a server gives its sign-in cookie (the second behind TLS)."""
ASK_EVERY = 1.5
"""Seconds between two asks of a pairing pool."""


class WebError(BonepileError):
    """A server that cannot be reached, or refused (its one-line reason)."""


def logins_file() -> Path:
    """Where the sign-ins of this terminal's user are kept."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(os.environ.get("BONEPILE_LOGINS") or Path(base) / "bonepile" / "logins.json")


def server_base(url: str) -> str:
    """``http://host:8000/anything`` -> ``http://host:8000``."""
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise WebError(f"{url!r} is not a server's address (expected http://HOST:PORT)")
    return f"{parts.scheme}://{parts.netloc}"


def _logins() -> dict[str, Any]:
    try:
        data = json.loads(logins_file().read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_logins(logins: dict[str, Any]) -> None:
    path = logins_file()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(logins, indent=1), private=True)


class Web:
    """Requests to one server with one set of cookies (this terminal's sign-in, if any)."""

    def __init__(self, base: str) -> None:
        self.base = server_base(base)
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        kept = _logins().get(self.base)
        self.name: str | None = None
        if isinstance(kept, dict) and isinstance(kept.get("cookie"), str):
            self.name = str(kept.get("name") or "")
            self._header = f"{kept.get('cookie_name', SIGNIN_COOKIES[0])}={kept['cookie']}"
        else:
            self._header = ""

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """``(status, JSON)`` of one request; :class:`WebError` if the server cannot be
        reached."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if self._header:  # the kept sign-in, with this session's own cookies
            mine = [f"{c.name}={c.value}" for c in self.jar if c.name not in SIGNIN_COOKIES]
            headers["Cookie"] = "; ".join([self._header, *mine])
        req = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with self.opener.open(req, timeout=20) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read())
            except ValueError:
                return e.code, {"message": str(e)}
        except (OSError, ValueError) as e:
            raise WebError(f"cannot reach {self.base}: {getattr(e, 'reason', e)}") from None

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        """The JSON of a request that must succeed (else :class:`WebError` with the server's
        message)."""
        status, got = self.request(method, path, body)
        if status != 200:
            message = got.get("message") if isinstance(got, dict) else None
            raise WebError(str(message or f"the server answered {status}"))
        return got

    def signin_cookie(self) -> tuple[str, str] | None:
        """The sign-in cookie the server set in this session, as ``(name, value)``."""
        for cookie in self.jar:
            if cookie.name in SIGNIN_COOKIES and cookie.value:
                return cookie.name, cookie.value
        return None


def login(base: str, name: str, password: str) -> str:
    """Sign in to the server at ``base`` and keep the sign-in; returns the account's name."""
    web = Web(base)
    web._header = ""  # a new sign-in, whatever was kept
    got = web.ok("POST", "/api/account/signin", {"name": name, "password": password})
    cookie = web.signin_cookie()
    if cookie is None:
        raise WebError("the server signed in but gave no sign-in cookie")
    logins = _logins()
    logins[web.base] = {"name": got["name"], "cookie_name": cookie[0], "cookie": cookie[1]}
    _save_logins(logins)
    return str(got["name"])


def logout(base: str) -> str | None:
    """Sign out of the server at ``base`` (if signed in): the server ends the session and the
    terminal forgets it. Returns the account's name, or ``None``."""
    web = Web(base)
    logins = _logins()
    kept = logins.pop(web.base, None)
    if kept is None:
        return None
    try:
        web.request("POST", "/api/account/signout", {})
    finally:
        _save_logins(logins)
    return web.name


def pair(
    web: Web,
    game: str,
    players: int | None,
    rated: bool,
    name: str,
    told: Callable[[dict[str, Any]], None] = lambda st: None,
    limit: float = 600.0,
) -> str:
    """Wait in the pool for ``game`` until seated; the table's id. ``told`` hears each
    waiting status. Interrupted (Ctrl-C) or past ``limit`` seconds, the pool is left."""
    body: dict[str, Any] = {"game": game, "rated": rated, "name": name}
    if players is not None:
        body["players"] = players
    st = web.ok("POST", "/api/pairing", body)
    deadline = time.monotonic() + limit
    try:
        while st.get("status") != "seated":
            if time.monotonic() > deadline:
                raise WebError("nobody came: try again later, or play the bots")
            if st.get("status") == "waiting":
                told(st)
            time.sleep(ASK_EVERY)
            st = web.ok("GET", f"/api/pairing/{st['id']}")
    except BaseException:
        web.request("POST", f"/api/pairing/{st['id']}/leave", {})
        raise
    return str(st["table"])


__all__ = [
    "ASK_EVERY",
    "SIGNIN_COOKIES",
    "Web",
    "WebError",
    "login",
    "logins_file",
    "logout",
    "pair",
    "server_base",
]
