"""The 19 worked Double Double Dominoes scenarios, each a required test (``test_5_3_NN`` is
scenario NN), plus one or more situations per option (docs/games/double_double.md, "Options")
where changing the option changes behaviour.

Expected values come from docs/games/double_double.md, docs/rules.md ("Double Double
Dominoes") and docs/records.md ("Notation", "Decisions and forced moves"), worked out by hand,
never read back from the engine. Positions are built with the fixture builder ``position``
(the test builds the state directly) or, where cheap, by legal play. Only the public API is
used.

Standard board (docs/games/double_double.md, "Equipment"), rows 1-15 from the top, columns A-O
from the left::

         ABCDEFGHIJKLMNO
      1  5..4...3...4..5        9  ....1.....1....
      2  ..3..4...4..3..       10  .4.2.1...1.2.4.
      3  .3..2.....2..3.       11  ..2.1.1.1.1.2..
      4  4..3.2...2.3..4       12  4..3.2...2.3..4
      5  ..2.1.1.1.1.2..       13  .3..2.....2..3.
      6  .4.2.1...1.2.4.       14  ..3..4...4..3..
      7  ....1.....1....       15  5..4...3...4..5
      8  3......*......3

Score track (position k shows spaces[k-1]): 1:1 2:2 3:3 4:4 5:5 6:6 7:0 8:2 9:5 10:3 11:4 12:6
... 20:6 27:3 30:0 32:5 73:4 95:4 98:6.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from bonepile.actions import Discard, Place, parse_action
from bonepile.errors import DealError, IllegalActionError, OptionError
from bonepile.events import ChainStopped, Discarded, Drew, HandEnded, PlacedOnBoard, Scored
from bonepile.games import get_game
from bonepile.games.double_double import DoubleDoubleState, position, sets_in_play
from bonepile.grid import load_board, standard_board
from bonepile.tiles import Tile, parse_tile, tile_multiset

pytestmark = pytest.mark.engine

GAME = get_game("double_double")
BOARD = standard_board()

# --------------------------------------------------------------------------- helpers


def legal(s: DoubleDoubleState) -> set[str]:
    """The actor's legal actions in notation."""
    return {str(a) for a in s.legal_actions()}


def act(s: DoubleDoubleState, text: str) -> DoubleDoubleState:
    """Apply one action written in notation, checking first that it is offered."""
    assert text in legal(s), f"{text} should be legal; legal: {sorted(legal(s))}"
    new = s.apply(parse_action(text))
    assert isinstance(new, DoubleDoubleState)
    return new


def play(s: DoubleDoubleState, *texts: str) -> DoubleDoubleState:
    """Apply several actions in turn (each must be legal)."""
    for text in texts:
        s = act(s, text)
    return s


def step(s: DoubleDoubleState, text: str) -> tuple[DoubleDoubleState, tuple[Any, ...]]:
    """``s.step`` on an action written in notation."""
    new, events = s.step(parse_action(text))
    assert isinstance(new, DoubleDoubleState)
    return new, events


def assert_illegal(s: DoubleDoubleState, text: str) -> None:
    """``text`` is not offered and applying it raises, leaving ``s`` as it was."""
    assert text not in legal(s)
    before = (s.positions, s._hands, s.actor, s.boneyard_size)
    with pytest.raises(IllegalActionError):
        s.apply(parse_action(text))
    assert (s.positions, s._hands, s.actor, s.boneyard_size) == before


def tiles(*texts: str) -> list[Tile]:
    return [parse_tile(t) for t in texts]


def deal(hands: Sequence[Sequence[str]], sets: int = 2) -> tuple[list[list[Tile]], list[Tile]]:
    """An explicit deal: these hands, the rest of ``sets`` double-6 sets as the boneyard."""
    hand_tiles = [tiles(*h) for h in hands]
    rest = Counter(tile_multiset(6, sets)) - Counter(t for h in hand_tiles for t in h)
    bone = sorted(rest.elements(), key=lambda t: t.index)
    assert len(bone) + sum(len(h) for h in hand_tiles) == 28 * sets
    return hand_tiles, bone


def cells_of(action: str) -> set[str]:
    """``"3-6@8G8H"`` -> ``{"8G", "8H"}``."""
    a = parse_action(action)
    assert isinstance(a, Place)
    return {BOARD.cell_name(r * BOARD.cols + c) for r, c in (a.cell1, a.cell2)}


def scored(events: Sequence[Any]) -> list[tuple[int, int, str, int]]:
    """The Scored events as (seat, points, kind, position)."""
    return [(e.seat, e.points, e.kind, e.position) for e in events if isinstance(e, Scored)]


# A legal opening shared by several scenarios: [3|6] with 8G=3, 8H=6.
STAR = "3-6@8G8H"

# Scenario 13's layout (legal play): [1|2] on the star (8G=1, 8H=2); [3|1] with 8E=3, 8F=1
# (touching 8G); [0|3] with 7D=0, 8D=3 (touching 8E). A 0 now shows on 7D, next to 6D.
# Then [0|0] on 5D/6D touches only 7D (0): legal, and 6D is diamond 2.
LAYOUT_13 = ["1-2@8G8H", ("3-1@8E8F", 1), "0-3@7D8D"]


# --------------------------------------------------------------------------- 5.3.1


@pytest.mark.parametrize("seed", [0, 7, 2024])
def test_5_3_01_setup_two_players(seed: int) -> None:
    s = GAME.new(2, seed=seed)
    assert sets_in_play(s.options, 2) == 2
    first = s.first_player
    assert s.actor == first
    # 3 tiles each, boneyard 50; the first player's automatic draw (docs/rules.md, "Double
    # Double Dominoes") has been made.
    assert [s.hand_size(p) for p in range(2)] == [4 if p == first else 3 for p in range(2)]
    assert s.boneyard_size == 50 - 1
    everything = [t for p in range(2) for t in s.hand(p)] + list(s.boneyard)
    assert Counter(everything) == Counter(tile_multiset(6, 2))  # 56 tiles, each twice
    assert s.positions == (0, 0)
    assert s.scores == (0, 0)
    assert s.pit_tiles == ()
    assert s.chain is None
    assert not s.is_over


@pytest.mark.parametrize("seed", [1, 99])
def test_5_3_01_setup_six_players_three_sets(seed: int) -> None:
    s = GAME.new(6, seed=seed)
    assert sets_in_play(s.options, 6) == 3
    first = s.first_player
    assert [s.hand_size(p) for p in range(6)] == [4 if p == first else 3 for p in range(6)]
    assert s.boneyard_size == 66 - 1
    everything = [t for p in range(6) for t in s.hand(p)] + list(s.boneyard)
    assert len(everything) == 84
    assert Counter(everything) == Counter(tile_multiset(6, 3))
    assert s.positions == (0,) * 6


