"""The compiled mask helpers agree with their plain definitions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bonepile.actions import LEAD_BY_INDEX
from bonepile.games.line import _highest_lead
from bonepile.masks import (
    bits,
    count,
    count_large,
    deal_masks,
    mask_pips,
    set_bits,
    shuffled,
    with_hand,
)
from bonepile.rules import attach_set, leads_of, points
from bonepile.tiles import SHORT_MASK, SUIT_LOW, SUIT_MASK, TILES

pytestmark = pytest.mark.engine

masks = st.integers(min_value=0, max_value=(1 << 190) - 1)


@given(masks)
def test_bits_count_and_pips_of_any_mask(mask: int) -> None:
    indices = [i for i in range(190) if mask >> i & 1]
    assert list(bits(mask)) == set_bits(mask) == indices
    assert count(mask) == len(indices) == mask.bit_count()
    assert mask_pips(mask) == sum(TILES[i].pips for i in indices)
    assert leads_of(mask) == tuple(LEAD_BY_INDEX[i] for i in indices)


@given(st.integers(min_value=0, max_value=(1 << 32) - 1))
def test_double_six_hands_pips_and_leads(mask: int) -> None:
    indices = [i for i in range(32) if mask >> i & 1]
    assert mask_pips(mask) == sum(TILES[i].pips for i in indices)
    assert leads_of(mask) == tuple(LEAD_BY_INDEX[i] for i in indices)


@given(st.integers(min_value=2, max_value=8), st.data(), st.integers(-500, 500))
def test_points_go_to_the_winners_only(players: int, data: st.DataObject, score: int) -> None:
    winners = data.draw(st.lists(st.integers(0, players - 1), min_size=1, max_size=2, unique=True))
    assert points(players, winners, score) == tuple(
        score if s in winners else 0 for s in range(players)
    )


@given(masks)
def test_large_masks_are_counted_alike(mask: int) -> None:
    assert count_large(mask) == count(mask) == mask.bit_count()


@given(st.lists(masks, min_size=1, max_size=6), st.data())
def test_with_hand_replaces_one_hand(hands: list[int], data: st.DataObject) -> None:
    seat = data.draw(st.integers(min_value=0, max_value=len(hands) - 1))
    hand = data.draw(masks)
    expected = list(hands)
    expected[seat] = hand
    assert with_hand(tuple(hands), seat, hand) == tuple(expected)


@given(st.integers(min_value=0, max_value=SHORT_MASK), st.integers(min_value=0, max_value=18))
def test_the_short_suit_tables_agree_on_short_hands(hand: int, value: int) -> None:
    assert hand & SUIT_LOW[value] == hand & SUIT_MASK[value]


@given(st.integers(min_value=1, max_value=190), st.integers(min_value=0, max_value=2**32))
def test_shuffled_is_a_permutation(n: int, seed: int) -> None:
    order = shuffled(n, random.Random(seed))
    assert sorted(order) == list(range(n))
    assert order == shuffled(n, random.Random(seed))


@given(st.permutations(list(range(28))), st.integers(min_value=2, max_value=4))
def test_deal_is_round_robin_from_seat_zero(order: list[int], players: int) -> None:
    hands = deal_masks(order, players, 7 if players < 4 else 5)
    per = 7 if players < 4 else 5
    for seat in range(players):
        assert set(bits(hands[seat])) == set(order[seat : players * per : players])


@given(st.lists(st.integers(min_value=0, max_value=(1 << 28) - 1), min_size=2, max_size=4))
def test_first_lead_is_the_highest_double_else_the_heaviest_tile(hands: list[int]) -> None:
    if not any(hands):
        return
    held = [(seat, t) for seat, h in enumerate(hands) for t in bits(h)]
    seat, t = max(held, key=lambda st: (TILES[st[1]].is_double, TILES[st[1]].pips, TILES[st[1]].hi))
    assert _highest_lead(hands) == (seat, t)


@given(st.integers(min_value=0, max_value=27), st.integers(min_value=0, max_value=(1 << 28) - 1))
def test_attach_set_names_each_tile_of_the_mask_on_the_anchor(u: int, m: int) -> None:
    acts = attach_set(u, m)
    assert [a.tile.index for a in acts] == list(bits(m))  # type: ignore[attr-defined]
    assert all(a.at is TILES[u] for a in acts)  # type: ignore[attr-defined]


@given(
    st.sampled_from([("block", 2), ("block", 4), ("draw", 3), ("super_dominoes", 4)]),
    st.randoms(use_true_random=False),
    st.sampled_from(["none", "duplicate", "twice", "drop", "foreign", "short_hand", "extra"]),
)
def test_an_explicit_deal_is_checked_as_check_deal_checks_it(
    game_players: tuple[str, int], rng: random.Random, fault: str
) -> None:
    """Game.new's quick test of a whole-set deal accepts exactly what check_deal accepts, with
    the same masks, and leaves every fault to check_deal's message."""
    from bonepile.errors import DealError
    from bonepile.games import get_game
    from bonepile.tiles import Tile, check_deal, mask_of

    name, players = game_players
    game = get_game(name)
    opts = game.make_options(None)
    size, max_pip = game.hand_size(players, opts), game.max_pip(opts)
    deck = list(game.deck(players, opts))
    rng.shuffle(deck)
    hands = [deck[i * size : (i + 1) * size] for i in range(players)]
    bone = deck[players * size :]
    where = hands[rng.randrange(players)]
    if fault == "duplicate":
        where[0] = hands[(hands.index(where) + 1) % players][0]
    elif fault == "twice":  # every tile dealt, one of them twice
        bone.append(where[0])
        where[0] = hands[(hands.index(where) + 1) % players][0]
    elif fault == "drop":  # a tile missing from the deal
        where.pop()
    elif fault == "foreign":
        where[0] = Tile(max_pip + 1, 0)
    elif fault == "short_hand":
        bone.append(where.pop())
    elif fault == "extra":  # a tile not in the set
        bone.append(Tile(max_pip + 1, max_pip + 1))
    try:
        check_deal(hands, bone, players=players, hand_size=size, max_pip=max_pip)
        expected: object = ([mask_of(h) for h in hands], [t.index for t in bone])
    except DealError as exc:
        expected = str(exc)
    try:
        got: object = game._check_deal(players, opts, (hands, bone))
    except DealError as exc:
        got = str(exc)
    assert got == expected
    assert (fault == "none") == isinstance(expected, tuple)


@given(st.lists(st.integers(min_value=0, max_value=(1 << 136) - 1), min_size=1, max_size=6))
def test_the_heaviest_hand_holds_the_heaviest_tile(hands: list[int]) -> None:
    from bonepile.games.super_dominoes import _heaviest_hand

    best, first = None, 0
    for seat, hand in enumerate(hands):
        for i in range(136):
            if hand >> i & 1 and (best is None or TILES[i].rank_key() > best):
                best, first = TILES[i].rank_key(), seat
    assert _heaviest_hand(hands) == first
