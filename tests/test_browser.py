"""The browser client, end to end: a real server (``bonepile serve``) and Chromium (Playwright).

Each of the five games is set up through the "New table" page and played to the end by
clicking legal moves; two people play at one table from two browsers (one phone-sized);
a spectator sees no hand; a reload and a dropped connection keep the seat and a move made
offline arrives once; the replay page steps both ways and shows the bot's analysis; no page
ever logs an error, and the table page never scrolls. Screenshots go to
``/tmp/bonepile-screens/`` (never into the repository).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("fastapi")

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from bonepile.games import all_games
from live_server import running_server

pytestmark = pytest.mark.system

CHROMIUM = "/usr/bin/chromium"
SCREENS = Path("/tmp/bonepile-screens")
DESKTOP = {"width": 1366, "height": 768}
# how long a wait for the page may take: CI machines are shared and busy (15 s waits failed)
PATIENCE = 60_000
PHONE = {"width": 390, "height": 844}
TILE_TEXT = re.compile(r"^\d{1,2}-\d{1,2}$")


# ---------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("data")) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed at /usr/bin/chromium (make test installs it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


class Watched:
    """A browser context whose pages report console errors and uncaught exceptions."""

    def __init__(self, browser: Browser, viewport: dict[str, int]) -> None:
        self.context: BrowserContext = browser.new_context(viewport=viewport)
        self.errors: list[str] = []

    def page(self) -> Page:
        page = self.context.new_page()
        page.on(
            "console",
            lambda m: (
                self.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None
            ),
        )
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        return page

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[Any]:
    """Make watched contexts; at the end every one must be free of errors."""
    made: list[Watched] = []

    def make(viewport: dict[str, int] = DESKTOP) -> Watched:
        w = Watched(browser, viewport)
        made.append(w)
        return w

    yield make
    errors = [e for w in made for e in w.errors]
    for w in made:
        w.close()
    assert errors == [], errors


# ---------------------------------------------------------------------------- helpers
def shot(page: Page, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(600)  # a tile just played drops in for 0.45 s: show it landed
    page.screenshot(path=str(SCREENS / f"{name}.png"))


def new_table_via_form(page: Page, base: str, game: str, seats: list[str], name: str = "") -> str:
    """Set up a table on /new (game, two or more seats) and return its id."""
    page.goto(f"{base}/new?game={game}")
    page.wait_for_selector("form.new-form")
    page.select_option("#game", game)
    page.select_option("#players", str(len(seats)))
    for k, spec in enumerate(seats):
        page.select_option(f"select[data-seat='{k}']", spec)
    if name:
        page.fill("#name", name)
    page.click("[data-action=create]")
    page.wait_for_url(re.compile(r".*/t/[A-Za-z0-9_-]+$"))
    page.wait_for_selector(".hand-tile, .overlay .card", timeout=PATIENCE)
    return page.url.rsplit("/", 1)[1]


def new_table_via_api(page: Page, base: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST /api/tables with the page's cookies (the creator's browser)."""
    got = page.request.post(
        f"{base}/api/tables", data=json.dumps(body), headers={"Content-Type": "application/json"}
    )
    assert got.ok, got.text()
    data: dict[str, Any] = got.json()
    return data


WAIT_TURN = """() => {
  if (document.querySelector('.result-card')) return 'over';
  const row = document.querySelector('.status-row.my-turn');
  if (!row) return false;
  if (document.querySelector('.hand-tile.playing')) return false;
  const legal = document.querySelector('.hand-tile.legal');
  const button = document.querySelector('.actions button:not([disabled])');
  if (legal || button) return 'turn';
  return false;
}"""


def _click_uncovered(targets: Any) -> None:
    """Click the first target no other element covers: two open ends of a crowded Doubles
    tree can lie over each other, and a person then taps the one on top, as we do here."""
    for i in range(targets.count()):
        t = targets.nth(i)
        try:
            t.click(trial=True, timeout=1500)
        except Exception:
            continue
        t.click()
        return
    targets.first.dispatch_event("click")


