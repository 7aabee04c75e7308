"""Accounts in the browser (Chromium): a person plays anonymously, makes an account on the
account page and is still seated at their table; on a phone they sign in and find the same
seat; signing out everywhere leaves the first browser watching. Screenshots go to
``/tmp/bonepile-screens/``."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from playwright.sync_api import Page

from test_browser import (  # noqa: F401 - the fixtures
    DESKTOP,
    PATIENCE,
    PHONE,
    browser,
    contexts,
    hand_faces,
    new_table_via_api,
    play_one,
    server,
    shot,
)

pytestmark = [pytest.mark.system, pytest.mark.browser]

PASSWORD = "correct horse battery"


def seated(page: Page, base: str, table: str) -> list[str]:
    """Open the table and return the tiles in this browser's hand (none: watching)."""
    page.goto(f"{base}/t/{table}")
    page.wait_for_selector(".seat-card", timeout=PATIENCE)
    page.wait_for_function(
        "() => document.querySelector('.watching') || document.querySelector('.hand-tile')",
        timeout=PATIENCE,
    )
    return hand_faces(page)


def test_an_account_keeps_the_seat_and_follows_the_player(contexts: Any, server: str) -> None:  # noqa: F811 - the fixtures
    laptop = contexts(DESKTOP)
    desk = laptop.page()
    desk.goto(server + "/")
    made = new_table_via_api(desk, server, {"game": "block", "seats": ["me", "open"]})
    mine = seated(desk, server, made["id"])
    assert mine
    # make an account in another tab: the header names it, and the table's tab, whose
    # token the account retired, takes the account's and stays seated
    tab = laptop.page()
    tab.goto(f"{server}/account")
    tab.fill("#signup-name", "Ann")
    tab.fill("#signup-password", PASSWORD)
    tab.click("form.signup button[type=submit]")
    tab.wait_for_selector(".account-link:text-is('Ann')", timeout=PATIENCE)
    key = f"bonepile:token:{made['id']}"
    desk.wait_for_function(
        f"() => localStorage.getItem('{key}') !== '{made['token']}'", timeout=PATIENCE
    )
    desk.wait_for_selector(".hand-tile", timeout=PATIENCE)
    assert sorted(hand_faces(desk)) == sorted(mine) and desk.locator(".watching").count() == 0
    assert sorted(seated(desk, server, made["id"])) == sorted(mine)
    # a phone signs in and finds the same seat
    phone = contexts(PHONE).page()
    phone.goto(f"{server}/account?next=/t/{made['id']}")
    phone.fill("#signin-name", "ann")
    phone.fill("#signin-password", PASSWORD)
    phone.click("form.signin button[type=submit]")
    phone.wait_for_url(f"**/t/{made['id']}", timeout=PATIENCE)
    phone.wait_for_selector(".hand-tile", timeout=PATIENCE)
    assert sorted(hand_faces(phone)) == sorted(mine)
    phone.goto(f"{server}/account")
    phone.wait_for_selector(".sessions .tag", timeout=PATIENCE)
    assert phone.locator(".sessions li").count() == 2
    shot(phone, "account-phone")
    # signing out everywhere: the desktop's page finds itself watching
    phone.once("dialog", lambda d: d.accept())
    phone.click("text=Sign out everywhere")
    phone.wait_for_selector(".account-link:text-is('Sign in')", timeout=PATIENCE)
    assert seated(desk, server, made["id"]) == []
    desk.wait_for_selector(".watching", timeout=PATIENCE)
    assert desk.locator(".status-row.my-turn").count() == 0
    shot(desk, "account-signed-out-watching")


def test_the_account_page_explains_a_refusal_in_one_line(contexts: Any, server: str) -> None:  # noqa: F811 - the fixtures
    watched = contexts(DESKTOP)
    page = watched.page()
    page.goto(f"{server}/account")
    page.fill("#signup-name", "no spaces allowed")
    page.fill("#signup-password", PASSWORD)
    page.click("form.signup button[type=submit]")
    error = page.wait_for_selector("form.signup .error-box", timeout=PATIENCE)
    assert error is not None and error.inner_text().startswith("A name is 3 to 20 characters")
    assert page.locator(".account-link:text-is('Sign in')").count() == 1
    shot(page, "account-refused")
    # the browser logs the refused request itself; nothing else went wrong
    watched.errors[:] = [e for e in watched.errors if "status of 400" not in e]
    assert not watched.errors


