"""Game states and the one transition function.

A :class:`State` is immutable from the outside: :meth:`State.apply` (or :func:`apply`) returns a
new state and never changes the old one, so undo, history, search and sharing come for free.
Inside, hands are bit masks over tile indices and the boneyard is the deal's order plus a count
of tiles drawn; the public properties turn them back into :class:`~bonepile.tiles.Tile` values.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from mypy_extensions import mypyc_attr

from bonepile.actions import Action, Attach, Draw, Lead, Place
from bonepile.errors import IllegalActionError
from bonepile.events import Event, HandEnded
from bonepile.layout import unroll, unroll_cells
from bonepile.masks import count, mask_pips
from bonepile.result import Result
from bonepile.tiles import TILES, Tile, tiles_of

if TYPE_CHECKING:
    from bonepile.facts import PublicFacts
    from bonepile.games.base import Game
    from bonepile.grid import BoardLayout
    from bonepile.layout import Layout

Moves = tuple[Any, Action] | None
"""A persistent list of the actions taken so far: ``(previous, action)`` cells."""

Turns = tuple[Any, tuple[int, Action, tuple[Event, ...]]] | None
"""A persistent list of the hand's turns: ``(previous, (seat, action, events))`` cells."""

Public = tuple[Any, int, Action, tuple[Event, ...]] | None
"""A persistent list of the turns as a spectator saw them: ``(previous, seat, action, events)``
cells, one tuple a turn (most turns are public: recorded at the cost of one cell)."""

Owned = tuple[Any, int, int, Action, tuple[Event, ...]] | None
"""A persistent list of the turns one seat saw more of: ``(previous, turn index, seat, action,
events)`` cells, one tuple a turn."""


