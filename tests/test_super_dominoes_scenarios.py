"""The 21 worked Super Dominoes scenarios, each a required test (``test_5_1_NN`` is scenario
NN; all defaults unless stated).

Expected values come from docs/games/super_dominoes.md and docs/records.md ("Notation",
"Decisions and forced moves"), not from the engine. Positions come from a real explicit deal
where that is cheap, otherwise from the fixture builder in ``sd_fixtures`` (the test builds
the state directly). Assertions only use the public API.
"""

from __future__ import annotations

import pytest

from bonepile.errors import IllegalActionError
from bonepile.events import (
    Drew,
    ExtraTurn,
    HandEnded,
    Led,
    Passed,
    Placed,
    Reversed,
    Skipped,
    SpellCast,
    SpellEnded,
)
from bonepile.tiles import tile_set
from sd_fixtures import (
    GAME,
    STARTER13_HANDS,
    end_values,
    ends_on,
    legal,
    names,
    of_type,
    play,
    position,
    real_deal,
    step,
    t,
)

pytestmark = pytest.mark.engine

# --------------------------------------------------------------------------- 5.1.1


@pytest.mark.parametrize("seed", [0, 7, 2024, 123456789])
@pytest.mark.parametrize(("players", "boneyard"), [(3, 109), (2, 118)])
def test_5_1_01_deal(players: int, boneyard: int, seed: int) -> None:
    s = GAME.new(players, seed=seed)
    hands = [s.hand(p) for p in range(players)]
    assert [len(h) for h in hands] == [9] * players
    assert [s.hand_size(p) for p in range(players)] == [9] * players
    assert s.boneyard_size == boneyard
    assert len(s.boneyard) == boneyard
    everything = [x for h in hands for x in h] + list(s.boneyard)
    assert len(everything) == 136
    assert len(set(everything)) == 136
    assert set(everything) == set(tile_set(15))
    assert sum(x.pips for x in everything) == 2040
    assert s.layout.placements == ()


def test_5_1_01_deal_is_reproducible_from_the_seed() -> None:
    a = GAME.new(3, seed=99)
    b = GAME.new(3, seed=99)
    assert [a.hand(p) for p in range(3)] == [b.hand(p) for p in range(3)]
    assert a.boneyard == b.boneyard


# --------------------------------------------------------------------------- 5.1.2


def _first_option_deal():
    return real_deal(
        3,
        [["15-14"], ["2-2", "11-11"], ["0-0", "11-5"]],
        avoid=[11],
    )


def test_5_1_02_first_option_passes_left() -> None:
    s = _first_option_deal()
    # P0 holds the highest tile, so P0 has the first option, but holds no double.
    assert s.actor == 0
    assert legal(s) == {"pass"}
    with pytest.raises(IllegalActionError):
        play(s, "2-2")
    s, events = step(s, "pass")
    assert events == (Passed(0),)
    assert s.actor == 1
    assert legal(s) == {"2-2", "11-11"}
    s, events = step(s, "11-11")
    assert of_type(events, Led) == [Led(1, t("11-11"))]
    assert of_type(events, Skipped) == []
    # The starter never causes a lost turn: play goes to the setter's left, P2.
    assert s.actor == 2
    info = s.facts.to_json()
    assert info["starter"] == "11-11"
    assert info["setter"] == 1
    assert info["phase"] == "play"
    # P2 is never asked to set: it plays on the starter, its [0|0] stays in hand.
    assert legal(s) == {"11-5@11-11"}
    assert "0-0" in names(s.hand(2))
    assert [str(p.tile) for p in s.layout.placements] == ["11-11"]


# --------------------------------------------------------------------------- 5.1.3


def test_5_1_03_nobody_has_a_double() -> None:
    s = real_deal(3, [["15-14"], [], []], ["5-3", "8-6", "9-9"])
    assert not any(x.is_double for p in range(3) for x in s.hand(p))
    assert s.actor == 0
    # Opening: each seat without a double passes the option on (docs/records.md, "Decisions
    # and forced moves").
    for seat in range(3):
        assert s.actor == seat
        assert legal(s) == {"pass"}
        s = play(s, "pass")
    # Every seat has passed once: each in turn from the first player draws one tile.
    assert s.actor == 0
    assert legal(s) == {"draw"}
    s, events = step(s, "draw")
    assert events == (Drew(0, 1, (t("5-3"),), "opening"),)
    assert s.hand_size(0) == 10
    # After a non-double the option moves on by itself (no pass).
    assert s.actor == 1
    assert legal(s) == {"draw"}
    s, events = step(s, "draw")
    assert events == (Drew(1, 1, (t("8-6"),), "opening"),)
    assert s.hand_size(1) == 10
    assert s.actor == 2
    assert legal(s) == {"draw"}
    s, events = step(s, "draw")
    assert events == (Drew(2, 1, (t("9-9"),), "opening"),)
    # A drawn double must be led at once.
    assert s.actor == 2
    assert legal(s) == {"9-9"}
    s, events = step(s, "9-9")
    assert of_type(events, Led) == [Led(2, t("9-9"))]
    assert [s.hand_size(p) for p in range(3)] == [10, 10, 9]
    assert "5-3" in names(s.hand(0))
    assert "8-6" in names(s.hand(1))
    assert s.facts.to_json()["setter"] == 2
    assert s.actor == 0
    assert s.boneyard_size == 136 - 27 - 3