def sign_up_in(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("form.signup button[type=submit]")
    page.wait_for_selector(f".account-link:text-is('{name}')", timeout=PATIENCE)


def find_a_player(page: Page, base: str, rated: bool = False) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#pair-game option[value=block]", state="attached")
    page.select_option("#pair-game", "block")
    if rated:
        page.check("#pair-rated")
    page.click("[data-action=find-player]")


def seated_table(page: Page) -> str:
    page.wait_for_url("**/t/*", timeout=PATIENCE)
    page.wait_for_selector(".hand-tile", timeout=PATIENCE)
    return page.url.rsplit("/", 1)[1]


def play_between(pages: list[Page], limit: int = 200) -> None:
    """Play the hand to its end: whoever is to move makes a legal move."""
    for _ in range(limit):
        if all(p.locator(".result-card").count() for p in pages):
            return
        for p in pages:
            if p.evaluate("() => !!document.querySelector('.status-row.my-turn')"):
                play_one(p)
                p.wait_for_function(
                    "() => !document.querySelector('.hand-tile.playing')", timeout=PATIENCE
                )
        pages[0].wait_for_timeout(150)
    raise AssertionError("the hand did not end")


def test_two_accounts_pair_play_a_rated_hand_and_find_it_on_their_pages(
    contexts: Any,  # noqa: F811 - the fixture
    server: str,  # noqa: F811 - the fixture
) -> None:
    ria, sol = contexts(DESKTOP).page(), contexts(PHONE).page()
    sign_up_in(ria, server, "Ria")
    sign_up_in(sol, server, "Sol")
    find_a_player(ria, server, rated=True)
    ria.wait_for_selector(".pair-waiting:not([hidden])", timeout=PATIENCE)
    shot(ria, "pairing-waiting")
    find_a_player(sol, server, rated=True)
    table = seated_table(sol)
    assert seated_table(ria) == table
    assert "Rated" in ria.locator(".hand-info, .top").first.inner_text()
    play_between([ria, sol])
    # the result says how each rating moved
    sol.wait_for_function(
        "() => { const t = document.querySelector('.rating-change')?.innerText || '';"
        " return t.startsWith('Ratings:') && t.includes('Ria ') && t.includes('Sol '); }",
        timeout=PATIENCE,
    )
    shot(sol, "rated-hand-over-phone")
    # both ratings moved: each page shows one rated table, and the chart
    for page, name in ((ria, "Ria"), (sol, "Sol")):
        page.goto(f"{server}/p/{name}")
        page.wait_for_function(
            "() => /1 rated/.test(document.querySelector('.rating-card')?.innerText || '')",
            timeout=PATIENCE,
        )
        page.wait_for_selector(".rating-chart circle", timeout=PATIENCE)
    ria_rating = ria.locator(".rating-value").inner_text()
    sol_rating = sol.locator(".rating-value").inner_text()
    assert ria_rating != sol_rating and "1,500?" not in (ria_rating, sol_rating)
    shot(ria, "player-page")
    # the leaderboard lists both (provisional), and the replay opens from the player's page
    ria.goto(f"{server}/leaderboard/block")
    ria.wait_for_selector(".leaderboard.provisional", timeout=PATIENCE)
    listed = ria.locator(".leaderboard.provisional").inner_text()
    assert "Ria" in listed and "Sol" in listed
    shot(ria, "leaderboard")
    sol.goto(f"{server}/p/Sol")
    sol.click(".replay-row", timeout=PATIENCE)
    sol.wait_for_url(f"**/replay/{table}-1", timeout=PATIENCE)
    sol.wait_for_selector(".replay-page", timeout=PATIENCE)


def test_two_anonymous_browsers_pair_with_each_other(
    contexts: Any,  # noqa: F811 - the fixture
    server: str,  # noqa: F811 - the fixture
) -> None:
    one, two = contexts(DESKTOP).page(), contexts(PHONE).page()
    find_a_player(one, server)
    one.wait_for_selector(".pair-waiting:not([hidden])", timeout=PATIENCE)
    find_a_player(two, server)
    assert seated_table(one) == seated_table(two)


def test_a_challenge_from_a_players_page_seats_both_when_accepted(
    contexts: Any,  # noqa: F811 - the fixture
    server: str,  # noqa: F811 - the fixture
) -> None:
    ria, sol = contexts(DESKTOP).page(), contexts(PHONE).page()
    sign_up_in(ria, server, "Cal")
    sign_up_in(sol, server, "Dot")
    sol.goto(server + "/")
    ria.goto(f"{server}/p/Dot")
    ria.select_option(".challenge-row select", "draw")
    ria.click("[data-action=challenge]")
    sol.wait_for_selector(".challenge-card", timeout=PATIENCE)
    assert "Cal challenges you: Draw" in sol.locator(".challenge-card").inner_text()
    shot(sol, "challenged-phone")
    sol.click("[data-action=accept-challenge]")
    assert seated_table(sol) == seated_table(ria)  # the challenger is taken there too
