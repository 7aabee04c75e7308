"""The conformance check: every registered game passes it, and broken games fail it.

How the broken games are built. The rules' State classes are compiled in the mypyc build,
which refuses interpreted subclasses of them, so a broken game cannot subclass a real game's
state. Instead the test defines a game of its own, outside the package, the way a third party
would: :class:`ProxyGame` (a :class:`~bonepile.games.Game`, not registered) deals a real game's
hand and wraps it in a :class:`ProxyState` (a subclass of the base
:class:`~bonepile.state.State`, which both builds allow to be subclassed) that forwards every
public accessor to the real state; :func:`~bonepile.view.view` reads the base class's own
fields and its ``_seat_history``, so those are copied over or forwarded too. Unbroken, the
proxy passes :func:`check_game`, which shows that a game defined outside the package can be
checked; each broken variant overrides one behaviour (a mutating ``apply``, facts that leak a
hand, a boneyard that loses a tile, ...) and must fail with the invariant that names it. No
function of bonepile is monkeypatched.

Pickling is checked separately (``test_pickle_round_trips``), on every position of a few hands;
the other tests skip the ``pickle`` invariant to stay fast.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass
from typing import Any

import pytest

from bonepile.actions import PASS, Action
from bonepile.conformance import (
    INVARIANTS,
    SKIPPABLE,
    CheckReport,
    ConformanceError,
    check_game,
    check_pickle,
)
from bonepile.events import Event, HandEnded
from bonepile.games import Game, all_games, get_game, new_game
from bonepile.state import State
from bonepile.tiles import Tile

pytestmark = pytest.mark.engine

NO_PICKLE = {"pickle"}


# ------------------------------------------------------------------------------ registered games
OPTION_SETS: dict[str, dict[str, dict[str, Any]]] = {
    "super_dominoes": {
        "default": {},
        "tile_contains": {
            "effect_trigger": "tile_contains",
            "skip_trigger": "blank",
            "extra_turn_mode": "play_only_if_able",
            "draw_when_unable": 1,
        },
        "random_first": {
            "first_player_rule": "random",
            "doubles_branch": True,
            "skip_stacking": True,
            "starter13_spell": "single_play",
            "scoring": "simple",
        },
    },
    "block": {
        "default": {},
        "spinner_teams": {"spinner": True, "lead": "seat0_any", "teams": True},
    },
    "draw": {"default": {}, "one_reserve_9": {"draw_mode": "one", "reserve": 2, "max_pip": 9}},
    "doubles": {
        "default": {},
        "until_playable": {"draw_when_unable": "until_playable", "spinner_sides": 3},
    },
    "double_double": {
        "small": {},
        "small_random_tail": {
            "first_player_tiebreak": "random",
            "chain_contact": "tail_on_last_double",
        },
    },
}
"""Option sets per game (Double Double Dominoes on the small board, for speed)."""


def _seeds(game: str, players: int, default: bool) -> range:
    """Enough hands to meet every rule, few enough to keep the suite fast."""
    if game == "super_dominoes":
        return range(8 if players <= 3 and default else 3 if players <= 4 else 2)
    return range(12 if default else 6)


def _fits(game: Game[Any], players: int, opts: Any) -> bool:
    try:
        game.check_players(players, opts)
    except ValueError:
        return False
    return True


def _cases() -> list[Any]:
    """Every registered game at its smallest and largest player counts, for each option set."""
    cases = []
    for game in all_games():
        for label, options in OPTION_SETS.get(game.name, {"default": {}}).items():
            opts = game.make_options(options)
            lo, hi = game.player_range(opts)
            while hi > lo and not _fits(game, hi, opts):
                hi -= 1  # player_range can promise more seats than the set deals hands for
            board = "small" if game.board_game else None
            for players in sorted({lo, hi}):
                seeds = _seeds(game.name, players, label in ("default", "small"))
                cases.append(
                    pytest.param(
                        game.name,
                        players,
                        options,
                        board,
                        seeds,
                        id=f"{game.name}-{players}p-{label}",
                    )
                )
    return cases


@pytest.mark.parametrize(("game", "players", "options", "board", "seeds"), _cases())
def test_registered_games_conform(
    game: str, players: int, options: dict[str, Any], board: str | None, seeds: range
) -> None:
    report = check_game(game, players, options=options, board=board, seeds=seeds, skip=NO_PICKLE)
    assert report.games == len(seeds)
    assert report.decisions > report.games
    assert report.states > report.decisions


def test_double_double_on_the_standard_board_conforms() -> None:
    report = check_game("double_double", 2, seeds=range(4), skip=NO_PICKLE)
    assert report == CheckReport("double_double", 2, 4, report.decisions, report.states)


def test_every_registered_game_is_covered() -> None:
    covered = {p.values[0] for p in _cases()}
    assert covered == {g.name for g in all_games()}


def test_report_and_defaults() -> None:
    report = check_game(get_game("block"), seeds=[3, 5], skip=NO_PICKLE)
    assert (report.game, report.players, report.games) == ("block", 2, 2)
    with pytest.raises(ValueError, match="cannot skip running-state"):
        check_game("block", 2, skip={"running-state"})
    assert set(INVARIANTS) > SKIPPABLE


@pytest.mark.parametrize(
    ("game", "players", "board"),
    [
        ("super_dominoes", 3, None),
        ("block", 2, None),
        ("draw", 3, None),
        ("doubles", 2, None),
        ("double_double", 2, "small"),
        ("double_double", 3, "small"),
    ],
)
def test_pickle_round_trips(game: str, players: int, board: str | None) -> None:
    # Views must survive pickle (and states when they pickle at all), at every position of a
    # few hands, including right after a discard in Double Double Dominoes.
    for seed in range(3):
        state = new_game(game, players, seed=seed, board=board)
        rng = random.Random(seed)
        while True:
            check_pickle(state)
            if state.is_over:
                break
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])


def _pickled_size(state: State[Any]) -> int:
    try:
        return len(pickle.dumps(state))
    except RecursionError:
        raise AssertionError("pickling the state overflows the recursion limit") from None


def test_a_line_state_pickles_without_the_process_history() -> None:
    state = new_game("draw", 2, seed=1).playout(random.Random(1))
    before = _pickled_size(state)
    for seed in range(300):  # other hands of the same game, in the same process
        new_game("draw", 2, seed=seed).playout(random.Random(seed))
    assert _pickled_size(state) == before


# ------------------------------------------------------------------------------ a game of our own
class ProxyState(State[Any]):
    """A state of :class:`ProxyGame`: a real state behind the public API, forwarded.

    :func:`~bonepile.view.view` reads the base class's fields (``_hands``, ``_actor``, ...)
    and its ``_seat_history`` rather than the accessors, so the fields are copied from the real
    state (``_copy_base``) and ``_seat_history`` is forwarded too."""

    def __init__(self, game: ProxyGame, inner: State[Any], root: ProxyState | None = None):
        self.proxy_game = game
        self.inner = inner
        self.proxy_root = root
        inner._copy_base(self)
        self._game = game

    def wrap(self, inner: State[Any]) -> ProxyState:
        root = self.proxy_root if self.proxy_root is not None else self
        return type(self)(self.proxy_game, inner, root)

    # the transition
    def legal_actions(self) -> tuple[Action, ...]:
        return self.inner.legal_actions()

    def apply(self, action: Action) -> ProxyState:
        return self.wrap(self.inner.apply(action))

    def step(self, action: Action) -> tuple[ProxyState, tuple[Event, ...]]:
        new, events = self.inner.step(action)
        return self.wrap(new), events

    def playout(self, rng: random.Random) -> ProxyState:
        return self.wrap(self.inner.playout(rng))

    # the accessors
    @property
    def game(self) -> Any:
        return self.proxy_game

    @property
    def initial(self) -> ProxyState:
        return self.proxy_root if self.proxy_root is not None else self

    def hand(self, seat: int) -> tuple[Tile, ...]:
        return self.inner.hand(seat)

    def hand_size(self, seat: int) -> int:
        return self.inner.hand_size(seat)

    def hand_pips(self, seat: int) -> int:
        return self.inner.hand_pips(seat)

    def replay(self) -> Any:
        return self.inner.replay()

    def public_history(self, seat: int | None) -> Any:
        return self.inner.public_history(seat)

    def _seat_history(self, seat: int | None) -> Any:
        return self.inner._seat_history(seat)  # what view() reads

    def key(self) -> tuple[Any, ...]:
        return ("proxy", *self.inner.key())

    def summary(self) -> dict[str, Any]:
        return self.inner.summary()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ProxyState) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())


def _forward(name: str) -> property:
    return property(lambda self: getattr(self.inner, name))


for _name in (
    "options",
    "players",
    "actor",
    "result",
    "first_player",
    "leader",
    "scores_before",
    "seed",
    "is_over",
    "boneyard",
    "boneyard_size",
    "deal",
    "moves",
    "ply",
    "layout",
    "scores",
    "facts",
):
    setattr(ProxyState, _name, _forward(_name))


class ProxyGame(Game[Any]):
    """A game defined here, not registered: a real game's rules behind :class:`ProxyState`."""

    def __init__(self, real: str, state_class: type[ProxyState] = ProxyState) -> None:
        self.real = get_game(real)
        self.name = f"proxy_{self.real.name}"
        self.Options = self.real.Options
        self.Facts = self.real.Facts
        self.family = self.real.family
        self.board_game = self.real.board_game
        self.state_class = state_class

    def player_range(self, opts: Any) -> tuple[int, int]:
        return self.real.player_range(opts)

    def max_pip(self, opts: Any) -> int:
        return self.real.max_pip(opts)

    def hand_size(self, players: int, opts: Any) -> int:
        return self.real.hand_size(players, opts)

    def deck_size(self, players: int, opts: Any) -> int:
        return self.real.deck_size(players, opts)

    def copies(self, opts: Any) -> int:
        return self.real.copies(opts)

    def first_player_by_lot(self, opts: Any) -> bool:
        return self.real.first_player_by_lot(opts)

    def new(self, players: int, **kwargs: Any) -> State[Any]:  # type: ignore[override]
        return self.state_class(self, self.real.new(players, **kwargs))


