"""What a tester playing every game on a desktop and a phone found, each checked in chromium
against a real server: the other seats fit a phone and stay apart, Double Double Dominoes labels
its squares and says what a track note means, keys reach every tile, the open ends' numbers read
against the felt, the tab tells you it is your turn (title, icon, sounds with a switch that is
kept, a notification once asked for), the new-table form speaks of what is chosen, the result
card says what its numbers are, and the table says how many watch. Screenshots go to
``/tmp/bonepile-screens/``."""

from __future__ import annotations

import re
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

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError
PHONES = {"phone": {"width": 390, "height": 844}, "small": {"width": 320, "height": 568}}
TURN_MARK = "● Your turn"

# a fake Notification that records what the page shows (the real permission is asked of the
# browser context), a tab that hides when the test says so, and an AudioContext that counts
# the notes it plays
SPY = """
window.__notes = [];
window.__hidden = false;
window.__oscillators = 0;
Object.defineProperty(Document.prototype, 'hidden', {
  configurable: true, get() { return !!window.__hidden; } });
Object.defineProperty(Document.prototype, 'visibilityState', {
  configurable: true, get() { return window.__hidden ? 'hidden' : 'visible'; } });
const RealNotification = window.Notification;
window.Notification = class {
  constructor(title, options) {
    window.__notes.push({ title, body: (options && options.body) || '' });
    this.title = title;
  }
  close() {}
  static get permission() { return RealNotification.permission; }
  static requestPermission() { return RealNotification.requestPermission(); }
};
window.__contexts = 0;
window.__audioErrors = [];
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  constructor(...args) {
    try { super(...args); } catch (e) { window.__audioErrors.push(String(e)); throw e; }
    window.__contexts += 1;
  }
  createOscillator() { window.__oscillators += 1; return super.createOscillator(); }
};
"""

# what the page knew when a sound was awaited in vain: enough to tell a move that never went
# through from a sound that was not played
SOUND_FACTS = """() => ({
  oscillators: window.__oscillators,
  contexts: window.__contexts,
  audioErrors: window.__audioErrors,
  activated: !!(navigator.userActivation && navigator.userActivation.hasBeenActive),
  soundSetting: localStorage.getItem('bonepile:sound'),
  title: document.title,
  status: (document.querySelector('.status-row') || {}).innerText || null,
  pending: !!document.querySelector('.hand-tile.playing'),
})"""


def _wait_for_a_sound(page: Any) -> None:
    """Wait for the page to play a note; if none comes, fail with what the page knew."""
    try:
        page.wait_for_function("() => window.__oscillators > 0", timeout=PATIENCE)
    except PlaywrightTimeout:
        raise AssertionError(f"no sound after a move: {page.evaluate(SOUND_FACTS)}") from None


