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