def test_5_1_03_nobody_has_a_double_first_player_not_seat_0() -> None:
    # P1 holds the highest tile, so the option and then the drawing start with P1.
    s = real_deal(3, [[], ["15-14"], []], ["5-3", "8-6", "9-9"])
    assert s.actor == 1
    for seat in (1, 2, 0):
        assert s.actor == seat
        assert legal(s) == {"pass"}
        s = play(s, "pass")
    for seat, tile in ((1, "5-3"), (2, "8-6")):
        assert s.actor == seat
        s, events = step(s, "draw")
        assert events == (Drew(seat, 1, (t(tile),), "opening"),)
    assert s.actor == 0
    s = play(s, "draw")
    assert s.actor == 0
    assert legal(s) == {"9-9"}
    s = play(s, "9-9")
    assert [s.hand_size(p) for p in range(3)] == [9, 10, 10]
    assert s.actor == 1


# --------------------------------------------------------------------------- 5.1.4

SIX_ARMS = [["9-1"], ["9-2"], ["9-4"], ["9-5"], ["9-6"]]


def test_5_1_04_six_arms_only() -> None:
    s = position(
        3,
        [["9-7", "7-7"], ["9-3", "10-3"], ["12-11"]],
        ["15-14", "15-12", "14-12"],
        arms=SIX_ARMS,
    )
    assert end_values(s) == [1, 2, 4, 5, 6, 9]
    assert legal(s) == {"9-7@9-9"}
    # [7|7] cannot go on the starter: 7 is neither 13 nor the starter's suit.
    with pytest.raises(IllegalActionError):
        play(s, "7-7@9-9")
    s = play(s, "9-7@9-9")
    assert end_values(s) == [1, 2, 4, 5, 6, 7]
    assert 9 not in end_values(s)
    assert ends_on(s, "9-9") == []
    assert s.actor == 1


def test_5_1_04_no_seventh_arm() -> None:
    s = position(
        3,
        [["9-7", "7-7"], ["9-3", "10-3"], ["12-11"]],
        ["15-14", "15-12", "14-12"],
        arms=SIX_ARMS,
    )
    s = play(s, "9-7@9-9")
    # P1 holds [9|3] but every arm is started: nothing may go on the starter any more.
    assert s.actor == 1
    assert legal(s) == {"draw"}
    with pytest.raises(IllegalActionError):
        play(s, "9-3@9-9")


# --------------------------------------------------------------------------- 5.1.5


def _wild_position():
    return position(
        3,
        [["8-8", "4-4"], ["12-11"], ["10-2"]],
        ["15-14"],
        arms=[["9-5", "13-5"], ["9-8"]],
    )


def test_5_1_05_double_wild_on_13_moves() -> None:
    s = _wild_position()
    assert s.facts.to_json()["spell"] is None
    assert legal(s) == {"8-8@13-5", "8-8@9-8", "4-4@13-5"}
    with pytest.raises(IllegalActionError):
        play(s, "4-4@9-8")


def test_5_1_05_double_wild_on_13_play() -> None:
    s, events = step(_wild_position(), "4-4@13-5")
    assert of_type(events, Placed) == [Placed(0, t("4-4"), t("13-5"), 13, 4)]
    assert ends_on(s, "4-4") == [4]
    assert ends_on(s, "13-5") == []
    assert of_type(events, Skipped) == [Skipped(1)]
    assert s.actor == 2


# --------------------------------------------------------------------------- 5.1.6


