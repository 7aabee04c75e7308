"""What one seat may know: the only way hidden information leaves a state.

``view(state, seat)`` gives a seat its own hand, everyone's hand sizes, the layout, the boneyard
size, the game's public facts and the public history with other seats' draws and discards
redacted; ``view(state, None)`` is a spectator's. Agents, UIs, the server and RL observations
take a :class:`View`, never a state. When the hand is over, every hand is shown (they are
counted face up for scoring).

Views are cheap: the seat's hand, the hand sizes, the layout and the public facts are built
the first time they are read, from public values the view keeps (see
:meth:`State._layout_key`), and the history is two persistent lists the state keeps (every
turn as a spectator saw it, and the turns this seat saw more of), merged into a tuple when
first read, so no view replays the hand.
Nothing reachable from a view holds more than the seat may know: no state, no other hand, no
hidden tile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bonepile.actions import Action, parse_action
from bonepile.errors import BonepileError
from bonepile.events import Event
from bonepile.facts import PublicFacts, Reader
from bonepile.grid import BoardLayout
from bonepile.layout import Layout
from bonepile.options import options_to_json
from bonepile.result import Result
from bonepile.state import State, seat_history
from bonepile.tiles import Tile, parse_tile

_LAST_GAME: Final[list[Any]] = [None]
_LAST_NAME: Final[list[str]] = [""]
"""The game :meth:`View.of` saw last, and its name."""


def _name(game: Any) -> str:
    """The game's name (a Game is a Python object: its name costs an attribute lookup)."""
    if game is _LAST_GAME[0]:
        return _LAST_NAME[0]
    name: str = game.name
    _LAST_NAME[0] = name
    _LAST_GAME[0] = game
    return name


class ViewError(BonepileError):
    """A view's JSON that is not a view of the game it names."""


@dataclass(frozen=True, slots=True)
class Turn:
    """One entry of the public history: who acted, what they did, what happened."""

    seat: int
    action: Action
    events: tuple[Event, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Turn, (self.seat, self.action, self.events))

    def to_json(self) -> dict[str, Any]:
        """JSON form: the action in notation, the events' JSON."""
        return {
            "seat": self.seat,
            "action": str(self.action),
            "events": [e.to_json() for e in self.events],
        }


FIELDS: Final = (
    "game",
    "options",
    "players",
    "seat",
    "hand",
    "hand_sizes",
    "boneyard_size",
    "layout",
    "actor",
    "legal",
    "scores_before",
    "leader",
    "result",
    "public",
    "history",
    "revealed",
)
"""Every field of a :class:`View`, in order."""


