"""``bonepile watch --agents``: bots at the table, and what a broken bot does to a watched game."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cli_helpers import bad, ok, run

pytestmark = pytest.mark.system

HEAVIEST = Path(__file__).resolve().parents[1] / "examples" / "bots" / "heaviest.py"


def test_watch_with_bots_plays_to_the_end() -> None:
    out = ok(run("watch", "block", "-n", "2", "-s", "4", "--agents", "ismcts:20,greedy"))
    assert "Result:" in out
    again = ok(run("watch", "block", "-n", "2", "-s", "4", "--agents", "ismcts:20,greedy"))
    assert again == out  # an iteration budget is reproducible


def test_watch_cycles_the_agents_round_the_table() -> None:
    out = ok(run("watch", "sd", "-n", "4", "-s", "2", "--agents", "greedy"))
    assert "Result:" in out


def test_watch_with_an_external_bot() -> None:
    bot = f"external:{sys.executable} {HEAVIEST}"
    out = ok(run("watch", "draw", "-n", "2", "-s", "1", "--agents", f"{bot},random"))
    assert "Result:" in out


def test_watch_reports_a_forfeit_instead_of_crashing() -> None:
    bot = f"external:{sys.executable} {Path(__file__).parent / 'bots' / 'garbage.py'}"
    # a seeded deal in which the bot has a turn (a block hand can end blocked by its lead)
    out = ok(run("watch", "block", "-n", "2", "-s", "1", "--agents", f"{bot},random"))
    assert "forfeits: its answer is not JSON" in out


def test_watch_refuses_a_bot_that_cannot_start_before_printing_anything() -> None:
    bad(
        run("watch", "block", "-n", "2", "--agents", "external:no-such-bot-here,random"),
        "cannot start",
        "no-such-bot-here",
    )


def test_watch_refuses_an_unknown_agent_before_printing_anything() -> None:
    bad(run("watch", "block", "-n", "2", "--agents", "nope"), "unknown agent 'nope'")
    bad(run("watch", "block", "-n", "2", "--agents", "ismcts:fast"), "ismcts takes a level")
