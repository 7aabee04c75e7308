"""Perft (docs/records.md, "Perft"): golden counts, an independent brute force, and hand counts.

The golden files in tests/golden/perft/ hold one fixed deal each (the record, with an explicit
deal) and the counts at depths 1-4 plus the divide at depth 3. They were made by the engine, so
on their own they only pin against regressions (regenerate deliberately with
tests/golden/make_perft.py --write). Two further checks do not trust the engine's perft:

* an independent brute-force counter that walks the move strings and replays every path from
  the record (parse, record reading, replay), for depths up to 3;
* counts worked out by hand from the deals, asserted as literals with the reasoning beside them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bonepile.actions import Lead, parse_action
from bonepile.perft import divide, perft
from bonepile.record import load_record, read_record
from bonepile.state import State
from bonepile.tiles import parse_tile

pytestmark = pytest.mark.engine

GOLDEN_DIR = Path(__file__).parent / "golden" / "perft"
GOLDEN_FILES = sorted(GOLDEN_DIR.glob("*.json"))
BRUTE_DEPTH = 3

REQUIRED = {
    "block_2p_double6_lead",
    "block_2p_no_double",
    "block_2p_seat0_any",
    "block_4p_default",
    "block_4p_seat0_any",
    "draw_2p_forced_draws",
    "draw_2p_shuffled",
    "draw_3p_shuffled",
    "sd_2p_opening",
    "sd_2p_no_double",
    "sd_3p_spell",
    "sd_3p_shuffled",
    "sd_4p_shuffled_mid",
    "sd_3p_starter15",
    "sd_3p_starter14",
    "sd_2p_starter13",
    "sd_4p_starter3",
    "ddd_2p_tiny_opening",
    "ddd_2p_small_chain",
    "ddd_3p_small_mid",
}


def load_golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return data


def position(name: str) -> State:
    return read_record(load_golden(name)["record"])


def with_moves(record: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    return {**record, "moves": moves}


# ------------------------------------------------------------------------------ the goldens
def test_golden_files_cover_the_required_deals() -> None:
    names = {p.stem for p in GOLDEN_FILES}
    assert names >= REQUIRED, f"missing golden files: {sorted(REQUIRED - names)}"
    games = {load_golden(n)["record"]["game"] for n in names}
    assert {"block", "draw", "super_dominoes"} <= games


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_golden_perft_counts(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    record = data["record"]
    assert "deal" in record and "seed" not in record, "a golden deal must be explicit"
    state = read_record(record)
    for depth, expected in data["perft"].items():
        assert perft(state, int(depth)) == expected, f"{path.stem} depth {depth}"
    for depth, expected in data["divide"].items():
        got = {str(a): n for a, n in divide(state, int(depth))}
        assert got == expected, f"{path.stem} divide {depth}"
        assert sum(got.values()) == data["perft"][depth]
    assert perft(state, 0) == 1


# ------------------------------------------------------------------------------ brute force
def brute_force(record: dict[str, Any], depth: int) -> int:
    """Count move paths by replaying every path from the record's deal as move strings.

    Independent of :mod:`bonepile.perft` and of chained ``apply`` calls: each node is rebuilt
    by :func:`read_record` from the move texts, and its actions are re-parsed from their text.
    """
    return sum(1 for _ in paths(record, list(record["moves"]), depth))


def paths(record: dict[str, Any], moves: list[str], depth: int) -> Iterator[list[str]]:
    state = read_record(with_moves(record, moves))
    if depth == 0 or state.is_over:
        yield moves
        return
    texts = [str(a) for a in state.legal_actions()]
    assert texts, "a running hand must offer an action"
    assert len(set(texts)) == len(texts), f"duplicate actions after {moves}: {texts}"
    for text in texts:
        assert str(parse_action(text)) == text
        yield from paths(record, [*moves, text], depth - 1)


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_perft_matches_brute_force(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    record = data["record"]
    state = read_record(record)
    for depth in range(BRUTE_DEPTH + 1):
        expected = brute_force(record, depth)
        assert perft(state, depth) == expected, f"{path.stem} depth {depth}"
        if depth >= 1 and str(depth) in data["perft"]:
            assert data["perft"][str(depth)] == expected
    # divide agrees with the brute force under each first action
    for action, count in divide(state, BRUTE_DEPTH):
        sub = with_moves(record, [*record["moves"], str(action)])
        assert count == brute_force(sub, BRUTE_DEPTH - 1), f"{path.stem} {action}"


# ------------------------------------------------------------------------------ by hand
def hands_of(name: str) -> list[list[str]]:
    return [[str(parse_tile(t)) for t in h] for h in load_golden(name)["record"]["deal"]["hands"]]


def divide_map(state: State, depth: int) -> dict[str, int]:
    return {str(a): n for a, n in divide(state, depth)}


def test_hand_counts_block_double6_lead() -> None:
    # P0: 6-6 5-5 6-2 4-1 3-0 2-2 1-0      P1: 6-5 6-4 6-1 5-3 4-4 3-3 2-1
    assert hands_of("block_2p_double6_lead") == [
        ["6-6", "5-5", "6-2", "4-1", "3-0", "2-2", "1-0"],
        ["6-5", "6-4", "6-1", "5-3", "4-4", "3-3", "2-1"],
    ]
    s = position("block_2p_double6_lead")
    # depth 1: 6-6 is the highest double, so P0's only action is to lead it.
    assert s.actor == 0 and [str(a) for a in s.legal_actions()] == ["6-6"]
    # depth 2: both ends of 6-6 show 6 on the same tile, so each of P1's 6s is one action:
    # 6-5, 6-4, 6-1 -> 3.
    after_lead = s.apply(Lead(parse_tile("6-6")))
    assert sorted(str(a) for a in after_lead.legal_actions()) == [
        "6-1@6-6",
        "6-4@6-6",
        "6-5@6-6",
    ]
    # depth 3: P0 answers on the 6 of 6-6 (6-2) or on the new end x of 6-x:
    #   after 6-5: 6-2@6-6, 5-5@6-5                 -> 2
    #   after 6-4: 6-2@6-6, 4-1@6-4                 -> 2
    #   after 6-1: 6-2@6-6, 4-1@6-1, 1-0@6-1        -> 3
    assert divide_map(after_lead, 2) == {"6-5@6-6": 2, "6-4@6-6": 2, "6-1@6-6": 3}
    # depth 4: P1 answers (P1 left: the two 6s not played, 5-3 4-4 3-3 2-1):
    #   6-5, 6-2@6-6 -> ends 2, 5: 2-1, 5-3                          -> 2
    #   6-5, 5-5@6-5 -> ends 6, 5: 6-4, 6-1, 5-3                     -> 3
    #   6-4, 6-2@6-6 -> ends 2, 4: 2-1, 4-4                          -> 2
    #   6-4, 4-1@6-4 -> ends 6, 1: 6-5, 6-1 on 6; 6-1, 2-1 on 1      -> 4
    #   6-1, 6-2@6-6 -> ends 2, 1: 2-1 on either end                 -> 2
    #   6-1, 4-1@6-1 -> ends 6, 4: 6-5, 6-4 on 6; 6-4, 4-4 on 4      -> 4
    #   6-1, 1-0@6-1 -> ends 6, 0: 6-5, 6-4                          -> 2
    assert divide_map(after_lead, 3) == {"6-5@6-6": 5, "6-4@6-6": 6, "6-1@6-6": 8}
    assert [perft(s, d) for d in (1, 2, 3, 4)] == [1, 3, 7, 19]


def test_hand_counts_block_no_double() -> None:
    # No double was dealt (all seven are in the boneyard): the heaviest tile leads.
    # P0: 6-4 6-3 5-4 5-0 4-3 2-1 3-1      P1: 6-5 6-2 6-1 6-0 5-3 5-2 4-2
    assert hands_of("block_2p_no_double") == [
        ["6-4", "6-3", "5-4", "5-0", "4-3", "2-1", "3-1"],
        ["6-5", "6-2", "6-1", "6-0", "5-3", "5-2", "4-2"],
    ]
    s = position("block_2p_no_double")
    # depth 1: 6-5 (11 pips) is the heaviest dealt tile; P1 holds it and must lead it.
    assert s.actor == 1 and [str(a) for a in s.legal_actions()] == ["6-5"]
    # depth 2: P0 matches the 6 end (6-4, 6-3) or the 5 end (5-4, 5-0) -> 4.
    assert perft(s, 2) == 4
    assert sorted(str(a) for a in s.apply(s.legal_actions()[0]).legal_actions()) == [
        "5-0@6-5",
        "5-4@6-5",
        "6-3@6-5",
        "6-4@6-5",
    ]


def test_hand_counts_block_seat0_any() -> None:
    # lead=seat0_any: seat 0 may lead any of its 7 tiles, so depth 1 is 7.
    s = position("block_2p_seat0_any")
    assert s.actor == 0
    assert perft(s, 1) == 7
    assert {a for a in s.legal_actions()} == {Lead(t) for t in s.hand(0)}
    # depth 2: after each lead, P1 plays a tile matching either end, or passes (1).
    expected = 0
    for t in s.hand(0):
        ends = {t.hi, t.lo}
        plays = sum(len({v for v in ends if u.has(v)}) for u in s.hand(1))
        expected += plays or 1
    assert perft(s, 2) == expected == load_golden("block_2p_seat0_any")["perft"]["2"]


def test_hand_counts_draw_forced_draws() -> None:
    # After P0 leads 6-6, P1 (5-5 5-4 4-4 2-2 2-1 4-1 5-0) holds no 6. The boneyard starts
    # 3-0, 6-3: P1 must draw (1), still has no 6 and draws again (1), then 6-3@6-6 is its only
    # play (1). P0 (6-5 3-3 3-1 2-0 1-1 4-0 left) then has 6-5 on the 6 of 6-6 and 3-3, 3-1 on
    # the 3 of 6-3 -> 3.
    s = position("draw_2p_forced_draws")
    assert s.actor == 1 and s.boneyard[:2] == (parse_tile("3-0"), parse_tile("6-3"))
    assert [str(a) for a in s.legal_actions()] == ["draw"]
    s = s.apply(s.legal_actions()[0])
    assert [str(a) for a in s.legal_actions()] == ["draw"]
    s = s.apply(s.legal_actions()[0])
    assert [str(a) for a in s.legal_actions()] == ["6-3@6-6"]
    s = s.apply(s.legal_actions()[0])
    assert sorted(str(a) for a in s.legal_actions()) == ["3-1@6-3", "3-3@6-3", "6-5@6-6"]
    assert [perft(position("draw_2p_forced_draws"), d) for d in (1, 2, 3, 4)] == [1, 1, 1, 3]


def test_hand_counts_sd_opening() -> None:
    # P0 holds 15-14, the highest tile dealt (15-15 is in the boneyard), so P0 is first and may
    # set either of its doubles, 9-9 or 4-4 (starter_choice=any_double): depth 1 = 2.
    # P1: 9-1 9-2 4-0 12-7 11-5 10-3 8-6 7-2 6-5.
    # depth 2: six arms of the starter all show its value: after 9-9, P1's 9s (9-1, 9-2) -> 2;
    # after 4-4, P1's 4s (4-0) -> 1. Neither starter has an effect.
    # depth 3 (P0 left: 13-2 12-1 11-0 10-1 8-0 7-1 15-14):
    #   9-9, 9-1 -> ends 9 and 1: 12-1, 10-1, 7-1 -> 3;  9-9, 9-2 -> 13-2 on the 2 -> 1;
    #   4-4, 4-0 -> ends 4 and 0: 11-0, 8-0 -> 2 (a 0 end skips nobody by default).
    s = position("sd_2p_opening")
    assert s.actor == 0
    assert sorted(str(a) for a in s.legal_actions()) == ["4-4", "9-9"]
    assert divide_map(s, 2) == {"4-4": 1, "9-9": 2}
    assert divide_map(s, 3) == {"4-4": 2, "9-9": 4}
    assert [perft(s, d) for d in (1, 2, 3)] == [2, 3, 6]


def test_hand_counts_sd_no_double() -> None:
    # Nobody was dealt a double; both seats have passed. P0 (first: 15-14) draws 12-4, not a
    # double, so the option moves on; P1 draws 7-7 and must set it; then P0 plays its 7s
    # (7-1, 7-2) on the starter: counts 1, 1, 1, 2.
    s = position("sd_2p_no_double")
    assert s.boneyard[:2] == (parse_tile("12-4"), parse_tile("7-7"))
    seq = []
    for _ in range(3):
        assert len(s.legal_actions()) == 1
        seq.append((s.actor, str(s.legal_actions()[0])))
        s = s.apply(s.legal_actions()[0])
    assert seq == [(0, "draw"), (1, "draw"), (1, "7-7")]
    assert s.actor == 0
    assert sorted(str(a) for a in s.legal_actions()) == ["7-1@7-7", "7-2@7-7"]
    assert [perft(position("sd_2p_no_double"), d) for d in (1, 2, 3, 4)] == [1, 1, 1, 2]


def test_hand_counts_sd_spell() -> None:
    # P0 set 5-5; P1 played 13-5 on it, leaving 13: a spell on that end, cast by P1.
    # P2 (13-7 13-0 8-8 6-6 5-1 5-2 12-3 11-4 10-9) is bound: it may only play on the spelled
    # end, with a 13 (13-7, 13-0) or a double (8-8, 6-6; doubles are wild on 13); its 5s may
    # not go on the starter. depth 1 = 4.
    s = position("sd_3p_spell")
    assert s.actor == 2
    assert sorted(str(a) for a in s.legal_actions()) == [
        "13-0@13-5",
        "13-7@13-5",
        "6-6@13-5",
        "8-8@13-5",
    ]
    # depth 2, each breaks the spell (P0 left: 15-14 12-0 11-1 10-2 9-3 8-4 7-6 14-1;
    # P1 left: 5-4 12-12 11-10 9-8 7-3 6-2 14-0 15-1):
    #   13-7 -> open 7, P0 next: 7-6 -> 1;   13-0 -> open 0, P0 next: 12-0 -> 1;
    #   8-8 -> a double: P0 loses its turn, P1 next: 5-4 on the starter, 9-8 on 8-8 -> 2;
    #   6-6 -> likewise P1: 5-4 on the starter, 6-2 on 6-6 -> 2.
    assert divide_map(s, 2) == {"13-7@13-5": 1, "13-0@13-5": 1, "8-8@13-5": 2, "6-6@13-5": 2}
    # depth 3:
    #   13-7, 7-6@13-7 -> P1: 5-4 on the starter, 6-2 on 7-6                        -> 2
    #   13-0, 12-0@13-0 -> P1: 5-4 on the starter, 12-12 on 12-0                     -> 2
    #   8-8, then P1 5-4 (open 4) or 9-8 (open 9) -> P2: 5-1, 5-2, and 11-4 or 10-9  -> 3 + 3
    #   6-6, then P1 5-4 -> P2: 5-1, 5-2, 11-4 -> 3; P1 6-2 -> P2: 5-1, 5-2 on the
    #        starter and 5-2 on 6-2 -> 3                                               -> 6
    assert divide_map(s, 3) == {"13-7@13-5": 2, "13-0@13-5": 2, "8-8@13-5": 6, "6-6@13-5": 6}


def test_hand_counts_sd_special_starters() -> None:
    # 15-15 starter, 3 players. P0: 15-15 6-6 13-7 12-8 10-5 8-7 13-8 11-7 11-5 (first: it
    # holds 15-15). P1: 9-5 14-5 13-3 15-14 11-8 1-0 13-9 7-4 12-7. Boneyard: 14-12, 9-6, ...
    assert hands_of("sd_3p_starter15")[:2] == [
        ["15-15", "6-6", "13-7", "12-8", "10-5", "8-7", "13-8", "11-7", "11-5"],
        ["9-5", "14-5", "13-3", "15-14", "11-8", "1-0", "13-9", "7-4", "12-7"],
    ]
    s = position("sd_3p_starter15")
    # * set 15-15: P1 and P2 each draw one (14-12, 9-6). P1's only 15 is 15-14 (1); it leaves
    #   a 14, so P1 plays again: 14-5 or the drawn 14-12 on that 14 (2).
    # * set 6-6: P1 has no 6 and must draw (1): two tiles, 14-12 and 9-6; then 9-6 on the
    #   starter is its only play (1).
    assert divide_map(s, 2) == {"6-6": 1, "15-15": 1}
    assert divide_map(s, 3) == {"6-6": 1, "15-15": 2}

    # 14-14 starter, 3 players: P0 (15-13 is the highest tile dealt) sets 14-14 and plays again
    # at once, with its 14s: 14-5 or 14-2 -> depth 2 = 2.
    s = position("sd_3p_starter14")
    assert s.actor == 0 and [str(a) for a in s.legal_actions()] == ["14-14"]
    s = s.apply(s.legal_actions()[0])
    assert s.actor == 0
    assert sorted(str(a) for a in s.legal_actions()) == ["14-2@14-14", "14-5@14-14"]

    # 13-13 starter, 2 players (starter13_spell=all_arms): P1 (12-11 13-10 4-2 10-3 11-10 10-8
    # 11-11 1-1 10-10) may only start an arm, with a 13 (13-10) or a double (11-11, 1-1,
    # 10-10) -> 4; after the 3-3 starter instead, P1 holds no 3 and must draw -> 1.
    p1 = ["12-11", "13-10", "4-2", "10-3", "11-10", "10-8", "11-11", "1-1", "10-10"]
    assert hands_of("sd_2p_starter13")[1] == p1
    s = position("sd_2p_starter13")
    assert divide_map(s, 2) == {"3-3": 1, "13-13": 4}
    after = s.apply(Lead(parse_tile("13-13")))
    assert sorted(str(a) for a in after.legal_actions()) == [
        "1-1@13-13",
        "10-10@13-13",
        "11-11@13-13",
        "13-10@13-13",
    ]

    # 3-3 starter, 4 players: the direction reverses, so P3 (3-1 3-2 12-3 ...) plays next, not
    # P1 (whose only 3 is 4-3): depth 2 = 3, not 1.
    assert hands_of("sd_4p_starter3")[3][:3] == ["3-1", "3-2", "12-3"]
    s = position("sd_4p_starter3")
    assert [str(a) for a in s.legal_actions()] == ["3-3"]
    after = s.apply(s.legal_actions()[0])
    assert after.actor == 3
    assert sorted(str(a) for a in after.legal_actions()) == ["12-3@3-3", "3-1@3-3", "3-2@3-3"]


# ------------------------------------------------------------------------------ the contract
def test_perft_contract_through_the_api(tmp_path: Path) -> None:
    """What ``bonepile perft RECORD DEPTH [--divide]`` promises, checked through the API."""
    data = load_golden("sd_4p_shuffled_mid")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data["record"]), encoding="utf-8")
    state = load_record(path)
    assert state == read_record(data["record"])
    # perft(p, 0) = 1; divide at depth 0 lists nothing.
    assert perft(state, 0) == 1
    assert divide(state, 0) == []
    with pytest.raises(ValueError):
        perft(state, -1)
    # --divide: one line per legal action, ACTION COUNT, summing to the total.
    for depth in (1, 2, 3):
        lines = divide(state, depth)
        assert [a for a, _ in lines] == list(state.legal_actions())
        assert sum(n for _, n in lines) == perft(state, depth) == data["perft"][str(depth)]
        for action, count in lines:
            assert parse_action(str(action)) == action
            assert count == perft(state.apply(action), depth - 1)
        if depth == 1:
            assert all(n == 1 for _, n in lines)


def test_perft_of_a_finished_hand_is_one() -> None:
    # perft(p, d) = 1 when the hand is over at p (docs/records.md, "Perft"), at every depth.
    state = position("block_2p_double6_lead")
    while not state.is_over:
        state = state.apply(state.legal_actions()[-1])
    for depth in range(4):
        assert perft(state, depth) == 1
        assert divide(state, depth) == []


def test_perft_counts_paths_through_hands_that_end() -> None:
    # A path that ends the hand early counts once (the recursion stops there). Find a
    # position where some but not all depth-2 paths end the hand, and check it by hand.
    state = position("block_2p_double6_lead")
    while not state.is_over:
        ending = [a for a in state.legal_actions() if state.apply(a).is_over]
        if ending and len(state.legal_actions()) > 1:
            break
        state = state.apply(state.legal_actions()[0])
    if state.is_over:
        pytest.skip("this deal never offers a choice between ending and continuing")
    expected = sum(
        1 if state.apply(a).is_over else len(state.apply(a).legal_actions())
        for a in state.legal_actions()
    )
    assert perft(state, 2) == expected


def test_hand_counts_double_double_chain() -> None:
    # Small 7x7 board, star 4D. P0 led 0-0 on 3D/4D and holds 3-0, 3-3 and the 5-5 it drew.
    # Only 3-0 matches a 0. Its 0 goes on a square next to the double, its 3 on a free
    # neighbour that touches nothing else (a 3 next to the double's other 0 would be a bridge
    # onto the same domino, and would fill the 2x2 square):
    #   2D: 3 on 1D, 2C or 2E (3)      3C: 3 on 2C or 3B (2)       3E: 3 on 2E or 3F (2)
    #   4C: 3 on 4B or 5C (2)          4E: 3 on 4F or 5E (2)       5D: 3 on 5C, 5E or 6D (3)
    # 14 placements, plus stop.
    state = position("ddd_2p_small_chain")
    assert [str(t) for t in state.hand(0)] == ["3-0", "3-3", "5-5"]
    assert sorted(divide_map(state, 1)) == sorted(
        [
            "stop",
            "3-0@1D2D", "3-0@2C2D", "0-3@2D2E",
            "3-0@2C3C", "3-0@3B3C",
            "3-0@2E3E", "0-3@3E3F",
            "3-0@4B4C", "0-3@4C5C",
            "0-3@4E4F", "0-3@4E5E",
            "3-0@5C5D", "0-3@5D5E", "0-3@5D6D",
        ]
    )  # fmt: skip
    assert perft(state, 1) == 15
