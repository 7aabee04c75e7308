"""Hostile files and values at the library's edge: atomic writes, size-limited reads, huge
numbers, deep nesting, long text in messages, perft's node limit and the escaping of bot text
in arena reports."""

from __future__ import annotations

import io
import json
import os
import signal
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

from bonepile.actions import parse_action
from bonepile.arena.play import GameOutcome, Setup, seatings
from bonepile.arena.report import escape_markdown, table, write_report
from bonepile.arena.runner import ArenaResult
from bonepile.arena.stats import summarize
from bonepile.errors import (
    BonepileError,
    InputFileError,
    InvalidActionError,
    OptionError,
    PerftLimitError,
    RecordError,
    quoted,
    shown,
)
from bonepile.files import (
    MAX_FILE_BYTES,
    read_stream_limited,
    read_text_limited,
    write_text_atomic,
)
from bonepile.games import get_game
from bonepile.grid import BoardError, load_board
from bonepile.match import new_match
from bonepile.match_record import dump_match, load_any, read_any, read_match, save_match
from bonepile.options import parse_option_assignments
from bonepile.perft import divide, perft
from bonepile.record import dump_record, load_record, read_record, record_of, save_record
from bonepile.state import State
from bonepile.tiles import parse_tile

MESSAGE_LIMIT = 400
"""No message about a hostile input may be longer than this."""


def one_line(e: BaseException) -> str:
    """The message of ``e``, checked to be one short line."""
    text = str(e)
    assert "\n" not in text and "\r" not in text, text[:200]
    assert len(text) <= MESSAGE_LIMIT, (len(text), text[:200])
    return text


@pytest.fixture(autouse=True)
def alarm() -> Iterator[None]:
    """Fail a test that hangs (opening a FIFO, reading /dev/zero) rather than wait forever."""

    def hung(signum: int, frame: Any) -> NoReturn:
        raise TimeoutError("the test hung")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def a_hand(moves: int = 4) -> State[Any]:
    state = get_game("block").new(2, seed=3)
    for _ in range(moves):
        state = state.apply(state.legal_actions()[0])
    return state


def a_record(**changes: Any) -> dict[str, Any]:
    rec = record_of(a_hand())
    rec.update(changes)
    return rec


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ------------------------------------------------------------------------- atomic writes
def _break(monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    def boom(*args: Any, **kwargs: Any) -> NoReturn:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, where, boom)


@pytest.mark.parametrize("where", ["fsync", "replace"])
def test_a_failed_record_write_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    path = tmp_path / "hand.json"
    save_record(a_hand(2), path)
    good = path.read_bytes()
    _break(monkeypatch, where)
    with pytest.raises(OSError, match="No space"):
        save_record(a_hand(4), path)
    monkeypatch.undo()
    assert path.read_bytes() == good
    assert leftovers(tmp_path) == []
    assert len(load_record(path).moves) == 2


def test_a_failed_match_write_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "match.json"
    match = new_match(get_game("block"), 2, seed=5)
    save_match(match, path)
    good = path.read_bytes()
    _break(monkeypatch, "fsync")
    with pytest.raises(OSError):
        save_match(match, path, headers={"event": "changed"})
    monkeypatch.undo()
    assert path.read_bytes() == good and leftovers(tmp_path) == []


