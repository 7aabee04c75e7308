"""The search bot's objectives and its endgame solver: what they promise, checked by play.

The solver's value of a two-player position is what the side to move can force: where it says
seat 0 wins, seat 0 playing the solver's moves wins against any replies (tried against random
ones); its values agree with a minimax written out here without a table or a budget; the
points objective scores a hand as its points margin; both options are reachable by name.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from bonepile.agents.ismcts import ISMCTSAgent, evaluate, margins, most_visited, rewards
from bonepile.agents.registry import make_agent
from bonepile.agents.solver import EndgameSolver
from bonepile.errors import OptionError
from bonepile.games import all_games, get_game
from bonepile.state import State
from bonepile.view import view
from sizes import size

pytestmark = pytest.mark.engine

SHIPPED = Path(__file__).resolve().parents[1] / "examples" / "rl" / "block2.npz"
"""The shipped learned bot's policy file."""


def _endgames(game: str, tiles: int, count: int, seed: int) -> list[State[Any]]:
    """Two-player positions of ``game`` with at most ``tiles`` tiles in the hands, reached by
    random play."""
    rng = random.Random(seed)
    out: list[State[Any]] = []
    while len(out) < count:
        state = get_game(game).new(2, seed=rng.randrange(10**9))
        while state.actor is not None and state.hand_size(0) + state.hand_size(1) > tiles:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
        if state.actor is not None:
            out.append(state)
    return out


def _minimax(state: State[Any]) -> float:
    """Seat 0's win value with best play, written out plainly."""
    if state.result is not None:
        return rewards(state)[0]
    values = [_minimax(state.apply(a)) for a in state.legal_actions()]
    return max(values) if state.actor == 0 else min(values)


def _solver_move(solver: EndgameSolver, state: State[Any]) -> Any:
    seat = state.actor
    assert seat is not None
    return max(state.legal_actions(), key=lambda a: _value_after(solver, state, a, seat))


@pytest.mark.parametrize("game", ["block", "draw", "doubles"])
def test_the_solver_agrees_with_plain_minimax(game: str) -> None:
    plain = EndgameSolver(rewards, 1.0, tiles=6, nodes=10**6)
    cutting = EndgameSolver(rewards, 1.0, tiles=6, nodes=10**6, bounds=(0.0, 1.0))
    for state in _endgames(game, 6, size(6, 25), seed=3):
        for solver in (plain, cutting):
            got = solver.rewards(state)
            assert got is not None
            assert got[0] == _minimax(state)
            assert got[0] + got[1] == 1.0


def test_a_forced_win_is_won_against_any_replies() -> None:
    solver = EndgameSolver(rewards, 1.0, tiles=8, nodes=10**6)
    rng = random.Random(5)
    checked = 0
    for start in _endgames("block", 8, 40, seed=11):
        value = solver.rewards(start)
        assert value is not None
        for me in (0, 1):
            if value[me] != 1.0:
                continue
            for _ in range(5):
                state = start
                while state.actor is not None:
                    if state.actor == me:
                        state = state.apply(_solver_move(solver, state))
                    else:
                        legal = state.legal_actions()
                        state = state.apply(legal[rng.randrange(len(legal))])
                assert state.result is not None and state.result.winners == (me,)
                checked += 1
    assert checked >= 20


def test_a_solve_over_its_budget_gives_up_and_says_so() -> None:
    solver = EndgameSolver(rewards, 1.0, tiles=14, nodes=3)
    state = _endgames("block", 14, 1, seed=2)[0]
    assert solver.rewards(state) is None
    assert solver.abandoned == 1 and solver.solved == 0


def test_the_points_objective_scores_the_margin() -> None:
    state = get_game("block").new(2, seed=4)
    final = state.playout(random.Random(1))
    assert final.result is not None
    p = final.result.points
    assert margins(final, 10.0) == [(p[0] - p[1]) / 10.0, (p[1] - p[0]) / 10.0]


def test_the_points_objective_counts_a_board_game_s_track() -> None:
    """Double Double Dominoes scores on its track, not in the result: a finished game's
    margins are the track's, and a rollout cut short is valued in the same units (the lead
    on the track over the others' mean), not as a chance to win."""
    game = get_game("double_double")
    final = game.new(2, seed=4).playout(random.Random(1))
    assert final.result is not None and not any(final.result.points)
    a, b = final.scores
    assert a != b and final.hand_points == (a, b)
    assert margins(final, 20.0) == [(a - b) / 20.0, (b - a) / 20.0]
    state, rng = game.new(2, seed=5), random.Random(2)
    while state.actor is not None and state.scores[0] == state.scores[1]:
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.random() * len(legal))])
    assert state.actor is not None
    x, y = state.scores
    assert evaluate(state, rewards, 20.0) == [(x - y) / 20.0, (y - x) / 20.0]
    chance = evaluate(state, rewards)
    assert all(0.0 < c < 1.0 for c in chance) and (chance[0] > chance[1]) == (x > y)


