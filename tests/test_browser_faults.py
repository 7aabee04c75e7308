"""A server process that freezes (a SIGSTOP, a stalled virtual machine) leaves no player in
silence: in chromium, the table page notices within seconds that its socket has gone quiet,
tells the player it is offline and reconnecting, and comes back by itself once the server
answers again (on a site, its proxy sends the new socket to another process)."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from test_browser import DESKTOP, PATIENCE, browser, new_table_via_api  # noqa: F401 - fixture
from test_server_processes import Served

pytestmark = pytest.mark.system

# when the page's connection state last changed, by the page's own clock
WATCH_STATE = """() => {
  const conn = document.querySelector('.conn');
  window.__connChanges = [];
  new MutationObserver(() => window.__connChanges.push([conn.dataset.state, performance.now()]))
    .observe(conn, { attributes: true, attributeFilter: ['data-state'] });
  return performance.now();
}"""


@pytest.mark.browser
def test_a_frozen_server_is_noticed_within_seconds_and_the_page_comes_back(
    browser: Any,  # noqa: F811 - the fixture
    tmp_path: Path,
) -> None:
    served = Served(tmp_path / "data")
    context = browser.new_context(viewport=DESKTOP)
    frozen = False
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(served.base + "/")
        body = {"game": "block", "seats": ["me", "greedy"], "options": {}, "match": False}
        made = new_table_via_api(page, served.base, body)
        page.goto(f"{served.base}/t/{made['id']}")
        page.wait_for_selector(".conn[data-state=online]", timeout=PATIENCE)
        page.wait_for_timeout(3000)  # a ping or two answered: the socket is live
        since = page.evaluate(WATCH_STATE)
        os.kill(served.proc.pid, signal.SIGSTOP)  # the server, not its bot workers
        frozen = True
        page.wait_for_selector(".conn[data-state=offline]", timeout=PATIENCE)
        changes = page.evaluate("() => window.__connChanges")
        noticed = next(t for state, t in changes if state == "offline") - since
        assert noticed < 10_000, f"the page saw the server frozen after {noticed / 1000:.1f} s"
        said = page.text_content(".conn-text") or ""
        assert said.startswith("offline"), said
        os.kill(served.proc.pid, signal.SIGCONT)
        frozen = False
        page.wait_for_selector(".conn[data-state=online]", timeout=PATIENCE)
        page.wait_for_selector(".hand-tile", timeout=PATIENCE)  # the table is back, whole
        assert errors == []
    finally:
        if frozen:
            with contextlib.suppress(ProcessLookupError):
                os.kill(served.proc.pid, signal.SIGCONT)
        context.close()
        served.stop()
