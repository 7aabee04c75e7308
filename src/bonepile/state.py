"""Game states and the one transition function.

A :class:`State` is immutable from the outside: :meth:`State.apply` (or :func:`apply`) returns a
new state and never changes the old one, so undo, history, search and sharing come for free.
Inside, hands are bit masks over tile indices and the boneyard is the deal's order plus a count
of tiles drawn; the public properties turn them back into :class:`~bonepile.tiles.Tile` values.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bonepile.actions import Action, Attach, Lead, Place
from bonepile.errors import IllegalActionError
from bonepile.events import Event
from bonepile.layout import unroll
from bonepile.result import Result
from bonepile.tiles import TILES, Tile, mask_pips, tiles_of

if TYPE_CHECKING:
    from bonepile.games.base import Game
    from bonepile.grid import BoardLayout
    from bonepile.layout import Layout

Moves = tuple[Any, Action] | None
"""A persistent list of the actions taken so far: ``(previous, action)`` cells."""


class State:
    """A position of one hand of one game. Subclasses hold each game family's rules.

    Public attributes (read-only): ``game`` (the :class:`~bonepile.games.Game`), ``options``,
    ``players`` (seat count), ``actor`` (the seat to act, ``None`` when over), ``result``
    (a :class:`~bonepile.result.Result` once the hand is over), ``scores_before`` (match totals
    before this hand), ``leader`` (the seat a match's next-hand rule named for this hand, or
    ``None``; see :meth:`~bonepile.games.Game.next_leader`).
    """

    __slots__ = (
        "_legal",
        "_moves",
        "_root",
        "actor",
        "bone",
        "bpos",
        "first_player",
        "game",
        "hands",
        "leader",
        "options",
        "players",
        "result",
        "scores_before",
        "seed",
    )

    game: Game
    options: Any
    players: int
    hands: tuple[int, ...]
    bone: tuple[int, ...]
    bpos: int
    actor: int | None
    result: Result | None
    first_player: int
    leader: int | None
    scores_before: tuple[int, ...]
    seed: int | None
    _legal: tuple[Action, ...] | None
    _moves: Moves
    _root: State | None

    # ----------------------------------------------------------------- construction helpers
    def _init_base(
        self,
        game: Game,
        options: Any,
        hands: Sequence[int],
        bone: Sequence[int],
        first_player: int,
        seed: int | None,
        scores_before: Sequence[int] | None,
        leader: int | None = None,
    ) -> None:
        self.game = game
        self.options = options
        self.players = len(hands)
        self.hands = tuple(hands)
        self.bone = tuple(bone)
        self.bpos = 0
        self.first_player = first_player
        self.leader = leader
        self.actor = None
        self.result = None
        self.seed = seed
        self.scores_before = (
            tuple(scores_before) if scores_before is not None else (0,) * len(hands)
        )
        self._legal = None
        self._moves = None
        self._root = None

    def _clone(self) -> State:
        """A shallow copy of the game fields (not ``_legal``, ``_moves``, ``_root``)."""
        raise NotImplementedError

    def _copy_base(self, new: State) -> None:
        """Copy the fields every game has onto ``new``, a fresh instance (for ``_clone``)."""
        new.game = self.game
        new.options = self.options
        new.players = self.players
        new.hands = self.hands
        new.bone = self.bone
        new.bpos = self.bpos
        new.actor = self.actor
        new.result = self.result
        new.first_player = self.first_player
        new.leader = self.leader
        new.scores_before = self.scores_before
        new.seed = self.seed

    # ----------------------------------------------------------------- the transition
    def legal_actions(self) -> tuple[Action, ...]:
        """The actor's legal actions (empty when the hand is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def apply(self, action: Action) -> State:
        """The state after ``action``; raise :class:`IllegalActionError` if it is not legal."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise self._illegal(action)
        new = self._clone()
        new._legal = None
        new._moves = (self._moves, action)
        new._root = self._root if self._root is not None else self
        new._do(action, None)
        return new

    def step(self, action: Action) -> tuple[State, tuple[Event, ...]]:
        """Like :meth:`apply`, and also return the events the action caused."""
        legal = self.legal_actions()
        if action not in legal:
            raise self._illegal(action)
        events: list[Event] = []
        new = self._clone()
        new._legal = None
        new._moves = (self._moves, action)
        new._root = self._root if self._root is not None else self
        new._do(action, events)
        return new, tuple(events)

    def playout(self, rng: random.Random) -> State:
        """Play uniformly random legal actions to the end of the hand; return the final state.

        Equivalent to ``while not s.is_over: legal = s.legal_actions();
        s = s.apply(legal[int(rng.random() * len(legal))])`` but without building the states
        in between, which makes it the fast path for simulations and search rollouts.
        """
        if self.result is not None:
            return self
        s = self._clone()
        s._moves = self._moves
        s._root = self._root if self._root is not None else self
        rand = rng.random
        while s.actor is not None:
            legal = s._compute_legal()
            action = legal[int(rand() * len(legal))]
            s._moves = (s._moves, action)
            s._do(action, None)
        s._legal = ()
        return s

    def placeable_tiles(self) -> frozenset[Tile]:
        """The tiles the actor could place right now if it held them: the placement rules
        alone, whatever its hand. Empty when the hand is over.

        What a pass, a forced draw or a discard reveals: the player held none of these (the
        position is public, so this is the same in every world consistent with a view).
        """
        actor = self.actor
        if actor is None:
            return frozenset()
        s = self._clone()
        s._moves = self._moves
        s._root = self._root
        s._legal = None
        hands = list(s.hands)
        hands[actor] = (1 << self.game.deck_size(self.players, self.options)) - 1
        s.hands = tuple(hands)
        return frozenset(a.tile for a in s._compute_legal() if isinstance(a, Lead | Attach | Place))

    def _illegal(self, action: Action) -> IllegalActionError:
        if self.result is not None:
            return IllegalActionError(f"{action} is not legal: the hand is over")
        if not isinstance(action, Action):
            return IllegalActionError(f"{action!r} is not an action")
        legal = [str(a) for a in self.legal_actions()]
        shown = ", ".join(legal[:12]) + (", ..." if len(legal) > 12 else "")
        return IllegalActionError(f"{action} is not legal for P{self.actor} here (legal: {shown})")

    def _compute_legal(self) -> tuple[Action, ...]:
        raise NotImplementedError

    def _do(self, action: Action, events: list[Event] | None) -> None:
        """Carry out a legal ``action`` on this fresh, private state, in place.

        Append the events it causes to ``events`` unless that is ``None`` (the fast path).
        Only :meth:`apply`, :meth:`step` and :meth:`playout` call it, on a new clone.
        """
        raise NotImplementedError

    # ----------------------------------------------------------------- public accessors
    @property
    def is_over(self) -> bool:
        """True once the hand has ended."""
        return self.result is not None

    def hand(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` holds, in index order."""
        return tiles_of(self.hands[seat])

    def hand_pips(self, seat: int) -> int:
        """The pip total of ``seat``'s hand."""
        return mask_pips(self.hands[seat])

    def hand_size(self, seat: int) -> int:
        """How many tiles ``seat`` holds."""
        return self.hands[seat].bit_count()

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        """The tiles left in the boneyard, in drawing order (hidden information)."""
        return tuple(TILES[i] for i in self.bone[self.bpos :])

    @property
    def boneyard_size(self) -> int:
        """How many tiles are left in the boneyard."""
        return len(self.bone) - self.bpos

    @property
    def deal(self) -> tuple[tuple[tuple[Tile, ...], ...], tuple[Tile, ...]]:
        """The hand's deal: every seat's dealt tiles and the boneyard in drawing order.

        Usually the hands and boneyard of :attr:`initial`; a game whose first decision comes
        after an automatic draw (Double Double Dominoes) gives them as dealt.
        """
        root = self.initial
        return tuple(root.hand(s) for s in range(root.players)), root.boneyard

    @property
    def initial(self) -> State:
        """The state this hand started from (after the deal)."""
        return self._root if self._root is not None else self

    @property
    def moves(self) -> tuple[Action, ...]:
        """Every action taken since the deal, in order."""
        return tuple(unroll(self._moves))

    def replay(self) -> list[tuple[int, Action, tuple[Event, ...]]]:
        """The hand so far as ``(seat, action, events)`` triples, replayed from the deal."""
        out = []
        s = self.initial
        for action in self.moves:
            seat = s.actor
            assert seat is not None
            s, events = s.step(action)
            out.append((seat, action, events))
        return out

    @property
    def layout(self) -> Layout | BoardLayout:
        """The tiles on the table (see :mod:`bonepile.layout`; a board game's
        :class:`~bonepile.grid.BoardLayout`)."""
        raise NotImplementedError

    @property
    def scores(self) -> tuple[int, ...]:
        """Match totals after this hand (``scores_before`` plus the hand's points when over)."""
        if self.result is None:
            return self.scores_before
        return tuple(a + b for a, b in zip(self.scores_before, self.result.points, strict=True))

    def public_info(self) -> dict[str, Any]:
        """Game-specific public facts (direction, spell, ...) for views and summaries."""
        return {}

    def summary(self) -> dict[str, Any]:
        """The position summary of FORMATS.md section 4 (the full position)."""
        out: dict[str, Any] = {
            "game": self.game.name,
            "players": self.players,
            "over": self.is_over,
            "actor": self.actor,
            "legal": [str(a) for a in self.legal_actions()],
            "hands": [[str(t) for t in self.hand(s)] for s in range(self.players)],
            "boneyard": self.boneyard_size,
            "scores": list(self.scores),
            "result": self.result.to_json() if self.result is not None else None,
            "moves": len(self.moves),
        }
        out["layout"] = self.layout.to_json()
        out.update(self.public_info())
        return out

    def key(self) -> tuple[Any, ...]:
        """Everything that makes this position what it is (for equality and hashing)."""
        return (
            self.game.name,
            self.options,
            self.hands,
            self.bone[self.bpos :],
            self.actor,
            self.result,
            self.scores_before,
            *self._key_extra(),
        )

    def _key_extra(self) -> tuple[Any, ...]:
        return ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        who = "over" if self.actor is None else f"P{self.actor} to act"
        moves = len(self.moves)
        return f"<{type(self).__name__} {self.game.name} {self.players}p, {who}, {moves} moves>"


def apply(state: State, action: Action | str) -> State:
    """The one transition: the state after ``action`` (a typed action or its notation)."""
    if isinstance(action, str):
        from bonepile.actions import parse_action

        action = parse_action(action)
    return state.apply(action)
