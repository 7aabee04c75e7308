"""Ratings: places from how a table ended (leavers last), OpenSkill's Plackett-Luce at the
1500 scale, a table rated once however often it is settled (also at once from two threads),
teams, the leaderboard of established ratings, the history, and forgetting an account; on
SQLite and on PostgreSQL."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("argon2")
pytest.importorskip("openskill")

from bonepile.games import get_game
from bonepile.server.players.accounts import Accounts
from bonepile.server.players.ratings import (
    Ratings,
    finishing_ranks,
    rated,
    side_ranks,
)
from bonepile.server.players.scale import START, START_SIGMA
from test_store import make_store  # noqa: F401 - the fixture

PASSWORD = "correct horse"


def test_places_come_from_staying_then_winning_then_points() -> None:
    assert finishing_ranks([0, 25, 0], [1], [False] * 3) == [2, 1, 2]  # the rest tie
    assert finishing_ranks([120, 90, 40, 90], [0], [False] * 4) == [1, 2, 3, 2]
    # whoever left ranks last, even with the most points
    assert finishing_ranks([150, 20, 0], [0], [True, False, False]) == [3, 1, 2]
    assert finishing_ranks([10, 0], [], [True, True]) == [1, 2]  # both left: points decide


def test_a_side_ranks_with_its_worst_seat() -> None:
    assert side_ranks([1, 2, 1, 2], [(0, 2), (1, 3)]) == [1, 2]
    assert side_ranks([1, 2, 3, 2], [(0, 2), (1, 3)]) == [3, 2]  # seat 2 left


def test_the_games_name_their_sides() -> None:
    block = get_game("block")
    assert block.teams(4, block.make_options({"teams": True})) == ((0, 2), (1, 3))
    assert block.teams(4, block.make_options({})) == ((0,), (1,), (2,), (3,))
    doubles = get_game("doubles")
    assert doubles.teams(3, doubles.make_options({})) == ((0,), (1,), (2,))


def test_a_win_moves_equal_newcomers_apart_and_makes_both_surer() -> None:
    start = (START, START_SIGMA)
    (winner,), (loser,) = rated([[start], [start]], [1, 2])
    assert winner[0] > START > loser[0]
    assert abs((winner[0] - START) - (START - loser[0])) < 1e-6
    assert winner[1] < START_SIGMA and loser[1] < START_SIGMA
    # beating a much stronger player moves the rating more than beating an equal
    (upset,), _ = rated([[start], [(START + 600, 90.0)]], [1, 2])
    assert upset[0] - START > winner[0] - START


def test_a_table_is_rated_once_and_its_history_kept(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    store = make_store()
    accounts = Accounts(store)
    ann, bob = accounts.sign_up("Ann", PASSWORD, 1.0), accounts.sign_up("Bob", PASSWORD, 1.0)
    ratings = Ratings(store)
    sides = ((0,), (1,))
    ids = [ann.id, bob.id]
    assert ratings.settle("t1", "block", sides, ids, [1, 2], 10.0)
    assert not ratings.settle("t1", "block", sides, ids, [2, 1], 11.0)  # once only
    (a,) = ratings.standings(ann.id)
    (b,) = ratings.standings(bob.id)
    assert a.mu > START > b.mu and (a.games, a.wins, b.games, b.wins) == (1, 1, 1, 0)
    assert a.provisional and a.to_json()["rating"] == round(a.mu)
    assert ratings.settle("t2", "block", sides, ids, [1, 2], 20.0)
    history = ratings.history(ann.id, "block", 2)
    assert [h["table"] for h in history] == ["t1", "t2"]
    assert history[0]["rating"] < history[1]["rating"] and history[1]["rank"] == 1
    assert ratings.history(ann.id, "block", 3) == [] and ratings.history(ann.id, "draw", 2) == []
    ratings.forget(ann.id)
    assert ratings.standings(ann.id) == [] and ratings.history(ann.id, "block", 2) == []
    assert ratings.standings(bob.id)[0].games == 2


def test_two_settlements_at_once_rate_the_table_once(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    store = make_store()
    accounts = Accounts(store)
    ids = [accounts.sign_up(n, PASSWORD, 1.0).id for n in ("Ann", "Bob", "Cyd")]
    ratings = Ratings(store)
    results: list[bool] = []
    lock = threading.Barrier(2)

    def settle() -> None:
        lock.wait()
        results.append(ratings.settle("t1", "doubles", ((0,), (1,), (2,)), ids, [1, 2, 3], 5.0))

    threads = [threading.Thread(target=settle) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == [False, True]
    assert [ratings.standings(i)[0].games for i in ids] == [1, 1, 1]


def test_partners_move_together_and_the_leaderboard_shows_established_ratings(make_store) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    store = make_store()
    accounts = Accounts(store)
    people = [accounts.sign_up(n, PASSWORD, 1.0) for n in ("Ann", "Bob", "Cyd", "Dee")]
    ids = [p.id for p in people]
    ratings = Ratings(store)
    teams = ((0, 2), (1, 3))
    assert ratings.leaderboard("block", 4) == []  # nobody rated yet
    for k in range(40):
        ratings.settle(f"t{k}", "block", teams, ids, [1, 2, 1, 2], float(k))
    ann, bob, cy, dee = (ratings.standings(i)[0] for i in ids)
    assert ann.mu == pytest.approx(cy.mu) and bob.mu == pytest.approx(dee.mu)
    assert ann.mu > bob.mu and not ann.provisional
    board = ratings.leaderboard("block", 4)
    assert [name for name, _ in board][:2] in (["Ann", "Cyd"], ["Cyd", "Ann"])
    assert [s.mu for _, s in board] == sorted((s.mu for _, s in board), reverse=True)
    # a newcomer with one great result ranks below every established rating
    eve, fay, gus, hal = (
        accounts.sign_up(n, PASSWORD, 1.0).id for n in ("Eve", "Fay", "Gus", "Hal")
    )
    ratings.settle("new", "block", teams, [eve, fay, gus, hal], [1, 2, 1, 2], 99.0)
    names = [name for name, _ in ratings.leaderboard("block", 4)]
    assert names[:4] != ["Eve"] and names.index("Eve") > names.index("Dee")
    assert all(s.provisional for name, s in ratings.leaderboard("block", 4)[4:])
