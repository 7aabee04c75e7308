"""Every record and every command the README and the docs show really works.

Records (JSON blocks holding a ``bonepile-record``) are read and replayed; command lines in
``sh`` blocks are run as the real ``bonepile`` command, with long runs cut short (``--games``
to 1, search bots to a few iterations) so that the test stays quick: what is checked is that
the command, its arguments and the files it names are right.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from bonepile.match_record import read_any
from cli_helpers import BONEPILE

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _blocks(kind: str) -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for k, block in enumerate(re.findall(rf"```{kind}\n(.*?)```", text, re.S)):
            found.append((f"{page.relative_to(ROOT)}#{k}", block))
    return found


RECORDS = [
    (where, block)
    for where, block in _blocks("json")
    if '"bonepile-record/' in block and '"..."' not in block and "[...]" not in block
]
COMMANDS = [
    (f"{where}:{line}", line)
    for where, block in _blocks("sh")
    for line in (raw.split(" #")[0].strip().removeprefix("$ ") for raw in block.splitlines())
    if re.match(r"(\.venv/bin/)?bonepile ", line)
]


def test_the_docs_show_records_and_commands() -> None:
    assert len(RECORDS) >= 1  # docs/records.md's (the README's moved there)
    assert len(COMMANDS) >= 20


@pytest.mark.parametrize("record", [r for _, r in RECORDS], ids=[w for w, _ in RECORDS])
def test_every_record_the_docs_show_replays(record: str) -> None:
    state = read_any(json.loads(record))
    assert state is not None


def _shortened(args: list[str], tmp: Path) -> list[str]:
    out = []
    for k, arg in enumerate(args):
        before = args[k - 1] if k else ""
        if before in ("--games", "-k"):
            arg = "1"
        elif before in ("--report", "--records", "--record"):
            arg = str(tmp / Path(arg).name)
        elif before in ("--agents", "-a"):
            arg = re.sub(r"\bismcts\b(?!:)", "ismcts:20", arg)
        out.append(arg)
    return out


@pytest.mark.parametrize("line", [c for _, c in COMMANDS], ids=[w for w, _ in COMMANDS])
def test_every_command_the_docs_show_runs(line: str, tmp_path: Path) -> None:
    import subprocess

    args = _shortened(shlex.split(line)[1:], tmp_path)
    if args[:1] == ["replay"] and args[1] == "block3.json":  # docs/records.md saves this record
        record = next(r for w, r in RECORDS if w.startswith("docs/records.md"))
        (tmp_path / "block3.json").write_text(record)
        args[1] = str(tmp_path / "block3.json")
    if args[:1] == ["arena"] and "--workers" not in args and "-w" not in args:
        args += ["--workers", "1"]
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    args = [a.replace("python3 ", sys.executable + " ") for a in args]
    p = subprocess.run(
        [str(BONEPILE), *args], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, f"{line}\n{p.stdout[-2000:]}\n{p.stderr}"
    assert "Traceback" not in p.stderr
