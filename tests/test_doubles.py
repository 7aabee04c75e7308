"""Doubles: the 16 worked scenarios (``test_5_2_NN`` is scenario NN), every option, deals,
records and rendering.

Expected values come from docs/games/doubles.md and docs/records.md ("Notation", "Decisions
and forced moves", game records), worked out by hand, never read back from the engine.
Positions are built from explicit deals and real moves (the lead is forced: the holder of the
highest double leads it, and play passes to the left). The longer games below (``BLOCK_4P``,
``TIE_3P``, ...) are real hands of explicit deals; the comment above each one says why its
end is what the rules call for. :class:`Ref`, a small independent model of the rules of
docs/games/doubles.md, checks the exact legal actions after every move of those games and of
many seeded games.
Only the public API is asserted.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

import bonepile
from bonepile.actions import DRAW, PASS
from bonepile.errors import DealError, IllegalActionError, OptionError, RecordError
from bonepile.events import Drew, HandEnded, Led, Passed, Placed
from bonepile.games import get_game
from bonepile.games.base import Game as BaseGame
from bonepile.record import dump_record, read_record
from bonepile.render import render_state
from bonepile.state import State
from bonepile.tiles import Tile, parse_tile, tile_set

pytestmark = pytest.mark.engine

GAME = get_game("doubles")
FULL_SET: tuple[Tile, ...] = tile_set(6)
DEFAULTS: dict[str, Any] = {
    "hand_size": {"2": 8, "3": 6, "4": 6},
    "round_leader": "highest_double",
    "spinner_sides": 4,
    "draw_when_unable": "one",
    "boneyard_reserve": 2,
    "round_scoring": "opponents_minus_own",
    "blocked_tie": "no_score",
    "count_boneyard": False,
    "target_score": 100,
}


# --------------------------------------------------------------------------- helpers


def t(text: str) -> Tile:
    return parse_tile(text)


def tiles(text: str) -> list[Tile]:
    """Tiles from space-separated notations."""
    return [parse_tile(x) for x in text.split()]


def names(ts: Any) -> list[str]:
    return [str(x) for x in ts]


def new(
    players: int,
    hands: list[str],
    boneyard: str | None = None,
    options: dict[str, Any] | None = None,
    scores_before: list[int] | None = None,
) -> State:
    """A hand from an explicit deal; ``boneyard=None`` puts the rest of the set there, in
    index order (0-0, 1-0, 1-1, 2-0, ...)."""
    hs = [tiles(h) for h in hands]
    if boneyard is None:
        held = {x for h in hs for x in h}
        bone = [x for x in FULL_SET if x not in held]
    else:
        bone = tiles(boneyard)
    return GAME.new(players, options=options, deal=(hs, bone), scores_before=scores_before)


def legal(state: State) -> set[str]:
    """The actor's legal actions as strings (checked free of duplicates)."""
    acts = [str(a) for a in state.legal_actions()]
    assert len(acts) == len(set(acts)), f"duplicate legal actions: {acts}"
    return set(acts)


def play(state: State, *moves: str) -> State:
    for m in moves:
        state = bonepile.apply(state, m)
    return state


def ends_on(state: State, tile: str) -> list[int]:
    """The values of the open ends anchored on layout tile ``tile``."""
    return sorted(e.value for e in state.layout.ends if e.at == t(tile))


def end_values(state: State) -> list[int]:
    return sorted(e.value for e in state.layout.ends)


def hands_of(state: State) -> list[str]:
    return [" ".join(names(state.hand(p))) for p in range(state.players)]


def can_place(tile: Tile, value: int, unlocked: set[int]) -> bool:
    """docs/games/doubles.md, "A turn": a tile goes on an open end of ``value`` when it shows
    that value and either it is the value's double or the value is unlocked."""
    return tile.has(value) and (tile.is_double or value in unlocked)


def layout_unlocked(state: State) -> set[int]:
    """The unlocked numbers, from the doubles on the table (docs/games/doubles.md, "A turn")."""
    return {p.tile.hi for p in state.layout.placements if p.tile.is_double}


def nobody_can_place(state: State) -> bool:
    unlocked = layout_unlocked(state)
    return not any(
        can_place(x, e.value, unlocked)
        for p in range(state.players)
        for x in state.hand(p)
        for e in state.layout.ends
    )


# --------------------------------------------------------------------------- reference model


class Ref:
    """An independent, slow model of docs/games/doubles.md and docs/records.md ("Decisions and
    forced moves") for one Doubles hand."""

    def __init__(
        self, players: int, hands: list[list[Tile]], bone: list[Tile], options: dict[str, Any]
    ) -> None:
        self.o = {**DEFAULTS, **options}
        self.n = players
        self.hands = [set(h) for h in hands]
        self.bone = list(bone)
        self.ends: list[tuple[Tile, int]] = []
        self.unlocked: set[int] = set()
        self.started = False
        self.drawn = False
        self.result: tuple[str, tuple[int, ...], tuple[int, ...]] | None = None
        doubles = [x for h in hands for x in h if x.is_double]
        self.lead = max(doubles, key=lambda x: x.hi)
        self.actor: int | None = next(i for i, h in enumerate(self.hands) if self.lead in h)

    def placements(self, hand: set[Tile]) -> set[str]:
        return {f"{x}@{at}" for at, v in self.ends for x in hand if can_place(x, v, self.unlocked)}

    def legal(self) -> set[str]:
        if self.result is not None:
            return set()
        if not self.started:
            return {str(self.lead)}
        assert self.actor is not None
        acts = self.placements(self.hands[self.actor])
        if acts:
            return acts
        if len(self.bone) > self.o["boneyard_reserve"] and (
            not self.drawn or self.o["draw_when_unable"] == "until_playable"
        ):
            return {"draw"}
        return {"pass"}

    def apply(self, move: str) -> None:
        assert move in self.legal(), (move, self.legal())
        seat = self.actor
        assert seat is not None
        k = self.o["spinner_sides"]
        if move == "draw":
            self.hands[seat].add(self.bone.pop(0))
            self.drawn = True
        elif move == "pass":
            self.drawn = False
            self.actor = (seat + 1) % self.n
        else:
            if "@" in move:
                x, at = (parse_tile(p) for p in move.split("@"))
                i = next(i for i, (a, v) in enumerate(self.ends) if a == at and x.has(v))
                v = self.ends.pop(i)[1]
                if x.is_double:
                    self.ends += [(x, v)] * (k - 1)
                    self.unlocked.add(v)
                else:
                    self.ends.append((x, x.other(v)))
            else:
                x = parse_tile(move)
                self.ends = [(x, x.hi)] * k
                self.unlocked = {x.hi}
                self.started = True
            self.hands[seat].remove(x)
            self.drawn = False
            if not self.hands[seat]:
                self.finish(seat, "domino")
                return
            self.actor = (seat + 1) % self.n
        if len(self.bone) <= self.o["boneyard_reserve"] and not any(
            self.placements(h) for h in self.hands
        ):
            self.finish(None, "blocked")

    def finish(self, winner: int | None, reason: str) -> None:
        pips = [sum(x.pips for x in h) for h in self.hands]
        self.actor = None
        if winner is None:
            low = min(pips)
            tied = [p for p in range(self.n) if pips[p] == low]
            if len(tied) > 1 and self.o["blocked_tie"] == "lightest_tile":
                tied = [min(tied, key=lambda p: min((x.pips, x.hi) for x in self.hands[p]))]
            if len(tied) > 1:
                self.result = (reason, (), (0,) * self.n)
                return
            winner = tied[0]
        others = sum(pips) - pips[winner]
        score = {
            "opponents_minus_own": others - pips[winner],
            "opponents_total": others,
            "all_hands_total": sum(pips),
        }[self.o["round_scoring"]]
        if self.o["count_boneyard"]:
            score += sum(x.pips for x in self.bone)
        self.result = (reason, (winner,), tuple(score if p == winner else 0 for p in range(self.n)))


