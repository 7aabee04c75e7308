"""Load on the web server: many tables of two players and a spectator, on loopback.

For each table count N (``--tables 50,100,250,500``) it starts ``bonepile serve`` on a fresh
SQLite database, sets up N two-player block tables, connects both players and a spectator to
each, and lets the players answer their turn after a short think time (``--think``, seconds,
drawn uniformly from 0.5x to 1.5x) for ``--seconds``. It reports moves per second, the
move-to-broadcast latency (from a player sending a move to the other player receiving the
state it made: p50, p95, p99 in ms) and the server's memory per table (resident set growth
divided by N), as one JSON object on stdout. Every hand that ends is followed by a rematch, so
the load stays steady. Traffic goes to 127.0.0.1 only and each run is bounded in time.

Each count runs twice by default, side by side: clients that take each state after the first as
a patch (``--states patches``, what the browser does) and clients that take whole states
(``--states whole``).

**A site of several processes** (``--processes 1,2,4 --database postgresql://.../test --redis
redis://...``): each count runs on P ``bonepile serve --redis`` processes, each on its own port,
on a fresh PostgreSQL database made for the run. Every request and socket goes to a process
drawn at random, as a proxy that knows nothing of tables would send it, so about (P-1)/P of the
moves reach a process that does not own their table and are forwarded to the one that does.
Beside the bonepile processes' CPU per move it reports Redis's and PostgreSQL's (their server
processes on this machine), and checks that no spectator saw a version the database does not
hold. ``--processes 1`` with ``--redis`` is the anchor: the same site code, nothing forwarded;
without ``--redis`` the runs are of one server alone on SQLite.

Run: ``.venv/bin/python benchmarks/server_load.py [--tables 50,100,250,500] [--seconds 20]``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from sqlalchemy import create_engine, text

from bonepile.server.tables.patch import apply

BONEPILE = Path(sys.executable).with_name("bonepile")
LIFTED = [
    f"--limit={name}=1000000"
    for name in (
        "tables_per_client",
        "tables_per_address",
        "max_tables",
        "connections_per_address",
        "requests_per_second",
        "request_burst",
        "api_requests_per_second",
        "api_request_burst",
    )
]
"""The server's limits for one client, lifted: here every table comes from one address."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_s(pid: int) -> float:
    """CPU seconds (user and system) process ``pid`` and its threads have used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pids_of(name: str) -> list[int]:
    """The pids of the processes whose command is ``name`` (Redis, PostgreSQL)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == name:
                    out.append(int(entry.name))
    return out


