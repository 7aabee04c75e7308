"""Hostile external bots: a bot must not be able to hurt the host or learn what it may not see.

Specs: docs/bots.md (limits, forfeits and process handling) and the security audit. A bot runs
in a process group of its own, and everything it starts ends with it, even when the host is
ended with SIGTERM; an answer line is bounded (``MAX_LINE``), must be UTF-8, and must come in
time; a bot that exits is noticed at once, even when a child keeps its output open; forfeit
reasons are one short printable line; a command that cannot start is an error before any game.
And the seed a bot is given, the small run seeds and the ``--records`` folder tell it nothing
about the deal it plays.

The hostile bots live in ``tests/bots/hostile/``.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bonepile.agents import RandomAgent, play_hand
from bonepile.agents.external import (
    _LIVE,
    MAX_LINE,
    AgentForfeit,
    BotStartError,
    ExternalAgent,
    check_command,
    close_all_bots,
)
from bonepile.agents.registry import make_agent
from bonepile.arena import run_arena
from bonepile.errors import OptionError
from bonepile.games import get_game
from bonepile.view import view
from cli_helpers import BONEPILE, bad, ok, run

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX"),
]

HERE = Path(__file__).resolve().parent
BOTS = HERE / "bots"
HOSTILE = BOTS / "hostile"
PY = sys.executable


def hostile(script: str, *args: str | Path) -> list[str]:
    """The command of one of the hostile bots."""
    return [PY, str(HOSTILE / script), *map(str, args)]


def spec(command: list[str]) -> str:
    """The agent spec of a command."""
    return "external:" + shlex.join(command)


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, exited but not reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat[stat.rfind(b")") + 2 :].split()[0] != b"Z"


def group_members(pgid: int) -> list[int]:
    """The running processes of process group ``pgid``."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return []
    except PermissionError:
        pass
    if not Path("/proc/self/stat").exists():
        return [pgid]
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_bytes()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if fields[0] != b"Z" and int(fields[2]) == pgid:
            members.append(int(entry.name))
    return members


def soon(check: Callable[[], bool], within: float = 3.0) -> bool:
    """Whether ``check()`` holds within ``within`` seconds (for a loaded machine)."""
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def wait_for_lines(path: Path, count: int, within: float = 15.0) -> list[dict[str, Any]]:
    """The first ``count`` JSON lines of ``path``, once a bot has written them."""
    assert soon(lambda: path.exists() and len(path.read_text().splitlines()) >= count, within), (
        f"{path} never got {count} lines"
    )
    return [json.loads(line) for line in path.read_text().splitlines()]


def forfeit_of(agent: ExternalAgent, seat: int = 1, seed: int = 1) -> tuple[AgentForfeit, float]:
    """Play a block hand with ``agent`` in ``seat``: the forfeit, and the seconds it took."""
    agents: list[Any] = [RandomAgent(3)]
    agents.insert(seat, agent)
    started = time.monotonic()
    with pytest.raises(AgentForfeit) as info:
        play_hand(get_game("block").new(2, seed=seed), agents)
    elapsed = time.monotonic() - started
    assert info.value.seat == seat
    assert agent._proc is None
    return info.value, elapsed


def assert_safe(reason: str) -> None:
    """A forfeit reason fit for a report line: short, one line, printable."""
    assert reason and len(reason) <= 200, reason
    assert reason.isprintable(), reason  # no newline, no escape sequence


@pytest.fixture(autouse=True)
def _no_bot_left() -> Iterator[None]:
    """Every test ends every bot it starts."""
    yield
    assert not _LIVE, f"bots still running: {list(_LIVE)}"


# ------------------------------------------------------------------------ process groups
def check_groups_gone(info: Path, runs: int) -> None:
    """Each bot run recorded in ``info`` had a group of its own, and nothing of it runs."""
    records = wait_for_lines(info, runs)
    assert len(records) == runs
    for r in records:
        assert r["pgid"] == r["pid"] != os.getpgid(0)  # a session (group) of its own
        assert soon(lambda r=r: not group_members(r["pgid"])), group_members(r["pgid"])
        for child in r["children"]:
            assert not running(child), child


def test_a_bots_children_end_with_it_in_the_arena(tmp_path: Path) -> None:
    info = tmp_path / "groups.jsonl"
    started = time.monotonic()
    agents = [spec(hostile("forker.py", info)), "random"]
    result = run_arena("block", agents, 1, seed=3, keep_outcomes=True)
    assert [o.forfeit for o in result.outcomes] == [None, None]
    assert time.monotonic() - started < 10
    check_groups_gone(info, 2)  # one process per game


