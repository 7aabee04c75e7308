"""Every ``bonepile`` command against hostile arguments and inputs, in real subprocesses.

Each case runs the installed console script with a time limit and an address-space limit and
must end the way the command-line contract says: exit status 2 (0 where the input is in fact
fine), exactly one line on standard error starting with ``bonepile: error:``, a short one, and
never a traceback. Each case is a test of its own, so a parallel run (``make test``) spreads
them over the workers.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bonepile.games import get_game
from bonepile.record import dump_record

pytestmark = pytest.mark.system

BONEPILE = str(Path(sys.executable).parent / "bonepile")
TIMEOUT = 60.0
"""Seconds a case may run: a command that hangs on hostile input fails its case."""
MEMORY = 2 * 1024**3
"""The address space a case may use (bytes): a command that balloons on hostile input fails."""
MAX_STDERR = 1000
"""The most standard error a rejected case may print (bytes)."""

DIGITS = "9" * 5000
NEST = "[" * 3000 + "]" * 3000
Arg = str | bytes


@dataclass(frozen=True)
class Case:
    """One hostile run: its arguments (``{name}`` stands for a prepared file), where its
    standard input and output go, extra environment, and the exit status it must end with."""

    args: tuple[Arg, ...]
    expect: int = 2
    stdin: str | None = None  # a prepared file's name, or a path, fed as standard input
    stdout: str | None = None  # a path standard output goes to (else captured)
    env: dict[str, str] = field(default_factory=dict)


def case(*args: Arg, expect: int = 2, **kw: Any) -> Case:
    return Case(tuple(args), expect, **kw)


CASES: dict[str, Case] = {
    # ---------------------------------------------------------------- rules
    "rules-ok": case("rules", "block", expect=0),
    "rules-huge-name": case("rules", "x" * 5000),
    "rules-non-utf8-arg": case("rules", b"bl\xffock"),
    "rules-cp1252": case("rules", "super_dominoes", expect=0, env={"PYTHONIOENCODING": "cp1252"}),
    "rules-dev-full": case("rules", "block", stdout="/dev/full"),
    # ---------------------------------------------------------------- board
    "board-ok": case("board", "small", expect=0),
    "board-dev-zero": case("board", "/dev/zero"),
    "board-directory": case("board", "{dir}"),
    "board-fifo": case("board", "{fifo}"),
    "board-huge-file": case("board", "{huge}"),
    "board-nested": case("board", "{nested}"),
    "board-huge-number": case("board", "{board_digits}"),
    "board-non-utf8-file": case("board", "{latin}"),
    "board-non-utf8-arg": case("board", b"\xff\xfe.json"),
    "board-long-name": case("board", "b" * 100_000),
    # ---------------------------------------------------------------- replay
    "replay-ok": case("replay", "{good}", expect=0),
    "replay-ok-stdin": case("replay", "-", stdin="{good}", expect=0),
    "replay-cp1252": case("replay", "{good}", expect=0, env={"PYTHONIOENCODING": "cp1252"}),
    "replay-dev-full": case("replay", "{good}", stdout="/dev/full"),
    "replay-huge-score": case("replay", "{score_digits}"),
    "replay-big-score": case("replay", "{score_big}"),
    "replay-huge-seed": case("replay", "{seed_digits}"),
    "replay-long-move": case("replay", "{long_move}"),
    "replay-long-space-move": case("replay", "{space_move}"),
    "replay-nested": case("replay", "{nested}"),
    "replay-nested-stdin": case("replay", "-", stdin="{nested}"),
    "replay-dev-zero": case("replay", "/dev/zero"),
    "replay-dev-zero-stdin": case("replay", "-", stdin="/dev/zero"),
    "replay-directory": case("replay", "{dir}"),
    "replay-fifo": case("replay", "{fifo}"),
    "replay-huge-file": case("replay", "{huge}"),
    "replay-non-utf8-file": case("replay", "{latin}"),
    "replay-non-utf8-stdin": case("replay", "-", stdin="{latin}"),
    "replay-non-utf8-arg": case("replay", b"r\xe9cord.json"),
    "replay-missing": case("replay", "{dir}/missing.json"),
    "replay-long-path": case("replay", "r" * 100_000),
    "replay-json-dev-full": case("replay", "{good}", "--json", stdout="/dev/full"),
    # ---------------------------------------------------------------- perft
    "perft-ok": case("perft", "{good}", "2", expect=0),
    "perft-huge-depth": case("perft", "{good}", DIGITS),
    "perft-negative-depth": case("perft", "{good}", "-1"),
    "perft-deep-stops": case("perft", "{draw}", "40", "--max-nodes", "10000"),
    "perft-divide-stops": case("perft", "{draw}", "40", "--divide", "--max-nodes", "10000"),
    "perft-zero-nodes": case("perft", "{good}", "2", "--max-nodes", "0"),
    "perft-huge-nodes": case("perft", "{good}", "1", "--max-nodes", DIGITS),
    "perft-big-nodes": case("perft", "{good}", "1", "--max-nodes", str(10**30), expect=0),
    "perft-nested": case("perft", "{nested}", "1"),
    "perft-dev-zero-stdin": case("perft", "-", "1", stdin="/dev/zero"),
    "perft-dev-full": case("perft", "{good}", "1", stdout="/dev/full"),
    # ---------------------------------------------------------------- simulate
    "simulate-ok": case("simulate", "block", "-n", "2", "-k", "3", expect=0),
    "simulate-negative-games": case("simulate", "block", "-n", "2", "-k", "-5"),
    "simulate-zero-games": case("simulate", "block", "-n", "2", "-k", "0"),
    "simulate-huge-games": case("simulate", "block", "-n", "2", "-k", "1" + "0" * 30),
    "simulate-digits-games": case("simulate", "block", "-n", "2", "-k", DIGITS),
    "simulate-digits-players": case("simulate", "block", "-n", DIGITS),
    "simulate-huge-players": case("simulate", "block", "-n", "1000000"),
    "simulate-negative-players": case("simulate", "block", "-n", "-2"),
    "simulate-negative-seed": case("simulate", "block", "-n", "2", "-s", "-1"),
    "simulate-huge-seed": case("simulate", "block", "-n", "2", "-s", str(2**64)),
    "simulate-digits-option": case("simulate", "block", "-n", "2", "-o", f"target_score={DIGITS}"),
    "simulate-long-option-name": case("simulate", "block", "-n", "2", "-o", "x" * 5000 + "=1"),
    "simulate-nested-option": case("simulate", "block", "-n", "2", "-o", f"target_score={NEST}"),
    "simulate-inf-option": case("simulate", "block", "-n", "2", "-o", "target_score=1e400"),
    "simulate-nan-option": case("simulate", "block", "-n", "2", "-o", "target_score=NaN"),
    "simulate-zero-workers": case("simulate", "block", "-n", "2", "-w", "0"),
    "simulate-huge-workers": case("simulate", "block", "-n", "2", "-w", "1" + "0" * 20),
    "simulate-board-dev-zero": case("simulate", "ddd", "-n", "2", "--board", "/dev/zero"),
    "simulate-board-fifo": case("simulate", "ddd", "-n", "2", "--board", "{fifo}"),
    "simulate-records-file": case("simulate", "block", "-n", "2", "-k", "1", "--records", "{good}"),
    "simulate-records-dev-full": case(
        "simulate", "block", "-n", "2", "-k", "1", "--records", "/dev/full/x"
    ),
    "simulate-dev-full": case("simulate", "block", "-n", "2", "-k", "2", stdout="/dev/full"),
    "simulate-non-utf8-option": case("simulate", "block", "-n", "2", "-o", b"lead=\xff"),
    # ---------------------------------------------------------------- watch
    # ---------------------------------------------------------------- play
    "play-huge-name": case("play", "x" * 5000),
    "play-non-utf8-arg": case("play", b"bl\xffock"),
    "play-pace-nan": case("play", "block", "--pace", "nan"),
    "play-seat-digits": case("play", "block", "--seat", DIGITS),
    "play-players-digits": case("play", "block", "-n", DIGITS),
    "play-resume-directory": case("play", "--resume", "--save", "{dir}"),
    "play-resume-dev-zero": case("play", "--resume", "--save", "/dev/zero"),
    "play-join-huge": case("play", "--join", "http://" + "x" * 5000),
    "play-join-nothing-there": case("play", "--join", "http://127.0.0.1:1/t/abc"),
    "play-pair-nothing-there": case("play", "block", "--pair", "http://127.0.0.1:1"),
    "play-rated-alone": case("play", "block", "--rated"),
    # ---------------------------------------------------------------- login, logout
    "login-nothing-there": case(
        "login", "http://127.0.0.1:1", "--name", "ann", "--password-stdin", stdin="/dev/null"
    ),
    "login-huge": case(
        "login", "http://" + "x" * 5000, "--name", "a", "--password-stdin", stdin="/dev/null"
    ),
    "login-not-an-address": case(
        "login", "nowhere", "--name", "ann", "--password-stdin", stdin="/dev/null"
    ),
    "reports-no-database": case("reports", "--data", "/proc/no/such/folder"),
    "reports-database-unknown": case("reports", "--database", "bogus://x"),
    "reports-limit-digits": case("reports", "--limit", DIGITS),
    "logout-not-signed-in": case(
        "logout", "http://127.0.0.1:1", expect=0, env={"BONEPILE_LOGINS": "/no/such/logins"}
    ),
    "replay-step-stdin": case("replay", "-", "--step"),
    "watch-ok": case("watch", "block", "-n", "2", "-s", "1", expect=0),
    "watch-cp1252": case(
        "watch", "sd", "-n", "2", "-s", "1", expect=0, env={"PYTHONIOENCODING": "cp1252"}
    ),
    "watch-dev-full": case("watch", "block", "-n", "2", "-s", "1", stdout="/dev/full"),
    "watch-delay-inf": case("watch", "block", "-n", "2", "--delay", "inf"),
    "watch-delay-nan": case("watch", "block", "-n", "2", "--delay", "nan"),
    "watch-delay-1e400": case("watch", "block", "-n", "2", "--delay", "1e400"),
    "watch-delay-negative": case("watch", "block", "-n", "2", "--delay", "-1"),
    "watch-delay-digits": case("watch", "block", "-n", "2", "--delay", DIGITS),
    "watch-move-time-nan": case("watch", "block", "-n", "2", "--move-time", "nan"),
    "watch-agents-empty": case("watch", "block", "-n", "2", "--agents", ""),
    "watch-agents-commas": case("watch", "block", "-n", "2", "--agents", ",,"),
    "watch-agents-unknown": case("watch", "block", "-n", "2", "--agents", "nosuch"),
    "watch-agents-huge": case("watch", "block", "-n", "2", "--agents", "a" * 100_000),
    "watch-agents-non-utf8": case("watch", "block", "-n", "2", "--agents", b"r\xffandom"),
    "watch-ismcts-huge-level": case("watch", "block", "-n", "2", "--agents", f"ismcts:{DIGITS}"),
    "watch-record-directory": case("watch", "block", "-n", "2", "-s", "1", "--record", "{dir}"),
    "watch-record-dev-full": case("watch", "block", "-n", "2", "-s", "1", "--record", "/dev/full"),
    "watch-record-no-folder": case(
        "watch", "block", "-n", "2", "-s", "1", "--record", "{dir}/no/such/r.json"
    ),
    "watch-digits-seed": case("watch", "block", "-n", "2", "-s", DIGITS),
    "watch-digits-option": case("watch", "block", "-n", "2", "-o", f"target_score={DIGITS}"),
    # ---------------------------------------------------------------- arena
    "arena-ok": case(
        "arena", "block", "--agents", "random,greedy", "-k", "1", "-w", "1", "-s", "1", expect=0
    ),
    "arena-agents-empty": case("arena", "block", "--agents", ""),
    "arena-agents-commas": case("arena", "block", "--agents", ",,"),
    "arena-agents-one": case("arena", "block", "--agents", "random"),
    "arena-agents-unknown": case("arena", "block", "--agents", "random,nosuch"),
    "arena-agents-huge": case("arena", "block", "--agents", "random," + "a" * 100_000),
    "arena-agents-non-utf8": case("arena", "block", "--agents", b"random,gr\xffeedy"),
    "arena-games-zero": case("arena", "block", "--agents", "random,greedy", "-k", "0"),
    "arena-games-negative": case("arena", "block", "--agents", "random,greedy", "-k", "-1"),
    "arena-games-digits": case("arena", "block", "--agents", "random,greedy", "-k", DIGITS),
    "arena-games-huge": case(
        "arena", "block", "--agents", "random,greedy", "-k", "1" + "0" * 30, "-w", "1"
    ),
    "arena-workers-zero": case("arena", "block", "--agents", "random,greedy", "-w", "0"),
    "arena-workers-huge": case(
        "arena", "block", "--agents", "random,greedy", "-k", "1", "-w", "1" + "0" * 20
    ),
    "arena-move-time-inf": case(
        "arena", "block", "--agents", "random,greedy", "--move-time", "inf"
    ),
    "arena-move-time-negative": case(
        "arena", "block", "--agents", "random,greedy", "--move-time", "-1"
    ),
    "arena-players-digits": case("arena", "block", "--agents", "random,greedy", "-n", DIGITS),
    "arena-digits-option": case(
        "arena", "block", "--agents", "random,greedy", "-o", f"target_score={DIGITS}"
    ),
    "arena-report-dev-full": case(
        "arena", "block", "--agents", "random,greedy", "-k", "1", "--report", "/dev/full"
    ),
    "arena-report-file": case(
        "arena", "block", "--agents", "random,greedy", "-k", "1", "--report", "{good}"
    ),
    "arena-board-dev-zero": case(
        "arena", "ddd", "--agents", "random,greedy", "--board", "/dev/zero"
    ),
    "arena-dev-full": case(
        "arena", "block", "--agents", "random,greedy", "-k", "1", "-w", "1", stdout="/dev/full"
    ),
    # ---------------------------------------------------------------- serve (never starts)
    "serve-port-text": case("serve", "--port", "0x", "--data", "{dir}/data"),
    "serve-port-huge": case("serve", "--port", DIGITS, "--data", "{dir}/data"),
    "serve-bot-pace-negative": case("serve", "--bot-pace", "-1", "--data", "{dir}/data"),
    "serve-data-is-a-file": case("serve", "--data", "{good}"),
    "serve-data-unmakeable": case("serve", "--data", "/proc/no/such/folder"),
    "serve-database-unknown": case("serve", "--data", "{dir}/data", "--database", "bogus://x"),
    "serve-database-unreachable": case(
        "serve", "--data", "{dir}/data", "--database", "postgresql://nobody@127.0.0.1:1/x"
    ),
}


def _limits() -> None:
    """In the child, before it runs: cap its address space (an input that makes it balloon
    fails the case instead of the machine)."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _record(**changes: Any) -> dict[str, Any]:
    state = get_game("block").new(2, seed=3)
    for _ in range(4):
        state = state.apply(state.legal_actions()[0])
    rec: dict[str, Any] = json.loads(dump_record(state))
    rec.update(changes)
    return rec


