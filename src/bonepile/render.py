"""Text rendering of positions: pure functions from a state or view to lines of text.

A tile in a chain is drawn ``a|b`` with the half that touches its parent first, so a line
reads left to right as it was built (a double played wild on a 13 shows its own pips:
``5|5``); ``[6|6]`` marks the lead or starter. Everything is read from the layout, the
game's public facts and their ``notes()``: no game is named here.
"""

from __future__ import annotations

from typing import Any

from bonepile.grid import BoardLayout
from bonepile.layout import Layout, Placement
from bonepile.match import Match
from bonepile.state import State
from bonepile.tiles import Tile


def _oriented(p: Placement, flip: bool = False) -> str:
    t = p.tile
    if p.inner is None or p.outer is None:
        return f"[{t.hi}|{t.lo}]"
    a, b = p.inner, p.outer
    if flip:
        a, b = b, a
    return f"{a}|{b}"


def _chain(layout: Layout, start: Placement) -> list[Placement]:
    """Follow single children from ``start`` until a branch or the end."""
    out = [start]
    cur = start
    while True:
        kids = layout.children(cur.tile)
        if len(kids) != 1:
            return out
        cur = kids[0]
        out.append(cur)


def _free(layout: Layout, p: Placement) -> str:
    """A spinner's free sides inside a chain, as ``(+k)``."""
    k = sum(1 for e in layout.ends if e.at is p.tile)
    return f"(+{k})" if k else ""


def _branches(layout: Layout, tile: Tile, depth: int, spelled: Tile | None) -> list[str]:
    lines = []
    for kid in layout.children(tile):
        chain = _chain(layout, kid)
        last = chain[-1]
        text = " ".join(_oriented(p) + _free(layout, p) for p in chain[:-1])
        text = f"{text} {_oriented(last)}" if text else _oriented(last)
        open_ends = [e for e in layout.ends if e.at is last.tile]
        tail = ""
        if open_ends and not layout.children(last.tile):
            tail = f"  → open {open_ends[0].value}"
            if len(open_ends) > 1:
                tail += f" ×{len(open_ends)}"
        elif open_ends:
            tail = f"  → {len(open_ends)} more open {open_ends[0].value}"
        if spelled is not None and last.tile is spelled:
            tail += "  ✶ spell"
        lines.append("  " * depth + "- " + text + tail)
        if layout.children(last.tile):
            lines.extend(_branches(layout, last.tile, depth + 1, spelled))
    return lines


def render_layout(layout: Layout | BoardLayout, spelled: Tile | None = None) -> list[str]:
    """The layout as lines of text: a line for the line games, arms or a tree otherwise, the
    grid for a board game."""
    if isinstance(layout, BoardLayout):
        return render_board(layout)
    if not layout.placements:
        return ["Layout: empty"]
    root = layout.placements[0]
    kids = layout.children(root.tile)
    if (
        layout.family == "line"
        and len(kids) <= 2
        and all(len(_chain(layout, k)) == _subtree_size(layout, k) for k in kids)
    ):
        by_slot = {k.slot: k for k in kids}
        if root.tile.is_double:  # across the line: the first branch goes right
            right_kid = kids[0] if kids else None
            left_kid = kids[1] if len(kids) > 1 else None
        else:  # drawn [hi|lo]: the high half (slot 0) faces left, the low half right
            left_kid, right_kid = by_slot.get(0), by_slot.get(1)
        left = _chain(layout, left_kid) if left_kid is not None else []
        right = _chain(layout, right_kid) if right_kid is not None else []
        parts = [_oriented(p, flip=True) for p in reversed(left)]
        parts.append(_oriented(root))
        parts.extend(_oriented(p) for p in right)
        ends = ", ".join(str(e.value) for e in layout.ends)
        return [f"Layout: {' '.join(parts)}", f"Open ends: {ends}"]
    lines = [f"Layout: {_oriented(root)} with {len(kids)} branch{'es' if len(kids) != 1 else ''}"]
    lines.extend(_branches(layout, root.tile, 1, spelled))
    root_ends = [e for e in layout.ends if e.at is root.tile]
    if root_ends:
        word = "arm" if layout.family == "fat_spinner" else "side"
        lines.append(
            f"  - {len(root_ends)} empty {word}{'s' if len(root_ends) != 1 else ''}"
            f" (open {root_ends[0].value})"
            + ("  ✶ spell" if spelled is not None and spelled is root.tile else "")
        )
    return lines


