"""The classic line games ``block`` and ``draw`` (docs/games/block.md, docs/games/draw.md and
docs/rules.md, "Block and Draw").

Expected values come from the rules text, worked out by hand in the comments; explicit deals
pin every position. ``hand_size`` is set small in most scenarios so that a whole hand fits in a
few lines; the rest of the set goes to the boneyard (after any tiles pinned at its front).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from bonepile.actions import DRAW, PASS, Attach, Lead, parse_action
from bonepile.errors import DealError, IllegalActionError, OptionError
from bonepile.events import Drew, HandEnded, Led, Passed, Placed
from bonepile.games import get_game
from bonepile.state import State
from bonepile.tiles import Tile, parse_tile, tile_set
from playout_checks import check_same_end, step_by_step

pytestmark = pytest.mark.engine

GAMES = ("block", "draw")


# --------------------------------------------------------------------------- helpers
def tl(text: str) -> Tile:
    return parse_tile(text)


def deal_of(
    hands: Sequence[Sequence[str]], bone_front: Sequence[str] = (), max_pip: int = 6
) -> tuple[list[list[Tile]], list[Tile]]:
    """Hands as given; the boneyard is ``bone_front`` then the rest of the set in set order."""
    hs = [[tl(x) for x in h] for h in hands]
    front = [tl(x) for x in bone_front]
    used = [x for h in hs for x in h] + front
    assert len(set(used)) == len(used), "test deal holds a tile twice"
    rest = [x for x in tile_set(max_pip) if x not in set(used)]
    return hs, front + rest


def new(
    game: str,
    hands: Sequence[Sequence[str]],
    bone_front: Sequence[str] = (),
    **options: Any,
) -> State:
    """A hand of ``game`` with an explicit deal; ``hand_size`` is the size of the given hands."""
    options.setdefault("hand_size", len(hands[0]))
    deal = deal_of(hands, bone_front, options.get("max_pip", 6))
    return get_game(game).new(len(hands), options=options, deal=deal)


def play(s: State, *moves: str) -> State:
    for m in moves:
        s = s.apply(parse_action(m))
    return s


def legal(s: State) -> list[str]:
    acts = [str(a) for a in s.legal_actions()]
    assert len(acts) == len(set(acts)), f"duplicate legal actions: {acts}"
    return sorted(acts)


def ends(s: State) -> list[tuple[str, int]]:
    return sorted((str(e.at), e.value) for e in s.layout.ends)


def hand(s: State, seat: int) -> list[str]:
    return sorted(str(t) for t in s.hand(seat))


def result_of(s: State) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    r = s.result
    assert r is not None, "the hand should be over"
    return r.reason, tuple(r.winners), tuple(r.points)


def pips(tiles: Iterable[Tile]) -> int:
    return sum(t.pips for t in tiles)


# --------------------------------------------------------------------------- dealing
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("max_pip", "players", "size", "bone"),
    [
        (6, 2, 7, 14),
        (6, 3, 7, 7),
        (6, 4, 7, 0),
        (9, 2, 9, 37),  # 55 tiles
        (9, 6, 9, 1),
        (12, 2, 12, 67),  # 91 tiles
        (12, 7, 12, 7),
        (15, 2, 15, 106),  # 136 tiles
        (15, 8, 15, 16),
    ],
)
def test_seeded_deal_sizes(game: str, max_pip: int, players: int, size: int, bone: int) -> None:
    opts = {} if max_pip == 6 else {"max_pip": max_pip}
    s = get_game(game).new(players, options=opts, seed=1234)
    assert s.players == players
    assert [len(s.hand(i)) for i in range(players)] == [size] * players
    assert s.boneyard_size == bone
    everything = [t for i in range(players) for t in s.hand(i)] + list(s.boneyard)
    assert len(everything) == len(set(everything))
    assert set(everything) == set(tile_set(max_pip))
    assert s.result is None and s.moves == ()


@pytest.mark.parametrize("game", GAMES)
def test_seeded_deal_is_reproducible(game: str) -> None:
    g = get_game(game)
    a, b = g.new(3, seed=99), g.new(3, seed=99)
    assert a == b
    assert [a.hand(i) for i in range(3)] == [b.hand(i) for i in range(3)]
    assert a.boneyard == b.boneyard
    deals = {tuple(g.new(3, seed=k).hand(0)) for k in range(8)}
    assert len(deals) > 1


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("players", "options", "size", "bone"),
    [
        (2, {"hand_size": 14}, 14, 0),
        (2, {"hand_size": 3}, 3, 22),
        (4, {"hand_size": 5}, 5, 8),
        (8, {"max_pip": 9, "hand_size": 6}, 6, 7),  # 48 of 55
        (5, {"max_pip": 12, "hand_size": 18}, 18, 1),  # 90 of 91
    ],
)
def test_hand_size_option(
    game: str, players: int, options: dict[str, Any], size: int, bone: int
) -> None:
    s = get_game(game).new(players, options=options, seed=5)
    assert [len(s.hand(i)) for i in range(players)] == [size] * players
    assert s.boneyard_size == bone


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("players", "options"),
    [
        (1, {}),
        (5, {}),  # double-6: 2-4 players
        (5, {"hand_size": 5}),  # 25 tiles would fit, but double-6 is for 2-4 players
        (0, {}),
        (3, {"hand_size": 10}),  # 30 > 28
        (2, {"hand_size": 15}),  # 30 > 28
        (7, {"max_pip": 9}),  # 63 > 55
        (8, {"max_pip": 9, "hand_size": 7}),  # 56 > 55
        (8, {"max_pip": 12}),  # 96 > 91
        (9, {"max_pip": 15}),  # more than 8 players
        (9, {"max_pip": 15, "hand_size": 3}),
        (1, {"max_pip": 15}),
    ],
)
def test_player_count_validation(game: str, players: int, options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        get_game(game).new(players, options=options, seed=1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (4, {}),
        (6, {"max_pip": 9}),
        (8, {"max_pip": 9, "hand_size": 6}),
        (7, {"max_pip": 12}),
        (8, {"max_pip": 15}),
        (4, {"teams": True}),
        (4, {"teams": True, "max_pip": 9}),
    ],
)
def test_player_count_accepted(game: str, players: int, options: dict[str, Any]) -> None:
    s = get_game(game).new(players, options=options, seed=1)
    assert s.players == players


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {}), (5, {"max_pip": 9}), (6, {"max_pip": 12}), (8, {"max_pip": 15})],
)
def test_teams_needs_exactly_four_players(game: str, players: int, options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        get_game(game).new(players, options={**options, "teams": True}, seed=1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "options",
    [
        {"max_pip": 7},
        {"max_pip": 18},
        {"max_pip": "6"},
        {"max_pip": 6.0},
        {"hand_size": 0},
        {"hand_size": "7"},
        {"teams": "yes"},
        {"teams": 1},
        {"lead": "seat1"},
        {"lead": None},
        {"spinner": 1},
        {"draw_mode": "two"},
        {"reserve": -1},
        {"reserve": "2"},
        {"reserve": True},
        {"blocked_tie": "split"},
        {"target_score": 0},
        {"target_score": -100},
        {"target_score": "100"},
        {"target_score": True},
        {"target_score": 100.0},
        {"spinners": True},
        {"first_player_rule": "fixed_seat"},
    ],
)
def test_bad_options(game: str, options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        get_game(game).new(2, options=options, seed=1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("target", [None, 1, 61, 101, 250])
def test_target_score_values_accepted(game: str, target: int | None) -> None:
    s = get_game(game).new(2, options={"target_score": target}, seed=3)
    assert s.options.target_score == target
    assert get_game(game).new(2, seed=3).options.target_score == 100


@pytest.mark.parametrize("game", GAMES)
def test_target_score_does_not_change_a_hand(game: str) -> None:
    # target_score only matters between hands: one hand plays out identically.
    g = get_game(game)
    a = g.new(3, seed=21)
    b = g.new(3, options={"target_score": 5}, seed=21)
    while not a.is_over:
        assert [str(x) for x in a.legal_actions()] == [str(x) for x in b.legal_actions()]
        act = a.legal_actions()[-1]
        a, b = a.apply(act), b.apply(act)
    assert b.is_over
    assert a.result == b.result


@pytest.mark.parametrize(
    ("max_pip", "bad"),
    [(6, "7-1"), (9, "10-0"), (6, "6-6")],
)
def test_explicit_deal_must_hold_the_set(max_pip: int, bad: str) -> None:
    hands, bone = deal_of([["1-0"], ["2-0"]], max_pip=max_pip)
    # 6-6: a tile missing; otherwise a foreign tile
    bone = [t for t in bone if t != tl("6-6")] if bad == "6-6" else [*bone, tl(bad)]
    with pytest.raises(DealError):
        get_game("block").new(2, options={"hand_size": 1, "max_pip": max_pip}, deal=(hands, bone))


def test_explicit_deal_hand_size_and_duplicates() -> None:
    g = get_game("block")
    hands, bone = deal_of([["1-0", "2-0"], ["3-0", "4-0"]])
    with pytest.raises(DealError):  # hands of 2 but the rule's size is 7
        g.new(2, deal=(hands, bone))
    with pytest.raises(DealError):  # a tile twice (and one missing)
        g.new(2, options={"hand_size": 2}, deal=([hands[0], [tl("3-0"), tl("3-0")]], bone))
    with pytest.raises(DealError):  # three hands for two players
        g.new(2, options={"hand_size": 2}, deal=([*hands, []], bone))


# --------------------------------------------------------------------------- leads
@pytest.mark.parametrize("game", GAMES)
def test_highest_double_must_be_led(game: str) -> None:
    s = new(game, [["5-5", "6-5"], ["6-6", "1-0"], ["4-4", "2-0"]])
    assert s.actor == 1
    assert s.legal_actions() == (Lead(tl("6-6")),)
    for other in ("1-0", "5-5", "6-5", "4-4"):
        with pytest.raises(IllegalActionError):
            s.apply(parse_action(other))
    s2, events = s.step(Lead(tl("6-6")))
    assert s2.actor == 2  # the seat after the leader
    assert Led(1, tl("6-6")) in events
    assert ends(s2) == [("6-6", 6), ("6-6", 6)]
    assert hand(s2, 1) == ["1-0"]


@pytest.mark.parametrize("game", GAMES)
def test_highest_double_beats_a_heavier_non_double(game: str) -> None:
    s = new(game, [["6-5", "4-3"], ["1-1", "2-0"]])
    assert s.actor == 1
    assert legal(s) == ["1-1"]


@pytest.mark.parametrize("game", GAMES)
def test_leader_on_larger_sets(game: str) -> None:
    s = new(game, [["9-9", "12-11"], ["11-11", "0-0"], ["12-0", "1-0"]], max_pip=12)
    assert s.actor == 1
    assert legal(s) == ["11-11"]
    s = new(game, [["15-14", "2-1"], ["15-13", "0-1"]], max_pip=15)
    assert s.actor == 0  # no doubles: 15-14 (29 pips) is the heaviest tile
    assert legal(s) == ["15-14"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("hands", "leader", "tile"),
    [
        # nobody holds a double: the heaviest tile by pip total ...
        ([["6-2", "5-1"], ["5-4", "3-0"]], 1, "5-4"),
        ([["6-5", "1-0"], ["6-4", "3-2"]], 0, "6-5"),
        # ... then by the higher half: 6-3 and 5-4 both hold 9 pips
        ([["5-4", "3-0"], ["6-3", "2-1"]], 1, "6-3"),
        ([["2-1", "3-0"], ["4-1", "1-0"], ["6-3", "5-0"], ["5-4", "2-0"]], 2, "6-3"),
    ],
)
def test_no_double_heaviest_tile_leads(
    game: str, hands: list[list[str]], leader: int, tile: str
) -> None:
    s = new(game, hands)
    assert s.actor == leader
    assert legal(s) == [tile]
    s = play(s, tile)
    assert s.actor == (leader + 1) % len(hands)
    assert ends(s) == sorted([(tile, tl(tile).hi), (tile, tl(tile).lo)])


@pytest.mark.parametrize("game", GAMES)
def test_seat0_any_leads_any_tile(game: str) -> None:
    hands = [["1-0", "3-2", "4-0"], ["6-6", "5-5", "2-2"], ["6-1", "4-4", "3-3"]]
    s = new(game, hands, lead="seat0_any")
    assert s.actor == 0
    assert legal(s) == ["1-0", "3-2", "4-0"]
    with pytest.raises(IllegalActionError):
        s.apply(parse_action("6-6"))
    s = play(s, "3-2")
    assert s.actor == 1
    assert ends(s) == [("3-2", 2), ("3-2", 3)]
    # the default lead rule on the same deal: P1 must lead its 6-6
    d = new(game, hands)
    assert d.actor == 1
    assert legal(d) == ["6-6"]
    assert play(d, "6-6").actor == 2


@pytest.mark.parametrize("game", GAMES)
def test_lead_that_empties_the_hand_is_a_domino(game: str) -> None:
    s = play(new(game, [["6-6"], ["5-4"]]), "6-6")
    assert result_of(s) == ("domino", (0,), (9, 0))
    assert s.actor is None and s.legal_actions() == ()
    s = play(new(game, [["2-1"], ["6-6"]], lead="seat0_any"), "2-1")
    assert result_of(s) == ("domino", (0,), (12, 0))


@pytest.mark.parametrize("seed", range(40))
def test_seeded_leaders_follow_the_rule(seed: int) -> None:
    rng = random.Random(seed)
    max_pip = rng.choice((6, 6, 9, 12, 15))
    players = rng.randint(2, 4 if max_pip == 6 else 6)
    game = rng.choice(GAMES)
    lead = rng.choice(("highest_double", "seat0_any"))
    s = get_game(game).new(
        players, options={"max_pip": max_pip, "lead": lead}, seed=rng.randrange(10**6)
    )
    held = [(seat, t) for seat in range(players) for t in s.hand(seat)]
    if lead == "seat0_any":
        assert s.actor == 0
        assert legal(s) == sorted(str(t) for t in s.hand(0))
        leader = 0
    else:
        doubles = [(t.hi, seat, t) for seat, t in held if t.is_double]
        if doubles:
            _, leader, tile = max(doubles)
        else:
            _, leader, tile = max(((t.pips, t.hi), seat, t) for seat, t in held)
        assert s.actor == leader
        assert legal(s) == [str(tile)]
    s = s.apply(s.legal_actions()[0])
    assert s.actor == (leader + 1) % players


# --------------------------------------------------------------------------- layout
@pytest.mark.parametrize("game", GAMES)
def test_lead_double_takes_two_tiles_without_spinner(game: str) -> None:
    s = new(game, [["6-6", "6-1", "6-3", "0-0"], ["6-2", "6-4", "6-5", "1-1"]])
    s = play(s, "6-6")
    assert ends(s) == [("6-6", 6), ("6-6", 6)]
    assert legal(s) == ["6-2@6-6", "6-4@6-6", "6-5@6-6"]
    s = play(s, "6-2@6-6")
    assert ends(s) == [("6-2", 2), ("6-6", 6)]
    assert legal(s) == ["6-1@6-6", "6-3@6-6"]
    s = play(s, "6-1@6-6")
    assert ends(s) == [("6-1", 1), ("6-2", 2)]
    # the 6-6 is full: P1's 6-4 and 6-5 have no place
    assert legal(s) == ["1-1@6-1"]
    with pytest.raises(IllegalActionError):
        s.apply(parse_action("6-4@6-6"))


@pytest.mark.parametrize("game", GAMES)
def test_spinner_lead_takes_four_tiles(game: str) -> None:
    s = new(
        game,
        [["6-6", "6-1", "6-3", "0-0"], ["6-2", "6-4", "6-5", "1-1"]],
        spinner=True,
    )
    s = play(s, "6-6")
    assert ends(s) == [("6-6", 6)] * 4
    s = play(s, "6-2@6-6")
    assert ends(s) == [("6-2", 2)] + [("6-6", 6)] * 3
    s = play(s, "6-1@6-6", "6-4@6-6")
    assert ends(s) == [("6-1", 1), ("6-2", 2), ("6-4", 4), ("6-6", 6)]
    assert legal(s) == ["6-3@6-6"]
    s = play(s, "6-3@6-6")
    assert ends(s) == [("6-1", 1), ("6-2", 2), ("6-3", 3), ("6-4", 4)]
    # all four sides are taken: the 6-5 has no place
    assert legal(s) == ["1-1@6-1"]
    with pytest.raises(IllegalActionError):
        s.apply(parse_action("6-5@6-6"))


@pytest.mark.parametrize("game", GAMES)
def test_later_double_continues_the_line(game: str) -> None:
    hands = [["6-3", "3-1", "5-5"], ["3-3", "6-6", "2-0"]]
    s = play(new(game, hands, lead="seat0_any"), "6-3")
    assert ends(s) == [("6-3", 3), ("6-3", 6)]
    assert legal(s) == ["3-3@6-3", "6-6@6-3"]
    s = play(s, "3-3@6-3")
    assert ends(s) == [("3-3", 3), ("6-3", 6)]
    assert legal(s) == ["3-1@3-3"]
    s = play(s, "3-1@3-3")
    assert ends(s) == [("3-1", 1), ("6-3", 6)]
    s = play(s, "6-6@6-3")
    assert ends(s) == [("3-1", 1), ("6-6", 6)]


@pytest.mark.parametrize("game", GAMES)
def test_spinner_played_later_takes_three_more(game: str) -> None:
    hands = [["6-3", "3-1", "3-2", "0-0"], ["3-3", "4-3", "5-3", "1-1"]]
    s = play(new(game, hands, lead="seat0_any", spinner=True), "6-3", "3-3@6-3")
    assert ends(s) == [("3-3", 3)] * 3 + [("6-3", 6)]
    s = play(s, "3-1@3-3", "4-3@3-3")
    assert ends(s) == [("3-1", 1), ("3-3", 3), ("4-3", 4), ("6-3", 6)]
    s = play(s, "3-2@3-3")
    assert ends(s) == [("3-1", 1), ("3-2", 2), ("4-3", 4), ("6-3", 6)]
    # three sides used besides the attached one: the 5-3 has no place
    assert legal(s) == ["1-1@3-1"]
    # without the spinner option the same 3-3 offers a single end
    s = play(new(game, hands, lead="seat0_any"), "6-3", "3-3@6-3", "3-1@3-3")
    assert ends(s) == [("3-1", 1), ("6-3", 6)]
    assert legal(s) == ["1-1@3-1"]


@pytest.mark.parametrize("game", GAMES)
def test_only_the_first_double_spins(game: str) -> None:
    hands = [["6-3", "3-1", "3-2", "1-0"], ["3-3", "6-6", "6-2", "5-0"]]
    s = play(new(game, hands, lead="seat0_any", spinner=True), "6-3", "3-3@6-3", "3-1@3-3")
    assert ends(s) == [("3-1", 1), ("3-3", 3), ("3-3", 3), ("6-3", 6)]
    s = play(s, "6-6@6-3")  # the second double continues its line: one open end
    assert ends(s) == [("3-1", 1), ("3-3", 3), ("3-3", 3), ("6-6", 6)]
    s = play(s, "3-2@3-3")
    s = play(s, "6-2@6-6")
    assert ends(s) == [("3-1", 1), ("3-2", 2), ("3-3", 3), ("6-2", 2)]
    # with a spinner lead, a later double is an ordinary line double
    s = play(new(game, [["6-6", "3-3", "1-0"], ["6-3", "2-0", "4-0"]], spinner=True), "6-6")
    assert ends(s) == [("6-6", 6)] * 4
    s = play(s, "6-3@6-6", "3-3@6-3")
    assert ends(s) == [("3-3", 3)] + [("6-6", 6)] * 3


@pytest.mark.parametrize("game", GAMES)
def test_one_tile_two_placements(game: str) -> None:
    hands = [["4-2", "2-1", "4-0"], ["4-1", "5-5", "6-6"]]
    s = play(new(game, hands, lead="seat0_any"), "4-2")
    assert legal(s) == ["4-1@4-2"]
    s = play(s, "4-1@4-2")  # the 4 of 4-1 matches the 4; the 2 of 4-2 stays open
    assert ends(s) == [("4-1", 1), ("4-2", 2)]
    assert legal(s) == ["2-1@4-1", "2-1@4-2"]
    for bad in ("4-0@4-2", "4-0@4-1", "2-1@6-6", "5-5@4-1", "4-0", "draw", "pass"):
        with pytest.raises(IllegalActionError):
            s.apply(parse_action(bad))
    a = play(s, "2-1@4-1")
    assert ends(a) == [("2-1", 2), ("4-2", 2)]
    b = play(s, "2-1@4-2")
    assert ends(b) == [("2-1", 1), ("4-1", 1)]
    assert a != b
    placements = [(p.tile, p.at) for p in b.layout.placements]
    assert placements == [(tl("4-2"), None), (tl("4-1"), tl("4-2")), (tl("2-1"), tl("4-2"))]


# --------------------------------------------------------------------------- passing (block)
@pytest.mark.parametrize(
    "extra",
    [{}, {"draw_mode": "one"}, {"reserve": 5}, {"draw_mode": "one", "reserve": 20}],
)
def test_block_passes_and_goes_out(extra: dict[str, Any]) -> None:
    # draw_mode and reserve are accepted by block and change nothing
    s = new("block", [["6-6", "1-0"], ["2-1", "3-2"], ["6-4", "4-4"]], **extra)
    s = play(s, "6-6")
    assert s.actor == 1
    assert s.legal_actions() == (PASS,)
    with pytest.raises(IllegalActionError):
        s.apply(DRAW)
    s, events = s.step(PASS)
    assert events == (Passed(1),)
    assert s.actor == 2 and s.boneyard_size == 22
    assert legal(s) == ["6-4@6-6"]
    s = play(s, "6-4@6-6")
    assert ends(s) == [("6-4", 4), ("6-6", 6)]
    s = play(s, "pass", "pass")
    assert s.actor == 2
    assert legal(s) == ["4-4@6-4"]
    s, events = s.step(parse_action("4-4@6-4"))
    # P2 went out: P0 holds 1-0 (1), P1 holds 2-1 and 3-2 (8) -> 9 points
    assert result_of(s) == ("domino", (2,), (0, 0, 9))
    assert events[-1] == HandEnded(s.result)
    assert s.actor is None and s.legal_actions() == ()
    assert s.scores == (0, 0, 9)
    with pytest.raises(IllegalActionError):
        s.apply(PASS)


def test_block_never_draws_while_draw_does() -> None:
    hands = [["6-6", "1-0"], ["2-1", "3-2"], ["6-4", "4-4"]]
    b = play(new("block", hands), "6-6")
    d = play(new("draw", hands), "6-6")
    assert b.legal_actions() == (PASS,)
    assert d.legal_actions() == (DRAW,)


# --------------------------------------------------------------------------- drawing (draw)
DRAW_HANDS = [["6-6", "0-0"], ["1-0", "2-1"]]
DRAW_FRONT = ["3-1", "4-2", "6-3", "5-0", "5-5"]


def test_draw_until_playable() -> None:
    s = play(new("draw", DRAW_HANDS, DRAW_FRONT), "6-6")
    assert s.actor == 1 and s.boneyard_size == 24
    assert s.legal_actions() == (DRAW,)
    with pytest.raises(IllegalActionError):
        s.apply(PASS)
    s, events = s.step(DRAW)
    assert len(events) == 1 and isinstance(events[0], Drew)
    assert events[0].seat == 1 and tuple(events[0].tiles) == (tl("3-1"),)
    assert s.actor == 1 and s.boneyard_size == 23
    assert hand(s, 1) == ["1-0", "2-1", "3-1"]
    assert s.legal_actions() == (DRAW,)  # 3-1 is not playable: keep drawing
    s = s.apply(DRAW)
    assert s.actor == 1 and hand(s, 1) == ["1-0", "2-1", "3-1", "4-2"]
    assert s.legal_actions() == (DRAW,)
    s = s.apply(DRAW)
    assert s.boneyard_size == 21
    # 6-3 is playable and must be played: placements only
    assert legal(s) == ["6-3@6-6"]
    for bad in (DRAW, PASS):
        with pytest.raises(IllegalActionError):
            s.apply(bad)
    s = play(s, "6-3@6-6")
    assert s.actor == 0
    assert ends(s) == [("6-3", 3), ("6-6", 6)]
    # P0 holds only 0-0: a new turn, so P0 draws (5-0 is not playable)
    assert s.legal_actions() == (DRAW,)
    s = s.apply(DRAW)
    assert s.legal_actions() == (DRAW,)
    s = s.apply(DRAW)  # 5-5 is not playable either
    assert hand(s, 0) == ["0-0", "5-0", "5-5"]
    assert s.actor == 0 and s.legal_actions() == (DRAW,)


def test_draw_one_then_pass() -> None:
    s = play(new("draw", DRAW_HANDS, DRAW_FRONT, draw_mode="one"), "6-6")
    assert s.legal_actions() == (DRAW,)
    s = s.apply(DRAW)
    assert hand(s, 1) == ["1-0", "2-1", "3-1"]
    assert s.actor == 1
    assert s.legal_actions() == (PASS,)  # one draw per turn, and 3-1 is not playable
    with pytest.raises(IllegalActionError):
        s.apply(DRAW)
    s = s.apply(PASS)
    assert s.actor == 0
    assert s.legal_actions() == (DRAW,)  # P0's own turn: may draw once
    s = s.apply(DRAW)
    assert hand(s, 0) == ["0-0", "4-2"]
    assert s.legal_actions() == (PASS,)
    s = s.apply(PASS)
    assert s.actor == 1
    assert s.legal_actions() == (DRAW,)  # a new turn for P1: one more draw
    s = s.apply(DRAW)
    assert legal(s) == ["6-3@6-6"]  # drawn and playable: must be played
    s = play(s, "6-3@6-6")
    assert s.actor == 0 and s.boneyard_size == 21


def test_draw_reserve_stops_drawing() -> None:
    hands = [["6-6", "6-1"], ["1-0", "2-1"], ["6-2", "0-0"]]
    # 22 tiles in the boneyard, the last 20 cannot be drawn
    s = play(new("draw", hands, DRAW_FRONT, reserve=20), "6-6")
    assert s.actor == 1 and s.boneyard_size == 22
    s = s.apply(DRAW)
    assert s.legal_actions() == (DRAW,)
    s = s.apply(DRAW)
    assert s.boneyard_size == 20
    assert not s.is_over  # P0 and P2 can still place
    assert s.legal_actions() == (PASS,)
    s = s.apply(PASS)
    assert s.actor == 2
    assert legal(s) == ["6-2@6-6"]
    with pytest.raises(IllegalActionError):
        s.apply(DRAW)  # play is compulsory
    # the same position with no reserve: P1 keeps drawing
    t = play(new("draw", hands, DRAW_FRONT), "6-6", "draw", "draw")
    assert t.legal_actions() == (DRAW,)
    assert play(t, "draw").legal_actions() == (Attach(tl("6-3"), tl("6-6")),)


def test_draw_with_empty_boneyard_passes() -> None:
    # 2 players x 14 tiles: the whole set is dealt, nothing can be drawn
    h0 = ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"]
    h0 += ["5-5", "4-4", "3-3", "2-2", "1-1", "0-0", "5-4"]
    h1 = [str(t) for t in tile_set(6) if str(t) not in h0]
    s = play(new("draw", [h0, h1]), "6-6")
    assert s.boneyard_size == 0
    assert s.actor == 1 and not s.is_over
    assert s.legal_actions() == (PASS,)
    s = s.apply(PASS)
    assert s.actor == 0
    s = play(s, "6-5@6-6")
    assert legal(s) == ["5-0@6-5", "5-1@6-5", "5-2@6-5", "5-3@6-5"]


def test_draw_one_with_playable_draw() -> None:
    s = play(new("draw", DRAW_HANDS, ["6-3", "5-0"], draw_mode="one"), "6-6", "draw")
    assert legal(s) == ["6-3@6-6"]


# --------------------------------------------------------------------------- end of hand
@pytest.mark.parametrize("game", GAMES)
def test_static_block_check_needs_no_pass(game: str) -> None:
    extra = {"reserve": 22} if game == "draw" else {}
    s = play(new(game, [["6-6", "1-0", "2-0"], ["6-5", "4-3", "3-1"]], **extra), "6-6")
    assert legal(s) == ["6-5@6-6"]
    s, events = s.step(parse_action("6-5@6-6"))
    # open ends 6 and 5: nobody holds either, and nothing can be drawn -> blocked at once
    # P0 holds 3 pips, P1 holds 11: P0 scores 11 - 3 = 8
    assert result_of(s) == ("blocked", (0,), (8, 0))
    assert isinstance(events[0], Placed) and events[-1] == HandEnded(s.result)
    assert s.actor is None and s.legal_actions() == ()


def test_blocked_in_draw_only_when_drawing_is_impossible() -> None:
    # block: after the 6-6 nobody holds a 6 -> blocked at once; P0 0 pips, P1 1 + 3 = 4
    b = play(new("block", DRAW_HANDS, DRAW_FRONT), "6-6")
    assert result_of(b) == ("blocked", (0,), (4, 0))
    # draw, no reserve: the hand goes on
    d = play(new("draw", DRAW_HANDS, DRAW_FRONT), "6-6")
    assert not d.is_over and d.legal_actions() == (DRAW,)
    # draw, 24 tiles with 22 reserved: the second draw leaves nothing drawable and
    # nobody can place -> blocked right after the draw, before any pass
    r = play(new("draw", DRAW_HANDS, DRAW_FRONT, reserve=22), "6-6", "draw")
    assert not r.is_over and r.legal_actions() == (DRAW,)
    r, events = r.step(DRAW)
    assert isinstance(events[0], Drew)
    assert r.boneyard_size == 22
    # P1 holds 1-0, 2-1, 3-1, 4-2 = 14 pips, P0 holds 0-0 = 0
    assert result_of(r) == ("blocked", (0,), (14, 0))
    assert events[-1] == HandEnded(r.result)
    # draw with the whole boneyard reserved: blocked right after the lead
    z = play(new("draw", DRAW_HANDS, DRAW_FRONT, reserve=24), "6-6")
    assert result_of(z) == ("blocked", (0,), (4, 0))


@pytest.mark.parametrize("game", GAMES)
def test_domino_scores_all_opponents(game: str) -> None:
    hands = [["6-6", "6-1"], ["6-5", "4-4"], ["5-3", "2-2"]]
    s = play(new(game, hands), "6-6", "6-5@6-6", "5-3@6-5", "6-1@6-6")
    # P0 went out; P1 holds 4-4 (8), P2 holds 2-2 (4)
    assert result_of(s) == ("domino", (0,), (12, 0, 0))
    assert s.hand(0) == ()


# --------------------------------------------------------------------------- blocked scoring
BLOCK3 = [["6-6", "5-0"], ["5-2", "2-0"], ["5-5", "4-0"]]  # after the lead: 5, 9, 14 pips


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("tie", ["no_score", "lightest_tile"])
def test_blocked_lowest_scores_opponents_minus_own(game: str, tie: str) -> None:
    extra = {"reserve": 22} if game == "draw" else {}
    s = play(new(game, BLOCK3, blocked_tie=tie, **extra), "6-6")
    assert result_of(s) == ("blocked", (0,), (9 + 14 - 5, 0, 0))


TIE3 = [["6-6", "5-0"], ["4-0", "1-0"], ["5-5", "4-4"]]  # after the lead: 5, 5, 18 pips


@pytest.mark.parametrize("game", GAMES)
def test_blocked_tie_no_score(game: str) -> None:
    extra = {"reserve": 22} if game == "draw" else {}
    s = play(new(game, TIE3, **extra), "6-6")
    assert result_of(s) == ("blocked", (), (0, 0, 0))
    s = play(new(game, TIE3, blocked_tie="no_score", **extra), "6-6")
    assert result_of(s) == ("blocked", (), (0, 0, 0))


@pytest.mark.parametrize("game", GAMES)
def test_blocked_tie_lightest_tile(game: str) -> None:
    extra = {"reserve": 22} if game == "draw" else {}
    s = play(new(game, TIE3, blocked_tie="lightest_tile", **extra), "6-6")
    # P1 holds the lightest tile (1-0): it wins and scores 5 + 18 - 5 = 18
    assert result_of(s) == ("blocked", (1,), (0, 18, 0))


@pytest.mark.parametrize("game", GAMES)
def test_lightest_tile_compares_the_higher_half(game: str) -> None:
    extra = {"reserve": 19} if game == "draw" else {}
    hands = [["6-6", "2-0", "3-3"], ["1-1", "3-0", "2-1"], ["5-5", "4-4", "5-4"]]
    # after the lead: P0 2 + 6 = 8, P1 2 + 3 + 3 = 8, P2 27. Lightest tiles: P0 2-0 (2 pips,
    # higher half 2), P1 1-1 (2 pips, higher half 1) -> P1's is lighter
    s = play(new(game, hands, blocked_tie="lightest_tile", **extra), "6-6")
    assert result_of(s) == ("blocked", (1,), (0, 27, 0))
    s = play(new(game, hands, **extra), "6-6")
    assert result_of(s) == ("blocked", (), (0, 0, 0))


# --------------------------------------------------------------------------- teams
TEAM_DOMINO = [["6-6", "0-0"], ["6-5", "5-5"], ["4-3", "2-1"], ["1-0", "2-2"]]


@pytest.mark.parametrize("game", GAMES)
def test_teams_domino(game: str) -> None:
    moves = ("6-6", "6-5@6-6", "pass", "pass", "pass", "5-5@6-5")
    extra = {"reserve": 20} if game == "draw" else {}
    s = play(new(game, TEAM_DOMINO, teams=True, **extra), *moves)
    # P1 went out: team 1+3 wins; the opponents P0 (0) and P2 (7 + 3) -> 10, to both seats
    assert result_of(s) == ("domino", (1, 3), (0, 10, 0, 10))
    assert s.scores == (0, 10, 0, 10)
    s = play(new(game, TEAM_DOMINO, **extra), *moves)
    # without teams P1 scores all three other hands: 0 + 10 + 5
    assert result_of(s) == ("domino", (1,), (0, 15, 0, 0))


@pytest.mark.parametrize("game", GAMES)
def test_teams_domino_on_the_lead(game: str) -> None:
    hands = [["6-6"], ["5-4"], ["3-3"], ["2-0"]]
    s = play(new(game, hands, teams=True), "6-6")
    assert result_of(s) == ("domino", (0, 2), (11, 0, 11, 0))
    s = play(new(game, hands), "6-6")
    assert result_of(s) == ("domino", (0,), (17, 0, 0, 0))


@pytest.mark.parametrize("game", GAMES)
def test_teams_blocked_lowest_single_hand(game: str) -> None:
    extra = {"reserve": 20} if game == "draw" else {}
    hands = [["6-6", "5-0"], ["4-3", "2-1"], ["1-0", "2-0"], ["5-5", "4-4"]]
    # after the lead: P0 5, P1 10, P2 3, P3 18. Teams: P2 is lowest -> seats 0 and 2 win
    # and score the opposing hands minus the lowest hand: 10 + 18 - 3 = 25
    s = play(new(game, hands, teams=True, **extra), "6-6")
    assert result_of(s) == ("blocked", (0, 2), (25, 0, 25, 0))
    s = play(new(game, hands, **extra), "6-6")
    assert result_of(s) == ("blocked", (2,), (0, 0, 5 + 10 + 18 - 3, 0))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("tie", ["no_score", "lightest_tile"])
def test_teams_partners_tied_is_no_tie(game: str, tie: str) -> None:
    extra = {"reserve": 20} if game == "draw" else {}
    hands = [["6-6", "2-1"], ["5-4", "3-3"], ["1-0", "1-1"], ["5-5", "4-0"]]
    # after the lead: P0 3, P1 15, P2 3, P3 14 -> team 0+2 scores 15 + 14 - 3 = 26
    s = play(new(game, hands, teams=True, blocked_tie=tie, **extra), "6-6")
    assert result_of(s) == ("blocked", (0, 2), (26, 0, 26, 0))
    if tie == "no_score":
        # without teams, P0 and P2 tie for the lowest hand: nobody scores
        s = play(new(game, hands, **extra), "6-6")
        assert result_of(s) == ("blocked", (), (0, 0, 0, 0))


@pytest.mark.parametrize("game", GAMES)
def test_teams_tie_across_teams(game: str) -> None:
    extra = {"reserve": 20} if game == "draw" else {}
    hands = [["6-6", "2-1"], ["3-0", "0-0"], ["5-4", "3-3"], ["5-5", "4-4"]]
    # after the lead: P0 3, P1 3, P2 15, P3 18: P0 and P1 tie across the teams
    s = play(new(game, hands, teams=True, **extra), "6-6")
    assert result_of(s) == ("blocked", (), (0, 0, 0, 0))
    s = play(new(game, hands, teams=True, blocked_tie="lightest_tile", **extra), "6-6")
    # P1 holds 0-0, the lightest tile: team 1+3 scores 3 + 15 - 3 = 15
    assert result_of(s) == ("blocked", (1, 3), (0, 15, 0, 15))


# --------------------------------------------------------------------------- random play
def _expected_result(
    s: State, reason: str, mover: int, teams: bool, blocked_tie: str
) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    n = s.players
    p = [pips(s.hand(i)) for i in range(n)]

    def side(seat: int) -> tuple[int, ...]:
        return tuple(sorted({seat, (seat + 2) % 4})) if teams else (seat,)

    if reason == "domino":
        winners = side(mover)
        score = sum(p[i] for i in range(n) if i not in winners)
        return reason, winners, tuple(score if i in winners else 0 for i in range(n))
    low = min(p)
    tied = [i for i in range(n) if p[i] == low]
    if len({side(i) for i in tied}) > 1:
        if blocked_tie == "no_score":
            return reason, (), (0,) * n
        tied = [min(tied, key=lambda i: min((t.pips, t.hi) for t in s.hand(i)))]
    winners = side(tied[0])
    score = sum(p[i] for i in range(n) if i not in winners) - low
    return reason, winners, tuple(score if i in winners else 0 for i in range(n))


def _random_game(seed: int) -> None:
    rng = random.Random(seed)
    game = rng.choice(GAMES)
    max_pip = rng.choice((6, 6, 6, 9))
    players = rng.randint(2, 4)
    opts: dict[str, Any] = {
        "max_pip": max_pip,
        "lead": rng.choice(("highest_double", "seat0_any")),
        "spinner": rng.random() < 0.5,
        "draw_mode": rng.choice(("until_playable", "one")),
        "reserve": rng.choice((0, 0, 1, 2, 5)),
        "blocked_tie": rng.choice(("no_score", "lightest_tile")),
        "hand_size": rng.choice((None, 3, 5)),
    }
    if players == 4 and rng.random() < 0.5:
        opts["teams"] = True
    s = get_game(game).new(players, options=opts, seed=rng.randrange(10**9))
    drawing = game == "draw"
    ref: list[tuple[Tile, int]] = []  # reference open ends (anchor, value)
    spun = False
    drew = False
    leader_seen = False
    for _ in range(500):
        if s.is_over:
            break
        actor = s.actor
        assert actor is not None
        h = s.hand(actor)
        got = legal(s)
        if not leader_seen:
            if opts["lead"] == "seat0_any":
                assert actor == 0
                assert got == sorted(str(t) for t in h)
        else:
            places = {f"{t}@{at}" for at, v in ref for t in h if t.has(v)}
            if places:
                assert got == sorted(places)
            elif (
                drawing
                and s.boneyard_size > opts["reserve"]
                and (opts["draw_mode"] == "until_playable" or not drew)
            ):
                assert got == ["draw"]
            else:
                assert got == ["pass"]
        action = rng.choice(s.legal_actions())
        front = s.boneyard[0] if s.boneyard_size else None
        before = (s.summary(), s.key(), s.moves)
        nxt = s.apply(action)
        assert (s.summary(), s.key(), s.moves) == before  # apply never changes a state
        assert nxt.moves == (*s.moves, action)
        if isinstance(action, Lead):
            leader_seen = True
            t = action.tile
            if t.is_double:
                ref = [(t, t.hi)] * (4 if opts["spinner"] else 2)
                spun = spun or opts["spinner"]
            else:
                ref = [(t, t.hi), (t, t.lo)]
        elif isinstance(action, Attach):
            t, at = action.tile, action.at
            i = next(i for i, (a, v) in enumerate(ref) if a == at and t.has(v))
            v = ref.pop(i)[1]
            if t.is_double and opts["spinner"] and not spun:
                ref += [(t, v)] * 3
                spun = True
            else:
                ref.append((t, t.other(v)))
        assert sorted((str(a), v) for a, v in ref) == ends(nxt)
        if action == DRAW:
            assert front is not None
            assert Counter(nxt.hand(actor)) == Counter([*h, front])
            drew = True
        else:
            drew = False
        # the hand is over exactly when someone went out or nobody can place or draw
        out = isinstance(action, Lead | Attach) and not nxt.hand(actor)
        vals = {v for _, v in ref}
        stuck = not any(
            t.has(v) for i in range(players) for t in nxt.hand(i) for v in vals
        ) and not (drawing and nxt.boneyard_size > opts["reserve"])
        assert nxt.is_over == (out or stuck)
        if nxt.is_over:
            reason = "domino" if out else "blocked"
            assert result_of(nxt) == _expected_result(
                nxt, reason, actor, bool(opts.get("teams")), opts["blocked_tie"]
            )
            assert nxt.actor is None and nxt.legal_actions() == ()
        elif action == DRAW:
            assert nxt.actor == actor
        else:
            assert nxt.actor == (actor + 1) % players
        s = nxt
    assert s.is_over
    assert s.scores == s.result.points
    all_tiles = [t for i in range(players) for t in s.hand(i)] + list(s.boneyard)
    all_tiles += [p.tile for p in s.layout.placements]
    assert Counter(all_tiles) == Counter(tile_set(max_pip))


@pytest.mark.parametrize("seed", range(150))
def test_random_games_follow_the_rules(seed: int) -> None:
    _random_game(seed)


@pytest.mark.parametrize("seed", range(40))
def test_playout_equals_step_by_step_play(seed: int) -> None:
    # State.playout is documented as the same random choices and the same final state as
    # applying legal[int(rng.random() * len(legal))] until the hand is over
    rng = random.Random(seed)
    game = GAMES[seed % 2]
    players = rng.randint(2, 4)
    opts: dict[str, Any] = {
        "spinner": rng.random() < 0.5,
        "lead": rng.choice(("highest_double", "seat0_any")),
        "draw_mode": rng.choice(("until_playable", "one")),
        "reserve": rng.choice((0, 2)),
        "blocked_tie": rng.choice(("no_score", "lightest_tile")),
        "hand_size": rng.choice((None, 3, 5)),
        "teams": players == 4 and rng.random() < 0.5,
    }
    s = get_game(game).new(players, options=opts, seed=seed)
    for _ in range(rng.randint(0, 6)):  # start at the deal or a little later, maybe mid-draw
        if s.is_over:
            break
        s = s.apply(rng.choice(s.legal_actions()))
    before = (s.summary(), s.key(), s.moves)
    fast = s.playout(random.Random(seed + 1))
    slow = step_by_step(s, random.Random(seed + 1))
    assert (s.summary(), s.key(), s.moves) == before
    check_same_end(s, fast, slow)
    assert [a for _, a, _ in fast.replay()] == list(fast.moves)  # the history replays


def test_events_of_a_turn() -> None:
    s = play(new("draw", DRAW_HANDS, DRAW_FRONT), "6-6", "draw", "draw", "draw")
    s, events = s.step(parse_action("6-3@6-6"))
    assert events == (Placed(1, tl("6-3"), tl("6-6"), 6, 3),)


@pytest.mark.parametrize("seed", range(24))
def test_playout_equals_step_by_step_play_with_bigger_sets(seed: int) -> None:
    # double-9 hands still take the line playout's own loop; double-12 and double-15 hands
    # (more than 62 tiles) the generic one: both are the same choices as step-by-step play
    rng = random.Random(1000 + seed)
    game = GAMES[seed % 2]
    max_pip = (9, 12, 15)[seed % 3]
    players = rng.randint(2, 8)
    opts: dict[str, Any] = {
        "max_pip": max_pip,
        "spinner": rng.random() < 0.5,
        "lead": rng.choice(("highest_double", "seat0_any")),
        "draw_mode": rng.choice(("until_playable", "one")),
        "hand_size": rng.choice((None, 5)),
    }
    if players * max_pip > (max_pip + 1) * (max_pip + 2) // 2:  # too many for full hands
        opts["hand_size"] = 5
    s = get_game(game).new(players, options=opts, seed=seed)
    for _ in range(rng.randint(0, 4)):
        if s.is_over:
            break
        s = s.apply(rng.choice(s.legal_actions()))
    fast = s.playout(random.Random(seed + 7))
    slow = step_by_step(s, random.Random(seed + 7))
    check_same_end(s, fast, slow)
