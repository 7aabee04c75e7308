"""Regenerate the golden playthroughs in tests/golden/playthroughs/ (one seeded random hand each).

    .venv/bin/python tests/golden/make_playthroughs.py            # rewrite every file
    .venv/bin/python tests/golden/make_playthroughs.py --check    # only report differences

Each file is one hand played from a seed by the engine itself: the game, players, options
(non-default only), board (a board game's shipped board, when not the standard one) and seed,
then every step as ``actor``, ``legal`` (the legal actions in notation, in the order the
engine returns them), ``action`` (the one chosen) and ``events`` (every event's ``to_json()``,
full information: nothing redacted), and the final ``result``. The actions are chosen as
:meth:`State.playout` chooses them: ``legal[int(rng.random() * len(legal))]`` with
``rng = random.Random(seed)``.

tests/test_playthroughs.py replays every file step by step and stops at the first difference.
The files pin the rules, the move order and the event JSON against regressions, so they must
change only when such a change is intended: rerun this script then, and review the diff (the
script prints which files changed).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from golden_files import sync

from bonepile.games import get_game, new_game
from bonepile.options import non_default_options
from bonepile.state import State

HERE = Path(__file__).resolve().parent / "playthroughs"
FORMAT = "bonepile-playthrough/1"


@dataclass
class Case:
    name: str
    description: str
    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    board: str | None = None  # a shipped board's name (board games only)


CASES = [
    Case(
        "super_dominoes_4p_default",
        "Super Dominoes, 4 players, default options: spells, reversals, skips, an extra turn",
        "super_dominoes",
        4,
        seed=28,
    ),
    Case(
        "super_dominoes_3p_options",
        "Super Dominoes, 3 players: effects on any half, blanks skip, extra turn only to play, "
        "draw one when unable",
        "super_dominoes",
        3,
        seed=12,
        options={
            "effect_trigger": "tile_contains",
            "skip_trigger": "blank",
            "extra_turn_mode": "play_only_if_able",
            "draw_when_unable": 1,
        },
    ),
    Case("block_2p_default", "Block, 2 players, default options", "block", 2, seed=13),
    Case(
        "block_4p_teams_spinner",
        "Block, 4 players in teams, the first double a spinner",
        "block",
        4,
        seed=34,
        options={"teams": True, "spinner": True},
    ),
    Case("draw_3p_default", "Draw, 3 players, default options", "draw", 3, seed=29),
    Case("doubles_3p_default", "Doubles, 3 players, default options", "doubles", 3, seed=38),
    Case(
        "double_double_2p_standard",
        "Double Double Dominoes, 2 players on the standard board: chains, a discard",
        "double_double",
        2,
        seed=26,
    ),
    Case(
        "double_double_3p_small",
        "Double Double Dominoes, 3 players on the small board: discards until the board is full",
        "double_double",
        3,
        seed=23,
        board="small",
    ),
]


def start(data: dict[str, Any]) -> State[Any]:
    """The hand a playthrough's header describes, freshly dealt."""
    return new_game(
        data["game"],
        data["players"],
        options=data.get("options", {}),
        seed=data["seed"],
        board=data.get("board"),
    )


def build(case: Case) -> dict[str, Any]:
    """Play ``case``'s hand and write it down."""
    game = get_game(case.game)
    header: dict[str, Any] = {
        "format": FORMAT,
        "name": case.name,
        "description": case.description,
        "game": game.name,
        "players": case.players,
        "options": non_default_options(game.make_options(case.options)),
    }
    if case.board is not None:
        header["board"] = case.board
    header["seed"] = case.seed
    header["chooser"] = "legal[int(rng.random() * len(legal))], rng = random.Random(seed)"
    state = start(header)
    rng = random.Random(case.seed)
    steps = []
    while not state.is_over:
        legal = state.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        actor = state.actor
        state, events = state.step(action)
        steps.append(
            {
                "actor": actor,
                "legal": [str(a) for a in legal],
                "action": str(action),
                "events": [e.to_json() for e in events],
            }
        )
    assert state.result is not None
    final = start(header).playout(random.Random(case.seed))
    assert final == state and final.moves == state.moves, "playout disagrees with stepping"
    return {**header, "steps": steps, "result": state.result.to_json()}


def dumps(data: dict[str, Any]) -> str:
    """JSON with one key per line and one step per line (diffs show the steps that changed)."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key == "steps":
            lines.append(f"{json.dumps(key)}: [")
            for j, step in enumerate(value):
                lines.append(" " + json.dumps(step) + ("," if j < len(value) - 1 else ""))
            lines.append("]" + comma)
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == data
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="only compare with the files, write nothing"
    )
    args = parser.parse_args(argv)
    differ = 0
    for case in CASES:
        data = build(case)
        status = sync(HERE / f"{case.name}.json", dumps(data), not args.check)
        differ += status != "same"
        print(f"{case.name}: {len(data['steps'])} steps, {data['result']['reason']}: {status}")
    if differ and args.check:
        print(f"{differ} playthrough(s) differ; rerun without --check to rewrite them")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