# --------------------------------------------------------------------------- 5.3.2


def test_5_3_02_first_player_lowest_tile() -> None:
    # P0's lowest is [1|2] (3 pips), P1's is [0|1] (1 pip): P1 starts and makes the first draw.
    s = GAME.new(2, deal=deal([["2-1", "6-6", "5-4"], ["1-0", "6-5", "4-4"]]))
    assert s.first_player == 1
    assert s.actor == 1
    assert s.hand_size(1) == 4
    assert s.hand_size(0) == 3


def test_5_3_02_first_player_tie_seat_order() -> None:
    # Both lowest tiles are [0|0]: seat_order (the default) gives P0.
    s = GAME.new(2, deal=deal([["0-0", "6-6", "6-5"], ["0-0", "1-0", "1-1"]]))
    assert s.first_player == 0
    assert s.actor == 0


def test_option_first_player_tiebreak_next_lowest_tile() -> None:
    # Same tie: next lowest tiles are 11 (P0) and 1 (P1) pips, so P1 starts.
    hands = [["0-0", "6-6", "6-5"], ["0-0", "1-0", "1-1"]]
    s = GAME.new(2, deal=deal(hands), options={"first_player_tiebreak": "next_lowest_tile"})
    assert s.first_player == 1
    assert s.actor == 1


def test_option_first_player_tiebreak_next_lowest_tile_third_tile() -> None:
    # Pip totals sorted: P0 [0, 1, 12], P1 [0, 1, 3]: tied on two tiles, P1 lower on the third.
    hands = [["0-0", "1-0", "6-6"], ["0-0", "1-0", "2-1"]]
    s = GAME.new(2, deal=deal(hands), options={"first_player_tiebreak": "next_lowest_tile"})
    assert s.first_player == 1


def test_option_first_player_tiebreak_next_lowest_tile_full_tie_seat_order() -> None:
    # P0's lowest is 1 pip; P1 and P2 hold the same three tiles (two copies): a full tie among
    # P1 and P2 goes to seat order, so P1.
    hands = [["1-0", "6-6", "6-5"], ["0-0", "2-0", "3-3"], ["0-0", "2-0", "3-3"]]
    s = GAME.new(3, deal=deal(hands), options={"first_player_tiebreak": "next_lowest_tile"})
    assert s.first_player == 1


@pytest.mark.parametrize(
    ("players", "hands", "first"),
    [
        (2, [["0-0", "6-6", "6-5"], ["0-0", "1-0", "1-1"]], 0),
        (3, [["1-0", "6-6", "6-5"], ["0-0", "6-4", "5-5"], ["0-0", "1-1", "2-0"]], 1),
    ],
)
def test_option_first_player_tiebreak_random_explicit_deal_lowest_tied_seat(
    players: int, hands: list[list[str]], first: int
) -> None:
    # docs/rules.md, "Double Double Dominoes": with an explicit deal, `random` gives the lowest
    # tied seat.
    s = GAME.new(players, deal=deal(hands), options={"first_player_tiebreak": "random"})
    assert s.first_player == first
    assert s.actor == first


# --------------------------------------------------------------------------- 5.3.3


def first_tile_position() -> DoubleDoubleState:
    return position(2, [["3-6", "2-1", "4-4"], ["5-5", "5-4", "6-6"]])


def test_5_3_03_first_tile_covering_the_star_is_legal_and_scores_0() -> None:
    s = first_tile_position()
    s2, events = step(s, "3-6@8G8H")
    assert s2.pip_at("8G") == 3
    assert s2.pip_at("8H") == 6
    assert s2.positions == (0, 0)
    assert scored(events) == []
    assert events[0] == PlacedOnBoard(0, parse_tile("6-3"), 3, 6, (7, 6), (7, 7), False)


def test_5_3_03_cells_in_either_order_are_the_same_action() -> None:
    # docs/records.md, "Notation": "6-3@8H8G" is "3-6@8G8H"; formatters write reading order.
    assert parse_action("6-3@8H8G") == parse_action("3-6@8G8H")
    assert str(parse_action("6-3@8H8G")) == "3-6@8G8H"
    s = first_tile_position().apply(parse_action("6-3@8H8G"))
    assert isinstance(s, DoubleDoubleState)
    assert (s.pip_at("8G"), s.pip_at("8H")) == (3, 6)


def test_5_3_03_first_tile_off_the_star_is_illegal() -> None:
    # [1|2] at 7G=1, 7F=2: written in reading order, 7F first.
    assert_illegal(first_tile_position(), "2-1@7F7G")


def test_5_3_03_first_tile_vertical_on_the_star_is_legal() -> None:
    s = act(first_tile_position(), "2-1@7H8H")
    assert s.pip_at("7H") == 2
    assert s.pip_at("8H") == 1
    assert s.positions == (0, 0)


def test_5_3_03_first_tile_every_legal_action_covers_the_star() -> None:
    # The first tile: any tile in hand, either way round, on 8H and one of its 4 neighbours.
    s = first_tile_position()
    want = set()
    for text in ("3-6", "2-1", "4-4"):
        t = parse_tile(text)
        for p, q in {(t.hi, t.lo), (t.lo, t.hi)}:  # p on 8H, q on the neighbour
            want |= {f"{q}-{p}@7H8H", f"{q}-{p}@8G8H", f"{p}-{q}@8H8I", f"{p}-{q}@8H9H"}
    assert legal(s) == want
    assert all("8H" in cells_of(a) for a in legal(s))


# --------------------------------------------------------------------------- 5.3.4


def tail_position() -> DoubleDoubleState:
    return position(2, [["4-3", "5-4", "6-2"], ["1-1", "1-1", "0-0"]], placed=[STAR])


def test_5_3_04_tail_match() -> None:
    s = tail_position()
    assert "4-3@8E8F" in legal(s)  # the 3 on 8F touches the 3 on 8G
    s2 = act(s, "4-3@8E8F")
    assert (s2.pip_at("8E"), s2.pip_at("8F")) == (4, 3)


def test_5_3_04_tail_mismatch_is_illegal() -> None:
    assert_illegal(tail_position(), "4-5@8E8F")  # 5 on 8F against the 3 on 8G


def test_5_3_04_vertical_tail_off_the_six() -> None:
    s = tail_position()
    s2 = act(s, "2-6@6H7H")  # 7H=6 touches 8H=6, 6H=2 free
    assert (s2.pip_at("6H"), s2.pip_at("7H")) == (2, 6)


# --------------------------------------------------------------------------- 5.3.5


def test_5_3_05_no_contact_is_illegal() -> None:
    s = position(2, [["1-1", "6-1", "2-2"], ["5-5", "4-4", "0-0"]], placed=[STAR])
    assert_illegal(s, "1-1@4D4E")
    assert all(not cells_of(a) & {"4D", "4E"} for a in legal(s))