def prepare(folder: Path) -> dict[str, str]:
    """The files the cases name, made in ``folder``: name -> path."""
    good = json.dumps(_record())
    files: dict[str, str | bytes] = {
        "good": good,
        "draw": dump_record(get_game("draw").new(2, seed=3)),
        "score_digits": good.replace('"moves"', f'"scores_before": [{DIGITS}, 0], "moves"'),
        "score_big": json.dumps(_record(scores_before=[10**30, 0])),
        "seed_digits": good.replace('"seed": 3', f'"seed": {DIGITS}'),
        "long_move": json.dumps(_record(moves=["6-" + "6" * 1_000_000])),
        "space_move": json.dumps(_record(moves=["6-6" + " " * 1_000_000 + "x"])),
        "nested": NEST,
        "board_digits": json.dumps({"rows": 1, "cols": 2}).replace("1", DIGITS, 1),
        "latin": b'{"format": "bonepile-record/1", "game": "caf\xe9", "players": 2}',
    }
    paths = {}
    for name, content in files.items():
        path = folder / f"{name}.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        paths[name] = str(path)
    huge = folder / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(64 * 1024**3)  # sparse: 64 GiB that take no disk
    paths["huge"] = str(huge)
    (folder / "dir").mkdir()
    paths["dir"] = str(folder / "dir")
    os.mkfifo(folder / "fifo")  # nobody ever writes to it
    paths["fifo"] = str(folder / "fifo")
    return paths