class View:
    """Everything ``seat`` may know about a position (``seat`` is ``None`` for a spectator).

    Fields (read-only): ``game`` (its name), ``options``, ``players``, ``seat``, ``hand`` (the
    seat's tiles; empty for a spectator), ``hand_sizes``, ``boneyard_size``, ``layout`` (a
    :class:`~bonepile.layout.Layout` or, for a board game, a
    :class:`~bonepile.grid.BoardLayout`), ``actor``, ``legal`` (the actor's legal actions in its
    own view, empty otherwise), ``scores_before``, ``leader`` (the seat a match's next-hand
    rule named for this hand, or ``None``), ``result``, ``public`` (the game's public facts,
    see :mod:`bonepile.facts`), ``history`` (:class:`Turn` entries, redacted for the seat) and
    ``revealed`` (every hand, once the hand is over; ``None`` before).
    """

    __slots__ = (
        "_actor",
        "_boneyard_size",
        "_decode",
        "_fkey",
        "_game",
        "_hand",
        "_hand_sizes",
        "_history",
        "_layout",
        "_leader",
        "_legal",
        "_lkey",
        "_lkey2",
        "_mask",
        "_options",
        "_players",
        "_public",
        "_result",
        "_revealed",
        "_scores_before",
        "_seat",
        "_seen_own",
        "_seen_pub",
        "_sizes",
    )

    _seen_pub: Any
    _seen_own: Any
    _decode: type[State[Any]] | None
    _hand: tuple[Tile, ...] | None
    _history: tuple[Turn, ...] | None
    _mask: int
    _game: str
    _options: Any
    _players: int
    _seat: int | None
    _hand_sizes: tuple[int, ...] | None
    _sizes: int
    _boneyard_size: int
    _layout: Layout | BoardLayout | None
    _lkey: Any
    _lkey2: Any
    _fkey: Any
    _actor: int | None
    _legal: tuple[Action, ...]
    _scores_before: tuple[int, ...]
    _leader: int | None
    _result: Result | None
    _public: PublicFacts | None
    _revealed: tuple[tuple[Tile, ...], ...] | None

    def __init__(
        self,
        *,
        game: str,
        options: Any,
        players: int,
        seat: int | None,
        hand: Sequence[Tile],
        hand_sizes: tuple[int, ...],
        boneyard_size: int,
        layout: Layout | BoardLayout | None,
        actor: int | None,
        legal: tuple[Action, ...],
        scores_before: tuple[int, ...],
        leader: int | None,
        result: Result | None,
        public: PublicFacts | None,
        history: Sequence[Turn],
        revealed: tuple[tuple[Tile, ...], ...] | None,
    ) -> None:
        """Every field given (``layout`` and ``public`` may be ``None`` only in :meth:`of`,
        which builds them when they are first read)."""
        self._game = game
        self._options = options
        self._players = players
        self._seat = seat
        self._hand_sizes = hand_sizes
        self._sizes = 0
        self._boneyard_size = boneyard_size
        self._layout = layout
        self._actor = actor
        self._legal = legal
        self._scores_before = scores_before
        self._leader = leader
        self._result = result
        self._public = public
        self._revealed = revealed
        self._hand = tuple(hand)
        self._mask = 0
        self._decode = None
        self._seen_pub = None
        self._seen_own = None
        self._history = tuple(history)
        self._lkey = None
        self._lkey2 = None
        self._fkey = None

    @classmethod
    def of(cls, state: State[Any], seat: int | None) -> View:
        """The view of ``state`` for ``seat``; see :func:`view`. The hand is decoded from the
        seat's mask, the layout and facts built from the state's public values, and the history
        merged from the state's two lists only when first read."""
        v = View(  # empty, then filled by the one method that says what a view holds
            game="",
            options=None,
            players=0,
            seat=None,
            hand=(),
            hand_sizes=(),
            boneyard_size=0,
            layout=None,
            actor=None,
            legal=(),
            scores_before=(),
            leader=None,
            result=None,
            public=None,
            history=(),
            revealed=None,
        )
        v._refill(state, seat)
        return v

    def _refill(self, state: State[Any], seat: int | None) -> None:
        """Make this the view of ``state`` for ``seat``: the public values it shows, and what
        it builds late from (the hand sizes packed, the seat's mask, the state's class, its two
        history lists as this seat sees them, its layout and facts keys). :meth:`of` fills a
        new view; a runner whose agent kept no reference to the view it was given refreshes
        that one with :meth:`_turn` (see :func:`~bonepile.agents.base.play_hand`), which saves
        a new view's cost."""
        self._game = _name(state._game)
        self._options = state._options
        self._players = state._players
        self._scores_before = state._scores_before
        self._leader = state._leader
        self._decode = type(state)
        self._turn(state, seat)

    def _turn(self, state: State[Any], seat: int | None) -> None:
        """:meth:`_refill` with the values that stay the same through a hand left as they are:
        for a view refilled from the state it was last filled from, changed by a move."""
        result = state._result
        actor = state._actor
        self._seat = seat
        self._boneyard_size = len(state._bone) - state._bpos
        self._layout = None
        self._actor = actor
        if seat is not None and actor is not None and seat == actor:
            self._legal = state.legal_actions()
        else:
            self._legal = ()
        self._result = result
        self._public = None
        if result is None:
            self._revealed = None
        else:  # every hand, face up
            self._revealed = tuple(state.hand(k) for k in range(state._players))
        self._hand = None
        self._hand_sizes = None
        self._sizes = state._sizes()
        self._mask = state._hands[seat] if seat is not None else 0
        self._history = None
        self._seen_pub, self._seen_own = state._seat_history(seat)
        self._lkey, self._lkey2 = state._layout_key()
        self._fkey = state._facts_key()

    @property
    def game(self) -> str:
        """The game's name."""
        return self._game

    @property
    def options(self) -> Any:
        """The game's options object."""
        return self._options

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._players

    @property
    def seat(self) -> int | None:
        """The seat this view is for (``None``: a spectator)."""
        return self._seat

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many tiles each seat holds."""
        sizes = self._hand_sizes
        if sizes is None:  # unpacked when first read (see State._sizes)
            packed = self._sizes
            sizes = self._hand_sizes = tuple(
                [packed >> (8 * k) & 255 for k in range(self._players)]
            )
        return sizes

    @property
    def boneyard_size(self) -> int:
        """How many tiles are left in the boneyard."""
        return self._boneyard_size

    @property
    def layout(self) -> Layout | BoardLayout:
        """The tiles on the table."""
        layout = self._layout
        if layout is None:
            # the state class's own, looked up by name (not bound when compiled)
            build = getattr(self._decode, "_layout_of")  # noqa: B009
            layout = self._layout = build(self._lkey, self._lkey2)
            self._lkey = self._lkey2 = None
        return layout

    @property
    def actor(self) -> int | None:
        """The seat to act (``None`` once the hand is over)."""
        return self._actor

    @property
    def legal(self) -> tuple[Action, ...]:
        """The actor's legal actions, in the actor's own view (empty otherwise)."""
        return self._legal

    @property
    def scores_before(self) -> tuple[int, ...]:
        """Match totals before this hand."""
        return self._scores_before

    @property
    def leader(self) -> int | None:
        """The seat a match's next-hand rule named for this hand, or ``None``."""
        return self._leader

    @property
    def result(self) -> Result | None:
        """How the hand ended, once it has."""
        return self._result

    @property
    def public(self) -> PublicFacts:
        """The game's public facts (an object of the game's ``Facts`` class)."""
        facts = self._public
        if facts is None:
            build = getattr(self._decode, "_facts_of")  # noqa: B009
            facts = self._public = build(self._fkey)
            self._fkey = None
        return facts

    @property
    def revealed(self) -> tuple[tuple[Tile, ...], ...] | None:
        """Every seat's hand once the hand is over (``None`` before)."""
        return self._revealed

    @property
    def hand(self) -> tuple[Tile, ...]:
        """The seat's own tiles (empty for a spectator)."""
        h = self._hand
        if h is None:
            decode = self._decode
            assert decode is not None
            h = self._hand = decode.tiles_of_mask(self._mask)
        return h

    @property
    def history(self) -> tuple[Turn, ...]:
        """The hand so far, as this seat saw it (others' draws and discards hidden)."""
        h = self._history
        if h is None:
            turns = seat_history(self._seen_pub, self._seen_own)
            h = self._history = tuple([Turn(s, a, e) for s, a, e in turns])
            self._seen_pub = self._seen_own = None
        return h

    # ----------------------------------------------------------------- values
    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.result is not None

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else f"P{self.seat}"
        return f"<View {self.game} for {who}, {len(self.history)} turns>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_view_from_values, (self._values(),))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (what a remote client or an external bot receives).

        The layout's open ends each list, under ``actions``, the legal actions of this view
        that play there (see :meth:`~bonepile.layout.Layout.end_of`).
        """
        layout = self.layout.to_json()
        if isinstance(self.layout, Layout):
            plays: dict[tuple[int, int], list[str]] = {}
            for a in self.legal:
                end = self.layout.end_of(a)
                if end is not None:
                    plays.setdefault((end.anchor, end.slot), []).append(str(a))
            for e in layout["ends"]:
                e["actions"] = plays.get((e["anchor"], e["slot"]), [])
        return {
            "game": self.game,
            "options": options_to_json(self.options),
            "players": self.players,
            "seat": self.seat,
            "hand": [str(t) for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "boneyard": self.boneyard_size,
            "layout": layout,
            "actor": self.actor,
            "legal": [str(a) for a in self.legal],
            "scores_before": list(self.scores_before),
            "leader": self.leader,
            "result": None if self.result is None else self.result.to_json(),
            "public": self.public.to_json(),
            "history": [t.to_json() for t in self.history],
            "revealed": None
            if self.revealed is None
            else [[str(t) for t in h] for h in self.revealed],
        }

    @classmethod
    def from_json(cls, data: Any) -> View:
        """Inverse of :meth:`to_json`: ``View.from_json(v.to_json()) == v``. Every part is
        checked; a bad one raises a :class:`~bonepile.errors.BonepileError` (a ``ValueError``)
        with one line that says which."""
        from bonepile.games import get_game

        r = Reader(data, "view")
        try:
            game = get_game(r.word("game"), aliases=False)
            options = game.make_options(r.raw("options"))
            layout_json = r.raw("layout")
            layout: Layout | BoardLayout
            if isinstance(layout_json, Mapping) and layout_json.get("family") == "board":
                layout = BoardLayout.from_json(layout_json)
            else:
                layout = Layout.from_json(layout_json)
            history_in = r.raw("history")
            if not isinstance(history_in, list):
                raise ViewError("view: history must be a list")
            history = []
            for i, t in enumerate(history_in):
                tr = Reader(t, f"view.history[{i}]")
                events_in = tr.raw("events")
                if not isinstance(events_in, list):
                    raise ViewError(f"view.history[{i}]: events must be a list")
                history.append(
                    Turn(
                        tr.num("seat"),
                        parse_action(tr.word("action")),
                        tuple(Event.from_json(e) for e in events_in),
                    )
                )
                tr.done()
            result_in = r.raw("result")
            revealed_in = r.raw("revealed")
            seat = r.opt_num("seat")
            v = cls(
                game=game.name,
                options=options,
                players=r.num("players"),
                seat=seat,
                hand=_tiles(r.raw("hand"), "hand"),
                hand_sizes=r.ints("hand_sizes"),
                boneyard_size=r.num("boneyard"),
                layout=layout,
                actor=r.opt_num("actor"),
                legal=tuple(parse_action(a) for a in _strings(r.raw("legal"), "legal")),
                scores_before=r.ints("scores_before"),
                leader=r.opt_num("leader"),
                result=None if result_in is None else Result.from_json(result_in),
                public=game.facts_from_json(r.raw("public")),
                history=tuple(history),
                revealed=None
                if revealed_in is None
                else tuple(_tiles(h, "revealed") for h in _list(revealed_in, "revealed")),
            )
            r.done()
            _check_seats(v)
            if v.layout.family != game.family:
                raise ViewError(
                    f"view: a {game.name} layout is a {game.family!r}, not {v.layout.family!r}"
                )
        except BonepileError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            raise ViewError(f"view: {e}") from None
        return v


def _check_seats(v: View) -> None:
    """Refuse seats and counts that cannot belong to the view's table."""
    n = v.players
    if not 1 <= n <= 64:
        raise ViewError(f"view: players must be from 1 to 64, got {n}")
    seats = {"seat": v.seat, "actor": v.actor, "leader": v.leader}
    seats.update({f"history[{i}].seat": t.seat for i, t in enumerate(v.history)})
    for where, seat in seats.items():
        if seat is not None and not 0 <= seat < n:
            raise ViewError(f"view: {where} must be a seat from 0 to {n - 1}, got {seat}")
    if v.boneyard_size < 0 or any(k < 0 for k in v.hand_sizes) or len(v.hand_sizes) != n:
        raise ViewError("view: boneyard and hand_sizes must be counts, one hand per seat")


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ViewError(f"view: {where} must be a list")
    return value


def _strings(value: Any, where: str) -> list[str]:
    items = _list(value, where)
    if any(not isinstance(x, str) for x in items):
        raise ViewError(f"view: {where} must be a list of strings")
    return items


def _tiles(value: Any, where: str) -> tuple[Tile, ...]:
    return tuple(parse_tile(t) for t in _strings(value, where))


def _view_from_values(values: tuple[Any, ...]) -> View:
    return View(**dict(zip(FIELDS, values, strict=True)))


def view(state: State[Any], seat: int | None) -> View:
    """What ``seat`` may know of ``state`` (``None``: a spectator, who sees no hand)."""
    n = state.players
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
    ):
        raise ValueError(f"seat must be 0..{n - 1} or None, got {seat!r}")
    return View.of(state, seat)
