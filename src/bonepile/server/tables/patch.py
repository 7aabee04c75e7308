"""Patches between two JSON documents, so that a socket carries only what changed.

A table's state grows by a move at a time (its history, its chat) while most of it stays as it
was, so after the first full ``state`` a client that asks for it receives each new state as a
short list of operations on the one it has. An operation is a JSON array:

* ``["=", path, value]``: set the key or index at ``path`` to ``value`` (``path`` ``[]``: the
  whole document);
* ``["+", path, items]``: append ``items`` to the list at ``path``;
* ``["-", path]``: delete the key at ``path``.

Values compare as Python compares them (``1 == 1.0``, ``True == 1``): a state keeps each field's
type, so a patch never needs to turn a flag into a number of the same value.

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
    """``doc`` after ``ops``; ``doc`` itself is left as it was (each container on a path is
    copied once, the rest is shared). Raises ``ValueError`` for an operation that does not fit
    the document."""
    fresh: dict[int, Any] = {}  # the containers this patch copied (kept alive): changed in place
    root = doc
    for op in ops:
        if not isinstance(op, list) or len(op) not in (2, 3) or not isinstance(op[1], list):
            raise ValueError(f"not a patch operation: {op!r}")
        kind, path = op[0], op[1]
        value = op[2] if len(op) == 3 else None
        if kind not in ("=", "+", "-") or (kind != "-" and len(op) != 3):
            raise ValueError(f"not a patch operation: {op!r}")
        if not path:
            if kind == "=":
                root = value
                fresh.clear()
                continue
            if kind == "+" and isinstance(root, list) and isinstance(value, list):
                root = [*root, *value]
                fresh[id(root)] = root
                continue
            raise ValueError(f"cannot {kind!r} the whole document")
        root = _own(root, fresh)
        parent = root
        for key in path[:-1]:
            child = _own(_child(parent, key), fresh)
            parent[key] = child
            parent = child
        key = path[-1]
        if kind == "=":
            if isinstance(parent, list):
                _child(parent, key)
            elif not isinstance(key, str):
                raise ValueError(f"object key {key!r} is not a string")
            parent[key] = value
        elif kind == "-":
            if not isinstance(parent, dict) or not isinstance(key, str):
                raise ValueError(f"cannot delete {key!r} here")
            parent.pop(key, None)
        else:
            items = _child(parent, key)
            if not isinstance(items, list) or not isinstance(value, list):
                raise ValueError(f"no list at {path!r} to append to")
            parent[key] = appended = [*items, *value]
            fresh[id(appended)] = appended
    return root


def _own(container: Any, fresh: dict[int, Any]) -> Any:
    """``container`` itself if this patch copied it, else a shallow copy of it."""
    if id(container) in fresh:
        return container
    if isinstance(container, dict):
        copy: Any = dict(container)
    elif isinstance(container, list):
        copy = list(container)
    else:
        raise ValueError(f"cannot patch inside {type(container).__name__}")
    fresh[id(copy)] = copy
    return copy


def _child(parent: Any, key: Any) -> Any:
    if isinstance(parent, dict):
        if not isinstance(key, str) or key not in parent:
            raise ValueError(f"no key {key!r} to patch")
        return parent[key]
    if isinstance(parent, list):
        if type(key) is not int or not 0 <= key < len(parent):
            raise ValueError(f"no index {key!r} to patch")
        return parent[key]
    raise ValueError(f"cannot patch inside {type(parent).__name__}")


__all__ = ["DEPTH", "Op", "apply", "diff"]
