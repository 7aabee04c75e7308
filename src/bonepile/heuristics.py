"""Quick game knowledge for the bots: one-ply scores, rollout policies and search hints.

Pure functions over states and views (no search, no I/O). Each game names the ones that fit
it in its :class:`PlayHints` (``Game.hints``), so the agents never check a game's name: a new
game gets sensible defaults and may supply its own.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bonepile.actions import Action, Attach, Discard, Draw, Lead, Pass, Place, Stop
from bonepile.events import Led, Placed
from bonepile.grid import BoardLayout
from bonepile.layout import Layout
from bonepile.tiles import Tile

if TYPE_CHECKING:
    from bonepile.state import State
    from bonepile.view import View

Scorer = Callable[[Action], float]
"""A one-ply value of each legal action to the mover (higher is better)."""

Rollout = Callable[["State[Any]", random.Random], Action]
"""A rollout policy: the action to play in a (full-information, sampled) state."""


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


# ------------------------------------------------------------------------------ greedy scores
def line_scorer(view: View) -> Scorer:
    """Greedy scores for the line games: shed heavy tiles, doubles early, keep the open ends
    in suits we hold and in suits an opponent showed it lacks."""
    return _line_scorer(view, False, False)


def super_scorer(view: View) -> Scorer:
    """:func:`line_scorer` plus Super Dominoes' effects used against the others."""
    return _line_scorer(view, True, False)


def doubles_scorer(view: View) -> Scorer:
    """Doubles: shed heavy tiles, hold doubles back, leave unlocked ends we can follow."""
    return _line_scorer(view, False, True)


def _line_scorer(view: View, sd: bool, doubles: bool) -> Scorer:
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
    direction = int(getattr(view.public, "direction", 1))
    unlocked = set(getattr(view.public, "unlocked", ())) if doubles else None

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


def board_scorer(view: View) -> Scorer:
    """Greedy scores for a board game: the diamonds and own track bonus a placement scores,
    less the bonuses it hands the others; keep doubles and useful tiles when discarding."""
    seat = view.seat
    assert seat is not None
    layout = view.layout
    assert isinstance(layout, BoardLayout)
    b = layout.board
    opts = view.options
    positions = list(layout.positions)
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


# ------------------------------------------------------------------------------ rollouts
def board_values(state: State[Any]) -> list[tuple[float, Action]]:
    """Every legal action of a board game (Double Double Dominoes) with a quick value to the
    mover: the diamonds and track bonus it scores now, less the bonuses it hands out."""
    layout = state.layout
    assert isinstance(layout, BoardLayout)
    board = layout.board
    opts = state.options
    actor = state.actor
    cols = board.cols
    diamonds = board.diamonds
    bonus = opts.track_bonus
    pips = [board.track_pips(p) for p in state.scores]
    out: list[tuple[float, Action]] = []
    for a in state.legal_actions():
        if isinstance(a, Place):
            t = a.tile
            r1, c1 = a.cell1
            r2, c2 = a.cell2
            value = float(diamonds[r1 * cols + c1] + diamonds[r2 * cols + c2])
            if t.is_double:
                value = value * opts.double_multiplier + 1.0
            for s, pip in enumerate(pips):
                if pip is not None and (pip == t.hi or pip == t.lo):
                    value += bonus if s == actor else -0.6 * bonus
        elif isinstance(a, Discard) and a.tile is not None:
            value = -0.1 * a.tile.pips - (3.0 if a.tile.is_double else 0.0)
        else:
            value = 0.5
        out.append((value, a))
    return out


def board_move(state: State[Any], rng: random.Random) -> Action:
    """The best action by :func:`board_values` (ties at random), for rollouts."""
    values = board_values(state)
    top = max(v for v, _ in values)
    best = [a for v, a in values if v >= top - 1e-9]
    return best[int(rng.random() * len(best))]


def board_candidates(state: State[Any], k: int = 8) -> list[Action]:
    """The ``k`` best actions by :func:`board_values` (the search looks at these only)."""
    values = board_values(state)
    values.sort(key=lambda va: -va[0])
    return [a for _, a in values[:k]]


def _mostly_best(value: Any) -> Any:
    """A rollout policy: the legal action with the highest ``value(tile)`` three times in four,
    a random one otherwise (and always when there is no choice)."""

    def move(state: State[Any], rng: random.Random) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1 or rng.random() < 0.25:
            return legal[int(rng.random() * len(legal))]
        best = legal[0]
        best_value = -1e9
        for a in legal:
            tile = getattr(a, "tile", None)
            v = -1.0 if tile is None else value(tile)
            if v > best_value:
                best, best_value = a, v
        return best

    return move


