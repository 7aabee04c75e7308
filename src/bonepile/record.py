"""Game records, format ``bonepile-record/1`` (docs/records.md), and ``/2`` (with a leader).

:func:`read_record` validates a record and replays it, returning the position it reaches;
every problem is a :class:`~bonepile.errors.RecordError` whose one-line message names the field
or the move (index and text) and says why. :func:`record_of` writes a hand back out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bonepile.actions import Discard, parse_action
from bonepile.errors import BonepileError, InputFileError, RecordError, shown
from bonepile.files import MAX_FILE_BYTES, load_json_text, read_text_limited, write_text_atomic
from bonepile.games import Game, get_game
from bonepile.options import non_default_options
from bonepile.seeds import SEED_BITS
from bonepile.state import State
from bonepile.tiles import Tile, parse_tile

FORMAT = "bonepile-record/1"
"""The format tag of a one-hand record."""

FORMAT_LED = "bonepile-record/2"
"""``bonepile-record/1`` plus the optional ``leader`` key: a later hand of a match, whose first
player the match's next-hand rule named (docs/records.md). Written only when there is one."""

KEYS = (
    "format",
    "game",
    "players",
    "options",
    "deal",
    "seed",
    "moves",
    "board",
    "scores_before",
    "leader",
    "headers",
    "result",
)
"""Every top-level key a record may have."""

MAX_SCORE = 10**18
"""The largest ``scores_before`` entry (in absolute value) a record may hold."""

MAX_SEED = 2**SEED_BITS - 1
"""The largest seed a record may hold: a seed is an integer from 0 to ``2**63 - 1``, the same
rule as ``--seed`` on the command line (:data:`bonepile.seeds.SEED_BITS`)."""

MAX_MOVE_CHARS = 200
"""The longest move or tile text a record may hold (the longest real move has 13 characters;
the rest is room for spaces and brackets)."""

MAX_PLAYERS = 1000
"""No player count beyond this is even looked at (every game allows far fewer)."""


def _fail(where: str, why: str) -> RecordError:
    return RecordError(f"record: {where}: {why}" if where else f"record: {why}")


def parse_json(text: str | bytes) -> Any:
    """Parse record text as JSON, or raise :class:`RecordError` (also for a nest too deep for
    Python to read and for an integer of more than 4300 digits)."""
    try:
        return load_json_text(text)
    except InputFileError as e:
        raise _fail("", str(e)) from None


def check_int(value: Any, where: str, limit: int, fail: Callable[[str, str], BonepileError]) -> int:
    """``value`` if it is an integer from ``-limit`` to ``limit``, else ``fail(where, why)``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(where, f"must be an integer, got {shown(value)}")
    if not -limit <= value <= limit:
        raise fail(where, f"is out of range (at most {_bound(limit)} either side of 0)")
    return value


def _bound(limit: int) -> str:
    """A bound as written in messages: ``10**18``."""
    return {MAX_SCORE: "10**18"}.get(limit, f"{limit:,}")


def check_seed(value: Any, where: str, fail: Callable[[str, str], BonepileError]) -> int:
    """``value`` if it is a seed (an integer from 0 to :data:`MAX_SEED`, as ``--seed``
    takes), else ``fail(where, why)``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(where, f"must be an integer from 0 to 2**{SEED_BITS} - 1, got {shown(value)}")
    if not 0 <= value <= MAX_SEED:
        raise fail(
            where,
            f"is out of range: a seed is an integer from 0 to 2**{SEED_BITS} - 1 "
            f"(as for --seed), got {shown(value, 30)}",
        )
    return value


