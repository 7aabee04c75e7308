"""One convention for every subcommand (issue 47): the same option for the same thing, sensible
defaults (no command requires ``--players``), a fresh random seed by default, printed so that
the run can be repeated, help that is never cut mid-sentence, and shell completion.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import click
import pytest

from bonepile.cli import cli
from cli_helpers import BONEPILE, ok, run

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[1]
SHARED = {
    "players": ["--players", "-n"],
    "options": ["--option", "-o"],
    "board": ["--board"],
    "seed": ["--seed", "-s"],
    "agent_list": ["--agents", "-a"],
    "agent_each": ["--agent"],
    "games": ["--games", "-k"],
    "workers": ["--workers", "-w"],
    "move_time": ["--move-time"],
    "progress_every": ["--progress"],
    "quiet": ["--quiet", "-q"],
    "as_json": ["--json"],
}
"""The options several commands share, by parameter name: their flags everywhere."""
DEALERS = ("watch", "arena", "play")
"""The commands that deal games between agents."""


def commands() -> dict[str, click.Command]:
    return dict(cli.commands)


def test_the_same_thing_has_the_same_option_everywhere() -> None:
    helps: dict[str, set[str]] = {}
    for name, command in commands().items():
        for param in command.params:
            if param.name in SHARED and isinstance(param, click.Option):
                assert param.opts + param.secondary_opts == SHARED[param.name], (name, param.opts)
                if param.name in ("players", "options", "board", "agent_each", "quiet"):
                    helps.setdefault(param.name, set()).add(param.help or "")
    assert all(len(texts) == 1 for texts in helps.values()), helps
    dealing = {"game", "players", "options", "board", "seed"}
    bots = {"agent_list", "agent_each"}
    for name, wanted in [("simulate", dealing), *((n, dealing | bots) for n in DEALERS)]:
        names = {p.name for p in commands()[name].params}
        assert wanted <= names, (name, wanted - names)


def test_no_command_requires_an_option() -> None:
    required = [
        (name, p.name)
        for name, command in commands().items()
        for p in command.params
        if isinstance(p, click.Option) and p.required
    ]
    assert required == []


@pytest.mark.parametrize(
    "args, players",
    [(["watch", "block"], 2), (["watch", "sd"], 4), (["simulate", "sd", "-k", "3"], 4)],
)
def test_players_default_to_the_games_usual_count(args: list[str], players: int) -> None:
    out = ok(run(*args))
    assert f"{players} players" in out.splitlines()[0], out.splitlines()[0]


def test_simulate_picks_a_random_seed_prints_it_and_the_seed_repeats_the_run() -> None:
    args = ["simulate", "block", "-k", "20", "--json"]
    first, second = (json.loads(ok(run(*args))) for _ in range(2))
    assert first["seed"] != second["seed"] and first["seed"] > 2**32
    again = json.loads(ok(run(*args, "--seed", str(first["seed"]))))
    assert again == first
    text = ok(run("simulate", "block", "-k", "5"))
    assert re.search(r", seed \d{10,}", text.splitlines()[0]), text


@pytest.mark.parametrize("columns", ["80", "60", "200"])
def test_the_command_list_is_never_cut_mid_sentence(columns: str) -> None:
    p = subprocess.run(
        [str(BONEPILE), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": columns},
    )
    listing = ok(p).split("Commands:", 1)[1]
    entries = re.split(r"\n  (?=\S)", "\n" + listing.rstrip())[1:]
    assert sorted(e.split()[0] for e in entries) == sorted(commands())
    for entry in entries:
        text = " ".join(entry.split()[1:])
        assert not text.endswith("...") and text.endswith("."), entry


def complete(words: str, shell: str = "bash") -> list[str]:
    """What ``bonepile`` offers for the last of ``words`` (Click's completion protocol)."""
    env = {
        **os.environ,
        "_BONEPILE_COMPLETE": f"{shell}_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - 1 + words.endswith(" ")),
    }
    p = subprocess.run([str(BONEPILE)], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    return p.stdout.splitlines()


def test_completion_offers_commands_games_options_and_files() -> None:
    for shell in ("bash", "zsh", "fish"):  # the script docs/cli.md has each shell load
        env = {**os.environ, "_BONEPILE_COMPLETE": f"{shell}_source"}
        p = subprocess.run([str(BONEPILE)], capture_output=True, text=True, timeout=120, env=env)
        assert p.returncode == 0 and "_BONEPILE_COMPLETE" in p.stdout, p.stderr
    assert complete("bonepile ar") == ["plain,arena"]
    assert complete("bonepile arena bl") == ["plain,block"]
    assert "plain,double_double" in complete("bonepile watch d")
    assert "plain,--quiet" in complete("bonepile arena block --q")
    assert complete("bonepile replay gam") == ["file,gam"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_the_bash_script_completes_in_bash() -> None:
    script = (
        'eval "$(_BONEPILE_COMPLETE=bash_source "$BONEPILE")"\n'
        'COMP_WORDS=(bonepile ar); COMP_CWORD=1; COMPREPLY=(); _bonepile_completion "$BONEPILE"\n'
        'echo "${COMPREPLY[@]}"\n'
        "COMP_WORDS=(bonepile simulate su); COMP_CWORD=2; COMPREPLY=()\n"
        '_bonepile_completion "$BONEPILE"; echo "${COMPREPLY[@]}"\n'
    )
    p = subprocess.run(
        ["bash", "--norc", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "BONEPILE": str(BONEPILE)},
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["arena", "super_dominoes super superdominoes"], p.stdout


def test_docs_cli_covers_every_command_and_completion() -> None:
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in commands():
        assert f"bonepile {name}" in page, name
    for shell in ("bash", "zsh", "fish"):
        assert f"_BONEPILE_COMPLETE={shell}_source bonepile" in page, shell
    assert "../shared/" not in page
