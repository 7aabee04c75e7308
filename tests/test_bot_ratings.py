"""The bots on the people's rating scale: the gap a share of wins makes is the one OpenSkill's
own updates settle at; each game's ladder climbs from the greedy bot at 1500; the shipped file
is what the saved ladder measurements give; the app shows the ratings beside each level and on
the leaderboard, at the player count they were measured at."""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("openskill")

from bonepile.games import all_games
from bonepile.server.players.bot_ratings import (
    ANCHOR,
    BotRating,
    bot_ratings,
    game_ratings,
)
from bonepile.server.players.ratings import MODEL
from bonepile.server.players.scale import START, gap

ROOT = Path(__file__).resolve().parent.parent


def _settled_gap(players: int, share: float, tables: int = 6000, seed: int = 1) -> float:
    """The rating gap OpenSkill's updates settle at between one player who finishes ahead of
    each other player in ``share`` of their meetings (Plackett-Luce orders drawn at random) and
    ``players - 1`` equal others, averaged once the ratings have settled."""
    rng = random.Random(seed)
    strength = [share / (1 - share)] + [1.0] * (players - 1)
    ratings = [MODEL.rating() for _ in range(players)]
    gaps = []
    for t in range(tables):
        left, order = list(range(players)), []
        while left:
            x = rng.random() * sum(strength[i] for i in left)
            for i in left:
                x -= strength[i]
                if x <= 0:
                    break
            order.append(i)
            left.remove(i)
        ranks = [order.index(i) + 1 for i in range(players)]
        ratings = [side[0] for side in MODEL.rate([[r] for r in ratings], ranks=ranks)]
        if t >= tables // 5:
            gaps.append(ratings[0].mu - statistics.mean(r.mu for r in ratings[1:]))
    return statistics.mean(gaps)


@pytest.mark.parametrize("players", [2, 4])
def test_a_share_of_wins_is_the_gap_openskill_settles_at(players: int) -> None:
    formula = gap(0.6, players)
    settled = _settled_gap(players, 0.6)
    # the settled deviations (about 60) widen the model's spread a little: within 10%
    assert formula * 0.95 < settled < formula * 1.10, (formula, settled)
    assert gap(0.4, players) == pytest.approx(-formula)


def test_each_ladder_climbs_from_the_greedy_bot_at_the_start() -> None:
    shipped = bot_ratings()
    for game in all_games():
        ladder = game.hints.ladder
        ours = shipped[game.name]
        assert list(ours) == list(ladder)
        assert ours[ANCHOR].rating == START
        values = [ours[spec].rating for spec in ladder]
        assert values == sorted(values) and len(set(values)) == len(values), game.name
        for spec in ladder:
            r = ours[spec]
            assert r.low <= r.rating <= r.high
            assert r.players == ours[ANCHOR].players


def test_a_rung_that_always_won_gives_only_a_bound() -> None:
    rows = [
        {"game": "g", "first": "greedy", "second": "random", "players": 2, "deals": 400,
         "win_share": 1.0, "ci95": [1.0, 1.0], "command": "a"},
        {"game": "g", "first": "ismcts:hard", "second": "greedy", "players": 2, "deals": 400,
         "win_share": 0.6, "ci95": [0.55, 0.65], "command": "b"},
    ]  # fmt: skip
    got = game_ratings("g", ("random", "greedy", "ismcts:hard"), rows)["bots"]
    assert got["ismcts:hard"]["rating"] == pytest.approx(START + gap(0.6, 2), abs=0.1)
    assert got["ismcts:hard"]["bound"] is None
    # never lost in 400 deals: it loses at most 3/400 of them, so random is below that gap
    assert got["random"]["bound"] == "below"
    assert got["random"]["rating"] == pytest.approx(START - gap(1 - 3 / 400, 2), abs=0.1)
    shown = BotRating("random", 2, got["random"]["rating"], 0, 0, "below").text
    assert shown == "below 300"
    with pytest.raises(ValueError, match="no ladder row"):
        game_ratings("g", ("random", "greedy", "ismcts:hard", "ismcts:expert"), rows)


def test_the_shipped_ratings_are_what_the_ladder_measurements_give() -> None:
    done = subprocess.run(
        [sys.executable, "benchmarks/bot_ratings.py", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    table = subprocess.run(
        [sys.executable, "benchmarks/bot_ratings.py", "--markdown"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert table in (ROOT / "docs" / "ratings.md").read_text(encoding="utf-8")


def test_the_app_shows_each_level_with_its_rating(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from test_server import make_client

    with make_client(tmp_path / "db.sqlite") as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
        block = {b["spec"]: b for b in games["block"]["bots"]}
        hard = bot_ratings()["block"]["ismcts:hard"]
        assert block["ismcts:hard"]["rated_label"] == (
            f"Search bot, hard (level 4 of 5, {hard.text})"
        )
        assert hard.text.startswith("about ") and block["ismcts:hard"]["rating"]["players"] == 2
        board = client.get("/api/leaderboard/block?players=2").json()
        specs = [b["spec"] for b in board["bots"]]
        assert specs == ["ismcts:expert", "ismcts:hard", "greedy", "casual", "random"]
        assert board["bots_players"] == 2
        four = client.get("/api/leaderboard/block?players=4").json()
        assert four["bots"] == [] and four["bots_players"] == 2  # measured at two players