def check_against_ref(state: State, moves: list[str], options: dict[str, Any]) -> State:
    """Play ``moves`` on ``state`` and on a :class:`Ref`, comparing everything on the way."""
    ref = Ref(
        state.players,
        [list(state.hand(p)) for p in range(state.players)],
        list(state.boneyard),
        options,
    )
    for m in moves:
        assert legal(state) == ref.legal(), (len(state.moves), str(state.moves))
        assert state.actor == ref.actor
        state = bonepile.apply(state, m)
        ref.apply(m)
    assert legal(state) == ref.legal()
    assert state.actor == ref.actor
    assert [set(state.hand(p)) for p in range(state.players)] == ref.hands
    assert list(state.boneyard) == ref.bone
    if ref.result is None:
        assert state.result is None
    else:
        assert state.result is not None
        assert (state.result.reason, state.result.winners, state.result.points) == ref.result
    return state


# --------------------------------------------------------------------------- recorded hands


@dataclass(frozen=True)
class Hand:
    """A real hand: an explicit deal, its moves, and the hands left at the end."""

    hands: list[str]
    boneyard: str
    moves: str
    final: list[str]

    def start(self, options: dict[str, Any] | None = None, **kw: Any) -> State:
        return new(len(self.hands), self.hands, self.boneyard, options, **kw)

    def end(self, options: dict[str, Any] | None = None, **kw: Any) -> State:
        return play(self.start(options, **kw), *self.moves.split())

    def record(self, options: dict[str, Any] | None = None) -> dict[str, Any]:
        rec: dict[str, Any] = {
            "format": "bonepile-record/1",
            "game": "doubles",
            "players": len(self.hands),
            "deal": {"hands": [h.split() for h in self.hands], "boneyard": self.boneyard.split()},
            "moves": self.moves.split(),
        }
        if options is not None:
            rec["options"] = options
        return rec


# 4 players, 5-5 leads (6-6 lies in the boneyard). Blocked after the last placement 5-4@5-3,
# boneyard at 2 (6-6, 4-4). Open ends: 1 (unlocked, every 1 placed), 3 (unlocked, every 3
# placed), 4 and 6 (locked, their doubles in the reserve). Pips 2, 6, 10, 4: P0 wins with
# 6 + 10 + 4 - 2 = 18 (opponents_total 20, all_hands_total 22, reserve pips 12 + 8 = 20).
BLOCK_4P = Hand(
    hands=[
        "0-0 2-0 3-0 4-3 5-0 6-0",
        "3-3 4-2 5-5 6-1 6-2 6-5",
        "1-0 2-1 4-1 5-2 6-3 6-4",
        "2-2 3-1 3-2 4-0 5-1 5-3",
    ],
    boneyard="1-1 5-4 6-6 4-4",
    moves="5-5 5-2@5-5 2-2@5-2 5-0@5-5 6-5@5-5 2-1@2-2 5-1@5-5 0-0@5-0 6-2@2-2 1-0@0-0 "
    "3-2@2-2 6-0@0-0 3-3@3-2 6-3@3-3 5-3@3-3 3-0@0-0 draw 1-1@1-0 4-1@5-1 3-1@1-1 "
    "4-3@3-3 6-1@1-1 draw 5-4@5-3",
    final=["2-0", "4-2", "6-4", "4-0"],
)

# 3 players, 5-5 leads. The last move is P2's draw of 2-0 (boneyard 3 -> 2): nobody can place
# (2 is locked, 2-2 in the reserve; 0-0 has all its sides taken), so the hand is blocked
# before P2 passes. Pips 5, 5, 9: P0 (4-1) and P1 (3-2) tie. lightest_tile: 3-2 = (5, 3)
# beats 4-1 = (5, 4), so P1 wins: 5 + 9 - 5 = 9 (opponents_total 14, all 19; reserve 3-3 and
# 2-2 = 10 pips).
TIE_3P = Hand(
    hands=["1-0 5-0 5-2 5-5 6-1 6-4", "3-0 3-1 5-1 5-3 5-4 6-2", "0-0 1-1 2-1 4-3 6-0 6-5"],
    boneyard="4-2 4-1 4-4 3-2 6-3 6-6 4-0 2-0 3-3 2-2",
    moves="5-5 5-1@5-5 1-1@5-1 5-2@5-5 3-1@1-1 6-5@5-5 1-0@1-1 5-3@5-5 0-0@1-0 6-1@1-1 "
    "3-0@0-0 6-0@0-0 5-0@0-0 5-4@5-0 draw pass draw pass draw 4-4@5-4 4-2@4-4 6-4@4-4 "
    "draw pass 4-3@4-4 draw pass draw 6-6@6-5 draw pass 6-3@6-6 6-2@6-0 draw",
    final=["4-1", "3-2", "2-0 2-1 4-0"],
)

# 3 players, 3-3 leads. Blocked after 4-0@2-0 with 5-5 and 4-4 in the reserve: open ends 0
# (every 0 placed), 4 and 5 (locked). Pips 5, 9, 14 (docs/games/doubles.md, "Scoring"): P0
# scores 9 + 14 - 5 = 18 (opponents_total 23, all_hands_total 28).
BLOCK_3P = Hand(
    hands=["2-1 3-2 3-3 4-2 5-3 6-0", "1-0 2-0 4-0 4-1 5-4 6-3", "3-0 3-1 5-1 5-2 6-4 6-5"],
    boneyard="6-1 5-0 1-1 4-3 6-6 6-2 2-2 0-0 5-5 4-4",
    moves="3-3 6-3@3-3 3-1@3-3 5-3@3-3 draw pass 3-0@3-3 draw pass draw 1-1@3-1 5-1@1-1 "
    "2-1@1-1 4-1@1-1 draw pass draw 6-6@6-3 6-1@6-6 6-4@6-6 6-0@6-6 1-0@6-1 draw pass "
    "draw 2-2@2-1 2-0@2-2 6-2@2-2 4-2@2-2 draw 0-0@3-0 6-5@6-2 5-0@6-0 4-0@2-0",
    final=["3-2", "5-4", "4-3 5-2"],
)

# 3 players, P0 goes out with 5-5@5-4; P1 keeps 3-1 5-3 (12), P2 6-1 (7): P0 +19
# (docs/games/doubles.md, "Scoring"). One tile was drawn; the 9 left hold
# 2+2+5+6+6+5+7+6+7 = 46 pips.
DOMINO_19 = Hand(
    hands=["0-0 2-2 5-5 6-3 6-5 6-6", "3-1 4-2 4-4 5-3 5-4 6-4", "1-0 2-1 3-2 4-0 6-1 6-2"],
    boneyard="3-0 2-0 1-1 5-0 3-3 5-1 4-1 5-2 6-0 4-3",
    moves="6-6 6-4@6-6 6-2@6-6 2-2@6-2 4-2@2-2 3-2@2-2 6-3@6-6 4-4@6-4 4-0@4-4 6-5@6-6 "
    "5-4@4-2 2-1@2-2 0-0@4-0 draw 3-0@0-0 1-0@0-0 5-5@5-4",
    final=["", "3-1 5-3", "6-1"],
)

# 3 players, P0 goes out with 5-1@1-1; P1 keeps 4-2 (6), P2 2-2 (4): a round worth 10.
DOMINO_10 = Hand(
    hands=["0-0 4-1 4-4 5-1 6-3 6-6", "3-0 4-2 4-3 5-0 6-1 6-5", "1-0 1-1 2-0 2-2 4-0 6-0"],
    boneyard="5-2 3-2 3-1 5-5 6-4 2-1 6-2 3-3 5-3 5-4",
    moves="6-6 6-5@6-6 6-0@6-6 6-3@6-6 6-1@6-6 1-1@6-1 0-0@6-0 5-0@0-0 4-0@0-0 4-1@1-1 "
    "3-0@0-0 1-0@1-1 4-4@4-0 4-3@4-4 2-0@1-0 5-1@1-1",
    final=["", "4-2", "2-2"],
)

HANDS = {
    "block_4p": BLOCK_4P,
    "tie_3p": TIE_3P,
    "block_3p": BLOCK_3P,
    "domino_19": DOMINO_19,
    "domino_10": DOMINO_10,
}


@pytest.mark.parametrize("name", sorted(HANDS))
def test_recorded_hands_follow_the_rules_move_by_move(name: str) -> None:
    hand = HANDS[name]
    end = check_against_ref(hand.start(), hand.moves.split(), {})
    assert hands_of(end) == hand.final
    assert end.is_over


# --------------------------------------------------------------------------- 5.2.1 deal sizes


