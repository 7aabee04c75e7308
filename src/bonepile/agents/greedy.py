"""A one-ply heuristic player for every game: a sensible move at once, no search.

It scores each legal action from its own view only:

* line games (``block``, ``draw``): shed heavy tiles, play doubles early (they are the hardest
  to place), keep the open ends in suits it still holds and in suits an opponent showed it
  lacks (by passing or drawing);
* Doubles: shed heavy tiles but hold the doubles back (each unlocks a number for everyone and
  opens three sides), and leave unlocked ends only where it can follow;
* Super Dominoes: the same, plus the effects used against the others: a 15 when an opponent
  is close to going out, a 14 for the extra turn, a 13 spell, a 3 to turn play away from a
  short hand, a double to skip the next player;
* Double Double Dominoes: the points the tile scores for itself (diamonds, doubled for a
  double, and its own track bonus) against the bonuses it hands the others, a chain when it
  pays, the least useful tile when it must discard.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bonepile.actions import Action, Attach, Discard, Draw, Lead, Pass, Place, Stop
from bonepile.events import Led, Placed
from bonepile.grid import BoardLayout
from bonepile.layout import Layout
from bonepile.tiles import Tile
from bonepile.view import View


def _open_after(action: Action, layout: Layout) -> tuple[int, ...]:
    """The open end value(s) a placement leaves."""
    if isinstance(action, Lead):
        t = action.tile
        return (t.hi,) if t.is_double else (t.hi, t.lo)
    if isinstance(action, Attach):
        t = action.tile
        values = [e.value for e in layout.ends if e.at is action.at]
        if t.is_double:
            return (t.hi,)
        for v in values:
            if t.has(v):
                return (t.other(v),)
    return ()


def _voids(view: View) -> dict[int, set[int]]:
    """Suits each seat showed it lacked: the open end values when it passed or had to draw.

    The ends are followed through the placement events (roughly: a spinner's extra sides are
    not counted twice), and a later draw may have brought a suit back, so this is a guide for
    a heuristic, not a fact.
    """
    out: dict[int, set[int]] = {}
    ends: Counter[int] = Counter()
    for turn in view.history:
        a = turn.action
        if isinstance(a, Pass | Draw):
            out.setdefault(turn.seat, set()).update(ends)
        for e in turn.events:
            if isinstance(e, Led):
                t = e.tile
                ends = Counter([t.hi, t.lo] if not t.is_double else [t.hi] * 2)
            elif isinstance(e, Placed):
                if ends[e.matched] > 0:
                    ends[e.matched] -= 1
                ends[e.open] += 1
    return out


class GreedyAgent:
    """One-ply heuristics per game (see the module docstring); ties broken by its seed."""

    needs_history = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.name = "greedy"

    def act(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.game == "double_double":
            score = self._board_scorer(view)
        else:
            score = self._line_scorer(view)
        best = max(score(a) for a in legal)
        top = [a for a in legal if score(a) >= best - 1e-9]
        return top[int(self.rng.random() * len(top))]

    # ----------------------------------------------------------------- lines, arms, trees
    def _line_scorer(self, view: View) -> Any:
        seat = view.seat
        assert seat is not None
        layout = view.layout
        assert isinstance(layout, Layout)
        hand = Counter(view.hand)
        n = view.players
        voids = _voids(view)
        opponents = [s for s in range(n) if s != seat and not _partner(view, s)]
        opp_void = {v for s in opponents for v in voids.get(s, ())}
        sizes = view.hand_sizes
        sd = view.game == "super_dominoes"
        public = view.public
        direction = int(public.get("direction", 1) or 1)

        unlocked = set(public.get("unlocked", ())) if view.game == "doubles" else None

        def score(a: Action) -> float:
            if not isinstance(a, Lead | Attach):
                return -100.0
            t = a.tile
            left = hand - Counter([t])
            value = float(t.pips) + (4.0 if t.is_double else 0.0)
            if unlocked is not None:
                return value + _doubles_value(t, a, left, unlocked, layout)
            for o in _open_after(a, layout):
                mine = sum(k for tile, k in left.items() if tile.has(o))
                value += 1.5 * min(mine, 2)
                if o in opp_void:
                    value += 2.5
                if sd:
                    value += _sd_effect(o, t, seat, sizes, n, direction)
            return value

        return score

    # ----------------------------------------------------------------- the board game
    def _board_scorer(self, view: View) -> Any:
        seat = view.seat
        assert seat is not None
        layout = view.layout
        assert isinstance(layout, BoardLayout)
        b = layout.board
        opts = view.options
        positions = list(view.public["positions"])
        pips_of = [b.track_pips(p) for p in positions]
        hand = Counter(view.hand)

        def score(a: Action) -> float:
            if isinstance(a, Stop):
                return 0.5
            if isinstance(a, Discard):
                assert a.tile is not None
                # keep doubles (chains) and tiles that match the track spaces of ours
                t = a.tile
                keep = (3.0 if t.is_double else 0.0) + (2.0 if pips_of[seat] in (t.hi, t.lo) else 0)
                return -keep - 0.1 * t.pips
            if not isinstance(a, Place):
                return -100.0
            t = a.tile
            r1, c1 = a.cell1
            r2, c2 = a.cell2
            diamonds = b.diamonds[r1 * b.cols + c1] + b.diamonds[r2 * b.cols + c2]
            gain = float(diamonds * (opts.double_multiplier if t.is_double else 1))
            for s, pip in enumerate(pips_of):
                if pip is not None and (pip == t.hi or pip == t.lo):
                    gain += opts.track_bonus if s == seat else -0.6 * opts.track_bonus
            if t.is_double and hand[t] >= 1 and len(hand) > 1:
                gain += 1.0  # a chain may follow
            return gain

        return score


def _doubles_value(
    t: Tile, a: Action, left: Counter[Tile], unlocked: set[int], layout: Layout
) -> float:
    """Doubles: hold doubles back (a double unlocks its number and opens three sides, which
    helps the others as much as us); leave an unlocked end only where we can follow it."""
    if t.is_double:
        return -14.0  # cancels the general bonus for doubles, and then some
    value = 0.0
    for o in _open_after(a, layout):
        mine = sum(k for tile, k in left.items() if tile.has(o))
        if o in unlocked:
            value += 2.0 * min(mine, 2) - (2.0 if mine == 0 else 0.0)
    return value


def _partner(view: View, s: int) -> bool:
    seat = view.seat
    return bool(
        getattr(view.options, "teams", False)
        and view.players == 4
        and seat is not None
        and (s - seat) % 4 == 2
    )


def _sd_effect(o: int, t: Tile, seat: int, sizes: tuple[int, ...], n: int, direction: int) -> float:
    """What the open value ``o`` (and a double) is worth in Super Dominoes, to the mover."""
    nxt = (seat + direction) % n
    prev = (seat - direction) % n
    others_low = min(sizes[s] for s in range(n) if s != seat)
    value = 0.0
    if o == 15:
        value += 3.0 + (3.0 if others_low <= 3 else 0.0)
    if o == 14:
        value += 5.0
    if o == 13 and not t.is_double:
        value += 3.0
    if o == 3 and n > 2 and sizes[nxt] < sizes[prev]:
        value += 3.0
    if t.is_double and o != 13:
        value += 2.0 + (2.0 if sizes[nxt] == others_low else 0.0)
    return value