def test_a_failed_write_of_a_new_file_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _break(monkeypatch, "fsync")
    with pytest.raises(OSError):
        write_text_atomic(tmp_path / "new.json", "{}")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_atomic_writes_replace_the_file_and_keep_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text("old")
    path.chmod(0o640)
    save_record(a_hand(3), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert len(load_record(path).moves) == 3 and leftovers(tmp_path) == []
    link = tmp_path / "link.json"
    link.symlink_to(path)
    write_text_atomic(link, dump_record(a_hand(1)) + "\n")
    assert link.is_symlink() and len(load_record(path).moves) == 1


def test_private_atomic_writes_are_the_owners_only_from_the_start(tmp_path: Path) -> None:
    from bonepile.files import write_text_atomic

    path = tmp_path / "seats.json"
    path.write_text("old")
    path.chmod(0o644)
    write_text_atomic(path, "secret", private=True)
    assert path.read_text() == "secret" and path.stat().st_mode & 0o777 == 0o600
    fresh = tmp_path / "saved.json"
    write_text_atomic(fresh, "deal", private=True)
    assert fresh.stat().st_mode & 0o777 == 0o600


def test_atomic_writes_go_straight_to_devices(tmp_path: Path) -> None:
    write_text_atomic("/dev/null", "nothing")  # no temporary file beside /dev/null
    with pytest.raises(OSError):
        write_text_atomic(tmp_path, "a directory is not replaced")
    assert tmp_path.is_dir() and leftovers(tmp_path) == []


def test_a_failed_report_write_keeps_the_old_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = arena_result("careful")
    md = write_report(result, tmp_path)
    good = md.read_bytes()
    _break(monkeypatch, "fsync")
    with pytest.raises(OSError):
        write_report(arena_result("a reason that never lands"), tmp_path)
    monkeypatch.undo()
    assert md.read_bytes() == good and leftovers(tmp_path) == []


# ------------------------------------------------------------------------- limited reads
def test_a_huge_record_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    with open(path, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used, nothing worth reading
    for load in (load_record, load_any):
        with pytest.raises(RecordError) as e:
            load(path)
        assert one_line(e.value) == f"record: {path} is larger than 16 MiB"
    with pytest.raises(BoardError, match="is larger than 16 MiB"):
        load_board(str(path))


def test_a_record_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    text = dump_record(a_hand())
    path.write_text(text)
    assert read_text_limited(path, len(text.encode())) == text
    with pytest.raises(InputFileError, match=r"larger than 100 bytes"):
        read_text_limited(path, 100)


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("/dev/zero", "it is a device, not a regular file"),
        ("/dev/null", "it is a device, not a regular file"),
        ("DIR", "it is a directory"),
        ("FIFO", "it is a pipe (FIFO), not a regular file"),
        ("MISSING", "no such file"),
        ("LONG", "File name too long"),
    ],
)
def test_what_is_not_a_regular_file_is_refused_at_once(tmp_path: Path, path: str, why: str) -> None:
    if path == "DIR":
        path = str(tmp_path)
    elif path == "FIFO":
        path = str(tmp_path / "fifo")
        os.mkfifo(path)  # no writer: opening it to read would block
    elif path == "MISSING":
        path = str(tmp_path / "missing.json")
    elif path == "LONG":
        path = "x" * 100_000
    with pytest.raises(RecordError) as e:
        load_any(path)
    assert one_line(e.value).endswith(why)
    with pytest.raises(BoardError) as b:
        load_board(path)
    assert why in one_line(b.value) or "no board called" in str(b.value)


def test_bytes_that_are_not_utf8_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin.json"
    path.write_bytes(b'{"format": "bonepile-record/1", "game": "caf\xe9"}')
    with pytest.raises(RecordError) as e:
        load_record(path)
    assert one_line(e.value).endswith("not UTF-8 text (byte 44)")
    with pytest.raises(InputFileError, match="not UTF-8"):
        read_stream_limited(io.BytesIO(b"\xff\xfe"))


def test_standard_input_is_read_with_a_limit() -> None:
    text = dump_record(a_hand())
    assert read_stream_limited(io.BytesIO(text.encode()), MAX_FILE_BYTES) == text
    assert read_stream_limited(io.StringIO(text), MAX_FILE_BYTES) == text
    with pytest.raises(InputFileError) as e:
        read_stream_limited(io.BytesIO(b" " * 2000), 1000, "standard input")
    assert one_line(e.value) == "standard input is larger than 1,000 bytes"
    with open("/dev/zero", "rb") as endless, pytest.raises(InputFileError, match="16 MiB"):
        read_stream_limited(endless, MAX_FILE_BYTES)


# ------------------------------------------------------------------------- huge numbers
DIGITS = "9" * 5000


def test_a_number_of_thousands_of_digits_is_one_clear_error() -> None:
    text = json.dumps(a_record(scores_before=[0, 0])).replace("[0, 0]", f"[{DIGITS}, 0]")
    with pytest.raises(RecordError) as e:
        read_record(text)
    assert one_line(e.value) == "record: not valid JSON (a number has more than 4300 digits)"
    with pytest.raises(RecordError, match="4300 digits"):
        read_any(text)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"scores_before": [10**19, 0]}, "record: scores_before[0]: is out of range"),
        ({"scores_before": [0, -(10**4000)]}, "record: scores_before[1]: is out of range"),
        ({"seed": 2**63}, "record: seed: is out of range: a seed is an integer from 0 to"),
        ({"seed": -1}, "record: seed: is out of range"),
        ({"seed": -(10**4000)}, "record: seed: is out of range"),
        ({"players": 10**4000}, "record: players: must be a player count, got"),
        ({"leader": 10**4000}, "record: "),
    ],
)
def test_integers_out_of_all_reason_are_refused(changes: dict[str, Any], message: str) -> None:
    rec = a_record(**changes)
    if "leader" in rec:
        rec["format"] = "bonepile-record/2"
    with pytest.raises(RecordError) as e:
        read_record(rec)
    assert one_line(e.value).startswith(message)