def test_a_game_defined_outside_the_package_conforms() -> None:
    for real, players in (("block", 2), ("draw", 3), ("super_dominoes", 3)):
        game = ProxyGame(real)
        with pytest.raises(ValueError):
            get_game(game.name)  # not registered: records are replayed through game.new
        report = check_game(game, players, seeds=range(4), skip=NO_PICKLE)
        assert report.game == f"proxy_{real}" and report.games == 4


# ------------------------------------------------------------------------------ broken games
class MutatingApply(ProxyState):
    """apply moves the state it is called on forward as well."""

    def apply(self, action: Action) -> ProxyState:
        new = super().apply(action)
        self.inner = new.inner
        return new


@dataclass(frozen=True)
class PeekFacts:
    """Public facts that show the next seat's hand."""

    first_player: int
    next_hand: tuple[Tile, ...]

    def to_json(self) -> dict[str, Any]:
        return {"first_player": self.first_player, "next_hand": [str(t) for t in self.next_hand]}

    def notes(self) -> tuple[str, ...]:
        return ()


class LeaksAHand(ProxyState):
    """The facts (shown in every view) hold the hand of the seat after the actor."""

    @property
    def facts(self) -> Any:
        actor = self.inner.actor if self.inner.actor is not None else 0
        nxt = (actor + 1) % self.inner.players
        return PeekFacts(self.inner.first_player, self.inner.hand(nxt))