# --------------------------------------------------------------------------- 5.3.6


@pytest.mark.parametrize("forbid_2x2", [True, False])
def test_5_3_06_side_by_side_is_illegal(forbid_2x2: bool) -> None:
    # Both ends match (7G=3 over 8G=3, 7H=6 over 8H=6) but touch the same domino: illegal by
    # rule 2.3 even when the 2x2 rule is off.
    s = position(
        2,
        [["3-6", "1-1", "2-2"], ["5-5", "4-4", "0-0"]],
        placed=[STAR],
        options={"forbid_2x2": forbid_2x2},
    )
    assert_illegal(s, "3-6@7G7H")
    assert "6-3@8E8F" in legal(s)  # the same tile is playable elsewhere


# --------------------------------------------------------------------------- 5.3.7


def test_5_3_07_end_touching_two_squares_is_illegal() -> None:
    # Built by legal play: [3|6] 8G=3 8H=6; [6|2] 7H=6 6H=2; [2|4] 6I=2 6J=4; [4|1] 7J=4 8J=1.
    s = position(2, [["3-6", "2-4", "6-1"], ["6-2", "4-1", "1-1"]])
    s = play(s, "3-6@8G8H", "2-6@6H7H", "2-4@6I6J", "4-1@7J8J")
    pips = {c: s.pip_at(c) for c in ("8G", "8H", "7H", "6H", "6I", "6J", "7J", "8J")}
    assert pips == {"8G": 3, "8H": 6, "7H": 6, "6H": 2, "6I": 2, "6J": 4, "7J": 4, "8J": 1}
    assert s.actor == 0 and parse_tile("6-1") in s.hand(0)
    # 8I touches 8H (6) and 8J (1): no tile may cover it. 8I/9I completes no 2x2.
    for a in ("6-1@8I9I", "1-6@8I9I"):
        assert_illegal(s, a)
    assert all("8I" not in cells_of(a) for a in legal(s) if "@" in a)


def test_5_3_07_end_touching_two_squares_fixture() -> None:
    # The same layout as a fixture, with doubles of both values in hand.
    s = position(
        2,
        [["6-1", "6-6", "1-1"], ["5-5", "4-4", "0-0"]],
        placed=[STAR, ("2-6@6H7H", 1), "2-4@6I6J", ("4-1@7J8J", 1)],
    )
    for a in ("6-1@8I9I", "1-6@8I9I", "6-6@8I9I", "1-1@8I9I", "6-1@7I8I", "1-6@8I8J"):
        assert_illegal(s, a)
    assert all("8I" not in cells_of(a) for a in legal(s))
    assert legal(s)  # other placements exist (e.g. off 8J's 1)


# --------------------------------------------------------------------------- 5.3.8

BRIDGE_LAYOUT = [STAR, ("2-3@10G9G", 1), "6-2@8I9I"]  # 9G=3, 10G=2; 8I=6, 9I=2


def bridge_position(**options: Any) -> DoubleDoubleState:
    return position(
        2, [["2-2", "2-5", "0-0"], ["5-5", "4-4", "1-1"]], placed=BRIDGE_LAYOUT, options=options
    )


def test_5_3_08_legal_bridge() -> None:
    s = bridge_position()
    assert s.pip_at("9G") == 3 and s.pip_at("10G") == 2 and s.pip_at("9I") == 2
    s2 = act(s, "2-2@10H10I")  # 10H touches 10G (2), 10I touches 9I (2)
    assert (s2.pip_at("10H"), s2.pip_at("10I")) == (2, 2)


def test_5_3_08_bridge_head_mismatch_is_illegal() -> None:
    assert_illegal(bridge_position(), "2-5@10H10I")  # the head's 5 against 9I's 2


def test_5_3_08_tail_only_next_to_bridge_spot_is_legal() -> None:
    s2 = act(bridge_position(), "2-5@10H11H")
    assert (s2.pip_at("10H"), s2.pip_at("11H")) == (2, 5)


def test_option_allow_bridge_false_forbids_bridges_only() -> None:
    s = bridge_position(allow_bridge=False)
    assert_illegal(s, "2-2@10H10I")
    assert "2-5@10H11H" in legal(s)
    assert "2-2@10H11H" in legal(s)


# --------------------------------------------------------------------------- 5.3.9


def square_position(**options: Any) -> DoubleDoubleState:
    return position(
        2,
        [["6-6", "1-1", "0-0"], ["5-5", "4-4", "2-2"]],
        placed=[STAR, ("6-1@8I8J", 1)],
        options=options,
    )


def test_5_3_09_bridge_filling_2x2_is_illegal_by_default() -> None:
    assert_illegal(square_position(), "6-6@7H7I")


def test_5_3_09_bridge_filling_2x2_legal_without_forbid_2x2() -> None:
    s = square_position(forbid_2x2=False)
    s2 = act(s, "6-6@7H7I")
    assert (s2.pip_at("7H"), s2.pip_at("7I")) == (6, 6)


# --------------------------------------------------------------------------- 5.3.10

# LAYOUT_13 plus [0|0] on 5D/6D and [2|0] on 4C=2/4D=0: a 2 shows on 4C, next to 4B.
LAYOUT_10 = [*LAYOUT_13, ("0-0@5D6D", 1), ("2-0@4C4D", 1)]


def test_5_3_10_diamond_3() -> None:
    # [2|0] with 4D=0 (diamond 3) touching 5D's 0; 4E=2 is plain. Nobody is on a pip space.
    s = position(
        2, [["2-0", "5-5", "6-6"], ["4-4", "3-3", "1-1"]], placed=[*LAYOUT_13, ("0-0@5D6D", 1)]
    )
    s2, events = step(s, "0-2@4D4E")
    assert s2.positions == (3, 0)
    assert scored(events) == [(0, 3, "diamond", 3)]


def test_5_3_10_double_on_diamond_4() -> None:
    # [2|2] on 4A (diamond 4) / 4B, 4B touching 4C's 2: 4 x 2 = 8.
    s = position(2, [["2-2", "5-5", "6-6"], ["4-4", "3-3", "1-1"]], placed=LAYOUT_10)
    s2, events = step(s, "2-2@4A4B")
    assert s2.positions == (8, 0)
    assert scored(events) == [(0, 8, "diamond", 8)]


def test_5_3_10_no_diamond() -> None:
    # [2|5] on 4B=2 / 5B=5: neither square is a diamond.
    s = position(2, [["5-2", "5-5", "6-6"], ["4-4", "3-3", "1-1"]], placed=LAYOUT_10)
    s2, events = step(s, "2-5@4B5B")
    assert s2.positions == (0, 0)
    assert scored(events) == []


