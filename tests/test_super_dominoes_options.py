"""Every Super Dominoes option (docs/games/super_dominoes.md, "Options") changes behaviour in at
least one test.

For each option a position where the default and the alternative differ, with both asserted.
Options that only matter between hands (``next_hand_leader``, ``target_score``) have no effect
inside one hand: here they are only checked to be accepted, validated and inert;
**match behaviour (later hands, match end) is tested elsewhere**.
Expected values come from docs/games/super_dominoes.md and docs/records.md ("Notation",
"Decisions and forced moves"), not from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

import bonepile
from bonepile.errors import OptionError
from bonepile.events import (
    Drew,
    ExtraTurn,
    Reversed,
    Skipped,
    SpellCast,
    SpellEnded,
)
from sd_fixtures import (
    GAME,
    STARTER13_HANDS,
    ends_on,
    legal,
    of_type,
    play,
    position,
    real_deal,
    step,
    t,
)

pytestmark = pytest.mark.engine

RULES_DEFAULTS = {
    "first_player_rule": "highest_tile_in_hand",
    "next_hand_leader": "left_of_winner",
    "starter_choice": "any_double",
    "draw_when_unable": 2,
    "effect_trigger": "open_end",
    "extra_turn_mode": "full_turn",
    "skip_trigger": "double",
    "skip_stacking": False,
    "starter15_includes_setter": False,
    "double_wild_on_13": True,
    "doubles_branch": False,
    "caster_immune": True,
    "spell_ends_on_caster_turn": False,
    "starter13_spell": "all_arms",
    "starter13_setter_bound": True,
    "effects_on_final_tile": "apply_then_end",
    "blocked_full_tie": "no_winner",
    "scoring": "advanced",
    "blocked_difference": "clamped",
    "target_score": None,
}
"""Every option of docs/games/super_dominoes.md ("Options") with its default."""

RULES_CHOICES = {
    "first_player_rule": {"highest_tile_in_hand", "draw_high_tile", "fixed_seat", "random"},
    "next_hand_leader": {"left_of_winner", "rotate"},
    "starter_choice": {"any_double", "highest_double"},
    "effect_trigger": {"open_end", "tile_contains"},
    "extra_turn_mode": {"full_turn", "play_only_if_able"},
    "skip_trigger": {"double", "blank", "none"},
    "starter13_spell": {"all_arms", "single_play"},
    "effects_on_final_tile": {"apply_then_end", "end_immediately"},
    "blocked_full_tie": {"no_winner", "shared"},
    "scoring": {"advanced", "simple"},
    "blocked_difference": {"clamped", "signed"},
}


def _playout(s):
    """Play the first legal action until the hand ends (deterministic)."""
    for _ in range(2000):
        if s.result is not None:
            return s
        s = s.apply(s.legal_actions()[0])
    raise AssertionError("hand did not end")


# =========================================================================== the option set


def test_every_rules_option_exists_with_its_default() -> None:
    specs = {sp.name: sp for sp in GAME.option_specs()}
    assert set(specs) == set(RULES_DEFAULTS)
    assert {name: sp.default for name, sp in specs.items()} == RULES_DEFAULTS
    opts = GAME.make_options(None)
    for name, default in RULES_DEFAULTS.items():
        assert getattr(opts, name) == default


@pytest.mark.parametrize("name", sorted(RULES_CHOICES))
def test_every_choice_is_accepted(name: str) -> None:
    for value in RULES_CHOICES[name]:
        assert getattr(GAME.make_options({name: value}), name) == value
        s = GAME.new(3, seed=5, options={name: value})
        assert getattr(s.options, name) == value


# =========================================================================== validation


@pytest.mark.parametrize(
    "options",
    [
        {"no_such_option": 1},
        {"sd_draw_when_unable": 2},
        {"drawWhenUnable": 2},
    ],
)
def test_unknown_option_is_an_option_error(options) -> None:
    with pytest.raises(OptionError):
        GAME.new(3, seed=1, options=options)


@pytest.mark.parametrize(
    "options",
    [
        {"draw_when_unable": "2"},
        {"draw_when_unable": 2.0},
        {"draw_when_unable": True},
        {"draw_when_unable": None},
        {"target_score": "100"},
        {"target_score": 100.5},
        {"target_score": True},
        {"skip_stacking": 1},
        {"skip_stacking": "true"},
        {"double_wild_on_13": None},
        {"caster_immune": 0},
        {"effect_trigger": 1},
        {"effect_trigger": "sideways"},
        {"scoring": "Advanced"},
        {"first_player_rule": "youngest"},
        {"next_hand_leader": "winner"},
        {"next_hand_leader": None},
        {"starter13_spell": True},
    ],
)
def test_wrong_type_or_value_is_an_option_error(options) -> None:
    with pytest.raises(OptionError):
        GAME.new(3, seed=1, options=options)


@pytest.mark.parametrize(
    "options",
    [{"draw_when_unable": -1}, {"target_score": 0}, {"target_score": -10}],
)
def test_out_of_range_is_an_option_error(options) -> None:
    with pytest.raises(OptionError):
        GAME.new(3, seed=1, options=options)


def test_options_must_be_a_mapping() -> None:
    with pytest.raises(OptionError):
        GAME.new(3, seed=1, options=[("draw_when_unable", 1)])


@pytest.mark.parametrize("players", [0, 1, 9, 15])
def test_player_count_out_of_range_is_an_option_error(players: int) -> None:
    with pytest.raises(OptionError):
        GAME.new(players, seed=1)


def test_option_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        GAME.make_options({"draw_when_unable": -1})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("draw_when_unable", 0),
        ("draw_when_unable", 1),
        ("draw_when_unable", 7),
        ("target_score", None),
        ("target_score", 1),
        ("target_score", 250),
    ],
)
def test_in_range_values_are_accepted(name: str, value) -> None:
    s = GAME.new(3, seed=1, options={name: value})
    assert getattr(s.options, name) == value


# =========================================================================== first_player_rule


def _first_player_deal(options=None):
    # P2 holds the highest tile [15|14]; P0 and P2 both hold a double.
    return real_deal(3, [["2-2"], [], ["15-14", "5-5"]], options=options)


def test_first_player_rule_highest_tile_in_hand() -> None:
    s = _first_player_deal()
    assert s.actor == 2
    assert s.facts.to_json()["first_player"] == 2
    assert legal(s) == {"5-5"}


@pytest.mark.parametrize("rule", ["draw_high_tile", "fixed_seat", "random"])
def test_first_player_rule_explicit_deal_starts_at_seat_0(rule: str) -> None:
    # docs/games/super_dominoes.md, "Options": with an explicit deal these rules give seat 0.
    s = _first_player_deal({"first_player_rule": rule})
    assert s.actor == 0
    assert s.facts.to_json()["first_player"] == 0
    assert legal(s) == {"2-2"}


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_first_player_rule_highest_tile_in_hand_seeded(seed: int) -> None:
    s = GAME.new(4, seed=seed)
    best = max(range(4), key=lambda p: max(x.rank_key() for x in s.hand(p)))
    assert s.actor == best


@pytest.mark.parametrize("rule", ["draw_high_tile", "random"])
def test_first_player_rule_by_lot_is_reproducible_from_the_seed(rule: str) -> None:
    firsts = set()
    for seed in range(12):
        a = GAME.new(4, seed=seed, options={"first_player_rule": rule})
        b = GAME.new(4, seed=seed, options={"first_player_rule": rule})
        assert a.actor == b.actor
        assert a.facts.to_json()["first_player"] == b.facts.to_json()["first_player"]
        assert 0 <= a.facts.to_json()["first_player"] < 4
        firsts.add(a.facts.to_json()["first_player"])
    # A lot is a lot: over twelve seeds it does not always pick the same seat.
    assert len(firsts) > 1


# =========================================================================== next_hand_leader


@pytest.mark.parametrize("value", ["left_of_winner", "rotate"])
def test_next_hand_leader_is_inert_within_one_hand(value: str) -> None:
    # Only matters between hands (docs/games/super_dominoes.md, "Matches"). Match behaviour is
    # tested elsewhere.
    base = _playout(GAME.new(3, seed=11))
    other = _playout(GAME.new(3, seed=11, options={"next_hand_leader": value}))
    assert other.options.next_hand_leader == value
    assert other.moves == base.moves
    assert other.result == base.result


# =========================================================================== target_score


@pytest.mark.parametrize("value", [None, 1, 100])
def test_target_score_is_inert_within_one_hand(value) -> None:
    # Only matters between hands (docs/games/super_dominoes.md, "Matches"). Match behaviour is
    # tested elsewhere.
    base = _playout(GAME.new(3, seed=12))
    other = _playout(GAME.new(3, seed=12, options={"target_score": value}))
    assert other.options.target_score == value
    assert other.moves == base.moves
    assert other.result == base.result


# =========================================================================== starter_choice


@pytest.mark.parametrize(
    ("choice", "expected"),
    [("any_double", {"2-2", "11-11"}), ("highest_double", {"11-11"})],
)
def test_starter_choice(choice: str, expected: set[str]) -> None:
    s = real_deal(3, [["15-14", "2-2", "11-11"], [], []], options={"starter_choice": choice})
    assert s.actor == 0
    assert legal(s) == expected


# =========================================================================== draw_when_unable


def _stuck(options=None, boneyard=("10-1", "10-2", "10-3")):
    return position(
        3,
        [["12-11"], ["12-10"], ["11-10"]],
        list(boneyard),
        options=options,
    )


@pytest.mark.parametrize(("k", "drawn"), [(2, ["10-1", "10-2"]), (1, ["10-1"])])
def test_draw_when_unable_draws_k(k: int, drawn: list[str]) -> None:
    options = None if k == 2 else {"draw_when_unable": k}
    s = _stuck(options)
    assert legal(s) == {"draw"}
    s, events = step(s, "draw")
    assert events == (Drew(0, k, tuple(t(x) for x in drawn), "unable"),)
    assert s.hand_size(0) == 1 + k
    assert s.boneyard_size == 3 - k
    assert legal(s) == {"pass"}


def test_draw_when_unable_short_boneyard_draws_what_is_left() -> None:
    s = _stuck(boneyard=["10-1"])
    s, events = step(s, "draw")
    assert events == (Drew(0, 1, (t("10-1"),), "unable"),)
    assert s.boneyard_size == 0


def test_draw_when_unable_zero_passes_and_blocks_with_tiles_left() -> None:
    s = _stuck({"draw_when_unable": 0})
    for seat in range(3):
        assert s.actor == seat
        assert legal(s) == {"pass"}
        s = play(s, "pass")
    # docs/games/super_dominoes.md, "Options": with draw_when_unable=0 a hand can block while
    # the boneyard holds tiles.
    assert s.boneyard_size == 3
    assert s.result is not None
    assert s.result.reason == "blocked"


def test_draw_when_unable_default_does_not_block_while_tiles_remain() -> None:
    s = _stuck()
    s = play(s, "draw", "pass")
    assert s.result is None
    assert s.actor == 1
    assert legal(s) == {"draw"}


# =========================================================================== effect_trigger


def test_effect_trigger_15_inward() -> None:
    def run(options):
        s = position(
            3,
            [["15-4", "12-11"], ["10-0"], ["10-1"]],
            ["10-8", "11-3", "6-2"],
            arms=[["9-7", "15-7"]],
            options=options,
        )
        return step(s, "15-4@15-7")

    s, events = run(None)
    assert of_type(events, Drew) == []
    assert s.boneyard_size == 3
    s, events = run({"effect_trigger": "tile_contains"})
    assert s.boneyard_size == 1
    assert of_type(events, Drew) == [
        Drew(1, 1, (t("10-8"),), "fifteen"),
        Drew(2, 1, (t("11-3"),), "fifteen"),
    ]


@pytest.mark.parametrize(
    ("trigger", "extra", "next_actor"),
    [("open_end", [], 1), ("tile_contains", [ExtraTurn(0)], 0)],
)
def test_effect_trigger_14_inward(trigger: str, extra, next_actor: int) -> None:
    s = position(
        3,
        [["14-6", "12-11"], ["10-0"], ["10-1"]],
        ["15-13"],
        arms=[["9-14"]],
        options={"effect_trigger": trigger},
    )
    s, events = step(s, "14-6@14-9")
    assert of_type(events, ExtraTurn) == extra
    assert s.actor == next_actor


@pytest.mark.parametrize(
    ("trigger", "reversed_", "next_actor"),
    [("open_end", [], 1), ("tile_contains", [Reversed(0, -1)], 3)],
)
def test_effect_trigger_3_inward(trigger: str, reversed_, next_actor: int) -> None:
    s = position(
        4,
        [["6-3", "12-11"], ["10-0"], ["10-1"], ["10-2"]],
        ["15-13"],
        arms=[["9-3"]],
        options={"effect_trigger": trigger},
    )
    s, events = step(s, "6-3@9-3")
    assert of_type(events, Reversed) == reversed_
    assert s.actor == next_actor


def _thirteen_inward(trigger: str):
    s = position(
        3,
        [["13-5", "12-11"], ["8-5", "9-2", "6-6"], ["10-1"]],
        ["15-14"],
        arms=[["9-13"]],
        options={"effect_trigger": trigger},
    )
    return step(s, "13-5@13-9")


def test_effect_trigger_13_inward_open_end() -> None:
    s, events = _thirteen_inward("open_end")
    assert of_type(events, SpellCast) == []
    assert s.facts.to_json()["spell"] is None
    assert s.actor == 1
    assert legal(s) == {"8-5@13-5", "9-2@9-9"}


def test_effect_trigger_13_inward_tile_contains() -> None:
    s, events = _thirteen_inward("tile_contains")
    # docs/games/super_dominoes.md, "Options": the spell is cast on the end the tile leaves
    # open (it shows 5) ...
    assert of_type(events, SpellCast) == [SpellCast(0, t("13-5"), False)]
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-5", "caster": 0}
    assert s.actor == 1
    assert s.is_bound(1)
    # ... and a bound player may play only there, by the ordinary matching rule.
    assert legal(s) == {"8-5@13-5"}


@pytest.mark.parametrize(
    ("trigger", "skipped", "next_actor"),
    [("open_end", [], 1), ("tile_contains", [Skipped(1)], 2)],
)
def test_effect_trigger_blank_inward(trigger: str, skipped, next_actor: int) -> None:
    s = position(
        3,
        [["6-0", "12-11"], ["10-1"], ["10-2"]],
        ["15-13"],
        arms=[["9-0"]],
        options={"effect_trigger": trigger, "skip_trigger": "blank"},
    )
    s, events = step(s, "6-0@9-0")
    assert of_type(events, Skipped) == skipped
    assert s.actor == next_actor


def test_effect_trigger_13_tile_replaces_all_arms_starter_spell() -> None:
    def run(options):
        s = play(real_deal(3, STARTER13_HANDS, options=options, pad=False), "13-13")
        return step(s, "13-4@13-13")

    s, events = run(None)
    assert of_type(events, SpellEnded) == []
    assert s.facts.to_json()["spell"] == {"kind": "starter", "at": "13-13", "caster": 0}
    assert legal(s) == {"13-5@13-13", "13-7@13-13", "12-12@13-13"}

    s, events = run({"effect_trigger": "tile_contains"})
    assert [e for e in events if isinstance(e, (SpellEnded, SpellCast))] == [
        SpellEnded(1, "replaced"),
        SpellCast(1, t("13-4"), False),
    ]
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-4", "caster": 1}
    assert s.actor == 2
    assert legal(s) == {"6-4@13-4"}


# =========================================================================== extra_turn_mode


@pytest.mark.parametrize(
    ("mode", "expected"), [("full_turn", {"draw"}), ("play_only_if_able", {"pass"})]
)
def test_extra_turn_mode_after_a_14(mode: str, expected: set[str]) -> None:
    s = position(
        3,
        [["14-6", "12-11"], ["10-0"], ["10-3"]],
        ["10-1", "8-7", "11-10"],
        arms=[["9-6"]],
        options={"extra_turn_mode": mode},
    )
    s = play(s, "14-6@9-6")
    assert s.actor == 0
    assert legal(s) == expected


@pytest.mark.parametrize(
    ("mode", "expected"), [("full_turn", {"draw"}), ("play_only_if_able", {"pass"})]
)
def test_extra_turn_mode_after_a_14_14_starter(mode: str, expected: set[str]) -> None:
    s = real_deal(3, [["15-13", "14-14"], [], []], options={"extra_turn_mode": mode}, avoid=[14])
    s = play(s, "14-14")
    assert s.actor == 0
    assert legal(s) == expected
    if mode == "play_only_if_able":
        s = play(s, "pass")
        assert s.actor == 1
        assert s.facts.to_json()["idle_turns"] == 1
        assert s.hand_size(0) == 8
    else:
        s = play(s, "draw")
        assert s.hand_size(0) == 10


# =========================================================================== skip_trigger


@pytest.mark.parametrize(
    ("trigger", "tile", "end", "skipped"),
    [
        ("double", "6-6", "9-6", True),
        ("blank", "6-6", "9-6", False),
        ("none", "6-6", "9-6", False),
        ("double", "6-0", "9-6", False),
        ("blank", "6-0", "9-6", True),
        ("none", "6-0", "9-6", False),
    ],
)
def test_skip_trigger(trigger: str, tile: str, end: str, skipped: bool) -> None:
    s = position(
        3,
        [[tile, "12-11"], ["10-1"], ["10-2"]],
        ["15-13"],
        arms=[[end]],
        options={"skip_trigger": trigger},
    )
    s, events = step(s, f"{tile}@{end}")
    assert of_type(events, Skipped) == ([Skipped(1)] if skipped else [])
    assert s.actor == (2 if skipped else 1)


@pytest.mark.parametrize(
    ("trigger", "skipped", "next_actor"),
    [("double", [], 1), ("blank", [Skipped(1)], 2), ("none", [], 1)],
)
def test_skip_trigger_0_0_starter(trigger: str, skipped, next_actor: int) -> None:
    s = real_deal(3, [["15-14", "0-0"], [], []], options={"skip_trigger": trigger}, avoid=[0])
    s, events = step(s, "0-0")
    assert of_type(events, Skipped) == skipped
    assert s.actor == next_actor


# =========================================================================== skip_stacking


@pytest.mark.parametrize(
    ("players", "stacking", "skipped", "next_actor"),
    [
        (4, False, [1], 2),
        (4, True, [1, 2], 3),
        (2, False, [1], 0),
        (2, True, [1, 0], 1),
    ],
)
def test_skip_stacking(players: int, stacking: bool, skipped: list[int], next_actor: int) -> None:
    hands = [["14-14", "6-6", "12-11"], ["10-1"], ["10-2"], ["10-3"]][:players]
    s = position(
        players,
        hands,
        ["15-13"],
        arms=[["9-14"], ["9-6"]],
        options={"skip_stacking": stacking},
    )
    s = play(s, "14-14@14-9")
    assert s.actor == 0
    s, events = step(s, "6-6@9-6")
    assert of_type(events, Skipped) == [Skipped(p) for p in skipped]
    assert s.actor == next_actor


# ============================================================ starter15_includes_setter


@pytest.mark.parametrize("includes", [False, True])
def test_starter15_includes_setter(includes: bool) -> None:
    s = real_deal(
        3,
        [["15-15"], [], []],
        ["12-11", "12-10", "11-10"],
        options={"starter15_includes_setter": includes},
        avoid=[15],
    )
    s, events = step(s, "15-15")
    expected = [Drew(1, 1, (t("12-11"),), "starter"), Drew(2, 1, (t("12-10"),), "starter")]
    if includes:
        expected.append(Drew(0, 1, (t("11-10"),), "starter"))
    assert of_type(events, Drew) == expected
    assert s.hand_size(0) == (9 if includes else 8)
    assert s.actor == 1


# =========================================================================== double_wild_on_13


@pytest.mark.parametrize(
    ("wild", "expected"),
    [(True, {"8-8@13-5", "8-8@9-8", "4-4@13-5"}), (False, {"8-8@9-8"})],
)
def test_double_wild_on_13(wild: bool, expected: set[str]) -> None:
    s = position(
        3,
        [["8-8", "4-4"], ["12-11"], ["10-2"]],
        ["15-14"],
        arms=[["9-5", "13-5"], ["9-8"]],
        options={"double_wild_on_13": wild},
    )
    assert legal(s) == expected


@pytest.mark.parametrize(
    ("wild", "expected"),
    [(True, {"5-5@13-9", "13-2@13-9"}), (False, {"13-2@13-9"})],
)
def test_double_wild_on_13_breaking_a_spell(wild: bool, expected: set[str]) -> None:
    s = position(
        3,
        [["10-0"], ["5-5", "13-2", "9-3"], ["10-1"]],
        ["15-14"],
        arms=[["9-13"]],
        spell=("end", "13-9", 0),
        actor=1,
        options={"double_wild_on_13": wild},
    )
    assert legal(s) == expected


@pytest.mark.parametrize(
    ("wild", "expected"),
    [(True, {"13-4@13-13", "13-6@13-13", "5-5@13-13"}), (False, {"13-4@13-13", "13-6@13-13"})],
)
def test_double_wild_on_13_starting_arms_of_a_13_13(wild: bool, expected: set[str]) -> None:
    s = real_deal(3, STARTER13_HANDS, options={"double_wild_on_13": wild}, pad=False)
    s = play(s, "13-13")
    assert legal(s) == expected


# =========================================================================== doubles_branch


@pytest.mark.parametrize(
    ("branch", "ends", "p0_legal"),
    [(False, [6], {"draw"}), (True, [6, 6, 6], {"6-2@6-6"})],
)
def test_doubles_branch(branch: bool, ends: list[int], p0_legal: set[str]) -> None:
    s = position(
        3,
        [["6-6", "6-2", "12-11"], ["10-0"], ["6-1", "12-10"]],
        ["15-14", "15-13"],
        arms=[["9-6"]],
        options={"doubles_branch": branch},
    )
    s = play(s, "6-6@9-6")
    assert ends_on(s, "6-6") == ends
    assert len(s.layout.ends) == 6 + len(ends) - 1
    assert s.actor == 2
    assert legal(s) == {"6-1@6-6"}
    s = play(s, "6-1@6-6")
    assert s.actor == 0
    assert legal(s) == p0_legal


@pytest.mark.parametrize(
    ("branch", "p2_legal"),
    [(False, {"9-4@9-9"}), (True, {"13-5@13-13", "9-4@9-9"})],
)
def test_doubles_branch_spell_on_a_branched_13_13(branch: bool, p2_legal: set[str]) -> None:
    s = position(
        3,
        [["13-13", "12-11"], ["13-2", "9-3"], ["13-5", "9-4"]],
        ["15-14"],
        arms=[["9-13"]],
        options={"doubles_branch": branch},
    )
    s, events = step(s, "13-13@13-9")
    assert of_type(events, SpellCast) == [SpellCast(0, t("13-13"), False)]
    assert of_type(events, Skipped) == []
    assert s.actor == 1
    assert legal(s) == {"13-2@13-13"}
    s, events = step(s, "13-2@13-13")
    # A play on any side of the branched 13-13 breaks its spell.
    assert of_type(events, SpellEnded) == [SpellEnded(1, "broken")]
    assert s.facts.to_json()["spell"] is None
    assert s.actor == 2
    assert not s.is_bound(2)
    assert legal(s) == p2_legal


# =========================================================================== caster_immune


@pytest.mark.parametrize(
    ("immune", "bound", "expected"),
    [(True, False, {"9-4@4-1", "9-4@9-9", "13-0@13-9"}), (False, True, {"13-0@13-9"})],
)
def test_caster_immune(immune: bool, bound: bool, expected: set[str]) -> None:
    s = position(
        3,
        [["9-4", "13-0", "12-11"], ["10-1"], ["10-2"]],
        ["15-14"],
        arms=[["9-13"], ["9-1", "4-1"]],
        spell=("end", "13-9", 0),
        options={"caster_immune": immune},
    )
    assert s.is_bound(0) is bound
    assert s.is_bound(1)
    assert legal(s) == expected


# ============================================================ spell_ends_on_caster_turn


def _caster_turn(options):
    s = position(
        3,
        [["13-9", "9-4", "13-0", "12-11"], ["9-2", "6-1"], ["9-3", "12-8"]],
        ["8-7", "11-10", "12-10", "11-7", "6-5", "3-2"],
        arms=[["9-1", "4-1"]],
        options=options,
    )
    s = play(s, "13-9@9-9", "draw", "pass", "draw")
    s, events = step(s, "pass")
    assert s.actor == 0
    return s, events


def test_spell_ends_on_caster_turn_default_keeps_the_spell() -> None:
    s, events = _caster_turn(None)
    assert of_type(events, SpellEnded) == []
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-9", "caster": 0}
    s = play(s, "9-4@4-1")
    assert s.is_bound(1)
    assert legal(s) == {"draw"}


def test_spell_ends_on_caster_turn_true_lapses_when_the_turn_begins() -> None:
    s, events = _caster_turn({"spell_ends_on_caster_turn": True})
    assert of_type(events, SpellEnded) == [SpellEnded(0, "caster_turn")]
    assert s.facts.to_json()["spell"] is None
    assert legal(s) == {"9-4@4-1", "9-4@9-9", "13-0@13-9"}
    s = play(s, "9-4@4-1")
    assert not s.is_bound(1)
    assert legal(s) == {"9-2@9-9", "9-2@9-4"}


def test_spell_ends_on_caster_turn_changes_nothing_without_immunity() -> None:
    s, events = _caster_turn({"spell_ends_on_caster_turn": True, "caster_immune": False})
    assert of_type(events, SpellEnded) == []
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-9", "caster": 0}
    assert s.is_bound(0)
    assert legal(s) == {"13-0@13-9"}


@pytest.mark.parametrize(("ends", "spell_after"), [(False, True), (True, False)])
def test_spell_ends_on_caster_turn_extra_turns_count(ends: bool, spell_after: bool) -> None:
    # With tile_contains, [14|13] on a 14 casts a spell (13) and gives an extra turn (14):
    # the caster's extra turn begins while its own spell holds.
    s = position(
        3,
        [["14-13", "12-11", "10-5"], ["10-1"], ["10-2"]],
        ["15-12"],
        arms=[["9-14"]],
        options={"effect_trigger": "tile_contains", "spell_ends_on_caster_turn": ends},
    )
    s, events = step(s, "14-13@14-9")
    assert of_type(events, SpellCast) == [SpellCast(0, t("14-13"), False)]
    assert of_type(events, ExtraTurn) == [ExtraTurn(0)]
    assert s.actor == 0
    assert (s.facts.to_json()["spell"] is not None) is spell_after
    assert of_type(events, SpellEnded) == ([] if spell_after else [SpellEnded(0, "caster_turn")])


@pytest.mark.parametrize("ends", [False, True])
def test_spell_ends_on_caster_turn_skipped_turns_do_not_count(ends: bool) -> None:
    # 2 players, stacked blank skips: [14|0] (extra turn, skip) then [13|0] (spell, skip).
    # P1 and then the caster P0 lose their turns; P0's forfeited turn does not end the spell.
    s = position(
        2,
        [["14-0", "13-0", "12-11"], ["13-2", "9-3"]],
        ["15-12"],
        arms=[["9-14"]],
        options={
            "effect_trigger": "tile_contains",
            "skip_trigger": "blank",
            "skip_stacking": True,
            "spell_ends_on_caster_turn": ends,
        },
    )
    s = play(s, "14-0@14-9")
    assert s.actor == 0
    s, events = step(s, "13-0@14-0")
    assert of_type(events, Skipped) == [Skipped(1), Skipped(0)]
    assert of_type(events, SpellEnded) == []
    assert s.facts.to_json()["spell"] == {"kind": "end", "at": "13-0", "caster": 0}
    assert s.actor == 1
    assert s.is_bound(1)
    assert legal(s) == {"13-2@13-0"}


def test_spell_ends_on_caster_turn_leaves_a_starter_spell_alone() -> None:
    # docs/games/super_dominoes.md, "Where we settled the rules": the option ends an *end*
    # spell; the 13-13 starter spell is not one.
    options = {"starter13_setter_bound": False, "spell_ends_on_caster_turn": True}
    s = real_deal(3, STARTER13_HANDS, options=options, pad=False)
    s, events = step(play(s, "13-13", "13-4@13-13"), "13-5@13-13")
    assert of_type(events, SpellEnded) == []
    assert s.actor == 0
    assert s.facts.to_json()["spell"] == {"kind": "starter", "at": "13-13", "caster": 0}
    assert s.is_bound(1)


# =========================================================================== starter13_spell


@pytest.mark.parametrize(
    ("mode", "spell_left", "p2_legal"),
    [
        ("all_arms", True, {"13-5@13-13", "13-7@13-13", "12-12@13-13"}),
        ("single_play", False, {"13-5@13-13", "13-7@13-13", "12-12@13-13", "6-4@13-4"}),
    ],
)
def test_starter13_spell(mode: str, spell_left: bool, p2_legal: set[str]) -> None:
    s = real_deal(3, STARTER13_HANDS, options={"starter13_spell": mode}, pad=False)
    s = play(s, "13-13", "13-4@13-13")
    assert (s.facts.to_json()["spell"] is not None) is spell_left
    assert s.is_bound(2) is spell_left
    assert legal(s) == p2_legal


# =========================================================================== starter13_setter_bound


@pytest.mark.parametrize(
    ("bound", "expected"),
    [
        (True, {"15-15@13-13", "13-1@13-13", "13-2@13-13"}),
        (False, {"15-15@13-13", "13-1@13-13", "13-2@13-13", "7-5@13-5"}),
    ],
)
def test_starter13_setter_bound(bound: bool, expected: set[str]) -> None:
    s = real_deal(3, STARTER13_HANDS, options={"starter13_setter_bound": bound}, pad=False)
    s = play(s, "13-13", "13-4@13-13", "13-5@13-13")
    assert s.actor == 0
    assert s.is_bound(0) is bound
    assert s.is_bound(1)
    assert legal(s) == expected


# =========================================================================== effects_on_final_tile


@pytest.mark.parametrize(
    ("mode", "points", "boneyard"),
    [("apply_then_end", 42, 1), ("end_immediately", 36, 3)],
)
def test_effects_on_final_tile(mode: str, points: int, boneyard: int) -> None:
    s = position(
        3,
        [["15-4"], ["15-14", "3-0"], ["2-2"]],
        ["1-0", "3-2", "12-11"],
        arms=[["9-4"]],
        options={"effects_on_final_tile": mode},
    )
    s = play(s, "15-4@9-4")
    assert s.result is not None
    assert (s.result.reason, s.result.winners, s.result.points) == ("domino", (0,), (points, 0, 0))
    assert s.boneyard_size == boneyard


# =========================================================================== block scoring


def _block(hands, options=None):
    s = position(3, hands, [], options=options)
    s = play(s, "pass", "pass", "pass")
    assert s.result is not None
    return s.result


FULL_TIE = [["2-0"], ["1-1"], ["10-7", "8-6"]]


@pytest.mark.parametrize(
    ("options", "winners", "points"),
    [
        ({}, (), (0, 0, 0)),
        ({"blocked_full_tie": "shared"}, (0, 1), (29, 29, 0)),
        ({"blocked_full_tie": "shared", "scoring": "simple"}, (0, 1), (1, 1, 0)),
    ],
)
def test_blocked_full_tie(options, winners, points) -> None:
    r = _block(FULL_TIE, options)
    assert (r.reason, r.winners, r.points) == ("blocked", winners, points)


BLOCK_5_1_20 = [["1-1"], ["0-0", "1-0"], ["15-15"]]


@pytest.mark.parametrize(
    ("options", "points"),
    [
        ({}, 28),
        ({"scoring": "simple"}, 1),
        ({"blocked_difference": "signed"}, 27),
        ({"blocked_difference": "signed", "scoring": "simple"}, 1),
    ],
)
def test_scoring_and_blocked_difference(options, points: int) -> None:
    r = _block(BLOCK_5_1_20, options)
    assert (r.reason, r.winners, r.points) == ("blocked", (0,), (points, 0, 0))


@pytest.mark.parametrize(("scoring", "points"), [("advanced", 36), ("simple", 3)])
def test_scoring_domino(scoring: str, points: int) -> None:
    s = position(
        3,
        [["8-4"], ["15-14", "3-0"], ["2-2"]],
        ["1-0"],
        arms=[["9-4"]],
        options={"scoring": scoring},
    )
    s = play(s, "8-4@9-4")
    assert (s.result.reason, s.result.winners, s.result.points) == ("domino", (0,), (points, 0, 0))


@pytest.mark.skipif(bonepile.COMPILED, reason="compiled functions cannot be patched")
def test_every_tile_played_runs_the_effects_in_the_order_of_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The transition calls the effects directly; they must be EFFECTS, in its order (the
    order of the rules), for every tile played that does not end the hand."""
    import random

    from bonepile.games import super_dominoes as sd

    calls: list[str] = []
    for _, effect in sd.EFFECTS:

        def recording(s: Any, p: Any, events: Any, effect: Any = effect) -> None:
            calls.append(effect.__name__)
            effect(s, p, events)

        monkeypatch.setattr(sd, effect.__name__, recording)
    order = [effect.__name__ for _, effect in sd.EFFECTS]
    plays = 0
    for seed in range(6):
        state = bonepile.new_game("super_dominoes", 4, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            calls.clear()
            action = rng.choice(state.legal_actions())
            state, _ = state.step(action)
            if calls:
                assert calls == order, calls
                plays += 1
    assert plays > 100
