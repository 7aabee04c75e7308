"""A conformance check for games: run any game through the public API and check its promises.

>>> from bonepile.conformance import check_game
>>> check_game("doubles", 2, seeds=range(2)).games
2

:func:`check_game` plays seeded random hands of a game (a registered name or any
:class:`~bonepile.games.Game` object, one defined outside the package included) and checks,
at every decision, the invariants every game owes its clients: a well-formed running or
finished position, a transition that never changes the state it is called on, illegal actions
refused, tiles conserved, views that show a seat what it may know and nothing more, records,
pickles and playouts that give back the same positions. Like pgx's ``api_test``, it uses only
the public API: :func:`~bonepile.games.new_game` (or :meth:`Game.new`),
:meth:`State.legal_actions`, :meth:`State.apply`, :meth:`State.step`, :meth:`State.playout`,
the state's public accessors, :func:`~bonepile.view.view` and the record functions.

The first violation raises :class:`ConformanceError` (an ``AssertionError``) whose message names
the game, the seed, the move index (how many actions had been taken in the position checked)
and the invariant (one of :data:`INVARIANTS`), for example::

    ConformanceError: block 2p, seed 3, move 5: apply-pure: apply(6-4@6-6) changed the state
    it was called on: actor was 1, is now 0

Each invariant is a small function of this module (``check_*``) that raises
:class:`ConformanceError` without the location; :func:`check_game` adds it. The random choices
are :meth:`State.playout`'s: ``legal[int(rng.random() * len(legal))]`` with
``rng = random.Random(seed)``, so ``new_game(..., seed=seed).playout(random.Random(seed))`` is
the very hand the check played.

How hidden information is checked (two complementary checks, both sound: neither can blame a
correct game):

* ``view-leak`` scans every view (its fields, walked recursively, and at some positions its
  ``to_json()``) for tiles. A tile shown to a seat is a leak when, at that position, it lies
  only in places hidden from the seat (another seat's hand, the boneyard, the pit) and the seat
  has never held it, played it or seen it on the table. In games with several sets a tile value
  can be both public and hidden; such a value is never blamed, so this scan is complete only
  for one-set games.
* ``view-indistinguishable`` builds, after each hand, a second deal that differs only in tiles
  no viewer of a given group ever saw (a tile still in one seat's hand at the end swapped with
  one still in the boneyard, or in another seat's hand), replays the same moves on it, and while
  every observation a viewer is entitled to agrees (the actor, every hand size, the boneyard
  and pit sizes, the table, the result, the viewer's own hand and legal actions), requires that
  viewer's views of the two positions to be equal. A view that depends on hidden information in
  any way (a pip total, a flag, a tile) shows up as a difference.
"""

from __future__ import annotations

import functools
import json
import pickle
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, NoReturn, ParamSpec, TypeVar

from bonepile.actions import (
    DRAW,
    HIDDEN_DISCARD,
    PASS,
    STOP,
    Action,
    Attach,
    Discard,
    Lead,
    Place,
    parse_action,
)
from bonepile.errors import IllegalActionError, OptionError
from bonepile.events import Event, HandEnded
from bonepile.games import Game, get_game
from bonepile.record import dump_record, read_record, record_of
from bonepile.state import State
from bonepile.tiles import MAX_PIP_LIMIT, Tile, parse_tile
from bonepile.view import FIELDS as VIEW_FIELDS
from bonepile.view import View, view

__all__ = [
    "INVARIANTS",
    "SKIPPABLE",
    "CheckReport",
    "ConformanceError",
    "check_apply_pure",
    "check_deterministic",
    "check_game",
    "check_hidden_information",
    "check_history",
    "check_illegal_rejected",
    "check_notation",
    "check_over",
    "check_pickle",
    "check_playout",
    "check_record_round_trip",
    "check_running",
    "check_step_agrees",
    "check_tiles_conserved",
    "check_view",
    "check_view_hides",
    "check_view_json",
    "hidden_places",
    "illegal_candidates",
    "path_text",
    "tiles_shown",
]

INVARIANTS: dict[str, str] = {
    "running-state": "while a hand runs, actor is a seat and legal_actions() is a non-empty "
    "tuple of actions without duplicates",
    "over-state": "once over, actor is None, legal_actions() == () and result has one point "
    "per seat and winners that are distinct seats",
    "termination": "a hand ends within max_steps decisions",
    "notation": "parse_action(str(a)) == a for every legal action",
    "tiles-conserved": "hands + boneyard + table (+ pit) are exactly game.deck(players, options)",
    "apply-pure": "apply and step never change the state they are called on",
    "step-agrees": "step(a) returns the state apply(a) returns",
    "hand-ended-event": "step's events end with a HandEnded event (carrying the result) exactly "
    "when the new state is over, and contain no other",
    "illegal-action": "an action not in the legal list raises IllegalActionError (from apply "
    "and from step) and changes nothing",
    "view-consistent": "view(state, seat) agrees with the state: the seat's hand (none for a "
    "spectator), hand sizes, boneyard size, table, actor, legal actions (the actor's own view "
    "only), result, public facts, one history turn per action, every hand revealed once over",
    "view-leak": "a view shows no tile that lies only in places hidden from its seat",
    "view-indistinguishable": "a seat's view is the same in two deals that differ only in "
    "tiles hidden from it, as long as everything the seat may observe agrees",
    "view-json": "View.from_json(v.to_json()) == v (registered games)",
    "record-round-trip": "read_record(record_of(s)) == s, with the same moves, also through "
    "the record's JSON text",
    "history": "state.replay() is the (seat, action, events) of every step taken",
    "determinism": "the same seed deals the same state, and the same actions give the same "
    "states and events",
    "playout": "playout(random.Random(k)) ends the hand and equals stepping with the same "
    "random choices; playout of a finished hand is the hand itself",
    "pickle": "pickle round trips give back equal views (and states, when they pickle at all)",
    "no-crash": "playing and checking a hand through the public API raises nothing (but "
    "IllegalActionError for an illegal action)",
}
"""Every invariant :func:`check_game` checks: its name (as :class:`ConformanceError` gives it)
and what it requires."""


