"""Adding a game is one module plus its registration: the toy game of ``toy_game`` (defined
outside the package), registered here and played through every client: the rules' API,
:func:`bonepile.conformance.check_game`, ``simulate``, the arena, the bots, the command line
(``watch``, ``simulate``, ``arena``, ``replay``), records, views and matches.

The registration lasts for this module only (the ``line5`` fixture takes it back), so no other
test sees the toy game.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

import bonepile
import bonepile.games
from bonepile import Attach, Draw, Lead, Pass, parse_tile
from bonepile.agents.base import RandomAgent, play_hand, play_match
from bonepile.agents.ismcts import ISMCTSAgent
from bonepile.agents.sampler import determinize
from bonepile.arena import run_arena
from bonepile.cli import main
from bonepile.errors import OptionError
from bonepile.events import Drew, Passed
from bonepile.match_record import dump_match, load_any, match_record_of, read_match
from bonepile.simulate import simulate, simulate_matches
from toy_game import LINE_5, Line5Facts, Line5Options

pytestmark = pytest.mark.engine

NAME = LINE_5.name


@pytest.fixture(autouse=True, scope="module")
def line5() -> Iterator[bonepile.Game[Any]]:
    """Register the toy game for this module's tests, and take it back afterwards."""
    with pytest.raises(OptionError):
        bonepile.get_game(NAME)
    bonepile.games.register(LINE_5)
    yield LINE_5
    del bonepile.games._REGISTRY[NAME]
    for alias, name in list(bonepile.games._ALIASES.items()):
        if name == NAME:
            del bonepile.games._ALIASES[alias]
    with pytest.raises(OptionError):
        bonepile.get_game(NAME)
    assert LINE_5 not in bonepile.all_games()


def tiles(text: str) -> list[bonepile.Tile]:
    return [parse_tile(t) for t in text.split()]


def deal(*hands: str) -> tuple[list[list[bonepile.Tile]], list[bonepile.Tile]]:
    """The given hands, then the boneyard: the first tiles listed after ``|`` in the last
    argument, then the rest of the set in index order."""
    *hands_in, last = hands
    last_hand, _, bone_first = last.partition("|")
    parsed = [tiles(h) for h in (*hands_in, last_hand)]
    first = tiles(bone_first)
    used = {t for h in parsed for t in h} | set(first)
    return parsed, first + [t for t in bonepile.tile_set(5) if t not in used]


def played(state: bonepile.State[Any], *moves: str) -> bonepile.State[Any]:
    for m in moves:
        state = bonepile.apply(state, m)
    return state


def random_hand(players: int, seed: int, **options: Any) -> bonepile.State[Any]:
    return bonepile.new_game(NAME, players, options=options, seed=seed).playout(random.Random(seed))


# ------------------------------------------------------------------------------ the game
def test_registered_by_name_and_aliases() -> None:
    for name in ("line_5", "line-5", "LINE_5", "line5"):
        assert bonepile.get_game(name) is LINE_5
    assert bonepile.get_game(NAME, aliases=False) is LINE_5
    assert LINE_5 in bonepile.all_games()
    assert [s.name for s in LINE_5.option_specs()] == ["draw_when_unable", "target_score"]
    assert LINE_5.make_options({"draw_when_unable": False}) == Line5Options(False)
    with pytest.raises(OptionError, match="true or false"):
        LINE_5.make_options({"draw_when_unable": "sometimes"})
    with pytest.raises(OptionError, match="no option"):
        LINE_5.make_options({"spinner": True})
    with pytest.raises(OptionError, match="2 to 3 players"):
        bonepile.new_game(NAME, 4, seed=1)


def test_highest_double_leads_and_a_double_lead_offers_one_end() -> None:
    s = bonepile.new_game(NAME, 2, deal=deal("5-5 4-0 3-0 2-0 1-0", "4-4 5-4 5-3 3-3 1-1|"))
    assert (s.actor, s.first_player, s.legal_actions()) == (0, 0, (Lead(parse_tile("5-5")),))
    s = played(s, "5-5")
    assert [str(a) for a in s.legal_actions()] == ["5-3@5-5", "5-4@5-5"]
    s = played(s, "5-3@5-5", "3-0@5-3", "5-4@5-5")
    assert [str(a) for a in s.legal_actions()] == ["1-0@3-0", "2-0@3-0", "4-0@3-0", "4-0@5-4"]
    assert sorted(e.value for e in s.layout.ends) == [0, 4]


