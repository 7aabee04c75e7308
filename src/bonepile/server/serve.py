"""``bonepile serve``: the web server on its data folder, with uvicorn."""

from __future__ import annotations

import errno
import logging
import os
import secrets
import socket
import time
from pathlib import Path
from typing import Any

from bonepile.errors import BonepileError
from bonepile.server.storage.store import safe_url

log = logging.getLogger("bonepile.server")


class ServeError(BonepileError):
    """The server cannot start (a busy port, an unwritable data folder...)."""


def database_url(folder: Path, database: str | None) -> str:
    """The database of a server on the data folder ``folder``: ``database``, or SQLite there."""
    return database or f"sqlite:///{folder / 'bonepile.db'}"


def secret_of(folder: Path) -> str:
    """The key that signs the players' cookies, kept in ``folder/secret`` (made on first use,
    readable by its owner only), so that a restart keeps everyone in their seats."""
    path = folder / "secret"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    return path.read_text().strip()


def private_folder(folder: Path) -> str:
    """Make the data folder (readable by its owner only when made here) and its database file
    (always owner-only: it holds every table's match seed and claim codes); returns the
    cookie key."""
    if not folder.exists():
        folder.mkdir(mode=0o700, parents=True)
    database = folder / "bonepile.db"
    if not database.exists():
        os.close(os.open(database, os.O_WRONLY | os.O_CREAT, 0o600))
    else:
        os.chmod(database, 0o600)
    return secret_of(folder)


