"""The whole screen as a pure function: a :class:`Frame` (a view and what the player has
chosen) and a size in, a :class:`Drawn` screen out (a canvas and where the mouse can click).

Rows from the top: the title and whose turn it is (with, when the table is bigger than its
part of the screen, which way there is more of it), the seats (hand sizes, scores, the game's
public facts), the table (laid out for the rows left to it, panned to keep the last tile played
in sight), what happened since this seat last moved (in a column on the right when the screen
is wide enough, or beside the board), the hand with its key numbers, the prompt (what can be
done now) and the keys. A line that is too long wraps: nothing is cut at the screen's edge.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field

from bonepile.actions import Action, Attach, Discard, Lead, Place
from bonepile.grid import BoardLayout
from bonepile.layout import Layout
from bonepile.tiles import Tile
from bonepile.tui.board import draw_board, track_line
from bonepile.tui.canvas import Canvas
from bonepile.tui.explain import Ending, headline, score_items, seat_name
from bonepile.tui.table import LABEL, LAST, OPEN, TILE, draw_table, pip_style
from bonepile.view import Turn, View

LETTERS = "abcdefghijklmnopqrstuvwxyz"
"""The letters that name the places the chosen tile can go, in order: while a tile is chosen,
a letter that names one of its places plays it there (before what the key does otherwise)."""
HAND_KEYS = "1234567890"
"""The keys that pick the first ten tiles of a hand."""
WIDE = 110
"""From this many columns the move log has a column of its own on the right."""
SIDE = 36
"""The width of that column."""
MIN_TABLE = 4
"""The rows the table keeps while a hand is played, however much happened since your move."""
OLDER_ROWS = 3
"""Below the table, earlier moves fill the log up to this many rows when there is room."""
PROMPT_ROWS = 3
"""The prompt wraps to at most this many rows (then it scrolls to the chosen place)."""
SEAT_ROWS = 4
"""The seats, scores and facts wrap to at most this many rows."""
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
COMMAND_KEYS = {"draw": "d", "pass": "p", "discard": "x", "stop": "s"}
"""The key of each command."""
HINT_KEY = "h"
"""The key that asks for a hint."""
QUIT_KEY = "q"
"""The key that quits (or leaves a web table)."""
AGAIN = 0
LEAVE = 1
"""The values of the two ``ending`` places to click once a hand is over: Enter's (the next
hand, or a new deal) and q's."""

WATCH_KEYS = "watching  shift+arrows pan  Esc centre  q quit"
"""The keys line of a spectator."""
REPLAY_KEYS = "→/n next  ←/b back  Home/End  PgUp/PgDn hand  shift+arrows pan  ? keys  q quit"
"""The keys line of a replay."""

_OPEN_END = re.compile(r" \(open end \d+\)")


@dataclass(frozen=True)
class Frame:
    """What the screen shows: the ``view`` (of the seat playing here, or a spectator's),
    each seat's ``names``, a ``title``, the chosen hand tile (``selected``, an index into
    ``view.hand``) with its lettered ``choices`` and the ``focus`` among them, the ``log``
    lines (none: no log), a ``message`` (an error when ``error``), the bot's ``hint``, a
    ``curtain`` that hides the hand (hot-seat), every hand for a replay (``hands``), the
    ``keys`` line (items two spaces apart), a ``pan`` of the table in cells, the match
    ``totals``, ``extra`` items for the seats line and, once the hand is over, its
    ``ending`` (who won, the scores, what Enter and q do)."""

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
    ending: Ending | None = None


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


@dataclass(frozen=True)
class Piece:
    """Text laid out on a row: from column ``x``, in ``style``; ``kind`` and ``value`` make it
    a place to click (a ``tile``, a ``choice``, a ``command``, an ``ending`` button)."""

    x: int
    text: str
    style: str = ""
    kind: str = ""
    value: int = 0


Atom = tuple[str, str, str, int, int]
"""Text to flow onto rows: ``(text, style, kind, value, gap)``, ``gap`` the spaces before it
when it follows another on the same row."""
Row = list[Piece]


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


