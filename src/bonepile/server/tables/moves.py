"""The legal moves of a view as structured JSON, so that a client never parses notation.

Each move says what kind of action it is, the tile it plays, and where it goes: the open end
``[anchor, slot]`` of the layout (line, arm and tree games) or the two board cells and the pip
on each (Double Double Dominoes).
"""

from __future__ import annotations

from typing import Any

from bonepile.actions import Action, Attach, Discard, Draw, Lead, Pass, Place, Stop
from bonepile.layout import Layout
from bonepile.view import View

KINDS: dict[type[Action], str] = {
    Lead: "lead",
    Attach: "attach",
    Draw: "draw",
    Pass: "pass",
    Place: "place",
    Discard: "discard",
    Stop: "stop",
}
"""The ``kind`` of each action class."""


def move_json(action: Action, layout: Any) -> dict[str, Any]:
    """One legal action as ``{action, kind, tile, end, cells, pips}`` (absent parts ``None``)."""
    tile = getattr(action, "tile", None)
    end = None
    if isinstance(action, Attach) and isinstance(layout, Layout):
        found = layout.end_of(action)
        if found is not None:
            end = [found.anchor, found.slot]
    cells = pips = None
    if isinstance(action, Place):
        cells = [list(action.cell1), list(action.cell2)]
        pips = [action.p, action.q]
    return {
        "action": str(action),
        "kind": KINDS.get(type(action), "other"),
        "tile": None if tile is None else str(tile),
        "end": end,
        "cells": cells,
        "pips": pips,
    }


def moves_json(v: View) -> list[dict[str, Any]]:
    """Every legal action of the view ``v`` (see :func:`move_json`), in the view's order."""
    layout = v.layout
    return [move_json(a, layout) for a in v.legal]


__all__ = ["KINDS", "move_json", "moves_json"]
