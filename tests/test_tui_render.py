"""The terminal app's drawing as exact text: pure functions of a view (no Textual)."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

import bonepile
from bonepile.grid import BoardLayout
from bonepile.tui.board import draw_board, track_line
from bonepile.tui.canvas import Canvas
from bonepile.tui.screen import LETTERS, Frame, log_lines, render_screen, wrap
from bonepile.tui.table import draw_table
from bonepile.view import view
from tui_positions import POSITIONS, frame, position

GOLDEN = Path(__file__).parent / "golden" / "tui"


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(POSITIONS))
def test_screen_is_exactly_the_golden_text(name: str, size: tuple[int, int]) -> None:
    w, h = size
    lines = render_screen(frame(name), w, h).canvas.lines()
    expected = (GOLDEN / f"{name}-{w}x{h}.txt").read_text().splitlines()
    assert lines == expected, "\n".join(lines)
    assert len(lines) == h and all(len(line) <= w for line in lines)


BLOCK = {
    "format": "bonepile-record/1",
    "game": "block",
    "players": 2,
    "options": {"lead": "seat0_any"},
    "deal": {
        "hands": [
            ["6-6", "6-3", "6-1", "5-5", "4-2", "3-0", "1-1"],
            ["6-5", "6-4", "6-2", "5-4", "3-3", "2-2", "0-0"],
        ],
        "boneyard": [
            "6-0",
            "5-3",
            "5-2",
            "5-1",
            "5-0",
            "4-4",
            "4-3",
            "4-1",
            "4-0",
            "3-2",
            "3-1",
            "2-1",
            "2-0",
            "1-0",
        ],
    },
    "moves": ["6-6", "6-5@6-6", "6-3@6-6", "5-4@6-5", "4-2@5-4", "3-3@6-3"],
}


def test_a_line_with_doubles_across_and_a_lettered_end() -> None:
    state = bonepile.read_record(BLOCK)
    lines = draw_table(state.layout, 80, {(5, 0): "a"}, last=5).canvas.lines()
    assert lines == [
        "        ┌ 3┐        ┌ 6┐",
        "    (a) └ 3┘ [ 3|6 ]└ 6┘ [ 6|5 ] [ 5|4 ] [ 4|2 ] ·",
    ]


def test_the_fat_spinner_has_six_arms_and_doubles_across() -> None:
    state = position("super_dominoes")
    lines = draw_table(state.layout, 160).canvas.lines()
    text = "\n".join(lines)
    assert "╔══ 2|2 ═══╗" in text and "╚══════════╝" in text
    assert "[10|10]" in text and "[14|14]" in text  # doubles across vertical arms
    assert "┌15┐" in text  # pips up to 15 as numbers


def test_the_spinner_tree_shows_free_sides() -> None:
    state = position("doubles")
    lines = draw_table(state.layout, 80).canvas.lines()
    assert lines[:5] == [
        "",
        "                   ·",
        "                  ┌ 0┐",
        "                  └ 3┘",
        "     ·   [ 5|3 ] [ 3|3 ] [ 3|4 ] ·",
    ]
    assert "unlocked numbers: 1, 2, 3, 6" in "\n".join(
        render_screen(frame("doubles"), 80, 24).canvas.lines()
    )


def test_the_board_shows_diamonds_the_star_and_tiles() -> None:
    state = bonepile.new_game("double_double", 2, seed=3)
    empty = draw_board(state.layout).canvas.lines()
    assert empty[0] == "     A  B  C  D  E  F  G  H  I  J  K  L  M  N  O"
    assert empty[1] == " 1  ◆5  ·  · ◆4  ·  ·  · ◆3  ·  ·  · ◆4  ·  · ◆5"
    assert empty[8] == " 8  ◆3  ·  ·  ·  ·  ·  ·  ★  ·  ·  ·  ·  ·  · ◆3"
    move = next(a for a in state.legal_actions() if "@8G8H" in str(a))
    state = state.apply(move)
    row = draw_board(state.layout).canvas.lines()[8]
    p, q = str(move).split("@")[0].split("-")
    assert row == f" 8  ◆3  ·  ·  ·  ·  · [{p}|{q}]  ·  ·  ·  ·  ·  · ◆3"


def test_a_spectator_sees_no_hand_and_hot_seat_curtain_hides_it() -> None:
    state = position("block")
    names = ("ann", "bob")
    watching = render_screen(Frame(view(state, None), names), 80, 24).canvas.lines()
    assert "(watching)" in "\n".join(watching) or state.is_over
    live = position("draw")
    curtain = Frame(view(live, None), names, curtain="P0's turn: pass the keyboard")
    text = "\n".join(render_screen(curtain, 80, 24).canvas.lines())
    assert "pass the keyboard" in text and "Hand:" not in text


def test_narrow_and_short_screens_still_draw() -> None:
    for name in POSITIONS:
        for w, h in [(40, 12), (12, 5), (200, 60)]:
            lines = render_screen(frame(name), w, h).canvas.lines()
            assert len(lines) == h and all(len(line) <= w for line in lines)


def test_canvas_clips_and_styles() -> None:
    c = Canvas(4, 2)
    c.put(-1, 0, "abcdef", "bold")
    c.put(2, 1, "xyz")
    assert c.lines() == ["bcde", "  xy"]
    assert c.text().plain == "bcde\n  xy"
    assert wrap(["aaa", "bb", "cccc"], 8) == ["aaa · bb", "cccc"]


# ------------------------------------------------------------- what a tester found at 80x24
def _text(lines: list[str]) -> str:
    """The screen's words in reading order, one space apart (a wrapped line joins up)."""
    return " ".join(" ".join(lines).split())