def move_values(state: State[Any]) -> list[tuple[float, Action]]:
    """Every legal action of a line game with the greedy bot's value of it to the mover, from
    the mover's own hand: shed heavy tiles, doubles early, leave open ends in suits it still
    holds (a pass or a draw, when legal, is worth -100)."""
    actor = state.actor
    assert actor is not None
    layout = state.layout
    assert isinstance(layout, Layout)
    suits = [0] * 19
    for t in state.hand(actor):
        suits[t.hi] += 1
        if t.lo != t.hi:
            suits[t.lo] += 1
    out: list[tuple[float, Action]] = []
    for a in state.legal_actions():
        if not isinstance(a, Lead | Attach):
            value = -100.0
        else:
            t = a.tile
            value = float(t.pips) + (4.0 if t.is_double else 0.0)
            for o in _open_after(a, layout):
                mine = suits[o] - (1 if t.has(o) else 0)
                value += 1.5 * (mine if mine < 2 else 2)
        out.append((value, a))
    return out


def line_loglik(
    state: State[Any], action: Action, temperature: float = 4.0, eps: float = 0.1
) -> float:
    """The log-probability that the mover plays ``action`` here under a model of it: a softmax
    of :func:`move_values` at ``temperature``, mixed with a uniform choice (weight ``eps``)."""
    values = move_values(state)
    n = len(values)
    if n <= 1:
        return 0.0
    top = max(v for v, _ in values)
    z = 0.0
    mine = None
    for v, a in values:
        w = math.exp((v - top) / temperature)
        z += w
        if a == action:
            mine = w
    if mine is None:
        return 0.0
    return math.log((1.0 - eps) * mine / z + eps / n)


doubles_move = _mostly_best(lambda t: t.pips - (20.0 if t.is_double else 0.0))
"""Doubles rollouts: mostly the heaviest non-double (doubles held back, as good players do)."""

heavy_move = _mostly_best(lambda t: t.pips + (0.5 if t.is_double else 0.0))
"""Line-game rollouts: mostly the heaviest tile (doubles first among equals)."""


@dataclass(frozen=True)
class PlayHints:
    """What the bots should know of a game (``Game.hints``).

    ``greedy``: the one-ply scorer of the greedy bot; ``pool``: sampled worlds per search
    decision; ``rollout``: the search's rollout policy (``None``: uniform random play to the
    end, the rules' fast :meth:`~bonepile.state.State.playout`); ``rollout_depth``: stop
    rollouts after this many actions and score the position by who is ahead (``None``: play to
    the end); ``candidates``: the actions the search tree considers at a node (``None``: all);
    ``model``: the log-likelihood of an action in a full state under a model of the players,
    for the search to weigh its sampled worlds by the others' past moves (``None``: no model,
    every consistent deal weighs the same). ``expert_pool`` and ``expert_belief``: the game's
    own settings for the ``expert`` level (``None``: ``pool``, and the level's belief), where
    the measurements found others stronger (docs/strength-notes.md). ``points_scale``: the
    points a unit of the search's value when it maximises points (``objective=points``): about
    a typical hand's points, so that its exploration constant means what it means for wins.
    ``objective``: what the search maximises unless told (``"win"``, the chance to win the
    hand, or ``"points"``, the points margin: see ``bonepile.agents.ismcts.OBJECTIVES``).
    ``guided_levels``: the search levels whose root the greedy player's choice guides
    (``prior=greedy``) unless another prior is given: where a small budget alone cannot tell
    the good moves apart. ``casual_temperature``: how far the casual bot
    (:mod:`bonepile.agents.casual`) strays from the greedy scores, in their units (it weighs
    each action by ``exp(score / T)``), set per game so that it sits between ``random`` and
    ``greedy``. ``ladder``: the bots a player is offered, weakest first, each measured to beat
    the one below at the game's usual player count (400 duplicate deals or more at one seed,
    the share of the hands won with its 95% interval above even:
    ``benchmarks/results/ladder.json``); a level that did not beat the rung below is left out.
    """

    greedy: Callable[[View], Scorer] = line_scorer
    pool: int = 32
    rollout: Rollout | None = None
    rollout_depth: int | None = None
    candidates: Callable[[State[Any]], list[Action]] | None = None
    model: Callable[[State[Any], Action], float] | None = None
    expert_pool: int | None = None
    expert_belief: int | None = None
    points_scale: float = 20.0
    objective: str = "win"
    guided_levels: tuple[str, ...] = ()
    casual_temperature: float = 4.0
    ladder: tuple[str, ...] = ("random", "greedy")


