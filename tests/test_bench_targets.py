"""The playout benchmark's summary: which figures have targets, and how they are judged."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

import bonepile

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
playouts: Any = pytest.importorskip("playouts")


def _results(playout_2p: float, apply_2p: float, sd: float) -> dict[str, dict[str, Any]]:
    return {
        "openspiel_block_2p": {"games_per_s": 1000.0},
        "dominoes_block_4p": {"games_per_s": 4000.0},
        "bonepile_block_2p": {"games_per_s": apply_2p, "games_per_s_playout": playout_2p},
        "bonepile_block_4p": {"games_per_s": 4000.0, "games_per_s_playout": 40_000.0},
        "bonepile_sd_4p": {"actions_per_s_playout": sd},
    }


def test_playout_ratios_are_judged_against_the_build_s_target() -> None:
    minimum = 25 if bonepile.COMPILED else 15
    met = playouts.targets(_results(1000.0 * minimum, 1.0, 1.0))
    missed = playouts.targets(_results(1000.0 * minimum - 1, 1.0, 1.0))
    assert met["block_2p_vs_openspiel_playout"]["status"] == "met"
    assert missed["block_2p_vs_openspiel_playout"]["status"] == "not met"
    assert met["block_4p_vs_dominoes_playout"] == {
        "ratio": 10.0,
        "target": f">= {5 if bonepile.COMPILED else 3}",
        "bonepile": "games_per_s_playout",
        "status": "met",
    }


def test_step_api_ratios_are_reported_without_a_target() -> None:
    entry = playouts.targets(_results(1.0, 2500.0, 1.0))["block_2p_vs_openspiel"]
    assert entry["ratio"] == 2.5
    assert entry["status"] == "reported"


def test_games_without_an_anchor_give_their_rate_and_the_anchor_s_beside_it() -> None:
    entry = playouts.targets(_results(1.0, 1.0, 600_000.0))["super_dominoes_4p_actions"]
    assert entry["actions_per_openspiel_hand"] == 600.0
    assert entry["status"] == ("met" if bonepile.COMPILED else "reported")
    assert "double_double_2p_actions" not in playouts.targets(_results(1.0, 1.0, 1.0))


def test_a_missing_anchor_is_not_measured() -> None:
    results = _results(30_000.0, 1.0, 1.0)
    del results["openspiel_block_2p"]
    entry = playouts.targets(results)["block_2p_vs_openspiel_playout"]
    assert entry["status"] == "not measured"
    assert entry["missing"] == ["openspiel_block_2p"]


def test_the_openspiel_resampler_knows_a_skip_that_has_just_happened() -> None:
    """OpenSpiel's block game has no pass: a skipped player shows as the other moving twice in a
    row, and a skip at the end of the history as the last mover being the one to move now."""
    from collections import namedtuple

    openspiel_block: Any = pytest.importorskip("openspiel_block")
    move = namedtuple("move", "player tile edge")
    history = [move(0, (6.0, 6.0), None), move(1, (6.0, 2.0), 6.0), move(1, (2.0, 3.0), 2.0)]
    # P0 was skipped with 6 and 2 open; now P1 moves again: P0 was skipped with 6 and 3 open
    assert openspiel_block.lacking(history) == {0: {6.0, 2.0}, 1: set()}
    assert openspiel_block.lacking(history, 1) == {0: {6.0, 2.0, 3.0}, 1: set()}
    assert openspiel_block.lacking(history, 0) == {0: {6.0, 2.0}, 1: set()}