def _check_port(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise ServeError(
                    f"port {port} on {host} is in use (is bonepile already running? "
                    "choose another with --port)"
                ) from None
            raise ServeError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


def serve(
    host: str,
    port: int,
    data: str,
    database: str | None,
    bot_pace: float,
    quiet: bool = False,
    *,
    limits: dict[str, float] | None = None,
    trusted_proxies: tuple[str, ...] = (),
    api_docs: bool = False,
    secure_cookies: bool = False,
    redis: str | None = None,
    workers: int = 1,
    listen_fd: int | None = None,
    background_priority: str = "idle",
) -> None:
    """Run the server until interrupted, printing the address to open. ``limits`` changes
    fields of :class:`~bonepile.server.limits.Limits`; ``trusted_proxies`` are the reverse
    proxies whose ``X-Forwarded-For`` names the client; with ``redis`` (a URL) the process is
    one of a site of several on the same PostgreSQL database (:mod:`bonepile.server.site.site`).
    ``workers`` > 1 runs that many such processes behind the one port
    (:mod:`bonepile.server.site.supervisor`); ``listen_fd`` is the listening socket a supervisor
    hands one of them; ``background_priority`` is that of the analyses and bots-only tables
    (see :data:`~bonepile.server.tables.thinkers.PRIORITIES`)."""
    try:
        import uvicorn

        from bonepile.server.limits import changed_limits
        from bonepile.server.site.exclusive import Watch, hold_database, whoami
        from bonepile.server.site.leases import site_identity
        from bonepile.server.storage.store import Faults, Store
        from bonepile.server.web.app import Settings, create_app, make_hub
        from bonepile.server.web.slowclients import quiet_connections, uvicorn_options
    except ImportError as e:
        raise ServeError(
            f"the web server needs its extra packages ({e.name} is missing): "
            "pip install 'bonepile[server]'"
        ) from None
    folder = Path(data).expanduser().resolve()
    try:
        secret = private_folder(folder)
    except OSError as e:
        raise ServeError(f"cannot use the data folder {folder}: {e.strerror or e}") from None
    url = database_url(folder, database)
    if workers > 1 and not redis:
        raise ServeError(
            "--workers runs a site of several processes: give it a PostgreSQL --database and "
            "--redis URL"
        )
    if redis and not url.startswith(("postgresql", "postgres")):
        raise ServeError(
            "a site of several processes (--redis) needs a PostgreSQL database: give --database "
            "postgresql://... to every process"
        )
    if listen_fd is None:
        _check_port(host, port)
    if redis:
        _check_redis(redis)
    if workers > 1:
        from bonepile.server.site.supervisor import supervise

        supervise(host, port, workers, folder, url, redis or "", quiet)
        return
    # one process per database unless they form a site (bonepile.server.site.exclusive)
    held = hold_database(url, safe_url(url), site=bool(redis))
    try:
        bounds = changed_limits(limits or {})
    except ValueError as e:
        raise ServeError(str(e)) from None
    # open the database before serving: a bad URL or an unreachable server is one clear error
    store = Store(url, faults=Faults.from_environment())
    # from now on every write checks that no other server took the database over
    store.take_over("site" if redis else "solo", whoami(), time.time())
    site_key = None
    if redis:
        # every process of a site signs cookies and derives seat tokens with the same key
        site_key, secret = site_identity(store, secret, time.time())
        _same_redis(store, redis, site_key)
    settings = Settings(
        database=url,
        secret=secret,
        bot_pace=bot_pace,
        limits=bounds,
        api_docs=api_docs,
        secure_cookies=secure_cookies,
        redis=redis,
        site_key=site_key,
        background_priority=background_priority,
    )
    hub = make_hub(settings, store)
    app = create_app(settings, hub=hub)
    if listen_fd is None:
        print(f"bonepile is serving at {address(host, port)}  (open it in a browser)", flush=True)
        print(f"data: {folder}  database: {safe_url(url)}  stop with Ctrl-C", flush=True)
        if redis:
            print(f"one of the site {site_key}: Redis at {safe_url(redis)}", flush=True)
    config = uvicorn.Config(
        app,
        **uvicorn_options(
            max_per_peer=bounds.connections_per_address, trusted_proxies=trusted_proxies
        ),
        host=host,
        port=port,
        log_level="warning" if quiet or listen_fd is not None else "info",
        # a line for every request costs the server time that a flood of requests would
        # multiply; the server's own log says what matters
        access_log=False,
        ws_max_size=65536,
        # states after the first are patches of a few hundred bytes: compressing each one
        # cost the server more than it saved on the wire
        ws_per_message_deflate=False,
    )
    quiet_connections()  # after Config, which sets uvicorn's logging up
    server = uvicorn.Server(config)

    def lost(reason: str) -> None:  # fail-stop: this process no longer serves the database
        log.error("%s: stopping", reason)
        server.should_exit = True

    watch = Watch(held, store, lost).start()
    try:
        if listen_fd is None:
            server.run()
        else:  # a supervisor's worker: the port is bound once, by the supervisor
            server.run(sockets=[socket.socket(fileno=listen_fd)])
    finally:
        watch.stop()
        held.release()
    if watch.lost is not None:
        raise ServeError(f"{watch.lost}: this server stopped")


def address(host: str, port: int) -> str:
    """The address to open in a browser for a server on ``host``:``port``."""
    shown = f"[{host}]" if ":" in host else host
    where = "localhost" if host in ("127.0.0.1", "0.0.0.0") else shown
    return f"http://{where}:{port}/"


def _same_redis(store: Any, url: str, site_key: str) -> None:
    """Refuse to start, in one line, if a live process of the site uses another Redis (each
    process names itself in its Redis; a new one gets a few seconds to)."""
    import redis

    from bonepile.server.site.leases import RENEW_EVERY, Leases
    from bonepile.server.site.site import PROCESSES

    client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    deadline = time.monotonic() + 2 * RENEW_EVERY + 1
    try:
        while True:
            keys = client.hkeys(f"bp:{site_key}:{PROCESSES}")
            known = {k.decode() if isinstance(k, bytes) else str(k) for k in keys}
            missing = [m for m in Leases(store, "").members() if m.id not in known]
            if not missing:
                return
            if time.monotonic() > deadline:
                m = missing[0]
                raise ServeError(
                    f"a process of this site (pid {m.pid} on {m.host}) uses another Redis: give "
                    f"every process of the site the same --redis (this one has {safe_url(url)})"
                )
            time.sleep(0.5)
    except redis.RedisError as e:
        raise ServeError(f"cannot use Redis at {safe_url(url)}: {e}") from None
    finally:
        client.close()


def _check_redis(url: str) -> None:
    """Refuse to start, in one line, if the site's Redis cannot be reached."""
    try:
        import redis
    except ImportError:
        raise ServeError(
            "--redis needs the redis package: pip install 'bonepile[server]'"
        ) from None
    client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    try:
        client.ping()
    except (redis.RedisError, OSError, ValueError) as e:
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ServeError(f"cannot reach Redis at {safe_url(url)}: {reason}") from None
    finally:
        client.close()
