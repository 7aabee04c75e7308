"""The README's Python examples run, and it names every game option."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bonepile.games import all_games

pytestmark = pytest.mark.system

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})
    assert "Result(" in capsys.readouterr().out


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_readme_lists_every_option(game: str) -> None:
    from bonepile.games import get_game

    missing = [s.name for s in get_game(game).option_specs() if f"`{s.name}`" not in README]
    assert missing == []
