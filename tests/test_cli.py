"""The ``bonepile`` command line, as a user runs it (README.md, "The command line").

End-to-end cases run the installed console script in a subprocess; the many bad-input cases call
:func:`bonepile.cli.main` in-process (same code path, much faster). Bad input must always give
exit status 2, exactly one line on standard error starting with ``bonepile: error:``, no
traceback, and nothing written.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bonepile.actions import parse_action
from bonepile.cli import main
from bonepile.games import all_games, get_game
from bonepile.perft import perft as perft_count
from bonepile.record import dump_record, load_record, record_of
from bonepile.tiles import parse_tile, tile_set

pytestmark = pytest.mark.system

BONEPILE = Path(sys.executable).parent / "bonepile"
SUMMARY_KEYS = {"game", "over", "actor", "legal", "hands", "boneyard", "scores", "result"}
COMMANDS = ("rules", "replay", "perft", "simulate", "watch")
TIMING = re.compile(r"\s*\([\d.]+ s, \d+ hands/s\)")


# ------------------------------------------------------------------------------ helpers
def run(
    *args: str, cwd: Path | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real console script."""
    return subprocess.run(
        [str(BONEPILE), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        check=False,
    )


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``bonepile ARGS`` in-process: (exit status, stdout, stderr)."""
    capsys.readouterr()
    try:
        main(args)
    except SystemExit as e:
        code = e.code
    except Exception as e:  # escaping the CLI: the user would see a traceback
        out, err = capsys.readouterr()
        pytest.fail(
            f"bonepile {' '.join(args)} let {type(e).__name__} escape "
            f"(a user sees a traceback and exit status 1): {e}\nstdout: {out}\nstderr: {err}"
        )
    else:
        code = 0
    out, err = capsys.readouterr()
    if code is None:
        code = 0
    assert isinstance(code, int), f"exit code {code!r}"
    return code, out, err


def assert_ok(code: int, out: str, err: str) -> None:
    assert code == 0, f"exit {code}\nstdout: {out}\nstderr: {err}"
    assert "Traceback" not in out + err


def assert_bad_input(code: int, out: str, err: str, *fragments: str) -> str:
    """The bad-input contract; returns the error line."""
    assert "Traceback" not in out + err, f"traceback shown:\n{err}"
    assert code == 2, f"exit status {code}, expected 2\nstdout: {out}\nstderr: {err}"
    lines = err.splitlines()
    assert len(lines) == 1, f"expected exactly one line on stderr, got {len(lines)}:\n{err}"
    assert lines[0].startswith("bonepile: error: "), lines[0]
    assert out == "", f"bad input printed to stdout:\n{out}"
    for f in fragments:
        assert f in lines[0], f"{f!r} not in {lines[0]!r}"
    return lines[0]


def start(game: str, hands: list[list[str]], options: dict[str, Any], **kw: Any) -> Any:
    """A hand of ``game`` dealt ``hands``; the boneyard is the rest of the set, in set order."""
    g = get_game(game)
    held = [[parse_tile(t) for t in h] for h in hands]
    taken = {t for h in held for t in h}
    rest = [t for t in tile_set(g.max_pip(g.make_options(options))) if t not in taken]
    bone = kw.pop("boneyard_first", [])
    first = [parse_tile(t) for t in bone]
    rest = first + [t for t in rest if t not in first]
    return g.new(len(hands), options=options, deal=(held, rest), **kw)


def play(state: Any, *moves: str) -> Any:
    for m in moves:
        state = state.apply(parse_action(m))
    return state


def write(path: Path, state: Any) -> Path:
    path.write_text(dump_record(state) + "\n", encoding="utf-8")
    return path


# A block hand small enough to count by hand: 2 tiles each, seat 0 leads any tile.
BLOCK_OPTS = {"hand_size": 2, "lead": "seat0_any"}
BLOCK_HANDS = [["6-6", "5-5"], ["6-5", "6-4"]]


def block_start(scores_before: list[int] | None = None) -> Any:
    return start("block", BLOCK_HANDS, BLOCK_OPTS, scores_before=scores_before)


def sd_start() -> Any:
    """A Super Dominoes hand with an explicit deal (taken from a seeded one)."""
    g = get_game("super_dominoes")
    seeded = g.new(3, seed=2024)
    hands = [list(seeded.hand(s)) for s in range(3)]
    return g.new(3, deal=(hands, list(seeded.boneyard)))


def sd_midgame(n: int = 8) -> Any:
    s = sd_start()
    for _ in range(n):
        s = s.apply(s.legal_actions()[0])
    return s


def summary_of(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = cli(["replay", str(path), "--json"], capsys)
    assert_ok(code, out, err)
    data: dict[str, Any] = json.loads(out)
    return data


# ------------------------------------------------------------------------------ help
@pytest.mark.parametrize("args", [["--help"], [], ["-h"]])
def test_help_lists_commands(args: list[str]) -> None:
    p = run(*args)
    assert_ok(p.returncode, p.stdout, p.stderr)
    for c in COMMANDS:
        assert re.search(rf"^\s+{c}\b", p.stdout, re.M), f"{c} missing from help:\n{p.stdout}"


@pytest.mark.parametrize("command", COMMANDS)
def test_command_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli([command, "--help"], capsys)
    assert_ok(code, out, err)
    assert "Usage:" in out


# ------------------------------------------------------------------------------ rules
def test_rules_lists_every_game() -> None:
    p = run("rules")
    assert_ok(p.returncode, p.stdout, p.stderr)
    names = {g.name for g in all_games()}
    assert {"super_dominoes", "block", "draw"} <= names
    for name in names:
        assert re.search(rf"^\s*{name}\b", p.stdout, re.M), f"{name} not listed:\n{p.stdout}"


def _check_option_listing(game: str, out: str) -> None:
    specs = get_game(game).option_specs()
    assert specs
    lines = out.splitlines()
    # The how-to-play summary comes first; the option listing follows its heading line.
    heading = [i for i, line in enumerate(lines) if line.startswith("Options (")]
    assert len(heading) == 1, out
    lines = lines[heading[0] + 1 :]
    starts = {}
    for spec in specs:
        found = [i for i, line in enumerate(lines) if re.match(rf"\s*{spec.name}\b", line)]
        assert found, f"{game}: option {spec.name} missing from `bonepile rules`:\n{out}"
        starts[spec.name] = found[0]
    order = sorted(starts.values())
    for spec in specs:
        i = starts[spec.name]
        later = [j for j in order if j > i]
        block = "\n".join(lines[i : later[0] if later else len(lines)])
        flat = " ".join(block.split())
        where = f"{game}.{spec.name}: {block!r}"
        assert spec.type_name() in block, where
        assert spec.format_value(spec.default) in block, where
        assert spec.alternatives() in block, where
        if spec.kind == "choice":
            for c in spec.choices:
                assert c in block, where
        if spec.kind == "bool":
            assert "true" in block and "false" in block, where
        assert spec.help and " ".join(spec.help.split()) in flat, f"meaning missing: {where}"


def test_rules_super_dominoes_end_to_end() -> None:
    p = run("rules", "super_dominoes")
    assert_ok(p.returncode, p.stdout, p.stderr)
    _check_option_listing("super_dominoes", p.stdout)


@pytest.mark.parametrize("game", ["super_dominoes", "block", "draw"])
def test_rules_game_lists_every_option(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["rules", game], capsys)
    assert_ok(code, out, err)
    _check_option_listing(game, out)


@pytest.mark.parametrize("alias", ["sd", "super"])
def test_rules_aliases(alias: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, canonical, err = cli(["rules", "super_dominoes"], capsys)
    assert_ok(code, canonical, err)
    code, out, err = cli(["rules", alias], capsys)
    assert_ok(code, out, err)
    assert out == canonical


# ------------------------------------------------------------------------------ replay
def test_replay_text_draws_the_position(tmp_path: Path) -> None:
    s = play(block_start([5, 7]), "6-6")
    p = run("replay", str(write(tmp_path / "r.json", s)))
    assert_ok(p.returncode, p.stdout, p.stderr)
    out = p.stdout
    assert re.search(r"6[-|:]6", out), "layout tile 6-6 not drawn"
    for t in ("5-5", "6-5", "6-4"):
        assert t in out, f"hand tile {t} missing"
    assert re.search(r"(?i)boneyard\D*24", out), "boneyard count missing"
    assert re.search(r"P1\b.*to (act|play)|to (act|play).*\bP1\b", out), "whose turn missing"


def test_replay_text_shows_the_result(tmp_path: Path) -> None:
    s = play(block_start(), "6-6", "6-5@6-6", "5-5@6-5")
    p = run("replay", str(write(tmp_path / "r.json", s)))
    assert_ok(p.returncode, p.stdout, p.stderr)
    result = [line for line in p.stdout.splitlines() if "domino" in line.lower()]
    assert result, p.stdout
    assert "P0" in result[-1] and "10" in result[-1]
    for t in ("6-6", "6-5", "5-5"):
        hi, lo = t.split("-")
        assert re.search(rf"{hi}[-|:]{lo}|{lo}[-|:]{hi}", p.stdout), f"{t} not in layout"
    assert "6-4" in p.stdout


def test_replay_json_start(tmp_path: Path) -> None:
    p = run("replay", str(write(tmp_path / "r.json", block_start([5, 7]))), "--json")
    assert_ok(p.returncode, p.stdout, p.stderr)
    data = json.loads(p.stdout)
    assert set(data) >= SUMMARY_KEYS
    assert data["game"] == "block"
    assert data["over"] is False
    assert data["actor"] == 0
    assert sorted(data["legal"]) == ["5-5", "6-6"]
    assert [sorted(h) for h in data["hands"]] == [["5-5", "6-6"], ["6-4", "6-5"]]
    assert data["boneyard"] == 24
    assert data["scores"] == [5, 7]
    assert data["result"] is None


def test_replay_json_running(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = summary_of(write(tmp_path / "r.json", play(block_start([5, 7]), "6-6")), capsys)
    assert data["over"] is False
    assert data["actor"] == 1
    assert sorted(data["legal"]) == ["6-4@6-6", "6-5@6-6"]
    assert [sorted(h) for h in data["hands"]] == [["5-5"], ["6-4", "6-5"]]
    assert data["boneyard"] == 24
    assert data["scores"] == [5, 7]
    assert data["result"] is None


def test_replay_json_domino(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = play(block_start([5, 7]), "6-6", "6-5@6-6", "5-5@6-5")
    data = summary_of(write(tmp_path / "r.json", s), capsys)
    assert set(data) >= SUMMARY_KEYS
    assert data["over"] is True
    assert data["actor"] is None
    assert data["legal"] == []
    assert data["hands"] == [[], ["6-4"]]
    assert data["boneyard"] == 24
    assert data["result"] == {"reason": "domino", "winners": [0], "points": [10, 0]}
    assert data["scores"] == [15, 7]


def test_replay_json_blocked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # P0 leads 6-6, P1 plays 6-4: ends 6 and 4, P0 holds 5-5 and P1 0-0, and block never draws.
    s = start("block", [["6-6", "5-5"], ["6-4", "0-0"]], BLOCK_OPTS)
    s = play(s, "6-6", "6-4@6-6")
    data = summary_of(write(tmp_path / "r.json", s), capsys)
    assert data["over"] is True
    assert data["actor"] is None
    assert data["legal"] == []
    assert [sorted(h) for h in data["hands"]] == [["5-5"], ["0-0"]]
    # P1 has 0 pips, P0 10: P1 scores the others' pips minus its own.
    assert data["result"] == {"reason": "blocked", "winners": [1], "points": [0, 10]}
    assert data["scores"] == [0, 10]


def test_replay_json_draw_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = start(
        "draw",
        [["6-6", "5-5"], ["0-0", "1-0"]],
        BLOCK_OPTS,
        boneyard_first=["2-0", "6-5"],
    )
    s = play(s, "6-6")
    data = summary_of(write(tmp_path / "a.json", s), capsys)
    assert (data["actor"], data["legal"], data["boneyard"]) == (1, ["draw"], 24)
    data = summary_of(write(tmp_path / "b.json", play(s, "draw")), capsys)
    assert (data["actor"], data["legal"], data["boneyard"]) == (1, ["draw"], 23)
    assert sorted(data["hands"][1]) == ["0-0", "1-0", "2-0"]
    data = summary_of(write(tmp_path / "c.json", play(s, "draw", "draw")), capsys)
    assert (data["actor"], data["legal"], data["boneyard"]) == (1, ["6-5@6-6"], 22)


def test_replay_json_super_dominoes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = sd_midgame()
    data = summary_of(write(tmp_path / "sd.json", s), capsys)
    assert set(data) >= SUMMARY_KEYS
    assert data["game"] == "super_dominoes"
    assert data["over"] is s.is_over
    assert data["actor"] == s.actor
    assert sorted(data["legal"]) == sorted(str(a) for a in s.legal_actions())
    assert [sorted(h) for h in data["hands"]] == [
        sorted(str(t) for t in s.hand(i)) for i in range(3)
    ]
    assert data["boneyard"] == s.boneyard_size
    assert data["result"] is None


def test_replay_stdin(tmp_path: Path) -> None:
    s = play(block_start([5, 7]), "6-6", "6-5@6-6", "5-5@6-5")
    text = dump_record(s)
    from_file = run("replay", str(write(tmp_path / "r.json", s)), "--json")
    from_stdin = run("replay", "-", "--json", stdin=text)
    assert_ok(from_stdin.returncode, from_stdin.stdout, from_stdin.stderr)
    assert json.loads(from_stdin.stdout) == json.loads(from_file.stdout)


def test_replay_accepts_its_own_result_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A finished record carries "result" (written by the program, ignored when read).
    s = play(block_start(), "6-6", "6-5@6-6", "5-5@6-5")
    assert "result" in record_of(s)
    data = summary_of(write(tmp_path / "r.json", s), capsys)
    assert data["result"] == record_of(s)["result"]


# ------------------------------------------------------------------------------ perft
def test_perft_hand_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # P0 leads 6-6 or 5-5. After 6-6, P1 plays 6-5 or 6-4 on it; after 5-5 only 6-5.
    # Then: 6-6 6-5 -> P0 goes out with 5-5; 6-6 6-4 -> P0 passes; 5-5 6-5 -> P0 goes out.
    # Then only the passing line continues: P1 plays 6-5@6-6, and goes out.
    rec = str(write(tmp_path / "b.json", block_start()))
    expected = {0: 1, 1: 2, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3}
    for depth, count in expected.items():
        code, out, err = cli(["perft", rec, str(depth)], capsys)
        assert_ok(code, out, err)
        assert out.split() == [str(count)], f"depth {depth}: {out!r}"


def test_perft_end_to_end_matches_library(tmp_path: Path) -> None:
    s = sd_midgame()
    rec = write(tmp_path / "sd.json", s)
    p = run("perft", str(rec), "3")
    assert_ok(p.returncode, p.stdout, p.stderr)
    assert p.stdout.strip() == str(perft_count(load_record(rec), 3))
    assert p.stdout.strip() == str(perft_count(s, 3))


def test_perft_divide_hand_counted(tmp_path: Path) -> None:
    p = run("perft", str(write(tmp_path / "b.json", block_start())), "2", "--divide")
    assert_ok(p.returncode, p.stdout, p.stderr)
    lines = p.stdout.strip().splitlines()
    assert lines[-1] == "3"
    assert sorted(lines[:-1]) == ["5-5 1", "6-6 2"]


def test_perft_divide_matches_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    s = sd_midgame(5)
    code, out, err = cli(["perft", str(write(tmp_path / "sd.json", s)), "2", "--divide"], capsys)
    assert_ok(code, out, err)
    lines = out.strip().splitlines()
    counts = {}
    for line in lines[:-1]:
        action, count = line.rsplit(" ", 1)
        counts[action] = int(count)
    assert sorted(counts) == sorted(str(a) for a in s.legal_actions())
    for a in s.legal_actions():
        assert counts[str(a)] == perft_count(s.apply(a), 1)
    assert int(lines[-1]) == sum(counts.values()) == perft_count(s, 2)


def test_perft_over_and_depth_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    over = str(write(tmp_path / "o.json", play(block_start(), "6-6", "6-5@6-6", "5-5@6-5")))
    fresh = str(write(tmp_path / "f.json", block_start()))
    for args in ([over, "4"], [fresh, "0"], [over, "3", "--divide"], [fresh, "0", "--divide"]):
        code, out, err = cli(["perft", *args], capsys)
        assert_ok(code, out, err)
        assert out.strip().splitlines()[-1] == "1", (args, out)
    code, out, err = cli(["perft", over, "3", "--divide"], capsys)
    assert out.split() == ["1"], "an over position has no legal action to divide by"


# ------------------------------------------------------------------------------ simulate
def test_simulate_reproducible_and_workers_agree() -> None:
    args = ["simulate", "sd", "--players", "3", "--games", "6", "--seed", "11", "--json"]
    a = run(*args)
    b = run(*args)
    c = run(*args, "--workers", "2")
    for p in (a, b, c):
        assert_ok(p.returncode, p.stdout, p.stderr)
    da, db, dc = (json.loads(p.stdout) for p in (a, b, c))
    assert da == db == dc
    assert da["games"] == 6
    assert len(da["wins_by_seat"]) == 3
    assert sum(da["wins_by_seat"]) + da["no_winner"] == 6
    assert sum(da["endings"].values()) == 6
    assert set(da["endings"]) <= {"domino", "blocked"}
    assert da["moves_per_hand"] > 0
    assert len(da["points_per_hand_by_seat"]) == 3


def test_simulate_text_summary_reproducible() -> None:
    args = ["simulate", "block", "-n", "3", "-k", "8", "-s", "5"]
    a, b = run(*args), run(*args, "-w", "2")
    for p in (a, b):
        assert_ok(p.returncode, p.stdout, p.stderr)
    assert TIMING.sub("", a.stdout) == TIMING.sub("", b.stdout)
    text = a.stdout.lower()
    for word in ("wins", "p0", "p1", "p2", "moves", "points"):
        assert word in text, f"{word} missing from summary:\n{a.stdout}"
    other = run("simulate", "block", "-n", "3", "-k", "8", "-s", "6")
    assert TIMING.sub("", other.stdout) != TIMING.sub("", a.stdout)


def test_simulate_records_replay(tmp_path: Path) -> None:
    out_dir = tmp_path / "recs"
    p = run(
        "simulate", "draw", "-n", "3", "-k", "4", "-s", "3",
        "--records", str(out_dir), "--json",
    )  # fmt: skip
    assert_ok(p.returncode, p.stdout, p.stderr)
    summary = json.loads(p.stdout)
    files = sorted(out_dir.iterdir())
    assert len(files) == 4
    wins = [0, 0, 0]
    endings: Counter[str] = Counter()
    for f in files:
        record = json.loads(f.read_text(encoding="utf-8"))
        r = run("replay", str(f), "--json")
        assert_ok(r.returncode, r.stdout, r.stderr)
        data = json.loads(r.stdout)
        assert data["over"] is True and data["actor"] is None and data["legal"] == []
        assert data["result"] is not None
        if "result" in record:
            assert data["result"] == record["result"]
        for w in data["result"]["winners"]:
            wins[w] += 1
        endings[data["result"]["reason"]] += 1
    assert wins == summary["wins_by_seat"]
    assert dict(endings) == summary["endings"]


def test_simulate_option_changes_super_dominoes(tmp_path: Path) -> None:
    base = ["simulate", "super_dominoes", "-n", "3", "-k", "6", "-s", "11", "--json"]
    default = run(*base)
    changed = run(*base, "--option", "draw_when_unable=0", "--records", str(tmp_path))
    for p in (default, changed):
        assert_ok(p.returncode, p.stdout, p.stderr)
    d, c = json.loads(default.stdout), json.loads(changed.stdout)
    assert d != c, "draw_when_unable=0 did not change the run"
    assert c.get("options", {"draw_when_unable": 0}) == {"draw_when_unable": 0}
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    for f in files:
        assert json.loads(f.read_text(encoding="utf-8"))["options"] == {"draw_when_unable": 0}
        assert load_record(f).options.draw_when_unable == 0


def test_simulate_option_lead_on_block(tmp_path: Path) -> None:
    base = ["simulate", "block", "-n", "4", "-k", "6", "-s", "2", "--json"]
    default_dir, seat0_dir = tmp_path / "default", tmp_path / "seat0"
    default = run(*base, "--records", str(default_dir))
    seat0 = run(*base, "-o", "lead=seat0_any", "--records", str(seat0_dir))
    for p in (default, seat0):
        assert_ok(p.returncode, p.stdout, p.stderr)
    assert json.loads(default.stdout) != json.loads(seat0.stdout)
    for f in sorted(default_dir.glob("*.json")):
        final = load_record(f)
        action = final.replay()[0][1]
        doubles = [t for s in range(4) for t in final.initial.hand(s) if t.is_double]
        assert action.tile == max(doubles, key=lambda t: t.hi), f.name
    for f in sorted(seat0_dir.glob("*.json")):
        assert load_record(f).replay()[0][0] == 0, f.name


# ------------------------------------------------------------------------------ watch
MOVE_LINE = re.compile(r"^\s*(\d+)\.\s+P(\d+):\s+(\S.*?)\s*$")


def test_watch_reproducible_with_events(tmp_path: Path) -> None:
    rec = tmp_path / "w.json"
    a = run("watch", "super_dominoes", "--players", "3", "--seed", "5", "--record", str(rec))
    b = run("watch", "super_dominoes", "--players", "3", "--seed", "5")
    for p in (a, b):
        assert_ok(p.returncode, p.stdout, p.stderr)
    out_a = [line for line in a.stdout.splitlines() if str(rec) not in line]
    out_b = [line for line in b.stdout.splitlines() if str(rec) not in line]
    assert out_a == out_b
    assert rec.is_file()

    final = load_record(rec)
    assert final.is_over
    steps = final.replay()
    lines = a.stdout.splitlines()
    move_idx = [i for i, line in enumerate(lines) if MOVE_LINE.match(line)]
    shown = [MOVE_LINE.match(lines[i]).groups() for i in move_idx]  # type: ignore[union-attr]
    assert [(int(n), int(seat), act) for n, seat, act in shown] == [
        (i + 1, seat, str(action)) for i, (seat, action, _) in enumerate(steps)
    ]
    # every move's events are spelled out right after it, in order
    for k, i in enumerate(move_idx):
        end = move_idx[k + 1] if k + 1 < len(move_idx) else len(lines)
        described = [line.strip() for line in lines[i + 1 : end] if line.strip()]
        events = [e.describe() for e in steps[k][2]]
        assert events, f"move {k + 1} caused no event"
        assert described[: len(events)] == events, f"move {k + 1}: {described} vs {events}"

    # the final position is shown, with the same result the record replays to
    replayed = run("replay", str(rec))
    assert_ok(replayed.returncode, replayed.stdout, replayed.stderr)
    result_lines = [line for line in replayed.stdout.splitlines() if line.startswith("Result")]
    assert result_lines and result_lines[0] in lines[move_idx[-1] :]
    for line in replayed.stdout.splitlines():
        if re.match(r"^\W*P\d+ \(", line):
            assert line in lines[move_idx[-1] :], f"final hand line {line!r} not shown"
    summary = json.loads(run("replay", str(rec), "--json").stdout)
    assert summary["over"] is True
    assert summary["result"] == final.result.to_json()  # type: ignore[union-attr]
    assert json.loads(rec.read_text(encoding="utf-8"))["result"] == summary["result"]


def test_watch_seed_and_options_matter(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for args in (
        ["watch", "block", "-n", "3", "-s", "3"],
        ["watch", "block", "-n", "3", "-s", "3"],
        ["watch", "block", "-n", "3", "-s", "4"],
        ["watch", "block", "-n", "3", "-s", "3", "-o", "lead=seat0_any"],
    ):
        code, out, err = cli(args, capsys)
        assert_ok(code, out, err)
        outs.append(out)
    assert outs[0] == outs[1]
    assert outs[0] != outs[2]
    first_moves = [next(m for m in map(MOVE_LINE.match, o.splitlines()) if m) for o in outs]
    assert first_moves[3].group(2) == "0", "lead=seat0_any: seat 0 must lead"


def test_watch_draw_game_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "d.json"
    argv = ["watch", "draw", "-n", "3", "-s", "9", "-o", "draw_mode=one", "--record", str(rec)]
    code, out, err = cli(argv, capsys)
    assert_ok(code, out, err)
    record = json.loads(rec.read_text(encoding="utf-8"))
    assert record["game"] == "draw"
    assert record["players"] == 3
    assert record.get("options") == {"draw_mode": "one"}
    shown = [m.group(3) for m in map(MOVE_LINE.match, out.splitlines()) if m]
    assert shown == record["moves"]
    data = summary_of(rec, capsys)
    assert data["over"] is True
    assert data["result"]["reason"] in {"domino", "blocked"}
    assert data["result"] == record["result"]


# ------------------------------------------------------------------------------ bad input
@pytest.fixture
def bad(tmp_path: Path) -> dict[str, str]:
    """Record files of every kind of wrong, by name."""
    good = record_of(block_start())

    def dump(name: str, data: Any) -> str:
        path = tmp_path / name
        path.write_text(json.dumps(data), encoding="utf-8")
        return str(path)

    files = {
        "good": dump("good.json", good),
        "illegal": dump("illegal.json", {**good, "moves": ["6-6", "6-5@6-6", "6-6@6-5"]}),
        "garbled": dump("garbled.json", {**good, "moves": ["6-6", "banana"]}),
        "after_end": dump(
            "after_end.json", {**good, "moves": ["6-6", "6-5@6-6", "5-5@6-5", "pass"]}
        ),
        "move_not_string": dump("nonstr.json", {**good, "moves": ["6-6", 7]}),
        "unknown_key": dump("key.json", {**good, "bogus": 1}),
        "bad_option": dump("opt.json", {**good, "options": {"hand_size": "x"}}),
        "unknown_option": dump("uopt.json", {**good, "options": {"nope": 1}}),
        "alias_game": dump("alias.json", {**good, "game": "sd"}),
        "unknown_game": dump("ugame.json", {**good, "game": "chess"}),
        "players": dump("players.json", {**good, "players": 5}),
        "bad_deal": dump(
            "deal.json",
            {**good, "deal": {**good["deal"], "boneyard": good["deal"]["boneyard"][1:]}},
        ),
        "both": dump("both.json", {**good, "seed": 3}),
        "top_list": dump("list.json", [1, 2]),
        "format": dump("format.json", {**good, "format": "bonepile-record/9"}),
    }
    (tmp_path / "trunc.json").write_text(json.dumps(good)[:50], encoding="utf-8")
    (tmp_path / "empty.json").write_text("", encoding="utf-8")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00\x01garbage")
    (tmp_path / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    (tmp_path / "adir").mkdir()
    files.update(
        trunc=str(tmp_path / "trunc.json"),
        empty=str(tmp_path / "empty.json"),
        binary=str(tmp_path / "binary.json"),
        deep=str(tmp_path / "deep.json"),
        missing=str(tmp_path / "missing.json"),
        directory=str(tmp_path / "adir"),
        not_a_dir=str(tmp_path / "good.json" / "x.json"),
        too_long=str(tmp_path / ("x" * 5000)),
        out=str(tmp_path / "out"),
        tmp=str(tmp_path),
    )
    return files


RECORD_CASES: list[tuple[str, tuple[str, ...]]] = [
    ("missing", ("missing.json",)),
    ("directory", ("adir",)),
    ("not_a_dir", ()),
    ("too_long", ()),
    ("binary", ()),
    ("trunc", ("JSON",)),
    ("empty", ("JSON",)),
    ("deep", ()),
    ("top_list", ()),
    ("format", ("format",)),
    ("illegal", ('"6-6@6-5"', "2")),
    ("garbled", ("banana", "1")),
    ("after_end", ("pass", "3")),
    ("move_not_string", ("moves",)),
    ("unknown_key", ("bogus",)),
    ("bad_option", ("hand_size",)),
    ("unknown_option", ("nope",)),
    ("alias_game", ("game",)),
    ("unknown_game", ("chess",)),
    ("players", ()),
    ("bad_deal", ("deal",)),
    ("both", ("deal", "seed")),
]


@pytest.mark.parametrize(("name", "fragments"), RECORD_CASES, ids=[c[0] for c in RECORD_CASES])
@pytest.mark.parametrize("command", ["replay", "replay-json", "perft"])
def test_bad_record(
    name: str,
    fragments: tuple[str, ...],
    command: str,
    bad: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = {
        "replay": ["replay", bad[name]],
        "replay-json": ["replay", bad[name], "--json"],
        "perft": ["perft", bad[name], "2", "--divide"],
    }[command]
    line = assert_bad_input(*cli(args, capsys), *fragments)
    if name in ("illegal", "garbled", "after_end"):
        # the message names the move: its index and its text
        text = json.loads(Path(bad[name]).read_text(encoding="utf-8"))["moves"][-1]
        rest = line.replace(text, "")
        index = fragments[-1]
        assert re.search(rf"(?<![\w-]){index}(?![\w-])", rest), f"no move index in {line!r}"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads any file")
def test_unreadable_record(bad: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    os.chmod(bad["good"], 0)
    try:
        assert_bad_input(*cli(["replay", bad["good"]], capsys))
    finally:
        os.chmod(bad["good"], 0o644)


@pytest.mark.parametrize(
    "text",
    ["", "{", "[1]", '{"format": "bonepile-record/1"}'],
    ids=["empty", "brace", "list", "partial"],
)
def test_bad_record_on_stdin(
    text: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert_bad_input(*cli(["replay", "-"], capsys))


def test_bad_record_end_to_end(bad: dict[str, str]) -> None:
    p = run("replay", bad["illegal"], "--json")
    assert_bad_input(p.returncode, p.stdout, p.stderr, '"6-6@6-5"')
    p = run("perft", "-", "2", stdin="{not json")
    assert_bad_input(p.returncode, p.stdout, p.stderr)


PERFT_CASES: list[tuple[list[str], tuple[str, ...]]] = [
    (["--", "{good}", "-1"], ("-1",)),
    (["{good}", "--", "-3"], ("-3",)),
    (["{good}", "-1"], ()),
    (["{good}", "x"], ()),
    (["{good}", "1.5"], ()),
    (["{good}"], ("DEPTH",)),
    ([], ("RECORD",)),
    (["{good}", "2", "extra"], ("extra",)),
    (["{good}", "2", "--bogus"], ("--bogus",)),
    (["{missing}", "-1"], ()),
]


@pytest.mark.parametrize(("args", "fragments"), PERFT_CASES)
def test_bad_perft(
    args: list[str],
    fragments: tuple[str, ...],
    bad: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["perft", *(a.format(**bad) for a in args)]
    assert_bad_input(*cli(argv, capsys), *fragments)


SIMULATE_CASES: list[tuple[list[str], tuple[str, ...]]] = [
    (["chess", "-n", "2"], ("chess",)),
    (["sd", "-n", "3", "-o", "bogus=1"], ("bogus",)),
    (["sd", "-n", "3", "--option", "draw_when_unable=x"], ("draw_when_unable",)),
    (["sd", "-n", "3", "-o", "draw_when_unable=2.5"], ("draw_when_unable",)),
    (["sd", "-n", "3", "-o", "draw_when_unable=true"], ("draw_when_unable",)),
    (["sd", "-n", "3", "-o", "draw_when_unable=-1"], ("draw_when_unable",)),
    (["sd", "-n", "3", "-o", "skip_stacking=maybe"], ("skip_stacking",)),
    (["sd", "-n", "3", "-o", "scoring=fancy"], ("scoring",)),
    (["sd", "-n", "3", "-o", "target_score=0"], ("target_score",)),
    (["block", "-n", "2", "-o", "max_pip=7"], ("max_pip",)),
    (["block", "-n", "2", "-o", "hand_size=0"], ("hand_size",)),
    (["block", "-n", "2", "-o", "reserve=-2"], ("reserve",)),
    (["block", "-n", "2", "-o", "lead=nobody"], ("lead",)),
    (["block", "-n", "2", "-o", "hand_size=15"], ()),
    (["sd", "-n", "3", "-o", "draw_when_unable"], ("draw_when_unable",)),
    (["sd", "-n", "3", "-o", "=3"], ()),
    (["sd", "-n", "3", "-o", ""], ()),
    (["sd", "-n", "1"], ("1",)),
    (["sd", "-n", "9"], ("9",)),
    (["sd", "-n", "0"], ()),
    (["sd", "-n", "-2"], ()),
    (["block", "-n", "5"], ("5",)),
    (["block", "-n", "3", "-o", "teams=true"], ()),
    (["block", "-n", "x"], ()),
    (["block", "-n", "2", "--games", "0"], ("--games",)),
    (["block", "-n", "2", "--games", "-3"], ("--games",)),
    (["block", "-n", "2", "--games", "x"], ("--games",)),
    (["block", "-n", "2", "--workers", "0"], ("--workers",)),
    (["block", "-n", "2", "--workers", "-1"], ("--workers",)),
    (["block", "-n", "2", "--workers", "two"], ("--workers",)),
    (["block", "-n", "2", "--seed", "x"], ("--seed",)),
    (["block", "-n", "2", "--bogus"], ("--bogus",)),
    (["block", "-n", "2", "--records", "{good}"], ()),
    (["block", "-n", "2", "--records", "{not_a_dir}"], ()),
    ([], ("GAME",)),
]


@pytest.mark.parametrize(("args", "fragments"), SIMULATE_CASES)
def test_bad_simulate(
    args: list[str],
    fragments: tuple[str, ...],
    bad: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "-k", "2", *(a.format(**bad) for a in args)]
    if "--records" not in args:
        argv += ["--records", bad["out"]]
    assert_bad_input(*cli(argv, capsys), *fragments)
    assert not Path(bad["out"]).exists(), "bad input still created the records directory"


WATCH_CASES: list[tuple[list[str], tuple[str, ...]]] = [
    (["chess", "-n", "2"], ("chess",)),
    (["block", "-n", "9"], ("9",)),
    (["block", "-n", "2", "-o", "lead=xx"], ("lead",)),
    (["block", "-n", "2", "-o", "spinner=2"], ("spinner",)),
    (["sd", "-n", "3", "-o", "first_player_rule=nope"], ("first_player_rule",)),
    (["sd", "-n", "3", "-o", "nope=1"], ("nope",)),
    (["sd", "-n", "3", "-o", "novalue"], ()),
    (["block", "-n", "2", "--delay", "x"], ("--delay",)),
    (["block", "-n", "2", "--seed", "1.5"], ("--seed",)),
    (["block", "-n", "2", "--record", "{directory}"], ()),
]


@pytest.mark.parametrize(("args", "fragments"), WATCH_CASES)
def test_bad_watch(
    args: list[str],
    fragments: tuple[str, ...],
    bad: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["watch", *(a.format(**bad) for a in args)]
    if "--record" not in args:
        argv += ["--record", bad["out"]]
    assert_bad_input(*cli(argv, capsys), *fragments)
    assert not Path(bad["out"]).exists(), "bad input still wrote the record"


def test_watch_unwritable_record(bad: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    target = bad["not_a_dir"]
    code, out, err = cli(["watch", "block", "-n", "2", "--record", target], capsys)
    assert "Traceback" not in out + err
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bonepile: error: "), err
    assert not Path(target).exists()


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["rules", "chess"], ("chess",)),
        (["rules", "sd", "extra"], ("extra",)),
        (["rules", "--bogus"], ("--bogus",)),
        (["bogus"], ("bogus",)),
        (["--bogus"], ("--bogus",)),
        (["replay"], ("RECORD",)),
        (["replay", "{good}", "--bogus"], ("--bogus",)),
        (["replay", "{good}", "extra"], ("extra",)),
    ],
)
def test_bad_usage(
    args: list[str],
    fragments: tuple[str, ...],
    bad: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert_bad_input(*cli([a.format(**bad) for a in args], capsys), *fragments)


def test_bad_input_end_to_end(tmp_path: Path) -> None:
    for args in (
        ["simulate", "super_dominoes", "-n", "3", "-o", "draw_when_unable=x"],
        ["simulate", "block", "-n", "2", "--records", str(tmp_path / "x" / "y"), "-w", "0"],
        ["watch", "nope", "-n", "2"],
        ["frobnicate"],
    ):
        p = run(*args)
        assert_bad_input(p.returncode, p.stdout, p.stderr)
    assert not (tmp_path / "x").exists()


def test_simulate_records_dir_not_creatable(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    p = run("simulate", "block", "-n", "2", "-k", "2", "--records", str(blocker / "sub"))
    assert_bad_input(p.returncode, p.stdout, p.stderr)


# ------------------------------------------------------------------------------ documented values
@pytest.mark.parametrize("game", ["super_dominoes", "block", "draw"])
def test_every_documented_choice_is_accepted(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every alternative `bonepile rules GAME` offers for a choice or bool option works."""
    g = get_game(game)
    players = 4 if game != "super_dominoes" else 3
    for spec in g.option_specs():
        if spec.kind == "choice":
            values = list(spec.choices)
        elif spec.kind == "bool":
            values = ["true", "false"]
        elif spec.allowed:
            values = [str(a) for a in spec.allowed]
        else:
            continue
        for value in values:
            argv = ["simulate", game, "-n", str(players), "-k", "1", "-o", f"{spec.name}={value}"]
            code, out, err = cli(argv, capsys)
            assert_ok(code, out, err)


def test_block_target_score_null(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/games/block.md, "Options": block/draw `target_score` is Optional[int]; null means a
    single hand.

    `bonepile rules block` documents it as "(null: one hand)", so both the command line and a
    record must accept null.
    """
    for game in ("block", "draw"):
        argv = ["simulate", game, "-n", "2", "-k", "1", "-o", "target_score=null"]
        code, out, err = cli(argv, capsys)
        assert_ok(code, out, err)
    record = {**record_of(block_start()), "options": {**BLOCK_OPTS, "target_score": None}}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert summary_of(path, capsys)["actor"] == 0