@pytest.mark.parametrize(
    "spec",
    ["ismcts:200:objective=points", "ismcts:200:solve=8", "ismcts:hard:solve=8:objective=points"],
)
def test_the_options_play_legal_moves_reproducibly(spec: str) -> None:
    for state in _endgames("block", 10, 3, seed=8):
        v = view(state, state.actor)
        a, b = make_agent(spec, 3).act(v), make_agent(spec, 3).act(v)
        assert a == b and a in v.legal


@pytest.mark.parametrize(
    ("game", "own"), [("doubles", "points"), ("block", "points"), ("draw", "win")]
)
def test_the_search_plays_for_the_game_s_objective_unless_told(game: str, own: str) -> None:
    """By default the search maximises what the game's hints say (the points margin in
    Doubles and block, the chance to win in draw): it plays exactly as with that
    objective named, and the other objective changes some of its moves."""
    assert get_game(game).hints.objective == own
    other = "win" if own == "points" else "points"
    differ = choices = 0
    for seed in range(8):
        state = get_game(game).new(2, seed=seed)
        rng = random.Random(seed)
        while state.actor is not None and choices < 40:
            v = view(state, state.actor)
            if len(v.legal) >= 2:
                choices += 1
                plain = make_agent("ismcts:120", 5).act(v)
                assert plain == make_agent(f"ismcts:120:objective={own}", 5).act(v)
                differ += plain != make_agent(f"ismcts:120:objective={other}", 5).act(v)
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
    assert choices == 40 and differ > 0


def test_the_solver_finds_a_forced_win_the_rollouts_can_miss() -> None:
    """In endgames where the solver proves a win for the side to move, the search with it
    picks a winning move every time; its values are exact where the rollouts only sample."""
    solver = EndgameSolver(rewards, 1.0, tiles=8, nodes=10**6)
    found = 0
    for state in _endgames("block", 8, 60, seed=21):
        me = state.actor
        assert me is not None
        wins = [a for a in state.legal_actions() if _value_after(solver, state, a, me) == 1.0]
        if not wins or len(wins) == len(state.legal_actions()):
            continue
        agent = ISMCTSAgent(1, iterations=200, solve=8)
        # the true deal is the only world: the search sees what the solver sees
        root = agent.search([state], me, random.Random(2))
        best = most_visited(root, state.legal_actions())
        assert best in wins
        found += 1
    assert found >= 3


def _value_after(solver: EndgameSolver, state: State[Any], action: Any, me: int) -> float:
    child = state.apply(action)
    if child.result is not None:
        return rewards(child)[me]
    r = solver.rewards(child)
    assert r is not None
    return r[me]


def test_bad_option_values_are_one_clear_error() -> None:
    for spec in ("ismcts:hard:objective=money", "ismcts:hard:solve=-1", "ismcts:hard:solve=99"):
        with pytest.raises(OptionError):
            make_agent(spec)


def test_a_points_search_finishes_where_every_move_loses_heavily() -> None:
    """Margins go below -1 (a win share never does): the search must still pick a child
    when every move's mean is far below zero."""
    rng = random.Random(13)
    played = 0
    for _ in range(40):
        state = get_game("block").new(2, seed=rng.randrange(10**9))
        for _ in range(rng.randrange(1, 8)):
            if state.actor is None:
                break
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
        if state.actor is None or len(state.legal_actions()) < 2:
            continue
        agent = ISMCTSAgent(played, iterations=150, objective="points", exploration=0.05)
        root = agent.search([state], state.actor, random.Random(played))
        assert sum(child.visits for child in root.children.values()) == 150
        played += 1
    assert played >= 20


# ------------------------------------------------------------------------------ a learned prior
def _position_with_a_choice(seed: int) -> Any:
    state = get_game("block").new(2, seed=seed)
    rng = random.Random(seed)
    while state.actor is not None:
        v = view(state, state.actor)
        if len(v.legal) >= 3:
            return v
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.random() * len(legal))])
    return None