def test_option_double_multiplier() -> None:
    # The same [2|2] on diamond 4: 4 x multiplier.
    for mult, want in ((1, 4), (2, 8), (3, 12), (0, 0)):
        s = position(
            2,
            [["2-2", "5-5", "6-6"], ["4-4", "3-3", "1-1"]],
            placed=LAYOUT_10,
            options={"double_multiplier": mult},
        )
        assert act(s, "2-2@4A4B").positions == (want, 0), mult


# --------------------------------------------------------------------------- 5.3.11

# [3|6] on the star and [4|3] with 8E=4, 8F=3: a 4 shows on 8E, a 6 on 8H.
LAYOUT_11 = [STAR, ("4-3@8E8F", 1)]


def bonus_position(hand: list[str], **options: Any) -> DoubleDoubleState:
    # P0 at 20 (pips 6), P1 at 4 (pips 4).
    return position(
        2,
        [hand, ["5-5", "3-3", "1-1"]],
        placed=LAYOUT_11,
        positions=[20, 4],
        options=options,
    )


def test_5_3_11_double_gives_other_player_bonus_once() -> None:
    assert BOARD.track_pips(20) == 6 and BOARD.track_pips(4) == 4
    s = bonus_position(["4-4", "5-0", "2-1"])
    s2, events = step(s, "4-4@8C8D")  # 8D touches 8E (4); no diamond on 8C/8D
    assert s2.positions == (20, 7)  # P1 +3, not +6; P0 +0
    assert scored(events) == [(1, 3, "bonus", 7)]


def test_5_3_11_both_players_bonus() -> None:
    s = bonus_position(["6-4", "5-0", "2-1"])
    s2, events = step(s, "6-4@8C8D")
    assert s2.positions == (23, 7)
    assert sorted(scored(events)) == [(0, 3, "bonus", 23), (1, 3, "bonus", 7)]


def test_5_3_11_bonus_not_doubled_for_a_double_on_a_diamond() -> None:
    # [6|6] on 7J/7K off a 6 on 8J: 7K is diamond 1 -> 1 x 2 = 2 diamond points; the bonus for
    # P0 (pips 6) stays 3. P1 (pips 4) gets nothing.
    s = position(
        2,
        [["6-6", "5-0", "2-1"], ["5-5", "3-3", "1-1"]],
        placed=[STAR, ("6-6@8I8J", 1)],
        positions=[20, 4],
    )
    s2, events = step(s, "6-6@7J7K")
    assert s2.positions == (25, 4)
    assert sorted(scored(events)) == [(0, 2, "diamond", 22), (0, 3, "bonus", 25)]


def test_option_track_bonus() -> None:
    # [6|4] with track_bonus 5: both players +5; with 0: nobody scores.
    assert act(bonus_position(["6-4", "5-0", "2-1"], track_bonus=5), "6-4@8C8D").positions == (
        25,
        9,
    )
    assert act(bonus_position(["6-4", "5-0", "2-1"], track_bonus=0), "6-4@8C8D").positions == (
        20,
        4,
    )


def test_5_3_11_no_bonus_from_the_start_spot() -> None:
    # Position 0 has no pips: a piece there never earns the bonus, whatever the tile.
    for hand, action in ((["0-4", "5-5", "2-1"], "0-4@8C8D"), (["6-4", "5-5", "2-1"], "6-4@8C8D")):
        s = position(2, [hand, ["5-5", "3-3", "1-1"]], placed=LAYOUT_11, positions=[0, 0])
        assert act(s, action).positions == (0, 0)


# --------------------------------------------------------------------------- 5.3.12


def timing_position(**options: Any) -> DoubleDoubleState:
    # Both at 27 (pips 3). A 4 shows on 1C, next to 1B (a fixture away from the star).
    return position(
        2,
        [["3-4", "5-5", "6-6"], ["2-2", "1-1", "0-0"]],
        placed=[STAR, ("4-1@1C2C", 1)],
        positions=[27, 27],
        options=options,
    )


def test_5_3_12_bonus_timing_positions_before_tile() -> None:
    assert BOARD.diamonds[BOARD.cell("1A")] == 5
    assert BOARD.track_pips(27) == 3 and BOARD.track_pips(32) == 5
    s2, events = step(timing_position(), "3-4@1A1B")
    # P0: 5 + 3; P1: +3. P0 lands on 35, which shows 4 (a pip of the tile), but landing never
    # triggers anything more for the same tile.
    assert BOARD.track_pips(35) == 4
    assert s2.positions == (35, 30)
    assert sorted(scored(events)) == [
        (0, 3, "bonus", 35),
        (0, 5, "diamond", 32),
        (1, 3, "bonus", 30),
    ]


def test_option_bonus_timing_after_mover_diamond_move() -> None:
    # P0 is checked at 27 + 5 = 32, which shows 5: no bonus. P1 is still checked at 27.
    s2 = act(timing_position(bonus_timing="after_mover_diamond_move"), "3-4@1A1B")
    assert s2.positions == (32, 30)


# --------------------------------------------------------------------------- 5.3.13


def test_5_3_13_double_chain_with_re_evaluation() -> None:
    s = position(
        2,
        [["5-5", "6-6", "4-4"], ["0-0", "2-0", "6-5"]],
        placed=LAYOUT_13,
        actor=1,
    )
    s, events = step(s, "0-0@5D6D")
    assert events[0] == PlacedOnBoard(1, parse_tile("0-0"), 0, 0, (4, 3), (5, 3), False)
    assert scored(events) == [(1, 4, "diamond", 4)]  # diamond 2 on 6D, doubled
    assert s.positions == (0, 4)
    assert s.actor == 1
    assert s.chain is not None and set(s.chain) == {(4, 3), (5, 3)}
    # P1 is now on 4 (pips 4): [2|0] gives no bonus; 4D is diamond 3.
    s, events = step(s, "2-0@4C4D")
    assert events[0] == PlacedOnBoard(1, parse_tile("2-0"), 2, 0, (3, 2), (3, 3), True)
    assert scored(events) == [(1, 3, "diamond", 7)]
    assert s.positions == (0, 7)


def test_5_3_13_second_tile_bonus_uses_position_after_double() -> None:
    # Contrast: P1 starts on 3 (pips 3). After the double P1 is on 7, which shows 0: the chained
    # [2|0] now earns the bonus (checked at 7, not at 3): 3 + 4 + 3 + 3 = 13.
    assert BOARD.track_pips(3) == 3 and BOARD.track_pips(7) == 0
    s = position(
        2,
        [["5-5", "6-6", "4-4"], ["0-0", "2-0", "6-5"]],
        placed=LAYOUT_13,
        positions=[1, 3],
        actor=1,
    )
    s = play(s, "0-0@5D6D")
    assert s.positions == (1, 7)
    s = play(s, "2-0@4C4D")
    assert s.positions == (1, 13)


