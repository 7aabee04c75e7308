"""The ``bonepile`` command (docs/cli.md).

Every command rejects bad input with one line on standard error and exit status 2, and so
does one whose optional packages (an extra: ``pip install 'bonepile[server]'``) are missing.
The same thing has the same option everywhere: ``--players/-n`` (the game's usual count by
default), ``--seed/-s`` (a fresh random seed by default, printed so that the run can be
repeated), ``--option/-o``, ``--board``, ``--agents/-a``, ``--games/-k``, ``--workers/-w``,
``--json``, and ``--quiet/-q`` or ``--progress SECONDS`` for the progress a long run reports
on standard error.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click
from click.shell_completion import CompletionItem

from bonepile.cli_web import DATA_OPTION, DATABASE_OPTION, login, logout, reports
from bonepile.errors import BonepileError, missing_extra, needs_extra, quoted
from bonepile.games import Game, all_games, get_game
from bonepile.options import parse_option_assignments

if TYPE_CHECKING:
    from bonepile.agents.external import AgentForfeit

EXIT_BAD_INPUT = 2


MAX_MESSAGE = 400
"""The longest error message printed: a message quoting a huge input is cut."""


def fail(message: str) -> NoReturn:
    """Print one error line (bounded, whatever the message quotes) and exit with status 2."""
    _say(f"bonepile: error: {_one_line(message)}")
    sys.exit(EXIT_BAD_INPUT)


def warn(message: str) -> None:
    """Print one warning line on standard error."""
    _say(f"bonepile: warning: {_one_line(message)}")


@contextlib.contextmanager
def needs(what: str, extra: str) -> Iterator[None]:
    """Imports in the block come from ``extra``: one missing fails with the one line that
    says what to install (``bonepile: error: bonepile serve needs the server extra (orjson
    is missing): pip install 'bonepile[server]'``)."""
    try:
        yield
    except ImportError as e:
        if (e.name or "").partition(".")[0] == "bonepile":  # a module of ours: a bug
            raise
        fail(needs_extra(what, extra, e))


def _one_line(message: str) -> str:
    text = " ".join(message.split())
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "\u2026"


def _say(line: str) -> None:
    """Write a line to standard error, even where it cannot encode every character."""
    try:
        click.echo(line, err=True)
    except (OSError, UnicodeError):
        with contextlib.suppress(OSError):
            sys.stderr.buffer.write(line.encode("ascii", "backslashreplace") + b"\n")
            sys.stderr.flush()


def _game_and_options(name: str, items: tuple[str, ...]) -> tuple[Game[Any], dict[str, Any]]:
    game = get_game(name)
    values = parse_option_assignments(game.Options, list(items), game.name)
    game.make_options(values)
    return game, values


def _board_of(game: Game[Any], board: str | None) -> Any:
    """The board ``--board`` names (``None`` for the game's default)."""
    if board is None:
        return None
    if not game.board_game:
        fail(f"--board: {game.name} is not played on a board")
    from bonepile.grid import load_board

    return load_board(board)


MAX_GAMES = 10**9
"""The most games (or deals) one run of ``simulate`` or ``arena`` plays."""
MAX_WORKERS = 1024
"""The most worker processes a run starts."""

SEED = click.IntRange(0, 2**63 - 1)
"""A seed on the command line: 0 to 2**63 - 1."""


def _run_seed(seed: int | None, agents: list[str]) -> int:
    """The seed a run uses: ``--seed`` or, by default, a fresh full-width one. With external bots
    and a seed given, warn: whoever knows (or guesses) the seed can rebuild every deal."""
    from bonepile.seeds import random_seed

    if seed is None:
        return random_seed()
    if any(a.startswith("external:") for a in agents):
        warn(
            f"--seed {seed} was given, so every deal is a known function of it: a bot that "
            "knows or guesses the seed can rebuild all hands; leave --seed out for a fair run"
        )
    return seed


def _agents_of(agent_list: str | None, agent_each: tuple[str, ...] = ()) -> list[str]:
    """The agents ``--agents A,B,...`` (and repeated ``--agent``) name, checked the same way by
    every command: no empty names, every name known, every external command startable."""
    from bonepile.agents.registry import make_agent

    names: list[str] = []
    if agent_list is not None:
        items = agent_list.split(",")
        for k, item in enumerate(items, 1):
            if not item.strip():
                fail(f"--agents {quoted(agent_list)}: agent {k} of {len(items)} is empty")
            names.append(item.strip())
    for item in agent_each:
        if not item.strip():
            fail("--agent: an empty agent name")
        names.append(item.strip())
    for name in dict.fromkeys(names):
        make_agent(name)  # a bad name or a command that cannot start fails here, once
    return names


def _move_time_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--move-time",
        type=float,
        default=10.0,
        show_default=True,
        metavar="SECONDS",
        help="External bots: the time limit for each decision (a bot over it forfeits).",
    )(f)


def _check_move_time(move_time: float) -> float:
    if not math.isfinite(move_time) or not 0 < move_time <= 3600:
        fail(f"--move-time must be more than 0 and at most 3600 seconds, got {move_time}")
    return move_time


def _complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of GAME: the games' names and aliases."""
    names = [name for g in all_games() for name in (g.name, *g.aliases)]
    return [name for name in names if name.startswith(incomplete)]