@pytest.mark.parametrize("seed", [0, 1, 3023, 424242])
@pytest.mark.parametrize(("players", "size", "boneyard"), [(2, 8, 12), (3, 6, 10), (4, 6, 4)])
def test_5_2_01_deal_sizes(players: int, size: int, boneyard: int, seed: int) -> None:
    s = GAME.new(players, seed=seed)
    assert [s.hand_size(p) for p in range(players)] == [size] * players
    assert [len(s.hand(p)) for p in range(players)] == [size] * players
    assert s.boneyard_size == boneyard
    everything = [x for p in range(players) for x in s.hand(p)] + list(s.boneyard)
    assert sorted(everything) == list(FULL_SET)
    assert s.layout.placements == ()
    assert s.facts.to_json()["unlocked"] == []


def test_5_2_01_seeded_deal_is_reproducible() -> None:
    a, b = GAME.new(3, seed=77), GAME.new(3, seed=77)
    assert hands_of(a) == hands_of(b)
    assert a.boneyard == b.boneyard


@pytest.mark.parametrize(("players", "size"), [(2, 7), (2, 9), (3, 7), (3, 5), (4, 7), (4, 5)])
def test_5_2_01_explicit_deal_must_have_the_rule_hand_size(players: int, size: int) -> None:
    hands = [list(FULL_SET[p * size : (p + 1) * size]) for p in range(players)]
    bone = list(FULL_SET[players * size :])
    with pytest.raises(DealError):
        GAME.new(players, deal=(hands, bone))


def test_5_2_01_explicit_deal_with_the_rule_sizes_is_accepted() -> None:
    for players, size in ((2, 8), (3, 6), (4, 6)):
        hands = [list(FULL_SET[p * size : (p + 1) * size]) for p in range(players)]
        s = GAME.new(players, deal=(hands, list(FULL_SET[players * size :])))
        assert [s.hand_size(p) for p in range(players)] == [size] * players
        assert s.boneyard_size == 28 - players * size


# --------------------------------------------------------------------------- 5.2.2 leader

LEADER_DEAL = ["5-5 0-0 1-0 2-0 3-0 4-0", "6-6 6-5 6-4 1-1 2-1 3-1", "6-3 6-2 6-1 4-1 5-1 3-2"]


def test_5_2_02_leader_holds_the_highest_double() -> None:
    s = new(3, LEADER_DEAL)
    assert s.actor == 1
    assert legal(s) == {"6-6"}
    for other in ("5-5", "6-5", "1-1", "3-1", "6-5@6-6", "draw", "pass"):
        with pytest.raises(IllegalActionError):
            bonepile.apply(s, other)
    s2, events = s.step(bonepile.parse_action("6-6"))
    assert [type(e) for e in events] == [Led]
    assert events[0].seat == 1 and events[0].tile == t("6-6")
    assert s2.actor == 2
    assert [(p.tile, p.at, p.seat) for p in s2.layout.placements] == [(t("6-6"), None, 1)]
    assert names(s2.hand(1)) == ["1-1", "2-1", "3-1", "6-4", "6-5"]
    assert s2.facts.to_json()["unlocked"] == [6]
    assert legal(s2) == {"6-3@6-6", "6-2@6-6", "6-1@6-6"}


def test_5_2_02_leader_asks_down_from_6_6() -> None:
    # 6-6 and 5-5 lie in the boneyard: P2's 4-4 is the highest double held.
    s = new(3, ["3-3 2-2 1-0 2-0 3-0 4-0", "1-1 0-0 2-1 3-1 4-1 5-1", "4-4 4-3 4-2 6-1 6-2 3-2"])
    assert s.actor == 2
    assert legal(s) == {"4-4"}
    s = play(s, "4-4")
    assert s.actor == 0
    assert legal(s) == {"4-0@4-4"}
    assert s.facts.to_json()["unlocked"] == [4]


# --------------------------------------------------------------------------- 5.2.3 no doubles


@pytest.mark.parametrize("players", [2, 3])
def test_5_2_03_no_doubles_dealt_means_a_redeal(players: int) -> None:
    seed = 3023  # the plain round-robin deal of this seed gives nobody a double
    opts = GAME.make_options({})
    rng = random.Random(seed)
    first = BaseGame._seeded_deal(GAME, players, opts, rng)
    assert not any(tile.is_double for h in first[0] for tile in _tiles_of(h))
    # Deal again from the same shuffled stream until some hand holds a double.
    expected = BaseGame._seeded_deal(GAME, players, opts, rng)
    while not any(tile.is_double for h in expected[0] for tile in _tiles_of(h)):
        expected = BaseGame._seeded_deal(GAME, players, opts, rng)
    s = GAME.new(players, seed=seed)
    assert [set(s.hand(p)) for p in range(players)] == [set(_tiles_of(h)) for h in expected[0]]
    assert [set(s.hand(p)) for p in range(players)] != [set(_tiles_of(h)) for h in first[0]]
    assert any(x.is_double for p in range(players) for x in s.hand(p))
    _assert_highest_double_leads(s)


def _tiles_of(mask: int) -> list[Tile]:
    return [x for x in FULL_SET if mask >> x.index & 1]


def _assert_highest_double_leads(s: State) -> None:
    held = [(x, p) for p in range(s.players) for x in s.hand(p) if x.is_double]
    top, seat = max(held, key=lambda h: h[0].hi)
    assert s.actor == seat
    assert legal(s) == {str(top)}


def test_5_2_03_small_hands_redeal_often_and_always_start_with_a_double() -> None:
    # With 2 tiles each, about 3 deals in 10 give nobody a double.
    options = {"hand_size": {"2": 2}}
    opts = GAME.make_options(options)
    redealt = 0
    for seed in range(300):
        plain = BaseGame._seeded_deal(GAME, 2, opts, random.Random(seed))[0]
        if not any(x.is_double for h in plain for x in _tiles_of(h)):
            redealt += 1
        s = GAME.new(2, seed=seed, options=options)
        assert [s.hand_size(p) for p in range(2)] == [2, 2]
        _assert_highest_double_leads(s)
    assert redealt > 40


@pytest.mark.parametrize("players", [2, 3, 4])
def test_5_2_03_every_seeded_hand_starts_with_the_highest_double(players: int) -> None:
    for seed in range(150):
        _assert_highest_double_leads(GAME.new(players, seed=seed))


# --------------------------------------------------------------------------- 5.2.4 lead sides

# Deal A (2 players): P0 fills two sides of the 6-6, P1 the other two; P1 also holds 6-3.
DEAL_A = ["6-6 6-2 6-5 0-0 1-0 2-0 4-0 5-0", "6-1 6-4 6-3 2-1 5-4 3-0 5-3 3-1"]
DEAL_A_BONE = "2-2 1-1 3-3 4-4 5-5 6-0 3-2 4-1 4-2 4-3 5-1 5-2"


def _deal_a_filled() -> State:
    s = new(2, DEAL_A, DEAL_A_BONE)
    assert legal(s) == {"6-6"}
    s = play(s, "6-6")
    assert ends_on(s, "6-6") == [6, 6, 6, 6]
    assert legal(s) == {"6-1@6-6", "6-4@6-6", "6-3@6-6"}
    s = play(s, "6-1@6-6")
    assert ends_on(s, "6-6") == [6, 6, 6]
    assert legal(s) == {"6-2@6-6", "6-5@6-6"}
    s = play(s, "6-2@6-6")
    assert legal(s) == {"6-4@6-6", "6-3@6-6"}
    s = play(s, "6-4@6-6")
    assert ends_on(s, "6-6") == [6]
    assert legal(s) == {"6-5@6-6"}
    return play(s, "6-5@6-6")


def test_5_2_04_lead_has_four_sides() -> None:
    s = _deal_a_filled()
    assert ends_on(s, "6-6") == []
    assert end_values(s) == [1, 2, 4, 5]
    assert {p.tile for p in s.layout.placements if p.at == t("6-6")} == set(
        tiles("6-1 6-2 6-4 6-5")
    )
    # P1's fifth 6-tile has no slot.
    assert s.actor == 1 and t("6-3") in s.hand(1)
    assert legal(s) == {"draw"}
    with pytest.raises(IllegalActionError):
        bonepile.apply(s, "6-3@6-6")


