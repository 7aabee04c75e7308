"""The whole screen as a pure function: a :class:`Frame` (a view and what the player has
chosen) and a size in, a :class:`Drawn` screen out (a canvas and where the mouse can click).

Rows from the top: the title and whose turn it is, the seats (hand sizes, scores, the game's
public facts), the table (panned to keep the last tile played in sight), the move log (in a
column on the right when the screen is wide enough), the hand with its key numbers, the line
that says what can be done now, and the keys.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

from bonepile.actions import Action, Attach, Discard, Lead, Place
from bonepile.grid import BoardLayout
from bonepile.layout import Layout
from bonepile.tiles import Tile
from bonepile.tui.board import draw_board, track_line
from bonepile.tui.canvas import Canvas
from bonepile.tui.table import LABEL, LAST, OPEN, TILE, draw_table, pip_style
from bonepile.view import View

LETTERS = "abcefgijklmnortuvwyz"
"""The letters that name the places the chosen tile can go (d, h, p, q, s and x are keys)."""
HAND_KEYS = "1234567890"
"""The keys that pick the first ten tiles of a hand."""
WIDE = 110
"""From this many columns the move log has a column of its own on the right."""
SIDE = 36
"""The width of that column."""
TITLE = "bold"
DIM = "dim"
ERROR = "bold red"
KEYS = "black on #a0a0a0"

Box = tuple[int, int, int, int]
"""Cells ``(x, y, w, h)``."""
Hit = tuple[int, int, int, int, str, int]
"""A place to click: ``(x, y, w, h, kind, value)``, kind ``tile`` (a hand index), ``choice``
(a choice index) or ``command`` (an index into :data:`COMMANDS`)."""

COMMANDS = ("draw", "pass", "discard", "stop")
"""The buttons the prompt line shows when they are legal."""


@dataclass(frozen=True)
class Frame:
    """What the screen shows: the ``view`` (of the seat playing here, or a spectator's),
    each seat's ``names``, a ``title``, the chosen hand tile (``selected``, an index into
    ``view.hand``) with its lettered ``choices`` and the ``focus`` among them, the ``log``
    lines, a ``message`` (an error when ``error``), the bot's ``hint``, a ``curtain`` that hides
    the hand (hot-seat), every hand for a replay (``hands``), the ``keys`` line, a ``pan``
    of the table in cells, the match ``totals`` and ``extra`` items for the seats line."""

    view: View
    names: tuple[str, ...]
    title: str = ""
    selected: int | None = None
    choices: tuple[Action, ...] = ()
    focus: int = 0
    log: tuple[str, ...] = ()
    message: str = ""
    error: bool = False
    hint: tuple[tuple[str, int, float], ...] = ()
    curtain: str | None = None
    hands: tuple[tuple[Tile, ...], ...] | None = None
    keys: str = ""
    pan: tuple[int, int] = (0, 0)
    totals: tuple[int, ...] | None = None
    extra: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Drawn:
    """A drawn screen: the canvas and the places to click."""

    canvas: Canvas
    hits: tuple[Hit, ...]

    def hit(self, x: int, y: int) -> tuple[str, int] | None:
        """What is at cell ``(x, y)``: ``(kind, value)`` or ``None``."""
        for hx, hy, w, h, kind, value in self.hits:
            if hx <= x < hx + w and hy <= y < hy + h:
                return kind, value
        return None


def tile_text(t: Tile) -> str:
    """A tile in a hand: ``[6|4]``."""
    return f"[{t.hi}|{t.lo}]"


def tile_of(action: Action) -> Tile | None:
    """The hand tile an action plays or discards (``None`` for draw, pass, stop)."""
    if isinstance(action, Lead | Attach | Place):
        return action.tile
    if isinstance(action, Discard):
        return action.tile
    return None


def choices_for(view: View, tile: Tile) -> tuple[Action, ...]:
    """The legal actions that play ``tile`` (discards last)."""
    acts = [a for a in view.legal if tile_of(a) is tile]
    return tuple(sorted(acts, key=lambda a: isinstance(a, Discard)))


def describe_choice(view: View, action: Action) -> str:
    """A choice in words: ``on the 6 of 6-6``, ``to lead``, ``3-6@8G8H``, ``discard``."""
    if isinstance(action, Lead):
        return "to lead"
    if isinstance(action, Attach):
        layout = view.layout
        end = layout.end_of(action) if isinstance(layout, Layout) else None
        return f"on the {end.value} of {action.at}" if end is not None else f"on {action.at}"
    if isinstance(action, Discard):
        return "discard"
    return str(action)


def turn_line(view: View, names: Sequence[str]) -> str:
    """Whose turn it is, or how the hand ended."""
    r = view.result
    if r is not None:
        if not r.winners:
            return f"Hand over ({r.reason}): nobody scores"
        who = " and ".join(seat_name(names, w) for w in r.winners)
        if isinstance(view.layout, BoardLayout):
            return f"Game over ({r.reason}): {who} wins"
        pts = ", ".join(str(r.points[w]) for w in r.winners)
        return f"Hand over ({r.reason}): {who} scores {pts}"
    if view.actor is None:
        return ""
    if view.actor == view.seat:
        return "Your turn"
    return f"{seat_name(names, view.actor)} to play"


def seat_items(view: View, names: Sequence[str], totals: Sequence[int] | None) -> list[str]:
    """One short item per seat (hand size, score), then the boneyard and the facts."""
    items = []
    for s in range(view.players):
        mark = "▶" if s == view.actor else " "
        n = view.hand_sizes[s]
        score = ""
        if totals is not None:
            score = f" {totals[s]} pts"
        items.append(f"{mark}{seat_name(names, s)}: {n} tile{'s' if n != 1 else ''}{score}")
    items.append(f"boneyard {view.boneyard_size}")
    notes = [n for n in view.public.notes() if view.players > 2 or not n.startswith("direction")]
    items.extend(notes)
    if isinstance(view.layout, BoardLayout):
        items.append(track_line(view.layout, view.players))
    return items


def wrap(items: Sequence[str], width: int, sep: str = " · ") -> list[str]:
    """Items joined by ``sep`` into lines of at most ``width`` columns."""
    lines: list[str] = []
    cur = ""
    for item in items:
        item = item[:width]
        if not cur:
            cur = item
        elif len(cur) + len(sep) + len(item) <= width:
            cur += sep + item
        else:
            lines.append(cur)
            cur = item
    if cur:
        lines.append(cur)
    return lines


def log_lines(view: View, names: Sequence[str]) -> list[str]:
    """The move log: every effect of every turn, in words, oldest first."""
    out = []
    for turn in view.history:
        texts = [e.describe() for e in turn.events] or [f"P{turn.seat}: {turn.action}"]
        out.extend(texts)
    return out


def seat_name(names: Sequence[str], seat: int) -> str:
    """``P1 greedy``: the seat number the log uses, and who sits there."""
    name = names[seat] if seat < len(names) else ""
    return f"P{seat} {name}".rstrip()


def _hand_row(c: Canvas, frame: Frame, y: int, width: int, rows: int, hits: list[Hit]) -> None:
    """The hand (or the curtain, or every hand in a replay or once the hand is over)."""
    view = frame.view
    if frame.curtain is not None:
        c.put(0, y, frame.curtain[:width], TITLE)
        return
    if frame.hands is not None or (view.revealed is not None):
        hands = frame.hands if frame.hands is not None else view.revealed
        assert hands is not None
        lines = []
        for s, hand in enumerate(hands):
            tiles = " ".join(tile_text(t) for t in hand) or "(none)"
            lines.append(f"{seat_name(frame.names, s)}: {tiles}")
        for k, line in enumerate(wrap(lines, width, sep="   ")[:rows]):
            c.put(0, y + k, line)
        return
    if view.seat is None:
        c.put(0, y, "(watching)", DIM)
        return
    playable = {tile_of(a) for a in view.legal}
    x, row = 0, 0
    c.put(0, y, "Hand:", TITLE)
    x = 6
    for i, t in enumerate(view.hand):
        key = HAND_KEYS[i] if i < len(HAND_KEYS) else " "
        text = tile_text(t)
        if x + len(text) + 2 > width:
            row += 1
            x = 6
            if row >= rows:
                c.put(width - 1, y + rows - 1, "…")
                break
        style = LABEL if i == frame.selected else TILE if t in playable else DIM
        c.put(x, y + row, key, DIM)
        c.put(x + 1, y + row, text, style)
        for k, pip in ((2, t.hi), (3 + len(str(t.hi)), t.lo)):
            c.put(x + k, y + row, str(pip), pip_style(pip, style))
        hits.append((x, y + row, len(text) + 1, 1, "tile", i))
        x += len(text) + 2


def _prompt(frame: Frame, width: int) -> list[tuple[str, str, int | None, str]]:
    """The prompt line as pieces ``(text, style, command or choice, kind)``."""
    view = frame.view
    pieces: list[tuple[str, str, int | None, str]] = []
    if frame.message:
        return [(frame.message, ERROR if frame.error else TITLE, None, "")]
    if frame.hint:
        parts = [f"{a} {win:.0%} ({visits})" for a, visits, win in frame.hint[:6]]
        return [("Hint (win, visits): " + "  ".join(parts), TITLE, None, "")]
    if frame.selected is not None and frame.choices:
        t = frame.view.hand[frame.selected]
        n = len(frame.choices)
        head = f"{tile_text(t)} goes" + (f" ({frame.focus + 1} of {n})" if n > 1 else "") + ": "
        pieces.append((head, TITLE, None, ""))
        texts = []
        for k, a in enumerate(frame.choices):
            letter = LETTERS[k] if k < len(LETTERS) else "·"
            texts.append(f"({letter}) {describe_choice(view, a)}")
        first = 0  # scroll the choices so that the focused one shows
        while (
            first < frame.focus
            and len(head) + sum(len(x) + 2 for x in texts[first : frame.focus + 1]) > width
        ):
            first += 1
        for k in range(first, n):
            style = LABEL if k == frame.focus else ""
            pieces.append((texts[k], style, k, "choice"))
            pieces.append(("  ", "", None, ""))
        return pieces
    if view.seat is not None and view.actor == view.seat and view.result is None:
        words = {str(a) for a in view.legal}
        cmds = [
            (k, c)
            for k, c in enumerate(COMMANDS)
            if c in words or (c == "discard" and any(isinstance(a, Discard) for a in view.legal))
        ]
        if any(tile_of(a) is not None and not isinstance(a, Discard) for a in view.legal):
            pieces.append(("Pick a tile (1-9, ←/→, click)", "", None, ""))
        for k, c in cmds:
            key = {"draw": "d", "pass": "p", "discard": "x", "stop": "s"}[c]
            pieces.append(("   ", "", None, ""))
            pieces.append((f"[{key}] {c}", LABEL, k, "command"))
    return pieces


def _draw_middle(
    frame: Frame, width: int, height: int
) -> tuple[Canvas, Box | None, Box | None, dict[tuple[int, int], Box]]:
    """The table (or the board) in ``width`` by ``height`` cells: its canvas, the cells of
    the last tile and of the first, and the cells of the lettered ends."""
    layout = frame.view.layout
    if isinstance(layout, Layout):
        labels: dict[tuple[int, int], str] = {}
        for k, a in enumerate(frame.choices):
            end = layout.end_of(a)
            if end is not None and k < len(LETTERS):
                labels[(end.anchor, end.slot)] = LETTERS[k]
        last = len(layout.placements) - 1
        drawn = draw_table(layout, width, labels, last=last if last >= 0 else None, height=height)
        return drawn.canvas, drawn.focus, drawn.tiles.get(0), dict(drawn.ends)
    preview = None
    if frame.choices and 0 <= frame.focus < len(frame.choices):
        chosen = frame.choices[frame.focus]
        preview = chosen if isinstance(chosen, Place) else None
    newest = len(layout.placements) - 1 if layout.placements else None
    label = LETTERS[frame.focus] if preview is not None and frame.focus < len(LETTERS) else None
    board = draw_board(layout, last=newest, preview=preview, label=label or "▸")
    return board.canvas, None, None, {}


def _keep(room: int, size: int, centre: int, start: int, length: int) -> int:
    """The offset that centres ``centre`` in ``room`` cells, moved as little as needed to
    show ``start`` to ``start + length`` too, and clamped to the ``size`` drawn."""
    off = room // 2 - centre
    if start + off < 0:
        off = -start
    if start + length + off > room:
        off = room - start - length
    return min(0, max(room - size, off))


def render_screen(frame: Frame, width: int, height: int) -> Drawn:
    """The screen for ``frame`` at ``width`` x ``height`` cells."""
    view = frame.view
    c = Canvas(width, height)
    hits: list[Hit] = []
    wide = width >= WIDE
    main_w = width - SIDE - 1 if wide else width
    # the rows the table may take: all but the title, a line of seats, the hand, a line of
    # log (when it is not beside the table), the prompt and the keys
    table, focus, root, end_boxes = _draw_middle(frame, main_w, max(6, height - 7 + wide))
    if not wide and isinstance(view.layout, BoardLayout) and width - table.width > 26:
        wide, main_w = True, table.width  # room for the log beside the board
    side_w = width - main_w - 1
    title = frame.title or view.game
    turn = turn_line(view, frame.names)
    c.put(0, 0, title[:width], TITLE)
    if turn:
        c.put(max(len(title) + 3, width - len(turn)), 0, turn[:width], TITLE)
    seats = wrap([*seat_items(view, frame.names, frame.totals), *frame.extra], main_w)
    seats = seats[:3]
    hand_rows = 3 if (frame.hands is not None or view.revealed is not None) else 2
    log_rows = 0 if wide else 3
    least = 3 + 1 + min(hand_rows, 1) + min(log_rows, 1)
    if height - least >= table.height:  # fewer lines of log and hand let the table fit
        while height - (3 + len(seats) + hand_rows + log_rows) < table.height:
            if log_rows > 1:
                log_rows -= 1
            elif hand_rows > 1:
                hand_rows -= 1
            else:
                seats = seats[:-1]
    elif log_rows > 2:
        log_rows = 2  # it will not fit: give it what can be spared
    for k, line in enumerate(seats):
        c.put(0, 1 + k, line)
    top = 1 + len(seats)
    bottom = height - 2 - hand_rows - log_rows
    table_h = max(1, bottom - top)
    # the table, centred when it fits, else panned to keep the last tile played in sight
    ox = (main_w - table.width) // 2 if table.width <= main_w else 0
    oy = (table_h - table.height) // 2 if table.height <= table_h else 0
    layout = view.layout
    if isinstance(layout, Layout) and frame.choices:  # the place to play in sight first
        end = layout.end_of(frame.choices[min(frame.focus, len(frame.choices) - 1)])
        if end is not None and (end.anchor, end.slot) in end_boxes:
            focus = end_boxes[(end.anchor, end.slot)]
    if focus is not None and root is not None:  # the first tile in sight, and the last
        if table.width > main_w:
            ox = _keep(main_w, table.width, root[0] + root[2] // 2, focus[0], focus[2])
        if table.height > table_h:
            oy = _keep(table_h, table.height, root[1] + root[3] // 2, focus[1], focus[3])
    ox += frame.pan[0]
    oy += frame.pan[1]
    port = Canvas(main_w, table_h)
    port.blit(table, ox, oy)
    c.blit(port, 0, top)
    if isinstance(layout, Layout):
        for k, a in enumerate(frame.choices):
            end = layout.end_of(a)
            box = end_boxes.get((end.anchor, end.slot)) if end is not None else None
            if box is not None and 0 <= box[0] + ox < main_w and 0 <= box[1] + oy < table_h:
                hits.append((box[0] + ox, top + box[1] + oy, box[2], box[3], "choice", k))
    if (table.width > main_w or table.height > table_h) and len(title) + 24 < width - len(turn):
        c.put(len(title) + 2, 0, "(more: shift+arrows)", DIM)
    # the move log
    log = list(frame.log)
    if wide:
        for y in range(1, height - 2):
            c.put(main_w, y, "│", DIM)
        c.put(main_w + 1, 1, "Moves", TITLE)
        rows: list[tuple[str, bool]] = []
        for k, line in enumerate(log):
            for part in textwrap.wrap(line, side_w - 1, subsequent_indent="  "):
                rows.append((part, k == len(log) - 1))
        room = max(0, height - 5)
        for k, (part, newest) in enumerate(rows[len(rows) - room :] if room else []):
            c.put(main_w + 1, 2 + k, part, LAST if newest else "")
    else:
        shown = log[-log_rows:] if log_rows else []
        for k, line in enumerate(shown):
            c.put(0, bottom + k, line[:width], LAST if k == len(shown) - 1 else "")
    _hand_row(c, frame, height - 2 - hand_rows, main_w, hand_rows, hits)
    # the prompt line and the keys
    x = 0
    for text, style, value, kind in _prompt(frame, width):
        text = text[: max(0, width - x)]
        c.put(x, height - 2, text, style)
        if kind and value is not None and text:
            hits.append((x, height - 2, len(text), 1, kind, value))
        x += len(text)
    c.put(0, height - 1, frame.keys[:width].ljust(width), KEYS)
    return Drawn(c, tuple(hits))


__all__ = [
    "COMMANDS",
    "HAND_KEYS",
    "LETTERS",
    "OPEN",
    "Drawn",
    "Frame",
    "choices_for",
    "describe_choice",
    "log_lines",
    "render_screen",
    "tile_of",
    "tile_text",
    "turn_line",
]