@pytest.mark.parametrize(
    ("direction", "first", "second", "nothing", "next_actor"),
    [(1, 1, 2, 3, 1), (-1, 3, 2, 1, 3)],
    ids=["clockwise", "reversed"],
)
def test_5_1_06_fifteen_draw_boneyard_short(
    direction: int, first: int, second: int, nothing: int, next_actor: int
) -> None:
    s = position(
        4,
        [["15-2", "12-11"], ["10-0"], ["10-1"], ["10-3"]],
        ["11-10", "12-8"],
        arms=[["9-2"]],
        direction=direction,
    )
    before = [s.hand_size(p) for p in range(4)]
    s, events = step(s, "15-2@9-2")
    assert of_type(events, Drew) == [
        Drew(first, 1, (t("11-10"),), "fifteen"),
        Drew(second, 1, (t("12-8"),), "fifteen"),
    ]
    assert s.boneyard_size == 0
    assert "11-10" in names(s.hand(first))
    assert "12-8" in names(s.hand(second))
    assert s.hand_size(nothing) == before[nothing]
    assert s.hand_size(0) == before[0] - 1
    assert s.actor == next_actor


# --------------------------------------------------------------------------- 5.1.7


def _inward_fifteen(options=None):
    return position(
        3,
        [["15-4", "12-11"], ["10-0"], ["10-1"]],
        ["10-8", "11-3", "6-2"],
        arms=[["9-7", "15-7"]],
        options=options,
    )


def test_5_1_07_fifteen_matched_inward() -> None:
    s, events = step(_inward_fifteen(), "15-4@15-7")
    assert of_type(events, Placed) == [Placed(0, t("15-4"), t("15-7"), 15, 4)]
    assert of_type(events, Drew) == []
    assert s.boneyard_size == 3
    assert [s.hand_size(p) for p in range(3)] == [1, 1, 1]
    assert s.actor == 1


def test_5_1_07_fifteen_matched_inward_tile_contains() -> None:
    s, events = step(_inward_fifteen({"effect_trigger": "tile_contains"}), "15-4@15-7")
    assert of_type(events, Drew) == [
        Drew(1, 1, (t("10-8"),), "fifteen"),
        Drew(2, 1, (t("11-3"),), "fifteen"),
    ]
    assert s.boneyard_size == 1
    assert [s.hand_size(p) for p in range(3)] == [1, 2, 2]
    assert s.actor == 1


# --------------------------------------------------------------------------- 5.1.8


def _fourteens():
    return position(
        3,
        [["14-6", "14-0", "14-5", "12-11"], ["10-1"], ["10-2"]],
        ["15-13"],
        arms=[["9-6"], ["9-5"]],
    )


def test_5_1_08_fourteen_extra_turns() -> None:
    s, events = step(_fourteens(), "14-6@9-6")
    assert of_type(events, ExtraTurn) == [ExtraTurn(0)]
    assert s.actor == 0
    assert s.facts.to_json()["extra_turn"] is True
    # The extra turn is on any arm, not only on the 14.
    assert legal(s) == {"14-0@14-6", "14-5@14-6", "14-5@9-5"}
    s, events = step(s, "14-0@14-6")
    assert of_type(events, ExtraTurn) == []
    assert s.actor == 1


def test_5_1_08_fourteen_extra_turns_third_turn() -> None:
    s = play(_fourteens(), "14-6@9-6")
    s, events = step(s, "14-5@9-5")
    assert of_type(events, ExtraTurn) == [ExtraTurn(0)]
    assert s.actor == 0
    assert legal(s) == {"14-0@14-6", "14-0@14-5"}
    s = play(s, "14-0@14-5")
    assert s.actor == 1


# --------------------------------------------------------------------------- 5.1.9


def _stuck_extra_turn(boneyard, options=None):
    s = position(
        3,
        [["14-6", "12-11"], ["10-0"], ["10-3"]],
        boneyard,
        arms=[["9-6"]],
        options=options,
    )
    s = play(s, "14-6@9-6")
    assert s.actor == 0
    return s


def test_5_1_09_extra_turn_no_move_full_turn_draws_and_plays() -> None:
    s = _stuck_extra_turn(["10-1", "14-2", "8-7"])
    assert legal(s) == {"draw"}
    s, events = step(s, "draw")
    assert events == (Drew(0, 2, (t("10-1"), t("14-2")), "unable"),)
    # A drawn tile that is legal must be played: no pass.
    assert s.actor == 0
    assert legal(s) == {"14-2@14-6"}
    s = play(s, "14-2@14-6")
    assert s.actor == 1
    assert names(s.hand(0)) == {"12-11", "10-1"}


def test_5_1_09_extra_turn_no_move_full_turn_draws_and_passes() -> None:
    s = _stuck_extra_turn(["10-1", "8-7", "11-10"])
    assert legal(s) == {"draw"}
    s = play(s, "draw")
    assert s.actor == 0
    assert legal(s) == {"pass"}
    s, events = step(s, "pass")
    assert events == (Passed(0),)
    assert s.actor == 1
    assert s.hand_size(0) == 3
    assert s.boneyard_size == 1


