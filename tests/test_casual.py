"""The casual bot: the game's greedy scores softened by its temperature, reproducible from its
seed, legal, blind to all but its view, and never silly where the game's scores can tell."""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bonepile.actions import Action
from bonepile.agents import CasualAgent, GreedyAgent, make_agent, play_hand
from bonepile.agents.casual import SILLY, choose
from bonepile.errors import OptionError
from bonepile.games import get_game
from bonepile.view import View, view
from test_agents import (
    GAMES,
    OPTION_SETS,
    Checked,
    case_id,
    new_hand,
    random_line,
    reachable,
    some_points,
)

pytestmark = pytest.mark.engine


def test_make_agent_builds_the_casual_bot() -> None:
    agent = make_agent(" Casual ", seed=4)
    assert isinstance(agent, CasualAgent) and agent.name == "casual"
    for spec in ("casual:hot", "casual:2"):
        with pytest.raises(OptionError):
            make_agent(spec)


def test_the_choice_is_the_softmax_of_the_scores_without_the_silly_ones() -> None:
    t = 2.0
    half = [0.0, -t * math.log(2)]  # weights 1 and 1/2: the first below u = 2/3
    assert [choose(half, t, u) for u in (0.0, 0.66, 0.67, 0.999999)] == [0, 0, 1, 1]
    assert choose([1.0, 5.0, 5.0], 0.0, 0.9) == 1  # no temperature: the first best
    silly = [-100.0, 0.0, 3.0 - SILLY, 3.0]  # the first and third are SILLY or more below
    assert {choose(silly, 1000.0, k / 100) for k in range(100)} == {1, 3}


@pytest.mark.parametrize("game", GAMES)
def test_a_seed_replays_its_hands_move_for_move(game: str) -> None:
    players = get_game(game).default_players

    def hand(seed: int, deal: int) -> Any:
        agents = [make_agent("casual", seed=seed + s) for s in range(players)]
        return play_hand(new_hand(game, players, deal), agents).moves

    assert hand(3, 9) == hand(3, 9)
    # and the seed is what it draws from: other seeds play other hands of the same deals
    assert any(hand(3, deal) != hand(40, deal) for deal in range(1, 6))


@pytest.mark.parametrize("case", OPTION_SETS, ids=case_id)
def test_it_only_plays_legal_actions(case: tuple[str, int, dict[str, Any]]) -> None:
    game, players, options = case
    others = ["random", "greedy", "casual"]
    for seed in (1, 2):
        specs = ["casual", *(others[(s + seed) % 3] for s in range(1, players))]
        agents = [Checked(make_agent(spec, seed=seed + s)) for s, spec in enumerate(specs)]
        final = play_hand(new_hand(game, players, seed, options), agents)
        assert final.is_over and final.result is not None
        assert sum(a.decisions for a in agents if isinstance(a.agent, CasualAgent)) > 0


@pytest.mark.parametrize("game", GAMES)
def test_it_reads_only_its_view(game: str) -> None:
    """Its choice from a view rebuilt from the view's JSON (which holds no state) is its
    choice from the view itself, and after acting it holds no real state of the hand."""
    players = 3 if game in ("draw", "double_double") else 2
    states = random_line(new_hand(game, players, 5), random.Random(5))
    real = {id(s): s for s in states}  # kept alive, so that no id is reused
    for state in some_points(states, 6):
        assert state.actor is not None
        v = view(state, state.actor)
        rebuilt = View.from_json(v.to_json())
        for seed in range(8):
            agent = CasualAgent(seed)
            assert agent.act(v) == CasualAgent(seed).act(rebuilt)
            leaked = [o for i, o in reachable(agent, v).items() if i in real and o is real[i]]
            assert not leaked


def _decisions(game: str, hands: int) -> list[tuple[View, Any]]:
    """Every view with a choice of a casual bot in ``hands`` hands of ``game`` against greedy,
    and what it played."""
    players = get_game(game).default_players
    seen: list[tuple[View, Any]] = []

    class Watched(CasualAgent):
        def act(self, v: View) -> Any:
            action = super().act(v)
            if len(v.legal) > 1:
                seen.append((v, action))
            return action

    for deal in range(hands):
        agents: list[Any] = [Watched(deal) if s % 2 == 0 else GreedyAgent(deal)
                             for s in range(players)]  # fmt: skip
        play_hand(new_hand(game, players, 100 + deal), agents)
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_a_move_the_scores_call_silly_is_never_played_even_when_hot(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An action the game's scorer puts :data:`SILLY` below the best (here, by a scorer that
    says so of each position's first legal action; the line games' own says so of a draw or a
    pass) is never played, even at a temperature that makes the others nearly alike."""

    def scorer(v: View) -> Callable[[Action], float]:
        first = v.legal[0]
        return lambda a: -SILLY if a == first else 0.0

    cls = type(get_game(game))
    monkeypatch.setattr(cls, "hints", replace(cls.hints, greedy=scorer, casual_temperature=1e3))
    seen = _decisions(game, 10)
    assert len(seen) >= 20
    assert all(action != v.legal[0] for v, action in seen)


@pytest.mark.parametrize("game", GAMES)
def test_it_mostly_plays_the_greedy_move_and_sometimes_another(game: str) -> None:
    best = 0
    seen = _decisions(game, 20)
    for v, action in seen:
        score = get_game(game).hints.greedy(v)
        top = max(score(a) for a in v.legal)
        best += score(action) >= top - 1e-9
    share = best / len(seen)
    assert len(seen) >= 60 and 0.4 < share < 0.97, (len(seen), share)


@pytest.mark.parametrize(
    "greedy_beats_casual, ladder",
    [
        (True, ("random", "casual", "greedy", "ismcts:hard")),
        (False, ("random", "greedy", "ismcts:hard")),
    ],
)
def test_the_climb_keeps_casual_only_between_random_and_greedy(
    greedy_beats_casual: bool,
    ladder: tuple[str, ...],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``strength.py --climb`` keeps ``casual`` where it beats ``random`` and ``greedy`` beats
    it; else it measures ``greedy`` against ``random`` and goes on from ``greedy``."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    strength: Any = pytest.importorskip("strength")
    ran: list[tuple[str, str]] = []

    def row(game: str, first: str, second: str, *_: Any) -> dict[str, Any]:
        ran.append((first, second))
        better = greedy_beats_casual or (first, second) != ("greedy", "casual")
        return {"win_share": 0.55, "verdict": "better" if better else "even"}

    monkeypatch.setattr(strength, "ladder_row", row)
    strength.climb("block", 400, 1, 1, None, ("ismcts:hard",))
    assert f"ladder {ladder!r}" in capsys.readouterr().err
    below = [] if greedy_beats_casual else [("greedy", "random")]
    assert ran == [("casual", "random"), ("greedy", "casual"), *below, ("ismcts:hard", ladder[-2])]