def check_players(value: Any, fail: Callable[[str, str], BonepileError]) -> int:
    """``value`` if it is an integer of plausible size for a player count (the game checks
    the exact range), else ``fail("players", why)``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail("players", f"must be an integer, got {shown(value)}")
    if not -MAX_PLAYERS <= value <= MAX_PLAYERS:
        raise fail("players", f"must be a player count, got {shown(value, 20)}")
    return value


def start_of(data: Any) -> tuple[State[Any], list[str]]:
    """Validate everything but the moves; return the dealt state and the move texts."""
    if not isinstance(data, Mapping):
        raise _fail("", f"expected a JSON object at the top level, got {shown(data)}")
    version = data.get("format")
    if version not in (FORMAT, FORMAT_LED):
        if "format" not in data:
            raise _fail("format", f"missing (expected {json.dumps(FORMAT)})")
        raise _fail("format", f"expected {json.dumps(FORMAT)}, got {shown(data['format'])}")
    allowed = KEYS if version == FORMAT_LED else tuple(k for k in KEYS if k != "leader")
    for key in data:
        if key not in allowed:
            hint = f" ({FORMAT_LED} has it)" if key == "leader" else ""
            raise _fail("", f"unknown key {shown(key)}{hint} (allowed: {', '.join(allowed)})")
    if "game" not in data:
        raise _fail("game", "missing")
    try:
        game = get_game(data["game"], aliases=False)
    except BonepileError as e:
        raise _fail("game", str(e)) from None
    if "players" not in data:
        raise _fail("players", "missing")
    players = check_players(data["players"], _fail)
    options_in = data.get("options", {})
    if not isinstance(options_in, Mapping):
        raise _fail("options", f"must be an object, got {shown(options_in)}")
    try:
        opts = game.make_options(options_in)
        game.check_players(players, opts)
    except BonepileError as e:
        raise _fail("options" if options_in else "players", str(e)) from None
    board = _check_board(game, data["board"]) if "board" in data else None
    scores_before = None
    if "scores_before" in data:
        sb = data["scores_before"]
        if (
            not isinstance(sb, list)
            or len(sb) != players
            or any(isinstance(x, bool) or not isinstance(x, int) for x in sb)
        ):
            raise _fail("scores_before", f"must be a list of {players} integers")
        scores_before = [
            check_int(x, f"scores_before[{i}]", MAX_SCORE, _fail) for i, x in enumerate(sb)
        ]
    if "headers" in data and not headers_ok(data["headers"]):
        raise _fail("headers", "must be an object of strings")
    leader = data.get("leader")
    if leader is not None and (
        isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < players
    ):
        raise _fail("leader", f"must be a seat from 0 to {players - 1}, got {shown(leader)}")
    has_deal, has_seed = "deal" in data, "seed" in data
    if has_deal == has_seed:
        raise _fail("", "give exactly one of deal and seed")
    seed = check_seed(data["seed"], "seed", _fail) if has_seed else None
    try:
        state = game.new(
            players,
            options=opts,
            seed=seed,
            deal=None if has_seed else _parse_deal(data["deal"], players),
            scores_before=scores_before,
            leader=leader,
            board=board,
        )
    except RecordError:
        raise
    except BonepileError as e:
        raise _fail("deal", str(e).removeprefix("deal: ")) from None
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise _fail("moves", f"must be a list of strings, got {shown(moves)}")
    for i, m in enumerate(moves):
        if not isinstance(m, str):
            raise _fail(f"moves[{i}]", f"must be a string, got {shown(m)}")
    return state, moves


def headers_ok(headers: Any) -> bool:
    """True when ``headers`` is an object of strings (the ``headers`` of a record)."""
    return isinstance(headers, Mapping) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in headers.items()
    )


def _check_board(game: Game[Any], board: Any) -> Any:
    """The board a record names (``"standard"``, another shipped name, or a board object)."""
    if not game.board_game:
        raise _fail("board", f"{game.name} is not played on a board")
    from bonepile.grid import BOARD_NAMES, load_board

    if isinstance(board, str) and board not in BOARD_NAMES:
        names = ", ".join(BOARD_NAMES)
        raise _fail("board", f"{shown(board)} is not a board name ({names}) or a board object")
    if not isinstance(board, str | Mapping):
        raise _fail("board", f"must be a board name or a board object, got {shown(board)}")
    try:
        return load_board(board)
    except BonepileError as e:
        raise _fail("board", str(e).removeprefix("board: ")) from None


def _parse_deal(deal: Any, players: int) -> tuple[list[list[Tile]], list[Tile]]:
    if not isinstance(deal, Mapping):
        raise _fail("deal", "must be an object with hands and boneyard")
    for key in deal:
        if key not in ("hands", "boneyard"):
            raise _fail("deal", f"unknown key {shown(key)} (allowed: hands, boneyard)")
    hands_in = deal.get("hands")
    bone_in = deal.get("boneyard", [])
    if not isinstance(hands_in, list) or any(not isinstance(h, list) for h in hands_in):
        raise _fail("deal.hands", "must be a list of lists of tiles")
    if not isinstance(bone_in, list):
        raise _fail("deal.boneyard", "must be a list of tiles")
    if len(hands_in) != players:
        raise _fail("deal.hands", f"has {len(hands_in)} hands for {players} players")
    hands = [
        [_tile(t, f"deal.hands[{i}][{j}]") for j, t in enumerate(h)] for i, h in enumerate(hands_in)
    ]
    bone = [_tile(t, f"deal.boneyard[{j}]") for j, t in enumerate(bone_in)]
    return hands, bone


def _tile(value: Any, where: str) -> Tile:
    if not isinstance(value, str):
        raise _fail(where, f'must be a tile string like "6-4", got {shown(value)}')
    if len(value) > MAX_MOVE_CHARS:
        raise _fail(where, f"{shown(value, 40)} is not a tile ({len(value):,} characters)")
    try:
        return parse_tile(value)
    except BonepileError as e:
        raise _fail(where, str(e)) from None


def replay_moves(state: State[Any], moves: list[str]) -> State[Any]:
    """Apply move texts in order; a bad one raises :class:`RecordError` naming it."""
    for i, text in enumerate(moves):
        where = f"moves[{i}] {shown(text, 40)}"
        if len(text) > MAX_MOVE_CHARS:
            raise _fail(where, f"is not a move: {len(text):,} characters, at most {MAX_MOVE_CHARS}")
        try:
            action = parse_action(text)
        except BonepileError as e:
            raise _fail(where, str(e)) from None
        if isinstance(action, Discard) and action.tile is None:
            raise _fail(
                where,
                "the discarded tile is hidden ('discard ?' is how other seats see a discard); "
                "a record holds the real move, 'discard T'",
            )
        try:
            state = state.apply(action)
        except BonepileError as e:
            raise _fail(where, str(e)) from None
    return state


def read_record(source: str | bytes | Mapping[str, Any]) -> State[Any]:
    """Validate a record (JSON text or an already parsed object) and replay it."""
    data = parse_json(source) if isinstance(source, str | bytes) else source
    state, moves = start_of(data)
    return replay_moves(state, moves)


def load_record(path: str | Path) -> State[Any]:
    """Read and replay the record in file ``path``."""
    return read_record(read_text(path))


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a record file, or a :class:`RecordError` saying why it cannot be read: no
    such file, not a regular file (a directory, a FIFO, a device), larger than ``limit``
    bytes (16 MiB), or not UTF-8 (:func:`bonepile.files.read_text_limited`)."""
    try:
        return read_text_limited(path, limit)
    except InputFileError as e:
        raise RecordError(f"record: {e}") from None


