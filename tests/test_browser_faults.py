"""A server process that freezes (a SIGSTOP, a stalled virtual machine) leaves no player in
silence: in chromium, the table page notices within seconds that its socket has gone quiet,
tells the player it is offline and reconnecting, and comes back by itself once the server
answers again (on a site, its proxy sends the new socket to another process)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from test_browser import DESKTOP, PATIENCE, browser, new_table_via_api  # noqa: F401 - fixture
from test_server_processes import Served

pytestmark = pytest.mark.system

# every change of the page's connection state, by the page's own clock, with what it said (a
# state may last a moment: "offline", then "connecting" to a server that does not answer...)
WATCH_STATE = """() => {
  const conn = document.querySelector('.conn');
  const text = () => (document.querySelector('.conn-text') || {}).textContent || '';
  const changes = window.__connChanges = [];
  new MutationObserver(() => changes.push([conn.dataset.state, performance.now(), text()]))
    .observe(conn, { attributes: true, attributeFilter: ['data-state'] });
  return performance.now();
}"""
# the page went offline
WENT_OFFLINE = "() => window.__connChanges.some(([state]) => state === 'offline')"

# the page went offline, then online again
BACK_AFTER_OFFLINE = """() => {
  const states = window.__connChanges.map(([state]) => state);
  const off = states.indexOf('offline');
  return off >= 0 && states.indexOf('online', off) > off;
}"""


@contextlib.contextmanager
def paused(pid: int) -> Iterator[Callable[[], None]]:
    """The process ``pid`` frozen (SIGSTOP) for the block, or until the function yielded is
    called; never left frozen."""
    os.kill(pid, signal.SIGSTOP)
    frozen = [True]

    def resume() -> None:
        if frozen[0]:
            frozen[0] = False
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    try:
        yield resume
    finally:
        resume()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:  # noqa: F811 - the fixture
    """A desktop page whose script errors are kept in ``page.errors``."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        yield page
    finally:
        context.close()


def at_a_table(page: Any, base: str) -> float:
    """Open a new table against a bot at ``base``, online for a ping or two; when, by the
    page's clock, its connection states start being recorded (:data:`WATCH_STATE`)."""
    page.goto(base + "/")
    body = {"game": "block", "seats": ["me", "greedy"], "options": {}, "match": False}
    made = new_table_via_api(page, base, body)
    page.goto(f"{base}/t/{made['id']}")
    page.wait_for_selector(".conn[data-state=online]", timeout=PATIENCE)
    page.wait_for_timeout(3000)  # a ping or two answered: the socket is live
    return float(page.evaluate(WATCH_STATE))


@pytest.mark.browser
def test_a_frozen_server_is_noticed_within_seconds_and_the_page_comes_back(
    page: Any, tmp_path: Path
) -> None:
    served = Served(tmp_path / "data")
    try:
        since = at_a_table(page, served.base)
        with paused(served.proc.pid) as resume:  # the server, not its bot workers
            page.wait_for_function(WENT_OFFLINE, timeout=PATIENCE)
            changes = page.evaluate("() => window.__connChanges")
            noticed, said = next((t, text) for state, t, text in changes if state == "offline")
            assert noticed - since < 10_000, f"seen frozen after {noticed - since:.0f} ms"
            assert said.startswith("offline"), said
            resume()
            page.wait_for_selector(".conn[data-state=online]", timeout=PATIENCE)
            page.wait_for_selector(".hand-tile", timeout=PATIENCE)  # the table is back, whole
        assert page.errors == []
    finally:
        served.stop()


@pytest.mark.browser
def test_the_lobby_drops_a_frozen_server_s_socket_and_lists_again_after(
    page: Any, tmp_path: Path
) -> None:
    """The lobby's socket keeps the same watch as a table's: silent for seconds, it is given
    up for a new one (which a site's proxy may send to another process); once the server
    answers, tables made meanwhile are listed without a reload."""
    served = Served(tmp_path / "data")
    try:
        opened: list[float] = []
        page.on(
            "websocket",
            lambda ws: opened.append(time.monotonic()) if ws.url.endswith("/ws/lobby") else None,
        )
        page.goto(served.base + "/")
        page.wait_for_function("() => document.querySelector('#lobby, .lobby') !== null")
        page.wait_for_timeout(3000)  # a ping or two answered: the socket is live
        assert len(opened) == 1, opened
        with paused(served.proc.pid):
            since = time.monotonic()
            while len(opened) < 2 and time.monotonic() < since + PATIENCE / 1000:
                page.wait_for_timeout(250)
            assert len(opened) >= 2, "the lobby kept its silent socket"
            assert opened[1] - since < 12, f"a new socket after {opened[1] - since:.1f} s"
        body = {"game": "block", "seats": ["me", "greedy"], "options": {}, "match": False}
        made = new_table_via_api(page, served.base, body)
        page.wait_for_selector(f".lobby-row[data-table='{made['id']}']", timeout=PATIENCE)
        assert page.errors == []
    finally:
        served.stop()


@pytest.mark.browser
def test_a_frozen_process_of_a_site_is_left_for_another(page: Any, tmp_path: Path) -> None:
    """A site of two processes behind a proxy that, as a health-checking proxy does, sends new
    connections to the live process once one freezes: the page tells its player within seconds
    and comes back online through the other process while the first stays frozen."""
    from site_servers import Site, services_or_skip
    from tcp_proxy import TcpProxy

    services_or_skip()
    site = Site(tmp_path)
    proxy: TcpProxy | None = None
    try:
        first, second = site.add(), site.add()
        assert first.proc is not None
        proxy = TcpProxy(("127.0.0.1", first.port))
        since = at_a_table(page, f"http://127.0.0.1:{proxy.port}")
        with paused(first.proc.pid):
            proxy.target = ("127.0.0.1", second.port)  # its health check marks the first down
            page.wait_for_function(BACK_AFTER_OFFLINE, timeout=PATIENCE)
            changes = page.evaluate("() => window.__connChanges")
            told = next(t for state, t, _ in changes if state == "offline") - since
            back = next(t for state, t, _ in changes if state == "online") - since
            assert told < 10_000, f"the page saw the process frozen after {told / 1000:.1f} s"
            assert told < back < 10_000, f"back online through the other after {back / 1000:.1f} s"
            page.wait_for_selector(".hand-tile", timeout=PATIENCE)  # the table, from the other
        assert page.errors == []
    finally:
        if proxy is not None:
            proxy.close()
        site.close()
