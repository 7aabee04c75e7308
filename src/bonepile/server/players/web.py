"""Accounts over HTTP: sign up, sign in, sign out (here or everywhere), change the password,
delete the account, and see what the server keeps about you.

Who a request is (:func:`identify`): a browser that is signed in is its account, whose
``owner`` id holds its seats and hands on every device; any other browser is its own anonymous
id, kept in the app's signed cookie. Signing up or in gives the browser a new sign-in token in
an HttpOnly, SameSite=Lax cookie (``__Host-`` prefixed and Secure behind TLS) and a new
anonymous id, so nothing a browser held before it signed in can be used to act as the account.
Signing up hands the seats and finished hands of the browser's anonymous id to the account.

Wrong passwords are limited per account name and per browser and address, across a site's
processes; the answer to an unknown name and to a wrong password is the same, in the same time.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from bonepile.errors import BonepileError
from bonepile.server.limits import Guesses, TooMany, wait_text
from bonepile.server.players.accounts import SESSION_LIFE, Account, Accounts
from bonepile.server.players.manners import Manners
from bonepile.server.players.names import name_key
from bonepile.server.players.pairing import Pairing
from bonepile.server.players.rated import RatedTables
from bonepile.server.players.ratings import Ratings
from bonepile.server.tables.hub import Hub

HASHES_AT_ONCE = 4
"""Password hashes computed at once by one process (each takes 64 MiB for a tenth of a second):
more wait their turn."""


class SignInFailed(BonepileError):
    """A wrong name or password (which of the two is never said)."""

    code = "signin"


class SignedOut(BonepileError):
    """The request needs a signed-in browser."""

    code = "signed_out"


class Credentials(BaseModel):
    """A name and a password (signing up or in)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=64)
    password: str = Field(max_length=1024)


class PasswordChange(BaseModel):
    """The current password and the new one."""

    model_config = ConfigDict(extra="forbid")
    old: str = Field(max_length=1024)
    new: str = Field(max_length=1024)


class Confirmation(BaseModel):
    """The password, asked again before something that cannot be undone."""

    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1024)


@dataclass(frozen=True)
class Identity:
    """Who asks: ``owner``, the id seats and hands are held under, and the ``account`` (with
    its sign-in ``token``) when the browser is signed in."""

    owner: str
    account: Account | None = None
    token: str | None = None


