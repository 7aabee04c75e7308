"""The terminal app's drawing as exact text: pure functions of a view (no Textual)."""

from __future__ import annotations

from pathlib import Path

import pytest

import bonepile
from bonepile.tui.board import draw_board
from bonepile.tui.canvas import Canvas
from bonepile.tui.screen import Frame, render_screen, wrap
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
    assert row == f" 8  ◆3  ·  ·  ·  ·  ·[{p:>2}|{q:>2}] ·  ·  ·  ·  ·  · ◆3"


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