def play_one(page: Page) -> str:
    """Wait for our turn (or the end) and make one legal move by clicking. Returns what it did."""
    state = page.wait_for_function(WAIT_TURN, timeout=30000).json_value()
    if state == "over":
        return "over"
    legal = page.locator(".hand-tile.legal")
    buttons = page.locator(".actions button:not([disabled])")
    placing = legal.count() > 0
    if placing:
        legal.first.click()
        target = page.locator(".end.target, .cell-target.target")
        if target.count() == 0:
            # a discard: the tile is picked, the button plays it
            discard = page.locator(".actions [data-action=discard]:not([disabled])")
            discard.first.click()
            return "discard"
        _click_uncovered(target)
        partner = page.locator(".cell-target.partner")
        if partner.count():
            partner.first.click()
            chooser = page.locator(".chooser:not([hidden]) .chooser-option")
            if chooser.count():
                chooser.first.click()
        return "place"
    for kind in ("draw", "pass", "stop", "discard"):
        b = page.locator(f".actions [data-action={kind}]:not([disabled])")
        if b.count():
            b.first.click()
            return kind
    if buttons.count():
        buttons.first.click()
        return "button"
    return "nothing"


def play_hand(page: Page, screenshot: str | None = None, limit: int = 200) -> int:
    """Play until the result shows; a screenshot after a few moves. Returns our moves."""
    moves = 0
    for _ in range(limit):
        did = play_one(page)
        if did == "over":
            break
        moves += 1
        if moves == 4 and screenshot:
            page.wait_for_timeout(300)
            shot(page, screenshot)
        # the move is on its way: wait until it is acknowledged (no tile pending)
        page.wait_for_function(
            "() => !document.querySelector('.hand-tile.playing')", timeout=PATIENCE
        )
    else:
        raise AssertionError("the hand did not end")
    page.wait_for_selector(".result-card", timeout=30000)
    return moves


def a_finished_block_hand(contexts: Any, server: str) -> tuple[Page, dict[str, Any]]:
    """A desktop page that played a hand of block against the greedy bot to its end, and the
    table it made."""
    page = contexts(DESKTOP).page()
    page.goto(server + "/")
    made = new_table_via_api(
        page, server, {"game": "block", "seats": ["me", "greedy"], "options": {}, "match": False}
    )
    page.goto(f"{server}/t/{made['id']}")
    play_hand(page)
    return page, made


def no_scroll(page: Page) -> None:
    fits = page.evaluate(
        "() => document.scrollingElement.scrollHeight <= window.innerHeight"
        " && document.scrollingElement.scrollWidth <= window.innerWidth"
    )
    assert fits, page.evaluate(
        "() => [document.scrollingElement.scrollHeight, window.innerHeight,"
        " document.scrollingElement.scrollWidth, window.innerWidth]"
    )


def hand_faces(page: Page) -> list[str]:
    tiles: list[str] = page.eval_on_selector_all(
        ".hand-tile", "els => els.map(e => e.dataset.tile)"
    )
    return tiles


def all_tile_labels(page: Page) -> list[str]:
    """Every tile face the page shows (hand, table, results): their accessible labels."""
    labels: list[str] = page.eval_on_selector_all(
        "[aria-label]", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    return labels


# ---------------------------------------------------------------------------- tests
@pytest.mark.browser
@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("super_dominoes", ["me", "greedy", "greedy"]),
        ("doubles", ["me", "greedy"]),
        ("double_double", ["me", "greedy"]),
        ("block", ["me", "greedy"]),
        ("draw", ["me", "greedy"]),
    ],
)
def test_play_a_whole_hand(contexts: Any, server: str, game: str, seats: list[str]) -> None:
    w = contexts(DESKTOP)
    page = w.page()
    new_table_via_form(page, server, game, seats, name="Ana")
    no_scroll(page)
    moves = play_hand(page, screenshot=game)
    assert moves > 0
    card = page.locator(".result-card")
    assert card.is_visible()
    # every hand is revealed on the result card (at least the table shows the players)
    assert page.locator(".result-table tbody tr").count() == len(seats)
    shot(page, f"{game}-result")
    no_scroll(page)
    assert page.locator("[data-action=rematch]").count() == 1