# Deal B (2 players): after the lead is full, 4-4 and 3-3 open the way to an open 6 on 6-3.
DEAL_B = ["6-6 6-2 6-5 4-3 4-2 6-0 5-0 1-0", "6-1 6-4 4-4 3-3 6-3 2-1 5-1 2-0"]


def test_5_2_04_a_fifth_six_needs_an_open_six() -> None:
    s = new(2, DEAL_B)
    s = play(s, "6-6")
    assert legal(s) == {"6-1@6-6", "6-4@6-6", "6-3@6-6"}
    s = play(s, "6-1@6-6")
    assert legal(s) == {"6-2@6-6", "6-5@6-6", "6-0@6-6"}
    s = play(s, "6-2@6-6")
    assert legal(s) == {"6-4@6-6", "6-3@6-6"}
    s = play(s, "6-4@6-6")
    assert legal(s) == {"6-5@6-6", "6-0@6-6"}
    s = play(s, "6-5@6-6")
    # The 6-6 is full: neither 6-3 (P1) nor, later, 6-0 (P0) has a slot on it.
    assert legal(s) == {"4-4@6-4"}
    s = play(s, "4-4@6-4")
    assert ends_on(s, "4-4") == [4, 4, 4]
    assert legal(s) == {"4-3@4-4", "4-2@4-4"}
    s = play(s, "4-3@4-4")
    assert legal(s) == {"3-3@4-3"}  # 3 is locked: 6-3 cannot go on the 3
    s = play(s, "3-3@4-3")
    assert legal(s) == {"4-2@4-4"}
    s = play(s, "4-2@4-4")
    assert legal(s) == {"6-3@3-3"}
    s = play(s, "6-3@3-3")
    assert (t("6-3"), 6) in {(e.at, e.value) for e in s.layout.ends}
    assert legal(s) == {"6-0@6-3"}
    s = play(s, "6-0@6-3")
    assert (t("6-0"), 0) in {(e.at, e.value) for e in s.layout.ends}
    assert end_values(s) == [0, 1, 2, 2, 3, 3, 4, 5]


# --------------------------------------------------------------------------- 5.2.5 locked end

DEAL_LOCK = ["6-6 3-3 3-1 1-0 2-0 4-0 5-0 2-1", "6-3 4-1 4-2 5-1 5-2 5-4 3-2 4-3"]


def test_5_2_05_locked_end_takes_only_its_double() -> None:
    s = play(new(2, DEAL_LOCK), "6-6", "6-3@6-6")
    assert (t("6-3"), 3) in {(e.at, e.value) for e in s.layout.ends}
    assert not s.is_unlocked(3)
    assert s.actor == 0
    assert legal(s) == {"3-3@6-3"}
    with pytest.raises(IllegalActionError):
        bonepile.apply(s, "3-1@6-3")


def test_5_2_05_locked_end_and_no_double_means_draw() -> None:
    # Same layout, but P0 holds 3-0 and 3-1 and the 3-3 is the boneyard's first tile.
    hands = ["6-6 3-0 3-1 1-0 2-0 4-0 5-0 2-1", DEAL_LOCK[1]]
    bone = "3-3 0-0 1-1 2-2 4-4 5-5 6-0 6-1 6-2 6-4 6-5 5-3"
    s = play(new(2, hands, bone), "6-6", "6-3@6-6")
    assert legal(s) == {"draw"}
    for move in ("3-1@6-3", "3-0@6-3", "pass"):
        with pytest.raises(IllegalActionError):
            bonepile.apply(s, move)
    s = play(s, "draw")
    assert legal(s) == {"3-3@6-3"}


def test_5_2_05_the_double_unlocks_and_offers_three_sides() -> None:
    s = play(new(2, DEAL_LOCK), "6-6", "6-3@6-6")
    s, events = s.step(bonepile.parse_action("3-3@6-3"))
    assert [type(e) for e in events] == [Placed]
    assert (events[0].seat, events[0].tile, events[0].at, events[0].matched) == (
        0,
        t("3-3"),
        t("6-3"),
        3,
    )
    assert s.is_unlocked(3) and s.is_unlocked(6)
    assert [v for v in range(7) if s.is_unlocked(v)] == [3, 6]
    assert s.facts.to_json()["unlocked"] == [3, 6]
    assert ends_on(s, "3-3") == [3, 3, 3]
    assert ends_on(s, "6-3") == []
    assert ends_on(s, "6-6") == [6, 6, 6]
    assert legal(s) == {"3-2@3-3", "4-3@3-3"}
    s = play(s, "3-2@3-3")
    assert legal(s) == {"3-1@3-3"}  # the same 3-1 is legal now that 3 is unlocked


# --------------------------------------------------------------------------- 5.2.6 matched half

DEAL_HALF = ["6-6 2-1 2-0 5-0 4-0 1-0 5-1 4-1", "6-2 3-2 5-2 4-2 3-0 3-1 5-3 4-3"]


def test_5_2_06_only_the_matched_half_must_be_unlocked() -> None:
    s = play(new(2, DEAL_HALF), "6-6")
    assert s.is_unlocked(6) and not s.is_unlocked(2)
    assert legal(s) == {"6-2@6-6"}
    s, events = s.step(bonepile.parse_action("6-2@6-6"))
    placed = events[0]
    assert isinstance(placed, Placed)
    assert (placed.seat, placed.tile, placed.at, placed.matched, placed.open) == (
        1,
        t("6-2"),
        t("6-6"),
        6,
        2,
    )
    assert (t("6-2"), 2) in {(e.at, e.value) for e in s.layout.ends}
    assert not s.is_unlocked(2)
    assert s.facts.to_json()["unlocked"] == [6]
    # The new 2 is locked: P0's 2-1 and 2-0 cannot go there.
    assert legal(s) == {"draw"}


# --------------------------------------------------------------------------- 5.2.7 all locked


def test_5_2_07_everything_locked_means_draw() -> None:
    s = _deal_a_filled()
    assert s.actor == 1
    assert {"2-1", "5-4", "3-0"} <= set(names(s.hand(1)))
    assert [v for v in (1, 2, 4, 5) if s.is_unlocked(v)] == []
    assert legal(s) == {"draw"}
    for move in ("2-1@6-1", "2-1@6-2", "5-4@6-4", "5-4@6-5", "pass"):
        with pytest.raises(IllegalActionError):
            bonepile.apply(s, move)
    # Only a matching double can be played: P1 draws 2-2 and must play it.
    s = play(s, "draw")
    assert legal(s) == {"2-2@6-2"}


# --------------------------------------------------------------------------- 5.2.8 draw one

# Deal C (3 players): the lead gets 6-1, 6-2 and 6-5 (one 6 side stays free); four
# unplayable draws, then P2 draws 1-1 and plays it; P0 is left unable with 5 in the boneyard.
DEAL_C = ["6-6 6-5 0-0 3-3 4-4 3-0", "6-1 1-0 2-1 3-1 2-0 3-2", "6-2 5-1 4-3 5-0 5-2 5-3"]
DEAL_C_BONE = "4-1 5-4 4-0 4-2 1-1 6-4 6-0 6-3 2-2 5-5"
DEAL_C_OPEN = ("6-6", "6-1@6-6", "6-2@6-6", "6-5@6-6")


def _deal_c_to_p0_unable() -> State:
    s = new(3, DEAL_C, DEAL_C_BONE)
    assert legal(s) == {"6-6"}
    s = play(s, "6-6")
    assert legal(s) == {"6-1@6-6"}
    s = play(s, "6-1@6-6")
    assert legal(s) == {"6-2@6-6"}
    s = play(s, "6-2@6-6")
    assert legal(s) == {"6-5@6-6"}
    s = play(s, "6-5@6-6")
    for seat in (1, 2, 0, 1):
        assert (s.actor, legal(s)) == (seat, {"draw"})
        s = play(s, "draw")
        assert (s.actor, legal(s)) == (seat, {"pass"})
        s = play(s, "pass")
    assert (s.actor, legal(s)) == (2, {"draw"})
    s = play(s, "draw")
    assert legal(s) == {"1-1@6-1"}
    s = play(s, "1-1@6-1")
    return s