def test_a_bots_children_end_when_it_forfeits(tmp_path: Path) -> None:
    info = tmp_path / "groups.jsonl"
    agent = ExternalAgent(hostile("forker.py", info, "hang"), move_timeout=0.5)
    reason, elapsed = forfeit_of(agent)
    assert reason.reason == "no answer within 0.5 s"
    assert elapsed < 4
    check_groups_gone(info, 1)


def test_close_all_bots_ends_every_live_bot(tmp_path: Path) -> None:
    info = tmp_path / "groups.jsonl"
    state = get_game("block").new(2, seed=1)
    agents = [ExternalAgent(hostile("forker.py", info, "hang")) for _ in range(2)]
    for seat, agent in enumerate(agents):
        agent.start(view(state, seat))
    assert len(_LIVE) == 2
    started = time.monotonic()
    close_all_bots()
    assert time.monotonic() - started < 3
    assert not _LIVE
    check_groups_gone(info, 2)
    with pytest.raises(AgentForfeit, match="exited"):  # an ended bot forfeits, it does not crash
        agents[0].act(view(state, 0))
    close_all_bots()  # again: nothing left to do
    for agent in agents:
        agent.close()


def test_sigterm_to_a_program_ends_its_bots(tmp_path: Path) -> None:
    """A program that turns SIGTERM into SystemExit (as the command line does) ends its bots,
    even without closing them itself: close_all_bots runs at exit."""
    info = tmp_path / "groups.jsonl"
    script = textwrap.dedent(
        f"""
        import time
        from bonepile.agents.external import ExternalAgent
        from bonepile.games import get_game
        from bonepile.view import view
        from bonepile.workers import end_on_sigterm

        end_on_sigterm()
        bot = ExternalAgent({hostile("forker.py", info, "hang")!r})
        bot.start(view(get_game("block").new(2, seed=1), 0))
        print("started", flush=True)
        time.sleep(60)
        """
    )
    host = subprocess.Popen([PY, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None and host.stdout.readline() == "started\n"
        host.send_signal(signal.SIGTERM)
        assert host.wait(timeout=10) != 0
    finally:
        host.kill()
        host.wait()
    check_groups_gone(info, 1)


def test_sigterm_to_the_command_line_ends_its_bots(tmp_path: Path) -> None:
    info = tmp_path / "groups.jsonl"
    bot = spec(hostile("forker.py", info, "hang"))
    host = subprocess.Popen(
        [str(BONEPILE), "watch", "block", "-n", "2", "--agents", f"{bot},random"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_lines(info, 1)
        time.sleep(0.3)  # it is asked to move, and hangs
        host.send_signal(signal.SIGTERM)
        assert host.wait(timeout=10) != 0
    finally:
        host.kill()
        host.wait()
    check_groups_gone(info, 1)


def test_a_child_holding_the_output_open_does_not_stall_the_game(tmp_path: Path) -> None:
    pids = tmp_path / "children"
    agent = ExternalAgent(hostile("orphan_stdout.py", pids), move_timeout=10.0)
    reason, elapsed = forfeit_of(agent)
    assert reason.reason == "it exited with status 5"
    assert elapsed < 4, elapsed  # noticed at once, not after the 10 s time limit
    child = int(pids.read_text().split()[0])
    assert soon(lambda: not running(child))


@pytest.mark.parametrize(
    "how, reason", [("7", "it exited with status 7"), ("kill", "it exited, killed by SIGKILL")]
)
def test_a_bot_that_dies_at_once_forfeits_with_the_true_reason(how: str, reason: str) -> None:
    agent = ExternalAgent(hostile("early_exit.py", how), start_timeout=10.0)
    forfeit, elapsed = forfeit_of(agent, seat=0)
    assert forfeit.reason == reason
    assert elapsed < 4


# ------------------------------------------------------------------------ what a bot writes
def test_an_endless_line_forfeits_quickly_in_bounded_memory(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import json, resource, time
        from bonepile.agents import RandomAgent, play_hand
        from bonepile.agents.external import AgentForfeit, ExternalAgent
        from bonepile.games import get_game

        bot = ExternalAgent({hostile("endless.py")!r}, move_timeout=20.0)
        state = get_game("block").new(2, seed=1)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.monotonic()
        try:
            play_hand(state, [bot, RandomAgent(1)])
            reason = None
        except AgentForfeit as e:
            reason = e.reason
        elapsed = time.monotonic() - started
        grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        print(json.dumps({{"reason": reason, "seconds": elapsed, "grew": grew}}))
        """
    )
    p = subprocess.run([PY, "-c", script], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["reason"] == f"answer too long (over {MAX_LINE} bytes)"
    assert out["seconds"] < 5, out
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, else KiB
    assert out["grew"] * scale < 32 * MAX_LINE, out  # a few MAX_LINEs at most, never 256 MB


def test_a_line_of_exactly_max_line_bytes_is_read(tmp_path: Path) -> None:
    answer = tmp_path / "answer"
    text = '{"action": "draw"' + " " * (MAX_LINE - 18) + "}"
    answer.write_text(text)
    assert answer.stat().st_size == MAX_LINE
    forfeit, _ = forfeit_of(ExternalAgent(hostile("file_reply.py", answer)))
    assert forfeit.reason == "'draw' is not legal here"  # read and parsed whole, not cut
    answer.write_text(text + " ")
    forfeit, _ = forfeit_of(ExternalAgent(hostile("file_reply.py", answer)))
    assert forfeit.reason == f"answer too long (over {MAX_LINE} bytes)"


def test_invalid_utf8_forfeits_without_a_traceback() -> None:
    errors: list[Any] = []
    old_hook = threading.excepthook
    threading.excepthook = errors.append
    try:
        forfeit, elapsed = forfeit_of(ExternalAgent(hostile("bad_utf8.py"), move_timeout=10.0))
    finally:
        threading.excepthook = old_hook
    assert forfeit.reason == "its answer is not valid UTF-8"
    assert elapsed < 4
    assert errors == []


def test_silence_forfeits_at_the_move_time_given_to_make_agent() -> None:
    agent = make_agent(spec([PY, str(BOTS / "silent.py")]), seed=1, move_time=0.5)
    assert isinstance(agent, ExternalAgent) and agent.move_timeout == 0.5
    forfeit, elapsed = forfeit_of(agent)
    assert forfeit.reason == "no answer within 0.5 s"
    assert elapsed < 3


def test_the_arena_command_passes_the_move_time() -> None:
    # seeded: a block deal can end blocked by its lead before the bot's first turn
    out = ok(
        run(
            "arena", "block", "--agent", spec([PY, str(BOTS / "silent.py")]), "--agent", "random",
            "--games", "1", "--workers", "1", "--move-time", "0.5", "--seed", "1",
        )
    )  # fmt: skip
    assert out.count("no answer within 0.5 s") == 2


def test_a_bot_that_stops_reading_forfeits_in_time() -> None:
    agent = ExternalAgent(hostile("deaf.py"))
    agent.start(view(get_game("block").new(2, seed=1), 0))
    started = time.monotonic()
    with pytest.raises(AgentForfeit) as info:
        agent._send({"type": "news", "pad": "x" * (8 << 20)}, 0.5)
    assert info.value.reason == "it did not read its input within 0.5 s"
    assert time.monotonic() - started < 3
    assert agent._proc is None


@pytest.mark.parametrize(
    "act_reply, start_reply, fragment",
    [
        ('{"action": "\\u001b[2J\\n' + "x" * 5000 + '"}', None, "is not an action"),
        ('{"action": "\\u202e6-6\\u0007"}', None, "is not an action"),
        ("\x1b]0;pwned\x07" + "y" * 5000, None, "not JSON"),
        ('["\\u001b[31m' + "z" * 5000 + '"]', None, "not a JSON object"),
        ('{"move": "\\n\\n' + "q" * 5000 + '"}', None, '"action"'),
        ("{}", '{"type": "hello\\r\\n\\u001b[1m' + "w" * 5000 + '"}', '"ready"'),
    ],
    ids=["action", "bidi", "garbage", "list", "no-action", "start"],
)
def test_forfeit_reasons_are_one_short_printable_line(
    act_reply: str, start_reply: str | None, fragment: str
) -> None:
    command = [PY, str(BOTS / "reply.py"), act_reply]
    if start_reply is not None:
        command.append(start_reply)
    forfeit, _ = forfeit_of(ExternalAgent(command))
    assert fragment in forfeit.reason
    assert_safe(forfeit.reason)
    assert_safe(str(forfeit))


def test_a_command_that_cannot_start_forfeits_with_a_safe_reason() -> None:
    agent = ExternalAgent(["/nonexistent/bot\n\x1b[2J" + "v" * 5000, "--flag"])
    forfeit, _ = forfeit_of(agent)
    assert forfeit.reason.startswith("cannot start '/nonexistent/bot\\n\\x1b[2J")
    assert_safe(forfeit.reason)


@pytest.mark.parametrize("when", ["start", "act"])
def test_what_a_bot_writes_on_standard_error_is_quoted_short_and_printable(
    tmp_path: Path, when: str
) -> None:
    """A bot's last words on standard error are quoted in why it lost, never raw: no escape
    sequence or newline reaches the terminal, and a huge line is cut."""
    script = tmp_path / "shouter.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            for line in sys.stdin:
                if json.loads(line)["type"] == {when!r}:
                    sys.stderr.write("e" * 50_000 + "\\n")
                    sys.stderr.write("\\x1b]0;pwned\\x07\\x1b[2J" + "e" * 300 + "\\n")
                    sys.exit(1)
                print(json.dumps({{"type": "ready"}}), flush=True)
            """
        )
    )
    agent = ExternalAgent([PY, str(script)])
    if when == "start":
        with pytest.raises(BotStartError) as info:
            agent.check_start(view(get_game("block").new(2, seed=1), 0))
        message = info.value.message("external:shouter.py")
        assert message.isprintable() and len(message) < 500, message
        assert "\\x1b]0;pwned" in message
        return
    forfeit, _ = forfeit_of(agent)
    assert forfeit.reason.startswith("it exited with status 1; its standard error ended: ")
    assert "\\x1b]0;pwned" in forfeit.reason
    assert_safe(forfeit.reason)


def test_a_bots_name_is_kept_short_and_printable() -> None:
    name = json.dumps({"type": "ready", "name": "\x1b[2J\n" + "n" * 5000})
    agent = ExternalAgent([PY, str(BOTS / "reply.py"), '{"action": "draw"}', name])
    forfeit_of(agent)
    assert agent.bot_name is not None and agent.bot_name.startswith("?[2J?nnn")
    assert len(agent.bot_name) <= 100 and agent.bot_name.isprintable()


# ------------------------------------------------------------------------ commands and options
def test_check_command_accepts_programs_that_can_start(tmp_path: Path) -> None:
    check_command([PY, "my_bot.py", "--fast"])  # only the program is checked
    check_command(["sh", "-c", "exit 0"])  # found on the PATH
    script = tmp_path / "bot"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    check_command([str(script)])


@pytest.mark.parametrize(
    "program, fragment",
    [
        ("/nonexistent/dir/bonepile-bot", "no such file"),
        ("DIR", "is a directory"),
        ("PLAIN", "not executable"),
        ("no-such-bot-here", "no such program on the PATH"),
        ("no-such\nbot\x1b[2J", "no such program on the PATH"),
        ("", "needs a command"),
    ],
)
def test_check_command_refuses_programs_that_cannot_start(
    tmp_path: Path, program: str, fragment: str
) -> None:
    plain = tmp_path / "plain.py"
    plain.write_text("print('hi')\n")
    program = {"DIR": str(tmp_path), "PLAIN": str(plain)}.get(program, program)
    for check in (
        lambda: check_command([program, "arg"]),
        lambda: make_agent("external:" + shlex.join([program, "arg"])),
    ):
        with pytest.raises(OptionError) as info:
            check()
        message = str(info.value)
        assert fragment in message and message.isprintable() and len(message) < 200, message
    assert not _LIVE  # nothing was started


def test_a_command_that_cannot_start_fails_before_the_first_game(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="cannot start"):
        run_arena("block", ["external:/nonexistent/dir/bot", "random"], 1, records=tmp_path / "r")
    assert not (tmp_path / "r").exists()  # before anything was played or written
    bad(
        run("arena", "block", "--agents", "random,external:no-such-bot-here", "--games", "1"),
        "cannot start",
        "no-such-bot-here",
    )
    bad(run("watch", "block", "-n", "2", "--agents", "external:/nonexistent/bot"), "no such file")


@pytest.mark.parametrize("bad_time", [0, -1, 0.0, float("nan"), float("inf"), True, "3"])
def test_make_agent_refuses_a_bad_move_time(bad_time: Any) -> None:
    for name in (spec([PY, str(BOTS / "silent.py")]), "greedy"):
        with pytest.raises(OptionError, match="time per move") as info:
            make_agent(name, move_time=bad_time)
        assert "\n" not in str(info.value)


def test_make_agent_takes_a_move_time() -> None:
    agent = make_agent(spec([PY, "bot.py"]), seed=5, move_time=2.5)
    assert isinstance(agent, ExternalAgent)
    assert (agent.move_timeout, agent.seed, agent._proc) == (2.5, 5, None)
    assert agent.start_timeout >= 2.5
    assert make_agent(spec([PY, "bot.py"])).move_timeout == 10.0  # type: ignore[attr-defined]
    make_agent("greedy", move_time=0.5)  # ignored by the built-in agents
    make_agent("ismcts:10", move_time=100)


# ------------------------------------------------------------------------ learning the deal
def reports(path: Path, games: int) -> list[dict[str, Any]]:
    """The spy bot's reports, one per game played (one hand each)."""
    found = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(found) == games, found
    for r in found:
        assert r["tried"] >= 0 and r["hand"], r
    return found


def test_a_bot_cannot_rebuild_the_deal_from_its_seed_in_the_arena(tmp_path: Path) -> None:
    out = tmp_path / "report.jsonl"
    bot = spec(hostile("inverter.py", out))
    result = run_arena("block", [bot, "random"], 2, seed=20261124, keep_outcomes=True)
    assert all(o.forfeit is None for o in result.outcomes)
    for r in reports(out, 4):
        assert r["tried"] > 0
        assert not r["found"], f"the bot rebuilt the deal from its seed: {r}"


def test_a_bot_cannot_rebuild_the_deal_from_its_seed_when_watched(tmp_path: Path) -> None:
    out = tmp_path / "report.jsonl"
    bot = spec(hostile("inverter.py", out))
    for extra in ([], ["--seed", "7"]):
        ok(run("watch", "block", "-n", "2", "--agents", f"random,{bot}", *extra))
    for r in reports(out, 2):
        assert not r["found"], f"the bot rebuilt the deal from its seed: {r}"


def test_a_bot_cannot_find_the_run_seed_among_small_seeds(tmp_path: Path) -> None:
    """By default a run's seed is not small (or otherwise guessable)."""
    arena, watch = tmp_path / "arena.jsonl", tmp_path / "watch.jsonl"
    commands = [
        ["arena", "block", "--agent", spec(hostile("seed_search.py", arena)), "--agent", "random",
         "--games", "1", "--workers", "1", "--move-time", "60"],
        ["watch", "block", "-n", "2", "--move-time", "60",
         "--agents", spec(hostile("seed_search.py", watch)) + ",random"],
    ]  # fmt: skip
    runs = [  # side by side: each bot searches for a second or two
        subprocess.Popen([str(BONEPILE), *c], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for c in commands
    ]
    outputs = []
    for p in runs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0 and b"Traceback" not in err, (out, err)
        # a bot that forfeits (too slow to start on a loaded machine, say) never reports
        assert b"forfeits: " not in out, out.decode(errors="replace")[-2000:]
        outputs.append(out.decode(errors="replace")[-2000:])
    found = [path.read_text().splitlines() if path.exists() else [] for path in (arena, watch)]
    assert [len(f) for f in found] == [2, 1], (found, outputs)  # one report a hand
    acted = [r for r in reports(arena, 2) + reports(watch, 1) if r["acted"]]
    assert acted  # a hand blocked by its lead gives the bot no turn: rarely all three
    for r in acted:
        assert not r["found"], f"the bot found the run seed: {r}"
        assert r["tried"] > 10_000


def test_a_bot_cannot_read_its_deal_in_the_records_folder(tmp_path: Path) -> None:
    """The records of a deal are written once every seating of it has been played."""
    records = tmp_path / "records"
    out = tmp_path / "report.jsonl"
    bot = spec(hostile("snoop.py", records, out))
    result = run_arena("block", [bot, "random"], 3, seed=11, records=records, keep_outcomes=True)
    assert all(o.forfeit is None for o in result.outcomes)
    found = reports(out, 6)
    for r in found:
        assert not r["found"], f"the bot read its own deal in the records: {r}"
    assert any(r["tried"] > 0 for r in found)  # it did see records, of other deals
    assert len(list(records.glob("*.json"))) == 6
