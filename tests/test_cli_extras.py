"""A command whose optional packages (an extra) are missing says which extra to install, on one
line, and exits with status 2: never ``internal error: ModuleNotFoundError`` (issue 47).

Each case runs the command line in a fresh interpreter in which the extra's package cannot be
imported (``sys.modules[name] = None``), as after ``pip install bonepile`` without the extra.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bonepile.errors import EXTRAS
from bonepile.games import get_game
from bonepile.record import dump_record

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[1]
POLICY = str(ROOT / "examples" / "rl" / "block2.npz")
WITHOUT = (
    "import sys\n"
    "for name in sys.argv[1].split(','):\n"
    "    sys.modules[name] = None  # import name: ModuleNotFoundError, as if not installed\n"
    "from bonepile.cli import main\n"
    "main(sys.argv[2:])\n"
)
"""``python -c WITHOUT MODULES ARGS...``: the command line, with MODULES not installed."""
UNIFORM = re.compile(
    r"^bonepile: error: (.+) needs the (\w+) extra \((\w+) is missing\): "
    r"pip install 'bonepile\[(\w+)\]'$"
)


def without(modules: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``bonepile ARGS`` in ``cwd`` with ``modules`` (comma-separated) not importable."""
    return subprocess.run(
        [sys.executable, "-c", WITHOUT, modules, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "BONEPILE_LOGINS": str(cwd / "logins.json")},
    )


def one_line(p: subprocess.CompletedProcess[str]) -> str:
    """Exit status 2, nothing on standard output, one error line: that line."""
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert p.stdout == "" and "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    return lines[0]


@pytest.fixture
def record(tmp_path: Path) -> str:
    path = tmp_path / "hand.json"
    path.write_text(dump_record(get_game("block").new(2, seed=1)))
    return str(path)


@pytest.mark.parametrize(
    "missing, extra, args",
    [
        ("orjson", "server", ["serve", "--port", "1", "--data", "{tmp}/data"]),
        ("sqlalchemy", "server", ["serve", "--port", "1", "--data", "{tmp}/data"]),
        ("fastapi", "server", ["serve", "--port", "1", "--data", "{tmp}/data"]),
        ("uvicorn", "server", ["serve", "--port", "1", "--data", "{tmp}/data"]),
        ("sqlalchemy", "server", ["reports", "--data", "{tmp}"]),
        ("textual", "tui", ["play", "block"]),
        ("textual", "tui", ["replay", "{record}", "--step"]),
        ("websockets", "tui", ["play", "--join", "http://127.0.0.1:1/t/abc"]),
        ("websockets", "tui", ["play", "block", "--pair", "http://127.0.0.1:1"]),
        ("ray", "ray", ["arena", "block", "-a", "greedy,random", "-k", "1", "--ray", "local"]),
    ],
    ids=[
        "serve-orjson",
        "serve-sqlalchemy",
        "serve-fastapi",
        "serve-uvicorn",
        "reports",
        "play",
        "replay-step",
        "play-join",
        "play-pair",
        "arena-ray",
    ],
)
def test_a_command_without_its_extra_names_it(
    missing: str, extra: str, args: list[str], tmp_path: Path, record: str
) -> None:
    args = [a.format(tmp=tmp_path, record=record) for a in args]
    line = one_line(without(missing, *args, cwd=tmp_path))
    found = UNIFORM.match(line)
    assert found, line
    assert found.group(2) == found.group(4) == extra and found.group(3) == missing, line
    assert not (tmp_path / "data").exists()  # nothing was made before the check


@pytest.mark.parametrize(
    "agent",
    [f"policy:{POLICY}", f"ismcts:hard:prior={POLICY}"],
    ids=["policy", "ismcts-prior"],
)
def test_agents_without_the_rl_extra_name_it(agent: str, tmp_path: Path) -> None:
    for command in (["arena", "block", "-a", f"{agent},random"], ["watch", "block", "-a", agent]):
        line = one_line(without("numpy", *command, cwd=tmp_path))
        assert "the rl extra" in line and "pip install 'bonepile[rl]'" in line, line
        assert "numpy" in line, line


def test_commands_that_need_no_extra_run_without_any(tmp_path: Path, record: str) -> None:
    """A guard: login, logout and the engine's commands need no extra at all."""
    every = ",".join(sorted(EXTRAS))
    login = ["login", "http://127.0.0.1:1", "--name", "ann", "--password-stdin"]
    assert "cannot reach" in one_line(without(every, *login, cwd=tmp_path))
    for args in (
        ["logout", "http://127.0.0.1:1"],
        ["simulate", "block", "-k", "3", "--json"],
        ["arena", "block", "-a", "greedy,random", "-k", "1", "-w", "1", "--report", "r"],
        ["replay", record],
        ["perft", record, "2"],
    ):
        p = without(every, *args, cwd=tmp_path)
        assert p.returncode == 0 and "Traceback" not in p.stderr, (args, p.stderr)


def test_a_missing_extra_imported_deep_in_a_command_is_named(tmp_path: Path) -> None:
    """However deep in a command an extra's package is first imported, the line says what to
    install; a module of no extra is still a bug (an internal error, status 1)."""
    code = (
        "import sys, click\n"
        "sys.modules['orjson'] = None\n"
        "from bonepile.cli import cli, main\n"
        "@cli.command()\n"
        "def deep() -> None:\n"
        "    import orjson\n"
        "@cli.command()\n"
        "def broken() -> None:\n"
        "    import no_such_module_anywhere\n"
        "main(sys.argv[1:])\n"
    )
    runs = [
        subprocess.run([sys.executable, "-c", code, name], capture_output=True, text=True,
                       timeout=120, cwd=tmp_path)
        for name in ("deep", "broken")
    ]  # fmt: skip
    assert one_line(runs[0]) == (
        "bonepile: error: bonepile deep needs the server extra (orjson is missing): "
        "pip install 'bonepile[server]'"
    )
    assert runs[1].returncode == 1 and "internal error" in runs[1].stderr, runs[1].stderr


def test_the_extras_table_knows_every_package_of_every_extra() -> None:
    """Every package an extra of pyproject.toml installs is in errors.EXTRAS, under that extra
    (by the name it is imported as)."""
    spelled = {"argon2_cffi": "argon2", "pyyaml": "yaml"}
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for extra in ("server", "tui", "rl", "train", "report", "ray"):
        for requirement in extras[extra]:
            name = re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("-", "_")
            if name == "bonepile":
                continue
            module = spelled.get(name, name)
            assert EXTRAS.get(module) == extra, (extra, requirement, EXTRAS.get(module))
