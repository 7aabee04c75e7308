"""The games' rules pages, as shipped with the package.

Each game has a page in ``docs/games/`` (``super_dominoes.md``, ``doubles.md``,
``double_double.md``, ``block.md``, ``draw.md``, and ``README.md`` as the index). The package
carries the same files as data in ``bonepile/game_pages/``, so an installed bonepile (editable
or not) can print them and the web app can serve them. A page's section under the heading
``## How to play in brief`` is the game's short summary, printed by ``bonepile rules GAME``.

>>> "six arms" in how_to_play("sd")
True
"""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from bonepile.errors import OptionError
from bonepile.games import Game, get_game

PAGES_PACKAGE_DIR = "game_pages"
"""The folder inside the ``bonepile`` package holding the pages (a link to docs/games)."""

DOCS_DIR = "docs/games"
"""Where the pages live in the project's source tree."""

INDEX_PAGE = "README.md"
"""The index of the rules pages."""

SUMMARY_HEADING = "## How to play in brief"
"""The heading of the section that :func:`how_to_play` returns."""

_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


def _game(game: str | Game[Any]) -> Game[Any]:
    return game if isinstance(game, Game) else get_game(game)


def page_name(game: str | Game[Any]) -> str:
    """The file name of ``game``'s rules page (aliases accepted): ``"super_dominoes.md"``."""
    return f"{_game(game).name}.md"


def docs_path(game: str | Game[Any]) -> str:
    """Where ``game``'s page is in the project: ``"docs/games/super_dominoes.md"``."""
    return f"{DOCS_DIR}/{page_name(game)}"


def pages_dir() -> Traversable:
    """The installed folder of rules pages."""
    return resources.files("bonepile").joinpath(PAGES_PACKAGE_DIR)


def page_file(game: str | Game[Any]) -> Traversable:
    """The installed file of ``game``'s rules page (it may be missing from a broken install)."""
    return pages_dir().joinpath(page_name(game))


def _read(name: str) -> str:
    try:
        return pages_dir().joinpath(name).read_text(encoding="utf-8")
    except OSError as e:
        raise OptionError(
            f"the rules page {name} is not installed with bonepile ({DOCS_DIR}/{name} "
            f"in the project; {e.strerror or e})"
        ) from None


def rules_page(game: str | Game[Any]) -> str:
    """The whole rules page of ``game`` (Markdown), read from the installed package.

    A game from outside the package gives its page as ``Game.rules_text``. Raises
    :class:`~bonepile.errors.OptionError` for an unknown game, or when the page is not
    installed.
    """
    text = _game(game).rules_text
    return text if text else _read(page_name(game))


def index_page() -> str:
    """The index of the rules pages (Markdown)."""
    return _read(INDEX_PAGE)


def section(page: str, heading: str) -> str:
    """The text under the Markdown heading ``heading`` (a whole line, e.g. ``"## Scoring"``) up
    to the next heading of the same or a higher level, stripped; ``""`` if there is none."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = page.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == heading.strip())
    except StopIteration:
        return ""
    out: list[str] = []
    fence = False
    for line in lines[start + 1 :]:
        if line.startswith("```"):
            fence = not fence
        if not fence and line.startswith("#"):
            hashes = len(line) - len(line.lstrip("#"))
            if hashes <= level and line[hashes : hashes + 1] == " ":
                break
        out.append(line)
    return "\n".join(out).strip()


def how_to_play(game: str | Game[Any]) -> str:
    """The short how-to-play summary of ``game`` (Markdown): its page's section under
    ``## How to play in brief``.

    Raises :class:`~bonepile.errors.OptionError` for an unknown game, a page that is not
    installed, or a page without that section.
    """
    text = section(rules_page(game), SUMMARY_HEADING)
    if not text:
        raise OptionError(f"{page_name(game)} has no section {SUMMARY_HEADING!r}")
    return text


def plain_text(markdown: str) -> str:
    """Markdown made fit for a terminal: links become their text; backticks and ``**``
    emphasis are dropped."""
    text = _LINK.sub(r"\1", markdown)
    return text.replace("**", "").replace("`", "")