def test_scores_and_seeds_within_the_bounds_are_read() -> None:
    state = read_record(a_record(scores_before=[10**18, -(10**18)]))
    assert state.scores_before == (10**18, -(10**18))
    rec = a_record(seed=2**63 - 1)
    del rec["moves"]
    assert read_record(rec).initial.seed == 2**63 - 1


def test_a_match_with_a_huge_seed_or_totals_is_refused() -> None:
    data = json.loads(dump_match(new_match(get_game("block"), 2, seed=5)))
    with pytest.raises(RecordError, match=r"^match: seed: is out of range"):
        read_match({**data, "seed": 10**4000})
    with pytest.raises(RecordError) as e:
        read_match({**data, "totals": [10**4000, 0]})
    assert one_line(e.value).startswith("match: totals: ")


@pytest.mark.parametrize(
    "item",
    [
        f"target_score={DIGITS}",
        f"target_score=-{DIGITS}",
        f"target_score={'9' * 50_000}",
        "target_score=" + "[" * 5000 + "]" * 5000,
        "target_score=1e400",
        "target_score=NaN",
        "target_score=-Infinity",
        f"{'x' * 5000}=1",
        "x" * 1_000_000,
    ],
)
def test_hostile_option_values_are_one_clear_error(item: str) -> None:
    game = get_game("block")
    with pytest.raises(OptionError) as e:
        game.make_options(parse_option_assignments(game.Options, [item], game.name))
    one_line(e.value)


# ------------------------------------------------------------------------- deep nesting
@pytest.mark.parametrize("depth", [3000, 100_000])
def test_a_record_nested_thousands_deep_is_one_clear_error(tmp_path: Path, depth: int) -> None:
    text = "[" * depth + "]" * depth
    for source in (text, '{"format": "bonepile-record/1", "moves": ' + text + "}"):
        with pytest.raises(RecordError) as e:
            read_any(source)
        assert one_line(e.value) == "record: not valid JSON (nested too deeply)"
    path = tmp_path / "board.json"
    path.write_text('{"grid": ' + text + "}")
    with pytest.raises(BoardError, match="nested too deeply"):
        load_board(str(path))


def test_nested_values_inside_a_record_are_shown_briefly() -> None:
    nest: Any = []
    for _ in range(500):
        nest = [nest]
    for key in ("options", "headers", "deal", "moves", "scores_before", "board"):
        with pytest.raises(BonepileError) as e:
            read_record(a_record(**{key: nest}))
        one_line(e.value)


# ------------------------------------------------------------------------- long text
def test_quoted_is_short_single_line_and_repr_like() -> None:
    assert quoted("6-6") == "'6-6'"
    assert quoted("it's\n") == "'it\\'s\\n'"
    assert quoted("x" * 1_000_000) == "'" + "x" * 60 + "\u2026' (1,000,000 characters)"
    assert quoted("\x1b[31m" * 1000, 10).startswith("'\\x1b[31m\\x1b")
    assert len(quoted("\U0001f600" * 10**6)) < 120
    assert quoted("\udcff") == "'\\udcff'"  # a non-UTF-8 byte from the command line
    assert shown(10**5000) == "<a int too large to show>"


PARSERS = [parse_action, parse_tile, lambda t: parse_action(f"discard {t}")]


@pytest.mark.parametrize("parse", PARSERS)
@pytest.mark.parametrize("text", ["6" * 1_000_000, "6-6@" + "x" * 10**6, "\x00\n" * 10**5])
def test_a_huge_move_gives_a_short_message(parse: Callable[[str], Any], text: str) -> None:
    with pytest.raises(InvalidActionError) as e:
        parse(text)
    assert "characters)" in one_line(e.value)


@pytest.mark.parametrize("parse", [parse_action, parse_tile])
def test_notation_longer_than_the_limit_is_refused_unread(parse: Callable[[str], Any]) -> None:
    # long runs of whitespace made the notation's patterns backtrack for seconds
    with pytest.raises(InvalidActionError, match="longer than 100 characters"):
        parse(" " * 20_000 + "x")
    assert parse(" 6-4 ") == parse("6-4")


@pytest.mark.parametrize("move", ["6-" + "6" * 1_000_000, "6-6" + " " * 10**6 + "x", "\n" * 10**6])
def test_a_record_with_a_huge_move_gives_a_short_message_fast(move: str) -> None:
    started = time.perf_counter()
    for rec in (a_record(moves=["6-6", move]), a_record(deal={"hands": [[move]], "boneyard": []})):
        rec.pop("seed", None)
        with pytest.raises(RecordError) as e:
            read_record(rec)
        one_line(e.value)
    with pytest.raises(RecordError) as e:
        read_record(a_record(moves=["6-6", move]))
    assert one_line(e.value).startswith("record: moves[1] ")
    assert "1,000,00" in str(e.value)
    assert time.perf_counter() - started < 2


