"""The replay's analysis: each legal move's chance to win with an honest 95% interval, from
the view of the seat to act only.

A move that wins for sure and one that loses for sure are told apart; two moves that lead to
the same position are too close to call; the analysis never changes when the hidden tiles are
dealt another way the seat's view allows; a bad position, seat or level gets one clear error.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bonepile.actions import parse_action
from bonepile.games import new_game
from bonepile.record import dump_record
from bonepile.server.tables.analysis import (
    ANALYSIS_LEVELS,
    AnalysisError,
    Budget,
    analyse,
    replay_frames,
    wilson,
)
from bonepile.tiles import Tile

BUDGET = Budget(400)
"""No time limit: the same answer on any machine."""


def block_record(hands: list[str], boneyard: str, moves: str) -> str:
    """The record of a two-seat block hand dealt ``hands`` and ``boneyard`` (tiles separated
    by spaces), after ``moves``."""
    deal = (
        [[Tile.parse(t) for t in h.split()] for h in hands],
        [Tile.parse(t) for t in boneyard.split()],
    )
    state = new_game("block", 2, deal=deal)
    for text in moves.split():
        state = state.apply(parse_action(text))
    return dump_record(state)


# Seat 1 holds 0-0 and 1-0 with the ends at 2 and 0. Seat 0 has one tile left and passed on 2,
# 5, 6 and 0: of the tiles seat 1 has not seen, that leaves the 1-1 or the 3-1. 0-0 keeps the
# ends, seat 0 passes and 1-0 goes out: a sure win. 1-0 opens a 1 and seat 0 goes out: a sure
# loss.
CLEAR = block_record(
    ["1-1 2-1 3-2 3-3 4-1 4-3 5-2", "0-0 1-0 4-4 5-0 5-1 6-1 6-5"],
    "2-2 3-1 2-0 4-0 6-2 6-4 5-3 5-4 5-5 6-3 4-2 6-0 3-0 6-6",
    "4-4 4-3@4-4 pass 3-3@4-3 pass 4-1@4-4 5-1@4-1 5-2@5-1 pass 3-2@3-3 pass 2-1@5-2 "
    "6-1@2-1 pass 6-5@6-1 pass 5-0@6-5 pass",
)

# Seat 1 to play with both ends at 4 (on the 6-4 and on the 5-4) and one tile that fits, the
# 4-1: either end leaves the same ends, 1 and 4, so the two moves are worth the same.
HANDS = ["0-0 2-0 3-3 4-3 5-4 6-4 6-6", "3-2 4-1 5-1 5-5 6-2 6-3 6-5"]
BONEYARD = "4-4 2-2 2-1 6-0 3-0 5-0 4-2 1-1 3-1 4-0 1-0 5-3 6-1 5-2"
PLAYED = "6-6 6-5@6-6 6-4@6-6 5-5@6-5 5-4@5-5"
TWINS = block_record(HANDS, BONEYARD, PLAYED)


def test_a_sure_win_and_a_sure_loss_are_told_apart() -> None:
    got = analyse(CLEAR, 18, None, "easy")
    assert got["seat"] == 1 and not got["forced"]
    win, loss = got["moves"]
    assert (win["action"], loss["action"]) == ("0-0@5-0", "1-0@5-0")
    assert win["win"] == 1.0 and loss["win"] == 0.0
    assert win["low"] > loss["high"]
    assert got["verdict"] == "clear" and got["best"] == ["0-0@5-0"]
    assert win["simulations"] == loss["simulations"] == got["simulations"] >= 50
    assert got["confidence"] == 0.95 and got["unexplored"] == []


def test_two_moves_to_the_same_position_are_too_close_to_call() -> None:
    got = analyse(TWINS, 5, 1, "medium", BUDGET)
    a, b = got["moves"]
    assert {a["action"], b["action"]} == {"4-1@6-4", "4-1@5-4"}
    assert a["simulations"] == b["simulations"] == 400
    assert a["low"] <= b["high"] and b["low"] <= a["high"]
    assert got["verdict"] == "close" and set(got["best"]) == {"4-1@6-4", "4-1@5-4"}
    for m in got["moves"]:
        assert 0 <= m["low"] <= m["win"] <= m["high"] <= 1 and m["high"] - m["low"] < 0.2


def redeal(seed: int) -> str:
    """``TWINS`` with the tiles seat 1 cannot see at position 5 (seat 0's unplayed tiles and
    the boneyard) dealt again at random: no pass yet, and the highest double was led, so any
    such deal fits seat 1's view."""
    hands = [h.split() for h in HANDS]
    played = {str(Tile.parse(m.split("@")[0])) for m in PLAYED.split()}
    hidden = [t for t in hands[0] if t not in played] + BONEYARD.split()
    random.Random(seed).shuffle(hidden)
    kept = [t for t in hands[0] if t in played]
    mine = kept + hidden[: 7 - len(kept)]
    return block_record([" ".join(mine), HANDS[1]], " ".join(hidden[7 - len(kept) :]), PLAYED)