def test_5_2_08_drawn_playable_tile_must_be_played() -> None:
    s = _deal_c_to_p0_unable()
    assert s.actor == 0
    assert s.boneyard_size == 5
    assert (t("6-6"), 6) in {(e.at, e.value) for e in s.layout.ends} and s.is_unlocked(6)
    assert legal(s) == {"draw"}
    s, events = s.step(DRAW)
    assert [type(e) for e in events] == [Drew]
    assert events[0].tiles == (t("6-4"),)
    assert s.actor == 0
    assert s.boneyard_size == 4
    assert names(s.hand(0)) == ["0-0", "3-0", "3-3", "4-0", "4-4", "6-4"]
    assert legal(s) == {"6-4@6-6"}  # must be played at once: no pass, no second draw
    for move in ("pass", "draw"):
        with pytest.raises(IllegalActionError):
            bonepile.apply(s, move)
    s = play(s, "6-4@6-6")
    assert names(s.hand(0)) == ["0-0", "3-0", "3-3", "4-0", "4-4"]
    assert s.actor == 1


def test_5_2_08_drawn_unplayable_tile_means_pass() -> None:
    # P1 cannot play and draws 4-1 (boneyard 10 -> 9): unplayable, so pass, no second draw.
    s = play(new(3, DEAL_C, DEAL_C_BONE), *DEAL_C_OPEN)
    assert (s.actor, s.hand_size(1), s.boneyard_size) == (1, 5, 10)
    assert legal(s) == {"draw"}
    s = play(s, "draw")
    assert (s.actor, s.hand_size(1), s.boneyard_size) == (1, 6, 9)
    assert t("4-1") in s.hand(1)
    assert legal(s) == {"pass"}
    with pytest.raises(IllegalActionError):
        bonepile.apply(s, "draw")
    s, events = s.step(PASS)
    assert [type(e) for e in events] == [Passed]
    assert (s.actor, s.hand_size(1), s.boneyard_size) == (2, 6, 9)
    assert legal(s) == {"draw"}  # the next player may draw again


# --------------------------------------------------------------------------- 5.2.9 reserve

# Deal D (4 players): 6-6, 6-1, 6-2, 6-4; P0 and P1 cannot play and draw the two drawable
# tiles; P2 cannot play either while P3 still can (so the hand is not blocked).
DEAL_D = [
    "6-6 0-0 1-0 2-0 3-0 4-0",
    "6-1 3-3 2-1 3-1 4-1 5-1",
    "6-2 5-5 3-2 4-2 5-2 4-3",
    "6-4 6-5 6-0 6-3 1-1 2-2",
]
DEAL_D_BONE = "5-0 5-3 4-4 5-4"


def _deal_d_opened(options: dict[str, Any] | None = None) -> State:
    s = play(new(4, DEAL_D, DEAL_D_BONE, options), "6-6", "6-1@6-6", "6-2@6-6")
    assert s.actor == 3
    assert legal(s) == {"6-4@6-6", "6-5@6-6", "6-0@6-6", "6-3@6-6", "1-1@6-1", "2-2@6-2"}
    return play(s, "6-4@6-6")


def test_5_2_09_reserve_stops_the_draw() -> None:
    s = _deal_d_opened()
    assert (s.actor, legal(s)) == (0, {"draw"})
    s = play(s, "draw", "pass")
    assert (s.actor, legal(s), s.boneyard_size) == (1, {"draw"}, 3)
    s = play(s, "draw", "pass")
    assert (s.actor, s.boneyard_size) == (2, 2)
    assert legal(s) == {"pass"}
    with pytest.raises(IllegalActionError):
        bonepile.apply(s, "draw")
    before = s.hand(2)
    s = play(s, "pass")
    assert s.boneyard_size == 2
    assert s.hand(2) == before
    assert not s.is_over
    assert s.actor == 3
    assert legal(s) == {"6-5@6-6", "6-0@6-6", "6-3@6-6", "1-1@6-1", "2-2@6-2"}


# --------------------------------------------------------------------------- 5.2.10 two ways

DEAL_E = ["6-6 6-4 4-4 5-2 0-0 1-1 2-2 5-5", "6-3 3-3 4-3 1-0 2-0 2-1 5-0 5-1"]


def _deal_e_two_ways() -> State:
    s = new(2, DEAL_E)
    s = play(s, "6-6")
    assert legal(s) == {"6-3@6-6"}
    s = play(s, "6-3@6-6")
    assert legal(s) == {"6-4@6-6"}
    s = play(s, "6-4@6-6")
    assert legal(s) == {"3-3@6-3"}  # 4-3 cannot go on the locked 3 or 4
    s = play(s, "3-3@6-3")
    assert legal(s) == {"4-4@6-4"}
    return play(s, "4-4@6-4")


def test_5_2_10_two_placements_for_one_tile() -> None:
    s = _deal_e_two_ways()
    assert s.is_unlocked(3) and s.is_unlocked(4)
    assert legal(s) == {"4-3@3-3", "4-3@4-4"}
    a = play(s, "4-3@3-3")
    last = a.layout.placements[-1]
    assert (last.tile, last.at, last.inner, last.outer, last.seat) == (t("4-3"), t("3-3"), 3, 4, 1)
    assert (t("4-3"), 4) in {(e.at, e.value) for e in a.layout.ends}
    assert (ends_on(a, "3-3"), ends_on(a, "4-4"), ends_on(a, "4-3")) == ([3, 3], [4, 4, 4], [4])
    b = play(s, "4-3@4-4")
    last = b.layout.placements[-1]
    assert (last.tile, last.at, last.inner, last.outer, last.seat) == (t("4-3"), t("4-4"), 4, 3, 1)
    assert (t("4-3"), 3) in {(e.at, e.value) for e in b.layout.ends}
    assert (ends_on(b, "3-3"), ends_on(b, "4-4"), ends_on(b, "4-3")) == ([3, 3, 3], [4, 4], [3])
    assert a != b


# --------------------------------------------------------------------------- 5.2.11 block


@pytest.mark.parametrize("name", ["block_4p", "tie_3p", "block_3p"])
def test_5_2_11_block_is_detected_at_once(name: str) -> None:
    hand = HANDS[name]
    moves = hand.moves.split()
    before = play(hand.start(), *moves[:-1])
    assert not before.is_over
    assert before.boneyard_size == (3 if moves[-1] == "draw" else 2)
    end, events = before.step(bonepile.parse_action(moves[-1]))
    assert end.is_over
    assert end.result is not None and end.result.reason == "blocked"
    assert end.boneyard_size == 2
    assert end.actor is None
    assert end.legal_actions() == ()
    assert isinstance(events[-1], HandEnded)
    assert layout_unlocked(end) == set(end.facts.to_json()["unlocked"])
    assert nobody_can_place(end)
    assert hands_of(end) == hand.final


def test_5_2_11_block_right_after_a_draw_before_the_pass() -> None:
    # docs/games/doubles.md, "How a round ends": the static check runs after a draw too.
    before = play(TIE_3P.start(), *TIE_3P.moves.split()[:-1])
    assert (before.actor, legal(before), before.boneyard_size) == (2, {"draw"}, 3)
    end, events = before.step(DRAW)
    assert [type(e) for e in events] == [Drew, HandEnded]
    assert t("2-0") in end.hand(2)
    assert end.is_over and end.boneyard_size == 2
    with pytest.raises(IllegalActionError):
        bonepile.apply(end, "pass")


# --------------------------------------------------------------------------- 5.2.12-14 scoring


def test_5_2_12_domino_scoring() -> None:
    end = DOMINO_19.end()
    assert hands_of(end) == ["", "3-1 5-3", "6-1"]
    assert [end.hand_pips(p) for p in range(3)] == [0, 12, 7]
    assert end.result is not None
    assert (end.result.reason, end.result.winners, end.result.points) == (
        "domino",
        (0,),
        (19, 0, 0),
    )
    assert end.scores == (19, 0, 0)


def test_5_2_13_block_scoring() -> None:
    end = BLOCK_3P.end()
    assert [end.hand_pips(p) for p in range(3)] == [5, 9, 14]
    assert end.result is not None
    assert (end.result.reason, end.result.winners, end.result.points) == (
        "blocked",
        (0,),
        (18, 0, 0),
    )


def test_5_2_13_block_scoring_opponents_total() -> None:
    end = BLOCK_3P.end({"round_scoring": "opponents_total"})
    assert end.result is not None
    assert (end.result.winners, end.result.points) == ((0,), (23, 0, 0))


