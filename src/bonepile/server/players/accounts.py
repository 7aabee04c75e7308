"""Accounts and their sign-in sessions, in the server's database (SQLite or PostgreSQL; the
tables come with migration 0005, so every process of a site sees the same ones).

An account is a name (:mod:`~bonepile.server.players.names`) and an Argon2id hash of its
password (:mod:`~bonepile.server.players.passwords`). A session is what a signed-in browser or
terminal holds: a random token that only it has; the database keeps the token's SHA-256, so
a copy of the database signs nobody in. A session ends when its holder signs out, after
:data:`SESSION_IDLE` seconds unused or :data:`SESSION_LIFE` seconds in all, when the password
changes (every other session of the account) and when the account is deleted.

Password checks take a tenth of a second of a core: callers in an event loop run them in a
thread.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    String,
    Table,
    UniqueConstraint,
    false,
)
from sqlalchemy.exc import IntegrityError

from bonepile.errors import BonepileError
from bonepile.server.players.names import name_key, parse_name
from bonepile.server.players.passwords import (
    check_password,
    hash_password,
    needs_rehash,
    verify_password,
)
from bonepile.server.storage.store import PlainSql, Store, metadata

SESSION_LIFE = 30 * 24 * 3600.0
"""Seconds a session lasts at most from its sign-in."""
SESSION_IDLE = 7 * 24 * 3600.0
"""Seconds a session lasts unused."""
SEEN_EVERY = 3600.0
"""Seconds between two writes of a session's last use (a request does not write each time)."""

accounts_t = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(20), nullable=False),
    Column("name_key", String(20), nullable=False, unique=True),
    Column("password", String(255), nullable=False),
    Column("created", Float, nullable=False),
    Column("password_changed", Float, nullable=False),
    Column("owner", String(32), nullable=False),
    Column("hide_history", Boolean, nullable=False, server_default=false()),
    UniqueConstraint("owner", name="uq_accounts_owner"),
)

sessions_t = Table(
    "account_sessions",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Index("ix_account_sessions_account_id", "account_id"),
)


class NameTaken(BonepileError):
    """The name, or one that looks like it, belongs to another account."""

    code = "name_taken"


@dataclass(frozen=True)
class Account:
    """A signed-up person: ``id`` (never shown to others), ``name`` as they typed it, and
    ``owner``, the id its seats and hands are held under (what a browser's own anonymous id is
    to a browser), on every device it is signed in on."""

    id: str
    name: str
    created: float
    owner: str

    @classmethod
    def from_row(cls, row: tuple[Any, ...]) -> Account:
        """The account of a row of ``id, name, created, owner``."""
        return cls(str(row[0]), str(row[1]), float(row[2]), str(row[3]))


