"""The games' rules pages (docs/games/, shipped as package data) and ``bonepile rules GAME``."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

import bonepile
from bonepile import rulebook
from bonepile.cli import main
from bonepile.errors import OptionError
from bonepile.games import Game
from bonepile.options import OptionSpec

pytestmark = pytest.mark.engine

ROOT = Path(__file__).resolve().parents[1]
GAMES = bonepile.all_games()
IDS = [g.name for g in GAMES]
FORBIDDEN = ("../shared", "RULES.md", "FORMATS.md")


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def _entry(args: tuple[str, ...]) -> None:
    """The real entry point, :func:`bonepile.cli.main`, as a click command for CliRunner."""
    main(list(args))


def run(*args: str) -> Result:
    """``bonepile ARGS`` through :func:`bonepile.cli.main`, in-process."""
    return CliRunner().invoke(_entry, list(args), catch_exceptions=False)


def _default_text(spec: OptionSpec) -> str:
    """An option's default as the pages write it: a choice bare, anything else as JSON."""
    return spec.default if isinstance(spec.default, str) else spec.format_value(spec.default)


def _option_rows(page: str) -> dict[str, str]:
    """The rows of the page's options table, by option name."""
    table = rulebook.section(page, "## Options")
    rows = {}
    for line in table.splitlines():
        m = re.match(r"\|\s*`(\w+)`\s*\|", line)
        if m:
            rows[m.group(1)] = line
    return rows


# ------------------------------------------------------------------------------ the pages
@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_game_has_a_page(game: Game) -> None:
    page = rulebook.rules_page(game.name)
    assert page.startswith("# "), page[:80]
    for alias in game.aliases:
        assert rulebook.rules_page(alias) == page
    for heading in ("## How to play in brief", "## Options", "## Where we settled the rules"):
        assert rulebook.section(page, heading), f"{game.name}: no {heading!r} section"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_game_has_a_summary(game: Game) -> None:
    summary = rulebook.how_to_play(game.name)
    lines = summary.splitlines()
    assert 10 <= len(lines) <= 25, f"{game.name}: a summary of {len(lines)} lines"
    assert summary in rulebook.rules_page(game)
    assert "##" not in summary


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_option_is_on_the_page_with_its_default(game: Game) -> None:
    rows = _option_rows(rulebook.rules_page(game))
    specs = game.option_specs()
    assert set(rows) == {s.name for s in specs}, f"{game.name}: the options table is stale"
    for spec in specs:
        row = rows[spec.name]
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        assert cells[1] == f"`{_default_text(spec)}`", f"{game.name}.{spec.name}: {row}"
        if spec.kind == "choice":
            for choice in spec.choices:
                assert f"`{choice}`" in row, f"{game.name}.{spec.name}: {choice} missing"
        if spec.kind == "bool":
            assert f"`{str(not spec.default).lower()}`" in row


def test_the_index_links_every_page() -> None:
    index = rulebook.index_page()
    for game in GAMES:
        assert f"]({rulebook.page_name(game)})" in index, game.name


def test_unknown_game() -> None:
    with pytest.raises(OptionError, match="unknown game"):
        rulebook.rules_page("chess")


def test_section_stops_at_the_next_heading_outside_code() -> None:
    page = "# T\n## A\none\n```\n## not a heading\n```\n### sub\ntwo\n## B\nthree\n"
    assert rulebook.section(page, "## A") == "one\n```\n## not a heading\n```\n### sub\ntwo"
    assert rulebook.section(page, "## B") == "three"
    assert rulebook.section(page, "## C") == ""


def test_plain_text() -> None:
    assert rulebook.plain_text("**a** `b` [c](d.md#e)") == "a b c"


def test_pages_are_installed_package_data() -> None:
    """The installed package holds the pages themselves (a link in a source tree, files in a
    regular install), with the same text as docs/games/."""
    folder = rulebook.pages_dir()
    names = {p.name for p in folder.iterdir() if p.name.endswith(".md")}
    expected = {rulebook.page_name(g) for g in GAMES} | {rulebook.INDEX_PAGE}
    assert expected <= names
    for name in expected:
        shipped = folder.joinpath(name).read_text(encoding="utf-8")
        source = (ROOT / rulebook.DOCS_DIR / name).read_text(encoding="utf-8")
        assert shipped == source, f"{folder}/{name} is stale: install bonepile again"


# ------------------------------------------------------------------------------ the command
@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_rules_prints_the_summary_before_the_options(game: Game) -> None:
    result = run("rules", game.name)
    assert result.exit_code == 0, result.output
    out = result.output
    summary = rulebook.plain_text(rulebook.how_to_play(game))
    first = summary.splitlines()[0]
    assert first in out
    options_at = out.index("Options (")
    assert out.index(first) < options_at
    flat_out = " ".join(out[:options_at].split())
    assert " ".join(summary.split()) in flat_out
    assert rulebook.docs_path(game) in out[:options_at]
    for spec in game.option_specs():
        assert re.search(rf"^\s*{spec.name}: ", out[options_at:], re.M), spec.name


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_no_summary_line_reads_like_an_option_line(game: Game) -> None:
    """Option lines start with the option's name; a summary line must not look like one."""
    names = {s.name for s in game.option_specs()}
    for line in rulebook.how_to_play(game).splitlines():
        words = re.findall(r"\w+", line)
        assert not words or words[0] not in names, line


def test_rules_without_a_game_lists_them() -> None:
    result = run("rules")
    assert result.exit_code == 0, result.output
    for game in GAMES:
        assert re.search(rf"^\s*{game.name}\b", result.output, re.M)
    assert rulebook.DOCS_DIR in result.output


def test_rules_alias_prints_the_same() -> None:
    assert run("rules", "sd").output == run("rules", "super_dominoes").output


# ------------------------------------------------------------------------------ the docs
def _doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("path", _doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_do_not_send_readers_outside_the_project(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for word in FORBIDDEN:
        assert word not in text, f"{path.relative_to(ROOT)} mentions {word}"


def _anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown file."""
    anchors = set()
    fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and re.match(r"#+ ", line):
            title = line.lstrip("#").strip().lower()
            anchors.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return anchors


@pytest.mark.parametrize("path", _doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_in_docs_resolve(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)", text):
        if "://" in target:
            continue
        where = f"{path.relative_to(ROOT)}: ({target}#{anchor})"
        file = path.parent / target if target else path
        assert file.exists(), where
        if anchor and file.suffix == ".md":
            assert anchor in _anchors(file), where
