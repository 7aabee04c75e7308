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

Run: ``.venv/bin/python benchmarks/server_load.py [--tables 50,100,250,500] [--seconds 20]``.
"""

from __future__ import annotations

import argparse
import asyncio
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

from bonepile.server.patch import apply

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
    base: str,
    table: str,
    token: str,
    stats: Stats,
    think: float,
    stop: Stop,
    dealer: bool,
    patches: bool,
) -> None:
    rng = random.Random()
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


async def spectator(base: str, table: str, stop: Stop, patches: bool) -> None:
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


async def one_table(
    base: str, http: httpx.AsyncClient, stats: Stats, think: float, stop: Stop, patches: bool
) -> None:
    r = await http.post(
        f"{base}/api/tables",
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
        j = await other.post(f"{base}/api/tables/{t['id']}/join", json={"name": "B"})
        j.raise_for_status()
        b = j.json()
    ws_base = base.replace("http://", "ws://")
    stats.ready += 1
    await asyncio.gather(
        player(ws_base, t["id"], t["token"], stats, think, stop, True, patches),
        player(ws_base, t["id"], b["token"], stats, think, stop, False, patches),
        spectator(ws_base, t["id"], stop, patches),
    )


async def run_load(
    base: str, tables: int, seconds: float, think: float, pid: int, patches: bool
) -> dict[str, Any]:
    stats = Stats()
    before = rss_kb(pid)
    stop = Stop(time.monotonic() + 600)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        tasks = [
            asyncio.create_task(one_table(base, http, stats, think, stop, patches))
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
        server0, client0 = cpu_s(pid), time.process_time()
        await asyncio.sleep(seconds)
        server1, client1, moves1 = cpu_s(pid), time.process_time(), stats.moves
        await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = min(time.monotonic() - t0, seconds)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 1) if lat else None

    return {
        "tables": tables,
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
        "memory_kb_per_table": round((rss_kb(pid) - before) / tables, 1),
        "errors": len(stats.errors),
    }


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
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.tables.split(",") if x.strip()]
    modes = [m.strip() for m in args.states.split(",") if m.strip()]
    if not modes or set(modes) - {"patches", "whole"}:
        parser.error("--states: patches, whole or both")
    if not counts or min(counts) < 1 or max(counts) > 2000 or not 1 <= args.seconds <= 600:
        parser.error("--tables: 1..2000 each; --seconds: 1..600")
    out: dict[str, Any] = {"think_s": args.think, "seconds": args.seconds, "runs": []}
    for n, mode in [(n, m) for n in counts for m in modes]:
        port = free_port()
        with tempfile.TemporaryDirectory() as data, open(Path(data) / "log", "wb") as log:
            # the server's log goes to a file: a pipe nobody reads would fill and stall it
            server = subprocess.Popen(
                [
                    str(BONEPILE),
                    "serve",
                    "--port",
                    str(port),
                    "--data",
                    data,
                    "--bot-pace",
                    "0",
                    # every client of this benchmark is one address: its limits would stop it
                    *LIFTED,
                ],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
            try:
                base = f"http://127.0.0.1:{port}"
                for _ in range(100):
                    with contextlib.suppress(httpx.HTTPError):
                        if httpx.get(f"{base}/api/games").status_code == 200:
                            break
                    time.sleep(0.1)
                out["runs"].append(
                    asyncio.run(
                        run_load(base, n, args.seconds, args.think, server.pid, mode == "patches")
                    )
                )
            finally:
                server.terminate()
                server.wait(10)
            text = (Path(data) / "log").read_text(errors="replace")
            out["runs"][-1]["server_tracebacks"] = text.count("Traceback")
        print(json.dumps(out["runs"][-1]), file=sys.stderr, flush=True)
    out["cpu_count"] = os.cpu_count()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
