"""Matches on the command line: ``simulate --match``, ``watch --match``, match records in
``replay`` and ``perft``, and their bad input (one line, exit status 2)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bonepile.match import new_match
from bonepile.match_record import load_any, match_record_of, read_match
from bonepile.perft import perft
from cli_helpers import bad, ok, run

pytestmark = pytest.mark.system

TIMING = re.compile(r"\s*\([\d.]+ s, \d+ (hands|matches)/s\)")


def played_match(tmp_path: Path, game: str = "block", players: int = 2, seed: int = 3) -> Path:
    m = new_match(game, players, options={"target_score": 40}, seed=seed)
    rng = random.Random(seed)
    while not m.is_over:
        if m.needs_deal:
            m = m.next_hand()
        m = m.with_current(m.current.playout(rng))
    path = tmp_path / "match.json"
    path.write_text(json.dumps(match_record_of(m)))
    return path


def test_simulate_match_summary_json() -> None:
    data = json.loads(
        ok(run("simulate", "block", "-n", "2", "-k", "12", "-s", "4", "--match", "--json"))
    )
    assert data["matches"] == 12 and data["target_score"] == 100
    # only one player scores per block hand, so every match has exactly one winner
    assert sum(data["match_wins_by_seat"]) == 12
    assert data["hands_per_match_min"] <= data["hands_per_match"] <= data["hands_per_match_max"]
    assert data["hands"]["games"] >= 12
    assert data["hands"]["games"] == round(data["hands_per_match"] * 12)


def test_simulate_match_workers_agree_and_text_is_reproducible() -> None:
    args = ["simulate", "doubles", "-n", "3", "-k", "6", "-s", "9", "--match"]
    one = json.loads(ok(run(*args, "--json")))
    two = json.loads(ok(run(*args, "--json", "-w", "2")))
    assert one == two
    a, b = ok(run(*args)), ok(run(*args))
    assert TIMING.sub("", a) == TIMING.sub("", b)
    assert "Match wins:" in a and "Hands per match:" in a and "Target:          100" in a


def test_simulate_match_target_changes_the_matches() -> None:
    base = ["simulate", "draw", "-n", "2", "-k", "8", "-s", "1", "--match", "--json"]
    short = json.loads(ok(run(*base, "-o", "target_score=20")))
    long = json.loads(ok(run(*base, "-o", "target_score=200")))
    assert short["hands_per_match"] < long["hands_per_match"]


def test_simulate_match_without_a_target_says_so() -> None:
    out = ok(run("simulate", "sd", "-n", "3", "-k", "3", "--match"))
    assert "a match is one hand" in out
    assert "Hands per match: 1.0" in out


def test_simulate_match_records_replay(tmp_path: Path) -> None:
    out = tmp_path / "recs"
    ok(run("simulate", "block", "-n", "2", "-k", "3", "-s", "2", "--match", "--records", str(out)))
    files = sorted(out.glob("*.json"))
    assert len(files) == 3
    for f in files:
        assert load_any(f).is_over
        data = json.loads(f.read_text())
        assert data["format"] == "bonepile-match/1"
        assert read_match(data).is_over


def test_watch_match_writes_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    out = ok(
        run(
            "watch",
            "doubles",
            "-n",
            "2",
            "-s",
            "5",
            "--match",
            "-o",
            "target_score=30",
            "--record",
            str(path),
        )
    )
    assert "=== Hand 1 ===" in out and "After hand 1:" in out
    m = read_match(json.loads(path.read_text()))
    assert m.is_over
    assert f"over, won by P{m.winners[0]}" in out
    # the same seed shows the same match
    again = ok(run("watch", "doubles", "-n", "2", "-s", "5", "--match", "-o", "target_score=30"))
    assert again.split("Record written")[0] == out.split("Record written")[0]


def test_replay_match_shows_totals_after_each_hand(tmp_path: Path) -> None:
    path = played_match(tmp_path)
    m = read_match(json.loads(path.read_text()))
    out = ok(run("replay", str(path)))
    for k, h in enumerate(m.hands):
        totals = "  ".join(f"P{s} {t}" for s, t in enumerate(h.scores))
        assert re.search(rf"^\s+{k + 1}\s.*{re.escape(totals)}$", out, re.M), (k, out)
    assert f"Hand {len(m.hands)}:" in out


def test_replay_match_json(tmp_path: Path) -> None:
    path = played_match(tmp_path, "draw", 3)
    m = read_match(json.loads(path.read_text()))
    data = json.loads(ok(run("replay", str(path), "--json")))
    assert data["scores"] == list(m.totals)
    assert data["over"] is True and data["result"] is not None
    assert data["match"]["totals"] == list(m.totals)
    assert data["match"]["winners"] == list(m.winners)
    assert [h["scores_after"] for h in data["match"]["hands"]] == [list(h.scores) for h in m.hands]
    # standard input works too
    same = json.loads(ok(run("replay", "-", "--json", stdin=path.read_text())))
    assert same == data


def test_perft_on_a_match_record_counts_from_its_last_hand(tmp_path: Path) -> None:
    m = new_match("block", 2, seed=8)
    m = m.with_current(m.current.playout(random.Random(8))).next_hand()
    m = m.apply(m.legal_actions()[0])
    path = tmp_path / "m.json"
    path.write_text(json.dumps(match_record_of(m)))
    assert ok(run("perft", str(path), "3")).strip() == str(perft(m.current, 3))


def test_bad_match_records(tmp_path: Path) -> None:
    path = played_match(tmp_path)
    data = json.loads(path.read_text())
    data["hands"][1]["scores_before"] = [99, 0]
    broken = tmp_path / "b.json"
    broken.write_text(json.dumps(data))
    bad(run("replay", str(broken)), "match: hands[1].scores_before")
    bad(run("perft", str(broken), "1"), "match: hands[1].scores_before")
    data = json.loads(path.read_text())
    data["hands"][0]["moves"] = ["pass"]
    broken.write_text(json.dumps(data))
    bad(run("replay", str(broken)), "match: hands[0]: moves[0]")


@pytest.mark.parametrize(
    "args",
    [
        ["watch", "block", "-n", "2", "--match", "--delay", "-1"],
        ["watch", "block", "-n", "9", "--match"],
        ["simulate", "block", "-n", "2", "--match", "-k", "0"],
        ["simulate", "doubles", "-n", "2", "--match", "-o", "round_leader=winner"],
    ],
)
def test_bad_match_commands(args: list[str]) -> None:
    bad(run(*args))


def test_simulate_records_that_cannot_be_written(tmp_path: Path) -> None:
    out = tmp_path / "recs"
    (out / "block-match-0-000000.json").mkdir(parents=True)
    bad(
        run("simulate", "block", "-n", "2", "-k", "2", "-s", "0", "--match", "--records", str(out)),
        "cannot write a record",
    )
    (out / "block-0-000000.json").mkdir()
    bad(
        run("simulate", "block", "-n", "2", "-k", "2", "-s", "0", "--records", str(out)),
        "cannot write a record",
    )
