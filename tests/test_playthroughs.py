"""Golden playthroughs: whole seeded hands, replayed step by step against the files.

Each file in tests/golden/playthroughs/ is one hand written by tests/golden/make_playthroughs.py
(rerun it to regenerate them, deliberately: see its docstring): the header (game, players,
options, board, seed), then every step's actor, legal actions (in the engine's order), the
action taken and the events' full JSON, then the result. A replay stops at the first
difference and says where: the file, the step, the field and, for lists, the first item that
differs, never a whole diff.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bonepile.actions import parse_action
from bonepile.games import all_games, new_game
from bonepile.state import State

pytestmark = pytest.mark.engine

HERE = Path(__file__).parent / "golden" / "playthroughs"
FILES = sorted(HERE.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def start(data: dict[str, Any]) -> State[Any]:
    return new_game(
        data["game"],
        data["players"],
        options=data.get("options", {}),
        seed=data["seed"],
        board=data.get("board"),
    )


def first_difference(got: Any, want: Any, where: str = "") -> str | None:
    """Where ``got`` and ``want`` (JSON values) first differ, in a line; ``None`` if equal."""
    if got == want:
        return None
    if isinstance(got, list) and isinstance(want, list):
        for i, (g, w) in enumerate(zip(got, want, strict=False)):
            found = first_difference(g, w, f"{where}[{i}]")
            if found is not None:
                return found
        if len(got) != len(want):
            extra = (got if len(got) > len(want) else want)[min(len(got), len(want))]
            return (
                f"{where}: {len(got)} items, the file has {len(want)} "
                f"(the first extra: {json.dumps(extra)})"
            )
    if isinstance(got, dict) and isinstance(want, dict):
        for key in [*want, *(k for k in got if k not in want)]:
            if key not in got:
                return f"{where}.{key}: missing, the file has {json.dumps(want[key])}"
            if key not in want:
                return f"{where}.{key}: {json.dumps(got[key])}, not in the file"
            found = first_difference(got[key], want[key], f"{where}.{key}")
            if found is not None:
                return found
    return f"{where}: got {json.dumps(got)}, the file has {json.dumps(want)}"


def replay(path: Path) -> None:
    """Replay ``path``; fail at the first difference with the file, step and field."""
    data = load(path)
    state = start(data)
    name = path.name

    def fail(step: int | str, what: str) -> None:
        pytest.fail(f"{name}: step {step}: {what}", pytrace=False)

    for i, step in enumerate(data["steps"]):
        if state.is_over:
            fail(i, f"the hand is already over ({state.result}); the file goes on")
        if state.actor != step["actor"]:
            fail(i, f"actor is {state.actor}, the file has {step['actor']}")
        legal = [str(a) for a in state.legal_actions()]
        diff = first_difference(legal, step["legal"], "legal")
        if diff is not None:
            fail(i, diff)
        action = parse_action(step["action"])
        if action not in state.legal_actions():
            fail(i, f"{step['action']} is not legal")
        state, events = state.step(action)
        diff = first_difference([e.to_json() for e in events], step["events"], "events")
        if diff is not None:
            fail(i, f"after {step['action']}: {diff}")
    if not state.is_over:
        fail("end", f"the file ends but the hand does not (P{state.actor} to act)")
    assert state.result is not None
    diff = first_difference(state.result.to_json(), data["result"], "result")
    if diff is not None:
        fail("end", diff)


def test_the_files_cover_every_game() -> None:
    covered = {load(p)["game"] for p in FILES}
    assert covered >= {g.name for g in all_games()}, "a registered game has no playthrough"
    assert len(FILES) >= 8


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_replays(path: Path) -> None:
    replay(path)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playthrough_is_the_seeded_playout(path: Path) -> None:
    # The files were played with State.playout's choices from random.Random(seed).
    data = load(path)
    final = start(data).playout(random.Random(data["seed"]))
    assert [str(a) for a in final.moves] == [s["action"] for s in data["steps"]]


def test_a_difference_is_reported_with_file_step_and_field(tmp_path: Path) -> None:
    source = HERE / "block_2p_default.json"
    data = load(source)
    data["steps"][3]["legal"] = list(reversed(data["steps"][3]["legal"]))
    data["steps"][3]["legal"].append("6-6")
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(pytest.fail.Exception) as info:
        replay(broken)
    message = str(info.value)
    assert message.startswith("broken.json: step 3: legal[0]: got ")
    assert len(message) < 300

    data = load(source)
    event = data["steps"][5]["events"][0]
    key = next(k for k in event if k != "type")
    event[key] = "changed"
    broken.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(pytest.fail.Exception) as info:
        replay(broken)
    assert str(info.value).startswith(f"broken.json: step 5: after {data['steps'][5]['action']}: ")
    assert f"events[0].{key}" in str(info.value)
