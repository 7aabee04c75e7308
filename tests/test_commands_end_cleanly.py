"""Commands that end cleanly: Ctrl-C, workers, memory, long counts, closed pipes, records.

Specs: the "Commands that end cleanly" part of the audit issue. Ctrl-C while a run starts its
workers prints one short line (no traceback from any process) and exits with status 130; a run
starts no more workers than it has games or the machine can use, and says so; an arena run
keeps totals, not every game; a long perft tells how far it has got; output whose reader goes
away ends the command quietly with status 0; a record with a byte-order mark is read, and one
that is not text, or whose seed breaks the ``--seed`` rule, is one plain error line; the bot
protocol's ``start`` tells the bot its time per move.
"""

from __future__ import annotations

import codecs
import contextlib
import gc
import json
import multiprocessing
import os
import pickle
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bonepile import workers
from bonepile.agents.external import ExternalAgent
from bonepile.arena import GameOutcome, run_arena
from bonepile.errors import RecordError
from bonepile.games import get_game
from bonepile.match import new_match
from bonepile.match_record import dump_match, read_match
from bonepile.perft import Progress, ProgressLine, perft
from bonepile.record import dump_record, read_record
from bonepile.view import view
from bonepile.workers import machine_workers, run_streamed
from cli_helpers import BONEPILE, bad, ok, run

pytestmark = pytest.mark.system

HERE = Path(__file__).resolve().parent
BOTS = HERE / "bots"
PY = sys.executable
WAIT = 120.0  # seconds any subprocess gets: machines are busy

posix_only = pytest.mark.skipif(
    os.name != "posix" or not Path("/proc/self/stat").exists(),
    reason="process groups and /proc",
)


def soon(check: Callable[[], bool], within: float = 30.0) -> bool:
    """Whether ``check()`` holds within ``within`` seconds."""
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def _stat_fields(pid: int) -> list[bytes]:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return []
    return stat[stat.rfind(b")") + 2 :].split()


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    fields = _stat_fields(pid)
    return bool(fields) and fields[0] != b"Z"


def spawned_workers(parent: int) -> list[int]:
    """The worker processes (``multiprocessing`` spawned ones) ``parent`` has started."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(int(entry.name))
        if len(fields) < 2 or int(fields[1]) != parent:
            continue
        with contextlib.suppress(OSError):
            if b"spawn_main" in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
    return found


def _ctrl_c_as_in_a_terminal() -> None:
    """A command a terminal runs in the foreground gets SIGINT's default action, whatever the
    test runner inherited (a run started in the background by a shell without job control
    ignores SIGINT, and so, rightly, would the command)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# ------------------------------------------------------------------ 1. Ctrl-C as workers start
@posix_only
@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "block", "-n", "2", "--games", "1000000", "--workers", "2"],
        ["arena", "block", "-a", "greedy,random", "--games", "1000000", "--workers", "2"],
    ],
    ids=["simulate", "arena"],
)
def test_ctrl_c_while_the_workers_start_prints_one_line_and_exits_130(args: list[str]) -> None:
    """Ctrl-C sends SIGINT to the whole foreground process group. Here each worker gets its
    SIGINT the moment it exists, while it starts up, and then the whole group does, the
    command included: no process may print a traceback, and the command ends its workers,
    prints at most one line and exits with status 130."""
    proc = subprocess.Popen(
        [str(BONEPILE), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, like a foreground job
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )
    signalled: set[int] = set()
    try:
        assert soon(lambda: bool(spawned_workers(proc.pid)) or proc.poll() is not None, WAIT)
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:
            for pid in set(spawned_workers(proc.pid)) - signalled:
                os.kill(pid, signal.SIGINT)
                signalled.add(pid)
            time.sleep(0.002)
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=WAIT)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=WAIT)
    assert signalled, "no worker process was started"
    for junk in ("Traceback", "KeyboardInterrupt", "Fatal Python error", "rror"):
        assert junk not in err, err
    assert proc.returncode == 130, (proc.returncode, err)
    assert len(err.strip().splitlines()) <= 1, err
    assert out == ""
    assert soon(lambda: not any(running(pid) for pid in signalled)), "a worker outlived the run"


# ------------------------------------------------------------------ 2. workers capped
def _own_pid(chunk: list[int]) -> list[int]:
    return [os.getpid() for _ in chunk]