def test_5_2_14_block_tie_no_score() -> None:
    end = TIE_3P.end()
    assert [end.hand_pips(p) for p in range(3)] == [5, 5, 9]
    assert end.result is not None
    assert (end.result.reason, end.result.winners, end.result.points) == ("blocked", (), (0, 0, 0))
    assert end.scores == (0, 0, 0)


def test_5_2_14_block_tie_lightest_tile() -> None:
    # P0 holds 4-1, P1 3-2: both 5 pips, 3-2 has the lower higher half -> P1 wins 5 + 9 - 5.
    end = TIE_3P.end({"blocked_tie": "lightest_tile"})
    assert end.result is not None
    assert (end.result.reason, end.result.winners, end.result.points) == (
        "blocked",
        (1,),
        (0, 9, 0),
    )


# --------------------------------------------------------------------------- 5.2.15 match end
# Only what one round shows is tested here: the round's points and the totals after it.
# Whether the match is over (first to reach target_score) is tested with matches.


def test_5_2_15_round_points_reach_the_target() -> None:
    end = DOMINO_10.end(scores_before=[92, 0, 0])
    assert hands_of(end) == ["", "4-2", "2-2"]
    assert end.result is not None
    assert (end.result.reason, end.result.winners, end.result.points) == (
        "domino",
        (0,),
        (10, 0, 0),
    )
    assert end.scores == (102, 0, 0)
    assert end.scores[0] >= 100


def test_5_2_15_round_leaving_everyone_below_the_target() -> None:
    end = DOMINO_10.end(scores_before=[40, 60, 89])
    assert end.scores == (50, 60, 89)
    assert max(end.scores) < 100


def test_5_2_15_next_deal_is_led_by_the_highest_double_again() -> None:
    # A later round (scores already on the board): P1 holds 6-6 and leads, not the leader
    # in points.
    s = new(3, LEADER_DEAL, scores_before=[92, 0, 10])
    assert s.scores == (92, 0, 10)
    assert (s.actor, legal(s)) == (1, {"6-6"})


# --------------------------------------------------------------------------- 5.2.16 spinner

DEAL_F = ["6-6 3-3 3-1 5-3 5-0 5-1 5-2 4-0", "6-3 3-0 3-2 4-3 4-1 4-2 2-1 1-0"]
DEAL_F_BONE = "0-0 1-1 2-0 2-2 4-4 5-4 5-5 6-0 6-1 6-2 6-4 6-5"


def test_5_2_16_spinner_side_reuse() -> None:
    s = play(new(2, DEAL_F, DEAL_F_BONE), "6-6")
    assert legal(s) == {"6-3@6-6"}
    s = play(s, "6-3@6-6")
    assert legal(s) == {"3-3@6-3"}
    s = play(s, "3-3@6-3")
    assert ends_on(s, "3-3") == [3, 3, 3]
    assert legal(s) == {"3-0@3-3", "3-2@3-3", "4-3@3-3"}
    s = play(s, "3-0@3-3")
    assert ends_on(s, "3-3") == [3, 3]
    assert legal(s) == {"3-1@3-3", "5-3@3-3"}
    s = play(s, "3-1@3-3")
    assert ends_on(s, "3-3") == [3]
    assert legal(s) == {"3-2@3-3", "4-3@3-3"}
    s = play(s, "3-2@3-3")
    assert ends_on(s, "3-3") == []
    assert [p.tile for p in s.layout.placements if p.at == t("3-3")] == tiles("3-0 3-1 3-2")
    # The parent plus three tiles: no more room on the 3-3.
    assert t("5-3") in s.hand(0)
    assert legal(s) == {"draw"}
    with pytest.raises(IllegalActionError):
        bonepile.apply(s, "5-3@3-3")


# --------------------------------------------------------------------------- options


def test_option_list_and_defaults() -> None:
    specs = {sp.name: sp.default for sp in GAME.option_specs()}
    assert specs == DEFAULTS


def test_option_hand_size_partial_object_keeps_the_other_defaults() -> None:
    options = {"hand_size": {"2": 7}}
    s = GAME.new(2, seed=5, options=options)
    assert [s.hand_size(p) for p in range(2)] == [7, 7]
    assert s.boneyard_size == 14
    s = GAME.new(3, seed=5, options=options)
    assert [s.hand_size(p) for p in range(3)] == [6, 6, 6]
    assert s.boneyard_size == 10
    s = GAME.new(4, seed=5, options={"hand_size": {"3": 5}})
    assert [s.hand_size(p) for p in range(4)] == [6, 6, 6, 6]
    s = GAME.new(3, seed=5, options={"hand_size": {"3": 5}})
    assert [s.hand_size(p) for p in range(3)] == [5, 5, 5]
    assert s.boneyard_size == 13
    s = GAME.new(2, seed=5)
    assert [s.hand_size(p) for p in range(2)] == [8, 8]


def test_option_hand_size_explicit_deal() -> None:
    hands = [list(FULL_SET[:7]), list(FULL_SET[7:14])]
    with pytest.raises(DealError):
        GAME.new(2, deal=(hands, list(FULL_SET[14:])))
    s = GAME.new(2, deal=(hands, list(FULL_SET[14:])), options={"hand_size": {"2": 7}})
    assert [s.hand_size(p) for p in range(2)] == [7, 7]
    assert s.boneyard_size == 14


def test_option_hand_size_one_tile_lead_is_a_domino() -> None:
    s = new(2, ["3-3", "6-5"], options={"hand_size": {"2": 1}})
    assert legal(s) == {"3-3"}
    s = play(s, "3-3")
    assert s.result is not None
    assert (s.result.reason, s.result.winners, s.result.points) == ("domino", (0,), (11, 0))


@pytest.mark.parametrize("sides", [1, 2, 3, 4])
def test_option_spinner_sides(sides: int) -> None:
    s = play(new(2, DEAL_F, DEAL_F_BONE, {"spinner_sides": sides}), "6-6")
    assert ends_on(s, "6-6") == [6] * sides
    assert legal(s) == {"6-3@6-6"}
    s = play(s, "6-3@6-6")
    assert ends_on(s, "6-6") == [6] * (sides - 1)
    assert legal(s) == {"3-3@6-3"}
    s = play(s, "3-3@6-3")
    assert ends_on(s, "3-3") == [3] * (sides - 1)
    if sides > 1:
        assert legal(s) == {"3-0@3-3", "3-2@3-3", "4-3@3-3"}
    else:
        assert s.layout.ends == ()
        assert legal(s) == {"draw"}


def test_option_spinner_sides_one_blocks_after_a_dead_double() -> None:
    # One side: the 3-3 closes the only line. Nothing can ever be placed again; players
    # draw one tile a turn (P1 0-0 2-0 4-4 5-5 6-1, P0 1-1 2-2 5-4 6-0 6-2) until P0's draw
    # leaves 2 in the boneyard, which ends the hand at once.
    s = play(new(2, DEAL_F, DEAL_F_BONE, {"spinner_sides": 1}), "6-6", "6-3@6-6", "3-3@6-3")
    for _ in range(4):
        s = play(s, "draw", "pass", "draw", "pass")
    s = play(s, "draw", "pass")
    assert (s.actor, legal(s), s.boneyard_size) == (0, {"draw"}, 3)
    s = play(s, "draw")
    assert s.is_over and s.boneyard_size == 2
    assert hands_of(s) == [
        "1-1 2-2 3-1 4-0 5-0 5-1 5-2 5-3 5-4 6-0 6-2",
        "0-0 1-0 2-0 2-1 3-0 3-2 4-1 4-2 4-3 4-4 5-5 6-1",
    ]
    assert [s.hand_pips(p) for p in range(2)] == [63, 57]
    assert s.result is not None
    assert (s.result.reason, s.result.winners, s.result.points) == ("blocked", (1,), (0, 6))
    s2 = play(
        new(2, DEAL_F, DEAL_F_BONE, {"spinner_sides": 1, "count_boneyard": True}),
        *(str(a) for a in s.moves),
    )
    assert s2.result is not None
    assert s2.result.points == (0, 6 + 10 + 11)  # the reserve: 6-4 and 6-5


