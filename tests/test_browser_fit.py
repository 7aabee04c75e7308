"""Every game's table drawn whole on every screen: in chromium at a desktop, a phone and a
small phone, the final table of a hand (the largest it gets) lies inside the felt after "Fit",
and nothing drawn over the felt (the facts, the effects, the zoom buttons) covers a tile or an
open end. The screenshots are kept in /tmp/bonepile-screens for a person to look at."""

from __future__ import annotations

import json
from typing import Any

import pytest

from test_browser import browser, contexts, server, shot  # noqa: F401 - fixtures

pytestmark = pytest.mark.system

SIZES = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
    "small": {"width": 320, "height": 568},
}
PLAYERS = {"block": 2, "draw": 4, "super_dominoes": 4, "doubles": 4, "double_double": 2}

# the boxes, in page pixels, of what is drawn on the felt and of what lies over it
BOXES = """() => {
  const r = (el) => {
    const b = el.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  const felt = document.querySelector('.table-page .felt');
  const drawn = [...felt.querySelectorAll('.table-svg .tile .tile-body, .table-svg .end .end-box,'
    + ' .table-svg .board-bg, .table-svg .track')].map(r);
  const over = [...felt.querySelectorAll(
    '.zoom-controls button, .felt-info .chip, .effects .effect')]
    .filter((el) => el.getBoundingClientRect().width > 0).map((el) => [el.className, r(el)]);
  return { felt: r(felt), drawn, over };
}"""


def _inside(box: list[float], outer: list[float], slack: float = 1.0) -> bool:
    return (
        box[0] >= outer[0] - slack
        and box[1] >= outer[1] - slack
        and box[2] <= outer[2] + slack
        and box[3] <= outer[3] + slack
    )


def _meet(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _settled(page: Any) -> Any:
    """The boxes once the table has stopped moving: the effects of the last moves fade, and a
    busy machine may draw a late frame (a refolded scene, a resized felt) after "Fit"."""
    page.wait_for_timeout(700)
    got = page.evaluate(BOXES)
    for _ in range(20):
        page.wait_for_timeout(250)
        again = page.evaluate(BOXES)
        if again == got:
            break
        got = again
    return got


@pytest.mark.browser
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(PLAYERS))
def test_the_whole_table_fits_the_felt_and_nothing_covers_it(
    contexts: Any,  # noqa: F811 - the fixture
    server: str,  # noqa: F811 - the fixture
    game: str,
    size: str,
) -> None:
    page = contexts(SIZES[size]).page()
    page.goto(server + "/")
    body = {"game": game, "seats": ["greedy"] * PLAYERS[game]}
    made = page.request.post(
        f"{server}/api/tables", data=json.dumps(body), headers={"Content-Type": "application/json"}
    )
    assert made.ok, made.text()
    page.goto(f"{server}/t/{made.json()['id']}")
    # the bots play the hand out while someone watches; then the table behind the result
    page.wait_for_selector(".result-card", timeout=90_000)
    page.get_by_role("button", name="See the table").click()
    page.get_by_role("button", name="Fit the table").click()
    got = _settled(page)
    shot(page, f"fit-{game}-{size}")
    felt, drawn, over = got["felt"], got["drawn"], got["over"]
    assert len(drawn) > 3, "nothing drawn on the felt"
    outside = [b for b in drawn if not _inside(b, felt)]
    assert outside == [], f"{len(outside)} of {len(drawn)} leave the felt {felt}: {outside[:3]}"
    covered = [(name, b) for name, o in over for b in drawn if _meet(o, b)]
    assert covered == [], f"covered: {covered[:3]}"