@pytest.mark.browser
def test_two_players_and_a_spectator(contexts: Any, server: str) -> None:
    host_ctx = contexts(DESKTOP)
    host = host_ctx.page()
    host.goto(server + "/")
    made = new_table_via_api(
        host,
        server,
        {"game": "block", "seats": ["me", "open"], "options": {}, "match": False, "name": "Host"},
    )
    table = made["id"]
    host.goto(f"{server}/t/{table}")
    host.wait_for_selector(".waiting-card")
    invite = host.locator(".invite input").input_value()
    assert invite.endswith(f"/t/{table}")

    guest_ctx = contexts(PHONE)
    guest = guest_ctx.page()
    guest.goto(invite)
    guest.wait_for_selector(".waiting-card [data-action=sit]")
    guest.fill(".waiting-card input[name=name]", "Guest")
    guest.click(".waiting-card [data-action=sit]")
    guest.wait_for_selector(".hand-tile", timeout=PATIENCE)
    host.wait_for_function("() => !document.querySelector('.waiting-card')", timeout=PATIENCE)
    no_scroll(guest)
    no_scroll(host)

    watcher_ctx = contexts(DESKTOP)
    watcher = watcher_ctx.page()
    watcher.goto(f"{server}/t/{table}")
    watcher.wait_for_selector(".watching", timeout=PATIENCE)

    # each sees only their own hand: no other tile face anywhere in the page
    host_tiles = set(hand_faces(host))
    guest_tiles = set(hand_faces(guest))
    assert host_tiles and guest_tiles and not host_tiles & guest_tiles
    assert not set(all_tile_labels(host)) & guest_tiles
    assert not set(all_tile_labels(guest)) & host_tiles
    assert hand_faces(watcher) == []
    assert not set(all_tile_labels(watcher)) & (host_tiles | guest_tiles)
    shot(guest, "two-players-phone")

    # play a few moves each way: both see every move (the table grows on both screens)
    pages = [host, guest]
    for _ in range(4):
        for p in pages:
            if p.locator(".result-card").count():
                break
            if p.evaluate("() => !!document.querySelector('.status-row.my-turn')"):
                other = guest if p is host else host
                before = other.locator(".log-turn").count()
                play_one(p)
                # the other player sees the move (a tile, or a pass) in the log
                other.wait_for_function(
                    f"() => document.querySelectorAll('.log-turn').length > {before}"
                    " || !!document.querySelector('.result-card')",
                    timeout=PATIENCE,
                )
        host.wait_for_timeout(200)
    host.wait_for_timeout(500)
    counts = {p.locator(".layer-tiles .tile").count() for p in (host, guest, watcher)}
    assert len(counts) == 1 and counts.pop() > 0
    # mid-hand (or at its end, where hands are revealed to all) the spectator sees no hand
    if not watcher.locator(".result-card").count():
        assert hand_faces(watcher) == []
        assert not set(all_tile_labels(watcher)) & set(hand_faces(host))
    # chat reaches the other player as text
    host.click(".tab >> text=Chat")
    host.fill(".chat-form input", "<b>hi</b> there")
    host.press(".chat-form input", "Enter")
    guest.click(".panel-toggle")
    guest.click(".tab >> text=Chat")
    guest.wait_for_selector(".chat-text >> text=<b>hi</b> there", timeout=PATIENCE)
    assert guest.locator(".chat-text b").count() == 0


@pytest.mark.browser
def test_spectator_sees_no_hand(contexts: Any, server: str) -> None:
    player_ctx = contexts(DESKTOP)
    player = player_ctx.page()
    player.goto(server + "/")
    made = new_table_via_api(
        player,
        server,
        {
            "game": "super_dominoes",
            "seats": ["me", "greedy", "greedy"],
            "options": {},
            "match": False,
        },
    )
    player.goto(f"{server}/t/{made['id']}")
    player.wait_for_function(WAIT_TURN, timeout=30000)
    mine = set(hand_faces(player))
    assert mine

    watcher_ctx = contexts(PHONE)
    watcher = watcher_ctx.page()
    watcher.goto(f"{server}/t/{made['id']}")
    watcher.wait_for_selector(".watching", timeout=PATIENCE)
    watcher.wait_for_selector(".seat-card", timeout=PATIENCE)
    no_scroll(watcher)
    assert hand_faces(watcher) == []
    assert watcher.locator(".status-row.my-turn").count() == 0
    assert not set(all_tile_labels(watcher)) & mine
    # the spectator sees the player's move arrive
    before = watcher.locator(".layer-tiles .tile").count()
    did = play_one(player)
    if did in ("place", "draw", "pass"):
        player.wait_for_function(
            "() => !document.querySelector('.hand-tile.playing')", timeout=PATIENCE
        )
        if did == "place":
            watcher.wait_for_function(
                f"() => document.querySelectorAll('.layer-tiles .tile').length > {before}",
                timeout=PATIENCE,
            )
    if not watcher.locator(".result-card").count():
        assert hand_faces(watcher) == []
        assert not set(all_tile_labels(watcher)) & set(hand_faces(player))
    shot(watcher, "spectator-phone")