def record_of(state: State[Any], headers: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The record of the hand that led to ``state`` (with its result once it is over)."""
    root = state.initial
    rec: dict[str, Any] = {
        "format": FORMAT if root.leader is None else FORMAT_LED,
        "game": state.game.name,
        "players": state.players,
        "options": non_default_options(state.options),
    }
    if root.seed is not None:
        rec["seed"] = root.seed
    else:
        hands, boneyard = root.deal
        rec["deal"] = {
            "hands": [[str(t) for t in h] for h in hands],
            "boneyard": [str(t) for t in boneyard],
        }
    board = getattr(root, "board", None)
    if board is not None:
        from bonepile.grid import standard_board

        if board != standard_board():
            rec["board"] = board.to_json()
    rec["moves"] = [str(a) for a in state.moves]
    if any(state.scores_before):
        rec["scores_before"] = list(state.scores_before)
    if root.leader is not None:
        rec["leader"] = root.leader
    if headers:
        rec["headers"] = dict(headers)
    if state.result is not None:
        rec["result"] = state.result.to_json()
    return rec


def dump_record(state: State[Any], headers: Mapping[str, str] | None = None) -> str:
    """The record of ``state`` as JSON text (one line per key, moves on one line)."""
    return json.dumps(record_of(state, headers), indent=1)


def save_record(
    state: State[Any], path: str | Path, headers: Mapping[str, str] | None = None
) -> None:
    """Write the record of ``state`` to ``path``, atomically: on an error (an :class:`OSError`)
    a file already at ``path`` is left as it was (:func:`bonepile.files.write_text_atomic`)."""
    write_text_atomic(path, dump_record(state, headers) + "\n")
