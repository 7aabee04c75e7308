"""One ``bonepile serve`` process per database, unless they form a site: a process that would
split the site refuses to start.

A server alone on its database keeps the tables in its own memory, so two of them on one
database would split the site: a player who joins through one is unknown to the other, and moves
made on one never reach the other. So a server alone holds its database for itself while it
runs: a SQLite database through a lock on a file beside it (``flock``), a PostgreSQL database
through a session advisory lock on a connection kept open. The PostgreSQL lock is the schema's
the tables live in (the first of the connection's search path): two sites in two schemas of
one database are two sites. The processes of a site (``--redis``, :mod:`bonepile.server.site.site`)
share the tables, and hold the same lock shared: any number of them may run together, but not
beside a server alone. The system lets a lock go when its process ends, however it ends.

A lock on a connection lapses when the connection drops, and a file lock may on a network
disk: so a serving process also raises the database's serving epoch as it starts, every write
checks it (:meth:`~bonepile.server.storage.store.Store.take_over`), and a :class:`Watch` takes the
lock again after a drop and stops the process if another server took the database meanwhile.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bonepile.errors import BonepileError

LOCK_KEY = int.from_bytes(hashlib.sha256(b"bonepile serve").digest()[:8], "big", signed=True)
"""The PostgreSQL advisory lock a serving process holds on the schema ``public``."""


def lock_key(schema: str) -> int:
    """The advisory lock of the tables in ``schema``: :data:`LOCK_KEY` for ``public`` (the
    lock every release has taken there), one of its own for any other schema."""
    if schema == "public":
        return LOCK_KEY
    digest = hashlib.sha256(b"bonepile serve\0" + schema.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class DatabaseInUse(BonepileError):
    """Another ``bonepile serve`` process serves this database."""

    code = "in_use"


@dataclass
class Hold:
    """A database held by this process: :meth:`release` lets it go (the end of the process
    does too); :meth:`keep` takes it again if the hold lapsed."""

    what: str
    _handle: Any = field(repr=False, default=None)
    _retake: Callable[[], Any] | None = field(repr=False, default=None)

    def keep(self) -> None:
        """Make sure the hold stands: a PostgreSQL lock whose connection dropped is taken
        again on a new one as soon as the database can be reached. Raises
        :class:`DatabaseInUse` if another process took it meanwhile. (A file lock stands as
        long as the process lives; on a network disk that may not be so, which the serving
        epoch covers.)"""
        if self._retake is None:
            return
        if self._handle is not None:
            try:
                self._handle.exec_driver_sql("SELECT 1")
                self._handle.rollback()
                return
            except Exception:
                with contextlib.suppress(Exception):
                    self._handle.close()
                self._handle = None
        self._handle = self._retake()

    def release(self) -> None:
        """Let the database go."""
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(Exception):
                handle.close()


def hold_database(url: str, shown: str, site: bool = False) -> Hold:
    """Hold the database at ``url`` (``shown``: how to name it to a person) for this process
    (with ``site``: shared with the other processes of a site), or raise
    :class:`DatabaseInUse` naming who holds it. A database in memory needs nothing."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if not path or path == ":memory:":
            return Hold("memory")
        return _hold_file(Path(path), shown)
    if url.startswith(("postgresql", "postgres")):
        return _hold_postgres(url, shown, site)
    return Hold("nothing")


SITE_MARK = " --redis"
"""In the database session's name of a site process."""


def whoami() -> str:
    """This process, as the locks and the serving epoch name it: ``pid N on host``."""
    return f"pid {os.getpid()} on {socket.gethostname()}"


def _hold_file(database: Path, shown: str) -> Hold:
    lock = database.with_name(database.name + ".serving")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 200).decode("utf-8", "replace").strip() or "another process"
        os.close(fd)
        raise DatabaseInUse(
            f"another bonepile serve ({holder}) is serving {shown}: one process serves a SQLite "
            "database; stop that one first, or give this one its own --data folder"
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, whoami().encode())
    return Hold(str(lock), os.fdopen(fd, "rb"))  # closing it lets the lock go


def _hold_postgres(url: str, shown: str, site: bool) -> Hold:
    conn, holder, shown = _lock_postgres(url, shown, site)
    if conn is not None:
        return Hold("postgresql advisory lock", conn, lambda: _retake_postgres(url, shown, site))
    raise _in_use(holder, shown, site)


def _retake_postgres(url: str, shown: str, site: bool) -> Any:
    """The lock taken again on a new connection after its own dropped; ``None`` while the
    database still counts the dropped connection as holding it (it has not noticed the drop
    yet) or cannot be reached. Raises :class:`DatabaseInUse` if another process holds it."""
    from bonepile.server.storage.store import StoreError

    try:
        conn, holder, shown = _lock_postgres(url, shown, site)
    except StoreError:
        return None
    if conn is not None:
        return conn
    if whoami() in holder:
        return None
    raise DatabaseInUse(f"another {holder} took {shown} over while this one could not reach it")