def test_option_draw_when_unable_until_playable() -> None:
    s = play(new(3, DEAL_C, DEAL_C_BONE, {"draw_when_unable": "until_playable"}), *DEAL_C_OPEN)
    for _ in range(4):
        assert (s.actor, legal(s)) == (1, {"draw"})
        s = play(s, "draw")
    assert (s.actor, legal(s)) == (1, {"draw"})
    s = play(s, "draw")
    assert s.boneyard_size == 5
    assert names(s.hand(1)) == [
        "1-0",
        "1-1",
        "2-0",
        "2-1",
        "3-1",
        "3-2",
        "4-0",
        "4-1",
        "4-2",
        "5-4",
    ]
    assert (s.actor, legal(s)) == (1, {"1-1@6-1"})
    s = play(s, "1-1@6-1")
    assert s.actor == 2


def test_option_draw_when_unable_one_is_the_default() -> None:
    s = play(new(3, DEAL_C, DEAL_C_BONE, {"draw_when_unable": "one"}), *DEAL_C_OPEN, "draw")
    assert (s.actor, legal(s), s.boneyard_size) == (1, {"pass"}, 9)


def test_option_draw_until_playable_stops_at_the_reserve() -> None:
    # With 7 tiles reserved P1 draws 4-1, 5-4 and 4-0 and must stop; 1-1 stays in the
    # boneyard, so nobody can place any more: the hand is blocked right after that draw.
    options = {"draw_when_unable": "until_playable", "boneyard_reserve": 7}
    s = play(new(3, DEAL_C, DEAL_C_BONE, options), *DEAL_C_OPEN, "draw", "draw")
    assert (s.actor, legal(s), s.boneyard_size) == (1, {"draw"}, 8)
    s = play(s, "draw")
    assert s.boneyard_size == 7
    assert s.is_over
    assert hands_of(s) == [
        "0-0 3-0 3-3 4-4",
        "1-0 2-0 2-1 3-1 3-2 4-0 4-1 5-4",
        "4-3 5-0 5-1 5-2 5-3",
    ]
    assert [s.hand_pips(p) for p in range(3)] == [17, 33, 33]
    assert s.result is not None
    assert (s.result.reason, s.result.winners, s.result.points) == ("blocked", (0,), (49, 0, 0))


@pytest.mark.parametrize(
    ("reserve", "p0", "p1", "p2"),
    [
        (0, "draw", "draw", "draw"),
        (1, "draw", "draw", "draw"),
        (2, "draw", "draw", "pass"),
        (3, "draw", "pass", "pass"),
        (4, "pass", "pass", "pass"),
    ],
)
def test_option_boneyard_reserve(reserve: int, p0: str, p1: str, p2: str) -> None:
    s = _deal_d_opened({"boneyard_reserve": reserve})
    for seat, want in ((0, p0), (1, p1)):
        assert (s.actor, legal(s)) == (seat, {want})
        s = play(s, want)
        if want == "draw":  # 5-0 and 5-3 are unplayable
            assert legal(s) == {"pass"}
            s = play(s, "pass")
    assert (s.actor, legal(s)) == (2, {p2})
    if p2 == "draw":
        s = play(s, "draw")  # 4-4, onto the locked 4 of 6-4
        assert legal(s) == {"4-4@6-4"}
        assert s.boneyard_size == 1
    else:
        s = play(s, "pass")
        assert s.actor == 3 and not s.is_over


@pytest.mark.parametrize(
    ("hand", "scoring", "points"),
    [
        ("block_4p", "opponents_minus_own", (18, 0, 0, 0)),
        ("block_4p", "opponents_total", (20, 0, 0, 0)),
        ("block_4p", "all_hands_total", (22, 0, 0, 0)),
        ("block_3p", "opponents_minus_own", (18, 0, 0)),
        ("block_3p", "opponents_total", (23, 0, 0)),
        ("block_3p", "all_hands_total", (28, 0, 0)),
        ("domino_19", "opponents_minus_own", (19, 0, 0)),
        ("domino_19", "opponents_total", (19, 0, 0)),
        ("domino_19", "all_hands_total", (19, 0, 0)),
    ],
)
def test_option_round_scoring(hand: str, scoring: str, points: tuple[int, ...]) -> None:
    end = HANDS[hand].end({"round_scoring": scoring})
    assert end.result is not None
    assert end.result.winners == (0,)
    assert end.result.points == points


@pytest.mark.parametrize(
    ("options", "winners", "points"),
    [
        ({}, (), (0, 0, 0)),
        ({"blocked_tie": "no_score"}, (), (0, 0, 0)),
        ({"blocked_tie": "no_score", "count_boneyard": True}, (), (0, 0, 0)),
        ({"blocked_tie": "lightest_tile"}, (1,), (0, 9, 0)),
        ({"blocked_tie": "lightest_tile", "round_scoring": "opponents_total"}, (1,), (0, 14, 0)),
        ({"blocked_tie": "lightest_tile", "round_scoring": "all_hands_total"}, (1,), (0, 19, 0)),
        ({"blocked_tie": "lightest_tile", "count_boneyard": True}, (1,), (0, 19, 0)),
    ],
)
def test_option_blocked_tie(
    options: dict[str, Any], winners: tuple[int, ...], points: tuple[int, ...]
) -> None:
    end = TIE_3P.end(options)
    assert end.result is not None
    assert (end.result.reason, end.result.winners, end.result.points) == (
        "blocked",
        winners,
        points,
    )


@pytest.mark.parametrize(
    ("hand", "options", "points"),
    [
        ("block_4p", {}, (18, 0, 0, 0)),
        ("block_4p", {"count_boneyard": False}, (18, 0, 0, 0)),
        ("block_4p", {"count_boneyard": True}, (38, 0, 0, 0)),
        ("block_4p", {"count_boneyard": True, "round_scoring": "opponents_total"}, (40, 0, 0, 0)),
        ("domino_19", {"count_boneyard": True}, (65, 0, 0)),
        ("domino_10", {"count_boneyard": True}, (10 + 70, 0, 0)),
    ],
)
def test_option_count_boneyard(hand: str, options: dict[str, Any], points: tuple) -> None:
    end = HANDS[hand].end(options)
    assert end.result is not None
    assert end.result.points == points


@pytest.mark.parametrize(
    "options",
    [
        {"target_score": 1},
        {"target_score": 10**6},
        {"round_leader": "previous_winner"},
        {"round_leader": "highest_double", "target_score": 50},
    ],
)
@pytest.mark.parametrize("name", ["block_3p", "domino_10"])
def test_options_between_hands_change_nothing_inside_one(
    options: dict[str, Any], name: str
) -> None:
    hand = HANDS[name]
    a = hand.start(scores_before=[95, 3, 0])
    b = hand.start(options, scores_before=[95, 3, 0])
    for opt, value in options.items():
        assert getattr(b.options, opt) == value
    for m in hand.moves.split():
        assert (a.actor, legal(a)) == (b.actor, legal(b))
        a, b = bonepile.apply(a, m), bonepile.apply(b, m)
    assert a.result == b.result
    assert a.scores == b.scores


def test_option_round_leader_does_not_change_the_first_leader() -> None:
    for options in ({"round_leader": "previous_winner"}, {"round_leader": "highest_double"}):
        s = new(3, LEADER_DEAL, options=options, scores_before=[30, 0, 12])
        assert (s.actor, legal(s)) == (1, {"6-6"})


