"""What the web client needs to know of the games: their options, seats and rules pages."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from markdown_it import MarkdownIt

from bonepile.agents.ismcts import LEVELS
from bonepile.errors import OptionError
from bonepile.games import Game, all_games, get_game
from bonepile.rulebook import how_to_play, rules_page
from bonepile.server.players.bot_ratings import rating_of
from bonepile.server.tables.seats import RoomError

BOT_NAMES = {
    "random": "Random bot",
    "casual": "Casual bot",
    "greedy": "Greedy bot",
    "ismcts:easy": "Search bot, easy",
    "ismcts:medium": "Search bot, medium",
    "ismcts:hard": "Search bot, hard",
    "ismcts:expert": "Search bot, expert",
}
"""The bots a table made in the browser may seat (never an external program), by spec."""

BOT_SPECS = frozenset(BOT_NAMES)

DEFAULT_BOT = "ismcts:hard"
"""The bot a new table's seats get unless its game's ladder lacks it (then its top rung)."""


def game_and_count(name: str, players: int | None = None, least: int = 1) -> tuple[Game[Any], int]:
    """The game called ``name`` (``unknown`` if there is none) and a number of players for it:
    ``players``, or its smallest count (at least ``least``); a count the game is not played by
    is a ``players`` refusal."""
    try:
        game = get_game(name)
    except OptionError:
        raise RoomError("unknown", f"there is no game {name[:40]!r}") from None
    low, high = game.player_range(game.make_options({}))
    low = max(low, least)
    count = low if players is None else players
    if not low <= count <= high:
        raise RoomError("players", f"{game.title} is played by {low} to {high}")
    return game, count


def ladder_bots(game: Game[Any]) -> list[dict[str, Any]]:
    """The bots the browser offers for ``game``: its ladder (``hints.ladder``), strongest
    first, each named with its rung ("level 3 of 4") and, where measured, its rating on the
    people's scale at the player count it was measured at (``rating``, with ``rated_label``:
    "level 3 of 4, about 1,540")."""
    ladder = game.hints.ladder
    n = len(ladder)
    out = []
    for k, spec in reversed(list(enumerate(ladder, 1))):
        bot: dict[str, Any] = {
            "spec": spec,
            "label": f"{BOT_NAMES[spec]} (level {k} of {n})",
            "level": k,
            "rating": None,
        }
        rating = rating_of(game.name, spec)
        if rating is not None:
            bot["rating"] = rating.to_json()
            bot["rated_label"] = f"{BOT_NAMES[spec]} (level {k} of {n}, {rating.text})"
        out.append(bot)
    return out


def default_bot(game: Game[Any]) -> str:
    """The bot a new table of ``game`` seats by default: :data:`DEFAULT_BOT` if on its ladder,
    else the ladder's top."""
    ladder = game.hints.ladder
    return DEFAULT_BOT if DEFAULT_BOT in ladder else ladder[-1]


@cache
def catalogue() -> list[dict[str, Any]]:
    """Every game with its player counts, options (default, kind, choices, meaning) and bots."""
    out = []
    for g in all_games():
        opts = g.make_options()
        low, high = g.player_range(opts)
        out.append(
            {
                "name": g.name,
                "title": g.title,
                "summary": g.summary,
                "family": g.family,
                "players": [low, high],
                "default_players": g.default_players,
                "target_score": g.target_score(opts),
                "options": [
                    {
                        "name": spec.name,
                        "kind": spec.kind,
                        "default": _plain(spec.default),
                        "help": spec.help,
                        "choices": list(spec.choices),
                        "allowed": list(spec.allowed),
                        "minimum": spec.minimum,
                        "maximum": spec.maximum,
                    }
                    for spec in g.option_specs()
                ],
                "bots": ladder_bots(g),
                "default_bot": default_bot(g),
                "levels": dict(LEVELS),
            }
        )
    return out


_MD = MarkdownIt("commonmark", {"html": False}).enable("table")


@cache
def rules_html(game: str) -> dict[str, str]:
    """A game's rules page and its short how-to-play, as HTML (raw HTML in the page escaped)."""
    g = get_game(game)
    return {
        "game": g.name,
        "title": g.title,
        "brief": _MD.render(how_to_play(g)),
        "html": _MD.render(rules_page(g)),
    }


def _plain(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else value
