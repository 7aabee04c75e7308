"""The scene: where each tile goes on a screen, for every game, as pure functions.

Invariants over random hands of every game (property tests): tiles never overlap and stay
within the fold (its width, and its height when one is asked for), each tile touches its
parent with the matching halves, doubles lie across their line, each open end's box touches
its tile (unless drawn detached) and covers no tile and no other end, and a tile keeps its box
as the hand goes on (unless the whole layout refolds).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bonepile import apply, new_game
from bonepile.games import all_games, get_game
from bonepile.geometry import FAT_ARMS, MIN_WIDTH, EndBox, Scene, TileBox, scene
from bonepile.grid import BoardLayout
from bonepile.layout import Layout
from bonepile.state import State
from bonepile.view import view
from sizes import size

Box = tuple[float, float, float, float]

TREE_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "block": [{}, {"spinner": True}],
    "draw": [{}, {"spinner": True}],
    "super_dominoes": [{}, {"double_wild_on_13": False}, {"doubles_branch": True}],
    "doubles": [{}],
}


def box(b: TileBox | EndBox) -> Box:
    return (b.x, b.y, b.w, b.h)


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def touch(a: Box, b: Box) -> bool:
    if a[0] + a[2] == b[0] or b[0] + b[2] == a[0]:
        return min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) > 0
    if a[1] + a[3] == b[1] or b[1] + b[3] == a[1]:
        return min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) > 0
    return False


def halves(t: TileBox) -> list[tuple[Box, int]]:
    """The two halves of a tile's box with their pips (top/left first)."""
    if t.w >= t.h:
        w = t.w / 2
        return [((t.x, t.y, w, t.h), t.pips[0]), ((t.x + w, t.y, w, t.h), t.pips[1])]
    h = t.h / 2
    return [((t.x, t.y, t.w, h), t.pips[0]), ((t.x, t.y + h, t.w, h), t.pips[1])]


def check_scene(layout: Layout, sc: Scene) -> None:
    places = layout.placements
    assert len(sc.tiles) == len(places) and len(sc.ends) == len(layout.ends)
    assert [t.index for t in sc.tiles] == list(range(len(places)))
    assert [(e.anchor, e.slot, e.value) for e in sc.ends] == [
        (e.anchor, e.slot, e.value) for e in layout.ends
    ]
    for i, t in enumerate(sc.tiles):
        p = places[i]
        assert t.tile is p.tile and t.seat == p.seat and t.double == p.tile.is_double
        assert sorted(t.pips) == sorted((p.tile.hi, p.tile.lo))
        assert t.x >= 0 and t.x + t.w <= sc.width, f"tile {i} out of bounds"
        for other in sc.tiles[:i]:
            assert not overlap(box(t), box(other)), f"tiles {other.index} and {i} overlap"
        if p.parent is None:
            continue
        parent = sc.tiles[p.parent]
        # doubles across the line, others along it: a double's long side faces its parent
        if t.detached:
            continue
        assert touch(box(t), box(parent)), f"tile {i} does not touch its parent"
        mine = [pip for half, pip in halves(t) if touch(half, box(parent))]
        theirs = [pip for half, pip in halves(parent) if touch(half, box(t))]
        assert p.inner in mine, f"tile {i}: the touching half is not {p.inner}"
        assert p.joins in theirs, f"tile {i}: its parent's touching half is not {p.joins}"
        assert t.wild == (p.joins != p.inner)
        if p.tile.is_double:
            assert len(mine) == 2, f"double {i} is not across its line"
        else:
            assert len(mine) == 1
    for j, e in enumerate(sc.ends):
        if not e.detached:
            assert touch(box(e), box(sc.tiles[e.anchor])), "an end's box is not at its tile"
        # a whole tile's box, or where there is no room for one, the half next to the tile
        assert {e.w, e.h} in ({1, 2}, {1}) and e.dir in "ewns"
        assert e.x >= 0 and e.x + e.w <= sc.width, f"end {j} out of bounds"
        for t in sc.tiles:
            assert not overlap(box(e), box(t)), f"end {j} covers tile {t.index}"
        for other in sc.ends[:j]:
            assert not overlap(box(e), box(other)), f"ends {j} and {sc.ends.index(other)} overlap"
    x0, y0, x1, y1 = sc.box
    for b in [*sc.tiles, *sc.ends]:
        assert x0 <= b.x and b.x + b.w <= x1 and y0 <= b.y and b.y + b.h <= y1
        if sc.height is not None:  # the fold's height, centred on the starter's row
            assert -sc.height / 2 <= b.y and b.y + b.h <= sc.height / 2