def test_a_run_starts_no_more_workers_than_it_has_chunks() -> None:
    stream = run_streamed(_own_pid, ([i] for i in range(3)), 64)
    with contextlib.closing(stream):
        first = next(stream)
        started = multiprocessing.active_children()
        rest = list(stream)
    assert len(started) <= 3, f"{len(started)} processes for 3 chunks"
    assert len([first, *rest]) == 3


def test_a_run_starts_no_more_workers_than_the_machine_can_use(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(workers, "usable_cores", lambda: 1)  # a one-core machine
    cap = workers.CORE_FACTOR
    stream = run_streamed(_own_pid, ([i] for i in range(20)), 10)
    with contextlib.closing(stream):
        next(stream)
        started = multiprocessing.active_children()
        assert len(list(stream)) == 19
    assert len(started) <= cap


@pytest.mark.parametrize(
    "args, games",
    [
        (["simulate", "block", "-n", "2", "--games", "3", "--workers", "1024"], 3),
        (["arena", "block", "-a", "greedy,random", "-k", "1", "-s", "1", "-w", "1000"], 2),
    ],
    ids=["simulate", "arena"],
)
def test_too_many_workers_are_capped_with_one_warning(args: list[str], games: int) -> None:
    p = run(*args)
    ok(p)
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith(f"bonepile: warning: --workers {args[-1]} ")
    used = min(games, machine_workers())
    why = f"{games} hands to play" if used == games else "cores"
    assert f"starting {used} (" in lines[0] and why in lines[0], lines[0]


def test_workers_within_the_cap_give_no_warning() -> None:
    p = run("simulate", "block", "-n", "2", "--games", "40", "--workers", "2")
    ok(p)
    assert p.stderr == ""


# ------------------------------------------------------------------ 3. arena streams
def _arena_footprint(deals: int) -> tuple[int, int]:
    """The most arena games alive at once during a run of ``deals`` deals (counted every 100
    games), and the size of the run's result."""
    most = 0
    seen = 0

    def count(k: int) -> None:
        nonlocal most, seen
        seen += k
        if seen % 100 == 0:
            gc.collect()
            alive = sum(1 for o in gc.get_objects() if isinstance(o, GameOutcome))
            most = max(most, alive)

    result = run_arena("block", ["greedy", "random"], deals, seed=4, workers=1, progress=count)
    assert seen == result.games == 2 * deals
    return most, len(pickle.dumps(result))


def test_an_arena_run_keeps_totals_not_every_game() -> None:
    """Ten times the games: no more games held during the run, and a result of about the
    same size (totals, not a list per game)."""
    small_alive, small_size = _arena_footprint(100)
    large_alive, large_size = _arena_footprint(1000)
    assert large_alive <= 5 and small_alive <= 5, (small_alive, large_alive)
    assert large_size < 1.5 * small_size, (small_size, large_size)


def test_an_arena_run_still_gives_the_figures_and_forfeits() -> None:
    result = run_arena("block", ["greedy", "random"], 30, seed=4, workers=1)
    data = result.to_json()
    assert data["games"] == 60 and data["deals"] == 30
    assert [r["games"] for r in data["results"]] == [60, 60]
    assert abs(sum(r["win_share"] for r in data["results"]) - 1) < 1e-3
    assert data["forfeits"] == [] and data["forfeits_total"] == 0
    kept = run_arena("block", ["greedy", "random"], 30, seed=4, workers=1, keep_outcomes=True)
    untimed = [{**s.to_json(), "ms_per_move": 0} for s in result.stats]
    assert [{**s.to_json(), "ms_per_move": 0} for s in kept.stats] == untimed
    wins = sum(o.share(0) for o in kept.outcomes)
    assert len(kept.outcomes) == 60 and wins > 0


# ------------------------------------------------------------------ 4. perft says how far
def _dd_start() -> Any:
    return get_game("double_double").new(2, seed=5)


def test_perft_reports_its_progress_and_still_counts_the_same() -> None:
    state = _dd_start()
    reports: list[Progress] = []
    count = perft(state, 4, progress=reports.append)
    assert count == perft(state, 4) == 116320
    assert len(reports) >= 2
    positions = [r.positions for r in reports]
    done = [r.done for r in reports]
    assert positions == sorted(positions) and positions[0] > 0
    assert done == sorted(done) and done[0] >= 0 and done[-1] <= 1
    assert done[-1] > done[0]


def test_the_progress_line_estimates_the_time_left() -> None:
    class Clock:
        now = 100.0

        def __call__(self) -> float:
            return self.now

    class Stream:
        def __init__(self) -> None:
            self.text = ""

        def write(self, text: str) -> int:
            self.text += text
            return len(text)

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return False

    clock, stream = Clock(), Stream()
    line = ProgressLine(stream, 5.0, max_nodes=10**9, clock=clock)  # type: ignore[arg-type]
    clock.now += 1
    line(Progress(1000, 0.1))
    assert stream.text == ""  # a count quicker than the interval says nothing
    clock.now += 9  # 10 s in, a quarter done: 30 s left
    line(Progress(250_000, 0.25))
    assert (
        stream.text
        == "bonepile: perft: about 25% done, 250,000 positions in 10 s, about 30 s left\n"
    )
    clock.now += 10  # 20 s in, 1% done, heading for 2,000,000,000 positions: past the limit
    line(Progress(20_000_000, 0.01))
    last = stream.text.splitlines()[-1]
    assert "likely to stop at --max-nodes 1,000,000,000 in about 16 min" in last


def test_the_perft_command_prints_progress_on_stderr_only(tmp_path: Path) -> None:
    record = tmp_path / "dd.json"
    record.write_text(dump_record(_dd_start()))
    p = run("perft", str(record), "4", "--progress", "0.001")
    assert ok(p) == "116320\n"
    lines = p.stderr.splitlines()
    assert lines, "no progress report"
    for line in lines:
        assert re.fullmatch(r"bonepile: perft: about \d+% done, [\d,]+ positions in .*left", line)
    quiet = run("perft", str(record), "4")  # quicker than the default interval: nothing
    assert ok(quiet) == "116320\n" and quiet.stderr == ""
    off = run("perft", str(record), "4", "--progress", "0")
    assert ok(off) == "116320\n" and off.stderr == ""
    assert "--progress" in ok(run("perft", "--help"))


# ------------------------------------------------------------------ 5. a closed pipe
def test_output_to_a_reader_that_is_gone_ends_quietly() -> None:
    """The reader closes its end before the command writes (``| head`` that has read
    enough): exit status 0, nothing on stderr."""
    proc = subprocess.Popen(
        [str(BONEPILE), "simulate", "block", "-n", "2", "--games", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=WAIT) == 0, err
    assert err == b""


def test_a_reader_that_goes_away_after_the_first_line_ends_the_command_quietly() -> None:
    """``bonepile watch ... | head -1``: a real pipe read for one line, then closed while
    the command is still writing."""
    proc = subprocess.Popen(
        [str(BONEPILE), "watch", "block", "-n", "2", "-s", "1", "--delay", "0.05"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=WAIT) == 0, err
    assert first.startswith(b"Block dominoes, 2 players, seed 1")
    assert err == b""


@posix_only
def test_a_shell_pipe_into_head_exits_0() -> None:
    script = f"set -o pipefail; {BONEPILE} rules block | head -1"
    p = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, timeout=WAIT, check=False
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("Block") and p.stderr == ""


# ------------------------------------------------------------------ 6. byte-order marks
@pytest.fixture
def hand_text() -> str:
    state = get_game("block").new(2, seed=3)
    for _ in range(4):
        state = state.apply(state.legal_actions()[0])
    return dump_record(state)


def test_a_record_with_a_byte_order_mark_is_read(tmp_path: Path, hand_text: str) -> None:
    plain, marked = tmp_path / "plain.json", tmp_path / "marked.json"
    plain.write_text(hand_text, encoding="utf-8")
    marked.write_bytes(codecs.BOM_UTF8 + hand_text.encode())
    expected = ok(run("replay", str(plain)))
    assert ok(run("replay", str(marked))) == expected
    assert ok(run("replay", "-", stdin="\ufeff" + hand_text)) == expected
    assert ok(run("perft", str(marked), "2")) == ok(run("perft", str(plain), "2"))
    same = read_record(hand_text)
    for source in (codecs.BOM_UTF8 + hand_text.encode(), "\ufeff" + hand_text):
        assert read_record(source).moves == same.moves


def test_a_match_record_and_a_board_with_a_byte_order_mark_are_read(tmp_path: Path) -> None:
    match = tmp_path / "match.json"
    match.write_bytes(codecs.BOM_UTF8 + dump_match(new_match("block", 2, seed=5)).encode())
    assert "Block" in ok(run("replay", str(match)))
    board = tmp_path / "board.json"
    board.write_bytes(codecs.BOM_UTF8 + ok(run("board", "small", "--json")).encode())
    assert ok(run("board", str(board))).startswith("Board small:")


@pytest.mark.parametrize(
    "encode, fragment",
    [
        (lambda t: t.encode("utf-16"), "UTF-16"),
        (lambda t: codecs.BOM_UTF8 + t.encode()[:40] + b"\xff" + t.encode()[40:], "byte 43"),
        (lambda t: t.encode("latin-1") + "é".encode("latin-1"), "not UTF-8 text"),
    ],
    ids=["utf-16", "bad-byte-after-bom", "latin-1"],
)
def test_a_record_that_is_not_utf8_is_one_plain_error(
    tmp_path: Path, hand_text: str, encode: Callable[[str], bytes], fragment: str
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(encode(hand_text))
    for line in (bad(run("replay", str(path)), fragment), bad(run("perft", str(path), "1"))):
        for jargon in ("codec", "utf-8-sig", "decode", "BOM", "position"):
            assert jargon not in line, line
    with pytest.raises(RecordError) as e:
        read_record(encode(hand_text))
    assert fragment in str(e.value) and "codec" not in str(e.value)


# ------------------------------------------------------------------ 7. seeds as --seed
def _record_with_seed(seed: Any) -> dict[str, Any]:
    return {"format": "bonepile-record/1", "game": "block", "players": 2, "seed": seed}


@pytest.mark.parametrize("seed", [-1, -(2**63), 2**63, 2**128 - 1, 10**4000])
def test_a_record_seed_follows_the_seed_rule(tmp_path: Path, seed: int) -> None:
    assert bad(run("watch", "block", "-n", "2", "--seed", str(seed)))  # the rule it follows
    with pytest.raises(RecordError) as e:
        read_record(_record_with_seed(seed))
    message = str(e.value)
    assert message.startswith("record: seed: ") and "2**63 - 1" in message
    assert len(message) < 200
    path = tmp_path / "seed.json"
    path.write_text(json.dumps(_record_with_seed(seed)))
    bad(run("replay", str(path)), "seed", "from 0 to 2**63 - 1")


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1])
def test_every_seed_the_command_line_takes_a_record_takes(seed: int) -> None:
    assert read_record(_record_with_seed(seed)).initial.seed == seed


@pytest.mark.parametrize("seed", ["7", 1.5, True, None])
def test_a_seed_that_is_not_an_integer_is_one_error(seed: Any) -> None:
    with pytest.raises(RecordError, match=r"^record: seed: must be an integer from 0 to 2\*\*63"):
        read_record(_record_with_seed(seed))


def test_a_match_seed_follows_the_seed_rule() -> None:
    data = json.loads(dump_match(new_match("block", 2, seed=5)))
    assert read_match(data).seed == 5
    with pytest.raises(RecordError, match=r"^match: seed: is out of range.*2\*\*63 - 1"):
        read_match({**data, "seed": -1})
    with pytest.raises(RecordError, match=r"^match: hands\[0\]: seed: is out of range"):
        read_match({**data, "hands": [{**data["hands"][0], "seed": -1}]})


# ------------------------------------------------------------------ 8. the move time in start
def _start_messages(log: Path) -> Iterator[dict[str, Any]]:
    for line in log.read_text().splitlines():
        message = json.loads(line)
        if message.get("type") == "start":
            yield message


def test_the_start_message_gives_the_time_per_move(tmp_path: Path) -> None:
    log = tmp_path / "messages.jsonl"
    bot = ExternalAgent([PY, str(BOTS / "recorder.py"), str(log)], seed=3, move_timeout=2.5)
    state = get_game("block").new(2, seed=1)
    assert state.actor is not None
    try:
        assert bot.act(view(state, state.actor)) in state.legal_actions()
    finally:
        bot.close()
    (start,) = _start_messages(log)
    assert start["move_time"] == 2.5


def test_move_time_on_the_command_line_reaches_the_bot(tmp_path: Path) -> None:
    log = tmp_path / "messages.jsonl"
    recorder = f"external:{PY} {BOTS / 'recorder.py'} {log}"
    ok(run("watch", "block", "-n", "2", "-s", "1", "-a", f"{recorder},random", "--move-time", "3"))
    starts = list(_start_messages(log))
    assert starts and all(s["move_time"] == 3.0 for s in starts)
    default = tmp_path / "default.jsonl"
    recorder = f"external:{PY} {BOTS / 'recorder.py'} {default}"
    ok(run("watch", "block", "-n", "2", "-s", "1", "-a", f"{recorder},random"))
    assert [s["move_time"] for s in _start_messages(default)] == [10.0]