def render_board(layout: BoardLayout) -> list[str]:
    """The board: column letters, row numbers, pips on covered squares (a ``─`` or ``│`` joins
    the two halves of a tile), ``◆N`` on an uncovered diamond, ``*`` on the star."""
    b = layout.board
    pips: dict[int, int] = {}
    mate: dict[int, int] = {}
    for pl in layout.placements:
        a = pl.cell1[0] * b.cols + pl.cell1[1]
        x = pl.cell2[0] * b.cols + pl.cell2[1]
        pips[a], pips[x] = pl.p, pl.q
        mate[a], mate[x] = x, a
    lines = ["    " + " ".join(f"{chr(65 + c):>2}" for c in range(b.cols))]
    for r in range(b.rows):
        row = []
        below = []
        for c in range(b.cols):
            i = r * b.cols + c
            if i in pips:
                glyph = f"{pips[i]:>2}"
            elif i == b.star:
                glyph = " *"
            elif b.diamonds[i]:
                glyph = f"◆{b.diamonds[i]}"
            else:
                glyph = " ·"
            joined = mate.get(i) == i + 1
            row.append(glyph + ("─" if joined else " "))
            below.append(" │ " if mate.get(i) == i + b.cols else "   ")
        lines.append(f"{r + 1:>3} " + "".join(row).rstrip())
        if r < b.rows - 1 and any(x.strip() for x in below):
            lines.append("    " + "".join(below).rstrip())
    return lines


def _track(layout: BoardLayout, players: int) -> str:
    b = layout.board
    parts = []
    for seat, pos in enumerate(layout.positions):
        pip = b.track_pips(pos)
        shows = "start" if pos == 0 else ("past the end" if pip is None else f"shows {pip}")
        parts.append(f"P{seat} {pos} ({shows})")
    return "Track: " + "  ".join(parts) + f"; victory at {b.victory_total(players)}"


def _subtree_size(layout: Layout, p: Placement) -> int:
    return 1 + sum(_subtree_size(layout, k) for k in layout.children(p.tile))


def _count(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def render_state(state: State[Any]) -> str:
    """The full position (every hand shown), as for ``bonepile replay``."""
    facts = state.facts
    spell = getattr(facts, "spell", None)
    spelled = getattr(spell, "at", None)
    layout = state.layout
    board = layout if isinstance(layout, BoardLayout) else None
    lines = [f"{state.game.title}, {state.players} players, {len(state.moves)} moves"]
    lines.extend(render_layout(layout, spelled))
    for seat in range(state.players):
        mark = "▶" if seat == state.actor else " "
        tiles = " ".join(str(t) for t in state.hand(seat)) or "(empty)"
        lines.append(
            f"{mark} P{seat} ({_count(state.hand_size(seat), 'tile')}, "
            f"{_count(state.hand_pips(seat), 'pip')}): {tiles}"
        )
    lines.append(f"Boneyard: {_count(state.boneyard_size, 'tile')}")
    status = [n for n in facts.notes() if state.players > 2 or not n.startswith("direction")]
    if status:
        lines.append("State: " + "; ".join(status))
    if board is not None:
        lines.append(_track(board, state.players))
    elif any(state.scores_before) or state.is_over:
        lines.append("Scores: " + "  ".join(f"P{i} {s}" for i, s in enumerate(state.scores)))
    if state.result is not None:
        r = state.result
        if r.winners and board is not None:
            who = ", ".join(f"P{w}" for w in r.winners)
            lines.append(f"Result: {r.reason}; winner {who} with {state.scores[r.winners[0]]}")
        elif r.winners:
            who = ", ".join(f"P{w}" for w in r.winners)
            pts = ", ".join(str(r.points[w]) for w in r.winners)
            lines.append(f"Result: {r.reason}; winner {who} scores {pts}")
        else:
            lines.append(f"Result: {r.reason}; no winner, nobody scores")
    else:
        legal = ", ".join(str(a) for a in state.legal_actions())
        lines.append(f"P{state.actor} to act; legal: {legal}")
    return "\n".join(lines)


def render_match(match: Match, position: bool = True) -> str:
    """A match: one line per hand (first player, result, totals after it), then (unless
    ``position`` is false) the position the last hand stands at."""
    n = match.players
    target = "no target (one hand)" if match.target is None else f"target {match.target}"
    head = f"{match.game.title} match, {n} players, {target}, {_count(len(match.hands), 'hand')}"
    if match.is_over:
        who = ", ".join(f"P{w}" for w in match.winners) or "nobody"
        head += f"; over, won by {who}"
    lines = [head, f"{'hand':>4}  {'first':<5}  {'result':<28}  totals after"]
    for i, h in enumerate(match.hands):
        r = h.result
        if r is None:
            outcome = "in play"
        elif r.winners:
            outcome = f"{r.reason}, " + " ".join(f"P{w} +{r.points[w]}" for w in r.winners)
        else:
            outcome = f"{r.reason}, nobody scores"
        first = f"P{h.first_player}"
        totals = "  ".join(f"P{s} {t}" for s, t in enumerate(h.scores))
        lines.append(f"{i + 1:>4}  {first:<5}  {outcome:<28}  {totals}")
    if position:
        lines.append("")
        lines.append(f"Hand {len(match.hands)}:")
        lines.append(render_state(match.current))
    return "\n".join(lines)