# --------------------------------------------------------------------------- 5.3.14


def chain_position(hand: list[str], **options: Any) -> DoubleDoubleState:
    return position(
        2,
        [hand, ["5-5", "6-6", "4-4"]],
        placed=LAYOUT_13,
        options=options,
    )


def test_5_3_14_follow_up_must_touch_the_last_double() -> None:
    # [2|5] with 8I=2 off the star's 2 is legal before the double, not as a chain move.
    s = chain_position(["0-0", "2-0", "5-2"])
    assert "2-5@8I8J" in legal(s)
    s = act(s, "0-0@5D6D")
    assert s.actor == 0 and s.chain is not None
    assert_illegal(s, "2-5@8I8J")
    assert "2-0@4C4D" in legal(s)
    assert "stop" in legal(s)
    # Every follow-up touches 5D or 6D.
    near = {"4D", "5C", "5E", "6C", "6E", "7D"}
    for a in legal(s) - {"stop"}:
        assert cells_of(a) & near, a


def test_5_3_14_chain_over_after_non_double() -> None:
    s = chain_position(["0-0", "2-0", "0-5"])
    s = act(s, "0-0@5D6D")
    s, events = step(s, "2-0@4C4D")
    assert s.chain is None
    assert s.actor == 1  # the turn passed
    assert s.hand_size(0) == 3  # refilled from 1 to 3
    refill = [e for e in events if isinstance(e, Drew) and e.seat == 0]
    assert [(e.count, e.cause) for e in refill] == [(2, "refill")]


def test_5_3_14_player_may_stop_after_double() -> None:
    s = chain_position(["0-0", "2-0", "5-5"])
    s = act(s, "0-0@5D6D")
    assert "stop" in legal(s)
    s, events = step(s, "stop")
    assert ChainStopped(0) in events
    assert s.chain is None
    assert s.actor == 1
    assert s.hand_size(0) == 3
    assert s.pip_at("4D") is None


def test_5_3_14_double_follow_up_allows_one_more() -> None:
    # [0|0] on 5D/6D, then the other [0|0] on 6B/6C (6C touches 6D), then [2|0] with 5B=0
    # touching 6B: the chain continues off the newest double only.
    s = chain_position(["0-0", "0-0", "2-0", "6-5"])
    s = act(s, "0-0@5D6D")
    s = act(s, "0-0@6B6C")
    assert s.actor == 0
    assert s.chain is not None and set(s.chain) == {(5, 1), (5, 2)}
    assert "stop" in legal(s)
    assert_illegal(s, "2-0@4C4D")  # touches the first double only
    s = act(s, "2-0@4B5B")
    assert s.chain is None
    assert s.actor == 1


def test_5_3_14_chain_with_no_follow_up_ends_by_itself() -> None:
    # [0|0] on 5D/6D with nothing else holding a 0: the turn ends at once.
    s = chain_position(["0-0", "5-5", "6-6"])
    s, events = step(s, "0-0@5D6D")
    assert s.chain is None
    assert s.actor == 1
    assert s.hand_size(0) == 3
    assert not any(isinstance(e, ChainStopped) for e in events)


def test_option_chain_contact_tail_on_last_double() -> None:
    # A fixture tile [5|1] with 4F=5 sits beside 4E. After [0|0] on 5D/6D, [0|5] with 4D=0
    # (touching 5D) and 4E=5 (touching 4F) bridges the double and another domino.
    layout = [*LAYOUT_13, ("5-1@4F4G", 1)]
    for rule, allowed in (("any_contact_with_last_double", True), ("tail_on_last_double", False)):
        s = position(
            2,
            [["0-0", "5-0", "6-6"], ["4-4", "3-3", "1-1"]],
            placed=layout,
            options={"chain_contact": rule},
        )
        s = act(s, "0-0@5D6D")
        assert s.chain is not None
        assert ("0-5@4D4E" in legal(s)) is allowed, rule
        assert "5-0@3D4D" in legal(s)  # touches only the double: fine either way


# --------------------------------------------------------------------------- 5.3.15


def test_5_3_15_forced_play_no_discard() -> None:
    s = position(2, [["6-1", "2-2", "1-1", "5-5"], ["4-4", "3-3", "0-0"]], placed=[STAR])
    actions = legal(s)
    assert actions
    assert not any(a.startswith("discard") for a in actions)
    assert_illegal(s, "discard 2-2")


def test_5_3_15_no_legal_tile_one_discard_no_refill() -> None:
    # No 3 or 6 in hand: nothing fits. One discard per distinct tile (1-1 is held twice).
    hand = ["1-1", "1-1", "2-2", "4-5"]
    s = position(2, [hand, ["4-4", "3-3", "0-0"]], placed=[STAR])
    assert legal(s) == {"discard 1-1", "discard 2-2", "discard 5-4"}
    assert all(isinstance(a, Discard) for a in s.legal_actions())
    for choice, left in (("2-2", ["1-1", "1-1", "5-4"]), ("1-1", ["1-1", "2-2", "5-4"])):
        s2, events = step(s, f"discard {choice}")
        assert Discarded(0, parse_tile(choice)) in events
        assert s2.hand(0) == tuple(sorted(tiles(*left), key=lambda t: t.index))
        assert s2.hand_size(0) == 3
        assert s2.pit_tiles == (parse_tile(choice),)
        assert not [e for e in events if isinstance(e, Drew) and e.seat == 0]  # no refill
        assert s2.boneyard_size == s.boneyard_size - 1  # only P1's turn draw
        assert s2.actor == 1
        assert s2.hand_size(1) == 4
    assert_illegal(s, "discard 3-3")  # not held


# --------------------------------------------------------------------------- 5.3.16


def last_draw_position(positions: list[int], **options: Any) -> DoubleDoubleState:
    # P0 holds 4 tiles and chains [0|0] (5D/6D, +4) and [2|0] (4C/4D, +3); the boneyard is 1 tile.
    return position(
        2,
        [["0-0", "2-0", "6-6", "5-5"], ["1-0", "1-1", "2-1"]],
        placed=LAYOUT_13,
        positions=positions,
        boneyard=["3-3"],
        options=options,
    )