OptionsT = TypeVar("OptionsT")
"""The options class of a game (each game has its own frozen dataclass)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class State(Generic[OptionsT]):
    """A position of one hand of one game. Subclasses hold each game family's rules.

    Public attributes are read-only: ``game`` (the :class:`~bonepile.games.Game`), ``options``
    (the game's options object), ``players`` (seat count), ``actor`` (the seat to act, ``None``
    when over), ``result`` (a :class:`~bonepile.result.Result` once the hand is over),
    ``first_player``, ``seed`` (the deal's seed, ``None`` for an explicit deal),
    ``scores_before`` (match totals before this hand), ``leader`` (the seat a match's
    next-hand rule named for this hand, or ``None``; see
    :meth:`~bonepile.games.Game.next_leader`). Nothing outside the rules can change a state:
    :meth:`apply` makes a new one.
    """

    __slots__ = (
        "_actor",
        "_bone",
        "_bpos",
        "_first_player",
        "_game",
        "_hands",
        "_leader",
        "_legal",
        "_moves",
        "_options",
        "_own",
        "_players",
        "_ply",
        "_prev",
        "_pub",
        "_result",
        "_root",
        "_scores_before",
        "_seed",
        "_turns",
        "_turns_ok",
    )

    _game: Game[OptionsT]
    _options: OptionsT
    _players: int
    _hands: tuple[int, ...]
    _bone: tuple[int, ...]
    _bpos: int
    _actor: int | None
    _result: Result | None
    _first_player: int
    _leader: int | None
    _scores_before: tuple[int, ...]
    _seed: int | None
    _legal: tuple[Action, ...] | None
    _moves: Moves
    _root: State[OptionsT] | None
    _prev: State[OptionsT] | None
    _ply: int
    _pub: Public
    _own: tuple[Owned, ...] | None
    _turns: Turns
    _turns_ok: bool

    # ----------------------------------------------------------------- read-only attributes
    @property
    def game(self) -> Game[OptionsT]:
        """The game this hand is a hand of."""
        return self._game

    @property
    def options(self) -> OptionsT:
        """The game's options object (frozen)."""
        return self._options

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._players

    @property
    def actor(self) -> int | None:
        """The seat to act, ``None`` once the hand is over."""
        return self._actor

    @property
    def result(self) -> Result | None:
        """How the hand ended (``None`` while it runs)."""
        return self._result

    @property
    def first_player(self) -> int:
        """The seat that had the first decision of the hand."""
        return self._first_player

    @property
    def leader(self) -> int | None:
        """The seat a match's next-hand rule named for this hand, or ``None``."""
        return self._leader

    @property
    def scores_before(self) -> tuple[int, ...]:
        """Match totals before this hand (zeros outside a match)."""
        return self._scores_before

    @property
    def seed(self) -> int | None:
        """The seed the hand was dealt from (``None`` for an explicit deal)."""
        return self._seed

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle every slot of every class (a compiled base would keep only its own), but not
        the chain of earlier states: what the state works out from its ancestors (its history,
        every seat's, its layout) is worked out first, so a pickle holds one position."""
        self._history()
        self._seat_history(None)
        _ = self.layout
        names: list[str] = []
        for cls in type(self).__mro__:
            names.extend(getattr(cls, "__slots__", ()))
            names.extend(getattr(cls, "__mypyc_attrs__", ()))
        values = {}
        for name in dict.fromkeys(names):
            if name not in ("__dict__", "__weakref__") and hasattr(self, name):
                values[name] = getattr(self, name)
        values.update(getattr(self, "__dict__", {}))
        values["_prev"] = None
        return (_restore, (type(self), values))

    # ----------------------------------------------------------------- construction helpers
    def _init_base(
        self,
        game: Game[Any],
        options: Any,
        hands: Sequence[int],
        bone: Sequence[int],
        first_player: int,
        seed: int | None,
        scores_before: Sequence[int] | None,
        leader: int | None = None,
    ) -> None:
        self._game = game
        self._options = options
        self._players = len(hands)
        self._hands = tuple(hands)
        self._bone = tuple(bone)
        self._bpos = 0
        self._first_player = first_player
        self._leader = leader
        self._actor = None
        self._result = None
        self._seed = seed
        self._scores_before = (
            tuple(scores_before) if scores_before is not None else (0,) * len(hands)
        )
        self._legal = None
        self._moves = None
        self._root = None
        self._prev = None
        self._ply = 0
        self._turns = None
        self._turns_ok = True
        self._pub = None
        self._own = (None,) * (self._players + 1)

    def _clone(self) -> State[OptionsT]:
        """A shallow copy of the game fields (not the history fields: ``_legal``, ``_moves``,
        ``_root``, ``_prev``, ``_ply``, ``_turns``; see :meth:`_child`)."""
        raise NotImplementedError

    def _child(self) -> State[OptionsT]:
        """A clone that will be the position after one more action of this one's history."""
        new = self._clone()
        new._legal = None
        new._moves = self._moves
        new._root = self._root if self._root is not None else self
        new._prev = self
        new._ply = self._ply
        new._turns = None
        new._turns_ok = False
        new._pub = None
        new._own = None
        return new

    def _copy_base(self, new: State[OptionsT]) -> None:
        """Copy the fields every game has onto ``new``, a fresh instance (for ``_clone``)."""
        new._game = self._game
        new._options = self._options
        new._players = self._players
        new._hands = self._hands
        new._bone = self._bone
        new._bpos = self._bpos
        new._actor = self._actor
        new._result = self._result
        new._first_player = self._first_player
        new._leader = self._leader
        new._scores_before = self._scores_before
        new._seed = self._seed

    # ----------------------------------------------------------------- the transition
    def legal_actions(self) -> tuple[Action, ...]:
        """The actor's legal actions (empty when the hand is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def apply(self, action: Action) -> State[OptionsT]:
        """The state after ``action``; raise :class:`IllegalActionError` if it is not legal.

        The fast path (search trees): no events are built; a view of the new state works its
        history out from the nearest ancestor that knows it (see :meth:`step`)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if not _holds(legal, action):
            raise self._illegal(action)
        new = self._child()
        new._moves = (self._moves, action)
        new._ply += 1
        new._do(action, None)
        return new

    def step(self, action: Action) -> tuple[State[OptionsT], tuple[Event, ...]]:
        """Like :meth:`apply`, and also return the events the action caused.

        The new state keeps the turn (seat, action, events) in its history and in every seat's
        view of it, so views of a hand played by steps never replay anything (the runners of
        bonepile play by steps)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        new = self._child()
        new._legal = legal
        new._pub = self._pub
        new._own = own = self._own
        if own is None:  # no seat's history known: keep the full one if that is
            new._turns = self._turns
            new._turns_ok = self._turns_ok
        return new, new._act_in_place(action)

    def _private(self) -> State[OptionsT]:
        """A copy of this position that :meth:`_act_in_place` changes in place, its history and
        every seat's known: a runner that holds no position in between (``play_hand``) plays
        a whole hand on one, as :meth:`playout` does, instead of a new state a step."""
        self._seat_history(None)
        new = self._child()
        new._legal = self._legal
        new._pub = self._pub
        new._own = self._own
        return new

    def _act_in_place(self, action: Action, buf: list[Event] | None = None) -> tuple[Event, ...]:
        """Carry out ``action`` on this private state in place (raise
        :class:`IllegalActionError` if it is not legal): keep the move, and the turn in the
        history and in every seat's when they are known; return the events. ``buf``: a list
        the caller lends for the events as they happen (a runner playing a whole hand lends
        one, which saves a list a move), emptied first."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if not _holds(legal, action):
            raise self._illegal(action)
        seat = self._actor
        assert seat is not None
        ply = self._ply
        if buf is None:
            events: list[Event] = []
        else:
            events = buf
            if events:
                events.clear()
        self._legal = None
        self._moves = (self._moves, action)
        self._ply = ply + 1
        ready = self._do(action, events)
        done = tuple(events) if ready is None else ready
        if self._turns_ok:
            self._turns = (self._turns, (seat, action, done))
        own = self._own
        if own is not None:  # else worked out when first asked for (see _seat_history)
            self._pub, self._own = _record(self._pub, own, seat, action, done, ply)
        return done

    def playout(self, rng: random.Random) -> State[OptionsT]:
        """Play uniformly random legal actions to the end of the hand; return the final state.

        Equivalent to ``while not s.is_over: legal = s.legal_actions();
        s = s.apply(legal[int(rng.random() * len(legal))])`` but without building the states
        in between, which makes it the fast path for simulations and search rollouts.
        """
        if self._result is not None:
            return self
        s = self._child()
        rand = rng.random
        moves = s._moves
        ply = s._ply
        while s._actor is not None:
            legal = s._compute_legal()
            action = legal[int(rand() * float(len(legal)))]  # a native float product
            moves = (moves, action)
            ply += 1
            s._do(action, None)
        s._moves = moves
        s._ply = ply
        s._legal = ()
        return s

    def playout_with(
        self, policy: Callable[[State[OptionsT], random.Random], Action], rng: random.Random
    ) -> State[OptionsT]:
        """Play ``policy(state, rng)``'s actions to the end of the hand; return the final state
        (:class:`IllegalActionError` if the policy picks an illegal action).

        Equivalent to ``while not s.is_over: s = s.apply(policy(s, rng))`` but on one copy
        changed in place, without the states in between: the call search rollouts with a
        playing policy make. The policy is handed that copy at each turn; it may read anything
        of it (legal actions, hands, layout, history) but must not keep it, nor a state made
        from it, past its return.
        """
        if self._result is not None:
            return self
        s = self._child()
        while s._actor is not None:
            action = policy(s, rng)
            legal = s._legal
            if legal is None:
                legal = s._compute_legal()
            if not _holds(legal, action):
                raise s._illegal(action)
            s._legal = None
            s._moves = (s._moves, action)
            s._ply += 1
            s._do(action, None)
            s._turns = None  # what the policy may have worked out of the history is stale
            s._turns_ok = False
            s._pub = None
            s._own = None
        return s

    def placeable_tiles(self) -> frozenset[Tile]:
        """The tiles the actor could place right now if it held them: the placement rules
        alone, whatever its hand. Empty when the hand is over.

        What a pass, a forced draw or a discard reveals: the player held none of these (the
        position is public, so this is the same in every world consistent with a view).
        """
        actor = self._actor
        if actor is None:
            return frozenset()
        s = self._child()
        hands = list(s._hands)
        hands[actor] = (1 << self._game.deck_size(self._players, self._options)) - 1
        s._hands = tuple(hands)
        return frozenset(a.tile for a in s._compute_legal() if isinstance(a, Lead | Attach | Place))

    def _illegal(self, action: Action) -> IllegalActionError:
        if self._result is not None:
            return IllegalActionError(f"{action} is not legal: the hand is over")
        if not isinstance(action, Action):
            return IllegalActionError(f"{action!r} is not an action")
        legal = [str(a) for a in self.legal_actions()]
        shown = ", ".join(legal[:12]) + (", ..." if len(legal) > 12 else "")
        return IllegalActionError(f"{action} is not legal for P{self._actor} here (legal: {shown})")

    def _compute_legal(self) -> tuple[Action, ...]:
        raise NotImplementedError

    def _end_hand(self, result: Result, events: list[Event] | None) -> None:
        """End the hand with ``result`` (every game ends its hands here)."""
        self._result = result
        self._actor = None
        self._legal = ()
        if events is not None:
            events.append(HandEnded(result))

    def _do(self, action: Action, events: list[Event] | None) -> tuple[Event, ...] | None:
        """Carry out a legal ``action`` on this fresh, private state, in place.

        Append the events it causes to ``events`` unless that is ``None`` (the fast path) and
        return ``None``; or, appending nothing, return them as a tuple the game keeps (a
        move's usual event, made once and shared), which saves the caller a new tuple.
        Only :meth:`apply`, :meth:`step` and :meth:`playout` call it, on a new clone.
        """
        raise NotImplementedError

    # ----------------------------------------------------------------- public accessors
    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self._result is not None

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds, in index order."""
        return self.tiles_of_mask(self._hands[seat])

    @staticmethod
    def tiles_of_mask(mask: int) -> tuple[Tile, ...]:
        """The tiles of a hand kept as a bit mask, in index order (games that number several
        copies of a tile override it)."""
        return tiles_of(mask)

    def hand_pips(self, seat: int) -> int:
        """The pip total of ``seat``'s hand."""
        return mask_pips(self._hands[seat])

    def hand_size(self, seat: int) -> int:
        """How many tiles ``seat`` holds."""
        return self._hands[seat].bit_count()

    def _sizes(self) -> int:
        """Every seat's hand size, 8 bits a seat (seat k's at bit 8k: no hand holds 256
        tiles), as a view keeps them: a machine integer up to 7 seats, where a tuple would be
        an object a move (most agents never read them)."""
        hands = self._hands
        if len(hands) == 2:  # the most played count
            return count(hands[0]) | count(hands[1]) << 8
        packed = 0
        for k in range(len(hands)):
            packed |= count(hands[k]) << (8 * k)
        return packed

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The tiles left in the boneyard, in drawing order (hidden information)."""
        return tuple(TILES[i] for i in self._bone[self._bpos :])

    @property
    def boneyard_size(self) -> int:
        """How many tiles are left in the boneyard."""
        return len(self._bone) - self._bpos

    @property
    def deal(self) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
        """The hand's deal: every seat's dealt tiles and the boneyard in drawing order.

        Usually the hands and boneyard of :attr:`initial`; a game whose first decision comes
        after an automatic draw (Double Double Dominoes) gives them as dealt.
        """
        root = self.initial
        return tuple(root.hand(s) for s in range(root.players)), root.boneyard

    @property
    def initial(self) -> State[OptionsT]:
        """The state this hand started from (after the deal)."""
        return self._root if self._root is not None else self

    @property
    def moves(self) -> tuple[Action, ...]:
        """Every action taken since the deal, in order."""
        return tuple(unroll(self._moves))

    @property
    def ply(self) -> int:
        """How many actions have been taken since the deal."""
        return self._ply

    def replay(self) -> list[tuple[int, Action, tuple[Event, ...]]]:
        """The hand so far as ``(seat, action, events)`` triples (full information)."""
        return unroll(self._history())

    def _history(self) -> Turns:
        """The persistent list of turns, computed once per state and shared with its
        descendants. A state that keeps every seat's history (played by steps or in place)
        merges the spectator's list with the full forms of the turns that hid something;
        otherwise only the actions since the nearest ancestor that knows its history are
        carried out again (one transition each), never the whole hand."""
        if self._turns_ok:
            return self._turns
        own = self._own
        if own is not None:
            turns: Turns = None
            for item in seat_history(self._pub, own[-1]):
                turns = (turns, item)
            self._turns = turns
            self._turns_ok = True  # kept up to date from here by moves in place
            return turns
        start, steps = self._catch_up(_knows_turns)
        turns = start._history()
        cur = start
        for target, actions in steps:
            for a in actions:
                seat = cur._actor
                assert seat is not None
                events: list[Event] = []
                nxt = cur._clone()
                ready = nxt._do(a, events)
                turns = (turns, (seat, a, tuple(events) if ready is None else ready))
                cur = nxt
            target._turns = turns
            target._turns_ok = True
        return turns

    def _catch_up(
        self, known: Callable[[State[Any]], bool]
    ) -> tuple[State[OptionsT], list[tuple[State[OptionsT], list[Action]]]]:
        """For a cache a state works out from its ancestors (its history, every seat's
        history, a line game's placements): the nearest ancestor whose cache is ``known``
        (a deal always knows its empty ones), then each state from there to this one, oldest
        first, with the actions that lead to it from the one before."""
        chain: list[State[OptionsT]] = []
        s: State[OptionsT] = self
        while not known(s):
            chain.append(s)
            prev = s._prev
            assert prev is not None  # a deal knows every cache
            s = prev
        steps = []
        ply = s._ply
        for target in reversed(chain):
            steps.append((target, newest(target._moves, target._ply - ply)))
            ply = target._ply
        return s, steps

    def public_history(self, seat: int | None) -> Turns:
        """The hand so far as ``seat`` saw it (``None``: a spectator): a persistent list of
        ``(seat, action, events)`` with other seats' hidden actions and events redacted."""
        items = seat_history(*self._seat_history(seat))
        cells: Turns = None
        for item in items:
            cells = (cells, item)
        return cells

    def _seat_history(self, seat: int | None) -> tuple[Public, Owned]:
        """What ``seat`` saw, as two persistent lists: every turn as a spectator saw it, and
        ``(turn index, turn)`` for the turns that seat saw more of (its own draws and
        discards). :meth:`step` keeps both up to date at the cost of a cell or two a turn; a
        state made by :meth:`apply` or :meth:`playout` works them out once, from the nearest
        ancestor that has them, and keeps them."""
        own = self._own
        if own is None:
            start, steps = self._catch_up(_knows_seats)
            pub = start._pub
            owns: tuple[Owned, ...] | None = start._own
            assert owns is not None
            ply = start._ply
            for target, actions in steps:
                for item in newest(target._history(), len(actions)):
                    pub, owns = _record(pub, owns, item[0], item[1], item[2], ply)
                    ply += 1
                target._pub = pub
                target._own = owns
            own = owns
        return self._pub, None if seat is None else own[seat]

    @property
    def layout(self) -> Layout | BoardLayout:
        """The tiles on the table (see :mod:`bonepile.layout`; a board game's
        :class:`~bonepile.grid.BoardLayout`)."""
        raise NotImplementedError

    @property
    def scores(self) -> tuple[int, ...]:
        """Match totals after this hand (``scores_before`` plus the hand's points when over)."""
        if self._result is None:
            return self._scores_before
        return tuple(a + b for a, b in zip(self._scores_before, self._result.points, strict=True))

    @property
    def hand_points(self) -> tuple[int, ...]:
        """The points the hand has scored each seat so far, as the game counts them: the
        result's points once the hand is over (zeros before); a board game scores on its
        track as it goes, and overrides this with the track."""
        if self._result is None:
            return (0,) * self.players
        return self._result.points

    @property
    def facts(self) -> PublicFacts:
        """The game's public facts (direction, spell, ...): a frozen object of the game's
        :attr:`~bonepile.games.Game.Facts` class (see :mod:`bonepile.facts`)."""
        raise NotImplementedError

    # ----------------------------------------------------------------- what a view builds late
    def _layout_key(self) -> tuple[Any, Any]:
        """Two public values from which :meth:`_layout_of` builds this position's layout: a
        view keeps them, and builds the layout only if it is read (most agents never read
        it); two, as a pair costs no tuple where both sides are compiled.

        They must say nothing a spectator could not see, and must not change when this state
        changes in place (persistent lists, tuples). The default is the layout itself (and
        ``None``); a game whose layout costs more than its parts overrides both."""
        return self.layout, None

    @staticmethod
    def _layout_of(key: Any, more: Any) -> Layout | BoardLayout:
        """The layout from :meth:`_layout_key`'s two values."""
        layout: Layout | BoardLayout = key
        return layout

    def _facts_key(self) -> Any:
        """Public values from which :meth:`_facts_of` builds this position's public facts, as
        :meth:`_layout_key` for the layout (the default: the facts themselves)."""
        return self.facts

    @staticmethod
    def _facts_of(key: Any) -> PublicFacts:
        """The public facts from :meth:`_facts_key`'s values."""
        facts: PublicFacts = key
        return facts

    def summary(self) -> dict[str, Any]:
        """The position summary (docs/records.md, "The position summary"): the full position."""
        out: dict[str, Any] = {
            "game": self._game.name,
            "players": self._players,
            "over": self.is_over,
            "actor": self._actor,
            "legal": [str(a) for a in self.legal_actions()],
            "hands": [[str(t) for t in self.hand(s)] for s in range(self._players)],
            "boneyard": self.boneyard_size,
            "scores": list(self.scores),
            "result": self._result.to_json() if self._result is not None else None,
            "moves": len(self.moves),
        }
        out["layout"] = self.layout.to_json()
        out.update(self.facts.to_json())
        return out

    def key(self) -> tuple[Any, ...]:
        """Everything that makes this position what it is (for equality and hashing)."""
        return (
            self._game.name,
            self._options,
            self._hands,
            self._bone[self._bpos :],
            self._actor,
            self._result,
            self._scores_before,
            *self._key_extra(),
        )

    def _key_extra(self) -> tuple[Any, ...]:
        return ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        who = "over" if self._actor is None else f"P{self._actor} to act"
        moves = len(self.moves)
        return f"<{type(self).__name__} {self._game.name} {self._players}p, {who}, {moves} moves>"


def newest(cells: Any, k: int) -> list[Any]:
    """The ``k`` newest items of a persistent list of ``(previous, item)`` cells, oldest
    first."""
    out = []
    for _ in range(k):
        cells, item = cells
        out.append(item)
    out.reverse()
    return out


def _holds(legal: tuple[Action, ...], action: Action) -> bool:
    """``action in legal``, looking for the very object first (the rules hand out interned
    actions, and an agent picks one of them: a compare of each other action costs more)."""
    for a in legal:
        if a is action:
            return True
    return action in legal


def _knows_turns(s: State[Any]) -> bool:
    return s._turns_ok or s._own is not None


def _knows_seats(s: State[Any]) -> bool:
    return s._own is not None


def _restore(cls: type[State[Any]], values: dict[str, Any]) -> State[Any]:
    """Rebuild a pickled state."""
    state = cls.__new__(cls)
    for name, value in values.items():
        object.__setattr__(state, name, value)
    return state


_ATTACH: Final[type[Attach]] = Attach
_DRAW: Final[type[Draw]] = Draw
_REDACTS: Final[dict[type, bool]] = {}
"""Per action class: whether it overrides :meth:`Action.redacted` (actions are plain Python
objects: asking the class costs less than calling the method)."""


def _redacts(kind: type[Any]) -> bool:
    if kind is _ATTACH or kind is _DRAW:  # the usual turns' actions: no lookup
        return False
    redacts = _REDACTS.get(kind)
    if redacts is None:
        redacts = _REDACTS[kind] = kind.redacted is not Action.redacted
    return redacts


def _record(
    pub: Public,
    own: tuple[Owned, ...],
    seat: int,
    action: Action,
    events: tuple[Event, ...],
    ply: int,
) -> tuple[Public, tuple[Owned, ...]]:
    """Add the ``ply``-th turn (``seat`` took ``action``, which caused ``events``) to the
    spectator's list ``pub`` and, when it hid something from the spectator, to the lists of
    the seats that saw more (see :func:`_split`). A turn whose action and events the
    spectator sees whole is public: a seat never sees less than a spectator."""
    shown = action.redacted() if _redacts(type(action)) else action
    # Through a variable: ``len(events) == 1`` would narrow ``events`` to a one-tuple, which
    # the compiled build unboxes and boxes again as a new tuple in every cell below.
    count = len(events)
    if count == 1:  # the usual turn
        e = events[0]
        p = e.redact(None)
        if p is e:
            if shown is action:
                return (pub, seat, action, events), own
            return _split(pub, own, (seat, action, events), ply, shown, events)
        if shown is action and e.sole_viewer() == seat:  # a draw: the actor alone saw it all
            mine = (own[seat], ply, seat, action, events)
            full = (own[-1], ply, seat, action, events)
            if len(own) == 3:  # two seats: no list in between (100 instructions a move of draw)
                return (pub, seat, action, (p,)), (
                    (mine, own[1], full) if seat == 0 else (own[0], mine, full)
                )
            lists = list(own)
            lists[seat] = mine
            lists[-1] = full
            return (pub, seat, action, (p,)), tuple(lists)
        return _split(pub, own, (seat, action, events), ply, shown, (p,))
    seen = tuple([e.redact(None) for e in events])
    if shown is action and all(seen[i] is events[i] for i in range(len(events))):
        return (pub, seat, action, events), own
    return _split(pub, own, (seat, action, events), ply, shown, seen)


def _split(
    pub: Public,
    own: tuple[Owned, ...],
    item: tuple[int, Action, tuple[Event, ...]],
    ply: int,
    shown: Action,
    seen: tuple[Event, ...],
) -> tuple[Public, tuple[Owned, ...]]:
    """Add a turn that hides something (``shown`` and ``seen``: its action and events as the
    spectator sees them): the spectator's form to ``pub``, and to each seat that saw more of
    it, a cell of its form to that seat's list (the whole turn for a seat that saw all of it,
    as the actor of a discard does); a cell of the whole turn always to the last list, the full
    forms from which :meth:`State._history` merges the whole history.

    An event redacts to itself for whoever it hides nothing from (see :meth:`Event.redact`):
    one the spectator sees whole every seat sees whole, and a seat that gets the event itself
    where the spectator does not saw more."""
    who, action, events = item
    lists: list[Any] = list(own)
    n = len(lists) - 1  # the seats; the last list is the full forms
    lists[n] = (lists[n], ply, who, action, events)
    # Each event that hides something names the one seat that sees it (a draw, a discard,
    # the others' draws after a 15): only those seats, and the actor of a hidden action, saw
    # more.
    viewer = -2  # the one seat that sees the hidden events (-2: none yet, -1: several)
    viewers: list[int] | None = None  # every such seat, once there are several
    for i in range(len(events)):
        e = events[i]
        if seen[i] is not e:
            v = e.sole_viewer()
            if v is None:
                viewer = -3  # not told: ask every seat below
                viewers = None
                break
            if viewer == -2:
                viewer = v
            elif v != viewer:
                if viewers is None:
                    viewers = [viewer]
                    viewer = -1
                if v not in viewers:
                    viewers.append(v)
    if viewer >= 0 or viewer == -2:
        k = who if viewer == -2 else viewer
        if k == who or shown is action:  # that seat sees the turn whole
            lists[k] = (lists[k], ply, who, action, events)
            return (pub, who, shown, seen), tuple(lists)
        viewers = [k]
    if viewers is not None:
        if shown is not action and shown != action and who not in viewers:
            viewers.append(who)
        for k in viewers:
            mine = action if who == k else shown
            all_of_it = mine is action
            shows = list(seen)
            for i in range(len(events)):
                e = events[i]
                if seen[i] is not e:
                    if e.sole_viewer() == k:
                        shows[i] = e
                    else:
                        all_of_it = False
            lists[k] = (lists[k], ply, who, mine, events if all_of_it else tuple(shows))
        return (pub, who, shown, seen), tuple(lists)
    for k in range(n):
        mine = action if who == k else shown
        more = mine is not shown and mine != shown
        all_of_it = mine is action
        forms: list[Event] | None = None
        for i in range(len(events)):
            e = events[i]
            p = seen[i]
            if p is e:
                continue
            r = e.redact(k)
            if r is p or (r is not e and r == p):
                all_of_it = False
                continue
            if r is not e:
                all_of_it = False
            if forms is None:
                forms = list(seen)
            forms[i] = r
            more = True
        if more:
            told = events if all_of_it else seen if forms is None else tuple(forms)
            lists[k] = (lists[k], ply, who, mine, told)
    return (pub, who, shown, seen), tuple(lists)


def seat_history(pub: Public, own: Owned) -> list[tuple[int, Action, tuple[Event, ...]]]:
    """Merge the two lists of :meth:`State._seat_history` into one seat's turns."""
    items: list[tuple[int, Action, tuple[Event, ...]]] = []
    cell: Any = pub
    while cell is not None:
        cell, who, action, events = cell
        items.append((who, action, events))
    items.reverse()
    for ply, who, action, events in unroll_cells(own):
        items[ply] = (who, action, events)
    return items


def apply(state: State[OptionsT], action: Action | str) -> State[OptionsT]:
    """The one transition: the state after ``action`` (a typed action or its notation)."""
    if isinstance(action, str):
        from bonepile.actions import parse_action

        action = parse_action(action)
    return state.apply(action)
