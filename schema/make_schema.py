"""Generate ``schema/bonepile-view.schema.json``: the JSON Schema (draft 2020-12) of a view.

The schema describes what ``View.to_json()`` writes (the JSON a remote client or an external bot
receives) and, under ``$defs/event``, a single event. It is built from the code, not copied by
hand:

* every event from :data:`bonepile.events.EVENT_TYPES` (each class's ``TYPE`` and ``FIELDS``,
  each field by its wire kind);
* every game's options from its option specs (kinds, choices, ranges, keys);
* every game's public facts from its ``Facts`` dataclass (fields and type hints);
* the result from :data:`bonepile.result.REASONS`.

What the code only documents (the choices of a string field, the range of an integer) is listed
in the ``*_REFINE`` tables below, checked against the fields they name, so a renamed field fails
here instead of silently dropping a constraint. ``tests/test_model.py`` validates real views of
every game against the committed file and checks that it is what this script writes.

Run ``python schema/make_schema.py`` to rewrite the file, ``--check`` to compare only (exit 1 if
it is stale).
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import types
import typing
from pathlib import Path
from typing import Any

from bonepile.events import EVENT_TYPES
from bonepile.games import Game, all_games
from bonepile.games.super_dominoes import PHASES
from bonepile.grid import BOARD_KEYS, MAX_SIDE
from bonepile.layout import FAMILIES
from bonepile.options import MAX_INT, option_specs
from bonepile.result import REASONS, Result
from bonepile.tiles import MAX_PIP_LIMIT, Tile
from bonepile.view import FIELDS as VIEW_FIELDS

OUT = Path(__file__).with_name("bonepile-view.schema.json")
SCHEMA_ID = "urn:bonepile:schema:view"
REF = "#/$defs/"

PLAYERS = (2, 8)
"""The fewest and most seats any game takes (Super Dominoes and the large line sets: 8)."""

BOARD_MAX_PIP = 6
"""Boards are double-6 only (``max_pip`` of a board file must be 6)."""


# ------------------------------------------------------------------------------ patterns
def _tile_pattern() -> str:
    """A tile in canonical notation, ``H-L`` with ``H >= L`` (``6-4``, never ``4-6``)."""
    alts = []
    for hi in range(MAX_PIP_LIMIT + 1):
        if hi < 10:
            lows = f"[0-{hi}]" if hi else "0"
        else:
            tens = f"1[0-{hi - 10}]" if hi > 10 else "10"
            lows = f"(?:[0-9]|{tens})"
        alts.append(f"{hi}-{lows}")
    return "(?:" + "|".join(alts) + ")"


TILE = _tile_pattern()
PIP = "(?:1[0-8]|[0-9])"
CELL = "(?:2[0-6]|1[0-9]|[1-9])[A-Z]"
ACTION = (
    rf"^(?:draw|pass|stop|discard \?|discard {TILE}|{TILE}|{TILE}@{TILE}|{PIP}-{PIP}@{CELL}{CELL})$"
)
DOUBLE = r"^([0-9]+)-\1$"
"""A double: both halves written the same."""

assert MAX_PIP_LIMIT == 18 and MAX_SIDE == 26, "update PIP and CELL"


# ------------------------------------------------------------------------------ refinements
SEAT_NAMES = frozenset({"seat", "first_player", "setter", "caster"})
"""Integer fields that hold a seat (a non-negative integer)."""

PIP_RANGE = {"minimum": 0, "maximum": MAX_PIP_LIMIT}

EVENT_REFINE: dict[str, dict[str, Any]] = {
    "placed.matched": PIP_RANGE,
    "placed.open": PIP_RANGE,
    "placed_on_board.p": {"minimum": 0, "maximum": BOARD_MAX_PIP},
    "placed_on_board.q": {"minimum": 0, "maximum": BOARD_MAX_PIP},
    "drew.count": {"minimum": 0},
    "drew.cause": {"enum": ["unable", "fifteen", "starter", "opening", "turn", "refill"]},
    "reversed.direction": {"enum": [1, -1]},
    "spell_ended.how": {"enum": ["broken", "arms_started", "caster_turn", "replaced"]},
    "scored.points": {"minimum": 0},
    "scored.kind": {"enum": ["diamond", "bonus"]},
    "scored.position": {"minimum": 0},
}
"""What ``bonepile.events`` documents about event fields beyond their wire kind."""

FACTS_REFINE: dict[str, dict[str, Any]] = {
    "SuperDominoesFacts.phase": {"enum": list(PHASES)},
    "SuperDominoesFacts.direction": {"enum": [1, -1]},
    "SuperDominoesFacts.pending_skips": {"minimum": 0},
    "SuperDominoesFacts.idle_turns": {"minimum": 0},
    "Spell.kind": {"enum": ["end", "starter"]},
    "DoublesFacts.unlocked": {"items": {"minimum": 0, "maximum": 6}, "uniqueItems": True},
    "DoubleDoubleFacts.board": {"minLength": 1},
    "DoubleDoubleFacts.positions": {"items": {"minimum": 0}},
    "DoubleDoubleFacts.track_pips": {"items": {"minimum": 0, "maximum": BOARD_MAX_PIP}},
    "DoubleDoubleFacts.victory_total": {"minimum": 1},
    "DoubleDoubleFacts.pit": {"minimum": 0},
}
"""What the facts classes document beyond their type hints."""


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in extra.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _doc(obj: Any) -> str:
    """The first sentence of a docstring, on one line."""
    text = " ".join((obj.__doc__ or "").split())
    return text.split(". ")[0].rstrip(".") + "." if text else ""


def _snake(name: str, suffix: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name.removesuffix(suffix)).lower()


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": REF + name}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _array(items: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **more}


def _object(
    props: dict[str, Any], required: list[str] | None = None, **more: Any
) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props) if required is None else required,
        "additionalProperties": False,
        **more,
    }


def _pair(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "prefixItems": [first, second], "items": False, "minItems": 2}


# ------------------------------------------------------------------------------ common
def _common() -> dict[str, Any]:
    return {
        "tile": {
            "description": "A tile in notation: the high half, a dash, the low half.",
            "type": "string",
            "pattern": f"^{TILE}$",
        },
        "action": {
            "description": "An action in notation: 'T' (lead), 'T@U' (attach T to U's end), "
            "'draw', 'pass', 'stop', 'discard T', 'discard ?' (another seat's discard), "
            "'P-Q@C1C2' (place pips P on cell C1 and Q on C2).",
            "type": "string",
            "pattern": ACTION,
        },
        "seat": {"type": "integer", "minimum": 0, "maximum": PLAYERS[1] - 1},
        "pip": {"type": "integer", **PIP_RANGE},
        "cell": {
            "description": "A board cell as zero-based [row, col].",
            **_pair(
                {"type": "integer", "minimum": 0, "maximum": MAX_SIDE - 1},
                {"type": "integer", "minimum": 0, "maximum": MAX_SIDE - 1},
            ),
        },
        "result": {
            "description": _doc(Result),
            **_object(
                {
                    "reason": {"enum": list(REASONS)},
                    "winners": _array(_ref("seat"), uniqueItems=True),
                    "points": _array({"type": "integer"}),
                }
            ),
        },
    }


# ------------------------------------------------------------------------------ events
_KINDS: dict[str, dict[str, Any]] = {
    "int": {"type": "integer"},
    "bool": {"type": "boolean"},
    "str": {"type": "string"},
    "tile": _ref("tile"),
    "tile?": _nullable(_ref("tile")),
    "tiles?": _nullable(_array(_ref("tile"))),
    "cell": _ref("cell"),
    "result": _ref("result"),
}


def _events() -> dict[str, Any]:
    defs: dict[str, Any] = {}
    used: set[str] = set()
    for cls in EVENT_TYPES:
        props: dict[str, Any] = {"type": {"const": cls.TYPE}}
        for name, kind in cls.FIELDS:
            schema = _ref("seat") if name in SEAT_NAMES else dict(_KINDS[kind])
            key = f"{cls.TYPE}.{name}"
            if key in EVENT_REFINE:
                schema = _merge(schema, EVENT_REFINE[key])
                used.add(key)
            props[name] = schema
        defs[f"event_{cls.TYPE}"] = {"description": _doc(cls), **_object(props)}
    unknown = set(EVENT_REFINE) - used
    if unknown:
        raise SystemExit(f"EVENT_REFINE names fields no event has: {sorted(unknown)}")
    types_ = [cls.TYPE for cls in EVENT_TYPES]
    defs["event"] = {
        "description": "One event, by its type (see bonepile.events).",
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": types_}},
        "allOf": [
            {
                "if": {"properties": {"type": {"const": t}}, "required": ["type"]},
                "then": _ref(f"event_{t}"),
            }
            for t in types_
        ],
    }
    return defs


# ------------------------------------------------------------------------------ facts
def _hint_schema(tp: Any, where: str, used: set[str]) -> dict[str, Any]:
    """The schema of a value of type ``tp`` as the facts classes write it."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is type(None):
        return {"type": "null"}
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1 or len(args) != 2:
            raise SystemExit(f"{where}: unsupported union {tp}")
        inner = _hint_schema(rest[0], where, used)
        if set(inner) == {"type"} and isinstance(inner["type"], str):
            return {"type": [inner["type"], "null"]}
        return _nullable(inner)
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is str:
        return {"type": "string"}
    if tp is Tile:
        return _ref("tile")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _array(_hint_schema(args[0], where, used))
        if args == (int, int):  # the only pair of integers the facts hold is a cell
            return _ref("cell")
        parts = [_hint_schema(a, where, used) for a in args]
        return {"type": "array", "prefixItems": parts, "items": False, "minItems": len(parts)}
    if dataclasses.is_dataclass(tp):
        return _dataclass_schema(tp, used)
    raise SystemExit(f"{where}: no schema for type {tp!r}")