def _core(turn_seat: int, description: str) -> str:
    """What an event must say on the screen: its words, less the open end the tile leaves
    (the table shows it) and the seat's name when its own turn already named it."""
    text = re.sub(r" \(open end \d+\)", "", description)
    prefix = f"P{turn_seat} "
    return text[len(prefix) :] if text.startswith(prefix) else text


def test_everything_since_your_last_move_shows_at_80x24() -> None:
    # four players of Super Dominoes: ten turns, spells cast and broken, an extra turn and
    # turns lost since seat 0 last played
    f = frame("super_dominoes")
    hist = f.view.history
    mine = max(k for k, t in enumerate(hist) if t.seat == 0)
    assert len(hist) - mine > 8
    text = _text(render_screen(f, 80, 24).canvas.lines())
    for turn in hist[mine:]:
        for e in turn.events:
            assert _core(turn.seat, e.describe()) in text, (e.describe(), text)


def _table_tiles(lines: list[str]) -> int:
    """The tiles of the table on a screen: ``[ 6|4 ]`` along a row, ``┌ 6┐`` down a column
    (a hand's tiles read ``[6|4]``)."""
    text = "\n".join(lines)
    return len(re.findall(r"\[[ \d]\d\|\d[ \d]\]", text)) + text.count("┌")


@pytest.mark.parametrize("name", ["draw_over", "block", "doubles"])
def test_a_finished_hand_shows_its_whole_table_at_80x24(name: str) -> None:
    f = frame(name)
    assert f.view.result is not None
    lines = render_screen(f, 80, 24).canvas.lines()
    assert _table_tiles(lines) == len(f.view.layout.placements), "\n".join(lines)
    assert "shift+arrows" not in lines[0]


def test_the_more_hint_shows_however_long_the_top_line() -> None:
    f = replace(frame("super_dominoes"), title="Super Dominoes · table 7f3a9c2e · hand 12 · to 150")
    for w, h in [(80, 14), (60, 14), (44, 12)]:
        lines = render_screen(f, w, h).canvas.lines()
        assert "shift+arrows" in "\n".join(lines), "\n".join(lines)


def test_double_double_on_the_small_board_shows_the_scores_and_the_winners() -> None:
    f = frame("double_double_small_over")
    layout = f.view.layout
    assert isinstance(layout, BoardLayout) and f.view.result is not None
    lines = render_screen(f, 80, 24).canvas.lines()
    text = _text(lines)
    assert track_line(layout, 2) in text, text
    winner = f.view.result.winners[0]
    assert f"wins with {layout.positions[winner]} pts" in lines[0]


def test_long_lines_wrap_instead_of_being_cut() -> None:
    # the hint for six moves
    f = frame("block_spinner")
    hint = tuple(
        (f"{a}-{b}@{a}-{a}", 100 + a, 0.5)
        for a, b in [(6, 5), (6, 4), (5, 4), (5, 3), (4, 3), (3, 2)]
    )
    text = _text(render_screen(replace(f, hint=hint), 80, 24).canvas.lines())
    for move, visits, _ in hint:
        assert f"{move} 50% ({visits})" in text, text
    # a prompt with fourteen places to go
    f = frame("double_double")
    assert len(f.choices) > 3
    text = _text(render_screen(f, 80, 24).canvas.lines())
    for k, a in enumerate(f.choices):
        assert f"({LETTERS[k]}) {a}" in text, text
    # a keys line longer than the screen
    keys = "  ".join(f"{k} key number {k}" for k in range(8))
    lines = render_screen(replace(f, keys=keys), 80, 24).canvas.lines()
    assert all(f"{k} key number {k}" in "\n".join(lines) for k in range(8))


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("which", ["final hands beside the board", "four hands of a replay"])
def test_every_hand_shows_whole(which: str, width: int) -> None:
    if which == "final hands beside the board":
        f = frame("double_double_small_over")
        assert f.view.revealed is not None
        hands = f.view.revealed
    else:  # as bonepile replay --step shows a position: every hand, up to nine tiles each
        state = position("super_dominoes_replay")
        hands = tuple(state.hand(s) for s in range(4))
        spectator = view(state, None)
        names = ("", "", "", "")
        f = Frame(spectator, names, hands=hands, log=tuple(log_lines(spectator, names)))
    text = _text(render_screen(f, width, 24).canvas.lines())
    for s, hand in enumerate(hands):
        for t in hand:
            assert f"[{t.hi}|{t.lo}]" in text, (s, t, text)