@pytest.mark.browser
def test_reload_and_dropped_connection_keep_the_seat(contexts: Any, server: str) -> None:
    w = contexts(DESKTOP)
    page = w.page()
    # count the sockets the page opens, to close one on purpose
    page.add_init_script(
        """
        window.__sockets = [];
        const Native = window.WebSocket;
        window.WebSocket = class extends Native {
          constructor(...args) { super(...args); window.__sockets.push(this); }
        };
        """
    )
    page.goto(server + "/")
    made = new_table_via_api(
        page,
        server,
        {"game": "draw", "seats": ["me", "greedy"], "options": {}, "match": False, "name": "Rita"},
    )
    table = made["id"]
    page.goto(f"{server}/t/{table}")
    page.wait_for_selector(".me-card .seat-card.mine")
    first = hand_faces(page)
    page.reload()
    page.wait_for_selector(".me-card .seat-card.mine")
    assert hand_faces(page) == first
    assert page.evaluate(f"() => localStorage.getItem('bonepile:token:{table}')")

    # a move made while the connection is down is delivered once it is back
    page.wait_for_function(WAIT_TURN, timeout=30000)
    while page.locator(".hand-tile.legal").count() == 0:
        play_one(page)
        page.wait_for_function(
            "() => !document.querySelector('.hand-tile.playing')", timeout=PATIENCE
        )
        page.wait_for_function(WAIT_TURN, timeout=30000)
        if page.locator(".result-card").count():
            pytest.skip("the hand ended before a tile could be played")
    played = (
        "() => [...document.querySelectorAll('.log-turn')]"
        ".filter(li => /^You (play|lead)/.test(li.textContent)).length"
    )
    before_played = page.evaluate(played)
    w.context.set_offline(True)
    page.evaluate("() => window.__sockets.forEach(s => s.close())")
    page.wait_for_selector(
        ".conn[data-state=offline], .conn[data-state=connecting]", timeout=PATIENCE
    )
    page.locator(".hand-tile.legal").first.click()
    page.locator(".end.target").first.click()
    page.wait_for_selector(".hand-tile.playing")
    assert "connection" in page.locator(".status-text").inner_text()
    page.wait_for_timeout(500)
    assert page.evaluate(played) == before_played
    w.context.set_offline(False)
    page.wait_for_selector(".conn[data-state=online]", timeout=PATIENCE)
    page.wait_for_function("() => !document.querySelector('.hand-tile.playing')", timeout=PATIENCE)
    page.wait_for_timeout(800)
    # delivered, and only once
    assert page.evaluate(played) == before_played + 1
    # still in the seat after all this
    page.reload()
    page.wait_for_selector(".me-card .seat-card.mine")
    assert page.evaluate(played) == before_played + 1
    assert page.locator(".me-card .seat-card.mine").count() == 1


@pytest.mark.browser
def test_replay_steps_and_analysis(contexts: Any, server: str) -> None:
    # about one deal in a hundred is blocked at once (a double led that nobody can follow):
    # such a hand has no steps to walk through, so play another
    for _ in range(3):
        page, made = a_finished_block_hand(contexts, server)
        page.click(".result-card >> text=Replay this hand")
        page.wait_for_selector(".replay-slider")
        slider = page.locator(".replay-slider")
        last = int(slider.get_attribute("max") or "0")
        if last > 2:
            break
    else:
        raise AssertionError("three hands in a row ended within two moves")
    counter = page.locator(".replay-counter")
    assert counter.inner_text().startswith("0 /")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert counter.inner_text().startswith("2 /")
    tiles_at_2 = page.locator(".layer-tiles .tile").count()
    page.keyboard.press("ArrowLeft")
    assert counter.inner_text().startswith("1 /")
    assert page.locator(".layer-tiles .tile").count() <= tiles_at_2
    page.click("[data-action=forward]")
    page.click("[data-action=back]")
    assert counter.inner_text().startswith("1 /")
    slider.fill(str(last))
    assert counter.inner_text().startswith(f"{last} /")
    assert page.locator(".turn-result").count() == 1
    # every hand is shown on a replay
    assert page.locator(".replay-hand").count() == 2
    slider.fill("1")
    assert counter.inner_text().startswith("1 /")
    assert "ply=1" in page.url
    # the bot's view of a position with a choice: each legal move with a bar
    for ply in range(1, last):
        slider.fill(str(ply))
        page.click("[data-action=analyse]")
        # analyses run in the idle scheduling class, on CPU time nothing else wants: a busy
        # machine (the other test worker, a job beside the suite) makes them wait
        page.wait_for_selector(".analysis-move", timeout=PATIENCE)
        if page.locator(".analysis-move .bar-fill").count() >= 2:
            break
    else:
        raise AssertionError("no position with a choice in this hand")
    assert page.locator(".analysis-move .analysis-label").first.inner_text()
    shot(page, "replay")
    # the list of replays links here
    page.goto(server + "/replays")
    page.wait_for_selector(f".replay-row[href='/replay/{made['id']}-1']")