def test_5_1_09_extra_turn_no_move_play_only_if_able() -> None:
    s = _stuck_extra_turn(["10-1", "14-2", "8-7"], {"extra_turn_mode": "play_only_if_able"})
    # No draw in the extra turn: it is a [pass] decision.
    assert legal(s) == {"pass"}
    s, events = step(s, "pass")
    assert of_type(events, Drew) == []
    assert s.actor == 1
    assert s.boneyard_size == 3
    assert names(s.hand(0)) == {"12-11"}
    # docs/games/super_dominoes.md, "Where we settled the rules": it counts as an idle turn.
    assert s.facts.to_json()["idle_turns"] == 1


def test_5_1_09_extra_turn_after_a_draw_is_a_full_turn() -> None:
    # P0 draws, plays a drawn 14, and may draw again in the extra turn
    # (docs/games/super_dominoes.md, "A turn" and "Special tiles").
    s = position(
        3,
        [["12-11"], ["10-0"], ["10-3"]],
        ["14-6", "10-1", "8-7", "11-10", "15-12"],
        arms=[["9-6"]],
    )
    assert legal(s) == {"draw"}
    s = play(s, "draw")
    assert legal(s) == {"14-6@9-6"}
    s = play(s, "14-6@9-6")
    assert s.actor == 0
    assert legal(s) == {"draw"}
    s, events = step(s, "draw")
    assert events == (Drew(0, 2, (t("8-7"), t("11-10")), "unable"),)
    assert legal(s) == {"pass"}
    s = play(s, "pass")
    assert s.actor == 1


# --------------------------------------------------------------------------- 5.1.10


def test_5_1_10_reverse() -> None:
    s = position(
        4,
        [["9-8", "12-10"], ["7-3", "12-11"], ["10-1"], ["10-2"]],
        ["15-13"],
        arms=[["9-7"]],
        actor=1,
    )
    s, events = step(s, "7-3@9-7")
    assert of_type(events, Reversed) == [Reversed(1, -1)]
    assert s.facts.to_json()["direction"] == -1
    assert s.actor == 0
    assert legal(s) == {"9-8@9-9"}
    s = play(s, "9-8@9-9")
    assert s.actor == 3


def test_5_1_10_reverse_with_two_players_changes_nothing() -> None:
    s = position(2, [["10-0"], ["7-3", "12-11"]], ["15-13"], arms=[["9-7"]], actor=1)
    s = play(s, "7-3@9-7")
    assert s.actor == 0
    s = play(s, "draw", "pass")
    assert s.actor == 1


# --------------------------------------------------------------------------- 5.1.11


def test_5_1_11_three_three_reverse_and_skip() -> None:
    s = position(
        4,
        [["10-0"], ["3-3", "12-11"], ["10-1"], ["10-2"]],
        ["15-13"],
        arms=[["9-3"]],
        actor=1,
    )
    s, events = step(s, "3-3@9-3")
    assert [e for e in events if isinstance(e, (Reversed, Skipped))] == [
        Reversed(1, -1),
        Skipped(0),
    ]
    assert s.facts.to_json()["direction"] == -1
    assert s.actor == 3


# --------------------------------------------------------------------------- 5.1.12


@pytest.mark.parametrize(("players", "next_actor"), [(3, 2), (2, 0)])
def test_5_1_12_double_skips(players: int, next_actor: int) -> None:
    hands = [["6-6", "12-11"], ["10-1"], ["10-2"]][:players]
    s = position(players, hands, ["15-13"], arms=[["9-6"]])
    s, events = step(s, "6-6@9-6")
    assert of_type(events, Skipped) == [Skipped(1)]
    assert s.actor == next_actor


# --------------------------------------------------------------------------- 5.1.13


def test_5_1_13_fourteen_fourteen_extra_turn_and_pending_skip() -> None:
    s = position(
        3,
        [["14-14", "2-1", "12-11"], ["10-0"], ["10-3"]],
        ["15-13"],
        arms=[["14-9"], ["9-1"]],
    )
    s, events = step(s, "14-14@14-9")
    assert of_type(events, ExtraTurn) == [ExtraTurn(0)]
    assert of_type(events, Skipped) == []
    assert s.actor == 0
    assert s.facts.to_json()["pending_skips"] == 1
    assert legal(s) == {"2-1@9-1"}
    s, events = step(s, "2-1@9-1")
    assert of_type(events, Skipped) == [Skipped(1)]
    assert s.actor == 2
    assert s.facts.to_json()["pending_skips"] == 0


