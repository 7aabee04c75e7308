"""What the web client needs to know of the games: their options, seats and rules pages."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from markdown_it import MarkdownIt

from bonepile.agents.ismcts import LEVELS
from bonepile.games import all_games, get_game
from bonepile.rulebook import how_to_play, rules_page

BOTS = [
    {"spec": "ismcts:easy", "label": "Search bot, easy"},
    {"spec": "ismcts:medium", "label": "Search bot, medium"},
    {"spec": "ismcts:hard", "label": "Search bot, hard"},
    {"spec": "greedy", "label": "Greedy bot"},
    {"spec": "random", "label": "Random bot"},
]
"""The bots a table made in the browser may seat (never an external program)."""

BOT_SPECS = frozenset(b["spec"] for b in BOTS)


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
                "bots": BOTS,
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