@pytest.mark.browser
def test_front_page_rules_and_lobby(contexts: Any, server: str) -> None:
    w = contexts(PHONE)
    page = w.page()
    page.goto(server + "/")
    page.wait_for_selector(".game-card")
    shot(page, "front-phone")
    page.click(".game-card >> text=Rules >> nth=0")
    page.wait_for_selector(".rules-brief li")
    assert page.locator(".rules-full h2").count() > 2
    # an open table shows in the lobby, live
    other = w.page()
    other.goto(server + "/")
    made = new_table_via_api(
        other,
        server,
        {
            "game": "doubles",
            "seats": ["me", "open"],
            "options": {},
            "match": True,
            "name": "Lobbyist",
        },
    )
    page.goto(server + "/")
    page.wait_for_selector(f".lobby-row[data-table='{made['id']}']", timeout=PATIENCE)
    # the big button starts Super Dominoes against bots
    page.click("[data-action=play-bots]")
    page.wait_for_url(re.compile(r".*/t/[A-Za-z0-9_-]+$"))
    page.wait_for_selector(".me-card .seat-card.mine", timeout=PATIENCE)
    page.wait_for_timeout(500)
    no_scroll(page)
    shot(page, "super_dominoes-phone")
    # the hand is a row of focusable tiles named like "5-3"
    labels = page.eval_on_selector_all(".hand-tile", "els => els.map(e => e.dataset.tile)")
    assert labels and all(TILE_TEXT.match(t) for t in labels)


@pytest.mark.browser
def test_keyboard_play(contexts: Any, server: str) -> None:
    w = contexts(DESKTOP)
    page = w.page()
    page.goto(server + "/")
    made = new_table_via_api(
        page,
        server,
        {
            "game": "block",
            "seats": ["me", "greedy"],
            "options": {"lead": "seat0_any"},
            "match": False,
        },
    )
    page.goto(f"{server}/t/{made['id']}")
    page.wait_for_function(WAIT_TURN, timeout=30000)
    legal = page.eval_on_selector_all(
        ".hand-tile", "els => els.map(e => e.classList.contains('legal'))"
    )
    index = legal.index(True)
    page.keyboard.press(str(index + 1))
    page.wait_for_selector(".hand-tile.selected")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelectorAll('.layer-tiles .tile').length >= 1", timeout=PATIENCE
    )


SMALL_PHONE = {"width": 320, "height": 640}
"""The narrowest phone in common use (an iPhone SE); many Android phones are 360 wide."""


@pytest.mark.browser
def test_every_page_fits_a_small_phone_without_sideways_scrolling(
    contexts: Any, server: str
) -> None:
    """The front page, a new table's form, the replays, a replay, the rules of every game and
    a table read on a 320-pixel-wide screen with nothing wider than the screen (a replay's
    step buttons and a rules page's long option names once pushed the page sideways)."""
    _, made = a_finished_block_hand(contexts, server)
    small = contexts(SMALL_PHONE).page()
    paths = ["/", "/new", "/replays", f"/replay/{made['id']}-1", f"/t/{made['id']}"]
    paths += [f"/rules/{game.name}" for game in all_games()]
    wide = {}
    for path in paths:
        small.goto(server + path)
        small.wait_for_load_state("networkidle")
        small.wait_for_timeout(300)
        width = small.evaluate("() => document.scrollingElement.scrollWidth")
        if width > SMALL_PHONE["width"]:
            wide[path] = width
    assert wide == {}, wide