def _complete_file(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Shell completion of a file name (the shell lists the files)."""
    return [CompletionItem(incomplete, type="file")]


def game_argument(required: bool = True) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """GAME, as every command that deals a game takes it (completed by the shell)."""
    return click.argument("game", required=required, shell_complete=_complete_game)


players_option = click.option(
    "--players", "-n", type=int, help="Players [default: the game's usual count]."
)
"""``--players/-n``: optional everywhere, the game's usual count by default."""
options_option = click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A variant option (repeatable; bonepile rules GAME lists them).",
)
"""``--option/-o NAME=VALUE``, repeatable."""
board_option = click.option(
    "--board",
    metavar="NAME|FILE",
    help="Board games: a shipped board (standard, small, tiny) or a board file.",
)
"""``--board``, for Double Double Dominoes."""


def seed_option(
    what: str, printed: bool = True
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--seed/-s``: by default a fresh random seed, printed (unless not ``printed``), so
    that the run can be repeated with ``--seed``."""
    shown = ", printed" if printed else ""
    return click.option(
        "--seed",
        "-s",
        type=SEED,
        metavar="SEED",
        help=f"Seed of {what}, to repeat it [default: a random one{shown}].",
    )


def agents_options(help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--agents/-a A,B,...`` and ``--agent AGENT`` (repeatable, for a command holding a
    comma)."""

    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        f = click.option(
            "--agent",
            "agent_each",
            multiple=True,
            metavar="AGENT",
            help="One agent (repeatable, after any --agents; for an external command "
            "holding a comma).",
        )(f)
        return click.option("--agents", "-a", "agent_list", metavar="A,B,...", help=help)(f)

    return wrap


def games_option(default: int, help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--games/-k``: how many games (or deals) a run plays."""
    return click.option(
        "--games",
        "-k",
        type=click.IntRange(1, MAX_GAMES),
        default=default,
        show_default=True,
        help=help,
    )


def progress_options(default: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--progress SECONDS`` and ``--quiet/-q`` (no progress): how a long run reports how far
    it has got, on standard error (never standard output, which has the results)."""

    def wrap(f: Callable[..., Any]) -> Callable[..., Any]:
        f = click.option(
            "--quiet", "-q", is_flag=True, help="Report no progress (the same as --progress 0)."
        )(f)
        return click.option(
            "--progress",
            "progress_every",
            type=click.FloatRange(0, 86400),
            metavar="SECONDS",
            help="Report how far the run has got, and the time left, on standard error every "
            f"SECONDS (0: never) [default: {default}].",
        )(f)

    return wrap


def _progress_every(progress_every: float | None, quiet: bool, default: float) -> float:
    """The seconds between progress reports ``--progress`` and ``--quiet`` ask for."""
    if quiet:
        return 0.0
    return default if progress_every is None else progress_every


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: like click.version_option, whose message is fixed when the command is
    defined, but naming the build that runs (bonepile.build_info), worked out only when asked."""
    if value and not ctx.resilient_parsing:
        from bonepile.build_info import version_line

        click.echo(version_line())
        ctx.exit()


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--version",
    is_flag=True,
    is_eager=True,
    expose_value=False,
    callback=_show_version,
    help="Show the version and the build that runs (compiled or pure Python), and exit.",
)
def cli() -> None:
    """bonepile: play, study and automate domino games.

    `bonepile COMMAND --help` tells more of each command; docs/cli.md has them all, and how
    to have the shell complete commands, games and options.
    """


# ---------------------------------------------------------------------------------- serve
@cli.command(short_help="Run the web app (needs the server extra).")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    envvar="BONEPILE_HOST",
    help="Address to listen on (0.0.0.0: every interface, for phones on your network).",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(1, 65535),
    envvar="BONEPILE_PORT",
    help="Port to listen on.",
)
@DATA_OPTION
@DATABASE_OPTION
@click.option(
    "--bot-pace",
    default=0.8,
    show_default=True,
    type=click.FloatRange(0, 10),
    help="Least seconds between two moves while a person is at the table (0: none, and the "
    "time a bot thinks shows).",
)
@click.option(
    "--limit",
    "limits",
    multiple=True,
    metavar="NAME=VALUE",
    help="Change one of the server's limits (docs/server.md lists them), e.g. "
    "tables_per_address=100; repeatable.",
)
@click.option(
    "--trusted-proxy",
    "trusted_proxies",
    multiple=True,
    metavar="ADDRESS",
    envvar="BONEPILE_TRUSTED_PROXIES",
    help="A reverse proxy (address or network) whose X-Forwarded-For names the client; repeatable.",
)
@click.option(
    "--secure-cookies", is_flag=True, help="Send the browser's cookie over HTTPS only (behind TLS)."
)
@click.option("--api-docs", is_flag=True, help="Serve the OpenAPI schema and its pages at /docs.")
@click.option(
    "--redis",
    default=None,
    envvar="BONEPILE_REDIS",
    metavar="URL",
    help="Run as one of a site of several processes (on one or many machines) sharing a "
    "PostgreSQL --database and this Redis (redis://host:6379/0).",
)
@click.option(
    "--workers",
    "-w",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    envvar="BONEPILE_WORKERS",
    help="Server processes behind the one port (more than 1: a site, with --database "
    "postgresql://... and --redis).",
)
@click.option(
    "--background-priority",
    type=click.Choice(["idle", "low", "normal"]),
    default="idle",
    show_default=True,
    envvar="BONEPILE_BACKGROUND_PRIORITY",
    help="CPU priority of replay analyses and bots-only tables: idle (only CPU time nothing "
    "else wants; other work that keeps every core busy may hold them up indefinitely), low, or "
    "normal.",
)
@click.option("--listen-fd", type=int, default=None, hidden=True)
def serve(
    host: str,
    port: int,
    data: str,
    database: str | None,
    bot_pace: float,
    limits: tuple[str, ...],
    trusted_proxies: tuple[str, ...],
    secure_cookies: bool,
    api_docs: bool,
    redis: str | None,
    workers: int,
    background_priority: str,
    listen_fd: int | None,
) -> None:
    """Run the web app: play in the browser, invite friends, watch and replay games.

    It needs the server extra: pip install 'bonepile[server]'.
    """
    with needs("bonepile serve", "server"):
        import uvicorn  # noqa: F401  (serve imports these later: missing, said the same way)

        import bonepile.server.web.app  # noqa: F401
        from bonepile.server.serve import serve as run

    changes: dict[str, float] = {}
    for item in limits:
        name, eq, value = item.partition("=")
        try:
            changes[name.strip()] = float(value)
        except ValueError:
            eq = ""
        if not eq:
            raise click.BadParameter(f"{item!r}: write NAME=NUMBER", param_hint="--limit")
    run(
        host,
        port,
        data,
        database,
        bot_pace,
        limits=changes,
        trusted_proxies=trusted_proxies,
        api_docs=api_docs,
        secure_cookies=secure_cookies,
        redis=redis,
        workers=workers,
        listen_fd=listen_fd,
        background_priority=background_priority,
    )


# ---------------------------------------------------------------------------------- rules
@cli.command(short_help="List the games, or how GAME is played and its options.")
@game_argument(required=False)
def rules(game: str | None) -> None:
    """List the games, or tell how GAME is played and print every option of it."""
    from bonepile import rulebook

    if game is None:
        click.echo("Games (bonepile rules GAME: how to play it, and its options):")
        for g in all_games():
            lo, hi = g.player_range(g.make_options())
            aliases = f" (also: {', '.join(g.aliases)})" if g.aliases else ""
            click.echo(f"  {g.name:<16} {lo}-{hi} players  {g.summary}{aliases}")
        click.echo(f"How to play each game: {rulebook.DOCS_DIR}/{rulebook.INDEX_PAGE}")
        return
    g = get_game(game)
    lo, hi = g.player_range(g.make_options())
    click.echo(f"{g.title} ({g.name}): {g.summary}")
    click.echo(f"Players: {lo}-{hi} with the default options.")
    click.echo("")
    click.echo("How to play, in brief:")
    for line in rulebook.plain_text(rulebook.how_to_play(g)).splitlines():
        click.echo(f"  {line}" if line else "")
    click.echo("")
    click.echo(f"The full rules: {rulebook.docs_path(g)}")
    installed = rulebook.page_file(g)
    if installed.is_file():
        click.echo(f"  (installed with bonepile as {installed})")
    click.echo("")
    if g.note:
        click.echo(f"Note: {g.note}")
    click.echo('Options (set with --option name=value; in records under "options"):')
    for spec in g.option_specs():
        click.echo(
            f"  {spec.name}: {spec.type_name()}, default {spec.format_value(spec.default)}; "
            f"alternatives: {spec.alternatives()}"
        )
        click.echo(f"      {spec.help}")


# ---------------------------------------------------------------------------------- board
@cli.command(short_help="Check and draw a Double Double Dominoes board.")
@click.argument("board", default="standard")
@click.option("--json", "as_json", is_flag=True, help="Print the board in its data format.")
def board(board: str, as_json: bool) -> None:
    """Check and draw a board for Double Double Dominoes (a shipped name or a board file)."""
    from collections import Counter

    from bonepile.grid import BoardLayout, load_board
    from bonepile.render import render_board

    b = load_board(board)
    if as_json:
        click.echo(json.dumps(b.to_json(), indent=1))
        return
    click.echo(f"Board {b.name}: {b.rows}x{b.cols}, star on {b.cell_name(b.star)}")
    for line in render_board(BoardLayout(b, None)):
        click.echo(line)
    counts = Counter(v for v in b.diamonds if v)
    shown = ", ".join(
        f"{counts[v]} of {v}" + (f" ({b.colors[v]})" if v in b.colors else "")
        for v in sorted(counts)
    )
    click.echo(f"Diamonds: {sum(counts.values())}: {shown or 'none'}")
    click.echo(f"Score track: {len(b.track)} spaces: " + "".join(str(v) for v in b.track))
    totals = ", ".join(f"{n} players {t}" for n, t in b.victory_totals.items())
    click.echo(f"Victory totals: {totals}")


# ---------------------------------------------------------------------------------- replay
def _load(path: str) -> Any:
    """The hand (a State) or match (a Match) the record in ``path`` reaches."""
    from bonepile.match_record import load_any, read_any

    if path == "-":
        from bonepile.files import MAX_FILE_BYTES, read_stream_limited

        return read_any(
            read_stream_limited(getattr(sys.stdin, "buffer", sys.stdin), MAX_FILE_BYTES)
        )
    return load_any(path)


@cli.command(short_help="Show the position a hand or match record reaches.")
@click.argument("record", shell_complete=_complete_file)
@click.option("--json", "as_json", is_flag=True, help="Print the position summary as JSON.")
@click.option(
    "--step",
    is_flag=True,
    help="Step through it, forwards and back, in the terminal (needs the tui extra).",
)
def replay(record: str, as_json: bool, step: bool) -> None:
    """Show the position RECORD reaches (a file, or - for standard input).

    A match record shows every hand with the totals after it, then the last hand's position.
    """
    from bonepile.match import Match
    from bonepile.render import render_match, render_state

    if step and as_json:
        fail("--step and --json do not go together")
    if step and record == "-":
        fail("--step reads a file, not standard input (the keys come from the terminal)")
    loaded = _load(record)
    if step:
        _textual_or_fail("bonepile replay --step")
        from bonepile.tui.session import Replay

        _run_app(Replay(loaded), 0.0, None)
        return
    if as_json:
        click.echo(json.dumps(loaded.summary(), indent=2))
    elif isinstance(loaded, Match):
        click.echo(render_match(loaded))
    else:
        click.echo(render_state(loaded))


# ---------------------------------------------------------------------------------- play
def _textual_or_fail(what: str = "bonepile play") -> None:
    """Fail with how to install the tui extra when Textual is missing."""
    with needs(what, "tui"):
        import textual  # noqa: F401


MAX_PACE = 10.0
"""The longest ``play --pace``, in seconds."""


@cli.command(short_help="Play in the terminal: against bots, friends, on a server.")
@game_argument(required=False)
@players_option
@options_option
@board_option
@seed_option("the deal", printed=False)
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 is P0).")
@agents_options(
    "Who plays the other seats, in order, repeated round the table [default: ismcts]; "
    "with --hot-seat, every seat in order, 'human' for a person."
)
@click.option(
    "--match",
    "whole_match",
    is_flag=True,
    help="Play a whole match, hand after hand to the target_score.",
)
@click.option("--hot-seat", is_flag=True, help="Friends at one keyboard, each hand hidden.")
@click.option("--join", metavar="URL", help="Sit at (or watch) a table of the web server.")
@click.option(
    "--pair",
    metavar="SERVER",
    help="Wait in the web server's pool for GAME and play whoever comes (see `bonepile login`).",
)
@click.option("--rated", is_flag=True, help="With --pair: rated play (needs `bonepile login`).")
@click.option("--resume", is_flag=True, help="Go on with the game saved when you last quit.")
@click.option(
    "--pace",
    type=float,
    default=0.8,
    show_default=True,
    metavar="SECONDS",
    help="Least time between two bot moves.",
)
@click.option(
    "--save",
    "save_file",
    type=click.Path(dir_okay=False),
    help="Where a game is saved on quit [default: $XDG_DATA_HOME/bonepile/saved-game.json].",
)
def play(
    game: str | None,
    players: int | None,
    options: tuple[str, ...],
    board: str | None,
    seed: int | None,
    seat: int,
    agent_list: str | None,
    agent_each: tuple[str, ...],
    whole_match: bool,
    hot_seat: bool,
    join: str | None,
    pair: str | None,
    rated: bool,
    resume: bool,
    pace: float,
    save_file: str | None,
) -> None:
    """Play GAME in the terminal against bots (or friends with --hot-seat, or at a table of
    the web server with --join URL); --resume goes on with the game saved on quit.

    It needs the tui extra: pip install 'bonepile[tui]'.
    """
    remote = " --join" if join is not None else " --pair" if pair is not None else ""
    what = f"bonepile play{remote}"
    _textual_or_fail(what)
    if join is not None or pair is not None:
        with needs(what, "tui"):  # the web server's tables are reached over websockets
            import websockets.sync.client  # noqa: F401
    from bonepile.arena import check_bots_start
    from bonepile.tui.session import LocalGame, default_save_path, seat_specs

    if not math.isfinite(pace) or not 0 <= pace <= MAX_PACE:
        fail(f"--pace must be from 0 to {MAX_PACE:g} seconds, got {pace}")
    save_path = Path(save_file) if save_file else default_save_path()
    if join is not None:
        if game is not None or resume or hot_seat:
            fail("--join takes no GAME, --resume or --hot-seat: the table says what is played")
        from bonepile.tui.remote import RemoteTable

        _run_app(RemoteTable.connect(join), pace, None)
        return
    if pair is not None:
        if game is None or join is not None or resume or hot_seat:
            fail("--pair takes a GAME, and no --join, --resume or --hot-seat")
        from bonepile.cli_web import paired_table

        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            fail("the terminal app needs a terminal (standard input and output are not one)")
        name = _game_and_options(game, ())[0].name
        _run_app(paired_table(pair, name, players, rated), pace, None)
        return
    if rated:
        fail("--rated goes with --pair")
    if resume:
        if game is not None:
            fail("--resume takes no GAME: the saved game says what is played")
        _run_app(LocalGame.load(save_path), pace, save_path)
        return
    if game is None:
        fail("play needs a GAME (bonepile rules lists them), or --resume, or --join URL")
    g, values = _game_and_options(game, options)
    chosen = _board_of(g, board)
    n = players if players is not None else g.default_players
    g.check_players(n, g.make_options(values))
    if not 0 <= seat < n:
        fail(f"--seat must be from 0 to {n - 1}, got {seat}")
    names = None
    if agent_list is not None or agent_each:  # "human" marks a person's seat (--hot-seat)
        names = [a.strip() for a in (agent_list.split(",") if agent_list is not None else [])]
        if not all(names):
            fail(f"--agents {quoted(agent_list or '')}: an agent is empty")
        names += [a.strip() for a in agent_each]
        if not all(names):
            fail("--agent: an empty agent name")
        for name in names:
            if name != "human":
                _agents_of(name)
    specs = seat_specs(n, seat, names, hot_seat)
    if seed is not None:  # warns when a seed is given with an external bot at the table
        _run_seed(seed, specs)
    check_bots_start(g.name, specs, n, values, board=chosen)  # before the app, not in it
    session = LocalGame.new(
        g.name,
        n,
        options=values,
        specs=specs,
        whole_match=whole_match,
        seed=seed,
        board=chosen,
    )
    _run_app(session, pace, save_path)


def _run_app(session: Any, pace: float, save_path: Path | None) -> None:
    from bonepile.tui.app import BonepileApp

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        close = getattr(session, "close", None)
        if close is not None:
            close()
        fail("the terminal app needs a terminal (standard input and output are not one)")

    app = BonepileApp(session, pace=pace, save_path=save_path)
    try:
        app.run()
    finally:
        close = getattr(session, "close", None)
        if close is not None:
            close()
    if save_path is not None and save_path.exists():
        click.echo(f"Game saved to {save_path}: bonepile play --resume goes on with it.")


# ---------------------------------------------------------------------------------- perft
PROGRESS_TERMINAL = 2.0
"""Seconds between two ``perft`` progress reports when standard error is a terminal."""
PROGRESS_OTHER = 60.0
"""Seconds between two ``perft`` progress reports when standard error is not a terminal."""


@cli.command(
    context_settings={"ignore_unknown_options": True},
    short_help="Count the action sequences DEPTH long from a record.",
)
@click.argument("record", shell_complete=_complete_file)
@click.argument("depth", type=int)
@click.option("--divide", is_flag=True, help="Print the count under each legal action first.")
@click.option(
    "--max-nodes",
    type=click.IntRange(1),
    default=10**9,
    show_default=True,
    help="Stop with an error after visiting this many positions.",
)
@click.option(
    "--progress",
    "progress_every",
    type=click.FloatRange(0, 86400),
    metavar="SECONDS",
    help=f"Report how far the count has got and the time left on standard error every SECONDS "
    f"(0: never) [default: {PROGRESS_TERMINAL:g} on a terminal, updated in place; "
    f"{PROGRESS_OTHER:g} otherwise].",
)
@click.option("--quiet", "-q", is_flag=True, help="Report no progress (the same as --progress 0).")
def perft(
    record: str,
    depth: int,
    divide: bool,
    max_nodes: int,
    progress_every: float | None,
    quiet: bool,
) -> None:
    """Count the action sequences of length DEPTH from the position after RECORD.

    For a match record, the position is where its last hand stands. A count that would take
    more than --max-nodes positions stops with an error instead of running for days. A count
    that takes a while reports its progress and an estimate of the time left on standard
    error (see --progress); standard output has the count only.
    """
    from bonepile.match import Match
    from bonepile.perft import ProgressLine
    from bonepile.perft import divide as divide_counts
    from bonepile.perft import perft as perft_count

    if depth < 0:
        fail(f"DEPTH must be 0 or more, got {depth}")
    loaded = _load(record)
    state = loaded.current if isinstance(loaded, Match) else loaded
    default = PROGRESS_TERMINAL if _is_terminal(sys.stderr) else PROGRESS_OTHER
    progress_every = _progress_every(progress_every, quiet, default)
    line = ProgressLine(sys.stderr, progress_every, max_nodes)
    try:
        if divide:
            counts = divide_counts(state, depth, max_nodes=max_nodes, progress=line)
        else:
            count = perft_count(state, depth, max_nodes=max_nodes, progress=line)
    finally:
        line.clear()
    if divide:
        total = 0
        for action, n in counts:
            click.echo(f"{action} {n}")
            total += n
        if depth == 0 or state.is_over:
            total = 1
        click.echo(str(total))
    else:
        click.echo(str(count))


# ---------------------------------------------------------------------------------- simulate
PROGRESS_RUN = 10.0
"""Seconds between two progress lines of ``simulate`` and ``arena`` when standard error is not
a terminal (on one, a live bar)."""


@cli.command(short_help="Summarise many seeded hands between random players.")
@game_argument()
@players_option
@options_option
@board_option
@seed_option("the run")
@games_option(100, "Hands to play (matches with --match).")
@click.option(
    "--match",
    "matches",
    is_flag=True,
    help="Play whole matches, hand after hand to the target_score.",
)
@click.option("--records", type=click.Path(file_okay=False), help="Keep every game here.")
@click.option(
    "--workers",
    "-w",
    type=click.IntRange(1, MAX_WORKERS),
    default=1,
    show_default=True,
    help="Worker processes (at most one per game and two per core).",
)
@progress_options(f"{PROGRESS_RUN:g} off a terminal; a live bar on one")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def simulate(
    game: str,
    players: int | None,
    options: tuple[str, ...],
    board: str | None,
    seed: int | None,
    games: int,
    matches: bool,
    records: str | None,
    workers: int,
    progress_every: float | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Play seeded games between random players and summarise them: wins by seat, how hands
    end, moves and points per hand (with --match, match wins and hands per match too)."""
    from bonepile.arena.progress import RunProgress
    from bonepile.simulate import simulate as run
    from bonepile.simulate import simulate_matches

    g, values = _game_and_options(game, options)
    n = players if players is not None else g.default_players
    g.check_players(n, g.make_options(values))
    chosen = _board_of(g, board)
    if games < 1:
        fail(f"--games must be at least 1, got {games}")
    if workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    workers = _workers_for(workers, games, "matches" if matches else "hands")
    if records is not None:
        try:
            Path(records).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            fail(f"cannot create --records directory {records}: {e.strerror or e}")
    seed = _run_seed(seed, [])
    started = time.perf_counter()
    unit = "matches" if matches else "hands"
    every = _progress_every(progress_every, quiet, PROGRESS_RUN)
    with RunProgress("simulate", games, unit, every=every) as progress:
        try:
            summary = (simulate_matches if matches else run)(
                g.name,
                n,
                games,
                seed,
                values,
                records,
                workers,
                progress=progress.advance,
                board=None if chosen is None else chosen.to_json(),
            )
        except OSError as e:
            where = e.filename or records
            fail(f"cannot write a record to {where}: {e.strerror or e}")
    elapsed = time.perf_counter() - started
    data = summary.to_json()
    data["seed"] = seed
    data["options"] = values
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(
        f"{g.title}: {games} {unit}, {n} players, seed {seed}"
        + (f", options {values}" if values else "")
        + f" ({elapsed:.1f} s, {games / max(elapsed, 1e-9):.0f} {unit}/s)"
    )
    if matches:
        target = data["target_score"]
        if target is None:
            click.echo(
                "Target:          none (target_score is null: a match is one hand; "
                "set -o target_score=N)"
            )
        else:
            click.echo(f"Target:          {target}")
        click.echo("Match wins:      " + _by_seat(data["match_wins_by_seat"], games))
        click.echo(
            f"Hands per match: {data['hands_per_match']} "
            f"(from {data['hands_per_match_min']} to {data['hands_per_match_max']})"
        )
        _echo_hands(data["hands"], label="Hand wins:       ")
    else:
        _echo_hands(data, label="Wins by seat:    ")
    if records:
        click.echo(f"Records written to {records}/")


def _by_seat(counts: list[int], total: int) -> str:
    return "  ".join(f"P{s} {w} ({100 * w / max(total, 1):.1f}%)" for s, w in enumerate(counts))


def _echo_hands(data: dict[str, Any], label: str) -> None:
    click.echo(label + _by_seat(data["wins_by_seat"], data["games"]))
    if data["no_winner"]:
        click.echo(f"No winner:       {data['no_winner']}")
    click.echo("Hands ended:     " + "  ".join(f"{k} {v}" for k, v in data["endings"].items()))
    click.echo(f"Moves per hand:  {data['moves_per_hand']}")
    if "final_score_by_seat" in data:  # a board game scores on its track
        scores = data["final_score_by_seat"]
        click.echo("Final score:     " + "  ".join(f"P{s} {v}" for s, v in enumerate(scores)))
        return
    click.echo(
        f"Points per hand: {data['points_per_hand']} (by seat: "
        + ", ".join(str(p) for p in data["points_per_hand_by_seat"])
        + ")"
    )


def _workers_for(requested: int, tasks: int, unit: str) -> int:
    """The worker processes a run of ``tasks`` games starts for ``--workers requested``: no
    more than the games, nor than the machine can use (workers.machine_workers), with one
    warning line when that is fewer than asked for."""
    from bonepile.workers import usable_cores, worker_count

    used = worker_count(requested, tasks)
    if used < requested:
        why = (
            f"{tasks} {unit} to play"
            if used == tasks
            else f"at most {used} on this machine's {usable_cores()} cores"
        )
        warn(f"--workers {requested} is more than this run can use: starting {used} ({why})")
    return used


# ---------------------------------------------------------------------------------- watch
MAX_DELAY = 60.0
"""The longest ``watch --delay``, in seconds."""


@cli.command(short_help="Watch bots play a hand or a match, every move explained.")
@game_argument()
@players_option
@options_option
@board_option
@seed_option("the game")
@agents_options("Who plays, seat by seat, repeated round the table [default: random].")
@click.option(
    "--delay", type=float, default=0.0, show_default=True, help="Seconds to pause after each move."
)
@click.option(
    "--match",
    "whole_match",
    is_flag=True,
    help="Watch a whole match, hand after hand to the target_score.",
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(dir_okay=False),
    help="Also write the game's record here (a match record with --match).",
)
@_move_time_option
def watch(
    game: str,
    players: int | None,
    options: tuple[str, ...],
    board: str | None,
    seed: int | None,
    agent_list: str | None,
    agent_each: tuple[str, ...],
    delay: float,
    whole_match: bool,
    record_path: str | None,
    move_time: float,
) -> None:
    """Watch players (random ones unless --agents says otherwise) play one hand or a match,
    every move's effects spelled out.

    A bot that forfeits ends the game (the reason is printed); one that cannot start at all
    is an error, with the last lines it wrote on its standard error.
    """
    from bonepile.agents.base import play_hand, play_match
    from bonepile.agents.external import AgentForfeit
    from bonepile.agents.registry import make_agent
    from bonepile.match import Match, new_match
    from bonepile.render import render_match, render_state
    from bonepile.seeds import secret_seed

    g, values = _game_and_options(game, options)
    chosen = _board_of(g, board)
    if not math.isfinite(delay) or not 0 <= delay <= MAX_DELAY:
        fail(f"--delay must be from 0 to {MAX_DELAY:g} seconds, got {delay}")
    _check_move_time(move_time)
    if record_path is not None:
        parent = Path(record_path).parent
        if not parent.is_dir():
            fail(f"cannot write {record_path}: {parent} is not a directory")
        _check_writable(parent, f"--record {record_path}")
    players = players if players is not None else g.default_players
    g.check_players(players, g.make_options(values))
    given = agent_list is not None or agent_each
    names = _agents_of(agent_list, agent_each) if given else ["random"]
    if len(names) > players:
        fail(f"{len(names)} agents do not fit {players} seats (--agents: one per seat at most)")
    seats = [names[s % len(names)] for s in range(players)]
    seed = _run_seed(seed, names)
    agents = [
        make_agent(seats[s], seed=secret_seed(seed, "agent", s), move_time=move_time)
        for s in range(players)
    ]
    count = [0]

    def show(seat: int, action: Any, events: Any, new_state: Any) -> None:
        count[0] += 1
        click.echo(f"{count[0]:>3}. P{seat}: {action}")
        for e in events:
            click.echo(f"       {e.describe()}")
        if delay > 0:
            time.sleep(delay)

    seating = ", ".join(f"P{s}: {name}" for s, name in enumerate(seats))
    headers = {"event": f"bonepile watch, seed {seed}", "players": seating}
    click.echo(f"{g.title}, {players} players, seed {seed} (--seed {seed} repeats it)")
    click.echo(f"Seats: {seating}")
    click.echo("")
    if whole_match:
        match = new_match(g, players, options=values, seed=seed, board=chosen)

        def on_hand(m: Match) -> None:
            number = len(m.hands)
            if m.current.is_over:
                click.echo("")
                click.echo(render_state(m.current))
                totals = "  ".join(f"P{s} {t}" for s, t in enumerate(m.totals))
                click.echo(f"After hand {number}: {totals}")
            else:
                count[0] = 0
                click.echo("")
                click.echo(f"=== Hand {number} ===")
                click.echo(render_state(m.current))
                click.echo("")

        try:
            final_match = play_match(match, agents, on_step=show, on_hand=on_hand)
        except AgentForfeit as e:
            _forfeited(e, seats)
            return
        finally:
            _close(agents)
        click.echo("")
        click.echo(render_match(final_match, position=False))
        if record_path:
            from bonepile.match_record import save_match

            _write(lambda: save_match(final_match, record_path, headers=headers), record_path)
        return
    state = g.new(players, options=values, seed=seed, board=chosen)
    click.echo(render_state(state))
    click.echo("")
    try:
        final = play_hand(state, agents, on_step=show)
    except AgentForfeit as e:
        _forfeited(e, seats)
        return
    finally:
        _close(agents)
    click.echo("")
    click.echo(render_state(final))
    if record_path:
        from bonepile.record import save_record

        _write(lambda: save_record(final, record_path, headers=headers), record_path)


def _forfeited(forfeit: AgentForfeit, seats: list[str]) -> None:
    """Say that a watched game ended with a forfeit; a bot that could not start at all (a
    :class:`~bonepile.agents.external.BotStartError`) is an error."""
    from bonepile.agents.external import BotStartError

    seat = forfeit.seat or 0
    if isinstance(forfeit, BotStartError):
        fail(forfeit.message(f"P{seat} ({quoted(seats[seat], 80)})"))
    click.echo(f"P{seat} ({seats[seat]}) forfeits: {forfeit.reason}")


def _close(agents: list[Any]) -> None:
    """Stop every agent that runs a process (external bots)."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if close is not None:
            close()


def _check_writable(folder: Path, what: str) -> None:
    """Fail now, before any game, unless a file can be created in ``folder``."""
    import tempfile

    if folder.exists() and not folder.is_dir():
        fail(f"{what}: {folder} is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".bonepile-check-"):
            pass
    except OSError as e:
        fail(f"{what}: cannot write in {folder}: {e.strerror or e}")


def _write(save: Callable[[], None], path: str) -> None:
    try:
        save()
    except OSError as e:
        fail(f"cannot write {path}: {e.strerror or e}")
    click.echo(f"Record written to {path}")


# ---------------------------------------------------------------------------------- arena
@cli.command(short_help="Pit agents against each other on duplicate deals.")
@game_argument()
@players_option
@options_option
@board_option
@seed_option("the run")
@agents_options(
    "The agents, comma-separated: random, casual, greedy, ismcts[:level|:N|:Ns], policy:FILE, "
    "external:COMMAND (docs/bots.md)."
)
@games_option(50, "Deals to play (each once per seating of the agents).")
@click.option(
    "--match", "matches", is_flag=True, help="Play whole matches instead of single hands."
)
@click.option(
    "--workers",
    "-w",
    type=click.IntRange(1, MAX_WORKERS),
    help="Worker processes [default: every core; at most one per game and two per core].",
)
@click.option("--ray", "ray_address", metavar="ADDRESS", help="Run on a Ray cluster (or local).")
@click.option(
    "--report", type=click.Path(file_okay=False), help="Write a report (markdown, HTML) here."
)
@click.option("--records", type=click.Path(file_okay=False), help="Keep every game here.")
@_move_time_option
@progress_options(f"{PROGRESS_RUN:g} off a terminal; a live bar on one")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def arena(
    game: str,
    players: int | None,
    options: tuple[str, ...],
    board: str | None,
    seed: int | None,
    agent_list: str | None,
    agent_each: tuple[str, ...],
    games: int,
    matches: bool,
    workers: int | None,
    ray_address: str | None,
    report: str | None,
    records: str | None,
    move_time: float,
    progress_every: float | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Pit agents against each other on duplicate deals: every deal is played once per
    seating, so the luck of the deal cancels out. Prints win shares with 95% intervals, points
    per game, points margins with 95% intervals, Elo ratings and time per move.

    How far the run has got goes to standard error (a live bar on a terminal, else a line
    every 10 s; --progress, --quiet), the results to standard output. An external bot is
    started once first: one that cannot start is an error, not a forfeit in every game.
    """
    from bonepile.arena import check_bots_start, check_setup, run_arena, seatings
    from bonepile.arena.progress import RunProgress
    from bonepile.arena.report import table, write_report

    g, values = _game_and_options(game, options)
    agents = _agents_of(agent_list, agent_each)
    chosen = _board_of(g, board)
    _, n, _ = check_setup(g.name, agents, players, values)
    if games < 1:
        fail(f"--games must be at least 1, got {games}")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, got {workers}")
    _check_move_time(move_time)
    for option, folder in (("--report", report), ("--records", records)):
        if folder is not None:
            _check_writable(Path(folder), option)
    seed = _run_seed(seed, agents)
    per_deal = len(seatings(len(agents), n))
    total = games * per_deal
    unit = "matches" if matches else "hands"
    if workers is not None:
        workers = _workers_for(workers, total, unit)
    check_bots_start(g.name, agents, n, values, board=chosen, move_time=move_time)
    started = time.perf_counter()
    every = _progress_every(progress_every, quiet, PROGRESS_RUN)
    detail = f"({games:,} deals x {per_deal} seatings)"
    with RunProgress("arena", total, unit, every=every, detail=detail) as progress:
        try:
            result = run_arena(
                g.name,
                agents,
                games,
                seed=seed,
                players=n,
                options=values,
                matches=matches,
                workers=workers if workers is not None else (os.cpu_count() or 1),
                ray_address=ray_address,
                records=records,
                board=None if chosen is None else chosen.to_json(),
                move_time=move_time,
                progress=progress.advance,
            )
        except OSError as e:
            fail(f"cannot write a record: {e.strerror or e}")
    elapsed = time.perf_counter() - started
    data = result.to_json()
    report_error = None
    if report is not None:
        try:
            data["report"] = str(write_report(result, report))
        except OSError as e:
            report_error = f"cannot write the report in {report}: {e.strerror or e}"
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(
            f"{g.title}, {n} players: {result.deals} deals x {len(data['seatings'])} seatings = "
            f"{result.games} {unit}, seed {seed} ({elapsed:.1f} s)"
        )
        for line in table(result):
            click.echo(line)
        for f in data["forfeits"]:
            click.echo(
                f"forfeit: game {f['game']}, {f['agent']} (P{f['seat']}): {_printable(f['reason'])}"
            )
        if data["forfeits_total"] > len(data["forfeits"]):
            unlisted = data["forfeits_total"] - len(data["forfeits"])
            click.echo(f"forfeit: {unlisted} more, not listed")
        if "report" in data:
            click.echo(f"Report written to {data['report']}")
        if records:
            click.echo(f"Records written to {records}/")
    if report_error is not None:
        fail(report_error)


def _printable(text: str) -> str:
    """Bot-made text fit for a terminal: no control characters (escape sequences) or newlines."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


cli.add_command(login)
cli.add_command(logout)
cli.add_command(reports)


# ---------------------------------------------------------------------------------- entry
def main(argv: list[str] | None = None) -> None:
    """Run the command line; bad input gives one line on stderr and exit status 2.

    SIGTERM ends the command like an interrupt, stopping any external bots first; Ctrl-C ends
    it with one line (``bonepile: interrupted``) and exit status 130. Output that the terminal
    cannot encode is replaced, never fatal. When the reader of standard output goes away (``|
    head``), the command ends quietly with exit status 0; output that cannot be written for
    another reason (a full disk) ends it with one line.
    """
    from bonepile.workers import end_on_sigterm

    end_on_sigterm()
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="replace")
    if os.environ.get("_BONEPILE_COMPLETE"):  # shell completion: click answers and exits
        cli.main(args=argv, prog_name="bonepile")
    try:
        rc = _invoke(argv)
        sys.stdout.flush()
    except BonepileError as e:
        fail(str(e))
    except click.exceptions.Exit as e:  # --help, --version
        rc = e.exit_code
    except click.ClickException as e:
        if type(e).__name__.startswith("NoArgsIsHelp"):
            click.echo(cli.get_help(click.Context(cli, info_name="bonepile")))
            sys.exit(0)
        fail(e.format_message())
    except click.exceptions.Abort:
        _say("bonepile: aborted")
        sys.exit(130)
    except KeyboardInterrupt:
        _quiet_stdout()
        _say(("\n" if _is_terminal(sys.stderr) else "") + "bonepile: interrupted")
        sys.exit(130)
    except RecursionError:
        fail("input nested too deeply")
    except OSError as e:
        if e.errno == errno.EPIPE and _stdout_may_break():  # the reader went away: done
            _quiet_stdout()
            sys.exit(0)
        _quiet_stdout()
        if e.filename is not None:
            fail(f"{e.filename}: {e.strerror or e}")
        fail(f"cannot write the output: {e.strerror or e}")
    except MemoryError:
        fail("out of memory (is an input too large?)")
    except Exception as e:  # a bug: still one line, and the traceback on request
        if os.environ.get("BONEPILE_DEBUG"):
            raise
        _say(
            f"bonepile: internal error: {type(e).__name__}: {_one_line(str(e))} "
            "(a bug: please report it; BONEPILE_DEBUG=1 shows the traceback)"
        )
        sys.exit(1)
    sys.exit(rc if isinstance(rc, int) else 0)


def _invoke(argv: list[str] | None) -> Any:
    """Parse the arguments and run the command, every error left to :func:`main` (click's own
    ``main`` would turn a closed output into exit status 1 and Ctrl-C into two lines) but a
    missing package of an extra, which says what to install."""
    args = sys.argv[1:] if argv is None else list(argv)
    with cli.make_context("bonepile", args) as ctx:
        try:
            return cli.invoke(ctx)
        except ImportError as e:  # an extra's package, imported deep in a command
            extra = missing_extra(e)
            if extra is None:
                raise
            fail(needs_extra(f"bonepile {ctx.invoked_subcommand or ''}".strip(), extra, e))


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _stdout_may_break() -> bool:
    """Whether standard output is a pipe or a socket, whose reader can go away (a broken pipe
    from anything else, a file or a terminal, is a real error)."""
    try:
        mode = os.fstat(sys.stdout.fileno()).st_mode
    except (AttributeError, ValueError, OSError):
        return True  # cannot tell: take the error at its word
    return not (stat.S_ISREG(mode) or stat.S_ISCHR(mode))


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that flushing it at exit cannot fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    main()