def test_a_board_name_that_is_huge_is_quoted_briefly() -> None:
    with pytest.raises(BoardError) as e:
        load_board("b" * 5000)
    assert one_line(e.value).startswith("board: ")


# ------------------------------------------------------------------------- perft limit
def test_perft_stops_at_its_node_limit() -> None:
    start = get_game("block").new(2, seed=3)
    counts = [perft(start, d) for d in range(1, 4)]
    visited = sum(counts)  # no hand ends within three moves
    assert perft(start, 3, max_nodes=visited) == counts[-1]
    with pytest.raises(PerftLimitError) as e:
        perft(start, 3, max_nodes=visited - 1)
    assert one_line(e.value).startswith(f"perft stopped after {visited - 1:,} positions")
    assert sum(c for _, c in divide(start, 3, max_nodes=visited)) == counts[-1]
    with pytest.raises(PerftLimitError):
        divide(start, 3, max_nodes=visited - 1)
    with pytest.raises(PerftLimitError):
        perft(start, 10**6, max_nodes=1000)
    assert perft(start, 0, max_nodes=1) == 1


def test_perft_refuses_a_negative_depth_or_limit() -> None:
    start = get_game("block").new(2, seed=3)
    with pytest.raises(BonepileError):
        perft(start, -1)
    with pytest.raises(BonepileError):
        divide(start, 2, max_nodes=0)


# ------------------------------------------------------------------------- reports
HOSTILE = "bad | bot\nline two `code` <script>alert(1)</script> [link](x) ![img](y) *em* \x1b[31m"


def arena_result(reason: str, name: str = "external:" + HOSTILE) -> ArenaResult:
    """A small arena result with one forfeit whose reason (and agent name) is hostile text."""
    names = [name, "random"]
    setup = Setup("block", 2, tuple(names), 7, {})
    outcomes = []
    for index, seating in enumerate(seatings(2, 2) * 2):
        forfeit = (seating.index(0), reason) if index == 0 else None
        winner = seating.index(1) if forfeit else index % 2
        outcomes.append(
            GameOutcome(
                index=index,
                deal=index // 2,
                rotation=index % 2,
                seating=seating,
                winners=(winner,),
                points=(10, 0) if winner == 0 else (0, 10),
                reason="forfeit" if forfeit else "domino",
                moves=12,
                hands=1,
                think={0: (0.01, 6), 1: (0.02, 6)},
                forfeit=forfeit,
            )
        )
    return ArenaResult(setup, names, outcomes, summarize(names, outcomes))


def test_escape_markdown_leaves_nothing_active() -> None:
    assert escape_markdown("greedy") == "greedy"
    assert escape_markdown("a|b") == "a\\|b"
    assert escape_markdown("[x](y)") == "\\[x\\](y)"
    assert escape_markdown("<b>&amp;") == "\\<b\\>\\&amp;"
    assert escape_markdown("one\ntwo\r\x1b") == "one\\ntwo\\r\\x1b"
    assert escape_markdown("`$x$`\\") == "\\`\\$x\\$\\`\\\\"


def test_bot_text_cannot_break_or_inject_into_the_report(tmp_path: Path) -> None:
    result = arena_result(HOSTILE)
    md = write_report(result, tmp_path).read_text()
    lines = md.splitlines()
    rows = [line for line in lines if line.startswith("| external")]
    assert len(rows) == 1
    assert rows[0].count("|") - rows[0].count("\\|") == len(table(result)[0].split("|")) - 1
    forfeits = [line for line in lines if line.startswith("- game")]
    assert len(forfeits) == 1
    for line in rows + forfeits:
        for bad in ("<script>", "`code`", "[link](x)", "![img]", "*em*", "\x1b"):
            assert bad not in line
        assert "\\<script\\>" in line and "\\[link\\](x)" in line
    assert "line two" not in md.replace("\\nline two", "")  # the newline stayed an escape
    page = (tmp_path / "report.html").read_text()
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<td>external:bad | bot\\nline two" in page


def test_a_huge_forfeit_reason_is_cut_in_the_report(tmp_path: Path) -> None:
    md = write_report(arena_result("why " * 250_000), tmp_path)
    assert md.stat().st_size < 10_000


def test_a_report_survives_plot_labels_with_math_signs(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = arena_result("why", name="external:$\\frac{$")
    write_report(result, tmp_path)
    assert (tmp_path / "win_shares.png").read_bytes()[:4] == b"\x89PNG"
