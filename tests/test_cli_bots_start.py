"""An external bot that cannot start is an error that says why, not a forfeit in every game
(issue 47): ``arena``, ``watch`` and ``play`` exit with status 2 and one line quoting the end of
what the bot wrote on its standard error; and a bot that exits mid-game forfeits with its last
words in the reason.
"""

from __future__ import annotations

import shlex
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bonepile.agents.external import _LIVE, AgentForfeit, BotStartError, ExternalAgent
from bonepile.arena import check_bots_start, run_arena
from bonepile.errors import OptionError
from bonepile.games import get_game
from bonepile.view import view
from cli_helpers import bad, ok, run

pytestmark = [pytest.mark.system, pytest.mark.skipif(sys.platform == "win32", reason="POSIX")]

EXITS = "external:" + shlex.join([sys.executable, "-c", "import sys; sys.exit(3)"])
"""A bot that exits at once, with status 3 and not a word."""


@pytest.fixture
def raising(tmp_path: Path) -> str:
    """A bot that raises as it starts (its model file is missing), after a line of its own."""
    script = tmp_path / "broken_bot.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys
            print("loading weights...", file=sys.stderr, flush=True)
            raise FileNotFoundError("no weights in /nowhere/model.bin")
            """
        )
    )
    return "external:" + shlex.join([sys.executable, str(script)])


@pytest.fixture(autouse=True)
def _no_bot_left() -> object:
    yield
    assert not _LIVE, f"bots still running: {list(_LIVE)}"


def test_arena_refuses_a_bot_that_exits_at_once_not_one_that_starts() -> None:
    started = time.monotonic()
    line = bad(run("arena", "block", "-a", f"random,{EXITS}", "-k", "5", "-w", "1"))
    assert "cannot start: it exited with status 3" in line, line
    assert "it wrote nothing on its standard error" in line, line
    assert time.monotonic() - started < 60
    # one that answers start and then crashes in every game is a forfeit in every game
    bot = Path(__file__).parent / "bots" / "crash_after_ready.py"
    spec = "external:" + shlex.join([sys.executable, str(bot)])
    out = ok(run("arena", "block", "-a", f"{spec},random", "-k", "1", "-w", "1", "-s", "1"))
    assert out.count("forfeit: game") == 2


def test_arena_quotes_the_end_of_what_the_bot_wrote(raising: str, tmp_path: Path) -> None:
    records = tmp_path / "records"
    line = bad(
        run("arena", "block", "-a", f"{raising},greedy", "-k", "3", "--records", str(records))
    )
    assert "broken_bot.py" in line and "cannot start: it exited with status 1" in line, line
    assert line.endswith("FileNotFoundError: no weights in /nowhere/model.bin"), line
    assert not list(records.glob("*.json"))  # before any game


def test_watch_refuses_a_bot_that_cannot_start(raising: str) -> None:
    p = run("watch", "block", "-a", f"{raising},random")
    assert p.returncode == 2 and "Traceback" not in p.stderr, (p.returncode, p.stderr)
    (line,) = p.stderr.splitlines()
    assert line.startswith("bonepile: error: P0 (") and "cannot start" in line, line
    assert "no weights in /nowhere/model.bin" in line, line
    assert "forfeits" not in p.stdout


def test_play_refuses_a_bot_that_cannot_start(raising: str) -> None:
    line = bad(run("play", "block", "-a", raising))
    assert "cannot start" in line and "no weights in /nowhere/model.bin" in line, line


def test_check_bots_start_in_python(raising: str) -> None:
    check_bots_start("block", ["random", "greedy"], 2)  # nothing external: nothing started
    with pytest.raises(OptionError, match="cannot start: it exited with status 1") as info:
        check_bots_start("block", ["random", raising], 2)
    assert "\n" not in str(info.value) and len(str(info.value)) < 500


def test_a_bot_never_ready_raises_bot_start_error_with_its_last_lines(raising: str) -> None:
    agent = ExternalAgent(shlex.split(raising.removeprefix("external:")))
    with pytest.raises(BotStartError) as info:
        agent.check_start(view(get_game("block").new(2, seed=1), 0))
    assert info.value.reason == "it exited with status 1"
    assert info.value.stderr is not None
    assert info.value.stderr.endswith("FileNotFoundError: no weights in /nowhere/model.bin")
    assert info.value.stderr.count(" | ") == 2  # its last three lines


def test_a_bot_that_exits_mid_game_forfeits_with_its_last_words(tmp_path: Path) -> None:
    bot = Path(__file__).parent / "bots" / "flaky.py"  # raises SystemExit("boom") on its 1st run
    spec = "external:" + shlex.join([sys.executable, str(bot), str(tmp_path / "runs")])
    result = run_arena("block", [spec, "greedy"], 2, seed=4, keep_outcomes=True, workers=1)
    first = result.outcomes[0].forfeit
    assert first is not None
    assert first[1] == "it exited with status 1; its standard error ended: 'boom'"


def test_a_bot_that_writes_a_lot_on_standard_error_plays_and_its_last_words_are_kept(
    tmp_path: Path,
) -> None:
    """Its standard error is read as it comes (it never blocks on a full pipe), and only its
    end is kept: here it writes a megabyte a message, and exits at its third decision."""
    script = tmp_path / "chatty.py"
    script.write_text(
        textwrap.dedent(
            """
            import json, sys
            decisions = 0
            for line in sys.stdin:
                message = json.loads(line)
                sys.stderr.write("thinking " * 100_000 + "\\n")
                if message["type"] == "start":
                    print(json.dumps({"type": "ready"}), flush=True)
                elif message["type"] == "act":
                    decisions += 1
                    if decisions == 3:
                        sys.exit("tired of talking")
                    print(json.dumps({"action": message["legal"][0]}), flush=True)
            """
        )
    )
    agent = ExternalAgent([sys.executable, str(script)], move_timeout=30)
    state = get_game("block").new(2, seed=1)
    with pytest.raises(AgentForfeit) as info:
        while state.actor is not None:  # its seat plays every turn, to its third decision
            state = state.apply(agent.act(view(state, state.actor)))
    said = "its standard error ended: 'tired of talking'"
    assert info.value.reason == f"it exited with status 1; {said}"
