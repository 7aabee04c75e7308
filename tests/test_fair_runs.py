"""Runs that give nothing away and commands that check everything first.

The issue "Bots that cannot cheat": seeds derived one way, random run seeds by default (printed
so a run can be repeated), the same agent-list checks in ``watch`` and ``arena``, the per-move
time limit as an option, an unwritable report folder found out before the first game, a Ray
address with no cluster refused at once, and ratings that agree with the win shares.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from bonepile.arena import run_arena
from bonepile.arena.play import deal_seed_of
from bonepile.match import derive_seed
from bonepile.record import load_record
from bonepile.seeds import SEED_BITS, random_seed, secret_seed
from cli_helpers import bad, ok, run

pytestmark = pytest.mark.system


# ------------------------------------------------------------------------------ seeds
def test_secret_seeds_are_stable_distinct_and_in_range() -> None:
    assert secret_seed(1, "deal", 0) == secret_seed(1, "deal", 0)
    seen = {
        secret_seed(s, label, k)
        for s in range(20)
        for label in ("deal", "agent")
        for k in range(20)
    }
    assert len(seen) == 20 * 2 * 20
    assert all(0 <= x < 2**SEED_BITS for x in seen)
    # a label is not a number's neighbour: ("agent", 1, 23) and ("agent", 12, 3) differ
    assert secret_seed(5, "agent", 1, 23) != secret_seed(5, "agent", 12, 3)


def test_random_seeds_are_full_width() -> None:
    seeds = [random_seed() for _ in range(64)]
    assert len(set(seeds)) == 64
    assert all(0 <= s < 2**SEED_BITS for s in seeds)
    assert max(seeds) > 2**48  # not small numbers a bot could search


def test_arena_deals_are_not_the_invertible_mix_of_the_run_seed(tmp_path: Path) -> None:
    run_arena("block", ["random", "random"], 2, seed=9, records=tmp_path, workers=1)
    seeds = {load_record(p).initial.seed for p in tmp_path.glob("*.json")}
    assert seeds == {deal_seed_of(9, 0), deal_seed_of(9, 1)}
    assert not seeds & {derive_seed(9, k) for k in range(2)}


def test_arena_records_never_name_the_run_seed(tmp_path: Path) -> None:
    """A deal's record is written while later deals are still to come: holding the run seed,
    a bot that reads the folder could deal them all."""
    run_arena("block", ["random", "random"], 3, seed=987_654_321_012, records=tmp_path, workers=1)
    texts = [p.read_text() for p in tmp_path.glob("*.json")]
    assert texts and all("987654321012" not in t for t in texts)


def test_play_warns_when_a_seed_is_given_with_an_external_bot(tmp_path: Path) -> None:
    bot = tmp_path / "bot.sh"
    bot.write_text("#!/bin/sh\nexit 0\n")
    bot.chmod(0o755)
    got = run("play", "block", "--seed", "5", "--agents", f"external:{bot}")
    assert "every deal is a known function of it" in got.stderr, got.stderr


# ------------------------------------------------------------------------------ watch
def test_watch_prints_its_random_seed_and_the_seats_and_the_seed_repeats_it() -> None:
    first = ok(run("watch", "block", "-n", "2", "-a", "greedy,random"))
    head = first.splitlines()[:2]
    found = re.search(r"seed (\d+) \(--seed \1 repeats it\)", head[0])
    assert found, head
    assert head[1] == "Seats: P0: greedy, P1: random"
    seed = found.group(1)
    assert int(seed) > 2**32 or ok(run("watch", "block", "-n", "2")) != first  # not fixed
    again = ok(run("watch", "block", "-n", "2", "-a", "greedy,random", "--seed", seed))
    assert again == first


def test_watch_names_the_agents_in_its_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    ok(run("watch", "draw", "-n", "3", "-a", "greedy,random", "-s", "4", "--record", str(path)))
    text = path.read_text()
    assert '"players": "P0: greedy, P1: random, P2: greedy"' in text


@pytest.mark.parametrize("command", ["watch", "arena"])
@pytest.mark.parametrize("agents", ["", ",", ",,", "greedy,", ",random", "greedy,,random"])
def test_empty_agent_names_are_refused_the_same_everywhere(command: str, agents: str) -> None:
    args = ["block", "-n", "2"] if command == "watch" else ["block", "-k", "1"]
    bad(run(command, *args, "--agents", agents), "--agents", "empty")


def test_watch_refuses_more_agents_than_seats() -> None:
    bad(run("watch", "block", "-n", "2", "-a", "random,greedy,random"), "3 agents", "2 seats")


@pytest.mark.parametrize("command", ["watch", "arena"])
def test_an_external_bot_that_cannot_start_is_refused_before_any_game(command: str) -> None:
    args = ["block", "-n", "2"] if command == "watch" else ["block", "-k", "1", "-w", "1"]
    bad(run(command, *args, "-a", "external:/no/such/bot,random"), "/no/such/bot")


@pytest.mark.parametrize("delay", ["inf", "1e400", "nan", "-1", "61"])
def test_watch_refuses_a_delay_it_cannot_keep(delay: str) -> None:
    bad(run("watch", "block", "-n", "2", "--delay", delay), "--delay")


@pytest.mark.parametrize("command", ["watch", "arena"])
@pytest.mark.parametrize("value", ["0", "-1", "inf", "nan", "1e9"])
def test_the_move_time_is_checked(command: str, value: str) -> None:
    args = (
        ["block", "-n", "2"] if command == "watch" else ["block", "-k", "1", "-a", "random,greedy"]
    )
    bad(run(command, *args, "--move-time", value), "--move-time")


@pytest.mark.parametrize("seed", ["-1", str(2**63), "1" * 5000, "x"])
def test_seeds_out_of_range_are_refused(seed: str) -> None:
    bad(run("watch", "block", "-n", "2", "--seed", seed), "--seed")


def test_a_known_seed_with_an_external_bot_is_warned_about() -> None:
    import shlex
    import sys

    bot = Path(__file__).parent / "bots" / "reply.py"
    spec = "external:" + shlex.join([sys.executable, str(bot), '{"action": "draw"}'])
    p = run("watch", "block", "-n", "2", "-s", "3", "-a", f"{spec},random")
    assert p.returncode == 0, p.stderr
    assert "warning" in p.stderr and "--seed 3" in p.stderr
    quiet = run("watch", "block", "-n", "2", "-a", f"{spec},random")
    assert quiet.returncode == 0 and quiet.stderr == ""


# ------------------------------------------------------------------------------ arena
def test_arena_prints_its_random_seed_and_the_seed_repeats_the_run() -> None:
    out = ok(run("arena", "block", "-a", "greedy,random", "-k", "3", "-w", "1"))
    assert re.search(r"seed \d+ \(", out.splitlines()[0])
    first = json.loads(
        ok(run("arena", "block", "-a", "greedy,random", "-k", "6", "-w", "1", "--json"))
    )
    assert first["seed"] > 2**32
    again = json.loads(
        ok(run("arena", "block", "-a", "greedy,random", "-k", "6", "-w", "1", "--json",
               "-s", str(first["seed"])))
    )  # fmt: skip

    def games(data: Any) -> list[tuple[float, float]]:
        return [(r["win_share"], r["points_per_game"]) for r in data["results"]]

    assert games(again) == games(first)


def test_an_unwritable_report_folder_is_refused_before_the_first_game(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    started = time.monotonic()
    bad(
        run("arena", "block", "-a", "ismcts:1s,random", "-k", "50", "--report", str(blocker / "r")),
        "--report",
    )
    assert time.monotonic() - started < 30  # no game (each takes seconds) was played


def test_a_ray_address_with_no_cluster_fails_at_once() -> None:
    pytest.importorskip("ray")
    started = time.monotonic()
    bad(run("arena", "block", "-a", "greedy,random", "-k", "1", "--ray", "127.0.0.1:1"), "--ray")
    assert time.monotonic() - started < 60


# ------------------------------------------------------------------------------ streaming
def test_the_schedule_is_streamed() -> None:
    from bonepile.arena import schedule

    jobs = schedule(2, 4, 10**15)  # a list of them would never fit in memory
    first = [next(jobs) for _ in range(3)]
    assert [(j.index, j.deal, j.rotation) for j in first] == [(0, 0, 0), (1, 0, 1), (2, 1, 0)]


@pytest.mark.parametrize("command", ["arena", "simulate"])
def test_a_huge_run_starts_at_once_in_bounded_memory_and_ends_on_sigterm(command: str) -> None:
    import resource
    import signal
    import subprocess

    from cli_helpers import BONEPILE

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    args = (
        ["arena", "block", "-a", "random,greedy", "-k", str(10**9), "-w", "2", "--json"]
        if command == "arena"
        else ["simulate", "block", "-n", "2", "-k", str(10**9), "-w", "2", "--json"]
    )
    p = subprocess.Popen(
        [str(BONEPILE), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=limit,
        start_new_session=True,
    )
    try:
        time.sleep(6)
        assert p.poll() is None, p.communicate()[1][-2000:]  # still playing, not out of memory
        p.send_signal(signal.SIGTERM)
        try:
            _, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # hung: every process of the run prints its stacks
            os.killpg(p.pid, signal.SIGUSR1)
            time.sleep(2)
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate(timeout=30)
            raise AssertionError("still running 30 s after SIGTERM:\n" + err.decode()) from None
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == 128 + signal.SIGTERM, err[-2000:]
    assert b"Traceback" not in err
    for _ in range(100):  # and its worker processes end with it
        try:
            os.killpg(p.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.killpg(p.pid, signal.SIGKILL)
        raise AssertionError("worker processes outlived the command")