def test_draw_one_then_play_or_pass() -> None:
    s = bonepile.new_game(NAME, 2, deal=deal("5-5 4-4 3-3 0-0 1-0", "2-2 2-0 1-1 3-0 4-0|2-1 5-2"))
    s = played(s, "5-5")
    assert s.legal_actions() == (Draw(),) and not s.facts.drawn_this_turn
    s, events = s.step(Draw())
    assert events == (Drew(1, 1, (parse_tile("2-1"),), "unable"),)
    assert s.actor == 1 and s.facts == Line5Facts(0, True)
    assert s.legal_actions() == (Pass(),)  # the drawn 2-1 does not fit
    s, events = s.step(Pass())
    assert events == (Passed(1),) and s.actor == 0 and not s.facts.drawn_this_turn
    s = played(s, "draw")  # P0 draws 5-2, which fits
    assert s.legal_actions() == (Attach(parse_tile("5-2"), parse_tile("5-5")),)
    # what P0 saw of P1's draw: the count, not the tile
    seen = bonepile.view(s, 0).history[1].events[0]
    assert seen == Drew(1, 1, None, "unable")
    assert bonepile.view(s, 1).history[1].events[0].tiles == (parse_tile("2-1"),)


def test_going_out_scores_the_other_hands() -> None:
    s = bonepile.new_game(NAME, 2, deal=deal("5-5 4-0 3-0 2-0 1-0", "4-4 5-4 5-3 3-3 1-1|"))
    s = played(s, "5-5", "5-3@5-5", "3-0@5-3", "5-4@5-5", "1-0@3-0", "1-1@1-0", "4-0@5-4")
    s = played(s, "draw", "0-0@4-0", "2-0@0-0")
    assert s.result == bonepile.Result("domino", (0,), (14, 0))
    assert s.is_over and s.actor is None and s.legal_actions() == ()


def test_blocked_hands_score_the_lightest_or_nobody() -> None:
    no_draw = {"draw_when_unable": False}
    tied = deal("5-5 4-4 3-3 0-0 1-0", "2-2 2-0 1-1 3-0 4-0|")
    s = played(bonepile.new_game(NAME, 2, options=no_draw, deal=tied), "5-5")
    assert s.result == bonepile.Result("blocked", (), (0, 0))  # 15 pips each
    lighter = deal("5-5 4-4 3-3 0-0 1-0", "2-2 2-0 1-1 3-0 4-1|")
    s = played(bonepile.new_game(NAME, 2, options=no_draw, deal=lighter), "5-5")
    assert s.result == bonepile.Result("blocked", (0,), (16, 0))  # 15 pips against 16


def test_conformance() -> None:
    from bonepile.conformance import check_game

    for players, options in ((2, None), (3, None), (2, {"draw_when_unable": False})):
        report = check_game(NAME, players, options=options, seeds=range(12))
        assert report.games == 12 and report.decisions > 12 * 5


# ------------------------------------------------------------------------------ clients
def test_simulate(tmp_path: Path) -> None:
    summary = simulate(NAME, 2, 60, seed=7, records=tmp_path)
    data = summary.to_json()
    assert data["game"] == NAME and data["games"] == 60
    assert sum(data["wins_by_seat"]) + data["no_winner"] == 60
    assert set(data["endings"]) <= {"domino", "blocked"}
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 60
    final = bonepile.load_record(files[0])
    assert final.is_over and final.game is LINE_5
    assert simulate(NAME, 2, 60, seed=7).to_json() == data  # seeded
    blocky = simulate(NAME, 3, 40, seed=1, options={"draw_when_unable": False}).to_json()
    assert blocky["games"] == 40 and blocky["moves_per_hand"] < data["moves_per_hand"] + 20
    matches = simulate_matches(NAME, 3, 6, seed=2, options={"target_score": 25}).to_json()
    assert matches["matches"] == 6 and matches["target_score"] == 25
    assert matches["hands_per_match_min"] >= 1


def test_arena(tmp_path: Path) -> None:
    result = run_arena(NAME, ["random", "greedy"], 6, seed=3, workers=1, records=tmp_path)
    assert [s.games for s in result.stats] == [12, 12]
    assert result.to_json()["forfeits"] == []
    assert len(list(tmp_path.glob("*.json"))) == 12
    assert all(bonepile.load_record(p).is_over for p in tmp_path.glob("*.json"))
    search = run_arena(NAME, ["ismcts:easy", "random"], 3, seed=4, workers=1)
    assert search.deals == 3 and [s.games for s in search.stats] == [6, 6]
    match = run_arena(
        NAME,
        ["greedy", "random"],
        2,
        seed=5,
        matches=True,
        options={"target_score": 20},
        keep_outcomes=True,
    )
    assert match.outcomes
    assert all(o.reason == "match" and max(o.points) >= 20 for o in match.outcomes)