def cpu_of(pids: list[int]) -> float:
    """CPU seconds of ``pids`` together (those that ended count nothing)."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += cpu_s(pid)
    return total


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Stop:
    """When the clients hang up (moved once every table is set up)."""

    def __init__(self, at: float) -> None:
        self.at = at

    def wait(self) -> float:
        """How long to wait for a message before looking at the time again."""
        return max(0.05, min(1.0, self.at - time.monotonic()))


class Stats:
    def __init__(self) -> None:
        self.sent: dict[tuple[str, int], float] = {}
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: list[str] = []
        self.ready = 0  # tables whose two players and spectator are connected


async def player(
    base: str | list[str],
    table: str,
    token: str,
    stats: Stats,
    think: float,
    stop: Stop,
    dealer: bool,
    patches: bool,
) -> None:
    rng = random.Random()
    base = rng.choice(base) if isinstance(base, list) else base
    async with websockets.connect(f"{base}/ws/table/{table}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "patches": patches}))
        n = 0
        doc: dict[str, Any] = {}
        while time.monotonic() < stop.at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=stop.wait())
            except TimeoutError:
                continue
            msg = json.loads(raw)
            if msg["type"] == "error":
                stats.errors.append(msg["code"])
                continue
            if msg["type"] == "patch":  # as the browser does
                msg = doc = apply(doc, msg["ops"])
            elif msg["type"] == "state":
                doc = msg
            else:
                continue
            sent = stats.sent.pop((table, msg["v"]), None)
            if sent is not None:
                stats.latencies.append(time.perf_counter() - sent)
            legal = msg["view"]["legal"]
            if dealer and msg["view"]["result"] is not None and msg["status"] == "playing":
                await asyncio.sleep(think)
                await ws.send(json.dumps({"type": "next_hand"}))
                continue
            if msg["status"] == "over" or not legal:
                continue
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            n += 1
            stats.sent[(table, msg["v"] + 1)] = time.perf_counter()
            stats.moves += 1
            await ws.send(
                json.dumps(
                    {
                        "type": "move",
                        "id": f"{token[:6]}{n}",
                        "v": msg["v"],
                        "action": rng.choice(legal),
                    }
                )
            )


async def spectator(
    base: str | list[str], table: str, stop: Stop, patches: bool, seen: dict[str, int]
) -> None:
    base = random.choice(base) if isinstance(base, list) else base
    async with websockets.connect(f"{base}/ws/table/{table}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "patches": patches}))
        doc: dict[str, Any] = {}
        while time.monotonic() < stop.at:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=stop.wait())
            except TimeoutError:
                continue
            msg = json.loads(raw)
            if msg["type"] == "patch":
                doc = apply(doc, msg["ops"])
            elif msg["type"] == "state":
                doc = msg
            if "v" in doc:
                seen[table] = doc["v"]


async def one_table(
    bases: list[str],
    http: httpx.AsyncClient,
    stats: Stats,
    think: float,
    stop: Stop,
    patches: bool,
    seen: dict[str, int],
) -> None:
    r = await http.post(
        f"{random.choice(bases)}/api/tables",
        json={
            "game": "block",
            "seats": ["me", "open"],
            "match": True,
            "options": {"target_score": 10**6},
        },
    )
    r.raise_for_status()
    t = r.json()
    async with httpx.AsyncClient() as other:
        joining = f"{random.choice(bases)}/api/tables/{t['id']}/join"
        j = await other.post(joining, json={"name": "B"})
        j.raise_for_status()
        b = j.json()
    ws_bases = [base.replace("http://", "ws://") for base in bases]
    stats.ready += 1
    await asyncio.gather(
        player(ws_bases, t["id"], t["token"], stats, think, stop, True, patches),
        player(ws_bases, t["id"], b["token"], stats, think, stop, False, patches),
        spectator(ws_bases, t["id"], stop, patches, seen),
    )


async def run_load(
    bases: list[str],
    tables: int,
    seconds: float,
    think: float,
    pids: list[int],
    patches: bool,
    services: list[str] | None = None,
) -> dict[str, Any]:
    stats = Stats()
    seen: dict[str, int] = {}
    before = sum(rss_kb(pid) for pid in pids)
    stop = Stop(time.monotonic() + 600)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        tasks = [
            asyncio.create_task(one_table(bases, http, stats, think, stop, patches, seen))
            for _ in range(tables)
        ]
        # measure only once every table is set up and playing (setting up hundreds of tables
        # loads the server far more than playing them)
        while stats.ready < tables and time.monotonic() < stop.at - seconds:
            await asyncio.sleep(0.1)
        await asyncio.sleep(2)
        stop.at = time.monotonic() + seconds
        stats.latencies.clear()
        moves0, t0 = stats.moves, time.monotonic()
        server0, client0 = cpu_of(pids), time.process_time()
        # the services' processes now, their connections from the servers made
        serving = {name: pids_of(name) for name in services or []}
        service0 = {name: cpu_of(ps) for name, ps in serving.items()}
        await asyncio.sleep(seconds)
        server1, client1, moves1 = cpu_of(pids), time.process_time(), stats.moves
        service1 = {name: cpu_of(ps) for name, ps in serving.items()}
        await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = min(time.monotonic() - t0, seconds)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

    per_move = max(1, moves1 - moves0)
    return {
        "tables": tables,
        "processes": len(pids),
        "states": "patches" if patches else "whole",
        "moves_per_s": round((stats.moves - moves0) / elapsed, 1),
        "server_cpu_ms_per_move": round(1000 * (server1 - server0) / max(1, moves1 - moves0), 2),
        "client_cpu_ms_per_move": round(1000 * (client1 - client0) / max(1, moves1 - moves0), 2),
        "latency_ms": {
            "p50": pct(0.50),
            "p95": pct(0.95),
            "p99": pct(0.99),
            "mean": round(statistics.mean(lat) * 1000, 1) if lat else None,
        },
        "samples": len(lat),
        **{
            f"{name.split('-')[0]}_cpu_ms_per_move": round(
                1000 * (service1[name] - service0[name]) / per_move, 2
            )
            for name in serving
        },
        "memory_kb_per_table": round((sum(rss_kb(pid) for pid in pids) - before) / tables, 1),
        "errors": len(stats.errors),
        "error_codes": dict(collections.Counter(stats.errors)),
        "seen": seen,
    }


def one_run(tables: int, patches: bool, processes: int, args: argparse.Namespace) -> dict[str, Any]:
    """One load run on a fresh database: one server alone (on SQLite, or with
    ``processes`` 0 on PostgreSQL) or a site of ``processes`` (PostgreSQL and Redis)."""
    database = name = None
    admin = None
    if args.database:
        name = "bp_load_" + os.urandom(4).hex()
        admin = create_engine(_driver(args.database), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        database = args.database.rsplit("/", 1)[0] + "/" + name
    ports = [free_port() for _ in range(max(1, processes))]
    servers: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as data, open(Path(data) / "log", "wb") as log:
        try:
            site = ["--database", database] if database else []
            if database and processes:
                site += ["--redis", args.redis]
            for k, port in enumerate(ports):
                command = [str(BONEPILE), "serve", "--port", str(port), "--data", f"{data}/{k}"]
                # every client of this benchmark is one address: its limits would stop it
                command += ["--bot-pace", "0", *site, *LIFTED]
                # the server's log goes to a file: a pipe nobody reads would fill and stall it
                servers.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log))
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            for base in bases:
                for _ in range(300):
                    with contextlib.suppress(httpx.HTTPError):
                        if httpx.get(f"{base}/api/games").status_code == 200:
                            break
                    time.sleep(0.1)
            services = ["redis-server", "postgres"] if database else []
            pids = [s.pid for s in servers]
            run = asyncio.run(
                run_load(bases, tables, args.seconds, args.think, pids, patches, services)
            )
            if database:
                run["journal_behind"] = _behind(database, run["seen"])
            run["processes"] = processes if processes and database else "alone"
            run["database"] = "postgresql" if database else "sqlite"
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                server.wait(30)
            if admin is not None:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                admin.dispose()
        logged = (Path(data) / "log").read_text(errors="replace")
        run["server_tracebacks"] = logged.count("Traceback")
    return run


def _driver(url: str) -> str:
    return url.replace("postgresql://", "postgresql+psycopg://", 1)


def _behind(database: str, seen: dict[str, int]) -> int:
    """Tables whose spectator saw a version the database does not hold (a state shown but
    never stored: must be 0)."""
    engine = create_engine(_driver(database))
    with engine.connect() as conn:
        query = text("SELECT table_id, MAX(version) FROM entries GROUP BY table_id")
        stored = {str(t): int(v) for t, v in conn.execute(query).all()}
    engine.dispose()
    return sum(1 for t, v in seen.items() if v > stored.get(t, 0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", default="50,100,250,500")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument(
        "--states",
        default="patches,whole",
        help="how clients take states: patches (as the browser does), whole, or both",
    )
    parser.add_argument(
        "--processes",
        default="1",
        help="site processes, e.g. alone,1,2,4 (alone: one server without --redis on a fresh "
        "PostgreSQL database, the anchor)",
    )
    parser.add_argument("--database", help="PostgreSQL server URL (a database is made a run)")
    parser.add_argument("--redis", help="the site's Redis URL (with --database)")
    args = parser.parse_args(argv)
    processes = [0 if x.strip() == "alone" else int(x) for x in args.processes.split(",") if x]
    if (args.redis is None) != (args.database is None) or (
        max(processes) > 1 and args.redis is None
    ):
        parser.error("--processes above 1 needs --database and --redis (both)")
    counts = [int(x) for x in args.tables.split(",") if x.strip()]
    modes = [m.strip() for m in args.states.split(",") if m.strip()]
    if not modes or set(modes) - {"patches", "whole"}:
        parser.error("--states: patches, whole or both")
    if not counts or min(counts) < 1 or max(counts) > 2000 or not 1 <= args.seconds <= 600:
        parser.error("--tables: 1..2000 each; --seconds: 1..600")
    out: dict[str, Any] = {"think_s": args.think, "seconds": args.seconds, "runs": []}
    for n, mode, p in [(n, m, p) for n in counts for m in modes for p in processes]:
        out["runs"].append(one_run(n, mode == "patches", p, args))
        shown = {k: v for k, v in out["runs"][-1].items() if k != "seen"}
        print(json.dumps(shown), file=sys.stderr, flush=True)
    out["cpu_count"] = os.cpu_count()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
