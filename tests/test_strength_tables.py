"""docs/strength.md's tables against a ceiling, against peers (OpenSpiel's ISMCTS, the ``dominoes``
package) and of the learned bot are the saved reports, and the code still plays the games they
measured.

The reports are ``benchmarks/results/tables.json``, written by ``benchmarks/strength.py`` (``make
strength``), each under the command that measured it. A ceiling report and a learned row keep
the exact figures of their first deals, which this test computes again. A peer report keeps
its first hands as traces (``benchmarks/traces.py``): the test plays each trace again without
the peer, asking bonepile's agent at each of its turns, which must choose the move the trace
holds. A change to the search or to the rules that changes how it plays those hands fails
here, and the table must be measured again before docs/strength.md may quote it.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.engine, pytest.mark.strength]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
strength: Any = pytest.importorskip("strength")
traces: Any = pytest.importorskip("traces")
ceiling: Any = pytest.importorskip("ceiling")

PAGE = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
SAVED: dict[str, dict[str, Any]] = strength.load_tables()


def _traces() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for key, report in SAVED.get("openspiel", {}).items():
        for row in report["rows"]:
            out += [(f"openspiel-{key}-{row['agent']}-{i}", t) for i, t in enumerate(row["traces"])]
    for key, report in SAVED.get("dominoes", {}).items():
        out += [(f"dominoes-{key}-{i}", t) for i, t in enumerate(report["traces"])]
    return out


TRACES = _traces()


LEARNED: list[dict[str, Any]] = list(SAVED.get("learned", {}).values())


def test_every_part_is_saved_with_its_command() -> None:
    assert set(SAVED) == {"ceiling", "openspiel", "dominoes", "learned"}
    for part, reports in SAVED.items():
        assert reports, part
        if part == "learned":
            continue
        for report in reports.values():
            assert report["command"].startswith("python benchmarks/"), report["command"]
            assert report["config"]["deals"] >= 400, report["command"]


def test_every_learned_row_is_saved_as_measured() -> None:
    """The learned rows are the runs ``strength.py`` names, each of 400 deals or more at one
    seed, with a check unless the agents play on a clock."""
    want = {key: (first, second) for key, first, second, _, _ in strength.LEARNED_ROWS}
    got = {r["key"]: (r["first"], r["second"]) for r in LEARNED}
    assert got == want
    assert len({r["seed"] for r in LEARNED}) == 1
    for r in LEARNED:
        assert r["deals"] >= 400 and r["game"] == "block" and r["players"] == 2, r["key"]
        assert (r["check"] is None) == (_on_a_clock(r["first"]) or _on_a_clock(r["second"]))


def _on_a_clock(agent: str) -> bool:
    """Whether ``agent`` is a search with a time budget (``ismcts:0.003s...``)."""
    kind, _, rest = agent.partition(":")
    return kind == "ismcts" and rest.split(":")[0].endswith("s")


@pytest.mark.parametrize(
    "row", [r for r in LEARNED if r["check"]], ids=[r["key"] for r in LEARNED if r["check"]]
)
def test_a_saved_learned_row_still_comes_out_of_the_code(
    row: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numpy")
    monkeypatch.chdir(ROOT)  # the rows name the shipped network from the repository's root
    want = row["check"]
    got = strength.check("block", row["first"], row["second"], row["seed"], want["deals"])
    assert got == want, (
        f"{row['command']} no longer plays the games it was measured on: measure it again "
        "(python benchmarks/strength.py --parts learned)"
    )


def test_the_readme_shows_the_saved_tables() -> None:
    text = strength.tables_markdown(SAVED)
    for chunk in text.split("\n\n"):
        assert chunk in PAGE, f"`python benchmarks/strength.py --table` gives:\n{chunk}"


@pytest.mark.parametrize("game", sorted(SAVED.get("ceiling", {})))
def test_a_saved_ceiling_still_comes_out_of_the_code(game: str) -> None:
    report = SAVED["ceiling"][game]
    want = report["check"]
    assert ceiling.check(report["config"], want["deals"]) == want, (
        f"{report['command']} no longer plays the games it measured: measure it again"
    )


def test_every_peer_row_keeps_traces_of_both_seatings() -> None:
    """Every peer row but those at equal time (a time budget does not make the same moves
    twice, so those rows have no traces to replay)."""
    for report in SAVED["openspiel"].values():
        if report["config"]["equal_time"]:
            assert all(not row["traces"] for row in report["rows"])
            continue
        for row in report["rows"]:
            assert len(row["traces"]) >= 4 and {t["ours"][0] for t in row["traces"]} == {0, 1}
    for report in SAVED["dominoes"].values():
        assert len(report["traces"]) >= 4
        assert {tuple(t["ours"]) for t in report["traces"]} == {(0, 2), (1, 3)}


@pytest.mark.parametrize("trace", [t for _, t in TRACES], ids=[name for name, _ in TRACES])
def test_bonepile_still_plays_the_traced_hands(trace: dict[str, Any]) -> None:
    assert traces.replay(trace) is None


def test_a_replay_tells_a_changed_player() -> None:
    """Another seed for the search (a stand-in for changed code) plays some traced hand
    otherwise, and the replay says where."""
    searched = [t for _, t in TRACES if t["agent"].startswith("ismcts")]
    assert searched
    told = []
    for trace in searched:
        other = copy.deepcopy(trace)
        other["seed"] += 1
        told.append(traces.replay(other))
    assert any(t is not None and t.startswith("ply ") for t in told), told
    cut = copy.deepcopy(searched[0])
    cut["actions"] = cut["actions"][:-1]
    assert "ends before the hand" in (traces.replay(cut) or "")


def test_one_learned_row_can_be_measured_again_alone(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``--learned KEY`` runs only that row and saves it in its place among the others; a key
    that names no row is one clear error."""
    ran: list[tuple[str, str, int]] = []

    def row(game: str, first: str, second: str, deals: int, *_: Any) -> dict[str, Any]:
        ran.append((first, second, deals))
        return {"first": first, "second": second, "win_share": 0.5, "points_margin": 0.0}

    monkeypatch.setattr(strength, "ladder_row", row)
    saved = tmp_path / "tables.json"
    saved.write_text(json.dumps({"learned": SAVED["learned"]}), encoding="utf-8")
    key, first, second, deals, _ = strength.LEARNED_ROWS[-1]
    strength.main(["--parts", "learned", "--learned", key, "--save-tables", str(saved)])
    assert ran == [(first, second, deals)]
    after = strength.load_tables(saved)["learned"]
    assert list(after) == list(SAVED["learned"]) and after[key]["win_share"] == 0.5
    with pytest.raises(SystemExit):
        strength.main(["--parts", "learned", "--learned", "nothing", "--no-save"])
    assert len(ran) == 1