def _fill(arg: Arg, paths: dict[str, str]) -> Arg:
    return arg.format(**paths) if isinstance(arg, str) and "{" in arg else arg


@dataclass(frozen=True)
class Outcome:
    """How a case ended: its exit status (``None`` when it timed out) and its output."""

    status: int | None
    stdout: bytes
    stderr: bytes


def execute(c: Case, paths: dict[str, str]) -> Outcome:
    """Run one case to its end, or to its time limit."""
    args: list[Arg] = [BONEPILE, *(_fill(a, paths) for a in c.args)]
    env = {k: v for k, v in os.environ.items() if k != "BONEPILE_DEBUG"} | c.env
    stdin_path = None if c.stdin is None else str(_fill(c.stdin, paths))
    with (
        open(stdin_path or os.devnull, "rb") as stdin,
        open(c.stdout, "wb") if c.stdout else contextlib.nullcontext(subprocess.PIPE) as stdout,
    ):
        try:
            p = subprocess.run(
                args,
                stdin=stdin,
                stdout=stdout,
                stderr=subprocess.PIPE,
                env=env,
                timeout=TIMEOUT,
                preexec_fn=_limits,
                check=False,
            )
        except subprocess.TimeoutExpired as e:
            return Outcome(None, e.stdout or b"", e.stderr or b"")
    return Outcome(p.returncode, p.stdout or b"", p.stderr)