def _hide(page: Any, hidden: bool) -> None:
    page.evaluate(
        "(h) => { window.__hidden = h; document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def _table(page: Any, server: str, body: dict[str, Any]) -> str:  # noqa: F811
    page.goto(server + "/")
    made = new_table_via_api(page, server, body)
    page.goto(f"{server}/t/{made['id']}")
    return str(made["id"])


# ---------------------------------------------------------------------------- 1. seat strip
SEAT_STRIP = """() => {
  const row = document.querySelector('.seats-row');
  const r = (el) => el.getBoundingClientRect();
  const cards = [...row.querySelectorAll('.seat-card')].map((card) => {
    const c = r(card);
    const score = card.querySelector('.score');
    const main = card.querySelector('.seat-main');
    const base = card.querySelector('.name-base') || card.querySelector('.name-text');
    return {
      left: c.left, right: c.right,
      name: card.querySelector('.seat-name').innerText.trim(),
      badge: card.querySelector('.seat-badge') ? card.querySelector('.seat-badge').innerText : '',
      baseCut: base.scrollWidth > base.clientWidth + 1,
      score: score ? {
        text: score.innerText, whole: score.scrollWidth <= score.clientWidth + 1,
        inside: r(score).right <= Math.min(r(main).right, c.right, innerWidth) + 0.5
          && r(score).left >= c.left - 0.5,
      } : null,
    };
  });
  return { scrollWidth: row.scrollWidth, clientWidth: row.clientWidth, width: innerWidth,
           page: document.scrollingElement.scrollWidth, cards };
}"""


@pytest.mark.browser
@pytest.mark.parametrize("size", list(PHONES))
def test_six_seats_fit_a_phone_apart_with_every_score_whole(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
    size: str,
) -> None:
    """Six bots of one kind watched on a phone: the strip is no wider than the screen, every
    seat shows a different name and its number, every score whole (at the end of the hand,
    where every seat has one)."""
    page = contexts(PHONES[size]).page()
    _table(page, server, {"game": "super_dominoes", "seats": ["greedy"] * 6})
    page.wait_for_selector(".result-card", timeout=90_000)
    page.get_by_role("button", name="See the table").click()
    page.wait_for_timeout(300)
    shot(page, f"polish-seats-six-{size}")
    got = page.evaluate(SEAT_STRIP)
    width = PHONES[size]["width"]
    assert got["scrollWidth"] <= got["clientWidth"] + 1 and got["clientWidth"] <= width, got
    assert got["page"] <= width, got
    cards = got["cards"]
    assert len(cards) == 6
    assert all(c["left"] >= -0.5 and c["right"] <= width + 0.5 for c in cards), cards
    names = [c["name"] for c in cards]
    assert len(set(names)) == 6, names
    assert sorted(c["badge"] for c in cards) == [str(k) for k in range(1, 7)]
    if size == "phone":
        assert not any(c["baseCut"] for c in cards), names
    scores = [c["score"] for c in cards]
    assert all(s is not None for s in scores), cards
    whole = [s["whole"] and s["inside"] and re.fullmatch(r"\d+ pts", s["text"]) for s in scores]
    assert all(whole), scores


# ---------------------------------------------------------------------------- 2. the board
COORDS = """() => {
  const felt = document.querySelector('.table-page .felt').getBoundingClientRect();
  const board = document.querySelector('.table-svg .board-bg').getBoundingClientRect();
  const labels = [...document.querySelectorAll('.table-svg .coord')].map((el) => {
    const b = el.getBoundingClientRect();
    return { text: el.textContent, h: b.height, inFelt: b.left >= felt.left && b.right <= felt.right
      && b.top >= felt.top && b.bottom <= felt.bottom,
      offBoard: b.right <= board.left + 1 || b.left >= board.right - 1
        || b.bottom <= board.top + 1 || b.top >= board.bottom - 1,
      fill: getComputedStyle(el).fill };
  });
  const felt1 = getComputedStyle(document.documentElement).getPropertyValue('--felt-1').trim();
  return { labels, felt1 };
}"""

CONTRAST = """
const parse = (c) => {
  c = c.trim();
  if (c.startsWith('#')) {
    const v = c.length === 4 ? c.slice(1).split('').map((x) => x + x).join('') : c.slice(1);
    return [0, 2, 4].map((i) => parseInt(v.slice(i, i + 2), 16)).concat([1]);
  }
  const m = c.match(/rgba?\\(([^)]+)\\)/);
  const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
};
const over = (fg, bg) => [0, 1, 2].map((i) => fg[i] * fg[3] + bg[i] * (1 - fg[3])).concat([1]);
const lum = (c) => {
  const ch = c.slice(0, 3).map((v) => v / 255).map((v) => (v <= 0.04045 ? v / 12.92
    : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
};
const ratio = (a, b) => {
  const x = lum(a), y = lum(b);
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
};
"""


@pytest.mark.browser
def test_the_board_names_its_squares_and_a_track_note_says_what_it_means(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    page = contexts(PHONES["phone"]).page()
    _table(page, server, {"game": "double_double", "seats": ["me", "greedy"]})
    page.wait_for_selector(".table-svg .coord", timeout=PATIENCE)
    got = page.evaluate(COORDS)
    texts = [lab["text"] for lab in got["labels"]]
    letters = [chr(ord("A") + c) for c in range(15)]
    numbers = [str(r) for r in range(1, 16)]
    assert sorted(texts) == sorted(letters * 2 + numbers * 2), texts
    # on the felt, beside the board (not over its squares), and readable on a phone
    bad = [lab for lab in got["labels"] if not (lab["inFelt"] and lab["offBoard"])]
    assert bad == [], bad
    assert min(lab["h"] for lab in got["labels"]) >= 9, [lab["h"] for lab in got["labels"]][:4]
    ratio = page.evaluate(
        "([fill, felt]) => {" + CONTRAST + "return ratio(parse(fill), parse(felt)); }",
        [got["labels"][0]["fill"], got["felt1"]],
    )
    assert ratio >= 4.5, ratio
    # a player's piece off the start: its card says in words what its track space gives
    for _ in range(40):
        if page.locator(".seat-card .track-note").count():
            break
        if play_one(page) == "over":
            break
        page.wait_for_function(
            "() => !document.querySelector('.hand-tile.playing')", timeout=PATIENCE
        )
    notes = page.locator(".seat-card .track-note")
    assert notes.count() > 0
    text = notes.first.inner_text()
    assert re.fullmatch(r"\+\d+ on \ds", text), text
    notes.first.click()
    page.wait_for_selector(".toast >> text=Track bonus", timeout=PATIENCE)
    shot(page, "polish-double-double-phone")


# ---------------------------------------------------------------------------- 3. keys
@pytest.mark.browser
def test_keys_reach_the_tenth_tile_and_beyond(contexts: Any, server: str) -> None:  # noqa: F811
    page = contexts(DESKTOP).page()
    body = {
        "game": "block",
        "seats": ["me", "greedy"],
        "options": {"hand_size": 12, "lead": "seat0_any"},
        "match": False,
    }
    _table(page, server, body)
    page.wait_for_function(WAIT_TURN, timeout=30_000)
    assert page.locator(".hand-tile").count() == 12
    page.keyboard.press("0")
    page.wait_for_selector(".hand-tile[data-index='9'].selected", timeout=PATIENCE)
    assert page.locator(".hand-tile.selected").count() == 1
    page.keyboard.press("Shift+Digit1")
    page.wait_for_selector(".hand-tile[data-index='10'].selected", timeout=PATIENCE)
    page.keyboard.press("Shift+Digit2")
    page.wait_for_selector(".hand-tile[data-index='11'].selected", timeout=PATIENCE)
    page.keyboard.press("3")
    page.wait_for_selector(".hand-tile[data-index='2'].selected", timeout=PATIENCE)
    assert page.locator(".hand-tile[data-index='9']").get_attribute("aria-keyshortcuts") == "0"
    # the keys are told: "?" shows them
    page.keyboard.press("?")
    help_box = page.locator(".keys-help")
    help_box.wait_for(state="visible")
    assert "10th" in help_box.inner_text() and "11th" in help_box.inner_text()
    shot(page, "polish-keys-desktop")
    page.keyboard.press("Escape")
    help_box.wait_for(state="hidden")


# ---------------------------------------------------------------------------- 4. contrast
ENDS = (
    """(theme) => {"""
    + CONTRAST
    + """
  document.documentElement.dataset.theme = theme;
  const root = getComputedStyle(document.documentElement);
  const felts = ['--felt-1', '--felt-2'].map((v) => parse(root.getPropertyValue(v)));
  // the ends on the table, and one of each kind drawn beside them (locked, a target, under a
  // spell), as draw.js draws them
  const svg = document.querySelector('.table-svg .content');
  const NS = 'http://www.w3.org/2000/svg';
  for (const cls of ['end locked', 'end target', 'end target locked', 'end spelled']) {
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('class', cls + ' probe');
    const box = document.createElementNS(NS, 'rect');
    box.setAttribute('class', 'end-box');
    const text = document.createElementNS(NS, 'text');
    text.setAttribute('class', 'end-value');
    text.textContent = '5';
    g.append(box, text);
    svg.append(g);
  }
  const out = [];
  for (const g of document.querySelectorAll('.table-svg .end')) {
    const value = g.querySelector('.end-value');
    if (!value) continue;
    const box = getComputedStyle(g.querySelector('.end-box'));
    const boxFill = parse(box.fill);
    boxFill[3] *= Number(box.fillOpacity);
    const textStyle = getComputedStyle(value);
    const textFill = parse(textStyle.fill);
    textFill[3] *= Number(textStyle.fillOpacity);
    const worst = Math.min(...felts.map((felt) => {
      const bg = over(boxFill, felt);
      return ratio(over(textFill, bg), bg);
    }));
    out.push([g.getAttribute('class'), Math.round(worst * 100) / 100]);
  }
  document.querySelectorAll('.probe').forEach((g) => g.remove());
  return out;
}"""
)


@pytest.mark.browser
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_open_end_numbers_read_against_the_felt(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
    theme: str,
) -> None:
    page = contexts(DESKTOP).page()
    _table(page, server, {"game": "doubles", "seats": ["me", "greedy"], "match": False})
    page.wait_for_function(WAIT_TURN, timeout=30_000)
    if page.locator(".layer-tiles .tile").count() == 0:
        play_one(page)  # we lead: then the table has open ends
    page.wait_for_selector(".table-svg .end:not(.lead-target) .end-value", timeout=30_000)
    got = page.evaluate(ENDS, theme)
    assert len([cls for cls, _ in got if "probe" in cls]) == 4, got
    assert any("probe" not in cls and "lead-target" not in cls for cls, _ in got), got
    low = [(cls, r) for cls, r in got if r < 4.5]
    assert low == [], got


# ---------------------------------------------------------------------------- 5. your turn
@pytest.mark.browser
def test_your_turn_shows_in_the_tab_and_notifies_once_asked(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    """Two people at a table: the tab's title and icon say whose turn it is and change back;
    with the tab hidden, a notification comes only after the player asked for them."""
    host_ctx = contexts(DESKTOP)
    host_ctx.context.grant_permissions(["notifications"], origin=server)
    host_ctx.context.add_init_script(SPY)
    host = host_ctx.page()
    body = {
        "game": "block",
        "seats": ["me", "open"],
        "options": {"lead": "seat0_any"},
        "match": False,
        "name": "Host",
    }
    table = _table(host, server, body)
    host.wait_for_selector(".waiting-card")
    icon = "() => document.querySelector(\"link[rel~='icon']\").getAttribute('href')"
    plain_icon = host.evaluate(icon)
    guest = contexts(DESKTOP).page()
    guest.goto(f"{server}/t/{table}")
    guest.fill(".waiting-card input[name=name]", "Guest")
    guest.click(".waiting-card [data-action=sit]")
    guest.wait_for_selector(".hand-tile", timeout=PATIENCE)

    # the host leads: their tab says so, the guest's does not
    host.wait_for_function(WAIT_TURN, timeout=30_000)
    host.wait_for_function(f"() => document.title.startsWith({TURN_MARK!r})")
    assert host.evaluate(icon) != plain_icon
    assert not guest.title().startswith(TURN_MARK)
    assert "block" in host.title().lower()  # the page's own title follows the mark

    # hidden, but notifications not asked for: none, whatever the browser allows
    _hide(host, True)
    play_one(host)
    host.wait_for_function(f"() => !document.title.startsWith({TURN_MARK!r})", timeout=PATIENCE)
    assert host.evaluate(icon) == plain_icon
    guest.wait_for_function(f"() => document.title.startsWith({TURN_MARK!r})", timeout=PATIENCE)
    play_one(guest)
    host.wait_for_function(f"() => document.title.startsWith({TURN_MARK!r})", timeout=PATIENCE)
    assert host.evaluate("() => window.__notes.length") == 0

    # asked for: the next turn of the host's in a hidden tab brings one
    _hide(host, False)
    bell = host.locator("[data-action=notify]")
    assert bell.get_attribute("aria-pressed") == "false"
    bell.click()
    host.wait_for_function(
        "() => document.querySelector('[data-action=notify]')"
        ".getAttribute('aria-pressed') === 'true'"
    )
    assert host.evaluate("() => localStorage.getItem('bonepile:notify')") == "on"
    if play_one(host) == "over":
        pytest.skip("the hand ended before the guest could move again")
    host.wait_for_function(f"() => !document.title.startsWith({TURN_MARK!r})", timeout=PATIENCE)
    _hide(host, True)
    guest.wait_for_function(WAIT_TURN, timeout=PATIENCE)
    if play_one(guest) == "over":
        pytest.skip("the hand ended before the host's turn came back")
    # the guest's move landed and the turn came back to the host: then a notification shows
    guest.wait_for_function(f"() => !document.title.startsWith({TURN_MARK!r})", timeout=PATIENCE)
    if host.wait_for_function(WAIT_TURN, timeout=PATIENCE).json_value() == "over":
        pytest.skip("the guest's move ended the hand")
    host.wait_for_function("() => window.__notes.length > 0", timeout=PATIENCE)
    note = host.evaluate("() => window.__notes[0]")
    assert note["title"].startswith("Your turn"), note
    assert "Guest" in note["body"], note
    # the moves made sounds (the host touched the page, so it may)
    assert host.evaluate("() => window.__oscillators") > 0


@pytest.mark.browser
def test_the_sound_switch_is_on_and_kept(contexts: Any, server: str) -> None:  # noqa: F811
    w = contexts(DESKTOP)
    w.context.add_init_script(SPY)
    page = w.page()
    _table(page, server, {"game": "block", "seats": ["me", "greedy"], "match": False})
    switch = page.locator("[data-action=sound]")
    switch.wait_for()
    assert switch.get_attribute("aria-pressed") == "true"
    page.wait_for_function(WAIT_TURN, timeout=30_000)
    play_one(page)
    _wait_for_a_sound(page)
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.evaluate("() => localStorage.getItem('bonepile:sound')") == "off"
    before = page.evaluate("() => window.__oscillators")
    if page.evaluate(WAIT_TURN) == "turn":
        play_one(page)
        page.wait_for_timeout(800)
        assert page.evaluate("() => window.__oscillators") == before
    page.reload()
    page.locator("[data-action=sound]").wait_for()
    assert page.locator("[data-action=sound]").get_attribute("aria-pressed") == "false"
    page.locator("[data-action=sound]").click()
    assert page.evaluate("() => localStorage.getItem('bonepile:sound')") == "on"


# ---------------------------------------------------------------------------- 6. small slips
@pytest.mark.browser
def test_the_form_speaks_of_a_single_hand_when_one_is_chosen(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    page = contexts(DESKTOP).page()
    page.goto(f"{server}/new?game=draw")
    page.wait_for_selector("form.new-form")
    length = page.locator(".field", has=page.locator("input[value=single]"))
    assert page.locator("input[value=single]").is_checked()
    text = length.inner_text()
    assert "100" not in text and "match plays" not in text.lower(), text
    page.check("input[value=match]")
    assert "100" in length.inner_text()
    page.fill("#target", "60")
    assert "60" in length.inner_text() and "100" not in length.inner_text()
    page.check("input[value=single]")
    assert "60" not in length.inner_text()


@pytest.mark.browser
def test_the_result_card_says_its_column_is_the_points_of_the_hand(
    contexts: Any,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    page = contexts(DESKTOP).page()
    _table(page, server, {"game": "draw", "seats": ["greedy", "greedy"], "match": True})
    # read the header the moment it is drawn: in a bots' match the next hand is dealt soon
    # after, and the card goes
    heads = page.wait_for_function(
        "() => { const t = [...document.querySelectorAll('.result-card .result-table th')]"
        ".map((e) => e.innerText); return t.length ? t : null; }",
        timeout=60_000,
    ).json_value()
    assert "Hand" not in [h.strip().title() for h in heads], heads
    assert any("points" in h.lower() and "hand" in h.lower() for h in heads), heads
    shot(page, "polish-result-desktop")


@pytest.mark.browser
def test_the_table_says_how_many_watch(contexts: Any, server: str) -> None:  # noqa: F811
    host = contexts(DESKTOP).page()
    table = _table(host, server, {"game": "block", "seats": ["me", "greedy"], "match": False})
    host.wait_for_selector(".me-card .seat-card.mine")
    assert host.locator(".hand-info .watchers").count() == 0
    watcher = contexts(PHONES["phone"]).page()
    watcher.goto(f"{server}/t/{table}")
    watcher.wait_for_selector(".watching", timeout=PATIENCE)
    host.wait_for_selector(".hand-info .watchers", timeout=PATIENCE)
    assert "1 watching" in host.locator(".hand-info").inner_text()
    shot(host, "polish-watching-desktop")
    watcher.close()
    host.wait_for_function(
        "() => !document.querySelector('.hand-info .watchers')", timeout=PATIENCE
    )


@pytest.mark.browser
def test_low_time_sounds_a_warning(contexts: Any, server: str) -> None:  # noqa: F811
    """With 30 seconds on the clock and nothing played, a warning sounds as the clock falls
    under 20 seconds (the page was touched first, as browsers require for sound)."""
    w = contexts(DESKTOP)
    w.context.add_init_script(SPY)
    page = w.page()
    page.goto(server + "/")
    body = {
        "game": "block",
        "seats": ["me", "greedy"],
        "options": {"lead": "seat0_any"},
        "match": False,
        "clock_minutes": 0.5,
        "clock_increment": 0,
    }
    made = new_table_via_api(page, server, body)
    page.goto(f"{server}/t/{made['id']}")
    page.wait_for_function(WAIT_TURN, timeout=30_000)
    page.locator(".status-row").click()  # a touch: the page may make sound from now on
    page.wait_for_timeout(300)
    before = page.evaluate("() => window.__oscillators")
    clock = page.locator(".me-card .clock")
    assert clock.inner_text() > "0:20"
    page.wait_for_function(
        "() => { const c = document.querySelector('.me-card .clock');"
        " return c && c.classList.contains('low'); }",
        timeout=PATIENCE,
    )
    page.wait_for_function(f"() => window.__oscillators >= {before} + 3", timeout=PATIENCE)
