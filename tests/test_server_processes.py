"""A real ``bonepile serve`` as an operator runs it: stopped with Ctrl-C, killed outright, and
on a disk that refuses writes for a while (the store's fault hook, ``BONEPILE_STORAGE_FAULT``).

Its bot workers end with it however it ends, Ctrl-C prints no tracebacks, and a storage fault
is one clear line to the players, a 503 to a new table, and nothing lost when it clears.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from websockets.sync.client import connect

from live_server import free_port

pytestmark = pytest.mark.system

WAIT = 60.0


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


class Served:
    """``bonepile serve`` on a data folder, in its own process group."""

    def __init__(
        self, data: Path, env: dict[str, str] | None = None, args: tuple[str, ...] = ()
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = data.parent / f"serve-{self.port}.log"
        command = [sys.executable, "-m", "bonepile", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--data", str(data), "--bot-pace", "0", *args]
        self.log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            command,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, **(env or {})},
        )
        deadline = time.monotonic() + WAIT
        while True:
            try:
                with urllib.request.urlopen(self.base + "/api/games", timeout=5):
                    break
            except OSError:
                assert self.proc.poll() is None, self.output()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.2)
        # the bot workers start with the server
        deadline = time.monotonic() + WAIT
        while len(children(self.proc.pid)) < 2:
            assert time.monotonic() < deadline, "no bot workers started"
            time.sleep(0.2)

    def output(self) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        req = urllib.request.Request(
            self.base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(req, timeout=WAIT) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(WAIT)
        self.log.close()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


def wait_until_gone(pids: set[int]) -> set[int]:
    deadline = time.monotonic() + WAIT
    left = {p for p in pids if alive(p)}
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = {p for p in left if alive(p)}
    return left


def test_the_bot_workers_end_when_the_server_is_killed_outright(data: Path) -> None:
    served = Served(data)
    try:
        workers = children(served.proc.pid)
        assert len(workers) >= 2
        os.kill(served.proc.pid, signal.SIGKILL)  # kill -9 of the server alone
        served.proc.wait(WAIT)
        assert wait_until_gone(workers) == set(), "bot workers outlived their server"
        # and what they leave behind is cleaned up without a warning in the server's log
        out = served.output()
        assert "leaked" not in out and "Warning" not in out and "Traceback" not in out, out
    finally:
        served.stop()


def test_ctrl_c_stops_the_server_and_its_workers_without_a_traceback(data: Path) -> None:
    served = Served(data)
    try:
        made = served.post("/api/tables", {"game": "block", "seats": ["me", "greedy"]})
        assert made[0] == 200
        workers = children(served.proc.pid)
        os.killpg(served.proc.pid, signal.SIGINT)  # what the terminal sends on Ctrl-C
        served.proc.wait(WAIT)
        assert wait_until_gone(workers) == set()
        out = served.output()
        assert "Traceback" not in out and "KeyboardInterrupt" not in out, out[-3000:]
    finally:
        served.stop()


def test_a_disk_that_refuses_writes_is_one_line_to_players_and_loses_nothing(
    data: Path, tmp_path: Path
) -> None:
    flag = tmp_path / "disk-full"
    served = Served(data, {"BONEPILE_STORAGE_FAULT": str(flag)})
    try:
        status, t = served.post("/api/tables", {"game": "block", "seats": ["me", "open"]})
        assert status == 200
        client = connect(f"ws://127.0.0.1:{served.port}/ws/table/{t['id']}", open_timeout=WAIT)
        with client as ws:
            ws.send(json.dumps({"type": "hello", "token": t["token"], "since": -1, "width": 40}))
            state = json.loads(ws.recv(timeout=WAIT))
            flag.touch()  # the disk is full
            # a friend cannot sit down, and nobody can open a table: each told why
            status, joined = served.post(f"/api/tables/{t['id']}/join", {"name": "Bob"})
            assert status == 503 and "cannot save" in joined["message"], joined
            status, made = served.post("/api/tables", {"game": "block", "seats": ["me", "open"]})
            assert status == 503 and made["error"] == "storage", made
            notice = json.loads(ws.recv(timeout=WAIT))
            while notice["type"] != "state":
                notice = json.loads(ws.recv(timeout=WAIT))
            assert notice["notice"]["message"].startswith("the server cannot save moves")
            assert notice["v"] == state["v"]
            flag.unlink()  # space again
            back = json.loads(ws.recv(timeout=WAIT))
            while back.get("notice") is not None or back["type"] != "state":
                back = json.loads(ws.recv(timeout=WAIT))
            status, joined = served.post(f"/api/tables/{t['id']}/join", {"name": "Bob"})
            assert status == 200
            started = json.loads(ws.recv(timeout=WAIT))
            while started["type"] != "state" or started["status"] != "playing":
                started = json.loads(ws.recv(timeout=WAIT))
        out = served.output()
        assert "Traceback" not in out, out[-3000:]
        assert "refuses writes" in out and "takes writes again" in out
    finally:
        served.stop()


def test_the_operator_sets_the_limits_and_the_api_docs(data: Path) -> None:
    served = Served(data, args=("--limit", "tables_per_address=2", "--api-docs"))
    try:
        table = {"game": "block", "seats": ["me", "open"]}
        codes = [served.post("/api/tables", table)[0] for _ in range(3)]
        assert codes == [200, 200, 429]
        with urllib.request.urlopen(served.base + "/openapi.json", timeout=WAIT) as r:
            assert r.status == 200 and r.headers["X-Frame-Options"] == "DENY"
        assert (data / "bonepile.db").stat().st_mode & 0o777 == 0o600
    finally:
        served.stop()
    bad = subprocess.run(
        [sys.executable, "-m", "bonepile", "serve", "--data", str(data), "--limit", "tabels=3"],
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert bad.returncode != 0 and "there is no limit 'tabels'" in bad.stderr
    assert "Traceback" not in bad.stderr


@pytest.fixture(autouse=True)
def _no_strays() -> Iterator[None]:
    before = children(os.getpid())
    yield
    assert wait_until_gone(children(os.getpid()) - before) == set()


def test_a_second_server_on_the_same_database_refuses_to_start(data: Path) -> None:
    """Two processes on one database would split the site: the second says so in one line and
    starts nothing; the first serves on; once it is gone, a new one starts."""
    first = Served(data)
    try:
        port = free_port()
        command = [sys.executable, "-m", "bonepile", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(port), "--data", str(data)]
        second = subprocess.run(command, capture_output=True, text=True, timeout=WAIT)
        assert second.returncode != 0
        said = second.stderr.strip()
        assert len(said.splitlines()) == 1 and "Traceback" not in said, said
        assert f"pid {first.proc.pid}" in said and "one process serves" in said, said
        assert first.post("/api/tables", {"game": "block", "seats": ["me", "greedy"]})[0] == 200
    finally:
        first.stop()
    again = Served(data)  # the lock went with the killed process
    again.stop()


def test_one_postgresql_database_is_held_by_one_serving_process() -> None:
    from bonepile.server.site.exclusive import DatabaseInUse, hold_database
    from test_store import PG, _postgres_or_skip

    _postgres_or_skip()
    held = hold_database(PG, "the test database")
    try:
        with pytest.raises(DatabaseInUse, match=f"pid {os.getpid()}.*is serving the test database"):
            hold_database(PG, "the test database")
    finally:
        held.release()
    hold_database(PG, "the test database").release()  # let go: the next one gets it


@contextlib.contextmanager
def _schemas(count: int) -> Iterator[list[str]]:
    """``count`` fresh schemas of the test database, as URLs whose search path is each; dropped
    at the end."""
    import secrets

    from sqlalchemy import create_engine, text

    from bonepile.server.storage.store import engine_url
    from test_store import PG, _postgres_or_skip

    _postgres_or_skip()
    names = ["s_" + secrets.token_hex(5) for _ in range(count)]
    admin = create_engine(engine_url(PG), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            for name in names:
                conn.execute(text(f'CREATE SCHEMA "{name}"'))
        yield [f"{PG}?options=-csearch_path%3D{name}" for name in names]
    finally:
        with admin.connect() as conn:
            for name in names:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
        admin.dispose()


def test_the_lock_is_the_schema_s_not_the_whole_database() -> None:
    """Two sites in two schemas of one database (staging and production, two tenants) are two
    sites: each holds its own schema, and a second server refused names the schema it wanted."""
    from bonepile.server.site.exclusive import DatabaseInUse, hold_database

    with _schemas(2) as (one, two):
        first = hold_database(one, "db")
        try:
            hold_database(two, "db").release()  # the other schema is free
            with pytest.raises(DatabaseInUse, match=r"is serving db \(schema s_[0-9a-f]{10}\)"):
                hold_database(one, "db")
        finally:
            first.release()


def test_two_servers_in_two_schemas_of_one_database_both_serve(tmp_path: Path) -> None:
    """Each serves its own schema's tables: a table made on one is the other's 404."""
    with _schemas(2) as urls:
        servers: list[Served] = []
        try:
            for k, url in enumerate(urls):
                servers.append(Served(tmp_path / f"data{k}", args=("--database", url)))
            body = {"game": "block", "seats": ["me", "greedy"]}
            made = [server.post("/api/tables", body) for server in servers]
            assert [status for status, _ in made] == [200, 200], made
            for k, (_, table) in enumerate(made):
                for j, server in enumerate(servers):
                    status = _get_status(f"{server.base}/api/tables/{table['id']}")
                    assert status == (200 if j == k else 404), (k, j, status)
        finally:
            for server in servers:
                server.stop()


def _get_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def test_sockets_opened_and_closed_write_no_line_each(data: Path) -> None:
    """The server writes no line per request, and none per socket: a crowd of spectators
    coming and going (and sockets refused) leaves the log as it was."""
    served = Served(data)
    try:
        before = served.output()
        ws_base = served.base.replace("http", "ws", 1)
        for _ in range(10):
            with connect(f"{ws_base}/ws/lobby", open_timeout=WAIT) as ws:
                assert json.loads(ws.recv(timeout=WAIT))["type"] == "lobby"
        for _ in range(3):  # a path with no socket behind it: refused
            with pytest.raises(Exception, match="HTTP 403"):
                connect(f"{ws_base}/ws/nowhere", open_timeout=WAIT).close()
        assert served.post("/api/tables", {"game": "block", "seats": ["me", "greedy"]})[0] == 200
        time.sleep(1.0)  # let anything the sockets' ends would log arrive
        after = served.output()
    finally:
        served.stop()
    assert after.startswith(before)
    assert after[len(before) :].strip() == "", after[len(before) :][:2000]


def _play_a_move(served: Served, table: dict[str, Any]) -> str:
    """Play the creator's first move at ``table`` through ``served``, once acknowledged; the
    move played."""
    url = f"ws://127.0.0.1:{served.port}/ws/table/{table['id']}"
    with connect(url, open_timeout=WAIT) as ws:
        ws.send(json.dumps({"type": "hello", "token": table["token"], "since": -1, "width": 40}))
        while True:
            msg = json.loads(ws.recv(timeout=WAIT))
            if msg["type"] == "state" and msg["view"]["legal"]:
                break
        action = msg["view"]["legal"][0]
        ws.send(json.dumps({"type": "move", "id": "m1", "v": msg["v"], "action": action}))
        while (reply := json.loads(ws.recv(timeout=WAIT)))["type"] != "ack":
            assert reply["type"] == "state", reply
    return str(action)


def _lock_free(url: str) -> None:
    """Wait until nobody holds the database at ``url`` (PostgreSQL noticed a cut)."""
    from bonepile.server.site.exclusive import DatabaseInUse, hold_database

    deadline = time.monotonic() + WAIT
    while True:
        try:
            hold_database(url, "db").release()
            return
        except DatabaseInUse:
            assert time.monotonic() < deadline, "the cut server's lock was never let go"
            time.sleep(0.2)


def test_a_server_cut_off_while_another_took_its_database_stops_by_itself(tmp_path: Path) -> None:
    """A network cut lets the lock of a server alone go; a second server then starts on the
    database. When the first can reach it again, it finds it taken and stops, saying why (its
    writes were fenced all along), and the second serves the tables: the site never splits."""
    from tcp_proxy import TcpProxy

    with _schemas(1) as (url,):
        proxy = TcpProxy(("127.0.0.1", 5432))
        proxied = url.replace(":5432/", f":{proxy.port}/")
        first = Served(tmp_path / "a", args=("--database", proxied))
        second: Served | None = None
        try:
            status, table = first.post("/api/tables", {"game": "block", "seats": ["me", "greedy"]})
            assert status == 200
            acknowledged = _play_a_move(first, table)
            proxy.cut()
            _lock_free(url)
            second = Served(tmp_path / "b", args=("--database", url))
            proxy.restore()
            assert first.proc.wait(WAIT) != 0
            said = first.output()
            assert "Traceback" not in said, said
            stopped = said.strip().splitlines()[-1]
            assert re.search(rf"pid {second.proc.pid} .*took .* over", stopped), said
            assert stopped.endswith("this server stopped"), said
            assert _get_status(f"{second.base}/api/tables/{table['id']}") == 200
            assert second.proc.poll() is None
            from bonepile.server.storage.store import Store

            store = Store(url)
            try:
                stored = store.table(table["id"])
            finally:
                store.close()
            assert stored is not None
            moves = [e.get("action") for _, e in stored.entries if e.get("type") == "move"]
            assert acknowledged in moves, moves
        finally:
            first.stop()
            if second is not None:
                second.stop()
            proxy.close()


def test_a_server_takes_its_database_again_after_a_blip(tmp_path: Path) -> None:
    """A cut that ends before anyone else starts: the server takes its lock again by itself,
    serves on, and a second server started afterwards is refused."""
    from bonepile.server.site.exclusive import DatabaseInUse, hold_database
    from tcp_proxy import TcpProxy

    with _schemas(1) as (url,):
        proxy = TcpProxy(("127.0.0.1", 5432))
        proxied = url.replace(":5432/", f":{proxy.port}/")
        first = Served(tmp_path / "a", args=("--database", proxied))
        try:
            proxy.cut()
            _lock_free(url)
            time.sleep(5)  # a cut of several seconds: the server tries to take its lock again
            proxy.restore()
            deadline = time.monotonic() + WAIT
            while True:
                try:
                    hold_database(url, "db").release()
                except DatabaseInUse as e:
                    assert f"pid {first.proc.pid}" in str(e)
                    break
                assert time.monotonic() < deadline, "the server never took its lock again"
                time.sleep(0.2)
            body = {"game": "block", "seats": ["me", "greedy"]}
            assert first.post("/api/tables", body)[0] == 200
            assert first.proc.poll() is None
        finally:
            first.stop()
            proxy.close()


def test_a_sqlite_server_whose_file_lock_lapsed_stops_when_another_starts(data: Path) -> None:
    """A file lock on a network disk can lapse (here: its file is removed, so a second server
    locks a new one). The second raises the serving epoch as it starts; the first sees it within
    seconds and stops, saying why, and the second serves the first's tables."""
    first = Served(data)
    second: Served | None = None
    try:
        status, table = first.post("/api/tables", {"game": "block", "seats": ["me", "greedy"]})
        assert status == 200
        (data / "bonepile.db.serving").unlink()
        second = Served(data)
        assert first.proc.wait(WAIT) != 0
        said = first.output()
        assert "Traceback" not in said, said
        assert re.search(rf"pid {second.proc.pid} .*took .* over", said.strip().splitlines()[-1])
        assert _get_status(f"{second.base}/api/tables/{table['id']}") == 200
    finally:
        first.stop()
        if second is not None:
            second.stop()