# --------------------------------------------------------------------------- 5.1.14


def _spell_cast(p1_hand, boneyard=("15-12",), options=None):
    s = position(
        3,
        [["13-9", "12-11"], p1_hand, ["10-8", "11-10"]],
        list(boneyard),
        arms=[["9-1"]],
        options=options,
    )
    s, events = step(s, "13-9@9-9")
    assert of_type(events, SpellCast) == [SpellCast(0, t("13-9"), False)]
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-9", "caster": 0}
    assert s.actor == 1
    return s


def test_5_1_14_spell_binds() -> None:
    s = _spell_cast(["2-1", "5-5"])
    assert s.is_bound(1)
    assert s.is_bound(2)
    assert not s.is_bound(0)
    # [1|2] would fit the open 1 elsewhere, but P1 is bound to E.
    assert ends_on(s, "9-1") == [1]
    assert legal(s) == {"5-5@13-9"}
    with pytest.raises(IllegalActionError):
        play(s, "2-1@9-1")
    s, events = step(s, "5-5@13-9")
    assert of_type(events, SpellEnded) == [SpellEnded(1, "broken")]
    assert s.facts.to_json()["spell"] is None
    assert ends_on(s, "5-5") == [5]
    assert ends_on(s, "13-9") == []
    assert of_type(events, Skipped) == [Skipped(2)]
    assert s.actor == 0


@pytest.mark.parametrize(
    ("tile", "open_", "effect", "next_actor"),
    [
        ("14-13", 14, ExtraTurn(1), 1),
        ("15-13", 15, Drew(2, 1, (t("15-12"),), "fifteen"), 2),
        ("13-3", 3, Reversed(1, -1), 0),
    ],
)
def test_5_1_14_breaking_tile_effects_apply(tile, open_, effect, next_actor) -> None:
    # docs/games/super_dominoes.md, "Spells (the 13)": if the breaking tile leaves 14/15/3,
    # those effects apply too.
    s = _spell_cast(["2-1", tile])
    s, events = step(s, f"{tile}@13-9")
    assert of_type(events, SpellEnded) == [SpellEnded(1, "broken")]
    assert of_type(events, SpellCast) == []
    assert ends_on(s, tile) == [open_]
    assert effect in events
    assert s.facts.to_json()["spell"] is None
    assert s.actor == next_actor


# --------------------------------------------------------------------------- 5.1.15


def test_5_1_15_spell_draw_two_and_break() -> None:
    s = _spell_cast(["2-1", "6-4"], ["13-0", "8-7", "15-12"])
    assert legal(s) == {"draw"}
    s, events = step(s, "draw")
    assert events == (Drew(1, 2, (t("13-0"), t("8-7")), "unable"),)
    # Compulsory: the drawn breaker is the only legal action.
    assert legal(s) == {"13-0@13-9"}
    s, events = step(s, "13-0@13-9")
    assert of_type(events, SpellEnded) == [SpellEnded(1, "broken")]
    assert s.facts.to_json()["spell"] is None
    assert ends_on(s, "13-0") == [0]
    assert names(s.hand(1)) == {"2-1", "6-4", "8-7"}
    assert of_type(events, Skipped) == []
    assert s.actor == 2


def test_5_1_15_spell_draw_two_and_break_blank_skip() -> None:
    s = _spell_cast(["2-1", "6-4"], ["13-0", "8-7", "15-12"], {"skip_trigger": "blank"})
    s = play(s, "draw")
    s, events = step(s, "13-0@13-9")
    assert of_type(events, Skipped) == [Skipped(2)]
    assert s.actor == 0


# --------------------------------------------------------------------------- 5.1.16


def _immunity(options=None):
    s = position(
        3,
        [["13-9", "9-4", "13-0", "12-11"], ["9-2", "6-1"], ["9-3", "12-8"]],
        ["8-7", "11-10", "12-10", "11-7", "6-5", "3-2"],
        arms=[["9-1", "4-1"]],
        options=options,
    )
    s = play(s, "13-9@9-9")
    for seat in (1, 2):
        assert s.actor == seat
        assert s.is_bound(seat)
        assert legal(s) == {"draw"}
        s = play(s, "draw")
        assert legal(s) == {"pass"}
        s = play(s, "pass")
    assert s.actor == 0
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-9", "caster": 0}
    return s


def test_5_1_16_caster_immunity_spell_persists() -> None:
    s = _immunity()
    assert not s.is_bound(0)
    assert legal(s) == {"9-4@4-1", "9-4@9-9", "13-0@13-9"}
    s, events = step(s, "9-4@4-1")
    assert of_type(events, SpellEnded) == []
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-9", "caster": 0}
    assert s.actor == 1
    assert s.is_bound(1)
    # [9|2] would fit an empty arm, but P1 is still bound to E.
    assert legal(s) == {"draw"}