def _root_and_favourite(
    iterations: int, objective: str | None = None
) -> tuple[Any, Any, dict[Any, int]]:
    """A block position with a choice, the move the plain search (playing for ``objective``,
    by default the game's) likes least, and the plain search's visits."""
    for seed in range(10):
        v = _position_with_a_choice(seed)
        if v is not None:
            break
    assert v is not None
    plain = {
        a: n for a, n, _ in ISMCTSAgent(3, iterations=iterations, objective=objective).estimates(v)
    }
    return v, min(plain, key=lambda a: plain[a]), plain


def test_a_prior_steers_the_root_toward_the_moves_it_favours() -> None:
    """With every probability on one move, that move gets more of the root's visits than
    without the prior (and no other node is touched: the other moves are still tried)."""
    v, favourite, plain = _root_and_favourite(200)
    steered = ISMCTSAgent(3, iterations=200, prior=lambda _v: {favourite: 1.0}, prior_weight=8)
    got = {a: n for a, n, _ in steered.estimates(v)}
    assert got[favourite] > plain[favourite]
    assert all(n > 0 for n in got.values()) and sum(got.values()) == sum(plain.values())


def test_the_prior_knob_reads_a_policy_file_and_refuses_bad_ones(tmp_path: Any) -> None:
    pytest.importorskip("numpy")
    shipped = SHIPPED
    agent = make_agent(f"ismcts:60:prior={shipped}:pw=2", seed=1)
    assert isinstance(agent, ISMCTSAgent) and agent.prior is not None
    assert agent.prior_weight == 2.0
    v = _position_with_a_choice(1)
    probabilities = agent.prior(v)
    assert set(probabilities) == set(v.legal)
    assert abs(sum(probabilities.values()) - 1.0) < 1e-6
    assert agent.act(v) in v.legal
    missing = tmp_path / "missing.npz"
    for bad in (f"ismcts:hard:prior={missing}", f"ismcts:hard:prior={shipped}:pw=x",
                f"ismcts:hard:prior={shipped}:pw=101"):  # fmt: skip
        with pytest.raises(OptionError):
            make_agent(bad)


def test_the_model_knob_makes_a_policy_file_the_model_of_the_players() -> None:
    """``model=FILE``: the log-probability of each legal move of the mover of a full position
    is the network's probability from the mover's view, mixed with a tenth of uniform, so over
    the legal moves they make a distribution; the agent plays legal moves with it."""
    pytest.importorskip("numpy")
    from bonepile.rl.policy import PolicyAgent

    agent = make_agent(f"ismcts:60:belief=2:model={SHIPPED}", seed=1)
    assert isinstance(agent, ISMCTSAgent) and agent.model is not None
    rng = random.Random(5)
    state = get_game("block").new(2, seed=9)
    while state.actor is not None and len(state.legal_actions()) < 2:
        state = state.apply(rng.choice(state.legal_actions()))
    assert state.actor is not None
    legal = state.legal_actions()
    net = PolicyAgent(SHIPPED).probabilities(view(state, state.actor))
    for a in legal:
        assert agent.model(state, a) == pytest.approx(math.log(0.9 * net[a] + 0.1 / len(legal)))
    assert sum(math.exp(agent.model(state, a)) for a in legal) == pytest.approx(1.0)
    v = _position_with_a_choice(1)
    assert agent.act(v) in v.legal
    for bad in ("ismcts:hard:model=no-such-file.npz", f"ismcts:expert:belief=0:model={SHIPPED}"):
        with pytest.raises(OptionError):
            make_agent(bad)


@pytest.mark.parametrize("game", ["block", "doubles", "super_dominoes", "double_double"])
def test_the_greedy_prior_is_the_greedy_player_s_choice(game: str) -> None:
    """``prior=greedy`` puts all the probability on the moves the greedy player scores best,
    and a search held to them by a heavy weight plays what the greedy player plays."""
    agent = make_agent("ismcts:12:prior=greedy:pw=100", seed=2)
    assert isinstance(agent, ISMCTSAgent) and agent.prior is not None
    g = get_game(game)
    checked = 0
    for seed in range(20):
        state = g.new(g.default_players, seed=seed)
        rng = random.Random(seed)
        while state.actor is not None and checked < 6:
            v = view(state, state.actor)
            if len(v.legal) >= 2:
                probabilities = agent.prior(v)
                score = g.hints.greedy(v)
                best = max(score(a) for a in v.legal)
                assert set(probabilities) == {a for a in v.legal if score(a) >= best - 1e-9}
                assert abs(sum(probabilities.values()) - 1.0) < 1e-9
                assert agent.act(v) in probabilities
                checked += 1
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
    assert checked == 6


GUIDED = [(g.name, level) for g in all_games() for level in g.hints.guided_levels]


