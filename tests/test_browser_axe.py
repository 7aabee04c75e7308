"""Every page passes axe-core (Deque's accessibility engine, the rules of WCAG 2.x A and AA and
its best practices) with no violation: the front page, the new-table form, a table in play and
a replay with its analysis, on a desktop and on a phone, in chromium against a real server.

axe-core comes from the ``axe-playwright-python`` package (the test extra), which ships its
``axe.min.js``; the script is put into each page as it stands and run there."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from test_browser import (  # noqa: F401 - fixtures
    PATIENCE,
    WAIT_TURN,
    browser,
    contexts,
    new_table_via_api,
    play_one,
    server,
    shot,
)

pytestmark = pytest.mark.system

pytest.importorskip(
    "axe_playwright_python", reason="axe-core: pip install axe-playwright-python (the test extra)"
)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
PAGES = ("front", "new-table", "table", "replay")


def axe_script() -> str:
    return (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def violations(page: Any) -> list[dict[str, Any]]:
    """axe's violations on the page as it stands (each with its nodes)."""
    page.evaluate(axe_script())
    got: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, { resultTypes: ['violations'] })).violations"
    )
    return got


def said(found: list[dict[str, Any]]) -> str:
    """The violations in a few readable lines: rule, impact, where, what to fix."""
    lines = []
    for v in found:
        for node in v["nodes"][:3]:
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"{v['id']} ({v['impact']}) at {node['target']}: {summary[:240]}")
    return "\n".join(lines)


def _settled(page: Any) -> None:
    """No banner coming or going (axe reads colours as they are drawn, fades included)."""
    page.wait_for_function("() => !document.querySelector('.effect, .toast')", timeout=PATIENCE)
    page.wait_for_timeout(600)  # a tile just played drops in for 0.45 s


def _open(page: Any, server: str, where: str) -> None:  # noqa: F811
    if where == "front":
        page.goto(server + "/")
        page.wait_for_selector(".game-card", timeout=PATIENCE)
        page.wait_for_selector(".lobby-list > :not(.loading)", timeout=PATIENCE)
        page.wait_for_selector(".pairing", timeout=PATIENCE)
    elif where == "new-table":
        page.goto(server + "/new")
        page.wait_for_selector("form.new-form", timeout=PATIENCE)
    elif where == "table":
        page.goto(server + "/")
        body = {"game": "super_dominoes", "seats": ["me", "greedy", "greedy", "greedy"]}
        made = new_table_via_api(page, server, body)
        page.goto(f"{server}/t/{made['id']}")
        # a few moves in: tiles down, open ends, the log, my turn with a tile picked
        for _ in range(3):
            if play_one(page) == "over":
                break
            page.wait_for_function(
                "() => !document.querySelector('.hand-tile.playing')", timeout=PATIENCE
            )
        if page.wait_for_function(WAIT_TURN, timeout=PATIENCE).json_value() == "turn":
            legal = page.locator(".hand-tile.legal")
            if legal.count():
                legal.first.click()
        _settled(page)
    else:
        page.goto(server + "/")
        made = new_table_via_api(page, server, {"game": "block", "seats": ["greedy", "greedy"]})
        page.goto(f"{server}/t/{made['id']}")
        page.wait_for_selector(".result-card", timeout=180_000)  # the bots, on a busy machine
        page.goto(f"{server}/replay/{made['id']}-1?ply=1")
        page.wait_for_selector(".replay-turn", timeout=PATIENCE)
        page.click("[data-action=analyse]")
        page.wait_for_selector(".analysis-move", timeout=180_000)  # an analysis waits its turn


@pytest.mark.browser
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("where", PAGES)
def test_the_page_has_no_accessibility_violation(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
    where: str,
    size: str,
) -> None:
    page = contexts(SIZES[size]).page()
    _open(page, server, where)
    found = violations(page)
    shot(page, f"axe-{where}-{size}")
    assert found == [], said(found) + "\n" + json.dumps([v["id"] for v in found])