def test_5_3_16_refill_draws_last_tile_and_game_ends() -> None:
    # P0: 0 -> 4 -> 7; P1 on 10 (pips 3) gets nothing: P1 has the highest score.
    s = play(last_draw_position([0, 10]), "0-0@5D6D")
    assert s.hand_size(0) == 3
    s, events = step(s, "2-0@4C4D")
    assert s.hand_size(0) == 3  # 4 -> 2 -> drew the last tile
    assert parse_tile("3-3") in s.hand(0)
    assert s.boneyard_size == 0
    assert s.is_over
    assert s.actor is None
    assert s.legal_actions() == ()
    assert s.positions == (7, 10)
    assert s.result is not None
    assert (s.result.reason, s.result.winners, s.result.points) == ("last_draw", (1,), (0, 0))
    assert events[-1] == HandEnded(s.result)


@pytest.mark.parametrize(("rule", "winner"), [("most", 0), ("fewest", 1)])
def test_5_3_16_tie_on_score_by_hand_pips(rule: str, winner: int) -> None:
    # P0 from 5 (pips 5) -> 9 (pips 5) -> 12; P1 stays on 12 (pips 6). Tied at 12. Hands:
    # P0 6-6, 5-5, 3-3 = 28 pips; P1 1-0, 1-1, 2-1 = 6 pips.
    s = last_draw_position([5, 12], tiebreak_hand_pips=rule)
    s = play(s, "0-0@5D6D", "2-0@4C4D")
    assert s.positions == (12, 12)
    assert (s.hand_pips(0), s.hand_pips(1)) == (28, 6)
    assert s.result is not None
    assert (s.result.reason, s.result.winners) == ("last_draw", (winner,))


def test_5_3_16_highest_score_beats_hand_pips() -> None:
    # P0 from 5 -> 12; P1 on 11 (pips 4) gets nothing. P0 wins on score, although P1 holds
    # fewer pips (6 vs 28) and the rule is `fewest`: the tie-break only settles a tie.
    s = play(last_draw_position([5, 11], tiebreak_hand_pips="fewest"), "0-0@5D6D", "2-0@4C4D")
    assert s.positions == (12, 11)
    assert s.result is not None and s.result.winners == (0,)


def test_5_3_16_last_tile_in_the_opening_draw_ends_after_that_turn() -> None:
    # Boneyard of 2: P0's refill takes one, P1's opening draw takes the last; P1 still plays
    # its turn, then the game ends (docs/games/double_double.md, "How the game ends": "whether
    # at the start of the turn or in the refill").
    s = position(
        2,
        [["4-3", "5-5", "6-6"], ["6-2", "1-1", "0-0"]],
        placed=[STAR],
        boneyard=["2-2", "1-0"],
    )
    s = act(s, "4-3@8E8F")
    assert not s.is_over
    assert s.actor == 1 and s.hand_size(1) == 4 and s.boneyard_size == 0
    s = act(s, "2-6@6H7H")
    assert s.is_over
    assert s.result is not None and s.result.reason == "last_draw"
    assert s.hand_size(1) == 3  # nothing left to refill with


def test_5_3_16_last_draw_tie_shared() -> None:
    # Tied on score and on hand pips -> a shared win.
    s = position(
        2,
        [["4-3", "5-5", "6-6"], ["6-6", "5-5", "2-1"]],
        placed=[STAR],
        boneyard=["2-1"],
    )
    s = act(s, "4-3@8E8F")  # P0 draws the last tile: 5-5, 6-6, 2-1 = 25 pips; P1 25 pips
    assert s.positions == (0, 0)
    assert s.result is not None and (s.result.reason, s.result.winners) == ("last_draw", (0, 1))


def test_5_3_16_refill_stops_when_the_boneyard_runs_out() -> None:
    # P0 holds 3, chains [0|0] and [2|0] (1 left) and the boneyard holds 1: the hand ends at 2.
    s = position(
        2,
        [["0-0", "2-0", "6-6"], ["1-0", "1-1", "2-1"]],
        placed=LAYOUT_13,
        boneyard=["3-3"],
    )
    s = play(s, "0-0@5D6D", "2-0@4C4D")
    assert s.hand(0) == tuple(tiles("3-3", "6-6"))
    assert s.result is not None and s.result.reason == "last_draw"


# --------------------------------------------------------------------------- 5.3.17


def victory_position(hand: list[str], **options: Any) -> DoubleDoubleState:
    # 3 players (target 75): P0 on 20 (pips 6), P1 on 30 (pips 0), P2 on 73 (pips 4).
    return position(
        3,
        [hand, ["5-5", "3-3", "2-2"], ["6-5", "3-2", "2-0"]],
        placed=LAYOUT_11,
        positions=[20, 30, 73],
        options=options,
    )


def test_5_3_17_victory_from_another_players_bonus() -> None:
    assert [BOARD.track_pips(p) for p in (20, 30, 73)] == [6, 0, 4]
    s = victory_position(["1-4", "5-0", "6-6"])
    s, events = step(s, "1-4@8C8D")  # 8D=4 touches 8E=4; no diamond
    assert s.positions == (20, 30, 76)
    assert s.is_over
    assert s.result is not None
    assert (s.result.reason, s.result.winners, s.result.points) == (
        "victory_total",
        (2,),
        (0, 0, 0),
    )
    assert events[-1] == HandEnded(s.result)
    assert not any(isinstance(e, Drew) for e in events)  # ends at once, no refill or next turn


def test_5_3_17_victory_on_a_double_no_chain() -> None:
    # [4|4] on 8C/8D: P2 reaches 76. A chain follow-up ([4|2] with 8B=4 off 8C) would exist,
    # but the game is over.
    s = victory_position(["4-4", "4-2", "6-6"])
    s = act(s, "4-4@8C8D")
    assert s.positions == (20, 30, 76)
    assert s.is_over
    assert s.legal_actions() == ()
    assert s.chain is None
    assert s.actor is None
    assert s.result is not None and s.result.winners == (2,)
    with pytest.raises(IllegalActionError):
        s.apply(parse_action("2-4@8A8B"))
    with pytest.raises(IllegalActionError):
        s.apply(parse_action("stop"))


def test_option_simultaneous_victory_mover_wins_when_mover_not_reaching() -> None:
    # docs/games/double_double.md, "Options": mover_wins with the mover not among those
    # reaching the total = the default.
    s = act(victory_position(["1-4", "5-0", "6-6"], simultaneous_victory="mover_wins"), "1-4@8C8D")
    assert s.result is not None and s.result.winners == (2,)


def test_5_3_17_victory_in_the_middle_of_a_chain() -> None:
    # docs/games/double_double.md, "How the game ends": "at once, even in the middle of a turn
    # or a chain". P1 on 93 (pips 6) plays [0|0] (+4 -> 97, pips 6) then chains [2|0]
    # (+3 -> 100): the game ends before any refill.
    assert BOARD.track_pips(93) == 6 and BOARD.track_pips(97) == 6
    s = position(
        2,
        [["5-5", "6-6", "4-4"], ["0-0", "2-0", "6-5"]],
        placed=LAYOUT_13,
        positions=[0, 93],
        actor=1,
    )
    s = act(s, "0-0@5D6D")
    assert not s.is_over and s.positions == (0, 97)
    s, events = step(s, "2-0@4C4D")
    assert s.positions == (0, 100)
    assert s.result is not None
    assert (s.result.reason, s.result.winners) == ("victory_total", (1,))
    assert s.hand_size(1) == 1
    assert not any(isinstance(e, Drew) for e in events)