def _lock_postgres(url: str, shown: str, site: bool) -> tuple[Any, str, str]:
    """A connection holding the schema's lock (exclusive, or with ``site`` shared), or
    ``None`` and who holds it; and how to name the database to a person."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import SQLAlchemyError
    from sqlalchemy.pool import NullPool

    from bonepile.server.storage.store import StoreError, engine_url

    engine = create_engine(
        engine_url(url),
        poolclass=NullPool,
        connect_args={
            "connect_timeout": 5,
            "application_name": f"bonepile serve{SITE_MARK if site else ''} ({whoami()})",
            # a server cut off from its database notices within seconds that the connection
            # holding its lock is gone, instead of at the system's TCP timeout
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 2,
            "keepalives_count": 3,
            "tcp_user_timeout": 10000,
        },
    )
    got = False
    take = "pg_try_advisory_lock_shared" if site else "pg_try_advisory_lock"
    try:
        conn = engine.connect()
        # the schema the tables go in: the first of the connection's search path that exists
        schema = str(conn.execute(text("SELECT current_schema()")).scalar() or "public")
        key = lock_key(schema)
        if schema != "public" and "(schema " not in shown:
            shown = f"{shown} (schema {schema})"
        got = bool(conn.execute(text(f"SELECT {take}(:k)"), {"k": key}).scalar())
        conn.commit()
        if got:
            return conn, "", shown
        holder = conn.execute(
            text(
                "SELECT a.application_name FROM pg_locks l "
                "JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
                # an advisory lock is a database's own: the same key elsewhere is not ours
                "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                "AND l.classid::bigint = :hi AND l.objid::bigint = :lo"
            ),
            {"hi": (key >> 32) & 0xFFFFFFFF, "lo": key & 0xFFFFFFFF},
        ).scalar()
        conn.close()
    except SQLAlchemyError as e:
        orig = getattr(e, "orig", None)
        lines = str(orig if orig is not None else e).strip().splitlines()
        reason = lines[0] if lines else type(e).__name__
        raise StoreError(f"cannot open the database {shown}: {reason}") from None
    finally:
        if not got:
            engine.dispose()
    return None, str(holder or "bonepile serve"), shown


def _in_use(holder: str, shown: str, site: bool) -> DatabaseInUse:
    if site:
        return DatabaseInUse(
            f"a {holder.replace('bonepile serve', 'bonepile serve without --redis', 1)} is "
            f"serving {shown} alone: stop it, or restart it with --redis to make it part of "
            "the site"
        )
    if SITE_MARK in holder:
        return DatabaseInUse(
            f"a site of bonepile serve processes uses {shown} (one is {holder}): give this one "
            "--redis with the site's Redis to join it"
        )
    return DatabaseInUse(
        f"another {holder} is serving {shown}: several processes on one database would split "
        "the site (a table is served by the process that holds it); stop that one first, use "
        "another database, or run every process with --redis (a site of several processes)"
    )


WATCH_EVERY = 2.0
"""Seconds between two looks of a :class:`Watch` at the database it serves."""


class Watch:
    """Makes sure, every :data:`WATCH_EVERY` seconds, that this process still serves the
    database ``store`` it holds through ``hold``: it takes the lock again if the connection
    holding it dropped (a network cut, a restart of the database), and checks the serving
    epoch (:meth:`~bonepile.server.storage.store.Store.take_over`). If another server holds the lock
    or raised the epoch meanwhile, the process has lost the database: ``on_lost`` is called
    once, with the reason, and the process must stop serving (fail-stop). Its writes were
    fenced by the epoch all along, so nothing it did after the takeover was stored."""

    def __init__(self, hold: Hold, store: Any, on_lost: Callable[[str], None]) -> None:
        self.hold = hold
        self.store = store
        self.on_lost = on_lost
        self.lost: str | None = None
        """Why the database was lost, once it was."""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bonepile-hold", daemon=True)

    def start(self) -> Watch:
        """Start looking, in a thread of its own."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop looking."""
        self._stop.set()

    def look(self) -> str | None:
        """One look: why the database is lost, or ``None`` while it is held (or cannot be
        reached: the epoch fences the writes until it can)."""
        try:
            self.hold.keep()
        except DatabaseInUse as e:
            return str(e)
        if self.store.epoch is None:
            return None
        try:
            epoch, holder = self.store.serving()
        except Exception:  # the database cannot answer now: look again later
            return None
        if epoch != self.store.epoch:
            return (
                f"another bonepile serve ({holder or 'another server'}) took the database over "
                "while this one could not reach it"
            )
        return None

    def _run(self) -> None:
        while not self._stop.wait(WATCH_EVERY):
            reason = self.look()
            if reason is not None:
                self.lost = reason
                self.on_lost(reason)
                return


__all__ = [
    "LOCK_KEY",
    "WATCH_EVERY",
    "DatabaseInUse",
    "Hold",
    "Watch",
    "hold_database",
    "lock_key",
    "whoami",
]