def test_5_1_16_caster_not_immune() -> None:
    s = _immunity({"caster_immune": False})
    assert s.is_bound(0)
    assert legal(s) == {"13-0@13-9"}


def test_5_1_16_caster_playing_on_its_own_end_breaks_it() -> None:
    s = _immunity()
    s, events = step(s, "13-0@13-9")
    assert of_type(events, SpellEnded) == [SpellEnded(0, "broken")]
    assert s.facts.to_json()["spell"] is None
    assert s.actor == 1
    assert not s.is_bound(1)
    assert legal(s) == {"9-2@9-9"}


def test_5_1_16_caster_recasts_elsewhere_replaces_the_spell() -> None:
    # docs/games/super_dominoes.md, "Spells (the 13)": the caster's own new 13 becomes the
    # spell; the old 13 end is ordinary.
    s = position(
        3,
        [["13-10", "12-11"], ["13-2", "9-3"], ["10-4"]],
        ["15-14"],
        arms=[["9-13"], ["9-10"]],
        spell=("end", "13-9", 0),
    )
    assert not s.is_bound(0)
    s, events = step(s, "13-10@10-9")
    assert [e for e in events if isinstance(e, (SpellEnded, SpellCast))] == [
        SpellEnded(0, "replaced"),
        SpellCast(0, t("13-10"), False),
    ]
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-10", "caster": 0}
    assert ends_on(s, "13-9") == [13]
    assert s.actor == 1
    assert legal(s) == {"13-2@13-10"}


# --------------------------------------------------------------------------- 5.1.17


def _recast(p2_hand, boneyard=("15-12",)):
    s = position(
        3,
        [["9-1", "10-5"], ["13-13", "9-2", "12-11"], p2_hand],
        list(boneyard),
        arms=[["13-9"]],
        spell=("end", "13-9", 0),
        actor=1,
    )
    assert s.is_bound(1)
    assert legal(s) == {"13-13@13-9"}
    s, events = step(s, "13-13@13-9")
    assert [e for e in events if isinstance(e, (SpellEnded, SpellCast))] == [
        SpellEnded(1, "broken"),
        SpellCast(1, t("13-13"), False),
    ]
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-13", "caster": 1}
    assert ends_on(s, "13-13") == [13]
    assert of_type(events, Skipped) == []
    assert s.actor == 2
    return s


def test_5_1_17_thirteen_thirteen_breaks_and_recasts() -> None:
    s = _recast(["9-3", "13-6"])
    assert s.is_bound(2)
    assert s.is_bound(0)
    assert not s.is_bound(1)
    # P2 is bound to the new end: [9|3] may not go on an empty arm.
    assert legal(s) == {"13-6@13-13"}


def test_5_1_17_new_caster_immune_on_next_turn() -> None:
    s = _recast(["9-3", "10-4"], ["8-7", "11-10", "12-10", "11-7", "6-5"])
    for seat in (2, 0):
        assert s.actor == seat
        assert legal(s) == {"draw"}
        s = play(s, "draw", "pass")
    assert s.actor == 1
    assert not s.is_bound(1)
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-13", "caster": 1}
    assert legal(s) == {"9-2@9-9"}


# --------------------------------------------------------------------------- 5.1.18


def _starter13(options=None):
    s = real_deal(3, STARTER13_HANDS, options=options, pad=False)
    assert s.actor == 0
    assert legal(s) == {"13-13", "15-15"}
    s, events = step(s, "13-13")
    assert of_type(events, SpellCast) == [SpellCast(0, t("13-13"), True)]
    assert s.facts.to_json()["spell"] == {"kind": "starter", "at": "13-13", "caster": 0}
    assert s.actor == 1
    # Only tiles containing 13, or doubles, on an empty arm.
    assert legal(s) == {"13-4@13-13", "13-6@13-13", "5-5@13-13"}
    return s


