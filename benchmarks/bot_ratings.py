"""The bots' ratings on the people's scale, from the ladder's saved measurements.

    python benchmarks/bot_ratings.py [--check | --markdown]

Reads ``benchmarks/results/ladder.json`` (each rung of each game's ladder against the rung
below, ``python benchmarks/strength.py --parts ladder``), puts every game's ladder on the
people's rating scale (``bonepile.server.players.bot_ratings``: the greedy bot at 1500, the
gaps from the shares of hands won) and writes
``src/bonepile/server/players/bot_ratings.json``, which the web app shows beside each level.
Prints the ratings as JSON. ``--check`` writes nothing and fails if the file differs from what
the rows give; ``--markdown`` prints docs/ratings.md's table of them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bonepile.games import get_game
from bonepile.server.players.bot_ratings import ANCHOR, FILE, BotRating, from_ladder
from bonepile.server.tables.catalogue import BOT_NAMES

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "ladder.json"
GAMES = ["block", "draw", "doubles", "super_dominoes", "double_double"]


def derived() -> str:
    """The file's text as the saved rows give it."""
    rows = json.loads(RESULTS.read_text(encoding="utf-8"))["rows"]
    ladders = {g: get_game(g).hints.ladder for g in GAMES}
    return json.dumps(from_ladder(ladders, rows), indent=1) + "\n"


def markdown(data: dict[str, object]) -> str:
    """docs/ratings.md's table of the ratings in ``data`` (the file's content)."""
    lines = [
        "| game (players) | level | bot | rating | 95% interval |",
        "| --- | --- | --- | --- | --- |",
    ]
    games = data["games"]
    assert isinstance(games, dict)
    for game, entry in games.items():
        title = get_game(game).title
        bots = entry["bots"]
        for k, (spec, b) in enumerate(bots.items(), 1):
            if b["bound"] == "below":  # as the app shows it
                shown = BotRating(spec, entry["players"], b["rating"], b["low"], b["high"], "below")
                value, span = shown.text, "(never won a hand against the next)"
            elif spec == ANCHOR:
                value, span = f"{b['rating']:,.0f}", "(set here)"
            else:
                value, span = f"{b['rating']:,.0f}", f"{b['low']:,.0f} to {b['high']:,.0f}"
            lines.append(
                f"| {title} ({entry['players']}) | {k} of {len(bots)} | {BOT_NAMES[spec]} "
                f"| {value} | {span} |"
            )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--markdown", action="store_true", help="print docs/ratings.md's table")
    args = parser.parse_args()
    text = derived()
    if args.markdown:
        sys.stdout.write(markdown(json.loads(text)))
        return 0
    if args.check:
        if not FILE.exists() or FILE.read_text(encoding="utf-8") != text:
            print(f"{FILE} is not what {RESULTS} gives: run {__file__}", file=sys.stderr)
            return 1
    else:
        FILE.write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