@dataclass(frozen=True)
class PipFacts:
    """Public facts that show every hand's pip total (no tile, only numbers)."""

    first_player: int
    pips: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"first_player": self.first_player, "pips": list(self.pips)}

    def notes(self) -> tuple[str, ...]:
        return ()


class LeaksPips(ProxyState):
    """The facts tell every hand's pip total: no tile shown, but hidden information all the
    same (only the second-deal comparison can see it)."""

    @property
    def facts(self) -> Any:
        s = self.inner
        return PipFacts(s.first_player, tuple(s.hand_pips(k) for k in range(s.players)))


class ShowsDraws(ProxyState):
    """Every seat's history is the full one: other seats' draws are not redacted."""

    def public_history(self, seat: int | None) -> Any:
        cells = None
        for item in self.inner.replay():
            cells = (cells, item)
        return cells

    def _seat_history(self, seat: int | None) -> Any:
        cells = None  # the spectator's list, (previous, seat, action, events) cells
        for who, action, events in self.inner.replay():
            cells = (cells, who, action, events)
        return cells, None


class LosesATile(ProxyState):
    """The boneyard forgets its last tile."""

    @property
    def boneyard(self) -> tuple[Tile, ...]:
        return self.inner.boneyard[:-1]


class AcceptsPass(ProxyState):
    """apply takes an illegal pass as a no-op instead of refusing it."""

    def apply(self, action: Action) -> ProxyState:
        if action is PASS and PASS not in self.inner.legal_actions():
            return self
        return super().apply(action)