SEARCH_LADDER = ("ismcts:easy", "ismcts:medium", "ismcts:hard", "ismcts:expert")
"""The search bot's levels, weakest first (a game's ladder keeps those that climb)."""

LINE_HINTS = PlayHints(
    greedy=line_scorer,
    rollout=heavy_move,
    model=line_loglik,
    objective="points",
    ladder=("random", "casual", "greedy", "ismcts:hard", "ismcts:expert"),
)
"""Block's: the search plays for the points margin (``hard`` playing for points won more
points than ``hard`` playing for the hand, +1.20 and +0.58 a hand at two seeds, and as many or
more hands, 0.544 and 0.510); ``easy`` (15 iterations)
lost to ``greedy`` and ``medium`` (60) was level with it, so block's ladder goes from
``greedy`` to ``hard``. Below ``greedy``, ``casual`` at the default temperature (4, and draw's
too): about halfway to ``random`` in the share of the hands (docs/strength-notes.md section 9)."""
DRAW_HINTS = replace(
    LINE_HINTS,
    expert_pool=250,
    expert_belief=0,
    objective="win",
    ladder=("random", "casual", "greedy", *SEARCH_LADDER),
)
"""Draw's: as block's, but its expert samples 250 worlds a decision and weighs them alike (the
boneyard's order is hidden too; weighing by the others' moves gained nothing there), and the
search plays for the hand (for points, ``hard`` won fewer hands and points against ``greedy``:
0.580 and +4.42 a hand against 0.664 and +5.67); every level climbs."""
SUPER_HINTS = PlayHints(
    greedy=super_scorer,
    pool=24,
    expert_pool=96,
    points_scale=60.0,
    casual_temperature=6.0,
    ladder=("random", "casual", "greedy", "ismcts:hard", "ismcts:expert"),
)
"""Super Dominoes': ``easy`` loses to ``greedy`` and ``medium`` is level with it; ``hard`` beats
it; ``expert`` samples 96 worlds a decision (with hard's 24 it won more hands than ``hard`` but
not clearly, 0.524, 0.491-0.558 over 400 deals; with 96, 0.554, 0.520-0.588, and +9.53 points a
hand). ``casual`` at temperature 6, halfway between ``random`` and ``greedy``."""
DOUBLES_HINTS = PlayHints(
    greedy=doubles_scorer,
    rollout=doubles_move,
    objective="points",
    casual_temperature=7.0,
    ladder=("random", "casual", "greedy", "ismcts:hard"),
)
"""Doubles': the search plays for the points margin (playing for the hand it won as many hands
against ``greedy`` and lost points to it; for points it wins both, and level in hands with the
search that plays for the hand, +1.22 points a hand); ``easy`` and ``medium`` were no better
than ``greedy``; ``hard`` beats it. ``casual`` at temperature 7, halfway between ``random``
and ``greedy``."""
BOARD_HINTS = PlayHints(
    greedy=board_scorer,
    pool=12,
    rollout=board_move,
    rollout_depth=2,
    candidates=board_candidates,
    objective="points",
    guided_levels=("easy", "medium"),
    casual_temperature=1.0,
    ladder=("random", "casual", "greedy", "ismcts:medium", "ismcts:hard", "ismcts:expert"),
)
"""Double Double Dominoes': the search plays for the points margin (``hard`` playing for points
won as many games as ``hard`` playing for the game, 0.521, and +4.73 points a game); unguided,
``easy`` (15 iterations) and ``medium`` (60) lost to ``greedy`` (0.164 and 0.481), so both start
from the greedy player's choice (guided, ``medium`` beat ``greedy``, 0.590 and +4.29 points a
game, and ``easy`` was level with it, 0.526). ``casual`` at temperature 1 (a move a point
worse is played a third as often as the best): ``random`` never wins here, so ``casual`` is
placed by its distance below ``greedy``, which wins about 0.8 of the games against it (0.97
at temperature 2)."""