class ConformanceError(AssertionError):
    """A game broke an invariant. ``invariant`` (a key of :data:`INVARIANTS`) and ``detail``
    say which and how; ``game``, ``players``, ``seed`` and ``move`` (the number of actions taken
    in the position checked) say where, when known."""

    def __init__(
        self,
        invariant: str,
        detail: str,
        *,
        game: str | None = None,
        players: int | None = None,
        seed: int | None = None,
        move: int | None = None,
    ) -> None:
        self.invariant = invariant
        self.detail = detail
        self.game = game
        self.players = players
        self.seed = seed
        self.move = move
        where = []
        if game is not None:
            where.append(game if players is None else f"{game} {players}p")
        if seed is not None:
            where.append(f"seed {seed}")
        if move is not None:
            where.append(f"move {move}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {invariant}: {detail}" if prefix else f"{invariant}: {detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _error,
            (self.invariant, self.detail, self.game, self.players, self.seed, self.move),
        )

    def located(
        self, game: str, players: int, seed: int | None, move: int | None
    ) -> ConformanceError:
        """The same violation with its location (the location already set wins)."""
        return ConformanceError(
            self.invariant,
            self.detail,
            game=self.game if self.game is not None else game,
            players=self.players if self.players is not None else players,
            seed=self.seed if self.seed is not None else seed,
            move=self.move if self.move is not None else move,
        )


