"""Match records, format ``bonepile-match/1``: a match as the list of its hand records.

```json
{"format": "bonepile-match/1", "game": "block", "players": 2, "options": {}, "seed": 7,
 "hands": [{"format": "bonepile-record/1", ...}, ...], "totals": [104, 38]}
```

Every entry of ``hands`` is a one-hand record (``bonepile-record/1``) with the match totals
before it as ``scores_before`` and, from the second hand on, the ``leader`` the game's
next-hand rule named. An entry may leave out ``game``, ``players`` and ``options``, which it
then takes from the match; when it gives them they must agree. :func:`read_match` checks that
the hands follow each other as the rules say (totals carried over, the right leader, no hand
after the end); ``totals`` (written by the program) must agree with the hands when present;
``result`` is written by the program and ignored when read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bonepile.errors import BonepileError, RecordError, shown
from bonepile.files import write_text_atomic
from bonepile.games import get_game
from bonepile.match import Match, match_of
from bonepile.options import non_default_options
from bonepile.record import (
    FORMAT,
    check_players,
    check_seed,
    headers_ok,
    parse_json,
    read_record,
    read_text,
    record_of,
    replay_moves,
    start_of,
)
from bonepile.state import State

MATCH_FORMAT = "bonepile-match/1"
"""The format tag of a match record."""

MATCH_KEYS = (
    "format",
    "game",
    "players",
    "options",
    "seed",
    "hands",
    "totals",
    "headers",
    "result",
)
"""Every top-level key a match record may have."""

_INHERITED = ("game", "players", "options")


def _fail(where: str, why: str) -> RecordError:
    return RecordError(f"match: {where}: {why}" if where else f"match: {why}")


def read_match(source: str | bytes | Mapping[str, Any]) -> Match:
    """Validate a match record (JSON text or a parsed object) and replay every hand."""
    data = parse_json(source) if isinstance(source, str | bytes) else source
    if not isinstance(data, Mapping):
        raise _fail("", f"expected a JSON object at the top level, got {shown(data)}")
    for key in data:
        if key not in MATCH_KEYS:
            raise _fail("", f"unknown key {shown(key)} (allowed: {', '.join(MATCH_KEYS)})")
    if data.get("format") != MATCH_FORMAT:
        got = "missing" if "format" not in data else f"got {shown(data['format'])}"
        raise _fail("format", f"expected {json.dumps(MATCH_FORMAT)}, {got}")
    for key in _INHERITED:
        if key not in data:
            raise _fail(key, "missing")
    try:
        game = get_game(data["game"], aliases=False)
    except BonepileError as e:
        raise _fail("game", str(e)) from None
    players = check_players(data["players"], _fail)
    options_in = data["options"]
    if not isinstance(options_in, Mapping):
        raise _fail("options", f"must be an object, got {shown(options_in)}")
    try:
        opts = game.make_options(options_in)
        game.check_players(players, opts)
    except BonepileError as e:
        raise _fail("options", str(e)) from None
    seed = check_seed(data.get("seed", 0), "seed", _fail)
    if "headers" in data and not headers_ok(data["headers"]):
        raise _fail("headers", "must be an object of strings")
    hands_in = data.get("hands")
    if not isinstance(hands_in, list) or not hands_in:
        raise _fail("hands", "must be a non-empty list of hand records")

    hands: list[State[Any]] = []
    for i, entry in enumerate(hands_in):
        where = f"hands[{i}]"
        if not isinstance(entry, Mapping):
            raise _fail(where, f"must be a hand record object, got {shown(entry)}")
        if hands:
            partial = match_of(hands, seed)
            if partial.is_over:
                raise _fail(where, "the match was already over after the hand before")
        record = {**{k: data[k] for k in _INHERITED}, **entry}
        if record.get("game") != game.name or record.get("players") != players:
            raise _fail(where, "game and players must be those of the match")
        try:
            state, moves = start_of(record)
        except RecordError as e:
            raise _fail(where, str(e).removeprefix("record: ")) from None
        if state.options != opts:
            raise _fail(f"{where}.options", "must be those of the match")
        expect_before = hands[-1].scores if hands else (0,) * players
        if state.scores_before != expect_before:
            raise _fail(
                f"{where}.scores_before",
                f"must be the totals after the hands before, {list(expect_before)}",
            )
        expect_leader = game.next_leader(hands[-1]) if hands else None
        if state.leader != expect_leader:
            want = "absent" if expect_leader is None else str(expect_leader)
            raise _fail(
                f"{where}.leader",
                f"must be {want} by the next-hand rule, got {shown(state.leader)}",
            )
        try:
            state = replay_moves(state, moves)
        except RecordError as e:
            raise _fail(where, str(e).removeprefix("record: ")) from None
        if i < len(hands_in) - 1 and not state.is_over:
            raise _fail(where, "a hand before the last must be played to its end")
        hands.append(state)
    match = match_of(hands, seed)
    if "totals" in data:
        totals = data["totals"]
        if totals != list(match.totals):
            raise _fail("totals", f"{shown(totals)} disagrees with the hands: {list(match.totals)}")
    return match


def match_record_of(match: Match, headers: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The record of ``match`` (every hand in full, so each can be replayed on its own)."""
    rec: dict[str, Any] = {
        "format": MATCH_FORMAT,
        "game": match.game.name,
        "players": match.players,
        "options": non_default_options(match.options),
        "seed": match.seed,
    }
    if headers:
        rec["headers"] = dict(headers)
    rec["hands"] = [record_of(h) for h in match.hands]
    rec["totals"] = list(match.totals)
    rec["result"] = {"over": match.is_over, "winners": list(match.winners)}
    return rec


def dump_match(match: Match, headers: Mapping[str, str] | None = None) -> str:
    """The record of ``match`` as JSON text."""
    return json.dumps(match_record_of(match, headers), indent=1)


def save_match(match: Match, path: str | Path, headers: Mapping[str, str] | None = None) -> None:
    """Write the record of ``match`` to ``path``, atomically: on an error (an
    :class:`OSError`) a file already at ``path`` is left as it was."""
    write_text_atomic(path, dump_match(match, headers) + "\n")


def read_any(source: str | bytes | Mapping[str, Any]) -> State[Any] | Match:
    """A hand record gives its :class:`State`, a match record its :class:`Match`."""
    data = parse_json(source) if isinstance(source, str | bytes) else source
    if isinstance(data, Mapping) and data.get("format") == MATCH_FORMAT:
        return read_match(data)
    return read_record(data)


def load_any(path: str | Path) -> State[Any] | Match:
    """Read the hand or match record in file ``path``."""
    return read_any(read_text(path))


__all__ = [
    "FORMAT",
    "MATCH_FORMAT",
    "dump_match",
    "load_any",
    "match_record_of",
    "read_any",
    "read_match",
    "save_match",
]
