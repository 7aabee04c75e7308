"""The commands that talk to a web server as a person: ``bonepile login`` and ``logout``, and
the quick pairing behind ``bonepile play GAME --pair SERVER``."""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

from bonepile.errors import BonepileError, needs_extra

TELL_EVERY = 5.0
"""Seconds between two lines of ``play --pair``'s wait (a wider range is told at once)."""


def _fail(message: str) -> NoReturn:
    from bonepile.cli import fail

    fail(message)


@click.command(short_help="Sign in to a bonepile web server's account.")
@click.argument("server")
@click.option("--name", help="The account's name [default: asked].")
@click.option(
    "--password-stdin",
    is_flag=True,
    help="Read the password from standard input (for scripts) instead of asking.",
)
def login(server: str, name: str | None, password_stdin: bool) -> None:
    """Sign in to the bonepile server at SERVER (http://HOST:PORT) and keep the sign-in, so
    that `play --join` and `play --pair` play as your account there. Make the account on the
    server's page /account. The sign-in is kept in $XDG_DATA_HOME/bonepile/logins.json,
    readable by you only; `bonepile logout SERVER` ends it."""
    from bonepile.tui.web import WebError
    from bonepile.tui.web import login as sign_in

    if name is None:
        name = click.prompt("Name")
    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt("Password", hide_input=True)
    try:
        got = sign_in(server, name, password)
    except (WebError, OSError) as e:
        _fail(str(e))
    click.echo(f"Signed in to {server} as {got}.")


@click.command(short_help="Sign out of a bonepile web server's account.")
@click.argument("server")
def logout(server: str) -> None:
    """Sign out of the bonepile server at SERVER and forget the sign-in."""
    from bonepile.tui.web import WebError
    from bonepile.tui.web import logout as sign_out

    try:
        was = sign_out(server)
    except (WebError, OSError) as e:
        _fail(str(e))
    click.echo(f"Signed out of {server}." if was is not None else f"Not signed in to {server}.")


DATA_OPTION = click.option(
    "--data",
    default="bonepile-data",
    show_default=True,
    envvar="BONEPILE_DATA",
    type=click.Path(file_okay=False),
    help="The server's data folder (its SQLite database and cookie key).",
)
"""``--data``, for ``serve`` and the commands that read what it keeps."""
DATABASE_OPTION = click.option(
    "--database",
    default=None,
    envvar="BONEPILE_DATABASE",
    help="Database URL (postgresql://...); default: SQLite in the data folder.",
)
"""``--database``, likewise."""


@click.command(short_help="List what players reported about others (operators).")
@DATA_OPTION
@DATABASE_OPTION
@click.option(
    "--limit",
    type=click.IntRange(1, 100_000),
    default=50,
    show_default=True,
    help="The most reports to list (the newest).",
)
def reports(data: str, database: str | None, limit: int) -> None:
    """List the reports players made about others, newest first (for the site's operator):
    when, who reported whom, the hand attached, and what they said.

    It reads the server's database: it needs the server extra, pip install 'bonepile[server]'.
    """
    import datetime
    from pathlib import Path

    try:
        from bonepile.server.players.manners import Manners
        from bonepile.server.serve import database_url
        from bonepile.server.storage.store import Store, StoreError
    except ImportError as e:
        _fail(needs_extra("bonepile reports", "server", e))
    url = database_url(Path(data).expanduser().resolve(), database)
    if database is None and not (Path(data).expanduser() / "bonepile.db").exists():
        _fail(f"there is no server database in {data} (give --data or --database)")
    try:
        store = Store(url)
    except StoreError as e:
        _fail(str(e))
    try:
        found = Manners(store).reports(limit)
    finally:
        store.close()
    if not found:
        click.echo("No reports.")
    for r in found:
        when = datetime.datetime.fromtimestamp(r["created"]).strftime("%Y-%m-%d %H:%M")
        hand = f" (hand {r['hand']})" if r["hand"] else ""
        text = " ".join(str(r["text"]).split())
        click.echo(f"{when}  {r['reporter']} reported {r['reported']}{hand}: {text}")


def paired_table(server: str, game: str, players: int | None, rated: bool) -> Any:
    """Wait in SERVER's pool for ``game`` (telling how long on standard error), then sit at
    the table it gives: the :class:`~bonepile.tui.remote.RemoteTable` to play."""
    from bonepile.tui.remote import RemoteTable
    from bonepile.tui.web import Web, pair

    web = Web(server)
    if rated and web.name is None:
        _fail(f"rated play needs a sign-in: bonepile login {web.base}")
    who = f" as {web.name}" if web.name else ""
    click.echo(f"Waiting in {web.base}'s pool for {game}{who} (Ctrl-C leaves it)...", err=True)

    said = [-1.0, None]  # when the wait was last told, and the range then

    def told(st: dict[str, Any]) -> None:
        """A line every few seconds, and whenever the range of ratings widens."""
        if st["waited"] - said[0] < TELL_EVERY and st.get("range") == said[1]:
            return
        said[:] = [st["waited"], st.get("range")]
        span = "" if st.get("range") is None else f", ratings within {st['range']}"
        click.echo(f"  {st['waited']:.0f} s{span}", err=True)

    try:
        table = pair(web, game, players, rated, "terminal", told)
        return RemoteTable.connect(f"{web.base}/t/{table}", web=web)
    except BonepileError as e:
        _fail(str(e))


__all__ = ["login", "logout", "paired_table", "reports"]