def _dataclass_schema(cls: Any, used: set[str]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    props: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        where = f"{cls.__name__}.{f.name}"
        schema = _hint_schema(hints[f.name], where, used)
        if f.name in SEAT_NAMES:
            schema = _merge(schema, {"minimum": 0, "maximum": PLAYERS[1] - 1})
        if where in FACTS_REFINE:
            schema = _merge(schema, FACTS_REFINE[where])
            used.add(where)
        props[f.name] = schema
    return {"description": _doc(cls), **_object(props)}


# ------------------------------------------------------------------------------ options
def _options_schema(options_cls: Any) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for spec in option_specs(options_cls):
        s: dict[str, Any]
        if spec.kind == "bool":
            s = {"type": "boolean"}
        elif spec.kind == "choice":
            s = {"enum": list(spec.choices)}
        elif spec.kind in ("int", "optional_int", "int_map"):
            s = {"type": "integer", "minimum": -MAX_INT, "maximum": MAX_INT}
            if spec.minimum is not None:
                s["minimum"] = spec.minimum
            if spec.maximum is not None:
                s["maximum"] = spec.maximum
            if spec.allowed:
                s = {"enum": list(spec.allowed)}
            if spec.kind == "optional_int":
                s = {"type": ["integer", "null"], **{k: v for k, v in s.items() if k != "type"}}
                if "enum" in s:
                    s["enum"] = [*s["enum"], None]
            elif spec.kind == "int_map":
                s = _object({k: s for k in spec.keys})
        else:  # pragma: no cover - a new option kind
            raise SystemExit(f"option {spec.name}: unknown kind {spec.kind}")
        props[spec.name] = {"description": spec.help, **s}
    return {"description": _doc(options_cls), **_object(props)}


# ------------------------------------------------------------------------------ layouts
def _slot_counts(*counts: int) -> dict[str, Any]:
    """``slots`` with one of the given lengths."""
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return {"minItems": counts[0], "maxItems": counts[-1]}
    return {"anyOf": [{"minItems": c, "maxItems": c} for c in counts]}


FAMILY_SLOTS: dict[str, dict[str, tuple[int, ...] | None]] = {
    # (root double, root non-double or None if the root is always a double, later double)
    "line": {"root_double": (2, 4), "root_single": (2,), "double": (1, 3)},
    "fat_spinner": {"root_double": (6,), "root_single": None, "double": (1, 3)},
    "spinner_tree": {"root_double": (1, 2, 3, 4), "root_single": None, "double": (0, 1, 2, 3)},
}
"""How many slots a tile offers, by family: a line's lead offers both halves (a spinner
double four sides) and its first double with ``spinner`` three; the Super Dominoes starter has
six arms and a later double one slot (three with ``doubles_branch``); in Doubles every double
offers ``spinner_sides`` (1 to 4) sides, one fewer once attached. A non-double hanging from a
parent always offers one slot: its outer half."""


def _placement(family: str, root: bool) -> dict[str, Any]:
    counts = FAMILY_SLOTS[family]
    none = {"type": "null"}
    idx = {"type": "integer", "minimum": 0}
    props = {
        "tile": _ref("tile"),
        "seat": _ref("seat"),
        "parent": none if root else idx,
        "slot": none if root else idx,
        "inner": none if root else _ref("pip"),
        "outer": none if root else _ref("pip"),
        "joins": none if root else _ref("pip"),
        "across": {"type": "boolean"},
        "slots": _array(_ref("pip")),
    }
    out = _object(props)
    double = counts["root_double" if root else "double"]
    single = counts["root_single"] if root else (1,)
    assert double is not None
    is_double = {"properties": {"tile": {"pattern": DOUBLE}}}
    then = {"properties": {"across": {"const": True}, "slots": _slot_counts(*double)}}
    if single is None:
        out["allOf"] = [is_double, then]
    else:
        other = {"properties": {"across": {"const": False}, "slots": _slot_counts(*single)}}
        out["allOf"] = [{"if": is_double, "then": then, "else": other}]
    return out


def _layouts() -> dict[str, Any]:
    defs: dict[str, Any] = {}
    end = _object(
        {
            "anchor": {"type": "integer", "minimum": 0},
            "at": _ref("tile"),
            "slot": {"type": "integer", "minimum": 0},
            "value": _ref("pip"),
            "actions": _array(_ref("action")),
        }
    )
    end["description"] = (
        "A free slot: slot 'slot' of tile number 'anchor' ('at'), showing 'value'; 'actions' "
        "are the view's legal actions that play there."
    )
    defs["open_end"] = end
    for family in FAMILIES:
        defs[f"layout_{family}"] = {
            "description": f"A '{family}' table: the tiles in play order (the root first, "
            "each other hanging from slot 'slot' of tile number 'parent') and the free slots.",
            **_object(
                {
                    "family": {"const": family},
                    "tiles": {
                        "type": "array",
                        "prefixItems": [_placement(family, True)],
                        "items": _placement(family, False),
                    },
                    "ends": _array(_ref("open_end")),
                }
            ),
        }
    board_pip = {"type": "integer", "minimum": 0, "maximum": BOARD_MAX_PIP}
    board_props = {
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "rows": {"type": "integer", "minimum": 1, "maximum": MAX_SIDE},
        "cols": {"type": "integer", "minimum": 1, "maximum": MAX_SIDE},
        "grid": _array(
            {"type": "string", "pattern": "^[.*1-5]+$", "maxLength": MAX_SIDE},
            minItems=1,
            maxItems=MAX_SIDE,
        ),
        "diamond_colors": {
            "type": "object",
            "propertyNames": {"enum": ["1", "2", "3", "4", "5"]},
            "additionalProperties": {"type": "string"},
        },
        "score_track": _object(
            {"start_space_has_pips": {"const": False}, "spaces": _array(board_pip, minItems=1)}
        ),
        "victory_totals": {
            "type": "object",
            "propertyNames": {"enum": ["2", "3", "4", "5", "6"]},
            "additionalProperties": {"type": "integer", "minimum": 1},
            "minProperties": 1,
        },
        "max_pip": {"const": BOARD_MAX_PIP},
    }
    assert tuple(board_props) == BOARD_KEYS, "a board key was added: describe it here"
    board_props["star"] = _ref("cell")
    board_props["diamonds"] = _array(
        {
            "type": "array",
            "prefixItems": [
                {"type": "integer", "minimum": 0},
                {"type": "integer", "minimum": 0},
                {"type": "integer", "minimum": 1, "maximum": 5},
            ],
            "items": False,
            "minItems": 3,
        }
    )
    defs["board"] = {
        "description": "The board file's data, plus the star and the diamonds "
        "([row, col, value]) for convenience.",
        **_object(board_props),
    }
    defs["board_placement"] = _object(
        {
            "tile": _ref("tile"),
            "cells": _pair(_ref("cell"), _ref("cell")),
            "pips": _pair(board_pip, board_pip),
            "seat": _ref("seat"),
        }
    )
    defs["layout_board"] = {
        "description": "A board game's table: the board, the tiles on it in play order, "
        "every seat's score-track position.",
        **_object(
            {
                "family": {"const": "board"},
                "board": _ref("board"),
                "tiles": _array(_ref("board_placement")),
                "positions": _array({"type": "integer", "minimum": 0}),
            }
        ),
    }
    families = [*FAMILIES, "board"]
    defs["layout"] = {
        "description": "A layout of any family, by its family.",
        "type": "object",
        "required": ["family"],
        "properties": {"family": {"enum": families}},
        "allOf": [
            {
                "if": {"properties": {"family": {"const": f}}, "required": ["family"]},
                "then": _ref(f"layout_{f}"),
            }
            for f in families
        ],
    }
    return defs


# ------------------------------------------------------------------------------ the view
def builtin_games() -> tuple[Game[Any], ...]:
    """The games bonepile ships (a game registered by a plug-in or a test is not described)."""
    return tuple(g for g in all_games() if type(g).__module__.startswith("bonepile."))


def build_schema() -> dict[str, Any]:
    """The whole schema, as a dict."""
    import bonepile

    if bonepile.COMPILED:
        raise SystemExit("run with the pure-Python install: a mypyc build erases type hints")
    games = builtin_games()
    defs: dict[str, Any] = _common()
    defs.update(_events())
    used: set[str] = set()
    per_game = []
    for g in games:
        opts = "options_" + _snake(g.Options.__name__, "Options")
        facts = "facts_" + _snake(g.Facts.__name__, "Facts")
        defs.setdefault(opts, _options_schema(g.Options))
        if facts not in defs:
            defs[facts] = _dataclass_schema(g.Facts, used)
        per_game.append(
            {
                "if": {"properties": {"game": {"const": g.name}}, "required": ["game"]},
                "then": {
                    "properties": {
                        "options": _ref(opts),
                        "public": _ref(facts),
                        "layout": _ref(f"layout_{g.family}"),
                    }
                },
            }
        )
    unknown = set(FACTS_REFINE) - used
    if unknown:
        raise SystemExit(f"FACTS_REFINE names fields no facts class has: {sorted(unknown)}")
    defs.update(_layouts())
    defs["turn"] = {
        "description": "One entry of the public history: who acted, what they did (another "
        "seat's discard as 'discard ?'), what happened (others' draws and discards hidden).",
        **_object(
            {
                "seat": _ref("seat"),
                "action": _ref("action"),
                "events": _array(_ref("event")),
            }
        ),
    }
    seat_or_null = _nullable(_ref("seat"))
    props: dict[str, Any] = {
        "game": {"enum": [g.name for g in games]},
        "options": {"type": "object"},
        "players": {"type": "integer", "minimum": PLAYERS[0], "maximum": PLAYERS[1]},
        "seat": {"description": "The viewer; null for a spectator.", **seat_or_null},
        "hand": {
            "description": "The viewer's tiles (empty for a spectator).",
            **_array(_ref("tile")),
        },
        "hand_sizes": _array({"type": "integer", "minimum": 0}),
        "boneyard": {"type": "integer", "minimum": 0},
        "layout": {
            "description": "The table, of the family the game plays (see the per-game rules "
            "below; #/$defs/layout describes a layout of any family).",
            "type": "object",
            "required": ["family"],
            "properties": {"family": {"enum": [*FAMILIES, "board"]}},
        },
        "actor": {"description": "The seat to act; null once the hand is over.", **seat_or_null},
        "legal": {
            "description": "The actor's legal actions in its own view; empty for anyone else.",
            **_array(_ref("action")),
        },
        "scores_before": _array({"type": "integer"}),
        "leader": seat_or_null,
        "result": _nullable(_ref("result")),
        "public": {"type": "object"},
        "history": _array(_ref("turn")),
        "revealed": {
            "description": "Every hand once the hand is over; null before.",
            **_nullable(_array(_array(_ref("tile")))),
        },
    }
    json_names = [("boneyard" if f == "boneyard_size" else f) for f in VIEW_FIELDS]
    assert list(props) == json_names, "a view field was added: describe it here"
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "bonepile view",
        "description": "What one seat may know of a position: View.to_json() of bonepile. "
        "A single event is #/$defs/event.",
        **_object(props),
        "allOf": per_game,
        "$defs": defs,
    }


def render() -> str:
    """The schema file's text."""
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run python schema/make_schema.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
