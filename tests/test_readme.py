"""The README's Python examples run (and those of docs/python.md), and the games' index names
every game option."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bonepile.games import all_games

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "docs" / "python.md"]
BLOCKS = [
    (f"{page.name}#{k}", block)
    for page in PAGES
    for k, block in enumerate(re.findall(r"```python\n(.*?)```", page.read_text("utf-8"), re.S))
]
GAMES_INDEX = (ROOT / "docs" / "games" / "README.md").read_text(encoding="utf-8")


def test_the_readme_shows_python() -> None:
    assert sum(1 for where, _ in BLOCKS if where.startswith("README.md")) >= 2


@pytest.mark.parametrize("code", [b for _, b in BLOCKS], ids=[w for w, _ in BLOCKS])
def test_readme_example_runs(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})
    assert "Result(" in capsys.readouterr().out


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_the_games_index_lists_every_option(game: str) -> None:
    from bonepile.games import get_game

    missing = [s.name for s in get_game(game).option_specs() if f"`{s.name}`" not in GAMES_INDEX]
    assert missing == []