# --------------------------------------------------------------------------- 5.3.18

# [3|6] on the star, [4|3] 8E=4 8F=3, [6|4] 8C=6 8D=4: a 6 shows on 8C, beside 8B; 8A is
# diamond 3. [6|6] on 8A/8B scores 3 x 2 = 6.
LAYOUT_18 = [*LAYOUT_11, "6-4@8C8D"]


def simultaneous_position(
    p0_hand: list[str], p1_hand: list[str], **options: Any
) -> DoubleDoubleState:
    # P0 on 95 (pips 4), P1 on 98 (pips 6).
    return position(2, [p0_hand, p1_hand], placed=LAYOUT_18, positions=[95, 98], options=options)


def test_5_3_18_simultaneous_victory_tie_by_hand_pips() -> None:
    assert BOARD.track_pips(95) == 4 and BOARD.track_pips(98) == 6
    assert BOARD.diamonds[BOARD.cell("8A")] == 3
    # After [6|6] P0 holds 5-5, 5-4 (19 pips); P1 holds 1-0, 1-1, 2-0 (5 pips): most -> P0.
    s = simultaneous_position(["6-6", "5-5", "5-4"], ["1-0", "1-1", "2-0"])
    s, events = step(s, "6-6@8A8B")
    assert s.positions == (101, 101)
    assert sorted(scored(events)) == [(0, 6, "diamond", 101), (1, 3, "bonus", 101)]
    assert s.result is not None
    assert (s.result.reason, s.result.winners) == ("victory_total", (0,))


def test_5_3_18_simultaneous_victory_other_player_more_pips() -> None:
    # P0 keeps 1-0, 0-0 (1 pip); P1 holds 6-5, 5-5, 4-4 (29 pips): most -> P1.
    s = act(simultaneous_position(["6-6", "1-0", "0-0"], ["6-5", "5-5", "4-4"]), "6-6@8A8B")
    assert s.positions == (101, 101)
    assert s.result is not None and s.result.winners == (1,)


def test_5_3_18_simultaneous_victory_full_tie_shared() -> None:
    # P0 keeps 5-5, 4-0 (14); P1 holds 5-4, 3-2 (14): a shared win.
    s = act(simultaneous_position(["6-6", "5-5", "4-0"], ["5-4", "3-2"]), "6-6@8A8B")
    assert s.result is not None and s.result.winners == (0, 1)


def test_option_tiebreak_hand_pips_fewest_in_simultaneous_victory() -> None:
    s = simultaneous_position(
        ["6-6", "5-5", "5-4"], ["1-0", "1-1", "2-0"], tiebreak_hand_pips="fewest"
    )
    s = act(s, "6-6@8A8B")
    assert s.result is not None and s.result.winners == (1,)


def test_option_simultaneous_victory_mover_wins() -> None:
    # P1 would win the hand-pips tie-break (29 vs 1), but the mover reached the total.
    s = simultaneous_position(
        ["6-6", "1-0", "0-0"], ["6-5", "5-5", "4-4"], simultaneous_victory="mover_wins"
    )
    s = act(s, "6-6@8A8B")
    assert s.result is not None and s.result.winners == (0,)


def test_5_3_18_higher_score_wins_simultaneous_victory() -> None:
    # P1 on 98 and P0 on 97 (pips 6): P0 gets 6 + 3 = 106, P1 101 -> P0 wins on score even
    # though P1 holds more pips.
    assert BOARD.track_pips(97) == 6
    s = position(
        2, [["6-6", "1-0", "0-0"], ["6-5", "5-5", "4-4"]], placed=LAYOUT_18, positions=[97, 98]
    )
    s = act(s, "6-6@8A8B")
    assert s.positions == (106, 101)
    assert s.result is not None and s.result.winners == (0,)


# --------------------------------------------------------------------------- 5.3.19

# The shipped tiny board:   1.2 / .*. / 3.4   (star on 2B; diamonds 1A=1, 1C=2, 3A=3, 3C=4).
# After [1|2] on 2B=1/2C=2 and a tile on 2A/3A (2A=1 touching 2B), every pair of empty
# neighbours is blocked: 1A/1B fills the top-left 2x2, 1B/1C and 3B/3C touch one domino with
# both ends (and 3B also touches 3A and 2B).


def tiny_position(**options: Any) -> DoubleDoubleState:
    return position(
        2, [["2-1", "5-5", "6-6"], ["5-1", "1-1", "3-3"]], board=load_board("tiny"), options=options
    )


def test_5_3_19_board_full_end() -> None:
    s = act(tiny_position(), "1-2@2B2C")
    assert not s.is_over and s.actor == 1
    s, events = step(s, "1-5@2A3A")  # 3A is diamond 3
    assert s.is_over
    assert s.positions == (0, 3)
    assert s.boneyard_size > 0
    assert s.result is not None
    assert (s.result.reason, s.result.winners) == ("board_full", (1,))
    assert s.hand_size(1) == 3  # the refill came first
    assert events[-1] == HandEnded(s.result)


def test_5_3_19_board_full_after_a_double_ends_the_turn() -> None:
    # [1|1] on 2A/3A: diamond 3 doubled = 6; no follow-up is possible, so the turn ends by itself
    # and the board is full.
    s = act(tiny_position(), "1-2@2B2C")
    s = act(s, "1-1@2A3A")
    assert s.positions == (0, 6)
    assert s.result is not None and s.result.reason == "board_full"


def test_5_3_19_last_draw_reason_wins_over_board_full() -> None:
    # docs/rules.md, "Double Double Dominoes": if the turn that filled the board also drew the
    # last tile, the reason is last_draw.
    s = position(
        2,
        [["2-1", "5-5", "6-6"], ["5-1", "1-1", "3-3"]],
        board="tiny",
        boneyard=["4-4", "4-0"],
    )
    s = play(s, "1-2@2B2C", "1-5@2A3A")
    assert s.result is not None and s.result.reason == "last_draw"