def test_5_1_18_starter_13_13_all_arms() -> None:
    s = play(_starter13(), "13-4@13-13")
    assert s.facts.to_json()["spell"] is not None
    assert s.actor == 2
    # [6|4] would fit the open 4, but only empty arms may be played on.
    assert legal(s) == {"13-5@13-13", "13-7@13-13", "12-12@13-13"}
    s = play(s, "13-5@13-13")
    # The setter is bound on its own turns too: [7|5] may not go on the open 5.
    assert s.actor == 0
    assert s.is_bound(0)
    assert legal(s) == {"15-15@13-13", "13-1@13-13", "13-2@13-13"}
    s = play(s, "13-1@13-13")
    assert legal(s) == {"13-6@13-13", "5-5@13-13"}
    s = play(s, "13-6@13-13")
    assert legal(s) == {"13-7@13-13", "12-12@13-13"}
    s = play(s, "13-7@13-13")
    assert s.actor == 0
    assert legal(s) == {"15-15@13-13", "13-2@13-13"}
    assert s.facts.to_json()["spell"] is not None
    s, events = step(s, "13-2@13-13")
    assert of_type(events, SpellEnded) == [SpellEnded(0, "arms_started")]
    assert s.facts.to_json()["spell"] is None
    assert end_values(s) == [1, 2, 4, 5, 6, 7]
    assert s.actor == 1
    assert not s.is_bound(1)
    assert legal(s) == {"5-5@13-5", "8-4@13-4"}


def test_5_1_18_starter_13_13_single_play() -> None:
    s = _starter13({"starter13_spell": "single_play"})
    s, events = step(s, "13-4@13-13")
    assert of_type(events, SpellEnded) == [SpellEnded(1, "broken")]
    assert s.facts.to_json()["spell"] is None
    assert s.actor == 2
    assert not s.is_bound(2)
    assert legal(s) == {"13-5@13-13", "13-7@13-13", "12-12@13-13", "6-4@13-4"}


# --------------------------------------------------------------------------- 5.1.19


def test_5_1_19_starter_15_15() -> None:
    s = real_deal(4, [["15-15"], [], [], []], ["12-11", "12-10", "11-10"], avoid=[15])
    assert s.actor == 0
    assert legal(s) == {"15-15"}
    s, events = step(s, "15-15")
    assert of_type(events, Drew) == [
        Drew(1, 1, (t("12-11"),), "starter"),
        Drew(2, 1, (t("12-10"),), "starter"),
        Drew(3, 1, (t("11-10"),), "starter"),
    ]
    assert [s.hand_size(p) for p in range(4)] == [8, 10, 10, 10]
    assert s.boneyard_size == 136 - 36 - 3
    assert s.actor == 1


def test_5_1_19_starter_14_14() -> None:
    s = real_deal(3, [["15-14", "14-14"], [], []], avoid=[14])
    assert legal(s) == {"14-14"}
    s, events = step(s, "14-14")
    assert of_type(events, ExtraTurn) == [ExtraTurn(0)]
    assert s.actor == 0
    assert legal(s) == {"15-14@14-14"}


def test_5_1_19_starter_14_14_then_no_skip() -> None:
    s = real_deal(3, [["15-14", "14-14"], [], []], ["12-11", "12-10"], avoid=[14])
    s = play(s, "14-14")
    s, events = step(s, "15-14@14-14")
    assert of_type(events, Drew) == [
        Drew(1, 1, (t("12-11"),), "fifteen"),
        Drew(2, 1, (t("12-10"),), "fifteen"),
    ]
    assert of_type(events, Skipped) == []
    assert s.actor == 1


def test_5_1_19_starter_3_3() -> None:
    s = real_deal(4, [["15-14", "3-3"], [], [], []], avoid=[3])
    assert legal(s) == {"3-3"}
    s, events = step(s, "3-3")
    assert of_type(events, Reversed) == [Reversed(0, -1)]
    assert of_type(events, Skipped) == []
    assert s.facts.to_json()["direction"] == -1
    assert s.actor == 3


@pytest.mark.parametrize(
    ("options", "skipped", "next_actor"),
    [({"skip_trigger": "blank"}, [Skipped(1)], 2), ({}, [], 1)],
    ids=["blank", "default"],
)
def test_5_1_19_starter_0_0(options, skipped, next_actor) -> None:
    s = real_deal(3, [["15-14", "0-0"], [], []], options=options, avoid=[0])
    assert legal(s) == {"0-0"}
    s, events = step(s, "0-0")
    assert of_type(events, Skipped) == skipped
    assert s.actor == next_actor


# --------------------------------------------------------------------------- 5.1.20


def _blocked(options=None):
    s = position(
        3,
        [["1-1"], ["0-0", "1-0"], ["15-15"]],
        [],
        options=options,
    )
    for seat in range(3):
        assert s.result is None
        assert s.actor == seat
        assert legal(s) == {"pass"}
        s, events = step(s, "pass")
    assert s.result is not None
    assert of_type(events, HandEnded) == [HandEnded(s.result)]
    assert s.actor is None
    assert s.legal_actions() == ()
    return s


