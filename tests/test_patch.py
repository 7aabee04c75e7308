"""Patches between JSON documents (what a socket sends after the first state): applying the
difference of two documents to the first gives the second, exactly, without changing the
first; real tables' successive states make short patches."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bonepile.server.tables.patch import apply, diff
from bonepile.server.tables.room import new_config, open_room

# a field of a state keeps its type (a flag never becomes the number 1), and values compare as
# Python compares them (True == 1, 1 == 1.0), so the documents mix no such look-alikes
scalars = (
    st.none()
    | st.integers(-5, 5)
    | st.floats(-2, 2).filter(lambda x: x != int(x))
    | st.text(max_size=3)
)
keys = st.sampled_from(["a", "b", "c", "view", "history", "0"])
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=25,
)


def exact(doc: Any) -> str:
    """A document as text that tells 1 from 1.0 from true."""
    return json.dumps(doc, sort_keys=True)


@settings(max_examples=400, deadline=None)
@given(documents, documents)
def test_a_patch_turns_one_document_into_the_other_and_leaves_it_alone(old: Any, new: Any) -> None:
    before = exact(old)
    ops = diff(old, new)
    assert exact(apply(old, json.loads(json.dumps(ops)))) == exact(new)
    assert exact(old) == before
    assert (ops == []) == (exact(old) == exact(new))


@settings(max_examples=200, deadline=None)
@given(st.lists(documents, min_size=1, max_size=6), st.lists(documents, max_size=4))
def test_a_grown_list_is_sent_as_its_new_items(start: list[Any], more: list[Any]) -> None:
    old = {"history": start}
    new = {"history": [*start, *more]}
    ops = diff(old, new)
    assert ops == ([["+", ["history"], more]] if more else [])


@pytest.mark.parametrize(
    "op",
    [["=", ["a", "b"], 1], ["+", ["a"], [1]], ["=", ["list", 9], 0], ["?", [], 1], "nonsense",
     ["-", [0]]],
)  # fmt: skip
def test_an_operation_that_does_not_fit_is_refused(op: Any) -> None:
    doc = {"a": 1, "list": [1, 2]}
    with pytest.raises(ValueError):
        apply(doc, [op])
    assert doc == {"a": 1, "list": [1, 2]}


@pytest.mark.parametrize(
    ("game", "players"), [("block", 2), ("super_dominoes", 4), ("doubles", 3), ("double_double", 2)]
)
def test_the_states_of_a_real_table_patch_exactly_and_briefly(game: str, players: int) -> None:
    # a fixed deal: how briefly a hand patches depends on how long it runs
    config = replace(new_config(game, players, {}, ["random"] * players, match=False), seed=11)
    room = open_room("t", config, 0.0)
    rng = random.Random(7)
    seats: list[int | None] = [0, None]
    last: dict[int | None, dict[str, Any]] = {}
    whole = patched = 0
    while True:
        for seat in seats:
            snap = room.snapshot(seat, 0.0)
            if seat in last:
                ops = diff(last[seat], snap)
                assert exact(apply(copy.deepcopy(last[seat]), ops)) == exact(snap)
                whole += len(json.dumps(snap))
                patched += len(json.dumps(ops))
            last[seat] = snap
        turn = room.bot_turn(0.0)
        if turn is None:
            break
        room.bot_move(turn, rng.choice(turn.view.legal), 0.0)
    assert last[0]["view"]["result"] is not None
    assert whole and patched < whole / 4, (patched, whole)


def test_connections_sent_different_states_get_each_its_own_patch_in_a_broadcast() -> None:
    """Within one broadcast a patch is made once per pair of states: a spectator whose last
    state differs from the others' (one more move in its history) is patched from its own."""
    from bonepile.server.tables.live import Connection, Shared

    async def nothing(_: dict[str, Any]) -> None:
        return None

    older = {"v": 1, "history": ["a"], "watchers": 1}
    newer = {"v": 2, "history": ["a", "b"], "watchers": 1}
    now = {"v": 3, "history": ["a", "b", "c"], "watchers": 2}
    conns = [Connection(nothing, None, patches=True) for _ in range(3)]
    for conn, last in zip(conns, (older, older, newer), strict=True):
        conn.message(last)
    shared = Shared()
    sent = [conn.message(now, shared) for conn in conns]
    lasts = (older, older, newer)
    assert [apply(last, m["ops"]) for last, m in zip(lasts, sent, strict=True)] == [now] * 3
    assert sent[0]["ops"] is sent[1]["ops"]  # made once for the two that had the same state
    assert sent[2]["ops"] != sent[0]["ops"]