def hand(game: str, options: dict[str, Any], seed: int) -> list[State[Any]]:
    """Every position of one random hand."""
    rng = random.Random(seed)
    g = get_game(game)
    low, high = g.player_range(g.make_options(options))
    s = new_game(game, rng.randint(low, min(high, 6)), seed=seed, options=options)
    out = [s]
    while not s.is_over:
        s = apply(s, rng.choice(s.legal_actions()))
        out.append(s)
    return out


TREES = [(g, o) for g, opts in TREE_OPTIONS.items() for o in opts]


@settings(max_examples=size(60, 300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(TREES),
    st.integers(0, 2**32),
    st.integers(13, 60),
    st.sampled_from([None, 0.4, 0.6, 1.0, 1.8, 2.2]),
)
@example(("super_dominoes", {"doubles_branch": True}), 291, 25, None)  # no room at any fold
@example(("doubles", {}), 161, 13, None)  # an end with room only for its half next to the tile
@example(("super_dominoes", {}), 5, 13, 0.6)  # a landscape screen: the north and south arms fold
def test_every_position_of_a_hand_is_drawn_right_and_tiles_never_move(
    game_options: tuple[str, dict[str, Any]], seed: int, width: int, aspect: float | None
) -> None:
    """``aspect``: the screen's height over its width (``None``: no height given)."""
    game, options = game_options
    height = None if aspect is None else round(width * aspect)
    before: Scene | None = None
    for s in hand(game, options, seed):
        layout = view(s, None).layout
        assert isinstance(layout, Layout)
        sc = scene(layout, width=width, height=height)
        check_scene(layout, sc)
        json.dumps(sc.to_json())
        if before is not None and (before.width, before.height) == (sc.width, sc.height):
            for old, new in zip(before.tiles, sc.tiles, strict=False):
                assert box(old) == box(new), f"tile {old.index} moved"
        before = sc


def test_thousands_of_doubles_hands_keep_every_open_end_clear() -> None:
    """Doubles, whose every double opens three more ends, is where ends crowd: over 200 random
    hands (1,000 with ``--full``) of 2 to 4 players, at widths from 13 to 60 with and without a
    height, every open end of every position is clear of every tile and every other end (an end
    with no room next to its tile is drawn detached, apart from everything, and stays rare)."""
    positions = detached = 0
    hands = size(200, 1000)
    for seed in range(hands):
        rng = random.Random(seed)
        s = new_game("doubles", rng.randint(2, 4), seed=seed)
        width = rng.randint(13, 60)
        height = rng.choice([None, round(width * 0.6), round(width * 1.8)])
        while not s.is_over:
            layout = view(s, None).layout
            assert isinstance(layout, Layout)
            sc = scene(layout, width=width, height=height)
            check_scene(layout, sc)
            positions += 1
            detached += any(e.detached for e in sc.ends)
            s = apply(s, rng.choice(s.legal_actions()))
    assert positions > 20 * hands
    assert detached < positions * 0.03, (detached, positions)


def test_a_big_super_dominoes_table_folds_to_fit_a_landscape_screen() -> None:
    """Without a height the north and south arms run on (dozens of units); with the felt's
    height they fold, and the scene fits the screen's shape (refolded wider at most)."""
    tallest = 0.0
    for seed in range(60):
        states = hand("super_dominoes", {}, seed)
        layout = view(states[-1], None).layout
        assert isinstance(layout, Layout)
        free = scene(layout, width=45)
        tallest = max(tallest, free.box[3] - free.box[1])
        sc = scene(layout, width=45, height=21)
        check_scene(layout, sc)
        assert sc.height is not None
        assert sc.box[3] - sc.box[1] <= sc.height and sc.box[2] - sc.box[0] <= sc.width
        assert sc.height / sc.width == pytest.approx(21 / 45, abs=0.05)
    assert tallest > 30, "these hands are too small to show anything"


def test_a_line_turns_at_the_edges_east_arms_south_and_west_arms_north() -> None:
    states = hand("block", {}, 11)
    layout = view(states[-1], None).layout
    assert isinstance(layout, Layout)
    sc = scene(layout, width=MIN_WIDTH)
    check_scene(layout, sc)
    assert len(sc.tiles) > 8
    assert sc.box[3] - sc.box[1] > 3, "a long line at the narrowest width must fold"
    wide = scene(layout, width=200)
    assert wide.box[3] - wide.box[1] <= 2, "a line with room lies on one row"


def test_the_super_dominoes_starter_has_six_arms_in_the_documented_directions() -> None:
    for seed in range(200):
        states = hand("super_dominoes", {}, seed)
        layout = view(states[-1], None).layout
        assert isinstance(layout, Layout)
        if len(layout.children(layout.placements[0].tile)) == 6:
            break
    else:
        raise AssertionError("no hand with six arms")
    sc = scene(layout, width=60)
    root = sc.tiles[0]
    assert (root.w, root.h) == (3, 2)
    for p, t in zip(layout.placements, sc.tiles, strict=True):
        if p.parent != 0:
            continue
        direction = FAT_ARMS[p.slot or 0]
        cx, cy = t.x + t.w / 2, t.y + t.h / 2
        rx, ry = root.x + root.w / 2, root.y + root.h / 2
        expected = {"e": cx > rx + 1.5, "w": cx < rx - 1.5, "n": cy < ry - 1, "s": cy > ry + 1}
        assert expected[direction], f"arm {p.slot} does not go {direction}"


def test_a_double_played_wild_on_a_13_crosses_it() -> None:
    for seed in range(400):
        for s in hand("super_dominoes", {"double_wild_on_13": True}, seed):
            layout = view(s, None).layout
            assert isinstance(layout, Layout)
            wild = [p for p in layout.placements if p.joins is not None and p.joins != p.inner]
            if wild:
                sc = scene(layout, width=40)
                check_scene(layout, sc)
                i = layout.placements.index(wild[0])
                t = sc.tiles[i]
                assert t.wild and t.double and t.pips[0] == t.pips[1] == wild[0].inner
                assert wild[0].joins == 13
                return
    raise AssertionError("no wild double in 400 hands")


def test_the_board_scene_puts_tiles_on_their_cells() -> None:
    states = hand("double_double", {}, 3)
    layout = view(states[len(states) // 2], None).layout
    assert isinstance(layout, BoardLayout)
    sc = scene(layout)
    assert sc.family == "board" and sc.ends == ()
    assert sc.box == (0, 0, layout.board.cols, layout.board.rows)
    pips = layout.pips()
    for t, p in zip(sc.tiles, layout.placements, strict=True):
        assert {(t.y, t.x), (t.y + t.h - 1, t.x + t.w - 1)} == {p.cell1, p.cell2}
        cells = [(int(t.y), int(t.x)), (int(t.y + t.h - 1), int(t.x + t.w - 1))]
        assert [pips[c] for c in cells] == list(t.pips)
    for i, a in enumerate(sc.tiles):
        for b in sc.tiles[:i]:
            assert not overlap(box(a), box(b))


def test_an_empty_table_and_every_game_serialise() -> None:
    for g in all_games():
        low, _ = g.player_range(g.make_options())
        s = new_game(g.name, low, seed=1)
        data = scene(view(s, None).layout, width=30).to_json()
        assert set(data) == {"family", "width", "height", "box", "tiles", "ends"}
        assert data["tiles"] == [] or g.name == "double_double"


def _overlapping(ends: tuple[EndBox, ...]) -> list[tuple[EndBox, EndBox]]:
    return [
        (a, b)
        for i, a in enumerate(ends)
        for b in ends[i + 1 :]
        if a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h
    ]


def test_open_ends_of_a_crowded_doubles_tree_do_not_cover_each_other() -> None:
    """Two tap targets on top of each other would leave one of them unreachable: in this
    four-player Doubles hand (which used to put ends on ends from its tenth move on) every end
    finds a place of its own."""
    s = get_game("doubles").new(4, seed=0)
    rng = random.Random(0)
    ply = 0
    while not s.is_over and ply <= 18:
        if ply >= 9:
            ends = scene(view(s, 0).layout, width=40).ends
            assert len(ends) >= 3 and not _overlapping(ends), (ply, _overlapping(ends))
        s = s.apply(rng.choice(s.legal_actions()))
        ply += 1
    assert ply > 18