def test_search_bot_samples_worlds_consistent_with_its_view() -> None:
    agent = ISMCTSAgent(seed=1, level="easy")
    state = bonepile.new_game(NAME, 3, seed=11)
    rng = random.Random(5)
    while not state.is_over:
        seat = state.actor
        assert seat is not None
        v = bonepile.view(state, seat)
        world = determinize(v, rng)
        assert bonepile.view(world, seat) == v
        action = agent.act(v) if seat == 0 else RandomAgent(seat).act(v)
        state = state.apply(action)
    assert agent.fallbacks == 0


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def _entry(args: tuple[str, ...]) -> None:
    """The real entry point, :func:`bonepile.cli.main`, as a click command for CliRunner."""
    main(list(args))


def run(*args: str) -> Result:
    """``bonepile ARGS`` in this process (a subprocess would not see the registration)."""
    result = CliRunner().invoke(_entry, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result


def test_watch_and_the_other_commands(tmp_path: Path) -> None:
    out = run("watch", "line-5", "--players", "3", "--seed", "4").output
    assert out.startswith("Line 5, 3 players, seed 4 (--seed 4 repeats it)\nSeats: P0: random")
    assert "\nLine 5, 3 players, 0 moves" in out
    assert "  1. P" in out and "Result: " in out
    record = tmp_path / "match.json"
    out = run(
        "watch", NAME, "-n", "2", "-s", "1", "--match", "-o", "target_score=30",
        "-o", "draw_when_unable=false", "--agents", "greedy,ismcts:easy",
        "--record", str(record),
    ).output  # fmt: skip
    assert "=== Hand 1 ===" in out and "Line 5 match, 2 players, target 30" in out
    match = load_any(record)
    assert isinstance(match, bonepile.Match) and match.is_over
    assert match.options == Line5Options(False, 30)
    replayed = run("replay", str(record)).output
    assert "over, won by" in replayed
    summary = json.loads(run("simulate", "line5", "-n", "2", "-k", "25", "--json").output)
    assert summary["game"] == NAME and summary["games"] == 25
    arena = run("arena", NAME, "-a", "random,greedy", "-k", "2", "-w", "1", "--json").output
    assert json.loads(arena)["games"] == 4
    assert NAME in run("rules").output


def test_records_round_trip(tmp_path: Path) -> None:
    final = random_hand(3, 21)
    for ply in range(0, final.ply + 1, 4):
        state = played(final.initial, *map(str, final.moves[:ply]))
        assert bonepile.read_record(bonepile.record_of(state)) == state
        back = bonepile.read_record(bonepile.dump_record(state))
        assert back == state and back.moves == state.moves
    record = bonepile.record_of(final, headers={"event": "toy"})
    assert record["game"] == NAME and record["result"] == final.result.to_json()
    bonepile.save_record(final, tmp_path / "hand.json")
    assert bonepile.load_record(tmp_path / "hand.json") == final
    # an explicit deal instead of a seed, and a non-default option
    hands = deal("5-5 4-4 3-3 0-0 1-0", "2-2 2-0 1-1 3-0 4-1|")
    dealt = bonepile.new_game(NAME, 2, options={"draw_when_unable": False}, deal=hands)
    dealt = played(dealt, "5-5")
    record = bonepile.record_of(dealt)
    assert "deal" in record and record["options"] == {"draw_when_unable": False}
    assert bonepile.read_record(json.dumps(record)) == dealt
    assert bonepile.perft(final.initial, 3) > 0


def test_views() -> None:
    final = random_hand(3, 8)
    for state in (final.initial, played(final.initial, *map(str, final.moves[:7])), final):
        for seat in (None, 0, 1, 2):
            v = bonepile.view(state, seat)
            assert bonepile.View.from_json(json.loads(json.dumps(v.to_json()))) == v
            assert pickle.loads(pickle.dumps(v)) == v
            assert v.public == state.facts and v.layout == state.layout
            assert v.hand == (() if seat is None else state.hand(seat))
            if seat is not None and seat == state.actor:
                assert v.legal == state.legal_actions()
            else:
                assert v.legal == ()
    assert bonepile.view(final, None).revealed == tuple(final.hand(s) for s in range(3))
    assert pickle.loads(pickle.dumps(final)) == final


def test_matches() -> None:
    m = bonepile.new_match(NAME, 2, options={"target_score": 40}, seed=9)
    assert m.target == 40 and m.totals == (0, 0) and not m.is_over
    agents = [RandomAgent(1), RandomAgent(2)]
    final = play_match(m, agents)
    assert final.is_over and max(final.totals) >= 40 and final.winners
    for before, after in zip(final.hands, final.hands[1:], strict=False):
        assert after.scores_before == before.scores
        assert after.leader == LINE_5.next_leader(before)
        if after.leader is not None:
            assert after.first_player == after.leader
    assert read_match(dump_match(final)).totals == final.totals
    assert read_match(match_record_of(final)).hands == final.hands
    single = bonepile.new_match(NAME, 3, options={"target_score": None}, seed=1)
    single = single.with_current(play_hand(single.current, [RandomAgent(s) for s in range(3)]))
    assert single.is_over and single.target is None