@pytest.mark.parametrize(
    "options",
    [
        {"no_such_option": 1},
        {"spinnersides": 4},
        {"spinner_sides": 0},
        {"spinner_sides": 5},
        {"spinner_sides": "4"},
        {"spinner_sides": 4.0},
        {"spinner_sides": True},
        {"spinner_sides": None},
        {"boneyard_reserve": -1},
        {"boneyard_reserve": "2"},
        {"draw_when_unable": "two"},
        {"draw_when_unable": 1},
        {"round_scoring": "total"},
        {"round_scoring": None},
        {"blocked_tie": "shared"},
        {"count_boneyard": 1},
        {"count_boneyard": "true"},
        {"target_score": 0},
        {"target_score": -100},
        {"target_score": "100"},
        {"target_score": None},
        {"round_leader": "winner"},
        {"round_leader": 0},
        {"hand_size": {"5": 6}},
        {"hand_size": {"1": 6}},
        {"hand_size": {"2": 0}},
        {"hand_size": {"2": "8"}},
        {"hand_size": {"2": 7.5}},
        {"hand_size": 8},
        {"hand_size": [8, 6, 6]},
        {"hand_size": {"2": 15}},
    ],
)
def test_option_validation(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        GAME.new(2, seed=1, options=options)


def test_option_validation_hand_size_needs_enough_tiles() -> None:
    with pytest.raises(OptionError):
        GAME.new(4, seed=1, options={"hand_size": {"4": 8}})
    with pytest.raises(OptionError):
        GAME.new(3, seed=1, options={"hand_size": {"3": 10}})
    s = GAME.new(2, seed=1, options={"hand_size": {"4": 8, "2": 14}})  # 2 x 14 = 28 fits
    assert s.boneyard_size == 0
    s = GAME.new(4, seed=1, options={"hand_size": {"4": 7}})
    assert s.boneyard_size == 0


@pytest.mark.parametrize("players", [0, 1, 5, 8, -2])
def test_player_count_validation(players: int) -> None:
    with pytest.raises(OptionError):
        GAME.new(players, seed=1)


def test_options_in_records_are_validated() -> None:
    for options in ({"spinner_sides": 9}, {"hand_size": {"5": 6}}, {"nope": True}):
        with pytest.raises(RecordError):
            read_record(DOMINO_19.record(options))


# --------------------------------------------------------------------------- deals and records

NO_DOUBLE_DEALS = {
    2: (
        ["1-0 2-0 2-1 3-0 3-1 3-2 4-0 4-1", "4-2 4-3 5-0 5-1 5-2 5-3 5-4 6-0"],
        "0-0 1-1 2-2 3-3 4-4 5-5 6-6 6-1 6-2 6-3 6-4 6-5",
    ),
    3: (
        ["1-0 2-0 2-1 3-0 3-1 3-2", "4-0 4-1 4-2 4-3 5-0 5-1", "5-2 5-3 5-4 6-0 6-1 6-2"],
        "0-0 1-1 2-2 3-3 4-4 5-5 6-6 6-3 6-4 6-5",
    ),
}


@pytest.mark.parametrize("players", [2, 3])
def test_explicit_deal_without_doubles_is_refused(players: int) -> None:
    hands, bone = NO_DOUBLE_DEALS[players]
    with pytest.raises(DealError):
        new(players, hands, bone)


@pytest.mark.parametrize("players", [2, 3])
def test_record_with_a_deal_without_doubles_is_refused(players: int) -> None:
    hands, bone = NO_DOUBLE_DEALS[players]
    rec = {
        "format": "bonepile-record/1",
        "game": "doubles",
        "players": players,
        "deal": {"hands": [h.split() for h in hands], "boneyard": bone.split()},
        "moves": [],
    }
    with pytest.raises(RecordError) as info:
        read_record(rec)
    message = str(info.value)
    assert "deal" in message
    assert "\n" not in message


def test_a_single_double_anywhere_in_the_hands_is_enough() -> None:
    # Swap 0-0 into the last hand: that player leads it.
    s = new(3, ["1-0 2-0 2-1 3-0 3-1 3-2", "4-0 4-1 4-2 4-3 5-0 5-1", "5-2 5-3 5-4 6-0 6-1 0-0"])
    assert (s.actor, legal(s)) == (2, {"0-0"})


@pytest.mark.parametrize("name", sorted(HANDS))
def test_records_replay_the_recorded_hands(name: str) -> None:
    hand = HANDS[name]
    s = read_record(hand.record())
    assert hands_of(s) == hand.final
    assert s.result == hand.end().result


def test_record_round_trip_keeps_the_deal_and_the_options() -> None:
    options = {"count_boneyard": True, "round_scoring": "opponents_total", "target_score": 61}
    end = DOMINO_19.end(options)
    rec = json.loads(dump_record(end))
    assert rec["options"] == options
    assert rec["deal"]["hands"] == [h.split() for h in DOMINO_19.hands]
    assert rec["moves"] == DOMINO_19.moves.split()
    again = read_record(rec)
    assert again == end
    assert again.result is not None
    assert again.result.points == (19 + 46, 0, 0)


def test_seeded_record_round_trip_after_a_redeal() -> None:
    s = GAME.new(2, seed=3023)
    rec = json.loads(dump_record(s))
    assert rec["seed"] == 3023 and "deal" not in rec
    again = read_record(rec)
    assert hands_of(again) == hands_of(s)
    assert again.boneyard == s.boneyard


def test_record_with_an_illegal_move_names_it() -> None:
    rec = DOMINO_19.record()
    rec["moves"] = ["6-6", "6-1@6-6"]  # P1 does not hold 6-1
    with pytest.raises(RecordError) as info:
        read_record(rec)
    assert "moves[1]" in str(info.value)


# --------------------------------------------------------------------------- rendering


def test_render_shows_unlocked_numbers_and_the_tree() -> None:
    s = play(new(2, DEAL_F, DEAL_F_BONE), "6-6", "6-3@6-6", "3-3@6-3", "3-0@3-3")
    text = render_state(s)
    lines = text.splitlines()
    assert "unlocked numbers: 3, 6" in text
    # 6-3 hangs off the 6-6, the 3-3 off the 6-3, the 3-0 off the 3-3: one chain, with the
    # 3-3 spinner in its middle showing its two free sides.
    chain = [line for line in lines if "6|3" in line]
    assert len(chain) == 1
    assert "6|3 3|3(+2) 3|0" in chain[0]
    assert "open 0" in chain[0]
    assert any("3 empty sides" in line and "6" in line for line in lines)
    assert "P0 to act" in text


def test_render_shows_branches_of_a_spinner() -> None:
    s = play(new(2, DEAL_F, DEAL_F_BONE), "6-6", "6-3@6-6", "3-3@6-3", "3-0@3-3", "3-1@3-3")
    lines = render_state(s).splitlines()
    assert "unlocked numbers: 3, 6" in "\n".join(lines)
    (trunk,) = [i for i, line in enumerate(lines) if "6|3" in line]
    assert "3|3" in lines[trunk] and "(+" not in lines[trunk]
    kids = [i for i, line in enumerate(lines) if "3|0" in line or "3|1" in line]
    assert len(kids) == 2 and all(i > trunk for i in kids)
    indent = len(lines[trunk]) - len(lines[trunk].lstrip())
    assert all(len(lines[i]) - len(lines[i].lstrip()) > indent for i in kids)


def test_render_before_the_lead_and_after_the_end() -> None:
    s = new(3, LEADER_DEAL)
    text = render_state(s)
    assert "unlocked numbers: none" in text
    end = BLOCK_3P.end()
    text = render_state(end)
    assert "unlocked numbers: 0, 1, 2, 3, 6" in text
    assert "blocked" in text


# --------------------------------------------------------------------------- cross-check

REF_OPTIONS = [
    {},
    {"spinner_sides": 1},
    {"spinner_sides": 2, "boneyard_reserve": 0},
    {"spinner_sides": 3, "draw_when_unable": "until_playable"},
    {"draw_when_unable": "until_playable", "boneyard_reserve": 5},
    {"hand_size": {"2": 4, "3": 3, "4": 2}, "blocked_tie": "lightest_tile"},
    {"round_scoring": "opponents_total", "count_boneyard": True, "spinner_sides": 2},
    {"round_scoring": "all_hands_total", "blocked_tie": "lightest_tile", "spinner_sides": 1},
]


@pytest.mark.parametrize("options", REF_OPTIONS, ids=lambda o: ",".join(o) or "defaults")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_hands_match_an_independent_model(players: int, options: dict[str, Any]) -> None:
    rng = random.Random(players * 1000 + len(options))
    for seed in range(12):
        s = GAME.new(players, seed=seed, options=options)
        ref = Ref(
            players,
            [list(s.hand(p)) for p in range(players)],
            list(s.boneyard),
            options,
        )
        while not s.is_over:
            want = ref.legal()
            assert legal(s) == want
            assert s.actor == ref.actor
            move = sorted(want)[rng.randrange(len(want))]
            s = bonepile.apply(s, move)
            ref.apply(move)
        assert ref.result is not None and s.result is not None
        assert (s.result.reason, s.result.winners, s.result.points) == ref.result
        assert [set(s.hand(p)) for p in range(players)] == ref.hands