def test_the_analysis_reads_only_the_view_of_the_seat() -> None:
    first = analyse(TWINS, 5, 1, "easy", BUDGET)
    hands = {json.dumps(replay_frames(TWINS, 20)["frames"][5]["hands"])}
    for seed in range(4):
        record = redeal(seed)
        frame = replay_frames(record, 20)["frames"][5]
        hands.add(json.dumps(frame["hands"]))
        assert frame["hands"][1] == replay_frames(TWINS, 20)["frames"][5]["hands"][1]
        assert analyse(record, 5, 1, "easy", BUDGET) == first
    assert len(hands) == 5  # the hidden tiles did change


@pytest.mark.parametrize(
    ("ply", "seat", "level", "message"),
    [
        (-1, None, "easy", "this hand has positions 0 to 18, not -1"),
        (19, None, "easy", "this hand has positions 0 to 18, not 19"),
        (5, 1, "easy", "seat 1 is not to move at position 5; seat 0 is"),
        (5, 2, "easy", "seat is 0 to 1"),
        (5, -1, "easy", "seat is 0 to 1"),
        (5, None, "expert", "level is one of easy, medium, hard, not 'expert'"),
        (5, None, "godlike", "level is one of easy, medium, hard"),
    ],
)
def test_a_bad_request_gets_one_clear_error(
    ply: int, seat: int | None, level: str, message: str
) -> None:
    with pytest.raises(AnalysisError) as err:
        analyse(CLEAR, ply, seat, level)
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_a_finished_hand_has_nobody_to_move() -> None:
    record = json.loads(CLEAR)
    record["moves"].append("0-0@5-0")
    record["moves"].append("pass")
    record["moves"].append("1-0@0-0")
    with pytest.raises(AnalysisError, match="nobody is to move at position 21"):
        analyse(json.dumps(record), 21, None, "easy")


def test_the_levels_are_the_bots_but_expert() -> None:
    assert ANALYSIS_LEVELS == ("easy", "medium", "hard")


def test_a_forced_move_is_estimated_too() -> None:
    got = analyse(CLEAR, 14, None, "easy", Budget(60))  # only the 6-5 fits the 6
    assert got["forced"] and got["verdict"] == "forced" and got["best"] == ["6-5@6-1"]
    assert [m["action"] for m in got["moves"]] == ["6-5@6-1"] and got["simulations"] == 60


def test_wilson_interval() -> None:
    low, high = wilson(0.5, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    low, high = wilson(0.0, 50)
    assert low == pytest.approx(0.0, abs=1e-12) and 0.07 < high < 0.072
    assert wilson(0.3, 0) == (0.0, 1.0)


def test_the_replay_names_each_move_as_the_rules_write_it() -> None:
    record: dict[str, Any] = json.loads(TWINS)
    record["moves"] = ["6-6", "5-6@6-6"]  # the tile written low half first
    frames = replay_frames(json.dumps(record), 20)["frames"]
    assert frames[2]["turn"]["action"] == "6-5@6-6"
    assert frames[2]["turn"]["events"][0]["tile"] == "6-5"