def test_5_1_20_block_winner_and_scores_advanced() -> None:
    r = _blocked().result
    assert (r.reason, r.winners, r.points) == ("blocked", (0,), (28, 0, 0))


def test_5_1_20_block_winner_and_scores_simple() -> None:
    r = _blocked({"scoring": "simple"}).result
    assert (r.reason, r.winners, r.points) == ("blocked", (0,), (1, 0, 0))


@pytest.mark.parametrize(
    ("options", "moves", "points"),
    [
        ({}, ["pass", "pass", "9-4@9-9", "pass", "pass", "pass"], 3),
        ({"caster_immune": False}, ["pass", "pass", "pass"], 16),
    ],
    ids=["immune", "not-immune"],
)
def test_5_1_20_unbreakable_spell_does_not_block_early(options, moves, points) -> None:
    # docs/games/super_dominoes.md, "Where we settled the rules": the caster's unbound turn
    # falls inside the n idle turns.
    s = position(
        3,
        [["9-4", "10-2"], ["9-1"], ["9-2"]],
        [],
        arms=[["9-13"]],
        spell=("end", "13-9", 0),
        actor=1,
        options=options,
    )
    for move in moves:
        assert s.result is None
        assert move in legal(s)
        s = play(s, move)
    r = s.result
    assert r is not None
    assert (r.reason, r.winners, r.points) == ("blocked", (1,), (0, points, 0))


def test_5_1_20_drawing_resets_the_idle_count() -> None:
    # docs/games/super_dominoes.md, "How a hand ends": a turn that drew tiles is not idle, even
    # if it ends in a pass.
    s = position(3, [["1-1"], ["0-0", "1-0"], ["15-15"]], ["12-11", "12-10"])
    s = play(s, "draw", "pass")
    assert s.boneyard_size == 0
    for seat in (1, 2):
        assert s.actor == seat
        assert legal(s) == {"pass"}
        s = play(s, "pass")
        assert s.result is None
    assert s.facts.to_json()["idle_turns"] == 2
    assert s.actor == 0
    s = play(s, "pass")
    r = s.result
    assert r is not None
    # Fewest tiles wins: P2 (1 tile); P0 holds 3 tiles (47 pips), P1 2 tiles (1 pip).
    # Advanced: (47 - 30) + max(0, 1 - 30) = 17.
    assert (r.reason, r.winners, r.points) == ("blocked", (2,), (0, 0, 17))


# --------------------------------------------------------------------------- 5.1.21


@pytest.mark.parametrize(
    ("options", "points", "drew"),
    [
        ({}, 42, True),
        ({"scoring": "simple"}, 5, True),
        ({"effects_on_final_tile": "end_immediately"}, 36, False),
        ({"effects_on_final_tile": "end_immediately", "scoring": "simple"}, 3, False),
    ],
    ids=["advanced", "simple", "end_immediately-advanced", "end_immediately-simple"],
)
def test_5_1_21_domino_scoring_going_out_on_15(options, points, drew) -> None:
    s = position(
        3,
        [["15-4"], ["15-14", "3-0"], ["2-2"]],
        ["1-0", "3-2", "12-11"],
        arms=[["9-4"]],
        options=options,
    )
    assert s.hand_pips(1) == 32
    assert s.hand_pips(2) == 4
    s, events = step(s, "15-4@9-4")
    expected_draws = (
        [Drew(1, 1, (t("1-0"),), "fifteen"), Drew(2, 1, (t("3-2"),), "fifteen")] if drew else []
    )
    assert of_type(events, Drew) == expected_draws
    # The hand ends after the draws.
    assert type(events[-1]) is HandEnded
    r = s.result
    assert (r.reason, r.winners, r.points) == ("domino", (0,), (points, 0, 0))
    if drew:
        assert names(s.hand(1)) == {"15-14", "3-0", "1-0"}
        assert names(s.hand(2)) == {"2-2", "3-2"}
        assert s.boneyard_size == 1
    else:
        assert s.boneyard_size == 3
    assert s.actor is None
    assert s.legal_actions() == ()


@pytest.mark.parametrize("last", ["14-6", "6-6"])
def test_5_1_21_going_out_discards_extra_turns_and_skips(last: str) -> None:
    s = position(
        3,
        [[last], ["15-14", "3-0"], ["2-2"]],
        ["1-0"],
        arms=[["9-6"]],
    )
    s, events = step(s, f"{last}@9-6")
    assert of_type(events, ExtraTurn) == []
    assert of_type(events, Skipped) == []
    r = s.result
    assert (r.reason, r.winners, r.points) == ("domino", (0,), (36, 0, 0))
    assert s.actor is None
    assert s.legal_actions() == ()