def _session_id(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Accounts:
    """The accounts and sessions of the database ``store``. Safe to use from threads."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ accounts
    def sign_up(self, name: str, password: str, now: float) -> Account:
        """A new account, or :class:`~bonepile.server.players.names.BadName`,
        :class:`~bonepile.server.players.passwords.BadPassword` or :class:`NameTaken`."""
        name = parse_name(name)
        check_password(password)
        key = name_key(name)
        account = Account(secrets.token_hex(16), name, now, secrets.token_hex(16))
        hashed = hash_password(password)
        with self.store.engine.begin() as conn:
            sql = PlainSql(conn)
            if sql.one("SELECT id FROM accounts WHERE name_key = ?", [key]):
                raise NameTaken("that name, or one that looks like it, is taken")
            try:
                sql.many(
                    "INSERT INTO accounts (id, name, name_key, password, created,"
                    " password_changed, owner) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(account.id, name, key, hashed, now, now, account.owner)],
                )
            except IntegrityError as e:  # the same name signed up meanwhile, elsewhere
                raise NameTaken("that name, or one that looks like it, is taken") from e
        return account

    def named(self, name: str) -> Account | None:
        """The account called ``name`` (or a look-alike of it), or ``None``."""
        row = self._row(
            "SELECT id, name, created, owner FROM accounts WHERE name_key = ?", name_key(name)
        )
        return None if row is None else Account.from_row(row)

    def by_ids(self, ids: list[str]) -> dict[str, Account]:
        """The accounts of ``ids`` that exist, by id."""
        rows = self._rows_in("id, name, created, owner", "id", ids)
        return {str(r[0]): Account.from_row(tuple(r)) for r in rows}

    def ids_by_owner(self, owners: list[str]) -> dict[str, str]:
        """The account id of each of ``owners`` that is an account's seat-holding id."""
        return {str(o): str(i) for o, i in self._rows_in("owner, id", "owner", owners)}

    def _rows_in(self, columns: str, key: str, values: list[str]) -> list[Any]:
        """``columns`` of the accounts whose ``key`` is one of ``values`` (none asked: none)."""
        if not values:
            return []
        marks = ", ".join("?" for _ in values)
        with self.store.engine.connect() as conn:
            rows: list[Any] = PlainSql(conn).one(
                f"SELECT {columns} FROM accounts WHERE {key} IN ({marks})", values
            )
        return rows

    def check(self, name: str, password: str, now: float) -> Account | None:
        """The account if ``password`` is its password, else ``None``, for an unknown name in
        the same time as for a wrong password. A hash with old parameters is renewed."""
        key = name_key(name) if isinstance(name, str) else ""
        row = self._row(
            "SELECT id, name, created, owner, password FROM accounts WHERE name_key = ?", key
        )
        stored = None if row is None else str(row[4])
        matched = verify_password(stored, password)  # done whether the name exists or not
        if not matched or row is None or stored is None:
            return None
        if needs_rehash(stored):
            self._set_password(str(row[0]), password, now)
        return Account.from_row(row)

    def change_password(
        self, account: Account, old: str, new: str, now: float, keep: str | None = None
    ) -> bool:
        """Change the password if ``old`` is the current one (else ``False``, nothing
        changed); every session of the account ends but the one whose token is ``keep``."""
        check_password(new)
        if self.check(account.name, old, now) is None:
            return False
        self._set_password(account.id, new, now)
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "DELETE FROM account_sessions WHERE account_id = ? AND id <> ?",
                [(account.id, "" if keep is None else _session_id(keep))],
            )
        return True

    def hides_history(self, account_id: str) -> bool:
        """Whether the account keeps its finished hands from others' eyes."""
        row = self._row("SELECT hide_history FROM accounts WHERE id = ?", account_id)
        return bool(row and row[0])

    def hide_history(self, account: Account, hide: bool) -> None:
        """Show the account's finished hands on its page to everyone, or to itself only."""
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "UPDATE accounts SET hide_history = ? WHERE id = ?", [(hide, account.id)]
            )

    def new_owner(self, account: Account) -> Account:
        """The account under a new owner id (signing out everywhere: seat tokens any device
        was given stop working once the caller hands the seats over)."""
        renewed = Account(account.id, account.name, account.created, secrets.token_hex(16))
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "UPDATE accounts SET owner = ? WHERE id = ?", [(renewed.owner, account.id)]
            )
        return renewed

    def delete(self, account: Account) -> None:
        """Delete the account and end every session of it."""
        with self.store.engine.begin() as conn:
            sql = PlainSql(conn)
            sql.many("DELETE FROM account_sessions WHERE account_id = ?", [(account.id,)])
            sql.many("DELETE FROM accounts WHERE id = ?", [(account.id,)])

    def _set_password(self, account_id: str, password: str, now: float) -> None:
        hashed = hash_password(password)
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "UPDATE accounts SET password = ?, password_changed = ? WHERE id = ?",
                [(hashed, now, account_id)],
            )

    def _row(self, statement: str, *params: object) -> tuple[Any, ...] | None:
        with self.store.engine.connect() as conn:
            rows = PlainSql(conn).one(statement, list(params))
        return tuple(rows[0]) if rows else None

    # ------------------------------------------------------------------ sessions
    def open_session(self, account: Account, now: float) -> str:
        """A new session of ``account``: the token to give its holder (and to nobody else)."""
        token = secrets.token_urlsafe(32)
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "INSERT INTO account_sessions (id, account_id, created, seen) VALUES (?, ?, ?, ?)",
                [(_session_id(token), account.id, now, now)],
            )
        return token

    def session(self, token: str, now: float) -> Account | None:
        """The account whose live session ``token`` is, or ``None`` (no such session, or it
        ended: signed out, unused too long, too old, its account deleted)."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            return None
        sid = _session_id(token)
        row = self._row(
            "SELECT a.id, a.name, a.created, a.owner, s.created, s.seen FROM account_sessions s"
            " JOIN accounts a ON a.id = s.account_id WHERE s.id = ?",
            sid,
        )
        if row is None:
            return None
        created, seen = float(row[4]), float(row[5])
        if now - created > SESSION_LIFE or now - seen > SESSION_IDLE:
            self.close_session(token)
            return None
        if now - seen > SEEN_EVERY:
            with self.store.engine.begin() as conn:
                PlainSql(conn).many(
                    "UPDATE account_sessions SET seen = ? WHERE id = ?", [(now, sid)]
                )
        return Account.from_row(row)

    def close_session(self, token: str) -> None:
        """End the session ``token`` (signing out)."""
        with self.store.engine.begin() as conn:
            PlainSql(conn).many(
                "DELETE FROM account_sessions WHERE id = ?", [(_session_id(token),)]
            )

    def close_all(self, account: Account) -> int:
        """End every session of ``account`` (signing out everywhere); how many there were."""
        with self.store.engine.begin() as conn:
            return PlainSql(conn).count(
                "DELETE FROM account_sessions WHERE account_id = ?", [account.id]
            )

    def sessions(self, account: Account, current: str | None = None) -> list[dict[str, Any]]:
        """Each live session of ``account``, newest first: when it began and was last used
        (to the hour), and whether it is ``current`` (the asker's own token)."""
        this = "" if current is None else _session_id(current)
        with self.store.engine.connect() as conn:
            rows = PlainSql(conn).one(
                "SELECT id, created, seen FROM account_sessions WHERE account_id = ?"
                " ORDER BY created DESC",
                [account.id],
            )
        return [
            {"created": float(c), "seen": float(s), "this": bool(this) and sid == this}
            for sid, c, s in rows
        ]


__all__ = [
    "SESSION_IDLE",
    "SESSION_LIFE",
    "Account",
    "Accounts",
    "NameTaken",
    "accounts_t",
    "sessions_t",
]
