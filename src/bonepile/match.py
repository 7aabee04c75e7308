"""Matches: hands played one after another until a player (or team) reaches the target score.

A :class:`Match` is an immutable value, like a :class:`~bonepile.state.State`: the hands played
so far (the last one may still be running) plus the game, options and the match seed. Each hand
starts with the match totals as its ``scores_before`` and, from the second hand on, with the
leader the game's next-hand rule names (:meth:`~bonepile.games.Game.next_leader`: Super
Dominoes' ``next_hand_leader``, Doubles' ``round_leader``, the classic games' "the winner leads").

>>> import bonepile
>>> m = bonepile.new_match("block", 2, seed=1)
>>> m.current.is_over, m.totals
(False, (0, 0))
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bonepile.actions import Action
from bonepile.errors import IllegalActionError, OptionError, shown
from bonepile.events import Event
from bonepile.games import Game, get_game
from bonepile.seeds import secret_seed
from bonepile.state import State, apply
from bonepile.tiles import Tile


def derive_seed(seed: int, index: int) -> int:
    """The 63-bit seed of item ``index`` of a run seeded with ``seed``, derived one way.

    Hand ``k`` of a match with seed ``S`` is dealt from ``derive_seed(S, k)``. The derivation
    is a one-way hash (:func:`bonepile.seeds.secret_seed`), so the seed of a finished hand,
    which its published record carries, tells nothing of the match seed or of the hands still
    to be dealt.
    """
    return secret_seed(seed, "hand", index)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the (random) player in ``seat`` for a run seeded with ``seed``.

    A stream of its own, derived one way: it tells nothing of a hand dealt from the same run
    seed.
    """
    return secret_seed(seed, "seat", seat)


@dataclass(frozen=True, eq=False)
class Match:
    """A match in progress or finished: every hand so far, the last one possibly running.

    ``seed`` is the match seed that later hands are dealt from unless :meth:`next_hand` is
    given a deal or a seed of its own.
    """

    game: Game[Any]
    players: int
    options: Any
    seed: int
    hands: tuple[State[Any], ...]

    # ----------------------------------------------------------------- queries
    @property
    def current(self) -> State[Any]:
        """The last hand (running, or the one that ended the match)."""
        return self.hands[-1]

    @property
    def target(self) -> int | None:
        """The total that ends the match (``None``: the match is a single hand)."""
        return self.game.target_score(self.options)

    @property
    def totals(self) -> tuple[int, ...]:
        """Every seat's match total, counting the current hand once it is over."""
        return self.current.scores

    @property
    def is_over(self) -> bool:
        """True once a hand has ended with a total at or above the target."""
        hand = self.current
        if hand.result is None:
            return False
        target = self.target
        return target is None or max(self.totals) >= target

    @property
    def needs_deal(self) -> bool:
        """True between hands: the current hand is over and the match is not."""
        return self.current.is_over and not self.is_over

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that won the match (ascending; both partners with teams); empty until over.

        With a target, the highest total at or above it wins (seats tied on it share the win);
        a single-hand match (no target) is won by the hand's winners.
        """
        if not self.is_over:
            return ()
        if self.target is None:
            result = self.current.result
            assert result is not None
            return result.winners
        best = max(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)

    @property
    def actor(self) -> int | None:
        """The seat to act in the current hand (``None`` between hands and when over)."""
        return self.current.actor

    def legal_actions(self) -> tuple[Action, ...]:
        """The current hand's legal actions."""
        return self.current.legal_actions()

    # ----------------------------------------------------------------- transitions
    def apply(self, action: Action | str) -> Match:
        """The match after ``action`` in the current hand."""
        return self._with_current(apply(self.current, action))

    def step(self, action: Action) -> tuple[Match, tuple[Event, ...]]:
        """Like :meth:`apply`, and also return the events."""
        new, events = self.current.step(action)
        return self._with_current(new), events

    def with_current(self, state: State[Any]) -> Match:
        """This match with its current hand replaced by a later position of that hand."""
        if state.initial is not self.current.initial:
            raise ValueError("with_current needs a later position of the current hand")
        return self._with_current(state)

    def _with_current(self, state: State[Any]) -> Match:
        return Match(self.game, self.players, self.options, self.seed, (*self.hands[:-1], state))

    def next_hand(
        self,
        *,
        seed: int | None = None,
        deal: tuple[Sequence[Sequence[Tile]], Sequence[Tile]] | None = None,
    ) -> Match:
        """Deal the next hand (from the match seed unless a ``seed`` or ``deal`` is given)."""
        if not self.current.is_over:
            raise IllegalActionError("the current hand is still being played")
        if self.is_over:
            raise IllegalActionError("the match is over")
        if seed is None and deal is None:
            seed = derive_seed(self.seed, len(self.hands))
        hand = self.game.new(
            self.players,
            options=self.options,
            seed=seed,
            deal=deal,
            scores_before=self.totals,
            leader=self.game.next_leader(self.current),
            board=getattr(self.current, "board", None),
        )
        return Match(self.game, self.players, self.options, self.seed, (*self.hands, hand))

    def summary(self) -> dict[str, Any]:
        """The current hand's position summary (docs/records.md) plus a ``match`` object."""
        out = self.current.summary()
        out["match"] = {
            "target_score": self.target,
            "seed": self.seed,
            "hands": [
                {
                    "hand": i + 1,
                    "leader": h.leader,
                    "first_player": h.first_player,
                    "scores_before": list(h.scores_before),
                    "result": None if h.result is None else h.result.to_json(),
                    "scores_after": list(h.scores),
                }
                for i, h in enumerate(self.hands)
            ],
            "totals": list(self.totals),
            "over": self.is_over,
            "winners": list(self.winners),
        }
        return out

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"hand {len(self.hands)}"
        totals = ", ".join(map(str, self.totals))
        return f"<Match {self.game.name} {self.players}p, {state}, totals {totals}>"


def new_match(
    game: str | Game[Any],
    players: int,
    *,
    options: Mapping[str, Any] | Any = None,
    seed: int | None = None,
    deal: tuple[Sequence[Sequence[Tile]], Sequence[Tile]] | None = None,
    board: Any = None,
) -> Match:
    """Start a match: its first hand is dealt from ``deal``, or else from the match ``seed``.

    ``board`` is for a board game (Double Double Dominoes, whose match is a single game).
    """
    g = game if isinstance(game, Game) else get_game(game)
    opts = g.make_options(options)
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"seed must be an integer, got {shown(seed)}")
    if deal is not None:
        first = g.new(players, options=opts, deal=deal, board=board)
    else:
        first = g.new(players, options=opts, seed=derive_seed(seed, 0), board=board)
    return Match(g, players, opts, seed, (first,))


def match_of(hands: Sequence[State[Any]], seed: int) -> Match:
    """A match made of hands already played (checked by :func:`bonepile.record.read_match`)."""
    first = hands[0]
    return Match(first.game, first.players, first.options, seed, tuple(hands))
