"""The bots on the people's rating scale, so a person can see where they stand.

The arena measures each rung of a game's ladder against the rung below (the share of the hands
it wins, over 400 duplicate deals at the game's usual number of players:
``benchmarks/results/ladder.json``). In the Plackett-Luce model people are rated by, a share
``p`` at ``n`` players is a rating gap of ``BETA * sqrt(n) * ln(p / (1 - p))``
(:func:`~bonepile.server.players.scale.gap`), so the rungs' gaps add up to one ladder of
ratings. The measurements say how far apart the bots are, not where people stand beside them;
the ladder is placed by a stated convention: the ``greedy`` bot, which plays sensible dominoes
without looking ahead, sits at 1500, where every person starts.

A rung that won every deal against the one below gives only a bound: by the rule of three, it
loses at most ``3 / deals`` of them (95%), so the rung below is *below* a rating, not at one.

``python benchmarks/bot_ratings.py`` writes ``bot_ratings.json`` beside this module from the
saved ladder rows (:func:`from_ladder`); ``tests/test_bot_ratings.py`` checks that the file is
what the rows give. docs/ratings.md shows the figures.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from bonepile.server.players.scale import START, gap

ANCHOR = "greedy"
"""The bot placed at :data:`~bonepile.server.players.scale.START` (the convention)."""

FILE = Path(__file__).with_name("bot_ratings.json")
"""The ratings as last derived from the ladder's measurements."""


@dataclass(frozen=True)
class BotRating:
    """A bot's rating in one game: its estimate and 95% interval, at ``players``; ``bound`` is
    ``"below"`` (or ``"above"``) when only an upper (or lower) limit is known."""

    spec: str
    players: int
    rating: float
    low: float
    high: float
    bound: str | None = None

    @property
    def text(self) -> str:
        """As the app shows it: ``about 1,540``, or ``below 300`` for a bound (to the hundred
        above it)."""
        if self.bound == "below":  # (a bound below 100 reads as 100: a rating is not negative)
            return f"below {max(100, math.ceil(self.rating / 100) * 100):,.0f}"
        if self.bound == "above":
            return f"above {math.floor(self.rating / 10) * 10:,.0f}"
        return f"about {round(self.rating, -1):,.0f}"

    def to_json(self) -> dict[str, Any]:
        """For the API: the rating rounded, its interval, the player count, the text."""
        return {
            "rating": round(self.rating),
            "low": round(self.low),
            "high": round(self.high),
            "players": self.players,
            "bound": self.bound,
            "text": self.text,
        }


def _step(row: Mapping[str, Any], players: int) -> tuple[float, float, bool]:
    """One rung's rating above the rung below, from their ladder row: ``(gap, half of its 95%
    interval, whether it is only a lower limit)``."""
    deals = int(row["deals"])
    share = float(row["win_share"])
    edge = 0.5 / deals  # a share of 0 or 1 is half a deal from it, for the interval's ends
    if share >= 1.0:
        return gap(1.0 - 3.0 / deals, players), 0.0, True
    if share <= 0.0:
        raise ValueError(f"{row['first']} never won against {row['second']}: not a ladder")
    low, high = (min(max(float(x), edge), 1.0 - edge) for x in row["ci95"])
    return gap(share, players), (gap(high, players) - gap(low, players)) / 2, False


def game_ratings(
    game: str, ladder: Sequence[str], rows: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """One game's entry of :data:`FILE`: its bots' ratings from the ladder rows of ``game``
    (each rung of ``ladder``, weakest first, against the one below)."""
    found = {(r["first"], r["second"]): r for r in rows if r["game"] == game}
    if ANCHOR not in ladder:
        raise ValueError(f"{game}: the ladder has no {ANCHOR}")
    steps = []
    for lower, upper in itertools.pairwise(ladder):
        row = found.get((upper, lower))
        if row is None:
            raise ValueError(f"{game}: no ladder row of {upper} against {lower}")
        steps.append(row)
    players = {int(r["players"]) for r in steps}
    if len(players) != 1:
        raise ValueError(f"{game}: the ladder rows are at different player counts {players}")
    (n,) = players
    anchor = ladder.index(ANCHOR)
    bots: dict[str, dict[str, Any]] = {ANCHOR: {"rating": START, "half": 0.0, "bound": None}}
    for k in range(anchor + 1, len(ladder)):  # up from the anchor
        below = bots[ladder[k - 1]]
        g, half, limit = _step(steps[k - 1], n)
        bound = "above" if limit or below["bound"] else None
        bots[ladder[k]] = {
            "rating": below["rating"] + g,
            "half": math.hypot(below["half"], half),
            "bound": bound,
        }
    for k in range(anchor - 1, -1, -1):  # and down
        above = bots[ladder[k + 1]]
        g, half, limit = _step(steps[k], n)
        bound = "below" if limit or above["bound"] else None
        bots[ladder[k]] = {
            "rating": above["rating"] - g,
            "half": math.hypot(above["half"], half),
            "bound": bound,
        }
    return {
        "players": n,
        "deals": min(int(r["deals"]) for r in steps),
        "commands": [r["command"] for r in steps],
        "bots": {
            spec: {
                "rating": round(b["rating"], 1),
                "low": round(b["rating"] - b["half"], 1),
                "high": round(b["rating"] + b["half"], 1),
                "bound": b["bound"],
            }
            for spec in ladder
            for b in [bots[spec]]
        },
    }


def from_ladder(
    ladders: Mapping[str, Sequence[str]], rows: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The whole of :data:`FILE`: every game's bots' ratings (:func:`game_ratings`) from the
    saved ladder rows, for the ladders ``ladders`` (game name to its ladder)."""
    return {
        "anchor": ANCHOR,
        "start": START,
        "games": {game: game_ratings(game, ladder, rows) for game, ladder in ladders.items()},
    }


@cache
def bot_ratings() -> dict[str, dict[str, BotRating]]:
    """The shipped ratings: game name to bot spec to :class:`BotRating` (empty if the file is
    missing)."""
    try:
        data = json.loads(FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return {
        game: {
            spec: BotRating(
                spec, int(entry["players"]), b["rating"], b["low"], b["high"], b["bound"]
            )
            for spec, b in entry["bots"].items()
        }
        for game, entry in data["games"].items()
    }


def rating_of(game: str, spec: str) -> BotRating | None:
    """The rating of bot ``spec`` in ``game``, if it was measured."""
    return bot_ratings().get(game, {}).get(spec)


__all__ = ["ANCHOR", "FILE", "BotRating", "bot_ratings", "from_ladder", "game_ratings", "rating_of"]