class StepPlaysAnother(ProxyState):
    """step carries out the last legal action, whatever it is given."""

    def step(self, action: Action) -> tuple[ProxyState, tuple[Event, ...]]:
        legal = self.inner.legal_actions()
        if action in legal and len(legal) > 1:
            action = legal[-1] if action is not legal[-1] else legal[0]
        return super().step(action)


class NoHandEnded(ProxyState):
    """step leaves out the HandEnded event."""

    def step(self, action: Action) -> tuple[ProxyState, tuple[Event, ...]]:
        new, events = super().step(action)
        return new, tuple(e for e in events if not isinstance(e, HandEnded))


class CrashingLayout(ProxyState):
    """The table cannot be read once three tiles are down."""

    @property
    def layout(self) -> Any:
        if self.inner.ply >= 3:
            raise RuntimeError("the table fell over")
        return self.inner.layout


class UnseededGame(ProxyGame):
    """Deals from fresh randomness, whatever the seed."""

    def new(self, players: int, **kwargs: Any) -> State[Any]:  # type: ignore[override]
        if kwargs.get("seed") is not None:
            kwargs["seed"] = random.SystemRandom().randrange(2**32)
        return super().new(players, **kwargs)


BROKEN = [
    (MutatingApply, "block", 2, "apply-pure", "changed the state it was called on"),
    (LeaksAHand, "block", 2, "view-leak", "hand) at public.next_hand["),
    (LeaksPips, "doubles", 3, "view-indistinguishable", "public"),
    (ShowsDraws, "draw", 2, "view-leak", "at history["),
    (LosesATile, "block", 2, "tiles-conserved", "missing"),
    (AcceptsPass, "block", 2, "illegal-action", "apply(pass) was accepted"),
    (StepPlaysAnother, "block", 2, "step-agrees", "disagree"),
    (NoHandEnded, "draw", 2, "hand-ended-event", "HandEnded"),
    (UnseededGame, "block", 2, "determinism", "the same seed dealt another position"),
    (CrashingLayout, "block", 2, "no-crash", "raised RuntimeError: the table fell over"),
]
"""Each broken game: its state class (or game class), the real game, players, the invariant it
must fail and a piece of the message."""


@pytest.mark.parametrize(
    ("game", "players", "invariant", "detail"),
    [
        pytest.param(
            kind(real) if issubclass(kind, ProxyGame) else ProxyGame(real, kind),
            players,
            invariant,
            detail,
            id=kind.__name__,
        )
        for kind, real, players, invariant, detail in BROKEN
    ],
)
def test_a_broken_game_fails_with_the_invariant_it_breaks(
    game: ProxyGame, players: int, invariant: str, detail: str
) -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(game, players, seeds=range(10), skip=NO_PICKLE)
    error = info.value
    assert error.invariant == invariant, str(error)
    assert detail in error.detail, str(error)
    message = str(error)
    assert message.startswith(f"{game.name} {players}p, seed {error.seed}")
    assert f": {invariant}: " in message
    assert isinstance(error, AssertionError)


def test_the_message_names_seed_move_and_invariant() -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(ProxyGame("block", MutatingApply), 2, seeds=[7], skip=NO_PICKLE)
    error = info.value
    assert (error.game, error.players, error.seed, error.move) == ("proxy_block", 2, 7, 0)
    assert str(error).startswith("proxy_block 2p, seed 7, move 0: apply-pure: apply(")
    assert str(pickle.loads(pickle.dumps(error))) == str(error)


def test_bad_arguments_are_the_engines_errors() -> None:
    with pytest.raises(ValueError, match="not played on a board"):
        check_game("block", 2, board="small")
    with pytest.raises(ValueError, match="2 to 4 players"):
        check_game("doubles", 5)
