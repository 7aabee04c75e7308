"""What one seat may know: the only way hidden information leaves a state.

``view(state, seat)`` gives a seat its own hand, everyone's hand sizes, the layout, the boneyard
size, the game's public facts and the public history with other seats' draws and discards
redacted; ``view(state, None)`` is a spectator's. Agents, UIs, the server and RL observations
take a :class:`View`, never a state. When the hand is over, every hand is shown (they are
counted face up for scoring).

Views are cheap: the layout is built the first time it is read, and the history is the
state's own persistent list of turns as this seat saw them (kept per state and seat, so no view
replays the hand), turned into a tuple when first read. Nothing reachable from a view holds
more than the seat may know: no state, no other hand, no hidden tile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bonepile.actions import Action, parse_action
from bonepile.errors import BonepileError
from bonepile.events import Event
from bonepile.facts import PublicFacts, Reader
from bonepile.grid import BoardLayout
from bonepile.layout import Layout, unroll
from bonepile.options import options_to_json
from bonepile.result import Result
from bonepile.state import State
from bonepile.tiles import Tile, parse_tile


class ViewError(BonepileError):
    """A view's JSON that is not a view of the game it names."""


@dataclass(frozen=True)
class Turn:
    """One entry of the public history: who acted, what they did, what happened."""

    seat: int
    action: Action
    events: tuple[Event, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON form: the action in notation, the events' JSON."""
        return {
            "seat": self.seat,
            "action": str(self.action),
            "events": [e.to_json() for e in self.events],
        }


FIELDS = (
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
        "_cells",
        "_decode",
        "_hand",
        "_history",
        "_mask",
        "actor",
        "boneyard_size",
        "game",
        "hand_sizes",
        "layout",
        "leader",
        "legal",
        "options",
        "players",
        "public",
        "result",
        "revealed",
        "scores_before",
        "seat",
    )

    _cells: Any
    _history: tuple[Turn, ...] | None
    game: str
    options: Any
    players: int
    seat: int | None
    _hand: tuple[Tile, ...] | None
    _mask: int
    _decode: Any
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    layout: Layout | BoardLayout
    actor: int | None
    legal: tuple[Action, ...]
    scores_before: tuple[int, ...]
    leader: int | None
    result: Result | None
    public: PublicFacts
    revealed: tuple[tuple[Tile, ...], ...] | None

    def __init__(self, **fields: Any) -> None:
        missing = [f for f in FIELDS if f not in fields]
        extra = [f for f in fields if f not in FIELDS]
        if missing or extra:
            raise TypeError(f"View() takes exactly the fields {', '.join(FIELDS)}")
        put = object.__setattr__
        for f in FIELDS:
            if f not in ("history", "hand"):
                put(self, f, fields[f])
        put(self, "_hand", tuple(fields["hand"]))
        put(self, "_mask", 0)
        put(self, "_decode", None)
        put(self, "_cells", None)
        put(self, "_history", tuple(fields["history"]))

    @classmethod
    def of(cls, state: State[Any], seat: int | None) -> View:
        """The view of ``state`` for ``seat``; see :func:`view`."""
        v = cls.__new__(cls)
        put = object.__setattr__
        n = state.players
        over = state.is_over
        put(v, "game", state.game.name)
        put(v, "options", state.options)
        put(v, "players", n)
        put(v, "seat", seat)
        put(v, "_mask", state._hands[seat] if seat is not None else 0)
        put(v, "_decode", type(state).tiles_of_mask)
        put(v, "_hand", None)
        put(v, "hand_sizes", tuple(state.hand_size(k) for k in range(n)))
        put(v, "boneyard_size", state.boneyard_size)
        put(v, "layout", state.layout)
        actor = state.actor
        put(v, "actor", actor)
        put(v, "legal", state.legal_actions() if seat is not None and seat == actor else ())
        put(v, "scores_before", state.scores_before)
        put(v, "leader", state.leader)
        put(v, "result", state.result)
        put(v, "public", state.facts)
        put(v, "revealed", tuple(state.hand(k) for k in range(n)) if over else None)
        put(v, "_cells", state.public_history(seat))
        put(v, "_history", None)
        return v

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a View is immutable")

    @property
    def hand(self) -> tuple[Tile, ...]:
        """The seat's own tiles (empty for a spectator)."""
        h = self._hand
        if h is None:
            h = self._decode(self._mask)
            object.__setattr__(self, "_hand", h)
        return h

    @property
    def history(self) -> tuple[Turn, ...]:
        """The hand so far, as this seat saw it (others' draws and discards hidden)."""
        h = self._history
        if h is None:
            h = tuple(Turn(s, a, e) for s, a, e in unroll(self._cells))
            object.__setattr__(self, "_history", h)
            object.__setattr__(self, "_cells", None)
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
        except BonepileError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            raise ViewError(f"view: {e}") from None
        return v


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
