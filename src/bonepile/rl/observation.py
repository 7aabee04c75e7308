"""Observations: what one seat may know, as a fixed dict of arrays, built from ``view()`` only.

Seats are **relative**: row 0 is the observing seat, row 1 the next seat in seat order, and so
on; a seat number inside an array (the actor, a caster, ...) is relative too, ``-1`` for none.
Every game has these keys (``n`` players, ``A`` actions, ``H`` history rows):

* ``hand_sizes`` ``(n,)`` tiles each seat holds; ``boneyard`` ``(1,)`` tiles in the boneyard;
* ``scores`` ``(n,)`` match totals before this hand;
* ``public`` ``(K,)`` the game's public facts (:func:`public_fields` names them);
* ``history`` ``(H, 3)`` the last ``H`` turns, oldest first, as (relative seat, action index,
  tiles drawn in the turn by anyone), ``-1`` rows before the first turn; another seat's
  discard (its tile hidden) is action ``A``;
* ``action_mask`` ``(A,)`` 1 for each legal action (all zero when the seat is not to act).

Line, arm and tree games (block, draw, Super Dominoes, Doubles), a double-``M`` set of ``N``
tiles and ``P = M + 1`` pip values:

* ``hand`` ``(N,)`` 1 for each tile in the seat's hand;
* ``played`` ``(n, N)`` 1 where a seat placed a tile;
* ``open_ends`` ``(N, P)`` how many open ends tile ``U`` (on the table) offers showing pip
  ``v``: an attach ``T@U`` plays on row ``U``;
* ``end_pips`` ``(P,)`` how many open ends show each pip;
* ``lacks`` ``(n, P)`` 1 where a seat passed while an open end showed the pip and has not drawn
  since (in block and draw the seat holds none of that suit; in Doubles and Super Dominoes a
  lock or a spell may explain the pass too).

Double Double Dominoes on an ``R x C`` board:

* ``hand`` ``(28,)`` how many copies of each tile the seat holds;
* ``board`` ``(R, C)`` the pips on each cell, ``-1`` empty; ``owner`` ``(R, C)`` the relative
  seat that covered it, ``-1`` empty; ``diamonds`` ``(R, C)`` the board's diamond values;
* ``positions`` ``(n,)`` score-track positions; ``track_pips`` ``(n,)`` the pips printed
  there, ``-1`` for none.

:meth:`Observer.flat` concatenates every key but ``action_mask`` in :attr:`Observer.keys` order
into one ``float32`` vector.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from bonepile.actions import Pass
from bonepile.events import Drew, Led, Placed
from bonepile.games import Game, get_game
from bonepile.grid import Board, BoardLayout
from bonepile.layout import Layout, free_slots
from bonepile.rl.encoding import ActionCodec, codec_for, resolve
from bonepile.tiles import set_size
from bonepile.view import Turn, View

HISTORY = 32
"""History rows an observation keeps unless told otherwise."""

BIG = 1_000_000
"""The bound used for counts and scores that have no natural one."""

_LINE = ("drawn_this_turn",)
_DOUBLES = ("drawn_this_turn", *(f"unlocked_{v}" for v in range(7)))
_SUPER = (
    "phase",
    "starter",
    "setter",
    "direction",
    "spell_kind",
    "spell_at",
    "spell_caster",
    "pending_skips",
    "drawn_this_turn",
    "extra_turn",
    "idle_turns",
)
_BOARD = ("victory_total", "pit", "chain_row1", "chain_col1", "chain_row2", "chain_col2")
_BOARD_TAIL = ("last_draw_drawn",)
_SPELLS = {"end": 1, "starter": 2}
_PHASES = {"opening": 0, "opening_draw": 1, "play": 2}


def public_fields(game: str) -> tuple[str, ...]:
    """The names of the ``public`` vector's entries for ``game``, in order: ``actor`` and
    ``first_player`` (relative seats), then the game's own facts (tiles as indices, seats
    relative, flags 0/1, ``-1`` for none; Super Dominoes' ``phase`` 0 opening, 1 opening draw,
    2 play, ``spell_kind`` 0 none, 1 on an end, 2 on the starter)."""
    own: tuple[str, ...] = {
        "block": _LINE,
        "draw": _LINE,
        "doubles": _DOUBLES,
        "super_dominoes": _SUPER,
        "double_double": _BOARD + _BOARD_TAIL,
    }.get(get_game(game).name, ())
    return ("actor", "first_player", *own)


Table = tuple[np.ndarray, np.ndarray, bool]
"""The open ends after some placements: ``(open_ends, end_pips, spinner taken)`` (never
changed once made)."""


def _empty_table(tiles: int, pips: int) -> Table:
    return (np.zeros((tiles, pips), dtype=np.int8), np.zeros(pips, dtype=np.int8), False)


class _SeatCache:
    """What the history told one seat so far (the features made from it, incrementally)."""

    __slots__ = ("first", "hist", "lacks", "last", "last_placed", "n", "placed", "played", "table")

    def __init__(self, players: int, tiles: int, pips: int, history: int) -> None:
        self.n = 0
        self.first: Any = None
        self.last: Any = None
        self.placed = 0
        # turn i in row history + i, after ``history`` rows of -1: the last rows are one slice
        self.hist = np.full((history + 64, 3), -1, dtype=np.int32)
        self.played = np.zeros((players, tiles), dtype=np.int8)
        self.lacks = np.zeros((players, pips), dtype=np.int8)
        self.last_placed: Any = None
        self.table: Table = _empty_table(tiles, pips)


class Observer:
    """Builds the observations of one game, player count, option set and board.

    ``observe(view)`` gives the dict of arrays (see the module docstring), ``flat(obs)`` the
    vector. It remembers, per seat, what it worked out from the history of the hand, and
    reuses it when the next view of that seat extends the same history (same turn objects);
    any other view is worked out from scratch, so the observation is always a function of the
    view alone.
    """

    def __init__(
        self,
        game: str | Game[Any],
        players: int,
        options: Any = None,
        *,
        board: Board | None = None,
        history: int = HISTORY,
    ) -> None:
        g, self.options = resolve(game, options)
        self.game = g
        self.players = players
        self.board_game = g.family == "board"
        if self.board_game and board is None:
            board = g.new(players, options=self.options, seed=0).layout.board  # type: ignore[union-attr]
        self.board = board
        self.codec: ActionCodec = codec_for(g, self.options, board)
        self.history = history
        max_pip = g.max_pip(self.options)
        self.pips = max_pip + 1
        self.tiles = set_size(max_pip)
        self.fields = public_fields(g.name)
        self.deck = g.deck_size(players, self.options)
        self._cache: dict[int, _SeatCache] = {}
        self._evs: list[Any] = []
        self._masks: dict[tuple[Any, ...], np.ndarray] = {}
        self._snaps: list[Table] = [_empty_table(self.tiles, self.pips)]
        if self.board is not None:
            b = self.board
            self._diamonds = np.array(b.diamonds, dtype=np.int8).reshape(b.rows, b.cols)
        self.space = self._space()
        self.keys: tuple[str, ...] = tuple(k for k in self.space.spaces if k != "action_mask")
        self.boxes: dict[str, spaces.Box] = {
            k: v for k, v in self.space.spaces.items() if isinstance(v, spaces.Box)
        }
        self.flat_size = sum(self.boxes[k].low.size for k in self.keys)

    # ----------------------------------------------------------------- spaces
    def _space(self) -> spaces.Dict:
        n, h, a = self.players, self.history, self.codec.size
        d = self.deck

        def box(lo: int, hi: int, shape: tuple[int, ...], dtype: Any) -> spaces.Box:
            return spaces.Box(lo, hi, shape, dtype)

        out: dict[str, spaces.Space[Any]] = {}
        if self.board is not None:
            r, c = self.board.rows, self.board.cols
            out["hand"] = box(0, d, (28,), np.int8)
            out["board"] = box(-1, 6, (r, c), np.int8)
            out["owner"] = box(-1, n - 1, (r, c), np.int8)
            out["diamonds"] = box(0, 127, (r, c), np.int8)
            out["positions"] = box(0, 32767, (n,), np.int16)
            out["track_pips"] = box(-1, 127, (n,), np.int8)
        else:
            t, p = self.tiles, self.pips
            out["hand"] = box(0, 1, (t,), np.int8)
            out["played"] = box(0, 1, (n, t), np.int8)
            out["open_ends"] = box(0, 127, (t, p), np.int8)
            out["end_pips"] = box(0, 127, (p,), np.int8)
            out["lacks"] = box(0, 1, (n, p), np.int8)
        out["hand_sizes"] = box(0, d, (n,), np.int16)
        out["boneyard"] = box(0, d, (1,), np.int16)
        out["scores"] = box(-BIG, BIG, (n,), np.int32)
        out["public"] = box(-1, 32767, (len(self.fields),), np.int16)
        out["history"] = box(-1, max(a, BIG), (h, 3), np.int32)
        out["action_mask"] = box(0, 1, (a,), np.int8)
        return spaces.Dict(out)

    def flat_space(self) -> spaces.Box:
        """The space of :meth:`flat` vectors."""
        lo = np.concatenate([self.boxes[k].low.ravel() for k in self.keys]).astype(np.float32)
        hi = np.concatenate([self.boxes[k].high.ravel() for k in self.keys]).astype(np.float32)
        return spaces.Box(lo, hi, (self.flat_size,), np.float32)

    def flat_scale(self) -> np.ndarray:
        """A divisor per entry of :meth:`flat` that brings it to about ``[-1, 1]`` (the
        larger bound, at least 1 and at most the number of actions plus one): what the
        learned policies divide their input by."""
        space = self.flat_space()
        top = np.maximum(np.abs(space.low), np.abs(space.high))
        return np.clip(top, 1.0, float(self.codec.size + 1)).astype(np.float32)

    def reset(self) -> None:
        """Forget what the history told each seat (a new hand begins)."""
        self._cache.clear()
        del self._evs[:]
        del self._snaps[1:]

    # ----------------------------------------------------------------- observing
    def observe(self, view: View) -> dict[str, np.ndarray]:
        """The observation of ``view`` (a seat's view, not a spectator's)."""
        seat = view.seat
        if seat is None:
            raise ValueError("observations are for a seat, not a spectator")
        n = self.players
        rel = _rel_table(seat, n)
        obs: dict[str, np.ndarray] = {}
        cache = self._history(view, seat, rel)
        hsizes = view.hand_sizes
        before = view.scores_before or (0,) * n
        # relative order: this seat, then the next ones in seat order
        obs_sizes = np.array(hsizes[seat:] + hsizes[:seat], dtype=np.int16)
        scores = np.array(before[seat:] + before[:seat], dtype=np.int32)
        layout = view.layout
        if self.board is not None:
            assert isinstance(layout, BoardLayout)
            self._board_part(obs, view, layout, rel)
        else:
            assert isinstance(layout, Layout)
            t = self.tiles
            hand = np.zeros(t, dtype=np.int8)
            for tile in view.hand:
                hand[tile.index] = 1
            obs["hand"] = hand
            obs["played"] = cache.played.copy()
            obs["open_ends"] = cache.table[0].copy()
            obs["end_pips"] = cache.table[1].copy()
            obs["lacks"] = cache.lacks.copy()
        obs["hand_sizes"] = obs_sizes
        obs["boneyard"] = np.array([view.boneyard_size], dtype=np.int16)
        obs["scores"] = scores
        obs["public"] = self._public(view, rel)
        obs["history"] = cache.hist[cache.n : cache.n + self.history].copy()
        obs["action_mask"] = self.mask(view.legal)
        return obs

    def mask(self, legal: tuple[Any, ...]) -> np.ndarray:
        """The 0/1 vector of the actions ``legal`` (remembered: the rules hand out the same
        legal tuples again and again)."""
        known = self._masks.get(legal)
        if known is None:
            known = np.zeros(self.codec.size, dtype=np.int8)
            index = self.codec.index
            for a in legal:
                known[index[a]] = 1
            if len(self._masks) > 4096:
                self._masks.clear()
            self._masks[legal] = known
        return known.copy()

    def flat(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """The observation as one ``float32`` vector (every key but ``action_mask``)."""
        return np.concatenate([obs[k].ravel() for k in self.keys]).astype(np.float32)

    # ----------------------------------------------------------------- parts
    def _board_part(
        self, obs: dict[str, np.ndarray], view: View, layout: BoardLayout, rel: list[int]
    ) -> None:
        assert self.board is not None
        r, c = self.board.rows, self.board.cols
        hand = np.zeros(28, dtype=np.int8)
        for tile in view.hand:
            hand[tile.index] += 1
        board = np.full((r, c), -1, dtype=np.int8)
        owner = np.full((r, c), -1, dtype=np.int8)
        for pl in layout.placements:
            (r1, c1), (r2, c2) = pl.cell1, pl.cell2
            board[r1, c1] = pl.p
            board[r2, c2] = pl.q
            owner[r1, c1] = owner[r2, c2] = rel[pl.seat]
        n = self.players
        positions = np.zeros(n, dtype=np.int16)
        track = np.full(n, -1, dtype=np.int8)
        facts: Any = view.public
        for s in range(n):
            positions[rel[s]] = layout.positions[s] if layout.positions else 0
            pip = facts.track_pips[s]
            track[rel[s]] = -1 if pip is None else pip
        obs["hand"] = hand
        obs["board"] = board
        obs["owner"] = owner
        obs["diamonds"] = self._diamonds.copy()
        obs["positions"] = positions
        obs["track_pips"] = track

    def _public(self, view: View, rel: list[int]) -> np.ndarray:
        f: Any = view.public
        actor = view.actor
        out = [-1 if actor is None else rel[actor], rel[f.first_player]]
        name = self.game.name
        if name in ("block", "draw"):
            out.append(int(f.drawn_this_turn))
        elif name == "doubles":
            out.append(int(f.drawn_this_turn))
            unlocked = f.unlocked
            out.extend(int(v in unlocked) for v in range(7))
        elif name == "super_dominoes":
            spell = f.spell
            out += [
                _PHASES.get(f.phase, 0),
                -1 if f.starter is None else f.starter.index,
                -1 if f.setter is None else rel[f.setter],
                f.direction,
                0 if spell is None else _SPELLS.get(spell.kind, 0),
                -1 if spell is None else spell.at.index,
                -1 if spell is None else rel[spell.caster],
                f.pending_skips,
                int(f.drawn_this_turn),
                int(f.extra_turn),
                min(f.idle_turns, 32767),
            ]
        elif name == "double_double":
            chain = f.chain
            cells = [-1, -1, -1, -1] if chain is None else [*chain[0], *chain[1]]
            out += [f.victory_total, f.pit, *cells, int(f.last_draw_drawn)]
        return np.array(out, dtype=np.int16)

    def _history(self, view: View, seat: int, rel: list[int]) -> _SeatCache:
        """The seat's cache brought up to ``view``'s history (rebuilt if it does not extend)."""
        hist = view.history
        cache = self._cache.get(seat)
        n = cache.n if cache is not None else 0
        if (
            cache is None
            or n > len(hist)
            or (n and (hist[0].events is not cache.first or hist[n - 1].events is not cache.last))
        ):
            cache = self._cache[seat] = _SeatCache(
                self.players, self.tiles, self.pips, self.history
            )
        if cache.n < len(hist):
            self._extend(cache, hist, view, rel)
        return cache

    def _extend(
        self, cache: _SeatCache, hist: tuple[Turn, ...], view: View, rel: list[int]
    ) -> None:
        """Work the turns of ``hist`` past ``cache.n`` into ``cache``."""
        encode = self.codec.encode
        tree = self.board is None
        start = cache.n
        h = self.history
        if len(cache.hist) < h + len(hist):
            grown = np.full((h + max(len(hist), 2 * len(cache.hist)), 3), -1, dtype=np.int32)
            grown[: h + start] = cache.hist[: h + start]
            cache.hist = grown
        rows = cache.hist
        lacks = cache.lacks
        for i in range(start, len(hist)):
            turn = hist[i]
            action = turn.action
            who = rel[turn.seat]
            drawn = 0
            if tree and type(action) is Pass:
                lacks[who] |= cache.table[1] > 0
            for e in turn.events:
                ek = type(e)
                if ek is Drew:
                    drawn += e.count  # type: ignore[attr-defined]
                    if tree:
                        lacks[rel[e.seat]] = 0  # type: ignore[attr-defined]
                elif tree and (ek is Placed or ek is Led):
                    cache.played[rel[e.seat], e.tile.index] = 1  # type: ignore[attr-defined]
                    cache.table = self._table_after(cache, e, view)
                    cache.placed += 1
                    cache.last_placed = e
            row = rows[h + i]
            row[0] = who
            row[1] = encode(action)
            row[2] = drawn
        cache.n = len(hist)
        cache.first = hist[0].events
        cache.last = hist[-1].events

    def _table_after(self, cache: _SeatCache, event: Any, view: View) -> Table:
        """The open ends once ``event`` (the seat's next placement) is down: shared by every
        seat (placements are public), keyed by the event objects of the placements."""
        c = cache.placed + 1
        evs, snaps = self._evs, self._snaps
        if len(evs) >= c and evs[c - 1] is event:
            return snaps[c]
        chained = len(evs) >= c - 1 and (c == 1 or evs[c - 2] is cache.last_placed)
        tile = event.tile
        sides = 0
        spun = False
        if chained and type(event) is Placed:
            ends, pips, spun = snaps[c - 1]
            sides, spun = self._double_sides(spun) if tile.is_double else (1, spun)
        if sides:
            ends, pips = ends.copy(), pips.copy()
            m = event.matched
            o = tile.hi if tile.is_double else event.open
            ends[event.at.index, m] -= 1
            pips[m] -= 1
            ends[tile.index, o] += sides
            pips[o] += sides
        else:  # a lead, or a double of a game this module does not know: from the layout
            layout = view.layout
            assert isinstance(layout, Layout)
            prefix = layout.placements[:c]
            ends = np.zeros((self.tiles, self.pips), dtype=np.int8)
            pips = np.zeros(self.pips, dtype=np.int8)
            for anchor, _, value in free_slots(prefix):
                ends[prefix[anchor].tile.index, value] += 1
                pips[value] += 1
            spun = c == 1 and tile.is_double and bool(getattr(self.options, "spinner", False))
        table = (ends, pips, spun)
        if chained:
            del evs[c - 1 :]
            del snaps[c:]
            evs.append(event)
            snaps.append(table)
        return table

    def _double_sides(self, spun: bool) -> tuple[int, bool]:
        """How many open ends a double attached to the layout offers (0: unknown, ask the
        layout), and whether the line's spinner is taken after it: the rules of the shipped
        games, checked against their layouts by the tests."""
        name, opts = self.game.name, self.options
        if name in ("block", "draw"):
            return (3, True) if opts.spinner and not spun else (1, spun)
        if name == "doubles":
            return opts.spinner_sides - 1, spun
        if name == "super_dominoes":
            return (3 if opts.doubles_branch else 1), spun
        return 0, spun


_RELS: dict[tuple[int, int], list[int]] = {}


def _rel_table(seat: int, players: int) -> list[int]:
    """``table[s]``: seat ``s`` relative to ``seat``."""
    key = (seat, players)
    t = _RELS.get(key)
    if t is None:
        t = _RELS[key] = [(s - seat) % players for s in range(players)]
    return t
