"""Patches between two JSON documents, so that a socket carries only what changed.

A table's state grows by a move at a time (its history, its chat) while most of it stays as it
was, so after the first full ``state`` a client that asks for it receives each new state as a
short list of operations on the one it has. An operation is a JSON array:

* ``["=", path, value]``: set the key or index at ``path`` to ``value`` (``path`` ``[]``: the
  whole document);
* ``["+", path, items]``: append ``items`` to the list at ``path``;
* ``["-", path]``: delete the key at ``path``.

``path`` is a list of object keys and list indexes. :func:`diff` makes the operations and
:func:`apply` replays them without changing its input (containers along each path are copied),
so a client can keep the state it had beside the new one. ``apply(old, diff(old, new)) ==
new`` for any two JSON documents.
"""

from __future__ import annotations

from typing import Any

Op = list[Any]
"""One operation (see the module's documentation)."""

DEPTH = 4
"""How deep :func:`diff` looks into objects before it sends a changed value whole."""


def diff(old: Any, new: Any) -> list[Op]:
    """The operations that turn the JSON document ``old`` into ``new`` (empty if equal)."""
    ops: list[Op] = []
    _diff(old, new, [], ops, 0)
    return ops


def _diff(old: Any, new: Any, path: list[Any], ops: list[Op], depth: int) -> None:
    if old is new or (type(old) is type(new) and old == new):
        return
    if type(old) is dict and type(new) is dict and depth < DEPTH:
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, [*path, key], ops, depth + 1)
            else:
                ops.append(["=", [*path, key], value])
        ops.extend(["-", [*path, key]] for key in old if key not in new)
    elif type(old) is list and type(new) is list and 0 < len(old) <= len(new):
        n = len(old)
        if new[:n] == old:
            ops.append(["+", path, new[n:]])
        elif depth < DEPTH and new[: n - 1] == old[:-1]:  # the last item changed (then more came)
            _diff(old[-1], new[n - 1], [*path, n - 1], ops, depth + 1)
            if len(new) > n:
                ops.append(["+", path, new[n:]])
        else:
            ops.append(["=", path, new])
    else:
        ops.append(["=", path, new])


def apply(doc: Any, ops: list[Op]) -> Any:
    """``doc`` after ``ops``; ``doc`` itself is left as it was. Raises ``ValueError`` for an
    operation that does not fit the document."""
    for op in ops:
        doc = _apply(doc, op)
    return doc


def _apply(doc: Any, op: Op) -> Any:
    if not isinstance(op, list) or len(op) not in (2, 3) or not isinstance(op[1], list):
        raise ValueError(f"not a patch operation: {op!r}")
    kind, path = op[0], op[1]
    if not path:
        if kind == "=" and len(op) == 3:
            return op[2]
        if kind == "+" and len(op) == 3 and isinstance(doc, list):
            return [*doc, *op[2]]
        raise ValueError(f"cannot {kind!r} the whole document")
    key, rest = path[0], path[1:]
    if isinstance(doc, dict):
        if not isinstance(key, str):
            raise ValueError(f"object key {key!r} is not a string")
        out: Any = dict(doc)
        if not rest and kind == "-":
            out.pop(key, None)
            return out
        if not rest and kind == "=":
            out[key] = op[2] if len(op) == 3 else None
            return out
        if key not in doc:
            raise ValueError(f"no key {key!r} to patch")
        out[key] = _apply(doc[key], [kind, rest, *op[2:]])
        return out
    if isinstance(doc, list):
        if not isinstance(key, int) or not 0 <= key < len(doc):
            raise ValueError(f"no index {key!r} to patch")
        out = list(doc)
        if not rest and kind == "=":
            out[key] = op[2] if len(op) == 3 else None
            return out
        out[key] = _apply(doc[key], [kind, rest, *op[2:]])
        return out
    raise ValueError(f"cannot patch inside {type(doc).__name__}")


__all__ = ["DEPTH", "Op", "apply", "diff"]
