"""Running the installed ``bonepile`` command in tests, and the bad-input contract."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BONEPILE = Path(sys.executable).parent / "bonepile"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real console script."""
    return subprocess.run(
        [str(BONEPILE), *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def ok(p: subprocess.CompletedProcess[str]) -> str:
    """Exit status 0 and no traceback; the standard output."""
    assert p.returncode == 0, f"exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert "Traceback" not in p.stdout + p.stderr
    return p.stdout


def bad(p: subprocess.CompletedProcess[str], *fragments: str) -> str:
    """Exit status 2, nothing on stdout, one ``bonepile: error:`` line holding ``fragments``."""
    assert p.returncode == 2, f"exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    assert p.stdout == "" and "Traceback" not in p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bonepile: error: "), p.stderr
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]
