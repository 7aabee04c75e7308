"""Boards for Double Double Dominoes (docs/games/double_double.md, "Equipment" and "Boards"):
the standard board's facts, the loader's validation (every bad board is a BoardError naming
the problem, never another exception), cell notation, the shipped small boards and boards
loaded from a file.

Expected values are written out in this file, not read from the shipped data.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bonepile.grid import (
    BoardError,
    board_from_json,
    format_cell,
    load_board,
    parse_cell,
    standard_board,
)

pytestmark = pytest.mark.engine

# --------------------------------------------------------------- the standard board, written out

RULES_GRID = [
    "5..4...3...4..5",
    "..3..4...4..3..",
    ".3..2.....2..3.",
    "4..3.2...2.3..4",
    "..2.1.1.1.1.2..",
    ".4.2.1...1.2.4.",
    "....1.....1....",
    "3......*......3",
    "....1.....1....",
    ".4.2.1...1.2.4.",
    "..2.1.1.1.1.2..",
    "4..3.2...2.3..4",
    ".3..2.....2..3.",
    "..3..4...4..3..",
    "5..4...3...4..5",
]

RULES_TRACK = [
    *(1, 2, 3, 4, 5, 6, 0, 2, 5, 3, 4, 6, 2, 2, 0, 3, 5, 4, 1, 6),
    *(2, 4, 5, 5, 0, 6, 3, 4, 2, 0, 1, 5, 1, 3, 4, 4, 4, 5, 0, 6),
    *(3, 5, 4, 1, 3, 2, 0, 0, 1, 1, 2, 3, 6, 3, 5, 2, 1, 0, 6, 6),
    *(5, 2, 1, 2, 5, 0, 3, 3, 5, 0, 6, 1, 4, 0, 6, 3, 5, 1, 4, 2),
    *(6, 2, 3, 1, 6, 5, 6, 2, 0, 4, 0, 1, 6, 4, 4, 1, 6, 6, 3, 0),
]

RULES_BOARD: dict[str, Any] = {
    "name": "double_double_dominoes_standard",
    "rows": 15,
    "cols": 15,
    "grid": RULES_GRID,
    "diamond_colors": {"1": "blue", "2": "yellow", "3": "brown", "4": "black", "5": "green"},
    "score_track": {"start_space_has_pips": False, "spaces": RULES_TRACK},
    "victory_totals": {"2": 100, "3": 75, "4": 50, "5": 75, "6": 50},
    "max_pip": 6,
}

# A small valid board to break in the validation tests.
VALID: dict[str, Any] = {
    "name": "valid",
    "rows": 3,
    "cols": 4,
    "grid": ["1..2", ".*..", "3..4"],
    "score_track": {"spaces": [0, 1, 2, 3, 4, 5, 6, 0, 1, 2]},
    "victory_totals": {"2": 10, "3": 8},
}

# --------------------------------------------------------------------------- helpers

B = standard_board()


def value(r: int, c: int) -> int:
    """The diamond value at zero-based (r, c) of the standard board (0: none)."""
    return B.diamonds[r * B.cols + c]


def diamond_cells() -> list[tuple[int, int]]:
    return [(r, c) for r in range(15) for c in range(15) if value(r, c)]


def broken(**changes: Any) -> dict[str, Any]:
    """A deep copy of VALID with top-level keys changed (a value of ``...`` deletes the key)."""
    data = copy.deepcopy(VALID)
    for key, v in changes.items():
        if v is ...:
            del data[key]
        else:
            data[key] = v
    return data


def refused(data: Any, *words: str) -> str:
    """``board_from_json(data)`` raises a BoardError whose message names every one of ``words``."""
    with pytest.raises(BoardError) as info:
        board_from_json(data)
    message = str(info.value)
    for w in words:
        assert w.lower() in message.lower(), (w, message)
    return message


# --------------------------------------------------------------------------- standard board


def test_standard_board_size_and_star() -> None:
    assert (B.rows, B.cols, B.size) == (15, 15, 225)
    assert B.star == B.cell("8H") == 7 * 15 + 7
    assert B.rc(B.star) == (7, 7)
    assert B.cell_name(B.star) == "8H"
    assert B.max_pip == 6


def test_standard_board_matches_rules_grid() -> None:
    for r, line in enumerate(RULES_GRID):
        for c, ch in enumerate(line):
            want = int(ch) if ch in "12345" else 0
            assert value(r, c) == want, format_cell(r, c)
    assert sum(1 for d in B.diamonds if d) == 68


def test_standard_board_matches_rules_data() -> None:
    rules = board_from_json(RULES_BOARD)
    assert B.diamonds == rules.diamonds
    assert B.track == rules.track
    assert B.star == rules.star
    assert B.victory_totals == rules.victory_totals


def test_standard_board_diamond_counts() -> None:
    counts = Counter(d for d in B.diamonds if d)
    assert counts == {1: 16, 2: 16, 3: 16, 4: 16, 5: 4}


@pytest.mark.parametrize(
    "mirror",
    [
        lambda r, c: (r, 14 - c),  # horizontal mirror (left-right)
        lambda r, c: (14 - r, c),  # vertical mirror (top-bottom)
        lambda r, c: (c, r),  # transposition
    ],
    ids=["horizontal", "vertical", "transpose"],
)
def test_standard_board_symmetries(mirror: Any) -> None:
    for r in range(15):
        for c in range(15):
            assert value(r, c) == value(*mirror(r, c)), format_cell(r, c)


def test_standard_board_no_two_diamonds_share_an_edge() -> None:
    for r, c in diamond_cells():
        for rr, cc in ((r + 1, c), (r, c + 1)):
            if rr < 15 and cc < 15:
                assert not value(rr, cc), (format_cell(r, c), format_cell(rr, cc))


def test_standard_board_star_and_neighbours_are_plain() -> None:
    for cell in ("8H", "7H", "9H", "8G", "8I"):
        assert B.diamonds[B.cell(cell)] == 0, cell
    assert sorted(B.cell_name(n) for n in B.neighbors[B.star]) == ["7H", "8G", "8I", "9H"]


def test_standard_board_fives_are_the_corners() -> None:
    fives = {format_cell(r, c) for r, c in diamond_cells() if value(r, c) == 5}
    assert fives == {"1A", "1O", "15A", "15O"}


def test_standard_board_track() -> None:
    assert len(B.track) == 100
    assert list(B.track) == RULES_TRACK
    counts = Counter(B.track)
    assert counts == {0: 14, 1: 14, 2: 14, 3: 14, 4: 14, 5: 14, 6: 16}
    assert B.track_pips(0) is None  # the start spot has no pips
    assert B.track_pips(1) == 1
    assert B.track_pips(100) == 0
    assert B.track_pips(101) is None  # beyond the track
    assert [B.track_pips(k) for k in range(1, 101)] == RULES_TRACK


def test_standard_board_victory_totals() -> None:
    assert B.victory_totals == {2: 100, 3: 75, 4: 50, 5: 75, 6: 50}
    assert [B.victory_total(n) for n in range(2, 7)] == [100, 75, 50, 75, 50]
    assert max(B.victory_totals.values()) == len(B.track)


def test_standard_board_colors() -> None:
    assert B.colors == {1: "blue", 2: "yellow", 3: "brown", 4: "black", 5: "green"}


def test_load_board_standard_is_the_standard_board() -> None:
    assert load_board("standard") == B
    assert load_board(B) is B


# --------------------------------------------------------------------------- validation


def test_valid_board_loads() -> None:
    b = board_from_json(VALID)
    assert (b.rows, b.cols) == (3, 4)
    assert b.star == b.cell("2B")
    assert b.diamonds[b.cell("1A")] == 1 and b.diamonds[b.cell("3D")] == 4
    assert b.victory_totals == {2: 10, 3: 8}


def test_rows_must_equal_grid_length() -> None:
    refused(broken(rows=4), "rows")
    refused(broken(rows=2), "rows")


def test_cols_must_equal_every_row_length() -> None:
    refused(broken(cols=5), "cols")
    refused(broken(grid=["1..2", ".*...", "3..4"]), "row 2", "cols")
    refused(broken(grid=["1..2", ".*.", "3..4"]), "row 2", "cols")


def test_exactly_one_star() -> None:
    refused(broken(grid=["1..2", "....", "3..4"]), "star", "0")
    refused(broken(grid=["1..2", ".**.", "3..4"]), "star", "2")


@pytest.mark.parametrize("bad", ["0", "6", "9", "x", "#", " "])
def test_diamond_values_1_to_5(bad: str) -> None:
    # The square 1A holds the bad character: the message names the square.
    refused(broken(grid=[bad + "..2", ".*..", "3..4"]), "1A")


@pytest.mark.parametrize("bad", [-1, 7, 100])
def test_track_values_0_to_max_pip(bad: int) -> None:
    spaces = [0, 1, 2, 3, bad, 5, 6, 0, 1, 2]
    refused(broken(score_track={"spaces": spaces}), "score_track", str(bad))


def test_track_length_at_least_largest_victory_total() -> None:
    refused(broken(victory_totals={"2": 11}), "track", "11")
    refused(broken(score_track={"spaces": [1, 2, 3]}), "track", "10")
    # Exactly as long as the largest total is fine.
    assert len(board_from_json(broken(victory_totals={"2": 10})).track) == 10


def test_unknown_keys() -> None:
    refused(broken(colour="red"), "unknown", "colour")
    refused(broken(score_track={"spaces": VALID["score_track"]["spaces"], "extra": 1}), "extra")


@pytest.mark.parametrize("key", ["rows", "cols", "grid", "score_track", "victory_totals"])
def test_missing_required_key(key: str) -> None:
    refused(broken(**{key: ...}), key)


@pytest.mark.parametrize(
    ("changes", "word"),
    [
        ({"rows": "3"}, "rows"),
        ({"rows": 3.0}, "rows"),
        ({"rows": True}, "rows"),
        ({"rows": None}, "rows"),
        ({"cols": [4]}, "cols"),
        ({"rows": 0}, "rows"),
        ({"rows": -3}, "rows"),
        ({"rows": 10**9}, "rows"),
        ({"grid": "1..2.*..3..4"}, "grid"),
        ({"grid": None}, "grid"),
        ({"grid": ["1..2", 5, "3..4"]}, "grid"),
        ({"grid": {"0": "1..2"}}, "grid"),
        ({"score_track": [1, 2, 3]}, "score_track"),
        ({"score_track": None}, "score_track"),
        ({"score_track": {"spaces": "1234567890"}}, "spaces"),
        ({"score_track": {"spaces": []}}, "spaces"),
        ({"score_track": {}}, "spaces"),
        ({"score_track": {"spaces": [0, 1, 2, 3, 4, 5, 6, 0, 1, "2"]}}, "score_track"),
        ({"score_track": {"spaces": [0, 1, 2, 3, 4, 5, 6, 0, 1, 2.5]}}, "score_track"),
        ({"score_track": {"spaces": [0, 1, 2, 3, 4, 5, 6, 0, 1, True]}}, "score_track"),
        ({"score_track": {"spaces": [0, 1, 2, 3, 4, 5, 6, 0, 1, None]}}, "score_track"),
        ({"victory_totals": [100]}, "victory_totals"),
        ({"victory_totals": {}}, "victory_totals"),
        ({"victory_totals": {"two": 10}}, "victory_totals"),
        ({"victory_totals": {"7": 10}}, "victory_totals"),
        ({"victory_totals": {"2": "10"}}, "victory_totals"),
        ({"victory_totals": {"2": 0}}, "victory_totals"),
        ({"victory_totals": {"2": None}}, "victory_totals"),
        ({"max_pip": "6"}, "max_pip"),
        ({"max_pip": 9}, "max_pip"),
        ({"name": 5}, "name"),
        ({"name": ""}, "name"),
        ({"diamond_colors": ["blue"]}, "diamond_colors"),
        ({"diamond_colors": {"1": 5}}, "diamond_colors"),
        ({"diamond_colors": {"9": "pink"}}, "diamond_colors"),
    ],
)
def test_wrong_types_and_values(changes: dict[str, Any], word: str) -> None:
    refused(broken(**changes), word)


@pytest.mark.parametrize("data", [None, 3, "standard", [VALID], ["rows", 3], 2.5, True])
def test_not_an_object(data: Any) -> None:
    refused(data)


def test_start_space_with_pips_refused() -> None:
    refused(
        broken(score_track={"start_space_has_pips": True, "spaces": list(range(7)) * 2}), "start"
    )


def test_validation_leaves_input_untouched() -> None:
    data = copy.deepcopy(VALID)
    board_from_json(data)
    assert data == VALID


# --------------------------------------------------------------------------- files


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_board_from_file_equals_board_from_json(tmp_path: Path) -> None:
    path = write(tmp_path, "mine.json", json.dumps(VALID))
    want = board_from_json(VALID)
    assert load_board(path) == want
    assert load_board(str(path)) == want
    assert load_board(VALID) == want


def test_rules_board_from_file(tmp_path: Path) -> None:
    path = write(tmp_path, "standard_copy.json", json.dumps(RULES_BOARD, indent=2))
    b = load_board(path)
    assert b == board_from_json(RULES_BOARD)
    assert b.diamonds == B.diamonds and b.track == B.track


def test_file_board_is_validated(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.json", json.dumps(broken(rows=7)))
    with pytest.raises(BoardError, match="rows"):
        load_board(path)


@pytest.mark.parametrize(
    "text",
    ["", "not json", "{", '{"rows": 3,}', "[1, 2", "\x00\x01", "{" * 100_000, b"\xff\xfe\x00bad"],
    ids=["empty", "words", "open", "trailing-comma", "open-list", "control", "deep", "not-utf8"],
)
def test_non_json_file(tmp_path: Path, text: str | bytes) -> None:
    path = write(tmp_path, "broken.json", text)
    with pytest.raises(BoardError):
        load_board(path)


def test_json_file_that_is_not_an_object(tmp_path: Path) -> None:
    with pytest.raises(BoardError):
        load_board(write(tmp_path, "list.json", "[1, 2, 3]"))


def test_missing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short name: the message shortens a long one
    with pytest.raises(BoardError, match="nope"):
        load_board(Path("nope.json"))
    with pytest.raises(BoardError):
        load_board(str(tmp_path / "nope.json"))
    with pytest.raises(BoardError):
        load_board("no_such_board")


def test_directory_is_not_a_board(tmp_path: Path) -> None:
    with pytest.raises(BoardError):
        load_board(tmp_path)


@pytest.mark.parametrize("source", [None, 3, 2.5, ["standard"], b"standard"])
def test_load_board_wrong_source_type(source: Any) -> None:
    with pytest.raises(BoardError):
        load_board(source)


# --------------------------------------------------------------------------- shipped boards


@pytest.mark.parametrize(("name", "size"), [("small", 7), ("tiny", 3)])
def test_shipped_small_boards_load(name: str, size: int) -> None:
    b = load_board(name)
    assert (b.rows, b.cols) == (size, size)
    mid = size // 2
    assert b.rc(b.star) == (mid, mid)
    assert b.diamonds[b.star] == 0
    assert len(b.track) >= max(b.victory_totals.values())
    assert set(b.victory_totals) == {2, 3, 4, 5, 6}
    assert b == board_from_json(b.to_json())


def test_tiny_board_layout() -> None:
    b = load_board("tiny")
    assert b.star == b.cell("2B")
    assert {b.cell_name(i): d for i, d in enumerate(b.diamonds) if d} == {
        "1A": 1,
        "1C": 2,
        "3A": 3,
        "3C": 4,
    }


def test_board_round_trips_through_json() -> None:
    assert board_from_json(B.to_json()) == B
    assert board_from_json(json.loads(json.dumps(B.to_json()))) == B


# --------------------------------------------------------------------------- cells


@pytest.mark.parametrize(
    ("text", "rc"),
    [
        ("8H", (7, 7)),
        ("1A", (0, 0)),
        ("15O", (14, 14)),
        ("1O", (0, 14)),
        ("15A", (14, 0)),
        ("10G", (9, 6)),
    ],
)
def test_parse_and_format_cell(text: str, rc: tuple[int, int]) -> None:
    assert parse_cell(text) == rc
    assert format_cell(*rc) == text
    assert B.cell_name(B.cell(text)) == text


def test_cell_round_trip_every_square() -> None:
    for r in range(26):
        for c in range(26):
            assert parse_cell(format_cell(r, c)) == (r, c)
    for i in range(B.size):
        assert B.cell(B.cell_name(i)) == i


def test_parse_cell_lower_case() -> None:
    assert parse_cell("8h") == (7, 7)


@pytest.mark.parametrize("text", ["", "H8", "0A", "8", "H", "8HH", "8-H", "123A"])
def test_parse_cell_rejects_bad_text(text: str) -> None:
    with pytest.raises(ValueError):
        parse_cell(text)


@pytest.mark.parametrize("text", ["16A", "1P", "20Z"])
def test_cell_off_the_board(text: str) -> None:
    with pytest.raises(ValueError):
        B.cell(text)