class Players:
    """The accounts of a hub's database, with the limits on guessing passwords."""

    def __init__(self, hub: Hub, secure: bool = False) -> None:
        self.hub = hub
        self.accounts = Accounts(hub.store)
        self.ratings = Ratings(hub.store)
        self.rated = RatedTables(hub, self.ratings, self.accounts)
        self.pairing = Pairing(hub.store)
        self.manners = Manners(hub.store)
        hub.on_end = self.rated.ended
        self.cookie = "__Host-bonepile_signin" if secure else "bonepile_signin"
        self.secure = secure
        limits = hub.limits
        window = limits.signins_window
        self._guesses = Guesses(
            hub.counter("signin-client", limits.signins_per_client, window),
            hub.counter("signin-name", limits.signins_per_name, window),
            hub.counter("signin-here", 1, window),
            "passwords",
        )
        self._signups = hub.counter(
            "signups-address", limits.signups_per_address, limits.signups_window
        )
        self._hashing = asyncio.Semaphore(HASHES_AT_ONCE)

    async def seat(
        self,
        game: str,
        players: int,
        people: Sequence[tuple[str, str, bool]],
        rated: bool,
        table_id: str | None = None,
    ) -> str:
        """A new table of ``game`` for ``players`` with ``people`` seated in order, each an
        ``(owner, name, signed in)`` (the other seats open), made for them by pairing or a
        challenge: not counted against the first one's limits. Returns its id."""
        (owner, name, account), *others = people
        table_id, _, _ = await self.hub.create(
            game,
            ["me"] + ["open"] * (players - 1),
            {},
            False,
            None,
            owner,
            name,
            rated=rated,
            table_id=table_id,
            paired=True,
            account=account,
        )
        for k, (owner, name, account) in enumerate(others, 1):
            await self.hub.join(table_id, owner, name, k, account)
        return table_id

    async def identify(self, request: HTTPConnection) -> Identity:
        """Who ``request`` comes from (see the module's description)."""
        token = request.cookies.get(self.cookie)
        if token:
            account = await asyncio.to_thread(self.accounts.session, token, self.hub.now())
            if account is not None:
                return Identity(account.owner, account, token)
        return Identity(anonymous_id(request))

    async def signed_in(self, request: Request) -> Identity:
        """The identity of a signed-in browser, or :class:`SignedOut`."""
        who = await self.identify(request)
        if who.account is None:
            raise SignedOut("sign in first")
        return who

    # ------------------------------------------------------------------ guessing
    async def _may_guess(self, name: str, request: Request) -> None:
        guessers = (anonymous_id(request), _address(request))
        await self._guesses.check(name_key(name)[:40], guessers, self.hub.now())

    async def _guessed_wrong(self, name: str, request: Request) -> None:
        guessers = (anonymous_id(request), _address(request))
        await self._guesses.missed(name_key(name)[:40], guessers, self.hub.now())

    async def check(self, name: str, password: str, request: Request) -> Account:
        """The account if ``password`` is its password (within the limits on guessing), else
        :class:`SignInFailed` or :class:`TooMany`."""
        await self._may_guess(name, request)
        async with self._hashing:
            account = await asyncio.to_thread(self.accounts.check, name, password, self.hub.now())
        if account is None:
            await self._guessed_wrong(name, request)
            raise SignInFailed("wrong name or password")
        return account

    # ------------------------------------------------------------------ signing in
    async def sign_up(self, body: Credentials, request: Request, response: Response) -> Account:
        """Make the account, sign this browser in, and hand it this browser's seats."""
        address = _address(request)
        now = self.hub.now()
        before = await self.identify(request)
        wait = await self._signups.check(address, now)
        if wait is not None:
            raise TooMany(f"too many new accounts: try again in {wait_text(wait)}", wait)
        async with self._hashing:
            account = await asyncio.to_thread(self.accounts.sign_up, body.name, body.password, now)
        await self._signups.hit(address, now)
        await self._sign_in(account, request, response)
        if before.account is None:  # a browser signed in to another account carries nothing
            await self.hub.adopt(before.owner, account.owner, account.name, account=True)
        return account

    async def sign_in(self, body: Credentials, request: Request, response: Response) -> Account:
        """Check the password and sign this browser in (a new token, a new anonymous id)."""
        account = await self.check(body.name, body.password, request)
        await self._sign_in(account, request, response)
        return account

    async def _sign_in(self, account: Account, request: Request, response: Response) -> None:
        old = request.cookies.get(self.cookie)
        if old:
            await asyncio.to_thread(self.accounts.close_session, old)
        token = await asyncio.to_thread(self.accounts.open_session, account, self.hub.now())
        request.session["pid"] = secrets.token_hex(16)
        response.set_cookie(
            self.cookie,
            token,
            max_age=int(SESSION_LIFE),
            path="/",
            secure=self.secure,
            httponly=True,
            samesite="lax",
        )

    def forget(self, request: Request, response: Response) -> str:
        """Sign this browser out: its cookie goes, and it gets a new anonymous id (returned)."""
        pid = request.session["pid"] = secrets.token_hex(16)
        response.delete_cookie(
            self.cookie, path="/", secure=self.secure, httponly=True, samesite="lax"
        )
        return pid

    # ------------------------------------------------------------------ the account
    async def sign_out_everywhere(self, who: Identity) -> int:
        """End every session of the account and retire every seat token any device of it
        was given (the seats stay the account's). How many sessions ended."""
        assert who.account is not None
        # the sessions end first: a device told its token retired asks again at once, and
        # must find itself signed out, not signed in under the new id
        ended = await asyncio.to_thread(self.accounts.close_all, who.account)
        renewed = await asyncio.to_thread(self.accounts.new_owner, who.account)
        await self.hub.adopt(who.account.owner, renewed.owner, account=True)
        return ended

    async def change_password(self, who: Identity, body: PasswordChange, request: Request) -> None:
        """Change the password; every other session of the account ends."""
        assert who.account is not None
        await self._may_guess(who.account.name, request)
        async with self._hashing:
            changed = await asyncio.to_thread(
                self.accounts.change_password,
                who.account,
                body.old,
                body.new,
                self.hub.now(),
                who.token,
            )
        if not changed:
            await self._guessed_wrong(who.account.name, request)
            raise SignInFailed("that is not your current password")

    async def delete(
        self, who: Identity, body: Confirmation, request: Request, response: Response
    ) -> None:
        """Delete the account after checking its password: its sessions end, its hands are
        no longer linked to anyone, this browser is signed out, and the seats the account
        holds go to this browser alone (its games can end)."""
        assert who.account is not None
        account = await self.check(who.account.name, body.password, request)
        await asyncio.to_thread(self.ratings.forget, account.id)
        await asyncio.to_thread(self.manners.forget, account.id)
        await asyncio.to_thread(self.accounts.delete, account)
        await asyncio.to_thread(self.hub.store.move_games, account.owner, None)
        mine = self.forget(request, response)
        await self.hub.adopt(account.owner, mine)

    async def stored(self, who: Identity) -> dict[str, Any]:
        """Everything the server keeps about the account, as JSON."""
        assert who.account is not None
        account = who.account
        sessions = await asyncio.to_thread(self.accounts.sessions, account, who.token)
        games = await asyncio.to_thread(self.hub.store.games, 10_000, None, None, account.owner)
        standings = await asyncio.to_thread(self.ratings.standings, account.id)
        history = {
            f"{s.game}/{s.players}": await asyncio.to_thread(
                self.ratings.history, account.id, s.game, s.players
            )
            for s in standings
        }
        manners = await asyncio.to_thread(self.manners.kept, account.id)
        ids = [*manners["blocked"]]
        ids += [i for c in manners["challenges"] for i in (c.from_id, c.to_id)]
        names = {i: a.name for i, a in (await asyncio.to_thread(self.accounts.by_ids, ids)).items()}
        return {
            "account": {"name": account.name, "created": account.created},
            "password": "kept only as an Argon2id hash, which is never shown",
            "sessions": sessions,
            "blocked": sorted(names.get(i, "(deleted)") for i in manners["blocked"]),
            "challenges": [
                {
                    "from": names.get(c.from_id, "(deleted)"),
                    "to": names.get(c.to_id, "(deleted)"),
                    "game": c.game,
                    "players": c.players,
                    "rated": c.rated,
                    "created": c.created,
                    "status": c.status,
                }
                for c in manners["challenges"]
            ],
            "reports_filed": manners["reports"],
            "ratings": [s.to_json() for s in standings],
            "rating_history": history,
            "hands": [
                {"id": g.id, "game": g.game, "names": g.names, "finished": g.finished}
                for g in games
            ],
        }


