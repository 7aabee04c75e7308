"""bonepile: a fast, exact engine for domino games, and the tools built on it.

The public API, in one place::

    import bonepile
    state = bonepile.new_game("super_dominoes", 3, seed=7)
    while not state.is_over:
        state = bonepile.apply(state, state.legal_actions()[0])
    print(state.result, bonepile.view(state, 0).hand)
"""

from __future__ import annotations

from bonepile.actions import Action, Attach, Draw, Lead, Pass, parse_action
from bonepile.build_info import COMPILED, build
from bonepile.conformance import CheckReport, ConformanceError, check_game
from bonepile.errors import (
    BonepileError,
    DealError,
    IllegalActionError,
    InvalidActionError,
    OptionError,
    RecordError,
)
from bonepile.events import Event
from bonepile.facts import PublicFacts
from bonepile.games import Game, all_games, get_game, new_game
from bonepile.grid import BoardLayout, BoardPlacement
from bonepile.layout import Layout, OpenEnd, Placement
from bonepile.match import Match, new_match
from bonepile.match_record import (
    dump_match,
    load_any,
    match_record_of,
    read_any,
    read_match,
    save_match,
)
from bonepile.perft import perft
from bonepile.record import dump_record, load_record, read_record, record_of, save_record
from bonepile.result import Result
from bonepile.state import State, apply
from bonepile.tiles import Tile, parse_tile, tile_set
from bonepile.view import View, view

__version__ = "0.1.0"

__all__ = [
    "COMPILED",
    "Action",
    "Attach",
    "BoardLayout",
    "BoardPlacement",
    "BonepileError",
    "CheckReport",
    "ConformanceError",
    "DealError",
    "Draw",
    "Event",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Layout",
    "Lead",
    "Match",
    "OpenEnd",
    "OptionError",
    "Pass",
    "Placement",
    "PublicFacts",
    "RecordError",
    "Result",
    "State",
    "Tile",
    "View",
    "all_games",
    "apply",
    "build",
    "check_game",
    "dump_match",
    "dump_record",
    "get_game",
    "load_any",
    "load_record",
    "match_record_of",
    "new_game",
    "new_match",
    "parse_action",
    "parse_tile",
    "perft",
    "read_any",
    "read_match",
    "read_record",
    "record_of",
    "save_match",
    "save_record",
    "tile_set",
    "view",
]