@pytest.mark.parametrize(("game", "level"), GUIDED)
def test_a_guided_level_searches_from_the_greedy_player_s_choice(game: str, level: str) -> None:
    """A level the game guides (``hints.guided_levels``) plays as the same level told
    ``prior=greedy``, and the guide changes its play: without it (``pw=0``) some move differs."""
    guided = make_agent(f"ismcts:{level}", seed=3)
    told = make_agent(f"ismcts:{level}:prior=greedy", seed=3)
    unguided = make_agent(f"ismcts:{level}:pw=0", seed=3)
    g = get_game(game)
    differs = 0
    for seed in range(8):  # the first three choices of each deal, until the guide shows
        state = g.new(g.default_players, seed=seed)
        rng = random.Random(seed)
        choices = 0
        while state.actor is not None and choices < 3:
            v = view(state, state.actor)
            if len(v.legal) >= 2:
                move = guided.act(v)
                assert move == told.act(v)
                differs += move != unguided.act(v)
                choices += 1
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
        if differs:
            break
    assert differs, "the greedy guide changed none of the level's moves"


def test_a_game_without_guided_levels_searches_unguided() -> None:
    agent = make_agent("ismcts:medium", seed=1)
    assert isinstance(agent, ISMCTSAgent)
    g = get_game("block")
    assert "medium" not in g.hints.guided_levels
    assert agent.root_prior(_position_with_a_choice(1)) is None


# ------------------------------------------------------------------------------ a learned value


def test_a_learned_value_at_the_leaves_steers_the_search() -> None:
    """A value that says the seat to move loses whenever the searcher's least-liked move was
    just played makes that move the search's choice once it alone values the leaves, moves it
    up at half weight, and changes nothing at weight 0; the value is asked only about views of
    the seat to move at a leaf. A search given a value plays for the win, what the value
    estimates, even in a game whose search plays for points."""
    assert get_game("block").hints.objective == "points"
    v, favourite, plain = _root_and_favourite(300, objective="win")
    me = v.seat
    asked: list[int] = []

    def value(leaf: Any) -> float:
        asked.append(leaf.seat)
        assert leaf.actor == leaf.seat and len(leaf.history) > len(v.history)
        mine = [t.action for t in leaf.history[len(v.history) :] if t.seat == me]
        return 0.0 if mine and mine[0] == favourite and leaf.seat != me else 0.5

    alone = ISMCTSAgent(3, iterations=300, value=value, value_weight=1.0)
    assert alone.act(v) == favourite and asked
    half = {a: n for a, n, _ in ISMCTSAgent(3, iterations=300, value=value).estimates(v)}
    assert half[favourite] > plain[favourite]
    off = ISMCTSAgent(3, iterations=300, value=value, value_weight=0.0)
    calls = len(asked)
    assert {a: n for a, n, _ in off.estimates(v)} == plain and len(asked) == calls


def test_the_value_knob_reads_a_value_head_and_refuses_what_cannot_serve(tmp_path: Any) -> None:
    """``value=FILE`` needs a policy file with a value head, the win objective and a weight
    from 0 to 1; each refusal is one ``OptionError``."""
    np = pytest.importorskip("numpy")
    from bonepile.rl import Policy

    rng = np.random.default_rng(0)
    shipped = Policy.load(SHIPPED)
    width = shipped.layers[-1][0].shape[0]
    head = (rng.normal(size=(width, 1)).astype(np.float32), np.zeros(1, dtype=np.float32))
    with_value = tmp_path / "valued.npz"
    Policy(shipped.layers, shipped.meta, shipped.scale, head).save(with_value)
    agent = make_agent(f"ismcts:40:value={with_value}:vw=0.25", seed=1)
    assert isinstance(agent, ISMCTSAgent) and agent.value is not None
    assert agent.value_weight == 0.25
    v = _position_with_a_choice(1)
    worth = agent.value(v)
    assert 0.0 <= worth <= 1.0
    assert agent.act(v) in v.legal
    without = tmp_path / "plain.npz"
    Policy(shipped.layers, shipped.meta, shipped.scale).save(without)
    bad_head = tmp_path / "bad.npz"
    Policy(shipped.layers, shipped.meta, shipped.scale, (head[0][:-1], head[1])).save(bad_head)
    missing = tmp_path / "no.npz"
    for bad in (f"ismcts:hard:value={without}", f"ismcts:hard:value={with_value}:vw=1.5",
                f"ismcts:hard:value={with_value}:objective=points", "ismcts:hard:vw=0.5",
                f"ismcts:hard:value={bad_head}", f"ismcts:hard:value={missing}"):  # fmt: skip
        with pytest.raises(OptionError):
            make_agent(bad)