def anonymous_id(request: HTTPConnection) -> str:
    """The browser's own anonymous id (made on its first visit), in the app's signed cookie."""
    pid = request.session.get("pid")
    if not isinstance(pid, str) or len(pid) != 32:
        pid = secrets.token_hex(16)
        request.session["pid"] = pid
    return pid


def _address(request: Request) -> str:
    client = request.client
    return client.host if client is not None else ""


def players_of(request: HTTPConnection) -> Players:
    """The app's :class:`Players` (made with its hub)."""
    got: Players = request.app.state.players
    return got


def _me(who: Identity) -> dict[str, Any]:
    account = who.account
    if account is None:
        return {"signed_in": False, "name": None}
    return {"signed_in": True, "name": account.name, "created": account.created}


def add_account_routes(app: FastAPI) -> None:
    """The account API, under ``/api/account`` (docs/server.md lists it)."""

    @app.get("/api/account")
    async def me(request: Request) -> JSONResponse:
        who = await players_of(request).identify(request)
        return JSONResponse(_me(who), headers={"Cache-Control": "no-store"})

    @app.post("/api/account/signup")
    async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        account = await players_of(request).sign_up(body, request, response)
        return _me(Identity(account.owner, account))

    @app.post("/api/account/signin")
    async def sign_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        account = await players_of(request).sign_in(body, request, response)
        return _me(Identity(account.owner, account))

    @app.post("/api/account/signout")
    async def sign_out(request: Request, response: Response) -> dict[str, Any]:
        players = players_of(request)
        token = request.cookies.get(players.cookie)
        if token:
            await asyncio.to_thread(players.accounts.close_session, token)
        players.forget(request, response)
        return _me(Identity(""))

    @app.post("/api/account/signout-everywhere")
    async def sign_out_everywhere(request: Request, response: Response) -> dict[str, Any]:
        players = players_of(request)
        who = await players.signed_in(request)
        ended = await players.sign_out_everywhere(who)
        players.forget(request, response)
        return {**_me(Identity("")), "ended": ended}

    @app.post("/api/account/password")
    async def change_password(body: PasswordChange, request: Request) -> dict[str, Any]:
        players = players_of(request)
        who = await players.signed_in(request)
        await players.change_password(who, body, request)
        return _me(who)

    @app.post("/api/account/delete")
    async def delete(body: Confirmation, request: Request, response: Response) -> dict[str, Any]:
        players = players_of(request)
        who = await players.signed_in(request)
        await players.delete(who, body, request, response)
        return _me(Identity(""))

    @app.get("/api/account/data")
    async def stored(request: Request) -> Response:
        players = players_of(request)
        who = await players.signed_in(request)
        data = await players.stored(who)
        return JSONResponse(
            data,
            headers={
                "Cache-Control": "no-store",
                "Content-Disposition": 'attachment; filename="bonepile-account.json"',
            },
        )


__all__ = [
    "Confirmation",
    "Credentials",
    "Identity",
    "PasswordChange",
    "Players",
    "SignInFailed",
    "SignedOut",
    "add_account_routes",
    "anonymous_id",
    "players_of",
]