@pytest.fixture(scope="session")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The files the cases name, made once a session (once a worker in a parallel run)."""
    return prepare(tmp_path_factory.mktemp("hostile"))


def check(outcome: Outcome, expect: int, what: str) -> None:
    """The command-line contract for one run."""
    err = outcome.stderr.decode("utf-8", "replace")
    out = outcome.stdout.decode("utf-8", "replace")
    assert outcome.status is not None, f"{what}: still running after {TIMEOUT:g} s\n{err[:500]}"
    assert "Traceback" not in err and "Traceback" not in out, f"{what}: a traceback\n{err[-2000:]}"
    if expect == 0:
        assert outcome.status == 0, f"{what}: exit {outcome.status}, expected 0\n{err[:500]}"
        return
    lines = err.splitlines()
    assert outcome.status == expect, (
        f"{what}: exit {outcome.status}, expected {expect}\n{err[:500]}"
    )
    assert len(lines) == 1, f"{what}: {len(lines)} lines on stderr\n{err[:1000]}"
    assert lines[0].startswith("bonepile: error: "), f"{what}: {lines[0][:300]}"
    assert len(outcome.stderr) <= MAX_STDERR, f"{what}: {len(outcome.stderr):,} bytes on stderr"


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_input(name: str, paths: dict[str, str]) -> None:
    """``bonepile ARGS`` ends as the contract says, whatever ARGS and its input hold."""
    outcome = execute(CASES[name], paths)
    check(outcome, CASES[name].expect, f"bonepile {_show(CASES[name].args)}")


def _show(args: Sequence[Arg]) -> str:
    return " ".join(
        (a.decode("utf-8", "backslashreplace") if isinstance(a, bytes) else a)[:40] for a in args
    )


# ------------------------------------------------------------------------- random garbage
def _garbage() -> st.SearchStrategy[bytes]:
    """Bytes a record file might hold by accident or malice: noise, or JSON gone wrong."""
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=20),
        st.sampled_from(["bonepile-record/1", "bonepile-match/1", "block", "6-6", "draw"]),
    )
    values = st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(
                st.sampled_from(["format", "game", "players", "seed", "moves", "deal", "hands"]),
                inner,
                max_size=5,
            ),
        ),
        max_leaves=12,
    )
    as_json = values.map(lambda v: json.dumps(v, allow_nan=True).encode())
    return st.one_of(st.binary(max_size=200), as_json)


@pytest.fixture(scope="module")
def garbage_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("garbage")


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=_garbage(), command=st.sampled_from(["replay", "perft", "replay -"]))
def test_garbage_records_are_refused_cleanly(garbage_dir: Path, data: bytes, command: str) -> None:
    """Random bytes as a record (a file, or standard input) give exit status 2 and one line."""
    path = garbage_dir / "garbage.json"
    path.write_bytes(data)
    args: tuple[str, ...] = {
        "replay": ("replay", str(path)),
        "perft": ("perft", str(path), "2"),
        "replay -": ("replay", "-"),
    }[command]
    stdin = str(path) if command == "replay -" else None
    outcome = execute(Case(args, stdin=stdin), {})
    check(outcome, 0 if outcome.status == 0 else 2, f"bonepile {' '.join(args)} < {data[:60]!r}")


def test_every_case_names_a_command_the_cli_has() -> None:
    """Each command of the CLI is fuzzed (a new command should get cases here too)."""
    from bonepile.cli import cli

    commands = {str(c.args[0]) for c in CASES.values()}
    assert set(cli.commands) <= commands, set(cli.commands) - commands