def _error(
    invariant: str,
    detail: str,
    game: str | None,
    players: int | None,
    seed: int | None,
    move: int | None,
) -> ConformanceError:
    """Rebuild a pickled :class:`ConformanceError`."""
    return ConformanceError(invariant, detail, game=game, players=players, seed=seed, move=move)


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check_game` checked: ``games`` (hands played), ``decisions`` (positions in
    which an action was chosen, each checked), ``states`` (positions whose invariants were
    checked: the hands' positions, final ones included, and the positions of the alternative
    deals compared by the hidden-information check)."""

    game: str
    players: int
    games: int
    decisions: int
    states: int


# ------------------------------------------------------------------------------ plumbing
P = ParamSpec("P")
R = TypeVar("R")


def _fail(invariant: str, detail: str) -> NoReturn:
    raise ConformanceError(invariant, detail)


def _invariant(name: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a check: any exception the game raises inside it becomes a violation of ``name``."""

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return fn(*args, **kwargs)
            except ConformanceError:
                raise
            except Exception as e:
                raise ConformanceError(name, f"raised {type(e).__name__}: {e}") from e

        return checked

    return wrap


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _seats(state: State[Any]) -> list[int | None]:
    """Every seat, and ``None`` (a spectator)."""
    return [None, *range(state.players)]


def _who(seat: int | None) -> str:
    return "the spectator" if seat is None else f"seat {seat}"


def _pit(state: State[Any]) -> tuple[Tile, ...]:
    """The pit's tiles (Double Double Dominoes' ``pit_tiles``; empty for other games)."""
    pit = getattr(state, "pit_tiles", None)
    return tuple(pit) if pit is not None else ()


def _registered(game: Game[Any]) -> bool:
    """True when ``game`` is the registered game of its name (records and pickles name it)."""
    try:
        return get_game(game.name, aliases=False) is game
    except OptionError:
        return False


def _board(state: State[Any]) -> Any:
    return getattr(state.initial, "board", None) if state.game.board_game else None


def _snapshot(state: State[Any], full: bool = True) -> dict[str, Any]:
    """The state's public accessors, for telling whether a call changed it (the boneyard and
    the table, slow to build, only when ``full``: ``key()`` covers them)."""
    n = state.players
    out: dict[str, Any] = {
        "actor": state.actor,
        "result": state.result,
        "is_over": state.is_over,
        "legal_actions()": state.legal_actions(),
        "hands": tuple(state.hand(k) for k in range(n)),
        "moves": state.moves,
        "ply": state.ply,
        "scores": state.scores,
        "facts": state.facts,
        "pit": _pit(state),
    }
    if full:
        out["boneyard"] = state.boneyard
        out["layout"] = state.layout
    out["key()"] = state.key()  # last: the accessors above say what changed more clearly
    return out


def _show(value: Any) -> str:
    """``value`` in a message: tiles and actions in notation, sequences of them as lists."""
    if isinstance(value, Tile | Action):
        return str(value)
    if (
        isinstance(value, tuple | list)
        and value
        and all(isinstance(x, Tile | Action | tuple) for x in value)
    ):
        return "[" + ", ".join(_show(x) for x in value) + "]"
    return repr(value)


def _changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> str | None:
    """The first accessor of two snapshots that differs, in words (``None``: none)."""
    for name, old in before.items():
        new = after[name]
        if old != new:
            return f"{name} was {_short(_show(old), 100)}, is now {_short(_show(new), 100)}"
    return None


# ------------------------------------------------------------------------------ positions
@_invariant("running-state")
def check_running(state: State[Any]) -> None:
    """While a hand runs: ``actor`` is a seat, ``result`` is ``None`` and ``legal_actions()`` is
    a non-empty tuple of actions without duplicates (the same on every call)."""
    n = state.players
    actor = state.actor
    if state.is_over or state.result is not None:
        _fail(
            "running-state",
            f"a running hand has is_over {state.is_over} and result {state.result}",
        )
    if isinstance(actor, bool) or not isinstance(actor, int) or not 0 <= actor < n:
        _fail("running-state", f"actor must be a seat from 0 to {n - 1}, got {actor!r}")
    legal = state.legal_actions()
    if not isinstance(legal, tuple) or not legal:
        _fail("running-state", f"legal_actions() must be a non-empty tuple, got {legal!r}")
    bad = [a for a in legal if not isinstance(a, Action)]
    if bad:
        _fail("running-state", f"legal_actions() holds a non-action: {bad[0]!r}")
    if len(set(legal)) != len(legal):
        dup = next(a for a, c in Counter(legal).items() if c > 1)
        _fail("running-state", f"legal_actions() lists {dup} twice")
    if state.legal_actions() != legal:
        _fail("running-state", "legal_actions() changed between two calls")


@_invariant("over-state")
def check_over(state: State[Any]) -> None:
    """Once a hand is over: ``actor`` is ``None``, ``legal_actions() == ()``, and ``result``
    has one point per seat and winners that are distinct seats."""
    n = state.players
    if not state.is_over or state.result is None:
        _fail("over-state", "the hand is not over")
    if state.actor is not None:
        _fail("over-state", f"actor must be None once the hand is over, got {state.actor!r}")
    if state.legal_actions() != ():
        _fail("over-state", f"legal_actions() must be () once over, got {state.legal_actions()}")
    result = state.result
    if len(result.points) != n:
        _fail("over-state", f"result has {len(result.points)} points for {n} seats: {result}")
    winners = result.winners
    if any(isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < n for w in winners):
        _fail("over-state", f"result winners must be seats 0 to {n - 1}, got {winners}")
    if len(set(winners)) != len(winners):
        _fail("over-state", f"result names a winner twice: {winners}")


@_invariant("notation")
def check_notation(state: State[Any]) -> None:
    """Every legal action reads back from its notation: ``parse_action(str(a)) == a``."""
    for a in state.legal_actions():
        back = parse_action(str(a))
        if back != a:
            _fail("notation", f"{a!r} is written {str(a)!r}, which reads back as {back!r}")


@_invariant("tiles-conserved")
def check_tiles_conserved(state: State[Any], layout: Any = None) -> tuple[Tile, ...]:
    """Every seat's hand, the boneyard, the tiles on the table and (Double Double Dominoes) the
    pit make up exactly the game's deck, ``game.deck(players, options)``, as a multiset.
    ``layout`` is the state's, if already built. Return the tiles on the table."""
    table = tuple((state.layout if layout is None else layout).tiles())
    have: Counter[Tile] = Counter(table)
    for k in range(state.players):
        have.update(state.hand(k))
    have.update(state.boneyard)
    have.update(_pit(state))
    want = Counter(state.game.deck(state.players, state.options))
    if have != want:
        lost = want - have
        extra = have - want
        parts = []
        if lost:
            parts.append("missing " + ", ".join(str(t) for t in sorted(lost.elements())))
        if extra:
            parts.append("extra " + ", ".join(str(t) for t in sorted(extra.elements())))
        _fail(
            "tiles-conserved",
            f"hands + boneyard + table + pit are not the deck: {'; '.join(parts)}",
        )
    if state.boneyard_size != len(state.boneyard):
        _fail(
            "tiles-conserved",
            f"boneyard_size is {state.boneyard_size} but the boneyard holds "
            f"{len(state.boneyard)} tiles",
        )
    for k in range(state.players):
        if state.hand_size(k) != len(state.hand(k)):
            _fail(
                "tiles-conserved",
                f"hand_size({k}) is {state.hand_size(k)} but hand({k}) holds "
                f"{len(state.hand(k))} tiles",
            )
    return table


# ------------------------------------------------------------------------------ transitions
@_invariant("apply-pure")
def check_apply_pure(state: State[Any], action: Action, *, full: bool = True) -> State[Any]:
    """``state.apply(action)`` leaves ``state`` as it was (its ``key()``, hence ``==``, and its
    public accessors; the table too when ``full``); return the new state."""
    before = _snapshot(state, full)
    new = state.apply(action)
    change = _changed(before, _snapshot(state, full))
    if change is not None:
        _fail("apply-pure", f"apply({action}) changed the state it was called on: {change}")
    return new


@_invariant("step-agrees")
def check_step_agrees(
    state: State[Any], action: Action, applied: State[Any], *, full: bool = True
) -> tuple[State[Any], tuple[Event, ...]]:
    """``state.step(action)`` leaves ``state`` as it was and returns the state ``apply``
    returned (``applied``); its events end with a :class:`~bonepile.events.HandEnded` event
    exactly when the new state is over (invariant ``hand-ended-event``). Return the step."""
    before = _snapshot(state, full)
    stepped, events = state.step(action)
    change = _changed(before, _snapshot(state, full))
    if change is not None:
        _fail("apply-pure", f"step({action}) changed the state it was called on: {change}")
    if not (stepped == applied and applied == stepped) or (
        full and stepped.layout != applied.layout
    ):
        diff = _changed(_snapshot(applied), _snapshot(stepped))
        _fail("step-agrees", f"step({action}) and apply({action}) disagree: {diff}")
    if stepped.moves != applied.moves:
        _fail("step-agrees", f"step({action}) and apply({action}) record different moves")
    if not isinstance(events, tuple) or any(not isinstance(e, Event) for e in events):
        _fail("step-agrees", f"step({action}) must return a tuple of events, got {events!r}")
    ended = [i for i, e in enumerate(events) if isinstance(e, HandEnded)]
    if stepped.is_over:
        if not events or not isinstance(events[-1], HandEnded):
            _fail(
                "hand-ended-event", f"{action} ended the hand but its last event is not HandEnded"
            )
        if len(ended) != 1:
            _fail("hand-ended-event", f"{action} produced {len(ended)} HandEnded events")
        last = events[-1]
        assert isinstance(last, HandEnded)
        if last.result != stepped.result:
            _fail(
                "hand-ended-event",
                f"HandEnded carries {last.result}, the state's result is {stepped.result}",
            )
    elif ended:
        _fail("hand-ended-event", f"{action} produced HandEnded but the hand is not over")
    return stepped, events


def _tiled(action: Action) -> Tile | None:
    tile = getattr(action, "tile", None)
    return tile if isinstance(tile, Tile) else None


def illegal_candidates(
    state: State[Any],
    rng: random.Random,
    earlier: Sequence[Action] = (),
    limit: int = 5,
    table: Iterable[Tile] | None = None,
) -> list[Action]:
    """Some actions that are not legal in ``state``: ``pass``, ``draw``, ``stop`` and
    ``discard ?`` when not legal, actions legal in earlier positions (``earlier``), and the
    actor's own moves with a tile it does not hold (one from another hand or the boneyard) or
    played onto a tile that is not on the table (``table``: its tiles, if known). At most
    ``limit``, chosen with ``rng``."""
    legal = state.legal_actions()
    legal_set = set(legal)
    out: list[Action] = [a for a in (PASS, DRAW, STOP, HIDDEN_DISCARD) if a not in legal_set]
    out.extend(a for a in earlier if a not in legal_set)
    actor = state.actor
    if actor is not None:
        mine = set(state.hand(actor))
        hidden = sorted(
            {t for k in range(state.players) if k != actor for t in state.hand(k)}
            | set(state.boneyard),
            key=lambda t: t.index,
        )
        hidden = [t for t in hidden if t not in mine]
        on_table = set(state.layout.tiles() if table is None else table)
        tiled = [a for a in legal if _tiled(a) is not None]
        for a in rng.sample(tiled, min(3, len(tiled))) if hidden else ():
            t = _tiled(a)
            assert t is not None
            near = [u for u in hidden if u.has(t.hi) or u.has(t.lo)] or hidden
            other = near[rng.randrange(len(near))]
            if isinstance(a, Lead):
                out.append(Lead(other))
            elif isinstance(a, Attach):
                out.append(Attach(other, a.at))
                if a.tile not in on_table:
                    out.append(Attach(a.tile, a.tile))
            elif isinstance(a, Place):
                out.append(Place(other.hi, other.lo, a.cell1, a.cell2))
            elif isinstance(a, Discard):
                out.append(Discard(other))
    unique = [a for a in dict.fromkeys(out) if a not in legal_set]
    if len(unique) > limit:
        unique = rng.sample(unique, limit)
    return unique


@_invariant("illegal-action")
def check_illegal_rejected(
    state: State[Any], actions: Iterable[Action], *, full: bool = True
) -> None:
    """Each of ``actions`` (none of them legal here) raises
    :class:`~bonepile.errors.IllegalActionError` from ``apply`` and from ``step``, and leaves
    the state as it was (the table too when ``full``)."""
    before = _snapshot(state, full)
    for a in actions:
        if a in state.legal_actions():
            continue
        for how in ("apply", "step"):
            try:
                if how == "apply":
                    state.apply(a)
                else:
                    state.step(a)
            except IllegalActionError:
                pass
            except Exception as e:
                _fail(
                    "illegal-action",
                    f"{how}({a}) raised {type(e).__name__} ({_short(str(e), 100)}), "
                    "not IllegalActionError",
                )
            else:
                legal = ", ".join(str(x) for x in state.legal_actions()[:8])
                _fail("illegal-action", f"{how}({a}) was accepted; the legal actions: [{legal}]")
            if state.key() != before["key()"]:
                _fail("illegal-action", f"the refused {how}({a}) changed the state")
    change = _changed(before, _snapshot(state, full))
    if change is not None:
        _fail("illegal-action", f"refusing illegal actions changed the state: {change}")


# ------------------------------------------------------------------------------ views
@_invariant("view-consistent")
def check_view(
    state: State[Any], seat: int | None, *, full: bool = True, layout: Any = None
) -> View:
    """``view(state, seat)`` agrees with the state: the seat's own hand (empty for the
    spectator), every hand size, the boneyard size, the actor, the legal actions (the state's
    in the actor's own view, none otherwise), the result, the public facts and, once over,
    every hand revealed; when ``full``, also the table (``layout``: the state's, if already
    built) and the history: one turn per action, by the seat that acted, the seat's own actions
    as taken. Return the view."""
    v = view(state, seat)
    n = state.players

    def bad(what: str, got: Any, want: Any) -> NoReturn:
        _fail(
            "view-consistent",
            f"the view of {_who(seat)} has {what} {_short(got, 120)}, the state "
            f"{_short(want, 120)}",
        )

    if v.seat != seat:
        bad("seat", v.seat, seat)
    if v.game != state.game.name:
        bad("game", v.game, state.game.name)
    if v.players != n:
        bad("players", v.players, n)
    if v.options != state.options:
        bad("options", v.options, state.options)
    want_hand = state.hand(seat) if seat is not None else ()
    if tuple(v.hand) != tuple(want_hand):
        bad("hand", v.hand, want_hand)
    sizes = tuple(state.hand_size(k) for k in range(n))
    if tuple(v.hand_sizes) != sizes:
        bad("hand sizes", v.hand_sizes, sizes)
    if v.boneyard_size != state.boneyard_size:
        bad("boneyard size", v.boneyard_size, state.boneyard_size)
    if v.actor != state.actor:
        bad("actor", v.actor, state.actor)
    want_legal = state.legal_actions() if seat is not None and seat == state.actor else ()
    if tuple(v.legal) != tuple(want_legal):
        bad("legal actions", v.legal, want_legal)
    if v.result != state.result:
        bad("result", v.result, state.result)
    if v.scores_before != state.scores_before:
        bad("scores_before", v.scores_before, state.scores_before)
    if v.leader != state.leader:
        bad("leader", v.leader, state.leader)
    if v.public != state.facts:
        bad("public facts", v.public, state.facts)
    if full:
        table = state.layout if layout is None else layout
        if v.layout != table:
            bad("table", v.layout, table)
    hands = tuple(state.hand(k) for k in range(n))
    if state.is_over:
        if v.revealed is None or tuple(tuple(h) for h in v.revealed) != hands:
            bad("revealed hands", v.revealed, hands)
    elif v.revealed is not None:
        bad("revealed hands", v.revealed, None)
    if full:
        history = v.history
        if len(history) != state.ply:
            bad("history turns", len(history), f"{state.ply} actions taken")
        for i, (turn, (who, action, _)) in enumerate(zip(history, state.replay(), strict=True)):
            if turn.seat != who or (who == seat and turn.action != action):
                bad(f"history[{i}]", (turn.seat, str(turn.action)), (who, str(action)))
    return v


_TILE_RE = re.compile(r"(?<![0-9])([0-9]{1,2})-([0-9]{1,2})(?![0-9])")

Path = tuple[Any, ...] | str
"""Where a value sits in what is scanned: a string, or ``(parent path, key)`` (built lazily:
only a leak's path is ever written out)."""


def path_text(path: Path) -> str:
    """A path of :func:`tiles_shown` as text (``history[3].events[0].tiles[1]``)."""
    keys: list[Any] = []
    while isinstance(path, tuple):
        path, key = path
        keys.append(key)
    out = path
    for key in reversed(keys):
        out += f"[{key}]" if isinstance(key, int) else f".{key}"
    return out


_TILE_KINDS = ("tile", "tile?", "tiles?")
_FIELD_KINDS = frozenset((*_TILE_KINDS, "int", "bool", "cell", "result"))


def tiles_shown(obj: Any, path: Path = "") -> Iterator[tuple[Path, Tile]]:
    """Every tile ``obj`` shows, with where (see :func:`path_text`): walked recursively through
    tiles, strings (any ``H-L`` in them: notation, JSON), actions (their tiles, or their
    notation), events (their fields), mappings, sequences, sets, dataclasses, objects with
    ``to_json()`` (what goes on the wire) and other objects' public attributes."""
    seen: set[int] = set()
    stack: list[tuple[Path, Any]] = [(path, obj)]
    pop, push = stack.pop, stack.append
    while stack:
        where, x = pop()
        if x is None or isinstance(x, bool | int | float):
            continue
        if isinstance(x, Tile):
            yield where, x
        elif isinstance(x, str):
            for m in _TILE_RE.finditer(x):
                a, b = int(m.group(1)), int(m.group(2))
                if a <= MAX_PIP_LIMIT and b <= MAX_PIP_LIMIT:
                    yield where, Tile(a, b)
        elif isinstance(x, Action):
            if isinstance(x, Lead | Place | Discard):
                push((where, x.tile))
            elif isinstance(x, Attach):
                push((where, x.tile))
                push((where, x.at))
            else:
                push((where, str(x)))
        elif isinstance(x, list | tuple):
            if id(x) not in seen:
                seen.add(id(x))
                for i, item in enumerate(x):
                    if isinstance(item, Tile):
                        yield (where, i), item
                    elif not (item is None or isinstance(item, bool | int)):
                        push(((where, i), item))
        elif isinstance(x, Event):
            kinds = type(x).FIELDS
            if all(kind in _FIELD_KINDS for _, kind in kinds):
                for name, kind in kinds:
                    if kind in _TILE_KINDS:
                        push(((where, name), getattr(x, name)))
            else:
                push((where, x.to_json()))
        elif id(x) not in seen:
            seen.add(id(x))
            if isinstance(x, Mapping):
                for k, val in x.items():
                    push(((where, str(k)), val))
                    push(((where, "<key>"), k))
            elif isinstance(x, set | frozenset):
                for val in x:
                    push(((where, "<item>"), val))
            elif callable(getattr(x, "to_json", None)):
                push((where, x.to_json()))
            elif is_dataclass(x):
                for f in fields(x):
                    push(((where, f.name), getattr(x, f.name)))
            else:
                names: list[str] = []
                for cls in type(x).__mro__:
                    slots = cls.__dict__.get("__slots__", ())
                    names.extend([slots] if isinstance(slots, str) else slots)
                names.extend(getattr(x, "__dict__", {}))
                for name in dict.fromkeys(names):
                    if not name.startswith("_") and hasattr(x, name):
                        push(((where, name), getattr(x, name)))


def hidden_places(state: State[Any]) -> dict[Tile, list[str]]:
    """Where every tile out of sight lies: ``seat K's hand``, ``the boneyard``, ``the pit``."""
    out: dict[Tile, list[str]] = {}
    for k in range(state.players):
        for t in state.hand(k):
            out.setdefault(t, []).append(f"seat {k}'s hand")
    for t in state.boneyard:
        out.setdefault(t, []).append("the boneyard")
    for t in _pit(state):
        out.setdefault(t, []).append("the pit")
    return out


@_invariant("view-leak")
def check_view_hides(
    v: View,
    places: Mapping[Tile, Sequence[str]],
    known: Iterable[Tile],
    *,
    parts: Sequence[tuple[Path, Any]] | None = None,
    history: bool = True,
) -> None:
    """The view ``v`` (of a running hand) shows no hidden tile: none that lies only in places
    hidden from its seat (``places``, from :func:`hidden_places`) unless the seat knows it
    (``known``: the tiles on the table, and those the seat has held or played).

    ``parts`` limits the scan to ``(path, value)`` pairs of the view (default: every field,
    walked recursively, and the view's ``to_json()``, which stands for the table and the
    history; the history is left out unless ``history``)."""
    if v.revealed is not None:
        return  # the hand is over: every hand is face up
    allowed = set(known)
    if parts is None:
        parts = [(f, getattr(v, f)) for f in VIEW_FIELDS if f not in ("layout", "history")]
        data = v.to_json()
        if not history:
            data.pop("history", None)
        parts.append(("to_json()", data))
    own = f"seat {v.seat}'s hand"
    for path, value in parts:
        for where, t in tiles_shown(value, path):
            if t in allowed or t not in places:
                continue
            hidden = [p for p in places[t] if p != own]
            if hidden:
                _fail(
                    "view-leak",
                    f"the view of {_who(v.seat)} shows {t} (in {' and '.join(hidden)}) at "
                    f"{path_text(where)}",
                )


@_invariant("view-json")
def check_view_json(v: View) -> None:
    """``View.from_json(v.to_json()) == v`` (for registered games: it looks the game up)."""
    data = json.loads(json.dumps(v.to_json()))
    back = View.from_json(data)
    if back != v:
        field = next((f for f in VIEW_FIELDS if getattr(back, f) != getattr(v, f)), "?")
        _fail(
            "view-json",
            f"the view of {_who(v.seat)} reads back from its JSON with a different {field}: "
            f"{_short(getattr(back, field, None))} vs {_short(getattr(v, field, None))}",
        )


def _first_difference(a: View, b: View) -> str:
    ja, jb = a.to_json(), b.to_json()
    for key in ja:
        if ja[key] != jb.get(key):
            if key == "history" and isinstance(ja[key], list) and isinstance(jb[key], list):
                for i, (x, y) in enumerate(zip(ja[key], jb[key], strict=False)):
                    if x != y:
                        return f"history[{i}]: {_short(x, 200)} vs {_short(y, 200)}"
            return f"{key}: {_short(ja[key], 200)} vs {_short(jb.get(key), 200)}"
    for f in VIEW_FIELDS:
        if getattr(a, f) != getattr(b, f):
            return f"{f}: {_short(getattr(a, f), 200)} vs {_short(getattr(b, f), 200)}"
    return "?"


def _observed(a: State[Any], b: State[Any]) -> bool:
    """True when everyone may observe the same in ``a`` and ``b`` (the table aside: the same
    moves build the same table, and the views compared include it)."""
    n = a.players
    return (
        a.actor == b.actor
        and a.is_over == b.is_over
        and a.result == b.result
        and a.boneyard_size == b.boneyard_size
        and all(a.hand_size(k) == b.hand_size(k) for k in range(n))
        and len(_pit(a)) == len(_pit(b))
    )


def _observed_by(a: State[Any], b: State[Any], seat: int | None) -> bool:
    """True when ``seat`` may observe the same of its own in ``a`` and ``b``."""
    if seat is None:
        return True
    if a.hand(seat) != b.hand(seat):
        return False
    return a.actor != seat or a.legal_actions() == b.legal_actions()


@dataclass
class _World:
    """A hand replayed on another deal: its positions while observations agree, and who may
    still compare views in each."""

    swap: str
    states: list[State[Any]]
    viewers: list[list[int | None]]


def _place(src: int | None) -> str:
    return "the boneyard" if src is None else f"seat {src}'s hand"


def _swapped_deal(
    root: State[Any], final: State[Any], x_from: int | None, y_from: int | None, rng: random.Random
) -> tuple[tuple[list[list[Tile]], list[Tile]], str] | None:
    """The deal of ``root`` with a tile still in ``x_from``'s hand at the end (``None``: the
    boneyard) swapped with one still in ``y_from``'s, or ``None`` if there is nothing to swap.

    Which copy of a tile (in a game of several sets) is where is a guess; a wrong guess only
    makes the replay stop early, never a false alarm."""
    hands_in, bone_in = root.deal
    hands = [list(h) for h in hands_in]
    bone = list(bone_in)
    drawn = len(bone) - final.boneyard_size

    def pick(src: int | None) -> tuple[Tile, list[Tile], int] | None:
        tiles = final.hand(src) if src is not None else final.boneyard
        if not tiles:
            return None
        t = tiles[rng.randrange(len(tiles))]
        if src is None:
            tail = [i for i in range(drawn, len(bone)) if bone[i] == t]
            return (t, bone, tail[0]) if tail else None
        if t in hands[src]:
            return t, hands[src], hands[src].index(t)
        early = [i for i in range(drawn) if bone[i] == t]
        return (t, bone, early[0]) if early else None

    x = pick(x_from)
    y = pick(y_from)
    if x is None or y is None or x[0] == y[0]:
        return None
    (tx, lx, ix), (ty, ly, iy) = x, y
    lx[ix], ly[iy] = ty, tx
    return (hands, bone), f"{tx} of {_place(x_from)} swapped with {ty} of {_place(y_from)}"


def _world(
    states: Sequence[State[Any]], x_from: int | None, y_from: int | None, rng: random.Random
) -> _World | None:
    """Replay the hand of ``states`` on a deal with two hidden tiles swapped, as long as the
    observations agree; ``None`` when there is nothing to swap."""
    root, final = states[0], states[-1]
    swapped = _swapped_deal(root, final, x_from, y_from, rng)
    if swapped is None:
        return None
    deal, text = swapped
    game = root.game
    by_lot = root.leader is None and game.first_player_by_lot(root.options)
    b = game.new(
        root.players,
        options=root.options,
        deal=deal,
        board=_board(root),
        scores_before=root.scores_before,
        leader=root.leader,
        first_player=root.first_player if by_lot else None,
    )
    viewers: list[int | None] = [s for s in _seats(root) if s is None or s not in (x_from, y_from)]
    world = _World(text, [], [])
    moves = final.moves
    for i, a in enumerate(states):
        if a.is_over or not _observed(a, b):
            break
        viewers = [s for s in viewers if _observed_by(a, b, s)]
        if not viewers:
            break
        world.states.append(b)
        world.viewers.append(viewers)
        try:
            b = b.apply(moves[i])
        except IllegalActionError:
            break
    return world


_CHEAP_FIELDS = tuple(f for f in VIEW_FIELDS if f not in ("layout", "history"))


@_invariant("view-indistinguishable")
def check_hidden_information(
    states: Sequence[State[Any]],
    rng: random.Random,
    *,
    views: Sequence[Mapping[int | None, View]] | None = None,
    attempts: int = 3,
) -> int:
    """For the hand ``states`` (every position of one hand, from the deal to the end): for
    every seat ``j``, deal again with a tile ``j`` still holds at the end swapped with one still
    in the boneyard (or in another seat's hand), replay the same moves, and require every other
    viewer's views of the two hands to be equal for as long as everything that viewer may
    observe agrees (see the module doc). ``views`` may hold the views of ``states`` already
    made. Return how many positions of the alternative deals were compared.

    Of the ``attempts`` swaps tried per seat, the one that replays longest is compared: every
    field at every position, the history turn by turn, the table and the JSON at the last."""
    final = states[-1]
    n = final.players
    compared = 0
    for j in range(n):
        if not final.hand(j):
            continue
        if final.boneyard_size:
            sources: list[int | None] = [None]
        else:
            sources = [k for k in range(n) if k != j and final.hand(k)]
        if not sources:
            continue
        best: _World | None = None
        for _ in range(attempts):
            w = _world(states, j, sources[rng.randrange(len(sources))], rng)
            if w is not None and (best is None or len(w.states) > len(best.states)):
                best = w
            if best is not None and len(best.states) >= len(states) - 1:
                break
        if best is None or not best.states:
            continue
        seen: dict[int | None, int] = {}
        last = len(best.states) - 1
        for i, b in enumerate(best.states):
            for s in best.viewers[i]:
                va = views[i][s] if views is not None and s in views[i] else view(states[i], s)
                vb = view(b, s)
                diff = next((f for f in _CHEAP_FIELDS if getattr(va, f) != getattr(vb, f)), None)
                if diff is None:
                    start = seen.get(s, 0)
                    if va.history[start:] != vb.history[start:]:
                        diff = "history"
                    seen[s] = i
                if (
                    diff is None
                    and i == last
                    and states[i].layout == b.layout  # the table is observed: else no blame
                    and (va != vb or va.to_json() != vb.to_json())
                ):
                    diff = "layout"
                if diff is not None:
                    _fail(
                        "view-indistinguishable",
                        f"{_who(s)} sees different views, after {i} moves, of two deals that "
                        f"differ only in tiles it cannot see ({best.swap}): "
                        f"{_first_difference(va, vb)}",
                    )
            compared += 1
    return compared


# ------------------------------------------------------------------------------ records, pickles
@_invariant("record-round-trip")
def check_record_round_trip(state: State[Any], *, text: bool = True) -> None:
    """``read_record(record_of(state)) == state`` with the same moves, and (when ``text``)
    ``read_record(dump_record(state))`` too, through the record's JSON text. A game that is not
    registered under its name cannot be read by ``read_record``; its record is replayed through
    ``game.new`` instead."""
    game = state.game
    registered = _registered(game)
    sources: list[Any] = [record_of(state)]
    if text:
        sources.append(dump_record(state))
    for source in sources:
        if registered:
            back = read_record(source)
        else:
            back = _replay_record(game, json.loads(source) if isinstance(source, str) else source)
        if back != state:
            diff = _changed(_snapshot(state), _snapshot(back))
            _fail("record-round-trip", f"the record reads back as another position: {diff}")
        if back.moves != state.moves:
            _fail("record-round-trip", "the record reads back with other moves")


def _replay_record(game: Game[Any], data: Mapping[str, Any]) -> State[Any]:
    """A record of an unregistered game, replayed with ``game.new`` and ``apply``."""
    deal = None
    if "deal" in data:
        deal = (
            [[parse_tile(t) for t in h] for h in data["deal"]["hands"]],
            [parse_tile(t) for t in data["deal"]["boneyard"]],
        )
    state = game.new(
        data["players"],
        options=data.get("options", {}),
        seed=data.get("seed"),
        deal=deal,
        board=data.get("board"),
        scores_before=data.get("scores_before"),
        leader=data.get("leader"),
    )
    for text in data.get("moves", []):
        state = state.apply(parse_action(text))
    return state


@_invariant("pickle")
def check_pickle(state: State[Any]) -> None:
    """``pickle.loads(pickle.dumps(x)) == x`` for the view of every seat and the spectator,
    and for the state itself, with the same moves: unless states do not pickle at all
    (``pickle.dumps`` raises ``TypeError``, ``AttributeError`` or ``PicklingError``), or the
    game is not registered under its name (a state pickles its game by name)."""
    for seat in _seats(state):
        v = view(state, seat)
        back = pickle.loads(pickle.dumps(v))
        if back != v:
            _fail(
                "pickle",
                f"the view of {_who(seat)} unpickles different: {_first_difference(v, back)}",
            )
    if not _registered(state.game):
        return
    try:
        data = pickle.dumps(state)
    except (TypeError, AttributeError, pickle.PicklingError):
        return  # states that do not pickle at all (views must)
    copy = pickle.loads(data)
    if copy != state or copy.moves != state.moves:
        diff = _changed(_snapshot(state), _snapshot(copy))
        _fail("pickle", f"the state unpickles different: {diff}")


# ------------------------------------------------------------------------------ whole hands
def _choose(state: State[Any], rng: random.Random) -> Action:
    legal = state.legal_actions()
    return legal[int(rng.random() * len(legal))]


@_invariant("playout")
def check_playout(state: State[Any], rng_seed: int, max_steps: int) -> None:
    """``state.playout(random.Random(rng_seed))`` ends the hand and equals stepping from
    ``state`` with the same random choices; the playout of a finished hand is itself."""
    rng = random.Random(rng_seed)
    s = state
    for _ in range(max_steps):
        if s.is_over:
            break
        s = s.apply(_choose(s, rng))
    else:
        if not s.is_over:
            _fail("termination", f"random play did not end the hand in {max_steps} decisions")
    out = state.playout(random.Random(rng_seed))
    if not out.is_over:
        _fail("playout", "playout did not end the hand")
    if out != s or out.moves != s.moves:
        diff = _changed(_snapshot(s), _snapshot(out))
        _fail("playout", f"playout differs from stepping with the same choices: {diff}")
    again = out.playout(random.Random(rng_seed))
    if again != out or again.moves != out.moves:
        _fail("playout", "playout of a finished hand is not the hand itself")


@_invariant("history")
def check_history(
    final: State[Any], turns: Sequence[tuple[int, Action, tuple[Event, ...]]]
) -> None:
    """``final.replay()`` is the ``(seat, action, events)`` of every step taken, and
    ``final.moves`` the actions."""
    replay = final.replay()
    if len(replay) != len(turns):
        _fail("history", f"replay() has {len(replay)} turns for {len(turns)} steps")
    for i, (got, want) in enumerate(zip(replay, turns, strict=True)):
        if tuple(got) != tuple(want):
            _fail("history", f"replay()[{i}] is {_short(got)}, the step gave {_short(want)}")
    if tuple(final.moves) != tuple(a for _, a, _ in turns):
        _fail("history", "moves are not the actions taken")


@_invariant("determinism")
def check_deterministic(
    make: Callable[[], State[Any]],
    states: Sequence[State[Any]],
    turns: Sequence[tuple[int, Action, tuple[Event, ...]]],
) -> None:
    """``make()`` (a new hand from the same seed) deals ``states[0]``, and stepping the same
    actions gives the same states and events."""
    s = make()
    if s != states[0]:
        diff = _changed(_snapshot(states[0]), _snapshot(s))
        _fail("determinism", f"the same seed dealt another position: {diff}")
    for i, (_, action, events) in enumerate(turns):
        s, again = s.step(action)
        if s != states[i + 1] or again != events:
            _fail(
                "determinism",
                f"move {i} ({action}) gave another position or other events the second time",
            )


def _new_turns(v: View, since: int) -> list[tuple[Path, Any]]:
    """The turns of ``v``'s history after the first ``since``, as ``(path, value)`` pairs for
    each turn's seat, action and events."""
    out: list[tuple[Path, Any]] = []
    for i, turn in enumerate(v.history[since:], since):
        at = ("history", i)
        out.extend([((at, "seat"), turn.seat), ((at, "action"), turn.action)])
        out.append(((at, "events"), turn.events))
    return out


SKIPPABLE = frozenset(
    {
        "notation",
        "illegal-action",
        "view-leak",
        "view-indistinguishable",
        "view-json",
        "record-round-trip",
        "history",
        "determinism",
        "playout",
        "pickle",
    }
)
"""The invariants :func:`check_game` can be told to skip (the others are what a game is)."""


def check_game(
    game: str | Game[Any],
    players: int | None = None,
    *,
    options: Mapping[str, Any] | Any = None,
    board: Any = None,
    seeds: Iterable[int] = range(20),
    max_steps: int = 10_000,
    skip: Iterable[str] = (),
) -> CheckReport:
    """Play one seeded random hand of ``game`` per seed and check every invariant of
    :data:`INVARIANTS` along the way; raise :class:`ConformanceError` at the first violation.

    ``game`` is a registered name (aliases accepted) or a :class:`~bonepile.games.Game`;
    ``players`` defaults to the game's ``default_players``; ``options`` and ``board`` are
    passed to :func:`~bonepile.games.new_game`. Hand ``seed`` is dealt from ``seed`` and
    played with :meth:`State.playout`'s choices from ``random.Random(seed)``. ``skip`` names
    invariants not to check (any of :data:`SKIPPABLE`), for a game that knowingly lacks them.
    """
    skipped = frozenset(skip)
    unknown = skipped - SKIPPABLE
    if unknown:
        raise ValueError(
            f"cannot skip {', '.join(sorted(unknown))} (skippable: {', '.join(sorted(SKIPPABLE))})"
        )
    g = game if isinstance(game, Game) else get_game(game)
    n = g.default_players if players is None else players
    opts = g.make_options(options)
    g.check_players(n, opts)
    g.new(n, options=opts, seed=0, board=board)  # bad arguments raise here, as they are
    check = _HandCheck(g, n, opts, board, max_steps, frozenset(INVARIANTS) - skipped)
    for seed in seeds:
        try:
            check.hand(seed)
        except ConformanceError as e:
            raise e.located(g.name, n, seed, check.where) from e
        except Exception as e:  # the game crashed outside every check
            where = check.where
            error = ConformanceError("no-crash", f"raised {type(e).__name__}: {e}")
            raise error.located(g.name, n, seed, where) from e
    return CheckReport(g.name, n, check.games, check.decisions, check.states)


class _HandCheck:
    """Plays and checks the hands of :func:`check_game`; ``where`` follows the move checked.

    Every position gets the cheap checks; some (the first two, every 25th, the last before
    the end, and the first two after an action that hid something) also get the slow ones: the
    table compared, whole views scanned, the views' JSON; and after the hand, records and
    pickles of some positions, determinism, playouts and the alternative deals."""

    def __init__(
        self,
        game: Game[Any],
        players: int,
        options: Any,
        board: Any,
        max_steps: int,
        on: frozenset[str],
    ) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.board = board
        self.max_steps = max_steps
        self.on = on
        self.registered = _registered(game)
        self.where: int | None = None
        self.games = 0
        self.decisions = 0
        self.states = 0

    def make(self, seed: int) -> State[Any]:
        return self.game.new(self.players, options=self.options, seed=seed, board=self.board)

    def hand(self, seed: int) -> None:
        """Play and check the hand of ``seed``."""
        on = self.on
        self.where = None
        state = self.make(seed)
        rng = random.Random(seed)
        side = random.Random(f"bonepile.conformance/{seed}")
        seats = _seats(state)
        known: dict[int | None, set[Tile]] = {s: set() for s in seats}
        scanned: dict[int | None, int] = dict.fromkeys(seats, 0)
        states: list[State[Any]] = [state]
        views: list[dict[int | None, View]] = []
        turns: list[tuple[int, Action, tuple[Event, ...]]] = []
        earlier: list[Action] = []
        serial: list[int] = []  # positions after an action that hid something (a discard)
        leaks = "view-leak" in on
        while not state.is_over:
            ply = state.ply
            self.where = ply
            if len(turns) >= self.max_steps:
                _fail("termination", f"the hand did not end in {self.max_steps} decisions")
            check_running(state)
            if "notation" in on:
                check_notation(state)
            layout = state.layout
            table = check_tiles_conserved(state, layout)
            places = hidden_places(state) if leaks else {}
            action = _choose(state, rng)
            actor = state.actor
            assert actor is not None
            early = ply < 2 or ply % 25 == 0 or ply in serial
            applied = check_apply_pure(state, action, full=early)
            stepped, events = check_step_agrees(state, action, applied, full=early)
            sample = early or stepped.is_over
            here: dict[int | None, View] = {}
            for s in seats:
                if s is not None:
                    known[s].update(state.hand(s))
                known[s].update(table)
                v = here[s] = check_view(state, s, full=sample, layout=layout)
                # The JSON round trip (slow on a board): the actor's view before the end, and
                # the spectator's after an action that hid something.
                if (
                    sample
                    and self.registered
                    and "view-json" in on
                    and ((stepped.is_over and s == actor) or (ply in serial and s is None))
                ):
                    check_view_json(v)
                if not leaks:
                    continue
                if sample:
                    # The whole view; its history's JSON before the end and after a discard.
                    full = stepped.is_over or ply in serial
                    check_view_hides(v, places, known[s], history=full)
                # Every position: the fields check_view did not pin to the state (it did the
                # hand and the legal actions), and the turns added since the last position.
                parts: list[tuple[Path, Any]] = [
                    ("public", v.public),
                    ("result", v.result),
                    ("revealed", v.revealed),
                    *_new_turns(v, scanned[s]),
                ]
                check_view_hides(v, places, known[s], parts=parts)
                scanned[s] = ply
            views.append(here)
            if "illegal-action" in on:
                candidates = illegal_candidates(state, side, earlier[-12:], table=table)
                check_illegal_rejected(state, candidates, full=sample)
                earlier.extend(state.legal_actions()[:6])
            tile = _tiled(action)
            if tile is not None:
                known[actor].add(tile)
            if action.redacted() != action and len(serial) < 2:
                serial.append(ply + 1)
            turns.append((actor, action, events))
            states.append(stepped)
            state = stepped
            self.decisions += 1
        final = state
        self.where = final.ply
        check_over(final)
        check_tiles_conserved(final)
        views.append({s: check_view(final, s) for s in seats})
        if "illegal-action" in on:
            check_illegal_rejected(final, [*(a for _, a, _ in turns[-3:]), PASS, DRAW])
        self.states += len(states)
        self.games += 1

        self.where = None
        if "history" in on:
            check_history(final, turns)
        if "determinism" in on:
            check_deterministic(lambda: self.make(seed), states, turns)
        mid = len(states) // 2
        if "playout" in on:
            self.where = 0
            check_playout(states[0], seed, self.max_steps)
            self.where = mid
            check_playout(states[mid], seed + 1, self.max_steps)
        last = len(states) - 1
        # Records: the middle, the end (through its JSON text too), after a discard; pickles:
        # the last two positions, after a discard.
        for ply in sorted({*serial, mid, max(last - 1, 0), last}):
            self.where = ply
            if "record-round-trip" in on and (ply in serial or ply in (mid, last)):
                check_record_round_trip(states[ply], text=ply == last)
            if "pickle" in on and (ply in serial or ply >= last - 1):
                check_pickle(states[ply])
        self.where = None
        if "view-indistinguishable" in on:
            self.states += check_hidden_information(states, side, views=views)