def commands(view: View) -> tuple[str, ...]:
    """The commands (:data:`COMMANDS`) the seat shown may use now, from its legal actions."""
    if view.seat is None or view.actor != view.seat or view.result is not None:
        return ()
    words = {str(a) for a in view.legal}
    discard = any(isinstance(a, Discard) for a in view.legal)
    return tuple(c for c in COMMANDS if c in words or (c == "discard" and discard))


def letters(places: int) -> str:
    """The letters of ``places`` places: ``a``, ``a-b``, ``a-n`` (every place past the last
    letter is reached with Tab)."""
    last = LETTERS[min(places, len(LETTERS)) - 1]
    return "a" if last == "a" else f"a-{last}"


def play_keys(view: View, again: str = "", places: int = 0, leave: str = "quit") -> str:
    """The keys line while playing: only the commands the seat may use now are offered. With
    a tile chosen that has ``places`` places, their letters (a command whose key is one of
    them is reached after Esc; q then quits with ctrl+q). Once the hand is over, what Enter
    does (``again``: the next hand, a new deal; empty: nothing) and q (``leave``)."""
    if view.result is not None:
        items = [f"Enter {again}"] if again else []
        return "  ".join([*items, "shift+arrows pan", "? keys", f"q {leave}"])
    taken = LETTERS[:places]
    if places:
        items = [f"{letters(places)} place", "Tab next", "Enter play", "Esc back"]
    else:
        board = isinstance(view.layout, BoardLayout)
        items = ["1-9 tile", "Tab/a,b… place" if board else "a,b… place", "Enter play"]
    items += [f"{COMMAND_KEYS[c]} {c}" for c in commands(view) if COMMAND_KEYS[c] not in taken]
    items += [f"{HINT_KEY} hint"] if HINT_KEY not in taken else []
    items += [": type", "? keys", f"{'ctrl+q' if QUIT_KEY in taken else 'q'} {leave}"]
    return "  ".join(items)


def help_text(view: View, leave: str = "quit") -> str:
    """Every key while playing, in words (what ``?`` shows)."""
    words = [
        "1-9, 0 or ←/→ pick a tile",
        "a, b… or Tab then Enter place it (while a tile is chosen, its letters come first)",
        *(f"{COMMAND_KEYS[c]} {c}" for c in commands(view)),
        "h hint",
        ": type a move",
        "shift+arrows pan",
        "Esc cancel",
        f"q or ctrl+q {leave}",
    ]
    return "Keys: " + " · ".join(words)


def turn_line(view: View, names: Sequence[str]) -> str:
    """Whose turn it is, or how the hand ended (with the winner's score)."""
    r = view.result
    if r is not None:
        layout = view.layout
        if not r.winners:
            if isinstance(layout, BoardLayout):
                return f"Game over ({r.reason}): nobody wins"
            return f"Hand over ({r.reason}): nobody scores"
        who = " and ".join(seat_name(names, w) for w in r.winners)
        if isinstance(layout, BoardLayout):
            pos = layout.positions
            pts = " and ".join(str(pos[w]) for w in r.winners if w < len(pos))
            return f"Game over ({r.reason}): {who} wins" + (f" with {pts} pts" if pts else "")
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
    layout = view.layout
    track = layout.positions if isinstance(layout, BoardLayout) else ()
    for s in range(view.players):
        mark = "▶" if s == view.actor else " "
        n = view.hand_sizes[s]
        score = ""
        if s < len(track):
            score = f", {track[s]} pts"
        elif totals is not None:
            score = f", {totals[s]} pts"
        items.append(f"{mark}{seat_name(names, s)}: {n} tile{'s' if n != 1 else ''}{score}")
    items.append(f"boneyard {view.boneyard_size}")
    notes = [n for n in view.public.notes() if view.players > 2 or not n.startswith("direction")]
    items.extend(notes)
    if isinstance(layout, BoardLayout):
        items.append(track_line(layout, view.players))
    return items


