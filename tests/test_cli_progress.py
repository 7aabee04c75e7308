"""A long ``arena`` or ``simulate`` run tells how far it has got on standard error, never on
standard output (issue 47): off a terminal a line every few seconds, on one a live bar;
``--quiet`` tells nothing.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import time
from typing import Any

import pytest

from bonepile.arena.progress import RunProgress, duration
from cli_helpers import BONEPILE, ok, run

pytestmark = pytest.mark.system

ARENA = ["arena", "block", "-a", "ismcts:easy,greedy", "-k", "40", "-w", "1", "-s", "5", "--json"]
"""An arena run of a second or more (80 hands), with a fixed seed."""
LINE = re.compile(
    r"^bonepile: arena: \d+ of 80 hands \(40 deals x 2 seatings\), \d+%, "
    r"\d.* so far, (about \d.* left|time left not known yet)$"
)


def results(stdout: str) -> list[Any]:
    """What an arena's JSON says about the agents, less their times (which vary)."""
    data = json.loads(stdout)
    return [{k: v for k, v in r.items() if "ms" not in k and "time" not in k}
            for r in data["results"]]  # fmt: skip


def test_arena_progress_goes_to_standard_error_and_stdout_is_unchanged() -> None:
    told = run(*ARENA, "--progress", "0.05")
    quiet = run(*ARENA, "--quiet")
    lines = told.stderr.splitlines()
    assert lines, "no progress line on standard error"
    for line in lines:
        assert LINE.match(line), line
    assert quiet.stderr == ""
    assert results(ok(told)) == results(ok(quiet))  # the same JSON, and nothing else
    assert "bonepile:" not in told.stdout
    quick = run("arena", "block", "-a", "greedy,random", "-k", "2", "-w", "1", "--progress", "30")
    assert ok(quick) and quick.stderr == ""  # the first line comes after --progress seconds


def test_simulate_progress_goes_to_standard_error() -> None:
    args = ["simulate", "draw", "-n", "3", "-k", "3000", "-s", "2"]
    told = run(*args, "--progress", "0.02")
    assert re.search(r"^bonepile: simulate: [\d,]+ of 3,000 hands, \d+%, ", told.stderr, re.M)
    assert run(*args, "-q").stderr == ""
    assert "bonepile: simulate" not in ok(told)


def test_on_a_terminal_the_bar_is_live_and_stdout_still_only_json() -> None:
    controller, terminal = pty.openpty()
    try:
        p = subprocess.Popen(
            [str(BONEPILE), *ARENA],
            stdout=subprocess.PIPE,
            stderr=terminal,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        os.close(terminal)
        seen = bytearray()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # the command ended: the terminal is closed
                break
            if not chunk:
                break
            seen += chunk
        out, _ = p.communicate(timeout=120)
    finally:
        os.close(controller)
    assert p.returncode == 0
    shown = seen.decode(errors="replace")
    assert "hands" in shown and "so far" in shown, shown[-500:]
    assert "\r" in shown  # rewritten in place
    assert json.loads(out)["games"] == 80


def test_the_progress_line_counts_and_estimates() -> None:
    now = [100.0]
    stream = io.StringIO()
    progress = RunProgress(
        "arena", 400, "hands", every=5, detail="(200 deals x 2 seatings)", stream=stream,
        clock=lambda: now[0],
    )  # fmt: skip
    with progress:
        assert progress.line().endswith("0%, 0 s so far, time left not known yet")
        now[0] += 64
        progress.advance(120)
        assert progress.line() == (
            "bonepile: arena: 120 of 400 hands (200 deals x 2 seatings), 30%, 1 min 04 s so "
            "far, about 2 min 29 s left"
        )
    assert stream.getvalue() == ""  # the clock thread's lines come every 5 real seconds


@pytest.mark.parametrize(
    "seconds, text",
    [(0.4, "0 s"), (59.4, "59 s"), (64, "1 min 04 s"), (7325, "2 h 02 min"), (3e5, "3.5 days")],
)
def test_durations_read_easily(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_progress_and_quiet_are_the_same_options_everywhere() -> None:
    for command in ("arena", "simulate", "perft"):
        help_text = ok(run(command, "--help"))
        assert "--progress SECONDS" in help_text and "-q, --quiet" in help_text, command
