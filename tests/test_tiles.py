"""Tiles, sets and multisets: the value layer under every game."""

from __future__ import annotations

import pickle

import pytest

from bonepile.errors import DealError, InvalidActionError
from bonepile.tiles import (
    TILES,
    Tile,
    bits,
    check_deal,
    mask_of,
    mask_pips,
    parse_tile,
    set_size,
    tile_multiset,
    tile_set,
)

pytestmark = pytest.mark.engine


def test_tiles_are_interned_and_normalised() -> None:
    assert Tile(4, 6) is Tile(6, 4)
    t = Tile(4, 6)
    assert (t.hi, t.lo, t.pips, t.is_double) == (6, 4, 10, False)
    assert pickle.loads(pickle.dumps(t)) is t
    with pytest.raises(AttributeError):
        t.hi = 3  # type: ignore[misc]


@pytest.mark.parametrize("bad", [(-1, 0), (19, 0), (3, 19)])
def test_tile_halves_are_range_checked(bad: tuple[int, int]) -> None:
    with pytest.raises(ValueError):
        Tile(*bad)


@pytest.mark.parametrize("text", ["x", "6-", "6-6-6", "100-1", "６-６", "6--6", ""])
def test_parse_tile_rejects_garbage(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_tile(text)


@pytest.mark.parametrize("n", [6, 9, 12, 15, 18])
def test_sets_have_the_right_size_and_pips(n: int) -> None:
    tiles = tile_set(n)
    assert len(tiles) == set_size(n) == (n + 1) * (n + 2) // 2
    assert len(set(tiles)) == len(tiles)
    assert sum(t.pips for t in tiles) == n * (n + 1) * (n + 2) // 2
    assert [t.index for t in tiles] == list(range(len(tiles)))


def test_double_15_has_136_tiles_and_2040_pips() -> None:
    tiles = tile_set(15)
    assert len(tiles) == 136 and sum(t.pips for t in tiles) == 2040
    assert sum(t.is_double for t in tiles) == 16


def test_masks_round_trip_and_count_pips() -> None:
    hand = [Tile(6, 6), Tile(5, 0), Tile(13, 2)]
    m = mask_of(hand)
    assert [TILES[i] for i in bits(m)] == sorted(hand)
    assert mask_pips(m) == 12 + 5 + 15


def test_multiset_repeats_every_tile() -> None:
    two = tile_multiset(6, 2)
    assert len(two) == 56
    assert all(two.count(t) == 2 for t in tile_set(6))


def _split(tiles: tuple[Tile, ...], players: int, size: int):  # type: ignore[no-untyped-def]
    hands = [list(tiles[i * size : (i + 1) * size]) for i in range(players)]
    return hands, list(tiles[players * size :])


def test_check_deal_accepts_exact_multisets() -> None:
    hands, bone = _split(tile_multiset(6, 2), 2, 3)
    check_deal(hands, bone, players=2, hand_size=3, max_pip=6, copies=2)


def test_check_deal_counts_copies() -> None:
    tiles = list(tile_multiset(6, 2))
    tiles[-1] = tiles[0]  # three copies of 0-0, one 6-6 missing
    hands, bone = _split(tuple(tiles), 2, 3)
    with pytest.raises(DealError, match="0-0 appears more than 2 times"):
        check_deal(hands, bone, players=2, hand_size=3, max_pip=6, copies=2)


def test_check_deal_reports_missing_foreign_and_sizes() -> None:
    hands, bone = _split(tile_set(6), 2, 7)
    with pytest.raises(DealError, match="missing: 6-6"):
        check_deal(hands, bone[:-1], players=2, hand_size=7, max_pip=6)
    with pytest.raises(DealError, match="7-0 is not in a double-6 set"):
        check_deal(hands, [*bone, Tile(7, 0)], players=2, hand_size=7, max_pip=6)
    with pytest.raises(DealError, match="hand 0 holds 6 tiles, expected 7"):
        check_deal(
            [hands[0][:-1], hands[1]], [hands[0][-1], *bone], players=2, hand_size=7, max_pip=6
        )
    with pytest.raises(DealError, match="3 hands for 2 players"):
        check_deal([*hands, []], bone, players=2, hand_size=7, max_pip=6)