def wrap(items: Sequence[str], width: int, sep: str = " · ", indent: str = "  ") -> list[str]:
    """Items joined by ``sep`` into lines of at most ``width`` columns; an item longer than a
    line is broken between words onto lines of its own (the later ones indented)."""
    width = max(1, width)
    lines: list[str] = []
    cur = ""
    for item in items:
        if len(item) > width:
            if cur:
                lines.append(cur)
                cur = ""
            lines.extend(_break(item, width, indent))
        elif not cur:
            cur = item
        elif len(cur) + len(sep) + len(item) <= width:
            cur += sep + item
        else:
            lines.append(cur)
            cur = item
    if cur:
        lines.append(cur)
    return lines


def _break(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` broken between words into lines of at most ``width`` columns."""
    if len(indent) + 4 > width:
        indent = ""
    return textwrap.wrap(
        text, width, subsequent_indent=indent, break_on_hyphens=False, drop_whitespace=True
    ) or [""]


def log_lines(view: View, names: Sequence[str]) -> list[str]:
    """The move log: every effect of every turn, in words, oldest first."""
    out = []
    for turn in view.history:
        texts = [e.describe() for e in turn.events] or [f"P{turn.seat}: {turn.action}"]
        out.extend(texts)
    return out


def turn_text(turn: Turn) -> str:
    """One turn on one line: ``P1 plays 14-14 on 13-0, breaks the spell, takes an extra
    turn`` (the open end a tile leaves is on the table, so it is left out)."""
    texts = [_OPEN_END.sub("", e.describe()) for e in turn.events]
    if not texts:
        return f"P{turn.seat}: {turn.action}"
    prefix = f"P{turn.seat} "
    out = texts[0]
    for t in texts[1:]:
        out += f", {t[len(prefix) :]}" if t.startswith(prefix) else f"; {t}"
    return out


def since_last_move(view: View) -> int:
    """Where, in ``view.history``, what this seat must know begins: its own last turn (and
    every turn after it); the whole hand if it has not moved yet; for a spectator, the last
    turn."""
    hist = view.history
    if view.seat is None:
        return max(0, len(hist) - 1)
    for k in range(len(hist) - 1, -1, -1):
        if hist[k].seat == view.seat:
            return k
    return 0


# ---------------------------------------------------------------------- laying out text
def _flow(atoms: Sequence[Atom], width: int, indent: int = 0) -> list[Row]:
    """Atoms laid out left to right on rows of ``width`` columns (a row after the first
    starts at ``indent``); an atom longer than a row is broken between words."""
    width = max(1, width)
    indent = indent if indent + 8 <= width else 0
    rows: list[Row] = [[]]
    x, fresh = 0, True
    for text, style, kind, value, gap in atoms:
        parts = [text] if len(text) + indent <= width else _break(text, width - indent)
        for k, part in enumerate(parts):
            g = gap if k == 0 else 1
            if not fresh and x + g + len(part) > width:
                rows.append([])
                x, fresh = indent, True
            if not fresh:
                x += g
            rows[-1].append(Piece(x, part[: max(0, width - x)], style, kind, value))
            x += len(part)
            fresh = False
    return [r for r in rows if r]


def _words(text: str, style: str = "") -> list[Atom]:
    """``text`` as one atom a word, to flow."""
    return [(w, style, "", 0, 1) for w in text.split()]


def _put_rows(c: Canvas, rows: Sequence[Row], x0: int, y0: int, hits: list[Hit]) -> None:
    """Draw ``rows`` from ``(x0, y0)``: each piece in its style (the gap between two pieces of
    one style in it too), a place to click where a piece has a kind."""
    for j, row in enumerate(rows):
        y = y0 + j
        prev: Piece | None = None
        for p in row:
            if prev is not None and prev.style and prev.style == p.style and not p.kind:
                end = prev.x + len(prev.text)
                c.put(x0 + end, y, " " * max(0, p.x - end), p.style)
            c.put(x0 + p.x, y, p.text, p.style)
            if p.kind and p.text:
                hits.append((x0 + p.x, y, len(p.text), 1, p.kind, p.value))
            prev = p


def _log_rows(
    items: Sequence[str], styles: Sequence[str], width: int, budget: int, lines: int
) -> list[Row]:
    """``items`` one a line (a long one wrapped and indented) if that takes at most ``lines``
    rows (and ``budget``), else flowed together with ``·`` between them; if even that takes
    more than ``budget`` rows, the newest items that fit, after ``…``."""
    if budget <= 0 or not items:
        return []
    one: list[Row] = []
    for item, style in zip(items, styles, strict=True):
        one.extend(_flow(_words(item, style), width, indent=2))
    if len(one) <= min(budget, max(OLDER_ROWS, lines)):
        return one
    rows: list[Row] = []
    for first in range(len(items)):
        atoms: list[Atom] = [("…", DIM, "", 0, 0)] if first else []
        for k in range(first, len(items)):
            # the dot between two turns ends a row rather than starting one
            words = _words(items[k], styles[k])
            if words and k < len(items) - 1:
                words[-1] = (words[-1][0] + " ·", *words[-1][1:])
            atoms.extend(words)
        rows = _flow(atoms, width)
        if len(rows) <= budget:
            return rows
    return rows[-budget:]


def _hand_rows(frame: Frame, width: int) -> list[Row]:
    """The hand (or the curtain, or every hand in a replay or once the hand is over)."""
    view = frame.view
    if frame.curtain is not None:
        return _flow(_words(frame.curtain, TITLE), width)
    hands = frame.hands if frame.hands is not None else view.revealed
    if hands is not None:
        lines = []
        for s, hand in enumerate(hands):
            tiles = " ".join(tile_text(t) for t in hand) or "(none)"
            lines.append(f"{seat_name(frame.names, s)}: {tiles}")
        return [[Piece(0, line)] for line in wrap(lines, width, sep="   ")]
    if view.seat is None:
        return [[Piece(0, "(watching)", DIM)]]
    playable = {tile_of(a) for a in view.legal}
    atoms: list[Atom] = [("Hand:", TITLE, "", 0, 0)]
    for i, t in enumerate(view.hand):
        key = HAND_KEYS[i] if i < len(HAND_KEYS) else " "
        style = LABEL if i == frame.selected else TILE if t in playable else DIM
        atoms.append((key + tile_text(t), style, "tile", i, 1))
    return _flow(atoms, width, indent=6)


def _put_hand(c: Canvas, rows: Sequence[Row], frame: Frame, y0: int, hits: list[Hit]) -> None:
    """Draw the hand's rows: a tile's key dim, its pips coloured."""
    hand = frame.view.hand
    for j, row in enumerate(rows):
        y = y0 + j
        for p in row:
            if p.kind != "tile" or not 0 <= p.value < len(hand):
                c.put(p.x, y, p.text, p.style)
                continue
            t = hand[p.value]
            c.put(p.x, y, p.text[:1], DIM)
            c.put(p.x + 1, y, p.text[1:], p.style)
            for k, pip in ((2, t.hi), (3 + len(str(t.hi)), t.lo)):
                c.put(p.x + k, y, str(pip)[: max(0, len(p.text) - k)], pip_style(pip, p.style))
            hits.append((p.x, y, len(p.text), 1, "tile", p.value))


def _prompt_atoms(frame: Frame) -> tuple[list[Atom], int | None]:
    """The prompt as atoms, and the index of the focused choice's atom (if any)."""
    view = frame.view
    if frame.message:
        return _words(frame.message, ERROR if frame.error else TITLE), None
    if frame.hint:
        atoms: list[Atom] = [("Hint (win, visits):", TITLE, "", 0, 0)]
        for move, visits, win in frame.hint[:6]:
            atoms.append((f"{move} {win:.0%} ({visits})", TITLE, "", 0, 2))
        return atoms, None
    if frame.selected is not None and frame.choices and frame.selected < len(view.hand):
        t = view.hand[frame.selected]
        n = len(frame.choices)
        head = f"{tile_text(t)} goes" + (f" ({frame.focus + 1} of {n})" if n > 1 else "") + ":"
        atoms = [(head, TITLE, "", 0, 0)]
        for k, a in enumerate(frame.choices):
            letter = LETTERS[k] if k < len(LETTERS) else "·"
            style = LABEL if k == frame.focus else ""
            atoms.append(
                (f"({letter}) {describe_choice(view, a)}", style, "choice", k, 2 if k else 1)
            )
        return atoms, 1 + min(max(0, frame.focus), n - 1)
    atoms = []
    if view.seat is not None and view.actor == view.seat and view.result is None:
        if any(tile_of(a) is not None and not isinstance(a, Discard) for a in view.legal):
            atoms.append(("Pick a tile (1-9, ←/→, click)", "", "", 0, 0))
        for c in commands(view):
            text = f"[{COMMAND_KEYS[c]}] {c}"
            atoms.append((text, LABEL, "command", COMMANDS.index(c), 3))
    return atoms, None


def _ending_atoms(frame: Frame, end: Ending) -> list[Atom]:
    """Once the hand is over: who won, the scores, and what Enter and q do (to click too)."""
    view = frame.view
    atoms: list[Atom] = [(headline(view, frame.names, end), TITLE, "", 0, 0)]
    items = score_items(view, frame.names, end)
    for k, item in enumerate(items):
        atoms.append(
            (item + (" ·" if 0 < k < len(items) - 1 else ""), "", "", 0, 2 if k == 0 else 1)
        )
    if end.again:
        atoms.append((f"[Enter] {end.again}", LABEL, "ending", AGAIN, 3))
    atoms.append((f"[{QUIT_KEY}] {end.leave}", LABEL, "ending", LEAVE, 3))
    return atoms


def _prompt_rows(frame: Frame, width: int) -> list[Row]:
    """The prompt wrapped to at most :data:`PROMPT_ROWS` rows (those with the focused choice
    when there are more). Once the hand is over, how it ended, a message below it."""
    if frame.ending is not None and frame.view.result is not None and not frame.hint:
        said: list[Row] = []
        if frame.message:
            style = ERROR if frame.error else TITLE
            said = _flow(_words(frame.message, style), width, indent=2)[: PROMPT_ROWS - 1]
        ending = _flow(_ending_atoms(frame, frame.ending), width, indent=2)
        return ending[: PROMPT_ROWS - len(said)] + said
    atoms, focus = _prompt_atoms(frame)
    rows = _flow(atoms, width, indent=2)
    if len(rows) <= PROMPT_ROWS:
        return rows
    at = 0
    if focus is not None:
        _, _, kind, value, _ = atoms[focus]
        at = next(
            (j for j, r in enumerate(rows) if any(p.kind == kind and p.value == value for p in r)),
            0,
        )
    first = min(max(0, at - PROMPT_ROWS + 1), len(rows) - PROMPT_ROWS)
    return rows[first : first + PROMPT_ROWS]


# ---------------------------------------------------------------------- the table
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


def _offsets(
    table: Canvas,
    table_w: int,
    width: int,
    height: int,
    focus: Box | None,
    root: Box | None,
    pan: tuple[int, int],
) -> tuple[int, int]:
    """Where the table's corner goes in a port of ``width`` by ``height``: centred when it
    fits, else panned to keep the first tile (``root``) and the last (``focus``) in sight;
    then moved by the player's ``pan``."""
    ox = (width - table_w) // 2 if table_w <= width else 0
    oy = (height - table.height) // 2 if table.height <= height else 0
    if focus is not None and root is not None:
        if table_w > width:
            ox = _keep(width, table_w, root[0] + root[2] // 2, focus[0], focus[2])
        if table.height > height:
            oy = _keep(height, table.height, root[1] + root[3] // 2, focus[1], focus[3])
    return ox + pan[0], oy + pan[1]


def more_hint(left: bool, right: bool, up: bool, down: bool) -> str:
    """What says that the table goes on past the screen, and which way: ``(more →↓:
    shift+arrows)``; empty when all of it shows."""
    ways = "".join(a for a, on in (("←", left), ("→", right), ("↑", up), ("↓", down)) if on)
    return f"(more {ways}: shift+arrows)" if ways else ""


def _head(title: str, turn: str, width: int) -> list[Row]:
    """The top row, the title on the left and the turn on the right; two rows when they do
    not fit side by side."""
    if len(title) > width:
        title = title[: width - 1] + "…"
    turn = turn[:width]
    if not turn:
        return [[Piece(0, title, TITLE)]]
    right = Piece(width - len(turn), turn, TITLE)
    if len(title) + 1 + len(turn) > width:
        return [[Piece(0, title, TITLE)], [right]]
    return [[Piece(0, title, TITLE), right]]


def _with_more(head: Sequence[Row], more: str, width: int) -> list[Row] | None:
    """``head`` with the ``more`` hint on the first row with room for it (after the title,
    before the turn); ``None`` if no row has."""
    rows = [list(r) for r in head]
    if not more:
        return rows
    for row in rows:
        left = max((p.x + len(p.text) + 2 for p in row if p.x == 0 and p.text), default=0)
        right = min((p.x - 1 for p in row if p.x > 0), default=width)
        if left + len(more) <= right:
            row.append(Piece(left, more, DIM))
            return rows
    return None


def _put_side(
    c: Canvas, log: Sequence[str], recent: Sequence[Turn], x: int, y: int, width: int, rows: int
) -> None:
    """The move log in a column of its own (``width`` by ``rows`` from ``(x, y)``, a rule on
    its left): its newest lines, what happened since your last move (``recent``) in full
    brightness, the last turn highlighted, earlier moves dimmed."""
    for k in range(rows):
        c.put(x - 1, y + k, "│", DIM)
    c.put(x, y, "Moves", TITLE)
    fresh = sum(max(1, len(t.events)) for t in recent)
    newest = max(1, len(recent[-1].events)) if recent else 0
    room = max(0, rows - 1)
    shown: list[tuple[str, str]] = []
    for k in range(len(log) - 1, -1, -1):  # the newest lines that show whole
        age = len(log) - k
        style = LAST if age <= newest else "" if age <= fresh else DIM
        parts = _break(log[k], max(1, width - 1), "  ")
        if len(shown) + len(parts) > room:
            if not shown:  # one line longer than the column: its start
                shown = [(part, style) for part in parts[:room]]
            break
        shown[:0] = [(part, style) for part in parts]
    for k, (part, style) in enumerate(shown):
        c.put(x, y + 1 + k, part, style)


def render_screen(frame: Frame, width: int, height: int) -> Drawn:
    """The screen for ``frame`` at ``width`` x ``height`` cells."""
    view = frame.view
    layout = view.layout
    c = Canvas(width, height)
    hits: list[Hit] = []
    wide = width >= WIDE
    main_w = width - SIDE - 1 if wide else width
    board = None
    beside = False  # the log beside the board, the hand and the prompt across the whole width
    if isinstance(layout, BoardLayout):  # a board keeps its size: the log goes beside it
        board = _draw_middle(frame, main_w, height)
        if width - board[0].width > 26:
            wide, beside, main_w = True, True, board[0].width
    # the rows that are not the table's: the title, the seats, the hand, the prompt, the keys
    seats = wrap([*seat_items(view, frame.names, frame.totals), *frame.extra], width)
    seats = seats[:SEAT_ROWS]
    prompt = _prompt_rows(frame, width)
    keys = wrap(frame.keys.split("  "), width, sep="  ") if frame.keys else []
    hand = _hand_rows(frame, width if beside else main_w)
    hand = hand[: max(1, height // 3)]
    parts: tuple[list[str] | list[Row], ...] = (seats, prompt, keys, hand)
    title = frame.title or view.game
    turn = turn_line(view, frame.names)
    head = _head(title, turn, width)
    while len(head) + sum(len(p) for p in parts) + 1 > height:
        longest = max(parts, key=len)
        if len(longest) <= 1:
            break
        longest.pop()
    top = len(head) + len(seats)
    bottom = height - len(keys) - len(prompt)  # the first row of the prompt
    avail = max(1, bottom - top - len(hand))  # for the table and, below it, the log
    # what happened since this seat last moved (below the table when there is no column)
    hist = view.history if frame.log else ()
    start = since_last_move(view)
    recent = [turn_text(t) for t in hist[start:]]
    styles = [""] * len(recent)
    if styles:
        styles[-1] = LAST
    over = view.result is not None
    log: list[Row] = []
    if not wide:
        log = _log_rows(recent, styles, width, max(1, avail - MIN_TABLE), avail // 2)
    table_h = max(1, avail - len(log))
    if board is not None:
        table, focus, root, end_boxes = board
    else:
        table, focus, root, end_boxes = _draw_middle(frame, main_w, table_h)
        if over and len(log) > 1 and (table.height > table_h or table.used_width() > main_w):
            # the hand is over: the log gives up the rows the final table needs to show whole
            for rows in range(len(log) - 1, 0, -1):
                whole = _draw_middle(frame, main_w, avail - rows)
                if whole[0].height <= avail - rows and whole[0].used_width() <= main_w:
                    table, focus, root, end_boxes = whole
                    log = _log_rows(recent, styles, width, rows, rows)
                    table_h = avail - len(log)
                    break
    if not wide and table.height < table_h and start > 0:  # room for earlier moves
        extra = min(table_h - table.height, OLDER_ROWS - len(log))
        if extra > 0:
            older = [turn_text(t) for t in hist[:start]]
            rows_old: list[Row] = []
            for item in older:
                rows_old.extend(_flow(_words(item, DIM), width, indent=2))
            log = rows_old[len(rows_old) - min(extra, len(rows_old)) :] + log
            table_h = avail - len(log)
    for k, line in enumerate(seats):
        c.put(0, len(head) + k, line)
    if isinstance(layout, Layout) and frame.choices:  # the place to play in sight first
        end = layout.end_of(frame.choices[min(frame.focus, len(frame.choices) - 1)])
        if end is not None and (end.anchor, end.slot) in end_boxes:
            focus = end_boxes[(end.anchor, end.slot)]
    table_w = table.used_width()
    ox, oy = _offsets(table, table_w, main_w, table_h, focus, root, frame.pan)
    more = more_hint(ox < 0, ox + table_w > main_w, oy < 0, oy + table.height > table_h)
    head_rows = _with_more(head, more, width)
    more_y = None
    if head_rows is None:  # no room at the top: the hint takes the table's last row
        head_rows = list(head)
        table_h = max(1, table_h - 1)
        more_y = top + table_h
        ox, oy = _offsets(table, table_w, main_w, table_h, focus, root, frame.pan)
        more = more_hint(ox < 0, ox + table_w > main_w, oy < 0, oy + table.height > table_h)
    _put_rows(c, head_rows, 0, 0, hits)
    if more_y is not None:
        c.put(max(0, main_w - len(more)), more_y, more[:main_w], DIM)
    port = Canvas(main_w, table_h)
    port.blit(table, ox, oy)
    c.blit(port, 0, top)
    if isinstance(layout, Layout):
        for k, a in enumerate(frame.choices):
            end = layout.end_of(a)
            box = end_boxes.get((end.anchor, end.slot)) if end is not None else None
            if box is not None and 0 <= box[0] + ox < main_w and 0 <= box[1] + oy < table_h:
                hits.append((box[0] + ox, top + box[1] + oy, box[2], box[3], "choice", k))
    hand_y = top + table_h + len(log) + (1 if more_y is not None else 0)
    if wide:
        rows = (hand_y if beside else bottom) - top
        _put_side(c, frame.log, hist[start:], main_w + 1, top, width - main_w - 1, rows)
    else:
        _put_rows(c, log, 0, hand_y - len(log), hits)
    _put_hand(c, hand, frame, hand_y, hits)
    _put_rows(c, prompt, 0, bottom, hits)
    for k, line in enumerate(keys):
        c.put(0, height - len(keys) + k, line.ljust(width), KEYS)
    return Drawn(c, tuple(hits))


__all__ = [
    "COMMANDS",
    "COMMAND_KEYS",
    "HAND_KEYS",
    "LETTERS",
    "OPEN",
    "REPLAY_KEYS",
    "WATCH_KEYS",
    "Drawn",
    "Frame",
    "Piece",
    "choices_for",
    "commands",
    "describe_choice",
    "help_text",
    "log_lines",
    "more_hint",
    "play_keys",
    "render_screen",
    "since_last_move",
    "tile_of",
    "tile_text",
    "turn_line",
    "turn_text",
    "wrap",
]
