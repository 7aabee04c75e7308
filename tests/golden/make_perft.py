"""Regenerate the perft golden files in tests/golden/perft/ (docs/records.md, "Perft").

    .venv/bin/python tests/golden/make_perft.py            # check: recount, report differences
    .venv/bin/python tests/golden/make_perft.py --write    # overwrite the golden files

Only re-run with ``--write`` DELIBERATELY: the goldens pin the move generator against
regressions, so they must change only when a rule change is intended (and reviewed). The counts
come from the engine itself; tests/test_perft.py cross-checks them against an independent
brute-force counter and against counts worked out by hand from the deals.

Each golden file is one fixed deal: the record (explicit deal, never a seed, so it does not
depend on the engine's shuffle) plus the perft counts at depths 1-4 and the divide at depth 3.
A case either spells out the hands (hand-made positions, verified by hand in the test) or deals
a shuffle of its own with :class:`random.Random` (stable across Python versions).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from golden_files import sync

from bonepile.games import get_game
from bonepile.games.double_double import sets_in_play
from bonepile.perft import divide, perft
from bonepile.record import read_record
from bonepile.tiles import parse_tile, tile_multiset

HERE = Path(__file__).resolve().parent / "perft"
DEPTHS = (1, 2, 3, 4)
DIVIDE_DEPTH = 3


@dataclass
class Case:
    name: str
    description: str
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    hands: list[list[str]] | None = None  # hand-made hands (seat 0 first)
    boneyard_front: list[str] = field(default_factory=list)  # then the rest, shuffled
    keep_out: list[str] = field(default_factory=list)  # tiles no hand may be dealt
    shuffle_seed: int = 0
    board: str | None = None  # a board game's shipped board
    moves: list[str] = field(default_factory=list)  # moves spelled out
    advance: int = 0  # then this many more, by a fixed policy (see advance_policy)

    def deal(self) -> tuple[list[list[str]], list[str]]:
        game = get_game(self.game)
        opts = game.make_options(self.options)
        rng = random.Random(self.shuffle_seed)
        copies = sets_in_play(opts, self.players) if game.board_game else 1
        full = [str(t) for t in tile_multiset(game.max_pip(opts), copies)]
        size = game.hand_size(self.players, opts)
        if self.hands is None:
            rng.shuffle(full)
            hands: list[list[str]] = [[] for _ in range(self.players)]
            for i in range(size * self.players):
                hands[i % self.players].append(full[i])
            return hands, full[size * self.players :]
        # Hands given in full, or partly (then filled up from a shuffle of the other tiles,
        # never with a tile of ``keep_out``, which stays in the boneyard).
        hands = [[str(parse_tile(t)) for t in h] for h in self.hands]
        front = [str(parse_tile(t)) for t in self.boneyard_front]
        keep_out = {str(parse_tile(t)) for t in self.keep_out}
        rest = list(full)
        for t in [*(t for h in hands for t in h), *front]:
            rest.remove(t)
        rest = [t for t in rest if t not in keep_out]
        rng.shuffle(rest)
        for h in hands:
            while len(h) < size:
                h.append(rest.pop())
        tail = rest + sorted(keep_out)
        rng.shuffle(tail)
        return hands, front + tail


def advance_policy(legal: list[str], ply: int) -> str:
    """A fixed, engine-order-free choice: the (ply mod n)-th legal action in sorted order."""
    ordered = sorted(legal)
    return ordered[ply % len(ordered)]


CASES = [
    Case(
        "block_2p_double6_lead",
        "block 2p, default lead: seat 0 holds 6-6 and must lead it (hand-verified in the test)",
        "block",
        2,
        hands=[
            ["6-6", "5-5", "6-2", "4-1", "3-0", "2-2", "1-0"],
            ["6-5", "6-4", "6-1", "5-3", "4-4", "3-3", "2-1"],
        ],
        shuffle_seed=11,
    ),
    Case(
        "block_2p_no_double",
        "block 2p, default lead, no double dealt: the heaviest tile 6-5 (seat 1) leads",
        "block",
        2,
        hands=[
            ["6-4", "6-3", "5-4", "5-0", "4-3", "2-1", "3-1"],
            ["6-5", "6-2", "6-1", "6-0", "5-3", "5-2", "4-2"],
        ],
        shuffle_seed=12,
    ),
    Case(
        "block_2p_seat0_any",
        "block 2p, lead=seat0_any: seat 0 may lead any of its 7 tiles",
        "block",
        2,
        options={"lead": "seat0_any"},
        shuffle_seed=13,
    ),
    Case("block_4p_default", "block 4p, default lead, shuffled deal", "block", 4, shuffle_seed=14),
    Case(
        "block_4p_seat0_any",
        "block 4p, lead=seat0_any, shuffled deal",
        "block",
        4,
        options={"lead": "seat0_any"},
        shuffle_seed=15,
    ),
    Case(
        "block_4p_seat0_any_mid",
        "block 4p, lead=seat0_any, after 5 moves",
        "block",
        4,
        options={"lead": "seat0_any"},
        shuffle_seed=16,
        advance=5,
    ),
    Case(
        "draw_2p_forced_draws",
        "draw 2p after the 6-6 lead: seat 1 has no 6 and draws 3-0, then 6-3 (hand-verified)",
        "draw",
        2,
        hands=[
            ["6-6", "6-5", "3-3", "3-1", "2-0", "1-1", "4-0"],
            ["5-5", "5-4", "4-4", "2-2", "2-1", "4-1", "5-0"],
        ],
        boneyard_front=["3-0", "6-3"],
        shuffle_seed=21,
        moves=["6-6"],
    ),
    Case("draw_2p_shuffled", "draw 2p, default options, shuffled deal", "draw", 2, shuffle_seed=22),
    Case(
        "draw_2p_one_reserve_mid",
        "draw 2p, draw_mode=one, reserve=2, after 6 moves",
        "draw",
        2,
        options={"draw_mode": "one", "reserve": 2},
        shuffle_seed=23,
        advance=6,
    ),
    Case("draw_3p_shuffled", "draw 3p, default options, shuffled deal", "draw", 3, shuffle_seed=24),
    Case(
        "draw_3p_mid",
        "draw 3p, default options, after 7 moves",
        "draw",
        3,
        shuffle_seed=25,
        advance=7,
    ),
    Case(
        "sd_2p_opening",
        "Super Dominoes 2p opening: seat 0 (15-14, the highest tile) may set 9-9 or 4-4",
        "super_dominoes",
        2,
        hands=[
            ["15-14", "9-9", "4-4", "13-2", "12-1", "11-0", "10-1", "8-0", "7-1"],
            ["9-1", "9-2", "4-0", "12-7", "11-5", "10-3", "8-6", "7-2", "6-5"],
        ],
        shuffle_seed=31,
    ),
    Case(
        "sd_2p_no_double",
        "Super Dominoes 2p, nobody dealt a double, after both passes: seat 0 draws 12-4, "
        "seat 1 draws 7-7 and must set it",
        "super_dominoes",
        2,
        hands=[
            ["15-14", "7-1", "7-2", "12-5", "11-3", "10-4", "9-0", "8-6", "6-1"],
            ["14-13", "13-12", "11-10", "9-8", "7-0", "6-5", "5-4", "3-2", "2-1"],
        ],
        boneyard_front=["12-4", "7-7"],
        shuffle_seed=32,
        moves=["pass", "pass"],
    ),
    Case(
        "sd_3p_spell",
        "Super Dominoes 3p: seat 0 sets 5-5, seat 1 casts a spell with 13-5; seat 2 is bound",
        "super_dominoes",
        3,
        hands=[
            ["15-14", "5-5", "12-0", "11-1", "10-2", "9-3", "8-4", "7-6", "14-1"],
            ["13-5", "5-4", "12-12", "11-10", "9-8", "7-3", "6-2", "14-0", "15-1"],
            ["13-7", "13-0", "8-8", "6-6", "5-1", "5-2", "12-3", "11-4", "10-9"],
        ],
        shuffle_seed=33,
        moves=["5-5", "13-5@5-5"],
    ),
    Case(
        "sd_2p_shuffled_mid",
        "Super Dominoes 2p, shuffled deal, after 6 moves",
        "super_dominoes",
        2,
        shuffle_seed=34,
        advance=6,
    ),
    Case(
        "sd_3p_shuffled",
        "Super Dominoes 3p, shuffled deal, from the opening",
        "super_dominoes",
        3,
        shuffle_seed=35,
    ),
    Case(
        "sd_4p_shuffled_mid",
        "Super Dominoes 4p, shuffled deal, after 8 moves",
        "super_dominoes",
        4,
        shuffle_seed=36,
        advance=8,
    ),
    Case(
        "sd_3p_shuffled_late",
        "Super Dominoes 3p, shuffled deal, after 24 moves",
        "super_dominoes",
        3,
        shuffle_seed=37,
        advance=24,
    ),
    Case(
        "block_2p_spinner_mid",
        "block 2p, spinner=true, lead=seat0_any, after 4 moves",
        "block",
        2,
        options={"spinner": True, "lead": "seat0_any"},
        shuffle_seed=17,
        advance=4,
    ),
    Case(
        "sd_3p_starter15",
        "Super Dominoes 3p: seat 0 holds 15-15 (first player); setting it makes the others draw",
        "super_dominoes",
        3,
        hands=[["15-15", "6-6"], [], []],
        shuffle_seed=41,
    ),
    Case(
        "sd_3p_starter14",
        "Super Dominoes 3p: seat 0 (15-13) may set 14-14 and play again at once",
        "super_dominoes",
        3,
        hands=[["15-13", "14-14", "14-5", "14-2"], ["5-1"], ["2-1"]],
        keep_out=["15-15", "15-14"],
        shuffle_seed=42,
    ),
    Case(
        "sd_2p_starter13",
        "Super Dominoes 2p: seat 0 (15-12) may set 13-13, a starter spell (all_arms)",
        "super_dominoes",
        2,
        hands=[["15-12", "13-13"], []],
        keep_out=["15-15", "15-14", "15-13", "14-14"],
        shuffle_seed=43,
    ),
    Case(
        "sd_4p_starter3",
        "Super Dominoes 4p: seat 0 (15-14) may set 3-3, reversing the direction",
        "super_dominoes",
        4,
        hands=[["15-14", "3-3"], ["3-4"], [], ["3-1", "3-2"]],
        keep_out=["15-15", "14-14", "12-12", "9-9", "8-8"],
        shuffle_seed=44,
    ),
    Case(
        "doubles_2p_opening",
        "Doubles 2p: the holder of 6-6 must lead it; four sides, locks from the start",
        "doubles",
        2,
        hands=[["6-6", "6-1", "6-2"], ["6-3", "3-3"]],
        shuffle_seed=51,
    ),
    Case(
        "doubles_3p_mid",
        "Doubles 3p, after 8 moves: locked ends, draws and the reserve",
        "doubles",
        3,
        shuffle_seed=52,
        advance=8,
    ),
    Case(
        "doubles_4p_until_playable",
        "Doubles 4p, draw_when_unable=until_playable, spinner_sides=3, after 5 moves",
        "doubles",
        4,
        options={"draw_when_unable": "until_playable", "spinner_sides": 3},
        shuffle_seed=53,
        advance=5,
    ),
    Case(
        "sd_3p_tile_contains_branch_mid",
        "Super Dominoes 3p, effect_trigger=tile_contains, doubles_branch, after 6 moves",
        "super_dominoes",
        3,
        options={"effect_trigger": "tile_contains", "doubles_branch": True},
        shuffle_seed=46,
        advance=10,
    ),
]


CASES += [
    Case(
        "ddd_2p_tiny_opening",
        "Double Double Dominoes 2p on the 3x3 tiny board: the first tile covers the star",
        "double_double",
        2,
        board="tiny",
        shuffle_seed=61,
    ),
    Case(
        "ddd_2p_small_chain",
        "Double Double Dominoes 2p on the 7x7 small board: seat 0 holds doubles to chain",
        "double_double",
        2,
        hands=[["0-0", "3-3", "3-0"], ["6-5", "5-5", "5-4"]],
        board="small",
        shuffle_seed=62,
        moves=["0-0@3D4D"],
    ),
    Case(
        "ddd_3p_small_mid",
        "Double Double Dominoes 3p on the small board, after 7 moves",
        "double_double",
        3,
        board="small",
        shuffle_seed=63,
        advance=7,
    ),
]


def build(case: Case) -> dict[str, Any]:
    hands, boneyard = case.deal()
    record: dict[str, Any] = {
        "format": "bonepile-record/1",
        "game": case.game,
        "players": case.players,
        "options": case.options,
        "deal": {"hands": hands, "boneyard": boneyard},
        "moves": list(case.moves),
    }
    if case.board is not None:
        record["board"] = case.board
    state = read_record(record)
    for ply in range(case.advance):
        if state.is_over:
            break
        move = advance_policy([str(a) for a in state.legal_actions()], ply)
        record["moves"].append(move)
        state = state.apply(next(a for a in state.legal_actions() if str(a) == move))
    assert read_record(record) == state
    return {
        "name": case.name,
        "description": case.description,
        "record": record,
        "perft": {str(d): perft(state, d) for d in DEPTHS},
        "divide": {str(DIVIDE_DEPTH): {str(a): n for a, n in divide(state, DIVIDE_DEPTH)}},
    }


def dumps(data: dict[str, Any]) -> str:
    """JSON with one key per line but flat lists (hands, boneyard, moves) on one line each."""
    text = json.dumps(data, indent=1)
    flat = re.sub(
        r"\[\n\s*([^\[\]{}]*?)\n\s*\]",
        lambda m: "[" + " ".join(line.strip() for line in m.group(1).splitlines()) + "]",
        text,
    )
    assert json.loads(flat) == data
    return flat + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="overwrite the golden files")
    args = parser.parse_args(argv)
    differ = 0
    for case in CASES:
        data = build(case)
        status = sync(HERE / f"{case.name}.json", dumps(data), args.write)
        differ += status != "same"
        print(f"{case.name}: {data['perft']} {status}")
    if differ and not args.write:
        print(f"{differ} golden file(s) differ; re-run with --write only if that is intended")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
