"""What a new player meets in their first hour at the web table (issue 47), each checked in
chromium against a real server: on a phone the table gets most of the screen and everything
on it can be tapped late in a hand of the two largest games; a table ended against bots reads
as closed, also after a reload; leaving says so calmly and the log keeps the names the moves
were made under; chat that came while the panel was shut shows as a count; no text is cut on
small screens; a blocked hand nobody won shows the pips that tied it. Screenshots go to
``/tmp/bonepile-screens/``."""

from __future__ import annotations

from typing import Any

import pytest

from test_browser import (  # noqa: F401 - fixtures
    DESKTOP,
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

PHONES = {"phone": {"width": 390, "height": 844}, "small": {"width": 320, "height": 568}}
TAP = 24  # WCAG 2.2's least target size (2.5.8), in CSS pixels
PLAYERS = {"super_dominoes": 4, "double_double": 2}
LATE = {"super_dominoes": 18, "double_double": 14}  # tiles on the table late in a hand

# every banner that shows: its text, whether it lies over the felt, whether it is cut
EFFECTS_SPY = """
window.__effects = [];
new MutationObserver((changes) => {
  for (const change of changes) {
    for (const el of change.addedNodes) {
      if (!(el instanceof HTMLElement) || !el.classList.contains('effect')) continue;
      setTimeout(() => {
        if (!el.isConnected) return;
        const felt = document.querySelector('.table-page .felt').getBoundingClientRect();
        const b = el.getBoundingClientRect();
        const over = b.left < felt.right && felt.left < b.right && b.top < felt.bottom
          && felt.top < b.bottom;
        const cut = el.scrollWidth > el.clientWidth + 1 || b.left < -0.5
          || b.right > innerWidth + 0.5;
        window.__effects.push({ text: el.textContent, over, cut });
      }, 350);
    }
  }
}).observe(document, { childList: true, subtree: true });
"""

# the sizes a person meets at the table, in CSS pixels
MEASURE = """() => {
  const r = (el) => el.getBoundingClientRect();
  const felt = r(document.querySelector('.table-page .felt'));
  const size = (el) => { const b = r(el); return [Math.round(b.width * 10) / 10,
    Math.round(b.height * 10) / 10]; };
  const hand = [...document.querySelectorAll('.hand-tile')];
  const targets = [...document.querySelectorAll('.end.target .end-box, .cell-target')];
  const inFelt = targets.filter((el) => { const b = r(el); return b.right > felt.left
    && b.left < felt.right && b.bottom > felt.top && b.top < felt.bottom; });
  const heights = (sel) => [...document.querySelectorAll(sel)].map((el) => r(el).height);
  const box = document.querySelector('.hand');
  return {
    felt: [felt.width, felt.height],
    hand: hand.map(size),
    handRows: new Set(hand.map((el) => el.offsetTop)).size,
    handScrollsDown: box.scrollHeight > box.clientHeight + 1,
    targets: targets.map(size),
    targetsInView: inFelt.length,
    ends: heights('.end:not(.lead-target) .end-value'),
    coords: heights('.table-svg .coord'),
    diamonds: heights('.table-svg .diamond text'),
    facts: r(document.querySelector('.felt-info')).height,
    tiles: document.querySelectorAll('.layer-tiles .tile').length,
  };
}"""


def _table(page: Any, server: str, body: dict[str, Any]) -> str:  # noqa: F811
    page.goto(server + "/")
    made = new_table_via_api(page, server, body)
    page.goto(f"{server}/t/{made['id']}")
    return str(made["id"])


def _played(page: Any) -> None:
    page.wait_for_function("() => !document.querySelector('.hand-tile.playing')", timeout=PATIENCE)


def _late_in_a_hand(page: Any, server: str, game: str) -> bool:  # noqa: F811
    """Play a hand of ``game`` against greedy bots until many tiles are down and it is our
    turn with a tile to place; False if the hands dealt ended too soon."""
    for _ in range(3):
        _table(page, server, {"game": game, "seats": ["me"] + ["greedy"] * (PLAYERS[game] - 1)})
        for _ in range(60):
            state = page.wait_for_function(WAIT_TURN, timeout=PATIENCE).json_value()
            if state == "over":
                break
            late = page.locator(".layer-tiles .tile").count() >= LATE[game]
            if late and page.locator(".hand-tile.legal").count():
                return True
            play_one(page)
            _played(page)
    return False


@pytest.mark.browser
@pytest.mark.parametrize("size", list(PHONES))
@pytest.mark.parametrize("game", list(PLAYERS))
def test_a_phone_late_in_a_hand_gives_the_table_the_screen_and_every_target_a_finger(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
    game: str,
    size: str,
) -> None:
    w = contexts(PHONES[size])
    w.context.add_init_script(EFFECTS_SPY)
    page = w.page()
    if not _late_in_a_hand(page, server, game):
        pytest.skip("three deals in a row ended before many tiles were down")
    page.locator(".hand-tile.legal").first.click()
    page.wait_for_selector(".end.target, .cell-target.target", timeout=PATIENCE)
    page.wait_for_timeout(500)  # the view pans to the places the tile may go
    got = page.evaluate(MEASURE)
    shot(page, f"first-hour-{game}-{size}")
    vw, vh = PHONES[size]["width"], PHONES[size]["height"]
    # the felt is the screen's widest and tallest part
    assert got["felt"][0] >= vw - 20 and got["felt"][1] >= 0.45 * vh, got["felt"]
    # the facts about the table take one row of it
    assert got["facts"] <= 32, got["facts"]
    # the hand: one row, scrolling sideways if it must, never down
    assert got["handRows"] == 1 and not got["handScrollsDown"], got
    # every tap target is at least 24 px across and down at the default zoom
    smallest = min(min(s) for s in got["hand"] + got["targets"])
    assert got["targets"] and smallest >= TAP, (smallest, got["hand"], got["targets"])
    # and the places the picked tile may go are in view
    assert got["targetsInView"] >= 1, got
    # the numbers on the table read at a size a phone can show
    if game == "double_double":
        assert min(got["coords"]) >= 11 and min(got["diamonds"]) >= 9, got
    else:
        assert got["ends"] and min(got["ends"]) >= 11, got["ends"]
    # the banners of what moves did never lay over the table, and show whole
    effects = page.evaluate("() => window.__effects")
    assert [e for e in effects if e["over"] or e["cut"]] == [], effects


# ---------------------------------------------------------------------------- a closed table
CLOSED = """() => ({
  status: document.querySelector('.status-text').innerText,
  conn: document.querySelector('.conn').innerText,
  tiles: document.querySelectorAll('.hand-tile').length,
  hand: (document.querySelector('.hand-empty') || {}).innerText || '',
  links: [...document.querySelectorAll('.closed-card a')].map((a) => a.getAttribute('href')),
  title: document.title,
  turn: !!document.querySelector('.status-row.my-turn'),
})"""


@pytest.mark.browser
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_table_ended_against_bots_reads_as_closed_even_after_a_reload(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
    size: str,
) -> None:
    page = contexts(PHONES.get(size, DESKTOP)).page()
    page.on("dialog", lambda d: d.accept())
    _table(page, server, {"game": "block", "seats": ["me", "random", "random"]})
    if play_one(page) == "over":
        pytest.skip("the deal ended before our first move")
    _played(page)
    page.click("summary[aria-label='Table menu']")
    page.click("[data-action=end-table]")
    page.wait_for_selector(".closed-card", timeout=PATIENCE)
    for when in ("ended", "reloaded"):
        got = page.evaluate(CLOSED)
        assert "closed" in got["status"].lower() and "you ended it" in got["status"].lower(), got
        assert got["conn"].strip() == "closed", got
        assert got["tiles"] == 0 and "closed" in got["hand"].lower(), got
        assert "/new" in got["links"] and "/" in got["links"], got
        assert not got["turn"] and "Your turn" not in got["title"], got
        shot(page, f"first-hour-closed-{when}-{size}")
        page.reload()
        page.wait_for_selector(".closed-card", timeout=PATIENCE)
        page.wait_for_function(
            "() => document.querySelector('.conn').innerText.trim() === 'closed'",
            timeout=PATIENCE,
        )
    page.get_by_role("link", name="New table").click()
    page.wait_for_selector("form.new-form", timeout=PATIENCE)


# ---------------------------------------------------------------------------- leaving
@pytest.mark.browser
def test_leaving_is_told_calmly_and_the_log_keeps_the_name_of_the_moves_made(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    page = contexts(DESKTOP).page()
    page.on("dialog", lambda d: d.accept())
    _table(page, server, {"game": "block", "seats": ["me", "random", "random"], "name": "Ann"})
    mine = 0
    for _ in range(2):
        if play_one(page) == "over":
            pytest.skip("the deal ended too soon")
        _played(page)
        mine += 1
    page.click("summary[aria-label='Table menu']")
    page.click("[data-action=leave]")
    page.wait_for_selector(".toast >> text=You left the table", timeout=PATIENCE)
    assert page.locator(".toast-error").count() == 0
    page.wait_for_selector(".me-card .watching", timeout=PATIENCE)
    log = page.locator(".log-list").inner_text()
    shot(page, "first-hour-left")
    # the moves Ann made before she left are hers; the bot's since are "Ann (left)"
    lines = log.split("\n")
    hers = [k for k, line in enumerate(lines) if line.startswith("Ann ") and "(left)" not in line]
    bots = [k for k, line in enumerate(lines) if line.startswith("Ann (left)")]
    assert len(hers) == mine, log
    assert all(k > max(hers) for k in bots), log
    assert "Ann (left)" in page.locator(".seat-card[data-seat='0']").inner_text()


# ---------------------------------------------------------------------------- unread chat
@pytest.mark.browser
def test_a_phone_counts_the_chat_that_came_while_the_panel_was_shut(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    phone = contexts(PHONES["phone"]).page()
    table = _table(phone, server, {"game": "block", "seats": ["me", "greedy"]})
    phone.wait_for_selector(".me-card .seat-card.mine", timeout=PATIENCE)
    badge = phone.locator(".panel-toggle .unread-badge")
    assert badge.is_hidden()
    friend = contexts(DESKTOP).page()
    friend.goto(f"{server}/t/{table}")
    friend.wait_for_selector(".watching", timeout=PATIENCE)
    friend.click(".tab >> text=Chat")
    for text in ("hello there", "nice lead"):
        friend.fill(".chat-form input", text)
        friend.click(".chat-form button[type=submit]")
    phone.wait_for_function(
        "() => { const b = document.querySelector('.panel-toggle .unread-badge');"
        " return b && !b.hidden && b.innerText.startsWith('2'); }",
        timeout=PATIENCE,
    )
    shot(phone, "first-hour-unread")
    phone.click(".panel-toggle")
    # the panel opens on the chat, and the messages count as read
    phone.wait_for_selector(".pane-chat:not([hidden]) >> text=nice lead", timeout=PATIENCE)
    assert badge.is_hidden()
    phone.reload()
    phone.wait_for_selector(".me-card .seat-card.mine", timeout=PATIENCE)
    phone.wait_for_timeout(500)
    assert phone.locator(".panel-toggle .unread-badge").is_hidden()


# ---------------------------------------------------------------------------- whole text
CUT = """() => {
  const sel = '.seat-card .name-base, .seat-card .name-tail, .seat-card .tag, .status-text,'
    + ' .status-actions .btn, .conn-text, h1.game-title, .hand-info, .effect, .panel-toggle,'
    + ' .actions .btn';
  return [...document.querySelectorAll(sel)].filter((el) => el.getClientRects().length)
    .filter((el) => {
      const b = el.getBoundingClientRect();
      return el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
        || b.left < -0.5 || b.right > innerWidth + 0.5;
    }).map((el) => `${el.className}: ${el.innerText}`);
}"""


@pytest.mark.browser
@pytest.mark.parametrize("size", list(PHONES))
def test_no_text_is_cut_on_a_phone(contexts: Any, server: str, size: str) -> None:  # noqa: F811
    w = contexts(PHONES[size])
    page = w.page()
    body = {
        "game": "super_dominoes",
        "seats": ["me", "random", "random", "random"],
        "clock_minutes": 0.15,  # 9 s: the time runs out soon
        "clock_increment": 0,
    }
    _table(page, server, body)
    page.wait_for_selector(".seats-row .seat-card", timeout=PATIENCE)
    page.wait_for_timeout(500)
    assert page.evaluate(CUT) == []
    # the player's time runs out: a bot plays their seat, and the card says so whole
    page.wait_for_selector(".me-card .tag-away", timeout=120_000)
    page.wait_for_timeout(400)
    assert page.evaluate(CUT) == []
    shot(page, f"first-hour-text-{size}")
    # offline: the top bar says so, inside the screen
    w.context.set_offline(True)
    page.wait_for_selector(".conn[data-state=offline]", timeout=PATIENCE)
    assert page.evaluate(CUT) == []
    assert page.locator(".conn-text").inner_text() == "offline"
    shot(page, f"first-hour-offline-{size}")
    w.context.set_offline(False)
    page.wait_for_selector(".conn[data-state=online]", timeout=PATIENCE)
    # the longest game's name shows whole in the top bar
    _table(page, server, {"game": "double_double", "seats": ["me", "greedy"]})
    page.wait_for_selector(".me-card .seat-card", timeout=PATIENCE)
    page.wait_for_timeout(500)
    assert page.locator("h1.game-title").inner_text() == "Double Double Dominoes"
    assert page.evaluate(CUT) == []


@pytest.mark.browser
def test_the_result_of_a_hand_fits_a_small_phone(contexts: Any, server: str) -> None:  # noqa: F811
    page = contexts(PHONES["small"]).page()
    _table(page, server, {"game": "super_dominoes", "seats": ["greedy"] * 4})
    page.wait_for_selector(".result-card", timeout=120_000)
    page.wait_for_timeout(500)
    got = page.evaluate(
        "() => { const t = document.querySelector('.result-table');"
        " const c = document.querySelector('.result-card').getBoundingClientRect();"
        " return { wide: t.scrollWidth, room: t.clientWidth, left: c.left, right: c.right,"
        " card: document.querySelector('.result-card').clientWidth }; }"
    )
    shot(page, "first-hour-result-small")
    assert got["left"] >= 0 and got["right"] <= PHONES["small"]["width"], got
    assert got["wide"] <= got["room"] + 1 and got["room"] <= got["card"], got
    assert page.evaluate(CUT) == []


# ---------------------------------------------------------------------------- a blocked tie
TIED = """async () => {
  const { resultCard } = await import('/static/outcome.js');
  const names = ['You', 'Greedy bot 2', 'Greedy bot 3'];
  const state = {
    table: 'tied', hand_number: 1, players: 3, you: 0, match: false, match_over: false,
    status: 'over', rated: false, totals: [0, 0, 0], winners: [],
    seats: names.map((name) => ({ name, kind: 'bot' })),
    view: { result: { reason: 'blocked', winners: [], points: [0, 0, 0] },
            revealed: [['6-4', '2-0'], ['5-5', '1-1'], ['6-6', '3-0']] },
  };
  const card = resultCard(state, { name: (k) => names[k], seated: true, board: false,
    replayId: 'tied-1', onNext() {}, onRematch() {}, onHide() {} });
  document.body.append(card);
  return { line: card.querySelector('.result-line').innerText,
           heads: [...card.querySelectorAll('th')].map((th) => th.innerText),
           pips: [...card.querySelectorAll('td.pips-left')].map((td) => td.innerText) };
}"""


@pytest.mark.browser
def test_a_blocked_hand_nobody_won_shows_the_pips_that_tied_it(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    page = contexts(DESKTOP).page()
    page.goto(server + "/")
    got = page.evaluate(TIED)
    assert got["line"] == "Blocked, no winner: pips left You 12, Greedy bot 2 12, Greedy bot 3 15"
    assert any(h.lower() == "pips left" for h in got["heads"]), got
    assert got["pips"] == ["12", "12", "15"], got