def test_option_board_full_check_available_tiles() -> None:
    # After [1|2] on the tiny star every spot needs a 1. Every other tile with a 1 is in the pit:
    # `available_tiles` (hands + boneyard) finds none, so the board is full after P0's turn;
    # `geometric` goes on, and P1 can only discard.
    pit = [
        "1-0",
        "1-0",
        "1-1",
        "1-1",
        "2-1",
        "3-1",
        "3-1",
        "4-1",
        "4-1",
        "5-1",
        "5-1",
        "6-1",
        "6-1",
    ]
    hands = [["2-1", "5-5", "6-6"], ["6-5", "4-4", "3-3"]]
    geo = act(position(2, hands, board="tiny", pit=pit), "1-2@2B2C")
    assert not geo.is_over
    assert all(a.startswith("discard") for a in legal(geo))
    avail = position(
        2, hands, board="tiny", pit=pit, options={"board_full_check": "available_tiles"}
    )
    avail = act(avail, "1-2@2B2C")
    assert avail.result is not None
    # Scores tied at 0; P0 holds 5-5, 6-6 and the refill 0-0 (22 pips), P1 25 pips: P1.
    assert (avail.result.reason, avail.result.winners) == ("board_full", (1,))


# --------------------------------------------------------------------------- other options


def test_option_domino_sets() -> None:
    # 2 players with 3 sets: 84 tiles, boneyard 84 - 6 - 1 (the first player's draw) = 77.
    s = GAME.new(2, seed=5, options={"domino_sets": 3})
    assert s.boneyard_size == 77
    everything = [t for p in range(2) for t in s.hand(p)] + list(s.boneyard)
    assert Counter(everything) == Counter(tile_multiset(6, 3))
    # 5 players with 2 sets instead of the default 3: 56 - 15 - 1 = 40.
    assert GAME.new(5, seed=5).boneyard_size == 84 - 15 - 1
    assert GAME.new(5, seed=5, options={"domino_sets": 2}).boneyard_size == 40
    # A third copy of a tile exists only with 3 sets.
    position(2, [["6-6", "6-6", "6-6"], ["1-1"]], options={"domino_sets": 3})
    with pytest.raises(DealError):
        position(2, [["6-6", "6-6", "6-6"], ["1-1"]])


MULTI_LAYOUT = [STAR, ("2-6@6H7H", 1), "2-4@6I6J", ("4-6@7J8J", 1)]  # 8J shows 6, like 8H


@pytest.mark.parametrize(("limit", "allowed"), [(1, False), (2, True), (3, True)])
def test_option_max_contacts_per_end(limit: int, allowed: bool) -> None:
    # 8I touches 8H (6) and 8J (6): legal for a 6 on 8I only when an end may touch 2 squares.
    s = position(
        2,
        [["6-5", "1-1", "0-0"], ["5-5", "4-4", "3-3"]],
        placed=MULTI_LAYOUT,
        options={"max_contacts_per_end": limit},
    )
    assert ("6-5@8I9I" in legal(s)) is allowed
    assert "5-6@7I8I" not in legal(s)  # 7I touches 6I (2), 7H (6) and 7J (4)


@pytest.mark.parametrize(("limit", "allowed"), [(1, False), (2, True)])
def test_option_max_contacts_per_end_head_touching_two_squares(limit: int, allowed: bool) -> None:
    # [6|5] with 8I=6 (tail, touching 8H's 6) and 9I=5 (head, touching 9H and 9J, both 5, on two
    # other dominoes). The 2x2 rule is off: 8H, 8I, 9H, 9I would be a full square.
    s = position(
        2,
        [["6-5", "1-1", "0-0"], ["4-4", "3-3", "2-2"]],
        placed=[STAR, ("5-1@9H10H", 1), "5-1@9J10J"],
        options={"max_contacts_per_end": limit, "forbid_2x2": False},
    )
    assert ("6-5@8I9I" in legal(s)) is allowed


def test_option_max_contacts_per_end_contacts_must_all_match() -> None:
    # Scenario 7's layout (8H=6, 8J=1): with 2 contacts allowed, 8I still cannot take a 6 or a 1.
    s = position(
        2,
        [["6-1", "6-6", "1-1"], ["5-5", "4-4", "0-0"]],
        placed=[STAR, ("2-6@6H7H", 1), "2-4@6I6J", ("4-1@7J8J", 1)],
        options={"max_contacts_per_end": 2},
    )
    assert all("8I" not in cells_of(a) for a in legal(s))


def test_option_max_contacts_per_end_still_needs_different_dominoes() -> None:
    # docs/games/double_double.md, "Options": with max_contacts_per_end > 1 the two ends must
    # touch different dominoes: side by side on [3|6] stays illegal (forbid_2x2 off so only
    # that rule can catch it).
    s = position(
        2,
        [["3-6", "1-1", "2-2"], ["5-5", "4-4", "0-0"]],
        placed=[STAR],
        options={"max_contacts_per_end": 2, "forbid_2x2": False},
    )
    assert_illegal(s, "3-6@7G7H")


TWO_DIAMONDS = {
    "name": "two_diamonds",
    "rows": 3,
    "cols": 3,
    "grid": ["12.", ".*.", "..."],
    "score_track": {"spaces": [1, 2, 3, 4, 5, 6, 0, 2, 5, 3] * 10},
    "victory_totals": {"2": 100},
}


@pytest.mark.parametrize(
    ("tile", "action", "points"), [("5-1", "5-1@1A1B", 3), ("1-1", "1-1@1A1B", 6)]
)
def test_tile_covering_two_diamonds_sums_them(tile: str, action: str, points: int) -> None:
    # docs/games/double_double.md, "Where we settled the rules", 16 (custom boards): a tile on
    # 1A (diamond 1) and 1B (diamond 2) scores 1 + 2, doubled for a double. 1B touches the
    # first tile's 1 on the star (2B).
    s = position(
        2, [[tile, "6-6", "5-5"], ["4-4", "3-3", "2-2"]], placed=["1-3@2B2C"], board=TWO_DIAMONDS
    )
    s2, events = step(s, action)
    assert s2.positions == (points, 0)
    assert scored(events) == [(0, points, "diamond", points)]


def test_alias_ddd() -> None:
    assert get_game("ddd") is GAME
    assert GAME.name == "double_double"


@pytest.mark.parametrize(
    "options",
    [
        {"double_multiplier": -1},
        {"track_bonus": -1},
        {"domino_sets": 0},
        {"max_contacts_per_end": 0},
        {"chain_contact": "touching"},
        {"board_full_check": "magic"},
        {"bonus_timing": "later"},
        {"simultaneous_victory": "everyone"},
        {"tiebreak_hand_pips": "median"},
        {"first_player_tiebreak": "coin"},
        {"allow_bridge": "yes"},
        {"no_such_option": 1},
    ],
)
def test_option_values_out_of_range_are_refused(options: dict[str, Any]) -> None:
    # docs/games/double_double.md, "Options": counts >= 0; domino_sets and max_contacts_per_end
    # >= 1; choices only.
    with pytest.raises(OptionError):
        GAME.new(2, seed=1, options=options)
